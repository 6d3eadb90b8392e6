"""TensorFlow front end through tf2onnx: a tf.function and a SavedModel."""

import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = pytest.importorskip("tensorflow", reason="TensorFlow not installed (pip install tensorflow-cpu tf2onnx)")
pytest.importorskip("tf2onnx", reason="tf2onnx not installed (pip install tf2onnx)")

import ge_mlir  # noqa: E402
from ge_mlir.frontend.tensorflow import (  # noqa: E402
    TensorFlowImportError,
    import_function,
    import_saved_model,
)

W = np.random.default_rng(0).standard_normal((3, 3, 3, 4)).astype(np.float32)
SPEC = [tf.TensorSpec([1, 8, 8, 3], tf.float32, name="image")]


@tf.function(input_signature=SPEC)
def conv_block(image):
    y = tf.nn.relu(tf.nn.conv2d(image, W, 1, "SAME"))
    return tf.reduce_mean(y, axis=[1, 2])


def _ops(module):
    return {op.operation.name for fn in module.body.operations for op in fn.regions[0].blocks[0].operations}


def test_tf_function(ctx):
    module = import_function(conv_block, SPEC)
    ge_mlir.verify(module)
    ops = _ops(module)
    assert "ge.conv2d" in ops and "ge.relu" in ops
    assert "tensor<1x4xf32>" in str(module)


def test_saved_model(ctx, tmp_path):
    class Model(tf.Module):
        def __init__(self):
            self.w = tf.Variable(np.random.default_rng(1).standard_normal((6, 3)).astype(np.float32))

        @tf.function(input_signature=[tf.TensorSpec([2, 6], tf.float32, name="x")])
        def __call__(self, x):
            return {"y": tf.nn.softmax(tf.matmul(x, self.w))}

    m = Model()
    tf.saved_model.save(m, str(tmp_path / "sm"), signatures=m.__call__)
    module = import_saved_model(str(tmp_path / "sm"))
    ge_mlir.verify(module)
    ops = _ops(module)
    assert "ge.matmul" in ops and "ge.softmax" in ops
    assert "tensor<2x3xf32>" in str(module)


def test_missing_signature(ctx, tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def __call__(self, x):
            return x * 2.0

    m = M()
    tf.saved_model.save(m, str(tmp_path / "sm"), signatures=m.__call__)
    with pytest.raises(TensorFlowImportError, match="no signature 'nope'"):
        import_saved_model(str(tmp_path / "sm"), signature="nope")
