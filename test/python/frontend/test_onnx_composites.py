"""ONNX ops built from several ge ops, against onnxruntime: Det (the Leibniz sum, f32: rtol 1e-4 --
onnxruntime factorizes, the sum of products rounds differently) and ConvInteger (exact)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as T
from onnx import helper

import ge_mlir

ort = pytest.importorskip("onnxruntime")
RNG = np.random.default_rng(5)


def _check(model, feeds, exact: bool) -> None:
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got, want = compiled(**feeds)[0], sess.run(None, feeds)[0]
    assert got.shape == want.shape and got.dtype == want.dtype
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [[2, 2], [3, 3], [2, 3, 4, 4]])
def test_det(shape):
    model = helper.make_model(helper.make_graph(
        [helper.make_node("Det", ["x"], ["y"])], "det", [helper.make_tensor_value_info("x", T.FLOAT, shape)],
        [helper.make_tensor_value_info("y", T.FLOAT, None)]), opset_imports=[helper.make_opsetid("", 13)])
    _check(model, {"x": RNG.standard_normal(shape).astype(np.float32)}, exact=False)


def test_conv_integer_zero_points():
    """Per-tensor zero points (onnxruntime refuses per-channel ones; the node suite checks those
    against the ONNX reference)."""
    x = RNG.integers(0, 256, (1, 2, 5, 5)).astype(np.uint8)
    w = RNG.integers(0, 256, (3, 2, 3, 3)).astype(np.uint8)
    model = helper.make_model(helper.make_graph(
        [helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[1, 1, 1, 1], strides=[2, 1])],
        "ci", [helper.make_tensor_value_info("x", T.UINT8, x.shape), helper.make_tensor_value_info("w", T.UINT8, w.shape),
               helper.make_tensor_value_info("xz", T.UINT8, []), helper.make_tensor_value_info("wz", T.UINT8, [])],
        [helper.make_tensor_value_info("y", T.INT32, None)]), opset_imports=[helper.make_opsetid("", 10)])
    _check(model, {"x": x, "w": w, "xz": np.array(17, np.uint8), "wz": np.array(200, np.uint8)},
           exact=True)
