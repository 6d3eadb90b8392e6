"""Row kernels for rows longer than the unified buffer: softmax, layer/RMS norm and reductions in
chunks (a GPT-2 vocabulary softmax over 50257 logits, a norm over a wide hidden size).

Each row is read in chunks of CH elements, once per pass: the statistics (max, sum, mean,
variance) accumulate chunk by chunk in an 8-element UB vector (``Max``/``Add`` with count 1 on
the vector unit, so no scalar float compare is needed), are read once per row on the scalar pipe,
and the last pass writes the result chunk by chunk. The variance is the exact two-pass one
(mean first, then the mean of squared deviations), as the in-UB kernels compute it.

Buffers are TBufs with explicit flags (no queues): MTE2 -> V after each chunk arrives, V -> MTE2
before the next overwrites it, V -> S / S -> V around the row statistics, V -> MTE3 and back
around each written chunk. Blocks take rows round-robin.
"""

from __future__ import annotations

from mlir import ir

from . import kernels as K
from .kernels import KernelBuilder, ceil_div, elem_bytes


def _chunk(elem: str, buffers: int) -> int:
    eb = elem_bytes(elem)
    align = 32 // eb
    return ((K.UB_BUDGET // eb) - 4 * align) // buffers // align * align


def _combine(kb: KernelBuilder, op: str, acc: ir.Value, red: ir.Value, first: ir.Value) -> None:
    """``acc[0] = red[0]`` on the first chunk, else ``acc[0] = op(acc[0], red[0])`` (vector unit)."""
    one = kb.c(1)
    with kb.if_(first):
        kb.vscalar("muls", acc, red, kb.f(1.0, _elem_of(red)), one)
    kb.else_()
    kb.vbinary(op, acc, acc, red, one)
    kb.end_if()


def _elem_of(t: ir.Value) -> str:
    from ...dialects.ascendc import LocalTensorType

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


def softmax_long_kernel(name: str, elem: str, rows: int, cols: int) -> KernelBuilder:
    """Softmax over rows longer than the UB: max, then sum of exp, then the scaled exp, chunk by chunk."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ch = _chunk(elem, 3)
    kb = KernelBuilder(name, blocks=max(1, min(K.MAX_BLOCKS, rows)))
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


def layer_norm_long_kernel(name: str, elem: str, rows: int, cols: int, eps: float, has_scale: bool,
                           has_bias: bool, center: bool = True) -> KernelBuilder:
    """Layer norm (``center``) or RMS norm over rows longer than the UB: the mean (layer norm), then
    the mean square of the (centred) row, then the normalised chunks times scale plus bias."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ch = _chunk(elem, 4 + int(has_scale) + int(has_bias))
    kb = KernelBuilder(name, blocks=max(1, min(K.MAX_BLOCKS, rows)))
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


def row_reduce_long_kernel(name: str, elem: str, kind: str, rows: int, cols: int, scale: float) -> KernelBuilder:
    """``y[r] = scale * reduce_kind(x[r, :])`` over rows longer than the UB, chunk by chunk; each
    row's result is written as one element (DataCopyPad)."""
    eb = elem_bytes(elem)
    align = 32 // eb
    ch = _chunk(elem, 2)
    kb = KernelBuilder(name, blocks=max(1, min(K.MAX_BLOCKS, rows)))
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


def column_reduce_long_kernel(name: str, elem: str, kind: str, batch: int, rows: int, cols: int,
                              scale: float) -> KernelBuilder:
    """``y[b, c] = scale * reduce_kind(x[b, :, c])`` for rows longer than the UB: the columns go in
    chunks (tiles (b, column chunk) round-robin over the blocks), each accumulated over the rows."""
    eb = elem_bytes(elem)
    ch = _chunk(elem, 2)
    nch = ceil_div(cols, ch)
    tiles = batch * nch
    kb = KernelBuilder(name, blocks=max(1, min(K.MAX_BLOCKS, tiles)))
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
