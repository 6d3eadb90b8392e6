"""Training-step time of ge-mlir against torch eager and inductor, same process, interleaved runs.

    python bench/train.py [--models gpt2,resnet] [--runs 20] [--threads 1,2]

Per model (bench/models.py, random weights): a GPT-2-style decoder (2 layers, hidden 64, 4 heads,
seq 32, batch 4, vocab 256) and the ResNet-style CNN (two BasicBlocks with batch norm in training
mode, batch 8, 3x32x32, 10 classes), one training step (zero_grad, forward, cross-entropy,
backward, AdamW step) of each contender in turn after warm-up steps:

* ``eager``: torch eager;
* ``ge_mlir``: ``torch.compile(model, backend="ge_mlir")``, torch's optimizer;
* ``inductor``: ``torch.compile(model)`` (torch's default CPU backend), when it works here;
* ``ge_mlir step``: ``ge_mlir.training.compile_train_step`` (forward, backward and the AdamW
  update as one compiled graph).

``--numerics N`` instead trains each model N steps from the same weights with SGD-momentum and
with AdamW, with and without gradient accumulation over 4 microbatches, through
``compile_train_step``, ``torch.compile(backend="ge_mlir")`` and inductor (the reference: what
torch's own compiler gives), and prints the largest relative loss difference to eager and, per
parameter tensor, the largest difference over the tensor's largest magnitude.

Each contender trains its own copy of the model; thread counts are set with
``torch.set_num_threads`` and ge-mlir's ``num_threads``. Prints median ms per step and the ratio to
eager. A benchmark, not a test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from models import Gpt2Decoder, SmallResNet  # noqa: E402
from tables import print_table  # noqa: E402


def _models():
    torch.manual_seed(0)
    gpt = Gpt2Decoder(vocab=256, d=64, heads=4, layers=2, seq=32)
    gpt_batch = (torch.randint(0, 256, (4, 32)), torch.randint(0, 256, (4, 32)))
    cnn = SmallResNet()
    cnn_batch = (torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,)))
    return {
        "gpt2": (gpt, gpt_batch, lambda out, y: F.cross_entropy(out.reshape(-1, 256), y.reshape(-1))),
        "resnet": (cnn, cnn_batch, lambda out, y: F.cross_entropy(out, y)),
    }


def _compiled_stepper(model, batch, loss_fn, threads):
    from ge_mlir.training import compile_train_step

    step = compile_train_step(model, lambda m, x, y: loss_fn(m(x), y), torch.optim.AdamW(model.parameters(), lr=1e-3),
                              batch, options={"num_threads": threads})
    return lambda: step(*batch)


def _stepper(model, batch, loss_fn, wrap):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    f = wrap(model)
    x, y = batch

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(f(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


def _medians(fns, runs: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        for fn in fns:
            fn()
    times = [[] for _ in fns]
    for _ in range(runs):
        for k, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            times[k].append((time.perf_counter() - t) * 1e3)
    return [statistics.median(t) for t in times]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="gpt2,resnet")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--numerics", type=int, default=0, metavar="N")
    ap.add_argument("--sgd-lr", type=float, default=0.05, help="SGD's learning rate in --numerics")
    args = ap.parse_args(argv)
    models = _models()
    if args.numerics:
        from train_numerics import numerics

        numerics(models, args.models.split(","), args.numerics, args.sgd_lr)
        return
    rows = []
    for threads in [int(t) for t in args.threads.split(",")]:
        torch.set_num_threads(threads)
        for name in args.models.split(","):
            model, batch, loss_fn = models[name]
            opts = {"compile_options": {"num_threads": threads}}
            contenders = {
                "eager": lambda m: m,
                "ge_mlir": lambda m: torch.compile(m, backend="ge_mlir", options=opts),
                "inductor": lambda m: torch.compile(m),
            }
            contenders["ge_mlir step"] = None
            steps, names = [], []
            for cname, wrap in contenders.items():
                torch._dynamo.reset()
                if wrap is None:
                    t = time.perf_counter()
                    step = _compiled_stepper(copy.deepcopy(model), batch, loss_fn, threads)
                    print(f"{name} x{threads}: {cname} compile {time.perf_counter() - t:.1f} s", file=sys.stderr)
                else:
                    step = _stepper(copy.deepcopy(model), batch, loss_fn, wrap)
                t = time.perf_counter()
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        step()
                except Exception as e:  # inductor needs a C++ toolchain; say so, do not hide it
                    print(f"{name}: {cname} does not run here: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
                    continue
                print(f"{name} x{threads}: {cname} first step (compile) {time.perf_counter() - t:.1f} s",
                      file=sys.stderr)
                steps.append(step)
                names.append(cname)
            med = _medians(steps, args.runs)
            base = med[names.index("eager")]
            for cname, ms in zip(names, med):
                rows.append([name, str(threads), cname, f"{ms:.2f}", f"{ms / base:.2f}x"])
    print_table(["model", "threads", "contender", "ms/step", "vs eager"], rows)


if __name__ == "__main__":
    main()
