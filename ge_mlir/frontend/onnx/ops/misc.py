"""Miscellaneous ONNX ops: Constant (the forms the importer cannot fold),
inverse hyperbolic functions, Lp pooling, linear (de)quantization, window
generators, CenterCropPad, and the opset-23 transformer ops Attention and
RotaryEmbedding, all expressed with existing ge ops.

Notes shared by the converters below:

* Asinh/Acosh/Atanh use their log/sqrt identities (Asin/Acos/Atan have no
  ge op and are not registered).
* LpPool sums ``|x|^p`` over each window as ``ge.avg_pool2d`` with
  ``count_include_pad = true`` (the padding contributes zeros) times the
  kernel area, then takes the ``1/p`` power: onnxruntime's definition (the ONNX
  reference implementation divides by the unpadded count when pads exist).
* QuantizeLinear/DequantizeLinear take per-tensor, per-axis or blocked scales
  and zero points (constants or run-time values); the quantized types are
  int8/uint8/int16/uint16, int4/uint4/int2/uint2 (rounded and clipped in f32)
  and float8/float4 (the reference's rules: float8 ignores the zero point and
  saturates unless ``saturate=0``, float4 adds it and saturates by itself).
* Window generators need a constant size; they become a ``ge.constant``
  computed like the ONNX reference implementation.
* Attention and RotaryEmbedding need static shapes and are decomposed into
  transpose/reshape/matmul/softmax (Attention) and slice/mul/concat
  (RotaryEmbedding), following the ONNX reference implementation step by step.
"""

from __future__ import annotations

import math
import weakref

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter, element_type, mlir_element_of, numpy_dtype
from .elementwise import cast_saturating
from ._shapes import (
    _cast, _is_float, _kernel, _norm_axis, _reshape, _shape_of, _spatial_rank, _to_2d, _window,
)

# --- helpers -------------------------------------------------------------------


def _const(ctx, value, elem: ir.Type) -> ir.Value:
    return ctx.constant(np.asarray(value).astype(numpy_dtype(elem)), elem)


def _static_shape(ctx, i: int, what: str) -> list[int]:
    shape = ctx.shape(i)
    if any(d < 0 for d in shape):
        ctx.refuse(f"{what} must have a static shape, got {ctx.input_type(i)} "
                   "(fix dynamic input dimensions with input_shapes=... / --input-shape)")
    return shape


def _onnx_type_name(dt: int) -> str:
    import onnx

    return onnx.TensorProto.DataType.Name(dt) if dt in onnx.TensorProto.DataType.values() else str(dt)


# --- Constant --------------------------------------------------------------------


@converter("Constant", notes="value, value_float(s), value_int(s) are folded; sparse and string values refused")
def constant(ctx):
    # The importer folds the numeric forms before converters run; only the
    # forms it leaves reach this converter.
    names = [a.name for a in ctx.node.attribute]
    if "sparse_value" in names:
        ctx.refuse("sparse_value (a sparse tensor constant) is not imported: ge constants are dense; "
                   "densify the constant in the model")
    if "value_string" in names or "value_strings" in names:
        ctx.refuse("string constants (value_string/value_strings) have no ge element type")
    if "value" in names:
        ctx.refuse("the tensor constant has an element type ge does not support")
    ctx.refuse(f"Constant node with attribute(s) {names} cannot be imported")


# --- inverse hyperbolic functions ----------------------------------------------------


def _inverse_hyperbolic(ctx, fn):
    """fn(x, one) computed in f32 for f16/bf16 inputs (x * x overflows f16 from |x| > 256)."""
    x = ctx.input(0)
    elem = ctx.elem(0)
    cw = ir.F32Type.get() if str(elem) in ("f16", "bf16") else elem
    one = _const(ctx, 1.0, cw)
    return _cast(fn(_cast(x, cw), one, cw), elem)


@converter("Asinh", since=9, notes="sign(x) * log(|x| + sqrt(x^2 + 1)), f16/bf16 in f32")
def asinh(ctx):
    # Odd symmetry avoids the cancellation of x + sqrt(x^2 + 1) for x << 0.
    return _inverse_hyperbolic(
        ctx, lambda x, one, cw: ge.mul(ge.sign(x), ge.log(ge.add(ge.abs(x), ge.sqrt(ge.add(ge.mul(x, x), one)))))
    )


@converter("Acosh", since=9, notes="log(x + sqrt((x - 1)(x + 1))), f16/bf16 in f32; NaN below 1")
def acosh(ctx):
    return _inverse_hyperbolic(
        ctx, lambda x, one, cw: ge.log(ge.add(x, ge.sqrt(ge.mul(ge.sub(x, one), ge.add(x, one)))))
    )


@converter("Atanh", since=9, notes="0.5 * log((1 + x) / (1 - x)), f16/bf16 in f32")
def atanh(ctx):
    return _inverse_hyperbolic(
        ctx, lambda x, one, cw: ge.mul(_const(ctx, 0.5, cw), ge.log(ge.div(ge.add(one, x), ge.sub(one, x))))
    )


# --- Lp pooling -------------------------------------------------------------------------


def _lp_p(ctx) -> float:
    p = ctx.attr("p", 2.0 if ctx.opset < 2 else 2)
    p = float(p)
    if not p > 0 or not math.isfinite(p):
        ctx.invalid(f"p={p} must be a positive finite number")
    return p


def _pow_p(ctx, x: ir.Value, p: float) -> ir.Value:
    """|x|^p."""
    if p == 1.0:
        return ge.abs(x)
    if p == 2.0:
        return ge.mul(x, x)
    return ge.pow(ge.abs(x), ctx.scalar_like(p))


def _root_p(ctx, s: ir.Value, p: float) -> ir.Value:
    """s^(1/p) for s >= 0."""
    if p == 1.0:
        return s
    if p == 2.0:
        return ge.sqrt(s)
    return ge.pow(s, ctx.scalar_like(1.0 / p))


