"""The bench models on the Ascend C target: compiled, built against the CPU shim (every check on),
run, and compared with onnxruntime.

    python bench/ascendc_models.py [--models resnet18,bert_encoder] [--fp16 mlp_b1,bert_encoder] [--markdown]

Per model of ``speed_models()`` (bench/models.py: torch-exported, random weights): ``ge_mlir.compile``
with ``target="ascendc"`` (the project is written and built with g++ against the shim), one run on the
shim, and onnxruntime on the same inputs. Printed: compile time (ge-mlir stages plus the g++ build), the
shim run time (a CPU emulation: no device speed), the kernels emitted and launched, the cost model's device-time
estimate and its largest kernel (a roofline model with assumed rates, see ge_mlir/target/ascendc/cost.py and socs.py),
and the error relative to the output's largest magnitude: ``max|ge - ort| / max|ort|``.

Tolerances (the issue's): fp32 1e-4. ``--fp16 NAMES`` also runs those models converted to float16
(onnxconverter-common, inputs and outputs kept fp32) against the fp32 onnxruntime result, tolerance
1e-2 (fp16 has an 11-bit significand; errors grow with the reduction length).
This is a benchmark, not a test: it takes about 6 minutes (each kernel source is a g++ build).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.frontend.torch import export_onnx  # noqa: E402
from models import speed_models  # noqa: E402
from tables import print_table  # noqa: E402

TOLERANCE = {"fp32": 1e-4, "fp16": 1e-2}


def _fp16(proto):
    """``proto`` computing in float16 with fp32 inputs and outputs (onnxconverter-common). Its
    converter leaves a model's own ``Cast(to=FLOAT)`` nodes (torch's mask casts) at FLOAT while
    typing their outputs FLOAT16; those casts are retargeted to FLOAT16 here."""
    from onnx import TensorProto
    from onnxconverter_common import float16

    model = float16.convert_float_to_float16(proto, keep_io_types=True)
    outputs = {o.name for o in model.graph.output}
    for node in model.graph.node:
        if node.op_type == "Cast" and node.output[0] not in outputs:
            for a in node.attribute:
                if a.name == "to" and a.i == TensorProto.FLOAT:
                    a.i = TensorProto.FLOAT16
    return model


def run_one(name: str, proto, feeds: dict[str, np.ndarray], want: list[np.ndarray], precision: str,
            out_dir: Path) -> list[object]:
    t0 = time.perf_counter()
    model = ge_mlir.compile(proto, target="ascendc", output_dir=out_dir / f"{name}-{precision}", cache=False)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    got = model(*feeds.values())
    run_s = time.perf_counter() - t0
    err = max(float(np.abs(g.astype(np.float64) - w).max() / max(np.abs(w).max(), 1e-30))
              for g, w in zip(got, want))
    spent = {k["name"]: k["estimate"]["us"] * k["launches"] for k in model.kernels}   # per launch
    total = sum(spent.values())
    top = max(model.kernels, key=lambda k: spent[k["name"]])
    share = 100 * spent[top["name"]] / max(total, 1e-12)
    ok = "ok" if err <= TOLERANCE[precision] else "FAIL"
    launches = sum(k["launches"] for k in model.kernels)
    return [name, precision, f"{compile_s:.1f}", f"{run_s:.2f}", f"{len(model.kernels)} / {launches}", f"{total:.0f}",
            f"{top['name']} {share:.0f}% ({top['estimate']['bound']})", f"{err:.1e}", ok]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", help="comma-separated subset (default: all)")
    p.add_argument("--fp16", default="mlp_b1,bert_encoder,resnet18",
                   help="comma-separated models also run in float16 ('' for none)")
    p.add_argument("--out-dir", help="where the projects go (default: a temporary directory)")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    import onnxruntime as ort

    wanted = set(args.models.split(",")) if args.models else None
    fp16 = set(filter(None, args.fp16.split(",")))
    out_dir = Path(args.out_dir) if args.out_dir else Path(tempfile.mkdtemp(prefix="ge-ascendc-bench-"))
    rows, failed = [], False
    for name, module, example, names in speed_models():
        if wanted and name not in wanted:
            continue
        proto = export_onnx(module, example, input_names=names)
        feeds = {n: a.numpy() for n, a in zip(names, example)}
        want = [w.astype(np.float64) for w in ort.InferenceSession(proto.SerializeToString()).run(None, feeds)]
        for precision in ["fp32"] + (["fp16"] if name in fp16 else []):
            try:
                row = run_one(name, proto if precision == "fp32" else _fp16(proto), feeds, want, precision, out_dir)
            except Exception as e:  # a model that does not lower is a row, not the end of the bench
                row = [name, precision, "-", "-", "-", "-", "-", "-", f"FAIL: {type(e).__name__}: {str(e)[:200]}"]
            failed |= row[-1] != "ok"
            rows.append(row)
            print("  ".join(row), file=sys.stderr, flush=True)
    print_table(["model", "dtype", "compile s", "shim run s", "kernels / launches", "device us (model)",
                 "largest kernel (model)", "err (rel. to max abs)", "status"], rows, markdown=args.markdown)
    print(f"projects in {out_dir}; tolerances: fp32 {TOLERANCE['fp32']}, fp16 {TOLERANCE['fp16']} "
          "(relative to the output's largest magnitude)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
