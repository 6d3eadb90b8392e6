"""The planner's data model: buffers with live ranges in, offsets and an arena size out."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Buffer", "Plan"]


@dataclass(frozen=True)
class Buffer:
    """One buffer to place: live from program point ``start`` to ``end`` inclusive.

    Two buffers may share bytes only when their live ranges do not intersect
    (``a.end < b.start`` or ``b.end < a.start``).
    """

    id: int
    size: int
    start: int
    end: int
    #: What the buffer holds, for reports (an op location / ONNX tensor name).
    name: str = ""


@dataclass
class Plan:
    """Offsets of every buffer in one arena of ``arena`` bytes, every offset a multiple of ``alignment``."""

    offsets: dict[int, int]
    arena: int
    alignment: int
    #: The strategy whose placement this is.
    strategy: str
    #: Arena size each strategy reached (the best-of-N record).
    arenas: dict[str, int] = field(default_factory=dict)
    #: Per strategy, what happened besides its arena: ``"optimal"``/``"feasible"`` for the
    #: exact solver, or why a strategy was skipped (``"skipped: ortools is not installed"``).
    notes: dict[str, str] = field(default_factory=dict)
    #: The interval lower bound (largest live byte total at one program point, sizes rounded).
    lower_bound: int = 0
