"""The schema of the ge-mlir configuration: its typed form (:class:`Config`), the values and key
names of ge-mlir's own JSON keys, the errors, and the checker every key family validates with.

The parsers build on it: :mod:`.native` (ge-mlir's own keys, ``docs/config.md``) and
:mod:`.ge_keys` (the GE-style dotted keys); it imports neither.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GeMlirError
from ..planner_strategies import AGGRESSIVE, PLANNER_STRATEGIES

__all__ = [
    "DATA_FORMATS", "DEFAULT_PRECISION_MODE", "FUSION_SWITCH_ALL", "MEMORY_REUSE_STRATEGIES", "MEMORY_SECTION",
    "PASS_KEYS", "PLANNER_STRATEGIES", "PRECISION_MODES", "PRECISION_SAFE_MODES", "RECOMPUTE_SECTION", "SECTION_KEYS",
    "TOP_LEVEL_KEYS", "AGGRESSIVE", "Checker", "Config", "ConfigError", "ConfigWarning", "ConstantFolding", "Layout",
    "MemoryConfig", "PassConfig", "RecomputeConfig", "did_you_mean", "ge_op_names", "kind_of", "shown",
]

#: ``precisionMode`` values. The precision-safe ones leave passes with
#: ``precision_sensitive = True`` out of the default pipeline.
PRECISION_MODES: tuple[str, ...] = ("FP32", "must_keep_origin_dtype", "allow_fp16", "allow_mix_precision", "force_fp16")
PRECISION_SAFE_MODES: frozenset[str] = frozenset({"FP32", "must_keep_origin_dtype"})
DEFAULT_PRECISION_MODE = "allow_fp16"

#: ``layout.inputFormat`` / ``layout.outputFormat`` values (the ge ``DataFormat`` enum).
DATA_FORMATS: tuple[str, ...] = ("ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_NZ", "HWCN", "NCDHW", "NDHWC")

#: The memory planner's placement strategies, in its tie-break order (on equal arenas the first
#: wins, so greedy-by-size, the CPU target's original planner, keeps its IR unless another is
#: smaller). The names live in ``ge_mlir.planner_strategies`` (layer 0), below both the
#: configuration, which checks them before any planner is loaded, and the planner
#: (``ge_mlir.memory.planner.STRATEGIES`` is the same tuple), which maps each to its implementation.
#: ``memory_reuse_strategy`` values (compile option and ``ge.exec.memory.memory_reuse_strategy``).
MEMORY_REUSE_STRATEGIES: tuple[str, ...] = (AGGRESSIVE, *PLANNER_STRATEGIES)

#: ge-mlir's own top-level keys; the GE-style dotted keys (:data:`.ge_keys.GE_KEYS`) load next to them.
TOP_LEVEL_KEYS: tuple[str, ...] = (
    "graphOptions", "fusionSwitch", "passes", "constantFolding", "layout",
    "precisionMode", "passModules", "verifyGraph",
)
#: The keys of ge-mlir's own sections.
SECTION_KEYS: dict[str, tuple[str, ...]] = {
    "graphOptions": ("graphFusion",),
    "constantFolding": ("enabled", "sizeLimit", "aggressive"),
    "layout": ("inputFormat", "outputFormat", "forbidTransData"),
}
#: The keys of ``passes.<name>``.
PASS_KEYS: tuple[str, ...] = ("enabled", "options")
#: Key of ``fusionSwitch`` that switches every fusion pass (as ATC's ``"ALL"``).
FUSION_SWITCH_ALL = "ALL"
#: The memory and recompute sections of the walkthrough's keys (:mod:`.ge_keys`), which
#: :meth:`Config.to_dict` writes back.
MEMORY_SECTION = "ge.exec.memory"
RECOMPUTE_SECTION = "ge.exec.recompute"

_SWITCH_VALUES = ('"on"', '"off"', "true", "false")


class ConfigWarning(UserWarning):
    """A config key that ge-mlir accepts but that changes nothing (named in the message)."""


class ConfigError(GeMlirError):
    """An invalid configuration: ``key`` is the dotted path of the bad entry."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None) -> None:
        self.key = key
        self.source = source
        prefix = f"config {source}: " if source else "config: "
        super().__init__(prefix + message)


