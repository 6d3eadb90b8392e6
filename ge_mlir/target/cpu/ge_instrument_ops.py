"""ge-instrument-ops: time every ONNX node's top-level op group in the compiled code (the profiler).

Runs on the bufferized IR (the end of the CPU ``bufferized`` stage, after ``ge-plan-memory``)
of every public single-block function with a body. The function's top-level ops are split
into **regions**: maximal runs of consecutive work ops whose locations name the same ONNX
node (``ge_mlir.irutils.locations.node_name``; a fused conv+bn+relu is located at its conv, so it
is one region). Ops that cost nothing at run time (constants, scalar arithmetic, views such as
``memref.view``/``subview``/``collapse_shape``, ``memref.get_global``) neither start nor end a
region; a work op whose location names no node gets a region of its own, named after the op.
A node can own several regions when other nodes' ops come in between.

Each region is wrapped in two timestamps, and the whole body in two more. A timestamp is a
call of libc's ``clock_gettime(CLOCK_MONOTONIC, ptr)`` writing ``{tv_sec, tv_nsec}`` straight
into one row of a new trailing function argument, the profile buffer ``memref<Nx2xi64>``:

* row 0 is the control row: the stamps run only when ``row0[0] != 0`` (read once on entry),
  so a profiling build runs at full speed until the profiler switches the stamps on;
* row 1 and row N-1 are the function's start and end;
* region ``k`` writes row ``2 + 2k`` on entry and row ``3 + 2k`` on exit.

No Python runs while the model runs and nothing is accumulated in the compiled code: the
caller reads the buffer after each call (``ge_mlir.target.cpu.profiling``). ``clock_gettime``
is declared ``func.func private`` and resolved by the JIT from the process (libc, through the
vDSO: about 45 ns per stamp on the 2-core AMD EPYC development machine).

The function gets ``ge.profile``: a dictionary with ``rows`` (N) and ``regions``, one entry per
region in program order: ``node`` (the ONNX node name, or ``<op.name>`` for an unlocated op),
``op_type`` (the ONNX op type from the location's ``fused<"OpType">`` metadata, "" when none),
``ops`` (the work ops it wraps) and ``kinds`` (their op names, deduplicated in order).
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, func, llvm, memref, scf

from ..._log import get_logger
from ...irutils.functions import symbol_name
from ...irutils.locations import node_name, onnx_op_type
from ...passes.registry import Pass, register_pass

#: The function attribute describing the profile buffer and its regions.
PROFILE_ATTR = "ge.profile"
#: The argument attribute marking the profile buffer.
PROFILE_ARG_ATTR = "ge.profile_buffer"
#: The libc function that reads the clock (resolved by the JIT from the process).
CLOCK_FN = "clock_gettime"
#: ``CLOCK_MONOTONIC`` on Linux (what ``time.perf_counter`` reads there too).
CLOCK_MONOTONIC = 1

#: Top-level ops that cost nothing at run time: they never start or end a region.
FREE_OPS = frozenset({
    "memref.view", "memref.subview", "memref.collapse_shape", "memref.expand_shape", "memref.reinterpret_cast",
    "memref.cast", "memref.get_global", "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index",
    "memref.dim", "memref.assume_alignment", "affine.apply", "llvm.mlir.constant",
})
#: Dialects whose region-free ops are scalar arithmetic (free at the top level).
FREE_DIALECTS = ("arith", "index", "ub")

#: What was timed (``GE_MLIR_LOG=debug``): one line per region.
log = get_logger("profile")


def is_free(op: ir.Operation) -> bool:
    """Whether a top-level op costs nothing at run time (see :data:`FREE_OPS`)."""
    name = op.name
    if len(op.regions):
        return False
    return name in FREE_OPS or name.split(".", 1)[0] in FREE_DIALECTS


def find_regions(block: ir.Block) -> list[dict[str, Any]]:
    """The regions of a function's entry block, in program order: ``first``/``last`` (the
    first and last work op), ``node``, ``op_type``, ``ops``, ``kinds``."""
    regions: list[dict[str, Any]] = []
    ops = list(block.operations)
    current: dict[str, Any] | None = None
    for op in ops[:-1]:  # the terminator is never timed
        op = op.operation
        if is_free(op):
            continue
        name = node_name(op.location)
        key = name if name is not None else f"<{op.name}>"
        if current is not None and current["node"] == key and name is not None:
            current["last"] = op
            current["ops"] += 1
            if op.name not in current["kinds"]:
                current["kinds"].append(op.name)
            continue
        current = {"node": key, "op_type": (onnx_op_type(op.location) or "") if name is not None else "",
                   "first": op, "last": op, "ops": 1, "kinds": [op.name]}
        regions.append(current)
    return regions


@register_pass
class GeInstrumentOpsPass(Pass):
    name = "ge-instrument-ops"
    summary = "Wrap each ONNX node's top-level op group in clock_gettime stamps written to a profile buffer argument"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 95

    def run(self, module: ir.Operation) -> None:
        self.statistics.setdefault("rewrites", 0)
        with module.context, ir.Location.unknown():
            body = module.regions[0].blocks[0]
            functions = [op.operation for op in body.operations if op.operation.name == "func.func"]
            todo = []
            for fn in functions:
                blocks = fn.regions[0].blocks
                if _is_private(fn) or not len(blocks) or PROFILE_ATTR in fn.attributes:
                    continue
                if len(blocks) > 1:
                    self.bump("skipped-multi-block")
                    continue
                todo.append(fn)
            if not todo:
                return
            if not any(symbol_name(f) == CLOCK_FN for f in functions):
                i32, ptr = ir.IntegerType.get_signless(32), ir.Type.parse("!llvm.ptr")
                with ir.InsertionPoint.at_block_begin(body):
                    func.FuncOp(CLOCK_FN, ir.FunctionType.get([i32, ptr], [i32]), visibility="private")
            for fn in todo:
                n = _instrument(fn)
                self.bump("regions", n)
                self.bump("rewrites", n)


def _is_private(fn: ir.Operation) -> bool:
    return "sym_visibility" in fn.attributes and ir.StringAttr(fn.attributes["sym_visibility"]).value == "private"


def _instrument(fn: ir.Operation) -> int:
    """Adds the profile buffer argument, the stamps and ``ge.profile`` to ``fn``; returns the region count."""
    block = fn.regions[0].blocks[0]
    regions = find_regions(block)
    rows = 3 + 2 * len(regions)
    i64, i32, index = ir.IntegerType.get_signless(64), ir.IntegerType.get_signless(32), ir.IndexType.get()
    ptr = ir.Type.parse("!llvm.ptr")
    buf_t = ir.MemRefType.get([rows, 2], i64)
    # The new trailing argument (after the workspace ge-plan-memory added).
    n_args = len(block.arguments)
    buf = block.add_argument(buf_t, fn.location)
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([*ftype.inputs, buf_t], ftype.results))
    old = list(ir.ArrayAttr(fn.attributes["arg_attrs"])) if "arg_attrs" in fn.attributes else \
        [ir.DictAttr.get({})] * n_args
    fn.attributes["arg_attrs"] = ir.ArrayAttr.get([*old, ir.DictAttr.get({PROFILE_ARG_ATTR: ir.UnitAttr.get()})])

    ops = list(block.operations)
    with ir.InsertionPoint(ops[0]), fn.location:
        c0 = arith.ConstantOp(index, 0).result
        flag = memref.LoadOp(buf, [c0, c0]).result
        on = arith.CmpIOp(arith.CmpIPredicate.ne, flag, arith.ConstantOp(i64, 0).result).result
        addr = memref.ExtractAlignedPointerAsIndexOp(buf).result
        base = llvm.IntToPtrOp(ptr, arith.IndexCastOp(i64, addr).result).result
        clock = arith.ConstantOp(i32, CLOCK_MONOTONIC).result
    row_t = ir.TypeAttr.get(ir.Type.parse("!llvm.array<2 x i64>"))
    no_flags = ir.IntegerAttr.get(i32, 0)

    def stamp(row: int, before: ir.Operation, loc: ir.Location) -> None:
        with ir.InsertionPoint(before), loc:
            guard = scf.IfOp(on)
            with ir.InsertionPoint(guard.then_block):
                p = llvm.GEPOp(ptr, base, [], ir.DenseI32ArrayAttr.get([row]), row_t, no_flags).result
                func.CallOp([i32], CLOCK_FN, [clock, p])
                scf.YieldOp([])

    position = {op: i for i, op in enumerate(ops)}
    terminator = ops[-1]
    stamp(1, ops[0], fn.location)
    # A stamp placed before an op that already has one lands after it: exits come before entries.
    for k, r in enumerate(regions):
        stamp(2 + 2 * k, r["first"], r["first"].location)
        stamp(3 + 2 * k, ops[position[r["last"]] + 1], r["last"].location)
    stamp(rows - 1, terminator, fn.location)

    def s(v: str) -> ir.Attribute:
        return ir.StringAttr.get(v)

    if log.isEnabledFor(10):  # logging.DEBUG
        for k, r in enumerate(regions):
            log.debug("ge-instrument-ops: @%s region %d: node '%s' (%s), %d op(s): %s", symbol_name(fn), k,
                      r["node"], r["op_type"] or "no op type", r["ops"], ", ".join(r["kinds"]))
    entries = [ir.DictAttr.get({"node": s(r["node"]), "op_type": s(r["op_type"]),
                                "ops": ir.IntegerAttr.get(i64, r["ops"]),
                                "kinds": ir.ArrayAttr.get([s(k) for k in r["kinds"]])}) for r in regions]
    fn.attributes[PROFILE_ATTR] = ir.DictAttr.get({"rows": ir.IntegerAttr.get(i64, rows),
                                                   "regions": ir.ArrayAttr.get(entries)})
    return len(regions)


def read_profile_layout(fn: ir.Operation) -> dict[str, Any] | None:
    """``ge.profile`` of an instrumented function as Python values (None when it has none):
    ``rows`` and ``regions`` (``node``, ``op_type``, ``ops``, ``kinds``)."""
    if PROFILE_ATTR not in fn.attributes:
        return None
    d = ir.DictAttr(fn.attributes[PROFILE_ATTR])
    regions = []
    for r in map(ir.DictAttr, ir.ArrayAttr(d["regions"])):
        regions.append({"node": ir.StringAttr(r["node"]).value, "op_type": ir.StringAttr(r["op_type"]).value,
                        "ops": ir.IntegerAttr(r["ops"]).value,
                        "kinds": [ir.StringAttr(k).value for k in ir.ArrayAttr(r["kinds"])]})
    return {"rows": ir.IntegerAttr(d["rows"]).value, "regions": regions}
