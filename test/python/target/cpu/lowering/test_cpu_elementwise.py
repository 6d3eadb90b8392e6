"""ge-lower-to-linalg + CpuExecutable against numpy, op by op."""

from __future__ import annotations

import math

import numpy as np
import pytest
from mlir import ir

import ge_mlir
from ge_mlir.target.cpu import CpuExecutable, ExecutionError, lower_to_llvm

RNG = np.random.default_rng(1234)

MLIR_TYPE = {
    np.float16: "f16", np.float32: "f32", np.float64: "f64", np.bool_: "i1",
    np.int8: "i8", np.int16: "i16", np.int32: "i32", np.int64: "i64",
    np.uint8: "ui8", np.uint16: "ui16", np.uint32: "ui32", np.uint64: "ui64",
}
FLOATS = [np.float32, np.float16, np.float64]
SINTS = [np.int8, np.int16, np.int32, np.int64]


def ttype(shape, dtype) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{MLIR_TYPE[np.dtype(dtype).type]}>"


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
    dt = np.dtype(dtype)
    if dt == np.float16:
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-3, atol=1e-3)
    elif dt == np.float32:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    elif dt == np.float64:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    else:
        assert got.dtype == dt
        np.testing.assert_array_equal(got, want.astype(dt))


def rand(shape, dtype, lo=-3.0, hi=3.0) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return RNG.integers(max(int(lo), info.min), min(int(hi), info.max) + 1, size=shape).astype(dt)
    return RNG.uniform(lo, hi, size=shape).astype(dt)


def ref32(fn, *xs):
    """numpy reference; f16 inputs are computed in f32 and rounded (as the lowering does)."""
    if xs[0].dtype == np.float16:
        return fn(*[x.astype(np.float32) for x in xs]).astype(np.float16)
    return fn(*xs)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def np_erf(x):
    return _erf(x).astype(x.dtype)


# --------------------------------------------------------------------------
# Unary ops
# --------------------------------------------------------------------------

# name -> (attrs, numpy reference, input range)
FLOAT_UNARY = {
    "abs": ("", np.abs, (-3, 3)),
    "neg": ("", np.negative, (-3, 3)),
    "exp": ("", np.exp, (-5, 5)),
    "log": ("", np.log, (0.1, 10)),
    "sqrt": ("", np.sqrt, (0.0, 10)),
    "rsqrt": ("", lambda x: 1 / np.sqrt(x), (0.1, 10)),
    "reciprocal": ("", lambda x: 1 / x, (0.5, 4)),
    "tanh": ("", np.tanh, (-4, 4)),
    "sigmoid": ("", lambda x: 1 / (1 + np.exp(-x)), (-8, 8)),
    "relu": ("", lambda x: np.maximum(x, 0), (-3, 3)),
    "leaky_relu": ("{alpha = 0.1 : f32}", lambda x: np.where(x >= 0, x, np.float32(0.1).astype(x.dtype) * x), (-3, 3)),
    "gelu": ("", lambda x: 0.5 * x * (1 + np_erf(x / np.sqrt(2).astype(x.dtype))), (-4, 4)),
    "erf": ("", np_erf, (-3, 3)),
    "sin": ("", np.sin, (-6, 6)),
    "cos": ("", np.cos, (-6, 6)),
    "floor": ("", np.floor, (-5, 5)),
    "ceil": ("", np.ceil, (-5, 5)),
    "sign": ("", np.sign, (-3, 3)),
    "softplus": ("", lambda x: np.logaddexp(0, x), (-20, 20)),
    # alpha is an f32 attribute: 0.2f, not the f64 0.2.
    "hard_sigmoid": ("", lambda x: np.clip(np.float32(0.2).astype(x.dtype) * x + 0.5, 0, 1), (-5, 5)),
    "hard_swish": ("", lambda x: x * np.clip(x / 6 + 0.5, 0, 1), (-5, 5)),
    "silu": ("", lambda x: x / (1 + np.exp(-x)), (-8, 8)),
    "identity": ("", lambda x: x, (-3, 3)),
    "clip": ("{max = 1.5 : f64, min = -0.5 : f64}", lambda x: np.clip(x, -0.5, 1.5), (-3, 3)),
}


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(FLOAT_UNARY))
def test_float_unary(name, dtype):
    attrs, fn, (lo, hi) = FLOAT_UNARY[name]
    shape = (3, 5)
    t = ttype(shape, dtype)
    exe = compile_fn(f"  %r0 = ge.{name} %a0 {attrs} : {t}", [(shape, dtype)], [(shape, dtype)])
    x = rand(shape, dtype, lo, hi)
    if name == "sign":
        x[0, :2] = 0
    (y,) = exe(x)
    check(y, ref32(fn, x), dtype)


