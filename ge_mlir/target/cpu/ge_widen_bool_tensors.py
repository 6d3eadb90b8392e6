"""ge-widen-bool-tensors: i1 tensors are stored as i8 (one byte per element, numpy's bool layout).

LLVM 22's ``finalize-memref-to-llvm`` asserts (aborting the process) on loads
and stores of sub-byte memref elements, so no ``memref<..xi1>`` may reach it.
Every i1 tensor value (results, tensor block arguments, function boundaries)
becomes i8; scalars stay i1 and are converted where they meet a widened
tensor: linalg region arguments (``arith.trunci``), values yielded into
widened results, stored by ``tensor.insert/from_elements/splat`` or
``linalg.fill`` (``arith.extui``), and ``tensor.extract``. i1 constants are
rewritten as i8 constants (0/1); a non-dense one (``dense_resource``) fails
the pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir
from mlir.dialects import arith

from ...errors import PassFailure
from ...passes.registry import Pass, register_pass


@register_pass
class GeWidenBoolTensorsPass(Pass):
    name = "ge-widen-bool-tensors"
    summary = "Store i1 tensors as i8 (LLVM cannot load or store i1 memref elements)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 20

    def run(self, module: ir.Operation) -> None:
        with module.context, ir.Location.unknown():
            widen_bool_tensors(module)


def widen_bool_tensors(module: ir.Operation) -> None:
    i1 = ir.IntegerType.get_signless(1, module.context)
    i8 = ir.IntegerType.get_signless(8, module.context)

    def wide(t: ir.Type) -> ir.Type:
        if _elem_is(t, "i1"):
            rt = ir.RankedTensorType(t)
            return ir.RankedTensorType.get(rt.shape, i8, rt.encoding)
        return t

    # Refused before anything changes, so a failure leaves the IR as it was.
    for op in _pre_order(module):
        if (op.name == "arith.constant" and any(_elem_is(r.type, "i1") for r in op.results)
                and not isinstance(op.attributes["value"], ir.DenseElementsAttr)):
            raise PassFailure(f"unsupported i1 constant {op.attributes['value']}", at=op)
    for fn in [op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]:
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        fn.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get([wide(t) for t in ftype.inputs], [wide(t) for t in ftype.results])
        )
        if not fn.regions[0].blocks:
            continue
        for block in fn.regions[0].blocks:
            for arg in block.arguments:
                arg.set_type(wide(arg.type))
        # Pre-order: producers (and a region's parent) are widened before users.
        for op in _pre_order(fn)[1:]:
            _widen_op(op, wide, i1, i8)


def _pre_order(root: ir.Operation) -> list[ir.Operation]:
    ops: list[ir.Operation] = []

    def collect(o: ir.Operation) -> ir.WalkResult:
        ops.append(o)
        return ir.WalkResult.ADVANCE

    root.walk(collect, ir.WalkOrder.PRE_ORDER)
    return ops


def _is_i1(v: ir.Value) -> bool:
    return str(v.type) == "i1"


def _elem_is(t: ir.Type, name: str) -> bool:
    return isinstance(t, ir.RankedTensorType) and str(ir.RankedTensorType(t).element_type) == name


def _extui_operand(op: ir.Operation, idx: int, i8: ir.Type) -> None:
    with op.location, ir.InsertionPoint(op):
        op.operands[idx] = arith.extui(i8, op.operands[idx])


def _widen_op(op: ir.Operation, wide: Any, i1: ir.Type, i8: ir.Type) -> None:
    name = op.name
    if name == "arith.constant" and any(_elem_is(r.type, "i1") for r in op.results):
        attr = op.attributes["value"]
        new_type = wide(op.results[0].type)
        dense = ir.DenseElementsAttr(attr)
        if dense.is_splat:
            bit = ir.IntegerAttr(dense.get_splat_value()).value != 0
            new_attr = ir.DenseElementsAttr.get_splat(new_type, ir.IntegerAttr.get(i8, int(bit)))
        else:
            ints = ir.DenseIntElementsAttr(attr)
            values = np.array([int(ints[i] != 0) for i in range(len(ints))], np.int8)
            new_attr = ir.DenseElementsAttr.get(values.reshape(ir.RankedTensorType(new_type).shape), type=new_type)
        with op.location, ir.InsertionPoint(op):
            new = arith.constant(new_type, new_attr)
        op.results[0].replace_all_uses_with(new)
        op.erase()
        return
    # Scalars stored into widened tensors.
    if name in ("tensor.insert", "tensor.splat") and _is_i1(op.operands[0]):
        _extui_operand(op, 0, i8)
    elif name == "tensor.from_elements":
        for idx in range(len(op.operands)):
            if _is_i1(op.operands[idx]):
                _extui_operand(op, idx, i8)
    elif name == "linalg.fill" and _is_i1(op.operands[0]) and _elem_is(op.operands[1].type, "i8"):
        _extui_operand(op, 0, i8)
    for r in op.results:
        r.set_type(wide(r.type))
    if name == "tensor.extract" and _is_i1(op.results[0]) and _elem_is(op.operands[0].type, "i8"):
        r = op.results[0]
        r.set_type(i8)
        with op.location, ir.InsertionPoint.after(op):
            narrow = arith.trunci(i1, r)
        r.replace_all_uses_except(narrow, narrow.owner.operation)
    for region in op.regions:
        for block in region.blocks:
            for arg in block.arguments:
                arg.set_type(wide(arg.type))
    if name.startswith("linalg.") and op.regions and op.regions[0].blocks:
        # Structured ops: region argument i <-> operand i (ins then outs).
        block = op.regions[0].blocks[0]
        for operand, arg in zip(op.operands, block.arguments):
            if _is_i1(arg) and (_elem_is(operand.type, "i8") or str(operand.type) == "i8"):
                arg.set_type(i8)
                if len(list(arg.uses)):
                    with op.location, ir.InsertionPoint.at_block_begin(block):
                        narrow = arith.trunci(i1, arg)
                    arg.replace_all_uses_except(narrow, narrow.owner.operation)
    if name.startswith("linalg.") or name in ("tensor.pad", "tensor.generate"):
        # The terminator yields one scalar per (widened) result.
        for region in op.regions:
            for block in region.blocks:
                term = list(block.operations)[-1]
                for idx, (v, r) in enumerate(zip(term.operands, op.results)):
                    if _is_i1(v) and _elem_is(r.type, "i8"):
                        _extui_operand(term, idx, i8)

