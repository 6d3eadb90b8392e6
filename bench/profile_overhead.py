"""What the profiler's instrumentation costs and how much of the latency its per-op times cover.

    python bench/profile_overhead.py [--models resnet18,bert_encoder] [--runs 50] [--markdown] [--top 5]

Per model (bench/models.py, exported with torch, random weights) two builds of the same model:
a plain one and a profiling one (``CompileOptions(profile=True)``: ``ge-instrument-ops`` stamps
each ONNX node's ops). Each iteration runs, one after the other, the plain build, the profiling
build with its stamps off, and with them on, in an order that rotates every iteration (load changes
on a shared machine hit all three alike, and each follows each as often); medians over ``--runs``
iterations after 3 warm-up ones:

* plain / off / on: wall latency of a call from Python (ms);
* kernel: the compiled function's own time (its first to last stamp), stamps on;
* ops: the sum of the per-node times in the same calls;
* ops/plain: how much of the uninstrumented latency the per-op times cover (docs/profiling.md);
  "fastest" the same for the fastest call of each series (robust when the machine is loaded);
* on/plain - 1: the instrumentation's overhead; off/plain - 1: what a profiling build costs
  with its stamps off.

Then the top ``--top`` nodes of each model from ``ge_mlir.profile``. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.frontend.torch import export_onnx  # noqa: E402
from ge_mlir.profiler import cpu_name  # noqa: E402
from models import benchmark_models  # noqa: E402
from tables import print_table  # noqa: E402


def measure(plain, prof, feeds: dict, runs: int, warmup: int = 3) -> dict[str, float]:
    profiler = prof.profiler
    clock = time.perf_counter_ns
    rows = {"plain": [], "off": [], "on": [], "kernel": [], "ops": []}
    order = ["plain", "off", "on"]
    for i in range(warmup + runs):
        # The order rotates: a run right after another of the same build finds its weights in cache.
        for kind in order[i % 3:] + order[:i % 3]:
            profiler.enabled = kind == "on"
            t0 = clock()
            (plain if kind == "plain" else prof)(**feeds)
            t = clock() - t0
            profiler.enabled = False
            if i < warmup:
                continue
            rows[kind].append(t)
            if kind == "on":
                stamps = profiler.stamps()
                rows["kernel"].append(stamps[-1] - stamps[1])
                rows["ops"].append(profiler.durations(stamps).sum())
    out = {k: float(np.median(v)) / 1e6 for k, v in rows.items()}
    out.update({f"{k}_min": float(np.min(v)) / 1e6 for k, v in rows.items()})
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", help="comma-separated subset (default: resnet18,bert_encoder)",
                   default="resnet18,bert_encoder")
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--top", type=int, default=5)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    wanted = set(args.models.split(","))
    results = []
    for name, module, example, names in benchmark_models():
        if name not in wanted:
            continue
        proto = export_onnx(module, example, input_names=names)
        feeds = {n: a.numpy() for n, a in zip(names, example)}
        plain = ge_mlir.compile(proto, progress=False)
        prof = ge_mlir.compile(proto, options={"profile": True}, progress=False)
        feeds = {k: v for k, v in feeds.items() if k in plain.input_names}
        m = measure(plain, prof, feeds, args.runs)
        report = ge_mlir.profile(prof, feeds, iterations=args.runs, warmup=3, progress=False, name=name)
        results.append((name, len(prof.profiler.regions), m, report))
        print(f"{name}: plain {m['plain']:.2f} ms, off {m['off']:.2f}, on {m['on']:.2f}, ops {m['ops']:.2f} "
              f"({m['ops'] / m['plain'] * 100:.1f} % of plain)", file=sys.stderr)
    header = ("model", "regions", "plain ms", "off ms", "on ms", "kernel ms", "ops ms", "ops/plain", "on/plain-1",
              "off/plain-1", "fastest: plain ms", "ops ms", "ops/plain", "ops/kernel", "stamp ns")
    body = [(n, str(k), f"{m['plain']:.2f}", f"{m['off']:.2f}", f"{m['on']:.2f}", f"{m['kernel']:.2f}",
             f"{m['ops']:.2f}", f"{m['ops'] / m['plain'] * 100:.1f} %", f"{(m['on'] / m['plain'] - 1) * 100:+.1f} %",
             f"{(m['off'] / m['plain'] - 1) * 100:+.1f} %", f"{m['plain_min']:.2f}", f"{m['ops_min']:.2f}",
             f"{m['ops_min'] / m['plain_min'] * 100:.1f} %", f"{m['ops'] / m['kernel'] * 100:.2f} %",
             f"{r.stamp_ns:.0f}" if r.stamp_ns is not None else "-") for n, k, m, r in results]
    print_table(header, body, args.markdown)
    print(f"(medians of {args.runs} iterations after 3 warm-up, plain / stamps off / stamps on in rotating order; "
          f"1 thread; {cpu_name()}, {os.cpu_count()} CPUs)")
    for name, _, _, report in results:
        print()
        print(report.table(top=args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