def test_gelu_tanh_form():
    shape = (4, 6)
    x = rand(shape, np.float32, -4, 4)
    exe = compile_fn(f"  %r0 = ge.gelu %a0 {{tanh_approx = true}} : {ttype(shape, np.float32)}",
                     [(shape, np.float32)], [(shape, np.float32)])
    want = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    check(exe(x)[0], want.astype(np.float32), np.float32)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_round_half_to_even(dtype):
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.4, 0.6, -1.7], dtype)
    exe = compile_fn(f"  %r0 = ge.round %a0 : {ttype(x.shape, dtype)}", [(x.shape, dtype)], [(x.shape, dtype)])
    check(exe(x)[0], np.round(x), dtype)


def test_hard_sigmoid_attrs_and_one_sided_clip():
    shape = (8,)
    t = ttype(shape, np.float32)
    exe = compile_fn(
        f"  %r0 = ge.hard_sigmoid %a0 {{alpha = 0.5 : f32, beta = 0.25 : f32}} : {t}\n"
        f"  %r1 = ge.clip %a0 {{min = 0.0 : f64}} : {t}\n"
        f"  %r2 = ge.clip %a0 {{max = 0.0 : f64}} : {t}\n"
        f"  %r3 = ge.clip %a0 : {t}",
        [(shape, np.float32)], [(shape, np.float32)] * 4)
    x = rand(shape, np.float32)
    r = exe(x)
    check(r[0], np.clip(0.5 * x + 0.25, 0, 1), np.float32)
    check(r[1], np.maximum(x, 0), np.float32)
    check(r[2], np.minimum(x, 0), np.float32)
    check(r[3], x, np.float32)


INT_UNARY = {
    "abs": ("", np.abs),
    "neg": ("", np.negative),
    "relu": ("", lambda x: np.maximum(x, 0)),
    "sign": ("", np.sign),
    "identity": ("", lambda x: x),
    "clip": ("{max = 7.5 : f64, min = -3.0 : f64}", lambda x: np.clip(x, -3, 7)),
}


@pytest.mark.parametrize("dtype", SINTS + [np.uint8, np.uint32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(INT_UNARY))
def test_int_unary(name, dtype):
    attrs, fn = INT_UNARY[name]
    shape = (2, 7)
    t = ttype(shape, dtype)
    exe = compile_fn(f"  %r0 = ge.{name} %a0 {attrs} : {t}", [(shape, dtype)], [(shape, dtype)])
    x = rand(shape, dtype, -20, 20)
    x.flat[0] = 0
    if name == "clip" and np.dtype(dtype).kind == "u":
        want = np.clip(x, 0, 7)
    else:
        want = fn(x)
    check(exe(x)[0], want, dtype)


def test_not():
    shape = (3, 4)
    exe = compile_fn(f"  %r0 = ge.not %a0 : {ttype(shape, np.bool_)}", [(shape, np.bool_)], [(shape, np.bool_)])
    x = rand(shape, np.bool_)
    check(exe(x)[0], ~x, np.bool_)


# --------------------------------------------------------------------------
# Binary ops (with broadcasting)
# --------------------------------------------------------------------------

BROADCAST_SHAPES = [((2, 3), (2, 3), (2, 3)), ((2, 3, 4), (4,), (2, 3, 4)), ((3, 1), (1, 5), (3, 5)),
                    ((), (2, 2), (2, 2))]

FLOAT_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
    "pow": np.power, "max": np.maximum, "min": np.minimum, "mod": np.fmod,
}


