"""The elementwise kernel: a ``Program`` (:mod:`..program`: a fused chain of elementwise ops, an
epilogue) over a flat tensor, or over rows when an operand broadcasts along rows ("row"
operands, e.g. a bias over the last axis) or along columns ("col" operands, e.g. a per-channel
NCHW bias)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mlir import ir

from ....errors import Unsupported
from .. import kernel_builder
from ..kernel_builder import KernelBuilder, align_up, ceil_div, elem_bytes, local_t, prod
from ..program import Program, run_program


@dataclass
class _Tiles:
    """How the output is cut. Flat: tiles of ``tile`` elements (``period``: the row length they
    divide when rows are too long for whole-row tiles, else 0). Rows: tiles of ``tile_rows`` rows
    of ``cols`` elements, each in a ``slot``-element (32-byte aligned) slot."""

    flat: bool
    period: int
    total: int
    rows: int
    cols: int
    slot: int
    tile: int
    tile_rows: int
    ntiles: int


@dataclass
class _Staging:
    """The kernel's global-memory arguments and unified-buffer queues and buffers."""

    ins_gm: list[ir.Value]
    out_gm: ir.Value
    in_q: dict[int, ir.Value]
    out_q: ir.Value
    temp_bufs: list[ir.Value]
    side_bufs: dict[int, ir.Value]
    lt: ir.Type
    ot: ir.Type


