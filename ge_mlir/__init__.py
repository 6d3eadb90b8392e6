"""ge-mlir: an open graph engine on MLIR.

Importing :mod:`ge_mlir` loads the ``ge`` dialect library once per process and
registers it in MLIR's global dialect registry, so every ``mlir.ir.Context``
created afterwards knows (and loads) the ``ge`` dialect.

Public API (small on purpose):

* :func:`compile` -- an ONNX/torch model or ge IR to a callable
  :class:`CompiledModel` (CPU by default), stage by stage;
* :class:`GraphEngine` -- the same stages one by one, GE style: ``load`` ->
  ``optimize`` -> ``partition`` -> ``compile`` -> ``execute`` (:class:`Graph` between them);
* :func:`load` -- a compiled model saved with ``CompiledModel.save`` (a ``.gem`` offline
  artefact), ready to run without compiling again;
* :func:`estimate_memory` -- its memory (weights, activation peak, workspace)
  estimated on the optimized ge graph, without lowering;
* :func:`profile` -- latency, throughput, per-ONNX-node self time measured in the
  compiled code, peak memory (a :class:`ProfileReport`: table, JSON, Perfetto trace);
* :func:`export_graph` -- a module or a compile stage as DOT, SVG, JSON or ONNX
  (docs/graphs.md);
* :func:`parse_module` / :func:`verify` -- text to verified IR, errors as
  :class:`GeMlirError` subclasses carrying MLIR diagnostics;
* :func:`run_pipeline` -- run a pass pipeline mixing upstream passes and ge
  Python passes by name;
* :mod:`ge_mlir.passes` -- the pass registry (``register_pass``);
* :mod:`ge_mlir.dialects.ge` -- generated op builder classes.
"""

from typing import Any

from ._version import __version__
from .errors import (
    ArtefactError,
    CompileError,
    DialectLoadError,
    Diagnostic,
    ExecutionError,
    GeMlirError,
    GraphEditError,
    GraphExportError,
    InvalidModelError,
    ParseError,
    PassFailedError,
    PassOptionError,
    PassPipelineError,
    UnknownPassError,
    VerificationError,
)
from ._dialect import library_path, load_dialect, register_dialect, native_version
from .api import parse_module, run_pipeline, verify, Context
from .config import CompileOptions

# The compiler driver (front ends, optimizer, targets) loads on first use, so
# that tools which only parse IR and run passes (ge-opt) do not pay for it.
_LAZY = {"STAGES": "compiler", "CompiledModel": "compiler", "IOSpec": "compiler", "compile": "compiler",
         "GraphEngine": "compiler", "Graph": "compiler",
         "ConfigError": "config", "estimate_memory": "compiler", "MemoryEstimate": "memory.estimate",
         "export_graph": "graph.export", "load": "artefact",
         "profile": "profiler", "ProfileReport": "profiler"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "__version__",
    "STAGES",
    "CompileError",
    "ConfigError",
    "CompileOptions",
    "CompiledModel",
    "Context",
    "ExecutionError",
    "IOSpec",
    "compile",
    "estimate_memory",
    "load",
    "ArtefactError",
    "Graph",
    "GraphEngine",
    "export_graph",
    "GraphEditError",
    "GraphExportError",
    "MemoryEstimate",
    "profile",
    "ProfileReport",
    "DialectLoadError",
    "Diagnostic",
    "GeMlirError",
    "InvalidModelError",
    "ParseError",
    "PassFailedError",
    "PassOptionError",
    "PassPipelineError",
    "UnknownPassError",
    "VerificationError",
    "library_path",
    "load_dialect",
    "native_version",
    "parse_module",
    "register_dialect",
    "run_pipeline",
    "verify",
]
