"""Shared helpers of the ge fusion passes (ge-fuse-*).

Constant reading: ``dense<...>`` constants are read with numpy through the
buffer protocol of ``DenseElementsAttr``. The Python bindings do not expose
the data of ``dense_resource`` blobs, but the MLIR C API exported by
``libMLIRPythonCAPI.so`` does (``mlirDense{Float,Double}ResourceElementsAttrGetValue``,
one element per call): f32 and f64 blobs up to :data:`MAX_RESOURCE_ELEMENTS`
elements are read that way through ctypes. Other resource blobs are
"not readable" and the passes fall back to (or refuse) accordingly.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import numpy as np
from mlir import _mlir_libs, ir

from .patterns import apply_without_folding, defining_op

#: Largest dense_resource blob read element by element through the C API.
MAX_RESOURCE_ELEMENTS = 1 << 22
#: Folded constants with more elements than this are stored as dense_resource
#: blobs (same threshold as the ONNX importer's default).
RESOURCE_THRESHOLD = 64

_NUMPY_OF = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


class _Attr(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


_capsule_ptr = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_ptr.restype = ctypes.c_void_p
_capsule_ptr.argtypes = [ctypes.py_object, ctypes.c_char_p]
_CAPI: ctypes.CDLL | None = None


def _capi() -> ctypes.CDLL:
    global _CAPI
    if _CAPI is None:
        lib = ctypes.CDLL(str(Path(_mlir_libs.__file__).parent / "libMLIRPythonCAPI.so"))
        lib.mlirDenseFloatResourceElementsAttrGetValue.restype = ctypes.c_float
        lib.mlirDenseFloatResourceElementsAttrGetValue.argtypes = [_Attr, ctypes.c_ssize_t]
        lib.mlirDenseDoubleResourceElementsAttrGetValue.restype = ctypes.c_double
        lib.mlirDenseDoubleResourceElementsAttrGetValue.argtypes = [_Attr, ctypes.c_ssize_t]
        _CAPI = lib
    return _CAPI


def _read_resource(attr: ir.Attribute, ttype: ir.RankedTensorType) -> np.ndarray | None:
    elem = str(ttype.element_type)
    n = int(np.prod(ttype.shape)) if ttype.shape else 1
    if elem not in ("f32", "f64") or n > MAX_RESOURCE_ELEMENTS or not ttype.has_static_shape:
        return None
    lib = _capi()
    get = lib.mlirDenseFloatResourceElementsAttrGetValue if elem == "f32" else lib.mlirDenseDoubleResourceElementsAttrGetValue
    handle = _Attr(_capsule_ptr(attr._CAPIPtr, b"mlir.ir.Attribute._CAPIPtr"))
    out = np.fromiter((get(handle, i) for i in range(n)), dtype=_NUMPY_OF[elem], count=n)
    return out.reshape(ttype.shape)


def constant_op(value: ir.Value) -> ir.Operation | None:
    op = defining_op(value)
    return op if op is not None and op.name == "ge.constant" else None


def constant_array(value: ir.Value) -> np.ndarray | None:
    """The value of a ``ge.constant`` result as numpy, or None (not constant / not readable)."""
    op = constant_op(value)
    if op is None:
        return None
    attr = op.attributes["value"]
    ttype = ir.RankedTensorType(value.type)
    if str(ttype.element_type) not in _NUMPY_OF:
        return None
    try:
        dense = ir.DenseElementsAttr(attr)
    except (ValueError, TypeError):
        dense = None
    if dense is not None:
        return np.array(dense).reshape(ttype.shape)
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return None
    return _read_resource(attr, ttype)


def make_constant(array: np.ndarray, elem: ir.Type, name: str, loc: ir.Location) -> ir.Value:
    """A new ``ge.constant`` holding ``array`` (rounded to ``elem``)."""
    from ..dialects import ge

    array = np.require(array.astype(_NUMPY_OF[str(elem)]), requirements="C")
    ttype = ir.RankedTensorType.get(list(array.shape), elem)
    if array.size > RESOURCE_THRESHOLD:
        attr = ir.DenseResourceElementsAttr.get_from_buffer(array, name, ttype)
    else:
        attr = ir.DenseElementsAttr.get(array, type=ttype)
    return ge.ConstantOp(attr, loc=loc).result


def single_use(value: ir.Value) -> bool:
    uses = iter(value.uses)
    return next(uses, None) is not None and next(uses, None) is None


def activation_of(op: ir.Operation) -> str:
    """Name of the fused activation of a conv2d/matmul/gemm ("none" when absent)."""
    if "activation" not in op.attributes:
        return "none"
    text = str(op.attributes["activation"])  # "#ge.act<relu>"
    return text[text.index("<") + 1 : text.rindex(">")]


def tensor_type(value: ir.Value) -> ir.RankedTensorType | None:
    try:
        t = ir.RankedTensorType(value.type)
    except (ValueError, TypeError):
        return None
    return t if t.has_static_shape else None


def recreate(op: ir.Operation, operands: list[ir.Value], attributes: dict[str, ir.Attribute] | None = None,
             drop: tuple[str, ...] = ()) -> ir.Operation:
    """A copy of single-result ``op`` at the current insertion point with new operands/attributes."""
    attrs = {name: op.attributes[name] for name in op.attributes if name not in drop}
    attrs.update(attributes or {})
    return ir.Operation.create(op.name, results=[op.results[0].type], operands=operands,
                               attributes=attrs, loc=op.location)


def conv_parts(op: ir.Operation) -> tuple[ir.Value, ir.Value, ir.Value | None, ir.Value | None]:
    """``(input, filter, bias, residual)`` of a ``ge.conv2d`` (absent operands are None)."""
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    ops = list(op.operands)
    bias = ops[2] if sizes[2] else None
    residual = ops[2 + sizes[2]] if sizes[3] else None
    return ops[0], ops[1], bias, residual


def recreate_conv(op: ir.Operation, x: ir.Value, w: ir.Value, bias: ir.Value | None, residual: ir.Value | None,
                  attributes: dict[str, ir.Attribute] | None = None) -> ir.Operation:
    """A copy of ``ge.conv2d`` ``op`` with new operands (the segment sizes follow the optional ones)."""
    attrs = dict(attributes or {})
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, 1, int(bias is not None), int(residual is not None)])
    operands = [x, w] + [v for v in (bias, residual) if v is not None]
    return recreate(op, operands, attrs)


def apply_patterns(pass_: Any, patterns: Any, at: ir.Operation) -> None:
    """Greedy driver without folding or constant CSE: a fusion pass does only its rewrites."""
    apply_without_folding(pass_, patterns, at)
