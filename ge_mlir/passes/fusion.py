"""Pattern-fusion passes from small :class:`FusionPattern` classes.

A fusion pattern names the op it is rooted at, decides whether an op matches
(returning the data the rewrite needs) and rewrites it::

    from ge_mlir.passes import FusionPattern, fusion_pass

    @fusion_pass(name="ge-fuse-double-neg", summary="neg(neg(x)) -> x")
    class DoubleNeg(FusionPattern):
        root = "ge.neg"

        def match(self, op):
            inner = self.producer(op.operands[0])
            return inner if inner is not None and inner.name == "ge.neg" else None

        def apply(self, op, rewriter, inner):
            rewriter.replace_op(op, [inner.operands[0]])

:func:`fusion_pass` registers a :class:`FusionPass` that applies its patterns
with MLIR's greedy driver (no folding: the pass does what its patterns say)
and counts each successful rewrite in ``stats["rewrites"]`` and
``stats[<pattern counter>]``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from mlir import ir
from mlir.rewrite import (
    PatternRewriter,
    RewritePatternSet,
)

from ..errors import GeMlirError
from ..ir.patterns import (
    active_budget,
    apply_without_folding,
    defining_op,
    note_pattern_error,
    op_identity,
    single_use,
)
from .registry import Option, Pass, register_pass


class FusionPattern:
    """One rewrite rooted at ops named :attr:`root`.

    Attributes:
        root: the op name (``"ge.conv2d"``) or a tuple of names the pattern is tried on.
        benefit: MLIR pattern benefit (higher is tried first).
        counter: the statistics counter bumped per rewrite (default: the class
            name in kebab case, e.g. ``DoubleNeg`` -> ``double-neg``).
        pass_: the running :class:`FusionPass` (read its options with
            ``self.pass_.opt(name)``).
    """

    root: ClassVar[str | tuple[str, ...]]
    benefit: ClassVar[int] = 1
    counter: ClassVar[str] = ""

    def __init__(self, pass_: Pass | None = None) -> None:
        self.pass_ = pass_

    def match(self, op: ir.OpView) -> Any:
        """Returns ``None``/``False`` for no match, anything else (passed to
        :meth:`apply` as ``data``) for a match. Must not change the IR."""
        raise NotImplementedError

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data: Any) -> None:
        """Rewrites the matched ``op`` through ``rewriter`` (``replace_op``,
        ``erase_op``, new ops built at ``rewriter.ip``)."""
        raise NotImplementedError

    # Helpers for match(): the operation defining a value (None for block
    # arguments); whether a value has exactly one use.
    producer = staticmethod(defining_op)
    has_one_use = staticmethod(single_use)

    @classmethod
    def counter_name(cls) -> str:
        if cls.counter:
            return cls.counter
        out = []
        for i, ch in enumerate(cls.__name__.lstrip("_")):
            if ch.isupper() and i and not cls.__name__.lstrip("_")[i - 1].isupper():
                out.append("-")
            out.append(ch.lower())
        return "".join(out)


class FusionPass(Pass):
    """A pass applying :attr:`patterns` greedily over the module."""

    patterns: ClassVar[tuple[type[FusionPattern], ...]] = ()
    #: Marks passes as fusion passes for ``graphOptions.graphFusion`` / ``fusionSwitch.ALL``.
    fusion: ClassVar[bool] = True
    options = (Option("max-iterations", int, 10, "greedy driver iteration limit (-1: until fixpoint)"),)

    def run(self, module: ir.Operation) -> None:
        patterns = RewritePatternSet()
        for cls in self.patterns:
            inst = cls(self)
            roots = (cls.root,) if isinstance(cls.root, str) else tuple(cls.root)
            fn = self._adapt(inst, cls.counter_name())
            for root in roots:
                patterns.add(root, fn, benefit=cls.benefit)
        apply_without_folding(self, patterns, module)

    def _adapt(self, inst: FusionPattern, counter: str) -> Callable[[ir.OpView, PatternRewriter], bool]:
        def fn(op: ir.OpView, rewriter: PatternRewriter) -> bool:
            # mlir.rewrite: a falsy return means "matched and rewritten".
            try:
                data = inst.match(op)
                if data is None or data is False:
                    return True
                budget = active_budget()  # ge-bisect's rewrite limit
                if budget is not None:
                    if budget.exhausted:
                        return True
                    budget.record(type(inst).__name__, *op_identity(op))
                inst.apply(op, rewriter, data)
            except Exception as e:  # re-raised by run(), reported by the pass callback
                note_pattern_error(e)
                raise
            self.bump("rewrites")
            self.bump(counter)
            return False

        fn.__name__ = type(inst).__name__
        return fn


def fusion_pass(
    *patterns: type[FusionPattern],
    name: str,
    summary: str = "",
    stage: str = "after-builtin-fusion",
    priority: int = 100,
    targets: Sequence[str] = ("*",),
    precision_sensitive: bool = False,
    options: Sequence[Option] = (),
    description: str = "",
) -> Any:
    """Registers a :class:`FusionPass` made of FusionPattern classes.

    ``fusion_pass(A, B, name="ge-fuse-x")`` registers and returns the pass
    class; used as a decorator on one pattern class
    (``@fusion_pass(name="ge-fuse-x")``) it registers the pass and returns the
    pattern class, with the pass as ``Pattern.pass_class``.
    """

    def make(pats: Sequence[type[FusionPattern]]) -> type[FusionPass]:
        for p in pats:
            if not (isinstance(p, type) and issubclass(p, FusionPattern)):
                raise GeMlirError(f"fusion pass '{name}': {p!r} is not a FusionPattern subclass")
            if not getattr(p, "root", None):
                raise GeMlirError(f"fusion pattern {p.__name__} must define 'root' (an op name such as 'ge.add')")
        body = {
            "name": name,
            "summary": summary or (pats[0].__doc__ or "").strip().split("\n")[0] or f"fusion patterns {', '.join(p.__name__ for p in pats)}",
            "description": description,
            "stage": stage,
            "priority": priority,
            "targets": tuple(targets),
            "precision_sensitive": precision_sensitive,
            "patterns": tuple(pats),
            "options": FusionPass.options + tuple(options),
            "__module__": pats[0].__module__,
        }
        cls_name = "".join(w.capitalize() for w in name.split("-")) + "Pass"
        return register_pass(type(cls_name, (FusionPass,), body))  # type: ignore[return-value]

    if patterns:
        return make(patterns)

    def decorator(pattern_cls: type[FusionPattern]) -> type[FusionPattern]:
        pattern_cls.pass_class = make((pattern_cls,))  # type: ignore[attr-defined]
        return pattern_cls

    return decorator
