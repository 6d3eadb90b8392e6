"""Which CPU codegen path each op takes, and every tuning threshold behind the choice.

IREE's LLVMCPU backend decides a dispatch's lowering once (``KernelDispatch.cpp``), records it on
the op (``lowering_config``) and lets the transforms read it; so does this module. The decisions
are pure functions of what the op is (shapes, element types, whether the weights are constants,
how its output starts, its epilogue) and of the kernel options (register tile, vector lanes,
Winograd): :func:`select_conv_path`, :func:`select_window_path`, :func:`select_matmul_path`.
``ge-select-codegen-strategy`` records their answer on each op (:mod:`.selection`), the recipes of
``ge-apply-codegen-strategy`` follow it, and the CPU memory model
(:mod:`ge_mlir.target.cpu.memory_model`) asks the same functions what the lowering will allocate.

Each threshold says where it was measured; the recipes and the thread splitting read them from
here, never from a copy.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ....irutils.windows import clamped_max_window_ok

__all__ = [
    "CACHE_LINE_BYTES", "FLAT_WINDOW_MAX_COLUMNS", "K_BLOCK_MAX", "K_BLOCK_MIN", "MAX_WINDOW_TAPS", "PACKED_MIN_ROWS",
    "PACK_MAX_BYTES", "PARALLEL_MIN_ITERATIONS", "PARALLEL_MIN_MACS", "POINTWISE_COLUMNS_MIN_WIDTH",
    "ROWS_MIN_CHANNELS", "ROWS_MIN_FILTERS", "ROW_IM2COL_MAX_K", "SHIFTED_MIN_COLUMNS", "SPREAD_MIN_ROWS",
    "TRANSPOSE_BLOCK", "WINOGRAD_MAX_CF", "ConvFacts", "ConvPath", "KernelOptions", "MatmulFacts", "MatmulPath",
    "VectorTap", "WindowFacts", "WindowPath", "k_block", "row_im2col_splits_by_phase", "select_conv_path",
    "select_matmul_path", "select_window_path", "tiles_store_transposed", "vector_reads_fit", "vector_starts",
    "vector_taps", "vector_width",
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



def row_im2col_splits_by_phase(kw: int, wo: int, wp: int, stride: int, dilation: int) -> bool:
    """Whether im2col one output row at a time gathers a strided row from the input split once by
    column phase (``[1, C, Hp, s, Wp / s]``, phase p holding columns p, p + s, ...): every tap of
    every position must lie in a phase's columns (no dilation along the rows)."""
    return stride > 1 and dilation == 1 and (wo - 1) + (kw - 1) // stride < wp // stride


# --------------------------------------------------------------------------
# Matmuls
# --------------------------------------------------------------------------

#: Fewest rows of a matmul with a constant B for :func:`~.matmul_panels.matmul_to_packed_panels`
#: (one-row products keep the GEMV tiles of the plain path).
PACKED_MIN_ROWS = 2
#: Largest constant B packed (the compile holds it three times: the blob, its copy, the packed
#: one); larger ones keep the plain tiles.
PACK_MAX_BYTES = 1 << 28
#: Bytes of a cache line (x86-64's L1D).
CACHE_LINE_BYTES = 64
#: Fewest rows of a constant B whose rows are spread over the L1 sets by one line of padding
#: (:func:`~.matmul_panels.spread_constant_rows`: a [K, TN] panel of fewer rows fits the sets it
#: falls in).
SPREAD_MIN_ROWS = 16
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


# --------------------------------------------------------------------------
# Selection
# --------------------------------------------------------------------------

#: Element types the contraction recipes write (one type for all operands).
_FLOATS = ("f32", "f64")


@dataclass(frozen=True)
class KernelOptions:
    """What the selection knows of the kernels: the f32 register tile (:mod:`..cpu_info`), the f32
    lanes of a window op's vectors, and whether 3x3 convolutions may run as Winograd."""

    tile_m: int
    tile_n: int
    lanes: int
    winograd: bool = True


def tiles_store_transposed(tile_m: int, tile_n: int) -> bool:
    """Whether a ``[tile_m, tile_n]`` tile of positions by filters can be stored transposed by the
    shuffle blocks of :mod:`.epilogue` (every JIT CPU's tile can: at most 8 rows, two vectors)."""
    return tile_m <= TRANSPOSE_BLOCK and tile_n % TRANSPOSE_BLOCK == 0


class ConvPath(enum.Enum):
    """How a ``linalg.conv_2d_nchw_fchw`` is written (the recipe in brackets)."""

    #: 1x1 stride-1 on wide rows: filters-by-positions tiles over the input rows (conv_to_row_im2col, no gather).
    POINTWISE = "pointwise"
    #: Winograd F(2x2, 3x3) (conv_to_winograd).
    WINOGRAD = "winograd"
    #: Register tiles of output positions by filters, one K loop per tap (conv_to_shifted_rows).
    SHIFTED_ROWS = "shifted_rows"
    #: Shifted matmuls over the padded width (conv_to_shifted_matmuls).
    SHIFTED_MATMULS = "shifted_matmuls"
    #: Direct vector tiles for few input channels, the stems (conv_to_direct_rows).
    DIRECT_ROWS = "direct_rows"
    #: im2col one output row at a time (conv_to_row_im2col).
    ROW_IM2COL = "row_im2col"
    #: im2col of the whole image, then one matmul (conv_to_img2col).
    IMG2COL = "img2col"
    #: Left to convert-linalg-to-loops (dynamic, mixed, empty or not f32/f64).
    NONE = "none"


