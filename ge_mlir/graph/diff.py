"""What changed between two graphs (two stages, or the IR before and after a pass).

Ops are matched by the ONNX node they came from (the name in their location) and their op
name, in program order (the k-th ``ge.add`` of node ``/blk/Add`` matches the k-th); ops
without a name by op name and order. Matched ops whose attributes, operand kinds
(constants, graph inputs or op results) or result types differ are *changed*; unmatched
ones are *removed* (only in the first graph) or *added* (only in the second). Constants are
counted, not listed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .model import FunctionGraph, GraphSnapshot, SnapshotNode

__all__ = ["GraphDiff", "NodeChange", "diff_graphs"]


@dataclass
class NodeChange:
    """One op of the diff: ``kind`` is ``removed``, ``added`` or ``changed``."""

    kind: str
    op: str
    name: str | None
    details: list[str] = field(default_factory=list)
    before: SnapshotNode | None = None
    after: SnapshotNode | None = None

    def format(self) -> str:
        mark = {"removed": "-", "added": "+", "changed": "~"}[self.kind]
        node = self.after or self.before
        where = f" {self.name}" if self.name else ""
        src = f" [{node.source_op}]" if node is not None and node.source_op else ""
        text = f"{mark} {self.op}{where}{src}"
        return text + (f": {'; '.join(self.details)}" if self.details else "")


@dataclass
class GraphDiff:
    """The changes from graph ``a`` (``before``) to graph ``b`` (``after``)."""

    before: str
    after: str
    changes: list[NodeChange] = field(default_factory=list)
    ops_before: int = 0
    ops_after: int = 0
    constants_before: int = 0
    constants_after: int = 0
    unchanged: int = 0

    def of_kind(self, kind: str) -> list[NodeChange]:
        return [c for c in self.changes if c.kind == kind]

    @property
    def removed(self) -> list[NodeChange]:
        return self.of_kind("removed")

    @property
    def added(self) -> list[NodeChange]:
        return self.of_kind("added")

    @property
    def changed(self) -> list[NodeChange]:
        return self.of_kind("changed")

    @property
    def empty(self) -> bool:
        return not self.changes and self.constants_before == self.constants_after

    def op_counts(self) -> dict[str, int]:
        """Per op name, ops after minus ops before (non-zero only)."""
        delta: Counter[str] = Counter()
        for c in self.changes:
            if c.kind == "removed":
                delta[c.op] -= 1
            elif c.kind == "added":
                delta[c.op] += 1
        return {k: v for k, v in sorted(delta.items()) if v}

    def summary(self) -> str:
        counts = ", ".join(f"{k} {v:+d}" for k, v in self.op_counts().items())
        line = (f"{len(self.removed)} removed, {len(self.added)} added, {len(self.changed)} changed, "
                f"{self.unchanged} unchanged ops ({self.ops_before} -> {self.ops_after}); "
                f"constants {self.constants_before} -> {self.constants_after}")
        return line + (f"; {counts}" if counts else "")

    def format(self, limit: int | None = None) -> str:
        """The diff as text: a header, one line per change (at most ``limit``), the summary."""
        lines = [f"--- {self.before} ({self.ops_before} ops)", f"+++ {self.after} ({self.ops_after} ops)"]
        shown = self.changes if limit is None else self.changes[:limit]
        lines += [c.format() for c in shown]
        if len(shown) < len(self.changes):
            lines.append(f"... {len(self.changes) - len(shown)} more change(s)")
        lines.append(self.summary())
        return "\n".join(lines) + "\n"

    __str__ = format


def _operand_kinds(fg: FunctionGraph, node: SnapshotNode, by_id: dict[str, SnapshotNode]) -> list[str]:
    out = []
    for name, tid in zip(node.operand_names, node.inputs):
        producer = by_id.get(fg.tensors[tid].producer or "")
        kind = "value" if producer is None else {"constant": "constant", "input": "input"}.get(producer.kind, "value")
        out.append(f"{name}:{kind}")
    return out


def _compare(fa: FunctionGraph, a: SnapshotNode, ida: dict[str, SnapshotNode], fb: FunctionGraph, b: SnapshotNode,
             idb: dict[str, SnapshotNode]) -> list[str]:
    details = []
    for k in sorted(set(a.attributes) | set(b.attributes)):
        va, vb = a.attributes.get(k), b.attributes.get(k)
        if va != vb:
            details.append(f"{k}: {_short(va)} -> {_short(vb)}")
    oa, ob = _operand_kinds(fa, a, ida), _operand_kinds(fb, b, idb)
    if oa != ob:
        details.append(f"operands {','.join(oa)} -> {','.join(ob)}")
    ta = [fa.tensors[t].type for t in a.outputs]
    tb = [fb.tensors[t].type for t in b.outputs]
    if ta != tb:
        details.append(f"type {', '.join(ta)} -> {', '.join(tb)}")
    return details


def _short(v: Any) -> str:
    if v is None:
        return "(none)"
    text = str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _key(n: SnapshotNode) -> tuple[str, str]:
    return (n.name or "", n.op)


def diff_graphs(a: GraphSnapshot, b: GraphSnapshot) -> GraphDiff:
    """The changes from ``a`` to ``b`` (functions matched by name)."""
    d = GraphDiff(a.stage or "before", b.stage or "after")
    fb_by_name = {f.name: f for f in b.functions}
    fa_names = {f.name for f in a.functions}
    pairs = [(fa, fb_by_name.get(fa.name)) for fa in a.functions]
    pairs += [(None, fb) for fb in b.functions if fb.name not in fa_names]
    for fa, fb in pairs:
        ops_a = fa.ops if fa else []
        ops_b = fb.ops if fb else []
        d.ops_before += len(ops_a)
        d.ops_after += len(ops_b)
        d.constants_before += sum(1 for n in (fa.nodes if fa else []) if n.kind == "constant")
        d.constants_after += sum(1 for n in (fb.nodes if fb else []) if n.kind == "constant")
        ida = {n.id: n for n in fa.nodes} if fa else {}
        idb = {n.id: n for n in fb.nodes} if fb else {}
        pool: dict[tuple[str, str], list[SnapshotNode]] = {}
        for n in ops_b:
            pool.setdefault(_key(n), []).append(n)
        matched_b: set[str] = set()
        events: list[tuple[int, int, NodeChange]] = []  # (position in b or a, order, change)
        pos_b = {n.id: i for i, n in enumerate(ops_b)}
        last_b = -1
        for i, n in enumerate(ops_a):
            cands = pool.get(_key(n))
            if cands:
                m = cands.pop(0)
                matched_b.add(m.id)
                last_b = pos_b[m.id]
                details = _compare(fa, n, ida, fb, m, idb)
                if details:
                    events.append((last_b, 1, NodeChange("changed", m.op, m.name, details, n, m)))
                else:
                    d.unchanged += 1
            else:
                events.append((last_b, 0, NodeChange("removed", n.op, n.name, [], n, None)))
        for n in ops_b:
            if n.id not in matched_b:
                events.append((pos_b[n.id], 2, NodeChange("added", n.op, n.name, [], None, n)))
        events.sort(key=lambda e: (e[0], e[1]))
        d.changes += [e[2] for e in events]
    return d
