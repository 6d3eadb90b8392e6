"""ge-forward-result-buffers: a result computed into a buffer and then copied, reshaped, into its
out-parameter is computed in the out-parameter instead.

``buffer-results-to-out-params{hoist-static-allocs=1}`` replaces a returned ``memref.alloc`` by the
out-parameter, but only when the alloc itself is returned. A result returned through a reshape
(GPT-2's logits: the ``[128, 50257]`` matmul expanded to ``[1, 128, 50257]``) keeps its alloc and
ends in ``memref.copy %expand_shape(%alloc), %out``: a second pass over 25 MB after the matmul
(1.3 ms of a 22 ms call), and 25 MB of workspace. Here the alloc becomes the inverse reshape of
the out-parameter (``collapse_shape %out`` for an ``expand_shape``, and the reverse) and the copy
goes away.

Only in functions whose out-parameters were made by that pass (the copy's target is a function
argument nothing else uses), for a static alloc with the identity layout seen through
``expand_shape``/``collapse_shape`` only, when the copies to out-parameters are the last ops before
``func.return`` (so nothing reads or writes the buffer after its copy) and no other copy reads the
same alloc (one buffer cannot be two results). Runs after bufferization, before ``ge-plan-memory``.
"""

from __future__ import annotations

from mlir import ir

from ...irutils.patterns import defining_op
from ...passes.registry import Pass, register_pass


@register_pass
class GeForwardResultBuffersPass(Pass):
    name = "ge-forward-result-buffers"
    summary = "Compute results reaching their out-parameter through a reshape copy in the out-parameter"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 65

    def run(self, module: ir.Operation) -> None:
        with module.context, ir.Location.unknown():
            self.bump("rewrites", forward_result_buffers(module))


_RESHAPES = ("memref.expand_shape", "memref.collapse_shape")


def _identity(t: ir.MemRefType) -> bool:
    return t.affine_map == ir.AffineMap.get_identity(t.rank)


def _root_alloc(v: ir.Value) -> tuple[ir.Operation, list[ir.Operation]] | None:
    """(the static identity-layout ``memref.alloc`` under ``v``, the reshapes from it to ``v``)."""
    chain: list[ir.Operation] = []
    while True:
        op = defining_op(v)
        if op is None:
            return None
        if op.name in _RESHAPES:
            chain.append(op)
            v = op.operands[0]
            continue
        if op.name != "memref.alloc" or len(op.operands):
            return None
        t = ir.MemRefType(op.results[0].type)
        if not t.has_static_shape or not _identity(t):
            return None
        return op, chain[::-1]


def _inverse(op: ir.Operation, v: ir.Value) -> ir.Value:
    """``v`` (of ``op``'s result type) reshaped back to ``op``'s operand type."""
    from mlir.dialects import memref

    source_t = ir.MemRefType(op.operands[0].type)
    assoc = op.attributes["reassociation"]
    if op.name == "memref.expand_shape":
        return memref.CollapseShapeOp(source_t, v, assoc).result
    return memref.ExpandShapeOp(source_t, v, assoc, [], list(source_t.shape)).result


def forward_result_buffers(module: ir.Operation) -> int:
    count = 0
    for fop in module.regions[0].blocks[0].operations:
        fop = fop.operation
        if fop.name != "func.func" or not fop.regions[0].blocks:
            continue
        if len(fop.regions[0].blocks) != 1:
            continue
        block = fop.regions[0].blocks[0]
        ops = [o.operation for o in block.operations]
        if not ops or ops[-1].name != "func.return":
            continue
        tail: list[ir.Operation] = []
        for o in reversed(ops[:-1]):
            if o.name != "memref.copy":
                break
            tail.append(o)
        roots = [_root_alloc(c.operands[0]) for c in tail]
        # Decide everything before rewriting anything (a rewrite erases ops other roots name).
        chosen = []
        for copy, root in zip(tail, roots):
            dst = copy.operands[1]
            if root is None or not root[1] or not isinstance(dst, ir.BlockArgument):
                continue
            if dst.owner != block or len(list(dst.uses)) != 1:
                continue
            alloc, chain = root
            if sum(1 for r in roots if r is not None and r[0] == alloc) != 1:
                continue
            dst_t = ir.MemRefType(dst.type)
            if not _identity(dst_t) or dst_t != ir.MemRefType(copy.operands[0].type):
                continue
            chosen.append((copy, alloc, chain, dst))
        for copy, alloc, chain, dst in chosen:
            # The out-parameter seen as the alloc: undo the chain's reshapes, last first.
            with ir.InsertionPoint(alloc), copy.location:
                v = dst
                for r in reversed(chain):
                    v = _inverse(r, v)
            alloc.results[0].replace_all_uses_with(v)
            copy.erase()
            alloc.erase()
            count += 1
    return count
