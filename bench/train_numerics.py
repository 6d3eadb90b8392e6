"""``bench/train.py --numerics N``: training numerics of ge-mlir's two routes and of inductor
against torch eager (see bench/train.py)."""

from __future__ import annotations

import copy
import warnings

import torch

#: SGD's learning rate (``--sgd-lr``): 0.05 with momentum 0.9 makes the small CNN's training chaotic
#: (every compiler, inductor too, then drifts from eager by the growth of rounding differences).
SGD_LR = {"lr": 0.05}
OPTIMIZERS = {
    "sgd": lambda p: torch.optim.SGD(p, lr=SGD_LR["lr"], momentum=0.9),
    "adamw": lambda p: torch.optim.AdamW(p, lr=1e-3),
}


def _batches(batch, n, seed=1):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        out.append(tuple(torch.randn(t.shape, generator=g) if t.dtype.is_floating_point
                         else torch.randint(0, int(t.max()) + 1, t.shape, generator=g) for t in batch))
    return out


def _eager_like(model, opt, f, loss_fn, batches, k):
    losses = []
    for x, y in batches:
        opt.zero_grad()
        total = 0.0
        for xs, ys in zip(x.chunk(k), y.chunk(k)):
            loss = loss_fn(f(xs), ys) / k
            loss.backward()
            total += loss.item()
        opt.step()
        losses.append(total)
    return losses


def _route(route, model, opt_name, loss_fn, batches, k):
    if route == "ge_mlir step":
        from ge_mlir.training import compile_train_step

        step = compile_train_step(model, lambda m, x, y: loss_fn(m(x), y), OPTIMIZERS[opt_name](model.parameters()),
                                  batches[0], accumulate=k)
        losses = [step(*b) for b in batches]
        step.sync_to_model()
        return losses
    torch._dynamo.reset()
    f = model if route == "eager" else torch.compile(model, backend="ge_mlir" if route == "ge_mlir backend" else "inductor")
    return _eager_like(model, OPTIMIZERS[opt_name](model.parameters()), f, loss_fn, batches, k)


def numerics(models, names, steps, sgd_lr: float = 0.05):
    SGD_LR["lr"] = sgd_lr
    print(f"{'model':7s} {'optimizer':9s} {'accum':>5s} {'route':15s} {'loss rel':>9s} {'param rel':>9s}  tensors over 1e-4")
    for name in names:
        model, batch, loss_fn = models[name]
        batches = _batches(batch, steps)
        for opt_name in OPTIMIZERS:
            for k in (1, 4):
                ref = copy.deepcopy(model)
                want = _route("eager", ref, opt_name, loss_fn, batches, k)
                for route in ("ge_mlir step", "ge_mlir backend", "inductor"):
                    m = copy.deepcopy(model)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        try:
                            got = _route(route, m, opt_name, loss_fn, batches, k)
                        except Exception as e:
                            print(f"{name:7s} {opt_name:9s} {k:5d} {route:15s} failed: {type(e).__name__}: {e}"[:200])
                            continue
                    loss_rel = max(abs(a - b) / abs(b) for a, b in zip(got, want))
                    worst, over = 0.0, []
                    for (pname, p), q in zip(m.state_dict().items(), ref.state_dict().values()):
                        if not p.dtype.is_floating_point:
                            continue
                        r = float((p - q).abs().max() / q.abs().max().clamp_min(1e-12))
                        worst = max(worst, r)
                        if r > 1e-4:
                            over.append(f"{pname} {r:.1e}")
                    print(f"{name:7s} {opt_name:9s} {k:5d} {route:15s} {loss_rel:9.1e} {worst:9.1e}  {', '.join(over)}",
                          flush=True)
