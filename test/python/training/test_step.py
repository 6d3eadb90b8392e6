"""compile_train_step: a whole training step compiled as one ge graph, against torch eager with
torch.optim (fp32: every loss within 1e-4 relative, every parameter and running statistic within
1e-4 of its tensor's largest magnitude), state round trips, bad input."""

from __future__ import annotations

import copy
import math
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from models import Gpt2Decoder, SmallResNet  # noqa: E402

from ge_mlir.errors import ExecutionError, TrainingError  # noqa: E402
from ge_mlir.training import compile_train_step  # noqa: E402


def _mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(12, 32), torch.nn.Tanh(), torch.nn.LayerNorm(32),
                               torch.nn.Linear(32, 5))


def _mlp_loss(m, x, y):
    return F.cross_entropy(m(x), y)


def _mlp_batches(n):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(8, 12, generator=g), torch.randint(0, 5, (8,), generator=g)) for _ in range(n)]


OPTIMIZERS = {
    "sgd_momentum": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    "sgd_nesterov_wd": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-2),
    "adamw": lambda p: torch.optim.AdamW(p, lr=1e-2),
    "adamw_amsgrad": lambda p: torch.optim.AdamW(p, lr=1e-2, amsgrad=True, weight_decay=0.1),
}


def _eager(model, opt, loss_fn, batches, accumulate=1, clip=None):
    losses = []
    for batch in batches:
        opt.zero_grad()
        total = 0.0
        for mb in zip(*(t.chunk(accumulate) for t in batch)):
            loss = loss_fn(model, *mb) / accumulate
            loss.backward()
            total += loss.item()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip, foreach=False)
        opt.step()
        losses.append(total)
    return losses


def _assert_close(model_a, model_b, losses_a, losses_b, tol=1e-4):
    for a, b in zip(losses_a, losses_b):
        assert abs(a - b) <= tol * abs(b), (losses_a, losses_b)
    for (name, p), q in zip(model_a.state_dict().items(), model_b.state_dict().values()):
        if p.dtype.is_floating_point:
            assert (p - q).abs().max() <= tol * q.abs().max().clamp_min(1e-12), name


@pytest.mark.parametrize("opt", sorted(OPTIMIZERS))
def test_mlp_steps_match_eager(opt):
    batches = _mlp_batches(6)
    ma, mb = _mlp(), _mlp()
    step = compile_train_step(ma, _mlp_loss, OPTIMIZERS[opt](ma.parameters()), batches[0])
    got = [step(*b) for b in batches]
    step.sync_to_model()
    want = _eager(mb, OPTIMIZERS[opt](mb.parameters()), _mlp_loss, batches)
    _assert_close(ma, mb, got, want)


def test_accumulation_and_clipping_match_eager():
    batches = _mlp_batches(4)
    ma, mb = _mlp(), _mlp()
    step = compile_train_step(ma, _mlp_loss, OPTIMIZERS["adamw"](ma.parameters()), batches[0], accumulate=4,
                              clip_grad_norm=0.5)
    got = [step(*b) for b in batches]
    step.sync_to_model()
    want = _eager(mb, OPTIMIZERS["adamw"](mb.parameters()), _mlp_loss, batches, accumulate=4, clip=0.5)
    _assert_close(ma, mb, got, want)


def test_state_dict_round_trips_through_torch():
    """Three compiled steps, then the state into torch: eager continues exactly as the step does."""
    batches = _mlp_batches(5)
    m = _mlp()
    step = compile_train_step(m, _mlp_loss, OPTIMIZERS["adamw"](m.parameters()), batches[0])
    for b in batches[:3]:
        step(*b)
    state = step.state_dict()
    m2 = _mlp()
    m2.load_state_dict(state["model"])
    opt2 = OPTIMIZERS["adamw"](m2.parameters())
    opt2.load_state_dict(copy.deepcopy(state["optimizer"]))  # torch keeps and updates the state's tensors
    want = _eager(m2, opt2, _mlp_loss, batches[3:])
    got = [step(*b) for b in batches[3:]]
    step.sync_to_model()
    _assert_close(m, m2, got, want)
    # and back: a fresh step loaded from the torch state continues from it
    m3 = _mlp()
    step3 = compile_train_step(m3, _mlp_loss, OPTIMIZERS["adamw"](m3.parameters()), batches[0])
    step3.load_state_dict(state)
    assert [step3(*b) for b in batches[3:]] == got


