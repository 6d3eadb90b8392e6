"""The CPU codegen strategy's tuning thresholds, in one place.

Each threshold says where it was measured; the recipes and the thread splitting read them from
here, never from a copy.
"""

from __future__ import annotations

__all__ = [
    "FLAT_WINDOW_MAX_COLUMNS", "MAX_WINDOW_TAPS", "PACKED_MIN_ROWS", "PACK_MAX_BYTES", "PARALLEL_MIN_ITERATIONS",
    "PARALLEL_MIN_MACS", "POINTWISE_COLUMNS_MIN_WIDTH", "ROWS_MIN_CHANNELS", "ROWS_MIN_FILTERS", "ROW_IM2COL_MAX_K",
    "SHIFTED_MIN_COLUMNS", "TRANSPOSE_BLOCK", "WINOGRAD_MAX_CF", "VectorTap", "k_block", "vector_reads_fit",
    "vector_starts", "vector_taps", "vector_width",
]

# --------------------------------------------------------------------------
# Convolutions
# --------------------------------------------------------------------------

#: Fewest output columns (output rows x padded width) of a stride-1 convolution computed as shifted
#: matmuls over the padded width (:func:`~.conv_im2col.conv_to_shifted_matmuls`). Small images:
#: kh*kw passes over short rows lost to one im2col matmul (measured with the earlier form, one
#: whole-output matmul per tap; this form only takes filters that are not constants or too few for
#: the output-position matmuls: 56x56 2.5 vs 3.8 ms, 28x28 2.8 vs 2.6, 7x7 20.8 vs 3.1). At 32x32
#: (1088 columns: the UNet decoder's 64->32 conv) shifted matmuls are as fast and need no 9x patch
#: matrix (UNet 3.87 vs 4.03 ms, arena 2.06 vs 3.28 MiB), hence 1000.
SHIFTED_MIN_COLUMNS = 1000

#: A convolution with a constant filter runs as matmuls over its output positions
#: (:func:`~.conv_rows.conv_to_shifted_rows`) from this many filters (a register tile's f32 width on SSE)...
ROWS_MIN_FILTERS = 16
#: ... and this many input channels (K per tap: the stem's 3 channels leave one FMA in 3 to the
#: loop, im2col's one K loop of C*kh*kw runs faster).
ROWS_MIN_CHANNELS = 8

#: Rows and columns of the blocks the transposed tile stores transpose with shuffles
#: (:mod:`.epilogue`): a tile stored transposed has at most this many rows and a multiple of
#: it as columns, and convolutions whose tiles are always stored so (Winograd, direct stem tiles)
#: need a multiple of it as filter count.
TRANSPOSE_BLOCK = 8

#: Largest C * F of a Winograd convolution (:func:`~.conv_winograd.conv_to_winograd`): its
#: transformed filter, 16 * C * F floats, is read once per two output rows and should stay in
#: the L2 (1 MiB at 128 x 128).
WINOGRAD_MAX_CF = 128 * 128

#: Most patch-matrix rows (``C*kh*kw``) of :func:`~.conv_im2col.conv_to_row_im2col` (a row's
#: patches stay in the L2).
ROW_IM2COL_MAX_K = 1024

#: Fewest output columns for which a 1x1 stride-1 convolution's tiles are filters by output
#: positions (the row's input read as the matmul's right operand, tiles stored without a
#: transpose: :func:`~.conv_im2col.conv_to_row_im2col`) rather than positions by filters
#: (:func:`~.conv_rows.conv_to_shifted_rows`). Measured on one core of the 2-core EPYC with bias
#: and ReLU6, ms, AVX-512 code (TN = 32) / AVX2 code (TN = 16): MobileNetV2's 16 -> 96 at 112 x 112
#: 0.397 -> 0.214 / 0.555 -> 0.381, 24 -> 144 at 56 x 56 0.172 -> 0.128 / 0.261 -> 0.210, 144 -> 24
#: 0.205 -> 0.148 / 0.263 -> 0.224; but at 28 x 28 32 -> 192 0.083 -> 0.096 / 0.113 -> 0.120 and
#: 192 -> 32 0.106 -> 0.138 (AVX2), at 14 x 14 96 -> 576 0.118 -> 0.344 (short rows split into
#: narrow column tiles).
POINTWISE_COLUMNS_MIN_WIDTH = 48

# --------------------------------------------------------------------------
# Matmuls
# --------------------------------------------------------------------------

