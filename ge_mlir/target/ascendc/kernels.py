"""Kernel templates of the ge -> ascendc lowering, as ``ascendc`` IR text.

Each template builds one ``ascendc.kernel`` with :class:`KernelBuilder`, a
small SSA text writer (named values, index constants hoisted to the entry,
``scf.for``/``scf.if`` scopes). Templates follow the canonical Ascend C
structure: a TPipe, double-buffered VECIN/VECOUT queues, tiles sized to the
unified buffer, blocks (AI cores) taking tiles round-robin by
``GetBlockIdx()``, ``DataCopyPad`` for ragged tails and rows. Every size that
depends on the shapes is a tiling field (``ascendc.tiling_get``), so the
host passes them in the kernel's tiling struct.

Families:

* :func:`elementwise_kernel` -- a fused chain of elementwise ops
  (:class:`Program`) over a flat tensor, or over rows when an operand
  broadcasts along rows ("row" operands, e.g. a bias over the last axis) or
  along columns ("col" operands, e.g. a per-channel NCHW bias);
* :func:`matmul_kernel` -- ``C[b] = A[b] x B[b]`` on the cube: Nd2Nz into L1,
  LoadData into L0A/L0B, Mmad accumulating over K tiles in L0C, Fixpipe to
  GM. B is given transposed (``Bt``, N x K), the layout the fp32 L0B
  fractal wants;
* :func:`softmax_kernel`, :func:`layer_norm_kernel` -- row-wise with
  ReduceMax/ReduceSum and the scalar pipe for row statistics;
* :func:`transpose_rows_kernel` -- permutations that keep the last axis
  (row copies); :func:`transpose2d_kernel` -- swapping the last two axes
  through the unified buffer;
* :func:`im2col_kernel` -- convolution patches (the B^T of a conv as a
  matmul), gathered in the unified buffer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

#: Unified-buffer bytes a kernel plans for (the target's UB minus headroom for
#: reduction scratch and alignment); :func:`ub_budget` sets it per compile.
UB_BUDGET = 160 * 1024


@contextmanager
def ub_budget(nbytes: int) -> Iterator[None]:
    """Plans the kernels built inside the block for ``nbytes`` of unified buffer."""
    global UB_BUDGET
    saved, UB_BUDGET = UB_BUDGET, nbytes
    try:
        yield
    finally:
        UB_BUDGET = saved
#: Cores the lowering spreads a kernel over (an Ascend910B-class AI core count
#: is 24; fewer keeps per-block tiles large for the sizes we compile).
MAX_BLOCKS = 8

_ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i32": 4, "i8": 1, "ui8": 1, "i64": 8}


def elem_bytes(elem: str) -> int:
    return _ELEM_BYTES[elem]


def align_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def ceil_div(a: int, b: int) -> int:
    return (a + b - 1) // b


class LoweringError(Exception):
    """A shape or op the ascendc templates cannot handle (caught by the pass)."""


def local_t(elem: str, size: int, pos: str) -> str:
    return f"!ascendc.local<{elem}, {size}, {pos}>"


def que_t(pos: str, depth: int) -> str:
    return f"!ascendc.que<{pos}, {depth}>"


class KernelBuilder:
    """Writes one ``ascendc.kernel`` as text."""

    def __init__(self, name: str, kind: str = "vector", blocks: int = 1):
        self.name, self.kind, self.blocks = name, kind, blocks
        self.args: list[tuple[str, str]] = []
        self.tiling: dict[str, int] = {}
        self._prologue: list[str] = []
        self._body: list[str] = []
        self._indent = 2
        self._names: dict[str, int] = {}
        self._consts: dict[tuple[str, object], str] = {}
        self._tiling_vals: dict[str, str] = {}

    # -- names and lines -------------------------------------------------------

    def fresh(self, hint: str) -> str:
        n = self._names.get(hint, 0)
        self._names[hint] = n + 1
        return f"%{hint}_{n}" if n else f"%{hint}"

    def arg(self, hint: str, elem: str) -> str:
        name = self.fresh(hint)
        self.args.append((name, elem))
        return name

    def emit(self, line: str) -> None:
        self._body.append(" " * self._indent + line)

    def pro(self, line: str) -> None:
        self._prologue.append("  " + line)

    def c(self, value: int) -> str:
        """An index constant (defined once, at the kernel entry)."""
        key = ("index", int(value))
        if key not in self._consts:
            name = f"%c{value}" if value >= 0 else f"%cm{-value}"
            self._consts[key] = name
            self.pro(f"{name} = arith.constant {int(value)} : index")
        return self._consts[key]

    def f(self, value: float, elem: str) -> str:
        key = (elem, float(value))
        if key not in self._consts:
            name = self.fresh("cst")
            self._consts[key] = name
            self.pro(f"{name} = arith.constant {float(value):.9e} : {elem}")
        return self._consts[key]

    def param(self, field_name: str, value: int) -> str:
        """A tiling field (an index value read from the tiling struct)."""
        if field_name in self.tiling and self.tiling[field_name] != value:
            raise ValueError(f"tiling field {field_name} set twice")
        self.tiling[field_name] = int(value)
        if field_name not in self._tiling_vals:
            name = f"%tiling_{field_name}"
            self._tiling_vals[field_name] = name
            self.pro(f'{name} = ascendc.tiling_get "{field_name}" : index')
        return self._tiling_vals[field_name]

    def tiling_value(self, field_name: str) -> str:
        return self._tiling_vals[field_name]

    def op(self, hint: str, text: str) -> str:
        name = self.fresh(hint)
        self.emit(f"{name} = {text}")
        return name

    # -- arith -----------------------------------------------------------------

    def add(self, a: str, b: str) -> str:
        return self.op("i", f"arith.addi {a}, {b} : index")

    def sub(self, a: str, b: str) -> str:
        return self.op("i", f"arith.subi {a}, {b} : index")

    def mul(self, a: str, b: str) -> str:
        return self.op("i", f"arith.muli {a}, {b} : index")

    def div(self, a: str, b: str) -> str:
        return self.op("i", f"arith.divui {a}, {b} : index")

    def rem(self, a: str, b: str) -> str:
        return self.op("i", f"arith.remui {a}, {b} : index")

    def min(self, a: str, b: str) -> str:
        return self.op("i", f"arith.minui {a}, {b} : index")

    def ceil_div(self, a: str, b: str) -> str:
        return self.op("i", f"arith.ceildivui {a}, {b} : index")

    def eq(self, a: str, b: str) -> str:
        return self.op("p", f"arith.cmpi eq, {a}, {b} : index")

    # -- control flow ------------------------------------------------------------

    @contextmanager
    def loop(self, lb: str, ub: str, step: str, hint: str = "i") -> Iterator[str]:
        iv = self.fresh(hint)
        self.emit(f"scf.for {iv} = {lb} to {ub} step {step} {{")
        self._indent += 2
        try:
            yield iv
        finally:
            self._indent -= 2
            self.emit("}")

    @contextmanager
    def if_(self, cond: str) -> Iterator[None]:
        self.emit(f"scf.if {cond} {{")
        self._indent += 2
        try:
            yield
        finally:
            self._indent -= 2

    def else_(self) -> None:
        self.emit("} else {")

    def end_if(self) -> None:
        self.emit("}")

    # -- ascendc -----------------------------------------------------------------

    def pipe(self) -> str:
        name = "%pipe"
        self.pro(f"{name} = ascendc.pipe : !ascendc.pipe")
        return name

    def queue(self, pipe: str, pos: str, depth: int, num: int, nbytes: int, hint: str) -> tuple[str, str]:
        name = self.fresh(hint)
        qt = que_t(pos, depth)
        self.pro(f"{name} = ascendc.queue {pipe} num({num}) bytes({nbytes}) : {qt}")
        return name, qt

    def tbuf_tensor(self, pipe: str, pos: str, elem: str, size: int, hint: str) -> str:
        buf = self.fresh(hint + "_buf")
        self.pro(f"{buf} = ascendc.tbuf {pipe} bytes({size * elem_bytes(elem)}) : !ascendc.tbuf<{pos}>")
        t = self.fresh(hint)
        self.pro(f"{t} = ascendc.tbuf_get {buf} : !ascendc.tbuf<{pos}> -> {local_t(elem, size, pos)}")
        return t

    def alloc(self, q: tuple[str, str], lt: str, hint: str) -> str:
        return self.op(hint, f"ascendc.alloc_tensor {q[0]} : {q[1]} -> {lt}")

    def enque(self, q: tuple[str, str], t: str, lt: str) -> None:
        self.emit(f"ascendc.enque {q[0]}, {t} : {q[1]}, {lt}")

    def deque(self, q: tuple[str, str], lt: str, hint: str) -> str:
        return self.op(hint, f"ascendc.deque {q[0]} : {q[1]} -> {lt}")

    def free(self, q: tuple[str, str], t: str, lt: str) -> None:
        self.emit(f"ascendc.free_tensor {q[0]}, {t} : {q[1]}, {lt}")

    def slice(self, t: str, lt: str, off: str, size: int, hint: str = "s") -> tuple[str, str]:
        elem, _, pos = _parse_local(lt)
        st = local_t(elem, size, pos)
        return self.op(hint, f"ascendc.local_slice {t}[{off}] : {lt} -> {st}"), st

    def copy_in(self, dst: str, lt: str, gm: str, elem: str, off: str, count: str, pad: bool) -> None:
        kind = "copy_pad_gm_to_local" if pad else "copy_gm_to_local"
        self.emit(f"ascendc.{kind} {dst}, {gm}[{off}], {count} : {lt}, !ascendc.gm<{elem}>")

    def copy_out(self, gm: str, elem: str, off: str, src: str, lt: str, count: str, pad: bool) -> None:
        kind = "copy_pad_local_to_gm" if pad else "copy_local_to_gm"
        self.emit(f"ascendc.{kind} {gm}[{off}], {src}, {count} : !ascendc.gm<{elem}>, {lt}")

    def flag(self, event: str, eid: int = 0) -> None:
        self.emit(f"ascendc.set_flag <{event}>, {eid}")
        self.emit(f"ascendc.wait_flag <{event}>, {eid}")

    # -- result ------------------------------------------------------------------

    def text(self) -> str:
        args = ", ".join(f"{n}: !ascendc.gm<{e}>" for n, e in self.args)
        tiling = ""
        if self.tiling:
            fields = ", ".join(f"{k} = {v} : i64" for k, v in self.tiling.items())
            tiling = f" tiling({{{fields}}})"
        # C++ parameter names for the emitter (x, bt, out, ... rather than a0, a1).
        names = ", ".join(f'"{n[1:]}"' for n, _ in self.args)
        attrs = f" attributes {{arg_names = [{names}]}}" if self.args else ""
        lines = [f"ascendc.kernel @{self.name} kind(<{self.kind}>) blocks({self.blocks}){tiling}{attrs} {{",
                 f"^bb0({args}):", *self._prologue, *self._body, "}"]
        return "\n".join(lines) + "\n"


def _parse_local(lt: str) -> tuple[str, int, str]:
    inner = lt[lt.index("<") + 1 : lt.rindex(">")]
    elem, size, pos = (p.strip() for p in inner.split(","))
    return elem, int(size), pos


# ----------------------------------------------------------------------------
# Elementwise programs
# ----------------------------------------------------------------------------


@dataclass
class Operand:
    """A kernel input of an elementwise program.

    kind: ``full`` (the output's shape), ``row`` (broadcast over rows: one
    ``cols``-long vector), ``col`` (one value per row, taken at ``row %
    period``).
    """

    kind: str
    period: int = 0


@dataclass
class Program:
    """Straight-line vector code over tiles: registers are operand tiles
    (``("in", i)``) or instruction results (``("r", j)``)."""

    elem: str
    operands: list[Operand] = field(default_factory=list)
    instrs: list[tuple] = field(default_factory=list)
    result: tuple = ("in", 0)

    def input(self, kind: str = "full", period: int = 0) -> tuple:
        self.operands.append(Operand(kind, period))
        return ("in", len(self.operands) - 1)

    def _add(self, *instr) -> tuple:
        self.instrs.append(instr)
        return ("r", len(self.instrs) - 1)

    # Full-tile ops. `b` may be a full register, a row/col operand register or a float.
    def binary(self, kind: str, a: tuple, b) -> tuple:
        if isinstance(b, (int, float)):
            scalar = {"add": ("adds", float(b)), "sub": ("adds", -float(b)), "mul": ("muls", float(b)),
                      "div": ("muls", 1.0 / float(b)), "max": ("maxs", float(b)), "min": ("mins", float(b))}
            if kind not in scalar:
                raise LoweringError(f"no scalar form of {kind}")
            return self._add("scalar", scalar[kind][0], a, scalar[kind][1])
        if b[0] == "in" and self.operands[b[1]].kind in ("row", "col"):
            return self._add(self.operands[b[1]].kind, kind, a, b[1])
        return self._add("binary", kind, a, b)

    def scalar(self, kind: str, a: tuple, value: float) -> tuple:
        return self._add("scalar", kind, a, float(value))

    def unary(self, kind: str, a: tuple) -> tuple:
        return self._add("unary", kind, a)

    # Composite activations, from the level-2 vector ops.
    def sigmoid(self, x: tuple) -> tuple:
        t = self.scalar("muls", x, -1.0)
        t = self.unary("exp", t)
        t = self.scalar("adds", t, 1.0)
        return self.unary("reciprocal", t)

    def tanh(self, x: tuple) -> tuple:
        # tanh(x) = 2 * sigmoid(2x) - 1
        t = self.sigmoid(self.scalar("muls", x, 2.0))
        t = self.scalar("muls", t, 2.0)
        return self.scalar("adds", t, -1.0)

    def gelu(self, x: tuple) -> tuple:
        """Erf GELU: 0.5 * (x + |x| * erf(|x| / sqrt 2)), erf by Abramowitz-Stegun
        7.1.26 (|error| < 1.5e-7), which needs only |x| (erf is odd)."""
        a = self.unary("abs", x)
        z = self.scalar("muls", a, 0.7071067811865476)
        t = self.scalar("muls", z, 0.3275911)
        t = self.scalar("adds", t, 1.0)
        t = self.unary("reciprocal", t)
        poly = self.scalar("muls", t, 1.061405429)
        for coef in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
            poly = self.scalar("adds", poly, coef)
            poly = self.binary("mul", poly, t)
        e = self.binary("mul", z, z)
        e = self.scalar("muls", e, -1.0)
        e = self.unary("exp", e)
        poly = self.binary("mul", poly, e)          # 1 - erf(z)
        erf = self.scalar("muls", poly, -1.0)
        erf = self.scalar("adds", erf, 1.0)
        t = self.binary("mul", a, erf)
        t = self.binary("add", t, x)
        return self.scalar("muls", t, 0.5)

    def activation(self, act: str, x: tuple, alpha: float | None = None) -> tuple:
        if act == "none":
            return x
        if act == "relu":
            return self.unary("relu", x)
        if act == "relu6":
            return self.scalar("mins", self.scalar("maxs", x, 0.0), 6.0)
        if act == "leaky_relu":
            return self.scalar("leaky_relu", x, 0.01 if alpha is None else alpha)
        if act == "sigmoid":
            return self.sigmoid(x)
        if act == "tanh":
            return self.tanh(x)
        if act == "gelu":
            return self.gelu(x)
        if act == "silu":
            return self.binary("mul", x, self.sigmoid(x))
        if act == "hard_sigmoid":
            t = self.scalar("adds", self.scalar("muls", x, 0.2 if alpha is None else alpha), 0.5)
            return self.scalar("mins", self.scalar("maxs", t, 0.0), 1.0)
        if act == "hard_swish":
            t = self.scalar("adds", self.scalar("muls", x, 1.0 / 6.0), 0.5)
            t = self.scalar("mins", self.scalar("maxs", t, 0.0), 1.0)
            return self.binary("mul", x, t)
        raise LoweringError(f"activation {act}")

    def plan(self) -> tuple[list[object], int]:
        """Where each instruction writes: ``"out"`` (the output tile), an
        index into the temporary buffers; and how many temporaries are needed.
        An instruction overwrites its first operand's temporary when that
        value dies there (vector ops allow dst == src)."""
        last: dict[tuple, int] = {}
        for j, ins in enumerate(self.instrs):
            for reg in _regs(ins):
                last[reg] = j
        holder: dict[tuple, int] = {}     # register -> temporary it lives in
        free: list[int] = []
        count = 0
        where: list[object] = []
        for j, ins in enumerate(self.instrs):
            reg, first = ("r", j), ins[2]
            if j == len(self.instrs) - 1 and self.result == reg:
                where.append("out")
            elif first in holder and last.get(first) == j:
                holder[reg] = holder.pop(first)
                where.append(holder[reg])
            else:
                if free:
                    slot = free.pop()
                else:
                    slot, count = count, count + 1
                holder[reg] = slot
                where.append(slot)
            for r in [r for r in holder if r != reg and last.get(r, -1) <= j and r != self.result]:
                free.append(holder.pop(r))
        return where, count


def _regs(ins: tuple) -> list[tuple]:
    kind = ins[0]
    if kind == "binary":
        return [ins[2], ins[3]]
    return [ins[2]]


def _vector_instr(kb: KernelBuilder, ins: tuple, dst: str, dst_t: str, src: str, src_t: str, other: str | None,
                  other_t: str | None, count: str, elem: str) -> None:
    kind = ins[0]
    if kind == "binary":
        kb.emit(f"ascendc.vbinary <{ins[1]}> {dst}, {src}, {other}, {count} : {dst_t}, {src_t}, {other_t}")
    elif kind == "scalar":
        value = kb.f(ins[3], elem)
        kb.emit(f"ascendc.vscalar <{ins[1]}> {dst}, {src}, {value}, {count} : {dst_t}, {src_t}, {elem}")
    elif kind == "unary":
        kb.emit(f"ascendc.vunary <{ins[1]}> {dst}, {src}, {count} : {dst_t}, {src_t}")
    else:
        raise AssertionError(kind)


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
    total = 1
    for d in shape:
        total *= d
    flat = split == len(shape) and all(o.kind == "full" for o in prog.operands)
    n_full = sum(1 for o in prog.operands if o.kind == "full")
    temps = prog.plan()[1]
    kb = KernelBuilder(name)
    ins_gm = [kb.arg(f"in{i}", elem) for i in range(len(prog.operands))]  # C++ names in0, in1, ...
    out_gm = kb.arg("out", elem)
    pipe = kb.pipe()
    if flat:
        rows, cols, slot = 1, total, 0
        units = 2 * n_full + 2 + temps
        tile = max(align, (UB_BUDGET // units // eb) // align * align)
        tile = min(tile, align_up(total, align))
        ntiles = ceil_div(total, tile)
    else:
        rows = 1
        for d in shape[:split]:
            rows *= d
        cols = total // rows
        slot = align_up(cols, align)
        side = sum(align_up(cols if o.kind == "row" else o.period, align) for o in prog.operands
                   if o.kind != "full")
        units = 2 * n_full + 2 + temps
        per_row = slot * eb * units
        tile_rows = max(1, (UB_BUDGET - side * eb) // per_row)
        tile_rows = min(tile_rows, rows)
        if (UB_BUDGET - side * eb) < per_row:
            raise LoweringError(f"rows of {cols} elements do not fit the unified buffer")
        tile = tile_rows * slot
        ntiles = ceil_div(rows, tile_rows)
    kb.blocks = max(1, min(MAX_BLOCKS, ntiles))
    lt = local_t(elem, tile, "vecin")
    ot = local_t(elem, tile, "vecout")
    ct = local_t(elem, tile, "veccalc")
    in_q = {i: kb.queue(pipe, "vecin", 2, 2, tile * eb, f"inq{i}") for i, o in enumerate(prog.operands)
            if o.kind == "full"}
    out_q = kb.queue(pipe, "vecout", 2, 2, tile * eb, "outq")
    temp_bufs = [kb.tbuf_tensor(pipe, "veccalc", elem, tile, f"tmp{j}") for j in range(temps)]
    side_bufs: dict[int, tuple[str, str]] = {}
    for i, o in enumerate(prog.operands):
        if o.kind == "full":
            continue
        n = cols if o.kind == "row" else o.period
        buf = kb.tbuf_tensor(pipe, "veccalc", elem, align_up(n, align), f"side{i}")
        side_bufs[i] = (buf, local_t(elem, align_up(n, align), "veccalc"))
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    if side_bufs:
        # Row/col operands are read once per block (DataCopyPad: any length).
        for i, (buf, bt) in side_bufs.items():
            o = prog.operands[i]
            n = kb.param(f"side{i}_len", cols if o.kind == "row" else o.period)
            kb.copy_in(buf, bt, ins_gm[i], elem, kb.c(0), n, pad=True)
        kb.flag("mte2_v")
        if any(o.kind == "col" for o in prog.operands):
            kb.flag("mte2_s")

    if flat:
        p_total = kb.param("total", total)
        p_tile = kb.param("tile", tile)
        p_ntiles = kb.param("ntiles", ntiles)
        with kb.loop(bidx, p_ntiles, bnum, "t") as t:
            off = kb.mul(t, p_tile)
            cnt = kb.min(kb.sub(p_total, off), p_tile)
            full = kb.eq(cnt, p_tile)
            tiles = {}
            for i, q in in_q.items():
                x = kb.alloc(q, lt, f"x{i}_")
                with kb.if_(full):
                    kb.copy_in(x, lt, ins_gm[i], elem, off, p_tile, pad=False)
                kb.else_()
                kb.copy_in(x, lt, ins_gm[i], elem, off, cnt, pad=True)
                kb.end_if()
                kb.enque(q, x, lt)
            for i, q in in_q.items():
                tiles[i] = (kb.deque(q, lt, f"xv{i}_"), lt)
            y = kb.alloc(out_q, ot, "y")
            _run_program(kb, prog, tiles, temp_bufs, ct, (y, ot), cnt, elem, None)
            for i, q in in_q.items():
                kb.free(q, tiles[i][0], lt)
            kb.enque(out_q, y, ot)
            yv = kb.deque(out_q, ot, "yv")
            with kb.if_(full):
                kb.copy_out(out_gm, elem, off, yv, ot, p_tile, pad=False)
            kb.else_()
            kb.copy_out(out_gm, elem, off, yv, ot, cnt, pad=True)
            kb.end_if()
            kb.free(out_q, yv, ot)
        return kb

    p_rows = kb.param("rows", rows)
    p_cols = kb.param("cols", cols)
    p_slot = kb.param("slot", slot)
    p_trows = kb.param("tile_rows", tile_rows)
    p_ntiles = kb.param("ntiles", ntiles)
    with kb.loop(bidx, p_ntiles, bnum, "t") as t:
        r0 = kb.mul(t, p_trows)
        nr = kb.min(kb.sub(p_rows, r0), p_trows)
        cnt = kb.mul(nr, p_slot)
        tiles = {}
        for i, q in in_q.items():
            x = kb.alloc(q, lt, f"x{i}_")
            with kb.loop(kb.c(0), nr, kb.c(1), "r") as r:
                s, st = kb.slice(x, lt, kb.mul(r, p_slot), slot)
                kb.copy_in(s, st, ins_gm[i], elem, kb.mul(kb.add(r0, r), p_cols), p_cols, pad=True)
            kb.enque(q, x, lt)
        for i, q in in_q.items():
            tiles[i] = (kb.deque(q, lt, f"xv{i}_"), lt)
        y = kb.alloc(out_q, ot, "y")
        rowctx = (r0, nr, p_slot, slot, p_cols, side_bufs)
        _run_program(kb, prog, tiles, temp_bufs, ct, (y, ot), cnt, elem, rowctx)
        for i, q in in_q.items():
            kb.free(q, tiles[i][0], lt)
        kb.enque(out_q, y, ot)
        yv = kb.deque(out_q, ot, "yv")
        with kb.loop(kb.c(0), nr, kb.c(1), "r") as r:
            s, st = kb.slice(yv, ot, kb.mul(r, p_slot), slot)
            kb.copy_out(out_gm, elem, kb.mul(kb.add(r0, r), p_cols), s, st, p_cols, pad=True)
        kb.free(out_q, yv, ot)
    return kb


def _run_program(kb: KernelBuilder, prog: Program, tiles: dict, temp_bufs: list[str], ct: str,
                 out: tuple[str, str], count: str, elem: str, rowctx) -> None:
    """Emits the program's instructions; the last one writes the output tile."""
    plan, _ = prog.plan()
    where: dict[tuple, tuple[str, str]] = {("in", i): v for i, v in tiles.items()}
    for j, ins in enumerate(prog.instrs):
        src, st = where[ins[2]]
        dst, dt = out if plan[j] == "out" else (temp_bufs[plan[j]], ct)
        kind = ins[0]
        if kind in ("row", "col"):
            _broadcast_instr(kb, ins, dst, dt, src, st, count, elem, rowctx)
        else:
            other, other_t = where[ins[3]] if kind == "binary" else (None, None)
            _vector_instr(kb, ins, dst, dt, src, st, other, other_t, count, elem)
        where[("r", j)] = (dst, dt)


