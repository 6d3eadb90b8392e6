"""float8, float4, int4 and int2 tensors end to end on the CPU target (ge-emulate-narrow-types):
bit-exact with the ONNX reference (ml_dtypes) on every code and on the rounding boundaries."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.reference import ReferenceEvaluator

import ge_mlir

FLOATS = {"FLOAT8E4M3FN": ml_dtypes.float8_e4m3fn, "FLOAT8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
          "FLOAT8E5M2": ml_dtypes.float8_e5m2, "FLOAT8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
          "FLOAT4E2M1": ml_dtypes.float4_e2m1fn}
INTS = {"INT4": ml_dtypes.int4, "UINT4": ml_dtypes.uint4, "INT2": ml_dtypes.int2, "UINT2": ml_dtypes.uint2}
CODES = {"FLOAT4E2M1": 16, "INT4": 16, "UINT4": 16, "INT2": 4, "UINT2": 4}


def _cast_model(src: str, dst: str, n: int, saturate: int | None = None) -> onnx.ModelProto:
    attrs = {"to": getattr(TP, dst)}
    if saturate is not None:
        attrs["saturate"] = saturate
    g = helper.make_graph([helper.make_node("Cast", ["x"], ["y"], **attrs)], "cast",
                          [helper.make_tensor_value_info("x", getattr(TP, src), [n])],
                          [helper.make_tensor_value_info("y", getattr(TP, dst), [n])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)], ir_version=11)


def _run_both(model: onnx.ModelProto, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(all="ignore"):
        ref = ReferenceEvaluator(model).run(None, {"x": x})[0]
    got = ge_mlir.compile(model)(x)
    return ref, got[0] if isinstance(got, (list, tuple)) else got


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}")


def _encode_inputs(dtype) -> np.ndarray:
    """Every finite value of the type, the midpoints between neighbours (ties), the f32 values just
    either side of each midpoint, the specials, overflow and underflow, and random values."""
    n = CODES.get(next((k for k, v in {**FLOATS, **INTS}.items() if v is dtype), ""), 256)
    values = np.arange(n, dtype=np.uint8).view(dtype).astype(np.float64)
    s = np.unique(values[np.isfinite(values)])
    mids = ((s[1:] + s[:-1]) / 2).astype(np.float32)
    specials = [np.nan, -np.nan, np.inf, -np.inf, 1e30, -1e30, 0.0, -0.0, 1e-30, -1e-30, 3e9, -3e9,
                2.5, -2.5, 7.5, 8.5, -8.5, 100, -100, 464, 465, 61440, 61439, 1e10]
    rng = np.random.default_rng(0)
    return np.concatenate([s, mids, np.nextafter(mids, np.float32(np.inf)), np.nextafter(mids, np.float32(-np.inf)),
                           specials, rng.standard_normal(256) * 50]).astype(np.float32)


@pytest.mark.parametrize("name", [*FLOATS, *INTS, "FLOAT8E8M0"])
@pytest.mark.parametrize("dst", ["FLOAT", "FLOAT16"])
def test_decode_every_code(name, dst):
    dtype = {**FLOATS, **INTS, "FLOAT8E8M0": ml_dtypes.float8_e8m0fnu}[name]
    x = np.arange(CODES.get(name, 256), dtype=np.uint8).view(dtype)
    ref, got = _run_both(_cast_model(name, dst, x.size), x)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_array_equal(got[~np.isnan(got)], ref[~np.isnan(ref)])  # -0 vs 0: checked below
    np.testing.assert_array_equal(np.signbit(got[~np.isnan(got)]), np.signbit(ref[~np.isnan(ref)]))


@pytest.mark.parametrize("name,saturate", [(n, None) for n in [*FLOATS, *INTS]] +
                         [(n, 0) for n in FLOATS if n.startswith("FLOAT8")])  # saturate: float8 only
@pytest.mark.parametrize("src", ["FLOAT", "FLOAT16"])
def test_encode_bit_exact(name, src, saturate):
    dtype = {**FLOATS, **INTS}[name]
    with np.errstate(all="ignore"):
        x = _encode_inputs(dtype).astype(np.float16 if src == "FLOAT16" else np.float32)
    ref, got = _run_both(_cast_model(src, name, x.size, saturate), x)
    assert got.dtype == ref.dtype == np.dtype(dtype)
    bad = np.nonzero(_bits(got) != _bits(ref))[0]
    assert bad.size == 0, f"{x[bad[:5]]}: got {_bits(got)[bad[:5]]}, reference {_bits(ref)[bad[:5]]}"


def test_integers_wrap_into_int4():
    x = np.array([-9, -8, 7, 8, 100, -100, 2**40], np.int64)
    ref, got = _run_both(_cast_model("INT64", "INT4", x.size), x)
    np.testing.assert_array_equal(_bits(got), _bits(ref))


def _qdq_model(qtype: str, n: int) -> onnx.ModelProto:
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"])]
    g = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("x", TP.FLOAT, [n])],
                          [helper.make_tensor_value_info("q", getattr(TP, qtype), [n]),
                           helper.make_tensor_value_info("y", TP.FLOAT, [n])],
                          initializer=[helper.make_tensor("s", TP.FLOAT, [], [0.5]),
                                       helper.make_tensor("zp", getattr(TP, qtype), [], [1 if "INT" in qtype else 0])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)], ir_version=11)


@pytest.mark.parametrize("qtype", ["INT4", "UINT4", "INT2", "UINT2", "FLOAT8E4M3FN", "FLOAT8E5M2", "FLOAT4E2M1"])
def test_quantize_dequantize_with_constant_zero_point(qtype):
    """The zero point is a narrow constant (ge-emulate-narrow-types rewrites it to its bytes)."""
    x = np.linspace(-600, 600, 97).astype(np.float32)
    model = _qdq_model(qtype, x.size)
    ref = ReferenceEvaluator(model).run(None, {"x": x})
    got = ge_mlir.compile(model)(x)
    np.testing.assert_array_equal(_bits(got[0]), _bits(ref[0]))
    np.testing.assert_array_equal(got[1], ref[1])


def test_move_ops_pass_narrow_bytes_through():
    """Transpose/Flatten/Reshape of float8 tensors move bytes; the result is the reference's."""
    x = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e4m3fn).reshape(16, 16)
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0]),
             helper.make_node("Flatten", ["t"], ["c"], axis=0),
             helper.make_node("Reshape", ["c", "shape"], ["y"])]
    g = helper.make_graph(nodes, "move", [helper.make_tensor_value_info("x", TP.FLOAT8E4M3FN, [16, 16])],
                          [helper.make_tensor_value_info("y", TP.FLOAT8E4M3FN, [8, 32])],
                          initializer=[helper.make_tensor("shape", TP.INT64, [2], [8, 32])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)], ir_version=11)
    ref, got = _run_both(model, x)
    np.testing.assert_array_equal(_bits(got), _bits(ref))


