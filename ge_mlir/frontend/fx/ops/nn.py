"""Neural-network ATen ops: softmax, embedding, layer and batch norm, pooling.

The backward ops of training graphs arrive decomposed by torch's decomposition table
(``ge_mlir.frontend.fx.decompositions``) into the ops converted here and in the other families,
except those with a ge op of their own (convolution and average-pool backward).
"""

from __future__ import annotations

import numpy as np

from ....dialects import ge
from ..registry import FxContext, converter

import torch

aten = torch.ops.aten


def _axis(d: int, rank: int) -> int:
    return d + rank if d < 0 else d


@converter(aten._softmax, aten.softmax.int, aten._log_softmax, aten.log_softmax.int)
def softmax(cx: FxContext):
    x = cx.cast(cx.value(cx.arg(0)), cx.dtype())
    axis = _axis(int(cx.arg(1)), x.type.rank)
    log = cx.node.target.overloadpacket in (aten._log_softmax, aten.log_softmax)
    return ge.log_softmax(x, axis=axis) if log else ge.softmax(x, axis=axis)


@converter(aten.embedding)
def embedding(cx: FxContext):
    weight, idx = cx.value(cx.arg(0)), cx.cast(cx.value(cx.arg(1)), torch.int64)
    return ge.gather(weight, idx, axis=0)


def _users_of_items(cx: FxContext) -> set[int]:
    """Which items of this tuple-valued node are read (through getitem)."""
    return {int(u.args[1]) for u in cx.node.users if u.op == "call_function" and len(u.args) > 1}


@converter(aten.native_layer_norm)
def native_layer_norm(cx: FxContext):
    """ge.layer_norm when only the normalized output is read (inference); with the saved mean and
    rstd read (training), the statistics are computed explicitly as torch defines them."""
    x = cx.value(cx.arg(0))
    dtype = cx.dtype(cx.arg(0))
    k = len(cx.arg(1))
    w, b, eps = cx.arg(2), cx.arg(3), float(cx.arg(4))
    rank = x.type.rank
    axes = list(range(rank - k, rank))
    wv = cx.value(w) if w is not None else cx.importer.splat(1.0, cx.arg(1), dtype)
    bv = cx.value(b) if b is not None else None
    if not (_users_of_items(cx) & {1, 2}):
        return ge.layer_norm(x, wv, bias=bv, axis=rank - k, epsilon=eps), None, None
    mean = ge.reduce_mean(x, axes=axes, keepdims=True)
    diff = ge.sub(x, mean)
    var = ge.reduce_mean(ge.mul(diff, diff), axes=axes, keepdims=True)
    rstd = ge.rsqrt(ge.add(var, cx.constant(eps, dtype)))
    y = ge.mul(ge.mul(diff, rstd), wv)
    if bv is not None:
        y = ge.add(y, bv)
    return y, mean, rstd


@converter(aten._native_batch_norm_legit_no_training)
def batch_norm_inference(cx: FxContext):
    x = cx.value(cx.arg(0))
    dtype = cx.dtype(cx.arg(0))
    c = cx.shape(cx.arg(0))[1]
    w = cx.value(cx.arg(1)) if cx.arg(1) is not None else cx.importer.splat(1.0, [c], dtype)
    b = cx.value(cx.arg(2)) if cx.arg(2) is not None else cx.importer.splat(0.0, [c], dtype)
    if _users_of_items(cx) & {1, 2}:
        cx.refuse("the saved statistics of inference-mode batch norm are read")
    y = ge.batch_norm(x, w, b, cx.value(cx.arg(3)), cx.value(cx.arg(4)),
                      epsilon=float(cx.arg(6)))
    return y, None, None


def _pool_args(cx: FxContext, first: int):
    kernel = [int(k) for k in cx.arg(first)]
    kernel = kernel * 2 if len(kernel) == 1 else kernel
    stride = cx.arg(first + 1) or kernel
    stride = [int(s) for s in stride]
    stride = stride * 2 if len(stride) == 1 else stride
    pad = [int(p) for p in cx.arg(first + 2, default=[0])]
    pad = pad * 2 if len(pad) == 1 else pad
    return kernel, stride, pad


