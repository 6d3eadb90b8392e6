"""ge-fuse-layer-norm: recognize decomposed layer norm (and RMS norm, erf GELU) subgraphs.

Layer norm, over trailing axes ``A = [axis, rank)``::

    m  = reduce_mean(x, A, keepdims)      d  = sub(x, m)
    v  = reduce_mean(mul(d, d) | pow(d, 2), A, keepdims)
    n  = div(d, sqrt(add(v, eps)))  |  mul(d, rsqrt(add(v, eps)))
    y  = n [* scale] [+ bias]

becomes ``ge.layer_norm(x, scale, bias) {axis, epsilon}`` in three steps (so
partial forms fuse too): the normalization alone becomes
``layer_norm(x, ones)``; a following ``mul`` by a value broadcasting over
the normalized axes only becomes its scale; a following ``add`` becomes its
bias. ``eps`` must be a splat constant; every intermediate value must have no
other user; the axes must be the trailing ones.

RMS norm (option ``rms-norm``)::

    r = x / sqrt(mean(x^2 | x*x, A, keepdims) + eps)  |  x * rsqrt(...)  |  x * reciprocal(sqrt(...))
    y = r [* w]

becomes ``ge.rms_norm(x, w) {axis, epsilon}`` in two steps (the normalization, then its scale),
under the same conditions (LLaMA-style decoders as torch exports them: Pow, ReduceMean, Add,
Sqrt, Reciprocal, Mul, Mul).

GELU (option ``gelu``): ``x * 0.5 * (1 + erf(x / sqrt(2)))`` in any
association of the three factors (``x / sqrt 2`` or ``x * (1/sqrt 2)``)
becomes ``ge.gelu(x)`` (erf form).
"""

from __future__ import annotations

import math

import numpy as np
from mlir import ir
from mlir.rewrite import PatternRewriter

from ..irutils.attrs import attr_ints
from ..irutils.constants import constant_array, make_constant, tensor_type
from ..irutils.patterns import defining_op, single_use
from ..passes.fusion import FusionPass, FusionPattern
from ..passes.registry import Option, register_pass


def _op(v: ir.Value, name: str) -> ir.Operation | None:
    op = defining_op(v)
    return op if op is not None and op.name == name else None


def _splat(v: ir.Value) -> float | None:
    arr = constant_array(v)
    if arr is None or arr.size == 0:
        return None
    flat = arr.reshape(-1)
    return float(flat[0]) if np.all(flat == flat[0]) else None


def _uses(v: ir.Value) -> int:
    return sum(1 for _ in v.uses)


def _other(op: ir.Operation, v: ir.Value) -> ir.Value | None:
    a, b = op.operands
    return b if a == v else a if b == v else None


def _trailing_axes(red: ir.Operation, rank: int) -> int | None:
    """First axis when ``red`` is a keepdims reduce over [axis, rank)."""
    if "keepdims" in red.attributes and not ir.BoolAttr(red.attributes["keepdims"]).value:
        return None
    axes = sorted(a % rank for a in (attr_ints(red, "axes", None) or range(rank)))
    if not axes or axes != list(range(axes[0], rank)):
        return None
    return axes[0]


def _match_norm(op: ir.Operation):
    """(x, axis, eps) when ``op`` is the normalization ``d / sqrt(v + eps)``."""
    if op.name == "ge.div":
        d, den = op.operands
        s = _op(den, "ge.sqrt")
        if s is None or not single_use(s.results[0]):
            return None
    elif op.name == "ge.mul":
        for d, den in ((op.operands[0], op.operands[1]), (op.operands[1], op.operands[0])):
            s = _op(den, "ge.rsqrt")
            if s is not None and single_use(s.results[0]):
                break
        else:
            return None
    else:
        return None
    sub = _op(d, "ge.sub")
    add = _op(s.operands[0], "ge.add")
    if sub is None or add is None or not single_use(add.results[0]):
        return None
    x, mean = sub.operands
    m = _op(mean, "ge.reduce_mean")
    if m is None or m.operands[0] != x or not single_use(m.results[0]):
        return None
    x_t = tensor_type(x)
    if x_t is None or str(x_t.element_type) not in ("f16", "bf16", "f32", "f64") or d.type != x.type:
        return None
    axis = _trailing_axes(m, x_t.rank)
    if axis is None:
        return None
    for var_v in add.operands:
        var = _op(var_v, "ge.reduce_mean")
        if var is None or not single_use(var.results[0]) or _trailing_axes(var, x_t.rank) != axis:
            continue
        eps = _splat(_other(add, var_v))
        if eps is None or not eps > 0:
            return None
        sq = defining_op(var.operands[0])
        if sq is None or not single_use(sq.results[0]):
            return None
        if sq.name == "ge.mul" and sq.operands[0] == d and sq.operands[1] == d:
            d_uses = 3
        elif sq.name == "ge.pow" and sq.operands[0] == d and _splat(sq.operands[1]) == 2.0:
            d_uses = 2
        else:
            return None
        if _uses(d) != d_uses:
            return None
        return x, axis, eps
    return None


