"""Differential tests: whole blocks through ``ge_mlir.compile`` against onnxruntime (and torch).

Graphs are built with ``onnx.helper`` (or exported from small torch modules),
run through ``ge_mlir.compile(model, target="cpu")`` and through onnxruntime's
CPUExecutionProvider on the same seeded random inputs. Tolerances, asserted by
:func:`assert_close`:

* float32: ``rtol=1e-5, atol=1e-5`` (blocks chain several reductions of up to a
  few hundred products and onnxruntime and the JIT sum in different orders; the
  largest difference measured is 7e-7 absolute on outputs of magnitude ~3, so
  this is tighter than the usual 1e-4 / 1e-5 with a 10x margin);
* float16: ``rtol=1e-2, atol=1e-2`` (compared in float32; onnxruntime and
  ge-mlir round intermediate f16 results at different points; measured up to
  2e-3 absolute for the decomposed layer norm);
* integers (int64 index paths, argmax-like outputs): exact.

Torch blocks (a small CNN, a BERT-style encoder layer, a GPT-style causal decoder
layer from ``bench/models.py``), exported with both the torch.export-based and
the TorchScript exporter, are compared with onnxruntime on the exported model
and with torch's own float32 output, at the same float32 tolerance.

"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
import ge_mlir.target.cpu.runner

TOL = {
    np.dtype(np.float32): {"rtol": 1e-5, "atol": 1e-5},
    np.dtype(np.float16): {"rtol": 1e-2, "atol": 1e-2},
}
ONNX_TYPE = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
             np.dtype(np.int64): TensorProto.INT64, np.dtype(np.int32): TensorProto.INT32}


def assert_close(got: np.ndarray, want: np.ndarray, what: str = "") -> None:
    """Shape and dtype equal; floats within TOL[dtype]; everything else exact."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind == "f":
        assert np.isfinite(want.astype(np.float32)).all(), f"{what}: the reference is not finite"
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), err_msg=what,
                                   **TOL[want.dtype])
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


class Graph:
    """A tiny ONNX graph builder: inputs, initializers, nodes, outputs."""

    def __init__(self, seed: int = 0, dtype=np.float32) -> None:
        self.rng = np.random.default_rng(seed)
        self.dtype = np.dtype(dtype)
        self.inputs, self.outputs, self.inits, self.nodes = [], [], [], []
        self.feeds: dict[str, np.ndarray] = {}
        self._n = 0

    def _name(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def input(self, name: str, shape, dtype=None, data: np.ndarray | None = None) -> str:
        dt = np.dtype(dtype or self.dtype)
        if data is None:
            data = self.rng.standard_normal(shape).astype(dt)
        self.inputs.append(helper.make_tensor_value_info(name, ONNX_TYPE[dt], list(shape)))
        self.feeds[name] = data
        return name

    def const(self, arr: np.ndarray, prefix: str = "c") -> str:
        name = self._name(prefix)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def weight(self, shape, scale: float | None = None, prefix: str = "w", dtype=None) -> str:
        """Random weights scaled like a default init (1/sqrt(fan_in)) so activations stay O(1)."""
        if scale is None:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
            scale = 1.0 / np.sqrt(max(fan_in, 1))
        return self.const((self.rng.standard_normal(shape) * scale).astype(dtype or self.dtype), prefix)

    def ints(self, values) -> str:
        return self.const(np.asarray(values, dtype=np.int64), "i")

    def node(self, op: str, inputs, n_out: int = 1, **attrs):
        outs = [self._name(op.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, list(inputs), outs, name=outs[0], **attrs))
        return outs[0] if n_out == 1 else outs

    def output(self, name: str, dtype=None) -> None:
        dt = np.dtype(dtype or self.dtype)
        self.outputs.append(helper.make_tensor_value_info(name, ONNX_TYPE[dt], None))

    def bn(self, x: str, c: int) -> str:
        dt = self.dtype
        scale = self.const((1 + 0.1 * self.rng.standard_normal(c)).astype(dt))
        bias = self.const((0.1 * self.rng.standard_normal(c)).astype(dt))
        mean = self.const((0.1 * self.rng.standard_normal(c)).astype(dt))
        var = self.const(self.rng.uniform(0.5, 1.5, c).astype(dt))
        return self.node("BatchNormalization", [x, scale, bias, mean, var], epsilon=1e-5)

    def model(self, opset: int = 17):
        graph = helper.make_graph(self.nodes, "g", self.inputs, self.outputs, initializer=self.inits)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def run_ort(model, feeds):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def differential(g: Graph, opset: int = 17) -> list[np.ndarray]:
    """Compiles and runs ``g`` with ge-mlir and onnxruntime; asserts every output; returns ge's."""
    model = g.model(opset)
    want = run_ort(model, g.feeds)
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    got = compiled(**g.feeds)
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want)):
        assert_close(a, b, f"output #{i}")
    return got