def test_cnn_with_batch_norm_matches_eager():
    """ResNet-style CNN (two BasicBlocks, batch norm in training mode, batch 8, 3x32x32, 10 classes):
    losses, parameters and running statistics."""
    torch.manual_seed(0)
    m0 = SmallResNet()
    g = torch.Generator().manual_seed(2)
    batches = [(torch.randn(8, 3, 32, 32, generator=g), torch.randint(0, 10, (8,), generator=g)) for _ in range(3)]
    _sgd_steps_match_eager(m0, _mlp_loss, batches)


def _sgd_steps_match_eager(m0, loss_fn, batches):
    """SGD-momentum steps of a copy of ``m0`` compiled and in eager, compared."""
    ma, mb = copy.deepcopy(m0), copy.deepcopy(m0)
    step = compile_train_step(ma, loss_fn, OPTIMIZERS["sgd_momentum"](ma.parameters()), batches[0])
    got = [step(*b) for b in batches]
    step.sync_to_model()
    want = _eager(mb, OPTIMIZERS["sgd_momentum"](mb.parameters()), loss_fn, batches)
    _assert_close(ma, mb, got, want)


def test_gpt2_decoder_matches_eager():
    """GPT-2-style decoder (2 layers, hidden 64, 4 heads, seq 32, batch 4, vocab 256)."""
    torch.manual_seed(0)
    m0 = Gpt2Decoder(vocab=256, d=64, heads=4, layers=2, seq=32)
    g = torch.Generator().manual_seed(3)
    batches = [(torch.randint(0, 256, (4, 32), generator=g), torch.randint(0, 256, (4, 32), generator=g))
               for _ in range(3)]

    def loss_fn(m, x, y):
        return F.cross_entropy(m(x).reshape(-1, 256), y.reshape(-1))

    _sgd_steps_match_eager(m0, loss_fn, batches)


def test_batch_of_another_shape_names_the_input():
    batches = _mlp_batches(1)
    m = _mlp()
    step = compile_train_step(m, _mlp_loss, OPTIMIZERS["sgd_momentum"](m.parameters()), batches[0])
    with pytest.raises(ExecutionError, match=r"batch input #0 \('batch.0'\) is \(4, 12\)"):
        step(torch.randn(4, 12), torch.randint(0, 5, (4,)))
    with pytest.raises(ExecutionError, match="takes 2 batch tensor"):
        step(torch.randn(8, 12))


def test_non_finite_loss_names_the_step():
    m = _mlp()
    x, y = _mlp_batches(1)[0]
    step = compile_train_step(m, _mlp_loss, torch.optim.SGD(m.parameters(), lr=1e30), (x, y), check_finite=True)
    with pytest.raises(ExecutionError, match=r"the loss of step \d+ is (nan|inf)"):
        for _ in range(20):
            assert math.isfinite(step(x, y))


def test_mutated_buffer_is_refused_by_name():
    class Counter(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 2)
            self.register_buffer("calls", torch.zeros(()))

        def forward(self, x):
            self.calls += 1
            return self.lin(x)

    m = Counter()
    with pytest.raises(TrainingError, match="calls"):
        compile_train_step(m, lambda mod, x: mod(x).sum(), torch.optim.SGD(m.parameters(), lr=0.1), (torch.randn(2, 4),))


def test_parameters_and_states_update_in_place():
    """Every updated parameter and optimizer state is computed into the array that held it: the
    step allocates no copy of the model per step (ge-tie-donated-results)."""
    batches = _mlp_batches(3)
    m = _mlp()
    step = compile_train_step(m, _mlp_loss, OPTIMIZERS["adamw"](m.parameters()), batches[0])
    tied, updated = step.in_place
    assert tied == updated > 0
    slots = [i for i, (kind, _) in enumerate(step.traced.inputs) if kind != "batch"]
    before = {i: step._state[i].ctypes.data for i in slots}
    for b in batches:
        step(*b)
    assert all(step._state[i].ctypes.data == before[i] for i in slots)
