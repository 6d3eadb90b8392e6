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
  (see :func:`solve_exact`).
"""

from __future__ import annotations

import sys

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from .buffers import Buffer

__all__ = [
    "ExactResult",
    "HEURISTICS",
    "arena_of",
    "best_fit",
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


def live_sets(buffers: Sequence[Buffer], alignment: int) -> list[tuple[int, int, list[Buffer]]]:
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
    for _, _, live in sorted(live_sets(buffers, alignment), key=lambda p: (-p[1], p[0])):
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
    return max((live for _, live, _ in live_sets(buffers, alignment)), default=0)


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
    missing = _ortools_missing()
    if missing:
        return ExactResult(None, "skipped", f"ortools is not installed ({missing})")
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

    problem = {
        "buffers": [[b.id, units[b.id], b.start, b.end] for b in real],
        "hint": {str(b.id): hint[b.id] // alignment for b in real},
        "lower": lower, "upper": upper, "seed": seed, "time_limit": time_limit, "work_limit": work_limit,
    }
    limit = f"time limit of {time_limit} s" if work_limit is None else f"work limit of {work_limit}"
    answer, failure = _solve_in_child(problem, time_limit, work_limit)
    if answer is None:
        offsets.update({b.id: hint[b.id] for b in real})
        return ExactResult(offsets, "feasible", f"the CP-SAT child failed ({failure}); kept the hint")
    if answer["offsets"] is not None:
        found = {b.id: answer["offsets"][str(b.id)] * alignment for b in real}
        if arena_of(real, found, alignment) <= upper * alignment:
            offsets.update(found)
            if answer["status"] == "optimal":
                return ExactResult(offsets, "optimal")
            return ExactResult(offsets, "feasible", f"stopped by the {limit}")
    offsets.update({b.id: hint[b.id] for b in real})
    return ExactResult(offsets, "feasible", f"no solution at least as good as the hint within the {limit}")


def _ortools_missing() -> str:
    """Why OR-Tools cannot be used here ('' when it can), without importing it into this process."""
    import importlib.util
    from pathlib import Path

    if "ortools.sat.python" in sys.modules and sys.modules["ortools.sat.python"] is None:
        return "import blocked"
    # Only the top-level spec: finding ``ortools.sat.python`` would import ``ortools.sat``, whose
    # native libraries are what must stay out of this process.
    spec = importlib.util.find_spec("ortools")
    if spec is None or not spec.submodule_search_locations:
        return "no module named 'ortools'"
    if not any((Path(d) / "sat" / "python").is_dir() for d in spec.submodule_search_locations):
        return "ortools has no sat.python"
    return ""


def _solve_in_child(problem: dict, time_limit: float, work_limit: float | None) -> tuple[dict | None, str]:
    """Runs the CP-SAT model in a child process (see ``_cpsat_child.py`` for why); (answer, why it failed)."""
    import json
    import subprocess
    from pathlib import Path

    # Work units are not seconds (0.07-0.16 per second measured under load): a wall-clock guard
    # far above either limit only catches a hung child.
    guard = 60.0 + 30.0 * (time_limit if work_limit is None else work_limit * 20)
    child = Path(__file__).with_name("_cpsat_child.py")
    try:
        proc = subprocess.run([sys.executable, str(child)], input=json.dumps(problem), capture_output=True,
                              text=True, timeout=guard, check=False)
    except subprocess.TimeoutExpired:
        return None, f"no answer within {guard:.0f} s"
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or [f"exit code {proc.returncode}"]
        return None, tail[0]
    try:
        return json.loads(proc.stdout), ""
    except ValueError as e:
        return None, f"unreadable answer: {e}"