def binary_fn(name, lhs, rhs, out, attrs=""):
    tl, tr, to = ttype(*lhs), ttype(*rhs), ttype(*out)
    return compile_fn(f"  %r0 = ge.{name} %a0, %a1 {attrs} : ({tl}, {tr}) -> {to}", [lhs, rhs], [out])


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(FLOAT_BINARY))
def test_float_binary(name, dtype):
    sl, sr, so = BROADCAST_SHAPES[1]
    a = rand(sl, dtype, 0.5, 3) if name == "pow" else rand(sl, dtype)
    b = rand(sr, dtype, 0.5, 2) * np.where(rand(sr, np.bool_), 1, -1).astype(dtype)
    exe = binary_fn(name, (sl, dtype), (sr, dtype), (so, dtype))
    check(exe(a, b)[0], ref32(FLOAT_BINARY[name], a, b), dtype)


@pytest.mark.parametrize("shapes", BROADCAST_SHAPES, ids=str)
def test_broadcasting(shapes):
    sl, sr, so = shapes
    a, b = rand(sl, np.float32), rand(sr, np.float32)
    exe = binary_fn("sub", (sl, np.float32), (sr, np.float32), (so, np.float32))
    check(exe(a, b)[0], a - b, np.float32)
    exe = binary_fn("sub", (sr, np.float32), (sl, np.float32), (so, np.float32))
    check(exe(b, a)[0], b - a, np.float32)


def trunc_div(a, b):
    q = np.abs(a).astype(np.int64) // np.abs(b).astype(np.int64)
    return (np.sign(a) * np.sign(b) * q).astype(a.dtype)


INT_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": trunc_div,
    "max": np.maximum, "min": np.minimum, "mod": np.mod,
}


@pytest.mark.parametrize("dtype", SINTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(INT_BINARY) + ["pow", "fmod"])
def test_int_binary(name, dtype):
    sl, sr, so = BROADCAST_SHAPES[2]
    a = rand(sl, dtype, -10, 10)
    b = rand(sr, dtype, 1, 5) * np.where(rand(sr, np.bool_), 1, -1).astype(dtype)
    op, attrs, fn = name, "", INT_BINARY.get(name)
    if name == "pow":
        b = rand(sr, dtype, 0, 3)
        fn = np.power
    if name == "fmod":
        op, attrs, fn = "mod", "{fmod = true}", np.fmod
    exe = binary_fn(op, (sl, dtype), (sr, dtype), (so, dtype), attrs)
    with np.errstate(over="ignore"):
        want = fn(a, b)
    check(exe(a, b)[0], want, dtype)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "max", "min", "mod"])
def test_unsigned_binary(name):
    dtype = np.uint8
    a, b = rand((6,), dtype, 0, 255), rand((6,), dtype, 1, 255)
    exe = binary_fn(name, ((6,), dtype), ((6,), dtype), ((6,), dtype))
    fns = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.floor_divide,
           "max": np.maximum, "min": np.minimum, "mod": np.mod}
    check(exe(a, b)[0], fns[name](a, b), dtype)


@pytest.mark.parametrize("name", ["and", "or", "xor"])
def test_logical(name):
    sl, sr, so = BROADCAST_SHAPES[2]
    a, b = rand(sl, np.bool_), rand(sr, np.bool_)
    exe = binary_fn(name, (sl, np.bool_), (sr, np.bool_), (so, np.bool_))
    fn = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}[name]
    check(exe(a, b)[0], fn(a, b), np.bool_)


