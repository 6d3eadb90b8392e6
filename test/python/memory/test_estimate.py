"""Memory estimation on the ge graph (ge_mlir.estimate_memory, ge_mlir.memory.estimate).

Hand-made ge modules have answers worked out by hand below (and equal to the plan the
CPU target then makes); the benchmark models' estimates are within 10% of their final
plans; a ResNet-50-sized graph is estimated well under a second; bad input raises a
ge_mlir error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.errors import CompileError, GeMlirError
from ge_mlir.memory.buffers import Buffer, Plan
from ge_mlir.memory.checker import check_plan
from ge_mlir.memory.estimate import MemoryEstimate, estimate_module

ROOT = Path(__file__).resolve().parents[3]

# relu -> exp -> matmul -> add(skip): three 16 KiB tensors live at the matmul, the add's result is returned.
CHAIN = """
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = ge.relu %x : tensor<64x64xf32>
  %1 = ge.exp %0 : tensor<64x64xf32>
  %2 = ge.matmul %1, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = ge.add %2, %0 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}
"""

# A padded 3x3 convolution of an argument, with a relu epilogue, then neg (returned).
CONV = """
func.func @conv(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = ge.constant dense<0.5> : tensor<4x3x3x3xf32>
  %0 = ge.conv2d %x, %w {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = ge.neg %0 : tensor<1x4x8x8xf32>
  return %1 : tensor<1x4x8x8xf32>
}
"""

# relu -> max pool -> padded conv with the pool's result as residual: the pool writes into the conv's padded buffer.
POOL = """
func.func @pool(%x: tensor<1x4x16x16xf32>) -> tensor<1x4x8x8xf32> {
  %w = ge.constant dense<0.25> : tensor<4x4x3x3xf32>
  %0 = ge.relu %x : tensor<1x4x16x16xf32>
  %1 = ge.max_pool2d %0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x16x16xf32>) -> tensor<1x4x8x8xf32>
  %2 = ge.conv2d %1, %w residual(%1) {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %2 : tensor<1x4x8x8xf32>
}
"""

# An elementwise chain: each input dies where the next op reads it.
INPLACE = """
func.func @inplace(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = ge.relu %x : tensor<64x64xf32>
  %1 = ge.exp %0 : tensor<64x64xf32>
  %2 = ge.neg %1 : tensor<64x64xf32>
  %3 = ge.add %2, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}
"""

# A result returned through a reshape: the lowering copies the view out, so the tensor is planned.
VIEW = """
func.func @view(%x: tensor<4x16xf32>) -> tensor<64xf32> {
  %0 = ge.relu %x : tensor<4x16xf32>
  %1 = ge.reshape %0 : tensor<4x16xf32> to tensor<64xf32>
  return %1 : tensor<64xf32>
}
"""

# NHWC convolutions and pools: transposed to NCHW (straight into the padded buffers) and back.
NHWC = """
func.func @nhwc(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %w = ge.constant dense<0.5> : tensor<4x3x3x3xf32>
  %w2 = ge.constant dense<0.5> : tensor<4x4x3x3xf32>
  %0 = ge.conv2d %x, %w {activation = #ge.act<relu>, data_format = #ge.format<NHWC>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x8x8x4xf32>
  %1 = ge.max_pool2d %0 {data_format = #ge.format<NHWC>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %2 = ge.conv2d %1, %w2 residual(%0) {data_format = #ge.format<NHWC>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %3 = ge.add %2, %1 : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %3 : tensor<1x8x8x4xf32>
}
"""

# A depthwise convolution (bias, ReLU) and an average pool, both f32 vector code with the
# epilogue (bias and ReLU; the division) in the vectors: no accumulators.
DEPTHWISE = """
func.func @depthwise(%x: tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32> {
  %w = ge.constant dense<0.5> : tensor<8x1x3x3xf32>
  %b = ge.constant dense<0.25> : tensor<8xf32>
  %0 = ge.conv2d %x, %w, %b {activation = #ge.act<relu>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %1 = ge.avg_pool2d %0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
  %2 = ge.neg %1 : tensor<1x8x8x8xf32>
  return %2 : tensor<1x8x8x8xf32>
}
"""

KIB = 1024


def _estimate(text: str, **kw) -> MemoryEstimate:
    with ir.Context():
        return estimate_module(ge_mlir.parse_module(text), **kw)


def test_chain_tensors_only():
    e = _estimate(CHAIN)
    assert (e.weights, e.inputs, e.outputs) == (0, 16 * KIB, 16 * KIB)
    # %0 lives to the add, %1 to the matmul, %2 from the matmul: all three at once there.
    assert (e.activation_peak, e.workspace, e.arena) == (48 * KIB, 0, 48 * KIB)
    assert e.lower_bound == 48 * KIB and e.largest_scratch == 0
    assert (e.peak_index, e.peak_op, e.peak_step) == (2, "ge.matmul", "compute")
    assert [b.size for b in e.peak_buffers] == [16 * KIB] * 3
    assert e.tensors == 3 and e.total == 16 * KIB + 16 * KIB + 48 * KIB
    assert [b.op for b in e.top_activations] == ["ge.relu", "ge.exp", "ge.matmul"]
    assert [(b.start, b.end) for b in e.top_activations] == [(0, 3), (1, 2), (2, 3)]


def test_conv_workspace_padded_input_im2col_and_accumulator():
    e = _estimate(CONV)
    assert e.weights == 4 * 3 * 3 * 3 * 4
    scratch = {b.kind: (b.size, b.type) for b in e.top_workspace}
    assert scratch == {
        "padded input": (1 * 3 * 10 * 10 * 4, "1x3x10x10xf32"),
        "im2col": (27 * 64 * 4, "1x27x64xf32"),  # [C*kh*kw, Ho*Wo]
        "accumulator": (4 * 64 * 4, "1x4x8x8xf32"),
    }
    # The conv's result (1 KiB) is planned, neg's is returned. The padded copy (1200 B, 1216 aligned) and
    # im2col are live together while the patches are gathered; the accumulator comes after the padded copy
    # dies, and the relu epilogue writes the result into it (in place).
    assert e.activation_peak == 1024
    assert e.arena == 1216 + 6912 and e.workspace == 1216 + 6912 - 1024
    assert (e.peak_op, e.peak_step) == ("ge.conv2d", "gather")
    (act,) = e.top_activations
    assert act.reuses == "accumulator"


def test_pool_writes_into_the_padded_buffer_of_the_conv():
    e = _estimate(POOL)
    pooled = next(b for b in e.top_activations if b.op == "ge.max_pool2d")
    # 1x4x8x8 f32 written straight into the conv's 1x4x10x10 padded buffer: no padded copy.
    assert (pooled.type, pooled.padded, pooled.size) == ("1x4x8x8xf32", "1x4x10x10xf32", 1600)
    assert "padded input" not in {b.kind for b in e.top_workspace}
    relu = next(b for b in e.top_activations if b.op == "ge.relu")
    assert relu.size == 4096 and not relu.padded
    # At the conv's compute step: the relu result is dead; the pooled tensor (read again as the residual),
    # im2col ([36, 64] f32) and the accumulator are live. The activation peak is relu + pooled at the pool.
    assert e.arena == 1600 + 36 * 64 * 4 + 1024 and e.activation_peak == 4096 + 1600
    assert (e.peak_op, e.peak_step) == ("ge.conv2d", "compute")


def test_vector_window_ops_need_no_accumulator():
    e = _estimate(DEPTHWISE)
    assert {b.kind for b in e.top_workspace} == {"padded input"}
    # The padded input (8x18x18 f32) and the convolution's result (8x16x16 f32) at the
    # convolution; then the result and the pool's (8x8x8 f32).
    assert e.arena == 8 * 18 * 18 * 4 + 8 * 16 * 16 * 4


def test_in_place_reuse_is_an_option():
    # Without elementwise fusion (which computes this chain as one loop: no buffer at all).
    assert _estimate(INPLACE).arena == 0
    on, off = _estimate(INPLACE, fuse_elementwise=False), _estimate(INPLACE, in_place=False, fuse_elementwise=False)
    assert on.in_place and not off.in_place
    # relu, exp and neg dying into each other share one 16 KiB slot; without reuse two are live at once.
    assert on.arena == 16 * KIB and off.arena == 32 * KIB
    assert sorted(b.reuses for b in on.top_activations) == ["", "-:3:8", "-:4:8"]


VIEW_TWICE = """
func.func @view_twice(%x: tensor<4x16xf32>) -> (tensor<64xf32>, tensor<2x32xf32>) {
  %0 = ge.relu %x : tensor<4x16xf32>
  %1 = ge.reshape %0 : tensor<4x16xf32> to tensor<64xf32>
  %2 = ge.reshape %0 : tensor<4x16xf32> to tensor<2x32xf32>
  return %1, %2 : tensor<64xf32>, tensor<2x32xf32>
}
"""


def test_result_returned_through_a_view_is_computed_in_its_out_parameter():
    # ge-forward-result-buffers: the relu writes the caller's [64] array through a collapse_shape.
    e = _estimate(VIEW)
    assert e.arena == 0 and e.top_activations == []
    # Returned through two views, the relu's buffer is planned and copied out twice.
    e = _estimate(VIEW_TWICE)
    assert e.arena == 256 and [b.op for b in e.top_activations] == ["ge.relu"]


@pytest.mark.parametrize("text", [CHAIN, CONV, POOL, INPLACE, VIEW, VIEW_TWICE, DEPTHWISE],
                         ids=["chain", "conv", "pool", "inplace", "view", "view_twice", "depthwise"])
def test_hand_made_estimates_equal_the_compiled_plan(text):
    e = _estimate(text)
    plan = ge_mlir.compile(text, compile_to="bufferized", progress=False).memory_plan
    assert e.arena == (plan["arena"] if plan is not None else 0)  # no plan: no workspace at all


def test_nhwc_estimate_is_close_to_the_compiled_plan():
    # Over by 8%: bufferization cancels the NHWC->NCHW->NHWC transposes between these ops (the pool
    # reads the first conv's NCHW result in place, which also serves as the second conv's residual),
    # which the estimate counts as copies (1 KiB here).
    e = _estimate(NHWC)
    plan = ge_mlir.compile(NHWC, compile_to="bufferized", progress=False).memory_plan
    assert 1.0 <= e.arena / plan["arena"] <= 1.09
    assert {"im2col", "padded input", "NCHW residual"} <= {b.kind for b in e.peak_buffers}


def test_table_and_json():
    e = _estimate(CONV)
    table = str(e)
    assert table == e.table()
    lines = table.splitlines()
    assert lines[0].startswith("memory estimate of @conv: 3 ge ops, in-place reuse, alignment 64")
    for label in ("weights", "inputs", "outputs", "activation peak", "workspace", "arena", "total"):
        assert any(line.split("  ")[1].strip() == label for line in lines[1:8]), label
    assert any("im2col" in line and "1x27x64xf32" in line for line in lines)
    d = json.loads(e.to_json())
    assert d["arena"] == e.arena and d["total"] == e.total and d["activation_peak"] == 1024
    assert {b["kind"] for b in d["top_workspace"]} == {"padded input", "im2col", "accumulator"}
    assert d["peak_step"] == "gather" and d["function"] == "conv"


def test_estimate_memory_imports_and_optimizes_like_compile(tmp_path):
    path = tmp_path / "conv.mlir"
    path.write_text(CONV)
    e = ge_mlir.estimate_memory(str(path))
    assert isinstance(e, ge_mlir.MemoryEstimate) and e.arena == _estimate(CONV).arena
    assert e.import_seconds > 0
    # The compile option attaches the same estimate to the compiled model.
    m = ge_mlir.compile(CONV, compile_to="optimized", options={"memory_estimation": True}, progress=False)
    assert m.memory_estimate is not None and m.memory_estimate.arena == e.arena
    assert ge_mlir.compile(CONV, compile_to="optimized", progress=False).memory_estimate is None


def test_input_shapes_fix_onnx_dimensions():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 256])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 256])
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Exp", ["r"], ["e"], name="exp"),
             helper.make_node("Add", ["e", "r"], ["y"], name="add")]
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)])
    # Elementwise fusion off: fused, the chain is one loop with no buffer.
    assert ge_mlir.estimate_memory(model, {"x": [8, 256]}).arena == 0
    small = ge_mlir.estimate_memory(model, {"x": [2, 256]}, options={"fuse_elementwise": False})
    big = ge_mlir.estimate_memory(model, input_shapes={"x": [8, 256]}, options={"fuse_elementwise": False})
    assert (small.arena, big.arena) == (2 * 2 * 256 * 4, 2 * 8 * 256 * 4)
    assert {b.name for b in big.top_activations} == {"relu", "exp"}


@pytest.mark.parametrize("model, error", [
    ("/no/such/model.onnx", CompileError),
    (42, CompileError),
    (b"not an onnx model", GeMlirError),
    ("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = ge.relu %x : tensor<3xf32>\n"
     "  return %0 : tensor<2xf32>\n}", GeMlirError),
])
def test_bad_input_raises_a_ge_mlir_error(model, error):
    with pytest.raises(error):
        ge_mlir.estimate_memory(model)


def test_bad_options_raise_compile_errors():
    with pytest.raises(CompileError, match="unknown compile option"):
        ge_mlir.estimate_memory(CHAIN, options={"no_such_option": 1})
    with pytest.raises(CompileError, match="no function @g"):
        ge_mlir.estimate_memory(CHAIN, options={"func_name": "g"})
    with pytest.raises(CompileError, match="in_place"):
        ge_mlir.estimate_memory(CHAIN, in_place="yes")
    with ir.Context():
        module = ge_mlir.parse_module(CHAIN)
        with pytest.raises(CompileError, match="alignment"):
            estimate_module(module, alignment=0)
        with pytest.raises(CompileError, match="unknown planning strategy"):
            estimate_module(module, strategy="first-fit")


# --------------------------------------------------------------------------
# A ResNet-50-sized graph: the estimate alone stays well under a second
# --------------------------------------------------------------------------


def resnet50_onnx(size: int = 224):
    """ResNet-50's layout (bottlenecks 3-4-6-3, 25.5M parameters) with onnx.helper: conv+bias (BN folded), relu."""
    rng = np.random.default_rng(0)
    nodes, inits = [], []

    def conv(x: str, cin: int, cout: int, k: int, s: int, act: bool = True) -> str:
        i = len(nodes)
        w, b, y = f"w{i}", f"b{i}", f"conv{i}"
        inits.append(numpy_helper.from_array(rng.standard_normal((cout, cin, k, k), np.float32) * 0.05, w))
        inits.append(numpy_helper.from_array(np.zeros(cout, np.float32), b))
        nodes.append(helper.make_node("Conv", [x, w, b], [y], name=y, kernel_shape=[k, k], strides=[s, s],
                                      pads=[k // 2] * 4))
        if not act:
            return y
        nodes.append(helper.make_node("Relu", [y], [f"relu{i}"], name=f"relu{i}"))
        return f"relu{i}"

    x = conv("x", 3, 64, 7, 2)
    nodes.append(helper.make_node("MaxPool", [x], ["pool"], name="pool", kernel_shape=[3, 3], strides=[2, 2],
                                  pads=[1, 1, 1, 1]))
    x, cin = "pool", 64
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)]):
        for i in range(blocks):
            s = 2 if i == 0 and stage > 0 else 1
            y = conv(conv(conv(x, cin, width, 1, 1), width, width, 3, s), width, width * 4, 1, 1, act=False)
            short = conv(x, cin, width * 4, 1, s, act=False) if i == 0 else x
            n = len(nodes)
            nodes += [helper.make_node("Add", [y, short], [f"add{n}"], name=f"add{n}"),
                      helper.make_node("Relu", [f"add{n}"], [f"out{n}"], name=f"out{n}")]
            x, cin = f"out{n}", width * 4
    inits += [numpy_helper.from_array(rng.standard_normal((1000, 2048), np.float32) * 0.01, "fc_w"),
              numpy_helper.from_array(np.zeros(1000, np.float32), "fc_b")]
    nodes += [helper.make_node("GlobalAveragePool", [x], ["gap"], name="gap"),
              helper.make_node("Flatten", ["gap"], ["flat"], name="flat"),
              helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], name="fc", transB=1)]
    graph = helper.make_graph(nodes, "resnet50", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, size, size])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1000])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_resnet50_sized_graph_is_estimated_well_under_a_second():
    model = resnet50_onnx()
    assert len(model.graph.node) > 120
    assert sum(int(np.prod(t.dims)) for t in model.graph.initializer) > 25_000_000
    e = ge_mlir.estimate_memory(model)  # import + optimize (timed separately), then the estimate
    assert e.ops > 150 and e.weights > 100e6
    # ``seconds`` times the estimate alone (estimate_function on the optimized module), not the import.
    assert e.seconds < 1.0, f"estimate took {e.seconds:.2f} s (import and optimization: {e.import_seconds:.2f} s)"
    # The 7x7 stem's register tiles read its padded input in place (no patch matrix, no
    # phase split), so the peak is the first bottleneck at 56 x 56: the max pool's output
    # (alive for the shortcut) beside two 64-channel activations.
    stem = {b.kind: b.size for b in e.top_workspace if b.name == "conv0"}
    assert stem == {"padded input": 3 * 230 * 230 * 4}, stem
    assert e.peak_name == "conv8" and {b.name for b in e.peak_buffers} == {"conv7", "conv8", "pool"}


