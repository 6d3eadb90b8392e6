"""A whole training step (forward, backward, optimizer update) traced into one functional FX graph.

:func:`trace_train_step` traces ``loss_fn(model, *batch)``, its gradients (``torch.autograd.grad``,
so a parameter the loss does not use gets no gradient and no update, as in torch) and the
functional optimizer of :mod:`ge_mlir.training.optim` with ``make_fx`` into core ATen. The graph's
inputs are the parameters, the optimizer states, the buffers and the batch; its outputs the loss
and every value the step replaces. It has no in-place op: a front end imports it as a pure function,
and the runtime that owns the parameters writes the outputs back over the inputs they replace.

Tracing runs twice. ``torch.autograd.grad`` needs the parameters to require grad, which a
functionalized trace cannot give them, so the first trace records forward and backward with batch
norm's running statistics updated in place on copies of the buffers, and the second re-traces
that graph through ``torch.func.functionalize``, which turns the updates into values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import torch
from torch import Tensor, nn
from torch.fx import GraphModule
from torch.fx.experimental.proxy_tensor import make_fx

from ge_mlir.errors import TrainingError
from ge_mlir.training.optim import FunctionalOptimizer, functional_optimizer, state_from_torch, step_all

LossFn = Callable[..., Tensor]

#: Ops that are the identity in a graph without mutation: removed unless they feed an output.
#: (Not ``clone``: ``reshape`` of a strided tensor is a contiguous clone and then a ``view``.)
_IDENTITY_OPS = {torch.ops.aten.alias.default, torch.ops.aten.detach.default, torch.ops.aten.lift_fresh_copy.default}


def _batch_norm_functional(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                           running_mean: Tensor | None, running_var: Tensor | None, training: bool,
                           momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """``native_batch_norm`` through its functional form, the updated running statistics copied back.

    ``native_batch_norm``'s schema does not say that it writes the running statistics, so
    functionalization would drop the update; ``_native_batch_norm_legit_functional`` returns them,
    and the ``copy_`` (which functionalization does see) makes them the buffers' new values. It runs
    the same CPU kernel as eager batch norm."""
    aten = torch.ops.aten
    if running_mean is None or running_var is None:
        out = aten._native_batch_norm_legit.no_stats(input, weight, bias, training, momentum, eps)
        return out[0], out[1], out[2]
    if not training:
        return aten._native_batch_norm_legit_no_training.default(input, weight, bias, running_mean, running_var,
                                                                 momentum, eps)
    out, mean, rstd, new_mean, new_var = aten._native_batch_norm_legit_functional.default(
        input, weight, bias, running_mean, running_var, training, momentum, eps)
    running_mean.copy_(new_mean)
    running_var.copy_(new_var)
    return out, mean, rstd


def default_decompositions() -> dict[Any, Callable[..., Any]]:
    """``torch._decomp.core_aten_decompositions()``: the table :func:`trace_train_step` uses
    when given none (it always adds its batch-norm decomposition on top)."""
    from torch._decomp import core_aten_decompositions

    return dict(core_aten_decompositions())


class _LossModule(nn.Module):
    """``loss_fn(model, *batch)`` as a module, so ``functional_call`` can swap the model's tensors
    under a loss function that calls the model itself."""

    def __init__(self, model: nn.Module, loss_fn: LossFn) -> None:
        super().__init__()
        self.model = model
        self.loss_fn = loss_fn

    def forward(self, *batch: Tensor) -> Tensor:
        return self.loss_fn(self.model, *batch)


@dataclass
class TracedStep:
    """One traced training step and the layout of its flat inputs and outputs.

    ``inputs`` lists ``(kind, name)`` per graph input, kinds ``param``, ``state``, ``buffer`` and
    ``batch`` in that order (a state is named ``"<param>.<key>"``, a batch tensor ``"batch.<i>"``);
    ``outputs`` lists ``("loss", "loss")`` and then, in input order, every param, state and buffer
    the step replaces (parameters the optimizer does not hold and buffers the forward pass does
    not write are inputs only).

    A step runs as ``outputs = graph_module(*inputs)``; :meth:`next_inputs` builds the inputs of
    the following step from them."""

    graph_module: GraphModule
    inputs: list[tuple[str, str]]
    outputs: list[tuple[str, str]]
    model: nn.Module
    optimizer: FunctionalOptimizer
    accumulate: int = 1
    clip_grad_norm: float | None = None
    example_batch: tuple[Tensor, ...] = field(default_factory=tuple)

    def _index(self) -> dict[tuple[str, str], int]:
        return {entry: i for i, entry in enumerate(self.inputs)}

    def initial_inputs(self, batch: Sequence[Tensor] | None = None) -> list[Tensor]:
        """The inputs from the model's current parameters and buffers and the optimizer's current
        state (``optimizer.state``: empty before its first step), with ``batch`` (default: the
        example batch). Every tensor is a copy: running the step changes nothing of the model."""
        params = dict(self.model.named_parameters())
        buffers = dict(self.model.named_buffers())
        torch_states = {name: self.optimizer.optimizer.state.get(params[name], {}) for name in self.optimizer.order}
        states = {name: _state_from(self.optimizer, name, params[name], torch_states[name])
                  for name in self.optimizer.order}
        return self._assemble(params, states, buffers, batch)

    def _assemble(self, params: Mapping[str, Tensor], states: Mapping[str, Mapping[str, Tensor]],
                  buffers: Mapping[str, Tensor], batch: Sequence[Tensor] | None) -> list[Tensor]:
        batch = tuple(self.example_batch if batch is None else batch)
        self._check_batch(batch)
        values = []
        for kind, name in self.inputs:
            if kind == "param":
                values.append(params[name].detach().clone())
            elif kind == "state":
                owner, key = name.rsplit(".", 1)
                values.append(states[owner][key].detach().clone())
            elif kind == "buffer":
                values.append(buffers[name].detach().clone())
            else:
                values.append(batch[int(name.split(".", 1)[1])])
        return values

    def _check_batch(self, batch: Sequence[Tensor]) -> None:
        expected = [(tuple(t.shape), t.dtype) for t in self.example_batch]
        got = [(tuple(t.shape), t.dtype) if isinstance(t, Tensor) else (None, type(t)) for t in batch]
        if got != expected:
            raise TrainingError(f"batch {got} differs from the traced one {expected}")

    def run_eager(self, inputs: Sequence[Tensor]) -> list[Tensor]:
        """Run the traced graph with torch (the reference a compiled step is checked against)."""
        if len(inputs) != len(self.inputs):
            raise TrainingError(f"the step takes {len(self.inputs)} inputs, got {len(inputs)}")
        with torch.no_grad():
            return list(self.graph_module(*inputs))

    def next_inputs(self, inputs: Sequence[Tensor], outputs: Sequence[Tensor],
                    batch: Sequence[Tensor] | None = None) -> list[Tensor]:
        """``inputs`` with every value the step replaced taken from ``outputs``, and ``batch`` as
        the new batch when given."""
        values = list(inputs)
        index = self._index()
        for entry, value in zip(self.outputs[1:], outputs[1:]):
            values[index[entry]] = value
        if batch is not None:
            self._check_batch(batch)
            for i, t in enumerate(batch):
                values[index[("batch", f"batch.{i}")]] = t
        return values

    def load_into_model(self, inputs: Sequence[Tensor]) -> None:
        """Copy the parameters and buffers of ``inputs`` (a step's inputs, e.g. from
        :meth:`next_inputs`) into the model."""
        params = dict(self.model.named_parameters())
        buffers = dict(self.model.named_buffers())
        with torch.no_grad():
            for (kind, name), value in zip(self.inputs, inputs):
                if kind == "param":
                    params[name].copy_(value)
                elif kind == "buffer":
                    buffers[name].copy_(value)

    def states(self, inputs: Sequence[Tensor]) -> dict[str, dict[str, Tensor]]:
        """The functional optimizer state of every optimized parameter in ``inputs``."""
        out: dict[str, dict[str, Tensor]] = {name: {} for name in self.optimizer.order}
        for (kind, name), value in zip(self.inputs, inputs):
            if kind == "state":
                owner, key = name.rsplit(".", 1)
                out[owner][key] = value
        return out

    def optimizer_state_dict(self, inputs: Sequence[Tensor]) -> dict[str, Any]:
        """The optimizer state of ``inputs`` as ``torch.optim.Optimizer.state_dict()`` lays it out:
        ``optimizer.load_state_dict`` of the traced optimizer continues from it."""
        return self.optimizer.state_dict(self.states(inputs))

    def inputs_from_state_dict(self, state_dict: Mapping[str, Any],
                               batch: Sequence[Tensor] | None = None) -> list[Tensor]:
        """The inputs from the model's parameters and buffers and a ``torch.optim`` state_dict."""
        params = dict(self.model.named_parameters())
        states = self.optimizer.states_from_state_dict(state_dict, params)
        return self._assemble(params, states, dict(self.model.named_buffers()), batch)


