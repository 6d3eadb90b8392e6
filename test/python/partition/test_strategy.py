"""Strategies, schedulers, execution plans and proposals (no MPI job needed)."""

from __future__ import annotations

import json

import pytest

import ge_mlir
import ge_mlir.scheduler as scheduler
from ge_mlir.partition import StrategyError, parse_strategy
from ge_mlir.parallel_strategy import ParallelWarning


def test_parse_strategy_forms(tmp_path):
    cfg = {"tensor_parallel": 2, "pipeline_parallel": 2, "num_microbatches": 4, "schedule": "1f1b",
           "rules": [{"op_name_pattern": "q_proj|k_proj", "strategy": "col"}]}
    s = parse_strategy(cfg)
    assert (s.world_size, s.num_stages, s.schedule) == (4, 2, "1f1b")
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"ge.exec.parallel": cfg}))
    assert parse_strategy(str(path)) == s == parse_strategy(json.dumps(cfg))
    assert parse_strategy(s.to_dict()) == s
    assert not parse_strategy(None).is_parallel


@pytest.mark.parametrize("cfg, why", [
    ({"tensor_parallel": 0}, "tensor_parallel: expected an integer >= 1"),
    ({"data_parallel": "2"}, "data_parallel: expected an integer"),
    ({"tensor_parallel": 5000}, "at most 4096"),
    ({"schedule": "zigzag"}, "unknown schedule 'zigzag'"),
    ({"rules": [{"op_name_pattern": "(", "strategy": "col"}]}, "not a regular expression"),
    ({"rules": [{"op_name_pattern": "fc", "strategy": "diagonal"}]}, "expected one of col, row, replicated"),
    ({"rules": [{"op_name_pattern": "fc", "strategy": "col", "dim": 1}]}, "rules[0].dim: unknown key"),
    ({"pipeline_parallel": 2, "stage_boundaries": ["a", "b"]}, "2 boundaries for 2 stages"),
    ({"pipelines": 2}, "pipelines: unknown key"),
    ({"virtual_stages": 2}, "only the interleaved schedule"),
])
def test_bad_strategies_name_the_key(cfg, why):
    with pytest.raises(StrategyError, match=__import__("re").escape(why)):
        parse_strategy(cfg)


def test_schedules_and_bubbles():
    g, f, i, q = (scheduler.get(n) for n in ("gpipe", "1f1b", "interleaved", "sequential"))
    assert g.order(0, [0], 3, 2) == [(0, 0), (0, 1), (0, 2)]
    assert f.extra_deps((0, 3), 2, 4, 2) == [(1, 1)]  # at most 2 microbatches in flight
    assert f.extra_deps((1, 3), 2, 4, 2) == [] and f.extra_deps((0, 1), 2, 4, 2) == []
    # Interleaved: rank 0 holds stages 0 and 2; microbatches in groups of p = 2 per chunk.
    assert i.order(0, [0, 2], 4, 2) == [(0, 0), (0, 1), (2, 0), (2, 1), (0, 2), (0, 3), (2, 2), (2, 3)]
    assert q.extra_deps((0, 2), 3, 4, 3) == [(2, 1)]
    assert g.bubble(2, 4, 2) == pytest.approx(1 / 5)  # (p-1)/(m+p-1)
    assert i.bubble(4, 4, 2) == pytest.approx(1 / 9)  # (p-1)/(v*m+p-1), v = 2
    assert q.bubble(2, 4, 2) == pytest.approx(1 / 2)
    assert scheduler.theoretical_bubble("gpipe", 1, 8) == 0.0


