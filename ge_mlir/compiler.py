"""``ge_mlir.compile``: a model in, a callable compiled model out.

The pipeline is a fixed sequence of stages; ``compile_to`` stops after one of
them (like IREE's ``--compile-to``) and :meth:`CompiledModel.ir` returns the IR
each stage produced:

==============  ==============================================================
``ge``          the imported (or parsed) ge module, verified
``optimized``   after the ge graph optimizations (the target's default pipeline
                under ``CompileOptions.config``: ``ge_mlir.optimize.default_pipeline``)
``linalg``      after ``ge-lower-to-linalg`` (tensors; i1 stored as i8)
``bufferized``  after the CPU codegen strategy and one-shot bufferization
``llvm``        the LLVM dialect handed to the JIT
==============  ==============================================================

For ``target="ascendc"`` the stages after ``optimized`` are ``ascendc`` (the
kernels and host program in the ``ascendc`` dialect, ``ge-lower-to-ascendc``)
and ``source`` (the emitted Ascend C project in ``output_dir``; ``ir("source")``
lists its text files). ``run_on="cpu-shim"`` builds the project with g++
against the clean-room shim so the compiled model runs on the host CPU.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from mlir import ir

from .api import parse_module, verify
from .config import load_config, load_pass_modules, resolve_options
from .errors import CompileError, ExecutionError
from .irutils.functions import io_names, pick_function, symbol_name
from .irutils.types import TensorSpec, check_arrays, tensor_spec
from .options import CompileOptions, coerce_options
from .passes.report import PassReport, instrument
from .target import TARGETS as _TARGET_MODULES
from .target import get_target
from .target.base import TargetResult

__all__ = ["STAGES", "TARGETS", "TARGET_STAGES", "AppliedPass", "CompileError", "CompileOptions", "CompiledModel",
           "Graph", "GraphEngine", "IOSpec",
           "compile", "estimate_memory", "load_graph"]

#: Stages every target starts with: the verified ge module, then the optimized graph.
GRAPH_STAGES: tuple[str, ...] = ("ge", "optimized")
#: Targets ``compile`` knows, with their stages.
TARGET_STAGES: dict[str, tuple[str, ...]] = {
    name: (*GRAPH_STAGES, *get_target(name).stages) for name in _TARGET_MODULES
}
TARGETS: tuple[str, ...] = tuple(TARGET_STAGES)
#: Every stage of the default (CPU) target, in pipeline order.
STAGES: tuple[str, ...] = TARGET_STAGES["cpu"]


@dataclass(frozen=True)
class IOSpec:
    """A named model input or output."""

    name: str
    shape: tuple[int | None, ...]  # None: a dynamic dim (any size at run time)
    dtype: np.dtype

    def __str__(self) -> str:
        return f"{self.name}: {'x'.join('?' if d is None else str(d) for d in self.shape) or 'scalar'} {self.dtype}"


class _Progress:
    """A one-line progress bar on stderr, shown once the work passes 1 s: a compile's stages,
    a profile's iterations (``what``)."""

    def __init__(self, total: int, enabled: bool | None, what: str = "compile") -> None:
        self.total, self.done, self.what = total, 0, what
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.shown = False

    def step(self, stage: str) -> None:
        self.done += 1
        self._draw(stage, "\n" if self.done == self.total else "")

    def working(self, label: str) -> None:
        """Shows what runs now (e.g. ``optimize: ge-fuse-conv-bn``) without counting a step done."""
        self._draw(label, "")

    def _draw(self, label: str, end: str) -> None:
        elapsed = time.perf_counter() - self.start
        if not self.enabled or (elapsed < 1.0 and not self.shown):
            return
        self.shown = True
        width = 20
        filled = width * self.done // self.total
        bar = "#" * filled + "-" * (width - filled)
        # One width for every label, so a shorter one overwrites a longer one completely.
        sys.stderr.write(f"\rge-mlir {self.what} [{bar}] {self.done}/{self.total} {label[:36]:<36} {elapsed:6.1f} s{end}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown and self.done < self.total:
            sys.stderr.write("\n")
            sys.stderr.flush()


@dataclass
class CompiledModel:
    """A model compiled for a target; call it with numpy arrays.

    ``model(x, y)`` or ``model(x=..., y=...)`` returns the outputs as a list of
    numpy arrays, in the model's output order. Inputs must match
    :attr:`inputs` exactly (shape and dtype); anything else raises
    :class:`ExecutionError` naming the input.
    """

    target: str
    compile_to: str
    inputs: list[IOSpec]
    outputs: list[IOSpec]
    stage_times: dict[str, float] = field(default_factory=dict)
    _ir: dict[str, str] = field(default_factory=dict, repr=False)
    _run: Callable[[list[np.ndarray]], list[np.ndarray]] | None = field(default=None, repr=False)
    _not_runnable: str = field(default="", repr=False)
    _pass_report: PassReport | None = field(default=None, repr=False)
    #: Per graph stage, the printed location of every function-body op (``ir()`` text has none):
    #: lets ``ge_mlir.export_graph`` name the ONNX nodes of a stage it re-parses.
    _locations: dict[str, list[str]] = field(default_factory=dict, repr=False)
    #: The memory plan of the compiled function (``cpu``, from stage ``bufferized`` on): ``arena``
    #: bytes, the chosen ``strategy``, every strategy's arena (``arenas``), ``no_reuse`` (the sum of the
    #: buffers), ``lower_bound`` (the most bytes live at once in this op order) and per buffer its
    #: ``name``, ``size``, ``offset`` and live range (``start``, ``end``: op positions); ``op_bound`` is the
    #: order-independent bound (the most planned bytes a single op reads and writes). None otherwise.
    memory_plan: dict[str, Any] | None = None
    #: The memory estimate made on the optimized ge graph (``memory_estimation`` option;
    #: :func:`estimate_memory` makes it alone), a :class:`~ge_mlir.memory.estimate.MemoryEstimate`. None otherwise.
    memory_estimate: Any = None
    #: ``ascendc``: the emitted Ascend C project.
    project_dir: Path | None = None
    #: ``ascendc``: per kernel, its name, kind, block count and on-chip bytes per memory.
    kernels: list[dict[str, Any]] = field(default_factory=list)
    #: A profiling build (``CompileOptions.profile``, ``cpu``): the
    #: :class:`~ge_mlir.target.cpu.profiling.CpuProfiler` that :func:`ge_mlir.profile` drives. None otherwise.
    profiler: Any = field(default=None, repr=False)
    #: A model loaded by :func:`ge_mlir.load`: the artefact's path and the seconds the load took
    #: (:attr:`stage_times` is then empty: nothing was compiled). None and 0.0 otherwise.
    loaded_from: Path | None = None
    load_time: float = 0.0
    #: The model came from the compile cache (:mod:`ge_mlir.cache`; :attr:`loaded_from` is the entry).
    from_cache: bool = False
    #: What runs the compiled code (the target's ``TargetResult.executable``), for :meth:`save`.
    _executable: Any = field(default=None, repr=False)

    @property
    def input_names(self) -> list[str]:
        return [s.name for s in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [s.name for s in self.outputs]

    @property
    def compile_time(self) -> float:
        """Seconds spent in all stages (and the JIT's code generation)."""
        return sum(self.stage_times.values())

    @property
    def pass_report(self) -> PassReport:
        """What each pass of the ``optimized`` stage did: time, op counts
        before/after, rewrites (``print(model.pass_report)`` for the table).
        Empty when the stage did not run or ``optimize`` was off."""
        return self._pass_report if self._pass_report is not None else PassReport()

    @property
    def stages(self) -> tuple[str, ...]:
        """The stages this compile went through, in order."""
        stages = TARGET_STAGES[self.target]
        return tuple(self._ir) or tuple(s for s in self.stage_times if s in stages)

    def ir(self, stage: str | None = None) -> str:
        """The IR after ``stage`` (default: the last stage run) as text."""
        stage = stage or self.compile_to
        stages = TARGET_STAGES[self.target]
        if stage not in stages:
            raise CompileError(f"unknown stage {stage!r} (stages: {', '.join(stages)})")
        if stage not in self._ir:
            if stage in self.stage_times and self.loaded_from is None:
                raise CompileError(f"the IR of stage {stage!r} was not kept (compile with keep_ir=True)")
            if self.from_cache:
                raise CompileError(f"the IR of stage {stage!r} is not kept in the compile cache "
                                   f"(this model was loaded from {self.loaded_from}): compile with cache=False")
            if self.loaded_from is not None:
                raise CompileError(f"the IR of stage {stage!r} is not in the artefact {self.loaded_from} "
                                   f"(saved stages: {', '.join(self._ir) or 'none'}; save with include_ir=True)")
            raise CompileError(f"stage {stage!r} was not reached (compiled to {self.compile_to!r})")
        return self._ir[stage]

    def save(self, path: str | Path, *, include_ir: bool | Sequence[str] = False) -> Path:
        """Saves the compiled model as an offline artefact that :func:`ge_mlir.load` runs without
        compiling again (``cpu``: a ``.gem`` file, the native code plus its signature, workspace
        plan and memory plan; docs/artefacts.md). ``include_ir``: also the IR text of every stage
        (True) or of the named ones. Returns the path written.

        Raises :class:`~ge_mlir.errors.ArtefactError` for a model that cannot be saved (another
        target, a partial stage, a profiling build, no C compiler to link with)."""
        import importlib

        # Named, not imported: ge_mlir.artefact builds on this module (no package cycle).
        return importlib.import_module("ge_mlir.artefact").save(self, path, include_ir=include_ir)

    def __call__(self, *args: Any, **named: Any) -> list[np.ndarray]:
        if self._run is None:
            raise ExecutionError(self._not_runnable)
        labels = self.__dict__.get("_labels")
        if labels is None:
            labels = self.__dict__["_labels"] = [f"input '{s.name}'" for s in self.inputs]
        if not named and len(args) == len(self.inputs):
            bound = list(args)
        elif not args and list(named) == self.__dict__.get("_names_in_order"):  # inputs by name, in order
            bound = list(named.values())
        else:
            bound = self._bind(args, named)
            if not args:
                self.__dict__["_names_in_order"] = self.input_names
        return self._run(check_arrays(bound, self.inputs, labels))

    def _bind(self, args: tuple[Any, ...], named: dict[str, Any]) -> list[Any]:
        names = self.input_names
        if len(args) > len(names):
            raise ExecutionError(f"the model takes {len(names)} input(s) ({', '.join(names)}), got {len(args)}")
        bound: dict[str, Any] = dict(zip(names, args))
        for key, value in named.items():
            if key not in names:
                raise ExecutionError(f"unknown input '{key}' (inputs: {', '.join(names) or 'none'})")
            if key in bound:
                raise ExecutionError(f"input '{key}' given both by position and by name")
            bound[key] = value
        missing = [n for n in names if n not in bound]
        if missing:
            raise ExecutionError(f"missing input(s): {', '.join(missing)}")
        return [bound[n] for n in names]

    def __repr__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.outputs))
        return f"<CompiledModel target={self.target} ({ins}) -> ({outs})>"