def _state_from(fopt: FunctionalOptimizer, name: str, param: Tensor,
                torch_state: Mapping[str, Any]) -> dict[str, Tensor]:
    return state_from_torch(torch_state, param.detach(), fopt.options[name], name)


def _mutated_buffers(loss_module: _LossModule, params: Mapping[str, Tensor], buffers: Mapping[str, Tensor],
                     microbatch: Sequence[Tensor]) -> list[str]:
    """Buffers the forward pass writes, found by one eager forward pass on copies: a version
    counter that moves or a value that changes (``native_batch_norm`` writes the running
    statistics without declaring it, so their version counters stay); refuses any but batch
    norm's running statistics."""
    copies = {name: b.detach().clone() for name, b in buffers.items()}
    versions = {name: c._version for name, c in copies.items()}
    tensors = {**{f"model.{n}": p.detach() for n, p in params.items()},
               **{f"model.{n}": c for n, c in copies.items()}}
    with torch.random.fork_rng(), torch.no_grad():
        torch.func.functional_call(loss_module, tensors, tuple(microbatch))
    mutated = [name for name, c in copies.items()
               if c._version != versions[name] or not torch.equal(c, buffers[name])]
    allowed = {f"{prefix}.{b}" if prefix else b
               for prefix, mod in loss_module.model.named_modules()
               if isinstance(mod, nn.modules.batchnorm._NormBase)
               for b in ("running_mean", "running_var", "num_batches_tracked")}
    refused = [name for name in mutated if name not in allowed]
    if refused:
        raise TrainingError(f"the forward pass writes buffer(s) {', '.join(map(repr, refused))}; only batch norm's "
                            "running statistics may change in a traced training step")
    return mutated


