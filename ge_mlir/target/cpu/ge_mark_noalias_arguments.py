"""ge-mark-noalias-arguments: every memref argument gets ``llvm.noalias``.

True by construction for the CPU runner's calls: the caller passes private
(read-only) inputs, fresh output arrays and the executable's own workspace; except the two
arguments of a pair ``ge-tie-donated-results`` tied (one buffer), which stay unmarked.
It lets LLVM keep values (the matmul accumulator tile) in registers across
loops instead of reloading them after every store through another argument.
Runs after bufferization (the arguments are memrefs).
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass
from .ge_mark_readonly_arguments import annotate_arguments
from .ge_tie_donated_results import tied_arguments


@register_pass
class GeMarkNoaliasArgumentsPass(Pass):
    name = "ge-mark-noalias-arguments"
    summary = "Mark memref arguments llvm.noalias (the caller passes distinct buffers)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 80

    def run(self, module: ir.Operation) -> None:
        with module.context:
            self.bump("rewrites", annotate_arguments(module, ir.MemRefType, "llvm.noalias", ir.UnitAttr.get(),
                                                          skip=tied_arguments))
