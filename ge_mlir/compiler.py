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
from .ir.functions import io_names, pick_function, symbol_name
from .ir.types import TensorSpec, check_arrays, tensor_spec
from .options import CompileOptions, coerce_options
from .passes.report import PassReport, instrument
from .target import TARGETS as _TARGET_MODULES
from .target import get_target
from .target.base import TargetResult

__all__ = ["STAGES", "TARGETS", "TARGET_STAGES", "CompileError", "CompileOptions", "CompiledModel", "IOSpec",
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
    shape: tuple[int, ...]
    dtype: np.dtype

    def __str__(self) -> str:
        return f"{self.name}: {'x'.join(map(str, self.shape)) or 'scalar'} {self.dtype}"


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
        elapsed = time.perf_counter() - self.start
        if not self.enabled or (elapsed < 1.0 and not self.shown):
            return
        self.shown = True
        width = 20
        filled = width * self.done // self.total
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if self.done == self.total else ""
        sys.stderr.write(f"\rge-mlir {self.what} [{bar}] {self.done}/{self.total} {stage:<10} {elapsed:6.1f} s{end}")
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
    #: :func:`estimate_memory` makes it alone), a :class:`~ge_mlir.plan.estimate.MemoryEstimate`. None otherwise.
    memory_estimate: Any = None
    #: ``ascendc``: the emitted Ascend C project.
    project_dir: Path | None = None
    #: ``ascendc``: per kernel, its name, kind, block count and on-chip bytes per memory.
    kernels: list[dict[str, Any]] = field(default_factory=list)
    #: A profiling build (``CompileOptions.profile``, ``cpu``): the
    #: :class:`~ge_mlir.target.cpu.profiling.CpuProfiler` that :func:`ge_mlir.profile` drives. None otherwise.
    profiler: Any = field(default=None, repr=False)

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
        return tuple(self._ir)

    def ir(self, stage: str | None = None) -> str:
        """The IR after ``stage`` (default: the last stage run) as text."""
        stage = stage or self.compile_to
        stages = TARGET_STAGES[self.target]
        if stage not in stages:
            raise CompileError(f"unknown stage {stage!r} (stages: {', '.join(stages)})")
        if stage not in self._ir:
            raise CompileError(f"stage {stage!r} was not reached (compiled to {self.compile_to!r})")
        return self._ir[stage]

    def __call__(self, *args: Any, **named: Any) -> list[np.ndarray]:
        if self._run is None:
            raise ExecutionError(self._not_runnable)
        arrays = check_arrays(self._bind(args, named), self.inputs, [f"input '{s.name}'" for s in self.inputs])
        return self._run(arrays)

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

    Raises:
        CompileError: unknown target/stage/options, an unsupported model form.
        ImportError_ subclasses: the front end refused the model.
        VerificationError, ExecutionError: invalid IR, a lowering failure
            (naming the op), a JIT failure.
    """
    if target not in TARGETS:
        raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
    tgt = get_target(target)
    stages = TARGET_STAGES[target]
    if compile_to is None:
        compile_to = stages[-1]
    if compile_to not in stages:
        raise CompileError(f"unknown stage {compile_to!r} for compile_to on {target} "
                           f"(stages: {', '.join(stages)})")
    given = {"output_dir": output_dir, "run_on": run_on}
    for key, value in given.items():
        if key not in tgt.target_options and value != _TARGET_KWARG_DEFAULTS[key]:
            raise CompileError(f"{key} is not an option of target {target!r}")
    target_options = {k: given[k] for k in tgt.target_options}
    options = coerce_options(options)
    tgt.check(options, target_options)
    # Config errors (and user pass modules that fail to import) surface before any work.
    config = load_config(options.config)
    options = resolve_options(config, options)
    pipeline = None
    if options.optimize and compile_to != "ge":
        from .optimize.default_pipeline import default_pipeline

        load_pass_modules(config)
        pipeline = default_pipeline(target, config, load_modules=False)
    report = PassReport()
    dumper = _graph_dumper(dump_graph)

    bar = _Progress(stages.index(compile_to) + 1, progress)
    texts: dict[str, str] = {}
    times: dict[str, float] = {}
    locations: dict[str, list[str]] = {}
    t0 = time.perf_counter()

    def done(stage: str, module: ir.Module | str) -> None:
        nonlocal t0
        texts[stage] = module if isinstance(module, str) else str(module)
        if stage in GRAPH_STAGES and not isinstance(module, str):
            from .graph.model import op_locations

            locations[stage] = op_locations(module)
        now = time.perf_counter()
        times[stage] = now - t0
        if dumper is not None:  # the dump's time is not the stage's
            dumper.stage(stage, module)
            now = time.perf_counter()
        t0 = now
        bar.step(stage)
        if on_stage is not None:
            on_stage(stage, times[stage])

    try:
        with ir.Context(), ir.Location.unknown():
            module = load_graph(model, options, example_inputs, config)
            verify(module)
            done("ge", module)
            if compile_to != "ge":
                if pipeline is not None:
                    from .passes.pipeline import run_elements

                    elements = instrument(pipeline.parse(), report)
                    if dumper is not None:
                        elements = dumper.instrument(elements)
                    run_elements(module, elements, f"default {target} pipeline {pipeline.text!r}")
                done("optimized", module)
            # The signature is read before the target runs: targets may rewrite the module in place.
            try:
                fn = pick_function(module, options.func_name)
            except LookupError as e:
                raise CompileError(str(e)) from None
            func_name = symbol_name(fn)
            in_names, out_names = io_names(fn)
            estimate = None
            if options.memory_estimation and compile_to != "ge":
                from .plan.estimate import estimate_function

                estimate = estimate_function(fn, strategy=options.memory_reuse_strategy or "aggressive")
            ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
            in_specs, out_specs = [tensor_spec(t) for t in ftype.inputs], [tensor_spec(t) for t in ftype.results]
            result = TargetResult()
            if compile_to in tgt.stages:
                result = tgt.compile(module, options, func_name=func_name, compile_to=compile_to, done=done,
                                     **target_options)
            times.update(result.times)
    finally:
        bar.close()
    if result.inputs is not None:
        in_specs, out_specs = result.inputs, result.outputs
    if not all(isinstance(s, TensorSpec) for s in [*in_specs, *out_specs]):
        in_specs, out_specs = [], []  # not runnable: no host specs (the stages' IR is still there)
    runnable = tgt.runnable(compile_to) and result.run is not None
    return CompiledModel(
        target=target, compile_to=compile_to,
        inputs=[IOSpec(n, s.shape, s.dtype) for n, s in zip(in_names, in_specs)],
        outputs=[IOSpec(n, s.shape, s.dtype) for n, s in zip(out_names, out_specs)],
        stage_times=times, _ir=texts, _run=result.run if runnable else None,
        _not_runnable="" if runnable else tgt.not_runnable_reason(compile_to, result),
        _pass_report=report, _locations=locations, memory_plan=result.memory_plan, memory_estimate=estimate, project_dir=result.project_dir,
        kernels=result.kernels, profiler=result.profiler,
    )


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
    name), then :func:`ge_mlir.plan.estimate.estimate_function` reads the graph: weights,
    activation peak, lowering workspace, the program point of the peak and the largest
    tensors (docs/memory.md, "Estimation before compile"). ``in_place`` models the in-place
    reuse of dying elementwise inputs. The planner strategy is the options' (or the config's)
    ``memory_reuse_strategy``, else ``aggressive``, as the compile would plan.

    Returns a :class:`~ge_mlir.plan.estimate.MemoryEstimate` (``print`` it for a table,
    ``.to_json()``); its ``import_seconds`` is the import and optimization time, ``seconds``
    the estimate's own. Raises the errors :func:`compile` raises for the same model and options.
    """
    import dataclasses

    from .plan.estimate import estimate_function

    options = coerce_options(options)
    if input_shapes is not None:
        if options.input_shapes is not None and dict(options.input_shapes) != dict(input_shapes):
            raise CompileError("input_shapes given both as an argument and in options, differently")
        options = dataclasses.replace(options, input_shapes=input_shapes)
    if not isinstance(in_place, bool):
        raise CompileError(f"in_place must be True or False, got {in_place!r}")
    config = load_config(options.config)
    options = resolve_options(config, options)
    pipeline = None
    if options.optimize:
        from .optimize.default_pipeline import default_pipeline

        load_pass_modules(config)
        pipeline = default_pipeline("cpu", config, load_modules=False)
    with ir.Context(), ir.Location.unknown():
        t0 = time.perf_counter()
        module = load_graph(model, options, example_inputs, config)
        verify(module)
        if pipeline is not None:
            from .passes.pipeline import run_elements

            run_elements(module, pipeline.parse(), f"default cpu pipeline {pipeline.text!r}")
        import_seconds = time.perf_counter() - t0
        try:
            fn = pick_function(module, options.func_name)
        except LookupError as e:
            raise CompileError(str(e)) from None
        estimate = estimate_function(fn, in_place=in_place, strategy=options.memory_reuse_strategy or "aggressive")
    estimate.import_seconds = import_seconds
    return estimate
