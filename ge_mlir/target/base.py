"""What a code-generation target is: the interface ``ge_mlir.compile`` drives.

A target lives in ``ge_mlir/target/<name>/`` and exposes ``TARGET``, an
instance of a :class:`Target` subclass, from its ``target`` module. The
compiler driver loads and optimizes the graph (stages ``ge`` and
``optimized``), then hands the module to :meth:`Target.compile`, which runs
the target's own stages in order and reports each through ``done``. Adding a
target means a new folder and one line in :data:`ge_mlir.target.TARGETS`;
the driver does not change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from mlir import ir

from ..errors import ArtefactError
from ..irutils.types import TensorSpec

if TYPE_CHECKING:  # annotations only: loading a saved model needs no configuration
    from ..config.options import ResolvedOptions

__all__ = ["Target", "TargetResult"]

#: ``done(stage, module)``: records the IR after a stage (and its time).
StageCallback = Callable[[str, ir.Module], None]


@dataclass
class TargetResult:
    """What a target's compile produced."""

    #: Runs the compiled function on arrays already checked against the inputs; None when not runnable.
    run: Callable[[list[np.ndarray]], list[np.ndarray]] | None = None
    #: Host specs of the inputs/outputs when the target knows them (None: read from the function type).
    inputs: list[TensorSpec] | None = None
    outputs: list[TensorSpec] | None = None
    #: A timed step after the last stage (``{"jit": seconds}``), shown with the stage times.
    times: dict[str, float] = field(default_factory=dict)
    #: The memory plan of the compiled function (``ge-plan-memory``'s record), when the target planned one.
    memory_plan: dict[str, Any] | None = None
    #: ``ascendc``: the emitted project and its kernels (name, kind, blocks, on-chip bytes).
    project_dir: Path | None = None
    kernels: list[dict[str, Any]] = field(default_factory=list)
    #: A profiling build's profile buffer and timed regions (``cpu``: a ``CpuProfiler``), else None.
    profiler: Any = None
    #: What runs the compiled code (``cpu``: the ``CpuExecutable``), kept for :meth:`Target.save_artefact`.
    executable: Any = None


class Target:
    """A code-generation target: its stages after ``optimized`` and how to run them."""

    #: The name ``compile(model, target=...)`` takes.
    name: ClassVar[str]
    #: Its stages after ``optimized``, in order (``compile_to`` names).
    stages: ClassVar[tuple[str, ...]]
    #: Target-specific keyword arguments of ``ge_mlir.compile`` with their defaults.
    target_options: ClassVar[Mapping[str, Any]] = {}

    def check(self, options: ResolvedOptions, target_options: Mapping[str, Any]) -> None:
        """Refuses bad options before any work (raise :class:`~ge_mlir.errors.CompileError`)."""

    def compile(self, module: ir.Module, options: ResolvedOptions, *, func_name: str, compile_to: str,
                done: StageCallback, **target_options: Any) -> TargetResult:
        """Runs the stages up to ``compile_to`` on the optimized ``module`` (which the target may
        rewrite in place), calling ``done`` after each."""
        raise NotImplementedError

    def memory_model(self, options: Mapping[str, Any]) -> Any:
        """What the target's lowering of each ge op holds in memory besides the ge tensors, for the
        memory estimate before lowering (:func:`ge_mlir.memory.estimate.estimate_function`): a
        :class:`ge_mlir.memory.op_model.MemoryModel` under the compile ``options`` the estimate is
        made with (``winograd``, ``fuse_elementwise``), or None for the target-neutral model (every
        op reads its operands and writes its results, nothing more)."""
        return None

    def runnable(self, compile_to: str) -> bool:
        """Whether a compile stopped after ``compile_to`` can be called."""
        return compile_to == self.stages[-1]

    def not_runnable_reason(self, compile_to: str, result: TargetResult) -> str:
        return f"the model was compiled to stage {compile_to!r}, not to {self.stages[-1]!r}; it cannot run"

    def save_artefact(self, executable: Any, directory: Path) -> dict[str, Any]:
        """Writes the native files of an offline artefact (``CompiledModel.save``) of ``executable``
        (:attr:`TargetResult.executable`) into ``directory``; returns the target's manifest section
        (JSON-serializable). Raises :class:`~ge_mlir.errors.ArtefactError` when it cannot."""
        raise ArtefactError(f"target {self.name!r} has no offline artefact")

    def load_artefact(self, section: Mapping[str, Any], read: Callable[[str], bytes], inputs: list[TensorSpec],
                      outputs: list[TensorSpec], *, what: str, files: Mapping[str, Any],
                      memory_plan: dict[str, Any] | None = None) -> TargetResult:
        """A runnable :class:`TargetResult` from a saved artefact's target section (``read(name)``: one of
        its files, ``files``: their sizes and checksums, ``what``: how errors name the artefact), without
        compiling. Raises :class:`~ge_mlir.errors.ArtefactError`."""
        raise ArtefactError(f"target {self.name!r} has no offline artefact")
