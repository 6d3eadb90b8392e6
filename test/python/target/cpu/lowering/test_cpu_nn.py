"""matmul/gemm/conv/conv_transpose/pools: ge-lower-to-linalg + CPU against onnxruntime.

One-node ONNX models go through the importer and ``ge_mlir.compile``;
tolerances: f32 rtol 1e-5 / atol 1e-5 (sums of up to a few hundred products),
f16 1e-2 (onnxruntime accumulates f16 products differently), integers exact.
Fused activations (only reachable from ge IR) are checked against numpy.
"""

from __future__ import annotations

import math
import platform

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir

RNG = np.random.default_rng(7)
ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.int32: TensorProto.INT32,
             np.int64: TensorProto.INT64, np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8,
             np.float64: TensorProto.DOUBLE}


def one_node(op, inputs, out_dtype, opset=17, **attrs):
    """inputs: list of (name, array, is_initializer)."""
    graph_inputs, inits, feeds = [], [], {}
    for name, arr, init in inputs:
        if init:
            inits.append(helper.make_tensor(name, ONNX_TYPE[arr.dtype.type], arr.shape, arr.flatten().tolist()))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, ONNX_TYPE[arr.dtype.type], arr.shape))
            feeds[name] = arr
    node = helper.make_node(op, [n for n, _, _ in inputs], ["y"], **attrs)
    out = helper.make_tensor_value_info("y", ONNX_TYPE[np.dtype(out_dtype).type], None)
    graph = helper.make_graph([node], "g", graph_inputs, [out], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]), feeds


def run_both(model, feeds):
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    got = ge_mlir.compile(model, progress=False)(**feeds)
    return got[0], want[0]


def close(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype == np.float16:
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-2, atol=1e-2)
    elif want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


def rand(shape, dtype=np.float32):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        return RNG.integers(0 if dt.kind == "u" else -5, 6, size=shape).astype(dt)
    return RNG.standard_normal(shape).astype(dt)