#: Defaults of ``compile``'s target-specific keyword arguments.
_TARGET_KWARG_DEFAULTS: dict[str, Any] = {"output_dir": None, "run_on": "cpu-shim"}


def load_graph(model: Any, options: CompileOptions, example_inputs: Sequence[Any] | None = None,
               config: Any = None) -> ir.Module:
    """Any supported model form -> a verified ge module in the current context (``config``: the
    loaded config, whose ``constantFolding`` precision also rules the ONNX importer's folding)."""
    if isinstance(model, ir.Module):
        return parse_module(model.operation.get_asm(enable_debug_info=True), source_name="<module>")
    if isinstance(model, str) and ("func.func" in model or model.lstrip().startswith("module")):
        return parse_module(model)
    if isinstance(model, (str, Path)):
        path = Path(model)
        if not path.is_file():
            raise CompileError(f"no such model file: {path}")
        if path.suffix == ".mlir":
            from .api import parse_file

            return parse_file(path)
    if type(model).__module__.startswith("torch") or hasattr(model, "forward"):
        if example_inputs is None:
            raise CompileError("compiling a torch module needs example_inputs (a tuple of tensors)")
        from .frontend.torch import import_module

        return import_module(model, example_inputs, input_shapes=options.input_shapes)
    try:
        import onnx
    except ImportError:  # pragma: no cover - onnx is a dependency
        onnx = None
    if isinstance(model, (str, Path, bytes)) or (onnx is not None and isinstance(model, onnx.ModelProto)):
        from .frontend.onnx import import_onnx

        fold_in_f32 = config is not None and config.constant_folding.fp_mode == "FP32"
        return import_onnx(model, input_shapes=options.input_shapes, constant_inputs=options.constant_inputs,
                           fold_in_f32=fold_in_f32)
    raise CompileError(
        f"cannot compile a {type(model).__name__}: expected an ONNX path/bytes/ModelProto, "
        "a .mlir path, ge IR text, an mlir.ir.Module or a torch.nn.Module"
    )


