"""ge-lower-to-ascendc: a ge graph (one function, static shapes) -> ascendc kernels + host program.

The function becomes an ``ascendc.host`` whose arguments are the graph's
inputs then outputs, and one ``ascendc.kernel`` per scheduled step, launched
in program order:

* chains of elementwise ops (single-use producers of the same shape) fuse
  into one vector kernel (:func:`.kernels.elementwise.elementwise_kernel`); constants
  that are scalars become immediate operands, operands that broadcast along
  rows or columns are read once per block;
* ``matmul``/``gemm``: a cube kernel on ``A`` and ``B^T`` (constant weights
  are transposed at compile time, ``transpose(X)`` of the last two axes is
  read as ``X``, other B get a transpose kernel), then an epilogue vector
  kernel for bias, alpha/beta and the fused activation;
* ``conv2d`` (groups 1, constant filter): im2col kernel, cube matmul, and the
  epilogue (per-channel bias, residual, activation); NCHW and NHWC;
* ``softmax``, ``layer_norm`` and ``rms_norm`` over the last axes: row kernels;
* ``transpose``: row copies when the last axis stays, a through-UB kernel
  when only the last two axes swap; ``trans_data`` NCHW <-> NHWC likewise;
* ``batch_norm`` with constant statistics: a per-channel affine vector kernel;
* reductions (sum/mean/max/min) over trailing or contiguous middle axes,
  global pools (NCHW rows, NHWC columns), max/avg pooling (on channel
  vectors; NCHW through two transposes), float casts;
* reshape-like ops and identity alias their input's global memory.

Anything else fails the pass naming the op and why (a clear
``PassFailedError`` from the pipeline), never an approximate lowering.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from mlir import ir

from ...dialects.ascendc import KernelKindAttr, QueueType, TargetAttr, TBufType, position_memory
from ...errors import Unsupported
from ...irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ...irutils.constants import constant_array, constant_op, read_resource_array
from ...irutils.functions import io_names
from ...irutils.patterns import defining_op
from ...irutils.types import NUMPY_DTYPES
from ...passes.registry import Option, Pass, PassFailure, register_pass
from .kernel_builder import ELEM_TYPES, KernelBuilder, align_up, cores, elem_bytes, elem_type, gm_t, ub_budget
from .kernels.cast import cast_kernel
from .kernels.copy import coalesce, contiguous_strides, copy_rows_kernel, fill_kernel, gather_kernel, where_kernel
from .kernels.cube import im2col_kernel, matmul_kernel
from .kernels.elementwise import elementwise_kernel
from .kernels.layout import transpose2d_kernel, transpose_rows_kernel
from .kernels.rows import column_reduce_kernel, layer_norm_kernel, row_reduce_kernel, softmax_kernel
from .kernels.window import depthwise_nhwc_kernel, pool_nhwc_kernel
from .program import Program

_ELEMENTWISE_BINARY = {"ge.add": "add", "ge.sub": "sub", "ge.mul": "mul", "ge.div": "div",
                       "ge.max": "max", "ge.min": "min"}
_ELEMENTWISE_UNARY = {"ge.relu", "ge.sigmoid", "ge.tanh", "ge.gelu", "ge.silu", "ge.exp", "ge.log",
                      "ge.abs", "ge.sqrt", "ge.rsqrt", "ge.reciprocal", "ge.neg", "ge.leaky_relu",
                      "ge.clip", "ge.hard_sigmoid", "ge.hard_swish", "ge.pow"}
_ALIASES = {"ge.reshape", "ge.flatten", "ge.squeeze", "ge.unsqueeze", "ge.identity"}
#: Element types the vector and cube kernels compute in.
_ELEMS = {name: NUMPY_DTYPES[name] for name in ("f32", "f16")}


def _shape(v: ir.Value) -> list[int]:
    t = ir.RankedTensorType(v.type)
    if not t.has_static_shape:
        raise Unsupported("dynamic shapes are not supported by the ascendc target")
    return list(t.shape)


def _elem(v: ir.Value) -> str:
    return str(ir.RankedTensorType(v.type).element_type)


def _numel(shape: list[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _scalar_constant(v: ir.Value) -> float | None:
    arr = constant_array(v) if constant_op(v) is not None else None
    if arr is None or arr.size == 0:
        return None
    flat = arr.reshape(-1)
    return float(flat[0]) if np.all(flat == flat[0]) else None


def _const(v: ir.Value | None) -> np.ndarray | None:
    """The value of a constant operand as numpy (None if not a constant), any size: a
    ``dense_resource`` too large for :func:`constant_array` (a tied 50257 x 256 embedding) is read
    from its blob."""
    op = constant_op(v) if v is not None else None
    if op is None:
        return None
    arr = constant_array(v)
    if arr is None:
        arr = read_resource_array(op.attributes["value"])
    return None if arr is None else arr.reshape(_shape(v))


def _constant_value(op: ir.Operation, v: ir.Value) -> object:
    """The attribute of a constant, or its data as numpy when it is a ``dense_resource`` of a type the
    emitter cannot read back (integer tables, position ids)."""
    attr = op.attributes["value"]
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return attr
    if _elem(v) in ("f32", "f64"):
        return attr
    arr = read_resource_array(attr)
    if arr is None:
        raise Unsupported(f"the data of a {_elem(v)} constant cannot be read")
    return arr


@dataclass
class Buffer:
    """Global memory holding a tensor: a host argument, an allocation or a constant."""

    elem: str
    numel: int
    kind: str                      # "arg", "temp", "const"
    index: int = -1                # argument index for "arg"
    value: object = None           # ir.Attribute or np.ndarray for "const"
    ssa: ir.Value | None = None    # host value once materialized


@dataclass
class Launch:
    kernel: str
    args: list[Buffer]


@dataclass
class Lowering:
    """State of lowering one function."""

    fn: ir.Operation
    #: The ascendc.kernel ops, detached until the whole function has lowered.
    kernels: list[ir.Operation] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    buffers: dict[ir.Value, Buffer] = field(default_factory=dict)
    counter: dict[str, int] = field(default_factory=dict)
    #: The graph's outputs (host arguments after the inputs).
    outputs: list[Buffer] = field(default_factory=list)
    #: Device memory of the SoC: no tensor may be larger.
    gm_bytes: int = 64 << 30

    def name(self, family: str) -> str:
        n = self.counter.get(family, 0)
        self.counter[family] = n + 1
        return f"{family}_{n}"

    # -- buffers ---------------------------------------------------------------

    def buffer(self, v: ir.Value) -> Buffer:
        """The global memory of ``v`` (constants get one on first use)."""
        if v in self.buffers:
            return self.buffers[v]
        op = constant_op(v)
        if op is None:
            raise AssertionError(f"no buffer for {v}")
        buf = Buffer(_elem(v), _numel(_shape(v)), "const", value=_constant_value(op, v))
        self.buffers[v] = buf
        return buf

    def const_buffer(self, array: np.ndarray, elem: str) -> Buffer:
        return Buffer(elem, int(array.size), "const", value=np.ascontiguousarray(array.astype(_ELEMS[elem])))

    def temp(self, elem: str, numel: int) -> Buffer:
        return Buffer(elem, numel, "temp")

    def result_buffer(self, v: ir.Value) -> Buffer:
        """Where the producer of ``v`` writes (an output argument when ``v`` is returned)."""
        if v in self.buffers:
            return self.buffers[v]
        buf = self.temp(_elem(v), _numel(_shape(v)))
        self.buffers[v] = buf
        return buf

    def launch(self, kb: KernelBuilder, args: list[Buffer]) -> None:
        for b in args:
            nbytes = b.numel * elem_bytes(b.elem)
            if nbytes > self.gm_bytes:
                raise Unsupported(f"a {b.kind} tensor of {nbytes} bytes is larger than the device memory "
                                  f"({self.gm_bytes} bytes)")
        # GM traffic for the cost model: each argument read or written once (a lower bound).
        kb.account(gm_bytes=sum(b.numel * elem_bytes(b.elem) for b in args))
        self.kernels.append(kb.finish())
        self.launches.append(Launch(kb.name, args))


def _uses(v: ir.Value) -> list[ir.Operation]:
    out = []
    for use in v.uses:
        owner = use.owner
        out.append(owner.operation if isinstance(owner, ir.OpView) else owner)
    return out


def _is_elementwise(op: ir.Operation) -> bool:
    if op.name not in _ELEMENTWISE_BINARY and op.name not in _ELEMENTWISE_UNARY:
        return False
    return _elem(op.results[0]) in _ELEMS


# ----------------------------------------------------------------------------
# Elementwise chains
# ----------------------------------------------------------------------------


def _fused_into_user(op: ir.Operation) -> bool:
    """An elementwise op computed inside its single user's kernel."""
    if not _is_elementwise(op):
        return False
    users = _uses(op.results[0])
    if len(users) != 1 or not _is_elementwise(users[0]):
        return False
    return _shape(users[0].results[0]) == _shape(op.results[0])


