"""Benchmark models built with torch (random weights, no downloads).

ResNet-18 and MobileNetV2 (torchvision's layouts, written out because
torchvision cannot be installed beside this machine's torch), a ViT-style
classifier (patch 16, 4 layers, hidden 192), a BERT-style encoder (4 layers, hidden
256, seq 128), a GPT-2-style decoder (2 layers, hidden 256, seq 128) and a small UNet
(3 levels, 8 to 64 channels, 128x128 input; the rematerialization example of docs/memory.md).
:func:`speed_models` adds a batch-1 MLP (512-1024-512) and a LLaMA-style decoder (RMSNorm,
rotary embeddings, SiLU-gated MLP, grouped-query attention; 2 layers, hidden 256, seq 128) for
the latency benchmark (bench/run.py) and the node counts.
"""

from __future__ import annotations

import torch
from torch import nn


class BasicBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + (self.down(x) if self.down is not None else x))


class ResNet18(nn.Module):
    def __init__(self, classes: int = 1000) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        chans, layers, cin = [64, 128, 256, 512], [], 64
        for i, c in enumerate(chans):
            layers += [BasicBlock(cin, c, 1 if i == 0 else 2), BasicBlock(c, c, 1)]
            cin = c
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.layers(self.stem(x))), 1))


class InvertedResidual(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, expand: int) -> None:
        super().__init__()
        hidden = cin * expand
        layers: list[nn.Module] = []
        if expand != 1:
            layers += [nn.Conv2d(cin, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6()]
        layers += [
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(),
            nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout),
        ]
        self.conv = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        return x + self.conv(x) if self.residual else self.conv(x)


class MobileNetV2(nn.Module):
    # (expansion, channels, repeats, first stride), torchvision's table.
    SETTINGS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]

    def __init__(self, classes: int = 1000) -> None:
        super().__init__()
        layers: list[nn.Module] = [nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6()]
        cin = 32
        for t, c, n, s in self.SETTINGS:
            for i in range(n):
                layers.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        layers += [nn.Conv2d(cin, 1280, 1, bias=False), nn.BatchNorm2d(1280), nn.ReLU6()]
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(1280, classes)

    def forward(self, x):
        return self.classifier(torch.flatten(nn.functional.adaptive_avg_pool2d(self.features(x), 1), 1))


class SelfAttention(nn.Module):
    def __init__(self, d: int, heads: int, causal: bool) -> None:
        super().__init__()
        self.h, self.dk, self.causal = heads, d // heads, causal
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, mask=None):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (t.reshape(b, s, self.h, self.dk).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-1, -2)) / (self.dk ** 0.5)
        if self.causal:
            att = att.masked_fill(torch.triu(torch.ones(s, s, dtype=torch.bool), 1), float("-inf"))
        if mask is not None:
            att = att + mask
        y = torch.softmax(att, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, s, d))


class EncoderLayer(nn.Module):
    def __init__(self, d: int, heads: int, ff: int) -> None:
        super().__init__()
        self.att = SelfAttention(d, heads, causal=False)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

    def forward(self, x, mask):
        x = self.ln1(x + self.att(x, mask))
        return self.ln2(x + self.ff(x))


class BertEncoder(nn.Module):
    def __init__(self, vocab=30522, d=256, heads=4, ff=1024, layers=4, seq=128) -> None:
        super().__init__()
        self.tok, self.pos, self.typ = nn.Embedding(vocab, d), nn.Embedding(seq, d), nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, ff) for _ in range(layers))

    def forward(self, ids, attention_mask):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.ln(self.tok(ids) + self.pos(pos) + self.typ(torch.zeros_like(ids)))
        mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return x


