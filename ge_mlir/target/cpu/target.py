"""The CPU target: ``linalg`` -> ``bufferized`` -> ``llvm``, then the MLIR JIT (``CpuExecutable``)."""

from __future__ import annotations

import time
from typing import Any

from mlir import ir

from ...ir.functions import pick_function
from ...options import CompileOptions
from ...plan.budget import check_budget
from ...plan.ge_plan_memory import read_memory_plan
from ..base import StageCallback, Target, TargetResult


class CpuTarget(Target):
    name = "cpu"
    #: ``linalg``: ge-lower-to-linalg (i1 stored as i8); ``bufferized``: the codegen strategy and
    #: one-shot bufferization; ``llvm``: the LLVM dialect handed to the JIT.
    stages = ("linalg", "bufferized", "llvm")

    def compile(self, module: ir.Module, options: CompileOptions, *, func_name: str, compile_to: str,
                done: StageCallback, **target_options: Any) -> TargetResult:
        from .runner import CpuExecutable

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
                            on_stage=stage_done, check_bounds=options.check_bounds,
                            memory_strategy=options.memory_reuse_strategy or "aggressive")
        times = {"jit": time.perf_counter() - last} if compile_to == "llvm" else {}
        return TargetResult(run=exe.run if compile_to == "llvm" else None, inputs=exe.inputs,
                            outputs=exe.outputs, times=times, memory_plan=exe.memory_plan)


TARGET = CpuTarget()
