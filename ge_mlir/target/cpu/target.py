"""The CPU target: ``linalg`` -> ``bufferized`` -> ``llvm``, then the MLIR JIT (``CpuExecutable``).

Under a memory budget (``CompileOptions.memory_budget_mb``) the plan of the compiled function
is checked right after bufferization: over it, the compile fails with ``MemoryBudgetError``.
With ``recompute`` as well, a plan over the budget is first fought with rematerialization
(:func:`fit_budget`, ``ge-rematerialize`` on the optimized ge module), and the report of what
was recomputed joins the memory plan (``memory_plan["recompute"]``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlir import ir

from ...errors import CompileError
from ...irutils.functions import pick_function
from ...irutils.types import TensorSpec
from ...memory.budget import budget_bytes, check_budget
from ...memory.ge_plan_memory import read_memory_plan
from ..base import StageCallback, Target, TargetResult
from .stages import CPU_STAGES

if TYPE_CHECKING:  # annotations only: loading a saved model needs no configuration
    from ...config.options import ResolvedOptions

#: How many ge-level targets :func:`fit_budget` tries before giving up.
RECOMPUTE_ATTEMPTS = 6


class CpuTarget(Target):
    name = "cpu"
    stages = CPU_STAGES

    def compile(self, module: ir.Module, options: ResolvedOptions, *, func_name: str, compile_to: str,
                done: StageCallback, **target_options: Any) -> TargetResult:
        from .runner import CpuExecutable

        last = time.perf_counter()
        strategy = options.memory_reuse_strategy or "aggressive"
        recompute = None
        if options.memory_budget_mb is not None and options.recompute and compile_to != "linalg":
            module, recompute = fit_budget(module, func_name, budget_bytes(options.memory_budget_mb),
                                           checkpoint_ops=options.recompute_checkpoint_ops or (),
                                           max_extra_flops_ratio=options.recompute_ratio,
                                           check_bounds=options.check_bounds, memory_strategy=strategy)
            last = time.perf_counter()
        elif options.recompute and compile_to != "linalg" and (options.recompute_checkpoint_ops
                                                             or options.recompute_ratio is not None):
            module, recompute = recompute_without_budget(
                module, func_name, checkpoint_ops=options.recompute_checkpoint_ops or (),
                max_extra_flops_ratio=options.recompute_ratio, check_bounds=options.check_bounds,
                memory_strategy=strategy)
            last = time.perf_counter()

        def stage_done(stage: str, m: ir.Module) -> None:
            nonlocal last
            done(stage, m)
            if stage == "bufferized" and options.memory_budget_mb is not None:
                # Before the LLVM stage and the JIT: an over-budget model fails fast.
                plan = read_memory_plan(pick_function(m, func_name))
                if plan is not None:
                    check_budget(plan, options.memory_budget_mb, func_name)
            last = time.perf_counter()

        exe = CpuExecutable(module, func_name, opt_level=options.opt_level, compile_to=compile_to,
                            on_stage=stage_done, check_bounds=options.check_bounds, memory_strategy=strategy,
                            profile=options.profile, num_threads=options.num_threads,
                            precise_math=options.precise_math, fuse_elementwise=options.fuse_elementwise,
                            winograd=options.winograd)
        times = {"jit": time.perf_counter() - last} if compile_to == "llvm" else {}
        plan = exe.memory_plan
        if recompute is not None and plan is not None:
            plan = {**plan, "recompute": recompute}
        if plan is not None:
            plan = _with_training(plan, pick_function(module, func_name), exe.tied_outputs)
        return TargetResult(run=exe.run if compile_to == "llvm" else None, inputs=exe.inputs,
                            outputs=exe.outputs, times=times, memory_plan=plan,
                            executable=exe if compile_to == "llvm" else None,
                            profiler=exe.profiler if compile_to == "llvm" else None)

    def memory_model(self, options: Mapping[str, Any]) -> Any:
        """The CPU lowering's memory model (:mod:`.memory_model`: the codegen's own path selection)."""
        from .memory_model import cpu_memory_model

        return cpu_memory_model(winograd=options.get("winograd", True),
                                fuse_elementwise=options.get("fuse_elementwise", True))

    def save_artefact(self, executable: Any, directory: Path) -> dict[str, Any]:
        """``model.so``: the JIT's object code linked by the C compiler (:mod:`.artefact`)."""
        from .artefact import save_native

        return save_native(executable, directory)

    def load_artefact(self, section: Mapping[str, Any], read: Callable[[str], bytes], inputs: list[TensorSpec],
                      outputs: list[TensorSpec], *, what: str, files: Mapping[str, Any],
                      memory_plan: dict[str, Any] | None = None) -> TargetResult:
        """``model.so`` opened with ctypes after the host check; no pass and no JIT (:mod:`.artefact`)."""
        from .artefact import load_native

        library = files.get(section["library"])
        exe = load_native(dict(section), read, inputs, outputs, what=what, memory_plan=memory_plan,
                          sha256=library.get("sha256") if isinstance(library, Mapping) else None)
        return TargetResult(run=exe.run, inputs=exe.inputs, outputs=exe.outputs, memory_plan=memory_plan,
                            executable=exe)


