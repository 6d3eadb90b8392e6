"""Graph export (ge_mlir.graph, ge_mlir.export_graph): DOT, SVG, JSON, ONNX, stage diffs, dumps.

* DOT parses with pydot (and Graphviz when installed); SVG renders with Graphviz, or says how
  to get it;
* JSON validates against the schema of docs/graphs.md (the same dict as the code's);
* ONNX passes ``onnx.checker`` (full check) and gives onnxruntime the original model's outputs:
  on a model using 80 of the ge ops one by one (the importer's 1:1 mappings), on hand-written
  ge IR for the ops only the optimizer makes (fused epilogues, NHWC, trans_data, rsqrt, silu,
  rms_norm, shape, range) against the CPU target, and on every bench model of bench/models.py
  (optimized: fused conv/matmul epilogues expanded; DOT and JSON checked on them too);
* the stage diff, ge-bisect's use of it, ``ge-compile --dump-graph`` and ``GE_MLIR_DUMP_GRAPH``.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import ge_mlir
from ge_mlir.errors import GraphExportError
from ge_mlir.graph import SCHEMA, diff_graphs, export_graph, graph_of, to_onnx
from ge_mlir.graph.dot import GRAPHVIZ_HINT
from ge_mlir.graph.onnx_export import SUPPORTED_OPS

ROOT = Path(__file__).resolve().parents[3]
# pydot's grammar uses pyparsing names deprecated in pyparsing 3.3.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
HAVE_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAVE_DOT, reason=f"Graphviz is not installed: {GRAPHVIZ_HINT}")


def _resnet_block() -> onnx.ModelProto:
    spec = importlib.util.spec_from_file_location("make_resnet_block", ROOT / "examples" / "make_resnet_block.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build()


@pytest.fixture(scope="module")
def block():
    """The README's small ResNet block compiled to stage ``optimized`` (and its ONNX model)."""
    proto = _resnet_block()
    return proto, ge_mlir.compile(proto, compile_to="optimized", progress=False)