# --- the typed form ------------------------------------------------------------


@dataclass
class PassConfig:
    """``passes.<name>``: ``enabled`` (None: not set) and option values."""

    enabled: bool | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class ConstantFolding:
    """``constantFolding``; None: ge-fold-constants' own default."""

    enabled: bool = True
    size_limit: int | None = None
    aggressive: bool | None = None
    #: ``"FP32"``: fold f16/bf16 subgraphs in f32, rounding each result once (GE's
    #: ``ge.exec.precision.constant_folding_fp_mode``); None/"origin": in the tensors' type.
    fp_mode: str | None = None


@dataclass
class Layout:
    input_format: str | None = None
    output_format: str | None = None
    forbid_trans_data: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class MemoryConfig:
    """``ge.exec.memory``; None: the compile option's own default."""

    #: Estimate the memory on the ge graph before lowering (``CompiledModel.memory_estimate``).
    enable_memory_estimation: bool = False
    budget_mb: float | None = None
    reuse_strategy: str | None = None
    #: ``ge.exec.graphPartitioner``: the activation arena's share of the budget left after
    #: ``reserved_mb`` (None: all of it).
    activation_factor: float | None = None
    reserved_mb: float | None = None

    def arena_budget_mb(self, budget_mb: float | None) -> float | None:
        """The budget the planned arena is checked against, from a device budget."""
        if budget_mb is None or (self.activation_factor is None and self.reserved_mb is None):
            return budget_mb
        return (budget_mb - (self.reserved_mb or 0.0)) * (self.activation_factor or 1.0)


@dataclass
class RecomputeConfig:
    """``ge.exec.recompute``."""

    enable: bool = False
    checkpoint_ops: list[str] = field(default_factory=list)
    #: The most extra FLOPs rematerialization may add, as a share of the graph's FLOPs (0..1).
    ratio: float | None = None


