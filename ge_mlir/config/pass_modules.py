"""User pass modules: ``passModules`` of a config and ``$GE_MLIR_PASS_MODULES``.

Importing a module registers its passes (``@register_pass``, ``fusion_pass``, ``@graph_pass``),
so this runs before a pipeline is built from the config: pass names and options in
``fusionSwitch``/``passes`` may then name user passes.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .schema import Config, ConfigError

__all__ = ["PASS_MODULES_ENV", "load_pass_modules", "pass_module_specs"]

#: Environment variable naming user pass modules (comma-separated module names or .py paths).
PASS_MODULES_ENV = "GE_MLIR_PASS_MODULES"

#: Modules imported from ``.py`` paths, by resolved path: each runs (and registers its passes) once.
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
