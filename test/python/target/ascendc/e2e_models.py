"""ONNX models of the Ascend C end-to-end tests (built with onnx.helper, seeded).

* ``mlp``: Gemm 512 -> 1024, ReLU, Gemm 1024 -> 512 (batch 4), fp32 or fp16;
* ``conv_bn_relu``: Conv 3 -> 8 (3x3, pad 1) + BatchNormalization + ReLU on 1x3x16x16;
* ``residual_block``: ResNet basic block on 2x8x8x8 (conv-bn-relu-conv-bn + x, relu);
* ``attention``: one self-attention block (S=16, D=64, 4 heads) with softmax,
  output projection, residual add and LayerNormalization.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _model(nodes, inputs, outputs, inits, name, elem=TensorProto.FLOAT):
    g = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info(n, elem, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, elem, s) for n, s in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits.items()],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _bn(rng, p: str, c: int) -> dict[str, np.ndarray]:
    return {f"{p}s": rng.uniform(0.5, 2, c), f"{p}b": rng.standard_normal(c),
            f"{p}m": rng.standard_normal(c), f"{p}v": rng.uniform(0.5, 2, c)}


def mlp(dtype=np.float32) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    inits = {"W1": rng.standard_normal((1024, 512)) * 0.05, "B1": rng.standard_normal(1024),
             "W2": rng.standard_normal((512, 1024)) * 0.05, "B2": rng.standard_normal(512)}
    inits = {k: v.astype(dtype) for k, v in inits.items()}
    elem = TensorProto.FLOAT16 if dtype == np.float16 else TensorProto.FLOAT
    nodes = [helper.make_node("Gemm", ["x", "W1", "B1"], ["h"], transB=1), helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("Gemm", ["r", "W2", "B2"], ["y"], transB=1)]
    return _model(nodes, [("x", [4, 512])], [("y", [4, 512])], inits, "mlp", elem)


def conv_bn_relu() -> onnx.ModelProto:
    rng = np.random.default_rng(1)
    inits = {"W": rng.standard_normal((8, 3, 3, 3)) * 0.3, "B": rng.standard_normal(8), **_bn(rng, "n", 8)}
    inits = {k: v.astype(np.float32) for k, v in inits.items()}
    nodes = [helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "ns", "nb", "nm", "nv"], ["b"]),
             helper.make_node("Relu", ["b"], ["y"])]
    return _model(nodes, [("x", [1, 3, 16, 16])], [("y", [1, 8, 16, 16])], inits, "conv_bn_relu")


def residual_block() -> onnx.ModelProto:
    rng = np.random.default_rng(2)
    inits = {"W1": rng.standard_normal((8, 8, 3, 3)) * 0.2, "W2": rng.standard_normal((8, 8, 3, 3)) * 0.2,
             **_bn(rng, "a", 8), **_bn(rng, "b", 8)}
    inits = {k: v.astype(np.float32) for k, v in inits.items()}
    nodes = [helper.make_node("Conv", ["x", "W1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c1", "as", "ab", "am", "av"], ["b1"]),
             helper.make_node("Relu", ["b1"], ["r1"]),
             helper.make_node("Conv", ["r1", "W2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c2", "bs", "bb", "bm", "bv"], ["b2"]),
             helper.make_node("Add", ["b2", "x"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    return _model(nodes, [("x", [2, 8, 8, 8])], [("y", [2, 8, 8, 8])], inits, "residual_block")


def attention(seq: int = 16, dim: int = 64, heads: int = 4) -> onnx.ModelProto:
    rng = np.random.default_rng(3)
    dh = dim // heads
    inits: dict[str, np.ndarray] = {}
    for n in "qkvo":
        inits[f"W{n}"] = (rng.standard_normal((dim, dim)) * 0.1).astype(np.float32)
        inits[f"B{n}"] = (rng.standard_normal(dim) * 0.1).astype(np.float32)
    inits.update({"g": rng.uniform(0.5, 1.5, dim).astype(np.float32),
                  "beta": (rng.standard_normal(dim) * 0.1).astype(np.float32),
                  "scale": np.array(1 / np.sqrt(dh), np.float32),
                  "shape4": np.array([1, seq, heads, dh], np.int64), "shape3": np.array([1, seq, dim], np.int64)})
    nodes = []
    for n in "qkv":
        nodes += [helper.make_node("MatMul", ["x", f"W{n}"], [f"{n}0"]),
                  helper.make_node("Add", [f"{n}0", f"B{n}"], [f"{n}1"]),
                  helper.make_node("Reshape", [f"{n}1", "shape4"], [f"{n}2"])]
    nodes += [helper.make_node("Transpose", ["q2"], ["q3"], perm=[0, 2, 1, 3]),
              helper.make_node("Transpose", ["k2"], ["k3"], perm=[0, 2, 3, 1]),
              helper.make_node("Transpose", ["v2"], ["v3"], perm=[0, 2, 1, 3]),
              helper.make_node("MatMul", ["q3", "k3"], ["s0"]), helper.make_node("Mul", ["s0", "scale"], ["s1"]),
              helper.make_node("Softmax", ["s1"], ["p"], axis=-1), helper.make_node("MatMul", ["p", "v3"], ["o0"]),
              helper.make_node("Transpose", ["o0"], ["o1"], perm=[0, 2, 1, 3]),
              helper.make_node("Reshape", ["o1", "shape3"], ["o2"]),
              helper.make_node("MatMul", ["o2", "Wo"], ["o3"]), helper.make_node("Add", ["o3", "Bo"], ["o4"]),
              helper.make_node("Add", ["o4", "x"], ["r"]),
              helper.make_node("LayerNormalization", ["r", "g", "beta"], ["y"], axis=-1, epsilon=1e-5)]
    return _model(nodes, [("x", [1, seq, dim])], [("y", [1, seq, dim])], inits, "attention")


def cnn_head() -> onnx.ModelProto:
    """Conv + ReLU, MaxPool 2x2, GlobalAveragePool, Flatten, Gemm: pools and a classifier."""
    rng = np.random.default_rng(4)
    inits = {"W": (rng.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32),
             "B": rng.standard_normal(16).astype(np.float32),
             "G": (rng.standard_normal((10, 16)) * 0.3).astype(np.float32),
             "GB": rng.standard_normal(10).astype(np.float32)}
    nodes = [helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("AveragePool", ["p"], ["a"], kernel_shape=[2, 2], strides=[1, 1]),
             helper.make_node("GlobalAveragePool", ["a"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "G", "GB"], ["y"], transB=1)]
    return _model(nodes, [("x", [2, 8, 8, 8])], [("y", [2, 10])], inits, "cnn_head")


def reduce_cast() -> onnx.ModelProto:
    """ReduceMean over the last axis and ReduceMax over a middle axis, through an f16 round trip."""
    nodes = [helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
             helper.make_node("Cast", ["h"], ["x2"], to=TensorProto.FLOAT),
             helper.make_node("ReduceMean", ["x2"], ["m"], axes=[-1], keepdims=0),
             helper.make_node("ReduceMax", ["m"], ["y"], axes=[1], keepdims=1)]
    return _model(nodes, [("x", [3, 5, 40])], [("y", [3, 1])], {}, "reduce_cast")


def transformer_ops() -> onnx.ModelProto:
    """What transformer exports need beyond matmuls: an embedding Gather of int64 ids, Split + Concat
    (rotate-half), Slice, Tile, tanh GELU, a causal mask by Where, an int64 -> float Cast, and an
    attention-mask Add whose [S, S] rows are too long for the unified buffer (periodic operand).
    Inputs: ids [2, 6] int64, scores [1, 2, 128, 128]; outputs: p [2, 6, 6], g [2, 4, 16],
    t [2, 8, 16], f [2, 6], m [1, 2, 128, 128]."""
    rng = np.random.default_rng(5)
    causal = np.triu(np.ones((6, 6), bool), 1)
    inits = {"E": rng.standard_normal((50, 16)).astype(np.float32), "causal": causal,
             "neg": np.array(-1e9, np.float32), "half": np.array(0.5, np.float32),
             "starts": np.array([1], np.int64), "ends": np.array([5], np.int64), "axes": np.array([1], np.int64),
             "sizes": np.array([8, 8], np.int64), "reps": np.array([1, 2, 1], np.int64),
             "mask": np.where(np.triu(np.ones((128, 128), bool), 1), -1e4, 0).astype(np.float32)}
    nodes = [helper.make_node("Gather", ["E", "ids"], ["emb"], axis=0),
             helper.make_node("Split", ["emb", "sizes"], ["a", "b"], axis=2),
             helper.make_node("Concat", ["b", "a"], ["r"], axis=2),
             helper.make_node("Transpose", ["emb"], ["et"], perm=[0, 2, 1]),
             helper.make_node("MatMul", ["r", "et"], ["s"]),
             helper.make_node("Where", ["causal", "neg", "s"], ["sm"]),
             helper.make_node("Softmax", ["sm"], ["p"], axis=-1),
             helper.make_node("Slice", ["emb", "starts", "ends", "axes"], ["sl"]),
             helper.make_node("Gelu", ["sl"], ["g"], approximate="tanh"),
             helper.make_node("Tile", ["sl", "reps"], ["t"]),
             helper.make_node("Cast", ["ids"], ["fi"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["fi", "half"], ["f"]),
             helper.make_node("Add", ["scores", "mask"], ["m"])]
    g = helper.make_graph(
        nodes, "transformer_ops",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [2, 6]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 2, 128, 128])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, [2, 6, 6]),
         helper.make_tensor_value_info("g", TensorProto.FLOAT, [2, 4, 16]),
         helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 8, 16]),
         helper.make_tensor_value_info("f", TensorProto.FLOAT, [2, 6]),
         helper.make_tensor_value_info("m", TensorProto.FLOAT, [1, 2, 128, 128])],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 20)])


def cnn_ops() -> onnx.ModelProto:
    """A 3x128x128 image (larger than the unified buffer: banded im2col and pooling, tiled layout
    transposes), a stride-2 conv, a 3x3/2 max pool, a depthwise conv with ReLU6, a 2x2/2
    transposed conv with bias, and a per-channel scale and shift of the NCHW image (rows of
    128x128 too long for whole-row tiles). Input [1, 3, 128, 128]; outputs [1, 8, 32, 32],
    [1, 8, 64, 64] and [1, 3, 128, 128]."""
    rng = np.random.default_rng(6)
    inits = {"W": (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32),
             "B": rng.standard_normal(8).astype(np.float32),
             "D": (rng.standard_normal((8, 1, 3, 3)) * 0.3).astype(np.float32),
             "DB": rng.standard_normal(8).astype(np.float32),
             "T": (rng.standard_normal((8, 8, 2, 2)) * 0.3).astype(np.float32),
             "TB": rng.standard_normal(8).astype(np.float32),
             "lo": np.array(0, np.float32), "hi": np.array(6, np.float32),
             "S": rng.uniform(0.5, 2, (1, 3, 1, 1)).astype(np.float32),
             "M": rng.standard_normal((1, 3, 1, 1)).astype(np.float32)}
    nodes = [helper.make_node("Mul", ["x", "S"], ["xs"]), helper.make_node("Add", ["xs", "M"], ["xn"]),
             helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("MaxPool", ["c"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("Conv", ["p", "D", "DB"], ["d"], pads=[1, 1, 1, 1], group=8),
             helper.make_node("Clip", ["d", "lo", "hi"], ["y"]),
             helper.make_node("ConvTranspose", ["y", "T", "TB"], ["u"], kernel_shape=[2, 2], strides=[2, 2])]
    return _model(nodes, [("x", [1, 3, 128, 128])], [("y", [1, 8, 32, 32]), ("u", [1, 8, 64, 64]),
                                                    ("xn", [1, 3, 128, 128])], inits, "cnn_ops")


def long_rows() -> onnx.ModelProto:
    """Rows longer than the unified buffer (160 KiB planned = 40960 f32): a softmax over 50000
    logits, a LayerNormalization over 45000 features, a ReduceSum over 60000 elements and a ReduceMax
    over the middle axis of [2, 3, 45000] (columns in chunks)."""
    rng = np.random.default_rng(7)
    inits = {"g": rng.uniform(0.5, 1.5, 45000).astype(np.float32),
             "b": rng.standard_normal(45000).astype(np.float32)}
    nodes = [helper.make_node("Softmax", ["s"], ["p"], axis=-1),
             helper.make_node("LayerNormalization", ["l", "g", "b"], ["n"], axis=-1, epsilon=1e-5),
             helper.make_node("ReduceSum", ["r", "ax"], ["rs"], keepdims=0),
             helper.make_node("ReduceMax", ["c"], ["cm"], axes=[1], keepdims=0)]
    inits["ax"] = np.array([-1], np.int64)
    g = helper.make_graph(
        nodes, "long_rows",
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, [2, 50000]),
         helper.make_tensor_value_info("l", TensorProto.FLOAT, [2, 45000]),
         helper.make_tensor_value_info("r", TensorProto.FLOAT, [3, 60000]),
         helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 3, 45000])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, [2, 50000]),
         helper.make_tensor_value_info("n", TensorProto.FLOAT, [2, 45000]),
         helper.make_tensor_value_info("rs", TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info("cm", TensorProto.FLOAT, [2, 45000])],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def resize_pad() -> onnx.ModelProto:
    """Resize nearest (x2, asymmetric/floor), linear (half_pixel, to 8x11) and cubic (align_corners,
    to 9x6) of x [1, 2, 5, 7], and a constant Pad of x with a cropped axis."""
    empty = np.array([], np.float32)
    inits = {"roi": empty, "s2": np.array([1, 1, 2, 2], np.float32), "none": empty,
             "lin": np.array([1, 2, 8, 11], np.int64), "cub": np.array([1, 2, 9, 6], np.int64),
             "pads": np.array([0, 1, 2, -1, 0, 0, 1, 3], np.int64), "val": np.array(-2.5, np.float32)}
    nodes = [helper.make_node("Resize", ["x", "roi", "s2"], ["near"], mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             helper.make_node("Resize", ["x", "roi", "none", "lin"], ["lin_y"], mode="linear",
                              coordinate_transformation_mode="half_pixel"),
             helper.make_node("Resize", ["x", "roi", "none", "cub"], ["cub_y"], mode="cubic",
                              coordinate_transformation_mode="align_corners"),
             helper.make_node("Pad", ["x", "pads", "val"], ["pad_y"], mode="constant")]
    return _model(nodes, [("x", [1, 2, 5, 7])], [("near", [1, 2, 10, 14]), ("lin_y", [1, 2, 8, 11]),
                                                 ("cub_y", [1, 2, 9, 6]), ("pad_y", [1, 3, 8, 9])], inits,
                  "resize_pad")