_BCAST_SCALAR = {"add": "adds", "mul": "muls", "max": "maxs", "min": "mins"}


def _broadcast_instr(kb: KernelBuilder, ins: tuple, dst: str, dt: str, src: str, st: str, count: str,
                     elem: str, rowctx) -> None:
    if rowctx is None:
        raise AssertionError("broadcast operand in flat mode")
    r0, nr, p_slot, slot, p_cols, side_bufs = rowctx
    kind, op, _, idx = ins
    buf, bt = side_bufs[idx]
    with kb.loop(kb.c(0), nr, kb.c(1), "r") as r:
        off = kb.mul(r, p_slot)
        ds, dst_t = kb.slice(dst, dt, off, slot, "d")
        ss, src_t = kb.slice(src, st, off, slot, "s")
        if kind == "row":
            kb.emit(f"ascendc.vbinary <{op}> {ds}, {ss}, {buf}, {p_cols} : {dst_t}, {src_t}, {bt}")
        else:
            _col_instr(kb, op, ds, dst_t, ss, src_t, buf, bt, kb.add(r0, r), idx, p_cols, elem)


def _col_instr(kb: KernelBuilder, op: str, ds: str, dst_t: str, ss: str, src_t: str, buf: str, bt: str,
               row: str, idx: int, p_cols: str, elem: str) -> None:
    period = kb.tiling_value(f"side{idx}_len")
    v = kb.op("v", f"ascendc.get_value {buf}[{kb.rem(row, period)}] : {bt} -> {elem}")
    if op == "sub":
        v = kb.op("v", f"arith.mulf {v}, {kb.f(-1.0, elem)} : {elem}")
        sop = "adds"
    elif op == "div":
        v = kb.op("v", f"arith.divf {kb.f(1.0, elem)}, {v} : {elem}")
        sop = "muls"
    elif op in _BCAST_SCALAR:
        sop = _BCAST_SCALAR[op]
    else:
        raise LoweringError(f"per-row {op}")
    kb.emit(f"ascendc.vscalar <{sop}> {ds}, {ss}, {v}, {p_cols} : {dst_t}, {src_t}, {elem}")


