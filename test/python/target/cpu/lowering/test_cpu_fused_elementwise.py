"""Elementwise chains fused by ``ge-fuse-elementwise-generics``: one generic per chain, numerics
against onnxruntime (f32: rtol/atol 1e-5; the fused body computes the same scalar ops in the
same order, so only the exp/tanh approximations' own error shows)."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import ge_mlir

RNG = np.random.default_rng(11)


def _model(nodes, inputs, shapes):
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, shapes[n]) for n in inputs],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


#: (nodes, inputs, generics left after the fusion): chains of elementwise ops in ONNX form.
CHAINS = {
    # LLaMA's SiLU-gated MLP: x * sigmoid(x) * up.
    "silu_gate": ([helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Mul", ["x", "s"], ["g"]),
                   helper.make_node("Mul", ["g", "u"], ["y"])], ["x", "u"], 1),
    # GPT-2's tanh GELU, written out as torch exports it.
    "gelu_tanh": ([helper.make_node("Mul", ["x", "x"], ["x2"]), helper.make_node("Mul", ["x2", "x"], ["x3"]),
                   helper.make_node("Mul", ["x3", "c044"], ["a"]), helper.make_node("Add", ["x", "a"], ["b"]),
                   helper.make_node("Mul", ["b", "c079"], ["c"]), helper.make_node("Tanh", ["c"], ["t"]),
                   helper.make_node("Add", ["t", "one"], ["d"]), helper.make_node("Mul", ["x", "d"], ["e"]),
                   helper.make_node("Mul", ["e", "half"], ["y"])], ["x"], 1),
    # A value read twice inside the chain (exp(x) * u + exp(x)): once the product is fused into
    # the sum, the sum is exp's only reader and it fuses too (one exp an element, not two).
    "read_twice": ([helper.make_node("Exp", ["x"], ["ex"]), helper.make_node("Mul", ["ex", "u"], ["m"]),
                    helper.make_node("Add", ["ex", "m"], ["y"])], ["x", "u"], 1),
    # A value read by a reduction too (a softmax written out): exp stays its own generic.
    "read_by_a_reduction": ([helper.make_node("Exp", ["x"], ["ex"]),
                             helper.make_node("ReduceSum", ["ex", "axes"], ["s"], keepdims=1),
                             helper.make_node("Div", ["ex", "s"], ["y"])], ["x"], 3),
}


@pytest.mark.parametrize("name", list(CHAINS))
@pytest.mark.parametrize("shape", [(4, 128, 172), (3, 5)])
def test_fused_chains_match_onnxruntime(name, shape):
    nodes, inputs, generics = CHAINS[name]
    consts = {"c044": 0.044715, "c079": 0.7978845608, "one": 1.0, "half": 0.5}
    inits = [helper.make_tensor(k, TensorProto.FLOAT, [], [v]) for k, v in consts.items()
             if any(k in n.input for n in nodes)]
    if any("axes" in n.input for n in nodes):
        inits.append(helper.make_tensor("axes", TensorProto.INT64, [1], [-1]))
    model = _model(nodes, inputs, {n: shape for n in inputs})
    model.graph.initializer.extend(inits)
    feeds = {n: RNG.standard_normal(shape).astype(np.float32) for n in inputs}
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    got = ge_mlir.compile(model, progress=False)(**feeds)[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    linalg = ge_mlir.compile(model, compile_to="linalg", progress=False).ir()
    assert linalg.count("linalg.generic") == generics, linalg
