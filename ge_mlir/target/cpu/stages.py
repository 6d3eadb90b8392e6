"""The CPU target's stages after the graph stages, in order (the ``compile_to`` names).

Its own module because both the target (:class:`~ge_mlir.target.cpu.target.CpuTarget`) and the
runner that runs the stage pipelines need it, and the target loads the runner: neither may
import the other at module level for it.
"""

#: ``linalg``: ge-lower-to-linalg (i1 stored as i8); ``bufferized``: the codegen strategy and
#: one-shot bufferization; ``llvm``: the LLVM dialect handed to the JIT.
CPU_STAGES: tuple[str, ...] = ("linalg", "bufferized", "llvm")
