"""What the view shows of a function: its values (:class:`Value`), its nodes (:class:`Node`,
with their attributes as a mapping, :class:`NodeAttrs`) and node lists that skip removed nodes
(:class:`NodeList`). Reading is direct; every edit goes through the graph (``_edits``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from mlir import ir

from ...irutils.locations import node_name, onnx_op_type
from ._errors import _edit_error
from .attributes import _STRUCTURAL, attribute_value, numpy_dtype
from .schema import friendly_name

if TYPE_CHECKING:
    from .graph import GraphView


class Value:
    """A tensor of the graph: a function input or a node output.

    ``shape`` (tuple, None for a dynamic dimension), ``dtype`` (the element type's name: ``"f32"``,
    ``"i64"``, ``"bf16"``), ``numpy_dtype``, ``type`` (the MLIR type), ``producer`` (the node
    computing it, None for an input), ``users`` (nodes reading it), ``is_input``/``is_output``,
    ``name`` (the input's ONNX name, or the producer's name) and ``mlir`` (the ``ir.Value``)."""

    __slots__ = ("_mlir", "_producer", "graph")

    def __init__(self, graph: GraphView, value: ir.Value) -> None:
        self.graph = graph
        self._mlir = value
        # The producing Node, kept so that a value of a removed node is refused without touching
        # MLIR (the op, and the value with it, is freed).
        self._producer = None if isinstance(value, ir.BlockArgument) else graph._node(value.owner)

    @property
    def mlir(self) -> ir.Value:
        """The ``ir.Value`` (GraphEditError once its producer was removed)."""
        if self._producer is not None and self._producer.removed:
            raise _edit_error(f"this value is an output of {self._producer}, which was removed from the graph",
                              node=self._producer)
        return self._mlir

    @property
    def type(self) -> ir.Type:
        return self.mlir.type

    @property
    def shape(self) -> tuple[int | None, ...] | None:
        t = self.mlir.type
        if not isinstance(t, ir.RankedTensorType):
            return None
        return tuple(None if ir.ShapedType.is_dynamic_size(d) else int(d) for d in t.shape)

    @property
    def dtype(self) -> str | None:
        t = self.mlir.type
        return str(t.element_type) if isinstance(t, ir.ShapedType) else None

    @property
    def numpy_dtype(self) -> np.dtype | None:
        t = self.mlir.type
        return numpy_dtype(t.element_type) if isinstance(t, ir.ShapedType) else None

    @property
    def is_input(self) -> bool:
        return self._producer is None

    @property
    def index(self) -> int:
        """The input's position, or the result number in its producer."""
        v = self.mlir
        return int(v.arg_number if self.is_input else v.result_number)

    @property
    def producer(self) -> Node | None:
        return self._producer

    @property
    def users(self) -> list[Node]:
        """Nodes reading this value, in program order (each once; the function's return is not a node)."""
        return self.graph._users([self.mlir])

    @property
    def is_output(self) -> bool:
        return any(use.owner == self.graph._terminator for use in self.mlir.uses)

    @property
    def name(self) -> str | None:
        if self.is_input:
            return self.graph.input_names[self.index]
        prod = self._producer
        if prod.name is None:
            return None
        return prod.name if prod.removed or len(prod._op.results) == 1 else f"{prod.name}:{self.index}"

    def replace_all_uses_with(self, other: Value | Node | ir.Value) -> None:
        """Every use of this value (the function's outputs included) reads ``other`` instead."""
        self.graph._replace_uses([self.mlir], [self.graph._value(other, "the replacement", self._producer)],
                                 self._producer._op if self._producer else None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value):
            return False
        if self._producer is not None and self._producer.removed:
            return other is self
        return other._mlir == self._mlir and not (other._producer is not None and other._producer.removed)

    def __hash__(self) -> int:
        return hash(self._producer) if self._producer is not None else hash(self._mlir)

    def __repr__(self) -> str:
        if self._producer is not None and self._producer.removed:
            return f"<Value (output of removed {self._producer})>"
        what = f"input {self.index}" if self.is_input else f"output {self.index} of {self.producer}"
        name = f" '{self.name}'" if self.name is not None else ""
        return f"<Value{name} {self.type} ({what})>"


