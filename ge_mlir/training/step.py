"""``compile_train_step``: a whole training step (forward, backward, optimizer update) as one
compiled ge graph (GE's training run mode, ``ge.graphRunMode`` = 1).

The step traced by :func:`ge_mlir.training.trace_train_step` is imported through the FX front end
and compiled for the CPU target. Parameters, optimizer states and batch norm's running statistics
live in arrays the compiled step owns: each call feeds them with the batch and takes the step's
updated values as the next state (the graph's outputs replace its inputs; nothing is copied back
to torch until :meth:`CompiledTrainStep.state_dict` or :meth:`CompiledTrainStep.sync_to_model`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ExecutionError, TrainingError
from .trace import TracedStep, node_phases, trace_train_step

__all__ = ["CompiledTrainStep", "compile_train_step"]


class CompiledTrainStep:
    """One compiled training step; ``loss = step(*batch)`` runs it and returns the loss."""

    def __init__(self, traced: TracedStep, compiled: Any, check_finite: bool) -> None:
        self.traced = traced
        self.compiled = compiled
        self.check_finite = check_finite
        self.steps = 0
        self._state = [t.detach().numpy() for t in traced.initial_inputs()]
        index = {entry: i for i, entry in enumerate(traced.inputs)}
        self._batch_slots = [index[("batch", f"batch.{i}")] for i in range(len(traced.example_batch))]
        self._replaced = [index[entry] for entry in traced.outputs[1:]]
        self._batch_specs = [(tuple(t.shape), t.dtype) for t in traced.example_batch]
        executable = getattr(compiled, "_executable", None)
        tied = getattr(executable, "tied_outputs", {}) if executable is not None else {}
        #: How many of the step's updated values (parameters, states, buffers) are updated in place,
        #: in the arrays the step owns, out of how many.
        self.in_place = (len(tied), len(self._replaced))

    def __call__(self, *batch: Any) -> float:
        """Runs one step on ``batch`` (tensors shaped as the example batch) and returns the loss.

        Raises:
            ExecutionError: a batch tensor of another shape or dtype (named), or, with
                ``check_finite``, a NaN/inf loss (naming the step).
        """
        import torch

        if len(batch) != len(self._batch_slots):
            raise ExecutionError(f"the step takes {len(self._batch_slots)} batch tensor(s), got {len(batch)}")
        for i, (t, (shape, dtype)) in enumerate(zip(batch, self._batch_specs)):
            if not isinstance(t, torch.Tensor) or tuple(t.shape) != shape or t.dtype != dtype:
                got = f"{tuple(t.shape)} {t.dtype}" if isinstance(t, torch.Tensor) else type(t).__name__
                raise ExecutionError(f"batch input #{i} ('batch.{i}') is {got}; the step was compiled for "
                                     f"{shape} {dtype} (compile another step for another shape)")
        for slot, t in zip(self._batch_slots, batch):
            self._state[slot] = t.detach().numpy()
        outs = self.compiled(*self._state)
        self.steps += 1
        for slot, value in zip(self._replaced, outs[1:]):
            self._state[slot] = value
        loss = float(outs[0])
        if self.check_finite and not math.isfinite(loss):
            raise ExecutionError(f"the loss of step {self.steps} is {loss}")
        return loss

    def memory_report(self) -> Any:
        """The step's memory by category (:class:`ge_mlir.memory.training.TrainingMemory`: saved
        activations, gradients and workspace in the planned arena, parameters, optimizer states,
        buffers, batch and outputs outside it; ``print`` it for the table)."""
        from ..memory.training import TrainingMemory

        plan = self.compiled.memory_plan
        if plan is None or "training" not in plan:
            raise ExecutionError("the step has no memory plan (compiled for a target or stage without one)")
        return TrainingMemory.from_dict(plan["training"])

    def _tensors(self) -> list[Any]:
        import torch

        return [torch.from_numpy(np.asarray(a)) for a in self._state]

    def sync_to_model(self) -> None:
        """Copies the step's parameters and buffers into the torch model."""
        self.traced.load_into_model(self._tensors())

    def state_dict(self) -> dict[str, Any]:
        """``{"model": model.state_dict(), "optimizer": torch.optim state_dict}`` of the current
        state (the model is synced first); copies, which later steps do not change."""
        import copy

        self.sync_to_model()
        return copy.deepcopy({"model": self.traced.model.state_dict(),
                              "optimizer": self.traced.optimizer_state_dict(self._tensors())})

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Loads ``{"model": ..., "optimizer": ...}`` (as :meth:`state_dict` gives) into the step."""
        if set(state) != {"model", "optimizer"}:
            raise TrainingError("load_state_dict takes {'model': ..., 'optimizer': ...}")
        self.traced.model.load_state_dict(state["model"])
        inputs = self.traced.inputs_from_state_dict(state["optimizer"])
        self._state = [t.detach().numpy() for t in inputs]


def _donate(module: Any, traced: TracedStep) -> None:
    """Every updated value may be computed into the buffer of the input it replaces
    (``ge-tie-donated-results`` decides where that is safe)."""
    from mlir import ir

    index = {entry: i for i, entry in enumerate(traced.inputs)}
    pairs = []
    for r, entry in enumerate(traced.outputs[1:], start=1):
        pairs += [r, index[entry]]
    fn = module.body.operations[0].operation
    fn.attributes["ge.donate"] = ir.DictAttr.get({
        "inputs": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), len(traced.inputs)),
        "pairs": ir.DenseI64ArrayAttr.get(pairs)})


def _record_phases(module: Any, phases: Mapping[str, str], kinds: Sequence[str]) -> None:
    """``ge.step_phases = {phase = [node names]}`` and ``ge.step_arg_kinds`` on the step's function
    (the memory report's split into saved activations, gradients, workspace and arguments reads them)."""
    from mlir import ir

    from ..memory.training import ARG_KINDS_ATTR, PHASES_ATTR

    by_phase: dict[str, list[str]] = {}
    for name, phase in phases.items():
        by_phase.setdefault(phase, []).append(name)
    fn = module.body.operations[0]
    fn.attributes[PHASES_ATTR] = ir.DictAttr.get(
        {k: ir.ArrayAttr.get([ir.StringAttr.get(n) for n in v]) for k, v in sorted(by_phase.items())})
    fn.attributes[ARG_KINDS_ATTR] = ir.ArrayAttr.get([ir.StringAttr.get(k) for k in kinds])


def _import_step(model: Any, loss_fn: Callable[..., Any], optimizer: Any, example_batch: Sequence[Any],
                 accumulate: int, clip_grad_norm: float | None) -> tuple[TracedStep, Any]:
    """The step traced and imported as a ge module (in the current context), with its donated
    inputs and its ops' phases recorded."""
    from ..frontend.fx import decompositions, import_fx

    traced = trace_train_step(model, loss_fn, optimizer, tuple(example_batch), accumulate=accumulate,
                              clip_grad_norm=clip_grad_norm, decompositions=decompositions())
    names = [name for _, name in traced.inputs]
    out_names = ["loss"] + [f"new.{name}" for _, name in traced.outputs[1:]]
    module, fixed = import_fx(traced.graph_module, func_name="train_step", input_names=names,
                              output_names=out_names)
    if fixed:
        raise TrainingError(f"the traced step has non-tensor outputs at {sorted(fixed)}")
    _donate(module, traced)
    _record_phases(module, node_phases(traced.graph_module), [kind for kind, _ in traced.inputs])
    return traced, module


def estimate_train_step(model: Any, loss_fn: Callable[..., Any], optimizer: Any, example_batch: Sequence[Any], *,
                        accumulate: int = 1, clip_grad_norm: float | None = None,
                        options: Mapping[str, Any] | None = None) -> Any:
    """The memory a training step will need, estimated before compiling it
    (:func:`ge_mlir.estimate_memory` on the step's graph): a ``MemoryEstimate`` whose ``training``
    splits it into saved activations, gradients, workspace, parameters, optimizer states, batch
    (``print`` it for the tables). Arguments as :func:`compile_train_step`'s."""
    import ge_mlir

    from ..api import Context

    with Context():
        _, module = _import_step(model, loss_fn, optimizer, example_batch, accumulate, clip_grad_norm)
        return ge_mlir.estimate_memory(module, options=dict(options or {}))


def compile_train_step(model: Any, loss_fn: Callable[..., Any], optimizer: Any, example_batch: Sequence[Any], *,
                       accumulate: int = 1, clip_grad_norm: float | None = None,
                       options: Mapping[str, Any] | None = None, check_finite: bool = False) -> CompiledTrainStep:
    """Compiles one training step of ``model`` into one ge graph for the CPU target.

    Args:
        model: a ``torch.nn.Module`` (set ``train()`` or ``eval()`` as the step should run it).
        loss_fn: ``loss_fn(model, *batch)`` returns the scalar loss.
        optimizer: a ``torch.optim.SGD`` or ``AdamW`` over the model's parameters; its
            hyperparameters and current state are read once.
        example_batch: a tuple of tensors shaped as every batch will be.
        accumulate: gradient accumulation over this many equal microbatches of the batch.
        clip_grad_norm: clip the gradients to this global 2-norm before the update.
        options: :class:`ge_mlir.CompileOptions` fields (e.g. ``{"num_threads": 2}``).
        check_finite: a NaN/inf loss raises ``ExecutionError`` naming the step.

    Raises:
        TrainingError: an unsupported model, optimizer or option (named).
        UnsupportedFxOpsError: an op of the step ge-mlir cannot convert (op and node named).
    """
    import ge_mlir

    from ..api import Context

    with Context():
        traced, module = _import_step(model, loss_fn, optimizer, example_batch, accumulate, clip_grad_norm)
        compiled = ge_mlir.compile(module, options=dict(options or {}), progress=False)
    return CompiledTrainStep(traced, compiled, check_finite)
