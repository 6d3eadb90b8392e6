"""The small public Python API: parse, verify, run pipelines."""

from __future__ import annotations

import re
from pathlib import Path

from mlir import ir

from .errors import Diagnostic, ParseError, PassFailedError, VerificationError

_VERIFIER_MSG = re.compile(r"^'[\w.]+' op ")
_SHAPED_LITERAL = re.compile(r"\b(?:tensor|memref|vector)<((?:(?:\d+|\?)x)+)")
_INT64_MAX = 2**63 - 1


_DENSE_ARRAY = re.compile(r"\barray<\s*([^:>\s]+)\s*[:>]")
_DENSE_ARRAY_TYPES = {"i1", "i8", "i16", "i32", "i64", "f32", "f64"}


def _loc(text: str, pos: int, source: str) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"{source}:{line}:{col}"


def check_shape_literals(text: str, source: str = "<string>") -> None:
    """Rejects the textual inputs on which MLIR 22's parser asserts.

    With assertions enabled (as in the xtc wheels) MLIR aborts the process on
    e.g. ``dense<1.0> : tensor<4611686018427387904x2xf32>`` (element count
    overflow) or ``array<index: 1>`` (dense array of a non-int/float type).
    Found by fuzzing (test/python/tools/test_robustness.py); this check runs first.
    """
    # Comments are blanked (same length, so positions stay right).
    text = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)
    for m in _DENSE_ARRAY.finditer(text):
        if m.group(1) not in _DENSE_ARRAY_TYPES:
            raise ParseError(
                f"{source}: unsupported dense array element type",
                diagnostics=[Diagnostic("error", _loc(text, m.start(), source),
                                        f"dense array element type must be one of i1, i8, i16, i32, i64, f32, f64, got '{m.group(1)}'")],
            )
    for m in _SHAPED_LITERAL.finditer(text):
        count = 1
        for dim in m.group(1).split("x"):
            if dim and dim != "?":
                count *= int(dim)
        if count > _INT64_MAX:
            loc = _loc(text, m.start(), source)
            raise ParseError(
                f"{source}: shaped type with more than 2^63-1 elements",
                diagnostics=[Diagnostic("error", loc, f"element count of '{m.group(0)}...' overflows int64")],
            )


def Context() -> ir.Context:
    """A new MLIR context with the ge dialect (and all upstream dialects) loaded."""
    return ir.Context()


def _classify(message: str, err: Exception, source: str) -> Exception:
    diags = [Diagnostic.from_mlir(d) for d in getattr(err, "error_diagnostics", [])]
    if diags and all(_VERIFIER_MSG.match(d.message) for d in diags):
        return VerificationError(f"{source}: IR failed verification", diagnostics=diags)
    if not diags:
        diags = [Diagnostic("error", source, str(err).strip())]
    return ParseError(f"{source}: {message}", diagnostics=diags)


def parse_module(text: str, context: ir.Context | None = None, *, source_name: str = "<string>") -> ir.Module:
    """Parses and verifies IR text.

    Raises:
        ParseError: the text is not valid IR syntax or uses unknown ops/types.
        VerificationError: it parses but an op verifier rejects it.
    """
    ctx = context or ir.Context.current
    check_shape_literals(text, source_name)
    try:
        return ir.Module.parse(text, context=ctx)
    except ir.MLIRError as e:
        raise _classify("cannot parse IR", e, source_name) from None


def parse_file(path: str | Path, context: ir.Context | None = None) -> ir.Module:
    """Parses a ``.mlir`` file (locations carry its path)."""
    ctx = context or ir.Context.current
    check_shape_literals(Path(path).read_text(), str(path))
    try:
        return ir.Module.parseFile(str(path), context=ctx)
    except ir.MLIRError as e:
        raise _classify("cannot parse IR", e, str(path)) from None


def verify(module: ir.Module | ir.Operation) -> None:
    """Runs all op verifiers; raises VerificationError with every diagnostic."""
    op = module.operation if isinstance(module, ir.Module) else module
    try:
        op.verify()
    except ir.MLIRError as e:
        diags = [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
        raise VerificationError("IR failed verification", diagnostics=diags) from None


def run_pipeline(module: ir.Module, pipeline: str, **options: object) -> ir.Module:
    """Verifies ``module``, then runs ``pipeline`` on it in place.

    ``pipeline`` mixes ge passes and upstream passes, e.g.
    ``"builtin.module(ge-canonicalize, func.func(cse))"``. Keyword options are
    those of :func:`ge_mlir.passes.build_pass_manager` (IR printing, timing).

    Raises:
        VerificationError: the input IR is invalid (checked first: some MLIR
            passes abort on unverified IR).
        UnknownPassError / PassOptionError / PassPipelineError: bad pipeline.
        PassFailedError: a pass failed; diagnostics say where and why.
    """
    from .passes.pipeline import run_elements

    verify(module)
    run_elements(module, pipeline, **options)
    return module
