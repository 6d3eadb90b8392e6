"""Small ONNX models exercising the misc converters (ge_mlir/frontend/onnx/ops/misc.py).

    python misc_models.py NAME OUT.onnx     # writes model NAME
    python misc_models.py --list            # prints the model names

Every model is one or a few nodes built with onnx.helper: static input shapes,
constants drawn from numpy's generator seeded with 0, and the opset given in its
``@model`` line. Graph outputs carry only an element type; the importer takes
their shapes from ONNX shape inference. REFUSED maps the models the importer
must refuse to a piece of the reason; FEEDS gives run-time inputs whose values
must lie in a domain (Acosh, position ids) for the numeric comparisons of
test/python/frontend/test_onnx_misc.py.
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper as h
from onnx import numpy_helper as nh

F32, F16, F64, BOOL = TP.FLOAT, TP.FLOAT16, TP.DOUBLE, TP.BOOL
I8, U8, I16, U16, I32, I64 = TP.INT8, TP.UINT8, TP.INT16, TP.UINT16, TP.INT32, TP.INT64

#: name -> (opset, builder(rng) -> (nodes, inputs, outputs, initializers))
MODELS: dict[str, tuple[int, Callable]] = {}
#: refused model -> a substring of the refusal reason
REFUSED: dict[str, str] = {}
#: model -> rng -> {input name: value} for inputs random normal data would not suit
FEEDS: dict[str, Callable[[np.random.Generator], dict[str, np.ndarray]]] = {}


def model(name: str, opset: int, refused: str | None = None, feeds=None):
    def register(fn):
        assert name not in MODELS, name
        MODELS[name] = (opset, fn)
        if refused is not None:
            REFUSED[name] = refused
        if feeds is not None:
            FEEDS[name] = feeds
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
        initializer=[v if isinstance(v, onnx.TensorProto) else nh.from_array(np.asarray(v), k)
                     for k, v in (inits or {}).items()],
    )
    ops = [h.make_opsetid("", opset)]
    m = h.make_model(graph, opset_imports=ops, producer_name="misc_models")
    try:
        m.ir_version = h.find_min_ir_version_for(ops)
    except ValueError:  # opsets the helper's table does not list (2)
        m.ir_version = 3
    return m


def N(op: str, ins: list[str], outs: list[str], name: str | None = None, **attrs) -> onnx.NodeProto:
    return h.make_node(op, ins, outs, name=name or f"{op.lower()}0", **attrs)


def w32(rng, *shape) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def one(op: str, x_shape, out_t=F32, x_t=F32, inits=None, extra_inputs=(), **attrs):
    """A single node op(x, *extra_inputs) -> y."""
    return [N(op, ["x", *extra_inputs], ["y"], **attrs)], {"x": (x_t, x_shape)}, {"y": out_t}, inits or {}


# --- Constant -------------------------------------------------------------------


@model("constant_sparse", 13, refused="sparse_value (a sparse tensor constant) is not imported")
def _(rng):
    sparse = h.make_sparse_tensor(nh.from_array(np.array([1.0, 2.0], np.float32), "v"),
                                  nh.from_array(np.array([1, 4], np.int64), "i"), [2, 3])
    return ([N("Constant", [], ["c"], sparse_value=sparse), N("Add", ["x", "c"], ["y"], name="add0")],
            {"x": (F32, [2, 3])}, {"y": F32}, {})


@model("constant_string", 13, refused="string constants (value_string/value_strings) have no ge element type")
def _(rng):
    # The string constant is consumed by nothing; the float path alone is the graph output.
    return ([N("Constant", [], ["s"], value_strings=["a", "b"]), N("Identity", ["x"], ["y"], name="identity0")],
            {"x": (F32, [2])}, {"y": F32}, {})


# --- Asinh / Acosh / Atanh ------------------------------------------------------


def _inv_hyp_feeds(rng):
    return {"a": rng.standard_normal([2, 3]).astype(np.float32) * 4,
            "b": (1.0 + np.abs(rng.standard_normal([2, 3])) * 3).astype(np.float32),
            "c": np.tanh(rng.standard_normal([2, 3])).astype(np.float32)}


@model("inv_hyperbolic", 9, feeds=_inv_hyp_feeds)
def _(rng):
    return ([N("Asinh", ["a"], ["ya"]), N("Acosh", ["b"], ["yb"]), N("Atanh", ["c"], ["yc"])],
            {"a": (F32, [2, 3]), "b": (F32, [2, 3]), "c": (F32, [2, 3])}, {"ya": F32, "yb": F32, "yc": F32}, {})


@model("asinh_f16_opset22", 22,
       feeds=lambda rng: {"x": np.array([300.0, -1000.0, 0.5, 0.0, -2.0, 60000.0], np.float16)})
def _(rng):
    # Computed in f32: x * x would overflow f16 from |x| > 256.
    return one("Asinh", [6], out_t=F16, x_t=F16)


# --- GlobalLpPool / LpPool --------------------------------------------------------


@model("global_lp_pool_p3", 2)
def _(rng):
    return one("GlobalLpPool", [2, 3, 4, 5], p=3)


@model("global_lp_pool_p2", 21)
def _(rng):
    return one("GlobalLpPool", [1, 2, 3, 3])


@model("lp_pool", 18)
def _(rng):
    return one("LpPool", [1, 2, 6, 7], kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 1], p=2)


@model("lp_pool_1d_p3", 11)
def _(rng):
    return one("LpPool", [2, 3, 7], kernel_shape=[3], auto_pad="SAME_UPPER", strides=[2], p=3)


@model("lp_pool_p1_opset1", 1)
def _(rng):
    return one("LpPool", [1, 1, 4, 4], kernel_shape=[2, 2], p=1.0)


@model("lp_pool_dilations", 18, refused="dilations [2, 2] are not supported")
def _(rng):
    return one("LpPool", [1, 1, 6, 6], kernel_shape=[2, 2], dilations=[2, 2])


# --- QuantizeLinear / DequantizeLinear ------------------------------------------------


@model("quantize_uint8", 10)
def _(rng):
    # No zero point: uint8 output; the scale makes values saturate at both ends.
    return one("QuantizeLinear", [2, 3, 4], out_t=U8, inits={"s": np.float32(0.02)}, extra_inputs=["s"])


@model("quantize_int8_axis", 13)
def _(rng):
    return one("QuantizeLinear", [2, 3, 4], out_t=I8, axis=1, extra_inputs=["s", "z"],
               inits={"s": np.array([0.01, 0.02, 0.05], np.float32), "z": np.array([-3, 0, 7], np.int8)})


@model("quantize_int16_output_dtype", 21)
def _(rng):
    return one("QuantizeLinear", [3, 4], out_t=I16, extra_inputs=["s"], output_dtype=I16,
               inits={"s": np.float32(1e-4)})


@model("quantize_block", 21)
def _(rng):
    # Blocked scales (one per 2 elements along axis 1) repeated to the input's shape.
    return one("QuantizeLinear", [2, 4], out_t=I8, extra_inputs=["s", "z"], axis=1, block_size=2,
               inits={"s": np.array([[0.1, 0.2], [0.3, 0.4]], np.float32), "z": np.array([[0, 1], [2, 3]], np.int8)})


@model("quantize_float8", 21)
def _(rng):
    # Quantized to float8 (x / scale, saturated to +-448, rounded) and back.
    return ([N("QuantizeLinear", ["x", "s"], ["q"], output_dtype=TP.FLOAT8E4M3FN),
             N("DequantizeLinear", ["q", "s"], ["y"], name="dequantizelinear0")],
            {"x": (F32, [4])}, {"y": F32}, {"s": np.float32(0.5)})


@model("quantize_runtime_scale", 13, feeds=lambda rng: {"x": rng.standard_normal(4).astype(np.float32) * 50,
                                                         "s": np.array(0.5, np.float32)})
def _(rng):
    return ([N("QuantizeLinear", ["x", "s"], ["y"])], {"x": (F32, [4]), "s": (F32, [])}, {"y": U8}, {})


@model("dequantize_uint8", 10)
def _(rng):
    return one("DequantizeLinear", [2, 5], x_t=U8, extra_inputs=["s", "z"],
               inits={"s": np.float32(0.1), "z": np.uint8(128)})


@model("dequantize_int8_axis", 13)
def _(rng):
    return one("DequantizeLinear", [2, 3, 2], x_t=I8, axis=-2, extra_inputs=["s", "z"],
               inits={"s": np.array([0.5, 0.25, 2.0], np.float32), "z": np.array([1, 0, -2], np.int8)})


@model("dequantize_int32", 13)
def _(rng):
    return one("DequantizeLinear", [6], x_t=I32, extra_inputs=["s"], inits={"s": np.float32(0.125)})


# --- windows ----------------------------------------------------------------------


@model("hann_window", 17)
def _(rng):
    return [N("HannWindow", ["n"], ["y"])], {}, {"y": F32}, {"n": np.int64(8)}


@model("hamming_window_symmetric_f64", 17)
def _(rng):
    return [N("HammingWindow", ["n"], ["y"], periodic=0, output_datatype=F64)], {}, {"y": F64}, {"n": np.int32(6)}


@model("blackman_window", 17)
def _(rng):
    return [N("BlackmanWindow", ["n"], ["y"])], {}, {"y": F32}, {"n": np.int64(5)}


@model("window_runtime_size", 17)
def _(rng):
    return [N("HannWindow", ["n"], ["y"])], {"n": (I64, [])}, {"y": F32}, {}


# --- CenterCropPad ------------------------------------------------------------------


@model("center_crop_pad", 18)
def _(rng):
    # Axis 0 unchanged, axis 1 cropped 7 -> 4 (start 1), axis 2 padded 3 -> 6 (1 before, 2 after).
    return one("CenterCropPad", [2, 7, 3], extra_inputs=["s"], inits={"s": np.array([2, 4, 6], np.int64)})


@model("center_crop_pad_axes", 18)
def _(rng):
    return one("CenterCropPad", [3, 5, 4], x_t=I32, out_t=I32, extra_inputs=["s"], axes=[-1, 0],
               inits={"s": np.array([1, 6], np.int64)})


# --- Attention ------------------------------------------------------------------------


def _qkv(q, k, v, t=F32):
    return {"q": (t, q), "k": (t, k), "v": (t, v)}


@model("attention_4d_causal", 23)
def _(rng):
    return ([N("Attention", ["q", "k", "v"], ["y"], is_causal=1)],
            _qkv([2, 2, 3, 4], [2, 2, 5, 4], [2, 2, 5, 6]), {"y": F32}, {})


@model("attention_3d_gqa_bool_mask", 23)
def _(rng):
    # 4 query heads share 2 KV heads; the run-time mask [S_q, 3] is padded to 4 keys with False.
    ins = _qkv([1, 3, 16], [1, 4, 8], [1, 4, 6])
    ins["m"] = (BOOL, [3, 3])
    return ([N("Attention", ["q", "k", "v", "m"], ["y"], q_num_heads=4, kv_num_heads=2, scale=0.3)],
            ins, {"y": F32}, {})


@model("attention_float_mask_softcap", 24)
def _(rng):
    # A constant additive mask [1, 1, 2, 3] and softcap 5.
    return ([N("Attention", ["q", "k", "v", "m"], ["y"], softcap=5.0)],
            _qkv([1, 2, 2, 4], [1, 2, 3, 4], [1, 2, 3, 4]), {"y": F32}, {"m": w32(rng, 1, 1, 2, 3)})


def _fully_masked_row(rng):
    m = rng.standard_normal([2, 1, 3, 4]).astype(np.float32)
    m[0, 0, 1, :] = -np.inf  # batch 0, query 1 attends nothing: its output row is 0
    return {"m": m}


@model("attention_causal_runtime_mask", 23, feeds=_fully_masked_row)
def _(rng):
    # A run-time float mask plus is_causal; rows masked everywhere are zeroed after the softmax.
    ins = _qkv([2, 2, 3, 4], [2, 2, 4, 4], [2, 2, 4, 4])
    ins["m"] = (F32, [2, 1, 3, 4])
    return [N("Attention", ["q", "k", "v", "m"], ["y"], is_causal=1)], ins, {"y": F32}, {}


@model("attention_past", 23)
def _(rng):
    ins = _qkv([1, 2, 1, 4], [1, 2, 1, 4], [1, 2, 1, 4])
    ins.update({"pk": (F32, [1, 2, 3, 4]), "pv": (F32, [1, 2, 3, 4])})
    return ([N("Attention", ["q", "k", "v", "", "pk", "pv"], ["y", "k2", "v2"])], ins,
            {"y": F32, "k2": F32, "v2": F32}, {})


@model("attention_qk_output_used", 23)
def _(rng):
    return ([N("Attention", ["q", "k", "v"], ["y", "", "", "qk"])], _qkv([1, 1, 2, 4], [1, 1, 2, 4], [1, 1, 2, 4]),
            {"y": F32, "qk": F32}, {})


# --- RotaryEmbedding ----------------------------------------------------------------


def _rotary_caches(rng, positions, half):
    theta = np.arange(positions)[:, None] / (100.0 ** (np.arange(half)[None, :] / half))
    return np.cos(theta).astype(np.float32), np.sin(theta).astype(np.float32)


@model("rotary_4d", 23, feeds=lambda rng: {"pos": rng.integers(0, 10, [2, 3]).astype(np.int64)})
def _(rng):
    cos, sin = _rotary_caches(rng, 10, 4)
    return ([N("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"])],
            {"x": (F32, [2, 2, 3, 8]), "pos": (I64, [2, 3])}, {"y": F32}, {"cos": cos, "sin": sin})


@model("rotary_3d_interleaved_partial", 23)
def _(rng):
    # No position ids: the caches are [B, S, rotary_dim / 2] inputs; 4 of 6 head dims rotate.
    ins = {"x": (F32, [1, 3, 12]), "cos": (F32, [1, 3, 2]), "sin": (F32, [1, 3, 2])}
    return ([N("RotaryEmbedding", ["x", "cos", "sin"], ["y"], num_heads=2, rotary_embedding_dim=4, interleaved=1)],
            ins, {"y": F32}, {})


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(MODELS))
        return 0
    if len(argv) != 3 or argv[1] not in MODELS:
        print(f"usage: {argv[0]} NAME OUT.onnx | --list   (NAME one of: {', '.join(MODELS)})", file=sys.stderr)
        return 2
    onnx.save(build(argv[1]), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
