"""Pattern-fusion passes: :class:`FusionPattern` classes applied by a :class:`FusionPass`.

This is how every built-in ``ge-fuse-*`` pass is written (see
``ge_mlir/optimize/ge_fuse_conv_bn.py``), and how user fusions are written.
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

A pass is either made by :func:`fusion_pass` or written as a registered
:class:`FusionPass` subclass listing its ``patterns`` (for its own options or
a :meth:`FusionPass.prepare` check). Either way it has the options ``enable``
(false: the pass does nothing), its own ones, then ``max-iterations``; it
applies its patterns with MLIR's greedy driver without folding or constant
CSE (the pass does exactly what its patterns say), and counts each rewrite in
``stats["rewrites"]`` (0 when nothing fused) and under the pattern's counter.
Rewrites obey ge-bisect's rewrite budget (:func:`ge_mlir.irutils.patterns.rewrite_budget`);
an exception raised by a pattern fails the pass as that exception, and
non-convergence within ``max-iterations`` as ``PassFailure``.

Decisions are logged on the ``ge_mlir.fusion`` logger at debug level (``GE_MLIR_LOG=debug``):
every rewrite (pass, pattern, the root op and its ONNX node), and every op a pattern was tried
on and did not match, once per op and pass run, with the reason the pattern gave through
:meth:`FusionPattern.reject` (``return self.reject("the producer has other uses")``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from mlir import ir
from mlir.rewrite import (
    PatternRewriter,
    RewritePatternSet,
)

from .._log import get_logger
from ..errors import GeMlirError, node_name
from ..irutils.patterns import (
    active_budget,
    apply_without_folding,
    defining_op,
    note_pattern_error,
    op_identity,
    single_use,
)
from .registry import Option, Pass, register_pass

ENABLE_OPTION = Option("enable", bool, True, "run the fusion (false: the pass does nothing)")
MAX_ITERATIONS_OPTION = Option("max-iterations", int, 10, "greedy driver iteration limit (-1: until fixpoint)")

#: Fusion decisions (matches, rejections with reasons) at debug level; see ``ge_mlir._log``.
log = get_logger("fusion")


class FusionPattern:
    """One rewrite rooted at ops named :attr:`root`.

    Attributes:
        root: the op name (``"ge.conv2d"``) or a tuple of names the pattern is tried on.
        benefit: MLIR pattern benefit (higher is tried first on the same op).
        counter: the statistics counter bumped per rewrite (default: the class
            name in kebab case, e.g. ``DoubleNeg`` -> ``double-neg``);
            :meth:`apply` may name another one per rewrite.
        pass_: the running :class:`FusionPass` (read its options with
            ``self.pass_.opt(name)``, bump extra counters with ``self.pass_.bump(name)``).

    The pass creates its patterns once per run, after its ``enable`` check and
    :meth:`FusionPass.prepare`: an ``__init__`` override (calling
    ``super().__init__(pass_)``) may precompute from the options.
    """

    root: ClassVar[str | tuple[str, ...]]
    benefit: ClassVar[int] = 1
    counter: ClassVar[str] = ""

    def __init__(self, pass_: Pass | None = None) -> None:
        self.pass_ = pass_
        self.rejection: str | None = None

    def reject(self, reason: str) -> None:
        """Says why :meth:`match` does not match (``return self.reject("...")``): logged with the
        op's ONNX node at debug level (``GE_MLIR_LOG=debug``); returns None (no match)."""
        self.rejection = reason
        return None

    def enabled(self) -> bool:
        """Whether the running pass uses this pattern (e.g. ``return self.pass_.opt("gelu")``)."""
        return True

    def match(self, op: ir.OpView) -> Any:
        """Returns ``None``/``False`` for no match, anything else (passed to
        :meth:`apply` as ``data``) for a match. Must not change the IR."""
        raise NotImplementedError

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data: Any) -> str | None:
        """Rewrites the matched ``op`` through ``rewriter`` (``replace_op``,
        ``erase_op``, new ops built at ``rewriter.ip``). Returning a string
        counts this rewrite under that counter instead of :attr:`counter`
        (e.g. ``f"{act}-fused"``)."""
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


def _check_patterns(pass_name: str, pats: Sequence[Any]) -> None:
    for p in pats:
        if not (isinstance(p, type) and issubclass(p, FusionPattern)):
            raise GeMlirError(f"fusion pass '{pass_name}': {p!r} is not a FusionPattern subclass")
        if not getattr(p, "root", None):
            raise GeMlirError(f"fusion pattern {p.__name__} must define 'root' (an op name such as 'ge.add')")


class FusionPass(Pass):
    """A pass applying :attr:`patterns` (FusionPattern classes, in order) greedily over the module.

    Subclasses set the usual :class:`Pass` attributes (``stage`` defaults to
    ``after-builtin-fusion``) and ``patterns``. The ``options`` a subclass
    declares are its own: ``enable`` is put before them and ``max-iterations``
    after them (unless the subclass declares one of those itself).
    """

    patterns: ClassVar[tuple[type[FusionPattern], ...]] = ()
    #: Marks passes as fusion passes for ``graphOptions.graphFusion`` / ``fusionSwitch.ALL``.
    fusion: ClassVar[bool] = True
    stage: ClassVar[str] = "after-builtin-fusion"
    options: ClassVar[tuple[Option, ...]] = (ENABLE_OPTION, MAX_ITERATIONS_OPTION)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "patterns" in cls.__dict__:
            cls.patterns = tuple(cls.patterns)
            _check_patterns(getattr(cls, "name", cls.__name__), cls.patterns)
        if "options" in cls.__dict__:
            own = tuple(cls.__dict__["options"])
            names = {o.name for o in own}
            cls.options = (
                (() if ENABLE_OPTION.name in names else (ENABLE_OPTION,))
                + own
                + (() if MAX_ITERATIONS_OPTION.name in names else (MAX_ITERATIONS_OPTION,))
            )

    def prepare(self, module: ir.Operation) -> None:
        """Called once per run when enabled, before the patterns are created:
        check options here (raise ``PassFailure``)."""

    def run(self, module: ir.Operation) -> None:
        self.statistics.setdefault("rewrites", 0)
        if not self.opt("enable"):
            return
        self.prepare(module)
        patterns = RewritePatternSet()
        for cls in self.patterns:
            inst = cls(self)
            if not inst.enabled():
                continue
            roots = (cls.root,) if isinstance(cls.root, str) else tuple(cls.root)
            fn = self._adapt(inst, cls.counter_name())
            for root in roots:
                patterns.add(root, fn, benefit=cls.benefit)
        apply_without_folding(self, patterns, module)

    def _adapt(self, inst: FusionPattern, counter: str) -> Callable[[ir.OpView, PatternRewriter], bool]:
        pattern = type(inst).__name__
        logged: set[tuple[str, str]] = set()  # rejections already logged in this run (the driver retries)

        def fn(op: ir.OpView, rewriter: PatternRewriter) -> bool:
            # mlir.rewrite: a falsy return means "matched and rewritten".
            debug = log.isEnabledFor(10)  # logging.DEBUG
            try:
                inst.rejection = None
                data = inst.match(op)
                if data is None or data is False:
                    if debug:
                        self._log_rejection(op, pattern, inst.rejection or "no match", logged)
                    return True
                budget = active_budget()  # ge-bisect's rewrite limit
                if budget is not None:
                    if budget.exhausted:
                        if debug:
                            self._log_rejection(op, pattern, "refused: ge-bisect's rewrite budget is spent", logged)
                        return True
                    budget.record(type(inst).__name__, *op_identity(op))
                where = _describe(op) if debug else ""
                chosen = inst.apply(op, rewriter, data)
            except Exception as e:  # re-raised by run(), reported by the pass callback
                note_pattern_error(e)
                raise
            self.bump("rewrites")
            self.bump(chosen if isinstance(chosen, str) else counter)
            if debug:
                log.debug("%s: %s matched at %s -> %s", self.name, pattern, where,
                          chosen if isinstance(chosen, str) else counter)
            return False

        fn.__name__ = type(inst).__name__
        return fn

    def _log_rejection(self, op: ir.OpView, pattern: str, reason: str, logged: set[tuple[str, str]]) -> None:
        where = _describe(op)
        if (where, reason) in logged:
            return
        logged.add((where, reason))
        log.debug("%s: %s rejected at %s: %s", self.name, pattern, where, reason)


def _describe(op: ir.OpView | ir.Operation) -> str:
    """``node 'conv1' (ge.conv2d)``, or the printed location when it names no node."""
    operation = op.operation if isinstance(op, ir.OpView) else op
    name = node_name(operation.location)
    return f"node '{name}' ({operation.name})" if name is not None else f"{operation.location} ({operation.name})"


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
    pattern class, with the pass as ``Pattern.pass_class``. ``options`` are the
    pass's own (``enable`` and ``max-iterations`` are added).
    """

    def make(pats: Sequence[type[FusionPattern]]) -> type[FusionPass]:
        _check_patterns(name, pats)
        body = {
            "name": name,
            "summary": summary or (pats[0].__doc__ or "").strip().split("\n")[0] or f"fusion patterns {', '.join(p.__name__ for p in pats)}",
            "description": description,
            "stage": stage,
            "priority": priority,
            "targets": tuple(targets),
            "precision_sensitive": precision_sensitive,
            "patterns": tuple(pats),
            "options": tuple(options),
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
