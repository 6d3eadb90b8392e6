"""Reduction-family lowerings (ge-lower-to-linalg, reductions.py) run with
CpuExecutable against numpy.

Tolerances: f32 rtol 1e-5 / atol 1e-5 (not 1e-6: the lowering sums
sequentially while numpy sums pairwise, over up to a few hundred elements),
f64 rtol 1e-12, f16 rtol/atol 1e-3 against an f32 reference rounded to f16
(the lowering accumulates f16 in f32), integers exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import ge_mlir
from ge_mlir.target.cpu import CpuExecutable

RNG = np.random.default_rng(4321)

MLIR_TYPE = {
    np.float16: "f16", np.float32: "f32", np.float64: "f64", np.bool_: "i1",
    np.int8: "i8", np.int16: "i16", np.int32: "i32", np.int64: "i64",
    np.uint8: "ui8", np.uint16: "ui16", np.uint32: "ui32", np.uint64: "ui64",
}
SI16 = "si16"  # marker dtype: numpy int16 data in a `si16` tensor


def ttype(shape, dtype) -> str:
    dims = "".join(f"{d}x" for d in shape)
    elem = "si16" if dtype is SI16 else MLIR_TYPE[np.dtype(dtype).type]
    return f"tensor<{dims}{elem}>"


def np_dtype(dtype) -> np.dtype:
    return np.dtype(np.int16) if dtype is SI16 else np.dtype(dtype)


def compile_fn(body: str, args: list[tuple], results: list[tuple]) -> CpuExecutable:
    """`body` uses %a0.. for arguments and returns %r0..; args/results are (shape, dtype)."""
    params = ", ".join(f"%a{i}: {ttype(*a)}" for i, a in enumerate(args))
    rtypes = ", ".join(ttype(*r) for r in results)
    rets = ", ".join(f"%r{i}" for i in range(len(results)))
    text = f"func.func @f({params}) -> ({rtypes}) {{\n{body}\n  return {rets} : {rtypes}\n}}\n"
    with ir.Context():
        return CpuExecutable(ge_mlir.parse_module(text))


def check(got: np.ndarray, want: np.ndarray, dtype) -> None:
    want = np.asarray(want)
    assert got.shape == want.shape
    dt = np_dtype(dtype)
    if dt == np.float16:
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-3, atol=1e-3)
    elif dt == np.float32:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    elif dt == np.float64:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    else:
        assert got.dtype == dt
        np.testing.assert_array_equal(got, want.astype(dt))


def rand(shape, dtype, lo=-3.0, hi=3.0) -> np.ndarray:
    dt = np_dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return RNG.integers(max(int(lo), info.min), min(int(hi), info.max) + 1, size=shape).astype(dt)
    return RNG.uniform(lo, hi, size=shape).astype(dt)


def ref_float(fn, x, *rest):
    """Float reference computed in f64, rounded to x's type."""
    return np.asarray(fn(x.astype(np.float64), *[r.astype(np.float64) for r in rest])).astype(x.dtype)


def fmt_attrs(**attrs) -> str:
    parts = []
    for k, v in attrs.items():
        if isinstance(v, bool):
            parts.append(f"{k} = {str(v).lower()}")
        elif isinstance(v, list):
            parts.append(f"{k} = array<i64{': ' if v else ''}{', '.join(map(str, v))}>")
        elif isinstance(v, float):
            parts.append(f"{k} = {v!r} : f32")
        elif isinstance(v, str):
            parts.append(f"{k} = {v}")
        else:
            parts.append(f"{k} = {v} : i64")
    return "{" + ", ".join(parts) + "}"


# --------------------------------------------------------------------------
# reduce_*
# --------------------------------------------------------------------------


def reduced_shape(shape, axes, keepdims):
    rank = len(shape)
    red = {a % rank for a in axes} if axes and rank else set(range(rank))
    return tuple(1 if d in red else n for d, n in enumerate(shape) if keepdims or d not in red)


def np_axes(shape, axes):
    return tuple(a % len(shape) for a in axes) if axes else None


def int_mean(s: np.ndarray, count: int, dt: np.dtype) -> np.ndarray:
    s = s.astype(np.int64)
    q = np.abs(s) // count * np.sign(s)  # truncation toward zero (divsi/divui)
    return q.astype(dt)


