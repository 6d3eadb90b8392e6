"""``ge_mlir.profile``: latency, throughput, per-ONNX-node self time and peak memory of a compiled model.

    model = ge_mlir.compile("resnet18.onnx", options={"profile": True})
    report = ge_mlir.profile(model, {"image": x}, iterations=100, warmup=10)
    print(report.table(top=10))
    report.save_json("profile.json")
    report.save_trace("trace.json")          # open in https://ui.perfetto.dev

Per-op times come from the compiled code itself: a profiling build (``CompileOptions.profile``)
runs ``ge-instrument-ops`` on the bufferized IR, which wraps each ONNX node's top-level ops in
``clock_gettime`` stamps written to a buffer the executable passes on every call. The stamps are
off until :func:`profile` switches them on, so the same executable measures the latency with
and without them: iterations alternate, stamps off then on, and the report states the
instrumentation overhead (stamped vs unstamped median) and how much of the unstamped latency
the per-op times cover. docs/profiling.md has a worked example.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ._format import format_bytes
from . import compile as _compile  # the public compile: a profile compiles as ge_mlir.compile does
from .compiler.progress import ProgressBar
from .runtime.model import CompiledModel
from .config import CompileOptions, resolve_options
from .errors import CompileError, ExecutionError
from .irutils.types import check_arrays, random_arrays

__all__ = ["LatencyStats", "MemoryStats", "OpProfile", "ProfileReport", "profile", "random_inputs"]


@dataclass(frozen=True)
class LatencyStats:
    """Milliseconds per call over the measured iterations."""

    mean: float
    median: float
    min: float
    max: float
    p90: float
    std: float

    @classmethod
    def of(cls, ns: Sequence[float] | np.ndarray) -> LatencyStats:
        ms = np.asarray(ns, np.float64) / 1e6
        return cls(mean=float(ms.mean()), median=float(np.median(ms)), min=float(ms.min()), max=float(ms.max()),
                   p90=float(np.percentile(ms, 90)), std=float(ms.std()))


@dataclass(frozen=True)
class OpProfile:
    """One ONNX node's self time over all profiled iterations.

    ``calls`` counts timed regions (a node whose ops are interleaved with another node's has more
    than one region per iteration); ``total_ms`` is their sum over all iterations, ``mean_ms`` the
    mean per call, ``per_iteration_ms`` the total divided by the iterations; ``share`` is the
    node's part of all nodes' time (the shares add up to 1).
    """

    node: str
    op_type: str
    calls: int
    total_ms: float
    mean_ms: float
    per_iteration_ms: float
    share: float
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemoryStats:
    """Peak memory: the planned arena (``ge-plan-memory``) and the process's measured RSS.

    ``rss_base`` is VmRSS before the profiled runs; ``rss_peak`` the high-water mark (VmHWM) over
    them, reset before them when the kernel allows it (``rss_peak_reset``; otherwise it is the
    process's whole peak, compilation included). Bytes; None where not measurable (non-Linux).
    """

    arena: int | None
    no_reuse: int | None
    rss_base: int | None
    rss_peak: int | None
    rss_peak_reset: bool

    @property
    def rss_growth(self) -> int | None:
        return None if self.rss_base is None or self.rss_peak is None else self.rss_peak - self.rss_base


@dataclass
class ProfileReport:
    """What :func:`profile` measured. ``table()`` / ``to_json()`` / ``trace()``.

    Latencies are wall-clock milliseconds per call from Python (arguments marshalled, the JIT
    code run, outputs allocated): ``latency`` with the stamps off (the model's real latency),
    ``profiled_latency`` with them on. ``kernel`` is the compiled function's own time (its first
    stamp to its last) and ``op_total`` the sum of the per-node times, per iteration, stamps on.
    ``overhead`` = profiled / unstamped median latency - 1; ``coverage`` = op_total / latency
    (medians): the share of the real latency the per-op times account for; ``coverage_fastest``
    the same for the fastest calls of each series (robust on a loaded machine).
    """

    model: str
    target: str
    cpu: str
    iterations: int
    warmup: int
    latency: LatencyStats
    profiled_latency: LatencyStats
    kernel: LatencyStats
    op_total: LatencyStats
    ops: list[OpProfile]
    memory: MemoryStats
    regions: int
    #: The cost of one stamp in ns: the median time from a region's exit stamp to the next region's
    #: entry stamp (one ``clock_gettime`` call and its guard). None with fewer than two regions.
    stamp_ns: float | None = None
    #: Per iteration (stamps on): the host call's start and end and every stamp row (ns, CLOCK_MONOTONIC).
    _calls: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 2), np.int64))
    _stamps: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0), np.int64))
    _regions: list[dict[str, Any]] = field(repr=False, default_factory=list)

    @property
    def throughput(self) -> float:
        """Calls per second at the mean unstamped latency."""
        return 1e3 / self.latency.mean if self.latency.mean > 0 else float("inf")

    @property
    def overhead(self) -> float:
        """Profiled (stamps on) over unstamped median latency, minus 1."""
        return self.profiled_latency.median / self.latency.median - 1.0

    @property
    def stamps_per_call(self) -> int:
        """Stamps the compiled code writes per call: two per region and two for the function."""
        return 2 * self.regions + 2

    @property
    def stamp_cost(self) -> float | None:
        """What the stamps themselves cost per call, as a share of the unstamped median latency:
        :attr:`stamps_per_call` times :attr:`stamp_ns` (a direct figure, unlike :attr:`overhead`,
        which a shared machine's noise can swamp)."""
        if self.stamp_ns is None or self.latency.median <= 0:
            return None
        return self.stamps_per_call * self.stamp_ns / 1e6 / self.latency.median

    @property
    def coverage(self) -> float:
        """Median per-op total over the median unstamped latency."""
        return self.op_total.median / self.latency.median

    @property
    def coverage_fastest(self) -> float:
        """The fastest call's per-op total over the fastest unstamped call: on a loaded machine,
        where the medians of two series of calls differ by tens of percent, the least disturbed
        calls are the figure to compare (as ``timeit`` takes the minimum)."""
        return self.op_total.min / self.latency.min

    def top(self, n: int = 10) -> list[OpProfile]:
        """The ``n`` nodes with the most self time."""
        return self.ops[:n]

    def by_op_type(self) -> list[tuple[str, int, float, float]]:
        """(op type, nodes, total ms, share) per ONNX op type, largest first."""
        agg: dict[str, list[float]] = {}
        for op in self.ops:
            a = agg.setdefault(op.op_type or "(none)", [0, 0.0, 0.0])
            a[0] += 1
            a[1] += op.total_ms
            a[2] += op.share
        return sorted(((k, int(v[0]), v[1], v[2]) for k, v in agg.items()), key=lambda r: -r[2])

    # -- output ------------------------------------------------------------------------------

    def table(self, top: int = 10) -> str:
        """The summary and the top-``top`` nodes by self time, as a terminal table."""
        lat, prof = self.latency, self.profiled_latency
        mem = self.memory
        lines = [
            f"ge-mlir profile: {self.model} ({self.target}, {self.cpu}; {self.iterations} iterations after "
            f"{self.warmup} warm-up, stamps off and on alternately)",
            f"  latency     mean {lat.mean:.3f} ms, median {lat.median:.3f} ms, min {lat.min:.3f} ms, "
            f"p90 {lat.p90:.3f} ms (stamps off)",
            f"  throughput  {self.throughput:.1f} inferences/s",
            f"  profiled    median {prof.median:.3f} ms (stamps on: overhead {self.overhead * 100:+.2f} %); "
            f"kernel {self.kernel.median:.3f} ms; per-op total {self.op_total.median:.3f} ms = "
            f"{self.coverage * 100:.1f} % of the latency (fastest calls: {self.coverage_fastest * 100:.1f} %)",
            f"  stamps      {self.stamps_per_call} per call"
            + (f", {self.stamp_ns:.0f} ns each: {self.stamps_per_call * self.stamp_ns / 1e3:.1f} us per call = "
               f"{self.stamp_cost * 100:.3f} % of the latency" if self.stamp_cost is not None else ""),
            f"  memory      {_memory_line(mem)}",
            "",
        ]
        shown = self.top(top)
        rows = []
        cum = 0.0
        for i, op in enumerate(shown, 1):
            cum += op.share
            rows.append((str(i), op.node, op.op_type or "-", str(op.calls), f"{op.total_ms:.3f}", f"{op.mean_ms:.4f}",
                         f"{op.share * 100:.1f} %", f"{cum * 100:.1f} %"))
        lines.append(f"top {len(shown)} of {len(self.ops)} nodes by self time ({self.regions} timed regions per "
                     f"iteration):")
        lines += _box(("#", "node", "op type", "calls", "total ms", "ms/call", "share", "cum."), rows,
                      right=(0, 3, 4, 5, 6, 7))
        types = self.by_op_type()
        lines.append("")
        lines.append("by op type:")
        lines += _box(("op type", "nodes", "total ms", "share"),
                      [(t, str(n), f"{ms:.3f}", f"{s * 100:.1f} %") for t, n, ms, s in types], right=(1, 2, 3))
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.table()

    def to_dict(self) -> dict[str, Any]:
        """Everything but the raw stamps, as JSON-ready values (times in ms, memory in bytes)."""
        return {
            "model": self.model, "target": self.target, "cpu": self.cpu, "iterations": self.iterations,
            "warmup": self.warmup, "regions_per_iteration": self.regions,
            "latency_ms": asdict(self.latency), "profiled_latency_ms": asdict(self.profiled_latency),
            "kernel_ms": asdict(self.kernel), "op_total_ms": asdict(self.op_total),
            "throughput_per_s": self.throughput, "overhead": self.overhead, "coverage": self.coverage,
            "coverage_fastest": self.coverage_fastest,
            "stamps_per_call": self.stamps_per_call, "stamp_ns": self.stamp_ns, "stamp_cost": self.stamp_cost,
            "memory": {**asdict(self.memory), "rss_growth": self.memory.rss_growth},
            "ops": [{**asdict(op), "kinds": list(op.kinds)} for op in self.ops],
            "by_op_type": [{"op_type": t, "nodes": n, "total_ms": ms, "share": s} for t, n, ms, s in self.by_op_type()],
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent) + "\n"

    def save_json(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json())

    def trace(self) -> dict[str, Any]:
        """The profiled iterations as a Chrome / Perfetto trace (JSON object format): per iteration a
        ``call`` event (the host call), a ``run`` event (the compiled function) inside it and one
        complete (``"X"``) event per timed region, named by ONNX node, category = op type."""
        events: list[dict[str, Any]] = [
            {"ph": "M", "pid": 1, "tid": 1, "name": "process_name", "args": {"name": f"ge-mlir: {self.model}"}},
            {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name", "args": {"name": f"{self.target} (1 thread)"}},
        ]
        if not len(self._stamps):
            return {"traceEvents": events, "displayTimeUnit": "ms"}
        t0 = int(min(self._calls[0, 0], self._stamps[0, 1]))

        def us(ns: int) -> float:
            return (int(ns) - t0) / 1e3

        k = len(self._regions)
        for i, (call, row) in enumerate(zip(self._calls, self._stamps)):
            events.append({"ph": "X", "pid": 1, "tid": 1, "cat": "call", "name": f"call {i}", "ts": us(call[0]),
                           "dur": (int(call[1]) - int(call[0])) / 1e3, "args": {"iteration": i}})
            events.append({"ph": "X", "pid": 1, "tid": 1, "cat": "run", "name": "run", "ts": us(row[1]),
                           "dur": (int(row[-1]) - int(row[1])) / 1e3, "args": {"iteration": i}})
            for j in range(k):
                r = self._regions[j]
                start, end = int(row[2 + 2 * j]), int(row[3 + 2 * j])
                events.append({"ph": "X", "pid": 1, "tid": 1, "cat": r["op_type"] or "op", "name": r["node"],
                               "ts": us(start), "dur": (end - start) / 1e3,
                               "args": {"op_type": r["op_type"], "ops": r["ops"], "kinds": r["kinds"],
                                        "iteration": i, "region": j}})
        return {"traceEvents": events, "displayTimeUnit": "ms",
                "otherData": {"model": self.model, "cpu": self.cpu, "iterations": self.iterations}}

    def save_trace(self, path: str | Path) -> None:
        """Writes :meth:`trace` to ``path`` (open it in https://ui.perfetto.dev or chrome://tracing)."""
        Path(path).write_text(json.dumps(self.trace()) + "\n")


def _memory_line(mem: MemoryStats) -> str:
    parts = [f"planned arena {_bytes(mem.arena)}" if mem.arena is not None else "no planned arena"]
    if mem.no_reuse is not None:
        parts[0] += f" (no reuse: {_bytes(mem.no_reuse)})"
    if mem.rss_peak is not None:
        what = "peak RSS over the runs" if mem.rss_peak_reset else "peak RSS of the process (compile included)"
        parts.append(f"{what} {_bytes(mem.rss_peak)}, {_bytes(mem.rss_growth)} above the "
                     f"{_bytes(mem.rss_base)} before them")
    return "; ".join(parts)


def _bytes(n: int | None) -> str:
    return "?" if n is None else format_bytes(n, largest="GiB")


def _box(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """A box-drawn table (rich/tabulate style, standard library only)."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "│ " + " │ ".join(c.rjust(w) if i in right else c.ljust(w)
                                  for i, (c, w) in enumerate(zip(cells, widths))) + " │"

    def rule(left: str, mid: str, end: str) -> str:
        return left + mid.join("─" * (w + 2) for w in widths) + end

    return [rule("┌", "┬", "┐"), line(header), rule("├", "┼", "┤"), *(line(r) for r in rows), rule("└", "┴", "┘")]


def cpu_name() -> str:
    """The host CPU's model name (``/proc/cpuinfo``), else the platform's processor string."""
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M)
        if m:
            return m.group(1).strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine() or "unknown CPU"


def random_inputs(model: CompiledModel, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded random arrays for every input of ``model`` (integers in [0, 10), booleans, normal floats)."""
    return random_arrays(model.inputs, seed)


def _status_bytes(field_name: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            m = re.search(rf"^{field_name}:\s+(\d+) kB", f.read(), re.M)
        return int(m.group(1)) * 1024 if m else None
    except OSError:
        return None


def _reset_peak_rss() -> bool:
    """Resets the kernel's RSS high-water mark of this process (Linux 4.0+: ``clear_refs`` 5)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def profile(
    compiled: Any,
    inputs: Mapping[str, Any] | Sequence[Any] | None = None,
    iterations: int = 100,
    warmup: int = 10,
    *,
    options: CompileOptions | Mapping[str, Any] | None = None,
    progress: bool | None = None,
    seed: int = 0,
    name: str | None = None,
) -> ProfileReport:
    """Profiles ``compiled`` on ``inputs``.

    Args:
        compiled: a :class:`CompiledModel` compiled with ``options={"profile": True}`` (target
            ``cpu``), or anything :func:`ge_mlir.compile` takes, which is then compiled that way
            (with ``options`` besides).
        inputs: arrays by input name (a dict) or in input order; None: seeded random arrays.
        iterations: measured calls with the stamps off, and as many with them on, alternating.
        warmup: calls (of each kind) before measuring.
        progress: a progress bar on stderr once profiling passes 1 s (default: when stderr is a terminal).
        seed: the seed of the random inputs.
        name: the model's name in the report (default: the source file the ge module records, else "model").

    Raises:
        ExecutionError: ``compiled`` is not a profiling build, or a run fails.
        CompileError: bad arguments or options.
    """
    if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
        raise CompileError(f"iterations must be a positive integer, got {iterations!r}")
    if not isinstance(warmup, int) or isinstance(warmup, bool) or warmup < 0:
        raise CompileError(f"warmup must be a non-negative integer, got {warmup!r}")
    if not isinstance(compiled, CompiledModel):
        opts = resolve_options(options)
        import dataclasses

        compiled = _compile(compiled, options=dataclasses.replace(opts, profile=True), progress=progress)
    elif options is not None:
        raise CompileError("options apply when profile() compiles the model; this one is compiled already")
    profiler = compiled.profiler
    if profiler is None:
        if compiled.target != "cpu":
            raise ExecutionError(f"profiling serves the cpu target only (this model targets {compiled.target})")
        raise ExecutionError("this model is not a profiling build: compile it with options={'profile': True} "
                             "(ge-compile --profile N does), or pass the model itself to ge_mlir.profile")
    if compiled._run is None:
        raise ExecutionError(compiled._not_runnable or "the model cannot run")
    if inputs is None:
        inputs = random_inputs(compiled, seed)
    if isinstance(inputs, Mapping):
        bound = compiled._bind((), dict(inputs))
    else:
        bound = compiled._bind(tuple(inputs), {})
    arrays = check_arrays(bound, compiled.inputs, [f"input '{s.name}'" for s in compiled.inputs])
    run = compiled._run
    clock = time.perf_counter_ns  # CLOCK_MONOTONIC on Linux, the stamps' clock

    bar = ProgressBar(warmup + iterations, progress, what="profile")
    try:
        for _ in range(warmup):
            profiler.enabled = False
            run(arrays)
            profiler.enabled = True
            run(arrays)
            bar.step("warm-up")
        profiler.enabled = False
        rss_base = _status_bytes("VmRSS")
        reset = _reset_peak_rss()
        off = np.empty(iterations, np.int64)
        calls = np.empty((iterations, 2), np.int64)
        stamps = np.empty((iterations, profiler.rows), np.int64)
        for i in range(iterations):
            profiler.enabled = False
            t0 = clock()
            run(arrays)
            off[i] = clock() - t0
            profiler.enabled = True
            t0 = clock()
            run(arrays)
            calls[i] = (t0, clock())
            stamps[i] = profiler.stamps()
            bar.step("runs")
        rss_peak = _status_bytes("VmHWM")
    finally:
        profiler.enabled = False
        bar.close()
    return _report(compiled, name or model_name(compiled), profiler.regions, iterations, warmup, off, calls, stamps,
                   rss_base, rss_peak, reset)


def model_name(compiled: CompiledModel) -> str:
    """The file name the ge module records as its source (``ge.source``), else "model"."""
    if "ge" in compiled._ir:  # not kept (keep_ir=False) or not saved: no name to read
        m = re.search(r'ge\.source = "((?:[^"\\]|\\.)*)"', compiled.ir("ge").split("\n", 1)[0])
        if m:
            return Path(m.group(1)).name
    return "model"


def _report(compiled: CompiledModel, name: str, regions: list[dict[str, Any]], iterations: int, warmup: int,
            off: np.ndarray, calls: np.ndarray, stamps: np.ndarray, rss_base: int | None, rss_peak: int | None,
            reset: bool) -> ProfileReport:
    k = len(regions)
    durations = stamps[:, 3:3 + 2 * k:2] - stamps[:, 2:2 + 2 * k:2]  # (iterations, regions)
    if (durations < 0).any() or (stamps[:, 1:] == 0).any():
        raise ExecutionError("the profile stamps are inconsistent (was the model run concurrently?)")
    per_iteration = durations.sum(axis=1)
    gaps = stamps[:, 4:2 + 2 * k:2] - stamps[:, 3:1 + 2 * k:2]  # a region's exit to the next one's entry
    stamp_ns = float(np.median(gaps)) if gaps.size else None
    grand = float(durations.sum()) or 1.0
    nodes: dict[str, list[int]] = {}
    for j, r in enumerate(regions):
        nodes.setdefault(r["node"], []).append(j)
    ops = []
    for node, idx in nodes.items():
        total = float(durations[:, idx].sum())
        kinds: list[str] = []
        for j in idx:
            kinds += [kd for kd in regions[j]["kinds"] if kd not in kinds]
        n_calls = len(idx) * iterations
        ops.append(OpProfile(node=node, op_type=regions[idx[0]]["op_type"], calls=n_calls, total_ms=total / 1e6,
                             mean_ms=total / 1e6 / n_calls, per_iteration_ms=total / 1e6 / iterations,
                             share=total / grand, kinds=tuple(kinds)))
    ops.sort(key=lambda o: (-o.total_ms, o.node))
    plan = compiled.memory_plan
    memory = MemoryStats(arena=plan["arena"] if plan else None, no_reuse=plan["no_reuse"] if plan else None,
                         rss_base=rss_base, rss_peak=rss_peak, rss_peak_reset=reset)
    return ProfileReport(
        model=name, target=compiled.target, cpu=cpu_name(), iterations=iterations,
        warmup=warmup, latency=LatencyStats.of(off), profiled_latency=LatencyStats.of(calls[:, 1] - calls[:, 0]),
        kernel=LatencyStats.of(stamps[:, -1] - stamps[:, 1]), op_total=LatencyStats.of(per_iteration), ops=ops,
        memory=memory, regions=k, stamp_ns=stamp_ns, _calls=calls, _stamps=stamps, _regions=list(regions),
    )
