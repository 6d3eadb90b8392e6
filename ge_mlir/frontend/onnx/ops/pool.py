"""Pooling ONNX ops: MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool.

* ``pads`` and ``auto_pad`` follow the convolutions' conventions (see :mod:`.conv`).
* 1-D poolings ``[N, C, W]`` run as 2-D ones on ``[N, C, 1, W]``; 3-D ones
  (5-D inputs) as two 2-D ones (see ``_pool3d``).
* Pooling ceil_mode follows the ONNX spec, as ge does: windows that would
  start in the end padding are dropped. (ONNX shape inference in onnx 1.23
  still counts them; onnxruntime and the reference implementation do not.)
* MaxPool's Indices output, which ge cannot produce, is refused only when
  something consumes it.
"""

from __future__ import annotations

from ....dialects import ge
from ..registry import converter
from ._shapes import _kernel, _no_extra_outputs, _reshape, _shape_of, _spatial_rank, _to_2d, _window


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
