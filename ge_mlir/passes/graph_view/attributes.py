"""Attributes as Python values and back: reading goes through the one converter
(:func:`ge_mlir.irutils.attrs.attribute_value`); writing checks the Python value against the
attribute kind the op's builder declares before MLIR's attribute builder sees it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from mlir import ir

from ...irutils import attrs


# ge_mlir.irutils.constants and ge_mlir.irutils.types are imported where used: ir.types loads ml_dtypes
# (over a second), and user pass modules import this module at start-up.
def numpy_dtype(elem: Any) -> np.dtype | None:
    from ...irutils.types import numpy_dtype as numpy_dtype_of

    return numpy_dtype_of(elem)


#: Attributes that encode an op's structure, not its meaning (not shown in ``attrs``, not settable).
_STRUCTURAL = frozenset({"operandSegmentSizes", "resultSegmentSizes"})
_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def attribute_value(attr: ir.Attribute, op: ir.Operation | None = None) -> Any:
    """An attribute of ``op`` as a Python value (:func:`ge_mlir.irutils.attrs.attribute_value`:
    bool, int, float, str, list, the case name of a ge enum, numpy for dense elements, ``ir.Type``
    for type attributes, anything else the ``ir.Attribute``); a ``ge.constant``'s value is read
    through ``constant_array``, which also reads f16/f32/f64 resource blobs."""
    if op is not None and op.name == "ge.constant" and len(op.results) == 1:
        from ...irutils.constants import constant_array

        arr = constant_array(op.results[0])  # dense, or a readable f16/f32/f64 resource blob
        if arr is not None:
            return arr
    return attrs.attribute_value(attr)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_number(v: Any) -> bool:
    return _is_int(v) or isinstance(v, (float, np.floating))


def _check_python_value(value: Any, kind: str) -> str | None:
    """Why ``value`` cannot be an attribute built by ``kind`` (None: it can be tried)."""
    if kind in ("I64Attr", "I32Attr"):
        if not _is_int(value):
            return f"expected an integer, got {type(value).__name__} {value!r}"
        if not _I64_MIN <= int(value) <= _I64_MAX:
            return f"{value} does not fit in 64 bits"
    elif kind in ("F32Attr", "F64Attr"):
        if not _is_number(value):
            return f"expected a number, got {type(value).__name__} {value!r}"
    elif kind == "BoolAttr":
        if not isinstance(value, (bool, np.bool_)):
            return f"expected True or False, got {type(value).__name__} {value!r}"
    elif kind in ("DenseI64ArrayAttr", "DenseI32ArrayAttr"):
        if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)) \
                or not all(_is_int(v) for v in value):
            return f"expected a list of integers, got {value!r}"
        if any(not _I64_MIN <= int(v) <= _I64_MAX for v in value):
            return f"{value!r} has a value that does not fit in 64 bits"
    elif kind in ("DenseF32ArrayAttr", "DenseF64ArrayAttr"):
        if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)) \
                or not all(_is_number(v) for v in value):
            return f"expected a list of numbers, got {value!r}"
    elif kind.startswith("GE_"):
        text = value.name if hasattr(value, "name") and not isinstance(value, str) else value
        if not isinstance(text, str) or not _IDENT.match(text):
            return f"expected the name of a case, such as 'relu', got {value!r}"
    elif kind == "ElementsAttr":
        return "set constant values with graph.constant(array)"
    return None


def _to_attribute(value: Any, kind: str | None, context: ir.Context) -> ir.Attribute:
    """``value`` as the attribute ``kind`` (a generated attribute builder) needs, or as the natural
    attribute of its Python type (``kind`` None: an attribute the op does not declare). Raises
    ValueError saying why not."""
    if isinstance(value, ir.Attribute):
        if value.context != context:
            raise ValueError("the attribute belongs to another MLIR context")
        return value
    if value is None:
        raise ValueError("None is not an attribute value (leave the attribute out to use its default)")
    if kind is not None:
        why = _check_python_value(value, kind)
        if why is not None:
            raise ValueError(why)
        if kind.startswith("GE_") and not isinstance(value, str):
            value = value.name if hasattr(value, "name") else str(value)
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, Sequence) and not isinstance(value, str):
            value = [v.item() if hasattr(v, "item") else v for v in value]
        elif hasattr(value, "item"):
            value = value.item()
        if not ir.AttrBuilder.contains(kind):
            raise ValueError(f"no attribute builder for {kind}; pass an ir.Attribute")
        try:
            return ir.AttrBuilder.get(kind)(value, context=context)
        except Exception as e:  # noqa: BLE001 - builders raise TypeError/ValueError/MLIRError
            raise ValueError(str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__) from None
    with context:
        if isinstance(value, (bool, np.bool_)):
            return ir.BoolAttr.get(bool(value))
        if _is_int(value):
            if not _I64_MIN <= int(value) <= _I64_MAX:
                raise ValueError(f"{value} does not fit in 64 bits")
            return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))
        if isinstance(value, (float, np.floating)):
            return ir.FloatAttr.get(ir.F64Type.get(), float(value))
        if isinstance(value, str):
            return ir.StringAttr.get(value)
        if isinstance(value, (list, tuple)) and value and all(_is_int(v) for v in value):
            return ir.DenseI64ArrayAttr.get([int(v) for v in value])
        if isinstance(value, (list, tuple)) and value and all(_is_number(v) for v in value):
            return ir.DenseF64ArrayAttr.get([float(v) for v in value])
    raise ValueError(f"cannot make an attribute of {type(value).__name__} {value!r}; pass an ir.Attribute")
