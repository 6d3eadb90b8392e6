"""The softmax family of ONNX ops (Softmax, LogSoftmax, Hardmax) and the losses
built on it (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from ..registry import converter
from ._shapes import _no_extra_outputs, _norm_axis, _scalar, _shape_of


def _coerced_2d(ctx, fn):
    """Opset < 13 semantics: flatten to 2-D at ``axis``, apply over the last
    axis, reshape back (same as per-axis only when axis is the last one)."""
    x = ctx.input(0)
    rank = ctx.rank(0)
    if rank < 1:
        ctx.refuse("input must have rank >= 1")
    axis = _norm_axis(ctx, int(ctx.attr("axis", 1)), rank)
    if axis == rank - 1:
        return fn(x, -1)
    flat = ge.flatten(x, axis=axis)
    return ge.reshape(x.type, fn(flat, -1))


@converter("Softmax", "LogSoftmax", notes="opset < 13: coerced to 2-D at axis")
def softmax(ctx):
    op = ge.softmax if ctx.op_type == "Softmax" else ge.log_softmax
    if ctx.opset < 13:
        return _coerced_2d(ctx, lambda v, a: op(v, axis=a))
    axis = int(ctx.attr("axis", -1))
    _norm_axis(ctx, axis, ctx.rank(0))
    return op(ctx.input(0), axis=axis)


def _hardmax(ctx, v: ir.Value, axis: int) -> ir.Value:
    shape = _shape_of(v)
    a = axis + len(shape) if axis < 0 else axis
    depth = shape[a]
    if depth < 0:
        ctx.refuse(f"the reduced dimension {a} must be static, got {shape}")
    idx = ge.argmax(v, a, keepdims=False)
    return ge.one_hot(v.type, idx, depth, on_value=1.0, off_value=0.0, axis=a)


@converter("Hardmax", notes="argmax + one_hot; opset < 13: coerced to 2-D at axis")
def hardmax(ctx):
    if ctx.opset < 13:
        return _coerced_2d(ctx, lambda v, a: _hardmax(ctx, v, a))
    axis = _norm_axis(ctx, int(ctx.attr("axis", -1)), ctx.rank(0))
    return _hardmax(ctx, ctx.input(0), axis)


# --- losses --------------------------------------------------------------------


def _nll(ctx, logp: ir.Value, target: ir.Value, weight: ir.Value | None) -> ir.Value:
    """NegativeLogLikelihoodLoss of ``logp`` [N, C, d...] at int ``target`` [N, d...],
    decomposed: gather_elements on the class axis, weights and ignore_index as
    multipliers, then the reduction (mean divides by the summed weights)."""
    elem = logp.type.element_type
    rank = _shape_of(target).__len__()
    ignore = ctx.attr("ignore_index", None)
    idx_elem = target.type.element_type
    safe = target
    mask = None
    if ignore is not None:
        ignored = ge.equal(target, ctx.constant(np.array(int(ignore)), idx_elem))
        # An ignored target may be out of range: gather at class 0 instead.
        safe = ge.where(ignored, ctx.constant(np.array(0), idx_elem), target)
        mask = ge.where(ignored, _scalar(0.0, elem, ctx), _scalar(1.0, elem, ctx))
    picked = ge.squeeze(ge.gather_elements(logp, ge.unsqueeze(safe, [1]), axis=1), axes=[1])
    w = ge.gather(weight, safe, axis=0) if weight is not None else None
    if mask is not None:
        w = mask if w is None else ge.mul(w, mask)
    loss = ge.neg(picked) if w is None else ge.neg(ge.mul(picked, w))
    reduction = ctx.attr("reduction", "mean")
    reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
    if reduction == "none":
        return loss
    axes = list(range(rank))
    total = ge.reduce_sum(loss, axes=axes, keepdims=False)
    if reduction == "sum":
        return total
    if reduction != "mean":
        ctx.invalid(f"reduction {reduction!r} is not one of none, sum, mean")
    if w is None:
        count = int(np.prod(_shape_of(target)))
        if count <= 0:
            ctx.refuse("the target's shape must be static for reduction='mean'")
        return ge.div(total, _scalar(float(count), elem, ctx))
    return ge.div(total, ge.reduce_sum(w, axes=axes, keepdims=False))


@converter("NegativeLogLikelihoodLoss", since=12, notes="decomposed (gather_elements, weights, reductions)")
def nll_loss(ctx):
    if ctx.rank(0) < 2:
        ctx.refuse(f"input must have rank >= 2, got {ctx.rank(0)}")
    weight = ctx.input(2) if ctx.has_input(2) else None
    return _nll(ctx, ctx.input(0), ctx.input(1), weight)


@converter("SoftmaxCrossEntropyLoss", since=12, notes="log_softmax over the class axis + the NLL decomposition")
def softmax_cross_entropy_loss(ctx):
    if ctx.rank(0) < 2:
        ctx.refuse(f"scores must have rank >= 2, got {ctx.rank(0)}")
    logp = ge.log_softmax(ctx.input(0), axis=1)
    weight = ctx.input(2) if ctx.has_input(2) else None
    loss = _nll(ctx, logp, ctx.input(1), weight)
    return _no_extra_outputs([loss, logp], ctx)