# --- the staged workflow -------------------------------------------------------


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
class _History:
    """What the stages a graph went through left: IR text, seconds, op locations per stage."""

    texts: dict[str, str] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
    locations: dict[str, list[str]] = field(default_factory=dict)

    def copy(self) -> _History:
        return _History(dict(self.texts), dict(self.times), dict(self.locations))


def _io_specs(names: Sequence[str], specs: Sequence[Any]) -> list[IOSpec]:
    if not all(isinstance(s, TensorSpec) for s in specs):
        return []  # not runnable: no host specs
    return [IOSpec(n, s.shape, s.dtype) for n, s in zip(names, specs)]


class Graph:
    """A ge graph between stages of a :class:`GraphEngine`: a verified module in its own MLIR
    context, the stage it reached (``ge`` or ``optimized``), its signature and history.

    Stages never change a graph they are given: ``engine.optimize(g)`` returns a new graph.
    """

    def __init__(self, module: ir.Module, context: ir.Context, stage: str, *, func_name: str,
                 history: _History, pass_report: PassReport | None = None, part: tuple[int, int] = (0, 1)) -> None:
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
        from .graph.export import export_graph

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
        return f"<Graph @{self.func_name} stage={self.stage}, {self.node_count} nodes{part}: ({ins}) -> ({outs})>"


