"""The ge dialect from Python: op classes, builders with type inference, round trips."""

import re
from pathlib import Path

import pytest
from mlir import ir
from mlir.dialects import func

import ge_mlir
from ge_mlir.dialects import ge

ROOT = Path(__file__).resolve().parents[3]


def _td_mnemonics() -> set[str]:
    text = (ROOT / "dialects" / "GeOps.td").read_text()
    names = set(re.findall(r'^def GE_\w+Op : GE_\w+<"(\w+)"', text, re.M))
    # Ops instantiated through helper classes (reductions, pools, ...).
    names |= set(re.findall(r'^def GE_\w+ : GE_\w+Op<"(\w+)"', text, re.M))
    return names


def test_every_op_has_a_python_class(ctx):
    mnemonics = _td_mnemonics()
    assert len(mnemonics) >= 88
    classes = {
        getattr(ge, n).OPERATION_NAME
        for n in dir(ge)
        if isinstance(getattr(ge, n), type) and hasattr(getattr(ge, n), "OPERATION_NAME")
    }
    assert {f"ge.{m}" for m in mnemonics} <= classes
    for m in mnemonics:
        assert ctx.is_registered_operation(f"ge.{m}"), m


def test_issue_op_list_is_covered():
    required = """constant abs neg exp log sqrt rsqrt reciprocal tanh sigmoid relu leaky_relu gelu erf sin cos
    floor ceil round sign not softplus hard_sigmoid hard_swish silu add sub mul div pow max min mod and or xor
    equal less less_equal greater greater_equal where clip cast reduce_sum reduce_mean reduce_max reduce_min
    reduce_prod reduce_l2 argmax argmin cumsum softmax log_softmax layer_norm rms_norm batch_norm instance_norm
    matmul gemm conv2d conv_transpose2d max_pool2d avg_pool2d global_avg_pool global_max_pool resize reshape
    transpose concat split slice gather gather_elements scatter_elements expand squeeze unsqueeze flatten pad
    tile shape range one_hot top_k identity trans_data""".split()
    assert set(required) <= _td_mnemonics()


def _build_conv_block(ctx):
    f32 = ir.F32Type.get()
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):

        @func.FuncOp.from_py_func(
            ir.RankedTensorType.get([1, 3, 32, 32], f32),
            ir.RankedTensorType.get([16, 3, 3, 3], f32),
            ir.RankedTensorType.get([16], f32),
        )
        def conv_block(x, w, b):
            return ge.conv2d(
                x, w, bias=b, strides=[2, 2], pads=[1, 1, 1, 1], activation=ge.Activation.relu
            )

    return module


def test_conv_bias_relu_build_verify_print_parse(ctx):
    module = _build_conv_block(ctx)
    ge_mlir.verify(module)
    text = str(module)
    # Result type inferred by the builder: (32 + 2 - 3) // 2 + 1 = 16.
    assert "-> tensor<1x16x16x16xf32>" in text
    assert "activation = #ge.act<relu>" in text
    assert "strides = array<i64: 2, 2>" in text
    reparsed = ge_mlir.parse_module(text)
    assert str(reparsed) == text
    generic = module.operation.get_asm(print_generic_op_form=True)
    assert '"ge.conv2d"' in generic
    assert str(ge_mlir.parse_module(generic)) == text


def test_op_view_accessors(ctx):
    module = _build_conv_block(ctx)
    conv = next(op for op in module.body.operations[0].regions[0].blocks[0].operations if op.name == "ge.conv2d")
    assert isinstance(conv, ge.Conv2DOp)
    assert list(conv.strides) == [2, 2]
    assert conv.bias is not None
    assert str(conv.activation) == "#ge.act<relu>"
    assert conv.groups.value == 1


@pytest.mark.parametrize(
    "build, expected",
    [
        (lambda a, b: ge.add(a, b), "tensor<4x3xf32>"),
        (lambda a, b: ge.less(a, b), "tensor<4x3xi1>"),
        (lambda a, b: ge.matmul(ge.transpose(a, [1, 0]), a), "tensor<3x3xf32>"),
        (lambda a, b: ge.reduce_mean(a, axes=[1], keepdims=False), "tensor<4xf32>"),
        (lambda a, b: ge.argmax(a, 0), "tensor<1x3xi64>"),
        (lambda a, b: ge.concat([a, a], 0), "tensor<8x3xf32>"),
        (lambda a, b: ge.unsqueeze(a, [0]), "tensor<1x4x3xf32>"),
        (lambda a, b: ge.flatten(ge.unsqueeze(a, [0]), axis=2), "tensor<4x3xf32>"),
        (lambda a, b: ge.slice(a, [1], [3]), "tensor<2x3xf32>"),
        (lambda a, b: ge.pad(a, [1, 0, 1, 0]), "tensor<6x3xf32>"),
        (lambda a, b: ge.shape(a), "tensor<2xi64>"),
        (lambda a, b: ge.layer_norm(a, b), "tensor<4x3xf32>"),
        (
            lambda a, b: ge.trans_data(
                ge.reshape(ir.RankedTensorType.get([1, 4, 3, 1], ir.F32Type.get()), a),
                ir.Attribute.parse("#ge.format<NCHW>"),
                ir.Attribute.parse("#ge.format<NC1HWC0>"),
            ),
            "tensor<1x1x3x1x8xf32>",
        ),
    ],
)
def test_builders_infer_result_types(ctx, build, expected):
    f32 = ir.F32Type.get()
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):

        @func.FuncOp.from_py_func(ir.RankedTensorType.get([4, 3], f32), ir.RankedTensorType.get([3], f32))
        def f(a, b):
            return build(a, b)

    ge_mlir.verify(module)
    ret = module.body.operations[0].regions[0].blocks[0].operations[-1]
    assert str(ret.operands[0].type) == expected


