"""Differential tests of the fusion passes (ge-fuse-conv-bn, ge-fuse-bias-add,
ge-fuse-conv-residual, ge-fuse-activation, ge-fuse-layer-norm).

Each graph (ONNX built with ``onnx.helper``, or ge IR text) is compiled twice
with ``ge_mlir.compile(..., options={"optimize": False})``: as imported
(reference) and after running the fusion pipeline on the parsed module.
Outputs on seeded random inputs must agree within float32 ``rtol=1e-5,
atol=1e-5`` (fusion only reassociates: folded BN weights are rounded once to
f32, the fused epilogue computes the same activation formula). Op counts and
pass statistics are asserted too.
"""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.api import parse_module
from ge_mlir.passes import build_pass_manager

RTOL, ATOL = 1e-5, 1e-5
FUSE_ALL = ("builtin.module(ge-fuse-layer-norm, ge-fuse-conv-bn, ge-fuse-bias-add, ge-fuse-conv-residual, "
            "ge-fuse-activation)")


def _count(text: str, op: str) -> int:
    return text.count(f" = ge.{op} ")


def _fuse(model, pipeline: str = FUSE_ALL) -> tuple[str, str, dict[str, dict[str, int]]]:
    """(reference IR, fused IR, statistics per pass)."""
    with ir.Context() as ctx, ir.Location.unknown():
        if isinstance(model, str):
            module = parse_module(model)
        else:
            from ge_mlir.frontend.onnx import import_onnx

            module = import_onnx(model)
        ref = module.operation.get_asm()
        pm, elements = build_pass_manager(pipeline, ctx)
        pm.run(module.operation)
        module.operation.verify()
        stats = {el.ge_pass.name: dict(el.ge_pass.statistics) for el in elements if el.ge_pass is not None}
        return ref, module.operation.get_asm(), stats


def _compare(ref_ir: str, fused_ir: str, feeds: list[np.ndarray]) -> None:
    ref = ge_mlir.compile(ref_ir, options={"optimize": False})
    got = ge_mlir.compile(fused_ir, options={"optimize": False})
    want, have = ref(*feeds), got(*feeds)
    assert len(want) == len(have)
    for i, (w, h) in enumerate(zip(want, have)):
        assert w.shape == h.shape and w.dtype == h.dtype
        np.testing.assert_allclose(h, w, rtol=RTOL, atol=ATOL, err_msg=f"output {i}")


def _model(nodes, inputs, outputs, inits, opset: int = 17):
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs],
        [numpy_helper.from_array(a.astype(np.float32), n) for n, a in inits.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_conv_bn_relu_onnx():
    """Conv(+bias) -> BatchNormalization -> Relu, then Conv -> Add([1,C,1,1]) -> Sigmoid.

    The filters have more than 64 elements, so the importer stores them as
    dense_resource blobs: the fold reads them through the C API.
    """
    rng = np.random.default_rng(0)
    c_in, c = 3, 8
    inits = {
        "W": rng.standard_normal((c, c_in, 3, 3)), "B": rng.standard_normal(c),
        "scale": rng.uniform(0.5, 2.0, c), "beta": rng.standard_normal(c),
        "mean": rng.standard_normal(c), "var": rng.uniform(0.5, 2.0, c),
        "W2": rng.standard_normal((c, c, 1, 1)), "K": rng.standard_normal((1, c, 1, 1)),
    }
    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "scale", "beta", "mean", "var"], ["bn"], epsilon=1e-3),
        helper.make_node("Relu", ["bn"], ["r"]),
        helper.make_node("Conv", ["r", "W2"], ["c2"]),
        helper.make_node("Add", ["c2", "K"], ["a"]),
        helper.make_node("Sigmoid", ["a"], ["y"]),
    ]
    model = _model(nodes, [("x", [1, c_in, 6, 6])], [("y", [1, c, 6, 6])], inits)
    ref, fused, stats = _fuse(model)
    assert "dense_resource" in ref
    assert _count(ref, "conv2d") == 2 and _count(ref, "batch_norm") == 1 and _count(ref, "add") == 1
    assert _count(fused, "conv2d") == 2
    for op in ("batch_norm", "add", "relu", "sigmoid"):
        assert _count(fused, op) == 0, op
    assert "#ge.act<relu>" in fused and "#ge.act<sigmoid>" in fused
    assert stats["ge-fuse-conv-bn"]["conv-bn-fused"] == 1
    assert stats["ge-fuse-conv-bn"]["weights-folded-numpy"] == 1
    assert stats["ge-fuse-bias-add"]["conv2d-bias-fused"] == 1
    assert stats["ge-fuse-activation"]["rewrites"] == 2
    _compare(ref, fused, [rng.standard_normal((1, c_in, 6, 6)).astype(np.float32)])


