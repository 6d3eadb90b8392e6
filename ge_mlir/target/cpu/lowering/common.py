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
from ...lowering_registry import LoweringRegistry

LoweringFn = Callable[[ir.OpView], "ir.Value | Sequence[ir.Value] | None"]

_REGISTRY: LoweringRegistry[LoweringFn] = LoweringRegistry()
#: ``@lowering("relu", ...)``: registers the decorated function for those ge ops (without ``ge.``).
lowering = _REGISTRY.lowering
registered_lowerings = _REGISTRY.registered


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


def ranked_tensor(t: ir.Type) -> ir.RankedTensorType | None:
    """``t`` as a ranked tensor type, static or dynamic dims alike."""
    return ir.RankedTensorType(t) if isinstance(t, ir.RankedTensorType) else None


#: ``RankedTensorType.shape`` entry of a dynamic dimension.
DYN = -(2**63)


def dim_sizes(v: ir.Value) -> list[int | ir.Value]:
    """The sizes of ``v``'s dims: ints for static dims, ``tensor.dim`` index values for dynamic ones."""
    rt = ir.RankedTensorType(v.type)
    return [s if s != DYN else tensor.dim(v, index(i)) for i, s in enumerate(rt.shape)]


def index(v: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), v)


def as_index(v: int | ir.Value) -> ir.Value:
    return index(v) if isinstance(v, int) else v


def empty(sizes: "Sequence[int | ir.Value]", elem: ir.Type) -> ir.Value:
    """``tensor.empty`` of static and run-time sizes (the result type has ``?`` where a size is a value)."""
    return tensor.EmptyOp(list(sizes), elem).result


def fit(v: ir.Value, sizes: "Sequence[int | ir.Value | None]") -> ir.Value:
    """``v`` with its dynamic dims made the static sizes given (None: leave the dim): the first
    ``min(d, n)`` elements, zero padded up to ``n``. Only a wrong-sized input takes the padding,
    and then a shape check has already failed the call; it keeps every later read in bounds."""
    rt = ir.RankedTensorType(v.type)
    todo = [i for i, (d, n) in enumerate(zip(rt.shape, sizes)) if d == DYN and isinstance(n, int)]
    if not todo:
        return v
    have = dim_sizes(v)
    kept = list(have)
    for i in todo:
        kept[i] = arith.minsi(have[i], index(sizes[i]))
    out_shape = [sizes[i] if i in todo else rt.shape[i] for i in range(rt.rank)]
    out_t = ir.RankedTensorType.get(out_shape, rt.element_type)
    dest = linalg.fill(const(rt.element_type, 0), outs=[empty([sizes[i] if i in todo else have[i]
                                                             for i in range(rt.rank)], rt.element_type)])
    # A slice copied into a filled tensor, not tensor.pad (see movement_common: no memrefCopy calls).
    part = slice_of(v, kept)
    window = slice_of(dest, kept)
    filled = linalg.copy(part, outs=[window])
    filled = filled if isinstance(filled, ir.Value) else filled.results[0] if hasattr(filled, "results") else filled[0]
    out = insert_slice(filled, dest, kept)
    assert out.type == out_t, (out.type, out_t)
    return out


def slice_of(v: ir.Value, sizes: "Sequence[int | ir.Value]") -> ir.Value:
    """The leading ``sizes`` window of ``v`` (offsets 0, unit strides)."""
    rt = ir.RankedTensorType(v.type)
    t = ir.RankedTensorType.get([s if isinstance(s, int) else DYN for s in sizes], rt.element_type)
    return tensor.ExtractSliceOp(t, v, [], [s for s in sizes if not isinstance(s, int)], [],
                                 [0] * rt.rank, [s if isinstance(s, int) else DYN for s in sizes],
                                 [1] * rt.rank).result


def insert_slice(piece: ir.Value, dest: ir.Value, sizes: "Sequence[int | ir.Value]") -> ir.Value:
    rank = len(sizes)
    return tensor.InsertSliceOp(piece, dest, [], [s for s in sizes if not isinstance(s, int)], [],
                                [0] * rank, [s if isinstance(s, int) else DYN for s in sizes],
                                [1] * rank).result


def same_size(sizes: "Sequence[int | ir.Value]", what: str) -> int | ir.Value:
    """One size for dims the op's semantics say are equal.

    Static sizes must agree (the verifiers saw to it). With run-time sizes the smallest one is
    used, so no loop reads past any operand, and a run-time shape check (:mod:`.shape_checks`)
    reports a mismatch, naming ``what``, before the caller sees a result."""
    static = {s for s in sizes if isinstance(s, int)}
    if len(static) > 1:
        raise Unsupported(f"{what}: sizes {sorted(static)} differ")
    values = [s for s in sizes if not isinstance(s, int)]
    if not values:
        return sizes[0]
    if static:
        # The static size wins; every run-time size must equal it (checked), and the caller makes
        # the operands that size with :func:`fit` so that a wrong size cannot be read past.
        (n,) = static
        from .shape_checks import require_equal

        require_equal([index(n), *values], what)
        return n
    if len(values) == 1:
        return values[0]
    from .shape_checks import require_equal

    return require_equal(values, what)


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


