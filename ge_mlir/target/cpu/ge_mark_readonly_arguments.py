"""ge-mark-readonly-arguments: tensor arguments bufferize as read-only.

Every ranked tensor argument of a defined function gets
``bufferization.writable = false``: one-shot bufferization then never writes
into the caller's arrays in place, so the CPU runner passes the user's numpy
inputs without a defensive copy (a tensor written in place gets a private
buffer instead).
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from ...passes.registry import Pass, register_pass


@register_pass
class GeMarkReadonlyArgumentsPass(Pass):
    name = "ge-mark-readonly-arguments"
    summary = "Mark tensor arguments bufferization.writable = false (inputs are never written)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 40

    def run(self, module: ir.Operation) -> None:
        with module.context:
            self.bump("rewrites", annotate_arguments(
                module, ir.RankedTensorType, "bufferization.writable", ir.BoolAttr.get(False)))


def annotate_arguments(module: ir.Operation, arg_type: type, name: str, value: ir.Attribute,
                       skip: Any = None) -> int:
    """Sets argument attribute ``name`` on every ``arg_type`` argument of every defined
    function (except the positions ``skip(fn)`` returns); returns how many arguments match."""
    count = 0
    for op in module.regions[0].blocks[0].operations:
        fn = op.operation
        if fn.name != "func.func" or not fn.regions[0].blocks:
            continue
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        skipped = skip(fn) if skip is not None else set()
        old = list(ir.ArrayAttr(fn.attributes["arg_attrs"])) if "arg_attrs" in fn.attributes else []
        new = []
        for i, t in enumerate(ftype.inputs):
            entries = {}
            if i < len(old):
                d = ir.DictAttr(old[i])
                entries = {d[j].name: d[j].attr for j in range(len(d))}
            if isinstance(t, arg_type) and i not in skipped:
                entries[name] = value
                count += 1
            new.append(ir.DictAttr.get(entries))
        fn.attributes["arg_attrs"] = ir.ArrayAttr.get(new)
    return count
