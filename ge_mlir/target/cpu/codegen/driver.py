"""The codegen strategy applied to a module (:func:`apply_strategy`, the pass
``ge-apply-codegen-strategy``): each convolution, window op and matmul to the recipe of its path
(recorded by ``ge-select-codegen-strategy``, else selected here), then the transform script over
every tile loop nest."""

from __future__ import annotations

from mlir import ir

from .common import TAP_TAG, TILE_TAG, WINDOW_OPS, ops_named, static_type
from .conv_im2col import conv_to_img2col, conv_to_row_im2col, conv_to_shifted_matmuls
from .conv_rows import conv_to_direct_rows, conv_to_shifted_rows
from .conv_winograd import conv_to_winograd
from .matmul_panels import defer_zero_fill, matmul_to_packed_panels, spread_constant_rows, zero_accumulators
from .selection import CONV_OPS, MATMUL_OPS, take_path
from .strategy import ConvPath, KernelOptions, MatmulPath, WindowPath, k_block
from .threads import parallelize_generics
from .transform_script import TilePlan, contraction_tiling, tiling_script
from .windows import window_to_taps, window_to_vectors

__all__ = ["apply_strategy", "kernel_options"]

#: The counters of :func:`apply_strategy` (the pass reports them).
_STATS = ("img2col", "shifted", "shifted_rows", "direct_rows", "winograd", "row_im2col", "packed", "tiled", "windows",
          "vector_windows", "parallel_generics", "spread")
#: Convolution path -> its counter.
_CONV_STAT = {ConvPath.POINTWISE: "row_im2col", ConvPath.WINOGRAD: "winograd", ConvPath.SHIFTED_ROWS: "shifted_rows",
              ConvPath.SHIFTED_MATMULS: "shifted", ConvPath.DIRECT_ROWS: "direct_rows",
              ConvPath.ROW_IM2COL: "row_im2col", ConvPath.IMG2COL: "img2col"}


