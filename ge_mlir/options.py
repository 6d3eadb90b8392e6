"""Options of ``ge_mlir.compile``, shared by the compiler driver and every target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import CompileError

__all__ = ["CompileOptions", "coerce_options"]


@dataclass(frozen=True)
class CompileOptions:
    """Knobs of :func:`compile`.

    Attributes:
        optimize: run the ge graph optimizations (stage ``optimized``).
        opt_level: LLVM optimization level of the JIT, 0 to 3.
        input_shapes: fixes ONNX input dimensions, e.g. ``{"x": [1, 3, 224, 224]}``.
        func_name: the function to compile when a ge module has several.
        constant_inputs: ONNX graph inputs frozen to values (specialization:
            shape/axes/pads given as inputs); they are no longer inputs.
        config: the ge-mlir configuration (a JSON file path, a dict or a
            :class:`ge_mlir.config.Config`; schema in ``docs/config.md``) that
            shapes the default optimization pipeline.
        soc: ``ascendc``: the SoC the kernels are planned for (tile sizes,
            capacity checks): ``"Ascend910B1"`` (default) or ``"Ascend310P3"``.
        check_bounds: ``cpu``: run-time gather/gather_elements/scatter_elements
            indices outside ``[-d, d)`` raise :class:`ExecutionError` naming the
            op (one extra pass over the indices); False clamps them silently.
        memory_budget_mb: the most memory (MiB) the planned intermediate tensors of the compiled
            function may take (its arena); a larger plan fails the compile with
            :class:`~ge_mlir.errors.MemoryBudgetError`. None: no budget.
    """

    optimize: bool = True
    opt_level: int = 3
    input_shapes: Mapping[str, Sequence[int]] | None = None
    func_name: str | None = None
    constant_inputs: Mapping[str, Any] | None = None
    config: Any = None
    soc: str | None = None
    check_bounds: bool = True
    memory_budget_mb: float | None = None


def coerce_options(options: CompileOptions | Mapping[str, Any] | None) -> CompileOptions:
    """``options`` as a checked :class:`CompileOptions` (a dict gives its fields); CompileError otherwise."""
    if options is None:
        options = CompileOptions()
    elif isinstance(options, Mapping):
        unknown = set(options) - set(CompileOptions.__dataclass_fields__)
        if unknown:
            raise CompileError(
                f"unknown compile option(s) {', '.join(sorted(unknown))} "
                f"(options: {', '.join(CompileOptions.__dataclass_fields__)})"
            )
        options = CompileOptions(**options)
    elif not isinstance(options, CompileOptions):
        raise CompileError(
            f"options must be a CompileOptions or a dict of its fields, got {type(options).__name__} {options!r}"
        )
    if not isinstance(options.check_bounds, bool):
        raise CompileError(f"check_bounds must be True or False, got {options.check_bounds!r}")
    budget = options.memory_budget_mb
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0):
        raise CompileError(f"memory_budget_mb must be a positive number of MiB or None, got {budget!r}")
    if not isinstance(options.opt_level, int) or not 0 <= options.opt_level <= 3:
        raise CompileError(f"opt_level must be an integer from 0 to 3, got {options.opt_level!r}")
    return options
