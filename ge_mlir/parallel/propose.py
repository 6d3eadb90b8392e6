"""Proposing a strategy for a model and a device count, with the reasons.

Every factorization ``devices = pipeline * data * tensor`` is tried: the graph
is partitioned (tensor: column/row pairs by data flow; pipeline: cuts balanced
by cost; data: the batch, which must divide), and the step time of the
partitioned graph is estimated from the cost model (:mod:`ge_mlir.partition.cost`):
the slowest stage per microbatch times ``microbatches + stages - 1``, plus the
all-reduce traffic at ``LINK_BYTES_PER_S``. The fastest estimate wins; the
explanation lists each candidate's estimate or why it was refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from ..errors import GeMlirError
from ..partition import sharding as sh
from ..partition.cost import op_cost, value_bytes
from ..parallel_strategy import parse_strategy

__all__ = ["Proposal", "propose"]

#: Bandwidth assumed between ranks (shared memory on one machine is faster; a network slower).
LINK_BYTES_PER_S = 5e9


@dataclass
class Proposal:
    devices: int
    strategy: dict[str, Any]
    estimate_s: float
    reasons: list[str] = field(default_factory=list)
    candidates: list[tuple[dict[str, Any], float | None, str]] = field(default_factory=list)

    def explain(self) -> str:
        lines = [f"proposed for {self.devices} device(s): {parse_strategy(self.strategy).describe()} "
                 f"(estimated {self.estimate_s * 1e3:.3f} ms per step)"]
        lines += [f"  - {r}" for r in self.reasons]
        lines.append("  candidates:")
        for cfg, est, why in self.candidates:
            degrees = f"PP={cfg.get('pipeline_parallel', 1)} DP={cfg.get('data_parallel', 1)} " \
                      f"TP={cfg.get('tensor_parallel', 1)} m={cfg.get('num_microbatches', 1)}"
            lines.append(f"    {degrees:<22} " + (f"{est * 1e3:9.3f} ms  {why}" if est is not None else f"refused: {why}"))
        return "\n".join(lines)

    def json(self) -> str:
        return json.dumps(self.strategy, indent=2)


def _factorizations(n: int) -> list[tuple[int, int, int]]:
    out = []
    for p in range(1, n + 1):
        if n % p:
            continue
        for d in range(1, n // p + 1):
            if (n // p) % d == 0:
                out.append((p, d, n // (p * d)))
    return out


def _estimate(plan: Any) -> tuple[float, str]:
    s = plan.strategy
    module = plan.module.operation
    stage_cost: dict[int, float] = {}
    comm_s = 0.0
    with plan.context:
        for fn in sh.functions(module):
            stage = ir.IntegerAttr(fn.attributes["ge.stage"]).value if "ge.stage" in fn.attributes else 0
            cost = 0.0
            for o in sh.body(fn).operations:
                o = o.operation
                if o.name.startswith("ge.") and o.name != "ge.constant":
                    cost += op_cost(o)[0]
                elif o.name == "shard.all_reduce":
                    t = s.tensor_parallel
                    comm_s += value_bytes(o.result) * 2 * (t - 1) / t / LINK_BYTES_PER_S
                elif o.name in ("shard.all_gather", "shard.send"):
                    comm_s += value_bytes(o.results[0]) / LINK_BYTES_PER_S
            stage_cost[stage] = stage_cost.get(stage, 0.0) + cost
    m, p = s.num_microbatches, s.pipeline_parallel
    slowest = max(stage_cost.values())
    total = slowest * (m + p - 1) + comm_s * m
    why = f"slowest stage {slowest * 1e6:.1f} us/microbatch, communication {comm_s * 1e6:.1f} us/microbatch"
    return total, why


def propose(model: Any, devices: int, options: Any = None) -> Proposal:
    """The fastest strategy (by the cost model) for ``devices`` devices, and why."""
    if devices < 1:
        raise GeMlirError(f"devices must be >= 1, got {devices}")
    from ..compiler.engine import GraphEngine
    from ..partition.plan import partition_graph

    engine = GraphEngine(options, target="cpu")
    graph = engine.optimize(engine.load(model))
    batch = min((i.shape[0] for i in graph.inputs if i.shape), default=1)
    candidates: list[tuple[dict[str, Any], float | None, str]] = []
    best: tuple[float, dict[str, Any], Any] | None = None
    for p, d, t in _factorizations(devices):
        cfg: dict[str, Any] = {"pipeline_parallel": p, "data_parallel": d, "tensor_parallel": t}
        if p > 1:
            per = batch // d if batch % d == 0 else 0
            m = max((k for k in range(1, 4 * p + 1) if per and per % k == 0), default=1)
            cfg.update(num_microbatches=m, schedule="1f1b")
        try:
            plan = partition_graph(graph, parse_strategy(cfg))
            est, why = _estimate(plan)
        except GeMlirError as e:
            candidates.append((cfg, None, e.message.splitlines()[0][:160]))
            continue
        candidates.append((cfg, est, why))
        if best is None or est < best[0]:
            best = (est, cfg, plan)
    if best is None:
        raise GeMlirError(f"no strategy partitions this model over {devices} device(s): "
                          + "; ".join(w for _, _, w in candidates))
    est, cfg, plan = best
    reasons = []
    s = plan.strategy
    if s.tensor_parallel > 1:
        from ..partition.ge_partition_tensor import GePartitionTensorPass

        counts: dict[str, int] = {}
        with graph._context:
            for fn in sh.functions(graph._module.operation):
                for _, strategy in GePartitionTensorPass().strategies(fn, []):
                    counts[strategy] = counts.get(strategy, 0) + 1
        n_ar = sum(1 for r in plan.comm if r.kind == "all_reduce")
        reasons.append(f"tensor parallel {s.tensor_parallel}: {counts.get('col', 0)} column-parallel and "
                       f"{counts.get('row', 0)} row-parallel linear layers (each column layer feeds a row layer "
                       f"through the attention or MLP), {n_ar} all-reduce(s) per microbatch")
    if s.data_parallel > 1:
        reasons.append(f"data parallel {s.data_parallel}: the batch of {batch} splits evenly; weights replicated, "
                       f"no communication inside the graph")
    if s.pipeline_parallel > 1:
        reasons.append(f"pipeline {s.pipeline_parallel} stages cut where the cost model balances them, at the "
                       f"points fewest tensors cross; {s.num_microbatches} microbatches give a bubble of "
                       f"{plan.theoretical_bubble():.3f}")
    if devices == 1 or (s.world_size == 1):
        reasons.append("one device: nothing to split")
    return Proposal(devices, plan.strategy.to_dict(), est, reasons, candidates)
