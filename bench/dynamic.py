"""Dynamic-shape variants of the transformer bench models against onnxruntime, same process.

    python bench/dynamic.py [--runs 20] [--markdown]

The BERT-style encoder and the GPT-2-style decoder of bench/models.py are exported with dynamic
batch and sequence axes and compiled once by ``ge_mlir.compile`` (compile cache off). At each
(batch, sequence) shape: that one artefact, a static compile of the same model for that shape
(``input_shapes``), and onnxruntime on the dynamic model (ORT_ENABLE_ALL, 1 thread), one call of
each in turn after warm-up calls; medians, ratios to onnxruntime, and the max error relative to
the output's magnitude. A benchmark, not a test: say the machine when quoting.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.frontend.torch import export_onnx  # noqa: E402
from models import BertEncoder, Gpt2Decoder  # noqa: E402
from run import _interleaved_medians  # noqa: E402
from tables import print_table  # noqa: E402

SHAPES = ((1, 32), (4, 128))


def _models():
    torch.manual_seed(0)
    ids = torch.randint(0, 30522, (1, 16))
    yield "bert_encoder", BertEncoder().eval(), (ids, torch.ones(1, 16, dtype=torch.int64)), \
        ["input_ids", "attention_mask"]
    yield "gpt2_decoder", Gpt2Decoder().eval(), (torch.randint(0, 50257, (1, 16)),), ["input_ids"]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    import onnxruntime as ort

    rows = []
    for name, module, example, names in _models():
        axes = {n: {0: "batch", 1: "seq"} for n in names}
        proto = export_onnx(module, example, input_names=names, dynamic_axes=axes, exporter="torchscript")
        options = {"keep_ir": False, "num_threads": 1}
        t0 = time.perf_counter()
        dyn = ge_mlir.compile(proto, target="cpu", options=options, cache=False, progress=False)
        compile_s = time.perf_counter() - t0
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.intra_op_num_threads = so.inter_op_num_threads = 1
        sess = ort.InferenceSession(proto.SerializeToString(), so, providers=["CPUExecutionProvider"])
        rng = np.random.default_rng(0)
        for batch, seq in SHAPES:
            feeds = {"input_ids": rng.integers(0, 30000, (batch, seq)).astype(np.int64)}
            if "attention_mask" in names:
                feeds["attention_mask"] = np.ones((batch, seq), np.int64)
            static = ge_mlir.compile(proto, target="cpu", cache=False, progress=False,
                                     options={**options, "input_shapes": {n: [batch, seq] for n in names}})
            got, want = dyn(**feeds), sess.run(None, feeds)
            scale = max(float(np.max(np.abs(w))) for w in want)
            err = max(float(np.max(np.abs(g.astype(np.float64) - w))) for g, w in zip(got, want)) / scale
            dyn_ms, static_ms, ort_ms = _interleaved_medians(
                [lambda: dyn(**feeds), lambda: static(**feeds), lambda: sess.run(None, feeds)], args.runs)
            rows.append([name, f"{batch}x{seq}", f"{compile_s:.1f}", f"{dyn_ms:.2f}", f"{static_ms:.2f}",
                         f"{ort_ms:.2f}", f"{dyn_ms / ort_ms:.2f}", f"{static_ms / ort_ms:.2f}", f"{err:.1e}"])
            print(f"{name} {batch}x{seq}: dynamic {dyn_ms:.2f} ms, static {static_ms:.2f} ms, onnxruntime "
                  f"{ort_ms:.2f} ms", file=sys.stderr)
    print_table(["model", "batch x seq", "compile s (dynamic)", "ge-mlir dynamic ms", "ge-mlir static ms",
                 "onnxruntime ms", "ratio dynamic", "ratio static", "rel err"], rows, args.markdown)
    print(f"(1 thread; medians of {args.runs} interleaved runs after 3 warm-up runs; {os.cpu_count()} CPUs; "
          f"JIT CPU {os.environ.get('GE_MLIR_JIT_CPU', 'host')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
