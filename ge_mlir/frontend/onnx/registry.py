"""Converter registry of the ONNX importer and the per-node conversion context.

A converter is a function ``fn(ctx: NodeContext) -> value | sequence of values``
registered for one or more ONNX op types and an opset range::

    @converter("Relu")
    def relu(ctx):
        return ge.relu(ctx.input(0))

The importer sets the insertion point and the node's location before calling
it, so converters just build ge ops. A converter that cannot handle a
particular node (a training-mode BatchNormalization, a dynamic shape input)
calls ``ctx.refuse(reason)``; the importer collects every refusal and
unsupported op type and reports them together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from mlir import ir

from ...errors import OnnxImportError
from ...irutils.types import NUMPY_DTYPES, element_bytes

Converter = Callable[["NodeContext"], Any]


@dataclass
class OpSupport:
    op_type: str
    converter: Converter
    since: int = 1
    until: int | None = None  # inclusive; None: up to the newest opset
    domain: str = ""
    notes: str = ""
    # A converter that only explains why the op cannot be imported (listed as
    # not supported in docs/onnx_ops.md, but with a precise reason).
    refused: bool = False

    def covers(self, opset: int) -> bool:
        return opset >= self.since and (self.until is None or opset <= self.until)


_REGISTRY: dict[tuple[str, str], list[OpSupport]] = {}


def converter(
    *op_types: str, since: int = 1, until: int | None = None, domain: str = "", notes: str = "", refused: bool = False
):
    """Registers a converter for ``op_types`` in opsets [since, until]."""

    def register(fn: Converter) -> Converter:
        for op in op_types:
            _REGISTRY.setdefault((domain, op), []).append(OpSupport(op, fn, since, until, domain, notes, refused))
        return fn

    return register


def lookup(domain: str, op_type: str, opset: int) -> OpSupport | None:
    domain = "" if domain in ("", "ai.onnx") else domain
    for sup in _REGISTRY.get((domain, op_type), []):
        if sup.covers(opset):
            return sup
    return None


def supported_ops() -> dict[tuple[str, str], list[OpSupport]]:
    return dict(_REGISTRY)


class Refusal(OnnxImportError):
    """Raised by ``ctx.refuse``: this node cannot be imported, for a stated reason."""


class Invalid(Refusal):
    """Raised by ``ctx.invalid``: this node is not valid ONNX (onnxruntime
    refuses it too: an attribute outside its domain, a constant index out of
    range, shapes that do not fit). Reported as InvalidModelError, apart from
    the refusals (valid ONNX that ge-mlir does not import)."""


#: Largest byte size of a tensor type the importer builds: size computations
#: downstream are int64.
MAX_TENSOR_BYTES = (1 << 63) - 1


def tensor_nbytes(dims, itemsize: int) -> int:
    """Byte size of a tensor, dynamic (negative) dims left out (Python ints: never overflows)."""
    n = itemsize
    for d in dims:
        if int(d) >= 0:
            n *= int(d)
    return n


def check_tensor_type(t: ir.Type, what: str = "a tensor") -> ir.Type:
    """``t`` itself; raises Invalid when its static byte size overflows int64."""
    if not isinstance(t, ir.RankedTensorType):
        return t
    size = tensor_nbytes((-1 if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)),
                         element_bytes(t.element_type) or 8)
    if size > MAX_TENSOR_BYTES:
        raise Invalid(f"{what} has type {t}: {size} bytes, more than int64 can address (size overflow)")
    return t


def tensor_type(dims, elem: ir.Type, what: str = "a tensor") -> ir.RankedTensorType:
    """``tensor<dims x elem>`` (negative dims are dynamic), size-checked: the one
    way the importer and the converters build ranked tensor types."""
    dyn = ir.ShapedType.get_dynamic_size()
    size = tensor_nbytes(dims, element_bytes(elem) or 8)
    dims = [dyn if int(d) < 0 else int(d) for d in dims]
    if size > MAX_TENSOR_BYTES:
        shown = "x".join("?" if d == dyn else str(d) for d in dims)
        raise Invalid(f"{what} of shape {shown} x {elem} has {size} bytes, more than int64 can address "
                      "(size overflow)")
    return ir.RankedTensorType.get(dims, elem)


# ONNX TensorProto data types -> MLIR element types (signed ints are signless).
_ELEM = {
    1: "f32", 2: "ui8", 3: "i8", 4: "ui16", 5: "i16", 6: "i32", 7: "i64", 9: "i1",
    10: "f16", 11: "f64", 12: "ui32", 13: "ui64", 16: "bf16",
    # float8, int4/uint4, float4, float8 e8m0, int2/uint2: stored as such, computed in f32/i32.
    17: "f8E4M3FN", 18: "f8E4M3FNUZ", 19: "f8E5M2", 20: "f8E5M2FNUZ", 21: "ui4", 22: "i4",
    23: "f4E2M1FN", 24: "f8E8M0FNU", 25: "ui2", 26: "i2",
}
def element_type(onnx_dtype: int) -> ir.Type:
    try:
        return ir.Type.parse(_ELEM[onnx_dtype])
    except KeyError:
        import onnx

        name = onnx.TensorProto.DataType.Name(onnx_dtype) if onnx_dtype in onnx.TensorProto.DataType.values() else onnx_dtype
        raise Refusal(f"unsupported element type {name}") from None


def numpy_dtype(elem: ir.Type) -> Any:
    """The numpy dtype of an element type the importer builds (KeyError for any other)."""
    return NUMPY_DTYPES[str(elem)]


def mlir_element_of(array: np.ndarray) -> ir.Type:
    for name, dt in NUMPY_DTYPES.items():
        # Signless integers first: ONNX's signed ints are signless in ge.
        if not name.startswith("si") and array.dtype == np.dtype(dt):
            return ir.Type.parse(name)
    raise Refusal(f"unsupported constant dtype {array.dtype}")


@dataclass
class NodeContext:
    """What a converter sees of one ONNX node."""

    node: Any  # onnx.NodeProto
    opset: int
    importer: Any  # the Importer (value lookup, constants)
    out_types: list[ir.Type | None] = field(default_factory=list)
    name: str = ""  # the node's name, or "<OpType>_<index>" for unnamed nodes

    @property
    def op_type(self) -> str:
        return self.node.op_type

    @property
    def num_inputs(self) -> int:
        n = len(self.node.input)
        while n and not self.node.input[n - 1]:
            n -= 1
        return n

    @property
    def num_outputs(self) -> int:
        return len(self.node.output)

    def has_input(self, i: int) -> bool:
        return i < len(self.node.input) and bool(self.node.input[i])

    def input(self, i: int) -> ir.Value | None:
        """The SSA value of input ``i`` (materializing constants), None if absent."""
        if not self.has_input(i):
            return None
        return self.importer.value(self.node.input[i])

    def inputs(self) -> list[ir.Value | None]:
        return [self.input(i) for i in range(len(self.node.input))]

    def const(self, i: int) -> np.ndarray | None:
        """Input ``i``'s value when it is known at import time (initializer, Constant, folded)."""
        if not self.has_input(i):
            return None
        return self.importer.constant_value(self.node.input[i])

    def require_const(self, i: int, what: str) -> np.ndarray:
        value = self.const(i)
        if value is None:
            name = self.node.input[i] if self.has_input(i) else ""
            if self.importer.is_graph_input(name):
                self.importer.needs_constant.add(name)
                self.refuse(
                    f"input #{i} ({what}) comes from graph input {name!r}; it must be a constant "
                    "(an initializer) to be imported"
                )
            self.refuse(
                f"input #{i} ({what}) must be known at import time; it is computed at run time "
                "(fix dynamic input dimensions with input_shapes=... / --input-shape)"
            )
        return value

    def output_used(self, i: int) -> bool:
        """Whether output ``i`` exists and is consumed (by a node or as a graph output)."""
        if i >= len(self.node.output) or not self.node.output[i]:
            return False
        return self.node.output[i] in self.importer.used_names

    def attr(self, name: str, default: Any = None) -> Any:
        import onnx

        for a in self.node.attribute:
            if a.name == name:
                value = onnx.helper.get_attribute_value(a)
                if isinstance(value, bytes):
                    return value.decode()
                if isinstance(value, onnx.TensorProto):
                    return onnx.numpy_helper.to_array(value)
                if isinstance(value, list) and value and isinstance(value[0], bytes):
                    return [v.decode() for v in value]
                return value
        return default

    def input_type(self, i: int) -> ir.RankedTensorType:
        """Input ``i``'s type (constants are not materialized for this)."""
        if not self.has_input(i):
            self.refuse(f"input #{i} is missing")
        t = self.importer.value_type(self.node.input[i])
        if not isinstance(t, ir.RankedTensorType):
            self.refuse(f"input #{i} must be a ranked tensor")
        return t

    def rank(self, i: int) -> int:
        return self.input_type(i).rank

    def shape(self, i: int) -> list[int]:
        t = self.input_type(i)
        return [t.get_dim_size(d) if not t.is_dynamic_dim(d) else -1 for d in range(t.rank)]

    def elem(self, i: int) -> ir.Type:
        return self.input_type(i).element_type

    def out_type(self, i: int = 0) -> ir.RankedTensorType | None:
        """The result type ONNX shape inference found (may have dynamic dims)."""
        return self.out_types[i] if i < len(self.out_types) else None

    def require_out_type(self, i: int = 0, static: bool = False) -> ir.RankedTensorType:
        t = self.out_type(i)
        if t is None or (static and not t.has_static_shape):
            self.refuse(
                f"output #{i} needs a {'static ' if static else ''}shape from ONNX shape inference"
                + ("; fix dynamic input dimensions with input_shapes=... / --input-shape" if static else "")
            )
        return t

    def constant(self, array: Any, elem: ir.Type | None = None, name: str | None = None) -> ir.Value:
        """A ge.constant holding ``array`` (cast to ``elem`` when given; ``name``
        names the resource blob when it becomes one)."""
        return self.importer.make_constant(np.asarray(array), elem, resource_name=name)

    def scalar_like(self, value: float, i: int = 0) -> ir.Value:
        """A rank-0 constant with input ``i``'s element type."""
        elem = self.elem(i)
        return self.constant(np.array(value, dtype=numpy_dtype(elem)), elem)

    def refuse(self, reason: str) -> None:
        """This valid node cannot be imported (UnsupportedOpsError)."""
        raise Refusal(reason)

    def invalid(self, reason: str) -> None:
        """This node is not valid ONNX (InvalidModelError)."""
        raise Invalid(reason)


def as_list(x: Any) -> list:
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def values_of(result: Any) -> Sequence[ir.Value | None]:
    """Normalizes a converter's return value to a list of values."""
    if isinstance(result, ir.OpView):
        return list(result.results)
    if isinstance(result, ir.Operation):
        return list(result.results)
    if isinstance(result, (list, tuple)):
        out = []
        for r in result:
            out.append(r.result if isinstance(r, ir.OpView) else r)
        return out
    return [result]
