"""ge-outline-noalias-kernels + ge-mark-noalias-pointers in the CPU pipeline: the softmax's loops
over workspace views become kernels whose data pointers are ``noalias`` in the LLVM IR the JIT
compiles, and the results still match onnxruntime. (How much faster: docs/performance.md.)"""

from __future__ import annotations

import re

import numpy as np
from onnx import TensorProto, helper

import ge_mlir


def _softmax_gelu(shape: list[int]):
    nodes = [helper.make_node("Softmax", ["x"], ["s"], axis=-1), helper.make_node("Gelu", ["s"], ["g"]),
             helper.make_node("Add", ["g", "x"], ["y"])]
    graph = helper.make_graph(nodes, "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])


def test_workspace_loops_get_noalias_kernels_and_match_onnxruntime():
    import onnxruntime as ort

    proto = _softmax_gelu([4, 32, 64])
    compiled = ge_mlir.compile(proto, progress=False)
    llvm = compiled.ir("llvm")
    kernels = re.findall(r"llvm\.func @__ge_kernel_\d+\(([^)]*)\)", llvm)
    assert len(kernels) >= 3  # e = exp(x - max), the row sums, e / sum, GELU + add...
    for args in kernels:
        # Every memref's aligned pointer (the second of each descriptor) is noalias; nothing else.
        ptrs = re.findall(r"!llvm\.ptr( \{llvm\.noalias\})?", args)
        assert ptrs and all(p == "" for p in ptrs[0::2]) and all(p for p in ptrs[1::2])
    assert "ge.noalias_pointers" not in llvm and "ge.expanded_args" not in llvm
    x = np.random.default_rng(0).standard_normal((4, 32, 64)).astype(np.float32)
    (got,) = compiled(x)
    (want,) = ort.InferenceSession(proto.SerializeToString()).run(None, {"x": x})
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
