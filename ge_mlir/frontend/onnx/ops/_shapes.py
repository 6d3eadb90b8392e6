"""Shape helpers shared by the converter modules (-1 means a dynamic dim)."""

from __future__ import annotations

from typing import Sequence

from mlir import ir

from ....dialects import ge

_DYN = ir.ShapedType.get_dynamic_size()


def _tensor(shape: Sequence[int], elem: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([_DYN if d < 0 else int(d) for d in shape], elem)


def _shape_of(v: ir.Value) -> list[int]:
    t = v.type
    return [-1 if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)]


def _reshape(v: ir.Value, shape: Sequence[int]) -> ir.Value:
    if list(shape) == _shape_of(v):
        return v
    return ge.reshape(_tensor(shape, v.type.element_type), v)
