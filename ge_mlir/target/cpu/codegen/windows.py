"""Depthwise convolutions and pools: vector code over output columns with the epilogue in the
vectors (:func:`window_to_vectors`), else one elementwise generic over the taps
(:func:`window_to_taps`)."""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import linalg, tensor

from .common import collapse, expand, fill_scalar, int_list, lowest_padded, over_panels, replace_rewritten
from .epilogue import fusable_epilogue, vector_epilogue, vector_epilogue_ok
from .strategy import (
    FLAT_WINDOW_MAX_COLUMNS, PARALLEL_MIN_ITERATIONS, vector_reads_fit, vector_starts, vector_taps, vector_width,
)

__all__ = ["window_to_taps", "window_to_vectors"]


def window_to_taps(op: ir.Operation) -> None:
    """Depthwise convolution / pooling as one elementwise generic over its taps.

    ``out[n,c,y,x] = out + sum_t w[c,t] * x[n,c,y*s+ky*d,x*s+kx*d]`` (max for
    max pooling): each tap is a strided ``extract_slice`` of the input, so the
    generic's maps are plain identities and its innermost loop runs over
    output columns, which LLVM vectorizes. The named ops put the 3x3 window
    innermost: a scalar 9-term reduction per output (measured 3-5x slower
    than onnxruntime on MobileNetV2's depthwise layers).

    When ``out`` is the operation's identity (a fill of 0 for sums, -inf for max) the generic
    starts from the first tap and does not read it: no fill pass, no read pass. With stride 1
    and fewer than :data:`FLAT_WINDOW_MAX_COLUMNS` output columns, it also runs over the
    padded width: tap (ky, kx) is the contiguous window at ``ky*d*Wp + kx*d`` of the flattened
    input (as the shifted-matmul convolution), the result ``[Ho, Wp]`` rows of which the
    ``[Ho, Wo]`` view is taken: one long vector loop instead of ``Ho`` short ones. The path
    :data:`~.strategy.WindowPath.TAPS` (static float operands of one element type, at most
    ``MAX_WINDOW_TAPS`` taps).
    """
    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = (ir.RankedTensorType(v.type) for v in (x, w, out))
    kh, kw = wt.shape[-2], wt.shape[-1]
    n, c, hp, wp = xt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = int_list(op, "strides"), int_list(op, "dilations")
    depthwise = op.name.startswith("linalg.depthwise")
    kind = "max" if op.name.endswith("_max") else "sum"
    elem = xt.element_type
    init = fill_scalar(out)
    fresh = init is not None and (init == -math.inf if kind == "max" else init == 0.0)
    flat = fresh and strides == [1, 1] and wo < FLAT_WINDOW_MAX_COLUMNS and ho > 1
    with op.location, ir.InsertionPoint(op):
        taps, weights = [], []
        if flat:
            length = (ho - 1) * wp + wo  # the last row's padding columns are never needed
            shape = [n, c, length]
            xf = collapse(x, [[0], [1], [2, 3]])
            for ky in range(kh):
                for kx in range(kw):
                    off = ky * dilations[0] * wp + kx * dilations[1]
                    taps.append(tensor.extract_slice(ir.RankedTensorType.get(shape, elem), xf, [], [], [],
                                                     [0, 0, off], shape, [1, 1, 1]))
        else:
            shape = [n, c, ho, wo]
            for ky in range(kh):
                for kx in range(kw):
                    taps.append(tensor.extract_slice(
                        ir.RankedTensorType.get(shape, elem), x, [], [], [], [0, 0, ky * dilations[0], kx * dilations[1]],
                        shape, [1, 1, strides[0], strides[1]]))
        if depthwise:
            for ky in range(kh):
                for kx in range(kw):
                    wtap = tensor.extract_slice(ir.RankedTensorType.get([c, 1, 1], wt.element_type), w, [], [], [],
                                                [0, ky, kx], [c, 1, 1], [1, 1, 1])
                    weights.append(collapse(wtap, [[0, 1, 2]]))
        rank = len(shape)
        if flat:
            full = tensor.EmptyOp([n, c, ho * wp], elem).result
            dest = tensor.extract_slice(ir.RankedTensorType.get(shape, elem), full, [], [], [],
                                        [0, 0, 0], shape, [1, 1, 1])
        else:
            dest = tensor.EmptyOp(shape, elem).result if fresh else out
        ident = ir.AffineMap.get_identity(rank)
        chan = ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(1)])
        maps = [ident] * len(taps) + [chan] * len(weights) + [ident]
        parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
        gen = linalg.GenericOp(
            [dest.type], [*taps, *weights], [dest],
            ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
            ir.ArrayAttr.get([parallel] * rank),
        )
        block = gen.regions[0].blocks.append(*([elem] * len(taps)), *([wt.element_type] * len(weights)), elem)
        args = list(block.arguments)
        with ir.InsertionPoint(block):
            from mlir.dialects import arith

            acc = None if fresh else args[-1]
            for t in range(len(taps)):
                if depthwise:
                    wv = args[len(taps) + t]
                    if wv.type != elem:
                        wv = arith.extf(elem, wv)
                    term = arith.mulf(args[t], wv)
                    acc = term if acc is None else arith.addf(acc, term)
                elif kind == "max":
                    acc = args[t] if acc is None else arith.maximumf(acc, args[t])
                else:
                    acc = args[t] if acc is None else arith.addf(acc, args[t])
            linalg.YieldOp([acc])
        y = gen.result
        if flat:
            y = tensor.insert_slice(y, full, [], [], [], [0, 0, 0], shape, [1, 1, 1])
            y = expand(y, [n, c, ho, wp], [[0], [1], [2, 3]])
            y = tensor.extract_slice(ir.RankedTensorType.get([n, c, ho, wo], elem), y, [], [], [],
                                     [0, 0, 0, 0], [n, c, ho, wo], [1, 1, 1, 1])
    op.results[0].replace_all_uses_with(y)
    op.erase()
    if fresh:  # the fill nothing reads any more
        fill = out.owner.operation if isinstance(out.owner, ir.OpView) else out.owner
        if not list(fill.results[0].uses):
            fill.erase()


