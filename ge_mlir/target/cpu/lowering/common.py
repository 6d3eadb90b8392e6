"""Shared helpers and the op -> lowering registry of ge-lower-to-linalg.

A lowering is a function ``fn(op) -> Value | Sequence[Value] | None`` that is
called with the insertion point before ``op`` and builds the replacement
(linalg/tensor/arith/math on tensors). It returns None, or raises
:class:`Unsupported`, to leave the op in place (dynamic shapes, element types
it does not handle); anything it built then must be erased by itself or be
dead (the rewriter's folding removes dead pure ops).

Families register with :func:`lowering`; ``ge_lower_to_linalg`` imports every
family module, so the registry is complete once the pass is registered.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, linalg, tensor

from ....errors import Unsupported

LoweringFn = Callable[[ir.OpView], "ir.Value | Sequence[ir.Value] | None"]

_REGISTRY: dict[str, LoweringFn] = {}


def lowering(*names: str) -> Callable[[LoweringFn], LoweringFn]:
    """Registers ``fn`` as the lowering of the ge ops ``names`` (without ``ge.``)."""

    def register(fn: LoweringFn) -> LoweringFn:
        for name in names:
            if name in _REGISTRY:
                raise ValueError(f"ge.{name} already has a lowering ({_REGISTRY[name].__name__})")
            _REGISTRY[name] = fn
        return fn

    return register


def registered_lowerings() -> dict[str, LoweringFn]:
    return dict(_REGISTRY)


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


def kind(t: ir.Type) -> str:
    """'f' float, 'b' i1, 's' signed (signless or si) int, 'u' unsigned int, '?' other."""
    if isinstance(t, ir.FloatType):
        return "f"
    if isinstance(t, ir.IntegerType):
        it = ir.IntegerType(t)
        if it.width == 1 and it.is_signless:
            return "b"
        if it.width in (8, 16, 32, 64):
            return "u" if it.is_unsigned else "s"
    return "?"


def width(t: ir.Type) -> int:
    if isinstance(t, ir.FloatType):
        return ir.FloatType(t).width
    return ir.IntegerType(t).width


def signless(t: ir.Type) -> ir.Type:
    if isinstance(t, ir.IntegerType) and not ir.IntegerType(t).is_signless:
        return ir.IntegerType.get_signless(ir.IntegerType(t).width)
    return t


def static_tensor(t: ir.Type) -> ir.RankedTensorType | None:
    if not isinstance(t, ir.RankedTensorType):
        return None
    rt = ir.RankedTensorType(t)
    return rt if rt.has_static_shape else None


# --------------------------------------------------------------------------
# Scalar helpers (used inside a linalg.generic body)
# --------------------------------------------------------------------------


def const(t: ir.Type, value: float | bool) -> ir.Value:
    if isinstance(t, ir.FloatType):
        return arith.constant(t, ir.FloatAttr.get(t, float(value)))
    return arith.constant(t, ir.IntegerAttr.get(t, int(value)))


def compute_type(t: ir.Type) -> ir.Type:
    """f16/bf16 compute in f32; everything else in its own (signless) type."""
    if isinstance(t, ir.FloatType) and ir.FloatType(t).width < 32:
        return ir.F32Type.get()
    return signless(t)


def convert_float(x: ir.Value, t: ir.Type) -> ir.Value:
    """Float precision change (extf/truncf) between compute and storage types."""
    if x.type == t:
        return x
    if width(x.type) < width(t):
        return arith.extf(t, x)
    if width(x.type) > width(t):
        return arith.truncf(t, x)
    return arith.truncf(t, arith.extf(ir.F32Type.get(), x))  # f16 <-> bf16


# A scalar body gets the operands' values (in compute types) and their original
# element types (for signedness) and returns the result value.
Body = Callable[[list[ir.Value], list[ir.Type]], ir.Value]


def broadcast_map(operand: ir.RankedTensorType, result: ir.RankedTensorType) -> ir.AffineMap:
    r, rank = operand.rank, result.rank
    exprs = []
    for i in range(r):
        d = i + rank - r
        if operand.shape[i] == 1 and result.shape[d] != 1:
            exprs.append(ir.AffineConstantExpr.get(0))
        else:
            exprs.append(ir.AffineDimExpr.get(d))
    return ir.AffineMap.get(rank, 0, exprs)


def elementwise(
    operands: Sequence[ir.Value], result_type: ir.Type, body: Body, *, upcast: bool = True
) -> ir.Value:
    """One linalg.generic computing ``body`` over broadcast operands.

    With ``upcast`` float operands narrower than f32 reach ``body`` as f32 and
    a float result is rounded back to the result element type.
    """
    rt = static_tensor(result_type)
    if rt is None:
        raise Unsupported("dynamic result shape")
    in_types = []
    for v in operands:
        t = static_tensor(v.type)
        if t is None:
            raise Unsupported("dynamic operand shape")
        if t.rank > rt.rank:
            raise Unsupported("operand rank exceeds result rank")
        in_types.append(t)
    for t in [*in_types, rt]:
        if kind(t.element_type) == "?":
            raise Unsupported(f"element type {t.element_type}")
    out_elem = rt.element_type
    init = tensor.EmptyOp(rt.shape, out_elem).result
    maps = [broadcast_map(t, rt) for t in in_types] + [ir.AffineMap.get_identity(rt.rank)]
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    generic = linalg.GenericOp(
        [rt],
        list(operands),
        [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([parallel] * rt.rank),
    )
    elem_types = [t.element_type for t in in_types]
    block = generic.regions[0].blocks.append(*elem_types, out_elem)
    try:
        _build_body(block, operands, elem_types, out_elem, body, upcast)
    except Unsupported:
        generic.operation.erase()
        init.owner.erase()
        raise
    return generic.result


def _build_body(block: ir.Block, operands: Sequence[ir.Value], elem_types: list[ir.Type],
                out_elem: ir.Type, body: Body, upcast: bool) -> None:
    with ir.InsertionPoint(block):
        args = []
        for arg, et in zip(list(block.arguments)[: len(operands)], elem_types):
            x: ir.Value = arg
            if signless(et) != et:
                x = ir.Operation.create(
                    "builtin.unrealized_conversion_cast", results=[signless(et)], operands=[x]
                ).result
            if upcast and kind(et) == "f":
                x = convert_float(x, compute_type(et))
            args.append(x)
        y = body(args, elem_types)
        if kind(out_elem) == "f":
            y = convert_float(y, out_elem)
        if signless(out_elem) != out_elem:
            y = ir.Operation.create(
                "builtin.unrealized_conversion_cast", results=[out_elem], operands=[y]
            ).result
        linalg.YieldOp([y])




# --------------------------------------------------------------------------
# Reshape and transpose (shared by the data-movement and nn lowerings)
# --------------------------------------------------------------------------


def _reassociation(long: Sequence[int], short: Sequence[int]) -> list[list[int]] | None:
    """Groups of ``long``'s dims whose products are ``short``'s dims, or None."""
    if not short:
        return [] if all(d == 1 for d in long) else None
    groups: list[list[int]] = []
    i = 0
    for d in short:
        group: list[int] = []
        p = 1
        while i < len(long):
            group.append(i)
            p *= long[i]
            i += 1
            if p >= d:
                break
        if p != d or not group:
            return None
        groups.append(group)
    while i < len(long):
        if long[i] != 1:
            return None
        groups[-1].append(i)
        i += 1
    return groups


def collapse(x: ir.Value, rt: ir.RankedTensorType, groups: list[list[int]]) -> ir.Value:
    return tensor.CollapseShapeOp(rt, x, groups).result


def expand(x: ir.Value, rt: ir.RankedTensorType, groups: list[list[int]]) -> ir.Value:
    return tensor.ExpandShapeOp(rt, x, groups, [], list(rt.shape)).result


def reshape_to(x: ir.Value, rt: ir.RankedTensorType) -> ir.Value:
    """``x`` with ``rt``'s static shape (same element count): one collapse_shape
    or expand_shape when a reassociation exists, else through a rank-1 tensor."""
    st = ir.RankedTensorType(x.type)
    src, dst = list(st.shape), list(rt.shape)
    if src == dst:
        return x
    if 0 not in src and 0 not in dst:
        if len(src) > len(dst):
            groups = _reassociation(src, dst)
            if groups is not None:
                return collapse(x, rt, groups)
        elif len(src) < len(dst):
            groups = _reassociation(dst, src)
            if groups is not None:
                return expand(x, rt, groups)
    flat_t = ir.RankedTensorType.get([math.prod(src)], st.element_type)
    flat = x if len(src) == 1 else collapse(x, flat_t, [list(range(len(src)))])
    if len(dst) == 1:
        return flat
    return expand(flat, rt, [list(range(len(dst)))])


def reshape(x: ir.Value, shape: Sequence[int]) -> ir.Value:
    """:func:`reshape_to` with the element type kept."""
    return reshape_to(x, ir.RankedTensorType.get(list(shape), ir.RankedTensorType(x.type).element_type))


def transpose(x: ir.Value, perm: Sequence[int]) -> ir.Value:
    """linalg.transpose (result dim i is input dim perm[i]); identity perms are free."""
    st = ir.RankedTensorType(x.type)
    if list(perm) == list(range(st.rank)):
        return x
    rt = ir.RankedTensorType.get([st.shape[p] for p in perm], st.element_type)
    init = tensor.EmptyOp(list(rt.shape), rt.element_type).result
    return linalg.transpose(x, outs=[init], permutation=list(perm)).results[0]
