"""Lowering of ge.resize (static shapes).

Resize follows onnx's reference implementation (separable, one axis at a time,
edge-clamped neighbours). Shapes are static, so the per-axis source indices
and interpolation weights are computed here (in float64, as the reference
does) and embedded as constant tables; linear/cubic accumulate in f32 (f64
for f64 and integer data) and round once into the result type.
"""

from __future__ import annotations

import math

import numpy as np
from mlir import ir
from mlir.dialects import arith
from mlir.dialects import math as mmath

from ....irutils.attrs import attr_enum, attr_float
from ....irutils.resize import resize_tables
from .common import Unsupported, convert_float, kind, lowering, signless
from .movement_common import _cast, _dims_map, _extract, _generic, _operand, _result, _static, _to_index


def _const_table(values: np.ndarray, et: ir.Type) -> ir.Value:
    t = ir.RankedTensorType.get(list(values.shape), et)
    if isinstance(et, ir.FloatType):
        arr = values.astype(np.float64 if ir.FloatType(et).width == 64 else np.float32)
    else:
        arr = values.astype(np.int64)
    return arith.constant(t, ir.DenseElementsAttr.get(np.ascontiguousarray(arr), type=t))


@lowering("resize")
def _lower_resize(op: ir.OpView) -> ir.Value:
    x = _operand(op, 0)
    st, rt = _static(x), _result(op)
    et = st.element_type
    k = kind(et)
    mode = attr_enum(op, "mode", "nearest")
    coord = attr_enum(op, "coordinate_transformation_mode", "half_pixel")
    nearest = attr_enum(op, "nearest_mode", "round_prefer_floor")
    a = attr_float(op, "cubic_coeff_a", -0.75)
    if mode not in ("nearest", "linear", "cubic"):
        raise Unsupported(f"resize mode {mode}")
    if coord == "tf_crop_and_resize":
        raise Unsupported("tf_crop_and_resize needs roi")
    if k not in ("f", "s", "u"):
        raise Unsupported(f"element type {et}")
    if 0 in st.shape:
        raise Unsupported("empty input")
    attrs = op.operation.attributes
    if "scales" in attrs:
        scales = [float(s) for s in ir.DenseF32ArrayAttr(attrs["scales"])]
    else:
        scales = [o / i for o, i in zip(rt.shape, st.shape)]
    axes = [
        d for d in range(st.rank)
        if not (math.isclose(scales[d], 1.0) and rt.shape[d] == st.shape[d])
    ]
    tables = {d: resize_tables(st.shape[d], rt.shape[d], scales[d], mode, coord, nearest, a) for d in axes}
    if not axes:
        return x
    i64 = ir.IntegerType.get_signless(64)

    if mode == "nearest":
        # One gather: out[i] = x[src_0[i_0], src_1[i_1], ...].
        picks = {}
        for d, (idx, w) in tables.items():
            picks[d] = idx[np.arange(idx.shape[0]), np.argmax(w, axis=1)]
        ins = [(_const_table(picks[d], i64), _dims_map(rt.rank, [d])) for d in axes]

        def nbody(args, index):
            src = dict(zip(axes, args))
            idx = [_to_index(src[d]) if d in src else index(d) for d in range(rt.rank)]
            return _extract(x, idx)

        return _generic(rt, ins, nbody)

    # linear/cubic: one weighted generic per resized axis.
    if k == "f":
        ct = ir.F64Type.get() if ir.FloatType(et).width == 64 else ir.F32Type.get()
    else:
        ct = ir.F64Type.get()
    cur = x
    shape = list(st.shape)
    for n_ax, d in enumerate(axes):
        idx, w = tables[d]
        shape[d] = rt.shape[d]
        last = n_ax == len(axes) - 1
        out_t = ir.RankedTensorType.get(shape, et if last else ct)
        n = idx.shape[1]
        ins = [(_const_table(idx[:, j], i64), _dims_map(rt.rank, [d])) for j in range(n)]
        ins += [(_const_table(w[:, j], ct), _dims_map(rt.rank, [d])) for j in range(n)]
        src = cur

        def body(args, index, d=d, n=n, src=src, last=last):
            acc = None
            for j in range(n):
                pos = [_to_index(args[j]) if q == d else index(q) for q in range(rt.rank)]
                v = _extract(src, pos)
                v = _to_compute(v, ct)
                term = arith.mulf(args[n + j], v)
                acc = term if acc is None else arith.addf(acc, term)
            return _from_compute(acc, et) if last else acc

        cur = _generic(out_t, ins, body)
    return cur


def _to_compute(v: ir.Value, ct: ir.Type) -> ir.Value:
    t = v.type
    if isinstance(t, ir.FloatType):
        return convert_float(v, ct)
    s = signless(t)
    v = _cast(v, s)
    return arith.uitofp(ct, v) if ir.IntegerType(t).is_unsigned else arith.sitofp(ct, v)


def _from_compute(v: ir.Value, et: ir.Type) -> ir.Value:
    if isinstance(et, ir.FloatType):
        return convert_float(v, et)
    # Integers: round half to even and saturate (onnx saturate_cast).
    it = ir.IntegerType(et)
    w = it.width
    lo, hi = (0, 2**w - 1) if it.is_unsigned else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)
    v = mmath.roundeven(v)
    v = arith.maximumf(v, arith.constant(v.type, float(lo)))
    v = arith.minimumf(v, arith.constant(v.type, float(hi)))
    s = signless(et)
    y = arith.fptoui(s, v) if it.is_unsigned else arith.fptosi(s, v)
    return _cast(y, et)
