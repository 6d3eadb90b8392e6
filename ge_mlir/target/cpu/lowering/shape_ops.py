"""Lowerings of the ge ops that read or build shapes and index ranges: shape,
dynamic_reshape (its shape read at run time, checked), fill (a run-time shape)
and range (a run-time limit gives a ``?`` size).
"""

from __future__ import annotations

import math

import numpy as np
from mlir import ir
from mlir.dialects import arith, linalg, tensor
from mlir.dialects import math as mmath

from ....irutils.attrs import attr_bool, attr_int
from .common import (DYN, Unsupported, as_type, collapse, convert_float, dim_sizes, empty, fit, kind, lowering,
    reshape_to, signless)
from .movement_common import _cast, _extract, _generic, _index, _operand, _ranked, _result, _static, _value


@lowering("shape")
def _lower_shape(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    rt = _result(op)
    t = _ranked(x.type) if isinstance(x.type, ir.RankedTensorType) else None
    if t is None:
        raise Unsupported("unranked input")
    rank = t.rank
    start, end = attr_int(op, "start", 0), attr_int(op, "end", None)

    def clamp(v: int) -> int:
        return max(0, min(rank, v + rank if v < 0 else v))

    s = clamp(start)
    e = clamp(end) if end is not None else rank
    dims = list(t.shape)[s : max(s, e)]
    if DYN in dims:  # run-time sizes: tensor.dim of the input
        i64 = ir.IntegerType.get_signless(64)
        sizes = dim_sizes(x)[s: max(s, e)]
        elems = [arith.constant(i64, v) if isinstance(v, int) else arith.index_cast(i64, v) for v in sizes]
        return tensor.from_elements(rt, elems)
    values = np.array(dims, dtype=np.int64).reshape(rt.shape)
    return arith.constant(rt, ir.DenseElementsAttr.get(values, type=rt))


@lowering("dynamic_reshape")
def _lower_dynamic_reshape(op: ir.OpView) -> ir.Value:
    """ONNX Reshape with its shape read at run time (0 copies unless allowzero, one -1 is the
    remainder). The sizes are checked: against the result's static dims, and the element count;
    when a check fails the view covers no more elements than the input has."""
    from .shape_checks import require_equal

    x, shape = _operand(op, 0), _operand(op, 1)
    st, rt = _ranked(x.type), _ranked(op.results[0].type)
    if _static(shape).element_type != ir.IntegerType.get_signless(64):
        raise Unsupported("shape element type")
    allowzero = attr_bool(op, "allowzero", False)
    if st.rank == 0 and not rt.has_static_shape:
        raise Unsupported("a scalar to a run-time shape")
    idx = ir.IndexType.get()
    in_sizes = dim_sizes(x)
    total = _index(1)
    for v in in_sizes:
        total = arith.muli(total, _index(v) if isinstance(v, int) else v)
    raw = [arith.index_cast(idx, _extract(shape, [_index(i)])) for i in range(rt.rank)]
    minus1 = _index(-1)
    sizes = []
    for i, r in enumerate(raw):
        s = r
        if not allowzero and i < st.rank:
            copy = in_sizes[i]
            s = arith.select(arith.cmpi(arith.CmpIPredicate.eq, r, _index(0)),
                             _index(copy) if isinstance(copy, int) else copy, r)
        sizes.append(s)
    # known = product of the sizes that are not -1; the -1 (at most one) is total / known.
    known = _index(1)
    n_minus = _index(0)
    for s in sizes:
        is_m = arith.cmpi(arith.CmpIPredicate.eq, s, minus1)
        known = arith.muli(known, arith.select(is_m, _index(1), arith.maxsi(s, _index(0))))
        n_minus = arith.addi(n_minus, arith.select(is_m, _index(1), _index(0)))
    safe_known = arith.maxsi(known, _index(1))
    rem = arith.divsi(total, safe_known)
    final = [arith.select(arith.cmpi(arith.CmpIPredicate.eq, s, minus1), rem, arith.maxsi(s, _index(0)))
             for s in sizes]
    product = _index(1)
    for f in final:
        product = arith.muli(product, f)
    require_equal([n_minus, arith.minsi(n_minus, _index(1))], "dynamic_reshape: more than one -1 in the shape")
    require_equal([product, total], "dynamic_reshape: the element counts of the input and the shape")
    ok = arith.cmpi(arith.CmpIPredicate.eq, product, total)
    out_sizes: list[int | ir.Value] = []
    for i, f in enumerate(final):
        if rt.shape[i] != DYN:
            require_equal([_index(rt.shape[i]), f], f"dynamic_reshape: size {i} against the static result dim")
            out_sizes.append(rt.shape[i])
        else:
            # A wrong shape gets size 0 here: the view then reads nothing.
            out_sizes.append(arith.select(ok, f, _index(0)))
    if rt.has_static_shape:
        if st.has_static_shape:
            return reshape_to(x, rt)
        # Static result of a run-time input: a checked copy of at most the input's elements.
        flat = collapse(x, ir.RankedTensorType.get([DYN], st.element_type), [list(range(st.rank))]) \
            if st.rank != 1 else x
        flat = fit(flat, [math.prod(rt.shape)])
        return reshape_to(flat, rt)
    flat = collapse(x, ir.RankedTensorType.get([DYN if not st.has_static_shape else math.prod(st.shape)],
                                               st.element_type), [list(range(st.rank))]) if st.rank != 1 else x
    from .common import expand_groups

    out = expand_groups(flat, [list(range(rt.rank))], out_sizes)
    return as_type(out, rt)


@lowering("fill")
def _lower_fill(op: ir.OpView) -> ir.Value:
    value, shape = _operand(op, 0), _operand(op, 1)
    rt = _ranked(op.results[0].type)
    i64 = ir.IntegerType.get_signless(64)
    if _static(shape).element_type != i64:
        raise Unsupported("shape element type")
    from .shape_checks import require_equal

    sizes: list[int | ir.Value] = []
    for i in range(rt.rank):
        n = arith.index_cast(ir.IndexType.get(), _extract(shape, [_index(i)]))
        # A negative size (invalid ONNX) would allocate a huge buffer: 0 instead, and the check fails.
        safe = arith.maxsi(n, _index(0))
        require_equal([safe, n], f"fill: size {i} of the shape operand (negative)")
        if rt.shape[i] != DYN:
            require_equal([_index(rt.shape[i]), safe], f"fill: size {i} against the static result dim")
            sizes.append(rt.shape[i])
        else:
            sizes.append(safe)
    v = _extract(value, [_index(0) for _ in range(ir.RankedTensorType(value.type).rank)])
    out = _value(linalg.fill(v, outs=[empty(sizes, rt.element_type)]))
    return as_type(out, rt)


@lowering("range")
def _lower_range(op: ir.OpView) -> ir.Value:
    start, delta = _operand(op, 0), _operand(op, 2)
    rt0 = _ranked(op.results[0].type)
    st, dlt = _static(start), _static(delta)
    rt = rt0 if rt0.has_static_shape else None
    et = rt0.element_type
    k = kind(et)
    if k not in ("f", "s", "u"):
        raise Unsupported(f"element type {et}")

    def body(args, index):
        s = _extract(start, [_index(0) for _ in range(st.rank)])
        dl = _extract(delta, [_index(0) for _ in range(dlt.rank)])
        i = index(0)
        if k == "f":
            ct = ir.F32Type.get() if ir.FloatType(et).width < 32 else et
            fi = arith.sitofp(ct, arith.index_cast(ir.IntegerType.get_signless(64), i))
            y = arith.addf(convert_float(s, ct), arith.mulf(fi, convert_float(dl, ct)))
            return convert_float(y, et)
        sl = signless(et)
        ii = arith.index_cast(sl, i)
        return _cast(arith.addi(_cast(s, sl), arith.muli(ii, _cast(dl, sl))), et)

    if rt is None:
        # A run-time limit (torch.arange(x.shape[1])): max(ceil((limit - start) / delta), 0) elements.
        return _generic(rt0, [], body, [_range_count(start, _operand(op, 1), delta, et)])
    return _generic(rt, [], body)


def _range_count(start: ir.Value, limit: ir.Value, delta: ir.Value, et: ir.Type) -> ir.Value:
    def scalar(v: ir.Value) -> ir.Value:
        return _extract(v, [_index(0) for _ in range(ir.RankedTensorType(v.type).rank)])

    s, lim, dl = scalar(start), scalar(limit), scalar(delta)
    if kind(et) == "f":
        f64 = ir.F64Type.get()
        s, lim, dl = (arith.extf(f64, v) if ir.FloatType(v.type).width < 64 else v for v in (s, lim, dl))
        n = arith.fptosi(ir.IntegerType.get_signless(64), mmath.ceil(arith.divf(arith.subf(lim, s), dl)))
    else:
        sl = signless(et)
        s, lim, dl = (_cast(v, sl) for v in (s, lim, dl))
        if ir.IntegerType(sl).width < 64:
            i64 = ir.IntegerType.get_signless(64)
            s, lim, dl = (arith.extsi(i64, v) for v in (s, lim, dl))
        # A zero delta is invalid ONNX; it counts 0 elements here instead of dividing by zero.
        zero = arith.constant(s.type, 0)
        safe = arith.select(arith.cmpi(arith.CmpIPredicate.eq, dl, zero), arith.constant(s.type, 1), dl)
        n = arith.ceildivsi(arith.subi(lim, s), safe)
        n = arith.select(arith.cmpi(arith.CmpIPredicate.eq, dl, zero), zero, n)
    n = arith.maxsi(n, arith.constant(n.type, 0))
    return arith.index_cast(ir.IndexType.get(), n)
