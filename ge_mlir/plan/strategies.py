"""Placement strategies: ``fn(buffers, alignment) -> {buffer id: offset}``.

Every strategy reserves each buffer's size rounded up to ``alignment`` and returns
offsets that are multiples of ``alignment``; two buffers whose live ranges intersect
never share a byte. The arena a placement needs is :func:`arena_of`.

* ``greedy-by-size``: the CPU target's first plan (first fit, largest first), kept
  bit-for-bit so that IR planned before the planner existed stays the same.
* ``greedy-by-breadth``: TFLite's arena planner order (the most crowded program
  points first), each buffer into the best-fitting gap.
* ``best-fit``: largest first, each into the smallest gap that fits.
* ``exact``: CP-SAT (``ortools``) minimising the arena, seeded with the best heuristic
  (see :func:`solve_exact`; :func:`exact` is its strategy-shaped wrapper).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from .buffers import Buffer

__all__ = [
    "ExactResult",
    "HEURISTICS",
    "arena_of",
    "best_fit",
    "exact",
    "greedy_by_breadth",
    "greedy_by_size",
    "interval_bound",
    "round_up",
    "solve_exact",
]

Strategy = Callable[[Sequence[Buffer], int], dict]


def round_up(size: int, alignment: int) -> int:
    return (size + alignment - 1) // alignment * alignment


def arena_of(buffers: Sequence[Buffer], offsets: Mapping[int, int], alignment: int) -> int:
    """Bytes an arena needs for ``offsets`` (reserved, i.e. rounded, sizes; 0 when empty)."""
    return max((offsets[b.id] + round_up(b.size, alignment) for b in buffers), default=0)


def _overlaps(a: Buffer, b: Buffer) -> bool:
    return a.start <= b.end and b.start <= a.end


def greedy_by_size(buffers: Sequence[Buffer], alignment: int) -> dict[int, int]:
    """First fit, largest first: the workspace planner the CPU target had before this one.

    Its exact behaviour is a contract (the CPU target switched to it without its IR
    changing): a stable sort by rounded size, then each buffer at the first offset
    below which no time-overlapping placed buffer (scanned by offset) reaches.
    """
    sizes = {b.id: round_up(b.size, alignment) for b in buffers}
    placed: list[tuple[Buffer, int]] = []
    offsets: dict[int, int] = {}
    for b in sorted(buffers, key=lambda b: -sizes[b.id]):
        size = sizes[b.id]
        offset = 0
        for other, at in sorted(((o, at) for o, at in placed if _overlaps(o, b)), key=lambda p: p[1]):
            if offset + size <= at:
                break
            offset = max(offset, at + sizes[other.id])
        offsets[b.id] = offset
        placed.append((b, offset))
    return offsets


def _best_gap(busy: list[tuple[int, int]], size: int) -> int:
    """Offset of the smallest free gap of at least ``size`` bytes between the ``busy``
    (offset, end) ranges, the lowest such gap on ties; past the last range if none fits."""
    if size == 0:
        return 0  # holds no bytes, so it cannot collide with anything
    best, best_len = None, None
    cursor = 0
    for at, end in sorted(busy):
        gap = at - cursor
        if gap >= size and (best_len is None or gap < best_len):
            best, best_len = cursor, gap
        cursor = max(cursor, end)
    return cursor if best is None else best


def best_fit(buffers: Sequence[Buffer], alignment: int) -> dict[int, int]:
    """Largest first (longer live range first on ties: it constrains more buffers),
    each into the smallest gap that fits among the time-overlapping placed buffers."""
    sizes = {b.id: round_up(b.size, alignment) for b in buffers}
    order = sorted(buffers, key=lambda b: (-sizes[b.id], b.start - b.end, b.start))
    placed: list[Buffer] = []
    offsets: dict[int, int] = {}
    for b in order:
        busy = [(offsets[o.id], offsets[o.id] + sizes[o.id]) for o in placed if _overlaps(o, b) and sizes[o.id]]
        offsets[b.id] = _best_gap(busy, sizes[b.id])
        placed.append(b)
    return offsets


def _live_sets(buffers: Sequence[Buffer], alignment: int) -> list[tuple[int, int, list[Buffer]]]:
    """(point, live bytes, live buffers) at every point where some buffer starts.

    Those points suffice: the buffers live at any other point ``t`` are all live at the
    last start point before ``t``, so it is at least as crowded and is visited first.
    """
    by_start = sorted(buffers, key=lambda b: b.start)
    out = []
    active: list[Buffer] = []
    i = 0
    while i < len(by_start):
        point = by_start[i].start
        while i < len(by_start) and by_start[i].start == point:
            active.append(by_start[i])
            i += 1
        active = [b for b in active if b.end >= point]
        out.append((point, sum(round_up(b.size, alignment) for b in active), list(active)))
    return out


def greedy_by_breadth(buffers: Sequence[Buffer], alignment: int) -> dict[int, int]:
    """TFLite's "greedy by breadth": program points by live bytes, most first; at each,
    its unplaced buffers largest first, each into the best-fitting gap."""
    sizes = {b.id: round_up(b.size, alignment) for b in buffers}
    offsets: dict[int, int] = {}
    placed: list[Buffer] = []
    for _, _, live in sorted(_live_sets(buffers, alignment), key=lambda p: (-p[1], p[0])):
        for b in sorted((b for b in live if b.id not in offsets), key=lambda b: (-sizes[b.id], b.start - b.end)):
            busy = [(offsets[o.id], offsets[o.id] + sizes[o.id]) for o in placed if _overlaps(o, b) and sizes[o.id]]
            offsets[b.id] = _best_gap(busy, sizes[b.id])
            placed.append(b)
    return offsets


#: The heuristics in the planner's order (ties go to the first).
HEURISTICS: dict[str, Strategy] = {
    "greedy-by-size": greedy_by_size,
    "greedy-by-breadth": greedy_by_breadth,
    "best-fit": best_fit,
}


@dataclass
class ExactResult:
    """What :func:`solve_exact` did.

    ``status``: ``"optimal"`` (proved), ``"feasible"`` (the time limit stopped the
    proof; the offsets are the best found, never worse than the hint), or
    ``"skipped"`` (``offsets`` is None, ``reason`` says why).
    """

    offsets: dict[int, int] | None
    status: str
    reason: str = ""


def interval_bound(buffers: Sequence[Buffer], alignment: int) -> int:
    """The largest total of rounded sizes live at one program point: no plan is smaller."""
    return max((live for _, live, _ in _live_sets(buffers, alignment)), default=0)


def solve_exact(
    buffers: Sequence[Buffer],
    alignment: int,
    *,
    hint: Mapping[int, int] | None = None,
    time_limit: float = 2.0,
    work_limit: float | None = None,
    max_buffers: int = 300,
    seed: int = 0,
) -> ExactResult:
    """Minimum arena by CP-SAT: one offset per buffer, ``NoOverlap2D`` over
    (live range x address range), minimise the arena.

    Sizes and offsets are counted in units of ``alignment``, which makes every
    offset aligned and keeps the domains small. ``hint`` (default: the best
    heuristic) seeds the search and bounds the arena from above, so the result is
    never worse than it.

    One worker and a fixed seed make the search itself deterministic: a solve that
    ends by proving optimality returns the same offsets on every machine. A solve cut
    by ``time_limit`` (wall-clock seconds) returns the best found so far, which can
    depend on machine speed and load (status ``"feasible"``). ``work_limit``, when
    given, replaces the wall clock with CP-SAT's deterministic time, for plans that
    must be reproducible whatever the load (it then measured 0.07-0.16 units per
    second on a loaded 2-core machine, so it is not seconds).
    """
    if len(buffers) > max_buffers:
        return ExactResult(None, "skipped", f"{len(buffers)} buffers, more than the exact solver's limit of {max_buffers}")
    try:
        from ortools.sat.python import cp_model
    except ImportError as e:  # optional dependency
        return ExactResult(None, "skipped", f"ortools is not installed ({e})")
    if hint is None:
        candidates = [fn(buffers, alignment) for fn in HEURISTICS.values()]
        hint = min(candidates, key=lambda o: arena_of(buffers, o, alignment))
    hint = dict(hint)
    units = {b.id: round_up(b.size, alignment) // alignment for b in buffers}
    upper = arena_of(buffers, hint, alignment) // alignment
    lower = interval_bound(buffers, alignment) // alignment
    real = [b for b in buffers if units[b.id]]
    offsets = {b.id: 0 for b in buffers if not units[b.id]}
    if upper <= lower:  # the hint meets the interval bound: nothing to search
        offsets.update({b.id: hint[b.id] for b in real})
        return ExactResult(offsets, "optimal", "the heuristic meets the lower bound")

    model = cp_model.CpModel()
    arena = model.new_int_var(lower, upper, "arena")
    xs, times, spaces = {}, [], []
    for b in real:
        x = model.new_int_var(0, upper - units[b.id], f"x{b.id}")
        xs[b.id] = x
        times.append(model.new_fixed_size_interval_var(b.start, b.end - b.start + 1, f"t{b.id}"))
        spaces.append(model.new_fixed_size_interval_var(x, units[b.id], f"a{b.id}"))
        model.add(x + units[b.id] <= arena)
        model.add_hint(x, hint[b.id] // alignment)
    model.add_no_overlap_2d(times, spaces)
    # Branch like the heuristics place: largest (then longest-lived) buffer first, lowest offset
    # first, alternating with CP-SAT's own search (quick-restart portfolio below). Alone, this
    # order found smaller arenas in crowded graphs but lost optimality proofs CP-SAT's search
    # makes in 0.1 s; alternating kept both on 50-300 random buffers.
    order = sorted(real, key=lambda b: (-units[b.id], b.start - b.end))
    model.add_decision_strategy([xs[b.id] for b in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    # Interchangeable buffers (same size, same live range): fix their order to cut symmetric search.
    twins: dict[tuple[int, int, int], list[Buffer]] = {}
    for b in real:
        twins.setdefault((units[b.id], b.start, b.end), []).append(b)
    for group in twins.values():
        group.sort(key=lambda b: hint[b.id])  # in the hint's order, so the hint stays a solution
        for a, b in zip(group, group[1:]):
            model.add(xs[a.id] + units[a.id] <= xs[b.id])
    model.add_hint(arena, upper)
    model.minimize(arena)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.search_branching = cp_model.PORTFOLIO_WITH_QUICK_RESTART_SEARCH
    if work_limit is None:
        solver.parameters.max_time_in_seconds = time_limit
    else:
        solver.parameters.max_deterministic_time = work_limit
    status = solver.solve(model)
    limit = f"time limit of {time_limit} s" if work_limit is None else f"work limit of {work_limit}"
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found = {b.id: solver.value(xs[b.id]) * alignment for b in real}
        if arena_of(real, found, alignment) <= upper * alignment:
            offsets.update(found)
            if status == cp_model.OPTIMAL:
                return ExactResult(offsets, "optimal")
            return ExactResult(offsets, "feasible", f"stopped by the {limit}")
    offsets.update({b.id: hint[b.id] for b in real})
    return ExactResult(offsets, "feasible", f"no solution at least as good as the hint within the {limit}")


def exact(buffers: Sequence[Buffer], alignment: int) -> dict[int, int]:
    """:func:`solve_exact` with its defaults; when it is skipped, the best heuristic's offsets."""
    result = solve_exact(buffers, alignment)
    if result.offsets is None:
        candidates = [fn(buffers, alignment) for fn in HEURISTICS.values()]
        return min(candidates, key=lambda o: arena_of(buffers, o, alignment))
    return result.offsets
