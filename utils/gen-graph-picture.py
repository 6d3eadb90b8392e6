#!/usr/bin/env python3
"""Draw docs/resnet_block.optimized.svg, README's picture of an optimized graph.

The model is the main job's example (examples/make_resnet_block.py: conv+BN+ReLU stem, a
residual block with a strided 1x1 downsample, pooling and a Gemm head), compiled to stage
``optimized`` and exported with ``ge_mlir.export_graph`` (Graphviz renders the DOT).

    python utils/gen-graph-picture.py          # rewrite docs/resnet_block.optimized.svg
    python utils/gen-graph-picture.py -o x.svg # elsewhere

test/python/graph/test_graph_export.py checks that the committed picture shows what the code draws.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "resnet_block.optimized.svg"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-o", dest="output", default=str(OUT))
    args = p.parse_args()
    import ge_mlir

    spec = importlib.util.spec_from_file_location("make_resnet_block", ROOT / "examples" / "make_resnet_block.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    model = ge_mlir.compile(mod.build(), compile_to="optimized", progress=False)
    ge_mlir.export_graph(model, args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
