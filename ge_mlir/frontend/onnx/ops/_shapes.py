"""Helpers shared by the converter modules: shapes (-1 means a dynamic dim),
casts, scalar constants, axes and the conv/pool window attributes."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from mlir import ir

from ....dialects import ge
from ..registry import numpy_dtype

_DYN = ir.ShapedType.get_dynamic_size()


def _tensor(shape: Sequence[int], elem: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([_DYN if d < 0 else int(d) for d in shape], elem)


def _dims(t: ir.RankedTensorType) -> list[int]:
    """Dimensions with -1 for dynamic ones (like ``NodeContext.shape``)."""
    return [-1 if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)]


def _shape_of(v: ir.Value) -> list[int]:
    return _dims(v.type)


def _reshape(v: ir.Value, shape: Sequence[int]) -> ir.Value:
    if list(shape) == _shape_of(v):
        return v
    return ge.reshape(_tensor(shape, v.type.element_type), v)


def _cast(v: ir.Value, elem: ir.Type) -> ir.Value:
    if v.type.element_type == elem:
        return v
    return ge.cast(ir.RankedTensorType.get(v.type.shape, elem), v)


def _f32(v: float) -> ir.FloatAttr:
    return ir.FloatAttr.get_f32(float(v))


def _scalar(value: float, elem: ir.Type, ctx) -> ir.Value:
    return ctx.constant(np.array(value, dtype=numpy_dtype(elem)), elem)


def _is_float(t: ir.Type) -> bool:
    return isinstance(t, (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type))


def _norm_axis(ctx, axis: int, rank: int, what: str = "axis") -> int:
    if not -rank <= axis < rank:
        ctx.invalid(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def _no_extra_outputs(results: Sequence, ctx) -> list:
    return list(results) + [None] * (ctx.num_outputs - len(results))


# --- windows (conv / pool) ---------------------------------------------------


def _spatial_rank(ctx, what: str) -> int:
    rank = ctx.rank(0)
    if rank == 5:
        ctx.refuse(f"3-D {what} (5-D input) is not supported: ge has 2-D {what} ops only")
    if rank not in (3, 4):
        ctx.refuse(f"{what} needs a 3-D (1-D spatial) or 4-D (2-D spatial) input, got rank {rank}")
    return rank - 2


def _window(ctx, in_spatial: Sequence[int], kernel: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """(strides, pads, dilations) with auto_pad resolved to explicit pads."""
    n = len(kernel)
    strides = list(ctx.attr("strides", None) or [1] * n)
    dilations = list(ctx.attr("dilations", None) or [1] * n)
    if len(strides) != n or len(dilations) != n:
        ctx.invalid(f"strides {strides} / dilations {dilations} must have {n} values")
    auto_pad = ctx.attr("auto_pad", "NOTSET") or "NOTSET"
    if auto_pad == "NOTSET":
        pads = list(ctx.attr("pads", None) or [0] * (2 * n))
        if len(pads) != 2 * n:
            ctx.invalid(f"pads {pads} must have {2 * n} values")
    elif auto_pad == "VALID":
        pads = [0] * (2 * n)
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        if any(d < 0 for d in in_spatial):
            ctx.refuse(
                f"auto_pad={auto_pad} needs static spatial input dimensions, got {list(in_spatial)} "
                "(fix them with input_shapes=... / --input-shape)"
            )
        begin, end = [], []
        for i in range(n):
            out = -(-in_spatial[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in_spatial[i])
            small = total // 2
            b = small if auto_pad == "SAME_UPPER" else total - small
            begin.append(b)
            end.append(total - b)
        pads = begin + end
    else:
        ctx.invalid(f"unknown auto_pad {auto_pad!r}")
    return strides, pads, dilations


def _to_2d(n: int, strides, pads, dilations, extra=None):
    """Window attributes of a 1-D op as those of the equivalent [1, W] 2-D op."""
    if n == 2:
        return strides, pads, dilations, extra
    return ([1] + list(strides), [0, pads[0], 0, pads[1]], [1] + list(dilations),
            None if extra is None else [0] + list(extra))


def _kernel(ctx, w_shape: Sequence[int] | None, n: int) -> list[int]:
    attr = ctx.attr("kernel_shape", None)
    if w_shape is not None:
        ks = list(w_shape[2:])
        if any(k < 0 for k in ks):
            if attr is None:
                ctx.refuse(f"the weight's spatial dims {ks} must be static")
            ks = list(attr)
        if attr is not None and list(attr) != ks:
            ctx.invalid(f"kernel_shape {list(attr)} differs from the weight's spatial dims {ks}")
        return ks
    if attr is None or len(attr) != n:
        ctx.invalid(f"kernel_shape must have {n} values, got {attr}")
    return list(attr)
