"""Elementwise chains: single-use elementwise producers of the same shape fuse into their user's
kernel, one vector kernel per chain (:func:`..kernels.elementwise.elementwise_kernel`).

Constants that are scalars become immediate operands (``Adds``/``Muls``/...); operands that
broadcast along rows (a bias over the last axes) or along columns (a per-channel NCHW bias) are
read once per block, with the row split chosen so that every such operand is one or the other.
"""

from __future__ import annotations

from mlir import ir

from ....errors import Unsupported
from ....irutils.attrs import attr_bool, attr_float
from ....irutils.patterns import defining_op
from ..kernels.elementwise import elementwise_kernel
from ..program import Program
from .common import ELEMS, Lowering, elem_of, numel, scalar_constant, shape_of, uses_of


_ELEMENTWISE_BINARY = {"ge.add": "add", "ge.sub": "sub", "ge.mul": "mul", "ge.div": "div",
                       "ge.max": "max", "ge.min": "min"}
_ELEMENTWISE_UNARY = {"ge.relu", "ge.sigmoid", "ge.tanh", "ge.gelu", "ge.silu", "ge.exp", "ge.log",
                      "ge.abs", "ge.sqrt", "ge.rsqrt", "ge.reciprocal", "ge.neg", "ge.leaky_relu",
                      "ge.clip", "ge.hard_sigmoid", "ge.hard_swish", "ge.pow"}


def is_elementwise(op: ir.Operation) -> bool:
    """An op a chain can compute (on an element type the vector kernels take)."""
    if op.name not in _ELEMENTWISE_BINARY and op.name not in _ELEMENTWISE_UNARY:
        return False
    return elem_of(op.results[0]) in ELEMS


def fused_into_user(op: ir.Operation) -> bool:
    """An elementwise op computed inside its single user's kernel."""
    if not is_elementwise(op):
        return False
    users = uses_of(op.results[0])
    if len(users) != 1 or not is_elementwise(users[0]):
        return False
    return shape_of(users[0].results[0]) == shape_of(op.results[0])


