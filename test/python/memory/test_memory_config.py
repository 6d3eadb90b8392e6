"""The GE memory keys (``ge.exec.memory``, ``ge.exec.recompute``) and their compile options."""

from __future__ import annotations

import warnings

import pytest
from onnx import TensorProto, helper

import ge_mlir
from ge_mlir.config import (MEMORY_REUSE_STRATEGIES, CompileOptions, ConfigError, ConfigWarning, ResolvedOptions,
                            load_config, resolve_options)
from ge_mlir.errors import CompileError, MemoryBudgetError
from ge_mlir.memory.planner import STRATEGIES


#: The chain below fuses into one loop (ge-fuse-elementwise-generics): no buffer to plan. These
#: tests are about the planner, so they keep one buffer per op.
UNFUSED = {"fuse_elementwise": False}


def _chain() -> bytes:
    """x -> relu -> sigmoid -> tanh -> exp: intermediates of 64 KiB each (compiled with
    ``UNFUSED``)."""
    nodes, prev = [], "x"
    for i, op in enumerate(("Relu", "Sigmoid", "Tanh", "Exp")):
        out = "y" if i == 3 else f"t{i}"
        nodes.append(helper.make_node(op, [prev], [out], name=f"n{i}"))
        prev = out
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [128, 128])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [128, 128])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_strategy_names_are_the_planners():
    assert MEMORY_REUSE_STRATEGIES == ("aggressive", *STRATEGIES)


def test_memory_keys_load_and_round_trip():
    cfg = load_config({"ge.exec.memory": {"enable_memory_estimation": True, "memory_budget_mb": 12.5,
                                          "memory_reuse_strategy": "best-fit"},
                       "ge.exec.recompute": {"enable": True, "checkpoint_ops": ["LayerNorm", "Softmax"],
                                             "recompute_ratio": 0.25}})
    assert (cfg.memory.budget_mb, cfg.memory.reuse_strategy, cfg.memory.enable_memory_estimation) == (12.5, "best-fit", True)
    assert (cfg.recompute.enable, cfg.recompute.checkpoint_ops, cfg.recompute.ratio) == (True, ["LayerNorm", "Softmax"], 0.25)
    assert load_config(cfg.to_dict()).to_dict() == cfg.to_dict()


@pytest.mark.parametrize("data, key", [
    ({"ge.exec.memory": {"memory_budget": 3}}, "ge.exec.memory.memory_budget"),
    ({"ge.exec.memory": {"memory_budget_mb": 0}}, "ge.exec.memory.memory_budget_mb"),
    ({"ge.exec.memory": {"memory_budget_mb": True}}, "ge.exec.memory.memory_budget_mb"),
    ({"ge.exec.memory": {"memory_reuse_strategy": "greedy"}}, "ge.exec.memory.memory_reuse_strategy"),
    ({"ge.exec.recompute": {"checkpoint_ops": "Softmax"}}, "ge.exec.recompute.checkpoint_ops"),
    ({"ge.exec.recompute": {"recompute_ratio": 1.5}}, "ge.exec.recompute.recompute_ratio"),
    ({"ge.exec.memry": {}}, "ge.exec.memry"),
])
def test_bad_memory_keys_name_the_key(data, key):
    with pytest.raises(ConfigError) as info:
        load_config(data)
    assert info.value.key == key


def test_inert_key_warns_naming_it():
    with pytest.warns(ConfigWarning, match=r"ge\.exec\.recompute\.priority"):
        load_config({"ge.exec.recompute": {"priority": "memory"}})


def test_explicit_options_win_over_the_config():
    cfg = load_config({"ge.exec.memory": {"memory_budget_mb": 5, "memory_reuse_strategy": "best-fit"},
                       "ge.exec.recompute": {"enable": True}})
    got = resolve_options(CompileOptions(config=cfg, memory_budget_mb=7, recompute=False))
    assert (got.memory_budget_mb, got.memory_reuse_strategy, got.recompute) == (7, "best-fit", False)
    assert resolve_options(CompileOptions()) == ResolvedOptions()


def test_config_strategy_selects_the_plan():
    m = ge_mlir.compile(_chain(), options={**UNFUSED, "config": {"ge.exec.memory": {"memory_reuse_strategy": "best-fit"}}})
    assert m.memory_plan["strategy"] == "best-fit" and set(m.memory_plan["arenas"]) == {"best-fit"}
    m = ge_mlir.compile(_chain(), options={**UNFUSED, "memory_reuse_strategy": "greedy-by-breadth"})
    assert m.memory_plan["strategy"] == "greedy-by-breadth"


def test_config_budget_applies():
    arena = ge_mlir.compile(_chain(), options=UNFUSED).memory_plan["arena"]
    with pytest.raises(MemoryBudgetError):
        ge_mlir.compile(_chain(), options={**UNFUSED, "config": {"ge.exec.memory": {"memory_budget_mb": arena / 2**20 / 2}}})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ge_mlir.compile(_chain(), options={**UNFUSED, "config": {"ge.exec.memory": {"memory_budget_mb": arena / 2**20}}})


@pytest.mark.parametrize("field, bad", [("memory_reuse_strategy", "fastest"), ("recompute", 1),
                                        ("recompute_checkpoint_ops", "Softmax"), ("recompute_ratio", 2),
                                        ("memory_estimation", "yes")])
def test_bad_memory_options_are_refused(field, bad):
    with pytest.raises(CompileError, match=field):
        ge_mlir.compile(_chain(), options={field: bad})
