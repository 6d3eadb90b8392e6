"""Lowerings of reductions, arg-reductions, softmax, normalizations, cumsum,
top_k and global pools to linalg on tensors.

Every reduction is a ``linalg.generic`` whose reduced loops have the
``reduction`` iterator type and whose init is a ``linalg.fill`` of the neutral
element, so the CPU target can tile and vectorize it. Semantics:

* ``axes`` is normalized like the verifier does (negative axes count from the
  end, empty means every axis; a rank-0 input is reduced over nothing);
  ``keepdims`` results come from a ``tensor.expand_shape`` of the reduced
  tensor, or from the indexing map of the final elementwise step when there
  is one;
* f16/bf16 accumulate in f32 and round the result back; integer sums and
  products wrap in the element type (numpy with ``dtype=x.dtype``); integer
  ``reduce_mean`` and ``global_avg_pool`` divide the exact sum (accumulated
  in i64) by the count, truncating toward zero, and convert back;
* float max/min propagate NaN (``arith.maximumf``/``minimumf``, as numpy);
  ``argmax``/``argmin`` treat NaN as the extreme value (numpy: the index of
  the first NaN); ties give the first index, or the last with
  ``select_last_index``. The choice compares (value, index) pairs, so it does
  not depend on the order in which the reduction visits the elements;
* ``softmax``/``log_softmax`` subtract the row max before ``exp``;
  ``layer_norm``/``instance_norm`` compute the mean first and the variance as
  the mean of squared deviations (two passes, no cancellation);
* ``top_k`` orders by value (NaN above every number, as a sort does) and then
  by index, lower first; the result is always sorted (also for
  ``sorted = false``, where any order is allowed). It is computed by k
  selection steps in an ``scf.for``: step s picks the best element that comes
  after the one picked in step s - 1 in that total order -- O(k n) per row;
* ``cumsum`` (``cumprod``) is an ``scf.for`` along the axis carrying the running sum (product) of one
  slice (O(n), not the O(n^2) masked reduction).
"""

from __future__ import annotations

import math as _pymath
from collections.abc import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, linalg, scf, tensor
from mlir.dialects import math as mmath

from .common import (
    DYN,
    Unsupported,
    dim_sizes,
    broadcast_map,
    as_type,
    expand_groups,
    ranked_tensor,
    product,
    compute_type,
    const,
    convert_float,
    kind,
    lowering,
    signless,
    static_tensor,
    width,
)
from ....irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints

_PAR = "#linalg.iterator_type<parallel>"
_RED = "#linalg.iterator_type<reduction>"
I64_MAX = 2**63 - 1

# --------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------


def _to_compute(x: ir.Value, et: ir.Type) -> ir.Value:
    """A block argument of element type ``et`` as a value ``arith`` computes with."""
    if signless(et) != et:
        x = _cast(x, signless(et))
    if kind(et) == "f":
        x = convert_float(x, compute_type(et))
    return x


def _from_compute(y: ir.Value, et: ir.Type) -> ir.Value:
    if kind(et) == "f":
        return convert_float(y, et)
    if signless(et) != et:
        return _cast(y, et)
    return y


def _cast(x: ir.Value, t: ir.Type) -> ir.Value:
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[t], operands=[x]).result


def _scalar(t: ir.Type, value: float) -> ir.Value:
    """A constant of element type ``t`` (si/ui built signless and cast)."""
    if kind(t) == "f":
        return const(t, value)
    c = const(signless(t), _wrap(int(value), width(t)))
    return c if signless(t) == t else _cast(c, t)


def _wrap(v: int, w: int) -> int:
    """``v`` as the signed ``w``-bit integer with the same bits."""
    v &= (1 << w) - 1
    return v - (1 << w) if v >= 1 << (w - 1) else v


def _int_bounds(t: ir.Type) -> tuple[int, int]:
    w = width(t)
    return (0, 2**w - 1) if kind(t) == "u" else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)


def _filled(shape: "Sequence[int | ir.Value]", elem: ir.Type, value: float) -> ir.Value:
    empty = tensor.EmptyOp(list(shape), elem).result
    return linalg.fill(_scalar(elem, value), outs=[empty])


def _map(rank: int, dims: Sequence[int]) -> ir.AffineMap:
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])


def _generic(
    inputs: Sequence[ir.Value],
    inits: Sequence[ir.Value],
    maps: Sequence[ir.AffineMap],
    iterators: Sequence[str],
    body: Callable[[list[ir.Value]], Sequence[ir.Value]],
) -> list[ir.Value]:
    """A linalg.generic; ``body`` gets the raw block arguments and returns the yields."""
    op = linalg.GenericOp(
        [v.type for v in inits],
        list(inputs),
        list(inits),
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([ir.Attribute.parse(i) for i in iterators]),
    )
    types = [ir.RankedTensorType(v.type).element_type for v in [*inputs, *inits]]
    block = op.regions[0].blocks.append(*types)
    with ir.InsertionPoint(block):
        linalg.YieldOp(list(body(list(block.arguments))))
    return list(op.results)