def _vector_plans(x: ir.Value, clamped: bool, wo: int, kw: int, strides: list[int], dilations: list[int],
                  width: int):
    """(input read, top, left, its rows, its columns, {first column: taps, or None for a border
    vector}) of a window op's vector code.

    ``clamped``: a max pool of a lowest-value-padded input reads the input where it is, taps
    clamped into it (:mod:`ge_mlir.irutils.windows`): the padded copy and its fill go (ResNet-18's
    stem output, 3.3 MB, was filled and written padded only for the pool to read it back). Its
    vectors whose reads stay inside the input's columns read as usual; the others (borders) read
    the columns their clamped taps span once and shuffle the taps out. Else every vector reads
    the padded input as the last one does (:func:`~.strategy.select_window_path` checked it fits)."""
    sx = strides[1]
    starts = vector_starts(wo, width)
    if clamped:
        unpadded = lowest_padded(x)
        if unpadded is None:
            raise ValueError("a clamped max pool's input is not an input padded with its lowest value")
        src, top, left = unpadded
        h, w_in = ir.RankedTensorType(src.type).shape[2:]
        plans = {}
        for x0 in starts:
            tx = vector_taps(sx * x0, left + w_in, kw, sx, dilations[1], width)
            plans[x0] = tx if vector_reads_fit(sx * x0, tx, left, left + w_in, width) else None
        return src, top, left, h, w_in, plans
    hp, wp = ir.RankedTensorType(x.type).shape[2:]
    taps = vector_taps(sx * starts[-1], wp, kw, sx, dilations[1], width)
    return x, 0, 0, hp, wp, {x0: taps for x0 in starts}