def reduce_ref(name, x, axes, keepdims):
    ax = np_axes(x.shape, axes)
    dt = x.dtype
    if dt.kind == "f":
        fns = {
            "sum": lambda v: np.sum(v, axis=ax, keepdims=keepdims),
            "mean": lambda v: np.mean(v, axis=ax, keepdims=keepdims),
            "max": lambda v: np.max(v, axis=ax, keepdims=keepdims),
            "min": lambda v: np.min(v, axis=ax, keepdims=keepdims),
            "prod": lambda v: np.prod(v, axis=ax, keepdims=keepdims),
            "l2": lambda v: np.sqrt(np.sum(v * v, axis=ax, keepdims=keepdims)),
        }
        return ref_float(fns[name], x)
    if name == "mean":
        s = np.sum(x, axis=ax, keepdims=keepdims, dtype=np.int64)  # the exact sum
        return int_mean(s, x.size // max(s.size, 1), dt)
    fn = {"sum": np.sum, "max": np.max, "min": np.min, "prod": np.prod}[name]
    kw = {"dtype": dt} if name in ("sum", "prod") else {}
    return fn(x, axis=ax, keepdims=keepdims, **kw)


# (shape, axes, keepdims): all axes, negative, several, keepdims both ways, size-1 dims.
REDUCE_CONFIGS = [
    ((4, 5, 6), [], True),
    ((4, 5, 6), [-1], False),
    ((4, 5, 6), [0, 2], True),
    ((3, 1, 8), [1, 0], False),
]
REDUCE_NAMES = ["sum", "mean", "max", "min", "prod", "l2"]


def run_reduce(name, shape, axes, keepdims, dtype, x=None):
    out = reduced_shape(shape, axes, keepdims)
    attrs = fmt_attrs(axes=axes, keepdims=keepdims)
    exe = compile_fn(
        f"  %r0 = ge.reduce_{name} %a0 {attrs} : ({ttype(shape, dtype)}) -> {ttype(out, dtype)}",
        [(shape, dtype)], [(out, dtype)],
    )
    if x is None:
        lo, hi = (0.5, 1.5) if name == "prod" else (-3, 3)
        x = rand(shape, dtype, lo, hi)
    return exe(x)[0], x


@pytest.mark.parametrize("config", REDUCE_CONFIGS, ids=str)
@pytest.mark.parametrize("name", REDUCE_NAMES)
def test_reduce_f32(name, config):
    shape, axes, keepdims = config
    got, x = run_reduce(name, shape, axes, keepdims, np.float32)
    check(got, reduce_ref(name, x, axes, keepdims), np.float32)


@pytest.mark.parametrize("dtype", [np.float16, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", REDUCE_NAMES)
def test_reduce_f16_f64(name, dtype):
    shape, axes, keepdims = (6, 40), [1], True
    got, x = run_reduce(name, shape, axes, keepdims, dtype)
    # f16: the reference is computed in f64 and rounded once, as the f32 accumulator nearly is.
    check(got, reduce_ref(name, x, axes, keepdims), dtype)


INT_CASES = [np.int32, np.int8, np.uint8, np.int64, SI16, np.uint32]


@pytest.mark.parametrize("dtype", INT_CASES, ids=lambda d: d if isinstance(d, str) else np.dtype(d).name)
@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod"])
def test_reduce_int(name, dtype):
    shape, axes, keepdims = (3, 4, 5), [0, -1], False
    dt = np_dtype(dtype)
    lo, hi = (-100, 100) if dt.kind == "i" else (0, 250)
    x = rand(shape, dtype, lo, hi)  # int8/uint8 sums and products wrap, as numpy with dtype=
    got, _ = run_reduce(name, shape, axes, keepdims, dtype, x)
    check(got, reduce_ref(name, x, axes, keepdims), dtype)


def test_reduce_int_extremes():
    # Neutral elements at the type bounds: a row of INT_MIN (max) / UINT_MAX (min).
    x = np.array([[-128, -128, -128], [5, -7, 3]], np.int8)
    got, _ = run_reduce("max", x.shape, [1], False, np.int8, x)
    check(got, [-128, 5], np.int8)
    u = np.array([[255, 255], [0, 9]], np.uint8)
    got, _ = run_reduce("min", u.shape, [1], False, np.uint8, u)
    check(got, [255, 0], np.uint8)


@pytest.mark.parametrize("name", ["max", "min"])
def test_reduce_max_min_nan(name):
    x = rand((3, 6), np.float32)
    x[0, 2] = np.nan
    x[2, 5] = np.nan
    x[1] = -np.inf if name == "max" else np.inf
    got, _ = run_reduce(name, x.shape, [1], False, np.float32, x)
    want = reduce_ref(name, x, [1], False)
    assert np.isnan(got[0]) and np.isnan(got[2])
    check(got, want, np.float32)


def test_reduce_rank0():
    x = np.array(-2.5, np.float32)
    for name, want in [("sum", -2.5), ("l2", 2.5), ("max", -2.5)]:
        got, _ = run_reduce(name, (), [], True, np.float32, x)
        check(got, np.array(want, np.float32), np.float32)


# --------------------------------------------------------------------------
# argmax / argmin
# --------------------------------------------------------------------------


def arg_ref(name, x, axis, keepdims, last):
    fn = np.argmax if name == "argmax" else np.argmin
    if last:
        flipped = np.flip(x, axis)
        r = x.shape[axis] - 1 - fn(flipped, axis=axis)
    else:
        r = fn(x, axis=axis)
    return np.expand_dims(r, axis) if keepdims else r


def run_arg(name, x, axis, keepdims, last, dtype=None):
    dtype = dtype or x.dtype.type
    out = list(x.shape)
    if keepdims:
        out[axis] = 1
    else:
        del out[axis]
    attrs = fmt_attrs(axis=axis, keepdims=keepdims, select_last_index=last)
    exe = compile_fn(
        f"  %r0 = ge.{name} %a0 {attrs} : ({ttype(x.shape, dtype)}) -> {ttype(out, np.int64)}",
        [(x.shape, dtype)], [(tuple(out), np.int64)],
    )
    return exe(x)[0]


ARG_CASES = [
    (np.float32, 1, True, False),
    (np.float32, 0, False, True),
    (np.float16, -1, True, False),
    (np.int32, 1, False, False),
    (np.int32, 1, True, True),
    (np.uint8, 2, False, True),
    (SI16, 0, True, False),
]


@pytest.mark.parametrize("case", ARG_CASES, ids=str)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reduce(name, case):
    dtype, axis, keepdims, last = case
    dt = np_dtype(dtype)
    # Few distinct values: many ties, so first/last index matters.
    x = rand((4, 5, 6), dtype, 0, 3) if dt.kind in "iu" else np.round(rand((4, 5, 6), dtype, -2, 2))
    got = run_arg(name, x, axis, keepdims, last, dtype)
    check(got, arg_ref(name, x, axis, keepdims, last), np.int64)


@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reduce_nan_and_inf(name, last):
    x = np.array([
        [1.0, np.nan, 3.0, np.nan],
        [-np.inf, -np.inf, -np.inf, -np.inf],
        [np.inf, 2.0, np.inf, -1.0],
        [0.0, -0.0, 0.0, 1.0],
    ], np.float32)
    got = run_arg(name, x, 1, False, last)
    want = arg_ref(name, x, 1, False, last)
    if last:  # numpy flipped: the last NaN; onnx select_last_index picks the last extreme too
        want[0] = 3
    check(got, want, np.int64)


def test_arg_reduce_rank0():
    x = np.array(3.0, np.float32)
    exe = compile_fn(f"  %r0 = ge.argmax %a0 {{axis = 0 : i64}} : ({ttype((), np.float32)}) -> tensor<i64>",
                     [((), np.float32)], [((), np.int64)])
    check(exe(x)[0], np.array(0), np.int64)


# --------------------------------------------------------------------------
# softmax / log_softmax
# --------------------------------------------------------------------------


def softmax_ref(x, axis, log):
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return (x - m) - np.log(s) if log else e / s


SOFTMAX_CASES = [((4, 7), -1, np.float32), ((3, 4, 5), 1, np.float32), ((5, 3), 0, np.float64),
                 ((2, 33), -1, np.float16)]


@pytest.mark.parametrize("case", SOFTMAX_CASES, ids=str)
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax(name, case):
    shape, axis, dtype = case
    t = ttype(shape, dtype)
    exe = compile_fn(f"  %r0 = ge.{name} %a0 {{axis = {axis} : i64}} : {t}", [(shape, dtype)], [(shape, dtype)])
    x = rand(shape, dtype, -5, 5)
    check(exe(x)[0], ref_float(lambda v: softmax_ref(v, axis, name == "log_softmax"), x), dtype)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_large_values_are_stable(name):
    x = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1000.5]], np.float32)
    t = ttype(x.shape, np.float32)
    exe = compile_fn(f"  %r0 = ge.{name} %a0 : {t}", [(x.shape, np.float32)], [(x.shape, np.float32)])
    got = exe(x)[0]
    assert np.all(np.isfinite(got))
    check(got, ref_float(lambda v: softmax_ref(v, -1, name == "log_softmax"), x), np.float32)


