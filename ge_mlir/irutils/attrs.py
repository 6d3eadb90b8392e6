"""Readers of op attributes, with defaults for absent ones (``op``: an OpView or an Operation)."""

from __future__ import annotations

from mlir import ir

__all__ = ["attr_bool", "attr_enum", "attr_float", "attr_int", "attr_ints"]


def attr_float(op: ir.OpView | ir.Operation, name: str, default: float | None) -> float | None:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return float(ir.FloatAttr(attrs[name]).value)


def attr_bool(op: ir.OpView | ir.Operation, name: str, default: bool) -> bool:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return bool(ir.BoolAttr(attrs[name]).value)


def attr_int(op: ir.OpView | ir.Operation, name: str, default: int | None) -> int | None:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return int(ir.IntegerAttr(attrs[name]).value)


def attr_ints(op: ir.OpView | ir.Operation, name: str, default: list[int] | None) -> list[int] | None:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return list(ir.DenseI64ArrayAttr(attrs[name]))


def attr_enum(op: ir.OpView | ir.Operation, name: str, default: str) -> str:
    """The case name of a ge enum attribute (``#ge.format<NHWC>`` -> ``NHWC``)."""
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    text = str(attrs[name])
    return text[text.index("<") + 1 : text.rindex(">")]
