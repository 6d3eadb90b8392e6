"""Per-kernel summaries of a lowered module: blocks, on-chip bytes per memory, launches, and the
cost model's estimate (``CompiledModel.kernels``, ``ge-compile --target ascendc``)."""

from __future__ import annotations

from mlir import ir

from ...dialects.ascendc import KernelKindAttr, QueueType, TargetAttr, TBufType, position_memory
from .cost import estimate
from .kernel_builder import align_up


#: Alignment of a queue or buffer in each on-chip memory (the kernel verifier's accounting).
_ALIGN = {"UB": 32, "L1": 32, "L0A": 512, "L0B": 512, "L0C": 64, "BT": 64}


def _walk_ops(op: ir.Operation):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                yield child
                yield from _walk_ops(child)


def kernel_summaries(module: ir.Module) -> list[dict[str, object]]:
    """Per ``ascendc.kernel``: name, kind, blocks, the on-chip bytes its queues and buffers
    take per memory (the kernel verifier's accounting), how many times the host launches it, and
    the cost model's estimate of one launch (:func:`.cost.estimate`: a roofline model, not a
    measurement)."""
    soc = None
    if "ascendc.target" in module.operation.attributes:
        soc = TargetAttr(module.operation.attributes["ascendc.target"]).soc
    launches: dict[str, int] = {}
    for op in module.body.operations:
        if op.operation.name == "ascendc.host":
            for o in _walk_ops(op.operation):
                if o.name == "ascendc.launch":
                    k = ir.FlatSymbolRefAttr(o.attributes["kernel"]).value
                    launches[k] = launches.get(k, 0) + 1
    out = []
    for op in module.body.operations:
        op = op.operation
        if op.name != "ascendc.kernel":
            continue
        usage: dict[str, int] = {}
        for o in _walk_ops(op):
            if o.name in ("ascendc.queue", "ascendc.tbuf"):
                t = o.results[0].type
                pos = QueueType(t).position if QueueType.isinstance(t) else TBufType(t).position
                mem = position_memory(pos)
                nbytes = ir.IntegerAttr(o.attributes["bytes"]).value
                num = ir.IntegerAttr(o.attributes["num"]).value if "num" in o.attributes else 1
                usage[mem] = usage.get(mem, 0) + num * align_up(nbytes, _ALIGN[mem])
        kind = str(KernelKindAttr(op.attributes["kind"]).value)
        blocks = ir.IntegerAttr(op.attributes["block_dim"]).value
        work = {}
        if "work" in op.attributes:
            work = {a.name: ir.IntegerAttr(a.attr).value for a in ir.DictAttr(op.attributes["work"])}
        name = ir.StringAttr(op.attributes["sym_name"]).value
        out.append({"name": name, "kind": kind, "blocks": blocks, "bytes": usage, "launches": launches.get(name, 0),
                    "estimate": estimate(work, blocks, soc)})
    return out
