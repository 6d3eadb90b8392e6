"""Cube kernels: the matmul on the cube unit, and im2col, which lays a convolution's patches out
as the B^T of a matmul.

:func:`matmul_kernel` -- ``C[b] = A[b] x B[b]``: Nd2Nz into L1, LoadData into L0A/L0B, Mmad
accumulating over K tiles in L0C, Fixpipe to GM. B is given transposed (``Bt``, N x K), the
layout the fp32 L0B fractal wants. :func:`im2col_kernel` -- convolution patches gathered in the
unified buffer.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir

from ....errors import Unsupported
from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes, local_t
from .bands import band_rows, output_row_block, stage_band


def matmul_kernel(name: str, elem: str, batch: int, m: int, n: int, k: int, a_batched: bool,
                  b_batched: bool, out_elem: str | None = None) -> KernelBuilder:
    """``C[b] (M x N) = A[b] (M x K) x Bt[b]^T`` with ``Bt`` N x K.

    The cube accumulates in f32 (L0C); Fixpipe writes ``out_elem`` (f16
    results are converted on the way out).

    Tiles of TM x TN outputs (TK-deep K steps) go round-robin to the blocks;
    queues on every cube position carry the MTE2 -> MTE1 -> M -> FIX
    synchronisation.
    """
    if elem not in ("f32", "f16"):
        raise Unsupported(f"matmul on {elem} (the cube template handles f32 and f16)")
    eb = elem_bytes(elem)
    c0 = 32 // eb
    tm = min(align_up(m, 16), 128)
    tn = min(align_up(n, 16), 128)
    tk = min(align_up(k, c0), (65536 // (max(tm, tn) * eb)) // c0 * c0)
    mt, nt, kt = ceil_div(m, tm), ceil_div(n, tn), ceil_div(k, tk)
    tiles = batch * mt * nt
    kb = KernelBuilder(name, kind="cube", blocks=max(1, min(kernel_builder.MAX_CUBE_BLOCKS, tiles)))
    kb.account(cube_flops=2 * batch * m * n * k)
    a_gm = kb.arg("a", elem)
    bt_gm = kb.arg("bt", elem)
    out_elem = out_elem or elem
    c_gm = kb.arg("c", out_elem)
    pipe = kb.pipe()
    frag = 16 * c0                                  # elements of one 512-byte fractal
    a1t, b1t = local_t(elem, tm * tk, "a1"), local_t(elem, tn * tk, "b1")
    a2t, b2t = local_t(elem, tm * tk, "a2"), local_t(elem, tn * tk, "b2")
    cct = local_t("f32", tm * tn, "co1")
    qa1 = kb.queue(pipe, "a1", 1, 1, tm * tk * eb)
    qb1 = kb.queue(pipe, "b1", 1, 1, tn * tk * eb)
    qa2 = kb.queue(pipe, "a2", 1, 1, tm * tk * eb)
    qb2 = kb.queue(pipe, "b2", 1, 1, tn * tk * eb)
    qc = kb.queue(pipe, "co1", 1, 1, tm * tn * 4)
    p_m, p_n, p_k = kb.param("m", m), kb.param("n", n), kb.param("k", k)
    p_tm, p_tn, p_tk = kb.param("tm", tm), kb.param("tn", tn), kb.param("tk", tk)
    p_nt, p_kt = kb.param("nt", nt), kb.param("kt", kt)
    p_mnt = kb.param("mn_tiles", mt * nt)
    p_tiles = kb.param("tiles", tiles)
    p_sa = kb.param("a_batch_stride", m * k if a_batched else 0)
    p_sb = kb.param("b_batch_stride", n * k if b_batched else 0)
    p_sc = kb.param("c_batch_stride", m * n)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    c16, c_c0, c_frag = kb.c(16), kb.c(c0), kb.c(frag)
    with kb.loop(bidx, p_tiles, bnum) as t:
        bi = kb.div(t, p_mnt)
        rest = kb.rem(t, p_mnt)
        m0 = kb.mul(kb.div(rest, p_nt), p_tm)
        n0 = kb.mul(kb.rem(rest, p_nt), p_tn)
        msz = kb.min(kb.sub(p_m, m0), p_tm)
        nsz = kb.min(kb.sub(p_n, n0), p_tn)
        mb = kb.ceil_div(msz, c16)
        nb = kb.ceil_div(nsz, c16)
        a_base = kb.add(kb.mul(bi, p_sa), kb.mul(m0, p_k))
        b_base = kb.add(kb.mul(bi, p_sb), kb.mul(n0, p_k))
        c = kb.alloc(qc, cct)
        with kb.loop(kb.c(0), p_kt, kb.c(1)) as kk:
            k0 = kb.mul(kk, p_tk)
            ksz = kb.min(kb.sub(p_k, k0), p_tk)
            kbk = kb.ceil_div(ksz, c_c0)
            a1 = kb.alloc(qa1, a1t)
            kb.copy_nd2nz(a1, a_gm, kb.add(a_base, k0), msz, ksz, src_d_value=k, dst_nz_c0_stride=tm)
            kb.enque(qa1, a1)
            b1 = kb.alloc(qb1, b1t)
            kb.copy_nd2nz(b1, bt_gm, kb.add(b_base, k0), nsz, ksz, src_d_value=k, dst_nz_c0_stride=tn)
            kb.enque(qb1, b1)
            a1v = kb.deque(qa1, a1t)
            b1v = kb.deque(qb1, b1t)
            a2 = kb.alloc(qa2, a2t)
            b2 = kb.alloc(qb2, b2t)
            # L1 fractal (mi, ki) of A is at ki * (TM/16) + mi; L0A wants mi * kb + ki.
            with kb.loop(kb.c(0), mb, kb.c(1)) as mi:
                dst = _cube_slice(kb, a2, kb.mul(kb.mul(mi, kbk), c_frag), frag)
                kb.load_data_2d(dst, a1v, mi, kbk, kb.c(tm // 16))
            # L1 fractal (ni, ki) of Bt is at ki * (TN/16) + ni; L0B wants ki * nb + ni.
            with kb.loop(kb.c(0), kbk, kb.c(1)) as ki:
                dst = _cube_slice(kb, b2, kb.mul(kb.mul(ki, nb), c_frag), frag)
                kb.load_data_2d(dst, b1v, kb.mul(ki, kb.c(tn // 16)), nb, kb.c(1))
            kb.free(qa1, a1v)
            kb.free(qb1, b1v)
            kb.enque(qa2, a2)
            kb.enque(qb2, b2)
            a2v = kb.deque(qa2, a2t)
            b2v = kb.deque(qb2, b2t)
            first = kb.eq(kk, kb.c(0))
            # m == 1 would switch the cube to GEMV mode (A read as K contiguous elements); A is
            # laid out as a 16-row fractal, so pad M to 16 as the Matmul library does. Only row 0
            # of the result is copied out (Fixpipe takes msz rows).
            mmad_m = kb.select(kb.eq(msz, kb.c(1)), lambda: kb.c(16), msz)
            kb.mmad(c, a2v, b2v, first, mmad_m, nsz, ksz)
            kb.free(qa2, a2v)
            kb.free(qb2, b2v)
        kb.enque(qc, c)
        cv = kb.deque(qc, cct)
        c_off = kb.add(kb.add(kb.mul(bi, p_sc), kb.mul(m0, p_n)), n0)
        kb.fixpipe(c_gm, c_off, cv, msz, nsz, kb.mul(mb, c16), dst_stride=n)
        kb.free(qc, cv)
    return kb


def _cube_slice(kb: KernelBuilder, t: ir.Value, off: ir.Value, frag: int) -> ir.Value:
    """``t[off]`` as the destination of a LoadData.

    Local types need a static size and the offset is dynamic, so the view is
    typed as one fractal (the least a LoadData writes); ``t[off]`` in Ascend
    C reaches to the end of ``t``, and the shim checks the repeats against
    that at run time.
    """
    return kb.slice(t, off, frag)


def im2col_kernel(name: str, elem: str, nchw: bool, n: int, c: int, h: int, w: int, kh: int, kw: int,
                  oh: int, ow: int, strides: Sequence[int], pads: Sequence[int],
                  dilations: Sequence[int]) -> KernelBuilder:
    """Patches of a convolution: ``col[b, p, j]`` for output pixel ``p`` and patch
    element ``j`` (order (c, kh, kw) for NCHW, (kh, kw, c) for NHWC), zero
    outside the image. Tiles are blocks of output rows; each stages the band of
    input rows it reads in the unified buffer, fills patch rows on the scalar
    pipe and writes them with DataCopyPad."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ckk = c * kh * kw
    row_size = align_up(ckk, align)

    def band_elems(tr: int) -> int:
        hb = band_rows(tr, strides[0], kh, dilations[0], h)
        return c * align_up(hb * w, align) if nchw else align_up(hb * w * c, align)

    tr = output_row_block(oh, n, lambda t: (band_elems(t) + 2 * row_size) * eb <= kernel_builder.UB_BUDGET)
    if not tr:
        raise Unsupported(f"the input rows one output row of a {c}x{h}x{w} image reads do not fit the "
                          "unified buffer for im2col")
    hb = band_rows(tr, strides[0], kh, dilations[0], h)
    bslot = align_up(hb * w, align)
    ytiles = ceil_div(oh, tr)
    tiles = n * ytiles
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, tiles)))
    kb.account(scalar_ops=n * oh * ow * ckk)
    x_gm, col_gm = kb.arg("x", elem), kb.arg("col", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, band_elems(tr))
    row = kb.tbuf_tensor(pipe, "vecout", elem, row_size)
    p_ckk, p_tiles = kb.param("patch", ckk), kb.param("tiles", tiles)
    p_tr, p_yt = kb.param("tile_rows", tr), kb.param("row_tiles", ytiles)
    zero = kb.f(0.0, elem)
    one = kb.c(1)
    with kb.loop(kb.block_idx(), p_tiles, kb.block_num()) as t:
        b = kb.div(t, p_yt)
        oy0 = kb.mul(kb.rem(t, p_yt), p_tr)
        ny = kb.min(kb.sub(kb.c(oh), oy0), p_tr)
        lo = stage_band(kb, src, x_gm, nchw, b, oy0, ny, c, h, w, strides[0], pads[0], kh, dilations[0], bslot)
        kb.flag("mte2_s")
        with kb.loop(kb.mul(oy0, kb.c(ow)), kb.mul(kb.add(oy0, ny), kb.c(ow)), one) as p:
            oy, ox = kb.div(p, kb.c(ow)), kb.rem(p, kb.c(ow))
            with kb.loop(kb.c(0), p_ckk, one) as j:
                if nchw:
                    ci = kb.div(j, kb.c(kh * kw))
                    ky = kb.rem(kb.div(j, kb.c(kw)), kb.c(kh))
                    kx = kb.rem(j, kb.c(kw))
                else:
                    ky = kb.div(j, kb.c(kw * c))
                    kx = kb.rem(kb.div(j, kb.c(c)), kb.c(kw))
                    ci = kb.rem(j, kb.c(c))
                # iy = oy * s + ky * d - pad, unsigned: "negative" wraps past h and reads as outside.
                iy = kb.sub(kb.add(kb.mul(oy, kb.c(strides[0])), kb.mul(ky, kb.c(dilations[0]))), kb.c(pads[0]))
                ix = kb.sub(kb.add(kb.mul(ox, kb.c(strides[1])), kb.mul(kx, kb.c(dilations[1]))), kb.c(pads[1]))
                ok = kb.andi(kb.cmp("ult", iy, kb.c(h)), kb.cmp("ult", ix, kb.c(w)))
                by = kb.sub(iy, lo)
                if nchw:
                    idx = kb.add(kb.add(kb.mul(ci, kb.c(bslot)), kb.mul(by, kb.c(w))), ix)
                else:
                    idx = kb.add(kb.mul(kb.add(kb.mul(by, kb.c(w)), ix), kb.c(c)), ci)
                v = kb.select(ok, lambda: kb.get_value(src, idx), zero)
                kb.set_value(row, j, v)
            kb.flag("s_mte3")
            off = kb.mul(kb.add(kb.mul(b, kb.c(oh * ow)), p), p_ckk)
            kb.copy_out(col_gm, off, row, p_ckk, pad=True)
            kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb
