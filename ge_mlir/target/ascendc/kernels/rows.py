"""Row kernels: softmax and layer/RMS norm over the last axes, and reductions over rows (the
trailing axes) or columns (contiguous middle axes).

Rows that fit the unified buffer are staged whole: ReduceMax/ReduceSum on the vector unit, the
row statistics on the scalar pipe with explicit V<->S flags. Long rows (longer than the unified
buffer: a GPT-2 vocabulary softmax over 50257 logits, a norm over a wide hidden size) go in
chunks (the second half of this module); each public template picks the long-row variant when
a row does not fit.
"""

from __future__ import annotations

from mlir import ir

from ....dialects.ascendc import LocalTensorType
from ....errors import Unsupported
from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes, local_t


# ----------------------------------------------------------------------------
# Rows that fit the unified buffer: softmax, layer norm
# ----------------------------------------------------------------------------


def _row_fits(elem: str, cols: int, extra_rows: int) -> bool:
    """A row of ``cols`` fits the in-UB row kernels (:func:`_row_kernel_setup`)."""
    return align_up(cols, 32 // elem_bytes(elem)) * elem_bytes(elem) * (4 + extra_rows) <= kernel_builder.UB_BUDGET


def _row_kernel_setup(kb: KernelBuilder, elem: str, rows: int, cols: int, extra_rows: int):
    eb = elem_bytes(elem)
    align = 32 // eb
    slot = align_up(cols, align)
    if slot * eb * (4 + extra_rows) > kernel_builder.UB_BUDGET:
        raise Unsupported(f"rows of {cols} elements do not fit the unified buffer")
    pipe = kb.pipe()
    lt, ot = local_t(elem, slot, "vecin"), local_t(elem, slot, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb)
    outq = kb.queue(pipe, "vecout", 2, 2, slot * eb)
    return pipe, slot, lt, ot, inq, outq


def softmax_kernel(name: str, elem: str, rows: int, cols: int) -> KernelBuilder:
    """Softmax over the last axis: ReduceMax, subtract, Exp, ReduceSum, scale (rows longer than the
    UB: :func:`softmax_long_rows_kernel`)."""
    if not _row_fits(elem, cols, 2):
        return softmax_long_rows_kernel(name, elem, rows, cols)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    kb.account(vector_bytes=5 * rows * cols * elem_bytes(elem))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe, slot, lt, ot, inq, outq = _row_kernel_setup(kb, elem, rows, cols, 2)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, 32 // elem_bytes(elem))
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_rows, bnum) as r:
        off = kb.mul(r, p_cols)
        x = kb.alloc(inq, lt)
        kb.copy_in(x, x_gm, off, p_cols, pad=True)
        kb.enque(inq, x)
        xv = kb.deque(inq, lt)
        y = kb.alloc(outq, ot)
        kb.reduce("max", red, xv, tmp, p_cols)
        kb.flag("v_s")
        mx = kb.get_value(red, kb.c(0))
        kb.flag("s_v")
        neg = kb.mulf(mx, kb.f(-1.0, elem))
        kb.vscalar("adds", y, xv, neg, p_cols)
        kb.vunary("exp", y, y, p_cols)
        kb.reduce("sum", red, y, tmp, p_cols)
        kb.flag("v_s")
        sm = kb.get_value(red, kb.c(0))
        kb.flag("s_v")
        inv = kb.divf(kb.f(1.0, elem), sm)
        kb.vscalar("muls", y, y, inv, p_cols)
        kb.free(inq, xv)
        kb.enque(outq, y)
        yv = kb.deque(outq, ot)
        kb.copy_out(y_gm, off, yv, p_cols, pad=True)
        kb.free(outq, yv)
    return kb


def layer_norm_kernel(name: str, elem: str, rows: int, cols: int, eps: float, has_scale: bool,
                      has_bias: bool, center: bool = True) -> KernelBuilder:
    """(x - mean) / sqrt(var + eps) * scale + bias over the last axis; with
    ``center=False`` the RMS norm x / sqrt(mean(x^2) + eps) * scale (rows longer than the UB:
    :func:`layer_norm_long_rows_kernel`)."""
    if not _row_fits(elem, cols, 4 + int(has_scale) + int(has_bias)):
        return layer_norm_long_rows_kernel(name, elem, rows, cols, eps, has_scale, has_bias, center)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    kb.account(vector_bytes=7 * rows * cols * elem_bytes(elem))
    x_gm = kb.arg("x", elem)
    s_gm = kb.arg("scale", elem) if has_scale else None
    b_gm = kb.arg("bias", elem) if has_bias else None
    y_gm = kb.arg("y", elem)
    pipe, slot, lt, ot, inq, outq = _row_kernel_setup(kb, elem, rows, cols, 4)
    red_n = 32 // elem_bytes(elem)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, red_n)
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
    sq = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    side = {}
    for key, gm in (("scale", s_gm), ("bias", b_gm)):
        if gm is not None:
            buf = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
            kb.copy_in(buf, gm, kb.c(0), p_cols, pad=True)
            side[key] = buf
    if side:
        kb.flag("mte2_v")
    inv_n = kb.f(1.0 / cols, elem)
    eps_c = kb.f(eps, elem)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_rows, bnum) as r:
        off = kb.mul(r, p_cols)
        x = kb.alloc(inq, lt)
        kb.copy_in(x, x_gm, off, p_cols, pad=True)
        kb.enque(inq, x)
        xv = kb.deque(inq, lt)
        y = kb.alloc(outq, ot)
        if center:
            kb.reduce("sum", red, xv, tmp, p_cols)
            kb.flag("v_s")
            s = kb.get_value(red, kb.c(0))
            kb.flag("s_v")
            mean = kb.mulf(s, inv_n)
            neg = kb.mulf(mean, kb.f(-1.0, elem))
            kb.vscalar("adds", y, xv, neg, p_cols)
        else:
            kb.vscalar("muls", y, xv, kb.f(1.0, elem), p_cols)
        kb.vbinary("mul", sq, y, y, p_cols)
        kb.reduce("sum", red, sq, tmp, p_cols)
        kb.flag("v_s")
        ss = kb.get_value(red, kb.c(0))
        kb.flag("s_v")
        var = kb.mulf(ss, inv_n)
        var_eps = kb.addf(var, eps_c)
        # 1 / sqrt(var + eps) on the vector unit (Rsqrt), read back on the scalar pipe.
        kb.duplicate(red, var_eps, kb.c(red_n))
        kb.vunary("rsqrt", red, red, kb.c(red_n))
        kb.flag("v_s")
        rstd = kb.get_value(red, kb.c(0))
        kb.flag("s_v")
        kb.vscalar("muls", y, y, rstd, p_cols)
        if "scale" in side:
            kb.vbinary("mul", y, y, side['scale'], p_cols)
        if "bias" in side:
            kb.vbinary("add", y, y, side['bias'], p_cols)
        kb.free(inq, xv)
        kb.enque(outq, y)
        yv = kb.deque(outq, ot)
        kb.copy_out(y_gm, off, yv, p_cols, pad=True)
        kb.free(outq, yv)
    return kb


# ----------------------------------------------------------------------------
# Reductions
# ----------------------------------------------------------------------------


def row_reduce_kernel(name: str, elem: str, kind: str, rows: int, cols: int, scale: float = 1.0) -> KernelBuilder:
    """``y[r] = scale * reduce_kind(x[r, :])`` (sum, max or min over the trailing axes).

    Each block takes a contiguous range of rows, stages its results on the
    scalar pipe and writes them with one DataCopyPad.
    """
    eb = elem_bytes(elem)
    align = 32 // eb
    slot = align_up(cols, align)
    nblocks = max(1, min(kernel_builder.MAX_BLOCKS, rows))
    per_block = ceil_div(rows, nblocks)
    stage = align_up(per_block, align)
    if (4 * slot + stage + align) * eb > kernel_builder.UB_BUDGET:
        return row_reduce_long_rows_kernel(name, elem, kind, rows, cols, scale)
    kb = KernelBuilder(name, blocks=nblocks)
    kb.account(vector_bytes=rows * cols * eb, scalar_ops=rows)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    lt = local_t(elem, slot, "vecin")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    work = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
    out = kb.tbuf_tensor(pipe, "vecout", elem, stage)
    p_rows, p_cols, p_per = kb.param("rows", rows), kb.param("cols", cols), kb.param("rows_per_block", per_block)
    bidx = kb.block_idx()
    r0 = kb.mul(bidx, p_per)
    r1 = kb.min(kb.add(r0, p_per), p_rows)
    nr = kb.sub(r1, kb.min(r0, r1))
    with kb.loop(kb.c(0), nr, kb.c(1)) as i:
        x = kb.alloc(inq, lt)
        kb.copy_in(x, x_gm, kb.mul(kb.add(r0, i), p_cols), p_cols, pad=True)
        kb.enque(inq, x)
        xv = kb.deque(inq, lt)
        kb.reduce(kind, red, xv, work, p_cols)
        kb.free(inq, xv)
        kb.flag("v_s")
        v = kb.get_value(red, kb.c(0))
        if scale != 1.0:
            v = kb.mulf(v, kb.f(scale, elem))
        kb.set_value(out, i, v)
        kb.flag("s_v")
    with kb.if_(kb.cmp("ugt", nr, kb.c(0))):
        kb.flag("s_mte3")
        kb.copy_out(y_gm, r0, out, nr, pad=True)
    kb.end_if()
    return kb


def column_reduce_kernel(name: str, elem: str, kind: str, batch: int, rows: int, cols: int,
                         scale: float = 1.0) -> KernelBuilder:
    """``y[b, c] = scale * reduce_kind(x[b, :, c])``: a reduction over the rows of
    ``[rows, cols]`` matrices (e.g. a global pool of NHWC images), row vectors
    combined with Add/Max/Min on the vector unit."""
    eb = elem_bytes(elem)
    slot = align_up(cols, 32 // eb)
    if 4 * slot * eb > kernel_builder.UB_BUDGET:
        return column_reduce_long_rows_kernel(name, elem, kind, batch, rows, cols, scale)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, batch)))
    kb.account(vector_bytes=batch * rows * cols * eb)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    lt, ot = local_t(elem, slot, "vecin"), local_t(elem, slot, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb)
    outq = kb.queue(pipe, "vecout", 1, 1, slot * eb)
    p_b, p_rows, p_cols = kb.param("batch", batch), kb.param("rows", rows), kb.param("cols", cols)
    op = {"sum": "add", "max": "max", "min": "min"}[kind]
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_b, bnum) as b:
        base = kb.mul(kb.mul(b, p_rows), p_cols)
        acc = kb.alloc(outq, ot)
        with kb.loop(kb.c(0), p_rows, kb.c(1)) as r:
            x = kb.alloc(inq, lt)
            kb.copy_in(x, x_gm, kb.add(base, kb.mul(r, p_cols)), p_cols, pad=True)
            kb.enque(inq, x)
            xv = kb.deque(inq, lt)
            first = kb.eq(r, kb.c(0))
            with kb.if_(first):
                kb.copy_local(acc, xv, kb.c(slot))
            kb.else_()
            kb.vbinary(op, acc, acc, xv, p_cols)
            kb.end_if()
            kb.free(inq, xv)
        if scale != 1.0:
            kb.vscalar("muls", acc, acc, kb.f(scale, elem), p_cols)
        kb.enque(outq, acc)
        av = kb.deque(outq, ot)
        kb.copy_out(y_gm, kb.mul(b, p_cols), av, p_cols, pad=True)
        kb.free(outq, av)
    return kb


# ----------------------------------------------------------------------------
# Long rows (longer than the unified buffer)
# ----------------------------------------------------------------------------
#
# Each row is read in chunks of CH elements, once per pass: the statistics (max, sum, mean,
# variance) accumulate chunk by chunk in an 8-element UB vector (``Max``/``Add`` with count 1 on
# the vector unit, so no scalar float compare is needed), are read once per row on the scalar pipe,
# and the last pass writes the result chunk by chunk. The variance is the exact two-pass one
# (mean first, then the mean of squared deviations), as the in-UB kernels compute it.
#
# Buffers are TBufs with explicit flags (no queues): MTE2 -> V after each chunk arrives, V -> MTE2
# before the next overwrites it, V -> S / S -> V around the row statistics, V -> MTE3 and back
# around each written chunk. Blocks take rows round-robin.


