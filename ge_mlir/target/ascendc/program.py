"""The elementwise micro-program: straight-line vector code over tiles, and its emission.

The lowering builds a :class:`Program` (a fused elementwise chain, a matmul or convolution
epilogue, a fused activation); :func:`run_program` emits its instructions into a kernel over
the tiles the kernel has staged (:func:`.kernels.elementwise.elementwise_kernel`, and the
fused activation of :func:`.kernels.window.depthwise_nhwc_kernel`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mlir import ir

from ...errors import Unsupported
from .kernel_builder import KernelBuilder


# ----------------------------------------------------------------------------
# Building a program
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
            b = float(b)
            # x / 0 = x * (1 / 0): +-inf, and NaN for x = 0, as IEEE division gives.
            inv = 1.0 / b if b else math.copysign(math.inf, b)
            scalar = {"add": ("adds", b), "sub": ("adds", -b), "mul": ("muls", b),
                      "div": ("muls", inv), "max": ("maxs", b), "min": ("mins", b)}
            if kind not in scalar:
                raise Unsupported(f"no scalar form of {kind}")
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

    def gelu_tanh(self, x: tuple) -> tuple:
        """0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), tanh from the sigmoid."""
        t = self.binary("mul", x, x)
        t = self.scalar("muls", t, 0.044715)
        t = self.scalar("adds", t, 1.0)
        t = self.binary("mul", t, x)
        t = self.scalar("muls", t, 0.7978845608028654)
        t = self.tanh(t)
        t = self.scalar("adds", t, 1.0)
        t = self.binary("mul", t, x)
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
        raise Unsupported(f"activation {act}")

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


# ----------------------------------------------------------------------------
# Emitting it into a kernel
# ----------------------------------------------------------------------------


def _vector_instr(kb: KernelBuilder, ins: tuple, dst: ir.Value, src: ir.Value, other: ir.Value | None,
                  count: ir.Value, elem: str) -> None:
    kind = ins[0]
    if kind == "binary":
        kb.vbinary(ins[1], dst, src, other, count)
    elif kind == "scalar":
        kb.vscalar(ins[1], dst, src, kb.f(ins[3], elem), count)
    elif kind == "unary":
        kb.vunary(ins[1], dst, src, count)
    else:
        raise AssertionError(kind)


def run_program(kb: KernelBuilder, prog: Program, tiles: dict[int, ir.Value], temp_bufs: list[ir.Value],
                out: ir.Value, count: ir.Value, elem: str, rowctx, flatctx=None) -> None:
    """Emits the program's instructions; the last one writes the output tile."""
    plan, _ = prog.plan()
    where: dict[tuple, ir.Value] = {("in", i): v for i, v in tiles.items()}
    for j, ins in enumerate(prog.instrs):
        src = where[ins[2]]
        dst = out if plan[j] == "out" else temp_bufs[plan[j]]
        kind = ins[0]
        if kind == "row" and rowctx is None:
            # A periodic row operand in flat mode: its tile lines up with the output tile.
            _vector_instr(kb, ("binary", ins[1], ins[2], ("in", ins[3])), dst, src, tiles[ins[3]], count, elem)
        elif kind == "col" and rowctx is None:
            # Flat tiles within one row (flatctx: that row's index): the col operand is one scalar.
            row, side_bufs = flatctx
            _col_instr(kb, ins[1], dst, src, side_bufs[ins[3]], row, ins[3], count, elem)
        elif kind in ("row", "col"):
            _broadcast_instr(kb, ins, dst, src, elem, rowctx)
        else:
            other = where[ins[3]] if kind == "binary" else None
            _vector_instr(kb, ins, dst, src, other, count, elem)
        where[("r", j)] = dst


_BCAST_SCALAR = {"add": "adds", "mul": "muls", "max": "maxs", "min": "mins"}


def _broadcast_instr(kb: KernelBuilder, ins: tuple, dst: ir.Value, src: ir.Value, elem: str, rowctx) -> None:
    if rowctx is None:
        raise AssertionError("broadcast operand in flat mode")
    r0, nr, p_slot, slot, p_cols, side_bufs = rowctx
    kind, op, _, idx = ins
    buf = side_bufs[idx]
    with kb.loop(kb.c(0), nr, kb.c(1)) as r:
        off = kb.mul(r, p_slot)
        ds = kb.slice(dst, off, slot)
        ss = kb.slice(src, off, slot)
        if kind == "row":
            kb.vbinary(op, ds, ss, buf, p_cols)
        else:
            _col_instr(kb, op, ds, ss, buf, kb.add(r0, r), idx, p_cols, elem)


def _col_instr(kb: KernelBuilder, op: str, ds: ir.Value, ss: ir.Value, buf: ir.Value, row: ir.Value, idx: int,
               p_cols: ir.Value, elem: str) -> None:
    period = kb.tiling_value(f"side{idx}_len")
    v = kb.get_value(buf, kb.rem(row, period))
    if op == "sub":
        v = kb.mulf(v, kb.f(-1.0, elem))
        sop = "adds"
    elif op == "div":
        v = kb.divf(kb.f(1.0, elem), v)
        sop = "muls"
    elif op in _BCAST_SCALAR:
        sop = _BCAST_SCALAR[op]
    else:
        raise Unsupported(f"per-row {op}")
    kb.vscalar(sop, ds, ss, v, p_cols)
