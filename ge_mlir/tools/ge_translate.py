"""ge-translate: translate MLIR out of ge-mlir's dialects.

    ge-translate --ascendc-to-cpp kernels.mlir            # every generated text file on stdout
    ge-translate --ascendc-to-cpp kernels.mlir -o proj/   # write the Ascend C project

On stdout each text file is preceded by a line ``// ----- file: <name>`` (binary files such as
``constants.bin`` are only listed). Exit code 0 on success, 1 on any error (bad IR, an op the emitter
does not support), reported with its location.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from mlir import ir

import ge_mlir  # noqa: F401  (registers the dialects)
from ge_mlir.api import parse_file, parse_module
from ge_mlir.errors import GeMlirError


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="ge-translate", description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="input .mlir file ('-' for stdin)")
    p.add_argument("--ascendc-to-cpp", action="store_true", required=True,
                   help="emit an ascendc module as an Ascend C project")
    p.add_argument("-o", dest="output", metavar="DIR", help="write the project into DIR instead of stdout")
    args = p.parse_args(argv)

    from ge_mlir.target.ascendc.emit import emit_project, write_project

    try:
        with ir.Context():
            if args.input == "-":
                text = sys.stdin.read()
                text.encode("utf-8")  # undecodable bytes read as surrogates: refuse them here
                module = parse_module(text, source_name="<stdin>")
            else:
                # parse_file so that locations (and so error messages) carry the file name.
                module = parse_file(args.input)
            if args.output:
                write_project(module, args.output)
                return 0
            files = emit_project(module)
    except GeMlirError as e:
        print(f"ge-translate: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"ge-translate: {e}", file=sys.stderr)
        return 1
    except UnicodeError as e:
        source = "<stdin>" if args.input == "-" else args.input
        print(f"ge-translate: error: {source} is not UTF-8 text: {e}", file=sys.stderr)
        return 1
    out = sys.stdout
    for name, content in files.items():
        if isinstance(content, bytes):
            out.write(f"// ----- file: {name} ({len(content)} bytes, binary)\n")
        else:
            out.write(f"// ----- file: {name}\n")
            out.write(content)
    return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