def _plan_tiles(prog: Program, shape: Sequence[int], split: int, temps: int) -> _Tiles:
    budget = kernel_builder.UB_BUDGET
    eb = elem_bytes(prog.elem)
    align = 32 // eb
    total = 1
    for d in shape:
        total *= d
    flat = split == len(shape) and all(o.kind == "full" for o in prog.operands)
    n_full = sum(1 for o in prog.operands if o.kind == "full")
    period = 0
    if not flat:
        rows = total // max(1, prod(shape[split:]))
        cols = total // rows
        side = sum(align_up(cols if o.kind == "row" else o.period, align) for o in prog.operands
                   if o.kind != "full")
        if (budget - side * eb) < align_up(cols, align) * eb * (2 * n_full + 2 + temps):
            # Rows too long for a tile of whole rows (an attention mask over [S, S] scores, a
            # per-channel op on a 224x224 NCHW image): flat tiles that divide the row length, so
            # each tile lies in one row. A row operand is read like a full operand at (offset mod
            # row length); a col operand's value for the tile's row comes from its side buffer.
            period = cols
            flat = True
            n_full = sum(1 for o in prog.operands if o.kind != "col")
    units = 2 * n_full + 2 + temps
    if flat:
        col_side = sum(align_up(o.period, align) for o in prog.operands if o.kind == "col") if period else 0
        tile = max(align, ((budget - col_side * eb) // units // eb) // align * align)
        tile = min(tile, align_up(total, align))
        if period:
            tile = next((t for t in range(min(tile, period) // align * align, 0, -align) if period % t == 0), 0)
            if not tile:
                raise Unsupported(f"rows of {period} elements do not fit the unified buffer")
        return _Tiles(True, period, total, 1, total, 0, tile, 0, ceil_div(total, tile))
    rows = 1
    for d in shape[:split]:
        rows *= d
    cols = total // rows
    slot = align_up(cols, align)
    side = sum(align_up(cols if o.kind == "row" else o.period, align) for o in prog.operands
               if o.kind != "full")
    per_row = slot * eb * units
    tile_rows = max(1, (budget - side * eb) // per_row)
    tile_rows = min(tile_rows, rows)
    if (budget - side * eb) < per_row:
        raise Unsupported(f"rows of {cols} elements do not fit the unified buffer")
    return _Tiles(False, 0, total, rows, cols, slot, tile_rows * slot, tile_rows, ceil_div(rows, tile_rows))


def elementwise_kernel(name: str, prog: Program, shape: Sequence[int], split: int) -> KernelBuilder:
    """``out = prog(inputs)`` over ``shape``.

    ``split == len(shape)``: flat mode (full operands only), tiles of T
    elements with DataCopy and a DataCopyPad tail. Otherwise rows mode: the
    output is ``[R, L]`` with ``R = prod(shape[:split])``; each row sits in a
    32-byte aligned slot of the tile (DataCopyPad per row) so row and col
    operands can address it.
    """
    elem = prog.elem
    if not prog.instrs or prog.result != ("r", len(prog.instrs) - 1):
        # The last instruction writes the output tile; a result computed
        # earlier (or an operand itself) is copied there. Muls by 1 rather
        # than DataCopy UB->UB: its count need not fill 32-byte blocks.
        prog.result = prog.scalar("muls", prog.result, 1.0)
    eb = elem_bytes(elem)
    align = 32 // eb
    temps = prog.plan()[1]
    t = _plan_tiles(prog, shape, split, temps)
    kb = KernelBuilder(name)
    kb.account(vector_bytes=t.total * eb * max(1, len(prog.instrs)))
    ins_gm = [kb.arg(f"in{i}", elem) for i in range(len(prog.operands))]  # C++ names in0, in1, ...
    out_gm = kb.arg("out", elem)
    pipe = kb.pipe()
    kb.blocks = max(1, min(kernel_builder.MAX_BLOCKS, t.ntiles))
    tile, period, cols = t.tile, t.period, t.cols
    in_q = {i: kb.queue(pipe, "vecin", 2, 2, tile * eb) for i, o in enumerate(prog.operands)
            if o.kind == "full" or (period and o.kind == "row")}
    out_q = kb.queue(pipe, "vecout", 2, 2, tile * eb)
    temp_bufs = [kb.tbuf_tensor(pipe, "veccalc", elem, tile) for _ in range(temps)]
    side_bufs: dict[int, ir.Value] = {}
    for i, o in enumerate(prog.operands):
        if o.kind == "full" or (period and o.kind == "row"):
            continue
        n = cols if o.kind == "row" else o.period
        side_bufs[i] = kb.tbuf_tensor(pipe, "veccalc", elem, align_up(n, align))
    st = _Staging(ins_gm, out_gm, in_q, out_q, temp_bufs, side_bufs, local_t(elem, tile, "vecin"),
                  local_t(elem, tile, "vecout"))
    bidx = kb.block_idx()
    bnum = kb.block_num()
    if side_bufs:
        # Row/col operands are read once per block (DataCopyPad: any length).
        for i, buf in side_bufs.items():
            o = prog.operands[i]
            n = kb.param(f"side{i}_len", cols if o.kind == "row" else o.period)
            kb.copy_in(buf, ins_gm[i], kb.c(0), n, pad=True)
        kb.flag("mte2_v")
        if any(o.kind == "col" for o in prog.operands):
            kb.flag("mte2_s")
    if t.flat:
        _flat_tiles(kb, prog, t, st, bidx, bnum)
    else:
        _row_tiles(kb, prog, t, st, bidx, bnum)
    return kb


def _flat_tiles(kb: KernelBuilder, prog: Program, t: _Tiles, st: _Staging, bidx: ir.Value, bnum: ir.Value) -> None:
    """The loop over flat tiles: DataCopy in and out, DataCopyPad for the ragged tail."""
    elem = prog.elem
    lt, ot = st.lt, st.ot
    p_total = kb.param("total", t.total)
    p_tile = kb.param("tile", t.tile)
    p_ntiles = kb.param("ntiles", t.ntiles)
    p_period = kb.param("period", t.period) if t.period else None
    with kb.loop(bidx, p_ntiles, bnum) as ti:
        off = kb.mul(ti, p_tile)
        cnt = kb.min(kb.sub(p_total, off), p_tile)
        full = kb.eq(cnt, p_tile)
        tiles = {}
        for i, q in st.in_q.items():
            x = kb.alloc(q, lt)
            src = kb.rem(off, p_period) if prog.operands[i].kind == "row" else off
            with kb.if_(full):
                kb.copy_in(x, st.ins_gm[i], src, p_tile, pad=False)
            kb.else_()
            kb.copy_in(x, st.ins_gm[i], src, cnt, pad=True)
            kb.end_if()
            kb.enque(q, x)
        for i, q in st.in_q.items():
            tiles[i] = kb.deque(q, lt)
        y = kb.alloc(st.out_q, ot)
        flatctx = (kb.div(off, p_period), st.side_bufs) if t.period else None
        run_program(kb, prog, tiles, st.temp_bufs, y, cnt, elem, None, flatctx)
        for i, q in st.in_q.items():
            kb.free(q, tiles[i])
        kb.enque(st.out_q, y)
        yv = kb.deque(st.out_q, ot)
        with kb.if_(full):
            kb.copy_out(st.out_gm, off, yv, p_tile, pad=False)
        kb.else_()
        kb.copy_out(st.out_gm, off, yv, cnt, pad=True)
        kb.end_if()
        kb.free(st.out_q, yv)


def _row_tiles(kb: KernelBuilder, prog: Program, t: _Tiles, st: _Staging, bidx: ir.Value, bnum: ir.Value) -> None:
    """The loop over tiles of whole rows, each row copied into its slot with DataCopyPad."""
    elem = prog.elem
    lt, ot, slot = st.lt, st.ot, t.slot
    p_rows = kb.param("rows", t.rows)
    p_cols = kb.param("cols", t.cols)
    p_slot = kb.param("slot", slot)
    p_trows = kb.param("tile_rows", t.tile_rows)
    p_ntiles = kb.param("ntiles", t.ntiles)
    with kb.loop(bidx, p_ntiles, bnum) as ti:
        r0 = kb.mul(ti, p_trows)
        nr = kb.min(kb.sub(p_rows, r0), p_trows)
        cnt = kb.mul(nr, p_slot)
        tiles = {}
        for i, q in st.in_q.items():
            x = kb.alloc(q, lt)
            with kb.loop(kb.c(0), nr, kb.c(1)) as r:
                s = kb.slice(x, kb.mul(r, p_slot), slot)
                kb.copy_in(s, st.ins_gm[i], kb.mul(kb.add(r0, r), p_cols), p_cols, pad=True)
            kb.enque(q, x)
        for i, q in st.in_q.items():
            tiles[i] = kb.deque(q, lt)
        y = kb.alloc(st.out_q, ot)
        rowctx = (r0, nr, p_slot, slot, p_cols, st.side_bufs)
        run_program(kb, prog, tiles, st.temp_bufs, y, cnt, elem, rowctx)
        for i, q in st.in_q.items():
            kb.free(q, tiles[i])
        kb.enque(st.out_q, y)
        yv = kb.deque(st.out_q, ot)
        with kb.loop(kb.c(0), nr, kb.c(1)) as r:
            s = kb.slice(yv, kb.mul(r, p_slot), slot)
            kb.copy_out(st.out_gm, kb.mul(kb.add(r0, r), p_cols), s, p_cols, pad=True)
        kb.free(st.out_q, yv)
