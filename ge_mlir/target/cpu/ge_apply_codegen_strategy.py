"""ge-apply-codegen-strategy: the CPU codegen strategy on linalg tensors (see :mod:`.codegen`).

Convolutions become im2col + matmul (or one matmul per filter tap on large
stride-1 images), depthwise convolutions and pools a sum over strided input
slices, and every static f32/f64 matmul / batch_matmul is split into
power-of-two parts, register-tiled (``tile-m`` x ``tile-n`` f32 accumulators; f64 tiles have half
the columns) and vectorized to outer products (FMAs) with the transform
dialect. The tile fits the vector registers of ``cpu`` (the JIT CPU: ``host``
or an x86-64 level, see :mod:`.cpu_info`) unless ``tile-m``/``tile-n`` are
given. Runs before bufferization; ``ge-hoist-vector-transfers`` finishes the
matmul kernel after it.
"""

from __future__ import annotations

from mlir import ir

from ...errors import PassFailure
from ...passes.registry import Option, Pass, register_pass
from .codegen import apply_strategy
from .cpu_info import kernel_params


@register_pass
class GeApplyCodegenStrategyPass(Pass):
    name = "ge-apply-codegen-strategy"
    summary = "CPU codegen: convolutions to matmuls, window ops to tap sums, tiled and vectorized matmuls"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 50
    options = (
        Option("cpu", str, "host", "the CPU the code is generated for: host, x86-64, x86-64-v2, -v3 or -v4"),
        Option("tile-m", int, 0, "rows of the matmul register tile (0: from cpu)"),
        Option("tile-n", int, 0, "f32 columns of the matmul register tile, a multiple of the vector width "
                                 "(0: from cpu)"),
        Option("threads", int, 1, "threads the code runs on: above 1, the column panels of large matmuls "
                                  "become scf.forall iterations"),
        Option("winograd", bool, True, "f32 3x3 stride-1 convolutions with a constant filter as Winograd "
                                       "F(2x2, 3x3) where they qualify (false: direct)"),
    )

    def run(self, module: ir.Operation) -> None:
        try:
            params = kernel_params(self.opt("cpu"))
        except ValueError as e:
            raise PassFailure(str(e)) from None
        tile_m = self.opt("tile-m") or params.tile_m
        tile_n = self.opt("tile-n") or params.tile_n
        gemv_n = 0 if self.opt("tile-n") else params.gemv_n  # an explicit tile-n sets both
        if tile_m < 1 or tile_n < 1:
            raise PassFailure(f"the matmul register tile must be positive, got {tile_m}x{tile_n}")
        if self.opt("threads") < 1:
            raise PassFailure(f"threads must be at least 1, got {self.opt('threads')}")
        try:
            stats = apply_strategy(module, tile_m=tile_m, tile_n=tile_n, threads=self.opt("threads"), gemv_n=gemv_n,
                                  lanes=params.vector_bits // 32, winograd=self.opt("winograd"))
        except (ValueError, ir.MLIRError) as e:  # the transform interpreter reports failures as exceptions
            raise PassFailure(f"the CPU codegen strategy failed: {e}") from None
        for key, n in stats.items():
            self.bump(key, n)
        self.bump("rewrites", sum(stats.values()))
