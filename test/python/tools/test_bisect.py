"""ge-bisect: finds the pass and the rewrite site that break numerics."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from ge_mlir.irutils.patterns import RewriteRecord, rewrite_budget
from ge_mlir.passes import registry
from ge_mlir.tools.ge_bisect import bisect, compare, main

BROKEN_PASS = "ge-fuse-bisect-broken-add"

# A user fusion pass: add(x, c) -> add(c, x) (harmless) at every add with a
# constant right operand, except at the node named "add_b", where it writes
# sub(x, c) (wrong).
BROKEN_PASS_MODULE = textwrap.dedent(
    f'''
    from mlir import ir

    from ge_mlir.passes import FusionPattern, fusion_pass


    @fusion_pass(name="{BROKEN_PASS}", summary="commute add(x, c); broken at add_b", priority=10)
    class CommuteAddConst(FusionPattern):
        root = "ge.add"

        def match(self, op):
            c = self.producer(op.operands[1])
            return c if c is not None and c.name == "ge.constant" else None

        def apply(self, op, rewriter, c):
            broken = '"add_b"' in str(op.location)
            name = "ge.sub" if broken else "ge.add"
            operands = [op.operands[0], op.operands[1]] if broken else [op.operands[1], op.operands[0]]
            with rewriter.ip:
                new = ir.Operation.create(name, results=[op.results[0].type], operands=operands,
                                          loc=op.location)
            rewriter.replace_op(op, new)
    '''
)


def _model() -> onnx.ModelProto:
    """x -> add_a(+c) -> relu -> add_b(+c) -> add_c(+c) -> tanh -> add_d(+c) -> y: four candidate sites."""
    rng = np.random.default_rng(1)
    inits, nodes = [], []
    prev = "x"
    for i, tag in enumerate("abcd"):
        c = f"c_{tag}"
        inits.append(numpy_helper.from_array(rng.standard_normal((4,)).astype(np.float32) + 1.0, c))
        out = f"t_{tag}"
        nodes.append(helper.make_node("Add", [prev, c], [out], name=f"add_{tag}"))
        prev = out
        if i in (0, 2):
            act = "Relu" if i == 0 else "Tanh"
            nodes.append(helper.make_node(act, [prev], [f"{prev}_act"], name=f"{act.lower()}_{tag}"))
            prev = f"{prev}_act"
    nodes[-1].output[0] = "y"
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])], initializer=inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture
def isolated_registry(monkeypatch):
    """Passes registered during the test vanish afterwards."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.delenv("GE_MLIR_PASS_MODULES", raising=False)
    yield


@pytest.fixture
def broken_module(tmp_path):
    path = tmp_path / "broken_passes.py"
    path.write_text(BROKEN_PASS_MODULE)
    return path


@pytest.fixture
def model_path(tmp_path):
    path = tmp_path / "model.onnx"
    onnx.save(_model(), str(path))
    return path


def test_clean_model_no_divergence(isolated_registry, model_path):
    result = bisect(str(model_path))
    assert not result.diverged
    assert result.first_bad_pass is None and result.first_bad_rewrite is None
    assert BROKEN_PASS not in result.pipeline
    assert "no divergence" in result.format()


def test_names_broken_pass_and_rewrite(isolated_registry, broken_module, model_path):
    result = bisect(str(model_path), pass_modules=[str(broken_module)])
    assert BROKEN_PASS in result.pipeline
    assert result.diverged and result.full.max_abs_error > 1e-3
    assert result.first_bad_pass == BROKEN_PASS
    assert result.pipeline[result.first_bad_pass_index - 1] == BROKEN_PASS
    # All four adds are rewritten, in some order; the bad one is add_b.
    assert result.rewrites_total == 4
    assert sorted(r.node_name for r in result.rewrites) == ["add_a", "add_b", "add_c", "add_d"]
    bad = result.first_bad_rewrite
    assert isinstance(bad, RewriteRecord)
    assert bad.node_name == "add_b" and bad.op_name == "ge.add" and bad.node_type == "Add"
    assert bad.pattern == "CommuteAddConst"
    assert result.rewrites[bad.index - 1].node_name == "add_b"
    # O(log n) compiles: full + pass search + rewrite search (+ verification).
    assert result.compiles <= 12
    text = result.format()
    assert f"first bad pass: {BROKEN_PASS} ({result.first_bad_pass_index} of {result.num_passes})" in text
    assert f"first bad rewrite: #{bad.index} at loc(fused<\"Add\">[\"add_b\"]) 'add_b' (op ge.add)" in text