@pytest.mark.parametrize("sa,sb", [
    ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((4,), (4, 5)), ((3, 4), (4,)),
    ((4,), (4,)), ((2, 1, 3, 4), (3, 4, 5)), ((3, 4), (2, 4, 5)), ((1, 3, 4), (2, 4, 5)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_matmul(sa, sb, dtype):
    a, b = rand(sa, dtype), rand(sb, dtype)
    model, feeds = one_node("MatMul", [("a", a, False), ("b", b, False)], dtype)
    close(*run_both(model, feeds))


@pytest.mark.parametrize("ta,tb", [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize("cshape", [None, (5,), (3, 5), (1, 5), (3, 1), ()])
def test_gemm(ta, tb, cshape):
    a = rand((4, 3) if ta else (3, 4))
    b = rand((5, 4) if tb else (4, 5))
    ins = [("a", a, False), ("b", b, True)]
    if cshape is not None:
        ins.append(("c", rand(cshape), True))
    model, feeds = one_node("Gemm", ins, np.float32, transA=ta, transB=tb, alpha=0.5, beta=2.0)
    close(*run_both(model, feeds))


CONVS = [
    # (x shape, w shape, attrs)
    ((1, 3, 8, 8), (4, 3, 3, 3), {}),
    ((2, 3, 9, 7), (4, 3, 3, 2), {"pads": [1, 0, 2, 1], "strides": [2, 1]}),
    ((1, 4, 10, 10), (6, 4, 3, 3), {"dilations": [2, 2], "pads": [2, 2, 2, 2]}),
    ((1, 8, 7, 7), (8, 1, 3, 3), {"group": 8, "pads": [1, 1, 1, 1]}),
    ((1, 6, 7, 7), (4, 3, 3, 3), {"group": 2, "strides": [2, 2]}),
    ((1, 4, 6, 6), (8, 2, 1, 1), {"group": 2}),
    # Large stride-1 images take the codegen's one-matmul-per-tap path.
    ((1, 4, 40, 40), (8, 4, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 3, 44, 44), (5, 3, 3, 3), {"dilations": [2, 2]}),
    ((1, 2, 41, 45), (3, 2, 2, 3), {"pads": [0, 1, 1, 0]}),
]


@pytest.mark.parametrize("xs,ws,attrs", CONVS)
@pytest.mark.parametrize("bias", [False, True])
def test_conv(xs, ws, attrs, bias):
    ins = [("x", rand(xs), False), ("w", rand(ws), True)]
    if bias:
        ins.append(("b", rand((ws[0],)), True))
    model, feeds = one_node("Conv", ins, np.float32, **attrs)
    close(*run_both(model, feeds))


CONV_TRANSPOSES = [
    ((1, 3, 4, 4), (3, 2, 3, 3), {}),
    ((1, 3, 4, 5), (3, 2, 3, 3), {"strides": [2, 2]}),
    ((1, 2, 4, 4), (2, 3, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]}),
    ((2, 4, 3, 3), (4, 1, 2, 2), {"group": 2, "strides": [2, 1]}),
    ((1, 2, 5, 5), (2, 2, 3, 3), {"dilations": [2, 2], "pads": [1, 0, 0, 1]}),
    # Stride = kernel, batch 1, no padding (UNet up-sampling): one matmul and a pixel shuffle.
    ((1, 4, 5, 6), (4, 3, 2, 2), {"strides": [2, 2]}),
    ((1, 3, 4, 4), (3, 2, 3, 2), {"strides": [3, 2]}),
]


@pytest.mark.parametrize("xs,ws,attrs", CONV_TRANSPOSES)
@pytest.mark.parametrize("bias", [False, True])
def test_conv_transpose(xs, ws, attrs, bias):
    ins = [("x", rand(xs), False), ("w", rand(ws), True)]
    if bias:
        ins.append(("b", rand((ws[1] * attrs.get("group", 1),)), True))
    model, feeds = one_node("ConvTranspose", ins, np.float32, **attrs)
    close(*run_both(model, feeds))


def test_matmul_with_a_constant_larger_than_the_folders_read_is_packed():
    """A constant B past ``MAX_RESOURCE_ELEMENTS`` (what constant folding reads: GPT-2's 256 x
    50257 logits weight) is still packed into column panels: unpacked, every K step of a tile
    read a row of B 4 * N bytes from the last (the logits matmul 17.2 -> 14.6 ms). Against numpy
    in f64 (rtol/atol 1e-4: sums of 64 products)."""
    from mlir import ir

    from ge_mlir.irutils.constants import MAX_RESOURCE_ELEMENTS
    from ge_mlir.target.cpu import codegen

    k = 64
    n = MAX_RESOURCE_ELEMENTS // k + 33  # past the limit, not a multiple of the tile width
    a = rand((3, k))
    b = (RNG.standard_normal((k, n)) * 0.1).astype(np.float32)
    g = helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["y"])], "g",
                          [helper.make_tensor_value_info("a", TensorProto.FLOAT, a.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          initializer=[numpy_helper.from_array(b, "b")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    with ir.Context():
        module = ge_mlir.parse_module(ge_mlir.compile(model, compile_to="linalg", progress=False).ir())
        assert codegen.apply_strategy(module, tile_m=8, tile_n=32)["packed"] == 1
    got = ge_mlir.compile(model, progress=False)(a=a)[0]
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


def test_conv_transpose_with_stride_equal_to_kernel_is_one_matmul():
    ins = [("x", rand((1, 4, 5, 6)), False), ("w", rand((4, 3, 2, 2)), True), ("b", rand((3,)), True)]
    model, feeds = one_node("ConvTranspose", ins, np.float32, strides=[2, 2])
    m = ge_mlir.compile(model.SerializeToString(), compile_to="linalg")
    text = m.ir("linalg")
    # No zero-dilated input (a strided insert_slice into zeros) and no convolution: a matmul of
    # [F*kh*kw, C] x [C, H*W] and the shuffle of its taps into place.
    assert "linalg.conv_2d" not in text and "insert_slice" not in text
    assert "linalg.matmul" in text and "tensor<12x30xf32>" in text
    close(*run_both(model, feeds))


def test_concatenation_is_written_into_the_padded_buffer_of_its_convolution():
    """UNet decoders: conv(concat(a, b)) with padding builds the concatenation inside the zero-padded
    input, so the unpadded concatenation never exists (one activation less in memory)."""
    x = rand((1, 3, 8, 8))
    nodes = [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Sigmoid", ["x"], ["b"]),
             helper.make_node("Concat", ["a", "b"], ["c"], axis=1),
             helper.make_node("Conv", ["c", "w"], ["y"], pads=[1, 1, 1, 1])]
    w = helper.make_tensor("w", TensorProto.FLOAT, (4, 6, 3, 3), rand((4, 6, 3, 3)).flatten().tolist())
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=[w])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m = ge_mlir.compile(model.SerializeToString(), compile_to="bufferized")
    sizes = sorted(b["size"] for b in m.memory_plan["buffers"])
    # No unpadded concatenation (6x8x8 floats) is planned: the pieces go into the padded input.
    assert 6 * 8 * 8 * 4 not in sizes and 6 * 10 * 10 * 4 in sizes, sizes
    close(*run_both(model, {"x": x}))


#: Convolutions with too few input channels for the output-position path and a filter count
#: that is no multiple of 8 (else direct tiles, below): im2col one output row at a time (odd
#: sizes: filter counts that leave tile remainders, stride 3, dilation, 7x7 stems); wide 1x1 ones
#: read the input rows directly.
ROW_IM2COL = [
    ((1, 3, 47, 39), (20, 3, 7, 7), {"pads": [3, 3, 3, 3], "strides": [2, 2]}),
    ((1, 3, 64, 64), (36, 3, 3, 3), {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
    ((1, 4, 15, 13), (20, 4, 3, 2), {"dilations": [2, 1], "strides": [1, 3]}),
    ((1, 2, 9, 30), (17, 2, 1, 5), {"pads": [0, 2, 0, 2]}),
    # 1x1 stride 1 on rows of at least 48 columns: filters by positions over the input rows.
    ((1, 8, 5, 50), (20, 8, 1, 1), {}),
    ((1, 16, 8, 128), (32, 16, 1, 1), {}),
]


@pytest.mark.parametrize("xs,ws,attrs", ROW_IM2COL)
def test_row_im2col_convolutions(xs, ws, attrs):
    """Numerics against onnxruntime with a fused bias + ReLU epilogue; two threads (one block of
    output rows each, own patch buffers) give the same bits as one."""
    from mlir import ir

    from ge_mlir.target.cpu import codegen

    x = rand(xs)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], **attrs), helper.make_node("Relu", ["c"], ["y"])]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, ws, rand(ws).flatten().tolist()),
             helper.make_tensor("b", TensorProto.FLOAT, (ws[0],), rand((ws[0],)).flatten().tolist())]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    one = ge_mlir.compile(model, progress=False)(x=x)[0]
    two = ge_mlir.compile(model, options={"num_threads": 2}, progress=False)(x=x)[0]
    close(one, want)
    np.testing.assert_array_equal(two, one)
    with ir.Context():
        m = ge_mlir.compile(model, compile_to="linalg", progress=False).ir()
        stats = codegen.apply_strategy(ge_mlir.parse_module(m), tile_m=8, tile_n=32)
    assert stats["row_im2col"] == 1 and stats["img2col"] == 0, stats


def test_residual_block_output_is_computed_in_the_next_padded_buffer():
    """ResNet's downsampling block: the block output ``b`` is the residual of nothing but the
    input of two convolutions, the 3x3 one padded (``b`` goes into its zero-padded buffer) and a
    1x1 one reading ``b`` itself. Both read it back from the padded buffer, so bufferization
    computes ``b`` in place there: the only copy left is the graph input into its padded buffer
    (reading ``b`` after the insert cost a copy out of the slot and back)."""
    x = rand((1, 16, 12, 12))
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "x"], ["a"]),
             helper.make_node("Relu", ["a"], ["b"]),
             helper.make_node("Conv", ["b", "w3", "b3"], ["c3"], pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("Conv", ["b", "w4"], ["c4"], strides=[2, 2]),
             helper.make_node("Add", ["c3", "c4"], ["y"])]
    shapes = {"w1": (16, 16, 3, 3), "b1": (16,), "w2": (16, 16, 3, 3), "b2": (16,), "w3": (32, 16, 3, 3),
              "b3": (32,), "w4": (32, 16, 1, 1)}
    inits = [helper.make_tensor(k, TensorProto.FLOAT, v, (rand(v) * 0.2).flatten().tolist()) for k, v in shapes.items()]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m = ge_mlir.compile(model.SerializeToString(), compile_to="bufferized", progress=False)
    copies = [line.strip() for line in m.ir().splitlines() if "memref.copy" in line]
    assert len(copies) == 1 and copies[0].startswith("memref.copy %arg0,"), copies
    close(*run_both(model, {"x": x}))