def _ort(model: onnx.ModelProto | bytes, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    data = model if isinstance(model, bytes) else model.SerializeToString()
    return ort.InferenceSession(data, so, providers=["CPUExecutionProvider"]).run(None, feeds)


def _check_close(names, want, got, rtol=1e-4, atol=1e-5):
    assert len(want) == len(got)
    for name, a, b in zip(names, want, got):
        assert a.shape == b.shape and a.dtype == b.dtype, (name, a.shape, a.dtype, b.shape, b.dtype)
        if a.dtype.kind in "fc":
            np.testing.assert_allclose(b, a, rtol=rtol, atol=atol, err_msg=name)
        else:
            np.testing.assert_array_equal(b, a, err_msg=name)


# --------------------------------------------------------------------------
# DOT and SVG
# --------------------------------------------------------------------------


def test_dot_of_the_optimized_block(block):
    import pydot

    _, model = block
    text = export_graph(model)  # default: stage optimized, format dot
    (g,) = pydot.graph_from_dot_data(text)
    labels = {n.get_name(): (n.get("label") or "") for n in g.get_nodes()}
    for sub in g.get_subgraphs():
        labels.update({n.get_name(): (n.get("label") or "") for n in sub.get_nodes()})
    # One node per op, named by its ONNX node and op type, key attributes shown.
    assert any("conv2d" in lab and "Conv_4 [Conv]" in lab and "strides=2,2" in lab for lab in labels.values())
    assert any("gemm" in lab and "trans_b=true" in lab and "b: 10x32 f32 (fc.w)" in lab for lab in labels.values())
    # Constants are folded into their users: no constant node, the weight's blob named in the conv's label.
    assert not any("constant" in lab for lab in labels.values())
    assert any("filter: 32x16x3x3 f32 (block.conv1.w_bnfold)" in lab for lab in labels.values())
    # Fused epilogues are clusters: the conv with bias + residual + relu of the block's skip path.
    clusters = [s.get("label") for s in g.get_subgraphs()]
    assert '"fused: conv2d + bias + residual + relu"' in clusters
    assert sum(1 for c in clusters if c and c.startswith('"fused: conv2d')) == 4
    # Edges carry shape and element type; the graph's I/O keep their ONNX names.
    assert re.search(r'-> n\d+ \[label="1x32 f32"\]', text)
    assert labels["n0"] == '"image\\n1x3x32x32 f32"'
    assert any(lab.startswith('"logits') for lab in labels.values())


def test_dot_ids_are_stable_and_text_is_reproducible(block):
    _, model = block
    assert export_graph(model, format="dot") == export_graph(model, format="dot")
    assert export_graph(model, format="json") == export_graph(model, format="json")


@needs_dot
def test_svg_of_the_optimized_block(block, tmp_path):
    _, model = block
    svg = export_graph(model, tmp_path / "block.svg")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "fused: conv2d + bias + residual + relu" in svg and "GlobalAveragePool_13" in svg
    assert (tmp_path / "block.svg").read_text() == svg


def test_svg_without_graphviz_says_how_to_get_it(block, monkeypatch):
    from ge_mlir.graph import dot as dot_mod

    monkeypatch.setattr(dot_mod.shutil, "which", lambda name: None)
    _, model = block
    with pytest.raises(GraphExportError, match="apt-get install graphviz"):
        export_graph(model, format="svg")


def test_readme_picture_is_this_code_s_output():
    """docs/resnet_block.optimized.svg is the SVG of the README's example (utils/gen-graph-picture.py):
    every label line of the DOT the code makes now is in it (robust to Graphviz versions)."""
    svg = (ROOT / "docs" / "resnet_block.optimized.svg").read_text()
    proto = _resnet_block()
    model = ge_mlir.compile(proto, compile_to="optimized", progress=False)
    dot = export_graph(model, format="dot")
    import html

    lines = set()
    for label in re.findall(r'label="((?:[^"\\]|\\.)*)"', dot):
        lines.update(x for x in label.replace('\\"', '"').split("\\n") if x and "ge_mlir" not in x)
    missing = [x for x in sorted(lines) if html.escape(x, quote=False) not in svg and x not in svg
               and not x.startswith(("resnet_block (optimized)",))]
    assert not missing, f"the README picture is stale (run python utils/gen-graph-picture.py): {missing[:5]}"


# --------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------


def _docs_schema() -> dict:
    text = (ROOT / "docs" / "graphs.md").read_text()
    m = re.search(r"<!-- graph-schema -->\s*```json\n(.*?)\n```", text, re.S)
    assert m, "docs/graphs.md has no schema block after <!-- graph-schema -->"
    return json.loads(m.group(1))


def test_schema_in_docs_is_the_code_s():
    assert _docs_schema() == SCHEMA


def test_json_validates_and_is_consistent(block):
    import jsonschema

    _, model = block
    doc = json.loads(export_graph(model, format="json"))
    jsonschema.validate(doc, SCHEMA)
    (fn,) = doc["functions"]
    nodes = {n["id"]: n for n in fn["nodes"]}
    tensors = {t["id"]: t for t in fn["tensors"]}
    for e in fn["edges"]:
        assert e["source"] in nodes and e["target"] in nodes and e["tensor"] in tensors
        assert nodes[e["target"]]["inputs"][e["target_index"]] == e["tensor"]
        assert tensors[e["tensor"]]["producer"] == e["source"]
    convs = [n for n in fn["nodes"] if n["op"] == "ge.conv2d"]
    assert [c["name"] for c in convs] == ["Conv_0", "Conv_4", "Conv_7", "Conv_9"]
    assert convs[-1]["fused"] == ["bias", "residual", "relu"] and convs[-1]["attributes"]["strides"] == [2, 2]
    assert convs[-1]["operand_names"] == ["input", "filter", "bias", "residual"]
    weights = [nodes[tensors[c["inputs"][1]]["producer"]] for c in convs]
    assert all(w["kind"] == "constant" and w["value"]["resource"].endswith("_bnfold") for w in weights)
    assert [nodes[i]["name"] for i in fn["inputs"]] == ["image"]
    assert tensors[nodes[fn["outputs"][0]]["inputs"][0]]["shape"] == [1, 10]


def test_json_of_a_lowered_stage_validates(tmp_path):
    import jsonschema

    model = ge_mlir.compile(_resnet_block(), compile_to="bufferized", progress=False)
    doc = json.loads(export_graph(model, format="json", stage="bufferized"))
    jsonschema.validate(doc, SCHEMA)
    ops = {n["op"] for f in doc["functions"] for n in f["nodes"]}
    assert "ge.conv2d" not in ops and any(op.startswith(("linalg.", "memref.")) for op in ops)
    with pytest.raises(GraphExportError, match="ONNX export reads ge graphs"):
        export_graph(model, format="onnx", stage="bufferized")


# --------------------------------------------------------------------------
# ONNX
# --------------------------------------------------------------------------


def kitchen_sink() -> onnx.ModelProto:
    """One ONNX model using most op types the importer maps 1:1 to ge ops; every branch is an output."""
    rng = np.random.default_rng(0)
    nodes, inits, outs = [], [], []

    def c(arr, dtype=np.float32):
        name = f"c{len(inits)}"
        inits.append(numpy_helper.from_array(np.asarray(arr, dtype=dtype), name))
        return name

    def n(op, ins, n_out=1, **kw):
        names = [f"{op}_{len(nodes)}_{i}" for i in range(n_out)]
        nodes.append(helper.make_node(op, ins, names, name=f"{op.lower()}_{len(nodes)}", **kw))
        return names[0] if n_out == 1 else names

    def out(t, dtype=TP.FLOAT):
        outs.append(helper.make_tensor_value_info(t, dtype, None))

    x = "x"
    pos = n("Add", [n("Abs", [x]), c(1.0)])
    for op in ("Abs", "Neg", "Exp", "Tanh", "Sigmoid", "Relu", "Erf", "Sin", "Cos", "Floor", "Ceil", "Round",
               "Sign", "Softplus", "HardSwish", "Identity"):
        out(n(op, [x]))
    for op in ("Log", "Sqrt", "Reciprocal"):
        out(n(op, [pos]))
    out(n("LeakyRelu", [x], alpha=0.2))
    out(n("HardSigmoid", [x], alpha=0.3, beta=0.4))
    out(n("Gelu", [x]))
    out(n("Gelu", [x], approximate="tanh"))
    out(n("Clip", [x, c(-0.5), c(0.5)]))
    out(n("CumSum", [x, c(2, np.int64)], exclusive=1))
    out(n("Softmax", [x], axis=1))
    out(n("LogSoftmax", [x], axis=-1))
    out(n("Cast", [x], to=TP.INT32), TP.INT32)
    y = c(rng.standard_normal(5))
    for op in ("Add", "Sub", "Mul", "Max", "Min"):
        out(n(op, [x, y]))
    out(n("Div", [x, pos]))
    out(n("Pow", [pos, c(2.0)]))
    out(n("Mod", [x, c(1.5)], fmod=1))
    eq = n("Equal", [n("Round", [x]), c(0.0)])
    lt = n("Less", [x, y])
    gt = n("Greater", [x, y])
    for t in (eq, lt, gt, n("LessOrEqual", [x, y]), n("GreaterOrEqual", [x, y]), n("Not", [gt])):
        out(t, TP.BOOL)
    for op in ("And", "Or", "Xor"):
        out(n(op, [lt, eq]), TP.BOOL)
    out(n("Where", [gt, x, n("Neg", [x])]))
    out(n("ReduceSum", [x, c([1], np.int64)], keepdims=0))
    out(n("ReduceMean", [x, c([2, 3], np.int64)]))
    out(n("ReduceMax", [x], keepdims=0))
    out(n("ReduceMin", [x, c([0], np.int64)]))
    out(n("ReduceProd", [x, c([3], np.int64)]))
    out(n("ReduceL2", [x, c([1], np.int64)]))
    am = n("ArgMax", [x], axis=1)
    out(am, TP.INT64)
    out(n("ArgMin", [x], axis=3, keepdims=0, select_last_index=1), TP.INT64)
    out(n("LayerNormalization", [x, c(rng.standard_normal(5)), c(rng.standard_normal(5))], axis=-1, epsilon=1e-3))
    out(n("BatchNormalization", [x, c(rng.standard_normal(3)), c(rng.standard_normal(3)),
                                 c(rng.standard_normal(3)), c(rng.uniform(0.5, 1.5, 3))]))
    out(n("InstanceNormalization", [x, c(rng.standard_normal(3)), c(rng.standard_normal(3))]))
    out(n("MatMul", [x, c(rng.standard_normal((5, 6)))]))
    flat = n("Reshape", [x, c([24, 5], np.int64)])
    out(flat)
    out(n("Gemm", [flat, c(rng.standard_normal((6, 5))), c(rng.standard_normal(6))], transB=1, alpha=0.5, beta=2.0))
    out(n("Conv", [x, c(rng.standard_normal((4, 3, 3, 3))), c(rng.standard_normal(4))], pads=[1, 1, 1, 1],
          strides=[1, 2]))
    out(n("Conv", [x, c(rng.standard_normal((3, 1, 2, 2)))], group=3, dilations=[2, 1]))
    out(n("ConvTranspose", [x, c(rng.standard_normal((3, 2, 3, 3))), c(rng.standard_normal(2))], strides=[2, 2],
          output_padding=[1, 0], pads=[1, 1, 1, 1]))
    out(n("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1))
    out(n("AveragePool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1))
    out(n("AveragePool", [x], kernel_shape=[2, 3], strides=[1, 2]))
    out(n("GlobalAveragePool", [x]))
    out(n("GlobalMaxPool", [x]))
    out(n("Resize", [x, "", c([1, 1, 2, 2])], mode="nearest"))
    out(n("Resize", [x, "", "", c([2, 3, 7, 9], np.int64)], mode="linear",
          coordinate_transformation_mode="align_corners"))
    out(n("Transpose", [x], perm=[0, 2, 3, 1]))
    out(n("Concat", [x, x], axis=1))
    for s in n("Split", [x, c([2, 3], np.int64)], n_out=2, axis=3):
        out(s)
    out(n("Slice", [x, c([1], np.int64), c([5], np.int64), c([3], np.int64), c([2], np.int64)]))
    out(n("Gather", [x, c([2, 0], np.int64)], axis=1))
    out(n("GatherElements", [x, c(rng.integers(0, 4, (2, 3, 4, 5)), np.int64)], axis=2))
    out(n("ScatterElements", [x, c(rng.integers(0, 5, (2, 3, 4, 2)), np.int64),
                              c(rng.standard_normal((2, 3, 4, 2)))], axis=3, reduction="add"))
    out(n("Expand", [n("ReduceMean", [x, c([2, 3], np.int64)]), c([2, 3, 4, 5], np.int64)]))
    out(n("Tile", [x, c([1, 2, 1, 1], np.int64)]))
    out(n("Pad", [x, c([0, 0, 1, 2, 0, 0, 1, 0], np.int64), c(0.5)]))
    out(n("Pad", [x, c([0, 0, 1, 1, 0, 0, 1, 1], np.int64)], mode="reflect"))
    out(n("Flatten", [x], axis=2))
    out(n("Squeeze", [n("ReduceMean", [x, c([2], np.int64)]), c([2], np.int64)]))
    out(n("Unsqueeze", [x, c([0], np.int64)]))
    out(n("OneHot", [am, c([4], np.int64), c([0.0, 1.0])], axis=-1))
    vals, inds = n("TopK", [x, c([2], np.int64)], n_out=2, axis=-1)
    out(vals)
    out(inds, TP.INT64)
    unit = n("Tanh", [x])
    for op in ("Acos", "Asin", "Atan"):
        out(n(op, [unit]))
    xi = n("Cast", [n("Mul", [n("Abs", [x]), c(40.0)])], to=TP.UINT8)
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
        out(n(op, [xi, c([5, 12, 200, 255, 17], np.uint8)]), TP.UINT8)
    out(n("BitwiseNot", [xi]), TP.UINT8)
    out(n("BitShift", [xi, c([0, 1, 3, 7, 2], np.uint8)], direction="LEFT"), TP.UINT8)
    out(n("BitShift", [xi, c([0, 1, 3, 7, 2], np.uint8)], direction="RIGHT"), TP.UINT8)
    graph = helper.make_graph(nodes, "kitchen_sink", [helper.make_tensor_value_info("x", TP.FLOAT, [2, 3, 4, 5])],
                              outs, initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=10)


def _ge_ops(text: str) -> set[str]:
    return set(re.findall(r"= (ge\.\w+)", text)) | set(re.findall(r"^\s*(ge\.\w+)", text, re.M))


def test_onnx_export_of_each_ge_op_the_importer_makes():
    proto = kitchen_sink()
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5)).astype(np.float32)
    want = _ort(proto, {"x": x})
    model = ge_mlir.compile(proto, compile_to="ge", progress=False)
    exported = onnx.load_from_string(export_graph(model, format="onnx", stage="ge"))
    onnx.checker.check_model(exported, full_check=True)
    assert {n.domain for n in exported.graph.node} == {""}
    assert [o.name for o in exported.graph.output] == [o.name for o in proto.graph.output]
    _check_close([o.name for o in proto.graph.output], want, _ort(exported, {"x": x}))
    # The nodes keep the ONNX node names.
    assert {"conv_64", "gemm_63", "topk_91"} <= {n.name for n in exported.graph.node}
    assert len(_ge_ops(model.ir("ge")) - {"ge.constant"}) >= 80


def _consts(rng, shape) -> str:
    values = json.dumps(np.round(rng.standard_normal(shape), 6).tolist())
    return f"dense<{values}> : tensor<{'x'.join(map(str, shape))}xf32>"


def _extras_ir() -> str:
    """ge ops the ONNX importer does not make (the optimizer and targets do)."""
    rng = np.random.default_rng(3)
    t = "tensor<2x3x4x5xf32>"
    tn = "tensor<2x4x5x3xf32>"
    return f"""
func.func @extras(%x: {t} {{onnx.name = "x"}}, %xn: {tn} {{onnx.name = "xn"}}, %rn: tensor<2x4x5x4xf32>)
    -> ({t}, {t}, {t}, {tn}, {t}, {tn}, tensor<6x20xf32>, tensor<2x4x5x4xf32>, tensor<2x4x4x5xf32>,
        tensor<2x3x4x6xf32>, tensor<6x7xf32>, tensor<2x3x4x6xf32>, tensor<6x7xf32>, tensor<2x3x4x3xf32>, {tn},
        tensor<2x1x1x3xf32>, tensor<3xi64>, tensor<5xf32>, tensor<2x3x4x6xf32>, tensor<2x4x4x5xf32>, {t},
        tensor<2x3xf32>, tensor<2x60xf32>) {{
  %abs = ge.abs %x : {t}
  %one = ge.constant dense<1.0> : tensor<f32>
  %pos = ge.add %abs, %one : ({t}, tensor<f32>) -> {t}
  %r = ge.rsqrt %pos : {t}
  %s = ge.silu %x : {t}
  %scale = ge.constant {_consts(rng, [5])}
  %rms = ge.rms_norm %x, %scale {{epsilon = 1.0e-03 : f32}} : ({t}, tensor<5xf32>) -> {t}
  %t1 = ge.trans_data %x {{dst_format = #ge.format<NHWC>, src_format = #ge.format<NCHW>}} : ({t}) -> {tn}
  %t2 = ge.trans_data %x {{dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>}} : ({t}) -> tensor<2x1x4x5x8xf32>
  %t3 = ge.trans_data %t2 {{dst_format = #ge.format<NCHW>, original_shape = array<i64: 2, 3, 4, 5>, src_format = #ge.format<NC1HWC0>}} : (tensor<2x1x4x5x8xf32>) -> {t}
  %t4 = ge.trans_data %xn {{dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NHWC>}} : ({tn}) -> tensor<2x1x4x5x8xf32>
  %t5 = ge.trans_data %t4 {{dst_format = #ge.format<NHWC>, original_shape = array<i64: 2, 4, 5, 3>, src_format = #ge.format<NC1HWC0>}} : (tensor<2x1x4x5x8xf32>) -> {tn}
  %m = ge.reshape %x : {t} to tensor<6x20xf32>
  %nz = ge.trans_data %m {{dst_format = #ge.format<FRACTAL_NZ>, src_format = #ge.format<ND>}} : (tensor<6x20xf32>) -> tensor<3x1x16x8xf32>
  %nd = ge.trans_data %nz {{dst_format = #ge.format<ND>, original_shape = array<i64: 6, 20>, src_format = #ge.format<FRACTAL_NZ>}} : (tensor<3x1x16x8xf32>) -> tensor<6x20xf32>
  %w = ge.constant {_consts(rng, [4, 3, 3, 3])}
  %b = ge.constant {_consts(rng, [4])}
  %c1 = ge.conv2d %xn, %w, %b residual(%rn) {{activation = #ge.act<leaky_relu>, activation_alpha = 3.000000e-01 : f32, data_format = #ge.format<NHWC>, pads = array<i64: 1, 1, 1, 1>}} : ({tn}, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32>
  %c2 = ge.conv2d %x, %w {{activation = #ge.act<hard_sigmoid>, activation_alpha = 2.500000e-01 : f32, pads = array<i64: 1, 1, 1, 1>}} : ({t}, tensor<4x3x3x3xf32>) -> tensor<2x4x4x5xf32>
  %w2 = ge.constant {_consts(rng, [5, 6])}
  %b2 = ge.constant {_consts(rng, [6])}
  %mm = ge.matmul %x, %w2, %b2 {{activation = #ge.act<gelu>}} : ({t}, tensor<5x6xf32>, tensor<6xf32>) -> tensor<2x3x4x6xf32>
  %w3 = ge.constant {_consts(rng, [7, 20])}
  %b3 = ge.constant {_consts(rng, [7])}
  %g = ge.gemm %m, %w3, %b3 {{activation = #ge.act<relu6>, alpha = 5.000000e-01 : f32, trans_b = true}} : (tensor<6x20xf32>, tensor<7x20xf32>, tensor<7xf32>) -> tensor<6x7xf32>
  %mm2 = ge.matmul %x, %w2 {{activation = #ge.act<silu>}} : ({t}, tensor<5x6xf32>) -> tensor<2x3x4x6xf32>
  %g2 = ge.gemm %m, %w3 {{activation = #ge.act<hard_swish>, trans_b = true}} : (tensor<6x20xf32>, tensor<7x20xf32>) -> tensor<6x7xf32>
  %ap = ge.avg_pool2d %xn {{data_format = #ge.format<NHWC>, kernel_shape = array<i64: 2, 2>}} : ({tn}) -> tensor<2x3x4x3xf32>
  %s3 = ge.constant {_consts(rng, [3])}
  %v3 = ge.constant dense<[0.5, 1.0, 1.5]> : tensor<3xf32>
  %bn = ge.batch_norm %xn, %s3, %s3, %s3, %v3 {{data_format = #ge.format<NHWC>}} : ({tn}, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> {tn}
  %gp = ge.global_avg_pool %xn {{data_format = #ge.format<NHWC>}} : ({tn}) -> tensor<2x1x1x3xf32>
  %sh = ge.shape %x {{start = 1 : i64}} : ({t}) -> tensor<3xi64>
  %st = ge.constant dense<0.0> : tensor<f32>
  %li = ge.constant dense<2.5> : tensor<f32>
  %de = ge.constant dense<0.5> : tensor<f32>
  %rg = ge.range %st, %li, %de : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  %mm3 = ge.matmul %x, %w2 {{activation = #ge.act<sigmoid>}} : ({t}, tensor<5x6xf32>) -> tensor<2x3x4x6xf32>
  %c3 = ge.conv2d %x, %w {{activation = #ge.act<tanh>, pads = array<i64: 1, 1, 1, 1>}} : ({t}, tensor<4x3x3x3xf32>) -> tensor<2x4x4x5xf32>
  %cp = ge.cumprod %pos {{axis = 3 : i64, exclusive = true, reverse = true}} : {t}
  %fs = ge.constant dense<[2, 3]> : tensor<2xi64>
  %fl = ge.fill %one, %fs : (tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  %rs = ge.constant dense<[0, -1]> : tensor<2xi64>
  %dr = ge.dynamic_reshape %x, %rs : ({t}, tensor<2xi64>) -> tensor<2x60xf32>
  return %r, %s, %rms, %t1, %t3, %t5, %nd, %c1, %c2, %mm, %g, %mm2, %g2, %ap, %bn, %gp, %sh, %rg, %mm3, %c3, %cp, %fl, %dr
    : {t}, {t}, {t}, {tn}, {t}, {tn}, tensor<6x20xf32>, tensor<2x4x5x4xf32>, tensor<2x4x4x5xf32>,
      tensor<2x3x4x6xf32>, tensor<6x7xf32>, tensor<2x3x4x6xf32>, tensor<6x7xf32>, tensor<2x3x4x3xf32>, {tn},
      tensor<2x1x1x3xf32>, tensor<3xi64>, tensor<5xf32>, tensor<2x3x4x6xf32>, tensor<2x4x4x5xf32>, {t},
      tensor<2x3xf32>, tensor<2x60xf32>
}}
"""


def test_onnx_export_of_fused_layout_and_optimizer_ops_matches_the_cpu_target():
    text = _extras_ir()
    model = ge_mlir.compile(text, options={"optimize": False}, progress=False)
    rng = np.random.default_rng(2)
    feeds = {s.name: rng.standard_normal(s.shape).astype(np.float32) for s in model.inputs}
    want = model(**feeds)
    exported = onnx.load_from_string(export_graph(text, format="onnx"))
    onnx.checker.check_model(exported, full_check=True)
    assert {n.domain for n in exported.graph.node} == {""}
    got = _ort(exported, feeds)
    _check_close(model.output_names, want, got, rtol=1e-4, atol=1e-4)
    ops = {n.op_type for n in exported.graph.node}
    assert {"Conv", "Transpose", "LeakyRelu", "HardSigmoid", "Gelu", "Clip", "HardSwish", "Pad", "Slice"} <= ops


def test_every_ge_op_is_exported_and_tested():
    doc = (ROOT / "docs" / "GeDialect.md").read_text()
    dialect_ops = set(re.findall(r"^### `(ge\.\w+)`", doc, re.M))
    assert len(dialect_ops) >= 88
    assert dialect_ops - {"ge.constant"} <= SUPPORTED_OPS, sorted(dialect_ops - SUPPORTED_OPS)
    exercised = _ge_ops(ge_mlir.compile(kitchen_sink(), compile_to="ge", progress=False).ir("ge")) | \
        _ge_ops(_extras_ir()) | _ge_ops(_BITCAST_IR) | _ge_ops(_GRADIENTS_IR)
    assert SUPPORTED_OPS - exercised == set(), sorted(SUPPORTED_OPS - exercised)


_GRADIENTS_IR = """
func.func @gradients(%w: tensor<16x4x3x3xf32>, %dy: tensor<2x16x4x4xf32>, %x: tensor<2x8x9x10xf32>,
                     %dp: tensor<2x3x4x5xf32>) -> (tensor<2x8x9x10xf32>, tensor<16x4x3x3xf32>, tensor<2x3x7x8xf32>) {
  %0 = ge.conv2d_backprop_input %w, %dy {dilations = array<i64: 1, 2>, groups = 2 : i64, input_size = array<i64: 2, 8, 9, 10>, pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>} : (tensor<16x4x3x3xf32>, tensor<2x16x4x4xf32>) -> tensor<2x8x9x10xf32>
  %1 = ge.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 2>, filter_size = array<i64: 16, 4, 3, 3>, groups = 2 : i64, pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>} : (tensor<2x8x9x10xf32>, tensor<2x16x4x4xf32>) -> tensor<16x4x3x3xf32>
  %2 = ge.avg_pool_grad %dp {ceil_mode = true, count_include_pad = false, input_size = array<i64: 2, 3, 7, 8>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x7x8xf32>
  return %0, %1, %2 : tensor<2x8x9x10xf32>, tensor<16x4x3x3xf32>, tensor<2x3x7x8xf32>
}
"""


def test_gradient_ops_export_as_their_exact_expansion():
    model = ge_mlir.compile(_GRADIENTS_IR, progress=False)
    rng = np.random.default_rng(5)
    feeds = {s.name: rng.standard_normal(s.shape).astype(np.float32) for s in model.inputs}
    want = model(**feeds)
    exported = onnx.load_from_string(export_graph(_GRADIENTS_IR, format="onnx"))
    onnx.checker.check_model(exported, full_check=True)
    assert {n.domain for n in exported.graph.node} == {""}
    _check_close(model.output_names, want, _ort(exported, feeds), rtol=1e-4, atol=1e-4)


_BITCAST_IR = """
func.func @bits(%x: tensor<2x3xf32> {onnx.name = "x"}) -> tensor<2x3xi32> {
  %0 = ge.bitcast %x : tensor<2x3xf32> to tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
"""


def test_bitcast_is_onnx_bitcast_from_opset_26():
    """ge.bitcast exports as BitCast at opset 26 (the ONNX reference runs it: onnxruntime 1.32 has
    no kernel) and as a ge-domain node before it, where ONNX has no bit reinterpretation."""
    from onnx.reference import ReferenceEvaluator

    x = np.array([[1.0, -2.5, 0.0], [np.inf, 3e-39, -0.0]], np.float32)
    exported = to_onnx(ge_mlir.parse_module(_BITCAST_IR, ge_mlir.Context()), opset=26)
    onnx.checker.check_model(exported, full_check=True)
    assert [n.op_type for n in exported.graph.node] == ["BitCast"]
    got = ReferenceEvaluator(exported).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, x.view(np.int32))
    np.testing.assert_array_equal(ge_mlir.compile(_BITCAST_IR, progress=False)(x)[0], x.view(np.int32))
    old = to_onnx(ge_mlir.parse_module(_BITCAST_IR, ge_mlir.Context()))
    assert [(n.domain, n.op_type) for n in old.graph.node] == [("ge", "bitcast")]


def test_custom_domain_keeps_fused_ops_whole():
    exported = to_onnx(ge_mlir.parse_module(_extras_ir(), ge_mlir.Context()), fused="custom")
    onnx.checker.check_model(exported)
    custom = [n for n in exported.graph.node if n.domain == "ge"]
    kinds = {n.op_type for n in custom}
    assert {"conv2d", "matmul", "gemm", "trans_data", "rsqrt", "silu", "rms_norm"} <= kinds
    assert [o.version for o in exported.opset_import if o.domain == "ge"] == [1]
    conv = next(n for n in custom if n.op_type == "conv2d" and any(a.name == "residual" or
                                                                   a.name == "operand_names" for a in n.attribute))
    attrs = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
    assert attrs["activation"] == b"leaky_relu" and attrs["data_format"] == b"NHWC"
    assert attrs["operand_names"] == b"input,filter,bias,residual" and list(attrs["pads"]) == [1, 1, 1, 1]
    assert abs(attrs["activation_alpha"] - 0.3) < 1e-6
    # Ops with a standard counterpart stay standard.
    assert {"Abs", "Add", "Reshape", "Shape", "Range"} <= {n.op_type for n in exported.graph.node if not n.domain}


BENCH = ["resnet18", "mobilenet_v2", "bert_encoder", "gpt2_decoder", "vit_tiny", "unet"]


@pytest.fixture(scope="module")
def bench_models():
    """name -> (ONNX ModelProto, example feeds, compiled to stage optimized): bench/models.py exported
    as bench/memory.py does, each on first use."""
    pytest.importorskip("torch")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench.models import benchmark_models
    from ge_mlir.frontend.torch import export_onnx

    specs = {name: (module, args, names) for name, module, args, names in benchmark_models()}
    cache: dict[str, object] = {}

    def get(name: str):
        if name not in cache:
            module, args, names = specs[name]
            proto = export_onnx(module, args, input_names=names)
            cache[name] = (proto, {n: a.numpy() for n, a in zip(names, args)},
                           ge_mlir.compile(proto, compile_to="optimized", progress=False))
        return cache[name]

    return get


@pytest.mark.parametrize("name", BENCH)
def test_bench_model_onnx_round_trip(bench_models, name, tmp_path):
    proto, feeds, model = bench_models(name)
    path = tmp_path / f"{name}.optimized.onnx"
    export_graph(model, path)
    exported = onnx.load(str(path))
    onnx.checker.check_model(str(path), full_check=True)
    assert not [n.op_type for n in exported.graph.node if n.domain], "a custom op remained"
    # The optimizer fused something, and the export expanded it back.
    assert any("/" in n.name and n.name.rsplit("/", 1)[1] in ("bias", "residual", "relu", "gelu")
               for n in exported.graph.node) or name == "bert_encoder"
    assert [i.name for i in exported.graph.input] == [i.name for i in proto.graph.input]
    want = _ort(proto, feeds)
    got = _ort(exported, feeds)
    _check_close([o.name for o in proto.graph.output], want, got, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", BENCH)
def test_bench_model_dot_and_json(bench_models, name):
    import jsonschema

    _, _, model = bench_models(name)
    dot = export_graph(model, format="dot")
    if HAVE_DOT:
        done = subprocess.run(["dot", "-Tcanon"], input=dot, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    else:
        import pydot

        assert pydot.graph_from_dot_data(dot)
    doc = json.loads(export_graph(model, format="json"))
    jsonschema.validate(doc, SCHEMA)
    g = graph_of(model)
    assert sum(1 for n in g.nodes if n.kind == "op") == sum(1 for n in doc["functions"][0]["nodes"] if n["kind"] == "op")
    # Every op of the imported graph keeps an ONNX node name.
    assert all(n.name for n in g.nodes if n.kind == "op"), [n.op for n in g.nodes if n.kind == "op" and not n.name]


def test_export_errors(block, tmp_path):
    _, model = block
    with pytest.raises(GraphExportError, match="unknown graph format 'png'"):
        export_graph(model, format="png")
    with pytest.raises(GraphExportError, match="cannot tell the format"):
        export_graph(model, tmp_path / "graph.txt")
    with pytest.raises(GraphExportError, match="was not reached"):
        export_graph(model, format="dot", stage="linalg")
    with pytest.raises(GraphExportError, match="cannot export a int"):
        export_graph(3)
    with pytest.raises(GraphExportError, match="is an ONNX model: compile it first"):
        export_graph(str(tmp_path / "model.onnx"))


# --------------------------------------------------------------------------
# Stage diffs, dumps
# --------------------------------------------------------------------------


def test_diff_of_ge_and_optimized(block):
    _, model = block
    d = diff_graphs(graph_of(model, "ge"), graph_of(model, "optimized"))
    removed = {c.op for c in d.removed}
    assert {"ge.batch_norm", "ge.relu", "ge.add"} <= removed and not d.added
    changed = {c.name: c for c in d.changed}
    assert "operands input:value,filter:constant -> input:value,filter:constant,bias:constant,residual:value" in \
        "; ".join(changed["Conv_9"].details)
    assert "activation: none -> relu" in changed["Conv_0"].details
    assert d.op_counts()["ge.batch_norm"] == -4
    text = d.format()
    assert text.startswith("--- ge (") and "- ge.batch_norm" in text and "~ ge.conv2d Conv_9 [Conv]" in text
    assert d.summary().startswith(f"{len(d.removed)} removed, 0 added, {len(d.changed)} changed")


def test_compile_dump_graph_and_environment(tmp_path, monkeypatch):
    proto = _resnet_block()
    ge_mlir.compile(proto, compile_to="bufferized", progress=False, dump_graph=tmp_path / "a")
    (folder,) = (tmp_path / "a").iterdir()
    assert folder.name.startswith("resnet_block-")
    assert sorted(p.name for p in folder.iterdir()) == ["01_ge.dot", "01_ge.json", "02_optimized.dot",
                                                       "02_optimized.json"]
    # Level 2: + target stages up to bufferized; level 3: + every pass; formats from the environment.
    monkeypatch.setenv("GE_MLIR_DUMP_GRAPH", "3")
    monkeypatch.setenv("GE_MLIR_DUMP_DIR", str(tmp_path / "b"))
    monkeypatch.setenv("GE_MLIR_DUMP_FORMAT", "json,onnx")
    model = ge_mlir.compile(proto, compile_to="llvm", progress=False)
    (folder,) = (tmp_path / "b").iterdir()
    names = sorted(p.name for p in folder.iterdir())
    assert {"01_ge.json", "01_ge.onnx", "02_optimized.json", "02_optimized.onnx", "03_linalg.json",
            "04_bufferized.json", "skipped.txt"} <= set(names)
    assert not any("llvm" in n for n in names)
    passes = [n for n in names if re.match(r"02_optimized\.\d\d_.*\.json$", n)]
    assert len(passes) == len(model.pass_report.entries) and "02_optimized.06_ge-fuse-conv-bn.json" in passes
    assert "03_linalg: onnx (stage linalg is not a ge graph)" in (folder / "skipped.txt").read_text()
    onnx.checker.check_model(str(folder / "02_optimized.onnx"))
    monkeypatch.setenv("GE_MLIR_DUMP_GRAPH", "yes")
    with pytest.raises(GraphExportError, match="GE_MLIR_DUMP_GRAPH='yes'"):
        ge_mlir.compile(proto, compile_to="ge", progress=False)


def test_ge_compile_dump_graph_cli(tmp_path, capsys):
    from ge_mlir.tools.ge_compile import main

    path = tmp_path / "block.onnx"
    onnx.save(_resnet_block(), str(path))
    rc = main([str(path), "--compile-to", "optimized", "--no-progress", "--dump-graph", str(tmp_path / "d"),
               "--dump-stages", "optimized,passes", "--dump-format", "dot"])
    assert rc == 0
    out = capsys.readouterr().out
    assert re.search(r"graph dump: 11 file\(s\) in .*resnet_block-\d+", out), out
    with pytest.raises(SystemExit) as e:
        main([str(path), "--dump-graph", str(tmp_path / "d"), "--dump-stages", "source"])
    assert e.value.code == 2
    assert "unknown stage(s) source for target cpu" in capsys.readouterr().err


def test_ascendc_stage_kernels_are_clusters():
    """The ascendc stage's kernels and host program are functions of the graph, drawn as clusters."""
    import jsonschema

    w = numpy_helper.from_array(np.random.default_rng(0).standard_normal((16, 16, 3, 3)).astype(np.float32), "w")
    g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
                           helper.make_node("Relu", ["c"], ["y"], name="relu")], "small",
                          [helper.make_tensor_value_info("x", TP.FLOAT, [1, 16, 8, 8])],
                          [helper.make_tensor_value_info("y", TP.FLOAT, [1, 16, 8, 8])], [w])
    proto = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    model = ge_mlir.compile(proto, target="ascendc", run_on="none", compile_to="ascendc", progress=False)
    doc = json.loads(export_graph(model, format="json", stage="ascendc"))
    jsonschema.validate(doc, SCHEMA)
    kinds = [f["op"] for f in doc["functions"]]
    assert kinds.count("ascendc.host") == 1 and kinds.count("ascendc.kernel") >= 1
    dot = export_graph(model, format="dot", stage="ascendc")
    assert dot.count('subgraph "cluster_fn_') == len(kinds) and 'label="ascendc.host @' in dot
    with pytest.raises(GraphExportError, match="ONNX export reads ge graphs"):
        export_graph(model, format="onnx", stage="ascendc")
    # The optimized ge graph of the same compile still exports to ONNX.
    assert [n.op_type for n in onnx.load_from_string(export_graph(model, format="onnx")).graph.node] == ["Conv", "Relu"]


def test_ge_bisect_report_shows_the_bad_pass_s_diff(tmp_path, monkeypatch):
    """ge-bisect names the pass that breaks the numerics and shows what it did to the graph."""
    from ge_mlir.passes import registry
    from ge_mlir.tools.ge_bisect import bisect

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.delenv("GE_MLIR_PASS_MODULES", raising=False)
    passes = tmp_path / "flip_passes.py"
    passes.write_text(
        "from mlir import ir\n"
        "from ge_mlir.passes import FusionPattern, fusion_pass\n\n\n"
        "@fusion_pass(name='ge-fuse-test-flip-add', summary='add -> sub at node b (wrong)', priority=10)\n"
        "class FlipAdd(FusionPattern):\n"
        "    root = 'ge.add'\n\n"
        "    def match(self, op):\n"
        "        return True if '\"b\"' in str(op.location) else None\n\n"
        "    def apply(self, op, rewriter, data):\n"
        "        with rewriter.ip:\n"
        "            new = ir.Operation.create('ge.sub', results=[op.results[0].type],\n"
        "                                      operands=list(op.operands), loc=op.location)\n"
        "        rewriter.replace_op(op, new)\n")
    c = numpy_helper.from_array(np.full((4,), 2.0, np.float32), "c")
    g = helper.make_graph([helper.make_node("Add", ["x", "c"], ["t"], name="a"),
                           helper.make_node("Add", ["t", "c"], ["y"], name="b")], "g",
                          [helper.make_tensor_value_info("x", TP.FLOAT, [2, 4])],
                          [helper.make_tensor_value_info("y", TP.FLOAT, [2, 4])], [c])
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    result = bisect(str(path), pass_modules=[str(passes)])
    assert result.first_bad_pass == "ge-fuse-test-flip-add"
    d = result.pass_diff
    assert [(c.kind, c.op, c.name) for c in d.changes] == [("removed", "ge.add", "b"), ("added", "ge.sub", "b")]
    text = result.format()
    assert "what ge-fuse-test-flip-add changed in the graph:\n  --- before ge-fuse-test-flip-add (2 ops)" in text
    assert "  - ge.add b [Add]\n  + ge.sub b [Add]\n  1 removed, 1 added, 0 changed, 1 unchanged ops" in text
