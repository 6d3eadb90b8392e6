"""ge-mlir's own configuration keys (schema: ``docs/config.md``) and :func:`load_config`.

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
valid keys or expected values; the GE-style dotted keys next to these go to
:mod:`.ge_keys`. Pass names (``fusionSwitch``, ``passes``) are checked against
the registry when a pipeline is built from the config, after the ``passModules``
are imported (:func:`ge_mlir.config.pass_modules.load_pass_modules`).
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .ge_keys import GE_ROOTS, apply_ge_keys, is_ge_key, unknown_ge_key
from .schema import (
    DATA_FORMATS,
    PASS_KEYS,
    PRECISION_MODES,
    SECTION_KEYS,
    TOP_LEVEL_KEYS,
    Checker,
    Config,
    ConfigError,
    ConfigWarning,
    PassConfig,
    did_you_mean,
    ge_op_names,
    kind_of,
    shown,
)

__all__ = ["load_config"]


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
    """``data``'s own keys, then its GE-style keys (:func:`.ge_keys.apply_ge_keys`), as a Config;
    warns (:class:`ConfigWarning`) once per key that changes nothing."""
    ck = Checker(source)
    if not isinstance(data, Mapping):
        raise ck.fail("", f"expected an object with keys {', '.join(TOP_LEVEL_KEYS)} or GE keys "
                          f"({', '.join(GE_ROOTS)}...); got {kind_of(data)}")
    top = {k: v for k, v in data.items() if not (isinstance(k, str) and is_ge_key(k))}
    for k in top:
        if isinstance(k, str) and k.startswith("ge."):
            raise unknown_ge_key(k, source)
    ck.obj("", top, TOP_LEVEL_KEYS + GE_ROOTS)
    cfg = Config(source=source)

    if "graphOptions" in top:
        sec = ck.obj("graphOptions", top["graphOptions"], SECTION_KEYS["graphOptions"])
        if "graphFusion" in sec:
            cfg.graph_fusion = ck.boolean("graphOptions.graphFusion", sec["graphFusion"])

    if "fusionSwitch" in top:
        sw = top["fusionSwitch"]
        if not isinstance(sw, Mapping):
            raise ck.fail("fusionSwitch", f'expected an object {{"<pass-name>" | "ALL": "on" | "off"}}, got {kind_of(sw)}')
        for name, value in sw.items():
            cfg.fusion_switch[str(name)] = ck.switch(f"fusionSwitch.{name}", value)

    if "passes" in top:
        ps = top["passes"]
        if not isinstance(ps, Mapping):
            raise ck.fail("passes", f'expected an object {{"<pass-name>": {{"enabled": bool, "options": {{...}}}}}}, got {kind_of(ps)}')
        for name, entry in ps.items():
            key = f"passes.{name}"
            entry = ck.obj(key, entry, PASS_KEYS)
            pc = PassConfig()
            if "enabled" in entry:
                pc.enabled = ck.boolean(f"{key}.enabled", entry["enabled"])
            if "options" in entry:
                opts = entry["options"]
                if not isinstance(opts, Mapping):
                    raise ck.fail(f"{key}.options", f"expected an object of option values, got {kind_of(opts)}")
                for oname, ovalue in opts.items():
                    if not isinstance(ovalue, (bool, int, float, str, list)) or (
                        isinstance(ovalue, list) and not all(isinstance(x, (str, int, float)) for x in ovalue)
                    ):
                        raise ck.fail(f"{key}.options.{oname}",
                                      f"expected a boolean, number, string or list of scalars, got {kind_of(ovalue)}")
                    pc.options[str(oname).replace("_", "-")] = ovalue
            cfg.passes[str(name)] = pc

    if "constantFolding" in top:
        sec = ck.obj("constantFolding", top["constantFolding"], SECTION_KEYS["constantFolding"])
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
                              f"got {shown(v)}")
            cf.size_limit = v

    if "layout" in top:
        sec = ck.obj("layout", top["layout"], SECTION_KEYS["layout"])
        lay = cfg.layout
        for jkey, attr in (("inputFormat", "input_format"), ("outputFormat", "output_format")):
            if jkey in sec and sec[jkey] is not None:
                setattr(lay, attr, ck.choice(f"layout.{jkey}", sec[jkey], DATA_FORMATS))
        if "forbidTransData" in sec:
            pairs = sec["forbidTransData"]
            key = "layout.forbidTransData"
            if not isinstance(pairs, list):
                raise ck.fail(key, f'expected a list of [producer, consumer] ge op name pairs such as '
                                   f'[["ge.conv2d", "ge.relu"]], got {kind_of(pairs)}')
            ops = None
            for i, pair in enumerate(pairs):
                if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                    raise ck.fail(f"{key}[{i}]", f'expected a pair of ge op names such as ["ge.conv2d", "ge.relu"], '
                                                 f"got {shown(pair)}")
                ops = ops or ge_op_names()
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
                                         f'["my_pkg.passes", "./my_passes.py"], got {shown(mods)}')
        cfg.pass_modules = [m.strip() for m in mods]

    if "verifyGraph" in top:
        cfg.verify_graph = ck.boolean("verifyGraph", top["verifyGraph"])

    apply_ge_keys(cfg, data, ck)
    for key in cfg.inert_keys:
        warnings.warn(f"config key {key}", ConfigWarning, stacklevel=3)
    return cfg
