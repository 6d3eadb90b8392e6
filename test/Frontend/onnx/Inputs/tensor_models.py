#!/usr/bin/env python3
"""Small ONNX models exercising the tensor-op converters (ge_mlir/frontend/onnx/ops/tensor.py).

    python tensor_models.py NAME OUT.onnx    # writes model NAME
    python tensor_models.py --list           # lists the model names

Every model has one node under test, named like the model (plus Constant nodes
and initializers feeding it), states its opset, uses numpy seed 0 for its
data and static shapes unless it tests dynamic behaviour. Used by
test/Frontend/onnx/tensor.mlir (lit) and test/python/frontend/test_onnx_tensor.py
(pytest, which also imports MODELS and FEEDS from here).

FEEDS gives run-time inputs for models whose inputs random data would make
invalid (indices, Range bounds); other inputs get random data of their type.
REFUSED lists the models the importer must refuse.
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

MODELS: dict[str, Callable[[], onnx.ModelProto]] = {}
FEEDS: dict[str, Callable[[np.random.Generator], dict[str, np.ndarray]]] = {}
REFUSED: set[str] = set()

I64_MAX = np.iinfo(np.int64).max
I64_MIN = np.iinfo(np.int64).min


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def vi(name: str, elem: int, shape) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def init(name: str, array) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(array), name)


def const_node(name: str, array) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], name=f"{name}_const", value=init(name, array))


def make(name: str, opset: int, nodes, inputs, outputs, inits=()) -> onnx.ModelProto:
    graph = helper.make_graph(list(nodes), name, list(inputs), list(outputs), initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="tensor_models")
    # The oldest IR version that allows the opset (onnxruntime refuses newer ones than it knows).
    m.ir_version = helper.find_min_ir_version_for(m.opset_import) if opset >= 3 else 3
    if m.ir_version < 4:  # IR < 4: initializers must also be graph inputs
        m.graph.input.extend(vi(t.name, t.data_type, list(t.dims)) for t in inits)
    # Outputs are declared by element type only; like exported models, the saved model states
    # their shapes (from ONNX shape inference, `?` where unknown).
    inferred = onnx.shape_inference.infer_shapes(m, data_prop=True)
    for out, inf in zip(m.graph.output, inferred.graph.output):
        if not out.type.tensor_type.HasField("shape") and inf.type.tensor_type.HasField("shape"):
            out.type.CopyFrom(inf.type)
    onnx.checker.check_model(m)
    return m


def model(name: str, refused: bool = False, feeds=None):
    def register(fn: Callable[[str], onnx.ModelProto]):
        MODELS[name] = lambda: fn(name)
        if refused:
            REFUSED.add(name)
        if feeds is not None:
            FEEDS[name] = feeds
        return fn

    return register


def single(name: str, opset: int, op: str, ins, outs, inputs, outputs, inits=(), extra=(), **attrs):
    """A model whose node under test (named ``name``) is ``op``."""
    node = helper.make_node(op, ins, outs, name=name, **attrs)
    return make(name, opset, list(extra) + [node], inputs, outputs, inits)


F = T.FLOAT

# --- Reshape -----------------------------------------------------------------


@model("reshape_neg1")
def _(n):
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)],
                  [init("s", np.array([2, -1], np.int64))])


@model("reshape_zero")
def _(n):
    # 0 copies the input dimension; -1 takes the rest.
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)],
                  [init("s", np.array([0, -1, 2], np.int64))])


@model("reshape_allowzero")
def _(n):
    # allowzero=1: 0 is a literal zero-sized dimension.
    return single(n, 14, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, 0, 3])], [vi("y", F, None)],
                  [init("s", np.array([0, 6], np.int64))], allowzero=1)


@model("reshape_v11")
def _(n):
    return single(n, 11, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)],
                  extra=[const_node("s", np.array([6, 4], np.int64))])


@model("reshape_dynamic")
def _(n):
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, ["N", 3, 4])], [vi("y", F, None)],
                  [init("s", np.array([0, -1], np.int64))])


@model("reshape_dynamic_inner")
def _(n):
    # A dynamic dim that is not copied by a 0: -1 stays dynamic.
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, "M", 4])], [vi("y", F, None)],
                  [init("s", np.array([0, -1, 2], np.int64))])


@model("reshape_shape_subgraph")
def _(n):
    # An exported shape computation: Concat(Shape(x)[0:1], [-1]); folded at import.
    nodes = [
        helper.make_node("Shape", ["x"], ["sh"], name="shape"),
        helper.make_node("Slice", ["sh", "zero", "one"], ["batch"], name="batch"),
        helper.make_node("Concat", ["batch", "minus1"], ["s"], name="target", axis=0),
    ]
    inits = [init("zero", np.array([0], np.int64)), init("one", np.array([1], np.int64)),
             init("minus1", np.array([-1], np.int64))]
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 12])], inits,
                  extra=nodes)


@model("reshape_runtime_shape", feeds=lambda rng: {"s": np.array([6, 4], np.int64)})
def _(n):
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, [2, 3, 4]), vi("s", T.INT64, [2])],
                  [vi("y", F, ["a", "b"])])


@model("reshape_computed_shape")
def _(n):
    # The shape is computed from a dynamic dimension: known only at run time.
    nodes = [
        helper.make_node("Shape", ["x"], ["sh"], name="shape"),
        helper.make_node("Slice", ["sh", "zero", "one"], ["batch"], name="batch"),
        helper.make_node("Concat", ["batch", "minus1"], ["s"], name="target", axis=0),
    ]
    inits = [init("zero", np.array([0], np.int64)), init("one", np.array([1], np.int64)),
             init("minus1", np.array([-1], np.int64))]
    return single(n, 13, "Reshape", ["x", "s"], ["y"], [vi("x", F, ["N", 3, 4])], [vi("y", F, ["N", 12])], inits,
                  extra=nodes)


# --- Transpose -----------------------------------------------------------------


@model("transpose_default")
def _(n):
    return single(n, 13, "Transpose", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)])


@model("transpose_perm")
def _(n):
    return single(n, 11, "Transpose", ["x"], ["y"], [vi("x", T.INT64, [2, 3, 4])], [vi("y", T.INT64, None)],
                  perm=[1, 0, 2])


# --- Concat --------------------------------------------------------------------


@model("concat")
def _(n):
    return single(n, 13, "Concat", ["a", "b", "c"], ["y"], [vi("a", F, [2, 3]), vi("b", F, [2, 5])],
                  [vi("y", F, None)], [init("c", _rng().standard_normal((2, 1)).astype(np.float32))], axis=-1)


@model("concat_v11")
def _(n):
    return single(n, 11, "Concat", ["a", "b"], ["y"], [vi("a", T.BOOL, [1, 3]), vi("b", T.BOOL, [2, 3])],
                  [vi("y", T.BOOL, None)], axis=0)


# --- Split ---------------------------------------------------------------------


@model("split_v11_attr")
def _(n):
    return single(n, 11, "Split", ["x"], ["y0", "y1"], [vi("x", F, [2, 3, 4])],
                  [vi("y0", F, None), vi("y1", F, None)], axis=1, split=[1, 2])


@model("split_v11_equal")
def _(n):
    return single(n, 11, "Split", ["x"], ["y0", "y1"], [vi("x", F, [4, 3])], [vi("y0", F, None), vi("y1", F, None)])


@model("split_v13_input")
def _(n):
    return single(n, 13, "Split", ["x", "s"], ["y0", "y1", "y2"], [vi("x", F, [2, 3, 5])],
                  [vi(f"y{i}", F, None) for i in range(3)], [init("s", np.array([2, 2, 1], np.int64))], axis=-1)


@model("split_v18_num_outputs")
def _(n):
    # 7 does not split evenly into 3: the last chunk is smaller ([3, 3, 1]).
    return single(n, 18, "Split", ["x"], ["y0", "y1", "y2"], [vi("x", F, [7, 2])],
                  [vi(f"y{i}", F, None) for i in range(3)], num_outputs=3)


@model("split_dynamic", refused=True)
def _(n):
    return single(n, 13, "Split", ["x"], ["y0", "y1"], [vi("x", F, ["N", 4])], [vi("y0", F, None), vi("y1", F, None)])


# --- Slice ---------------------------------------------------------------------


@model("slice_v9")
def _(n):
    return single(n, 9, "Slice", ["x"], ["y"], [vi("x", F, [4, 6])], [vi("y", F, None)],
                  starts=[1, -4], ends=[3, 1000], axes=[0, 1])


@model("slice_v11_default")
def _(n):
    return single(n, 11, "Slice", ["x", "s", "e"], ["y"], [vi("x", F, [4, 6])], [vi("y", F, None)],
                  [init("s", np.array([1, 2], np.int64)), init("e", np.array([-1, 5], np.int64))])


@model("slice_v13_steps")
def _(n):
    # Negative step from the end to INT64_MIN (clamped), INT64_MAX end, int32 indices.
    inits = [init("s", np.array([0, -1], np.int32)), init("e", np.array([2**31 - 1, -2**31], np.int32)),
             init("a", np.array([-2, 1], np.int32)), init("t", np.array([2, -2], np.int32))]
    return single(n, 13, "Slice", ["x", "s", "e", "a", "t"], ["y"], [vi("x", F, [5, 6])], [vi("y", F, None)], inits)


@model("slice_runtime_starts", feeds=lambda rng: {"x": rng.standard_normal((4, 6)).astype(np.float32),
                                                  "s": np.array([-3], np.int64)})
def _(n):
    return single(n, 13, "Slice", ["x", "s", "e"], ["y"], [vi("x", F, [4, 6]), vi("s", T.INT64, [1])],
                  [vi("y", F, None)], [init("e", np.array([3], np.int64))])


# --- Gather / GatherElements / ScatterElements ---------------------------------


@model("gather_axis1")
def _(n):
    return single(n, 13, "Gather", ["x", "i"], ["y"], [vi("x", F, [3, 4, 5])], [vi("y", F, None)],
                  [init("i", np.array([[0, 2], [1, -1]], np.int64))], axis=1)


@model("gather_scalar_index")
def _(n):
    return single(n, 11, "Gather", ["x", "i"], ["y"], [vi("x", F, [4, 5])], [vi("y", F, None)],
                  [init("i", np.array(1, np.int64))])


@model("gather_runtime_indices", feeds=lambda r: {"x": r.standard_normal((5, 3)).astype(np.float32),
                                                   "i": r.integers(-5, 5, (2, 4)).astype(np.int32)})
def _(n):
    return single(n, 13, "Gather", ["x", "i"], ["y"], [vi("x", F, [5, 3]), vi("i", T.INT32, [2, 4])],
                  [vi("y", F, None)])


@model("gather_elements", feeds=lambda r: {"x": r.standard_normal((3, 4)).astype(np.float32),
                                            "i": r.integers(-4, 4, (3, 2)).astype(np.int64)})
def _(n):
    return single(n, 13, "GatherElements", ["x", "i"], ["y"], [vi("x", F, [3, 4]), vi("i", T.INT64, [3, 2])],
                  [vi("y", F, None)], axis=1)


_SCATTER_IDX = np.array([[1, 0, 2], [0, 2, 1]], np.int64)


@model("scatter_elements_v11")
def _(n):
    return single(n, 11, "ScatterElements", ["x", "i", "u"], ["y"], [vi("x", F, [3, 3]), vi("u", F, [2, 3])],
                  [vi("y", F, None)], [init("i", _SCATTER_IDX)])


@model("scatter_elements_add")
def _(n):
    return single(n, 16, "ScatterElements", ["x", "i", "u"], ["y"], [vi("x", F, [3, 3]), vi("u", F, [2, 3])],
                  [vi("y", F, None)], [init("i", _SCATTER_IDX.astype(np.int32))], reduction="add")


@model("scatter_elements_max")
def _(n):
    return single(n, 18, "ScatterElements", ["x", "i", "u"], ["y"], [vi("x", F, [3, 3]), vi("u", F, [3, 2])],
                  [vi("y", F, None)], [init("i", np.array([[0, 1], [2, 2], [1, -3]], np.int64))], axis=1,
                  reduction="max")


@model("scatter_v10")
def _(n):
    # Scatter: the deprecated name of ScatterElements.
    return single(n, 10, "Scatter", ["x", "i", "u"], ["y"], [vi("x", F, [3, 3]), vi("u", F, [2, 3])],
                  [vi("y", F, None)], [init("i", _SCATTER_IDX)])


# --- Expand / Tile ---------------------------------------------------------------


@model("expand")
def _(n):
    return single(n, 13, "Expand", ["x", "s"], ["y"], [vi("x", F, [3, 1])], [vi("y", F, None)],
                  [init("s", np.array([2, 1, 4], np.int64))])


@model("expand_v8")
def _(n):
    return single(n, 8, "Expand", ["x", "s"], ["y"], [vi("x", T.INT32, [1, 3])], [vi("y", T.INT32, [2, 3])],
                  [init("s", np.array([2, 3], np.int64))])


@model("tile")
def _(n):
    return single(n, 13, "Tile", ["x", "r"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)],
                  [init("r", np.array([2, 1], np.int64))])


@model("tile_v6")
def _(n):
    return single(n, 6, "Tile", ["x", "r"], ["y"], [vi("x", T.BOOL, [1, 2, 1])], [vi("y", T.BOOL, None)],
                  [init("r", np.array([3, 1, 2], np.int64))])


# --- Squeeze / Unsqueeze / Flatten -----------------------------------------------


@model("squeeze_v11")
def _(n):
    return single(n, 11, "Squeeze", ["x"], ["y"], [vi("x", F, [2, 1, 3, 1])], [vi("y", F, None)], axes=[1, -1])


@model("squeeze_v13")
def _(n):
    return single(n, 13, "Squeeze", ["x", "a"], ["y"], [vi("x", F, [2, 1, 3, 1])], [vi("y", F, None)],
                  [init("a", np.array([-1], np.int64))])


@model("squeeze_all")
def _(n):
    return single(n, 13, "Squeeze", ["x"], ["y"], [vi("x", F, [2, 1, 3, 1])], [vi("y", F, None)])


@model("squeeze_dynamic_all", refused=True)
def _(n):
    return single(n, 13, "Squeeze", ["x"], ["y"], [vi("x", F, ["N", 1, 3])], [vi("y", F, ["N", 3])])


@model("unsqueeze_v11")
def _(n):
    return single(n, 11, "Unsqueeze", ["x"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)], axes=[0, 3])


@model("unsqueeze_v13")
def _(n):
    return single(n, 13, "Unsqueeze", ["x", "a"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)],
                  [init("a", np.array([-1, 1], np.int64))])


@model("flatten")
def _(n):
    return single(n, 13, "Flatten", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)])


@model("flatten_axis0")
def _(n):
    return single(n, 11, "Flatten", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)], axis=0)


@model("flatten_neg")
def _(n):
    return single(n, 13, "Flatten", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)], axis=-1)


# --- Pad -------------------------------------------------------------------------


@model("pad_v2")
def _(n):
    return single(n, 2, "Pad", ["x"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)], pads=[1, 0, 0, 2], value=0.5)


@model("pad_v11_constant")
def _(n):
    return single(n, 11, "Pad", ["x", "p", "v"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)],
                  [init("p", np.array([0, 1, 1, 0], np.int64)), init("v", np.array(1.5, np.float32))])


@model("pad_reflect")
def _(n):
    return single(n, 13, "Pad", ["x", "p"], ["y"], [vi("x", F, [1, 2, 4, 4])], [vi("y", F, None)],
                  [init("p", np.array([0, 0, 1, 2, 0, 0, 1, 2], np.int64))], mode="reflect")


@model("pad_edge")
def _(n):
    return single(n, 13, "Pad", ["x", "p"], ["y"], [vi("x", T.INT32, [2, 3])], [vi("y", T.INT32, None)],
                  [init("p", np.array([1, 1, 1, 1], np.int64))], mode="edge")


@model("pad_wrap")
def _(n):
    return single(n, 19, "Pad", ["x", "p"], ["y"], [vi("x", F, [3, 2])], [vi("y", F, None)],
                  [init("p", np.array([2, 1, 1, 1], np.int64))], mode="wrap")


@model("pad_axes")
def _(n):
    return single(n, 18, "Pad", ["x", "p", "", "a"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)],
                  [init("p", np.array([2, 1], np.int64)), init("a", np.array([-1], np.int64))])


@model("pad_negative")
def _(n):
    # Negative pads crop.
    return single(n, 13, "Pad", ["x", "p"], ["y"], [vi("x", F, [2, 4])], [vi("y", F, None)],
                  [init("p", np.array([0, -1, 1, -2], np.int64))])


# --- Shape / Size ----------------------------------------------------------------


@model("shape_static")
def _(n):
    return single(n, 13, "Shape", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", T.INT64, None)])


@model("shape_dynamic")
def _(n):
    return single(n, 13, "Shape", ["x"], ["y"], [vi("x", F, ["N", 3])], [vi("y", T.INT64, None)])


@model("shape_dynamic_start_end")
def _(n):
    return single(n, 15, "Shape", ["x"], ["y"], [vi("x", F, ["N", 3, 4])], [vi("y", T.INT64, None)], start=-3, end=-1)


@model("shape_static_part")
def _(n):
    # Only the static dimensions of a dynamic shape: a constant.
    return single(n, 15, "Shape", ["x"], ["y"], [vi("x", F, ["N", 3, 4])], [vi("y", T.INT64, None)], start=-2)


@model("size_static")
def _(n):
    return single(n, 13, "Size", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", T.INT64, None)])


@model("size_dynamic", refused=True)
def _(n):
    return single(n, 13, "Size", ["x"], ["y"], [vi("x", F, ["N", 3])], [vi("y", T.INT64, None)])


# --- Range -------------------------------------------------------------------------


def _range_feeds(dtype):
    return lambda r: {"start": np.array(1, dtype), "limit": np.array(9, dtype), "delta": np.array(2.5 if
                      np.dtype(dtype).kind == "f" else 3, dtype)}


@model("range_dynamic", feeds=_range_feeds(np.float32))
def _(n):
    return single(n, 11, "Range", ["start", "limit", "delta"], ["y"],
                  [vi("start", F, []), vi("limit", F, []), vi("delta", F, [])], [vi("y", F, None)])


@model("range_v27", feeds=_range_feeds(np.int64))
def _(n):
    return single(n, 27, "Range", ["start", "limit", "delta"], ["y"],
                  [vi("start", T.INT64, []), vi("limit", T.INT64, []), vi("delta", T.INT64, [])],
                  [vi("y", T.INT64, None)])


@model("range_const")
def _(n):
    # All inputs known: folded to a constant.
    return single(n, 11, "Range", ["start", "limit", "delta"], ["y"], [], [vi("y", T.INT64, None)],
                  [init("start", np.array(3, np.int64)), init("limit", np.array(9, np.int64)),
                   init("delta", np.array(3, np.int64))])


# --- OneHot ------------------------------------------------------------------------


@model("one_hot", feeds=lambda r: {"i": r.integers(-4, 4, (2, 3)).astype(np.int64)})
def _(n):
    return single(n, 11, "OneHot", ["i", "d", "v"], ["y"], [vi("i", T.INT64, [2, 3])], [vi("y", F, None)],
                  [init("d", np.array(4, np.int64)), init("v", np.array([0.0, 1.0], np.float32))])


@model("one_hot_axis0", feeds=lambda r: {"i": r.integers(-5, 5, (3,)).astype(np.int64)})
def _(n):
    # A float, 1-element depth; int32 values [off, on].
    return single(n, 11, "OneHot", ["i", "d", "v"], ["y"], [vi("i", T.INT64, [3])], [vi("y", T.INT32, None)],
                  [init("d", np.array([5.0], np.float32)), init("v", np.array([-1, 7], np.int32))], axis=0)


@model("one_hot_bool", feeds=lambda r: {"i": r.integers(0, 3, (2,)).astype(np.int32)})
def _(n):
    # Boolean values: one-hot encoded as i8 then cast.
    return single(n, 11, "OneHot", ["i", "d", "v"], ["y"], [vi("i", T.INT32, [2])], [vi("y", T.BOOL, None)],
                  [init("d", np.array(3, np.int64)), init("v", np.array([False, True]))])


# --- TopK ---------------------------------------------------------------------------


@model("topk")
def _(n):
    return single(n, 11, "TopK", ["x", "k"], ["v", "i"], [vi("x", F, [3, 5])],
                  [vi("v", F, None), vi("i", T.INT64, None)], [init("k", np.array([2], np.int64))])


@model("topk_smallest")
def _(n):
    return single(n, 11, "TopK", ["x", "k"], ["v", "i"], [vi("x", F, [4, 3])],
                  [vi("v", F, None), vi("i", T.INT64, None)], [init("k", np.array([3], np.int64))], axis=0, largest=0)


@model("topk_v9")
def _(n):
    return single(n, 9, "TopK", ["x"], ["v", "i"], [vi("x", F, [3, 5])],
                  [vi("v", F, None), vi("i", T.INT64, None)], k=1, axis=1)


@model("topk_runtime_k", feeds=lambda rng: {"x": rng.standard_normal((3, 5)).astype(np.float32),
                                            "k": np.array([2], np.int64)})
def _(n):
    return single(n, 11, "TopK", ["x", "k"], ["v", "i"], [vi("x", F, [3, 5]), vi("k", T.INT64, [1])],
                  [vi("v", F, None), vi("i", T.INT64, None)])


# --- ConstantOfShape ------------------------------------------------------------------


@model("constant_of_shape_large")
def _(n):
    # Too large to fold at import (> 2^20 elements): the converter emits a splat.
    return single(n, 20, "ConstantOfShape", ["s"], ["y"], [], [vi("y", T.INT32, None)],
                  [init("s", np.array([1024, 1025], np.int64))], value=init("value", np.array([7], np.int32)))


@model("constant_of_shape_partial")
def _(n):
    # The shape's static tail of a dynamic input: ONNX shape inference knows the result type.
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape", start=1)]
    return single(n, 15, "ConstantOfShape", ["s"], ["y"], [vi("x", F, ["N", 3, 4])], [vi("y", F, None)],
                  extra=nodes, value=init("value", np.array([1.5], np.float32)))


@model("constant_of_shape_dynamic")
def _(n):
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape")]
    return single(n, 13, "ConstantOfShape", ["s"], ["y"], [vi("x", F, ["N", 3])], [vi("y", F, None)], extra=nodes)


# --- DepthToSpace / SpaceToDepth ---------------------------------------------------------


@model("depth_to_space_dcr")
def _(n):
    return single(n, 13, "DepthToSpace", ["x"], ["y"], [vi("x", F, [1, 8, 2, 3])], [vi("y", F, None)], blocksize=2)


@model("depth_to_space_crd")
def _(n):
    return single(n, 11, "DepthToSpace", ["x"], ["y"], [vi("x", F, [2, 8, 2, 3])], [vi("y", F, None)], blocksize=2,
                  mode="CRD")


@model("depth_to_space_dynamic_batch")
def _(n):
    return single(n, 13, "DepthToSpace", ["x"], ["y"], [vi("x", F, ["N", 9, 2, 2])], [vi("y", F, None)], blocksize=3)


@model("space_to_depth")
def _(n):
    return single(n, 13, "SpaceToDepth", ["x"], ["y"], [vi("x", F, [1, 2, 4, 6])], [vi("y", F, None)], blocksize=2)


@model("space_to_depth_crd")
def _(n):
    return single(n, 28, "SpaceToDepth", ["x"], ["y"], [vi("x", F, [1, 2, 4, 6])], [vi("y", F, None)], blocksize=2,
                  mode="CRD")


# --- Trilu / EyeLike ----------------------------------------------------------------------


@model("trilu_upper")
def _(n):
    return single(n, 14, "Trilu", ["x"], ["y"], [vi("x", F, [2, 3, 4])], [vi("y", F, None)])


@model("trilu_lower_k")
def _(n):
    return single(n, 14, "Trilu", ["x", "k"], ["y"], [vi("x", T.INT32, [4, 3])], [vi("y", T.INT32, None)],
                  [init("k", np.array(-1, np.int64))], upper=0)


@model("trilu_bool")
def _(n):
    return single(n, 14, "Trilu", ["x"], ["y"], [vi("x", T.BOOL, [3, 3])], [vi("y", T.BOOL, None)])


@model("eye_like")
def _(n):
    return single(n, 9, "EyeLike", ["x"], ["y"], [vi("x", F, [3, 4])], [vi("y", F, None)], k=1)


@model("eye_like_dtype")
def _(n):
    return single(n, 22, "EyeLike", ["x"], ["y"], [vi("x", F, [4, 4])], [vi("y", T.INT32, None)], k=-1,
                  dtype=T.INT32)


@model("eye_like_dynamic", refused=True)
def _(n):
    return single(n, 9, "EyeLike", ["x"], ["y"], [vi("x", F, ["N", 4])], [vi("y", F, None)])


# --- Compress / NonZero / Unique / GatherND / ScatterND -----------------------------------------


@model("compress_const")
def _(n):
    return single(n, 11, "Compress", ["x", "c"], ["y"], [vi("x", F, [3, 4])], [vi("y", F, None)],
                  [init("c", np.array([True, False, True, True]))], axis=1)


@model("compress_flat")
def _(n):
    return single(n, 11, "Compress", ["x", "c"], ["y"], [vi("x", F, [2, 3])], [vi("y", F, None)],
                  [init("c", np.array([False, True, False, False, True]))])


@model("compress_runtime")
def _(n):
    return single(n, 11, "Compress", ["x", "c"], ["y"], [vi("x", F, [3, 4]), vi("c", T.BOOL, [3])],
                  [vi("y", F, None)], axis=0)


@model("nonzero")
def _(n):
    return single(n, 13, "NonZero", ["x"], ["y"], [vi("x", F, [3, 4])], [vi("y", T.INT64, None)])


@model("nonzero_const")
def _(n):
    # A NonZero of a constant is folded at import.
    return single(n, 13, "NonZero", ["c"], ["y"], [], [vi("y", T.INT64, None)],
                  [init("c", np.array([[1, 0, 2], [0, 3, 0]], np.int32))])


@model("unique")
def _(n):
    # Sorted unique values, first indices, inverse indices and counts: [?] each but the inverse.
    return single(n, 11, "Unique", ["x"], ["y", "idx", "inv", "cnt"], [vi("x", F, [6])],
                  [vi("y", F, None), vi("idx", T.INT64, None), vi("inv", T.INT64, None), vi("cnt", T.INT64, None)])


@model("gather_nd")
def _(n):
    return single(n, 13, "GatherND", ["x", "i"], ["y"], [vi("x", F, [3, 4])], [vi("y", F, None)],
                  [init("i", np.array([[0, 1], [2, 3]], np.int64))])


@model("scatter_nd")
def _(n):
    return single(n, 16, "ScatterND", ["x", "i", "u"], ["y"], [vi("x", F, [3, 4]), vi("u", F, [2])],
                  [vi("y", F, None)], [init("i", np.array([[0, 1], [2, 3]], np.int64))])


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(MODELS))
        return 0
    if len(argv) != 3 or argv[1] not in MODELS:
        print(f"usage: {argv[0]} NAME OUT.onnx | --list   (NAME one of: {', '.join(MODELS)})", file=sys.stderr)
        return 2
    onnx.save(MODELS[argv[1]](), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