def cpu_scratch_bytes(op: ir.Operation) -> int:
    """Bytes the CPU lowering of ``op`` holds besides its operands and results, at most at once:
    the scratch model ``ge-rematerialize`` is given here. From the CPU memory model
    (:func:`.memory_model.lowering_model`): padded input copies, im2col matrices, row
    copies and accumulators of convolutions and matmuls, statistics of normalizations, summed per
    step of the op's lowering, the largest step."""
    from ...memory.op_model import STEPS
    from .memory_model import lowering_model

    model = lowering_model(op)
    steps = [0] * len(STEPS)
    for s in model.scratch:
        for step in range(s.first, s.last + 1):
            steps[step] += s.size
    for size, _shape, last in model.pads.values():
        for step in range(0, last + 1):
            steps[step] += size
    return max(steps)


def _plan_of(module: ir.Module, func_name: str, check_bounds: bool, memory_strategy: str) -> dict | None:
    """The memory plan ``module`` would get: a copy lowered to ``bufferized`` in a context of its own."""
    from .runner import lower_stage

    text = module.operation.get_asm(enable_debug_info=True)
    with ir.Context(), ir.Location.unknown():
        m = ir.Module.parse(text)
        for stage in ("linalg", "bufferized"):
            lower_stage(m, stage, check_bounds=check_bounds, memory_strategy=memory_strategy)
        return read_memory_plan(pick_function(m, func_name))


def _with_training(plan: dict, fn: ir.Operation, in_place: Mapping[int, int]) -> dict:
    """``plan`` with ``plan["training"]`` (:class:`ge_mlir.memory.training.TrainingMemory` as a dict)
    when ``fn`` is a training step (it records its ops' phases); results computed in place into an
    input (``in_place``) cost no output bytes."""
    from ...memory.training import argument_bytes, read_phases, training_memory

    phases = read_phases(fn)
    if not phases:
        return plan
    return {**plan, "training": training_memory(plan, phases, argument_bytes(fn, in_place)).to_dict()}


def fit_budget(module: ir.Module, func_name: str, budget: int, *, checkpoint_ops: Sequence[str] = (),
               max_extra_flops_ratio: float | None = None, check_bounds: bool = True,
               memory_strategy: str = "aggressive") -> tuple[ir.Module, dict | None]:
    """``module`` rematerialized until the CPU plan of ``func_name`` fits ``budget`` bytes.

    Returns ``(module, None)`` when the plan already fits, else a rematerialized copy and the
    report (``CompiledModel.memory_plan["recompute"]``). ``ge-rematerialize`` sees ge tensors
    plus the lowering's scratch as :func:`cpu_scratch_bytes` models it, not the final plan:

    * its target starts at the ge-level peak minus what the plan is over; each attempt whose
      lowered plan is still over takes what is left off the target, up to
      :data:`RECOMPUTE_ATTEMPTS` attempts (each from the original module);
    * an attempt that fits is then pruned: the fewest of its recomputations, in the order the
      pass chose them, that still fit (a binary search over that count) are kept, so the model's
      errors cost lowering attempts, not FLOPs.

    Raises :class:`MemoryBudgetError` (saying what recomputation reached) when nothing fits, and
    :class:`CompileError` for an unknown checkpoint op name.
    """
    from ...memory.ge_rematerialize import checkpoint_matcher, live_peak, rematerialize_function

    try:
        checkpoint_matcher(checkpoint_ops)
    except ValueError as e:
        raise CompileError(f"recompute_checkpoint_ops: {e}") from None
    natural = _plan_of(module, func_name, check_bounds, memory_strategy)
    if natural is None or natural["arena"] <= budget:
        return module, None
    attempts: list[dict[str, Any]] = []

    def attempt(target: int, limit: int = 256) -> tuple[dict, ir.Module, Any]:
        copy = ir.Module.parse(module.operation.get_asm(enable_debug_info=True), module.context)
        result = rematerialize_function(pick_function(copy, func_name), target, checkpoint_ops=checkpoint_ops,
                                        max_extra_flops_ratio=max_extra_flops_ratio, scratch=cpu_scratch_bytes,
                                        max_remats=limit)
        plan = _plan_of(copy, func_name, check_bounds, memory_strategy) if result.recomputed else natural
        attempts.append({"target_bytes": target, "max_remats": limit, "arena": plan["arena"],
                         "tensors": len(result.recomputed), "extra_flops": result.extra_flops,
                         "stopped": result.stopped})
        return plan, copy, result

    target = live_peak(pick_function(module, func_name), cpu_scratch_bytes) - (natural["arena"] - budget)
    best: tuple[dict, ir.Module, Any] | None = None
    for _ in range(RECOMPUTE_ATTEMPTS):
        if target <= 0:
            break
        got = attempt(target)
        if best is None or got[0]["arena"] < best[0]["arena"]:
            best = got
        if got[0]["arena"] <= budget or got[2].stopped == "flops cap":
            break
        target -= got[0]["arena"] - budget  # what is still over, taken off the ge-level target
    if best is not None and best[0]["arena"] <= budget:
        lo, hi = 1, len(best[2].recomputed) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            got = attempt(best[2].target, mid)
            if got[0]["arena"] <= budget:
                best, hi = got, mid - 1
            else:
                lo = mid + 1
    plan, copy, result = best if best is not None else (natural, module, None)
    report = _recompute_report(module, func_name, natural, plan, result, budget, checkpoint_ops,
                               max_extra_flops_ratio, result.target if result else None, attempts)
    if plan["arena"] > budget:
        check_budget(plan, budget / 2**20, func_name, recompute=report)
    return copy, report


