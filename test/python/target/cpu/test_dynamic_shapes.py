"""Run-time (symbolic) dimensions on the CPU target: one compiled artefact, many shapes.

Numerics against onnxruntime (f32: max abs error 1e-4 relative to the output's magnitude).
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.errors import ExecutionError


def _model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _close(y: np.ndarray, ref: np.ndarray) -> None:
    assert y.shape == ref.shape and y.dtype == ref.dtype
    scale = max(1.0, float(np.abs(ref).max()) if ref.size else 1.0)
    assert float(np.abs(y - ref).max() if y.size else 0.0) <= 1e-4 * scale


def _attention_model() -> onnx.ModelProto:
    """Projection, ReLU, scores = h @ h^T, softmax, layer norm of scores @ h: [batch, seq, 16] -> [batch, seq, 8]."""
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((16, 8)).astype(np.float32) * 0.3, "w")
    b = numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b")
    g = numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "g")
    shape = numpy_helper.from_array(np.array([0, 0, 2, 4], np.int64), "heads")
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Add", ["m", "b"], ["a"]),
        helper.make_node("Relu", ["a"], ["h"]),
        helper.make_node("Transpose", ["h"], ["ht"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["h", "ht"], ["s"]),
        helper.make_node("Softmax", ["s"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "h"], ["o"]),
        helper.make_node("LayerNormalization", ["o", "g", "b"], ["n"], axis=-1),
        helper.make_node("Reshape", ["n", "heads"], ["r"]),
        helper.make_node("Transpose", ["r"], ["rt"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["rt", "flat"], ["y"]),
    ]
    flat = numpy_helper.from_array(np.array([0, -1, 4], np.int64), "flat")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    return _model(nodes, [x], [y], [w, b, g, shape, flat])


def test_one_artefact_runs_every_batch_and_sequence():
    model = _attention_model()
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(1)
    for batch, seq in ((1, 7), (3, 128), (8, 300), (1, 1)):
        x = rng.standard_normal((batch, seq, 16)).astype(np.float32)
        (y,) = compiled(x)
        _close(y, sess.run(None, {"x": x})[0])


def test_broadcast_of_a_static_one_and_zero_size_batches():
    c = numpy_helper.from_array(np.arange(4, dtype=np.float32).reshape(1, 4), "c")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 4])
    model = _model([helper.make_node("Mul", ["x", "c"], ["t"]), helper.make_node("Tanh", ["t"], ["y"])], [x], [y], [c])
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    for n in (0, 1, 5):
        xv = np.linspace(-2, 2, 4 * n, dtype=np.float32).reshape(n, 4)
        (yv,) = compiled(xv)
        _close(yv, np.tanh(xv * np.arange(4, dtype=np.float32)))


def test_same_dim_param_must_have_the_same_size():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])
    compiled = ge_mlir.compile(_model([helper.make_node("Add", ["x", "z"], ["y"])], [x, z], [y]),
                               target="cpu", progress=False)
    with pytest.raises(ExecutionError, match=r"dimension 'batch' is 3 in input 'x' \(dim 0\) but 4 in input 'z'"):
        compiled(np.ones((3, 4), np.float32), np.ones((4, 4), np.float32))
    with pytest.raises(ExecutionError, match="expected"):
        compiled(np.ones((3, 5), np.float32), np.ones((3, 5), np.float32))  # a static dim is still static


def test_run_time_shape_mismatch_names_the_op_and_node():
    """Unrelated ? dims that an op needs equal: a shape check fails the call, naming the ONNX node;
    no loop reads past the smaller operand (the op runs over the smaller size)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["a", 4])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["b", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    model = _model([helper.make_node("Sub", ["x", "z"], ["y"], name="the_sub")], [x, z], [y])
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    (ok,) = compiled(a, a + 1)
    _close(ok, -np.ones((3, 4), np.float32))
    with pytest.raises(ExecutionError, match=r"ge.sub .*run-time shapes do not fit") as e:
        compiled(a, np.ones((2000, 4), np.float32))
    assert e.value.node == "the_sub"


def test_matmul_k_mismatch_is_checked():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["m", "k"])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, ["k2", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    compiled = ge_mlir.compile(_model([helper.make_node("MatMul", ["x", "w"], ["y"])], [x, w], [y]),
                               target="cpu", progress=False)
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal((7, 3)).astype(np.float32)
    _close(compiled(a, b)[0], a @ b)
    with pytest.raises(ExecutionError, match="the K sizes of A and B"):
        compiled(a, rng.standard_normal((9, 3)).astype(np.float32))


def test_torch_exported_mlp_with_a_dynamic_batch():
    torch = pytest.importorskip("torch")
    from ge_mlir.frontend.torch import export_onnx

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 10), torch.nn.Softmax(-1))
    model = export_onnx(net, [torch.randn(2, 32)], input_names=["x"], dynamic_batch=True, exporter="torchscript")
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(3)
    for batch in (1, 3, 8):
        x = rng.standard_normal((batch, 32)).astype(np.float32)
        _close(compiled(x)[0], sess.run(None, {"x": x})[0])


