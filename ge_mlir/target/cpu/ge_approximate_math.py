"""ge-approximate-math: f32 ``math.exp``, ``math.tanh`` and ``math.erf`` (scalar or vector) as
polynomials in ``arith``, so that loops over them vectorize.

After ``convert-math-to-libm`` these are calls (``expf`` through the ``llvm.exp`` intrinsic,
``tanhf``, ``erff``): LLVM's loop vectorizer cannot widen a libm call without a vector math
library, so a GELU, a softmax or a SiLU ran one element per call (GELU over 128 x 1024 floats:
about 14 ns an element). As ``arith`` the same loops become 8- or 16-lane vector code on every
x86-64 level, with results that do not depend on the CPU (no FMA contraction, no libm version).
onnxruntime's MLAS approximates the same functions the same way.

Accuracy, measured against double precision over dense sweeps (``test_approximate_math.py``):

* ``exp``: Cody-Waite range reduction ``x = n ln2 + r`` (ln2 split in a short high part and a
  low part, so ``n ln2_hi`` is exact), a degree-6 polynomial for ``e^r`` on ``|r| <= ln2/2``
  (Cephes' ``expf`` coefficients), ``2^n`` as two exponent-field scalings so that results just
  below overflow (``n = 128``, ``e^r < 1``) are right: at most 1 ulp above e^-87 (1.6e-38); below, 0 (as with
  flush-to-zero: a denormal result would cost a microcode assist per vector on Intel cores);
  +-inf and NaN kept; overflow gives +inf.
* ``tanh``: ``|x| < 0.625``: the odd polynomial ``x + x^3 P(x^2)`` (Cephes' ``tanhf``), no
  cancellation near 0; else ``sign(x) (1 - 2 / (e^{2|x|} + 1))`` with the ``exp`` above: at
  most 2 ulp.
* ``erf``: ``x (P(x^2) / Q(x^2))`` on ``x`` clamped to ``[-4, 4]`` (erf is 1 to f32 precision
  beyond), the rational minimax form XLA and Eigen use for f32: at most 8 ulp (relative
  error 4.5e-7), exact sign and 0 at 0.

Other element types (f64, and f16/bf16, which the lowering computes in f32 before this pass)
and other math ops keep their libm calls.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir

from ...passes.registry import Option, Pass, PassFailure, register_pass

#: The ops this pass rewrites (the pass option ``ops`` takes a subset).
APPROXIMATED = ("exp", "tanh", "erf")

# e^r on |r| <= ln2/2: 1 + r + r^2 (c0 r^5 + ... + c5) (Cephes expf).
_EXP_POLY = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1,
             5.0000001201e-1)
_LOG2E = 1.44269504088896341
_LN2_HI = 0.693359375  # 9 significant bits: n * _LN2_HI is exact for |n| <= 2^15
_LN2_LO = -2.12194440e-4
# Below _EXP_LOW the result is 0 (e^-87 = 1.6e-38, near the smallest normal float): computing a
# denormal result costs a microcode assist of over a hundred cycles per vector on Intel cores,
# and a causal attention mask (-3.4e38 before the softmax) sends half of a softmax's inputs
# there: 2.3x slower LLaMA-style decoder. Above _EXP_HIGH: +inf.
_EXP_LOW, _EXP_HIGH = -87.0, 88.8
_ROUND_SHIFTER = 12582912.0
# tanh on |x| < 0.625: x + x^3 P(x^2) (Cephes tanhf).
_TANH_POLY = (-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1)
_TANH_SMALL = 0.625
# erf(x) = x P(x^2) / Q(x^2) on [-4, 4].
_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
          -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
          -1.42647390514189e-02)
_ERF_CLAMP = 4.0


@register_pass
class GeApproximateMathPass(Pass):
    name = "ge-approximate-math"
    summary = "Rewrite f32 math.exp/tanh/erf as vectorizable arith polynomials (at most 1/2/8 ulp)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 105
    options = (Option("ops", list, list(APPROXIMATED), "the math ops to approximate (exp, tanh, erf)"),)

    def run(self, module: ir.Operation) -> None:
        names = tuple(self.opt("ops"))
        unknown = sorted(set(names) - set(APPROXIMATED))
        if unknown:
            raise PassFailure(f"ops: unknown {', '.join(unknown)} (known: {', '.join(APPROXIMATED)})")
        with module.context, ir.Location.unknown():
            self.bump("rewrites", approximate_math(module, names))


class _Builder:
    """arith on one f32 shape (a scalar or a vector): constants splat to it."""

    def __init__(self, t: ir.Type) -> None:
        from mlir.dialects import arith

        self.a = arith
        self.t = t
        i32 = ir.IntegerType.get_signless(32)
        self.i32 = ir.VectorType.get(ir.VectorType(t).shape, i32) if isinstance(t, ir.VectorType) else i32

    def _const(self, t: ir.Type, attr: ir.Attribute) -> ir.Value:
        if isinstance(t, ir.VectorType):
            return self.a.constant(t, ir.DenseElementsAttr.get_splat(t, attr))
        return self.a.constant(t, attr)

    def f(self, value: float) -> ir.Value:
        return self._const(self.t, ir.FloatAttr.get(ir.F32Type.get(), value))

    def i(self, value: int) -> ir.Value:
        return self._const(self.i32, ir.IntegerAttr.get(ir.IntegerType.get_signless(32), value))

    def add(self, x, y):
        return self.a.addf(x, y)

    def sub(self, x, y):
        return self.a.subf(x, y)

    def mul(self, x, y):
        return self.a.mulf(x, y)

    def horner(self, x: ir.Value, coeffs: tuple[float, ...]) -> ir.Value:
        acc = self.f(coeffs[0])
        for c in coeffs[1:]:
            acc = self.add(self.mul(acc, x), self.f(c))
        return acc

    def clamp(self, x: ir.Value, low: float, high: float) -> ir.Value:
        # minnumf/maxnumf: a NaN input gives a number here; callers select NaN back at the end.
        return self.a.minnumf(self.a.maxnumf(x, self.f(low)), self.f(high))

    def select_nan(self, x: ir.Value, value: ir.Value) -> ir.Value:
        return self.a.select(self.a.cmpf(self.a.CmpFPredicate.UNO, x, x), x, value)


def _exp(b: _Builder, x: ir.Value) -> ir.Value:
    xc = b.clamp(x, _EXP_LOW, _EXP_HIGH)
    # Round to nearest even by adding and subtracting 1.5 * 2^23 (|x log2e| < 2^22): no rounding
    # instruction, which baseline x86-64 (SSE2) lacks and would call libm for.
    shifter = b.f(_ROUND_SHIFTER)
    n = b.sub(b.add(b.mul(xc, b.f(_LOG2E)), shifter), shifter)
    r = b.sub(b.sub(xc, b.mul(n, b.f(_LN2_HI))), b.mul(n, b.f(_LN2_LO)))
    p = b.add(b.add(b.mul(b.mul(b.horner(r, _EXP_POLY), r), r), r), b.f(1.0))
    # 2^n as two factors 2^(n>>1) * 2^(n - n>>1): each a valid exponent field for n in [-126, 128].
    ni = b.a.fptosi(b.i32, n)
    n1 = b.a.shrsi(ni, b.i(1))
    n2 = b.a.subi(ni, n1)

    def pow2(k: ir.Value) -> ir.Value:
        return b.a.bitcast(b.t, b.a.shli(b.a.addi(k, b.i(127)), b.i(23)))

    # From x >= -87, n >= -126 and r > 0.33, so p 2^n is a normal float: no denormal is computed.
    value = b.mul(b.mul(p, pow2(n1)), pow2(n2))
    value = b.a.select(b.a.cmpf(b.a.CmpFPredicate.OLT, x, b.f(_EXP_LOW)), b.f(0.0), value)
    return b.select_nan(x, value)


def _tanh(b: _Builder, x: ir.Value) -> ir.Value:
    from mlir.dialects import math as _math

    ax = _math.absf(x)
    z = b.mul(x, x)
    small = b.add(b.mul(b.mul(b.horner(z, _TANH_POLY), z), x), x)
    e = _exp(b, b.add(ax, ax))
    large = b.sub(b.f(1.0), b.a.divf(b.f(2.0), b.add(e, b.f(1.0))))
    is_small = b.a.cmpf(b.a.CmpFPredicate.OLT, ax, b.f(_TANH_SMALL))
    # tanh is odd: the sign of x, -0 included (the polynomial's x + (+0) would give +0).
    return _math.copysign(b.a.select(is_small, small, large), x)


def _erf(b: _Builder, x: ir.Value) -> ir.Value:
    xc = b.clamp(x, -_ERF_CLAMP, _ERF_CLAMP)
    z = b.mul(xc, xc)
    # x (P / Q), not (x P) / Q: x P is a denormal for tiny x and loses the digits.
    value = b.mul(xc, b.a.divf(b.horner(z, _ERF_P), b.horner(z, _ERF_Q)))
    return b.select_nan(x, value)


_REWRITES: dict[str, Callable[[_Builder, ir.Value], ir.Value]] = {"exp": _exp, "tanh": _tanh, "erf": _erf}


def approximate_math(module: ir.Operation, names: tuple[str, ...] = APPROXIMATED) -> int:
    """Rewrites the f32 ``math.<name>`` ops of ``names`` under ``module``; returns how many."""
    wanted = {f"math.{n}": _REWRITES[n] for n in names}
    found: list[ir.Operation] = []

    def collect(o: ir.Operation) -> ir.WalkResult:
        if o.name in wanted:
            t = o.results[0].type
            elem = ir.VectorType(t).element_type if isinstance(t, ir.VectorType) else t
            if isinstance(elem, ir.F32Type):
                found.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(collect, ir.WalkOrder.PRE_ORDER)
    for op in found:
        with op.location, ir.InsertionPoint(op):
            out = wanted[op.name](_Builder(op.results[0].type), op.operands[0])
        op.results[0].replace_all_uses_with(out)
        op.erase()
    return len(found)
