"""Memory estimation on the ge graph, before lowering.

:func:`estimate_module` reads an optimized ge module (the ``optimized`` stage of
``ge_mlir.compile``) and predicts what a target's memory plan (``ge-plan-memory``,
``CompiledModel.memory_plan``; the CPU's by default) will need, without lowering:

* **weights**: the bytes of every constant (ONNX initializers become ``ge.constant``);
* **activation peak**: the arena the planner (:func:`ge_mlir.memory.planner.plan`, the
  same strategies, alignment 64) gives the ge tensors over their live ranges
  (:mod:`ge_mlir.memory.liveness`: from the op defining a tensor to its last use;
  arguments and constants cost nothing; reshape-like results are views of their
  source; returned tensors become the caller's out-parameters and cost nothing, also through
  one reshape-like view, unless the lowering returns a view of an internal buffer or the tensor
  is returned only through several views: then it is copied out);
* **workspace**: what the scratch buffers the target's lowering materialises besides the ge
  tensors add to that arena (they are planned together with the tensors; the
  workspace is the joint arena minus the activation peak). The target says what they are
  (:meth:`ge_mlir.target.base.Target.memory_model`, a :class:`~.op_model.MemoryModel`); the
  CPU's, per op kind (:func:`ge_mlir.target.cpu.memory_model.lowering_model`): padded inputs of
  convolutions and pools, the im2col patch
  matrix of strided or small-image convolutions, the padded-row copy of stride-1
  convolutions computed as shifted matmuls, matmul/convolution accumulators that a
  bias/activation/residual epilogue reads, transposed inputs (``gemm`` ``trans_a``,
  NHWC layouts), materialised batch broadcasts of matmuls, and the per-row
  statistics of softmax and normalizations;
* the **program point of the peak** (a ge op and the step of its lowering), and the
  largest tensors with the ONNX nodes that produce them.

The lowering of one ge op is modelled as four steps (:data:`~.op_model.STEPS`): ``prep``
(copies of inputs: padding, transposes), ``gather`` (im2col / row copies, the
accumulator of an im2col convolution), ``compute`` (the contraction or reduction) and
``epilogue`` (the elementwise step writing the result). Program points are
``4 * op index + step``, so buffers of one op that the lowering never holds at
once (an input copied into a padded buffer and the result written after it) do not
overlap in the estimate either.

Two effects of bufferization are modelled, on what the target's model says (its padded
operands and in-place candidates): a tensor that a convolution or pool pads
is written by its producer straight into the padded buffer (empty-tensor
elimination: its size becomes the padded size, and the consumer copies nothing) when
the producer's result is a fresh buffer and the tensor is the first one padded; and,
with ``in_place`` (default on), the in-place reuse of ``ge-plan-memory``: an
elementwise op (a ge elementwise op, the last step of softmax and the normalizations, or
the epilogue of a matmul/convolution/pooling over its accumulator) whose input of the
same shape and element type dies at that op writes its result into that input's bytes,
when the input is neither an argument nor a constant (nor a view of one) and does not
live in a consumer's padded buffer; reshape views qualify (row-major, as in the pass).

Import and optimization are not part of this module (``ge_mlir.estimate_memory``
does them the way ``ge_mlir.compile`` does, then calls :func:`estimate_module`).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from mlir import ir

from ..errors import CompileError, format_location, node_name
from ..irutils.functions import pick_function, symbol_name
from ..irutils.types import tensor_bytes
from .buffers import Buffer
from .estimate_report import TOP, BufferEstimate, MemoryEstimate
from .liveness import BlockTensors, Key, producer
from .op_model import EPILOGUE, NEUTRAL, PREP, STEPS, MemoryModel, OpModel, Scratch, shape_text, static_tensor
from .planner import AGGRESSIVE, STRATEGIES, lower_bound, plan
from .strategies import live_sets, round_up

__all__ = ["STEPS", "BufferEstimate", "MemoryEstimate", "OpModel", "Scratch", "estimate_function",
           "estimate_module", "memory_model_of"]

_N = len(STEPS)
#: ``strategy`` value: the best of the heuristic strategies, never the exact solver.
HEURISTICS_ONLY = "heuristics"
#: The target whose lowering an estimate models when its caller names none (the compiler's default).
DEFAULT_TARGET = "cpu"


def memory_model_of(target: Any = DEFAULT_TARGET, **options: Any) -> MemoryModel:
    """The memory model of ``target``'s lowering under the compile ``options`` (``winograd``,
    ``fuse_elementwise``): what its :meth:`~ge_mlir.target.base.Target.memory_model` gives, the
    target-neutral model when that is None. ``target`` is a :class:`~ge_mlir.target.base.Target`
    or a name of the target table."""
    if isinstance(target, str):
        # By name through the target table (ge_mlir.target.get_target loads the target's module):
        # the estimate knows no target, the targets know the estimate.
        from ..target import get_target

        target = get_target(target)
    return target.memory_model(options) or NEUTRAL


def estimate_module(module: ir.Module | ir.Operation, *, func_name: str | None = None, in_place: bool = True,
                    alignment: int = 64, strategy: str = AGGRESSIVE, work_limit: float = 0.1,
                    fuse_elementwise: bool = True, winograd: bool = True,
                    target: Any = DEFAULT_TARGET) -> MemoryEstimate:
    """Estimates the memory of ``module``'s function (``func_name``, else the only public one).

    ``module`` is an optimized ge module (it is read, not changed). ``in_place`` models the
    in-place reuse of dying elementwise inputs (as ``ge-plan-memory`` does); ``alignment``,
    ``strategy`` and ``work_limit`` are the planner's, defaulting to ``ge-plan-memory``'s (64 on
    the CPU; ``aggressive``: every strategy, the exact CP-SAT solve, in a child process, only when
    no heuristic meets the interval bound; ``"heuristics"`` skips it); ``target`` lowers the ops
    (:func:`memory_model_of`); ``fuse_elementwise`` models the CPU pipeline's elementwise fusion
    (the ``fuse_elementwise`` compile option), ``winograd`` its Winograd convolutions (the
    ``winograd`` compile option). Raises :class:`~ge_mlir.errors.CompileError` when there is no
    such function or an option is wrong.
    """
    op = module.operation if isinstance(module, ir.Module) else module
    if not isinstance(alignment, int) or isinstance(alignment, bool) or alignment < 1:
        raise CompileError(f"alignment must be a positive byte count, got {alignment!r}")
    if strategy not in (AGGRESSIVE, HEURISTICS_ONLY, *STRATEGIES):
        raise CompileError(f"unknown planning strategy {strategy!r} "
                           f"(strategies: {', '.join((AGGRESSIVE, HEURISTICS_ONLY, *STRATEGIES))})")
    with op.context:
        try:
            fn = pick_function(module, func_name) if isinstance(module, ir.Module) else _pick_in_op(op, func_name)
        except LookupError as e:
            raise CompileError(str(e)) from None
        return estimate_function(fn, in_place=in_place, alignment=alignment, strategy=strategy,
                                 work_limit=work_limit, fuse_elementwise=fuse_elementwise, winograd=winograd,
                                 target=target)


def _pick_in_op(op: ir.Operation, func_name: str | None) -> ir.Operation:
    fns = [o.operation for o in op.regions[0].blocks[0].operations
           if o.operation.name == "func.func" and o.operation.regions[0].blocks]
    if func_name is not None:
        fns = [f for f in fns if symbol_name(f) == func_name]
    if len(fns) != 1:
        raise LookupError(f"expected one function{f' named @{func_name}' if func_name else ''}, found {len(fns)}")
    return fns[0]


def _name(op: ir.Operation) -> str:
    return node_name(op.location) or format_location(op.location)


class _Slots:
    """Union-find over buffers that share bytes (in-place reuse)."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, a: int) -> int:
        while self.parent.get(a, a) != a:
            a = self.parent[a]
        return a

    def union(self, keep: int, other: int) -> None:
        self.parent[self.find(other)] = self.find(keep)


