"""End to end through Ascend C: ONNX -> ge -> ascendc -> emitted project ->
g++ against the clean-room shim -> run, compared with onnxruntime.

Tolerances: fp32 ``atol = 1e-4 * max(1, max|y|)`` (the kernels reorder sums
and the GELU/sigmoid compositions are within a few ulp); fp16 two fp16 ulps
at the output's magnitude (``2 * 2**-10 * max|y|``: the cube accumulates in
f32 and rounds once, onnxruntime rounds differently).
Each model's kernels also pass the shim's checks: DataCopy alignment,
UB/L1/L0 capacity, the queue protocol and cross-pipe synchronization.
"""

from __future__ import annotations

import shutil

import e2e_models  # the test directory is on sys.path (pytest rootdir import mode)
import numpy as np
import onnxruntime as ort
import pytest

import ge_mlir
from ge_mlir.errors import CompileError
from ge_mlir.memory.buffers import Buffer, Plan
from ge_mlir.memory.checker import check_plan
from ge_mlir.target.ascendc.socs import gm_segment_bytes

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is needed to build against the shim")


def _run(model, tmp_path, dtype=np.float32, config=None):
    compiled = ge_mlir.compile(model, target="ascendc", output_dir=tmp_path / "project",
                               options={"config": config} if config else None)
    x = np.random.default_rng(7).standard_normal(compiled.inputs[0].shape).astype(dtype)
    got = compiled(x)[0]
    want = ort.InferenceSession(model.SerializeToString()).run(None, {compiled.inputs[0].name: x})[0]
    assert got.shape == want.shape and got.dtype == want.dtype
    return compiled, got.astype(np.float32), want.astype(np.float32)


# (kernels emitted, launches): identical kernels are emitted once (the residual block's two convs
# share im2col and matmul kernels; the attention's Q/K/V projections one matmul and epilogue).
@pytest.mark.parametrize("name, kernels", [("mlp", (4, 4)), ("conv_bn_relu", (3, 3)), ("residual_block", (6, 8)),
                                           ("attention", (10, 19)), ("cnn_head", None), ("reduce_cast", None)])
def test_models_fp32(name, kernels, tmp_path):
    compiled, got, want = _run(getattr(e2e_models, name)(), tmp_path)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * max(1.0, np.abs(want).max()))
    if kernels:
        assert (len(compiled.kernels), compiled.ir("ascendc").count("ascendc.launch @")) == kernels
        assert sum(k["launches"] for k in compiled.kernels) == kernels[1]
    assert compiled.stages == ("ge", "optimized", "ascendc", "source")
    assert (compiled.project_dir / "CMakeLists.txt").is_file()
    for k in compiled.kernels:
        assert (compiled.project_dir / f"{k['name']}.cpp").is_file()
        assert k["bytes"].get("UB", 0) <= 196608
    _check_device_plan(compiled)


def _check_device_plan(compiled):
    """The intermediates are planned into one arena: the plan passes the independent checker (on the
    tensors' bytes and on the pieces the ACL rule reserves), and host.cpp allocates the arena once and
    points every intermediate into it."""
    import re

    plan = compiled.memory_plan
    assert plan is not None and compiled.ir("ascendc").count("ascendc.gm_alloc") == len(plan["buffers"])
    for size in (lambda b: b["size"], lambda b: gm_segment_bytes(b["size"])):
        buffers = [Buffer(i, size(b), b["start"], b["end"], b["name"]) for i, b in enumerate(plan["buffers"])]
        check_plan(buffers, Plan({i: b["offset"] for i, b in enumerate(plan["buffers"])}, plan["arena"], 64,
                                 plan["strategy"]))
    host = (compiled.project_dir / "host.cpp").read_text()
    allocated = re.findall(r"uint8_t\* (\w+) = buffers\.Alloc\(", host)
    assert allocated.count("arena") == (1 if plan["buffers"] else 0)
    assert not [v for v in allocated if re.fullmatch(r"buf\d+", v)]
    assert len(re.findall(r"uint8_t\* buf\d+ = arena \+ \d+;", host)) == len(plan["buffers"])
    return plan


