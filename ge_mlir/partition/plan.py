"""The execution plan: a model partitioned by a strategy into one program per rank.

:func:`partition_graph` runs the partition passes in this order on the
optimized graph (docs/parallel.md explains why):

1. the batch split into ``data_parallel * num_microbatches`` pieces
   (``ge-partition-data{gather-outputs=false}``): a shape change, since data
   replicas and microbatches need no communication inside the graph; the
   runtime scatters the inputs and gathers the outputs;
2. ``ge-partition-tensor`` (Megatron column/row pairs, all-reduce, all-gather);
3. ``ge-partition-pipeline`` (stages joined by send/recv);

and :meth:`ExecutionPlan.rank_module` gives each rank its part
(``ge-specialize-rank``). Ranks are numbered
``rank = pipeline_rank * (D * T) + data_index * T + tensor_index``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from ..errors import CompileError, GeMlirError
from ..irutils.functions import pick_function
from .. import scheduler as sched
from . import sharding as sh
from .cost import value_bytes
from ..parallel_strategy import ParallelStrategy

__all__ = ["ExecutionPlan", "RankCoords", "partition_graph", "rank_coords"]


@dataclass(frozen=True)
class RankCoords:
    rank: int
    pipeline_rank: int
    data_index: int
    tensor_index: int
    stages: tuple[int, ...]


def rank_coords(strategy: ParallelStrategy, rank: int, assignment: list[int]) -> RankCoords:
    d, t = strategy.data_parallel, strategy.tensor_parallel
    p_rank, rest = divmod(rank, d * t)
    di, ti = divmod(rest, t)
    stages = tuple(s for s, r in enumerate(assignment) if r == p_rank)
    return RankCoords(rank, p_rank, di, ti, stages)


@dataclass
class CommRecord:
    """One communication of one step (a forward pass over the whole batch)."""

    kind: str  # all_reduce, all_gather, send, scatter-inputs, gather-outputs
    stage: int
    bytes_per_rank: int
    ranks: int
    note: str = ""


@dataclass
class ExecutionPlan:
    """Subgraphs per rank, their order (the scheduler's), communication and memory.

    ``module`` holds every stage of the partitioned graph (``ge`` ops plus ``shard``
    collectives, weights whole); :meth:`rank_module` specializes it for one rank."""

    strategy: ParallelStrategy
    module: ir.Module
    context: ir.Context
    func_name: str
    input_names: list[str]
    output_names: list[str]
    #: The graph's inputs (name, shape, dtype), for callers that make data.
    inputs: list[Any]
    #: Pipeline rank of each stage.
    assignment: list[int]
    scheduler: Any
    comm: list[CommRecord] = field(default_factory=list)
    #: Bytes of weights of the unpartitioned graph.
    single_device_weight_bytes: int = 0
    memory: dict[int, dict[str, int]] = field(default_factory=dict)
    #: Constants with a batch dimension, made inputs by the batch split (split like the inputs).
    batch_constants: dict[str, Any] = field(default_factory=dict)

    @property
    def world_size(self) -> int:
        return self.strategy.world_size

    @property
    def batch_pieces(self) -> int:
        return self.strategy.data_parallel * self.strategy.num_microbatches

    def coords(self, rank: int) -> RankCoords:
        return rank_coords(self.strategy, rank, self.assignment)

    def schedule(self, rank: int) -> list[tuple[int, int]]:
        c = self.coords(rank)
        return self.scheduler.order(c.pipeline_rank, list(c.stages), self.strategy.num_microbatches,
                                    self.strategy.pipeline_parallel)

    def theoretical_bubble(self) -> float:
        return self.scheduler.bubble(self.strategy.num_stages, self.strategy.num_microbatches,
                                     self.strategy.pipeline_parallel)

    def stage_function(self, stage: int) -> str:
        return f"{self.func_name}_stage{stage}" if self.strategy.num_stages > 1 else self.func_name

    def rank_module(self, rank: int, stage: int) -> ir.Module:
        """A copy of the plan's module specialized for ``rank`` running ``stage``."""
        from ..passes.pipeline import run_elements
        from ..passes import parse_pipeline

        c = self.coords(rank)
        with self.context:
            m = ir.Module.parse(self.module.operation.get_asm(enable_debug_info=True))
            st = stage if self.strategy.num_stages > 1 else -1
            text = f"builtin.module(ge-specialize-rank{{stage={st} tensor-index={c.tensor_index}}})"
            run_elements(m.operation, parse_pipeline(text), text)
        return m

    def comm_bytes_per_step(self) -> int:
        return sum(r.bytes_per_rank * r.ranks for r in self.comm)

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy.to_dict(), "world_size": self.world_size,
            "stages": self.strategy.num_stages, "assignment": self.assignment,
            "schedule": {r: self.schedule(r) for r in range(self.world_size)},
            "theoretical_bubble": self.theoretical_bubble(),
            "communication": [vars(r) for r in self.comm], "comm_bytes_per_step": self.comm_bytes_per_step(),
            "memory": self.memory, "single_device_weight_bytes": self.single_device_weight_bytes,
        }

    def report(self) -> str:
        """A plain-text summary: strategy, per-rank memory, communication, bubble."""
        lines = [f"execution plan: {self.strategy.describe()}"]
        if self.strategy.num_stages > 1:
            lines.append(f"  schedule {self.scheduler.name}: theoretical bubble {self.theoretical_bubble():.3f} "
                         f"({self.strategy.pipeline_parallel} pipeline ranks, {self.strategy.num_microbatches} "
                         f"microbatches)")
        lines.append(f"  communication per step: {self.comm_bytes_per_step() / 2**20:.3f} MiB")
        for r in self.comm:
            lines.append(f"    {r.kind:<15} stage {r.stage}: {r.bytes_per_rank} B x {r.ranks} rank(s) {r.note}")
        if self.memory:
            lines.append(f"  weights on one device: {self.single_device_weight_bytes / 2**20:.3f} MiB")
            for rank, m in sorted(self.memory.items()):
                lines.append(f"    rank {rank}: weights {m['weights'] / 2**20:.3f} MiB, activations "
                             f"{m['activations'] / 2**20:.3f} MiB, comm buffers {m['comm_buffers'] / 2**20:.3f} MiB")
        return "\n".join(lines)

    def json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, default=str)