#: The host, and the x86-64 levels whose tile shapes differ from AVX-512's (AVX2: 6 x 16, SSE:
#: 6 x 8); those are forced JIT CPUs, so only on x86-64 hosts.
_X86 = platform.machine().lower() in ("x86_64", "amd64")
JIT_LEVELS = ["host"] + [pytest.param(level, marks=pytest.mark.skipif(not _X86, reason="an x86-64 level"))
                         for level in ("x86-64", "x86-64-v3")]


#: Convolution epilogues as ONNX nodes (a residual a separate input): what torch exports.
_ONNX_EPILOGUES = {
    "bias_residual_relu": [helper.make_node("Add", ["c", "r"], ["a"]), helper.make_node("Relu", ["a"], ["y"])],
    "relu_then_residual": [helper.make_node("Relu", ["c"], ["a"]), helper.make_node("Add", ["a", "r"], ["y"])],
    "none": [helper.make_node("Identity", ["c"], ["y"])],
}


@pytest.mark.parametrize("level", JIT_LEVELS)
@pytest.mark.parametrize("epilogue", list(_ONNX_EPILOGUES))
@pytest.mark.parametrize("xs,f,attrs", [((1, 16, 13, 13), 48, {"pads": [1, 1, 1, 1]}),
                                        ((1, 8, 11, 11), 24, {"pads": [1, 1, 1, 1], "strides": [2, 2]})])
