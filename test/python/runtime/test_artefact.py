"""Offline artefacts: ``CompiledModel.save`` -> ``ge_mlir.load`` (docs/artefacts.md).

A saved model reloads without compiling and computes bit for bit what the in-memory model
computes (and matches onnxruntime at the float32 tolerance of test_differential.py); loading
runs no pass, lowering or JIT; bad files and hosts lacking CPU features give ``ArtefactError``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import ge_mlir
from ge_mlir.runtime.artefact import FORMAT_VERSION, MANIFEST, read_manifest
from ge_mlir.errors import ArtefactError, CompileError, ExecutionError

from test_differential import Graph, assert_close, attention, conv_block, layer_norm, residual_block, run_ort


def small_cnn() -> Graph:
    g = Graph(seed=21)
    x = g.input("image", (1, 3, 16, 16))
    h = residual_block(g, conv_block(g, x, 3, 8), 8, 16, stride=2)
    h = g.node("Flatten", [g.node("GlobalAveragePool", [h])], axis=1)
    g.output(g.node("Gemm", [h, g.weight((10, 16)), g.weight((10,), 0.1)], transB=1))
    return g


def transformer_block() -> Graph:
    """Attention + residual + LayerNorm, then an erf-GELU MLP (libm's erff) + residual + LayerNorm."""
    g = Graph(seed=22)
    d = 32
    x = g.input("tokens", (1, 8, d))
    h = layer_norm(g, g.node("Add", [x, attention(g, x, 1, 8, d, heads=4)]), d, decomposed=False)
    up = g.node("Add", [g.node("MatMul", [h, g.weight((d, 4 * d), 1 / np.sqrt(d))]), g.weight((4 * d,), 0.1)])
    erf = g.node("Erf", [g.node("Div", [up, g.const(np.array(np.sqrt(2.0), np.float32))])])
    gelu = g.node("Mul", [g.node("Mul", [up, g.node("Add", [erf, g.const(np.array(1.0, np.float32))])]),
                          g.const(np.array(0.5, np.float32))])
    down = g.node("MatMul", [gelu, g.weight((4 * d, d), 1 / np.sqrt(4 * d))])
    g.output(layer_norm(g, g.node("Add", [h, down]), d, decomposed=False))
    return g


@pytest.fixture(scope="module")
def cnn(tmp_path_factory):
    """(graph, compiled model, path of its saved artefact)."""
    g = small_cnn()
    model = ge_mlir.compile(g.model(18), progress=False)
    path = model.save(tmp_path_factory.mktemp("cnn") / "cnn.gem")
    return g, model, path


def _roundtrip(g: Graph, model, path: Path):
    loaded = ge_mlir.load(path)
    assert loaded.loaded_from == path and loaded.stage_times == {} and loaded.load_time > 0
    assert loaded.inputs == model.inputs and loaded.outputs == model.outputs
    assert loaded.memory_plan == model.memory_plan and loaded.memory_plan is not None
    want = model(**g.feeds)
    got = loaded(**g.feeds)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b), "the loaded model must compute exactly what the compiled one does"
    for i, (a, b) in enumerate(zip(got, run_ort(g.model(18), g.feeds))):
        assert_close(a, b, f"output #{i} against onnxruntime")
    return loaded


def test_cnn_roundtrip_bitwise(cnn):
    g, model, path = cnn
    loaded = _roundtrip(g, model, path)
    assert loaded.input_names == ["image"]
    assert loaded.stages == ()  # no IR saved by default
    with pytest.raises(CompileError, match="not in the artefact"):
        loaded.ir("llvm")
    positional = loaded(g.feeds["image"])
    assert np.array_equal(positional[0], model(g.feeds["image"])[0])
    with pytest.raises(ExecutionError, match="input 'image' has shape"):
        loaded(np.zeros((1, 3, 8, 8), np.float32))


