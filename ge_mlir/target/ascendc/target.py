"""The Ascend C target: ``ascendc`` (kernels and host program in the ``ascendc`` dialect, by
``ge-lower-to-ascendc``, its intermediate tensors placed in one device arena by
``ge-plan-device-memory``) -> ``source`` (the emitted Ascend C project), then, by ``run_on``, a
build against the clean-room CPU shim, nothing, or a build with the CANN toolkit."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlir import ir

from ...errors import CompileError
from ...memory.budget import check_budget
from ...memory.ge_plan_memory import read_memory_plan
from ..base import StageCallback, Target, TargetResult

if TYPE_CHECKING:  # annotations only: loading a saved model needs no configuration
    from ...config.options import ResolvedOptions

#: Where an ``ascendc`` compile can run: the CPU shim (g++), nowhere (only
#: the project), or an NPU through the CANN toolkit.
RUN_ON: tuple[str, ...] = ("cpu-shim", "none", "npu")


class AscendCTarget(Target):
    name = "ascendc"
    stages = ("ascendc", "source")
    target_options = {"output_dir": None, "run_on": "cpu-shim"}

    def check(self, options: ResolvedOptions, target_options: Mapping[str, Any]) -> None:
        run_on = target_options["run_on"]
        if run_on not in RUN_ON:
            raise CompileError(f"unknown run_on {run_on!r} (choices: {', '.join(RUN_ON)})")
        from .socs import SOCS

        if options.soc is not None and options.soc not in SOCS:
            raise CompileError(f"unknown soc {options.soc!r} (known: {', '.join(SOCS)})")
        if options.num_threads != 1:
            # Host threads mean nothing to kernels split over AI cores (blockDim).
            raise CompileError(f"num_threads is a cpu option; target ascendc splits kernels over the SoC's "
                               f"AI cores instead (got num_threads={options.num_threads})")

    def compile(self, module: ir.Module, options: ResolvedOptions, *, func_name: str, compile_to: str,
                done: StageCallback, **target_options: Any) -> TargetResult:
        import shutil
        import tempfile

        from ...passes.pipeline import run_elements
        from .emit import write_project
        from .summary import kernel_summaries

        soc, output_dir, run_on = options.soc, target_options["output_dir"], target_options["run_on"]
        lower = f"ge-lower-to-ascendc{{soc={soc}}}" if soc else "ge-lower-to-ascendc"
        plan_memory = f"ge-plan-device-memory{{strategy={options.memory_reuse_strategy or 'aggressive'}}}"
        run_elements(module, f"builtin.module({lower}, {plan_memory})", "the ascendc stage")
        done("ascendc", module)
        kernels = kernel_summaries(module)
        plan = _memory_plan(module)
        if plan is not None and options.memory_budget_mb is not None:
            # Before the project is written and built: an over-budget graph fails fast.
            check_budget(plan, options.memory_budget_mb, func_name)
        if compile_to == "ascendc":
            return TargetResult(kernels=kernels, memory_plan=plan)
        out = Path(output_dir) if output_dir is not None else Path(tempfile.mkdtemp(prefix="ge-ascendc-"))
        if out.exists() and not out.is_dir():
            raise CompileError(f"output_dir {str(out)!r} exists and is not a directory")
        try:
            project = write_project(module, out)
        except OSError as e:
            raise CompileError(f"cannot write the Ascend C project to {str(out)!r}: {e}") from None
        files = sorted(p for p in project.rglob("*") if p.is_file() and p.suffix in (".cpp", ".h", ".txt", ".json"))
        done("source", "".join(f"// ----- file: {p.relative_to(project)}\n{p.read_text()}" for p in files))
        exe = None
        if run_on == "cpu-shim":
            if shutil.which("g++") is None:
                raise CompileError("run_on='cpu-shim' needs g++ on PATH to build the project "
                                   f"(written to {project}); use run_on='none' to only write it")
            from .shim_runner import ShimExecutable

            exe = ShimExecutable(project, build=True)
        elif run_on == "npu":
            _build_with_cann(project)
        return TargetResult(run=exe.run if exe is not None else None, project_dir=project, kernels=kernels,
                            memory_plan=plan)

    def not_runnable_reason(self, compile_to: str, result: TargetResult) -> str:
        return ("the Ascend C project was not built for this machine (compile with run_on='cpu-shim' "
                f"to run it on the CPU shim); project: {result.project_dir}")


def _memory_plan(module: ir.Module) -> dict[str, Any] | None:
    """The device-memory plan of the module's host program (``ge.memory_plan``), as the CPU target gives it."""
    for op in module.body.operations:
        if op.operation.name == "ascendc.host":
            return read_memory_plan(op.operation)
    return None


def _build_with_cann(project: Path) -> None:
    """Builds the project with the CANN toolkit's CMake flow, or says why it cannot."""
    import os
    import shutil
    import subprocess

    home = os.environ.get("ASCEND_HOME_PATH")
    if not home or not Path(home).is_dir():
        raise CompileError(
            "run_on='npu' needs the CANN toolkit, and ASCEND_HOME_PATH is not set (or not a directory) "
            f"on this machine. The Ascend C project is in {project}; build it where CANN is installed "
            "with: cmake -S . -B build -DGE_ASCENDC_MODE=asc && cmake --build build"
        )
    cmake = shutil.which("cmake")
    if cmake is None:
        raise CompileError("run_on='npu' needs cmake on PATH")
    for cmd in ([cmake, "-S", str(project), "-B", str(project / "build-npu"), "-DGE_ASCENDC_MODE=asc"],
                [cmake, "--build", str(project / "build-npu")]):
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise CompileError(f"the CANN build failed ({' '.join(cmd)}):\n{proc.stdout}{proc.stderr}")


TARGET = AscendCTarget()