@pytest.mark.parametrize("mode", ["up", "down", "nearest"])
@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("src", ["FLOAT", "FLOAT16"])
def test_cast_to_e8m0_bit_exact(mode, saturate, src):
    """FLOAT8E8M0 per round_mode and saturate, bit for bit the reference's to_float8e8m0: powers of
    two, values just above and below them, halfway points, the largest finite f32, subnormals,
    zero, negatives, NaN and inf."""
    from onnx import helper as hh

    p = np.ldexp(1.0, np.arange(-126, 128)).astype(np.float64)
    x = np.concatenate([p, p * 1.5, p * 1.25, p * 1.75, np.nextafter(p.astype(np.float32), np.float32(np.inf)),
                        np.nextafter(p.astype(np.float32), np.float32(0)), [3.4e38, 1e-40, 0.0, -0.0, -3.0, -0.7,
                                                                            np.nan, np.inf, -np.inf]])
    with np.errstate(all="ignore"):
        x = x.astype(np.float16 if src == "FLOAT16" else np.float32)
    g = hh.make_graph([hh.make_node("Cast", ["x"], ["y"], to=TP.FLOAT8E8M0, saturate=saturate, round_mode=mode)],
                      "e8m0", [hh.make_tensor_value_info("x", getattr(TP, src), [x.size])],
                      [hh.make_tensor_value_info("y", TP.FLOAT8E8M0, [x.size])])
    model = hh.make_model(g, opset_imports=[hh.make_opsetid("", 25)], ir_version=11)
    ref, got = _run_both(model, x)
    bad = np.nonzero(_bits(got) != _bits(ref))[0]
    assert bad.size == 0, f"{x[bad[:5]]}: got {_bits(got)[bad[:5]]}, reference {_bits(ref)[bad[:5]]}"


