"""Code-generation targets, one package each: ``cpu`` (LLVM JIT on the host) and ``ascendc``
(an Ascend C project). Each exposes ``TARGET`` (a :class:`~ge_mlir.target.base.Target`) from
its ``target`` module; targets are named here, not imported, so the driver loads only the one
it compiles for."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Target

#: Target name -> the module defining its ``TARGET``.
TARGETS: dict[str, str] = {
    "cpu": "ge_mlir.target.cpu.target",
    "ascendc": "ge_mlir.target.ascendc.target",
}


def get_target(name: str) -> Target:
    """The target called ``name``; KeyError when there is none."""
    return importlib.import_module(TARGETS[name]).TARGET