def test_transposed_tile_stores(xs, f, attrs, epilogue, level, monkeypatch):
    """Convolutions over output positions store [positions, filters] tiles transposed (rows
    shuffled in 8 x 8 blocks, one store per filter), at the tile shapes of AVX-512 (8 x 32), AVX2
    (6 x 16) and SSE (6 x 8) code: rows of 13 and 6 positions split into 7 + 6, 5 + 4 + 4, 6,
    3 + 3 (an odd output: not Winograd's row pairs); against onnxruntime."""
    monkeypatch.setenv("GE_MLIR_JIT_CPU", level)
    x = rand(xs)
    conv = helper.make_node("Conv", ["x", "w", "b"], ["c"], **attrs)
    ho = (xs[2] + 2 - 3) // attrs.get("strides", [1])[0] + 1
    feeds = {"x": x, "r": rand((1, f, ho, ho))}
    inputs = [helper.make_tensor_value_info(k, TensorProto.FLOAT, v.shape) for k, v in feeds.items()]
    if epilogue == "none":
        del feeds["r"], inputs[1]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, (f, xs[1], 3, 3), (rand((f, xs[1], 3, 3)) * 0.3).flatten().tolist()),
             helper.make_tensor("b", TensorProto.FLOAT, (f,), rand((f,)).flatten().tolist())]
    g = helper.make_graph([conv, *_ONNX_EPILOGUES[epilogue]], "g", inputs,
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    assert "vector.shuffle" in ge_mlir.compile(model, compile_to="bufferized", progress=False).ir()
    close(*run_both(model, feeds))


#: Stems (few input channels, a constant filter, a multiple of 8 filters): direct register tiles
#: of positions by filters (codegen.conv_rows.conv_to_direct_rows). Rows of 20, 32, 4 and 11 positions give
#: tile remainders at 8 (AVX-512) and 6 (AVX2, SSE) rows; 40 filters a 32 + 8 split at AVX-512
#: (16 + 16 + 8 at AVX2); 16 and 32 filters one panel (two threads split the rows).
DIRECT_ROWS = [
    ((1, 3, 40, 39), (16, 3, 7, 7), {"pads": [3, 3, 3, 3], "strides": [2, 2]}),
    ((1, 3, 64, 64), (32, 3, 3, 3), {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
    ((1, 4, 15, 13), (24, 4, 3, 2), {"dilations": [2, 1], "strides": [1, 3]}),
    ((1, 1, 10, 11), (40, 1, 5, 5), {"pads": [2, 2, 2, 2]}),
]

#: The stems' epilogues as ONNX nodes after the convolution ``c``: ResNet's ReLU, MobileNetV2's
#: ReLU6 (Clip), and a residual read per position.
_STEM_EPILOGUES = {
    "relu": [helper.make_node("Relu", ["c"], ["y"])],
    "relu6": [helper.make_node("Clip", ["c", "lo", "hi"], ["y"])],
    "residual_relu": [helper.make_node("Add", ["c", "r"], ["a"]), helper.make_node("Relu", ["a"], ["y"])],
}


@pytest.mark.parametrize("level", JIT_LEVELS)
@pytest.mark.parametrize("epilogue", list(_STEM_EPILOGUES))
@pytest.mark.parametrize("xs,ws,attrs", DIRECT_ROWS)
def test_direct_row_convolutions(xs, ws, attrs, epilogue, level, monkeypatch):
    """Against onnxruntime at the host's, AVX2's and SSE's tile shapes; two threads give the
    same bits as one."""
    from mlir import ir

    from ge_mlir.target.cpu import codegen

    monkeypatch.setenv("GE_MLIR_JIT_CPU", level)
    conv = helper.make_node("Conv", ["x", "w", "b"], ["c"], **attrs)
    inits = [helper.make_tensor("w", TensorProto.FLOAT, ws, (rand(ws) * 0.3).flatten().tolist()),
             helper.make_tensor("b", TensorProto.FLOAT, (ws[0],), rand((ws[0],)).flatten().tolist()),
             helper.make_tensor("lo", TensorProto.FLOAT, (), [0.0]), helper.make_tensor("hi", TensorProto.FLOAT, (), [6.0])]
    model = helper.make_model(helper.make_graph([conv, *_STEM_EPILOGUES[epilogue]], "g",
                                                [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)],
                                                [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                                                initializer=inits), opset_imports=[helper.make_opsetid("", 17)])
    feeds = {"x": rand(xs) * 3}
    if epilogue == "residual_relu":
        ho = (xs[2] + sum(attrs.get("pads", [0] * 4)[::2]) - attrs.get("dilations", [1, 1])[0] * (ws[2] - 1) - 1) \
            // attrs.get("strides", [1, 1])[0] + 1
        wo = (xs[3] + sum(attrs.get("pads", [0] * 4)[1::2]) - attrs.get("dilations", [1, 1])[1] * (ws[3] - 1) - 1) \
            // attrs.get("strides", [1, 1])[1] + 1
        feeds["r"] = rand((1, ws[0], ho, wo))
        model.graph.input.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, (1, ws[0], ho, wo)))
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    one = ge_mlir.compile(model, progress=False)(**feeds)[0]
    two = ge_mlir.compile(model, options={"num_threads": 2}, progress=False)(**feeds)[0]
    close(one, want)
    np.testing.assert_array_equal(two, one)
    with ir.Context():
        m = ge_mlir.compile(model, compile_to="linalg", progress=False).ir()
        stats = codegen.apply_strategy(ge_mlir.parse_module(m), tile_m=8, tile_n=32)
    assert stats["direct_rows"] == 1 and stats["row_im2col"] == 0 and stats["img2col"] == 0, stats


#: 3x3 stride-1 convolutions Winograd F(2x2, 3x3) takes: rows of 4, 7, 6 and 14 tiles (input
#: transform vectors of 4 tiles, the last overlapping the one before; 8 on the 14-tile rows at
#: AVX-512 and AVX2), 40 filters (a 32 + 8 panel split at AVX-512, 16 + 16 + 8 at AVX2), 64 x 64
#: channels at 28 x 28 (two threads: 7 row pairs each).
WINOGRAD = [
    ((1, 8, 8, 8), 16),
    ((1, 16, 14, 14), 24),
    ((1, 32, 10, 12), 40),
    ((1, 64, 28, 28), 64),
]


@pytest.mark.parametrize("level", JIT_LEVELS)
@pytest.mark.parametrize("epilogue", ["none", "relu", "residual_relu"])
@pytest.mark.parametrize("xs,f", WINOGRAD)
def test_winograd_convolutions(xs, f, epilogue, level, monkeypatch):
    """Against a float64 reference at the host's, AVX2's and SSE's tile shapes, with the ResNet
    epilogues: f32, largest error at most 2e-6 of the largest output (onnxruntime's and our
    direct path's are 3e-7 to 1.5e-6 on 64- and 128-channel layers, Winograd's 2e-7 to 5e-7; an
    element-wise rtol of 1e-5 against onnxruntime fails on cancellations, where both are off by
    1e-5 in opposite directions). Two threads give the same bits as one; ``winograd=False``
    computes the same convolution directly (no Winograd rewrite)."""
    from mlir import ir

    from ge_mlir.target.cpu import codegen

    monkeypatch.setenv("GE_MLIR_JIT_CPU", level)
    c, h, wd = xs[1:]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1])]
    nodes += {"none": [helper.make_node("Identity", ["c"], ["y"])], "relu": [helper.make_node("Relu", ["c"], ["y"])],
              "residual_relu": [helper.make_node("Add", ["c", "r"], ["a"]), helper.make_node("Relu", ["a"], ["y"])]}[epilogue]
    feeds = {"x": rand(xs)}
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)]
    if epilogue == "residual_relu":
        feeds["r"] = rand((1, f, h, wd))
        inputs.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, (1, f, h, wd)))
    inits = [helper.make_tensor("w", TensorProto.FLOAT, (f, c, 3, 3), (rand((f, c, 3, 3)) * 0.3).flatten().tolist()),
             helper.make_tensor("b", TensorProto.FLOAT, (f,), rand((f,)).flatten().tolist())]
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                                                initializer=inits), opset_imports=[helper.make_opsetid("", 17)])
    w64 = np.array(inits[0].float_data, np.float64).reshape(f, c, 3, 3)
    xp = np.pad(feeds["x"][0].astype(np.float64), ((0, 0), (1, 1), (1, 1)))
    want = np.einsum("chwyx,fcyx->fhw", np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2)), w64)[None]
    want += np.array(inits[1].float_data, np.float64)[None, :, None, None]
    if epilogue == "residual_relu":
        want += feeds["r"]
    if epilogue != "none":
        want = np.maximum(want, 0)
    one = ge_mlir.compile(model, progress=False)(**feeds)[0]
    two = ge_mlir.compile(model, options={"num_threads": 2}, progress=False)(**feeds)[0]
    direct = ge_mlir.compile(model, options={"winograd": False}, progress=False)(**feeds)[0]
    for got in (one, direct):
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.abs(got - want).max() <= 2e-6 * np.abs(want).max(), np.abs(got - want).max() / np.abs(want).max()
    np.testing.assert_array_equal(two, one)
    with ir.Context():
        m = ge_mlir.compile(model, compile_to="linalg", progress=False).ir()
        stats = codegen.apply_strategy(ge_mlir.parse_module(m), tile_m=8, tile_n=32)
        off = codegen.apply_strategy(ge_mlir.parse_module(m), tile_m=8, tile_n=32, winograd=False)
    assert stats["winograd"] == 1 and stats["shifted_rows"] == 0, stats
    assert off["winograd"] == 0 and off["shifted_rows"] == 1, off


