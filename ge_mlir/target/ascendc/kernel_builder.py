"""The builder the kernel templates (:mod:`.kernels`) use, and what they plan against.

:class:`KernelBuilder` builds one ``ascendc.kernel`` with the generated ``ascendc`` builders
(and ``arith``/``scf``) and the typed ascendc types of :mod:`ge_mlir.dialects.ascendc`: index
constants, tiling fields and buffers hoisted to the entry, ``scf.for``/``scf.if`` scopes.

The unified-buffer budget and the core counts a template plans for are set per compile by
:func:`ub_budget` and :func:`cores` (from the SoC of the module). Templates read
``kernel_builder.UB_BUDGET`` / ``MAX_BLOCKS`` / ``MAX_CUBE_BLOCKS`` through this module at call
time, never a copy taken at import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from mlir import ir
from mlir.dialects import arith, scf

from ...dialects import ascendc
from ...dialects.ascendc import GlobalTensorType, LocalTensorType, QueueType, TBufType
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
ELEM_TYPES: dict[str, Callable[[], ir.Type]] = {
    "f32": ir.F32Type.get, "f16": ir.F16Type.get, "bf16": ir.BF16Type.get,
    "i32": lambda: ir.IntegerType.get_signless(32), "i8": lambda: ir.IntegerType.get_signless(8),
    "ui8": lambda: ir.IntegerType.get_unsigned(8), "i64": lambda: ir.IntegerType.get_signless(64)}


def elem_bytes(elem: str) -> int:
    if elem not in ELEM_TYPES:
        raise KeyError(elem)
    return NUMPY_DTYPES[elem]().itemsize


def elem_type(elem: str) -> ir.Type:
    """The MLIR element type of ``elem`` (``"f32"``, ``"f16"``, ...) in the current context."""
    return ELEM_TYPES[elem]()


def prod(xs: Sequence[int]) -> int:
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