class _WindowVectors:
    """The IR builders of one window op's vector code: per channel (:meth:`channel`), image and
    output row (:meth:`row_vectors`), each vector the sum (max) of its taps (:meth:`tap_vector`)."""

    def __init__(self, op: ir.Operation, epilogue: ir.Operation | None, width: int, plans: tuple):
        x, w = op.operands[0], op.operands[1]
        xt, wt = ir.RankedTensorType(x.type), ir.RankedTensorType(w.type)
        self.op, self.w, self.epilogue, self.vl = op, w, epilogue, width
        self.src, self.top, self.left, self.h, self.w_in, self.plans = plans
        self.n = xt.shape[0]
        self.kh, self.kw = wt.shape[-2], wt.shape[-1]
        self.ho = ir.RankedTensorType(op.results[0].type).shape[2]
        self.strides, self.dilations = int_list(op, "strides"), int_list(op, "dilations")
        self.sx = self.strides[1]
        self.depthwise = op.name.startswith("linalg.depthwise")
        self.kind = "max" if op.name.endswith("_max") else "sum"
        self.elem = xt.element_type
        self.index = ir.IndexType.get()
        self.vtype = ir.VectorType.get([width], self.elem)
        self.minor = ir.AffineMap.get(4, 0, [ir.AffineDimExpr.get(3)])
        #: Set under the insertion point: the transfers' padding zero.
        self.zero: ir.Value | None = None

    def const(self, v: int) -> ir.Value:
        from mlir.dialects import arith

        return arith.constant(self.index, v)

    def input_row(self, oy: ir.Value, ky: int) -> ir.Value:
        """The input row of tap row ``ky`` for output row ``oy``, clamped into the input."""
        from mlir.dialects import arith

        const = self.const
        first = ky * self.dilations[0] - self.top
        r = arith.muli(oy, const(self.strides[0]))
        r = arith.addi(r, const(first)) if first else r
        if first < 0:
            r = arith.maxsi(r, const(0))
        if (self.ho - 1) * self.strides[0] + first > self.h - 1:
            r = arith.minsi(r, const(self.h - 1))
        return r

    def tap_vector(self, loads: dict, at: list[ir.Value], x0: int, ky: int, kx: int,
                   border: tuple[list[list[int]], int, int] | None) -> ir.Value:
        """Tap (ky, kx)'s vector of the output columns from ``x0``: a read (shared by the taps of one
        read, ``loads``) of the input row ``at`` = [image, channel, row], shuffled when the tap keeps
        part of it. ``border``: the clamped columns of each tap, the first and the count of the
        columns they span (one read), for a border vector."""
        from mlir.dialects import vector

        vl, elem, src = self.vl, self.elem, self.src
        if border is not None:
            cols, lo, span = border
            if ky not in loads:
                loads[ky] = vector.transfer_read(ir.VectorType.get([span], elem), src, [*at, self.const(lo)],
                                                 self.minor, self.zero, [True])
            v = loads[ky]
            mask = [c - lo for c in cols[kx]]
            return vector.shuffle(v, v, mask) if mask != list(range(span)) else v
        off, part = self.plans[x0][kx]
        key = (ky, off)
        if key not in loads:
            width = vl if part is None else 2 * vl
            loads[key] = vector.transfer_read(ir.VectorType.get([width], elem), src,
                                              [*at, self.const(self.sx * x0 + off - self.left)],
                                              self.minor, self.zero, [True])
        v = loads[key]
        return vector.shuffle(v, v, list(range(part, 2 * vl, 2))) if part is not None else v

    def row_vectors(self, panel: ir.Value, ch: ir.Value, img: ir.Value, oy: ir.Value, wv: list) -> ir.Value:
        """The output row ``oy`` of channel ``ch``, image ``img``, into the [N, 1, Ho, Wo] ``panel``."""
        from mlir.dialects import arith, vector

        vl, kw, sx, left, w_in = self.vl, self.kw, self.sx, self.left, self.w_in
        rows = [self.input_row(oy, ky) for ky in range(self.kh)]
        for x0, taps in self.plans.items():
            loads: dict = {}
            total = nans = None
            border = None
            if taps is None:
                # Each tap's columns, clamped; one read spans them all.
                cols = [[min(max(sx * (x0 + j) + kx * self.dilations[1] - left, 0), w_in - 1) for j in range(vl)]
                        for kx in range(kw)]
                lo = min(min(c) for c in cols)
                border = (cols, lo, max(max(c) for c in cols) - lo + 1)
            for ky in range(self.kh):
                for kx in range(kw):
                    v = self.tap_vector(loads, [img, ch, rows[ky]], x0, ky, kx, border)
                    if self.depthwise:
                        total = arith.mulf(v, wv[ky * kw + kx]) if total is None else \
                            vector.fma(v, wv[ky * kw + kx], total)
                    elif self.kind == "max":
                        # NaN-propagating maximum without arith.maximumf, which x86 expands to
                        # a sign and NaN fix-up sequence around vmaxps (a 3x3 max pool ran
                        # 2.7x onnxruntime's time): the larger by one compare and blend, any
                        # NaN tap remembered in a mask and put back once at the end.
                        uno = arith.cmpf(arith.CmpFPredicate.UNO, v, v)
                        nans = uno if nans is None else arith.ori(nans, uno)
                        total = v if total is None else \
                            arith.select(arith.cmpf(arith.CmpFPredicate.OGT, v, total), v, total)
                    else:
                        total = v if total is None else arith.addf(total, v)
            if nans is not None:
                total = arith.select(nans, arith.constant(self.vtype, ir.DenseElementsAttr.get_splat(
                    self.vtype, ir.FloatAttr.get(self.elem, math.nan))), total)
            if self.epilogue is not None:
                total = vector_epilogue(self.epilogue, self.op.results[0], total, [img, ch, oy, self.const(x0)], vl)
            panel = vector.transfer_write(panel.type, total, panel, [img, self.const(0), oy, self.const(x0)],
                                          self.minor, [True])
        return panel

    def channel(self, panel: ir.Value, p: ir.Value, ch: ir.Value) -> ir.Value:
        """Every image and output row of channel ``ch`` into its [N, 1, Ho, Wo] ``panel``."""
        from mlir.dialects import scf, vector

        const = self.const
        wv = []
        if self.depthwise:
            wv = [vector.broadcast(self.vtype, tensor.extract(self.w, [ch, const(ky), const(kx)]))
                  for ky in range(self.kh) for kx in range(self.kw)]
        images = scf.ForOp(const(0), const(self.n), const(1), [panel])
        with ir.InsertionPoint(images.body):
            img = images.induction_variable
            rows = scf.ForOp(const(0), const(self.ho), const(1), [images.inner_iter_args[0]])
            with ir.InsertionPoint(rows.body):
                scf.YieldOp([self.row_vectors(rows.inner_iter_args[0], ch, img, rows.induction_variable, wv)])
            scf.YieldOp([rows.results[0]])
        return images.results[0]