def test_winograd_option_is_validated():
    model, feeds = one_node("Relu", [("x", rand((2, 3)), False)], np.float32)
    with pytest.raises(ge_mlir.CompileError, match="winograd must be True or False"):
        ge_mlir.compile(model, options={"winograd": 1}, progress=False)


#: Epilogue bodies over (conv result %in, residual %res [1, F, Ho, Wo], per-filter scale %sc,
#: per-row value %row [1, F, Ho]) with their numpy meaning: per-filter ops before the transpose,
#: ops reading per-position inputs after it, in every order, and a body that needs two values
#: transposed (the accumulator itself and a per-filter op of it).
_BODIES = {
    "residual_scale_relu": ("%a = arith.addf %in, %res : f32\n%m = arith.mulf %a, %sc : f32\n"
                            "%t = arith.maximumf %m, %z : f32", lambda c, r, s, w: np.maximum((c + r) * s, 0)),
    "scale_residual_relu": ("%m = arith.mulf %in, %sc : f32\n%a = arith.addf %m, %res : f32\n"
                            "%t = arith.maximumf %a, %z : f32", lambda c, r, s, w: np.maximum(c * s + r, 0)),
    "relu_residual": ("%m = arith.maximumf %in, %z : f32\n%t = arith.addf %m, %res : f32",
                      lambda c, r, s, w: np.maximum(c, 0) + r),
    "row_then_scale": ("%a = arith.subf %in, %row : f32\n%t = arith.mulf %a, %sc : f32",
                       lambda c, r, s, w: (c - w) * s),
    "two_transposed": ("%m = arith.mulf %in, %sc : f32\n%a = arith.addf %in, %res : f32\n"
                       "%t = arith.maximumf %m, %a : f32", lambda c, r, s, w: np.maximum(c * s, c + r)),
    # A residual and a per-row value of another element type (f16, widened in the body).
    "f16_inputs": ("%rw = arith.extf %res : f16 to f32\n%ww = arith.extf %row : f16 to f32\n"
                   "%a = arith.addf %in, %rw : f32\n%t = arith.subf %a, %ww : f32",
                   lambda c, r, s, w: c + r.astype(np.float32) - w.astype(np.float32)),
}


@pytest.mark.parametrize("level", JIT_LEVELS)
@pytest.mark.parametrize("body", list(_BODIES))
@pytest.mark.parametrize("hw,f", [(9, 48), (17, 16)])
def test_transposed_tile_epilogue_orders(hw, f, body, level):
    """The epilogue of a [positions, filters] tile split around its transpose: each body is
    applied in the tile (no ``linalg.generic`` left) and matches numpy's convolution followed by
    the same ops (f32, rtol/atol 1e-5). Odd outputs (7 x 7, 15 x 15): tiles over output
    positions, not Winograd's row pairs."""
    import json

    from mlir import ir

    from ge_mlir.target.cpu import codegen
    from ge_mlir.target.cpu.runner import CpuExecutable

    c, o = 8, hw - 2
    narrow = "f16" if body == "f16_inputs" else "f32"
    w = (rand((f, c, 3, 3)) * 0.3).astype(np.float32)
    scale = rand((f,))
    text_body, meaning = _BODIES[body]
    t4 = f"tensor<1x{f}x{o}x{o}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    text = f"""
