"""Lowerings of the elementwise ge ops: one linalg.generic each.

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
"""

from __future__ import annotations

import math as _pymath
from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith
from mlir.dialects import math as mmath

from .common import (
    Body,
    Unsupported,
    const,
    convert_float,
    elementwise,
    kind,
    lowering,
    signless,
    static_tensor,
    width,
)
from ....irutils.attrs import attr_bool, attr_float

# --------------------------------------------------------------------------
# Op semantics
# --------------------------------------------------------------------------


def _float_only(fn: Callable[[ir.Value], ir.Value]) -> Body:
    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        if kind(ts[0]) != "f":
            raise Unsupported(f"element type {ts[0]}")
        return fn(xs[0])

    return body


def _sigmoid(x: ir.Value) -> ir.Value:
    one = const(x.type, 1.0)
    return arith.divf(one, arith.addf(one, mmath.exp(arith.negf(x))))


def _gelu(op: ir.OpView) -> Callable[[ir.Value], ir.Value]:
    tanh_form = attr_bool(op, "tanh_approx", False)

    def fn(x: ir.Value) -> ir.Value:
        t = x.type
        half, one = const(t, 0.5), const(t, 1.0)
        if tanh_form:
            # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            x3 = arith.mulf(arith.mulf(x, x), x)
            inner = arith.addf(x, arith.mulf(const(t, 0.044715), x3))
            th = mmath.tanh(arith.mulf(const(t, _pymath.sqrt(2.0 / _pymath.pi)), inner))
            return arith.mulf(arith.mulf(half, x), arith.addf(one, th))
        # 0.5 x (1 + erf(x / sqrt(2)))
        e = mmath.erf(arith.mulf(x, const(t, 1.0 / _pymath.sqrt(2.0))))
        return arith.mulf(arith.mulf(half, x), arith.addf(one, e))

    return fn


def _hard_sigmoid_of(x: ir.Value, alpha: float, beta: float) -> ir.Value:
    t = x.type
    y = arith.addf(arith.mulf(const(t, alpha), x), const(t, beta))
    return arith.maximumf(const(t, 0.0), arith.minimumf(const(t, 1.0), y))


def _softplus(x: ir.Value) -> ir.Value:
    # log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), stable for large |x|.
    t = x.type
    return arith.addf(
        arith.maximumf(x, const(t, 0.0)), mmath.log1p(mmath.exp(arith.negf(mmath.absf(x))))
    )


def _leaky_relu(alpha: float) -> Callable[[ir.Value], ir.Value]:
    def fn(x: ir.Value) -> ir.Value:
        t = x.type
        pos = arith.cmpf(arith.CmpFPredicate.OGE, x, const(t, 0.0))
        return arith.select(pos, x, arith.mulf(const(t, alpha), x))

    return fn


