"""Registry of ge Python passes.

Python passes run through ``PassManager.add(callable)``; in this MLIR build
only module-level Python passes are schedulable, so every ge pass receives the
``builtin.module`` and walks the functions it needs itself.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable

from mlir import ir

from ..errors import GeMlirError, PassFailure, PassOptionError, UnknownPassError

#: Pipeline stages, in execution order. A pass declares the stage it belongs
#: to; default pipelines are assembled per stage, ordered by priority.
STAGES: tuple[str, ...] = (
    "after-import",
    "after-infer-shape",
    "after-builtin-fusion",
    "before-lowering",
    "partition",
    "lowering",
)

_NAME_RE = re.compile(r"^ge-[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Option:
    """A typed pass option, given in pipelines as ``ge-pass{name=value}``."""

    name: str
    type: type
    default: Any
    help: str

    def parse(self, pass_name: str, text: str) -> Any:
        """Converts the textual value; raises PassOptionError when malformed."""
        try:
            if self.type is bool:
                low = text.strip().lower()
                if low in ("1", "true", "on", "yes"):
                    return True
                if low in ("0", "false", "off", "no"):
                    return False
                raise ValueError("expected true or false")
            if self.type is int:
                return int(text, 0)
            if self.type is float:
                return float(text)
            if self.type is list:
                return [s.strip() for s in text.split(",") if s.strip()]
            return text
        except ValueError as e:
            raise PassOptionError(
                f"invalid value {text!r} for option '{self.name}' of pass "
                f"'{pass_name}' (expected {self.type_name}): {e}"
            ) from None

    @property
    def type_name(self) -> str:
        return {bool: "bool", int: "int", float: "float", list: "list", str: "string"}[self.type]


class Pass:
    """Base class of ge passes.

    Subclasses set the class attributes and implement :meth:`run`. Options are
    available as ``self.opt(name)`` (already typed).

    Statistics convention: a pass counts what it did in ``self.stats`` (a
    ``dict[str, int]``, empty when the pass is created; ``self.statistics`` is the same
    dict and ``self.bump(counter, n)`` adds to it). Counters are reported by
    ``ge-opt --mlir-pass-statistics`` and the pass report (``ge-opt
    --ge-pass-report``, ``ge-compile --report``, ``CompiledModel.pass_report``):
    a pass that rewrites IR keeps the total number of rewrites it applied in
    ``stats["rewrites"]`` (the report's "Rewrites" column; "-" without it) and
    may add detail counters under other names (listed next to it).

    ``precision_sensitive = True`` declares that the pass may change numerical
    results beyond float reassociation (e.g. fusing into lower-precision or
    approximate forms); precision-safe configurations (``"precisionMode":
    "FP32"``) leave such passes out of the default pipeline.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    description: ClassVar[str] = ""
    stage: ClassVar[str]
    priority: ClassVar[int] = 100
    targets: ClassVar[tuple[str, ...]] = ("*",)
    options: ClassVar[tuple[Option, ...]] = ()
    #: Option values the default pipeline of a target sets (target -> {option: value}).
    target_options: ClassVar[dict[str, dict[str, Any]]] = {}
    precision_sensitive: ClassVar[bool] = False

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.options}
        values: dict[str, Any] = {o.name: o.default for o in self.options}
        for key, value in options.items():
            key = key.replace("_", "-")
            if key not in known:
                raise PassOptionError(
                    f"pass '{self.name}' has no option '{key}' (options: "
                    f"{', '.join(known) or 'none'})"
                )
            opt = known[key]
            values[key] = opt.parse(self.name, value) if isinstance(value, str) and opt.type is not str else value
        self.options_values = values
        self.statistics: dict[str, int] = {}

    @property
    def stats(self) -> dict[str, int]:
        """Counters of this pass instance (alias of ``statistics``)."""
        return self.statistics

    @stats.setter
    def stats(self, value: dict[str, int]) -> None:
        self.statistics = value

    def opt(self, name: str) -> Any:
        return self.options_values[name]

    def bump(self, counter: str, n: int = 1) -> None:
        self.statistics[counter] = self.statistics.get(counter, 0) + n

    def run(self, module: ir.Operation) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # Adapter to PassManager.add(callable): exceptions become located errors
    # plus signal_pass_failure, so PassManager.run raises with diagnostics
    # instead of the exception escaping through C++.
    def as_callback(self) -> Callable[[ir.Operation, Any], None]:
        def callback(op: ir.Operation, pass_: Any) -> None:
            try:
                self.run(op)
            except PassFailure as e:
                if e.reported:
                    pass_.signal_pass_failure()
                    return
                target = e.at.operation if isinstance(e.at, ir.OpView) else e.at
                (target.location if target is not None else op.location).emit_error(
                    f"{self.name}: {e.message}"
                )
                pass_.signal_pass_failure()
            except Exception as e:  # a bug in a pass must not kill the process
                self.internal_error = traceback.format_exc()
                op.location.emit_error(
                    f"{self.name}: internal error: {type(e).__name__}: {e}"
                )
                pass_.signal_pass_failure()

        callback.__name__ = type(self).__name__
        return callback

    @classmethod
    def describe(cls) -> str:
        lines = [f"  --{cls.name}  -  {cls.summary}  [stage: {cls.stage}, priority: {cls.priority}]"]
        for o in cls.options:
            lines.append(f"      {o.name}=<{o.type_name}> (default {o.default!r})  - {o.help}")
        return "\n".join(lines)