@dataclass(frozen=True)
class ConvFacts:
    """What the choice of a convolution's path depends on (NCHW input, FCHW filter)."""

    #: The element type of the input, the filter and the output, or ``""`` when they differ.
    element: str
    batch: int
    channels: int
    #: Rows and columns of the (padded) input the convolution reads.
    in_hw: tuple[int, int]
    filters: int
    kernel: tuple[int, int]
    out_hw: tuple[int, int]
    strides: tuple[int, int]
    dilations: tuple[int, int]
    #: The filter is a constant the compile can read (the recipes lay it out at compile time).
    constant_filter: bool
    #: The output starts as zeros (the recipes start their tiles from zero vectors instead).
    zero_init: bool = True
    #: No elementwise epilogue, or one the tiles can apply as vector code (:mod:`.epilogue`).
    vector_epilogue: bool = True

    @property
    def empty(self) -> bool:
        return 0 in (self.batch, self.channels, *self.in_hw, self.filters, *self.kernel, *self.out_hw)


def _transposed_tiles(f: ConvFacts, options: KernelOptions) -> bool:
    """Whether the convolution's register tiles can be stored transposed through its epilogue:
    f32, batch 1, a constant filter of a multiple of 8 filters, an output that starts as zeros, an
    epilogue of vector code, a tile the shuffle blocks transpose."""
    return (f.batch == 1 and f.element == "f32" and f.filters % TRANSPOSE_BLOCK == 0 and f.constant_filter
            and f.zero_init and f.vector_epilogue and tiles_store_transposed(options.tile_m, options.tile_n))


def _winograd(f: ConvFacts, options: KernelOptions) -> bool:
    """3x3, stride and dilation 1, padded by 1, an even output, enough channels, C * F small enough."""
    ho, wo = f.out_hw
    return (options.winograd and f.kernel == (3, 3) and f.strides == (1, 1) and f.dilations == (1, 1)
            and ho % 2 == 0 and wo % 2 == 0 and f.in_hw == (ho + 2, wo + 2) and f.channels >= ROWS_MIN_CHANNELS
            and f.channels * f.filters <= WINOGRAD_MAX_CF and _transposed_tiles(f, options))


def _row_im2col(f: ConvFacts) -> bool:
    """Batch 1, a row's patches small enough, at least a register tile's width of filters."""
    return (f.batch == 1 and f.channels * f.kernel[0] * f.kernel[1] <= ROW_IM2COL_MAX_K
            and f.filters >= ROWS_MIN_FILTERS and f.zero_init)


def select_conv_path(f: ConvFacts | None, options: KernelOptions) -> ConvPath:
    """The path of a convolution: the first that applies of 1x1 filters-by-positions tiles on wide
    rows, Winograd, tiles over the output positions, shifted matmuls (large stride-1 images),
    direct stem tiles, row im2col, im2col.

    Tiles over the output positions come before shifted matmuls: no padded-width waste, no input
    copy (a 56 x 56 layer-1 convolution 1.07 ms over columns, 1.01 over rows); shifted matmuls
    take the filters that are not constants or too few."""
    if f is None or f.element not in _FLOATS or f.empty:
        return ConvPath.NONE
    kh, kw = f.kernel
    ho, wo = f.out_hw
    if kh == kw == 1 and f.strides == (1, 1) and wo >= POINTWISE_COLUMNS_MIN_WIDTH and _row_im2col(f):
        return ConvPath.POINTWISE
    if _winograd(f, options):
        return ConvPath.WINOGRAD
    if (f.batch == 1 and f.filters >= ROWS_MIN_FILTERS and f.channels >= ROWS_MIN_CHANNELS and f.zero_init
            and f.constant_filter):
        return ConvPath.SHIFTED_ROWS
    if (f.batch == 1 and f.strides == (1, 1) and kh * kw != 1 and f.zero_init
            and ho * f.in_hw[1] >= SHIFTED_MIN_COLUMNS):
        return ConvPath.SHIFTED_MATMULS
    if f.channels < ROWS_MIN_CHANNELS and f.filters >= ROWS_MIN_FILTERS and _transposed_tiles(f, options):
        return ConvPath.DIRECT_ROWS
    if kh * kw != 1 and _row_im2col(f):
        return ConvPath.ROW_IM2COL
    return ConvPath.IMG2COL


class WindowPath(enum.Enum):
    """How a depthwise convolution or NCHW pool is written (:mod:`.windows`)."""

    #: A max pool reading its unpadded input in place, taps clamped into it (window_to_vectors).
    CLAMPED_VECTORS = "clamped_vectors"
    #: Vector code over output columns, the epilogue in the vectors (window_to_vectors).
    VECTORS = "vectors"
    #: One elementwise generic over the taps (window_to_taps).
    TAPS = "taps"
    #: Left a named linalg op (dynamic, not float, mixed types, empty, too many taps).
    NONE = "none"


