"""ge-plan-memory: statically sized buffers of a function body become views into one planned arena.

Every top-level ``memref.alloc`` of a function's entry block with a static
shape and identity layout becomes a ``memref.view`` at an offset of one i8
arena, a new trailing function argument listed in the function's
``ge.workspace`` attribute (an array of memref types). The CPU runner
allocates the arena once and passes it on every call: no malloc/free per
intermediate tensor and no page faults on freshly mmapped memory (40% of a
conv chain's run time). An executable must therefore not be called from two
threads at once.

Buffers whose live ranges (in top-level op order, through views and ops
returning memrefs) do not overlap share bytes. The offsets come from
:func:`ge_mlir.memory.planner.plan`: with ``strategy=aggressive`` every
strategy runs (greedy by size, greedy by breadth, best fit, an exact CP-SAT
solve for up to a few hundred buffers) and the smallest arena wins, ties to
greedy by size. Each buffer is rounded up to ``alignment`` bytes. Runs after
one-shot bufferization and ``buffer-results-to-out-params``, before the
deallocation pipeline (which then has no deallocation to insert for them).

The plan is recorded on the function as ``ge.memory_plan``: the arena, the
chosen strategy, each strategy's arena, the no-reuse sum, the interval lower
bound of this op order, and per buffer its name (the op location), size,
offset and live range.
"""

from __future__ import annotations

from mlir import ir

from ..errors import PassFailure, PlanError, format_location, node_name
from ..irutils.functions import symbol_name
from ..irutils.types import tensor_bytes
from ..passes.registry import Option, Pass, register_pass
from .buffers import Buffer, Plan
from .checker import check_plan
from .planner import STRATEGIES, lower_bound, no_reuse, plan

#: Function attribute listing the workspace arguments (trailing, in order) the caller allocates.
WORKSPACE_ATTR = "ge.workspace"
#: Function attribute recording the plan (see the module doc).
MEMORY_PLAN_ATTR = "ge.memory_plan"
_INT64_MAX = 2**63 - 1


@register_pass
class GePlanMemoryPass(Pass):
    name = "ge-plan-memory"
    summary = "Static memref.allocs to views of one caller-allocated arena, offsets from the memory planner"
    description = __doc__ or ""
    stage = "lowering"
    priority = 70
    options = (
        Option("alignment", int, 64, "byte alignment of every buffer's offset in the arena (CPU: a cache line)"),
        Option("strategy", str, "aggressive",
               "aggressive (the smallest arena of every strategy) or one of: " + ", ".join(STRATEGIES)),
        # CP-SAT's deterministic time, not seconds: the same module gets the same plan on any machine and load.
        Option("work-limit", float, 0.1, "how long the exact strategy may search per function (CP-SAT work units)"),
        Option("inplace", bool, True, "elementwise ops write into an input buffer that dies there (same type and map)"),
    )

    def run(self, module: ir.Operation) -> None:
        alignment, strategy = self.opt("alignment"), self.opt("strategy")
        if alignment < 1:
            raise PassFailure(f"alignment must be a positive byte count, got {alignment}")
        if strategy != "aggressive" and strategy not in STRATEGIES:
            raise PassFailure(f"unknown strategy {strategy!r} (aggressive, {', '.join(STRATEGIES)})")
        with module.context, ir.Location.unknown():
            for op in module.regions[0].blocks[0].operations:
                fn = op.operation
                if fn.name == "func.func" and fn.regions[0].blocks:
                    self.bump("rewrites", plan_function(fn, alignment, strategy, self.opt("work-limit"),
                                                        self.opt("inplace")))


