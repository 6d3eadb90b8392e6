"""The converter table of the FX importer and the context a converter works with.

A converter takes an :class:`FxContext` (the node being converted, its arguments as ge values)
and returns the ge value(s) of the node's result. Converters are registered per ATen overload
(``aten.add.Tensor``) or per overload packet (``aten.add``: every overload).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlir import ir

from ...dialects import ge

__all__ = ["Refusal", "FxContext", "converter", "lookup", "mlir_type", "registered"]

_TABLE: dict[Any, Callable[["FxContext"], Any]] = {}


class Refusal(Exception):
    """This node cannot be converted (the message says why); the importer names the node."""


def converter(*targets: Any) -> Callable[[Callable[["FxContext"], Any]], Callable[["FxContext"], Any]]:
    """Registers a converter for ATen overloads or overload packets."""

    def wrap(fn: Callable[["FxContext"], Any]) -> Callable[["FxContext"], Any]:
        for t in targets:
            _TABLE[t] = fn
        return fn

    return wrap


def lookup(target: Any) -> Callable[["FxContext"], Any] | None:
    fn = _TABLE.get(target)
    if fn is None and hasattr(target, "overloadpacket"):
        fn = _TABLE.get(target.overloadpacket)
    return fn


def registered() -> list[str]:
    """Names of every converted ATen overload or packet (for docs and tests)."""
    return sorted(str(t) for t in _TABLE)


def _torch():
    import torch

    return torch


def mlir_type(dtype: Any) -> ir.Type:
    """The MLIR element type of a torch dtype."""
    torch = _torch()
    table = {
        torch.float32: ir.F32Type.get, torch.float64: ir.F64Type.get, torch.float16: ir.F16Type.get,
        torch.bfloat16: ir.BF16Type.get, torch.bool: lambda: ir.IntegerType.get_signless(1),
        torch.int64: lambda: ir.IntegerType.get_signless(64), torch.int32: lambda: ir.IntegerType.get_signless(32),
        torch.int16: lambda: ir.IntegerType.get_signless(16), torch.int8: lambda: ir.IntegerType.get_signless(8),
        torch.uint8: lambda: ir.IntegerType.get_unsigned(8),
    }
    if dtype not in table:
        raise Refusal(f"dtype {dtype} has no ge element type")
    return table[dtype]()


def tensor_type(shape: Sequence[int], dtype: Any) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([int(d) for d in shape], mlir_type(dtype))


class FxContext:
    """What a converter sees: the node, its FX arguments and the values built so far."""

    def __init__(self, importer: Any, node: Any) -> None:
        self.importer = importer
        self.node = node
        self.args = node.args
        self.kwargs = node.kwargs

    # --- arguments ------------------------------------------------------
    def arg(self, i: int, name: str | None = None, default: Any = None) -> Any:
        """Positional argument ``i`` (or keyword ``name``), as FX gives it."""
        if i < len(self.args):
            return self.args[i]
        if name is not None and name in self.kwargs:
            return self.kwargs[name]
        return default

    def is_node(self, x: Any) -> bool:
        return hasattr(x, "op") and hasattr(x, "meta")

    def value(self, x: Any, like: Any = None) -> ir.Value:
        """``x`` as a ge value: an FX node's value, or a Python number/tensor as a constant of the
        dtype of ``like`` (a torch dtype, or a node whose dtype is taken)."""
        if self.is_node(x):
            return self.importer.value_of(x)
        dtype = like
        if self.is_node(like):
            dtype = self.val(like).dtype
        torch = _torch()
        if isinstance(x, torch.Tensor):
            return self.importer.constant(x.detach(), None)
        if dtype is None:
            dtype = torch.float32 if isinstance(x, float) else torch.bool if isinstance(x, bool) else torch.int64
        return self.importer.constant(torch.tensor(x, dtype=dtype), None)

    def val(self, x: Any = None) -> Any:
        """The fake tensor (``meta['val']``) of a node; default: this node's result."""
        x = self.node if x is None else x
        v = x.meta.get("val") if self.is_node(x) else x
        if v is None:
            raise Refusal(f"node {getattr(x, 'name', x)!r} has no example value (meta['val'])")
        return v

    def shape(self, x: Any = None) -> list[int]:
        v = self.val(x)
        if isinstance(v, (tuple, list)):
            raise Refusal("a tuple-valued node has no single shape")
        dims = []
        for d in v.shape:
            if not isinstance(d, int):
                raise Refusal(f"symbolic size {d} (dynamic shapes are not converted yet)")
            dims.append(int(d))
        return dims

    def dtype(self, x: Any = None) -> Any:
        return self.val(x).dtype

    # --- building ----------------------------------------------------------
    def cast(self, v: ir.Value, dtype: Any) -> ir.Value:
        elem = mlir_type(dtype) if not isinstance(dtype, ir.Type) else dtype
        if v.type.element_type == elem:
            return v
        return ge.cast(ir.RankedTensorType.get(v.type.shape, elem), v)

    def reshape(self, v: ir.Value, shape: Sequence[int]) -> ir.Value:
        shape = [int(d) for d in shape]
        if list(v.type.shape) == shape:
            return v
        return ge.reshape(ir.RankedTensorType.get(shape, v.type.element_type), v)

    def constant(self, array: Any, dtype: Any = None) -> ir.Value:
        torch = _torch()
        t = torch.as_tensor(array) if dtype is None else torch.as_tensor(array, dtype=dtype)
        return self.importer.constant(t, None)

    def refuse(self, reason: str) -> None:
        raise Refusal(reason)
