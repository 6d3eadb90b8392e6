"""Elementwise ONNX ops: unary math/activations, broadcasting binary ops,
variadic Sum/Mean/Max/Min, Where, Cast, Clip and composite activations."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from ....irutils.types import narrow_float_max
from ..registry import converter
from ._shapes import _cast, _is_float

_UNARY = {
    "Abs": ge.abs, "Neg": ge.neg, "Exp": ge.exp, "Log": ge.log, "Sqrt": ge.sqrt, "Reciprocal": ge.reciprocal,
    "Tanh": ge.tanh, "Sigmoid": ge.sigmoid, "Relu": ge.relu, "Erf": ge.erf, "Sin": ge.sin, "Cos": ge.cos,
    "Floor": ge.floor, "Ceil": ge.ceil, "Round": ge.round, "Sign": ge.sign, "Not": ge.not_,
    "Softplus": ge.softplus, "HardSwish": ge.hard_swish, "Identity": ge.identity,
    "Acos": ge.acos, "Asin": ge.asin, "Atan": ge.atan, "BitwiseNot": ge.bitwise_not,
}


def _unary(fn):
    return lambda ctx: fn(ctx.input(0))


for _op, _fn in _UNARY.items():
    converter(_op)(_unary(_fn))

_BINARY = {
    "Add": ge.add, "Sub": ge.sub, "Mul": ge.mul, "Div": ge.div, "And": ge.and_, "Or": ge.or_, "Xor": ge.xor,
    "Equal": ge.equal, "Less": ge.less, "LessOrEqual": ge.less_equal, "Greater": ge.greater,
    "GreaterOrEqual": ge.greater_equal,
    "BitwiseAnd": ge.bitwise_and, "BitwiseOr": ge.bitwise_or, "BitwiseXor": ge.bitwise_xor,
}


def _binary(fn):
    return lambda ctx: fn(ctx.input(0), ctx.input(1))


for _op, _fn in _BINARY.items():
    converter(_op)(_binary(_fn))


@converter("BitShift", notes="direction LEFT or RIGHT; out-of-range shifts give the sign fill")
def bit_shift(ctx):
    direction = ctx.attr("direction", "")
    direction = direction.decode() if isinstance(direction, bytes) else direction
    if direction not in ("LEFT", "RIGHT"):
        ctx.invalid(f"direction must be LEFT or RIGHT, got {direction!r}")
    return ge.bit_shift(ctx.input(0), ctx.input(1), right=direction == "RIGHT")


@converter("Pow")
def pow_(ctx):
    base, exp = ctx.input(0), ctx.input(1)
    eb, ee = ctx.elem(0), ctx.elem(1)
    if eb == ee:
        return ge.pow(base, exp)
    if not _is_float(eb) and _is_float(ee):
        # int ** float: computed in the exponent's float type, then truncated
        # back to the base type (onnxruntime: 3 ** 2.5 -> 15).
        fb = ge.cast(ir.RankedTensorType.get(ctx.input_type(0).shape, ee), base)
        return ge.cast(ir.RankedTensorType.get(ctx.input_type(0).shape, eb), ge.pow(fb, exp))
    # float ** int, or int ** other int: the exponent converts exactly enough.
    return ge.pow(base, ge.cast(ir.RankedTensorType.get(ctx.input_type(1).shape, eb), exp))


@converter("Mod")
def mod(ctx):
    fmod = bool(ctx.attr("fmod", 0))
    x, y = ctx.input(0), ctx.input(1)
    if _is_float(ctx.elem(0)) and not fmod:
        # Floor mod on floats (numpy's %): fmod, plus y where the signs differ;
        # a zero takes y's sign. (x - y * floor(x / y) gives NaN for y = inf.)
        elem = ctx.elem(0)
        r = ge.mod(x, y, fmod=True)
        zero = ctx.constant(np.array(0.0), elem)
        differ = ge.xor(ge.less(r, zero), ge.less(y, zero))
        signed_zero = ge.where(ge.less(y, zero), ctx.constant(np.array(-0.0), elem), zero)
        return ge.where(ge.equal(r, zero), signed_zero, ge.where(differ, ge.add(r, y), r))
    return ge.mod(x, y, fmod=fmod)


@converter("Max", "Min", "Sum", "Mean")
def variadic(ctx):
    fn = {"Max": ge.max, "Min": ge.min, "Sum": ge.add, "Mean": ge.add}[ctx.op_type]
    vals = [v for v in ctx.inputs() if v is not None]
    acc = vals[0]
    for v in vals[1:]:
        acc = fn(acc, v)
    if ctx.op_type == "Mean" and len(vals) > 1:
        acc = ge.div(acc, ctx.scalar_like(len(vals)))
    return acc


@converter("Where")
def where(ctx):
    return ge.where(ctx.input(0), ctx.input(1), ctx.input(2))


#: The float8 types whose ONNX casts saturate (to their largest finite value) unless saturate=0.
F8_SATURATING = ("f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ")


def cast_saturating(ctx, x: ir.Value, elem: ir.Type, saturate: bool) -> ir.Value:
    """ONNX Cast/CastLike to ``elem``. ge.cast to float8 rounds to nearest even and overflows to
    inf (E5M2) or NaN (the FN/FNUZ types); a saturating cast (ONNX's default) clips to the finite
    range first, as the reference does (NaN stays NaN). Float4 saturates by itself."""
    name, src = str(elem), x.type.element_type
    if name == "f8E8M0FNU" and str(src) != name:
        return _to_e8m0(ctx, x, saturate, str(ctx.attr("round_mode", "up")))
    if name in F8_SATURATING and saturate and str(src) != name:
        if not _is_float(src):
            # Integers clip in f32 (exact up to 2^24, far past every float8 range); another
            # narrow float is exact in f32.
            x = _cast(x, ir.F32Type.get())
        f64, top = ir.F64Type.get(), narrow_float_max(name)
        x = ge.clip(x, min=ir.FloatAttr.get(f64, -top), max=ir.FloatAttr.get(f64, top))
    return _cast(x, elem)


def _to_e8m0(ctx, x: ir.Value, saturate: bool, mode: str) -> ir.Value:
    """FLOAT8E8M0 (a biased power of two) as the reference computes it (``to_float8e8m0``): the f32
    exponent field, rounded up by the fraction per ``round_mode`` (``up``: any fraction;
    ``nearest``: guard bit and (round, sticky or a non-zero exponent, which the reference calls
    its lsb); ``down``: never), not past 254
    when saturating; NaN and inf give 255. Built from ge.bitcast and integer ops."""
    if mode not in ("up", "down", "nearest"):
        ctx.invalid(f"round_mode must be up, down or nearest, got {mode!r}")
    shape = list(x.type.shape)
    i32, f32 = ir.IntegerType.get_signless(32), ir.F32Type.get()

    def t(elem):
        return ir.RankedTensorType.get(shape, elem)

    def c(v):
        return ctx.constant(np.array(v, np.int32))

    def bits_set(mask):
        return ge.not_(ge.equal(ge.bitwise_and(bits, c(mask)), c(0)))

    bits = ge.bitcast(t(i32), _cast(x, f32))
    exponent = ge.bitwise_and(ge.bit_shift(bits, c(23), right=True), c(0xFF))
    special = ge.equal(exponent, c(0xFF))
    if mode == "up":
        up = bits_set(0x7FFFFF)
    elif mode == "nearest":
        up = ge.and_(bits_set(0x400000), ge.or_(ge.or_(bits_set(0x200000), bits_set(0x1FFFFF)),
                                                 ge.greater(exponent, c(0))))
    else:
        up = None
    if up is not None:
        up = ge.and_(up, ge.not_(special))
        if saturate:
            up = ge.and_(up, ge.not_(ge.equal(exponent, c(0xFE))))
        exponent = ge.add(exponent, _cast(up, i32))
    code = ge.where(special, c(0xFF), exponent)
    return ge.bitcast(t(ir.Type.parse("f8E8M0FNU")), _cast(code, ir.Type.parse("ui8")))


@converter("Cast", notes="float8 (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ; saturating or not), float4 E2M1, "
                         "int4/uint4, int2/uint2, FLOAT8E8M0 (round_mode up/down/nearest, bit-exact)")
def cast(ctx):
    from ..registry import element_type

    return cast_saturating(ctx, ctx.input(0), element_type(ctx.attr("to")), bool(int(ctx.attr("saturate", 1))))


@converter("BitCast", since=26, notes="the same bits in a type of the same width (a bool is its byte)")
def bitcast(ctx):
    from ..registry import element_type

    x = ctx.input(0)
    to = element_type(ctx.attr("to"))
    src = x.type.element_type

    def bits(t: ir.Type) -> int:
        w = ir.FloatType(t).width if isinstance(t, ir.FloatType) else ir.IntegerType(t).width
        return 8 if w == 1 else w

    if bits(src) != bits(to):
        ctx.invalid(f"BitCast from {src} ({bits(src)} bits) to {to} ({bits(to)} bits): the widths must agree")
    if src == to:
        return x
    return ge.bitcast(ir.RankedTensorType.get(x.type.shape, to), x)


@converter("CastLike", notes="as Cast")
def cast_like(ctx):
    return cast_saturating(ctx, ctx.input(0), ctx.elem(1), bool(int(ctx.attr("saturate", 1))))


@converter("Clip", notes="min/max constants become attributes; run-time ones ge.max/ge.min")
def clip(ctx):
    if ctx.opset < 11:
        lo, hi = ctx.attr("min"), ctx.attr("max")
    else:
        lo = ctx.const(1) if ctx.has_input(1) else None
        hi = ctx.const(2) if ctx.has_input(2) else None
        run_lo = ctx.has_input(1) and lo is None
        run_hi = ctx.has_input(2) and hi is None
        if run_lo or run_hi:
            # Bounds given at run time: min(max(x, lo), hi), which is also ONNX's "every value
            # becomes max" when min > max, and keeps NaN.
            y = ctx.input(0)
            if run_lo:
                y = ge.max(y, ctx.input(1))
            elif lo is not None:
                y = ge.clip(y, min=ir.FloatAttr.get(ir.F64Type.get(), float(np.asarray(lo).reshape(-1)[0])))
            if run_hi:
                y = ge.min(y, ctx.input(2))
            elif hi is not None:
                y = ge.clip(y, max=ir.FloatAttr.get(ir.F64Type.get(), float(np.asarray(hi).reshape(-1)[0])))
            return y
    lo = None if lo is None else float(np.asarray(lo).reshape(-1)[0])
    hi = None if hi is None else float(np.asarray(hi).reshape(-1)[0])
    if lo is not None and hi is not None and lo > hi:
        lo = hi  # ONNX: with min > max every value becomes max
    kw = {}
    if lo is not None:
        kw["min"] = ir.FloatAttr.get(ir.F64Type.get(), lo)
    if hi is not None:
        kw["max"] = ir.FloatAttr.get(ir.F64Type.get(), hi)
    return ge.clip(ctx.input(0), **kw)


@converter("LeakyRelu")
def leaky_relu(ctx):
    return ge.leaky_relu(ctx.input(0), alpha=ir.FloatAttr.get_f32(ctx.attr("alpha", 0.01)))


@converter("HardSigmoid")
def hard_sigmoid(ctx):
    return ge.hard_sigmoid(
        ctx.input(0), alpha=ir.FloatAttr.get_f32(ctx.attr("alpha", 0.2)), beta=ir.FloatAttr.get_f32(ctx.attr("beta", 0.5))
    )


@converter("Gelu", since=20)
def gelu(ctx):
    return ge.gelu(ctx.input(0), tanh_approx=ctx.attr("approximate", "none") == "tanh")


def _all_false(x: ir.Value) -> ir.Value:
    # x < x is false everywhere (NaN included) and works with dynamic shapes.
    return ge.less(x, x)


@converter("Dropout")
def dropout(ctx):
    # Inference: identity; the optional mask output is all true.
    if ctx.opset >= 12 and ctx.has_input(2):
        mode = ctx.const(2)
        if mode is None or bool(np.asarray(mode).reshape(-1)[0]):
            ctx.refuse("training_mode is true or not constant: training-mode (random) dropout is not imported")
    elif ctx.opset < 7 and not ctx.attr("is_test", 0):
        ctx.refuse("is_test=0: training-mode dropout is not imported")
    x = ctx.input(0)
    outs = [ge.identity(x)]
    if ctx.num_outputs > 1 and ctx.node.output[1]:
        mask = ge.not_(_all_false(x))
        if ctx.opset < 10:
            # Dropout-7..9: the mask has the input's type.
            mask = ge.cast(x.type, mask)
        outs.append(mask)
    return outs


# --- composite activations (expressed with ge ops) ----------------------


@converter("Elu")
def elu(ctx):
    x = ctx.input(0)
    alpha = ctx.attr("alpha", 1.0)
    neg = ge.mul(ctx.scalar_like(alpha), ge.sub(ge.exp(x), ctx.scalar_like(1.0)))
    return ge.where(ge.greater(x, ctx.scalar_like(0.0)), x, neg)


@converter("Selu")
def selu(ctx):
    x = ctx.input(0)
    alpha, gamma = ctx.attr("alpha", 1.67326319217681884765625), ctx.attr("gamma", 1.05070102214813232421875)
    neg = ge.mul(ctx.scalar_like(alpha), ge.sub(ge.exp(x), ctx.scalar_like(1.0)))
    return ge.mul(ctx.scalar_like(gamma), ge.where(ge.greater(x, ctx.scalar_like(0.0)), x, neg))


@converter("Celu")
def celu(ctx):
    x = ctx.input(0)
    alpha = ctx.attr("alpha", 1.0)
    a = ctx.scalar_like(alpha)
    neg = ge.mul(a, ge.sub(ge.exp(ge.div(x, a)), ctx.scalar_like(1.0)))
    return ge.add(ge.max(x, ctx.scalar_like(0.0)), ge.min(ctx.scalar_like(0.0), neg))


@converter("ThresholdedRelu")
def thresholded_relu(ctx):
    x = ctx.input(0)
    return ge.where(ge.greater(x, ctx.scalar_like(ctx.attr("alpha", 1.0))), x, ctx.scalar_like(0.0))


@converter("PRelu")
def prelu(ctx):
    x, slope = ctx.input(0), ctx.input(1)
    return ge.where(ge.less(x, ctx.scalar_like(0.0)), ge.mul(x, slope), x)


@converter("Softsign")
def softsign(ctx):
    x = ctx.input(0)
    return ge.div(x, ge.add(ge.abs(x), ctx.scalar_like(1.0)))


@converter("Mish", since=18)
def mish(ctx):
    x = ctx.input(0)
    return ge.mul(x, ge.tanh(ge.softplus(x)))


@converter("Swish", since=24)
def swish(ctx):
    x = ctx.input(0)
    alpha = ctx.attr("alpha", 1.0)
    if alpha == 1.0:
        return ge.silu(x)
    return ge.mul(x, ge.sigmoid(ge.mul(x, ctx.scalar_like(alpha))))


@converter("SwiGLU", since=26, notes="swish_alpha(a) * b (same shapes)")
def swiglu(ctx):
    a, b = ctx.input(0), ctx.input(1)
    if ctx.input_type(0) != ctx.input_type(1):
        ctx.invalid(f"A {ctx.input_type(0)} and B {ctx.input_type(1)} must have the same type (no broadcasting)")
    alpha = float(ctx.attr("alpha", 1.0))
    gate = ge.silu(a) if alpha == 1.0 else ge.mul(a, ge.sigmoid(ge.mul(a, ctx.scalar_like(alpha))))
    return ge.mul(gate, b)


@converter("Tan")
def tan(ctx):
    x = ctx.input(0)
    return ge.div(ge.sin(x), ge.cos(x))


@converter("Sinh", "Cosh")
def sinh_cosh(ctx):
    x = ctx.input(0)
    ep, en = ge.exp(x), ge.exp(ge.neg(x))
    both = ge.sub(ep, en) if ctx.op_type == "Sinh" else ge.add(ep, en)
    return ge.mul(both, ctx.scalar_like(0.5))


@converter("Shrink")
def shrink(ctx):
    x = ctx.input(0)
    bias, lambd = ctx.attr("bias", 0.0), ctx.attr("lambd", 0.5)
    unsigned = str(ctx.elem(0)).startswith("ui")
    lo = None if unsigned else ge.add(x, ctx.scalar_like(bias))  # x < -lambd never holds unsigned
    hi = ge.sub(x, ctx.scalar_like(bias))
    inner = ge.where(ge.greater(x, ctx.scalar_like(lambd)), hi, ctx.scalar_like(0.0))
    if unsigned:
        return inner
    return ge.where(ge.less(x, ctx.scalar_like(-lambd)), lo, inner)


@converter("IsNaN")
def isnan(ctx):
    x = ctx.input(0)
    return ge.not_(ge.equal(x, x))


@converter("IsInf")
def isinf(ctx):
    x = ctx.input(0)
    pos, neg = ctx.attr("detect_positive", 1), ctx.attr("detect_negative", 1)
    if pos and neg:
        return ge.equal(ge.abs(x), ctx.scalar_like(np.inf))
    if pos:
        return ge.equal(x, ctx.scalar_like(np.inf))
    if neg:
        return ge.equal(x, ctx.scalar_like(-np.inf))
    return _all_false(x)