def plan_function(fn: ir.Operation, alignment: int, strategy: str = "aggressive", work_limit: float = 0.1,
                  reuse_inputs: bool = True) -> int:
    """Plans ``fn``'s memory in place; returns the number of buffers placed.

    With ``reuse_inputs``, elementwise ops write into a dying input's buffer (:func:`_inplace_pairs`)."""
    from mlir.dialects import arith
    from mlir.dialects import memref

    if len(fn.regions[0].blocks) != 1:
        # Live ranges are positions in the entry block; uses in other blocks would be missed and
        # buffers live there would share bytes (a miscompile). Such functions keep their allocs.
        return 0
    entry = fn.regions[0].blocks[0]
    top = [op.operation for op in entry.operations]
    position = {op: i for i, op in enumerate(top)}
    allocs = [
        op for op in top
        if op.name == "memref.alloc" and not len(op.operands)
        and ir.MemRefType(op.results[0].type).has_static_shape
        and _identity_layout(ir.MemRefType(op.results[0].type))
    ]
    if not allocs:
        return 0
    buffers, touched = [], {}
    for i, op in enumerate(allocs):
        size = tensor_bytes(ir.MemRefType(op.results[0].type))
        assert size is not None, f"no static byte size for {op.results[0].type}"
        uses = _use_positions(op.results[0], position, fn)
        # A buffer is live from its first use to its last (an unused one only at its allocation): its
        # bytes mean nothing before anything touches them, wherever bufferization put the alloc.
        buffers.append(Buffer(i, size, min(uses, default=position[op]), max(uses, default=position[op]),
                              _buffer_name(op)))
        for u in uses:
            touched[u] = touched.get(u, 0) + (size + alignment - 1) // alignment * alignment
    # In-place reuse: a buffer written by an elementwise op whose input buffer dies there joins that
    # input's group; the planner places groups, every member of a group at the group's offset.
    inplace = _inplace_pairs(top, position, allocs, buffers) if reuse_inputs else {}
    group = list(range(len(allocs)))
    for out, src in sorted(inplace.items()):  # sources come first in op order: chains collapse to the head
        group[out] = group[src]
    members: dict[int, list[int]] = {}
    for i in range(len(allocs)):
        members.setdefault(group[i], []).append(i)
    planned = [
        Buffer(g, max(buffers[i].size for i in ms), min(buffers[i].start for i in ms),
               max(buffers[i].end for i in ms), buffers[g].name)
        for g, ms in members.items()
    ]
    if no_reuse(planned, alignment) > _INT64_MAX:
        # Sizes beyond int64 (refused below): only the pure-Python first fit can even place them.
        strategy = "greedy-by-size"
    result = plan(planned, alignment=alignment, strategy=strategy, work_limit=work_limit)
    # Every plan is checked by code that shares nothing with the strategies (a sweep over program
    # points): a planner bug fails the compile instead of corrupting tensors at run time.
    try:
        check_plan(planned, result)
    except PlanError as e:
        raise PassFailure(f"internal error: the memory plan of @{symbol_name(fn)} is wrong: {e}", at=fn) from None
    offsets = {i: result.offsets[group[i]] for i in range(len(allocs))}
    try:  # and again per buffer, in-place handovers included
        check_plan(buffers, Plan(offsets, result.arena, alignment, result.strategy), inplace)
    except PlanError as e:
        raise PassFailure(f"internal error: the in-place reuse of @{symbol_name(fn)} is wrong: {e}", at=fn) from None
    arena_size = result.arena
    if arena_size > _INT64_MAX:
        raise PassFailure(
            f"the workspace of @{symbol_name(fn)} would need "
            f"{arena_size} bytes ({arena_size / 2**30:.1f} GiB), more than int64 can address", at=fn
        )
    arena_t = ir.MemRefType.get([arena_size], ir.IntegerType.get_signless(8))
    arena = entry.add_argument(arena_t, fn.location)
    for i, op in enumerate(allocs):
        with op.location, ir.InsertionPoint(op):
            shift = arith.constant(ir.IndexType.get(), offsets[i])
            view = memref.ViewOp(op.results[0].type, arena, shift, []).result
        op.results[0].replace_all_uses_with(view)
        op.erase()
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([*ftype.inputs, arena_t], ftype.results))
    if "arg_attrs" in fn.attributes:
        old = list(ir.ArrayAttr(fn.attributes["arg_attrs"]))
        fn.attributes["arg_attrs"] = ir.ArrayAttr.get([*old, ir.DictAttr.get({})])
    fn.attributes[WORKSPACE_ATTR] = ir.ArrayAttr.get([ir.TypeAttr.get(arena_t)])
    # Order-independent bound: whatever the op order, each op needs every planned buffer it reads or
    # writes at once.
    fn.attributes[MEMORY_PLAN_ATTR] = _plan_attr(buffers, planned, result, offsets, inplace,
                                                 max(touched.values(), default=0))
    return len(allocs)


def read_memory_plan(fn: ir.Operation) -> dict | None:
    """The ``ge.memory_plan`` of a planned function as Python values (None when it has none)."""
    if MEMORY_PLAN_ATTR not in fn.attributes:
        return None
    d = ir.DictAttr(fn.attributes[MEMORY_PLAN_ATTR])

    def num(a: ir.Attribute) -> int:
        return ir.IntegerAttr(a).value

    arenas = ir.DictAttr(d["arenas"])
    return {
        "arena": num(d["arena"]), "strategy": ir.StringAttr(d["strategy"]).value,
        "arenas": {arenas[i].name: num(arenas[i].attr) for i in range(len(arenas))},
        "no_reuse": num(d["no_reuse"]), "lower_bound": num(d["lower_bound"]), "op_bound": num(d["op_bound"]),
        "inplace": num(d["inplace"]) if "inplace" in d else 0,
        "lower_bound_no_inplace": num(d["lower_bound_no_inplace"] if "lower_bound_no_inplace" in d else d["lower_bound"]),
        "buffers": [
            {"name": ir.StringAttr(b["name"]).value, **{k: num(b[k]) for k in ("size", "offset", "start", "end")},
             **({"inplace_of": num(b["inplace_of"])} if "inplace_of" in b else {})}
            for b in map(ir.DictAttr, ir.ArrayAttr(d["buffers"]))
        ],
    }


def _buffer_name(op: ir.Operation) -> str:
    """The ONNX node the buffer comes from when the location names one, else the location."""
    return node_name(op.location) or format_location(op.location)