class DecoderLayer(nn.Module):
    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.att = SelfAttention(d, heads, causal=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.att(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Gpt2Decoder(nn.Module):
    def __init__(self, vocab=50257, d=256, heads=4, layers=2, seq=128) -> None:
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.layers = nn.ModuleList(DecoderLayer(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.wte(ids) + self.wpe(pos)
        for layer in self.layers:
            x = layer(x)
        return self.ln_f(x) @ self.wte.weight.t()


class KvSelfAttention(nn.Module):
    """Causal self-attention over a KV cache: past keys/values [b, heads, past, dk] in, present
    (past + this call's) out; the mask compares positions, so any past length works."""

    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, past_k, past_v):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (t.reshape(b, s, self.h, self.dk).transpose(1, 2) for t in (q, k, v))
        k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
        t = k.shape[2]
        future = (torch.arange(s)[:, None] + (t - s)) < torch.arange(t)[None, :]
        att = ((q @ k.transpose(-1, -2)) / (self.dk ** 0.5)).masked_fill(future, float("-inf"))
        y = torch.softmax(att, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, s, d)), k, v


class Gpt2KvDecoder(nn.Module):
    """The GPT-2-style decoder with a KV cache: (ids, past_k0, past_v0, ...) -> (logits, present_k0,
    present_v0, ...); positions continue after the past (a greedy decode loop feeds present back)."""

    def __init__(self, vocab=50257, d=256, heads=4, layers=2, seq=128) -> None:
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.att = nn.ModuleList(KvSelfAttention(d, heads) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))
                                 for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.heads, self.dk, self.layers = heads, d // heads, layers

    def forward(self, ids, *past):
        s, p = ids.shape[1], past[0].shape[2]
        x = self.wte(ids) + self.wpe(torch.arange(p, p + s).unsqueeze(0))
        present = []
        for i in range(self.layers):
            a, k, v = self.att[i](self.ln1[i](x), past[2 * i], past[2 * i + 1])
            x = x + a
            x = x + self.mlp[i](self.ln2[i](x))
            present += [k, v]
        return (self.ln_f(x) @ self.wte.weight.t(), *present)


class VitTiny(nn.Module):
    """ViT-style classifier: 16x16 patch embedding (a strided conv), 4 encoder layers, hidden 192."""

    def __init__(self, d=192, heads=3, layers=4, classes=1000) -> None:
        super().__init__()
        self.patch = nn.Conv2d(3, d, 16, 16)
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, 197, d) * 0.02)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, 4 * d) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        mask = torch.zeros(1, 1, 1, x.shape[1])
        for layer in self.layers:
            x = layer(x, mask)
        return self.head(self.ln(x[:, 0]))


class UNetBlock(nn.Module):
    """(3x3 conv, batch norm, ReLU) twice."""

    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
        )

    def forward(self, x):
        return self.body(x)


class UNet(nn.Module):
    """UNet-style encoder/decoder: per level a block, then 2x2 max pooling; a bottleneck block;
    per level back up a 2x2 stride-2 transposed convolution, concatenated with the encoder's
    output of that level (the skip connection), then a block; a 1x1 convolution to the classes.
    Channels grow by ``growth`` per level (``base``, growth*base, ...)."""

    def __init__(self, cin: int = 3, classes: int = 2, base: int = 8, levels: int = 3, growth: int = 2) -> None:
        super().__init__()
        ch = [base * growth**i for i in range(levels + 1)]
        self.down = nn.ModuleList(UNetBlock(cin if i == 0 else ch[i - 1], ch[i]) for i in range(levels))
        self.bottom = UNetBlock(ch[levels - 1], ch[levels])
        self.up = nn.ModuleList(nn.ConvTranspose2d(ch[i + 1], ch[i], 2, 2) for i in reversed(range(levels)))
        self.dec = nn.ModuleList(UNetBlock(2 * ch[i], ch[i]) for i in reversed(range(levels)))
        self.head = nn.Conv2d(ch[0], classes, 1)

    def forward(self, x):
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = nn.functional.max_pool2d(x, 2)
        x = self.bottom(x)
        for up, block, skip in zip(self.up, self.dec, reversed(skips)):
            x = block(torch.cat([up(x), skip], 1))
        return self.head(x)


def unet():
    """(name, module, example args, input names) of the UNet (seeded; importable alone, as the
    rematerialization tests do)."""
    torch.manual_seed(0)
    return ("unet", UNet().eval(), (torch.randn(1, 3, 128, 128),), ["image"])


class Mlp(nn.Module):
    """Two linear layers with a ReLU between them (torch ``nn.Linear``: exported as Gemm)."""

    def __init__(self, d_in: int = 512, hidden: int = 1024, d_out: int = 512) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, d_out))

    def forward(self, x):
        return self.body(x)