#: Fewest rows of a matmul with a constant B for :func:`~.matmul_panels.matmul_to_packed_panels`
#: (one-row products keep the GEMV tiles of the plain path).
PACKED_MIN_ROWS = 2
#: Largest constant B packed (the compile holds it three times: the blob, its copy, the packed
#: one); larger ones keep the plain tiles.
PACK_MAX_BYTES = 1 << 28
#: K blocks of the cache level are divisors of K between these (:func:`k_block`): a [KB, TN] panel
#: of B (32 KiB at KB = 256 and TN = 32) stays in the L1 while every row tile of A passes over it.
K_BLOCK_MAX = 256
K_BLOCK_MIN = 64


def k_block(k: int) -> int:
    """K block of the cache level: a divisor of K in [64, 256], or 0 (no blocking)."""
    if k <= K_BLOCK_MAX:
        return 0
    return next((d for d in range(K_BLOCK_MAX, K_BLOCK_MIN - 1, -1) if k % d == 0), 0)


# --------------------------------------------------------------------------
# Depthwise convolutions and pools
# --------------------------------------------------------------------------

#: Most taps of a window op rewritten as a tap sum or vector code (more stay named linalg ops).
MAX_WINDOW_TAPS = 64

#: A tap of a window op's vector code: (input offset from the first column read, part), part None
#: for a plain read of the vector's width, 0 or 1 for the even or odd half of a double-width read.
VectorTap = tuple[int, "int | None"]


def vector_width(columns: int, lanes: int) -> int:
    """Lanes of a window op's output vectors: ``lanes``, or the largest power of two a shorter
    row holds."""
    return min(lanes, 1 << (columns.bit_length() - 1))


def vector_starts(columns: int, width: int) -> list[int]:
    """First output column of each vector of a row: the last overlaps the one before (it recomputes
    a few columns instead of leaving a scalar remainder)."""
    starts = list(range(0, columns - width + 1, width))
    if starts[-1] != columns - width:
        starts.append(columns - width)
    return starts


def vector_taps(at: int, bound: int, kw: int, stride: int, dilation: int, width: int) -> list[VectorTap]:
    """Where each tap's vector comes from when the vector's first input column is ``at``: stride 1
    reads ``width`` elements (part None); stride 2 reads twice that and keeps the even (part 0) or
    the odd (1) ones: an odd tap is the odd half of the even tap's read before it, an even tap the
    odd half of the read one earlier when its own read from ``at`` would pass ``bound``."""
    taps: list[VectorTap] = []
    for kx in range(kw):
        off = kx * dilation
        if stride == 1:
            taps.append((off, None))
        elif kx % 2 == 0 and at + off + 2 * width <= bound:
            taps.append((off, 0))
        else:
            taps.append((off - 1, 1))
    return taps


def vector_reads_fit(at: int, taps: list[VectorTap], low: int, bound: int, width: int) -> bool:
    """Whether every read of ``taps`` from ``at`` stays within columns [low, bound)."""
    return all(at + o >= low and at + o + (width if p is None else 2 * width) <= bound for o, p in taps)


#: Below this many output columns a stride-1 window op runs over the padded width (see
#: :func:`~.windows.window_to_taps`): a 14- or 7-column row leaves most of a 16-lane vector loop
#: to the scalar remainder (MobileNetV2's 14x14 depthwise layers ran 3x slower than onnxruntime's).
FLAT_WINDOW_MAX_COLUMNS = 32

# --------------------------------------------------------------------------
# Threads
# --------------------------------------------------------------------------

#: Fewest multiply-adds in one matmul part before it is spread over threads: a parallel region
#: costs a fork and a barrier on the thread team (a few microseconds with its workers spinning,
#: tens when they must be woken); 512K multiply-adds take about 5 us on one core. Measured on the
#: 2-core EPYC against 2^22: the small UNet's 8- and 16-channel convolutions (1M multiply-adds per
#: tap) got their first parallel regions (2 threads 1.09 -> 0.86 of onnxruntime), ResNet-18 1.53 -> 1.40.
PARALLEL_MIN_MACS = 1 << 19

#: Fewest loop iterations (all loops of the op) before an elementwise or window ``linalg.generic``
#: is spread over threads: a fork and barrier on the hot team take a few microseconds, 64K
#: iterations of a depthwise tap sum or an epilogue several times that.
PARALLEL_MIN_ITERATIONS = 1 << 16
