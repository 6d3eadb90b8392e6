"""DFT: matmuls with cos/sin matrices (in f64, as the reference's np.fft)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter
from ._shapes import _cast, _is_float, _norm_axis, _reshape, _scalar, _shape_of


def _dft_along(ctx, x: ir.Value, axis: int, length: int | None, inverse: bool, onesided: bool) -> ir.Value:
    """The DFT of ``x`` [..., 1 | 2] along ``axis`` as matmuls with cos/sin matrices (in f64, as the
    reference's np.fft), for a static signal length; the input is truncated or zero padded to the
    transform length by the matrices' rows."""
    shape = _shape_of(x)
    rank = len(shape)
    elem = x.type.element_type
    f64 = ir.F64Type.get()
    n = shape[axis]
    if inverse and onesided:
        length = length or 2 * (n - 1)
        rows, cols = length // 2 + 1, length
    else:
        length = length or n
        rows, cols = length, (length // 2 + 1 if onesided and not inverse else length)
    if length <= 0:
        ctx.invalid(f"dft_length {length} must be positive")
    j = np.arange(n).reshape(n, 1)
    k = np.arange(cols).reshape(1, cols)
    theta = 2 * np.pi * ((j * k) % length) / length
    live = (j < rows).astype(np.float64)
    cos, sin = np.cos(theta) * live, np.sin(theta) * live
    # cos(pi/2) and sin(pi) are 0, not 6e-17: the zeros of the twiddles exact, as an FFT's are.
    cos[np.abs(cos) < 1e-15], sin[np.abs(sin) < 1e-15] = 0.0, 0.0
    if inverse and onesided:
        w = np.where((j == 0) | ((length % 2 == 0) & (j == length // 2)), 1.0, 2.0)
        cos, sin = cos * w, sin * w
    if inverse:
        cos, sin = cos / length, sin / length
    mc, ms = ctx.constant(cos, f64), ctx.constant(sin, f64)
    sig = [d for d in range(rank - 1) if d != axis] + [axis]
    back = list(np.argsort(sig))

    def part(i: int) -> ir.Value:
        v = _reshape(ge.gather(x, rt.i64_const(ctx, i), axis=rank - 1), shape[:-1])
        return ge.transpose(_cast(v, f64), sig) if sig != list(range(rank - 1)) else _cast(v, f64)

    xr = part(0)
    xi = part(1) if shape[-1] == 2 else None
    if not inverse:  # (xr + i xi)(cos - i sin)
        re = ge.matmul(xr, mc) if xi is None else ge.add(ge.matmul(xr, mc), ge.matmul(xi, ms))
        im = ge.neg(ge.matmul(xr, ms)) if xi is None else ge.sub(ge.matmul(xi, mc), ge.matmul(xr, ms))
    else:  # (xr + i xi)(cos + i sin) / L
        re = ge.matmul(xr, mc) if xi is None else ge.sub(ge.matmul(xr, mc), ge.matmul(xi, ms))
        im = ge.matmul(xr, ms) if xi is None else ge.add(ge.matmul(xi, mc), ge.matmul(xr, ms))

    def finish(v: ir.Value) -> ir.Value:
        v = ge.transpose(v, back) if back != list(range(rank - 1)) else v
        return ge.unsqueeze(_cast(v, elem), [rank - 1])

    if inverse and onesided:
        return finish(re)  # a real signal: [..., 1]
    return ge.concat([finish(re), finish(im)], rank - 1)


@converter("DFT", since=17, notes="static shapes and dft_length; cos/sin matmuls in f64 (forward, inverse, "
           "onesided, irfft); a run-time axis selects among the axes whose results fit the declared type")
def dft(ctx):
    shape = ctx.shape(0)
    rank = len(shape)
    if rank < 2 or any(d < 0 for d in shape) or shape[-1] not in (1, 2):
        ctx.refuse(f"DFT needs a static input [..., 1 or 2], got {ctx.input_type(0)}")
    elem = ctx.elem(0)
    if not _is_float(elem):
        ctx.refuse(f"DFT of {elem} is not supported")
    length = None
    if ctx.has_input(1):
        c = ctx.const(1)
        if c is None:
            ctx.refuse("dft_length given at run time is not supported (it sets the output size)")
        length = int(np.asarray(c).reshape(-1)[0])
    inverse, onesided = bool(ctx.attr("inverse", 0)), bool(ctx.attr("onesided", 0))
    if ctx.opset < 20:
        axes = [_norm_axis(ctx, int(ctx.attr("axis", 1)), rank)]
        run_axis = None
    else:
        c = ctx.const(2) if ctx.has_input(2) else np.array(-2)
        run_axis = None if c is not None else ctx.input(2)
        axes = [_norm_axis(ctx, int(np.asarray(c).reshape(-1)[0]), rank)] if c is not None else list(range(rank - 1))
    if any(a == rank - 1 for a in axes):
        ctx.invalid("the DFT axis cannot be the last (real/imaginary) dim")
    if run_axis is not None:  # candidates only where the transform is defined (irfft of 1 sample is not)
        axes = [a for a in axes if (length or (2 * (shape[a] - 1) if inverse and onesided else shape[a])) > 0]
    results = {a: _dft_along(ctx, ctx.input(0), a, length, inverse, onesided) for a in axes}
    if run_axis is None:
        return results[axes[0]]
    # A run-time axis: the candidates whose result has the declared output type (or all, when they
    # agree); an axis outside them fails the call (a bounds-checked lookup of its candidate number).
    out_t = ctx.out_type(0)
    shapes = {a: _shape_of(v) for a, v in results.items()}
    keep = [a for a in axes if out_t is not None and out_t.has_static_shape and shapes[a] == list(out_t.shape)]
    if not keep:
        if len({tuple(s) for s in shapes.values()}) != 1:
            ctx.refuse("the DFT axis is given at run time and the axes give results of different shapes")
        keep = axes
    table = np.full(rank, len(keep), np.int64)
    for i, a in enumerate(keep):
        table[a] = i
    pick = ge.gather(rt.i64_const(ctx, table), rt.normalized(ctx, rt.scalar(ctx, run_axis), rank), axis=0)
    pick = rt.checked(ctx, pick, ge.less(pick, rt.i64_const(ctx, len(keep))))  # an axis with no candidate
    y = results[keep[-1]]
    if len(keep) == 1:  # still read the lookup, so that another axis fails the call
        return ge.where(ge.equal(pick, rt.i64_const(ctx, 0)), y, _scalar(0.0, elem, ctx))
    for i in range(len(keep) - 2, -1, -1):
        y = ge.where(ge.equal(pick, rt.i64_const(ctx, i)), results[keep[i]], y)
    return y
