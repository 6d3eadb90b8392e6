"""Small ONNX models for the reduction converters (ge_mlir/frontend/onnx/ops/reduction.py).

    python reduction_models.py NAME OUT.onnx     # write one model
    python reduction_models.py --list            # the model names

Used by test/Frontend/onnx/reduction.mlir (lit) and
test/python/frontend/test_onnx_reduction.py (pytest, which imports MODELS).
Static shapes (except the *_dynamic_dim model), a fixed opset per model.
Models named ``refuse_*`` must be refused by the importer with a clear reason.
"""

from __future__ import annotations

import os
import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise_models import init, make, vi  # noqa: E402  (shared model helpers)

MODELS: dict[str, Callable[[], onnx.ModelProto]] = {}

#: Every Reduce* op of the converter module.
REDUCE_OPS = [
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
    "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp",
]
#: First opset with axes as an input (ReduceSum-13, the others 18).
AXES_INPUT_SINCE = {op: (13 if op == "ReduceSum" else 18) for op in REDUCE_OPS}


def model(fn: Callable[[], onnx.ModelProto]) -> Callable[[], onnx.ModelProto]:
    MODELS[fn.__name__] = fn
    return fn


def reduce_model(op, opset, axes=None, elem=T.FLOAT, shape=(2, 3, 4), out_elem=None, axes_name="axes", **attrs):
    """One Reduce* node; ``axes`` goes to the attribute or to a constant input by opset.

    ``axes=[]`` in input form gives an explicit empty axes initializer.
    """
    inputs, inits = ["x"], []
    if opset >= AXES_INPUT_SINCE[op]:
        if axes is not None:
            inputs.append(axes_name)
            inits.append(init(axes_name, np.array(axes, dtype=np.int64)))
    elif axes is not None:
        attrs["axes"] = list(axes)
    return make(
        [h.make_node(op, inputs, ["y"], **attrs)],
        [vi("x", elem, list(shape))], [("y", out_elem or elem)], opset, inits=inits,
    )


# --- ReduceSum: attribute (11) and input (13+) forms ---------------------------


@model
def sum_attr():
    return reduce_model("ReduceSum", 11, axes=[-1], keepdims=0)


@model
def sum_axes():
    return reduce_model("ReduceSum", 13, axes=[1])


@model
def sum_all():
    return reduce_model("ReduceSum", 13)


@model
def sum_all_keepdims0():
    return reduce_model("ReduceSum", 13, keepdims=0)


@model
def sum_empty_axes():
    # An explicitly empty axes input is "no axes": reduce everything.
    return reduce_model("ReduceSum", 13, axes=[])


@model
def sum_noop():
    return reduce_model("ReduceSum", 13, noop_with_empty_axes=1)


@model
def sum_int64():
    return reduce_model("ReduceSum", 13, axes=[0, 2], elem=T.INT64, keepdims=0)


@model
def sum_scalar():
    return reduce_model("ReduceSum", 13, shape=())


@model
def sum_dynamic_dim():
    return reduce_model("ReduceSum", 13, axes=[1], shape=("N", 4))


@model
def sum_latest():
    return reduce_model("ReduceSum", 28, axes=[1], keepdims=0)


# --- Mean / Max / Min / Prod ----------------------------------------------------


@model
def mean_attr():
    return reduce_model("ReduceMean", 17, axes=[1, 2])


@model
def mean_axes():
    # Negative, unsorted axes: the importer normalizes them to [0, 2].
    return reduce_model("ReduceMean", 18, axes=[-1, 0], keepdims=0)


@model
def max_attr():
    return reduce_model("ReduceMax", 13, axes=[0], keepdims=0)


@model
def max_axes():
    return reduce_model("ReduceMax", 18, axes=[2])


@model
def max_bool():
    return reduce_model("ReduceMax", 20, axes=[1], elem=T.BOOL)


@model
def min_bool():
    return reduce_model("ReduceMin", 20, elem=T.BOOL, keepdims=0)


@model
def min_int():
    return reduce_model("ReduceMin", 18, axes=[1], elem=T.INT32, keepdims=0)


@model
def min_u8():
    return reduce_model("ReduceMin", 18, axes=[0], elem=T.UINT8)


@model
def max_duplicate_axes():
    # [1, -1] name axis 1 twice at rank 2: reduced once (onnxruntime accepts it).
    return reduce_model("ReduceMax", 13, axes=[1, -1], shape=(2, 3))


@model
def prod_attr():
    return reduce_model("ReduceProd", 11, axes=[1])


@model
def prod_axes():
    return reduce_model("ReduceProd", 18, axes=[0, 1], elem=T.INT64, keepdims=0)


# --- composites ---------------------------------------------------------------------


@model
def l1():
    return reduce_model("ReduceL1", 18, axes=[1])


@model
def l1_attr():
    return reduce_model("ReduceL1", 13, axes=[0], keepdims=0)


@model
def l2():
    return reduce_model("ReduceL2", 18, axes=[2], keepdims=0)


@model
def l2_int():
    return reduce_model("ReduceL2", 18, axes=[1], elem=T.INT32)


@model
def sum_square():
    return reduce_model("ReduceSumSquare", 18, axes=[1])


@model
def sum_square_attr():
    return reduce_model("ReduceSumSquare", 11, keepdims=0)


