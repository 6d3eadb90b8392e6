"""Small ONNX models for the elementwise converters (ge_mlir/frontend/onnx/ops/elementwise.py).

    python elementwise_models.py NAME OUT.onnx     # write one model
    python elementwise_models.py --list            # the model names

Used by test/Frontend/onnx/elementwise.mlir (lit) and
test/python/frontend/test_onnx_elementwise.py (pytest, which imports MODELS).
Every model has a fixed opset, deterministic (seeded) initializers and static
shapes, except two bug_*_dynamic models. Models named ``bug_*`` reproduce
known importer bugs; only the pytest's strict-xfail tests use them.
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

#: IR version every model is written with (onnxruntime 1.18+ reads it).
IR_VERSION = 10
SEED = 0

MODELS: dict[str, Callable[[], onnx.ModelProto]] = {}


def model(fn: Callable[[], onnx.ModelProto]) -> Callable[[], onnx.ModelProto]:
    MODELS[fn.__name__.rstrip("_")] = fn
    return fn


def vi(name: str, elem: int, shape) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, elem, shape)


def init(name: str, array) -> onnx.TensorProto:
    return nh.from_array(np.asarray(array), name)


def make(nodes, inputs, outputs, opset: int, inits=(), extra_opsets=()) -> onnx.ModelProto:
    """A one-graph model; outputs are (name, elem[, shape]) tuples, shapes inferred by default.

    The graph outputs get their inferred shapes (the checker wants one);
    models ONNX cannot infer (custom domains, ops newer than the opset) keep
    shapeless outputs.
    """
    graph = h.make_graph(
        nodes, "main", inputs, [vi(*o) if len(o) == 3 else vi(*o, None) for o in outputs], initializer=list(inits)
    )
    opsets = [h.make_opsetid("", opset)] + [h.make_opsetid(d, v) for d, v in extra_opsets]
    m = h.make_model(graph, opset_imports=opsets, ir_version=IR_VERSION, producer_name="ge-mlir-tests")
    try:
        m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
        del m.graph.value_info[:]
    except Exception:  # ONNX cannot infer it (custom domain, op newer than the opset)
        pass
    return m


def unary_model(op: str, opset: int, elem=T.FLOAT, shape=(2, 3), out_elem=None, domain="", **attrs):
    extra = [(domain, 1)] if domain else []
    out = ("y", out_elem or elem, list(shape)) if domain else ("y", out_elem or elem)
    return make(
        [h.make_node(op, ["x"], ["y"], domain=domain, **attrs)],
        [vi("x", elem, list(shape))], [out], opset, extra_opsets=extra,
    )


# --- unary -----------------------------------------------------------------

#: Unary ops with a 1:1 ge op, tested on f32 in one model (one output each).
UNARY_FLOAT = [
    "Abs", "Neg", "Exp", "Log", "Sqrt", "Reciprocal", "Tanh", "Sigmoid", "Relu", "Erf", "Sin", "Cos",
    "Floor", "Ceil", "Round", "Sign", "Softplus", "HardSwish", "Identity", "Acos", "Asin", "Atan",
]


@model
def unary_f32():
    nodes = [h.make_node(op, ["x"], [f"y_{op.lower()}"]) for op in UNARY_FLOAT]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [(f"y_{op.lower()}", T.FLOAT) for op in UNARY_FLOAT], 17)


@model
def unary_f16():
    ops = ["Exp", "Tanh", "Relu"]
    nodes = [h.make_node(op, ["x"], [f"y_{op.lower()}"]) for op in ops]
    return make(nodes, [vi("x", T.FLOAT16, [4])], [(f"y_{op.lower()}", T.FLOAT16) for op in ops], 17)


@model
def unary_i32():
    ops = ["Abs", "Neg", "Sign", "Relu", "Identity"]
    nodes = [h.make_node(op, ["x"], [f"y_{op.lower()}"]) for op in ops]
    return make(nodes, [vi("x", T.INT32, [3, 2])], [(f"y_{op.lower()}", T.INT32) for op in ops], 14)


@model
def not_():
    return unary_model("Not", 13, elem=T.BOOL, shape=(2, 2))


# --- binary ----------------------------------------------------------------


@model
def binary_arith():
    ops = ["Add", "Sub", "Mul", "Div"]
    nodes = [h.make_node(op, ["a", "b"], [f"y_{op.lower()}"]) for op in ops]
    return make(
        nodes, [vi("a", T.FLOAT, [2, 3, 4]), vi("b", T.FLOAT, [3, 1])],
        [(f"y_{op.lower()}", T.FLOAT) for op in ops], 14,
    )


@model
def binary_int():
    nodes = [
        h.make_node("Add", ["a", "b"], ["y_add"]),
        h.make_node("Div", ["a", "b"], ["y_div"]),
        h.make_node("Mod", ["a", "b"], ["y_mod"]),
    ]
    return make(
        nodes, [vi("a", T.INT64, [4]), vi("b", T.INT64, [1])],
        [("y_add", T.INT64), ("y_div", T.INT64), ("y_mod", T.INT64)], 13,
    )


@model
def mod_fmod():
    return make(
        [h.make_node("Mod", ["a", "b"], ["y"], fmod=1)],
        [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3])], [("y", T.FLOAT)], 13,
    )


@model
def logical():
    ops = ["And", "Or", "Xor"]
    nodes = [h.make_node(op, ["a", "b"], [f"y_{op.lower()}"]) for op in ops]
    return make(
        nodes, [vi("a", T.BOOL, [2, 3]), vi("b", T.BOOL, [1, 3])],
        [(f"y_{op.lower()}", T.BOOL) for op in ops], 7,
    )


@model
def bitwise():
    ops = ["BitwiseAnd", "BitwiseOr", "BitwiseXor"]
    nodes = [h.make_node(op, ["a", "b"], [f"y_{op.lower()}"]) for op in ops]
    nodes += [h.make_node("BitwiseNot", ["a"], ["y_not"]),
              h.make_node("BitShift", ["a", "b"], ["y_left"], direction="LEFT"),
              h.make_node("BitShift", ["a", "b"], ["y_right"], direction="RIGHT")]
    return make(
        nodes, [vi("a", T.UINT8, [2, 3]), vi("b", T.UINT8, [1, 3])],
        [(f"y_{op.lower()}", T.UINT8) for op in ops] + [(n, T.UINT8) for n in ("y_not", "y_left", "y_right")], 18,
    )


@model
def compare():
    ops = ["Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"]
    nodes = [h.make_node(op, ["a", "b"], [f"y_{op.lower()}"]) for op in ops]
    return make(
        nodes, [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [])],
        [(f"y_{op.lower()}", T.BOOL) for op in ops], 16,
    )


@model
def equal_bool():
    return make(
        [h.make_node("Equal", ["a", "b"], ["y"])],
        [vi("a", T.BOOL, [3]), vi("b", T.BOOL, [3])], [("y", T.BOOL)], 19,
    )


@model
def pow_float():
    return make(
        [h.make_node("Pow", ["a", "b"], ["y"])],
        [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3])], [("y", T.FLOAT)], 15,
    )


@model
def pow_int_exponent():
    # A float base with an int64 exponent (ONNX Pow-12+ allows mixed types).
    return make(
        [h.make_node("Pow", ["a", "e"], ["y"])],
        [vi("a", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 15, inits=[init("e", np.array(2, dtype=np.int64))],
    )


@model
def pow_int_exponent_input():
    return make(
        [h.make_node("Pow", ["a", "e"], ["y"])],
        [vi("a", T.FLOAT, [2, 3]), vi("e", T.INT32, [3])], [("y", T.FLOAT)], 15,
    )


# --- variadic --------------------------------------------------------------


@model
def variadic():
    nodes = [
        h.make_node("Sum", ["a", "b", "c"], ["y_sum"]),
        h.make_node("Mean", ["a", "b"], ["y_mean"]),
        h.make_node("Max", ["a", "b", "c"], ["y_max"]),
        h.make_node("Min", ["a", "c"], ["y_min"]),
    ]
    return make(
        nodes, [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3]), vi("c", T.FLOAT, [2, 1])],
        [("y_sum", T.FLOAT), ("y_mean", T.FLOAT), ("y_max", T.FLOAT), ("y_min", T.FLOAT)], 13,
    )


@model
def variadic_single():
    # One input: Sum/Max of a single tensor is the tensor itself.
    nodes = [h.make_node("Sum", ["a"], ["s"]), h.make_node("Max", ["s"], ["m"]), h.make_node("Relu", ["m"], ["y"])]
    return make(nodes, [vi("a", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 13)


@model
def variadic_int():
    nodes = [h.make_node("Max", ["a", "b"], ["y_max"]), h.make_node("Min", ["a", "b"], ["y_min"])]
    return make(
        nodes, [vi("a", T.INT32, [4]), vi("b", T.INT32, [4])], [("y_max", T.INT32), ("y_min", T.INT32)], 13
    )


# --- Where, Cast, CastLike, Clip ----------------------------------------------


@model
def where():
    return make(
        [h.make_node("Where", ["c", "a", "b"], ["y"])],
        [vi("c", T.BOOL, [2, 1]), vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3])], [("y", T.FLOAT)], 16,
    )


@model
def cast():
    nodes = [
        h.make_node("Cast", ["x"], ["y_i32"], to=T.INT32),
        h.make_node("Cast", ["x"], ["y_bool"], to=T.BOOL),
        h.make_node("Cast", ["x"], ["y_f16"], to=T.FLOAT16),
        h.make_node("Cast", ["x"], ["y_same"], to=T.FLOAT),
    ]
    return make(
        nodes, [vi("x", T.FLOAT, [2, 3])],
        [("y_i32", T.INT32), ("y_bool", T.BOOL), ("y_f16", T.FLOAT16), ("y_same", T.FLOAT)], 13,
    )


@model
def cast_float8():
    # Saturating (the default): clipped to float8's range, then rounded; and back to f32.
    nodes = [h.make_node("Cast", ["x"], ["f8"], to=T.FLOAT8E4M3FN), h.make_node("Cast", ["f8"], ["y"], to=T.FLOAT)]
    return make(nodes, [vi("x", T.FLOAT, [2])], [("y", T.FLOAT)], 19)


@model
def cast_float8_no_saturate():
    nodes = [h.make_node("Cast", ["x"], ["f8"], to=T.FLOAT8E5M2, saturate=0),
             h.make_node("Cast", ["f8"], ["y"], to=T.FLOAT)]
    return make(nodes, [vi("x", T.FLOAT, [2])], [("y", T.FLOAT)], 19)


@model
def cast_e8m0():
    # FLOAT8E8M0: the f32 exponent field, rounded up by any fraction (round_mode "up"), saturating.
    nodes = [h.make_node("Cast", ["x"], ["e8"], to=T.FLOAT8E8M0), h.make_node("Cast", ["e8"], ["y"], to=T.FLOAT)]
    return make(nodes, [vi("x", T.FLOAT, [2])], [("y", T.FLOAT)], 24)


@model
def bitcast():
    # The bits of f32 as int32, and of bool as uint8 (a bool is its byte).
    nodes = [h.make_node("BitCast", ["x"], ["y_i32"], to=T.INT32), h.make_node("BitCast", ["b"], ["y_u8"], to=T.UINT8)]
    return make(nodes, [vi("x", T.FLOAT, [2, 3]), vi("b", T.BOOL, [4])], [("y_i32", T.INT32), ("y_u8", T.UINT8)], 26)


@model
def cast_like():
    nodes = [h.make_node("CastLike", ["x", "t"], ["y"]), h.make_node("CastLike", ["x", "x"], ["y_same"])]
    return make(
        nodes, [vi("x", T.INT64, [3]), vi("t", T.DOUBLE, [1])], [("y", T.DOUBLE), ("y_same", T.INT64)], 15
    )


@model
def clip6():
    # Opset 6: bounds are attributes.
    nodes = [
        h.make_node("Clip", ["x"], ["y"], min=-1.0, max=1.0),
        h.make_node("Clip", ["x"], ["y_min"], min=0.0),
    ]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT), ("y_min", T.FLOAT)], 6)


@model
def clip11():
    # Opset 11+: bounds are (constant) inputs; either may be absent.
    nodes = [
        h.make_node("Clip", ["x", "lo", "hi"], ["y"]),
        h.make_node("Clip", ["x", "", "hi"], ["y_max"]),
        h.make_node("Clip", ["x"], ["y_none"]),
    ]
    return make(
        nodes, [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT), ("y_max", T.FLOAT), ("y_none", T.FLOAT)], 11,
        inits=[init("lo", np.array(-0.5, np.float32)), init("hi", np.array(0.5, np.float32))],
    )


@model
def clip13_int():
    return make(
        [h.make_node("Clip", ["x", "lo", "hi"], ["y"])],
        [vi("x", T.INT32, [4])], [("y", T.INT32)], 13,
        inits=[init("lo", np.array(-2, np.int32)), init("hi", np.array(5, np.int32))],
    )


@model
def clip_dynamic_bound():
    # A run-time bound: ge.max (ge.clip takes attributes).
    return make(
        [h.make_node("Clip", ["x", "lo"], ["y"])],
        [vi("x", T.FLOAT, [2, 3]), vi("lo", T.FLOAT, [])], [("y", T.FLOAT)], 13,
    )


# --- activations with attributes -------------------------------------------


@model
def leaky_relu():
    return unary_model("LeakyRelu", 16, alpha=0.1)


@model
def hard_sigmoid():
    return unary_model("HardSigmoid", 6, alpha=0.25, beta=0.4)


@model
def gelu():
    nodes = [h.make_node("Gelu", ["x"], ["y"]), h.make_node("Gelu", ["x"], ["y_tanh"], approximate="tanh")]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT), ("y_tanh", T.FLOAT)], 20)


@model
def gelu_opset19():
    # Gelu is an ONNX op since opset 20 only: unsupported before.
    return make(
        [h.make_node("Gelu", ["x"], ["y"])], [vi("x", T.FLOAT, [2])], [("y", T.FLOAT, [2])], 19
    )


@model
def dropout():
    return unary_model("Dropout", 13, shape=(2, 3))


@model
def dropout_ratio():
    # Opset 12+: ratio and training_mode are inputs; inference ignores them.
    return make(
        [h.make_node("Dropout", ["x", "ratio"], ["y"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 13, inits=[init("ratio", np.array(0.25, np.float32))],
    )


# --- composite activations --------------------------------------------------


@model
def elu():
    return unary_model("Elu", 6, alpha=0.5)


@model
def selu():
    return unary_model("Selu", 6)


@model
def celu():
    return unary_model("Celu", 12, alpha=2.0)


@model
def thresholded_relu():
    return unary_model("ThresholdedRelu", 10, alpha=0.5)


@model
def prelu():
    return make(
        [h.make_node("PRelu", ["x", "slope"], ["y"])],
        [vi("x", T.FLOAT, [1, 3, 2, 2])], [("y", T.FLOAT)], 16,
        inits=[init("slope", np.random.default_rng(SEED).uniform(0, 0.5, (3, 1, 1)).astype(np.float32))],
    )


@model
def softsign():
    return unary_model("Softsign", 1)


@model
def mish():
    return unary_model("Mish", 18)


@model
def swish():
    nodes = [h.make_node("Swish", ["x"], ["y"]), h.make_node("Swish", ["x"], ["y_alpha"], alpha=2.0)]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT), ("y_alpha", T.FLOAT)], 24)


@model
def swiglu():
    nodes = [h.make_node("SwiGLU", ["a", "b"], ["y"]), h.make_node("SwiGLU", ["a", "b"], ["y_alpha"], alpha=1.5)]
    return make(nodes, [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [2, 3])], [("y", T.FLOAT), ("y_alpha", T.FLOAT)], 26)


@model
def tan():
    return unary_model("Tan", 7)


@model
def sinh_cosh():
    nodes = [h.make_node("Sinh", ["x"], ["y_sinh"]), h.make_node("Cosh", ["x"], ["y_cosh"])]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [("y_sinh", T.FLOAT), ("y_cosh", T.FLOAT)], 9)


@model
def shrink():
    return unary_model("Shrink", 9, bias=0.25, lambd=1.0)


@model
def shrink_int():
    return unary_model("Shrink", 9, elem=T.INT8, shape=(5,), lambd=1.5, bias=1.0)


@model
def isnan():
    return unary_model("IsNaN", 13, out_elem=T.BOOL)


@model
def isinf():
    nodes = [
        h.make_node("IsInf", ["x"], ["y"]),
        h.make_node("IsInf", ["x"], ["y_pos"], detect_negative=0),
        h.make_node("IsInf", ["x"], ["y_neg"], detect_positive=0),
    ]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [("y", T.BOOL), ("y_pos", T.BOOL), ("y_neg", T.BOOL)], 10)


@model
def relu6_ms():
    # Registered in the com.microsoft domain (no onnxruntime kernel exists).
    return unary_model("Relu6", 13, domain="com.microsoft")


# --- bug reproductions (pytest xfail only) -----------------------------------


@model
def bug_clip_min_gt_max():
    # ONNX: min > max sets every value to max; ge.clip's verifier rejects it.
    return make(
        [h.make_node("Clip", ["x", "lo", "hi"], ["y"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 13,
        inits=[init("lo", np.array(1.0, np.float32)), init("hi", np.array(0.0, np.float32))],
    )


@model
def bug_clip_1d_bound():
    # A one-element 1-D bound (onnxruntime accepts it): float(np.asarray([0.])) raises.
    return make(
        [h.make_node("Clip", ["x", "lo"], ["y"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 13, inits=[init("lo", np.array([0.0], np.float32))],
    )


@model
def bug_castlike_const_target():
    # ctx.elem(1) materializes the (unused) target initializer as a ge.constant.
    return make(
        [h.make_node("CastLike", ["x", "t"], ["y"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.DOUBLE)], 15, inits=[init("t", np.zeros((100,), np.float64))],
    )


@model
def bug_bool_initializer():
    # Core: a non-scalar bool constant cannot be materialized (make_constant
    # passes an explicit i1 type to DenseElementsAttr.get, which then wants
    # bit-packed data).
    return make(
        [h.make_node("Where", ["c", "a", "b"], ["y"])],
        [vi("a", T.FLOAT, [3]), vi("b", T.FLOAT, [3])], [("y", T.FLOAT)], 16,
        inits=[init("c", np.array([True, False, True]))],
    )


@model
def bug_dropout_mask():
    # The all-true mask is a bool constant: fails with bug_bool_initializer.
    return make(
        [h.make_node("Dropout", ["x", "ratio"], ["y", "mask"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT), ("mask", T.BOOL)], 13,
        inits=[init("ratio", np.array(0.25, np.float32))],
    )


@model
def bug_isinf_none():
    # detect_positive=detect_negative=0 gives an all-false bool constant: same.
    return make(
        [h.make_node("IsInf", ["x"], ["y"], detect_positive=0, detect_negative=0)],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.BOOL)], 10,
    )


@model
def bug_shrink_uint8():
    # -lambd does not fit uint8: the converter's scalar_like(-1.5) overflows.
    return unary_model("Shrink", 9, elem=T.UINT8, shape=(5,), lambd=1.5)


@model
def bug_dropout_mask_dynamic():
    # The all-true mask is built with np.ones(shape) and a dynamic dim (-1).
    return make(
        [h.make_node("Dropout", ["x"], ["y", "mask"])],
        [vi("x", T.FLOAT, ["N", 3])], [("y", T.FLOAT), ("mask", T.BOOL)], 13,
    )


@model
def bug_isinf_none_dynamic():
    return make(
        [h.make_node("IsInf", ["x"], ["y"], detect_positive=0, detect_negative=0)],
        [vi("x", T.FLOAT, ["N"])], [("y", T.BOOL)], 10,
    )


@model
def bug_dropout_training():
    # training_mode=True is a random op; the converter silently imports identity.
    return make(
        [h.make_node("Dropout", ["x", "ratio", "train"], ["y"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 13,
        inits=[init("ratio", np.array(0.5, np.float32)), init("train", np.array(True))],
    )


@model
def bug_dropout7_mask():
    # Dropout-7..9's mask has the input's type (T), not bool.
    return make(
        [h.make_node("Dropout", ["x"], ["y", "mask"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT, [2, 3]), ("mask", T.FLOAT, [2, 3])], 7,
    )


@model
def bug_mod28_float_floor():
    # Mod-28 allows fmod=0 on floats (floor semantics); ge.mod on floats is fmod.
    return make(
        [h.make_node("Mod", ["a", "b"], ["y"])],
        [vi("a", T.FLOAT, [4]), vi("b", T.FLOAT, [4])], [("y", T.FLOAT)], 28,
    )


@model
def bug_pow_int_base_float_exponent():
    # Pow(int base, float exponent): the exponent is cast to int (2.5 -> 2).
    return make(
        [h.make_node("Pow", ["a", "e"], ["y"])],
        [vi("a", T.INT32, [3])], [("y", T.INT32)], 15, inits=[init("e", np.array(2.5, np.float32))],
    )


def random_inputs(m: onnx.ModelProto, seed: int = SEED, dynamic_dim: int = 2) -> dict[str, np.ndarray]:
    """Seeded random feeds for the graph inputs (symbolic dims get ``dynamic_dim``).

    Integers are nonzero (no division by zero in Div/Mod); floats are normal.
    """
    rng = np.random.default_rng(seed)
    inits = {i.name for i in m.graph.initializer}
    feeds = {}
    for inp in m.graph.input:
        if inp.name in inits:
            continue
        tt = inp.type.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") else dynamic_dim for d in tt.shape.dim]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)
        if dtype == np.bool_:
            arr = rng.integers(0, 2, shape).astype(np.bool_)
        elif np.issubdtype(dtype, np.unsignedinteger):
            arr = rng.integers(1, 10, shape).astype(dtype)
        elif np.issubdtype(dtype, np.integer):
            arr = (rng.integers(1, 6, shape) * rng.choice([-1, 1], shape)).astype(dtype)
        else:
            arr = rng.standard_normal(shape).astype(dtype)
        feeds[inp.name] = np.asarray(arr)
    return feeds


def main(argv: list[str]) -> int:
    if argv[1:] == ["--list"]:
        print("\n".join(MODELS))
        return 0
    if len(argv) != 3 or argv[1] not in MODELS:
        print(f"usage: {argv[0]} NAME OUT.onnx  (NAME one of: {', '.join(MODELS)})", file=sys.stderr)
        return 2
    onnx.save(MODELS[argv[1]](), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