class _ChainBuilder:
    def __init__(self, low: Lowering, root: ir.Operation):
        self.low, self.root = low, root
        self.out_shape = _shape(root.results[0])
        self.prog = Program(_elem(root.results[0]))
        self.leaves: list[tuple[ir.Value, str, int]] = []
        self.leaf_regs: dict[ir.Value, tuple] = {}
        self.split = len(self.out_shape)

    def classify(self) -> None:
        """Choose the row split so every non-full leaf is a row or col operand."""
        leaves = []
        self._collect(self.root, leaves)
        rank = len(self.out_shape)
        shaped = [v for v in leaves if _scalar_constant(v) is None and _shape(v) != self.out_shape]
        if not shaped:
            self.split = rank
            return
        for k in range(rank - 1, 0, -1):
            if all(self._kind(v, k) is not None for v in shaped):
                self.split = k
                return
        raise Unsupported(f"broadcast operand of shape {_shape(shaped[0])} against {self.out_shape}")

    def _collect(self, op: ir.Operation, out: list) -> None:
        for v in op.operands:
            p = defining_op(v)
            if p is not None and _fused_into_user(p):
                self._collect(p, out)
            else:
                out.append(v)

    def _kind(self, v: ir.Value, k: int) -> tuple[str, int] | None:
        rank = len(self.out_shape)
        s = [1] * (rank - len(_shape(v))) + _shape(v)
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
            return ("col", _numel(self.out_shape[a:k]))
        return None

    def reg(self, v: ir.Value):
        p = defining_op(v)
        if p is not None and _fused_into_user(p):
            return self.build(p)
        scalar = _scalar_constant(v)
        if scalar is not None:
            return scalar
        if v in self.leaf_regs:
            return self.leaf_regs[v]
        kind = self._kind(v, self.split) if self.split < len(self.out_shape) else ("full", 0)
        if kind is None or (self.split == len(self.out_shape) and _shape(v) != self.out_shape):
            raise Unsupported(f"broadcast operand of shape {_shape(v)} against {self.out_shape}")
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
            e = _scalar_constant(op.operands[1])
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


def epilogue(low: Lowering, acc: Buffer, out_value: ir.Value, shape: list[int], split: int,
             bias: tuple[Buffer, str, int] | None, residual: Buffer | None, act: str, alpha: float | None,
             scale: float = 1.0, bias_scale: float = 1.0) -> None:
    """``out = act(scale * acc + bias_scale * bias + residual)`` as one vector kernel."""
    elem = _elem(out_value)
    prog = Program(elem)
    x = prog.input()
    args = [acc]
    if scale != 1.0:
        x = prog.scalar("muls", x, scale)
    if bias is not None:
        buf, kind, period = bias
        if bias_scale != 1.0:
            raise Unsupported("gemm beta other than 1 with a bias")
        b = prog.input(kind, period)
        args.append(buf)
        x = prog.binary("add", x, b)
    if residual is not None:
        r = prog.input()
        args.append(residual)
        if bias is None and bias_scale != 1.0:      # a gemm's full-shape C, times beta
            r = prog.scalar("muls", r, bias_scale)
        x = prog.binary("add", x, r)
    prog.result = prog.activation(act, x, alpha)
    kb = elementwise_kernel(low.name("epilogue"), prog, shape, split if bias is not None else len(shape))
    low.launch(kb, [*args, low.result_buffer(out_value)])


# ----------------------------------------------------------------------------
# Matmul, conv
# ----------------------------------------------------------------------------


def _matmul_bt(low: Lowering, b: ir.Value, k: int, n: int, batch_b: int) -> Buffer:
    """Global memory holding B^T ([..., N, K]) for the cube kernel."""
    arr = _const(b)
    elem = _elem(b)
    if arr is not None:
        return low.const_buffer(np.swapaxes(arr, -1, -2), elem)
    p = defining_op(b)
    if p is not None and p.name == "ge.transpose":
        # B = transpose(X, perm), so B^T = transpose(X, perm with its last two
        # entries swapped): X itself, or a row-copy permutation of X.
        x = p.operands[0]
        bt_perm = _bt_perm(p)
        if bt_perm == list(range(len(bt_perm))):
            return low.buffer(x)
        if bt_perm[-1] == len(bt_perm) - 1:
            out = low.temp(elem, batch_b * k * n)
            kb = transpose_rows_kernel(low.name("transpose"), elem, _shape(x), bt_perm)
            low.launch(kb, [low.buffer(x), out])
            return out
    out = low.temp(elem, batch_b * k * n)
    kb = transpose2d_kernel(low.name("transpose"), elem, batch_b, k, n)
    low.launch(kb, [low.buffer(b), out])
    return out