def partition_graph(graph: Any, strategy: ParallelStrategy) -> ExecutionPlan:
    """Partitions an optimized :class:`~ge_mlir.compiler.engine.StagedGraph` (copied) by ``strategy``."""
    from ..passes import parse_pipeline
    from ..passes.pipeline import run_elements

    module, ctx = graph._copy()
    in_names, out_names = graph._names
    s = strategy
    elements = []
    pieces = s.data_parallel * s.num_microbatches
    if pieces > 1:
        elements.append(f"ge-partition-data{{degree={pieces} gather-outputs=false}}")
    if s.tensor_parallel > 1:
        # Unmatched rules are reported one by one below (the pass sees them merged per kind).
        opts = [f"degree={s.tensor_parallel}", f"auto={'true' if s.auto_tensor_rules else 'false'}",
                "warn-unmatched=false"]
        if s.rules:
            rules = [{"op_name_pattern": r.pattern, "strategy": r.strategy, "axis": r.axis} for r in s.rules]
            opts.append("rules=" + _quote(json.dumps(rules, separators=(",", ":"))))
        elements.append("ge-partition-tensor{" + " ".join(opts) + "}")
    if s.num_stages > 1:
        opts = [f"stages={s.num_stages}"]
        if s.stage_boundaries:
            opts.append("boundaries=" + _quote(",".join(s.stage_boundaries)))
        elements.append("ge-partition-pipeline{" + " ".join(opts) + "}")
    batch_constants: dict[str, Any] = {}
    with ctx:
        weights = _weight_bytes(module.operation)
        for i, element in enumerate(elements):
            text = f"builtin.module({element})"
            try:
                run_elements(module.operation, parse_pipeline(text), text)
            except GeMlirError as e:
                raise CompileError(f"cannot partition the graph with {s.describe()}: {e.message}",
                                   diagnostics=e.diagnostics) from None
            if i == 0 and pieces > 1:
                batch_constants = _drop_batch_grid(module.operation)
        _warn_unmatched_rules(graph, s)
    scheduler = sched.get(s.schedule)
    with ctx:
        edges = _stage_edges(module.operation)
    assignment = list(scheduler.assign(s.num_stages, s.pipeline_parallel, edges))
    if sorted(set(assignment)) != list(range(s.pipeline_parallel)) or len(assignment) != s.num_stages:
        raise CompileError(f"scheduler {s.schedule!r} assigned stages {assignment} to {s.pipeline_parallel} "
                           f"pipeline ranks: every rank needs a stage")
    plan = ExecutionPlan(strategy=s, module=module, context=ctx, func_name=graph.func_name,
                         input_names=list(in_names), output_names=list(out_names), inputs=list(graph.inputs),
                         assignment=assignment,
                         scheduler=scheduler, single_device_weight_bytes=weights, batch_constants=batch_constants)
    with ctx:
        _analyse(plan)
    return plan


