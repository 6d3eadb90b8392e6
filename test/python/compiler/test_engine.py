"""The staged workflow (GraphEngine): load -> optimize -> partition -> compile -> execute, GE style."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

import ge_mlir
from ge_mlir.errors import CompileError, ExecutionError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def encoder_onnx() -> tuple[bytes, dict[str, np.ndarray]]:
    """A torch-exported transformer encoder layer (bench/models.py), with seeded inputs."""
    torch = pytest.importorskip("torch")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench.models import EncoderLayer

    from ge_mlir.frontend.torch import export_onnx

    torch.manual_seed(0)
    layer = EncoderLayer(64, 4, 128).eval()
    x = torch.randn(1, 16, 64)
    mask = torch.zeros(1, 1, 1, 16)
    proto = export_onnx(layer, (x, mask), input_names=["x", "mask"])
    return proto.SerializeToString(), {"x": x.numpy(), "mask": mask.numpy()}


def _ort(model: bytes, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    names = {i.name for i in sess.get_inputs()}
    return sess.run(None, {k: v for k, v in feeds.items() if k in names})


def test_staged_workflow_matches_onnxruntime(encoder_onnx, tmp_path):
    model, feeds = encoder_onnx
    engine = ge_mlir.GraphEngine()
    graph = engine.load(model)
    assert graph.stage == "ge" and graph.node_count > 10 and graph.applied_passes == []
    feeds = {k: v for k, v in feeds.items() if k in [s.name for s in graph.inputs]}
    assert [s.name for s in graph.inputs] == list(feeds)
    optimized = engine.optimize(graph)
    assert optimized.stage == "optimized" and graph.stage == "ge"  # the loaded graph is untouched
    assert optimized.node_count < graph.node_count
    applied = {p.name: p for p in optimized.applied_passes}
    assert applied["ge-fuse-bias-add"].rewrites and applied["ge-fuse-activation"].rewrites
    parts = engine.partition(optimized)
    assert len(parts) == 1 and parts[0] is optimized
    models = [engine.compile(p, target="cpu", path=tmp_path / f"part{i}.gem") for i, p in enumerate(parts)]
    # Saved offline artefacts load and run without compiling again.
    loaded = [ge_mlir.load(tmp_path / f"part{i}.gem") for i in range(len(parts))]
    out = engine.execute(loaded, feeds)
    np.testing.assert_array_equal(list(out.values())[0], engine.execute(models, feeds)[models[0].output_names[0]])
    ref = _ort(model, feeds)
    assert list(out) == [s.name for s in optimized.outputs]
    np.testing.assert_allclose(list(out.values())[0], ref[0], rtol=1e-4, atol=1e-5)
    # The one-call compile runs the same stages: the same passes, the same outputs, bitwise.
    direct = ge_mlir.compile(model)
    assert [e.name for e in direct.pass_report.entries] == [p.name for p in optimized.applied_passes]
    np.testing.assert_array_equal(direct(**feeds)[0], list(out.values())[0])
    assert models[0].ir("ge") == direct.ir("ge") and models[0].ir("optimized") == direct.ir("optimized")


def test_graph_can_be_compiled_twice_and_exported(encoder_onnx, tmp_path):
    model, _ = encoder_onnx
    engine = ge_mlir.GraphEngine()
    optimized = engine.optimize(engine.load(model))
    a = engine.compile(optimized, compile_to="linalg")
    b = engine.compile(optimized)  # the graph was copied, not lowered in place
    assert a.compile_to == "linalg" and b.compile_to == "llvm" and optimized.stage == "optimized"
    path = optimized.export(tmp_path / "g.mlir")
    assert "ge.layer_norm" in path.read_text()
    doc = json.loads(optimized.export(tmp_path / "g.json").read_text())
    assert "ge.layer_norm" in {n["op"] for n in doc["functions"][0]["nodes"]}
    assert ge_mlir.compile(path.read_text()).output_names == b.output_names


def test_engine_options_and_config_apply(encoder_onnx):
    model, _ = encoder_onnx
    cfg = {"ge.graphOptions": {"graphFusion": {"enable": False}}}
    optimized = ge_mlir.GraphEngine({"config": cfg}).optimize(ge_mlir.GraphEngine().load(model))
    assert not any(p.name.startswith("ge-fuse-") for p in optimized.applied_passes)
    unoptimized = ge_mlir.GraphEngine({"optimize": False})
    g = unoptimized.optimize(unoptimized.load(model))
    assert g.applied_passes == [] and g.node_count == unoptimized.load(model).node_count


def test_stage_order_and_bad_input_are_refused(encoder_onnx):
    model, feeds = encoder_onnx
    engine = ge_mlir.GraphEngine()
    graph = engine.load(model)
    with pytest.raises(CompileError, match="partition takes an optimized graph"):
        engine.partition(graph)
    optimized = engine.optimize(graph)
    with pytest.raises(CompileError, match="optimize takes a loaded graph"):
        engine.optimize(optimized)
    with pytest.raises(CompileError, match="past 'ge'"):
        engine.compile(optimized, compile_to="ge")
    with pytest.raises(CompileError, match="unknown target"):
        ge_mlir.GraphEngine(target="gpu")
    with pytest.raises(ExecutionError, match="needs input"):
        engine.execute(engine.compile(optimized), {})
    with pytest.raises(CompileError, match="run_on is not an option"):
        engine.compile(optimized, run_on="npu")