# --------------------------------------------------------------------------
# The benchmark models: within 10% of the final plan
# --------------------------------------------------------------------------

BENCH = ["resnet18", "mobilenet_v2", "bert_encoder", "gpt2_decoder", "vit_tiny", "unet"]


@pytest.fixture(scope="module")
def bench_models():
    """name -> exported ONNX ModelProto, each exported on first use (bench/models.py, random weights)."""
    pytest.importorskip("torch")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench.models import benchmark_models
    from ge_mlir.frontend.torch import export_onnx

    specs = {name: (module, args, names) for name, module, args, names in benchmark_models()}
    assert set(specs) <= set(BENCH), f"bench models not in BENCH (add them): {sorted(set(specs) - set(BENCH))}"
    cache: dict[str, object] = {}

    def get(name: str):
        if name not in specs:
            pytest.skip(f"{name} is not a benchmark model of bench/models.py")
        if name not in cache:
            module, args, names = specs[name]
            cache[name] = export_onnx(module, args, input_names=names)
        return cache[name]

    return get


@pytest.mark.parametrize("name", BENCH)
def test_bench_model_estimate_within_10_percent_of_the_final_plan(bench_models, name):
    proto = bench_models(name)
    e = ge_mlir.estimate_memory(proto)
    plan = ge_mlir.compile(proto, compile_to="bufferized", progress=False).memory_plan
    ratio = e.arena / plan["arena"]
    assert 0.9 <= ratio <= 1.1, (f"{name}: estimate {e.arena} B (activations {e.activation_peak}, workspace "
                                 f"{e.workspace}) vs final arena {plan['arena']} B: {ratio:.3f}")
    # The same compile's plan, through the checker that shares no code with the planner.
    buffers = [Buffer(i, b["size"], b["start"], b["end"], b["name"]) for i, b in enumerate(plan["buffers"])]
    check_plan(buffers, Plan({i: b["offset"] for i, b in enumerate(plan["buffers"])}, plan["arena"], 64,
                             plan["strategy"]),
               {i: b["inplace_of"] for i, b in enumerate(plan["buffers"]) if "inplace_of" in b})
    # The target: the arena within 5% of the order-independent op bound.
    bound = ARENA_OVER_OP_BOUND.get(name, 1.05)
    assert plan["arena"] <= bound * plan["op_bound"], (
        f"{name}: arena {plan['arena']} B is {plan['arena'] / plan['op_bound']:.3f}x the op bound {plan['op_bound']} B")


#: Models whose arena may exceed 1.05x the op bound, and why.
ARENA_OVER_OP_BOUND: dict[str, float] = {
    # The peak is the top decoder's concatenation: the skip, the up-sampled half and the padded
    # buffer both are copied into are live at once (2.14 MB; every order computes the up-sampled
    # half while the skip waits). The op bound counts each of the concat's two copies alone (1.62
    # MB, the largest single op since the convolution after it pads in place instead of copying
    # its padded input again: it was 2.16 MB, arena and op bound, before).
    "unet": 1.35,
}