# --------------------------------------------------------------------------- ONNX blocks


def mlp(dtype=np.float32, use_gemm: bool = True, sizes=(8, 32, 64, 10)) -> Graph:
    """x[n, k] -> Gemm(transB)/MatMul+Add [h] -> Relu -> Gemm [o] -> Softmax."""
    n, k, h, o = sizes
    g = Graph(seed=1, dtype=dtype)
    x = g.input("x", (n, k))
    if use_gemm:
        t = g.node("Gemm", [x, g.weight((h, k)), g.weight((h,), 0.1)], transB=1)
    else:
        t = g.node("Add", [g.node("MatMul", [x, g.weight((k, h), 1 / np.sqrt(k))]), g.weight((h,), 0.1)])
    t = g.node("Relu", [t])
    y = g.node("Gemm", [t, g.weight((h, o), 1 / np.sqrt(h)), g.weight((o,), 0.1)], alpha=1.0, beta=1.0)
    g.output(g.node("Softmax", [y], axis=-1))
    return g


@pytest.mark.parametrize("use_gemm", [True, False], ids=["gemm", "matmul_add"])
def test_mlp_f32(use_gemm):
    (y,) = differential(mlp(np.float32, use_gemm))
    np.testing.assert_allclose(y.sum(-1), 1.0, rtol=1e-5)


@pytest.mark.parametrize("sizes", [(5, 300, 257, 17), (1, 513, 33, 3), (3, 7, 2, 1)], ids=str)
def test_mlp_odd_sizes(sizes):
    """K > 256 (K-blocked and not), column counts that are not powers of two, one row, one class."""
    (y,) = differential(mlp(np.float32, True, sizes))
    np.testing.assert_allclose(y.sum(-1), 1.0, rtol=1e-5)


def test_mlp_one_input_feature():
    """K = 1 (regression: the codegen strategy hoisted out of a K loop canonicalization had removed)."""
    differential(mlp(np.float32, True, (3, 1, 8, 5)))
    differential(mlp(np.float32, False, (1, 1, 1, 1)))


@pytest.mark.parametrize("use_gemm", [True, False], ids=["gemm", "matmul_add"])
def test_mlp_f16(use_gemm):
    (y,) = differential(mlp(np.float16, use_gemm))
    assert y.dtype == np.float16


def conv_block(g: Graph, x: str, cin: int, cout: int) -> str:
    h = g.node("Conv", [x, g.weight((cout, cin, 3, 3)), g.weight((cout,), 0.1)], pads=[1, 1, 1, 1])
    h = g.node("Relu", [g.bn(h, cout)])
    return g.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])


def test_conv_block():
    g = Graph(seed=2)
    g.output(conv_block(g, g.input("x", (2, 3, 16, 16)), 3, 8))
    differential(g)


