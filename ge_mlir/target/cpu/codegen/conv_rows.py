"""Convolutions as register tiles over output positions stored through their epilogue: matmuls
over the positions with one K loop per tap (:func:`conv_to_shifted_rows`), direct vector tiles
for few input channels (:func:`conv_to_direct_rows`), and what convolutions whose tiles are
stored transposed share (:func:`transposed_tile_conv`, :func:`over_row_blocks`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from mlir import ir
from mlir.dialects import linalg, tensor

from .common import (
    TAP_TAG, array_constant, collapse, constant_weights, conv_operands, int_list, near_equal_runs, over_panels,
    replace_rewritten, tile_runs,
)
from .epilogue import fusable_epilogue, placed, store_rows_transposed, store_tile
from .strategy import PARALLEL_MIN_MACS

__all__ = ["conv_to_direct_rows", "conv_to_shifted_rows", "over_row_blocks", "transposed_tile_conv"]


def conv_to_shifted_rows(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> None:
    """A ``conv_2d_nchw_fchw`` (batch 1, constant filter, any kernel and stride) as matmuls over
    the output positions, summed in register tiles and stored through its epilogue.

    ``out^T[Ho*Wo, F] = sum over taps of window^T @ W[:, :, ky, kx]^T``: a register tile's rows
    are consecutive positions of one output row (``TM`` at most; a 7-wide row is one 7-row tile,
    a 14-wide one two), its columns ``TN`` filters. Per K step (one input channel) a tile reads its
    positions' input elements (consecutive for stride 1, every s-th for stride s: each element is
    broadcast on its own anyway) and one contiguous row of the filter, stored at compile time as
    ``[panel, tap, C, TN]``. No patch matrix (im2col copied the input 9 times), no padded-width
    waste (:func:`conv_to_shifted_matmuls` computes a 7 x 7 map as 7 x 9), no copy of the input:
    windows read the padded input in place. Small images give few, short columns the other way
    round (a 49-wide row splits into 32 + 16 + 1 columns). Each tile is stored transposed into the
    ``[1, F, Ho, Wo]`` result through the convolution's epilogue (:func:`fusable_epilogue`,
    :func:`store_tile`): no accumulator, no transpose or epilogue pass. Measured on one core of the 2-core EPYC against
    im2col, with bias and ReLU: 512 -> 512 channels at 7 x 7 1.7 -> 1.18 ms (onnxruntime 1.25),
    256 -> 512 at 14 x 14 stride 2 0.95 -> 0.51 ms; 1x1 ones too (MobileNetV2's 96 -> 576 at
    14 x 14 with ReLU6 0.169 -> 0.107 ms: no [C, HW] row stride, the epilogue in the tile). The
    path :data:`~.strategy.ConvPath.SHIFTED_ROWS` (batch 1, a constant filter of enough filters and
    channels, an output that starts as zeros)."""
    from mlir.dialects import arith, scf

    x, w, out, xt, wt, ot = conv_operands(op)
    c = xt.shape[1]
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = int_list(op, "strides"), int_list(op, "dilations")
    warr = constant_weights(w, "the filter")

    elem = xt.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    length = ho * wo
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    d = ir.AffineDimExpr.get
    # (m, n, k): A is the [C, TM] window read transposed, B the [C, TN] filter rows.
    maps = [ir.AffineMap.get(3, 0, exprs) for exprs in
            ([d(2), d(0)], [d(2), d(1)], [d(0), d(1)])]
    wrows = warr.transpose(2, 3, 1, 0).reshape(kh * kw, c, f)  # [tap, C, F]
    taps = [(ky, kx) for ky in range(kh) for kx in range(kw)]

    def packed(col0: int, panels: int, tn: int) -> ir.Value:
        """The filter columns [col0, col0 + panels*tn) as [panel, tap, C, tn]: each tile's
        [C, tn] rows contiguous (rows of the [tap, C, F] layout are F apart: at F = 512, 2 KiB,
        every row of a panel falls in the same L1 sets and the panel evicts itself)."""
        part = wrows[:, :, col0:col0 + panels * tn].reshape(kh * kw, c, panels, tn)
        return array_constant(part.transpose(2, 0, 1, 3), elem, "conv_filter_panels")

    epilogue = fusable_epilogue(op)
    anchor = epilogue if epilogue is not None else op
    # An input that is also the next padded buffer's content is read from that buffer, as the
    # epilogue's inputs are (:func:`placed`): a read of it after the insert would make
    # bufferization compute it out of place and copy it in (ResNet-18's downsampling 1x1s).
    source, slot = placed(x, op)
    if slot[0] != 0:
        source, slot = x, [0] * 4
    row = ir.RankedTensorType(source.type).shape[3]  # the row stride of the buffer read
    origin, chan0 = slot[2] * row + slot[3], slot[1]
    with op.location, ir.InsertionPoint(anchor):
        flat = collapse(source, [[0, 1], [2, 3]])  # [C, Hp*Wp]: the windows read it in place
        zero = arith.constant(elem, 0.0)
        # The [1, F, Ho, Wo] result: the epilogue's own output (its tiles write it), or a new one.
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def tile(acc_in: ir.Value, oy: ir.Value, pos: ir.Value, x0: ir.Value, tm: int, p: ir.Value,
                 f0: ir.Value, wconst: ir.Value, tn: int) -> ir.Value:
            """One [tm, tn] register tile: positions x0.. of output row oy (first input element
            ``pos``) by filters f0..; all taps summed in registers, then stored transposed into the
            [1, tn, Ho, Wo] panel ``acc_in`` through the epilogue."""
            base = arith.addi(pos, arith.muli(x0, const(strides[1])) if strides[1] != 1 else x0)
            t = linalg.fill(zero, outs=[tensor.EmptyOp([tm, tn], elem).result])
            t.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
            for ky, kx in taps:
                off = origin + ky * dilations[0] * row + kx * dilations[1]
                start = arith.addi(base, const(off)) if off else base
                window = tensor.extract_slice(ir.RankedTensorType.get([c, tm], elem), flat, [start],
                                              [], [], [chan0, dyn], [c, tm], [1, strides[1]])
                rows_t = tensor.extract_slice(ir.RankedTensorType.get([1, 1, c, tn], elem), wconst,
                                              [p], [], [], [dyn, ky * kw + kx, 0, 0], [1, 1, c, tn],
                                              [1, 1, 1, 1])
                rows_t = collapse(rows_t, [[0, 1, 2], [3]])
                mm = linalg.matmul(window, rows_t, outs=[t], indexing_maps=maps)
                mm.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                t = mm
            stored = store_tile(t, acc_in, epilogue, op.results[0], [0, f0, oy, x0], [0, 0, oy, x0], [1, tn, 1, tm])
            if stored.owner.name == "linalg.generic":
                stored.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
            return tensor.insert_slice(stored, acc_in, [oy, x0], [], [], [0, 0, dyn, dyn], [1, tn, 1, tm],
                                       [1, 1, 1, 1])

        def panel_rows(panel: ir.Value, p: ir.Value, f0: ir.Value, wconst: ir.Value, tn: int) -> ir.Value:
            """The register tiles of one [1, tn, Ho, Wo] filter panel, output row by output row."""
            loop = scf.ForOp(const(0), const(ho), const(1), [panel])
            with ir.InsertionPoint(loop.body):
                oy = loop.induction_variable
                whole = loop.inner_iter_args[0]
                pos = arith.muli(oy, const(strides[0] * row))  # the row's first input element
                for first, tm, count in near_equal_runs(wo, tile_m):
                    run = scf.ForOp(const(first), const(first + tm * count), const(tm), [whole])
                    with ir.InsertionPoint(run.body):
                        scf.YieldOp([tile(run.inner_iter_args[0], oy, pos, run.induction_variable, tm, p, f0,
                                          wconst, tn)])
                    whole = run.results[0]
                scf.YieldOp([whole])
            return loop.results[0]

        for col0, tn, panels in tile_runs(f, tile_n):
            wconst = packed(col0, panels, tn)
            parallel = threads > 1 and panels > 1 and panels * tn * length * c * kh * kw >= PARALLEL_MIN_MACS
            acc = over_panels(acc, 1, col0, tn, panels, parallel,
                               lambda panel, p, f0, w=wconst, tn=tn: panel_rows(panel, p, f0, w, tn))
    replace_rewritten(op, out, acc, epilogue)


def conv_to_direct_rows(op: ir.Operation, tile_m: int, tile_n: int, threads: int) -> None:
    """A batch-1 f32 ``conv_2d_nchw_fchw`` with a constant filter and few input channels (the
    3-channel stems) as direct register tiles of output positions by filters, written as vector
    code: no patch matrix, no phase split.

    Per tile (``TM`` consecutive positions of one output row by ``TN`` filters): one loop over
    (input channel, kernel row) carries the tile's rows in registers; in its body, for each
    kernel column, one vector of the filter (stored at compile time as ``[panel, C, kh, kw, TN]``)
    and each position's input element broadcast (any stride: every element is broadcast on its
    own). The tile is then stored transposed through the epilogue (:func:`store_tile`). With
    K = C*kh*kw = 147 and few channels, :func:`conv_to_shifted_rows` (one K loop per tap) ran
    49 loops of 3 steps, unrolled by LLVM into straight-line code with spills (ResNet-18's stem
    1.40 ms); im2col one output row at a time (:func:`conv_to_row_im2col`) gathers a
    ``[147, Wo]`` patch row, and its ``[147, TN]`` panel with the 37.6 KiB filter overflows the
    L1 (ResNet-18's stem 1.03 ms against 0.94 for this scheme, written first in C). The path
    :data:`~.strategy.ConvPath.DIRECT_ROWS` (f32, few input channels, a constant filter of a
    multiple of 8 filters, tiles that store transposed, an epilogue of vector code)."""
    from mlir.dialects import arith, scf, vector

    _, _, _, xt, wt, ot = conv_operands(op)
    c = xt.shape[1]
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = int_list(op, "strides"), int_list(op, "dilations")
    x, out, warr, epilogue = transposed_tile_conv(op)
    elem = xt.element_type
    index = ir.IndexType.get()
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    minor = ir.AffineMap.get(5, 0, [ir.AffineDimExpr.get(4)])
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def tile(acc_in: ir.Value, oy: ir.Value, dest_oy: ir.Value, x0: ir.Value, tm: int, p: ir.Value,
                 f0: ir.Value, wconst: ir.Value, tn: int) -> ir.Value:
            """Positions x0.. of output row ``oy`` by filters f0..: stored at row ``dest_oy`` of the
            [1, tn, rows, Wo] panel ``acc_in``."""
            vtype = ir.VectorType.get([tn], elem)
            zero = arith.constant(vtype, ir.DenseElementsAttr.get_splat(vtype, ir.FloatAttr.get(elem, 0.0)))
            top = arith.muli(oy, const(strides[0]))
            left = arith.muli(x0, const(strides[1]))
            cols = [arith.addi(left, const(i * strides[1] + kx * dilations[1]))
                    for kx in range(kw) for i in range(tm)]
            chans = scf.ForOp(const(0), const(c), const(1), [zero] * tm)
            with ir.InsertionPoint(chans.body):
                ch = chans.induction_variable
                krows = scf.ForOp(const(0), const(kh), const(1), list(chans.inner_iter_args))
                with ir.InsertionPoint(krows.body):
                    ky = krows.induction_variable
                    y = arith.addi(top, arith.muli(ky, const(dilations[0])) if dilations[0] != 1 else ky)
                    rows = list(krows.inner_iter_args)
                    for kx in range(kw):
                        b = vector.transfer_read(vtype, wconst, [p, ch, ky, const(kx), const(0)], minor,
                                                 arith.constant(elem, 0.0), [True])
                        for i in range(tm):
                            a = vector.broadcast(vtype, tensor.extract(x, [const(0), ch, y, cols[kx * tm + i]]))
                            rows[i] = vector.fma(a, b, rows[i])
                    scf.YieldOp(rows)
                scf.YieldOp(list(krows.results))
            stored = store_rows_transposed(list(chans.results), tn, acc_in, epilogue, op.results[0],
                                            [0, f0, oy, x0], [0, 0, dest_oy, x0])
            return tensor.insert_slice(stored, acc_in, [dest_oy, x0], [], [], [0, 0, dyn, dyn], [1, tn, 1, tm],
                                       [1, 1, 1, 1])

        def panel_rows(panel: ir.Value, p: ir.Value, f0: ir.Value, wconst: ir.Value, tn: int,
                       row0: ir.Value | None, rows: int) -> ir.Value:
            """The tiles of output rows row0.. (``rows`` of them) of one [1, tn, rows, Wo] panel."""
            loop = scf.ForOp(const(0), const(rows), const(1), [panel])
            with ir.InsertionPoint(loop.body):
                r = loop.induction_variable
                oy = r if row0 is None else arith.addi(row0, r)
                whole = loop.inner_iter_args[0]
                for first, tm, count in near_equal_runs(wo, tile_m):
                    run = scf.ForOp(const(first), const(first + tm * count), const(tm), [whole])
                    with ir.InsertionPoint(run.body):
                        scf.YieldOp([tile(run.inner_iter_args[0], oy, r, run.induction_variable, tm, p, f0,
                                          wconst, tn)])
                    whole = run.results[0]
                scf.YieldOp([whole])
            return loop.results[0]

        # (first filter, tn, panels, the filter as [panel, C, kh, kw, tn]: a tile's filter vectors
        # in the order its loops read them) per column part.
        chunks = [(col0, tn, panels, array_constant(np.ascontiguousarray(
            warr[col0:col0 + panels * tn].reshape(panels, tn, c, kh, kw).transpose(0, 2, 3, 4, 1)),
            elem, "conv_filter_panels")) for col0, tn, panels in tile_runs(f, tile_n)]
        parallel = threads > 1 and f * ho * wo * c * kh * kw >= PARALLEL_MIN_MACS

        def all_panels(whole: ir.Value, row0: ir.Value | None, rows: int, by_panels: bool) -> ir.Value:
            for first, tn, panels, wconst in chunks:
                whole = over_panels(whole, 1, first, tn, panels, by_panels and panels > 1,
                                     lambda panel, p, f0, w=wconst, tn=tn: panel_rows(panel, p, f0, w, tn, row0, rows))
            return whole

        if parallel and chunks[0][2] < threads and ho % threads == 0:
            # Fewer filter panels than threads (MobileNetV2's 32-filter stem: one): a block of
            # Ho / threads output rows per thread instead.
            per = ho // threads
            acc = over_row_blocks(acc, threads, ho, 1, [],
                                   lambda block, first, _: (all_panels(block, first, per, False), []))
        else:
            acc = all_panels(acc, None, ho, parallel)
    replace_rewritten(op, out, acc, epilogue)


def over_row_blocks(acc: ir.Value, threads: int, units: int, unit_rows: int, scratch: list[list[int]],
                     body: Callable[[ir.Value, ir.Value, list[ir.Value]], tuple[ir.Value, list[ir.Value]]]) -> ir.Value:
    """``body(block, first, scratch_slices) -> (block, scratch_slices)`` for each of ``threads``
    blocks of ``units / threads`` units (``unit_rows`` output rows each: dimension 2 of the
    ``[N, F, H, W]`` ``acc``; ``first``: the block's first unit), the iterations of one
    ``scf.forall``. Each ``scratch`` shape is one thread's slice of a ``[threads, *shape]`` buffer
    (disjoint: written in place, nothing allocated in the parallel loop). Returns the new ``acc``;
    every output element is computed by one iteration in the one-thread order (same bits)."""
    from mlir.dialects import arith, scf

    at = ir.RankedTensorType(acc.type)
    elem = at.element_type
    index = ir.IndexType.get()
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    per = units // threads
    block = [at.shape[0], at.shape[1], per * unit_rows, at.shape[3]]
    buffers = [tensor.EmptyOp([threads, *shape], elem).result for shape in scratch]
    par = scf.ForallOp([0], [threads], [1], [acc, *buffers])
    with ir.InsertionPoint(par.body):
        b = par.induction_variables[0]
        shared = list(par.inner_iter_args)
        first = arith.muli(b, arith.constant(index, per))
        row0 = arith.muli(first, arith.constant(index, unit_rows)) if unit_rows != 1 else first
        mine = tensor.extract_slice(ir.RankedTensorType.get(block, elem), shared[0], [row0], [], [],
                                    [0, 0, dyn, 0], block, [1, 1, 1, 1])
        slices = [tensor.extract_slice(ir.RankedTensorType.get(shape, elem), buf, [b], [], [],
                                       [dyn] + [0] * len(shape), [1, *shape], [1] * (len(shape) + 1))
                  for shape, buf in zip(scratch, shared[1:])]
        done, done_scratch = body(mine, first, slices)
        with ir.InsertionPoint(par.terminator().region.blocks[0]):
            tensor.parallel_insert_slice(done, shared[0], [row0], [], [], [0, 0, dyn, 0], block, [1, 1, 1, 1])
            for shape, d, buf in zip(scratch, done_scratch, shared[1:]):
                tensor.parallel_insert_slice(d, buf, [b], [], [], [dyn] + [0] * len(shape), [1, *shape],
                                             [1] * (len(shape) + 1))
    return par.results[0]


def transposed_tile_conv(op: ir.Operation):
    """(padded input, output, filter array, epilogue or None) of a convolution whose register
    tiles :func:`store_rows_transposed` stores (the selection's ``_transposed_tiles``: f32, batch 1,
    a constant filter of a multiple of 8 filters, tiles that store transposed, an output that
    starts as zeros and an epilogue of vector code)."""
    x, w, out, _, _, _ = conv_operands(op)
    return x, out, constant_weights(w, "the filter"), fusable_epilogue(op)