def lower_matmul(low: Lowering, op: ir.Operation) -> None:
    a, b = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    out = op.results[0]
    a_shape, b_shape, o_shape = _shape(a), _shape(b), _shape(out)
    elem = _elem(out)
    alpha, beta = 1.0, 1.0
    if op.name == "ge.gemm":
        if attr_bool(op, "trans_a", False):
            raise Unsupported("gemm with trans_a")
        alpha = attr_float(op, "alpha", 1.0)
        beta = attr_float(op, "beta", 1.0)
        trans_b = attr_bool(op, "trans_b", False)
        m, k = a_shape
        n = b_shape[0] if trans_b else b_shape[1]
        batch, a_batched, b_batched = 1, False, False
        if trans_b:
            arr = _const(b)
            bt = low.const_buffer(arr, elem) if arr is not None else low.buffer(b)
        else:
            bt = _matmul_bt(low, b, k, n, 1)
    else:
        if len(a_shape) < 2 or len(b_shape) < 2:
            raise Unsupported("matmul of vectors")
        m, k = a_shape[-2:]
        n = b_shape[-1]
        a_batch, b_batch = a_shape[:-2], b_shape[:-2]
        out_batch = o_shape[:-2]
        batch = _numel(out_batch)
        a_batched = _numel(a_batch) > 1
        b_batched = _numel(b_batch) > 1
        if (a_batched and list(a_batch) != list(out_batch[len(out_batch) - len(a_batch):])) or \
                (b_batched and [1] * (len(out_batch) - len(b_batch)) + list(b_batch) != list(out_batch)):
            raise Unsupported("matmul batch broadcasting other than a shared B")
        if a_batched and _numel(a_batch) != batch:
            raise Unsupported("matmul batch broadcasting of A")
        if not a_batched and batch > 1:
            raise Unsupported("matmul with a shared A and a batched B")
        if not b_batched and a_batched:
            # A shared B: fold the batch into M (one bigger matmul).
            m, batch, a_batched = m * batch, 1, False
        bt = _matmul_bt(low, b, k, n, _numel(b_batch) if b_batched else 1)
    if elem not in ("f32", "f16"):
        raise Unsupported(f"{op.name} on {elem} (the cube kernel takes f32 or f16)")
    act = attr_enum(op, "activation", "none")
    needs_epilogue = bias is not None or act != "none" or alpha != 1.0
    acc = low.temp(elem, batch * m * n) if needs_epilogue else low.result_buffer(out)
    kb = matmul_kernel(low.name("matmul"), elem, batch, m, n, k, a_batched, b_batched)
    low.launch(kb, [low.buffer(a), bt, acc])
    if needs_epilogue:
        bias_op, residual = None, None
        if bias is not None:
            bshape = _shape(bias)
            rank = len(o_shape)
            full = [1] * (rank - len(bshape)) + bshape
            # A bias over the last axis first: at M = 1 it also has the output's shape.
            if all(d == 1 for d in full[:-1]) and full[-1] == o_shape[-1]:
                bias_op = (low.buffer(bias), "row", 0)
            elif full == o_shape:
                residual = low.buffer(bias)     # a full C operand: added like a residual
            else:
                raise Unsupported(f"bias of shape {bshape}")
        epilogue(low, acc, out, o_shape, len(o_shape) - 1, bias_op, residual, act,
                 attr_float(op, "activation_alpha", None), scale=alpha, bias_scale=beta)


def lower_conv2d(low: Lowering, op: ir.Operation) -> None:
    from ...irutils.ge_ops import conv_parts

    x, w, bias, residual = conv_parts(op)
    if attr_int(op, "groups", 1) != 1:
        lower_depthwise_conv2d(low, op)
        return
    warr = _const(w)
    if warr is None:
        raise Unsupported("conv2d with a non-constant filter")
    fmt = attr_enum(op, "data_format", "NCHW")
    if fmt not in ("NCHW", "NHWC"):
        raise Unsupported(f"conv2d in {fmt}")
    nchw = fmt == "NCHW"
    elem = _elem(op.results[0])
    xs, os_ = _shape(x), _shape(op.results[0])
    if nchw:
        n, c, h, wd = xs
        _, f, oh, ow = os_
    else:
        n, h, wd, c = xs
        _, oh, ow, f = os_
    _, _, kh, kw = warr.shape
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    strides = attr_ints(op, "strides", [1, 1])
    dil = attr_ints(op, "dilations", [1, 1])
    ckk = c * kh * kw
    col = low.temp(elem, n * oh * ow * ckk)
    kb = im2col_kernel(low.name("im2col"), elem, nchw, n, c, h, wd, kh, kw, oh, ow, strides, pads[:2], dil)
    low.launch(kb, [low.buffer(x), col])
    act = attr_enum(op, "activation", "none")
    needs_epilogue = bias is not None or residual is not None or act != "none"
    acc = low.temp(elem, _numel(os_)) if needs_epilogue else low.result_buffer(op.results[0])
    if elem not in ("f32", "f16"):
        raise Unsupported(f"conv2d on {elem} (the cube kernel takes f32 or f16)")
    if nchw:
        # out[b] (F x P) = W (F x CKK) x col[b]^T, col[b] being P x CKK = B^T.
        wbuf = low.const_buffer(warr.reshape(f, ckk), elem)
        kb = matmul_kernel(low.name("matmul"), elem, n, f, oh * ow, ckk, False, True)
        low.launch(kb, [wbuf, col, acc])
    else:
        # out (N*P x F) = col (N*P x CKK, (kh, kw, c) order) x W'^T, W' = F x (kh, kw, c).
        wbuf = low.const_buffer(warr.transpose(0, 2, 3, 1).reshape(f, ckk), elem)
        kb = matmul_kernel(low.name("matmul"), elem, 1, n * oh * ow, f, ckk, False, False)
        low.launch(kb, [col, wbuf, acc])
    if needs_epilogue:
        bias_op = None
        if bias is not None:
            bias_op = (low.buffer(bias), "col", f) if nchw else (low.buffer(bias), "row", 0)
        res = low.buffer(residual) if residual is not None else None
        split = 2 if nchw else 3
        epilogue(low, acc, op.results[0], os_, split, bias_op, res, act, attr_float(op, "activation_alpha", None))


def lower_depthwise_conv2d(low: Lowering, op: ir.Operation) -> None:
    from ...irutils.ge_ops import conv_parts

    x, w, bias, residual = conv_parts(op)
    groups = attr_int(op, "groups", 1)
    warr = _const(w)
    if attr_enum(op, "data_format", "NCHW") != "NHWC":
        raise Unsupported("grouped conv2d outside NHWC (the ascendc pipeline computes convolutions in NHWC)")
    n, h, wd, c = _shape(x)
    _, oh, ow, f = _shape(op.results[0])
    if groups != c or f != c:
        raise Unsupported(f"grouped conv2d other than depthwise with one filter per channel (groups={groups}, "
                          f"{c} -> {f} channels)")
    if warr is None:
        raise Unsupported("depthwise conv2d with a non-constant filter")
    if residual is not None:
        raise Unsupported("depthwise conv2d with a fused residual")
    elem = _elem(op.results[0])
    _, _, kh, kw = warr.shape
    act = attr_enum(op, "activation", "none")
    prog = None
    if act != "none":
        prog = Program(elem)
        prog.result = prog.activation(act, prog.input(), attr_float(op, "activation_alpha", None))
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    kb = depthwise_nhwc_kernel(low.name("depthwise"), elem, n, h, wd, c, oh, ow, kh, kw,
                                 attr_ints(op, "strides", [1, 1]), pads[:2], attr_ints(op, "dilations", [1, 1]),
                                 bias is not None, prog)
    # Filter [C, 1, KH, KW] -> [KH, KW, C]: one channel vector per window position.
    wbuf = low.const_buffer(warr.reshape(c, kh * kw).T.copy(), elem)
    args = [low.buffer(x), wbuf] + ([low.buffer(bias)] if bias is not None else [])
    low.launch(kb, [*args, low.result_buffer(op.results[0])])


