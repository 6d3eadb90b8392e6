"""The ge pass registry and pipeline construction.

A ge pass is a Python class registered with :func:`register_pass`; it has a
name ``ge-<verb>-<object>``, a summary, typed options, a pipeline stage, a
priority and the targets it applies to. Pipelines mix ge passes and upstream
MLIR passes by name::

    ge_mlir.run_pipeline(module, "builtin.module(ge-verify-graph, ge-canonicalize{cse=false}, func.func(cse))")

Built-in passes load lazily: naming one in a pipeline imports its module
(``ge-x-y`` is ``ge_x_y.py`` in one of :data:`registry.BUILTIN_PASS_PACKAGES`);
:func:`list_passes` imports them all.

Passes can also be written on a graph view of each function (:class:`GraphView`, :class:`Node`,
:func:`graph_pass`; ``ge_mlir.passes.graph_view``) without knowing MLIR.
"""

from .fusion import FusionPass, FusionPattern, fusion_pass
from .pipeline import PipelineElement, build_pass_manager, parse_pipeline
from .registry import (
    STAGES,
    Option,
    Pass,
    PassFailure,
    get_pass,
    list_passes,
    load_builtin_passes,
    register_pass,
)
from .report import PassReport, PassReportEntry

#: Names loaded from ``graph_view`` on first use (``ge-opt --version`` imports no pass machinery it does not run).
_GRAPH_VIEW = {"GraphView": "GraphView", "GraphPass": "GraphPass", "GraphValue": "Value", "Node": "Node",
               "graph_pass": "graph_pass", "graphs": "graphs"}


def __getattr__(name: str):
    if name in _GRAPH_VIEW:
        from . import graph_view

        return getattr(graph_view, _GRAPH_VIEW[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "STAGES",
    "FusionPass",
    "FusionPattern",
    "GraphPass",
    "GraphValue",
    "GraphView",
    "Node",
    "Option",
    "Pass",
    "PassFailure",
    "PassReport",
    "PassReportEntry",
    "PipelineElement",
    "build_pass_manager",
    "fusion_pass",
    "get_pass",
    "graph_pass",
    "graphs",
    "list_passes",
    "load_builtin_passes",
    "parse_pipeline",
    "register_pass",
]

