"""Lowerings of the ge ops that read or write at indices given as data: gather,
gather_elements, scatter_elements and one_hot.

* gather, gather_elements, one_hot: a ``linalg.generic`` over the result whose
  body computes source indices and reads with ``tensor.extract`` (gather also
  takes ``?`` dims);
* scatter_elements: nested ``scf.for`` loops carrying the result tensor
  (``tensor.extract``/``tensor.insert``), in index order, so later updates win.

Gathered indices follow ONNX: negative values count from the end. Values still
out of range after that are clamped (gather, gather_elements), so a bad index
reads some element of the input instead of faulting; scatter_elements skips
such updates and one_hot yields an all-``off`` row. The CPU target adds a
run-time check by default (``check-bounds``, :mod:`..bounds_checks`) that
turns such indices into an ``ExecutionError`` instead, as onnxruntime does.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith, scf, tensor

from ....irutils.attrs import attr_enum, attr_float, attr_int
from .common import Unsupported, as_type, const, convert_float, dim_sizes, kind, lowering, signless
from .movement_common import (_cast, _dims_map, _extract, _generic, _identity, _index, _norm_axis, _operand, _ranked,
    _result, _scalar, _static, _to_index, _wrap_clamp)


def _index_tensor(v: ir.Value, dynamic: bool = False) -> ir.RankedTensorType:
    t = _ranked(v.type) if dynamic else _static(v)
    et = t.element_type
    if not (isinstance(et, ir.IntegerType) and ir.IntegerType(et).is_signless and ir.IntegerType(et).width in (32, 64)):
        raise Unsupported(f"index element type {et}")
    return t


@lowering("gather")
def _lower_gather(op: ir.OpView) -> ir.Value:
    data, indices = _operand(op, 0), _operand(op, 1)
    if not all(_ranked(v.type).has_static_shape for v in (data, indices, op.results[0])):
        return _gather_dynamic(op)
    dt, it, rt = _static(data), _index_tensor(indices), _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    q = it.rank
    d = dt.shape[axis]

    def body(args, index):
        if d == 0:  # every index is out of range (the bounds check fails the call): nothing to read
            return const(dt.element_type, 0)
        i = _wrap_clamp(_to_index(args[0]), d)
        idx = [index(k) for k in range(axis)] + [i] + [index(axis + q + k) for k in range(dt.rank - axis - 1)]
        return _extract(data, idx)

    return _generic(rt, [(indices, _dims_map(rt.rank, range(axis, axis + q)))], body)


def _gather_dynamic(op: ir.OpView) -> ir.Value:
    """gather with ``?`` dims (an embedding lookup of [batch, seq] ids): the result's sizes are the
    data's outside the axis and the indices' (run-time bounds checks as for static shapes)."""
    data, indices = _operand(op, 0), _operand(op, 1)
    dt, it, rt = _ranked(data.type), _index_tensor(indices, dynamic=True), _ranked(op.results[0].type)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    q = it.rank
    dsz, isz = dim_sizes(data), dim_sizes(indices)
    d = dsz[axis]
    sizes = [*dsz[:axis], *isz, *dsz[axis + 1:]]

    def body(args, index):
        if isinstance(d, int) and d == 0:  # every index is out of range (the bounds check fails the call)
            return const(dt.element_type, 0)
        i = _wrap_clamp(_to_index(args[0]), d)
        idx = [index(k) for k in range(axis)] + [i] + [index(axis + q + k) for k in range(dt.rank - axis - 1)]
        return _extract(data, idx)

    out = _generic(rt, [(indices, _dims_map(rt.rank, range(axis, axis + q)))], body, sizes)
    return as_type(out, rt)


@lowering("gather_elements")
def _lower_gather_elements(op: ir.OpView) -> ir.Value:
    data, indices = _operand(op, 0), _operand(op, 1)
    dt, it, rt = _static(data), _index_tensor(indices), _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    if 0 in dt.shape:
        raise Unsupported("gather from an empty tensor")
    d = dt.shape[axis]
    del it

    def body(args, index):
        i = _wrap_clamp(_to_index(args[0]), d)
        return _extract(data, [i if k == axis else index(k) for k in range(rt.rank)])

    return _generic(rt, [(indices, _identity(rt.rank))], body)


def _combine(reduction: str, et: ir.Type) -> Callable[[ir.Value, ir.Value], ir.Value]:
    k = kind(et)
    if reduction == "none":
        return lambda old, new: new
    if k in ("b", "?"):
        raise Unsupported(f"scatter reduction {reduction} on {et}")
    if k == "f":
        fns = {"add": arith.addf, "mul": arith.mulf, "max": arith.maximumf, "min": arith.minimumf}
    elif k == "s":
        fns = {"add": arith.addi, "mul": arith.muli, "max": arith.maxsi, "min": arith.minsi}
    else:
        fns = {"add": arith.addi, "mul": arith.muli, "max": arith.maxui, "min": arith.minui}
    fn = fns[reduction]

    def combine(old: ir.Value, new: ir.Value) -> ir.Value:
        if k == "f":
            ct = ir.F32Type.get() if ir.FloatType(et).width < 32 else et
            return convert_float(fn(convert_float(old, ct), convert_float(new, ct)), et)
        s = signless(et)
        return _cast(fn(_cast(old, s), _cast(new, s)), et)

    return combine


@lowering("scatter_elements")
def _lower_scatter_elements(op: ir.OpView) -> ir.Value:
    data, indices, updates = _operand(op, 0), _operand(op, 1), _operand(op, 2)
    dt, it, _ = _static(data), _index_tensor(indices), _static(updates)
    _result(op)
    axis = _norm_axis(attr_int(op, "axis", 0), dt.rank)
    reduction = attr_enum(op, "reduction", "none")
    if reduction not in ("none", "add", "mul", "max", "min"):
        raise Unsupported(f"scatter reduction {reduction}")
    combine = _combine(reduction, dt.element_type)
    if 0 in it.shape:
        return data
    d = dt.shape[axis]
    one = _index(1)
    zero = _index(0)

    def build(level: int, ivs: list[ir.Value], acc: ir.Value) -> ir.Value:
        if level == it.rank:
            u = _extract(updates, ivs)
            i = _to_index(_extract(indices, ivs))
            i = arith.select(arith.cmpi(arith.CmpIPredicate.slt, i, zero), arith.addi(i, _index(d)), i)
            valid = arith.andi(
                arith.cmpi(arith.CmpIPredicate.sge, i, zero), arith.cmpi(arith.CmpIPredicate.slt, i, _index(d))
            )
            i = arith.minsi(arith.maxsi(i, zero), _index(d - 1))
            pos = [i if k == axis else ivs[k] for k in range(it.rank)]
            old = _extract(acc, pos)
            new = arith.select(valid, combine(old, u), old)
            return tensor.InsertOp(new, acc, pos).result
        loop = scf.ForOp(zero, _index(it.shape[level]), one, [acc])
        with ir.InsertionPoint(loop.body):
            res = build(level + 1, [*ivs, loop.induction_variable], loop.inner_iter_args[0])
            scf.YieldOp([res])
        return loop.results[0]

    return build(0, [], data)


# --------------------------------------------------------------------------
# one_hot
# --------------------------------------------------------------------------


@lowering("one_hot")
def _lower_one_hot(op: ir.OpView) -> ir.Value:
    indices = _operand(op, 0)
    it, rt = _index_tensor(indices), _result(op)
    et = rt.element_type
    if kind(et) == "?":
        raise Unsupported(f"element type {et}")
    depth = attr_int(op, "depth", 1)
    on, off = attr_float(op, "on_value", 1.0), attr_float(op, "off_value", 0.0)
    if isinstance(et, ir.IntegerType) and not (math.isfinite(on) and math.isfinite(off)):
        raise Unsupported("non-finite on/off value for an integer result")
    axis = _norm_axis(attr_int(op, "axis", -1), rt.rank)
    in_dims = [d for d in range(rt.rank) if d != axis]
    conv = (lambda v: v) if isinstance(et, ir.FloatType) else int

    def body(args, index):
        i = _to_index(args[0])
        i = arith.select(arith.cmpi(arith.CmpIPredicate.slt, i, _index(0)), arith.addi(i, _index(depth)), i)
        hit = arith.cmpi(arith.CmpIPredicate.eq, i, index(axis))
        return arith.select(hit, _scalar(et, conv(on)), _scalar(et, conv(off)))

    del it
    return _generic(rt, [(indices, _dims_map(rt.rank, in_dims))], body)
