"""ONNX tensor-op converters (ge_mlir/frontend/onnx/ops/tensor.py), in process.

Every model of test/Frontend/onnx/Inputs/tensor_models.py is imported and
  (a) the function's result types are compared with the shapes and dtypes
      onnxruntime produces on random inputs (a `?` dim matches any size), and
  (b) the sequence of emitted ops is compared with the expected one;
models the importer must refuse are checked for the refusal reason.

Numerics are NOT checked: ge has no CPU backend yet, so nothing executes the
emitted ops. Two partial exceptions: results the importer folded to
constants are compared with onnxruntime's values, and the decompositions of
DepthToSpace/SpaceToDepth/Trilu/Compress (reshape, transpose, where, gather on
constants) are replayed with numpy to catch a wrong permutation or mask.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import onnx
import pytest
from mlir import ir

from ge_mlir.errors import UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx, supported_ops
from ge_mlir.frontend.onnx.registry import lookup, numpy_dtype

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location(
    "tensor_models", ROOT / "test" / "Frontend" / "onnx" / "Inputs" / "tensor_models.py"
)
tm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tm)

C = "ge.constant"

# Ops of the function body (func.return excluded), in order.
EXPECTED_OPS: dict[str, list[str] | set[str]] = {
    "slice_runtime_starts": {"ge.constant", "ge.gather", "ge.shape", "ge.less", "ge.add", "ge.where", "ge.greater",
                             "ge.sub", "ge.max", "ge.min", "ge.abs", "ge.div", "ge.range", "ge.mul"},
    "topk_runtime_k": {"ge.constant", "ge.gather", "ge.greater_equal", "ge.less_equal", "ge.and", "ge.not",
                       "ge.cast", "ge.reshape", "ge.top_k", "ge.range"},
    # the true positions: a running count, a range of the count, a compare-and-count per position
    "compress_runtime": {"ge.constant", "ge.cast", "ge.cumsum", "ge.reduce_sum", "ge.range", "ge.reshape",
                         "ge.add", "ge.unsqueeze", "ge.less", "ge.gather"},
    "unique": {"ge.constant", "ge.reshape", "ge.gather", "ge.top_k", "ge.equal", "ge.not", "ge.cast", "ge.reduce_max",
               "ge.greater", "ge.or", "ge.cumsum", "ge.sub", "ge.reduce_sum", "ge.range", "ge.add", "ge.unsqueeze",
               "ge.less", "ge.concat"},
    "nonzero": {"ge.constant", "ge.reshape", "ge.equal", "ge.not", "ge.cast", "ge.cumsum", "ge.reduce_sum",
                "ge.range", "ge.add", "ge.unsqueeze", "ge.less", "ge.div", "ge.mod", "ge.concat"},
    # index tuples made linear (out-of-range components pushed past the axis), then one gather/scatter
    "gather_nd": {"ge.reshape", "ge.constant", "ge.less", "ge.add", "ge.where", "ge.greater_equal", "ge.or",
                  "ge.cast", "ge.reduce_sum", "ge.greater", "ge.mul", "ge.gather"},
    "scatter_nd": {"ge.reshape", "ge.constant", "ge.less", "ge.add", "ge.where", "ge.greater_equal", "ge.or",
                   "ge.cast", "ge.reduce_sum", "ge.greater", "ge.mul", "ge.scatter_elements"},
    "reshape_neg1": ["ge.reshape"],
    "reshape_zero": ["ge.reshape"],
    "reshape_allowzero": ["ge.reshape"],
    "reshape_v11": ["ge.reshape"],
    "reshape_dynamic": ["ge.reshape"],
    "reshape_dynamic_inner": ["ge.reshape"],
    "reshape_shape_subgraph": ["ge.reshape"],  # Shape/Slice/Concat folded
    "transpose_default": ["ge.transpose"],
    "transpose_perm": ["ge.transpose"],
    "concat": [C, "ge.concat"],
    "concat_v11": ["ge.concat"],
    "split_v11_attr": ["ge.split"],
    "split_v11_equal": ["ge.split"],
    "split_v13_input": ["ge.split"],
    "split_v18_num_outputs": ["ge.split"],
    "slice_v9": ["ge.slice"],
    "slice_v11_default": ["ge.slice"],
    "slice_v13_steps": ["ge.slice"],
    "gather_axis1": [C, "ge.gather"],
    "gather_scalar_index": [C, "ge.gather"],
    "gather_runtime_indices": ["ge.gather"],
    "gather_elements": ["ge.gather_elements"],
    "scatter_elements_v11": [C, "ge.scatter_elements"],
    "scatter_elements_add": [C, "ge.scatter_elements"],
    "scatter_elements_max": [C, "ge.scatter_elements"],
    "scatter_v10": [C, "ge.scatter_elements"],
    "expand": ["ge.expand"],
    "expand_v8": ["ge.expand"],
    "tile": ["ge.tile"],
    "tile_v6": ["ge.tile"],
    "squeeze_v11": ["ge.squeeze"],
    "squeeze_v13": ["ge.squeeze"],
    "squeeze_all": ["ge.squeeze"],
    "unsqueeze_v11": ["ge.unsqueeze"],
    "unsqueeze_v13": ["ge.unsqueeze"],
    "flatten": ["ge.flatten"],
    "flatten_axis0": ["ge.flatten"],
    "flatten_neg": ["ge.flatten"],
    "pad_v2": ["ge.pad"],
    "pad_v11_constant": ["ge.pad"],
    "pad_reflect": ["ge.pad"],
    "pad_edge": ["ge.pad"],
    "pad_wrap": ["ge.pad"],
    "pad_axes": ["ge.pad"],
    "pad_negative": ["ge.pad"],
    "shape_static": [C],
    "shape_dynamic": ["ge.shape"],
    "shape_dynamic_start_end": ["ge.shape"],
    "shape_static_part": [C],
    "size_static": [C],
    "range_dynamic": ["ge.range"],
    "range_v27": ["ge.range"],
    "range_const": [C],
    "one_hot": ["ge.one_hot"],
    "one_hot_axis0": ["ge.one_hot"],
    "one_hot_bool": ["ge.one_hot", "ge.cast"],
    "topk": ["ge.top_k"],
    "topk_smallest": ["ge.top_k"],
    "topk_v9": ["ge.top_k"],
    "constant_of_shape_large": [C],
    # The Shape node's (static) value is a dead constant; ConstantOfShape uses ONNX's result type.
    "constant_of_shape_partial": [C],  # Shape of the static dims folds at import
    "depth_to_space_dcr": ["ge.reshape", "ge.transpose", "ge.reshape"],
    "depth_to_space_crd": ["ge.reshape", "ge.transpose", "ge.reshape"],
    "depth_to_space_dynamic_batch": ["ge.reshape", "ge.transpose", "ge.reshape"],
    "space_to_depth": ["ge.reshape", "ge.transpose", "ge.reshape"],
    "space_to_depth_crd": ["ge.reshape", "ge.transpose", "ge.reshape"],
    "trilu_upper": [C, C, "ge.where"],
    "trilu_lower_k": [C, C, "ge.where"],
    "trilu_bool": [C, C, "ge.where"],
    "eye_like": [C],
    "eye_like_dtype": [C],
    "compress_const": [C, "ge.gather"],
    "compress_flat": ["ge.reshape", C, "ge.gather"],
    "nonzero_const": [C],
    # Run-time shapes: a shape given by the caller is read when the op runs (ge.dynamic_reshape);
    # one computed from the input's own dims becomes a static target (shape inference's symbols),
    # its computation left dead; ConstantOfShape of a run-time shape is a ge.fill.
    "reshape_runtime_shape": ["ge.dynamic_reshape"],
    "reshape_computed_shape": ["ge.shape", "ge.slice", C, "ge.concat", "ge.reshape"],
    "constant_of_shape_dynamic": ["ge.shape", C, "ge.fill"],
}

# Models whose result types keep dynamic dims (exactly these); all others must be fully static.
DYNAMIC_RESULTS = {
    "slice_runtime_starts": ["tensor<?x6xf32>"],  # starts given at run time
    "compress_runtime": ["tensor<?x4xf32>"],  # as many rows as true conditions
    "nonzero": ["tensor<2x?xi64>"],  # as many columns as nonzero elements
    "unique": ["tensor<?xf32>", "tensor<?xi64>", "tensor<6xi64>", "tensor<?xi64>"],  # as many as distinct values
    "topk_runtime_k": ["tensor<3x?xf32>", "tensor<3x?xi64>"],  # k given at run time
    "reshape_dynamic": ["tensor<?x12xf32>"],  # the copied dynamic dim cancels out of -1
    "reshape_dynamic_inner": ["tensor<2x?x2xf32>"],
    "range_dynamic": ["tensor<?xf32>"],
    "range_v27": ["tensor<?xi64>"],
    "depth_to_space_dynamic_batch": ["tensor<?x1x6x6xf32>"],
    "reshape_runtime_shape": ["tensor<?x?xf32>"],
    "reshape_computed_shape": ["tensor<?x12xf32>"],
    "constant_of_shape_dynamic": ["tensor<?x3xf32>"],
}

# Neither onnxruntime nor onnx's reference evaluator runs a boolean OneHot (valid ONNX: T3
# includes bool); its output types, from the spec: indices shape + [depth], bool.
NO_RUNTIME = {"one_hot_bool": [((2, 3), np.dtype(bool))]}

# Refused models: (op type, a regular expression searched in the reason); the node is the model name.
REFUSALS: dict[str, tuple[str, str]] = {
    # The core's require_const wording for graph inputs may differ ("comes from graph input").
    "split_dynamic": ("Split", "splitting dynamic dimension 0 into 2 parts needs explicit split sizes"),
    "squeeze_dynamic_all": ("Squeeze", "Squeeze without axes needs a static input shape"),
    "size_dynamic": ("Size", r"Size of tensor<\?x3xf32> is only known at run time"),
    "eye_like_dynamic": ("EyeLike", r"EyeLike needs a static input shape, got tensor<\?x4xf32>"),
}

TENSOR_OPS = {
    "Reshape": 5, "Transpose": 1, "Concat": 1, "Split": 1, "Slice": 1, "Gather": 1, "GatherElements": 11,
    "ScatterElements": 11, "Scatter": 9, "Expand": 8, "Squeeze": 1, "Unsqueeze": 1, "Flatten": 1, "Pad": 1,
    "Tile": 6, "Shape": 1, "Size": 1, "Range": 11, "OneHot": 9, "TopK": 1, "ConstantOfShape": 9,
    "DepthToSpace": 1, "SpaceToDepth": 1, "Trilu": 14, "EyeLike": 9, "Compress": 9, "NonZero": 9,
    "Unique": 11, "GatherND": 11, "ScatterND": 11,
}


def _feeds(name: str, model: onnx.ModelProto) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    feeds = tm.FEEDS[name](rng) if name in tm.FEEDS else {}
    inits = {i.name for i in model.graph.initializer}
    for inp in model.graph.input:
        if inp.name in inits or inp.name in feeds:
            continue
        tt = inp.type.tensor_type
        dtype = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type))
        shape = [d.dim_value if d.HasField("dim_value") else 2 for d in tt.shape.dim]  # `?` dims: 2
        if dtype == np.bool_:
            feeds[inp.name] = rng.random(shape) > 0.5
        elif dtype.kind == "f":
            feeds[inp.name] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[inp.name] = rng.integers(-5, 5, shape).astype(dtype)
    return feeds


def _run_onnxruntime(model: onnx.ModelProto, feeds) -> list[np.ndarray]:
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _body(module: ir.Module):
    fn = module.body.operations[0]
    return fn, list(fn.regions[0].blocks[0].operations)


def _constant_value(attr) -> np.ndarray | None:
    if not isinstance(attr, ir.DenseElementsAttr):
        return None  # dense_resource blobs are not read back
    t = ir.RankedTensorType(attr.type)
    if attr.is_splat:
        return np.full(t.shape, np.array(ir.DenseElementsAttr(attr).get_splat_value().value))
    return np.array(attr).reshape(t.shape)


def _replay(module: ir.Module, feeds: dict[str, np.ndarray], model: onnx.ModelProto):
    """numpy replay of the data-movement decompositions (reshape/transpose/where/gather/constant)."""
    fn, ops = _body(module)
    inits = {i.name for i in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in inits]
    env = {arg: feeds[n] for arg, n in zip(fn.regions[0].blocks[0].arguments, names)}
    for op in ops:
        args = [env[v] for v in op.operands]
        name = op.operation.name
        if name == "func.return":
            return args
        if name == "ge.constant":
            out = _constant_value(op.attributes["value"])
        elif name == "ge.reshape":
            t = op.results[0].type
            out = args[0].reshape([-1 if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)])
        elif name == "ge.transpose":
            out = args[0].transpose(list(op.attributes["perm"]))
        elif name == "ge.where":
            out = np.where(*args)
        elif name == "ge.gather":
            axis = op.attributes["axis"].value if "axis" in op.attributes else 0
            out = np.take(args[0], args[1], axis=axis)
        else:
            raise AssertionError(f"no numpy replay for {name}")
        env[op.results[0]] = out


REPLAYED = {n for n in EXPECTED_OPS if n.startswith(("depth_to_space", "space_to_depth", "trilu", "compress"))
            and n not in DYNAMIC_RESULTS}  # run-time sizes: test/python/target/cpu/test_runtime_parameters.py runs them


def test_models_and_expectations_agree():
    assert set(tm.MODELS) == set(EXPECTED_OPS) | set(REFUSALS)
    assert tm.REFUSED == set(REFUSALS)
    assert not set(EXPECTED_OPS) & set(REFUSALS)


@pytest.mark.parametrize("name", sorted(EXPECTED_OPS))
def test_import_matches_onnxruntime(name, ctx):
    model = tm.MODELS[name]()
    module = import_onnx(model)
    fn, ops = _body(module)

    # (b) the emitted ops (a set: the run-time index arithmetic, order not pinned)
    names = [op.operation.name for op in ops[:-1]]
    if isinstance(EXPECTED_OPS[name], set):
        assert set(names) == EXPECTED_OPS[name], str(module)
    else:
        assert names == EXPECTED_OPS[name], str(module)

    # (a) result types vs onnxruntime's outputs
    feeds = _feeds(name, model)
    if name in NO_RUNTIME:
        expected = NO_RUNTIME[name]
        outputs = None
    else:
        outputs = _run_onnxruntime(model, feeds)
        expected = [(o.shape, o.dtype) for o in outputs]
    results = list(ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value).results)
    assert len(results) == len(expected)
    for t, (shape, dtype) in zip(results, expected):
        t = ir.RankedTensorType(t)
        assert t.rank == len(shape), f"{t} vs onnxruntime {shape}"
        for i, d in enumerate(shape):
            assert t.is_dynamic_dim(i) or t.get_dim_size(i) == d, f"{t} vs onnxruntime {shape}"
        assert np.dtype(numpy_dtype(t.element_type)) == dtype, f"{t} vs onnxruntime {dtype}"
    if name in DYNAMIC_RESULTS:
        assert [str(t) for t in results] == DYNAMIC_RESULTS[name]
    else:
        assert all(ir.RankedTensorType(t).has_static_shape for t in results), results

    if outputs is None:
        return
    # Results that are import-time constants: their values, too.
    ret = ops[-1]
    for v, out in zip(ret.operands, outputs):
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.name != "ge.constant":
            continue
        value = _constant_value(owner.attributes["value"])
        if value is not None:
            np.testing.assert_array_equal(value, out)
    if name in REPLAYED:
        for got, out in zip(_replay(module, feeds, model), outputs):
            np.testing.assert_array_equal(got, out)


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusals(name, ctx):
    op_type, reason = REFUSALS[name]
    with pytest.raises(UnsupportedOpsError) as info:
        import_onnx(tm.MODELS[name]())
    err = info.value
    assert not err.unsupported  # a converter exists and gave a reason
    assert len(err.refusals) == 1
    node, got_op, got_reason = err.refusals[0]
    assert (node, got_op) == (name, op_type)
    assert re.search(reason, got_reason), got_reason
    assert f"{op_type} node '{name}': " in str(err)


def test_range_without_inferred_type_is_refused(ctx, monkeypatch):
    # Range's length is data-dependent; with no ONNX result type the converter refuses.
    import ge_mlir.frontend.onnx.importer as importer

    model = tm.MODELS["range_dynamic"]()
    for out in model.graph.output:
        out.type.tensor_type.ClearField("shape")
    monkeypatch.setattr(importer.onnx.shape_inference, "infer_shapes", lambda m, **kw: m)
    with pytest.raises(UnsupportedOpsError, match="Range's output length depends on its start/limit/delta"):
        import_onnx(model)


def test_input_shapes_make_dynamic_models_static(ctx):
    module = import_onnx(tm.MODELS["reshape_dynamic"](), input_shapes={"x": [5, 3, 4]})
    assert "ge.reshape %arg0 : tensor<5x3x4xf32> to tensor<5x12xf32>" in str(module)
    module = import_onnx(tm.MODELS["size_dynamic"](), input_shapes={"x": [5, 3]})
    assert "ge.constant dense<15> : tensor<i64>" in str(module)


@pytest.mark.parametrize("op", sorted(TENSOR_OPS))
def test_registered_for_every_opset(op):
    """Each op has a tensor.py converter from its first supported opset to the newest."""
    for opset in range(TENSOR_OPS[op], onnx.defs.onnx_opset_version() + 1):
        sup = lookup("", op, opset)
        assert sup is not None, f"{op} opset {opset}"
        assert sup.converter.__module__.endswith("onnx.ops.tensor"), sup.converter.__module__
    if TENSOR_OPS[op] > 1:
        assert lookup("", op, TENSOR_OPS[op] - 1) is None
    assert len(supported_ops()[("", op)]) == 1  # nobody else registers it