def lower_conv_transpose2d(low: Lowering, op: ir.Operation) -> None:
    """Kernel == stride, no padding: every input pixel writes its own KH x KW output block, so the
    transposed convolution is a matmul ``X (N*H*W x C) x W (C x KH*KW*F)`` whose rows are then
    scattered into the output blocks (a strided row copy), bias and activation on the way."""
    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    warr = _const(w)
    if warr is None:
        raise Unsupported("conv_transpose2d with a non-constant filter")
    if attr_enum(op, "data_format", "NCHW") != "NHWC":
        raise Unsupported("conv_transpose2d outside NHWC (the ascendc pipeline computes convolutions in NHWC)")
    cin, f, kh, kw = warr.shape
    strides = attr_ints(op, "strides", [1, 1])
    if attr_int(op, "groups", 1) != 1 or list(strides) != [kh, kw] or any(attr_ints(op, "pads", [0] * 4)) or \
            attr_ints(op, "dilations", [1, 1]) != [1, 1] or any(attr_ints(op, "output_padding", [0, 0])):
        raise Unsupported("conv_transpose2d other than kernel == stride without padding, dilation or groups "
                          "(non-overlapping output blocks)")
    n, h, wd, c = _shape(x)
    out_shape = _shape(op.results[0])
    elem = _elem(op.results[0])
    cols = kh * kw * f
    # Bt (KH*KW*F x C): row (ky, kx, f) holds W[:, f, ky, kx].
    bt = low.const_buffer(warr.transpose(2, 3, 1, 0).reshape(cols, cin).copy(), elem)
    acc = low.temp(elem, n * h * wd * cols)
    low.launch(matmul_kernel(low.name("matmul"), elem, 1, n * h * wd, cols, cin, False, False),
               [low.buffer(x), bt, acc])
    act = attr_enum(op, "activation", "none") if "activation" in op.attributes else "none"
    if bias is not None or act != "none":
        barr = _const(bias)
        if bias is not None and barr is None:
            raise Unsupported("conv_transpose2d with a non-constant bias")
        biased = low.temp(elem, n * h * wd * cols)
        bias_op = (low.const_buffer(np.tile(barr.reshape(-1), kh * kw), elem), "row", 0) if barr is not None else None
        prog = Program(elem)
        v = prog.input()
        if bias_op is not None:
            v = prog.binary("add", v, prog.input("row"))
        prog.result = prog.activation(act, v)
        kb = elementwise_kernel(low.name("epilogue"), prog, [n * h * wd, cols], 1 if bias_op else 2)
        low.launch(kb, [acc] + ([bias_op[0]] if bias_op else []) + [biased])
        acc = biased
    # out[b, y*KH + ky, x*KW + kx, :] = acc[(b, y, x), (ky, kx, :)]: rows over (b, y, ky, x, kx).
    _, oh, ow, _ = out_shape
    dims = [n, h, kh, wd, kw]
    src = [h * wd * cols, wd * cols, kw * f, cols, f]
    dst = [oh * ow * f, kh * ow * f, ow * f, kw * f, f]
    _launch_copy(low, "conv_transpose", elem, dims + [f], acc, src + [1], 0, low.result_buffer(op.results[0]),
                 dst + [1], 0)


def lower_batch_norm(low: Lowering, op: ir.Operation) -> None:
    stats = [_const(op.operands[i]) for i in range(1, 5)]
    if any(s is None for s in stats):
        raise Unsupported("batch_norm with non-constant statistics")
    scale, beta, mean, var = (s.reshape(-1).astype(np.float64) for s in stats)
    eps = attr_float(op, "epsilon", 1e-5)
    a = scale / np.sqrt(var + eps)
    b = beta - mean * a
    shape = _shape(op.results[0])
    elem = _elem(op.results[0])
    nchw = attr_enum(op, "data_format", "NCHW") == "NCHW"
    prog = Program(elem)
    x = prog.input()
    kind, split = ("col", 2) if nchw else ("row", len(shape) - 1)
    ar = prog.input(kind, len(a) if nchw else 0)
    br = prog.input(kind, len(b) if nchw else 0)
    prog.result = prog.binary("add", prog.binary("mul", x, ar), br)
    kb = elementwise_kernel(low.name("batch_norm"), prog, shape, split)
    low.launch(kb, [low.buffer(op.operands[0]), low.const_buffer(a, elem), low.const_buffer(b, elem),
                    low.result_buffer(op.results[0])])


