"""Functional SGD and AdamW: ``torch.optim``'s single-tensor updates as pure tensor functions.

A traced training step cannot call ``torch.optim`` (its updates are in place, and AdamW reads its
step count back to the host with ``.item()``), so the update is written again here with plain,
out-of-place torch ops, in the order of ``torch.optim``'s ``foreach=False`` code
(``_single_tensor_sgd``, ``_single_tensor_adam`` with ``decoupled_weight_decay``) so that the
result matches it as closely as the ops allow. Two places differ by construction:

* SGD's first step copies the gradient into the momentum buffer; the functional update cannot
  test for a missing buffer, so each parameter carries a 0-d bool ``momentum_initialized`` state
  and the buffer is chosen with ``where`` (exact: ``where`` selects, it does not compute).
* AdamW's bias corrections are Python ``float`` (double) arithmetic on the step read with
  ``.item()``; here the step is a float32 tensor state, and the corrections are computed from it
  in float64 tensors, rounded to float32 where ``torch.optim`` hands them to a float32 kernel.

Hyperparameters come from a ``torch.optim.SGD`` or ``AdamW`` instance (every param group); the
options ``torch.optim`` offers that change the arithmetic and are not reproduced are refused by
name with :class:`~ge_mlir.errors.TrainingError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import torch
from torch import Tensor

from ge_mlir.errors import TrainingError

#: Options of a param group that must be off: each changes the arithmetic or the state layout.
_REFUSED_TRUE = ("capturable", "differentiable", "fused", "maximize")


@dataclass(frozen=True)
class SgdOptions:
    """One param group of ``torch.optim.SGD``."""

    lr: float
    momentum: float
    dampening: float
    nesterov: bool
    weight_decay: float


@dataclass(frozen=True)
class AdamWOptions:
    """One param group of ``torch.optim.AdamW``."""

    lr: float
    beta1: float
    beta2: float
    eps: float
    weight_decay: float
    amsgrad: bool


Options = SgdOptions | AdamWOptions


def sgd_update(param: Tensor, grad: Tensor, state: Mapping[str, Tensor],
               opts: SgdOptions) -> tuple[Tensor, dict[str, Tensor]]:
    """One SGD step of one parameter: ``(new parameter, new state)``, ``_single_tensor_sgd``'s ops.

    ``state`` holds ``momentum_buffer`` and ``momentum_initialized`` when ``opts.momentum != 0``
    (see :func:`initial_state`), nothing otherwise."""
    if opts.weight_decay != 0:
        grad = torch.add(grad, param, alpha=opts.weight_decay)
    new_state: dict[str, Tensor] = {}
    if opts.momentum != 0:
        # torch.optim: `buf.mul_(momentum).add_(grad, alpha=1 - dampening)`, or on the first step
        # `buf = grad.clone()`; add keeps its alpha so the kernel (an FMA when vectorized) is the same.
        running = torch.add(torch.mul(state["momentum_buffer"], opts.momentum), grad, alpha=1 - opts.dampening)
        buf = torch.where(state["momentum_initialized"], running, grad)
        new_state = {"momentum_buffer": buf, "momentum_initialized": torch.ones_like(state["momentum_initialized"])}
        grad = torch.add(grad, buf, alpha=opts.momentum) if opts.nesterov else buf
    return torch.add(param, grad, alpha=-opts.lr), new_state


def _bias_corrections(step: Tensor, opts: AdamWOptions) -> tuple[Tensor, Tensor]:
    """(-step_size, sqrt(bias_correction2)) as float32 0-d tensors.

    torch.optim computes them in double from ``step.item()`` and the float32 kernels they feed
    round them once; doing the same in float64 tensors gives the same float32 values. ``lr / x``
    is written as a division of a full tensor because ``float / Tensor`` is ``reciprocal * float``
    in torch, one more rounding."""
    step64 = step.to(torch.float64)
    bias_correction1 = torch.sub(1.0, torch.pow(opts.beta1, step64))
    bias_correction2 = torch.sub(1.0, torch.pow(opts.beta2, step64))
    step_size = torch.div(torch.full((), opts.lr, dtype=torch.float64), bias_correction1)
    neg_step_size = torch.neg(step_size).to(torch.float32)
    return neg_step_size, torch.sqrt(bias_correction2).to(torch.float32)


def adamw_update(param: Tensor, grad: Tensor, state: Mapping[str, Tensor],
                 opts: AdamWOptions) -> tuple[Tensor, dict[str, Tensor]]:
    """One AdamW step of one parameter: ``(new parameter, new state)``, the ops of
    ``_single_tensor_adam`` with decoupled weight decay and ``capturable=False``.

    ``state`` holds ``step`` (a float32 0-d tensor, as torch.optim keeps it), ``exp_avg``,
    ``exp_avg_sq`` and, with amsgrad, ``max_exp_avg_sq``."""
    step = torch.add(state["step"], 1)
    if opts.weight_decay != 0:
        param = torch.mul(param, 1 - opts.lr * opts.weight_decay)
    exp_avg = torch.lerp(state["exp_avg"], grad, 1 - opts.beta1)
    exp_avg_sq = torch.addcmul(torch.mul(state["exp_avg_sq"], opts.beta2), grad, grad, value=1 - opts.beta2)
    neg_step_size, bias_correction2_sqrt = _bias_corrections(step, opts)
    new_state = {"step": step, "exp_avg": exp_avg, "exp_avg_sq": exp_avg_sq}
    second = exp_avg_sq
    if opts.amsgrad:
        second = torch.maximum(state["max_exp_avg_sq"], exp_avg_sq)
        new_state["max_exp_avg_sq"] = second
    denom = torch.add(torch.div(torch.sqrt(second), bias_correction2_sqrt), opts.eps)
    # addcdiv's kernel order: self + (value * t1) / t2.
    param = torch.add(param, torch.div(torch.mul(neg_step_size, exp_avg), denom))
    return param, new_state


def state_keys(opts: Options) -> tuple[str, ...]:
    """The names of one parameter's state tensors, in the traced step's input order."""
    if isinstance(opts, SgdOptions):
        return ("momentum_buffer", "momentum_initialized") if opts.momentum != 0 else ()
    return ("step", "exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if opts.amsgrad else ())


def initial_state(param: Tensor, opts: Options) -> dict[str, Tensor]:
    """A parameter's state before its first step (torch.optim creates it lazily in its first step:
    the update above reproduces that step from these values)."""
    keys = state_keys(opts)
    state = {}
    for key in keys:
        if key == "momentum_initialized":
            state[key] = torch.zeros((), dtype=torch.bool)
        elif key == "step":
            state[key] = torch.zeros((), dtype=torch.float32)
        else:
            state[key] = torch.zeros_like(param, memory_format=torch.preserve_format)
    return state


def state_to_torch(state: Mapping[str, Tensor], opts: Options) -> dict[str, Tensor]:
    """One parameter's functional state as torch.optim keeps it (``optimizer.state[p]``): empty
    before its first step, and without the ``momentum_initialized`` flag."""
    if isinstance(opts, SgdOptions):
        if opts.momentum == 0 or not bool(state["momentum_initialized"]):
            return {}
        return {"momentum_buffer": state["momentum_buffer"].detach().clone()}
    if float(state["step"]) == 0:
        return {}
    return {k: state[k].detach().clone() for k in state_keys(opts)}


def state_from_torch(torch_state: Mapping[str, Any], param: Tensor, opts: Options, name: str) -> dict[str, Tensor]:
    """One parameter's functional state from ``optimizer.state[p]`` (or a state_dict's entry)."""
    state = initial_state(param, opts)
    if not torch_state:
        return state
    if isinstance(opts, SgdOptions):
        buf = torch_state.get("momentum_buffer")
        if opts.momentum != 0 and buf is not None:
            state["momentum_buffer"] = _checked(buf, param, name, "momentum_buffer")
            state["momentum_initialized"] = torch.ones((), dtype=torch.bool)
        return state
    for key in state_keys(opts):
        if key not in torch_state:
            raise TrainingError(f"optimizer state of parameter {name!r} has no {key!r} (amsgrad differs?)")
        if key == "step":
            state[key] = torch.as_tensor(torch_state[key], dtype=torch.float32).reshape(()).clone()
        else:
            state[key] = _checked(torch_state[key], param, name, key)
    return state


def _checked(value: Any, param: Tensor, name: str, key: str) -> Tensor:
    if not isinstance(value, Tensor) or value.shape != param.shape or value.dtype != param.dtype:
        raise TrainingError(f"optimizer state {key!r} of parameter {name!r} does not match the parameter "
                            f"(shape {tuple(param.shape)}, {param.dtype})")
    return value.detach().clone()


def _scalar(value: Any, what: str) -> float:
    if isinstance(value, Tensor):
        if value.numel() != 1 or value.requires_grad:
            raise TrainingError(f"optimizer hyperparameter {what} must be a number or a 1-element tensor")
        return float(value.item())
    return float(value)


def group_options(optimizer: torch.optim.Optimizer, group: Mapping[str, Any], index: int) -> Options:
    """The options of param group ``index``, refusing what the functional update does not do."""
    kind = _kind(optimizer)
    for key in _REFUSED_TRUE:
        if group.get(key):
            raise TrainingError(f"{type(optimizer).__name__} option {key}=True (param group {index}) is not "
                                "supported by the traced training step")
    if "initial_lr" in group:
        # Every torch.optim.lr_scheduler records initial_lr in the groups it drives.
        raise TrainingError(f"param group {index} is driven by an lr scheduler (it has 'initial_lr'); "
                            "a traced step bakes lr in, so lr schedulers are not supported")
    lr = _scalar(group["lr"], "lr")
    if kind == "sgd":
        return SgdOptions(lr=lr, momentum=_scalar(group["momentum"], "momentum"),
                          dampening=_scalar(group["dampening"], "dampening"), nesterov=bool(group["nesterov"]),
                          weight_decay=_scalar(group["weight_decay"], "weight_decay"))
    beta1, beta2 = group["betas"]
    return AdamWOptions(lr=lr, beta1=_scalar(beta1, "betas[0]"), beta2=_scalar(beta2, "betas[1]"),
                        eps=_scalar(group["eps"], "eps"), weight_decay=_scalar(group["weight_decay"], "weight_decay"),
                        amsgrad=bool(group["amsgrad"]))


def _kind(optimizer: torch.optim.Optimizer) -> str:
    if type(optimizer) is torch.optim.SGD:
        return "sgd"
    if type(optimizer) is torch.optim.AdamW or (
            type(optimizer) is torch.optim.Adam and all(g.get("decoupled_weight_decay") for g in optimizer.param_groups)):
        return "adamw"
    raise TrainingError(f"optimizer {type(optimizer).__name__} is not supported by the traced training step "
                        "(torch.optim.SGD and torch.optim.AdamW are)")


@dataclass
class FunctionalOptimizer:
    """A torch optimizer read once: per parameter (by name) its options, and the order in which
    torch.optim numbers parameters in a ``state_dict`` (param groups, in order).

    ``kind`` is ``"sgd"`` or ``"adamw"``; ``options`` maps a parameter's name to its group's
    options; ``order`` lists the names in torch.optim's index order."""

    kind: str
    options: dict[str, Options]
    order: list[str]
    optimizer: torch.optim.Optimizer

    def update(self, name: str, param: Tensor, grad: Tensor,
               state: Mapping[str, Tensor]) -> tuple[Tensor, dict[str, Tensor]]:
        """One step of parameter ``name``."""
        opts = self.options[name]
        if isinstance(opts, SgdOptions):
            return sgd_update(param, grad, state, opts)
        return adamw_update(param, grad, state, opts)

    def state_keys(self, name: str) -> tuple[str, ...]:
        """Parameter ``name``'s state names, in input order."""
        return state_keys(self.options[name])

    def state_dict(self, states: Mapping[str, Mapping[str, Tensor]]) -> dict[str, Any]:
        """``states`` (name -> functional state) as ``torch.optim.Optimizer.state_dict()`` lays it
        out: per-parameter state keyed by index, and the optimizer's param groups."""
        groups = self.optimizer.state_dict()["param_groups"]
        out: dict[int, dict[str, Tensor]] = {}
        for index, name in enumerate(self.order):
            entry = state_to_torch(states[name], self.options[name])
            if entry:
                out[index] = entry
        return {"state": out, "param_groups": groups}

    def states_from_state_dict(self, state_dict: Mapping[str, Any],
                               params: Mapping[str, Tensor]) -> dict[str, dict[str, Tensor]]:
        """The functional states of a ``torch.optim`` state_dict (indices as in :attr:`order`)."""
        by_index = state_dict.get("state", {})
        return {name: state_from_torch(by_index.get(index, {}), params[name], self.options[name], name)
                for index, name in enumerate(self.order)}


