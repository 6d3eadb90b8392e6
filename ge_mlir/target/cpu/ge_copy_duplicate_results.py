"""ge-copy-duplicate-results: a value returned twice is returned as copies after its first use.

``return %0, %0`` bufferizes to one buffer returned twice;
``buffer-results-to-out-params{hoist-static-allocs=1}`` then replaces the
allocation by the first out-parameter and erases it, leaving the second
return operand a dangling (freed) value: the pass segfaults (issue 11). A
``bufferization.alloc_tensor() copy(%0)`` per repeated ``func.return`` tensor
operand gives each result its own buffer, hence its own out-parameter.
Runs on tensors, before bufferization.
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass


@register_pass
class GeCopyDuplicateResultsPass(Pass):
    name = "ge-copy-duplicate-results"
    summary = "Return a copy for every repeated tensor operand of func.return (one buffer per result)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 60

    def run(self, module: ir.Operation) -> None:
        from mlir.dialects import bufferization

        with module.context, ir.Location.unknown():
            for op in module.regions[0].blocks[0].operations:
                fn = op.operation
                if fn.name != "func.func":
                    continue
                for block in fn.regions[0].blocks:
                    ret = list(block.operations)[-1].operation
                    if ret.name != "func.return":
                        continue
                    seen: set = set()
                    for i in range(len(ret.operands)):
                        v = ret.operands[i]
                        if not isinstance(v.type, ir.RankedTensorType):
                            continue
                        if v in seen:
                            with ret.location, ir.InsertionPoint(ret):
                                ret.operands[i] = bufferization.alloc_tensor(v.type, [], copy=v)
                            self.bump("rewrites")
                        else:
                            seen.add(v)
