"""ge-emit-c-interface: every defined function gets ``llvm.emit_c_interface``.

``convert-func-to-llvm`` then also emits ``_mlir_ciface_<name>``, a wrapper
taking pointers to memref descriptors: the entry point the CPU runner looks up
and calls with numpy arrays (the expanded signature has one argument per
descriptor field, which ctypes cannot call generically). Declarations are left
alone: they are resolved against symbols that have no such wrapper.
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass


@register_pass
class GeEmitCInterfacePass(Pass):
    name = "ge-emit-c-interface"
    summary = "Mark every defined function llvm.emit_c_interface (the JIT's calling convention)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 5

    def run(self, module: ir.Operation) -> None:
        unit = ir.UnitAttr.get(module.context)
        for op in module.regions[0].blocks[0].operations:
            fn = op.operation
            if fn.name == "func.func" and fn.regions[0].blocks and "llvm.emit_c_interface" not in fn.attributes:
                fn.attributes["llvm.emit_c_interface"] = unit
                self.bump("rewrites")
