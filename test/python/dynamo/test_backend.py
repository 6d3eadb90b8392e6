"""torch.compile(backend="ge_mlir"): inference, training through AOTAutograd against torch eager,
recompiles on new shapes, eager fallback with one warning, strict mode, the entry point."""

from __future__ import annotations

import copy
import sys
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from models import Gpt2Decoder  # noqa: E402

from ge_mlir.dynamo import backend, ge_mlir_backend  # noqa: E402
from ge_mlir.frontend.fx import UnsupportedFxOpsError  # noqa: E402


def _mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.LayerNorm(16), torch.nn.Linear(16, 4))


def test_string_backend_is_registered():
    from torch._dynamo import list_backends

    assert "ge_mlir" in list_backends()
    m = _mlp()
    x = torch.randn(3, 8)
    with torch.no_grad():
        torch.testing.assert_close(torch.compile(m, backend="ge_mlir")(x), m(x), rtol=1e-5, atol=1e-6)


def test_recompiles_on_new_shapes():
    m = _mlp()
    c = torch.compile(m, backend=ge_mlir_backend)
    for b in (2, 3, 5, 3):
        x = torch.randn(b, 8)
        with torch.no_grad():
            torch.testing.assert_close(c(x), m(x), rtol=1e-5, atol=1e-6)


def _train(model, batches, compiled: bool, opt_cls, **opt_kw):
    opt = opt_cls(model.parameters(), **opt_kw)
    f = torch.compile(model, backend=ge_mlir_backend) if compiled else model
    losses = []
    for x, y in batches:
        opt.zero_grad()
        loss = F.cross_entropy(f(x).reshape(-1, 256), y.reshape(-1))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("opt", ["sgd", "adamw"])
def test_gpt2_training_matches_eager(opt):
    """GPT-2-style decoder (2 layers, hidden 64, 4 heads, seq 32, batch 4, vocab 256), 5 steps:
    every loss within 1e-4 relative of eager; with SGD-momentum also every parameter within 1e-4 of
    its tensor's largest magnitude. (AdamW's parameters are compared in bench/train.py: an update
    divides by sqrt(v) + eps, so a gradient that is exactly zero in theory, such as the key bias
    one, moves its parameter by about lr times the sign of rounding noise on either side.)"""
    torch.manual_seed(0)
    m0 = Gpt2Decoder(vocab=256, d=64, heads=4, layers=2, seq=32)
    batches = [(torch.randint(0, 256, (4, 32)), torch.randint(0, 256, (4, 32))) for _ in range(5)]
    cls, kw = ((torch.optim.SGD, {"lr": 0.05, "momentum": 0.9}) if opt == "sgd"
               else (torch.optim.AdamW, {"lr": 1e-3}))
    ma, mb = copy.deepcopy(m0), copy.deepcopy(m0)
    a = _train(ma, batches, True, cls, **kw)
    b = _train(mb, batches, False, cls, **kw)
    for x, y in zip(a, b):
        assert abs(x - y) <= 1e-4 * abs(y)
    if opt == "sgd":
        for (name, p), q in zip(ma.named_parameters(), mb.parameters()):
            assert (p - q).abs().max() <= 1e-4 * q.abs().max(), name


def test_unconvertible_op_falls_back_with_one_warning():
    def f(a):
        return torch.special.bessel_j0(a) + 1

    x = torch.randn(4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.compile(f, backend=ge_mlir_backend)(x)
    torch.testing.assert_close(out, f(x))
    mine = [w for w in caught if "ge_mlir" in str(w.message)]
    assert len(mine) == 1 and "bessel_j0" in str(mine[0].message) and "at node" in str(mine[0].message)


def test_strict_makes_fallback_an_error(monkeypatch):
    torch._dynamo.reset()

    def f(a):
        return torch.special.bessel_j0(a) * 3

    with pytest.raises(Exception) as e:
        torch.compile(f, backend=backend(strict=True))(torch.randn(4))
    assert isinstance(e.value, UnsupportedFxOpsError) or "bessel_j0" in str(e.value)
    monkeypatch.setenv("GE_MLIR_STRICT", "1")
    torch._dynamo.reset()
    with pytest.raises(Exception) as e:
        torch.compile(f, backend="ge_mlir")(torch.randn(5))
    assert "bessel_j0" in str(e.value)


def test_unknown_backend_option_is_refused():
    with pytest.raises(Exception, match="unknown ge_mlir backend option"):
        backend(stric=True)