_REGISTRY: dict[str, type[Pass]] = {}


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Class decorator registering a :class:`Pass` subclass under ``cls.name``."""
    for attr in ("name", "summary", "stage"):
        if not getattr(cls, attr, None):
            raise GeMlirError(f"pass class {cls.__name__} must define '{attr}'")
    if not _NAME_RE.match(cls.name):
        raise GeMlirError(f"pass name '{cls.name}' must look like ge-<verb>-<object>")
    if cls.stage not in STAGES:
        raise GeMlirError(f"pass '{cls.name}': unknown stage '{cls.stage}' (stages: {', '.join(STAGES)})")
    if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
        raise GeMlirError(f"pass '{cls.name}' is already registered by {_REGISTRY[cls.name].__module__}")
    _REGISTRY[cls.name] = cls
    _BY_MODULE.setdefault(cls.__module__, []).append(cls)
    return cls


def unregister_pass(name: str) -> type[Pass] | None:
    """Removes the pass registered as ``name`` (tests, temporary passes); returns it, or None."""
    return _REGISTRY.pop(name, None)


#: Packages holding the built-in passes, one pass per module: pass ``ge-x-y``
#: lives in ``<package>.ge_x_y``. Named, not imported, so that this layer
#: depends on none of them and a pipeline imports only the passes it runs.
BUILTIN_PASS_PACKAGES: tuple[str, ...] = (
    "ge_mlir.optimize", "ge_mlir.partition", "ge_mlir.memory", "ge_mlir.target.cpu", "ge_mlir.target.ascendc",
)
#: Passes registered per defining module: importing a module registers its passes
#: once, and a registry swapped out and back (tests) gets them again from here.
_BY_MODULE: dict[str, list[type[Pass]]] = {}


def _ensure_module(module: str) -> None:
    import importlib

    importlib.import_module(module)
    for cls in _BY_MODULE.get(module, ()):
        _REGISTRY.setdefault(cls.name, cls)


def _load_builtin(name: str) -> None:
    """Imports the module of built-in pass ``name`` (registering it), if there is one."""
    import importlib
    import importlib.util

    module = name.replace("-", "_")
    for package in BUILTIN_PASS_PACKAGES:
        if importlib.util.find_spec(f"{package}.{module}") is not None:
            _ensure_module(f"{package}.{module}")
            return


def load_builtin_passes() -> None:
    """Imports every built-in pass module (``list_passes`` and default pipelines need them all)."""
    import importlib
    import pkgutil

    for package in BUILTIN_PASS_PACKAGES:
        pkg = importlib.import_module(package)
        for info in pkgutil.iter_modules(pkg.__path__):
            if info.name.startswith("ge_"):
                _ensure_module(f"{package}.{info.name}")


def get_pass(name: str) -> type[Pass]:
    """Looks up a pass (loading its built-in module on first use); UnknownPassError suggests close names."""
    if name not in _REGISTRY and _NAME_RE.match(name):
        _load_builtin(name)
    try:
        return _REGISTRY[name]
    except KeyError:
        import difflib

        load_builtin_passes()
        close = difflib.get_close_matches(name, list(_REGISTRY), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UnknownPassError(f"unknown ge pass '{name}'{hint}") from None


def list_passes(stage: str | None = None) -> list[type[Pass]]:
    """Registered passes (every built-in one included), in stage order then priority then name."""
    load_builtin_passes()
    passes: Iterable[type[Pass]] = _REGISTRY.values()
    if stage is not None:
        passes = [p for p in passes if p.stage == stage]
    return sorted(passes, key=lambda p: (STAGES.index(p.stage), p.priority, p.name))
