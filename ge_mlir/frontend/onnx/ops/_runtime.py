"""Run-time parameters: ONNX inputs that choose axes or sizes (Reduce* axes, Squeeze/Unsqueeze
axes, CumSum's axis, Trilu's k, ...) given as graph inputs or computed in the graph.

The model is compiled once, as ``ge_mlir.compile`` users do, so such a value is not known at import.
The converters then build the computation from ge ops that take the value as a tensor: shape
arithmetic on ``ge.shape``, index ranges from ``ge.range``, selections with ``ge.gather`` and
``ge.where``, and the final shape through ``ge.dynamic_reshape``. Only the value's *shape* must be
static (the number of axes fixes the result's rank); the results have ``?`` dims where the value
decides the size. A wrong value (an axis out of range, a squeezed dim that is not 1) makes a
run-time shape check fail the call with ``ExecutionError``, as onnxruntime fails the run.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge

DYN = ir.ShapedType.get_dynamic_size()


def i64() -> ir.Type:
    return ir.IntegerType.get_signless(64)


def i64_const(ctx, value) -> ir.Value:
    return ctx.constant(np.asarray(value, dtype=np.int64))


def as_i64(v: ir.Value) -> ir.Value:
    t = ir.RankedTensorType(v.type)
    if t.element_type == i64():
        return v
    return ge.cast(ir.RankedTensorType.get(list(t.shape), i64()), v)


def static_count(ctx, i: int, what: str) -> int:
    """The number of values in input ``i`` (a run-time axes list): its shape must be static."""
    t = ctx.input_type(i)
    if t.rank > 1 or (t.rank == 1 and t.is_dynamic_dim(0)):
        ctx.refuse(f"{what} given at run time needs a static number of values (a rank-1 tensor "
                   f"of known length), got {t}")
    return 1 if t.rank == 0 else t.get_dim_size(0)


def element(ctx, v: ir.Value, i: int) -> ir.Value:
    """``v[i]`` of a rank-1 tensor, as a rank-0 tensor."""
    return ge.gather(v, i64_const(ctx, i), axis=0)


def scalar(ctx, v: ir.Value) -> ir.Value:
    """A one-value tensor (rank 0 or 1) as a rank-0 i64 tensor."""
    t = ir.RankedTensorType(v.type)
    return as_i64(v) if t.rank == 0 else element(ctx, as_i64(v), 0)


def dim(ctx, x: ir.Value, d: int) -> ir.Value:
    """The run-time size of dim ``d`` of ``x`` (rank-0 i64)."""
    return element(ctx, ge.shape(x), d)


def normalized(ctx, axes: ir.Value, rank: int) -> ir.Value:
    """Axes with negative values counted from the end (``rank`` added). An axis outside
    [-rank, rank) fails the call: the result is read from ``arange(rank)`` by a bounds-checked
    ``ge.gather`` at an index made out of range."""
    a = as_i64(axes)
    zero = i64_const(ctx, 0)
    n = ge.where(ge.less(a, zero), ge.add(a, i64_const(ctx, rank)), a)
    n = ge.where(ge.less(n, zero), i64_const(ctx, rank), n)
    return ge.gather(i64_const(ctx, np.arange(rank)), n, axis=0)


def axis_flags(ctx, axes: ir.Value, rank: int) -> ir.Value:
    """``flags[d]`` (tensor<rank x i1>): whether ``d`` is one of ``axes`` (negative ones count
    from the end)."""
    n = int(np.prod(ir.RankedTensorType(axes.type).shape))
    col = ge.reshape(ir.RankedTensorType.get([n, 1], i64()), normalized(ctx, axes, rank))
    hits = ge.equal(col, i64_const(ctx, np.arange(rank).reshape(1, rank)))
    count = ge.reduce_sum(as_i64(hits), axes=[0], keepdims=False)
    return ge.greater(count, i64_const(ctx, 0))


def flag(ctx, flags: ir.Value, d: int) -> ir.Value:
    return element(ctx, flags, d)


def take(ctx, x: ir.Value, axis: int, start: ir.Value, limit: ir.Value) -> ir.Value:
    """``x[start:limit]`` along ``axis`` (rank-0 i64 bounds, computed at run time)."""
    idx = ge.range(ir.RankedTensorType.get([DYN], i64()), start, limit, i64_const(ctx, 1))
    return ge.gather(x, idx, axis=axis)


def choose_along(ctx, x: ir.Value, axis: int, flag_value: ir.Value, reduced: ir.Value) -> ir.Value:
    """``reduced`` (``x`` reduced along ``axis``, kept as a size-1 dim) where the run-time flag is
    set, else ``x``: both are concatenated along ``axis`` and the wanted part taken, which also
    holds when ``x`` has no elements along ``axis`` (a broadcast would then give 0, not 1)."""
    both = ge.concat([reduced, x], axis)
    one = i64_const(ctx, 1)
    start = ge.where(flag_value, i64_const(ctx, 0), one)
    limit = ge.where(flag_value, one, ge.add(one, dim(ctx, x, axis)))
    return take(ctx, both, axis, start, limit)


def positions(ctx, keep: ir.Value) -> ir.Value:
    """For each kept entry of a rank-1 i1 mask, its index among the kept ones (i64)."""
    return ge.sub(ge.cumsum(as_i64(keep), 0), i64_const(ctx, 1))


def drop_dims(ctx, y: ir.Value, flags: ir.Value, out_rank: int) -> ir.Value:
    """``y`` without the dims whose flag is set (they must have size 1: the element count is
    checked at run time by ``ge.dynamic_reshape``)."""
    t = ir.RankedTensorType(y.type)
    rank = t.rank
    out_type = ir.RankedTensorType.get([DYN] * out_rank, t.element_type)
    if out_rank == 0:
        return ge.dynamic_reshape(out_type, y, i64_const(ctx, np.zeros((0,), np.int64)), allowzero=True)
    keep = ge.not_(flags)
    # out[j] = sizes[k] for the k-th kept dim whose position is j: a [out_rank, rank] selection.
    pos = ge.reshape(ir.RankedTensorType.get([1, rank], i64()), positions(ctx, keep))
    sel = ge.and_(ge.equal(pos, i64_const(ctx, np.arange(out_rank).reshape(out_rank, 1))),
                  ge.reshape(ir.RankedTensorType.get([1, rank], ir.IntegerType.get_signless(1)), keep))
    sizes = ge.reshape(ir.RankedTensorType.get([1, rank], i64()), ge.shape(y))
    shape = ge.reduce_sum(ge.where(sel, sizes, i64_const(ctx, 0)), axes=[1], keepdims=False)
    return ge.dynamic_reshape(out_type, y, shape, allowzero=True)


def insert_unit_dims(ctx, x: ir.Value, flags: ir.Value, out_rank: int) -> ir.Value:
    """``x`` with size-1 dims where ``flags`` (over the ``out_rank`` result dims) is set."""
    t = ir.RankedTensorType(x.type)
    out_type = ir.RankedTensorType.get([DYN] * out_rank, t.element_type)
    if t.rank == 0:
        return ge.reshape(ir.RankedTensorType.get([1] * out_rank, t.element_type), x)
    pos = positions(ctx, ge.not_(flags))
    pos = ge.min(ge.max(pos, i64_const(ctx, 0)), i64_const(ctx, t.rank - 1))
    sizes = ge.gather(ge.shape(x), pos, axis=0)
    shape = ge.where(flags, i64_const(ctx, 1), sizes)
    return ge.dynamic_reshape(out_type, x, shape, allowzero=True)