class NodeAttrs(MutableMapping):
    """A node's attributes as Python values; setting or deleting one edits the op (verified)."""

    def __init__(self, node: Node) -> None:
        self._node = node

    def _names(self) -> list[str]:
        return [a for a in self._node._live().attributes if a not in _STRUCTURAL]

    def __getitem__(self, key: str) -> Any:
        op = self._node._live()
        if key in _STRUCTURAL or key not in op.attributes:
            raise KeyError(key)
        return attribute_value(op.attributes[key], op)

    def __setitem__(self, key: str, value: Any) -> None:
        self._node._set_attr(key, value)

    def __delitem__(self, key: str) -> None:
        self._node._set_attr(key, None, delete=True)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class Node:
    """One op of the graph. See the module docstring; ``mlir`` is the ``ir.Operation``."""

    def __init__(self, graph: GraphView, op: ir.Operation) -> None:
        self.graph = graph
        self._op: ir.Operation | None = op
        self.ge_op: str = op.name
        self.op: str = friendly_name(op.name)
        self._location = op.location
        self.name: str | None = node_name(op.location)

    # -- reading
    @property
    def removed(self) -> bool:
        return self._op is None

    @property
    def mlir(self) -> ir.Operation:
        return self._live()

    @property
    def location(self) -> ir.Location:
        return self._location

    @property
    def onnx_op(self) -> str | None:
        """The ONNX op type the importer recorded (``fused<"Conv">[...]``), if any."""
        return onnx_op_type(self._location, outermost=True)

    @property
    def attrs(self) -> NodeAttrs:
        return NodeAttrs(self)

    @property
    def inputs(self) -> list[Value]:
        return [Value(self.graph, v) for v in self._live().operands]

    @property
    def outputs(self) -> list[Value]:
        return [Value(self.graph, r) for r in self._live().results]

    @property
    def output(self) -> Value:
        """The only output (GraphEditError for a node with several: use ``outputs``)."""
        results = self._live().results
        if len(results) != 1:
            raise _edit_error(f"{self}: has {len(results)} outputs; use node.outputs[i]",
                              node=self)
        return Value(self.graph, results[0])

    @property
    def users(self) -> list[Node]:
        """Nodes reading any output of this node, in program order."""
        return self.graph._users(list(self._live().results))

    @property
    def is_output(self) -> bool:
        """True when one of its outputs is a graph output."""
        return any(Value(self.graph, r).is_output for r in self._live().results)

    @property
    def unused(self) -> bool:
        """True when nothing reads its outputs (no node, no graph output): it may be removed."""
        return not any(True for r in self._live().results for _ in r.uses)

    # -- editing
    def set_input(self, index: int, value: Value | Node | ir.Value) -> None:
        """Makes input ``index`` read ``value`` (the op is re-verified: e.g. a shape its result
        type does not allow is refused and undone)."""
        self.graph._set_input(self, index, value)

    def replace_all_uses_with(self, other: Node | Value | ir.Value | Sequence[Value | ir.Value]) -> None:
        """Every reader of this node's outputs (graph outputs included) reads ``other`` instead:
        a node (same number of outputs), a value (for a one-output node) or a list of values.
        Uses by ``other``'s own producer are kept (it may read this node)."""
        values = self.graph._replacements(self, other)
        self.graph._replace_uses(list(self._live().results), values, self._op)

    def replace_with(self, other: Node | Value | ir.Value | Sequence[Value | ir.Value]) -> None:
        """``replace_all_uses_with(other)`` then ``remove()``, in one rewrite (``rewriter.replace_op``)."""
        self.graph._replace_node(self, other)

    def remove(self) -> None:
        """Erases the node; refused while any of its outputs is still used."""
        self.graph._remove(self)

    def insert_before(self, op: str, inputs: Sequence[Any] | Mapping[str, Any] = (),
                      attrs: Mapping[str, Any] | None = None, result_types: Sequence[Any] | None = None,
                      name: str | None = None) -> Node:
        """A new node right before this one (see :meth:`GraphView.create`)."""
        return self.graph.insert_before(self, op, inputs, attrs, result_types, name)

    def insert_after(self, op: str, inputs: Sequence[Any] | Mapping[str, Any] = (),
                     attrs: Mapping[str, Any] | None = None, result_types: Sequence[Any] | None = None,
                     name: str | None = None) -> Node:
        """A new node right after this one (see :meth:`GraphView.create`)."""
        return self.graph.insert_after(self, op, inputs, attrs, result_types, name)

    # -- internals
    def _live(self) -> ir.Operation:
        if self._op is None:
            raise _edit_error(f"{self} was removed from the graph", node=self)
        return self._op

    def _set_attr(self, key: str, value: Any, delete: bool = False) -> None:
        self.graph._set_attr(self, key, value, delete)

    def __repr__(self) -> str:
        where = f"'{self.name}'" if self.name is not None else "(unnamed)"
        gone = ", removed" if self._op is None else ""
        return f"<Node {where} {self.op}{gone}>"

    def __str__(self) -> str:
        if self.name is not None:
            return f"node '{self.name}' ({self.op})"
        return f"unnamed {self.op} node at {self._location}"


class NodeList(list):
    """A snapshot of the nodes in program order; iterating skips nodes removed since."""

    def __iter__(self) -> Iterator[Node]:
        return (n for n in list.__iter__(self) if not n.removed)
