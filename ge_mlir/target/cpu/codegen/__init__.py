"""CPU codegen strategy on linalg tensors (runs before bufferization).

1. Convolutions (``conv_2d_nchw_fchw`` only) of batch 1 with a constant filter
   become matmuls over the output positions (:func:`.conv_rows.conv_to_shifted_rows`):
   register tiles of consecutive positions of one output row by filters, each
   tap's window read from the padded input in place, the filter packed, all
   taps summed in registers and the tile stored transposed through the
   convolution's epilogue as vector code (:mod:`.epilogue`: per-filter ops on the
   tile's rows, one shuffle transpose, per-position ops after it). 3x3 stride-1
   ones run as Winograd F(2x2, 3x3) (:mod:`.conv_winograd`). Wide 1x1 stride-1 ones
   use filters-by-positions tiles over the input rows, and other batch-1 ones with
   few channels im2col one output row at a time (:func:`.conv_im2col.conv_to_row_im2col`;
   strided rows from the input split by column phase), or direct vector tiles
   (:func:`.conv_rows.conv_to_direct_rows`). Other stride-1 ones of large images
   become shifted matmuls over the padded width
   (:func:`.conv_im2col.conv_to_shifted_matmuls`); the rest im2col + matmul: a gather
   ``linalg.generic`` builds the ``[C*kh*kw, Ho*Wo]`` patch matrix (a plain
   reshape for 1x1 stride-1 convolutions) and the filter ``[F, C*kh*kw]``
   multiplies it. Depthwise convolutions and pools become vector code over
   output columns (:func:`.windows.window_to_vectors`), else a tap-sum generic
   (:func:`.windows.window_to_taps`).
2. A ``linalg.matmul`` with a constant B (two or more rows, any size) reads B
   packed in column panels (:mod:`.matmul_panels`). Every other statically
   shaped ``linalg.matmul`` / ``linalg.batch_matmul`` is register-tiled and
   vectorized with the transform dialect (:mod:`.transform_script`). In both, tiles of
   ``[TM, TN, 1]`` become ``vector.contract`` lowered to outer products
   (FMAs); the accumulator tile is hoisted out of the K loop so it stays in
   registers. TM x TN is sized to the vector registers of the CPU the JIT
   generates code for (:mod:`..cpu_info`: 8x32 f32 with AVX-512, 6x16 with
   AVX2). A column count that TN does not divide is split into a TN-multiple
   part and narrower rests, each with static tile sizes (masked vectors were
   measured 9x slower).

Everything else (elementwise, reductions, data movement) is left to
``convert-linalg-to-loops`` and LLVM's loop vectorizer; large generics are split over
threads (:mod:`.threads`).

Which path each op takes is decided in one place, :mod:`.strategy` (with every tuning threshold),
from the facts :mod:`.selection` reads off the IR. The CPU pipeline runs this as the passes
``ge-select-codegen-strategy`` (:func:`select_strategy`: the path recorded on each op as
``ge.cpu_strategy``), ``ge-apply-codegen-strategy`` (:func:`apply_strategy`, on tensors: each op
by the recipe of its path, the record removed) and ``ge-hoist-vector-transfers`` (after
bufferization).
"""

from __future__ import annotations

from typing import Any

__all__ = ["STRATEGY_ATTR", "apply_strategy", "kernel_options", "select_strategy"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: the memory model imports the selection (.strategy) without the recipes
    # and the MLIR dialects they build with.
    if name in ("apply_strategy", "kernel_options"):
        from . import driver

        return getattr(driver, name)
    if name in ("STRATEGY_ATTR", "select_strategy"):
        from . import selection

        return getattr(selection, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
