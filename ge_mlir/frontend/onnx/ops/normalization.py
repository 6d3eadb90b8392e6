"""Normalization ONNX ops: BatchNormalization, InstanceNormalization,
LayerNormalization, RMSNormalization, GroupNormalization, LpNormalization and
MeanVarianceNormalization.

Outputs that ge cannot produce (training-mode BatchNormalization statistics)
are refused only when something consumes them; LayerNormalization with its
Mean/InvStdDev outputs is decomposed.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from ..registry import converter, mlir_element_of
from ._shapes import _cast, _f32, _no_extra_outputs, _norm_axis, _reshape, _scalar, _shape_of


def _param(ctx, i: int, elem: ir.Type) -> ir.Value | None:
    """Input ``i`` with element type ``elem``: constants are converted at import
    time (keeping their name), other values get a ge.cast."""
    c = ctx.const(i)
    if c is not None and mlir_element_of(np.asarray(c)) != elem:
        return ctx.constant(c, elem, name=ctx.node.input[i])
    v = ctx.input(i)
    return None if v is None else _cast(v, elem)


@converter("BatchNormalization", since=7, notes="inference form only")
def batch_norm(ctx):
    if ctx.opset < 9 and ctx.attr("spatial", 1) == 0:
        ctx.refuse("spatial=0 (per-activation statistics) has no ge equivalent; ge.batch_norm is per channel")
    if ctx.attr("training_mode", 0):
        ctx.refuse(
            "training_mode=1 normalizes with the batch's own statistics and updates running ones; "
            "ge.batch_norm is the inference form (export the model in eval mode)"
        )
    used = [i for i in range(1, ctx.num_outputs) if ctx.output_used(i)]
    if used:
        names = ", ".join(repr(ctx.node.output[i]) for i in used)
        ctx.refuse(
            f"the statistics outputs ({names}) are used; they exist only in training mode and "
            "ge.batch_norm is the inference form"
        )
    if ctx.rank(0) < 2:
        ctx.refuse(f"input must have rank >= 2, got {ctx.rank(0)}")
    elem = ctx.elem(0)
    params = [_param(ctx, i, elem) for i in range(1, 5)]
    y = ge.batch_norm(ctx.input(0), *params, epsilon=_f32(ctx.attr("epsilon", 1e-5)))
    return _no_extra_outputs([y], ctx)


@converter("InstanceNormalization", since=6)
def instance_norm(ctx):
    if ctx.rank(0) < 3:
        ctx.refuse(f"input must have rank >= 3, got {ctx.rank(0)}")
    return ge.instance_norm(ctx.input(0), ctx.input(1), ctx.input(2), epsilon=_f32(ctx.attr("epsilon", 1e-5)))


_LOW_PRECISION = ("f16", "bf16")


def _stash(ctx, x: ir.Value) -> ir.Type | None:
    """The f32 compute type when stash_type=1 asks for more precision than x has."""
    if ctx.attr("stash_type", 1) == 1 and str(x.type.element_type) in _LOW_PRECISION:
        return ir.F32Type.get()
    return None


def _trailing_param(ctx, v: ir.Value | None, norm_rank: int, what: str) -> ir.Value | None:
    """Drops leading size-1 dims so that ``v`` broadcasts to the normalized dims."""
    if v is None or v.type.rank <= norm_rank:
        return v
    shape = _shape_of(v)
    lead = shape[: len(shape) - norm_rank]
    if any(d != 1 for d in lead):
        ctx.refuse(
            f"{what} of shape {shape} varies over non-normalized dims; ge scales only the normalized "
            f"(last {norm_rank}) dims"
        )
    return _reshape(v, shape[len(shape) - norm_rank:])


def _last_axes_norm(ctx, scale_name: str):
    """The common start of LayerNormalization and RMSNormalization:
    (x, its element type, the compute type, the ONNX axis, the normalized rank, scale)."""
    x = ctx.input(0)
    rank = ctx.rank(0)
    onnx_axis = int(ctx.attr("axis", -1))
    norm_rank = rank - _norm_axis(ctx, onnx_axis, rank)
    # stash_type=1 on f16/bf16: normalize in f32 (scale and bias are applied there too).
    elem = x.type.element_type
    cw = _stash(ctx, x) or elem
    scale = _trailing_param(ctx, _param(ctx, 1, cw), norm_rank, scale_name)
    return x, elem, cw, onnx_axis, norm_rank, scale


@converter("LayerNormalization", since=17, notes="decomposed when the Mean/InvStdDev outputs are used")
def layer_norm(ctx):
    x, elem, cw, onnx_axis, norm_rank, scale = _last_axes_norm(ctx, "Scale")
    bias = _trailing_param(ctx, _param(ctx, 2, cw), norm_rank, "B")
    if ctx.output_used(1) or ctx.output_used(2):
        # ge.layer_norm computes only Y: spell out the statistics (in the
        # stash type, keepdims shapes, as ONNX defines Mean and InvStdDev).
        rank = ctx.rank(0)
        axes = list(range(rank - norm_rank, rank))
        xw = _cast(x, cw)
        mean = ge.reduce_mean(xw, axes=axes, keepdims=True)
        d = ge.sub(xw, mean)
        var = ge.reduce_mean(ge.mul(d, d), axes=axes, keepdims=True)
        inv = ge.rsqrt(ge.add(var, _scalar(ctx.attr("epsilon", 1e-5), cw, ctx)))
        y = ge.mul(ge.mul(d, inv), scale)
        if bias is not None:
            y = ge.add(y, bias)
        return _no_extra_outputs([_cast(y, elem), mean, inv], ctx)
    y = ge.layer_norm(_cast(x, cw), scale, bias=bias, axis=onnx_axis, epsilon=_f32(ctx.attr("epsilon", 1e-5)))
    return _no_extra_outputs([_cast(y, elem)], ctx)


@converter("RMSNormalization", since=23)
def rms_norm(ctx):
    x, elem, cw, onnx_axis, _, scale = _last_axes_norm(ctx, "scale")
    y = ge.rms_norm(_cast(x, cw), scale, axis=onnx_axis, epsilon=_f32(ctx.attr("epsilon", 1e-5)))
    return _cast(y, elem)


@converter("GroupNormalization", since=18, notes="decomposed; opset 18: per-group scale/bias, 21: per-channel")
def group_norm(ctx):
    x = ctx.input(0)
    shape = ctx.shape(0)
    if len(shape) < 3:
        ctx.refuse(f"input must have rank >= 3, got {len(shape)}")
    if any(d < 0 for d in shape[1:]):
        ctx.refuse(f"the channel and spatial dims must be static, got {shape}")
    groups = int(ctx.attr("num_groups"))
    n, c = shape[0], shape[1]
    if groups <= 0 or c % groups:
        ctx.invalid(f"num_groups {groups} must divide the {c} channels")
    elem = x.type.element_type
    wide = _stash(ctx, x) if ctx.opset >= 21 else None
    cw = elem if wide is None else wide
    grouped = _reshape(_cast(x, cw), [n, groups, int(np.prod(shape[1:])) // groups])
    mean = ge.reduce_mean(grouped, axes=[2], keepdims=True)
    d = ge.sub(grouped, mean)
    var = ge.reduce_mean(ge.mul(d, d), axes=[2], keepdims=True)
    norm = ge.mul(d, ge.rsqrt(ge.add(var, _scalar(ctx.attr("epsilon", 1e-5), cw, ctx))))
    norm = _cast(norm, elem)
    if ctx.opset < 21:
        # Opset 18: scale and bias hold one value per group.
        scale, bias = _reshape(ctx.input(1), [groups, 1]), _reshape(ctx.input(2), [groups, 1])
        return _reshape(ge.add(ge.mul(norm, scale), bias), shape)
    y = _reshape(norm, shape)
    pshape = [c] + [1] * (len(shape) - 2)
    return ge.add(ge.mul(y, _reshape(ctx.input(1), pshape)), _reshape(ctx.input(2), pshape))


@converter("LpNormalization", notes="p = 1 or 2")
def lp_norm(ctx):
    x = ctx.input(0)
    axis = _norm_axis(ctx, int(ctx.attr("axis", -1)), ctx.rank(0))
    p = int(ctx.attr("p", 2))
    if p == 2:
        norm = ge.reduce_l2(x, axes=[axis], keepdims=True)
    elif p == 1:
        norm = ge.reduce_sum(ge.abs(x), axes=[axis], keepdims=True)
    else:
        ctx.invalid(f"p={p} is not supported (ONNX allows only 1 and 2)")
    # A zero vector stays zero (the ONNX reference gives 0, not 0 / 0 = NaN).
    elem = x.type.element_type
    zero, one = _scalar(0.0, elem, ctx), _scalar(1.0, elem, ctx)
    return ge.div(x, ge.where(ge.equal(norm, zero), one, norm))


@converter("MeanVarianceNormalization", since=9)
def mean_variance_norm(ctx):
    # The ONNX function body: (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9).
    x = ctx.input(0)
    rank = ctx.rank(0)
    axes = sorted(_norm_axis(ctx, int(a), rank, "axes value") for a in (ctx.attr("axes", None) or [0, 2, 3]))
    mean = ge.reduce_mean(x, axes=axes, keepdims=True)
    mean_sq = ge.reduce_mean(ge.mul(x, x), axes=axes, keepdims=True)
    std = ge.sqrt(ge.sub(mean_sq, ge.mul(mean, mean)))
    return ge.div(ge.sub(x, mean), ge.add(std, ctx.scalar_like(1e-9)))
