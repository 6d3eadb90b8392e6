"""Run-time parameters: ONNX inputs that choose axes or sizes (Reduce* axes, Squeeze/Unsqueeze
axes, CumSum's axis, Trilu's k, ...) given as graph inputs or computed in the graph.

The model is compiled once, as ``ge_mlir.compile`` users do, so such a value is not known at import.
The converters then build the computation from ge ops that take the value as a tensor: shape
arithmetic on ``ge.shape``, index ranges from ``ge.range``, selections with ``ge.gather`` and
``ge.where``, and the final shape through ``ge.dynamic_reshape``. Only the value's *shape* must be
static (the number of axes fixes the result's rank); the results have ``?`` dims where the value
decides the size. A wrong value (an axis out of range, a squeezed dim that is not 1) makes a
run-time shape check fail the call with ``ExecutionError``, as onnxruntime fails the run.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from ..registry import numpy_dtype

DYN = ir.ShapedType.get_dynamic_size()


def i64() -> ir.Type:
    return ir.IntegerType.get_signless(64)


def i64_const(ctx, value) -> ir.Value:
    return ctx.constant(np.asarray(value, dtype=np.int64))


def as_i64(v: ir.Value) -> ir.Value:
    t = ir.RankedTensorType(v.type)
    if t.element_type == i64():
        return v
    return ge.cast(ir.RankedTensorType.get(list(t.shape), i64()), v)


def static_count(ctx, i: int, what: str) -> int:
    """The number of values in input ``i`` (a run-time axes list): its shape must be static."""
    t = ctx.input_type(i)
    if t.rank > 1 or (t.rank == 1 and t.is_dynamic_dim(0)):
        ctx.refuse(f"{what} given at run time needs a static number of values (a rank-1 tensor "
                   f"of known length), got {t}")
    return 1 if t.rank == 0 else t.get_dim_size(0)


def element(ctx, v: ir.Value, i: int) -> ir.Value:
    """``v[i]`` of a rank-1 tensor, as a rank-0 tensor."""
    return ge.gather(v, i64_const(ctx, i), axis=0)


def scalar(ctx, v: ir.Value) -> ir.Value:
    """A one-value tensor (rank 0 or 1) as a rank-0 i64 tensor."""
    t = ir.RankedTensorType(v.type)
    return as_i64(v) if t.rank == 0 else element(ctx, as_i64(v), 0)


def dim(ctx, x: ir.Value, d: int) -> ir.Value:
    """The run-time size of dim ``d`` of ``x`` (rank-0 i64)."""
    return element(ctx, ge.shape(x), d)


def normalized(ctx, axes: ir.Value, rank: int) -> ir.Value:
    """Axes with negative values counted from the end (``rank`` added). An axis outside
    [-rank, rank) fails the call: the result is read from ``arange(rank)`` by a bounds-checked
    ``ge.gather`` at an index made out of range."""
    a = as_i64(axes)
    zero = i64_const(ctx, 0)
    n = ge.where(ge.less(a, zero), ge.add(a, i64_const(ctx, rank)), a)
    n = ge.where(ge.less(n, zero), i64_const(ctx, rank), n)
    return ge.gather(i64_const(ctx, np.arange(rank)), n, axis=0)


def checked(ctx, value: ir.Value, ok: ir.Value) -> ir.Value:
    """``value`` (rank-0 i64) when the run-time condition ``ok`` (rank-0 i1) holds; otherwise the
    call fails (``ExecutionError`` naming the node): ``value`` is read back through a
    bounds-checked ``ge.gather`` whose index is made out of range."""
    bad = ge.cast(ir.RankedTensorType.get([], i64()), ge.not_(ok))
    return ge.gather(ge.reshape(ir.RankedTensorType.get([1], i64()), value), bad, axis=0)


def nonzero_flags(ctx, v: ir.Value) -> ir.Value:
    """``v != 0`` (``v`` itself when it is already i1)."""
    t = ir.RankedTensorType(v.type)
    if str(t.element_type) == "i1":
        return v
    return ge.not_(ge.equal(v, ctx.constant(np.zeros((), dtype=numpy_dtype(t.element_type)), t.element_type)))


def axis_flags(ctx, axes: ir.Value, rank: int) -> ir.Value:
    """``flags[d]`` (tensor<rank x i1>): whether ``d`` is one of ``axes`` (negative ones count
    from the end)."""
    n = int(np.prod(ir.RankedTensorType(axes.type).shape))
    col = ge.reshape(ir.RankedTensorType.get([n, 1], i64()), normalized(ctx, axes, rank))
    hits = ge.equal(col, i64_const(ctx, np.arange(rank).reshape(1, rank)))
    count = ge.reduce_sum(as_i64(hits), axes=[0], keepdims=False)
    return ge.greater(count, i64_const(ctx, 0))


def flag(ctx, flags: ir.Value, d: int) -> ir.Value:
    return element(ctx, flags, d)


def take(ctx, x: ir.Value, axis: int, start: ir.Value, limit: ir.Value) -> ir.Value:
    """``x[start:limit]`` along ``axis`` (rank-0 i64 bounds, computed at run time)."""
    idx = ge.range(ir.RankedTensorType.get([DYN], i64()), start, limit, i64_const(ctx, 1))
    return ge.gather(x, idx, axis=axis)


def choose_along(ctx, x: ir.Value, axis: int, flag_value: ir.Value, reduced: ir.Value) -> ir.Value:
    """``reduced`` (``x`` reduced along ``axis``, kept as a size-1 dim) where the run-time flag is
    set, else ``x``: both are concatenated along ``axis`` and the wanted part taken, which also
    holds when ``x`` has no elements along ``axis`` (a broadcast would then give 0, not 1)."""
    both = ge.concat([reduced, x], axis)
    one = i64_const(ctx, 1)
    start = ge.where(flag_value, i64_const(ctx, 0), one)
    limit = ge.where(flag_value, one, ge.add(one, dim(ctx, x, axis)))
    return take(ctx, both, axis, start, limit)


def positions(ctx, keep: ir.Value) -> ir.Value:
    """For each kept entry of a rank-1 i1 mask, its index among the kept ones (i64)."""
    return ge.sub(ge.cumsum(as_i64(keep), 0), i64_const(ctx, 1))


def drop_dims(ctx, y: ir.Value, flags: ir.Value, out_rank: int) -> ir.Value:
    """``y`` without the dims whose flag is set (they must have size 1: the element count is
    checked at run time by ``ge.dynamic_reshape``)."""
    t = ir.RankedTensorType(y.type)
    rank = t.rank
    out_type = ir.RankedTensorType.get([DYN] * out_rank, t.element_type)
    if out_rank == 0:
        return ge.dynamic_reshape(out_type, y, i64_const(ctx, np.zeros((0,), np.int64)), allowzero=True)
    keep = ge.not_(flags)
    # out[j] = sizes[k] for the k-th kept dim whose position is j: a [out_rank, rank] selection.
    pos = ge.reshape(ir.RankedTensorType.get([1, rank], i64()), positions(ctx, keep))
    sel = ge.and_(ge.equal(pos, i64_const(ctx, np.arange(out_rank).reshape(out_rank, 1))),
                  ge.reshape(ir.RankedTensorType.get([1, rank], ir.IntegerType.get_signless(1)), keep))
    sizes = ge.reshape(ir.RankedTensorType.get([1, rank], i64()), ge.shape(y))
    shape = ge.reduce_sum(ge.where(sel, sizes, i64_const(ctx, 0)), axes=[1], keepdims=False)
    return ge.dynamic_reshape(out_type, y, shape, allowzero=True)


def insert_unit_dims(ctx, x: ir.Value, flags: ir.Value, out_rank: int) -> ir.Value:
    """``x`` with size-1 dims where ``flags`` (over the ``out_rank`` result dims) is set."""
    t = ir.RankedTensorType(x.type)
    out_type = ir.RankedTensorType.get([DYN] * out_rank, t.element_type)
    if t.rank == 0:
        return ge.reshape(ir.RankedTensorType.get([1] * out_rank, t.element_type), x)
    pos = positions(ctx, ge.not_(flags))
    pos = clamp(ctx, pos, 0, t.rank - 1)
    sizes = ge.gather(ge.shape(x), pos, axis=0)
    shape = ge.where(flags, i64_const(ctx, 1), sizes)
    return ge.dynamic_reshape(out_type, x, shape, allowzero=True)


def clamp(ctx, v: ir.Value, lo, hi) -> ir.Value:
    """``min(max(v, lo), hi)`` with int bounds made i64 constants."""
    lo = lo if isinstance(lo, ir.Value) else i64_const(ctx, lo)
    hi = hi if isinstance(hi, ir.Value) else i64_const(ctx, hi)
    return ge.min(ge.max(v, lo), hi)


def slice_indices(ctx, start: ir.Value, end: ir.Value, step: ir.Value, size: ir.Value) -> ir.Value:
    """The indices ONNX Slice takes along one axis of run-time ``size`` (rank-0 i64 values):
    negative bounds count from the end, then clamp to [0, size] for a positive step and to
    [-1, size - 1] for a negative one; ``ceil(span / |step|)`` of them, from the start."""
    zero, one = i64_const(ctx, 0), i64_const(ctx, 1)
    start = ge.where(ge.less(start, zero), ge.add(start, size), start)
    end = ge.where(ge.less(end, zero), ge.add(end, size), end)
    forward = ge.greater(step, zero)
    last = ge.sub(size, one)
    s = ge.where(forward, clamp(ctx, start, 0, size), clamp(ctx, start, 0, last))
    e = ge.where(forward, clamp(ctx, end, 0, size), clamp(ctx, end, -1, last))
    span = ge.where(forward, ge.sub(e, s), ge.sub(s, e))
    stride = ge.abs(step)
    count = ge.max(ge.div(ge.add(span, ge.sub(stride, one)), stride), zero)
    steps = ge.range(ir.RankedTensorType.get([DYN], i64()), zero, count, one)
    return ge.add(s, ge.mul(steps, step))


def _pick(ctx, hit: ir.Value, values: ir.Value, default: int) -> ir.Value:
    """The value at the (single) position where ``hit`` is set, else ``default`` (rank-0 i64)."""
    zero = i64_const(ctx, 0)
    has = ge.greater(ge.reduce_sum(as_i64(hit), axes=[0], keepdims=False), zero)
    chosen = ge.reduce_sum(ge.where(hit, values, zero), axes=[0], keepdims=False)
    return ge.where(has, chosen, i64_const(ctx, default))


def slice_(ctx, x: ir.Value, starts: ir.Value, ends: ir.Value, axes: list[int] | ir.Value | None,
           steps: ir.Value | None) -> ir.Value:
    """ONNX Slice with run-time starts/ends (and axes/steps): a ``ge.gather`` of the computed
    indices along each sliced axis. A run-time ``axes`` input slices every axis (an axis it does
    not name takes the whole range)."""
    rank = ir.RankedTensorType(x.type).rank
    n = int(np.prod(ir.RankedTensorType(starts.type).shape))
    starts, ends = as_i64(starts), as_i64(ends)
    steps = i64_const(ctx, np.ones(n, np.int64)) if steps is None else as_i64(steps)
    y = x
    if not isinstance(axes, ir.Value):
        named = list(range(n)) if axes is None else [a + rank if a < 0 else a for a in axes]
        for j, d in enumerate(named):
            idx = slice_indices(ctx, element(ctx, starts, j), element(ctx, ends, j), element(ctx, steps, j),
                                dim(ctx, y, d))
            y = ge.gather(y, idx, axis=d)
        return y
    norm = normalized(ctx, axes, rank)
    for d in range(rank):
        hit = ge.equal(norm, i64_const(ctx, d))
        idx = slice_indices(ctx, _pick(ctx, hit, starts, 0), _pick(ctx, hit, ends, 2**63 - 1),
                            _pick(ctx, hit, steps, 1), dim(ctx, y, d))
        y = ge.gather(y, idx, axis=d)
    return y


def pad_(ctx, x: ir.Value, pads: ir.Value, value: ir.Value | None, axes: list[int] | ir.Value | None,
         mode: str) -> ir.Value:
    """ONNX Pad with run-time pads (or constant value, or axes): per padded axis, the source index
    of every result position ``j`` in ``[-begin, size + end)`` is gathered -- clamped (edge),
    modulo the size (wrap) or mirrored (reflect) -- and for ``constant`` the positions outside the
    input take the value. Negative pads crop."""
    rank = ir.RankedTensorType(x.type).rank
    k = int(np.prod(ir.RankedTensorType(pads.type).shape)) // 2
    pads = as_i64(pads)
    if isinstance(axes, ir.Value):
        norm = normalized(ctx, axes, rank)
        begin_of = ge.gather(pads, i64_const(ctx, np.arange(k)), axis=0)
        end_of = ge.gather(pads, i64_const(ctx, np.arange(k, 2 * k)), axis=0)
        per_dim = []
        for d in range(rank):
            hit = ge.equal(norm, i64_const(ctx, d))
            per_dim.append((d, _pick(ctx, hit, begin_of, 0), _pick(ctx, hit, end_of, 0)))
    else:
        named = list(range(rank)) if axes is None else [a + rank if a < 0 else a for a in axes]
        per_dim = [(d, element(ctx, pads, j), element(ctx, pads, j + k)) for j, d in enumerate(named)]
    return pad_dims(ctx, x, per_dim, value, mode)


def pad_dims(ctx, x: ir.Value, per_dim: list, value: ir.Value | None, mode: str) -> ir.Value:
    """``x`` padded (cropped where negative) along each ``(dim, begin, end)`` of ``per_dim``
    (rank-0 i64 values); see :func:`pad_`."""
    rank = ir.RankedTensorType(x.type).rank
    elem = ir.RankedTensorType(x.type).element_type
    zero, one = i64_const(ctx, 0), i64_const(ctx, 1)
    if mode == "constant":
        if value is None:
            fill = ctx.constant(np.zeros((), dtype=numpy_dtype(elem)), elem)
        else:
            fill = value
            vt = ir.RankedTensorType(value.type)
            if vt.rank:
                fill = ge.reshape(ir.RankedTensorType.get([], vt.element_type), fill)
            if vt.element_type != elem:
                fill = ge.cast(ir.RankedTensorType.get([], elem), fill)
    y = x
    for d, begin, end in per_dim:
        if mode == "wrap":
            # Negative pads crop first and the rest wraps around what is left (the ONNX reference
            # slices, then pads); for the other modes cropping one side does not change the other.
            y = take(ctx, y, d, ge.max(ge.neg(begin), zero), ge.add(dim(ctx, y, d), ge.min(end, zero)))
            begin, end = ge.max(begin, zero), ge.max(end, zero)
        size = dim(ctx, y, d)
        j = ge.range(ir.RankedTensorType.get([DYN], i64()), ge.neg(begin), ge.add(size, end), one)
        last = ge.sub(size, one)
        if mode in ("constant", "edge"):
            idx = clamp(ctx, j, zero, last)
        elif mode == "wrap":
            idx = ge.mod(j, size)
        else:  # reflect: period 2 (size - 1), mirrored in its second half
            period = ge.add(last, last)
            m = ge.mod(j, period)
            idx = ge.where(ge.less(m, size), m, ge.sub(period, m))
        g = ge.gather(y, idx, axis=d)
        if mode == "constant":
            inside = ge.and_(ge.greater_equal(j, zero), ge.less(j, size))
            others = [o for o in range(rank) if o != d]
            g = ge.where(ge.unsqueeze(inside, others) if others else inside, g, fill)
        y = g
    return y


def center_crop_pad(ctx, x: ir.Value, target: ir.Value, axes: list[int]) -> ir.Value:
    """ONNX CenterCropPad with the target sizes given at run time: along each axis the window
    ``[offset, offset + t)`` of the input, ``offset = (n - t) // 2`` when cropping and
    ``-((t - n) // 2)`` when padding (zeros), as :func:`pad_dims` with ``begin = -offset``."""
    target = as_i64(target)
    two = i64_const(ctx, 2)
    per_dim = []
    for j, d in enumerate(axes):
        t, n = element(ctx, target, j), dim(ctx, x, d)
        offset = ge.where(ge.less_equal(t, n), ge.div(ge.sub(n, t), two), ge.neg(ge.div(ge.sub(t, n), two)))
        per_dim.append((d, ge.neg(offset), ge.sub(ge.add(t, offset), n)))
    return pad_dims(ctx, x, per_dim, None, "constant")


def const(ctx, value, elem: ir.Type) -> ir.Value:
    """A constant (any shape) of ``elem``."""
    return ctx.constant(np.asarray(value, dtype=numpy_dtype(elem)), elem)


def to_elem(v: ir.Value, elem: ir.Type) -> ir.Value:
    """``v`` converted to element type ``elem`` (itself when it has it)."""
    t = ir.RankedTensorType(v.type)
    return v if t.element_type == elem else ge.cast(ir.RankedTensorType.get(list(t.shape), elem), v)


def cubic_weights(ctx, frac: ir.Value, a: float) -> list[ir.Value]:
    """Keys' cubic convolution weights of the taps at floor(x) - 1 .. floor(x) + 2 for the
    fractional part ``frac`` of x (its element type), with coefficient ``a`` (-0.75 in GridSample,
    ``cubic_coeff_a`` in Resize)."""
    elem = ir.RankedTensorType(frac.type).element_type
    c = lambda v: const(ctx, v, elem)  # noqa: E731

    def far(t: ir.Value) -> ir.Value:  # distance in [1, 2]: ((a t - 5a) t + 8a) t - 4a
        return ge.sub(ge.mul(ge.add(ge.mul(ge.sub(ge.mul(c(a), t), c(5 * a)), t), c(8 * a)), t), c(4 * a))

    def near(t: ir.Value) -> ir.Value:  # distance in [0, 1]: ((a + 2) t - (a + 3)) t^2 + 1
        return ge.add(ge.mul(ge.mul(ge.sub(ge.mul(c(a + 2), t), c(a + 3)), t), t), c(1.0))

    rest = ge.sub(c(1.0), frac)
    return [far(ge.add(frac, c(1.0))), near(frac), near(rest), far(ge.add(rest, c(1.0)))]


#: The coordinate transformations Resize with run-time scales/sizes implements.
RESIZE_COORDS = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "half_pixel_symmetric")