class _Estimate:
    """One function's estimate, phase by phase: the ge tensors' sizes and live ranges
    (:meth:`tensors`), the buffers to plan with the scratch (:meth:`buffers`), in-place reuse
    (:meth:`reuse`), the plans (:meth:`plan`) and the report (:meth:`report`)."""

    def __init__(self, fn: ir.Operation, model: MemoryModel, fuse: bool) -> None:
        self.fn = fn
        self.bt = bt = BlockTensors(fn.regions[0].blocks[0])
        self.models: list[OpModel] = [model.op(op) for op in bt.ops]
        self.fused: dict[int, int] = model.fused(bt) if fuse and model.fused is not None else {}

    def copied_out(self) -> set[Key]:
        """The tensors copied out to their out-parameter (and so taking workspace): those whose
        lowered result is a view of an internal buffer, and those returned through two or more
        reshape-like views and never directly. A tensor returned directly, or through one such view
        (ge-forward-result-buffers), is computed in its out-parameter."""
        bt = self.bt
        copied: set[Key] = set()
        returned_as: dict[Key, set] = {}
        for v in bt.term.operands:
            src = producer(v, bt.index)
            r = bt.root.get(src) if src is not None else None
            if r is not None:
                returned_as.setdefault(r, set()).add(src)
        for r, srcs in returned_as.items():
            m = self.models[r[0]]
            if (m.result_view and not m.result_reshaped) or (len(srcs) > 1 and r not in srcs):
                copied.add(r)
        return copied

    def tensors(self) -> None:
        """Sizes, padded buffers, scratch and live ranges of the ge tensors."""
        bt, models, fused = self.bt, self.models, self.fused
        self.copied = self.copied_out()
        # Empty-tensor elimination: a padded operand whose producer writes a fresh buffer becomes that buffer.
        self.size: dict[Key, int] = {r: (0 if r[0] in fused else b) for r, b in bt.nbytes.items()}
        self.tensor_type: dict[Key, str] = {r: _type_text(bt.ops[r[0]].results[r[1]].type) for r in bt.nbytes}
        self.absorbed: dict[Key, int] = {}
        self.padded_type: dict[Key, str] = {}
        read_step: dict[tuple[int, int], int] = {}  # (op, operand) -> step
        self.scratch: list[tuple[int, Scratch]] = []  # (op index, scratch)
        for i, (op, m) in enumerate(zip(bt.ops, models)):
            for pos, (padded, ptype, last) in m.pads.items():
                r = bt.root_of(op.operands[pos])
                src = producer(op.operands[pos], bt.index)
                if (r is not None and src == r and r not in self.absorbed and r not in bt.returned
                        and not models[r[0]].result_view and self.size.get(r, 0)):
                    self.absorbed[r] = i
                    self.size[r] = max(self.size[r], padded)
                    self.padded_type[r] = ptype
                    read_step[(i, pos)] = last
                else:
                    self.scratch.append((i, Scratch("padded input", padded, PREP, last, ptype)))
                    read_step[(i, pos)] = PREP
            for s in m.scratch:
                self.scratch.append((i, s))
        end_point = _N * bt.n  # the terminator
        self.live: dict[Key, list[int]] = {}
        for r, b in self.size.items():
            if not b or (r in bt.returned and r not in self.copied):
                continue
            i = r[0]
            start = _N * i + models[i].out
            end = start
            for u in bt.users[r]:
                for pos, rr in bt.reads[u]:
                    if rr == r:
                        step = read_step.get((u, pos), models[u].read.get(pos, EPILOGUE) if pos >= 0 else EPILOGUE)
                        end = max(end, _N * fused.get(u, u) + (EPILOGUE if u in fused else step))
            if r in self.copied:
                end = end_point
            self.live[r] = [start, end]

    def buffers(self) -> None:
        """The buffers to plan: tensors first (ids 0..), then scratch."""
        bt = self.bt
        self.tensor_keys = sorted(self.live)
        self.buf_of: dict[Key, int] = {r: k for k, r in enumerate(self.tensor_keys)}
        self.infos: list[BufferEstimate] = []
        for r in self.tensor_keys:
            op = bt.ops[r[0]]
            self.infos.append(BufferEstimate(_name(op), op.name, "activation", self.size[r], self.tensor_type[r],
                                             self.live[r][0] // _N, self.live[r][1] // _N,
                                             padded=self.padded_type.get(r, "")))
        self.ranges = [tuple(self.live[r]) for r in self.tensor_keys]
        self.sizes = [self.size[r] for r in self.tensor_keys]
        self.scratch_ids: list[int] = []
        self.acc_of_op: dict[int, int] = {}
        for i, s in self.scratch:
            if not s.size:
                continue
            k = len(self.infos)
            self.scratch_ids.append(k)
            op = bt.ops[i]
            self.infos.append(BufferEstimate(_name(op), op.name, s.label, s.size, s.type, i, i))
            self.ranges.append((_N * i + s.first, _N * i + s.last))
            self.sizes.append(s.size)
            if s.epilogue_acc:
                self.acc_of_op[i] = k

    def reuse(self) -> tuple[_Slots, dict[int, int]]:
        """In-place reuse: a result written at its op's epilogue takes over the bytes of an input
        that dies there. Returns the shared slots and, per buffer, the one whose bytes it takes."""
        bt, models, ranges, sizes = self.bt, self.models, self.ranges, self.sizes
        slots = _Slots()
        reuses: dict[int, int] = {}
        taken: set[int] = set()
        for r in self.tensor_keys:
            i = r[0]
            op, m = bt.ops[i], models[i]
            if r in self.absorbed or m.out != EPILOGUE or len(op.results) != 1:
                continue
            out_b = self.buf_of[r]
            candidates: list[int] = []
            if i in self.acc_of_op:  # the epilogue reads the accumulator, which dies there
                candidates.append(self.acc_of_op[i])
            rt = op.results[0].type
            # A fused chain's generic reads what its fused producers read: those may die here too.
            operands = [op.operands[pos] for pos in m.inplace_operands]
            k = 0
            while k < len(operands):
                src = producer(operands[k], bt.index)
                if src is not None and self.fused.get(src[0]) == i:
                    operands += list(bt.ops[src[0]].operands)
                k += 1
            for v in operands:
                rr = bt.root_of(v)
                # Not an argument or a constant (or a view of one), of the result's type (a reshape
                # view keeps the row-major order), not living in a consumer's padded buffer, dying here.
                if rr is None or rr not in self.buf_of or rr in self.absorbed or v.type != rt:
                    continue
                if self.live[rr][1] != _N * i + EPILOGUE:
                    continue
                candidates.append(self.buf_of[rr])
            for c in candidates:
                # Each buffer hands its bytes on once (chains of in-place ops share one slot).
                if c in taken or ranges[c][1] != _N * i + EPILOGUE or sizes[c] < sizes[out_b]:
                    continue
                taken.add(c)
                slots.union(c, out_b)
                reuses[out_b] = c
                break
        return slots, reuses

    def plan(self, slots: _Slots, alignment: int, strategy: str, work_limit: float) -> None:
        """The shared buffers merged into one record each and planned: the joint arena (tensors
        and scratch), the activation peak and the lower bound."""
        infos, ranges, sizes, n_tensors = self.infos, self.ranges, self.sizes, len(self.tensor_keys)
        self.groups: dict[int, list[int]] = {}
        for k in range(len(infos)):
            self.groups.setdefault(slots.find(k), []).append(k)
        self.merged: list[Buffer] = []
        tensor_only: list[Buffer] = []
        for gid, (root, members) in enumerate(sorted(self.groups.items())):
            b = Buffer(gid, max(sizes[k] for k in members), min(ranges[k][0] for k in members),
                       max(ranges[k][1] for k in members), infos[root].name)
            self.merged.append(b)
            if all(k < n_tensors for k in members):
                tensor_only.append(b)
            elif any(k < n_tensors for k in members):
                # An accumulator taken over by its result: the tensor part counts as activation.
                ts = [k for k in members if k < n_tensors]
                tensor_only.append(Buffer(gid, max(sizes[k] for k in ts), min(ranges[k][0] for k in ts),
                                          max(ranges[k][1] for k in ts), infos[ts[0]].name))
        # The joint plan (tensors and scratch) is the arena estimate. The activation peak is the smaller of
        # the heuristics' plan of the tensors alone and the joint plan's placement of them (a valid plan of
        # the tensors too): the exact solver, a child process, then runs at most once.
        self.joint, self.chosen, offsets = 0, "", {}
        if self.merged:
            if strategy == HEURISTICS_ONLY:
                p = plan(self.merged, alignment=alignment, max_exact_buffers=0)
            else:
                p = plan(self.merged, alignment=alignment, strategy=strategy, work_limit=work_limit)
            self.joint, self.chosen, offsets = p.arena, p.strategy, p.offsets
        self.act = 0
        if tensor_only:
            alone = plan(tensor_only, alignment=alignment, max_exact_buffers=0).arena
            within = max(offsets[b.id] + round_up(b.size, alignment) for b in tensor_only)
            self.act = min(alone, within)
        self.bound = lower_bound(self.merged, alignment)

    def report(self, reuses: dict[int, int], alignment: int, in_place: bool, seconds: float) -> MemoryEstimate:
        """The estimate: the figures, where the most bytes are live, the largest buffers."""
        bt, fn, n = self.bt, self.fn, self.bt.n
        n_tensors = len(self.tensor_keys)
        peak_point, peak_live = 0, []
        best = -1
        for point, total, bufs in live_sets(self.merged, alignment):
            if total > best:
                best, peak_point, peak_live = total, point, bufs
        members_of = {gid: self.groups[root] for gid, root in enumerate(sorted(self.groups))}
        infos, ranges = self.infos, self.ranges
        peak_buffers = sorted((infos[k] for b in peak_live for k in members_of[b.id]
                               if ranges[k][0] <= peak_point <= ranges[k][1]), key=lambda b: (-b.size, b.start))
        # Name what a tensor reuses: its own op's scratch by kind ("accumulator"), another tensor by its node.
        infos = [_with_reuse(b, "" if k not in reuses else infos[reuses[k]].kind if reuses[k] >= n_tensors
                             else infos[reuses[k]].name) for k, b in enumerate(infos)]
        activations = sorted(infos[:n_tensors], key=lambda b: (-b.size, b.start))
        scratches = sorted((infos[k] for k in self.scratch_ids), key=lambda b: (-b.size, b.start))
        peak_index = min(peak_point // _N, max(n - 1, 0))
        peak_op = bt.ops[peak_index] if n else None
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        return MemoryEstimate(
            function=symbol_name(fn),
            weights=sum(tensor_bytes(op.results[0].type) or 0 for i, op in enumerate(bt.ops)
                        if bt.constant[i] and len(op.results)),
            inputs=sum(tensor_bytes(t) or 0 for t in ftype.inputs),
            outputs=sum(tensor_bytes(t) or 0 for t in ftype.results),
            activation_peak=self.act, workspace=max(0, self.joint - self.act), lower_bound=self.bound,
            largest_scratch=max((b.size for b in scratches), default=0),
            peak_index=peak_index, peak_op=peak_op.name if peak_op is not None else "",
            peak_name=_name(peak_op) if peak_op is not None else "", peak_step=STEPS[peak_point % _N],
            peak_buffers=peak_buffers, top_activations=activations[:TOP], top_workspace=scratches[:5],
            ops=n, tensors=n_tensors, scratch_buffers=len(self.scratch_ids), in_place=in_place,
            alignment=alignment, strategy=self.chosen, seconds=seconds,
        )


def estimate_function(fn: ir.Operation, *, in_place: bool = True, alignment: int = 64, strategy: str = AGGRESSIVE,
                      work_limit: float = 0.1, fuse_elementwise: bool = True, winograd: bool = True,
                      target: Any = DEFAULT_TARGET) -> MemoryEstimate:
    """The estimate of one ge ``func.func`` (see the module doc) for ``target``'s lowering
    (:func:`memory_model_of`; the CPU's by default). ``fuse_elementwise`` models the CPU
    pipeline's ge-fuse-elementwise-generics, ``winograd`` its Winograd convolutions."""
    t0 = time.perf_counter()
    if len(fn.regions[0].blocks) != 1:
        raise CompileError(f"cannot estimate @{symbol_name(fn)}: it has {len(fn.regions[0].blocks)} blocks "
                           "(the estimate follows one entry block, as the memory plan does)")
    model = memory_model_of(target, winograd=winograd, fuse_elementwise=fuse_elementwise)
    e = _Estimate(fn, model, fuse_elementwise)
    e.tensors()
    e.buffers()
    slots, reuses = e.reuse() if in_place else (_Slots(), {})
    e.plan(slots, alignment, strategy, work_limit)
    report = e.report(reuses, alignment, in_place, time.perf_counter() - t0)
    return _with_training(report, fn, e)


def _with_training(report: MemoryEstimate, fn: ir.Operation, e: "_Estimate") -> MemoryEstimate:
    """A training step's estimate split by category, on the estimated buffers (the same split
    the compiled step's memory report makes on its plan). Results the step donates an input for
    (``ge.donate``) count as computed in place, as ``ge-tie-donated-results`` makes them."""
    from dataclasses import replace

    from .training import argument_bytes, read_phases, training_memory

    phases = read_phases(fn)
    if not phases:
        return report
    plan = {"arena": report.arena,
            "buffers": [{"name": b.name, "size": b.size, "start": b.start, "end": b.end} for b in e.merged]}
    donated: list[int] = []
    if "ge.donate" in fn.attributes:
        donated = list(ir.DenseI64ArrayAttr(ir.DictAttr(fn.attributes["ge.donate"])["pairs"]))[::2]
    return replace(report, training=training_memory(plan, phases, argument_bytes(fn, donated)))


def _with_reuse(b: BufferEstimate, reuses: str) -> BufferEstimate:
    return dataclasses.replace(b, reuses=reuses) if reuses else b


def _type_text(t: ir.Type) -> str:
    tt = static_tensor(t)
    if tt is None:
        return str(t)
    return shape_text(list(tt.shape), str(tt.element_type))