def kernel_options(tile_m: int, tile_n: int, lanes: int = 0, winograd: bool = True) -> KernelOptions:
    """The selection's options for ``tile_m`` x ``tile_n`` tiles; window ops use vectors of
    ``lanes`` f32 (default ``tile_n / 2``, the tile being two vectors wide)."""
    return KernelOptions(tile_m=tile_m, tile_n=tile_n, lanes=lanes or max(1, tile_n // 2), winograd=winograd)


def _convolutions(module: ir.Module | ir.Operation, options: KernelOptions, threads: int, stats: dict[str, int],
                  taps: list[tuple[int, int]]) -> None:
    """Each convolution by the recipe of its path; an own tile loop nest (its tag and the K of its
    tile matmuls) joins ``taps``."""
    tile_m, tile_n = options.tile_m, options.tile_n
    for conv in ops_named(module, CONV_OPS):
        tag = len(taps)
        xt, wt = static_type(conv.operands[0].type), static_type(conv.operands[1].type)
        channels = xt.shape[1] if xt is not None and xt.rank == 4 else 0
        patch = channels * wt.shape[2] * wt.shape[3] if wt is not None and wt.rank == 4 else 0
        path = take_path(conv, options)
        if path in (ConvPath.POINTWISE, ConvPath.ROW_IM2COL):
            conv_to_row_im2col(conv, tile_m, tile_n, threads, tag)
            taps.append((tag, patch))
        elif path is ConvPath.WINOGRAD:
            conv_to_winograd(conv, tile_m, tile_n, threads)
        elif path is ConvPath.SHIFTED_ROWS:
            conv_to_shifted_rows(conv, tile_m, tile_n, threads, tag)
            taps.append((tag, channels))
        elif path is ConvPath.SHIFTED_MATMULS:
            conv_to_shifted_matmuls(conv, tile_m, tile_n, threads, tag)
            taps.append((tag, channels))
        elif path is ConvPath.DIRECT_ROWS:
            conv_to_direct_rows(conv, tile_m, tile_n, threads)
        elif path is ConvPath.IMG2COL:
            conv_to_img2col(conv)
        if path is not ConvPath.NONE:
            stats[_CONV_STAT[path]] += 1


def _windows(module: ir.Module | ir.Operation, options: KernelOptions, threads: int, stats: dict[str, int]) -> None:
    for op in ops_named(module, WINDOW_OPS):
        path = take_path(op, options)
        if path in (WindowPath.VECTORS, WindowPath.CLAMPED_VECTORS):
            window_to_vectors(op, options.lanes, threads, clamped=path is WindowPath.CLAMPED_VECTORS)
            stats["vector_windows"] += 1
        elif path is WindowPath.TAPS:
            window_to_taps(op)
            stats["windows"] += 1


class _Tiling:
    """The matmuls the transform script tiles, by tag (their number among all contractions): tile
    plan, loop count (3: matmul, 4: batch matmul), K, its cache block, (batch, M, N, K)."""

    def __init__(self) -> None:
        self.plans: list[tuple[int, TilePlan]] = []
        self.nd_of: dict[int, int] = {}
        self.kdims: dict[int, int] = {}
        self.kblocks: dict[int, int] = {}
        self.dims: dict[int, tuple[int, int, int, int]] = {}


def _matmuls(module: ir.Module | ir.Operation, options: KernelOptions, threads: int, gemv_n: int,
             stats: dict[str, int], taps: list[tuple[int, int]]) -> _Tiling:
    """Matmuls with a constant B to packed panels (an own tile loop nest each, joining ``taps``);
    the other matmuls tagged for the transform script, with their tile plans."""
    tile_m, tile_n = options.tile_m, options.tile_n
    for op in ops_named(module, ("linalg.matmul",)):
        tag = len(taps)
        at = static_type(op.operands[0].type)
        k = at.shape[-1] if at is not None else 0
        # The recorded path stays until the tile plans below take it (a packed op goes whole).
        if TAP_TAG not in op.attributes and take_path(op, options, keep=True) is MatmulPath.PACKED_PANELS:
            matmul_to_packed_panels(op, tile_m, tile_n, threads, tag)
            stats["packed"] += 1
            taps.append((tag, k))
    t = _Tiling()
    i64 = ir.IntegerType.get_signless(64)
    for tag, op in enumerate(ops_named(module, MATMUL_OPS)):
        if TAP_TAG in op.attributes or take_path(op, options) is not MatmulPath.TILED:
            continue
        plan = contraction_tiling(op, tile_m, tile_n, gemv_n)
        if op.name == "linalg.matmul":
            stats["spread"] += spread_constant_rows(op)
        op.attributes[TILE_TAG] = ir.IntegerAttr.get(i64, tag)
        t.plans.append((tag, plan))
        t.nd_of[tag] = 3 if op.name == "linalg.matmul" else 4
        t.kdims[tag] = static_type(op.operands[0].type).shape[-1]
        t.kblocks[tag] = k_block(t.kdims[tag])
        if not t.kblocks[tag] and t.kdims[tag] > 1:
            defer_zero_fill(op, tag)
        out_shape = static_type(op.operands[2].type).shape
        t.dims[tag] = (1 if len(out_shape) == 2 else out_shape[0], out_shape[-2], out_shape[-1], t.kdims[tag])
    return t


def apply_strategy(module: ir.Module | ir.Operation, *, tile_m: int, tile_n: int, threads: int = 1,
                   gemv_n: int = 0, lanes: int = 0, winograd: bool = True) -> dict[str, int]:
    """Applies the strategy in place; returns counts (convolutions, contractions tiled).

    ``tile_m`` x ``tile_n`` is the largest f32 matmul register tile (remainders get halved tiles;
    :func:`..cpu_info.kernel_params` gives the JIT CPU's); one-row tiles are ``gemv_n`` columns wide
    (default ``4 * tile_n``); window ops use vectors of ``lanes`` f32 (default ``tile_n / 2``, the
    tile being two vectors wide). ``threads`` > 1 puts the column panels
    of each large matmul part in an ``scf.forall`` (OpenMP regions on the thread team).
    ``winograd`` False keeps 3x3 stride-1 convolutions direct (:func:`.conv_winograd.conv_to_winograd`).
    These options shape the recipes and select the path of ops that carry none; a path recorded
    by ``ge-select-codegen-strategy`` is followed as it is."""
    from mlir.dialects.transform import interpreter

    stats = dict.fromkeys(_STATS, 0)
    options = kernel_options(tile_m, tile_n, lanes, winograd)
    with module.context, ir.Location.unknown():
        taps: list[tuple[int, int]] = []  # (tag, K of its tile matmuls) of each own tile loop nest
        _convolutions(module, options, threads, stats, taps)
        _windows(module, options, threads, stats)
        if threads > 1:
            stats["parallel_generics"] = parallelize_generics(module, threads)
        t = _matmuls(module, options, threads, gemv_n, stats, taps)
        if not t.plans and not taps:
            return stats
        script = ir.Module.parse(tiling_script(t.plans, t.nd_of, t.kblocks, t.kdims, t.dims, threads, taps))
        interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)
        zero_accumulators(module)
        stats["tiled"] = len(t.plans)
        for op in ops_named(module, MATMUL_OPS):  # untiled leftovers
            for name in (TILE_TAG, TAP_TAG):
                if name in op.attributes:
                    del op.attributes[name]
    return stats
