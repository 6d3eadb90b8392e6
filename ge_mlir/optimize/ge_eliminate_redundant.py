"""ge-eliminate-redundant: remove ops that do not change their value, dead ops, duplicates.

Rewrites (each counted in the pass statistics):

* ``reshape-chains``: a reshape-like op (reshape, flatten, squeeze,
  unsqueeze) of a reshape-like op becomes one ``ge.reshape`` of the original
  input (static result shape), or the input itself when the types match;
* ``noop-reshapes``: reshape/flatten/squeeze/unsqueeze (and expand/tile)
  whose result type equals the input type;
* ``identity-transposes`` and ``transpose-pairs``: identity permutations, and
  transpose of transpose composed into one (or removed when the composition
  is the identity);
* ``noop-casts`` (same type) and ``cast-round-trips`` (``A -> B -> A`` when
  ``A -> B`` is lossless: wider float, wider int of the same signedness, int
  to a float with enough mantissa); lossy round trips stay;
* ``identity-ops``: ``ge.identity``, which is also the inference form of ONNX
  Dropout (the dialect has no dropout op; the importer emits identity);
* ``noop-data-movement``: zero pads, full unit-step slices, one-input
  concats, one-output splits (ge-canonicalize's patterns, reused);
* ``dead-ops``: ge ops (all Pure) whose results have no uses;
* ``folded`` (option ``folders``): the ge dialect's C++ folders, e.g. inverse
  ``trans_data`` pairs, reshape/transpose of constants (counted as ge ops removed);
* ``cse-removed`` (option ``cse``): upstream ``cse`` (counted as ops removed).
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.passmanager import PassManager
from mlir.rewrite import (
    GreedyRewriteConfig,
    PatternRewriter,
    RewritePatternSet,
    apply_patterns_and_fold_greedily,
)

from ..dialects import ge
from ..passes.registry import Option, Pass, PassFailure, register_pass
from .ge_canonicalize import (
    fold_cast_round_trip,
    fold_noop_pad,
    fold_noop_shape_op,
    fold_noop_slice,
    fold_single_concat,
    fold_single_split,
)
from ..irutils.attrs import attr_ints
from ..irutils.patterns import apply_without_folding, count_ops, defining_op, pattern

RESHAPE_LIKE = ("ge.reshape", "ge.flatten", "ge.squeeze", "ge.unsqueeze")


def _forward(op: ir.OpView, rewriter: PatternRewriter, value: ir.Value) -> bool:
    rewriter.replace_op(op, [value])
    return True


@pattern
def fold_reshape_chain(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    """reshape-like(reshape-like(x)) -> reshape(x), or x when the types match."""
    inner = defining_op(op.operands[0])
    if inner is None or inner.name not in RESHAPE_LIKE:
        return False
    x = inner.operands[0]
    result_type = op.results[0].type
    # With ? dims the sizes are read from each reshape's own input (docs/dynamic_shapes.md): the
    # same type at both ends need not mean the same sizes ([a, b, 4] -> [?, 4] -> [?, ?, 4] is
    # [a*b, 1, 4]), so only static chains fold.
    if not ir.RankedTensorType(result_type).has_static_shape:
        return False
    if x.type == result_type:
        return _forward(op, rewriter, x)
    with op.location, rewriter.ip:
        new = ge.ReshapeOp(result_type, x)
    rewriter.replace_op(op, [new.results[0]])
    return True


@pattern
def fold_noop_reshape(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if op.operands[0].type != op.results[0].type:
        return False
    return _forward(op, rewriter, op.operands[0])


@pattern
def fold_identity_transpose(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    perm = attr_ints(op, "perm", None) or []
    if perm != list(range(len(perm))) or op.operands[0].type != op.results[0].type:
        return False
    return _forward(op, rewriter, op.operands[0])


@pattern
def fold_transpose_pair(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    """transpose(transpose(x, p), q) -> transpose(x, p o q), or x when identity."""
    inner = defining_op(op.operands[0])
    if inner is None or inner.name != "ge.transpose":
        return False
    p, q = attr_ints(inner, "perm", None) or [], attr_ints(op, "perm", None) or []
    composed = [p[i] for i in q]
    x = inner.operands[0]
    if composed == list(range(len(composed))) and x.type == op.results[0].type:
        return _forward(op, rewriter, x)
    with op.location, rewriter.ip:
        new = ge.TransposeOp(x, ir.DenseI64ArrayAttr.get(composed), results=[op.results[0].type])
    rewriter.replace_op(op, [new.results[0]])
    return True


@pattern
def fold_noop_cast(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if op.operands[0].type != op.results[0].type:
        return False
    return _forward(op, rewriter, op.operands[0])


@pattern
def fold_identity(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if op.operands[0].type != op.results[0].type:
        return False
    return _forward(op, rewriter, op.operands[0])


def _erase_dead_ge_ops(module: ir.Operation) -> int:
    """Erases ge ops (all Pure) whose results are unused, users before producers."""
    erased = 0
    for fn in module.regions[0].blocks[0].operations:
        for region in fn.regions:
            for block in region.blocks:
                changed = True
                while changed:
                    changed = False
                    for view in reversed(list(block.operations)):
                        op = view.operation
                        if (
                            op.name.startswith("ge.")
                            and len(op.results)
                            and not len(op.regions)
                            and all(not any(True for _ in r.uses) for r in op.results)
                        ):
                            op.erase()
                            erased += 1
                            changed = True
    return erased


@register_pass
class GeEliminateRedundantPass(Pass):
    name = "ge-eliminate-redundant"
    summary = "Remove redundant ge ops (reshape/transpose/cast chains, no-ops, dead ops), then CSE"
    description = (
        "Counted Python patterns (no folders) for reshape chains, transpose pairs, identity "
        "transposes, lossless cast round trips, no-op casts/reshapes/identity/data movement; dead ge "
        "ops are erased; optionally the ge C++ folders, then upstream cse."
    )
    stage = "after-import"
    priority = 12
    options = (
        Option("cse", bool, True, "run upstream cse afterwards"),
        Option("folders", bool, True, "also apply the ge dialect's C++ folders"),
        Option("max-iterations", int, 10, "greedy driver iteration limit (-1: until fixpoint)"),
    )

    _COUNTED: tuple[tuple[str, tuple[str, ...], Callable, str], ...] = (
        ("reshape-chains", RESHAPE_LIKE, fold_reshape_chain, "reshape chain"),
        ("noop-reshapes", RESHAPE_LIKE, fold_noop_reshape, ""),
        ("noop-reshapes", ("ge.expand", "ge.tile"), fold_noop_shape_op, ""),
        ("identity-transposes", ("ge.transpose",), fold_identity_transpose, ""),
        ("transpose-pairs", ("ge.transpose",), fold_transpose_pair, ""),
        ("noop-casts", ("ge.cast",), fold_noop_cast, ""),
        ("cast-round-trips", ("ge.cast",), fold_cast_round_trip, ""),
        ("identity-ops", ("ge.identity",), fold_identity, ""),
        ("noop-data-movement", ("ge.pad",), fold_noop_pad, ""),
        ("noop-data-movement", ("ge.slice",), fold_noop_slice, ""),
        ("noop-data-movement", ("ge.concat",), fold_single_concat, ""),
        ("noop-data-movement", ("ge.split",), fold_single_split, ""),
    )

    def _counted(self, counter: str, fn: Callable) -> Callable:
        def wrapped(op: ir.OpView, rewriter: PatternRewriter):
            no_match = fn(op, rewriter)
            if not no_match:
                self.bump(counter)
            return no_match

        wrapped.__name__ = fn.__name__
        return wrapped

    def run(self, module: ir.Operation) -> None:
        for counter, *_ in self._COUNTED:
            self.statistics.setdefault(counter, 0)
        for counter in ("dead-ops", "folded", "cse-removed"):
            self.statistics.setdefault(counter, 0)
        self.bump("ge-ops-before", count_ops(module))
        self.bump("dead-ops", _erase_dead_ge_ops(module))

        patterns = RewritePatternSet()
        for counter, names, fn, _ in self._COUNTED:
            for name in names:
                # Reshape chains before the same-type check: benefit 2.
                patterns.add(name, self._counted(counter, fn), 2 if fn is fold_reshape_chain else 1)
        apply_without_folding(self, patterns, module)
        self.bump("dead-ops", _erase_dead_ge_ops(module))

        if self.opt("folders"):
            before = count_ops(module)
            config = GreedyRewriteConfig()
            config.max_iterations = self.opt("max-iterations")
            try:
                apply_patterns_and_fold_greedily(module, RewritePatternSet().freeze(), config)
            except Exception as e:
                raise PassFailure(f"folding did not converge: {e}", at=module) from e
            self.bump("folded", before - count_ops(module))
        if self.opt("cse"):
            before = _count_all(module)
            PassManager.parse("builtin.module(cse)", context=module.context).run(module)
            self.bump("cse-removed", before - _count_all(module))
        self.bump("ge-ops-after", count_ops(module))


def _count_all(module: ir.Operation) -> int:
    n = 0
    for fn in module.regions[0].blocks[0].operations:
        for region in fn.regions:
            for block in region.blocks:
                n += len(block.operations)
    return n
