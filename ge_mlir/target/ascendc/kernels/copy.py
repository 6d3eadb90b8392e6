"""Data-movement kernels of the ge -> ascendc lowering: strided row copies, gathers, selects
and fills.

* :func:`copy_rows_kernel` -- ``y[dst] = x[src]`` for rows addressed by affine
  functions of a row index (split, concat, slice, expand, tile, transposes that
  keep the last axis, the pixel shuffle after a transposed convolution);
* :func:`gather_kernel` -- ``y[o, i, :] = x[o, idx[i], :]`` with the indices read
  from global memory on the scalar pipe (embedding lookups, ONNX Gather);
* :func:`coalesce` -- merges the axes of a strided copy into as few rows of
  contiguous elements as possible (the longest DataCopyPad bursts);
* :func:`where_kernel` -- ``Select`` with a compile-time mask; :func:`fill_kernel` -- a
  constant (the border of a pad).

The copy and gather kernels stage a row (or a chunk of a long row) in the unified buffer:
MTE2 brings it in, MTE3 writes it out, with explicit ``MTE2 -> MTE3`` and
``MTE3 -> MTE2`` flags around the one buffer. Blocks take rows round-robin by
``GetBlockIdx()``, so every output row is written by exactly one block.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir

from ....errors import Unsupported
from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes, local_t


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def coalesce(shape: Sequence[int], src: Sequence[int], dst: Sequence[int]) -> tuple[list[int], int, list[int],
                                                                                    list[int]]:
    """``(dims, cols, src_strides, dst_strides)``: the copy of ``shape`` from ``src``-strided to
    ``dst``-strided memory as rows over ``dims`` of ``cols`` contiguous elements on both sides."""
    axes = [(d, s, t) for d, s, t in zip(shape, src, dst) if d != 1]
    merged: list[list[int]] = []
    for d, s, t in axes:
        if merged and merged[-1][1] == s * d and merged[-1][2] == t * d:
            merged[-1] = [merged[-1][0] * d, s, t]
        else:
            merged.append([d, s, t])
    cols = 1
    if merged and merged[-1][1] == 1 and merged[-1][2] == 1:
        cols = merged.pop()[0]
    return [m[0] for m in merged], cols, [m[1] for m in merged], [m[2] for m in merged]


def _row_offsets(kb: KernelBuilder, r: ir.Value, dims: Sequence[int], strides: Sequence[Sequence[int]],
                 bases: Sequence[int]) -> list[ir.Value]:
    """Offsets ``base + sum(i_k * stride_k)`` of row ``r`` (row-major over ``dims``), per stride list."""
    offs = [kb.c(b) for b in bases]
    rest = r
    for ax in range(len(dims) - 1, -1, -1):
        d = kb.c(dims[ax])
        idx = kb.rem(rest, d) if ax else rest
        if ax:
            rest = kb.div(rest, d)
        for j, st in enumerate(strides):
            if st[ax]:
                offs[j] = kb.add(offs[j], kb.mul(idx, kb.c(st[ax])))
    return offs


def _copy_row(kb: KernelBuilder, buf: ir.Value, x_gm: ir.Value, src: ir.Value, y_gm: ir.Value, dst: ir.Value,
              p_cols: ir.Value, p_chunk: ir.Value, chunked: bool) -> None:
    """One row through ``buf``: DataCopyPad in, DataCopyPad out, in chunks when the row is long."""
    def piece(s: ir.Value, d: ir.Value, n: ir.Value) -> None:
        kb.copy_in(buf, x_gm, s, n, pad=True)
        kb.flag("mte2_mte3")
        kb.copy_out(y_gm, d, buf, n, pad=True)
        kb.flag("mte3_mte2")

    if not chunked:
        piece(src, dst, p_cols)
        return
    with kb.loop(kb.c(0), p_cols, p_chunk) as j:
        piece(kb.add(src, j), kb.add(dst, j), kb.min(kb.sub(p_cols, j), p_chunk))


def _chunk(elem: str, cols: int, reserved: int = 0) -> int:
    align = 32 // elem_bytes(elem)
    room = max(align, ((kernel_builder.UB_BUDGET - reserved) // elem_bytes(elem)) // align * align)
    return min(align_up(cols, align), room)


def copy_rows_kernel(name: str, elem: str, dims: Sequence[int], cols: int, src_strides: Sequence[int],
                     src_offset: int, dst_strides: Sequence[int], dst_offset: int) -> KernelBuilder:
    """``y[dst_offset + sum(i*dst_strides) + j] = x[src_offset + sum(i*src_strides) + j]`` for every
    row index ``i`` over ``dims`` and ``j < cols`` (see :func:`coalesce`). Source strides may be 0
    (a broadcast)."""
    rows = 1
    for d in dims:
        rows *= d
    chunk = _chunk(elem, cols)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    buf = kb.tbuf_tensor(pipe, "veccalc", elem, chunk)
    p_rows, p_cols, p_chunk = kb.param("rows", rows), kb.param("cols", cols), kb.param("chunk", chunk)
    with kb.loop(kb.block_idx(), p_rows, kb.block_num()) as r:
        src, dst = _row_offsets(kb, r, dims, [src_strides, dst_strides], [src_offset, dst_offset])
        _copy_row(kb, buf, x_gm, src, y_gm, dst, p_cols, p_chunk, chunk < cols)
    return kb


def gather_kernel(name: str, elem: str, idx_elem: str, outer: int, axis_dim: int, nidx: int,
                  inner: int) -> KernelBuilder:
    """``y[o, i, :] = x[o, idx[i], :]`` (``x`` is outer x axis_dim x inner, ``y`` outer x nidx x
    inner); a negative index counts from the end, as in ONNX Gather. The indices come in chunks into
    the unified buffer and are read on the scalar pipe. An index outside ``[-axis_dim, axis_dim)``
    reads outside ``x`` (the shim reports it; ONNX leaves it undefined)."""
    if idx_elem not in ("i64", "i32"):
        raise Unsupported(f"gather indices of type {idx_elem}")
    ib = elem_bytes(idx_elem)
    ichunk = min(align_up(nidx, 32 // ib), 2048)
    chunk = _chunk(elem, inner, ichunk * ib)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, nidx)))
    kb.account(scalar_ops=outer * nidx)
    x_gm, i_gm, y_gm = kb.arg("x", elem), kb.arg("indices", idx_elem), kb.arg("y", elem)
    pipe = kb.pipe()
    ibuf = kb.tbuf_tensor(pipe, "veccalc", idx_elem, ichunk)
    buf = kb.tbuf_tensor(pipe, "veccalc", elem, chunk)
    p_outer, p_axis, p_nidx = kb.param("outer", outer), kb.param("axis_dim", axis_dim), kb.param("nidx", nidx)
    p_inner, p_chunk, p_ichunk = kb.param("inner", inner), kb.param("chunk", chunk), kb.param("ichunk", ichunk)
    bidx, bnum = kb.block_idx(), kb.block_num()
    zero, wrap = kb.ci(0, idx_elem), kb.ci(axis_dim, idx_elem)
    with kb.loop(kb.c(0), p_outer, kb.c(1)) as o:
        with kb.loop(kb.c(0), p_nidx, p_ichunk) as c0:
            cn = kb.min(kb.sub(p_nidx, c0), p_ichunk)
            kb.copy_in(ibuf, i_gm, c0, cn, pad=True)
            kb.flag("mte2_s")
            with kb.loop(bidx, cn, bnum) as i:
                v = kb.get_value(ibuf, i)
                v = kb.pick(kb.cmp("slt", v, zero), kb.add(v, wrap), v)
                row = kb.add(kb.mul(o, p_axis), kb.index_cast(v))
                dst = kb.mul(kb.add(kb.mul(o, p_nidx), kb.add(c0, i)), p_inner)
                _copy_row(kb, buf, x_gm, kb.mul(row, p_inner), y_gm, dst, p_inner, p_chunk, chunk < inner)
            # The next chunk of indices overwrites what the scalar pipe read.
            kb.flag("s_mte2")
    return kb


def where_kernel(name: str, elem: str, total: int, x_scalar: float | None, y_scalar: float | None) -> KernelBuilder:
    """``out = mask ? x : y`` with ``Select`` (VSEL_TENSOR_TENSOR_MODE: a set bit picks src0). The mask
    is one bit per output element, LSB first, in global memory (a compile-time condition packed by the
    lowering); ``x``/``y`` are full tensors, or scalars duplicated into a tile once per block."""
    if elem not in ("f32", "f16"):
        raise Unsupported(f"where on {elem} (Select takes half or float)")
    eb = elem_bytes(elem)
    tensors = [s is None for s in (x_scalar, y_scalar)]
    # Tiles of 256 elements: the mask of a tile is then whole 32-byte blocks.
    units = 2 * sum(tensors) + 2 + sum(1 for t in tensors if not t)
    tile = max(256, (kernel_builder.UB_BUDGET // (units * eb + 1)) // 256 * 256)
    tile = min(tile, align_up(total, 256))
    ntiles = ceil_div(total, tile)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, ntiles)))
    kb.account(vector_bytes=total * eb)
    m_gm = kb.arg("mask", "ui8")
    x_gm = kb.arg("x", elem) if x_scalar is None else None
    y_gm = kb.arg("y", elem) if y_scalar is None else None
    o_gm = kb.arg("out", elem)
    pipe = kb.pipe()
    lt, ot, mt = local_t(elem, tile, "vecin"), local_t(elem, tile, "vecout"), local_t("ui8", tile // 8, "vecin")
    mq = kb.queue(pipe, "vecin", 2, 2, tile // 8)
    qs = [kb.queue(pipe, "vecin", 2, 2, tile * eb) if gm is not None else None for gm in (x_gm, y_gm)]
    oq = kb.queue(pipe, "vecout", 2, 2, tile * eb)
    consts = {}
    for i, s in enumerate((x_scalar, y_scalar)):
        if s is not None:
            consts[i] = kb.tbuf_tensor(pipe, "veccalc", elem, tile)
    p_total, p_tile, p_nt = kb.param("total", total), kb.param("tile", tile), kb.param("ntiles", ntiles)
    for i, buf in consts.items():
        kb.duplicate(buf, kb.f((x_scalar, y_scalar)[i], elem), p_tile)
    with kb.loop(kb.block_idx(), p_nt, kb.block_num()) as t:
        off = kb.mul(t, p_tile)
        cnt = kb.min(kb.sub(p_total, off), p_tile)
        m = kb.alloc(mq, mt)
        kb.copy_in(m, m_gm, kb.div(off, kb.c(8)), kb.ceil_div(cnt, kb.c(8)), pad=True)
        kb.enque(mq, m)
        srcs = {}
        for i, (q, gm) in enumerate(zip(qs, (x_gm, y_gm))):
            if q is not None:
                v = kb.alloc(q, lt)
                kb.copy_in(v, gm, off, cnt, pad=True)
                kb.enque(q, v)
        mv = kb.deque(mq, mt)
        for i, q in enumerate(qs):
            srcs[i] = kb.deque(q, lt) if q is not None else consts[i]
        out = kb.alloc(oq, ot)
        kb.vselect(out, mv, srcs[0], srcs[1], cnt)
        kb.free(mq, mv)
        for i, q in enumerate(qs):
            if q is not None:
                kb.free(q, srcs[i])
        kb.enque(oq, out)
        ov = kb.deque(oq, ot)
        kb.copy_out(o_gm, off, ov, cnt, pad=True)
        kb.free(oq, ov)
    return kb


def fill_kernel(name: str, elem: str, total: int, value: float) -> KernelBuilder:
    """``y[:] = value``: one tile duplicated once per block, written tile by tile (DataCopyPad tail)."""
    eb = elem_bytes(elem)
    align = 32 // eb
    tile = min(align_up(total, align), max(align, (kernel_builder.UB_BUDGET // eb) // align * align))
    ntiles = ceil_div(total, tile)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, ntiles)))
    y_gm = kb.arg("y", elem)
    pipe = kb.pipe()
    buf = kb.tbuf_tensor(pipe, "vecout", elem, tile)
    p_total, p_tile, p_nt = kb.param("total", total), kb.param("tile", tile), kb.param("ntiles", ntiles)
    kb.duplicate(buf, kb.f(value, elem), p_tile)
    kb.flag("v_mte3")
    with kb.loop(kb.block_idx(), p_nt, kb.block_num()) as t:
        off = kb.mul(t, p_tile)
        kb.copy_out(y_gm, off, buf, kb.min(kb.sub(p_total, off), p_tile), pad=True)
    return kb