def _index_i64(dim: int) -> ir.Value:
    return arith.index_cast(ir.IntegerType.get_signless(64), linalg.IndexOp(dim).result)


def _normalize(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def _kept(reduced: Sequence[bool]) -> list[int]:
    return [d for d, r in enumerate(reduced) if not r]


def _reduce(
    inputs: Sequence[ir.Value],
    maps: Sequence[ir.AffineMap],
    shape: "Sequence[int | ir.Value]",
    reduced: Sequence[bool],
    acc_elem: ir.Type,
    neutral: float,
    combine: Callable[[list[ir.Value], ir.Value], ir.Value],
) -> ir.Value:
    """Reduces over the loops ``shape`` (the ``reduced`` ones) into a tensor of the kept dims.

    ``combine(inputs, acc)`` gets the input elements and the accumulator in
    compute types and returns the new accumulator.
    """
    rank = len(shape)
    kept = _kept(reduced)
    init = _filled([shape[d] for d in kept], acc_elem, neutral)
    in_elems = [ir.RankedTensorType(v.type).element_type for v in inputs]

    def body(args: list[ir.Value]) -> list[ir.Value]:
        xs = [_to_compute(a, t) for a, t in zip(args, in_elems)]
        acc = _to_compute(args[-1], acc_elem)
        return [_from_compute(combine(xs, acc), acc_elem)]

    iters = [_RED if r else _PAR for r in reduced]
    return _generic(inputs, [init], [*maps, _map(rank, kept)], iters, body)[0]


def _expand_keepdims(acc: ir.Value, out_type: ir.RankedTensorType, reduced: Sequence[bool]) -> ir.Value:
    """Reinserts the reduced dims (size 1) of ``out_type`` into ``acc``."""
    if ir.RankedTensorType(acc.type).shape == out_type.shape:
        return acc
    groups: list[list[int]] = []
    lead: list[int] = []
    for d, r in enumerate(reduced):
        if r:
            (groups[-1] if groups else lead).append(d)
        else:
            groups.append([*lead, d])
            lead = []
    if not groups:  # every dim reduced: rank 0 -> all ones, no reassociation
        return tensor.ExpandShapeOp(out_type, acc, ir.ArrayAttr.get([]), [], list(out_type.shape)).result
    kept_sizes = iter(dim_sizes(acc))
    sizes = [1 if r else next(kept_sizes) for r in reduced]
    return as_type(expand_groups(acc, groups, sizes), out_type)


def _finish(
    acc: ir.Value,
    acc_elem: ir.Type,
    reduced: Sequence[bool],
    out_type: ir.RankedTensorType,
    post: Callable[[ir.Value], ir.Value] | None = None,
) -> ir.Value:
    """The result from the accumulator: ``post`` (in compute types), rounding, keepdims."""
    out_elem = out_type.element_type
    if post is None and acc_elem == out_elem:
        return _expand_keepdims(acc, out_type, reduced)
    rank = out_type.rank
    keep = rank == len(reduced) and rank != len(_kept(reduced))
    in_map = _map(rank, _kept(reduced)) if keep else ir.AffineMap.get_identity(rank)

    def body(args: list[ir.Value]) -> list[ir.Value]:
        y = _to_compute(args[0], acc_elem)
        if post is not None:
            y = post(y)
        return [_from_compute(y, out_elem)]

    if keep:
        kept_sizes = iter(dim_sizes(acc))
        sizes = [1 if r else next(kept_sizes) for r in reduced]
    else:
        sizes = dim_sizes(acc)
    init = tensor.EmptyOp(sizes, out_elem).result
    out = _generic([acc], [init], [in_map, ir.AffineMap.get_identity(rank)], [_PAR] * rank, body)[0]
    return as_type(out, out_type)


def _acc_elem(elem: ir.Type) -> ir.Type:
    """Accumulator element type: f32 for f16/bf16; integers keep their (si/ui) type."""
    return compute_type(elem) if kind(elem) == "f" else elem


def _static(v: ir.Value, what: str) -> ir.RankedTensorType:
    t = static_tensor(v.type)
    if t is None:
        raise Unsupported(f"dynamic {what}")
    return t


# --------------------------------------------------------------------------
# Scalar combiners
# --------------------------------------------------------------------------


def _add(a: ir.Value, b: ir.Value) -> ir.Value:
    return arith.addf(a, b) if isinstance(a.type, ir.FloatType) else arith.addi(a, b)


def _mul(a: ir.Value, b: ir.Value) -> ir.Value:
    return arith.mulf(a, b) if isinstance(a.type, ir.FloatType) else arith.muli(a, b)


def _max_fn(k: str) -> Callable[[ir.Value, ir.Value], ir.Value]:
    return {"f": arith.maximumf, "s": arith.maxsi, "u": arith.maxui}[k]


def _min_fn(k: str) -> Callable[[ir.Value, ir.Value], ir.Value]:
    return {"f": arith.minimumf, "s": arith.minsi, "u": arith.minui}[k]


def _lowest(elem: ir.Type) -> float:
    return -_pymath.inf if kind(elem) == "f" else _int_bounds(elem)[0]


def _highest(elem: ir.Type) -> float:
    return _pymath.inf if kind(elem) == "f" else _int_bounds(elem)[1]


def _div_count(k: str, count: int | ir.Value) -> Callable[[ir.Value], ir.Value]:
    """Division by the element count (an index value when a reduced dim is ``?``)."""
    if not isinstance(count, int):
        i64 = ir.IntegerType.get_signless(64)

        def runtime(s: ir.Value) -> ir.Value:
            c = arith.index_cast(i64, count)
            if k == "f":
                return arith.divf(s, arith.sitofp(s.type, c))
            c = c if width(s.type) == 64 else arith.trunci(s.type, c)
            # An empty integer mean is 0 (the sum), not a trapping division: divide by max(c, 1).
            c = arith.maxsi(c, const(s.type, 1))
            return (arith.divsi if k == "s" else arith.divui)(s, c)

        return runtime
    if k == "f":
        return lambda s: arith.divf(s, const(s.type, float(count)))
    if count == 0:  # an empty integer mean: 0 (the sum) rather than a trapping division
        return lambda s: s
    div = arith.divsi if k == "s" else arith.divui
    return lambda s: div(s, const(s.type, _wrap(count, width(s.type))))


# --------------------------------------------------------------------------
# reduce_* and global pools
# --------------------------------------------------------------------------

_REDUCE_KINDS = ("sum", "mean", "max", "min", "prod", "l2")


def _reduction(x: ir.Value, out_type: ir.RankedTensorType, reduced: list[bool], what: str) -> ir.Value:
    """``what`` in _REDUCE_KINDS over the ``reduced`` dims of ``x``; checks come first."""
    it = ranked_tensor(x.type)
    if it is None:
        raise Unsupported("unranked input")
    elem = it.element_type
    k = kind(elem)
    if k not in "fsu" or (what == "l2" and k != "f"):
        raise Unsupported(f"{what} of {elem}")
    if out_type.element_type != elem:
        raise Unsupported("result element type differs from the input's")
    shape = dim_sizes(x)
    static = list(it.shape)
    kept_shape = [static[d] for d in _kept(reduced)]
    keep_shape = [1 if r else n for n, r in zip(static, reduced)]
    if not any(_compatible(out_type.shape, want) for want in (kept_shape, keep_shape)):
        raise Unsupported(f"result shape {list(out_type.shape)}")
    count = product([n for n, r in zip(shape, reduced) if r])
    acc_elem = _acc_elem(elem)
    post = None
    if what == "mean" and k != "f":
        # The integer mean is of the exact sum: accumulate in i64, then
        # divide and truncate back to the element type.
        acc_elem = ir.IntegerType.get_signless(64)
        ext = arith.extsi if k == "s" else arith.extui

        def combine(xs: list[ir.Value], acc: ir.Value) -> ir.Value:
            x = xs[0] if width(elem) == 64 else ext(acc_elem, xs[0])
            return arith.addi(acc, x)

        div = _div_count(k, count)
        esl = signless(elem)

        def post(s: ir.Value) -> ir.Value:
            q = div(s)
            return q if width(elem) == 64 else arith.trunci(esl, q)

        neutral: float = 0
    elif what in ("sum", "mean", "l2"):
        neutral = 0
        if what == "l2":
            def combine(xs: list[ir.Value], acc: ir.Value) -> ir.Value:
                return arith.addf(acc, arith.mulf(xs[0], xs[0]))
            post = mmath.sqrt
        else:
            def combine(xs: list[ir.Value], acc: ir.Value) -> ir.Value:
                return _add(acc, xs[0])
            if what == "mean":
                post = _div_count(k, count)
    elif what == "prod":
        neutral = 1

        def combine(xs: list[ir.Value], acc: ir.Value) -> ir.Value:
            return _mul(acc, xs[0])
    else:
        fn = _max_fn(k) if what == "max" else _min_fn(k)
        neutral = _lowest(elem) if what == "max" else _highest(elem)

        def combine(xs: list[ir.Value], acc: ir.Value) -> ir.Value:
            return fn(acc, xs[0])

    rank = it.rank
    acc = _reduce([x], [ir.AffineMap.get_identity(rank)], shape, reduced, acc_elem, neutral, combine)
    return _finish(acc, acc_elem, reduced, out_type, post)


def _compatible(shape: Sequence[int], want: Sequence[int]) -> bool:
    """A declared result shape that the computed one (``?`` allowed on both sides) can be cast to."""
    return len(shape) == len(want) and all(a == b or DYN in (a, b) for a, b in zip(shape, want))


@lowering(*(f"reduce_{w}" for w in _REDUCE_KINDS))
def lower_reduce(op: ir.OpView) -> ir.Value:
    what = op.operation.name.removeprefix("ge.reduce_")
    it = ranked_tensor(op.operands[0].type)
    out_type = ranked_tensor(op.results[0].type)
    if it is None or out_type is None:
        raise Unsupported("unranked tensors")
    rank = it.rank
    reduced = [False] * rank
    axes = attr_ints(op, "axes", []) or []
    for a in axes:
        n = _normalize(a, max(rank, 1))
        if rank:
            reduced[n] = True
    if not axes:
        reduced = [True] * rank
    keepdims = attr_bool(op, "keepdims", True)
    expected = [1 if r else n for n, r in zip(it.shape, reduced)] if keepdims else [
        n for n, r in zip(it.shape, reduced) if not r
    ]
    if not _compatible(out_type.shape, expected):
        raise Unsupported(f"result shape {list(out_type.shape)}, expected {expected}")
    return _reduction(op.operands[0], out_type, reduced, what)


_CHANNELS_FIRST = ("NCHW", "NCDHW", "ND")
_CHANNELS_LAST = ("NHWC", "NDHWC")


def _channel_dim(op: ir.OpView, rank: int) -> int:
    fmt = attr_enum(op, "data_format", "NCHW")
    if fmt in _CHANNELS_FIRST:
        return 1
    if fmt in _CHANNELS_LAST:
        return rank - 1
    raise Unsupported(f"data_format {fmt}")


@lowering("global_avg_pool", "global_max_pool")
def lower_global_pool(op: ir.OpView) -> ir.Value:
    it = _static(op.operands[0], "input shape")
    out_type = _static(op.results[0], "result shape")
    rank = it.rank
    if rank < 3:
        raise Unsupported("rank < 3")
    c = _channel_dim(op, rank)
    reduced = [d not in (0, c) for d in range(rank)]
    what = "mean" if op.operation.name == "ge.global_avg_pool" else "max"
    return _reduction(op.operands[0], out_type, reduced, what)


# --------------------------------------------------------------------------
# argmax / argmin
# --------------------------------------------------------------------------


def _precedes(
    k: str, largest: bool, *, nan_best: bool, last: bool = False
) -> Callable[[ir.Value, ir.Value, ir.Value, ir.Value], ir.Value]:
    """``(a, ia) before (b, ib)``: the better value first (larger for
    ``largest``), ties by the lower index (the higher one with ``last``).

    Floats: NaN comes before every number with ``nan_best``, after them
    otherwise; NaNs tie with each other. A total order, so a selection by it
    does not depend on the order the elements are visited in.
    """
    if k == "f":
        ordered = arith.CmpFPredicate.OGT if largest else arith.CmpFPredicate.OLT

        def better(a: ir.Value, b: ir.Value) -> tuple[ir.Value, ir.Value]:
            nan_a = arith.cmpf(arith.CmpFPredicate.UNO, a, a)
            nan_b = arith.cmpf(arith.CmpFPredicate.UNO, b, b)
            num_a = arith.cmpf(arith.CmpFPredicate.ORD, a, a)
            num_b = arith.cmpf(arith.CmpFPredicate.ORD, b, b)
            by_nan = arith.andi(nan_a, num_b) if nan_best else arith.andi(num_a, nan_b)
            tie = arith.ori(arith.cmpf(arith.CmpFPredicate.OEQ, a, b), arith.andi(nan_a, nan_b))
            return arith.ori(arith.cmpf(ordered, a, b), by_nan), tie
    else:
        u = k == "u"
        pred = {
            (True, False): arith.CmpIPredicate.sgt, (False, False): arith.CmpIPredicate.slt,
            (True, True): arith.CmpIPredicate.ugt, (False, True): arith.CmpIPredicate.ult,
        }[(largest, u)]

        def better(a: ir.Value, b: ir.Value) -> tuple[ir.Value, ir.Value]:
            return arith.cmpi(pred, a, b), arith.cmpi(arith.CmpIPredicate.eq, a, b)

    index_pred = arith.CmpIPredicate.sgt if last else arith.CmpIPredicate.slt

    def before(a: ir.Value, ia: ir.Value, b: ir.Value, ib: ir.Value) -> ir.Value:
        gt, eq = better(a, b)
        return arith.ori(gt, arith.andi(eq, arith.cmpi(index_pred, ia, ib)))

    return before


@lowering("argmax", "argmin")
def lower_arg_reduce(op: ir.OpView) -> ir.Value:
    it = _static(op.operands[0], "input shape")
    out_type = _static(op.results[0], "result shape")
    elem = it.element_type
    k = kind(elem)
    if k not in "fsu":
        raise Unsupported(f"element type {elem}")
    rank = it.rank
    axis = _normalize(attr_int(op, "axis", 0), max(rank, 1))
    last = attr_bool(op, "select_last_index", False)
    i64 = ir.IntegerType.get_signless(64)
    if rank == 0:
        if list(out_type.shape) != []:
            raise Unsupported("rank-0 input with a non-scalar result")
        return arith.constant(out_type, ir.DenseElementsAttr.get_splat(out_type, ir.IntegerAttr.get(i64, 0)))
    reduced = [d == axis for d in range(rank)]
    keepdims = attr_bool(op, "keepdims", True)
    expected = [1 if r else n for n, r in zip(it.shape, reduced)] if keepdims else [
        n for n, r in zip(it.shape, reduced) if not r
    ]
    if list(out_type.shape) != expected:
        raise Unsupported(f"result shape {list(out_type.shape)}")
    largest = op.operation.name == "ge.argmax"
    # numpy's argmax and argmin both return the first NaN.
    before = _precedes(k, largest, nan_best=True, last=last)
    kept = _kept(reduced)
    row = [it.shape[d] for d in kept]
    # The initial (value, index) loses against every element: the worst value
    # and an index past every real one (in the tie-break's direction).
    worst = _lowest(elem) if largest else _highest(elem)
    val_init = _filled(row, elem, worst)
    idx_init = _filled(row, i64, -1 if last else I64_MAX)

    def body(args: list[ir.Value]) -> list[ir.Value]:
        x, bv, bi = args
        j = _index_i64(axis)
        take = before(_to_compute(x, elem), j, _to_compute(bv, elem), bi)
        return [arith.select(take, x, bv), arith.select(take, j, bi)]

    out_map = _map(rank, kept)
    _, idx = _generic(
        [op.operands[0]], [val_init, idx_init], [ir.AffineMap.get_identity(rank), out_map, out_map],
        [_RED if r else _PAR for r in reduced], body,
    )
    return _expand_keepdims(idx, out_type, reduced)


# --------------------------------------------------------------------------
# softmax / log_softmax
# --------------------------------------------------------------------------


def _float_input(op: ir.OpView) -> tuple[ir.RankedTensorType, ir.Type]:
    """The input type of a row-wise float op (``?`` dims allowed: the result type must be the same)."""
    t = op.operands[0].type
    if not isinstance(t, ir.RankedTensorType):
        raise Unsupported("unranked input")
    it = ir.RankedTensorType(t)
    if kind(it.element_type) != "f":
        raise Unsupported(f"element type {it.element_type}")
    if op.results[0].type != it:
        raise Unsupported("result type differs from the input's")
    return it, it.element_type


def _REASSOC() -> ir.Attribute:  # noqa: N802 (an attribute constant of the current context)
    return ir.Attribute.parse("#arith.fastmath<reassoc>")


@lowering("softmax", "log_softmax")
def lower_softmax(op: ir.OpView) -> ir.Value:
    it, elem = _float_input(op)
    rank = it.rank
    axis = _normalize(attr_int(op, "axis", -1), rank)
    x = op.operands[0]
    shape = list(it.shape) if it.has_static_shape else dim_sizes(x)
    reduced = [d == axis for d in range(rank)]
    ident = ir.AffineMap.get_identity(rank)
    row_map = _map(rank, _kept(reduced))
    acc = compute_type(elem)
    m = _reduce([x], [ident], shape, reduced, acc, -_pymath.inf, lambda xs, a: arith.maximumf(a, xs[0]))
    log = op.operation.name == "ge.log_softmax"
    if not log:
        # exp once, in a loop of its own (it vectorizes; inside the sum's loop it could not), then
        # the row sums with reassociation allowed (vector partial sums, as onnxruntime's MLAS adds;
        # rows are never split over threads, so each sum is the same on 1 and N threads).
        e = _generic([x, m], [tensor.EmptyOp(shape, acc).result], [ident, row_map, ident], [_PAR] * rank,
                     lambda args: [mmath.exp(arith.subf(_to_compute(args[0], elem), args[1]))])[0]
        s = _reduce([e], [ident], shape, reduced, acc, 0.0,
                    lambda xs, a: arith.addf(a, xs[0], fastmath=_REASSOC()))
        return _generic([e, s], [tensor.EmptyOp(shape, elem).result], [ident, row_map, ident], [_PAR] * rank,
                        lambda args: [_from_compute(arith.divf(args[0], args[1]), elem)])[0]
    s = _reduce(
        [x, m], [ident, row_map], shape, reduced, acc, 0.0,
        lambda xs, a: arith.addf(a, mmath.exp(arith.subf(xs[0], xs[1]))),
    )

    def body(args: list[ir.Value]) -> list[ir.Value]:
        xv = _to_compute(args[0], elem)
        d = arith.subf(xv, args[1])
        y = arith.subf(d, mmath.log(args[2])) if log else arith.divf(mmath.exp(d), args[2])
        return [_from_compute(y, elem)]

    init = tensor.EmptyOp(shape, elem).result
    return _generic([x, m, s], [init], [ident, row_map, row_map, ident], [_PAR] * rank, body)[0]


# --------------------------------------------------------------------------
# Normalizations
# --------------------------------------------------------------------------


def _param_map(p: ir.Value, it: ir.RankedTensorType, elem: ir.Type) -> ir.AffineMap:
    """Right-aligned broadcast of a normalization parameter over the input's loops."""
    pt = _static(p, "parameter shape")
    if pt.element_type != elem or pt.rank > it.rank:
        raise Unsupported("parameter type")
    off = it.rank - pt.rank
    for i, n in enumerate(pt.shape):
        if n != 1 and n != it.shape[off + i]:  # also a ? dim of the input: its size is not known to fit
            raise Unsupported("parameter shape")
    return broadcast_map(pt, it)


def _channel_map(p: ir.Value, it: ir.RankedTensorType, elem: ir.Type, c: int) -> ir.AffineMap:
    pt = _static(p, "parameter shape")
    if pt.element_type != elem or pt.rank != 1 or pt.shape[0] not in (1, it.shape[c]):
        raise Unsupported("parameter type")
    if pt.shape[0] == 1 and it.shape[c] != 1:
        return ir.AffineMap.get(it.rank, 0, [ir.AffineConstantExpr.get(0)])
    return _map(it.rank, [c])


def _moments(
    x: ir.Value, it: ir.RankedTensorType, reduced: list[bool], rms: bool
) -> tuple[ir.Value, tuple[ir.Value, ir.Value] | None, int]:
    """(sum of squared deviations, or of squares for ``rms``; the sum and the
    correction sum of the mean (:func:`_corrected_mean`), or None for rms; count)."""
    if any(n == DYN for n, r in zip(it.shape, reduced) if r):
        raise Unsupported("normalized dims of run-time size")
    shape = list(it.shape) if it.has_static_shape else dim_sizes(x)
    rank = it.rank
    ident = ir.AffineMap.get_identity(rank)
    acc = compute_type(it.element_type)
    count = _pymath.prod(n for n, r in zip(shape, reduced) if r)
    if rms:
        sq = _reduce([x], [ident], shape, reduced, acc, 0.0, lambda xs, a: arith.addf(a, arith.mulf(xs[0], xs[0])))
        return sq, None, count
    s = _reduce([x], [ident], shape, reduced, acc, 0.0, lambda xs, a: arith.addf(a, xs[0]))
    row = _map(rank, _kept(reduced))
    # Corrected two-pass mean: mean = s/n + sum(x - s/n)/n. The correction
    # makes the mean of a constant row that constant exactly, so its deviations
    # are 0 rather than rounding noise that 1/sqrt(eps) amplifies (ge-fuzz:
    # 2e-5 where onnxruntime, accumulating in double, gives 0).
    c = _reduce([x, s], [ident, row], shape, reduced, acc, 0.0,
                lambda xs, a: arith.addf(a, arith.subf(xs[0], arith.divf(xs[1], const(a.type, float(count))))))

    def dev2(xs: list[ir.Value], a: ir.Value) -> ir.Value:
        d = arith.subf(xs[0], _corrected_mean(xs[1], xs[2], count))
        return arith.addf(a, arith.mulf(d, d))

    sq = _reduce([x, s, c], [ident, row, row], shape, reduced, acc, 0.0, dev2)
    return sq, (s, c), count


def _corrected_mean(s: ir.Value, c: ir.Value, count: int) -> ir.Value:
    n = const(s.type, float(count))
    return arith.addf(arith.divf(s, n), arith.divf(c, n))


def _normalize_out(
    x: ir.Value,
    it: ir.RankedTensorType,
    reduced: list[bool],
    eps: float,
    rms: bool,
    params: list[tuple[ir.Value, ir.AffineMap]],
    has_bias: bool,
) -> ir.Value:
    """(x - mean) / sqrt(var + eps) * scale [+ bias] (x / sqrt(mean(x^2) + eps) * scale for rms)."""
    sq, s, count = _moments(x, it, reduced, rms)
    rank = it.rank
    elem = it.element_type
    ident = ir.AffineMap.get_identity(rank)
    row_map = _map(rank, _kept(reduced))
    stats = [sq] if s is None else [sq, *s]

    def body(args: list[ir.Value]) -> list[ir.Value]:
        xv = _to_compute(args[0], elem)
        t = xv.type
        n = const(t, float(count))
        if rms:
            d, var = xv, arith.divf(args[1], n)
            rest = args[2:]
        else:
            d = arith.subf(xv, _corrected_mean(args[2], args[3], count))
            var = arith.divf(args[1], n)
            rest = args[4:]
        y = arith.divf(d, mmath.sqrt(arith.addf(var, const(t, eps))))
        y = arith.mulf(y, _to_compute(rest[0], elem))
        if has_bias:
            y = arith.addf(y, _to_compute(rest[1], elem))
        return [_from_compute(y, elem)]

    init = tensor.EmptyOp(list(it.shape) if it.has_static_shape else dim_sizes(x), elem).result
    maps = [ident, *[row_map] * len(stats), *[m for _, m in params], ident]
    return _generic([x, *stats, *[p for p, _ in params]], [init], maps, [_PAR] * rank, body)[0]


@lowering("layer_norm", "rms_norm")
def lower_layer_norm(op: ir.OpView) -> ir.Value:
    it, elem = _float_input(op)
    rank = it.rank
    axis = _normalize(attr_int(op, "axis", -1), rank)
    rms = op.operation.name == "ge.rms_norm"
    eps = attr_float(op, "epsilon", 1e-6 if rms else 1e-5)
    params = [(p, _param_map(p, it, elem)) for p in list(op.operands)[1:]]
    reduced = [d >= axis for d in range(rank)]
    return _normalize_out(op.operands[0], it, reduced, eps, rms, params, len(params) == 2)


@lowering("instance_norm")
def lower_instance_norm(op: ir.OpView) -> ir.Value:
    it, elem = _float_input(op)
    if not it.has_static_shape:
        raise Unsupported("run-time shape")
    rank = it.rank
    if rank < 3:
        raise Unsupported("rank < 3")
    eps = attr_float(op, "epsilon", 1e-5)
    params = [(p, _channel_map(p, it, elem, 1)) for p in list(op.operands)[1:3]]
    reduced = [d >= 2 for d in range(rank)]
    return _normalize_out(op.operands[0], it, reduced, eps, False, params, True)


@lowering("batch_norm")
def lower_batch_norm(op: ir.OpView) -> ir.Value:
    it, elem = _float_input(op)
    if not it.has_static_shape:
        raise Unsupported("run-time shape")
    rank = it.rank
    if rank < 2:
        raise Unsupported("rank < 2")
    c = _channel_dim(op, rank)
    eps = attr_float(op, "epsilon", 1e-5)
    params = list(op.operands)[1:5]  # scale, bias, mean, variance
    maps = [_channel_map(p, it, elem, c) for p in params]

    def body(args: list[ir.Value]) -> list[ir.Value]:
        x, scale, bias, mean, var = (_to_compute(a, elem) for a in args[:5])
        t = x.type
        y = arith.divf(arith.subf(x, mean), mmath.sqrt(arith.addf(var, const(t, eps))))
        return [_from_compute(arith.addf(arith.mulf(y, scale), bias), elem)]

    ident = ir.AffineMap.get_identity(rank)
    init = tensor.EmptyOp(list(it.shape), elem).result
    return _generic([op.operands[0], *params], [init], [ident, *maps, ident], [_PAR] * rank, body)[0]


# --------------------------------------------------------------------------
# cumsum and top_k: scf.for over the axis on tensors
# --------------------------------------------------------------------------


def _index(v: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), v)


