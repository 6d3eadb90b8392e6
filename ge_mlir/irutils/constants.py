"""Reading and making ``ge.constant`` values as numpy arrays.

``dense<...>`` constants are read with numpy through the buffer protocol of
``DenseElementsAttr``. The Python bindings do not expose the data of
``dense_resource`` blobs, but ``libMLIRPythonCAPI.so`` exports
``mlir::DenseResourceElementsAttr::getData()`` (the blob's bytes, empty when
the blob is missing or elided): f32 and f64 blobs up to
:data:`MAX_RESOURCE_ELEMENTS` elements are read that way through ctypes.
Other resource blobs, and blobs with fewer bytes than their type needs, are
"not readable" and the passes fall back to (or refuse) accordingly. (The C
API's per-element ``mlirDense{Float,Double}ResourceElementsAttrGetValue``
aborts the process on such blobs.)
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import numpy as np
from mlir import _mlir_libs, ir

from .attrs import MAX_READ_BYTES as _MAX_READ_BYTES
from .ge_ops import create_op
from .patterns import defining_op
from .types import NUMPY_DTYPES

__all__ = [
    "MAX_READ_BYTES", "MAX_RESOURCE_ELEMENTS", "RESOURCE_THRESHOLD", "constant_array", "constant_op",
    "constant_readable", "make_constant", "read_resource", "read_resource_array", "read_resource_bytes",
    "resource_array_readable", "tensor_type",
]

#: Largest dense_resource blob read through ctypes.
MAX_RESOURCE_ELEMENTS = 1 << 22
#: Folded constants with more elements than this are stored as dense_resource
#: blobs (same threshold as the ONNX importer's default).
RESOURCE_THRESHOLD = 64

#: Element types whose constants are read into numpy (the passes fold floats only).
_NUMPY_OF = {name: NUMPY_DTYPES[name] for name in ("f16", "f32", "f64")}


class _Bytes(ctypes.Structure):
    """``llvm::ArrayRef<char>``."""

    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


_capsule_ptr = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_ptr.restype = ctypes.c_void_p
_capsule_ptr.argtypes = [ctypes.py_object, ctypes.c_char_p]
_GET_DATA: Any = None


def _get_data() -> Any:
    """``mlir::DenseResourceElementsAttr::getData()`` (None when the library does not export it)."""
    global _GET_DATA
    if _GET_DATA is None:
        lib = ctypes.CDLL(str(Path(_mlir_libs.__file__).parent / "libMLIRPythonCAPI.so"))
        fn = getattr(lib, "_ZN4mlir25DenseResourceElementsAttr7getDataEv", None)
        if fn is not None:
            fn.restype = _Bytes
            fn.argtypes = [ctypes.c_void_p]  # this: a pointer to the attribute (its storage pointer)
        _GET_DATA = fn or False
    return _GET_DATA or None


def _blob(attr: ir.Attribute) -> _Bytes | None:
    """The bytes of a ``dense_resource`` attribute where they are (no copy), or None when the
    library does not export the accessor."""
    get = _get_data()
    if get is None:
        return None
    storage = ctypes.c_void_p(_capsule_ptr(attr._CAPIPtr, b"mlir.ir.Attribute._CAPIPtr"))
    return get(ctypes.byref(storage))


def _readable_resource(attr: ir.Attribute, ttype: ir.RankedTensorType) -> _Bytes | None:
    """The blob :func:`read_resource` reads, or None when it would give None."""
    elem = str(ttype.element_type)
    if elem not in ("f32", "f64") or not ttype.has_static_shape:
        return None
    n = int(np.prod(ttype.shape)) if ttype.shape else 1
    if n > MAX_RESOURCE_ELEMENTS:
        return None
    blob = _blob(attr)
    if blob is None or not blob.data or blob.size < n * np.dtype(_NUMPY_OF[elem]).itemsize:
        return None
    return blob


def read_resource(attr: ir.Attribute, ttype: ir.RankedTensorType) -> np.ndarray | None:
    """An f32/f64 ``dense_resource`` blob as numpy, or None (other type, too large, missing or short blob)."""
    blob = _readable_resource(attr, ttype)
    if blob is None:
        return None
    n = int(np.prod(ttype.shape)) if ttype.shape else 1
    dtype = np.dtype(_NUMPY_OF[str(ttype.element_type)])
    return np.frombuffer(ctypes.string_at(blob.data, n * dtype.itemsize), dtype, count=n).reshape(ttype.shape)


def read_resource_bytes(attr: ir.Attribute) -> bytes | None:
    """The raw bytes of a ``dense_resource`` blob (any element type), or None (missing,
    elided, or the library does not export the accessor). No size limit: callers check."""
    blob = _blob(attr)
    if blob is None or not blob.data:
        return None
    return ctypes.string_at(blob.data, blob.size)


def read_resource_array(attr: ir.Attribute) -> np.ndarray | None:
    """A ``dense_resource`` attribute's data as a flat numpy array of its element type, any size
    (an embedding table of millions of elements, integer ids), or None (not a resource, an element
    type numpy cannot hold, a missing or short blob). The blob is read only when ``attr`` is a
    resource: the C API reader reinterprets any other attribute's storage (and aborts)."""
    if not resource_array_readable(attr):
        return None
    ttype = ir.RankedTensorType(attr.type)
    dtype = np.dtype(NUMPY_DTYPES[str(ttype.element_type)])
    n = int(np.prod(ttype.shape)) if ttype.shape else 1
    raw = read_resource_bytes(attr)
    return np.frombuffer(raw[: n * dtype.itemsize], dtype, count=n).copy()


