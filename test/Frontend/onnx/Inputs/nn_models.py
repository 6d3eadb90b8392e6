"""Small ONNX models exercising the neural-network converters: one registry for the
families ge_mlir/frontend/onnx/ops/{conv,pool,normalization,linear_algebra,softmax,resize,
grid_sample,recurrent,dft}.py, whose lit tests (../<family>.mlir) build their models here.

    python nn_models.py NAME OUT.onnx     # writes model NAME
    python nn_models.py --list            # prints the model names

Every model is one or two nodes built with onnx.helper: static input shapes,
weights drawn from numpy's generator seeded with 0, and the opset given in its
``@model`` line. Graph outputs carry only an element type; the importer takes
their shapes from ONNX shape inference. Models whose name ends in a refusal
reason (``bn_train``, ``maxpool_indices``, ...) are expected to be refused.
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper as h
from onnx import numpy_helper as nh

F32, F16, I8, I32, I64 = TP.FLOAT, TP.FLOAT16, TP.INT8, TP.INT32, TP.INT64

#: name -> (opset, builder(rng) -> (nodes, inputs, outputs, initializers))
MODELS: dict[str, tuple[int, Callable]] = {}


def model(name: str, opset: int):
    def register(fn):
        assert name not in MODELS, name
        MODELS[name] = (opset, fn)
        return fn

    return register


def build(name: str) -> onnx.ModelProto:
    opset, fn = MODELS[name]
    rng = np.random.default_rng(0)
    nodes, inputs, outputs, inits = fn(rng)
    graph = h.make_graph(
        nodes,
        name,
        [h.make_tensor_value_info(n, t, s) for n, (t, s) in inputs.items()],
        [h.make_tensor_value_info(n, t, None) for n, t in outputs.items()],
        initializer=[nh.from_array(np.asarray(v), k) for k, v in (inits or {}).items()],
    )
    ops = [h.make_opsetid("", opset)]
    m = h.make_model(graph, opset_imports=ops, producer_name="nn_models")
    m.ir_version = h.find_min_ir_version_for(ops)
    return m


def N(op: str, ins: list[str], outs: list[str], **attrs) -> onnx.NodeProto:
    return h.make_node(op, ins, outs, name=f"{op.lower()}0", **attrs)


def w32(rng, *shape) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def one(op: str, x_shape, out_t=F32, x_t=F32, inits=None, extra_inputs=(), **attrs):
    """A single node op(x, *extra_inputs) -> y."""
    return [N(op, ["x", *extra_inputs], ["y"], **attrs)], {"x": (x_t, x_shape)}, {"y": out_t}, inits or {}


# --- Conv -----------------------------------------------------------------------


@model("conv_bias", 11)
def _(rng):
    return one("Conv", [1, 3, 8, 8], inits={"w": w32(rng, 4, 3, 3, 3), "b": w32(rng, 4)},
               extra_inputs=["w", "b"], strides=[2, 2], pads=[1, 1, 1, 1])


@model("conv_group_dilation", 22)
def _(rng):
    return one("Conv", [2, 4, 9, 9], inits={"w": w32(rng, 6, 2, 3, 3)}, extra_inputs=["w"],
               group=2, dilations=[2, 2], pads=[0, 1, 2, 1], kernel_shape=[3, 3])


@model("conv_same_upper", 13)
def _(rng):
    return one("Conv", [1, 2, 7, 8], inits={"w": w32(rng, 3, 2, 3, 3)}, extra_inputs=["w"],
               auto_pad="SAME_UPPER", strides=[2, 2])


@model("conv_same_lower", 11)
def _(rng):
    return one("Conv", [1, 2, 6, 6], inits={"w": w32(rng, 2, 2, 4, 4)}, extra_inputs=["w"], auto_pad="SAME_LOWER")


@model("conv_valid", 17)
def _(rng):
    return one("Conv", [1, 2, 6, 5], inits={"w": w32(rng, 2, 2, 3, 2)}, extra_inputs=["w"], auto_pad="VALID")


@model("conv_weight_input", 9)
def _(rng):
    # Opset 9 (semantics unchanged since Conv-1); the weight is a graph input.
    return ([N("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
            {"x": (F32, [1, 2, 5, 5]), "w": (F32, [3, 2, 3, 3])}, {"y": F32}, {})


@model("conv1d", 18)
def _(rng):
    return one("Conv", [1, 2, 10], inits={"w": w32(rng, 3, 2, 3), "b": w32(rng, 3)}, extra_inputs=["w", "b"],
               strides=[2], pads=[1, 0])


@model("conv1d_same_upper", 11)
def _(rng):
    return one("Conv", [1, 2, 9], inits={"w": w32(rng, 4, 1, 4)}, extra_inputs=["w"],
               auto_pad="SAME_UPPER", group=2, strides=[2])


@model("conv3d", 11)
def _(rng):
    return one("Conv", [1, 2, 4, 4, 4], inits={"w": w32(rng, 2, 2, 3, 3, 3)}, extra_inputs=["w"])


@model("conv_same_dynamic", 11)
def _(rng):
    return ([N("Conv", ["x", "w"], ["y"], auto_pad="SAME_UPPER")],
            {"x": (F32, [1, 2, "H", "W"])}, {"y": F32}, {"w": w32(rng, 2, 2, 3, 3)})


# --- ConvTranspose ------------------------------------------------------------------


@model("convtranspose_pads", 11)
def _(rng):
    return one("ConvTranspose", [1, 3, 5, 5], inits={"w": w32(rng, 3, 2, 3, 3), "b": w32(rng, 2)},
               extra_inputs=["w", "b"], strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1])


@model("convtranspose_output_shape", 22)
def _(rng):
    return one("ConvTranspose", [1, 2, 4, 5], inits={"w": w32(rng, 2, 3, 3, 3)}, extra_inputs=["w"],
               strides=[2, 2], output_shape=[8, 9])


@model("convtranspose_output_shape_larger", 11)
def _(rng):
    return one("ConvTranspose", [1, 2, 3, 3], inits={"w": w32(rng, 2, 2, 2, 2)}, extra_inputs=["w"],
               strides=[2, 2], output_shape=[7, 8])


@model("convtranspose_same_upper", 13)
def _(rng):
    return one("ConvTranspose", [1, 2, 3, 4], inits={"w": w32(rng, 2, 2, 3, 3)}, extra_inputs=["w"],
               strides=[2, 2], auto_pad="SAME_UPPER")


@model("convtranspose1d_group", 17)
def _(rng):
    return one("ConvTranspose", [1, 4, 6], inits={"w": w32(rng, 4, 3, 3), "b": w32(rng, 6)},
               extra_inputs=["w", "b"], group=2, strides=[3], dilations=[2], pads=[1, 2])


@model("convtranspose3d", 11)
def _(rng):
    return one("ConvTranspose", [1, 2, 3, 3, 3], inits={"w": w32(rng, 2, 2, 2, 2, 2)}, extra_inputs=["w"])


# --- MaxPool / AveragePool / global pools ----------------------------------------------


@model("maxpool_2d", 12)
def _(rng):
    return one("MaxPool", [1, 3, 9, 9], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])


@model("maxpool_ceil_dilation", 11)
def _(rng):
    return one("MaxPool", [1, 2, 10, 10], kernel_shape=[2, 2], strides=[3, 3], dilations=[2, 2], ceil_mode=1)


@model("maxpool_ceil_pad_end", 11)
def _(rng):
    # ceil_mode: the window that would start in the end padding is dropped (2x2, not 3x3).
    return one("MaxPool", [1, 1, 4, 4], kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 1, 1], ceil_mode=1)


@model("maxpool_valid_ceil", 11)
def _(rng):
    # The ONNX spec says 1x3, onnxruntime 2x4: refused.
    return one("MaxPool", [1, 1, 3, 7], kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID", ceil_mode=1)


@model("maxpool_same_upper", 10)
def _(rng):
    return one("MaxPool", [1, 2, 7, 7], kernel_shape=[2, 3], strides=[2, 2], auto_pad="SAME_UPPER")


@model("maxpool_1d", 22)
def _(rng):
    return one("MaxPool", [2, 3, 11], kernel_shape=[3], strides=[2], pads=[1, 1])


@model("maxpool_int8", 12)
def _(rng):
    return one("MaxPool", [1, 2, 6, 6], out_t=I8, x_t=I8, kernel_shape=[2, 2], strides=[2, 2], storage_order=1)


@model("maxpool_indices_unused", 12)
def _(rng):
    # Indices has a name but nothing reads it.
    return ([N("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 2])], {"x": (F32, [1, 2, 4, 4])}, {"y": F32}, {})


@model("maxpool_indices", 12)
def _(rng):
    return ([N("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 2])],
            {"x": (F32, [1, 2, 4, 4])}, {"y": F32, "idx": I64}, {})


@model("maxpool_indices_consumed", 12)
def _(rng):
    # Indices feeds another node (not a graph output): still refused.
    return ([N("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 2]), N("Cast", ["idx"], ["idx32"], to=I32)],
            {"x": (F32, [1, 2, 4, 4])}, {"y": F32, "idx32": I32}, {})


@model("maxpool3d", 12)
def _(rng):
    return one("MaxPool", [1, 2, 4, 4, 4], kernel_shape=[2, 2, 2])


@model("avgpool_count_include_pad", 11)
def _(rng):
    return one("AveragePool", [1, 3, 8, 8], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
               count_include_pad=1)


@model("avgpool_ceil_dilation", 19)
def _(rng):
    return one("AveragePool", [1, 2, 9, 10], kernel_shape=[2, 3], strides=[2, 2], dilations=[1, 2], ceil_mode=1)


@model("avgpool_same_upper_ceil", 19)
def _(rng):
    return one("AveragePool", [1, 1, 5, 6], kernel_shape=[3, 2], strides=[2, 3], auto_pad="SAME_UPPER", ceil_mode=1)


@model("avgpool_1d_same_lower", 22)
def _(rng):
    return one("AveragePool", [1, 2, 8], kernel_shape=[4], strides=[3], auto_pad="SAME_LOWER")


@model("avgpool_opset7", 7)
def _(rng):
    return one("AveragePool", [1, 1, 5, 5], kernel_shape=[2, 2], pads=[0, 0, 1, 1])


@model("globalavgpool", 11)
def _(rng):
    return one("GlobalAveragePool", [2, 3, 5, 7])


@model("globalmaxpool_1d", 22)
def _(rng):
    return one("GlobalMaxPool", [2, 3, 5])


# --- normalizations ------------------------------------------------------------------


def _bn_inits(rng, c, dtype=np.float32, stat_dtype=np.float32):
    return {"s": w32(rng, c).astype(dtype), "b": w32(rng, c).astype(dtype),
            "m": w32(rng, c).astype(stat_dtype), "v": (np.abs(w32(rng, c)) + 0.5).astype(stat_dtype)}


@model("bn", 15)
def _(rng):
    return one("BatchNormalization", [2, 3, 4, 4], inits=_bn_inits(rng, 3), extra_inputs=["s", "b", "m", "v"],
               epsilon=1e-3)


@model("bn_mixed_types", 15)
def _(rng):
    # X and Y in f16, scale/bias (T1) and mean/var (T2) in f32.
    return one("BatchNormalization", [1, 2, 3, 3], out_t=F16, x_t=F16, inits=_bn_inits(rng, 2),
               extra_inputs=["s", "b", "m", "v"])


@model("bn_opset9_2d", 9)
def _(rng):
    return one("BatchNormalization", [4, 3], inits=_bn_inits(rng, 3), extra_inputs=["s", "b", "m", "v"])


@model("bn_train", 15)
def _(rng):
    # Training mode; the running statistics outputs exist but nothing reads them.
    return ([N("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "rm", "rv"], training_mode=1)],
            {"x": (F32, [2, 3, 4, 4])}, {"y": F32}, _bn_inits(rng, 3))


@model("bn_stats_used", 9)
def _(rng):
    # Opset 9 has no training_mode: using the statistics outputs means training.
    return ([N("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "mean", "var", "smean", "svar"])],
            {"x": (F32, [2, 3, 4, 4])}, {"y": F32, "mean": F32}, _bn_inits(rng, 3))


@model("bn_opset7_spatial0", 7)
def _(rng):
    # spatial=0: statistics per activation ([C, H, W]), not per channel.
    return one("BatchNormalization", [2, 3, 2, 2], extra_inputs=["s", "b", "m", "v"], spatial=0,
               inits={"s": w32(rng, 3, 2, 2), "b": w32(rng, 3, 2, 2), "m": w32(rng, 3, 2, 2),
                      "v": np.abs(w32(rng, 3, 2, 2)) + 0.5})


@model("instnorm", 11)
def _(rng):
    return one("InstanceNormalization", [2, 3, 4, 5], inits={"s": w32(rng, 3), "b": w32(rng, 3)},
               extra_inputs=["s", "b"], epsilon=1e-4)


@model("instnorm_1d", 22)
def _(rng):
    return one("InstanceNormalization", [2, 3, 6], inits={"s": w32(rng, 3), "b": w32(rng, 3)},
               extra_inputs=["s", "b"])


@model("layernorm", 17)
def _(rng):
    return one("LayerNormalization", [2, 5, 8], inits={"s": w32(rng, 8), "b": w32(rng, 8)},
               extra_inputs=["s", "b"], epsilon=1e-6)


@model("layernorm_axis1_nobias", 17)
def _(rng):
    return one("LayerNormalization", [2, 3, 4], inits={"s": w32(rng, 3, 4)}, extra_inputs=["s"], axis=1)


@model("layernorm_f16", 17)
def _(rng):
    # stash_type=1 (the default): the normalization runs in f32.
    return one("LayerNormalization", [2, 8], out_t=F16, x_t=F16,
               inits={"s": w32(rng, 8).astype(np.float16), "b": w32(rng, 8).astype(np.float16)},
               extra_inputs=["s", "b"])


@model("layernorm_mean_used", 17)
def _(rng):
    return ([N("LayerNormalization", ["x", "s"], ["y", "mean"])],
            {"x": (F32, [2, 8])}, {"y": F32, "mean": F32}, {"s": w32(rng, 8)})


@model("layernorm_scale_per_row", 17)
def _(rng):
    # Scale [2, 1, 4] varies over the batch dim, outside the normalized axes.
    return one("LayerNormalization", [2, 3, 4], inits={"s": w32(rng, 2, 1, 4)}, extra_inputs=["s"])


@model("groupnorm18", 18)
def _(rng):
    # Opset 18 (deprecated form): one scale/bias value per group.
    return one("GroupNormalization", [2, 6, 3, 3], inits={"s": w32(rng, 3), "b": w32(rng, 3)},
               extra_inputs=["s", "b"], num_groups=3)


@model("groupnorm21", 21)
def _(rng):
    return one("GroupNormalization", [2, 6, 4], inits={"s": w32(rng, 6), "b": w32(rng, 6)},
               extra_inputs=["s", "b"], num_groups=2, epsilon=1e-3)


@model("groupnorm_dynamic_channels", 21)
def _(rng):
    return ([N("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
            {"x": (F32, [2, "C", 4]), "s": (F32, ["C"]), "b": (F32, ["C"])}, {"y": F32}, {})


@model("lpnorm_l2", 11)
def _(rng):
    return one("LpNormalization", [2, 3, 4], axis=1)


@model("lpnorm_l1", 22)
def _(rng):
    return one("LpNormalization", [3, 5], p=1)


@model("lpnorm_p3", 13)
def _(rng):
    return one("LpNormalization", [3, 5], p=3)


@model("mvn", 13)
def _(rng):
    return one("MeanVarianceNormalization", [2, 3, 4, 4])


@model("mvn_axes", 9)
def _(rng):
    return one("MeanVarianceNormalization", [2, 3, 4], axes=[1, 2])


@model("rmsnorm", 23)
def _(rng):
    return one("RMSNormalization", [2, 4, 8], inits={"s": w32(rng, 8)}, extra_inputs=["s"], epsilon=1e-6)


@model("rmsnorm_axis1", 23)
def _(rng):
    return one("RMSNormalization", [2, 3, 4], inits={"s": w32(rng, 3, 4)}, extra_inputs=["s"], axis=1)


# --- contractions --------------------------------------------------------------------


@model("matmul_2d", 13)
def _(rng):
    return one("MatMul", [3, 4], inits={"w": w32(rng, 4, 5)}, extra_inputs=["w"])


@model("matmul_broadcast", 13)
def _(rng):
    return ([N("MatMul", ["a", "b"], ["y"])], {"a": (F32, [2, 1, 3, 4]), "b": (F32, [5, 4, 6])}, {"y": F32}, {})


@model("matmul_vector", 9)
def _(rng):
    return ([N("MatMul", ["a", "b"], ["y"])], {"a": (F32, [4]), "b": (F32, [2, 4, 3])}, {"y": F32}, {})


@model("matmul_int32", 13)
def _(rng):
    return ([N("MatMul", ["a", "b"], ["y"])], {"a": (I32, [2, 3]), "b": (I32, [3, 2])}, {"y": I32}, {})


@model("gemm_bias", 13)
def _(rng):
    return one("Gemm", [3, 4], inits={"w": w32(rng, 5, 4), "c": w32(rng, 5)}, extra_inputs=["w", "c"],
               transB=1, alpha=0.5, beta=2.0)


@model("gemm_no_c", 11)
def _(rng):
    return ([N("Gemm", ["a", "b"], ["y"], transA=1)], {"a": (F32, [4, 3]), "b": (F32, [4, 2])}, {"y": F32}, {})


@model("gemm_opset9", 9)
def _(rng):
    return one("Gemm", [2, 3], inits={"w": w32(rng, 3, 4), "c": w32(rng, 2, 4)}, extra_inputs=["w", "c"])


@model("matmulinteger", 10)
def _(rng):
    return ([N("MatMulInteger", ["a", "b"], ["y"])],
            {"a": (TP.UINT8, [2, 3]), "b": (TP.UINT8, [3, 2])}, {"y": I32}, {})


def _einsum(eq, *shapes):
    names = "abcd"[: len(shapes)]
    return ([N("Einsum", list(names), ["y"], equation=eq)],
            {n: (F32, list(s)) for n, s in zip(names, shapes)}, {"y": F32}, {})


@model("einsum_bmm", 12)
def _(rng):
    return _einsum("bij,bjk->bik", [2, 3, 4], [2, 4, 5])


@model("einsum_attention", 12)
def _(rng):
    return _einsum("bhqd,bhkd->bhqk", [2, 3, 4, 8], [2, 3, 5, 8])


@model("einsum_mm", 12)
def _(rng):
    return _einsum("ij,jk->ik", [3, 4], [4, 5])


@model("einsum_dot", 12)
def _(rng):
    return _einsum("bi,bi->b", [3, 4], [3, 4])


@model("einsum_outer_transposed", 12)
def _(rng):
    return _einsum("i,j->ji", [3], [4])


@model("einsum_ellipsis", 12)
def _(rng):
    return _einsum("...ij,...jk->...ik", [2, 3, 4, 5], [2, 3, 5, 6])


@model("einsum_implicit", 12)
def _(rng):
    return _einsum("kj,ji", [3, 4], [4, 5])


@model("einsum_transpose_sum", 12)
def _(rng):
    return _einsum("bij->jb", [2, 3, 4])


@model("einsum_multi_contract", 12)
def _(rng):
    return _einsum("bhd,hdk->bk", [2, 3, 4], [3, 4, 5])


@model("einsum_diagonal", 12)
def _(rng):
    return _einsum("ii->i", [3, 3])


@model("einsum_batch_broadcast", 12)
def _(rng):
    return _einsum("bhij,bhjk->bhik", [1, 3, 2, 4], [2, 1, 4, 5])


@model("einsum_contract_broadcast", 12)
def _(rng):
    return _einsum("ij,jk->ik", [2, 1], [3, 4])


@model("einsum_three_operands", 12)
def _(rng):
    return _einsum("ij,jk,kl->il", [2, 3], [3, 4], [4, 5])


# --- softmax family -------------------------------------------------------------------


@model("softmax_opset11_axis1", 11)
def _(rng):
    return one("Softmax", [2, 3, 4], axis=1)


@model("softmax_opset13_axis1", 13)
def _(rng):
    return one("Softmax", [2, 3, 4], axis=1)


@model("softmax_opset11_default", 11)
def _(rng):
    return one("Softmax", [2, 5])


@model("logsoftmax_opset11_last", 11)
def _(rng):
    return one("LogSoftmax", [2, 3, 4], axis=-1)


@model("logsoftmax_opset13", 13)
def _(rng):
    return one("LogSoftmax", [2, 3, 4])


@model("hardmax_opset11", 11)
def _(rng):
    return one("Hardmax", [2, 3, 4], axis=1)


@model("hardmax_opset13", 13)
def _(rng):
    return one("Hardmax", [2, 3, 4], axis=1)


@model("hardmax_dynamic_axis", 13)
def _(rng):
    return one("Hardmax", [2, "K"])


# --- Resize / Upsample ------------------------------------------------------------------


def _resize(opset_inputs: list[str], inits: dict, x_shape, x_t=F32, **attrs):
    return ([N("Resize", ["x", *opset_inputs], ["y"], **attrs)], {"x": (x_t, x_shape)}, {"y": x_t}, inits)


def f32s(*v):
    return np.array(v, dtype=np.float32)


def i64s(*v):
    return np.array(v, dtype=np.int64)


@model("resize10_nearest", 10)
def _(rng):
    return _resize(["sc"], {"sc": f32s(1, 1, 2, 3)}, [1, 2, 3, 4])


@model("resize10_linear_down", 10)
def _(rng):
    return _resize(["sc"], {"sc": f32s(1, 1, 0.5, 0.5)}, [1, 2, 6, 7], mode="linear")


@model("resize10_nearest_down", 10)
def _(rng):
    return _resize(["sc"], {"sc": f32s(1, 1, 0.5, 0.6)}, [1, 2, 6, 7])


@model("resize10_nearest_mixed", 10)
def _(rng):
    return _resize(["sc"], {"sc": f32s(1, 1, 2, 0.5)}, [1, 2, 6, 6])


@model("resize11_sizes_align_corners", 11)
def _(rng):
    return _resize(["roi", "sc", "sz"], {"roi": f32s(), "sc": f32s(), "sz": i64s(1, 2, 5, 9)}, [1, 2, 3, 4],
                   mode="linear", coordinate_transformation_mode="align_corners")


@model("resize13_cubic", 13)
def _(rng):
    return _resize(["", "sc"], {"sc": f32s(1, 1, 1.5, 2)}, [1, 1, 4, 4], mode="cubic", cubic_coeff_a=-0.5)


@model("resize13_nearest_ceil", 13)
def _(rng):
    return _resize(["", "sc"], {"sc": f32s(1, 1, 2, 2)}, [1, 3, 2, 2],
                   coordinate_transformation_mode="asymmetric", nearest_mode="ceil")


@model("resize13_uint8_pytorch", 13)
def _(rng):
    return _resize(["", "", "sz"], {"sz": i64s(1, 3, 4, 1)}, [1, 3, 2, 3], x_t=TP.UINT8, mode="linear",
                   coordinate_transformation_mode="pytorch_half_pixel")


@model("resize18_axes_aspect", 18)
def _(rng):
    return _resize(["", "", "sz"], {"sz": i64s(8, 16)}, [1, 2, 4, 6], axes=[2, 3],
                   keep_aspect_ratio_policy="not_larger")


@model("resize18_antialias_up", 18)
def _(rng):
    return _resize(["", "sc"], {"sc": f32s(2.0, 2.0)}, [1, 1, 3, 3], axes=[-2, -1], mode="linear", antialias=1)


@model("resize19_half_pixel_symmetric", 19)
def _(rng):
    return _resize(["", "sc"], {"sc": f32s(1, 1, 1.7, 0.8)}, [1, 1, 5, 5], mode="linear",
                   coordinate_transformation_mode="half_pixel_symmetric")


@model("resize11_tf_half_pixel_for_nn", 11)
def _(rng):
    return _resize(["roi", "sc"], {"roi": f32s(), "sc": f32s(1, 1, 2, 2)}, [1, 1, 2, 2],
                   coordinate_transformation_mode="tf_half_pixel_for_nn")


@model("resize_tf_crop", 13)
def _(rng):
    return _resize(["roi", "", "sz"], {"roi": f32s(0, 0, 0.1, 0.1, 1, 1, 0.9, 0.9), "sz": i64s(1, 1, 4, 4)},
                   [1, 1, 5, 5], mode="linear", coordinate_transformation_mode="tf_crop_and_resize")


@model("grid_sample_nearest", 16)
def _(rng):
    # Nearest, zeros padding: one tap per spatial dim, out-of-range taps weighted 0.
    return ([N("GridSample", ["x", "g"], ["y"], mode="nearest")],
            {"x": (F32, [1, 1, 2, 3]), "g": (F32, [1, 2, 2, 2])}, {"y": F32}, {})


@model("rnn_two_steps", 14)
def _(rng):
    # A 2-step RNN: X @ W^T once, then per step h = tanh(x_t + h @ R^T), concatenated into Y.
    return ([N("RNN", ["x", "w", "r"], ["y", "yh"], hidden_size=3)],
            {"x": (F32, [2, 1, 4]), "w": (F32, [1, 3, 4]), "r": (F32, [1, 3, 3])}, {"y": F32, "yh": F32}, {})


@model("dft_rfft", 19)
def _(rng):
    # A one-sided DFT of a real 4-point signal: cos/sin matmuls in f64.
    return ([N("DFT", ["x"], ["y"], axis=1, onesided=1)], {"x": (F32, [1, 4, 1])}, {"y": F32}, {})


@model("det_2x2", 13)
def _(rng):
    # Det of a 2x2 matrix: the Leibniz sum x00 * x11 - x01 * x10.
    return ([N("Det", ["x"], ["y"])], {"x": (F32, [2, 2])}, {"y": F32}, {})


@model("resize_dynamic_scales", 13)
def _(rng):
    return ([N("Resize", ["x", "", "sc"], ["y"])], {"x": (F32, [1, 1, 2, 2]), "sc": (F32, [4])}, {"y": F32}, {})


@model("resize_cubic_exclude_outside", 13)
def _(rng):
    return _resize(["", "sc"], {"sc": f32s(1, 1, 2, 2)}, [1, 1, 3, 3], mode="cubic", exclude_outside=1)


@model("resize_antialias_down", 18)
def _(rng):
    return _resize(["", "sc"], {"sc": f32s(1, 1, 0.5, 0.5)}, [1, 1, 8, 8], mode="linear", antialias=1)


@model("resize18_aspect_nonintegral", 18)
def _(rng):
    return _resize(["", "", "sz"], {"sz": i64s(5, 5)}, [1, 1, 10, 20], axes=[2, 3],
                   keep_aspect_ratio_policy="not_larger")


@model("upsample7_nearest", 7)
def _(rng):
    return one("Upsample", [1, 2, 3, 3], scales=[1.0, 1.0, 2.0, 2.0])


@model("upsample9_linear", 9)
def _(rng):
    return ([N("Upsample", ["x", "sc"], ["y"], mode="linear")], {"x": (F32, [1, 2, 3, 4])}, {"y": F32},
            {"sc": f32s(1, 1, 2, 1.5)})


def main(argv: list[str]) -> int:
    if argv[1:] == ["--list"]:
        print("\n".join(MODELS))
        return 0
    if len(argv) != 3 or argv[1] not in MODELS:
        print(f"usage: {argv[0]} NAME OUT.onnx | --list  (NAME in: {', '.join(MODELS)})", file=sys.stderr)
        return 2
    onnx.save(build(argv[1]), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))


# --- losses ----------------------------------------------------------------------


@model("nll_loss_weight_ignore", 13)
def _(rng):
    t = np.array([[0, 1], [4, 2], [1, 3]], np.int64)  # class 1 is ignored
    return one("NegativeLogLikelihoodLoss", [3, 5, 2], inits={"t": t, "w": rng.random(5).astype(np.float32)},
               extra_inputs=["t", "w"], reduction="mean", ignore_index=1)


@model("softmax_cross_entropy_log_prob", 13)
def _(rng):
    labels = np.array([0, 5, 2, 3], np.int64)
    return ([N("SoftmaxCrossEntropyLoss", ["x", "labels"], ["y", "log_prob"], reduction="sum")],
            {"x": (F32, [4, 6])}, {"y": F32, "log_prob": F32}, {"labels": labels})