def test_register_a_scheduler():
    class Affinity(scheduler.Scheduler):
        name = "affinity-test"

        def assign(self, num_stages, num_ranks, edges):
            per = num_stages // num_ranks
            return [s // per for s in range(num_stages)]

    scheduler.register("affinity-test", Affinity)
    assert "affinity-test" in scheduler.registered()
    s = parse_strategy({"pipeline_parallel": 2, "virtual_stages": 2, "scheduler": "affinity-test"})
    assert s.schedule == "affinity-test"
    with pytest.raises(TypeError, match="lacks"):
        scheduler.register("broken", object)


MLP = """
func.func @main(%x: tensor<4x16xf32> {onnx.name = "x"}) -> (tensor<4x16xf32> {onnx.name = "y"}) {
  %w1 = ge.constant dense<0.5> : tensor<16x32xf32>
  %b1 = ge.constant dense<0.25> : tensor<32xf32>
  %w2 = ge.constant dense<2.0> : tensor<32x16xf32>
  %h = ge.matmul %x, %w1, %b1 {activation = #ge.act<relu>} : (tensor<4x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<4x32xf32> loc(fused<"MatMul">["fc1"])
  %y = ge.matmul %h, %w2 : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32> loc(fused<"MatMul">["fc2"])
  return %y : tensor<4x16xf32>
}
"""


def test_execution_plan_report():
    from ge_mlir.parallel.driver import plan_parallel

    plan, _ = plan_parallel(MLP, {"tensor_parallel": 2, "pipeline_parallel": 2, "num_microbatches": 2,
                                  "stage_boundaries": ["fc1"]})
    assert plan.world_size == 4 and plan.assignment == [0, 1]
    assert [plan.coords(r).stages for r in range(4)] == [(0,), (0,), (1,), (1,)]
    kinds = [r.kind for r in plan.comm]
    assert kinds.count("all_reduce") == 1 and kinds.count("send") == 1
    # Per microbatch [2,16] f32 partial sums, all-reduced on the 2 ranks of stage 1, twice.
    ar = next(r for r in plan.comm if r.kind == "all_reduce")
    assert (ar.bytes_per_rank, ar.ranks, ar.stage) == (2 * 2 * 16 * 4, 2, 1)
    assert plan.memory[0]["weights"] < plan.single_device_weight_bytes / 2
    text = plan.report()
    assert "TP=2" in text and "theoretical bubble 0.333" in text
    d = json.loads(plan.json())
    assert d["world_size"] == 4 and d["schedule"]["2"] == [[1, 0], [1, 1]]


def test_a_rule_matching_nothing_is_a_warning_naming_it():
    from ge_mlir.parallel.driver import plan_parallel

    with pytest.warns(ParallelWarning, match="rule 'no_such_layer' .* matches no linear layer"):
        plan_parallel(MLP, {"tensor_parallel": 2, "rules": [{"op_name_pattern": "no_such_layer",
                                                             "strategy": "row"}]})


def test_graph_engine_partition_gives_one_part_per_rank():
    eng = ge_mlir.GraphEngine({"config": {"ge.exec.parallel": {"tensor_parallel": 2}}})
    parts = eng.partition(eng.optimize(eng.load(MLP)))
    assert [p.part for p in parts] == [(0, 2), (1, 2)]
    assert all("shard.all_reduce" in p.text for p in parts)
    with pytest.raises(ge_mlir.CompileError, match="runs on MPI ranks"):
        eng.compile(parts[0])
    optimized = eng.optimize(eng.load(MLP))
    assert eng.partition(optimized, parallel={}) == [optimized]  # one device: the graph itself


def test_compile_outside_an_mpi_job_of_the_right_size_says_how_to_run():
    with pytest.raises(ge_mlir.CompileError, match=r"needs 2 ranks; this job has 1 .*ge-run --np 2"):
        ge_mlir.compile(MLP, parallel={"tensor_parallel": 2}, cache=False)


def test_an_uneven_split_is_a_compile_error():
    from ge_mlir.parallel.driver import plan_parallel

    with pytest.raises(ge_mlir.CompileError, match="input 'x' has batch 4, which 3 devices cannot split"):
        plan_parallel(MLP, {"data_parallel": 3})


def test_propose_explains_its_choice():
    from ge_mlir.parallel.propose import propose

    p = propose(MLP, 2)
    assert parse_strategy(p.strategy).world_size == 2
    text = p.explain()
    assert "proposed for 2 device(s)" in text and "candidates:" in text
    assert sum(1 for c in p.candidates if c[1] is not None) >= 2


def test_a_rule_axis_names_the_weight_dimension_split():
    from ge_mlir.parallel.driver import plan_parallel

    plan, _ = plan_parallel(MLP, {"tensor_parallel": 2, "auto_tensor_rules": False, "rules": [
        {"op_name_pattern": "fc1", "strategy": "col"}, {"op_name_pattern": "fc2", "strategy": "row", "axis": 0}]})
    text = str(plan.module)
    assert "slice_axis = 1 : tensor<16x32xf32> -> tensor<16x16xf32>" in text  # fc1: columns
    assert "slice_axis = 0 : tensor<32x16xf32> -> tensor<16x16xf32>" in text  # fc2: rows, as the rule says
    assert text.count("shard.all_reduce") == 1
    with pytest.raises(ge_mlir.CompileError, match="single quote"):
        plan_parallel(MLP, {"tensor_parallel": 2, "rules": [{"op_name_pattern": "fc1'", "strategy": "col"}]})


def test_ge_run_flags_build_the_strategy_and_check_the_rank_count():
    import subprocess
    import sys

    from ge_mlir.parallel import __main__ as rank_program

    args = rank_program.build_parser().parse_args(
        ["m.onnx", "--parallel", '{"tensor_parallel": 2, "schedule": "1f1b"}', "--pp", "2", "--microbatches", "4",
         "--boundaries", "a"])
    s = parse_strategy(rank_program.strategy_from_args(args))
    assert (s.tensor_parallel, s.pipeline_parallel, s.num_microbatches, s.schedule) == (2, 2, 4, "1f1b")
    assert s.stage_boundaries == ("a",)
    r = subprocess.run([sys.executable, "-m", "ge_mlir.tools.ge_run", "--np", "3", "m.onnx", "--tp", "2"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--np 3 does not match the strategy's 2 ranks" in r.stderr
