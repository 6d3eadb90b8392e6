"""Training: a whole training step (forward, backward, optimizer update) as one graph.

:func:`trace_train_step` traces a step into a functional core-ATen FX graph with the
functional optimizers of :mod:`ge_mlir.training.optim` (``torch.optim.SGD`` and ``AdamW``
reproduced op for op); the graph imports through the FX front end like any other.
"""

from ge_mlir.training.optim import AdamWOptions, FunctionalOptimizer, SgdOptions, functional_optimizer
from ge_mlir.training.trace import TracedStep, aten_ops, default_decompositions, trace_train_step
from ge_mlir.training.step import CompiledTrainStep, compile_train_step, estimate_train_step

__all__ = ["AdamWOptions", "CompiledTrainStep", "compile_train_step", "estimate_train_step", "FunctionalOptimizer", "SgdOptions", "TracedStep", "aten_ops", "default_decompositions",
           "functional_optimizer", "trace_train_step"]