def recompute_without_budget(module: ir.Module, func_name: str, *, checkpoint_ops: Sequence[str] = (),
                             max_extra_flops_ratio: float | None = None, check_bounds: bool = True,
                             memory_strategy: str = "aggressive") -> tuple[ir.Module, dict | None]:
    """Recompute by op type, node-name pattern or FLOPs ratio with no memory budget: every
    recomputation ``ge-rematerialize`` finds that lowers the live peak (a target of 0 bytes), within
    ``checkpoint_ops`` and ``max_extra_flops_ratio``. Returns the rematerialized copy and the report
    (:func:`fit_budget`'s, ``budget`` None), or ``(module, None)`` when nothing helped."""
    from ...memory.ge_rematerialize import checkpoint_matcher, rematerialize_function

    try:
        checkpoint_matcher(checkpoint_ops)
    except ValueError as e:
        raise CompileError(f"recompute_checkpoint_ops: {e}") from None
    natural = _plan_of(module, func_name, check_bounds, memory_strategy)
    if natural is None:
        return module, None
    copy = ir.Module.parse(module.operation.get_asm(enable_debug_info=True), module.context)
    result = rematerialize_function(pick_function(copy, func_name), 0, checkpoint_ops=checkpoint_ops,
                                    max_extra_flops_ratio=max_extra_flops_ratio, scratch=cpu_scratch_bytes,
                                    max_remats=256)
    if not result.recomputed:
        return module, None
    plan = _plan_of(copy, func_name, check_bounds, memory_strategy)
    if plan["arena"] >= natural["arena"]:
        return module, None  # the ge-level peak fell, the lowered plan did not: keep the original
    return copy, _recompute_report(module, func_name, natural, plan, result, None, checkpoint_ops,
                                   max_extra_flops_ratio, 0, [])


def _recompute_report(module: ir.Module, func_name: str, natural: dict, plan: dict, result: Any,
                      budget: int | None, checkpoint_ops: Sequence[str], max_extra_flops_ratio: float | None,
                      target: int | None, attempts: list[dict[str, Any]]) -> dict[str, Any]:
    """``memory_plan["recompute"]``: what ``ge-rematerialize`` did (``result``, None when nothing)
    and the arena before and after; for a training step also its saved activations' peak."""
    from ...memory.training import read_phases, training_memory

    report = {
        "budget": budget, "natural_arena": natural["arena"], "arena": plan["arena"],
        "graph_flops": result.graph_flops if result else 0, "extra_flops": result.extra_flops if result else 0,
        "extra_flops_ratio": (result.extra_flops / result.graph_flops) if result and result.graph_flops else 0.0,
        "checkpoint_ops": list(checkpoint_ops), "max_extra_flops_ratio": max_extra_flops_ratio,
        "target_bytes": target, "attempts": attempts,
        "recomputed": [r.to_dict() for r in result.recomputed] if result else [],
    }
    phases = read_phases(pick_function(module, func_name))
    if phases:  # a training step: the saved activations' peak before and after
        report["saved_activations"] = {"before": training_memory(natural, phases).saved_peak,
                                       "after": training_memory(plan, phases).saved_peak}
    return report


TARGET = CpuTarget()
