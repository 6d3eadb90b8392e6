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

from ..irutils.ge_ops import activation_of, conv_parts, recreate_conv
from ..irutils.patterns import single_use
from ..passes.fusion import FusionPass, FusionPattern
from ..passes.registry import register_pass


def _eligible(conv: ir.Operation | None, add: ir.Operation) -> bool:
    if conv is None or conv.name != "ge.conv2d" or not single_use(conv.results[0]):
        return False
    if activation_of(conv) != "none" or conv_parts(conv)[3] is not None:
        return False
    return conv.results[0].type == add.results[0].type


class FuseConvResidual(FusionPattern):
    """``add(conv2d(x, W, b?), r)`` -> ``conv2d(x, W, b?) residual(r)``."""

    root = "ge.add"
    counter = "residual-fused"

    def match(self, op: ir.OpView):
        add = op.operation
        lhs, rhs = add.operands[0], add.operands[1]
        if lhs.type != add.results[0].type or rhs.type != add.results[0].type:
            return self.reject("the add broadcasts (operand and result types differ)")
        for conv_val, residual in ((rhs, lhs), (lhs, rhs)):
            conv = self.producer(conv_val)
            if _eligible(conv, add):
                return conv, residual
        return self.reject("neither operand is a single-use conv2d without activation or residual")

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> None:
        conv, residual = data
        add = op.operation
        x, w, bias, _ = conv_parts(conv)
        with rewriter.ip, add.location:
            fused = recreate_conv(conv, x, w, bias, residual)
        rewriter.replace_op(add, fused)


@register_pass
class GeFuseConvResidualPass(FusionPass):
    name = "ge-fuse-conv-residual"
    summary = "Fold add(conv2d, same-shape tensor) into the conv2d's residual operand"
    description = __doc__
    # After bias folding (20), so a constant add becomes a bias rather than a
    # residual; before activation fusion (40), which then takes the block's relu.
    priority = 30
    patterns = (FuseConvResidual,)
