"""GridSample and AffineGrid, the spatial-transformer pair: AffineGrid builds the
sampling grid that GridSample reads."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter
from ._shapes import _cast, _is_float, _reshape, _scalar, _tensor


def _gs_reflect(ctx, x: ir.Value, lo: float, hi: float, f32: ir.Type) -> ir.Value:
    """Reflects ``x`` by the near border until it lies in [lo, hi] (the ONNX reference's rule)."""
    c = lambda v: _scalar(v, f32, ctx)  # noqa: E731
    rng = hi - lo

    def fold(dx: ir.Value) -> tuple[ir.Value, ir.Value]:
        n = ge.floor(ge.div(dx, c(rng)))  # dx >= 0: floor is the truncation the reference does
        r = ge.sub(dx, ge.mul(n, c(rng)))
        even = ge.equal(ge.sub(n, ge.mul(ge.floor(ge.div(n, c(2.0))), c(2.0))), c(0.0))
        return r, even

    r_lo, even_lo = fold(ge.sub(c(lo), x))
    r_hi, even_hi = fold(ge.sub(x, c(hi)))
    below = ge.where(even_lo, ge.add(c(lo), r_lo), ge.sub(c(hi), r_lo))
    above = ge.where(even_hi, ge.sub(c(hi), r_hi), ge.add(c(lo), r_hi))
    return ge.where(ge.less(x, c(lo)), below, ge.where(ge.greater(x, c(hi)), above, x))


@converter("GridSample", since=16, notes="static shapes, 2-D and 3-D spatial; nearest/linear/cubic, "
           "zeros/border/reflection padding: tap indices and weights in f32, one gather_elements per tap")
def grid_sample(ctx):
    xs, gs = ctx.shape(0), ctx.shape(1)
    if any(d < 0 for d in xs + gs):
        ctx.refuse(f"GridSample needs static shapes, got {ctx.input_type(0)} and {ctx.input_type(1)}")
    dims = xs[2:]
    nd = len(dims)
    if nd not in (2, 3) or len(gs) != nd + 2 or gs[-1] != nd or gs[0] != xs[0]:
        ctx.refuse(f"GridSample of X {xs} with grid {gs} is not supported (2-D or 3-D spatial dims)")
    mode = ctx.attr("mode", "linear" if ctx.opset >= 20 else "bilinear")
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    pad_mode = ctx.attr("padding_mode", "zeros")
    align = bool(ctx.attr("align_corners", 0))
    if mode not in ("nearest", "linear", "cubic") or pad_mode not in ("zeros", "border", "reflection"):
        ctx.invalid(f"mode {mode!r} / padding_mode {pad_mode!r} is not supported")
    if mode == "cubic" and nd != 2:
        ctx.refuse("cubic GridSample is defined for 2-D spatial dims only")
    elem = ctx.elem(0)
    if not _is_float(elem):
        ctx.refuse(f"X must be a float tensor, got {ctx.input_type(0)}")
    f32 = ir.F32Type.get()
    c = lambda v: _scalar(v, f32, ctx)  # noqa: E731
    n_b, ch = xs[0], xs[1]
    out = gs[1:-1]
    p = int(np.prod(out))
    s = int(np.prod(dims))
    g = _reshape(_cast(ctx.input(1), f32), [n_b, p, nd])
    per_dim = []  # per spatial dim: [(index [N, P] i64, weight [N, P] f32 or None)]
    for i, d in enumerate(dims):
        comp = ge.gather(g, rt.i64_const(ctx, nd - 1 - i), axis=2)  # the grid lists x (last dim) first
        if align:
            x = ge.mul(ge.div(ge.add(comp, c(1.0)), c(2.0)), c(d - 1.0))
            lo, hi = 0.0, d - 1.0
        else:
            x = ge.div(ge.sub(ge.mul(ge.add(comp, c(1.0)), c(float(d))), c(1.0)), c(2.0))
            lo, hi = -0.5, d - 0.5
        if mode == "nearest":
            x = ge.round(x)  # half to even, as the reference's np.rint
        if pad_mode == "border":
            x = ge.where(ge.or_(ge.less(x, c(lo)), ge.greater(x, c(hi))), rt.clamp(ctx, x, c(0.0), c(d - 1.0)), x)
        elif pad_mode == "reflection":
            x = _gs_reflect(ctx, x, lo, hi, f32)
        if mode == "nearest":
            taps = [(x, None)]
        else:
            base = ge.floor(x)
            f = ge.sub(x, base)
            if mode == "linear":
                taps = [(base, ge.sub(c(1.0), f)), (ge.add(base, c(1.0)), f)]
            else:
                taps = [(ge.add(base, c(float(k))), w) for k, w in zip((-1, 0, 1, 2), rt.cubic_weights(ctx, f, -0.75))]
        mapped = []
        for pos, w in taps:
            if pad_mode == "reflection":
                pos = _gs_reflect(ctx, pos, lo, hi, f32)
            idx = ge.cast(ir.RankedTensorType.get([n_b, p], rt.i64()), pos)  # truncation, as int()
            if pad_mode == "zeros":
                inside = ge.and_(ge.greater_equal(idx, rt.i64_const(ctx, 0)), ge.less(idx, rt.i64_const(ctx, d)))
                keep = ge.where(inside, c(1.0), c(0.0))
                w = keep if w is None else ge.mul(w, keep)
            idx = rt.clamp(ctx, idx, 0, d - 1)
            mapped.append((idx, w))
        per_dim.append(mapped)
    x3 = _reshape(ctx.input(0), [n_b, ch, s])
    strides = [int(np.prod(dims[i + 1:])) for i in range(nd)]
    acc = None
    for combo in np.ndindex(*[len(m) for m in per_dim]):
        lin, w = None, None
        for i, t in enumerate(combo):
            idx, wt = per_dim[i][t]
            term = ge.mul(idx, rt.i64_const(ctx, strides[i])) if strides[i] != 1 else idx
            lin = term if lin is None else ge.add(lin, term)
            if wt is not None:
                w = wt if w is None else ge.mul(w, wt)
        gathered = ge.gather_elements(x3, ge.expand(_reshape(lin, [n_b, 1, p]), [n_b, ch, p]), axis=2)
        if w is not None:
            gathered = ge.mul(gathered, _cast(_reshape(w, [n_b, 1, p]), elem))
        acc = gathered if acc is None else ge.add(acc, gathered)
    return _reshape(acc, [n_b, ch, *out])


# --- AffineGrid ------------------------------------------------------------------------------------


@converter("AffineGrid", since=20, notes="2-D and 3-D; the size at import or run time (? dims): the base grid "
           "from index ranges in f64, one batched matmul with theta")
def affine_grid(ctx):
    ts = ctx.shape(0)
    if len(ts) != 3 or ts[1:] not in ([2, 3], [3, 4]) or ts[0] < 0:
        ctx.refuse(f"theta must be [N, 2, 3] or [N, 3, 4], got {ctx.input_type(0)}")
    nd = ts[1]
    if ctx.input_type(1).shape != [nd + 2]:
        ctx.invalid(f"size must have {nd + 2} values, got {ctx.input_type(1)}")
    elem = ctx.elem(0)
    f64 = ir.F64Type.get()
    align = bool(ctx.attr("align_corners", 0))
    size = rt.as_i64(ctx.input(1))
    dims = [rt.element(ctx, size, 2 + i) for i in range(nd)]  # (D,) H, W at run time
    total = dims[0]
    for d in dims[1:]:
        total = ge.mul(total, d)
    one64 = _scalar(1.0, f64, ctx)
    flat = ge.range(_tensor([rt.DYN], rt.i64()), rt.i64_const(ctx, 0), total, rt.i64_const(ctx, 1))
    coords = []  # per spatial dim, the normalized coordinate of every flat position
    stride = None
    for i in range(nd - 1, -1, -1):
        idx = flat if stride is None else ge.div(flat, stride)
        idx = ge.mod(idx, dims[i])
        stride = dims[i] if stride is None else ge.mul(stride, dims[i])
        n = rt.to_elem(dims[i], f64)
        k = rt.to_elem(idx, f64)
        if align:  # -1 + k * 2 / (n - 1); a single position sits at -1 (the reference's arange)
            step = ge.div(_scalar(2.0, f64, ctx), ge.max(ge.sub(n, one64), one64))
            c = ge.add(_scalar(-1.0, f64, ctx), ge.mul(k, step))
        else:  # -1 + step / 2 + k * step, step = 2 / n
            step = ge.div(_scalar(2.0, f64, ctx), n)
            c = ge.add(ge.add(_scalar(-1.0, f64, ctx), ge.div(step, _scalar(2.0, f64, ctx))), ge.mul(k, step))
        coords.append(ge.unsqueeze(c, [0]))  # x (the last dim) first, as the grid lists it
    ones = ge.fill(_tensor([1, rt.DYN], f64), one64, ge.concat([rt.i64_const(ctx, [1]), ge.unsqueeze(total, [0])], 0))
    base = ge.concat(coords + [ones], 0)  # [nd + 1, P]
    grid = ge.matmul(_cast(ctx.input(0), f64), base)  # [N, nd, P]
    grid = _cast(ge.transpose(grid, [0, 2, 1]), elem)  # [N, P, nd]
    shape = ge.concat([rt.i64_const(ctx, [ts[0]]), ge.gather(size, rt.i64_const(ctx, np.arange(2, 2 + nd)), axis=0),
                       rt.i64_const(ctx, [nd])], 0)
    return ge.dynamic_reshape(_tensor([ts[0]] + [rt.DYN] * nd + [nd], elem), grid, shape)
