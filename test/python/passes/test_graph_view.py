"""The graph view for pass authors (ge_mlir.passes.graph_view) and passes written on it.

Reading (names, ops, attrs, shapes, producers/users), every edit, the malformed edits refused
with GraphEditError (in a child process: no MLIR abort), registration (list_passes, pipelines,
the pass report, config), ge-bisect's rewrite budget, and the example passes of
examples/graph_passes.py compiled into a model and compared with onnxruntime.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import pytest
from mlir import ir
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.config import pass_modules as config_module
from ge_mlir.api import parse_module, run_pipeline
from ge_mlir.errors import GraphEditError, PassFailedError
from ge_mlir.irutils.patterns import rewrite_budget
from ge_mlir.passes import GraphPass, GraphView, graph_pass, graphs, list_passes, register_pass, registry
from ge_mlir.passes.graph_view import friendly_name

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "graph_passes.py"

GRAPH = """
func.func @main(%x: tensor<2x3xf32> {onnx.name = "x"}, %w: tensor<3x4xf32> {onnx.name = "w"})
    -> (tensor<6xf32> {onnx.name = "y"}, tensor<2x4xf32> {onnx.name = "z"}) {
  %one = ge.constant dense<1.0> : tensor<f32> loc(fused<"Constant">["one"])
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<6xf32> loc(fused<"Reshape">["r1"])
  %1 = ge.reshape %0 : tensor<6xf32> to tensor<6xf32> loc(fused<"Reshape">["r2"])
  %2 = ge.leaky_relu %1 {alpha = 0.25 : f32} : tensor<6xf32> loc(fused<"LeakyRelu">["act"])
  %3 = ge.mul %2, %one : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32> loc(fused<"Mul">["mul"])
  %4 = ge.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> loc(fused<"MatMul">["mm"])
  %5 = ge.transpose %4 {perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32> loc("t")
  %6 = ge.transpose %5 {perm = array<i64: 1, 0>} : (tensor<4x2xf32>) -> tensor<2x4xf32> loc("t2")
  return %3, %6 : tensor<6xf32>, tensor<2x4xf32>
}
"""


@pytest.fixture
def graph(ctx):
    module = parse_module(GRAPH)
    (g,) = graphs(module)
    yield g
    g.verify()  # every test leaves valid IR


@pytest.fixture
def isolated_registry(monkeypatch):
    """Passes registered (and pass module files loaded) during the test vanish afterwards."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(config_module, "_LOADED_PATHS", {})
    monkeypatch.delenv("GE_MLIR_PASS_MODULES", raising=False)
    yield


def _load_examples():
    spec = importlib.util.spec_from_file_location(f"graph_passes_{id(object())}", EXAMPLES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- reading -----------------------------------------------------------------------------------


def test_reads_nodes_names_attrs_shapes(graph):
    assert graph.name == "main"
    assert [n.op for n in graph.nodes] == ["Constant", "Reshape", "Reshape", "LeakyRelu", "Mul", "MatMul",
                                          "Transpose", "Transpose"]
    assert [n.name for n in graph.nodes] == ["one", "r1", "r2", "act", "mul", "mm", "t", "t2"]
    assert graph.input_names == ["x", "w"] and graph.output_names == ["y", "z"]
    x, w = graph.inputs
    assert (x.name, x.shape, x.dtype, x.numpy_dtype) == ("x", (2, 3), "f32", np.dtype(np.float32))
    assert x.is_input and x.producer is None and x.index == 0 and not x.is_output
    assert [u.name for u in x.users] == ["r1", "mm"]
    y, z = graph.outputs
    assert y.producer is graph.node("mul") and y.is_output and y.shape == (6,)

    act = graph.node("act")
    assert (act.ge_op, act.onnx_op) == ("ge.leaky_relu", "LeakyRelu")
    assert act.attrs["alpha"] == pytest.approx(0.25) and dict(act.attrs) == {"alpha": pytest.approx(0.25)}
    assert act.inputs[0].producer is graph.node("r2") and [u.name for u in act.users] == ["mul"]
    assert graph.node("t").attrs["perm"] == [1, 0]
    one = graph.node("one").attrs["value"]
    assert isinstance(one, np.ndarray) and one.dtype == np.float32 and one.shape == () and one == 1.0
    assert graph.node("mm").op == "MatMul" and graph.node("t2").is_output and graph.node("t").unused is False
    assert [n.name for n in graph.find("Reshape")] == ["r1", "r2"] == [n.name for n in graph.find("ge.reshape")]
    assert "perm" in graph.node("t").attrs and len(graph.node("mul").attrs) == 0
    with pytest.raises(LookupError, match="no node named 'r3'; did you mean 'r2', 'r1'"):
        graph.node("r3")
    assert repr(graph) == "<GraphView @main: 8 nodes, 2 inputs, 2 outputs>"


def test_friendly_names():
    assert friendly_name("ge.reshape") == "Reshape"
    assert friendly_name("ge.batch_norm") == "BatchNorm"
    assert friendly_name("ge.conv2d") == "Conv2D"
    assert friendly_name("ge.max_pool2d") == "MaxPool2D"
    assert friendly_name("ge.matmul") == "MatMul"
    assert friendly_name("ge.trans_data") == "TransData"
    assert friendly_name("arith.constant") == "arith.constant"


# --- editing -----------------------------------------------------------------------------------


def test_set_input_and_remove(graph):
    r1, r2 = graph.node("r1"), graph.node("r2")
    r2.set_input(0, graph.inputs[0])
    assert r2.inputs[0] == graph.inputs[0] and r1.unused
    r1.remove()
    assert r1.removed and [n.name for n in graph.nodes][:3] == ["one", "r2", "act"]
    assert graph.counts == {"rewrites": 1, "inputs-set": 1, "nodes-removed": 1}
    with pytest.raises(GraphEditError, match="node 'r1' \\(Reshape\\) was removed from the graph"):
        r1.inputs  # noqa: B018


def test_nodes_snapshot_skips_removed(graph):
    seen = []
    for node in graph.nodes:
        seen.append(node.name)
        if node.name == "t":
            graph.node("t2").replace_with(graph.node("mm"))  # removes t2, later in the snapshot
            node.remove()
    assert seen == ["one", "r1", "r2", "act", "mul", "mm", "t"]
    assert [n.name for n in graph.nodes][-1] == "mm" and graph.outputs[1].producer.name == "mm"


def test_replace_all_uses_with_keeps_the_replacements_own_use(graph):
    mm = graph.node("mm")
    relu = mm.insert_after("Relu", [mm.output], name="mm_relu")
    mm.replace_all_uses_with(relu)  # relu itself still reads mm
    assert relu.inputs[0].producer is mm and [u.name for u in mm.users] == ["mm_relu"]
    assert graph.node("t").inputs[0].producer is relu
    assert relu.location == ir.Location.fused([ir.Location.name("mm_relu")], ir.StringAttr.get("Relu"))


def test_value_replace_all_uses_with_reaches_outputs(graph):
    mul = graph.node("mul")
    mul.output.replace_all_uses_with(graph.node("act").output)
    assert graph.outputs[0].producer.name == "act" and mul.unused


def test_create_infers_types_and_places_after_inputs(graph):
    t = graph.create("Transpose", [graph.inputs[0]], {"perm": [1, 0]})
    assert t.output.shape == (3, 2) and t.name == "x/Transpose" and graph.nodes[0] is t
    again = graph.create("transpose", [graph.inputs[0]], {"perm": [1, 0]})
    assert again.name == "x/Transpose_1"
    add = graph.create("ge.add", [graph.node("mm"), graph.node("t2")], name="sum")
    names = [n.name for n in graph.nodes]
    assert names.index("sum") == names.index("t2") + 1 and add.output.shape == (2, 4)
    r = graph.create("Reshape", [graph.inputs[0]], result_types=[((3, 2), "f32")])
    assert r.output.type == ir.RankedTensorType.get([3, 2], ir.F32Type.get())
    c = graph.create("Concat", [graph.inputs[0], graph.inputs[0]], {"axis": 0})
    assert c.output.shape == (4, 3) and len(c.inputs) == 2
    c2 = graph.create("Concat", {"inputs": [graph.inputs[0]] * 3}, {"axis": 1})
    assert c2.output.shape == (2, 9)
    for n in (t, again, add, r, c, c2):
        n.remove()


def test_create_with_optional_operands_and_enum_attrs(ctx):
    module = parse_module("""
    func.func @conv(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x2x5x5xf32> {
      return %x : tensor<1x2x5x5xf32>
    }""")
    (g,) = graphs(module)
    x, w, b = g.inputs
    conv = g.create("Conv2D", [x, w, b], {"pads": [1, 1, 1, 1], "activation": "relu"}, name="conv")
    assert conv.output.shape == (1, 4, 5, 5) and len(conv.inputs) == 3
    assert conv.attrs["activation"] == "relu" and conv.attrs["pads"] == [1, 1, 1, 1]
    assert "operandSegmentSizes" not in conv.attrs
    plain = g.create("Conv2D", {"input": x, "filter": w})
    assert len(plain.inputs) == 2 and plain.output.shape == (1, 4, 3, 3)
    conv.attrs["activation"] = "sigmoid"
    assert conv.attrs["activation"] == "sigmoid"
    del conv.attrs["activation"]
    assert "activation" not in conv.attrs
    c = g.constant(np.arange(4, dtype=np.float32), name="c4")
    assert c.attrs["value"].tolist() == [0, 1, 2, 3] and g.nodes[0] is c
    assert g.constant(0.5).output.type == ir.RankedTensorType.get([], ir.F32Type.get())
    assert g.constant([1, 2]).output.dtype == "i64"
    g.verify()
    assert g.eliminate_dead_code() == 5 and len(g) == 0


def test_attrs_write_and_own_dotted_attributes(graph):
    act = graph.node("act")
    act.attrs["alpha"] = 0.5
    act.attrs["my.tag"] = "keep"
    act.attrs["my.level"] = 3
    assert act.attrs["alpha"] == 0.5 and act.attrs["my.tag"] == "keep" and act.attrs["my.level"] == 3
    del act.attrs["my.tag"]
    assert "my.tag" not in act.attrs
    assert graph.counts["attrs-set"] == 4


def test_graph_pass_class_form(ctx, isolated_registry):
    @register_pass
    class CountNodes(GraphPass):
        name = "ge-test-graph-count"
        summary = "counts nodes"
        stage = "after-import"

        def transform(self, graph: GraphView):
            self.bump("nodes", len(graph))

    module = parse_module(GRAPH)
    run_pipeline(module, "builtin.module(ge-test-graph-count)")


# --- malformed edits: refused, never an abort ---------------------------------------------------

MALFORMED = textwrap.dedent(
    '''
    import sys
    import ge_mlir
    from mlir import ir
    from ge_mlir.api import parse_module
    from ge_mlir.errors import GraphEditError
    from ge_mlir.passes import graphs

    GRAPH = sys.argv[1]
    OTHER = """func.func @other(%a: tensor<6xf32>) -> tensor<6xf32> {
      %0 = ge.relu %a : tensor<6xf32> loc("other_relu")
      return %0 : tensor<6xf32>
    }"""
    with ir.Context(), ir.Location.unknown():
        module = parse_module(GRAPH)
        before = str(module)
        other_module = parse_module(OTHER)
        (g,) = graphs(module)
        (other,) = graphs(other_module)
        n = g.node
        x, w = g.inputs
        doomed = g.create("Relu", [n("r2")], name="doomed")
        doomed_out = doomed.output
        doomed.remove()
        with ir.Context() as ctx2, ir.Location.unknown():
            far = parse_module(OTHER)
            (far_graph,) = graphs(far)
            far_value = far_graph.inputs[0].mlir
        cases = {
            "remove-used": lambda: n("r1").remove(),
            "remove-output": lambda: n("t2").remove(),
            "replace-other-type": lambda: n("r1").replace_all_uses_with(x),
            "replace-defined-later": lambda: n("r1").replace_all_uses_with(n("mul")),
            "replace-count": lambda: n("r1").replace_all_uses_with([x, w]),
            "replace-with-own-user": lambda: n("r2").replace_with(n("act")),
            "set-input-index": lambda: n("act").set_input(3, x),
            "set-input-later": lambda: n("r2").set_input(0, n("act").output),
            "set-input-self": lambda: n("r2").set_input(0, n("r2").output),
            "set-input-invalid": lambda: n("t").set_input(0, n("r1").output),
            "attr-type": lambda: n("act").attrs.__setitem__("alpha", "big"),
            "attr-none": lambda: n("act").attrs.__setitem__("alpha", None),
            "attr-verifier": lambda: n("t").attrs.__setitem__("perm", [1, 1]),
            "attr-changes-result-type": lambda: n("t").attrs.__setitem__("perm", [0, 1]),
            "attr-unknown": lambda: n("act").attrs.__setitem__("slope", 0.1),
            "attr-delete-required": lambda: n("t").attrs.__delitem__("perm"),
            "attr-structural": lambda: n("mm").attrs.__setitem__("operandSegmentSizes", [1, 1, 0]),
            "attr-enum": lambda: g.node("mm").attrs.__setitem__("activation", "bogus"),
            "attr-int-overflow": lambda: g.create("Concat", [x], {"axis": 2**70}),
            "create-unknown-op": lambda: g.create("Frobnicate", [x]),
            "create-missing-attr": lambda: g.create("Transpose", [x]),
            "create-missing-input": lambda: g.create("Add", [x]),
            "create-too-many-inputs": lambda: g.create("Relu", [x, x]),
            "create-unknown-attr": lambda: g.create("Relu", [x], {"alpha": 1.0}),
            "create-incompatible-shapes": lambda: g.create("Add", [x, w]),
            "create-no-result-type": lambda: g.create("Reshape", [x]),
            "create-bad-result-type": lambda: g.create("Reshape", [x], result_types=[((7,), "f32")]),
            "create-other-function": lambda: g.create("Relu", [other.inputs[0]]),
            "create-raw-other-function": lambda: g.create("Relu", [other.inputs[0].mlir]),
            "create-other-context": lambda: g.create("Relu", [far_value]),
            "create-input-later": lambda: g.insert_before(n("r1"), "Relu", [n("r2")]),
            "create-not-a-value": lambda: g.create("Relu", ["x"]),
            "insert-other-graph": lambda: g.insert_before(other.node("other_relu"), "Relu", [x]),
            "removed-output": lambda: n("act").set_input(0, doomed_out),
            "removed-node": lambda: doomed.set_input(0, x),
            "constant-dtype": lambda: g.constant(["a"]),
        }
        only = sys.argv[2:]
        for name, case in cases.items():
            if only and name not in only:
                continue
            try:
                case()
            except GraphEditError as e:
                print(f"refused {name}: {str(e).splitlines()[0]}")
            else:
                print(f"ACCEPTED {name}")
        g.verify()
        print("unchanged" if str(module) == before else "CHANGED\\n" + str(module))
    '''
)

EXPECTED_REFUSALS = {
    "remove-used": "cannot remove node 'r1' (Reshape): its output is still used by node 'r2' (Reshape)",
    "remove-output": "cannot remove node 't2' (Transpose): its output is still used by a graph output",
    "replace-other-type": "the replacement has type tensor<2x3xf32> and the uses expect tensor<6xf32>",
    "replace-defined-later": "the replacement is computed by node 'mul' (Mul), after node 'r2' (Reshape) that reads it",
    "replace-count": "it has 1 output(s), the replacement 2",
    "replace-with-own-user": "cannot replace node 'r2' (Reshape) with a value computed from it",
    "set-input-index": "cannot set input 3 of node 'act' (LeakyRelu): it has 1 input(s)",
    "set-input-later": "the value is computed by node 'act' (LeakyRelu), which comes after it",
    "set-input-self": "the value is computed by the node itself",
    "set-input-invalid": "setting input 0 of node 't' (Transpose) to a tensor<6xf32>: refused, the op does not verify (undone)",
    "attr-type": "cannot set attribute 'alpha' of node 'act' (LeakyRelu): expected a number, got str 'big'",
    "attr-none": "None is not an attribute value",
    "attr-verifier": "setting attribute 'perm' of node 't' (Transpose): refused, the op does not verify (undone)",
    "attr-changes-result-type": "setting attribute 'perm' of node 't' (Transpose): refused, the op does not verify",
    "attr-unknown": "node 'act' (LeakyRelu) has no attribute 'slope' (attributes: alpha)",
    "attr-delete-required": "cannot delete attribute 'perm' of node 't' (Transpose): the op requires it",
    "attr-structural": "attribute 'operandSegmentSizes' encodes the op's operands",
    "attr-enum": "cannot set attribute 'activation' of node 'mm' (MatMul)",
    "attr-int-overflow": "does not fit in 64 bits",
    "create-unknown-op": "unknown ge op 'Frobnicate'",
    "create-missing-attr": "Transpose requires attribute(s) 'perm'",
    "create-missing-input": "input 'rhs' is missing (Add takes lhs, rhs)",
    "create-too-many-inputs": "Relu takes at most 1 input(s) (input), got 2",
    "create-unknown-attr": "Relu has no attribute 'alpha'",
    "create-incompatible-shapes": "cannot create a new Add node: MLIR refused it",
    "create-no-result-type": "Reshape does not infer its result type; pass result_types=[type]",
    "create-bad-result-type": "refused, the op does not verify (undone)",
    "create-other-function": "belongs to graph @other, not to @main",
    "create-raw-other-function": "the value is an argument of another function or block, not of @main",
    "create-other-context": "the value belongs to another MLIR context",
    "create-input-later": "cannot create a new Relu node before node 'r1' (Reshape): its input computed by node 'r2' (Reshape) comes later",
    "create-not-a-value": "expected a Value or Node of @main, got str 'x'",
    "insert-other-graph": "belongs to graph @other, not to this view of @main",
    "removed-output": "the value is an output of node 'doomed' (Relu), which was removed from the graph",
    "removed-node": "node 'doomed' (Relu) was removed from the graph",
    "constant-dtype": "cannot create a constant from a <U1 array in @main",
}


def test_malformed_edits_are_refused_without_abort():
    """Each edit would leave invalid IR (several would abort the process inside MLIR): all are
    refused with GraphEditError naming the node and the reason, and the module is unchanged."""
    proc = subprocess.run([sys.executable, "-c", MALFORMED, GRAPH], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "unchanged", proc.stdout
    got = {line.split(" ", 2)[1].rstrip(":"): line for line in lines[:-1]}
    assert set(got) == set(EXPECTED_REFUSALS)
    for name, text in EXPECTED_REFUSALS.items():
        assert got[name].startswith(f"refused {name}: "), got[name]
        assert text in got[name], (name, got[name])


def test_refusal_carries_node_op_and_diagnostics(graph):
    with pytest.raises(GraphEditError) as info:
        graph.node("t").attrs["perm"] = [1, 1]
    err = info.value
    assert (err.node, err.op) == ("t", "ge.transpose")
    assert any("is not a permutation" in d.message for d in err.diagnostics)
    assert graph.node("t").attrs["perm"] == [1, 0]  # undone


# --- as passes: registry, pipelines, report, config, budget, bisect --------------------------------


def test_example_passes_register_like_any_pass(ctx, isolated_registry):
    examples = _load_examples()
    cls = examples.drop_double_reshape.pass_class
    assert issubclass(cls, GraphPass) and registry.get_pass("ge-drop-double-reshape") is cls
    assert (cls.stage, cls.priority) == ("after-import", 50)
    listed = [p.name for p in list_passes("after-import")]
    assert listed.index("ge-eliminate-redundant") < listed.index("ge-drop-double-reshape") \
        < listed.index("ge-fold-neutral-arith")
    assert "--ge-drop-double-reshape  -  reshape(reshape(x, s), s)" in cls.describe()

    from ge_mlir.passes.pipeline import run_elements
    from ge_mlir.passes.report import PassReport, instrument
    from ge_mlir.passes import parse_pipeline

    module = parse_module(GRAPH)
    report = PassReport()
    run_elements(module, instrument(parse_pipeline("builtin.module(ge-drop-double-reshape, ge-fold-neutral-arith)"),
                                    report))
    assert report["ge-drop-double-reshape"].rewrites == 1
    assert report["ge-drop-double-reshape"].stats == {"rewrites": 1, "inputs-set": 1, "nodes-removed": 1}
    assert report["ge-fold-neutral-arith"].rewrites == 1
    assert report["ge-fold-neutral-arith"].ops_after == report["ge-drop-double-reshape"].ops_after - 2
    (g,) = graphs(module)
    assert [n.name for n in g.nodes] == ["r2", "act", "mm", "t", "t2"]
    assert g.outputs[0].producer.name == "act"


def test_pass_failure_is_a_located_pass_error(ctx, isolated_registry):
    @graph_pass(name="ge-test-graph-bad-remove", stage="after-import")
    def bad_remove(graph):
        graph.node("r1").remove()

    module = parse_module(GRAPH)
    before = str(module)
    with pytest.raises(PassFailedError) as info:
        run_pipeline(module, "builtin.module(ge-test-graph-bad-remove)")
    (diag,) = info.value.diagnostics
    assert diag.message.startswith("ge-test-graph-bad-remove: graph edit refused: cannot remove node 'r1' (Reshape)")
    assert diag.location == 'loc(fused<"Reshape">["r1"])'  # the node's location
    assert str(module) == before


def test_graph_pass_options_and_default_pipeline(ctx, isolated_registry):
    from ge_mlir.passes import Option
    from ge_mlir.optimize.default_pipeline import default_pipeline

    @graph_pass(name="ge-test-graph-scale-alpha", stage="after-builtin-fusion", priority=7,
                options=(Option("factor", float, 2.0, "multiplier"),))
    def scale_alpha(graph, pass_):
        """Scales every LeakyRelu's alpha."""
        for node in graph.find("LeakyRelu"):
            node.attrs["alpha"] = node.attrs["alpha"] * pass_.opt("factor")

    assert scale_alpha.pass_class.summary == "Scales every LeakyRelu's alpha."
    module = parse_module(GRAPH)
    run_pipeline(module, "builtin.module(ge-test-graph-scale-alpha{factor=3})")
    assert graphs(module)[0].node("act").attrs["alpha"] == pytest.approx(0.75)
    # ge-test-* passes stay out of default pipelines; a normal name joins them, configurable.
    @graph_pass(name="ge-scale-alpha-twice", stage="after-builtin-fusion", priority=7)
    def twice(graph):
        pass

    assert "ge-scale-alpha-twice" in default_pipeline("cpu", {}).text
    assert "ge-scale-alpha-twice" not in default_pipeline(
        "cpu", {"passes": {"ge-scale-alpha-twice": {"enabled": False}}}).text


def test_rewrite_budget_limits_and_records_graph_edits(ctx, isolated_registry):
    examples = _load_examples()  # noqa: F841 - registers the passes
    text = """
    func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
      %one = ge.constant dense<1.0> : tensor<3xf32> loc("one")
      %zero = ge.constant dense<0.0> : tensor<3xf32> loc("zero")
      %0 = ge.mul %x, %one : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> loc(fused<"Mul">["m"])
      %1 = ge.add %0, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> loc(fused<"Add">["a"])
      %2 = ge.neg %1 : tensor<3xf32> loc("n")
      return %1, %2 : tensor<3xf32>, tensor<3xf32>
    }"""
    with rewrite_budget(None) as unlimited:
        full = parse_module(text)
        run_pipeline(full, "builtin.module(ge-fold-neutral-arith)")
    assert [(r.pattern, r.node_name, r.op_name) for r in unlimited.records] == [
        ("fold_neutral_arith", "m", "ge.mul"), ("fold_neutral_arith", "a", "ge.add")]
    with rewrite_budget(1) as one:
        limited = parse_module(text)
        run_pipeline(limited, "builtin.module(ge-fold-neutral-arith)")
    assert [r.node_name for r in one.records] == ["m"]
    (g,) = graphs(limited)
    assert [n.name for n in g.nodes] == ["zero", "a", "n"]  # the add stays, and its constant
    with rewrite_budget(0):
        none = parse_module(text)
        run_pipeline(none, "builtin.module(ge-fold-neutral-arith)")
    assert str(none) == str(parse_module(text))


BROKEN_GRAPH_PASS = textwrap.dedent(
    '''
    from ge_mlir.passes import graph_pass


    @graph_pass(name="ge-bisect-graph-broken-add", stage="after-import", priority=60)
    def commute_adds(graph):
        """add(x, c) -> add(c, x) (harmless), but sub(x, c) at node add_b (wrong)."""
        for node in graph.find("Add"):
            x, c = node.inputs
            if c.producer is not None and c.producer.op == "Constant":
                op = "Sub" if node.name == "add_b" else "Add"
                new = node.insert_after(op, [x, c] if op == "Sub" else [c, x], name=node.name)
                node.replace_with(new)
        return graph
    '''
)


def _bisect_model() -> onnx.ModelProto:
    rng = np.random.default_rng(3)
    inits, nodes, prev = [], [], "x"
    for tag in "abc":
        inits.append(numpy_helper.from_array(rng.standard_normal((4,)).astype(np.float32) + 1.0, f"c_{tag}"))
        nodes.append(helper.make_node("Add", [prev, f"c_{tag}"], [f"t_{tag}"], name=f"add_{tag}"))
        nodes.append(helper.make_node("Tanh", [f"t_{tag}"], [f"u_{tag}"], name=f"tanh_{tag}"))
        prev = f"u_{tag}"
    nodes[-1].output[0] = "y"
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_bisect_names_the_graph_pass_and_node(isolated_registry, tmp_path):
    from ge_mlir.tools.ge_bisect import bisect

    module_path = tmp_path / "broken_graph_pass.py"
    module_path.write_text(BROKEN_GRAPH_PASS)
    model_path = tmp_path / "model.onnx"
    onnx.save(_bisect_model(), str(model_path))
    result = bisect(str(model_path), pass_modules=[str(module_path)])
    assert result.diverged and result.first_bad_pass == "ge-bisect-graph-broken-add"
    assert result.rewrites_total == 3
    bad = result.first_bad_rewrite
    assert (bad.node_name, bad.op_name, bad.pattern) == ("add_b", "ge.add", "commute_adds")


# --- numerics of a compiled model with the example passes in the pipeline ---------------------------


def _numerics_model() -> onnx.ModelProto:
    """Conv -> Reshape(1x4x36 -> 1x144) -> Reshape(same shape) -> Mul(1) -> Add(0) -> MatMul -> Relu."""
    rng = np.random.default_rng(7)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3
    fc = rng.standard_normal((144, 10)).astype(np.float32) * 0.1
    inits = [
        numpy_helper.from_array(w, "w"),
        numpy_helper.from_array(fc, "fc"),
        numpy_helper.from_array(np.array([1, 144], dtype=np.int64), "flat"),
        numpy_helper.from_array(np.ones((1, 144), dtype=np.float32), "ones"),
        numpy_helper.from_array(np.zeros((144,), dtype=np.float32), "zeros"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[0, 0, 0, 0]),
        helper.make_node("Reshape", ["c", "flat"], ["r1"], name="reshape_1"),
        helper.make_node("Reshape", ["r1", "flat"], ["r2"], name="reshape_2"),
        helper.make_node("Mul", ["r2", "ones"], ["m"], name="times_one"),
        helper.make_node("Add", ["zeros", "m"], ["a"], name="plus_zero"),
        helper.make_node("MatMul", ["a", "fc"], ["mm"], name="fc"),
        helper.make_node("Relu", ["mm"], ["y"], name="relu"),
    ]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_compiled_model_with_example_passes_matches_onnxruntime(isolated_registry):
    ort = pytest.importorskip("onnxruntime")
    model = _numerics_model()
    # The built-in after-import passes (and ge-fold-constants' folders) would catch these first:
    # switched off so that the user passes do the work.
    config = {
        "passModules": [str(EXAMPLES)],
        "passes": {name: {"enabled": False}
                   for name in ("ge-canonicalize", "ge-fold-constants", "ge-eliminate-redundant")},
    }
    compiled = ge_mlir.compile(model, "cpu", {"config": config})
    report = compiled.pass_report
    assert report["ge-drop-double-reshape"].rewrites == 1
    assert report["ge-fold-neutral-arith"].rewrites == 2
    optimized = compiled.ir("optimized")
    assert optimized.count("ge.reshape") == 1 and "ge.mul" not in optimized and "ge.add" not in optimized
    x = np.random.default_rng(0).standard_normal((1, 3, 8, 8)).astype(np.float32)
    (got,) = compiled(x)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (want,) = sess.run(None, {"x": x})
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_refused_edit_is_not_counted(graph):
    with rewrite_budget(None) as budget:
        with pytest.raises(GraphEditError):
            graph.node("t").set_input(0, graph.node("r1").output)
        with pytest.raises(GraphEditError):
            graph.node("act").attrs["alpha"] = "x"
        graph.node("act").attrs["alpha"] = 0.5
    assert graph.counts == {"rewrites": 1, "attrs-set": 1}
    assert [(r.pattern, r.node_name) for r in budget.records] == [("graph-view", "act")]
