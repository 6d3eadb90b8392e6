"""ge-apply-codegen-strategy: the CPU codegen strategy on linalg tensors (see :mod:`.codegen`).

Convolutions become im2col + matmul (or one matmul per filter tap on large
stride-1 images), depthwise convolutions and pools a sum over strided input
slices, and every static f32/f64 matmul / batch_matmul is split into
power-of-two parts, register-tiled (``tile-m`` x ``tile-n`` f32 accumulators; f64 tiles have half
the columns) and vectorized to outer products (FMAs) with the transform
dialect. The tile fits the vector registers of ``cpu`` (the JIT CPU: ``host``
or an x86-64 level, see :mod:`.cpu_info`) unless ``tile-m``/``tile-n`` are
given. Each op takes the path ``ge-select-codegen-strategy`` recorded on it (the attribute goes),
else the one the same selection gives here. Runs before bufferization; ``ge-hoist-vector-transfers``
finishes the matmul kernel after it.
"""

from __future__ import annotations

from mlir import ir

from ...errors import PassFailure
from ...passes.registry import Option, Pass, register_pass
from .codegen import apply_strategy
from .ge_select_codegen_strategy import CPU_OPTION, TILE_OPTIONS, WINOGRAD_OPTION, kernel_settings


@register_pass
class GeApplyCodegenStrategyPass(Pass):
    name = "ge-apply-codegen-strategy"
    summary = "CPU codegen: convolutions to matmuls, window ops to tap sums, tiled and vectorized matmuls"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 50
    options = (
        CPU_OPTION,
        *TILE_OPTIONS,
        Option("threads", int, 1, "threads the code runs on: above 1, the column panels of large matmuls "
                                  "become scf.forall iterations"),
        WINOGRAD_OPTION,
    )

    def run(self, module: ir.Operation) -> None:
        options, gemv_n = kernel_settings(self)
        if self.opt("threads") < 1:
            raise PassFailure(f"threads must be at least 1, got {self.opt('threads')}")
        try:
            stats = apply_strategy(module, tile_m=options.tile_m, tile_n=options.tile_n, threads=self.opt("threads"),
                                   gemv_n=gemv_n, lanes=options.lanes, winograd=options.winograd)
        except (ValueError, ir.MLIRError) as e:  # the transform interpreter reports failures as exceptions
            raise PassFailure(f"the CPU codegen strategy failed: {e}") from None
        for key, n in stats.items():
            self.bump(key, n)
        self.bump("rewrites", sum(stats.values()))
