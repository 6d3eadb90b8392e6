"""GE's staged workflow: :class:`GraphEngine` (load -> optimize -> partition -> compile ->
execute) and the :class:`StagedGraph` handed between its stages."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from mlir import ir

from ..api import parse_module, verify
from ..config import CompileOptions, load_pass_modules, resolve_options
from ..errors import CompileError, ExecutionError
from ..irutils.functions import io_names, pick_function, symbol_name
from ..irutils.types import TensorSpec, tensor_spec
from ..parallel_strategy import parse_strategy
from ..passes.report import PassReport, instrument
from ..runtime.model import CompiledModel, IOSpec
from ..runtime.stages import GRAPH_STAGES, TARGET_STAGES, TARGETS
from ..target import get_target
from ..target.base import TargetResult
from .loader import load_graph
from .progress import ProgressBar

__all__ = ["AppliedPass", "GraphEngine", "StageHistory", "StagedGraph"]

#: Defaults of ``compile``'s target-specific keyword arguments.
_TARGET_KWARG_DEFAULTS: dict[str, Any] = {"output_dir": None, "run_on": "cpu-shim"}


@dataclass(frozen=True)
class AppliedPass:
    """A pass the ``optimize`` stage ran: its name, rewrites (None when it does not count them),
    seconds and the ge op counts before and after."""

    name: str
    rewrites: int | None
    seconds: float
    ops_before: int
    ops_after: int


@dataclass
class StageHistory:
    """What the stages a graph went through left: IR text, seconds, op locations per stage."""

    texts: dict[str, str] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
    locations: dict[str, list[str]] = field(default_factory=dict)

    def copy(self) -> StageHistory:
        return StageHistory(dict(self.texts), dict(self.times), dict(self.locations))


def _io_specs(names: Sequence[str], specs: Sequence[Any]) -> list[IOSpec]:
    if not all(isinstance(s, TensorSpec) for s in specs):
        return []  # not runnable: no host specs
    return [IOSpec(n, s.shape, s.dtype) for n, s in zip(names, specs)]


class StagedGraph:
    """A ge graph between stages of a :class:`GraphEngine`: a verified module in its own MLIR
    context, the stage it reached (``ge`` or ``optimized``), its signature and history.

    Stages never change a graph they are given: ``engine.optimize(g)`` returns a new graph.
    """

    def __init__(self, module: ir.Module, context: ir.Context, stage: str, *, func_name: str,
                 history: StageHistory, pass_report: PassReport | None = None, part: tuple[int, int] = (0, 1)) -> None:
        self._module, self._context = module, context
        self.stage = stage
        self.func_name = func_name
        self._history = history
        self._report = pass_report
        #: (index, count) of this graph among its partition's parts.
        self.part = part
        with context:
            fn = pick_function(module, func_name)
            in_names, out_names = io_names(fn)
            ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
            self._names = (in_names, out_names)
            #: Host specs, or why an argument/result has none (a message).
            self._specs = ([tensor_spec(t) for t in ftype.inputs], [tensor_spec(t) for t in ftype.results])
            self._node_count = sum(
                1 for op in fn.regions[0].blocks[0].operations
                if op.operation.name.startswith("ge.") and op.operation.name != "ge.constant"
            )

    @property
    def inputs(self) -> list[IOSpec]:
        """Named inputs with shape and dtype (empty when a type has no host form, e.g. dynamic)."""
        return _io_specs(self._names[0], self._specs[0])

    @property
    def outputs(self) -> list[IOSpec]:
        return _io_specs(self._names[1], self._specs[1])

    @property
    def node_count(self) -> int:
        """ge ops in the function, constants not counted (GE counts nodes the same way)."""
        return self._node_count

    @property
    def applied_passes(self) -> list[AppliedPass]:
        """What ``optimize`` ran on the way to this graph (empty for a loaded graph)."""
        if self._report is None:
            return []
        return [AppliedPass(e.name, e.rewrites, e.seconds, e.ops_before, e.ops_after) for e in self._report.entries]

    @property
    def pass_report(self) -> PassReport:
        return self._report if self._report is not None else PassReport()

    @property
    def text(self) -> str:
        """The graph as ge IR text (``ge-opt`` reads it)."""
        if self.stage in self._history.texts:
            return self._history.texts[self.stage]
        with self._context:
            return str(self._module)

    def export(self, path: str | Path, format: str | None = None) -> Path:
        """Writes the graph: ``mlir`` (ge IR text), or ``dot``/``svg``/``json``/``onnx`` through
        :func:`ge_mlir.export_graph` (docs/graphs.md); the suffix of ``path`` when ``format`` is None."""
        path = Path(path)
        fmt = format or (path.suffix[1:] if path.suffix else "mlir")
        if fmt == "mlir":
            path.write_text(self.text)
            return path
        from ..graph.export import export_graph

        with self._context:
            export_graph(self._module, path, format=fmt)
        return path

    def _copy(self) -> tuple[ir.Module, ir.Context]:
        """The module in a new context (stages rewrite modules in place)."""
        ctx = ir.Context()
        with ctx, ir.Location.unknown():
            with self._context:
                text = self._module.operation.get_asm(enable_debug_info=True)
            return parse_module(text, source_name=f"<{self.stage} graph>"), ctx

    def __repr__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.outputs))
        part = f", part {self.part[0] + 1}/{self.part[1]}" if self.part[1] > 1 else ""
        return f"<StagedGraph @{self.func_name} stage={self.stage}, {self.node_count} nodes{part}: ({ins}) -> ({outs})>"


class GraphEngine:
    """GE's staged workflow on ge-mlir: load -> optimize -> partition -> compile -> execute.

    ::

        engine = ge_mlir.GraphEngine({"config": "ge_options.json"})
        graph = engine.load("model.onnx")            # StagedGraph: node_count, inputs, outputs, export()
        optimized = engine.optimize(graph)           # .applied_passes: what ran, with rewrites
        parts = engine.partition(optimized)          # one part unless parallelism is configured
        models = [engine.compile(p, target="cpu") for p in parts]
        outputs = engine.execute(models, {"x": x})

    ``options`` is a :class:`CompileOptions` or a dict of its fields (its ``config`` may be a GE
    option file). :func:`ge_mlir.compile` runs these same stages in one call.
    """

    def __init__(self, options: CompileOptions | Mapping[str, Any] | None = None, *, target: str = "cpu",
                 on_stage: Callable[[str, float], None] | None = None, dump_graph: Any = None) -> None:
        if target not in TARGETS:
            raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
        self.target = target
        # Resolved once, here (already resolved options pass as they are): every stage reads
        # self.options; config errors surface before any work.
        self.options = resolve_options(options)
        self.config = self.options.config
        self._on_stage = on_stage
        self._dumper = _graph_dumper(dump_graph)
        self._bar: ProgressBar | None = None

    def _check_target(self, target: str, output_dir: Any, run_on: str) -> dict[str, Any]:
        """The target's own keyword arguments, checked (``output_dir``/``run_on`` are ascendc's)."""
        tgt = get_target(target)
        given = {"output_dir": output_dir, "run_on": run_on}
        for key, value in given.items():
            if key not in tgt.target_options and value != _TARGET_KWARG_DEFAULTS[key]:
                raise CompileError(f"{key} is not an option of target {target!r}")
        target_options = {k: given[k] for k in tgt.target_options}
        tgt.check(self.options, target_options)
        return target_options

    # -- stage bookkeeping ------------------------------------------------------
    def _done(self, stage: str, module: ir.Module | str, history: StageHistory, t0: float) -> float:
        if self.options.keep_ir:
            history.texts[stage] = module if isinstance(module, str) else str(module)
        if stage in GRAPH_STAGES and not isinstance(module, str):
            from ..graph.model import op_locations

            history.locations[stage] = op_locations(module)
        now = time.perf_counter()
        history.times[stage] = now - t0
        if self._dumper is not None:  # the dump's time is not the stage's
            self._dumper.stage(stage, module)
            now = time.perf_counter()
        if self._bar is not None:
            self._bar.step(stage)
        if self._on_stage is not None:
            self._on_stage(stage, history.times[stage])
        return now

    # -- stages -------------------------------------------------------------------
    def load(self, model: Any, example_inputs: Sequence[Any] | None = None) -> StagedGraph:
        """Imports ``model`` (anything :func:`ge_mlir.compile` takes) into a verified ge graph."""
        ctx = ir.Context()
        t0 = time.perf_counter()
        history = StageHistory()
        with ctx, ir.Location.unknown():
            module = load_graph(model, self.options, example_inputs, self.config)
            verify(module)
            self._done("ge", module, history, t0)
            try:
                fn = pick_function(module, self.options.func_name)
            except LookupError as e:
                raise CompileError(str(e)) from None
            return StagedGraph(module, ctx, "ge", func_name=symbol_name(fn), history=history)

    def optimize(self, graph: StagedGraph, *, target: str | None = None, _in_place: bool = False) -> StagedGraph:
        """The ge graph optimizations of ``target``'s default pipeline under the engine's config
        (``options.optimize=False``: none) on a copy of ``graph``."""
        target = target or self.target
        if graph.stage != "ge":
            raise CompileError(f"optimize takes a loaded graph (stage 'ge'), got one at stage {graph.stage!r}")
        module, ctx = (graph._module, graph._context) if _in_place else graph._copy()
        report = PassReport()
        history = graph._history if _in_place else graph._history.copy()
        pipeline = None
        if self.options.optimize:
            from ..optimize.default_pipeline import default_pipeline

            load_pass_modules(self.config)
            pipeline = default_pipeline(target, self.config, load_modules=False)
        t0 = time.perf_counter()
        with ctx, ir.Location.unknown():
            if pipeline is not None:
                from ..passes.pipeline import run_elements

                bar = self._bar
                elements = instrument(pipeline.parse(), report,
                                      None if bar is None else (lambda name: bar.working(f"optimize: {name}")))
                if self._dumper is not None:
                    elements = self._dumper.instrument(elements)
                run_elements(module, elements, f"default {target} pipeline {pipeline.text!r}")
            self._done("optimized", module, history, t0)
            return StagedGraph(module, ctx, "optimized", func_name=graph.func_name, history=history, pass_report=report)

    def partition(self, graph: StagedGraph, parallel: Any = None) -> list[StagedGraph]:
        """The graph's parts, one per rank (``parallel``, else the config's ``ge.exec.parallel``;
        docs/parallel.md): each the rank's stage with its weight slices and its communication
        (``shard`` ops), for inspection and export. Without parallelism, one part: the graph.
        Partitioned parts run on MPI ranks through ``ge_mlir.compile(model, parallel=...)``."""
        if graph.stage != "optimized":
            raise CompileError(f"partition takes an optimized graph, got one at stage {graph.stage!r}")
        from ..partition.plan import partition_graph

        strategy = parse_strategy(parallel if parallel is not None else (self.config.parallel or None))
        if not strategy.is_parallel:
            return [graph]
        plan = partition_graph(graph, strategy)
        parts = []
        for rank in range(plan.world_size):
            for stage in plan.coords(rank).stages:
                m = plan.rank_module(rank, stage)
                parts.append(StagedGraph(m, plan.context, "partitioned", func_name=plan.stage_function(stage),
                                         history=graph._history.copy(), part=(rank, plan.world_size)))
        return parts

    def compile(self, graph: StagedGraph, target: str | None = None, *, compile_to: str | None = None,
                output_dir: str | Path | None = None, run_on: str = "cpu-shim", path: str | Path | None = None,
                _in_place: bool = False) -> CompiledModel:
        """Runs ``target``'s stages on (a copy of) ``graph`` and returns the compiled model; with
        ``path``, also saves it there (``CompiledModel.save``: ``ge_mlir.load(path)`` runs it
        again without compiling)."""
        target = target or self.target
        if target not in TARGETS:
            raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
        if graph.stage == "partitioned":
            raise CompileError("a partitioned part holds communication and runs on MPI ranks: compile the model "
                               "with ge_mlir.compile(model, parallel=...) under ge-run/mpiexec (docs/parallel.md)")
        tgt = get_target(target)
        stages = TARGET_STAGES[target]
        compile_to = compile_to or stages[-1]
        if compile_to not in stages:
            raise CompileError(f"unknown stage {compile_to!r} for compile_to on {target} "
                               f"(stages: {', '.join(stages)})")
        if stages.index(compile_to) < stages.index(graph.stage):
            raise CompileError(f"the graph is already at stage {graph.stage!r}, past {compile_to!r}")
        target_options = self._check_target(target, output_dir, run_on)
        module, ctx = (graph._module, graph._context) if _in_place else graph._copy()
        history = graph._history if _in_place else graph._history.copy()
        t0 = time.perf_counter()

        def done(stage: str, m: ir.Module | str) -> None:
            nonlocal t0
            t0 = self._done(stage, m, history, t0)

        estimate = None
        result = TargetResult()
        with ctx, ir.Location.unknown():
            fn = pick_function(module, graph.func_name)
            if self.options.memory_estimation and graph.stage == "optimized":
                from ..memory.estimate import estimate_function

                estimate = estimate_function(fn, strategy=self.options.memory_reuse_strategy or "aggressive",
                                             fuse_elementwise=self.options.fuse_elementwise,
                                             winograd=self.options.winograd)
            if compile_to in tgt.stages:
                result = tgt.compile(module, self.options, func_name=graph.func_name, compile_to=compile_to,
                                     done=done, **target_options)
        history.times.update(result.times)
        in_specs, out_specs = graph._specs
        if result.inputs is not None:
            in_specs, out_specs = result.inputs, result.outputs
        in_names, out_names = graph._names
        runnable = tgt.runnable(compile_to) and result.run is not None
        model = CompiledModel(
            target=target, compile_to=compile_to,
            inputs=_io_specs(in_names, [*in_specs, *out_specs])[:len(in_names)],
            outputs=_io_specs([*in_names, *out_names], [*in_specs, *out_specs])[len(in_names):],
            stage_times=history.times, _ir=history.texts, _run=result.run if runnable else None,
            _not_runnable="" if runnable else tgt.not_runnable_reason(compile_to, result),
            _pass_report=graph._report if graph._report is not None else PassReport(),
            _locations=history.locations, memory_plan=result.memory_plan, memory_estimate=estimate,
            project_dir=result.project_dir, kernels=result.kernels, profiler=result.profiler,
            _executable=result.executable if runnable else None,
        )
        if path is not None:
            model.save(path)
        return model

    def execute(self, models: CompiledModel | Sequence[CompiledModel], inputs: Mapping[str, Any] | Sequence[Any]
                ) -> dict[str, np.ndarray]:
        """Runs the compiled parts in order: the first takes ``inputs`` (by name, or positionally),
        each next one takes the previous one's outputs by name (falling back to the original inputs
        for names it does not produce). Returns the last part's outputs by name."""
        if isinstance(models, CompiledModel):
            models = [models]
        if not models:
            raise ExecutionError("execute needs at least one compiled model")
        first = models[0]
        if not isinstance(inputs, Mapping):
            inputs = dict(zip(first.input_names, inputs))
        values: dict[str, Any] = dict(inputs)
        outs: dict[str, np.ndarray] = {}
        for i, m in enumerate(models):
            missing = [n for n in m.input_names if n not in values]
            if missing:
                raise ExecutionError(f"part {i + 1} of {len(models)} needs input(s) {', '.join(missing)} that "
                                     f"neither the caller nor an earlier part provides")
            results = m(**{n: values[n] for n in m.input_names})
            outs = dict(zip(m.output_names, results))
            values.update(outs)
        return outs


def _graph_dumper(dump_graph: Any) -> Any:
    """The graph dumper of a compile: ``dump_graph`` (a directory or a GraphDumper), else the
    environment's (``GE_MLIR_DUMP_GRAPH``), else None (no import when nothing is dumped)."""
    if dump_graph is None and os.environ.get("GE_MLIR_DUMP_GRAPH", "").strip() in ("", "0"):
        return None
    from ..graph.dump import GraphDumper

    if dump_graph is None:
        return GraphDumper.from_env()
    return dump_graph if isinstance(dump_graph, GraphDumper) else GraphDumper(dump_graph)
