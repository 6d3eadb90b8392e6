"""Small ONNX models exercising If, Loop and Scan (ge_mlir/frontend/onnx/ops/control_flow.py).

    python control_flow_models.py NAME OUT.onnx     # writes model NAME
    python control_flow_models.py --list            # prints the model names

Bodies read outer values (ONNX's lexical scoping); FEEDS gives the run-time inputs of each
model's numeric checks in test/python/frontend/test_onnx_control_flow.py.
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper as h
from onnx import numpy_helper as nh

F32, I64, BOOL = TP.FLOAT, TP.INT64, TP.BOOL
OPSET = 17

#: name -> builder() -> ModelProto
MODELS: dict[str, Callable[[], onnx.ModelProto]] = {}
#: name -> list of feeds (each a dict) the model is checked with
FEEDS: dict[str, list[dict[str, np.ndarray]]] = {}


def model(name: str, feeds: list[dict[str, np.ndarray]]):
    def register(fn):
        MODELS[name] = fn
        FEEDS[name] = feeds
        return fn

    return register


def _graph(name, nodes, inputs, outputs, inits=()):
    return h.make_graph(nodes, name, [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                        [h.make_tensor_value_info(n, t, s) for n, t, s in outputs],
                        initializer=[nh.from_array(np.asarray(v), k) for k, v in inits])


def _model(graph):
    return h.make_model(graph, opset_imports=[h.make_opsetid("", OPSET)], ir_version=8)


_X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5


@model("if_runtime", [{"cond": np.array(c), "x": _X} for c in (True, False)])
def if_runtime():
    # Both branches read the outer x.
    then_g = _graph("then", [h.make_node("Add", ["x", "one"], ["t"])], [], [("t", F32, [2, 3])],
                    [("one", np.float32(1))])
    else_g = _graph("else", [h.make_node("Mul", ["x", "x"], ["e"])], [], [("e", F32, [2, 3])])
    node = h.make_node("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g)
    return _model(_graph("if_runtime", [node, h.make_node("Relu", ["y"], ["z"])],
                         [("cond", BOOL, []), ("x", F32, [2, 3])], [("z", F32, [2, 3])]))


@model("if_constant", [{"x": _X}])
def if_constant():
    # A condition known at import time: only the taken branch is converted.
    then_g = _graph("then", [h.make_node("Neg", ["x"], ["t"])], [], [("t", F32, [2, 3])])
    else_g = _graph("else", [h.make_node("Abs", ["x"], ["e"])], [], [("e", F32, [2, 3])])
    node = h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)
    return _model(_graph("if_constant", [node], [("x", F32, [2, 3])], [("y", F32, [2, 3])],
                         [("c", np.array(False))]))


@model("if_shapes", [{"cond": np.array(c), "x": _X} for c in (True, False)])
def if_shapes():
    # The branches' results differ in size: the If's result has a run-time dim.
    then_g = _graph("then", [h.make_node("ReduceSum", ["x", "ax0"], ["t"], keepdims=0)], [], [("t", F32, [3])],
                    [("ax0", np.array([0], np.int64))])
    else_g = _graph("else", [h.make_node("ReduceSum", ["x", "ax1"], ["e"], keepdims=0)], [], [("e", F32, [2])],
                    [("ax1", np.array([1], np.int64))])
    node = h.make_node("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g)
    return _model(_graph("if_shapes", [node], [("cond", BOOL, []), ("x", F32, [2, 3])], [("y", F32, None)]))


@model("loop_runtime", [{"m": np.array(n, np.int64), "cond": np.array(c), "x": _X[0]}
                        for n, c in ((5, True), (1, True), (0, True), (3, False))])
def loop_runtime():
    # sum += x * i for i < m while cond; every partial sum is a scan output.
    body = _graph("body", [
        h.make_node("Identity", ["c_in"], ["c_out"]),
        h.make_node("Cast", ["i"], ["fi"], to=F32),
        h.make_node("Mul", ["x", "fi"], ["step"]),
        h.make_node("Add", ["s_in", "step"], ["s_out"]),
        h.make_node("Identity", ["s_out"], ["scan"]),
    ], [("i", I64, []), ("c_in", BOOL, []), ("s_in", F32, [3])],
        [("c_out", BOOL, []), ("s_out", F32, [3]), ("scan", F32, [3])])
    nodes = [h.make_node("Loop", ["m", "cond", "zero"], ["s", "partials"], body=body)]
    return _model(_graph("loop_runtime", nodes, [("m", I64, []), ("cond", BOOL, []), ("x", F32, [3])],
                         [("s", F32, [3]), ("partials", F32, None)], [("zero", np.zeros(3, np.float32))]))


@model("loop_while", [{"limit": np.array(v, np.float32)} for v in (10.0, 0.5, -1.0)])
def loop_while():
    # No trip count: doubles v until it reaches limit (the body computes the condition).
    body = _graph("body", [
        h.make_node("Add", ["v_in", "v_in"], ["v_out"]),
        h.make_node("Less", ["v_out", "limit"], ["c_out"]),
    ], [("i", I64, []), ("c_in", BOOL, []), ("v_in", F32, [])], [("c_out", BOOL, []), ("v_out", F32, [])])
    nodes = [h.make_node("Less", ["one", "limit"], ["go"]),
             h.make_node("Loop", ["", "go", "one"], ["v"], body=body)]
    return _model(_graph("loop_while", nodes, [("limit", F32, [])], [("v", F32, [])],
                         [("one", np.float32(1))]))


@model("loop_if", [{"m": np.array(n, np.int64)} for n in (4, 1)])
def loop_if():
    # An If inside a Loop body: add 1 on even iterations, subtract 2 on odd ones.
    then_g = _graph("even", [h.make_node("Add", ["a_in", "one"], ["t"])], [], [("t", F32, [])])
    else_g = _graph("odd", [h.make_node("Sub", ["a_in", "two"], ["e"])], [], [("e", F32, [])])
    body = _graph("body", [
        h.make_node("Mod", ["i", "two_i"], ["r"]),
        h.make_node("Equal", ["r", "zero_i"], ["even"]),
        h.make_node("If", ["even"], ["a_out"], then_branch=then_g, else_branch=else_g),
        h.make_node("Identity", ["c_in"], ["c_out"]),
    ], [("i", I64, []), ("c_in", BOOL, []), ("a_in", F32, [])], [("c_out", BOOL, []), ("a_out", F32, [])])
    nodes = [h.make_node("Loop", ["m", "", "zero"], ["a"], body=body)]
    return _model(_graph("loop_if", nodes, [("m", I64, [])], [("a", F32, [])],
                         [("zero", np.float32(0)), ("one", np.float32(1)), ("two", np.float32(2)),
                          ("two_i", np.int64(2)), ("zero_i", np.int64(0))]))


@model("scan_axes", [{"init": np.zeros(2, np.float32), "a": np.arange(8, dtype=np.float32).reshape(2, 4),
                      "b": np.arange(8, dtype=np.float32).reshape(4, 2) * 10}])
def scan_axes():
    # Running sums of a's columns (axis 1) and of b's rows read backwards; scan outputs stacked
    # along axis 1, the second one in reverse order.
    body = _graph("body", [
        h.make_node("Add", ["s_in", "a_t"], ["s1"]),
        h.make_node("Add", ["s1", "b_t"], ["s_out"]),
        h.make_node("Identity", ["s_out"], ["y1"]),
        h.make_node("Mul", ["a_t", "b_t"], ["y2"]),
    ], [("s_in", F32, [2]), ("a_t", F32, [2]), ("b_t", F32, [2])],
        [("s_out", F32, [2]), ("y1", F32, [2]), ("y2", F32, [2])])
    node = h.make_node("Scan", ["init", "a", "b"], ["s", "y1s", "y2s"], body=body, num_scan_inputs=2,
                       scan_input_axes=[1, 0], scan_input_directions=[0, 1], scan_output_axes=[1, 0],
                       scan_output_directions=[0, 1])
    return _model(_graph("scan_axes", [node], [("init", F32, [2]), ("a", F32, [2, 4]), ("b", F32, [4, 2])],
                         [("s", F32, [2]), ("y1s", F32, [2, 4]), ("y2s", F32, [4, 2])]))


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(MODELS))
    else:
        onnx.save(MODELS[sys.argv[1]](), sys.argv[2])
