"""The CP-SAT solve of the exact strategy, run in a child process (stdin: JSON problem, stdout: JSON answer).

Why a child: OR-Tools bundles its own protobuf and abseil. In a process that has also
loaded TensorFlow or PyTorch (the front ends, the test suite), ``CpSolver.solve``
segfaulted (fresh-clone CI, test_onnx_numerics). A crash here must cost the exact
strategy, not the compiler. This file imports nothing from ge_mlir, so the child starts
with only the standard library and OR-Tools.
"""

from __future__ import annotations

import json
import sys


def solve(problem: dict) -> dict:
    """Minimum arena in alignment units; ``problem`` holds plain numbers only."""
    from ortools.sat.python import cp_model

    buffers = problem["buffers"]  # [id, units, start, end], units > 0
    hint = {int(k): v for k, v in problem["hint"].items()}  # id -> offset in units
    lower, upper = problem["lower"], problem["upper"]
    model = cp_model.CpModel()
    arena = model.new_int_var(lower, upper, "arena")
    xs, times, spaces = {}, [], []
    for bid, units, start, end in buffers:
        x = model.new_int_var(0, upper - units, f"x{bid}")
        xs[bid] = x
        times.append(model.new_fixed_size_interval_var(start, end - start + 1, f"t{bid}"))
        spaces.append(model.new_fixed_size_interval_var(x, units, f"a{bid}"))
        model.add(x + units <= arena)
        model.add_hint(x, hint[bid])
    model.add_no_overlap_2d(times, spaces)
    # Branch like the heuristics place: largest (then longest-lived) buffer first, lowest offset
    # first, alternating with CP-SAT's own search (quick-restart portfolio below). Alone, this
    # order found smaller arenas in crowded graphs but lost optimality proofs CP-SAT's search
    # makes in 0.1 s; alternating kept both on 50-300 random buffers.
    order = sorted(buffers, key=lambda b: (-b[1], b[2] - b[3]))
    model.add_decision_strategy([xs[b[0]] for b in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    # Interchangeable buffers (same size, same live range): fix their order to cut symmetric search.
    twins: dict[tuple[int, int, int], list[list[int]]] = {}
    for b in buffers:
        twins.setdefault((b[1], b[2], b[3]), []).append(b)
    for group in twins.values():
        group.sort(key=lambda b: hint[b[0]])  # in the hint's order, so the hint stays a solution
        for a, b in zip(group, group[1:]):
            model.add(xs[a[0]] + a[1] <= xs[b[0]])
    model.add_hint(arena, upper)
    model.minimize(arena)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = problem["seed"]
    solver.parameters.search_branching = cp_model.PORTFOLIO_WITH_QUICK_RESTART_SEARCH
    if problem["work_limit"] is None:
        solver.parameters.max_time_in_seconds = problem["time_limit"]
    else:
        solver.parameters.max_deterministic_time = problem["work_limit"]
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return {"status": "optimal" if status == cp_model.OPTIMAL else "feasible",
                "offsets": {str(bid): solver.value(x) for bid, x in xs.items()}}
    return {"status": "none", "offsets": None}


if __name__ == "__main__":
    json.dump(solve(json.load(sys.stdin)), sys.stdout)