func.func @f(%x: tensor<1x{c}x{hw}x{hw}xf32>, %r: {t4.replace("f32", narrow)}, %row: tensor<1x{f}x{o}x{narrow}>) -> {t4} {{
  %w = arith.constant dense<{json.dumps(w.astype(float).tolist())}> : tensor<{f}x{c}x3x3xf32>
  %s = arith.constant dense<{json.dumps(scale.astype(float).tolist())}> : tensor<{f}xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t4}
  %o = linalg.fill ins(%z : f32) outs(%e : {t4}) -> {t4}
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%x, %w : tensor<1x{c}x{hw}x{hw}xf32>, tensor<{f}x{c}x3x3xf32>) outs(%o : {t4}) -> {t4}
  %y = linalg.generic {{indexing_maps = [{ident}, {ident}, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, {ident}],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%c, %r, %s, %row : {t4}, {t4.replace("f32", narrow)}, tensor<{f}xf32>, tensor<1x{f}x{o}x{narrow}>) outs(%e : {t4}) {{
  ^bb0(%in: f32, %res: {narrow}, %sc: f32, %row_v: {narrow}, %out: f32):
    {text_body.replace("%row", "%row_v")}
    linalg.yield %t : f32
  }} -> {t4}
  return %y : {t4}
}}"""
    with ir.Context():
        module = ge_mlir.parse_module(text)
        tiled = ge_mlir.parse_module(text)
        stats = codegen.apply_strategy(tiled, tile_m=8, tile_n=32)
        assert stats["shifted_rows"] == 1 and "linalg.generic" not in str(tiled), stats
        exe = CpuExecutable(module, "f", jit_cpu=level)
    npn = {"f16": np.float16, "f32": np.float32}[narrow]
    x, r, row = rand((1, c, hw, hw)), rand((1, f, o, o)).astype(npn), rand((1, f, o)).astype(npn)
    out = exe(x, r, row)
    got = out[0] if isinstance(out, (list, tuple)) else out
    windows = np.lib.stride_tricks.sliding_window_view(x[0], (3, 3), axis=(1, 2))  # [C, o, o, 3, 3]
    conv = np.einsum("chwyx,fcyx->fhw", windows, w)[None]
    want = meaning(conv, r, scale[None, :, None, None], row[..., None])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


POOLS = [
    {"kernel_shape": [2, 2]},
    {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
    {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},
    {"kernel_shape": [3, 2], "strides": [2, 1], "pads": [0, 1, 1, 0], "ceil_mode": 1},
    {"kernel_shape": [2, 2], "dilations": [2, 2]},
]


@pytest.mark.parametrize("attrs", POOLS)
@pytest.mark.parametrize("dtype", [np.float32, np.int8], ids=lambda d: np.dtype(d).name)
def test_max_pool(attrs, dtype):
    model, feeds = one_node("MaxPool", [("x", rand((1, 3, 9, 8), dtype), False)], dtype, **attrs)
    close(*run_both(model, feeds))


@pytest.mark.parametrize("attrs", [a for a in POOLS if "dilations" not in a])
@pytest.mark.parametrize("include_pad", [0, 1])
def test_avg_pool(attrs, include_pad):
    model, feeds = one_node("AveragePool", [("x", rand((2, 3, 9, 8)), False)], np.float32,
                            count_include_pad=include_pad, **attrs)
    close(*run_both(model, feeds))


#: Max pools whose windows all overlap the input read it in place, taps clamped into it (no
#: padded copy): (input shape, attributes, whether the padded copy goes). Widths put vectors of
#: 16, 8 and 4 lanes (AVX-512, AVX2, SSE code) on both borders, inside, and rows shorter than one
#: vector; a dilated window over the border keeps the padded copy.
CLAMPED_POOLS = [
    ((1, 3, 112, 112), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, True),
    ((1, 2, 9, 40), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, True),
    ((1, 2, 11, 37), {"kernel_shape": [5, 5], "pads": [2, 2, 2, 2]}, True),
    ((2, 2, 9, 33), {"kernel_shape": [3, 2], "strides": [2, 1], "pads": [0, 1, 1, 0], "ceil_mode": 1}, True),
    ((1, 2, 10, 21), {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}, True),
    ((1, 2, 6, 5), {"kernel_shape": [3, 3], "pads": [1, 2, 1, 2]}, True),
    ((1, 2, 9, 18), {"kernel_shape": [2, 2], "dilations": [2, 2], "pads": [1, 1, 1, 1]}, False),
]


def _padded_shape(xs, attrs):
    """The padded copy's type in the IR: pads and the ceil-mode tail."""
    p, k = attrs.get("pads", [0, 0, 0, 0]), attrs["kernel_shape"]
    s, d = attrs.get("strides", [1, 1]), attrs.get("dilations", [1, 1])
    dims = []
    for i in range(2):
        span = xs[2 + i] + p[i] + p[i + 2] - d[i] * (k[i] - 1) - 1
        out = (-(-span // s[i]) if attrs.get("ceil_mode") else span // s[i]) + 1
        dims.append(max(xs[2 + i] + p[i] + p[i + 2], (out - 1) * s[i] + d[i] * (k[i] - 1) + 1))
    return f"{xs[0]}x{xs[1]}x{dims[0]}x{dims[1]}xf32"


@pytest.mark.parametrize("level", JIT_LEVELS)
@pytest.mark.parametrize("xs,attrs,in_place", CLAMPED_POOLS)
def test_max_pool_reads_input_in_place(xs, attrs, in_place, level, monkeypatch):
    monkeypatch.setenv("GE_MLIR_JIT_CPU", level)
    model, feeds = one_node("MaxPool", [("x", rand(xs), False)], np.float32, **attrs)
    text = ge_mlir.compile(model, compile_to="bufferized", progress=False).ir()
    assert (_padded_shape(xs, attrs) not in text) == in_place
    close(*run_both(model, feeds))


@pytest.mark.parametrize("level", JIT_LEVELS)
def test_max_pool_in_place_propagates_nan_at_borders(level, monkeypatch):
    """NaNs on the first and last rows and columns (where clamped taps repeat an element) reach
    every window that holds them, and only those."""
    monkeypatch.setenv("GE_MLIR_JIT_CPU", level)
    x = rand((1, 2, 9, 37))
    for y, c in [(0, 0), (0, 36), (8, 0), (8, 36), (4, 0), (0, 17)]:
        x[0, 0, y, c] = np.nan
    attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    model, feeds = one_node("MaxPool", [("x", x, False)], np.float32, **attrs)
    got = ge_mlir.compile(model, progress=False)(**feeds)[0]
    padded = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], constant_values=-np.inf)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))[:, :, ::2, ::2]
    np.testing.assert_array_equal(got, windows.max(axis=(-2, -1)))  # numpy: NaN wins


