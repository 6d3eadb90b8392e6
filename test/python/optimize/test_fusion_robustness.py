"""Bad inputs to the fusion passes end in a refusal or a located error, never a process abort."""

from __future__ import annotations

import pytest
from mlir.rewrite import RewritePatternSet

import ge_mlir
from ge_mlir.errors import PassFailedError
from ge_mlir.irutils.patterns import apply_without_folding, pattern
from ge_mlir.passes import Option, Pass, register_pass, registry

CONV_BN = """
func.func @f(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = ge.constant dense_resource<wblob> : tensor<3x2x1x1xf32>
  %s = ge.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %b = ge.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %m = ge.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %v = ge.constant dense<[3.0, 0.0, 15.0]> : tensor<3xf32>
  %c = ge.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = ge.batch_norm %c, %s, %b, %m, %v {epsilon = 1.0 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}
"""
# Alignment 4, then 6 f32 values (1..6) or only one.
BLOBS = {
    "full": "0x040000000000803F0000004000004040000080400000A0400000C040",
    "short": "0x040000000000803F",
}


@pytest.mark.parametrize("blob", ["full", "short", "missing"])
def test_conv_bn_resource_filter(ctx, blob):
    """A missing or short dense_resource filter is unreadable (ge.mul fallback), not an abort."""
    text = CONV_BN
    if blob in BLOBS:
        text += f'{{-#\n  dialect_resources: {{\n    builtin: {{\n      wblob: "{BLOBS[blob]}"\n    }}\n  }}\n#-}}\n'
    module = ge_mlir.parse_module(text)
    pm, elements = ge_mlir.passes.build_pass_manager("builtin.module(ge-fuse-conv-bn)", ctx)
    pm.run(module.operation)
    stats = elements[0].ge_pass.statistics
    assert stats["conv-bn-fused"] == 1
    expected = "weights-folded-numpy" if blob == "full" else "weights-folded-as-ops"
    assert stats[expected] == 1
    assert "ge.batch_norm" not in str(module)


@pytest.fixture
def isolated_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


def test_pattern_exception_is_reported_as_such(ctx, isolated_registry):
    """An exception inside a @pattern is the pass's internal error, not "did not converge"."""

    @pattern
    def broken(op, rewriter):
        raise KeyError("no such attribute")

    @register_pass
    class _Broken(Pass):
        name = "ge-test-robust-broken-pattern"
        summary = "a pattern that raises"
        stage = "after-builtin-fusion"
        options = (Option("max-iterations", int, 10, "greedy driver iteration limit"),)

        def run(self, module):
            patterns = RewritePatternSet()
            patterns.add("ge.relu", broken)
            apply_without_folding(self, patterns, module)

    module = ge_mlir.parse_module(
        "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %r = ge.relu %x : tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n"
    )
    with pytest.raises(PassFailedError) as info:
        ge_mlir.run_pipeline(module, "builtin.module(ge-test-robust-broken-pattern)")
    text = str(info.value)
    assert "internal error: KeyError" in text and "no such attribute" in text
    assert "did not converge" not in text