def test_transformer_roundtrip_with_ir(tmp_path):
    g = transformer_block()
    model = ge_mlir.compile(g.model(18), progress=False)
    path = model.save(tmp_path / "block.gem", include_ir=["optimized", "llvm"])
    loaded = _roundtrip(g, model, path)
    assert loaded.stages == ("optimized", "llvm")
    assert loaded.ir("optimized") == model.ir("optimized") and loaded.ir() == model.ir("llvm")
    manifest = read_manifest(path)
    assert manifest["format_version"] == FORMAT_VERSION and manifest["ge_mlir_version"] == ge_mlir.__version__
    assert [e["name"] for e in manifest["inputs"]] == ["tokens"]
    assert manifest["cpu"]["runtime_helpers"] == []
    with pytest.raises(ArtefactError, match="no IR of stage"):
        model.save(tmp_path / "x.gem", include_ir=["ascendc"])


def test_load_runs_no_pass_lowering_or_jit(cnn, monkeypatch):
    """Every entry into the MLIR pipeline or the JIT fails the test while loading and running."""
    import mlir.execution_engine
    import mlir.passmanager

    import ge_mlir.api
    import ge_mlir.target.cpu.runner as runner

    def forbidden(*args, **kwargs):
        raise AssertionError("loading an artefact must not run the MLIR pipeline or the JIT")

    for owner, name in [(ge_mlir.api, "run_pipeline"), (runner, "run_pipeline"), (runner, "lower_stage"),
                        (runner, "lower_to_llvm"), (mlir.passmanager.PassManager, "parse"),
                        (mlir.passmanager.PassManager, "run"), (mlir.execution_engine, "ExecutionEngine"),
                        (runner, "_register_runtime")]:
        monkeypatch.setattr(owner, name, forbidden)
    g, model, path = cnn
    loaded = ge_mlir.load(path)
    assert np.array_equal(loaded(**g.feeds)[0], model(**g.feeds)[0])
    # Compiling is what loading saves: a generous factor on a small model.
    assert loaded.load_time * 5 < model.compile_time, (loaded.load_time, model.compile_time)


def test_fresh_process_loads_without_the_compiler_stack(cnn, tmp_path):
    """A new process loads and runs the artefact without importing the compiler (the runtime is
    below it), the configuration, the front ends, the optimizer, the lowerings or MLIR's execution
    engine."""
    g, model, path = cnn
    np.save(tmp_path / "x.npy", g.feeds["image"])
    code = f"""
import sys, numpy as np, ge_mlir
m = ge_mlir.load({str(path)!r})
np.save({str(tmp_path / "y.npy")!r}, m(np.load({str(tmp_path / "x.npy")!r}))[0])
heavy = sorted(n for n in sys.modules if n.startswith(("ge_mlir.compiler", "ge_mlir.config", "ge_mlir.frontend",
               "ge_mlir.optimize", "ge_mlir.target.cpu.lowering", "ge_mlir.target.cpu.codegen", "mlir.execution_engine", "onnx")))
print(heavy)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", out.stdout
    assert np.array_equal(np.load(tmp_path / "y.npy"), model(**g.feeds)[0])


def test_workspace_allocated_from_the_manifest(cnn, tmp_path, monkeypatch):
    g, model, path = cnn
    section = read_manifest(path)["cpu"]
    assert section["workspace"] and sum(
        int(np.prod(w["shape"])) * w["element_bytes"] for w in section["workspace"]) == model.memory_plan["arena"]
    exe = ge_mlir.load(path)._executable
    assert [(list(a.shape), a.dtype.itemsize) for a in exe._workspace] == \
        [(w["shape"], w["element_bytes"]) for w in section["workspace"]]
    assert all(a.ctypes.data % 64 == 0 for a in exe._workspace)
    # A manifest asking for more than the limit is refused before anything is allocated.
    bigger = _rewrite(path, tmp_path / "big.gem",
                      lambda m: m["cpu"]["workspace"][0].update(shape=[1 << 40], element_bytes=1))
    with pytest.raises(ExecutionError, match="needs a workspace of 1099511627776 bytes"):
        ge_mlir.load(bigger)
    monkeypatch.setenv("GE_MLIR_WORKSPACE_LIMIT", "64")
    with pytest.raises(ExecutionError, match="more than the limit of 64 bytes"):
        ge_mlir.load(path)


def _rewrite(src: Path, dst: Path, edit) -> Path:
    """A copy of the artefact ``src`` whose manifest ``edit`` changed in place."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == MANIFEST:
                manifest = json.loads(data)
                edit(manifest)
                data = json.dumps(manifest).encode()
            zout.writestr(info, data)
    return dst


