"""The ``Cast`` kernel: element type conversions with a round mode, tile by tile."""

from __future__ import annotations

from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes, local_t


def cast_kernel(name: str, src: str, dst: str, total: int, mode: str | None = None) -> KernelBuilder:
    """``Cast`` with round ``mode`` (default: nearest even when narrowing, exact when widening)."""
    sb, db = elem_bytes(src), elem_bytes(dst)
    align = 32 // min(sb, db)
    tile = max(align, (kernel_builder.UB_BUDGET // (2 * sb + 2 * db)) // align * align)
    tile = min(tile, align_up(total, align))
    ntiles = ceil_div(total, tile)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, ntiles)))
    kb.account(vector_bytes=total * max(sb, db))
    x_gm, y_gm = kb.arg("x", src), kb.arg("y", dst)
    pipe = kb.pipe()
    lt, ot = local_t(src, tile, "vecin"), local_t(dst, tile, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, tile * sb)
    outq = kb.queue(pipe, "vecout", 2, 2, tile * db)
    p_total, p_tile, p_nt = kb.param("total", total), kb.param("tile", tile), kb.param("ntiles", ntiles)
    mode = mode or ("rint" if db < sb else "none")
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_nt, bnum) as t:
        off = kb.mul(t, p_tile)
        cnt = kb.min(kb.sub(p_total, off), p_tile)
        x = kb.alloc(inq, lt)
        kb.copy_in(x, x_gm, off, cnt, pad=True)
        kb.enque(inq, x)
        xv = kb.deque(inq, lt)
        y = kb.alloc(outq, ot)
        kb.cast(y, xv, mode, cnt)
        kb.free(inq, xv)
        kb.enque(outq, y)
        yv = kb.deque(outq, ot)
        kb.copy_out(y_gm, off, yv, cnt, pad=True)
        kb.free(outq, yv)
    return kb
