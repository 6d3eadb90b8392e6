"""The memory of a compiled training step by category, and activation recompute.

Small models (a few seconds each): the categories add up to the plan, recompute under a budget
lowers the saved activations' peak, and the recomputed step computes bit for bit what the step
without recompute computes. The GPT-2-style acceptance figures are in docs/training.md."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

from ge_mlir.memory.training import TrainingMemory, training_memory  # noqa: E402
from ge_mlir.training import compile_train_step  # noqa: E402

STEPS = 3


class Mlp(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, 128), nn.Tanh(),
                                 nn.Linear(128, 10))

    def forward(self, x):
        return self.net(x)


def classify(model, x, y):
    return F.cross_entropy(model(x), y)


def _compile(options=None):
    torch.manual_seed(0)
    model = Mlp()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    batches = [(torch.randn(64, 32), torch.randint(0, 10, (64,))) for _ in range(STEPS)]
    step = compile_train_step(model, classify, opt, batches[0], options=options)
    return step, model, batches


@pytest.fixture(scope="module")
def plain():
    step, model, batches = _compile()
    return step, [step(*b) for b in batches], model


def test_categories_add_up(plain):
    step, _losses, model = plain
    rep = step.memory_report()
    assert isinstance(rep, TrainingMemory)
    plan = step.compiled.memory_plan
    assert rep.arena == plan["arena"] > 0
    assert rep.saved_activations + rep.gradients + rep.workspace == rep.arena
    assert rep.total == rep.arena + rep.parameters + rep.optimizer_states + rep.buffers + rep.batch + rep.outputs
    param_bytes = sum(p.numel() * 4 for p in model.parameters())
    assert rep.parameters == param_bytes
    assert rep.optimizer_states >= 2 * param_bytes  # exp_avg, exp_avg_sq (and the step counters)
    assert rep.batch == 64 * 32 * 4 + 64 * 8
    assert rep.saved_peak > 0 and rep.saved_buffers > 0 and rep.gradient_peak > 0
    assert rep.saved_activations <= rep.saved_peak
    table = str(rep)
    for word in ("saved activations", "gradients", "workspace", "optimizer states", "total"):
        assert word in table


def test_split_of_a_hand_made_plan():
    # forward a (saved: b starts inside its range), forward t (temporary), backward g (gradient: u
    # starts inside its range), update u; c is a recomputed copy of a.
    phases = {"a": "forward", "t": "forward", "b": "backward", "g": "backward", "u": "update"}
    buffers = [{"name": "a", "size": 100, "start": 0, "end": 6}, {"name": "t", "size": 50, "start": 1, "end": 2},
               {"name": "b", "size": 10, "start": 3, "end": 4}, {"name": "a/recompute", "size": 100, "start": 5,
                                                                "end": 7},
               {"name": "g", "size": 20, "start": 4, "end": 8}, {"name": "u", "size": 30, "start": 8, "end": 9}]
    rep = training_memory({"arena": 256, "buffers": buffers}, phases, {"parameters": 7})
    assert (rep.saved_peak, rep.gradient_peak, rep.saved_buffers) == (100, 20, 1)
    assert rep.peak_point in (5, 6) and rep.saved_activations == 100 and rep.gradients == 20
    assert rep.workspace == 256 - 120 and rep.total == 256 + 7


def test_recompute_lowers_saved_activations_bitwise(plain):
    step, losses, _model = plain
    before = step.memory_report()
    budget = 0.85 * before.arena / 2**20
    rc_step, _m, batches = _compile({"memory_budget_mb": budget, "recompute": True,
                                     "recompute_checkpoint_ops": ["aten.addmm", "LayerNormalization"]})
    rep = rc_step.memory_report()
    assert rep.arena <= budget * 2**20 < before.arena
    assert rep.saved_peak < before.saved_peak
    assert rep.saved_peak_without_recompute == before.saved_peak
    assert rep.recompute and rep.recompute["recomputed"] and rep.recompute["extra_flops"] > 0
    assert "saved by recompute" in str(rep)
    assert [rc_step(*b) for b in batches] == losses  # bit for bit


def test_recompute_by_op_type_without_a_budget(plain):
    """Checkpoint ops with no budget: every recomputation of those ops that lowers the peak,
    within the FLOPs ratio; bit for bit the same losses."""
    step, losses, _model = plain
    before = step.memory_report()
    rc_step, _m, batches = _compile({"recompute": True, "recompute_ratio": 0.5,
                                     "recompute_checkpoint_ops": ["aten.addmm", "LayerNormalization"]})
    rep = rc_step.memory_report()
    assert rep.recompute and rep.recompute["budget"] is None
    assert rep.saved_peak < before.saved_peak
    assert 0 < rep.recompute["extra_flops_ratio"] <= 0.5
    assert [rc_step(*b) for b in batches] == losses


def test_estimate_before_compiling_splits_the_same_categories(plain):
    """estimate_train_step (ge_mlir.estimate_memory on the step's graph, no lowering): the same
    categories, close to the compiled step's plan."""
    from ge_mlir.training import estimate_train_step

    step, _losses, _model = plain
    torch.manual_seed(0)
    model = Mlp()
    x, y = torch.randn(64, 32), torch.randint(0, 10, (64,))
    est = estimate_train_step(model, classify, torch.optim.AdamW(model.parameters(), lr=1e-2), (x, y))
    got, want = est.training, step.memory_report()
    assert isinstance(got, TrainingMemory)
    assert (got.parameters, got.optimizer_states, got.batch, got.outputs) == \
        (want.parameters, want.optimizer_states, want.batch, want.outputs)
    assert abs(got.arena - want.arena) <= 0.25 * want.arena
    assert abs(got.saved_peak - want.saved_peak) <= 0.25 * want.saved_peak
    assert "saved activations" in str(est)
