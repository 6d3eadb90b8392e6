"""Differential fuzzing of ge-mlir against onnxruntime (``ge-fuzz``).

* :mod:`.generator` -- random valid ONNX graphs, reproducible from (seed, index);
* :mod:`.mutators` -- invalid/edge models derived from them;
* :mod:`.runner` -- one case in a child process with a timeout, classified as
  ok / refused / crash / hang / uncaught / mismatch;
* :mod:`.reducer` -- delta-debugging of a failing model to a minimal reproducer;
* :mod:`.cli` -- the ``ge-fuzz`` command (``python -m ge_mlir.fuzz``).

Nothing here imports MLIR: the parent process only builds models and runs
onnxruntime; ge-mlir runs in the children.
"""

from .generator import Case, generate_valid
from .mutators import generate_case, generate_invalid
from .reducer import Candidate, reduce_model
from .runner import CLASSES, FAILURES, Result, run_model

__all__ = ["CLASSES", "FAILURES", "Candidate", "Case", "Result", "generate_case", "generate_invalid",
           "generate_valid", "reduce_model", "run_model"]
