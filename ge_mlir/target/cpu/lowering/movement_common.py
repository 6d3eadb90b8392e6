"""Checks and IR helpers shared by the data-movement lowerings
(:mod:`.data_movement`, :mod:`.indexing`, :mod:`.shape_ops`, :mod:`.resize`).

Copies go through ``linalg.copy`` into (a slice of) a fresh tensor (see
``_materialize`` and ``_insert_copy`` below); ops that compute source indices
build a ``linalg.generic`` over the result whose body reads the source with
``tensor.extract`` (``_generic``, ``_extract``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, linalg, tensor

from .common import Unsupported, empty, signless, static_tensor


# --------------------------------------------------------------------------
# Checks (all done before any IR is built)
# --------------------------------------------------------------------------


def _movable(t: ir.Type) -> bool:
    return isinstance(t, (ir.IntegerType, ir.FloatType, ir.IndexType))


def _static(v: ir.Value | ir.Type) -> ir.RankedTensorType:
    t = static_tensor(v if isinstance(v, ir.Type) else v.type)
    if t is None:
        raise Unsupported("dynamic shape")
    if not _movable(t.element_type):
        raise Unsupported(f"element type {t.element_type}")
    return t


def _ranked(t: ir.Type) -> ir.RankedTensorType:
    """A ranked tensor type of a movable element type, static or not."""
    if not isinstance(t, ir.RankedTensorType) or not _movable(ir.RankedTensorType(t).element_type):
        raise Unsupported(f"type {t}")
    return ir.RankedTensorType(t)


def _result(op: ir.OpView, i: int = 0) -> ir.RankedTensorType:
    return _static(op.operation.results[i].type)


def _operand(op: ir.OpView, i: int) -> ir.Value:
    return op.operation.operands[i]


def _norm_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < max(rank, 1):
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


# --------------------------------------------------------------------------
# IR helpers
# --------------------------------------------------------------------------


def _index(v: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), v)


def _empty(t: ir.RankedTensorType) -> ir.Value:
    return tensor.EmptyOp(t.shape, t.element_type).result


def _scalar(t: ir.Type, value: float | bool) -> ir.Value:
    """A constant of element type ``t`` (``ui*``/``si*`` through a cast from signless)."""
    if isinstance(t, ir.FloatType):
        return arith.constant(t, ir.FloatAttr.get(t, float(value)))
    if isinstance(t, ir.IndexType):
        return arith.constant(t, int(value))
    s = signless(t)
    w = ir.IntegerType(s).width
    if w == 1:
        iv = -1 if value else 0  # any nonzero is true; true is -1 as a signed i1
    else:
        iv = int(value) & ((1 << w) - 1)
        if iv >= 1 << (w - 1):
            iv -= 1 << w
    c = arith.constant(s, ir.IntegerAttr.get(s, iv))
    return _cast(c, t)


def _cast(v: ir.Value, t: ir.Type) -> ir.Value:
    if v.type == t:
        return v
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[t], operands=[v]).result


def _to_index(v: ir.Value) -> ir.Value:
    return arith.index_cast(ir.IndexType.get(), v)


def _wrap_clamp(i: ir.Value, d: int | ir.Value) -> ir.Value:
    """ONNX index (negative counts from the end) clamped into [0, d)."""
    zero = _index(0)
    neg = arith.cmpi(arith.CmpIPredicate.slt, i, zero)
    dv = _index(d) if isinstance(d, int) else d
    i = arith.select(neg, arith.addi(i, dv), i)
    lo = arith.maxsi(i, zero)
    top = _index(max(d - 1, 0)) if isinstance(d, int) else arith.maxsi(arith.subi(dv, _index(1)), zero)
    return arith.minsi(lo, top)


def _identity(rank: int) -> ir.AffineMap:
    return ir.AffineMap.get_identity(rank)


def _dims_map(rank: int, dims: Sequence[int]) -> ir.AffineMap:
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])


def _generic(
    rt: ir.RankedTensorType,
    ins: Sequence[tuple[ir.Value, ir.AffineMap]],
    body: Callable[[list[ir.Value], Callable[[int], ir.Value]], ir.Value],
    sizes: Sequence[int | ir.Value] | None = None,
) -> ir.Value:
    """A parallel linalg.generic over ``rt``; ``body(args, index)`` returns the
    yielded element, ``index(d)`` gives loop index ``d`` (created on demand).
    ``sizes`` (run-time sizes for ``rt``'s ``?`` dims) sizes the loops instead of ``rt``."""
    if sizes is not None:
        init = empty(sizes, rt.element_type)
        rt = ir.RankedTensorType(init.type)
    else:
        init = _empty(rt)
    maps = [m for _, m in ins] + [_identity(rt.rank)]
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp(
        [rt],
        [v for v, _ in ins],
        [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([parallel] * rt.rank),
    )
    types = [ir.RankedTensorType(v.type).element_type for v, _ in ins] + [rt.element_type]
    block = g.regions[0].blocks.append(*types)
    cache: dict[int, ir.Value] = {}
    with ir.InsertionPoint(block):

        def index(d: int) -> ir.Value:
            if d not in cache:
                cache[d] = linalg.IndexOp(d).result
            return cache[d]

        y = body(list(block.arguments)[: len(ins)], index)
        linalg.YieldOp([y])
    return g.result


def _extract(src: ir.Value, idx: Sequence[ir.Value]) -> ir.Value:
    return tensor.ExtractOp(src, list(idx)).result


def _extract_slice(src: ir.Value, rt: ir.RankedTensorType, offsets, sizes, strides) -> ir.Value:
    return tensor.ExtractSliceOp(
        rt, src, [], [], [], list(offsets), list(sizes), list(strides)
    ).result


# Copies go through linalg.copy into (a slice of) a fresh tensor rather than
# tensor.pad / tensor.concat / a returned extract_slice: those bufferize to
# memref.copy between strided memrefs, which LLVM lowering turns into a call
# to the memrefCopy runtime function that the CPU JIT does not link.


def _value(r) -> ir.Value:
    """The single result of a linalg builder (a Value, an OpView or a result list)."""
    if isinstance(r, ir.Value):
        return r
    if isinstance(r, (ir.OpView, ir.Operation)):
        return r.results[0]
    return r[0]


def _materialize(v: ir.Value) -> ir.Value:
    """A contiguous copy of ``v`` (typically a strided extract_slice)."""
    t = ir.RankedTensorType(v.type)
    return _value(linalg.copy(v, outs=[_empty(t)]))


def _insert_copy(piece: ir.Value, dest: ir.Value, offsets: Sequence[int]) -> ir.Value:
    """``dest`` with ``piece`` written at ``offsets`` (copied in place after bufferization)."""
    pt = ir.RankedTensorType(piece.type)
    if 0 in pt.shape:
        return dest
    rank = pt.rank
    window = _extract_slice(dest, pt, offsets, pt.shape, [1] * rank)
    filled = _value(linalg.copy(piece, outs=[window]))
    return tensor.InsertSliceOp(
        filled, dest, [], [], [], list(offsets), list(pt.shape), [1] * rank
    ).result


def _fill(rt: ir.RankedTensorType, value: float) -> ir.Value:
    return _value(linalg.fill(_scalar(rt.element_type, value), outs=[_empty(rt)]))


def _pad_zero(x: ir.Value, high: Sequence[int]) -> ir.Value:
    """Zero padding at the end of each dimension."""
    if not any(high):
        return x
    st = ir.RankedTensorType(x.type)
    rt = ir.RankedTensorType.get([d + h for d, h in zip(st.shape, high)], st.element_type)
    return _insert_copy(x, _fill(rt, 0), [0] * st.rank)
