"""The CPU codegen's path selection (ge_mlir.target.cpu.codegen.strategy) on its own: each path and
the thresholds at their edges, from the facts alone (no IR)."""

import dataclasses

import pytest

from ge_mlir.target.cpu.codegen import strategy as st
from ge_mlir.target.cpu.codegen.strategy import (
    ConvFacts, ConvPath, KernelOptions, MatmulFacts, MatmulPath, WindowFacts, WindowPath, select_conv_path,
    select_matmul_path, select_window_path,
)

AVX2 = KernelOptions(tile_m=6, tile_n=16, lanes=8)


def conv(**kw) -> ConvFacts:
    """A batch-1 f32 3x3 stride-1 convolution padded by 1: 64 -> 64 channels at 56 x 56, constant filter."""
    base = dict(element="f32", batch=1, channels=64, in_hw=(58, 58), filters=64, kernel=(3, 3), out_hw=(56, 56),
                strides=(1, 1), dilations=(1, 1), constant_filter=True)
    base.update(kw)
    return ConvFacts(**base)


@pytest.mark.parametrize("facts, path", [
    (conv(), ConvPath.WINOGRAD),
    (conv(channels=128, filters=128), ConvPath.WINOGRAD),  # C * F at the limit
    (conv(channels=128, filters=136), ConvPath.SHIFTED_ROWS),  # past it
    (conv(channels=st.ROWS_MIN_CHANNELS - 1, in_hw=(10, 10), out_hw=(8, 8)), ConvPath.DIRECT_ROWS),
    # ... unless the image is large enough for shifted matmuls, which come first.
    (conv(channels=st.ROWS_MIN_CHANNELS - 1), ConvPath.SHIFTED_MATMULS),
    (conv(filters=60), ConvPath.SHIFTED_ROWS),  # Winograd needs a multiple of 8 filters
    (conv(in_hw=(57, 57), out_hw=(55, 55)), ConvPath.SHIFTED_ROWS),  # an odd output
    (conv(element="f64"), ConvPath.SHIFTED_ROWS),
    (conv(vector_epilogue=False), ConvPath.SHIFTED_ROWS),
    (conv(strides=(2, 2), in_hw=(57, 57), out_hw=(28, 28)), ConvPath.SHIFTED_ROWS),
    (conv(constant_filter=False), ConvPath.SHIFTED_MATMULS),
    # Shifted matmuls from SHIFTED_MIN_COLUMNS output columns over the padded width.
    (conv(constant_filter=False, channels=120, in_hw=(31, 34), out_hw=(29, 32)), ConvPath.IMG2COL),
    (conv(constant_filter=False, channels=120, in_hw=(32, 34), out_hw=(30, 32)), ConvPath.SHIFTED_MATMULS),
    # Below that, im2col by rows up to ROW_IM2COL_MAX_K patch rows (64 * 9; 120 * 9 is past it).
    (conv(constant_filter=False, in_hw=(31, 34), out_hw=(29, 32)), ConvPath.ROW_IM2COL),
    (conv(constant_filter=False, channels=3, filters=16, in_hw=(10, 10), out_hw=(8, 8)), ConvPath.ROW_IM2COL),
    (conv(channels=3, filters=20, strides=(2, 2), in_hw=(11, 11), out_hw=(5, 5)), ConvPath.ROW_IM2COL),
    (conv(channels=120, filters=16, constant_filter=False, in_hw=(10, 10), out_hw=(8, 8)), ConvPath.IMG2COL),
    (conv(batch=2), ConvPath.IMG2COL),
    (conv(zero_init=False), ConvPath.IMG2COL),
    # 1x1 stride 1: filters by positions from POINTWISE_COLUMNS_MIN_WIDTH columns.
    (conv(kernel=(1, 1), in_hw=(2, 48), out_hw=(2, 48), channels=8, filters=16), ConvPath.POINTWISE),
    (conv(kernel=(1, 1), in_hw=(2, 47), out_hw=(2, 47), channels=8, filters=16), ConvPath.SHIFTED_ROWS),
    (conv(kernel=(1, 1), in_hw=(2, 47), out_hw=(2, 47), channels=8, filters=16, constant_filter=False),
     ConvPath.IMG2COL),
    (conv(element="f16"), ConvPath.NONE),
    (conv(element=""), ConvPath.NONE),
    (conv(batch=0), ConvPath.NONE),
    (None, ConvPath.NONE),
])
def test_conv_paths(facts, path):
    assert select_conv_path(facts, AVX2) is path


def test_conv_options():
    assert select_conv_path(conv(), dataclasses.replace(AVX2, winograd=False)) is ConvPath.SHIFTED_ROWS
    # A tile the shuffle blocks cannot store transposed: no Winograd, no direct tiles.
    narrow = KernelOptions(tile_m=1, tile_n=4, lanes=8)
    assert select_conv_path(conv(), narrow) is ConvPath.SHIFTED_ROWS
    stem = conv(channels=3, filters=64, kernel=(7, 7), strides=(2, 2), in_hw=(230, 230), out_hw=(112, 112))
    assert select_conv_path(stem, AVX2) is ConvPath.DIRECT_ROWS
    assert select_conv_path(stem, narrow) is ConvPath.ROW_IM2COL
    assert select_conv_path(stem, KernelOptions(tile_m=9, tile_n=16, lanes=8)) is ConvPath.ROW_IM2COL
    # Every JIT CPU's tile (cpu_info: at most 8 rows, two vectors of 4, 8 or 16 lanes) stores transposed.
    assert all(st.tiles_store_transposed(m, n) for m, n in ((6, 8), (6, 16), (8, 32)))


