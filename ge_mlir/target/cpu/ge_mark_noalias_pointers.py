"""ge-mark-noalias-pointers: after the LLVM lowering, ``llvm.noalias`` on the aligned data pointers
that ``ge-outline-noalias-kernels`` recorded (``ge.noalias_pointers``) on its kernel functions.

The func-to-LLVM conversion expands each memref argument into (allocated pointer, aligned
pointer, offset, sizes, strides) and drops the memref's argument attributes; only the aligned
pointer is read and written through, so it is the one marked. A function whose lowered signature
does not have the recorded argument count, or a recorded position that is not a pointer, is left
unmarked (a changed calling convention must never produce a wrong ``noalias``).
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass
from .ge_outline_noalias_kernels import EXPANDED_ARGS_ATTR, NOALIAS_POINTERS_ATTR


@register_pass
class GeMarkNoaliasPointersPass(Pass):
    name = "ge-mark-noalias-pointers"
    summary = "Mark the recorded aligned data pointers of outlined kernels llvm.noalias (after the LLVM lowering)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 120

    def run(self, module: ir.Operation) -> None:
        with module.context:
            self.bump("rewrites", mark_noalias_pointers(module))


def mark_noalias_pointers(module: ir.Operation) -> int:
    """Marks the functions under ``module``; returns how many."""
    marked = 0
    for f in module.regions[0].blocks[0].operations:
        f = f.operation
        if f.name != "llvm.func" or NOALIAS_POINTERS_ATTR not in f.attributes:
            continue
        positions = list(ir.DenseI64ArrayAttr(f.attributes[NOALIAS_POINTERS_ATTR]))
        expected = ir.IntegerAttr(f.attributes[EXPANDED_ARGS_ATTR]).value
        del f.attributes[NOALIAS_POINTERS_ATTR]
        del f.attributes[EXPANDED_ARGS_ATTR]
        if not f.regions[0].blocks:
            continue
        args = f.regions[0].blocks[0].arguments
        if len(args) != expected or any(not str(args[p].type).startswith("!llvm.ptr") for p in positions):
            continue
        old = list(ir.ArrayAttr(f.attributes["arg_attrs"])) if "arg_attrs" in f.attributes else []
        attrs = []
        for i in range(len(args)):
            entries = {a.name: a.attr for a in ir.DictAttr(old[i])} if i < len(old) else {}
            if i in positions:
                entries["llvm.noalias"] = ir.UnitAttr.get()
            attrs.append(ir.DictAttr.get(entries))
        f.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
        marked += 1
    return marked
