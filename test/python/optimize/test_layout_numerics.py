"""Differential tests of ge-transform-layout on the CPU backend.

A ResNet-style graph (conv/bn/relu, residual add, max pool, global average
pool, flatten, gemm) is compiled as imported (reference) and after the
default CPU pipeline plus ``ge-transform-layout`` computing the convolutions
and pools in NHWC. Layout changes only move data, so outputs agree to f32
rounding of the (unchanged) arithmetic: ``rtol=1e-5, atol=1e-5``. Pinned
input/output formats change the compiled signature; the test feeds the
transposed input and compares with the reference.
"""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.frontend.onnx import import_onnx
from ge_mlir.optimize.default_pipeline import default_pipeline
from ge_mlir.passes import build_pass_manager

RTOL, ATOL = 1e-5, 1e-5


def _resnet_like() -> tuple[object, np.ndarray]:
    rng = np.random.default_rng(3)
    c_in, c = 3, 8

    def bn(p):
        return {f"{p}s": rng.uniform(0.5, 2.0, c), f"{p}b": rng.standard_normal(c),
                f"{p}m": rng.standard_normal(c), f"{p}v": rng.uniform(0.5, 2.0, c)}

    inits = {"W0": rng.standard_normal((c, c_in, 3, 3)) * 0.3, "W1": rng.standard_normal((c, c, 3, 3)) * 0.2,
             "W2": rng.standard_normal((c, c, 3, 3)) * 0.2, "G": rng.standard_normal((5, c)),
             "GB": rng.standard_normal(5), "K": rng.standard_normal((c, 1, 1)), **bn("a"), **bn("b"), **bn("d")}
    nodes = [
        helper.make_node("Conv", ["x", "W0"], ["c0"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c0", "as", "ab", "am", "av"], ["b0"]),
        helper.make_node("Relu", ["b0"], ["r0"]),
        helper.make_node("MaxPool", ["r0"], ["p0"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p0", "W1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "bs", "bb", "bm", "bv"], ["b1"]),
        helper.make_node("Relu", ["b1"], ["r1"]),
        helper.make_node("Conv", ["r1", "W2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c2", "ds", "db", "dm", "dv"], ["b2"]),
        helper.make_node("Add", ["b2", "p0"], ["s"]),
        helper.make_node("Relu", ["s"], ["r2"]),
        helper.make_node("Mul", ["r2", "K"], ["m"]),
        helper.make_node("GlobalAveragePool", ["m"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "G", "GB"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c_in, 12, 12])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])],
        [numpy_helper.from_array(a.astype(np.float32), n) for n, a in inits.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model, rng.standard_normal((1, c_in, 12, 12)).astype(np.float32)


def _optimize(model, layout: str) -> tuple[str, str, dict[str, int]]:
    """(imported IR, optimized IR, ge-transform-layout statistics)."""
    with ir.Context() as ctx, ir.Location.unknown():
        module = import_onnx(model)
        ref = module.operation.get_asm()
        fusion = [e for e in default_pipeline("cpu").elements if not e.startswith("ge-transform-layout")]
        text = f"builtin.module({', '.join(fusion + [layout])})"
        pm, elements = build_pass_manager(text, ctx)
        pm.run(module.operation)
        module.operation.verify()
        stats = next(dict(el.ge_pass.statistics) for el in elements
                     if el.ge_pass is not None and el.ge_pass.name == "ge-transform-layout")
        return ref, module.operation.get_asm(), stats


def _run(ir_text: str, *feeds: np.ndarray) -> list[np.ndarray]:
    return ge_mlir.compile(ir_text, options={"optimize": False})(*feeds)


def test_nhwc_resnet_like():
    model, x = _resnet_like()
    ref, opt, stats = _optimize(model, "ge-transform-layout{format=NHWC}")
    # conv x3, max pool, global pool in NHWC; the residual add fused into the
    # conv, the relus fused, the mul by a [C,1,1] constant propagated.
    assert stats["ops-converted"] == 5 and stats["ops-propagated"] == 1
    assert stats["constants-relaid"] == 1
    # One conversion in (the input), one out (before flatten).
    assert stats["trans-data-inserted"] == 2 and opt.count("ge.trans_data") == 2
    assert stats["trans-data-avoided"] >= 8
    assert opt.count("#ge.format<NHWC>") >= 5 + 2
    np.testing.assert_allclose(_run(opt, x)[0], _run(ref, x)[0], rtol=RTOL, atol=ATOL)


def test_pinned_input_format():
    """inputFormat NHWC: the compiled function takes NHWC and no conversion is left at the input."""
    model, x = _resnet_like()
    ref, opt, stats = _optimize(model, "ge-transform-layout{format=NHWC input-format=NHWC}")
    assert stats["trans-data-inserted"] == 1 and opt.count("ge.trans_data") == 1
    compiled = ge_mlir.compile(opt, options={"optimize": False})
    assert compiled.inputs[0].shape == (1, 12, 12, 3)
    got = compiled(np.ascontiguousarray(x.transpose(0, 2, 3, 1)))[0]
    np.testing.assert_allclose(got, _run(ref, x)[0], rtol=RTOL, atol=ATOL)


def test_pins_on_cpu_format_nchw_via_config():
    """On CPU (format NCHW) the config pins input and output: conversions at both ends only."""
    text = """
    func.func @f(%x: tensor<1x2x5x5xf32>) -> tensor<1x4x3x3xf32> {
      %w = ge.constant dense<0.25> : tensor<4x2x3x3xf32>
      %c = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
      return %c : tensor<1x4x3x3xf32>
    }
    """
    cfg = {"layout": {"inputFormat": "NHWC", "outputFormat": "NHWC"}}
    compiled = ge_mlir.compile(text, options={"config": cfg})
    assert compiled.inputs[0].shape == (1, 5, 5, 2) and compiled.outputs[0].shape == (1, 3, 3, 4)
    assert compiled.ir("optimized").count("ge.trans_data") == 2
    x = np.random.default_rng(4).standard_normal((1, 2, 5, 5)).astype(np.float32)
    want = _run(text, x)[0]
    got = compiled(np.ascontiguousarray(x.transpose(0, 2, 3, 1)))[0]
    np.testing.assert_allclose(got.transpose(0, 3, 1, 2), want, rtol=RTOL, atol=ATOL)


def test_forbidden_pair_keeps_region_in_nchw():
    """forbid global_avg_pool -> flatten: the region that would need that conversion stays NCHW."""
    model, x = _resnet_like()
    ref, opt, stats = _optimize(
        model, "ge-transform-layout{format=NHWC forbid-trans-data=ge.global_avg_pool:ge.flatten}")
    assert stats["ops-converted"] == 0 and "ge.trans_data" not in opt
    np.testing.assert_allclose(_run(opt, x)[0], _run(ref, x)[0], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("options, message", [
    ({"format": "NC1HWC0"}, "format 'NC1HWC0' is not supported (supported: NCHW, NHWC)"),
    ({"ops": ["conv2d", "matmul"]}, "matmul cannot change format"),
    ({"forbid-trans-data": ["conv2d"]}, "must be 'ge.<producer>:ge.<consumer>'"),
])
def test_bad_options(options, message):
    model, _ = _resnet_like()
    cfg = {"passes": {"ge-transform-layout": {"options": options}}}
    with pytest.raises(ge_mlir.GeMlirError) as err:
        ge_mlir.compile(model, options={"config": cfg})
    text = str(err.value) + "".join(str(d) for d in getattr(err.value, "diagnostics", []))
    assert "ge-transform-layout" in text and message in text
