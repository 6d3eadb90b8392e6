"""ge-partition-pipeline: cut the graph into pipeline stages joined by shard.send / shard.recv.

The function's ops are given a stage in program order: a new stage starts
after each ``boundaries`` node (ONNX node names), or ``assign`` names the ops of
each stage (``stage:regex`` entries; an unnamed op joins the latest stage of its
operands), or, with neither, the cuts are placed where the cost model (FLOPs of
contractions and convolutions, bytes moved by the rest) is balanced, among the
points where the fewest tensors cross. Every stage becomes a function
``@<name>_stage<k>`` (attribute ``ge.stage = k``) taking the graph inputs it
reads; a tensor needed by a later stage leaves through ``shard.send`` on the
``@ge_pipeline`` grid and arrives through ``shard.recv``; the last stage
returns the graph's outputs. Constants are copied into every stage that reads
them (each rank holds only its stage's weights).

An assignment where an op reads a tensor of a later stage is not a cut and
is refused, naming both ops.
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.dialects import func as func_d

from ..errors import PassFailure
from ..irutils.patterns import defining_op
from ..passes.registry import Option, Pass, register_pass
from . import sharding as sh
from .cost import op_cost
from .ge_partition_tensor import op_names

_CONSTANT_OPS = ("ge.constant", "arith.constant")


def _is_const(op: ir.Operation) -> bool:
    return op.name in _CONSTANT_OPS


def assign_stages(fn: ir.Operation, stages: int, boundaries: list[str], assign: list[str]) -> list[int]:
    """The stage of every non-constant op of ``fn`` (program order, terminator excluded)."""
    ops = [o.operation for o in sh.body(fn).operations][:-1]
    work = [o for o in ops if not _is_const(o)]
    if not work:
        raise PassFailure("the graph has no ops to split into stages", at=fn)
    if boundaries:
        if len(boundaries) != stages - 1:
            raise PassFailure(f"{len(boundaries)} boundaries for {stages} stages (expected {stages - 1})", at=fn)
        where = []
        for b in boundaries:
            hits = [i for i, o in enumerate(work) if b in op_names(o)]
            if not hits:
                raise PassFailure(f"stage boundary {b!r} names no node of the graph", at=fn)
            where.append(hits[-1])
        for (a, ia), (b, ib) in zip(zip(boundaries, where), zip(boundaries[1:], where[1:])):
            if ib <= ia:
                raise PassFailure(f"stage boundary {b!r} does not come after {a!r}: stages must follow the "
                                  f"graph's order", at=work[ib])
        if where[-1] == len(work) - 1:
            raise PassFailure(f"stage boundary {boundaries[-1]!r} is the last op: the last stage would be empty",
                              at=work[-1])
        return _stages_after(len(work), where)
    if assign:
        rules = []
        for entry in assign:
            k, sep, rx = entry.partition(":")
            if not sep or not k.strip().isdigit() or int(k) >= stages:
                raise PassFailure(f"assign entry {entry!r}: expected <stage>:<regex> with stage < {stages}", at=fn)
            try:
                rules.append((int(k), re.compile(rx)))
            except re.error as e:
                raise PassFailure(f"assign entry {entry!r}: not a regular expression: {e}", at=fn) from None
        stage_of: dict[ir.Value, int] = {}
        out = []
        for o in work:
            named = [k for k, rx in rules if any(rx.search(n) for n in op_names(o))]
            inputs = [stage_of[v] for v in o.operands if v in stage_of]
            s = named[0] if named else max(inputs, default=0)
            for v in o.operands:
                if v in stage_of and stage_of[v] > s:
                    src = v.owner
                    raise PassFailure(
                        f"not a cut: {o.name} {op_names(o)[:1]} in stage {s} reads a result of "
                        f"{src.name} {op_names(src)[:1]} in stage {stage_of[v]}", at=o)
            for r in o.results:
                stage_of[r] = s
            out.append(s)
        return out
    return _balanced(work, stages)


def _balanced(work: list[ir.Operation], stages: int) -> list[int]:
    """Cuts placed at the cheapest crossings closest to equal cumulative cost."""
    cost = [op_cost(o)[0] for o in work]
    total = sum(cost) or 1.0
    index = {}
    for i, o in enumerate(work):
        for r in o.results:
            index[r] = i
    last_use = {}
    for i, o in enumerate(work):
        for v in o.operands:
            if v in index:
                last_use[index[v]] = i
    # Tensors crossing the cut after op i: defined at or before i, used after i.
    crossing = [0] * len(work)
    for d, u in last_use.items():
        for i in range(d, u):
            crossing[i] += 1
    cum, acc = [], 0.0
    for c in cost:
        acc += c
        cum.append(acc)
    cuts: list[int] = []
    for j in range(1, stages):
        target = total * j / stages
        lo = cuts[-1] + 1 if cuts else 0
        cands = list(range(lo, len(work) - (stages - j)))
        if not cands:
            raise PassFailure(f"the graph has too few ops for {stages} stages")
        fewest = min(crossing[i] for i in cands)
        best = min((i for i in cands if crossing[i] <= fewest + 1), key=lambda i: abs(cum[i] - target))
        cuts.append(best)
    return _stages_after(len(work), cuts)


def _stages_after(n: int, cuts: list[int]) -> list[int]:
    """The stage of each of ``n`` ops when a new stage starts after each op index in ``cuts``."""
    out, s = [], 0
    for i in range(n):
        out.append(s)
        if s < len(cuts) and i == cuts[s]:
            s += 1
    return out


def cut(module: ir.Operation, fn: ir.Operation, stage_list: list[int], stages: int) -> list[ir.Operation]:
    """Replaces ``fn`` by one function per stage; returns them."""
    blk = sh.body(fn)
    all_ops = [o.operation for o in blk.operations]
    ret = all_ops[-1]
    work = [o for o in all_ops[:-1] if not _is_const(o)]
    stage_of_op = {id_(o): s for o, s in zip(work, stage_list)}
    def_stage: dict[ir.Value, int] = {}
    for o in work:
        for r in o.results:
            def_stage[r] = stage_of_op[id_(o)]
    used = {s: set() for s in range(stages)}  # values each stage reads from elsewhere
    for o in work:
        s = stage_of_op[id_(o)]
        for v in o.operands:
            used[s].add(v)
    for v in ret.operands:
        used[stages - 1].add(v)
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    arg_attrs = list(ir.ArrayAttr(fn.attributes["arg_attrs"])) if "arg_attrs" in fn.attributes else None
    res_attrs = fn.attributes["res_attrs"] if "res_attrs" in fn.attributes else None
    args = list(blk.arguments)
    new_fns = []
    pipe = ir.FlatSymbolRefAttr.get(sh.PIPELINE_GRID)
    with ir.InsertionPoint(fn), fn.location:
        for s in range(stages):
            my_args = [a for a in args if any(a == v for v in used[s])]
            outs = list(ret.operands) if s == stages - 1 else []
            ftype = ir.FunctionType.get([a.type for a in my_args], [v.type for v in outs])
            f = func_d.FuncOp(f"{name}_stage{s}", ftype)
            f.attributes["ge.stage"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s)
            if arg_attrs is not None:
                f.attributes["arg_attrs"] = ir.ArrayAttr.get([arg_attrs[a.arg_number] for a in my_args])
            if s == stages - 1 and res_attrs is not None:
                f.attributes["res_attrs"] = res_attrs
            entry = f.add_entry_block()
            vmap: dict[ir.Value, ir.Value] = {a: entry.arguments[i] for i, a in enumerate(my_args)}
            with ir.InsertionPoint(entry):
                # Received tensors first, in the order their producers ran.
                for o in work:
                    if stage_of_op[id_(o)] >= s:
                        continue
                    for r in o.results:
                        if r in used[s]:
                            t = ir.RankedTensorType(r.type)
                            buf = ir.Operation.create("tensor.empty", results=[t]).result
                            vmap[r] = ir.Operation.create(
                                "shard.recv", results=[t], operands=[buf],
                                attributes={"grid": pipe, "grid_axes": ir.DenseI16ArrayAttr.get([0]),
                                            "source": ir.DenseI64ArrayAttr.get([def_stage[r]])},
                                loc=o.location).result
                for o in work:
                    if stage_of_op[id_(o)] != s:
                        continue
                    for v in o.operands:
                        d = defining_op(v)
                        if v not in vmap and d is not None and _is_const(d):
                            vmap[v] = d.clone().results[0]
                    c = o.clone()
                    for i, v in enumerate(o.operands):
                        c.operands[i] = vmap[v]
                    for r_old, r_new in zip(o.results, c.results):
                        vmap[r_old] = r_new
                # Tensors later stages read, sent once per reading stage.
                for o in work:
                    if stage_of_op[id_(o)] != s:
                        continue
                    for r in o.results:
                        for u in range(s + 1, stages):
                            if r in used[u]:
                                ir.Operation.create(
                                    "shard.send", results=[r.type], operands=[vmap[r]],
                                    attributes={"grid": pipe, "grid_axes": ir.DenseI16ArrayAttr.get([0]),
                                                "destination": ir.DenseI64ArrayAttr.get([u])},
                                    loc=o.location)
                func_d.ReturnOp([vmap[v] if v in vmap else _const_for(v, vmap) for v in outs])
            new_fns.append(f.operation)
    fn.erase()
    return new_fns


def _const_for(v: ir.Value, vmap: dict[ir.Value, ir.Value]) -> ir.Value:
    d = defining_op(v)
    if d is not None and _is_const(d):
        c = d.clone()
        vmap[v] = c.results[0]
        return vmap[v]
    raise PassFailure("an output of the graph is an input passed through: the pipeline cannot return it")


def id_(op: ir.Operation) -> int:
    return hash(op.operation)


@register_pass
class GePartitionPipelinePass(Pass):
    name = "ge-partition-pipeline"
    summary = "Cut the graph into pipeline stages joined by shard.send/shard.recv on @ge_pipeline"
    description = __doc__ or ""
    stage = "partition"
    targets = ()
    options = (
        Option("stages", int, 2, "number of pipeline stages"),
        Option("boundaries", list, [], "node names after which a new stage starts (stages - 1 of them)"),
        Option("assign", list, [], "stage:regex entries naming the ops of each stage (GE stage_assignment)"),
    )

    def run(self, module: ir.Operation) -> None:
        stages = self.opt("stages")
        if stages < 1:
            raise PassFailure(f"stages must be >= 1, got {stages}")
        fns = sh.functions(module)
        if len(fns) != 1:
            raise PassFailure(f"expected one function to cut into stages, found {len(fns)}")
        if stages == 1:
            return
        with module.context, ir.Location.unknown():
            sh.ensure_grid(module, sh.PIPELINE_GRID, stages)
            fn = fns[0]
            stage_list = assign_stages(fn, stages, self.opt("boundaries"), self.opt("assign"))
            if len(set(stage_list)) != stages:
                empty = sorted(set(range(stages)) - set(stage_list))
                raise PassFailure(f"stage(s) {empty} would be empty", at=fn)
            cut(module, fn, stage_list, stages)
            self.bump("rewrites", stages)
