"""The codegen strategy applied to a module (:func:`apply_strategy`, the pass
``ge-apply-codegen-strategy``): each convolution, window op and matmul to its recipe, then the
transform script over every tile loop nest."""

from __future__ import annotations

from mlir import ir

from .common import TAP_TAG, TILE_TAG, WINDOW_OPS, ops_named, static_type
from .conv_im2col import conv_to_img2col, conv_to_row_im2col, conv_to_shifted_matmuls, positions_as_columns
from .conv_rows import conv_to_direct_rows, conv_to_shifted_rows
from .conv_winograd import conv_to_winograd
from .matmul_panels import defer_zero_fill, matmul_to_packed_panels, spread_constant_rows, zero_accumulators
from .strategy import ROWS_MIN_CHANNELS, k_block
from .threads import parallelize_generics
from .transform_script import contraction_tiling, tiling_script
from .windows import window_to_taps, window_to_vectors

__all__ = ["apply_strategy"]


def apply_strategy(module: ir.Module | ir.Operation, *, tile_m: int, tile_n: int, threads: int = 1,
                   gemv_n: int = 0, lanes: int = 0, winograd: bool = True) -> dict[str, int]:
    """Applies the strategy in place; returns counts (convolutions, contractions tiled).

    ``tile_m`` x ``tile_n`` is the largest f32 matmul register tile (remainders get halved tiles;
    :func:`.cpu_info.kernel_params` gives the JIT CPU's); one-row tiles are ``gemv_n`` columns wide
    (default ``4 * tile_n``); window ops use vectors of ``lanes`` f32 (default ``tile_n / 2``, the
    tile being two vectors wide). ``threads`` > 1 puts the column panels
    of each large matmul part in an ``scf.forall`` (OpenMP regions on the thread team).
    ``winograd`` False keeps 3x3 stride-1 convolutions direct (:func:`conv_to_winograd`)."""
    from mlir.dialects.transform import interpreter

    stats = {"img2col": 0, "shifted": 0, "shifted_rows": 0, "direct_rows": 0, "winograd": 0, "row_im2col": 0, "packed": 0, "tiled": 0, "windows": 0, "vector_windows": 0, "parallel_generics": 0, "spread": 0}
    with module.context, ir.Location.unknown():
        taps: list[tuple[int, int]] = []  # (tag, K of its tile matmuls) of each own tile loop nest
        for conv in ops_named(module, ("linalg.conv_2d_nchw_fchw",)):
            tag = len(taps)
            xt, wt = static_type(conv.operands[0].type), static_type(conv.operands[1].type)
            channels = xt.shape[1] if xt is not None and xt.rank == 4 else 0
            patch = channels * wt.shape[2] * wt.shape[3] if wt is not None and wt.rank == 4 else 0
            # Rows first: no padded-width waste, no input copy (a 56 x 56 layer-1 convolution 1.07
            # ms over columns, 1.01 over rows); columns when the filter is not a constant or too narrow.
            if positions_as_columns(conv) and conv_to_row_im2col(conv, tile_m, tile_n, threads, tag,
                                                                  pointwise=True):
                stats["row_im2col"] += 1
                taps.append((tag, patch))
            elif winograd and conv_to_winograd(conv, tile_m, tile_n, threads):
                stats["winograd"] += 1
            elif conv_to_shifted_rows(conv, tile_m, tile_n, threads, tag):
                stats["shifted_rows"] += 1
                taps.append((tag, channels))
            elif conv_to_shifted_matmuls(conv, tile_m, tile_n, threads, tag):
                stats["shifted"] += 1
                taps.append((tag, channels))
            elif channels < ROWS_MIN_CHANNELS and conv_to_direct_rows(conv, tile_m, tile_n, threads):
                stats["direct_rows"] += 1
            elif conv_to_row_im2col(conv, tile_m, tile_n, threads, tag):
                stats["row_im2col"] += 1
                taps.append((tag, patch))
            else:
                stats["img2col"] += conv_to_img2col(conv)
        for op in ops_named(module, WINDOW_OPS):
            if window_to_vectors(op, lanes or max(1, tile_n // 2), threads):
                stats["vector_windows"] += 1
            else:
                stats["windows"] += window_to_taps(op)
        if threads > 1:
            stats["parallel_generics"] = parallelize_generics(module, threads)
        plans = []
        nd_of: dict[int, int] = {}
        kblocks: dict[int, int] = {}
        kdims: dict[int, int] = {}
        dims: dict[int, tuple[int, int, int, int]] = {}
        i64 = ir.IntegerType.get_signless(64)
        for op in ops_named(module, ("linalg.matmul",)):
            tag = len(taps)
            at = static_type(op.operands[0].type)
            k = at.shape[-1] if at is not None else 0
            if TAP_TAG not in op.attributes and matmul_to_packed_panels(op, tile_m, tile_n, threads, tag):
                stats["packed"] += 1
                taps.append((tag, k))
        for tag, op in enumerate(ops_named(module, ("linalg.matmul", "linalg.batch_matmul"))):
            if TAP_TAG in op.attributes:
                continue
            plan = contraction_tiling(op, tile_m, tile_n, gemv_n)
            if plan is None:
                continue
            if op.name == "linalg.matmul":
                stats["spread"] += spread_constant_rows(op)
            op.attributes[TILE_TAG] = ir.IntegerAttr.get(i64, tag)
            plans.append((tag, plan))
            nd_of[tag] = 3 if op.name == "linalg.matmul" else 4
            kdims[tag] = static_type(op.operands[0].type).shape[-1]
            kblocks[tag] = k_block(kdims[tag])
            if not kblocks[tag] and kdims[tag] > 1:
                defer_zero_fill(op, tag)
            out_shape = static_type(op.operands[2].type).shape
            dims[tag] = (1 if len(out_shape) == 2 else out_shape[0], out_shape[-2], out_shape[-1], kdims[tag])
        if not plans and not taps:
            return stats
        script = ir.Module.parse(tiling_script(plans, nd_of, kblocks, kdims, dims, threads, taps))
        interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)
        zero_accumulators(module)
        stats["tiled"] = len(plans)
        for op in ops_named(module, ("linalg.matmul", "linalg.batch_matmul")):  # untiled leftovers
            for name in (TILE_TAG, TAP_TAG):
                if name in op.attributes:
                    del op.attributes[name]
    return stats
