"""Elementwise ATen ops: arithmetic with torch's type promotion, comparisons, unary math, casts.

Arithmetic is computed in the node's result dtype (what torch's promotion gave it); Python scalars
become rank-0 constants of that dtype. Comparisons compute in ``torch.result_type`` of their operands.
"""

from __future__ import annotations

from mlir import ir

from ....dialects import ge
from ..registry import FxContext, converter

import torch

aten = torch.ops.aten


def _promoted(cx: FxContext, a, b):
    va = cx.val(a) if cx.is_node(a) else a
    vb = cx.val(b) if cx.is_node(b) else b
    return torch.result_type(va, vb)


def _operands(cx: FxContext, dtype) -> tuple[ir.Value, ir.Value]:
    a, b = cx.arg(0), cx.arg(1, "other")
    return cx.cast(cx.value(a, dtype), dtype), cx.cast(cx.value(b, dtype), dtype)


def _binary(builder):
    def convert(cx: FxContext):
        dtype = cx.dtype()
        a, b = _operands(cx, dtype)
        return builder(a, b)
    return convert


for _target, _builder in [
    (aten.mul, ge.mul), (aten.div.Tensor, ge.div), (aten.div.Scalar, ge.div),
    (aten.maximum, ge.max), (aten.minimum, ge.min), (aten.pow.Tensor_Tensor, ge.pow),
    (aten.pow.Tensor_Scalar, ge.pow),
]:
    converter(_target)(_binary(_builder))


@converter(aten.add, aten.sub)
def add_sub(cx: FxContext):
    dtype = cx.dtype()
    a, b = _operands(cx, dtype)
    alpha = cx.kwargs.get("alpha", cx.arg(2))
    if alpha is not None and alpha != 1:
        b = ge.mul(b, cx.constant(alpha, dtype))
    return ge.add(a, b) if cx.node.target.overloadpacket is aten.add else ge.sub(a, b)


@converter(aten.rsub)
def rsub(cx: FxContext):
    dtype = cx.dtype()
    a, b = _operands(cx, dtype)
    alpha = cx.kwargs.get("alpha", cx.arg(2))
    if alpha is not None and alpha != 1:
        a = ge.mul(a, cx.constant(alpha, dtype))
    return ge.sub(b, a)


@converter(aten.pow.Scalar)
def pow_scalar(cx: FxContext):
    dtype = cx.dtype()
    return ge.pow(cx.constant(cx.arg(0), dtype), cx.cast(cx.value(cx.arg(1)), dtype))


@converter(aten.div.Tensor_mode, aten.floor_divide)
def div_mode(cx: FxContext):
    dtype = cx.dtype()
    a, b = _operands(cx, dtype)
    mode = cx.kwargs.get("rounding_mode", cx.arg(2)) if cx.node.target is aten.div.Tensor_mode else "floor"
    q = ge.div(a, b)
    if dtype.is_floating_point:
        return ge.floor(q) if mode == "floor" else q if mode is None else _trunc(q)
    if mode == "trunc":
        return q  # ge.div of integers truncates (ONNX Div)
    # floor: (a - mod(a, b)) / b is exact, with mod taking the divisor's sign (Python's %)
    return ge.div(ge.sub(a, ge.mod(a, b)), b)


def _trunc(q: ir.Value) -> ir.Value:
    return ge.mul(ge.sign(q), ge.floor(ge.abs(q)))


@converter(aten.remainder, aten.fmod)
def remainder(cx: FxContext):
    dtype = cx.dtype()
    a, b = _operands(cx, dtype)
    fmod = cx.node.target.overloadpacket is aten.fmod or dtype.is_floating_point
    if dtype.is_floating_point and cx.node.target.overloadpacket is aten.remainder:
        # Python's % on floats: a - floor(a / b) * b (sign of the divisor)
        return ge.sub(a, ge.mul(ge.floor(ge.div(a, b)), b))
    return ge.mod(a, b, fmod=fmod)


def _compare(builder, negate: bool = False):
    def convert(cx: FxContext):
        a, b = cx.arg(0), cx.arg(1)
        dtype = _promoted(cx, a, b)
        x = cx.cast(cx.value(a, dtype), dtype)
        y = cx.cast(cx.value(b, dtype), dtype)
        r = builder(x, y)
        return ge.not_(r) if negate else r
    return convert


for _packet, _builder, _neg in [
    (aten.eq, ge.equal, False), (aten.ne, ge.equal, True), (aten.lt, ge.less, False),
    (aten.le, ge.less_equal, False), (aten.gt, ge.greater, False), (aten.ge, ge.greater_equal, False),
]:
    converter(_packet)(_compare(_builder, _neg))


def _logical(builder, bitwise=None):
    def convert(cx: FxContext):
        bool_ = torch.bool
        if bitwise is not None and cx.dtype() != bool_:
            dtype = cx.dtype()
            a, b = _operands(cx, dtype)
            return bitwise(a, b)
        a = cx.value(cx.arg(0))
        b = cx.value(cx.arg(1), bool_)
        return builder(_truth(cx, a), _truth(cx, b))
    return convert


