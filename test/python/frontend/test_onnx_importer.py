"""ONNX importer core: model sources, names, locations, shapes, folding,
weights as resources, error reporting."""

import time

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

import ge_mlir
from ge_mlir.errors import OnnxImportError, UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx, supported_ops


def _mlp(batch="N", opset=17):
    rng = np.random.default_rng(0)
    w = nh.from_array(rng.standard_normal((4, 8)).astype(np.float32), "w")
    b = nh.from_array(rng.standard_normal((8,)).astype(np.float32), "b")
    nodes = [
        h.make_node("MatMul", ["x", "w"], ["mm"], name="fc/matmul"),
        h.make_node("Add", ["mm", "b"], ["add"], name="fc/bias"),
        h.make_node("Relu", ["add"], ["y"], name="fc/relu"),
    ]
    g = h.make_graph(nodes, "mlp", [h.make_tensor_value_info("x", T.FLOAT, [batch, 4])],
                     [h.make_tensor_value_info("y", T.FLOAT, [batch, 8])], [w, b])
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


def _relu_graph(name="g"):
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"], name="r")], name,
                     [h.make_tensor_value_info("x", T.FLOAT, [2, 3])], [h.make_tensor_value_info("y", T.FLOAT, [2, 3])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def test_sources_path_bytes_proto(ctx, tmp_path):
    model = _relu_graph()
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    texts = [str(import_onnx(src)) for src in (model, model.SerializeToString(), str(path), path)]
    body = [t.split("{", 2)[2] for t in texts]  # after the ge.source attribute
    assert len(set(body)) == 1
    assert "ge.relu" in texts[0]


def test_names_and_locations(ctx):
    if ("", "MatMul") not in supported_ops():
        pytest.skip("MatMul converter not registered yet")
    module = import_onnx(_mlp(), input_shapes={"x": [2, 4]})
    text = module.operation.get_asm(enable_debug_info=True)
    assert '{onnx.name = "x"}' in text and '{onnx.name = "y"}' in text
    assert 'loc(fused<"MatMul">[' in text or 'fused<"MatMul">' in text
    assert '"fc/relu"' in text and '"fc/bias"' in text


def test_weights_become_resources_and_ir_stays_small(ctx):
    rng = np.random.default_rng(1)
    w = nh.from_array(rng.standard_normal((256, 256)).astype(np.float32), "big_weight")
    g = h.make_graph([h.make_node("Add", ["x", "big_weight"], ["y"], name="add")], "g",
                     [h.make_tensor_value_info("x", T.FLOAT, [256, 256])], [h.make_tensor_value_info("y", T.FLOAT, [256, 256])], [w])
    module = import_onnx(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))
    assert "dense_resource<big_weight>" in str(module)
    elided = module.operation.get_asm(large_resource_limit=16)
    assert len(elided) < 2000
    # Full printing keeps the blob, and it parses back.
    reparsed = ge_mlir.parse_module(str(module))
    assert "dense_resource<big_weight" in str(reparsed)  # renamed if the context has one


def test_external_data_and_large_model_speed(ctx, tmp_path):
    # ~128 MB of weights in an external data file.
    w = np.full((32, 1024, 1024), 0.5, dtype=np.float32)
    g = h.make_graph([h.make_node("Mul", ["x", "w"], ["y"], name="scale")], "big",
                     [h.make_tensor_value_info("x", T.FLOAT, [32, 1024, 1024])],
                     [h.make_tensor_value_info("y", T.FLOAT, [32, 1024, 1024])], [nh.from_array(w, "w")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    path = tmp_path / "big.onnx"
    onnx.save(model, path, save_as_external_data=True, location="big.data")
    del model, w
    start = time.perf_counter()
    module = import_onnx(path)
    elapsed = time.perf_counter() - start
    assert elapsed < 20, f"import of a 128 MB model took {elapsed:.1f} s"
    assert len(module.operation.get_asm(large_resource_limit=16)) < 2000


def test_input_shapes(ctx):
    model = _relu_graph()
    module = import_onnx(model, input_shapes={"x": [2, 3]})
    assert "tensor<2x3xf32>" in str(module)
    with pytest.raises(OnnxImportError, match="not a graph input"):
        import_onnx(model, input_shapes={"nope": [1]})
    with pytest.raises(OnnxImportError, match="has rank 3, the model says 2"):
        import_onnx(model, input_shapes={"x": [1, 2, 3]})


def test_dynamic_dims_are_carried(ctx):
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "g",
                     [h.make_tensor_value_info("x", T.FLOAT, ["batch", 3])], [h.make_tensor_value_info("y", T.FLOAT, ["batch", 3])])
    module = import_onnx(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))
    assert "tensor<?x3xf32>" in str(module)


