"""ge-mlir CPU latency against onnxruntime, same process, interleaved runs.

    python bench/run.py [--models resnet18,bert_encoder] [--runs 20] [--threads 1,2] [--markdown] [--precise-math]
    GE_MLIR_JIT_CPU=x86-64-v3 python bench/run.py     # the code an AVX2-only CPU runs

Per model of ``speed_models()`` (bench/models.py: torch-exported, random weights): compile
with ``ge_mlir.compile`` (target cpu, compile cache off), then per thread count run ge-mlir
and onnxruntime (ORT_ENABLE_ALL, that many intra-op threads) on the same inputs, one call of
each in turn after warm-up calls (onnxruntime's threads not spinning between calls, as the
async runtime's do not), and print the compile time, the median latencies, their ratio and the
max error against onnxruntime. Thread counts other than 1 need a ge-mlir with
multi-threaded code (``CompileOptions.num_threads``); without it only 1 runs. This is a
benchmark, not a test: figures depend on the machine and its load (say which when quoting).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.frontend.torch import export_onnx  # noqa: E402
from models import speed_models  # noqa: E402
from tables import print_table  # noqa: E402


def _interleaved_medians(fns, runs: int, warmup: int = 3) -> list[float]:
    """Median ms of each callable, called in turn (the machine's drift hits all alike)."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for t, fn in zip(times, fns):
            t0 = time.perf_counter()
            fn()
            t.append(time.perf_counter() - t0)
    return [statistics.median(t) * 1e3 for t in times]


def _threads_supported() -> bool:
    return "num_threads" in ge_mlir.CompileOptions.__dataclass_fields__


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", help="comma-separated subset")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--precise-math", action="store_true",
                   help="libm exp/tanh/erf instead of the vectorized polynomials (CompileOptions.precise_math)")
    args = p.parse_args()
    import onnxruntime as ort

    threads = [int(t) for t in args.threads.split(",")]
    if not _threads_supported() and threads != [1]:
        print("this ge-mlir has no multi-threaded code yet: 1 thread only", file=sys.stderr)
        threads = [1]
    wanted = set(args.models.split(",")) if args.models else None
    rows = []
    for name, module, example, names in speed_models():
        if wanted and name not in wanted:
            continue
        proto = export_onnx(module, example, input_names=names)
        feeds = {n: a.numpy() for n, a in zip(names, example)}
        row = [name]
        for n in threads:
            options = {"keep_ir": False}
            if args.precise_math:
                options["precise_math"] = True
            if _threads_supported():
                options["num_threads"] = n
            t0 = time.perf_counter()
            model = ge_mlir.compile(proto, target="cpu", options=options, cache=False)
            compile_s = time.perf_counter() - t0
            so = ort.SessionOptions()
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            so.intra_op_num_threads = n
            so.inter_op_num_threads = 1
            # Interleaved runs: onnxruntime's pool threads spin after each call by default and
            # would take the cores from the ge-mlir call that follows (the async runtime's
            # workers sleep when idle); they wait on a condition variable here too.
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            sess = ort.InferenceSession(proto.SerializeToString(), so, providers=["CPUExecutionProvider"])
            f = {k: v for k, v in feeds.items() if k in model.input_names}
            got, want = model(**f), sess.run(None, f)
            err = max(float(np.max(np.abs(g.astype(np.float64) - w))) for g, w in zip(got, want))
            # Relative to the output's magnitude: GPT-2 logits reach ~200, where one f32 ulp
            # is 1.5e-5 and onnxruntime itself is 1e-4 from float64.
            scale = max(float(np.max(np.abs(w))) for w in want)
            rel = err / scale if scale else err
            ge_ms, ort_ms = _interleaved_medians([lambda: model(**f), lambda: sess.run(None, f)], args.runs)
            if n == threads[0]:
                row.append(f"{compile_s:.1f}")
            row += [f"{ge_ms:.2f}", f"{ort_ms:.2f}", f"{ge_ms / ort_ms:.2f}"]
            print(f"{name} ({n} thread(s)): compile {compile_s:.1f} s, ge-mlir {ge_ms:.2f} ms, onnxruntime "
                  f"{ort_ms:.2f} ms, ratio {ge_ms / ort_ms:.2f}, max abs err {err:.2e} (relative {rel:.1e})",
                  file=sys.stderr)
        row.append(f"{rel:.1e}")
        rows.append(row)
    header = ["model", "compile s"]
    for n in threads:
        header += [f"ge-mlir ms ({n}T)", f"onnxruntime ms ({n}T)", f"ratio ({n}T)"]
    header.append("rel err")
    print_table(header, rows, args.markdown)
    jit = os.environ.get("GE_MLIR_JIT_CPU", "host")
    print(f"(medians of {args.runs} interleaved runs after 3 warm-up runs; {os.cpu_count()} CPUs; JIT CPU {jit})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
