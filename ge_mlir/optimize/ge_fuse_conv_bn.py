"""ge-fuse-conv-bn: fold an inference batch norm into the convolution feeding it.

``batch_norm(conv2d(x, W, b?), scale, bias, mean, var)`` with constant W, b,
scale, bias, mean and var becomes ``conv2d(x, W', b')`` with, per output
channel ``f = scale / sqrt(var + eps)``::

    W' = W * f[:, None, None, None]      b' = (b - mean) * f + bias

The folding is computed at compile time with numpy (in f64 for f64 ops, f32
otherwise, then rounded to the op's element type) and stored in new
``ge.constant`` ops. ``dense<...>`` constants are read directly;
``dense_resource`` f32/f64 blobs are read through the MLIR C API (see
:mod:`ge_mlir.irutils.constants`). When only the filter is unreadable
(an f16/bf16 blob, or one above the size limit) the folded filter is built as
``ge.mul(W, f')`` with ``f'`` a [C, 1, 1, 1] constant, for constant folding to
finish later.

Refused: a conv result with other users, a conv with a fused activation,
a conv/bn data_format mismatch, non-constant statistics or bias.
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.rewrite import PatternRewriter

from ..irutils.attrs import attr_enum
from ..irutils.constants import constant_array, constant_op, make_constant, tensor_type
from ..irutils.ge_ops import activation_of, conv_parts, recreate_conv
from ..passes.fusion import FusionPass, FusionPattern
from ..passes.registry import Option, register_pass


def _format(op: ir.Operation) -> str:
    return attr_enum(op, "data_format", "NCHW")


def _name_hint(value: ir.Value, suffix: str) -> str:
    op = constant_op(value)
    if op is not None:
        text = str(op.attributes["value"])
        if text.startswith("dense_resource<"):
            return text[len("dense_resource<") : text.index(">")] + suffix
    return "ge_fused" + suffix


class FuseConvBn(FusionPattern):
    """``batch_norm(conv2d(x, W, b?), ...)`` -> ``conv2d(x, W', b')``."""

    root = "ge.batch_norm"
    counter = "conv-bn-fused"

    def match(self, op: ir.OpView):
        bn = op.operation
        conv = self.producer(bn.operands[0])
        if conv is None or conv.name != "ge.conv2d":
            return self.reject("the input is not a ge.conv2d")
        if not self.has_one_use(conv.results[0]):
            return self.reject("the conv2d result has other uses")
        if activation_of(conv) != "none":
            return self.reject(f"the conv2d already has activation {activation_of(conv)}")
        fmt = _format(conv)
        if fmt not in ("NCHW", "NHWC") or _format(bn) != fmt:
            return self.reject(f"data formats differ or are not NCHW/NHWC (conv {fmt}, batch_norm {_format(bn)})")
        out_t, w_t = tensor_type(conv.results[0]), tensor_type(conv.operands[1])
        if out_t is None or w_t is None:
            return self.reject("unranked or dynamic conv2d types")
        elem = out_t.element_type
        if str(elem) not in ("f16", "f32", "f64"):
            return self.reject(f"element type {elem} is not f16/f32/f64")
        c = w_t.shape[0]
        stats = [constant_array(bn.operands[i]) for i in range(1, 5)]
        if any(s is None or s.size != c for s in stats):
            return self.reject("the batch_norm statistics are not constants of the conv's channel count")
        x, w_val, bias_val, residual = conv_parts(conv)
        if residual is not None:
            # batch_norm(conv + residual) scales the residual too: not a conv-only fold.
            return self.reject("the conv2d has a residual operand (batch_norm would scale it too)")
        bias = constant_array(bias_val) if bias_val is not None else None
        if bias_val is not None and (bias is None or bias.size != c):
            return self.reject("the conv2d bias is not a constant of its channel count")
        dt = np.float64 if str(elem) == "f64" else np.float32
        scale, beta, mean, var = (s.reshape(c).astype(dt) for s in stats)
        eps = dt(ir.FloatAttr(bn.attributes["epsilon"]).value) if "epsilon" in bn.attributes else dt(1e-5)
        f = scale / np.sqrt(var + eps)
        b = bias.reshape(c).astype(dt) if bias is not None else np.zeros(c, dt)
        new_b = (b - mean) * f + beta
        w = constant_array(w_val) if self.pass_.opt("fold-weights") else None
        return conv, x, w_val, w, bias_val, f, new_b, elem

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> None:
        conv, x, w_val, w, bias_val, f, new_b, elem = data
        c, dt = f.shape[0], f.dtype
        loc = conv.location
        with rewriter.ip, loc:
            if w is not None:
                new_w = make_constant(w.astype(dt) * f.reshape(c, 1, 1, 1), elem, _name_hint(w_val, "_bnfold"), loc)
                self.pass_.bump("weights-folded-numpy")
            else:
                from ..dialects import ge

                fc = make_constant(f.reshape(c, 1, 1, 1), elem, "bn_factor", loc)
                new_w = ge.MulOp(w_val, fc, loc=loc).result
                self.pass_.bump("weights-folded-as-ops")
            bias_hint = _name_hint(bias_val, "_bnfold") if bias_val is not None else "bn_bias"
            new_bias = make_constant(new_b, elem, bias_hint, loc)
            fused = recreate_conv(conv, x, new_w, new_bias, None)
        rewriter.replace_op(op.operation, fused)


@register_pass
class GeFuseConvBnPass(FusionPass):
    name = "ge-fuse-conv-bn"
    summary = "Fold inference batch_norm with constant statistics into the preceding conv2d"
    description = __doc__
    priority = 10
    patterns = (FuseConvBn,)
    options = (
        Option("fold-weights", bool, True,
               "fold the filter with numpy (false: always emit ge.mul(W, factor) for constant folding)"),
    )
