"""Helpers for writing ge rewrite patterns in Python.

``mlir.rewrite`` calls a pattern with (op, rewriter) and treats a falsy
return value as "matched and rewritten". Our patterns return True when they
changed the IR, which reads naturally; :func:`pattern` adapts them.

Rewrite budget (used by ``ge-bisect``): inside ``with rewrite_budget(n) as
budget:`` the Python patterns (:func:`pattern` functions and
:class:`~ge_mlir.passes.FusionPattern` classes) apply at most ``n`` rewrites
in total; beyond that they report "no match". Every applied rewrite is
recorded in ``budget.records`` (pattern, op name, location) in application
order. ``rewrite_budget(None)`` only records. The greedy driver is
deterministic, so the first ``n`` rewrites under a budget are the first ``n``
of the unlimited run. C++ folders and upstream patterns are not counted.

Pattern errors: the bindings let an exception raised inside a pattern
propagate out of the greedy driver as is. The Python patterns note it
(:func:`note_pattern_error`) so :func:`apply_without_folding` re-raises it
instead of reporting it as non-convergence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from mlir import ir
from mlir.rewrite import PatternRewriter

from .locations import location_names, onnx_op_type

PatternFn = Callable[[ir.OpView, PatternRewriter], bool]


@dataclass(frozen=True)
class RewriteRecord:
    """One applied rewrite: its 1-based index, pattern, root op and location."""

    index: int
    pattern: str
    op_name: str
    location: str

    @property
    def node_name(self) -> str | None:
        """The (ONNX node) name in the location: ``loc(fused<"Add">["add1"])`` -> ``add1``
        (:func:`~ge_mlir.irutils.locations.location_names`: a file location shows its file)."""
        names = location_names(self.location)
        return names[0] if names else None

    @property
    def node_type(self) -> str | None:
        """The ONNX op type the importer put in the fused location metadata."""
        return onnx_op_type(self.location)

    def __str__(self) -> str:
        node = f" '{self.node_name}'" if self.node_name is not None else ""
        return f"#{self.index} at {self.location}{node} (op {self.op_name}, pattern {self.pattern})"


@dataclass
class RewriteBudget:
    """The active rewrite budget: ``limit`` rewrites (None: unlimited) and the log."""

    limit: int | None = None
    records: list[RewriteRecord] = field(default_factory=list)

    @property
    def used(self) -> int:
        return len(self.records)

    @property
    def exhausted(self) -> bool:
        return self.limit is not None and self.used >= self.limit

    def record(self, pattern_name: str, op_name: str, location: str) -> RewriteRecord:
        rec = RewriteRecord(self.used + 1, pattern_name, op_name, location)
        self.records.append(rec)
        return rec


_ACTIVE_BUDGET: RewriteBudget | None = None
#: The exception the last failing Python pattern raised (see :func:`apply_without_folding`).
_PATTERN_ERROR: BaseException | None = None


@contextmanager
def rewrite_budget(limit: int | None = None) -> Iterator[RewriteBudget]:
    """Limits (``limit`` rewrites; None: no limit) and records the Python pattern
    rewrites applied inside the ``with`` block (not reentrant)."""
    global _ACTIVE_BUDGET
    if limit is not None and limit < 0:
        raise ValueError(f"rewrite budget must be >= 0, got {limit}")
    saved, _ACTIVE_BUDGET = _ACTIVE_BUDGET, RewriteBudget(limit)
    try:
        yield _ACTIVE_BUDGET
    finally:
        _ACTIVE_BUDGET = saved


def active_budget() -> RewriteBudget | None:
    """The budget of the enclosing :func:`rewrite_budget` block, if any."""
    return _ACTIVE_BUDGET


def op_identity(op: ir.OpView | ir.Operation) -> tuple[str, str]:
    """(op name, printed location) of ``op``; taken before a rewrite erases it."""
    operation = op.operation if isinstance(op, ir.OpView) else op
    return operation.name, str(operation.location)


def note_pattern_error(error: BaseException) -> None:
    """Records ``error`` as raised by a pattern (it then escapes the greedy driver as is)."""
    global _PATTERN_ERROR
    _PATTERN_ERROR = error


def pattern(fn: PatternFn) -> Callable[[ir.OpView, PatternRewriter], bool]:
    def adapted(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        try:
            budget = _ACTIVE_BUDGET
            if budget is None:
                return not fn(op, rewriter)
            if budget.exhausted:
                return True  # "no match"
            ident = op_identity(op)
            changed = fn(op, rewriter)
            if changed:
                budget.record(fn.__name__, *ident)
            return not changed
        except Exception as e:
            note_pattern_error(e)
            raise

    adapted.__name__ = fn.__name__
    return adapted




def defining_op(value: ir.Value) -> ir.Operation | None:
    """The operation producing ``value`` (None for block arguments)."""
    owner = value.owner
    if isinstance(owner, ir.OpView):
        return owner.operation
    return owner if isinstance(owner, ir.Operation) else None


def clone_mapped(op: ir.Operation, mapping: dict) -> ir.Operation:
    """A clone of ``op`` at the current insertion point reading ``mapping[v]`` for each operand
    ``v`` that ``mapping`` has (values of another block: a region body copied into a new op);
    its results are added to ``mapping`` in place of ``op``'s."""
    c = op.clone()
    for i, v in enumerate(op.operands):
        if v in mapping:
            c.operands[i] = mapping[v]
    for r_old, r_new in zip(op.results, c.results):
        mapping[r_old] = r_new
    return c


def single_use(value: ir.Value) -> bool:
    """True when ``value`` has exactly one use."""
    uses = iter(value.uses)
    return next(uses, None) is not None and next(uses, None) is None


def count_ops(module: ir.Operation, dialect: str = "ge") -> int:
    """Number of ``dialect`` ops in the functions of ``module``."""
    n = 0
    for fn in module.regions[0].blocks[0].operations:
        for region in fn.regions:
            for block in region.blocks:
                n += sum(1 for op in block.operations if op.operation.name.startswith(dialect + "."))
    return n


def apply_without_folding(pass_: object, patterns: object, at: ir.Operation) -> None:
    """Greedy driver without folding or constant CSE, so a counted pass does only
    (and counts all of) its own rewrites; ``pass_.opt("max-iterations")`` bounds it.

    Non-convergence fails the pass (``PassFailure``); an exception raised inside
    a Python pattern (:func:`pattern`, ``FusionPattern``) propagates as is.
    """
    global _PATTERN_ERROR
    from mlir.rewrite import GreedyRewriteConfig, apply_patterns_and_fold_greedily

    from ..errors import PassFailure

    config = GreedyRewriteConfig()
    config.max_iterations = pass_.opt("max-iterations")  # type: ignore[attr-defined]
    config.enable_folding = False
    config.enable_constant_cse = False
    saved, _PATTERN_ERROR = _PATTERN_ERROR, None
    try:
        apply_patterns_and_fold_greedily(at, patterns.freeze(), config)  # type: ignore[attr-defined]
    except Exception as e:
        if isinstance(e, PassFailure) or e is _PATTERN_ERROR:
            raise
        # The bindings raise a plain RuntimeError on non-convergence.
        raise PassFailure(f"greedy rewriting did not converge: {e}", at=at) from e
    finally:
        _PATTERN_ERROR = saved