@dataclass
class _Layout:
    """Names of the traced function's flat inputs, by kind."""

    params: list[str]          # every parameter of the model, in named_parameters order
    trained: list[str]         # those the optimizer updates
    state_keys: dict[str, tuple[str, ...]]
    buffers: list[str]
    mutated: list[str]         # buffers the forward pass writes
    batch: int                 # number of batch tensors

    def inputs(self) -> list[tuple[str, str]]:
        return ([("param", n) for n in self.params]
                + [("state", f"{n}.{k}") for n in self.trained for k in self.state_keys[n]]
                + [("buffer", n) for n in self.buffers] + [("batch", f"batch.{i}") for i in range(self.batch)])

    def outputs(self) -> list[tuple[str, str]]:
        return ([("loss", "loss")] + [("param", n) for n in self.trained]
                + [("state", f"{n}.{k}") for n in self.trained for k in self.state_keys[n]]
                + [("buffer", n) for n in self.mutated])


def _clip(grads: dict[str, Tensor], max_norm: float) -> dict[str, Tensor]:
    """``torch.nn.utils.clip_grad_norm_(..., norm_type=2)``'s arithmetic on gradient values."""
    norms = [torch.linalg.vector_norm(g, 2.0) for g in grads.values()]
    total_norm = torch.linalg.vector_norm(torch.stack(norms), 2.0)
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    return {name: torch.mul(g, clip_coef_clamped) for name, g in grads.items()}