# ----------------------------------------------------------------------------
# Matmul on the cube
# ----------------------------------------------------------------------------


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
        raise LoweringError(f"matmul on {elem} (the cube template handles f32 and f16)")
    eb = elem_bytes(elem)
    c0 = 32 // eb
    tm = min(align_up(m, 16), 128)
    tn = min(align_up(n, 16), 128)
    tk = min(align_up(k, c0), (65536 // (max(tm, tn) * eb)) // c0 * c0)
    mt, nt, kt = ceil_div(m, tm), ceil_div(n, tn), ceil_div(k, tk)
    tiles = batch * mt * nt
    kb = KernelBuilder(name, kind="cube", blocks=max(1, min(MAX_BLOCKS, tiles)))
    a_gm = kb.arg("a", elem)
    bt_gm = kb.arg("bt", elem)
    out_elem = out_elem or elem
    c_gm = kb.arg("c", out_elem)
    pipe = kb.pipe()
    frag = 16 * c0                                  # elements of one 512-byte fractal
    a1t, b1t = local_t(elem, tm * tk, "a1"), local_t(elem, tn * tk, "b1")
    a2t, b2t = local_t(elem, tm * tk, "a2"), local_t(elem, tn * tk, "b2")
    cct = local_t("f32", tm * tn, "co1")
    qa1 = kb.queue(pipe, "a1", 1, 1, tm * tk * eb, "qa1")
    qb1 = kb.queue(pipe, "b1", 1, 1, tn * tk * eb, "qb1")
    qa2 = kb.queue(pipe, "a2", 1, 1, tm * tk * eb, "qa2")
    qb2 = kb.queue(pipe, "b2", 1, 1, tn * tk * eb, "qb2")
    qc = kb.queue(pipe, "co1", 1, 1, tm * tn * 4, "qc")
    p_m, p_n, p_k = kb.param("m", m), kb.param("n", n), kb.param("k", k)
    p_tm, p_tn, p_tk = kb.param("tm", tm), kb.param("tn", tn), kb.param("tk", tk)
    p_nt, p_kt = kb.param("nt", nt), kb.param("kt", kt)
    p_mnt = kb.param("mn_tiles", mt * nt)
    p_tiles = kb.param("tiles", tiles)
    p_sa = kb.param("a_batch_stride", m * k if a_batched else 0)
    p_sb = kb.param("b_batch_stride", n * k if b_batched else 0)
    p_sc = kb.param("c_batch_stride", m * n)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    c16, c_c0, c_frag = kb.c(16), kb.c(c0), kb.c(frag)
    with kb.loop(bidx, p_tiles, bnum, "t") as t:
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
        c = kb.alloc(qc, cct, "acc")
        with kb.loop(kb.c(0), p_kt, kb.c(1), "kk") as kk:
            k0 = kb.mul(kk, p_tk)
            ksz = kb.min(kb.sub(p_k, k0), p_tk)
            kbk = kb.ceil_div(ksz, c_c0)
            a1 = kb.alloc(qa1, a1t, "a1")
            kb.emit(f"ascendc.copy_nd2nz {a1}, {a_gm}[{kb.add(a_base, k0)}] rows({msz}) cols({ksz}) "
                    f"{{src_d_value = {k} : i64, dst_nz_c0_stride = {tm} : i64}} : {a1t}, !ascendc.gm<{elem}>")
            kb.enque(qa1, a1, a1t)
            b1 = kb.alloc(qb1, b1t, "b1")
            kb.emit(f"ascendc.copy_nd2nz {b1}, {bt_gm}[{kb.add(b_base, k0)}] rows({nsz}) cols({ksz}) "
                    f"{{src_d_value = {k} : i64, dst_nz_c0_stride = {tn} : i64}} : {b1t}, !ascendc.gm<{elem}>")
            kb.enque(qb1, b1, b1t)
            a1v = kb.deque(qa1, a1t, "a1v")
            b1v = kb.deque(qb1, b1t, "b1v")
            a2 = kb.alloc(qa2, a2t, "a2")
            b2 = kb.alloc(qb2, b2t, "b2")
            # L1 fractal (mi, ki) of A is at ki * (TM/16) + mi; L0A wants mi * kb + ki.
            with kb.loop(kb.c(0), mb, kb.c(1), "mi") as mi:
                dst, dt = _cube_slice(kb, a2, a2t, kb.mul(kb.mul(mi, kbk), c_frag), frag)
                kb.emit(f"ascendc.load_data_2d {dst}, {a1v} start({mi}) repeat({kbk}) stride({kb.c(tm // 16)}) "
                        f": {dt}, {a1t}")
            # L1 fractal (ni, ki) of Bt is at ki * (TN/16) + ni; L0B wants ki * nb + ni.
            with kb.loop(kb.c(0), kbk, kb.c(1), "ki") as ki:
                dst, dt = _cube_slice(kb, b2, b2t, kb.mul(kb.mul(ki, nb), c_frag), frag)
                kb.emit(f"ascendc.load_data_2d {dst}, {b1v} start({kb.mul(ki, kb.c(tn // 16))}) repeat({nb}) "
                        f"stride({kb.c(1)}) : {dt}, {b1t}")
            kb.free(qa1, a1v, a1t)
            kb.free(qb1, b1v, b1t)
            kb.enque(qa2, a2, a2t)
            kb.enque(qb2, b2, b2t)
            a2v = kb.deque(qa2, a2t, "a2v")
            b2v = kb.deque(qb2, b2t, "b2v")
            first = kb.eq(kk, kb.c(0))
            kb.emit(f"ascendc.mmad {c}, {a2v}, {b2v}, {first} m({msz}) n({nsz}) k({ksz}) : {cct}, {a2t}, {b2t}")
            kb.free(qa2, a2v, a2t)
            kb.free(qb2, b2v, b2t)
        kb.enque(qc, c, cct)
        cv = kb.deque(qc, cct, "accv")
        c_off = kb.add(kb.add(kb.mul(bi, p_sc), kb.mul(m0, p_n)), n0)
        kb.emit(f"ascendc.fixpipe {c_gm}[{c_off}], {cv} rows({msz}) cols({nsz}) src_stride({kb.mul(mb, c16)}) "
                f"{{dst_stride = {n} : i64}} : !ascendc.gm<{out_elem}>, {cct}")
        kb.free(qc, cv, cct)
    return kb


def _cube_slice(kb: KernelBuilder, t: str, lt: str, off: str, frag: int) -> tuple[str, str]:
    """``t[off]`` as the destination of a LoadData.

    Local types need a static size and the offset is dynamic, so the view is
    typed as one fractal (the least a LoadData writes); ``t[off]`` in Ascend
    C reaches to the end of ``t``, and the shim checks the repeats against
    that at run time.
    """
    return kb.slice(t, lt, off, frag, "fs")


# ----------------------------------------------------------------------------
# Row-wise kernels: softmax, layer norm
# ----------------------------------------------------------------------------


def _row_kernel_setup(kb: KernelBuilder, elem: str, rows: int, cols: int, extra_rows: int):
    eb = elem_bytes(elem)
    align = 32 // eb
    slot = align_up(cols, align)
    if slot * eb * (4 + extra_rows) > UB_BUDGET:
        raise LoweringError(f"rows of {cols} elements do not fit the unified buffer")
    pipe = kb.pipe()
    lt, ot = local_t(elem, slot, "vecin"), local_t(elem, slot, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb, "inq")
    outq = kb.queue(pipe, "vecout", 2, 2, slot * eb, "outq")
    return pipe, slot, lt, ot, inq, outq


def softmax_kernel(name: str, elem: str, rows: int, cols: int) -> KernelBuilder:
    """Softmax over the last axis: ReduceMax, subtract, Exp, ReduceSum, scale."""
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, rows)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe, slot, lt, ot, inq, outq = _row_kernel_setup(kb, elem, rows, cols, 2)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, 32 // elem_bytes(elem), "red")
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, slot, "work")
    redt = local_t(elem, 32 // elem_bytes(elem), "veccalc")
    tmpt = local_t(elem, slot, "veccalc")
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_rows, bnum, "r") as r:
        off = kb.mul(r, p_cols)
        x = kb.alloc(inq, lt, "x")
        kb.copy_in(x, lt, x_gm, elem, off, p_cols, pad=True)
        kb.enque(inq, x, lt)
        xv = kb.deque(inq, lt, "xv")
        y = kb.alloc(outq, ot, "y")
        kb.emit(f"ascendc.reduce <max> {red}, {xv}, {tmp}, {p_cols} : {redt}, {lt}, {tmpt}")
        kb.flag("v_s")
        mx = kb.op("mx", f"ascendc.get_value {red}[{kb.c(0)}] : {redt} -> {elem}")
        kb.flag("s_v")
        neg = kb.op("nmx", f"arith.mulf {mx}, {kb.f(-1.0, elem)} : {elem}")
        kb.emit(f"ascendc.vscalar <adds> {y}, {xv}, {neg}, {p_cols} : {ot}, {lt}, {elem}")
        kb.emit(f"ascendc.vunary <exp> {y}, {y}, {p_cols} : {ot}, {ot}")
        kb.emit(f"ascendc.reduce <sum> {red}, {y}, {tmp}, {p_cols} : {redt}, {ot}, {tmpt}")
        kb.flag("v_s")
        sm = kb.op("sum", f"ascendc.get_value {red}[{kb.c(0)}] : {redt} -> {elem}")
        kb.flag("s_v")
        inv = kb.op("inv", f"arith.divf {kb.f(1.0, elem)}, {sm} : {elem}")
        kb.emit(f"ascendc.vscalar <muls> {y}, {y}, {inv}, {p_cols} : {ot}, {ot}, {elem}")
        kb.free(inq, xv, lt)
        kb.enque(outq, y, ot)
        yv = kb.deque(outq, ot, "yv")
        kb.copy_out(y_gm, elem, off, yv, ot, p_cols, pad=True)
        kb.free(outq, yv, ot)
    return kb


