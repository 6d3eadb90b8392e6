"""The compile cache (ge_mlir.runtime.cache): a second compile of the same model is a load."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.runtime import cache
from ge_mlir.errors import CompileError


def _model(scale: float = 2.0) -> onnx.ModelProto:
    w = numpy_helper.from_array(np.full((4, 3), scale, np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"), helper.make_node("Relu", ["y"], ["z"], name="relu")],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])], initializer=[w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, "1")
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _entries(d):
    return sorted(d.glob("*.gem")) if d.is_dir() else []


def test_second_compile_is_a_load_with_the_same_outputs(cache_dir):
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    first = ge_mlir.compile(_model())
    assert not first.from_cache and first.stage_times
    (entry,) = _entries(cache_dir)
    second = ge_mlir.compile(_model())
    assert second.from_cache and second.loaded_from == entry
    assert second.stage_times == {}  # nothing compiled
    np.testing.assert_array_equal(first(x)[0], second(x)[0])
    np.testing.assert_allclose(second(x)[0], np.maximum(x @ np.full((4, 3), 2, np.float32), 0), rtol=1e-6)
    with pytest.raises(CompileError, match="compile cache.*cache=False"):
        second.ir("llvm")
    # A path to the same bytes is the same model.
    path = cache_dir.parent / "m.onnx"
    onnx.save(_model(), path)
    assert ge_mlir.compile(path).from_cache


def test_other_model_options_or_environment_are_other_entries(cache_dir, monkeypatch):
    ge_mlir.compile(_model())
    ge_mlir.compile(_model(scale=3.0))  # other weights
    assert len(_entries(cache_dir)) == 2
    ge_mlir.compile(_model(), options={"opt_level": 1})
    assert len(_entries(cache_dir)) == 3
    ge_mlir.compile(_model(), options={"config": {"graphOptions": {"graphFusion": False}}})
    assert len(_entries(cache_dir)) == 4
    monkeypatch.setenv("GE_MLIR_JIT_CPU", "x86-64")
    m = ge_mlir.compile(_model())
    assert not m.from_cache and len(_entries(cache_dir)) == 5


def test_not_cached_when_off_partial_or_profiling(cache_dir, monkeypatch):
    assert not ge_mlir.compile(_model(), cache=False).from_cache
    ge_mlir.compile(_model(), compile_to="bufferized")
    ge_mlir.compile(_model(), options={"profile": True})
    assert _entries(cache_dir) == []
    monkeypatch.setenv(cache.CACHE_ENV, "0")
    ge_mlir.compile(_model())
    assert _entries(cache_dir) == []
    ge_mlir.compile(_model(), cache=True)  # the argument wins over the environment
    assert len(_entries(cache_dir)) == 1


def test_a_corrupt_entry_is_dropped_and_compiled_again(cache_dir):
    ge_mlir.compile(_model())
    (entry,) = _entries(cache_dir)
    entry.write_bytes(entry.read_bytes()[:100])
    again = ge_mlir.compile(_model())
    assert not again.from_cache
    assert ge_mlir.compile(_model()).from_cache  # stored anew


def test_size_limit_keeps_the_most_recent_entries(cache_dir, monkeypatch):
    ge_mlir.compile(_model(1.0))
    size = _entries(cache_dir)[0].stat().st_size
    monkeypatch.setenv(cache.CACHE_MAX_ENV, str(2.5 * size / (1 << 20)))
    ge_mlir.compile(_model(2.0))
    ge_mlir.compile(_model(3.0))
    assert len(_entries(cache_dir)) == 2
    assert not ge_mlir.compile(_model(1.0)).from_cache  # the oldest went first
    assert cache.clear() == 2 and _entries(cache_dir) == []
