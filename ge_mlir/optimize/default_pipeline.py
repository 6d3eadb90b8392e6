"""Default optimization pipelines, built from the pass registry and a config.

The default pipeline of a target is data, not code: every registered pass
whose ``targets`` include the target (or ``"*"``) and whose stage is an
optimization stage (every stage of :data:`ge_mlir.passes.STAGES` except
``partition`` and ``lowering``), in stage order then priority then name, minus the passes the
config switches off. Not included:

* the ``lowering`` stage (``ge-lower-to-linalg``: targets run it themselves);
* verification passes (``ge-verify-*``), unless ``"verifyGraph": true`` or
  ``passes.<name>.enabled`` is true; they then run first (priority 0);
* test passes (``ge-test-*``, reserved for test suites).

Switch precedence, per pass: ``passes.<name>.enabled``, then
``fusionSwitch.<name>``, then the group switches (``fusionSwitch.ALL`` and
``graphOptions.graphFusion`` for fusion passes, ``constantFolding.enabled``
for ``ge-fold-constants``, ``precisionMode`` for precision-sensitive passes).

Options, per pass: the pass's ``target_options[target]`` (e.g.
``ge-transform-layout{format=NHWC}`` on ``ascendc``), then the config's group
keys (``constantFolding.*``, ``layout.*``), then ``passes.<name>.options``.

    default_pipeline("cpu").text
    'builtin.module(ge-fold-constants, ge-canonicalize, ...)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from ..config import (
    FUSION_SWITCH_ALL,
    Config,
    ConfigError,
    did_you_mean,
    load_config,
    load_pass_modules,
)
from ..errors import GeMlirError
from ..passes.pipeline import PipelineElement, parse_pipeline
from ..passes.registry import STAGES, Option, Pass, list_passes
from ..target import TARGETS

#: Stages the default optimization pipelines draw passes from.
# Partition passes need a strategy: the partitioner runs them (ge_mlir.partition), never a default pipeline.
OPTIMIZATION_STAGES: tuple[str, ...] = tuple(s for s in STAGES if s not in ("lowering", "partition"))
#: Targets default pipelines can be printed for (compile supports ``cpu``).
PIPELINE_TARGETS: tuple[str, ...] = tuple(TARGETS)
CONSTANT_FOLDING_PASS = "ge-fold-constants"
LAYOUT_PASS = "ge-transform-layout"


def is_fusion_pass(cls: type[Pass]) -> bool:
    """Fusion passes: ``ge-fuse-*`` names and every :class:`~ge_mlir.passes.FusionPass`."""
    return bool(getattr(cls, "fusion", False)) or cls.name.startswith("ge-fuse-")


def is_verification_pass(cls: type[Pass]) -> bool:
    return cls.name.startswith("ge-verify-")


def applies_to(cls: type[Pass], target: str) -> bool:
    targets = tuple(cls.targets)
    return "*" in targets or "all" in targets or target in targets


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    text = str(value)
    if any(c in text for c in " ,{}()\"'") or not text:
        return f'"{text}"' if '"' not in text else f"'{text}'"
    return text


def _check_option(pass_name: str, opt: Option, value: Any, key: str, source: str | None) -> Any:
    expected = {bool: "true or false", int: "an integer", float: "a number",
                list: "a list of strings (or a comma-separated string)", str: "a string"}[opt.type]
    ok = (
        (opt.type is bool and isinstance(value, bool))
        or (opt.type is int and isinstance(value, int) and not isinstance(value, bool))
        or (opt.type is float and isinstance(value, (int, float)) and not isinstance(value, bool))
        or (opt.type is list and (isinstance(value, (str, list))))
        or (opt.type is str and isinstance(value, str))
    )
    if not ok:
        raise ConfigError(f"{key}: option '{opt.name}' of pass '{pass_name}' expects {expected} "
                          f"({opt.type_name}), got {value!r}", key=key, source=source)
    return value


@dataclass
class PlannedPass:
    """A pass of a default pipeline with the option values the config sets."""

    cls: type[Pass]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.cls.name

    @property
    def text(self) -> str:
        if not self.options:
            return self.name
        return f"{self.name}{{{' '.join(f'{k}={_option_text(v)}' for k, v in self.options.items())}}}"


@dataclass
class DefaultPipeline:
    """The default optimization pipeline of a target under a config."""

    target: str
    passes: list[PlannedPass]
    #: Passes left out by the config, with the reason (pass name -> reason).
    disabled: dict[str, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.passes]

    @property
    def elements(self) -> list[str]:
        return [p.text for p in self.passes]

    @property
    def text(self) -> str:
        """A textual pipeline ``ge-opt --pass-pipeline`` and ``run_pipeline`` accept."""
        return f"builtin.module({', '.join(self.elements)})"

    def parse(self) -> list[PipelineElement]:
        return parse_pipeline(self.text)

    def __str__(self) -> str:
        return self.text


def _validate_names(cfg: Config, registered: dict[str, type[Pass]]) -> None:
    def unknown(key: str, name: str) -> ConfigError:
        return ConfigError(
            f"{key}: unknown pass '{name}'{did_you_mean(name, list(registered))}; registered passes: {', '.join(sorted(registered))}",
            key=key, source=cfg.source,
        )

    for name in cfg.fusion_switch:
        if name != FUSION_SWITCH_ALL and name not in registered:
            raise unknown(f"fusionSwitch.{name}", name)
    for name, pc in cfg.passes.items():
        if name not in registered:
            raise unknown(f"passes.{name}", name)
        known = {o.name: o for o in registered[name].options}
        for oname, value in pc.options.items():
            key = f"passes.{name}.options.{oname}"
            if oname not in known:
                raise ConfigError(
                    f"{key}: pass '{name}' has no option '{oname}'; valid options: {', '.join(known) or 'none'}",
                    key=key, source=cfg.source,
                )
            _check_option(name, known[oname], value, key, cfg.source)


def _disabled_reason(cls: type[Pass], cfg: Config) -> str | None:
    """Why the config switches ``cls`` off (None: it runs)."""
    pc = cfg.passes.get(cls.name)
    if pc is not None and pc.enabled is not None:
        return None if pc.enabled else f"passes.{cls.name}.enabled is false"
    if cls.name in cfg.fusion_switch:
        return None if cfg.fusion_switch[cls.name] else f"fusionSwitch.{cls.name} is off"
    if is_verification_pass(cls):
        return None if cfg.verify_graph else "verification passes run with \"verifyGraph\": true"
    if is_fusion_pass(cls):
        if FUSION_SWITCH_ALL in cfg.fusion_switch and not cfg.fusion_switch[FUSION_SWITCH_ALL]:
            return "fusionSwitch.ALL is off"
        if not cfg.graph_fusion:
            return "graphOptions.graphFusion is false"
    if cls.name == CONSTANT_FOLDING_PASS and not cfg.constant_folding.enabled:
        return "constantFolding.enabled is false"
    if cls.precision_sensitive and cfg.precision_safe:
        return f"precision-sensitive pass; precisionMode is {cfg.precision_mode}"
    return None


def default_pipeline(
    target: str = "cpu",
    config: Config | Mapping[str, Any] | str | None = None,
    *,
    load_modules: bool = True,
) -> DefaultPipeline:
    """The default optimization pipeline of ``target`` under ``config``.

    User pass modules (``$GE_MLIR_PASS_MODULES`` and the config's
    ``passModules``) are imported first unless ``load_modules`` is false.

    Raises:
        ConfigError: invalid config, unknown pass or option name.
        GeMlirError: unknown target.
    """
    cfg = load_config(config)
    if target not in PIPELINE_TARGETS:
        raise GeMlirError(f"unknown target '{target}' (targets: {', '.join(PIPELINE_TARGETS)})")
    if load_modules:
        load_pass_modules(cfg)
    registered = {cls.name: cls for cls in list_passes()}
    _validate_names(cfg, registered)
    planned: list[PlannedPass] = []
    disabled: dict[str, str] = {}
    for cls in list_passes():
        if cls.stage not in OPTIMIZATION_STAGES or cls.name.startswith("ge-test-"):
            continue
        if not applies_to(cls, target):
            continue
        reason = _disabled_reason(cls, cfg)
        if reason is not None:
            disabled[cls.name] = reason
            continue
        declared = {o.name for o in cls.options}
        # A pass's per-target defaults (class attribute ``target_options``),
        # then the config's group keys, then passes.<name>.options.
        options: dict[str, Any] = dict(cls.target_options.get(target, {}))
        if cls.name == CONSTANT_FOLDING_PASS:
            cf = cfg.constant_folding
            if cf.size_limit is not None and "size-limit" in declared:
                options["size-limit"] = cf.size_limit
            if cf.aggressive is not None and "aggressive" in declared:
                options["aggressive"] = cf.aggressive
            if cf.fp_mode == "FP32" and "fp-mode" in declared:
                options["fp-mode"] = "f32"
        if cls.name == LAYOUT_PASS:
            lay = cfg.layout
            if lay.input_format and "input-format" in declared:
                options["input-format"] = lay.input_format
            if lay.output_format and "output-format" in declared:
                options["output-format"] = lay.output_format
            if lay.forbid_trans_data and "forbid-trans-data" in declared:
                options["forbid-trans-data"] = [f"{a}:{b}" for a, b in lay.forbid_trans_data]
        pc = cfg.passes.get(cls.name)
        if pc is not None:
            options.update(pc.options)
        planned.append(PlannedPass(cls, options))
    # Verification first, whatever its stage.
    planned.sort(key=lambda p: not is_verification_pass(p.cls))
    return DefaultPipeline(target, planned, disabled)
