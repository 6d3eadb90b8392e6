"""Kernel templates of the ge -> ascendc lowering.

Each template builds one ``ascendc.kernel`` with :class:`KernelBuilder`, which
creates the ops with the generated ``ascendc`` builders (and ``arith``/``scf``)
and the typed ascendc types of :mod:`ge_mlir.dialects.ascendc` (index
constants, tiling fields and buffers hoisted to the entry, ``scf.for``/``scf.if``
scopes). Templates follow the canonical Ascend C
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

import math

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import arith, scf

from ...dialects import ascendc
from ...dialects.ascendc import GlobalTensorType, LocalTensorType, QueueType, TBufType
from ...errors import Unsupported
from ...irutils.types import NUMPY_DTYPES

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
#: Cores a vector kernel / a cube kernel is spread over (its blockDim at most): the SoC's
#: vector and cube core counts, set per compile by :func:`cores` (the Ascend910B1 preset's here).
MAX_BLOCKS = 48
MAX_CUBE_BLOCKS = 24


@contextmanager
def cores(vector: int, cube: int) -> Iterator[None]:
    """Spreads the kernels built inside the block over ``vector`` (vector kernels) and ``cube``
    (cube kernels) cores."""
    global MAX_BLOCKS, MAX_CUBE_BLOCKS
    saved = MAX_BLOCKS, MAX_CUBE_BLOCKS
    MAX_BLOCKS, MAX_CUBE_BLOCKS = max(1, vector), max(1, cube)
    try:
        yield
    finally:
        MAX_BLOCKS, MAX_CUBE_BLOCKS = saved

#: Element types the kernels handle (their sizes come from ``ir.types``).
_ELEM_TYPES: dict[str, Callable[[], ir.Type]] = {
    "f32": ir.F32Type.get, "f16": ir.F16Type.get, "bf16": ir.BF16Type.get,
    "i32": lambda: ir.IntegerType.get_signless(32), "i8": lambda: ir.IntegerType.get_signless(8),
    "ui8": lambda: ir.IntegerType.get_unsigned(8), "i64": lambda: ir.IntegerType.get_signless(64)}


def elem_bytes(elem: str) -> int:
    if elem not in _ELEM_TYPES:
        raise KeyError(elem)
    return NUMPY_DTYPES[elem]().itemsize


def elem_type(elem: str) -> ir.Type:
    """The MLIR element type of ``elem`` (``"f32"``, ``"f16"``, ...) in the current context."""
    return _ELEM_TYPES[elem]()


def _prod(xs: Sequence[int]) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def align_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def ceil_div(a: int, b: int) -> int:
    return (a + b - 1) // b


def local_t(elem: str, size: int, pos: str) -> LocalTensorType:
    return LocalTensorType.get(elem_type(elem), size, pos)


def gm_t(elem: str) -> GlobalTensorType:
    return GlobalTensorType.get(elem_type(elem))


class KernelBuilder:
    """Builds one ``ascendc.kernel`` (detached until :meth:`finish`) with the
    ``ascendc``, ``arith`` and ``scf`` op builders, in the current context and
    location.

    Constants, tiling fields, the pipe, queues and buffers go to the kernel's
    prologue: they are inserted before the first op of the body, in the order
    they are first asked for, so a template can ask for them where it needs them.
    """

    def __init__(self, name: str, kind: str = "vector", blocks: int = 1):
        self.name, self.kind, self.blocks = name, kind, blocks
        self.args: list[tuple[ir.Value, str]] = []
        self.tiling: dict[str, int] = {}
        # block_dim and tiling are set by finish(): templates decide them last.
        self.op = ascendc.KernelOp(name, ascendc.KernelKindAttr.get(kind), blocks)
        self.entry = self.op.body.blocks.append()
        self._ips = [ir.InsertionPoint(self.entry)]
        self._first_body_op: ir.Operation | None = None
        self._ifs: list[scf.IfOp] = []
        self._arg_names: dict[str, int] = {}
        self._consts: dict[tuple[str, object], ir.Value] = {}
        self._tiling_vals: dict[str, ir.Value] = {}
        #: Work for the cost model (:mod:`.cost`): cube FLOPs, bytes through the vector unit,
        #: scalar-pipe element steps, GM bytes moved.
        self.work = {"cube_flops": 0, "vector_bytes": 0, "scalar_ops": 0, "gm_bytes": 0}

    def account(self, **work: int) -> None:
        for k, v in work.items():
            self.work[k] += int(v)

    # -- insertion -------------------------------------------------------------

    def _body(self, build: Callable[[], object]):
        with self._ips[-1]:
            op = build()
        if self._first_body_op is None:
            self._first_body_op = op.operation if isinstance(op, ir.OpView) else op
        return op

    def _pro(self, build: Callable[[], object]):
        first = self._first_body_op
        with ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(self.entry):
            return build()

    @contextmanager
    def _at(self, block: ir.Block) -> Iterator[None]:
        self._ips.append(ir.InsertionPoint(block))
        try:
            yield
        finally:
            self._ips.pop()

    def _yield(self, values: Sequence[ir.Value] = ()) -> None:
        with self._ips[-1]:
            scf.YieldOp(list(values))

    def arg(self, hint: str, elem: str) -> ir.Value:
        """A global-memory parameter; ``hint`` is its C++ name (made unique)."""
        n = self._arg_names.get(hint, 0)
        self._arg_names[hint] = n + 1
        value = self.entry.add_argument(gm_t(elem), ir.Location.current)
        self.args.append((value, f"{hint}_{n}" if n else hint))
        return value

    def c(self, value: int) -> ir.Value:
        """An index constant (defined once, at the kernel entry)."""
        key = ("index", int(value))
        if key not in self._consts:
            self._consts[key] = self._pro(lambda: arith.ConstantOp(ir.IndexType.get(), int(value)).result)
        return self._consts[key]

    def f(self, value: float, elem: str) -> ir.Value:
        key = (elem, float(value))
        if key not in self._consts:
            # The value the text form "%.9e" parsed to (MLIR reads float literals
            # as doubles, then rounds to the element type), as kernels always had.
            t = elem_type(elem)
            attr = ir.FloatAttr.get(t, float(f"{float(value):.9e}"))
            self._consts[key] = self._pro(lambda: arith.ConstantOp(t, attr).result)
        return self._consts[key]

    def ci(self, value: int, elem: str) -> ir.Value:
        """An integer constant of element type ``elem`` (``"i64"``, ``"i32"``)."""
        key = (elem, int(value))
        if key not in self._consts:
            t = elem_type(elem)
            self._consts[key] = self._pro(lambda: arith.ConstantOp(t, ir.IntegerAttr.get(t, int(value))).result)
        return self._consts[key]

    def param(self, field_name: str, value: int) -> ir.Value:
        """A tiling field (an index value read from the tiling struct)."""
        if field_name in self.tiling and self.tiling[field_name] != value:
            raise ValueError(f"tiling field {field_name} set twice")
        self.tiling[field_name] = int(value)
        if field_name not in self._tiling_vals:
            self._tiling_vals[field_name] = self._pro(
                lambda: ascendc.TilingGetOp(ir.IndexType.get(), field_name).result)
        return self._tiling_vals[field_name]

    def tiling_value(self, field_name: str) -> ir.Value:
        return self._tiling_vals[field_name]

    # -- arith -----------------------------------------------------------------

    def _value(self, build: Callable[[], ir.OpView]) -> ir.Value:
        return self._body(build).result

    def add(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.AddIOp(a, b))

    def sub(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.SubIOp(a, b))

    def mul(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.MulIOp(a, b))

    def div(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.DivUIOp(a, b))

    def rem(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.RemUIOp(a, b))

    def min(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.MinUIOp(a, b))

    def ceil_div(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.CeilDivUIOp(a, b))

    def cmp(self, predicate: str, a: ir.Value, b: ir.Value) -> ir.Value:
        """``arith.cmpi`` (``"eq"``, ``"ult"``, ``"ugt"``, ...)."""
        return self._value(lambda: arith.CmpIOp(getattr(arith.CmpIPredicate, predicate), a, b))

    def eq(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self.cmp("eq", a, b)

    def andi(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.AndIOp(a, b))

    def index_cast(self, a: ir.Value) -> ir.Value:
        return self._value(lambda: arith.IndexCastOp(ir.IndexType.get(), a))

    def pick(self, cond: ir.Value, a: ir.Value, b: ir.Value) -> ir.Value:
        """``arith.select`` (both values computed)."""
        return self._value(lambda: arith.SelectOp(cond, a, b))

    def addf(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.AddFOp(a, b))

    def mulf(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.MulFOp(a, b))

    def divf(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self._value(lambda: arith.DivFOp(a, b))

    # -- control flow ------------------------------------------------------------

    @contextmanager
    def loop(self, lb: ir.Value, ub: ir.Value, step: ir.Value) -> Iterator[ir.Value]:
        op = self._body(lambda: scf.ForOp(lb, ub, step))
        with self._at(op.body):
            yield op.induction_variable
            self._yield()

    @contextmanager
    def if_(self, cond: ir.Value) -> Iterator[None]:
        """The then-branch; :meth:`else_` may follow, :meth:`end_if` closes the op."""
        op = self._body(lambda: scf.IfOp(cond))
        self._ifs.append(op)
        with self._at(op.then_block):
            yield
            self._yield()

    def else_(self) -> None:
        block = self._ifs[-1].regions[1].blocks.append()
        self._ips.append(ir.InsertionPoint(block))

    def end_if(self) -> None:
        op = self._ifs.pop()
        if len(op.regions[1].blocks):
            self._yield()
            self._ips.pop()

    def select(self, cond: ir.Value, then: Callable[[], ir.Value], otherwise: ir.Value) -> ir.Value:
        """``scf.if cond -> (T) {yield then()} else {yield otherwise}``."""
        op = self._body(lambda: scf.IfOp(cond, [otherwise.type], has_else=True))
        with self._at(op.then_block):
            self._yield([then()])
        with self._at(op.else_block):
            self._yield([otherwise])
        return op.results[0]

    # -- ascendc: memory -----------------------------------------------------------

    def block_idx(self) -> ir.Value:
        return self._value(lambda: ascendc.BlockIdxOp(ir.IndexType.get()))

    def block_num(self) -> ir.Value:
        return self._value(lambda: ascendc.BlockNumOp(ir.IndexType.get()))

    def pipe(self) -> ir.Value:
        return self._pro(lambda: ascendc.PipeOp(ascendc.PipeType.get()).result)

    def queue(self, pipe: ir.Value, pos: str, depth: int, num: int, nbytes: int) -> ir.Value:
        return self._pro(lambda: ascendc.QueueOp(QueueType.get(pos, depth), pipe, num, nbytes).result)

    def tbuf_tensor(self, pipe: ir.Value, pos: str, elem: str, size: int) -> ir.Value:
        buf = self._pro(lambda: ascendc.TBufOp(TBufType.get(pos), pipe, size * elem_bytes(elem)).result)
        return self._pro(lambda: ascendc.TBufGetOp(local_t(elem, size, pos), buf).result)

    def alloc(self, q: ir.Value, lt: LocalTensorType) -> ir.Value:
        return self._value(lambda: ascendc.AllocTensorOp(lt, q))

    def enque(self, q: ir.Value, t: ir.Value) -> None:
        self._body(lambda: ascendc.EnQueOp(q, t))

    def deque(self, q: ir.Value, lt: LocalTensorType) -> ir.Value:
        return self._value(lambda: ascendc.DeQueOp(lt, q))

    def free(self, q: ir.Value, t: ir.Value) -> None:
        self._body(lambda: ascendc.FreeTensorOp(q, t))

    def slice(self, t: ir.Value, off: ir.Value, size: int) -> ir.Value:
        """``t[off]`` typed as ``size`` elements (same element type and position)."""
        lt = LocalTensorType(t.type)
        st = LocalTensorType.get(lt.element_type, size, lt.position)
        return self._value(lambda: ascendc.LocalSliceOp(st, t, off))

    def get_value(self, t: ir.Value, index: ir.Value) -> ir.Value:
        elem = LocalTensorType(t.type).element_type
        return self._value(lambda: ascendc.GetValueOp(elem, t, index))

    def set_value(self, t: ir.Value, index: ir.Value, value: ir.Value) -> None:
        self._body(lambda: ascendc.SetValueOp(t, index, value))

    # -- ascendc: data movement ------------------------------------------------------

    def copy_in(self, dst: ir.Value, gm: ir.Value, off: ir.Value, count: ir.Value, pad: bool) -> None:
        op = ascendc.CopyPadGmToLocalOp if pad else ascendc.CopyGmToLocalOp
        self._body(lambda: op(dst, gm, off, count))

    def copy_out(self, gm: ir.Value, off: ir.Value, src: ir.Value, count: ir.Value, pad: bool) -> None:
        op = ascendc.CopyPadLocalToGmOp if pad else ascendc.CopyLocalToGmOp
        self._body(lambda: op(gm, off, src, count))

    def copy_local(self, dst: ir.Value, src: ir.Value, count: ir.Value) -> None:
        self._body(lambda: ascendc.CopyLocalOp(dst, src, count))

    def flag(self, event: str, eid: int = 0) -> None:
        attr = ascendc.EventAttr.get(event)
        self._body(lambda: ascendc.SetFlagOp(attr, eid))
        self._body(lambda: ascendc.WaitFlagOp(attr, eid))

    # -- ascendc: vector ---------------------------------------------------------------

    def vbinary(self, kind: str, dst: ir.Value, lhs: ir.Value, rhs: ir.Value, count: ir.Value) -> None:
        self._body(lambda: ascendc.VBinaryOp(ascendc.BinaryKindAttr.get(kind), dst, lhs, rhs, count))

    def vscalar(self, kind: str, dst: ir.Value, src: ir.Value, scalar: ir.Value, count: ir.Value) -> None:
        self._body(lambda: ascendc.VScalarOp(ascendc.ScalarKindAttr.get(kind), dst, src, scalar, count))

    def vunary(self, kind: str, dst: ir.Value, src: ir.Value, count: ir.Value) -> None:
        self._body(lambda: ascendc.VUnaryOp(ascendc.UnaryKindAttr.get(kind), dst, src, count))

    def reduce(self, kind: str, dst: ir.Value, src: ir.Value, tmp: ir.Value, count: ir.Value) -> None:
        self._body(lambda: ascendc.ReduceOp(ascendc.ReduceKindAttr.get(kind), dst, src, tmp, count))

    def duplicate(self, dst: ir.Value, scalar: ir.Value, count: ir.Value) -> None:
        self._body(lambda: ascendc.DuplicateOp(dst, scalar, count))

    def vselect(self, dst: ir.Value, mask: ir.Value, src0: ir.Value, src1: ir.Value, count: ir.Value) -> None:
        """``Select`` in VSEL_TENSOR_TENSOR_MODE (a set mask bit picks ``src0``)."""
        self._body(lambda: ascendc.SelectOp(ascendc.SelModeAttr.get("tensor_tensor"), dst, mask, src0, src1, count))

    def cast(self, dst: ir.Value, src: ir.Value, mode: str, count: ir.Value) -> None:
        self._body(lambda: ascendc.CastOp(dst, src, ascendc.RoundModeAttr.get(mode), count))

    # -- ascendc: cube -------------------------------------------------------------------

    def copy_nd2nz(self, dst: ir.Value, gm: ir.Value, off: ir.Value, rows: ir.Value, cols: ir.Value,
                   src_d_value: int, dst_nz_c0_stride: int) -> None:
        self._body(lambda: ascendc.CopyNd2NzOp(dst, gm, off, rows, cols, src_d_value, dst_nz_c0_stride))

    def load_data_2d(self, dst: ir.Value, src: ir.Value, start: ir.Value, repeat: ir.Value,
                     stride: ir.Value) -> None:
        self._body(lambda: ascendc.LoadData2DOp(dst, src, start, repeat, stride))

    def mmad(self, c: ir.Value, a: ir.Value, b: ir.Value, init: ir.Value, m: ir.Value, n: ir.Value,
             k: ir.Value) -> None:
        self._body(lambda: ascendc.MmadOp(c, a, b, init, m, n, k))

    def fixpipe(self, gm: ir.Value, off: ir.Value, src: ir.Value, rows: ir.Value, cols: ir.Value,
                src_stride: ir.Value, dst_stride: int) -> None:
        self._body(lambda: ascendc.FixpipeOp(gm, off, src, rows, cols, src_stride, dst_stride))

    # -- result ------------------------------------------------------------------

    def finish(self) -> ir.Operation:
        """The kernel op, with its block count, tiling struct and C++ argument names set."""
        op = self.op.operation
        i64 = ir.IntegerType.get_signless(64)
        op.attributes["block_dim"] = ir.IntegerAttr.get(i64, self.blocks)
        if self.tiling:
            op.attributes["tiling"] = ir.DictAttr.get(
                {k: ir.IntegerAttr.get(i64, v) for k, v in self.tiling.items()})
        op.attributes["work"] = ir.DictAttr.get({k: ir.IntegerAttr.get(i64, v) for k, v in self.work.items() if v})
        if self.args:
            # C++ parameter names for the emitter (x, bt, out, ... rather than a0, a1).
            op.attributes["arg_names"] = ir.ArrayAttr.get([ir.StringAttr.get(n) for _, n in self.args])
        return op


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
    period = 0
    if not flat:
        rows = total // max(1, _prod(shape[split:]))
        cols = total // rows
        side = sum(align_up(cols if o.kind == "row" else o.period, align) for o in prog.operands
                   if o.kind != "full")
        if (UB_BUDGET - side * eb) < align_up(cols, align) * eb * (2 * n_full + 2 + temps):
            # Rows too long for a tile of whole rows (an attention mask over [S, S] scores, a
            # per-channel op on a 224x224 NCHW image): flat tiles that divide the row length, so
            # each tile lies in one row. A row operand is read like a full operand at (offset mod
            # row length); a col operand's value for the tile's row comes from its side buffer.
            period = cols
            flat = True
            n_full = sum(1 for o in prog.operands if o.kind != "col")
    kb = KernelBuilder(name)
    kb.account(vector_bytes=total * eb * max(1, len(prog.instrs)))
    ins_gm = [kb.arg(f"in{i}", elem) for i in range(len(prog.operands))]  # C++ names in0, in1, ...
    out_gm = kb.arg("out", elem)
    pipe = kb.pipe()
    if flat:
        rows, cols, slot = 1, total, 0
        units = 2 * n_full + 2 + temps
        col_side = sum(align_up(o.period, align) for o in prog.operands if o.kind == "col") if period else 0
        tile = max(align, ((UB_BUDGET - col_side * eb) // units // eb) // align * align)
        tile = min(tile, align_up(total, align))
        if period:
            tile = next((t for t in range(min(tile, period) // align * align, 0, -align) if period % t == 0), 0)
            if not tile:
                raise Unsupported(f"rows of {period} elements do not fit the unified buffer")
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
            raise Unsupported(f"rows of {cols} elements do not fit the unified buffer")
        tile = tile_rows * slot
        ntiles = ceil_div(rows, tile_rows)
    kb.blocks = max(1, min(MAX_BLOCKS, ntiles))
    lt = local_t(elem, tile, "vecin")
    ot = local_t(elem, tile, "vecout")
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

    if flat:
        p_total = kb.param("total", total)
        p_tile = kb.param("tile", tile)
        p_ntiles = kb.param("ntiles", ntiles)
        p_period = kb.param("period", period) if period else None
        with kb.loop(bidx, p_ntiles, bnum) as t:
            off = kb.mul(t, p_tile)
            cnt = kb.min(kb.sub(p_total, off), p_tile)
            full = kb.eq(cnt, p_tile)
            tiles = {}
            for i, q in in_q.items():
                x = kb.alloc(q, lt)
                src = kb.rem(off, p_period) if prog.operands[i].kind == "row" else off
                with kb.if_(full):
                    kb.copy_in(x, ins_gm[i], src, p_tile, pad=False)
                kb.else_()
                kb.copy_in(x, ins_gm[i], src, cnt, pad=True)
                kb.end_if()
                kb.enque(q, x)
            for i, q in in_q.items():
                tiles[i] = kb.deque(q, lt)
            y = kb.alloc(out_q, ot)
            flatctx = (kb.div(off, p_period), side_bufs) if period else None
            _run_program(kb, prog, tiles, temp_bufs, y, cnt, elem, None, flatctx)
            for i, q in in_q.items():
                kb.free(q, tiles[i])
            kb.enque(out_q, y)
            yv = kb.deque(out_q, ot)
            with kb.if_(full):
                kb.copy_out(out_gm, off, yv, p_tile, pad=False)
            kb.else_()
            kb.copy_out(out_gm, off, yv, cnt, pad=True)
            kb.end_if()
            kb.free(out_q, yv)
        return kb

    p_rows = kb.param("rows", rows)
    p_cols = kb.param("cols", cols)
    p_slot = kb.param("slot", slot)
    p_trows = kb.param("tile_rows", tile_rows)
    p_ntiles = kb.param("ntiles", ntiles)
    with kb.loop(bidx, p_ntiles, bnum) as t:
        r0 = kb.mul(t, p_trows)
        nr = kb.min(kb.sub(p_rows, r0), p_trows)
        cnt = kb.mul(nr, p_slot)
        tiles = {}
        for i, q in in_q.items():
            x = kb.alloc(q, lt)
            with kb.loop(kb.c(0), nr, kb.c(1)) as r:
                s = kb.slice(x, kb.mul(r, p_slot), slot)
                kb.copy_in(s, ins_gm[i], kb.mul(kb.add(r0, r), p_cols), p_cols, pad=True)
            kb.enque(q, x)
        for i, q in in_q.items():
            tiles[i] = kb.deque(q, lt)
        y = kb.alloc(out_q, ot)
        rowctx = (r0, nr, p_slot, slot, p_cols, side_bufs)
        _run_program(kb, prog, tiles, temp_bufs, y, cnt, elem, rowctx)
        for i, q in in_q.items():
            kb.free(q, tiles[i])
        kb.enque(out_q, y)
        yv = kb.deque(out_q, ot)
        with kb.loop(kb.c(0), nr, kb.c(1)) as r:
            s = kb.slice(yv, kb.mul(r, p_slot), slot)
            kb.copy_out(out_gm, kb.mul(kb.add(r0, r), p_cols), s, p_cols, pad=True)
        kb.free(out_q, yv)
    return kb


def _run_program(kb: KernelBuilder, prog: Program, tiles: dict[int, ir.Value], temp_bufs: list[ir.Value],
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
        raise Unsupported(f"matmul on {elem} (the cube template handles f32 and f16)")
    eb = elem_bytes(elem)
    c0 = 32 // eb
    tm = min(align_up(m, 16), 128)
    tn = min(align_up(n, 16), 128)
    tk = min(align_up(k, c0), (65536 // (max(tm, tn) * eb)) // c0 * c0)
    mt, nt, kt = ceil_div(m, tm), ceil_div(n, tn), ceil_div(k, tk)
    tiles = batch * mt * nt
    kb = KernelBuilder(name, kind="cube", blocks=max(1, min(MAX_CUBE_BLOCKS, tiles)))
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


# ----------------------------------------------------------------------------
# Row-wise kernels: softmax, layer norm
# ----------------------------------------------------------------------------


def _row_fits(elem: str, cols: int, extra_rows: int) -> bool:
    """A row of ``cols`` fits the in-UB row kernels (:func:`_row_kernel_setup`)."""
    return align_up(cols, 32 // elem_bytes(elem)) * elem_bytes(elem) * (4 + extra_rows) <= UB_BUDGET


def _row_kernel_setup(kb: KernelBuilder, elem: str, rows: int, cols: int, extra_rows: int):
    eb = elem_bytes(elem)
    align = 32 // eb
    slot = align_up(cols, align)
    if slot * eb * (4 + extra_rows) > UB_BUDGET:
        raise Unsupported(f"rows of {cols} elements do not fit the unified buffer")
    pipe = kb.pipe()
    lt, ot = local_t(elem, slot, "vecin"), local_t(elem, slot, "vecout")
    inq = kb.queue(pipe, "vecin", 2, 2, slot * eb)
    outq = kb.queue(pipe, "vecout", 2, 2, slot * eb)
    return pipe, slot, lt, ot, inq, outq


def softmax_kernel(name: str, elem: str, rows: int, cols: int) -> KernelBuilder:
    """Softmax over the last axis: ReduceMax, subtract, Exp, ReduceSum, scale (rows longer than the
    UB: :func:`.kernels_rows.softmax_long_kernel`)."""
    if not _row_fits(elem, cols, 2):
        from .kernels_rows import softmax_long_kernel

        return softmax_long_kernel(name, elem, rows, cols)
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, rows)))
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
    :func:`.kernels_rows.layer_norm_long_kernel`)."""
    if not _row_fits(elem, cols, 4 + int(has_scale) + int(has_bias)):
        from .kernels_rows import layer_norm_long_kernel

        return layer_norm_long_kernel(name, elem, rows, cols, eps, has_scale, has_bias, center)
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, rows)))
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
    row = kb.tbuf_tensor(pipe, "veccalc", elem, slot)
    p_rows, p_cols = kb.param("rows", rows), kb.param("cols", cols)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_rows, bnum) as r:
        # Decompose the output row index over the output's leading axes.
        rest, src = r, kb.c(0)
        for ax in range(rank - 2, -1, -1):
            d = kb.c(out_shape[ax])
            idx = kb.rem(rest, d)
            rest = kb.div(rest, d)
            src = kb.add(src, kb.mul(idx, kb.c(in_strides[perm[ax]])))
        kb.copy_in(row, x_gm, src, p_cols, pad=True)
        kb.flag("mte2_mte3")
        kb.copy_out(y_gm, kb.mul(r, p_cols), row, p_cols, pad=True)
        kb.flag("mte3_mte2")
    return kb