class GraphEngine:
    """GE's staged workflow on ge-mlir: load -> optimize -> partition -> compile -> execute.

    ::

        engine = ge_mlir.GraphEngine({"config": "ge_options.json"})
        graph = engine.load("model.onnx")            # Graph: node_count, inputs, outputs, export()
        optimized = engine.optimize(graph)           # .applied_passes: what ran, with rewrites
        parts = engine.partition(optimized)          # one part unless parallelism is configured
        models = [engine.compile(p, target="cpu") for p in parts]
        outputs = engine.execute(models, {"x": x})

    ``options`` is a :class:`CompileOptions` or a dict of its fields (its ``config`` may be a GE
    option file). :func:`compile` runs these same stages in one call.
    """

    def __init__(self, options: CompileOptions | Mapping[str, Any] | None = None, *, target: str = "cpu",
                 on_stage: Callable[[str, float], None] | None = None, dump_graph: Any = None) -> None:
        if target not in TARGETS:
            raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
        self.target = target
        options = coerce_options(options)
        # Config errors (and user pass modules that fail to import) surface before any work.
        self.config = load_config(options.config)
        self.options = resolve_options(self.config, options)
        self._on_stage = on_stage
        self._dumper = _graph_dumper(dump_graph)
        self._bar: _Progress | None = None

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
    def _done(self, stage: str, module: ir.Module | str, history: _History, t0: float) -> float:
        if self.options.keep_ir:
            history.texts[stage] = module if isinstance(module, str) else str(module)
        if stage in GRAPH_STAGES and not isinstance(module, str):
            from .graph.model import op_locations

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
    def load(self, model: Any, example_inputs: Sequence[Any] | None = None) -> Graph:
        """Imports ``model`` (anything :func:`compile` takes) into a verified ge graph."""
        ctx = ir.Context()
        t0 = time.perf_counter()
        history = _History()
        with ctx, ir.Location.unknown():
            module = load_graph(model, self.options, example_inputs, self.config)
            verify(module)
            self._done("ge", module, history, t0)
            try:
                fn = pick_function(module, self.options.func_name)
            except LookupError as e:
                raise CompileError(str(e)) from None
            return Graph(module, ctx, "ge", func_name=symbol_name(fn), history=history)

    def optimize(self, graph: Graph, *, target: str | None = None, _in_place: bool = False) -> Graph:
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
            from .optimize.default_pipeline import default_pipeline

            load_pass_modules(self.config)
            pipeline = default_pipeline(target, self.config, load_modules=False)
        t0 = time.perf_counter()
        with ctx, ir.Location.unknown():
            if pipeline is not None:
                from .passes.pipeline import run_elements

                bar = self._bar
                elements = instrument(pipeline.parse(), report,
                                      None if bar is None else (lambda name: bar.working(f"optimize: {name}")))
                if self._dumper is not None:
                    elements = self._dumper.instrument(elements)
                run_elements(module, elements, f"default {target} pipeline {pipeline.text!r}")
            self._done("optimized", module, history, t0)
            return Graph(module, ctx, "optimized", func_name=graph.func_name, history=history, pass_report=report)

    def partition(self, graph: Graph, parallel: Any = None) -> list[Graph]:
        """The graph's parts, one per rank (``parallel``, else the config's ``ge.exec.parallel``;
        docs/parallel.md): each the rank's stage with its weight slices and its communication
        (``shard`` ops), for inspection and export. Without parallelism, one part: the graph.
        Partitioned parts run on MPI ranks through ``ge_mlir.compile(model, parallel=...)``."""
        if graph.stage != "optimized":
            raise CompileError(f"partition takes an optimized graph, got one at stage {graph.stage!r}")
        from .partition.plan import partition_graph
        from .parallel_strategy import parse_strategy

        strategy = parse_strategy(parallel if parallel is not None else (self.config.parallel or None))
        if not strategy.is_parallel:
            return [graph]
        plan = partition_graph(graph, strategy)
        parts = []
        for rank in range(plan.world_size):
            for stage in plan.coords(rank).stages:
                m = plan.rank_module(rank, stage)
                parts.append(Graph(m, plan.context, "partitioned", func_name=plan.stage_function(stage),
                                   history=graph._history.copy(), part=(rank, plan.world_size)))
        return parts

    def compile(self, graph: Graph, target: str | None = None, *, compile_to: str | None = None,
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
                from .memory.estimate import estimate_function

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
            save = getattr(model, "save", None)
            if save is None:
                raise CompileError("this ge-mlir cannot save compiled models yet")
            save(path)
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


def compile(  # the natural name, as in torch.compile
    model: Any,
    target: str = "cpu",
    options: CompileOptions | Mapping[str, Any] | None = None,
    *,
    compile_to: str | None = None,
    example_inputs: Sequence[Any] | None = None,
    progress: bool | None = None,
    on_stage: Callable[[str, str], None] | None = None,
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
        compile_to: stop after this stage (:data:`TARGET_STAGES`; default:
            the target's last); the result then only offers
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
        cache: look the compile up in the compile cache and store it there (:mod:`ge_mlir.cache`:
            ``cpu`` compiles of ONNX or ge IR to the last stage; a hit loads the saved native code
            and has :attr:`CompiledModel.loaded_from` set). Default: on unless ``GE_MLIR_CACHE=0``.
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
    if target not in TARGETS:
        raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
    stages = TARGET_STAGES[target]
    compile_to = compile_to or stages[-1]
    if compile_to not in stages:
        raise CompileError(f"unknown stage {compile_to!r} for compile_to on {target} "
                           f"(stages: {', '.join(stages)})")
    # The staged workflow in one call: the same stages GraphEngine offers one by one, on one
    # module rewritten in place (no copies between stages) under one progress bar.
    engine = GraphEngine(options, target=target, on_stage=on_stage, dump_graph=dump_graph)
    from .parallel_strategy import parse_strategy

    strategy = parse_strategy(parallel if parallel is not None else (engine.config.parallel or None))
    if strategy.is_parallel:
        if compile_to != stages[-1]:
            raise CompileError("a parallel compile runs to the last stage (compile_to is not supported)")
        import importlib

        # Loaded by name: parallel execution (MPI) sits above the compiler it drives.
        compile_parallel = importlib.import_module("ge_mlir.parallel.driver").compile_parallel
        return compile_parallel(model, strategy, engine.options, target=target, example_inputs=example_inputs)
    engine._check_target(target, output_dir, run_on)
    cache_key = _cache_key(engine, model, target, compile_to, dump_graph, cache)
    if cache_key is not None:
        from . import cache as compile_cache

        hit = compile_cache.lookup(cache_key)
        if hit is not None:
            return hit
    engine._bar = _Progress(stages.index(compile_to) + 1, progress)
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
    """The compile cache key of this compile, or None when it is not looked up (see :mod:`ge_mlir.cache`)."""
    from . import cache as compile_cache
    from .config import pass_module_specs

    if not compile_cache.enabled(cache) or target != "cpu" or compile_to != TARGET_STAGES[target][-1]:
        return None
    if engine.options.profile or engine._dumper is not None or pass_module_specs(engine.config):
        return None
    return compile_cache.key(model, target, engine.options, engine.config)


def _graph_dumper(dump_graph: Any) -> Any:
    """The graph dumper of a compile: ``dump_graph`` (a directory or a GraphDumper), else the
    environment's (``GE_MLIR_DUMP_GRAPH``), else None (no import when nothing is dumped)."""
    if dump_graph is None and os.environ.get("GE_MLIR_DUMP_GRAPH", "").strip() in ("", "0"):
        return None
    from .graph.dump import GraphDumper

    if dump_graph is None:
        return GraphDumper.from_env()
    return dump_graph if isinstance(dump_graph, GraphDumper) else GraphDumper(dump_graph)


def estimate_memory(
    model: Any,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    *,
    options: CompileOptions | Mapping[str, Any] | None = None,
    example_inputs: Sequence[Any] | None = None,
    in_place: bool = True,
) -> Any:
    """Estimates the CPU memory of ``model`` on its ge graph, without lowering it.

    ``model`` is anything :func:`compile` takes; it is imported and optimized the way
    ``compile`` does up to stage ``optimized`` (``options``: a :class:`CompileOptions` or a
    dict of its fields; ``input_shapes`` fixes ONNX input dimensions, like the option of that
    name), then :func:`ge_mlir.memory.estimate.estimate_function` reads the graph: weights,
    activation peak, lowering workspace, the program point of the peak and the largest
    tensors (docs/memory.md, "Estimation before compile"). ``in_place`` models the in-place
    reuse of dying elementwise inputs. The planner strategy is the options' (or the config's)
    ``memory_reuse_strategy``, else ``aggressive``, as the compile would plan.

    Returns a :class:`~ge_mlir.memory.estimate.MemoryEstimate` (``print`` it for a table,
    ``.to_json()``); its ``import_seconds`` is the import and optimization time, ``seconds``
    the estimate's own. Raises the errors :func:`compile` raises for the same model and options.
    """
    import dataclasses

    from .memory.estimate import estimate_function

    options = coerce_options(options)
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