def _ln_parts(ln: ir.Operation):
    """(x, scale, bias, axis, eps) of a layer_norm."""
    x, scale = ln.operands[0], ln.operands[1]
    bias = ln.operands[2] if len(ln.operands) == 3 else None
    rank = ir.RankedTensorType(x.type).rank
    axis = ir.IntegerAttr(ln.attributes["axis"]).value if "axis" in ln.attributes else -1
    return x, scale, bias, axis % rank, ir.FloatAttr(ln.attributes["epsilon"]).value


def _param_shape(v: ir.Value, x_t: ir.RankedTensorType, axis: int) -> list[int] | None:
    """The normalized shape ``v`` must be reshaped to when it broadcasts over the trailing
    axes only ([]: usable as is), or None when it does not."""
    t = tensor_type(v)
    if t is None or t.element_type != x_t.element_type or t.rank > x_t.rank:
        return None
    full = [1] * (x_t.rank - t.rank) + list(t.shape)
    if any(d != 1 for d in full[:axis]):
        return None
    norm = list(x_t.shape[axis:])
    if any(a not in (1, b) for a, b in zip(full[axis:], norm)):
        return None
    want = full[axis:]
    if list(t.shape) == want or t.rank <= len(norm):
        return []
    return want


def _as_normalized_shape(param: ir.Value, want: list[int]) -> ir.Value:
    """``param`` reshaped to ``want`` (from :func:`_param_shape`; [] keeps it as is)."""
    if not want:
        return param
    from ..dialects import ge

    elem = ir.RankedTensorType(param.type).element_type
    return ge.ReshapeOp(ir.RankedTensorType.get(want, elem), param).result


def _build_layer_norm(x, scale, bias, axis, eps):
    from ..dialects import ge

    # Negative axis (-1 is the default and prints as nothing).
    axis -= ir.RankedTensorType(x.type).rank
    attrs = {"axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis),
             "epsilon": ir.FloatAttr.get(ir.F32Type.get(), eps)}
    return ge.LayerNormOp(x, scale, bias=bias, axis=attrs["axis"], epsilon=attrs["epsilon"])


def _replace_with_unit_norm(root: ir.Operation, rewriter: PatternRewriter, x: ir.Value, axis: int, name: str,
                            build) -> None:
    """Replaces ``root`` by ``build(ones)``: a norm of ``x`` over ``[axis, rank)`` with a unit scale
    (a following per-feature mul then becomes its scale)."""
    x_t = ir.RankedTensorType(x.type)
    with rewriter.ip, root.location:
        ones = make_constant(np.ones(x_t.shape[axis:]), x_t.element_type, name, root.location)
        new = build(ones)
    rewriter.replace_op(root, new.operation)


class _LayerNormPattern(FusionPattern):
    def enabled(self) -> bool:
        return self.pass_.opt("layer-norm")


class FuseNorm(_LayerNormPattern):
    """The normalization ``d / sqrt(v + eps)`` (or ``d * rsqrt(v + eps)``) -> ``layer_norm(x, ones)``."""

    root = ("ge.div", "ge.mul")
    # On ge.mul, tried before the scale and GELU patterns.
    benefit = 2
    counter = "layer-norm-fused"

    def match(self, op: ir.OpView):
        return _match_norm(op.operation)

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> None:
        x, axis, eps = data
        _replace_with_unit_norm(op.operation, rewriter, x, axis, "ln_scale",
                                lambda ones: _build_layer_norm(x, ones, None, axis, eps))