def transpose2d_kernel(name: str, elem: str, batch: int, rows: int, cols: int) -> KernelBuilder:
    """``y[b] = x[b]^T`` (x[b] is rows x cols) through the unified buffer, one matrix per step."""
    eb = elem_bytes(elem)
    n = rows * cols
    size = align_up(n, 32 // eb)
    if 2 * size * eb > UB_BUDGET:
        return _transpose2d_tiled(name, elem, batch, rows, cols)
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, batch)))
    kb.account(scalar_ops=batch * n)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, size)
    dst = kb.tbuf_tensor(pipe, "vecout", elem, size)
    p_b, p_n = kb.param("batch", batch), kb.param("numel", n)
    c_rows, c_cols = kb.c(rows), kb.c(cols)
    bidx = kb.block_idx()
    bnum = kb.block_num()
    with kb.loop(bidx, p_b, bnum) as b:
        off = kb.mul(b, p_n)
        kb.copy_in(src, x_gm, off, p_n, pad=True)
        kb.flag("mte2_s")
        with kb.loop(kb.c(0), c_rows, kb.c(1)) as i, kb.loop(kb.c(0), c_cols, kb.c(1)) as j:
            v = kb.get_value(src, kb.add(kb.mul(i, c_cols), j))
            kb.set_value(dst, kb.add(kb.mul(j, c_rows), i), v)
        kb.flag("s_mte3")
        kb.copy_out(y_gm, off, dst, p_n, pad=True)
        # The next matrix overwrites both buffers: wait for this one's copies.
        kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb


def _transpose2d_tiled(name: str, elem: str, batch: int, rows: int, cols: int) -> KernelBuilder:
    """``y[b] = x[b]^T`` for matrices larger than the unified buffer: TR x TC tiles, each brought in
    as TR row pieces (DataCopyPad), transposed on the scalar pipe, written as TC row pieces."""
    eb = elem_bytes(elem)
    align = 32 // eb
    room = UB_BUDGET // eb
    tr = min(rows, 128)
    # src: TR rows of align_up(TC) slots; dst: TC rows of align_up(TR) slots.
    tc = min(cols, (room - tr * align) // (tr + align_up(tr, align)) // align * align)
    if tc < 1:
        raise Unsupported(f"a {rows}x{cols} matrix: no transpose tile fits the unified buffer")
    sc, sr = align_up(tc, align), align_up(tr, align)
    rt, ct = ceil_div(rows, tr), ceil_div(cols, tc)
    tiles = batch * rt * ct
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, tiles)))
    kb.account(scalar_ops=batch * rows * cols)
    x_gm, y_gm = kb.arg("x", elem), kb.arg("y", elem)
    pipe = kb.pipe()
    src = kb.tbuf_tensor(pipe, "vecin", elem, tr * sc)
    dst = kb.tbuf_tensor(pipe, "vecout", elem, tc * sr)
    p_rows, p_cols, p_tr, p_tc = kb.param("rows", rows), kb.param("cols", cols), kb.param("tr", tr), kb.param("tc", tc)
    p_ct, p_rc = kb.param("col_tiles", ct), kb.param("tiles_per_matrix", rt * ct)
    p_tiles = kb.param("tiles", tiles)
    c_sc, c_sr, one = kb.c(sc), kb.c(sr), kb.c(1)
    with kb.loop(kb.block_idx(), p_tiles, kb.block_num()) as t:
        b = kb.div(t, p_rc)
        rest = kb.rem(t, p_rc)
        r0 = kb.mul(kb.div(rest, p_ct), p_tr)
        c0 = kb.mul(kb.rem(rest, p_ct), p_tc)
        nr = kb.min(kb.sub(p_rows, r0), p_tr)
        nc = kb.min(kb.sub(p_cols, c0), p_tc)
        base = kb.mul(kb.mul(b, p_rows), p_cols)
        with kb.loop(kb.c(0), nr, one) as i:
            kb.copy_in(kb.slice(src, kb.mul(i, c_sc), sc), x_gm, kb.add(base, kb.add(kb.mul(kb.add(r0, i), p_cols), c0)),
                       nc, pad=True)
        kb.flag("mte2_s")
        with kb.loop(kb.c(0), nr, one) as i, kb.loop(kb.c(0), nc, one) as j:
            v = kb.get_value(src, kb.add(kb.mul(i, c_sc), j))
            kb.set_value(dst, kb.add(kb.mul(j, c_sr), i), v)
        kb.flag("s_mte3")
        with kb.loop(kb.c(0), nc, one) as j:
            kb.copy_out(y_gm, kb.add(base, kb.add(kb.mul(kb.add(c0, j), p_rows), r0)), kb.slice(dst, kb.mul(j, c_sr), sr),
                        nr, pad=True)
        # The next tile overwrites both buffers: wait for this one's copies.
        kb.flag("mte3_s")
        kb.flag("s_mte2")
    return kb