@pytest.mark.parametrize("name", ["attention", "cnn_head", "residual_block"])
def test_outputs_unchanged_without_planning(name, tmp_path):
    """The same ascendc IR emitted without its device-memory plan (one allocation per intermediate,
    each checked by the shim as its own block) computes bit-identical outputs."""
    from mlir import ir

    from ge_mlir.api import parse_module
    from ge_mlir.target.ascendc.emit import write_project
    from ge_mlir.target.ascendc.shim_runner import ShimExecutable

    model = getattr(e2e_models, name)()
    compiled = ge_mlir.compile(model, target="ascendc", output_dir=tmp_path / "planned")
    plan = _check_device_plan(compiled)
    assert plan["arena"] < plan["no_reuse"]  # these graphs do reuse bytes
    with ir.Context():
        module = parse_module(compiled.ir("ascendc"))
        for op in module.body.operations:
            if op.operation.name == "ascendc.host":
                del op.operation.attributes["ge.memory_plan"]
                for o in op.operation.regions[0].blocks[0].operations:
                    if "offset" in o.operation.attributes:
                        del o.operation.attributes["offset"]
        unplanned = write_project(module, tmp_path / "unplanned")
    assert "arena" not in (unplanned / "host.cpp").read_text().split("DeviceBuffers buffers;")[-1]
    x = np.random.default_rng(7).standard_normal(compiled.inputs[0].shape).astype(np.float32)
    np.testing.assert_array_equal(compiled(x)[0], ShimExecutable(unplanned)(x)[0])


def test_mlp_fp16(tmp_path):
    _, got, want = _run(e2e_models.mlp(np.float16), tmp_path, np.float16)
    np.testing.assert_allclose(got, want, rtol=0, atol=2 * 2.0**-10 * np.abs(want).max())


def test_conv_nchw_path(tmp_path):
    """With the layout pass off the residual block's convs stay NCHW (residual operand and a
    per-channel bias as a column operand in the epilogue); by default they run in NHWC."""
    cfg = {"passes": {"ge-transform-layout": {"enabled": False}}}
    compiled, got, want = _run(e2e_models.residual_block(), tmp_path, config=cfg)
    assert "trans_data" not in compiled.ir("optimized") and "NHWC" not in compiled.ir("optimized")
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * max(1.0, np.abs(want).max()))


