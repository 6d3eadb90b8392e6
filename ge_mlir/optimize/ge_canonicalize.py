"""ge-canonicalize: ge folders and no-op elimination, then upstream canonicalize + CSE."""

from __future__ import annotations

from mlir import ir
from mlir.passmanager import PassManager
from mlir.rewrite import (
    GreedyRewriteConfig,
    PatternRewriter,
    RewritePatternSet,
    apply_patterns_and_fold_greedily,
)

from ..passes.registry import Option, Pass, PassFailure, register_pass
from ..irutils.attrs import attr_ints
from ..irutils.patterns import count_ops, defining_op, pattern

# Element types that hold every value of the narrower type exactly, so a
# cast a -> b -> a is the identity. (Float -> wider float, int -> wider int.)
_FLOAT_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def _lossless(src: ir.Type, mid: ir.Type) -> bool:
    s, m = str(src), str(mid)
    if s in _FLOAT_WIDTH and m in _FLOAT_WIDTH:
        if s == "bf16" and m == "f16" or s == "f16" and m == "bf16":
            return False
        return _FLOAT_WIDTH[m] > _FLOAT_WIDTH[s] or s == m
    if isinstance(src, ir.IntegerType) and isinstance(mid, ir.IntegerType):
        si, mi = ir.IntegerType(src), ir.IntegerType(mid)
        return mi.width > si.width and mi.is_signless == si.is_signless or src == mid
    if isinstance(src, ir.IntegerType) and m in ("f32", "f64"):
        # Integers up to the mantissa width convert exactly.
        return ir.IntegerType(src).width <= (24 if m == "f32" else 53)
    return False


def _elem(v: ir.Value) -> ir.Type:
    return ir.RankedTensorType(v.type).element_type


@pattern
def fold_cast_round_trip(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    """cast(cast(x : A -> B) : B -> A) -> x when A -> B is lossless."""
    inner = defining_op(op.operands[0])
    if inner is None or inner.name != "ge.cast":
        return False
    x = inner.operands[0]
    if x.type != op.results[0].type or not _lossless(_elem(x), _elem(inner.results[0])):
        return False
    rewriter.replace_op(op, [x])
    return True


def _forward_if_same_type(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if op.operands[0].type != op.results[0].type:
        return False
    rewriter.replace_op(op, [op.operands[0]])
    return True


@pattern
def fold_noop_shape_op(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    """expand/tile/squeeze/unsqueeze/flatten whose result type equals the input's."""
    return _forward_if_same_type(op, rewriter)


@pattern
def fold_noop_pad(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if any(attr_ints(op, "pads", None) or []):
        return False
    return _forward_if_same_type(op, rewriter)


@pattern
def fold_noop_slice(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    steps = attr_ints(op, "steps", None) or []
    if any(s != 1 for s in steps):
        return False
    return _forward_if_same_type(op, rewriter)


@pattern
def fold_single_concat(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if len(op.operands) != 1:
        return False
    return _forward_if_same_type(op, rewriter)


@pattern
def fold_single_split(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    if len(op.results) != 1:
        return False
    return _forward_if_same_type(op, rewriter)


def ge_canonical_patterns() -> RewritePatternSet:
    """Python canonicalization patterns of the ge dialect (folders are C++)."""
    patterns = RewritePatternSet()
    patterns.add("ge.cast", fold_cast_round_trip)
    for name in ("ge.expand", "ge.tile", "ge.squeeze", "ge.unsqueeze", "ge.flatten"):
        patterns.add(name, fold_noop_shape_op)
    patterns.add("ge.pad", fold_noop_pad)
    patterns.add("ge.slice", fold_noop_slice)
    patterns.add("ge.concat", fold_single_concat)
    patterns.add("ge.split", fold_single_split)
    return patterns


@register_pass
class GeCanonicalizePass(Pass):
    name = "ge-canonicalize"
    summary = "Fold ge ops, drop no-op ge ops, then run upstream canonicalize and CSE"
    description = (
        "Applies the ge dialect folders (reshape/transpose chains, identity, same-type casts, "
        "inverse trans_data pairs, static shapes) and Python patterns (lossless cast round trips, "
        "no-op expand/tile/pad/slice/squeeze/unsqueeze/flatten/concat/split) with the greedy "
        "driver, then upstream `canonicalize` and `cse`."
    )
    stage = "after-import"
    priority = 10
    options = (
        Option("max-iterations", int, 10, "greedy driver iteration limit (-1: until fixpoint)"),
        Option("cse", bool, True, "run common subexpression elimination afterwards"),
        Option("upstream", bool, True, "run upstream canonicalize (all dialects' patterns)"),
    )

    def run(self, module: ir.Operation) -> None:
        self.bump("ge-ops-before", count_ops(module))
        config = GreedyRewriteConfig()
        config.max_iterations = self.opt("max-iterations")
        frozen = ge_canonical_patterns().freeze()
        try:
            apply_patterns_and_fold_greedily(module, frozen, config)
        except Exception as e:  # non-convergence is reported, not fatal
            raise PassFailure(f"greedy rewriting did not converge: {e}", at=module) from e
        upstream = []
        if self.opt("upstream"):
            upstream.append(f"canonicalize{{max-iterations={self.opt('max-iterations')}}}")
        if self.opt("cse"):
            upstream.append("cse")
        if upstream:
            pm = PassManager.parse(f"builtin.module({','.join(upstream)})", context=module.context)
            pm.run(module)
        self.bump("ge-ops-after", count_ops(module))
