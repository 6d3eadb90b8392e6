"""ge-lower-to-linalg: ge ops -> linalg/tensor/arith/math on tensors.

Each op family lives in its own module and registers its lowerings with
:func:`ge_mlir.target.cpu.lowering.common.lowering`:

* :mod:`.elementwise` -- constants, identity, cast, where and every unary and
  binary elementwise op: one ``linalg.generic`` each, numpy broadcasting in
  its indexing maps (see that module for the scalar semantics);
* :mod:`.data_movement` -- reshape-like ops, transpose, concat, split, slice,
  pad, tile, expand, trans_data;
* :mod:`.indexing` -- gather, gather_elements, scatter_elements, one_hot;
* :mod:`.shape_ops` -- shape, dynamic_reshape, fill, range;
* :mod:`.resize` -- resize (constant index and weight tables per axis);
* :mod:`.reductions` -- reductions, arg-reductions, softmax, normalizations,
  cumsum, top_k, global pools;
* :mod:`.nn` -- matmul, gemm, convolutions and pooling (linalg named ops, so
  the CPU target can tile and vectorize them).

Ops the pass does not lower (no lowering registered, dynamic shapes,
unsupported element types) stay as they are; with ``fail-on-unlowered`` the
pass fails at the first one still left, naming it and its location.
"""

from __future__ import annotations

from mlir import ir
from mlir.rewrite import PatternRewriter, RewritePatternSet, walk_and_apply_patterns

from ...irutils.patterns import pattern
from ...passes.registry import Option, Pass, PassFailure, register_pass
from .lowering import (  # noqa: F401  (register the lowerings)
    data_movement, elementwise, indexing, nn, reductions, resize, shape_ops,
)
from .lowering.common import Unsupported, registered_lowerings
from .lowering.shape_checks import attach_shape_checks, discard_pending, lowering_op


def lower_op(op: ir.OpView) -> list[ir.Value] | None:
    """Builds the lowering of ``op`` before it; None when it is not lowered."""
    fn = registered_lowerings().get(op.operation.name.removeprefix("ge."))
    if fn is None:
        return None
    empty = _all_results_empty(op)
    if empty is not None:
        return empty
    try:
        with lowering_op(op.operation):
            new = fn(op)
    except Unsupported:
        return None
    if new is None:
        return None
    return [new] if isinstance(new, ir.Value) else list(new)


def _all_results_empty(op: ir.OpView) -> list[ir.Value] | None:
    """``tensor.empty`` results when every result has a static zero-size dim:
    nothing to compute, and the family lowerings need not handle the shapes
    (ge-fuzz: a padded MaxPool on a 0 batch built an out-of-bounds insert_slice)."""
    from mlir.dialects import tensor

    types = [r.type for r in op.results]
    if not types or not all(isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape
                            and 0 in ir.RankedTensorType(t).shape for t in types):
        return None
    return [tensor.EmptyOp(list(ir.RankedTensorType(t).shape), ir.RankedTensorType(t).element_type).result
            for t in types]


@pattern
def lower_to_linalg(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    with op.location, ir.InsertionPoint(op):
        new = lower_op(op)
    if new is None:
        return False
    rewriter.replace_op(op, new)
    return True


def lowered_ops() -> tuple[str, ...]:
    """The ge op names (without ``ge.``) that have a lowering."""
    return tuple(sorted(registered_lowerings()))


def lowering_patterns() -> RewritePatternSet:
    patterns = RewritePatternSet()
    for name in lowered_ops():
        patterns.add(f"ge.{name}", lower_to_linalg)
    return patterns


def first_ge_op(module: ir.Operation) -> ir.Operation | None:
    found: list[ir.Operation] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        if o.name.startswith("ge."):
            found.append(o)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found[0] if found else None


@register_pass
class GeLowerToLinalgPass(Pass):
    name = "ge-lower-to-linalg"
    summary = "Lower ge ops to linalg/tensor/arith/math on tensors"
    description = __doc__ or ""
    stage = "lowering"
    priority = 10
    options = (
        Option("fail-on-unlowered", bool, False, "fail naming the first ge op left unlowered"),
        Option("check-bounds", bool, False,
               "count out-of-range run-time gather/scatter indices into extra function results "
               "listed in the ge.bounds_checks function attribute (see lowering/bounds_checks.py)"),
    )

    def run(self, module: ir.Operation) -> None:
        if self.opt("check-bounds"):
            from .bounds_checks import insert_bounds_checks

            with module.context, ir.Location.unknown():
                self.bump("bounds-checks", insert_bounds_checks(module))
        discard_pending()
        walk_and_apply_patterns(module, lowering_patterns().freeze())
        with module.context, ir.Location.unknown():
            self.bump("shape-checks", attach_shape_checks(module))
        if not self.opt("fail-on-unlowered"):
            return
        left = first_ge_op(module)
        if left is not None:
            why = (
                "dynamic shape or unsupported element type"
                if left.name.removeprefix("ge.") in registered_lowerings()
                else "no lowering for this op"
            )
            raise PassFailure(f"op '{left.name}' was not lowered to linalg ({why})", at=left)