def functional_optimizer(optimizer: torch.optim.Optimizer, named_params: Mapping[str, Tensor]) -> FunctionalOptimizer:
    """Read ``optimizer``'s param groups over the model's ``named_params``.

    Every parameter the optimizer holds must be one of ``named_params`` (the model's), each at most
    once; the model's parameters it does not hold are reported by the caller."""
    kind = _kind(optimizer)
    name_of = {id(p): n for n, p in named_params.items()}
    options: dict[str, Options] = {}
    order: list[str] = []
    for index, group in enumerate(optimizer.param_groups):
        opts = group_options(optimizer, group, index)
        for p in group["params"]:
            name = name_of.get(id(p))
            if name is None:
                raise TrainingError(f"param group {index} holds a tensor of shape {tuple(p.shape)} that is not "
                                    "a parameter of the model")
            if name in options:
                raise TrainingError(f"parameter {name!r} appears twice in the optimizer's param groups")
            options[name] = opts
            order.append(name)
    return FunctionalOptimizer(kind=kind, options=options, order=order, optimizer=optimizer)


def step_all(fopt: FunctionalOptimizer, params: Sequence[tuple[str, Tensor]], grads: Mapping[str, Tensor | None],
             states: Mapping[str, Mapping[str, Tensor]]) -> tuple[dict[str, Tensor], dict[str, dict[str, Tensor]]]:
    """Update every parameter that has a gradient, as ``optimizer.step()`` does (a parameter
    without one, e.g. unused by the loss, keeps its value and state: torch.optim skips it)."""
    new_params: dict[str, Tensor] = {}
    new_states: dict[str, dict[str, Tensor]] = {}
    for name, param in params:
        grad = grads.get(name)
        if grad is None:
            new_params[name], new_states[name] = param, dict(states[name])
        else:
            new_params[name], new_states[name] = fopt.update(name, param, grad, states[name])
    return new_params, new_states
