"""Convolutions through patch matrices or shifted windows: shifted matmuls over the padded width
(:func:`conv_to_shifted_matmuls`), im2col one output row at a time with tiles storing through the
epilogue (:func:`conv_to_row_im2col`), and whole-image im2col + matmul (:func:`conv_to_img2col`)."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import linalg, tensor

from .common import (
    TAP_TAG, collapse, conv_operands, expand, int_list, is_zero_fill, over_panels, replace_rewritten, static_slice,
    tile_runs, tile_splits,
)
from .epilogue import fusable_epilogue, store_tile
from .strategy import PARALLEL_MIN_MACS, row_im2col_splits_by_phase

__all__ = ["conv_to_img2col", "conv_to_row_im2col", "conv_to_shifted_matmuls"]


def _shifted_input(x: ir.Value, extra: int, zero: ir.Value) -> ir.Value:
    """The [N=1, C, Hp, Wp] input of a shifted-matmul convolution as [C, L] rows with at least
    ``extra`` zeros after the image (the last tap's window reads past it).

    A zero-padded input (static ``insert_slice`` ops -- one, or one per concatenated input --
    into ``fill(0)``, how convolutions are padded) is built again, beside the original, on a
    buffer ``ceil(extra / Wp)`` zero rows taller: one padded copy. Ops that compute straight into
    a slot of the padded buffer (an ``extract_slice`` of it: a concatenated input) are moved to the
    taller one. Anything else is copied into a [C, Hp*Wp + extra] buffer (a padded copy and then
    this one cost a ResNet-18 layer-1 convolution 0.13 of 1.43 ms, and both live at once set the
    UNet's memory peak)."""
    xt = ir.RankedTensorType(x.type)
    _, c, hp, wp = xt.shape
    elem = xt.element_type
    rows = -(-extra // wp)

    def owner_of(v: ir.Value):
        o = v.owner
        return o.operation if isinstance(o, ir.OpView) else o

    def only_slots(v: ir.Value, successor: ir.Operation) -> bool:
        """Whether ``v``'s uses are ``successor`` (as its destination) and extract_slices."""
        for use in v.uses:
            user = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
            if user == successor and use.operand_number == 1:
                continue
            if user.name != "tensor.extract_slice":
                return False
        return True

    chain: list[ir.Operation] = []  # the inserts, last first
    v = x
    while True:
        owner = owner_of(v)
        if (not isinstance(owner, ir.Operation) or owner.name != "tensor.insert_slice" or len(owner.operands) != 2
                or any(static_slice(owner, a) is None for a in ("static_offsets", "static_sizes", "static_strides"))):
            break
        if chain and not only_slots(v, chain[-1]):
            chain = []
            break
        chain.append(owner)
        v = owner.operands[1]
    if chain and len(list(x.uses)) == 1 and is_zero_fill(v) and only_slots(v, chain[-1]):
        fill = owner_of(v)
        with ir.InsertionPoint(fill):
            from mlir.dialects import arith

            grown = linalg.fill(arith.constant(elem, 0.0),
                                outs=[tensor.EmptyOp([1, c, hp + rows, wp], elem).result])
        old = v
        for ins in reversed(chain):
            for use in list(old.uses):
                user = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
                if user.name == "tensor.extract_slice":
                    user.operands[0] = grown
            with ir.InsertionPoint(ins):
                grown = tensor.insert_slice(ins.operands[0], grown, [], [], [], static_slice(ins, "static_offsets"),
                                            static_slice(ins, "static_sizes"), static_slice(ins, "static_strides"))
            old = ins.results[0]
        return collapse(grown, [[0, 1], [2, 3]])  # [C, (Hp + rows) * Wp]
    flat = collapse(x, [[0, 1], [2, 3]])  # [C, Hp*Wp]
    base = linalg.fill(zero, outs=[tensor.EmptyOp([c, hp * wp + extra], elem).result])
    return tensor.insert_slice(flat, base, [], [], [], [0, 0], [c, hp * wp], [1, 1])


def conv_to_shifted_matmuls(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> None:
    """A stride-1 ``conv_2d_nchw_fchw`` (batch 1) as shifted matmuls summed in register tiles.

    With the output computed over the padded width Wp (the last columns of
    each row are discarded), tap (ky, kx) reads the flattened input at offset
    ``ky*Wp + kx``: a plain [C, Ho*Wp] window, so
    ``out[F, Ho*Wp] = sum over taps of W[:, :, ky, kx] @ window`` needs no im2col copy (9x
    the input for 3x3). The input gets ``kw - 1`` trailing zeros so the last window stays in
    bounds. The taps are summed inside each ``[TM, TN]`` output tile: loops over column panels
    and row tiles hold one small matmul per tap (``[TM, C] x [C, TN]``, tagged ``tag`` for the
    register tiling of :func:`tiling_script`), so the accumulator stays in registers across all taps
    and is written once (summing whole-output matmuls tap by tap passed a 64 x 3248
    accumulator through the caches nine times: a ResNet-18 layer-1 convolution with bias and ReLU
    1.70 -> 1.12 ms on one core of the 2-core EPYC, onnxruntime 0.98).
    Column panels run in an ``scf.forall`` when ``threads`` > 1 and the convolution is large.
    The path :data:`~.strategy.ConvPath.SHIFTED_MATMULS` (batch 1, stride 1, not 1x1, an output
    that starts as zeros, at least ``SHIFTED_MIN_COLUMNS`` output columns over the padded width)."""
    from mlir.dialects import arith, scf

    x, w, out, xt, wt, ot = conv_operands(op)
    c, _, wp = xt.shape[1:]
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    dilations = int_list(op, "dilations")

    elem = xt.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    extra = (kw - 1) * dilations[1]
    length = ho * wp
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    with op.location, ir.InsertionPoint(op):
        zero = arith.constant(elem, 0.0)
        flat = _shifted_input(x, extra, zero)
        acc = tensor.EmptyOp([f, length], elem).result  # every element written by one tile

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def tile(acc_in: ir.Value, j0: ir.Value, tn: int) -> ir.Value:
            """Row tiles of the [F, tn] column panel ``acc_in`` (column ``j0`` of the output);
            returns the updated panel."""
            r0 = 0
            for rsplit, tm in tile_splits(f, tile_m):
                rows = rsplit if rsplit is not None else f - r0
                loop = scf.ForOp(const(r0), const(r0 + rows), const(tm), [acc_in])
                with ir.InsertionPoint(loop.body):
                    f0 = loop.induction_variable
                    panel = loop.inner_iter_args[0]
                    t = tensor.extract_slice(ir.RankedTensorType.get([tm, tn], elem), panel, [f0], [], [],
                                             [dyn, 0], [tm, tn], [1, 1])
                    # Vectorized with the matmuls: the zero vector forwards into the first tap's
                    # accumulator, the tile is written once, after the last tap.
                    t = linalg.fill(zero, outs=[t])
                    t.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                    for ky in range(kh):
                        for kx in range(kw):
                            off = ky * dilations[0] * wp + kx * dilations[1]
                            start = arith.addi(j0, const(off)) if off else j0
                            window = tensor.extract_slice(ir.RankedTensorType.get([c, tn], elem), flat, [start],
                                                          [], [], [0, dyn], [c, tn], [1, 1])
                            # Not a rank-reducing slice: with tm = 1 which unit dims it drops is ambiguous.
                            wtap = tensor.extract_slice(ir.RankedTensorType.get([tm, c, 1, 1], elem), w, [f0], [],
                                                        [], [dyn, 0, ky, kx], [tm, c, 1, 1], [1, 1, 1, 1])
                            wtap = collapse(wtap, [[0], [1, 2, 3]])
                            mm = linalg.matmul(wtap, window, outs=[t])
                            mm.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                            t = mm
                    res = tensor.insert_slice(t, panel, [f0], [], [], [dyn, 0], [tm, tn], [1, 1])
                    scf.YieldOp([res])
                acc_in = loop.results[0]
                r0 += rows
            return acc_in

        for col0, tn, panels in tile_runs(length, tile_n):
            parallel = threads > 1 and panels > 1 and f * panels * tn * c * kh * kw >= PARALLEL_MIN_MACS
            acc = over_panels(acc, 1, col0, tn, panels, parallel,
                               lambda panel, p, j0, tn=tn: tile(panel, j0, tn))
        full = expand(acc, [1, f, ho, wp], [[0, 1], [2, 3]])
        y = tensor.extract_slice(ir.RankedTensorType.get([1, f, ho, wo], elem), full, [], [], [],
                                 [0, 0, 0, 0], [1, f, ho, wo], [1, 1, 1, 1])
    replace_rewritten(op, out, y)


class _RowIm2col:
    """The IR builders of one row-at-a-time im2col convolution: :meth:`split_by_phase` (strided
    rows), then per output row :meth:`row` (the gather) and :meth:`tiles` (its register tiles),
    over the rows in one loop or one block per thread (:meth:`over_rows`)."""

    def __init__(self, op: ir.Operation, x: ir.Value, w: ir.Value, epilogue: ir.Operation | None, tile_m: int,
                 tile_n: int, tag: int):
        d = ir.AffineDimExpr.get
        cst = ir.AffineConstantExpr.get
        xt, wt, ot = (ir.RankedTensorType(v.type) for v in (x, w, op.results[0]))
        self.op, self.x, self.w, self.epilogue, self.tile_m, self.tag = op, x, w, epilogue, tile_m, tag
        _, self.c, self.hp, self.wp = xt.shape
        self.f, _, self.kh, self.kw = wt.shape
        _, _, self.ho, self.wo = ot.shape
        self.k = self.c * self.kh * self.kw
        self.strides, self.dilations = int_list(op, "strides"), int_list(op, "dilations")
        strides, dilations = self.strides, self.dilations
        # A 1x1 stride-1 convolution's patches of an output row are the input row itself: no gather.
        self.direct = self.kh == self.kw == 1 and strides == [1, 1]
        self.elem = xt.element_type
        self.tile_n = max(1, tile_n // 2) if str(self.elem) == "f64" else tile_n
        self.rows_in = (self.kh - 1) * dilations[0] + 1
        self.dyn = ir.ShapedType.get_dynamic_stride_or_offset()
        self.index = ir.IndexType.get()
        self.parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
        # (0, c, ky, kx, ox) -> the row block's x[0, c, ky*d0, ox*s1 + kx*d1]
        self.gather_map = ir.AffineMap.get(5, 0, [d(0), d(1), d(2) * cst(dilations[0]),
                                                  d(4) * cst(strides[1]) + d(3) * cst(dilations[1])])
        # A strided row (the stems' stride 2) is gathered from the input split by column phase once,
        # [1, C, Hp, s, Wp / s] with phase p holding columns p, p + s, ...: tap kx of position ox is
        # phase kx mod s, element ox + kx floordiv s, so each gathered row is a contiguous run (the
        # strided gather read every element on its own, 147 x 112 of them per ResNet stem row).
        s1 = self.s1 = strides[1]
        self.phases = not self.direct and row_im2col_splits_by_phase(self.kw, self.wo, self.wp, s1, dilations[1])
        if self.phases:
            self.gather_map = ir.AffineMap.get(5, 0, [d(0), d(1), d(2) * cst(dilations[0]), d(3) % cst(s1),
                                                      d(4) + ir.AffineFloorDivExpr.get(d(3), cst(s1))])
        #: Set under the insertion point: the tiles' zero, the phase-split input, the [F, C*kh*kw] filter.
        self.zero: ir.Value | None = None
        self.source: ir.Value | None = None
        self.wmat: ir.Value | None = None

    def const(self, v: int) -> ir.Value:
        from mlir.dialects import arith

        return arith.constant(self.index, v)

    def split_by_phase(self) -> None:
        """The input as [1, C, Hp, s, Wp / s] (a strided row's gather reads contiguous runs of it)."""
        d = ir.AffineDimExpr.get
        cst = ir.AffineConstantExpr.get
        s1, elem = self.s1, self.elem
        split_shape = [1, self.c, self.hp, s1, self.wp // s1]
        split = linalg.GenericOp(
            [ir.RankedTensorType.get(split_shape, elem)], [self.x], [tensor.EmptyOp(split_shape, elem).result],
            ir.ArrayAttr.get([ir.AffineMapAttr.get(ir.AffineMap.get(5, 0, [d(0), d(1), d(2),
                                                                          d(4) * cst(s1) + d(3)])),
                              ir.AffineMapAttr.get(ir.AffineMap.get_identity(5))]),
            ir.ArrayAttr.get([self.parallel] * 5))
        sbody = split.regions[0].blocks.append(elem, elem)
        with ir.InsertionPoint(sbody):
            linalg.YieldOp([sbody.arguments[0]])
        self.source = split.result

    def row(self, whole: ir.Value, pbuf: ir.Value | None, oy: ir.Value,
            dest_oy: ir.Value) -> tuple[ir.Value, ir.Value | None]:
        """Output row ``oy``'s patches gathered into ``pbuf`` ([1, C, kh, kw, Wo], reused row after
        row: one planned buffer, not an allocation per row; None for a pointwise convolution,
        which reads the input row) and its tiles stored at row ``dest_oy`` of ``whole``;
        returns both updated."""
        from mlir.dialects import arith

        c, wo, elem, dyn, const = self.c, self.wo, self.elem, self.dyn, self.const
        if pbuf is None:
            line = tensor.extract_slice(ir.RankedTensorType.get([1, c, 1, wo], elem), self.x, [oy], [], [],
                                        [0, 0, dyn, 0], [1, c, 1, wo], [1, 1, 1, 1])
            return self.tiles(whole, collapse(line, [[0, 1, 2], [3]]), oy, dest_oy), None
        rows_in, s1, wp = self.rows_in, self.s1, self.wp
        if self.phases:
            block = tensor.extract_slice(ir.RankedTensorType.get([1, c, rows_in, s1, wp // s1], elem), self.source,
                                         [arith.muli(oy, const(self.strides[0]))], [], [], [0, 0, dyn, 0, 0],
                                         [1, c, rows_in, s1, wp // s1], [1] * 5)
        else:
            block = tensor.extract_slice(ir.RankedTensorType.get([1, c, rows_in, wp], elem), self.x,
                                         [arith.muli(oy, const(self.strides[0]))], [], [], [0, 0, dyn, 0],
                                         [1, c, rows_in, wp], [1, 1, 1, 1])
        gather = linalg.GenericOp([pbuf.type], [block], [pbuf],
                                  ir.ArrayAttr.get([ir.AffineMapAttr.get(self.gather_map),
                                                    ir.AffineMapAttr.get(ir.AffineMap.get_identity(5))]),
                                  ir.ArrayAttr.get([self.parallel] * 5))
        body = gather.regions[0].blocks.append(elem, elem)
        with ir.InsertionPoint(body):
            linalg.YieldOp([body.arguments[0]])
        return self.tiles(whole, collapse(gather.result, [[0, 1, 2, 3], [4]]), oy, dest_oy), gather.result

    def tiles(self, whole: ir.Value, patches: ir.Value, oy: ir.Value, dest_oy: ir.Value) -> ir.Value:
        """The [TM, TN] tiles of filters by positions of one output row's [C*kh*kw, Wo] patches."""
        from mlir.dialects import scf

        k, f, wo, elem, dyn, const = self.k, self.f, self.wo, self.elem, self.dyn, self.const
        i64 = ir.IntegerType.get_signless(64)
        x0 = 0
        for csplit, tn in tile_splits(wo, self.tile_n):
            cols = csplit if csplit is not None else wo - x0
            loop = scf.ForOp(const(x0), const(x0 + cols), const(tn), [whole])
            with ir.InsertionPoint(loop.body):
                j0 = loop.induction_variable
                inner = loop.inner_iter_args[0]
                panel = tensor.extract_slice(ir.RankedTensorType.get([k, tn], elem), patches, [j0], [], [],
                                             [0, dyn], [k, tn], [1, 1])
                f0 = 0
                for rsplit, tm in tile_splits(f, self.tile_m):
                    rows = rsplit if rsplit is not None else f - f0
                    floop = scf.ForOp(const(f0), const(f0 + rows), const(tm), [inner])
                    with ir.InsertionPoint(floop.body):
                        i0 = floop.induction_variable
                        t = linalg.fill(self.zero, outs=[tensor.EmptyOp([tm, tn], elem).result])
                        t.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, self.tag)
                        a = tensor.extract_slice(ir.RankedTensorType.get([tm, k], elem), self.wmat, [i0], [], [],
                                                 [dyn, 0], [tm, k], [1, 1])
                        mm = linalg.matmul(a, panel, outs=[t])
                        mm.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, self.tag)
                        cur = floop.inner_iter_args[0]
                        stored = store_tile(mm, cur, self.epilogue, self.op.results[0], [0, i0, oy, j0],
                                            [0, i0, dest_oy, j0], [1, tm, 1, tn], transposed=False)
                        stored.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, self.tag)
                        scf.YieldOp([tensor.insert_slice(stored, cur, [i0, dest_oy, j0], [], [], [0, dyn, dyn, dyn],
                                                         [1, tm, 1, tn], [1, 1, 1, 1])])
                    inner = floop.results[0]
                    f0 += rows
                scf.YieldOp([inner])
            whole = loop.results[0]
            x0 += cols
        return whole

    def over_rows(self, acc: ir.Value, threads: int) -> ir.Value:
        """Every output row into ``acc``: one loop, or with ``threads`` one block of Ho / threads
        output rows per thread, each with its own patch buffer (a slice of a [threads, C, kh, kw,
        Wo] buffer: disjoint, so written in place)."""
        from mlir.dialects import arith, scf

        f, ho, wo, elem, dyn, const, direct = self.f, self.ho, self.wo, self.elem, self.dyn, self.const, self.direct
        shape = [1, self.c, self.kh, self.kw, wo]
        if threads > 1 and ho % threads == 0 and f * ho * wo * self.k >= PARALLEL_MIN_MACS:
            per = ho // threads
            shared_in = [acc] if direct else [acc, tensor.EmptyOp([threads, *shape[1:]], elem).result]
            par = scf.ForallOp([0], [threads], [1], shared_in)
            with ir.InsertionPoint(par.body):
                b = par.induction_variables[0]
                shared = par.inner_iter_args[0]
                first = arith.muli(b, const(per))
                rtype = ir.RankedTensorType.get([1, f, per, wo], elem)
                carried = [tensor.extract_slice(rtype, shared, [first], [], [], [0, 0, dyn, 0], [1, f, per, wo],
                                                [1, 1, 1, 1])]
                if not direct:
                    carried.append(tensor.extract_slice(ir.RankedTensorType.get(shape, elem), par.inner_iter_args[1],
                                                        [b], [], [], [dyn, 0, 0, 0, 0], shape, [1] * 5))
                loop = scf.ForOp(const(0), const(per), const(1), carried)
                with ir.InsertionPoint(loop.body):
                    r = loop.induction_variable
                    args = list(loop.inner_iter_args)
                    done, pdone = self.row(args[0], None if direct else args[1], arith.addi(first, r), r)
                    scf.YieldOp([done] if direct else [done, pdone])
                with ir.InsertionPoint(par.terminator().region.blocks[0]):
                    tensor.parallel_insert_slice(loop.results[0], shared, [first], [], [], [0, 0, dyn, 0],
                                                 [1, f, per, wo], [1, 1, 1, 1])
                    if not direct:
                        tensor.parallel_insert_slice(loop.results[1], par.inner_iter_args[1], [b], [], [],
                                                     [dyn, 0, 0, 0, 0], shape, [1] * 5)
            return par.results[0]
        loop = scf.ForOp(const(0), const(ho), const(1), [acc] if direct else [acc, tensor.EmptyOp(shape, elem).result])
        with ir.InsertionPoint(loop.body):
            oy = loop.induction_variable
            args = list(loop.inner_iter_args)
            done, pdone = self.row(args[0], None if direct else args[1], oy, oy)
            scf.YieldOp([done] if direct else [done, pdone])
        return loop.results[0]


def conv_to_row_im2col(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> None:
    """A batch-1 convolution as im2col one output row at a time, its matmul tiles storing through
    the epilogue.

    For each output row: the row's ``[C*kh*kw, Wo]`` patches (a gather from the padded input,
    kept in the cache), then ``[TM, TN]`` register tiles of filters by positions (position
    chunks outside, filter tiles inside: a patch panel is read from the L1 by every filter tile),
    each stored through the convolution's epilogue into the ``[1, F, Ho, Wo]`` result. For few
    input channels (ResNet's and MobileNetV2's 3-channel stems), where a K loop per tap is too
    short for :func:`conv_to_shifted_rows`: im2col for the whole image wrote and read back a
    7.4 MB patch matrix and ran the epilogue as its own pass. A 1x1 stride-1 convolution's
    patches of an output row are its input row (no gather): the path
    :data:`~.strategy.ConvPath.POINTWISE` on wide rows. Output rows are the iterations of an
    ``scf.forall`` with threads. The paths :data:`~.strategy.ConvPath.ROW_IM2COL` and ``POINTWISE``
    (batch 1, at most ``ROW_IM2COL_MAX_K`` patch rows, at least a register tile's width of
    filters, an output that starts as zeros)."""
    from mlir.dialects import arith

    x, w, out, _, _, ot = conv_operands(op)
    _, f, ho, wo = ot.shape
    epilogue = fusable_epilogue(op)
    r = _RowIm2col(op, x, w, epilogue, tile_m, tile_n, tag)
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        r.zero = arith.constant(r.elem, 0.0)
        if r.phases:
            r.split_by_phase()
        r.wmat = collapse(w, [[0], [1, 2, 3]])  # [F, C*kh*kw]
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], r.elem).result
        acc = r.over_rows(acc, threads)
    replace_rewritten(op, out, acc, epilogue)


def conv_to_img2col(op: ir.Operation) -> None:
    """A ``linalg.conv_2d_nchw_fchw`` as a patch matrix and one matmul (batched for batch > 1):
    the path :data:`~.strategy.ConvPath.IMG2COL`, every static f32/f64 convolution's fallback."""
    x, w, out, xt, wt, ot = conv_operands(op)
    n, c, _, _ = xt.shape
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = int_list(op, "strides"), int_list(op, "dilations")
    elem = xt.element_type
    with op.location, ir.InsertionPoint(op):
        if kh == kw == 1 and strides == [1, 1]:
            cols = collapse(x, [[0], [1], [2, 3]])  # [N, C, H*W]: already the patch matrix
        else:
            d = ir.AffineDimExpr.get
            cst = ir.AffineConstantExpr.get
            # iteration (n, c, ky, kx, oy, ox) -> x[n, c, oy*s0 + ky*d0, ox*s1 + kx*d1]
            xmap = ir.AffineMap.get(6, 0, [
                d(0), d(1),
                d(4) * cst(strides[0]) + d(2) * cst(dilations[0]),
                d(5) * cst(strides[1]) + d(3) * cst(dilations[1]),
            ])
            shape = [n, c, kh, kw, ho, wo]
            init = tensor.EmptyOp(shape, elem).result
            parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
            gather = linalg.GenericOp(
                [ir.RankedTensorType.get(shape, elem)], [x], [init],
                ir.ArrayAttr.get([ir.AffineMapAttr.get(xmap), ir.AffineMapAttr.get(ir.AffineMap.get_identity(6))]),
                ir.ArrayAttr.get([parallel] * 6),
            )
            block = gather.regions[0].blocks.append(elem, elem)
            with ir.InsertionPoint(block):
                linalg.YieldOp([block.arguments[0]])
            cols = collapse(gather.result, [[0], [1, 2, 3], [4, 5]])  # [N, C*kh*kw, Ho*Wo]
        w2 = collapse(w, [[0], [1, 2, 3]])  # [F, C*kh*kw]
        acc = collapse(out, [[0], [1], [2, 3]])  # [N, F, Ho*Wo]
        if n == 1:
            y = linalg.matmul(w2, collapse(cols, [[0, 1], [2]]), outs=[collapse(acc, [[0, 1], [2]])])
            y = expand(y, [1, f, ho * wo], [[0, 1], [2]])
        else:
            wt2 = ir.RankedTensorType(w2.type)
            d = ir.AffineDimExpr.get
            wb_init = tensor.EmptyOp([n, *wt2.shape], wt2.element_type).result
            wb = linalg.broadcast(w2, outs=[wb_init], dimensions=[0])
            y = linalg.batch_matmul(wb, cols, outs=[acc])
        y = expand(y, [n, f, ho, wo], [[0], [1], [2, 3]])
    op.results[0].replace_all_uses_with(y)
    op.erase()
