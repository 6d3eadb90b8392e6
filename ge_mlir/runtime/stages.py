"""The stages of every target: the graph stages, then the target's own (the ``compile_to`` names).

Compiled models and artefacts name the stage they reached and the compiler runs the stages, so
the table sits here, below both.
"""

from __future__ import annotations

from ..target import TARGETS as _TARGET_MODULES
from ..target import get_target

__all__ = ["GRAPH_STAGES", "STAGES", "TARGETS", "TARGET_STAGES"]

#: Stages every target starts with: the verified ge module, then the optimized graph.
GRAPH_STAGES: tuple[str, ...] = ("ge", "optimized")
#: Targets ``compile`` knows, with their stages.
TARGET_STAGES: dict[str, tuple[str, ...]] = {
    name: (*GRAPH_STAGES, *get_target(name).stages) for name in _TARGET_MODULES
}
TARGETS: tuple[str, ...] = tuple(TARGET_STAGES)
#: Every stage of the default (CPU) target, in pipeline order.
STAGES: tuple[str, ...] = TARGET_STAGES["cpu"]