def test_config_disabling_broken_pass(isolated_registry, broken_module, model_path):
    result = bisect(str(model_path), config={"passes": {BROKEN_PASS: {"enabled": False}}},
                    pass_modules=[str(broken_module)])
    assert not result.diverged and BROKEN_PASS not in result.pipeline


def test_given_inputs_and_tolerance(isolated_registry, broken_module, model_path, tmp_path):
    feeds = tmp_path / "in.npz"
    np.savez(feeds, x=np.zeros((2, 4), np.float32))
    result = bisect(str(model_path), inputs=str(feeds), pass_modules=[str(broken_module)])
    assert np.array_equal(result.inputs["x"], np.zeros((2, 4), np.float32))
    assert result.first_bad_rewrite.node_name == "add_b"
    # add_b is off by 2*c_b; a huge tolerance hides it.
    loose = bisect(str(model_path), atol=1e3, pass_modules=[str(broken_module)])
    assert not loose.diverged


def test_rewrite_budget_limits_fusion_patterns(isolated_registry, broken_module, model_path):
    import ge_mlir
    from ge_mlir.config import load_pass_modules

    load_pass_modules(None, environ={"GE_MLIR_PASS_MODULES": str(broken_module)})
    pipeline = f"builtin.module({BROKEN_PASS})"
    from mlir import ir

    from ge_mlir.compiler import load_graph
    from ge_mlir.config import CompileOptions

    def run(limit):
        with ir.Context(), ir.Location.unknown():
            module = load_graph(str(model_path), CompileOptions(), None)
            with rewrite_budget(limit) as budget:
                ge_mlir.run_pipeline(module, pipeline)
            return str(module), budget.records

    text, full = run(None)
    assert len(full) == 4 and text.count("ge.sub") == 1
    assert [r.index for r in full] == [1, 2, 3, 4]
    for limit in range(5):
        text, records = run(limit)
        # The first `limit` rewrites of the unlimited run, and only those.
        assert records == full[:limit]
        assert text.count("ge.sub") == int(any(r.node_name == "add_b" for r in records))
    with pytest.raises(ValueError), rewrite_budget(-1):
        pass


def test_compare_tolerances():
    a = np.ones((3,), np.float32)
    assert compare([a], [a + 1e-6], ["y"]).ok
    bad = compare([a], [a + 1e-2], ["y"])
    assert not bad.ok and bad.worst_output == "y" and bad.max_abs_error == pytest.approx(1e-2, rel=1e-3)
    assert compare([a], [a + 1e-2], ["y"], atol=0.1).ok
    assert not compare([np.array([1, 2])], [np.array([1, 3])], ["i"]).ok
    assert compare([np.array([np.nan], np.float32)], [np.array([np.nan], np.float32)], ["n"]).ok
    assert not compare([a], [a[:2]], ["y"]).ok


def test_cli_exit_codes(isolated_registry, broken_module, model_path, capsys):
    assert main([str(model_path)]) == 0
    assert "no divergence" in capsys.readouterr().out
    assert main([str(model_path), "--pass-modules", str(broken_module), "-v"]) == 3
    out = capsys.readouterr().out
    assert f"first bad pass: {BROKEN_PASS}" in out and "'add_b'" in out
    assert main([str(model_path.with_name("missing.onnx"))]) == 1
    assert main([str(model_path), "--config", str(model_path.with_name("missing.json"))]) == 1


def test_console_script(broken_module, model_path):
    env = dict(os.environ, GE_MLIR_PASS_MODULES=str(broken_module))
    exe = os.path.join(os.path.dirname(sys.executable), "ge-bisect")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "ge_mlir.tools.ge_bisect"]
    proc = subprocess.run([*cmd, str(model_path)], check=False, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3, proc.stderr
    assert "first bad rewrite: #" in proc.stdout and "'add_b'" in proc.stdout
