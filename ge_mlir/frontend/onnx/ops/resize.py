"""Resize and Upsample: constant scales/sizes become one ``ge.resize`` (the
output shape in its type); run-time ones go through ``_runtime.resize_``."""

from __future__ import annotations

import math

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter
from ._shapes import _f32, _norm_axis, _tensor


_COORD = {m.name for m in ge.CoordinateTransform}
_NEAREST = {m.name for m in ge.NearestMode}


def _resize(ctx, mode: str, scales=None, sizes=None, axes=None, *, coord="half_pixel",
            nearest="round_prefer_floor", cubic_a=-0.75, antialias=0, exclude_outside=0,
            policy="stretch", legacy=False):
    x = ctx.input(0)
    in_shape = ctx.shape(0)
    rank = len(in_shape)
    if mode == "bilinear":
        mode = "linear"
    if mode not in (("nearest", "linear") if legacy else ("nearest", "linear", "cubic")):
        ctx.refuse(f"mode {mode!r} is not supported")
    if coord == "tf_crop_and_resize":
        ctx.refuse("coordinate_transformation_mode=tf_crop_and_resize needs the roi input and "
                   "extrapolation_value, which ge.resize does not carry")
    if coord not in _COORD:
        ctx.refuse(f"coordinate_transformation_mode {coord!r} has no ge equivalent")
    if mode == "nearest" and nearest not in _NEAREST:
        ctx.refuse(f"nearest_mode {nearest!r} is not supported")
    if mode == "cubic" and exclude_outside:
        ctx.refuse("exclude_outside=1 (renormalized cubic weights at the border) has no ge equivalent")
    if axes is None:
        axes = list(range(rank))
    else:
        axes = [_norm_axis(ctx, int(a), rank, "axes value") for a in axes]
        if len(set(axes)) != len(axes):
            ctx.invalid(f"axes {axes} repeats an axis")
    full_scales = None
    if sizes is not None:
        sizes = [int(s) for s in np.asarray(sizes).reshape(-1)]
        if len(sizes) != len(axes):
            ctx.invalid(f"sizes {sizes} must have {len(axes)} values")
        out = list(in_shape)
        for a, s in zip(axes, sizes):
            out[a] = s
        if policy != "stretch":
            if any(in_shape[a] < 0 for a in axes):
                ctx.refuse(f"keep_aspect_ratio_policy={policy} needs static input dims, got {in_shape}")
            ratios = [s / in_shape[a] for a, s in zip(axes, sizes)]
            if policy == "not_larger":
                scale = min(ratios)
            elif policy == "not_smaller":
                scale = max(ratios)
            else:
                ctx.refuse(f"unknown keep_aspect_ratio_policy {policy!r}")
            for a in axes:
                out[a] = int(scale * in_shape[a] + 0.5)
            # ge.resize's scales must satisfy out = floor(in * scale); refuse
            # when the rounded sizes do not (the common scale cannot be carried).
            fs = [1.0] * rank
            for a in axes:
                fs[a] = float(np.float32(scale))
            if any(math.floor(in_shape[a] * fs[a]) != out[a] for a in axes):
                ctx.refuse(f"keep_aspect_ratio_policy={policy} with a non-integral scaled size "
                           f"(scale {scale}) has no ge equivalent")
            full_scales = fs
        eff = [(out[a] / in_shape[a]) if in_shape[a] > 0 else 1.0 for a in range(rank)]
    else:
        sc = [float(s) for s in np.asarray(scales, dtype=np.float32).reshape(-1)]
        if len(sc) != len(axes):
            ctx.invalid(f"scales {sc} must have {len(axes)} values")
        if any(not s > 0 for s in sc):
            ctx.invalid(f"scales {sc} must be positive")
        full_scales = [1.0] * rank
        for a, s in zip(axes, sc):
            full_scales[a] = s
        # floor(in * scale), computed in double from the f32 scale as ge.resize verifies it.
        out = [d if s == 1.0 else (-1 if d < 0 else math.floor(d * s)) for d, s in zip(in_shape, full_scales)]
        eff = full_scales
    if any(o == 0 for o in out):
        ctx.refuse(f"the output shape {out} has an empty dimension")
    if antialias and mode != "nearest" and any(e < 1 for e in eff):
        ctx.refuse("antialias=1 when downsampling (a widened filter) has no ge equivalent")
    if legacy:
        # Resize-10 / Upsample: asymmetric coordinates; nearest truncates when
        # upsampling and rounds up when downsampling (onnxruntime's reference).
        coord = "asymmetric"
        if mode == "nearest":
            down = {e < 1 for e in eff if e != 1.0}
            if len(down) > 1:
                ctx.refuse("nearest resize that upsamples some axes and downsamples others "
                           "(opset < 11 rounding differs per axis) has no ge equivalent")
            nearest = "ceil" if down == {True} else "floor"
    kw = {}
    if full_scales is not None:
        kw["scales"] = [float(s) for s in full_scales]
    return ge.resize(
        _tensor(out, x.type.element_type), x,
        mode=getattr(ge.ResizeMode, mode),
        coordinate_transformation_mode=getattr(ge.CoordinateTransform, coord),
        nearest_mode=getattr(ge.NearestMode, nearest if mode == "nearest" else "round_prefer_floor"),
        cubic_coeff_a=_f32(cubic_a),
        **kw,
    )