COMPARES = {"equal": np.equal, "less": np.less, "less_equal": np.less_equal,
            "greater": np.greater, "greater_equal": np.greater_equal}


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int8, np.uint8],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(COMPARES))
def test_compare(name, dtype):
    sl, sr, so = BROADCAST_SHAPES[1]
    a = rand(sl, dtype, 0, 4)
    b = rand(sr, dtype, 0, 4)
    if np.dtype(dtype).kind == "f":
        a, b = np.round(a), np.round(b)  # make equality happen
        a.flat[0] = np.nan  # NaN compares false
    exe = binary_fn(name, (sl, dtype), (sr, dtype), (so, np.bool_))
    check(exe(a, b)[0], COMPARES[name](a, b), np.bool_)


def test_equal_bool():
    a, b = rand((5,), np.bool_), rand((5,), np.bool_)
    exe = binary_fn("equal", ((5,), np.bool_), ((5,), np.bool_), ((5,), np.bool_))
    check(exe(a, b)[0], a == b, np.bool_)


def test_nan_propagation_in_max_min_relu():
    x = np.array([np.nan, 1.0, -1.0], np.float32)
    y = np.array([0.0, np.nan, 2.0], np.float32)
    t = ttype((3,), np.float32)
    exe = compile_fn(f"  %r0 = ge.max %a0, %a1 : ({t}, {t}) -> {t}\n"
                     f"  %r1 = ge.min %a0, %a1 : ({t}, {t}) -> {t}\n"
                     f"  %r2 = ge.relu %a0 : {t}",
                     [((3,), np.float32)] * 2, [((3,), np.float32)] * 3)
    r = exe(x, y)
    np.testing.assert_array_equal(r[0], np.maximum(x, y))
    np.testing.assert_array_equal(r[1], np.minimum(x, y))
    np.testing.assert_array_equal(r[2], np.maximum(x, 0))


# --------------------------------------------------------------------------
# where, cast, constants, chains
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.uint16], ids=lambda d: np.dtype(d).name)
def test_where(dtype):
    sc, sx, sy, so = (3, 1), (4,), (1, 4), (3, 4)
    c, x, y = rand(sc, np.bool_), rand(sx, dtype, 0, 9), rand(sy, dtype, 0, 9)
    exe = compile_fn(
        f"  %r0 = ge.where %a0, %a1, %a2 : ({ttype(sc, np.bool_)}, {ttype(sx, dtype)}, {ttype(sy, dtype)}) -> {ttype(so, dtype)}",
        [(sc, np.bool_), (sx, dtype), (sy, dtype)], [(so, dtype)])
    check(exe(c, x, y)[0], np.where(c, x, y), dtype)


CAST_TYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint32, np.bool_]


def cast_input(src, dst):
    """Values representable in both types (ONNX leaves out-of-range casts undefined)."""
    s, d = np.dtype(src), np.dtype(dst)
    if s == np.bool_:
        return rand((10,), s)
    lo = 0 if (s.kind == "u" or d.kind == "u") else -100
    hi = 100
    x = rand((10,), s, lo, hi)
    if s.kind == "f":
        x[:3] = [0.0, 2.75, -0.0 if lo < 0 else 1.5]
        if d.kind in "iu" and lo < 0:
            x[3] = -7.9
    else:
        x[0] = 0
    return x


