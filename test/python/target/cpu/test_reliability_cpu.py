"""Reliability of the CPU target (issue 11): crashes, aborts, silent wrong
answers and uncaught exceptions found by fuzzing, each pinned by a test.

Numerics are compared with onnxruntime (CPUExecutionProvider): float32 with
``rtol=1e-5, atol=1e-6`` (elementwise ops and small matmuls), integers and
copies exactly. Cases that used to kill the process (segfault, abort) run in a
subprocess so a regression fails the test instead of the test run.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.errors import CompileError
from ge_mlir.errors import ExecutionError

F32 = {"rtol": 1e-5, "atol": 1e-6}


def _model(nodes, inputs, outputs, initializers=(), opset=17) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _vi(name: str, elem: int, shape) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def _ort(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _isolated(tmp_path: Path, model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    """Compiles and runs ``model`` in a child process; its outputs (the child
    must exit 0: a segfault or abort fails the test, not the test run)."""
    onnx.save(model, tmp_path / "m.onnx")
    np.savez(tmp_path / "in.npz", **feeds)
    code = textwrap.dedent(f"""
        import numpy as np, ge_mlir
        feeds = dict(np.load({str(tmp_path / 'in.npz')!r}))
        model = ge_mlir.compile({str(tmp_path / 'm.onnx')!r})
        outs = model(**feeds)
        np.savez({str(tmp_path / 'out.npz')!r}, *outs)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"exit code {proc.returncode}\n{proc.stderr[-3000:]}"
    with np.load(tmp_path / "out.npz") as f:
        return [f[f"arr_{i}"] for i in range(len(f.files))]


# --------------------------------------------------------------------------
# 1. The same value returned twice (segfault in the `bufferized` stage)
# --------------------------------------------------------------------------


def test_duplicate_outputs_match_onnxruntime(tmp_path):
    """graph.output = [y, y, x, c, c, x]: an op result, an input and a constant,
    each listed twice (the op result used to segfault)."""
    c = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3))
    model = _model(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Constant", [], ["c"], value=c)],
        [_vi("x", TensorProto.FLOAT, [2, 3])],
        [_vi(n, TensorProto.FLOAT, [2, 3]) for n in ("y", "y", "x", "c", "c", "x")],
    )
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    got = _isolated(tmp_path, model, {"x": x})
    want = _ort(model, {"x": x})
    assert len(got) == len(want) == 6
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_duplicate_matmul_output(tmp_path):
    """A tiled, vectorized matmul result listed twice (codegen path)."""
    rng = np.random.default_rng(1)
    w = rng.standard_normal((16, 40)).astype(np.float32)
    model = _model(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        [_vi("x", TensorProto.FLOAT, [8, 16])],
        [_vi("y", TensorProto.FLOAT, [8, 40]), _vi("y", TensorProto.FLOAT, [8, 40])],
        [numpy_helper.from_array(w, "w")],
    )
    x = rng.standard_normal((8, 16)).astype(np.float32)
    got = _isolated(tmp_path, model, {"x": x})
    want = _ort(model, {"x": x})
    for g, wt in zip(got, want):
        np.testing.assert_allclose(g, wt, **{"rtol": 1e-5, "atol": 1e-5})


def test_duplicate_results_are_distinct_arrays():
    ir_text = """
    func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
      %0 = ge.abs %x : tensor<3xf32>
      return %0, %0, %0 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    }"""
    model = ge_mlir.compile(ir_text)
    x = np.array([-1, 2, -3], np.float32)
    a, b, c = model(x)
    for r in (a, b, c):
        np.testing.assert_array_equal(r, np.abs(x))
    a[0] = 99.0  # each result is its own buffer
    assert b[0] == 1.0 and c[0] == 1.0


# --------------------------------------------------------------------------
# 2. Huge shapes: no abort, no MemoryError; refused with the size named
# --------------------------------------------------------------------------


def _run_code(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)