def residual_block(g: Graph, x: str, cin: int, cout: int, stride: int) -> str:
    h = g.node("Conv", [x, g.weight((cout, cin, 3, 3))], pads=[1, 1, 1, 1], strides=[stride, stride])
    h = g.node("Relu", [g.bn(h, cout)])
    h = g.bn(g.node("Conv", [h, g.weight((cout, cout, 3, 3))], pads=[1, 1, 1, 1]), cout)
    skip = g.bn(g.node("Conv", [x, g.weight((cout, cin, 1, 1))], strides=[stride, stride]), cout)
    return g.node("Relu", [g.node("Add", [h, skip])])


def test_residual_block_with_downsample():
    g = Graph(seed=3)
    g.output(residual_block(g, g.input("x", (1, 8, 12, 12)), 8, 16, stride=2))
    (y,) = differential(g)
    assert y.shape == (1, 16, 6, 6)


def test_cnn_head_global_pool_flatten_gemm():
    g = Graph(seed=4)
    x = g.input("x", (2, 4, 10, 10))
    h = residual_block(g, conv_block(g, x, 4, 8), 8, 8, stride=1)
    h = g.node("Flatten", [g.node("GlobalAveragePool", [h])], axis=1)
    g.output(g.node("Gemm", [h, g.weight((5, 8)), g.weight((5,), 0.1)], transB=1))
    (y,) = differential(g)
    assert y.shape == (2, 5)


def clip6(g: Graph, x: str) -> str:
    return g.node("Clip", [x, g.const(np.array(0, g.dtype)), g.const(np.array(6, g.dtype))])


@pytest.mark.parametrize("hw,stride", [(9, 1), (11, 2)])
def test_inverted_residual_depthwise(hw, stride):
    """MobileNetV2 block: 1x1 expand + BN + ReLU6, depthwise 3x3 + BN + ReLU6, 1x1 project + BN (+ skip)."""
    g = Graph(seed=10)
    x = g.input("x", (1, 8, hw, hw))
    c = 48
    h = clip6(g, g.bn(g.node("Conv", [x, g.weight((c, 8, 1, 1))]), c))
    h = g.node("Conv", [h, g.weight((c, 1, 3, 3))], group=c, pads=[1, 1, 1, 1], strides=[stride, stride])
    h = g.bn(g.node("Conv", [clip6(g, g.bn(h, c)), g.weight((8, c, 1, 1))]), 8)
    g.output(g.node("Add", [h, x]) if stride == 1 else h)
    differential(g)


def attention(g: Graph, x: str, b: int, s: int, d: int, heads: int, causal: bool = False) -> str:
    dk = d // heads

    def proj(t: str) -> str:
        return g.node("Add", [g.node("MatMul", [t, g.weight((d, d), 1 / np.sqrt(d))]), g.weight((d,), 0.1)])

    def split_heads(t: str) -> str:  # (b, s, d) -> (b, h, s, dk)
        return g.node("Transpose", [g.node("Reshape", [t, g.ints([b, s, heads, dk])])], perm=[0, 2, 1, 3])

    q, k, v = (split_heads(proj(x)) for _ in range(3))
    kt = g.node("Transpose", [k], perm=[0, 1, 3, 2])
    scores = g.node("Div", [g.node("MatMul", [q, kt]), g.const(np.array(np.sqrt(dk), g.dtype))])
    if causal:
        mask = np.triu(np.full((s, s), -1e9, dtype=g.dtype), 1)
        scores = g.node("Add", [scores, g.const(mask)])
    p = g.node("Softmax", [scores], axis=-1)
    o = g.node("Transpose", [g.node("MatMul", [p, v])], perm=[0, 2, 1, 3])
    return proj(g.node("Reshape", [o, g.ints([b, s, d])]))


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_block(causal):
    g = Graph(seed=5)
    g.output(attention(g, g.input("x", (2, 8, 32)), 2, 8, 32, heads=4, causal=causal))
    differential(g)