def layer_norm_kernel(name: str, elem: str, rows: int, cols: int, eps: float, has_scale: bool,
                      has_bias: bool, center: bool = True) -> KernelBuilder:
    """(x - mean) / sqrt(var + eps) * scale + bias over the last axis; with
    ``center=False`` the RMS norm x / sqrt(mean(x^2) + eps) * scale."""
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, rows)))
    x_gm = kb.arg("x", elem)
    s_gm = kb.arg("scale", elem) if has_scale else None
    b_gm = kb.arg("bias", elem) if has_bias else None
    y_gm = kb.arg("y", elem)
    pipe, slot, lt, ot, inq, outq = _row_kernel_setup(kb, elem, rows, cols, 4)
    red_n = 32 // elem_bytes(elem)
    red = kb.tbuf_tensor(pipe, "veccalc", elem, red_n, "red")
    redt = local_t(elem, red_n, "veccalc")
    tmp = kb.tbuf_tensor(pipe, "veccalc", elem, slot, "work")
    sq = kb.tbuf_tensor(pipe, "veccalc", elem, slot, "sq")
    tmpt = local_t(elem, slot, "veccalc")
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    side = {}
    for key, gm in (("scale", s_gm), ("bias", b_gm)):
        if gm is not None:
            buf = kb.tbuf_tensor(pipe, "veccalc", elem, slot, key + "v")
            kb.copy_in(buf, tmpt, gm, elem, kb.c(0), p_cols, pad=True)
            side[key] = buf
    if side:
        kb.flag("mte2_v")
    inv_n = kb.f(1.0 / cols, elem)
    eps_c = kb.f(eps, elem)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_rows, bnum, "r") as r:
        off = kb.mul(r, p_cols)
        x = kb.alloc(inq, lt, "x")
        kb.copy_in(x, lt, x_gm, elem, off, p_cols, pad=True)
        kb.enque(inq, x, lt)
        xv = kb.deque(inq, lt, "xv")
        y = kb.alloc(outq, ot, "y")
        if center:
            kb.emit(f"ascendc.reduce <sum> {red}, {xv}, {tmp}, {p_cols} : {redt}, {lt}, {tmpt}")
            kb.flag("v_s")
            s = kb.op("sum", f"ascendc.get_value {red}[{kb.c(0)}] : {redt} -> {elem}")
            kb.flag("s_v")
            mean = kb.op("mean", f"arith.mulf {s}, {inv_n} : {elem}")
            neg = kb.op("nmean", f"arith.mulf {mean}, {kb.f(-1.0, elem)} : {elem}")
            kb.emit(f"ascendc.vscalar <adds> {y}, {xv}, {neg}, {p_cols} : {ot}, {lt}, {elem}")
        else:
            kb.emit(f"ascendc.vscalar <muls> {y}, {xv}, {kb.f(1.0, elem)}, {p_cols} : {ot}, {lt}, {elem}")
        kb.emit(f"ascendc.vbinary <mul> {sq}, {y}, {y}, {p_cols} : {tmpt}, {ot}, {ot}")
        kb.emit(f"ascendc.reduce <sum> {red}, {sq}, {tmp}, {p_cols} : {redt}, {tmpt}, {tmpt}")
        kb.flag("v_s")
        ss = kb.op("ssum", f"ascendc.get_value {red}[{kb.c(0)}] : {redt} -> {elem}")
        kb.flag("s_v")
        var = kb.op("var", f"arith.mulf {ss}, {inv_n} : {elem}")
        var_eps = kb.op("vareps", f"arith.addf {var}, {eps_c} : {elem}")
        # 1 / sqrt(var + eps) on the vector unit (Rsqrt), read back on the scalar pipe.
        kb.emit(f"ascendc.duplicate {red}, {var_eps}, {kb.c(red_n)} : {redt}, {elem}")
        kb.emit(f"ascendc.vunary <rsqrt> {red}, {red}, {kb.c(red_n)} : {redt}, {redt}")
        kb.flag("v_s")
        rstd = kb.op("rstd", f"ascendc.get_value {red}[{kb.c(0)}] : {redt} -> {elem}")
        kb.flag("s_v")
        kb.emit(f"ascendc.vscalar <muls> {y}, {y}, {rstd}, {p_cols} : {ot}, {ot}, {elem}")
        if "scale" in side:
            kb.emit(f"ascendc.vbinary <mul> {y}, {y}, {side['scale']}, {p_cols} : {ot}, {ot}, {tmpt}")
        if "bias" in side:
            kb.emit(f"ascendc.vbinary <add> {y}, {y}, {side['bias']}, {p_cols} : {ot}, {ot}, {tmpt}")
        kb.free(inq, xv, lt)
        kb.enque(outq, y, ot)
        yv = kb.deque(outq, ot, "yv")
        kb.copy_out(y_gm, elem, off, yv, ot, p_cols, pad=True)
        kb.free(outq, yv, ot)
    return kb