def test_shape_subgraph_folds_at_import(ctx):
    # x.reshape(x.shape[0], -1) as exporters write it.
    nodes = [
        h.make_node("Shape", ["x"], ["s"]),
        h.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        h.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
        h.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
        h.make_node("Reshape", ["x", "shape"], ["y"]),
    ]
    inits = [nh.from_array(np.array(0, dtype=np.int64), "zero"), nh.from_array(np.array([0], dtype=np.int64), "axes0"),
             nh.from_array(np.array([-1], dtype=np.int64), "minus1")]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
                     [h.make_tensor_value_info("y", T.FLOAT, None)], inits)
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    if ("", "Reshape") not in supported_ops():
        pytest.skip("Reshape converter not registered yet")
    text = str(import_onnx(model))
    assert "ge.shape" not in text and "ge.gather" not in text and "ge.concat" not in text
    assert "ge.reshape %arg0 : tensor<2x3x4xf32> to tensor<2x12xf32>" in text


def test_unsupported_ops_are_all_listed(ctx):
    nodes = [
        h.make_node("Relu", ["x"], ["a"], name="ok"),
        h.make_node("FancyOp", ["a"], ["b"], name="fancy1"),
        h.make_node("FancyOp", ["a"], ["c"], name="fancy2"),
        h.make_node("OtherOp", ["x"], ["d"], name="other"),
        h.make_node("Add", ["b", "c"], ["e"], name="downstream"),  # supported: not reported
        h.make_node("ThirdOp", ["e", "d"], ["y"], name="third"),  # downstream and unsupported: reported
    ]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    with pytest.raises(UnsupportedOpsError) as info:
        import_onnx(model)
    err = info.value
    assert err.unsupported == {
        ("", "FancyOp", 17): ["fancy1", "fancy2"],
        ("", "OtherOp", 17): ["other"],
        ("", "ThirdOp", 17): ["third"],
    }
    msg = str(err)
    assert "FancyOp (opset 17): 2 node(s): 'fancy1', 'fancy2'" in msg
    assert "OtherOp (opset 17): 1 node(s): 'other'" in msg
    assert "downstream" not in msg


def test_custom_domain_is_reported_with_domain(ctx):
    g = h.make_graph([h.make_node("Gizmo", ["x"], ["y"], domain="com.example", name="gz")], "g",
                     [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.example", 1)])
    with pytest.raises(UnsupportedOpsError, match="com.example::Gizmo"):
        import_onnx(model)


def test_bad_sources(ctx, tmp_path):
    with pytest.raises(OnnxImportError, match="not found"):
        import_onnx(tmp_path / "missing.onnx")
    with pytest.raises(OnnxImportError, match="cannot parse ONNX bytes"):
        import_onnx(b"\x00\x01not a model")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"garbage" * 10)
    with pytest.raises(OnnxImportError):
        import_onnx(bad)


def test_unsupported_element_type_is_refused(ctx):
    # Identity accepts complex64 (Relu does not: that model is invalid ONNX).
    g = h.make_graph([h.make_node("Identity", ["x"], ["y"], name="r")], "g",
                     [h.make_tensor_value_info("x", T.COMPLEX64, [2])], [h.make_tensor_value_info("y", T.COMPLEX64, [2])])
    with pytest.raises(OnnxImportError, match="COMPLEX64"):
        import_onnx(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))


def test_outputs_read_only_in_nested_subgraphs_count_as_used(ctx):
    # MaxPool's Indices is read only two subgraph levels down (If inside If):
    # the converter must still see it as used and refuse the node.
    inner = h.make_graph([h.make_node("Identity", ["idx"], ["inner_out"])], "inner", [],
                         [h.make_tensor_value_info("inner_out", T.INT64, None)])
    outer = h.make_graph([h.make_node("If", ["c"], ["outer_out"], then_branch=inner, else_branch=inner)], "outer", [],
                         [h.make_tensor_value_info("outer_out", T.INT64, None)])
    nodes = [
        h.make_node("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 2], name="pool"),
        h.make_node("If", ["c"], ["z"], then_branch=outer, else_branch=outer, name="branch"),
    ]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4]),
                                  h.make_tensor_value_info("c", T.BOOL, [])],
                     [h.make_tensor_value_info("y", T.FLOAT, None), h.make_tensor_value_info("z", T.INT64, None)])
    with pytest.raises(UnsupportedOpsError) as info:
        import_onnx(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))
    assert "MaxPool node 'pool': the Indices output" in str(info.value)
