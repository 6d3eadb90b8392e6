"""ge-lower-to-linalg: elementwise ge ops -> linalg.generic on tensors.

Every supported op on statically shaped ranked tensors becomes one
``linalg.generic`` (all loops parallel) whose indexing maps implement numpy
broadcasting (a size-1 operand dimension that broadcasts reads index 0), with a
``tensor.empty`` init and an ``arith``/``math`` scalar body. ``ge.constant``
becomes ``arith.constant`` (dense and dense_resource values alike) and
``ge.identity`` forwards its operand.

Scalar semantics:

* signless and ``si*`` integers are signed, ``ui*`` unsigned; ``arith`` only
  takes signless integers, so ``ui*``/``si*`` block arguments are converted
  with ``builtin.unrealized_conversion_cast`` (the LLVM lowering reconciles
  them away);
* f16/bf16 arithmetic is computed in f32 and rounded back (as numpy does);
* float compares are ordered (NaN compares false), ``max``/``min`` propagate
  NaN (``arith.maximumf``/``minimumf``); integer ``div`` truncates toward zero;
  float ``mod`` is fmod, integer ``mod`` follows the divisor's sign unless
  ``fmod``; integer division never traps: ``x / 0`` and ``x % 0`` are 0 (as
  numpy), ``INT_MIN / -1`` wraps, ``0 ** negative`` is 0; ``round`` is half to even (``math.roundeven``);
* ``cast`` follows ONNX: ext/trunc between floats, ``sitofp``/``fptosi`` for
  signed, ``uitofp``/``fptoui`` for unsigned and i1, ``x != 0`` to i1.

Ops the pass does not lower (other ge ops, dynamic shapes, unsupported element
types) stay as they are; with ``fail-on-unlowered`` the pass fails at the first
one still left, naming it and its location.
"""

from __future__ import annotations

import math as _pymath
from typing import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, linalg, tensor
from mlir.dialects import math as mmath
from mlir.rewrite import PatternRewriter, RewritePatternSet, walk_and_apply_patterns

from ..passes.registry import Option, Pass, PassFailure, register_pass
from ..optimize.patterns import pattern

# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


def _kind(t: ir.Type) -> str:
    """'f' float, 'b' i1, 's' signed (signless or si) int, 'u' unsigned int, '?' other."""
    if isinstance(t, ir.FloatType):
        return "f"
    if isinstance(t, ir.IntegerType):
        it = ir.IntegerType(t)
        if it.width == 1 and it.is_signless:
            return "b"
        if it.width in (8, 16, 32, 64):
            return "u" if it.is_unsigned else "s"
    return "?"


def _width(t: ir.Type) -> int:
    if isinstance(t, ir.FloatType):
        return ir.FloatType(t).width
    return ir.IntegerType(t).width


def _signless(t: ir.Type) -> ir.Type:
    if isinstance(t, ir.IntegerType) and not ir.IntegerType(t).is_signless:
        return ir.IntegerType.get_signless(ir.IntegerType(t).width)
    return t


def _static_tensor(t: ir.Type) -> ir.RankedTensorType | None:
    if not isinstance(t, ir.RankedTensorType):
        return None
    rt = ir.RankedTensorType(t)
    return rt if rt.has_static_shape else None


# --------------------------------------------------------------------------
# Scalar helpers (used inside a linalg.generic body)
# --------------------------------------------------------------------------


def _const(t: ir.Type, value: float | int | bool) -> ir.Value:
    if isinstance(t, ir.FloatType):
        return arith.constant(t, ir.FloatAttr.get(t, float(value)))
    return arith.constant(t, ir.IntegerAttr.get(t, int(value)))


def _compute_type(t: ir.Type) -> ir.Type:
    """f16/bf16 compute in f32; everything else in its own (signless) type."""
    if isinstance(t, ir.FloatType) and ir.FloatType(t).width < 32:
        return ir.F32Type.get()
    return _signless(t)


