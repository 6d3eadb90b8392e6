"""``ge_mlir.compile``: a model in, a callable compiled model out.

The pipeline is a fixed sequence of stages; ``compile_to`` stops after one of
them (like IREE's ``--compile-to``) and :meth:`CompiledModel.ir` returns the IR
each stage produced:

==============  ==============================================================
``ge``          the imported (or parsed) ge module, verified
``optimized``   after the ge graph optimizations (the target's default pipeline
                under ``CompileOptions.config``: ``ge_mlir.optimize.pipelines``)
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

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from mlir import ir

from .api import parse_module, verify
from .config import load_config, load_pass_modules
from .errors import GeMlirError
from .passes.report import PassReport, instrument
from .target.cpu.runner import CPU_STAGES, CpuExecutable, ExecutionError, TensorSpec

#: Every stage of the CPU target, in pipeline order.
STAGES: tuple[str, ...] = ("ge", "optimized", *CPU_STAGES)
#: Stages of the Ascend C target.
ASCENDC_STAGES: tuple[str, ...] = ("ge", "optimized", "ascendc", "source")
#: Targets ``compile`` knows, with their stages.
TARGET_STAGES: dict[str, tuple[str, ...]] = {"cpu": STAGES, "ascendc": ASCENDC_STAGES}
TARGETS: tuple[str, ...] = tuple(TARGET_STAGES)
#: Where an ``ascendc`` compile can run: the CPU shim (g++), nowhere (only
#: the project), or an NPU through the CANN toolkit.
RUN_ON: tuple[str, ...] = ("cpu-shim", "none", "npu")


class CompileError(GeMlirError):
    """The model cannot be compiled (bad input, target, stage or option)."""


@dataclass(frozen=True)
class CompileOptions:
    """Knobs of :func:`compile`.

    Attributes:
        optimize: run the ge graph optimizations (stage ``optimized``).
        opt_level: LLVM optimization level of the JIT, 0 to 3.
        input_shapes: fixes ONNX input dimensions, e.g. ``{"x": [1, 3, 224, 224]}``.
        func_name: the function to compile when a ge module has several.
        constant_inputs: ONNX graph inputs frozen to values (specialization:
            shape/axes/pads given as inputs); they are no longer inputs.
        config: the ge-mlir configuration (a JSON file path, a dict or a
            :class:`ge_mlir.config.Config`; schema in ``docs/config.md``) that
            shapes the default optimization pipeline.
        soc: ``ascendc``: the SoC the kernels are planned for (tile sizes,
            capacity checks): ``"Ascend910B1"`` (default) or ``"Ascend310P3"``.
        check_bounds: ``cpu``: run-time gather/gather_elements/scatter_elements
            indices outside ``[-d, d)`` raise :class:`ExecutionError` naming the
            op (one extra pass over the indices); False clamps them silently.
    """

    optimize: bool = True
    opt_level: int = 3
    input_shapes: Mapping[str, Sequence[int]] | None = None
    func_name: str | None = None
    constant_inputs: Mapping[str, Any] | None = None
    config: Any = None
    soc: str | None = None
    check_bounds: bool = True


@dataclass(frozen=True)
class IOSpec:
    """A named model input or output."""

    name: str
    shape: tuple[int, ...]
    dtype: np.dtype

    def __str__(self) -> str:
        return f"{self.name}: {'x'.join(map(str, self.shape)) or 'scalar'} {self.dtype}"


class _Progress:
    """A one-line stage progress bar on stderr, shown once a compile passes 1 s."""

    def __init__(self, total: int, enabled: bool | None) -> None:
        self.total, self.done = total, 0
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
        sys.stderr.write(f"\rge-mlir compile [{bar}] {self.done}/{self.total} {stage:<10} {elapsed:6.1f} s{end}")
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
    _exe: Callable[..., list[np.ndarray]] | None = field(default=None, repr=False)
    _pass_report: PassReport | None = field(default=None, repr=False)
    #: ``ascendc``: the emitted Ascend C project.
    project_dir: Path | None = None
    #: ``ascendc``: per kernel, its name, kind, block count and on-chip bytes per memory.
    kernels: list[dict[str, Any]] = field(default_factory=list)

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
        if self._exe is None:
            if self.target == "ascendc":
                raise ExecutionError(
                    "the Ascend C project was not built for this machine (compile with run_on='cpu-shim' "
                    f"to run it on the CPU shim); project: {self.project_dir}"
                )
            raise ExecutionError(
                f"the model was compiled to stage {self.compile_to!r}, not to 'llvm'; it cannot run"
            )
        arrays = self._bind(args, named)
        for spec, a in zip(self.inputs, arrays):
            if not isinstance(a, (np.ndarray, np.generic)):
                raise ExecutionError(f"input '{spec.name}' must be a numpy array, got {type(a).__name__}")
            a = np.asarray(a)
            if a.dtype != spec.dtype:
                raise ExecutionError(f"input '{spec.name}' has dtype {a.dtype}, expected {spec.dtype}")
            if tuple(a.shape) != spec.shape:
                raise ExecutionError(f"input '{spec.name}' has shape {tuple(a.shape)}, expected {spec.shape}")
        return self._exe(*arrays)

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


def _io_names(fn: ir.Operation, key: str, count: int, prefix: str) -> list[str]:
    names = [f"{prefix}{i}" for i in range(count)]
    if key in fn.attributes:
        for i, d in enumerate(ir.ArrayAttr(fn.attributes[key])):
            d = ir.DictAttr(d)
            if "onnx.name" in d:
                names[i] = ir.StringAttr(d["onnx.name"]).value
    return names


def _load(model: Any, options: CompileOptions, example_inputs: Sequence[Any] | None) -> ir.Module:
    """Any supported model form -> a verified ge module in the current context."""
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

        return import_onnx(model, input_shapes=options.input_shapes, constant_inputs=options.constant_inputs)
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

    Raises:
        CompileError: unknown target/stage/options, an unsupported model form.
        ImportError_ subclasses: the front end refused the model.
        VerificationError, ExecutionError: invalid IR, a lowering failure
            (naming the op), a JIT failure.
    """
    if target not in TARGETS:
        raise CompileError(f"unknown target {target!r} (targets: {', '.join(TARGETS)})")
    stages = TARGET_STAGES[target]
    if compile_to is None:
        compile_to = stages[-1]
    if compile_to not in stages:
        raise CompileError(f"unknown stage {compile_to!r} for compile_to on {target} "
                           f"(stages: {', '.join(stages)})")
    if run_on not in RUN_ON:
        raise CompileError(f"unknown run_on {run_on!r} (choices: {', '.join(RUN_ON)})")
    if options is None:
        options = CompileOptions()
    elif isinstance(options, Mapping):
        unknown = set(options) - set(CompileOptions.__dataclass_fields__)
        if unknown:
            raise CompileError(
                f"unknown compile option(s) {', '.join(sorted(unknown))} "
                f"(options: {', '.join(CompileOptions.__dataclass_fields__)})"
            )
        options = CompileOptions(**options)
    elif not isinstance(options, CompileOptions):
        raise CompileError(
            f"options must be a CompileOptions or a dict of its fields, got {type(options).__name__} {options!r}"
        )
    if not isinstance(options.check_bounds, bool):
        raise CompileError(f"check_bounds must be True or False, got {options.check_bounds!r}")
    if not isinstance(options.opt_level, int) or not 0 <= options.opt_level <= 3:
        raise CompileError(f"opt_level must be an integer from 0 to 3, got {options.opt_level!r}")
    # Config errors (and user pass modules that fail to import) surface before any work.
    config = load_config(options.config)
    pipeline = None
    if options.optimize and compile_to != "ge":
        from .optimize.pipelines import default_pipeline

        load_pass_modules(config)
        pipeline = default_pipeline(target, config, load_modules=False)
    report = PassReport()

    bar = _Progress(stages.index(compile_to) + 1, progress)
    texts: dict[str, str] = {}
    times: dict[str, float] = {}
    t0 = time.perf_counter()

    def done(stage: str, module: ir.Module) -> None:
        nonlocal t0
        texts[stage] = str(module)
        now = time.perf_counter()
        times[stage] = now - t0
        t0 = now
        bar.step(stage)
        if on_stage is not None:
            on_stage(stage, times[stage])

    try:
        with ir.Context() as ctx, ir.Location.unknown():
            module = _load(model, options, example_inputs)
            verify(module)
            fns = [op.operation for op in module.body.operations if op.operation.name == "func.func"]
            done("ge", module)
            if compile_to != "ge":
                if pipeline is not None:
                    from .optimize.pipelines import run_elements

                    run_elements(module, instrument(pipeline.parse(), report),
                                 f"default {target} pipeline {pipeline.text!r}")
                done("optimized", module)
            exe = None
            project: Path | None = None
            kernels: list[dict[str, Any]] = []
            if target == "ascendc":
                fn = _pick(fns, options.func_name)
                in_specs, out_specs = _specs(fn, None)
                if compile_to in ("ascendc", "source"):
                    project, kernels, exe = _compile_ascendc(module, compile_to, output_dir, run_on, done, texts,
                                                             options.soc)
                del ctx
            else:
                if compile_to in CPU_STAGES:
                    exe = CpuExecutable(
                        module, options.func_name, opt_level=options.opt_level,
                        compile_to=compile_to, on_stage=done, check_bounds=options.check_bounds,
                    )
                    fn_name = exe.func_name
                    if compile_to == "llvm":
                        times["jit"] = time.perf_counter() - t0
                else:
                    fn_name = options.func_name
                fn = _pick(fns, fn_name)
                in_specs, out_specs = _specs(fn, exe)
                del ctx
    finally:
        bar.close()
    runnable = compile_to == "llvm" or (target == "ascendc" and compile_to == "source")
    return CompiledModel(
        target=target, compile_to=compile_to, inputs=in_specs, outputs=out_specs,
        stage_times=times, _ir=texts, _exe=exe if runnable else None,
        _pass_report=report, project_dir=project, kernels=kernels,
    )


