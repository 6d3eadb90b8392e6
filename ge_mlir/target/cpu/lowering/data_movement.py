"""Lowerings of the ge ops that move data without computing indices from data
(static shapes, except where noted).

* reshape/flatten/squeeze/unsqueeze: ``tensor.collapse_shape`` or
  ``tensor.expand_shape`` when one reassociation relates the shapes, else a
  collapse to 1-D followed by an expand;
* transpose and the plain trans_data permutations: ``linalg.transpose``;
  NC1HWC0 / FRACTAL_NZ: zero padding + expand/collapse + transpose
  (+ ``extract_slice`` to the ``original_shape`` on the way back);
* concat and constant pad: ``linalg.copy`` into ``extract_slice`` windows of
  the (filled) result, put back with ``insert_slice``; split and positive-step
  slice: ``extract_slice`` copied out with ``linalg.copy`` (see
  :func:`.movement_common._materialize`); concat and split also take ``?`` dims;
* expand and tile: a copying ``linalg.generic`` with broadcast maps (tile
  broadcasts to ``[r0, d0, r1, d1, ...]`` and collapses pairs);
* negative-step slice and reflect/edge/wrap pad: a ``linalg.generic`` over the
  result whose body computes source indices and reads with ``tensor.extract``.

The other data-movement families: :mod:`.indexing` (gather, scatter, one_hot),
:mod:`.shape_ops` (shape, dynamic_reshape, fill, range) and :mod:`.resize`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mlir import ir
from mlir.dialects import arith, linalg, tensor

from ....irutils.attrs import attr_enum, attr_float, attr_int, attr_ints
from .common import (DYN, Unsupported, as_type, collapse, dim_sizes, empty, expand, fit, kind, lowering, reshape_to,
    same_size, transpose)
from .movement_common import (_dims_map, _empty, _extract, _extract_slice, _fill, _generic, _index, _insert_copy,
    _materialize, _norm_axis, _operand, _pad_zero, _ranked, _result, _scalar, _static, _value)


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
