"""Pass registry: registration rules, options, ordering, user passes in pipelines."""

import pytest
from mlir import ir
from mlir.rewrite import RewritePatternSet, apply_patterns_and_fold_greedily

import ge_mlir
from ge_mlir.errors import GeMlirError, PassOptionError
from ge_mlir.irutils.patterns import pattern
from ge_mlir.passes import STAGES, Option, Pass, get_pass, list_passes, parse_pipeline, register_pass


def test_builtin_passes_registered():
    names = [p.name for p in list_passes()]
    assert "ge-canonicalize" in names and "ge-verify-graph" in names
    for cls in list_passes():
        assert cls.summary and cls.stage in STAGES
        assert cls.name.startswith("ge-")


def test_list_order_is_stage_then_priority():
    passes = list_passes()
    keys = [(STAGES.index(p.stage), p.priority, p.name) for p in passes]
    assert keys == sorted(keys)
    # Verification (0), then the gradient ops' decomposition (5), which must precede every graph pass.
    assert [p.name for p in list_passes("after-import")][:3] == [
        "ge-verify-graph", "ge-decompose-gradient-ops", "ge-canonicalize"]


@pytest.mark.parametrize(
    "attrs, message",
    [
        ({"name": "canonicalize-more"}, "must look like ge-<verb>-<object>"),
        ({"name": "ge-Bad_Name"}, "must look like ge-<verb>-<object>"),
        ({"stage": "whenever"}, "unknown stage 'whenever'"),
        ({"summary": ""}, "must define 'summary'"),
    ],
)
def test_registration_rules(attrs, message):
    body = {"name": "ge-test-rule", "summary": "s", "stage": "after-import", "run": lambda self, m: None}
    body.update(attrs)
    with pytest.raises(GeMlirError, match=message):
        register_pass(type("P", (Pass,), body))


def test_duplicate_name_rejected():
    with pytest.raises(GeMlirError, match="already registered"):
        register_pass(type("Dup", (Pass,), {"name": "ge-canonicalize", "summary": "x", "stage": "after-import"}))


def test_option_parsing():
    cls = get_pass("ge-canonicalize")
    p = cls(**{"max-iterations": "3", "cse": "off"})
    assert p.opt("max-iterations") == 3 and p.opt("cse") is False
    q = cls(max_iterations=5)
    assert q.opt("max-iterations") == 5
    with pytest.raises(PassOptionError):
        cls(cse="sometimes")
    v = get_pass("ge-verify-graph")(**{"allowed-dialects": "ge,func,arith"})
    assert v.opt("allowed-dialects") == ["ge", "func", "arith"]


def test_parse_pipeline_elements():
    els = parse_pipeline("builtin.module(ge-canonicalize{cse=false max-iterations=2}, func.func(cse,canonicalize), symbol-dce)")
    assert [e.name for e in els] == ["ge-canonicalize", "func.func(cse,canonicalize)", "symbol-dce"]
    assert els[0].ge_pass.opt("cse") is False and els[0].ge_pass.opt("max-iterations") == 2
    assert els[1].ge_pass is None


@register_pass
class _FuseAddRelu(Pass):
    """A user pass written against the public API (what a plugin author writes)."""

    name = "ge-test-relu-of-relu"
    summary = "relu(relu(x)) -> relu(x)"
    stage = "after-builtin-fusion"
    options = (Option("enabled", bool, True, "switch"),)

    def run(self, module):
        if not self.opt("enabled"):
            return
        count = {"n": 0}

        @pattern
        def collapse(op, rewriter):
            inner = op.operands[0].owner
            if not isinstance(inner, ir.OpView) or inner.operation.name != "ge.relu":
                return False
            rewriter.replace_op(op, [inner.results[0]])
            count["n"] += 1
            return True

        patterns = RewritePatternSet()
        patterns.add("ge.relu", collapse)
        apply_patterns_and_fold_greedily(module, patterns.freeze())
        self.bump("rewrites", count["n"])


def test_user_pass_in_mixed_pipeline(ctx):
    module = ge_mlir.parse_module(
        """
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ge.relu %x : tensor<4xf32>
  %1 = ge.relu %0 : tensor<4xf32>
  %2 = ge.relu %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}"""
    )
    ge_mlir.run_pipeline(module, "builtin.module(ge-test-relu-of-relu, canonicalize, ge-verify-graph)")
    text = str(module)
    assert text.count("ge.relu") == 1
    off = ge_mlir.parse_module(text.replace("return %0", "return %0"))
    ge_mlir.run_pipeline(off, "ge-test-relu-of-relu{enabled=false}")
    assert str(off).count("ge.relu") == 1