#: ``node.meta["custom"]`` key of the step's phase: ``forward``, ``backward`` or ``update`` (the
#: optimizer and clipping); nodes of none of them (the mean loss, input clones) have no phase.
PHASE_KEY = "ge_phase"


def _phase(name: str) -> Any:
    """Tags the nodes traced inside with ``meta["custom"][PHASE_KEY] = name``."""
    from torch.fx.traceback import annotate

    return annotate({PHASE_KEY: name})


def node_phases(gm: GraphModule) -> dict[str, str]:
    """``{node name: phase}`` of every node of a traced step that has one (:data:`PHASE_KEY`)."""
    return {n.name: n.meta["custom"][PHASE_KEY] for n in gm.graph.nodes
            if PHASE_KEY in (n.meta.get("custom") or {})}


def _step_function(loss_module: _LossModule, layout: _Layout, fopt: FunctionalOptimizer, accumulate: int,
                   clip_grad_norm: float | None) -> Callable[..., tuple[Tensor, ...]]:
    """The flat function traced: inputs and outputs as :class:`_Layout` lists them."""
    n_params = len(layout.params)
    n_states = sum(len(layout.state_keys[n]) for n in layout.trained)

    def step(*flat: Tensor) -> tuple[Tensor, ...]:
        params = dict(zip(layout.params, flat[:n_params]))
        state_values = iter(flat[n_params:n_params + n_states])
        states = {n: {k: next(state_values) for k in layout.state_keys[n]} for n in layout.trained}
        buffer_values = flat[n_params + n_states:n_params + n_states + len(layout.buffers)]
        # The forward pass writes the running statistics in place: on copies, never on the inputs.
        buffers = {n: (b.clone() if n in layout.mutated else b) for n, b in zip(layout.buffers, buffer_values)}
        batch = flat[len(flat) - layout.batch:]
        microbatches = zip(*(t.split(t.shape[0] // accumulate) for t in batch))
        tensors = {**{f"model.{n}": t for n, t in params.items()}, **{f"model.{n}": t for n, t in buffers.items()}}
        trained = [params[n] for n in layout.trained]
        grads: dict[str, Tensor | None] = {n: None for n in layout.trained}
        losses = []
        for mb in microbatches:
            with _phase("forward"):
                loss = torch.func.functional_call(loss_module, tensors, tuple(mb))
            with _phase("backward"):
                # As the eager loop `(loss_fn(model, *mb) / k).backward()` accumulating into .grad.
                scaled = loss / accumulate if accumulate > 1 else loss
                for name, g in zip(layout.trained, torch.autograd.grad(scaled, trained, allow_unused=True)):
                    if g is not None:
                        grads[name] = g if grads[name] is None else grads[name] + g
            losses.append(loss.detach())
        mean_loss = losses[0]
        for extra in losses[1:]:
            mean_loss = mean_loss + extra
        if accumulate > 1:
            mean_loss = mean_loss / accumulate
        present = {n: g for n, g in grads.items() if g is not None}
        with _phase("update"):
            if clip_grad_norm is not None and present:
                present = _clip(present, clip_grad_norm)
            new_params, new_states = step_all(fopt, [(n, params[n]) for n in layout.trained], present, states)
        return (mean_loss, *(new_params[n] for n in layout.trained),
                *(new_states[n][k] for n in layout.trained for k in layout.state_keys[n]),
                *(buffers[n] for n in layout.mutated))

    return step


def _check_inputs(model: nn.Module, fopt: FunctionalOptimizer, example_batch: Sequence[Any],
                  accumulate: int) -> tuple[Tensor, ...]:
    if accumulate < 1:
        raise TrainingError(f"accumulate must be a positive number of microbatches, got {accumulate}")
    batch = tuple(example_batch)
    for i, t in enumerate(batch):
        if not isinstance(t, Tensor):
            raise TrainingError(f"batch element {i} is a {type(t).__name__}, not a tensor")
        if t.dim() == 0 or t.shape[0] % accumulate:
            raise TrainingError(f"batch element {i} of shape {tuple(t.shape)} does not split into {accumulate} "
                                "equal microbatches along dim 0")
    for name, p in model.named_parameters():
        if p.requires_grad and name not in fopt.options:
            raise TrainingError(f"parameter {name!r} requires grad but the optimizer does not hold it")
    return batch


def trace_train_step(model: nn.Module, loss_fn: LossFn, optimizer: torch.optim.Optimizer,
                     example_batch: Sequence[Tensor], *, accumulate: int = 1, clip_grad_norm: float | None = None,
                     decompositions: Mapping[Any, Callable[..., Any]] | None = None) -> TracedStep:
    """Trace one training step of ``model`` into a functional core-ATen FX graph.

    The step is, as eager torch code::

        optimizer.zero_grad()
        for mb in zip(*(t.chunk(accumulate) for t in batch)):
            (loss_fn(model, *mb) / accumulate).backward()   # no division when accumulate == 1
        if clip_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(trained parameters, clip_grad_norm)
        optimizer.step()

    returning the mean microbatch loss. ``optimizer`` is a ``torch.optim.SGD`` or ``AdamW`` over
    the model's parameters, read once (its hyperparameters are baked into the graph); its current
    state becomes the step's initial state (:meth:`TracedStep.initial_inputs`). The model runs as
    it is set (``train()``/``eval()``); the forward pass may write batch norm's running statistics
    and no other buffer. ``decompositions`` is the ``make_fx`` table (default:
    :func:`default_decompositions`, core ATen).

    Every node of the graph carries ``meta["val"]``, a fake tensor; no node mutates.

    Raises:
        TrainingError: an unsupported optimizer or option, a buffer written by the forward pass,
            a batch that does not split, a random op in the step, or a trace that failed.
    """
    params = dict(model.named_parameters())
    fopt = functional_optimizer(optimizer, params)
    batch = _check_inputs(model, fopt, example_batch, accumulate)
    loss_module = _LossModule(model, loss_fn)
    buffers = dict(model.named_buffers())
    microbatch = [t[: t.shape[0] // accumulate] for t in batch]
    mutated = _mutated_buffers(loss_module, params, buffers, microbatch)
    trained = [n for n in params if n in fopt.options]
    layout = _Layout(params=list(params), trained=trained, state_keys={n: fopt.state_keys(n) for n in trained},
                     buffers=list(buffers), mutated=mutated, batch=len(batch))
    step = TracedStep(graph_module=None, inputs=layout.inputs(), outputs=layout.outputs(),  # type: ignore[arg-type]
                      model=model, optimizer=fopt, accumulate=accumulate, clip_grad_norm=clip_grad_norm,
                      example_batch=batch)
    example = step.initial_inputs()
    for i, (kind, name) in enumerate(step.inputs):
        if kind == "param" and name in fopt.options:
            example[i] = example[i].requires_grad_(True)
    table = dict(default_decompositions() if decompositions is None else decompositions)
    table[torch.ops.aten.native_batch_norm.default] = _batch_norm_functional
    fn = _step_function(loss_module, layout, fopt, accumulate, clip_grad_norm)
    step.graph_module = _trace(fn, example, table)
    return step


def _trace(fn: Callable[..., tuple[Tensor, ...]], example: Sequence[Tensor],
           table: Mapping[Any, Callable[..., Any]]) -> GraphModule:
    """Both traces (see the module's docstring), then the checks and the clean-up."""
    from torch.fx.traceback import preserve_node_meta

    try:
        # Node meta is preserved (the phase tags of _phase); the second trace interprets the joint
        # graph node by node so that each new node takes the tag of the node it comes from.
        with torch.random.fork_rng(), preserve_node_meta():
            joint = make_fx(fn, decomposition_table=table, tracing_mode="fake")(*example)
            plain = [t.detach() for t in example]
            interpreted = torch.fx.Interpreter(joint).run
            gm = make_fx(torch.func.functionalize(interpreted, remove="mutations"), decomposition_table=table,
                         tracing_mode="fake")(*plain)
    except TrainingError:
        raise
    except Exception as err:  # a trace failure is the model's or loss function's, said in torch's words
        raise TrainingError(f"tracing the training step failed: {type(err).__name__}: {err}") from err
    _check_functional(gm)
    _remove_identities(gm)
    return gm


def _check_functional(gm: GraphModule) -> None:
    """No op of the graph writes a tensor, and none draws random numbers (the traced graph would
    repeat the same draw, or draw other numbers than eager torch)."""
    for node in gm.graph.nodes:
        target = node.target
        if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload):
            continue
        if target._schema.is_mutable:
            raise TrainingError(f"the traced step still mutates a tensor: node {node.name} ({target})")
        if torch.Tag.nondeterministic_seeded in target.tags:
            raise TrainingError(f"the training step draws random numbers (node {node.name}, {target}): dropout "
                                "and other random ops are not supported in a traced step")


def _remove_identities(gm: GraphModule) -> None:
    """Drop alias/detach nodes (identities once nothing mutates) and ``copy(dst, src)`` where
    ``src`` already has ``dst``'s shape, dtype and strides (what functionalization leaves of a
    ``copy_`` into a fresh buffer), then the nodes nothing uses. An output that became an input or
    another output is cloned: each output must be a tensor of its own."""
    for node in list(gm.graph.nodes):
        if node.op != "call_function":
            continue
        if node.target in _IDENTITY_OPS or (node.target is torch.ops.aten.copy.default
                                            and _same_layout(node.args[0], node.args[1])):
            node.replace_all_uses_with(node.args[-1] if node.target is torch.ops.aten.copy.default else node.args[0])
            gm.graph.erase_node(node)
    output = next(n for n in gm.graph.nodes if n.op == "output")
    values, seen = list(output.args[0]), set()
    for i, value in enumerate(values):
        if value.op == "placeholder" or value in seen:
            with gm.graph.inserting_before(output):
                clone = gm.graph.call_function(torch.ops.aten.clone.default, (value,))
            clone.meta["val"] = value.meta.get("val")
            values[i] = clone
        seen.add(values[i])
    output.args = (tuple(values),)
    gm.graph.eliminate_dead_code()
    gm.graph.lint()
    gm.recompile()


def _same_layout(dst: Any, src: Any) -> bool:
    a, b = getattr(dst, "meta", {}).get("val"), getattr(src, "meta", {}).get("val")
    return (isinstance(a, Tensor) and isinstance(b, Tensor) and a.shape == b.shape and a.dtype == b.dtype
            and a.stride() == b.stride() and a.device == b.device)


def aten_ops(gm: GraphModule) -> dict[str, int]:
    """How many nodes of each op ``gm`` calls, by overload name (``aten.add.Tensor``; Python
    callables such as ``operator.getitem`` by their name): what an importer must convert."""
    counts: dict[str, int] = {}
    for node in gm.graph.nodes:
        if node.op == "call_function":
            key = str(node.target) if isinstance(node.target, torch._ops.OpOverload) else \
                f"{getattr(node.target, '__module__', '')}.{getattr(node.target, '__name__', node.target)}"
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))
