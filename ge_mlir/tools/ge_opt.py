"""ge-opt: the ge-mlir counterpart of mlir-opt.

    ge-opt input.mlir --pass-pipeline='builtin.module(ge-canonicalize, func.func(cse))'
    ge-opt input.mlir --ge-verify-graph --canonicalize -o out.mlir
    ge-opt --split-input-file --verify-diagnostics invalid.mlir
    ge-opt --print-default-pipeline=cpu --config ge.json   # the default pipeline, as text
    ge-opt input.mlir --pass-pipeline="$(ge-opt --print-default-pipeline)" --ge-pass-report

Exit code 0 on success, 1 on any failure (bad IR, unknown pass, bad option,
failed pass, unmet diagnostics expectations). Never an abort: input is parsed
and verified before passes run, and every error is reported with its location.
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
import traceback
from typing import Sequence

from mlir import ir

import ge_mlir
from ge_mlir.api import check_shape_literals
from ge_mlir.errors import GeMlirError, ParseError, file_line_col
from ge_mlir._dialect import set_print_op_on_diagnostic
from ge_mlir.config import load_config, load_pass_modules
from ge_mlir.passes import build_pass_manager, list_passes, parse_pipeline
from ge_mlir.passes.report import PassReport, instrument
from ge_mlir.passes.registry import STAGES
from ge_mlir.tools import diagnostics as dv

_SPLIT_RE = re.compile(r"^// -----[ \t]*$", re.M)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # mlir-opt exits 1 on command-line errors; keep the same contract.
        self.print_usage(sys.stderr)
        print(f"ge-opt: error: {message}", file=sys.stderr)
        sys.exit(1)

    def format_help(self) -> str:
        # The pass list needs every built-in pass module: built only when help is shown.
        if self.epilog and self.epilog.endswith(_PASS_LIST_MARK):
            self.epilog = self.epilog[: -len(_PASS_LIST_MARK)] + _format_list()
        return super().format_help()


_PASS_LIST_MARK = "<pass list>"


def _make_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="ge-opt",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="ge-mlir optimizer driver (mlir-opt for the ge dialect). "
        "Passes: ge Python passes and any upstream MLIR pass, by name.",
        epilog="Extra flags of the form --<pass>[=<options>] append that pass to the pipeline, "
        "as in mlir-opt.\n\n" + _PASS_LIST_MARK,
    )
    p.add_argument("input", nargs="?", default="-", help="input file ('-' or omitted: stdin)")
    p.add_argument("-o", dest="output", default="-", help="output file (default stdout)")
    p.add_argument("--pass-pipeline", "-p", dest="pipeline", default=None,
                   help="textual pipeline, e.g. 'builtin.module(ge-canonicalize, func.func(cse))'")
    p.add_argument("--split-input-file", action="store_true", help="split the input at '// -----' lines")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against // expected-error {{...}} annotations")
    p.add_argument("--mlir-print-ir-after-all", action="store_true")
    p.add_argument("--mlir-print-ir-before-all", action="store_true")
    p.add_argument("--mlir-print-ir-tree-dir", default=None, help="write the IR after each pass into a directory tree")
    p.add_argument("--mlir-timing", action="store_true", help="report pass execution times")
    p.add_argument("--mlir-pass-statistics", action="store_true", help="report ge pass statistics")
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print ops in generic form")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--no-verify-each", dest="verify_each", action="store_false",
                   help="do not verify the IR after each pass")
    p.add_argument("--list-passes", action="store_true", help="list the registered ge passes and exit")
    p.add_argument("--print-default-pipeline", nargs="?", const="cpu", default=None, metavar="TARGET",
                   help="print the default optimization pipeline of TARGET (default cpu) under --config "
                        "as a textual pipeline and exit")
    p.add_argument("--config", default=None, metavar="FILE.json",
                   help="ge-mlir JSON config (docs/config.md): --print-default-pipeline, passModules")
    p.add_argument("--ge-pass-report", action="store_true",
                   help="report per pass: time, op counts before/after, rewrites (on stderr)")
    p.add_argument("--version", action="store_true", help="print versions and exit")
    return p


def _format_list() -> str:
    out = ["ge passes (stage order; upstream MLIR passes are accepted by name too):"]
    for stage in STAGES:
        passes = list_passes(stage)
        if passes:
            out.append(f" stage {stage}:")
            out += [cls.describe() for cls in passes]
    return "\n".join(out)


def _extra_pipeline(extra: list[str]) -> list[str]:
    """--ge-canonicalize=cse=false --cse  ->  ['ge-canonicalize{cse=false}', 'cse']"""
    elements = []
    for flag in extra:
        if not flag.startswith("--") or flag == "--":
            raise GeMlirError(f"unexpected argument {flag!r}")
        name, _, opts = flag[2:].partition("=")
        if opts.startswith("{") and opts.endswith("}"):
            opts = opts[1:-1]
        elements.append(f"{name}{{{opts}}}" if opts else name)
    return elements


def _line_col(loc: ir.Location) -> tuple[int | None, int | None]:
    flc = file_line_col(loc)
    return (flc[1], flc[2]) if flc else (None, None)


class _Chunk:
    def __init__(self, text: str, offset: int, path: str | None = None) -> None:
        self.text = text
        self.offset = offset  # lines before this chunk in the file
        self.path = path


def _split(text: str, split: bool, path: str | None) -> list[_Chunk]:
    if not split:
        return [_Chunk(text, 0, path)]
    chunks, offset = [], 0
    for part in _SPLIT_RE.split(text):
        chunks.append(_Chunk(part, offset))
        offset += part.count("\n")
    return chunks


def _process_chunk(chunk: _Chunk, args: argparse.Namespace, pipeline: list[str], filename: str,
                   out_parts: list[str], err) -> bool:
    """Runs one chunk; returns success. Diagnostics go to `err` or the verifier."""
    produced: list[dv.Produced] = []
    ok = True
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        if args.verify_diagnostics:
            set_print_op_on_diagnostic(ctx, False)

        def record(kind: str, loc: ir.Location, message: str) -> None:
            line, col = _line_col(loc)
            produced.append(dv.Produced(kind, line, message, col))

        def on_diag(d) -> bool:
            record(str(d.severity).rsplit(".", 1)[-1].lower(), d.location, str(d.message))
            for n in d.notes:
                record("note", n.location, str(n.message))
            return True

        handler = ctx.attach_diagnostic_handler(on_diag)
        try:
            module = None
            try:
                check_shape_literals(chunk.text, filename)
                # A whole file parses from disk so locations name it (as mlir-opt's do).
                if chunk.path is not None:
                    module = ir.Module.parseFile(chunk.path)
                else:
                    module = ir.Module.parse(chunk.text)
            except ir.MLIRError as e:
                ok = False
                for d in e.error_diagnostics:
                    on_diag(d)
            except ParseError as e:
                ok = False
                for d in e.diagnostics:
                    line = int(d.location.rsplit(":", 2)[1])
                    produced.append(dv.Produced("error", line, d.message, int(d.location.rsplit(":", 1)[1])))
            if module is not None and pipeline and "shard-partition" in ",".join(pipeline):
                # Upstream asserts (ending the process) on a split the grid does not divide.
                from ge_mlir.errors import PassFailure
                from ge_mlir.partition.sharding import check_even_splits

                try:
                    check_even_splits(module.operation)
                except PassFailure as e:
                    ok = False
                    loc = e.at.location if e.at is not None else module.operation.location
                    record("error", loc, e.message)
                    module = None
            if module is not None and pipeline:
                report = PassReport()
                planned = parse_pipeline(",".join(pipeline))
                if args.ge_pass_report:
                    planned = instrument(planned, report)
                pm, elements = build_pass_manager(
                    planned,
                    ctx,
                    print_ir_before_all=args.mlir_print_ir_before_all,
                    print_ir_after_all=args.mlir_print_ir_after_all,
                    print_ir_tree_dir=args.mlir_print_ir_tree_dir,
                    print_generic=args.mlir_print_op_generic,
                    print_debuginfo=args.mlir_print_debuginfo,
                    timing=args.mlir_timing,
                    verify_each=args.verify_each,
                )
                try:
                    pm.run(module.operation)
                except ir.MLIRError as e:
                    ok = False
                    for d in e.error_diagnostics:
                        on_diag(d)
                finally:
                    del pm
                    gc.collect()  # timing is reported when the PassManager dies
                if args.ge_pass_report:
                    err.write(report.format())
                if args.mlir_pass_statistics:
                    for el in elements:
                        if el.ge_pass is not None and el.ge_pass.statistics:
                            stats = ", ".join(f"{k}={v}" for k, v in sorted(el.ge_pass.statistics.items()))
                            print(f"{el.ge_pass.name}: {stats}", file=err)
            if module is not None and ok:
                out_parts.append(
                    module.operation.get_asm(
                        print_generic_op_form=args.mlir_print_op_generic,
                        enable_debug_info=args.mlir_print_debuginfo,
                        assume_verified=False,
                    )
                )
        finally:
            handler.detach()

    if args.verify_diagnostics:
        expectations, malformed = dv.parse_expectations(chunk.text)
        failures = malformed + dv.check(expectations, produced, chunk.offset, filename)
        for f in failures:
            print(f"error: {f}", file=err)
        return not failures
    for p in produced:
        line = f"{filename}:{p.line + chunk.offset}:{p.col}" if p.line else filename
        print(f"{line}: {p.kind}: {p.message}", file=err)
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = _make_parser()
    args, extra = parser.parse_known_args(argv)
    err = sys.stderr
    try:
        if args.version:
            print(f"ge-opt {ge_mlir.__version__}, native {ge_mlir.native_version()}")
            return 0
        config = load_config(args.config)
        load_pass_modules(config)  # $GE_MLIR_PASS_MODULES and the config's passModules
        if args.print_default_pipeline is not None:
            from ge_mlir.optimize.default_pipeline import default_pipeline

            print(default_pipeline(args.print_default_pipeline, config, load_modules=False).text)
            return 0
        if args.list_passes:
            print(_format_list())
            return 0
        pipeline: list[str] = []
        if args.pipeline:
            pipeline.append(args.pipeline.strip())
        pipeline += _extra_pipeline(extra)
        if pipeline:
            # Validate names and options before reading any input.
            for text in pipeline:
                parse_pipeline(text)
            pipeline = [",".join(e.text for e in parse_pipeline(t)) for t in pipeline]
            pipeline = [p for p in pipeline if p]
        if args.input == "-":
            text, filename = sys.stdin.read(), "<stdin>"
        else:
            try:
                with open(args.input, encoding="utf-8") as f:
                    text, filename = f.read(), args.input
            except OSError as e:
                raise GeMlirError(f"cannot read input file: {e}") from None
        out_parts: list[str] = []
        ok = True
        path = None if args.input == "-" else args.input
        for chunk in _split(text, args.split_input_file, path):
            ok &= _process_chunk(chunk, args, pipeline, filename, out_parts, err)
        output = "// -----\n".join(out_parts)
        if args.output == "-":
            sys.stdout.write(output)
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(output)
        return 0 if ok else 1
    except GeMlirError as e:
        print(f"ge-opt: error: {e}", file=err)
        return 1
    except Exception as e:  # never a raw traceback-and-abort for users
        print(f"ge-opt: internal error: {type(e).__name__}: {e}", file=err)
        traceback.print_exc(file=err)
        return 1


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
