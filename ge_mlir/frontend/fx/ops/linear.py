"""Contractions: mm, bmm, addmm, matmul-like ops and 2-D convolution (1-D as 2-D)."""

from __future__ import annotations

from ....dialects import ge
from ..registry import FxContext, converter

import torch

aten = torch.ops.aten


@converter(aten.mm, aten.bmm, aten.matmul)
def mm(cx: FxContext):
    dtype = cx.dtype()
    return ge.matmul(cx.cast(cx.value(cx.arg(0)), dtype), cx.cast(cx.value(cx.arg(1)), dtype))


@converter(aten.addmm, aten.baddbmm)
def addmm(cx: FxContext):
    dtype = cx.dtype()
    bias, a, b = (cx.cast(cx.value(cx.arg(i), dtype), dtype) for i in range(3))
    beta, alpha = cx.kwargs.get("beta", 1), cx.kwargs.get("alpha", 1)
    n = cx.shape()[-1]
    if beta == 1 and alpha == 1 and list(bias.type.shape) in ([n], [1, n]):
        # ge.matmul's bias broadcasts along the last dim: the form the bias fusions and kernels know
        return ge.matmul(a, b, bias=cx.reshape(bias, [n]))
    y = ge.matmul(a, b)
    if alpha != 1:
        y = ge.mul(y, cx.constant(alpha, dtype))
    if beta == 0:
        return y
    if beta != 1:
        bias = ge.mul(bias, cx.constant(beta, dtype))
    return ge.add(y, bias)


def _pairs(v, n: int = 2) -> list[int]:
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return [int(x) for x in (v * n if len(v) == 1 else v)]


@converter(aten.convolution)
def convolution(cx: FxContext):
    x, w = cx.value(cx.arg(0)), cx.value(cx.arg(1))
    bias = cx.arg(2)
    stride, padding, dilation = cx.arg(3), cx.arg(4), cx.arg(5)
    transposed, output_padding, groups = bool(cx.arg(6)), cx.arg(7), int(cx.arg(8))
    spatial = x.type.rank - 2
    if spatial not in (1, 2):
        cx.refuse(f"{spatial}-D convolution (ge has 1-D and 2-D)")
    b = cx.value(bias) if bias is not None else None
    if spatial == 1:
        x, w = ge.unsqueeze(x, [2]), ge.unsqueeze(w, [2])
        stride, padding, dilation = [1] + _pairs(stride, 1), [0] + _pairs(padding, 1), [1] + _pairs(dilation, 1)
        output_padding = [0] + _pairs(output_padding, 1)
    s, p, d = _pairs(stride), _pairs(padding), _pairs(dilation)
    pads = [p[0], p[1], p[0], p[1]]
    if transposed:
        y = ge.conv_transpose2d(x, w, bias=b, strides=s, pads=pads, dilations=d,
                                output_padding=_pairs(output_padding), groups=groups)
    else:
        y = ge.conv2d(x, w, bias=b, strides=s, pads=pads, dilations=d, groups=groups)
    return ge.squeeze(y, axes=[2]) if spatial == 1 else y


@converter(aten.convolution_backward)
def convolution_backward(cx: FxContext):
    """The input, weight and bias gradients of a 2-D (or 1-D) convolution: ge's
    Conv2DBackpropInput/Conv2DBackpropFilter ops and a channel sum, each only when asked for
    (``output_mask``)."""
    dy, x, w = (cx.value(cx.arg(i)) for i in range(3))
    stride, padding, dilation = cx.arg(4), cx.arg(5), cx.arg(6)
    transposed, groups, mask = bool(cx.arg(7)), int(cx.arg(9)), list(cx.arg(10))
    if transposed:
        cx.refuse("the backward of a transposed convolution")
    spatial = x.type.rank - 2
    if spatial not in (1, 2):
        cx.refuse(f"{spatial}-D convolution (ge has 1-D and 2-D)")
    x_shape, w_shape = cx.shape(cx.arg(1)), cx.shape(cx.arg(2))
    if spatial == 1:
        dy, x, w = ge.unsqueeze(dy, [2]), ge.unsqueeze(x, [2]), ge.unsqueeze(w, [2])
        stride, padding, dilation = [1] + _pairs(stride, 1), [0] + _pairs(padding, 1), [1] + _pairs(dilation, 1)
        x_shape = x_shape[:2] + [1] + x_shape[2:]
        w_shape = w_shape[:2] + [1] + w_shape[2:]
    s, p, d = _pairs(stride), _pairs(padding), _pairs(dilation)
    attrs = dict(strides=s, pads=[p[0], p[1], p[0], p[1]], dilations=d, groups=groups)
    dx = dw = db = None
    if mask[0]:
        dx = ge.conv2d_backprop_input(w, dy, input_size=x_shape, **attrs)
        dx = ge.squeeze(dx, axes=[2]) if spatial == 1 else dx
    if mask[1]:
        dw = ge.conv2d_backprop_filter(x, dy, filter_size=w_shape, **attrs)
        dw = ge.squeeze(dw, axes=[2]) if spatial == 1 else dw
    if mask[2]:
        db = ge.reduce_sum(dy, axes=[0, 2, 3], keepdims=False)
    return dx, dw, db
