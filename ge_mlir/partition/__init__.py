"""Partitioning: one optimized ge graph -> one part per rank, with its communication.

Tensor, data and pipeline parallelism as ge passes (``ge-partition-tensor``,
``ge-partition-data``, ``ge-partition-pipeline``) on upstream's ``shard``
dialect, then ``ge-specialize-rank`` keeps one rank's part (its stage, its
weight slices). :mod:`ge_mlir.partition.plan` builds the whole
:class:`ExecutionPlan` from a :class:`ParallelStrategy`; docs/parallel.md.
"""

from ..parallel_strategy import ParallelStrategy, ShardRule, StrategyError, parse_strategy

__all__ = ["ParallelStrategy", "ShardRule", "StrategyError", "parse_strategy"]
