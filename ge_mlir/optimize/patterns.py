"""Helpers for writing ge rewrite patterns in Python.

``mlir.rewrite`` calls a pattern with (op, rewriter) and treats a falsy
return value as "matched and rewritten". Our patterns return True when they
changed the IR, which reads naturally; :func:`pattern` adapts them.
"""

from __future__ import annotations

from typing import Callable

from mlir import ir
from mlir.rewrite import PatternRewriter

PatternFn = Callable[[ir.OpView, PatternRewriter], bool]


def pattern(fn: PatternFn) -> Callable[[ir.OpView, PatternRewriter], bool]:
    def adapted(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        return not fn(op, rewriter)

    adapted.__name__ = fn.__name__
    return adapted


def int_array(op: ir.OpView | ir.Operation, name: str) -> list[int] | None:
    """Value of a DenseI64ArrayAttr attribute, or None when absent."""
    attrs = op.operation.attributes if isinstance(op, ir.OpView) else op.attributes
    if name not in attrs:
        return None
    return list(ir.DenseI64ArrayAttr(attrs[name]))


def defining_op(value: ir.Value) -> ir.Operation | None:
    """The operation producing ``value`` (None for block arguments)."""
    owner = value.owner
    if isinstance(owner, ir.OpView):
        return owner.operation
    return owner if isinstance(owner, ir.Operation) else None


def count_ops(module: ir.Operation, dialect: str = "ge") -> int:
    """Number of ``dialect`` ops in the functions of ``module``."""
    n = 0
    for fn in module.regions[0].blocks[0].operations:
        for region in fn.regions:
            for block in region.blocks:
                n += sum(1 for op in block.operations if op.operation.name.startswith(dialect + "."))
    return n