# --------------------------------------------------------------------------
# Normalizations
# --------------------------------------------------------------------------


def layer_norm_ref(x, scale, bias, axis, eps, rms):
    axes = tuple(range(axis % x.ndim, x.ndim))
    if rms:
        y = x / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + eps)
    else:
        mean = np.mean(x, axis=axes, keepdims=True)
        var = np.mean((x - mean) ** 2, axis=axes, keepdims=True)
        y = (x - mean) / np.sqrt(var + eps)
    y = y * scale
    return y if bias is None else y + bias


# (shape, axis, scale shape, with bias, dtype)
LN_CASES = [
    ((4, 16), -1, (16,), True, np.float32),
    ((2, 3, 8), 1, (3, 8), True, np.float32),
    ((2, 3, 8), -1, (8,), False, np.float32),
    ((2, 3, 8), 1, (1, 8), True, np.float64),  # scale broadcast over a size-1 dim
    ((3, 24), -1, (24,), True, np.float16),
]


@pytest.mark.parametrize("case", LN_CASES, ids=str)
@pytest.mark.parametrize("name", ["layer_norm", "rms_norm"])
def test_layer_and_rms_norm(name, case):
    shape, axis, sshape, with_bias, dtype = case
    rms = name == "rms_norm"
    with_bias = with_bias and not rms
    eps = 1e-3
    args = [(shape, dtype), (sshape, dtype)] + ([(sshape, dtype)] if with_bias else [])
    operands = ", ".join(f"%a{i}" for i in range(len(args)))
    types = ", ".join(ttype(*a) for a in args)
    exe = compile_fn(
        f"  %r0 = ge.{name} {operands} {{axis = {axis} : i64, epsilon = {eps} : f32}} : ({types}) -> {ttype(shape, dtype)}",
        args, [(shape, dtype)],
    )
    x = rand(shape, dtype, -2, 4)
    scale = rand(sshape, dtype, 0.5, 2)
    bias = rand(sshape, dtype) if with_bias else None
    ins = [x, scale] + ([bias] if with_bias else [])
    eps32 = float(np.float32(eps))
    want = ref_float(lambda v, s, *b: layer_norm_ref(v, s, b[0] if b else None, axis, eps32, rms), *ins)
    check(exe(*ins)[0], want, dtype)


