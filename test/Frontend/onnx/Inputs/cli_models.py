"""Models for the ge-import-onnx command-line tests: python cli_models.py NAME OUT.onnx"""

import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def dynamic_relu():
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"], name="relu")], "dyn",
                     [h.make_tensor_value_info("x", T.FLOAT, ["batch", 3, "h", "w"])],
                     [h.make_tensor_value_info("y", T.FLOAT, ["batch", 3, "h", "w"])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def weights():
    w = nh.from_array(np.arange(1024, dtype=np.float32).reshape(32, 32), "fc.weight")
    g = h.make_graph([h.make_node("Add", ["x", "fc.weight"], ["y"], name="add_w")], "weights",
                     [h.make_tensor_value_info("x", T.FLOAT, [32, 32])], [h.make_tensor_value_info("y", T.FLOAT, [32, 32])], [w])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def unsupported():
    nodes = [h.make_node("Relu", ["x"], ["a"], name="ok"),
             h.make_node("NonMaxSuppressionV9", ["a"], ["b"], name="nms_a"),
             h.make_node("NonMaxSuppressionV9", ["a"], ["c"], name="nms_b"),
             h.make_node("Frobnicate", ["b", "c"], ["y"], name="frob")]
    g = h.make_graph(nodes, "bad", [h.make_tensor_value_info("x", T.FLOAT, [4])], [h.make_tensor_value_info("y", T.FLOAT, [4])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


if __name__ == "__main__":
    onnx.save(globals()[sys.argv[1]](), sys.argv[2])
