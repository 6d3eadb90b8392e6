"""ge-approximate-math in compiled code: f32 exp, tanh and erf within their stated ulp bounds of
the double-precision result over dense sweeps and the special values, the same bits on every
x86-64 level (no FMA contraction, no libm), no libm call left, and ``precise_math`` keeping libm.

The reference is numpy/``math`` in float64 rounded to f32; an ulp is the f32 spacing at the
reference's magnitude (subnormal spacing below 2^-126).
"""

from __future__ import annotations

import math
import platform

import numpy as np
import pytest

import ge_mlir

#: The pass's documented bounds (module docstring of ge_approximate_math).
BOUNDS = {"math.exp": 1.0, "math.tanh": 2.0, "math.erf": 8.0}
#: Sweep ranges: every regime of each function (exp down to its denormals and past overflow).
RANGES = {"math.exp": (-110.0, 90.0), "math.tanh": (-12.0, 12.0), "math.erf": (-6.0, 6.0)}
_REF = {"math.exp": np.exp, "math.tanh": np.tanh, "math.erf": np.vectorize(math.erf, otypes=[np.float64])}
_N = 1 << 17


def _module(op: str, n: int):
    """The ONNX model of one op (ge.exp / ge.tanh / ge.erf, lowered to the math op) on n floats."""
    from onnx import TensorProto, helper

    onnx_op = {"math.exp": "Exp", "math.tanh": "Tanh", "math.erf": "Erf"}[op]
    graph = helper.make_graph([helper.make_node(onnx_op, ["x"], ["y"])], onnx_op,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _inputs(op: str) -> np.ndarray:
    lo, hi = RANGES[op]
    rng = np.random.default_rng(5)
    tiny = np.geomspace(1e-38, 1.0, 4096)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 88.72283, 88.72284, 88.7, -87.33655, -103.97,
               -87.0, -86.99999, -3.4e38,
               0.625, -0.625, 0.62499994, 4.0, -4.0, 3.4e38, -3.4e38]
    x = np.concatenate([np.linspace(lo, hi, _N - 2 * tiny.size - len(special) - 4096), tiny, -tiny, special,
                        rng.uniform(lo, hi, 4096)])
    return x.astype(np.float32)


def _ulps(got: np.ndarray, x: np.ndarray, op: str) -> np.ndarray:
    with np.errstate(over="ignore"):
        ref = _REF[op](x.astype(np.float64))
    finite = np.isfinite(ref) & (np.abs(ref) <= np.finfo(np.float32).max)
    spacing = np.spacing(np.abs(ref[finite]).astype(np.float32)).astype(np.float64)
    return np.abs(got[finite].astype(np.float64) - ref[finite]) / spacing


@pytest.mark.parametrize("op", list(BOUNDS))
def test_within_the_stated_ulps_and_specials(op):
    x = _inputs(op)
    compiled = ge_mlir.compile(_module(op, x.size), progress=False)
    got = compiled(x)[0]
    if op == "math.exp":  # below e^-87 the result is 0 (no denormal is computed)
        low = x < -87.0
        assert (got[low] == 0).all()
        got, x = got[~low], x[~low]
    ulps = _ulps(got, x, op)
    assert ulps.max() <= BOUNDS[op], f"{op}: {ulps.max():.2f} ulp at x = {x[np.argmax(ulps)]!r}"
    # Specials follow libm: NaN stays NaN, overflow is +inf, the infinities map as f(+-inf).
    with np.errstate(over="ignore"):
        ref32 = _REF[op](x.astype(np.float64)).astype(np.float32)
    nan = np.isnan(x)
    assert np.isnan(got[nan]).all()
    inf = np.isinf(ref32)
    np.testing.assert_array_equal(got[inf], ref32[inf])
    # Signs: odd functions keep the sign of zero and of every input.
    if op != "math.exp":
        keep = ~nan
        assert (np.signbit(got[keep]) == np.signbit(x[keep])).all()
    # No libm call left for the op (the loop vectorizes).
    llvm = compiled.ir("llvm")
    assert "llvm.intr.exp" not in llvm and "llvm.intr.tanh" not in llvm and "@erff" not in llvm


@pytest.mark.parametrize("op", ["math.tanh", "math.erf"])
def test_precise_math_keeps_libm(op):
    x = _inputs(op)
    compiled = ge_mlir.compile(_module(op, x.size), options={"precise_math": True}, progress=False)
    llvm = compiled.ir("llvm")
    assert {"math.tanh": "llvm.intr.tanh", "math.erf": "@erff"}[op] in llvm
    assert _ulps(compiled(x)[0], x, op).max() <= 2.5  # glibc's bounds for tanhf / erff


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 levels")
@pytest.mark.parametrize("op", list(BOUNDS))
def test_same_bits_on_every_x86_64_level(op, monkeypatch):
    x = _inputs(op)
    results = []
    for level in ("host", "x86-64", "x86-64-v3"):
        monkeypatch.setenv("GE_MLIR_JIT_CPU", level)
        results.append(ge_mlir.compile(_module(op, x.size), progress=False)(x)[0])
    for r in results[1:]:
        np.testing.assert_array_equal(r.view(np.uint32), results[0].view(np.uint32))


def test_precise_math_option_is_checked():
    from ge_mlir.errors import CompileError

    with pytest.raises(CompileError, match="precise_math must be True or False"):
        ge_mlir.compile(_module("math.exp", 8), options={"precise_math": "yes"}, progress=False)