class _ChainBuilder:
    def __init__(self, low: Lowering, root: ir.Operation):
        self.low, self.root = low, root
        self.out_shape = shape_of(root.results[0])
        self.prog = Program(elem_of(root.results[0]))
        self.leaves: list[tuple[ir.Value, str, int]] = []
        self.leaf_regs: dict[ir.Value, tuple] = {}
        self.split = len(self.out_shape)

    def classify(self) -> None:
        """Choose the row split so every non-full leaf is a row or col operand."""
        leaves = []
        self._collect(self.root, leaves)
        rank = len(self.out_shape)
        shaped = [v for v in leaves if scalar_constant(v) is None and shape_of(v) != self.out_shape]
        if not shaped:
            self.split = rank
            return
        for k in range(rank - 1, 0, -1):
            if all(self._kind(v, k) is not None for v in shaped):
                self.split = k
                return
        raise Unsupported(f"broadcast operand of shape {shape_of(shaped[0])} against {self.out_shape}")

    def _collect(self, op: ir.Operation, out: list) -> None:
        for v in op.operands:
            p = defining_op(v)
            if p is not None and fused_into_user(p):
                self._collect(p, out)
            else:
                out.append(v)

    def _kind(self, v: ir.Value, k: int) -> tuple[str, int] | None:
        rank = len(self.out_shape)
        s = [1] * (rank - len(shape_of(v))) + shape_of(v)
        if s == self.out_shape:
            return ("full", 0)
        if all(d == 1 for d in s[:k]) and s[k:] == self.out_shape[k:]:
            return ("row", 0)
        if any(d != 1 for d in s[k:]):
            return None
        a = 0
        while a < k and s[a] == 1:
            a += 1
        if s[a:k] == self.out_shape[a:k]:
            return ("col", numel(self.out_shape[a:k]))
        return None

    def reg(self, v: ir.Value):
        p = defining_op(v)
        if p is not None and fused_into_user(p):
            return self.build(p)
        scalar = scalar_constant(v)
        if scalar is not None:
            return scalar
        if v in self.leaf_regs:
            return self.leaf_regs[v]
        kind = self._kind(v, self.split) if self.split < len(self.out_shape) else ("full", 0)
        if kind is None or (self.split == len(self.out_shape) and shape_of(v) != self.out_shape):
            raise Unsupported(f"broadcast operand of shape {shape_of(v)} against {self.out_shape}")
        reg = self.prog.input(kind[0], kind[1])
        self.leaves.append((v, kind[0], kind[1]))
        self.leaf_regs[v] = reg
        return reg

    def _full(self, r):
        """A register holding a full tile (a scalar or broadcast operand materialized)."""
        if isinstance(r, float):
            raise Unsupported("an elementwise op whose only tensor operand is a constant scalar")
        return r

    def build(self, op: ir.Operation):
        try:
            return self._build(op)
        except Unsupported as e:
            if e.op is None:  # the innermost chain member that refused
                e.op = op.operation if isinstance(op, ir.OpView) else op
            raise

    def _build(self, op: ir.Operation):
        p = self.prog
        name = op.name
        if name in _ELEMENTWISE_BINARY:
            kind = _ELEMENTWISE_BINARY[name]
            a, b = self.reg(op.operands[0]), self.reg(op.operands[1])
            a_full = not isinstance(a, float) and (a[0] == "r" or p.operands[a[1]].kind == "full")
            if a_full:
                return p.binary(kind, a, b)
            b_full = not isinstance(b, float) and (b[0] == "r" or p.operands[b[1]].kind == "full")
            if not b_full:
                raise Unsupported(f"{name} of two broadcast operands")
            if kind in ("add", "mul", "max", "min"):
                return p.binary(kind, b, a)
            if kind == "sub":                       # a - b = (-b) + a
                return p.binary("add", p.scalar("muls", b, -1.0), a)
            return p.binary("mul", p.unary("reciprocal", b), a)   # a / b
        x = self._full(self.reg(op.operands[0]))
        simple = {"ge.relu": "relu", "ge.exp": "exp", "ge.log": "ln", "ge.abs": "abs", "ge.sqrt": "sqrt",
                  "ge.rsqrt": "rsqrt", "ge.reciprocal": "reciprocal"}
        if name in simple:
            return p.unary(simple[name], x)
        if name == "ge.neg":
            return p.scalar("muls", x, -1.0)
        if name == "ge.pow":
            e = scalar_constant(op.operands[1])
            if e == 2.0:
                return p.binary("mul", x, x)
            if e == 0.5:
                return p.unary("sqrt", x)
            if e == 1.0:
                return x
            raise Unsupported("pow with an exponent other than 0.5, 1 or 2")
        if name == "ge.clip":
            lo, hi = attr_float(op, "min", None), attr_float(op, "max", None)
            if lo is not None:
                x = p.scalar("maxs", x, lo)
            if hi is not None:
                x = p.scalar("mins", x, hi)
            return x
        if name == "ge.gelu":
            if attr_bool(op, "tanh_approx", False):
                return p.gelu_tanh(x)
            return p.gelu(x)
        if name == "ge.hard_sigmoid":
            t = p.scalar("adds", p.scalar("muls", x, attr_float(op, "alpha", 0.2)), attr_float(op, "beta", 0.5))
            return p.scalar("mins", p.scalar("maxs", t, 0.0), 1.0)
        act = {"ge.sigmoid": "sigmoid", "ge.tanh": "tanh", "ge.silu": "silu", "ge.hard_swish": "hard_swish",
               "ge.leaky_relu": "leaky_relu"}[name]
        return p.activation(act, x, attr_float(op, "alpha", None))


def lower_elementwise_chain(low: Lowering, root: ir.Operation) -> None:
    cb = _ChainBuilder(low, root)
    cb.classify()
    result = cb.build(root)
    if isinstance(result, float):
        raise Unsupported("an elementwise chain of constants only (fold constants first)")
    cb.prog.result = result
    kb = elementwise_kernel(low.name("elementwise"), cb.prog, cb.out_shape, cb.split)
    args = [low.buffer(v) for v, _, _ in cb.leaves] + [low.result_buffer(root.results[0])]
    low.launch(kb, args)