def _slice_offsets(rank: int, axis: int, at: ir.Value) -> tuple[list[ir.Value], list[int]]:
    dyn = ir.ShapedType.get_dynamic_size()
    return [at], [dyn if d == axis else 0 for d in range(rank)]


def _extract(src: ir.Value, shape: list[int], axis: int, at: ir.Value, drop: bool = False) -> ir.Value:
    """The slice at ``at`` along ``axis``; ``drop`` removes that (size-1) dim."""
    rank = len(shape)
    sizes = [1 if d == axis else n for d, n in enumerate(shape)]
    elem = ir.RankedTensorType(src.type).element_type
    rshape = [n for d, n in enumerate(sizes) if d != axis] if drop else sizes
    offs, static = _slice_offsets(rank, axis, at)
    return tensor.ExtractSliceOp(
        ir.RankedTensorType.get(rshape, elem), src, offs, [], [], static, sizes, [1] * rank
    ).result


def _insert(src: ir.Value, dest: ir.Value, shape: list[int], axis: int, at: ir.Value) -> ir.Value:
    rank = len(shape)
    sizes = [1 if d == axis else n for d, n in enumerate(shape)]
    offs, static = _slice_offsets(rank, axis, at)
    return tensor.InsertSliceOp(src, dest, offs, [], [], static, sizes, [1] * rank).result