@dataclass
class Config:
    """A validated configuration (defaults: everything on, nothing extra)."""

    graph_fusion: bool = True
    fusion_switch: dict[str, bool] = field(default_factory=dict)
    passes: dict[str, PassConfig] = field(default_factory=dict)
    constant_folding: ConstantFolding = field(default_factory=ConstantFolding)
    layout: Layout = field(default_factory=Layout)
    precision_mode: str = DEFAULT_PRECISION_MODE
    pass_modules: list[str] = field(default_factory=list)
    verify_graph: bool = False
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    recompute: RecomputeConfig = field(default_factory=RecomputeConfig)
    #: The parallel strategy (``ge.exec.parallel`` and the walkthrough's hybrid/pipeline keys), as its JSON
    #: form; ``ge_mlir.partition.parse_strategy`` validates it. Empty: one device.
    parallel: dict[str, Any] = field(default_factory=dict)
    #: GE keys accepted that change nothing in ge-mlir, each as "key: why" (warned about at load).
    inert_keys: list[str] = field(default_factory=list)
    #: Where the config came from (a path, or None for a dict); relative
    #: ``passModules`` paths are resolved against its directory.
    source: str | None = None

    @property
    def precision_safe(self) -> bool:
        return self.precision_mode in PRECISION_SAFE_MODES

    @property
    def base_dir(self) -> Path:
        return Path(self.source).resolve().parent if self.source else Path.cwd()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``load_config(cfg.to_dict())`` round-trips)."""
        out: dict[str, Any] = {
            "graphOptions": {"graphFusion": self.graph_fusion},
            "fusionSwitch": {k: "on" if v else "off" for k, v in self.fusion_switch.items()},
            "passes": {},
            "constantFolding": {"enabled": self.constant_folding.enabled},
            "layout": {"forbidTransData": [list(p) for p in self.layout.forbid_trans_data]},
            "precisionMode": self.precision_mode,
            "passModules": list(self.pass_modules),
            "verifyGraph": self.verify_graph,
        }
        for name, pc in self.passes.items():
            entry: dict[str, Any] = {}
            if pc.enabled is not None:
                entry["enabled"] = pc.enabled
            if pc.options:
                entry["options"] = dict(pc.options)
            out["passes"][name] = entry
        if self.constant_folding.size_limit is not None:
            out["constantFolding"]["sizeLimit"] = self.constant_folding.size_limit
        if self.constant_folding.aggressive is not None:
            out["constantFolding"]["aggressive"] = self.constant_folding.aggressive
        if self.layout.input_format:
            out["layout"]["inputFormat"] = self.layout.input_format
        if self.layout.output_format:
            out["layout"]["outputFormat"] = self.layout.output_format
        mem = {"enable_memory_estimation": self.memory.enable_memory_estimation}
        if self.memory.budget_mb is not None:
            mem["memory_budget_mb"] = self.memory.budget_mb
        if self.memory.reuse_strategy is not None:
            mem["memory_reuse_strategy"] = self.memory.reuse_strategy
        if self.memory.activation_factor is not None or self.memory.reserved_mb is not None:
            part = {}
            if self.memory.activation_factor is not None:
                part["activation_memory_factor"] = self.memory.activation_factor
            if self.memory.reserved_mb is not None:
                part["reserved_memory_mb"] = self.memory.reserved_mb
            out["ge.exec.graphPartitioner"] = part
        if self.constant_folding.fp_mode is not None:
            out["ge.exec.precision"] = {"constant_folding_fp_mode": self.constant_folding.fp_mode}
        out[MEMORY_SECTION] = mem
        rec: dict[str, Any] = {"enable": self.recompute.enable, "checkpoint_ops": list(self.recompute.checkpoint_ops)}
        if self.recompute.ratio is not None:
            rec["recompute_ratio"] = self.recompute.ratio
        out[RECOMPUTE_SECTION] = rec
        if self.parallel:
            out["ge.exec.parallel"] = dict(self.parallel)
        return out


# --- validation -------------------------------------------------------------


def kind_of(value: Any) -> str:
    """What ``value`` is, as messages name it ("a list", "an object", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


class Checker:
    """Checks values of one config (``source``: its file, for the messages) and raises
    :class:`ConfigError` naming the dotted key."""

    def __init__(self, source: str | None) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{key}: {message}" if key else message, key=key or None, source=self.source)

    def obj(self, key: str, value: Any, valid: tuple[str, ...], what: str = "keys") -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected an object with {what} {', '.join(valid)}; got {kind_of(value)}")
        for k in value:
            if not isinstance(k, str) or k not in valid:
                hint = did_you_mean(str(k), valid)
                where = f"in '{key}'" if key else "at the top level"
                raise ConfigError(
                    f"unknown key '{k}' {where}{hint}; valid {what}: {', '.join(valid)}",
                    key=f"{key}.{k}" if key else str(k), source=self.source,
                )
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {shown(value)}")
        return value

    def switch(self, key: str, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("on", "off"):
            return value.lower() == "on"
        raise self.fail(key, f"expected one of {', '.join(_SWITCH_VALUES)}, got {shown(value)}")

    def choice(self, key: str, value: Any, valid: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in valid:
            hint = did_you_mean(value, valid) if isinstance(value, str) else ""
            raise self.fail(key, f"expected one of {', '.join(valid)}, got {shown(value)}{hint}")
        return value


def shown(value: Any) -> str:
    """``value`` as JSON, or its kind when it has no JSON form."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return kind_of(value)


def did_you_mean(name: str, valid: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``valid`` (a case-insensitive match first), or ""."""
    close = [v for v in valid if v.lower() == name.lower()] or difflib.get_close_matches(name, valid, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def ge_op_names() -> tuple[str, ...]:
    """Every ge op name (``ge.conv2d``...), for keys that name ops; loads the generated bindings."""
    from ..dialects import ge

    return tuple(sorted(
        c.OPERATION_NAME for c in vars(ge).values()
        if isinstance(c, type) and isinstance(getattr(c, "OPERATION_NAME", None), str)
        and c.OPERATION_NAME.startswith("ge.")
    ))
