"""Neural-network ONNX ops: convolutions, pooling, normalizations,
contractions (MatMul, Gemm, Einsum), softmax-like ops and Resize/Upsample.

Conventions shared by the converters below:

* ONNX ``pads`` are ``[x1_begin, x2_begin, ..., x1_end, x2_end, ...]``, which
  for two spatial dims is exactly ge's ``[top, left, bottom, right]``.
* ``auto_pad`` (SAME_UPPER / SAME_LOWER / VALID) is turned into explicit pads
  from the static input shape; a dynamic spatial dim is refused.
* 1-D convolutions and poolings ``[N, C, W]`` run as 2-D ones on
  ``[N, C, 1, W]`` (``ge.unsqueeze`` before, ``ge.squeeze`` after); 3-D ones
  (5-D inputs) are refused: ge has 2-D ops only.
* Pooling ceil_mode follows the ONNX spec, as ge does: windows that would
  start in the end padding are dropped. (ONNX shape inference in onnx 1.23
  still counts them; onnxruntime and the reference implementation do not.)
* Outputs that ge cannot produce (MaxPool's Indices, training-mode
  BatchNormalization statistics) are refused only when something consumes
  them; LayerNormalization with its Mean/InvStdDev outputs is decomposed.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter, mlir_element_of, numpy_dtype
from ._shapes import (
    _cast, _is_float, _kernel, _no_extra_outputs, _norm_axis, _reshape, _shape_of, _spatial_rank, _tensor, _to_2d,
    _window,
)

# --- small helpers -----------------------------------------------------------


def _f32(v: float) -> ir.FloatAttr:
    return ir.FloatAttr.get_f32(float(v))


def _transpose(v: ir.Value, perm: Sequence[int]) -> ir.Value:
    if list(perm) == list(range(len(perm))):
        return v
    return ge.transpose(v, list(perm))


def _scalar(value: float, elem: ir.Type, ctx) -> ir.Value:
    return ctx.constant(np.array(value, dtype=numpy_dtype(elem)), elem)


# --- convolutions and pooling ------------------------------------------------


def _conv_of(ctx, x: ir.Value, w: ir.Value, b: ir.Value | None) -> ir.Value:
    """ONNX Conv's window attributes applied to the values ``x`` and ``w`` (1-D and 2-D)."""
    n = _spatial_rank(ctx, "convolution")
    if ctx.rank(1) != n + 2:
        ctx.invalid(f"weight rank {ctx.rank(1)} does not match the {n}-D convolution")
    kernel = _kernel(ctx, ctx.shape(1), n)
    strides, pads, dilations = _window(ctx, ctx.shape(0)[2:], kernel)
    strides, pads, dilations, _ = _to_2d(n, strides, pads, dilations)
    if n == 1:
        x, w = ge.unsqueeze(x, [2]), ge.unsqueeze(w, [2])
    y = ge.conv2d(x, w, bias=b, strides=strides, pads=pads, dilations=dilations, groups=int(ctx.attr("group", 1)))
    if n == 1:
        y = ge.squeeze(y, axes=[2])
    return y


@converter("Conv", notes="1-D and 2-D; 3-D refused")
def conv(ctx):
    return _conv_of(ctx, ctx.input(0), ctx.input(1), ctx.input(2))


@converter("ConvInteger", since=10, notes="u8/i8 minus zero points (per tensor; per output channel for w), "
           "convolved in f64 (exact: |sums| < 2^53) and converted to i32")
def conv_integer(ctx):
    for k in (0, 1):
        if str(ctx.elem(k)) not in ("i8", "ui8"):
            ctx.refuse(f"input #{k} of type {ctx.input_type(k)} is not int8/uint8")
    f64 = ir.F64Type.get()
    x, w = _cast(ctx.input(0), f64), _cast(ctx.input(1), f64)
    if ctx.has_input(2):
        x = ge.sub(x, _cast(ctx.input(2), f64))  # padding then adds zeros of the shifted input
    if ctx.has_input(3):
        zp = _cast(ctx.input(3), f64)
        zs = ctx.shape(3)
        if len(zs) == 1 and zs[0] > 1:
            zp = _reshape(zp, [zs[0]] + [1] * (ctx.rank(1) - 1))
        w = ge.sub(w, zp)
    return _cast(_conv_of(ctx, x, w, None), ir.IntegerType.get_signless(32))


