"""The options of ``ge_mlir.compile``: :class:`CompileOptions` as the caller gives them, and
:class:`ResolvedOptions`, the one object every stage reads.

The configuration is resolved once, at the entry (``compile``, ``GraphEngine``,
``estimate_memory``, ``profile``): :func:`resolve_options` checks the options, loads the config
(reads the file, applies the GE-style keys) and fills the memory and recompute options the caller
left unset from it. Stages and targets take the resolved object and never load the config again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import CompileError
from .native import load_config
from .schema import MEMORY_REUSE_STRATEGIES, Config, ConfigError

__all__ = ["CompileOptions", "MAX_THREADS", "MEMORY_REUSE_STRATEGIES", "ResolvedOptions", "coerce_options",
           "resolve_options"]

#: Most threads ``num_threads`` accepts.
MAX_THREADS = 4096


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
            shapes the default optimization pipeline. Loaded once, by :func:`resolve_options`.
        soc: ``ascendc``: the SoC the kernels are planned for (tile sizes,
            capacity checks): ``"Ascend910B1"`` (default) or ``"Ascend310P3"``.
        check_bounds: ``cpu``: run-time gather/gather_elements/scatter_elements
            indices outside ``[-d, d)`` raise :class:`ExecutionError` naming the
            op (one extra pass over the indices); False clamps them silently.
        memory_budget_mb: the most memory (MiB) the planned intermediate tensors of the compiled
            function may take (its arena); a larger plan fails the compile with
            :class:`~ge_mlir.errors.MemoryBudgetError`. None: the config's
            ``ge.exec.memory.memory_budget_mb``, else no budget.
        memory_reuse_strategy: how ``ge-plan-memory`` places buffers: ``"aggressive"``
            (every strategy, the smallest arena) or one of ``greedy-by-size``,
            ``greedy-by-breadth``, ``best-fit``, ``exact``. None: the config's
            ``ge.exec.memory.memory_reuse_strategy``, else ``"aggressive"``.
        recompute: with a memory budget, recompute cheap producers near their late
            uses until the plan fits (``ge-rematerialize``) instead of failing.
            None: the config's ``ge.exec.recompute.enable``, else False.
        recompute_checkpoint_ops: ONNX op types (``"LayerNorm"``, ``"Softmax"``,
            ``"MatMul"``...) that rematerialization may recompute besides the cheap
            ones (elementwise, casts, broadcasts, layout changes). None: the config's
            ``ge.exec.recompute.checkpoint_ops``, else none.
        recompute_ratio: the most FLOPs rematerialization may add, as a share of the
            graph's (0 to 1). None: the config's ``ge.exec.recompute.recompute_ratio``,
            else no limit.
        memory_estimation: estimate the memory on the optimized ge graph before
            lowering (``CompiledModel.memory_estimate``). None: the config's
            ``ge.exec.memory.enable_memory_estimation``, else False.
        keep_ir: keep every stage's IR text on the compiled model (``CompiledModel.ir``).
            False saves the memory (five copies of the weights as text: about 450 MiB
            for ResNet-18) and the printing time; ``ir()`` then says the text was not kept.
        profile: ``cpu``: a profiling build: ``ge-instrument-ops`` times each ONNX
            node's ops in the compiled code (stamps off until :func:`ge_mlir.profile`
            switches them on; ``CompiledModel.profiler``). docs/profiling.md.
        num_threads: ``cpu``: threads the compiled code runs on. Above 1, the column panels of
            large matmuls and convolutions run in parallel on ge-mlir's thread team (the caller
            and one worker per further hardware thread: more than the host has gains nothing); results are
            bitwise those of one thread. docs/performance.md.
        precise_math: ``cpu``: f32 exp, tanh and erf call libm instead of the vectorized
            polynomials of ``ge-approximate-math`` (at most 1, 2 and 8 ulp from the exact
            result, as onnxruntime's MLAS approximates them); slower on GELU, softmax, SiLU.
        fuse_elementwise: ``cpu``: an elementwise op read only by another elementwise op over
            the same elements is computed inside it (``ge-fuse-elementwise-generics``: SiLU,
            GELU and rotary chains in one pass). False keeps one loop and one buffer per op
            (to study the memory planner's in-place reuse, or to bisect a fusion).
        winograd: ``cpu``: f32 3x3 stride-1 convolutions with a constant filter and at most
            128 x 128 channels run as Winograd F(2x2, 3x3) (2.25x fewer multiplications; results
            differ from a direct convolution by rounding, relative error about 1e-6). False keeps
            every convolution direct.
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
    memory_reuse_strategy: str | None = None
    recompute: bool | None = None
    recompute_checkpoint_ops: Sequence[str] | None = None
    recompute_ratio: float | None = None
    memory_estimation: bool | None = None
    keep_ir: bool = True
    profile: bool = False
    num_threads: int = 1
    precise_math: bool = False
    fuse_elementwise: bool = True
    winograd: bool = True


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
    strategy = options.memory_reuse_strategy
    if strategy is not None and strategy not in MEMORY_REUSE_STRATEGIES:
        raise CompileError(f"memory_reuse_strategy must be one of {', '.join(MEMORY_REUSE_STRATEGIES)}, "
                           f"got {strategy!r}")
    if options.recompute is not None and not isinstance(options.recompute, bool):
        raise CompileError(f"recompute must be True, False or None, got {options.recompute!r}")
    ops = options.recompute_checkpoint_ops
    if ops is not None and (isinstance(ops, str) or not all(isinstance(o, str) and o for o in ops)):
        raise CompileError(f"recompute_checkpoint_ops must be a list of ONNX op type names, got {ops!r}")
    ratio = options.recompute_ratio
    if ratio is not None and (isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 <= ratio <= 1):
        raise CompileError(f"recompute_ratio must be a number from 0 to 1 or None, got {ratio!r}")
    if not isinstance(options.keep_ir, bool):
        raise CompileError(f"keep_ir must be True or False, got {options.keep_ir!r}")
    if options.memory_estimation is not None and not isinstance(options.memory_estimation, bool):
        raise CompileError(f"memory_estimation must be True, False or None, got {options.memory_estimation!r}")
    if not isinstance(options.precise_math, bool):
        raise CompileError(f"precise_math must be True or False, got {options.precise_math!r}")
    if not isinstance(options.fuse_elementwise, bool):
        raise CompileError(f"fuse_elementwise must be True or False, got {options.fuse_elementwise!r}")
    if not isinstance(options.winograd, bool):
        raise CompileError(f"winograd must be True or False, got {options.winograd!r}")
    if not isinstance(options.profile, bool):
        raise CompileError(f"profile must be True or False, got {options.profile!r}")
    threads = options.num_threads
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise CompileError(f"num_threads must be a positive integer, got {threads!r}")
    if threads > MAX_THREADS:  # the team size travels in 16 bits (lib/Runtime/ParallelRuntime.cpp)
        raise CompileError(f"num_threads must be at most {MAX_THREADS}, got {threads}")
    if not isinstance(options.opt_level, int) or not 0 <= options.opt_level <= 3:
        raise CompileError(f"opt_level must be an integer from 0 to 3, got {options.opt_level!r}")
    return options


@dataclass(frozen=True)
class ResolvedOptions(CompileOptions):
    """:class:`CompileOptions` after :func:`resolve_options`: what every stage and target reads.

    ``config`` is the loaded :class:`~ge_mlir.config.Config`; ``memory_budget_mb``,
    ``memory_reuse_strategy``, ``memory_estimation`` and the ``recompute*`` fields hold the
    config's ``ge.exec.memory`` / ``ge.exec.recompute`` values where the caller left them None,
    and the budget is the activation share ``ge.exec.graphPartitioner`` leaves of it. Resolving
    it again returns it unchanged (a second resolution would take that share twice).
    """

    config: Config = field(default_factory=Config)


def resolve_options(options: CompileOptions | Mapping[str, Any] | None) -> ResolvedOptions:
    """``options`` (a :class:`CompileOptions`, a dict of its fields or None) checked, with its
    config loaded and applied: its unset (None) memory and recompute fields are taken from the
    config's ``ge.exec.memory`` / ``ge.exec.recompute`` sections (explicit options win). A
    :class:`ResolvedOptions` is returned as it is.

    Raises :class:`~ge_mlir.errors.CompileError` (bad options) or
    :class:`~ge_mlir.config.ConfigError` (bad config)."""
    if isinstance(options, ResolvedOptions):
        return options
    options = coerce_options(options)
    config = load_config(options.config)
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
    fields = {f.name: getattr(options, f.name) for f in dataclasses.fields(CompileOptions)}
    return ResolvedOptions(**{**fields, **changes, "config": config})
