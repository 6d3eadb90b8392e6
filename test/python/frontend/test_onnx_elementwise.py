"""ONNX elementwise converters (ge_mlir/frontend/onnx/ops/elementwise.py).

Every model of test/Frontend/onnx/Inputs/elementwise_models.py is imported
in-process; the function's result types are compared with the outputs
onnxruntime computes for seeded random inputs (shapes and element types), and
the emitted ge ops are checked. There is no CPU backend yet, so the imported
IR is not executed: numerics are not compared, only types and op structure
(the exact op sequences are in test/Frontend/onnx/elementwise.mlir).

The ``bug_*`` models reproduce bugs found in review; their tests are now
regression tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from mlir import ir

from onnx_testing import ge_ops, main_func, result_types  # noqa: E402
from ge_mlir.errors import OnnxImportError, UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx, supported_ops

ort = pytest.importorskip("onnxruntime")

INPUTS = Path(__file__).resolve().parents[2] / "Frontend" / "onnx" / "Inputs"
sys.path.insert(0, str(INPUTS))
import elementwise_models as em  # noqa: E402

MODULE = "ge_mlir.frontend.onnx.ops.elementwise"

#: Models the importer refuses, with a piece of the expected reason.
REFUSED = {
    "gelu_opset19": "Gelu (opset 19): 1 node(s)",
    "relu6_ms": "com.microsoft::Relu6",
}
#: Models onnxruntime cannot run, with the reason.
NO_ORT = {
    "relu6_ms": "onnxruntime has no com.microsoft Relu6 kernel",
    "gelu_opset19": "Gelu does not exist before opset 20",
    "swiglu": "onnxruntime 1.32 has no SwiGLU (opset 26) kernel; its numerics are the node suite's",
    "bitcast": "onnxruntime 1.32 has no BitCast (opset 26) kernel; test_narrow_types.py checks its bits "
               "against the ONNX reference",
}
GOOD = [n for n in em.MODELS if not n.startswith("bug_") and n not in REFUSED]

#: The ge ops (besides ge.constant) each model must produce.
EXPECTED_OPS = {
    "unary_f32": {
        "abs", "neg", "exp", "log", "sqrt", "reciprocal", "tanh", "sigmoid", "relu", "erf", "sin", "cos",
        "floor", "ceil", "round", "sign", "softplus", "hard_swish", "identity", "acos", "asin", "atan",
    },
    "bitwise": {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bit_shift"},
    "unary_f16": {"exp", "tanh", "relu"},
    "unary_i32": {"abs", "neg", "sign", "relu", "identity"},
    "not": {"not"},
    "binary_arith": {"add", "sub", "mul", "div"},
    "binary_int": {"add", "div", "mod"},
    "mod_fmod": {"mod"},
    "logical": {"and", "or", "xor"},
    "compare": {"equal", "less", "less_equal", "greater", "greater_equal"},
    "equal_bool": {"equal"},
    "pow_float": {"pow"},
    "pow_int_exponent": {"cast", "pow"},
    "pow_int_exponent_input": {"cast", "pow"},
    "variadic": {"add", "div", "max", "min"},
    "variadic_single": {"relu"},
    "variadic_int": {"max", "min"},
    "where": {"where"},
    "cast": {"cast"},
    "cast_like": {"cast"},
    "cast_float8": {"clip", "cast"},
    "bitcast": {"bitcast"},
    "cast_float8_no_saturate": {"cast"},
    "cast_e8m0": {"bitcast", "bit_shift", "bitwise_and", "equal", "not", "and", "cast", "add", "where"},
    "clip6": {"clip"},
    "clip11": {"clip"},
    "clip13_int": {"clip"},
    "clip_dynamic_bound": {"max"},
    "leaky_relu": {"leaky_relu"},
    "hard_sigmoid": {"hard_sigmoid"},
    "gelu": {"gelu"},
    "dropout": {"identity"},
    "dropout_ratio": {"identity"},
    "elu": {"exp", "sub", "mul", "greater", "where"},
    "selu": {"exp", "sub", "mul", "greater", "where"},
    "celu": {"div", "exp", "sub", "mul", "max", "min", "add"},
    "thresholded_relu": {"greater", "where"},
    "prelu": {"less", "mul", "where"},
    "softsign": {"abs", "add", "div"},
    "mish": {"softplus", "tanh", "mul"},
    "swish": {"silu", "mul", "sigmoid"},
    "swiglu": {"silu", "mul", "sigmoid"},
    "tan": {"sin", "cos", "div"},
    "sinh_cosh": {"exp", "neg", "sub", "add", "mul"},
    "shrink": {"add", "sub", "greater", "less", "where"},
    "shrink_int": {"add", "sub", "greater", "less", "where"},
    "isnan": {"equal", "not"},
    "isinf": {"abs", "equal"},
}

_NP_TO_MLIR = {
    "float32": "f32", "float64": "f64", "float16": "f16", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "bool": "i1",
}


def mlir_type_of(array: np.ndarray) -> str:
    """The MLIR tensor type the importer uses for an ONNX Runtime output."""
    elem = _NP_TO_MLIR[array.dtype.name]
    return f"tensor<{''.join(f'{d}x' for d in array.shape)}{elem}>"


def import_model(model: onnx.ModelProto) -> ir.Module:
    return import_onnx(model)




def run_ort(model: onnx.ModelProto, feeds=None) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds if feeds is not None else em.random_inputs(model))


def assert_types_match_ort(model: onnx.ModelProto, module: ir.Module) -> None:
    outs = run_ort(model)
    got = result_types(module)
    assert len(got) == len(outs)
    for name, want, have in zip([o.name for o in model.graph.output], outs, got):
        assert have == mlir_type_of(want), f"output {name!r}: imported {have}, onnxruntime gives {mlir_type_of(want)}"


# --- the models -----------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in em.MODELS if n not in NO_ORT])
def test_models_are_valid_onnx(name):
    onnx.checker.check_model(em.MODELS[name](), full_check=True)


@pytest.mark.parametrize("name", GOOD)
def test_result_types_match_onnxruntime(ctx, name):
    # Types only: without a CPU backend the imported IR cannot be run, so the
    # values onnxruntime computes are not compared.
    model = em.MODELS[name]()
    module = import_model(model)
    if name == "bitcast":
        assert result_types(module) == ["tensor<2x3xi32>", "tensor<4xui8>"]
        return
    if name in NO_ORT:
        # relu6, swiglu: every result has the (first) input's type.
        types = result_types(module)
        assert types and all(t == str(main_func(module).arguments[0].type) for t in types)
        return
    assert_types_match_ort(model, module)


@pytest.mark.parametrize("name", GOOD)
def test_emitted_ops(ctx, name):
    module = import_model(em.MODELS[name]())
    ops = {op.name[3:] for op in ge_ops(module)} - {"constant"}
    assert ops == EXPECTED_OPS[name]


def test_every_model_has_expected_ops():
    assert set(GOOD) == set(EXPECTED_OPS)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refusals(ctx, name):
    with pytest.raises(UnsupportedOpsError) as info:
        import_model(em.MODELS[name]())
    assert REFUSED[name] in str(info.value)


def _registered() -> set[tuple[str, str]]:
    return {key for key, sups in supported_ops().items() if any(s.converter.__module__ == MODULE for s in sups)}


def test_every_registered_op_type_is_tested():
    tested = set()
    for name in em.MODELS:
        if name.startswith("bug_"):
            continue
        for node in em.MODELS[name]().graph.node:
            tested.add(("" if node.domain in ("", "ai.onnx") else node.domain, node.op_type))
    missing = _registered() - tested
    assert not missing, f"elementwise converters without a test model: {sorted(missing)}"


# --- specific behaviour ------------------------------------------------------------


def test_unary_f32_covers_the_unary_table():
    from ge_mlir.frontend.onnx.ops import elementwise

    assert set(em.UNARY_FLOAT) == set(elementwise._UNARY) - {"Not", "BitwiseNot"}


def test_single_input_variadic_is_its_input(ctx):
    module = import_model(em.MODELS["variadic_single"]())
    assert [op.name for op in ge_ops(module)] == ["ge.relu"]
    assert ge_ops(module)[0].operands[0] == main_func(module).arguments[0]


def test_cast_to_same_type_is_no_op(ctx):
    module = import_model(em.MODELS["cast"]())
    assert [op.name for op in ge_ops(module)] == ["ge.cast"] * 3
    ret = main_func(module).regions[0].blocks[0].operations[-1]
    assert ret.operands[3] == main_func(module).arguments[0]


def test_clip_bounds(ctx):
    def bounds(name):
        module = import_model(em.MODELS[name]())  # keep alive while its ops are read
        return [
            ({k: float(ir.FloatAttr(op.attributes[k]).value) for k in ("min", "max") if k in op.attributes})
            for op in ge_ops(module)
        ]

    assert bounds("clip6") == [{"min": -1.0, "max": 1.0}, {"min": 0.0}]
    assert bounds("clip11") == [{"min": -0.5, "max": 0.5}, {"max": 0.5}, {}]
    assert bounds("clip13_int") == [{"min": -2.0, "max": 5.0}]


def test_gelu_approximation(ctx):
    module = import_model(em.MODELS["gelu"]())
    ops = ge_ops(module)
    assert [ir.BoolAttr(op.attributes["tanh_approx"]).value for op in ops] == [False, True]


def test_pow_int_exponent_is_cast_to_the_base_type(ctx):
    module = import_model(em.MODELS["pow_int_exponent_input"]())
    cast, pow_ = ge_ops(module)
    assert str(cast.results[0].type) == "tensor<3xf32>" and pow_.operands[1] == cast.results[0]


def test_registration_opsets():
    sups = supported_ops()
    assert [s.since for s in sups[("", "Gelu")]] == [20]
    assert [s.since for s in sups[("", "Mish")]] == [18]
    assert [s.since for s in sups[("", "Swish")]] == [24]


def test_dynamic_dims_stay_dynamic(ctx):
    model = em.unary_model("Elu", 6)
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "N"
    module = import_model(model)
    assert result_types(module) == ["tensor<?x3xf32>"]
    fixed = import_onnx(model, input_shapes={"x": [5, 3]})
    assert result_types(fixed) == ["tensor<5x3xf32>"]


# --- regressions: bugs found in review, now fixed --------------------------------


# Was: core: importer.make_constant cannot build non-scalar i1 constants (DenseElementsAttr.get(bool array, type=i1 tensor) wants bit-packed data)
@pytest.mark.parametrize("name", ["bug_bool_initializer", "bug_dropout_mask", "bug_isinf_none"])
def test_bug_bool_constants(ctx, name):
    model = em.MODELS[name]()
    assert_types_match_ort(model, import_model(model))


# Was: Shrink: scalar_like(-lambd) overflows an unsigned element type (OverflowError escapes the importer)
def test_bug_shrink_unsigned(ctx):
    model = em.MODELS["bug_shrink_uint8"]()
    assert_types_match_ort(model, import_model(model))


# Was: Dropout mask / IsInf(no detection) build np.ones/np.zeros of a shape with dynamic dims
@pytest.mark.parametrize("name", ["bug_dropout_mask_dynamic", "bug_isinf_none_dynamic"])
def test_bug_all_true_false_constants_with_dynamic_dims(ctx, name):
    import_model(em.MODELS[name]())


# Was: Clip: ONNX sets every value to max when min > max; ge.clip's verifier rejects min > max
def test_bug_clip_min_greater_than_max(ctx):
    model = em.MODELS["bug_clip_min_gt_max"]()
    assert_types_match_ort(model, import_model(model))


# Was: Clip: a one-element 1-D min/max (onnxruntime accepts it) fails in float(np.asarray(bound))
def test_bug_clip_one_element_bound(ctx):
    model = em.MODELS["bug_clip_1d_bound"]()
    assert_types_match_ort(model, import_model(model))


# Was: CastLike: ctx.elem(1) materializes the target initializer as a dead ge.constant (a dense_resource blob of the whole tensor)
def test_bug_castlike_materializes_its_target(ctx):
    module = import_model(em.MODELS["bug_castlike_const_target"]())
    assert [op.name for op in ge_ops(module)] == ["ge.cast"]


# Was: Dropout: training_mode=True (random) is silently imported as the identity
def test_bug_dropout_training_mode_is_refused(ctx):
    with pytest.raises(UnsupportedOpsError, match="training"):
        import_model(em.MODELS["bug_dropout_training"]())


# Was: Dropout-7..9: the mask output has the input's type, not bool
def test_bug_dropout7_mask_type(ctx):
    model = em.MODELS["bug_dropout7_mask"]()
    module = import_model(model)
    assert result_types(module) == ["tensor<2x3xf32>", "tensor<2x3xf32>"]


# Was: Mod-28 allows fmod=0 on floats (floor mod); ge.mod with fmod=false is fmod on floats
def test_bug_mod28_float_floor_semantics(ctx):
    try:
        module = import_model(em.MODELS["bug_mod28_float_floor"]())
    except OnnxImportError:
        return  # refusing is a fix too
    # ge.mod on floats is fmod whatever its attribute: floor mod must be composed
    # (fmod corrected by the divisor where the signs differ).
    mods = [op for op in ge_ops(module) if op.name == "ge.mod"]
    assert mods and all("fmod = true" in str(op) for op in mods)
    assert "ge.xor" in [op.name for op in ge_ops(module)]


# Was: Pow(int base, float exponent): the exponent is truncated to the base's int type (3 ** 2.5 gives 9, onnxruntime 15)
def test_bug_pow_int_base_float_exponent(ctx):
    module = import_model(em.MODELS["bug_pow_int_base_float_exponent"]())
    # The power is computed in f32 (the base is converted, not the exponent)
    # and only the result is truncated back to the base's integer type.
    pows = [op for op in ge_ops(module) if op.name == "ge.pow"]
    assert pows and all("f32" in str(op.operands[1].type) and "f32" in str(op.operands[0].type) for op in pows)
    assert result_types(module)[0].endswith("xi32>")
