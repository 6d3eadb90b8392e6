"""Human-readable forms of a function's memory plan: a table, JSON, an SVG picture.

Everything here reads the plain dict :func:`ge_mlir.memory.ge_plan_memory.read_memory_plan`
returns (and ``CompiledModel.memory_plan`` exposes) and imports only the standard
library (and ``ge_mlir._format``), so reports can be made from a saved JSON plan without MLIR:

* ``arena``, ``strategy``, ``arenas`` (strategy -> arena bytes),
* ``no_reuse`` (sum of the buffers), ``lower_bound`` (most bytes live at once in this
  op order), ``op_bound`` (the most planned bytes one op reads and writes: no order
  can do better),
* ``inplace``: how many buffers an elementwise op wrote into a dying input's bytes, and
  ``lower_bound_no_inplace`` the interval bound without that,
* ``buffers``: ``{name, size, offset, start, end}`` with ``start``/``end`` inclusive op
  positions, and ``inplace_of`` (the index of the buffer it overwrites) for those.
"""

from __future__ import annotations

import json
import math
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .._format import BYTE_UNITS, format_bytes

__all__ = ["format_bytes", "memory_plan_json", "memory_plan_svg", "memory_table", "ratio"]


def ratio(value: int, bound: int) -> float | None:
    """``value / bound``, None when the bound is 0 (nothing to plan: no ratio means anything)."""
    return value / bound if bound else None


def _ratio_text(r: float | None) -> str:
    return "n/a" if r is None else f"{r:.3f}x"


def memory_table(plan: dict[str, Any]) -> str:
    """A plain-text table of ``plan``: every size in a human unit and in exact bytes."""
    arena, lb, ob = plan["arena"], plan["lower_bound"], plan["op_bound"]
    rows: list[tuple[str, int, str]] = [
        ("no-reuse sum", plan["no_reuse"], "every buffer its own bytes"),
        ("interval lower bound", lb, "most bytes live at once in this op order"),
        ("op bound", ob, "most bytes one op reads and writes (any order)"),
    ]
    for name, size in plan["arenas"].items():
        note = f"{_ratio_text(ratio(size, lb))} lower bound, {_ratio_text(ratio(size, ob))} op bound"
        rows.append((f"strategy {name}", size, note + (" (chosen)" if name == plan["strategy"] else "")))
    rows.append(("chosen arena", arena, plan["strategy"]))
    if plan.get("inplace"):
        shared = sum(b["size"] for b in plan["buffers"] if "inplace_of" in b)
        rows.append(("in-place reuse", shared, f"{plan['inplace']} buffers written into a dying input's bytes"))
        if "lower_bound_no_inplace" in plan:
            rows.append(("lower bound, no in-place", plan["lower_bound_no_inplace"],
                         "the interval bound if every buffer had its own bytes"))
    label_w = max(len(r[0]) for r in rows)
    human_w = max(len(format_bytes(r[1])) for r in rows)
    bytes_w = max(len(str(r[1])) for r in rows)
    lines = [f"memory plan: {len(plan['buffers'])} buffers, chosen strategy {plan['strategy']}"]
    for label, size, note in rows:
        lines.append(f"  {label:<{label_w}}  {format_bytes(size):>{human_w}}  {size:>{bytes_w}} B  {note}")
    lines.append(f"  {'arena / lower bound':<{label_w}}  {_ratio_text(ratio(arena, lb))}")
    lines.append(f"  {'arena / op bound':<{label_w}}  {_ratio_text(ratio(arena, ob))}")
    return "\n".join(lines) + "\n"


def memory_plan_json(plan: dict[str, Any]) -> str:
    """``plan`` as JSON with sorted keys (buffers keep their order), so equal plans give equal text."""
    return json.dumps(plan, sort_keys=True, indent=1) + "\n"


# A sequential colour scale (viridis' ends and middle), small buffers dark, large ones bright.
_PALETTE = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))


def _color(t: float) -> str:
    t = min(max(t, 0.0), 1.0) * (len(_PALETTE) - 1)
    i = min(int(t), len(_PALETTE) - 2)
    f = t - i
    a, b = _PALETTE[i], _PALETTE[i + 1]
    return "#%02x%02x%02x" % tuple(round(x + (y - x) * f) for x, y in zip(a, b))


def _nice_step(span: float, ticks: int) -> float:
    """A 1/2/5 x 10^k step giving about ``ticks`` ticks over ``span``."""
    raw = span / max(ticks, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)


