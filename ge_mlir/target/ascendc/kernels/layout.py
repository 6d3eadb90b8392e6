"""Layout kernels: transposes. :func:`transpose_rows_kernel` -- permutations that keep the last
axis (row copies); :func:`transpose2d_kernel` -- swapping the last two axes through the unified
buffer (in tiles for matrices larger than it)."""

from __future__ import annotations

from collections.abc import Sequence

from ....errors import Unsupported
from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes


def transpose_rows_kernel(name: str, elem: str, in_shape: Sequence[int], perm: Sequence[int]) -> KernelBuilder:
    """A permutation that keeps the last axis: each output row is one input row."""
    rank = len(in_shape)
    if perm[-1] != rank - 1:
        raise AssertionError("transpose_rows_kernel needs perm[-1] == rank - 1")
    out_shape = [in_shape[p] for p in perm]
    cols = in_shape[-1]
    rows = 1
    for d in out_shape[:-1]:
        rows *= d
    in_strides = [1] * rank
    for i in range(rank - 2, -1, -1):
        in_strides[i] = in_strides[i + 1] * in_shape[i + 1]
    eb = elem_bytes(elem)
    slot = align_up(cols, 32 // eb)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    # GM -> UB -> GM with no compute: a queue would sync MTE2 -> V, so the
    # row buffer is plain and the MTE2 -> MTE3 (and back) order is explicit.
    row = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_rows, bnum) as r:
        # Decompose the output row index over the output's leading axes.
        rest, src = r, kb.c(0)
        for ax in range(rank - 2, -1, -1):
            d = kb.c(out_shape[ax])
            idx = kb.rem(rest, d)
            rest = kb.div(rest, d)
            src = kb.add(src, kb.mul(idx, kb.c(in_strides[perm[ax]])))
        kb.copy_in(row, x_gm, src, p_cols, pad=True)
        kb.flag("mte2_mte3")
        kb.copy_out(y_gm, kb.mul(r, p_cols), row, p_cols, pad=True)
        kb.flag("mte3_mte2")
    return kb


def transpose2d_kernel(name: str, elem: str, batch: int, rows: int, cols: int) -> KernelBuilder:
    """``y[b] = x[b]^T`` (x[b] is rows x cols) through the unified buffer, one matrix per step."""
    eb = elem_bytes(elem)
    n = rows * cols
    size = align_up(n, 32 // eb)
    if 2 * size * eb > kernel_builder.UB_BUDGET:
        return _transpose2d_tiled(name, elem, batch, rows, cols)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, batch)))
    kb.account(scalar_ops=batch * n)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, size)
    dst = kb.tbuf_tensor(pipe, "vecout", elem, size)
    p_b, p_n = kb.param("batch", batch), kb.param("numel", n)
    c_rows, c_cols = kb.c(rows), kb.c(cols)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_b, bnum) as b:
        off = kb.mul(b, p_n)
        kb.copy_in(src, x_gm, off, p_n, pad=True)
        kb.flag("mte2_s")
        with kb.loop(kb.c(0), c_rows, kb.c(1)) as i, kb.loop(kb.c(0), c_cols, kb.c(1)) as j:
            v = kb.get_value(src, kb.add(kb.mul(i, c_cols), j))
            kb.set_value(dst, kb.add(kb.mul(j, c_rows), i), v)
        kb.flag("s_mte3")
        kb.copy_out(y_gm, off, dst, p_n, pad=True)
        # The next matrix overwrites both buffers: wait for this one's copies.
        kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb


def _transpose2d_tiled(name: str, elem: str, batch: int, rows: int, cols: int) -> KernelBuilder:
    """``y[b] = x[b]^T`` for matrices larger than the unified buffer: TR x TC tiles, each brought in
    as TR row pieces (DataCopyPad), transposed on the scalar pipe, written as TC row pieces."""
    eb = elem_bytes(elem)
    align = 32 // eb
    room = kernel_builder.UB_BUDGET // eb
    tr = min(rows, 128)
    # src: TR rows of align_up(TC) slots; dst: TC rows of align_up(TR) slots.
    tc = min(cols, (room - tr * align) // (tr + align_up(tr, align)) // align * align)
    if tc < 1:
        raise Unsupported(f"a {rows}x{cols} matrix: no transpose tile fits the unified buffer")
    sc, sr = align_up(tc, align), align_up(tr, align)
    rt, ct = ceil_div(rows, tr), ceil_div(cols, tc)
    tiles = batch * rt * ct
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, tiles)))
    kb.account(scalar_ops=batch * rows * cols)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, tr * sc)
    dst = kb.tbuf_tensor(pipe, "vecout", elem, tc * sr)
    p_rows, p_cols, p_tr, p_tc = kb.param("rows", rows), kb.param("cols", cols), kb.param("tr", tr), kb.param("tc", tc)
    p_ct, p_rc = kb.param("col_tiles", ct), kb.param("tiles_per_matrix", rt * ct)
    p_tiles = kb.param("tiles", tiles)
    c_sc, c_sr, one = kb.c(sc), kb.c(sr), kb.c(1)
    with kb.loop(kb.block_idx(), p_tiles, kb.block_num()) as t:
        b = kb.div(t, p_rc)
        rest = kb.rem(t, p_rc)
        r0 = kb.mul(kb.div(rest, p_ct), p_tr)
        c0 = kb.mul(kb.rem(rest, p_ct), p_tc)
        nr = kb.min(kb.sub(p_rows, r0), p_tr)
        nc = kb.min(kb.sub(p_cols, c0), p_tc)
        base = kb.mul(kb.mul(b, p_rows), p_cols)
        with kb.loop(kb.c(0), nr, one) as i:
            kb.copy_in(kb.slice(src, kb.mul(i, c_sc), sc), x_gm, kb.add(base, kb.add(kb.mul(kb.add(r0, i), p_cols), c0)),
                       nc, pad=True)
        kb.flag("mte2_s")
        with kb.loop(kb.c(0), nr, one) as i, kb.loop(kb.c(0), nc, one) as j:
            v = kb.get_value(src, kb.add(kb.mul(i, c_sc), j))
            kb.set_value(dst, kb.add(kb.mul(j, c_sr), i), v)
        kb.flag("s_mte3")
        with kb.loop(kb.c(0), nc, one) as j:
            kb.copy_out(y_gm, kb.add(base, kb.add(kb.mul(kb.add(c0, j), p_rows), r0)), kb.slice(dst, kb.mul(j, c_sr), sr),
                        nr, pad=True)
        # The next tile overwrites both buffers: wait for this one's copies.
        kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb
