"""Invalid ONNX models (issue 11): one InvalidModelError naming the node/tensor
and the reason, never an uncaught Python exception nor an "unsupported op"
headline; unsupported-but-valid models stay UnsupportedOpsError.

Every model called invalid here is also refused by onnxruntime (checked when
it is installed), except where the test says what onnxruntime does instead.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import onnx
import pytest
from mlir import ir
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from ge_mlir.errors import GeMlirError, InvalidModelError, UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx


@pytest.fixture
def ctx():
    with ir.Context() as c:
        yield c


def vi(name, shape=(2, 3), dtype=T.FLOAT):
    return h.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, ir_version=None):
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)] if opset is not None else [])
    if ir_version is not None:
        m.ir_version = ir_version
    return m


def relu(**kw):
    return model([h.make_node("Relu", ["x"], ["y"], name="r")], [vi("x")], [vi("y")], **kw)


def raw_tensor(name, dtype, dims, raw=None, **typed):
    t = T()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    if raw is not None:
        t.raw_data = raw
    for field, values in typed.items():
        getattr(t, field).extend(values)
    return t


def add_init(t):
    return model([h.make_node("Add", ["x", t.name], ["y"], name="add")], [vi("x")], [vi("y")], inits=[t])


def ort_refuses(m) -> None:
    ort = pytest.importorskip("onnxruntime")
    data = m if isinstance(m, bytes) else m.SerializeToString()
    with pytest.raises(Exception):
        ort.InferenceSession(data, providers=["CPUExecutionProvider"])


def ort_run_fails(m) -> None:
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {i.name: np.ones(i.shape, np.float32) for i in sess.get_inputs()}
    with pytest.raises(Exception, match="INVALID_ARGUMENT|out of|Integer overflow|group"):
        sess.run(None, feeds)


def invalid(m, *pieces, input_shapes=None) -> InvalidModelError:
    with pytest.raises(InvalidModelError) as info:
        import_onnx(m, input_shapes=input_shapes)
    text = str(info.value)
    assert text.startswith("invalid ONNX model: "), text
    assert "unsupported op type" not in text.splitlines()[0]
    for p in pieces:
        assert p in text, f"{p!r} not in:\n{text}"
    return info.value


# --- 1. initializers: InvalidModelError naming them, not ValueError -------------------

F32_6 = np.arange(6, dtype=np.float32).tobytes()

BAD_INITIALIZERS = {
    "raw_short": (raw_tensor("w", T.FLOAT, [2, 3], F32_6[:-4]), "raw_data size (20 bytes) is too small"),
    "raw_long": (raw_tensor("w", T.FLOAT, [2, 3], F32_6 + b"\0" * 4), "raw_data has 28 bytes"),
    "no_data": (raw_tensor("w", T.FLOAT, [2, 3]), "should contain one and only one value field"),
    "typed_short": (raw_tensor("w", T.FLOAT, [2, 3], float_data=[1.0] * 5), "float_data size (5) is too small"),
    "string_in_raw": (raw_tensor("w", T.STRING, [2], b"ab"), "STRING data must not be stored in raw_data"),
}


@pytest.mark.parametrize("name", sorted(BAD_INITIALIZERS))
def test_bad_initializer_is_invalid_model_error(ctx, name):
    t, reason = BAD_INITIALIZERS[name]
    invalid(add_init(t), "initializer 'w'", reason)


@pytest.mark.parametrize("name", sorted(BAD_INITIALIZERS))
def test_bad_initializer_is_refused_by_onnxruntime(name):
    ort_refuses(add_init(BAD_INITIALIZERS[name][0]))


def test_string_initializer_is_unsupported_not_a_crash(ctx):
    # Valid ONNX (onnxruntime runs it): ge has no string tensors, so the node
    # using it is refused, naming the initializer.
    s = h.make_tensor("names", T.STRING, [2], [b"a", b"b"])
    m = model([h.make_node("Identity", ["names"], ["y"], name="id")], [], [vi("y", [2], T.STRING)], inits=[s])
    with pytest.raises(UnsupportedOpsError) as info:
        import_onnx(m)
    assert "Identity node 'id': input 'names' is a STRING initializer" in str(info.value)


def test_unused_string_initializer_is_ignored(ctx):
    s = h.make_tensor("names", T.STRING, [2], [b"a", b"b"])
    m = relu()
    m.graph.initializer.append(s)
    import_onnx(m)


def test_cli_reports_bad_initializer_without_traceback(tmp_path):
    path = tmp_path / "bad.onnx"
    path.write_bytes(add_init(BAD_INITIALIZERS["raw_short"][0]).SerializeToString())
    proc = subprocess.run([sys.executable, "-m", "ge_mlir.tools.ge_import_onnx", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "ge-import-onnx: error: invalid ONNX model" in proc.stderr
    assert "initializer 'w'" in proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


# --- 2. invalid models onnxruntime refuses ---------------------------------------------


def _dup_writer():
    return model([h.make_node("Relu", ["x"], ["y"], name="a"), h.make_node("Neg", ["x"], ["y"], name="b")],
                 [vi("x")], [vi("y")])


def _writes_input():
    return model([h.make_node("Relu", ["x"], ["x"], name="a")], [vi("x")], [vi("x")])


def _writes_initializer():
    w = nh.from_array(np.ones((2, 3), np.float32), "w")
    return model([h.make_node("Relu", ["x"], ["w"], name="a"), h.make_node("Add", ["x", "w"], ["y"], name="b")],
                 [vi("x")], [vi("y")], inits=[w])


INVALID_MODELS = {
    "output_dtype_differs": (lambda: model([h.make_node("Relu", ["x"], ["y"], name="r")], [vi("x")],
                                           [vi("y", dtype=T.INT64)]),
                             ["Relu node 'r':", "elem type differs", "(FLOAT) vs (INT64)"]),
    "unknown_attribute": (lambda: model([h.make_node("Relu", ["x"], ["y"], name="r", foo=1)], [vi("x")], [vi("y")]),
                          ["Relu node 'r': Unrecognized attribute: foo"]),
    "relu_three_inputs": (lambda: model([h.make_node("Relu", ["x", "x", "x"], ["y"], name="r")], [vi("x")], [vi("y")]),
                          ["Relu node 'r':", "input size 3 not in range [min=1, max=1]"]),
    "opset_30": (lambda: relu(opset=30), ["opset 30 of the default ONNX domain does not exist"]),
    "no_opset_import": (lambda: relu(opset=None), ["there is no opset_import"]),
    "ir_version_99": (lambda: relu(ir_version=99), ["ir_version 99 is newer"]),
    "empty_bytes": (lambda: b"", ["the model is empty"]),
    "two_writers": (_dup_writer, ["Neg node 'b': output 'y' is already written by Relu node 'a'"]),
    "writes_graph_input": (_writes_input, ["Relu node 'a': output 'x' overwrites the graph input 'x'"]),
    "writes_initializer": (_writes_initializer, ["Relu node 'a': output 'w' overwrites the initializer 'w'"]),
    "dangling_input": (lambda: model([h.make_node("Add", ["x", "nowhere"], ["y"], name="add")], [vi("x")], [vi("y")]),
                       ["Add node 'add': input 'nowhere' is not produced by any node", "dangling"]),
    "cycle": (lambda: model([h.make_node("Add", ["x", "b"], ["a"], name="n1"), h.make_node("Relu", ["a"], ["b"], name="n2"),
                             h.make_node("Relu", ["a"], ["y"], name="n3")], [vi("x")], [vi("y")]),
              ["the graph has a cycle", "Add node 'n1'", "Relu node 'n2'"]),
    "dtype_mismatch": (lambda: model([h.make_node("Add", ["x", "i"], ["y"], name="add")], [vi("x"), vi("i", dtype=T.INT64)],
                                     [vi("y")]),
                       ["Add node 'add': B has inconsistent type tensor(int64)"]),
    "softmax_axis": (lambda: model([h.make_node("Softmax", ["x"], ["y"], name="sm", axis=5)], [vi("x")], [vi("y")]),
                     ["Softmax node 'sm':", "'axis' must be in [-2 , 1]"]),
    "graph_output_not_produced": (lambda: model([h.make_node("Relu", ["x"], ["y"], name="r")], [vi("x")],
                                                [vi("y"), vi("z")]),
                                  ["graph output 'z' is not produced by any node"]),
}


@pytest.mark.parametrize("name", sorted(INVALID_MODELS))
def test_invalid_model(ctx, name):
    build, pieces = INVALID_MODELS[name]
    invalid(build(), *pieces)


@pytest.mark.parametrize("name", sorted(INVALID_MODELS))
def test_invalid_model_is_refused_by_onnxruntime(name):
    ort_refuses(INVALID_MODELS[name][0]())


def test_every_problem_is_listed(ctx):
    m = model([h.make_node("Add", ["x", "nowhere"], ["a"], name="n1"),
               h.make_node("Add", ["a", "missing"], ["y"], name="n2"),
               h.make_node("Neg", ["x"], ["y"], name="n3")], [vi("x")], [vi("y")])
    err = invalid(m, "3 problem(s)", "Add node 'n1': input 'nowhere'", "Add node 'n2': input 'missing'",
                  "Neg node 'n3': output 'y' is already written by Add node 'n2'")
    assert len(err.problems) == 3


def test_unsorted_graph_is_sorted_not_refused(ctx):
    # Out of order but acyclic: valid for onnxruntime (it sorts), so imported.
    m = model([h.make_node("Neg", ["a"], ["y"], name="second"), h.make_node("Relu", ["x"], ["a"], name="first")],
              [vi("x")], [vi("y")])
    text = str(import_onnx(m))
    assert text.index("ge.relu") < text.index("ge.neg")


def test_declared_output_shape_differs_is_accepted(ctx):
    # onnxruntime accepts this (a warning, lenient merge); the signature uses the computed shape.
    m = model([h.make_node("Relu", ["x"], ["y"], name="r")], [vi("x")], [vi("y", (4, 5))])
    assert "-> (tensor<2x3xf32>" in str(import_onnx(m))


def test_unknown_op_stays_unsupported(ctx):
    m = model([h.make_node("FancyOp", ["x"], ["y"], name="f")], [vi("x")], [vi("y")])
    with pytest.raises(UnsupportedOpsError, match="FancyOp"):
        import_onnx(m)


# --- 3. attribute domains ---------------------------------------------------------------


def _reduce_mean(keepdims):
    return model([h.make_node("ReduceMean", ["x"], ["y"], name="rm", axes=[1, 2], keepdims=keepdims)],
                 [vi("x", (2, 3, 4, 5))], [h.make_tensor_value_info("y", T.FLOAT, None)])


@pytest.mark.parametrize("keepdims", [-1, 2, 2**31])
def test_reduce_keepdims_outside_0_1_is_invalid(ctx, keepdims):
    # onnxruntime runs it and treats any value but 1 as 0 (shape (2, 5)); ge
    # used to keep the dims ((2, 1, 1, 5)). The value is outside the op's
    # domain: refused rather than guessed.
    invalid(_reduce_mean(keepdims), f"ReduceMean node 'rm': attribute keepdims={keepdims} is not 0 or 1")


def _conv(**attrs):
    w = nh.from_array(np.ones((1, 1, 3, 3), np.float32), "w")
    return model([h.make_node("Conv", ["x", "w"], ["y"], name="conv", **attrs)], [vi("x", (1, 1, 4, 4))],
                 [h.make_tensor_value_info("y", T.FLOAT, None)], inits=[w])


BAD_ATTRIBUTES = {
    "noop_with_empty_axes": (lambda: model([h.make_node("ReduceSum", ["x"], ["y"], name="rs", noop_with_empty_axes=2)],
                                           [vi("x")], [h.make_tensor_value_info("y", T.FLOAT, None)]),
                             "ReduceSum node 'rs': attribute noop_with_empty_axes=2 is not 0 or 1"),
    "transB": (lambda: model([h.make_node("Gemm", ["x", "x"], ["y"], name="gemm", transB=3)], [vi("x", (3, 3))],
                             [h.make_tensor_value_info("y", T.FLOAT, None)]),
               "Gemm node 'gemm': attribute transB=3 is not 0 or 1"),
    "negative_pads": (lambda: _conv(pads=[-1, 0, 0, 0]), "Conv node 'conv': attribute pads=[-1, 0, 0, 0] has negative values"),
    "zero_strides": (lambda: _conv(strides=[0, 1]), "Conv node 'conv': attribute strides=[0, 1] must be positive"),
    "zero_dilations": (lambda: _conv(dilations=[1, 0]), "Conv node 'conv': attribute dilations=[1, 0] must be positive"),
    "zero_group": (lambda: _conv(group=0), "Conv node 'conv': attribute group=0 must be positive"),
    # ge-fuzz: compiled and ran; onnxruntime refuses it, the ONNX checker does not.
    "storage_order": (lambda: model([h.make_node("MaxPool", ["x"], ["y"], name="mp", kernel_shape=[2, 2],
                                                 storage_order=3)], [vi("x", (1, 1, 4, 4))],
                                    [h.make_tensor_value_info("y", T.FLOAT, None)]),
                      "MaxPool node 'mp': attribute storage_order=3 is not 0 or 1"),
}


@pytest.mark.parametrize("name", sorted(BAD_ATTRIBUTES))
def test_attribute_outside_its_domain_is_invalid(ctx, name):
    build, piece = BAD_ATTRIBUTES[name]
    invalid(build(), piece)


# --- 4. Gather with constant indices out of range ---------------------------------------


def _gather(op, indices, data_shape=(3, 4), axis=0):
    i = nh.from_array(np.asarray(indices, np.int64), "idx")
    return model([h.make_node(op, ["x", "idx"], ["y"], name="g", axis=axis)], [vi("x", data_shape)],
                 [h.make_tensor_value_info("y", T.FLOAT, None)], inits=[i])


@pytest.mark.parametrize("indices,bad", [([7], 7), ([0, 2, -4], -4), ([[1, 3]], 3)])
def test_gather_constant_index_out_of_range(ctx, indices, bad):
    invalid(_gather("Gather", indices), f"Gather node 'g': constant index {bad}", "out of range [-3, 2] for axis 0")


def test_gather_constant_index_out_of_range_is_refused_by_onnxruntime_at_run_time():
    ort_run_fails(_gather("Gather", [7]))


def test_gather_elements_constant_index_out_of_range(ctx):
    invalid(_gather("GatherElements", [[0, 1, 5, 0]], (3, 4), axis=1), "GatherElements node 'g': constant index 5",
            "for axis 1 of size 4")


def test_gather_constant_indices_in_range_still_import(ctx):
    import_onnx(_gather("Gather", [0, 2, -3, -1]))


# --- 5. sizes that overflow int64 -------------------------------------------------------


def test_conv_with_huge_pads_is_a_size_overflow(ctx):
    invalid(_conv(pads=[10**9] * 4), "Conv node 'conv':", "2000000002x2000000002", "size overflow")


def test_conv_with_huge_pads_fails_in_onnxruntime():
    ort_run_fails(_conv(pads=[10**9] * 4))


def test_graph_input_too_large_for_int64(ctx):
    m = model([h.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", (2**40, 2**40))], [vi("y", (2**40, 2**40))])
    invalid(m, "graph input 'x'", "1099511627776x1099511627776", "size overflow")


def test_input_shapes_too_large_for_int64(ctx):
    invalid(relu(), "graph input 'x'", "size overflow", input_shapes={"x": [2**40, 2**40]})


def test_huge_but_representable_input_is_left_to_the_compiler(ctx):
    m = model([h.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", (2**20, 2**20))], [vi("y", (2**20, 2**20))])
    import_onnx(m)


# --- 7. ge-import-onnx | head -----------------------------------------------------------


def test_cli_closed_stdout_is_quiet(tmp_path):
    w = nh.from_array(np.random.default_rng(0).random((256, 256), dtype=np.float32), "w")
    m = model([h.make_node("Add", ["x", "w"], ["y"])], [vi("x", (256, 256))], [vi("y", (256, 256))], inits=[w])
    path = tmp_path / "m.onnx"
    path.write_bytes(m.SerializeToString())
    # The reader is gone before the tool writes (as with `| head` on a long output).
    proc = subprocess.Popen([sys.executable, "-m", "ge_mlir.tools.ge_import_onnx", str(path),
                             "--resource-threshold", "1000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ})
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "BrokenPipe" not in err and "internal error" not in err and "Traceback" not in err, err
    assert proc.returncode == 1


def test_every_error_is_a_ge_mlir_error(ctx):
    for build, _ in INVALID_MODELS.values():
        with pytest.raises(GeMlirError):
            import_onnx(build())