def test_layer_norm_constant_row():
    # Zero variance: the result is the bias, not NaN.
    shape = (2, 5)
    t = ttype(shape, np.float32)
    v = ttype((5,), np.float32)
    exe = compile_fn(f"  %r0 = ge.layer_norm %a0, %a1, %a2 : ({t}, {v}, {v}) -> {t}",
                     [(shape, np.float32), ((5,), np.float32), ((5,), np.float32)], [(shape, np.float32)])
    x = np.full(shape, 7.0, np.float32)
    scale, bias = rand((5,), np.float32), rand((5,), np.float32)
    check(exe(x, scale, bias)[0], np.broadcast_to(bias, shape), np.float32)


BN_CASES = [((2, 3, 4, 5), "NCHW", np.float32), ((2, 4, 5, 3), "NHWC", np.float32),
            ((2, 3), "NCHW", np.float64), ((1, 3, 2, 2, 2), "NCDHW", np.float16)]


@pytest.mark.parametrize("case", BN_CASES, ids=str)
def test_batch_norm(case):
    shape, fmt, dtype = case
    c = shape[-1] if fmt.startswith("NDH") or fmt == "NHWC" else shape[1]
    p = ((c,), dtype)
    pt = ttype(*p)
    exe = compile_fn(
        f"  %r0 = ge.batch_norm %a0, %a1, %a2, %a3, %a4 {{epsilon = 0.001 : f32, data_format = #ge.format<{fmt}>}}"
        f" : ({ttype(shape, dtype)}, {pt}, {pt}, {pt}, {pt}) -> {ttype(shape, dtype)}",
        [(shape, dtype), p, p, p, p], [(shape, dtype)],
    )
    x = rand(shape, dtype)
    scale, bias, mean = rand((c,), dtype), rand((c,), dtype), rand((c,), dtype)
    var = rand((c,), dtype, 0.1, 2)
    cshape = [1] * len(shape)
    cshape[-1 if fmt in ("NHWC", "NDHWC") else 1] = c
    eps = float(np.float32(0.001))

    def ref(x, s, b, m, v):
        r = [a.reshape(cshape) for a in (s, b, m, v)]
        return (x - r[2]) / np.sqrt(r[3] + eps) * r[0] + r[1]

    check(exe(x, scale, bias, mean, var)[0], ref_float(ref, x, scale, bias, mean, var), dtype)


