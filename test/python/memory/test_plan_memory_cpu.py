"""ge-plan-memory on the CPU target: the recorded plan, the independent checker on it, budgets."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.errors import CompileError, MemoryBudgetError, PlanError
from ge_mlir.memory.buffers import Buffer, Plan
from ge_mlir.memory.checker import check_plan


def _residual_cnn() -> onnx.ModelProto:
    """conv-relu -> pool -> conv -> add(skip) -> relu -> conv: buffers with overlapping and disjoint lives."""
    rng = np.random.default_rng(0)

    def weight(name, shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32) * 0.2, name)

    inits = [weight("w0", (8, 3, 3, 3)), weight("w1", (8, 8, 3, 3)), weight("w2", (4, 8, 1, 1))]
    nodes = [
        helper.make_node("Conv", ["x", "w0"], ["c0"], name="conv0", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"], name="relu0"),
        helper.make_node("MaxPool", ["r0"], ["p0"], name="pool0", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p0", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c1", "p0"], ["s1"], name="skip1"),
        helper.make_node("Relu", ["s1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2"], ["y"], name="conv2"),
    ]
    graph = helper.make_graph(
        nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 16, 16])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def compiled():
    model = _residual_cnn()
    return model, ge_mlir.compile(model.SerializeToString())


def test_plan_is_recorded_and_passes_the_independent_checker(compiled):
    _, m = compiled
    plan = m.memory_plan
    assert plan is not None and plan["buffers"]
    buffers = [Buffer(i, b["size"], b["start"], b["end"], b["name"]) for i, b in enumerate(plan["buffers"])]
    inplace = {i: b["inplace_of"] for i, b in enumerate(plan["buffers"]) if "inplace_of" in b}
    check_plan(buffers, Plan({i: b["offset"] for i, b in enumerate(plan["buffers"])}, plan["arena"], 64,
                             plan["strategy"]), inplace)
    # Bounds in order: the most live at once <= the arena <= no reuse; one op's working set
    # (counted without in-place reuse) is below the most live at once unless buffers were shared in place.
    assert plan["lower_bound"] <= plan["arena"] <= plan["no_reuse"]
    assert plan["inplace"] or plan["op_bound"] <= plan["lower_bound"]
    assert plan["arena"] == min(plan["arenas"].values())
    assert set(plan["arenas"]) == {"greedy-by-size", "greedy-by-breadth", "best-fit", "exact"}
    # Buffers are named after the ONNX nodes they come from.
    assert {"conv0", "conv1"} <= {b["name"] for b in plan["buffers"]}


def test_planned_model_matches_onnxruntime(compiled):
    model, m = compiled
    x = np.random.default_rng(1).standard_normal((1, 3, 32, 32)).astype(np.float32)
    (got,) = m(x)
    (want,) = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_no_plan_before_bufferization():
    m = ge_mlir.compile(_residual_cnn().SerializeToString(), compile_to="linalg")
    assert m.memory_plan is None


def test_over_budget_fails_before_the_jit_naming_the_peak(compiled):
    _, m = compiled
    budget_mb = m.memory_plan["arena"] / 2**20 / 2
    with pytest.raises(MemoryBudgetError) as info:
        ge_mlir.compile(_residual_cnn().SerializeToString(), options={"memory_budget_mb": budget_mb})
    e = info.value
    assert e.arena == m.memory_plan["arena"] and e.budget == int(budget_mb * 2**20)
    assert e.live and e.live == sorted(e.live, key=lambda t: -t[1])
    assert "over the memory budget" in str(e) and e.live[0][0] in str(e)
    assert isinstance(e, CompileError)


def test_within_budget_compiles_and_runs(compiled):
    _, m = compiled
    ok = ge_mlir.compile(_residual_cnn().SerializeToString(),
                         options={"memory_budget_mb": m.memory_plan["arena"] / 2**20})
    assert ok.memory_plan["arena"] == m.memory_plan["arena"]


@pytest.mark.parametrize("bad", [0, -1.0, "8", True])
def test_bad_budget_is_refused(bad):
    with pytest.raises(CompileError, match="memory_budget_mb"):
        ge_mlir.compile(_residual_cnn().SerializeToString(), options={"memory_budget_mb": bad})


def test_exact_solve_survives_a_process_with_tensorflow_and_torch():
    # Regression: with MLIR, TensorFlow and PyTorch loaded, CP-SAT's solve segfaulted in-process
    # (OR-Tools bundles its own protobuf/abseil; fresh-clone CI, test_onnx_numerics). The solve
    # now runs in a child process and OR-Tools never enters the compiler's process.
    pytest.importorskip("tensorflow")
    code = (
        "import random, sys\n"
        "import ge_mlir, tensorflow, torch\n"
        "from ge_mlir.memory.buffers import Buffer\n"
        "from ge_mlir.memory.strategies import solve_exact\n"
        "random.seed(3)\n"
        "bs = []\n"
        "for i in range(60):\n"
        "    s = random.randint(0, 40)\n"
        "    bs.append(Buffer(i, random.randint(1, 20) * 64, s, s + random.randint(0, 15)))\n"
        "r = solve_exact(bs, 64, work_limit=0.1)\n"
        "print('STATUS', r.status, r.reason)\n"
        "print('ORTOOLS', sorted(m for m in sys.modules if m.startswith('ortools')))\n"
    )
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "STATUS optimal" in proc.stdout and "ORTOOLS []" in proc.stdout


def _elementwise_chain() -> onnx.ModelProto:
    """x -> relu -> sigmoid -> (+x) -> tanh -> (*x) -> y, 64 KiB tensors: every intermediate dies at
    the next op, which may write into it; x (an argument) must never be overwritten."""
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="relu"),
             helper.make_node("Sigmoid", ["a"], ["b"], name="sigmoid"),
             helper.make_node("Add", ["b", "x"], ["c"], name="add"),
             helper.make_node("Tanh", ["c"], ["d"], name="tanh"),
             helper.make_node("Mul", ["d", "x"], ["y"], name="mul")]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [128, 128])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [128, 128])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_inplace_reuse_shares_one_buffer_and_keeps_outputs():
    model = _elementwise_chain()
    # Fused (the default), the chain is one loop: no intermediate buffer at all.
    assert ge_mlir.compile(model.SerializeToString(), progress=False).memory_plan is None
    m = ge_mlir.compile(model.SerializeToString(), options={"fuse_elementwise": False})
    plan = m.memory_plan
    # relu -> sigmoid -> add -> tanh: each writes into its dying input, so the four live in one buffer.
    assert plan["inplace"] == len(plan["buffers"]) - 1 == 3
    assert plan["arena"] == plan["lower_bound"] == 128 * 128 * 4 < plan["op_bound"]
    assert len({b["offset"] for b in plan["buffers"]}) == 1
    x = np.random.default_rng(0).standard_normal((128, 128)).astype(np.float32)
    x_before = x.copy()
    (y,) = m(x)
    (ref,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(x, x_before)  # the argument was read, never written


def test_checker_refuses_a_wrong_inplace_pair():
    bufs = [Buffer(0, 64, 0, 2), Buffer(1, 64, 2, 4), Buffer(2, 64, 1, 4)]
    ok = Plan({0: 0, 1: 0, 2: 64}, 128, 64, "x")
    check_plan(bufs, ok, {1: 0})
    with pytest.raises(PlanError, match="share bytes"):
        check_plan(bufs, ok)  # the same overlap, not declared in place
    with pytest.raises(PlanError, match="in place"):
        check_plan(bufs, Plan({0: 0, 1: 64, 2: 0}, 128, 64, "x"), {1: 0})  # not at the input's offset
    with pytest.raises(PlanError, match="in place"):
        check_plan(bufs, Plan({0: 0, 1: 0, 2: 64}, 128, 64, "x"), {2: 0})  # starts before the input dies
