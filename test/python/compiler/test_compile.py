"""ge_mlir.compile, CompiledModel and ge-compile: model forms, stages, bad inputs."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from mlir import ir
from onnx import TensorProto, helper

import ge_mlir
from ge_mlir.compiler.progress import ProgressBar
from ge_mlir.runtime.stages import STAGES
from ge_mlir.tools import ge_compile

IR = """
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %0 = ge.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.less %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi1>
}"""


def onnx_model() -> onnx.ModelProto:
    nodes = [helper.make_node("Add", ["x", "y"], ["sum"]), helper.make_node("Less", ["x", "y"], ["lt"])]
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("sum", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("lt", TensorProto.BOOL, [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


X = np.arange(6, dtype=np.float32).reshape(2, 3)
Y = np.full((2, 3), 2.5, np.float32)


def check_outputs(outs):
    np.testing.assert_array_equal(outs[0], X + Y)
    np.testing.assert_array_equal(outs[1], X < Y)
    assert outs[1].dtype == np.bool_


@pytest.mark.parametrize("form", ["proto", "bytes", "path", "ir-text", "ir-module", "mlir-path"])
def test_model_forms(form, tmp_path):
    if form == "proto":
        model = onnx_model()
    elif form == "bytes":
        model = onnx_model().SerializeToString()
    elif form == "path":
        model = tmp_path / "m.onnx"
        onnx.save(onnx_model(), model)
        model = str(model)
    elif form == "ir-text":
        model = IR
    elif form == "mlir-path":
        model = tmp_path / "m.mlir"
        model.write_text(IR)
    else:
        with ir.Context():
            model = ge_mlir.parse_module(IR)
            compiled = ge_mlir.compile(model, progress=False)
        check_outputs(compiled(X, Y))
        return
    compiled = ge_mlir.compile(model, progress=False)
    check_outputs(compiled(X, Y))
    check_outputs(compiled(y=Y, x=X) if compiled.input_names == ["x", "y"] else compiled(arg1=Y, arg0=X))


def test_io_specs_and_names():
    m = ge_mlir.compile(onnx_model(), progress=False)
    assert m.input_names == ["x", "y"] and m.output_names == ["sum", "lt"]
    assert [(s.shape, s.dtype) for s in m.outputs] == [((2, 3), np.dtype(np.float32)), ((2, 3), np.dtype(np.bool_))]
    assert "x: 2x3 float32" in repr(m)
    assert set(m.stage_times) == {*STAGES, "jit"} and m.compile_time > 0


def test_ir_of_every_stage():
    m = ge_mlir.compile(IR, progress=False)
    assert m.stages == STAGES
    assert "ge.add" in m.ir("ge") and "ge.add" in m.ir("optimized")
    assert "linalg.generic" in m.ir("linalg") and "ge." not in m.ir("linalg")
    assert "memref<2x3xf32>" in m.ir("bufferized") and "tensor<" not in m.ir("bufferized").split("{-#")[0]
    assert "llvm.func @f" in m.ir("llvm") and m.ir() == m.ir("llvm")


@pytest.mark.parametrize("stage", STAGES[:-1])
def test_compile_to_stops_early(stage):
    m = ge_mlir.compile(IR, compile_to=stage, progress=False)
    assert m.stages == STAGES[: STAGES.index(stage) + 1]
    assert m.input_names == ["arg0", "arg1"]
    with pytest.raises(ge_mlir.CompileError, match="was not reached"):
        m.ir("llvm")
    with pytest.raises(ge_mlir.ExecutionError, match=f"compiled to stage '{stage}'"):
        m(X, Y)


@pytest.mark.parametrize("kwargs,match", [
    ({"target": "npu"}, "unknown target 'npu'"),
    ({"compile_to": "asm"}, "unknown stage 'asm'"),
    ({"options": {"opt_levle": 2}}, "unknown compile option"),
    ({"options": {"opt_level": 7}}, "opt_level must be an integer from 0 to 3"),
    ({"options": {"fuse_elementwise": "no"}}, "fuse_elementwise must be True or False"),
])
def test_bad_compile_arguments(kwargs, match):
    with pytest.raises(ge_mlir.CompileError, match=match):
        ge_mlir.compile(IR, progress=False, **kwargs)


def test_bad_model_forms(tmp_path):
    with pytest.raises(ge_mlir.CompileError, match="no such model file"):
        ge_mlir.compile(str(tmp_path / "missing.onnx"))
    with pytest.raises(ge_mlir.CompileError, match="cannot compile a int"):
        ge_mlir.compile(42)
    with pytest.raises(ge_mlir.ParseError):
        ge_mlir.compile("func.func @f() {\n  %0 = ge.bogus : tensor<2xf32>\n}")
    bad = onnx_model()
    bad.graph.node[0].op_type = "NotAnOnnxOp"
    with pytest.raises(ge_mlir.GeMlirError, match="NotAnOnnxOp"):
        ge_mlir.compile(bad)


@pytest.mark.parametrize("call,match", [
    (lambda m: m(X), "missing input"),
    (lambda m: m(X, Y, Y), "takes 2 input"),
    (lambda m: m(X, z=Y), "unknown input 'z'"),
    (lambda m: m(X, x=X, y=Y), "given both by position and by name"),
    (lambda m: m(X, Y.astype(np.float64)), "input 'y' has dtype float64, expected float32"),
    (lambda m: m(X, Y.reshape(3, 2)), r"input 'y' has shape \(3, 2\), expected \(2, 3\)"),
    (lambda m: m(X, [[1.0] * 3] * 2), "input 'y' must be a numpy array"),
])
def test_bad_inputs_raise_clear_errors(call, match):
    m = ge_mlir.compile(onnx_model(), progress=False)
    with pytest.raises(ge_mlir.ExecutionError, match=match):
        call(m)
    check_outputs(m(X, Y))  # still usable afterwards


def test_inputs_by_name_after_the_fast_path():
    """A call by name in the inputs' order takes the bound order from the first such call; other
    orders, and the errors of a bad call by name, still go through the full binding."""
    m = ge_mlir.compile(onnx_model(), progress=False)
    check_outputs(m(x=X, y=Y))
    check_outputs(m(x=X, y=Y))  # the in-order fast path
    swapped = m(y=X, x=Y)  # other order: bound by name, not by position (x < y tells)
    np.testing.assert_array_equal(swapped[1], m(Y, X)[1])
    assert not np.array_equal(swapped[1], m(X, Y)[1])
    with pytest.raises(ge_mlir.ExecutionError, match="missing input"):
        m(x=X)
    with pytest.raises(ge_mlir.ExecutionError, match="unknown input 'z'"):
        m(x=X, z=Y)


@pytest.mark.parametrize("array", [np.arange(6, dtype=np.float32), np.arange(12.0).reshape(3, 4)[1:],
                                   np.zeros((0, 3), np.int8), np.arange(10, dtype=np.int64)[3:7],
                                   np.ones((2, 3), np.float16)])
def test_data_pointer_reader_agrees_with_numpy(array):
    """The runner reads each argument's data pointer from the array object (the ctypes attribute
    cost 0.8 us an array a call); on this interpreter it agrees with numpy's own, views too."""
    from ge_mlir.target.cpu.runner import _data_pointer

    assert _data_pointer(array) == array.ctypes.data