@pytest.mark.parametrize("case", [((2, 3, 10), np.float32), ((2, 4, 3, 5), np.float32), ((1, 2, 6, 6), np.float16)],
                         ids=str)
def test_instance_norm(case):
    shape, dtype = case
    c = shape[1]
    p = ((c,), dtype)
    pt = ttype(*p)
    exe = compile_fn(
        f"  %r0 = ge.instance_norm %a0, %a1, %a2 : ({ttype(shape, dtype)}, {pt}, {pt}) -> {ttype(shape, dtype)}",
        [(shape, dtype), p, p], [(shape, dtype)],
    )
    x, scale, bias = rand(shape, dtype, -1, 3), rand((c,), dtype), rand((c,), dtype)
    cshape = [1, c] + [1] * (len(shape) - 2)
    eps = float(np.float32(1e-5))

    def ref(x, s, b):
        axes = tuple(range(2, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * s.reshape(cshape) + b.reshape(cshape)

    check(exe(x, scale, bias)[0], ref_float(ref, x, scale, bias), dtype)


# --------------------------------------------------------------------------
# cumsum
# --------------------------------------------------------------------------


def cumsum_ref(x, axis, exclusive, reverse):
    v = np.flip(x, axis) if reverse else x
    c = np.cumsum(v, axis=axis, dtype=x.dtype)
    if exclusive:
        c = c - v  # wraps for integers the same way
    return np.flip(c, axis) if reverse else c


CUMSUM_CASES = [
    ((4, 6), 1, False, False, np.float32),
    ((4, 6), 0, True, False, np.float32),
    ((3, 5, 2), -2, False, True, np.float64),
    ((3, 5, 2), 1, True, True, np.int32),
    ((40,), 0, False, False, np.float16),
    ((5, 7), 1, True, False, np.uint8),
    ((5, 7), -1, False, True, np.int8),
]


@pytest.mark.parametrize("case", CUMSUM_CASES, ids=str)
def test_cumsum(case):
    shape, axis, exclusive, reverse, dtype = case
    t = ttype(shape, dtype)
    attrs = fmt_attrs(axis=axis, exclusive=exclusive, reverse=reverse)
    exe = compile_fn(f"  %r0 = ge.cumsum %a0 {attrs} : {t}", [(shape, dtype)], [(shape, dtype)])
    x = rand(shape, dtype, -100, 100) if np.dtype(dtype).kind in "iu" else rand(shape, dtype)
    if np.dtype(dtype) == np.float16:
        want = cumsum_ref(x.astype(np.float32), axis, exclusive, reverse).astype(np.float16)
    else:
        want = cumsum_ref(x, axis, exclusive, reverse)
    check(exe(x)[0], want, dtype)


# --------------------------------------------------------------------------
# top_k
# --------------------------------------------------------------------------


def top_k_ref(x, k, axis, largest):
    """Stable order: best value first, ties by lower index (ONNX); NaN ranks above numbers."""
    key = -x if largest else x
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        key = np.where(nan, -np.inf if largest else np.inf, key)
        idx = np.argsort(key, axis=axis, kind="stable")
        nan_first = np.take_along_axis(nan, idx, axis)
        # Move NaNs (stable among themselves) to the front (largest) or keep them at the back (smallest).
        if largest:
            idx = np.take_along_axis(idx, np.argsort(~nan_first, axis=axis, kind="stable"), axis)
        else:
            idx = np.take_along_axis(idx, np.argsort(nan_first, axis=axis, kind="stable"), axis)
    elif largest and x.dtype.kind == "u":
        idx = np.argsort(np.iinfo(x.dtype).max - x, axis=axis, kind="stable")
    elif largest:
        idx = np.argsort(-x.astype(np.int64), axis=axis, kind="stable")
    else:
        idx = np.argsort(x, axis=axis, kind="stable")
    idx = np.take(idx, np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis), idx


TOPK_CASES = [
    ((3, 8), 3, -1, True, np.float32),
    ((3, 8), 8, 1, False, np.float32),
    ((6, 2, 4), 2, 0, True, np.float64),
    ((4, 10), 4, -1, True, np.int32),    # ties: lower index first
    ((4, 10), 5, 1, False, np.uint8),
    ((2, 3, 7), 3, 2, True, np.float16),
    ((5,), 0, 0, True, np.float32),
]


@pytest.mark.parametrize("case", TOPK_CASES, ids=str)
def test_top_k(case):
    shape, k, axis, largest, dtype = case
    out = list(shape)
    out[axis] = k
    attrs = fmt_attrs(k=k, axis=axis, largest=largest)
    exe = compile_fn(
        f"  %r0, %r1 = ge.top_k %a0 {attrs} : ({ttype(shape, dtype)}) -> ({ttype(out, dtype)}, {ttype(out, np.int64)})",
        [(shape, dtype)], [(tuple(out), dtype), (tuple(out), np.int64)],
    )
    dt = np.dtype(dtype)
    x = rand(shape, dtype, 0, 4) if dt.kind in "iu" else np.round(rand(shape, dtype, -3, 3) * 2) / 2
    vals, idx = exe(x)
    want_v, want_i = top_k_ref(x, k, axis % len(shape), largest)
    check(idx, want_i, np.int64)
    check(vals, want_v, dtype)


@pytest.mark.parametrize("largest", [True, False])
def test_top_k_nan_inf(largest):
    x = np.array([[1.0, np.nan, -np.inf, np.inf, np.nan, 1.0]], np.float32)
    attrs = fmt_attrs(k=6, largest=largest)
    t = ttype(x.shape, np.float32)
    exe = compile_fn(f"  %r0, %r1 = ge.top_k %a0 {attrs} : ({t}) -> ({t}, {ttype(x.shape, np.int64)})",
                     [(x.shape, np.float32)], [(x.shape, np.float32), (x.shape, np.int64)])
    vals, idx = exe(x)
    want = [1, 4, 3, 0, 5, 2] if largest else [2, 0, 5, 3, 1, 4]
    check(idx, [want], np.int64)
    np.testing.assert_array_equal(vals, x[:, want])


# --------------------------------------------------------------------------
# Global pools
# --------------------------------------------------------------------------

POOL_CASES = [
    ((2, 3, 4, 5), "NCHW", np.float32),
    ((2, 4, 5, 3), "NHWC", np.float32),
    ((1, 2, 3, 4, 2), "NCDHW", np.float16),
    ((2, 3, 7), "NCHW", np.int32),
    ((2, 6, 6, 3), "NHWC", np.uint8),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
@pytest.mark.parametrize("name", ["global_avg_pool", "global_max_pool"])
def test_global_pool(name, case):
    shape, fmt, dtype = case
    rank = len(shape)
    spatial = tuple(range(1, rank - 1)) if fmt in ("NHWC", "NDHWC") else tuple(range(2, rank))
    out = tuple(1 if d in spatial else n for d, n in enumerate(shape))
    exe = compile_fn(
        f"  %r0 = ge.{name} %a0 {{data_format = #ge.format<{fmt}>}} : ({ttype(shape, dtype)}) -> {ttype(out, dtype)}",
        [(shape, dtype)], [(out, dtype)],
    )
    dt = np.dtype(dtype)
    x = rand(shape, dtype, 0, 200) if dt.kind in "iu" else rand(shape, dtype)
    if name == "global_max_pool":
        want = np.max(x, axis=spatial, keepdims=True)
    elif dt.kind in "iu":
        s = np.sum(x, axis=spatial, keepdims=True, dtype=np.int64)
        want = int_mean(s, x.size // s.size, dt)
    else:
        want = ref_float(lambda v: np.mean(v, axis=spatial, keepdims=True), x)
    check(exe(x)[0], want, dtype)


def test_global_max_pool_nan():
    x = rand((1, 2, 3, 3), np.float32)
    x[0, 1, 2, 0] = np.nan
    t = ttype(x.shape, np.float32)
    exe = compile_fn(f"  %r0 = ge.global_max_pool %a0 : ({t}) -> {ttype((1, 2, 1, 1), np.float32)}",
                     [(x.shape, np.float32)], [((1, 2, 1, 1), np.float32)])
    got = exe(x)[0]
    assert np.isnan(got[0, 1, 0, 0])
    check(got[0, 0], np.max(x[0, 0]).reshape(1, 1), np.float32)


@pytest.mark.parametrize("name", ["mean", "l2", "max"])
def test_reduce_many_elements(name):
    # 4096 elements per row, summed sequentially in f32: still within rtol 1e-5.
    got, x = run_reduce(name, (3, 4096), [1], False, np.float32)
    check(got, reduce_ref(name, x, [1], False), np.float32)
