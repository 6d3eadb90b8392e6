"""Random VALID ONNX graphs, reproducible from ``(seed, index)``.

A graph is grown as a random DAG: a pool of typed values (graph inputs,
constants, node outputs) starts with one to three inputs; each step picks an op
family, draws operands from the pool (preferring recent, unconsumed values) or
makes fresh inputs/constants with compatible shapes, draws attributes, and asks
ONNX shape inference (strict, on a one-node model) for the result type. A node
whose inference fails or whose result is not fully static is dropped and
another one is drawn, so the generator never has to re-implement shape rules.

A finished model must pass ``onnx.checker.check_model(full_check=True)`` and
load in onnxruntime; otherwise the case is drawn again with the next attempt
number. Everything random comes from ``random.Random(f"ge-fuzz:{seed}:{index}:
{attempt}")`` (string seeds hash with SHA-512: stable across processes and
Python runs) and a numpy generator seeded from it for the input data.

Numerically fragile spots are guarded so that comparisons with onnxruntime are
meaningful: ``Log``/``Sqrt``/``Reciprocal``/``Div``/``Pow`` bases get
``Add(Abs(x), 0.5)``, ``Exp`` gets ``Tanh(x)``, comparisons compare against
fresh independent data, integer ``Div`` divides by positive constants.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

FLOATS = ("float32", "float16")
#: Elements of any tensor of a generated graph, at most (small graphs find the
#: bugs; big ones only cost memory and time, in the oracle too).
MAX_ELEMENTS = 1 << 18
INTS = ("int64", "int32")
OPSETS = (17, 18, 20)


class Reject(Exception):
    """The current draw cannot be completed (caller draws again)."""


@dataclass
class Val:
    name: str
    dtype: str  # numpy dtype name
    shape: tuple[int, ...]
    const: bool = False
    #: how to draw input data: "normal", ("int", lo, hi) or "bool"
    feed: object = "normal"

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


@dataclass
class Case:
    """One fuzz case: a model and the inputs to run it on."""

    seed: int
    index: int
    kind: str  # "valid" or "invalid"
    model_bytes: bytes
    feeds: dict[str, np.ndarray]
    description: str
    #: invalid cases whose inputs cannot be materialized (huge dims): compile only
    compile_only: bool = False
    ops: list[str] = field(default_factory=list)

    def model(self) -> onnx.ModelProto:
        return onnx.load_from_string(self.model_bytes)


def onnx_type(dtype: str) -> int:
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def random_feed(rng: np.random.Generator, dtype: str, shape, feed: object = "normal") -> np.ndarray:
    dt = np.dtype(dtype)
    if dt == np.bool_ or feed == "bool":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if isinstance(feed, tuple) and feed[0] == "int":
        return rng.integers(feed[1], feed[2], shape).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-4, 6, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


class Builder:
    def __init__(self, rng: random.Random, opset: int, max_nodes: int, profile: str = "cpu") -> None:
        self.rng = rng
        self.profile = profile
        self.opset = opset
        self.max_nodes = max_nodes
        self.nodes: list[onnx.NodeProto] = []
        self.inputs: list[Val] = []
        self.inits: list[TensorProto] = []
        self.const_values: dict[str, TensorProto] = {}
        self.pool: dict[str, Val] = {}
        self.uses: dict[str, int] = {}
        self.order: list[str] = []
        self.n = 0
        self.allow_zero = rng.random() < 0.15
        r = rng.random()
        self.main_dtype = "float32" if r < 0.72 else "float16" if r < 0.88 else rng.choice(INTS)
        if profile == "ascendc":  # float graphs, no zero-size dims: what the Ascend C lowering takes
            self.allow_zero = False
            self.main_dtype = "float32" if r < 0.8 else "float16"

    # -- names, shapes, values -------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def dim(self) -> int:
        if self.allow_zero and self.rng.random() < 0.08:
            return 0
        return self.rng.choice((1, 1, 2, 3, 4, 5, 6))

    def shape(self, lo: int = 0, hi: int = 4) -> tuple[int, ...]:
        rank = self.rng.choice([r for r in (0, 1, 2, 2, 3, 3, 4) if lo <= r <= hi] or [lo])
        return tuple(self.dim() for _ in range(rank))

    def bcast_partner(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        """A shape that broadcasts with ``shape`` (size-1 dims, fewer or more axes)."""
        rng = self.rng
        out = [d if rng.random() < 0.6 else 1 for d in shape]
        if out and rng.random() < 0.3:
            out = out[rng.randint(1, len(out)):]
        if len(out) < 4 and rng.random() < 0.15:
            out = [rng.choice((1, 2))] + out
        return tuple(out)

    def new_input(self, dtype: str, shape, feed: object = "normal") -> Val:
        v = Val(self.fresh("in"), dtype, tuple(shape), feed=feed)
        self.inputs.append(v)
        self._add(v)
        return v

    def const(self, arr: np.ndarray, prefix: str = "c") -> Val:
        name = self.fresh(prefix)
        t = numpy_helper.from_array(np.asarray(arr), name)
        self.const_values[name] = t
        if self.rng.random() < 0.15:
            self.nodes.append(helper.make_node("Constant", [], [name], value=t, name=self.fresh("Constant_")))
        else:
            self.inits.append(t)
        v = Val(name, str(np.asarray(arr).dtype), tuple(np.shape(arr)), const=True)
        self._add(v)
        return v

    def data(self, dtype: str, shape, feed: object = "normal") -> Val:
        """Fresh independent data of a type: a graph input or a constant
        (always a constant in the ascendc profile: weights must be known there)."""
        if self.rng.random() < 0.5 and self.profile != "ascendc":
            return self.new_input(dtype, shape, feed)
        npr = np.random.default_rng(self.rng.getrandbits(32))
        return self.const(random_feed(npr, dtype, shape, feed))

    def ints(self, values, dtype="int64") -> Val:
        return self.const(np.asarray(values, dtype=dtype), "k")

    def _add(self, v: Val) -> None:
        self.pool[v.name] = v
        self.uses.setdefault(v.name, 0)
        self.order.append(v.name)

    def pick(self, pred: Callable[[Val], bool], allow_const: bool = False) -> Val | None:
        cands = [self.pool[n] for n in self.order
                 if pred(self.pool[n]) and (allow_const or not self.pool[n].const)]
        if not cands:
            return None
        # prefer unconsumed and recent values: deeper graphs, fewer dead ends
        weights = [(3.0 if self.uses[v.name] == 0 else 1.0) * (1 + i / len(cands)) for i, v in enumerate(cands)]
        return self.rng.choices(cands, weights)[0]

    def operand(self, pred: Callable[[Val], bool], dtype: str, shape_fn: Callable[[], tuple]) -> Val:
        v = self.pick(pred) if self.rng.random() < 0.85 else None
        return v if v is not None else self.new_input(dtype, shape_fn())

    # -- nodes -----------------------------------------------------------------
    def node(self, op: str, ins: list[Val | str], n_out: int = 1, **attrs) -> list[Val]:
        names = [i if isinstance(i, str) else i.name for i in ins]
        outs = [self.fresh(op.lower() + "_") for _ in range(n_out)]
        node = helper.make_node(op, names, outs, name=self.fresh(op + "_"), **attrs)
        types = self.infer(node)
        vals = []
        for o in outs:
            dtype, shape = types[o]
            if int(np.prod(shape, dtype=np.float64)) > MAX_ELEMENTS:
                # The fuzzer's own process validates models with onnxruntime: an
                # Expand/MatMul chain growing tensors once took it to 24 GiB.
                raise Reject(f"{op}: result of {shape} exceeds {MAX_ELEMENTS} elements")
            vals.append(Val(o, dtype, shape))
        # only a node that inferred fully is added
        self.nodes.append(node)
        for n in names:
            if n:
                self.uses[n] = self.uses.get(n, 0) + 1
        for v in vals:
            self._add(v)
        return vals

    def infer(self, node: onnx.NodeProto) -> dict[str, tuple[str, tuple[int, ...]]]:
        inputs, inits = [], []
        for n in node.input:
            if not n:
                continue
            if n in self.const_values:
                inits.append(self.const_values[n])
            else:
                v = self.pool[n]
                inputs.append(helper.make_tensor_value_info(n, onnx_type(v.dtype), list(v.shape)))
        outs = [helper.make_value_info(o, onnx.TypeProto()) for o in node.output]
        g = helper.make_graph([node], "infer", inputs, outs, inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", self.opset)])
        try:
            m = shape_inference.infer_shapes(m, strict_mode=True, data_prop=True)
        except Exception as e:  # inference refused the draw
            raise Reject(f"{node.op_type}: {e}") from None
        types = {}
        for vi in m.graph.output:
            tt = vi.type.tensor_type
            if not tt.elem_type or not tt.HasField("shape"):
                raise Reject(f"{node.op_type}: no inferred type")
            dims = []
            for d in tt.shape.dim:
                if not d.HasField("dim_value") or d.dim_value < 0:
                    raise Reject(f"{node.op_type}: dynamic or negative dim")
                dims.append(d.dim_value)
            types[vi.name] = (str(helper.tensor_dtype_to_np_dtype(tt.elem_type)), tuple(dims))
        return types

    # -- guards ----------------------------------------------------------------
    def positive(self, v: Val) -> Val:
        a = self.node("Abs", [v])[0]
        return self.node("Add", [a, self.const(np.array(0.5, dtype=v.dtype))])[0]


def is_float(v: Val) -> bool:
    return v.dtype in FLOATS


def is_int(v: Val) -> bool:
    return v.dtype in INTS


def is_num(v: Val) -> bool:
    return v.dtype in FLOATS + INTS


# ---------------------------------------------------------------------------
# op families: each draws one (or a few) nodes, or raises Reject
# ---------------------------------------------------------------------------

UNARY_FREE = ["Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Floor", "Ceil", "Erf", "Sin", "Cos", "Softsign",
              "Softplus", "Identity", "Sign", "HardSwish", "Round"]
ASCENDC_UNARY = ["Relu", "Exp", "Abs", "Neg", "Sigmoid", "Tanh", "HardSwish"]
UNARY_ATTR = {"Elu": ("alpha", (0.5, 1.0, 2.0)), "LeakyRelu": ("alpha", (0.01, 0.2)),
              "HardSigmoid": ("alpha", (0.2, 0.5)), "Selu": ("gamma", (1.0507, 2.0)),
              "Celu": ("alpha", (1.0, 0.5))}


def g_unary(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: is_float(v), b.main_dtype if b.main_dtype in FLOATS else "float32", b.shape)
    r = rng.random()
    if b.profile == "ascendc" and r < 0.7:
        b.node(rng.choice(ASCENDC_UNARY), [x])
        return
    if r < 0.5:
        op = rng.choice(UNARY_FREE + (["Gelu"] if b.opset >= 20 else []))
        attrs = {}
        if op == "Gelu" and rng.random() < 0.5:
            attrs["approximate"] = "tanh"
        b.node(op, [x], **attrs)
    elif r < 0.7:
        op = rng.choice(sorted(UNARY_ATTR))
        if op == "Celu" and x.dtype != "float32":
            raise Reject("Celu is float32 only")
        name, choices = UNARY_ATTR[op]
        b.node(op, [x], **{name: rng.choice(choices)})
    elif r < 0.9:
        op = rng.choice(["Log", "Sqrt", "Reciprocal"])
        b.node(op, [b.positive(x)])
    else:
        b.node("Exp", [b.node("Tanh", [x])[0]])


def g_int_unary(b: Builder) -> None:
    x = b.operand(is_int, b.rng.choice(INTS), b.shape)
    b.node(b.rng.choice(["Abs", "Neg", "Sign", "Identity"]), [x])


def _second(b: Builder, x: Val, fresh: bool = False) -> Val:
    """A second operand broadcasting with x, same dtype."""
    if not fresh and b.rng.random() < 0.4:
        y = b.pick(lambda v: v.dtype == x.dtype and v.name != x.name and _bcast_ok(v.shape, x.shape))
        if y is not None:
            return y
    return b.data(x.dtype, b.bcast_partner(x.shape))


def _bcast_ok(a, b_) -> bool:
    for p, q in zip(reversed(a), reversed(b_)):
        if p != q and p != 1 and q != 1:
            return False
    return True


def g_binary(b: Builder) -> None:
    rng = b.rng
    x = b.operand(is_num, b.main_dtype, b.shape)
    floaty = is_float(x)
    op = rng.choice(["Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "Sum", "Mean"]
                    if floaty and b.profile != "ascendc" else ["Add", "Sub", "Mul", "Div", "Max", "Min"])
    if op == "Div":
        if floaty:
            y = b.positive(_second(b, x))
            if rng.random() < 0.5:
                y = b.node("Neg", [y])[0] if rng.random() < 0.3 else y
        else:
            npr = np.random.default_rng(rng.getrandbits(32))
            y = b.const(npr.integers(1, 5, b.bcast_partner(x.shape)).astype(x.dtype))
        ins = [x, y]
    elif op == "Pow":
        base = b.positive(x)
        if rng.random() < 0.5:
            y = b.const(np.array(rng.choice((2.0, 0.5, 3.0, -1.0)), dtype=x.dtype))
        else:
            y = b.node("Tanh", [_second(b, x)])[0]
        ins = [base, y]
    elif op in ("Sum", "Mean", "Max", "Min"):
        ins = [x] + [_second(b, x) for _ in range(rng.choice((1, 1, 2)))]
    else:
        ins = [x, _second(b, x)]
    if rng.random() < 0.5:
        ins = ins[::-1] if op not in ("Div", "Pow") else ins
    b.node(op, ins)


def g_compare(b: Builder) -> None:
    rng = b.rng
    x = b.operand(is_num, b.main_dtype, b.shape)
    op = rng.choice(["Less", "Greater", "LessOrEqual", "GreaterOrEqual"] + (["Equal"] if is_int(x) else []))
    y = _second(b, x, fresh=True)
    ins = [x, y] if rng.random() < 0.5 else [y, x]
    c = b.node(op, ins)[0]
    r = rng.random()
    if r < 0.35:
        other = b.pick(lambda v: v.dtype == "bool" and v.name != c.name and _bcast_ok(v.shape, c.shape),
                       allow_const=False)
        if other is None:
            other = b.data("bool", b.bcast_partner(c.shape), "bool")
        b.node(rng.choice(["And", "Or", "Xor"]), [c, other])
    elif r < 0.5:
        b.node("Not", [c])


def g_where(b: Builder) -> None:
    c = b.pick(lambda v: v.dtype == "bool")
    if c is None:
        c = b.new_input("bool", b.shape(), "bool")
    x = b.pick(lambda v: is_num(v) and _bcast_ok(v.shape, c.shape))
    if x is None:
        x = b.data(b.main_dtype, b.bcast_partner(c.shape))
    y = _second(b, x)
    b.node("Where", [c, x, y])


def g_cast(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: True, b.main_dtype, b.shape)
    choices = ["float32", "float16", "int64", "int32", "bool"]
    to = rng.choice([c for c in choices if c != x.dtype])
    if x.dtype in FLOATS and to in INTS + ("bool",):
        # float -> int/bool: keep away from rounding edges and out-of-range values
        x = b.node("Floor", [x])[0]
    b.node("Cast", [x], to=onnx_type(to))


def g_matmul(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: is_float(v) and 1 <= len(v.shape) <= 4,
                  b.main_dtype if b.main_dtype in FLOATS else "float32", lambda: b.shape(1, 4))
    k = x.shape[-1]
    n = b.dim() if rng.random() < 0.9 else 1
    if len(x.shape) == 1 or rng.random() < 0.6:
        wshape: tuple = (k, n) if rng.random() < 0.85 else (k,)
    else:
        batch = b.bcast_partner(x.shape[:-2]) if rng.random() < 0.5 else ()
        wshape = tuple(batch) + (k, n)
    w = b.data(x.dtype, wshape)
    b.node("MatMul", [x, w])


def g_gemm(b: Builder) -> None:
    rng = b.rng
    a = b.operand(lambda v: is_float(v) and len(v.shape) == 2, b.main_dtype if b.main_dtype in FLOATS else "float32",
                  lambda: (b.dim(), b.dim()))
    ta, tb = rng.random() < (0.3 if b.profile != "ascendc" else 0.0), rng.random() < 0.4
    m, k = (a.shape[1], a.shape[0]) if ta else a.shape
    n = b.dim()
    bm = b.data(a.dtype, (n, k) if tb else (k, n))
    ins = [a, bm]
    attrs = {}
    if ta:
        attrs["transA"] = 1
    if tb:
        attrs["transB"] = 1
    if rng.random() < 0.3:
        attrs["alpha"] = rng.choice((0.5, 2.0))
    if rng.random() < 0.7:
        ins.append(b.data(a.dtype, rng.choice([(m, n), (n,), (1, n), (m, 1), ()])))
        if rng.random() < 0.3:
            attrs["beta"] = rng.choice((0.5, 2.0))
    b.node("Gemm", ins, **attrs)


def _spatial_input(b: Builder, min_rank: int = 3) -> Val:
    def ok(v: Val) -> bool:
        return is_float(v) and len(v.shape) in (3, 4) and len(v.shape) >= min_rank and all(d >= 1 for d in v.shape[1:])
    dtype = b.main_dtype if b.main_dtype in FLOATS else "float32"
    return b.operand(ok, dtype, lambda: tuple(
        [b.rng.choice((1, 1, 2))] + [b.rng.choice((1, 2, 3, 4))]
        + [b.rng.choice((3, 4, 5, 6, 7)) for _ in range(b.rng.choice((1, 2, 2)))]))


def g_conv(b: Builder) -> None:
    rng = b.rng
    x = _spatial_input(b)
    c, sp = x.shape[1], x.shape[2:]
    group = rng.choice([g for g in (1, 1, 1, 2, c) if c % g == 0])
    m = group * rng.choice((1, 2, 3))
    ks = [rng.choice((1, 2, 3)) for _ in sp]
    attrs: dict = {}
    if rng.random() < 0.3:
        attrs["strides"] = [rng.choice((1, 2)) for _ in sp]
    if rng.random() < 0.2:
        attrs["dilations"] = [rng.choice((1, 2)) for _ in sp]
    if rng.random() < 0.15:
        attrs["auto_pad"] = rng.choice(("SAME_UPPER", "SAME_LOWER", "VALID"))
    elif rng.random() < 0.5:
        attrs["pads"] = [rng.choice((0, 1)) for _ in range(2 * len(sp))]
    if group > 1:
        attrs["group"] = group
    w = b.data(x.dtype, (m, c // group, *ks))
    ins = [x, w]
    if rng.random() < 0.5:
        ins.append(b.data(x.dtype, (m,)))
    y = b.node("Conv", ins, **attrs)[0]
    if any(d == 0 for d in y.shape):
        raise Reject("empty conv")


def g_pool(b: Builder) -> None:
    rng = b.rng
    x = _spatial_input(b)
    sp = x.shape[2:]
    op = rng.choice(["MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"])
    if op.startswith("Global"):
        b.node(op, [x])
        return
    ks = [rng.choice((1, 2, 3)) for _ in sp]
    attrs: dict = {"kernel_shape": ks}
    if rng.random() < 0.5:
        attrs["strides"] = [rng.choice((1, 2)) for _ in sp]
    if rng.random() < 0.4:
        attrs["pads"] = [rng.randint(0, k - 1) for k in ks] * 2
    if op == "AveragePool" and rng.random() < 0.4:
        attrs["count_include_pad"] = 1
    if rng.random() < 0.15:
        attrs["ceil_mode"] = 1
    b.node(op, [x], **attrs)


def g_reduce(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: is_num(v) and len(v.shape) >= 1, b.main_dtype, lambda: b.shape(1, 4))
    ops = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"] + (["ArgMax", "ArgMin"] if b.profile == "cpu" else [])
    if is_float(x) and b.profile == "cpu":
        ops += ["ReduceProd", "ReduceL2", "ReduceSumSquare", "ReduceL1"]
    op = rng.choice(ops)
    r = len(x.shape)
    nonempty = [a for a in range(r) if x.shape[a] > 0]
    if op.startswith("Arg"):
        if not nonempty or x.size == 0:
            raise Reject("argmax of empty")
        ax = rng.choice(nonempty)
        attrs = {"axis": ax - r if rng.random() < 0.3 else ax, "keepdims": rng.choice((0, 1))}
        if rng.random() < 0.2:
            attrs["select_last_index"] = 1
        b.node(op, [x], **attrs)
        return
    allowed = list(range(r)) if op in ("ReduceSum", "ReduceSumSquare", "ReduceL1", "ReduceL2") else nonempty
    if op in ("ReduceMean",) and x.size == 0:
        raise Reject("mean of empty")
    if not allowed:
        raise Reject("no axis")
    if rng.random() < 0.2 and len(allowed) == r and x.size > 0:
        axes = None
    else:
        axes = sorted(rng.sample(allowed, rng.randint(1, len(allowed))))
        axes = [a - r if rng.random() < 0.3 else a for a in axes]
    attrs = {"keepdims": rng.choice((0, 1))}
    axes_as_input = op == "ReduceSum" or b.opset >= 18
    ins: list = [x]
    if axes is not None:
        if axes_as_input:
            ins.append(b.ints(axes))
        else:
            attrs["axes"] = axes
    b.node(op, ins, **attrs)


def _factor(n: int, rng: random.Random, rank: int) -> list[int]:
    dims = []
    for _ in range(rank - 1):
        divs = [d for d in range(1, n + 1) if n % d == 0] if n > 0 else [0, 1, 2]
        d = rng.choice(divs)
        dims.append(d)
        n = n // d if d else n
    dims.append(n)
    rng.shuffle(dims)
    return dims


def g_reshape(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: True, b.main_dtype, b.shape)
    op = rng.choice(["Reshape", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Expand"])
    if op == "Reshape":
        if x.size == 0:
            dims = list(x.shape)
            rng.shuffle(dims)
        else:
            dims = _factor(x.size, rng, rng.randint(0, 4)) if x.size > 1 or rng.random() < 0.5 else []
            if not dims and x.size != 1:
                dims = [x.size]
            if dims and rng.random() < 0.3:
                dims[rng.randrange(len(dims))] = -1
            for i in range(min(len(dims), len(x.shape))):
                if dims[i] == x.shape[i] and rng.random() < 0.3:
                    dims[i] = 0
        b.node("Reshape", [x, b.ints(dims)])
    elif op == "Flatten":
        r = len(x.shape)
        b.node("Flatten", [x], axis=rng.randint(-r, r) if r else 0)
    elif op == "Squeeze":
        ones = [i for i, d in enumerate(x.shape) if d == 1]
        if not ones:
            raise Reject("nothing to squeeze")
        axes = sorted(rng.sample(ones, rng.randint(1, len(ones))))
        b.node("Squeeze", [x, b.ints(axes)])
    elif op == "Unsqueeze":
        r = len(x.shape)
        if r >= 4:
            raise Reject("rank")
        ax = rng.randint(-(r + 1), r)
        b.node("Unsqueeze", [x, b.ints([ax])])
    else:
        target = [d if d != 1 else rng.choice((1, 2, 3)) for d in x.shape]
        if len(target) < 4 and rng.random() < 0.3:
            target = [rng.choice((1, 2))] + target
        target = [1 if rng.random() < 0.2 else t for t in target]
        b.node("Expand", [x, b.ints(target)])


def g_transpose(b: Builder) -> None:
    x = b.operand(lambda v: len(v.shape) >= 2, b.main_dtype, lambda: b.shape(2, 4))
    perm = list(range(len(x.shape)))
    b.rng.shuffle(perm)
    if b.rng.random() < 0.15:
        b.node("Transpose", [x])
    else:
        b.node("Transpose", [x], perm=perm)


def g_concat(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: len(v.shape) >= 1, b.main_dtype, lambda: b.shape(1, 4))
    r = len(x.shape)
    ax = rng.randrange(r)
    ins = [x]
    for _ in range(rng.choice((1, 1, 2))):
        s = list(x.shape)
        s[ax] = b.dim()
        ins.append(b.data(x.dtype, tuple(s)))
    rng.shuffle(ins)
    b.node("Concat", ins, axis=ax - r if rng.random() < 0.3 else ax)


def g_slice(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: len(v.shape) >= 1, b.main_dtype, lambda: b.shape(1, 4))
    r = len(x.shape)
    axes = rng.sample(range(r), rng.randint(1, r))
    starts, ends, steps = [], [], []
    for a in axes:
        d = x.shape[a]
        step = rng.choice((1, 1, 1, 2, -1, -2))
        s = rng.randint(-d - 1, d + 1)
        e = rng.choice((rng.randint(-d - 1, d + 1), 2**62 if step > 0 else -(2**62)))
        starts.append(s), ends.append(e), steps.append(step)
    ins = [x, b.ints(starts), b.ints(ends)]
    if rng.random() < 0.8:
        ins.append(b.ints([a - r if rng.random() < 0.3 else a for a in axes]))
        if rng.random() < 0.8 or any(s != 1 for s in steps):
            ins.append(b.ints(steps))
    elif any(s != 1 for s in steps) or axes != list(range(len(axes))):
        raise Reject("steps need axes")
    b.node("Slice", ins)


def g_gather(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: len(v.shape) >= 1 and any(d > 0 for d in v.shape), b.main_dtype, lambda: b.shape(1, 4))
    r = len(x.shape)
    axes = [a for a in range(r) if x.shape[a] > 0]
    if not axes:
        raise Reject("empty")
    ax = rng.choice(axes)
    d = x.shape[ax]
    ishape = tuple(rng.choice((1, 2, 3)) for _ in range(rng.choice((0, 1, 1, 2))))
    dt = rng.choice(("int64", "int64", "int32"))
    npr = np.random.default_rng(rng.getrandbits(32))
    if rng.random() < 0.7:
        idx = b.const(npr.integers(-d, d, ishape).astype(dt), "idx")
    else:
        idx = b.new_input(dt, ishape, ("int", -d, d))
    b.node("Gather", [x, idx], axis=ax - r if rng.random() < 0.3 else ax)


def g_softmax(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: is_float(v) and len(v.shape) >= 1, b.main_dtype if b.main_dtype in FLOATS else "float32",
                  lambda: b.shape(1, 4))
    r = len(x.shape)
    b.node(rng.choice(["Softmax", "LogSoftmax"]), [x], axis=rng.randint(-r, r - 1))


def g_layernorm(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: is_float(v) and len(v.shape) >= 1, b.main_dtype if b.main_dtype in FLOATS else "float32",
                  lambda: b.shape(1, 4))
    r = len(x.shape)
    ax = rng.randint(-r, r - 1)
    norm = x.shape[ax % r:]
    if int(np.prod(norm)) == 0:
        raise Reject("empty norm")
    ins = [x, b.data(x.dtype, norm)]
    if rng.random() < 0.7:
        ins.append(b.data(x.dtype, norm))
    n_out = 1 if rng.random() < 0.8 else 3
    b.node("LayerNormalization", ins, n_out=n_out, axis=ax, epsilon=rng.choice((1e-5, 1e-3)))


def g_clip_pad(b: Builder) -> None:
    rng = b.rng
    x = b.operand(lambda v: is_float(v), b.main_dtype if b.main_dtype in FLOATS else "float32", b.shape)
    if rng.random() < 0.5 or not x.shape:
        lo, hi = sorted((rng.uniform(-1, 0), rng.uniform(0, 1)))
        ins = [x, b.const(np.array(lo, x.dtype)) if rng.random() < 0.8 else ""]
        if rng.random() < 0.8:
            ins.append(b.const(np.array(hi, x.dtype)))
        b.node("Clip", ins)
        return
    mode = rng.choice(("constant", "constant", "reflect", "edge"))
    r = len(x.shape)
    pads = []
    for _ in range(2):
        for a in range(r):
            lim = x.shape[a] - 1 if mode == "reflect" else 2
            pads.append(rng.randint(0, max(0, min(2, lim))) if x.shape[a] > 0 or mode == "constant" else 0)
    if mode != "constant" and x.size == 0:
        raise Reject("pad empty")
    ins = [x, b.ints(pads)]
    if mode == "constant" and rng.random() < 0.5:
        ins.append(b.const(np.array(rng.uniform(-1, 1), x.dtype)))
    b.node("Pad", ins, mode=mode)


FAMILIES: list[tuple[Callable[[Builder], None], float]] = [
    (g_unary, 3), (g_int_unary, 0.5), (g_binary, 4), (g_compare, 1), (g_where, 1), (g_cast, 1),
    (g_matmul, 1.5), (g_gemm, 1), (g_conv, 1.2), (g_pool, 1), (g_reduce, 1.5), (g_reshape, 1.5),
    (g_transpose, 1), (g_concat, 1), (g_slice, 1), (g_gather, 1), (g_softmax, 1), (g_layernorm, 0.7),
    (g_clip_pad, 0.8),
]


#: ``--target ascendc``: the families the Ascend C lowering has kernels for
ASCENDC_FAMILIES = [(g_unary, 3), (g_binary, 4), (g_matmul, 1.5), (g_gemm, 1), (g_conv, 1), (g_pool, 1),
                    (g_reduce, 1), (g_transpose, 1), (g_softmax, 1), (g_layernorm, 1)]


def build_graph(rng: random.Random, max_nodes: int = 8, opset: int | None = None,
                profile: str = "cpu") -> tuple[onnx.ModelProto, dict[str, Val]]:
    """One random model (not yet validated) and its input specs.

    ``profile="ascendc"`` draws from :data:`ASCENDC_FAMILIES` only, float
    dtypes, constant weights, no zero-size dims (the CPU profile's graphs
    nearly all contain an op without an Ascend C lowering)."""
    opset = opset or rng.choice(OPSETS)
    b = Builder(rng, opset, max_nodes, profile)
    for _ in range(rng.choice((1, 1, 2))):
        b.new_input(b.main_dtype, b.shape())
    target = rng.randint(1, max_nodes)
    funcs, weights = zip(*(ASCENDC_FAMILIES if profile == "ascendc" else FAMILIES))
    tries = 0
    while sum(1 for n in b.nodes if n.op_type != "Constant") < target and tries < 6 * max_nodes:
        tries += 1
        fam = rng.choices(funcs, weights)[0]
        snap = (len(b.nodes), len(b.inputs), len(b.inits), dict(b.pool), dict(b.uses), list(b.order),
                dict(b.const_values))
        try:
            fam(b)
        except (Reject, ValueError, IndexError, ZeroDivisionError):  # a draw that does not fit: roll back
            (nn, ni, nc, b.pool, b.uses, b.order, b.const_values) = snap
            del b.nodes[nn:], b.inputs[ni:], b.inits[nc:]
    real = [n for n in b.nodes if n.op_type != "Constant"]
    if not real:
        raise Reject("no node")
    produced = [o for n in real for o in n.output]
    sinks = [o for o in produced if b.uses.get(o, 0) == 0]
    rng.shuffle(sinks)
    outs = sinks[:4] or [produced[-1]]
    if rng.random() < 0.1 and len(produced) > len(outs):
        extra = rng.choice([o for o in produced if o not in outs])
        outs.append(extra)  # an intermediate value that is also consumed
    used = {i for n in b.nodes for i in n.input}
    inputs = [v for v in b.inputs if v.name in used]
    if not inputs:
        raise Reject("no input")
    graph = helper.make_graph(
        b.nodes, "fuzz",
        [helper.make_tensor_value_info(v.name, onnx_type(v.dtype), list(v.shape)) for v in inputs],
        [helper.make_tensor_value_info(o, onnx_type(b.pool[o].dtype), list(b.pool[o].shape)) for o in outs],
        [t for t in b.inits if t.name in used],
    )
    ops = [helper.make_opsetid("", opset)]
    model = helper.make_model(graph, opset_imports=ops, ir_version=helper.find_min_ir_version_for(ops),
                              producer_name="ge-fuzz")
    return model, {v.name: v for v in inputs}


def make_feeds(specs: dict[str, Val], rng: random.Random) -> dict[str, np.ndarray]:
    npr = np.random.default_rng(rng.getrandbits(64))
    return {n: random_feed(npr, v.dtype, v.shape, v.feed) for n, v in specs.items()}


_ORT_OPTS = None


def ort_session(model_bytes: bytes):
    global _ORT_OPTS
    import onnxruntime as ort

    if _ORT_OPTS is None:
        ort.set_default_logger_severity(4)
        _ORT_OPTS = ort.SessionOptions()
        _ORT_OPTS.intra_op_num_threads = 1
        _ORT_OPTS.inter_op_num_threads = 1
        _ORT_OPTS.log_severity_level = 4
    return ort.InferenceSession(model_bytes, _ORT_OPTS, providers=["CPUExecutionProvider"])


def validate(model: onnx.ModelProto, feeds: dict[str, np.ndarray] | None = None) -> str | None:
    """None when the model is valid ONNX that onnxruntime loads (and runs on
    ``feeds``, when given), else why not. The run matters: onnxruntime refuses
    some checker-valid models at run time (e.g. some 1-D convolutions), and
    the fuzzer only wants models on which the oracle has an answer."""
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:
        return f"checker: {e}"
    try:
        sess = ort_session(model.SerializeToString())
        if feeds is not None:
            sess.run(None, feeds)
    except Exception as e:
        return f"onnxruntime: {e}"
    return None


def case_rng(seed: int, index: int, attempt: int, salt: str = "") -> random.Random:
    return random.Random(f"ge-fuzz:{seed}:{index}:{attempt}{salt}")


def generate_valid(seed: int, index: int, max_nodes: int = 8, max_attempts: int = 100,
                   profile: str = "cpu") -> Case:
    """The valid case ``(seed, index)``: deterministic for the same arguments."""
    last = ""
    for attempt in range(max_attempts):
        rng = case_rng(seed, index, attempt, salt="" if profile == "cpu" else f":{profile}")
        try:
            model, specs = build_graph(rng, max_nodes, profile=profile)
        except Reject as e:
            last = str(e)
            continue
        feeds = make_feeds(specs, rng)
        why = validate(model, feeds)
        if why is not None:
            last = why
            continue
        ops = [n.op_type for n in model.graph.node]
        return Case(seed, index, "valid", model.SerializeToString(), feeds,
                    f"random graph, opset {model.opset_import[0].version}: {' '.join(ops)}", ops=ops)
    raise RuntimeError(f"no valid graph for seed {seed} case {index} in {max_attempts} attempts ({last})")