# ----------------------------------------------------------------------------
# Data movement: transposes, im2col
# ----------------------------------------------------------------------------


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
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, rows)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    # GM -> UB -> GM with no compute: a queue would sync MTE2 -> V, so the
    # row buffer is plain and the MTE2 -> MTE3 (and back) order is explicit.
    lt = local_t(elem, slot, "veccalc")
    row = kb.tbuf_tensor(pipe, "veccalc", elem, slot, "row")
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_rows, bnum, "r") as r:
        # Decompose the output row index over the output's leading axes.
        rest, src = r, kb.c(0)
        for ax in range(rank - 2, -1, -1):
            d = kb.c(out_shape[ax])
            idx = kb.rem(rest, d)
            rest = kb.div(rest, d)
            src = kb.add(src, kb.mul(idx, kb.c(in_strides[perm[ax]])))
        kb.copy_in(row, lt, x_gm, elem, src, p_cols, pad=True)
        kb.flag("mte2_mte3")
        kb.copy_out(y_gm, elem, kb.mul(r, p_cols), row, lt, p_cols, pad=True)
        kb.flag("mte3_mte2")
    return kb


def transpose2d_kernel(name: str, elem: str, batch: int, rows: int, cols: int) -> KernelBuilder:
    """``y[b] = x[b]^T`` (x[b] is rows x cols) through the unified buffer, one matrix per step."""
    eb = elem_bytes(elem)
    n = rows * cols
    size = align_up(n, 32 // eb)
    if 2 * size * eb > UB_BUDGET:
        raise LoweringError(f"a {rows}x{cols} matrix does not fit the unified buffer")
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, batch)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, size, "mat")
    dst = kb.tbuf_tensor(pipe, "vecout", elem, size, "matt")
    st, dt = local_t(elem, size, "vecin"), local_t(elem, size, "vecout")
    p_b, p_n = kb.param("batch", batch), kb.param("numel", n)
    c_rows, c_cols = kb.c(rows), kb.c(cols)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_b, bnum, "b") as b:
        off = kb.mul(b, p_n)
        kb.copy_in(src, st, x_gm, elem, off, p_n, pad=True)
        kb.flag("mte2_s")
        with kb.loop(kb.c(0), c_rows, kb.c(1), "i") as i, kb.loop(kb.c(0), c_cols, kb.c(1), "j") as j:
            v = kb.op("v", f"ascendc.get_value {src}[{kb.add(kb.mul(i, c_cols), j)}] : {st} -> {elem}")
            kb.emit(f"ascendc.set_value {dst}[{kb.add(kb.mul(j, c_rows), i)}], {v} : {dt}, {elem}")
        kb.flag("s_mte3")
        kb.copy_out(y_gm, elem, off, dst, dt, p_n, pad=True)
        # The next matrix overwrites both buffers: wait for this one's copies.
        kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb


def im2col_kernel(name: str, elem: str, nchw: bool, n: int, c: int, h: int, w: int, kh: int, kw: int,
                  oh: int, ow: int, strides: Sequence[int], pads: Sequence[int],
                  dilations: Sequence[int]) -> KernelBuilder:
    """Patches of a convolution: ``col[b, p, j]`` for output pixel ``p`` and patch
    element ``j`` (order (c, kh, kw) for NCHW, (kh, kw, c) for NHWC), zero
    outside the image. One image is staged in the unified buffer; rows are
    filled on the scalar pipe and written with DataCopyPad."""
    eb = elem_bytes(elem)
    img = c * h * w
    ckk = c * kh * kw
    img_size = align_up(img, 32 // eb)
    row_size = align_up(ckk, 32 // eb)
    if (img_size + 2 * row_size) * eb > UB_BUDGET:
        raise LoweringError(f"a {c}x{h}x{w} image does not fit the unified buffer for im2col")
    pixels = oh * ow
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, pixels)))
    x_gm, col_gm = kb.arg("x", elem), kb.arg("col", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, img_size, "img")
    row = kb.tbuf_tensor(pipe, "vecout", elem, row_size, "patch")
    st, rt = local_t(elem, img_size, "vecin"), local_t(elem, row_size, "vecout")
    p_img, p_ckk = kb.param("image", img), kb.param("patch", ckk)
    p_pix = kb.param("pixels", pixels)
    zero = kb.f(0.0, elem)
    one = kb.c(1)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(kb.c(0), kb.c(n), one, "b") as b:
        kb.copy_in(src, st, x_gm, elem, kb.mul(b, p_img), p_img, pad=True)
        kb.flag("mte2_s")
        with kb.loop(bidx, p_pix, bnum, "p") as p:
            oy, ox = kb.div(p, kb.c(ow)), kb.rem(p, kb.c(ow))
            with kb.loop(kb.c(0), p_ckk, one, "j") as j:
                if nchw:
                    ci = kb.div(j, kb.c(kh * kw))
                    ky = kb.rem(kb.div(j, kb.c(kw)), kb.c(kh))
                    kx = kb.rem(j, kb.c(kw))
                else:
                    ky = kb.div(j, kb.c(kw * c))
                    kx = kb.rem(kb.div(j, kb.c(c)), kb.c(kw))
                    ci = kb.rem(j, kb.c(c))
                # iy = oy * s + ky * d - pad (as i64 so that negative means outside).
                iy = kb.sub(kb.add(kb.mul(oy, kb.c(strides[0])), kb.mul(ky, kb.c(dilations[0]))), kb.c(pads[0]))
                ix = kb.sub(kb.add(kb.mul(ox, kb.c(strides[1])), kb.mul(kx, kb.c(dilations[1]))), kb.c(pads[1]))
                ok_y = kb.op("p", f"arith.cmpi ult, {iy}, {kb.c(h)} : index")
                ok_x = kb.op("p", f"arith.cmpi ult, {ix}, {kb.c(w)} : index")
                ok = kb.op("p", f"arith.andi {ok_y}, {ok_x} : i1")
                if nchw:
                    idx = kb.add(kb.mul(kb.add(kb.mul(ci, kb.c(h)), iy), kb.c(w)), ix)
                else:
                    idx = kb.add(kb.mul(kb.add(kb.mul(iy, kb.c(w)), ix), kb.c(c)), ci)
                v = kb.op("v", f"scf.if {ok} -> ({elem}) {{")
                kb._indent += 2
                got = kb.op("g", f"ascendc.get_value {src}[{idx}] : {st} -> {elem}")
                kb.emit(f"scf.yield {got} : {elem}")
                kb._indent -= 2
                kb.emit("} else {")
                kb._indent += 2
                kb.emit(f"scf.yield {zero} : {elem}")
                kb._indent -= 2
                kb.emit("}")
                kb.emit(f"ascendc.set_value {row}[{j}], {v} : {rt}, {elem}")
            kb.flag("s_mte3")
            off = kb.mul(kb.add(kb.mul(b, p_pix), p), p_ckk)
            kb.copy_out(col_gm, elem, off, row, rt, p_ckk, pad=True)
            kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb


# ----------------------------------------------------------------------------
# Reductions, pools, casts
# ----------------------------------------------------------------------------


def row_reduce_kernel(name: str, elem: str, kind: str, rows: int, cols: int, scale: float = 1.0) -> KernelBuilder:
    """``y[r] = scale * reduce_kind(x[r, :])`` (sum, max or min over the trailing axes).

    Each block takes a contiguous range of rows, stages its results on the
    scalar pipe and writes them with one DataCopyPad.
    """
    eb = elem_bytes(elem)
    align = 32 // eb
    slot = align_up(cols, align)
    nblocks = max(1, min(MAX_BLOCKS, rows))
    per_block = ceil_div(rows, nblocks)
    stage = align_up(per_block, align)
    if (4 * slot + stage + align) * eb > UB_BUDGET:
        raise LoweringError(f"rows of {cols} elements do not fit the unified buffer")
    kb = KernelBuilder(name, blocks=nblocks)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    lt = local_t(elem, slot, "vecin")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb, "inq")
    red = kb.tbuf_tensor(pipe, "veccalc", elem, align, "red")
    redt = local_t(elem, align, "veccalc")
    work = kb.tbuf_tensor(pipe, "veccalc", elem, slot, "work")
    workt = local_t(elem, slot, "veccalc")
    out = kb.tbuf_tensor(pipe, "vecout", elem, stage, "res")
    outt = local_t(elem, stage, "vecout")
    p_rows, p_cols, p_per = kb.param("rows", rows), kb.param("cols", cols), kb.param("rows_per_block", per_block)
    bidx = kb.op("blk", "ascendc.block_idx : index")
    r0 = kb.mul(bidx, p_per)
    r1 = kb.min(kb.add(r0, p_per), p_rows)
    nr = kb.sub(r1, kb.min(r0, r1))
    with kb.loop(kb.c(0), nr, kb.c(1), "i") as i:
        x = kb.alloc(inq, lt, "x")
        kb.copy_in(x, lt, x_gm, elem, kb.mul(kb.add(r0, i), p_cols), p_cols, pad=True)
        kb.enque(inq, x, lt)
        xv = kb.deque(inq, lt, "xv")
        kb.emit(f"ascendc.reduce <{kind}> {red}, {xv}, {work}, {p_cols} : {redt}, {lt}, {workt}")
        kb.free(inq, xv, lt)
        kb.flag("v_s")
        v = kb.op("v", f"ascendc.get_value {red}[{kb.c(0)}] : {redt} -> {elem}")
        if scale != 1.0:
            v = kb.op("v", f"arith.mulf {v}, {kb.f(scale, elem)} : {elem}")
        kb.emit(f"ascendc.set_value {out}[{i}], {v} : {outt}, {elem}")
        kb.flag("s_v")
    with kb.if_(kb.op("p", f"arith.cmpi ugt, {nr}, {kb.c(0)} : index")):
        kb.flag("s_mte3")
        kb.copy_out(y_gm, elem, r0, out, outt, nr, pad=True)
    kb.end_if()
    return kb


