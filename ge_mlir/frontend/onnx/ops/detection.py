"""Object-detection ops: NonMaxSuppression (thresholds and limit as run-time values), RoiAlign and DeformConv.

NonMaxSuppression follows the ONNX reference step by step, vectorized:

* boxes as corners (``[y1, x1, y2, x2]`` in either order, or centers ``[xc, yc, w, h]`` with
  ``center_point_box = 1``), in the boxes' float type;
* a ``[B, N, N]`` "suppresses" matrix: the intersection is positive, both areas and the union are
  positive, and intersection / union > iou_threshold -- the reference's tests, in its order;
* per batch and class the boxes in descending score order (a stable ``top_k``: equal scores keep
  the lower index first), those above score_threshold (when given) are candidates;
* the greedy choice (a candidate is kept unless a kept, better candidate suppresses it) is the
  fixpoint of ``keep = candidate & !any(keep_before & suppresses)``, iterated in an ``scf.while``
  until it stops changing (at most N rounds: round t fixes position t);
* the first max_output_boxes_per_class kept boxes of each class (a running count), and their
  ``[batch, class, box]`` triples in batch, class, score order -- a ``[?, 3]`` result.
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import scf, tensor

from ....dialects import ge
from ..registry import converter
from . import _runtime as rt
from ._shapes import _tensor
from .tensor import _true_positions


def _coords(ctx, boxes: ir.Value, center: bool) -> tuple[ir.Value, ...]:
    """xmin, xmax, ymin, ymax, each [B, N]."""
    def col(j: int) -> ir.Value:
        return ge.gather(boxes, rt.i64_const(ctx, j), axis=2)

    if center:
        elem = ir.RankedTensorType(boxes.type).element_type
        two = rt.const(ctx, 2, elem)
        xc, yc, w, h = col(0), col(1), ge.div(col(2), two), ge.div(col(3), two)
        return ge.sub(xc, w), ge.add(xc, w), ge.sub(yc, h), ge.add(yc, h)
    y1, x1, y2, x2 = col(0), col(1), col(2), col(3)
    return ge.min(x1, x2), ge.max(x1, x2), ge.min(y1, y2), ge.max(y1, y2)


def _scalar_float(ctx, v: ir.Value, elem: ir.Type) -> ir.Value:
    """A one-value tensor (rank 0 or 1) as a rank-0 ``elem`` tensor."""
    return rt.to_elem(rt.element(ctx, v, 0) if ir.RankedTensorType(v.type).rank else v, elem)


def _suppresses(ctx, boxes: ir.Value, center: bool, iou: ir.Value) -> ir.Value:
    """[B, N, N]: box i suppresses box j (the reference's suppress_by_iou, symmetric)."""
    xmin, xmax, ymin, ymax = _coords(ctx, boxes, center)
    elem = ir.RankedTensorType(boxes.type).element_type
    zero = rt.const(ctx, 0, elem)

    def rows(v):  # [B, N, 1]
        return ge.unsqueeze(v, [2])

    def cols(v):  # [B, 1, N]
        return ge.unsqueeze(v, [1])

    ix0, ix1 = ge.max(rows(xmin), cols(xmin)), ge.min(rows(xmax), cols(xmax))
    iy0, iy1 = ge.max(rows(ymin), cols(ymin)), ge.min(rows(ymax), cols(ymax))
    inter = ge.mul(ge.sub(ix1, ix0), ge.sub(iy1, iy0))
    area = ge.mul(ge.sub(xmax, xmin), ge.sub(ymax, ymin))
    a_i, a_j = rows(area), cols(area)
    union = ge.sub(ge.add(a_i, a_j), inter)
    ok = ge.and_(ge.greater(ix1, ix0), ge.greater(iy1, iy0))
    for cond in (ge.greater(inter, zero), ge.greater(a_i, zero), ge.greater(a_j, zero),
                 ge.greater(union, zero)):
        ok = ge.and_(ok, cond)
    # Where a test fails the quotient is not used (the where picks false).
    safe_union = ge.where(ok, union, rt.const(ctx, 1, elem))
    over = ge.greater(ge.div(inter, safe_union), iou)
    return ge.and_(ok, over)


def _greedy(ctx, candidate: ir.Value, blocked: ir.Value, n: int) -> ir.Value:
    """The fixpoint of keep = candidate & !any_l(keep[l] & blocked[k, l]) over the last axis
    ([B, C, N] candidates, [B, C, N, N] blocked by earlier positions), in an scf.while."""
    i64 = rt.i64()
    t_i64 = ir.RankedTensorType.get([], i64)
    kt = candidate.type
    op = scf.WhileOp([t_i64, kt, kt], [rt.i64_const(ctx, 0), candidate, ge.not_(candidate)])
    before = op.before.blocks.append(t_i64, kt, kt)
    with ir.InsertionPoint(before):
        step, keep, prev = before.arguments
        changed = ge.reduce_max(rt.as_i64(ge.xor(keep, prev)), axes=list(range(kt.rank)), keepdims=False)
        go = ge.and_(ge.less(step, rt.i64_const(ctx, n + 1)), ge.greater(changed, rt.i64_const(ctx, 0)))
        scf.ConditionOp(tensor.extract(go, []), list(before.arguments))
    after = op.after.blocks.append(t_i64, kt, kt)
    with ir.InsertionPoint(after):
        step, keep, _prev = after.arguments
        hit = ge.and_(ge.unsqueeze(keep, [kt.rank - 1]), blocked)  # [B, C, N(k), N(l)]: keep[l] & blocked[k, l]
        suppressed = ge.greater(ge.reduce_max(rt.as_i64(hit), axes=[kt.rank], keepdims=False),
                                rt.i64_const(ctx, 0))
        new = ge.and_(candidate, ge.not_(suppressed))
        scf.YieldOp([ge.add(step, rt.i64_const(ctx, 1)), new, keep])
    return op.results[1]


@converter("NonMaxSuppression", since=10, notes="static box/score shapes; thresholds and the per-class limit at "
           "run time; the greedy choice as a fixpoint in an scf.while; a [?, 3] result")
def non_max_suppression(ctx):
    bshape, sshape = ctx.shape(0), ctx.shape(1)
    if any(d < 0 for d in bshape + sshape):
        ctx.refuse(f"NonMaxSuppression needs static box and score shapes, got {ctx.input_type(0)} and "
                   f"{ctx.input_type(1)}")
    if len(bshape) != 3 or bshape[2] != 4 or len(sshape) != 3 or sshape[0] != bshape[0] or sshape[2] != bshape[1]:
        ctx.invalid(f"boxes {bshape} and scores {sshape} must be [B, N, 4] and [B, C, N]")
    n_b, n_c, n = sshape
    center = int(ctx.attr("center_point_box", 0))
    if center not in (0, 1):
        ctx.invalid(f"center_point_box must be 0 or 1, got {center}")
    elem = ctx.elem(0)
    boxes, scores = ctx.input(0), ctx.input(1)
    if ctx.elem(1) != elem:
        scores = ge.cast(_tensor(sshape, elem), scores)
    zero_f = rt.const(ctx, 0, elem)
    iou = _scalar_float(ctx, ctx.input(3), elem) if ctx.has_input(3) else zero_f
    # Max boxes per class: absent means 0 (nothing is selected), negative counts as 0.
    limit = ge.max(rt.scalar(ctx, ctx.input(2)), rt.i64_const(ctx, 0)) if ctx.has_input(2) else rt.i64_const(ctx, 0)
    values, order = ge.TopKOp(scores, n, axis=2).results  # [B, C, N]: descending, ties lower index first
    if ctx.has_input(4):
        candidate = ge.greater(values, _scalar_float(ctx, ctx.input(4), elem))
    else:
        candidate = ctx.constant(np.ones((n_b, n_c, n), dtype=bool))
    # blocked[b, c, k, l]: the box at sorted position l (earlier, l < k) suppresses the one at k.
    sup = ge.reshape(_tensor([n_b * n * n], ir.IntegerType.get_signless(1)),
                     _suppresses(ctx, boxes, center, iou))
    base = rt.i64_const(ctx, (np.arange(n_b, dtype=np.int64) * n * n).reshape(n_b, 1, 1, 1))
    flat = ge.add(ge.add(base, ge.mul(ge.unsqueeze(order, [3]), rt.i64_const(ctx, n))), ge.unsqueeze(order, [2]))
    earlier = ctx.constant(np.tril(np.ones((n, n), dtype=bool), -1))  # [k, l]: l < k
    blocked = ge.and_(ge.gather(sup, flat, axis=0), earlier)
    keep = _greedy(ctx, candidate, blocked, n)
    kept = ge.and_(keep, ge.less_equal(ge.cumsum(rt.as_i64(keep), 2), limit))
    pos = _true_positions(ctx, ge.reshape(_tensor([n_b * n_c * n], ir.IntegerType.get_signless(1)), kept))
    b = ge.div(pos, rt.i64_const(ctx, n_c * n))
    c = ge.mod(ge.div(pos, rt.i64_const(ctx, n)), rt.i64_const(ctx, n_c))
    box = ge.gather(ge.reshape(_tensor([n_b * n_c * n], rt.i64()), order), pos, axis=0)
    return ge.concat([ge.unsqueeze(v, [1]) for v in (b, c, box)], 1)


@converter("RoiAlign", since=10, notes="static X shape, a positive sampling_ratio; run-time rois and batch "
           "indices: the reference's sample points and bilinear weights in f32, gathered per roi (avg or max)")
def roi_align(ctx):
    """The reference step by step: per roi the bin grid's sample points, points outside
    [-1, H] x [-1, W] weigh 0, the others clamped to the map as the reference does; four
    gathered corners per point; their weighted sum averaged (``avg``) or the largest weighted
    corner over the points (``max``)."""
    xshape = ctx.shape(0)
    if any(d < 0 for d in xshape) or len(xshape) != 4:
        ctx.refuse(f"RoiAlign needs a static 4-D X, got {ctx.input_type(0)}")
    n_x, c, h, w = xshape
    rshape, ishape = ctx.shape(1), ctx.shape(2)
    if len(rshape) != 2 or rshape[1] != 4 or rshape[0] < 0 or ishape != [rshape[0]]:
        ctx.refuse(f"rois {rshape} and batch_indices {ishape} must be static [R, 4] and [R]")
    r = rshape[0]
    ph, pw = int(ctx.attr("output_height", 1)), int(ctx.attr("output_width", 1))
    s = int(ctx.attr("sampling_ratio", 0))
    if s <= 0:
        ctx.refuse("sampling_ratio 0 (a grid from each roi's run-time size) is not supported; give a positive one")
    scale = float(ctx.attr("spatial_scale", 1.0))
    mode = ctx.attr("mode", "avg")
    half = ctx.attr("coordinate_transformation_mode", "half_pixel" if ctx.opset >= 16 else "output_half_pixel")
    elem = ctx.elem(0)
    if not isinstance(elem, ir.F32Type):
        ctx.refuse(f"RoiAlign on {elem} is not supported (f32)")

    def f(v):
        return rt.const(ctx, v, elem)

    rois = ctx.input(1)
    if ctx.elem(1) != elem:
        rois = ge.cast(_tensor(rshape, elem), rois)
    off = 0.5 if half == "half_pixel" else 0.0
    x1, y1, x2, y2 = (ge.sub(ge.mul(ge.gather(rois, rt.i64_const(ctx, j), axis=1), f(scale)), f(off)) for j in range(4))
    rw, rh = ge.sub(x2, x1), ge.sub(y2, y1)
    if half != "half_pixel":  # malformed rois become 1x1
        rw, rh = ge.max(rw, f(1.0)), ge.max(rh, f(1.0))
    bh, bw = ge.div(rh, f(ph)), ge.div(rw, f(pw))

    def points(start, size, bins, shape):
        """start + p * size + (i + 0.5) * size / s, broadcast to ``shape`` ([R, PH, PW, S, S] axes)."""
        p = f(np.arange(bins, dtype=np.float32))
        i = f(np.arange(s, dtype=np.float32) + 0.5)
        start, size = (ge.reshape(_tensor([r, 1], elem), v) for v in (start, size))
        base = ge.add(start, ge.mul(ge.reshape(_tensor([1, bins], elem), p), size))  # [R, bins]
        step = ge.div(ge.mul(ge.reshape(_tensor([1, s], elem), i), size), f(float(s)))  # [R, s]
        return ge.add(ge.reshape(_tensor(shape[0], elem), base), ge.reshape(_tensor(shape[1], elem), step))

    yy = points(y1, bh, ph, ([r, ph, 1, 1, 1], [r, 1, 1, s, 1]))
    xx = points(x1, bw, pw, ([r, 1, pw, 1, 1], [r, 1, 1, 1, s]))

    def axis(v, size):
        """The reference's clamping of one coordinate: (low, high, weight of high, inside)."""
        inside = ge.and_(ge.greater_equal(v, f(-1.0)), ge.less_equal(v, f(float(size))))
        v = ge.max(v, f(0.0))
        low = ge.floor(v)
        last = ge.greater_equal(low, f(float(size - 1)))
        low = ge.where(last, f(float(size - 1)), low)
        v = ge.where(last, low, v)
        high = ge.where(last, low, ge.add(low, f(1.0)))
        return low, high, ge.sub(v, low), inside

    ylo, yhi, ly, yin = axis(yy, h)
    xlo, xhi, lx, xin = axis(xx, w)
    hy, hx = ge.sub(f(1.0), ly), ge.sub(f(1.0), lx)
    inside = ge.and_(yin, xin)  # [R, PH, PW, S, S]
    zero = f(0.0)
    weights = [ge.where(inside, ge.mul(a, b), zero) for a, b in ((hy, hx), (hy, lx), (ly, hx), (ly, lx))]
    # Values: the roi's image as [R * H * W, C] rows, gathered at r * H * W + y * W + x.
    img = ge.gather(ge.reshape(_tensor([n_x, c, h * w], elem), ctx.input(0)), rt.as_i64(ctx.input(2)), axis=0)
    rows = ge.reshape(_tensor([r * h * w, c], elem), ge.transpose(img, [0, 2, 1]))
    base = rt.i64_const(ctx, (np.arange(r, dtype=np.int64) * h * w).reshape(r, 1, 1, 1, 1))

    def corner(yv, xv):
        lin = ge.add(ge.mul(rt.as_i64(yv), rt.i64_const(ctx, w)), rt.as_i64(xv))  # broadcast to [R, PH, PW, S, S]
        lin = ge.where(inside, ge.add(base, lin), base)  # outside: any in-range row, weight 0
        return ge.gather(rows, lin, axis=0)  # [R, PH, PW, S, S, C]

    vals = [corner(ylo, xlo), corner(ylo, xhi), corner(yhi, xlo), corner(yhi, xhi)]
    terms = [ge.mul(ge.unsqueeze(wt, [5]), v) for wt, v in zip(weights, vals)]
    if mode == "max":
        point = ge.max(ge.max(terms[0], terms[1]), ge.max(terms[2], terms[3]))
        out = ge.reduce_max(point, axes=[3, 4], keepdims=False)
    else:
        point = ge.add(ge.add(ge.add(terms[0], terms[1]), terms[2]), terms[3])
        out = ge.div(ge.reduce_sum(point, axes=[3, 4], keepdims=False), f(float(s * s)))
    return ge.transpose(out, [0, 3, 1, 2])  # [R, C, PH, PW]


@converter("DeformConv", since=19, notes="2-D, static shapes; run-time offsets and mask: each tap's sample point "
           "bilinear with zeros outside (the reference's GridSample, align_corners), then one (grouped) matmul")
def deform_conv(ctx):
    """Per batch, input channel, kernel tap and output position the sample point
    ``-pad + stride * o + dilation * k + offset`` (the offsets of the channel's offset group),
    read bilinearly with zeros outside the map as the reference's GridSample does, times the mask;
    the sampled columns ``[N, C * kH * kW, oH * oW]`` then meet the weights in one matmul per group."""
    xs, ws, offs = ctx.shape(0), ctx.shape(1), ctx.shape(2)
    if any(d < 0 for d in xs + ws + offs) or len(xs) != 4:
        ctx.refuse(f"DeformConv needs static 2-D shapes, got X {ctx.input_type(0)}, W {ctx.input_type(1)}, "
                   f"offset {ctx.input_type(2)}")
    n, ic, ih, iw = xs
    oc, icpg, kh, kw = ws
    group, og = int(ctx.attr("group", 1)), int(ctx.attr("offset_group", 1))
    oh, ow = offs[2], offs[3]
    if ic != icpg * group or oc % group or ic % og or offs[:2] != [n, og * 2 * kh * kw]:
        ctx.invalid(f"inconsistent shapes: X {xs}, W {ws}, offset {offs}, group {group}, offset_group {og}")
    if list(ctx.attr("kernel_shape", [kh, kw])) != [kh, kw]:
        ctx.invalid(f"kernel_shape {ctx.attr('kernel_shape')} differs from W's {[kh, kw]}")
    sh, sw = ctx.attr("strides", [1, 1])
    dh, dw = ctx.attr("dilations", [1, 1])
    pads = list(ctx.attr("pads", [0, 0, 0, 0]))
    if oh != (ih + pads[0] + pads[2] - (kh - 1) * dh - 1) // sh + 1 or \
            ow != (iw + pads[1] + pads[3] - (kw - 1) * dw - 1) // sw + 1:
        ctx.invalid(f"offset's spatial shape {[oh, ow]} does not match the convolution's output")
    elem = ctx.elem(0)
    if not isinstance(elem, ir.F32Type):
        ctx.refuse(f"DeformConv on {elem} is not supported (f32)")

    def f(v):
        return rt.const(ctx, v, elem)

    off = ge.reshape(_tensor([n, og, kh, kw, 2, oh, ow], elem), ctx.input(2))
    # The tap grid without offsets: [kh, kw, oh, ow] rows and columns.
    base_y = (-pads[0] + sh * np.arange(oh)).reshape(1, 1, oh, 1) + (dh * np.arange(kh)).reshape(kh, 1, 1, 1)
    base_x = (-pads[1] + sw * np.arange(ow)).reshape(1, 1, 1, ow) + (dw * np.arange(kw)).reshape(1, kw, 1, 1)
    y = ge.add(ge.gather(off, rt.i64_const(ctx, 0), axis=4), f(base_y.astype(np.float32)))  # [n, og, kh, kw, oh, ow]
    x = ge.add(ge.gather(off, rt.i64_const(ctx, 1), axis=4), f(base_x.astype(np.float32)))
    # Each input channel reads its offset group's points.
    of_group = rt.i64_const(ctx, np.arange(ic, dtype=np.int64) // (ic // og))
    y, x = ge.gather(y, of_group, axis=1), ge.gather(x, of_group, axis=1)  # [n, ic, kh, kw, oh, ow]
    y0, x0 = ge.floor(y), ge.floor(x)
    wy1, wx1 = ge.sub(y, y0), ge.sub(x, x0)
    wy0, wx0 = ge.sub(f(1.0), wy1), ge.sub(f(1.0), wx1)
    flat_x = ge.reshape(_tensor([n * ic * ih * iw], elem), ctx.input(0))
    plane = rt.i64_const(ctx, (np.arange(n * ic, dtype=np.int64) * ih * iw).reshape(n, ic, 1, 1, 1, 1))
    zero = f(0.0)
    sampled = None
    for yy, wy in ((y0, wy0), (ge.add(y0, f(1.0)), wy1)):
        for xx, wx in ((x0, wx0), (ge.add(x0, f(1.0)), wx1)):
            inside = ge.and_(ge.and_(ge.greater_equal(yy, zero), ge.less_equal(yy, f(float(ih - 1)))),
                             ge.and_(ge.greater_equal(xx, zero), ge.less_equal(xx, f(float(iw - 1)))))
            yi = rt.as_i64(ge.clip(yy, min=ir.FloatAttr.get(ir.F64Type.get(), 0.0),
                                   max=ir.FloatAttr.get(ir.F64Type.get(), float(ih - 1))))
            xi = rt.as_i64(ge.clip(xx, min=ir.FloatAttr.get(ir.F64Type.get(), 0.0),
                                   max=ir.FloatAttr.get(ir.F64Type.get(), float(iw - 1))))
            lin = ge.add(plane, ge.add(ge.mul(yi, rt.i64_const(ctx, iw)), xi))
            term = ge.where(inside, ge.mul(ge.mul(wy, wx), ge.gather(flat_x, lin, axis=0)), zero)
            sampled = term if sampled is None else ge.add(sampled, term)
    if ctx.has_input(4):
        mask = ge.reshape(_tensor([n, og, kh, kw, oh, ow], elem), ctx.input(4))
        sampled = ge.mul(sampled, ge.gather(mask, of_group, axis=1))
    cols = ge.reshape(_tensor([n, group, icpg * kh * kw, oh * ow], elem), sampled)
    wts = ge.reshape(_tensor([1, group, oc // group, icpg * kh * kw], elem), ctx.input(1))
    out = ge.reshape(_tensor([n, oc, oh, ow], elem), ge.matmul(wts, cols))  # [n, group, oc/group, oh*ow]
    if ctx.has_input(3):
        out = ge.add(out, ge.reshape(_tensor([1, oc, 1, 1], elem), ctx.input(3)))
    return out
