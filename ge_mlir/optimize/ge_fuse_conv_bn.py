"""ge-fuse-conv-bn: fold an inference batch norm into the convolution feeding it.

``batch_norm(conv2d(x, W, b?), scale, bias, mean, var)`` with constant W, b,
scale, bias, mean and var becomes ``conv2d(x, W', b')`` with, per output
channel ``f = scale / sqrt(var + eps)``::

    W' = W * f[:, None, None, None]      b' = (b - mean) * f + bias

The folding is computed at compile time with numpy (in f64 for f64 ops, f32
otherwise, then rounded to the op's element type) and stored in new
``ge.constant`` ops. ``dense<...>`` constants are read directly;
``dense_resource`` f32/f64 blobs are read through the MLIR C API (see
:mod:`ge_mlir.ir.constants`). When only the filter is unreadable
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

from ..ir.attrs import attr_enum
from ..passes.registry import Option, register_pass
from .fusion_common import PatternFusionPass, fusion_options
from ..ir.ge_ops import activation_of, conv_parts, recreate_conv
from ..ir.constants import constant_array, constant_op, make_constant, tensor_type
from ..ir.patterns import defining_op, pattern, single_use


def _format(op: ir.Operation) -> str:
    return attr_enum(op, "data_format", "NCHW")


def _name_hint(value: ir.Value, suffix: str) -> str:
    op = constant_op(value)
    if op is not None:
        text = str(op.attributes["value"])
        if text.startswith("dense_resource<"):
            return text[len("dense_resource<") : text.index(">")] + suffix
    return "ge_fused" + suffix


def make_conv_bn_pattern(owner: GeFuseConvBnPass):
    @pattern
    def fuse_conv_bn(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        bn = op.operation
        conv = defining_op(bn.operands[0])
        if conv is None or conv.name != "ge.conv2d" or not single_use(conv.results[0]):
            return False
        if activation_of(conv) != "none":
            return False
        fmt = _format(conv)
        if fmt not in ("NCHW", "NHWC") or _format(bn) != fmt:
            return False
        out_t, w_t = tensor_type(conv.results[0]), tensor_type(conv.operands[1])
        if out_t is None or w_t is None:
            return False
        elem = out_t.element_type
        if str(elem) not in ("f16", "f32", "f64"):
            return False
        c = w_t.shape[0]
        stats = [constant_array(bn.operands[i]) for i in range(1, 5)]
        if any(s is None or s.size != c for s in stats):
            return False
        x, w_val, bias_val, residual = conv_parts(conv)
        if residual is not None:
            # batch_norm(conv + residual) scales the residual too: not a conv-only fold.
            return False
        has_bias = bias_val is not None
        bias = constant_array(bias_val) if has_bias else None
        if has_bias and (bias is None or bias.size != c):
            return False
        dt = np.float64 if str(elem) == "f64" else np.float32
        scale, beta, mean, var = (s.reshape(c).astype(dt) for s in stats)
        eps = dt(ir.FloatAttr(bn.attributes["epsilon"]).value) if "epsilon" in bn.attributes else dt(1e-5)
        f = scale / np.sqrt(var + eps)
        b = bias.reshape(c).astype(dt) if bias is not None else np.zeros(c, dt)
        new_b = (b - mean) * f + beta
        w = constant_array(w_val) if owner.opt("fold-weights") else None
        loc = conv.location
        with rewriter.ip, loc:
            if w is not None:
                new_w = make_constant(w.astype(dt) * f.reshape(c, 1, 1, 1), elem, _name_hint(w_val, "_bnfold"), loc)
                owner.bump("weights-folded-numpy")
            else:
                from ..dialects import ge

                fc = make_constant(f.reshape(c, 1, 1, 1), elem, "bn_factor", loc)
                new_w = ge.MulOp(w_val, fc, loc=loc).result
                owner.bump("weights-folded-as-ops")
            new_bias = make_constant(new_b, elem, _name_hint(bias_val, "_bnfold") if has_bias else "bn_bias", loc)
            fused = recreate_conv(conv, x, new_w, new_bias, None)
        rewriter.replace_op(bn, fused)
        owner.rewritten("conv-bn-fused")
        return True

    return fuse_conv_bn


@register_pass
class GeFuseConvBnPass(PatternFusionPass):
    name = "ge-fuse-conv-bn"
    summary = "Fold inference batch_norm with constant statistics into the preceding conv2d"
    description = __doc__
    priority = 10
    options = fusion_options(
        Option("fold-weights", bool, True,
               "fold the filter with numpy (false: always emit ge.mul(W, factor) for constant folding)"),
    )

    def patterns(self, module: ir.Operation):
        return [("ge.batch_norm", make_conv_bn_pattern(self), 1)]