@converter("GlobalLpPool", notes="(sum over spatial dims of |x|^p)^(1/p)")
def global_lp_pool(ctx):
    rank = ctx.rank(0)
    if rank < 3:
        ctx.refuse(f"input must have rank >= 3, got {rank}")
    if not _is_float(ctx.elem(0)):
        ctx.refuse(f"input must be a float tensor, got {ctx.input_type(0)}")
    p = _lp_p(ctx)
    x = ctx.input(0)
    axes = list(range(2, rank))
    if p == 2.0:
        return ge.reduce_l2(x, axes=axes, keepdims=True)
    return _root_p(ctx, ge.reduce_sum(_pow_p(ctx, x, p), axes=axes, keepdims=True), p)


def _out_size(n: int, k: int, s: int, pb: int, pe: int, ceil: bool) -> int:
    span = n + pb + pe - k
    return (-(-span // s) if ceil else span // s) + 1


@converter("LpPool", notes="1-D and 2-D; ceil_mode only where it does not change the output size; dilations refused")
def lp_pool(ctx):
    n = _spatial_rank(ctx, "Lp pooling")
    if not _is_float(ctx.elem(0)):
        ctx.refuse(f"input must be a float tensor, got {ctx.input_type(0)}")
    p = _lp_p(ctx)
    kernel = _kernel(ctx, None, n)
    in_sp = ctx.shape(0)[2:]
    strides, pads, dilations = _window(ctx, in_sp, kernel)
    if any(d != 1 for d in dilations):
        ctx.refuse(f"dilations {dilations} are not supported: the window sum is built from ge.avg_pool2d "
                   "(count_include_pad) times the kernel area, defined here for undilated windows only")
    if ctx.attr("ceil_mode", 0):
        for i in range(n):
            d = in_sp[i]
            if d < 0 or _out_size(d, kernel[i], strides[i], pads[i], pads[i + n], True) != _out_size(
                d, kernel[i], strides[i], pads[i], pads[i + n], False
            ):
                ctx.refuse("ceil_mode=1 adds partial windows past the padding here; their sum cannot be "
                           "built from ge.avg_pool2d exactly")
    strides, pads, dilations, _ = _to_2d(n, strides, pads, dilations)
    kernel2 = kernel if n == 2 else [1] + kernel
    x = ctx.input(0)
    if n == 1:
        x = ge.unsqueeze(x, [2])
    avg = ge.avg_pool2d(_pow_p(ctx, x, p), kernel2, strides=strides, pads=pads, count_include_pad=True)
    area = int(np.prod(kernel))
    s = avg if area == 1 else ge.mul(avg, ctx.scalar_like(float(area)))
    y = _root_p(ctx, s, p)
    if n == 1:
        y = ge.squeeze(y, axes=[2])
    return y


# --- QuantizeLinear / DequantizeLinear -------------------------------------------------------

_QRANGE = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767), "ui16": (0, 65535),
           "i4": (-8, 7), "ui4": (0, 15), "i2": (-2, 1), "ui2": (0, 3)}
_QONNX = {3: "i8", 2: "ui8", 5: "i16", 4: "ui16", 22: "i4", 21: "ui4", 26: "i2", 25: "ui2",
          17: "f8E4M3FN", 18: "f8E4M3FNUZ", 19: "f8E5M2", 20: "f8E5M2FNUZ", 23: "f4E2M1FN"}
#: Quantized float types: their zero point is not applied by DequantizeLinear (the reference's rule).
_QFLOAT = ("f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ", "f4E2M1FN")


def _qtype_from_onnx(ctx, dt: int, what: str) -> str:
    if dt in _QONNX:
        return _QONNX[dt]
    ctx.refuse(f"{what} {_onnx_type_name(dt)} is not a supported quantized type (int8, uint8, int16, uint16, "
               "int4, uint4, int2, uint2, float8, float4)")


_ONNX_TYPES: "weakref.WeakKeyDictionary[object, dict[str, int]]" = weakref.WeakKeyDictionary()


def _input_onnx_type(ctx, i: int) -> int | None:
    """The ONNX element type of input ``i`` (from initializers, Constant nodes and
    value infos), also for types the importer has no MLIR type for."""
    types = _ONNX_TYPES.get(ctx.importer)
    if types is None:
        g = ctx.importer.model.graph
        types = {}
        for vi in list(g.input) + list(g.value_info) + list(g.output):
            if vi.type.HasField("tensor_type"):
                types[vi.name] = vi.type.tensor_type.elem_type
        for node in g.node:
            if node.op_type == "Constant" and node.output and node.attribute and node.attribute[0].name == "value":
                types[node.output[0]] = node.attribute[0].t.data_type
        types.update({t.name: t.data_type for t in g.initializer})
        _ONNX_TYPES[ctx.importer] = types
    return types.get(ctx.node.input[i]) if ctx.has_input(i) else None


def _quant_param(ctx, i: int, what: str) -> np.ndarray | ir.Value:
    """A scale/zero point, reshaped to broadcast against the input: per-tensor (one value;
    ``axis`` is then ignored) or per-axis (1-D along ``axis``). A constant gives an array; one
    given at run time a ge value (its shape, per-tensor or per-axis, must be static)."""
    c = ctx.const(i)
    t = ctx.input_type(i)
    if c is None and not t.has_static_shape:
        ctx.refuse(f"{what} given at run time needs a static shape, got {t}")
    shape_in = list(np.asarray(c).shape) if c is not None else list(t.shape)
    size = int(np.prod(shape_in))
    block = int(ctx.attr("block_size", 0) or 0)
    if block:
        return _block_param(ctx, i, what, c, shape_in, block)
    if len(shape_in) == 0 or size == 1:
        if c is not None:
            return np.asarray(c).reshape(())
        return ctx.input(i) if t.rank == 0 else ge.reshape(ir.RankedTensorType.get([], t.element_type), ctx.input(i))
    if len(shape_in) != 1:
        ctx.refuse(f"{what} of shape {shape_in} is neither per-tensor nor per-axis (1-D)")
    rank = ctx.rank(0)
    axis = _norm_axis(ctx, int(ctx.attr("axis", 1)), rank)
    dim = ctx.shape(0)[axis]
    if dim >= 0 and size != dim:
        ctx.refuse(f"{what} has {size} values, input dim {axis} has {dim}")
    shape = [1] * rank
    shape[axis] = size
    if c is not None:
        return np.asarray(c).reshape(shape)
    return ge.reshape(ir.RankedTensorType.get(shape, t.element_type), ctx.input(i))