@pytest.mark.parametrize("downsample", [False, True])
def test_residual_block_onnx(downsample):
    """A ResNet basic block: relu(bn(conv(relu(bn(conv(x))))) + skip), skip = x or bn(conv1x1/2(x)).

    After fusion it is two (three) convs: the block's add and relu live in
    the last conv (residual operand, relu activation).
    """
    rng = np.random.default_rng(1)
    c_in, c = (4, 8) if downsample else (8, 8)
    stride = 2 if downsample else 1

    def bn(prefix):
        return {f"{prefix}s": rng.uniform(0.5, 2.0, c), f"{prefix}b": rng.standard_normal(c),
                f"{prefix}m": rng.standard_normal(c), f"{prefix}v": rng.uniform(0.5, 2.0, c)}

    inits = {"W1": rng.standard_normal((c, c_in, 3, 3)) * 0.3, "W2": rng.standard_normal((c, c, 3, 3)) * 0.3,
             **bn("n1"), **bn("n2")}
    nodes = [
        helper.make_node("Conv", ["x", "W1"], ["c1"], pads=[1, 1, 1, 1], strides=[stride, stride]),
        helper.make_node("BatchNormalization", ["c1", "n1s", "n1b", "n1m", "n1v"], ["b1"]),
        helper.make_node("Relu", ["b1"], ["r1"]),
        helper.make_node("Conv", ["r1", "W2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c2", "n2s", "n2b", "n2m", "n2v"], ["b2"]),
    ]
    skip = "x"
    if downsample:
        inits.update({"Wd": rng.standard_normal((c, c_in, 1, 1)), **bn("nd")})
        nodes += [helper.make_node("Conv", ["x", "Wd"], ["cd"], strides=[2, 2]),
                  helper.make_node("BatchNormalization", ["cd", "nds", "ndb", "ndm", "ndv"], ["skip"])]
        skip = "skip"
    nodes += [helper.make_node("Add", ["b2", skip], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    hw = 8
    model = _model(nodes, [("x", [1, c_in, hw, hw])], [("y", [1, c, hw // stride, hw // stride])], inits)
    ref, fused, stats = _fuse(model)
    n_conv = 3 if downsample else 2
    assert _count(ref, "add") == 1 and _count(ref, "relu") == 2
    assert _count(fused, "conv2d") == n_conv
    for op in ("batch_norm", "add", "relu"):
        assert _count(fused, op) == 0, op
    assert fused.count(" residual(") == 1
    assert stats["ge-fuse-conv-residual"]["residual-fused"] == 1
    assert stats["ge-fuse-activation"]["relu-fused"] == 2
    _compare(ref, fused, [rng.standard_normal((1, c_in, hw, hw)).astype(np.float32)])


def test_residual_not_fused_into_conv_bn():
    """A conv that already has a residual keeps its batch_norm (BN would scale the residual too)."""
    text = """
    func.func @f(%x: tensor<1x2x4x4xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
      %w = ge.constant dense<0.5> : tensor<2x2x1x1xf32>
      %s = ge.constant dense<[1.5, 2.0]> : tensor<2xf32>
      %b = ge.constant dense<[0.1, -0.2]> : tensor<2xf32>
      %m = ge.constant dense<[0.3, 0.4]> : tensor<2xf32>
      %v = ge.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %c = ge.conv2d %x, %w residual(%r) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
      %y = ge.batch_norm %c, %s, %b, %m, %v : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
      return %y : tensor<1x2x4x4xf32>
    }
    """
    ref, fused, stats = _fuse(text)
    assert _count(fused, "batch_norm") == 1
    assert stats["ge-fuse-conv-bn"]["rewrites"] == 0
    rng = np.random.default_rng(2)
    _compare(ref, fused, [rng.standard_normal((1, 2, 4, 4)).astype(np.float32) for _ in range(2)])


def test_conv_bn_weights_as_ops():
    """fold-weights=false: W' = ge.mul(W, factor) (left for constant folding), same numbers."""
    rng = np.random.default_rng(1)
    inits = {"W": rng.standard_normal((4, 2, 3, 3)), "scale": rng.uniform(0.5, 2.0, 4),
             "beta": rng.standard_normal(4), "mean": rng.standard_normal(4), "var": rng.uniform(0.5, 2.0, 4)}
    nodes = [helper.make_node("Conv", ["x", "W"], ["c"]),
             helper.make_node("BatchNormalization", ["c", "scale", "beta", "mean", "var"], ["y"])]
    model = _model(nodes, [("x", [2, 2, 5, 5])], [("y", [2, 4, 3, 3])], inits)
    ref, fused, stats = _fuse(model, "builtin.module(ge-fuse-conv-bn{fold-weights=false})")
    assert _count(fused, "batch_norm") == 0 and _count(fused, "mul") == 1
    assert stats["ge-fuse-conv-bn"]["weights-folded-as-ops"] == 1
    _compare(ref, fused, [rng.standard_normal((2, 2, 5, 5)).astype(np.float32)])


def test_matmul_bias_activation_ir():
    """matmul/gemm + per-column constant + every fusable activation (ge IR)."""
    acts = [
        ("ge.relu %m{i}", "relu"), ("ge.clip %m{i} {{min = 0.0 : f64, max = 6.0 : f64}}", "relu6"),
        ("ge.leaky_relu %m{i} {{alpha = 0.3 : f32}}", "leaky_relu"), ("ge.sigmoid %m{i}", "sigmoid"),
        ("ge.tanh %m{i}", "tanh"), ("ge.gelu %m{i}", "gelu"), ("ge.silu %m{i}", "silu"),
        ("ge.hard_sigmoid %m{i} {{alpha = 0.3 : f32}}", "hard_sigmoid"), ("ge.hard_swish %m{i}", "hard_swish"),
    ]
    t = "tensor<4x6xf32>"
    lines = ["  %k = ge.constant dense<[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]> : tensor<6xf32>",
             "  %k2 = ge.constant dense<[[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]]> : tensor<1x6xf32>"]
    outs = []
    for i, (act, _) in enumerate(acts):
        prod = (f"ge.gemm %a, %bt {{trans_b = true, alpha = 0.5 : f32}} : (tensor<4x5xf32>, tensor<6x5xf32>) -> {t}"
                if i % 2 else f"ge.matmul %a, %b : (tensor<4x5xf32>, tensor<5x6xf32>) -> {t}")
        k = "%k2 : (tensor<4x6xf32>, tensor<1x6xf32>)" if i % 2 else "%k : (tensor<4x6xf32>, tensor<6xf32>)"
        lines += [f"  %p{i} = {prod}", f"  %m{i} = ge.add %p{i}, {k} -> {t}",
                  f"  %y{i} = {act.format(i=i)} : {t}"]
        outs.append(f"%y{i}")
    text = (f"func.func @main(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %bt: tensor<6x5xf32>) -> "
            f"({', '.join([t] * len(acts))}) {{\n" + "\n".join(lines)
            + f"\n  return {', '.join(outs)} : {', '.join([t] * len(acts))}\n}}\n")
    ref, fused, stats = _fuse(text)
    assert _count(fused, "add") == 0
    assert _count(fused, "matmul") + _count(fused, "gemm") == len(acts)
    for _, name in acts:
        assert f"#ge.act<{name}>" in fused, name
    assert stats["ge-fuse-bias-add"]["rewrites"] == len(acts)
    assert stats["ge-fuse-activation"]["rewrites"] == len(acts)
    rng = np.random.default_rng(2)
    feeds = [rng.standard_normal(s).astype(np.float32) * 2 for s in ((4, 5), (5, 6), (6, 5))]
    _compare(ref, fused, feeds)


@pytest.mark.parametrize("variance", ["Mul", "Pow"])
def test_layer_norm_and_gelu_onnx(variance):
    """A decomposed layer norm (as exported by older torch/TF) and an erf GELU, from ONNX."""
    rng = np.random.default_rng(3)
    d = 16
    inits = {"eps": np.array(1e-5), "two": np.array(2.0), "gamma": rng.uniform(0.5, 1.5, d),
             "beta": rng.standard_normal(d), "sqrt2": np.array(np.sqrt(2.0)), "one": np.array(1.0),
             "half": np.array(0.5)}
    sq = (helper.make_node("Mul", ["d", "d"], ["sq"]) if variance == "Mul"
          else helper.make_node("Pow", ["d", "two"], ["sq"]))
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[-1]),
        helper.make_node("Sub", ["x", "m"], ["d"]),
        sq,
        helper.make_node("ReduceMean", ["sq"], ["v"], axes=[-1]),
        helper.make_node("Add", ["v", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["sd"]),
        helper.make_node("Div", ["d", "sd"], ["n"]),
        helper.make_node("Mul", ["n", "gamma"], ["s"]),
        helper.make_node("Add", ["s", "beta"], ["ln"]),
        helper.make_node("Div", ["ln", "sqrt2"], ["t"]),
        helper.make_node("Erf", ["t"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["p"]),
        helper.make_node("Mul", ["ln", "p"], ["lp"]),
        helper.make_node("Mul", ["lp", "half"], ["y"]),
    ]
    model = _model(nodes, [("x", [2, 3, d])], [("y", [2, 3, d])], inits)
    ref, fused, stats = _fuse(model, "builtin.module(ge-fuse-layer-norm)")
    assert _count(ref, "reduce_mean") == 2 and _count(ref, "erf") == 1
    assert _count(fused, "layer_norm") == 1 and _count(fused, "gelu") == 1
    for op in ("reduce_mean", "sub", "mul", "div", "add", "sqrt", "pow", "erf"):
        assert _count(fused, op) == 0, op
    st = stats["ge-fuse-layer-norm"]
    assert (st["layer-norm-fused"], st["layer-norm-scale-fused"], st["layer-norm-bias-fused"], st["gelu-fused"]) == (1, 1, 1, 1)
    _compare(ref, fused, [rng.standard_normal((2, 3, d)).astype(np.float32) * 3 + 1])


@pytest.mark.parametrize("form", ["reciprocal", "div"])
def test_rms_norm_onnx(form):
    """A decomposed RMS norm as torch exports LLaMA's (Pow, ReduceMean, Add, Sqrt, Reciprocal, Mul,
    Mul by the weight), and the x / sqrt(...) spelling."""
    rng = np.random.default_rng(4)
    d = 16
    inits = {"eps": np.array(1e-6), "two": np.array(2.0), "w": rng.uniform(0.5, 1.5, d)}
    tail = ([helper.make_node("Reciprocal", ["sd"], ["r"]), helper.make_node("Mul", ["x", "r"], ["n"])]
            if form == "reciprocal" else [helper.make_node("Div", ["x", "sd"], ["n"])])
    nodes = [
        helper.make_node("Pow", ["x", "two"], ["sq"]),
        helper.make_node("ReduceMean", ["sq"], ["v"], axes=[-1]),
        helper.make_node("Add", ["v", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["sd"]),
        *tail,
        helper.make_node("Mul", ["n", "w"], ["y"]),
    ]
    model = _model(nodes, [("x", [2, 3, d])], [("y", [2, 3, d])], inits)
    ref, fused, stats = _fuse(model, "builtin.module(ge-fuse-layer-norm)")
    assert _count(fused, "rms_norm") == 1
    for op in ("reduce_mean", "mul", "div", "add", "sqrt", "pow", "reciprocal"):
        assert _count(fused, op) == 0, op
    st = stats["ge-fuse-layer-norm"]
    assert (st["rms-norm-fused"], st["rms-norm-scale-fused"]) == (1, 1)
    _compare(ref, fused, [rng.standard_normal((2, 3, d)).astype(np.float32) * 3 + 1])


def test_disabled_passes_change_nothing():
    model = _model([helper.make_node("MatMul", ["x", "W"], ["m"]), helper.make_node("Relu", ["m"], ["y"])],
                   [("x", [2, 3])], [("y", [2, 4])], {"W": np.ones((3, 4))})
    ref, fused, stats = _fuse(model, "builtin.module(ge-fuse-activation{enable=false}, ge-fuse-bias-add{enable=false})")
    assert ref == fused
    assert stats["ge-fuse-activation"]["rewrites"] == 0
