"""ge-mlir CPU latency against onnxruntime, same process, one thread each.

    python bench/run.py [--models resnet18,bert_encoder] [--runs 20] [--markdown]

Per model: export with torch (random weights), compile with ge_mlir.compile
(target cpu), run both on the same random inputs and print compile time,
median latencies (after warm-up runs), the ratio ge-mlir / onnxruntime and
the max abs error. onnxruntime uses ORT_ENABLE_ALL and 1 intra-op thread; the
ge-mlir JIT code is single-threaded. This is a benchmark, not a test.
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
from models import benchmark_models  # noqa: E402


def _median_ms(fn, runs: int, warmup: int = 3) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", help="comma-separated subset")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    import onnxruntime as ort

    wanted = set(args.models.split(",")) if args.models else None
    rows = []
    for name, module, example, names in benchmark_models():
        if wanted and name not in wanted:
            continue
        proto = export_onnx(module, example, input_names=names)
        feeds = {n: a.numpy() for n, a in zip(names, example)}
        t0 = time.perf_counter()
        model = ge_mlir.compile(proto, target="cpu")
        compile_s = time.perf_counter() - t0
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        sess = ort.InferenceSession(proto.SerializeToString(), so, providers=["CPUExecutionProvider"])
        feeds = {k: v for k, v in feeds.items() if k in model.input_names}
        got = model(**feeds)
        want = sess.run(None, feeds)
        err = max(float(np.max(np.abs(g.astype(np.float64) - w))) for g, w in zip(got, want))
        # Relative to the output's magnitude: GPT-2 logits reach ~200, where
        # one f32 ulp is 1.5e-5 and onnxruntime itself is 1e-4 from float64.
        scale = max(float(np.max(np.abs(w))) for w in want)
        rel = err / scale if scale else err
        ge_ms = _median_ms(lambda: model(**feeds), args.runs)
        ort_ms = _median_ms(lambda: sess.run(None, feeds), args.runs)
        rows.append((name, compile_s, ge_ms, ort_ms, ge_ms / ort_ms, err, rel))
        print(f"{name}: compile {compile_s:.1f} s, ge-mlir {ge_ms:.2f} ms, onnxruntime {ort_ms:.2f} ms, "
              f"ratio {ge_ms / ort_ms:.2f}, max abs err {err:.2e} (relative {rel:.1e})", file=sys.stderr)
    cpu = os.cpu_count()
    header = ("model", "compile s", "ge-mlir ms", "onnxruntime ms", "ratio", "max abs err", "rel err")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print(f"| {r[0]} | {r[1]:.1f} | {r[2]:.2f} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.1e} | {r[6]:.1e} |")
    else:
        print(f"{header[0]:<14} {header[1]:>9} {header[2]:>11} {header[3]:>15} {header[4]:>6} {header[5]:>12} "
              f"{header[6]:>8}")
        for r in rows:
            print(f"{r[0]:<14} {r[1]:>9.1f} {r[2]:>11.2f} {r[3]:>15.2f} {r[4]:>6.2f} {r[5]:>12.1e} {r[6]:>8.1e}")
    print(f"(medians of {args.runs} runs after 3 warm-up runs, 1 thread each, {cpu} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
