"""The ge_mlir error hierarchy: bad input raises typed errors with diagnostics."""

import pytest

import ge_mlir
from ge_mlir import (
    GeMlirError,
    ParseError,
    PassFailedError,
    PassOptionError,
    PassPipelineError,
    UnknownPassError,
    VerificationError,
)
from ge_mlir.passes import Pass, PassFailure, register_pass

GOOD = """
func.func @g(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ge.relu %x : tensor<2x3xf32>
  %1 = ge.identity %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
"""


def test_hierarchy():
    for cls in (ParseError, VerificationError, PassPipelineError, UnknownPassError, PassOptionError, PassFailedError):
        assert issubclass(cls, GeMlirError)
    assert issubclass(UnknownPassError, PassPipelineError)
    assert issubclass(PassOptionError, PassPipelineError)


def test_syntax_error_is_parse_error_with_location(ctx):
    with pytest.raises(ParseError) as info:
        ge_mlir.parse_module("func.func @f( {", source_name="bad.mlir")
    err = info.value
    assert err.diagnostics and err.diagnostics[0].severity == "error"
    assert "1:" in err.diagnostics[0].location
    assert "bad.mlir" in str(err)


def test_verifier_error_is_verification_error(ctx):
    text = """
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = ge.transpose %a {perm = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}"""
    with pytest.raises(VerificationError) as info:
        ge_mlir.parse_module(text)
    messages = [d.message for d in info.value.diagnostics]
    assert any("attribute 'perm' [1, 1] is not a permutation of [0, 2)" in m for m in messages)
    assert any(d.location.endswith(":3:8") for d in info.value.diagnostics)


def test_unknown_op_is_parse_error(ctx):
    with pytest.raises(ParseError, match="ge.frobnicate"):
        ge_mlir.parse_module("func.func @f(%x: tensor<1xf32>) { %0 = ge.frobnicate %x : tensor<1xf32>\n return }")


def test_run_pipeline_success(ctx):
    module = ge_mlir.parse_module(GOOD)
    ge_mlir.run_pipeline(module, "builtin.module(ge-verify-graph, ge-canonicalize, func.func(cse))")
    assert "ge.identity" not in str(module)


@pytest.mark.parametrize(
    "pipeline, error, text",
    [
        ("builtin.module(ge-canonicalise)", UnknownPassError, "did you mean 'ge-canonicalize'"),
        ("not-a-pass", UnknownPassError, "'not-a-pass' does not refer to a registered pass"),
        ("ge-canonicalize{max-iterations=many}", PassOptionError, "invalid value 'many' for option 'max-iterations'"),
        ("ge-canonicalize{frob=1}", PassOptionError, "has no option 'frob'"),
        ("canonicalize{frob=1}", PassOptionError, "canonicalize{frob=1}"),
        ("func.func(ge-canonicalize)", PassPipelineError, "must appear at the top level"),
        ("builtin.module(cse", PassPipelineError, "unbalanced"),
        ("cse,,cse", PassPipelineError, "empty element"),
    ],
)
def test_bad_pipelines(ctx, pipeline, error, text):
    module = ge_mlir.parse_module(GOOD)
    with pytest.raises(error) as info:
        ge_mlir.run_pipeline(module, pipeline)
    assert text in str(info.value)


def test_invalid_ir_is_rejected_before_passes_run(ctx):
    # Built IR that fails verification never reaches a pass (some MLIR passes
    # abort on unverified input).
    module = ge_mlir.parse_module(GOOD)
    ret = module.body.operations[0].regions[0].blocks[0].operations[-1]
    relu = module.body.operations[0].regions[0].blocks[0].operations[0]
    ret.operation.erase()  # function without terminator: invalid
    del relu
    with pytest.raises(VerificationError):
        ge_mlir.run_pipeline(module, "canonicalize")


@register_pass
class _AlwaysFails(Pass):
    name = "ge-test-always-fail"
    summary = "test pass that reports a located failure"
    stage = "before-lowering"

    def run(self, module):
        for op in module.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations:
            if op.name == "ge.relu":
                raise PassFailure("relu is not allowed here", at=op)


@register_pass
class _Crashes(Pass):
    name = "ge-test-internal-error"
    summary = "test pass with a Python bug"
    stage = "before-lowering"

    def run(self, module):
        return 1 / 0


def test_pass_failure_becomes_located_error(ctx):
    module = ge_mlir.parse_module(GOOD)
    with pytest.raises(PassFailedError) as info:
        ge_mlir.run_pipeline(module, "ge-test-always-fail")
    diag = info.value.diagnostics[0]
    assert "ge-test-always-fail: relu is not allowed here" in diag.message
    assert diag.location.endswith(":3:8")


def test_python_exception_in_pass_does_not_escape(ctx):
    module = ge_mlir.parse_module(GOOD)
    with pytest.raises(PassFailedError, match="internal error: ZeroDivisionError"):
        ge_mlir.run_pipeline(module, "ge-test-internal-error")


def test_ir_printing_does_not_abort_with_threads(ctx, capfd):
    # MLIR aborts if IR printing is enabled on a multithreaded context; the
    # pipeline builder turns threading off first.
    module = ge_mlir.parse_module(GOOD)
    ge_mlir.run_pipeline(module, "ge-canonicalize", print_ir_after_all=True)
    assert "IR Dump After GeCanonicalizePass" in capfd.readouterr().err
