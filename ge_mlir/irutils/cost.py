"""The FLOP model of ge ops: what rematerialization weighs a recomputed op by and what the
partitioner's cost model ranks ops with (``ge_mlir.partition.cost``).

A multiply-add counts 2 (matmul ``2*M*N*K``, convolution ``2 * outputs * C/groups * kh * kw``,
transposed convolution per input element); each elementwise op, cast, fused bias, residual or
activation 1 per output element; pooling one per window tap per output; reductions, cumsum and
top_k one per input element; softmax 5, layer/instance norm 8, RMS norm 6, batch norm 2 per
element; pure data movement (views, transposes, concat, slices, gathers, pads, broadcasts) 0.
"""

from __future__ import annotations

import math

from mlir import ir

from .attrs import attr_bool, attr_ints
from .ge_ops import VIEW_OPS

__all__ = ["function_flops", "op_flops"]

_MOVES = frozenset({"ge.constant", "ge.transpose", "ge.trans_data", "ge.concat", "ge.split", "ge.slice",
                    "ge.gather", "ge.gather_elements", "ge.scatter_elements", "ge.expand", "ge.tile", "ge.pad",
                    "ge.shape", "ge.range", "ge.one_hot"}) | VIEW_OPS
_PER_INPUT = frozenset({"ge.reduce_sum", "ge.reduce_mean", "ge.reduce_max", "ge.reduce_min", "ge.reduce_prod",
                        "ge.reduce_l2", "ge.argmax", "ge.argmin", "ge.global_avg_pool", "ge.global_max_pool",
                        "ge.cumsum", "ge.cumprod", "ge.top_k"})
_PER_OUTPUT = {"ge.softmax": 5, "ge.log_softmax": 5, "ge.layer_norm": 8, "ge.instance_norm": 8, "ge.rms_norm": 6,
               "ge.batch_norm": 2}


def _elements(t: ir.Type) -> int:
    if not isinstance(t, ir.RankedTensorType) or not ir.RankedTensorType(t).has_static_shape:
        return 0
    return math.prod(ir.RankedTensorType(t).shape)


def _shape(v: ir.Value) -> list[int] | None:
    t = v.type
    if not isinstance(t, ir.RankedTensorType) or not ir.RankedTensorType(t).has_static_shape:
        return None
    return list(ir.RankedTensorType(t).shape)


def op_flops(op: ir.Operation) -> int:
    """Floating-point operations of one ge op in the model of the module doc (0 outside the ge dialect)."""
    op = op.operation
    name = op.name
    if not name.startswith("ge.") or name in _MOVES:
        return 0
    out = sum(_elements(r.type) for r in op.results)
    if name in _PER_INPUT:
        return _elements(op.operands[0].type)
    if name in _PER_OUTPUT:
        return _PER_OUTPUT[name] * out
    epilogue = out * (int("activation" in op.attributes and "<none>" not in str(op.attributes["activation"])))
    if name == "ge.matmul":
        a = _shape(op.operands[0])
        k = a[-1] if a else 1
        return 2 * out * k + out * (len(op.operands) > 2) + epilogue
    if name == "ge.gemm":
        a = _shape(op.operands[0])
        k = (a[0] if attr_bool(op, "trans_a", False) else a[-1]) if a else 1
        return 2 * out * k + out * (len(op.operands) > 2) + epilogue
    if name == "ge.conv2d":
        w = _shape(op.operands[1]) or [1, 1, 1, 1]
        extra = len(op.operands) - 2  # bias and residual adds
        return 2 * out * w[1] * w[2] * w[3] + out * extra + epilogue
    if name == "ge.conv_transpose2d":
        x, w = _elements(op.operands[0].type), _shape(op.operands[1]) or [1, 1, 1, 1]
        return 2 * x * w[1] * w[2] * w[3] + out * (len(op.operands) > 2)
    if name in ("ge.max_pool2d", "ge.avg_pool2d"):
        k = attr_ints(op, "kernel_shape", [1, 1]) or [1, 1]
        return out * math.prod(k)
    return out  # elementwise, casts, where, clip, resize and the rest: one per output element


def function_flops(fn: ir.Operation) -> int:
    """The FLOPs of every op of ``fn``'s entry block (:func:`op_flops`)."""
    return sum(op_flops(op.operation) for op in fn.regions[0].blocks[0].operations)