def _chunk(elem: str, buffers: int) -> int:
    eb = elem_bytes(elem)
    align = 32 // eb
    return ((kernel_builder.UB_BUDGET // eb) - 4 * align) // buffers // align * align


def _combine(kb: KernelBuilder, op: str, acc: ir.Value, red: ir.Value, first: ir.Value) -> None:
    """``acc[0] = red[0]`` on the first chunk, else ``acc[0] = op(acc[0], red[0])`` (vector unit)."""
    one = kb.c(1)
    with kb.if_(first):
        kb.vscalar("muls", acc, red, kb.f(1.0, _elem_of(red)), one)
    kb.else_()
    kb.vbinary(op, acc, acc, red, one)
    kb.end_if()


def _elem_of(t: ir.Value) -> str:
    return str(LocalTensorType(t.type).element_type)


def _row_stat(kb: KernelBuilder, acc: ir.Value) -> ir.Value:
    """``acc[0]`` on the scalar pipe (V -> S before, S -> V after)."""
    kb.flag("v_s")
    v = kb.get_value(acc, kb.c(0))
    kb.flag("s_v")
    return v


def _store(kb: KernelBuilder, y_gm: ir.Value, off: ir.Value, yb: ir.Value, n: ir.Value) -> None:
    """Writes a computed chunk (V -> MTE3 before, MTE3 -> V after) and lets the next chunk's input
    overwrite this one's (V -> MTE2)."""
    kb.flag("v_mte3")
    kb.copy_out(y_gm, off, yb, n, pad=True)
    kb.flag("mte3_v")
    kb.flag("v_mte2")


def _chunks(kb: KernelBuilder, p_cols: ir.Value, p_ch: ir.Value, body) -> None:
    """``body(c0, n, first)`` per chunk of a row."""
    with kb.loop(kb.c(0), p_cols, p_ch) as c0:
        body(c0, kb.min(kb.sub(p_cols, c0), p_ch), kb.eq(c0, kb.c(0)))


def softmax_long_rows_kernel(name: str, elem: str, rows: int, cols: int) -> KernelBuilder:
    """Softmax over rows longer than the UB: max, then sum of exp, then the scaled exp, chunk by chunk."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ch = _chunk(elem, 3)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    kb.account(vector_bytes=8 * rows * cols * eb, gm_bytes=2 * rows * cols * eb)   # + 2 re-reads of x
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    xb = kb.tbuf_tensor(pipe, "vecin", elem, ch)
    yb = kb.tbuf_tensor(pipe, "vecout", elem, ch)
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, ch)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    acc = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    p_rows, p_cols, p_ch = kb.param("rows", rows), kb.param("cols", cols), kb.param("chunk", ch)
    with kb.loop(kb.block_idx(), p_rows, kb.block_num()) as r:
        base = kb.mul(r, p_cols)

        def load(c0, n):
            kb.copy_in(xb, x_gm, kb.add(base, c0), n, pad=True)
            kb.flag("mte2_v")

        def row_max(c0, n, first):
            load(c0, n)
            kb.reduce("max", red, xb, tmp, n)
            _combine(kb, "max", acc, red, first)
            kb.flag("v_mte2")

        _chunks(kb, p_cols, p_ch, row_max)
        neg = kb.mulf(_row_stat(kb, acc), kb.f(-1.0, elem))

        def row_sum(c0, n, first):
            load(c0, n)
            kb.vscalar("adds", yb, xb, neg, n)
            kb.vunary("exp", yb, yb, n)
            kb.reduce("sum", red, yb, tmp, n)
            _combine(kb, "add", acc, red, first)
            kb.flag("v_mte2")

        _chunks(kb, p_cols, p_ch, row_sum)
        inv = kb.divf(kb.f(1.0, elem), _row_stat(kb, acc))

        def write(c0, n, first):
            load(c0, n)
            kb.vscalar("adds", yb, xb, neg, n)
            kb.vunary("exp", yb, yb, n)
            kb.vscalar("muls", yb, yb, inv, n)
            _store(kb, y_gm, kb.add(base, c0), yb, n)

        _chunks(kb, p_cols, p_ch, write)
    return kb


def layer_norm_long_rows_kernel(name: str, elem: str, rows: int, cols: int, eps: float, has_scale: bool,
                           has_bias: bool, center: bool = True) -> KernelBuilder:
    """Layer norm (``center``) or RMS norm over rows longer than the UB: the mean (layer norm), then
    the mean square of the (centred) row, then the normalised chunks times scale plus bias."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ch = _chunk(elem, 4 + int(has_scale) + int(has_bias))
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    kb.account(vector_bytes=9 * rows * cols * eb, gm_bytes=(1 + int(center)) * rows * cols * eb)
    x_gm = kb.arg("x", elem)
    s_gm = kb.arg("scale", elem) if has_scale else None
    b_gm = kb.arg("bias", elem) if has_bias else None
    y_gm = kb.arg("y", elem)
    pipe = kb.pipe()
    xb = kb.tbuf_tensor(pipe, "vecin", elem, ch)
    yb = kb.tbuf_tensor(pipe, "vecout", elem, ch)
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, ch)
    sq = kb.tbuf_tensor(pipe, "veccalc", elem, ch)
    sb = kb.tbuf_tensor(pipe, "veccalc", elem, ch) if has_scale else None
    bb = kb.tbuf_tensor(pipe, "veccalc", elem, ch) if has_bias else None
    red = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    acc = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    p_rows, p_cols, p_ch = kb.param("rows", rows), kb.param("cols", cols), kb.param("chunk", ch)
    inv_n = kb.f(1.0 / cols, elem)
    with kb.loop(kb.block_idx(), p_rows, kb.block_num()) as r:
        base = kb.mul(r, p_cols)

        def load(c0, n):
            kb.copy_in(xb, x_gm, kb.add(base, c0), n, pad=True)
            kb.flag("mte2_v")

        neg = None
        if center:
            def row_sum(c0, n, first):
                load(c0, n)
                kb.reduce("sum", red, xb, tmp, n)
                _combine(kb, "add", acc, red, first)
                kb.flag("v_mte2")

            _chunks(kb, p_cols, p_ch, row_sum)
            neg = kb.mulf(kb.mulf(_row_stat(kb, acc), inv_n), kb.f(-1.0, elem))

        def row_sq(c0, n, first):
            load(c0, n)
            if neg is not None:
                kb.vscalar("adds", yb, xb, neg, n)
                kb.vbinary("mul", sq, yb, yb, n)
            else:
                kb.vbinary("mul", sq, xb, xb, n)
            kb.reduce("sum", red, sq, tmp, n)
            _combine(kb, "add", acc, red, first)
            kb.flag("v_mte2")

        _chunks(kb, p_cols, p_ch, row_sq)
        var_eps = kb.addf(kb.mulf(_row_stat(kb, acc), inv_n), kb.f(eps, elem))
        # 1 / sqrt(var + eps) on the vector unit (Rsqrt), read back on the scalar pipe.
        kb.duplicate(red, var_eps, kb.c(align))
        kb.vunary("rsqrt", red, red, kb.c(align))
        rstd = _row_stat(kb, red)

        def write(c0, n, first):
            kb.copy_in(xb, x_gm, kb.add(base, c0), n, pad=True)
            for buf, gm in ((sb, s_gm), (bb, b_gm)):
                if buf is not None:
                    kb.copy_in(buf, gm, c0, n, pad=True)
            kb.flag("mte2_v")
            if neg is not None:
                kb.vscalar("adds", yb, xb, neg, n)
                kb.vscalar("muls", yb, yb, rstd, n)
            else:
                kb.vscalar("muls", yb, xb, rstd, n)
            if sb is not None:
                kb.vbinary("mul", yb, yb, sb, n)
            if bb is not None:
                kb.vbinary("add", yb, yb, bb, n)
            _store(kb, y_gm, kb.add(base, c0), yb, n)

        _chunks(kb, p_cols, p_ch, write)
    return kb


def row_reduce_long_rows_kernel(name: str, elem: str, kind: str, rows: int, cols: int, scale: float) -> KernelBuilder:
    """``y[r] = scale * reduce_kind(x[r, :])`` over rows longer than the UB, chunk by chunk; each
    row's result is written as one element (DataCopyPad)."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ch = _chunk(elem, 2)
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, rows)))
    kb.account(vector_bytes=rows * cols * eb, scalar_ops=rows)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    xb = kb.tbuf_tensor(pipe, "vecin", elem, ch)
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, ch)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    acc = kb.tbuf_tensor(pipe, "veccalc", elem, align)
    ob = kb.tbuf_tensor(pipe, "vecout", elem, align)
    combine = {"sum": "add", "max": "max", "min": "min"}[kind]
    p_rows, p_cols, p_ch = kb.param("rows", rows), kb.param("cols", cols), kb.param("chunk", ch)
    with kb.loop(kb.block_idx(), p_rows, kb.block_num()) as r:
        base = kb.mul(r, p_cols)

        def part(c0, n, first):
            kb.copy_in(xb, x_gm, kb.add(base, c0), n, pad=True)
            kb.flag("mte2_v")
            kb.reduce(kind, red, xb, tmp, n)
            _combine(kb, combine, acc, red, first)
            kb.flag("v_mte2")

        _chunks(kb, p_cols, p_ch, part)
        v = _row_stat(kb, acc)
        if scale != 1.0:
            v = kb.mulf(v, kb.f(scale, elem))
        kb.set_value(ob, kb.c(0), v)
        kb.flag("s_mte3")
        kb.copy_out(y_gm, r, ob, kb.c(1), pad=True)
        kb.flag("mte3_s")
    return kb


def column_reduce_long_rows_kernel(name: str, elem: str, kind: str, batch: int, rows: int, cols: int,
                              scale: float) -> KernelBuilder:
    """``y[b, c] = scale * reduce_kind(x[b, :, c])`` for rows longer than the UB: the columns go in
    chunks (tiles (b, column chunk) round-robin over the blocks), each accumulated over the rows."""
    eb = elem_bytes(elem)
    ch = _chunk(elem, 2)
    nch = ceil_div(cols, ch)
    tiles = batch * nch
    kb = KernelBuilder(name, blocks=max(1, min(kernel_builder.MAX_BLOCKS, tiles)))
    kb.account(vector_bytes=batch * rows * cols * eb)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    xb = kb.tbuf_tensor(pipe, "vecin", elem, ch)
    acc = kb.tbuf_tensor(pipe, "vecout", elem, ch)
    op = {"sum": "add", "max": "max", "min": "min"}[kind]
    p_rows, p_cols, p_ch = kb.param("rows", rows), kb.param("cols", cols), kb.param("chunk", ch)
    p_nch, p_tiles = kb.param("col_chunks", nch), kb.param("tiles", tiles)
    with kb.loop(kb.block_idx(), p_tiles, kb.block_num()) as t:
        b = kb.div(t, p_nch)
        c0 = kb.mul(kb.rem(t, p_nch), p_ch)
        n = kb.min(kb.sub(p_cols, c0), p_ch)
        base = kb.add(kb.mul(kb.mul(b, p_rows), p_cols), c0)
        with kb.loop(kb.c(0), p_rows, kb.c(1)) as r:
            kb.copy_in(xb, x_gm, kb.add(base, kb.mul(r, p_cols)), n, pad=True)
            kb.flag("mte2_v")
            with kb.if_(kb.eq(r, kb.c(0))):
                kb.vscalar("muls", acc, xb, kb.f(1.0, elem), n)
            kb.else_()
            kb.vbinary(op, acc, acc, xb, n)
            kb.end_if()
            kb.flag("v_mte2")
        if scale != 1.0:
            kb.vscalar("muls", acc, acc, kb.f(scale, elem), n)
        kb.flag("v_mte3")
        kb.copy_out(y_gm, kb.add(kb.mul(b, p_cols), c0), acc, n, pad=True)
        kb.flag("mte3_v")
    return kb
