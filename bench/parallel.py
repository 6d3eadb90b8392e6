"""Parallel strategies on the bench's transformer and CNN models (not a test).

    python bench/parallel.py [--models bert,gpt2,cnn] [--repeat 5] [--out bench-parallel.md]

Per model and strategy: per-rank weight and activation bytes against one device, the
theoretical and measured bubble, communication bytes per step, and the wall time of a
step on this machine (median of ``--repeat`` runs inside one ``ge-run`` job, after a
warm-up), next to the one-device ge-mlir time in the same script. The models are the
bench's BERT-style encoder and GPT-2-style decoder at reduced size (2 layers, hidden 64,
sequence 16, batch 4) and a small ResNet-style CNN (batch 4, 32x32), so that a 4-rank job
fits the 2-core machine; on 2 cores, 4 ranks time-share, so wall times show the cost of
communication and scheduling, not a speed-up.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

STRATEGIES = [
    ({"tensor_parallel": 2}, 2),
    ({"data_parallel": 2}, 2),
    ({"pipeline_parallel": 2, "num_microbatches": 4, "schedule": "gpipe"}, 2),
    ({"pipeline_parallel": 2, "num_microbatches": 4, "schedule": "1f1b"}, 2),
    ({"pipeline_parallel": 2, "virtual_stages": 2, "num_microbatches": 4, "schedule": "interleaved"}, 2),
    ({"tensor_parallel": 2, "pipeline_parallel": 2, "num_microbatches": 2}, 4),
    ({"data_parallel": 2, "tensor_parallel": 2}, 4),
]


def export(tmp: Path) -> dict[str, tuple[Path, Path]]:
    from models import parallel_models
    from ge_mlir.frontend.torch import export_onnx

    out = {}
    for name, m, args, names in parallel_models():
        p = tmp / f"{name}.onnx"
        p.write_bytes(export_onnx(m, args, input_names=names).SerializeToString())
        np.savez(tmp / f"{name}.npz", **{n: a.numpy() for n, a in zip(names, args)})
        out[name] = (p, tmp / f"{name}.npz")
    return out


def one_device_ms(model: Path, inputs: Path, repeat: int) -> tuple[float, float]:
    import ge_mlir

    t0 = time.perf_counter()
    m = ge_mlir.compile(str(model), cache=False)
    compile_s = time.perf_counter() - t0
    with np.load(inputs) as z:
        args = [z[k] for k in z.files]
    m(*args)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        m(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, compile_s


def run(model: Path, inputs: Path, cfg: dict, n: int, repeat: int, tmp: Path) -> dict:
    from ge_mlir.tools.ge_run import mpi_command

    plan_json = tmp / "plan.json"
    cmd, env = mpi_command(n, [str(model), "--parallel", json.dumps(cfg), "--inputs", str(inputs),
                               "--repeat", str(repeat + 1), "--plan-json", str(plan_json)])
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, start_new_session=True)
    job_s = time.perf_counter() - t0
    if r.returncode != 0:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"}
    m = re.search(r"wall time: median ([\d.]+) ms .* measured bubble ([\d.]+) \(theoretical ([\d.]+)\)", r.stdout)
    plan = json.loads(plan_json.read_text())
    mem = plan["memory"]
    return {"wall_ms": float(m.group(1)), "measured_bubble": float(m.group(2)), "bubble": float(m.group(3)),
            "comm_bytes": plan["comm_bytes_per_step"], "weights_one": plan["single_device_weight_bytes"],
            "weights_max": max(v["weights"] for v in mem.values()),
            "acts_max": max(v["activations"] for v in mem.values()), "job_s": job_s}


def describe(cfg: dict) -> str:
    keys = {"tensor_parallel": "TP", "data_parallel": "DP", "pipeline_parallel": "PP", "num_microbatches": "m",
            "virtual_stages": "v", "schedule": ""}
    return " ".join(f"{keys[k]}{v}" if keys[k] else str(v) for k, v in cfg.items())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="bert,gpt2,cnn")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ge-parallel-bench-"))
    models = export(tmp)
    lines = ["| model | strategy | ranks | weights/rank (max) vs 1 device | activations/rank (max) | comm/step | "
             "bubble theory | bubble measured | step ms | 1-device ms |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name in args.models.split(","):
        path, inputs = models[name]
        base_ms, _ = one_device_ms(path, inputs, args.repeat)
        for cfg, n in STRATEGIES:
            if name == "cnn" and ("tensor_parallel" in cfg or "pipeline_parallel" in cfg):
                continue  # convolutions split along the batch only
            r = run(path, inputs, cfg, n, args.repeat, tmp)
            if "error" in r:
                lines.append(f"| {name} | {describe(cfg)} | {n} | refused: {r['error'][:80]} | | | | | | |")
            else:
                lines.append(
                    f"| {name} | {describe(cfg)} | {n} | {r['weights_max'] / 1024:.1f} KiB vs "
                    f"{r['weights_one'] / 1024:.1f} KiB | {r['acts_max'] / 1024:.1f} KiB | "
                    f"{r['comm_bytes'] / 1024:.1f} KiB | {r['bubble']:.3f} | {r['measured_bubble']:.3f} | "
                    f"{r['wall_ms']:.2f} | {base_ms:.2f} |")
            print(lines[-1], flush=True)
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