def _stage_edges(module: ir.Operation) -> dict[tuple[int, int], int]:
    """Bytes each stage sends each later stage per microbatch."""
    edges: dict[tuple[int, int], int] = {}
    for fn in sh.functions(module):
        if "ge.stage" not in fn.attributes:
            continue
        src = ir.IntegerAttr(fn.attributes["ge.stage"]).value
        for o in sh.body(fn).operations:
            o = o.operation
            if o.name == "shard.send":
                dst = list(ir.DenseI64ArrayAttr(o.attributes["destination"]))[0]
                edges[(src, dst)] = edges.get((src, dst), 0) + value_bytes(o.operands[0])
    return edges


def _quote(text: str) -> str:
    # Pass option values with spaces, commas or braces go in quotes (the pipeline parser's rule).
    if "'" in text:
        raise CompileError(f"a parallel strategy value may not contain a single quote: {text!r}")
    return "'" + text + "'" if any(c in text for c in " ,{}") else text


def _weight_bytes(op: ir.Operation) -> int:
    total = 0
    for fn in sh.functions(op):
        for o in sh.body(fn).operations:
            if o.operation.name == "ge.constant":
                total += value_bytes(o.result)
    return total


def _drop_batch_grid(module: ir.Operation) -> dict[str, Any]:
    """After a batch split with no gather nothing may move data between batch pieces. A
    constant with a batch dimension (the importer folds e.g. token-type embeddings of a
    constant ``zeros_like(ids)``) comes out sliced per piece: it becomes an input of the
    function (``ge.batch_constant.<i>``) that the runtime splits like the others, and its value
    is returned here. Anything else on @ge_data is refused."""
    from ..irutils.constants import constant_array

    hoisted: dict[str, Any] = {}
    for fn in sh.functions(module):
        blk = sh.body(fn)
        for o in list(blk.operations):
            o = o.operation
            if not (o.name.startswith("shard.") and "grid" in o.attributes and
                    ir.FlatSymbolRefAttr(o.attributes["grid"]).value == sh.DATA_GRID):
                continue
            arr = constant_array(o.operands[0]) if o.name == "shard.all_slice" else None
            if arr is None:
                raise CompileError(f"the batch cannot be split: {o.name} at {o.location} moves data between "
                                   f"batch pieces (an op mixes the images of the batch)")
            name = f"ge.batch_constant.{len(hoisted)}"
            hoisted[name] = arr
            arg = blk.add_argument(o.result.type, o.location)
            o.result.replace_all_uses_with(arg)
            src = o.operands[0].owner
            o.erase()
            if not list(src.results[0].uses):
                src.operation.erase()
            ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
            fn.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get([*ftype.inputs, arg.type], list(ftype.results)))
            attrs = list(ir.ArrayAttr(fn.attributes["arg_attrs"])) if "arg_attrs" in fn.attributes else \
                [ir.DictAttr.get({}) for _ in ftype.inputs]
            attrs.append(ir.DictAttr.get({"onnx.name": ir.StringAttr.get(name)}))
            fn.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
    sh.remove_grid(module, sh.DATA_GRID)
    return hoisted


