"""ge-mlir's static memory plan per benchmark model, and peak RSS of a run next to onnxruntime's.

    python bench/memory.py [--models resnet18,bert_encoder] [--runs 3] [--markdown] [--svg-dir DIR]

Per model (bench/models.py, exported with torch, random weights) the plan of the
compiled function (ge_mlir.compile, target cpu; docs/memory.md "Reading the memory
report"): the no-reuse sum, the interval lower bound of the chosen op order, the
order-independent op bound (the most planned bytes one op reads and writes), each
strategy's arena, the chosen arena and its ratios to both bounds, how many buffers were
written in place and the interval bound (and its ratio to the op bound) without that.

Peak RSS: each engine runs in a fresh subprocess of this script (``--child``) that
loads only that engine, numpy and the model saved by the parent (no torch). The child
compiles the model (or creates the onnxruntime session, ORT_ENABLE_ALL, one intra- and
inter-op thread; the ge-mlir JIT code is single-threaded), loads the inputs, collects
garbage, returns freed heap pages to the kernel (glibc malloc_trim; and blocks over 128 KiB
are always fresh mmaps, MALLOC_MMAP_THRESHOLD_, so memory compilation touched and freed is
not silently reused by the run) and reads VmRSS ("base": code, weights, what the
compiler still holds), then resets the kernel's high-water mark (writing 5 to
/proc/self/clear_refs, Linux 4.0+) so that compilation does not count, runs the model
``--runs`` times and reads VmHWM ("peak"). "growth" = peak - base is what running
costs: the ge-mlir arena (allocated untouched at load), onnxruntime's arena, outputs.
Where the reset is refused the peak is the process's whole VmHWM, compile included, and
the table says so. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

MIB = 2**20


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        return int(re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M).group(1))


def _child(engine: str, onnx_path: str, inputs_path: str, runs: int) -> None:
    """Runs one engine on the saved model; prints one JSON line (plan, RSS in bytes)."""
    with np.load(inputs_path) as data:
        feeds = {k: data[k] for k in data.files}
    plan = None
    t0 = time.perf_counter()
    if engine == "ge-mlir":
        import ge_mlir

        # No stage IR text kept: the run's memory, not five printed copies of the weights.
        model = ge_mlir.compile(onnx_path, target="cpu", progress=False, options={"keep_ir": False})
        plan = model.memory_plan
        feeds = {k: v for k, v in feeds.items() if k in model.input_names}

        def run() -> None:
            model(**feeds)
    else:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        sess = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
        names = {i.name for i in sess.get_inputs()}
        feeds = {k: v for k, v in feeds.items() if k in names}

        def run() -> None:
            sess.run(None, feeds)
    load_s = time.perf_counter() - t0
    gc.collect()
    try:
        # Hand freed heap pages back to the kernel: otherwise memory the compiler or the session
        # set-up freed is reused by the run without raising the high-water mark.
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    base = _status_kib("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        reset = True
    except OSError:
        reset = False
    for _ in range(runs):
        run()
    peak = _status_kib("VmHWM")
    print(json.dumps({"plan": plan, "base": base * 1024, "peak": peak * 1024, "reset": reset, "load_s": load_s}))


def _run_child(engine: str, onnx_path: Path, inputs_path: Path, runs: int) -> dict:
    cmd = [sys.executable, __file__, "--child", engine, str(onnx_path), str(inputs_path), "--runs", str(runs)]
    # One thread for the numpy/BLAS side as well, as in bench/run.py's measurements.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
           # A fixed mmap threshold (glibc otherwise raises it up to 32 MiB after big frees): blocks over
           # 128 KiB, the ge-mlir arena among them, get fresh pages, not pages compilation already touched.
           "MALLOC_MMAP_THRESHOLD_": str(128 * 1024)}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode:
        raise RuntimeError(f"{engine} on {onnx_path.name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _mib(n: float) -> str:
    return f"{n / MIB:.2f}"


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", help="comma-separated subset")
    p.add_argument("--runs", type=int, default=3, help="runs per engine while the peak is recorded")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--svg-dir", help="also draw each model's plan to DIR/<model>.svg")
    p.add_argument("--child", nargs=3, metavar=("ENGINE", "MODEL.onnx", "INPUTS.npz"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child, args.runs)
        return 0
    from ge_mlir.frontend.torch import export_onnx
    from ge_mlir.memory.report import memory_plan_svg
    from models import benchmark_models
    from tables import print_table

    wanted = set(args.models.split(",")) if args.models else None
    rows = []
    with tempfile.TemporaryDirectory(prefix="ge-bench-memory-") as tmp:
        for name, module, example, names in benchmark_models():
            if wanted and name not in wanted:
                continue
            onnx_path, inputs_path = Path(tmp) / f"{name}.onnx", Path(tmp) / f"{name}.npz"
            proto = export_onnx(module, example, input_names=names)
            onnx_path.write_bytes(proto.SerializeToString())
            np.savez(inputs_path, **{n: a.numpy() for n, a in zip(names, example)})
            ge = _run_child("ge-mlir", onnx_path, inputs_path, args.runs)
            ort = _run_child("onnxruntime", onnx_path, inputs_path, args.runs)
            plan = ge["plan"]
            if plan is None:
                print(f"{name}: no memory plan (nothing statically sized to plan)", file=sys.stderr)
                continue
            if args.svg_dir:
                Path(args.svg_dir).mkdir(parents=True, exist_ok=True)
                (Path(args.svg_dir) / f"{name}.svg").write_text(memory_plan_svg(plan, f"{name}: memory plan"))
            rows.append((name, plan, ge, ort))
            print(f"{name}: {len(plan['buffers'])} buffers, arena {_mib(plan['arena'])} MiB ({plan['strategy']}), "
                  f"arena/op bound {_ratio(plan['arena'], plan['op_bound'])}; peak RSS growth ge-mlir "
                  f"{_mib(ge['peak'] - ge['base'])} MiB, onnxruntime {_mib(ort['peak'] - ort['base'])} MiB",
                  file=sys.stderr)
    strategies = sorted({s for _, plan, _, _ in rows for s in plan["arenas"]})
    plan_header = ("model", "buffers", "no-reuse", "lower bound", "op bound", *strategies, "chosen", "arena",
                   "/lower", "/op", "in place", "bound w/o in place", "/op w/o in place")
    rss_header = ("model", "ge base", "ge peak", "ge growth", "ort base", "ort peak", "ort growth", "arena")
    plan_rows = [
        (name, str(len(plan["buffers"])), _mib(plan["no_reuse"]), _mib(plan["lower_bound"]), _mib(plan["op_bound"]),
         *(_mib(plan["arenas"][s]) if s in plan["arenas"] else "-" for s in strategies), plan["strategy"],
         _mib(plan["arena"]), _ratio(plan["arena"], plan["lower_bound"]), _ratio(plan["arena"], plan["op_bound"]),
         str(plan.get("inplace", 0)), _mib(plan.get("lower_bound_no_inplace", plan["lower_bound"])),
         _ratio(plan.get("lower_bound_no_inplace", plan["lower_bound"]), plan["op_bound"]))
        for name, plan, _, _ in rows
    ]
    rss_rows = [
        (name, _mib(ge["base"]), _mib(ge["peak"]), _mib(ge["peak"] - ge["base"]), _mib(ort["base"]),
         _mib(ort["peak"]), _mib(ort["peak"] - ort["base"]), _mib(plan["arena"]))
        for name, plan, ge, ort in rows
    ]
    for title, header, body in (("memory plan (MiB; ratios of the chosen arena)", plan_header, plan_rows),
                                ("peak RSS of a run (MiB)", rss_header, rss_rows)):
        print(title)
        print_table(header, body, args.markdown)
        print()
    reset = all(ge["reset"] and ort["reset"] for _, _, ge, ort in rows)
    print(f"(each engine in a fresh process, 1 thread, {args.runs} runs; base = VmRSS after compile/session "
          f"creation, peak = VmHWM over the runs"
          + (" after resetting it via /proc/self/clear_refs" if reset else ", NOT reset: compile included")
          + f"; {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