@lowering("cumsum")
def lower_cumsum(op: ir.OpView) -> ir.Value:
    return _cumulative(op, 0, _add)


@lowering("cumprod")
def lower_cumprod(op: ir.OpView) -> ir.Value:
    return _cumulative(op, 1, _mul)


def _cumulative(op: ir.OpView, identity: float, combine: Callable[[ir.Value, ir.Value], ir.Value]) -> ir.Value:
    it = _static(op.operands[0], "input shape")
    elem = it.element_type
    if kind(elem) not in "fsu" or _static(op.results[0], "result shape") != it:
        raise Unsupported(f"element type {elem}")
    rank = it.rank
    axis = _normalize(attr_int(op, "axis", 0), rank)
    exclusive = attr_bool(op, "exclusive", False)
    reverse = attr_bool(op, "reverse", False)
    shape = list(it.shape)
    n = shape[axis]
    acc_elem = _acc_elem(elem)
    slice_shape = [1 if d == axis else s for d, s in enumerate(shape)]
    ident = ir.AffineMap.get_identity(rank)
    x = op.operands[0]

    run0 = _filled(slice_shape, acc_elem, identity)
    out0 = tensor.EmptyOp(shape, elem).result
    loop = scf.ForOp(_index(0), _index(n), _index(1), [out0, run0])
    with ir.InsertionPoint(loop.body):
        t = loop.induction_variable
        out, run = loop.inner_iter_args
        at = arith.subi(_index(n - 1), t) if reverse else t
        xs = _extract(x, shape, axis, at)

        def body(args: list[ir.Value]) -> list[ir.Value]:
            xv, old = _to_compute(args[0], elem), _to_compute(args[1], acc_elem)
            new = combine(old, xv)
            return [_from_compute(new, acc_elem), _from_compute(old if exclusive else new, elem)]

        # Both outputs are written in place -- the running sum into the
        # loop-carried tensor (bufferization wants scf.for iter_args yielded
        # in place), the result into its slice of `out` -- so no buffer copy
        # into a strided view (a memrefCopy runtime call) is needed.
        new_run, piece = _generic(
            [xs], [run, _extract(out, shape, axis, at)], [ident] * 3, [_PAR] * rank, body,
        )
        scf.YieldOp([_insert(piece, out, shape, axis, at), new_run])
    return loop.results[0]


