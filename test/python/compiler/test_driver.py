"""The one-call compile: ``ge_mlir.compile`` (the façade), the compiler's driver it calls on one
process and the staged GraphEngine give the same model; the façade chooses the parallel path."""

from __future__ import annotations

import numpy as np
import pytest

import ge_mlir
from ge_mlir.compiler import driver
from ge_mlir.errors import CompileError

IR = """
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ge.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.relu %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"""

TWO_RANKS = {"config": {"ge.exec.parallel": {"tensor_parallel": 2}}}


def test_facade_driver_and_engine_compile_the_same():
    options = {"keep_ir": True}
    a = ge_mlir.compile(IR, options=options, cache=False, progress=False)
    engine, compile_to = driver.start("cpu", options, None)
    b = driver.compile_started(engine, IR, compile_to, cache=False, progress=False)
    engine = ge_mlir.GraphEngine(options)
    c = engine.compile(engine.optimize(engine.load(IR)))
    assert a.stages == b.stages == c.stages == ge_mlir.STAGES
    assert all(a.ir(s) == b.ir(s) == c.ir(s) for s in a.stages)
    assert (a.inputs, a.outputs) == (b.inputs, b.outputs) == (c.inputs, c.outputs)
    x, y = np.ones((2, 3), np.float32), -2 * np.ones((2, 3), np.float32)
    assert all(np.array_equal(m(x, y)[0], np.zeros((2, 3), np.float32)) for m in (a, b, c))


def test_facade_hands_a_parallel_strategy_to_the_parallel_driver(monkeypatch):
    seen = []

    def compile_parallel(model, strategy, options, *, target, example_inputs):
        seen.append((model, strategy.world_size, options.optimize, target))
        return "parallel model"

    monkeypatch.setattr("ge_mlir.parallel.driver.compile_parallel", compile_parallel)
    # From the argument (with the resolved options), and from the configuration's ge.exec.parallel.
    assert ge_mlir.compile(IR, options={"optimize": False}, parallel={"tensor_parallel": 2}) == "parallel model"
    assert ge_mlir.compile(IR, options=TWO_RANKS) == "parallel model"
    assert seen == [(IR, 2, False, "cpu"), (IR, 2, True, "cpu")]
    # One rank is no parallelism: the serial compile.
    assert isinstance(ge_mlir.compile(IR, parallel={"tensor_parallel": 1}, cache=False, progress=False),
                      ge_mlir.CompiledModel)
    with pytest.raises(CompileError, match="a parallel compile runs to the last stage"):
        ge_mlir.compile(IR, options=TWO_RANKS, compile_to="optimized")


def test_start_checks_target_and_stage_before_loading_the_configuration():
    missing = {"config": "/no/such/config.json"}
    with pytest.raises(CompileError, match="unknown target 'gpu'"):
        driver.start("gpu", missing, None)
    with pytest.raises(CompileError, match="unknown stage 'source' for compile_to on cpu"):
        driver.start("cpu", missing, "source")
    engine, compile_to = driver.start("ascendc", None, None)
    assert (engine.target, compile_to) == ("ascendc", "source")


def test_staged_graph_is_the_engine_handle():
    engine = ge_mlir.GraphEngine()
    graph = engine.load(IR)
    assert isinstance(graph, ge_mlir.StagedGraph)
    assert repr(graph) == "<StagedGraph @f stage=ge, 2 nodes: (arg0: 2x3 float32, arg1: 2x3 float32) -> (result0: 2x3 float32)>"
    assert not hasattr(ge_mlir, "Graph")
