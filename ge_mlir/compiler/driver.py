"""The staged workflow of :mod:`.engine` in one call: the compile on one process, and
:func:`estimate_memory`.

``ge_mlir.compile``, the public façade above this layer, starts a compile here (:func:`start`),
reads its parallel strategy (:func:`parallel_strategy`) and then either finishes it here
(:func:`compile_started`) or hands it to the parallel driver (:mod:`ge_mlir.parallel.driver`),
which runs this compiler on every rank: the compiler never names the layer that drives it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mlir import ir

from ..config import CompileOptions, coerce_options, pass_module_specs, resolve_options
from ..errors import CompileError
from ..irutils.functions import pick_function
from ..parallel_strategy import ParallelStrategy, parse_strategy
from ..runtime import cache as compile_cache
from ..runtime.model import CompiledModel
from ..runtime.stages import TARGET_STAGES, TARGETS
from .engine import GraphEngine
from .progress import ProgressBar

__all__ = ["compile_started", "estimate_memory", "parallel_strategy", "start"]


def start(target: str, options: CompileOptions | Mapping[str, Any] | None, compile_to: str | None, *,
          on_stage: Callable[[str, float], None] | None = None, dump_graph: Any = None) -> tuple[GraphEngine, str]:
    """Checks ``target`` and ``compile_to`` and loads the configuration: the engine of one compile
    and the stage it stops after (default: the target's last)."""
    if target not in TARGETS:
        raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
    stages = TARGET_STAGES[target]
    compile_to = compile_to or stages[-1]
    if compile_to not in stages:
        raise CompileError(f"unknown stage {compile_to!r} for compile_to on {target} "
                           f"(stages: {', '.join(stages)})")
    return GraphEngine(options, target=target, on_stage=on_stage, dump_graph=dump_graph), compile_to


def parallel_strategy(engine: GraphEngine, parallel: Any = None) -> ParallelStrategy:
    """The compile's parallel strategy: ``parallel``, else the configuration's ``ge.exec.parallel``."""
    return parse_strategy(parallel if parallel is not None else (engine.config.parallel or None))


def compile_started(engine: GraphEngine, model: Any, compile_to: str, *, example_inputs: Sequence[Any] | None = None,
                    progress: bool | None = None, output_dir: str | Path | None = None, run_on: str = "cpu-shim",
                    dump_graph: Any = None, cache: bool | None = None) -> CompiledModel:
    """Loads, optimizes and compiles ``model`` on this process with an engine from :func:`start`
    (the arguments are ``ge_mlir.compile``'s), through the compile cache when it applies."""
    target = engine.target
    engine._check_target(target, output_dir, run_on)
    cache_key = _cache_key(engine, model, target, compile_to, dump_graph, cache)
    if cache_key is not None:
        hit = compile_cache.lookup(cache_key)
        if hit is not None:
            return hit
    # The staged workflow in one call: the same stages GraphEngine offers one by one, on one
    # module rewritten in place (no copies between stages) under one progress bar.
    engine._bar = ProgressBar(TARGET_STAGES[target].index(compile_to) + 1, progress)
    try:
        graph = engine.load(model, example_inputs)
        if compile_to == "ge":
            return engine.compile(graph, target, compile_to="ge", output_dir=output_dir, run_on=run_on,
                                  _in_place=True)
        graph = engine.optimize(graph, target=target, _in_place=True)
        compiled = engine.compile(graph, target, compile_to=compile_to, output_dir=output_dir, run_on=run_on,
                                  _in_place=True)
    finally:
        engine._bar.close()
        engine._bar = None
    if cache_key is not None:
        compile_cache.store(cache_key, compiled)
    return compiled


def _cache_key(engine: GraphEngine, model: Any, target: str, compile_to: str, dump_graph: Any,
               cache: bool | None) -> str | None:
    """The compile cache key of this compile, or None when it is not looked up (see :mod:`ge_mlir.runtime.cache`)."""
    if not compile_cache.enabled(cache) or target != "cpu" or compile_to != TARGET_STAGES[target][-1]:
        return None
    if engine.options.profile or engine._dumper is not None or pass_module_specs(engine.config):
        return None
    return compile_cache.key(model, target, engine.options, engine.config)


def estimate_memory(
    model: Any,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    *,
    options: CompileOptions | Mapping[str, Any] | None = None,
    example_inputs: Sequence[Any] | None = None,
    in_place: bool = True,
) -> Any:
    """Estimates the CPU memory of ``model`` on its ge graph, without lowering it.

    ``model`` is anything :func:`ge_mlir.compile` takes; it is imported and optimized the way
    ``compile`` does up to stage ``optimized`` (``options``: a :class:`CompileOptions` or a
    dict of its fields; ``input_shapes`` fixes ONNX input dimensions, like the option of that
    name), then :func:`ge_mlir.memory.estimate.estimate_function` reads the graph: weights,
    activation peak, lowering workspace, the program point of the peak and the largest
    tensors (docs/memory.md, "Estimation before compile"). ``in_place`` models the in-place
    reuse of dying elementwise inputs. The planner strategy is the options' (or the config's)
    ``memory_reuse_strategy``, else ``aggressive``, as the compile would plan.

    Returns a :class:`~ge_mlir.memory.estimate.MemoryEstimate` (``print`` it for a table,
    ``.to_json()``); its ``import_seconds`` is the import and optimization time, ``seconds``
    the estimate's own. Raises the errors :func:`ge_mlir.compile` raises for the same model and options.
    """
    from ..memory.estimate import estimate_function

    options = resolve_options(options)
    if input_shapes is not None:
        if options.input_shapes is not None and dict(options.input_shapes) != dict(input_shapes):
            raise CompileError("input_shapes given both as an argument and in options, differently")
        options = dataclasses.replace(options, input_shapes=input_shapes)
    if not isinstance(in_place, bool):
        raise CompileError(f"in_place must be True or False, got {in_place!r}")
    engine = GraphEngine(options, target="cpu")
    t0 = time.perf_counter()
    graph = engine.optimize(engine.load(model, example_inputs), _in_place=True)
    import_seconds = time.perf_counter() - t0
    with graph._context, ir.Location.unknown():
        fn = pick_function(graph._module, graph.func_name)
        estimate = estimate_function(fn, in_place=in_place,
                                     strategy=engine.options.memory_reuse_strategy or "aggressive",
                                     fuse_elementwise=engine.options.fuse_elementwise,
                                     winograd=engine.options.winograd)
    estimate.import_seconds = import_seconds
    return estimate
