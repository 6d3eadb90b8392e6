"""ge-lower-memref-copies: ``memref.copy`` becomes ``linalg.copy`` (then loops).

The LLVM lowering turns a memref.copy with a non-identity layout (a strided
view from bufferized ``insert_slice``/``extract_slice``) into a call to the
runtime's ``memrefCopy``, which the JIT cannot resolve without loading the
MLIR runner-utils library; loops also let LLVM vectorize the copy. Runs on
buffers, before ``convert-linalg-to-loops``.
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass


@register_pass
class GeLowerMemrefCopiesPass(Pass):
    name = "ge-lower-memref-copies"
    summary = "Rewrite memref.copy as linalg.copy (no memrefCopy runtime call in the JIT)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 100

    def run(self, module: ir.Operation) -> None:
        from mlir.dialects import linalg

        copies: list[ir.Operation] = []

        def collect(o: ir.Operation) -> ir.WalkResult:
            if o.name == "memref.copy":
                copies.append(o)
            return ir.WalkResult.ADVANCE

        with module.context, ir.Location.unknown():
            for op in module.regions[0].blocks[0].operations:
                if op.operation.name == "func.func":
                    op.operation.walk(collect, ir.WalkOrder.PRE_ORDER)
            for op in copies:
                with op.location, ir.InsertionPoint(op):
                    linalg.copy(op.operands[0], outs=[op.operands[1]])
                op.erase()
        self.bump("rewrites", len(copies))