def layer_norm(g: Graph, x: str, d: int, decomposed: bool) -> str:
    scale = g.const((1 + 0.1 * g.rng.standard_normal(d)).astype(g.dtype))
    bias = g.const((0.1 * g.rng.standard_normal(d)).astype(g.dtype))
    if not decomposed:
        return g.node("LayerNormalization", [x, scale, bias], axis=-1, epsilon=1e-5)
    axes = g.ints([-1])
    mean = g.node("ReduceMean", [x, axes], keepdims=1)  # opset 18: axes as an input
    c = g.node("Sub", [x, mean])
    var = g.node("ReduceMean", [g.node("Pow", [c, g.const(np.array(2.0, g.dtype))]), axes], keepdims=1)
    std = g.node("Sqrt", [g.node("Add", [var, g.const(np.array(1e-5, g.dtype))])])
    return g.node("Add", [g.node("Mul", [g.node("Div", [c, std]), scale]), bias])


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("decomposed", [False, True], ids=["LayerNormalization", "decomposed"])
def test_layer_norm(decomposed, dtype):
    g = Graph(seed=6, dtype=dtype)
    x = g.input("x", (2, 5, 48))
    g.feeds["x"] = (g.feeds["x"] * 3 + 1).astype(dtype)  # a non-zero mean, non-unit variance
    g.output(layer_norm(g, x, 48, decomposed))
    (y,) = differential(g, opset=18)
    assert y.dtype == np.dtype(dtype)


@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_softmax_axes(axis):
    g = Graph(seed=7)
    x = g.input("x", (3, 4, 5))
    g.feeds["x"] = g.feeds["x"] * 4  # spread logits so the max subtraction matters
    g.output(g.node("Softmax", [x], axis=axis))
    (y,) = differential(g)
    np.testing.assert_allclose(y.sum(axis), 1.0, rtol=1e-5)


def test_softmax_large_logits():
    g = Graph(seed=8)
    x = g.input("x", (4, 16), data=(g.rng.standard_normal((4, 16)) * 50 + 100).astype(np.float32))
    g.output(g.node("Softmax", [x], axis=1))
    differential(g)


def test_embedding_gather_int64():
    """int64 ids -> Gather (token + position embeddings) -> Add -> LayerNorm; ArgMax out (int64, exact)."""
    g = Graph(seed=9)
    vocab, s, d = 50, 7, 16
    ids = g.input("ids", (2, s), np.int64, data=g.rng.integers(0, vocab, (2, s)).astype(np.int64))
    tok = g.node("Gather", [g.weight((vocab, d), 1.0), ids], axis=0)
    pos = g.node("Gather", [g.weight((s, d), 1.0), g.ints(np.arange(s))], axis=0)
    h = layer_norm(g, g.node("Add", [tok, pos]), d, decomposed=False)
    g.output(h)
    g.output(g.node("ArgMax", [h], axis=-1, keepdims=0), np.int64)
    # An int64 arithmetic path on the ids themselves: (ids * 3 + 1) % vocab gathered again.
    ids2 = g.node("Mod", [g.node("Add", [g.node("Mul", [ids, g.ints(3)]), g.ints(1)]), g.ints(vocab)])
    g.output(ids2, np.int64)
    g.output(g.node("Gather", [g.weight((vocab, d), 1.0), ids2], axis=0))
    _, amax, ids2_, _ = differential(g)
    assert amax.dtype == np.int64 and ids2_.dtype == np.int64
    np.testing.assert_array_equal(ids2_, (g.feeds["ids"] * 3 + 1) % vocab)


# --------------------------------------------------------------------------- torch blocks