def test_unsupported_op_is_named(tmp_path):
    from onnx import TensorProto, helper

    g = helper.make_graph([helper.make_node("TopK", ["x", "k"], ["v", "i"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])],
                          [helper.make_tensor_value_info("v", TensorProto.FLOAT, [4, 2]),
                           helper.make_tensor_value_info("i", TensorProto.INT64, [4, 2])],
                          [helper.make_tensor("k", TensorProto.INT64, [1], [2])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ge_mlir.GeMlirError) as err:
        ge_mlir.compile(model, target="ascendc", output_dir=tmp_path)
    text = str(err.value) + "".join(str(d) for d in getattr(err.value, "diagnostics", []))
    assert "cannot lower 'ge.top_k' to ascendc: no ascendc lowering for this op" in text


def test_npu_without_cann_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    with pytest.raises(CompileError, match="needs the CANN toolkit, and ASCEND_HOME_PATH is not set"):
        ge_mlir.compile(e2e_models.conv_bn_relu(), target="ascendc", output_dir=tmp_path, run_on="npu")
    assert (tmp_path / "CMakeLists.txt").is_file()


def test_compile_to_ascendc_and_no_build(tmp_path):
    ir_only = ge_mlir.compile(e2e_models.mlp(), target="ascendc", compile_to="ascendc")
    text = ir_only.ir("ascendc")
    assert text.count("ascendc.kernel @") == 4 and "ascendc.host @graph" in text
    assert [k["kind"] for k in ir_only.kernels] == ["cube", "vector", "cube", "vector"]
    written = ge_mlir.compile(e2e_models.mlp(), target="ascendc", output_dir=tmp_path, run_on="none")
    assert "// ----- file: matmul_0.cpp" in written.ir("source")
    with pytest.raises(ge_mlir.ExecutionError, match="was not built"):
        written(np.zeros((4, 512), np.float32))


def test_rms_norm_against_cpu_backend(tmp_path):
    """ge IR in, the CPU backend as the reference (ONNX has no RMSNormalization at opset 17)."""
    text = """
    func.func @rms(%x: tensor<6x40xf32>, %s: tensor<40xf32>) -> tensor<6x40xf32> {
      %0 = ge.rms_norm %x, %s {epsilon = 1.0e-5 : f32} : (tensor<6x40xf32>, tensor<40xf32>) -> tensor<6x40xf32>
      return %0 : tensor<6x40xf32>
    }
    """
    compiled = ge_mlir.compile(text, target="ascendc", output_dir=tmp_path)
    assert [k["name"] for k in compiled.kernels] == ["rms_norm_0"]
    rng = np.random.default_rng(5)
    x, s = rng.standard_normal((6, 40)).astype(np.float32), rng.standard_normal(40).astype(np.float32)
    want = ge_mlir.compile(text)(x, s)[0]
    np.testing.assert_allclose(compiled(x, s)[0], want, rtol=0, atol=1e-5)


def test_nchw_max_pool_against_cpu_backend(tmp_path):
    """An NCHW pool (a lone pool keeps the imported format) runs between two transposes."""
    text = """
    func.func @pool(%x: tensor<2x8x6x6xf32>) -> tensor<2x8x3x3xf32> {
      %0 = ge.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                             pads = array<i64: 1, 1, 0, 0>} : (tensor<2x8x6x6xf32>) -> tensor<2x8x3x3xf32>
      return %0 : tensor<2x8x3x3xf32>
    }
    """
    compiled = ge_mlir.compile(text, target="ascendc", output_dir=tmp_path)
    assert [k["name"] for k in compiled.kernels] == ["trans_data_0", "pool_0", "trans_data_1"]
    x = np.random.default_rng(6).standard_normal((2, 8, 6, 6)).astype(np.float32)
    np.testing.assert_array_equal(compiled(x)[0], ge_mlir.compile(text)(x)[0])


@pytest.mark.parametrize("soc, ub", [("Ascend910B1", 196608), ("Ascend310P3", 262144)])
def test_soc_presets(soc, ub, tmp_path):
    """The SoC decides the module's #ascendc.target (the verifier's capacities), the
    unified-buffer plan of the kernels and the shim's capacity checks."""
    compiled = ge_mlir.compile(e2e_models.mlp(), target="ascendc", options={"soc": soc},
                               output_dir=tmp_path / soc)
    text = compiled.ir("ascendc")
    assert f'#ascendc.target<soc = "{soc}"' in text and f"ub = {ub}" in text
    assert f'"soc": "{soc}"' in (compiled.project_dir / "graph.json").read_text()
    # The epilogue over 4 x 1024 rows plans its tiles for the SoC's unified buffer.
    assert max(k["bytes"].get("UB", 0) for k in compiled.kernels) <= ub - 32 * 1024
    x = np.random.default_rng(7).standard_normal((4, 512)).astype(np.float32)
    want = ort.InferenceSession(e2e_models.mlp().SerializeToString()).run(None, {"x": x})[0]
    np.testing.assert_allclose(compiled(x)[0], want, rtol=0, atol=1e-4 * np.abs(want).max())
    with pytest.raises(CompileError, match="unknown soc 'Ascend999'"):
        ge_mlir.compile(e2e_models.mlp(), target="ascendc", options={"soc": "Ascend999"}, run_on="none")


def test_aliases_and_output_copies(tmp_path):
    """identity and a same-type cast alias their input (the relu still gets its kernel);
    an input returned as an output is copied by a kernel of its own."""
    text = """
    func.func @f(%x: tensor<4x10xf32>) -> (tensor<4x10xf32>, tensor<4x10xf32>) {
      %0 = ge.relu %x : tensor<4x10xf32>
      %1 = ge.identity %0 : tensor<4x10xf32>
      %2 = ge.cast %1 : tensor<4x10xf32> to tensor<4x10xf32>
      return %2, %x : tensor<4x10xf32>, tensor<4x10xf32>
    }
    """
    compiled = ge_mlir.compile(text, target="ascendc", options={"optimize": False}, output_dir=tmp_path)
    assert [k["name"] for k in compiled.kernels] == ["elementwise_0", "copy_0"]
    x = np.random.default_rng(8).standard_normal((4, 10)).astype(np.float32)
    relu, same = compiled(x)
    np.testing.assert_array_equal(relu, np.maximum(x, 0))
    np.testing.assert_array_equal(same, x)


@pytest.mark.parametrize("op", ["GlobalMaxPool", "GlobalAveragePool"])
@pytest.mark.parametrize("shape", [[2, 3, 8], [1, 4, 2, 3, 5]])
def test_global_pools_of_any_spatial_rank(op, shape, tmp_path):
    """1-D and 3-D global pools (issue 11's fuzzer: a 3-D input was an internal ValueError)."""
    from onnx import TensorProto, helper

    out = shape[:2] + [1] * (len(shape) - 2)
    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, out)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    _, got, want = _run(model, tmp_path)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * max(1.0, np.abs(want).max()))


