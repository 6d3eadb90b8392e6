"""Shape and data-movement ATen ops: views, permutes, broadcasts, concatenation, slicing, indexing.

ge values are immutable, so every ATen view is a new value (reshape, transpose, slice); strides
never matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....dialects import ge
from ..registry import FxContext, converter

import torch

aten = torch.ops.aten


def _axis(d: int, rank: int) -> int:
    return d + rank if d < 0 else d


@converter(aten.view, aten._unsafe_view, aten.reshape, aten.view_copy, aten._reshape_alias)
def view(cx: FxContext):
    return cx.reshape(cx.value(cx.arg(0)), cx.shape())


@converter(aten.permute, aten.permute_copy)
def permute(cx: FxContext):
    rank = len(cx.shape(cx.arg(0)))
    perm = [_axis(int(d), rank) for d in cx.arg(1)]
    if perm == list(range(rank)):
        return cx.value(cx.arg(0))
    return ge.transpose(cx.value(cx.arg(0)), perm)


@converter(aten.t, aten.transpose.int, aten.numpy_T)
def transpose(cx: FxContext):
    x = cx.value(cx.arg(0))
    rank = x.type.rank
    if rank < 2:
        return x
    a, b = (0, 1) if cx.node.target is not aten.transpose.int else (_axis(cx.arg(1), rank), _axis(cx.arg(2), rank))
    perm = list(range(rank))
    perm[a], perm[b] = perm[b], perm[a]
    return x if a == b else ge.transpose(x, perm)


@converter(aten.expand, aten.expand_copy, aten.broadcast_to)
def expand(cx: FxContext):
    x = cx.value(cx.arg(0))
    out = cx.shape()
    if list(x.type.shape) == out:
        return x
    return ge.expand(x, out)


@converter(aten.squeeze, aten.unsqueeze, aten.squeeze_copy, aten.unsqueeze_copy, aten.flatten.using_ints,
           aten.unflatten)
def reshape_like(cx: FxContext):
    return cx.reshape(cx.value(cx.arg(0)), cx.shape())


@converter(aten.cat)
def cat(cx: FxContext):
    tensors = [t for t in cx.arg(0) if cx.shape(t) != [0]]  # torch skips legacy empty 1-D tensors
    rank = len(cx.shape())
    axis = _axis(int(cx.arg(1, "dim", 0)), rank)
    dtype = cx.dtype()
    values = [cx.cast(cx.value(t), dtype) for t in tensors]
    return values[0] if len(values) == 1 else ge.concat(values, axis)


@converter(aten.split_with_sizes, aten.split.Tensor, aten.split_with_sizes_copy, aten.split_copy)
def split(cx: FxContext):
    x = cx.value(cx.arg(0))
    shape = cx.shape(cx.arg(0))
    rank = len(shape)
    axis = _axis(int(cx.arg(2, "dim", 0)), rank)
    sizes = [int(v.shape[axis]) for v in cx.val()]
    if len(sizes) == 1:
        return (x,)
    r = ge.split(x, axis, sizes)
    return tuple(r) if not hasattr(r, "results") else tuple(r.results)


@converter(aten.unbind)
def unbind(cx: FxContext):
    x = cx.value(cx.arg(0))
    shape = cx.shape(cx.arg(0))
    axis = _axis(int(cx.arg(1, "dim", 0)), len(shape))
    parts = ge.split(x, axis, [1] * shape[axis]) if shape[axis] > 1 else [x]
    parts = list(parts.results) if hasattr(parts, "results") else list(parts)
    return tuple(ge.squeeze(p, axes=[axis]) for p in parts)


@converter(aten.slice.Tensor, aten.slice_copy.Tensor)
def slice_(cx: FxContext):
    x = cx.value(cx.arg(0))
    shape = cx.shape(cx.arg(0))
    axis = _axis(int(cx.arg(1, "dim", 0)), len(shape))
    start, end, step = cx.arg(2, "start"), cx.arg(3, "end"), cx.arg(4, "step", 1)
    start = 0 if start is None else int(start)
    end = shape[axis] if end is None else int(end)
    start, end = (max(0, s + shape[axis]) if s < 0 else min(s, shape[axis]) for s in (start, end))
    if (start, end, step) == (0, shape[axis], 1):
        return x
    return ge.slice(x, [start], [max(start, end)], axes=[axis], steps=[int(step)])


@converter(aten.select.int, aten.select_copy.int)
def select(cx: FxContext):
    x = cx.value(cx.arg(0))
    shape = cx.shape(cx.arg(0))
    axis = _axis(int(cx.arg(1)), len(shape))
    i = int(cx.arg(2))
    i = i + shape[axis] if i < 0 else i
    return ge.squeeze(ge.slice(x, [i], [i + 1], axes=[axis]), axes=[axis])


@converter(aten.constant_pad_nd)
def constant_pad_nd(cx: FxContext):
    x = cx.value(cx.arg(0))
    pad = list(cx.arg(1))
    value = float(cx.arg(2, "value", 0.0) or 0.0)
    rank = x.type.rank
    begins, ends = [0] * rank, [0] * rank
    for k in range(len(pad) // 2):  # torch pads the last dim first
        begins[rank - 1 - k], ends[rank - 1 - k] = int(pad[2 * k]), int(pad[2 * k + 1])
    if any(p < 0 for p in begins + ends):
        cx.refuse("negative padding (cropping)")
    return ge.pad(x, begins + ends, value=value)


@converter(aten.repeat)
def repeat(cx: FxContext):
    x = cx.value(cx.arg(0))
    reps = [int(r) for r in cx.arg(1)]
    if len(reps) > x.type.rank:
        x = cx.reshape(x, [1] * (len(reps) - x.type.rank) + list(x.type.shape))
    return ge.tile(x, reps)


@converter(aten.index.Tensor)
def index(cx: FxContext):
    """``x[..., idx, ...]`` with index tensors on some dims: one index tensor is a gather; several
    (broadcast together) are flattened into one linear index over those dims when they are adjacent."""
    x = cx.value(cx.arg(0))
    shape = cx.shape(cx.arg(0))
    indices = list(cx.arg(1))
    dims = [d for d, t in enumerate(indices) if t is not None]
    if not dims:
        return x
    if dims != list(range(dims[0], dims[-1] + 1)):
        cx.refuse("index tensors on non-adjacent dims")
    if any(cx.dtype(indices[d]) == torch.bool for d in dims):
        cx.refuse("boolean mask indexing (data-dependent shape)")
    i64 = torch.int64
    bshape = list(torch.broadcast_shapes(*[tuple(cx.shape(indices[d])) for d in dims]))
    flat = None
    for d in dims:
        idx = cx.cast(cx.value(indices[d]), i64)
        # negative indices count from the end, as in torch
        size = cx.constant(shape[d], i64)
        idx = ge.where(ge.less(idx, cx.constant(0, i64)), ge.add(idx, size), idx)
        if list(idx.type.shape) != bshape:
            idx = ge.expand(idx, bshape)
        flat = idx if flat is None else ge.add(ge.mul(flat, size), idx)
    first = dims[0]
    merged = shape[:first] + [_prod(shape[d] for d in dims)] + shape[dims[-1] + 1:]
    y = ge.gather(cx.reshape(x, merged), flat, axis=first)
    return cx.reshape(y, cx.shape())


def _prod(xs: Sequence[int] | object) -> int:
    p = 1
    for v in xs:  # type: ignore[union-attr]
        p *= int(v)
    return p


@converter(aten.gather)
def gather(cx: FxContext):
    x = cx.value(cx.arg(0))
    axis = _axis(int(cx.arg(1)), x.type.rank)
    return ge.gather_elements(x, cx.cast(cx.value(cx.arg(2)), torch.int64), axis=axis)


@converter(aten.scatter_add)
def scatter_add(cx: FxContext):
    x = cx.value(cx.arg(0))
    axis = _axis(int(cx.arg(1)), x.type.rank)
    idx = cx.cast(cx.value(cx.arg(2)), torch.int64)
    src = cx.value(cx.arg(3))
    if list(src.type.shape) != list(idx.type.shape):
        src = ge.slice(src, [0] * idx.type.rank, list(idx.type.shape), axes=list(range(idx.type.rank)))
    return ge.scatter_elements(x, idx, src, axis=axis, reduction=ge.ScatterReduction.add)


@converter(aten.scatter.src, aten.scatter.value)
def scatter(cx: FxContext):
    x = cx.value(cx.arg(0))
    axis = _axis(int(cx.arg(1)), x.type.rank)
    idx = cx.cast(cx.value(cx.arg(2)), torch.int64)
    src = cx.arg(3)
    if cx.is_node(src):
        upd = cx.value(src)
        if list(upd.type.shape) != list(idx.type.shape):
            upd = ge.slice(upd, [0] * idx.type.rank, list(idx.type.shape), axes=list(range(idx.type.rank)))
    else:
        upd = ge.expand(cx.constant(src, cx.dtype()), list(idx.type.shape))
    return ge.scatter_elements(x, idx, upd, axis=axis)


@converter(aten.index_put)
def index_put(cx: FxContext):
    """``x[idx] = v`` (or ``+=`` with accumulate) with one index tensor on dim 0: a scatter of
    whole rows (embedding backward is this op)."""
    x = cx.value(cx.arg(0))
    indices = list(cx.arg(1))
    accumulate = bool(cx.arg(3, "accumulate", False))
    if len(indices) != 1 or indices[0] is None or cx.dtype(indices[0]) == torch.bool:
        cx.refuse("index_put with other than one integer index tensor on dim 0")
    shape = cx.shape(cx.arg(0))
    idx = cx.cast(cx.value(indices[0]), torch.int64)
    n = _prod(idx.type.shape)
    idx = cx.reshape(idx, [n])
    size = cx.constant(shape[0], torch.int64)
    idx = ge.where(ge.less(idx, cx.constant(0, torch.int64)), ge.add(idx, size), idx)
    rows = [n] + shape[1:]
    vals = cx.cast(cx.value(cx.arg(2), cx.dtype()), cx.dtype())
    if list(vals.type.shape) != rows:
        vshape = list(vals.type.shape)
        vals = ge.expand(vals, rows) if _prod(vshape) != _prod(rows) else cx.reshape(vals, rows)
    full_idx = ge.expand(cx.reshape(idx, [n] + [1] * (len(shape) - 1)), rows)
    red = ge.ScatterReduction.add if accumulate else ge.ScatterReduction.none
    return ge.scatter_elements(x, full_idx, vals, axis=0, reduction=red)
