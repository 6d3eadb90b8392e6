"""The functional SGD and AdamW against torch.optim: bitwise as plain torch code, and traced."""

from __future__ import annotations

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from ge_mlir.errors import GeMlirError, TrainingError
from ge_mlir.training import optim
from ge_mlir.training.trace import default_decompositions

OPTIMIZERS = {
    "sgd": lambda ps, **kw: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=1e-2, **kw),
    "sgd-plain": lambda ps, **kw: torch.optim.SGD(ps, lr=0.1, **kw),
    "nesterov": lambda ps, **kw: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-2, **kw),
    "adamw": lambda ps, **kw: torch.optim.AdamW(ps, lr=1e-2, weight_decay=0.05, **kw),
    "adamw-amsgrad": lambda ps, **kw: torch.optim.AdamW(ps, lr=1e-2, betas=(0.8, 0.99), amsgrad=True, **kw),
}


def _run(make, steps: int, trace_table=None, **kw):
    """(functional param, torch param, functional state, torch optimizer) after ``steps`` steps
    on random gradients; the functional update traced with ``trace_table`` when given."""
    torch.manual_seed(0)
    p0 = torch.randn(300, 37)
    p = torch.nn.Parameter(p0.clone())
    opt = make([p], **kw)
    fopt = optim.functional_optimizer(opt, {"w": p})
    keys = fopt.state_keys("w")
    w, state = p0.clone(), optim.initial_state(p0, fopt.options["w"])

    def update(w, g, *s):
        nw, ns = fopt.update("w", w, g, dict(zip(keys, s)))
        return (nw, *(ns[k] for k in keys))

    fn = update
    for i in range(steps):
        g = torch.randn(300, 37)
        p.grad = g.clone()
        opt.step()
        if trace_table is not None and i == 0:
            fn = make_fx(update, decomposition_table=trace_table, tracing_mode="fake")(w, g, *(state[k] for k in keys))
        out = fn(w, g, *(state[k] for k in keys))
        w, state = out[0], dict(zip(keys, out[1:]))
    return w, p.detach(), state, opt


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_bitwise_equal_to_torch_optim_foreach_false(name):
    w, ref, _, _ = _run(OPTIMIZERS[name], 12, foreach=False)
    assert torch.equal(w, ref)


@pytest.mark.parametrize("name", ["sgd", "adamw"])
def test_bitwise_equal_to_torch_optim_default(name):
    # torch.optim's default on CPU tensors is the single-tensor code too.
    w, ref, _, _ = _run(OPTIMIZERS[name], 12)
    assert torch.equal(w, ref)


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_traced_with_core_aten(name):
    # Core ATen decomposes lerp and addcmul, which torch runs as fused multiply-adds when
    # vectorized: a last-bit difference at most, per step.
    w, ref, _, _ = _run(OPTIMIZERS[name], 12, trace_table=default_decompositions(), foreach=False)
    assert ((w - ref).abs().max() / ref.abs().max()).item() < 1e-6


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_traced_bitwise_when_lerp_and_addcmul_are_kept(name):
    table = default_decompositions()
    table.pop(torch.ops.aten.lerp.Scalar)
    table.pop(torch.ops.aten.addcmul.default)
    w, ref, _, _ = _run(OPTIMIZERS[name], 12, trace_table=table, foreach=False)
    assert torch.equal(w, ref)


@pytest.mark.parametrize("name", ["sgd", "adamw-amsgrad", "sgd-plain"])
def test_state_converts_to_and_from_torch(name):
    w, ref, state, opt = _run(OPTIMIZERS[name], 3, foreach=False)
    fopt = optim.functional_optimizer(opt, {"w": opt.param_groups[0]["params"][0]})
    sd = fopt.state_dict({"w": state})
    theirs = opt.state_dict()
    assert sd["param_groups"] == theirs["param_groups"]
    assert sd["state"].keys() == theirs["state"].keys()
    for index, entry in theirs["state"].items():
        assert entry.keys() == sd["state"][index].keys()
        for key, value in entry.items():
            assert torch.equal(sd["state"][index][key], value), key
    back = fopt.states_from_state_dict(theirs, {"w": ref})["w"]
    assert back.keys() == state.keys()
    for key in state:
        assert torch.equal(back[key], state[key]), key


def test_empty_state_before_the_first_step():
    p = torch.nn.Parameter(torch.randn(4))
    for make in OPTIMIZERS.values():
        opt = make([p])
        fopt = optim.functional_optimizer(opt, {"w": p})
        state = fopt.states_from_state_dict(opt.state_dict(), {"w": p})
        assert fopt.state_dict(state)["state"] == {}


def test_several_param_groups_keep_their_options():
    a, b = torch.nn.Parameter(torch.randn(3)), torch.nn.Parameter(torch.randn(3))
    opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5, "momentum": 0.5}], lr=0.1)
    fopt = optim.functional_optimizer(opt, {"a": a, "b": b})
    assert fopt.options["a"].lr == 0.1 and fopt.options["a"].momentum == 0
    assert fopt.options["b"].lr == 0.5 and fopt.options["b"].momentum == 0.5
    assert fopt.order == ["a", "b"]
    assert fopt.state_keys("a") == () and fopt.state_keys("b") == ("momentum_buffer", "momentum_initialized")


@pytest.mark.parametrize("make, message", [
    (lambda ps: torch.optim.AdamW(ps, capturable=True), "capturable=True"),
    (lambda ps: torch.optim.AdamW(ps, differentiable=True), "differentiable=True"),
    (lambda ps: torch.optim.AdamW(ps, fused=True), "fused=True"),
    (lambda ps: torch.optim.SGD(ps, lr=0.1, maximize=True), "maximize=True"),
    (lambda ps: torch.optim.RMSprop(ps), "RMSprop is not supported"),
    (lambda ps: torch.optim.Adam(ps), "Adam is not supported"),
])
def test_unsupported_options_are_refused_by_name(make, message):
    p = torch.nn.Parameter(torch.randn(3))
    try:
        opt = make([p])
    except RuntimeError as err:  # an option this torch build cannot even construct on the CPU
        pytest.skip(str(err))
    with pytest.raises(TrainingError, match=message) as info:
        optim.functional_optimizer(opt, {"w": p})
    assert isinstance(info.value, GeMlirError)


def test_lr_scheduler_is_refused():
    p = torch.nn.Parameter(torch.randn(3))
    opt = torch.optim.SGD([p], lr=0.1)
    torch.optim.lr_scheduler.StepLR(opt, 1)
    with pytest.raises(TrainingError, match="lr scheduler"):
        optim.functional_optimizer(opt, {"w": p})


def test_foreign_parameter_is_refused():
    p, q = torch.nn.Parameter(torch.randn(3)), torch.nn.Parameter(torch.randn(2))
    with pytest.raises(TrainingError, match="not a parameter of the model"):
        optim.functional_optimizer(torch.optim.SGD([p, q], lr=0.1), {"w": p})


def test_mismatched_state_is_refused():
    p = torch.nn.Parameter(torch.randn(3))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    fopt = optim.functional_optimizer(opt, {"w": p})
    with pytest.raises(TrainingError, match="momentum_buffer"):
        fopt.states_from_state_dict({"state": {0: {"momentum_buffer": torch.zeros(4)}}}, {"w": p})