def test_memory_plan_options_and_report(tmp_path, capsys):
    """The ascendc plan honours memory_reuse_strategy and memory_budget_mb like the CPU's, and
    ge-compile --memory-report prints and writes it for --target ascendc."""
    import json

    from ge_mlir.errors import MemoryBudgetError
    from ge_mlir.tools.ge_compile import main as ge_compile

    model = e2e_models.residual_block()
    best = ge_mlir.compile(model, target="ascendc", compile_to="ascendc").memory_plan
    one = ge_mlir.compile(model, target="ascendc", compile_to="ascendc",
                          options={"memory_reuse_strategy": "best-fit"}).memory_plan
    assert one["strategy"] == "best-fit" and list(one["arenas"]) == ["best-fit"]
    assert best["arena"] == min(best["arenas"].values()) <= one["arena"]
    with pytest.raises(MemoryBudgetError) as info:
        ge_mlir.compile(model, target="ascendc", options={"memory_budget_mb": 0.01}, run_on="none",
                        output_dir=tmp_path / "over")
    assert info.value.arena > info.value.budget == int(0.01 * 2**20) and not (tmp_path / "over").exists()

    path = tmp_path / "model.onnx"
    path.write_bytes(model.SerializeToString())
    report = tmp_path / "plan.json"
    assert ge_compile([str(path), "--target", "ascendc", "--run-on", "none", "-o", str(tmp_path / "proj"),
                       f"--memory-report={report}"]) == 0
    out = capsys.readouterr().out
    written = json.loads(report.read_text())
    assert len(written["buffers"]) == len(best["buffers"]) and written["arena"] <= written["no_reuse"]
    assert f"memory plan: {len(best['buffers'])} buffers, chosen strategy {written['strategy']}" in out
    assert "chosen arena" in out and f" {written['arena']} B  {written['strategy']}" in out