def _param(ctx, value: np.ndarray | ir.Value, elem: ir.Type) -> ir.Value:
    """A quantization parameter as a ``elem`` tensor (a constant, or the run-time value cast)."""
    if isinstance(value, ir.Value):
        return _cast(value, elem)
    return _const(ctx, value, elem)


def _nonzero(value: np.ndarray | ir.Value) -> bool:
    """Whether a zero point must be applied (a run-time one always is)."""
    return isinstance(value, ir.Value) or bool(np.any(value != 0))


def _block_param(ctx, i: int, what: str, c, shape_in: list[int], block: int) -> np.ndarray | ir.Value:
    """A blocked scale/zero point (one value per ``block`` elements along ``axis``; the last block may
    be short) repeated to the input's shape, as the reference does: ``np.repeat`` of a constant, a
    gather of ``index // block`` along the axis of a run-time value."""
    if block < 0:
        ctx.invalid(f"block_size must be positive, got {block}")
    x_shape = ctx.shape(0)
    rank = len(x_shape)
    if any(d < 0 for d in x_shape):
        ctx.refuse(f"blocked quantization needs a static input shape, got {ctx.input_type(0)}")
    axis = _norm_axis(ctx, int(ctx.attr("axis", 1)), rank)
    want = list(x_shape)
    want[axis] = -(-x_shape[axis] // block)
    if shape_in != want:
        ctx.invalid(f"{what} of shape {shape_in} does not block input shape {list(x_shape)} along axis {axis} "
                    f"with block_size {block} (expected {want})")
    index = np.arange(x_shape[axis], dtype=np.int64) // block
    if c is not None:
        return np.take(np.asarray(c), index, axis=axis)
    return ge.gather(ctx.input(i), ctx.constant(index), axis=axis)


@converter("QuantizeLinear", since=10,
           notes="int8/uint8/int16/uint16/int4/uint4/int2/uint2/float8/float4; per-tensor, per-axis or blocked "
                 "scale/zero point, constant or run time")
def quantize_linear(ctx):
    x_elem = ctx.elem(0)
    if not _is_float(x_elem):
        ctx.refuse(f"x of type {ctx.input_type(0)} is not supported (int32 inputs are not imported)")
    # Output type: the zero point's type, else output_dtype (opset 21+), else uint8.
    zp_dt = _input_onnx_type(ctx, 2) if ctx.has_input(2) else None
    out_dt = int(ctx.attr("output_dtype", 0) or 0)
    if zp_dt is not None:
        if out_dt and out_dt != zp_dt:
            ctx.refuse(f"output_dtype {_onnx_type_name(out_dt)} differs from the zero point's type "
                       f"{_onnx_type_name(zp_dt)}")
        out_dt = zp_dt
    qname = _qtype_from_onnx(ctx, out_dt or 2, "output type")
    scale = _quant_param(ctx, 1, "y_scale")
    zp = _quant_param(ctx, 2, "y_zero_point") if ctx.has_input(2) else None
    # The division runs in `precision` (opset 23+) or the scale's type.
    prec = int(ctx.attr("precision", 0) or 0)
    if prec:
        cw = element_type(prec)
    else:
        scale_dt = _input_onnx_type(ctx, 1)
        cw = element_type(scale_dt) if scale_dt else (
            scale.type.element_type if isinstance(scale, ir.Value) else mlir_element_of(scale))
    if not _is_float(cw):
        ctx.refuse(f"the division precision {cw} must be a float type")
    q = ge.div(_cast(ctx.input(0), cw), _param(ctx, scale, cw))
    if qname in _QFLOAT:
        # The reference: float8 ignores the zero point (it must be 0) and saturates as Cast does;
        # float4 adds it and saturates by itself.
        if qname == "f4E2M1FN" and zp is not None and _nonzero(zp):
            q = ge.add(q, _param(ctx, zp if isinstance(zp, ir.Value) else zp.astype(np.float64), cw))
        return cast_saturating(ctx, q, ir.Type.parse(qname), bool(int(ctx.attr("saturate", 1))))
    q = ge.round(q)
    lo, hi = _QRANGE[qname]
    # Integers up to 2^24 are exact in f32: add the zero point and clip there.
    f32 = ir.F32Type.get()
    if str(cw) in ("f16", "bf16"):
        q = _cast(q, f32)
    acc = q.type.element_type
    if zp is not None and _nonzero(zp):
        q = ge.add(q, _param(ctx, zp if isinstance(zp, ir.Value) else zp.astype(np.float64), acc))
    q = ge.clip(q, min=ir.FloatAttr.get(ir.F64Type.get(), float(lo)), max=ir.FloatAttr.get(ir.F64Type.get(), float(hi)))
    return _cast(q, ir.Type.parse(qname))


@converter("DequantizeLinear", since=10,
           notes="int8/uint8/int16/uint16/int32/int4/uint4/int2/uint2/float8/float4; per-tensor, per-axis or "
                 "blocked scale/zero point, constant or run time")
def dequantize_linear(ctx):
    x_elem = ctx.elem(0)
    if str(x_elem) not in ("i8", "ui8", "i16", "ui16", "i32", *_QONNX.values()):
        ctx.refuse(f"x of type {ctx.input_type(0)} is not supported (int8, uint8, int16, uint16, int32, "
                   "int4, uint4, int2, uint2, float8, float4)")
    scale = _quant_param(ctx, 1, "x_scale")
    if ctx.has_input(2) and str(x_elem) not in _QFLOAT:
        zp = _quant_param(ctx, 2, "x_zero_point")
    else:
        zp = None
    scale_dt = _input_onnx_type(ctx, 1)
    scale_elem = element_type(scale_dt) if scale_dt else (
        scale.type.element_type if isinstance(scale, ir.Value) else mlir_element_of(scale))
    out_dt = int(ctx.attr("output_dtype", 0) or 0)
    out_elem = element_type(out_dt) if out_dt else scale_elem
    # As the reference: (float32(x) - zero_point) * scale in f32, then the output type.
    f32 = ir.F32Type.get()
    y = _cast(ctx.input(0), f32)
    if zp is not None and _nonzero(zp):
        y = ge.sub(y, _param(ctx, zp if isinstance(zp, ir.Value) else zp.astype(np.float64), f32))
    y = ge.mul(y, _param(ctx, scale if isinstance(scale, ir.Value) else scale.astype(np.float32), f32))
    return _cast(y, out_elem)


# --- window generators -------------------------------------------------------------------


def _window_values(op: str, size: np.ndarray, periodic: int, dtype) -> np.ndarray:
    """The window as the ONNX reference implementation computes it (``size`` is
    the 0-d input array: its dtype takes part in numpy's type promotion)."""
    if op == "BlackmanWindow":
        ni, n1 = np.arange(size), size
        if periodic == 0:
            n1 = n1 - 1
        y = np.cos((ni * (np.pi * 2)) / n1) * (-0.5)
        y += np.cos((ni * (np.pi * 4)) / n1) * 0.08
        y += 0.42
        return y.astype(dtype)
    n1 = size if periodic == 1 else size - 1
    ni = np.arange(size, dtype=dtype)
    if op == "HannWindow":
        res = np.sin(ni * np.pi / n1) ** 2
    else:
        alpha = 25.0 / 46.0
        res = alpha - np.cos(ni * np.pi * 2 / n1) * (1 - alpha)
    return np.asarray(res).astype(dtype)


def _window_runtime(ctx, elem: ir.Type, periodic: int) -> ir.Value:
    """A window of run-time length (? dim), the reference's formula in ge ops: Blackman in f64,
    Hann and Hamming in the output type (numpy's promotion in the reference)."""
    if rt.static_count(ctx, 0, "size") != 1:
        ctx.refuse("size must be a scalar")
    ct = ir.F64Type.get() if ctx.op_type == "BlackmanWindow" or not _is_float(elem) else elem
    size = rt.scalar(ctx, ctx.input(0))
    n1 = size if periodic == 1 else ge.sub(size, rt.i64_const(ctx, 1))
    n1 = rt.to_elem(n1, ct)
    ni = rt.to_elem(ge.range(ir.RankedTensorType.get([rt.DYN], rt.i64()), rt.i64_const(ctx, 0), size, rt.i64_const(ctx, 1)), ct)
    c = lambda v: _const(ctx, v, ct)  # noqa: E731
    angle = lambda k: ge.div(ge.mul(ni, c(np.pi * k)), n1)  # noqa: E731
    if ctx.op_type == "BlackmanWindow":
        y = ge.add(ge.add(ge.mul(ge.cos(angle(2)), c(-0.5)), ge.mul(ge.cos(angle(4)), c(0.08))), c(0.42))
    elif ctx.op_type == "HannWindow":
        sn = ge.sin(angle(1))
        y = ge.mul(sn, sn)
    else:
        alpha = 25.0 / 46.0
        y = ge.sub(c(alpha), ge.mul(ge.cos(angle(2)), c(1 - alpha)))
    return rt.to_elem(y, elem)


@converter("HannWindow", "HammingWindow", "BlackmanWindow", since=17,
           notes="size constant (a constant window) or at run time (the formula in ge ops; ? dim)")
def window(ctx):
    if ctx.const(0) is None:
        return _window_runtime(ctx, element_type(int(ctx.attr("output_datatype", 1))), int(ctx.attr("periodic", 1)))
    size_arr = np.asarray(ctx.const(0))
    if size_arr.size != 1:
        ctx.refuse(f"size must be a scalar, got shape {list(size_arr.shape)}")
    size = size_arr.reshape(())
    if int(size) < 0:
        ctx.invalid(f"size {int(size)} is negative")
    elem = element_type(int(ctx.attr("output_datatype", 1)))
    periodic = int(ctx.attr("periodic", 1))
    with np.errstate(all="ignore"):
        values = _window_values(ctx.op_type, size, periodic, numpy_dtype(elem))
    return ctx.constant(values, elem, name=ctx.node.output[0])


# --- CenterCropPad ---------------------------------------------------------------------------


@converter("CenterCropPad", since=18, notes="shape constant (static dims on the cropped/padded axes: "
           "slice + pad) or at run time (gathers of computed indices; ? dims)")
def center_crop_pad(ctx):
    rank = ctx.rank(0)
    in_shape = ctx.shape(0)
    axes = ctx.attr("axes", None)
    if axes is None:
        axes = list(range(rank))
    axes = [int(a) for a in axes]
    if any(not -rank <= a < rank for a in axes):
        ctx.invalid(f"axes {axes} are out of range for rank {rank}")
    axes = [a + rank if a < 0 else a for a in axes]
    if len(set(axes)) != len(axes):
        ctx.invalid(f"axes {axes} repeat an axis")
    if ctx.const(1) is None:
        if rt.static_count(ctx, 1, "shape") != len(axes):
            ctx.invalid(f"shape must have one size per axis ({len(axes)})")
        return rt.center_crop_pad(ctx, ctx.input(0), ctx.input(1), axes)
    target = [int(v) for v in np.asarray(ctx.const(1)).reshape(-1)]
    if len(target) != len(axes):
        ctx.invalid(f"shape has {len(target)} values for {len(axes)} axes")
    if any(t < 0 for t in target):
        ctx.invalid(f"shape {target} has negative sizes")
    starts, ends, sl_axes = [], [], []
    pads = [0] * (2 * rank)
    for a, t in zip(axes, target):
        d = in_shape[a]
        if d < 0:
            ctx.refuse(f"dimension {a} of the input must be static, got {ctx.input_type(0)}")
        if t < d:  # crop: the extra element of an odd difference is dropped at the end
            b = (d - t) // 2
            starts.append(b)
            ends.append(b + t)
            sl_axes.append(a)
        elif t > d:  # pad with zeros: the extra element goes to the end
            b = (t - d) // 2
            pads[a], pads[a + rank] = b, t - d - b
    y = ctx.input(0)
    if sl_axes:
        y = ge.slice(y, starts, ends, axes=sl_axes)
    if any(pads):
        y = ge.pad(y, pads)
    if not sl_axes and not any(pads):
        y = ge.identity(y)
    return y


# --- Attention ---------------------------------------------------------------------------------


def _heads_4d(ctx, v: ir.Value, shape: list[int], heads: int, what: str) -> ir.Value:
    """[B, S, heads * H] -> [B, heads, S, H]."""
    b, s, hidden = shape
    if hidden % heads:
        ctx.invalid(f"{what}'s hidden size {hidden} is not a multiple of {heads} heads")
    return ge.transpose(_reshape(v, [b, s, heads, hidden // heads]), [0, 2, 1, 3])


def _attention_inputs(ctx) -> tuple[int, ir.Type, ir.Value, ir.Value, ir.Value, int]:
    """Attention's checked Q, K and V as [B, heads, S, H] (3-D inputs split into heads, past_key and
    past_value prepended to K and V), with the inputs' rank, their element type and the past length."""
    if ctx.has_input(4) != ctx.has_input(5):
        ctx.invalid("past_key and past_value must be given together")
    if ctx.has_input(6) and ctx.has_input(4):
        ctx.invalid("nonpad_kv_seqlen cannot be combined with past_key/past_value")
    rank = ctx.rank(0)
    if rank not in (3, 4) or ctx.rank(1) != rank or ctx.rank(2) != rank:
        ctx.refuse(f"Q, K and V must all be 3-D or all 4-D, got ranks {ctx.rank(0)}, {ctx.rank(1)}, {ctx.rank(2)}")
    qs = _static_shape(ctx, 0, "Q")
    ks = _static_shape(ctx, 1, "K")
    vs = _static_shape(ctx, 2, "V")
    elem = ctx.elem(0)
    if ctx.elem(1) != elem or ctx.elem(2) != elem:
        ctx.refuse(f"Q, K and V must have the same element type, got {elem}, {ctx.elem(1)}, {ctx.elem(2)}")
    q, k, v = ctx.input(0), ctx.input(1), ctx.input(2)
    qh_attr, kvh_attr = ctx.attr("q_num_heads", None), ctx.attr("kv_num_heads", None)
    if rank == 3:
        if not qh_attr or not kvh_attr:
            ctx.refuse("3-D Q/K/V need the q_num_heads and kv_num_heads attributes")
        q = _heads_4d(ctx, q, qs, int(qh_attr), "Q")
        k = _heads_4d(ctx, k, ks, int(kvh_attr), "K")
        v = _heads_4d(ctx, v, vs, int(kvh_attr), "V")
    else:
        if (qh_attr and int(qh_attr) != qs[1]) or (kvh_attr and int(kvh_attr) != ks[1]):
            ctx.refuse(f"q_num_heads/kv_num_heads ({qh_attr}, {kvh_attr}) disagree with the 4-D shapes")
    past = 0  # the cached positions before this block: the causal / window frontier's offset
    if ctx.has_input(4):
        pk, pv = _static_shape(ctx, 4, "past_key"), _static_shape(ctx, 5, "past_value")
        if ctx.elem(4) != elem or ctx.elem(5) != elem:
            ctx.refuse("past_key/past_value must have Q's element type")
        kshape, vshape = _shape_of(k), _shape_of(v)
        if len(pk) != 4 or len(pv) != 4 or pk[:2] != kshape[:2] or pk[3] != kshape[3] or pv[:2] != vshape[:2] \
                or pv[3] != vshape[3] or pk[2] != pv[2]:
            ctx.invalid(f"past_key {pk} / past_value {pv} do not match K {kshape} / V {vshape}")
        past = pk[2]
        k = ge.concat([ctx.input(4), k], 2)
        v = ge.concat([ctx.input(5), v], 2)
    _, qh, _, hd = _shape_of(q)
    _, kvh, skv, hk = _shape_of(k)
    _, vh, sv, _ = _shape_of(v)
    if hk != hd or vh != kvh or sv != skv:
        ctx.invalid(f"inconsistent Q/K/V shapes {qs}, {ks}, {vs}")
    if qh % kvh:
        ctx.invalid(f"q_num_heads {qh} is not a multiple of kv_num_heads {kvh}")
    return rank, elem, q, k, v, past


def _kv_length_bias(ctx, elem: ir.Type, b: int, sq: int, skv: int, causal: bool, left: int,
                    right: int) -> ir.Value:
    """The [B, 1, sq, skv] bias of an external cache (nonpad_kv_seqlen, lengths known at run time):
    per batch, keys past the length are padding and the frontier is offset by length - sq."""
    lens = rt.as_i64(ctx.input(6))
    if ctx.input_type(6).shape != [b]:
        ctx.invalid(f"nonpad_kv_seqlen must have shape [{b}], got {ctx.input_type(6)}")
    lens4 = ge.reshape(ir.RankedTensorType.get([b, 1, 1, 1], rt.i64()), lens)
    jj = rt.i64_const(ctx, np.arange(skv).reshape(1, 1, 1, skv))
    allowed = ge.less(jj, lens4)
    if causal or left >= 0 or right >= 0:
        pos = ge.add(rt.i64_const(ctx, np.arange(sq).reshape(1, 1, sq, 1)),
                     ge.sub(lens4, rt.i64_const(ctx, sq)))  # i + offset[b]
        if causal:
            allowed = ge.and_(allowed, ge.less_equal(jj, pos))
        diff = ge.sub(pos, jj)
        if left >= 0:
            allowed = ge.and_(allowed, ge.less_equal(diff, rt.i64_const(ctx, left)))
        if right >= 0:
            allowed = ge.and_(allowed, ge.less_equal(ge.neg(diff), rt.i64_const(ctx, right)))
    return ge.where(allowed, _const(ctx, 0.0, elem), _const(ctx, -np.inf, elem))


def _attention_bias(ctx, elem: ir.Type, b: int, sq: int, skv: int, past: int):
    """The additive bias [.., sq, skv], as the reference builds it: the mask (bool -> 0 / -inf; padded
    with -inf up to skv), the causal frontier j <= i + offset and the sliding window around
    i + offset (offset: the past length, or per batch nonpad_kv_seqlen - sq), the padding of an
    external cache past nonpad_kv_seqlen. Returns (the bias as a ge value or None, its numpy value
    when it is known at import time, else None)."""
    npdt = numpy_dtype(elem)
    causal = bool(ctx.attr("is_causal", 0))
    left, right = int(ctx.attr("left_window_size", -1)), int(ctx.attr("right_window_size", -1))
    i_idx, j_idx = np.arange(sq).reshape(sq, 1), np.arange(skv).reshape(1, skv)

    def frontier(off) -> np.ndarray:
        allowed = np.ones((sq, skv), dtype=bool)
        if causal:
            allowed &= j_idx <= i_idx + off
        diff = i_idx + off - j_idx
        if left >= 0:
            allowed &= diff <= left
        if right >= 0:
            allowed &= -diff <= right
        return np.where(allowed, 0.0, -np.inf)

    const_bias = frontier(past) if (causal or left >= 0 or right >= 0) and not ctx.has_input(6) else None
    bias = None  # a ge value, when the mask or the cache lengths are run-time inputs
    if ctx.has_input(3):
        m_elem = ctx.elem(3)
        m_shape = _static_shape(ctx, 3, "attn_mask")
        if len(m_shape) < 1 or len(m_shape) > 4:
            ctx.refuse(f"attn_mask must have rank 1 to 4, got {len(m_shape)}")
        if str(m_elem) != "i1" and m_elem != elem:
            ctx.refuse(f"attn_mask of type {m_elem} is not supported: it must be bool or Q's type {elem}")
        pad = skv - m_shape[-1]
        if pad < 0:
            ctx.refuse(f"attn_mask's last dim {m_shape[-1]} exceeds the key sequence length {skv}")
        mc = ctx.const(3)
        if mc is not None:
            mc = np.asarray(mc)
            mb = np.where(mc, 0.0, -np.inf) if mc.dtype == np.bool_ else mc.astype(np.float64)
            if pad:
                mb = np.pad(mb, [(0, 0)] * (mb.ndim - 1) + [(0, pad)], constant_values=-np.inf)
            const_bias = mb if const_bias is None else mb + const_bias
        else:
            m = ctx.input(3)
            if str(m_elem) == "i1":
                m = ge.where(m, _const(ctx, 0.0, elem), _const(ctx, -np.inf, elem))
            if pad:
                m = ge.pad(m, [0] * len(m_shape) + [0] * (len(m_shape) - 1) + [pad], value=float("-inf"))
            bias = m if const_bias is None else ge.add(m, _const(ctx, const_bias.astype(npdt), elem))
            const_bias = None
    if ctx.has_input(6):
        lb = _kv_length_bias(ctx, elem, b, sq, skv, causal, left, right)
        if const_bias is not None:
            lb = ge.add(lb, _const(ctx, const_bias.astype(npdt), elem))
            const_bias = None
        bias = lb if bias is None else ge.add(bias, lb)
    if const_bias is not None:
        const_bias = const_bias.astype(npdt)
        bias = _const(ctx, const_bias, elem)
    return bias, const_bias


@converter("Attention", since=23,
           notes="3-D and 4-D Q/K/V, GQA, causal, bool/float masks, softcap, sliding windows; KV cache "
           "(past_key/past_value -> present_*), nonpad_kv_seqlen (run-time per-batch lengths) and "
           "qk_matmul_output (modes 0-3)")
def attention(ctx):
    rank, elem, q, k, v, past = _attention_inputs(ctx)
    present_k, present_v = k, v
    b, qh, sq, hd = _shape_of(q)
    _, kvh, skv, _ = _shape_of(k)
    hv = _shape_of(v)[3]
    softcap = float(ctx.attr("softcap", 0.0) or 0.0)
    if softcap < 0:
        ctx.refuse(f"softcap {softcap} is negative")
    mode = int(ctx.attr("qk_matmul_output_mode", 0) or 0)
    if mode not in (0, 1, 2, 3):
        ctx.invalid(f"qk_matmul_output_mode {mode} is not one of 0, 1, 2, 3")
    npdt = numpy_dtype(elem)
    bias, const_bias = _attention_bias(ctx, elem, b, sq, skv, past)

    # Scores: (Q * sqrt(scale)) @ (K * sqrt(scale))^T.
    scale = ctx.attr("scale", None)
    scale = 1 / np.sqrt(hd) if scale is None else scale
    s = npdt(np.sqrt(scale))
    sc = _const(ctx, s, elem)
    if qh != kvh:
        # Grouped-query attention: KV head j serves Q heads j*g .. j*g+g-1.
        idx = _const(ctx, np.arange(qh) // (qh // kvh), ir.IntegerType.get_signless(64))
        k, v = ge.gather(k, idx, axis=1), ge.gather(v, idx, axis=1)
    scores = ge.matmul(ge.mul(q, sc), ge.transpose(ge.mul(k, sc), [0, 1, 3, 2]))
    if softcap > 0:
        cap = _const(ctx, softcap, elem)
        scores = ge.mul(ge.tanh(ge.div(scores, cap)), cap)
    qk_out = scores
    if bias is not None:
        scores = ge.add(scores, bias)
    if mode == 2:
        qk_out = scores
    prec = ctx.attr("softmax_precision", None)
    sm_elem = element_type(int(prec)) if prec else elem
    if not _is_float(sm_elem):
        ctx.refuse(f"softmax_precision {sm_elem} must be a float type")
    probs = ge.softmax(_cast(scores, sm_elem), axis=-1)
    # Rows whose bias is -inf everywhere attend nothing: their probabilities are 0.
    if const_bias is not None:
        dead = np.isneginf(np.max(np.broadcast_to(const_bias, np.broadcast_shapes(const_bias.shape, (sq, skv))),
                                  axis=-1, keepdims=True))
        if dead.any():
            probs = ge.where(_const(ctx, dead, ir.IntegerType.get_signless(1)), _const(ctx, 0.0, sm_elem), probs)
    elif bias is not None:
        row_max = ge.reduce_max(bias, axes=[bias.type.rank - 1], keepdims=True)
        dead = ge.equal(row_max, _const(ctx, -np.inf, elem))
        probs = ge.where(dead, _const(ctx, 0.0, sm_elem), probs)
    if mode == 3:
        qk_out = probs
    probs = _cast(probs, elem)
    y = ge.matmul(probs, v)
    if rank == 3:
        y = _reshape(ge.transpose(y, [0, 2, 1, 3]), [b, sq, qh * hv])
    outs = [y,
            present_k if ctx.output_used(1) else None,
            present_v if ctx.output_used(2) else None,
            _cast(qk_out, elem) if ctx.output_used(3) else None]
    return outs[:max(1, ctx.num_outputs)]


# --- RotaryEmbedding ---------------------------------------------------------------------------


@converter("RotaryEmbedding", since=23, notes="3-D and 4-D inputs, interleaved or halves, partial rotation")
def rotary_embedding(ctx):
    rank = ctx.rank(0)
    if rank not in (3, 4):
        ctx.refuse(f"X must be 3-D or 4-D, got rank {rank}")
    xs = _static_shape(ctx, 0, "X")
    x = ctx.input(0)
    elem = ctx.elem(0)
    if rank == 3:
        heads = int(ctx.attr("num_heads", 0) or 0)
        if heads <= 0:
            ctx.refuse("3-D X needs the num_heads attribute")
        bsz, seq, hidden = xs
        if hidden % heads:
            ctx.invalid(f"hidden size {hidden} is not a multiple of num_heads {heads}")
        head = hidden // heads
        x4 = _reshape(x, [bsz, seq, heads, head])  # [B, S, heads, H]
        cache_axis = 2  # caches [B, S, d] -> [B, S, 1, d]
    else:
        bsz, heads, seq, head = xs  # [B, heads, S, H]: no transpose needed
        x4 = x
        cache_axis = 1  # caches [B, S, d] -> [B, 1, S, d]
    rd = int(ctx.attr("rotary_embedding_dim", 0) or 0) or head
    if rd % 2 or rd > head:
        ctx.refuse(f"rotary_embedding_dim {rd} must be even and at most the head size {head}")
    half = rd // 2

    def cache(i: int, what: str) -> ir.Value:
        cs = _static_shape(ctx, i, what)
        if cs[-1] != half:
            ctx.refuse(f"{what}'s last dim {cs[-1]} is not rotary_embedding_dim / 2 = {half}")
        if ctx.has_input(3):
            if len(cs) != 2:
                ctx.refuse(f"with position_ids, {what} must be 2-D [max_position, {half}], got {cs}")
            c, pos = ctx.const(i), ctx.const(3)
            if c is not None and pos is not None:
                # Both known: gather at import time.
                return ctx.constant(np.asarray(c)[np.asarray(pos)], elem)
            val = ge.gather(ctx.input(i), ctx.input(3), axis=0)
        else:
            if len(cs) != 3 or cs[1] != seq or cs[0] not in (1, bsz):
                ctx.refuse(f"without position_ids, {what} must be [batch, seq, {half}] = {[bsz, seq, half]} "
                           f"(or batch 1), got {cs}")
            val = ctx.input(i)
        return ge.unsqueeze(val, [cache_axis])

    cos, sin = cache(1, "cos_cache"), cache(2, "sin_cache")
    last = 3
    x_rot = x4 if rd == head else ge.slice(x4, [0], [rd], axes=[last])
    if ctx.attr("interleaved", 0):
        x1 = ge.slice(x_rot, [0], [rd], axes=[last], steps=[2])
        x2 = ge.slice(x_rot, [1], [rd], axes=[last], steps=[2])
    else:
        x1 = ge.slice(x_rot, [0], [half], axes=[last])
        x2 = ge.slice(x_rot, [half], [rd], axes=[last])
    real = ge.sub(ge.mul(cos, x1), ge.mul(sin, x2))
    imag = ge.add(ge.mul(sin, x1), ge.mul(cos, x2))
    if ctx.attr("interleaved", 0):
        pairs = ge.concat([ge.unsqueeze(real, [4]), ge.unsqueeze(imag, [4])], 4)
        rotated = _reshape(pairs, _shape_of(x_rot))
    else:
        rotated = ge.concat([real, imag], last)
    if rd < head:
        rotated = ge.concat([rotated, ge.slice(x4, [rd], [head], axes=[last])], last)
    return _reshape(rotated, xs)


# --- training optimizers (ai.onnx.preview.training) ------------------------------------------------

_TRAINING = "ai.onnx.preview.training"


def _optimizer_groups(ctx, per: int) -> int:
    n = (ctx.num_inputs - 2) // per
    if n < 1 or ctx.num_inputs != 2 + per * n:
        ctx.invalid(f"{ctx.op_type} takes R, T and {per} tensors per optimized input, got {ctx.num_inputs} inputs")
    for i in range(2, ctx.num_inputs):
        if not _is_float(ctx.elem(i)):
            ctx.refuse(f"{ctx.op_type} of {ctx.input_type(i)} is not supported")
    return n


def _optimizer_setup(ctx, per: int):
    """(groups, element type, constant maker, learning rate R as a rank-0 tensor of it)."""
    n = _optimizer_groups(ctx, per)
    elem = ctx.elem(2)
    r = _cast(ge.reshape(ir.RankedTensorType.get([], ctx.elem(0)), ctx.input(0)), elem)
    return n, elem, (lambda v: _const(ctx, v, elem)), r


def _t_positive(ctx, elem: ir.Type) -> tuple[ir.Value, ir.Value]:
    """``T > 0`` and ``T`` as ``elem`` (rank 0), T being the run-time iteration count."""
    t = ge.reshape(ir.RankedTensorType.get([], ctx.elem(1)), ctx.input(1))
    return ge.greater(t, _const(ctx, 0, ctx.elem(1))), _cast(t, elem)


@converter("Adagrad", since=1, domain=_TRAINING, notes="elementwise update, several tensors at once")
def adagrad(ctx):
    n, elem, c, r = _optimizer_setup(ctx, 3)
    _, t = _t_positive(ctx, elem)
    decay, eps = float(ctx.attr("decay_factor", 0.0)), float(ctx.attr("epsilon", 0.0))
    norm = float(ctx.attr("norm_coefficient", 0.0))
    r_adj = ge.div(r, ge.add(c(1.0), ge.mul(t, c(decay))))
    xs, hs = [], []
    for i in range(n):
        x, g, h = ctx.input(2 + i), ctx.input(2 + n + i), ctx.input(2 + 2 * n + i)
        g = ge.add(ge.mul(c(norm), x), g)
        h_new = ge.add(h, ge.mul(g, g))
        xs.append(ge.sub(x, ge.div(ge.mul(r_adj, g), ge.add(ge.sqrt(h_new), c(eps)))))
        hs.append(h_new)
    return xs + hs


@converter("Adam", since=1, domain=_TRAINING, notes="elementwise update with bias correction for T > 0")
def adam(ctx):
    n, elem, c, r = _optimizer_setup(ctx, 4)
    positive, t = _t_positive(ctx, elem)
    alpha, beta = float(ctx.attr("alpha", 0.9)), float(ctx.attr("beta", 0.999))
    eps = float(ctx.attr("epsilon", 0.0))
    norm, post = float(ctx.attr("norm_coefficient", 0.0)), float(ctx.attr("norm_coefficient_post", 0.0))
    corrected = ge.div(ge.mul(r, ge.sqrt(ge.sub(c(1.0), ge.pow(c(beta), t)))), ge.sub(c(1.0), ge.pow(c(alpha), t)))
    r_adj = ge.where(positive, corrected, r)
    xs, vs, hs = [], [], []
    for i in range(n):
        x, g = ctx.input(2 + i), ctx.input(2 + n + i)
        v, h = ctx.input(2 + 2 * n + i), ctx.input(2 + 3 * n + i)
        g = ge.add(ge.mul(c(norm), x), g)
        v_new = ge.add(ge.mul(c(alpha), v), ge.mul(c(1 - alpha), g))
        h_new = ge.add(ge.mul(c(beta), h), ge.mul(c(1 - beta), ge.mul(g, g)))
        x_new = ge.sub(x, ge.mul(r_adj, ge.div(v_new, ge.add(ge.sqrt(h_new), c(eps)))))
        xs.append(ge.mul(c(1 - post), x_new))
        vs.append(v_new)
        hs.append(h_new)
    return xs + vs + hs


@converter("Momentum", since=1, domain=_TRAINING, notes="standard and nesterov modes")
def momentum(ctx):
    n, elem, c, r = _optimizer_setup(ctx, 3)
    positive, _ = _t_positive(ctx, elem)
    alpha, beta = float(ctx.attr("alpha", 0.0)), float(ctx.attr("beta", 0.0))
    norm = float(ctx.attr("norm_coefficient", 0.0))
    mode = ctx.attr("mode", "standard")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if mode not in ("standard", "nesterov"):
        ctx.invalid(f"mode {mode!r} is not standard or nesterov")
    beta_adj = ge.where(positive, c(beta), c(1.0))  # the first step takes the whole gradient
    xs, vs = [], []
    for i in range(n):
        x, g, v = ctx.input(2 + i), ctx.input(2 + n + i), ctx.input(2 + 2 * n + i)
        g = ge.add(ge.mul(c(norm), x), g)
        v_new = ge.add(ge.mul(c(alpha), v), ge.mul(beta_adj, g))
        step = v_new if mode == "standard" else ge.add(g, ge.mul(c(alpha), v_new))
        xs.append(ge.sub(x, ge.mul(r, step)))
        vs.append(v_new)
    return xs + vs


# --- DynamicQuantizeLinear -------------------------------------------------------------------------


@converter("DynamicQuantizeLinear", since=11, notes="uint8; scale and zero point from the run-time range, "
           "in the reference's order (f32, rounding half to even)")
def dynamic_quantize_linear(ctx):
    if str(ctx.elem(0)) != "f32":
        ctx.refuse(f"x of type {ctx.input_type(0)} is not supported (float32)")
    f32, u8 = ir.F32Type.get(), ir.IntegerType.get_unsigned(8)
    c = lambda v: _const(ctx, v, f32)  # noqa: E731
    x = ctx.input(0)
    hi = ge.max(ge.reduce_max(x, keepdims=False), c(0.0))
    lo = ge.min(ge.reduce_min(x, keepdims=False), c(0.0))
    scale = ge.div(ge.where(ge.equal(hi, lo), c(1.0), ge.sub(hi, lo)), c(255.0))
    bound = lambda v: ge.clip(v, min=ir.FloatAttr.get(ir.F64Type.get(), 0.0),  # noqa: E731
                              max=ir.FloatAttr.get(ir.F64Type.get(), 255.0))
    zp = ge.round(bound(ge.sub(c(0.0), ge.div(lo, scale))))
    y = bound(ge.add(ge.round(ge.div(x, scale)), zp))
    return [_cast(y, u8), scale, _cast(zp, u8)]


# --- LRN --------------------------------------------------------------------------------------------


@converter("LRN", notes="the channel window's square sum from shifted slices of the zero-padded squares")
def lrn(ctx):
    shape = ctx.shape(0)
    if len(shape) < 3 or shape[1] < 0:
        ctx.refuse(f"LRN needs an input [N, C, ...] with a static C, got {ctx.input_type(0)}")
    if ctx.attr("size") is None or int(ctx.attr("size")) < 1:
        ctx.invalid(f"size must be a positive integer, got {ctx.attr('size')}")
    size = int(ctx.attr("size"))
    alpha, beta, bias = float(ctx.attr("alpha", 1e-4)), float(ctx.attr("beta", 0.75)), float(ctx.attr("bias", 1.0))
    c_ = shape[1]
    before, after = (size - 1) // 2, (size - 1) - (size - 1) // 2
    x = ctx.input(0)
    sq = ge.mul(x, x)
    rank = len(shape)
    padded = ge.pad(sq, [0, before] + [0] * (rank - 2) + [0, after] + [0] * (rank - 2))
    total = None
    for k in range(size):
        part = ge.slice(padded, [k], [k + c_], axes=[1])
        total = part if total is None else ge.add(total, part)
    denom = ge.pow(ge.add(ctx.scalar_like(bias), ge.mul(ctx.scalar_like(alpha / size), total)), ctx.scalar_like(beta))
    return ge.div(x, denom)
