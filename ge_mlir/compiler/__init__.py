"""The compiler: a model in, a :class:`~ge_mlir.runtime.model.CompiledModel` out.

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

Split by concern, as onnx-mlir's ``src/Compiler``: :mod:`.loader` (any model form to a verified
ge module), :mod:`.engine` (:class:`GraphEngine`, GE's staged workflow, and the
:class:`StagedGraph` between its stages), :mod:`.driver` (the stages in one call on one
process, with the compile cache; :func:`estimate_memory`), :mod:`.progress` (the progress bar).
What a compile produces and how it is saved is the runtime's (:mod:`ge_mlir.runtime`), below;
``ge_mlir.compile``, above, chooses between this compiler and the parallel driver that runs it
on MPI ranks.
"""

from .driver import estimate_memory
from .engine import AppliedPass, GraphEngine, StagedGraph, StageHistory
from .loader import load_graph

__all__ = ["AppliedPass", "GraphEngine", "StageHistory", "StagedGraph", "estimate_memory", "load_graph"]
