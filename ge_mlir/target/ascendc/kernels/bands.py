"""Bands of input rows: a tile of output rows of a convolution or pooling window reads a band of
consecutive input rows, which im2col (:mod:`.cube`) and the window kernels (:mod:`.window`)
stage in the unified buffer whole."""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir

from .. import kernel_builder
from ..kernel_builder import KernelBuilder, ceil_div


def band_rows(tr: int, stride: int, k: int, dil: int, h: int) -> int:
    """Input rows a block of ``tr`` output rows reads (at most ``h``)."""
    return min(h, (tr - 1) * stride + (k - 1) * dil + 1)


def output_row_block(oh: int, n: int, fits: Callable[[int], bool]) -> int:
    """Output rows per tile: the most whose input band fits, but enough tiles for every block."""
    tr = next((t for t in range(oh, 0, -1) if fits(t)), 0)
    return min(tr, max(1, ceil_div(oh, ceil_div(kernel_builder.MAX_BLOCKS, n)))) if tr else 0


def stage_band(kb: KernelBuilder, src: ir.Value, x_gm: ir.Value, nchw: bool, b: ir.Value, oy0: ir.Value,
                ny: ir.Value, c: int, h: int, w: int, stride: int, pad: int, k: int, dil: int,
                bslot: int) -> ir.Value:
    """Copies the input rows output rows ``[oy0, oy0 + ny)`` read into ``src`` (NHWC: one run of
    rows; NCHW: one run per channel, ``bslot`` apart) and returns the first staged row."""
    a = kb.mul(oy0, kb.c(stride))
    lo = kb.pick(kb.cmp("ugt", a, kb.c(pad)), kb.sub(a, kb.c(pad)), kb.c(0))
    e = kb.add(kb.mul(kb.add(oy0, kb.sub(ny, kb.c(1))), kb.c(stride)), kb.c((k - 1) * dil + 1))
    hi = kb.pick(kb.cmp("ugt", e, kb.c(pad)), kb.min(kb.sub(e, kb.c(pad)), kb.c(h)), kb.c(0))
    with kb.if_(kb.cmp("ugt", hi, lo)):
        nrows = kb.sub(hi, lo)
        if nchw:
            with kb.loop(kb.c(0), kb.c(c), kb.c(1)) as ci:
                off = kb.mul(kb.add(kb.mul(kb.add(kb.mul(b, kb.c(c)), ci), kb.c(h)), lo), kb.c(w))
                kb.copy_in(kb.slice(src, kb.mul(ci, kb.c(bslot)), bslot), x_gm, off, kb.mul(nrows, kb.c(w)), pad=True)
        else:
            off = kb.mul(kb.add(kb.mul(b, kb.c(h)), lo), kb.c(w * c))
            kb.copy_in(src, x_gm, off, kb.mul(nrows, kb.c(w * c)), pad=True)
    kb.end_if()
    return lo
