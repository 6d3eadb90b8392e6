"""The graph view of one function: reading it and the edits pass authors call (the checks behind
them are in ``_edits``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from mlir import ir
from mlir.rewrite import PatternRewriter

from ...errors import Diagnostic
from ...irutils.functions import io_names, symbol_name
from ._edits import _Edits
from ._errors import _edit_error
from .attributes import numpy_dtype
from .nodes import Node, NodeList, Value
from .schema import _schema

#: numpy dtype name -> the element type of constants made from such arrays.
_ELEMENT_OF = {"float16": "f16", "float32": "f32", "float64": "f64", "bool": "i1", "int8": "i8", "int16": "i16",
               "int32": "i32", "int64": "i64", "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64"}


class GraphView(_Edits):
    """The graph view of one function (``func.func`` with one block) of a ge module.

    ``rewriter`` (inside a graph pass: the ``PatternRewriter`` of the pattern running it) erases
    and replaces ops; ``pattern`` names the edits under ge-bisect's rewrite budget."""

    def __init__(self, func: ir.Operation | ir.OpView, *, rewriter: PatternRewriter | None = None,
                 pattern: str = "graph-view") -> None:
        func = func.operation if isinstance(func, ir.OpView) else func
        if func.name != "func.func" or not func.regions or not len(func.regions[0].blocks):
            raise _edit_error(f"the graph view reads functions with a body, not {func.name} at {func.location}")
        blocks = func.regions[0].blocks
        self.func = func
        self.name = symbol_name(func)
        if len(blocks) != 1:
            raise _edit_error(f"function @{self.name} has {len(blocks)} blocks; "
                              "the graph view reads single-block (graph) functions")
        self.block = blocks[0]
        self.context = func.context
        self.rewriter = rewriter
        self.pattern = pattern
        ops = list(self.block.operations)
        self._terminator = ops[-1].operation if ops else None
        self._nodes: dict[ir.Operation, Node] = {}
        self.input_names, self.output_names = io_names(func)
        #: Edits by kind (rewrites, nodes-created, nodes-removed, uses-replaced, inputs-set, attrs-set).
        self.counts: dict[str, int] = {}
        self._created: list[Node] = []
        self._skipped = False  # an edit was skipped because ge-bisect's rewrite budget is spent

    # -- reading
    @property
    def nodes(self) -> NodeList:
        """The nodes in program order (a snapshot; iterating it skips nodes removed meanwhile)."""
        return NodeList(self._node(op.operation) for op in self.block.operations
                        if op.operation != self._terminator)

    @property
    def inputs(self) -> list[Value]:
        return [Value(self, a) for a in self.block.arguments]

    @property
    def outputs(self) -> list[Value]:
        return [Value(self, v) for v in self._terminator.operands] if self._terminator is not None else []

    @property
    def changed(self) -> bool:
        return bool(self.counts)

    def node(self, name: str) -> Node:
        """The node named ``name`` (its ONNX name); LookupError when there is none or several."""
        found = [n for n in self.nodes if n.name == name]
        if len(found) == 1:
            return found[0]
        if found:
            raise LookupError(f"@{self.name} has {len(found)} nodes named {name!r}")
        import difflib

        close = difflib.get_close_matches(name, [n.name for n in self.nodes if n.name], n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise LookupError(f"@{self.name} has no node named {name!r}{hint}")

    def find(self, op: str) -> list[Node]:
        """The nodes of one op (``"Reshape"``, ``"reshape"`` or ``"ge.reshape"``), in order."""
        ge_op = op if "." in op and not op.startswith("ge.") else _schema(op, "find").ge_op
        return [n for n in self.nodes if n.ge_op == ge_op]

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __repr__(self) -> str:
        return f"<GraphView @{self.name}: {len(self)} nodes, {len(self.inputs)} inputs, {len(self.outputs)} outputs>"

    def __str__(self) -> str:
        return str(self.func)

    def eliminate_dead_code(self) -> int:
        """Removes the ge nodes nothing reads (all ge ops are free of side effects), users before
        producers; returns how many."""
        removed = 0
        changed = True
        while changed:
            changed = False
            for node in reversed(self.nodes):
                if node.ge_op.startswith("ge.") and not node.removed and node.unused:
                    self._remove(node)
                    removed += 1
                    changed = True
        return removed

    def verify(self) -> None:
        """Runs MLIR's verifier on the function; GraphEditError with its diagnostics when it fails."""
        try:
            self.func.verify()
        except ir.MLIRError as e:
            diags = [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
            raise _edit_error(f"function @{self.name} does not verify after the graph edits",
                              diagnostics=diags) from None

    # -- creating
    def create(self, op: str, inputs: Sequence[Any] | Mapping[str, Any] = (), attrs: Mapping[str, Any] | None = None,
               result_types: Sequence[Any] | None = None, name: str | None = None) -> Node:
        """A new node of ge op ``op`` (``"Transpose"``, ``"transpose"`` or ``"ge.transpose"``).

        ``inputs``: values/nodes in operand order (``None`` for an absent optional operand; a
        variadic operand such as Concat's takes the whole list), or a dict by operand name.
        ``attrs``: Python values (or ``ir.Attribute``s) by attribute name; required ones must be
        there. ``result_types``: only for ops that cannot infer theirs (Reshape, Cast, OneHot,
        Range, Resize): types or ``(shape, dtype)`` pairs such as ``((2, 3), "f32")``. ``name``:
        the node name (location ``fused<"Op">["name"]``; default derived from its first input).
        The node is placed right after the last node it reads (first if it reads only inputs)."""
        anchor, after = self._default_position(inputs)
        return self._create(op, inputs, attrs, result_types, name, anchor, after)

    def insert_before(self, node: Node, op: str, inputs: Sequence[Any] | Mapping[str, Any] = (),
                      attrs: Mapping[str, Any] | None = None, result_types: Sequence[Any] | None = None,
                      name: str | None = None) -> Node:
        """A new node right before ``node`` (arguments as for :meth:`create`)."""
        self._own(node, "insert_before")
        return self._create(op, inputs, attrs, result_types, name, node._live(), False)

    def insert_after(self, node: Node, op: str, inputs: Sequence[Any] | Mapping[str, Any] = (),
                     attrs: Mapping[str, Any] | None = None, result_types: Sequence[Any] | None = None,
                     name: str | None = None) -> Node:
        """A new node right after ``node`` (arguments as for :meth:`create`)."""
        self._own(node, "insert_after")
        return self._create(op, inputs, attrs, result_types, name, node._live(), True)

    def constant(self, value: Any, dtype: str | None = None, name: str | None = None) -> Node:
        """A new ``Constant`` node holding ``value`` (array-like; ``dtype`` such as ``"f32"``,
        default the array's own), placed first in the graph."""
        try:
            arr = np.asarray(value)
            if dtype is not None:
                np_dtype = numpy_dtype(dtype)
                if np_dtype is None:
                    raise _edit_error(f"cannot create a constant of dtype {dtype!r} in @{self.name}")
                arr = arr.astype(np_dtype)
        except (TypeError, ValueError, OverflowError) as e:
            raise _edit_error(f"cannot create a constant in @{self.name} from {value!r}: {e}") from None
        if arr.dtype.kind not in "biuf":
            raise _edit_error(f"cannot create a constant from a {arr.dtype} array in @{self.name}")
        if arr.dtype == np.float64 and dtype is None and not isinstance(value, np.ndarray):
            arr = arr.astype(np.float32)  # Python floats: f32, the ge default
        elem = _ELEMENT_OF.get(arr.dtype.name)
        if elem is None:
            raise _edit_error(f"cannot create a constant from a {arr.dtype} array in @{self.name}")
        with self.context, ir.Location.unknown():
            ttype = ir.RankedTensorType.get(list(arr.shape), ir.Type.parse(elem))
            attr = ir.DenseElementsAttr.get(np.ascontiguousarray(arr), type=ttype)
        ops = list(self.block.operations)
        first = ops[0].operation if ops else None
        return self._create("ge.constant", [], {"value": attr}, None, name or self._fresh_name("const", "Constant"),
                            first, False)


def graphs(module: ir.Module | ir.Operation) -> list[GraphView]:
    """Views of the module's functions with a body (edits apply directly, without a rewriter)."""
    op = module.operation if isinstance(module, (ir.Module, ir.OpView)) else module
    return [GraphView(f.operation) for f in op.regions[0].blocks[0].operations
            if f.operation.name == "func.func" and len(f.operation.regions[0].blocks)]
