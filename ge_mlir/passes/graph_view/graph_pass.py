"""Graph passes: passes written on the graph view, registered like any other pass."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from mlir import ir
from mlir.rewrite import PatternRewriter, RewritePatternSet, walk_and_apply_patterns

from ...errors import GraphEditError, PassFailure
from ..registry import Option, Pass, register_pass
from ._errors import _edit_error
from .graph import GraphView


class GraphPass(Pass):
    """A pass written on the graph view: :meth:`transform` runs once per function.

    Subclasses set the usual :class:`~ge_mlir.passes.Pass` attributes and implement
    ``transform(graph)`` (returning the graph or None); :func:`graph_pass` makes one from a
    function. Statistics: ``rewrites`` (edits that change what the graph computes) and one counter
    per kind of edit (``nodes-created``, ``nodes-removed``, ``uses-replaced``, ``inputs-set``,
    ``attrs-set``)."""

    stage: ClassVar[str] = "after-builtin-fusion"
    #: The name recorded as the "pattern" of each rewrite under ge-bisect's budget.
    pattern_name: ClassVar[str] = ""

    def transform(self, graph: GraphView) -> GraphView | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, module: ir.Operation) -> None:
        self.statistics.setdefault("rewrites", 0)
        state: dict[str, Any] = {}
        pattern = self.pattern_name or type(self).__name__

        def on_function(func: ir.OpView, rewriter: PatternRewriter) -> bool:
            fn = func.operation
            if not len(fn.regions[0].blocks):
                return True  # a declaration: no graph
            graph = GraphView(fn, rewriter=rewriter, pattern=pattern)
            state["graph"] = graph
            result = self.transform(graph)
            if result is not None and result is not graph:
                raise _edit_error(f"graph pass {pattern!r} returned {type(result).__name__}; "
                                  "return the graph it was given (or None)")
            graph._finish()
            graph.verify()
            for key, n in graph.counts.items():
                if key != "rewrites":
                    self.bump(key, n)
            self.statistics["rewrites"] += graph.counts.get("rewrites", 0)
            return not graph.changed  # falsy: "matched and rewritten"

        patterns = RewritePatternSet()
        patterns.add("func.func", on_function, 1)
        try:
            walk_and_apply_patterns(module, patterns.freeze())
        except GraphEditError as e:
            self._report(e, state.get("graph"), module)
        except PassFailure:
            raise
        except Exception as e:  # a bug in the user's function: say whose and where
            self.internal_error = traceback.format_exc()
            graph = state.get("graph")
            where = f" on function @{graph.name}" if graph is not None else ""
            loc = graph.func.location if graph is not None else module.location
            loc.emit_error(f"{self.name}: graph pass {pattern!r} raised {type(e).__name__}{where}: {e}")
            raise PassFailure(str(e), reported=True) from e

    def _report(self, e: GraphEditError, graph: GraphView | None, module: ir.Operation) -> None:
        loc = getattr(e, "location", None) or (graph.func.location if graph is not None else module.location)
        text = str(e).replace("\n", "\n  ")
        loc.emit_error(f"{self.name}: graph edit refused: {text}")
        raise PassFailure(e.message, reported=True) from e


def graph_pass(
    fn: Callable[..., GraphView | None] | None = None,
    *,
    name: str,
    summary: str = "",
    stage: str = "after-builtin-fusion",
    priority: int = 100,
    targets: Sequence[str] = ("*",),
    precision_sensitive: bool = False,
    options: Sequence[Option] = (),
    description: str = "",
) -> Any:
    """Registers a :class:`GraphPass` running ``fn(graph)`` (or ``fn(graph, pass_)`` to read
    options with ``pass_.opt(name)``) on every function; ``fn`` returns the graph or None.

    Used as ``@graph_pass(name="ge-...", stage=..., priority=..., summary=...)`` it returns the
    function, with the pass class as ``fn.pass_class``. The pass is registered like any other:
    ``ge-opt --list-passes``, pipelines, the config's ``passes``/``passModules``, the pass report
    and ge-bisect see it."""

    def make(f: Callable[..., GraphView | None]) -> Callable[..., GraphView | None]:
        try:
            takes_pass = len(inspect.signature(f).parameters) >= 2
        except (TypeError, ValueError):  # pragma: no cover - builtins
            takes_pass = False

        def transform(self: GraphPass, graph: GraphView) -> GraphView | None:
            return f(graph, self) if takes_pass else f(graph)

        doc = (f.__doc__ or "").strip()
        body = {
            "name": name,
            "summary": summary or (doc.split("\n")[0] if doc else f"graph pass {f.__name__}"),
            "description": description or doc,
            "stage": stage,
            "priority": priority,
            "targets": tuple(targets),
            "precision_sensitive": precision_sensitive,
            "options": tuple(options),
            "pattern_name": f.__name__,
            "transform": transform,
            "__module__": f.__module__,
        }
        cls_name = "".join(w.capitalize() for w in name.split("-")) + "Pass"
        f.pass_class = register_pass(type(cls_name, (GraphPass,), body))  # type: ignore[attr-defined]
        return f

    return make(fn) if fn is not None else make
