"""ge-widen-bool-memrefs: i1 memrefs stored as i8 (one byte per flag).

``ge-widen-bool-tensors`` keeps i1 tensors out of bufferization, but MLIR's own
deallocation lowering (``buffer-deallocation-pipeline``) creates ``memref<?xi1>``
ownership flags (the ``dealloc_helper`` function and its callers) once buffers
cross loop or branch boundaries (If/Loop bodies), and LLVM 22's
``finalize-memref-to-llvm`` asserts (aborting the process) on their loads and
stores. Every i1 memref value (function arguments and results, block
arguments, op results) becomes i8; ``memref.load`` results are truncated back
to i1 and stored i1 values extended. Any other op reading or writing i1
memref elements fails the pass, naming it.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from ...errors import PassFailure
from ...passes.registry import Pass, register_pass

#: Ops that only pass memrefs along (their element type does not matter to them).
_PASS_THROUGH = frozenset({
    "memref.alloc", "memref.alloca", "memref.dealloc", "memref.cast", "memref.dim", "memref.copy",
    "memref.subview", "memref.view", "memref.reinterpret_cast", "memref.extract_strided_metadata",
    "memref.extract_aligned_pointer_as_index", "func.call", "func.return", "scf.yield", "scf.condition",
    "scf.if", "scf.for", "scf.while", "arith.select", "bufferization.dealloc",
})


@register_pass
class GeWidenBoolMemrefsPass(Pass):
    name = "ge-widen-bool-memrefs"
    summary = "Store i1 memrefs as i8 (LLVM cannot load or store i1 memref elements)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 101

    def run(self, module: ir.Operation) -> None:
        with module.context, ir.Location.unknown():
            self.bump("memrefs", widen_bool_memrefs(module))


def _is_bool_memref(t: ir.Type) -> bool:
    return isinstance(t, ir.MemRefType) and str(ir.MemRefType(t).element_type) == "i1"


def _wide(t: ir.Type) -> ir.Type:
    if not _is_bool_memref(t):
        return t
    mt = ir.MemRefType(t)
    return ir.MemRefType.get(mt.shape, ir.IntegerType.get_signless(8), mt.layout, mt.memory_space)


def widen_bool_memrefs(module: ir.Operation) -> int:
    """Rewrites ``module`` in place; returns how many values changed type. Raises PassFailure
    (before changing anything) on an op that reads or writes i1 memref elements otherwise."""
    ops: list[ir.Operation] = []
    module.walk(lambda o: (ops.append(o), ir.WalkResult.ADVANCE)[1], ir.WalkOrder.PRE_ORDER)
    touched = [o for o in ops
               if any(_is_bool_memref(v.type) for v in list(o.operands) + list(o.results))]
    for o in touched:
        if o.name not in _PASS_THROUGH and o.name not in ("memref.load", "memref.store"):
            raise PassFailure(f"'{o.name}' on an i1 memref is not supported (LLVM cannot address i1 elements)",
                              at=o)
    if not touched and not any(o.name == "func.func" and _has_bool_memref(o) for o in ops):
        return 0
    i1, i8 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(8)
    changed = 0
    for o in ops:
        if o.name == "func.func":
            ftype = ir.FunctionType(ir.TypeAttr(o.attributes["function_type"]).value)
            o.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get([_wide(t) for t in ftype.inputs], [_wide(t) for t in ftype.results]))
        for region in o.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    if _is_bool_memref(arg.type):
                        arg.set_type(_wide(arg.type))
                        changed += 1
        for r in o.results:
            if _is_bool_memref(r.type):
                r.set_type(_wide(r.type))
                changed += 1
        if o.name == "memref.load" and str(o.results[0].type) == "i1":
            r = o.results[0]
            r.set_type(i8)
            with o.location, ir.InsertionPoint.after(o):
                narrow = arith.trunci(i1, r)
            r.replace_all_uses_except(narrow, narrow.owner.operation)
        elif o.name == "memref.store" and str(o.operands[0].type) == "i1":
            with o.location, ir.InsertionPoint(o):
                o.operands[0] = arith.extui(i8, o.operands[0])
    return changed


def _has_bool_memref(fn: ir.Operation) -> bool:
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    return any(_is_bool_memref(t) for t in [*ftype.inputs, *ftype.results])
