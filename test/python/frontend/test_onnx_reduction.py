"""ONNX reduction converters (ge_mlir/frontend/onnx/ops/reduction.py).

Every model of test/Frontend/onnx/Inputs/reduction_models.py, and every
Reduce*/ArgMax/ArgMin/CumSum schema version from opset 11 to the newest, is
imported in-process; the function's result types are compared with the
outputs onnxruntime computes for seeded random inputs (shapes and element
types), and the emitted ge ops are checked. There is no CPU backend yet, so
the imported IR is not executed: numerics are not compared (the exact op
sequences are in test/Frontend/onnx/reduction.mlir).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from mlir import ir
from onnx import TensorProto as T
from onnx import helper as h

from onnx_testing import ge_ops, result_types  # noqa: E402
from ge_mlir.errors import InvalidModelError, UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx, supported_ops
from ge_mlir.frontend.onnx.ops import reduction

ort = pytest.importorskip("onnxruntime")

INPUTS = Path(__file__).resolve().parents[2] / "Frontend" / "onnx" / "Inputs"
sys.path.insert(0, str(INPUTS))
import elementwise_models as em  # noqa: E402  (random_inputs, make, vi, init)
import reduction_models as rm  # noqa: E402

MODULE = "ge_mlir.frontend.onnx.ops.reduction"
NEWEST = onnx.defs.onnx_opset_version()
ARG_OPS = ["ArgMax", "ArgMin"]
ALL_OPS = rm.REDUCE_OPS + ARG_OPS + ["CumSum", "CumProd"]

#: Models the importer refuses, with a piece of the expected reason.
REFUSED = {
    "refuse_runtime_axes_of_unknown_count": "ReduceSum node 'ReduceSum_0': axes given at run time needs a static number",
    "refuse_axis_out_of_range": "ReduceMean node 'ReduceMean_0': axis 3 is out of range for a rank-2 input",
    "refuse_log_sum_int": "ReduceLogSumExp of i32 input is not supported",
    "refuse_argmax_axis": "ArgMax node 'ArgMax_0': axis 2 is out of range for a rank-2 input",
}
#: Invalid models (ONNX shape inference rejects them too): InvalidModelError
#: with this piece of ONNX's reason instead.
INVALID = {"refuse_axis_out_of_range": "ReduceMean node 'ReduceMean_0': [ShapeInferenceError] axis must be in [-rank, rank-1]",
           "refuse_argmax_axis": "ArgMax node 'ArgMax_0': [ShapeInferenceError] 'axis' must be in [-rank(indices)"}
GOOD = [n for n in rm.MODELS if n not in REFUSED]
#: Models whose axes are graph inputs: random values would be out of range, so onnxruntime is run
#: with chosen ones (test_runtime_axes_compiled_once).
RUNTIME_AXES = {"runtime_axes": "axes", "cumsum_runtime_axis": "axis"}

_LSE = {"reduce_max", "abs", "equal", "where", "sub", "exp", "reduce_sum", "log", "add"}
#: The ge ops (besides ge.constant) each model must produce.
EXPECTED_OPS = {
    "sum_attr": {"reduce_sum"}, "sum_axes": {"reduce_sum"}, "sum_all": {"reduce_sum"},
    "sum_all_keepdims0": {"reduce_sum"}, "sum_empty_axes": {"reduce_sum"}, "sum_noop": {"identity"},
    "sum_int64": {"reduce_sum"}, "sum_scalar": {"reduce_sum"}, "sum_dynamic_dim": {"reduce_sum"},
    "sum_latest": {"reduce_sum"},
    "mean_attr": {"reduce_mean"}, "mean_axes": {"reduce_mean"},
    "max_attr": {"reduce_max"}, "max_axes": {"reduce_max"}, "max_bool": {"cast", "reduce_max"},
    "min_bool": {"cast", "reduce_min"}, "min_int": {"reduce_min"}, "min_u8": {"reduce_min"},
    "max_duplicate_axes": {"reduce_max"},
    "prod_attr": {"reduce_prod"}, "prod_axes": {"reduce_prod"},
    "l1": {"abs", "reduce_sum"}, "l1_attr": {"abs", "reduce_sum"},
    "l2": {"reduce_l2"}, "l2_int": {"cast", "reduce_l2"},
    "sum_square": {"mul", "reduce_sum"}, "sum_square_attr": {"mul", "reduce_sum"},
    "log_sum": {"reduce_sum", "log"}, "log_sum_attr": {"reduce_sum", "log"},
    "log_sum_exp": _LSE, "log_sum_exp_keepdims0": _LSE | {"squeeze"}, "log_sum_exp_all": _LSE | {"squeeze"},
    "log_sum_exp_f16": _LSE,
    "noop_composites": {"identity", "abs", "mul", "log"},
    "all_reduce_latest": {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "abs",
                          "reduce_l2", "mul", "log"} | _LSE | {"squeeze"},
    "argmax": {"argmax"}, "argmin": {"argmin"}, "argmax_neg_axis": {"argmax"}, "argmin_f16": {"argmin"},
    "cumsum": {"cumsum"}, "cumsum_exclusive_reverse": {"cumsum"},
    "runtime_axes": {"less", "add", "where", "gather", "reshape", "equal", "cast", "reduce_sum", "greater",
                     "concat", "shape", "range"},
    "cumsum_runtime_axis": {"less", "add", "where", "gather", "cumsum", "equal"},
}

_NP_TO_MLIR = {
    "float32": "f32", "float64": "f64", "float16": "f16", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "bool": "i1",
}


def mlir_type_of(array: np.ndarray, dynamic: set[int] = frozenset()) -> str:
    """The MLIR tensor type of an onnxruntime output (dims in ``dynamic`` as ``?``)."""
    dims = "".join(f"{'?' if i in dynamic else d}x" for i, d in enumerate(array.shape))
    return f"tensor<{dims}{_NP_TO_MLIR[array.dtype.name]}>"




def op_names(module: ir.Module) -> set[str]:
    return {op.name[3:] for op in ge_ops(module)} - {"constant"}


def assert_types_match_ort(model: onnx.ModelProto, module: ir.Module) -> None:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    outs = sess.run(None, em.random_inputs(model))
    got = result_types(module)
    assert len(got) == len(outs)
    for name, want, have in zip([o.name for o in model.graph.output], outs, got):
        dynamic = {i for i, d in enumerate(ir.RankedTensorType(ir.Type.parse(have)).shape) if d < 0}
        assert have == mlir_type_of(want, dynamic), (
            f"output {name!r}: imported {have}, onnxruntime gives {mlir_type_of(want)}"
        )


# --- the models ------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in rm.MODELS if n not in INVALID])
def test_models_are_valid_onnx(name):
    onnx.checker.check_model(rm.MODELS[name](), full_check=True)


@pytest.mark.parametrize("name", [n for n in GOOD if n not in RUNTIME_AXES])
def test_result_types_match_onnxruntime(ctx, name):
    # Types only: without a CPU backend the imported IR cannot be run, so the
    # values onnxruntime computes are not compared.
    model = rm.MODELS[name]()
    assert_types_match_ort(model, import_onnx(model))


@pytest.mark.parametrize("name", GOOD)
def test_emitted_ops(ctx, name):
    module = import_onnx(rm.MODELS[name]())
    assert op_names(module) == EXPECTED_OPS[name]


def test_every_model_has_expected_ops():
    assert set(GOOD) == set(EXPECTED_OPS)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refusals(ctx, name):
    with pytest.raises(InvalidModelError if name in INVALID else UnsupportedOpsError) as info:
        import_onnx(rm.MODELS[name]())
    assert INVALID.get(name, REFUSED[name]) in str(info.value)


# --- registration and the opset history ---------------------------------------------


def test_registered_op_types():
    registered = {op for (dom, op), sups in supported_ops().items() if any(s.converter.__module__ == MODULE for s in sups)}
    assert registered == set(ALL_OPS)
    for op in ALL_OPS:
        (sup,) = supported_ops()[("", op)]
        assert (sup.since, sup.until) == (26 if op == "CumProd" else 11, None) and sup.notes


@pytest.mark.parametrize("op", rm.REDUCE_OPS)
def test_axes_input_since_matches_the_onnx_schemas(op):
    assert reduction.AXES_INPUT_SINCE[op] == rm.AXES_INPUT_SINCE[op]
    for opset in range(11, NEWEST + 1):
        schema = onnx.defs.get_schema(op, opset)
        has_input = len(schema.inputs) > 1 and schema.inputs[1].name == "axes"
        has_attr = "axes" in schema.attributes
        assert has_input == (opset >= reduction.AXES_INPUT_SINCE[op]), (op, opset)
        assert has_attr == (not has_input), (op, opset)
        assert ("noop_with_empty_axes" in schema.attributes) == has_input, (op, opset)


def _schema_versions(op: str) -> list[int]:
    """Opset 11, every later opset in which ``op`` changed, and the newest opset."""
    since = {s.since_version for s in onnx.defs.get_all_schemas_with_history() if s.name == op and s.domain == ""}
    first = max(11, min(since))  # CumProd exists from opset 26
    return sorted({first, NEWEST} | {v for v in since if v > first})


_SWEEP = [(op, v) for op in ALL_OPS for v in _schema_versions(op)]


@pytest.mark.parametrize("op,opset", _SWEEP, ids=[f"{op}-{v}" for op, v in _SWEEP])
def test_every_schema_version(ctx, op, opset):
    if op in rm.REDUCE_OPS:
        model = rm.reduce_model(op, opset, axes=[-1, 0], keepdims=0)
        expected = {"ReduceLogSumExp": _LSE | {"squeeze"}}.get(op)
    elif op in ARG_OPS:
        attrs = {"select_last_index": 1} if opset >= 12 else {}
        model = em.make([h.make_node(op, ["x"], ["y"], axis=-1, keepdims=0, **attrs)],
                        [em.vi("x", T.FLOAT, [2, 3, 4])], [("y", T.INT64)], opset)
        expected = {op.lower()}
    else:
        model = em.make([h.make_node(op, ["x", "axis"], ["y"], reverse=1)], [em.vi("x", T.FLOAT, [2, 3, 4])],
                        [("y", T.FLOAT)], opset, inits=[em.init("axis", np.array(-2, np.int64))])
        expected = {op.lower()}
    onnx.checker.check_model(model, full_check=True)
    module = import_onnx(model)
    assert_types_match_ort(model, module)
    if expected:
        assert op_names(module) == expected


# --- specific behaviour -----------------------------------------------------------


def _attrs(module, op_name):
    (op,) = [op for op in ge_ops(module) if op.name == op_name]
    return op.attributes


def test_axes_are_normalized(ctx):
    module = import_onnx(rm.MODELS["mean_axes"]())  # axes [-1, 0] at rank 3
    assert list(ir.DenseI64ArrayAttr(_attrs(module, "ge.reduce_mean")["axes"])) == [0, 2]
    module = import_onnx(rm.MODELS["max_duplicate_axes"]())  # [1, -1] at rank 2
    assert list(ir.DenseI64ArrayAttr(_attrs(module, "ge.reduce_max")["axes"])) == [1]


def test_all_axes_is_the_empty_axes_attribute(ctx):
    for name in ("sum_all", "sum_empty_axes", "sum_all_keepdims0"):
        module = import_onnx(rm.MODELS[name]())
        assert list(ir.DenseI64ArrayAttr(_attrs(module, "ge.reduce_sum")["axes"])) == []


def test_arg_reduce_attributes(ctx):
    module = import_onnx(rm.MODELS["argmax"]())
    a = _attrs(module, "ge.argmax")
    assert ir.IntegerAttr(a["axis"]).value == 1
    assert ir.BoolAttr(a["keepdims"]).value is False and ir.BoolAttr(a["select_last_index"]).value is True


def test_cumsum_attributes(ctx):
    module = import_onnx(rm.MODELS["cumsum_exclusive_reverse"]())  # axis -1 (int32) at rank 3
    a = _attrs(module, "ge.cumsum")
    assert ir.IntegerAttr(a["axis"]).value == 2
    assert ir.BoolAttr(a["exclusive"]).value is True and ir.BoolAttr(a["reverse"]).value is True


def test_log_sum_exp_shifts_by_a_finite_max(ctx):
    # where(|m| == inf, 0, m): the shift feeds both the subtraction and the final add.
    module = import_onnx(rm.MODELS["log_sum_exp"]())
    ops = ge_ops(module)
    (where,) = [op for op in ops if op.name == "ge.where"]
    (sub,) = [op for op in ops if op.name == "ge.sub"]
    (add,) = [op for op in ops if op.name == "ge.add"]
    assert sub.operands[1] == where.results[0] and add.operands[0] == where.results[0]
    (inf,) = [op for op in ops if op.name == "ge.constant" and "0x7F800000" in str(op)]
    assert inf is not None


def test_reductions_follow_dynamic_and_fixed_shapes(ctx):
    model = rm.MODELS["sum_dynamic_dim"]()
    assert result_types(import_onnx(model)) == ["tensor<?x1xf32>"]
    assert result_types(import_onnx(model, input_shapes={"x": [7, 4]})) == ["tensor<7x1xf32>"]


def test_constant_inputs_are_folded(ctx):
    # All-constant reductions are evaluated at import: no ge reduction remains.
    model = em.make(
        [h.make_node("ReduceSum", ["c", "axes"], ["s"]), h.make_node("Add", ["x", "s"], ["y"])],
        [em.vi("x", T.FLOAT, [3])], [("y", T.FLOAT)], 13,
        inits=[em.init("c", np.arange(6, dtype=np.float32).reshape(2, 3)), em.init("axes", np.array([0], np.int64))],
    )
    module = import_onnx(model)
    assert op_names(module) == {"add"}
    assert "dense<[[3.000000e+00, 5.000000e+00, 7.000000e+00]]> : tensor<1x3xf32>" in str(module)


def test_axes_from_a_constant_node(ctx):
    # axes produced by a Constant node (not an initializer) are known at import time.
    model = em.make(
        [h.make_node("Constant", [], ["axes"], value_ints=[1]), h.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=0)],
        [em.vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 18,
    )
    module = import_onnx(model)
    assert_types_match_ort(model, module)
    assert list(ir.DenseI64ArrayAttr(_attrs(module, "ge.reduce_max")["axes"])) == [1]


def test_axes_attribute_in_input_form_is_refused(ctx):
    # ReduceMean-18 has no axes attribute: invalid ONNX (onnxruntime refuses it too).
    node = h.make_node("ReduceMean", ["x"], ["y"], axes=[1])
    model = em.make([node], [em.vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT, [2, 1])], 18)
    with pytest.raises(InvalidModelError, match="ReduceMean node 'ReduceMean_0': Unrecognized attribute: axes"):
        import_onnx(model)


@pytest.mark.parametrize("name", sorted(RUNTIME_AXES))
def test_runtime_axes_compiled_once(name):
    """Axes given at run time: one compiled model, every valid axis value, as onnxruntime; an
    out-of-range axis fails the call (ExecutionError) as it fails onnxruntime's run."""
    import ge_mlir
    from ge_mlir.errors import ExecutionError

    model = rm.MODELS[name]()
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    axis_input = RUNTIME_AXES[name]
    shape = [d.dim_value for d in next(i for i in model.graph.input if i.name == axis_input).type.tensor_type.shape.dim]
    for a in (-2, -1, 0, 1):
        feeds = {"x": x, axis_input: np.array(a, np.int64).reshape(shape)}
        want = sess.run(None, feeds)[0]
        got = compiled(**feeds)[0]
        assert got.shape == want.shape, (a, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(ExecutionError):
        compiled(x=x, **{axis_input: np.array(2, np.int64).reshape(shape)})