@converter("ConvTranspose", notes="1-D and 2-D; 3-D refused; output_shape -> pads/output_padding")
def conv_transpose(ctx):
    n = _spatial_rank(ctx, "transposed convolution")
    x, w, b = ctx.input(0), ctx.input(1), ctx.input(2)
    if ctx.rank(1) != n + 2:
        ctx.invalid(f"weight rank {ctx.rank(1)} does not match the {n}-D transposed convolution")
    kernel = _kernel(ctx, ctx.shape(1), n)
    in_sp = ctx.shape(0)[2:]
    strides = list(ctx.attr("strides", None) or [1] * n)
    dilations = list(ctx.attr("dilations", None) or [1] * n)
    out_pad = list(ctx.attr("output_padding", None) or [0] * n)
    if len(strides) != n or len(dilations) != n or len(out_pad) != n:
        ctx.invalid(f"strides/dilations/output_padding must have {n} values")
    auto_pad = ctx.attr("auto_pad", "NOTSET") or "NOTSET"
    output_shape = ctx.attr("output_shape", None)
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        # ONNX: total_padding = stride*(in-1) + output_padding + (k-1)*d + 1 - out;
        # SAME_UPPER puts the odd element at the end, anything else at the start.
        if any(d < 0 for d in in_sp):
            ctx.refuse(f"output_shape/auto_pad needs static spatial input dimensions, got {in_sp}")
        if output_shape is not None:
            output_shape = list(output_shape)[-n:]  # some exporters include N, C
            if len(output_shape) != n:
                ctx.invalid(f"output_shape {list(ctx.attr('output_shape'))} must have {n} spatial values")
        else:
            output_shape = [in_sp[i] * strides[i] for i in range(n)]
        begin, end = [], []
        for i in range(n):
            total = strides[i] * (in_sp[i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1 - output_shape[i]
            if total < 0:
                # ONNX would need negative pads (onnxruntime rejects such models).
                ctx.refuse(
                    f"output_shape {output_shape} is larger than the transposed convolution produces "
                    f"along spatial dim {i} (it would need {total} padding)"
                )
            b_ = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            begin.append(b_)
            end.append(total - b_)
        pads = begin + end
    elif auto_pad == "VALID":
        pads = [0] * (2 * n)
    elif auto_pad == "NOTSET":
        pads = list(ctx.attr("pads", None) or [0] * (2 * n))
        if len(pads) != 2 * n:
            ctx.invalid(f"pads {pads} must have {2 * n} values")
    else:
        ctx.invalid(f"unknown auto_pad {auto_pad!r}")
    strides, pads, dilations, out_pad = _to_2d(n, strides, pads, dilations, out_pad)
    if n == 1:
        x, w = ge.unsqueeze(x, [2]), ge.unsqueeze(w, [2])
    y = ge.conv_transpose2d(
        x, w, bias=b, strides=strides, pads=pads, dilations=dilations, output_padding=out_pad,
        groups=int(ctx.attr("group", 1)),
    )
    if n == 1:
        y = ge.squeeze(y, axes=[2])
    return y


def _pool3d(ctx, build):
    """3-D pooling as two 2-D ones: over (H, W) with D folded into the channels, then over D with
    H*W as the second spatial dim. Max and the window average are separable: a box window's valid
    element count (count_include_pad=0) is the product of its per-dim counts."""
    shape = ctx.shape(0)
    if any(d < 0 for d in shape):
        ctx.refuse(f"3-D pooling needs a static input shape, got {ctx.input_type(0)}")
    n_, c_, d_, h_, w_ = shape
    kernel = _kernel(ctx, None, 3)
    strides, pads, dilations = _window(ctx, shape[2:], kernel)
    ceil_mode = bool(ctx.attr("ceil_mode", 0))
    if ceil_mode and ctx.attr("auto_pad", "NOTSET") == "VALID":
        ctx.refuse("auto_pad=VALID with ceil_mode=1 is not supported for 3-D pooling")
    hw = build(_reshape(ctx.input(0), [n_, c_ * d_, h_, w_]), kernel[1:], strides[1:],
               [pads[1], pads[2], pads[4], pads[5]], dilations[1:], ceil_mode)
    _, _, h2, w2 = _shape_of(hw)
    y = build(_reshape(hw, [n_, c_, d_, h2 * w2]), [kernel[0], 1], [strides[0], 1], [pads[0], 0, pads[3], 0],
              [dilations[0], 1], ceil_mode)
    d2 = _shape_of(y)[2]
    return _reshape(y, [n_, c_, d2, h2, w2])


def _pool(ctx, what: str, build):
    if ctx.rank(0) == 5:
        return _pool3d(ctx, build)
    n = _spatial_rank(ctx, what)
    kernel = _kernel(ctx, None, n)
    strides, pads, dilations = _window(ctx, ctx.shape(0)[2:], kernel)
    strides, pads, dilations, _ = _to_2d(n, strides, pads, dilations)
    kernel = kernel if n == 2 else [1] + kernel
    ceil_mode = bool(ctx.attr("ceil_mode", 0))
    if ceil_mode and ctx.attr("auto_pad", "NOTSET") == "VALID":
        # The spec's VALID formula, ceil((in - dk + 1) / s), equals floor mode;
        # onnxruntime keeps a partial last window instead. Refuse when they differ.
        in_sp = ctx.shape(0)[2:]
        for d, k, s_, dl in zip(in_sp, kernel[-n:], strides[-n:], dilations[-n:]):
            span = d - (k - 1) * dl - 1
            if d < 0 or (span > 0 and span % s_ and (span + s_ - 1) // s_ * s_ < d):
                ctx.refuse(
                    "auto_pad=VALID with ceil_mode=1: the ONNX spec (full windows only) and onnxruntime "
                    "(a partial last window) give different output sizes here; re-export with explicit pads"
                )
        ceil_mode = False
    x = ctx.input(0)
    if n == 1:
        x = ge.unsqueeze(x, [2])
    y = build(x, kernel, strides, pads, dilations, ceil_mode)
    if n == 1:
        y = ge.squeeze(y, axes=[2])
    return y


@converter("MaxPool", notes="1-D, 2-D and 3-D (two 2-D pools); refused when the Indices output is used")
def max_pool(ctx):
    if ctx.output_used(1):
        ctx.refuse("the Indices output (argmax positions) is used; ge.max_pool2d computes only the values")
    y = _pool(
        ctx, "max pooling",
        lambda x, k, s, p, d, c: ge.max_pool2d(x, k, strides=s, pads=p, dilations=d, ceil_mode=c),
    )
    return _no_extra_outputs([y], ctx)


@converter("AveragePool", notes="1-D, 2-D and 3-D (two 2-D pools)")
def average_pool(ctx):
    cip = bool(ctx.attr("count_include_pad", 0))
    return _pool(
        ctx, "average pooling",
        lambda x, k, s, p, d, c: ge.avg_pool2d(x, k, strides=s, pads=p, dilations=d, ceil_mode=c, count_include_pad=cip),
    )


@converter("GlobalAveragePool")
def global_average_pool(ctx):
    if ctx.rank(0) < 3:
        ctx.refuse(f"input must have rank >= 3, got {ctx.rank(0)}")
    return ge.global_avg_pool(ctx.input(0))


@converter("GlobalMaxPool")
def global_max_pool(ctx):
    if ctx.rank(0) < 3:
        ctx.refuse(f"input must have rank >= 3, got {ctx.rank(0)}")
    return ge.global_max_pool(ctx.input(0))


# --- normalizations ------------------------------------------------------------


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


# --- contractions --------------------------------------------------------------


@converter("MatMul")
def matmul(ctx):
    return ge.matmul(ctx.input(0), ctx.input(1))


@converter("Gemm", since=7)
def gemm(ctx):
    if ctx.rank(0) != 2 or ctx.rank(1) != 2:
        ctx.refuse(f"A and B must be 2-D, got ranks {ctx.rank(0)} and {ctx.rank(1)}")
    return ge.gemm(
        ctx.input(0), ctx.input(1), c=ctx.input(2),
        alpha=_f32(ctx.attr("alpha", 1.0)), beta=_f32(ctx.attr("beta", 1.0)),
        trans_a=bool(ctx.attr("transA", 0)), trans_b=bool(ctx.attr("transB", 0)),
    )


def _int_operand(ctx, i: int, zp_i: int, row_zp: bool) -> ir.Value:
    """Input ``i`` as i32 minus its zero point (scalar; or 1-D: per row of A, per column of B)."""
    i32 = ir.IntegerType.get_signless(32)
    v = _cast(ctx.input(i), i32)
    if not ctx.has_input(zp_i):
        return v
    zp = _cast(ctx.input(zp_i), i32)
    zs = ctx.shape(zp_i)
    if len(zs) == 1 and zs[0] > 1 and row_zp:
        zp = _reshape(zp, [zs[0], 1])
    elif len(zs) > 1:
        ctx.refuse(f"zero point of shape {zs} is neither per-tensor nor per-row/column")
    return ge.sub(v, zp)


def _int_matmul(ctx, a: int, a_zp: int, b: int, b_zp: int) -> ir.Value:
    for k in (a, b):
        if str(ctx.elem(k)) not in ("i8", "ui8"):
            ctx.refuse(f"input #{k} of type {ctx.input_type(k)} is not int8/uint8")
    return ge.matmul(_int_operand(ctx, a, a_zp, True), _int_operand(ctx, b, b_zp, False))


@converter("MatMulInteger", since=10, notes="i8/u8 minus zero points (per tensor, per row of A / column of B) "
           "as i32, ge.matmul in i32")
def matmul_integer(ctx):
    return _int_matmul(ctx, 0, 2, 1, 3)


@converter("QLinearMatMul", since=10, notes="the reference's order: i32 matmul of zero-point-shifted "
           "operands, times a_scale*b_scale/y_scale (in the scales' type) in f64, rounded half to even, "
           "plus y_zero_point, saturated")
def qlinear_matmul(ctx):
    c = _int_matmul(ctx, 0, 2, 3, 5)
    s_elem = ctx.elem(1)
    f64 = ir.F64Type.get()
    scale = ge.div(ge.mul(ctx.input(1), _cast(ctx.input(4), s_elem)), _cast(ctx.input(6), s_elem))
    d = ge.mul(_cast(c, f64), _cast(scale, f64))
    out_elem = ctx.elem(7)
    if str(out_elem) not in ("i8", "ui8"):
        ctx.refuse(f"y_zero_point of type {ctx.input_type(7)} is not int8/uint8")
    d = ge.round(ge.add(d, _cast(ctx.input(7), f64)))
    lo, hi = (-128.0, 127.0) if str(out_elem) == "i8" else (0.0, 255.0)
    d = ge.clip(d, min=ir.FloatAttr.get(f64, lo), max=ir.FloatAttr.get(f64, hi))
    return _cast(d, out_elem)


def _einsum_terms(ctx, eq: str, ranks: Sequence[int]) -> tuple[list[list[str]], list[str]]:
    """Input and output terms with '...' replaced by per-dim placeholder labels."""
    full = eq.replace(" ", "")
    lhs, arrow, rhs = full.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        ctx.invalid(f"equation {eq!r} has {len(terms)} input terms for {len(ranks)} inputs")
    n_ell = 0
    for t, r in zip(terms, ranks):
        if "..." in t:
            n_ell = max(n_ell, r - (len(t) - 3))
    ell = [f"...{k}" for k in range(n_ell)]  # placeholders align from the right, like numpy
    out_terms = []
    for t, r in zip(terms, ranks):
        if t.count("...") > 1 or "." in t.replace("...", ""):
            ctx.invalid(f"malformed equation {eq!r}")
        if "..." in t:
            pre, post = t.split("...")
            k = r - len(pre) - len(post)
            if k < 0:
                ctx.invalid(f"term {t!r} of {eq!r} has more labels than its input's rank {r}")
            labels = list(pre) + ell[n_ell - k:] + list(post)
        else:
            labels = list(t)
        if len(labels) != r:
            ctx.invalid(f"term {t!r} of {eq!r} does not match its input's rank {r}")
        if not all(c.isalpha() for c in t.replace("...", "")):
            ctx.invalid(f"malformed equation {eq!r}")
        out_terms.append(labels)
    if arrow:
        if rhs.count("...") > 1:
            ctx.invalid(f"malformed equation {eq!r}")
        if "..." in rhs:
            pre, post = rhs.split("...")
            out = list(pre) + ell + list(post)
        else:
            out = list(rhs)  # '...' dims, if any, are summed like other dropped labels
    else:
        counts: dict[str, int] = {}
        for labels in out_terms:
            for c in labels:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, k in counts.items() if k == 1 and not c.startswith("..."))
    return out_terms, out


@converter("Einsum", since=12, notes="one or two operands, forms that map to transpose + matmul + reshape")
def einsum(ctx):
    eq = ctx.attr("equation", "")
    vals = [v for v in ctx.inputs() if v is not None]
    if len(vals) not in (1, 2):
        ctx.refuse(f"equation {eq!r} has {len(vals)} operands; only 1 or 2 are supported")
    shapes = [_shape_of(v) for v in vals]
    if any(d < 0 for s in shapes for d in s):
        ctx.refuse(f"equation {eq!r}: operand shapes {shapes} must be static")
    terms, out = _einsum_terms(ctx, eq, [len(s) for s in shapes])
    if len(set(out)) != len(out):
        ctx.invalid(f"equation {eq!r} repeats an output label")
    for labels in terms:
        if len(set(labels)) != len(labels):
            ctx.refuse(f"equation {eq!r} takes a diagonal (a label repeated in one term), which is not supported")
    per = [dict(zip(labels, shape)) for labels, shape in zip(terms, shapes)]
    sizes: dict[str, int] = {}  # broadcast sizes
    for d in per:
        for c, n in d.items():
            sizes[c] = max(sizes.get(c, n), n)
    if any(c not in sizes for c in out):
        ctx.invalid(f"equation {eq!r} has an output label that no input has")

    # Sum out labels that only one operand has and the output does not keep.
    ops = []
    for k, (v, labels) in enumerate(zip(vals, terms)):
        others = set(out).union(*(set(t) for j, t in enumerate(terms) if j != k))
        drop = [i for i, c in enumerate(labels) if c not in others]
        if drop:
            v = ge.reduce_sum(v, axes=drop, keepdims=False)
            labels = [c for c in labels if c in others]
        ops.append((v, labels))

    if len(ops) == 1:
        v, labels = ops[0]
        return _transpose(v, [labels.index(c) for c in out])

    (a, la), (b, lb) = ops
    batch = [c for c in out if c in la and c in lb]
    a_free = [c for c in out if c in la and c not in lb]
    b_free = [c for c in out if c in lb and c not in la]
    contract = [c for c in la if c in lb and c not in out]
    for c in batch + contract:
        sa, sb = per[0][c], per[1][c]
        # Batch dims broadcast in ge.matmul; a broadcast contraction would not.
        if sa != sb and not (c in batch and 1 in (sa, sb)):
            ctx.refuse(
                f"equation {eq!r}: label {c!r} has sizes {sa} and {sb}; only batch labels (kept in the "
                "output) may broadcast"
            )
    m = int(np.prod([sizes[c] for c in a_free], dtype=np.int64))
    k = int(np.prod([sizes[c] for c in contract], dtype=np.int64))
    nn_ = int(np.prod([sizes[c] for c in b_free], dtype=np.int64))
    a = _reshape(_transpose(a, [la.index(c) for c in batch + a_free + contract]), [per[0][c] for c in batch] + [m, k])
    b = _reshape(_transpose(b, [lb.index(c) for c in batch + contract + b_free]), [per[1][c] for c in batch] + [k, nn_])
    y = ge.matmul(a, b)
    labels = batch + a_free + b_free
    y = _reshape(y, [sizes[c] for c in labels])
    return _transpose(y, [labels.index(c) for c in out])


# --- softmax family --------------------------------------------------------------


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


# --- resize ------------------------------------------------------------------------


_COORD = {m.name for m in ge.CoordinateTransform}
_NEAREST = {m.name for m in ge.NearestMode}


def _resize(ctx, mode: str, scales=None, sizes=None, axes=None, *, coord="half_pixel",
            nearest="round_prefer_floor", cubic_a=-0.75, antialias=0, exclude_outside=0,
            policy="stretch", legacy=False):
    x = ctx.input(0)
    in_shape = ctx.shape(0)
    rank = len(in_shape)
    if mode == "bilinear":
        mode = "linear"
    if mode not in (("nearest", "linear") if legacy else ("nearest", "linear", "cubic")):
        ctx.refuse(f"mode {mode!r} is not supported")
    if coord == "tf_crop_and_resize":
        ctx.refuse("coordinate_transformation_mode=tf_crop_and_resize needs the roi input and "
                   "extrapolation_value, which ge.resize does not carry")
    if coord not in _COORD:
        ctx.refuse(f"coordinate_transformation_mode {coord!r} has no ge equivalent")
    if mode == "nearest" and nearest not in _NEAREST:
        ctx.refuse(f"nearest_mode {nearest!r} is not supported")
    if mode == "cubic" and exclude_outside:
        ctx.refuse("exclude_outside=1 (renormalized cubic weights at the border) has no ge equivalent")
    if axes is None:
        axes = list(range(rank))
    else:
        axes = [_norm_axis(ctx, int(a), rank, "axes value") for a in axes]
        if len(set(axes)) != len(axes):
            ctx.invalid(f"axes {axes} repeats an axis")
    full_scales = None
    if sizes is not None:
        sizes = [int(s) for s in np.asarray(sizes).reshape(-1)]
        if len(sizes) != len(axes):
            ctx.invalid(f"sizes {sizes} must have {len(axes)} values")
        out = list(in_shape)
        for a, s in zip(axes, sizes):
            out[a] = s
        if policy != "stretch":
            if any(in_shape[a] < 0 for a in axes):
                ctx.refuse(f"keep_aspect_ratio_policy={policy} needs static input dims, got {in_shape}")
            ratios = [s / in_shape[a] for a, s in zip(axes, sizes)]
            if policy == "not_larger":
                scale = min(ratios)
            elif policy == "not_smaller":
                scale = max(ratios)
            else:
                ctx.refuse(f"unknown keep_aspect_ratio_policy {policy!r}")
            for a in axes:
                out[a] = int(scale * in_shape[a] + 0.5)
            # ge.resize's scales must satisfy out = floor(in * scale); refuse
            # when the rounded sizes do not (the common scale cannot be carried).
            fs = [1.0] * rank
            for a in axes:
                fs[a] = float(np.float32(scale))
            if any(math.floor(in_shape[a] * fs[a]) != out[a] for a in axes):
                ctx.refuse(f"keep_aspect_ratio_policy={policy} with a non-integral scaled size "
                           f"(scale {scale}) has no ge equivalent")
            full_scales = fs
        eff = [(out[a] / in_shape[a]) if in_shape[a] > 0 else 1.0 for a in range(rank)]
    else:
        sc = [float(s) for s in np.asarray(scales, dtype=np.float32).reshape(-1)]
        if len(sc) != len(axes):
            ctx.invalid(f"scales {sc} must have {len(axes)} values")
        if any(not s > 0 for s in sc):
            ctx.invalid(f"scales {sc} must be positive")
        full_scales = [1.0] * rank
        for a, s in zip(axes, sc):
            full_scales[a] = s
        # floor(in * scale), computed in double from the f32 scale as ge.resize verifies it.
        out = [d if s == 1.0 else (-1 if d < 0 else math.floor(d * s)) for d, s in zip(in_shape, full_scales)]
        eff = full_scales
    if any(o == 0 for o in out):
        ctx.refuse(f"the output shape {out} has an empty dimension")
    if antialias and mode != "nearest" and any(e < 1 for e in eff):
        ctx.refuse("antialias=1 when downsampling (a widened filter) has no ge equivalent")
    if legacy:
        # Resize-10 / Upsample: asymmetric coordinates; nearest truncates when
        # upsampling and rounds up when downsampling (onnxruntime's reference).
        coord = "asymmetric"
        if mode == "nearest":
            down = {e < 1 for e in eff if e != 1.0}
            if len(down) > 1:
                ctx.refuse("nearest resize that upsamples some axes and downsamples others "
                           "(opset < 11 rounding differs per axis) has no ge equivalent")
            nearest = "ceil" if down == {True} else "floor"
    kw = {}
    if full_scales is not None:
        kw["scales"] = [float(s) for s in full_scales]
    return ge.resize(
        _tensor(out, x.type.element_type), x,
        mode=getattr(ge.ResizeMode, mode),
        coordinate_transformation_mode=getattr(ge.CoordinateTransform, coord),
        nearest_mode=getattr(ge.NearestMode, nearest if mode == "nearest" else "round_prefer_floor"),
        cubic_coeff_a=_f32(cubic_a),
        **kw,
    )


def _const_input(ctx, i: int, what: str) -> np.ndarray:
    value = ctx.const(i)
    if value is None and ctx.importer.is_graph_input(ctx.node.input[i]):
        return ctx.require_const(i, what)  # names the input (constant_inputs= can freeze it)
    if value is None:
        ctx.refuse(
            f"{what} (input #{i}) is computed at run time; it must be known at import time (an initializer, "
            "a Constant or foldable from static shapes) because it fixes the output shape"
        )
    return value


def _resize_runtime(ctx, scales_i: int | None, sizes_i: int | None, mode: str, legacy: bool = False) -> ir.Value:
    """Resize/Upsample whose scales or sizes are given at run time (see ``_runtime.resize_``)."""
    rank = ctx.rank(0)
    axes = ctx.attr("axes", None)
    axes = list(range(rank)) if axes is None else [_norm_axis(ctx, int(a), rank, "axes value") for a in axes]
    if len(set(axes)) != len(axes):
        ctx.invalid(f"axes {axes} repeats an axis")
    mode = "linear" if mode == "bilinear" else mode
    if mode not in ("nearest", "linear", "cubic"):
        ctx.refuse(f"mode {mode!r} is not supported")
    coord = ctx.attr("coordinate_transformation_mode", "half_pixel")
    nearest = ctx.attr("nearest_mode", "round_prefer_floor")
    i = sizes_i if sizes_i is not None else scales_i
    what = "sizes" if sizes_i is not None else "scales"
    if not legacy and (ctx.attr("antialias", 0) or (mode == "cubic" and ctx.attr("exclude_outside", 0))
                       or coord not in rt.RESIZE_COORDS):
        # Filters whose taps depend on the scale (antialias, renormalized borders) are built at import
        # from constant scales only: ask for the value (ge_mlir.compile's constant_inputs can give it).
        _const_input(ctx, i, what)
    if not legacy and mode == "nearest" and nearest not in _NEAREST:
        ctx.refuse(f"nearest_mode {nearest!r} is not supported")
    policy = ctx.attr("keep_aspect_ratio_policy", "stretch") if sizes_i is not None else "stretch"
    if policy not in ("stretch", "not_larger", "not_smaller"):
        ctx.refuse(f"unknown keep_aspect_ratio_policy {policy!r}")
    if rt.static_count(ctx, i, what) != len(axes):
        ctx.invalid(f"scales/sizes must have {len(axes)} values")
    return rt.resize_(ctx, ctx.input(0), axes, ctx.input(scales_i) if sizes_i is None else None,
                      ctx.input(sizes_i) if sizes_i is not None else None, mode=mode, coord=coord,
                      nearest=nearest, cubic_a=float(ctx.attr("cubic_coeff_a", -0.75)), policy=policy,
                      legacy=legacy)


def _runtime_input(ctx, i: int) -> bool:
    """Input ``i`` is given (non-empty) and only known at run time."""
    if not ctx.has_input(i) or ctx.const(i) is not None:
        return False
    t = ctx.input_type(i)
    return not (t.has_static_shape and int(np.prod(t.shape)) == 0)


@converter("Resize", since=10, notes="scales/sizes constant (ge.resize) or at run time (per-axis gathers "
           "and weights; ? dims); tf_crop_and_resize refused")
def resize(ctx):
    if ctx.opset < 11:
        if _runtime_input(ctx, 1):
            return _resize_runtime(ctx, 1, None, ctx.attr("mode", "nearest"), legacy=True)
        scales = _const_input(ctx, 1, "scales")
        return _resize(ctx, ctx.attr("mode", "nearest"), scales=scales, legacy=True)
    if _runtime_input(ctx, 3):
        return _resize_runtime(ctx, None, 3, ctx.attr("mode", "nearest"))
    if _runtime_input(ctx, 2) and not (ctx.has_input(3) and ctx.const(3) is not None and ctx.const(3).size):
        return _resize_runtime(ctx, 2, None, ctx.attr("mode", "nearest"))
    sizes = _const_input(ctx, 3, "sizes") if ctx.has_input(3) else None
    if sizes is not None and sizes.size == 0:
        sizes = None
    scales = None
    if sizes is None:
        if not ctx.has_input(2):
            ctx.invalid("one of scales and sizes must be given")
        scales = _const_input(ctx, 2, "scales")
        if scales.size == 0:
            ctx.invalid("one of scales and sizes must be given (both are empty)")
    return _resize(
        ctx, ctx.attr("mode", "nearest"), scales=scales, sizes=sizes, axes=ctx.attr("axes", None),
        coord=ctx.attr("coordinate_transformation_mode", "half_pixel"),
        nearest=ctx.attr("nearest_mode", "round_prefer_floor"),
        cubic_a=ctx.attr("cubic_coeff_a", -0.75),
        antialias=ctx.attr("antialias", 0),
        exclude_outside=ctx.attr("exclude_outside", 0),
        policy=ctx.attr("keep_aspect_ratio_policy", "stretch"),
    )


@converter("Upsample", since=7, until=9, notes="Resize-10 semantics (asymmetric); deprecated at opset 10")
def upsample(ctx):
    if ctx.opset < 9:
        scales = ctx.attr("scales", None)
        if scales is None:
            ctx.refuse("the scales attribute is missing")
    elif _runtime_input(ctx, 1):
        return _resize_runtime(ctx, 1, None, ctx.attr("mode", "nearest"), legacy=True)
    else:
        scales = _const_input(ctx, 1, "scales")
    return _resize(ctx, ctx.attr("mode", "nearest"), scales=scales, legacy=True)


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


# --- GridSample --------------------------------------------------------------------------------


def _gs_reflect(ctx, x: ir.Value, lo: float, hi: float, f32: ir.Type) -> ir.Value:
    """Reflects ``x`` by the near border until it lies in [lo, hi] (the ONNX reference's rule)."""
    c = lambda v: _scalar(v, f32, ctx)  # noqa: E731
    rng = hi - lo

    def fold(dx: ir.Value) -> tuple[ir.Value, ir.Value]:
        n = ge.floor(ge.div(dx, c(rng)))  # dx >= 0: floor is the truncation the reference does
        r = ge.sub(dx, ge.mul(n, c(rng)))
        even = ge.equal(ge.sub(n, ge.mul(ge.floor(ge.div(n, c(2.0))), c(2.0))), c(0.0))
        return r, even

    r_lo, even_lo = fold(ge.sub(c(lo), x))
    r_hi, even_hi = fold(ge.sub(x, c(hi)))
    below = ge.where(even_lo, ge.add(c(lo), r_lo), ge.sub(c(hi), r_lo))
    above = ge.where(even_hi, ge.sub(c(hi), r_hi), ge.add(c(lo), r_hi))
    return ge.where(ge.less(x, c(lo)), below, ge.where(ge.greater(x, c(hi)), above, x))


@converter("GridSample", since=16, notes="static shapes, 2-D and 3-D spatial; nearest/linear/cubic, "
           "zeros/border/reflection padding: tap indices and weights in f32, one gather_elements per tap")
def grid_sample(ctx):
    xs, gs = ctx.shape(0), ctx.shape(1)
    if any(d < 0 for d in xs + gs):
        ctx.refuse(f"GridSample needs static shapes, got {ctx.input_type(0)} and {ctx.input_type(1)}")
    dims = xs[2:]
    nd = len(dims)
    if nd not in (2, 3) or len(gs) != nd + 2 or gs[-1] != nd or gs[0] != xs[0]:
        ctx.refuse(f"GridSample of X {xs} with grid {gs} is not supported (2-D or 3-D spatial dims)")
    mode = ctx.attr("mode", "linear" if ctx.opset >= 20 else "bilinear")
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    pad_mode = ctx.attr("padding_mode", "zeros")
    align = bool(ctx.attr("align_corners", 0))
    if mode not in ("nearest", "linear", "cubic") or pad_mode not in ("zeros", "border", "reflection"):
        ctx.invalid(f"mode {mode!r} / padding_mode {pad_mode!r} is not supported")
    if mode == "cubic" and nd != 2:
        ctx.refuse("cubic GridSample is defined for 2-D spatial dims only")
    elem = ctx.elem(0)
    if not _is_float(elem):
        ctx.refuse(f"X must be a float tensor, got {ctx.input_type(0)}")
    f32 = ir.F32Type.get()
    c = lambda v: _scalar(v, f32, ctx)  # noqa: E731
    n_b, ch = xs[0], xs[1]
    out = gs[1:-1]
    p = int(np.prod(out))
    s = int(np.prod(dims))
    g = _reshape(_cast(ctx.input(1), f32), [n_b, p, nd])
    per_dim = []  # per spatial dim: [(index [N, P] i64, weight [N, P] f32 or None)]
    for i, d in enumerate(dims):
        comp = ge.gather(g, rt.i64_const(ctx, nd - 1 - i), axis=2)  # the grid lists x (last dim) first
        if align:
            x = ge.mul(ge.div(ge.add(comp, c(1.0)), c(2.0)), c(d - 1.0))
            lo, hi = 0.0, d - 1.0
        else:
            x = ge.div(ge.sub(ge.mul(ge.add(comp, c(1.0)), c(float(d))), c(1.0)), c(2.0))
            lo, hi = -0.5, d - 0.5
        if mode == "nearest":
            x = ge.round(x)  # half to even, as the reference's np.rint
        if pad_mode == "border":
            x = ge.where(ge.or_(ge.less(x, c(lo)), ge.greater(x, c(hi))), rt.clamp(ctx, x, c(0.0), c(d - 1.0)), x)
        elif pad_mode == "reflection":
            x = _gs_reflect(ctx, x, lo, hi, f32)
        if mode == "nearest":
            taps = [(x, None)]
        else:
            base = ge.floor(x)
            f = ge.sub(x, base)
            if mode == "linear":
                taps = [(base, ge.sub(c(1.0), f)), (ge.add(base, c(1.0)), f)]
            else:
                taps = [(ge.add(base, c(float(k))), w) for k, w in zip((-1, 0, 1, 2), rt.cubic_weights(ctx, f, -0.75))]
        mapped = []
        for pos, w in taps:
            if pad_mode == "reflection":
                pos = _gs_reflect(ctx, pos, lo, hi, f32)
            idx = ge.cast(ir.RankedTensorType.get([n_b, p], rt.i64()), pos)  # truncation, as int()
            if pad_mode == "zeros":
                inside = ge.and_(ge.greater_equal(idx, rt.i64_const(ctx, 0)), ge.less(idx, rt.i64_const(ctx, d)))
                keep = ge.where(inside, c(1.0), c(0.0))
                w = keep if w is None else ge.mul(w, keep)
            idx = rt.clamp(ctx, idx, 0, d - 1)
            mapped.append((idx, w))
        per_dim.append(mapped)
    x3 = _reshape(ctx.input(0), [n_b, ch, s])
    strides = [int(np.prod(dims[i + 1:])) for i in range(nd)]
    acc = None
    for combo in np.ndindex(*[len(m) for m in per_dim]):
        lin, w = None, None
        for i, t in enumerate(combo):
            idx, wt = per_dim[i][t]
            term = ge.mul(idx, rt.i64_const(ctx, strides[i])) if strides[i] != 1 else idx
            lin = term if lin is None else ge.add(lin, term)
            if wt is not None:
                w = wt if w is None else ge.mul(w, wt)
        gathered = ge.gather_elements(x3, ge.expand(_reshape(lin, [n_b, 1, p]), [n_b, ch, p]), axis=2)
        if w is not None:
            gathered = ge.mul(gathered, _cast(_reshape(w, [n_b, 1, p]), elem))
        acc = gathered if acc is None else ge.add(acc, gathered)
    return _reshape(acc, [n_b, ch, *out])


# --- RNN / GRU / LSTM ------------------------------------------------------------------------------

_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
_DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
_ACTS = {"Sigmoid": ge.sigmoid, "Tanh": ge.tanh, "Relu": ge.relu}


@converter("RNN", "GRU", "LSTM", since=7,
           notes="static shapes, unrolled over the sequence (one matmul per step and direction); forward, "
           "reverse and bidirectional; layout 0/1; initial states, peepholes, clip, linear_before_reset; "
           "sequence_lens for forward only; Sigmoid/Tanh/Relu activations")
def recurrent(ctx):
    kind = ctx.op_type
    g = _GATES[kind]
    xs = ctx.shape(0)
    if len(xs) != 3 or any(d < 0 for d in xs):
        ctx.refuse(f"{kind} needs a static 3-D X, got {ctx.input_type(0)}")
    elem = ctx.elem(0)
    if not _is_float(elem):
        ctx.refuse(f"X must be a float tensor, got {ctx.input_type(0)}")
    layout = int(ctx.attr("layout", 0))
    x = ctx.input(0)
    if layout == 1:
        x = ge.transpose(x, [1, 0, 2])
    t_len, b, i_size = _shape_of(x)
    hidden = int(ctx.attr("hidden_size", 0) or 0)
    direction = ctx.attr("direction", "forward")
    dirs = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}.get(direction)
    if dirs is None or hidden <= 0:
        ctx.invalid(f"direction {direction!r} / hidden_size {hidden} are not valid")
    nd = len(dirs)
    if ctx.shape(1) != [nd, g * hidden, i_size] or ctx.shape(2) != [nd, g * hidden, hidden]:
        ctx.invalid(f"W {ctx.shape(1)} / R {ctx.shape(2)} do not match {nd} direction(s) x {g} gates x {hidden}")
    acts = ctx.attr("activations", None)
    per_dir = len(_DEFAULT_ACTS[kind])
    acts = [a.decode() if isinstance(a, bytes) else a for a in acts] if acts else _DEFAULT_ACTS[kind] * nd
    if len(acts) != per_dir * nd or any(a not in _ACTS for a in acts):
        ctx.refuse(f"activations {acts} are not supported (Sigmoid, Tanh, Relu; {per_dir} per direction)")
    if ctx.attr("activation_alpha", None) or ctx.attr("activation_beta", None):
        ctx.refuse("activation_alpha/activation_beta are not supported")
    if kind == "LSTM" and int(ctx.attr("input_forget", 0)):
        ctx.refuse("input_forget=1 (coupled input and forget gates) is not supported")
    clip = ctx.attr("clip", None)
    lbr = int(ctx.attr("linear_before_reset", 0)) if kind == "GRU" else 0
    lens = ctx.input(4) if ctx.has_input(4) else None
    if lens is not None and any(dirs):
        c = ctx.const(4)
        if c is None or not np.all(np.asarray(c) == t_len):
            ctx.refuse("sequence_lens shorter than the sequence are supported for the forward direction only")
        lens = None

    def state(i: int) -> list[ir.Value | None]:
        if not ctx.has_input(i):
            return [None] * nd
        v = ctx.input(i)
        if layout == 1:
            v = ge.transpose(v, [1, 0, 2])
        return [_reshape(ge.gather(v, rt.i64_const(ctx, d), axis=0), [b, hidden]) for d in range(nd)]

    h0s, c0s = state(5), state(6) if kind == "LSTM" else [None] * nd
    zeros = lambda: _scalar(0.0, elem, ctx)  # noqa: E731
    if lens is not None:
        lens_b = _reshape(rt.as_i64(lens), [b, 1])
    ys, hs, cs = [], [], []
    for d, reverse in enumerate(dirs):
        f, gact = _ACTS[acts[d * per_dir]], _ACTS[acts[d * per_dir + min(1, per_dir - 1)]]
        hact = _ACTS[acts[d * per_dir + 2]] if kind == "LSTM" else None
        pick = lambda i: ge.gather(ctx.input(i), rt.i64_const(ctx, d), axis=0)  # noqa: E731
        w_t = ge.transpose(pick(1), [1, 0])  # [I, g*H]
        r_t = ge.transpose(pick(2), [1, 0])  # [H, g*H]
        xw = ge.matmul(x, w_t)  # [T, B, g*H]
        rb = None
        if ctx.has_input(3):
            bias = pick(3)
            wb = ge.slice(bias, [0], [g * hidden])
            rb = ge.slice(bias, [g * hidden], [2 * g * hidden])
            xw = ge.add(xw, wb)
        peep = None
        if kind == "LSTM" and ctx.has_input(7):
            p = pick(7)
            peep = [ge.slice(p, [k * hidden], [(k + 1) * hidden]) for k in range(3)]  # i, o, f
        zero_state = lambda: ge.constant(ir.DenseElementsAttr.get_splat(  # noqa: E731
            ir.RankedTensorType.get([b, hidden], elem), ir.FloatAttr.get(elem, 0.0)))
        h = h0s[d] if h0s[d] is not None else zero_state()
        cst = c0s[d] if c0s[d] is not None or kind != "LSTM" else zero_state()
        steps = list(range(t_len))[::-1] if reverse else list(range(t_len))
        outs: dict[int, ir.Value] = {}
        for t in steps:
            xt = _reshape(ge.gather(xw, rt.i64_const(ctx, t), axis=0), [b, g * hidden])

            def gate(v: ir.Value, k: int) -> ir.Value:
                return ge.slice(v, [k * hidden], [(k + 1) * hidden], axes=[1])

            def pre(v: ir.Value) -> ir.Value:
                if clip is None:
                    return v
                return ge.clip(v, min=ir.FloatAttr.get(ir.F64Type.get(), -float(clip)),
                               max=ir.FloatAttr.get(ir.F64Type.get(), float(clip)))

            if kind == "GRU":
                rb_z = rb_r = rb_h = None
                if rb is not None:
                    rb_z, rb_r, rb_h = (ge.slice(rb, [k * hidden], [(k + 1) * hidden]) for k in range(3))
                r_z, r_r, r_h = (ge.slice(r_t, [k * hidden], [(k + 1) * hidden], axes=[1]) for k in range(3))
                addb = lambda v, bb: v if bb is None else ge.add(v, bb)  # noqa: E731
                z = f(pre(ge.add(gate(xt, 0), addb(ge.matmul(h, r_z), rb_z))))
                r = f(pre(ge.add(gate(xt, 1), addb(ge.matmul(h, r_r), rb_r))))
                if lbr:
                    hh = gact(pre(ge.add(gate(xt, 2), ge.mul(r, addb(ge.matmul(h, r_h), rb_h)))))
                else:
                    hh = gact(pre(ge.add(gate(xt, 2), addb(ge.matmul(ge.mul(r, h), r_h), rb_h))))
                one = _scalar(1.0, elem, ctx)
                new_h = ge.add(ge.mul(ge.sub(one, z), hh), ge.mul(z, h))
                new_c = None
            else:
                hr = ge.matmul(h, r_t)
                if rb is not None:
                    hr = ge.add(hr, rb)
                a = ge.add(xt, hr)
                if kind == "RNN":
                    new_h, new_c = f(pre(a)), None
                else:
                    ai, ao, af, ac = (gate(a, k) for k in range(4))
                    if peep is not None:
                        ai, af = ge.add(ai, ge.mul(peep[0], cst)), ge.add(af, ge.mul(peep[2], cst))
                    it, ft, ct = f(pre(ai)), f(pre(af)), gact(pre(ac))
                    new_c = ge.add(ge.mul(ft, cst), ge.mul(it, ct))
                    if peep is not None:
                        ao = ge.add(ao, ge.mul(peep[1], new_c))
                    new_h = ge.mul(f(pre(ao)), hact(new_c))
            if lens is not None:
                active = ge.less(rt.i64_const(ctx, t), lens_b)  # [B, 1]: this step is inside the sequence
                new_h = ge.where(active, new_h, h)
                if new_c is not None:
                    new_c = ge.where(active, new_c, cst)
                outs[t] = ge.where(active, new_h, zeros())
            else:
                outs[t] = new_h
            h = new_h
            if new_c is not None:
                cst = new_c
        ys.append(ge.concat([_reshape(outs[t], [1, 1, b, hidden]) for t in range(t_len)], 0))
        hs.append(_reshape(h, [1, b, hidden]))
        if kind == "LSTM":
            cs.append(_reshape(cst, [1, b, hidden]))
    y = ys[0] if nd == 1 else ge.concat(ys, 1)  # [T, nd, B, H]
    y_h = hs[0] if nd == 1 else ge.concat(hs, 0)  # [nd, B, H]
    y_c = (cs[0] if nd == 1 else ge.concat(cs, 0)) if kind == "LSTM" else None
    if layout == 1:
        y = ge.transpose(y, [2, 0, 1, 3])
        y_h = ge.transpose(y_h, [1, 0, 2])
        y_c = ge.transpose(y_c, [1, 0, 2]) if y_c is not None else None
    outs_all = [y if ctx.output_used(0) else None, y_h if ctx.output_used(1) else None]
    if kind == "LSTM":
        outs_all.append(y_c if ctx.output_used(2) else None)
    return outs_all[:max(1, ctx.num_outputs)]


# --- DFT ---------------------------------------------------------------------------------------------


def _dft_along(ctx, x: ir.Value, axis: int, length: int | None, inverse: bool, onesided: bool) -> ir.Value:
    """The DFT of ``x`` [..., 1 | 2] along ``axis`` as matmuls with cos/sin matrices (in f64, as the
    reference's np.fft), for a static signal length; the input is truncated or zero padded to the
    transform length by the matrices' rows."""
    shape = _shape_of(x)
    rank = len(shape)
    elem = x.type.element_type
    f64 = ir.F64Type.get()
    n = shape[axis]
    if inverse and onesided:
        length = length or 2 * (n - 1)
        rows, cols = length // 2 + 1, length
    else:
        length = length or n
        rows, cols = length, (length // 2 + 1 if onesided and not inverse else length)
    if length <= 0:
        ctx.invalid(f"dft_length {length} must be positive")
    j = np.arange(n).reshape(n, 1)
    k = np.arange(cols).reshape(1, cols)
    theta = 2 * np.pi * ((j * k) % length) / length
    live = (j < rows).astype(np.float64)
    cos, sin = np.cos(theta) * live, np.sin(theta) * live
    # cos(pi/2) and sin(pi) are 0, not 6e-17: the zeros of the twiddles exact, as an FFT's are.
    cos[np.abs(cos) < 1e-15], sin[np.abs(sin) < 1e-15] = 0.0, 0.0
    if inverse and onesided:
        w = np.where((j == 0) | ((length % 2 == 0) & (j == length // 2)), 1.0, 2.0)
        cos, sin = cos * w, sin * w
    if inverse:
        cos, sin = cos / length, sin / length
    mc, ms = ctx.constant(cos, f64), ctx.constant(sin, f64)
    sig = [d for d in range(rank - 1) if d != axis] + [axis]
    back = list(np.argsort(sig))

    def part(i: int) -> ir.Value:
        v = _reshape(ge.gather(x, rt.i64_const(ctx, i), axis=rank - 1), shape[:-1])
        return ge.transpose(_cast(v, f64), sig) if sig != list(range(rank - 1)) else _cast(v, f64)

    xr = part(0)
    xi = part(1) if shape[-1] == 2 else None
    if not inverse:  # (xr + i xi)(cos - i sin)
        re = ge.matmul(xr, mc) if xi is None else ge.add(ge.matmul(xr, mc), ge.matmul(xi, ms))
        im = ge.neg(ge.matmul(xr, ms)) if xi is None else ge.sub(ge.matmul(xi, mc), ge.matmul(xr, ms))
    else:  # (xr + i xi)(cos + i sin) / L
        re = ge.matmul(xr, mc) if xi is None else ge.sub(ge.matmul(xr, mc), ge.matmul(xi, ms))
        im = ge.matmul(xr, ms) if xi is None else ge.add(ge.matmul(xi, mc), ge.matmul(xr, ms))

    def finish(v: ir.Value) -> ir.Value:
        v = ge.transpose(v, back) if back != list(range(rank - 1)) else v
        return ge.unsqueeze(_cast(v, elem), [rank - 1])

    if inverse and onesided:
        return finish(re)  # a real signal: [..., 1]
    return ge.concat([finish(re), finish(im)], rank - 1)


@converter("DFT", since=17, notes="static shapes and dft_length; cos/sin matmuls in f64 (forward, inverse, "
           "onesided, irfft); a run-time axis selects among the axes whose results fit the declared type")
def dft(ctx):
    shape = ctx.shape(0)
    rank = len(shape)
    if rank < 2 or any(d < 0 for d in shape) or shape[-1] not in (1, 2):
        ctx.refuse(f"DFT needs a static input [..., 1 or 2], got {ctx.input_type(0)}")
    elem = ctx.elem(0)
    if not _is_float(elem):
        ctx.refuse(f"DFT of {elem} is not supported")
    length = None
    if ctx.has_input(1):
        c = ctx.const(1)
        if c is None:
            ctx.refuse("dft_length given at run time is not supported (it sets the output size)")
        length = int(np.asarray(c).reshape(-1)[0])
    inverse, onesided = bool(ctx.attr("inverse", 0)), bool(ctx.attr("onesided", 0))
    if ctx.opset < 20:
        axes = [_norm_axis(ctx, int(ctx.attr("axis", 1)), rank)]
        run_axis = None
    else:
        c = ctx.const(2) if ctx.has_input(2) else np.array(-2)
        run_axis = None if c is not None else ctx.input(2)
        axes = [_norm_axis(ctx, int(np.asarray(c).reshape(-1)[0]), rank)] if c is not None else list(range(rank - 1))
    if any(a == rank - 1 for a in axes):
        ctx.invalid("the DFT axis cannot be the last (real/imaginary) dim")
    if run_axis is not None:  # candidates only where the transform is defined (irfft of 1 sample is not)
        axes = [a for a in axes if (length or (2 * (shape[a] - 1) if inverse and onesided else shape[a])) > 0]
    results = {a: _dft_along(ctx, ctx.input(0), a, length, inverse, onesided) for a in axes}
    if run_axis is None:
        return results[axes[0]]
    # A run-time axis: the candidates whose result has the declared output type (or all, when they
    # agree); an axis outside them fails the call (a bounds-checked lookup of its candidate number).
    out_t = ctx.out_type(0)
    shapes = {a: _shape_of(v) for a, v in results.items()}
    keep = [a for a in axes if out_t is not None and out_t.has_static_shape and shapes[a] == list(out_t.shape)]
    if not keep:
        if len({tuple(s) for s in shapes.values()}) != 1:
            ctx.refuse("the DFT axis is given at run time and the axes give results of different shapes")
        keep = axes
    table = np.full(rank, len(keep), np.int64)
    for i, a in enumerate(keep):
        table[a] = i
    pick = ge.gather(rt.i64_const(ctx, table), rt.normalized(ctx, rt.scalar(ctx, run_axis), rank), axis=0)
    pick = rt.checked(ctx, pick, ge.less(pick, rt.i64_const(ctx, len(keep))))  # an axis with no candidate
    y = results[keep[-1]]
    if len(keep) == 1:  # still read the lookup, so that another axis fails the call
        return ge.where(ge.equal(pick, rt.i64_const(ctx, 0)), y, _scalar(0.0, elem, ctx))
    for i in range(len(keep) - 2, -1, -1):
        y = ge.where(ge.equal(pick, rt.i64_const(ctx, i)), results[keep[i]], y)
    return y


# --- AffineGrid ------------------------------------------------------------------------------------


@converter("AffineGrid", since=20, notes="2-D and 3-D; the size at import or run time (? dims): the base grid "
           "from index ranges in f64, one batched matmul with theta")
def affine_grid(ctx):
    ts = ctx.shape(0)
    if len(ts) != 3 or ts[1:] not in ([2, 3], [3, 4]) or ts[0] < 0:
        ctx.refuse(f"theta must be [N, 2, 3] or [N, 3, 4], got {ctx.input_type(0)}")
    nd = ts[1]
    if ctx.input_type(1).shape != [nd + 2]:
        ctx.invalid(f"size must have {nd + 2} values, got {ctx.input_type(1)}")
    elem = ctx.elem(0)
    f64 = ir.F64Type.get()
    align = bool(ctx.attr("align_corners", 0))
    size = rt.as_i64(ctx.input(1))
    dims = [rt.element(ctx, size, 2 + i) for i in range(nd)]  # (D,) H, W at run time
    total = dims[0]
    for d in dims[1:]:
        total = ge.mul(total, d)
    one64 = _scalar(1.0, f64, ctx)
    flat = ge.range(_tensor([rt.DYN], rt.i64()), rt.i64_const(ctx, 0), total, rt.i64_const(ctx, 1))
    coords = []  # per spatial dim, the normalized coordinate of every flat position
    stride = None
    for i in range(nd - 1, -1, -1):
        idx = flat if stride is None else ge.div(flat, stride)
        idx = ge.mod(idx, dims[i])
        stride = dims[i] if stride is None else ge.mul(stride, dims[i])
        n = rt.to_elem(dims[i], f64)
        k = rt.to_elem(idx, f64)
        if align:  # -1 + k * 2 / (n - 1); a single position sits at -1 (the reference's arange)
            step = ge.div(_scalar(2.0, f64, ctx), ge.max(ge.sub(n, one64), one64))
            c = ge.add(_scalar(-1.0, f64, ctx), ge.mul(k, step))
        else:  # -1 + step / 2 + k * step, step = 2 / n
            step = ge.div(_scalar(2.0, f64, ctx), n)
            c = ge.add(ge.add(_scalar(-1.0, f64, ctx), ge.div(step, _scalar(2.0, f64, ctx))), ge.mul(k, step))
        coords.append(ge.unsqueeze(c, [0]))  # x (the last dim) first, as the grid lists it
    ones = ge.fill(_tensor([1, rt.DYN], f64), one64, ge.concat([rt.i64_const(ctx, [1]), ge.unsqueeze(total, [0])], 0))
    base = ge.concat(coords + [ones], 0)  # [nd + 1, P]
    grid = ge.matmul(_cast(ctx.input(0), f64), base)  # [N, nd, P]
    grid = _cast(ge.transpose(grid, [0, 2, 1]), elem)  # [N, P, nd]
    shape = ge.concat([rt.i64_const(ctx, [ts[0]]), ge.gather(size, rt.i64_const(ctx, np.arange(2, 2 + nd)), axis=0),
                       rt.i64_const(ctx, [nd])], 0)
    return ge.dynamic_reshape(_tensor([ts[0]] + [rt.DYN] * nd + [nd], elem), grid, shape)


# --- Det -------------------------------------------------------------------------------------------


@converter("Det", since=11, notes="matrices up to 4x4: the Leibniz sum over permutations (batched)")
def det(ctx):
    import itertools

    shape = ctx.shape(0)
    if len(shape) < 2 or shape[-1] != shape[-2] or shape[-1] < 0:
        ctx.refuse(f"Det needs [..., n, n] with a static n, got {ctx.input_type(0)}")
    n = shape[-1]
    if n > 4 or n < 1:
        ctx.refuse(f"Det of {n}x{n} matrices is not supported (up to 4x4: {n}! terms)")
    if not _is_float(ctx.elem(0)):
        ctx.refuse(f"Det of {ctx.elem(0)} is not supported")
    rank = len(shape)
    rows = [ge.gather(ctx.input(0), rt.i64_const(ctx, i), axis=rank - 2) for i in range(n)]
    entry = [[ge.gather(r, rt.i64_const(ctx, j), axis=rank - 2) for j in range(n)] for r in rows]
    total = None
    for perm in itertools.permutations(range(n)):
        term = entry[0][perm[0]]
        for i in range(1, n):
            term = ge.mul(term, entry[i][perm[i]])
        inversions = sum(1 for a in range(n) for b in range(a + 1, n) if perm[a] > perm[b])
        if total is None:
            total = term if inversions % 2 == 0 else ge.neg(term)
        else:
            total = ge.add(total, term) if inversions % 2 == 0 else ge.sub(total, term)
    return total
