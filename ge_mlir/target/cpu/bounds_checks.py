"""Run-time index bounds checks of gather/gather_elements/scatter_elements.

ONNX indices must lie in ``[-d, d)`` of the indexed axis; onnxruntime fails
the run (INVALID_ARGUMENT) otherwise, while the lowerings clamp (gather) or
skip (scatter) such indices. With ``ge-lower-to-linalg{check-bounds=true}``
(what the CPU target does by default) every such op whose indices are not a
constant (constant ones are refused by the op verifiers) gets a check built
before it is lowered:

* a reduction ``linalg.generic`` counts the out-of-range indices into a
  ``tensor<i64>``;
* that count becomes an extra trailing result of the function, and the
  function's ``ge.bounds_checks`` attribute lists, per extra result, the op
  name, its location and the ONNX node name (when the location has one).

The caller (``CpuExecutable``) passes an out-array per check and raises
``ExecutionError`` naming the op when a count is not zero. Cost: one pass over
the indices per checked op, no branch in the gather loop itself.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, linalg, tensor

from .lowering.nested_checks import carry_out, is_top_level

#: Function attribute: one dictionary (op, loc, node, axis_size) per check result.
BOUNDS_CHECKS_ATTR = "ge.bounds_checks"
#: ge ops whose operand #1 indexes axis ``axis`` of operand #0.
CHECKED_OPS = ("ge.gather", "ge.gather_elements", "ge.scatter_elements")


def _is_constant(v: ir.Value) -> bool:
    owner = v.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)):
        return False
    return owner.operation.name in ("ge.constant", "arith.constant")


def _ranked(t: ir.Type) -> ir.RankedTensorType | None:
    return ir.RankedTensorType(t) if isinstance(t, ir.RankedTensorType) else None


def _static(t: ir.Type) -> ir.RankedTensorType | None:
    if isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape:
        return ir.RankedTensorType(t)
    return None


def _count_out_of_range(indices: ir.Value, d: int) -> ir.Value:
    """tensor<i64>: how many elements of ``indices`` lie outside [-d, d)."""
    it = ir.RankedTensorType(indices.type)
    i64 = ir.IntegerType.get_signless(64)
    out_t = ir.RankedTensorType.get([], i64)
    zero = arith.constant(i64, 0)
    init = linalg.fill(zero, outs=[tensor.EmptyOp([], i64).result])
    rank = it.rank
    maps = [ir.AffineMap.get_identity(rank), ir.AffineMap.get(rank, 0, [])]
    reduction = ir.Attribute.parse("#linalg.iterator_type<reduction>")
    g = linalg.GenericOp(
        [out_t], [indices], [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([reduction] * rank),
    )
    block = g.regions[0].blocks.append(it.element_type, i64)
    with ir.InsertionPoint(block):
        idx, acc = block.arguments
        if ir.IntegerType(it.element_type).width < 64:
            idx = arith.extsi(i64, idx)
        low = arith.cmpi(arith.CmpIPredicate.slt, idx, arith.constant(i64, -d))
        high = arith.cmpi(arith.CmpIPredicate.sge, idx, arith.constant(i64, d))
        bad = arith.extui(i64, arith.ori(low, high))
        linalg.YieldOp([arith.addi(acc, bad)])
    return g.result


def _checkable(op: ir.Operation) -> int | None:
    """The size of the indexed axis when ``op`` needs a run-time check, else None."""
    if op.name not in CHECKED_OPS or len(op.operands) < 2:
        return None
    data, indices = op.operands[0], op.operands[1]
    # Run-time index shapes are checked too (an embedding lookup of [batch, seq] ids); the indexed
    # axis itself must have a static size.
    dt, it = _ranked(data.type), _ranked(indices.type)
    if dt is None or it is None or dt.rank == 0 or _is_constant(indices):
        return None
    et = it.element_type
    if not isinstance(et, ir.IntegerType) or ir.IntegerType(et).width not in (32, 64):
        return None
    if 0 in it.shape:
        return None
    axis = ir.IntegerAttr(op.attributes["axis"]).value if "axis" in op.attributes else 0
    if not -dt.rank <= axis < dt.rank:
        return None
    size = dt.shape[axis + dt.rank if axis < 0 else axis]
    return None if size == ir.ShapedType.get_dynamic_size() else size


def insert_bounds_checks(module: ir.Operation) -> int:
    """Adds the checks (see the module doc) to every function of ``module``; returns their count."""
    from ...errors import format_location, node_name

    total = 0
    for fn in [op.operation for op in module.regions[0].blocks[0].operations]:
        if fn.name != "func.func" or len(fn.regions[0].blocks) != 1:
            continue
        block = fn.regions[0].blocks[0]
        ret = list(block.operations)[-1].operation
        if ret.name != "func.return":
            continue
        targets: list[tuple[ir.Operation, int]] = []

        def visit(o: ir.Operation) -> ir.WalkResult:
            d = _checkable(o)
            if d is not None:
                targets.append((o, d))
            return ir.WalkResult.ADVANCE

        fn.walk(visit)
        if not targets:
            continue
        flags, infos = [], []
        for o, d in targets:
            with o.location, ir.InsertionPoint(o):
                count = _count_out_of_range(o.operands[1], d)
            if not is_top_level(count, fn):
                # Inside an If/Loop body: summed over its executions in a stack slot.
                with o.location, ir.InsertionPoint(o):
                    scalar = tensor.extract(count, [])
                total_count = carry_out(scalar, fn, "add")
                with ret.location, ir.InsertionPoint(ret):
                    count = tensor.from_elements(ir.RankedTensorType.get([], scalar.type), [total_count])
            flags.append(count)
            entries = {
                "op": ir.StringAttr.get(o.name),
                "loc": ir.StringAttr.get(format_location(o.location)),
                "axis_size": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), d),
            }
            node = node_name(o.location)
            if node:
                entries["node"] = ir.StringAttr.get(node)
            infos.append(ir.DictAttr.get(entries))
        old = list(ret.operands)
        with ret.location, ir.InsertionPoint(ret):
            ir.Operation.create("func.return", operands=[*old, *flags])
        ret.erase()
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        fn.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(ftype.inputs, [*ftype.results, *(f.type for f in flags)]))
        if "res_attrs" in fn.attributes:
            res = list(ir.ArrayAttr(fn.attributes["res_attrs"]))
            fn.attributes["res_attrs"] = ir.ArrayAttr.get([*res, *(ir.DictAttr.get({}) for _ in flags)])
        prior = list(ir.ArrayAttr(fn.attributes[BOUNDS_CHECKS_ATTR])) if BOUNDS_CHECKS_ATTR in fn.attributes else []
        fn.attributes[BOUNDS_CHECKS_ATTR] = ir.ArrayAttr.get([*prior, *infos])
        total += len(flags)
    return total