@model
def log_sum():
    return reduce_model("ReduceLogSum", 18, axes=[1], keepdims=0)


@model
def log_sum_attr():
    return reduce_model("ReduceLogSum", 11, axes=[2])


@model
def log_sum_exp():
    return reduce_model("ReduceLogSumExp", 18, axes=[1])


@model
def log_sum_exp_keepdims0():
    return reduce_model("ReduceLogSumExp", 18, axes=[2, 0], keepdims=0)


@model
def log_sum_exp_all():
    return reduce_model("ReduceLogSumExp", 13, keepdims=0)


@model
def log_sum_exp_f16():
    return reduce_model("ReduceLogSumExp", 28, axes=[0], elem=T.FLOAT16, shape=(3, 2))


# --- noop_with_empty_axes: the composites keep their elementwise steps ------------------


@model
def noop_composites():
    # Every Reduce* op except the plain ReduceSum (see sum_noop) with no axes and
    # noop_with_empty_axes=1, at opset 18.
    ops = [op for op in REDUCE_OPS if op != "ReduceSum"]
    nodes = [h.make_node(op, ["x"], [f"y_{op[6:].lower()}"], noop_with_empty_axes=1) for op in ops]
    return make(nodes, [vi("x", T.FLOAT, [2, 3])], [(f"y_{op[6:].lower()}", T.FLOAT) for op in ops], 18)


@model
def all_reduce_latest():
    # Every Reduce* op at the newest opset the tests target, axes [1] as an input.
    nodes = [h.make_node(op, ["x", "axes"], [f"y_{op[6:].lower()}"], keepdims=0) for op in REDUCE_OPS]
    return make(
        nodes, [vi("x", T.FLOAT, [2, 3, 4])], [(f"y_{op[6:].lower()}", T.FLOAT) for op in REDUCE_OPS], 28,
        inits=[init("axes", np.array([1], dtype=np.int64))],
    )


# --- ArgMax / ArgMin ------------------------------------------------------------------


@model
def argmax():
    return make(
        [h.make_node("ArgMax", ["x"], ["y"], axis=1, keepdims=0, select_last_index=1)],
        [vi("x", T.FLOAT, [2, 3, 4])], [("y", T.INT64)], 13,
    )


@model
def argmin():
    # Opset 11 defaults: axis 0, keepdims 1 (select_last_index is opset 12+).
    return make([h.make_node("ArgMin", ["x"], ["y"])], [vi("x", T.FLOAT, [2, 3, 4])], [("y", T.INT64)], 11)


@model
def argmax_neg_axis():
    return make(
        [h.make_node("ArgMax", ["x"], ["y"], axis=-1)], [vi("x", T.INT32, [3, 5])], [("y", T.INT64)], 12
    )


@model
def argmin_f16():
    return make(
        [h.make_node("ArgMin", ["x"], ["y"], axis=0, keepdims=0, select_last_index=1)],
        [vi("x", T.FLOAT16, [4, 2])], [("y", T.INT64)], 13,
    )


# --- CumSum ------------------------------------------------------------------------------


@model
def cumsum():
    return make(
        [h.make_node("CumSum", ["x", "axis"], ["y"])],
        [vi("x", T.FLOAT, [2, 3])], [("y", T.FLOAT)], 14, inits=[init("axis", np.array(1, dtype=np.int64))],
    )


@model
def cumsum_exclusive_reverse():
    return make(
        [h.make_node("CumSum", ["x", "axis"], ["y"], exclusive=1, reverse=1)],
        [vi("x", T.INT64, [2, 3, 4])], [("y", T.INT64)], 11, inits=[init("axis", np.array(-1, dtype=np.int32))],
    )


# --- refusals ------------------------------------------------------------------------------


@model
def runtime_axes():
    # axes given at run time (a graph input): one axis at a time, kept or not by a run-time flag.
    return make(
        [h.make_node("ReduceSum", ["x", "axes"], ["y"])],
        [vi("x", T.FLOAT, [2, 3]), vi("axes", T.INT64, [1])], [("y", T.FLOAT, ["d0", "d1"])], 13,
    )


@model
def refuse_runtime_axes_of_unknown_count():
    # How many axes decides the result's rank: it must be static.
    return make(
        [h.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0)],
        [vi("x", T.FLOAT, [2, 3]), vi("axes", T.INT64, ["n"])], [("y", T.FLOAT, ["d0"])], 13,
    )


@model
def refuse_axis_out_of_range():
    return reduce_model("ReduceMean", 18, axes=[3], shape=(2, 3))




@model
def refuse_log_sum_int():
    # Integer ReduceLogSum(Exp) inputs were dropped from the schema in opset 28.
    return reduce_model("ReduceLogSumExp", 18, axes=[1], elem=T.INT32, shape=(2, 3))


@model
def cumsum_runtime_axis():
    # The axis at run time: every axis scanned, the chosen one selected.
    return make(
        [h.make_node("CumSum", ["x", "axis"], ["y"])],
        [vi("x", T.FLOAT, [2, 3]), vi("axis", T.INT64, [])], [("y", T.FLOAT)], 14,
    )


@model
def refuse_argmax_axis():
    return make(
        [h.make_node("ArgMax", ["x"], ["y"], axis=2)], [vi("x", T.FLOAT, [2, 3])], [("y", T.INT64)], 13
    )


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