def column_reduce_kernel(name: str, elem: str, kind: str, batch: int, rows: int, cols: int,
                         scale: float = 1.0) -> KernelBuilder:
    """``y[b, c] = scale * reduce_kind(x[b, :, c])``: a reduction over the rows of
    ``[rows, cols]`` matrices (e.g. a global pool of NHWC images), row vectors
    combined with Add/Max/Min on the vector unit."""
    eb = elem_bytes(elem)
    slot = align_up(cols, 32 // eb)
    if 4 * slot * eb > UB_BUDGET:
        raise LoweringError(f"rows of {cols} elements do not fit the unified buffer")
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, batch)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    lt, ot = local_t(elem, slot, "vecin"), local_t(elem, slot, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb, "inq")
    outq = kb.queue(pipe, "vecout", 1, 1, slot * eb, "outq")
    p_b, p_rows, p_cols = kb.param("batch", batch), kb.param("rows", rows), kb.param("cols", cols)
    op = {"sum": "add", "max": "max", "min": "min"}[kind]
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_b, bnum, "b") as b:
        base = kb.mul(kb.mul(b, p_rows), p_cols)
        acc = kb.alloc(outq, ot, "acc")
        with kb.loop(kb.c(0), p_rows, kb.c(1), "r") as r:
            x = kb.alloc(inq, lt, "x")
            kb.copy_in(x, lt, x_gm, elem, kb.add(base, kb.mul(r, p_cols)), p_cols, pad=True)
            kb.enque(inq, x, lt)
            xv = kb.deque(inq, lt, "xv")
            first = kb.eq(r, kb.c(0))
            with kb.if_(first):
                kb.emit(f"ascendc.copy_local {acc}, {xv}, {kb.c(slot)} : {ot}, {lt}")
            kb.else_()
            kb.emit(f"ascendc.vbinary <{op}> {acc}, {acc}, {xv}, {p_cols} : {ot}, {ot}, {lt}")
            kb.end_if()
            kb.free(inq, xv, lt)
        if scale != 1.0:
            kb.emit(f"ascendc.vscalar <muls> {acc}, {acc}, {kb.f(scale, elem)}, {p_cols} : {ot}, {ot}, {elem}")
        kb.enque(outq, acc, ot)
        av = kb.deque(outq, ot, "accv")
        kb.copy_out(y_gm, elem, kb.mul(b, p_cols), av, ot, p_cols, pad=True)
        kb.free(outq, av, ot)
    return kb


def pool_nhwc_kernel(name: str, elem: str, kind: str, n: int, h: int, w: int, c: int, oh: int, ow: int,
                     kernel: Sequence[int], strides: Sequence[int], pads: Sequence[int],
                     count_include_pad: bool) -> KernelBuilder:
    """Max or average pooling of NHWC images: each output pixel combines the
    window's C-channel vectors with Max/Add; one image is staged in UB."""
    eb = elem_bytes(elem)
    align = 32 // eb
    if c % align:
        raise LoweringError(f"NHWC pooling needs channels in multiples of {align} ({c} given)")
    img = h * w * c
    if (align_up(img, align) + 2 * c) * eb > UB_BUDGET:
        raise LoweringError(f"a {h}x{w}x{c} image does not fit the unified buffer")
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, n)))
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    image = kb.tbuf_tensor(pipe, "veccalc", elem, align_up(img, align), "img")
    it = local_t(elem, align_up(img, align), "veccalc")
    acc = kb.tbuf_tensor(pipe, "vecout", elem, c, "acc")
    at = local_t(elem, c, "vecout")
    p_n, p_img, p_c = kb.param("batch", n), kb.param("image", img), kb.param("channels", c)
    p_out = kb.param("out_pixels", oh * ow)
    init = -3.4028234663852886e38 if kind == "max" else 0.0
    combine = "max" if kind == "max" else "add"
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_n, bnum, "b") as b:
        kb.copy_in(image, it, x_gm, elem, kb.mul(b, p_img), p_img, pad=True)
        kb.flag("mte2_v")
        with kb.loop(kb.c(0), p_out, kb.c(1), "p") as p:
            oy, ox = kb.div(p, kb.c(ow)), kb.rem(p, kb.c(ow))
            kb.emit(f"ascendc.duplicate {acc}, {kb.f(init, elem)}, {p_c} : {at}, {elem}")
            for ky in range(kernel[0]):
                for kx in range(kernel[1]):
                    iy = kb.sub(kb.add(kb.mul(oy, kb.c(strides[0])), kb.c(ky)), kb.c(pads[0]))
                    ix = kb.sub(kb.add(kb.mul(ox, kb.c(strides[1])), kb.c(kx)), kb.c(pads[1]))
                    ok = kb.op("p", f"arith.andi {kb.op('p', f'arith.cmpi ult, {iy}, {kb.c(h)} : index')}, "
                                    f"{kb.op('p', f'arith.cmpi ult, {ix}, {kb.c(w)} : index')} : i1")
                    with kb.if_(ok):
                        off = kb.mul(kb.add(kb.mul(iy, kb.c(w)), ix), p_c)
                        s, st = kb.slice(image, it, off, c, "win")
                        kb.emit(f"ascendc.vbinary <{combine}> {acc}, {acc}, {s}, {p_c} : {at}, {at}, {st}")
                    kb.end_if()
            if kind == "avg":
                if count_include_pad or not any(pads):
                    kb.emit(f"ascendc.vscalar <muls> {acc}, {acc}, {kb.f(1.0 / (kernel[0] * kernel[1]), elem)}, "
                            f"{p_c} : {at}, {at}, {elem}")
                else:
                    raise LoweringError("average pooling that excludes padding")
            kb.flag("v_mte3")
            kb.copy_out(y_gm, elem, kb.mul(kb.add(kb.mul(b, p_out), p), p_c), acc, at, p_c, pad=True)
            kb.flag("mte3_v")
        kb.flag("v_mte2")
    return kb


def cast_kernel(name: str, src: str, dst: str, total: int) -> KernelBuilder:
    """Float <-> float Cast (round to nearest even when narrowing)."""
    sb, db = elem_bytes(src), elem_bytes(dst)
    align = 32 // min(sb, db)
    tile = max(align, (UB_BUDGET // (2 * sb + 2 * db)) // align * align)
    tile = min(tile, align_up(total, align))
    ntiles = ceil_div(total, tile)
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, ntiles)))
    x_gm, y_gm = kb.arg("x", src), kb.arg("y", dst)
    pipe = kb.pipe()
    lt, ot = local_t(src, tile, "vecin"), local_t(dst, tile, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, tile * sb, "inq")
    outq = kb.queue(pipe, "vecout", 2, 2, tile * db, "outq")
    p_total, p_tile, p_nt = kb.param("total", total), kb.param("tile", tile), kb.param("ntiles", ntiles)
    mode = "rint" if db < sb else "none"
    bidx = kb.op("blk", "ascendc.block_idx : index")
    bnum = kb.op("nblk", "ascendc.block_num : index")
    with kb.loop(bidx, p_nt, bnum, "t") as t:
        off = kb.mul(t, p_tile)
        cnt = kb.min(kb.sub(p_total, off), p_tile)
        x = kb.alloc(inq, lt, "x")
        kb.copy_in(x, lt, x_gm, src, off, cnt, pad=True)
        kb.enque(inq, x, lt)
        xv = kb.deque(inq, lt, "xv")
        y = kb.alloc(outq, ot, "y")
        kb.emit(f"ascendc.cast {y}, {xv}, <{mode}>, {cnt} : {ot}, {lt}")
        kb.free(inq, xv, lt)
        kb.enque(outq, y, ot)
        yv = kb.deque(outq, ot, "yv")
        kb.copy_out(y_gm, dst, off, yv, ot, cnt, pad=True)
        kb.free(outq, yv, ot)
    return kb