@pytest.mark.parametrize("dst", CAST_TYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("src", CAST_TYPES, ids=lambda d: np.dtype(d).name)
def test_cast(src, dst):
    shape = (10,)
    x = cast_input(src, dst)
    exe = compile_fn(f"  %r0 = ge.cast %a0 : {ttype(shape, src)} to {ttype(shape, dst)}",
                     [(shape, src)], [(shape, dst)])
    want = x.astype(dst)
    got = exe(x)[0]
    if np.dtype(dst).kind == "f":
        np.testing.assert_array_equal(got, want)  # casts are exact / correctly rounded
    else:
        check(got, want, dst)


def test_constants_dense_splat_and_resource():
    text = """
func.func @f(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xi1>, tensor<2xi32>) {
  %c0 = ge.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c1 = ge.constant dense<0.5> : tensor<3xf32>
  %c2 = ge.constant dense_resource<blob1> : tensor<2xi32>
  %c3 = ge.constant dense<[true, false, true]> : tensor<3xi1>
  %0 = ge.mul %x, %c0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.add %0, %c1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %1, %c3, %c2 : tensor<2x3xf32>, tensor<3xi1>, tensor<2xi32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000007000000FDFFFFFF"
    }
  }
#-}
"""
    with ir.Context():
        exe = CpuExecutable(ge_mlir.parse_module(text))
    x = rand((2, 3), np.float32)
    r = exe(x)
    check(r[0], x * np.arange(1, 7, dtype=np.float32).reshape(2, 3) + 0.5, np.float32)
    check(r[1], np.array([True, False, True]), np.bool_)
    check(r[2], np.array([7, -3], np.int32), np.int32)


def test_chain_of_ops():
    """A small network tail: normalize-ish math, activation, compare, select, cast."""
    text = """
func.func @f(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = ge.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = ge.mul %0, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %2 = ge.gelu %1 : tensor<4x8xf32>
  %3 = ge.sigmoid %2 : tensor<4x8xf32>
  %c = ge.constant dense<0.5> : tensor<f32>
  %4 = ge.greater %3, %c : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %5 = ge.exp %1 : tensor<4x8xf32>
  %6 = ge.where %4, %5, %2 : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = ge.cast %4 : tensor<4x8xi1> to tensor<4x8xi32>
  %8 = ge.clip %6 {min = -1.0 : f64, max = 4.0 : f64} : tensor<4x8xf32>
  %9 = ge.sqrt %8 : tensor<4x8xf32>
  %10 = ge.identity %9 : tensor<4x8xf32>
  %11 = ge.abs %10 : tensor<4x8xf32>
  %12 = ge.sub %11, %10 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %13 = ge.add %12, %8 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %13, %7 : tensor<4x8xf32>, tensor<4x8xi32>
}
"""
    with ir.Context():
        exe = CpuExecutable(ge_mlir.parse_module(text))
    x, b, s = rand((4, 8), np.float32), rand((8,), np.float32), rand((4, 1), np.float32, 0.1, 1)
    v1 = (x + b) * s
    v2 = 0.5 * v1 * (1 + np_erf(v1 / np.float32(np.sqrt(2))))
    gt = 1 / (1 + np.exp(-v2)) > 0.5
    v8 = np.clip(np.where(gt, np.exp(v1), v2), -1, 4)
    with np.errstate(invalid="ignore"):
        v9 = np.sqrt(v8)
    want = np.abs(v9) - v9 + v8  # NaN where v8 < 0, as in the IR
    r = exe(x, b, s)
    check(r[0], want, np.float32)
    check(r[1], gt.astype(np.int32), np.int32)


def test_zero_rank_and_executable_reuse():
    exe = compile_fn("  %r0 = ge.mul %a0, %a1 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
                     [((), np.float64), ((), np.float64)], [((), np.float64)])
    for v in (2.0, -3.5):
        (y,) = exe(np.array(v), np.array(4.0))
        assert y.shape == () and y == v * 4.0


def test_input_arrays_untouched_and_non_contiguous():
    exe = compile_fn("  %r0 = ge.neg %a0 : tensor<3x2xf32>", [((3, 2), np.float32)], [((3, 2), np.float32)])
    base = rand((2, 3), np.float32)
    x = base.T  # Fortran-ordered view
    keep = base.copy()
    check(exe(x)[0], -x, np.float32)
    np.testing.assert_array_equal(base, keep)


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def add_exe():
    return compile_fn("  %r0 = ge.add %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>",
                      [((2, 3), np.float32), ((3,), np.float32)], [((2, 3), np.float32)])


def test_wrong_argument_count(add_exe):
    with pytest.raises(ExecutionError, match="takes 2 argument"):
        add_exe(np.zeros((2, 3), np.float32))


def test_wrong_shape(add_exe):
    with pytest.raises(ExecutionError, match=r"argument #1 .* shape \(4,\), expected \(3,\)"):
        add_exe(np.zeros((2, 3), np.float32), np.zeros((4,), np.float32))


def test_wrong_dtype(add_exe):
    with pytest.raises(ExecutionError, match="argument #0 .* dtype float64, expected float32"):
        add_exe(np.zeros((2, 3), np.float64), np.zeros((3,), np.float32))


def test_not_an_array(add_exe):
    with pytest.raises(ExecutionError, match="must be a numpy array"):
        add_exe([[0.0] * 3] * 2, np.zeros((3,), np.float32))


def test_unlowered_op_is_an_error_naming_it():
    text = """
func.func @f(%x: tensor<1x3x8x8xui8>) -> tensor<1x3x4x4xui8> {
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : (tensor<1x3x8x8xui8>) -> tensor<1x3x4x4xui8>
  return %0 : tensor<1x3x4x4xui8>
}
"""
    with ir.Context():
        with pytest.raises(ExecutionError, match="ge.max_pool2d") as info:
            CpuExecutable(ge_mlir.parse_module(text))
    assert "was not lowered" in str(info.value)


def test_dynamic_shapes_and_function_selection():
    dyn = "func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {\n  %0 = ge.exp %x : tensor<?xf32>\n  return %0 : tensor<?xf32>\n}"
    two = ("func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n"
           "func.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = ge.neg %x : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}")
    with ir.Context():
        exe = CpuExecutable(ge_mlir.parse_module(dyn))  # one executable, any length
        for n in (0, 1, 5):
            x = np.linspace(-1, 1, n).astype(np.float32)
            check(exe(x)[0], np.exp(x), np.float32)
        with pytest.raises(ExecutionError, match=r"has shape \(2, 2\), expected \(\?,\)"):
            exe(np.ones((2, 2), np.float32))
        with pytest.raises(ExecutionError, match="2 public functions"):
            CpuExecutable(ge_mlir.parse_module(two))
        with pytest.raises(ExecutionError, match="no function @c"):
            CpuExecutable(ge_mlir.parse_module(two), "c")
        m = ge_mlir.parse_module(two)
        exe = CpuExecutable(m, "b")
        check(exe(np.array([1.0, -2.0], np.float32))[0], np.array([-1.0, 2.0], np.float32), np.float32)
        assert "ge.neg" in str(m)  # the caller's module is not lowered in place


@pytest.mark.parametrize("opt_level", [-1, 4, 7])
def test_invalid_opt_level_is_an_error(opt_level):
    """LLVM aborts the process on an optimization level outside 0..3."""
    with ir.Context():
        m = ge_mlir.parse_module("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}")
        with pytest.raises(ExecutionError, match="opt_level must be an integer from 0 to 3"):
            CpuExecutable(m, opt_level=opt_level)


def test_i1_block_argument_outside_entry_block():
    """i1 tensors are widened in every block of a function, not just the entry block."""
    text = ("func.func @f(%x: tensor<2xi1>) -> tensor<2xi1> {\n  cf.br ^bb1(%x : tensor<2xi1>)\n"
            "^bb1(%y: tensor<2xi1>):\n  return %y : tensor<2xi1>\n}")
    with ir.Context():
        exe = CpuExecutable(ge_mlir.parse_module(text))
    x = np.array([True, False])
    check(exe(x)[0], x, np.bool_)


def test_lower_to_llvm_leaves_only_llvm():
    with ir.Context():
        m = ge_mlir.parse_module(
            "func.func @f(%x: tensor<4xf32>) -> tensor<4xi1> {\n"
            "  %c = ge.constant dense<0.0> : tensor<4xf32>\n"
            "  %0 = ge.less %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
            "  return %0 : tensor<4xi1>\n}")
        lower_to_llvm(m)
        names = set()
        m.operation.walk(lambda op: names.add(op.name) or ir.WalkResult.ADVANCE)
    assert {n.split(".")[0] for n in names} <= {"builtin", "llvm"}, names


def test_integer_division_never_traps():
    """x86 idiv traps on 0 and INT_MIN / -1; the lowering guards both (numpy results)."""
    t = ttype((4,), np.int32)
    exe = compile_fn(f"  %r0 = ge.div %a0, %a1 : ({t}, {t}) -> {t}\n"
                     f"  %r1 = ge.mod %a0, %a1 : ({t}, {t}) -> {t}\n"
                     f"  %r2 = ge.mod %a0, %a1 {{fmod = true}} : ({t}, {t}) -> {t}\n"
                     f"  %r3 = ge.pow %a0, %a1 : ({t}, {t}) -> {t}",
                     [((4,), np.int32)] * 2, [((4,), np.int32)] * 4)
    imin = np.iinfo(np.int32).min
    a = np.array([7, imin, -9, 5], np.int32)
    b = np.array([0, -1, 0, -1], np.int32)
    q, m, f, p = exe(a, b)
    np.testing.assert_array_equal(q, [0, imin, 0, -5])
    np.testing.assert_array_equal(m, [0, 0, 0, 0])
    np.testing.assert_array_equal(f, [0, 0, 0, 0])
    np.testing.assert_array_equal(p, [1, 0, 1, 0])  # |base| > 1 to a negative power is 0
    z = np.array([0, 0, 2, 2], np.int32), np.array([-1, -3, 0, 3], np.int32)
    np.testing.assert_array_equal(exe(*z)[3], [0, 0, 1, 8])  # 0 ** negative is 0, not a trap
    u = ttype((3,), np.uint16)
    exe = compile_fn(f"  %r0 = ge.div %a0, %a1 : ({u}, {u}) -> {u}\n  %r1 = ge.mod %a0, %a1 : ({u}, {u}) -> {u}",
                     [((3,), np.uint16)] * 2, [((3,), np.uint16)] * 2)
    q, m = exe(np.array([9, 65535, 4], np.uint16), np.array([0, 65535, 3], np.uint16))
    np.testing.assert_array_equal(q, [0, 1, 1])
    np.testing.assert_array_equal(m, [0, 0, 1])


def test_bool_tensors_through_upstream_tensor_and_linalg_ops():
    """i1 tensors are widened to i8 across tensor.* ops, named linalg ops and scalar extracts."""
    body = """
  %c = tensor.concat dim(0) %a0, %a1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<4x3xi1>
  %e = tensor.empty() : tensor<3x4xi1>
  %t = linalg.transpose ins(%c : tensor<4x3xi1>) outs(%e : tensor<3x4xi1>) permutation = [1, 0]
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %s = tensor.extract %t[%i1, %i0] : tensor<3x4xi1>
  %f = tensor.empty() : tensor<3x4xi1>
  %filled = linalg.fill ins(%s : i1) outs(%f : tensor<3x4xi1>) -> tensor<3x4xi1>
  %r0 = tensor.insert %s into %t[%i0, %i0] : tensor<3x4xi1>
  %r1 = ge.xor %filled, %t : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>"""
    exe = compile_fn(body, [((2, 3), np.bool_)] * 2, [((3, 4), np.bool_)] * 2)
    a, b = rand((2, 3), np.bool_), rand((2, 3), np.bool_)
    t = np.concatenate([a, b]).T
    want0 = t.copy()
    want0[0, 0] = t[1, 0]
    got = exe(a, b)
    check(got[0], want0, np.bool_)
    check(got[1], np.full((3, 4), t[1, 0]) ^ t, np.bool_)


def test_bf16_inputs_and_outputs():
    """bf16 tensors cross the boundary as ml_dtypes.bfloat16 arrays; arithmetic runs in f32."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    text = ("func.func @f(%x: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {\n"
            "  %0 = ge.cast %x : tensor<4xbf16> to tensor<4xf32>\n  %1 = ge.exp %x : tensor<4xbf16>\n"
            "  return %0, %1 : tensor<4xf32>, tensor<4xbf16>\n}")
    with ir.Context():
        exe = CpuExecutable(ge_mlir.parse_module(text))
    x = np.array([1, 2, 3.5, -1], dtype=ml_dtypes.bfloat16)
    got = exe(x)
    np.testing.assert_array_equal(got[0], x.astype(np.float32))
    assert got[1].dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(got[1], np.exp(x.astype(np.float32)).astype(ml_dtypes.bfloat16))
