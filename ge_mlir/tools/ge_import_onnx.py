"""ge-import-onnx: ONNX model -> ge dialect (.mlir), like iree-import-onnx.

    ge-import-onnx model.onnx -o model.mlir --input-shape x:1,3,224,224
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Sequence

from mlir import ir

from ge_mlir.errors import GeMlirError


def parse_shape(text: str) -> tuple[str, list[int]]:
    name, sep, dims = text.rpartition(":")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME:D0,D1,..., got {text!r}")
    try:
        return name, [int(d) for d in dims.split(",") if d.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"dimensions must be integers in {text!r}") from None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"ge-import-onnx: error: {message}", file=sys.stderr)
        sys.exit(1)


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog="ge-import-onnx", description="Import an ONNX model into the ge dialect.")
    p.add_argument("model", help="model.onnx (external data is read from beside it)")
    p.add_argument("-o", dest="output", default="-", help="output .mlir (default stdout)")
    p.add_argument("--input-shape", action="append", type=parse_shape, default=[],
                   metavar="NAME:D0,D1,...", help="fix an input's shape (repeatable)")
    p.add_argument("--resource-threshold", type=int, default=None,
                   help="constants with more elements become dense_resource blobs")
    p.add_argument("--elide-resources", action="store_true",
                   help="print resource blobs elided (the output is then for reading, not re-parsing)")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print node-name locations")
    p.add_argument("--stats", action="store_true", help="print import statistics to stderr")
    args = p.parse_args(argv)
    try:
        from ge_mlir.frontend.onnx import import_onnx
        from ge_mlir.frontend.onnx.importer import DEFAULT_RESOURCE_THRESHOLD

        start = time.perf_counter()
        with ir.Context():
            module = import_onnx(
                args.model,
                input_shapes=dict(args.input_shape),
                resource_threshold=args.resource_threshold if args.resource_threshold is not None else DEFAULT_RESOURCE_THRESHOLD,
            )
            elapsed = time.perf_counter() - start
            text = module.operation.get_asm(
                enable_debug_info=args.mlir_print_debuginfo,
                large_resource_limit=16 if args.elide_resources else None,
            )
        if args.output == "-":
            sys.stdout.write(text)
            sys.stdout.flush()  # a closed pipe surfaces here, inside the handler
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        if args.stats:
            print(f"ge-import-onnx: imported {args.model} in {elapsed:.3f} s", file=sys.stderr)
        return 0
    except BrokenPipeError:
        # The reader went away (`ge-import-onnx m.onnx | head`): stop quietly.
        # Point stdout at devnull so the interpreter's final flush does not
        # raise again (the recipe of the Python docs, "Note on SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except GeMlirError as e:
        print(f"ge-import-onnx: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # report, never a bare traceback-abort
        import traceback

        print(f"ge-import-onnx: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        traceback.print_exc()
        return 1


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
