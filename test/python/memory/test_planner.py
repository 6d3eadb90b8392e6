"""The memory planner core (ge_mlir.memory): strategies, best-of-N, bounds, and the independent checker."""

from __future__ import annotations

import random
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ge_mlir.errors import GeMlirError, PlanError
from ge_mlir.memory.buffers import Buffer, Plan
from ge_mlir.memory.checker import check_plan
from ge_mlir.memory.planner import STRATEGIES, lower_bound, no_reuse, plan
from ge_mlir.memory.strategies import greedy_by_size, solve_exact

HEURISTIC_NAMES = [s for s in STRATEGIES if s != "exact"]


def B(id: int, size: int, start: int, end: int) -> Buffer:
    return Buffer(id, size, start, end, f"t{id}")


def old_first_fit(buffers, alignment):
    """A copy of the CPU target's workspace planner before ge_mlir.memory (the body of
    ``plan_workspace`` in ge_plan_workspace.py) on (start, end, size) records: the contract
    greedy-by-size keeps so that the CPU target's IR does not change."""
    plans = [[b, b.start, b.end, (b.size + alignment - 1) // alignment * alignment, 0] for b in buffers]
    placed = []
    for p in sorted(plans, key=lambda p: -p[3]):
        offset = 0
        for other in sorted((o for o in placed if o[1] <= p[2] and p[1] <= o[2]), key=lambda o: o[4]):
            if offset + p[3] <= other[4]:
                break
            offset = max(offset, other[4] + other[3])
        p[4] = offset
        placed.append(p)
    return {p[0].id: p[4] for p in plans}


# --- hand-made cases ---------------------------------------------------------------------------

#: name -> (buffers, alignment, optimal arena)
CASES = {
    # a -> b -> c -> d, each op reads the previous tensor: two buffers suffice.
    "chain": ([B(0, 100, 0, 1), B(1, 100, 1, 2), B(2, 100, 2, 3), B(3, 100, 3, 4)], 64, 256),
    # a feeds b and c, both feed d: a, b, c live together, then b, c, d.
    "diamond": ([B(0, 256, 0, 2), B(1, 128, 1, 3), B(2, 128, 2, 3), B(3, 64, 3, 4)], 64, 512),
    "all-overlapping": ([B(i, 64 * (i + 1), 0, 5) for i in range(5)], 64, 64 * 15),
    "disjoint": ([B(i, 64 * (5 - i), i, i) for i in range(5)], 64, 320),
    "zero-size": ([B(0, 0, 0, 3), B(1, 128, 0, 1), B(2, 0, 1, 2), B(3, 128, 1, 2), B(4, 0, 5, 5)], 64, 256),
    # One byte each still reserves a whole alignment unit.
    "alignment": ([B(0, 1, 0, 2), B(1, 65, 1, 3), B(2, 3, 2, 4)], 64, 64 * 4),
    "alignment-1": ([B(0, 3, 0, 2), B(1, 5, 1, 3), B(2, 7, 3, 4)], 1, 12),
    "single": ([B(7, 1000, 3, 3)], 128, 1024),
}


@pytest.mark.parametrize("strategy", [*STRATEGIES, "aggressive"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hand_made_cases_pass_the_checker(case, strategy):
    buffers, alignment, optimum = CASES[case]
    p = plan(buffers, alignment=alignment, strategy=strategy)
    check_plan(buffers, p)
    assert p.alignment == alignment
    assert all(off % alignment == 0 for off in p.offsets.values())
    assert optimum <= p.arena <= no_reuse(buffers, alignment)
    if strategy in ("exact", "aggressive"):
        assert p.arena == optimum, p.arenas


def test_bounds():
    buffers, alignment, _ = CASES["diamond"]
    assert lower_bound(buffers, alignment) == 512
    assert no_reuse(buffers, alignment) == 256 + 128 + 128 + 64
    assert lower_bound(CASES["alignment"][0], 64) == 64 * 4
    assert lower_bound([], 64) == no_reuse([], 64) == 0
    assert lower_bound([B(0, 0, 0, 9)], 64) == 0


def test_greedy_by_size_is_the_old_first_fit_on_the_hand_made_cases():
    for buffers, alignment, _ in CASES.values():
        assert greedy_by_size(buffers, alignment) == old_first_fit(buffers, alignment)


def test_exact_beats_every_heuristic_on_a_small_instance():
    # Found by search: greedy-by-size needs 7, the other heuristics 8, the optimum is the bound, 6.
    buffers = [B(0, 2, 2, 3), B(1, 4, 0, 1), B(2, 2, 1, 2), B(3, 3, 3, 5)]
    p = plan(buffers, alignment=1)
    check_plan(buffers, p)
    assert p.arenas == {"greedy-by-size": 7, "greedy-by-breadth": 8, "best-fit": 8, "exact": 6}
    assert p.strategy == "exact" and p.arena == 6 == p.lower_bound
    assert p.notes["exact"] == "optimal"


def test_aggressive_ties_go_to_greedy_by_size():
    buffers, alignment, _ = CASES["chain"]
    p = plan(buffers, alignment=alignment)
    assert p.strategy == "greedy-by-size"
    assert p.offsets == old_first_fit(buffers, alignment)
    assert set(p.arenas) == set(STRATEGIES)


def test_a_named_strategy_runs_alone():
    buffers, alignment, _ = CASES["diamond"]
    for name in STRATEGIES:
        p = plan(buffers, alignment=alignment, strategy=name)
        assert p.strategy == name and set(p.arenas) == {name}


def test_unknown_strategy_lists_the_choices():
    with pytest.raises(ValueError, match="unknown memory planning strategy 'first-fit'") as info:
        plan([B(0, 1, 0, 0)], strategy="first-fit")
    for name in ("aggressive", *STRATEGIES):
        assert name in str(info.value)


def test_empty_input():
    for strategy in ("aggressive", *STRATEGIES):
        p = plan([], strategy=strategy)
        assert p.arena == 0 and p.offsets == {}
        check_plan([], p)


@pytest.mark.parametrize(
    "buffers, alignment, message",
    [
        ([B(0, 1, 0, 0), B(0, 1, 1, 1)], 64, "appears twice"),
        ([B(0, -1, 0, 0)], 64, "negative size"),
        ([B(0, 1, 3, 2)], 64, "empty live range"),
        ([B(0, 1, 0, 0)], 0, "alignment"),
    ],
)
def test_bad_input_is_refused(buffers, alignment, message):
    with pytest.raises(ValueError, match=message):
        plan(buffers, alignment=alignment)


def test_exact_is_skipped_above_its_buffer_limit():
    buffers = [B(i, 64 * (1 + i % 3), i, i + 2) for i in range(12)]
    p = plan(buffers, max_exact_buffers=10)
    assert "exact" not in p.arenas
    assert p.notes["exact"].startswith("skipped: 12 buffers, more than") and "limit of 10" in p.notes["exact"]
    check_plan(buffers, p)
    # Asked for by name, it falls back to the best heuristic and says so.
    alone = plan(buffers, strategy="exact", max_exact_buffers=10)
    assert alone.strategy in HEURISTIC_NAMES and alone.notes["exact"].startswith("skipped")


def test_exact_is_skipped_without_ortools(monkeypatch):
    monkeypatch.setitem(sys.modules, "ortools.sat.python", None)
    buffers = [B(0, 2, 2, 3), B(1, 4, 0, 1), B(2, 2, 1, 2), B(3, 3, 3, 5)]
    p = plan(buffers, alignment=1)
    assert p.notes["exact"].startswith("skipped: ortools is not installed")
    assert "exact" not in p.arenas and p.arena == 7
    assert solve_exact(buffers, 1).status == "skipped"


def test_exact_is_deterministic():
    rng = random.Random(5)
    buffers = []
    for i in range(60):
        s = rng.randrange(40)
        buffers.append(B(i, rng.randrange(1, 40) * 64, s, s + rng.randrange(8)))
    first = plan(buffers, strategy="exact", work_limit=0.5)
    assert first.notes["exact"] == "optimal"
    assert plan(buffers, strategy="exact", work_limit=0.5).offsets == first.offsets


def test_exact_stops_at_its_time_limit_no_worse_than_the_heuristics():
    # Long, crowded live ranges: CP-SAT cannot prove the optimum in 0.3 s.
    rng = random.Random(1)
    buffers = []
    for i in range(200):
        s = rng.randrange(200)
        buffers.append(B(i, rng.randrange(1, 65) * 4096, s, s + int(rng.expovariate(1 / 40))))
    t0 = time.perf_counter()
    p = plan(buffers, time_limit=0.3)
    # A generous wall-clock guard: the child's start-up and OR-Tools import count too, and CI machines are slower.
    assert time.perf_counter() - t0 < 60
    check_plan(buffers, p)
    assert p.notes["exact"].startswith("feasible"), p.notes
    assert "child failed" not in p.notes["exact"], p.notes  # a dead solver also reports "feasible"
    assert p.arenas["exact"] <= min(p.arenas[h] for h in HEURISTIC_NAMES)
    assert p.arena >= p.lower_bound


# --- the checker ------------------------------------------------------------------------------


def _plan(offsets, arena, alignment=64):
    return Plan(offsets, arena, alignment, "hand")


def test_checker_accepts_a_correct_plan():
    buffers = [B(0, 100, 0, 1), B(1, 64, 1, 2), B(2, 100, 2, 3)]
    check_plan(buffers, _plan({0: 0, 1: 128, 2: 0}, 192))


@pytest.mark.parametrize(
    "offsets, arena, message",
    [
        ({0: 0, 1: 64, 2: 0}, 192, r"buffer 1 \(t1\) \[64, 128\) and buffer 0 \(t0\) \[0, 100\) share bytes .* point 1"),
        ({0: 0, 1: 128, 2: 32}, 192, "offset 32, not a multiple of the alignment 64"),
        ({0: 0, 1: 128, 2: 0}, 150, r"buffer 1 \(t1\) occupies \[128, 192\), outside the arena \[0, 150\)"),
        ({0: -64, 1: 128, 2: 0}, 192, "outside the arena"),
        ({0: 0, 1: 128}, 192, r"buffer 2 \(t2\) has no offset"),
        ({0: 0, 1: 128, 2: 0, 9: 0}, 192, "unknown buffer id"),
    ],
)
def test_checker_rejects(offsets, arena, message):
    buffers = [B(0, 100, 0, 1), B(1, 64, 1, 2), B(2, 100, 2, 3)]
    with pytest.raises(PlanError, match=message):
        check_plan(buffers, _plan(offsets, arena))


def test_plan_error_is_a_ge_mlir_error():
    assert issubclass(PlanError, GeMlirError)


def test_checker_lets_empty_buffers_sit_anywhere_inside():
    check_plan([B(0, 128, 0, 5), B(1, 0, 2, 3)], _plan({0: 0, 1: 64}, 128))


def test_checker_sees_overlaps_that_start_late():
    # b1 starts while b0 lives, far from b0's own start: the sweep must still compare them.
    buffers = [B(0, 64, 0, 100), B(1, 64, 50, 60), B(2, 64, 99, 120)]
    check_plan(buffers, _plan({0: 0, 1: 64, 2: 64}, 128))
    with pytest.raises(PlanError, match="point 99"):
        check_plan(buffers, _plan({0: 0, 1: 64, 2: 0}, 128))


# --- random and property tests ----------------------------------------------------------------


def _random_buffers(rng: random.Random, n: int) -> list[Buffer]:
    out = []
    for i in range(n):
        start = rng.randrange(2 * n)
        size = rng.choice([0, 1, 64, 100, 4096, rng.randrange(1, 1 << 16), rng.randrange(1, 1 << 20)])
        out.append(B(i, size, start, start + int(rng.expovariate(1 / 6))))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_greedy_by_size_equals_the_old_first_fit(seed):
    rng = random.Random(seed)
    buffers = _random_buffers(rng, rng.randrange(1, 120))
    alignment = rng.choice([1, 16, 64, 256])
    assert greedy_by_size(buffers, alignment) == old_first_fit(buffers, alignment)


sizes = st.one_of(st.sampled_from([0, 1, 64, 100, 128, 1000]), st.integers(0, 5000))


@st.composite
def buffer_lists(draw, max_size=24):
    n = draw(st.integers(0, max_size))
    out = []
    for i in range(n):
        start = draw(st.integers(0, 30))
        out.append(B(i, draw(sizes), start, start + draw(st.integers(0, 10))))
    return out


# A fixed example count keeps the run short and bounded; no example database is written
# into the shared working tree.
PROPERTY = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(buffer_lists(), st.sampled_from([1, 16, 64]))
def test_every_strategy_makes_a_valid_plan_no_smaller_than_the_bound(buffers, alignment):
    bound = lower_bound(buffers, alignment)
    best = plan(buffers, alignment=alignment, time_limit=0.5)
    check_plan(buffers, best)
    assert best.lower_bound == bound <= best.arena <= no_reuse(buffers, alignment)
    assert best.arena == min(best.arenas.values(), default=0)
    for name in STRATEGIES:
        p = plan(buffers, alignment=alignment, strategy=name, time_limit=0.5)
        check_plan(buffers, p)
        assert bound <= p.arena
        assert best.arena <= p.arena, (name, best.arenas, p.arena)
    if best.notes.get("exact", "").startswith("optimal"):
        assert all(best.arenas["exact"] <= best.arenas[h] for h in HEURISTIC_NAMES), best.arenas


@PROPERTY
@given(buffer_lists(), st.sampled_from([1, 64]))
def test_greedy_by_size_is_the_old_first_fit_property(buffers, alignment):
    assert greedy_by_size(buffers, alignment) == old_first_fit(buffers, alignment)


@PROPERTY
@given(buffer_lists(max_size=12), st.data())
def test_checker_rejects_planted_faults(buffers, data):
    alignment = 64
    good = plan(buffers, alignment=alignment, strategy="best-fit")
    check_plan(buffers, good)
    real = [b for b in buffers if b.size]
    if not real:
        return
    victim = data.draw(st.sampled_from(real))
    # Misaligned.
    bad = {**good.offsets, victim.id: good.offsets[victim.id] + 1}
    with pytest.raises(PlanError):
        check_plan(buffers, Plan(bad, good.arena + alignment, alignment, "planted"))
    # Past the arena's end.
    with pytest.raises(PlanError, match="outside the arena"):
        check_plan(buffers, Plan({**good.offsets, victim.id: good.arena}, good.arena, alignment, "planted"))
    # Onto a buffer live at the same time.
    partners = [b for b in real if b.id != victim.id and b.start <= victim.end and victim.start <= b.end]
    if partners:
        other = data.draw(st.sampled_from(partners))
        moved = {**good.offsets, victim.id: good.offsets[other.id]}
        with pytest.raises(PlanError, match="share bytes"):
            check_plan(buffers, Plan(moved, good.arena + victim.size, alignment, "planted"))
