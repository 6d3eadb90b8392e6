"""Per-pass report: time, op counts before/after, rewrites (from pass stats).

:func:`instrument` wraps the elements of a pipeline so that running them fills
a :class:`PassReport`: ge passes are measured inside their own callback;
upstream elements get a probe pass before and after them. Op counts are all
operations nested in the module (functions' bodies, terminators included;
the module and ``func.func`` ops themselves are not counted).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from .pipeline import PipelineElement
from .registry import Pass


def count_ops(module: ir.Operation) -> int:
    """Operations nested in ``module``, excluding ``builtin.module``/``func.func``."""
    n = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal n
        if op.name not in ("builtin.module", "func.func"):
            n += 1
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return n


def rewrites_of(stats: dict[str, int]) -> int | None:
    """The pass's ``rewrites`` counter (None when it does not keep one)."""
    return stats.get("rewrites")


@dataclass
class PassReportEntry:
    """One pipeline element's line in the report."""

    name: str
    seconds: float = 0.0
    ops_before: int = 0
    ops_after: int = 0
    stats: dict[str, int] = field(default_factory=dict)
    ge: bool = True

    @property
    def rewrites(self) -> int | None:
        return rewrites_of(self.stats)

    def to_dict(self) -> dict[str, Any]:
        return {"pass": self.name, "seconds": self.seconds, "ops_before": self.ops_before,
                "ops_after": self.ops_after, "rewrites": self.rewrites, "stats": dict(self.stats)}


@dataclass
class PassReport:
    """What each pass of a pipeline run did, in execution order."""

    entries: list[PassReportEntry] = field(default_factory=list)
    title: str = "ge pass report"

    @property
    def total_seconds(self) -> float:
        return sum(e.seconds for e in self.entries)

    def __getitem__(self, name: str) -> PassReportEntry:
        for e in self.entries:
            if e.name == name:
                return e
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return any(e.name == name for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def to_dict(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.entries]

    def format(self) -> str:
        """A ``--mlir-timing``-like table."""
        rule = "===" + "-" * 73 + "==="
        lines = [rule, self.title.center(len(rule)).rstrip(), rule]
        total = self.total_seconds
        lines.append(f"  Total Execution Time: {total:.4f} seconds")
        lines.append("")
        lines.append("   ---Wall Time---   Ops before   Ops after   Rewrites  --- Name ---")
        for e in self.entries:
            pct = 100.0 * e.seconds / total if total > 0 else 0.0
            rw = "-" if e.rewrites is None else str(e.rewrites)
            detail = ", ".join(f"{k}={v}" for k, v in sorted(e.stats.items()) if v and k != "rewrites")
            lines.append(
                f"   {e.seconds:7.4f} ({pct:5.1f}%)  {e.ops_before:10d}  {e.ops_after:10d}  {rw:>9}  {e.name}"
                + (f"  ({detail})" if detail else "")
            )
        first = self.entries[0].ops_before if self.entries else 0
        last = self.entries[-1].ops_after if self.entries else 0
        known = [e.rewrites for e in self.entries if e.rewrites is not None]
        lines.append(
            f"   {total:7.4f} (100.0%)  {first:10d}  {last:10d}  {sum(known) if known else '-':>9}  Total"
        )
        return "\n".join(lines) + "\n"

    __str__ = format


class _Measured(Pass):
    """Runs a ge pass and records its line in the report."""

    def __init__(self, inner: Pass, entry: PassReportEntry,
                 on_start: Callable[[str], None] | None = None) -> None:  # no super(): options live on inner
        self.inner = inner
        self.entry = entry
        self.on_start = on_start
        self.name = inner.name  # type: ignore[misc]
        self.summary = inner.summary  # type: ignore[misc]
        self.options_values = inner.options_values

    @property  # type: ignore[override]
    def statistics(self) -> dict[str, int]:
        return self.inner.statistics

    def as_callback(self) -> Callable[[ir.Operation, Any], None]:
        inner_cb = self.inner.as_callback()

        def callback(op: ir.Operation, pass_: Any) -> None:
            if self.on_start is not None:
                self.on_start(self.entry.name)
            self.entry.ops_before = count_ops(op)
            t0 = time.perf_counter()
            try:
                inner_cb(op, pass_)
            finally:
                self.entry.seconds = time.perf_counter() - t0
                self.entry.ops_after = count_ops(op)
                self.entry.stats = dict(self.inner.statistics)

        callback.__name__ = type(self.inner).__name__
        return callback


class _Probe(Pass):
    """Marks the start or end of an upstream pipeline element."""

    name = "ge-report-probe"  # type: ignore[assignment]
    summary = "records op counts and time for the ge pass report"  # type: ignore[assignment]

    def __init__(self, entry: PassReportEntry, start: bool, clock: list[float],
                 on_start: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.entry, self.start, self.clock, self.on_start = entry, start, clock, on_start

    def run(self, module: ir.Operation) -> None:
        if self.start:
            if self.on_start is not None:
                self.on_start(self.entry.name)
            self.entry.ops_before = count_ops(module)
            self.clock[0] = time.perf_counter()
        else:
            self.entry.seconds = time.perf_counter() - self.clock[0]
            self.entry.ops_after = count_ops(module)


def instrument(elements: list[PipelineElement], report: PassReport,
               on_start: Callable[[str], None] | None = None) -> list[PipelineElement]:
    """Elements that run ``elements`` and fill ``report`` as they go; ``on_start(name)`` is
    called as each pass starts (progress display)."""
    out: list[PipelineElement] = []
    for el in elements:
        entry = PassReportEntry(el.name, ge=el.ge_pass is not None)
        report.entries.append(entry)
        if el.ge_pass is not None:
            out.append(PipelineElement(el.text, _Measured(el.ge_pass, entry, on_start), el.options))
        else:
            clock = [0.0]
            out.append(PipelineElement(_Probe.name, _Probe(entry, True, clock, on_start)))
            out.append(el)
            out.append(PipelineElement(_Probe.name, _Probe(entry, False, clock)))
    return out