def _torch_cases(torch):
    """name -> (module in eval mode, example args), seeded."""
    root = str(Path(__file__).resolve().parents[3])
    if root not in sys.path:
        sys.path.insert(0, root)
    from torch import nn

    from bench.models import DecoderLayer, EncoderLayer

    class SmallCnn(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.AvgPool2d(2),
            )
            self.fc = nn.Linear(16 * 4 * 4, 10)

        def forward(self, x):
            return self.fc(torch.flatten(self.features(x), 1))

    gen = torch.manual_seed(0)
    cnn = SmallCnn()
    for m in cnn.modules():  # non-trivial running statistics: BatchNormalization is not the identity
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            m.running_mean.copy_(0.1 * torch.randn(c, generator=gen))
            m.running_var.copy_(torch.rand(c, generator=gen) + 0.5)
            m.weight.data.copy_(1 + 0.1 * torch.randn(c, generator=gen))
            m.bias.data.copy_(0.1 * torch.randn(c, generator=gen))
    enc = EncoderLayer(d=32, heads=4, ff=64)
    mask = torch.zeros(1, 1, 1, 8)
    mask[..., -2:] = -10000.0  # the last two keys are padding
    dec = DecoderLayer(d=32, heads=4)  # causal self-attention (masked_fill with -inf)
    return {
        "cnn": (cnn.eval(), (torch.randn(2, 3, 16, 16, generator=gen),)),
        "encoder": (enc.eval(), (torch.randn(2, 8, 32, generator=gen), mask)),
        "decoder": (dec.eval(), (torch.randn(2, 8, 32, generator=gen),)),
    }


@pytest.fixture(scope="module")
def torch_models():
    """name -> (module, example args, torch output); built once per test module."""
    torch = pytest.importorskip("torch")
    out = {}
    for name, (module, args) in _torch_cases(torch).items():
        with torch.no_grad():
            out[name] = (module, args, module(*args).numpy())
    return out


@pytest.fixture(scope="module")
def exported(torch_models):
    """(name, exporter) -> ModelProto, exported on first use: the torch.export-based
    exporter (default opset) and the TorchScript one at opset 14 (LayerNormalization
    decomposed, other op patterns)."""
    from ge_mlir.frontend.torch import export_onnx

    cache = {}

    def get(name: str, exporter: str):
        if (name, exporter) not in cache:
            module, args, _ = torch_models[name]
            opset = 14 if exporter == "torchscript" else None
            cache[name, exporter] = export_onnx(module, args, exporter=exporter, opset=opset)
        return cache[name, exporter]

    return get


@pytest.mark.parametrize("exporter", ["dynamo", "torchscript"])
@pytest.mark.parametrize("name", ["cnn", "encoder", "decoder"])
def test_torch_exported_block(torch_models, exported, name, exporter):
    """The exported ONNX model: ge-mlir vs onnxruntime vs torch, pairwise."""
    _, args, ref = torch_models[name]
    proto = exported(name, exporter)
    feeds = {i.name: a.numpy() for i, a in zip(proto.graph.input, args)}
    (want,) = run_ort(proto, feeds)
    compiled = ge_mlir.compile(proto, progress=False)
    (got,) = compiled(*[a.numpy() for a in args])
    assert_close(got, want, f"{name}: ge-mlir vs onnxruntime")
    assert_close(got, ref, f"{name}: ge-mlir vs torch")
    assert_close(want, ref, f"{name}: onnxruntime vs torch")


def test_torch_module_compiled_directly(torch_models):
    """``ge_mlir.compile(module, example_inputs=...)`` exports internally; same numbers as torch."""
    module, args, ref = torch_models["encoder"]
    compiled = ge_mlir.compile(module, example_inputs=args, progress=False)
    (got,) = compiled(*[a.numpy() for a in args])
    assert_close(got, ref, "encoder compiled from the torch module")


def test_decoder_is_causal(torch_models, exported):
    """Changing the last token leaves every earlier position's output unchanged (the mask works)."""
    _, args, _ = torch_models["decoder"]
    compiled = ge_mlir.compile(exported("decoder", "dynamo"), progress=False)
    x = args[0].numpy().copy()
    (a,) = compiled(x)
    x[:, -1] += 1.0
    (b,) = compiled(x)
    np.testing.assert_array_equal(a[:, :-1], b[:, :-1])
    assert np.abs(a[:, -1] - b[:, -1]).max() > 1e-3
