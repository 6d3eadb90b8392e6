"""Reduction ONNX ops: the Reduce* family, ArgMax/ArgMin and CumSum.

Where the reduction axes live depends on the op and the opset (checked
against ``onnx.defs.get_schema``): an ``axes`` attribute up to ReduceSum-11
and up to opset 17 for every other Reduce* op, then an optional ``axes``
input together with the ``noop_with_empty_axes`` attribute.

A run-time ``axes`` input (a graph input, compiled once) needs a static length, which fixes the
result's rank. The reduction then runs one axis at a time: each step reduces along its axis and
keeps the reduced or the unreduced tensor by the run-time flag of that axis (see ``_runtime``);
sum, max, min, prod and L2 compose that way, mean is the sum divided by the run-time element
count, and without ``keepdims`` the flagged dims are dropped by a run-time reshape. Repeated
run-time axes make that reshape fail the call (onnxruntime reduces such an axis once).

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
from . import _runtime as rt
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


class _RuntimeAxes:
    """Axes given at run time (a tensor value; ``count`` of them)."""

    def __init__(self, ctx, value: ir.Value, count: int) -> None:
        self.ctx, self.value, self.count = ctx, value, count


def _is_bool(t: ir.Type) -> bool:
    return str(t) == "i1"


def _normalize_axis(ctx, axis: int, rank: int, what: str) -> int:
    # Rank-0 tensors accept axis 0/-1 (as the ge ops do).
    r = max(rank, 1)
    if not -r <= axis < r:
        ctx.invalid(f"{what} {axis} is out of range for a rank-{rank} input (valid: [{-r}, {r - 1}])")
    return axis + r if axis < 0 else axis


def _axes(ctx):
    """The normalized, sorted, distinct axes to reduce; [] for all axes; _NOOP for none;
    a _RuntimeAxes for a run-time axes input."""
    rank = ctx.rank(0)
    if ctx.opset >= AXES_INPUT_SINCE[ctx.op_type]:
        if ctx.attr("axes") is not None:
            ctx.refuse(f"{ctx.op_type}-{ctx.opset} takes axes as input #1, not as an attribute")
        raw = ctx.const(1) if ctx.has_input(1) else None
        if ctx.has_input(1) and raw is None:
            count = rt.static_count(ctx, 1, "axes")
            if count == 0:
                raw = np.zeros((0,), np.int64)  # always empty, whatever is fed
            elif rank > 0:
                return _RuntimeAxes(ctx, ctx.input(1), count)
            else:
                raw = np.zeros((0,), np.int64)  # a rank-0 input is reduced over nothing
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


def _reduce(fn, x: ir.Value, axes, keepdims: bool) -> ir.Value:
    if isinstance(axes, _RuntimeAxes):
        return _reduce_runtime(fn, x, axes, keepdims)
    return fn(x, axes=axes, keepdims=keepdims)


def _reduce_runtime(fn, x: ir.Value, axes: _RuntimeAxes, keepdims: bool, flags: ir.Value | None = None) -> ir.Value:
    ctx = axes.ctx
    rank = ir.RankedTensorType(x.type).rank
    if flags is None:
        flags = rt.axis_flags(ctx, axes.value, rank)
    if fn is ge.reduce_mean:
        # The sum over the chosen axes divided by their run-time element count (an integer mean
        # truncates the exact sum, accumulated in i64, as the static lowering does).
        elem = ir.RankedTensorType(x.type).element_type
        count = ge.reduce_prod(ge.where(flags, ge.shape(x), rt.i64_const(ctx, 1)), axes=[0], keepdims=False)
        if _is_float(elem):
            s = _reduce_runtime(ge.reduce_sum, x, axes, keepdims, flags)
            return ge.div(s, _cast(count, elem))
        s = _reduce_runtime(ge.reduce_sum, rt.as_i64(x), axes, keepdims, flags)
        return _cast(ge.div(s, ge.max(count, rt.i64_const(ctx, 1))), elem)
    y = x
    for d in range(rank):
        y = rt.choose_along(ctx, y, d, rt.flag(ctx, flags, d), fn(y, axes=[d], keepdims=True))
    return y if keepdims else rt.drop_dims(ctx, y, flags, rank - axes.count)


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
    converter(_op, since=11, notes=f"axes input (opset {AXES_INPUT_SINCE[_op]}+) at import or run time")(reduce_simple)


@converter(
    "ReduceMax", "ReduceMin", since=11,
    notes="axes input (opset 18+) at import or run time; bool input (opset 20+) via cast to ui8",
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


@converter("ReduceL1", since=11, notes="reduce_sum(abs(x)); axes input (opset 18+) at import or run time")
def reduce_l1(ctx):
    axes = _axes(ctx)
    a = ge.abs(ctx.input(0))
    if axes is _NOOP:
        return a
    return _reduce(ge.reduce_sum, a, axes, _keepdims(ctx))


@converter("ReduceSumSquare", since=11, notes="reduce_sum(x*x); axes input (opset 18+) at import or run time")
def reduce_sum_square(ctx):
    axes = _axes(ctx)
    x = ctx.input(0)
    sq = ge.mul(x, x)
    if axes is _NOOP:
        return sq
    return _reduce(ge.reduce_sum, sq, axes, _keepdims(ctx))


@converter(
    "ReduceL2", since=11,
    notes="axes input (opset 18+) at import or run time; integer input computed in f64 and cast back (truncates)",
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


@converter("ReduceLogSum", since=11, notes="log(reduce_sum(x)); float input only; axes input (opset 18+) at import or run time")
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
    "axes input (opset 18+) at import or run time",
)
def reduce_log_sum_exp(ctx):
    _require_float(ctx)
    axes = _axes(ctx)
    x = ctx.input(0)
    if axes is _NOOP:
        return ge.identity(x)  # log(exp(x)), without the overflow
    keepdims = _keepdims(ctx)
    rank = ctx.rank(0)

    def lse(v: ir.Value, axes: list[int], keepdims: bool) -> ir.Value:
        m = ge.reduce_max(v, axes=axes, keepdims=True)
        # An infinite max (all -inf, or some +inf) would make x - m NaN: shift by 0.
        m = ge.where(ge.equal(ge.abs(m), ctx.scalar_like(np.inf)), ctx.scalar_like(0.0), m)
        s = ge.reduce_sum(ge.exp(ge.sub(v, m)), axes=axes, keepdims=keepdims)
        if not keepdims and rank > 0:
            m = ge.squeeze(m, axes=axes or list(range(rank)))
        return ge.add(m, ge.log(s))

    # Run-time axes: one axis at a time (the log-sum-exp of per-axis log-sum-exps is the whole one).
    return _reduce(lse, x, axes, keepdims)


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


@converter("CumSum", since=11, notes="axis at import or run time")
@converter("CumProd", since=26, notes="axis at import or run time")
def cumsum(ctx):
    fn = ge.cumprod if ctx.op_type == "CumProd" else ge.cumsum
    attrs = dict(exclusive=bool(ctx.attr("exclusive", 0)), reverse=bool(ctx.attr("reverse", 0)))
    raw = ctx.const(1)
    if raw is None:
        # A run-time axis: every axis is computed and the chosen one selected (a rank-r input
        # costs r scans; exporters give the axis as a constant).
        if rt.static_count(ctx, 1, "axis") != 1:
            ctx.invalid("axis must be a single integer")
        rank = max(ctx.rank(0), 1)
        axis = rt.normalized(ctx, rt.scalar(ctx, ctx.input(1)), rank)
        y = fn(ctx.input(0), rank - 1, **attrs)
        for d in reversed(range(rank - 1)):
            y = ge.where(ge.equal(axis, rt.i64_const(ctx, d)), fn(ctx.input(0), d, **attrs), y)
        return y
    raw = np.asarray(raw)
    if raw.size != 1:
        ctx.invalid(f"axis must be a single integer, got shape {list(raw.shape)}")
    axis = _normalize_axis(ctx, int(raw.reshape(-1)[0]), ctx.rank(0), "axis")
    return fn(ctx.input(0), axis, **attrs)
