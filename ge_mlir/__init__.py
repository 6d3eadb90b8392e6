"""ge-mlir: an open graph engine on MLIR.

Importing :mod:`ge_mlir` loads the ``ge`` dialect library once per process and
registers it in MLIR's global dialect registry, so every ``mlir.ir.Context``
created afterwards knows (and loads) the ``ge`` dialect.

Public API (small on purpose):

* :func:`compile` -- an ONNX/torch model or ge IR to a callable
  :class:`CompiledModel` (CPU by default), stage by stage;
* :class:`GraphEngine` -- the same stages one by one, GE style: ``load`` ->
  ``optimize`` -> ``partition`` -> ``compile`` -> ``execute`` (:class:`StagedGraph` between them);
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

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from .config import CompileOptions
    from .runtime.model import CompiledModel

# The compiler driver (front ends, optimizer, targets) loads on first use, so
# that tools which only parse IR and run passes (ge-opt) do not pay for it.
_LAZY = {"CompileOptions": "config", "STAGES": "runtime.stages", "CompiledModel": "runtime.model", "IOSpec": "runtime.model",
         "GraphEngine": "compiler", "StagedGraph": "compiler",
         "ConfigError": "config", "estimate_memory": "compiler", "MemoryEstimate": "memory.estimate",
         "export_graph": "graph.export", "load": "runtime.model",
         "profile": "profiler", "ProfileReport": "profiler"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def compile(  # the natural name, as in torch.compile
    model: Any,
    target: str = "cpu",
    options: CompileOptions | Mapping[str, Any] | None = None,
    *,
    compile_to: str | None = None,
    example_inputs: Sequence[Any] | None = None,
    progress: bool | None = None,
    on_stage: Callable[[str, float], None] | None = None,
    output_dir: str | Path | None = None,
    run_on: str = "cpu-shim",
    dump_graph: Any = None,
    cache: bool | None = None,
    parallel: Any = None,
) -> CompiledModel:
    """Compiles ``model`` for ``target``.

    Args:
        model: an ONNX model (path, bytes or ``onnx.ModelProto``), ge IR (text,
            a ``.mlir`` path or an ``mlir.ir.Module``, copied, not changed),
            or a ``torch.nn.Module`` (with ``example_inputs``).
        target: ``"cpu"`` (the embedded JIT) or ``"ascendc"`` (an Ascend C
            project: kernels, tiling header, host code, CMake).
        options: a :class:`CompileOptions` or a dict of its fields.
        compile_to: stop after this stage (``ge_mlir.runtime.stages.TARGET_STAGES``;
            default: the target's last); the result then only offers
            :meth:`CompiledModel.ir`.
        example_inputs: example tensors of a torch module.
        progress: show a progress bar on stderr once compiling passes 1 s
            (default: when stderr is a terminal).
        on_stage: called with (stage, seconds) after each stage.
        output_dir: ``ascendc``: where the project is written (default: a
            new temporary directory).
        run_on: ``ascendc``: ``"cpu-shim"`` builds the project with g++
            against the shim so the model can be called; ``"none"`` only
            writes it; ``"npu"`` builds it with the CANN toolkit
            (``ASCEND_HOME_PATH``) and fails plainly when CANN is missing.
        dump_graph: write the graph of stages ``ge`` and ``optimized`` (DOT and JSON) into
            this directory, or a :class:`ge_mlir.graph.GraphDumper` choosing stages and
            formats; default: what ``GE_MLIR_DUMP_GRAPH`` asks for (docs/graphs.md).
        cache: look the compile up in the compile cache and store it there
            (:mod:`ge_mlir.runtime.cache`: ``cpu`` compiles of ONNX or ge IR to the last stage; a
            hit loads the saved native code and has :attr:`CompiledModel.loaded_from` set).
            Default: on unless ``GE_MLIR_CACHE=0``.
        parallel: a parallel strategy (dict, JSON path or text; docs/parallel.md), else the
            config's ``ge.exec.parallel``. With more than one rank, every rank of an MPI job
            (``ge-run --np N``, ``mpiexec -n N``) calls ``compile`` and gets a
            :class:`ge_mlir.parallel.runtime.ParallelCompiledModel` running its part; calling it
            returns the full outputs on rank 0 and ``None`` on the other ranks.

    Raises:
        CompileError: unknown target/stage/options, an unsupported model form.
        ImportError_ subclasses: the front end refused the model.
        VerificationError, ExecutionError: invalid IR, a lowering failure
            (naming the op), a JIT failure.
    """
    # Here, at the top, because the choice is between two layers: the compiler (one process)
    # and the parallel driver (MPI ranks) that runs the compiler on each rank.
    from .compiler import driver

    engine, compile_to = driver.start(target, options, compile_to, on_stage=on_stage, dump_graph=dump_graph)
    strategy = driver.parallel_strategy(engine, parallel)
    if strategy.is_parallel:
        from .parallel.driver import compile_parallel
        from .runtime.stages import TARGET_STAGES

        if compile_to != TARGET_STAGES[target][-1]:
            raise CompileError("a parallel compile runs to the last stage (compile_to is not supported)")
        return compile_parallel(model, strategy, engine.options, target=target, example_inputs=example_inputs)
    return driver.compile_started(engine, model, compile_to, example_inputs=example_inputs, progress=progress,
                                  output_dir=output_dir, run_on=run_on, dump_graph=dump_graph, cache=cache)


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
    "GraphEngine",
    "StagedGraph",
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
