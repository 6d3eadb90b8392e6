"""Op parameters given at run time (graph inputs), compiled once: every model here is compiled a
single time with ge_mlir.compile and run at several parameter values, each result compared with
onnxruntime's (f32: rtol 1e-5, atol 1e-6; integers and booleans: exact). Invalid values fail the
call with ExecutionError, as they fail onnxruntime's run.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as T
from onnx import helper

import ge_mlir
from ge_mlir.errors import ExecutionError

ort = pytest.importorskip("onnxruntime")

F, I64 = T.FLOAT, T.INT64


def _model(op: str, inputs: list[tuple[str, int, list]], n_out: int = 1, opset: int = 18,
           out_types: list[int] | None = None, **attrs):
    """One ``op`` node; an input named "" is left out (an omitted optional input)."""
    outs = [f"y{i}" for i in range(n_out)]
    node = helper.make_node(op, [n for n, _, _ in inputs], outs, **attrs)
    out_types = out_types or [inputs[0][1]] * n_out
    graph = helper.make_graph(
        [node], op.lower(), [helper.make_tensor_value_info(n, t, sh) for n, t, sh in inputs if n],
        [helper.make_tensor_value_info(o, t, None) for o, t in zip(outs, out_types)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _check(model, feeds_list, exact: bool = False):
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for feeds in feeds_list:
        want = sess.run(None, feeds)
        got = compiled(**feeds)
        for g, w in zip(got, want):
            assert g.shape == w.shape, (feeds, g.shape, w.shape)
            if exact or w.dtype.kind != "f":
                np.testing.assert_array_equal(g, w)
            else:
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    return compiled


RNG = np.random.default_rng(0)
X34 = RNG.standard_normal((3, 4)).astype(np.float32)
X2345 = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)


def i64(*v):
    return np.array(v, np.int64)


def test_slice():
    m = _model("Slice", [("x", F, [3, 4]), ("s", I64, [2]), ("e", I64, [2]), ("a", I64, [2]), ("st", I64, [2])])
    c = _check(m, [
        {"x": X34, "s": i64(0, 1), "e": i64(3, 4), "a": i64(0, 1), "st": i64(1, 2)},
        {"x": X34, "s": i64(-1, 0), "e": i64(-100, 100), "a": i64(0, -1), "st": i64(-1, 1)},
        {"x": X34, "s": i64(2, 3), "e": i64(2, 1), "a": i64(1, 0), "st": i64(-1, 1)},
    ])
    with pytest.raises(ExecutionError):  # an axis out of range
        c(x=X34, s=i64(0, 0), e=i64(1, 1), a=i64(0, 2), st=i64(1, 1))


def test_split_sizes():
    m = _model("Split", [("x", F, [3, 4]), ("sp", I64, [2])], n_out=2, axis=1)
    c = _check(m, [{"x": X34, "sp": i64(1, 3)}, {"x": X34, "sp": i64(4, 0)}])
    with pytest.raises(ExecutionError):  # sizes that do not add up to the dim
        c(x=X34, sp=i64(1, 1))


def test_topk_k():
    m = _model("TopK", [("x", F, [3, 4]), ("k", I64, [1])], n_out=2, out_types=[F, I64], largest=0)
    c = _check(m, [{"x": X34, "k": i64(k)} for k in (0, 1, 4)])
    with pytest.raises(ExecutionError):
        c(x=X34, k=i64(5))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_pad(mode):
    ins = [("x", F, [3, 4]), ("p", I64, [4])] + ([("v", F, [])] if mode == "constant" else [])
    m = _model("Pad", ins, mode=mode)
    extra = {"v": np.array(7.5, np.float32)} if mode == "constant" else {}
    # ([begin0, begin1, end0, end1]) reflect pads at most size - 1 per side, as onnxruntime checks
    _check(m, [{"x": X34, "p": i64(*p), **extra} for p in ((1, 2, 0, 1), (0, 0, 0, 0), (-1, 1, 1, -2))])


def test_tile_and_expand():
    _check(_model("Tile", [("x", F, [3, 4]), ("r", I64, [2])]),
           [{"x": X34, "r": i64(*r)} for r in ((1, 1), (2, 3), (0, 2))])
    x = RNG.standard_normal((3, 1)).astype(np.float32)
    _check(_model("Expand", [("x", F, [3, 1]), ("s", I64, [3])]),
           [{"x": x, "s": i64(*s)} for s in ((2, 3, 5), (1, 1, 1), (1, 3, 4))])


def test_one_hot():
    m = _model("OneHot", [("i", I64, [4]), ("d", I64, []), ("v", F, [2])], opset=11, out_types=[F], axis=0)
    _check(m, [{"i": i64(0, 2, -1, 7), "d": np.array(d, np.int64), "v": np.array([0.5, 2.0], np.float32)}
               for d in (3, 8)])


def test_squeeze_unsqueeze_axes():
    x = RNG.standard_normal((3, 1, 4, 1)).astype(np.float32)
    c = _check(_model("Squeeze", [("x", F, [3, 1, 4, 1]), ("a", I64, [2])]),
               [{"x": x, "a": i64(*a)} for a in ((1, 3), (-1, 1))])
    with pytest.raises(ExecutionError):  # squeezing a dim of size 4
        c(x=x, a=i64(1, 2))
    _check(_model("Unsqueeze", [("x", F, [3, 4]), ("a", I64, [2])]),
           [{"x": X34, "a": i64(*a)} for a in ((0, 3), (1, -1), (2, 0))])


def test_center_crop_pad():
    _check(_model("CenterCropPad", [("x", F, [3, 4]), ("s", I64, [2])]),
           [{"x": X34, "s": i64(*s)} for s in ((2, 2), (5, 7), (3, 1))])


@pytest.mark.parametrize("mode,coord", [("nearest", "half_pixel"), ("nearest", "asymmetric"),
                                        ("linear", "half_pixel"), ("linear", "align_corners"),
                                        ("linear", "pytorch_half_pixel"), ("cubic", "half_pixel")])
def test_resize(mode, coord):
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    m = _model("Resize", [("x", F, [1, 2, 4, 5]), ("", F, []), ("sc", F, [4])], mode=mode,
               coordinate_transformation_mode=coord)
    _check(m, [{"x": x, "sc": np.array(s, np.float32)} for s in ((1, 1, 2, 2), (1, 1, 0.5, 0.6), (1, 1, 1.5, 3))])
    m = _model("Resize", [("x", F, [1, 2, 4, 5]), ("", F, []), ("", F, []), ("sz", I64, [2])],
               mode=mode, coordinate_transformation_mode=coord, axes=[2, 3])
    _check(m, [{"x": x, "sz": i64(*s)} for s in ((8, 10), (3, 2), (4, 5))])


@pytest.mark.parametrize("op", ["HannWindow", "HammingWindow", "BlackmanWindow"])
def test_window_size(op):
    m = _model(op, [("n", I64, [])], opset=17, out_types=[F])
    for periodic in (0, 1):
        m.graph.node[0].attribute.extend([helper.make_attribute("periodic", periodic)])
        _check(m, [{"n": np.array(n, np.int64)} for n in (1, 8, 33)])
        del m.graph.node[0].attribute[:]


def test_quantize_parameters():
    x = (RNG.standard_normal((3, 4)) * 20).astype(np.float32)
    m = _model("QuantizeLinear", [("x", F, [3, 4]), ("s", F, [4]), ("z", T.UINT8, [4])], out_types=[T.UINT8],
               axis=1)
    _check(m, [{"x": x, "s": np.array(s, np.float32), "z": np.array(z, np.uint8)}
               for s, z in (((0.5, 1, 2, 0.1), (0, 10, 128, 255)), ((1, 1, 1, 1), (3, 3, 3, 3)))])


def test_trilu_k_and_cumsum_axis():
    _check(_model("Trilu", [("x", F, [3, 4]), ("k", I64, [])], upper=0),
           [{"x": X34, "k": np.array(k, np.int64)} for k in (-2, 0, 3)])
    _check(_model("CumSum", [("x", F, [2, 3, 4, 5]), ("a", I64, [])], reverse=1),
           [{"x": X2345, "a": np.array(a, np.int64)} for a in (0, 2, -1)])


def test_reduce_axes():
    for op in ("ReduceMean", "ReduceLogSumExp", "ReduceMax"):
        for keep in (0, 1):
            m = _model(op, [("x", F, [2, 3, 4, 5]), ("a", I64, [2])], keepdims=keep)
            _check(m, [{"x": X2345, "a": i64(*a)} for a in ((0, 2), (-1, 1), (3, 0))])


def test_compress_and_nonzero_data_dependent_sizes():
    """Results whose size is the number of true / nonzero values, computed at run time."""
    _check(_model("Compress", [("x", F, [3, 4]), ("c", T.BOOL, [3])], opset=11, axis=0),
               [{"x": X34, "c": np.array(v, bool)} for v in ((1, 0, 1), (0, 0, 0), (1, 1, 1))])
    x = np.array([[0, 1.5, 0, -2], [3, 0, 0, 0], [0, 0, 0, 0]], np.float32)
    _check(_model("NonZero", [("x", F, [3, 4])], opset=13, out_types=[I64]),
           [{"x": x}, {"x": np.zeros((3, 4), np.float32)}, {"x": X34}])


@pytest.mark.parametrize("axis,sort", [(None, 1), (None, 0), (0, 1), (1, 0), (-1, 1)])
def test_unique(axis, sort):
    """The unique values (slices along an axis), their first indices, the inverse indices and the
    counts, whose sizes depend on the data, sorted or in first-occurrence order (one compile)."""
    attrs = {"sorted": sort} if axis is None else {"sorted": sort, "axis": axis}
    m = _model("Unique", [("x", F, [4, 3])], n_out=4, opset=11, out_types=[F, I64, I64, I64], **attrs)
    feeds = [np.array([[2, 1, 2], [0, 1, 0], [2, 1, 2], [3, 3, 1]], np.float32),
             np.zeros((4, 3), np.float32), RNG.standard_normal((4, 3)).astype(np.float32),
             np.array([[1, 5, 1], [1, 5, 1], [-1, 5, 1], [1, 5, 1]], np.float32)]
    _check(m, [{"x": x} for x in feeds])


@pytest.mark.parametrize("align", [0, 1])
def test_affine_grid_size(align):
    """The grid's spatial size is the run-time value of the size input (sizes > 1: for a size of 1 with
    align_corners, onnxruntime puts the point at +1 and the ONNX reference at -1; ge follows the reference)."""
    theta = RNG.standard_normal((2, 2, 3)).astype(np.float32)
    m = _model("AffineGrid", [("theta", F, [2, 2, 3]), ("size", I64, [4])], opset=20, align_corners=align)
    _check(m, [{"theta": theta, "size": i64(2, 3, h, w)} for h, w in ((4, 5), (2, 7), (3, 3))])
