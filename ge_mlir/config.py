"""The ge-mlir JSON configuration (schema: ``docs/config.md``).

One JSON object configures the graph optimizations of ``ge_mlir.compile``
(``options={"config": path_or_dict}``), ``ge-compile --config`` and
``ge-opt --config``::

    {
      "graphOptions": {"graphFusion": true},
      "fusionSwitch": {"ge-fuse-conv-bn": "off"},
      "passes": {"ge-canonicalize": {"enabled": true, "options": {"cse": false}}},
      "constantFolding": {"enabled": true, "sizeLimit": 1048576, "aggressive": true},
      "layout": {"inputFormat": "NCHW", "outputFormat": "NCHW",
                 "forbidTransData": [["ge.conv2d", "ge.relu"]]},
      "precisionMode": "allow_fp16",
      "passModules": ["my_pkg.passes", "./local_passes.py"],
      "verifyGraph": false
    }

Every key is optional. :func:`load_config` validates the structure and values
and raises :class:`ConfigError` naming the bad key (as a dotted path) and the
valid keys or expected values. Pass names (``fusionSwitch``, ``passes``) are
checked against the registry when a pipeline is built from the config, after
the ``passModules`` are imported (:func:`load_pass_modules`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config_base import (  # noqa: F401 - re-exported: the config's public names live on here
    DATA_FORMATS,
    DEFAULT_PRECISION_MODE,
    PRECISION_MODES,
    PRECISION_SAFE_MODES,
    ConfigError,
    ConfigWarning,
    PassConfig,
    _Checker,
    _ge_op_names,
    _kind,
    _shown,
    did_you_mean,
)

if TYPE_CHECKING:
    from .options import CompileOptions

#: Environment variable naming user pass modules (comma-separated module names or .py paths).
PASS_MODULES_ENV = "GE_MLIR_PASS_MODULES"

#: Key of ``fusionSwitch`` that switches every fusion pass (as ATC's ``"ALL"``).
FUSION_SWITCH_ALL = "ALL"

#: GE's memory and recompute sections (``../shared/GE_WORKFLOW.md`` key names: dotted top-level keys).
MEMORY_SECTION = "ge.exec.memory"
RECOMPUTE_SECTION = "ge.exec.recompute"

#: ge-mlir's own top-level keys; GE's dotted keys (``ge_mlir.config_ge.GE_KEYS``) load next to them.
TOP_LEVEL_KEYS: tuple[str, ...] = (
    "graphOptions", "fusionSwitch", "passes", "constantFolding", "layout",
    "precisionMode", "passModules", "verifyGraph",
)
_SECTION_KEYS: dict[str, tuple[str, ...]] = {
    "graphOptions": ("graphFusion",),
    "constantFolding": ("enabled", "sizeLimit", "aggressive"),
    "layout": ("inputFormat", "outputFormat", "forbidTransData"),
}
_PASS_KEYS: tuple[str, ...] = ("enabled", "options")



# --- validation -------------------------------------------------------------


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
    #: The parallel strategy (``ge.exec.parallel`` and the GE hybrid/pipeline keys), as its JSON
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

    @staticmethod
    def from_dict(data: Mapping[str, Any], source: str | None = None) -> Config:
        return _parse(data, source)

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


def load_config(config: Config | Mapping[str, Any] | str | os.PathLike[str] | None) -> Config:
    """A :class:`Config` from a path to a JSON file, a dict, a Config or None (defaults)."""
    if config is None:
        return Config()
    if isinstance(config, Config):
        return config
    if isinstance(config, Mapping):
        return _parse(config, None)
    if isinstance(config, (str, os.PathLike)):
        path = Path(config)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise ConfigError(f"cannot read config file: {e.strerror or e}", source=str(path)) from None
        except UnicodeDecodeError as e:
            raise ConfigError(f"not a UTF-8 JSON file ({e.reason} at byte {e.start})", source=str(path)) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ConfigError(f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}", source=str(path)) from None
        return _parse(data, str(path))
    raise ConfigError(f"expected a JSON file path, a dict or a Config, got {type(config).__name__}")


def _parse(data: Any, source: str | None) -> Config:
    from .config_ge import GE_ROOTS, apply_ge_keys, is_ge_key

    ck = _Checker(source)
    if not isinstance(data, Mapping):
        raise ck.fail("", f"expected an object with keys {', '.join(TOP_LEVEL_KEYS)} or GE keys "
                          f"({', '.join(GE_ROOTS)}...); got {_kind(data)}")
    top = {k: v for k, v in data.items() if not (isinstance(k, str) and is_ge_key(k))}
    for k in top:
        if isinstance(k, str) and k.startswith("ge."):
            from .config_ge import GE_KEYS, _PREFIXES

            valid = sorted({*GE_KEYS, *_PREFIXES})
            raise ConfigError(f"unknown GE key '{k}'{did_you_mean(k, valid)}; GE keys: {', '.join(valid)}",
                              key=k, source=source)
    ck.obj("", top, TOP_LEVEL_KEYS + GE_ROOTS)
    cfg = Config(source=source)

    if "graphOptions" in top:
        sec = ck.obj("graphOptions", top["graphOptions"], _SECTION_KEYS["graphOptions"])
        if "graphFusion" in sec:
            cfg.graph_fusion = ck.boolean("graphOptions.graphFusion", sec["graphFusion"])

    if "fusionSwitch" in top:
        sw = top["fusionSwitch"]
        if not isinstance(sw, Mapping):
            raise ck.fail("fusionSwitch", f'expected an object {{"<pass-name>" | "ALL": "on" | "off"}}, got {_kind(sw)}')
        for name, value in sw.items():
            cfg.fusion_switch[str(name)] = ck.switch(f"fusionSwitch.{name}", value)

    if "passes" in top:
        ps = top["passes"]
        if not isinstance(ps, Mapping):
            raise ck.fail("passes", f'expected an object {{"<pass-name>": {{"enabled": bool, "options": {{...}}}}}}, got {_kind(ps)}')
        for name, entry in ps.items():
            key = f"passes.{name}"
            entry = ck.obj(key, entry, _PASS_KEYS)
            pc = PassConfig()
            if "enabled" in entry:
                pc.enabled = ck.boolean(f"{key}.enabled", entry["enabled"])
            if "options" in entry:
                opts = entry["options"]
                if not isinstance(opts, Mapping):
                    raise ck.fail(f"{key}.options", f"expected an object of option values, got {_kind(opts)}")
                for oname, ovalue in opts.items():
                    if not isinstance(ovalue, (bool, int, float, str, list)) or (
                        isinstance(ovalue, list) and not all(isinstance(x, (str, int, float)) for x in ovalue)
                    ):
                        raise ck.fail(f"{key}.options.{oname}",
                                      f"expected a boolean, number, string or list of scalars, got {_kind(ovalue)}")
                    pc.options[str(oname).replace("_", "-")] = ovalue
            cfg.passes[str(name)] = pc

    if "constantFolding" in top:
        sec = ck.obj("constantFolding", top["constantFolding"], _SECTION_KEYS["constantFolding"])
        cf = cfg.constant_folding
        if "enabled" in sec:
            cf.enabled = ck.boolean("constantFolding.enabled", sec["enabled"])
        if "aggressive" in sec:
            cf.aggressive = ck.boolean("constantFolding.aggressive", sec["aggressive"])
        if "sizeLimit" in sec:
            v = sec["sizeLimit"]
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise ck.fail("constantFolding.sizeLimit",
                              f"expected a non-negative integer (elements of the largest folded constant) or null, "
                              f"got {_shown(v)}")
            cf.size_limit = v

    if "layout" in top:
        sec = ck.obj("layout", top["layout"], _SECTION_KEYS["layout"])
        lay = cfg.layout
        for jkey, attr in (("inputFormat", "input_format"), ("outputFormat", "output_format")):
            if jkey in sec and sec[jkey] is not None:
                setattr(lay, attr, ck.choice(f"layout.{jkey}", sec[jkey], DATA_FORMATS))
        if "forbidTransData" in sec:
            pairs = sec["forbidTransData"]
            key = "layout.forbidTransData"
            if not isinstance(pairs, list):
                raise ck.fail(key, f'expected a list of [producer, consumer] ge op name pairs such as '
                                   f'[["ge.conv2d", "ge.relu"]], got {_kind(pairs)}')
            ops = None
            for i, pair in enumerate(pairs):
                if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                    raise ck.fail(f"{key}[{i}]", f'expected a pair of ge op names such as ["ge.conv2d", "ge.relu"], '
                                                 f"got {_shown(pair)}")
                ops = ops or _ge_op_names()
                for j, name in enumerate(pair):
                    if name not in ops:
                        raise ck.fail(f"{key}[{i}][{j}]",
                                      f"unknown ge op '{name}'{did_you_mean(name, ops)}; expected a ge op name such as ge.conv2d")
                lay.forbid_trans_data.append((pair[0], pair[1]))

    if "precisionMode" in top:
        cfg.precision_mode = ck.choice("precisionMode", top["precisionMode"], PRECISION_MODES)

    if "passModules" in top:
        mods = top["passModules"]
        if not isinstance(mods, list) or not all(isinstance(m, str) and m.strip() for m in mods):
            raise ck.fail("passModules", 'expected a list of module names or .py paths such as '
                                         f'["my_pkg.passes", "./my_passes.py"], got {_shown(mods)}')
        cfg.pass_modules = [m.strip() for m in mods]

    if "verifyGraph" in top:
        cfg.verify_graph = ck.boolean("verifyGraph", top["verifyGraph"])

    apply_ge_keys(cfg, data, ck)
    for key in cfg.inert_keys:
        warnings.warn(f"config key {key}", ConfigWarning, stacklevel=3)
    return cfg


def resolve_options(config: Config, options: "CompileOptions") -> "CompileOptions":
    """``options`` with its unset (None) memory and recompute fields taken from ``config``'s
    ``ge.exec.memory`` / ``ge.exec.recompute`` sections: explicit compile options win."""
    import dataclasses

    mem, rec = config.memory, config.recompute
    changes: dict[str, Any] = {}
    budget = mem.arena_budget_mb(options.memory_budget_mb if options.memory_budget_mb is not None else mem.budget_mb)
    if budget is not None and budget <= 0:
        raise ConfigError(f"ge.exec.graphPartitioner leaves no memory for activations: {budget:g} MiB of the "
                          f"budget after reserved_memory_mb and activation_memory_factor", source=config.source)
    if budget != options.memory_budget_mb:
        changes["memory_budget_mb"] = budget
    if options.memory_reuse_strategy is None and mem.reuse_strategy is not None:
        changes["memory_reuse_strategy"] = mem.reuse_strategy
    if options.memory_estimation is None and mem.enable_memory_estimation:
        changes["memory_estimation"] = True
    if options.recompute is None and rec.enable:
        changes["recompute"] = True
    if options.recompute_checkpoint_ops is None and rec.checkpoint_ops:
        changes["recompute_checkpoint_ops"] = tuple(rec.checkpoint_ops)
    if options.recompute_ratio is None and rec.ratio is not None:
        changes["recompute_ratio"] = rec.ratio
    return dataclasses.replace(options, **changes) if changes else options


# --- user pass modules ------------------------------------------------------

_LOADED_PATHS: dict[str, Any] = {}


def _import_one(spec: str, base_dir: Path, origin: str, source: str | None) -> Any:
    is_path = spec.endswith(".py") or os.sep in spec or "/" in spec
    try:
        if not is_path:
            return importlib.import_module(spec)
        path = Path(spec).expanduser()
        if not path.is_absolute():
            path = base_dir / path
        path = path.resolve()
        if str(path) in _LOADED_PATHS:
            return _LOADED_PATHS[str(path)]
        if not path.is_file():
            raise ConfigError(f"{origin}: no such pass module file: {path}", key=origin, source=source)
        digest = hashlib.sha1(str(path).encode()).hexdigest()[:8]
        mod_name = f"ge_mlir_user_passes.{path.stem}_{digest}"
        mspec = importlib.util.spec_from_file_location(mod_name, path)
        assert mspec is not None and mspec.loader is not None
        module = importlib.util.module_from_spec(mspec)
        sys.modules[mod_name] = module
        try:
            mspec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(mod_name, None)
            raise
        _LOADED_PATHS[str(path)] = module
        return module
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001 - any import failure becomes a ConfigError
        raise ConfigError(f"{origin}: cannot import pass module '{spec}': {type(e).__name__}: {e}",
                          key=origin, source=source) from None


def pass_module_specs(config: Config | None = None, environ: Mapping[str, str] | None = None) -> list[tuple[str, str, Path]]:
    """(spec, origin, base directory) of every user pass module, env var first."""
    env = os.environ if environ is None else environ
    specs: list[tuple[str, str, Path]] = []
    for item in env.get(PASS_MODULES_ENV, "").split(","):
        if item.strip():
            specs.append((item.strip(), PASS_MODULES_ENV, Path.cwd()))
    if config is not None:
        for i, item in enumerate(config.pass_modules):
            specs.append((item, f"passModules[{i}]", config.base_dir))
    return specs


def load_pass_modules(config: Config | None = None, environ: Mapping[str, str] | None = None) -> list[Any]:
    """Imports the user pass modules named by ``$GE_MLIR_PASS_MODULES`` and
    ``config.pass_modules`` (importing registers their passes). Modules are
    imported once per process; a failing import raises :class:`ConfigError`
    naming the module and where it was listed."""
    mods = []
    for spec, origin, base in pass_module_specs(config, environ):
        source = config.source if config is not None and origin != PASS_MODULES_ENV else None
        mods.append(_import_one(spec, base, origin, source))
    return mods