@dataclass(frozen=True)
class WindowFacts:
    """What the choice of a window op's path depends on."""

    #: ``depthwise``, ``max`` or ``sum``.
    kind: str
    #: Element types of the input, the filter (the window shape of a pool) and the output.
    elements: tuple[str, str, str]
    #: The input's element type is a float type (any width).
    float_input: bool
    rank: int
    #: Rows and columns of the (padded) input the op reads.
    in_hw: tuple[int, int]
    kernel: tuple[int, int]
    out_hw: tuple[int, int]
    strides: tuple[int, int]
    dilations: tuple[int, int]
    #: Some operand has a zero dimension.
    empty: bool
    #: The output starts as the op's identity (0 for sums, -inf for max).
    fresh: bool
    #: A max pool's input that is an unpadded input inserted whole into a lowest-value buffer:
    #: (its rows, columns, top and left padding); else None.
    unpadded: tuple[int, int, int, int] | None = None


def select_window_path(f: WindowFacts | None, options: KernelOptions) -> WindowPath:
    """Vector code for f32 NCHW ops with a fresh output, at least two output columns and a row
    stride of 1 or 2 (2 without dilation) whose vector reads stay in the input (a max pool of a
    -inf padded input reads the input itself when its windows all overlap it); else a tap sum
    for float ops of one element type; else nothing."""
    if f is None or f.empty:
        return WindowPath.NONE
    kh, kw = f.kernel
    ho, wo = f.out_hw
    sx = f.strides[1]
    if (f.rank == 4 and f.elements == ("f32", "f32", "f32") and f.fresh and wo >= 2 and kh * kw <= MAX_WINDOW_TAPS
            and sx in (1, 2) and not (sx == 2 and f.dilations[1] != 1)):
        if f.kind == "max" and f.unpadded is not None:
            h, w, top, left = f.unpadded
            if clamped_max_window_ok((h, w), (ho, wo), (kh, kw), list(f.strides), list(f.dilations), (top, left)):
                return WindowPath.CLAMPED_VECTORS
        width = vector_width(wo, options.lanes)
        last = sx * vector_starts(wo, width)[-1]
        wp = f.in_hw[1]
        taps = vector_taps(last, wp, kw, sx, f.dilations[1], width)
        if all(o >= 0 for o, _ in taps) and vector_reads_fit(last, taps, 0, wp, width):
            return WindowPath.VECTORS
    if f.float_input and f.elements[0] == f.elements[2] and kh * kw <= MAX_WINDOW_TAPS:
        return WindowPath.TAPS
    return WindowPath.NONE


class MatmulPath(enum.Enum):
    """How a ``linalg.matmul`` / ``linalg.batch_matmul`` is written."""

    #: B packed in column panels at compile time, an own tile loop nest (:mod:`.matmul_panels`).
    PACKED_PANELS = "packed_panels"
    #: Register-tiled and vectorized by the transform script (:mod:`.transform_script`).
    TILED = "tiled"
    #: Left to convert-linalg-to-loops (dynamic, mixed precision, empty).
    NONE = "none"


@dataclass(frozen=True)
class MatmulFacts:
    """What the choice of a matmul's path depends on."""

    #: ``linalg.batch_matmul`` (else ``linalg.matmul``).
    batched: bool
    #: The element type of every operand, or ``""`` when they differ.
    element: str
    #: Shapes of A, B and the output.
    shapes: tuple[tuple[int, ...], ...]
    #: The plain matmul maps (no transposed or broadcast operand).
    default_maps: bool
    #: B is a constant the compile reads into memory, or (``b_blob_bytes``) a larger resource blob
    #: packing can read: its size in bytes.
    constant_b: bool
    b_blob_bytes: int | None = None

    @property
    def empty(self) -> bool:
        return any(0 in s for s in self.shapes)


def select_matmul_path(f: MatmulFacts | None, options: KernelOptions | None = None) -> MatmulPath:
    """Packed panels for a 2-D matmul with a constant B and at least two rows (one-row products
    keep the wide GEMV tiles); register tiles for every other static f32/f64 contraction."""
    # Mixed-precision contractions (f16 in, f32 accumulate) leave 2-D vector casts the LLVM
    # lowering cannot translate; zero-size ones (an empty batch, K = 0) have nothing to tile, and
    # tiling a K = 0 contraction trips an assertion in linalg's slice computation (process
    # abort). Both keep the loop form.
    if f is None or f.element not in _FLOATS or f.empty:
        return MatmulPath.NONE
    readable_b = f.constant_b or (f.b_blob_bytes is not None and f.b_blob_bytes <= PACK_MAX_BYTES)
    if not f.batched and f.default_maps and f.shapes[0][0] >= PACKED_MIN_ROWS and readable_b:
        return MatmulPath.PACKED_PANELS
    return MatmulPath.TILED