@pytest.mark.parametrize("src,dst", [("FLOAT", "INT32"), ("INT32", "FLOAT"), ("DOUBLE", "INT64"), ("FLOAT16", "UINT16"),
                                     ("BFLOAT16", "INT16"), ("BOOL", "UINT8"), ("FLOAT8E4M3FN", "UINT8"),
                                     ("UINT8", "FLOAT8E5M2"), ("INT4", "UINT4"), ("FLOAT4E2M1", "INT4")])
def test_bitcast_keeps_the_bits(src, dst):
    """ONNX BitCast (ge.bitcast): the stored bits of every element, for narrow types the stored byte."""
    from onnx import helper as hh

    rng = np.random.default_rng(1)
    sdt = {**FLOATS, **INTS}.get(src) or hh.tensor_dtype_to_np_dtype(getattr(TP, src))
    if np.dtype(sdt) == np.bool_:
        x = rng.integers(0, 2, 16).astype(np.bool_)
    elif np.dtype(sdt).itemsize == 1 and src not in ("UINT8",):
        x = np.arange(CODES.get(src, 256), dtype=np.uint8).view(sdt)
    else:
        x = rng.integers(0, 2 ** 8, 16 * np.dtype(sdt).itemsize, dtype=np.uint8).view(sdt)
    g = hh.make_graph([hh.make_node("BitCast", ["x"], ["y"], to=getattr(TP, dst))], "bitcast",
                      [hh.make_tensor_value_info("x", getattr(TP, src), [x.size])],
                      [hh.make_tensor_value_info("y", getattr(TP, dst), [x.size])])
    model = hh.make_model(g, opset_imports=[hh.make_opsetid("", 26)], ir_version=12)
    ref, got = _run_both(model, x)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(_bits(got), _bits(ref))


def test_narrow_values_cross_an_if():
    """float8 results of both branches of a run-time If (saturating and not) keep their bytes."""
    from onnx import helper as hh

    then_g = hh.make_graph([hh.make_node("Cast", ["x"], ["t"], to=TP.FLOAT8E4M3FN)], "then", [],
                           [hh.make_tensor_value_info("t", TP.FLOAT8E4M3FN, [4])])
    else_g = hh.make_graph([hh.make_node("Cast", ["x"], ["e"], to=TP.FLOAT8E4M3FN, saturate=0)], "else", [],
                           [hh.make_tensor_value_info("e", TP.FLOAT8E4M3FN, [4])])
    g = hh.make_graph([hh.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)], "branch",
                      [hh.make_tensor_value_info("c", TP.BOOL, []), hh.make_tensor_value_info("x", TP.FLOAT, [4])],
                      [hh.make_tensor_value_info("y", TP.FLOAT8E4M3FN, [4])])
    model = hh.make_model(g, opset_imports=[hh.make_opsetid("", 21)], ir_version=10)
    compiled = ge_mlir.compile(model)
    x = np.array([1.3, 500, -1000, 0.01], np.float32)
    for cond in (True, False):
        feeds = {"c": np.array(cond), "x": x}
        ref = ReferenceEvaluator(model).run(None, feeds)[0]
        np.testing.assert_array_equal(_bits(compiled(**feeds)[0]), _bits(ref))
