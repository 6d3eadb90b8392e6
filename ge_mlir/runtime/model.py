"""The compiled model: what ``ge_mlir.compile`` returns and ``ge_mlir.load`` reads back.

A :class:`CompiledModel` holds what a compile produced (the callable native code, its named
inputs and outputs, the IR of each stage, the memory plan, timings) and nothing of the compiler,
so a saved one (:meth:`CompiledModel.save`, :mod:`.artefact`) loads and runs in a process that
never imports a front end, the optimizer or a lowering.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArtefactError, CompileError, ExecutionError
from ..irutils.types import check_arrays
from ..passes.report import PassReport
from . import artefact
from .stages import TARGET_STAGES

__all__ = ["CompiledModel", "IOSpec", "load"]


@dataclass(frozen=True)
class IOSpec:
    """A named model input or output."""

    name: str
    shape: tuple[int | None, ...]  # None: a dynamic dim (any size at run time)
    dtype: np.dtype

    def __str__(self) -> str:
        return f"{self.name}: {'x'.join('?' if d is None else str(d) for d in self.shape) or 'scalar'} {self.dtype}"


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
    #: :func:`ge_mlir.estimate_memory` makes it alone), a :class:`~ge_mlir.memory.estimate.MemoryEstimate`. None otherwise.
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
    #: The model came from the compile cache (:mod:`ge_mlir.runtime.cache`; :attr:`loaded_from` is the entry).
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
        path = Path(path)
        if self.from_cache and not include_ir:
            # A compile cache entry is this very artefact.
            shutil.copyfile(self.loaded_from, path)
            return path
        if self.loaded_from is not None:
            raise ArtefactError(f"this model was loaded from {self.loaded_from}: copy that file instead of saving it again")
        if self.project_dir is not None:
            raise ArtefactError(f"a {self.target} model's offline form is its project directory ({self.project_dir}; "
                                "ge-compile --target ascendc -o DIR), not a .gem file")
        stages = TARGET_STAGES[self.target]
        if self._executable is None:
            if self.compile_to != stages[-1]:
                raise ArtefactError(f"the model was compiled to stage {self.compile_to!r}, not {stages[-1]!r}: "
                                    "only a runnable model can be saved")
            raise ArtefactError(f"this {self.target} model has no native code to save")
        if include_ir is True:
            ir_stages = list(self.stages)
        else:
            ir_stages = list(include_ir or ())
            unknown = [s for s in ir_stages if s not in self.stages]
            if unknown:
                raise ArtefactError(f"include_ir: no IR of stage(s) {', '.join(map(repr, unknown))} "
                                    f"(this model has {', '.join(self.stages)})")
        return artefact.write(path, target=self.target, compile_to=self.compile_to, inputs=self.inputs,
                              outputs=self.outputs, memory_plan=self.memory_plan, stage_times=self.stage_times,
                              executable=self._executable, ir={s: self.ir(s) for s in ir_stages})

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


def load(path: str | Path) -> CompiledModel:
    """The compiled model saved at ``path`` by :meth:`CompiledModel.save`, ready to call: same
    inputs and outputs (names, shapes, dtypes), memory plan and any saved stage IR, without
    running a pass, a lowering or the JIT.

    Raises :class:`~ge_mlir.errors.ArtefactError` (an ``ExecutionError``) when the file is not an
    artefact, is truncated or corrupt, has another format version, or was built for another
    architecture or for CPU features this host lacks (``.missing`` names them)."""
    t0 = time.perf_counter()
    path = Path(path)
    saved = artefact.read(path)
    return CompiledModel(
        target=saved.target, compile_to=saved.compile_to,
        inputs=[IOSpec(n, s.shape, s.dtype) for n, s in saved.inputs],
        outputs=[IOSpec(n, s.shape, s.dtype) for n, s in saved.outputs],
        stage_times={}, _ir=saved.ir, _run=saved.run, memory_plan=saved.memory_plan,
        loaded_from=path, load_time=time.perf_counter() - t0, _executable=saved.executable,
    )