def _const_input(ctx, i: int, what: str) -> np.ndarray:
    value = ctx.const(i)
    if value is None and ctx.importer.is_graph_input(ctx.node.input[i]):
        return ctx.require_const(i, what)  # names the input (constant_inputs= can freeze it)
    if value is None:
        ctx.refuse(
            f"{what} (input #{i}) is computed at run time; it must be known at import time (an initializer, "
            "a Constant or foldable from static shapes) because it fixes the output shape"
        )
    return value


def _resize_runtime(ctx, scales_i: int | None, sizes_i: int | None, mode: str, legacy: bool = False) -> ir.Value:
    """Resize/Upsample whose scales or sizes are given at run time (see ``_runtime.resize_``)."""
    rank = ctx.rank(0)
    axes = ctx.attr("axes", None)
    axes = list(range(rank)) if axes is None else [_norm_axis(ctx, int(a), rank, "axes value") for a in axes]
    if len(set(axes)) != len(axes):
        ctx.invalid(f"axes {axes} repeats an axis")
    mode = "linear" if mode == "bilinear" else mode
    if mode not in ("nearest", "linear", "cubic"):
        ctx.refuse(f"mode {mode!r} is not supported")
    coord = ctx.attr("coordinate_transformation_mode", "half_pixel")
    nearest = ctx.attr("nearest_mode", "round_prefer_floor")
    i = sizes_i if sizes_i is not None else scales_i
    what = "sizes" if sizes_i is not None else "scales"
    if not legacy and (ctx.attr("antialias", 0) or (mode == "cubic" and ctx.attr("exclude_outside", 0))
                       or coord not in rt.RESIZE_COORDS):
        # Filters whose taps depend on the scale (antialias, renormalized borders) are built at import
        # from constant scales only: ask for the value (ge_mlir.compile's constant_inputs can give it).
        _const_input(ctx, i, what)
    if not legacy and mode == "nearest" and nearest not in _NEAREST:
        ctx.refuse(f"nearest_mode {nearest!r} is not supported")
    policy = ctx.attr("keep_aspect_ratio_policy", "stretch") if sizes_i is not None else "stretch"
    if policy not in ("stretch", "not_larger", "not_smaller"):
        ctx.refuse(f"unknown keep_aspect_ratio_policy {policy!r}")
    if rt.static_count(ctx, i, what) != len(axes):
        ctx.invalid(f"scales/sizes must have {len(axes)} values")
    return rt.resize_(ctx, ctx.input(0), axes, ctx.input(scales_i) if sizes_i is None else None,
                      ctx.input(sizes_i) if sizes_i is not None else None, mode=mode, coord=coord,
                      nearest=nearest, cubic_a=float(ctx.attr("cubic_coeff_a", -0.75)), policy=policy,
                      legacy=legacy)


def _runtime_input(ctx, i: int) -> bool:
    """Input ``i`` is given (non-empty) and only known at run time."""
    if not ctx.has_input(i) or ctx.const(i) is not None:
        return False
    t = ctx.input_type(i)
    return not (t.has_static_shape and int(np.prod(t.shape)) == 0)


@converter("Resize", since=10, notes="scales/sizes constant (ge.resize) or at run time (per-axis gathers "
           "and weights; ? dims); tf_crop_and_resize refused")
def resize(ctx):
    if ctx.opset < 11:
        if _runtime_input(ctx, 1):
            return _resize_runtime(ctx, 1, None, ctx.attr("mode", "nearest"), legacy=True)
        scales = _const_input(ctx, 1, "scales")
        return _resize(ctx, ctx.attr("mode", "nearest"), scales=scales, legacy=True)
    if _runtime_input(ctx, 3):
        return _resize_runtime(ctx, None, 3, ctx.attr("mode", "nearest"))
    if _runtime_input(ctx, 2) and not (ctx.has_input(3) and ctx.const(3) is not None and ctx.const(3).size):
        return _resize_runtime(ctx, 2, None, ctx.attr("mode", "nearest"))
    sizes = _const_input(ctx, 3, "sizes") if ctx.has_input(3) else None
    if sizes is not None and sizes.size == 0:
        sizes = None
    scales = None
    if sizes is None:
        if not ctx.has_input(2):
            ctx.invalid("one of scales and sizes must be given")
        scales = _const_input(ctx, 2, "scales")
        if scales.size == 0:
            ctx.invalid("one of scales and sizes must be given (both are empty)")
    return _resize(
        ctx, ctx.attr("mode", "nearest"), scales=scales, sizes=sizes, axes=ctx.attr("axes", None),
        coord=ctx.attr("coordinate_transformation_mode", "half_pixel"),
        nearest=ctx.attr("nearest_mode", "round_prefer_floor"),
        cubic_a=ctx.attr("cubic_coeff_a", -0.75),
        antialias=ctx.attr("antialias", 0),
        exclude_outside=ctx.attr("exclude_outside", 0),
        policy=ctx.attr("keep_aspect_ratio_policy", "stretch"),
    )


@converter("Upsample", since=7, until=9, notes="Resize-10 semantics (asymmetric); deprecated at opset 10")
def upsample(ctx):
    if ctx.opset < 9:
        scales = ctx.attr("scales", None)
        if scales is None:
            ctx.refuse("the scales attribute is missing")
    elif _runtime_input(ctx, 1):
        return _resize_runtime(ctx, 1, None, ctx.attr("mode", "nearest"), legacy=True)
    else:
        scales = _const_input(ctx, 1, "scales")
    return _resize(ctx, ctx.attr("mode", "nearest"), scales=scales, legacy=True)