def resize_(ctx, x: ir.Value, axes: list[int], scales: ir.Value | None, sizes: ir.Value | None, *, mode: str,
            coord: str, nearest: str, cubic_a: float, policy: str, legacy: bool) -> ir.Value:
    """ONNX Resize with scales or sizes given at run time, one axis at a time (nearest, linear and
    cubic interpolation are separable): the source coordinate of every output position by the
    coordinate transformation (in f32, as onnxruntime), then a ``ge.gather`` of the rounded index
    (nearest) or of the 2 / 4 clamped neighbours weighted along the axis (linear / cubic; clamping
    is the edge padding of the ONNX reference). Output sizes are ``floor(size * scale)`` in f64
    (sizes: as given, or scaled by the common ratio of ``keep_aspect_ratio_policy``)."""
    elem = ir.RankedTensorType(x.type).element_type
    f32, f64 = ir.F32Type.get(), ir.F64Type.get()
    rank = ir.RankedTensorType(x.type).rank
    zero, one = i64_const(ctx, 0), i64_const(ctx, 1)
    n_of = {d: dim(ctx, x, d) for d in axes}
    outs, scale_of = {}, {}
    if sizes is not None:
        sizes = as_i64(sizes)
        ratios = {d: ge.div(to_elem(element(ctx, sizes, j), f64), to_elem(n_of[d], f64)) for j, d in enumerate(axes)}
        if policy == "stretch":
            for j, d in enumerate(axes):
                outs[d] = element(ctx, sizes, j)
                scale_of[d] = to_elem(ratios[d], f32)
        else:
            common = None
            for d in axes:
                r = ratios[d]
                common = r if common is None else (ge.min(common, r) if policy == "not_larger" else ge.max(common, r))
            for d in axes:
                outs[d] = to_elem(ge.floor(ge.add(ge.mul(common, to_elem(n_of[d], f64)), const(ctx, 0.5, f64))), i64())
                scale_of[d] = to_elem(common, f32)
    else:
        for j, d in enumerate(axes):
            s = element(ctx, scales, j)
            scale_of[d] = to_elem(s, f32)
            outs[d] = to_elem(ge.floor(ge.mul(to_elem(n_of[d], f64), to_elem(s, f64))), i64())
    y = x
    half, onef = const(ctx, 0.5, f32), const(ctx, 1.0, f32)
    for d in axes:
        n, out, s = n_of[d], outs[d], scale_of[d]
        nf, outf = to_elem(n, f32), to_elem(out, f32)
        i = to_elem(ge.range(ir.RankedTensorType.get([DYN], i64()), zero, out, one), f32)
        centred = ge.sub(ge.div(ge.add(i, half), s), half)
        # The ONNX reference's "resized length" in align_corners / pytorch_half_pixel is
        # scale * size, before the floor that gives the output size.
        resized = ge.mul(s, nf)
        if legacy or coord == "asymmetric":
            src = ge.div(i, s)
        elif coord == "half_pixel":
            src = centred
        elif coord == "pytorch_half_pixel":
            src = ge.where(ge.greater(resized, onef), centred, const(ctx, 0.0, f32))
        elif coord == "align_corners":
            ratio = ge.div(ge.sub(nf, onef), ge.sub(resized, onef))
            src = ge.where(ge.equal(resized, onef), const(ctx, 0.0, f32), ge.mul(i, ratio))
        else:  # half_pixel_symmetric (the caller admits RESIZE_COORDS only)
            adj = ge.div(outf, ge.mul(s, nf))
            offset = ge.mul(ge.div(nf, const(ctx, 2.0, f32)), ge.sub(onef, adj))
            src = ge.add(offset, centred)
        last = ge.sub(n, one)
        others = [o for o in range(rank) if o != d]

        def along(v: ir.Value) -> ir.Value:  # a per-position weight, broadcast over the other axes
            v = to_elem(v, elem)
            return ge.unsqueeze(v, others) if others else v

        def tap(k: ir.Value) -> ir.Value:
            return ge.gather(y, clamp(ctx, k, zero, last), axis=d)

        if mode == "nearest":
            if legacy:
                r = ge.where(ge.less(s, onef), ge.ceil(src), ge.floor(src))
            elif nearest == "round_prefer_floor":
                r = ge.ceil(ge.sub(src, half))
            elif nearest == "round_prefer_ceil":
                r = ge.floor(ge.add(src, half))
            elif nearest == "floor":
                r = ge.floor(src)
            else:
                r = ge.ceil(src)
            y = tap(to_elem(r, i64()))
            continue
        x0 = ge.floor(src)
        frac = ge.sub(src, x0)
        k0 = to_elem(x0, i64())
        if mode == "linear":
            y = ge.add(ge.mul(tap(k0), along(ge.sub(onef, frac))), ge.mul(tap(ge.add(k0, one)), along(frac)))
            continue
        acc = None
        for off, w in zip((-1, 0, 1, 2), cubic_weights(ctx, frac, cubic_a)):
            term = ge.mul(tap(ge.add(k0, i64_const(ctx, off))), along(w))
            acc = term if acc is None else ge.add(acc, term)
        y = acc
    return y


