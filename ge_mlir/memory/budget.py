"""Memory budgets: a plan larger than the budget fails the compile, saying where and why."""

from __future__ import annotations

from typing import Any

from .._format import format_bytes
from ..errors import MemoryBudgetError
from .buffers import Buffer
from .strategies import live_sets

__all__ = ["budget_bytes", "check_budget", "peak_point"]


def _mib(n: int) -> str:
    """Bytes in the unit that keeps them readable (a budget can be a few KiB in tests)."""
    return format_bytes(n, digits=1, largest="MiB")


def _flops(n: int) -> str:
    for unit, scale in (("GFLOP", 1e9), ("MFLOP", 1e6), ("kFLOP", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} FLOP"


def budget_bytes(budget_mb: float) -> int:
    """A budget in MiB as bytes (the comparison every check makes)."""
    return int(budget_mb * 2**20)


def peak_point(plan: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """The program point where the most buffer bytes are live, and those buffers, largest first."""
    buffers = [Buffer(i, b["size"], b["start"], b["end"], b["name"]) for i, b in enumerate(plan["buffers"])]
    sets = live_sets(buffers, 1)  # alignment 1: the exact byte sizes the message reports
    if not sets:
        return 0, []
    point, _, live = max(sets, key=lambda s: s[1])
    return point, [plan["buffers"][b.id] for b in sorted(live, key=lambda b: -b.size)]


def check_budget(plan: dict[str, Any], budget_mb: float, func_name: str,
                 recompute: dict[str, Any] | None = None) -> None:
    """Raises :class:`MemoryBudgetError` when ``plan``'s arena exceeds ``budget_mb`` MiB.

    ``recompute``: the report of a rematerialization that was tried (``fit_budget`` of the CPU
    target); ``plan`` is then the smallest plan it reached, and the message says so."""
    budget = budget_bytes(budget_mb)
    if plan["arena"] <= budget:
        return
    point, live = peak_point(plan)
    shown = ", ".join(f"{b['name']} ({_mib(b['size'])})" for b in live[:5])
    more = f" and {len(live) - 5} more" if len(live) > 5 else ""
    where = (f"the peak is at op #{point}, where {_mib(sum(b['size'] for b in live))} are live: "
             f"{shown}{more}")
    if recompute is None:
        text = (f"@{func_name} needs {_mib(plan['arena'])} ({plan['arena']} bytes) for its intermediate tensors, "
                f"over the memory budget of {_mib(budget)}; {where}. No plan strategy goes below "
                f"{_mib(plan['lower_bound'])} in this op order; raise memory_budget_mb, or enable recompute "
                "(ge.exec.recompute.enable, ge-compile --recompute) to rematerialize tensors")
    else:
        n = len(recompute["recomputed"])
        share = recompute["extra_flops_ratio"] * 100
        stopped = [a["stopped"] for a in recompute["attempts"]]
        why = ("the recompute_ratio cap stopped it" if "flops cap" in stopped
               else "nothing more that is recomputable shortens a live range there")
        text = (f"@{func_name} needs {_mib(recompute['natural_arena'])} ({recompute['natural_arena']} bytes) for its "
                f"intermediate tensors, over the memory budget of {_mib(budget)}; rematerialization (recompute) "
                f"was tried: {n} tensor(s) recomputed for +{_flops(recompute['extra_flops'])} ({share:.1f}% of the "
                f"graph's), {len(recompute['attempts'])} attempt(s), the smallest plan reached "
                f"{_mib(plan['arena'])} ({plan['arena']} bytes) ({why}); {where}. Raise memory_budget_mb, add op "
                "types to recompute_checkpoint_ops (ge.exec.recompute.checkpoint_ops) or raise recompute_ratio")
    raise MemoryBudgetError(text, arena=plan["arena"], budget=budget, point=point,
                            live=[(b["name"], b["size"]) for b in live])
