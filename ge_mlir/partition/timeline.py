"""Pictures of a parallel run: an SVG Gantt chart per rank, and a Chrome/Perfetto trace.

Events are ``(rank, kind, stage, microbatch, start, end)`` in seconds from the
run's start (``ParallelCompiledModel.timeline``). Kinds: ``compute``,
``send``, ``recv``, ``all_reduce``, ``all_gather``, ``all_slice``, ``wait``
(a scheduler dependency); idle is the gaps between them.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

_COLORS = {"compute": "#4c78a8", "send": "#f58518", "recv": "#e45756", "all_reduce": "#54a24b",
           "all_gather": "#72b7b2", "all_slice": "#b279a2", "wait": "#bab0ac"}


def write_svg(events: list[tuple[int, str, int, int, float, float]], plan: Any, path: str) -> str:
    """Writes the Gantt chart: one row per rank, one box per event (labelled stage/microbatch)."""
    ranks = plan.world_size
    end = max((e[5] for e in events), default=1e-9) or 1e-9
    width, left, row, top = 1000, 90, 34, 40
    scale = (width - left - 20) / end
    h = top + ranks * row + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" font-family="sans-serif" '
           f'font-size="11">',
           f'<text x="{left}" y="18" font-size="13">{escape(plan.strategy.describe())}: '
           f'{end * 1e3:.3f} ms; theoretical bubble {plan.theoretical_bubble():.3f}</text>']
    busy = {r: 0.0 for r in range(ranks)}
    for r in range(ranks):
        y = top + r * row
        c = plan.coords(r)
        out.append(f'<text x="4" y="{y + 20}">rank {r} (p{c.pipeline_rank} d{c.data_index} t{c.tensor_index})</text>')
        out.append(f'<rect x="{left}" y="{y + 4}" width="{(end * scale):.2f}" height="{row - 8}" fill="#f2f2f2"/>')
    for rank, kind, stage, mb, t0, t1 in events:
        y = top + rank * row
        x, w = left + t0 * scale, max((t1 - t0) * scale, 0.5)
        if kind == "compute":
            busy[rank] += t1 - t0
        out.append(f'<rect x="{x:.2f}" y="{y + 4}" width="{w:.2f}" height="{row - 8}" '
                   f'fill="{_COLORS.get(kind, "#999")}"><title>rank {rank} {kind} stage {stage} microbatch {mb}: '
                   f'{(t1 - t0) * 1e6:.1f} us</title></rect>')
        if kind == "compute" and w > 24:
            out.append(f'<text x="{x + 2:.2f}" y="{y + 21}" fill="white">s{stage}m{mb}</text>')
    ly = top + ranks * row + 20
    for i, (kind, color) in enumerate(_COLORS.items()):
        out.append(f'<rect x="{left + i * 110}" y="{ly}" width="12" height="12" fill="{color}"/>'
                   f'<text x="{left + i * 110 + 16}" y="{ly + 11}">{kind}</text>')
    out.append(f'<rect x="{left + len(_COLORS) * 110}" y="{ly}" width="12" height="12" fill="#f2f2f2"/>'
               f'<text x="{left + len(_COLORS) * 110 + 16}" y="{ly + 11}">idle</text>')
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    return path


def write_trace(events: list[tuple[int, str, int, int, float, float]], path: str) -> str:
    """Chrome trace JSON (open in Perfetto or chrome://tracing): one thread per rank."""
    trace = [{"name": f"{kind} s{stage} m{mb}", "cat": kind, "ph": "X", "pid": 0, "tid": rank,
              "ts": t0 * 1e6, "dur": (t1 - t0) * 1e6, "args": {"stage": stage, "microbatch": mb}}
             for rank, kind, stage, mb, t0, t1 in events]
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"traceEvents": trace, "displayTimeUnit": "ms"}, f)
    return path