def test_batch_one_matmul_pads_m_to_16(tmp_path):
    """Mmad with m == 1 is GEMV mode on the hardware (A read as K contiguous elements), which the
    shim models; the emitter pads M to 16 as the Matmul library does (ASCENDC_API.md Corrections 4).
    A one-row Zz tile (the old emission) computes wrong results here."""
    from onnx import TensorProto, helper, numpy_helper

    w = np.random.default_rng(3).standard_normal((64, 32)).astype(np.float32)
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "gemv",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32])],
                              [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    compiled, got, want = _run(model, tmp_path)
    assert np.max(np.abs(got - want)) <= 1e-4 * max(1.0, float(np.max(np.abs(want))))
    assert any("Mmad" in p.read_text() for p in (tmp_path / "project").glob("*.cpp"))  # the cube path ran


def _run_all(model, feeds, tmp_path):
    compiled = ge_mlir.compile(model, target="ascendc", output_dir=tmp_path / "project")
    got = compiled(*feeds.values())
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        # fp32: 1e-4 relative to the output's largest magnitude (the tolerance).
        np.testing.assert_allclose(g, w, rtol=0, atol=1e-4 * max(1.0, float(np.abs(w).max())))
    _check_device_plan(compiled)
    return compiled


def test_transformer_ops(tmp_path):
    """Gather, Split/Concat, Slice, Tile, tanh GELU, Where with a causal mask, int64 -> f32 Cast and a
    periodic [S, S] mask operand, on the shim with all its checks (multi-core ones included)."""
    rng = np.random.default_rng(8)
    feeds = {"ids": rng.integers(-50, 50, (2, 6)).astype(np.int64),   # negative ids count from the end
             "scores": rng.standard_normal((1, 2, 128, 128)).astype(np.float32)}
    compiled = _run_all(e2e_models.transformer_ops(), feeds, tmp_path)
    names = {k["name"].rsplit("_", 1)[0] for k in compiled.kernels}
    assert {"gather", "split", "concat", "slice", "tile", "where", "cast"} <= names
    # The cost model names each kernel's bound (a model, labelled as one).
    assert all(k["estimate"]["bound"] in ("cube", "vector", "scalar", "memory") for k in compiled.kernels)
    assert "assumed rates" in compiled.kernels[0]["estimate"]["model"]


def test_cnn_ops_larger_than_the_unified_buffer(tmp_path):
    """A 3x128x128 image: banded im2col and max pool, tiled NCHW <-> NHWC transposes, a depthwise conv
    with ReLU6 and a kernel == stride transposed conv; kernels spread over the SoC's cores."""
    x = np.random.default_rng(9).standard_normal((1, 3, 128, 128)).astype(np.float32)
    compiled = _run_all(e2e_models.cnn_ops(), {"x": x}, tmp_path)
    names = {k["name"].rsplit("_", 1)[0] for k in compiled.kernels}
    assert {"im2col", "pool", "depthwise", "conv_transpose", "trans_data"} <= names
    # The per-channel scale and shift went in flat tiles within a row (a "period" field).
    assert "int64_t period;" in (compiled.project_dir / "tiling.h").read_text()
    assert max(k["blocks"] for k in compiled.kernels) > 8      # the 910B1 preset: 48 vector, 24 cube cores
    assert all(k["blocks"] <= (24 if k["kind"] == "cube" else 48) for k in compiled.kernels)


def test_rows_longer_than_the_unified_buffer(tmp_path):
    """Softmax, layer norm and reductions over rows that do not fit the UB go chunk by chunk."""
    rng = np.random.default_rng(10)
    feeds = {"s": (rng.standard_normal((2, 50000)) * 4).astype(np.float32),
             "l": (rng.standard_normal((2, 45000)) + 3).astype(np.float32),
             "r": rng.standard_normal((3, 60000)).astype(np.float32),
             "c": rng.standard_normal((2, 3, 45000)).astype(np.float32)}
    compiled = _run_all(e2e_models.long_rows(), feeds, tmp_path)
    # Each family took its chunked form: a chunk field in its tiling struct.
    import re

    tiling = (compiled.project_dir / "tiling.h").read_text()
    chunked = set(re.findall(r"struct (\w+)_Tiling \{\n  int64_t chunk;", tiling))
    assert chunked == {"softmax_0", "layer_norm_0", "reduce_0", "reduce_1"}, tiling


def test_resize_and_pad(tmp_path):
    """Resize (nearest, linear, cubic; separable gathers and weighted sums from the ONNX coordinate
    tables) and constant Pad (fill, then the interior; a negative pad crops)."""
    x = np.random.default_rng(11).standard_normal((1, 2, 5, 7)).astype(np.float32)
    compiled = _run_all(e2e_models.resize_pad(), {"x": x}, tmp_path)
    names = {k["name"].rsplit("_", 1)[0] for k in compiled.kernels}
    assert {"resize", "pad"} <= names


@pytest.mark.parametrize("name", ["mlp_b1", "llama"])
def test_torch_exported_models(name, tmp_path):
    """Real exports (bench/models.py): the batch-1 MLP of nn.Linear layers, and a one-layer
    LLaMA-style decoder (RMSNorm, rotary embedding, grouped-query attention with a causal mask,
    SiLU-gated MLP) at reduced size. All nine full-size bench models: bench/ascendc_models.py."""
    import sys
    from pathlib import Path

    import torch

    sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
    from models import LlamaDecoder, Mlp  # noqa: E402

    from ge_mlir.frontend.torch import export_onnx

    torch.manual_seed(0)
    if name == "mlp_b1":
        module, args, names = Mlp().eval(), (torch.randn(1, 512),), ["x"]
    else:
        module = LlamaDecoder(vocab=256, d=64, heads=4, kv_heads=2, ff=96, layers=1, seq=16).eval()
        args, names = (torch.randint(0, 256, (1, 16)),), ["input_ids"]
    proto = export_onnx(module, args, input_names=names)
    _run_all(proto, {n: a.numpy() for n, a in zip(names, args)}, tmp_path)


def test_matmul_tile_edges(tmp_path):
    """M, K and N that are no multiple of the cube tiles (33 x 1000 x 130, batch 2 sharing B): the
    ragged last tiles of every loop."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(12)
    w = rng.standard_normal((1000, 130)).astype(np.float32)
    g = helper.make_graph([helper.make_node("MatMul", ["x", "W"], ["y"])], "mm",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 33, 1000])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 33, 130])],
                          [numpy_helper.from_array(w, "W")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    _run_all(model, {"x": rng.standard_normal((2, 33, 1000)).astype(np.float32)}, tmp_path)


def test_readme_main_job_model(tmp_path):
    """The README's main-job model (examples/make_resnet_block.py: conv + BN + ReLU, a residual
    block, global pool, a batch-1 linear head) compiles for ascendc, passes every shim check and
    matches onnxruntime."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[4] / "examples" / "make_resnet_block.py"
    spec = importlib.util.spec_from_file_location("make_resnet_block", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    proto = mod.build()
    name = proto.graph.input[0].name
    shape = [d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim]
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    compiled = _run_all(proto, {name: x}, tmp_path)
    assert {"matmul", "im2col"} <= {k["name"].rsplit("_", 1)[0] for k in compiled.kernels}