def _warn_unmatched_rules(graph: Any, s: ParallelStrategy) -> None:
    """A rule matching no linear layer is a warning that names it."""
    if not s.rules:
        return
    import warnings

    from .ge_partition_tensor import op_names, weight_operand
    from ..parallel_strategy import ParallelWarning

    names: list[str] = []
    with graph._context:
        for fn in sh.functions(graph._module.operation):
            for o in sh.body(fn).operations:
                if weight_operand(o.operation) is not None:
                    names += op_names(o.operation)
    for r in s.rules:
        if not r.matches(names):
            warnings.warn(f"parallel strategy: rule {r.pattern!r} ({r.strategy}) matches no linear layer of the "
                          f"graph", ParallelWarning, stacklevel=4)


def _analyse(plan: ExecutionPlan) -> None:
    """Communication per step and per-rank memory, from the partitioned module."""
    s = plan.strategy
    module = plan.module.operation
    group = s.data_parallel * s.tensor_parallel
    for fn in sh.functions(module):
        stage = ir.IntegerAttr(fn.attributes["ge.stage"]).value if "ge.stage" in fn.attributes else 0
        for o in sh.body(fn).operations:
            o = o.operation
            reps = s.num_microbatches
            if o.name == "shard.all_reduce":
                plan.comm.append(CommRecord("all_reduce", stage, value_bytes(o.result) * reps, group,
                                            f"x{reps} microbatch(es)"))
            elif o.name == "shard.all_gather":
                plan.comm.append(CommRecord("all_gather", stage, value_bytes(o.result) * reps, group,
                                            f"x{reps} microbatch(es)"))
            elif o.name == "shard.send":
                plan.comm.append(CommRecord("send", stage, value_bytes(o.operands[0]) * reps, group,
                                            f"to stage {list(ir.DenseI64ArrayAttr(o.attributes['destination']))[0]}"))
    for rank in range(s.world_size):
        c = plan.coords(rank)
        weights = acts = comm = 0
        for stage in c.stages:
            fn = pick_function(plan.module, plan.stage_function(stage))
            w, a, cb = _memory_of(fn)
            weights, acts, comm = weights + w, max(acts, a), comm + cb
        plan.memory[rank] = {"weights": weights, "activations": acts, "comm_buffers": comm}


def _memory_of(fn: ir.Operation) -> tuple[int, int, int]:
    """(weight bytes this rank holds, activation peak estimate, communication buffer bytes)."""
    from ..memory.estimate import estimate_function

    weights = comm = 0
    sliced: set[int] = set()
    for o in sh.body(fn).operations:
        o = o.operation
        if o.name == "shard.all_slice" and getattr(o.operands[0].owner, "name", "") == "ge.constant":
            weights += value_bytes(o.result)
            sliced.add(hash(o.operands[0].owner.operation))
        elif o.name in ("shard.send", "shard.recv", "shard.all_reduce", "shard.all_gather"):
            comm += value_bytes(o.results[0])
    for o in sh.body(fn).operations:
        o = o.operation
        if o.name == "ge.constant" and hash(o) not in sliced:
            weights += value_bytes(o.result)
    return weights, int(estimate_function(fn).activation_peak), comm
