"""Host CPU target: lower ge IR to the LLVM dialect and run it with the MLIR JIT."""

from .runner import (
    CPU_STAGES,
    LLVM_PIPELINE,
    ONE_SHOT_PIPELINE,
    CpuExecutable,
    ExecutionError,
    TensorSpec,
    lower_stage,
    lower_to_llvm,
)

__all__ = [
    "CPU_STAGES", "LLVM_PIPELINE", "ONE_SHOT_PIPELINE", "CpuExecutable",
    "ExecutionError", "TensorSpec", "lower_stage", "lower_to_llvm",
]
