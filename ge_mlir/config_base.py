"""The pieces of the config schema both key families share: errors, value checks, enums.

:mod:`ge_mlir.config` (ge-mlir's own keys) and :mod:`ge_mlir.config_ge` (CANN GE's option
keys) build on it; it imports neither.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import GeMlirError

#: ``precisionMode`` values. The precision-safe ones leave passes with
#: ``precision_sensitive = True`` out of the default pipeline.
PRECISION_MODES: tuple[str, ...] = ("FP32", "must_keep_origin_dtype", "allow_fp16", "allow_mix_precision", "force_fp16")
PRECISION_SAFE_MODES: frozenset[str] = frozenset({"FP32", "must_keep_origin_dtype"})
DEFAULT_PRECISION_MODE = "allow_fp16"

#: ``layout.inputFormat`` / ``layout.outputFormat`` values (the ge ``DataFormat`` enum).
DATA_FORMATS: tuple[str, ...] = ("ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_NZ", "HWCN", "NCDHW", "NDHWC")

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


@dataclass
class PassConfig:
    """``passes.<name>``: ``enabled`` (None: not set) and option values."""

    enabled: bool | None = None
    options: dict[str, Any] = field(default_factory=dict)


# --- validation -------------------------------------------------------------


def _kind(value: Any) -> str:
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


class _Checker:
    def __init__(self, source: str | None) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{key}: {message}" if key else message, key=key or None, source=self.source)

    def obj(self, key: str, value: Any, valid: tuple[str, ...], what: str = "keys") -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected an object with {what} {', '.join(valid)}; got {_kind(value)}")
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
            raise self.fail(key, f"expected true or false, got {_shown(value)}")
        return value

    def switch(self, key: str, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("on", "off"):
            return value.lower() == "on"
        raise self.fail(key, f"expected one of {', '.join(_SWITCH_VALUES)}, got {_shown(value)}")

    def choice(self, key: str, value: Any, valid: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in valid:
            hint = did_you_mean(value, valid) if isinstance(value, str) else ""
            raise self.fail(key, f"expected one of {', '.join(valid)}, got {_shown(value)}{hint}")
        return value


def _shown(value: Any) -> str:
    """``value`` as JSON, or its kind when it has no JSON form."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return _kind(value)


def did_you_mean(name: str, valid: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``valid`` (a case-insensitive match first), or ""."""
    close = [v for v in valid if v.lower() == name.lower()] or difflib.get_close_matches(name, valid, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _ge_op_names() -> tuple[str, ...]:
    from .dialects import ge

    return tuple(sorted(
        c.OPERATION_NAME for c in vars(ge).values()
        if isinstance(c, type) and isinstance(getattr(c, "OPERATION_NAME", None), str)
        and c.OPERATION_NAME.startswith("ge.")
    ))