def _band_rows(tr: int, stride: int, k: int, dil: int, h: int) -> int:
    """Input rows a block of ``tr`` output rows reads (at most ``h``)."""
    return min(h, (tr - 1) * stride + (k - 1) * dil + 1)


def _output_row_block(oh: int, n: int, fits: Callable[[int], bool]) -> int:
    """Output rows per tile: the most whose input band fits, but enough tiles for every block."""
    tr = next((t for t in range(oh, 0, -1) if fits(t)), 0)
    return min(tr, max(1, ceil_div(oh, ceil_div(MAX_BLOCKS, n)))) if tr else 0


def _stage_band(kb: KernelBuilder, src: ir.Value, x_gm: ir.Value, nchw: bool, b: ir.Value, oy0: ir.Value,
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
        hb = _band_rows(tr, strides[0], kh, dilations[0], h)
        return c * align_up(hb * w, align) if nchw else align_up(hb * w * c, align)

    tr = _output_row_block(oh, n, lambda t: (band_elems(t) + 2 * row_size) * eb <= UB_BUDGET)
    if not tr:
        raise Unsupported(f"the input rows one output row of a {c}x{h}x{w} image reads do not fit the "
                          "unified buffer for im2col")
    hb = _band_rows(tr, strides[0], kh, dilations[0], h)
    bslot = align_up(hb * w, align)
    ytiles = ceil_div(oh, tr)
    tiles = n * ytiles
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, tiles)))
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
        lo = _stage_band(kb, src, x_gm, nchw, b, oy0, ny, c, h, w, strides[0], pads[0], kh, dilations[0], bslot)
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
        from .kernels_rows import row_reduce_long_kernel

        return row_reduce_long_kernel(name, elem, kind, rows, cols, scale)
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
    if 4 * slot * eb > UB_BUDGET:
        from .kernels_rows import column_reduce_long_kernel

        return column_reduce_long_kernel(name, elem, kind, batch, rows, cols, scale)
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, batch)))
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
        return align_up(_band_rows(tr, strides[0], kernel[0], 1, h) * w * c, align)

    tr = _output_row_block(oh, n, lambda t: (band_elems(t) + 2 * c) * eb <= UB_BUDGET)
    if not tr:
        raise Unsupported(f"the {kernel[0]} input rows of a {h}x{w}x{c} image one output row reads do not fit "
                          "the unified buffer")
    ytiles = ceil_div(oh, tr)
    tiles = n * ytiles
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, tiles)))
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
        lo = _stage_band(kb, image, x_gm, False, b, oy0, ny, c, h, w, strides[0], pads[0], kernel[0], 1, 0)
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
        return align_up(_band_rows(tr, strides[0], kh, dilations[0], h) * w * c, align)

    tr = _output_row_block(oh, n, lambda t: band_elems(t) * eb + fixed <= UB_BUDGET)
    if not tr:
        raise Unsupported(f"the input rows one output row of a {h}x{w}x{c} depthwise conv reads do not fit the "
                          "unified buffer")
    ytiles = ceil_div(oh, tr)
    tiles = n * ytiles
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, tiles)))
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
        lo = _stage_band(kb, image, x_gm, False, b, oy0, ny, c, h, w, strides[0], pads[0], kh, dilations[0], 0)
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
                _run_program(kb, epilogue, {0: acc}, temp_bufs, acc, p_c, elem, None)
            kb.flag("v_mte3")
            kb.copy_out(y_gm, kb.mul(kb.add(kb.mul(b, kb.c(oh * ow)), p), p_c), acc, p_c, pad=True)
            kb.flag("mte3_v")
        kb.flag("v_mte2")
    return kb


def cast_kernel(name: str, src: str, dst: str, total: int, mode: str | None = None) -> KernelBuilder:
    """``Cast`` with round ``mode`` (default: nearest even when narrowing, exact when widening)."""
    sb, db = elem_bytes(src), elem_bytes(dst)
    align = 32 // min(sb, db)
    tile = max(align, (UB_BUDGET // (2 * sb + 2 * db)) // align * align)
    tile = min(tile, align_up(total, align))
    ntiles = ceil_div(total, tile)
    kb = KernelBuilder(name, blocks=max(1, min(MAX_BLOCKS, ntiles)))
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
