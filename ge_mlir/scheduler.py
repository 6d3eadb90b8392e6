"""Pipeline schedulers: which rank runs each stage and in what order each rank works.

The registry depends on nothing else in ge_mlir: the parallel strategy
(:mod:`ge_mlir.parallel_strategy`) checks schedule names against it while the
configuration is read, below the partitioner (:mod:`ge_mlir.partition.plan`) that runs them.

A scheduler is a class with three methods (subclass :class:`Scheduler` for the
defaults) registered by name; the strategy's ``"scheduler"`` (or
``"schedule"``) key selects it::

    import ge_mlir.scheduler as scheduler

    class Affinity(scheduler.Scheduler):
        '''Keeps stages that exchange the most bytes on the same rank.'''
        def assign(self, num_stages, num_ranks, edges):
            ...
    scheduler.register("affinity", Affinity)

Work items are ``(stage, microbatch)`` pairs. Data dependencies (a stage's
boundary tensors come from earlier stages) are always honoured by the runtime;
:meth:`Scheduler.extra_deps` adds ordering on top (e.g. ``1f1b`` bounds the
microbatches in flight). ge-mlir runs inference only (no backward pass), so
``gpipe`` and ``1f1b`` run the same forward steps; ``1f1b`` keeps at most
``num_ranks`` microbatches in flight, so the boundary buffers held stay bounded
by the pipeline depth instead of the microbatch count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["Scheduler", "register", "registered", "get", "theoretical_bubble"]

WorkItem = tuple[int, int]  # (stage, microbatch)


class Scheduler:
    """The default policy (GPipe): stage ``s`` on pipeline rank ``s % num_ranks``, each rank
    running its stages' microbatches in order."""

    name = "gpipe"

    def assign(self, num_stages: int, num_ranks: int, edges: dict[tuple[int, int], int]) -> list[int]:
        """The pipeline rank of each stage. ``edges[(a, b)]`` is the bytes stage ``a`` sends
        stage ``b`` per microbatch."""
        return [s % num_ranks for s in range(num_stages)]

    def order(self, rank: int, stages: Sequence[int], num_microbatches: int, num_ranks: int) -> list[WorkItem]:
        """The order in which ``rank`` runs its work items (``stages``: its stages, ascending)."""
        return [(s, mb) for s in stages for mb in range(num_microbatches)]

    def extra_deps(self, item: WorkItem, num_stages: int, num_microbatches: int, num_ranks: int) -> list[WorkItem]:
        """Work items that must finish before ``item`` starts, besides its data."""
        return []

    def bubble(self, num_stages: int, num_microbatches: int, num_ranks: int) -> float:
        """The idle share of the pipeline's ranks if every stage took the same time."""
        return theoretical_bubble("gpipe", num_ranks, num_microbatches, max(1, num_stages // max(1, num_ranks)))


class Sequential(Scheduler):
    """One microbatch at a time through every stage (no overlap): the baseline."""

    name = "sequential"

    def order(self, rank, stages, num_microbatches, num_ranks):
        return [(s, mb) for mb in range(num_microbatches) for s in stages]

    def extra_deps(self, item, num_stages, num_microbatches, num_ranks):
        stage, mb = item
        return [(num_stages - 1, mb - 1)] if stage == 0 and mb > 0 else []

    def bubble(self, num_stages, num_microbatches, num_ranks):
        return theoretical_bubble("sequential", num_ranks, num_microbatches, 1)


class OneFOneB(Scheduler):
    """1F1B's forward half: at most ``num_ranks`` microbatches between the first and the last stage."""

    name = "1f1b"

    def extra_deps(self, item, num_stages, num_microbatches, num_ranks):
        stage, mb = item
        return [(num_stages - 1, mb - num_ranks)] if stage == 0 and mb >= num_ranks else []


class Interleaved(Scheduler):
    """Virtual stages (Megatron's interleaved schedule): rank ``r`` holds stages ``r, r + p,
    r + 2p, ...`` and runs microbatches in groups of ``p`` per model chunk."""

    name = "interleaved"

    def order(self, rank, stages, num_microbatches, num_ranks):
        out = []
        for g in range(0, num_microbatches, num_ranks):
            for s in stages:
                out += [(s, mb) for mb in range(g, min(g + num_ranks, num_microbatches))]
        return out

    def bubble(self, num_stages, num_microbatches, num_ranks):
        return theoretical_bubble("interleaved", num_ranks, num_microbatches, max(1, num_stages // num_ranks))


_REGISTRY: dict[str, type[Any]] = {"sequential": Sequential, "gpipe": Scheduler, "1f1b": OneFOneB,
                                   "interleaved": Interleaved}


def register(name: str, cls: type[Any]) -> None:
    """Registers a scheduler class under ``name`` (selected by the strategy's ``"scheduler"``)."""
    if not isinstance(name, str) or not name:
        raise ValueError("a scheduler needs a non-empty name")
    missing = [m for m in ("assign", "order", "extra_deps", "bubble") if not callable(getattr(cls, m, None))]
    if missing:
        raise TypeError(f"scheduler {name!r} lacks {', '.join(missing)} (subclass ge_mlir.scheduler.Scheduler)")
    _REGISTRY[name] = cls


def registered() -> list[str]:
    return list(_REGISTRY)


def get(name: str) -> Scheduler:
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise KeyError(f"unknown scheduler {name!r} (registered: {', '.join(_REGISTRY)})") from None


def theoretical_bubble(schedule: str, p: int, m: int, v: int = 1) -> float:
    """Idle share with equal stage times: GPipe/1F1B ``(p-1)/(m+p-1)``, interleaved with ``v``
    chunks ``(p-1)/(v*m+p-1)``, sequential ``(p-1)/p``."""
    if p <= 1:
        return 0.0
    if schedule == "sequential":
        return (p - 1) / p
    if schedule == "interleaved":
        return (p - 1) / (v * m + p - 1)
    return (p - 1) / (m + p - 1)
