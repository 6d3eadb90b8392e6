"""Compile options resolved once: the config is read and applied at the entry, and every stage
reads the one :class:`ResolvedOptions` (``ge_mlir.config.options``)."""

from __future__ import annotations

import ast
import json
import warnings
from pathlib import Path

import pytest
from onnx import TensorProto, helper

import ge_mlir
from ge_mlir.config import CompileOptions, ConfigWarning, ResolvedOptions, options as options_module, resolve_options
from ge_mlir.errors import CompileError

PACKAGE = Path(ge_mlir.__file__).resolve().parent

#: A config exercising each resolution step: a GE memory key that fills an unset option, a
#: partitioner share of the budget (applied once it must be), and an inert key (one warning per load).
CONFIG = {"ge.exec.memory": {"memory_reuse_strategy": "best-fit", "memory_budget_mb": 64},
          "ge.exec.graphPartitioner": {"activation_memory_factor": 0.5, "reserved_memory_mb": 4},
          "ge.exec.recompute": {"priority": "memory"}}
#: The budget the plan is checked against: (64 - 4) * 0.5 MiB.
ARENA_BUDGET = 30.0


def _chain() -> bytes:
    """x[2, 64] -> relu -> sigmoid -> y (batch 2: a data-parallel split has something to split)."""
    nodes = [helper.make_node("Relu", ["x"], ["t"], name="r"), helper.make_node("Sigmoid", ["t"], ["y"], name="s")]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 64])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


@pytest.fixture
def counted(tmp_path, monkeypatch):
    """A config file, and counts of how often it is read and how often options are resolved
    (a resolution that loads the config; resolved options passed on load nothing)."""
    path = tmp_path / "ge_options.json"
    path.write_text(json.dumps(CONFIG))
    counts = {"reads": 0, "resolutions": 0}
    read_text = Path.read_text

    def counting_read(self, *args, **kwargs):
        if Path(self).resolve() == path.resolve():
            counts["reads"] += 1
        return read_text(self, *args, **kwargs)

    load = options_module.load_config

    def counting_load(config):
        counts["resolutions"] += 1
        return load(config)

    monkeypatch.setattr(Path, "read_text", counting_read)
    monkeypatch.setattr(options_module, "load_config", counting_load)
    return path, counts


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [w for w in caught if issubclass(w.category, ConfigWarning)]


def test_compile_reads_and_resolves_the_config_once(counted):
    path, counts = counted
    # Unfused: the chain keeps a buffer for the planner to place.
    model, warned = _warnings_of(lambda: ge_mlir.compile(_chain(), options={"config": str(path), "fuse_elementwise": False},
                                                         cache=False))
    assert counts == {"reads": 1, "resolutions": 1}
    assert len(warned) == 1 and "ge.exec.recompute.priority" in str(warned[0].message)
    # What the stages read came from that one resolution: the planner's strategy, the budget.
    assert model.memory_plan["strategy"] == "best-fit" and model.memory_plan["arena"] <= ARENA_BUDGET * 2**20


def test_staged_workflow_and_estimate_resolve_once(counted):
    path, counts = counted
    engine, _ = _warnings_of(lambda: ge_mlir.GraphEngine({"config": str(path)}))
    graph = engine.optimize(engine.load(_chain()))
    engine.compile(graph)
    assert counts == {"reads": 1, "resolutions": 1}
    assert engine.options.memory_budget_mb == ARENA_BUDGET and engine.config is engine.options.config
    _warnings_of(lambda: ge_mlir.estimate_memory(_chain(), options={"config": str(path)}))
    assert counts == {"reads": 2, "resolutions": 2}


def test_resolved_options_pass_through_unchanged():
    resolved = resolve_options({"memory_budget_mb": 64, "config": {k: v for k, v in CONFIG.items()
                                                                     if k != "ge.exec.recompute"}})
    assert isinstance(resolved, ResolvedOptions) and resolved.memory_budget_mb == ARENA_BUDGET
    # A second resolution would take the partitioner's share of the budget again (15 MiB).
    assert resolve_options(resolved) is resolved
    assert ge_mlir.GraphEngine(resolved).options is resolved


def test_parallel_compile_hands_its_resolution_to_the_ranks(counted, monkeypatch):
    # compile(parallel=...) hands the resolved options to the parallel driver (which needs MPI
    # ranks to run): its engine must read them as they are, not load and apply the config again.
    from ge_mlir.parallel import driver

    path, counts = counted
    seen = {}

    def plan_only(model, strategy, options, *, target, example_inputs):
        plan, engine = driver.plan_parallel(model, strategy, options, example_inputs=example_inputs)
        seen["options"], seen["world"] = engine.options, plan.world_size
        return "planned"

    monkeypatch.setattr(driver, "compile_parallel", plan_only)
    got, warned = _warnings_of(lambda: ge_mlir.compile(_chain(), options={"config": str(path)},
                                                       parallel={"data_parallel": 2}))
    assert got == "planned" and seen["world"] == 2
    assert counts == {"reads": 1, "resolutions": 1} and len(warned) == 1
    assert seen["options"].memory_budget_mb == ARENA_BUDGET


def test_bad_options_and_config_fail_at_resolution():
    with pytest.raises(CompileError, match="num_threads"):
        resolve_options({"num_threads": 0})
    with pytest.raises(ge_mlir.ConfigError, match="precisionMode"):
        resolve_options(CompileOptions(config={"precisionMode": "fp32"}))


#: Modules that may load the config or resolve options: the entries that take options from a
#: caller. Every other module (stages, targets, passes, the parallel driver) is handed the
#: resolved options (or its ``Config``) and must not load it again.
ENTRIES = {
    "ge_mlir.config": "the loader and the resolver themselves",
    "ge_mlir.compiler": "compile, GraphEngine and estimate_memory resolve the caller's options",
    "ge_mlir.profiler": "profile resolves the options of the model it compiles",
    "ge_mlir.tools.ge_opt": "ge-opt --config builds pipelines, no compile",
    "ge_mlir.tools.ge_bisect": "ge-bisect's config shapes the pipeline it bisects",
    "ge_mlir.optimize.default_pipeline": "default_pipeline(target, config) takes a path or a dict too; "
                                         "handed the resolved Config (by the engine) it loads nothing",
}
LOADERS = {"load_config", "resolve_options", "coerce_options"}


def test_only_the_entries_load_the_config():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(("ge_mlir", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        if any(module == e or module.startswith(e + ".") for e in ENTRIES):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = set()
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
            elif isinstance(node, ast.Attribute):
                names = {node.attr}
            if names & LOADERS:
                offenders.append(f"{module}:{node.lineno}: {sorted(names & LOADERS)}")
    assert not offenders, "stages loading the config themselves:\n" + "\n".join(offenders)
