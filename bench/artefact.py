"""Compile time against the load time of a saved artefact (docs/artefacts.md).

    python bench/artefact.py [--models resnet18,bert_encoder] [--runs 3] [--markdown]

Per model (bench/models.py, exported with torch, random weights), ``--runs`` times each, every
run in a fresh subprocess of this script that imports ge_mlir and its compiler driver first (timed
apart: ``import``):

* compile: ``ge_mlir.compile(model.onnx)`` (import, optimization, lowering, LLVM code generation),
  then ``CompiledModel.save(model.gem)`` (object dump, link, zip; the first run's file is kept);
* load: ``ge_mlir.load(model.gem)`` (manifest, host check, dlopen, workspace), in a process that
  never compiled anything, and the end-to-end wall time of that process (Python start, ``import
  ge_mlir``, load, one run) next to the same for compile.

Every run's outputs are compared bit for bit with the first compile's. The figures are medians;
the CPU is read from /proc/cpuinfo. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402


def _child(mode: str, model_path: str, gem_path: str, inputs_path: str, outputs_path: str) -> None:
    t0 = time.perf_counter()
    import ge_mlir
    import ge_mlir.compiler  # noqa: F401  (the driver, the runtime and ml_dtypes: imported by both, timed apart)

    imported = time.perf_counter() - t0
    with np.load(inputs_path) as data:
        feeds = {k: data[k] for k in data.files}
    report = {"import": imported}
    t0 = time.perf_counter()
    if mode == "compile":
        model = ge_mlir.compile(model_path, progress=False)
        report["seconds"] = time.perf_counter() - t0
        report["jit"] = model.stage_times.get("jit", 0.0)
        if not Path(gem_path).exists():
            t0 = time.perf_counter()
            model.save(gem_path)
            report["save"] = time.perf_counter() - t0
    else:
        model = ge_mlir.load(gem_path)
        report["seconds"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    outs = model(**feeds)
    report["first_run"] = time.perf_counter() - t0
    np.savez(outputs_path, *outs)
    print(json.dumps(report))


def _run(mode: str, onnx_path: Path, gem: Path, inputs: Path, outputs: Path) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(onnx_path), str(gem), str(inputs),
                           str(outputs)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"{mode} child failed:\n{proc.stderr}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    report["wall"] = wall
    return report


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default="resnet18", help="comma-separated subset of bench/models.py (default resnet18)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child)
        return 0
    import os

    from ge_mlir.frontend.torch import export_onnx
    from models import benchmark_models

    wanted = set(args.models.split(","))
    rows = []
    with tempfile.TemporaryDirectory(prefix="ge-bench-artefact-") as tmp:
        for name, module, example, names in benchmark_models():
            if name not in wanted:
                continue
            onnx_path, inputs, gem = Path(tmp) / f"{name}.onnx", Path(tmp) / f"{name}.npz", Path(tmp) / f"{name}.gem"
            onnx_path.write_bytes(export_onnx(module, example, input_names=names).SerializeToString())
            np.savez(inputs, **{n: a.numpy() for n, a in zip(names, example)})
            runs = {"compile": [], "load": []}
            reference = None
            for i in range(args.runs):
                for mode in ("compile", "load"):
                    out = Path(tmp) / f"{name}-{mode}-{i}.npz"
                    runs[mode].append(_run(mode, onnx_path, gem, inputs, out))
                    with np.load(out) as data:
                        got = [data[k] for k in sorted(data.files, key=lambda k: int(k.split("_")[1]))]
                    if reference is None:
                        reference = got
                    elif not all(np.array_equal(a, b) for a, b in zip(got, reference)):
                        raise SystemExit(f"{name}: {mode} run {i} differs from the first compile's outputs")
            med = {mode: {k: statistics.median(r[k] for r in rs) for k in ("seconds", "wall", "import", "first_run")}
                   for mode, rs in runs.items()}
            print(f"{name}: every run (s): " + "; ".join(
                f"{mode} " + ", ".join(f"{r['seconds']:.3f} (process {r['wall']:.2f}, import {r['import']:.2f})"
                                       for r in rs) for mode, rs in runs.items()), flush=True)
            save = runs["compile"][0]["save"]
            rows.append((name, med, save, os.path.getsize(gem)))
            print(f"{name}: compile {med['compile']['seconds']:.2f} s, load {med['load']['seconds'] * 1e3:.0f} ms "
                  f"({med['compile']['seconds'] / med['load']['seconds']:.0f}x); save {save:.2f} s, "
                  f"artefact {os.path.getsize(gem) / 2**20:.1f} MiB; whole process (start, import, compile|load, "
                  f"one run) {med['compile']['wall']:.2f} s vs {med['load']['wall']:.2f} s; outputs bitwise equal",
                  flush=True)
    print(f"\nCPU: {_cpu()}, {os.cpu_count()} core(s); medians of {args.runs} fresh processes each")
    if args.markdown:
        print("\n| model | compile | save | artefact | load | compile / load | process: compile + run | "
              "process: load + run |")
        print("|---|---|---|---|---|---|---|---|")
        for name, med, save, size in rows:
            print(f"| {name} | {med['compile']['seconds']:.2f} s | {save:.2f} s | {size / 2**20:.1f} MiB | "
                  f"{med['load']['seconds'] * 1e3:.0f} ms | {med['compile']['seconds'] / med['load']['seconds']:.0f}x | "
                  f"{med['compile']['wall']:.2f} s | {med['load']['wall']:.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
