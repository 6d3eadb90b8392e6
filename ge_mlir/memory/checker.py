"""An independent check of a memory plan, written from the definitions alone.

It shares no code with the strategies on purpose: a bug in their overlap or gap logic
must not be repeated here. It walks the program points in order (a sweep), keeps the
buffers live at each, and compares every newly live buffer's bytes with the bytes of
every buffer live with it. Sizes are the buffers' real sizes: the rounding the
strategies reserve is their business; an aligned plan whose real bytes are disjoint is
correct.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..errors import PlanError
from .buffers import Buffer, Plan

__all__ = ["check_plan"]


def _label(b: Buffer) -> str:
    return f"buffer {b.id}" + (f" ({b.name})" if b.name else "")


def check_plan(buffers: Sequence[Buffer], plan: Plan, inplace: Mapping[int, int] | None = None) -> None:
    """Raises :class:`~ge_mlir.errors.PlanError` naming the first violation found:
    a buffer without an offset, an offset for no buffer, a misaligned offset, a buffer
    outside ``[0, plan.arena)``, or two buffers live at one program point sharing bytes.

    ``inplace`` ({written buffer id: input buffer id}) allows the one overlap in-place
    reuse needs: the written buffer at exactly the input's offset, no larger, its first
    program point the input's last (the op that reads one and writes the other). Whether
    that op may do so is the pass's rule; this checks that the plan asks for nothing more."""
    inplace = dict(inplace or {})
    if plan.alignment < 1:
        raise PlanError(f"alignment must be positive, got {plan.alignment}")
    known = {b.id for b in buffers}
    by_id = {b.id: b for b in buffers}
    for out, src in inplace.items():
        if out not in by_id or src not in by_id:
            raise PlanError(f"in-place pair {out} -> {src} names an unknown buffer")
        b, a = by_id[out], by_id[src]
        if not (b.start == a.end and b.size <= a.size and plan.offsets.get(out) == plan.offsets.get(src)):
            raise PlanError(
                f"{_label(b)} cannot overwrite {_label(a)} in place: it must start where the other ends "
                f"(ranges [{b.start}, {b.end}] and [{a.start}, {a.end}]), be no larger ({b.size} > {a.size} bytes?) "
                f"and sit at the same offset ({plan.offsets.get(out)} vs {plan.offsets.get(src)})"
            )
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
                if inplace.get(new.id) == other.id or inplace.get(other.id) == new.id:
                    continue  # checked above: same bytes, handed over at one op
                olo = plan.offsets[other.id]
                ohi = olo + other.size
                if lo < ohi and olo < hi and new.size and other.size:  # empty ranges hold no bytes
                    raise PlanError(
                        f"{_label(new)} [{lo}, {hi}) and {_label(other)} [{olo}, {ohi}) share bytes while both "
                        f"are live at program point {point} (live ranges [{new.start}, {new.end}] and "
                        f"[{other.start}, {other.end}])"
                    )
            live.append(new)