class FuseLayerNormScale(_LayerNormPattern):
    """``layer_norm(x, ones) * s`` -> ``layer_norm(x, s)``."""

    root = "ge.mul"
    counter = "layer-norm-scale-fused"
    into_bias = False

    def match(self, op: ir.OpView):
        root = op.operation
        for i in (0, 1):
            ln = _op(root.operands[i], "ge.layer_norm")
            if ln is None or not self.has_one_use(ln.results[0]) or root.results[0].type != ln.results[0].type:
                continue
            x, scale, bias, axis, eps = _ln_parts(ln)
            if bias is not None or (not self.into_bias and _splat(scale) != 1.0):
                continue
            param = root.operands[1 - i]
            want = _param_shape(param, ir.RankedTensorType(x.type), axis)
            if want is not None:
                return x, scale, param, want, axis, eps
        return None

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> None:
        x, scale, param, want, axis, eps = data
        root = op.operation
        with rewriter.ip, root.location:
            param = _as_normalized_shape(param, want)
            if self.into_bias:
                new = _build_layer_norm(x, scale, param, axis, eps)
            else:
                new = _build_layer_norm(x, param, None, axis, eps)
        rewriter.replace_op(root, new.operation)


class FuseLayerNormBias(FuseLayerNormScale):
    """``layer_norm(x, s) + b`` -> ``layer_norm(x, s, b)``."""

    root = "ge.add"
    counter = "layer-norm-bias-fused"
    into_bias = True


# --------------------------------------------------------------------------
# RMS norm
# --------------------------------------------------------------------------


def _inverse_sqrt_arg(op: ir.Operation, x: ir.Value) -> ir.Value | None:
    """a when ``op`` is ``x * reciprocal(sqrt(a))``, ``x * rsqrt(a)`` or ``x / sqrt(a)`` (single-use chain)."""
    if op.name == "ge.div":
        if op.operands[0] != x:
            return None
        s = _op(op.operands[1], "ge.sqrt")
        return s.operands[0] if s is not None and single_use(s.results[0]) else None
    den = _other(op, x)
    if den is None or not single_use(den):
        return None
    r = _op(den, "ge.rsqrt")
    if r is not None:
        return r.operands[0]
    rec = _op(den, "ge.reciprocal")
    s = _op(rec.operands[0], "ge.sqrt") if rec is not None else None
    return s.operands[0] if s is not None and single_use(s.results[0]) else None


def _match_rms(op: ir.Operation):
    """(x, axis, eps) when ``op`` is ``x / sqrt(mean(x^2) + eps)`` in one of its spellings."""
    if op.name not in ("ge.mul", "ge.div"):
        return None
    for x in (op.operands if op.name == "ge.mul" else op.operands[:1]):
        x_t = tensor_type(x)
        if x_t is None or str(x_t.element_type) not in ("f16", "bf16", "f32", "f64") or op.results[0].type != x.type:
            continue
        a = _inverse_sqrt_arg(op, x)
        add = _op(a, "ge.add") if a is not None else None
        if add is None or not single_use(add.results[0]):
            continue
        for var_v in add.operands:
            var = _op(var_v, "ge.reduce_mean")
            if var is None or not single_use(var_v):
                continue
            axis = _trailing_axes(var, x_t.rank)
            eps = _splat(_other(add, var_v))
            sq = defining_op(var.operands[0])
            if axis is None or eps is None or not eps > 0 or sq is None or not single_use(sq.results[0]):
                continue
            if (sq.name == "ge.mul" and sq.operands[0] == x and sq.operands[1] == x) or (
                    sq.name == "ge.pow" and sq.operands[0] == x and _splat(sq.operands[1]) == 2.0):
                return x, axis, eps
    return None


def _build_rms_norm(x, scale, axis, eps):
    from ..dialects import ge

    axis -= ir.RankedTensorType(x.type).rank
    return ge.RmsNormOp(x, scale, axis=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis),
                        epsilon=ir.FloatAttr.get(ir.F32Type.get(), eps))


class _RmsNormPattern(FusionPattern):
    def enabled(self) -> bool:
        return self.pass_.opt("rms-norm")


class FuseRmsNorm(_RmsNormPattern):
    """``x / sqrt(mean(x^2) + eps)`` (or ``x * rsqrt(...)``, ``x * reciprocal(sqrt(...))``) ->
    ``rms_norm(x, ones)``."""

    root = ("ge.div", "ge.mul")
    benefit = 2
    counter = "rms-norm-fused"

    def match(self, op: ir.OpView):
        return _match_rms(op.operation)

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> None:
        x, axis, eps = data
        _replace_with_unit_norm(op.operation, rewriter, x, axis, "rms_scale",
                                lambda ones: _build_rms_norm(x, ones, axis, eps))


