"""Window kernels on channel vectors of NHWC images: max/average pooling and depthwise
convolution. Tiles are blocks of output rows, each staging the band of input rows it reads
(:mod:`.bands`)."""

from __future__ import annotations

from collections.abc import Sequence

from ....errors import Unsupported
from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes
from ..program import Program, run_program
from .bands import band_rows, output_row_block, stage_band


def pool_nhwc_kernel(name: str, elem: str, kind: str, n: int, h: int, w: int, c: int, oh: int, ow: int,
                     kernel: Sequence[int], strides: Sequence[int], pads: Sequence[int],
                     count_include_pad: bool) -> KernelBuilder:
    """Max or average pooling of NHWC images: each output pixel combines the
    window's C-channel vectors with Max/Add. Tiles are blocks of output rows; each
    stages the band of input rows it reads in the unified buffer."""
    eb = elem_bytes(elem)
    align = 32 // eb
    if c % align:
        raise Unsupported(f"NHWC pooling needs channels in multiples of {align} ({c} given)")
    if kind == "avg" and not count_include_pad and any(pads):
        raise Unsupported("average pooling that excludes padding")

    def band_elems(tr: int) -> int:
        return align_up(band_rows(tr, strides[0], kernel[0], 1, h) * w * c, align)

    tr = output_row_block(oh, n, lambda t: (band_elems(t) + 2 * c) * eb <= kernel_builder.UB_BUDGET)
    if not tr:
        raise Unsupported(f"the {kernel[0]} input rows of a {h}x{w}x{c} image one output row reads do not fit "
                          "the unified buffer")
    ytiles = ceil_div(oh, tr)
    tiles = n * ytiles
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, tiles)))
    kb.account(vector_bytes=n * oh * ow * c * kernel[0] * kernel[1] * eb)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    image = kb.tbuf_tensor(pipe, "veccalc", elem, band_elems(tr))
    acc = kb.tbuf_tensor(pipe, "vecout", elem, c)
    p_c, p_tiles = kb.param("channels", c), kb.param("tiles", tiles)
    p_tr, p_yt = kb.param("tile_rows", tr), kb.param("row_tiles", ytiles)
    init = -3.4028234663852886e38 if kind == "max" else 0.0
    if kind == "max" and elem == "f16":
        init = -65504.0
    combine = "max" if kind == "max" else "add"
    with kb.loop(kb.block_idx(), p_tiles, kb.block_num()) as t:
        b = kb.div(t, p_yt)
        oy0 = kb.mul(kb.rem(t, p_yt), p_tr)
        ny = kb.min(kb.sub(kb.c(oh), oy0), p_tr)
        lo = stage_band(kb, image, x_gm, False, b, oy0, ny, c, h, w, strides[0], pads[0], kernel[0], 1, 0)
        kb.flag("mte2_v")
        with kb.loop(kb.mul(oy0, kb.c(ow)), kb.mul(kb.add(oy0, ny), kb.c(ow)), kb.c(1)) as p:
            oy, ox = kb.div(p, kb.c(ow)), kb.rem(p, kb.c(ow))
            kb.duplicate(acc, kb.f(init, elem), p_c)
            for ky in range(kernel[0]):
                for kx in range(kernel[1]):
                    iy = kb.sub(kb.add(kb.mul(oy, kb.c(strides[0])), kb.c(ky)), kb.c(pads[0]))
                    ix = kb.sub(kb.add(kb.mul(ox, kb.c(strides[1])), kb.c(kx)), kb.c(pads[1]))
                    ok = kb.andi(kb.cmp("ult", iy, kb.c(h)), kb.cmp("ult", ix, kb.c(w)))
                    with kb.if_(ok):
                        off = kb.mul(kb.add(kb.mul(kb.sub(iy, lo), kb.c(w)), ix), p_c)
                        kb.vbinary(combine, acc, acc, kb.slice(image, off, c), p_c)
                    kb.end_if()
            if kind == "avg":
                kb.vscalar("muls", acc, acc, kb.f(1.0 / (kernel[0] * kernel[1]), elem), p_c)
            kb.flag("v_mte3")
            kb.copy_out(y_gm, kb.mul(kb.add(kb.mul(b, kb.c(oh * ow)), p), p_c), acc, p_c, pad=True)
            kb.flag("mte3_v")
        kb.flag("v_mte2")
    return kb


