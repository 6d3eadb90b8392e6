"""ONNX If, Loop and Scan (ge_mlir/frontend/onnx/ops/control_flow.py), compiled once with
ge_mlir.compile and checked against onnxruntime at every feed of
test/Frontend/onnx/Inputs/control_flow_models.py (f32: rtol 1e-6)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from mlir import ir
from onnx import TensorProto as TP
from onnx import helper as h

import ge_mlir
from ge_mlir.errors import UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx

ort = pytest.importorskip("onnxruntime")

INPUTS = Path(__file__).resolve().parents[2] / "Frontend" / "onnx" / "Inputs"
sys.path.insert(0, str(INPUTS))
import control_flow_models as cm  # noqa: E402

#: The control-flow ops each model's ge module keeps (If with a constant condition is inlined,
#: Scan is unrolled).
EXPECTED = {
    "if_runtime": {"scf.if": 1, "scf.while": 0},
    "if_constant": {"scf.if": 0, "scf.while": 0},
    "if_shapes": {"scf.if": 1, "scf.while": 0},
    "loop_runtime": {"scf.if": 0, "scf.while": 1},
    "loop_while": {"scf.if": 0, "scf.while": 1},
    "loop_if": {"scf.if": 1, "scf.while": 1},
    "scan_axes": {"scf.if": 0, "scf.while": 0},
}


def test_every_model_is_checked():
    assert set(EXPECTED) == set(cm.MODELS)


def _ops(module: ir.Module) -> dict[str, int]:
    counts: dict[str, int] = {}

    def visit(op):
        counts[op.name] = counts.get(op.name, 0) + 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return counts


@pytest.mark.parametrize("name", sorted(cm.MODELS))
def test_structure(name):
    with ir.Context():
        ops = _ops(import_onnx(cm.MODELS[name]()))
    for op, n in EXPECTED[name].items():
        assert ops.get(op, 0) == n, (op, ops)
    assert not any(k in ops for k in ("ge.if", "ge.loop")), ops


@pytest.mark.parametrize("name", sorted(cm.MODELS))
def test_matches_onnxruntime(name):
    model = cm.MODELS[name]()
    compiled = ge_mlir.compile(model)  # once, for every feed
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for feeds in cm.FEEDS[name]:
        want = sess.run(None, feeds)
        got = compiled(**feeds)
        for g, w in zip(got, want):
            assert g.shape == w.shape, (feeds, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=0, err_msg=str(feeds))


def test_run_time_failures_inside_a_loop_body_are_reported():
    """A Gather with a run-time index inside the body: an index out of range in any iteration
    fails the call (ExecutionError naming the op), as onnxruntime fails its run."""
    body = h.make_graph([
        h.make_node("Identity", ["c_in"], ["c_out"]),
        h.make_node("Gather", ["table", "k"], ["g"]),
        h.make_node("Add", ["s_in", "g"], ["s_out"]),
    ], "body", [h.make_tensor_value_info("i", TP.INT64, []), h.make_tensor_value_info("c_in", TP.BOOL, []),
                h.make_tensor_value_info("s_in", TP.FLOAT, [])],
        [h.make_tensor_value_info("c_out", TP.BOOL, []), h.make_tensor_value_info("s_out", TP.FLOAT, [])])
    graph = h.make_graph([h.make_node("Loop", ["m", "", "zero"], ["s"], body=body)], "g",
                         [h.make_tensor_value_info("m", TP.INT64, []), h.make_tensor_value_info("k", TP.INT64, [])],
                         [h.make_tensor_value_info("s", TP.FLOAT, [])],
                         initializer=[onnx.numpy_helper.from_array(np.float32(0), "zero"),
                                      onnx.numpy_helper.from_array(np.arange(4, dtype=np.float32), "table")])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    compiled = ge_mlir.compile(model)
    np.testing.assert_array_equal(compiled(np.array(3, np.int64), np.array(2, np.int64))[0], 6.0)
    with pytest.raises(ge_mlir.ExecutionError, match="Gather"):
        compiled(np.array(3, np.int64), np.array(7, np.int64))


def test_a_loop_carried_value_that_changes_rank_is_refused():
    body = h.make_graph([
        h.make_node("Identity", ["c_in"], ["c_out"]),
        h.make_node("Unsqueeze", ["v_in", "ax"], ["v_out"]),
    ], "body", [h.make_tensor_value_info("i", TP.INT64, []), h.make_tensor_value_info("c_in", TP.BOOL, []),
                h.make_tensor_value_info("v_in", TP.FLOAT, [2])],
        [h.make_tensor_value_info("c_out", TP.BOOL, []), h.make_tensor_value_info("v_out", TP.FLOAT, None)],
        initializer=[onnx.numpy_helper.from_array(np.array([0], np.int64), "ax")])
    graph = h.make_graph([h.make_node("Loop", ["m", "", "v"], ["out"], body=body)], "g",
                         [h.make_tensor_value_info("m", TP.INT64, []), h.make_tensor_value_info("v", TP.FLOAT, [2])],
                         [h.make_tensor_value_info("out", TP.FLOAT, None)])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    with ir.Context(), pytest.raises(UnsupportedOpsError, match="loop-carried value 0"):
        import_onnx(model)


def test_the_optimizer_sees_into_bodies():
    """ge-eliminate-redundant removes the Identity nodes inside the Loop body, and the loop keeps
    no invariant carried value (the condition never changes: canonicalization drops it)."""
    compiled = ge_mlir.compile(cm.MODELS["loop_runtime"](), compile_to="optimized")
    text = compiled.ir()
    assert "scf.while" in text and "ge.concat" in text
    assert "ge.identity" not in text, text


def test_the_ascendc_target_refuses_control_flow():
    from ge_mlir.errors import GeMlirError

    with pytest.raises(GeMlirError, match="'scf.while' .*control flow is not supported"):
        ge_mlir.compile(cm.MODELS["loop_runtime"](), target="ascendc")