def test_non_contiguous_inputs_and_fresh_outputs():
    m = ge_mlir.compile(onnx_model(), progress=False)
    xt = np.ascontiguousarray(X.T).T  # same values, Fortran order
    a = m(xt, Y)
    b = m(X, Y)
    check_outputs(a)
    assert a[0] is not b[0]
    a[0][...] = -1  # results are owned by the caller
    check_outputs(m(X, Y))
    np.testing.assert_array_equal(X, np.arange(6, dtype=np.float32).reshape(2, 3))  # inputs untouched


def test_torch_module():
    torch = pytest.importorskip("torch")

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(8, 4)

        def forward(self, x):
            return torch.softmax(self.fc(x), dim=-1)

    torch.manual_seed(0)
    net = Net().eval()
    x = torch.randn(3, 8)
    with pytest.raises(ge_mlir.CompileError, match="example_inputs"):
        ge_mlir.compile(net)
    m = ge_mlir.compile(net, example_inputs=(x,), progress=False)
    np.testing.assert_allclose(m(x.numpy())[0], net(x).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_progress_bar(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = ProgressBar(3, enabled=True)
    bar.step("ge")  # under a second: nothing shown yet
    assert err.getvalue() == ""
    bar.start -= 2.0  # the compile has now taken over a second
    bar.step("linalg")
    bar.step("llvm")
    bar.close()
    out = err.getvalue()
    assert "[" in out and "2/3 linalg" in out and "3/3 llvm" in out and out.endswith("\n")
    quiet = ProgressBar(2, enabled=False)
    quiet.start -= 5.0
    quiet.step("ge")
    assert err.getvalue() == out


def test_progress_names_the_running_pass(monkeypatch):
    """A long compile shows which optimization pass runs, not only finished stages."""
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(ProgressBar, "__init__", _always_shown(ProgressBar.__init__))
    ge_mlir.compile(onnx_model(), progress=True)
    out = err.getvalue()
    assert "optimize: ge-canonicalize" in out and "optimize: ge-fold-constants" in out
    assert out.endswith("\n") and "5/5 llvm" in out
    # Every redraw has one width, so a short label overwrites a long one entirely.
    assert len({len(line) for line in out.strip("\n").split("\r")[1:]}) == 1


def _always_shown(init):
    def patched(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.start -= 10.0  # as if the compile had run for ten seconds already
    return patched


def test_keep_ir_false_keeps_no_stage_text():
    """keep_ir=False: same outputs, no IR text held (ResNet-18: about 450 MiB less), a clear ir() error."""
    kept = ge_mlir.compile(onnx_model(), progress=False)
    m = ge_mlir.compile(onnx_model(), options={"keep_ir": False}, progress=False)
    assert m.stages == kept.stages == STAGES and m._ir == {}
    with pytest.raises(ge_mlir.CompileError, match="was not kept .compile with keep_ir=True."):
        m.ir("optimized")
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal(s.shape).astype(s.dtype) for s in m.inputs]
    np.testing.assert_array_equal(m(*xs)[0], kept(*xs)[0])
    with pytest.raises(ge_mlir.CompileError, match="keep_ir must be True or False"):
        ge_mlir.compile(onnx_model(), options={"keep_ir": "no"})


def test_on_stage_callback():
    seen = []
    ge_mlir.compile(IR, progress=False, on_stage=lambda stage, seconds: seen.append((stage, seconds >= 0)))
    assert [s for s, _ in seen] == list(STAGES) and all(ok for _, ok in seen)


def test_ge_compile_cli(tmp_path, capsys):
    path = tmp_path / "m.onnx"
    onnx.save(onnx_model(), path)
    np.savez(tmp_path / "in.npz", x=X, y=Y)
    rc = ge_compile.main([str(path), "--run", str(tmp_path / "in.npz"), "--save", str(tmp_path / "out.npz"),
                          "--compare-onnxruntime", "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "sum: max abs error vs onnxruntime 0 (ok" in out
    with np.load(tmp_path / "out.npz") as data:
        check_outputs([data["sum"], data["lt"]])
    assert ge_compile.main([str(path), "--compile-to", "linalg", "-o", str(tmp_path / "m.mlir")]) == 0
    assert "linalg.generic" in Path(tmp_path / "m.mlir").read_text()
    assert ge_compile.main([str(tmp_path / "missing.onnx")]) == 1
    assert "no such model file" in capsys.readouterr().err


def test_constant_inputs_specialize_shape_inputs():
    """An antialiased Resize whose scales are a graph input imports once that input is frozen to a
    value (its filter taps are built from constant scales; other ops with run-time axes, sizes or
    shapes compile once and read them at run time)."""
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", antialias=1)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 6]),
         helper.make_tensor_value_info("scales", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    with pytest.raises(ge_mlir.GeMlirError, match="comes from graph input 'scales'") as info:
        ge_mlir.compile(model, progress=False)
    assert info.value.needs_constant == ["scales"]
    scales = np.array([1, 1, 2, 1.5], np.float32)
    m = ge_mlir.compile(model, options={"constant_inputs": {"scales": scales}}, progress=False)
    assert m.input_names == ["x"]
    x = np.arange(24, dtype=np.float32).reshape(1, 1, 4, 6)
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(m(x)[0], sess.run(None, {"x": x, "scales": scales})[0], rtol=1e-5, atol=1e-5)
    reshape = helper.make_model(helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]), opset_imports=[helper.make_opsetid("", 17)])
    np.testing.assert_array_equal(ge_mlir.compile(reshape, progress=False)(X, np.array([3, 2]))[0], X.reshape(3, 2))
    with pytest.raises(ge_mlir.GeMlirError, match="not a graph input"):
        ge_mlir.compile(model, options={"constant_inputs": {"nope": np.array([1])}}, progress=False)
