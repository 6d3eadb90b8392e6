"""Lowerings of the data movement ge ops (static shapes only).

* reshape/flatten/squeeze/unsqueeze: ``tensor.collapse_shape`` or
  ``tensor.expand_shape`` when one reassociation relates the shapes, else a
  collapse to 1-D followed by an expand;
* transpose and the plain trans_data permutations: ``linalg.transpose``;
  NC1HWC0 / FRACTAL_NZ: zero padding + expand/collapse + transpose
  (+ ``extract_slice`` to the ``original_shape`` on the way back);
* concat and constant pad: ``linalg.copy`` into ``extract_slice`` windows of
  the (filled) result, put back with ``insert_slice``; split and positive-step
  slice: ``extract_slice`` copied out with ``linalg.copy`` (see ``_materialize``);
* expand and tile: a copying ``linalg.generic`` with broadcast maps (tile
  broadcasts to ``[r0, d0, r1, d1, ...]`` and collapses pairs);
* index-computing ops (negative-step slice, reflect/edge/wrap pad, gather,
  gather_elements, one_hot, range, resize): a ``linalg.generic`` over the
  result whose body computes source indices and reads with ``tensor.extract``;
* scatter_elements: nested ``scf.for`` loops carrying the result tensor
  (``tensor.extract``/``tensor.insert``), in index order, so later updates win.

Gathered indices follow ONNX: negative values count from the end. Values still
out of range after that are clamped (gather, gather_elements), so a bad index
reads some element of the input instead of faulting; scatter_elements skips
such updates and one_hot yields an all-``off`` row. The CPU target adds a
run-time check by default (``check-bounds``, :mod:`.bounds_checks`) that
turns such indices into an ``ExecutionError`` instead, as onnxruntime does.

Resize follows onnx's reference implementation (separable, one axis at a time,
edge-clamped neighbours). Shapes are static, so the per-axis source indices
and interpolation weights are computed here (in float64, as the reference
does) and embedded as constant tables; linear/cubic accumulate in f32 (f64
for f64 and integer data) and round once into the result type.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from mlir import ir
from mlir.dialects import arith, linalg, scf, tensor
from mlir.dialects import math as mmath

from .common import (DYN, dim_sizes, empty, fit, same_size, Unsupported, as_type, const,
    collapse,
    convert_float,
    expand,
    kind,
    lowering,
    reshape_to,
    signless,
    static_tensor,
    transpose,)
from ....irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ....irutils.resize import resize_tables

# --------------------------------------------------------------------------
# Checks (all done before any IR is built)
# --------------------------------------------------------------------------


def _movable(t: ir.Type) -> bool:
    return isinstance(t, (ir.IntegerType, ir.FloatType, ir.IndexType))


def _static(v: ir.Value | ir.Type) -> ir.RankedTensorType:
    t = static_tensor(v if isinstance(v, ir.Type) else v.type)
    if t is None:
        raise Unsupported("dynamic shape")
    if not _movable(t.element_type):
        raise Unsupported(f"element type {t.element_type}")
    return t


def _ranked(t: ir.Type) -> ir.RankedTensorType:
    """A ranked tensor type of a movable element type, static or not."""
    if not isinstance(t, ir.RankedTensorType) or not _movable(ir.RankedTensorType(t).element_type):
        raise Unsupported(f"type {t}")
    return ir.RankedTensorType(t)


def _result(op: ir.OpView, i: int = 0) -> ir.RankedTensorType:
    return _static(op.operation.results[i].type)


def _operand(op: ir.OpView, i: int) -> ir.Value:
    return op.operation.operands[i]


def _norm_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < max(rank, 1):
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


# --------------------------------------------------------------------------
# IR helpers
# --------------------------------------------------------------------------


def _index(v: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), v)


def _empty(t: ir.RankedTensorType) -> ir.Value:
    return tensor.EmptyOp(t.shape, t.element_type).result


def _scalar(t: ir.Type, value: float | bool) -> ir.Value:
    """A constant of element type ``t`` (``ui*``/``si*`` through a cast from signless)."""
    if isinstance(t, ir.FloatType):
        return arith.constant(t, ir.FloatAttr.get(t, float(value)))
    if isinstance(t, ir.IndexType):
        return arith.constant(t, int(value))
    s = signless(t)
    w = ir.IntegerType(s).width
    if w == 1:
        iv = -1 if value else 0  # any nonzero is true; true is -1 as a signed i1
    else:
        iv = int(value) & ((1 << w) - 1)
        if iv >= 1 << (w - 1):
            iv -= 1 << w
    c = arith.constant(s, ir.IntegerAttr.get(s, iv))
    return _cast(c, t)


def _cast(v: ir.Value, t: ir.Type) -> ir.Value:
    if v.type == t:
        return v
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[t], operands=[v]).result


def _to_index(v: ir.Value) -> ir.Value:
    return arith.index_cast(ir.IndexType.get(), v)


def _wrap_clamp(i: ir.Value, d: int | ir.Value) -> ir.Value:
    """ONNX index (negative counts from the end) clamped into [0, d)."""
    zero = _index(0)
    neg = arith.cmpi(arith.CmpIPredicate.slt, i, zero)
    dv = _index(d) if isinstance(d, int) else d
    i = arith.select(neg, arith.addi(i, dv), i)
    lo = arith.maxsi(i, zero)
    top = _index(max(d - 1, 0)) if isinstance(d, int) else arith.maxsi(arith.subi(dv, _index(1)), zero)
    return arith.minsi(lo, top)


def _identity(rank: int) -> ir.AffineMap:
    return ir.AffineMap.get_identity(rank)


def _dims_map(rank: int, dims: Sequence[int]) -> ir.AffineMap:
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])


def _generic(
    rt: ir.RankedTensorType,
    ins: Sequence[tuple[ir.Value, ir.AffineMap]],
    body: Callable[[list[ir.Value], Callable[[int], ir.Value]], ir.Value],
    sizes: Sequence[int | ir.Value] | None = None,
) -> ir.Value:
    """A parallel linalg.generic over ``rt``; ``body(args, index)`` returns the
    yielded element, ``index(d)`` gives loop index ``d`` (created on demand).
    ``sizes`` (run-time sizes for ``rt``'s ``?`` dims) sizes the loops instead of ``rt``."""
    if sizes is not None:
        init = empty(sizes, rt.element_type)
        rt = ir.RankedTensorType(init.type)
    else:
        init = _empty(rt)
    maps = [m for _, m in ins] + [_identity(rt.rank)]
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp(
        [rt],
        [v for v, _ in ins],
        [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([parallel] * rt.rank),
    )
    types = [ir.RankedTensorType(v.type).element_type for v, _ in ins] + [rt.element_type]
    block = g.regions[0].blocks.append(*types)
    cache: dict[int, ir.Value] = {}
    with ir.InsertionPoint(block):

        def index(d: int) -> ir.Value:
            if d not in cache:
                cache[d] = linalg.IndexOp(d).result
            return cache[d]

        y = body(list(block.arguments)[: len(ins)], index)
        linalg.YieldOp([y])
    return g.result


def _extract(src: ir.Value, idx: Sequence[ir.Value]) -> ir.Value:
    return tensor.ExtractOp(src, list(idx)).result


def _extract_slice(src: ir.Value, rt: ir.RankedTensorType, offsets, sizes, strides) -> ir.Value:
    return tensor.ExtractSliceOp(
        rt, src, [], [], [], list(offsets), list(sizes), list(strides)
    ).result


# Copies go through linalg.copy into (a slice of) a fresh tensor rather than
# tensor.pad / tensor.concat / a returned extract_slice: those bufferize to
# memref.copy between strided memrefs, which LLVM lowering turns into a call
# to the memrefCopy runtime function that the CPU JIT does not link.


def _value(r) -> ir.Value:
    """The single result of a linalg builder (a Value, an OpView or a result list)."""
    if isinstance(r, ir.Value):
        return r
    if isinstance(r, (ir.OpView, ir.Operation)):
        return r.results[0]
    return r[0]


def _materialize(v: ir.Value) -> ir.Value:
    """A contiguous copy of ``v`` (typically a strided extract_slice)."""
    t = ir.RankedTensorType(v.type)
    return _value(linalg.copy(v, outs=[_empty(t)]))


def _insert_copy(piece: ir.Value, dest: ir.Value, offsets: Sequence[int]) -> ir.Value:
    """``dest`` with ``piece`` written at ``offsets`` (copied in place after bufferization)."""
    pt = ir.RankedTensorType(piece.type)
    if 0 in pt.shape:
        return dest
    rank = pt.rank
    window = _extract_slice(dest, pt, offsets, pt.shape, [1] * rank)
    filled = _value(linalg.copy(piece, outs=[window]))
    return tensor.InsertSliceOp(
        filled, dest, [], [], [], list(offsets), list(pt.shape), [1] * rank
    ).result


def _fill(rt: ir.RankedTensorType, value: float) -> ir.Value:
    return _value(linalg.fill(_scalar(rt.element_type, value), outs=[_empty(rt)]))


def _pad_zero(x: ir.Value, high: Sequence[int]) -> ir.Value:
    """Zero padding at the end of each dimension."""
    if not any(high):
        return x
    st = ir.RankedTensorType(x.type)
    rt = ir.RankedTensorType.get([d + h for d, h in zip(st.shape, high)], st.element_type)
    return _insert_copy(x, _fill(rt, 0), [0] * st.rank)


# --------------------------------------------------------------------------
# Reshape family
# --------------------------------------------------------------------------


@lowering("reshape", "flatten", "squeeze", "unsqueeze")
def _lower_reshape(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    if not _ranked(x.type).has_static_shape or not _ranked(op.results[0].type).has_static_shape:
        st, rt = _ranked(x.type), _ranked(op.results[0].type)
        if st.element_type != rt.element_type:
            raise Unsupported("not a pure reshape")
        return reshape_to(x, rt)
    st, rt = _static(x), _result(op)
    if st.element_type != rt.element_type or math.prod(st.shape) != math.prod(rt.shape):
        raise Unsupported("not a pure reshape")
    return reshape_to(x, rt)


# --------------------------------------------------------------------------
# Permutations, concat, split, slice
# --------------------------------------------------------------------------


@lowering("transpose")
def _lower_transpose(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    _ranked(x.type)
    _ranked(op.results[0].type)
    return transpose(x, attr_ints(op, "perm", []))


@lowering("concat")
def _lower_concat(op: ir.OpView) -> ir.Value:
    ins = list(op.operation.operands)
    if not all(_ranked(v.type).has_static_shape for v in (*ins, op.results[0])):
        return _concat_dynamic(op)
    for v in ins:
        _static(v)
    rt = _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), rt.rank)
    # Empty pieces would become out-of-bounds zero-size subviews.
    ins = [v for v in ins if ir.RankedTensorType(v.type).shape[axis] != 0]
    if not ins:
        return _empty(rt)
    if len(ins) == 1:
        return ins[0]
    out, offset = _empty(rt), 0
    for v in ins:
        offsets = [0] * rt.rank
        offsets[axis] = offset
        out = _insert_copy(v, out, offsets)
        offset += ir.RankedTensorType(v.type).shape[axis]
    return out


def _concat_dynamic(op: ir.OpView) -> ir.Value:
    """concat with ``?`` dims (a KV cache: past and new keys along a run-time sequence axis): the
    other dims must agree (checked), each piece is copied in at its run-time offset; a piece of
    run-time size 0 copies nothing."""
    ins = list(op.operation.operands)
    rt = _ranked(op.results[0].type)
    for v in ins:
        _ranked(v.type)
    axis = _norm_axis(attr_int(op, "axis", 0), rt.rank)
    ins = [v for v in ins if ir.RankedTensorType(v.type).shape[axis] != 0]
    if not ins:
        raise Unsupported("concat of empty pieces only")
    piece_sizes = [dim_sizes(v) for v in ins]
    out_sizes: list[int | ir.Value] = []
    for d in range(rt.rank):
        if d == axis:
            total: int | ir.Value = 0
            for ps in piece_sizes:
                total = (total + ps[d] if isinstance(total, int) and isinstance(ps[d], int)
                         else arith.addi(_index(total) if isinstance(total, int) else total,
                                         _index(ps[d]) if isinstance(ps[d], int) else ps[d]))
            out_sizes.append(total)
        else:
            out_sizes.append(same_size([ps[d] for ps in piece_sizes], f"concat: the pieces' dim {d}"))
    # Pieces fitted to the agreed sizes: a wrong-sized piece cannot be read past.
    ins = [fit(v, [None if d == axis else out_sizes[d] for d in range(rt.rank)]) for v in ins]
    piece_sizes = [dim_sizes(v) for v in ins]
    out = empty(out_sizes, rt.element_type)
    offset: int | ir.Value = 0
    for v, ps in zip(ins, piece_sizes):
        sizes = [ps[d] if d == axis else out_sizes[d] for d in range(rt.rank)]
        offsets = [offset if d == axis else 0 for d in range(rt.rank)]
        dyn = lambda xs: [x for x in xs if not isinstance(x, int)]  # noqa: E731
        stat = lambda xs: [x if isinstance(x, int) else DYN for x in xs]  # noqa: E731
        wt = ir.RankedTensorType.get(stat(sizes), rt.element_type)
        window = tensor.ExtractSliceOp(wt, out, dyn(offsets), dyn(sizes), [], stat(offsets), stat(sizes),
                                       [1] * rt.rank).result
        src = v if v.type == wt else tensor.CastOp(wt, v).result
        filled = _value(linalg.copy(src, outs=[window]))
        out = tensor.InsertSliceOp(filled, out, dyn(offsets), dyn(sizes), [], stat(offsets), stat(sizes),
                                   [1] * rt.rank).result
        step = ps[axis]
        offset = (offset + step if isinstance(offset, int) and isinstance(step, int)
                  else arith.addi(_index(offset) if isinstance(offset, int) else offset,
                                  _index(step) if isinstance(step, int) else step))
    return as_type(out, rt)


@lowering("split")
def _lower_split(op: ir.OpView) -> list[ir.Value]:
    x = _operand(op, 0)
    if not all(_ranked(v.type).has_static_shape for v in (x, *op.operation.results)):
        return _split_dynamic(op)
    st = _static(x)
    rts = [_result(op, i) for i in range(len(op.operation.results))]
    axis = _norm_axis(attr_int(op, "axis", 0), st.rank)
    outs, offset = [], 0
    for rt in rts:
        offsets = [0] * st.rank
        offsets[axis] = offset
        if 0 in rt.shape:
            outs.append(_empty(rt))
        else:
            outs.append(_materialize(_extract_slice(x, rt, offsets, rt.shape, [1] * st.rank)))
        offset += rt.shape[axis]
    return outs


def _split_dynamic(op: ir.OpView) -> list[ir.Value]:
    """split along a static axis of a tensor with ``?`` dims elsewhere (a fused Q|K|V projection)."""
    x = _operand(op, 0)
    st = _ranked(x.type)
    rts = [_ranked(r.type) for r in op.operation.results]
    axis = _norm_axis(attr_int(op, "axis", 0), st.rank)
    if st.shape[axis] == DYN or any(rt.shape[axis] == DYN for rt in rts):
        raise Unsupported("split along a dimension of run-time size")
    sizes = dim_sizes(x)
    outs, offset = [], 0
    for rt in rts:
        piece_sizes = [rt.shape[axis] if d == axis else sizes[d] for d in range(st.rank)]
        pt = ir.RankedTensorType.get([s if isinstance(s, int) else DYN for s in piece_sizes], st.element_type)
        offsets = [offset if d == axis else 0 for d in range(st.rank)]
        piece = tensor.ExtractSliceOp(pt, x, [], [s for s in piece_sizes if not isinstance(s, int)], [], offsets,
                                      [s if isinstance(s, int) else DYN for s in piece_sizes], [1] * st.rank).result
        out = _value(linalg.copy(piece, outs=[empty(piece_sizes, st.element_type)]))
        outs.append(as_type(out, rt))
        offset += rt.shape[axis]
    return outs


def _slice_params(op: ir.OpView, shape: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per-axis (first index, step) of an ONNX Slice on a static shape."""
    rank = len(shape)
    starts, ends = attr_ints(op, "starts", []), attr_ints(op, "ends", [])
    axes = attr_ints(op, "axes", []) or list(range(len(starts)))
    steps = attr_ints(op, "steps", []) or [1] * len(starts)
    first, stride = [0] * rank, [1] * rank
    for s, e, a, k in zip(starts, ends, axes, steps):
        a = _norm_axis(a, rank)
        d = shape[a]
        if k == 0:
            raise Unsupported("zero step")
        if s < 0:
            s += d
        first[a] = max(0, min(d, s)) if k > 0 else max(0, min(d - 1, s))  # ONNX clamps
        stride[a] = k
        del e  # the result type carries the length
    return first, stride


@lowering("slice")
def _lower_slice(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    first, stride = _slice_params(op, st.shape)
    if all(k > 0 for k in stride):
        return _materialize(_extract_slice(x, rt, first, rt.shape, stride))

    def body(args, index):
        idx = []
        for d in range(rt.rank):
            if rt.shape[d] == st.shape[d] and first[d] == 0 and stride[d] == 1:
                idx.append(index(d))
            else:
                idx.append(arith.addi(_index(first[d]), arith.muli(index(d), _index(stride[d]))))
        return _extract(x, idx)

    return _generic(rt, [], body)


# --------------------------------------------------------------------------
# Broadcast-like: expand, tile
# --------------------------------------------------------------------------


def _broadcast_map(st: ir.RankedTensorType, rt: ir.RankedTensorType) -> ir.AffineMap:
    off = rt.rank - st.rank
    exprs = []
    for i, d in enumerate(st.shape):
        if d == 1 and rt.shape[i + off] != 1:
            exprs.append(ir.AffineConstantExpr.get(0))
        else:
            exprs.append(ir.AffineDimExpr.get(i + off))
    return ir.AffineMap.get(rt.rank, 0, exprs)


@lowering("expand")
def _lower_expand(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    if st.shape == rt.shape:
        return x
    return _generic(rt, [(x, _broadcast_map(st, rt))], lambda a, _: a[0])


@lowering("tile")
def _lower_tile(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    reps = attr_ints(op, "repeats", [])
    if all(r == 1 for r in reps):
        return x
    if st.rank == 0:
        return x
    # out[r0, d0, r1, d1, ...] = x[d0, d1, ...], then pairs collapse.
    wide = [v for r, d in zip(reps, st.shape) for v in (r, d)]
    wt = ir.RankedTensorType.get(wide, st.element_type)
    y = _generic(wt, [(x, _dims_map(2 * st.rank, range(1, 2 * st.rank, 2)))], lambda a, _: a[0])
    return collapse(y, rt, [[2 * i, 2 * i + 1] for i in range(st.rank)])


# --------------------------------------------------------------------------
# Pad
# --------------------------------------------------------------------------


@lowering("pad")
def _lower_pad(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    pads = attr_ints(op, "pads", [])
    mode = attr_enum(op, "mode", "constant")
    value = attr_float(op, "value", 0.0)
    r = st.rank
    lo, hi = pads[:r], pads[r:]
    if mode not in ("constant", "reflect", "edge", "wrap"):
        raise Unsupported(f"pad mode {mode}")
    if mode != "constant" and any(d == 0 for d in st.shape) and 0 not in rt.shape:
        raise Unsupported(f"{mode} padding of an empty dimension")
    et = rt.element_type
    if mode == "constant":
        if isinstance(et, ir.IntegerType) and not math.isfinite(value):
            raise Unsupported("non-finite pad value for an integer tensor")
        # Negative pads crop first (crop and pad commute in constant mode).
        crop_off = [max(0, -p) for p in lo]
        crop_size = [d + min(0, a) + min(0, b) for d, a, b in zip(st.shape, lo, hi)]
        v: float | int = value if isinstance(et, ir.FloatType) or kind(et) == "b" else int(value)
        if 0 in crop_size:
            return _generic(rt, [], lambda args, index: _scalar(et, v))
        if crop_off != [0] * r or crop_size != list(st.shape):
            ct = ir.RankedTensorType.get(crop_size, st.element_type)
            x = _extract_slice(x, ct, crop_off, crop_size, [1] * r)
        low, high = [max(0, p) for p in lo], [max(0, p) for p in hi]
        if not any(low) and not any(high):
            return _materialize(x)
        return _insert_copy(x, _fill(rt, v), low)
    if mode == "reflect" and any(
        rt.shape[d] != st.shape[d] and (lo[d] >= st.shape[d] or hi[d] >= st.shape[d]) for d in range(r)
    ):
        raise Unsupported("reflect padding as large as the dimension")

    # Pad-then-crop semantics on the original input: j = i - low, then mapped
    # back into [0, d) by the mode.
    def source(i: ir.Value, d: int, low: int) -> ir.Value:
        j = arith.subi(i, _index(low)) if low else i
        if d == 1:
            return _index(0)
        if mode == "edge":
            return arith.minsi(arith.maxsi(j, _index(0)), _index(d - 1))
        if mode == "wrap":
            m = arith.remsi(j, _index(d))
            return arith.select(arith.cmpi(arith.CmpIPredicate.slt, m, _index(0)), arith.addi(m, _index(d)), m)
        # reflect: |j|, then mirror at d - 1 (pads < d need one reflection)
        a = arith.select(arith.cmpi(arith.CmpIPredicate.slt, j, _index(0)), arith.subi(_index(0), j), j)
        over = arith.cmpi(arith.CmpIPredicate.sgt, a, _index(d - 1))
        return arith.select(over, arith.subi(_index(2 * (d - 1)), a), a)

    def body(args, index):
        idx = []
        for d in range(r):
            if lo[d] == 0 and hi[d] == 0:
                idx.append(index(d))
            else:
                idx.append(source(index(d), st.shape[d], lo[d]))
        return _extract(x, idx)

    return _generic(rt, [], body)


# --------------------------------------------------------------------------
# Gather / scatter
# --------------------------------------------------------------------------


def _index_tensor(v: ir.Value, dynamic: bool = False) -> ir.RankedTensorType:
    t = _ranked(v.type) if dynamic else _static(v)
    et = t.element_type
    if not (isinstance(et, ir.IntegerType) and ir.IntegerType(et).is_signless and ir.IntegerType(et).width in (32, 64)):
        raise Unsupported(f"index element type {et}")
    return t


@lowering("gather")
def _lower_gather(op: ir.OpView) -> ir.Value:
    data, indices = _operand(op, 0), _operand(op, 1)
    if not all(_ranked(v.type).has_static_shape for v in (data, indices, op.results[0])):
        return _gather_dynamic(op)
    dt, it, rt = _static(data), _index_tensor(indices), _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    q = it.rank
    d = dt.shape[axis]

    def body(args, index):
        if d == 0:  # every index is out of range (the bounds check fails the call): nothing to read
            return const(dt.element_type, 0)
        i = _wrap_clamp(_to_index(args[0]), d)
        idx = [index(k) for k in range(axis)] + [i] + [index(axis + q + k) for k in range(dt.rank - axis - 1)]
        return _extract(data, idx)

    return _generic(rt, [(indices, _dims_map(rt.rank, range(axis, axis + q)))], body)


def _gather_dynamic(op: ir.OpView) -> ir.Value:
    """gather with ``?`` dims (an embedding lookup of [batch, seq] ids): the result's sizes are the
    data's outside the axis and the indices' (run-time bounds checks as for static shapes)."""
    data, indices = _operand(op, 0), _operand(op, 1)
    dt, it, rt = _ranked(data.type), _index_tensor(indices, dynamic=True), _ranked(op.results[0].type)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    q = it.rank
    dsz, isz = dim_sizes(data), dim_sizes(indices)
    d = dsz[axis]
    sizes = [*dsz[:axis], *isz, *dsz[axis + 1:]]

    def body(args, index):
        if isinstance(d, int) and d == 0:  # every index is out of range (the bounds check fails the call)
            return const(dt.element_type, 0)
        i = _wrap_clamp(_to_index(args[0]), d)
        idx = [index(k) for k in range(axis)] + [i] + [index(axis + q + k) for k in range(dt.rank - axis - 1)]
        return _extract(data, idx)

    out = _generic(rt, [(indices, _dims_map(rt.rank, range(axis, axis + q)))], body, sizes)
    return as_type(out, rt)


@lowering("gather_elements")
def _lower_gather_elements(op: ir.OpView) -> ir.Value:
    data, indices = _operand(op, 0), _operand(op, 1)
    dt, it, rt = _static(data), _index_tensor(indices), _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    if 0 in dt.shape:
        raise Unsupported("gather from an empty tensor")
    d = dt.shape[axis]
    del it

    def body(args, index):
        i = _wrap_clamp(_to_index(args[0]), d)
        return _extract(data, [i if k == axis else index(k) for k in range(rt.rank)])

    return _generic(rt, [(indices, _identity(rt.rank))], body)


def _combine(reduction: str, et: ir.Type) -> Callable[[ir.Value, ir.Value], ir.Value]:
    k = kind(et)
    if reduction == "none":
        return lambda old, new: new
    if k in ("b", "?"):
        raise Unsupported(f"scatter reduction {reduction} on {et}")
    if k == "f":
        fns = {"add": arith.addf, "mul": arith.mulf, "max": arith.maximumf, "min": arith.minimumf}
    elif k == "s":
        fns = {"add": arith.addi, "mul": arith.muli, "max": arith.maxsi, "min": arith.minsi}
    else:
        fns = {"add": arith.addi, "mul": arith.muli, "max": arith.maxui, "min": arith.minui}
    fn = fns[reduction]

    def combine(old: ir.Value, new: ir.Value) -> ir.Value:
        if k == "f":
            ct = ir.F32Type.get() if ir.FloatType(et).width < 32 else et
            return convert_float(fn(convert_float(old, ct), convert_float(new, ct)), et)
        s = signless(et)
        return _cast(fn(_cast(old, s), _cast(new, s)), et)

    return combine


@lowering("scatter_elements")
def _lower_scatter_elements(op: ir.OpView) -> ir.Value:
    data, indices, updates = _operand(op, 0), _operand(op, 1), _operand(op, 2)
    dt, it, _ = _static(data), _index_tensor(indices), _static(updates)
    _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    reduction = attr_enum(op, "reduction", "none")
    if reduction not in ("none", "add", "mul", "max", "min"):
        raise Unsupported(f"scatter reduction {reduction}")
    combine = _combine(reduction, dt.element_type)
    if 0 in it.shape:
        return data
    d = dt.shape[axis]
    one = _index(1)
    zero = _index(0)

    def build(level: int, ivs: list[ir.Value], acc: ir.Value) -> ir.Value:
        if level == it.rank:
            u = _extract(updates, ivs)
            i = _to_index(_extract(indices, ivs))
            i = arith.select(arith.cmpi(arith.CmpIPredicate.slt, i, zero), arith.addi(i, _index(d)), i)
            valid = arith.andi(
                arith.cmpi(arith.CmpIPredicate.sge, i, zero), arith.cmpi(arith.CmpIPredicate.slt, i, _index(d))
            )
            i = arith.minsi(arith.maxsi(i, zero), _index(d - 1))
            pos = [i if k == axis else ivs[k] for k in range(it.rank)]
            old = _extract(acc, pos)
            new = arith.select(valid, combine(old, u), old)
            return tensor.InsertOp(new, acc, pos).result
        loop = scf.ForOp(zero, _index(it.shape[level]), one, [acc])
        with ir.InsertionPoint(loop.body):
            res = build(level + 1, [*ivs, loop.induction_variable], loop.inner_iter_args[0])
            scf.YieldOp([res])
        return loop.results[0]

    return build(0, [], data)


# --------------------------------------------------------------------------
# Shape, range, one_hot
# --------------------------------------------------------------------------


@lowering("shape")
def _lower_shape(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    rt = _result(op)
    t = _ranked(x.type) if isinstance(x.type, ir.RankedTensorType) else None
    if t is None:
        raise Unsupported("unranked input")
    rank = t.rank
    start, end = attr_int(op, "start", 0), attr_int(op, "end", None)

    def clamp(v: int) -> int:
        return max(0, min(rank, v + rank if v < 0 else v))

    s = clamp(start)
    e = clamp(end) if end is not None else rank
    dims = list(t.shape)[s : max(s, e)]
    if DYN in dims:  # run-time sizes: tensor.dim of the input
        i64 = ir.IntegerType.get_signless(64)
        sizes = dim_sizes(x)[s: max(s, e)]
        elems = [arith.constant(i64, v) if isinstance(v, int) else arith.index_cast(i64, v) for v in sizes]
        return tensor.from_elements(rt, elems)
    values = np.array(dims, dtype=np.int64).reshape(rt.shape)
    return arith.constant(rt, ir.DenseElementsAttr.get(values, type=rt))


@lowering("dynamic_reshape")
def _lower_dynamic_reshape(op: ir.OpView) -> ir.Value:
    """ONNX Reshape with its shape read at run time (0 copies unless allowzero, one -1 is the
    remainder). The sizes are checked: against the result's static dims, and the element count;
    when a check fails the view covers no more elements than the input has."""
    from .shape_checks import require_equal

    x, shape = _operand(op, 0), _operand(op, 1)
    st, rt = _ranked(x.type), _ranked(op.results[0].type)
    if _static(shape).element_type != ir.IntegerType.get_signless(64):
        raise Unsupported("shape element type")
    allowzero = attr_bool(op, "allowzero", False)
    if st.rank == 0 and not rt.has_static_shape:
        raise Unsupported("a scalar to a run-time shape")
    idx = ir.IndexType.get()
    in_sizes = dim_sizes(x)
    total = _index(1)
    for v in in_sizes:
        total = arith.muli(total, _index(v) if isinstance(v, int) else v)
    raw = [arith.index_cast(idx, _extract(shape, [_index(i)])) for i in range(rt.rank)]
    minus1 = _index(-1)
    sizes = []
    for i, r in enumerate(raw):
        s = r
        if not allowzero and i < st.rank:
            copy = in_sizes[i]
            s = arith.select(arith.cmpi(arith.CmpIPredicate.eq, r, _index(0)),
                             _index(copy) if isinstance(copy, int) else copy, r)
        sizes.append(s)
    # known = product of the sizes that are not -1; the -1 (at most one) is total / known.
    known = _index(1)
    n_minus = _index(0)
    for s in sizes:
        is_m = arith.cmpi(arith.CmpIPredicate.eq, s, minus1)
        known = arith.muli(known, arith.select(is_m, _index(1), arith.maxsi(s, _index(0))))
        n_minus = arith.addi(n_minus, arith.select(is_m, _index(1), _index(0)))
    safe_known = arith.maxsi(known, _index(1))
    rem = arith.divsi(total, safe_known)
    final = [arith.select(arith.cmpi(arith.CmpIPredicate.eq, s, minus1), rem, arith.maxsi(s, _index(0)))
             for s in sizes]
    product = _index(1)
    for f in final:
        product = arith.muli(product, f)
    require_equal([n_minus, arith.minsi(n_minus, _index(1))], "dynamic_reshape: more than one -1 in the shape")
    require_equal([product, total], "dynamic_reshape: the element counts of the input and the shape")
    ok = arith.cmpi(arith.CmpIPredicate.eq, product, total)
    out_sizes: list[int | ir.Value] = []
    for i, f in enumerate(final):
        if rt.shape[i] != DYN:
            require_equal([_index(rt.shape[i]), f], f"dynamic_reshape: size {i} against the static result dim")
            out_sizes.append(rt.shape[i])
        else:
            # A wrong shape gets size 0 here: the view then reads nothing.
            out_sizes.append(arith.select(ok, f, _index(0)))
    if rt.has_static_shape:
        if st.has_static_shape:
            return reshape_to(x, rt)
        # Static result of a run-time input: a checked copy of at most the input's elements.
        flat = collapse(x, ir.RankedTensorType.get([DYN], st.element_type), [list(range(st.rank))]) \
            if st.rank != 1 else x
        flat = fit(flat, [math.prod(rt.shape)])
        return reshape_to(flat, rt)
    flat = collapse(x, ir.RankedTensorType.get([DYN if not st.has_static_shape else math.prod(st.shape)],
                                               st.element_type), [list(range(st.rank))]) if st.rank != 1 else x
    from .common import expand_groups

    out = expand_groups(flat, [list(range(rt.rank))], out_sizes)
    return as_type(out, rt)


@lowering("fill")
def _lower_fill(op: ir.OpView) -> ir.Value:
    value, shape = _operand(op, 0), _operand(op, 1)
    rt = _ranked(op.results[0].type)
    i64 = ir.IntegerType.get_signless(64)
    if _static(shape).element_type != i64:
        raise Unsupported("shape element type")
    from .shape_checks import require_equal

    sizes: list[int | ir.Value] = []
    for i in range(rt.rank):
        n = arith.index_cast(ir.IndexType.get(), _extract(shape, [_index(i)]))
        # A negative size (invalid ONNX) would allocate a huge buffer: 0 instead, and the check fails.
        safe = arith.maxsi(n, _index(0))
        require_equal([safe, n], f"fill: size {i} of the shape operand (negative)")
        if rt.shape[i] != DYN:
            require_equal([_index(rt.shape[i]), safe], f"fill: size {i} against the static result dim")
            sizes.append(rt.shape[i])
        else:
            sizes.append(safe)
    v = _extract(value, [_index(0) for _ in range(ir.RankedTensorType(value.type).rank)])
    out = _value(linalg.fill(v, outs=[empty(sizes, rt.element_type)]))
    return as_type(out, rt)


@lowering("range")
def _lower_range(op: ir.OpView) -> ir.Value:
    start, delta = _operand(op, 0), _operand(op, 2)
    rt0 = _ranked(op.results[0].type)
    st, dlt = _static(start), _static(delta)
    rt = rt0 if rt0.has_static_shape else None
    et = rt0.element_type
    k = kind(et)
    if k not in ("f", "s", "u"):
        raise Unsupported(f"element type {et}")

    def body(args, index):
        s = _extract(start, [_index(0) for _ in range(st.rank)])
        dl = _extract(delta, [_index(0) for _ in range(dlt.rank)])
        i = index(0)
        if k == "f":
            ct = ir.F32Type.get() if ir.FloatType(et).width < 32 else et
            fi = arith.sitofp(ct, arith.index_cast(ir.IntegerType.get_signless(64), i))
            y = arith.addf(convert_float(s, ct), arith.mulf(fi, convert_float(dl, ct)))
            return convert_float(y, et)
        sl = signless(et)
        ii = arith.index_cast(sl, i)
        return _cast(arith.addi(_cast(s, sl), arith.muli(ii, _cast(dl, sl))), et)

    if rt is None:
        # A run-time limit (torch.arange(x.shape[1])): max(ceil((limit - start) / delta), 0) elements.
        return _generic(rt0, [], body, [_range_count(start, _operand(op, 1), delta, et)])
    return _generic(rt, [], body)


def _range_count(start: ir.Value, limit: ir.Value, delta: ir.Value, et: ir.Type) -> ir.Value:
    def scalar(v: ir.Value) -> ir.Value:
        return _extract(v, [_index(0) for _ in range(ir.RankedTensorType(v.type).rank)])

    s, lim, dl = scalar(start), scalar(limit), scalar(delta)
    if kind(et) == "f":
        f64 = ir.F64Type.get()
        s, lim, dl = (arith.extf(f64, v) if ir.FloatType(v.type).width < 64 else v for v in (s, lim, dl))
        n = arith.fptosi(ir.IntegerType.get_signless(64), mmath.ceil(arith.divf(arith.subf(lim, s), dl)))
    else:
        sl = signless(et)
        s, lim, dl = (_cast(v, sl) for v in (s, lim, dl))
        if ir.IntegerType(sl).width < 64:
            i64 = ir.IntegerType.get_signless(64)
            s, lim, dl = (arith.extsi(i64, v) for v in (s, lim, dl))
        # A zero delta is invalid ONNX; it counts 0 elements here instead of dividing by zero.
        zero = arith.constant(s.type, 0)
        safe = arith.select(arith.cmpi(arith.CmpIPredicate.eq, dl, zero), arith.constant(s.type, 1), dl)
        n = arith.ceildivsi(arith.subi(lim, s), safe)
        n = arith.select(arith.cmpi(arith.CmpIPredicate.eq, dl, zero), zero, n)
    n = arith.maxsi(n, arith.constant(n.type, 0))
    return arith.index_cast(ir.IndexType.get(), n)


@lowering("one_hot")
def _lower_one_hot(op: ir.OpView) -> ir.Value:
    indices = _operand(op, 0)
    it, rt = _index_tensor(indices), _result(op)
    et = rt.element_type
    if kind(et) == "?":
        raise Unsupported(f"element type {et}")
    depth = attr_int(op, "depth", 1)
    on, off = attr_float(op, "on_value", 1.0), attr_float(op, "off_value", 0.0)
    if isinstance(et, ir.IntegerType) and not (math.isfinite(on) and math.isfinite(off)):
        raise Unsupported("non-finite on/off value for an integer result")
    axis = _norm_axis(attr_int(op, "axis", -1), rt.rank)
    in_dims = [d for d in range(rt.rank) if d != axis]
    conv = (lambda v: v) if isinstance(et, ir.FloatType) else int

    def body(args, index):
        i = _to_index(args[0])
        i = arith.select(arith.cmpi(arith.CmpIPredicate.slt, i, _index(0)), arith.addi(i, _index(depth)), i)
        hit = arith.cmpi(arith.CmpIPredicate.eq, i, index(axis))
        return arith.select(hit, _scalar(et, conv(on)), _scalar(et, conv(off)))

    del it
    return _generic(rt, [(indices, _dims_map(rt.rank, in_dims))], body)


# --------------------------------------------------------------------------
# trans_data
# --------------------------------------------------------------------------

_PLAIN = {"NCHW": "NCHW", "NHWC": "NHWC", "HWCN": "HWCN"}


def _c0(et: ir.Type) -> int:
    bits = ir.FloatType(et).width if isinstance(et, ir.FloatType) else ir.IntegerType(et).width
    return 32 // max(1, bits // 8)


@lowering("trans_data")
def _lower_trans_data(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    et = st.element_type
    if not isinstance(et, (ir.IntegerType, ir.FloatType)):
        raise Unsupported(f"element type {et}")
    src, dst = attr_enum(op, "src_format", "ND"), attr_enum(op, "dst_format", "ND")
    c0 = _c0(et)
    shape = list(st.shape)
    if src == dst:
        if st.shape != rt.shape:
            raise Unsupported("same format with a different shape")
        return x
    if src in _PLAIN and dst in _PLAIN:
        return transpose(x, [src.index(ch) for ch in dst])
    if src in _PLAIN and dst == "NC1HWC0":
        n, c, h, w = (shape[src.index(ch)] for ch in "NCHW")
        c1 = -(-c // c0)
        y = transpose(x, [src.index(ch) for ch in "NCHW"])
        y = _pad_zero(y, [0, c1 * c0 - c, 0, 0])
        y = expand(y, ir.RankedTensorType.get([n, c1, c0, h, w], et), [[0], [1, 2], [3], [4]])
        return transpose(y, [0, 1, 3, 4, 2])
    if src == "NC1HWC0" and dst in _PLAIN:
        n, c1, h, w, _ = shape
        c = rt.shape[dst.index("C")]
        y = transpose(x, [0, 1, 4, 2, 3])
        y = collapse(y, ir.RankedTensorType.get([n, c1 * c0, h, w], et), [[0], [1, 2], [3], [4]])
        if c != c1 * c0:
            y = _materialize(_extract_slice(y, ir.RankedTensorType.get([n, c, h, w], et), [0] * 4, [n, c, h, w], [1] * 4))
        return transpose(y, ["NCHW".index(ch) for ch in dst])
    if src == "ND" and dst == "FRACTAL_NZ":
        b = shape[:-2]
        m, nn = shape[-2:]
        m1, n1 = -(-m // 16), -(-nn // c0)
        k = len(b)
        y = _pad_zero(x, [0] * k + [m1 * 16 - m, n1 * c0 - nn])
        groups = [[i] for i in range(k)] + [[k, k + 1], [k + 2, k + 3]]
        y = expand(y, ir.RankedTensorType.get([*b, m1, 16, n1, c0], et), groups)
        return transpose(y, [*range(k), k + 2, k, k + 1, k + 3])
    if src == "FRACTAL_NZ" and dst == "ND":
        k = st.rank - 4
        b = shape[:k]
        n1, m1 = shape[k], shape[k + 1]
        m, nn = rt.shape[-2:]
        y = transpose(x, [*range(k), k + 1, k + 2, k, k + 3])
        groups = [[i] for i in range(k)] + [[k, k + 1], [k + 2, k + 3]]
        y = collapse(y, ir.RankedTensorType.get([*b, m1 * 16, n1 * c0], et), groups)
        if (m, nn) != (m1 * 16, n1 * c0):
            y = _materialize(_extract_slice(y, rt, [0] * (k + 2), rt.shape, [1] * (k + 2)))
        return y
    raise Unsupported(f"trans_data {src} -> {dst}")


# --------------------------------------------------------------------------
# Resize
# --------------------------------------------------------------------------


def _const_table(values: np.ndarray, et: ir.Type) -> ir.Value:
    t = ir.RankedTensorType.get(list(values.shape), et)
    if isinstance(et, ir.FloatType):
        arr = values.astype(np.float64 if ir.FloatType(et).width == 64 else np.float32)
    else:
        arr = values.astype(np.int64)
    return arith.constant(t, ir.DenseElementsAttr.get(np.ascontiguousarray(arr), type=t))


@lowering("resize")
def _lower_resize(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    et = st.element_type
    k = kind(et)
    mode = attr_enum(op, "mode", "nearest")
    coord = attr_enum(op, "coordinate_transformation_mode", "half_pixel")
    nearest = attr_enum(op, "nearest_mode", "round_prefer_floor")
    a = attr_float(op, "cubic_coeff_a", -0.75)
    if mode not in ("nearest", "linear", "cubic"):
        raise Unsupported(f"resize mode {mode}")
    if coord == "tf_crop_and_resize":
        raise Unsupported("tf_crop_and_resize needs roi")
    if k not in ("f", "s", "u"):
        raise Unsupported(f"element type {et}")
    if 0 in st.shape:
        raise Unsupported("empty input")
    attrs = op.operation.attributes
    if "scales" in attrs:
        scales = [float(s) for s in ir.DenseF32ArrayAttr(attrs["scales"])]
    else:
        scales = [o / i for o, i in zip(rt.shape, st.shape)]
    axes = [
        d for d in range(st.rank)
        if not (math.isclose(scales[d], 1.0) and rt.shape[d] == st.shape[d])
    ]
    tables = {d: resize_tables(st.shape[d], rt.shape[d], scales[d], mode, coord, nearest, a) for d in axes}
    if not axes:
        return x
    i64 = ir.IntegerType.get_signless(64)

    if mode == "nearest":
        # One gather: out[i] = x[src_0[i_0], src_1[i_1], ...].
        picks = {}
        for d, (idx, w) in tables.items():
            picks[d] = idx[np.arange(idx.shape[0]), np.argmax(w, axis=1)]
        ins = [(_const_table(picks[d], i64), _dims_map(rt.rank, [d])) for d in axes]

        def nbody(args, index):
            src = dict(zip(axes, args))
            idx = [_to_index(src[d]) if d in src else index(d) for d in range(rt.rank)]
            return _extract(x, idx)

        return _generic(rt, ins, nbody)

    # linear/cubic: one weighted generic per resized axis.
    if k == "f":
        ct = ir.F64Type.get() if ir.FloatType(et).width == 64 else ir.F32Type.get()
    else:
        ct = ir.F64Type.get()
    cur = x
    shape = list(st.shape)
    for n_ax, d in enumerate(axes):
        idx, w = tables[d]
        shape[d] = rt.shape[d]
        last = n_ax == len(axes) - 1
        out_t = ir.RankedTensorType.get(shape, et if last else ct)
        n = idx.shape[1]
        ins = [(_const_table(idx[:, j], i64), _dims_map(rt.rank, [d])) for j in range(n)]
        ins += [(_const_table(w[:, j], ct), _dims_map(rt.rank, [d])) for j in range(n)]
        src = cur

        def body(args, index, d=d, n=n, src=src, last=last):
            acc = None
            for j in range(n):
                pos = [_to_index(args[j]) if q == d else index(q) for q in range(rt.rank)]
                v = _extract(src, pos)
                v = _to_compute(v, ct)
                term = arith.mulf(args[n + j], v)
                acc = term if acc is None else arith.addf(acc, term)
            return _from_compute(acc, et) if last else acc

        cur = _generic(out_t, ins, body)
    return cur


def _to_compute(v: ir.Value, ct: ir.Type) -> ir.Value:
    t = v.type
    if isinstance(t, ir.FloatType):
        return convert_float(v, ct)
    s = signless(t)
    v = _cast(v, s)
    return arith.uitofp(ct, v) if ir.IntegerType(t).is_unsigned else arith.sitofp(ct, v)


def _from_compute(v: ir.Value, et: ir.Type) -> ir.Value:
    if isinstance(et, ir.FloatType):
        return convert_float(v, et)
    # Integers: round half to even and saturate (onnx saturate_cast).
    it = ir.IntegerType(et)
    w = it.width
    lo, hi = (0, 2**w - 1) if it.is_unsigned else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)
    v = mmath.roundeven(v)
    v = arith.maximumf(v, arith.constant(v.type, float(lo)))
    v = arith.minimumf(v, arith.constant(v.type, float(hi)))
    s = signless(et)
    y = arith.fptoui(s, v) if it.is_unsigned else arith.fptosi(s, v)
    return _cast(y, et)