def _to(x: ir.Value, t: ir.Type) -> ir.Value:
    """Float precision change (extf/truncf) between compute and storage types."""
    if x.type == t:
        return x
    if _width(x.type) < _width(t):
        return arith.extf(t, x)
    if _width(x.type) > _width(t):
        return arith.truncf(t, x)
    return arith.truncf(t, arith.extf(ir.F32Type.get(), x))  # f16 <-> bf16


# A scalar body gets the operands' values (in compute types) and their original
# element types (for signedness) and returns the result value.
Body = Callable[[list[ir.Value], list[ir.Type]], ir.Value]


class _Unsupported(Exception):
    """This op instance cannot be lowered (it is left in place)."""


def _broadcast_map(operand: ir.RankedTensorType, result: ir.RankedTensorType) -> ir.AffineMap:
    r, rank = operand.rank, result.rank
    exprs = []
    for i in range(r):
        d = i + rank - r
        if operand.shape[i] == 1 and result.shape[d] != 1:
            exprs.append(ir.AffineConstantExpr.get(0))
        else:
            exprs.append(ir.AffineDimExpr.get(d))
    return ir.AffineMap.get(rank, 0, exprs)


def _elementwise(
    operands: Sequence[ir.Value], result_type: ir.Type, body: Body, *, upcast: bool = True
) -> ir.Value:
    """One linalg.generic computing ``body`` over broadcast operands.

    With ``upcast`` float operands narrower than f32 reach ``body`` as f32 and
    a float result is rounded back to the result element type.
    """
    rt = _static_tensor(result_type)
    if rt is None:
        raise _Unsupported("dynamic result shape")
    in_types = []
    for v in operands:
        t = _static_tensor(v.type)
        if t is None:
            raise _Unsupported("dynamic operand shape")
        if t.rank > rt.rank:
            raise _Unsupported("operand rank exceeds result rank")
        in_types.append(t)
    for t in [*in_types, rt]:
        if _kind(t.element_type) == "?":
            raise _Unsupported(f"element type {t.element_type}")
    out_elem = rt.element_type
    init = tensor.EmptyOp(rt.shape, out_elem).result
    maps = [_broadcast_map(t, rt) for t in in_types] + [ir.AffineMap.get_identity(rt.rank)]
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    generic = linalg.GenericOp(
        [rt],
        list(operands),
        [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([parallel] * rt.rank),
    )
    elem_types = [t.element_type for t in in_types]
    block = generic.regions[0].blocks.append(*elem_types, out_elem)
    try:
        _build_body(block, operands, elem_types, out_elem, body, upcast)
    except _Unsupported:
        generic.operation.erase()
        init.owner.erase()
        raise
    return generic.result


def _build_body(block: ir.Block, operands: Sequence[ir.Value], elem_types: list[ir.Type],
                out_elem: ir.Type, body: Body, upcast: bool) -> None:
    with ir.InsertionPoint(block):
        args = []
        for arg, et in zip(list(block.arguments)[: len(operands)], elem_types):
            x: ir.Value = arg
            if _signless(et) != et:
                x = ir.Operation.create(
                    "builtin.unrealized_conversion_cast", results=[_signless(et)], operands=[x]
                ).result
            if upcast and _kind(et) == "f":
                x = _to(x, _compute_type(et))
            args.append(x)
        y = body(args, elem_types)
        if _kind(out_elem) == "f":
            y = _to(y, out_elem)
        if _signless(out_elem) != out_elem:
            y = ir.Operation.create(
                "builtin.unrealized_conversion_cast", results=[out_elem], operands=[y]
            ).result
        linalg.YieldOp([y])


# --------------------------------------------------------------------------
# Op semantics
# --------------------------------------------------------------------------


def _attr_float(op: ir.OpView, name: str, default: float | None) -> float | None:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return float(ir.FloatAttr(attrs[name]).value)


def _attr_bool(op: ir.OpView, name: str, default: bool) -> bool:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return bool(ir.BoolAttr(attrs[name]).value)


def _float_only(fn: Callable[[ir.Value], ir.Value]) -> Body:
    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        if _kind(ts[0]) != "f":
            raise _Unsupported(f"element type {ts[0]}")
        return fn(xs[0])

    return body


def _sigmoid(x: ir.Value) -> ir.Value:
    one = _const(x.type, 1.0)
    return arith.divf(one, arith.addf(one, mmath.exp(arith.negf(x))))


def _gelu(op: ir.OpView) -> Callable[[ir.Value], ir.Value]:
    tanh_form = _attr_bool(op, "tanh_approx", False)

    def fn(x: ir.Value) -> ir.Value:
        t = x.type
        half, one = _const(t, 0.5), _const(t, 1.0)
        if tanh_form:
            # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            x3 = arith.mulf(arith.mulf(x, x), x)
            inner = arith.addf(x, arith.mulf(_const(t, 0.044715), x3))
            th = mmath.tanh(arith.mulf(_const(t, _pymath.sqrt(2.0 / _pymath.pi)), inner))
            return arith.mulf(arith.mulf(half, x), arith.addf(one, th))
        # 0.5 x (1 + erf(x / sqrt(2)))
        e = mmath.erf(arith.mulf(x, _const(t, 1.0 / _pymath.sqrt(2.0))))
        return arith.mulf(arith.mulf(half, x), arith.addf(one, e))

    return fn


def _hard_sigmoid_of(x: ir.Value, alpha: float, beta: float) -> ir.Value:
    t = x.type
    y = arith.addf(arith.mulf(_const(t, alpha), x), _const(t, beta))
    return arith.maximumf(_const(t, 0.0), arith.minimumf(_const(t, 1.0), y))


def _softplus(x: ir.Value) -> ir.Value:
    # log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), stable for large |x|.
    t = x.type
    return arith.addf(
        arith.maximumf(x, _const(t, 0.0)), mmath.log1p(mmath.exp(arith.negf(mmath.absf(x))))
    )


def _leaky_relu(alpha: float) -> Callable[[ir.Value], ir.Value]:
    def fn(x: ir.Value) -> ir.Value:
        t = x.type
        pos = arith.cmpf(arith.CmpFPredicate.OGE, x, _const(t, 0.0))
        return arith.select(pos, x, arith.mulf(_const(t, alpha), x))

    return fn


def _unary_body(op: ir.OpView, name: str) -> Body | None:
    """Scalar body of a unary op, or None when the op is not a unary we lower."""
    float_fns: dict[str, Callable[[ir.Value], ir.Value]] = {
        "exp": mmath.exp,
        "log": mmath.log,
        "sqrt": mmath.sqrt,
        "rsqrt": mmath.rsqrt,
        "reciprocal": lambda x: arith.divf(_const(x.type, 1.0), x),
        "tanh": mmath.tanh,
        "sigmoid": _sigmoid,
        "erf": mmath.erf,
        "sin": mmath.sin,
        "cos": mmath.cos,
        "floor": mmath.floor,
        "ceil": mmath.ceil,
        "round": mmath.roundeven,
        "softplus": _softplus,
        "silu": lambda x: arith.mulf(x, _sigmoid(x)),
        "hard_swish": lambda x: arith.mulf(x, _hard_sigmoid_of(x, 1.0 / 6.0, 0.5)),
    }
    if name in float_fns:
        return _float_only(float_fns[name])
    if name == "gelu":
        return _float_only(_gelu(op))
    if name == "leaky_relu":
        return _float_only(_leaky_relu(_attr_float(op, "alpha", 0.01)))
    if name == "hard_sigmoid":
        alpha, beta = _attr_float(op, "alpha", 0.2), _attr_float(op, "beta", 0.5)
        return _float_only(lambda x: _hard_sigmoid_of(x, alpha, beta))

    def numeric(
        f: Callable[[ir.Value], ir.Value], s: Callable[[ir.Value], ir.Value], u: Callable[[ir.Value], ir.Value]
    ) -> Body:
        def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
            k = _kind(ts[0])
            if k == "f":
                return f(xs[0])
            if k == "s":
                return s(xs[0])
            if k == "u":
                return u(xs[0])
            raise _Unsupported(f"element type {ts[0]}")

        return body

    def zero(x: ir.Value) -> ir.Value:
        return _const(x.type, 0)

    if name == "abs":
        return numeric(mmath.absf, mmath.absi, lambda x: x)
    if name == "neg":
        return numeric(arith.negf, lambda x: arith.subi(zero(x), x), lambda x: arith.subi(zero(x), x))
    if name == "relu":
        return numeric(
            lambda x: arith.maximumf(x, zero(x)), lambda x: arith.maxsi(x, zero(x)), lambda x: x
        )
    if name == "sign":

        def fsign(x: ir.Value) -> ir.Value:
            t = x.type
            neg = arith.select(arith.cmpf(arith.CmpFPredicate.OLT, x, zero(x)), _const(t, -1.0), x)
            return arith.select(arith.cmpf(arith.CmpFPredicate.OGT, x, zero(x)), _const(t, 1.0), neg)

        def ssign(x: ir.Value) -> ir.Value:
            t = x.type
            neg = arith.select(arith.cmpi(arith.CmpIPredicate.slt, x, zero(x)), _const(t, -1), zero(x))
            return arith.select(arith.cmpi(arith.CmpIPredicate.sgt, x, zero(x)), _const(t, 1), neg)

        def usign(x: ir.Value) -> ir.Value:
            return arith.extui(x.type, arith.cmpi(arith.CmpIPredicate.ne, x, zero(x)))

        return numeric(fsign, ssign, usign)
    if name == "clip":
        lo, hi = _attr_float(op, "min", None), _attr_float(op, "max", None)

        def fclip(x: ir.Value) -> ir.Value:
            if lo is not None:
                x = arith.maximumf(x, _const(x.type, lo))
            if hi is not None:
                x = arith.minimumf(x, _const(x.type, hi))
            return x

        def iclip(signed: bool) -> Callable[[ir.Value], ir.Value]:
            def fn(x: ir.Value) -> ir.Value:
                w = _width(x.type)
                tmin, tmax = (-(2 ** (w - 1)), 2 ** (w - 1) - 1) if signed else (0, 2**w - 1)
                mx, mn = (arith.maxsi, arith.minsi) if signed else (arith.maxui, arith.minui)
                if lo is not None and _pymath.ceil(lo) > tmin:
                    b = min(_pymath.ceil(lo), tmax)
                    x = mx(x, _const(x.type, b if signed or b < 2 ** (w - 1) else b - 2**w))
                if hi is not None and _pymath.floor(hi) < tmax:
                    b = max(_pymath.floor(hi), tmin)
                    x = mn(x, _const(x.type, b if signed or b < 2 ** (w - 1) else b - 2**w))
                return x

            return fn

        return numeric(fclip, iclip(True), iclip(False))
    if name == "not":

        def bnot(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
            return arith.xori(xs[0], _const(xs[0].type, 1))

        return bnot
    return None


# Integer division must not trap (x86 raises SIGFPE, killing the process, on a
# zero divisor and on INT_MIN / -1). As numpy: x / 0 and x % 0 give 0;
# INT_MIN / -1 wraps to INT_MIN (computed as 0 - a) and x % -1 is 0.


def _guarded_divisor(b: ir.Value, signed: bool) -> tuple[ir.Value, ir.Value, ir.Value | None]:
    """(safe divisor, b == 0, b == -1 or None)."""
    t = b.type
    is_zero = arith.cmpi(arith.CmpIPredicate.eq, b, _const(t, 0))
    bad, is_m1 = is_zero, None
    if signed:
        is_m1 = arith.cmpi(arith.CmpIPredicate.eq, b, _const(t, -1))
        bad = arith.ori(is_zero, is_m1)
    return arith.select(bad, _const(t, 1), b), is_zero, is_m1


def _safe_div(signed: bool) -> Callable[[ir.Value, ir.Value], ir.Value]:
    def fn(a: ir.Value, b: ir.Value) -> ir.Value:
        d, is_zero, is_m1 = _guarded_divisor(b, signed)
        q = (arith.divsi if signed else arith.divui)(a, d)
        zero = _const(a.type, 0)
        if is_m1 is not None:
            q = arith.select(is_m1, arith.subi(zero, a), q)
        return arith.select(is_zero, zero, q)

    return fn


def _safe_rem(signed: bool) -> Callable[[ir.Value, ir.Value], ir.Value]:
    def fn(a: ir.Value, b: ir.Value) -> ir.Value:
        d, is_zero, is_m1 = _guarded_divisor(b, signed)
        r = (arith.remsi if signed else arith.remui)(a, d)
        bad = is_zero if is_m1 is None else arith.ori(is_zero, is_m1)
        return arith.select(bad, _const(a.type, 0), r)

    return fn


def _safe_ipowi(a: ir.Value, b: ir.Value) -> ir.Value:
    """math.ipowi, except 0 ** negative (a division by zero in its expansion) gives 0."""
    t = a.type
    zero = _const(t, 0)
    bad = arith.andi(arith.cmpi(arith.CmpIPredicate.slt, b, zero), arith.cmpi(arith.CmpIPredicate.eq, a, zero))
    p = mmath.ipowi(arith.select(bad, _const(t, 1), a), b)
    return arith.select(bad, zero, p)


def _int_mod_floor(a: ir.Value, b: ir.Value) -> ir.Value:
    """a mod b with the sign of the divisor (Python/numpy %) for signed ints."""
    r = _safe_rem(True)(a, b)
    z = _const(a.type, 0)
    nonzero = arith.cmpi(arith.CmpIPredicate.ne, r, z)
    signs_differ = arith.cmpi(
        arith.CmpIPredicate.ne,
        arith.cmpi(arith.CmpIPredicate.slt, r, z),
        arith.cmpi(arith.CmpIPredicate.slt, b, z),
    )
    return arith.select(arith.andi(nonzero, signs_differ), arith.addi(r, b), r)


_FCMP = {"equal": "OEQ", "less": "OLT", "less_equal": "OLE", "greater": "OGT", "greater_equal": "OGE"}
_SCMP = {"equal": "eq", "less": "slt", "less_equal": "sle", "greater": "sgt", "greater_equal": "sge"}
_UCMP = {"equal": "eq", "less": "ult", "less_equal": "ule", "greater": "ugt", "greater_equal": "uge"}


def _binary_body(op: ir.OpView, name: str) -> Body | None:
    F = {
        "add": arith.addf,
        "sub": arith.subf,
        "mul": arith.mulf,
        "div": arith.divf,
        "pow": mmath.powf,
        "max": arith.maximumf,
        "min": arith.minimumf,
        "mod": arith.remf,
    }
    S = {
        "add": arith.addi,
        "sub": arith.subi,
        "mul": arith.muli,
        "div": _safe_div(True),
        "pow": _safe_ipowi,
        "max": arith.maxsi,
        "min": arith.minsi,
        "mod": _safe_rem(True) if _attr_bool(op, "fmod", False) else _int_mod_floor,
    }
    U = dict(S, div=_safe_div(False), max=arith.maxui, min=arith.minui, mod=_safe_rem(False))
    B = {"and": arith.andi, "or": arith.ori, "xor": arith.xori}
    if name in F:
        table = {"f": F, "s": S, "u": U}
    elif name in B:
        table = {"b": B}
    elif name in _FCMP:
        fpred = getattr(arith.CmpFPredicate, _FCMP[name])
        spred = getattr(arith.CmpIPredicate, _SCMP[name])
        upred = getattr(arith.CmpIPredicate, _UCMP[name])
        scmp = {name: lambda a, b: arith.cmpi(spred, a, b)}
        table = {
            "f": {name: lambda a, b: arith.cmpf(fpred, a, b)},
            "s": scmp,
            "u": {name: lambda a, b: arith.cmpi(upred, a, b)},
        }
        if name == "equal":
            table["b"] = scmp
    else:
        return None

    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        k = _kind(ts[0])
        if k != _kind(ts[1]) or k not in table:
            raise _Unsupported(f"element types {ts[0]}, {ts[1]}")
        if name == "pow" and k == "u":
            raise _Unsupported("unsigned pow")
        return table[k][name](xs[0], xs[1])

    return body


def _where_body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
    if _kind(ts[0]) != "b" or ts[1] != ts[2]:
        raise _Unsupported("where operand types")
    return arith.select(xs[0], xs[1], xs[2])


def _cast_body(dst: ir.Type) -> Body:
    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        x, src = xs[0], ts[0]
        sk, dk = _kind(src), _kind(dst)
        dsl = _signless(dst)
        if sk == "f" and dk == "f":
            return _to(x, dst)
        if dk == "f":
            return (arith.sitofp if sk == "s" else arith.uitofp)(dst, x)
        if sk == "f":
            if dk == "b":
                return arith.cmpf(arith.CmpFPredicate.UNE, x, _const(x.type, 0.0))
            return (arith.fptosi if dk == "s" else arith.fptoui)(dsl, x)
        if dk == "b":
            return x if sk == "b" else arith.cmpi(arith.CmpIPredicate.ne, x, _const(x.type, 0))
        sw, dw = _width(src), _width(dst)
        if dw > sw:
            return (arith.extsi if sk == "s" else arith.extui)(dsl, x)
        if dw < sw:
            return arith.trunci(dsl, x)
        return x

    return body


# --------------------------------------------------------------------------
# The pattern
# --------------------------------------------------------------------------


def lower_op(op: ir.OpView) -> ir.Value | None:
    """Builds the lowering of ``op`` before it; None when it is not lowered."""
    name = op.operation.name.removeprefix("ge.")
    if len(op.results) != 1:
        return None
    result_type = op.results[0].type
    try:
        if name == "constant":
            rt = _static_tensor(result_type)
            if rt is None or _signless(rt.element_type) != rt.element_type:
                return None  # arith.constant takes signless integers only
            return arith.constant(result_type, op.operation.attributes["value"])
        if name == "identity":
            return op.operands[0]
        if name == "cast":
            return _elementwise([op.operands[0]], result_type,
                                _cast_body(ir.RankedTensorType(result_type).element_type), upcast=False)
        if name == "where":
            return _elementwise(list(op.operands), result_type, _where_body, upcast=False)
        body = _unary_body(op, name) if len(op.operands) == 1 else None
        if body is None and len(op.operands) == 2:
            body = _binary_body(op, name)
        if body is None:
            return None
        return _elementwise(list(op.operands), result_type, body)
    except _Unsupported:
        return None


@pattern
def lower_to_linalg(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    with op.location, ir.InsertionPoint(op):
        new = lower_op(op)
    if new is None:
        return False
    rewriter.replace_op(op, [new])
    return True


LOWERED_OPS: tuple[str, ...] = (
    "constant", "identity", "cast", "where",
    "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "relu",
    "leaky_relu", "gelu", "erf", "sin", "cos", "floor", "ceil", "round", "sign", "not",
    "softplus", "hard_sigmoid", "hard_swish", "silu", "clip",
    "add", "sub", "mul", "div", "pow", "max", "min", "mod", "and", "or", "xor",
    "equal", "less", "less_equal", "greater", "greater_equal",
)


def lowering_patterns() -> RewritePatternSet:
    patterns = RewritePatternSet()
    for name in LOWERED_OPS:
        patterns.add(f"ge.{name}", lower_to_linalg)
    return patterns


def first_ge_op(module: ir.Operation) -> ir.Operation | None:
    found: list[ir.Operation] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        if o.name.startswith("ge."):
            found.append(o)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found[0] if found else None


@register_pass
class GeLowerToLinalgPass(Pass):
    name = "ge-lower-to-linalg"
    summary = "Lower elementwise ge ops, casts, where and constants to linalg/arith/math on tensors"
    description = __doc__ or ""
    stage = "lowering"
    priority = 10
    options = (
        Option("fail-on-unlowered", bool, False, "fail naming the first ge op left unlowered"),
    )

    def run(self, module: ir.Operation) -> None:
        walk_and_apply_patterns(module, lowering_patterns().freeze())
        if not self.opt("fail-on-unlowered"):
            return
        left = first_ge_op(module)
        if left is not None:
            why = (
                "dynamic shape or unsupported element type"
                if left.name.removeprefix("ge.") in LOWERED_OPS
                else "no lowering for this op"
            )
            raise PassFailure(f"op '{left.name}' was not lowered to linalg ({why})", at=left)