def resource_array_readable(attr: ir.Attribute) -> bool:
    """Whether :func:`read_resource_array` gives ``attr``'s data, without reading it."""
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return False
    ttype = ir.RankedTensorType(attr.type)
    elem = str(ttype.element_type)
    if elem not in NUMPY_DTYPES or elem == "i1" or not ttype.has_static_shape:
        return False
    n = int(np.prod(ttype.shape)) if ttype.shape else 1
    blob = _blob(attr)
    return blob is not None and bool(blob.data) and blob.size >= n * np.dtype(NUMPY_DTYPES[elem]).itemsize


def constant_op(value: ir.Value, ops: tuple[str, ...] = ("ge.constant",)) -> ir.Operation | None:
    """The defining op of ``value`` when it is one of ``ops`` (constants with a ``value`` attribute)."""
    op = defining_op(value)
    return op if op is not None and op.name in ops else None


# Defined with the attribute reader, which needs it and sits below this module.
MAX_READ_BYTES = _MAX_READ_BYTES


def _readable_constant(value: ir.Value, ops: tuple[str, ...]):
    """(attribute, type, its blob or None for dense elements) of a constant that
    :func:`constant_array` reads, else None."""
    op = constant_op(value, ops)
    if op is None:
        return None
    attr = op.attributes["value"]
    ttype = ir.RankedTensorType(value.type)
    if str(ttype.element_type) not in _NUMPY_OF:
        return None
    nbytes = np.dtype(_NUMPY_OF[str(ttype.element_type)]).itemsize
    for d in ttype.shape:
        nbytes *= d
    if nbytes > MAX_READ_BYTES:  # a splat of petabytes: reading it would end in MemoryError
        return None
    try:
        ir.DenseElementsAttr(attr)
        return attr, ttype, None
    except (ValueError, TypeError):
        pass
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return None
    blob = _readable_resource(attr, ttype)
    return None if blob is None else (attr, ttype, blob)


def constant_array(value: ir.Value, ops: tuple[str, ...] = ("ge.constant",)) -> np.ndarray | None:
    """The value of a ``ge.constant`` result (or of any of ``ops``, e.g. ``arith.constant`` during
    lowering) as numpy, or None (not constant / not readable)."""
    found = _readable_constant(value, ops)
    if found is None:
        return None
    attr, ttype, blob = found
    if blob is None:
        return np.array(ir.DenseElementsAttr(attr)).reshape(ttype.shape)
    return read_resource(attr, ttype)


def constant_readable(value: ir.Value, ops: tuple[str, ...] = ("ge.constant",)) -> bool:
    """Whether :func:`constant_array` gives ``value``'s array, without reading it (a pass that
    decides on a constant before it rewrites reads it once)."""
    return _readable_constant(value, ops) is not None


def elements_attr(array: np.ndarray, elem: ir.Type, name: str) -> ir.Attribute:
    """``array`` (rounded to ``elem``) as a tensor attribute: a dense resource named ``name`` past
    ``RESOURCE_THRESHOLD`` elements (kept out of the printed IR), else inline dense elements."""
    array = np.require(array.astype(_NUMPY_OF[str(elem)]), requirements="C")
    ttype = ir.RankedTensorType.get(list(array.shape), elem)
    if array.size > RESOURCE_THRESHOLD:
        return ir.DenseResourceElementsAttr.get_from_buffer(array, name, ttype)
    return ir.DenseElementsAttr.get(array, type=ttype)


def make_constant(array: np.ndarray, elem: ir.Type, name: str, loc: ir.Location) -> ir.Value:
    """A new ``ge.constant`` holding ``array`` (rounded to ``elem``)."""
    attr = elements_attr(array, elem, name)
    return create_op("ge.constant", [attr.type], attributes={"value": attr}, loc=loc).result


def tensor_type(value: ir.Value) -> ir.RankedTensorType | None:
    try:
        t = ir.RankedTensorType(value.type)
    except (ValueError, TypeError):
        return None
    return t if t.has_static_shape else None
