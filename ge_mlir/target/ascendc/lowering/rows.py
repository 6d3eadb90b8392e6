"""Row-wise ops: ``softmax`` over the last axis, ``layer_norm``/``rms_norm`` over the last axes,
reductions (sum/mean/max/min) over trailing or contiguous middle axes, and global pools (NCHW:
rows, NHWC: columns)."""

from __future__ import annotations

from mlir import ir

from ....errors import Unsupported
from ....irutils.attrs import attr_enum, attr_float, attr_int, attr_ints
from ..kernels.rows import column_reduce_kernel, layer_norm_kernel, row_reduce_kernel, softmax_kernel
from .common import ELEMS, Lowering, elem_of, lowering, numel, shape_of


@lowering("softmax")
def lower_softmax(low: Lowering, op: ir.Operation) -> None:
    shape = shape_of(op.results[0])
    axis = attr_int(op, "axis", -1) % len(shape)
    if any(d != 1 for d in shape[axis + 1 :]):
        raise Unsupported("softmax over an axis other than the last")
    cols = shape[axis]
    kb = softmax_kernel(low.name("softmax"), elem_of(op.results[0]), numel(shape) // cols, cols)
    low.launch(kb, [low.buffer(op.operands[0]), low.result_buffer(op.results[0])])


@lowering("layer_norm", "rms_norm")
def lower_layer_norm(low: Lowering, op: ir.Operation) -> None:
    shape = shape_of(op.results[0])
    axis = attr_int(op, "axis", -1) % len(shape)
    cols = numel(shape[axis:])
    x, scale = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 and op.name == "ge.layer_norm" else None
    for v in (scale, bias):
        if v is not None and numel(shape_of(v)) != cols:
            raise Unsupported("layer_norm scale/bias that broadcast within the normalized axes")
    rms = op.name == "ge.rms_norm"
    kb = layer_norm_kernel(low.name("rms_norm" if rms else "layer_norm"), elem_of(x), numel(shape) // cols, cols,
                             attr_float(op, "epsilon", 1e-6 if rms else 1e-5), True, bias is not None,
                             center=not rms)
    args = [low.buffer(x), low.buffer(scale)] + ([low.buffer(bias)] if bias is not None else [])
    low.launch(kb, [*args, low.result_buffer(op.results[0])])


@lowering("reduce_sum", "reduce_mean", "reduce_max", "reduce_min")
def lower_reduce(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = shape_of(x)
    rank = len(shape)
    axes = sorted(a % rank for a in attr_ints(op, "axes", [])) or list(range(rank))
    kind = op.name.removeprefix("ge.reduce_")
    elem = elem_of(x)
    if elem not in ELEMS:
        raise Unsupported(f"{op.name} on {elem}")
    reduced = numel([shape[a] for a in axes])
    scale = 1.0 / reduced if kind == "mean" else 1.0
    base = {"sum": "sum", "mean": "sum", "max": "max", "min": "min"}.get(kind)
    if base is None:
        raise Unsupported(f"{op.name}")
    if axes == list(range(rank - len(axes), rank)):
        kb = row_reduce_kernel(low.name("reduce"), elem, base, numel(shape) // reduced, reduced, scale)
    elif axes == list(range(axes[0], axes[-1] + 1)) and axes[-1] < rank - 1:
        # Contiguous middle axes: rows of the trailing block, summed per leading index.
        kb = column_reduce_kernel(low.name("reduce"), elem, base, numel(shape[: axes[0]]), reduced,
                                    numel(shape[axes[-1] + 1 :]), scale)
    else:
        raise Unsupported(f"reduction over axes {axes}")
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


@lowering("global_avg_pool", "global_max_pool")
def lower_global_pool(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = shape_of(x)
    kind = "sum" if op.name == "ge.global_avg_pool" else "max"
    elem = elem_of(x)
    if elem not in ELEMS:
        raise Unsupported(f"{op.name} on {elem}")
    if len(shape) < 3:
        raise Unsupported(f"{op.name} of a rank-{len(shape)} input (needs batch, channel and spatial axes)")
    # Any number of spatial axes (1-D, 2-D, 3-D pools): they are one reduced block.
    if attr_enum(op, "data_format", "NCHW") == "NHWC":
        n, c, spatial = shape[0], shape[-1], numel(shape[1:-1])
        kb = column_reduce_kernel(low.name("global_pool"), elem, kind, n, spatial, c,
                                    1.0 / spatial if kind == "sum" else 1.0)
    else:
        n, c, spatial = shape[0], shape[1], numel(shape[2:])
        kb = row_reduce_kernel(low.name("global_pool"), elem, kind, n * c, spatial,
                                 1.0 / spatial if kind == "sum" else 1.0)
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])