def _plan_attr(buffers: list[Buffer], planned: list[Buffer], result: Plan, offsets: dict[int, int],
               inplace: dict[int, int], op_bound: int) -> ir.Attribute:
    i64 = ir.IntegerType.get_signless(64)

    def num(v: int) -> ir.Attribute:
        return ir.IntegerAttr.get(i64, v)

    def entry(b: Buffer) -> ir.Attribute:
        d = {"name": ir.StringAttr.get(b.name), "size": num(b.size), "offset": num(offsets[b.id]),
             "start": num(b.start), "end": num(b.end)}
        if b.id in inplace:
            d["inplace_of"] = num(inplace[b.id])  # the index (in this list) of the buffer it overwrites
        return ir.DictAttr.get(d)

    return ir.DictAttr.get({
        "arena": num(result.arena),
        "strategy": ir.StringAttr.get(result.strategy),
        "arenas": ir.DictAttr.get({k: num(v) for k, v in result.arenas.items()}),
        "no_reuse": num(no_reuse(buffers, result.alignment)),
        # Under this op order and the in-place decisions (a group is one buffer).
        "lower_bound": num(lower_bound(planned, result.alignment)),
        # The same bound if no buffer were written in place: what in-place reuse saved.
        "lower_bound_no_inplace": num(lower_bound(buffers, result.alignment)),
        # Without in-place reuse: the order-independent bound it can go below.
        "op_bound": num(op_bound),
        "inplace": num(len(inplace)),
        "buffers": ir.ArrayAttr.get([entry(b) for b in buffers]),
    })


def _inplace_pairs(top: list[ir.Operation], position: dict, allocs: list[ir.Operation],
                   buffers: list[Buffer]) -> dict[int, int]:
    """{written buffer: input buffer it may overwrite}, XLA/ORT-style buffer sharing.

    A top-level ``linalg.generic`` with only parallel loops reads each input element at the
    iteration that writes the output element at the same index when both operands have the
    same memref type and indexing map: writing the output into that input's bytes is then
    safe if the input dies at this op (its last use, views included) and nothing else reads
    it here through another map. The output must not be read (its block argument unused) nor
    written before (this op is its first use). Operands reach their buffers only through
    reshapes of identity-layout memrefs (expand/collapse_shape), which keep the row-major
    element order; subviews, transposes and function arguments never qualify.
    """
    index = {op: i for i, op in enumerate(allocs)}
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for op in top:
        if op.name != "linalg.generic" or not all(
            "parallel" in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])
        ):
            continue
        generic = op.opview
        ins, outs = list(generic.inputs), list(generic.outputs)
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
        roots = [_root_alloc(v, index) for v in [*ins, *outs]]
        body_args = op.regions[0].blocks[0].arguments
        here = position[op]
        for k, out in enumerate(outs):
            j = len(ins) + k
            b = roots[j]
            if b is None or b in pairs or buffers[b].start != here or _has_uses(body_args[j]):
                continue
            for i, v in enumerate(ins):
                a = roots[i]
                if (a is None or a == b or a in taken or buffers[a].end != here
                        or v.type != out.type or maps[i] != maps[j] or buffers[a].size < buffers[b].size):
                    continue
                # Every operand on the same buffer must read it element-aligned with the output.
                if any(roots[x] == a and (x >= len(ins) or maps[x] != maps[j] or [*ins, *outs][x].type != out.type)
                       for x in range(len(roots)) if x != i):
                    continue
                pairs[b] = a
                taken.add(a)
                break
    return pairs


def _root_alloc(v: ir.Value, index: dict) -> int | None:
    """The planned allocation ``v`` is, or is a row-major reshape of; None otherwise."""
    while True:
        owner = v.owner
        if not isinstance(owner, (ir.Operation, ir.OpView)):
            return None  # a block argument: the function's or a region's
        owner = owner.operation
        if owner in index:
            return index[owner]
        if owner.name not in ("memref.expand_shape", "memref.collapse_shape") or not _identity_layout(
            ir.MemRefType(v.type)
        ):
            return None
        v = owner.operands[0]


def _has_uses(v: ir.Value) -> bool:
    return any(True for _ in v.uses)


def _use_positions(value: ir.Value, position: dict, fn: ir.Operation) -> set[int]:
    """Positions of the top-level ops using ``value`` or anything aliasing it
    (results of its users that are memrefs: views, loops carrying it)."""
    used: set[int] = set()
    work, seen = [value], set()
    while work:
        v = work.pop()
        for use in v.uses:
            owner = use.owner
            owner = owner.operation if isinstance(owner, ir.OpView) else owner
            top = owner
            while top not in position:
                parent = top.parent
                if parent is None or parent == fn:
                    break
                top = parent.operation if isinstance(parent, ir.OpView) else parent
            if top in position:
                used.add(position[top])
            for r in owner.results:
                if isinstance(r.type, ir.MemRefType) and r not in seen:
                    seen.add(r)
                    work.append(r)
    return used


def _identity_layout(t: ir.MemRefType) -> bool:
    if not isinstance(t.layout, ir.AffineMapAttr):
        return False  # strided<...> and other layouts: not the row-major order of the whole buffer
    m = t.layout.value
    return m == ir.AffineMap.get_identity(m.n_dims)