def test_missing_cpu_features_are_refused_by_name(cnn, tmp_path):
    g, model, path = cnn
    fake = _rewrite(path, tmp_path / "fake.gem", lambda m: m["cpu"]["features"].extend(["avx512fake", "amx-fake"]))
    with pytest.raises(ArtefactError, match="lacks: avx512fake, amx-fake") as info:
        ge_mlir.load(fake)
    assert isinstance(info.value, ExecutionError) and info.value.missing == ("avx512fake", "amx-fake")
    assert "GE_MLIR_JIT_CPU=x86-64-v3" in str(info.value)
    arm = _rewrite(path, tmp_path / "arm.gem", lambda m: m["cpu"].update(machine="aarch64"))
    with pytest.raises(ArtefactError, match="built for Linux aarch64"):
        ge_mlir.load(arm)


def _flip_library_byte(src: Path, dst: Path) -> Path:
    data = bytearray(src.read_bytes())
    with zipfile.ZipFile(src) as zf:
        info = zf.getinfo("model.so")
    # The member's data starts after its local header (30 bytes + name + extra).
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + info.file_size // 2] ^= 0xFF
    dst.write_bytes(bytes(data))
    return dst


@pytest.mark.parametrize("damage,match", [
    ("missing", "no such artefact"),
    ("text", "not a ge-mlir artefact"),
    ("truncated", "not a ge-mlir artefact|corrupt"),
    ("version", f"format version 99 .* reads version {FORMAT_VERSION}"),
    ("format", "not a ge-mlir artefact"),
    ("json", "not JSON"),
    ("no-inputs", "manifest is inconsistent"),
    ("dtype", "manifest is inconsistent"),
    ("no-library", "has no model.so"),
    ("flipped", "corrupt"),
    ("swapped", "does not match its checksum"),
    ("entry", "no entry point"),
])
def test_bad_files_raise_clear_errors(cnn, tmp_path, damage, match):
    g, model, path = cnn
    bad = tmp_path / "bad.gem"
    if damage == "text":
        bad.write_text("hello")
    elif damage == "truncated":
        bad.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "version":
        _rewrite(path, bad, lambda m: m.update(format_version=99))
    elif damage == "format":
        _rewrite(path, bad, lambda m: m.update(format="something-else"))
    elif damage == "json":
        with zipfile.ZipFile(bad, "w") as zf:
            zf.writestr(MANIFEST, "{not json")
    elif damage == "no-inputs":
        _rewrite(path, bad, lambda m: m.pop("inputs"))
    elif damage == "dtype":
        _rewrite(path, bad, lambda m: m["inputs"][0].update(element_type="q7"))
    elif damage == "no-library":
        with zipfile.ZipFile(path) as zin, zipfile.ZipFile(bad, "w") as zout:
            zout.writestr(MANIFEST, zin.read(MANIFEST))
    elif damage == "flipped":  # caught by the zip's CRC
        _flip_library_byte(path, bad)
    elif damage == "swapped":  # a consistent zip, another library: caught by the manifest's SHA-256
        with zipfile.ZipFile(path) as zin, zipfile.ZipFile(bad, "w") as zout:
            zout.writestr(MANIFEST, zin.read(MANIFEST))
            zout.writestr("model.so", b"\x7fELF" + bytes(100))
    elif damage == "entry":
        _rewrite(path, bad, lambda m: m["cpu"].update(entry="_mlir__mlir_ciface_nothing", function="nothing"))
    with pytest.raises(ArtefactError, match=match):
        ge_mlir.load(bad if damage != "missing" else tmp_path / "missing.gem")