def depthwise_nhwc_kernel(name: str, elem: str, n: int, h: int, w: int, c: int, oh: int, ow: int, kh: int, kw: int,
                          strides: Sequence[int], pads: Sequence[int], dilations: Sequence[int], has_bias: bool,
                          epilogue: Program | None) -> KernelBuilder:
    """Depthwise convolution of NHWC images on the vector unit: each output pixel is
    ``sum over the window of x[iy, ix, :] * w[ky, kx, :]`` (+ bias), C-channel vectors combined
    with Mul/Add; ``epilogue`` (one input: the sum) is the fused activation. Tiles are blocks of
    output rows, each staging the band of input rows it reads; the filter (KH x KW x C) and the
    bias stay in the unified buffer."""
    eb = elem_bytes(elem)
    align = 32 // eb
    if c % align:
        raise Unsupported(f"depthwise conv2d needs channels in multiples of {align} ({c} given)")
    temps = epilogue.plan()[1] if epilogue is not None and epilogue.instrs else 0
    fixed = (kh * kw * c + c + (3 + temps) * c) * eb

    def band_elems(tr: int) -> int:
        return align_up(band_rows(tr, strides[0], kh, dilations[0], h) * w * c, align)

    tr = output_row_block(oh, n, lambda t: band_elems(t) * eb + fixed <= kernel_builder.UB_BUDGET)
    if not tr:
        raise Unsupported(f"the input rows one output row of a {h}x{w}x{c} depthwise conv reads do not fit the "
                          "unified buffer")
    ytiles = ceil_div(oh, tr)
    tiles = n * ytiles
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, tiles)))
    kb.account(vector_bytes=2 * n * oh * ow * c * kh * kw * eb)
    x_gm, w_gm = kb.arg("x", elem), kb.arg("w", elem)
    b_gm = kb.arg("bias", elem) if has_bias else None
    y_gm = kb.arg("y", elem)
    pipe = kb.pipe()
    image = kb.tbuf_tensor(pipe, "veccalc", elem, band_elems(tr))
    wbuf = kb.tbuf_tensor(pipe, "veccalc", elem, kh * kw * c)
    bbuf = kb.tbuf_tensor(pipe, "veccalc", elem, c) if has_bias else None
    acc = kb.tbuf_tensor(pipe, "vecout", elem, c)
    prod = kb.tbuf_tensor(pipe, "veccalc", elem, c)
    temp_bufs = [kb.tbuf_tensor(pipe, "veccalc", elem, c) for _ in range(temps)]
    p_c, p_tiles = kb.param("channels", c), kb.param("tiles", tiles)
    p_tr, p_yt = kb.param("tile_rows", tr), kb.param("row_tiles", ytiles)
    kb.copy_in(wbuf, w_gm, kb.c(0), kb.c(kh * kw * c), pad=True)
    if bbuf is not None:
        kb.copy_in(bbuf, b_gm, kb.c(0), p_c, pad=True)
    with kb.loop(kb.block_idx(), p_tiles, kb.block_num()) as t:
        b = kb.div(t, p_yt)
        oy0 = kb.mul(kb.rem(t, p_yt), p_tr)
        ny = kb.min(kb.sub(kb.c(oh), oy0), p_tr)
        lo = stage_band(kb, image, x_gm, False, b, oy0, ny, c, h, w, strides[0], pads[0], kh, dilations[0], 0)
        kb.flag("mte2_v")
        with kb.loop(kb.mul(oy0, kb.c(ow)), kb.mul(kb.add(oy0, ny), kb.c(ow)), kb.c(1)) as p:
            oy, ox = kb.div(p, kb.c(ow)), kb.rem(p, kb.c(ow))
            if bbuf is not None:
                kb.vscalar("muls", acc, bbuf, kb.f(1.0, elem), p_c)
            else:
                kb.duplicate(acc, kb.f(0.0, elem), p_c)
            for ky in range(kh):
                for kx in range(kw):
                    iy = kb.sub(kb.add(kb.mul(oy, kb.c(strides[0])), kb.c(ky * dilations[0])), kb.c(pads[0]))
                    ix = kb.sub(kb.add(kb.mul(ox, kb.c(strides[1])), kb.c(kx * dilations[1])), kb.c(pads[1]))
                    ok = kb.andi(kb.cmp("ult", iy, kb.c(h)), kb.cmp("ult", ix, kb.c(w)))
                    with kb.if_(ok):
                        off = kb.mul(kb.add(kb.mul(kb.sub(iy, lo), kb.c(w)), ix), p_c)
                        kb.vbinary("mul", prod, kb.slice(image, off, c), kb.slice(wbuf, kb.c((ky * kw + kx) * c), c),
                                   p_c)
                        kb.vbinary("add", acc, acc, prod, p_c)
                    kb.end_if()
            if epilogue is not None and epilogue.instrs:
                run_program(kb, epilogue, {0: acc}, temp_bufs, acc, p_c, elem, None)
            kb.flag("v_mte3")
            kb.copy_out(y_gm, kb.mul(kb.add(kb.mul(b, kb.c(oh * ow)), p), p_c), acc, p_c, pad=True)
            kb.flag("mte3_v")
        kb.flag("v_mte2")
    return kb
