"""ge_mlir.onnx_backend: the onnx.backend.base API (prepare/run_model/run_node,
input binding, initializer-backed inputs, dynamic dims, errors propagate)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from ge_mlir import onnx_backend
from ge_mlir.errors import UnsupportedOpsError


def _model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _vi(name, shape, elem=onnx.TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def test_is_an_onnx_backend():
    from onnx.backend.base import Backend, BackendRep

    assert issubclass(onnx_backend.GeMlirBackend, Backend)
    assert issubclass(onnx_backend.GeMlirBackendRep, BackendRep)
    assert onnx_backend.supports_device("CPU") and not onnx_backend.supports_device("CUDA")


def test_outputs_in_graph_output_order():
    m = _model(
        [helper.make_node("Sub", ["a", "b"], ["d"]), helper.make_node("Add", ["a", "b"], ["s"])],
        [_vi("a", [3]), _vi("b", [3])], [_vi("s", [3]), _vi("d", [3])],
    )
    a, b = np.array([1, 2, 3], np.float32), np.array([10, 20, 30], np.float32)
    s, d = onnx_backend.run_model(m, [a, b])
    np.testing.assert_array_equal(s, a + b)
    np.testing.assert_array_equal(d, a - b)
    s2, _ = onnx_backend.prepare(m).run({"b": b, "a": a})
    np.testing.assert_array_equal(s2, a + b)


def test_initializer_inputs_are_constants():
    w = np.array([2, 3], np.float32)
    m = _model([helper.make_node("Mul", ["x", "w"], ["y"])], [_vi("x", [2]), _vi("w", [2])], [_vi("y", [2])],
               [numpy_helper.from_array(w, "w")])
    rep = onnx_backend.prepare(m)
    assert rep.runtime_inputs == ["x"]
    x = np.array([1, 2], np.float32)
    np.testing.assert_array_equal(rep.run([x])[0], x * w)
    np.testing.assert_array_equal(rep.run([x, w])[0], x * w)  # all graph inputs, initializer unchanged
    with pytest.raises(NotImplementedError, match="initializer"):
        rep.run([x, w + 1])


def test_dynamic_dims_compile_per_shape():
    m = _model([helper.make_node("Relu", ["x"], ["y"])], [_vi("x", ["N", 2])], [_vi("y", ["N", 2])])
    rep = onnx_backend.prepare(m)
    for n in (1, 3):
        x = np.arange(2 * n, dtype=np.float32).reshape(n, 2) - 2
        np.testing.assert_array_equal(rep.run([x])[0], np.maximum(x, 0))


def test_run_node():
    (y,) = onnx_backend.run_node(helper.make_node("Add", ["a", "b"], ["c"]),
                                 [np.ones((2, 3), np.float32), np.arange(3, dtype=np.float32)])
    np.testing.assert_array_equal(y, np.ones((2, 3)) + np.arange(3))


def test_import_errors_propagate():
    # A valid Bernoulli (onnxruntime runs it) that ge-mlir does not import (no random ops).
    m = _model([helper.make_node("Bernoulli", ["x"], ["y"])], [_vi("x", [5])], [_vi("y", None)])
    with pytest.raises(UnsupportedOpsError, match="Bernoulli"):
        onnx_backend.prepare(m)


def test_inputs_needed_as_constants_are_specialized_to_their_values():
    """An antialiased Resize builds its filter from constant scales: the backend compiles the
    scales in as the value given (again for another value); without specialization it is refused."""
    m = _model([helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", antialias=1)],
               [_vi("x", [1, 1, 4, 6]), _vi("scales", [4])], [_vi("y", None)], opset=18)
    rep = onnx_backend.prepare(m)
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    x = np.arange(24, dtype=np.float32).reshape(1, 1, 4, 6)
    for scales in ([1, 1, 2, 1.5], [1, 1, 1.5, 2]):  # another value: compiled again
        sc = np.array(scales, np.float32)
        (y,) = rep.run([x, sc])
        np.testing.assert_allclose(y, sess.run(None, {"x": x, "scales": sc})[0], rtol=1e-5, atol=1e-5)
    assert rep.specialized_inputs == ["scales"]
    with pytest.raises(UnsupportedOpsError, match="scales"):
        onnx_backend.prepare(m, specialize_inputs=False)


def test_run_time_axes_are_compiled_once():
    """ReduceSum's axes as a graph input: read at run time, no value specialization."""
    m = _model([helper.make_node("ReduceSum", ["x", "axes"], ["y"])],
               [_vi("x", [2, 3]), _vi("axes", [1], onnx.TensorProto.INT64)], [_vi("y", None)], opset=13)
    rep = onnx_backend.prepare(m)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for a in (0, 1, -1):
        (y,) = rep.run([x, np.array([a])])
        np.testing.assert_array_equal(y, x.sum(a, keepdims=True))
    assert rep.specialized_inputs == []


def test_a_reshape_to_a_run_time_shape_is_compiled_once():
    """The shape is read when the op runs (ge.dynamic_reshape): no value specialization."""
    m = _model([helper.make_node("Reshape", ["x", "shape"], ["y"])],
               [_vi("x", [2, 3]), _vi("shape", [2], onnx.TensorProto.INT64)], [_vi("y", None)])
    rep = onnx_backend.prepare(m)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for shape in ([3, 2], [1, 6], [-1, 2]):
        (y,) = rep.run([x, np.array(shape)])
        np.testing.assert_array_equal(y, x.reshape(shape))
    assert rep.specialized_inputs == []
