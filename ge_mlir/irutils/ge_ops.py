"""Structure of ge ops that several layers read or rebuild (optional operands, fused activations)."""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir

from .attrs import attr_enum

__all__ = ["ONNX_OP_TO_GE", "VIEW_OPS", "activation_of", "conv_parts", "create_op", "recreate", "recreate_conv"]

#: Reshape-like ops: lowered to tensor.collapse_shape/expand_shape (or nothing), so bufferization
#: makes their results views of their input.
VIEW_OPS = frozenset({"ge.reshape", "ge.flatten", "ge.squeeze", "ge.unsqueeze", "ge.identity"})


def create_op(name: str, results: Sequence[ir.Type], operands: Sequence[ir.Value] = (),
              attributes: dict[str, ir.Attribute] | None = None, loc: ir.Location | None = None) -> ir.Operation:
    """A ge op built by name at the current insertion point: how this layer builds ge ops, as it sits
    below the generated builders (``ge_mlir.dialects.ge``); the layers above use those."""
    if not name.startswith("ge."):
        raise ValueError(f"create_op builds ge ops, not {name}")
    return ir.Operation.create(name, results=list(results), operands=list(operands), attributes=attributes, loc=loc)


def activation_of(op: ir.Operation) -> str:
    """Name of the fused activation of a conv2d/matmul/gemm ("none" when absent)."""
    return attr_enum(op, "activation", "none")  # "#ge.act<relu>" -> "relu"


def recreate(op: ir.Operation, operands: list[ir.Value], attributes: dict[str, ir.Attribute] | None = None,
             drop: tuple[str, ...] = ()) -> ir.Operation:
    """A copy of single-result ``op`` at the current insertion point with new operands/attributes."""
    attrs = {name: op.attributes[name] for name in op.attributes if name not in drop}
    attrs.update(attributes or {})
    return create_op(op.name, [op.results[0].type], operands, attrs, op.location)


def conv_parts(op: ir.Operation) -> tuple[ir.Value, ir.Value, ir.Value | None, ir.Value | None]:
    """``(input, filter, bias, residual)`` of a ``ge.conv2d`` (absent operands are None)."""
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    ops = list(op.operands)
    bias = ops[2] if sizes[2] else None
    residual = ops[2 + sizes[2]] if sizes[3] else None
    return ops[0], ops[1], bias, residual


def recreate_conv(op: ir.Operation, x: ir.Value, w: ir.Value, bias: ir.Value | None, residual: ir.Value | None,
                  attributes: dict[str, ir.Attribute] | None = None) -> ir.Operation:
    """A copy of ``ge.conv2d`` ``op`` with new operands (the segment sizes follow the optional ones)."""
    attrs = dict(attributes or {})
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, 1, int(bias is not None), int(residual is not None)])
    operands = [x, w] + [v for v in (bias, residual) if v is not None]
    return recreate(op, operands, attrs)


#: ONNX op types (and the GE spellings option files use) -> the ge ops the importer and the
#: fusions make of them, most direct first. Read by rematerialization's checkpoint ops and the GE
#: option keys that name op kinds; other types are their snake_case ge op when one exists.
ONNX_OP_TO_GE: dict[str, tuple[str, ...]] = {
    "Conv": ("ge.conv2d",),
    "ConvTranspose": ("ge.conv_transpose2d",),
    # MatMul + Add and Gemm both end as biased ge.matmul or ge.gemm (ge-fuse-bias-add).
    "MatMul": ("ge.matmul", "ge.gemm"),
    "Gemm": ("ge.gemm", "ge.matmul"),
    "LayerNormalization": ("ge.layer_norm",),
    "LayerNorm": ("ge.layer_norm",),
    "RMSNormalization": ("ge.rms_norm",),
    "SimplifiedLayerNormalization": ("ge.rms_norm",),
    "BatchNormalization": ("ge.batch_norm",),
    "InstanceNormalization": ("ge.instance_norm",),
    "Softmax": ("ge.softmax",),
    "LogSoftmax": ("ge.log_softmax",),
    "MaxPool": ("ge.max_pool2d",),
    "AveragePool": ("ge.avg_pool2d",),
    "GlobalAveragePool": ("ge.global_avg_pool",),
    "GlobalMaxPool": ("ge.global_max_pool",),
    "Resize": ("ge.resize",),
    "Upsample": ("ge.resize",),
    "Concat": ("ge.concat",),
    "Slice": ("ge.slice",),
    "Pad": ("ge.pad",),
    "Gather": ("ge.gather",),
    "GatherElements": ("ge.gather_elements",),
    "CumSum": ("ge.cumsum",),
    "CumProd": ("ge.cumprod",),
    "ReduceSum": ("ge.reduce_sum",),
    "ReduceMean": ("ge.reduce_mean",),
    "ReduceMax": ("ge.reduce_max",),
    "ReduceMin": ("ge.reduce_min",),
    "ReduceProd": ("ge.reduce_prod",),
    "ReduceL2": ("ge.reduce_l2",),
    "Gelu": ("ge.gelu",),
    # GE op-type spellings.
    "Conv2D": ("ge.conv2d",),
    "AvgPool": ("ge.avg_pool2d",),
    "BatchNorm": ("ge.batch_norm",),
    "TransData": ("ge.trans_data",),
}
