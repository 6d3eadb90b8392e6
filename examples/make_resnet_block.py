"""Writes examples/resnet_block.onnx: a small ResNet-style classifier built with onnx.helper.

    python examples/make_resnet_block.py [out.onnx]

Conv+BN+ReLU stem, one residual block with a strided 1x1 downsample branch,
max pool, global average pool and a Gemm head; seeded random weights, input
``image`` 1x3x32x32, output ``logits`` 1x10. Used by README's main command.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def build() -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    inits: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def const(name: str, shape: tuple[int, ...], scale: float = 0.2) -> str:
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def conv_bn(x: str, name: str, cin: int, cout: int, k: int, stride: int, relu: bool) -> str:
        w = const(f"{name}.w", (cout, cin, k, k), (2.0 / (cin * k * k)) ** 0.5)
        nodes.append(helper.make_node("Conv", [x, w], [f"{name}.conv"], pads=[k // 2] * 4, strides=[stride] * 2))
        scale = const(f"{name}.bn.scale", (cout,), 0.1)
        inits[-1] = numpy_helper.from_array(1.0 + numpy_helper.to_array(inits[-1]), scale)
        bias, mean = const(f"{name}.bn.bias", (cout,), 0.1), const(f"{name}.bn.mean", (cout,), 0.1)
        var = f"{name}.bn.var"
        inits.append(numpy_helper.from_array(rng.uniform(0.5, 1.5, cout).astype(np.float32), var))
        out = f"{name}.bn"
        nodes.append(helper.make_node("BatchNormalization", [f"{name}.conv", scale, bias, mean, var], [out]))
        if relu:
            nodes.append(helper.make_node("Relu", [out], [f"{name}.relu"]))
            out = f"{name}.relu"
        return out

    x = conv_bn("image", "stem", 3, 16, 3, 1, relu=True)
    nodes.append(helper.make_node("MaxPool", [x], ["pool"], kernel_shape=[2, 2], strides=[2, 2]))
    y = conv_bn("pool", "block.conv1", 16, 32, 3, 2, relu=True)
    y = conv_bn(y, "block.conv2", 32, 32, 3, 1, relu=False)
    skip = conv_bn("pool", "block.down", 16, 32, 1, 2, relu=False)
    nodes.append(helper.make_node("Add", [y, skip], ["block.sum"]))
    nodes.append(helper.make_node("Relu", ["block.sum"], ["block.out"]))
    nodes.append(helper.make_node("GlobalAveragePool", ["block.out"], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"]))
    fc_w, fc_b = const("fc.w", (10, 32)), const("fc.b", (10,))
    nodes.append(helper.make_node("Gemm", ["flat", fc_w, fc_b], ["logits"], transB=1))
    graph = helper.make_graph(
        nodes, "resnet_block",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="ge-mlir examples")
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("resnet_block.onnx"))
    onnx.save(build(), out)
    print(f"wrote {out}")