def _compile_ascendc(module: ir.Module, compile_to: str, output_dir: str | Path | None, run_on: str,
                     done: Callable[[str, ir.Module], None], texts: dict[str, str], soc: str | None):
    """Stages ``ascendc`` and ``source``: (project dir, kernel summaries, callable or None)."""
    import shutil
    import tempfile

    from .optimize.pipelines import run_elements
    from .passes.pipeline import parse_pipeline
    from .target.ascendc.emit import write_project
    from .target.ascendc.ge_lower_to_ascendc import kernel_summaries
    from .target.ascendc.targets import SOCS

    if soc is not None and soc not in SOCS:
        raise CompileError(f"unknown soc {soc!r} (known: {', '.join(SOCS)})")
    lower = f"ge-lower-to-ascendc{{soc={soc}}}" if soc else "ge-lower-to-ascendc"
    run_elements(module, parse_pipeline(f"builtin.module({lower})"), "ge-lower-to-ascendc")
    done("ascendc", module)
    kernels = kernel_summaries(module)
    if compile_to == "ascendc":
        return None, kernels, None
    out = Path(output_dir) if output_dir is not None else Path(tempfile.mkdtemp(prefix="ge-ascendc-"))
    if out.exists() and not out.is_dir():
        raise CompileError(f"output_dir {str(out)!r} exists and is not a directory")
    try:
        project = write_project(module, out)
    except OSError as e:
        raise CompileError(f"cannot write the Ascend C project to {str(out)!r}: {e}") from None
    files = sorted(p for p in project.rglob("*") if p.is_file() and p.suffix in (".cpp", ".h", ".txt", ".json"))
    done("source", module)
    texts["source"] = "".join(f"// ----- file: {p.relative_to(project)}\n{p.read_text()}" for p in files)
    exe = None
    if run_on == "cpu-shim":
        if shutil.which("g++") is None:
            raise CompileError("run_on='cpu-shim' needs g++ on PATH to build the project "
                               f"(written to {project}); use run_on='none' to only write it")
        from .target.ascendc.shim_runner import ShimExecutable

        exe = ShimExecutable(project, build=True)
    elif run_on == "npu":
        _build_with_cann(project)
    return project, kernels, exe


