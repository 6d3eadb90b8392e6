"""The small public Python API: parse, verify, run pipelines."""

from __future__ import annotations

import re
from pathlib import Path

from mlir import ir

from .errors import Diagnostic, ParseError, PassFailedError, VerificationError

_VERIFIER_MSG = re.compile(r"^'[\w.]+' op ")


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
    try:
        return ir.Module.parse(text, context=ctx)
    except ir.MLIRError as e:
        raise _classify("cannot parse IR", e, source_name) from None


def parse_file(path: str | Path, context: ir.Context | None = None) -> ir.Module:
    """Parses a ``.mlir`` file (locations carry its path)."""
    ctx = context or ir.Context.current
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
    from .passes import build_pass_manager

    verify(module)
    pm, elements = build_pass_manager(pipeline, module.context, **options)  # type: ignore[arg-type]
    try:
        pm.run(module.operation)
    except ir.MLIRError as e:
        diags = [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
        raise PassFailedError(f"pipeline {pipeline!r} failed", diagnostics=diags) from None
    finally:
        del pm
    return module
