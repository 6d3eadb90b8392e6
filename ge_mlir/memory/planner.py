"""Best of N: run the placement strategies and keep the smallest arena.

``plan(buffers, strategy="aggressive")`` is CANN GE's HybridMemAssigner idea: no single
heuristic wins on every graph, so run them all (they are cheap next to compilation),
then the exact solver seeded with the best of them when the graph is small enough.
"""

from __future__ import annotations

from typing import Sequence

from ..planner_strategies import AGGRESSIVE, PLANNER_STRATEGIES
from .buffers import Buffer, Plan
from .strategies import HEURISTICS, arena_of, interval_bound, round_up, solve_exact

__all__ = ["STRATEGIES", "lower_bound", "no_reuse", "plan"]

#: Strategy names in tie-break order: on equal arenas the first wins, so greedy-by-size
#: (the CPU target's original planner) keeps its IR unless another strategy is smaller. The
#: names are the options' (``memory_reuse_strategy``, checked before a planner is loaded): each
#: is a heuristic of ``HEURISTICS`` or the exact solve. ``AGGRESSIVE`` selects every strategy,
#: keeping the smallest arena.
STRATEGIES: tuple[str, ...] = PLANNER_STRATEGIES


def lower_bound(buffers: Sequence[Buffer], alignment: int) -> int:
    """Max over program points of the rounded bytes live there (the interval bound)."""
    return interval_bound(buffers, alignment)


def no_reuse(buffers: Sequence[Buffer], alignment: int) -> int:
    """The arena if nothing shared bytes: the sum of rounded sizes."""
    return sum(round_up(b.size, alignment) for b in buffers)


def _validate(buffers: Sequence[Buffer], alignment: int) -> None:
    if not isinstance(alignment, int) or alignment < 1:
        raise ValueError(f"alignment must be a positive byte count, got {alignment!r}")
    seen: set[int] = set()
    for b in buffers:
        if b.id in seen:
            raise ValueError(f"buffer id {b.id} appears twice")
        seen.add(b.id)
        if b.size < 0:
            raise ValueError(f"buffer {b.id} has a negative size {b.size}")
        if b.end < b.start:
            raise ValueError(f"buffer {b.id} has an empty live range [{b.start}, {b.end}]")


def plan(
    buffers: Sequence[Buffer],
    *,
    alignment: int = 64,
    strategy: str = AGGRESSIVE,
    time_limit: float = 2.0,
    work_limit: float | None = None,
    max_exact_buffers: int = 300,
) -> Plan:
    """Offsets for ``buffers`` in one arena.

    ``strategy``: ``"aggressive"`` (every strategy, smallest arena, ties to the first in
    :data:`STRATEGIES`) or one name of :data:`STRATEGIES`. ``time_limit`` (wall-clock seconds;
    or ``work_limit``, CP-SAT deterministic time, for plans that do not depend on machine
    load: see :func:`~ge_mlir.memory.strategies.solve_exact`) and ``max_exact_buffers``
    bound the exact solver; above that count, or without ``ortools``, it is skipped and
    ``Plan.notes`` says why (a lone ``"exact"`` then falls back to the best heuristic).
    """
    if strategy != AGGRESSIVE and strategy not in STRATEGIES:
        raise ValueError(
            f"unknown memory planning strategy {strategy!r}; choose one of: {', '.join((AGGRESSIVE, *STRATEGIES))}"
        )
    _validate(buffers, alignment)
    buffers = list(buffers)
    bound = lower_bound(buffers, alignment)
    if not buffers:
        return Plan({}, 0, alignment, strategy if strategy != AGGRESSIVE else STRATEGIES[0], {}, {}, 0)

    results: dict[str, dict[int, int]] = {}
    notes: dict[str, str] = {}
    if strategy in HEURISTICS:
        results[strategy] = HEURISTICS[strategy](buffers, alignment)
    else:
        heuristics = {name: fn(buffers, alignment) for name, fn in HEURISTICS.items()}
        hint = min(heuristics.values(), key=lambda o: arena_of(buffers, o, alignment))
        if strategy == AGGRESSIVE:
            results.update(heuristics)
        exact = solve_exact(
            buffers, alignment, hint=hint, time_limit=time_limit, work_limit=work_limit, max_buffers=max_exact_buffers
        )
        if exact.offsets is None:
            notes["exact"] = f"skipped: {exact.reason}"
            if strategy == "exact":  # asked for alone: fall back to the best heuristic, saying so
                best = min(heuristics, key=lambda n: arena_of(buffers, heuristics[n], alignment))
                results[best] = heuristics[best]
        else:
            results["exact"] = exact.offsets
            notes["exact"] = exact.status + (f" ({exact.reason})" if exact.reason else "")

    arenas = {name: arena_of(buffers, offsets, alignment) for name, offsets in results.items()}
    chosen = min(results, key=lambda n: (arenas[n], STRATEGIES.index(n)))
    return Plan(dict(results[chosen]), arenas[chosen], alignment, chosen, arenas, notes, bound)