def lower_softmax(low: Lowering, op: ir.Operation) -> None:
    shape = _shape(op.results[0])
    axis = attr_int(op, "axis", -1) % len(shape)
    if any(d != 1 for d in shape[axis + 1 :]):
        raise Unsupported("softmax over an axis other than the last")
    cols = shape[axis]
    kb = softmax_kernel(low.name("softmax"), _elem(op.results[0]), _numel(shape) // cols, cols)
    low.launch(kb, [low.buffer(op.operands[0]), low.result_buffer(op.results[0])])


def lower_layer_norm(low: Lowering, op: ir.Operation) -> None:
    shape = _shape(op.results[0])
    axis = attr_int(op, "axis", -1) % len(shape)
    cols = _numel(shape[axis:])
    x, scale = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 and op.name == "ge.layer_norm" else None
    for v in (scale, bias):
        if v is not None and _numel(_shape(v)) != cols:
            raise Unsupported("layer_norm scale/bias that broadcast within the normalized axes")
    rms = op.name == "ge.rms_norm"
    kb = layer_norm_kernel(low.name("rms_norm" if rms else "layer_norm"), _elem(x), _numel(shape) // cols, cols,
                             attr_float(op, "epsilon", 1e-6 if rms else 1e-5), True, bias is not None,
                             center=not rms)
    args = [low.buffer(x), low.buffer(scale)] + ([low.buffer(bias)] if bias is not None else [])
    low.launch(kb, [*args, low.result_buffer(op.results[0])])


def lower_transpose(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = _shape(x)
    perm = attr_ints(op, "perm", list(range(len(shape)))[::-1])
    rank = len(shape)
    elem = _elem(x)
    if perm[-1] == rank - 1:
        kb = transpose_rows_kernel(low.name("transpose"), elem, shape, perm)
    elif perm == list(range(rank - 2)) + [rank - 1, rank - 2]:
        kb = transpose2d_kernel(low.name("transpose"), elem, _numel(shape[:-2]), shape[-2], shape[-1])
    else:
        raise Unsupported(f"transpose with perm {perm}")
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


def lower_trans_data(low: Lowering, op: ir.Operation) -> None:
    src, dst = attr_enum(op, "src_format", "?"), attr_enum(op, "dst_format", "?")
    x = op.operands[0]
    shape = _shape(x)
    if (src, dst) == ("NCHW", "NHWC"):
        n, c, h, w = shape
        batch, rows, cols = n, c, h * w
    elif (src, dst) == ("NHWC", "NCHW"):
        n, h, w, c = shape
        batch, rows, cols = n, h * w, c
    else:
        raise Unsupported(f"trans_data {src} -> {dst}")
    kb = transpose2d_kernel(low.name("trans_data"), _elem(x), batch, rows, cols)
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


def lower_reduce(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = _shape(x)
    rank = len(shape)
    axes = sorted(a % rank for a in attr_ints(op, "axes", [])) or list(range(rank))
    kind = op.name.removeprefix("ge.reduce_")
    elem = _elem(x)
    if elem not in _ELEMS:
        raise Unsupported(f"{op.name} on {elem}")
    reduced = _numel([shape[a] for a in axes])
    scale = 1.0 / reduced if kind == "mean" else 1.0
    base = {"sum": "sum", "mean": "sum", "max": "max", "min": "min"}.get(kind)
    if base is None:
        raise Unsupported(f"{op.name}")
    if axes == list(range(rank - len(axes), rank)):
        kb = row_reduce_kernel(low.name("reduce"), elem, base, _numel(shape) // reduced, reduced, scale)
    elif axes == list(range(axes[0], axes[-1] + 1)) and axes[-1] < rank - 1:
        # Contiguous middle axes: rows of the trailing block, summed per leading index.
        kb = column_reduce_kernel(low.name("reduce"), elem, base, _numel(shape[: axes[0]]), reduced,
                                    _numel(shape[axes[-1] + 1 :]), scale)
    else:
        raise Unsupported(f"reduction over axes {axes}")
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


def lower_global_pool(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = _shape(x)
    kind = "sum" if op.name == "ge.global_avg_pool" else "max"
    elem = _elem(x)
    if elem not in _ELEMS:
        raise Unsupported(f"{op.name} on {elem}")
    if len(shape) < 3:
        raise Unsupported(f"{op.name} of a rank-{len(shape)} input (needs batch, channel and spatial axes)")
    # Any number of spatial axes (1-D, 2-D, 3-D pools): they are one reduced block.
    if attr_enum(op, "data_format", "NCHW") == "NHWC":
        n, c, spatial = shape[0], shape[-1], _numel(shape[1:-1])
        kb = column_reduce_kernel(low.name("global_pool"), elem, kind, n, spatial, c,
                                    1.0 / spatial if kind == "sum" else 1.0)
    else:
        n, c, spatial = shape[0], shape[1], _numel(shape[2:])
        kb = row_reduce_kernel(low.name("global_pool"), elem, kind, n * c, spatial,
                                 1.0 / spatial if kind == "sum" else 1.0)
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


def lower_pool(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    nchw = attr_enum(op, "data_format", "NCHW") != "NHWC"
    if attr_ints(op, "dilations", [1, 1]) != [1, 1]:
        raise Unsupported("dilated pooling")
    if attr_bool(op, "ceil_mode", False):
        raise Unsupported("ceil_mode pooling")
    elem = _elem(x)
    if nchw:
        # The window kernel combines channel vectors: pool an NCHW tensor in
        # NHWC between two through-UB transposes.
        n, c, h, w = _shape(x)
        _, _, oh, ow = _shape(op.results[0])
    else:
        n, h, w, c = _shape(x)
        _, oh, ow, _ = _shape(op.results[0])
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    kind = "max" if op.name == "ge.max_pool2d" else "avg"
    cip = attr_bool(op, "count_include_pad", False)
    kb = pool_nhwc_kernel(low.name("pool"), elem, kind, n, h, w, c, oh, ow,
                            attr_ints(op, "kernel_shape", [1, 1]), attr_ints(op, "strides", [1, 1]), pads[:2], cip)
    if not nchw:
        low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])
        return
    x_nhwc = low.temp(elem, n * h * w * c)
    y_nhwc = low.temp(elem, n * oh * ow * c)
    low.launch(transpose2d_kernel(low.name("trans_data"), elem, n, c, h * w), [low.buffer(x), x_nhwc])
    low.launch(kb, [x_nhwc, y_nhwc])
    low.launch(transpose2d_kernel(low.name("trans_data"), elem, n, oh * ow, c),
               [y_nhwc, low.result_buffer(op.results[0])])


#: Round mode per conversion the vector Cast documents for Atlas A2 (docs/ascendc.md), chosen for
#: ONNX Cast semantics: nearest-even into floats, toward zero into integers.
_CASTS = {("f32", "f16"): "rint", ("f16", "f32"): "none", ("i64", "f32"): "rint", ("i32", "f32"): "none",
          ("i64", "i32"): "none", ("i32", "i64"): "none", ("f32", "i32"): "trunc", ("f32", "i64"): "trunc",
          ("f32", "bf16"): "rint", ("bf16", "f32"): "none", ("ui8", "f16"): "none", ("i8", "f16"): "none",
          ("f16", "ui8"): "trunc", ("f16", "i8"): "trunc"}


def lower_cast(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    src, dst = _elem(x), _elem(op.results[0])
    n = _numel(_shape(x))
    mode = _CASTS.get((src, dst))
    if mode is None and (src, "f32") in _CASTS and ("f32", dst) in _CASTS and src in ("i64", "i32"):
        # Through f32 (e.g. int64 ids to f16): integers up to 2^24 are exact in f32, so only the
        # second cast rounds, and anything larger overflows f16 either way.
        mid = low.temp("f32", n)
        low.launch(cast_kernel(low.name("cast"), src, "f32", n, _CASTS[(src, "f32")]), [low.buffer(x), mid])
        low.launch(cast_kernel(low.name("cast"), "f32", dst, n, _CASTS[("f32", dst)]),
                   [mid, low.result_buffer(op.results[0])])
        return
    if mode is None:
        raise Unsupported(f"cast {src} -> {dst} (not a conversion the vector Cast documents)")
    kb = cast_kernel(low.name("cast"), src, dst, n, mode)
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


# ----------------------------------------------------------------------------
# Data movement: split, concat, slice, expand, gather
# ----------------------------------------------------------------------------


def _launch_copy(low: Lowering, family: str, elem: str, shape: list[int], src: Buffer, src_strides: list[int],
                 src_offset: int, dst: Buffer, dst_strides: list[int], dst_offset: int) -> None:
    dims, cols, ss, ds = coalesce(shape, src_strides, dst_strides)
    kb = copy_rows_kernel(low.name(family), elem, dims, cols, ss, src_offset, ds, dst_offset)
    low.launch(kb, [src, dst])


def lower_split(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = _shape(x)
    axis = attr_int(op, "axis", 0) % len(shape)
    strides = contiguous_strides(shape)
    start = 0
    for r in op.results:
        out_shape = _shape(r)
        if _numel(out_shape):
            _launch_copy(low, "split", _elem(x), out_shape, low.buffer(x), strides, start * strides[axis],
                         low.result_buffer(r), contiguous_strides(out_shape), 0)
        start += out_shape[axis]


def lower_concat(low: Lowering, op: ir.Operation) -> None:
    out = op.results[0]
    out_shape = _shape(out)
    axis = attr_int(op, "axis", 0) % len(out_shape)
    strides = contiguous_strides(out_shape)
    dst = low.result_buffer(out)
    start = 0
    for x in op.operands:
        shape = _shape(x)
        if _numel(shape):
            # Each input writes its own slab of the output (one launch each).
            _launch_copy(low, "concat", _elem(out), shape, low.buffer(x), contiguous_strides(shape), 0,
                         dst, strides, start * strides[axis])
        start += shape[axis]


def lower_slice(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape, out_shape = _shape(x), _shape(op.results[0])
    rank = len(shape)
    starts, ends = attr_ints(op, "starts", []), attr_ints(op, "ends", [])
    axes = [a % rank for a in attr_ints(op, "axes", [])] or list(range(len(starts)))
    steps = attr_ints(op, "steps", []) or [1] * len(axes)
    first, step = [0] * rank, [1] * rank
    for a, st, en, sp in zip(axes, starts, ends, steps):
        d = shape[a]
        # ONNX Slice clamping: the first index taken, per axis.
        st = st + d if st < 0 else st
        st = min(max(st, 0), d - 1) if sp < 0 else min(max(st, 0), d)
        first[a], step[a] = st, sp
    strides = contiguous_strides(shape)
    if not _numel(out_shape):
        return
    offset = sum(f * s for f, s in zip(first, strides))
    _launch_copy(low, "slice", _elem(x), out_shape, low.buffer(x), [s * p for s, p in zip(strides, step)], offset,
                 low.result_buffer(op.results[0]), contiguous_strides(out_shape), 0)


def lower_expand(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    out_shape = _shape(op.results[0])
    shape = [1] * (len(out_shape) - len(_shape(x))) + _shape(x)
    strides = [0 if d == 1 and o != 1 else s for d, o, s in zip(shape, out_shape, contiguous_strides(shape))]
    _launch_copy(low, "expand", _elem(x), out_shape, low.buffer(x), strides, 0, low.result_buffer(op.results[0]),
                 contiguous_strides(out_shape), 0)


def lower_tile(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = _shape(x)
    reps = attr_ints(op, "repeats", [1] * len(shape))
    # out[r_0, i_0, r_1, i_1, ...] = x[i_0, i_1, ...]: a copy over the interleaved axes.
    ishape, istrides, ostrides = [], [], []
    out_strides = contiguous_strides(_shape(op.results[0]))
    for d, r, s, o in zip(shape, reps, contiguous_strides(shape), out_strides):
        ishape += [r, d]
        istrides += [0, s]
        ostrides += [o * d, o]
    _launch_copy(low, "tile", _elem(x), ishape, low.buffer(x), istrides, 0, low.result_buffer(op.results[0]),
                 ostrides, 0)


def lower_gather(low: Lowering, op: ir.Operation) -> None:
    data, indices = op.operands[0], op.operands[1]
    shape, ishape = _shape(data), _shape(indices)
    axis = attr_int(op, "axis", 0) % len(shape)
    idx_elem = _elem(indices)
    outer, inner, nidx = _numel(shape[:axis]), _numel(shape[axis + 1 :]), _numel(ishape)
    if not _numel(_shape(op.results[0])):
        return
    kb = gather_kernel(low.name("gather"), _elem(data), idx_elem, outer, shape[axis], nidx, inner)
    low.launch(kb, [low.buffer(data), low.buffer(indices), low.result_buffer(op.results[0])])


def lower_where(low: Lowering, op: ir.Operation) -> None:
    cond, x, y = op.operands
    out_shape = _shape(op.results[0])
    elem = _elem(op.results[0])
    carr = None
    if constant_op(cond) is not None:
        try:   # i1 dense constants: numpy unpacks them to bool (constant_array reads numeric types)
            carr = np.array(ir.DenseElementsAttr(constant_op(cond).attributes["value"]))
            carr = np.broadcast_to(carr.reshape(-1)[:1], _shape(cond)) if carr.size == 1 else carr.reshape(
                _shape(cond))
        except (ValueError, TypeError):
            carr = None
    if carr is None:
        raise Unsupported("where with a run-time condition (only a compile-time mask, e.g. a causal mask)")
    scalars = []
    for v in (x, y):
        s = _scalar_constant(v)
        if s is None and _shape(v) != out_shape:
            raise Unsupported(f"where with a broadcast operand of shape {_shape(v)}")
        scalars.append(s)
    if _numel(out_shape) * elem_bytes(elem) > low.gm_bytes:  # before packing a mask that large
        raise Unsupported(f"an output of {_numel(out_shape) * elem_bytes(elem)} bytes is larger than the "
                          f"device memory ({low.gm_bytes} bytes)")
    # The condition broadcast to the output, one bit per element, LSB first (Select's mask layout).
    bits = np.packbits(np.broadcast_to(carr.astype(bool), out_shape).reshape(-1), bitorder="little")
    mask = Buffer("ui8", int(bits.size), "const", value=bits)
    kb = where_kernel(low.name("where"), elem, _numel(out_shape), scalars[0], scalars[1])
    args = [mask] + [low.buffer(v) for v, s in zip((x, y), scalars) if s is None]
    low.launch(kb, [*args, low.result_buffer(op.results[0])])


def lower_resize(low: Lowering, op: ir.Operation) -> None:
    """Separable: per resized axis, one gather per tap (compile-time source indices from the ONNX
    coordinate transform) and, for linear and cubic taps, one vector kernel summing the gathered
    tensors times their weights (a per-index weight: a "col" operand, or a "row" one on the last axis)."""
    from ...irutils.resize import resize_tables

    x = op.operands[0]
    in_shape, out_shape = _shape(x), _shape(op.results[0])
    elem = _elem(x)
    if elem not in _ELEMS:
        raise Unsupported(f"resize of {elem}")
    mode = attr_enum(op, "mode", "nearest")
    coord = attr_enum(op, "coordinate_transformation_mode", "half_pixel")
    if coord == "tf_crop_and_resize":
        raise Unsupported("tf_crop_and_resize (needs roi)")
    if "scales" in op.attributes:
        scales = [float(v) for v in ir.DenseF32ArrayAttr(op.attributes["scales"])]
    else:
        scales = [o / i for o, i in zip(out_shape, in_shape)]
    axes = [d for d in range(len(in_shape)) if out_shape[d] != in_shape[d] or not np.isclose(scales[d], 1.0)]
    cur, shape = low.buffer(x), list(in_shape)
    for n_axis, d in enumerate(axes):
        idx, w = resize_tables(in_shape[d], out_shape[d], scales[d], mode, coord,
                               attr_enum(op, "nearest_mode", "round_prefer_floor"),
                               attr_float(op, "cubic_coeff_a", -0.75))
        new_shape = shape[:d] + [out_shape[d]] + shape[d + 1 :]
        last = n_axis == len(axes) - 1
        out = low.result_buffer(op.results[0]) if last else low.temp(elem, _numel(new_shape))
        outer, inner = _numel(shape[:d]), _numel(shape[d + 1 :])
        taps = [j for j in range(w.shape[1]) if np.any(w[:, j] != 0)]
        if mode == "nearest" or (len(taps) == 1 and np.all(w[:, taps[0]] == 1)):
            # One tap with weight 1 per output index: a pure gather.
            pick = idx[np.arange(len(idx)), np.argmax(w, axis=1)]
            kb = gather_kernel(low.name("resize"), elem, "i32", outer, shape[d], out_shape[d], inner)
            low.launch(kb, [cur, Buffer("i32", len(pick), "const", value=pick.astype(np.int32)), out])
        else:
            gathered = []
            for j in taps:
                g = low.temp(elem, _numel(new_shape))
                kb = gather_kernel(low.name("resize"), elem, "i32", outer, shape[d], out_shape[d], inner)
                low.launch(kb, [cur, Buffer("i32", len(idx), "const", value=idx[:, j].astype(np.int32)), g])
                gathered.append(g)
            prog = Program(elem)
            on_last = d == len(new_shape) - 1
            acc = None
            for _ in taps:
                t = prog.binary("mul", prog.input(), prog.input("row" if on_last else "col",
                                                               0 if on_last else out_shape[d]))
                acc = t if acc is None else prog.binary("add", acc, t)
            prog.result = acc
            args = [b for g, j in zip(gathered, taps)
                    for b in (g, low.const_buffer(w[:, j].astype(np.float64), elem))]
            kb = elementwise_kernel(low.name("resize"), prog, new_shape, len(new_shape) - 1 if on_last else d + 1)
            low.launch(kb, [*args, out])
        cur, shape = out, new_shape
    if not axes:
        _launch_copy(low, "resize", elem, in_shape, cur, contiguous_strides(in_shape), 0,
                     low.result_buffer(op.results[0]), contiguous_strides(in_shape), 0)


def lower_pad(low: Lowering, op: ir.Operation) -> None:
    """Constant padding: the output filled with the value, then the input copied into its interior
    (negative pads crop)."""
    if attr_enum(op, "mode", "constant") != "constant":
        raise Unsupported(f"pad mode {attr_enum(op, 'mode', 'constant')} (constant padding is lowered)")
    x = op.operands[0]
    shape, out_shape = _shape(x), _shape(op.results[0])
    elem = _elem(x)
    if elem not in _ELEMS:
        raise Unsupported(f"pad of {elem}")
    rank = len(shape)
    pads = attr_ints(op, "pads", [0] * (2 * rank))
    begin, end = pads[:rank], pads[rank:]
    out = low.result_buffer(op.results[0])
    low.launch(fill_kernel(low.name("pad"), elem, _numel(out_shape), attr_float(op, "value", 0.0)), [out])
    copy = [d + min(b, 0) + min(e, 0) for d, b, e in zip(shape, begin, end)]
    if _numel(copy) <= 0 or any(c <= 0 for c in copy):
        return
    in_strides, out_strides = contiguous_strides(shape), contiguous_strides(out_shape)
    src = sum(max(-b, 0) * s for b, s in zip(begin, in_strides))
    dst = sum(max(b, 0) * s for b, s in zip(begin, out_strides))
    _launch_copy(low, "pad", elem, copy, low.buffer(x), in_strides, src, out, out_strides, dst)


_LOWERINGS = {
    "ge.resize": lower_resize,
    "ge.pad": lower_pad,
    "ge.where": lower_where,
    "ge.conv_transpose2d": lower_conv_transpose2d,
    "ge.split": lower_split,
    "ge.concat": lower_concat,
    "ge.slice": lower_slice,
    "ge.expand": lower_expand,
    "ge.tile": lower_tile,
    "ge.gather": lower_gather,
    "ge.trans_data": lower_trans_data,
    "ge.reduce_sum": lower_reduce,
    "ge.reduce_mean": lower_reduce,
    "ge.reduce_max": lower_reduce,
    "ge.reduce_min": lower_reduce,
    "ge.global_avg_pool": lower_global_pool,
    "ge.global_max_pool": lower_global_pool,
    "ge.max_pool2d": lower_pool,
    "ge.avg_pool2d": lower_pool,
    "ge.cast": lower_cast,
    "ge.matmul": lower_matmul,
    "ge.gemm": lower_matmul,
    "ge.conv2d": lower_conv2d,
    "ge.batch_norm": lower_batch_norm,
    "ge.softmax": lower_softmax,
    "ge.layer_norm": lower_layer_norm,
    "ge.rms_norm": lower_layer_norm,
    "ge.transpose": lower_transpose,
}


# ----------------------------------------------------------------------------
# The pass
# ----------------------------------------------------------------------------


def _bt_perm(transpose: ir.Operation) -> list[int]:
    perm = attr_ints(transpose, "perm", [])
    return perm[:-2] + [perm[-1], perm[-2]]


def _only_feeds_bt(op: ir.Operation) -> bool:
    """A transpose read by matmuls only as their B, whose B^T is cheap to make
    from the transpose's input (see :func:`_matmul_bt`): no kernel of its own."""
    if op.name != "ge.transpose" or len(attr_ints(op, "perm", [])) < 2:
        return False
    if _bt_perm(op)[-1] != len(_bt_perm(op)) - 1:
        return False
    users = _uses(op.results[0])
    return bool(users) and all(u.name == "ge.matmul" and u.operands[1] == op.results[0]
                               and u.operands[0] != op.results[0] for u in users)


def _is_alias(op: ir.Operation | None) -> bool:
    """Ops whose result is their input's global memory (no kernel)."""
    if op is None:
        return False
    return op.name in _ALIASES or (op.name == "ge.cast" and op.operands[0].type == op.results[0].type)


def lower_function(fn: ir.Operation, gm_bytes: int = 64 << 30) -> Lowering:
    """The kernels and launches of ``fn`` (kernels built in the current context and location)."""
    block = fn.regions[0].blocks[0]
    low = Lowering(fn, gm_bytes=gm_bytes)
    ops = [op.operation for op in block.operations]
    ret = ops[-1]
    args = list(block.arguments)
    for v in args + list(ret.operands):
        try:
            t = ir.RankedTensorType(v.type)
        except (ValueError, TypeError):
            t = None
        if t is None or not t.has_static_shape:
            raise PassFailure(f"the ascendc target needs static shapes; the function has a {v.type} "
                              "argument or result (fix the input shapes at import)", at=fn)
        if str(t.element_type) not in ELEM_TYPES:
            raise PassFailure(f"the ascendc target has no {t.element_type} tensors", at=fn)
    n_in = len(args)
    for i, a in enumerate(args):
        low.buffers[a] = Buffer(_elem(a), _numel(_shape(a)), "arg", index=i)
    # Returned values are written straight into the output arguments when
    # their producer is a kernel (aliases resolve to their root).
    low.outputs = [Buffer(_elem(v), _numel(_shape(v)), "arg", index=n_in + j)
                   for j, v in enumerate(ret.operands)]

    def root(v: ir.Value) -> ir.Value:
        while _is_alias(defining_op(v)):
            v = defining_op(v).operands[0]
        return v

    written: set[ir.Value] = set()
    copies: list[tuple[ir.Value, Buffer]] = []
    for v, out in zip(ret.operands, low.outputs):
        r = root(v)
        p = defining_op(r)
        if p is None or p.name == "ge.constant" or r in written:
            copies.append((v, out))
            continue
        written.add(r)
        low.buffers[r] = out
    for op in ops[:-1]:
        name = op.name
        try:
            if name == "ge.constant":
                continue
            if _is_alias(op):
                low.buffers[op.results[0]] = low.buffer(op.operands[0])
                continue
            if _only_feeds_bt(op):
                continue
            # The kernels' ops are located at the ge op they implement.
            with op.location:
                if _is_elementwise(op):
                    if not _fused_into_user(op):
                        lower_elementwise_chain(low, op)
                    continue
                fn_ = _LOWERINGS.get(name)
                if fn_ is None:
                    raise Unsupported("no ascendc lowering for this op")
                fn_(low, op)
        except Unsupported as e:
            refused = getattr(e, "op", None)
            if refused is not None and refused != op:
                # A fused chain: name the member that was refused, located at it.
                raise PassFailure(f"cannot lower '{refused.name}' to ascendc: {e} (fused into the elementwise "
                                  f"chain ending at '{name}')", at=refused) from None
            raise PassFailure(f"cannot lower '{name}' to ascendc: {e}", at=op) from None
    for v, out in copies:
        prog = Program(_elem(v))
        prog.result = prog.input()
        kb = elementwise_kernel(low.name("copy"), prog, _shape(v), len(_shape(v)))
        low.launch(kb, [low.buffer(v), out])
    return low


def build_host(low: Lowering, module_block: ir.Block, name: str, loc: ir.Location) -> None:
    from ...dialects import ascendc

    fn = low.fn
    block = fn.regions[0].blocks[0]
    args = list(block.arguments)
    outputs = low.outputs
    arg_bufs = [low.buffers[a] for a in args] + outputs
    nbytes = [b.numel * elem_bytes(b.elem) for b in arg_bufs]
    ret = block.operations[len(block.operations) - 1].operation
    values = list(args) + list(ret.operands)
    ins, outs = io_names(fn, identifiers=True)
    names = ins + outs
    with ir.InsertionPoint(module_block), loc:
        host = ascendc.HostOp(name, len(args), nbytes)
        body = host.body.blocks.append(*[gm_t(b.elem) for b in arg_bufs])
        # Names and shapes for the emitted graph manifest (graph.json) and host code.
        host.operation.attributes["arg_names"] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])
        host.operation.attributes["arg_shapes"] = ir.ArrayAttr.get(
            [ir.DenseI64ArrayAttr.get(_shape(v)) for v in values])
    for i, b in enumerate(arg_bufs):
        b.ssa = body.arguments[i]
    with ir.InsertionPoint(body), loc:
        for launch in low.launches:
            values = []
            for b in launch.args:
                if b.ssa is None:
                    if b.kind == "temp":
                        b.ssa = ascendc.GmAllocOp(gm_t(b.elem), b.numel * elem_bytes(b.elem)).result
                    else:
                        value = b.value
                        if isinstance(value, np.ndarray):
                            value = ir.DenseElementsAttr.get(value.reshape(-1), type=ir.RankedTensorType.get(
                                [value.size], elem_type(b.elem)))
                        b.ssa = ascendc.GmConstantOp(gm_t(b.elem), value).result
                values.append(b.ssa)
            ascendc.LaunchOp(ir.FlatSymbolRefAttr.get(launch.kernel), values)


def share_identical_kernels(low: Lowering) -> tuple[list[ir.Operation], int]:
    """The kernels to keep, and how many were dropped: a kernel identical to an earlier one but for
    its name (same template, shapes, tiling: a transformer's repeated layers, a CNN's repeated
    blocks) is not emitted again; its launches use the earlier one, with the same tiling struct.
    Each kept kernel is one source file and one compile fewer for the project."""
    first: dict[str, str] = {}
    rename: dict[str, str] = {}
    keep = []
    for kop in low.kernels:
        name = ir.StringAttr(kop.attributes["sym_name"]).value
        key = str(kop).replace(f"@{name} ", "@_ ", 1)
        if key in first:
            rename[name] = first[key]
            kop.erase()
        else:
            first[key] = name
            keep.append(kop)
    for launch in low.launches:
        launch.kernel = rename.get(launch.kernel, launch.kernel)
    low.kernels = keep
    return keep, len(rename)


_ALIGN = {"UB": 32, "L1": 32, "L0A": 512, "L0B": 512, "L0C": 64, "BT": 64}


def _walk_ops(op: ir.Operation):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                yield child
                yield from _walk_ops(child)


def kernel_summaries(module: ir.Module) -> list[dict[str, object]]:
    """Per ``ascendc.kernel``: name, kind, blocks, the on-chip bytes its queues and buffers
    take per memory (the kernel verifier's accounting), how many times the host launches it, and
    the cost model's estimate of one launch (:func:`.cost.estimate`: a roofline model, not a
    measurement)."""
    from .cost import estimate

    soc = None
    if "ascendc.target" in module.operation.attributes:
        soc = TargetAttr(module.operation.attributes["ascendc.target"]).soc
    launches: dict[str, int] = {}
    for op in module.body.operations:
        if op.operation.name == "ascendc.host":
            for o in _walk_ops(op.operation):
                if o.name == "ascendc.launch":
                    k = ir.FlatSymbolRefAttr(o.attributes["kernel"]).value
                    launches[k] = launches.get(k, 0) + 1
    out = []
    for op in module.body.operations:
        op = op.operation
        if op.name != "ascendc.kernel":
            continue
        usage: dict[str, int] = {}
        for o in _walk_ops(op):
            if o.name in ("ascendc.queue", "ascendc.tbuf"):
                t = o.results[0].type
                pos = QueueType(t).position if QueueType.isinstance(t) else TBufType(t).position
                mem = position_memory(pos)
                nbytes = ir.IntegerAttr(o.attributes["bytes"]).value
                num = ir.IntegerAttr(o.attributes["num"]).value if "num" in o.attributes else 1
                usage[mem] = usage.get(mem, 0) + num * align_up(nbytes, _ALIGN[mem])
        kind = str(KernelKindAttr(op.attributes["kind"]).value)
        blocks = ir.IntegerAttr(op.attributes["block_dim"]).value
        work = {}
        if "work" in op.attributes:
            work = {a.name: ir.IntegerAttr(a.attr).value for a in ir.DictAttr(op.attributes["work"])}
        name = ir.StringAttr(op.attributes["sym_name"]).value
        out.append({"name": name, "kind": kind, "blocks": blocks, "bytes": usage, "launches": launches.get(name, 0),
                    "estimate": estimate(work, blocks, soc)})
    return out


@register_pass
class GeLowerToAscendCPass(Pass):
    name = "ge-lower-to-ascendc"
    summary = "Lower a ge graph to ascendc kernels (vector and cube) and a host program that launches them"
    description = __doc__
    stage = "lowering"
    targets = ("ascendc",)
    options = (
        Option("host-name", str, "graph", "symbol of the generated ascendc.host"),
        Option("soc", str, "", "target SoC (Ascend910B1, Ascend310P3); empty: the module's "
               "ascendc.target, else Ascend910B1"),
    )

    def run(self, module: ir.Operation) -> None:
        mblock = module.regions[0].blocks[0]
        fns = [op.operation for op in mblock.operations if op.operation.name == "func.func"]
        if len(fns) != 1:
            raise PassFailure(f"the ascendc target compiles one function per module, found {len(fns)}", at=module)
        fn = fns[0]
        regions = [op for op in fn.regions[0].blocks[0].operations if len(op.operation.regions)]
        if regions:
            raise PassFailure(f"'{regions[0].operation.name}' (ONNX If/Loop): the ascendc target compiles "
                              "straight-line graphs only; control flow is not supported", at=regions[0].operation)
        from .targets import DEFAULT_SOC, SOCS, UB_HEADROOM, target_attr

        soc = self.opt("soc")
        if soc and soc not in SOCS:
            raise PassFailure(f"unknown soc '{soc}' (known: {', '.join(SOCS)})", at=module)
        if soc or "ascendc.target" not in module.attributes:
            module.attributes["ascendc.target"] = target_attr(soc or DEFAULT_SOC)
        target = TargetAttr(module.attributes["ascendc.target"])
        # Vector kernels run on the AIV cores, cube kernels on the AIC cores (a SoC without separate
        # vector cores runs both on its AI cores).
        vector_cores = target.aiv or target.aic
        with module.context, fn.location, ub_budget(target.ub - UB_HEADROOM), cores(vector_cores, target.aic):
            low = lower_function(fn, int(SOCS.get(target.soc, SOCS[DEFAULT_SOC])["gm_bytes"]))
            kernels = low.kernels
            # A template bug is an internal error naming the kernel here, as when the
            # kernels were text to parse. Like then, the scratch module has no
            # ascendc.target (default sizes); the pass manager verifies them in place.
            scratch = ir.Module.create()
            for kop in kernels:
                scratch.body.append(kop)
            try:
                scratch.operation.verify()
            except ir.MLIRError as e:
                raise PassFailure(f"internal error: generated ascendc IR does not verify: {e}", at=fn) from None
        kernels, shared = share_identical_kernels(low)
        for kop in kernels:
            kop.move_before(fn)
        build_host(low, mblock, self.opt("host-name"), fn.location)
        fn.erase()
        self.bump("kernels", len(kernels))
        self.bump("shared-kernels", shared)
        self.bump("rewrites", len(kernels))