def tile(ctx, x: ir.Value, repeats: ir.Value) -> ir.Value:
    """ONNX Tile with run-time repeats: along each axis, a gather of ``range(size * r) mod size``."""
    repeats = as_i64(repeats)
    zero, one = i64_const(ctx, 0), i64_const(ctx, 1)
    y = x
    for d in range(ir.RankedTensorType(x.type).rank):
        n = dim(ctx, y, d)
        # mod by max(n, 1): an empty axis stays empty (its range is empty) without a division by 0.
        j = ge.range(ir.RankedTensorType.get([DYN], i64()), zero, ge.mul(n, element(ctx, repeats, d)), one)
        y = ge.gather(y, ge.mod(j, ge.max(n, one)), axis=d)
    return y


def expand(ctx, x: ir.Value, shape: ir.Value) -> ir.Value:
    """ONNX Expand with a run-time shape (numpy broadcasting both ways): ``x`` gets leading 1 dims
    up to the result rank, then along each axis the result size is the shape's value unless that
    is 1 (then ``x``'s), and a gather repeats index 0 where ``x`` has size 1. A size of ``x`` that is
    neither 1 nor the result's makes the index run past the axis: the bounds check fails the call."""
    t = ir.RankedTensorType(x.type)
    k = int(np.prod(ir.RankedTensorType(shape.type).shape))
    rank = max(t.rank, k)
    y = x
    if t.rank < rank:
        lead = [True] * (rank - t.rank) + [False] * t.rank
        if t.has_static_shape:
            y = ge.reshape(ir.RankedTensorType.get([1] * (rank - t.rank) + list(t.shape), t.element_type), x)
        else:
            y = insert_unit_dims(ctx, x, ctx.constant(np.array(lead, dtype=np.bool_)), rank)
    shape = as_i64(shape)
    zero, one = i64_const(ctx, 0), i64_const(ctx, 1)
    for d in range(rank - k, rank):  # the dims before are not named by the shape: kept
        n = dim(ctx, y, d)
        s = element(ctx, shape, d - (rank - k))
        out = ge.where(ge.equal(s, one), n, s)
        j = ge.range(ir.RankedTensorType.get([DYN], i64()), zero, out, one)
        y = ge.gather(y, ge.where(ge.equal(n, one), ge.mul(j, zero), j), axis=d)
    return y
