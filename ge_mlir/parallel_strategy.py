"""The parallel strategy: degrees, per-op sharding rules and the pipeline's schedule.

One JSON object (``ge.exec.parallel`` in a config file, ``parallel=`` of
:func:`ge_mlir.compile`, ``ge-run --parallel cfg.json``)::

    {"tensor_parallel": 2, "data_parallel": 1, "pipeline_parallel": 2,
     "rules": [{"op_name_pattern": "q_proj|k_proj|v_proj", "strategy": "col"},
               {"op_name_pattern": "o_proj", "strategy": "row"}],
     "num_microbatches": 4, "schedule": "1f1b",
     "stage_boundaries": ["node_layer_norm_4"],
     "scheduler": "gpipe"}

Every key is optional; the ranks are ``pipeline_parallel * data_parallel *
tensor_parallel``. docs/parallel.md describes each key.

A layer-0 module (it needs only the errors and the scheduler registry), so the configuration
checks ``ge.exec.parallel`` and the public ``ge_mlir.compile`` chooses the parallel path
without loading the partitioner (:mod:`ge_mlir.partition`, which re-exports these names).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import GeMlirError
from .scheduler import registered

__all__ = ["ParallelStrategy", "ParallelWarning", "ShardRule", "StrategyError", "parse_strategy", "SCHEDULES", "STRATEGIES"]

#: Rule strategies: ``col`` splits a weight's output features (its last dim),
#: ``row`` its input features (first dim), ``replicated`` keeps it whole.
STRATEGIES: tuple[str, ...] = ("col", "row", "replicated")
#: Built-in pipeline schedules (``ge_mlir.scheduler.register`` adds more).
SCHEDULES: tuple[str, ...] = ("sequential", "gpipe", "1f1b", "interleaved")
_KEYS = ("tensor_parallel", "data_parallel", "pipeline_parallel", "rules", "num_microbatches", "schedule",
         "stage_boundaries", "virtual_stages", "scheduler", "auto_tensor_rules")


class ParallelWarning(UserWarning):
    """A strategy that works but may not do what was meant (a rule matching nothing)."""


class StrategyError(GeMlirError):
    """A parallel strategy that cannot be used (names the key and the reason)."""


@dataclass(frozen=True)
class ShardRule:
    """Ops whose node name or weight names match ``pattern`` get ``strategy``;
    ``axis`` (optional) is the weight dimension to split, overriding the default."""

    pattern: str
    strategy: str
    axis: int | None = None

    def matches(self, names: list[str]) -> bool:
        rx = re.compile(self.pattern)
        return any(rx.search(n) for n in names)


@dataclass(frozen=True)
class ParallelStrategy:
    tensor_parallel: int = 1
    data_parallel: int = 1
    pipeline_parallel: int = 1
    rules: tuple[ShardRule, ...] = ()
    num_microbatches: int = 1
    schedule: str = "gpipe"
    #: Node names after which a new pipeline stage starts (empty: balanced by cost).
    stage_boundaries: tuple[str, ...] = ()
    #: Model chunks per pipeline rank (``interleaved``): stages = pipeline_parallel * virtual_stages.
    virtual_stages: int = 1
    #: Pair column- and row-parallel linear layers automatically where no rule applies.
    auto_tensor_rules: bool = True
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def world_size(self) -> int:
        return self.pipeline_parallel * self.data_parallel * self.tensor_parallel

    @property
    def num_stages(self) -> int:
        return self.pipeline_parallel * self.virtual_stages

    @property
    def is_parallel(self) -> bool:
        return self.world_size > 1 or self.num_microbatches > 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tensor_parallel": self.tensor_parallel, "data_parallel": self.data_parallel,
                               "pipeline_parallel": self.pipeline_parallel,
                               "num_microbatches": self.num_microbatches, "schedule": self.schedule,
                               "virtual_stages": self.virtual_stages, "auto_tensor_rules": self.auto_tensor_rules}
        if self.rules:
            out["rules"] = [{"op_name_pattern": r.pattern, "strategy": r.strategy,
                             **({"axis": r.axis} if r.axis is not None else {})} for r in self.rules]
        if self.stage_boundaries:
            out["stage_boundaries"] = list(self.stage_boundaries)
        return out

    def describe(self) -> str:
        parts = [f"{self.world_size} rank(s)"]
        if self.pipeline_parallel > 1:
            parts.append(f"PP={self.pipeline_parallel} ({self.num_stages} stages, {self.num_microbatches} "
                         f"microbatches, {self.schedule})")
        if self.data_parallel > 1:
            parts.append(f"DP={self.data_parallel}")
        if self.tensor_parallel > 1:
            parts.append(f"TP={self.tensor_parallel}")
        return ", ".join(parts)


def _fail(key: str, why: str) -> StrategyError:
    return StrategyError(f"parallel strategy: {key}: {why}")


def _degree(d: Mapping[str, Any], key: str, default: int = 1) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise _fail(key, f"expected an integer >= 1, got {v!r}")
    if v > 4096:
        raise _fail(key, f"{v} is more ranks than ge-mlir runs (at most 4096)")
    return v


def parse_strategy(data: ParallelStrategy | Mapping[str, Any] | str | Path | None) -> ParallelStrategy:
    """A validated :class:`ParallelStrategy` from a dict, a JSON file path or JSON text."""
    if data is None:
        return ParallelStrategy()
    if isinstance(data, ParallelStrategy):
        return data
    if isinstance(data, (str, Path)):
        text = str(data)
        if not text.lstrip().startswith("{"):
            try:
                text = Path(data).read_text(encoding="utf-8")
            except OSError as e:
                raise StrategyError(f"parallel strategy: cannot read {data}: {e.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise StrategyError(f"parallel strategy: not JSON: {e}") from None
        if isinstance(data, Mapping) and "ge.exec.parallel" in data:
            data = data["ge.exec.parallel"]
    if not isinstance(data, Mapping):
        raise StrategyError(f"parallel strategy: expected an object, got {type(data).__name__}")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise _fail(unknown[0], f"unknown key (keys: {', '.join(_KEYS)})")
    rules = []
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list):
        raise _fail("rules", "expected a list of {op_name_pattern, strategy, axis}")
    for i, r in enumerate(raw_rules):
        key = f"rules[{i}]"
        if not isinstance(r, Mapping):
            raise _fail(key, "expected an object {op_name_pattern, strategy, axis}")
        extra = set(r) - {"op_name_pattern", "strategy", "axis"}
        if extra:
            raise _fail(f"{key}.{sorted(extra)[0]}", "unknown key (keys: op_name_pattern, strategy, axis)")
        pat = r.get("op_name_pattern")
        if not isinstance(pat, str) or not pat:
            raise _fail(f"{key}.op_name_pattern", "expected a non-empty regular expression")
        try:
            re.compile(pat)
        except re.error as e:
            raise _fail(f"{key}.op_name_pattern", f"not a regular expression: {e}") from None
        strat = r.get("strategy")
        if strat not in STRATEGIES:
            raise _fail(f"{key}.strategy", f"expected one of {', '.join(STRATEGIES)}, got {strat!r}")
        axis = r.get("axis")
        if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
            raise _fail(f"{key}.axis", f"expected an integer, got {axis!r}")
        rules.append(ShardRule(pat, strat, axis))
    schedule = data.get("schedule", "gpipe")
    scheduler = data.get("scheduler", schedule)
    known = registered()
    for key, v in (("schedule", schedule), ("scheduler", scheduler)):
        if v not in known:
            raise _fail(key, f"unknown schedule {v!r} (schedules: {', '.join(known)})")
    bounds = data.get("stage_boundaries", [])
    if not isinstance(bounds, list) or not all(isinstance(b, str) and b for b in bounds):
        raise _fail("stage_boundaries", "expected a list of node names")
    auto = data.get("auto_tensor_rules", True)
    if not isinstance(auto, bool):
        raise _fail("auto_tensor_rules", f"expected true or false, got {auto!r}")
    s = ParallelStrategy(
        tensor_parallel=_degree(data, "tensor_parallel"), data_parallel=_degree(data, "data_parallel"),
        pipeline_parallel=_degree(data, "pipeline_parallel"), rules=tuple(rules),
        num_microbatches=_degree(data, "num_microbatches"), schedule=scheduler,
        stage_boundaries=tuple(bounds), virtual_stages=_degree(data, "virtual_stages"), auto_tensor_rules=auto)
    if s.world_size > 4096:
        raise _fail("tensor_parallel", f"{s.world_size} ranks in all: at most 4096")
    if s.virtual_stages > 1 and s.schedule in ("sequential", "gpipe", "1f1b"):
        # Built-in schedules other than interleaved put one stage on each rank; a registered
        # scheduler places stages itself.
        raise _fail("virtual_stages", "only the interleaved schedule (or a registered scheduler) runs several "
                                      "stages per rank")
    if s.stage_boundaries and len(s.stage_boundaries) != s.num_stages - 1:
        raise _fail("stage_boundaries", f"{len(s.stage_boundaries)} boundaries for {s.num_stages} stages "
                                        f"(expected {s.num_stages - 1})")
    return s
