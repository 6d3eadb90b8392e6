"""ge-fuse-conv-residual: fold a residual ``add`` into the conv2d that feeds it.

``add(conv2d(x, W, b?), r)`` -> ``conv2d(x, W, b?) residual(r)`` when the
conv has no activation and no residual yet, the add is the conv's only user,
and ``r`` has the add's result type (no broadcasting: a broadcast operand is
a bias, which ``ge-fuse-bias-add`` handles when it is constant). The fused op
computes ``act(conv + bias + residual)``, so a following ``relu`` (the ResNet
block's) is then fused by ``ge-fuse-activation``, which runs later.

The fused conv is created at the add, where both the conv's operands and
``r`` are available, so the rewrite never needs to move ``r``'s producer.
When both add operands are eligible convs (a ResNet downsample block), the
right-hand one takes the other as its residual: either choice gives the same
numbers (one f32 add either way).
"""

from __future__ import annotations

from mlir import ir
from mlir.rewrite import PatternRewriter

from ..passes.registry import register_pass
from .fusion_common import PatternFusionPass
from ..ir.ge_ops import activation_of, conv_parts, recreate_conv
from ..ir.patterns import defining_op, pattern, single_use


def _eligible(conv: ir.Operation | None, add: ir.Operation) -> bool:
    if conv is None or conv.name != "ge.conv2d" or not single_use(conv.results[0]):
        return False
    if activation_of(conv) != "none" or conv_parts(conv)[3] is not None:
        return False
    return conv.results[0].type == add.results[0].type


def make_residual_pattern(owner: GeFuseConvResidualPass):
    @pattern
    def fuse_conv_residual(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        add = op.operation
        lhs, rhs = add.operands[0], add.operands[1]
        if lhs.type != add.results[0].type or rhs.type != add.results[0].type:
            return False
        for conv_val, residual in ((rhs, lhs), (lhs, rhs)):
            conv = defining_op(conv_val)
            if not _eligible(conv, add):
                continue
            x, w, bias, _ = conv_parts(conv)
            with rewriter.ip, add.location:
                fused = recreate_conv(conv, x, w, bias, residual)
            rewriter.replace_op(add, fused)
            owner.rewritten("residual-fused")
            return True
        return False

    return fuse_conv_residual


@register_pass
class GeFuseConvResidualPass(PatternFusionPass):
    name = "ge-fuse-conv-residual"
    summary = "Fold add(conv2d, same-shape tensor) into the conv2d's residual operand"
    description = __doc__
    # After bias folding (20), so a constant add becomes a bias rather than a
    # residual; before activation fusion (40), which then takes the block's relu.
    priority = 30

    def patterns(self, module: ir.Operation):
        return [("ge.add", make_residual_pattern(self), 1)]