@pytest.mark.parametrize("xs,attrs", [((1, 2, 9, 40), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
                                       ((1, 2, 7, 7), {"kernel_shape": [2, 2]}),
                                       ((1, 1, 6, 6), {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]})])
def test_max_pool_propagates_nan(xs, attrs):
    """A window with a NaN gives NaN wherever the NaN is in it (as torch's max_pool2d and numpy's
    max; x86's vmaxps alone would keep the other operand)."""
    x = rand(xs)
    x[0, 0, 1, 1] = np.nan
    x[0, -1, -1, -1] = np.nan
    x[0, 0, 4, 5] = np.inf
    model, feeds = one_node("MaxPool", [("x", x, False)], np.float32, **attrs)
    got = ge_mlir.compile(model, progress=False)(**feeds)[0]
    k, s = attrs["kernel_shape"], attrs.get("strides", [1, 1])
    p = attrs.get("pads", [0, 0, 0, 0])
    padded = np.pad(x, [(0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])], constant_values=-np.inf)
    want = np.empty_like(got)
    for oy in range(got.shape[2]):
        for ox in range(got.shape[3]):
            window = padded[:, :, oy * s[0]:oy * s[0] + k[0], ox * s[1]:ox * s[1] + k[1]]
            want[:, :, oy, ox] = window.max(axis=(2, 3))  # numpy: NaN wins
    assert np.isnan(want).any()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("group", [1, 16])
@pytest.mark.parametrize("act", ["Relu", "Clip"])
def test_fused_relu_and_clip_propagate_nan(group, act):
    """ReLU and ReLU6 in convolution epilogues (a compare and a select there) keep NaN: the
    outputs whose window reads a NaN are NaN, the rest match onnxruntime's convolution clamped
    by numpy."""
    x = rand((1, 16, 9, 60))
    x[0, 3, 4, 10] = np.nan
    w = rand((16, 16 // group, 3, 3))
    conv = helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], group=group)
    inits = [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.flatten().tolist()),
             helper.make_tensor("lo", TensorProto.FLOAT, (), [0.0]), helper.make_tensor("hi", TensorProto.FLOAT, (), [6.0])]
    act_node = helper.make_node(act, ["c", "lo", "hi"] if act == "Clip" else ["c"], ["y"])

    def graph(nodes, out):
        g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)], initializer=inits)
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])

    got = ge_mlir.compile(graph([conv, act_node], "y"), progress=False)(x=x)[0]
    c = ort.InferenceSession(graph([conv], "c").SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"x": x})[0]
    want = np.maximum(c, 0) if act == "Relu" else np.minimum(np.maximum(c, 0), 6)
    assert np.isnan(want).sum() > 0
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True)