def test_only_runnable_compiled_models_save(cnn, tmp_path):
    g, model, path = cnn
    partial = ge_mlir.compile(g.model(18), compile_to="bufferized", progress=False)
    with pytest.raises(ArtefactError, match="compiled to stage 'bufferized'"):
        partial.save(tmp_path / "p.gem")
    with pytest.raises(ArtefactError, match="was loaded from"):
        ge_mlir.load(path).save(tmp_path / "again.gem")
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_portable_level_links_the_conversion_helpers(tmp_path, monkeypatch):
    """JIT CPU x86-64 (no F16C): the f16 -> f32 cast calls __extendhfsf2, which the saved library
    takes from the dialect library's ge_rt_ helpers; the artefact asks only for the level's features."""
    from ge_mlir.target.cpu.artefact import LEVEL_FEATURES

    monkeypatch.setenv("GE_MLIR_JIT_CPU", "x86-64")
    src = """
func.func @widen(%x: tensor<4x8xf16>) -> tensor<4x8xf32> {
  %y = ge.cast %x : tensor<4x8xf16> to tensor<4x8xf32>
  %z = ge.tanh %y : tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
"""
    model = ge_mlir.compile(src, progress=False)
    path = model.save(tmp_path / "f16.gem")
    section = read_manifest(path)["cpu"]
    assert section["jit_cpu"] == "x86-64" and section["features"] == list(LEVEL_FEATURES["x86-64"])
    assert "__extendhfsf2" in section["runtime_helpers"]
    x = (np.random.default_rng(0).standard_normal((4, 8)) * 3).astype(np.float16)
    assert np.array_equal(ge_mlir.load(path)(x)[0], model(x)[0])


def test_bounds_checks_survive_the_roundtrip(tmp_path):
    from onnx import TensorProto, helper, numpy_helper

    table = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(6, 2), "table")
    graph = helper.make_graph([helper.make_node("Gather", ["table", "ids"], ["out"], axis=0)], "g",
                              [helper.make_tensor_value_info("ids", TensorProto.INT64, [3])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, [3, 2])], [table])
    model = ge_mlir.compile(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), progress=False)
    loaded = ge_mlir.load(model.save(tmp_path / "gather.gem"))
    assert read_manifest(tmp_path / "gather.gem")["cpu"]["bounds_checks"]
    ids = np.array([0, 5, -1], np.int64)
    assert np.array_equal(loaded(ids)[0], model(ids)[0])
    with pytest.raises(ExecutionError, match="out of range"):
        loaded(np.array([0, 6, 1], np.int64))


def test_ge_compile_saves_and_runs_artefacts(cnn, tmp_path, capsys):
    from ge_mlir.tools.ge_compile import main

    g, model, _ = cnn
    onnx_path = tmp_path / "cnn.onnx"
    onnx_path.write_bytes(g.model(18).SerializeToString())
    np.savez(tmp_path / "in.npz", **g.feeds)
    gem = tmp_path / "cnn.gem"
    assert main([str(onnx_path), "-o", str(gem), "--no-progress"]) == 0
    assert "saved" in capsys.readouterr().out and gem.is_file()
    assert main([str(gem), "--run", str(tmp_path / "in.npz"), "--save", str(tmp_path / "out.npz")]) == 0
    assert "nothing recompiled" in capsys.readouterr().out
    with np.load(tmp_path / "out.npz") as out:
        assert np.array_equal(out[model.output_names[0]], model(**g.feeds)[0])
    for argv in ([str(gem), "--compare-onnxruntime"], [str(gem), "--compile-to", "linalg"],
                 [str(onnx_path), "--target", "ascendc", "-o", str(tmp_path / "p.gem")],
                 [str(onnx_path), "--compile-to", "linalg", "-o", str(tmp_path / "l.gem")]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
    assert "saved artefact" in capsys.readouterr().err
    (tmp_path / "junk.gem").write_text("junk")
    assert main([str(tmp_path / "junk.gem"), "--random-inputs"]) == 1
    assert "not a ge-mlir artefact" in capsys.readouterr().err
