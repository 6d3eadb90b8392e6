"""Reductions: sum, mean, amax/amin, max/min with indices, argmax/argmin, var/var_mean, prod."""

from __future__ import annotations

from ....dialects import ge
from ..registry import FxContext, converter

import torch

aten = torch.ops.aten


def _dims(cx: FxContext, dims, rank: int) -> list[int]:
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(rank))
    if isinstance(dims, int):
        dims = [dims]
    return sorted({d + rank if d < 0 else d for d in dims})


def _reduce(builder, dims_arg: int | None):
    def convert(cx: FxContext):
        x = cx.value(cx.arg(0))
        rank = x.type.rank
        dims = _dims(cx, cx.arg(dims_arg, "dim") if dims_arg is not None else None, rank)
        keep = bool(cx.arg(2, "keepdim", False)) if dims_arg is not None else False
        x = cx.cast(x, cx.dtype())  # sum of bools/ints with dtype=...: torch accumulates in the result dtype
        if rank == 0:
            return x
        return builder(x, axes=dims, keepdims=keep)
    return convert


converter(aten.sum.dim_IntList)(_reduce(ge.reduce_sum, 1))
converter(aten.sum.default)(_reduce(ge.reduce_sum, None))
converter(aten.mean.dim)(_reduce(ge.reduce_mean, 1))
converter(aten.mean.default)(_reduce(ge.reduce_mean, None))
converter(aten.amax)(_reduce(ge.reduce_max, 1))
converter(aten.amin)(_reduce(ge.reduce_min, 1))
converter(aten.prod.dim_int)(_reduce(ge.reduce_prod, 1))


@converter(aten.max.dim, aten.min.dim)
def max_dim(cx: FxContext):
    x = cx.value(cx.arg(0))
    axis = int(cx.arg(1))
    axis = axis + x.type.rank if axis < 0 else axis
    keep = bool(cx.arg(2, "keepdim", False))
    is_max = cx.node.target is aten.max.dim
    values = (ge.reduce_max if is_max else ge.reduce_min)(x, axes=[axis], keepdims=keep)
    # torch returns the first index of the extreme value
    idx = (ge.argmax if is_max else ge.argmin)(x, axis, keepdims=keep, select_last_index=False)
    return values, cx.cast(idx, torch.int64)


@converter(aten.argmax, aten.argmin)
def argmax(cx: FxContext):
    x = cx.value(cx.arg(0))
    dim = cx.arg(1, "dim")
    keep = bool(cx.arg(2, "keepdim", False))
    if dim is None:
        x = cx.reshape(x, [_numel(x)])
        dim, keep = 0, False
    axis = dim + x.type.rank if dim < 0 else dim
    build = ge.argmax if cx.node.target.overloadpacket is aten.argmax else ge.argmin
    return cx.reshape(cx.cast(build(x, axis, keepdims=keep, select_last_index=False), torch.int64), cx.shape())


def _numel(x) -> int:
    n = 1
    for d in x.type.shape:
        n *= d
    return n


def _var_mean(cx: FxContext):
    x = cx.value(cx.arg(0))
    rank = x.type.rank
    dims = _dims(cx, cx.arg(1, "dim"), rank)
    correction = cx.kwargs.get("correction", 1)
    correction = 1 if correction is None else correction
    keep = bool(cx.kwargs.get("keepdim", False))
    n = 1
    for d in dims:
        n *= x.type.shape[d]
    dtype = cx.dtype(cx.arg(0))
    mean = ge.reduce_mean(x, axes=dims, keepdims=True)
    diff = ge.sub(x, mean)
    # two passes (mean, then squared deviations) as accurate as torch's Welford for these sizes
    var = ge.div(ge.reduce_sum(ge.mul(diff, diff), axes=dims, keepdims=keep),
                 cx.constant(float(max(n - correction, 0)), dtype))
    if not keep:
        mean = ge.squeeze(mean, axes=dims) if dims else mean
    return var, mean


@converter(aten.var_mean.correction)
def var_mean(cx: FxContext):
    return _var_mean(cx)


@converter(aten.var.correction)
def var(cx: FxContext):
    return _var_mean(cx)[0]


@converter(aten.linalg_vector_norm)
def vector_norm(cx: FxContext):
    """The 2-norm (gradient clipping's global norm) and the 1- and inf-norms."""
    x = cx.value(cx.arg(0))
    order = float(cx.arg(1, "ord", 2))
    rank = x.type.rank
    dims = _dims(cx, cx.arg(2, "dim"), rank)
    keep = bool(cx.arg(3, "keepdim", False))
    x = cx.cast(x, cx.dtype())
    if rank == 0:
        return ge.abs(x)
    if order == 2.0:
        return ge.sqrt(ge.reduce_sum(ge.mul(x, x), axes=dims, keepdims=keep))
    if order == 1.0:
        return ge.reduce_sum(ge.abs(x), axes=dims, keepdims=keep)
    if order == float("inf"):
        return ge.reduce_max(ge.abs(x), axes=dims, keepdims=keep)
    cx.refuse(f"ord={order}")