@lowering("top_k")
def lower_top_k(op: ir.OpView) -> list[ir.Value]:
    it = _static(op.operands[0], "input shape")
    elem = it.element_type
    k = kind(elem)
    if k not in "fsu":
        raise Unsupported(f"element type {elem}")
    rank = it.rank
    axis = _normalize(attr_int(op, "axis", -1), rank)
    count = attr_int(op, "k", 0)
    shape = list(it.shape)
    out_shape = [count if d == axis else s for d, s in enumerate(shape)]
    vt, idt = _static(op.results[0], "values shape"), _static(op.results[1], "indices shape")
    if list(vt.shape) != out_shape or vt.element_type != elem or list(idt.shape) != out_shape:
        raise Unsupported("result types")
    if not 0 <= count <= shape[axis]:
        raise Unsupported(f"k = {count}")
    largest = attr_bool(op, "largest", True)
    i64 = ir.IntegerType.get_signless(64)
    reduced = [d == axis for d in range(rank)]
    kept = _kept(reduced)
    row = [shape[d] for d in kept]
    # NaN ranks above every number (as a sort puts it): first for largest.
    before = _precedes(k, largest, nan_best=largest)
    # Step 0's "previous pick" precedes every element: the best value (NaN for
    # largest floats, which ranks first) with index -1.
    if k == "f":
        first_val = _pymath.nan if largest else -_pymath.inf
        worst_val = -_pymath.inf if largest else _pymath.nan
    else:
        first_val = _highest(elem) if largest else _lowest(elem)
        worst_val = _lowest(elem) if largest else _highest(elem)
    # Every output position starts as a sentinel that every element beats;
    # step s writes its pick there in place and copies it into the carried
    # "previous pick", which starts as a value preceding every element.
    vals0 = _filled(out_shape, elem, worst_val)
    idxs0 = _filled(out_shape, i64, I64_MAX)
    prev_val0 = _filled(row, elem, first_val)
    prev_idx0 = _filled(row, i64, -1)
    ident = ir.AffineMap.get_identity(rank)
    row_map = _map(rank, kept)
    row_ident = ir.AffineMap.get_identity(rank - 1)

    def body(args: list[ir.Value]) -> list[ir.Value]:
        x, pv, pi, bv, bi = args
        j = _index_i64(axis)
        xc = _to_compute(x, elem)
        after_prev = before(_to_compute(pv, elem), pi, xc, j)
        better = before(xc, j, _to_compute(bv, elem), bi)
        take = arith.andi(after_prev, better)
        return [arith.select(take, x, bv), arith.select(take, j, bi)]

    loop = scf.ForOp(_index(0), _index(count), _index(1), [vals0, idxs0, prev_val0, prev_idx0])
    with ir.InsertionPoint(loop.body):
        s = loop.induction_variable
        vals, idxs, pv, pi = loop.inner_iter_args
        bv, bi = _generic(
            [op.operands[0], pv, pi],
            [_extract(vals, out_shape, axis, s, True), _extract(idxs, out_shape, axis, s, True)],
            [ident, row_map, row_map, row_map, row_map],
            [_RED if r else _PAR for r in reduced], body,
        )
        new_pv, new_pi = _generic(
            [bv, bi], [pv, pi], [row_ident] * 4, [_PAR] * (rank - 1), lambda a: a[:2],
        )
        scf.YieldOp([
            _insert(bv, vals, out_shape, axis, s), _insert(bi, idxs, out_shape, axis, s), new_pv, new_pi,
        ])
    return [loop.results[0], loop.results[1]]