def memory_plan_svg(plan: dict[str, Any], title: str = "memory plan", width: int = 1000, height: int = 600) -> str:
    """``plan`` as an SVG: one ``<rect>`` per buffer spanning its live range (x, op positions,
    inclusive) and its bytes (y, address from 0 at the bottom), coloured by size (log scale), each
    with a ``<title>`` tooltip; horizontal lines mark the arena, the interval lower bound and the op
    bound. Only buffers are drawn as ``<rect>`` elements."""
    buffers = plan["buffers"]
    arena, lb, ob = plan["arena"], plan["lower_bound"], plan["op_bound"]
    left, right, top, bottom = 90, 190, 40, 50
    pw, ph = width - left - right, height - top - bottom
    x0 = min((b["start"] for b in buffers), default=0)
    x1 = max((b["end"] + 1 for b in buffers), default=1)
    ymax = max(arena, lb, ob, max((b["offset"] + b["size"] for b in buffers), default=0), 1) * 1.04

    def sx(p: float) -> float:
        return left + (p - x0) / max(x1 - x0, 1) * pw

    def sy(addr: float) -> float:
        return top + ph - addr / ymax * ph

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="22" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<text x="{width - right}" y="22" text-anchor="end">arena {escape(format_bytes(arena))} '
        f"({escape(plan['strategy'])}), {len(buffers)} buffers</text>",
    ]
    # Axes and ticks: program points below, addresses on the left in one binary unit.
    out.append(f'<path d="M{left},{top} V{top + ph} H{left + pw}" fill="none" stroke="#333"/>')
    xs = _nice_step(x1 - x0, 10)
    p = math.ceil(x0 / xs) * xs
    while p <= x1:
        x = sx(p)
        out.append(f'<path d="M{x:.1f},{top + ph} v5" stroke="#333"/>'
                   f'<text x="{x:.1f}" y="{top + ph + 17}" text-anchor="middle">{p:g}</text>')
        p += xs
    out.append(f'<text x="{left + pw / 2}" y="{height - 10}" text-anchor="middle">program point (op position)</text>')
    unit = 1024 ** min(max(int(math.log(ymax, 1024)), 0), len(BYTE_UNITS) - 1)
    unit_name = BYTE_UNITS[int(round(math.log(unit, 1024)))]
    ys = _nice_step(ymax / unit, 8)
    v = 0.0
    while v * unit <= ymax:
        y = sy(v * unit)
        out.append(f'<path d="M{left - 5},{y:.1f} h5" stroke="#333"/>'
                   f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += ys
    out.append(f'<text transform="translate(18,{top + ph / 2}) rotate(-90)" text-anchor="middle">'
               f"address ({unit_name})</text>")
    # Buffers, largest first so small ones stay on top where they overlap in the picture.
    sizes = [b["size"] for b in buffers if b["size"] > 0]
    lo, hi = (math.log(min(sizes)), math.log(max(sizes))) if sizes else (0.0, 0.0)
    for b in sorted(buffers, key=lambda b: -b["size"]):
        t = (math.log(b["size"]) - lo) / (hi - lo) if b["size"] > 0 and hi > lo else 1.0
        # Edges rounded before the width so that neighbours in time or address share an edge exactly;
        # a sub-pixel buffer grows upward from its offset, never into the one below.
        x, x_end = round(sx(b["start"]), 2), round(sx(b["end"] + 1), 2)
        y_base = round(sy(b["offset"]), 2)
        h = max(y_base - round(sy(b["offset"] + b["size"]), 2), 0.5)
        y, w = y_base - h, x_end - x
        tip = (f"{b['name']}: {format_bytes(b['size'])} ({b['size']} B) at offset {b['offset']}, "
               f"ops {b['start']}-{b['end']}")
        if "inplace_of" in b:
            tip += f", in place of {buffers[b['inplace_of']]['name']}"
        out.append(f'<rect class="buffer" x="{x:.2f}" y="{y:.2f}" width="{max(w, 0.5):.2f}" '
                   f'height="{h:.2f}" fill="{_color(t)}" stroke="#fff" stroke-width="0.4">'
                   f"<title>{escape(tip)}</title></rect>")
    # Bound lines, labelled in the right margin.
    marks = [("arena", arena, "#d62728", ""), ("interval lower bound", lb, "#1f77b4", "6,4"),
             ("op bound", ob, "#2ca02c", "2,3")]
    for label, value, color, dash in marks:
        y = sy(value)
        out.append(f'<path d="M{left},{y:.1f} H{left + pw}" stroke={quoteattr(color)} stroke-width="1.5"'
                   + (f' stroke-dasharray="{dash}"' if dash else "") + f"><title>{escape(label)}: "
                   f"{escape(format_bytes(value))} ({value} B)</title></path>")
    # Labels may collide when bounds are equal: stack them at least 13 px apart, top to bottom.
    last = -math.inf
    for label, value, color, _ in sorted(marks, key=lambda m: -m[1]):
        y = max(sy(value) + 4, last + 13)
        last = y
        out.append(f'<text x="{left + pw + 6}" y="{y:.1f}" fill={quoteattr(color)}>'
                   f"{escape(label)} {escape(format_bytes(value))}</text>")
    # Size legend: the colour scale from the smallest to the largest buffer.
    if sizes:
        lx, ly = left + pw + 6, top + ph - 90
        out.append(f'<text x="{lx}" y="{ly - 8}">buffer size</text>')
        for i in range(20):
            out.append(f'<path d="M{lx + i * 6},{ly} h6" stroke="{_color(i / 19)}" stroke-width="10"/>')
        out.append(f'<text x="{lx}" y="{ly + 20}">{escape(format_bytes(min(sizes)))}</text>'
                   f'<text x="{lx + 120}" y="{ly + 34}" text-anchor="end">{escape(format_bytes(max(sizes)))}</text>')
    else:
        out.append(f'<text x="{left + pw / 2}" y="{top + ph / 2}" text-anchor="middle">no buffers planned</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