#: Depthwise convolutions and pools the vector window code takes (f32): output widths below,
#: at and past a vector (overlapping last vectors), stride 2 (even/odd halves), dilation, 5x5.
VECTOR_WINDOWS = [
    ((1, 4, 9, 9), (3, 3), {"pads": [1, 1, 1, 1]}),
    ((2, 3, 12, 40), (3, 3), {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
    ((1, 5, 15, 35), (3, 3), {"pads": [0, 1, 2, 1], "strides": [1, 2]}),
    ((1, 3, 11, 19), (5, 5), {"pads": [2, 2, 2, 2], "strides": [2, 2]}),
    ((1, 2, 14, 37), (3, 3), {"dilations": [2, 2], "pads": [2, 2, 2, 2]}),
    ((1, 6, 6, 3), (2, 2), {"strides": [2, 1]}),
    ((1, 3, 16, 16), (3, 2), {"strides": [3, 2], "pads": [1, 0, 1, 1]}),
]


@pytest.mark.parametrize("xs,k,attrs", VECTOR_WINDOWS)
def test_vector_window_ops(xs, k, attrs):
    """Depthwise convolution with bias, ReLU6 and a residual (the epilogue in the vectors), max
    and average pooling, against onnxruntime; two threads (channels split) give the same bits."""
    from mlir import ir

    from ge_mlir.target.cpu import codegen

    c = xs[1]
    x = rand(xs)
    ho = (xs[2] + attrs.get("pads", [0] * 4)[0] + attrs.get("pads", [0] * 4)[2]
          - attrs.get("dilations", [1, 1])[0] * (k[0] - 1) - 1) // attrs.get("strides", [1, 1])[0] + 1
    wo = (xs[3] + attrs.get("pads", [0] * 4)[1] + attrs.get("pads", [0] * 4)[3]
          - attrs.get("dilations", [1, 1])[1] * (k[1] - 1) - 1) // attrs.get("strides", [1, 1])[1] + 1
    res = rand((xs[0], c, ho, wo))
    pool_attrs = {key: v for key, v in attrs.items() if key != "dilations"}
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["d"], group=c, **attrs),
             helper.make_node("Add", ["d", "r"], ["e"]),
             helper.make_node("Clip", ["e", "lo", "hi"], ["y"]),
             helper.make_node("MaxPool", ["x"], ["m"], kernel_shape=list(k), **attrs),
             helper.make_node("AveragePool", ["x"], ["a"], kernel_shape=list(k), **pool_attrs)]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, (c, 1, *k), rand((c, 1, *k)).flatten().tolist()),
             helper.make_tensor("b", TensorProto.FLOAT, (c,), rand((c,)).flatten().tolist()),
             helper.make_tensor("lo", TensorProto.FLOAT, (), [0.0]), helper.make_tensor("hi", TensorProto.FLOAT, (), [6.0])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs),
                                       helper.make_tensor_value_info("r", TensorProto.FLOAT, res.shape)],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("y", "m", "a")],
                          initializer=inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    feeds = {"x": x, "r": res}
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    one = ge_mlir.compile(model, progress=False)(**feeds)
    two = ge_mlir.compile(model, options={"num_threads": 2}, progress=False)(**feeds)
    for got, ref, other in zip(one, want, two):
        close(got, ref)
        np.testing.assert_array_equal(other, got)
    with ir.Context():
        m = ge_mlir.compile(model, compile_to="linalg", progress=False).ir()
        stats = codegen.apply_strategy(ge_mlir.parse_module(m), tile_m=8, tile_n=32, lanes=16)
    assert stats["vector_windows"] == 3 and stats["windows"] == 0, stats


ACTS = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.1 * x),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "tanh": np.tanh,
    "gelu": lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "hard_sigmoid": lambda x: np.clip(0.1 * x + 0.5, 0, 1),
    "hard_swish": lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
}


@pytest.mark.parametrize("act", sorted(ACTS))
def test_matmul_fused_bias_activation(act):
    alpha = {"leaky_relu": 0.1, "hard_sigmoid": 0.1}.get(act)
    extra = f", activation_alpha = {alpha} : f32" if alpha is not None else ""
    text = f"""
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf32>) -> tensor<2x3x5xf32> {{
  %0 = ge.matmul %a, %b, %c {{activation = #ge.act<{act}>{extra}}}
      : (tensor<2x3x4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}}"""
    a, b, c = rand((2, 3, 4)) * 3, rand((4, 5)), rand((5,))
    got = ge_mlir.compile(text, progress=False)(a, b, c)[0]
    want = ACTS[act]((a.astype(np.float64) @ b + c)).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_conv2d_nhwc_with_fused_relu():
    text = """
func.func @f(%x: tensor<1x6x6x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = ge.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, data_format = #ge.format<NHWC>,
                             activation = #ge.act<relu>}
      : (tensor<1x6x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}"""
    x, w, b = rand((1, 6, 6, 3)), rand((4, 3, 3, 3)), rand((4,))
    got = ge_mlir.compile(text, progress=False)(x, w, b)[0]
    model, feeds = one_node("Conv", [("x", x.transpose(0, 3, 1, 2).copy(), False), ("w", w, True), ("b", b, True)],
                            np.float32, pads=[1, 1, 1, 1])
    _, want = run_both(model, feeds)
    np.testing.assert_allclose(got, np.maximum(want, 0).transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-5)


def test_codegen_paths_for_convolutions():
    """Which CPU codegen path each convolution takes (the numerics are checked above)."""
    from mlir import ir

    from ge_mlir.target.cpu import codegen, runner

    def stats(xs, ws, attrs=""):
        ho, wo = xs[2] - ws[2] + 1, xs[3] - ws[3] + 1
        xt = "x".join(map(str, xs))
        wt = "x".join(map(str, ws))
        rt = f"1x{ws[0]}x{ho}x{wo}"
        text = (f"func.func @f(%x: tensor<{xt}xf32>, %w: tensor<{wt}xf32>) -> tensor<{rt}xf32> {{\n"
                f"  %0 = ge.conv2d %x, %w {attrs} : (tensor<{xt}xf32>, tensor<{wt}xf32>) -> tensor<{rt}xf32>\n"
                f"  return %0 : tensor<{rt}xf32>\n}}")
        with ir.Context():
            m = ge_mlir.parse_module(text)
            runner.lower_stage(m, "linalg")
            return codegen.apply_strategy(m, tile_m=8, tile_n=32)

    assert stats((1, 4, 42, 42), (8, 4, 3, 3))["shifted"] == 1  # large stride-1 image: one matmul per tap
    assert stats((1, 4, 10, 10), (8, 4, 3, 3))["img2col"] == 1  # small image: im2col
