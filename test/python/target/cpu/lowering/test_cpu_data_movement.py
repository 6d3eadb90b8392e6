"""Data movement ops: ge-lower-to-linalg + CpuExecutable against numpy (exact)
and, for resize, against onnx's reference implementation."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import ge_mlir
from ge_mlir.target.cpu import CpuExecutable
from ge_mlir.errors import ExecutionError

RNG = np.random.default_rng(7)

MLIR_TYPE = {
    np.float16: "f16", np.float32: "f32", np.float64: "f64", np.bool_: "i1",
    np.int8: "i8", np.int16: "i16", np.int32: "i32", np.int64: "i64",
    np.uint8: "ui8", np.uint16: "ui16", np.uint32: "ui32", np.uint64: "ui64",
}



def ttype(shape, dtype) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{MLIR_TYPE[np.dtype(dtype).type]}>"


def compile_fn(body: str, args: list[tuple], results: list[tuple], *, check_bounds: bool = True) -> CpuExecutable:
    """`body` uses %a0.. for arguments and returns %r0..; args/results are (shape, dtype)."""
    params = ", ".join(f"%a{i}: {ttype(*a)}" for i, a in enumerate(args))
    rtypes = ", ".join(ttype(*r) for r in results)
    rets = ", ".join(f"%r{i}" for i in range(len(results)))
    text = f"func.func @f({params}) -> ({rtypes}) {{\n{body}\n  return {rets} : {rtypes}\n}}\n"
    with ir.Context():
        return CpuExecutable(ge_mlir.parse_module(text), check_bounds=check_bounds)


def rand(shape, dtype) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return RNG.integers(max(info.min, -100), min(info.max, 100) + 1, size=shape).astype(dt)
    return RNG.uniform(-5, 5, size=shape).astype(dt)


def exact(got: np.ndarray, want: np.ndarray) -> None:
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


def unary(op: str, attrs: str, x: np.ndarray, out_shape, out_dtype=None) -> np.ndarray:
    """Runs `ge.<op> %a0 {attrs}` with the generic `(in) -> out` syntax."""
    out_dtype = out_dtype or x.dtype
    t_in, t_out = ttype(x.shape, x.dtype), ttype(out_shape, out_dtype)
    body = f"  %r0 = ge.{op} %a0 {attrs} : ({t_in}) -> {t_out}"
    exe = compile_fn(body, [(x.shape, x.dtype)], [(out_shape, out_dtype)])
    return exe(x)[0]


def dtypes_with_bool(*dts):
    return [pytest.param(np.bool_, id="bool")] + [
        pytest.param(d, id=np.dtype(d).name) for d in dts
    ]


MOVE_DTYPES = dtypes_with_bool(np.float32, np.float16, np.int8, np.uint16, np.int64)

# --------------------------------------------------------------------------
# Reshape family
# --------------------------------------------------------------------------

RESHAPES = [
    ((2, 3, 4), (6, 4)),  # collapse
    ((6, 4), (2, 3, 2, 2)),  # expand
    ((2, 3, 4), (4, 6)),  # neither: collapse to 1-D then expand
    ((2, 1, 3), (2, 3)),  # unit dim folded into a group
    ((1, 1), ()),  # to rank 0
    ((), (1, 1, 1)),  # from rank 0
    ((0, 3), (3, 0)),  # empty
]


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
@pytest.mark.parametrize("src,dst", RESHAPES, ids=str)
def test_reshape(src, dst, dtype):
    x = rand(src, dtype)
    body = f"  %r0 = ge.reshape %a0 : {ttype(src, dtype)} to {ttype(dst, dtype)}"
    exact(compile_fn(body, [(src, dtype)], [(dst, dtype)])(x)[0], x.reshape(dst))


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_flatten_squeeze_unsqueeze(dtype):
    x = rand((3, 1, 4, 1), dtype)
    t = ttype(x.shape, dtype)
    body = "\n".join([
        f"  %r0 = ge.flatten %a0 : ({t}) -> {ttype((3, 4), dtype)}",
        f"  %r1 = ge.flatten %a0 {{axis = 0 : i64}} : ({t}) -> {ttype((1, 12), dtype)}",
        f"  %r2 = ge.flatten %a0 {{axis = -1 : i64}} : ({t}) -> {ttype((12, 1), dtype)}",
        f"  %r3 = ge.squeeze %a0 : ({t}) -> {ttype((3, 4), dtype)}",
        f"  %r4 = ge.squeeze %a0 {{axes = array<i64: -1>}} : ({t}) -> {ttype((3, 1, 4), dtype)}",
        f"  %r5 = ge.unsqueeze %a0 {{axes = array<i64: 0, -1>}} : ({t}) -> {ttype((1, 3, 1, 4, 1, 1), dtype)}",
        f"  %r6 = ge.unsqueeze %a0 {{axes = array<i64: 2>}} : ({t}) -> {ttype((3, 1, 1, 4, 1), dtype)}",
    ])
    shapes = [(3, 4), (1, 12), (12, 1), (3, 4), (3, 1, 4), (1, 3, 1, 4, 1, 1), (3, 1, 1, 4, 1)]
    got = compile_fn(body, [(x.shape, dtype)], [(s, dtype) for s in shapes])(x)
    for g, s in zip(got, shapes):
        exact(g, x.reshape(s))


# --------------------------------------------------------------------------
# transpose, concat, split
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
@pytest.mark.parametrize("shape,perm", [((2, 3, 4), (2, 0, 1)), ((5, 7), (1, 0)), ((2, 3, 4, 5), (0, 2, 3, 1))], ids=str)
def test_transpose(shape, perm, dtype):
    x = rand(shape, dtype)
    out = tuple(shape[p] for p in perm)
    attrs = f"{{perm = array<i64: {', '.join(map(str, perm))}>}}"
    exact(unary("transpose", attrs, x, out), np.transpose(x, perm))


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis, dtype):
    shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]]
    shapes[1][axis] = 1
    shapes[2][axis] = 0 if axis == 0 else 2
    xs = [rand(tuple(s), dtype) for s in shapes]
    want = np.concatenate(xs, axis=axis)
    ins = ", ".join(ttype(x.shape, dtype) for x in xs)
    body = f"  %r0 = ge.concat %a0, %a1, %a2 {{axis = {axis} : i64}} : ({ins}) -> {ttype(want.shape, dtype)}"
    got = compile_fn(body, [(x.shape, dtype) for x in xs], [(want.shape, dtype)])(*xs)[0]
    exact(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
@pytest.mark.parametrize("axis,sizes", [(0, (1, 3, 2)), (-1, (2, 0, 3)), (1, (4,))], ids=str)
def test_split(axis, sizes, dtype):
    shape = [6, 4, 5]
    shape[axis] = sum(sizes)
    x = rand(tuple(shape), dtype)
    want = np.split(x, np.cumsum(sizes)[:-1], axis=axis)
    outs = ", ".join(ttype(w.shape, dtype) for w in want)
    n = len(sizes)
    body = (
        f"  %s:{n} = ge.split %a0 {{axis = {axis} : i64, split_sizes = array<i64: {', '.join(map(str, sizes))}>}}"
        f" : ({ttype(x.shape, dtype)}) -> ({outs})\n"
        + "\n".join(f"  %r{i} = ge.identity %s#{i} : {ttype(w.shape, dtype)}" for i, w in enumerate(want))
    )
    got = compile_fn(body, [(x.shape, dtype)], [(w.shape, dtype) for w in want])(x)
    for g, w in zip(got, want):
        exact(g, w)


# --------------------------------------------------------------------------
# slice
# --------------------------------------------------------------------------

BIG = 9223372036854775807


def onnx_slice(x, starts, ends, axes, steps):
    sl = [slice(None)] * x.ndim
    axes = axes or list(range(len(starts)))
    steps = steps or [1] * len(starts)
    for s, e, a, k in zip(starts, ends, axes, steps):
        d = x.shape[a]
        # numpy clamps like ONNX except for ends below -d with negative steps.
        if k < 0 and e < -d:
            e = None
        elif e > d:
            e = d
        elif e < -d:
            e = -d
        s = min(max(s, -d - 1 if k < 0 else -d), d)
        sl[a] = slice(s, e, k)
    return x[tuple(sl)]


SLICES = [
    ([2], [5], [], []),
    ([1, -3], [BIG, -1], [], []),
    ([-10], [BIG], [1], [2]),  # clamped start, step 2
    ([-1], [-BIG], [], [-2]),  # reverse, every other row
    ([8, 3], [2, -100], [0, 1], [-3, -1]),
    ([7], [3], [1], [1]),  # empty
    ([100, -100], [-100, 100], [1, 0], [-1, 1]),  # clamping both ways
]


@pytest.mark.parametrize("dtype", dtypes_with_bool(np.float32, np.int16, np.uint64))
@pytest.mark.parametrize("starts,ends,axes,steps", SLICES, ids=str)
def test_slice(starts, ends, axes, steps, dtype):
    x = rand((10, 6), dtype)
    want = onnx_slice(x, starts, ends, axes, steps)
    attrs = [f"starts = array<i64: {', '.join(map(str, starts))}>", f"ends = array<i64: {', '.join(map(str, ends))}>"]
    if axes:
        attrs.append(f"axes = array<i64: {', '.join(map(str, axes))}>")
    if steps:
        attrs.append(f"steps = array<i64: {', '.join(map(str, steps))}>")
    exact(unary("slice", "{" + ", ".join(attrs) + "}", x, want.shape), want)


# --------------------------------------------------------------------------
# expand, tile
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
@pytest.mark.parametrize("shape,target", [((3, 1), (2, 3, 4)), ((1, 4), (3, 1)), ((2, 3), (2, 3)), ((), (2, 2))], ids=str)
def test_expand(shape, target, dtype):
    x = rand(shape, dtype)
    want = x * np.ones(target, dtype) if dtype != np.bool_ else np.broadcast_to(x, np.broadcast_shapes(shape, target))
    want = np.broadcast_to(x, want.shape).copy()
    exact(unary("expand", f"{{shape = array<i64: {', '.join(map(str, target))}>}}", x, want.shape), want)


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
@pytest.mark.parametrize("shape,reps", [((3, 1, 4), (2, 1, 2)), ((2, 3), (1, 3)), ((4,), (0,)), ((2, 2), (1, 1))], ids=str)
def test_tile(shape, reps, dtype):
    x = rand(shape, dtype)
    want = np.tile(x, reps)
    exact(unary("tile", f"{{repeats = array<i64: {', '.join(map(str, reps))}>}}", x, want.shape), want)


# --------------------------------------------------------------------------
# pad
# --------------------------------------------------------------------------


def np_pad(x, pads, mode, value=0.0):
    r = x.ndim
    lo, hi = pads[:r], pads[r:]
    # Pad the positive parts, then crop the negative ones (ONNX negative pads).
    width = [(max(0, a), max(0, b)) for a, b in zip(lo, hi)]
    kw = {"constant_values": value} if mode == "constant" else {}
    y = np.pad(x, width, mode={"edge": "edge", "reflect": "reflect", "wrap": "wrap", "constant": "constant"}[mode], **kw)
    sl = tuple(slice(max(0, -a), y.shape[i] - max(0, -b)) for i, (a, b) in enumerate(zip(lo, hi)))
    return y[sl].astype(x.dtype)


PADS = [
    ("constant", (0, 1, 2, 1, 0, 3), 0.0),
    ("constant", (1, -1, 0, -2, 2, 1), 2.5),
    ("reflect", (1, 2, 0, 2, 3, 1), 0.0),
    ("reflect", (0, -1, 2, 0, 2, -1), 0.0),
    ("edge", (2, 0, 5, 1, 3, 0), 0.0),
    ("wrap", (1, 4, 0, 2, 5, 1), 0.0),
]


@pytest.mark.parametrize("dtype", dtypes_with_bool(np.float32, np.float16, np.int32, np.uint8))
@pytest.mark.parametrize("mode,pads,value", PADS, ids=str)
def test_pad(mode, pads, value, dtype):
    if dtype == np.uint8 and value < 0:
        pytest.skip("negative value")
    x = rand((3, 4, 5), dtype)
    want = np_pad(x, list(pads), mode, value if np.dtype(dtype).kind == "f" else int(value))
    attrs = f"{{mode = #ge.pad_mode<{mode}>, pads = array<i64: {', '.join(map(str, pads))}>, value = {value:e} : f64}}"
    exact(unary("pad", attrs, x, want.shape), want)


# --------------------------------------------------------------------------
# gather, gather_elements, scatter_elements
# --------------------------------------------------------------------------


def onnx_take(x, idx, axis):
    d = x.shape[axis]
    idx = np.where(idx < 0, idx + d, idx)
    return np.take(x, np.clip(idx, 0, d - 1), axis=axis)


@pytest.mark.parametrize("itype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", dtypes_with_bool(np.float32, np.int8, np.uint32))
@pytest.mark.parametrize("axis,ishape", [(0, (2, 3)), (1, (4,)), (-1, ()), (2, (2, 1, 2))], ids=str)
def test_gather(axis, ishape, dtype, itype):
    x = rand((5, 4, 3), dtype)
    d = x.shape[axis]
    idx = RNG.integers(-d, d, size=ishape).astype(itype)
    want = onnx_take(x, idx, axis)
    body = (
        f"  %r0 = ge.gather %a0, %a1 {{axis = {axis} : i64}} : ({ttype(x.shape, dtype)}, {ttype(idx.shape, itype)})"
        f" -> {ttype(want.shape, dtype)}"
    )
    exact(compile_fn(body, [(x.shape, dtype), (idx.shape, itype)], [(want.shape, dtype)])(x, idx)[0], want)


def test_gather_out_of_range_is_clamped():
    x = rand((5, 4), np.float32)
    idx = np.array([0, 5, -6, 1 << 40, -(1 << 40), 4, -1], np.int64)
    body = f"  %r0 = ge.gather %a0, %a1 : ({ttype(x.shape, np.float32)}, {ttype(idx.shape, np.int64)}) -> {ttype((7, 4), np.float32)}"
    # Without the run-time bounds check (check_bounds=False) indices are
    # clamped, never read out of bounds; with it (the default) they raise.
    exe = compile_fn(body, [(x.shape, np.float32), (idx.shape, np.int64)], [((7, 4), np.float32)], check_bounds=False)
    exact(exe(x, idx)[0], onnx_take(x, idx, 0))
    checked = compile_fn(body, [(x.shape, np.float32), (idx.shape, np.int64)], [((7, 4), np.float32)])
    with pytest.raises(ExecutionError, match=r"ge.gather at .*: 4 run-time index value\(s\) out of range \[-5, 5\)"):
        checked(x, idx)


@pytest.mark.parametrize("itype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", dtypes_with_bool(np.float32, np.int16))
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_elements(axis, dtype, itype):
    x = rand((4, 5, 3), dtype)
    ishape = [4, 5, 3]
    ishape[axis] = 6
    d = x.shape[axis]
    # Out-of-range values included: they are clamped, never read out of bounds.
    idx = RNG.integers(-d - 3, d + 3, size=ishape).astype(itype)
    wrapped = np.clip(np.where(idx < 0, idx + d, idx), 0, d - 1)
    want = np.take_along_axis(x, wrapped, axis=axis)
    body = (
        f"  %r0 = ge.gather_elements %a0, %a1 {{axis = {axis} : i64}} : "
        f"({ttype(x.shape, dtype)}, {ttype(idx.shape, itype)}) -> {ttype(want.shape, dtype)}"
    )
    exe = compile_fn(body, [(x.shape, dtype), (idx.shape, itype)], [(want.shape, dtype)], check_bounds=False)
    exact(exe(x, idx)[0], want)


def np_scatter(data, idx, upd, axis, reduction):
    out = data.copy()
    d = data.shape[axis]
    f = {
        "none": lambda a, b: b, "add": lambda a, b: a + b, "mul": lambda a, b: a * b,
        "max": np.maximum, "min": np.minimum,
    }[reduction]
    for pos in np.ndindex(idx.shape):
        i = int(idx[pos])
        i = i + d if i < 0 else i
        if not 0 <= i < d:
            continue  # skipped by the lowering
        tgt = list(pos)
        tgt[axis] = i
        with np.errstate(over="ignore"):  # integer products wrap, as in the lowering
            out[tuple(tgt)] = f(out[tuple(tgt)], upd[pos])
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8])
@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
@pytest.mark.parametrize("axis", [0, -1])
def test_scatter_elements(axis, reduction, dtype):
    data = rand((4, 5), dtype)
    ishape = [4, 5]
    ishape[axis] = 3
    d = data.shape[axis]
    idx = RNG.integers(-d, d, size=ishape).astype(np.int64)  # duplicates likely
    upd = rand(tuple(ishape), dtype)
    want = np_scatter(data, idx, upd, axis, reduction)
    body = (
        f"  %r0 = ge.scatter_elements %a0, %a1, %a2 {{axis = {axis} : i64, reduction = #ge.scatter_reduction<{reduction}>}}"
        f" : ({ttype(data.shape, dtype)}, {ttype(idx.shape, np.int64)}, {ttype(upd.shape, dtype)}) -> {ttype(data.shape, dtype)}"
    )
    exe = compile_fn(body, [(data.shape, dtype), (idx.shape, np.int64), (upd.shape, dtype)], [(data.shape, dtype)])
    exact(exe(data, idx, upd)[0], want)


def test_scatter_out_of_range_is_skipped():
    data = rand((3, 4), np.float32)
    idx = np.array([[0, 7, -9, 1 << 40]], np.int64)
    upd = rand((1, 4), np.float32)
    body = (
        f"  %r0 = ge.scatter_elements %a0, %a1, %a2 {{axis = 1 : i64}} : ({ttype((3, 4), np.float32)}, "
        f"{ttype((1, 4), np.int64)}, {ttype((1, 4), np.float32)}) -> {ttype((3, 4), np.float32)}"
    )
    exe = compile_fn(body, [((3, 4), np.float32), ((1, 4), np.int64), ((1, 4), np.float32)], [((3, 4), np.float32)],
                     check_bounds=False)
    exact(exe(data, idx, upd)[0], np_scatter(data, idx, upd, 1, "none"))


# --------------------------------------------------------------------------
# shape, range, one_hot
# --------------------------------------------------------------------------


def test_shape():
    x = rand((2, 3, 4, 5), np.float32)
    t = ttype(x.shape, np.float32)
    body = "\n".join([
        f"  %r0 = ge.shape %a0 : ({t}) -> tensor<4xi64>",
        f"  %r1 = ge.shape %a0 {{start = 1 : i64, end = -1 : i64}} : ({t}) -> tensor<2xi64>",
        f"  %r2 = ge.shape %a0 {{start = -1 : i64}} : ({t}) -> tensor<1xi64>",
    ])
    got = compile_fn(body, [(x.shape, np.float32)], [((4,), np.int64), ((2,), np.int64), ((1,), np.int64)])(x)
    exact(got[0], np.array([2, 3, 4, 5]))
    exact(got[1], np.array([3, 4]))
    exact(got[2], np.array([5]))


@pytest.mark.parametrize("dtype,start,limit,delta", [
    (np.float32, 1.5, 7.0, 0.5), (np.float32, 3.0, -2.0, -1.25), (np.int32, -3, 10, 3),
    (np.int64, 10, 0, -4), (np.int16, 0, 5, 1), (np.float64, 0.25, 1.0, 0.125),
], ids=str)
def test_range(dtype, start, limit, delta):
    want = np.arange(start, limit, delta, dtype=dtype)
    s, l, d = (np.array(v, dtype) for v in (start, limit, delta))
    st = ttype((), dtype)
    body = f"  %r0 = ge.range %a0, %a1, %a2 : ({st}, {st}, {st}) -> {ttype(want.shape, dtype)}"
    got = compile_fn(body, [((), dtype)] * 3, [(want.shape, dtype)])(s, l, d)[0]
    exact(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.float16])
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_one_hot(axis, dtype):
    depth = 5
    idx = np.array([[0, 4, -1], [-5, 7, 2]], np.int64)  # 7: out of range -> all off
    on, off = 3.0, 1.0
    wrapped = np.where(idx < 0, idx + depth, idx)
    hot = (wrapped[..., None] == np.arange(depth)).astype(dtype)
    want = np.moveaxis(np.where(hot, dtype(on), dtype(off)).astype(dtype), -1, axis)
    attrs = f"{{axis = {axis} : i64, depth = {depth} : i64, on_value = {on:e} : f64, off_value = {off:e} : f64}}"
    body = f"  %r0 = ge.one_hot %a0 {attrs} : ({ttype(idx.shape, np.int64)}) -> {ttype(want.shape, dtype)}"
    exact(compile_fn(body, [(idx.shape, np.int64)], [(want.shape, dtype)])(idx)[0], want)


# --------------------------------------------------------------------------
# trans_data
# --------------------------------------------------------------------------


def c0_of(dtype):
    return 32 // max(1, np.dtype(dtype).itemsize)


def to_nc1hwc0(x_nchw, c0):
    n, c, h, w = x_nchw.shape
    c1 = -(-c // c0)
    p = np.zeros((n, c1 * c0, h, w), x_nchw.dtype)
    p[:, :c] = x_nchw
    return p.reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2)


def to_nz(x, c0):
    *b, m, n = x.shape
    m1, n1 = -(-m // 16), -(-n // c0)
    p = np.zeros((*b, m1 * 16, n1 * c0), x.dtype)
    p[..., :m, :n] = x
    k = len(b)
    return p.reshape(*b, m1, 16, n1, c0).transpose(*range(k), k + 2, k, k + 1, k + 3)


def trans(x, src, dst):
    return np.transpose(x, [src.index(ch) for ch in dst])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int8])
@pytest.mark.parametrize("src,dst", [("NCHW", "NHWC"), ("NHWC", "NCHW"), ("NCHW", "HWCN"), ("HWCN", "NHWC")])
def test_trans_data_permute(src, dst, dtype):
    x = rand((2, 3, 4, 5), dtype)
    attrs = f"{{src_format = #ge.format<{src}>, dst_format = #ge.format<{dst}>}}"
    want = trans(x, src, dst)
    exact(unary("trans_data", attrs, x, want.shape), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int8])
@pytest.mark.parametrize("fmt", ["NCHW", "NHWC"])
@pytest.mark.parametrize("channels", [20, 32])
def test_trans_data_nc1hwc0_round_trip(channels, fmt, dtype):
    c0 = c0_of(dtype)
    nchw = (2, channels, 3, 4)
    shape = tuple(nchw["NCHW".index(ch)] for ch in fmt)
    x = rand(shape, dtype)
    packed = to_nc1hwc0(trans(x, fmt, "NCHW"), c0)
    orig = ", ".join(map(str, shape))
    body = (
        f"  %r0 = ge.trans_data %a0 {{src_format = #ge.format<{fmt}>, dst_format = #ge.format<NC1HWC0>}}"
        f" : ({ttype(shape, dtype)}) -> {ttype(packed.shape, dtype)}\n"
        f"  %r1 = ge.trans_data %r0 {{src_format = #ge.format<NC1HWC0>, dst_format = #ge.format<{fmt}>,"
        f" original_shape = array<i64: {orig}>}} : ({ttype(packed.shape, dtype)}) -> {ttype(shape, dtype)}"
    )
    got = compile_fn(body, [(shape, dtype)], [(packed.shape, dtype), (shape, dtype)])(x)
    exact(got[0], packed)
    exact(got[1], x)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
@pytest.mark.parametrize("shape", [(33, 20), (2, 16, 16), (3, 5, 7)], ids=str)
def test_trans_data_fractal_nz_round_trip(shape, dtype):
    c0 = c0_of(dtype)
    x = rand(shape, dtype)
    nz = to_nz(x, c0)
    body = (
        f"  %r0 = ge.trans_data %a0 {{src_format = #ge.format<ND>, dst_format = #ge.format<FRACTAL_NZ>}}"
        f" : ({ttype(shape, dtype)}) -> {ttype(nz.shape, dtype)}\n"
        f"  %r1 = ge.trans_data %r0 {{src_format = #ge.format<FRACTAL_NZ>, dst_format = #ge.format<ND>,"
        f" original_shape = array<i64: {', '.join(map(str, shape))}>}} : ({ttype(nz.shape, dtype)}) -> {ttype(shape, dtype)}"
    )
    got = compile_fn(body, [(shape, dtype)], [(nz.shape, dtype), (shape, dtype)])(x)
    exact(got[0], nz)
    exact(got[1], x)


# --------------------------------------------------------------------------
# resize (against onnx's reference implementation)
# --------------------------------------------------------------------------


def onnx_resize(x, out_shape, scales, mode, coord, nearest, cubic_a=-0.75):
    import onnx
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    inputs = ["X", "", "scales"] if scales is not None else ["X", "", "", "sizes"]
    node = helper.make_node(
        "Resize", inputs, ["Y"], mode=mode, coordinate_transformation_mode=coord,
        nearest_mode=nearest, cubic_coeff_a=cubic_a,
    )
    inits = (
        [helper.make_tensor("scales", TensorProto.FLOAT, [len(scales)], scales)]
        if scales is not None
        else [helper.make_tensor("sizes", TensorProto.INT64, [len(out_shape)], list(out_shape))]
    )
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("X", elem, list(x.shape))],
        [helper.make_tensor_value_info("Y", elem, list(out_shape))], initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    onnx.checker.check_model(model)
    return ReferenceEvaluator(model).run(None, {"X": x})[0]


def run_resize(x, out_shape, scales, mode, coord, nearest, cubic_a=-0.75):
    attrs = [
        f"mode = #ge.resize_mode<{mode}>",
        f"coordinate_transformation_mode = #ge.coord_transform<{coord}>",
        f"nearest_mode = #ge.nearest_mode<{nearest}>",
        f"cubic_coeff_a = {cubic_a:e} : f32",
    ]
    if scales is not None:
        attrs.append(f"scales = array<f32: {', '.join(f'{s:e}' for s in scales)}>")
    return unary("resize", "{" + ", ".join(attrs) + "}", x, tuple(out_shape))


COORDS = ["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric"]
# (input shape, output shape, scales or None for sizes)
RESIZE_SHAPES = [
    ((1, 2, 4, 5), (1, 2, 8, 10), [1.0, 1.0, 2.0, 2.0]),
    ((2, 3, 6, 6), (2, 3, 4, 3), None),  # sizes, downsampling
    ((1, 1, 3, 4), (1, 1, 7, 5), None),  # non-integral ratios
    ((1, 2, 5, 4), (1, 2, 8, 3), [1.0, 1.0, 1.7, 0.8]),
]


@pytest.mark.parametrize("nearest", ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
@pytest.mark.parametrize("coord", COORDS)
@pytest.mark.parametrize("case", [1, 3])  # the other shapes run in test_resize_interpolating
def test_resize_nearest(case, coord, nearest):
    shape, out, scales = RESIZE_SHAPES[case]
    x = rand(shape, np.float32)
    want = onnx_resize(x, out, scales, "nearest", coord, nearest)
    exact(run_resize(x, out, scales, "nearest", coord, nearest), want)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
@pytest.mark.parametrize("coord", COORDS)
@pytest.mark.parametrize("case", range(len(RESIZE_SHAPES)))
def test_resize_interpolating(case, coord, mode):
    shape, out, scales = RESIZE_SHAPES[case]
    x = rand(shape, np.float32)
    want = onnx_resize(x, out, scales, mode, coord, "round_prefer_floor", -0.5 if case == 3 else -0.75)
    got = run_resize(x, out, scales, mode, coord, "round_prefer_floor", -0.5 if case == 3 else -0.75)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.uint8, np.int32])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_resize_dtypes(mode, dtype):
    shape, out, scales = (1, 2, 3, 4), (1, 2, 6, 6), None
    x = rand(shape, dtype)
    if np.dtype(dtype).kind == "u":
        x = RNG.integers(0, 256, size=shape).astype(dtype)
    want = onnx_resize(x, out, scales, mode, "half_pixel", "round_prefer_floor")
    got = run_resize(x, out, scales, mode, "half_pixel", "round_prefer_floor")
    if np.dtype(dtype).kind == "f":
        # onnx's evaluator computes cubic weights with the f32 attribute a
        # (numpy 2 keeps float32 * float in f32), so f64 agrees only to ~1e-6.
        tol = 1e-3 if dtype == np.float16 else 1e-5
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)
    else:
        exact(got, want)


def test_reshape_of_a_run_time_shape_to_a_static_one_is_checked():
    """``?`` dims pinned to a static shape (what an ONNX Loop or If body's declared type asks for):
    the element counts are checked when the model runs; a wrong size fails the call, reading
    nothing past the input."""
    text = """
func.func @f(%x: tensor<?x2xf32> {onnx.name = "x"}) -> tensor<2x1xf32> {
  %0 = ge.reshape %x : tensor<?x2xf32> to tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}"""
    compiled = ge_mlir.compile(text, progress=False)
    np.testing.assert_array_equal(compiled(np.array([[3.0, 4.0]], np.float32))[0], [[3.0], [4.0]])
    for bad in (np.zeros((2, 2), np.float32), np.zeros((0, 2), np.float32)):
        with pytest.raises(ExecutionError, match="element counts differ"):
            compiled(bad)