def _unary_body(op: ir.OpView, name: str) -> Body | None:
    """Scalar body of a unary op, or None when the op is not a unary we lower."""
    float_fns: dict[str, Callable[[ir.Value], ir.Value]] = {
        "exp": mmath.exp,
        "log": mmath.log,
        "sqrt": mmath.sqrt,
        "rsqrt": mmath.rsqrt,
        "reciprocal": lambda x: arith.divf(const(x.type, 1.0), x),
        "tanh": mmath.tanh,
        "sigmoid": _sigmoid,
        "erf": mmath.erf,
        "sin": mmath.sin,
        "cos": mmath.cos,
        "acos": mmath.acos,
        "asin": mmath.asin,
        "atan": mmath.atan,
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
        return _float_only(_leaky_relu(attr_float(op, "alpha", 0.01)))
    if name == "hard_sigmoid":
        alpha, beta = attr_float(op, "alpha", 0.2), attr_float(op, "beta", 0.5)
        return _float_only(lambda x: _hard_sigmoid_of(x, alpha, beta))

    def numeric(
        f: Callable[[ir.Value], ir.Value], s: Callable[[ir.Value], ir.Value], u: Callable[[ir.Value], ir.Value]
    ) -> Body:
        def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
            k = kind(ts[0])
            if k == "f":
                return f(xs[0])
            if k == "s":
                return s(xs[0])
            if k == "u":
                return u(xs[0])
            raise Unsupported(f"element type {ts[0]}")

        return body

    def zero(x: ir.Value) -> ir.Value:
        return const(x.type, 0)

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
            neg = arith.select(arith.cmpf(arith.CmpFPredicate.OLT, x, zero(x)), const(t, -1.0), x)
            return arith.select(arith.cmpf(arith.CmpFPredicate.OGT, x, zero(x)), const(t, 1.0), neg)

        def ssign(x: ir.Value) -> ir.Value:
            t = x.type
            neg = arith.select(arith.cmpi(arith.CmpIPredicate.slt, x, zero(x)), const(t, -1), zero(x))
            return arith.select(arith.cmpi(arith.CmpIPredicate.sgt, x, zero(x)), const(t, 1), neg)

        def usign(x: ir.Value) -> ir.Value:
            return arith.extui(x.type, arith.cmpi(arith.CmpIPredicate.ne, x, zero(x)))

        return numeric(fsign, ssign, usign)
    if name == "clip":
        lo, hi = attr_float(op, "min", None), attr_float(op, "max", None)

        def fclip(x: ir.Value) -> ir.Value:
            if lo is not None:
                x = arith.maximumf(x, const(x.type, lo))
            if hi is not None:
                x = arith.minimumf(x, const(x.type, hi))
            return x

        def iclip(signed: bool) -> Callable[[ir.Value], ir.Value]:
            def fn(x: ir.Value) -> ir.Value:
                w = width(x.type)
                tmin, tmax = (-(2 ** (w - 1)), 2 ** (w - 1) - 1) if signed else (0, 2**w - 1)
                mx, mn = (arith.maxsi, arith.minsi) if signed else (arith.maxui, arith.minui)
                if lo is not None and _pymath.ceil(lo) > tmin:
                    b = min(_pymath.ceil(lo), tmax)
                    x = mx(x, const(x.type, b if signed or b < 2 ** (w - 1) else b - 2**w))
                if hi is not None and _pymath.floor(hi) < tmax:
                    b = max(_pymath.floor(hi), tmin)
                    x = mn(x, const(x.type, b if signed or b < 2 ** (w - 1) else b - 2**w))
                return x

            return fn

        return numeric(fclip, iclip(True), iclip(False))
    if name == "not":

        def bnot(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
            return arith.xori(xs[0], const(xs[0].type, 1))

        return bnot
    if name == "bitwise_not":

        def inot(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
            if kind(ts[0]) not in "su":
                raise Unsupported(f"element type {ts[0]}")
            return arith.xori(xs[0], const(xs[0].type, -1))

        return inot
    return None


# Integer division must not trap (x86 raises SIGFPE, killing the process, on a
# zero divisor and on INT_MIN / -1). As numpy: x / 0 and x % 0 give 0;
# INT_MIN / -1 wraps to INT_MIN (computed as 0 - a) and x % -1 is 0.


def _guarded_divisor(b: ir.Value, signed: bool) -> tuple[ir.Value, ir.Value, ir.Value | None]:
    """(safe divisor, b == 0, b == -1 or None)."""
    t = b.type
    is_zero = arith.cmpi(arith.CmpIPredicate.eq, b, const(t, 0))
    bad, is_m1 = is_zero, None
    if signed:
        is_m1 = arith.cmpi(arith.CmpIPredicate.eq, b, const(t, -1))
        bad = arith.ori(is_zero, is_m1)
    return arith.select(bad, const(t, 1), b), is_zero, is_m1


def _safe_div(signed: bool) -> Callable[[ir.Value, ir.Value], ir.Value]:
    def fn(a: ir.Value, b: ir.Value) -> ir.Value:
        d, is_zero, is_m1 = _guarded_divisor(b, signed)
        q = (arith.divsi if signed else arith.divui)(a, d)
        zero = const(a.type, 0)
        if is_m1 is not None:
            q = arith.select(is_m1, arith.subi(zero, a), q)
        return arith.select(is_zero, zero, q)

    return fn


def _safe_rem(signed: bool) -> Callable[[ir.Value, ir.Value], ir.Value]:
    def fn(a: ir.Value, b: ir.Value) -> ir.Value:
        d, is_zero, is_m1 = _guarded_divisor(b, signed)
        r = (arith.remsi if signed else arith.remui)(a, d)
        bad = is_zero if is_m1 is None else arith.ori(is_zero, is_m1)
        return arith.select(bad, const(a.type, 0), r)

    return fn


def _safe_ipowi(a: ir.Value, b: ir.Value) -> ir.Value:
    """math.ipowi, except 0 ** negative (a division by zero in its expansion) gives 0."""
    t = a.type
    zero = const(t, 0)
    bad = arith.andi(arith.cmpi(arith.CmpIPredicate.slt, b, zero), arith.cmpi(arith.CmpIPredicate.eq, a, zero))
    p = mmath.ipowi(arith.select(bad, const(t, 1), a), b)
    return arith.select(bad, zero, p)


def _int_mod_floor(a: ir.Value, b: ir.Value) -> ir.Value:
    """a mod b with the sign of the divisor (Python/numpy %) for signed ints."""
    r = _safe_rem(True)(a, b)
    z = const(a.type, 0)
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
        "mod": _safe_rem(True) if attr_bool(op, "fmod", False) else _int_mod_floor,
    }
    U = dict(S, div=_safe_div(False), max=arith.maxui, min=arith.minui, mod=_safe_rem(False))
    B = {"and": arith.andi, "or": arith.ori, "xor": arith.xori}
    bitwise = {"bitwise_and": arith.andi, "bitwise_or": arith.ori, "bitwise_xor": arith.xori}
    if name in bitwise:
        table = {"s": bitwise, "u": bitwise}
    elif name == "bit_shift":
        right = attr_bool(op, "right", False)
        table = {"s": {name: _bit_shift(right, True)}, "u": {name: _bit_shift(right, False)}}
    elif name in F:
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
        k = kind(ts[0])
        if k != kind(ts[1]) or k not in table:
            raise Unsupported(f"element types {ts[0]}, {ts[1]}")
        if name == "pow" and k == "u":
            raise Unsupported("unsigned pow")
        return table[k][name](xs[0], xs[1])

    return body


def _bit_shift(right: bool, signed: bool) -> Callable[[ir.Value, ir.Value], ir.Value]:
    """ONNX BitShift: a shift that is negative or not less than the width gives the sign fill alone
    (-1 for a signed right shift of a negative value, else 0), not LLVM's poison."""

    def fn(a: ir.Value, b: ir.Value) -> ir.Value:
        width = ir.IntegerType(a.type).width
        zero = const(a.type, 0)
        out_of_range = arith.cmpi(arith.CmpIPredicate.uge, b, const(a.type, width))  # negative too
        if right:
            shifted = arith.shrsi(a, b) if signed else arith.shrui(a, b)
            fill = arith.select(arith.cmpi(arith.CmpIPredicate.slt, a, zero), const(a.type, -1), zero) \
                if signed else zero
        else:
            shifted, fill = arith.shli(a, b), zero
        return arith.select(out_of_range, fill, shifted)

    return fn


def _where_body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
    if kind(ts[0]) != "b" or ts[1] != ts[2]:
        raise Unsupported("where operand types")
    return arith.select(xs[0], xs[1], xs[2])


def cast_body(dst: ir.Type) -> Body:
    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        x, src = xs[0], ts[0]
        sk, dk = kind(src), kind(dst)
        dsl = signless(dst)
        if sk == "f" and dk == "f":
            return convert_float(x, dst)
        if dk == "f":
            return (arith.sitofp if sk == "s" else arith.uitofp)(dst, x)
        if sk == "f":
            if dk == "b":
                return arith.cmpf(arith.CmpFPredicate.UNE, x, const(x.type, 0.0))
            return (arith.fptosi if dk == "s" else arith.fptoui)(dsl, x)
        if dk == "b":
            return x if sk == "b" else arith.cmpi(arith.CmpIPredicate.ne, x, const(x.type, 0))
        sw, dw = width(src), width(dst)
        if dw > sw:
            return (arith.extsi if sk == "s" else arith.extui)(dsl, x)
        if dw < sw:
            return arith.trunci(dsl, x)
        return x

    return body




# --------------------------------------------------------------------------
# Registration
# --------------------------------------------------------------------------

UNARY_OPS = (
    "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "relu",
    "leaky_relu", "gelu", "erf", "sin", "cos", "acos", "asin", "atan", "floor", "ceil", "round", "sign", "not",
    "bitwise_not",
    "softplus", "hard_sigmoid", "hard_swish", "silu", "clip",
)
BINARY_OPS = (
    "add", "sub", "mul", "div", "pow", "max", "min", "mod", "and", "or", "xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bit_shift",
    "equal", "less", "less_equal", "greater", "greater_equal",
)


@lowering("constant")
def lower_constant(op: ir.OpView) -> ir.Value | None:
    rt = static_tensor(op.results[0].type)
    if rt is None or signless(rt.element_type) != rt.element_type:
        return None  # arith.constant takes signless integers only
    return arith.constant(op.results[0].type, op.operation.attributes["value"])


@lowering("identity")
def lower_identity(op: ir.OpView) -> ir.Value:
    return op.operands[0]


@lowering("cast")
def lower_cast(op: ir.OpView) -> ir.Value:
    rt = op.results[0].type
    return elementwise([op.operands[0]], rt, cast_body(ir.RankedTensorType(rt).element_type), upcast=False)


def _bitcast_body(dst: ir.Type) -> Body:
    """The same bits as ``dst`` (ONNX BitCast): int <-> int of a width is the value itself, float <->
    int an ``arith.bitcast``; a bool is its byte (0 or 1), a byte as bool is ``!= 0``."""

    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        x, src = xs[0], ts[0]
        sk, dk = kind(src), kind(dst)
        if dk == "b":
            return x if sk == "b" else arith.cmpi(arith.CmpIPredicate.ne, x, const(x.type, 0))
        if sk == "b":
            return arith.extui(signless(dst), x)
        if sk == dk or (sk in "su" and dk in "su"):
            return x
        return arith.bitcast(signless(dst), x)

    return body


@lowering("bitcast")
def lower_bitcast(op: ir.OpView) -> ir.Value:
    rt = op.results[0].type
    return elementwise([op.operands[0]], rt, _bitcast_body(ir.RankedTensorType(rt).element_type), upcast=False)


@lowering("where")
def lower_where(op: ir.OpView) -> ir.Value:
    return elementwise(list(op.operands), op.results[0].type, _where_body, upcast=False)


@lowering(*UNARY_OPS)
def lower_unary(op: ir.OpView) -> ir.Value | None:
    body = _unary_body(op, op.operation.name.removeprefix("ge."))
    return None if body is None else elementwise([op.operands[0]], op.results[0].type, body)


@lowering(*BINARY_OPS)
def lower_binary(op: ir.OpView) -> ir.Value | None:
    body = _binary_body(op, op.operation.name.removeprefix("ge."))
    return None if body is None else elementwise(list(op.operands), op.results[0].type, body)
