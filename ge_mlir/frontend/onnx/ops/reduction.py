"""Reduction ONNX ops: the Reduce* family, ArgMax/ArgMin and CumSum.

Where the reduction axes live depends on the op and the opset (checked
against ``onnx.defs.get_schema``): an ``axes`` attribute up to ReduceSum-11
and up to opset 17 for every other Reduce* op, then an optional ``axes``
input, which must be known at import time, together with the
``noop_with_empty_axes`` attribute.

Empty axes reduce over every axis, unless ``noop_with_empty_axes`` is set (input
form only): then nothing is reduced, but the composite ops still apply their
elementwise steps, as the ONNX spec says (ReduceSumSquare gives x*x,
ReduceL1 and ReduceL2 give |x|, ReduceLogSum gives log(x), ReduceLogSumExp
gives x).

Composites: ReduceL1 = reduce_sum(abs(x)), ReduceSumSquare = reduce_sum(x*x),
ReduceLogSum = log(reduce_sum(x)), and ReduceLogSumExp = m + log(reduce_sum(exp(x
- m))) with m = reduce_max(x) for stability; m is replaced by 0 where it is
infinite, so that a slice of only -inf gives -inf and a slice holding +inf
gives +inf instead of NaN. Integer ReduceL2 is computed in f64 and cast back
(as ONNX's reference does); integer ReduceLogSum(Exp), dropped from the
schema in opset 28, is refused.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from ..registry import converter
from ._shapes import _cast, _is_float

#: First opset in which each op's axes is an input instead of an attribute.
AXES_INPUT_SINCE = {
    "ReduceSum": 13,
    "ReduceMean": 18,
    "ReduceMax": 18,
    "ReduceMin": 18,
    "ReduceProd": 18,
    "ReduceL1": 18,
    "ReduceL2": 18,
    "ReduceSumSquare": 18,
    "ReduceLogSum": 18,
    "ReduceLogSumExp": 18,
}

_NOOP = object()  # _axes(): noop_with_empty_axes with empty axes


def _is_bool(t: ir.Type) -> bool:
    return str(t) == "i1"


def _normalize_axis(ctx, axis: int, rank: int, what: str) -> int:
    # Rank-0 tensors accept axis 0/-1 (as the ge ops do).
    r = max(rank, 1)
    if not -r <= axis < r:
        ctx.invalid(f"{what} {axis} is out of range for a rank-{rank} input (valid: [{-r}, {r - 1}])")
    return axis + r if axis < 0 else axis


def _axes(ctx):
    """The normalized, sorted, distinct axes to reduce; [] for all axes; _NOOP for none."""
    rank = ctx.rank(0)
    if ctx.opset >= AXES_INPUT_SINCE[ctx.op_type]:
        if ctx.attr("axes") is not None:
            ctx.refuse(f"{ctx.op_type}-{ctx.opset} takes axes as input #1, not as an attribute")
        raw = ctx.require_const(1, "axes") if ctx.has_input(1) else None
        axes = [] if raw is None else [int(a) for a in np.asarray(raw).reshape(-1)]
        if not axes and ctx.attr("noop_with_empty_axes", 0):
            return _NOOP
    else:
        axes = [int(a) for a in (ctx.attr("axes") or [])]
    # A repeated axis (e.g. [1, -1] at rank 2) is reduced once, as onnxruntime does.
    norm = {_normalize_axis(ctx, a, rank, "axis") for a in axes}
    if rank == 0:
        return []
    return sorted(norm)


def _keepdims(ctx) -> bool:
    return bool(ctx.attr("keepdims", 1))


def _reduce(fn, x: ir.Value, axes: list[int], keepdims: bool) -> ir.Value:
    return fn(x, axes=axes, keepdims=keepdims)


_SIMPLE = {
    "ReduceSum": ge.reduce_sum,
    "ReduceMean": ge.reduce_mean,
    "ReduceMax": ge.reduce_max,
    "ReduceMin": ge.reduce_min,
    "ReduceProd": ge.reduce_prod,
}


def reduce_simple(ctx):
    axes = _axes(ctx)
    x = ctx.input(0)
    if axes is _NOOP:
        return ge.identity(x)
    return _reduce(_SIMPLE[ctx.op_type], x, axes, _keepdims(ctx))


for _op in ("ReduceSum", "ReduceMean", "ReduceProd"):
    converter(_op, since=11, notes=f"axes input (opset {AXES_INPUT_SINCE[_op]}+) must be constant")(reduce_simple)


@converter(
    "ReduceMax", "ReduceMin", since=11,
    notes="axes input (opset 18+) must be constant; bool input (opset 20+) via cast to ui8",
)
def reduce_max_min(ctx):
    axes = _axes(ctx)
    x = ctx.input(0)
    if axes is _NOOP:
        return ge.identity(x)
    fn = _SIMPLE[ctx.op_type]
    elem = ctx.elem(0)
    if _is_bool(elem):
        # False < True: max is `any`, min is `all`; ge reductions are numeric only.
        r = _reduce(fn, _cast(x, ir.IntegerType.get_unsigned(8)), axes, _keepdims(ctx))
        return _cast(r, elem)
    return _reduce(fn, x, axes, _keepdims(ctx))


@converter("ReduceL1", since=11, notes="reduce_sum(abs(x)); axes input (opset 18+) must be constant")
def reduce_l1(ctx):
    axes = _axes(ctx)
    a = ge.abs(ctx.input(0))
    if axes is _NOOP:
        return a
    return _reduce(ge.reduce_sum, a, axes, _keepdims(ctx))


@converter("ReduceSumSquare", since=11, notes="reduce_sum(x*x); axes input (opset 18+) must be constant")
def reduce_sum_square(ctx):
    axes = _axes(ctx)
    x = ctx.input(0)
    sq = ge.mul(x, x)
    if axes is _NOOP:
        return sq
    return _reduce(ge.reduce_sum, sq, axes, _keepdims(ctx))


@converter(
    "ReduceL2", since=11,
    notes="axes input (opset 18+) must be constant; integer input computed in f64 and cast back (truncates)",
)
def reduce_l2(ctx):
    axes = _axes(ctx)
    x = ctx.input(0)
    if axes is _NOOP:
        return ge.abs(x)  # sqrt(x*x)
    elem = ctx.elem(0)
    if _is_float(elem):
        return _reduce(ge.reduce_l2, x, axes, _keepdims(ctx))
    # ge.reduce_l2 is float-only; ONNX (and its reference) compute in floating
    # point and convert the result back to the input type.
    r = _reduce(ge.reduce_l2, _cast(x, ir.F64Type.get()), axes, _keepdims(ctx))
    return _cast(r, elem)


def _require_float(ctx) -> None:
    if not _is_float(ctx.elem(0)):
        ctx.refuse(
            f"{ctx.op_type} of {ctx.elem(0)} input is not supported (integer types were removed "
            "from the schema in opset 28); cast the input to a float type"
        )


@converter("ReduceLogSum", since=11, notes="log(reduce_sum(x)); float input only; axes input (opset 18+) must be constant")
def reduce_log_sum(ctx):
    _require_float(ctx)
    axes = _axes(ctx)
    x = ctx.input(0)
    if axes is _NOOP:
        return ge.log(x)
    return ge.log(_reduce(ge.reduce_sum, x, axes, _keepdims(ctx)))


@converter(
    "ReduceLogSumExp", since=11,
    notes="m + log(reduce_sum(exp(x - m))), m = reduce_max(x); float input only; "
    "axes input (opset 18+) must be constant",
)
def reduce_log_sum_exp(ctx):
    _require_float(ctx)
    axes = _axes(ctx)
    x = ctx.input(0)
    if axes is _NOOP:
        return ge.identity(x)  # log(exp(x)), without the overflow
    keepdims = _keepdims(ctx)
    rank = ctx.rank(0)
    m = _reduce(ge.reduce_max, x, axes, True)
    # An infinite max (all -inf, or some +inf) would make x - m NaN: shift by 0.
    m = ge.where(ge.equal(ge.abs(m), ctx.scalar_like(np.inf)), ctx.scalar_like(0.0), m)
    s = _reduce(ge.reduce_sum, ge.exp(ge.sub(x, m)), axes, keepdims)
    if not keepdims and rank > 0:
        m = ge.squeeze(m, axes=axes or list(range(rank)))
    return ge.add(m, ge.log(s))


@converter("ArgMax", "ArgMin", since=11, notes="select_last_index (opset 12+) supported")
def arg_reduce(ctx):
    rank = ctx.rank(0)
    axis = _normalize_axis(ctx, int(ctx.attr("axis", 0)), rank, "axis")
    fn = ge.argmax if ctx.op_type == "ArgMax" else ge.argmin
    return fn(
        ctx.input(0), axis,
        keepdims=bool(ctx.attr("keepdims", 1)),
        select_last_index=bool(ctx.attr("select_last_index", 0)),
    )


@converter("CumSum", since=11, notes="axis input must be constant")
@converter("CumProd", since=26, notes="axis input must be constant")
def cumsum(ctx):
    raw = np.asarray(ctx.require_const(1, "axis"))
    if raw.size != 1:
        ctx.invalid(f"axis must be a single integer, got shape {list(raw.shape)}")
    axis = _normalize_axis(ctx, int(raw.reshape(-1)[0]), ctx.rank(0), "axis")
    return (ge.cumprod if ctx.op_type == "CumProd" else ge.cumsum)(
        ctx.input(0), axis,
        exclusive=bool(ctx.attr("exclusive", 0)),
        reverse=bool(ctx.attr("reverse", 0)),
    )