def test_split_and_top_k_multiple_results(ctx):
    f32 = ir.F32Type.get()
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):

        @func.FuncOp.from_py_func(ir.RankedTensorType.get([2, 10], f32))
        def f(x):
            parts = ge.SplitOp(x, 1, [3, 7]).results
            top = ge.TopKOp(x, 4)
            return parts[0], parts[1], top.values, top.indices

    ge_mlir.verify(module)
    types = [str(t) for t in module.body.operations[0].type.results]
    assert types == ["tensor<2x3xf32>", "tensor<2x7xf32>", "tensor<2x4xf32>", "tensor<2x4xi64>"]


def test_builder_with_invalid_attributes_raises_not_aborts(ctx):
    f32 = ir.F32Type.get()
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        fn = func.FuncOp("f", ([ir.RankedTensorType.get([2, 3], f32)], []))
        with ir.InsertionPoint(fn.add_entry_block()):
            with pytest.raises(Exception) as info:
                ge.transpose(fn.arguments[0], [0, 0])
    assert "not a permutation" in str(info.value) or "infer" in str(info.value)


@pytest.mark.parametrize("build, operand", [
    (lambda x, w, a, u: ge.conv2d(x, w, bias=u), "bias"),
    (lambda x, w, a, u: ge.conv2d(x, w, residual=u), "residual"),
    (lambda x, w, a, u: ge.conv_transpose2d(x, w, bias=u), "bias"),
    (lambda x, w, a, u: ge.matmul(a, a, bias=u), "bias"),
    (lambda x, w, a, u: ge.gemm(a, a, c=u), "c"),
])
def test_builder_with_unranked_optional_operand_raises_not_aborts(ctx, build, operand):
    """Type inference sees builder operands before the ODS type constraints do."""
    f32 = ir.F32Type.get()
    module = ir.Module.create()
    types = [ir.RankedTensorType.get(s, f32) for s in ([1, 8, 4, 4], [8, 8, 3, 3], [4, 4])]
    with ir.InsertionPoint(module.body):
        fn = func.FuncOp("f", (types + [ir.UnrankedTensorType.get(f32)], []))
        with ir.InsertionPoint(fn.add_entry_block()):
            with pytest.raises(ir.MLIRError) as info:
                build(*fn.arguments)
    assert f"operand '{operand}' must be a ranked tensor, got 'tensor<*xf32>'" in str(info.value)


def test_enums_and_format_attributes(ctx):
    assert str(ir.Attribute.parse("#ge.format<FRACTAL_NZ>")) == "#ge.format<FRACTAL_NZ>"
    assert str(ir.Attribute.parse("#ge.act<hard_swish>")) == "#ge.act<hard_swish>"
    names = {m.name for m in ge.DataFormat}
    assert {"NCHW", "NHWC", "ND", "NC1HWC0", "FRACTAL_NZ"} <= names
    acts = {m.name for m in ge.Activation}
    assert acts == {
        "none", "relu", "relu6", "leaky_relu", "sigmoid", "tanh", "gelu", "silu", "hard_sigmoid", "hard_swish",
    }


def test_dense_resource_constant(ctx):
    text = """
func.func @w() -> tensor<4xf32> {
  %0 = ge.constant dense_resource<weights> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: { builtin: { weights: "0x040000000000803F000000400000404000008040" } }
#-}
"""
    module = ge_mlir.parse_module(text)
    assert "dense_resource<weights>" in str(module)


def test_contexts_created_later_have_ge(ctx):
    with ir.Context() as other:
        assert other.is_registered_operation("ge.conv2d")


def test_load_into_preexisting_context():
    # Contexts made by ir._Context bypass the site registry; load_dialect fixes that.
    from mlir._mlir_libs._mlir import ir as raw_ir

    raw = raw_ir.Context()
    ge_mlir.load_dialect(raw)
    assert raw.is_registered_operation("ge.add")


def test_native_version():
    assert ge_mlir.native_version().startswith(ge_mlir.__version__)
    assert ge_mlir.library_path().name == "libGeMLIRPython.so"
