"""Host CPU target: ge IR through linalg and bufferization to the LLVM dialect, run with the MLIR JIT.

Light on purpose: the pass registry finds ``ge-lower-to-linalg`` here by
module name, and importing this package must not pull in the JIT; the runner's
names below load on first use.
"""

from __future__ import annotations

from typing import Any

_RUNNER_NAMES = ("CPU_STAGES", "LLVM_PIPELINE", "ONE_SHOT_PIPELINE", "CpuExecutable", "TensorSpec",
                 "lower_stage", "lower_to_llvm")
__all__ = [*_RUNNER_NAMES, "ExecutionError"]


def __getattr__(name: str) -> Any:
    if name == "ExecutionError":
        from ...errors import ExecutionError

        return ExecutionError
    if name in _RUNNER_NAMES:
        from . import runner

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