class RmsNorm(nn.Module):
    def __init__(self, d: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def _rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat([-b, a], dim=-1)


class LlamaLayer(nn.Module):
    """RMSNorm, causal grouped-query attention with rotary embeddings, RMSNorm, SiLU-gated MLP."""

    def __init__(self, d: int, heads: int, kv_heads: int, ff: int) -> None:
        super().__init__()
        self.h, self.kvh, self.dk = heads, kv_heads, d // heads
        self.norm1, self.norm2 = RmsNorm(d), RmsNorm(d)
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, kv_heads * self.dk, bias=False)
        self.v = nn.Linear(d, kv_heads * self.dk, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.gate, self.up = nn.Linear(d, ff, bias=False), nn.Linear(d, ff, bias=False)
        self.down = nn.Linear(ff, d, bias=False)

    def forward(self, x, cos, sin, mask):
        b, s, d = x.shape
        h = self.norm1(x)
        q = self.q(h).reshape(b, s, self.h, self.dk).transpose(1, 2)
        k = self.k(h).reshape(b, s, self.kvh, self.dk).transpose(1, 2)
        v = self.v(h).reshape(b, s, self.kvh, self.dk).transpose(1, 2)
        q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
        rep = self.h // self.kvh
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        att = torch.softmax((q @ k.transpose(-1, -2)) / (self.dk ** 0.5) + mask, dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(b, s, d))
        h = self.norm2(x)
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class LlamaDecoder(nn.Module):
    def __init__(self, vocab=4096, d=256, heads=8, kv_heads=2, ff=688, layers=2, seq=128) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(LlamaLayer(d, heads, kv_heads, ff) for _ in range(layers))
        self.norm = RmsNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        dk = d // heads
        inv = 1.0 / (10000 ** (torch.arange(0, dk, 2).float() / dk))
        angles = torch.outer(torch.arange(seq).float(), inv)
        angles = torch.cat([angles, angles], dim=-1)
        self.register_buffer("cos", angles.cos()[None, None], persistent=False)
        self.register_buffer("sin", angles.sin()[None, None], persistent=False)
        self.register_buffer("mask", torch.full((seq, seq), float("-inf")).triu(1), persistent=False)

    def forward(self, ids):
        s = ids.shape[1]
        x = self.embed(ids)
        cos, sin, mask = self.cos[:, :, :s], self.sin[:, :, :s], self.mask[:s, :s]
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.head(self.norm(x))


def speed_models():
    """:func:`benchmark_models` plus the batch-1 MLP and the LLaMA-style decoder (bench/run.py)."""
    models = benchmark_models()
    torch.manual_seed(1)
    mlp = ("mlp_b1", Mlp().eval(), (torch.randn(1, 512),), ["x"])
    llama = ("llama_decoder", LlamaDecoder().eval(), (torch.randint(0, 4096, (1, 128)),), ["input_ids"])
    return [mlp, *models[:4], llama, *models[4:]]


def benchmark_models():
    """(name, module, example args, input names) of the benchmark set."""
    torch.manual_seed(0)
    ids = torch.randint(0, 30522, (1, 128))
    return [
        ("resnet18", ResNet18().eval(), (torch.randn(1, 3, 224, 224),), ["image"]),
        ("mobilenet_v2", MobileNetV2().eval(), (torch.randn(1, 3, 224, 224),), ["image"]),
        ("bert_encoder", BertEncoder().eval(), (ids, torch.ones(1, 128, dtype=torch.int64)), ["input_ids", "attention_mask"]),
        ("gpt2_decoder", Gpt2Decoder().eval(), (torch.randint(0, 50257, (1, 128)),), ["input_ids"]),
        ("vit_tiny", VitTiny().eval(), (torch.randn(1, 3, 224, 224),), ["image"]),
        unet(),
    ]


class SmallResNet(nn.Module):
    """Two BasicBlocks on 32x32 images: the ResNet-style CNN of the parallel tests and bench."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.MaxPool2d(2))
        self.layers = nn.Sequential(BasicBlock(16, 16, 1), BasicBlock(16, 32, 2))
        self.pool, self.fc = nn.AdaptiveAvgPool2d(1), nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.layers(self.stem(x))), 1))


def parallel_models():
    """(name, module, example args, input names) of the reduced models the parallel tests and
    bench/parallel.py run on several ranks: BERT-style and GPT-2-style at 2 layers, hidden 64,
    sequence 16, batch 4 (one attention mask row half padded), and :class:`SmallResNet` at batch 4."""
    torch.manual_seed(0)
    ids = torch.randint(0, 512, (4, 16))
    mask = torch.ones(4, 16, dtype=torch.int64)
    mask[1, 10:] = 0
    return [
        ("bert", BertEncoder(vocab=512, d=64, heads=4, ff=256, layers=2, seq=16).eval(), (ids, mask),
         ["input_ids", "attention_mask"]),
        ("gpt2", Gpt2Decoder(vocab=512, d=64, heads=4, layers=2, seq=16).eval(), (ids,), ["input_ids"]),
        ("cnn", SmallResNet().eval(), (torch.randn(4, 3, 32, 32),), ["image"]),
    ]
