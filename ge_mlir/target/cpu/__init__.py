"""Host CPU target: lower ge IR to the LLVM dialect and run it with the MLIR JIT."""

from .runner import (
    BUFFERIZE_PIPELINE,
    CPU_PIPELINE,
    CPU_STAGES,
    LLVM_PIPELINE,
    CpuExecutable,
    ExecutionError,
    TensorSpec,
    lower_stage,
    lower_to_llvm,
)

__all__ = [
    "BUFFERIZE_PIPELINE", "CPU_PIPELINE", "CPU_STAGES", "LLVM_PIPELINE", "CpuExecutable",
    "ExecutionError", "TensorSpec", "lower_stage", "lower_to_llvm",
]
