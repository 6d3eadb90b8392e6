"""Memory budgets: a plan larger than the budget fails the compile, saying where and why."""

from __future__ import annotations

from typing import Any

from ..errors import MemoryBudgetError
from .buffers import Buffer
from .strategies import live_sets

__all__ = ["check_budget", "peak_point"]


def _mib(n: int) -> str:
    """Bytes in the unit that keeps them readable (a budget can be a few KiB in tests)."""
    if n >= 2**20:
        return f"{n / 2**20:.1f} MiB"
    return f"{n / 2**10:.1f} KiB" if n >= 2**10 else f"{n} B"


def peak_point(plan: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """The program point where the most buffer bytes are live, and those buffers, largest first."""
    buffers = [Buffer(i, b["size"], b["start"], b["end"], b["name"]) for i, b in enumerate(plan["buffers"])]
    sets = live_sets(buffers, 1)  # alignment 1: the exact byte sizes the message reports
    if not sets:
        return 0, []
    point, _, live = max(sets, key=lambda s: s[1])
    return point, [plan["buffers"][b.id] for b in sorted(live, key=lambda b: -b.size)]


def check_budget(plan: dict[str, Any], budget_mb: float, func_name: str) -> None:
    """Raises :class:`MemoryBudgetError` when ``plan``'s arena exceeds ``budget_mb`` MiB."""
    budget = int(budget_mb * 2**20)
    if plan["arena"] <= budget:
        return
    point, live = peak_point(plan)
    shown = ", ".join(f"{b['name']} ({_mib(b['size'])})" for b in live[:5])
    more = f" and {len(live) - 5} more" if len(live) > 5 else ""
    raise MemoryBudgetError(
        f"@{func_name} needs {_mib(plan['arena'])} ({plan['arena']} bytes) for its intermediate tensors, over "
        f"the memory budget of {_mib(budget)}; the peak is at op #{point}, where "
        f"{_mib(sum(b['size'] for b in live))} are live: {shown}{more}. No plan strategy goes below "
        f"{_mib(plan['lower_bound'])} in this op order (rematerialization is not available yet); "
        "raise memory_budget_mb",
        arena=plan["arena"], budget=budget, point=point, live=[(b["name"], b["size"]) for b in live],
    )