@converter(aten.avg_pool2d)
def avg_pool2d(cx: FxContext):
    kernel, stride, pad = _pool_args(cx, 1)
    ceil, include = bool(cx.arg(4, "ceil_mode", False)), bool(cx.arg(5, "count_include_pad", True))
    if cx.arg(6, "divisor_override") is not None:
        cx.refuse("divisor_override")
    return ge.avg_pool2d(cx.value(cx.arg(0)), kernel, strides=stride, pads=pad + pad, ceil_mode=ceil,
                         count_include_pad=include)


@converter(aten._adaptive_avg_pool2d, aten.adaptive_avg_pool2d)
def adaptive_avg_pool2d(cx: FxContext):
    size = [int(s) for s in cx.arg(1)]
    if size != [1, 1]:
        cx.refuse(f"output size {size} (only global pooling, [1, 1])")
    return ge.reduce_mean(cx.value(cx.arg(0)), axes=[2, 3], keepdims=True)


@converter(aten.max_pool2d_with_indices, aten.max_pool2d)
def max_pool2d(cx: FxContext):
    """Values from ge.max_pool2d; the indices (flat positions in each input plane, as torch
    defines them: the first maximum of the window) when read, from the kernel offsets of the
    window's first maximum: the window taps stacked on a new axis and arg-maxed."""
    x = cx.value(cx.arg(0))
    kernel, stride, pad = _pool_args(cx, 1)
    dil = [int(d) for d in cx.arg(4, "dilation", default=[1, 1])]
    dil = dil * 2 if len(dil) == 1 else dil
    ceil = bool(cx.arg(5, "ceil_mode", False))
    values = ge.max_pool2d(x, kernel, strides=stride, pads=pad + pad, dilations=dil, ceil_mode=ceil)
    if cx.node.target.overloadpacket is aten.max_pool2d:
        return values
    if 1 not in _users_of_items(cx):
        return values, None
    return values, _max_pool_indices(cx, x, kernel, stride, pad, dil)


def _max_pool_indices(cx: FxContext, x, kernel, stride, pad, dil):
    n, c, h, w = cx.shape(cx.arg(0))
    oh, ow = [int(d) for d in cx.val()[0].shape[2:]]
    need_h = (oh - 1) * stride[0] + (kernel[0] - 1) * dil[0] + 1
    need_w = (ow - 1) * stride[1] + (kernel[1] - 1) * dil[1] + 1
    extra_h, extra_w = max(0, need_h - (h + 2 * pad[0])), max(0, need_w - (w + 2 * pad[1]))
    padded = ge.pad(x, [0, 0, pad[0], pad[1], 0, 0, pad[0] + extra_h, pad[1] + extra_w], value=float("-inf"))
    taps = []
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * dil[0], j * dil[1]
            t = ge.slice(padded, [r0, c0], [r0 + (oh - 1) * stride[0] + 1, c0 + (ow - 1) * stride[1] + 1],
                         axes=[2, 3], steps=stride)
            taps.append(ge.unsqueeze(t, [4]))
    stack = taps[0] if len(taps) == 1 else ge.concat(taps, 4)
    k = cx.cast(ge.argmax(stack, 4, keepdims=False, select_last_index=False), torch.int64)
    # row and column of tap k, then of the window's origin: constants of the static geometry
    kr = cx.constant(np.array([i * dil[0] for i in range(kernel[0]) for _ in range(kernel[1])]), torch.int64)
    kc = cx.constant(np.array([j * dil[1] for _ in range(kernel[0]) for j in range(kernel[1])]), torch.int64)
    rows = ge.add(ge.gather(kr, k, axis=0),
                  cx.constant(np.arange(oh).reshape(oh, 1) * stride[0] - pad[0], torch.int64))
    cols = ge.add(ge.gather(kc, k, axis=0), cx.constant(np.arange(ow).reshape(1, ow) * stride[1] - pad[1],
                                                        torch.int64))
    return ge.add(ge.mul(rows, cx.constant(w, torch.int64)), cols)


@converter(aten.avg_pool2d_backward)
def avg_pool2d_backward(cx: FxContext):
    """ge's AvgPoolGrad: each output gradient spread evenly over its window."""
    kernel, stride, pad = _pool_args(cx, 2)
    ceil, include = bool(cx.arg(5)), bool(cx.arg(6))
    if cx.arg(7) is not None:
        cx.refuse("divisor_override")
    return ge.avg_pool_grad(cx.value(cx.arg(0)), input_size=cx.shape(cx.arg(1)), kernel_shape=kernel,
                            strides=stride, pads=pad + pad, ceil_mode=ceil, count_include_pad=include)
