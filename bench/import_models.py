"""Export the benchmark models with torch and time their import into ge.

    python bench/import_models.py

Prints, per model: parameters (MB), export time, import time (median of 3
runs of import_onnx on the exported ModelProto), ge ops in the module, and the
ONNX node count.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlir import ir  # noqa: E402

import ge_mlir  # noqa: E402,F401
from ge_mlir.frontend.onnx import import_onnx  # noqa: E402
from ge_mlir.frontend.torch import export_onnx  # noqa: E402
from models import benchmark_models  # noqa: E402


def main() -> int:
    print(f"{'model':<14} {'params MB':>9} {'export s':>9} {'import s':>9} {'ge ops':>7} {'onnx nodes':>10}")
    for name, module, args, names in benchmark_models():
        params = sum(p.numel() * p.element_size() for p in module.parameters()) / 1e6
        t0 = time.perf_counter()
        proto = export_onnx(module, args, input_names=names)
        export_s = time.perf_counter() - t0
        times, ops = [], 0
        for _ in range(3):
            with ir.Context():
                t0 = time.perf_counter()
                m = import_onnx(proto)
                times.append(time.perf_counter() - t0)
                ops = sum(1 for op in m.body.operations[0].regions[0].blocks[0].operations)
        print(f"{name:<14} {params:>9.1f} {export_s:>9.2f} {statistics.median(times):>9.3f} {ops:>7} {len(proto.graph.node):>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
