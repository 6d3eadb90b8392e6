"""``ge_mlir.compile(model, parallel=...)``: load, optimize, partition, then compile this rank's part."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import CompileError
from ..partition.plan import ExecutionPlan, partition_graph
from ..parallel_strategy import ParallelStrategy, parse_strategy

__all__ = ["compile_parallel", "plan_parallel"]


def plan_parallel(model: Any, strategy: ParallelStrategy | Mapping[str, Any] | str, options: Any = None, *,
                  example_inputs: Sequence[Any] | None = None) -> tuple[ExecutionPlan, Any]:
    """The :class:`ExecutionPlan` of ``model`` under ``strategy`` (no MPI needed), and the engine."""
    from ..compiler.engine import GraphEngine

    s = parse_strategy(strategy)
    engine = GraphEngine(options, target="cpu")
    graph = engine.optimize(engine.load(model, example_inputs))
    return partition_graph(graph, s), engine


def compile_parallel(model: Any, strategy: ParallelStrategy | Mapping[str, Any] | str, options: Any = None, *,
                     target: str = "cpu", example_inputs: Sequence[Any] | None = None) -> Any:
    """Every rank of an MPI job calls this: each compiles its own part (ParallelCompiledModel)."""
    if target != "cpu":
        raise CompileError(f"parallel execution runs on the cpu target, not {target!r}")
    from .runtime import ParallelCompiledModel, mpi_world, require_world_size

    comm = mpi_world()
    s = parse_strategy(strategy)
    require_world_size(comm, s)
    try:
        plan, engine = plan_parallel(model, s, options, example_inputs=example_inputs)
        return ParallelCompiledModel(plan, engine)
    except Exception as e:
        # A rank that cannot compile must not leave the others waiting in a collective.
        from .runtime import abort_world

        abort_world(comm, e)
        raise  # pragma: no cover