def _truth(cx: FxContext, v: ir.Value) -> ir.Value:
    if str(v.type.element_type) == "i1":
        return v
    zero = cx.constant(0, _dtype_of(v))
    return ge.not_(ge.equal(v, zero))


def _dtype_of(v: ir.Value):
    table = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "i64": torch.int64,
             "i32": torch.int32, "i1": torch.bool, "i8": torch.int8, "ui8": torch.uint8, "i16": torch.int16}
    return table[str(v.type.element_type)]


converter(aten.logical_and)(_logical(ge.and_))
converter(aten.bitwise_and)(_logical(ge.and_, ge.bitwise_and))
converter(aten.logical_or)(_logical(ge.or_))
converter(aten.bitwise_or)(_logical(ge.or_, ge.bitwise_or))


@converter(aten.logical_not, aten.bitwise_not)
def logical_not(cx: FxContext):
    v = cx.value(cx.arg(0))
    if str(v.type.element_type) == "i1":
        return ge.not_(v)
    if cx.node.target.overloadpacket is aten.bitwise_not:
        return ge.bitwise_not(v)
    return ge.not_(_truth(cx, v))


_UNARY = {
    aten.neg: ge.neg, aten.exp: ge.exp, aten.log: ge.log, aten.sqrt: ge.sqrt, aten.rsqrt: ge.rsqrt,
    aten.reciprocal: ge.reciprocal, aten.tanh: ge.tanh, aten.sigmoid: ge.sigmoid, aten.relu: ge.relu,
    aten.silu: ge.silu, aten.abs: ge.abs, aten.erf: ge.erf, aten.sin: ge.sin, aten.cos: ge.cos,
    aten.floor: ge.floor, aten.ceil: ge.ceil, aten.sign: ge.sign, aten.round.default: ge.round,
}


def _unary(builder):
    def convert(cx: FxContext):
        return builder(cx.cast(cx.value(cx.arg(0)), cx.dtype()))
    return convert


for _packet, _builder in _UNARY.items():
    converter(_packet)(_unary(_builder))


@converter(aten.gelu)
def gelu(cx: FxContext):
    approx = cx.kwargs.get("approximate", cx.arg(1, default="none"))
    if approx not in ("none", "tanh"):
        cx.refuse(f"approximate={approx!r}")
    return ge.gelu(cx.value(cx.arg(0)), tanh_approx=approx == "tanh")


@converter(aten.log1p)
def log1p(cx: FxContext):
    x = cx.value(cx.arg(0))
    return ge.log(ge.add(x, cx.constant(1.0, cx.dtype())))


@converter(aten.expm1)
def expm1(cx: FxContext):
    x = cx.value(cx.arg(0))
    return ge.sub(ge.exp(x), cx.constant(1.0, cx.dtype()))


def _f64(v) -> ir.FloatAttr | None:
    return None if v is None else ir.FloatAttr.get(ir.F64Type.get(), float(v))


@converter(aten.clamp, aten.clamp_min, aten.clamp_max)
def clamp(cx: FxContext):
    x = cx.cast(cx.value(cx.arg(0)), cx.dtype())
    packet = cx.node.target.overloadpacket
    lo = cx.arg(1, "min") if packet in (aten.clamp, aten.clamp_min) else None
    hi = (cx.arg(2, "max") if packet is aten.clamp else cx.arg(1, "max") if packet is aten.clamp_max else None)
    if cx.is_node(lo) or cx.is_node(hi):
        if cx.is_node(lo) or lo is not None:
            x = ge.max(x, cx.cast(cx.value(lo, cx.dtype()), cx.dtype()))
        if cx.is_node(hi) or hi is not None:
            x = ge.min(x, cx.cast(cx.value(hi, cx.dtype()), cx.dtype()))
        return x
    return ge.clip(x, min=_f64(lo), max=_f64(hi))


@converter(aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther, aten.where.Scalar)
def where(cx: FxContext):
    dtype = cx.dtype()
    cond = _truth(cx, cx.value(cx.arg(0)))
    return ge.where(cond, cx.cast(cx.value(cx.arg(1), dtype), dtype), cx.cast(cx.value(cx.arg(2), dtype), dtype))


@converter(aten.masked_fill.Scalar, aten.masked_fill.Tensor)
def masked_fill(cx: FxContext):
    dtype = cx.dtype()
    x = cx.cast(cx.value(cx.arg(0)), dtype)
    return ge.where(_truth(cx, cx.value(cx.arg(1))), cx.cast(cx.value(cx.arg(2), dtype), dtype), x)


@converter(aten._to_copy, aten.clone, aten.alias, aten.detach, aten.lift_fresh_copy,
           torch.ops.prims.convert_element_type)
def copy_like(cx: FxContext):
    """Values are immutable in ge: a copy is the value itself, cast when the dtype changes."""
    kw = {k: v for k, v in cx.kwargs.items() if k not in ("dtype", "memory_format", "layout", "device", "pin_memory")}
    if kw.get("non_blocking") not in (None, False):
        cx.refuse(f"unsupported keyword(s) {sorted(kw)}")
    return cx.cast(cx.value(cx.arg(0)), cx.dtype())
