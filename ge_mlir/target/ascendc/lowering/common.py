"""Shared state and helpers of ge-lower-to-ascendc, and its op -> lowering registry.

A lowering is a function ``fn(low, op) -> None``: it builds the kernels of one ge op with the
templates of :mod:`..kernels` and records their launches on ``low`` (:meth:`Lowering.launch`)
against the global memory of the op's operands and results (:class:`Buffer`). It raises
:class:`Unsupported` to refuse the op; the pass then fails naming it (no approximate lowering).

Families register with :func:`lowering`; :mod:`.driver` imports every family module, so the
registry is complete once the driver is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from mlir import ir

from ....errors import Unsupported
from ...lowering_registry import LoweringRegistry
from ....irutils.constants import constant_array, constant_op, read_resource_array
from ....irutils.types import NUMPY_DTYPES
from ..kernel_builder import KernelBuilder, elem_bytes

LoweringFn = Callable[["Lowering", ir.Operation], None]

_REGISTRY: LoweringRegistry[LoweringFn] = LoweringRegistry()
#: ``@lowering("relu", ...)``: registers the decorated function for those ge ops (without ``ge.``).
lowering = _REGISTRY.lowering
registered_lowerings = _REGISTRY.registered


#: Element types the vector and cube kernels compute in.
ELEMS = {name: NUMPY_DTYPES[name] for name in ("f32", "f16")}


def shape_of(v: ir.Value) -> list[int]:
    t = ir.RankedTensorType(v.type)
    if not t.has_static_shape:
        raise Unsupported("dynamic shapes are not supported by the ascendc target")
    return list(t.shape)


def elem_of(v: ir.Value) -> str:
    return str(ir.RankedTensorType(v.type).element_type)


def numel(shape: list[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def scalar_constant(v: ir.Value) -> float | None:
    arr = constant_array(v) if constant_op(v) is not None else None
    if arr is None or arr.size == 0:
        return None
    flat = arr.reshape(-1)
    return float(flat[0]) if np.all(flat == flat[0]) else None


def constant_data(v: ir.Value | None) -> np.ndarray | None:
    """The value of a constant operand as numpy (None if not a constant), any size: a
    ``dense_resource`` too large for :func:`constant_array` (a tied 50257 x 256 embedding) is read
    from its blob."""
    op = constant_op(v) if v is not None else None
    if op is None:
        return None
    arr = constant_array(v)
    if arr is None:
        arr = read_resource_array(op.attributes["value"])
    return None if arr is None else arr.reshape(shape_of(v))


def _constant_value(op: ir.Operation, v: ir.Value) -> object:
    """The attribute of a constant, or its data as numpy when it is a ``dense_resource`` of a type the
    emitter cannot read back (integer tables, position ids)."""
    attr = op.attributes["value"]
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return attr
    if elem_of(v) in ("f32", "f64"):
        return attr
    arr = read_resource_array(attr)
    if arr is None:
        raise Unsupported(f"the data of a {elem_of(v)} constant cannot be read")
    return arr


@dataclass
class Buffer:
    """Global memory holding a tensor: a host argument, an allocation or a constant."""

    elem: str
    numel: int
    kind: str                      # "arg", "temp", "const"
    index: int = -1                # argument index for "arg"
    value: object = None           # ir.Attribute or np.ndarray for "const"
    ssa: ir.Value | None = None    # host value once materialized


@dataclass
class Launch:
    kernel: str
    args: list[Buffer]


@dataclass
class Lowering:
    """State of lowering one function."""

    fn: ir.Operation
    #: The ascendc.kernel ops, detached until the whole function has lowered.
    kernels: list[ir.Operation] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    buffers: dict[ir.Value, Buffer] = field(default_factory=dict)
    counter: dict[str, int] = field(default_factory=dict)
    #: The graph's outputs (host arguments after the inputs).
    outputs: list[Buffer] = field(default_factory=list)
    #: Device memory of the SoC: no tensor may be larger.
    gm_bytes: int = 64 << 30

    def name(self, family: str) -> str:
        n = self.counter.get(family, 0)
        self.counter[family] = n + 1
        return f"{family}_{n}"

    # -- buffers ---------------------------------------------------------------

    def buffer(self, v: ir.Value) -> Buffer:
        """The global memory of ``v`` (constants get one on first use)."""
        if v in self.buffers:
            return self.buffers[v]
        op = constant_op(v)
        if op is None:
            raise AssertionError(f"no buffer for {v}")
        buf = Buffer(elem_of(v), numel(shape_of(v)), "const", value=_constant_value(op, v))
        self.buffers[v] = buf
        return buf

    def const_buffer(self, array: np.ndarray, elem: str) -> Buffer:
        return Buffer(elem, int(array.size), "const", value=np.ascontiguousarray(array.astype(ELEMS[elem])))

    def temp(self, elem: str, numel: int) -> Buffer:
        return Buffer(elem, numel, "temp")

    def result_buffer(self, v: ir.Value) -> Buffer:
        """Where the producer of ``v`` writes (an output argument when ``v`` is returned)."""
        if v in self.buffers:
            return self.buffers[v]
        buf = self.temp(elem_of(v), numel(shape_of(v)))
        self.buffers[v] = buf
        return buf

    def launch(self, kb: KernelBuilder, args: list[Buffer]) -> None:
        for b in args:
            nbytes = b.numel * elem_bytes(b.elem)
            if nbytes > self.gm_bytes:
                raise Unsupported(f"a {b.kind} tensor of {nbytes} bytes is larger than the device memory "
                                  f"({self.gm_bytes} bytes)")
        # GM traffic for the cost model: each argument read or written once (a lower bound).
        kb.account(gm_bytes=sum(b.numel * elem_bytes(b.elem) for b in args))
        self.kernels.append(kb.finish())
        self.launches.append(Launch(kb.name, args))


def uses_of(v: ir.Value) -> list[ir.Operation]:
    """The ops using ``v`` (once per use)."""
    out = []
    for use in v.uses:
        owner = use.owner
        out.append(owner.operation if isinstance(owner, ir.OpView) else owner)
    return out
