"""Graph size after the default optimization pipeline, next to onnxruntime's.

    python bench/node_counts.py

Per benchmark model (bench/models.py speed_models: with the batch-1 MLP and the LLaMA-style
decoder): ONNX nodes as exported, ge ops after import, ge ops after
the default pipeline (``compile_to="optimized"``; constants not counted), and
the node count of onnxruntime's optimized graph (ORT_ENABLE_ALL, CPU, saved
with ``optimized_model_filepath``).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import onnx  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.frontend.torch import export_onnx  # noqa: E402
from models import speed_models  # noqa: E402


def ge_ops(text: str) -> int:
    return sum(1 for op in re.findall(r"= (ge\.\w+)", text) if op != "ge.constant")


def ort_nodes(proto: onnx.ModelProto) -> int:
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as tmp:
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.optimized_model_filepath = str(Path(tmp) / "opt.onnx")
        ort.InferenceSession(proto.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return len(onnx.load(so.optimized_model_filepath, load_external_data=False).graph.node)


def main() -> int:
    print(f"{'model':<14} {'onnx nodes':>10} {'ge imported':>11} {'ge optimized':>12} {'ort optimized':>13}"
          f"  {'ascendc optimized':>17}  trans_data on ascendc (inserted / avoided / ops in NHWC)")
    for name, module, example, names in speed_models():
        proto = export_onnx(module, example, input_names=names)
        m = ge_mlir.compile(proto, compile_to="optimized", progress=False)
        a = ge_mlir.compile(proto, target="ascendc", compile_to="optimized", progress=False)
        lay = a.pass_report["ge-transform-layout"].stats
        print(f"{name:<14} {len(proto.graph.node):>10} {ge_ops(m.ir('ge')):>11} {ge_ops(m.ir('optimized')):>12} "
              f"{ort_nodes(proto):>13}  {ge_ops(a.ir('optimized')):>17}  {lay.get('trans-data-inserted', 0)} / "
              f"{lay.get('trans-data-avoided', 0)} / {lay.get('ops-converted', 0) + lay.get('ops-propagated', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