def broadcast_sizes(operands: Sequence[ir.Value], rt: ir.RankedTensorType, what: str) -> list[int | ir.Value]:
    """The result sizes of a numpy-broadcasting op. A static 1 broadcasts; a ``?`` dim does not
    (as in torch-mlir: it must equal the other non-1 sizes of its result dim, checked at run time)."""
    sizes: list[int | ir.Value] = []
    for d in range(rt.rank):
        cands: list[int | ir.Value] = []
        for v in operands:
            t = ir.RankedTensorType(v.type)
            i = d - (rt.rank - t.rank)
            if i < 0 or (t.shape[i] == 1 and rt.shape[d] != 1):
                continue
            cands.append(t.shape[i] if t.shape[i] != DYN else tensor.dim(v, index(i)))
        if rt.shape[d] != DYN:
            cands.append(rt.shape[d])
        sizes.append(same_size(cands, f"{what}: operand sizes of result dim {d}") if cands else 1)
    return sizes


def elementwise(
    operands: Sequence[ir.Value], result_type: ir.Type, body: Body, *, upcast: bool = True
) -> ir.Value:
    """One linalg.generic computing ``body`` over broadcast operands.

    With ``upcast`` float operands narrower than f32 reach ``body`` as f32 and
    a float result is rounded back to the result element type. Dynamic dims follow
    :func:`broadcast_sizes`.
    """
    rt = ranked_tensor(result_type)
    if rt is None:
        raise Unsupported("unranked result")
    in_types = []
    for v in operands:
        t = ranked_tensor(v.type)
        if t is None:
            raise Unsupported("unranked operand")
        if t.rank > rt.rank:
            raise Unsupported("operand rank exceeds result rank")
        in_types.append(t)
    for t in [*in_types, rt]:
        if kind(t.element_type) == "?":
            raise Unsupported(f"element type {t.element_type}")
    out_elem = rt.element_type
    if rt.has_static_shape and all(t.has_static_shape for t in in_types):
        init = tensor.EmptyOp(rt.shape, out_elem).result
    else:
        sizes = broadcast_sizes(operands, rt, "elementwise operands")
        operands = [fit(v, [sizes[d + rt.rank - t.rank] if t.shape[d] != 1 or rt.shape[d + rt.rank - t.rank] == 1
                            else None for d in range(t.rank)]) for v, t in zip(operands, in_types)]
        in_types = [ir.RankedTensorType(v.type) for v in operands]
        init = empty(sizes, out_elem)
        # Sizes may be static where the inferred type says ?, or the reverse: the generic's type is
        # its init's, cast to the op's type (dims agree at run time; checked where they may not).
    maps = [broadcast_map(t, rt) for t in in_types] + [ir.AffineMap.get_identity(rt.rank)]
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    gen_t = ir.RankedTensorType(init.type)
    generic = linalg.GenericOp(
        [gen_t],
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
    result = generic.result
    if gen_t != rt:
        result = tensor.CastOp(rt, result).result
    return result


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
    or expand_shape when a reassociation exists, else through a rank-1 tensor.
    With ``?`` dims: :func:`reshape_dynamic`."""
    st = ir.RankedTensorType(x.type)
    if not st.has_static_shape or not rt.has_static_shape:
        return reshape_dynamic(x, rt)
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


def collapse_groups(x: ir.Value, groups: list[list[int]]) -> ir.Value:
    """``tensor.collapse_shape`` of ``x`` by ``groups`` (a group with a ``?`` dim gives ``?``)."""
    st = ir.RankedTensorType(x.type)
    shape = [DYN if any(st.shape[d] == DYN for d in g) else math.prod(st.shape[d] for d in g) for g in groups]
    return collapse(x, ir.RankedTensorType.get(shape, st.element_type), groups)


def expand_groups(x: ir.Value, groups: list[list[int]], sizes: Sequence[int | ir.Value]) -> ir.Value:
    """``tensor.expand_shape`` of ``x`` into ``sizes`` (ints, or index values for ``?`` dims)."""
    st = ir.RankedTensorType(x.type)
    rt = ir.RankedTensorType.get([s if isinstance(s, int) else DYN for s in sizes], st.element_type)
    if any(sum(not isinstance(sizes[d], int) for d in g) > 1 for g in groups):
        # memref.expand_shape allows one run-time size per group (expand-strided-metadata asserts,
        # aborting the process, on more): tensor.reshape to a shape tensor instead (memref.reshape).
        i64 = ir.IntegerType.get_signless(64)
        dims = [arith.constant(i64, s) if isinstance(s, int) else arith.index_cast(i64, s) for s in sizes]
        shape = tensor.from_elements(ir.RankedTensorType.get([len(sizes)], i64), dims)
        return tensor.ReshapeOp(rt, x, shape).result
    return tensor.ExpandShapeOp(rt, x, groups, [s for s in sizes if not isinstance(s, int)],
                                [s if isinstance(s, int) else DYN for s in sizes]).result


def reshape_dynamic(x: ir.Value, rt: ir.RankedTensorType) -> ir.Value:
    """``x`` (some ``?`` dims) reshaped to ``rt`` (same element count at run time), the result's
    run-time sizes read as :func:`ge_mlir.irutils.types.reshape_rule` says."""
    from ....irutils.types import reshape_groups, reshape_rule

    st = ir.RankedTensorType(x.type)
    src, dst = list(st.shape), list(rt.shape)
    if src == dst:
        return x
    opt = lambda shape: [None if d == DYN else d for d in shape]  # noqa: E731
    rule = reshape_rule(opt(src), opt(dst))
    if rule is None:
        raise Unsupported(f"reshape {st} -> {rt}: its type does not say which ? is which")
    if rule == "static":
        # A run-time shape pinned to a static one: the element counts must agree (checked); the
        # flattened input is fitted to the static count so that no later read leaves it.
        n = math.prod(dst)
        flat = collapse_groups(x, [list(range(len(src)))]) if len(src) != 1 else x
        from .shape_checks import require_equal

        require_equal([dim_sizes(flat)[0], index(n)], f"reshape {st} -> {rt}: the element counts")
        return reshape_to(fit(flat, [n]), rt)
    if rule == "groups":
        sg, dg = reshape_groups(opt(src)), reshape_groups(opt(dst))
        mid = collapse_groups(x, sg) if len(sg) != len(src) else x
        out: list[int | ir.Value] = []
        for g, m in zip(dg, dim_sizes(mid)):
            out.extend(m if dst[d] == DYN else dst[d] for d in g)
        return expand_groups(mid, dg, out) if len(dg) != len(dst) else mid
    sizes = dim_sizes(x)
    copies = ([i for i, d in enumerate(dst) if d == DYN and i < len(src) and src[i] == DYN]
              if rule == "copies" else [])
    rest = [i for i, d in enumerate(dst) if d == DYN and i not in copies]
    out_sizes: list[int | ir.Value] = [sizes[i] if i in copies else d for i, d in enumerate(dst)]
    total = product(sizes)
    known = product([v for i, v in enumerate(out_sizes) if i != rest[0]])
    if isinstance(known, int) and known == 0:
        out_sizes[rest[0]] = index(0)
    else:
        # Floor division: never more elements than the input (a remainder is a wrong run-time
        # shape, reported by the check).
        q = arith.divsi(as_index(total), as_index(known))
        out_sizes[rest[0]] = q
        from .shape_checks import require_equal

        require_equal([as_index(total), arith.muli(q, as_index(known))], f"reshape {st} -> {rt}: the element counts")
    flat = collapse_groups(x, [list(range(len(src)))]) if len(src) != 1 else x
    if len(dst) == 1:
        return flat
    return expand_groups(flat, [list(range(len(dst)))], out_sizes)


def as_type(v: ir.Value, t: ir.RankedTensorType) -> ir.Value:
    """``v`` with the (equally or less static) result type the op declares (a ``tensor.cast``
    where the lowering computed more static, or ``?``, dims than the declared type has)."""
    return v if v.type == t else tensor.CastOp(t, v).result


def product(values: "Sequence[int | ir.Value]") -> int | ir.Value:
    """The product of static sizes and index values (an int when all are static)."""
    total: int | ir.Value = 1
    for v in values:
        total = (total * v if isinstance(total, int) and isinstance(v, int)
                 else arith.muli(as_index(total), as_index(v)))
    return total


def transpose(x: ir.Value, perm: Sequence[int]) -> ir.Value:
    """linalg.transpose (result dim i is input dim perm[i]); identity perms are free."""
    st = ir.RankedTensorType(x.type)
    if list(perm) == list(range(st.rank)):
        return x
    rt = ir.RankedTensorType.get([st.shape[p] for p in perm], st.element_type)
    if not st.has_static_shape:
        sizes = dim_sizes(x)
        init = empty([sizes[p] for p in perm], rt.element_type)
        return linalg.transpose(x, outs=[init], permutation=list(perm)).results[0]
    init = tensor.EmptyOp(list(rt.shape), rt.element_type).result
    return linalg.transpose(x, outs=[init], permutation=list(perm)).results[0]