def window_to_vectors(op: ir.Operation, lanes: int, threads: int, clamped: bool = False) -> None:
    """A depthwise convolution or pooling (f32, NCHW) as vector code over output columns, its
    epilogue applied before the one store.

    Per channel (the iterations of an ``scf.forall`` with threads), image and output row: vectors
    of ``lanes`` consecutive output columns (a narrower power of two for rows shorter than that;
    the last vector of a row overlaps the one before instead of a scalar remainder), each the
    sum (max) over the taps of one unaligned load of the padded input times the channel's
    broadcast weight. Stride 2 along the rows loads two vectors' worth of consecutive input
    elements and keeps the even or odd ones (one shuffle; a strided vector read was element by
    element). The convolution's elementwise epilogue (bias, activation, residual) runs on the
    vector before it is stored: no accumulator pass. :func:`window_to_taps` left all of it to
    LLVM's loop vectorizer, over columns (short rows: a scalar remainder), strided loads element by
    element and the epilogue as its own pass: MobileNetV2's depthwise layers ran 2-4.6x slower than
    onnxruntime's (1.46 of 4.9 ms). A max pool of an input padded with -inf whose windows all
    overlap the input reads the input in place, taps past its edges clamped onto the edge
    (:mod:`ge_mlir.irutils.windows`): border vectors read the columns their taps span once and shuffle
    the taps out; the padded buffer and its fill go (``clamped``: the path
    :data:`~.strategy.WindowPath.CLAMPED_VECTORS`). The paths ``VECTORS`` and ``CLAMPED_VECTORS``
    (f32, a fresh output, at least two output columns, a row stride of 1 or 2, 2 without dilation)."""
    from mlir.dialects import arith

    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = (ir.RankedTensorType(v.type) for v in (x, w, out))
    kh, kw = wt.shape[-2], wt.shape[-1]
    n, c = xt.shape[:2]
    _, _, ho, wo = ot.shape
    vl = vector_width(wo, lanes)
    plans = _vector_plans(x, clamped, wo, kw, int_list(op, "strides"), int_list(op, "dilations"), vl)
    epilogue = fusable_epilogue(op)
    if epilogue is not None and not vector_epilogue_ok(epilogue):
        epilogue = None
    v = _WindowVectors(op, epilogue, vl, plans)
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        v.zero = arith.constant(v.elem, 0.0)
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([n, c, ho, wo], v.elem).result
        parallel = threads > 1 and c > 1 and n * c * ho * wo * kh * kw >= PARALLEL_MIN_ITERATIONS
        acc = over_panels(acc, 1, 0, 1, c, parallel, v.channel)
    replace_rewritten(op, out, acc, epilogue)
    if clamped:  # the unpadded input read in place: the padded copy goes
        _erase_if_unused(x)


def _erase_if_unused(v: ir.Value) -> None:
    """Erases the insert, fill, empty tensor or constant defining ``v`` when nothing reads it,
    then so on for its operands."""
    op = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
    if not isinstance(op, ir.Operation) or any(list(r.uses) for r in op.results) or op.name not in (
            "tensor.insert_slice", "linalg.fill", "tensor.empty", "arith.constant"):
        return
    operands = list(op.operands)
    op.erase()
    for o in operands:
        if isinstance(o.owner, (ir.Operation, ir.OpView)):
            _erase_if_unused(o)
