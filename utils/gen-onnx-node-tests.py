#!/usr/bin/env python3
"""Materializes the ONNX backend node test cases (model.onnx + test_data_set_0/*.pb).

The onnx wheel ships the node test generators but not their data; this writes
every case with onnx.backend.test.cmd_tools.generate_data's writer into
build/onnx-node-tests/onnx-<version>/node (or --cache-dir), reused while
complete. test/python/onnx_backend/test_onnx_node_suite.py calls the same code
on first use, so running this is optional.

    utils/gen-onnx-node-tests.py [--cache-dir DIR] [--force]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "python" / "onnx_backend"))
import onnx_node_suite as suite  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache-dir", type=Path, default=None, help="cache root (default: build/onnx-node-tests)")
    ap.add_argument("--force", action="store_true", help="regenerate even if the cache is complete")
    args = ap.parse_args()
    start = time.perf_counter()
    node_dir = suite.ensure_data(args.cache_dir, force=args.force, log=print)
    print(f"{len(suite.list_cases(node_dir))} cases in {node_dir} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