def test_conv_with_huge_padded_intermediate_is_refused():
    """Strides and pads of 1e9: the ge types are small (a 3x3 output) but the
    padded input the lowering builds overflows int64 bytes; bufferization used
    to abort in makeCanonicalStridedLayoutExpr (exit 134)."""
    proc = _run_code("""
        import ge_mlir
        from ge_mlir.errors import GeMlirError
        text = '''
        func.func @f(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x3x3xf32> {
          %0 = ge.conv2d %x, %w {pads = array<i64: 1000000000, 1000000000, 1000000000, 1000000000>,
                                 strides = array<i64: 1000000000, 1000000000>}
             : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x3x3xf32>
          return %0 : tensor<1x2x3x3xf32>
        }'''
        try:
            ge_mlir.compile(text)
        except GeMlirError as e:
            print(type(e).__name__, e)
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("ExecutionError"), proc.stdout
    assert "too large" in proc.stdout and "tensor<1x3x2000000004x2000000004xf32>" in proc.stdout
    assert "48000000192000000192 bytes" in proc.stdout


def test_huge_result_type_is_a_verification_error():
    text = """
    func.func @f(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x2000000002x2000000002xf32> {
      %0 = ge.conv2d %x, %w {pads = array<i64: 1000000000, 1000000000, 1000000000, 1000000000>}
         : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2000000002x2000000002xf32>
      return %0 : tensor<1x1x2000000002x2000000002xf32>
    }"""
    with pytest.raises(ge_mlir.errors.VerificationError, match="overflows int64"):
        ge_mlir.compile(text)


#: Relu -> Relu plans its intermediate in the workspace only unfused (fused it is one loop).
UNFUSED = {"fuse_elementwise": False}


def _two_relus(rows: int) -> onnx.ModelProto:
    return _model(
        [helper.make_node("Relu", ["x"], ["t"]), helper.make_node("Relu", ["t"], ["y"])],
        [_vi("x", TensorProto.FLOAT, [rows, 30])],
        [_vi("y", TensorProto.FLOAT, [rows, 30])],
    )


@pytest.mark.parametrize("rows", [10**9, 2**40])
def test_huge_workspace_is_refused_before_allocating(rows, monkeypatch):
    """Input dims of 1e9 (or 2^40) used to raise a bare MemoryError allocating
    a 112 GiB (120 TiB) workspace; the plan is refused with its size named."""
    monkeypatch.delenv("GE_MLIR_WORKSPACE_LIMIT", raising=False)
    planned = rows * 30 * 4
    with pytest.raises(ExecutionError, match=f"needs a workspace of {planned} bytes"):
        ge_mlir.compile(_two_relus(rows), options=UNFUSED)


def test_workspace_beyond_the_address_space_ulimit_is_refused():
    """ge-fuzz (seed 2027, case 130): under `ulimit -v` 8 GiB a 12 GB plan, below
    the physical memory, was a bare MemoryError from numpy."""
    proc = _run_code(f"""
        import os, resource
        os.environ.pop("GE_MLIR_WORKSPACE_LIMIT", None)
        resource.setrlimit(resource.RLIMIT_AS, (8 << 30, resource.RLIM_INFINITY))
        import onnx, ge_mlir
        from ge_mlir.errors import GeMlirError
        try:
            ge_mlir.compile(onnx.load_from_string({_two_relus(100_000_000).SerializeToString()!r}),
                            options={UNFUSED!r})
        except GeMlirError as e:
            print(type(e).__name__, e)
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("ExecutionError") and "needs a workspace of 12000000000 bytes" in proc.stdout, \
        proc.stdout
    assert f"limit of {8 << 30} bytes" in proc.stdout


def test_workspace_limit_is_overridable(monkeypatch):
    monkeypatch.setenv("GE_MLIR_WORKSPACE_LIMIT", "1000")
    with pytest.raises(ExecutionError, match=r"workspace of 1216 bytes .* limit of 1000 bytes"):
        ge_mlir.compile(_two_relus(10), options=UNFUSED)
    monkeypatch.setenv("GE_MLIR_WORKSPACE_LIMIT", "1216")  # 1200 rounded up to 64
    x = np.linspace(-1, 1, 300, dtype=np.float32).reshape(10, 30)
    (y,) = ge_mlir.compile(_two_relus(10), options=UNFUSED)(x)
    np.testing.assert_array_equal(y, np.maximum(x, 0))


# --------------------------------------------------------------------------
# 3. Out-of-range run-time indices: ExecutionError naming the op and node
#    (onnxruntime: INVALID_ARGUMENT), not clamped rows
# --------------------------------------------------------------------------


def _index_model(op_type: str, data_shape, index_shape, index_type=TensorProto.INT64, axis=0,
                 updates_shape=None) -> onnx.ModelProto:
    inputs = [_vi("x", TensorProto.FLOAT, data_shape), _vi("i", index_type, index_shape)]
    names = ["x", "i"]
    if updates_shape is not None:
        inputs.append(_vi("u", TensorProto.FLOAT, updates_shape))
        names.append("u")
    node = helper.make_node(op_type, names, ["y"], axis=axis, name=f"my_{op_type.lower()}")
    return _model([node], inputs, [_vi("y", TensorProto.FLOAT, None)])


_RNG = np.random.default_rng(3)
_INDEX_CASES = {
    # op type: (model, feeds with in-range indices, out-of-range indices, ge op)
    "Gather": (_index_model("Gather", [3, 2], [3]), {"x": _RNG.standard_normal((3, 2)).astype(np.float32),
                                                     "i": np.array([0, 2, -3], np.int64)},
               np.array([0, 5, -9], np.int64), "ge.gather"),
    "Gather_axis1_i32": (_index_model("Gather", [2, 4], [2, 2], TensorProto.INT32, axis=1),
                         {"x": _RNG.standard_normal((2, 4)).astype(np.float32),
                          "i": np.array([[3, -4], [0, 1]], np.int32)},
                         np.array([[3, 4], [0, 1]], np.int32), "ge.gather"),
    "GatherElements": (_index_model("GatherElements", [2, 3], [2, 2], axis=1),
                       {"x": _RNG.standard_normal((2, 3)).astype(np.float32),
                        "i": np.array([[0, -1], [2, 1]], np.int64)},
                       np.array([[0, -4], [2, 1]], np.int64), "ge.gather_elements"),
    "ScatterElements": (_index_model("ScatterElements", [3, 3], [1, 2], axis=0, updates_shape=[1, 2]),
                        {"x": _RNG.standard_normal((3, 3)).astype(np.float32),
                         "i": np.array([[2, -3]], np.int64), "u": np.ones((1, 2), np.float32)},
                        np.array([[3, 0]], np.int64), "ge.scatter_elements"),
}


@pytest.mark.parametrize("case", sorted(_INDEX_CASES))
def test_out_of_range_runtime_indices_raise(case):
    model, feeds, bad, ge_op = _INDEX_CASES[case]
    compiled = ge_mlir.compile(model)
    # In range (negative indices count from the end): exact match with onnxruntime.
    for got, want in zip(compiled(**feeds), _ort(model, feeds)):
        np.testing.assert_array_equal(got, want)
    bad_feeds = {**feeds, "i": bad}
    with pytest.raises(Exception, match="(?i)out of range|INVALID_ARGUMENT|invalid"):
        _ort(model, bad_feeds)  # the oracle refuses them too
    op_type = case.split("_")[0]
    with pytest.raises(ExecutionError, match=r"out of range \[-\d+, \d+\)") as info:
        compiled(**bad_feeds)
    assert info.value.op == ge_op
    assert info.value.node == f"my_{op_type.lower()}"
    assert f"my_{op_type.lower()}" in str(info.value)


def test_bounds_check_can_be_disabled():
    model, feeds, bad, _ = _INDEX_CASES["Gather"]
    compiled = ge_mlir.compile(model, options={"check_bounds": False})
    assert "ge.bounds_checks" not in compiled.ir("linalg")
    (y,) = compiled(x=feeds["x"], i=bad)  # documented: clamped, no check
    np.testing.assert_array_equal(y, feeds["x"][[0, 2, 0]])
    checked = ge_mlir.compile(model)
    assert "ge.bounds_checks" in checked.ir("linalg")


def test_constant_out_of_range_index_fails_at_compile_time():
    text = """
    func.func @f(%a: tensor<3x2xf32>) -> tensor<1x2xf32> {
      %i = ge.constant dense<[7]> : tensor<1xi64>
      %0 = ge.gather %a, %i : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
      return %0 : tensor<1x2xf32>
    }"""
    with pytest.raises(ge_mlir.errors.VerificationError, match=r"constant index 7 .* out of range \[-3, 3\)"):
        ge_mlir.compile(text)


# --------------------------------------------------------------------------
# 4. Zero-size dimensions work; bad options / output_dir are CompileErrors
# --------------------------------------------------------------------------


@pytest.mark.parametrize("op_type,x_shape,w_shape", [
    ("Gemm", (0, 4), (4, 5)),          # empty batch: was IndexError in codegen.common.tile_splits
    ("MatMul", (0, 4), (4, 5)),
    ("MatMul", (2, 0, 4), (4, 5)),     # empty rows of a batched matmul
    ("MatMul", (3, 0), (0, 5)),        # K = 0: zeros (tiling it aborted the process)
    ("MatMul", (3, 4), (4, 0)),        # no columns
    ("Conv", (0, 3, 8, 8), (4, 3, 3, 3)),
    ("MatMul", (6, 0, 3, 4), (4, 1)),  # ge-fuzz: a 0 batch dim broadcast against 1 became 1
    ("MatMul", (5, 0, 2, 1), (1,)),    # ... and with a 1-D B
    ("MatMul", (2, 3), (4, 0, 3, 2)),  # the 0 batch dim on B's side
])
def test_zero_size_contractions_match_onnxruntime(tmp_path, op_type, x_shape, w_shape):
    w = np.random.default_rng(4).standard_normal(w_shape).astype(np.float32)
    model = _model([helper.make_node(op_type, ["x", "w"], ["y"])], [_vi("x", TensorProto.FLOAT, list(x_shape))],
                   [_vi("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(w, "w")])
    x = np.ones(x_shape, np.float32)
    (got,) = _isolated(tmp_path, model, {"x": x})
    (want,) = _ort(model, {"x": x})
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


_RELU = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n %0 = ge.relu %a : tensor<2xf32>\n return %0 : tensor<2xf32>\n}"


@pytest.mark.parametrize("options", [[1, 2], "fast", 3, ("optimize", False)])
def test_options_of_the_wrong_type_are_a_compile_error(options):
    with pytest.raises(CompileError, match="options must be a CompileOptions or a dict"):
        ge_mlir.compile(_RELU, options=options)


def test_check_bounds_option_must_be_a_bool():
    with pytest.raises(CompileError, match="check_bounds must be True or False"):
        ge_mlir.compile(_RELU, options={"check_bounds": "yes"})


def test_ascendc_output_dir_that_is_a_file(tmp_path):
    f = tmp_path / "not_a_dir"
    f.write_text("x")
    with pytest.raises(CompileError, match="exists and is not a directory"):
        ge_mlir.compile(_RELU, target="ascendc", output_dir=f, run_on="none")
    with pytest.raises(CompileError, match="cannot write the Ascend C project"):
        ge_mlir.compile(_RELU, target="ascendc", output_dir=f / "sub", run_on="none")


@pytest.mark.parametrize("start, end, step, dim", [
    (-5, -2**62, -1, 4),   # the fuzzer's case: start below -dim is the first element
    (-100, -100, -1, 4),   # start and end below -dim: the first element only
    (10, -10, -2, 5),      # start past the end clamps to dim-1
    (-1, -6, -1, 5),       # the whole axis reversed
    (2, 0, -1, 0),         # a zero-size axis stays empty
    (-7, 3, 2, 6),         # positive step, start below -dim
])
def test_slice_clamping_matches_onnxruntime(start, end, step, dim):
    """Slice's start/end clamping with negative steps (ge-fuzz: start below -dim gave 0 elements, onnxruntime 1)."""
    model = _model(
        [helper.make_node("Slice", ["x", "s", "e", "a", "k"], ["y"])],
        [_vi("x", TensorProto.FLOAT, [dim, 3])], [_vi("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array(v, np.int64), n)
         for v, n in (([start], "s"), ([end], "e"), ([0], "a"), ([step], "k"))])
    x = np.arange(dim * 3, dtype=np.float32).reshape(dim, 3)
    (want,) = _ort(model, {"x": x})
    (got,) = ge_mlir.compile(model)(x)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_padded_pool_on_an_empty_batch_matches_onnxruntime(tmp_path):
    """ge-fuzz (seed 2027, case 1914): MaxPool with pads on a 0 batch lowered
    to an out-of-bounds tensor.insert_slice; all-empty results are now tensor.empty."""
    model = _model([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3], pads=[2, 2])],
                   [_vi("x", TensorProto.FLOAT16, [0, 5, 1])], [_vi("y", TensorProto.FLOAT16, None)])
    x = np.zeros((0, 5, 1), np.float16)
    (got,) = _isolated(tmp_path, model, {"x": x})
    (want,) = _ort(model, {"x": x})
    assert got.shape == want.shape == (0, 5, 3) and got.dtype == want.dtype


@pytest.mark.parametrize("op_type", ["LayerNormalization", "InstanceNormalization"])
def test_normalizing_constant_rows_gives_exact_zeros(op_type):
    """ge-fuzz (seed 2027, case 1844): a row of equal values has zero deviations;
    the float32 mean s/n left rounding noise that 1/sqrt(eps) amplified to 2e-5
    (onnxruntime, accumulating in double, gives 0). The corrected mean is exact."""
    rng = np.random.default_rng(3)
    x = np.repeat(rng.standard_normal((6, 3, 1)).astype(np.float32) * 7, 5, axis=2)  # constant last axis
    scale, bias = np.full(5 if op_type == "LayerNormalization" else 3, 1.5, np.float32), None
    inits = [numpy_helper.from_array(scale, "s")]
    ins = ["x", "s"]
    if op_type == "InstanceNormalization":
        inits.append(numpy_helper.from_array(np.zeros(3, np.float32), "b"))
        ins.append("b")
    model = _model([helper.make_node(op_type, ins, ["y"])], [_vi("x", TensorProto.FLOAT, [6, 3, 5])],
                   [_vi("y", TensorProto.FLOAT, None)], inits)
    (got,) = ge_mlir.compile(model)(x)
    (want,) = _ort(model, {"x": x})
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, np.zeros_like(got))
    if op_type == "LayerNormalization":  # onnxruntime's InstanceNormalization accumulates in float32: ~1e-4 noise
        np.testing.assert_array_equal(want, got)
    del bias


def _huge_splat_model() -> onnx.ModelProto:
    """x + ConstantOfShape([1e5, 1e5, 1e5]): a 4 PB splat constant whose byte size fits in int64."""
    value = numpy_helper.from_array(np.array([1.0], np.float32))
    return _model([helper.make_node("ConstantOfShape", ["s"], ["c"], value=value),
                   helper.make_node("Add", ["x", "c"], ["y"])],
                  [_vi("x", TensorProto.FLOAT, [1])], [_vi("y", TensorProto.FLOAT, None)],
                  [numpy_helper.from_array(np.array([100_000] * 3, np.int64), "s")])


def test_constant_larger_than_memory_is_refused_not_built(tmp_path):
    """A splat constant of 4e15 bytes reached the JIT, which built it and ended
    the process (std::bad_alloc, or the OOM killer); now refused by size, on
    both targets (ascendc: a clean refusal, no 'internal error: MemoryError')."""
    onnx.save(_huge_splat_model(), tmp_path / "m.onnx")
    proc = _run_code(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (8 << 30, resource.RLIM_INFINITY))
        import ge_mlir
        from ge_mlir.errors import GeMlirError
        for kw in ({{}}, {{"target": "ascendc", "run_on": "none", "output_dir": {str(tmp_path / 'asc')!r}}}):
            try:
                ge_mlir.compile({str(tmp_path / 'm.onnx')!r}, **kw)
                print("compiled")
            except GeMlirError as e:
                print(type(e).__name__, str(e).replace(chr(10), " "))
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cpu, asc = proc.stdout.splitlines()
    assert cpu.startswith("ExecutionError") and "too large to hold" in cpu and "4000000000000000 bytes" in cpu, cpu
    assert asc.startswith("PassFailedError") and "internal error" not in asc, asc
