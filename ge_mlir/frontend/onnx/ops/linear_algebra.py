"""Linear-algebra ONNX ops: MatMul, Gemm, the integer matmuls (MatMulInteger,
QLinearMatMul), Einsum and Det."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter
from ._shapes import _cast, _f32, _is_float, _reshape, _shape_of


def _transpose(v: ir.Value, perm: Sequence[int]) -> ir.Value:
    if list(perm) == list(range(len(perm))):
        return v
    return ge.transpose(v, list(perm))


@converter("MatMul")
def matmul(ctx):
    return ge.matmul(ctx.input(0), ctx.input(1))


@converter("Gemm", since=7)
def gemm(ctx):
    if ctx.rank(0) != 2 or ctx.rank(1) != 2:
        ctx.refuse(f"A and B must be 2-D, got ranks {ctx.rank(0)} and {ctx.rank(1)}")
    return ge.gemm(
        ctx.input(0), ctx.input(1), c=ctx.input(2),
        alpha=_f32(ctx.attr("alpha", 1.0)), beta=_f32(ctx.attr("beta", 1.0)),
        trans_a=bool(ctx.attr("transA", 0)), trans_b=bool(ctx.attr("transB", 0)),
    )


def _int_operand(ctx, i: int, zp_i: int, row_zp: bool) -> ir.Value:
    """Input ``i`` as i32 minus its zero point (scalar; or 1-D: per row of A, per column of B)."""
    i32 = ir.IntegerType.get_signless(32)
    v = _cast(ctx.input(i), i32)
    if not ctx.has_input(zp_i):
        return v
    zp = _cast(ctx.input(zp_i), i32)
    zs = ctx.shape(zp_i)
    if len(zs) == 1 and zs[0] > 1 and row_zp:
        zp = _reshape(zp, [zs[0], 1])
    elif len(zs) > 1:
        ctx.refuse(f"zero point of shape {zs} is neither per-tensor nor per-row/column")
    return ge.sub(v, zp)


def _int_matmul(ctx, a: int, a_zp: int, b: int, b_zp: int) -> ir.Value:
    for k in (a, b):
        if str(ctx.elem(k)) not in ("i8", "ui8"):
            ctx.refuse(f"input #{k} of type {ctx.input_type(k)} is not int8/uint8")
    return ge.matmul(_int_operand(ctx, a, a_zp, True), _int_operand(ctx, b, b_zp, False))


@converter("MatMulInteger", since=10, notes="i8/u8 minus zero points (per tensor, per row of A / column of B) "
           "as i32, ge.matmul in i32")
def matmul_integer(ctx):
    return _int_matmul(ctx, 0, 2, 1, 3)


@converter("QLinearMatMul", since=10, notes="the reference's order: i32 matmul of zero-point-shifted "
           "operands, times a_scale*b_scale/y_scale (in the scales' type) in f64, rounded half to even, "
           "plus y_zero_point, saturated")
def qlinear_matmul(ctx):
    c = _int_matmul(ctx, 0, 2, 3, 5)
    s_elem = ctx.elem(1)
    f64 = ir.F64Type.get()
    scale = ge.div(ge.mul(ctx.input(1), _cast(ctx.input(4), s_elem)), _cast(ctx.input(6), s_elem))
    d = ge.mul(_cast(c, f64), _cast(scale, f64))
    out_elem = ctx.elem(7)
    if str(out_elem) not in ("i8", "ui8"):
        ctx.refuse(f"y_zero_point of type {ctx.input_type(7)} is not int8/uint8")
    d = ge.round(ge.add(d, _cast(ctx.input(7), f64)))
    lo, hi = (-128.0, 127.0) if str(out_elem) == "i8" else (0.0, 255.0)
    d = ge.clip(d, min=ir.FloatAttr.get(f64, lo), max=ir.FloatAttr.get(f64, hi))
    return _cast(d, out_elem)


def _einsum_terms(ctx, eq: str, ranks: Sequence[int]) -> tuple[list[list[str]], list[str]]:
    """Input and output terms with '...' replaced by per-dim placeholder labels."""
    full = eq.replace(" ", "")
    lhs, arrow, rhs = full.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        ctx.invalid(f"equation {eq!r} has {len(terms)} input terms for {len(ranks)} inputs")
    n_ell = 0
    for t, r in zip(terms, ranks):
        if "..." in t:
            n_ell = max(n_ell, r - (len(t) - 3))
    ell = [f"...{k}" for k in range(n_ell)]  # placeholders align from the right, like numpy
    out_terms = []
    for t, r in zip(terms, ranks):
        if t.count("...") > 1 or "." in t.replace("...", ""):
            ctx.invalid(f"malformed equation {eq!r}")
        if "..." in t:
            pre, post = t.split("...")
            k = r - len(pre) - len(post)
            if k < 0:
                ctx.invalid(f"term {t!r} of {eq!r} has more labels than its input's rank {r}")
            labels = list(pre) + ell[n_ell - k:] + list(post)
        else:
            labels = list(t)
        if len(labels) != r:
            ctx.invalid(f"term {t!r} of {eq!r} does not match its input's rank {r}")
        if not all(c.isalpha() for c in t.replace("...", "")):
            ctx.invalid(f"malformed equation {eq!r}")
        out_terms.append(labels)
    if arrow:
        if rhs.count("...") > 1:
            ctx.invalid(f"malformed equation {eq!r}")
        if "..." in rhs:
            pre, post = rhs.split("...")
            out = list(pre) + ell + list(post)
        else:
            out = list(rhs)  # '...' dims, if any, are summed like other dropped labels
    else:
        counts: dict[str, int] = {}
        for labels in out_terms:
            for c in labels:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, k in counts.items() if k == 1 and not c.startswith("..."))
    return out_terms, out


@converter("Einsum", since=12, notes="one or two operands, forms that map to transpose + matmul + reshape")
def einsum(ctx):
    eq = ctx.attr("equation", "")
    vals = [v for v in ctx.inputs() if v is not None]
    if len(vals) not in (1, 2):
        ctx.refuse(f"equation {eq!r} has {len(vals)} operands; only 1 or 2 are supported")
    shapes = [_shape_of(v) for v in vals]
    if any(d < 0 for s in shapes for d in s):
        ctx.refuse(f"equation {eq!r}: operand shapes {shapes} must be static")
    terms, out = _einsum_terms(ctx, eq, [len(s) for s in shapes])
    if len(set(out)) != len(out):
        ctx.invalid(f"equation {eq!r} repeats an output label")
    for labels in terms:
        if len(set(labels)) != len(labels):
            ctx.refuse(f"equation {eq!r} takes a diagonal (a label repeated in one term), which is not supported")
    per = [dict(zip(labels, shape)) for labels, shape in zip(terms, shapes)]
    sizes: dict[str, int] = {}  # broadcast sizes
    for d in per:
        for c, n in d.items():
            sizes[c] = max(sizes.get(c, n), n)
    if any(c not in sizes for c in out):
        ctx.invalid(f"equation {eq!r} has an output label that no input has")

    # Sum out labels that only one operand has and the output does not keep.
    ops = []
    for k, (v, labels) in enumerate(zip(vals, terms)):
        others = set(out).union(*(set(t) for j, t in enumerate(terms) if j != k))
        drop = [i for i, c in enumerate(labels) if c not in others]
        if drop:
            v = ge.reduce_sum(v, axes=drop, keepdims=False)
            labels = [c for c in labels if c in others]
        ops.append((v, labels))

    if len(ops) == 1:
        v, labels = ops[0]
        return _transpose(v, [labels.index(c) for c in out])

    (a, la), (b, lb) = ops
    batch = [c for c in out if c in la and c in lb]
    a_free = [c for c in out if c in la and c not in lb]
    b_free = [c for c in out if c in lb and c not in la]
    contract = [c for c in la if c in lb and c not in out]
    for c in batch + contract:
        sa, sb = per[0][c], per[1][c]
        # Batch dims broadcast in ge.matmul; a broadcast contraction would not.
        if sa != sb and not (c in batch and 1 in (sa, sb)):
            ctx.refuse(
                f"equation {eq!r}: label {c!r} has sizes {sa} and {sb}; only batch labels (kept in the "
                "output) may broadcast"
            )
    m = int(np.prod([sizes[c] for c in a_free], dtype=np.int64))
    k = int(np.prod([sizes[c] for c in contract], dtype=np.int64))
    nn_ = int(np.prod([sizes[c] for c in b_free], dtype=np.int64))
    a = _reshape(_transpose(a, [la.index(c) for c in batch + a_free + contract]), [per[0][c] for c in batch] + [m, k])
    b = _reshape(_transpose(b, [lb.index(c) for c in batch + contract + b_free]), [per[1][c] for c in batch] + [k, nn_])
    y = ge.matmul(a, b)
    labels = batch + a_free + b_free
    y = _reshape(y, [sizes[c] for c in labels])
    return _transpose(y, [labels.index(c) for c in out])


# --- Det -------------------------------------------------------------------------------------------


@converter("Det", since=11, notes="matrices up to 4x4: the Leibniz sum over permutations (batched)")
def det(ctx):
    import itertools

    shape = ctx.shape(0)
    if len(shape) < 2 or shape[-1] != shape[-2] or shape[-1] < 0:
        ctx.refuse(f"Det needs [..., n, n] with a static n, got {ctx.input_type(0)}")
    n = shape[-1]
    if n > 4 or n < 1:
        ctx.refuse(f"Det of {n}x{n} matrices is not supported (up to 4x4: {n}! terms)")
    if not _is_float(ctx.elem(0)):
        ctx.refuse(f"Det of {ctx.elem(0)} is not supported")
    rank = len(shape)
    rows = [ge.gather(ctx.input(0), rt.i64_const(ctx, i), axis=rank - 2) for i in range(n)]
    entry = [[ge.gather(r, rt.i64_const(ctx, j), axis=rank - 2) for j in range(n)] for r in rows]
    total = None
    for perm in itertools.permutations(range(n)):
        term = entry[0][perm[0]]
        for i in range(1, n):
            term = ge.mul(term, entry[i][perm[i]])
        inversions = sum(1 for a in range(n) for b in range(a + 1, n) if perm[a] > perm[b])
        if total is None:
            total = term if inversions % 2 == 0 else ge.neg(term)
        else:
            total = ge.add(total, term) if inversions % 2 == 0 else ge.sub(total, term)
    return total
