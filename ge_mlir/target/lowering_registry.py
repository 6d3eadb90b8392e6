"""The one registration idiom of the targets' op lowerings: ``@lowering("relu", "sigmoid")`` over a
function registers it for those ge ops (named without ``ge.``), one table per target."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class LoweringRegistry(Generic[F]):
    """ge op name (without ``ge.``) -> the target's lowering function of it."""

    def __init__(self) -> None:
        self._table: dict[str, F] = {}

    def lowering(self, *names: str) -> Callable[[F], F]:
        """Registers the decorated function as the lowering of the ge ops ``names``."""

        def register(fn: F) -> F:
            for name in names:
                if name in self._table:
                    raise ValueError(f"ge.{name} already has a lowering ({self._table[name].__name__})")
                self._table[name] = fn
            return fn

        return register

    def registered(self) -> dict[str, F]:
        return dict(self._table)
