"""The configuration of ``ge_mlir.compile``: compile options and the JSON config (``docs/config.md``).

* :mod:`.schema`: the typed config (:class:`Config`), the values and key names of ge-mlir's own
  keys, :class:`ConfigError` / :class:`ConfigWarning`, and the checker both key families use;
* :mod:`.native`: ge-mlir's own keys and :func:`load_config`;
* :mod:`.ge_keys`: the GE-style dotted keys (the walkthrough's, and ge-mlir's ``ge.exec.parallel``),
  one mapping table;
* :mod:`.pass_modules`: the user pass modules a config or ``$GE_MLIR_PASS_MODULES`` names;
* :mod:`.options`: :class:`CompileOptions` and :func:`resolve_options`, which resolves them with the
  config once, at the entry, into the :class:`ResolvedOptions` every stage reads.
"""

from __future__ import annotations

from .native import load_config
from .options import (
    MAX_THREADS,
    CompileOptions,
    ResolvedOptions,
    coerce_options,
    resolve_options,
)
from .pass_modules import PASS_MODULES_ENV, load_pass_modules, pass_module_specs
from .schema import (
    AGGRESSIVE,
    DATA_FORMATS,
    DEFAULT_PRECISION_MODE,
    FUSION_SWITCH_ALL,
    MEMORY_REUSE_STRATEGIES,
    MEMORY_SECTION,
    PLANNER_STRATEGIES,
    PRECISION_MODES,
    PRECISION_SAFE_MODES,
    RECOMPUTE_SECTION,
    TOP_LEVEL_KEYS,
    Config,
    ConfigError,
    ConfigWarning,
    ConstantFolding,
    Layout,
    MemoryConfig,
    PassConfig,
    RecomputeConfig,
    did_you_mean,
)

__all__ = [
    "AGGRESSIVE", "DATA_FORMATS", "DEFAULT_PRECISION_MODE", "FUSION_SWITCH_ALL", "MAX_THREADS",
    "MEMORY_REUSE_STRATEGIES", "MEMORY_SECTION", "PASS_MODULES_ENV", "PLANNER_STRATEGIES", "PRECISION_MODES",
    "PRECISION_SAFE_MODES", "RECOMPUTE_SECTION", "TOP_LEVEL_KEYS",
    "CompileOptions", "Config", "ConfigError", "ConfigWarning", "ConstantFolding", "Layout", "MemoryConfig",
    "PassConfig", "RecomputeConfig", "ResolvedOptions",
    "coerce_options", "did_you_mean", "load_config", "load_pass_modules", "pass_module_specs", "resolve_options",
]