class FuseRmsNormScale(_RmsNormPattern):
    """``rms_norm(x, ones) * w`` -> ``rms_norm(x, w)``."""

    root = "ge.mul"
    counter = "rms-norm-scale-fused"

    def match(self, op: ir.OpView):
        root = op.operation
        for i in (0, 1):
            rms = _op(root.operands[i], "ge.rms_norm")
            if rms is None or not self.has_one_use(rms.results[0]) or root.results[0].type != rms.results[0].type:
                continue
            x, scale = rms.operands
            if _splat(scale) != 1.0:
                continue
            rank = ir.RankedTensorType(x.type).rank
            axis = (ir.IntegerAttr(rms.attributes["axis"]).value if "axis" in rms.attributes else -1) % rank
            param = root.operands[1 - i]
            want = _param_shape(param, ir.RankedTensorType(x.type), axis)
            if want is not None:
                return x, param, want, axis, ir.FloatAttr(rms.attributes["epsilon"]).value
        return None

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> None:
        x, param, want, axis, eps = data
        root = op.operation
        with rewriter.ip, root.location:
            new = _build_rms_norm(x, _as_normalized_shape(param, want), axis, eps)
        rewriter.replace_op(root, new.operation)


# --------------------------------------------------------------------------
# GELU
# --------------------------------------------------------------------------


def _mul_leaves(v: ir.Value, depth: int, top: bool) -> list[tuple[ir.Value, ir.Operation | None]]:
    """Factors of a product tree of single-use ge.mul ops."""
    op = defining_op(v)
    if depth > 0 and op is not None and op.name == "ge.mul" and (top or single_use(v)):
        return _mul_leaves(op.operands[0], depth - 1, False) + _mul_leaves(op.operands[1], depth - 1, False)
    return [(v, op)]


def _erf_arg(one_plus: ir.Value) -> ir.Value | None:
    """x when ``one_plus`` is ``1 + erf(x / sqrt 2)`` (single-use chain)."""
    add = _op(one_plus, "ge.add")
    if add is None or not single_use(one_plus):
        return None
    for erf_v in add.operands:
        erf = _op(erf_v, "ge.erf")
        if erf is None or not single_use(erf_v) or _splat(_other(add, erf_v)) != 1.0:
            continue
        scaled = defining_op(erf.operands[0])
        if scaled is None or not single_use(erf.operands[0]):
            return None
        a, b = scaled.operands
        if scaled.name == "ge.div":
            c = _splat(b)
            return a if c is not None and math.isclose(c, math.sqrt(2.0), rel_tol=1e-6) else None
        if scaled.name == "ge.mul":
            for x, k in ((a, b), (b, a)):
                c = _splat(k)
                if c is not None and math.isclose(c, 1.0 / math.sqrt(2.0), rel_tol=1e-6):
                    return x
        return None
    return None


class FuseGelu(FusionPattern):
    """``x * 0.5 * (1 + erf(x / sqrt 2))`` -> ``ge.gelu(x)``."""

    root = "ge.mul"
    counter = "gelu-fused"

    def enabled(self) -> bool:
        return self.pass_.opt("gelu")

    def match(self, op: ir.OpView):
        root = op.operation
        leaves = _mul_leaves(root.results[0], 2, True)
        if len(leaves) != 3:
            return None
        for k, (half, _) in enumerate(leaves):
            if _splat(half) != 0.5:
                continue
            rest = [lv for j, lv in enumerate(leaves) if j != k]
            for (x, _), (p, _) in (rest, rest[::-1]):
                arg = _erf_arg(p)
                if arg is not None and arg == x and x.type == root.results[0].type:
                    return x
        return None

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, x: ir.Value) -> None:
        from ..dialects import ge

        root = op.operation
        with rewriter.ip, root.location:
            g = ge.GeluOp(x)
        rewriter.replace_op(root, g.operation)


@register_pass
class GeFuseLayerNormPass(FusionPass):
    name = "ge-fuse-layer-norm"
    summary = "Recognize decomposed layer norm, RMS norm and erf GELU subgraphs as ge.layer_norm / ge.rms_norm / ge.gelu"
    description = __doc__
    priority = 5
    # The order the patterns are tried in among equal benefits on ge.mul (scale before GELU).
    patterns = (FuseNorm, FuseLayerNormScale, FuseLayerNormBias, FuseRmsNorm, FuseRmsNormScale, FuseGelu)
    options = (
        Option("layer-norm", bool, True, "fuse decomposed layer norms"),
        Option("rms-norm", bool, True, "fuse decomposed RMS norms (x / sqrt(mean(x^2) + eps) [* w])"),
        Option("gelu", bool, True, "fuse x * 0.5 * (1 + erf(x / sqrt 2)) into ge.gelu"),
    )