def _build_with_cann(project: Path) -> None:
    """Builds the project with the CANN toolkit's CMake flow, or says why it cannot."""
    import os
    import shutil
    import subprocess

    home = os.environ.get("ASCEND_HOME_PATH")
    if not home or not Path(home).is_dir():
        raise CompileError(
            "run_on='npu' needs the CANN toolkit, and ASCEND_HOME_PATH is not set (or not a directory) "
            f"on this machine. The Ascend C project is in {project}; build it where CANN is installed "
            "with: cmake -S . -B build -DGE_ASCENDC_MODE=asc && cmake --build build"
        )
    cmake = shutil.which("cmake")
    if cmake is None:
        raise CompileError("run_on='npu' needs cmake on PATH")
    for cmd in ([cmake, "-S", str(project), "-B", str(project / "build-npu"), "-DGE_ASCENDC_MODE=asc"],
                [cmake, "--build", str(project / "build-npu")]):
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise CompileError(f"the CANN build failed ({' '.join(cmd)}):\n{proc.stdout}{proc.stderr}")


def _pick(fns: list[ir.Operation], name: str | None) -> ir.Operation:
    defined = [f for f in fns if f.regions[0].blocks]
    if name is not None:
        for f in defined:
            if ir.StringAttr(f.attributes["sym_name"]).value == name:
                return f
        raise CompileError(f"no function @{name} in the module")
    public = [f for f in defined if "sym_visibility" not in f.attributes]
    if len(public) != 1:
        raise CompileError(f"the module has {len(public)} public functions; set options.func_name")
    return public[0]


def _specs(fn: ir.Operation, exe: CpuExecutable | None) -> tuple[list[IOSpec], list[IOSpec]]:
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    in_names = _io_names(fn, "arg_attrs", len(ftype.inputs), "arg")
    out_names = _io_names(fn, "res_attrs", len(ftype.results), "result")
    if exe is not None:
        ins: list[TensorSpec] = exe.inputs
        outs: list[TensorSpec] = exe.outputs
    else:
        from .target.cpu.runner import _spec

        sym = ir.StringAttr(fn.attributes["sym_name"]).value
        try:
            ins = [_spec(t, f"argument #{i}", sym) for i, t in enumerate(ftype.inputs)]
            outs = [_spec(t, f"result #{i}", sym) for i, t in enumerate(ftype.results)]
        except ExecutionError:
            ins, outs = [], []
    return (
        [IOSpec(n, s.shape, s.dtype) for n, s in zip(in_names, ins)],
        [IOSpec(n, s.shape, s.dtype) for n, s in zip(out_names, outs)],
    )
