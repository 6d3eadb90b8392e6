"""Readers of op attributes: typed readers with defaults for absent ones (``op``: an OpView or an
Operation), and the one converter of any attribute to a Python value (:func:`attribute_value`)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from mlir import ir

__all__ = ["attr_bool", "attr_enum", "attr_float", "attr_int", "attr_ints", "attribute_value", "constant_summary",
           "is_resource"]

_ARRAY_ATTRS = tuple(getattr(ir, n) for n in (
    "DenseI64ArrayAttr", "DenseI32ArrayAttr", "DenseI16ArrayAttr", "DenseI8ArrayAttr",
    "DenseF32ArrayAttr", "DenseF64ArrayAttr", "DenseBoolArrayAttr") if hasattr(ir, n))
#: A ge enum case (every ge attribute is an enum with identifier cases).
_ENUM_TEXT = re.compile(r"#ge\.\w+<(\w+)>")
_RESOURCE = re.compile(r"dense_resource<\s*([^>]*)>")


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


def attribute_value(attr: ir.Attribute, *, summary: bool = False) -> Any:
    """An attribute as a Python value: bool, int, float, str; a list for arrays and dense arrays
    (element by element); the case name of a ge enum (``#ge.act<relu>`` -> ``"relu"``).

    The rest depends on what the value is for:

    * ``summary=False``, values to compute with and to write back (the graph view): dense elements
      as a numpy array (unless numpy cannot hold them or they are larger than
      ``irutils.constants.MAX_READ_BYTES``), a type attribute's ``ir.Type``, and any other
      attribute (unit, dictionary, resource blob, ...) as the ``ir.Attribute`` itself;
    * ``summary=True``, plain data to show or serialise (graph export, JSON): elements and
      resource blobs as :func:`constant_summary`, a type as its text, a unit attribute as True, a
      dictionary as a dict, any other attribute as its text."""
    if isinstance(attr, ir.BoolAttr):
        return bool(ir.BoolAttr(attr).value)
    if isinstance(attr, ir.IntegerAttr):
        return int(ir.IntegerAttr(attr).value)
    if isinstance(attr, ir.FloatAttr):
        return float(ir.FloatAttr(attr).value)
    if isinstance(attr, ir.StringAttr):
        return str(ir.StringAttr(attr).value)
    if _ARRAY_ATTRS and isinstance(attr, _ARRAY_ATTRS):
        return list(attr)
    if isinstance(attr, ir.ArrayAttr):
        return [attribute_value(a, summary=summary) for a in ir.ArrayAttr(attr)]
    if isinstance(attr, ir.TypeAttr):
        t = ir.TypeAttr(attr).value
        return str(t) if summary else t
    if summary:
        if isinstance(attr, ir.UnitAttr):
            return True
        if isinstance(attr, ir.DictAttr):
            d = ir.DictAttr(attr)
            return {d[i].name: attribute_value(d[i].attr, summary=True) for i in range(len(d))}
        if isinstance(attr, ir.DenseElementsAttr) or is_resource(attr):
            return constant_summary(attr)
    elif isinstance(attr, ir.DenseElementsAttr):
        return _elements_array(attr)
    text = str(attr)
    m = _ENUM_TEXT.fullmatch(text)
    if m:
        return m.group(1)
    return text if summary else attr


def is_resource(attr: ir.Attribute) -> bool:
    """Whether ``attr`` is a ``dense_resource`` elements attribute (the bindings do not downcast those)."""
    if isinstance(attr, (ir.DenseElementsAttr, ir.ArrayAttr, ir.DictAttr, ir.StringAttr)):
        return False
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return False
    return True


#: Constants larger than this are not read into numpy (``constants.constant_array``
#: answers None: not usable as a constant by the passes and lowerings).
MAX_READ_BYTES = 1 << 34


def _elements_array(attr: ir.Attribute) -> Any:
    """Dense elements as numpy (when numpy holds them and they are not huge), else the attribute."""
    # Imported here: irutils.types loads ml_dtypes (over a second), and modules that only read
    # scalar attributes import this one at start-up.
    from .types import numpy_dtype

    dense = ir.DenseElementsAttr(attr)
    st = ir.ShapedType(dense.type)
    dtype = numpy_dtype(st.element_type)
    count = int(np.prod(st.shape)) if st.has_static_shape else None
    if dtype is None or count is None or count * dtype.itemsize > MAX_READ_BYTES:
        return attr
    try:
        return np.array(dense).reshape(st.shape)
    except (TypeError, ValueError):  # pragma: no cover - element types numpy cannot hold
        return attr


def _small_elements(attr: ir.Attribute, limit: int) -> np.ndarray | None:
    """A small dense attribute's values (at most ``limit`` elements), else None."""
    try:
        dense = ir.DenseElementsAttr(attr)
    except (ValueError, TypeError):
        return None
    st = ir.ShapedType(dense.type)
    n = int(np.prod(st.shape)) if st.rank else 1
    if dense.is_splat:
        try:
            v = dense.get_splat_value()
            return np.full(st.shape, attribute_value(v, summary=True))
        except Exception:  # noqa: BLE001 - exotic element types
            return None
    if n > limit:
        return None
    try:
        return np.array(dense).reshape(st.shape)
    except Exception:  # noqa: BLE001 - bf16 and friends: element by element
        try:
            return np.array([attribute_value(dense[i], summary=True) for i in range(n)]).reshape(st.shape)
        except Exception:  # noqa: BLE001
            return None


def constant_summary(attr: ir.Attribute, limit: int = 16) -> dict[str, Any]:
    """What a constant's value attribute says cheaply: ``resource`` (the blob's name),
    ``splat`` (the repeated value) or ``values`` (up to ``limit`` elements, nested lists)."""
    out: dict[str, Any] = {}
    if is_resource(attr):
        m = _RESOURCE.search(str(attr))
        out["resource"] = m.group(1).strip().strip('"') if m else None
        return out
    if isinstance(attr, ir.DenseElementsAttr):
        dense = ir.DenseElementsAttr(attr)
        arr = _small_elements(attr, limit)
        if dense.is_splat and arr is not None:
            out["splat"] = arr.reshape(-1)[0].item() if arr.size else None
        elif arr is not None:
            out["values"] = arr.tolist()
        return out
    if isinstance(attr, (ir.IntegerAttr, ir.FloatAttr, ir.BoolAttr)):
        out["values"] = attribute_value(attr, summary=True)
    return out