def window(**kw) -> WindowFacts:
    """An f32 3x3 stride-1 depthwise convolution of a 10 x 10 padded input into a fresh 8 x 8 output."""
    base = dict(kind="depthwise", elements=("f32", "f32", "f32"), float_input=True, rank=4, in_hw=(10, 10),
                kernel=(3, 3), out_hw=(8, 8), strides=(1, 1), dilations=(1, 1), empty=False, fresh=True)
    base.update(kw)
    return WindowFacts(**base)


@pytest.mark.parametrize("facts, path", [
    (window(), WindowPath.VECTORS),
    (window(kind="max", strides=(2, 2), in_hw=(11, 11), out_hw=(5, 5)), WindowPath.VECTORS),
    (window(kind="max", unpadded=(4, 20, 1, 1), in_hw=(6, 22), out_hw=(4, 20)), WindowPath.CLAMPED_VECTORS),
    # A window past the input's edge (more padding than the kernel reaches into) keeps the padded copy.
    (window(kind="max", unpadded=(4, 4, 3, 3), in_hw=(10, 10), out_hw=(8, 8)), WindowPath.VECTORS),
    (window(kind="sum", unpadded=(4, 20, 1, 1), in_hw=(6, 22), out_hw=(4, 20)), WindowPath.VECTORS),
    # A 1-wide kernel at stride 2 over 2 * Wo - 1 columns: the last vector would read before its row.
    (window(kind="max", kernel=(1, 1), strides=(2, 2), in_hw=(9, 9), out_hw=(5, 5)), WindowPath.TAPS),
    (window(out_hw=(8, 1), in_hw=(10, 3)), WindowPath.TAPS),
    (window(strides=(3, 3), in_hw=(11, 11), out_hw=(3, 3)), WindowPath.TAPS),
    (window(strides=(2, 2), dilations=(2, 2), in_hw=(13, 13), out_hw=(5, 5)), WindowPath.TAPS),
    (window(fresh=False), WindowPath.TAPS),
    (window(elements=("f64", "f64", "f64")), WindowPath.TAPS),
    (window(kernel=(8, 8), in_hw=(15, 15)), WindowPath.VECTORS),
    (window(kernel=(9, 8), in_hw=(16, 15)), WindowPath.NONE),  # more than MAX_WINDOW_TAPS taps
    (window(elements=("i32", "i32", "i32"), float_input=False), WindowPath.NONE),
    (window(elements=("f16", "f16", "f32")), WindowPath.NONE),
    (window(empty=True), WindowPath.NONE),
    (None, WindowPath.NONE),
])
def test_window_paths(facts, path):
    assert select_window_path(facts, AVX2) is path


def test_window_vectors_fit_whatever_the_lanes():
    """The vector reads' bounds do not depend on the vector width (the memory model relies on it)."""
    cases = [window(), window(kind="max", kernel=(1, 1), strides=(2, 2), in_hw=(9, 9), out_hw=(5, 5)),
             window(kind="max", kernel=(3, 3), strides=(2, 2), in_hw=(11, 11), out_hw=(5, 5)),
             window(kind="max", kernel=(2, 2), strides=(2, 2), in_hw=(8, 8), out_hw=(4, 4)),
             window(kernel=(5, 5), dilations=(2, 2), in_hw=(20, 20), out_hw=(12, 12))]
    for facts in cases:
        paths = {select_window_path(facts, KernelOptions(tile_m=6, tile_n=16, lanes=lanes)) for lanes in (1, 4, 8, 16)}
        assert len(paths) == 1, facts


def matmul(**kw) -> MatmulFacts:
    base = dict(batched=False, element="f32", shapes=((14, 16), (16, 40), (14, 40)), default_maps=True,
                constant_b=True)
    base.update(kw)
    return MatmulFacts(**base)


@pytest.mark.parametrize("facts, path", [
    (matmul(), MatmulPath.PACKED_PANELS),
    (matmul(shapes=((1, 16), (16, 40), (1, 40))), MatmulPath.TILED),  # one row: GEMV tiles
    (matmul(constant_b=False), MatmulPath.TILED),
    (matmul(constant_b=False, b_blob_bytes=st.PACK_MAX_BYTES), MatmulPath.PACKED_PANELS),
    (matmul(constant_b=False, b_blob_bytes=st.PACK_MAX_BYTES + 1), MatmulPath.TILED),
    (matmul(default_maps=False), MatmulPath.TILED),
    (matmul(batched=True, shapes=((2, 3, 16), (2, 16, 8), (2, 3, 8))), MatmulPath.TILED),
    (matmul(element="f64"), MatmulPath.PACKED_PANELS),
    (matmul(element=""), MatmulPath.NONE),
    (matmul(element="f16"), MatmulPath.NONE),
    (matmul(shapes=((14, 0), (0, 40), (14, 40))), MatmulPath.NONE),
    (None, MatmulPath.NONE),
])
def test_matmul_paths(facts, path):
    assert select_matmul_path(facts, AVX2) is path


def test_k_block():
    assert st.k_block(256) == 0 and st.k_block(768) == 256 and st.k_block(1000) == 250 and st.k_block(1031) == 0
