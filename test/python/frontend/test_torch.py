"""PyTorch front end: ResNet- and BERT-style models (random weights, no
downloads) exported by torch and imported into ge with node locations."""

import pytest

torch = pytest.importorskip("torch", reason="PyTorch not installed (pip install torch==2.13.0)")
nn = torch.nn

from mlir import ir  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.frontend.torch import TorchImportError, export_onnx, import_module  # noqa: E402


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
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


class TinyResNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 7, 2, 3, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        self.layer1 = BasicBlock(16, 16, 1)
        self.layer2 = BasicBlock(16, 32, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, mask):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (t.reshape(b, s, self.h, self.dk).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-1, -2)) / (self.dk ** 0.5) + mask
        y = torch.softmax(att, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, s, d))


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.att = Attention(d, heads)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x, mask):
        x = self.ln1(x + self.att(x, mask))
        return self.ln2(x + self.ff(x))


class TinyBert(nn.Module):
    def __init__(self, vocab=100, d=32, heads=4, ff=64, layers=2, seq=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, ff) for _ in range(layers))
        self.pooler = nn.Linear(d, d)

    def forward(self, ids, attention_mask):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.ln(self.tok(ids) + self.pos(pos))
        mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return x, torch.tanh(self.pooler(x[:, 0]))


def _ops(module: ir.Module) -> set[str]:
    ops = set()
    for fn in module.body.operations:
        for op in fn.regions[0].blocks[0].operations:
            ops.add(op.operation.name)
    return ops


@pytest.mark.parametrize("exporter", ["dynamo", "torchscript"])
def test_resnet_style_cnn(ctx, exporter):
    torch.manual_seed(0)
    model = TinyResNet()
    module = import_module(model, (torch.randn(1, 3, 64, 64),), input_names=["image"], exporter=exporter)
    ge_mlir.verify(module)
    ops = _ops(module)
    assert {"ge.conv2d", "ge.max_pool2d", "ge.add", "ge.relu"} <= ops
    assert "ge.gemm" in ops or "ge.matmul" in ops
    text = module.operation.get_asm(enable_debug_info=True)
    assert '{onnx.name = "image"}' in text
    assert 'fused<"Conv">' in text  # node-name locations
    assert "-> (tensor<1x10xf32>" in text


@pytest.mark.parametrize("exporter", ["dynamo", "torchscript"])
def test_bert_style_encoder(ctx, exporter):
    torch.manual_seed(0)
    model = TinyBert()
    ids = torch.randint(0, 100, (2, 16))
    mask = torch.ones(2, 16, dtype=torch.int64)
    module = import_module(model, (ids, mask), input_names=["input_ids", "attention_mask"], exporter=exporter)
    ge_mlir.verify(module)
    ops = _ops(module)
    assert "ge.gather" in ops and "ge.softmax" in ops and "ge.matmul" in ops
    assert "ge.layer_norm" in ops or "ge.reduce_mean" in ops
    text = module.operation.get_asm(enable_debug_info=True)
    assert "tensor<2x16x32xf32>" in text
    assert 'fused<"Softmax">' in text


def test_export_errors_are_typed(ctx):
    class Bad(nn.Module):
        def forward(self, x):
            return x.numpy()  # not traceable

    with pytest.raises(TorchImportError, match="torch.onnx.export"):
        export_onnx(Bad(), (torch.randn(2),), exporter="torchscript")
    with pytest.raises(TorchImportError, match="unknown exporter"):
        export_onnx(nn.ReLU(), (torch.randn(2),), exporter="tvm")
