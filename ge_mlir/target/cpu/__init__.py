"""Host CPU target: lower ge IR to the LLVM dialect and run it with the MLIR JIT."""

from .runner import CPU_PIPELINE, CpuExecutable, ExecutionError, lower_to_llvm

__all__ = ["CPU_PIPELINE", "CpuExecutable", "ExecutionError", "lower_to_llvm"]
