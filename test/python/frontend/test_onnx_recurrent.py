"""RNN, GRU and LSTM (unrolled over static sequences) against onnxruntime: both directions, initial
states, biases, peepholes, clip, GRU's linear_before_reset and forward sequence_lens (the batch-first
layout, which onnxruntime's CPU kernels refuse, is checked against the ONNX reference by the node suite).
f32, rtol 1e-5 / atol 1e-5 (one matmul per step and gate, summed in a different order than MLAS)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as T
from onnx import helper

import ge_mlir

ort = pytest.importorskip("onnxruntime")
RNG = np.random.default_rng(3)
F = T.FLOAT


def _run(op: str, feeds: dict[str, np.ndarray], outs: list[str], **attrs) -> None:
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    ins = [n if n in feeds else "" for n in names]
    while ins and not ins[-1]:
        ins.pop()
    node = helper.make_node(op, ins, outs, **attrs)
    types = {"sequence_lens": T.INT32}
    graph = helper.make_graph(
        [node], op.lower(),
        [helper.make_tensor_value_info(n, types.get(n, F), feeds[n].shape) for n in ins if n],
        [helper.make_tensor_value_info(o, F, None) for o in outs if o])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    compiled = ge_mlir.compile(model, target="cpu", progress=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for got, want in zip(compiled(**feeds), sess.run(None, feeds)):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _w(*shape):
    return (RNG.standard_normal(shape) * 0.5).astype(np.float32)


@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_lstm(direction):
    nd, t, b, i, h = (2 if direction == "bidirectional" else 1), 5, 3, 4, 6
    feeds = {"X": _w(t, b, i), "W": _w(nd, 4 * h, i), "R": _w(nd, 4 * h, h), "B": _w(nd, 8 * h),
             "initial_h": _w(nd, b, h), "initial_c": _w(nd, b, h), "P": _w(nd, 3 * h)}
    _run("LSTM", feeds, ["Y", "Y_h", "Y_c"], hidden_size=h, direction=direction, clip=2.5)


def test_lstm_sequence_lens():
    t, b, i, h = 4, 3, 2, 5
    feeds = {"X": _w(t, b, i), "W": _w(1, 4 * h, i), "R": _w(1, 4 * h, h),
             "sequence_lens": np.array([4, 1, 2], np.int32)}
    _run("LSTM", feeds, ["Y", "Y_h"], hidden_size=h)


@pytest.mark.parametrize("lbr", [0, 1])
def test_gru(lbr):
    t, b, i, h = 4, 2, 3, 5
    feeds = {"X": _w(t, b, i), "W": _w(2, 3 * h, i), "R": _w(2, 3 * h, h), "B": _w(2, 6 * h),
             "initial_h": _w(2, b, h)}
    _run("GRU", feeds, ["Y", "Y_h"], hidden_size=h, direction="bidirectional", linear_before_reset=lbr)


def test_rnn_relu():
    t, b, i, h = 3, 2, 4, 3
    feeds = {"X": _w(t, b, i), "W": _w(1, h, i), "R": _w(1, h, h), "B": _w(1, 2 * h)}
    _run("RNN", feeds, ["Y", "Y_h"], hidden_size=h, activations=["Relu"])
