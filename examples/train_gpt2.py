"""Train a small GPT-2-style decoder for 100 steps on random tokens, the whole step compiled once.

    python examples/train_gpt2.py [--steps 100] [--recompute]

The model is bench/models.py's Gpt2Decoder (2 layers, hidden 64, 4 heads, vocabulary 256) at
sequence 32, batch 8; the task is next-token prediction on a fixed set of random sequences, so
the loss falls as the model memorizes them. Forward, backward and the AdamW update run as one
compiled ge graph (``ge_mlir.training.compile_train_step``); the parameters and optimizer states
stay in the step's own arrays, updated in place, until ``state_dict()`` hands them to torch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from models import Gpt2Decoder  # noqa: E402

from ge_mlir.training import compile_train_step  # noqa: E402


def next_token_loss(model: torch.nn.Module, ids: torch.Tensor) -> torch.Tensor:
    logits = model(ids[:, :-1])
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--recompute", action="store_true", help="recompute softmax and matmul activations")
    args = ap.parse_args()
    torch.manual_seed(0)
    model = Gpt2Decoder(vocab=256, d=64, heads=4, layers=2, seq=32).train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    data = torch.randint(0, 256, (4, 8, 33))  # 4 batches of 8 sequences of 33 tokens
    options = {"recompute": True, "recompute_checkpoint_ops": ["Softmax", "MatMul"],
               "recompute_ratio": 0.4} if args.recompute else {}
    start = time.perf_counter()
    step = compile_train_step(model, next_token_loss, optimizer, (data[0],), options=options)
    print(f"compiled in {time.perf_counter() - start:.1f} s; "
          f"{step.in_place[0]} of {step.in_place[1]} updated tensors in place")
    start = time.perf_counter()
    for i in range(1, args.steps + 1):
        loss = step(data[i % len(data)])
        if i == 1 or i % 25 == 0:
            print(f"step {i:4d}  loss {loss:.4f}")
    print(f"{args.steps} steps in {time.perf_counter() - start:.2f} s")
    print(step.memory_report())
    model.load_state_dict(step.state_dict()["model"])  # the trained weights, back in torch


if __name__ == "__main__":
    main()