def test_a_saved_dynamic_artefact_keeps_its_checks(tmp_path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["a", 4])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["b", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    compiled = ge_mlir.compile(_model([helper.make_node("Add", ["x", "z"], ["y"])], [x, z], [y]),
                               target="cpu", progress=False)
    path = tmp_path / "dyn.gemlir"
    compiled.save(path)
    loaded = ge_mlir.load(path)
    for n in (1, 6):
        a = np.full((n, 4), 2.0, np.float32)
        _close(loaded(a, a)[0], a * 2)
    with pytest.raises(ExecutionError, match="run-time shapes do not fit"):
        loaded(np.ones((2, 4), np.float32), np.ones((3, 4), np.float32))


def _torch_dynamic(net, args, names):
    """A torch module exported with dynamic batch and sequence axes (torchscript exporter: the
    Shape -> Gather -> Concat -> Reshape chains torch emits for them)."""
    from ge_mlir.frontend.torch import export_onnx

    axes = {n: {0: "batch", 1: "seq"} for n in names}
    return export_onnx(net, args, input_names=names, output_names=["y"], dynamic_axes=axes, exporter="torchscript")


@pytest.mark.parametrize("which", ["bert", "gpt2"])
def test_torch_exported_transformers_with_dynamic_batch_and_sequence(which):
    """Compiled once, run at several (batch, sequence) shapes; the run-time shape computations of
    the export (reshape targets, zeros_like, arange, the causal triu mask) need no fixed shape."""
    torch = pytest.importorskip("torch")
    from bench.models import BertEncoder, Gpt2Decoder

    torch.manual_seed(0)
    if which == "bert":
        net = BertEncoder(vocab=1000, d=64, heads=4, ff=128, layers=2, seq=64).eval()
        names = ["input_ids", "attention_mask"]
        args = (torch.randint(0, 1000, (2, 16)), torch.ones(2, 16, dtype=torch.int64))
    else:
        net = Gpt2Decoder(vocab=1000, d=64, heads=4, layers=2, seq=64).eval()
        names = ["input_ids"]
        args = (torch.randint(0, 1000, (2, 16)),)
    model = _torch_dynamic(net, args, names)
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    assert all(spec.shape == (None, None) for spec in compiled.inputs)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(4)
    for batch, seq in ((1, 7), (3, 33), (2, 64)):
        feeds = {"input_ids": rng.integers(0, 1000, (batch, seq)).astype(np.int64)}
        if "attention_mask" in names:
            mask = np.ones((batch, seq), np.int64)
            mask[-1, seq // 2:] = 0
            feeds["attention_mask"] = mask
        (y,) = compiled(**feeds)
        _close(y, sess.run(None, feeds)[0])


def test_fill_and_range_take_run_time_sizes():
    """ConstantOfShape of a run-time shape (ge.fill) and Range with a run-time limit."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", "m"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    r = helper.make_tensor_value_info("r", TensorProto.INT64, None)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("ConstantOfShape", ["s"], ["f"], value=numpy_helper.from_array(np.array([2.5], np.float32))),
        helper.make_node("Add", ["x", "f"], ["y"]),
        helper.make_node("Gather", ["s", "one"], ["m"], axis=0),
        helper.make_node("Range", ["zero", "m", "two"], ["r"]),
    ]
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in (("one", 1), ("zero", 0), ("two", 2))]
    compiled = ge_mlir.compile(_model(nodes, [x], [y, r], inits), target="cpu", progress=False)
    for n, m in ((1, 1), (2, 5), (4, 0)):
        xv = np.ones((n, m), np.float32)
        yv, rv = compiled(xv)
        _close(yv, xv + 2.5)
        assert rv.dtype == np.int64 and rv.tolist() == list(range(0, m, 2))


def test_gpt2_kv_cache_greedy_decode_matches_onnxruntime():
    """One compiled model, a prefill of 5 tokens from an empty (0-length) cache, then 31 decode steps
    feeding present_* back as past_*: the same 32 tokens as onnxruntime."""
    torch = pytest.importorskip("torch")
    from bench.models import Gpt2KvDecoder
    from ge_mlir.frontend.torch import export_onnx

    layers, heads, dk, vocab = 2, 4, 16, 1000
    torch.manual_seed(0)
    net = Gpt2KvDecoder(vocab=vocab, d=heads * dk, heads=heads, layers=layers, seq=64).eval()
    with torch.no_grad():  # a random model whose greedy tokens vary (tied embeddings repeat the input)
        net.wte.weight.mul_(0.05)
        for mlp in net.mlp:
            mlp[2].weight.mul_(4.0)
    names = ["input_ids"] + [f"past_{kv}{i}" for i in range(layers) for kv in "kv"]
    outs = ["logits"] + [f"present_{kv}{i}" for i in range(layers) for kv in "kv"]
    axes = {"input_ids": {0: "batch", 1: "seq"}, **{n: {0: "batch", 2: "past"} for n in names[1:]}}
    example = [torch.randint(0, vocab, (1, 2)), *(torch.randn(1, heads, 3, dk) for _ in range(2 * layers))]
    model = export_onnx(net, example, input_names=names, output_names=outs, dynamic_axes=axes, exporter="torchscript")
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])

    def decode(run):
        ids = np.array([[5, 17, 42, 7, 99]], np.int64)
        past = [np.zeros((1, heads, 0, dk), np.float32) for _ in range(2 * layers)]
        tokens, logits = [], []
        for _ in range(32):
            res = run(ids, past)
            logits.append(res[0][0, -1])
            past = list(res[1:])
            tokens.append(int(np.argmax(res[0][0, -1])))
            ids = np.array([[tokens[-1]]], np.int64)
        assert past[0].shape == (1, heads, 5 + 31, dk)
        return tokens, np.stack(logits)

    ours, ours_logits = decode(lambda ids, past: compiled(ids, *past))
    ref, ref_logits = decode(lambda ids, past: sess.run(None, {"input_ids": ids, **dict(zip(names[1:], past))}))
    assert ours == ref and len(set(ref)) > 10
    _close(ours_logits, ref_logits)


def test_reshape_to_a_shape_given_at_run_time():
    """ONNX Reshape with its shape an input: read when it runs (0 copies, -1 infers), compiled once."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 6])
    s = helper.make_tensor_value_info("s", TensorProto.INT64, [3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    compiled = ge_mlir.compile(_model([helper.make_node("Reshape", ["x", "s"], ["y"])], [x, s], [y]),
                               target="cpu", progress=False)
    xv = np.arange(24, dtype=np.float32).reshape(4, 6)
    for shape in ([2, 3, 4], [0, 3, -1], [-1, 1, 2], [1, 1, 24]):
        (yv,) = compiled(xv, np.array(shape, np.int64))
        want = xv.reshape([xv.shape[i] if d == 0 else d for i, d in enumerate(shape)])
        _close(yv, want)
    with pytest.raises(ExecutionError, match="element counts of the input and the shape"):
        compiled(xv, np.array([5, 5, 1], np.int64))
    with pytest.raises(ExecutionError, match="more than one -1"):
        compiled(xv, np.array([-1, -1, 6], np.int64))


def test_clip_bounds_given_at_run_time():
    """Clip's min/max as graph inputs: compiled once (ge.max/ge.min), min > max gives max, NaN stays."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [5])
    lo = helper.make_tensor_value_info("lo", TensorProto.FLOAT, [])
    hi = helper.make_tensor_value_info("hi", TensorProto.FLOAT, [])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [5])
    model = helper.make_model(helper.make_graph([helper.make_node("Clip", ["x", "lo", "hi"], ["y"])], "g",
                                                [x, lo, hi], [y]), opset_imports=[helper.make_opsetid("", 13)])
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    xv = np.array([-3, -1, 0, np.nan, 5], np.float32)
    for a, b in ((-1.0, 1.0), (2.0, 1.0), (-10.0, 10.0)):
        feeds = {"x": xv, "lo": np.array(a, np.float32), "hi": np.array(b, np.float32)}
        np.testing.assert_array_equal(compiled(**feeds)[0], sess.run(None, feeds)[0])
