"""Differential test of ge-fold-constants + ge-eliminate-redundant.

The same ge function is compiled for the CPU twice with ``ge_mlir.compile``
(``optimize=False``, so only our passes differ): as written (reference) and
after ``ge-eliminate-redundant, ge-fold-constants``. Outputs must agree within
rtol=1e-5, atol=1e-6 (the folded constants are computed by the same CPU
backend, f16 in f32 rounded per op, so differences only come from the
JIT's instruction selection/reassociation in the remaining matmul); op
counts and pass statistics are asserted.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

import ge_mlir
from ge_mlir.api import parse_module
from ge_mlir.irutils.patterns import count_ops
from ge_mlir.passes import build_pass_manager

GRAPH = """
func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  // Constant subgraph 1: a weight stored transposed and flattened, rescaled.
  %wt = ge.constant dense<[[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, 1.0], [-2.0, 0.125, 1.0, 3.0],
                           [0.0, 1.0, -1.0, 0.5], [2.5, -0.25, 0.5, -1.5]]> : tensor<5x4xf32>
  %s = ge.constant dense<0.5> : tensor<f32>
  %w0 = ge.transpose %wt {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %w1 = ge.reshape %w0 : tensor<4x5xf32> to tensor<20xf32>
  %w2 = ge.reshape %w1 : tensor<20xf32> to tensor<4x5xf32>
  %w = ge.mul %w2, %s : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
  // Constant subgraph 2: a bias through exp and an f16 computation.
  %b = ge.constant dense<[0.1, -0.2, 0.3, -0.4, 0.5]> : tensor<5xf32>
  %be = ge.exp %b : tensor<5xf32>
  %h1 = ge.constant dense<1.0> : tensor<5xf16>
  %h3 = ge.constant dense<[3.0, 7.0, 9.0, 11.0, 13.0]> : tensor<5xf16>
  %hq = ge.div %h1, %h3 : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xf16>
  %hf = ge.cast %hq : tensor<5xf16> to tensor<5xf32>
  %bias = ge.add %be, %hf : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  // Redundant ops around the real work.
  %xi = ge.identity %x : tensor<2x3x4xf32>
  %xt = ge.transpose %xi {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %xu = ge.transpose %xt {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %xd = ge.cast %xu : tensor<2x3x4xf32> to tensor<2x3x4xf64>
  %xf = ge.cast %xd : tensor<2x3x4xf64> to tensor<2x3x4xf32>
  %y = ge.matmul %xf, %w : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %yb = ge.add %y, %bias : (tensor<2x3x5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  %r1 = ge.relu %yb : tensor<2x3x5xf32>
  %r2 = ge.relu %yb : tensor<2x3x5xf32>
  %sum = ge.add %r1, %r2 : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %dead = ge.tanh %yb : tensor<2x3x5xf32>
  %lossy = ge.cast %yb : tensor<2x3x5xf32> to tensor<2x3x5xf16>
  %back = ge.cast %lossy : tensor<2x3x5xf16> to tensor<2x3x5xf32>
  return %sum, %back : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}
"""


def _optimize(text: str) -> tuple[str, dict[str, dict[str, int]], int, int]:
    with ir.Context() as ctx, ir.Location.unknown():
        module = parse_module(text)
        before = count_ops(module.operation)
        pm, elements = build_pass_manager(
            "builtin.module(ge-eliminate-redundant, ge-fold-constants)", ctx
        )
        pm.run(module.operation)
        stats = {el.ge_pass.name: dict(el.ge_pass.statistics) for el in elements}
        return str(module), stats, before, count_ops(module.operation)


def test_fold_and_eliminate_match_reference():
    optimized, stats, before, after = _optimize(GRAPH)

    red = stats["ge-eliminate-redundant"]
    assert red["identity-ops"] == 1
    assert red["transpose-pairs"] == 1  # the inverse pair on %x
    assert red["reshape-chains"] == 1  # reshape(reshape(w0)) -> w0
    assert red["cast-round-trips"] == 1  # f32 -> f64 -> f32 (lossless); f16 stays
    assert red["dead-ops"] == 1  # tanh
    assert red["folded"] == 1  # the C++ folder transposes the constant weight
    assert red["cse-removed"] == 1  # the duplicate relu
    fold = stats["ge-fold-constants"]
    # mul | exp, div, cast, add: two constant subgraphs evaluated by one
    # JIT-compiled function, two constants created.
    assert fold["ops-folded"] == 5
    assert fold["constants-created"] == 2
    assert fold["subgraphs-evaluated"] == 1
    assert fold["evaluation-failures"] == 0
    # 26 ge ops before; after: 2 constants, matmul, add, relu, add, 2 lossy casts.
    assert before == 26
    assert after == 8
    assert "ge.identity" not in optimized and "ge.transpose" not in optimized
    assert "ge.tanh" not in optimized and "ge.exp" not in optimized
    assert optimized.count("ge.cast") == 2  # the lossy f32 -> f16 -> f32 round trip stays

    ref = ge_mlir.compile(GRAPH, options={"optimize": False})
    opt = ge_mlir.compile(optimized, options={"optimize": False})
    rng = np.random.default_rng(0)
    for _ in range(3):
        x = rng.standard_normal((2, 3, 4)).astype(np.float32)
        expected = ref(x)
        got = opt(x)
        assert len(got) == len(expected) == 2
        for e, g in zip(expected, got):
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
