"""ge-select-codegen-strategy: record on each op the CPU codegen path ``ge-apply-codegen-strategy`` takes.

Each ``linalg.conv_2d_nchw_fchw``, depthwise convolution, NCHW pool, ``linalg.matmul`` and
``linalg.batch_matmul`` gets the discardable attribute ``ge.cpu_strategy``: the path the
selection of :mod:`.codegen.strategy` gives it for the kernels of ``cpu`` (Winograd, tiles over the
output positions, shifted matmuls, direct stem tiles, im2col by rows or whole, packed panels,
register tiles, window vectors or tap sums, or ``none``), as IREE's
``iree-llvmcpu-select-lowering-strategy`` records a ``lowering_config``. ``ge-apply-codegen-strategy``
follows the recorded path and removes the attribute; run alone, it selects the same way. A path
written by hand is followed as it is: the recipes assume what the selection checks.
"""

from __future__ import annotations

from mlir import ir

from ...errors import PassFailure
from ...passes.registry import Option, Pass, register_pass
from .cpu_info import kernel_params

#: The options that size the kernels, shared with ge-apply-codegen-strategy (it selects the same way).
CPU_OPTION = Option("cpu", str, "host", "the CPU the code is generated for: host, x86-64, x86-64-v2, -v3 or -v4")
TILE_OPTIONS = (
    Option("tile-m", int, 0, "rows of the matmul register tile (0: from cpu)"),
    Option("tile-n", int, 0, "f32 columns of the matmul register tile, a multiple of the vector width "
                             "(0: from cpu)"),
)
WINOGRAD_OPTION = Option("winograd", bool, True, "f32 3x3 stride-1 convolutions with a constant filter as "
                                                 "Winograd F(2x2, 3x3) where they qualify (false: direct)")


def kernel_settings(p: Pass):
    """(the selection's :class:`~.codegen.strategy.KernelOptions`, the one-row tile's columns) of a
    pass with the options above; PassFailure for an unknown CPU or a tile that is not positive."""
    from .codegen.driver import kernel_options

    try:
        params = kernel_params(p.opt("cpu"))
    except ValueError as e:
        raise PassFailure(str(e)) from None
    tile_m = p.opt("tile-m") or params.tile_m
    tile_n = p.opt("tile-n") or params.tile_n
    gemv_n = 0 if p.opt("tile-n") else params.gemv_n  # an explicit tile-n sets both
    if tile_m < 1 or tile_n < 1:
        raise PassFailure(f"the matmul register tile must be positive, got {tile_m}x{tile_n}")
    return kernel_options(tile_m, tile_n, params.vector_bits // 32, p.opt("winograd")), gemv_n


@register_pass
class GeSelectCodegenStrategyPass(Pass):
    name = "ge-select-codegen-strategy"
    summary = "CPU codegen: record on each convolution, window op and matmul the path its rewrite takes"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 49
    options = (CPU_OPTION, *TILE_OPTIONS, WINOGRAD_OPTION)

    def run(self, module: ir.Operation) -> None:
        from .codegen.selection import select_strategy

        options, _ = kernel_settings(self)
        try:
            counts = select_strategy(module, options)
        except (ValueError, ir.MLIRError) as e:
            raise PassFailure(f"the CPU codegen strategy failed: {e}") from None
        for path, n in counts.items():
            self.bump(path, n)
