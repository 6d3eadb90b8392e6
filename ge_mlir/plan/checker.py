"""An independent check of a memory plan, written from the definitions alone.

It shares no code with the strategies on purpose: a bug in their overlap or gap logic
must not be repeated here. It walks the program points in order (a sweep), keeps the
buffers live at each, and compares every newly live buffer's bytes with the bytes of
every buffer live with it. Sizes are the buffers' real sizes: the rounding the
strategies reserve is their business; an aligned plan whose real bytes are disjoint is
correct.
"""

from __future__ import annotations

from typing import Sequence

from ..errors import PlanError
from .buffers import Buffer, Plan

__all__ = ["check_plan"]


def _label(b: Buffer) -> str:
    return f"buffer {b.id}" + (f" ({b.name})" if b.name else "")


def check_plan(buffers: Sequence[Buffer], plan: Plan) -> None:
    """Raises :class:`~ge_mlir.errors.PlanError` naming the first violation found:
    a buffer without an offset, an offset for no buffer, a misaligned offset, a buffer
    outside ``[0, plan.arena)``, or two buffers live at one program point sharing bytes."""
    if plan.alignment < 1:
        raise PlanError(f"alignment must be positive, got {plan.alignment}")
    known = {b.id for b in buffers}
    for b in buffers:
        if b.id not in plan.offsets:
            raise PlanError(f"{_label(b)} has no offset")
    stray = sorted(set(plan.offsets) - known)
    if stray:
        raise PlanError(f"offsets given for unknown buffer id(s) {stray[:10]}")
    for b in buffers:
        at = plan.offsets[b.id]
        if at % plan.alignment:
            raise PlanError(f"{_label(b)} is at offset {at}, not a multiple of the alignment {plan.alignment}")
        if at < 0 or at + b.size > plan.arena:
            raise PlanError(f"{_label(b)} occupies [{at}, {at + b.size}), outside the arena [0, {plan.arena})")

    # Two live ranges intersect exactly when the later-starting buffer starts while the
    # other is live, so checking each buffer against those live at its start is complete.
    events = sorted(buffers, key=lambda b: b.start)
    live: list[Buffer] = []
    i = 0
    while i < len(events):
        point = events[i].start
        live = [b for b in live if b.end >= point]
        while i < len(events) and events[i].start == point:
            new = events[i]
            i += 1
            lo = plan.offsets[new.id]
            hi = lo + new.size
            for other in live:
                olo = plan.offsets[other.id]
                ohi = olo + other.size
                if lo < ohi and olo < hi and new.size and other.size:  # empty ranges hold no bytes
                    raise PlanError(
                        f"{_label(new)} [{lo}, {hi}) and {_label(other)} [{olo}, {ohi}) share bytes while both "
                        f"are live at program point {point} (live ranges [{new.start}, {new.end}] and "
                        f"[{other.start}, {other.end}])"
                    )
            live.append(new)
