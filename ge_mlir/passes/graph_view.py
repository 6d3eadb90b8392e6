"""A graph view of ge functions for pass authors who do not know MLIR (in the spirit of torch.fx).

A :class:`Graph` is one function of the module: its :attr:`~Graph.nodes` in program order, its
:attr:`~Graph.inputs` and :attr:`~Graph.outputs`. A :class:`Node` is one op: ``op`` (a friendly
name, ``"Reshape"``; ``ge_op`` is ``"ge.reshape"``), ``name`` (the ONNX node name from the
location), ``attrs`` (Python values), ``inputs``/``outputs`` (:class:`Value`: ``shape``,
``dtype``, ``producer``, ``users``) and ``users``. A graph pass is a function of the graph
registered like any other pass::

    from ge_mlir.passes import graph_pass

    @graph_pass(name="ge-drop-double-reshape", stage="after-import", priority=50,
                summary="reshape(reshape(x, s), s) -> reshape(x, s)")
    def drop_double_reshape(graph):
        for node in graph.nodes:
            first = node.inputs[0].producer if node.op == "Reshape" else None
            if first is not None and first.op == "Reshape" and first.output.shape == node.output.shape:
                node.set_input(0, first.inputs[0])  # the second reshape reads x itself
                if first.unused:                    # nothing else reads the first one
                    first.remove()
        return graph

How edits reach MLIR. A graph pass is a module pass (like every ge pass) that runs the function
once per ``func.func`` from a pattern rooted at ``func.func`` applied by MLIR's walk pattern
driver, so the graph edits the IR under that pattern's ``PatternRewriter``: ``remove`` is
``rewriter.erase_op``, ``replace_with`` is ``rewriter.replace_op``, new ops are built by the
generated ge op builders (attributes converted by their attribute builders, result types
inferred by the op's C++ type inference) at an insertion point before or after a node, and
``replace_all_uses_with``/``set_input`` rewire uses (``Value.replace_all_uses_except``, operand
assignment). Outside a pass (``Graph(func_op)``, :func:`graphs`) the same edits apply directly.

What is checked, and when. MLIR does not check most misuse and some of it ends the process
(erasing an op whose results are still used fails an assertion; building an op without a
required attribute crashes in its type inference; a value of another context is a dangling
pointer; a detached op left holding uses asserts at exit). So every edit is checked in
Python *before* MLIR is called, and refused with :class:`~ge_mlir.errors.GraphEditError` (naming
the node, its op and the reason) when it would leave invalid IR:

* operands: values of this graph (not of another function or module, not of a removed node),
  defined before the point where they are used (dominance), ranked tensors; the op's operand
  count (optional and variadic operands included) and required attributes; attribute values of
  the Python type the attribute needs;
* ``remove``: no result may still be used (the users are named);
* ``replace_all_uses_with``: same number of values, same types, and a replacement defined
  before every use it takes over (uses by the replacement's own producer are kept, so
  ``node.replace_all_uses_with(graph.insert_after(node, "Relu", [node.output]))`` works);
* then MLIR's own verifier runs on the changed or new op (``set_input``, ``attrs[...] = ...``,
  ``create``); if it fails the edit is undone and refused with MLIR's diagnostics;
* at the end of a graph pass the function is verified as a whole (refused with diagnostics).

Rewrites and ge-bisect. The edits that change what the graph computes (``replace_all_uses_with``,
``replace_with``, ``set_input``, attribute writes) are the pass's rewrites: counted in
``stats["rewrites"]`` (``nodes-created`` and ``nodes-removed`` are detail counters) and recorded
under ge-bisect's rewrite budget (:func:`ge_mlir.irutils.patterns.rewrite_budget`) with the node they
change and the graph function's name as the pattern. Once the budget is spent those edits are
skipped, as is the removal of a node they would have freed, and nodes created by the pass that
end up unused are erased, so a budget-limited run is the same pass stopped after ``n`` rewrites.
"""

from __future__ import annotations

import inspect
import re
import traceback
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any, ClassVar

import numpy as np
from mlir import ir
from mlir.rewrite import PatternRewriter, RewritePatternSet, walk_and_apply_patterns

from ..errors import Diagnostic, GraphEditError, PassFailure, node_name
from ..irutils.functions import io_names, symbol_name
from ..irutils.patterns import active_budget, op_identity
from .registry import Option, Pass, register_pass

__all__ = [
    "Graph", "GraphPass", "Node", "NodeList", "Value", "attribute_value", "friendly_name", "graph_pass", "graphs",
]


# ge_mlir.irutils.constants and ge_mlir.irutils.types are imported where used: ir.types loads ml_dtypes
# (over a second), and user pass modules import this module at start-up.
def numpy_dtype(elem: Any) -> np.dtype | None:
    from ..irutils.types import numpy_dtype as numpy_dtype_of

    return numpy_dtype_of(elem)


#: Attributes that encode an op's structure, not its meaning (not shown in ``attrs``, not settable).
_STRUCTURAL = frozenset({"operandSegmentSizes", "resultSegmentSizes"})
#: Friendly names that are not the CamelCase of the mnemonic (ONNX/GE spellings).
_SPECIAL_NAMES = {"matmul": "MatMul", "argmax": "ArgMax", "argmin": "ArgMin"}
_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1
_ENUM_TEXT = re.compile(r"#ge\.\w+<(\w+)>")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: numpy dtype name -> the element type of constants made from such arrays.
_ELEMENT_OF = {"float16": "f16", "float32": "f32", "float64": "f64", "bool": "i1", "int8": "i8", "int16": "i16",
               "int32": "i32", "int64": "i64", "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64"}
_FUSED_META = re.compile(r'loc\(fused<"((?:[^"\\]|\\.)*)">')


def friendly_name(op_name: str) -> str:
    """``ge.reshape`` -> ``Reshape``, ``ge.batch_norm`` -> ``BatchNorm``, ``ge.conv2d`` -> ``Conv2D``,
    ``ge.matmul`` -> ``MatMul``; ops of other dialects keep their full name."""
    dialect, _, mnemonic = op_name.partition(".")
    if dialect != "ge" or not mnemonic:
        return op_name
    if mnemonic in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[mnemonic]
    camel = "".join(p[:1].upper() + p[1:] for p in mnemonic.split("_"))
    return re.sub(r"(\d)d$", r"\1D", camel)


# --- ge op schemas, read from the generated op builders ----------------------------------------


@dataclass(frozen=True)
class _Schema:
    """How the generated builder of one ge op takes its operands, attributes and result types."""

    ge_op: str
    cls: type
    #: (parameter, kind): kind is "one", "optional" or "variadic", in operand order.
    operands: tuple[tuple[str, str], ...]
    #: attribute name -> (attribute builder kind such as "I64Attr", required)
    attrs: dict[str, tuple[str, bool]]
    #: the parameter taking the result type, for ops without type inference (reshape, cast, ...)
    result_param: str | None


_ATTR_LINE = re.compile(
    r'attributes\["(\w+)"\] = \((\w+) if \(\s*isinstance\(\2, _ods_ir\.Attribute\) or\s*'
    r"not _ods_ir\.AttrBuilder\.contains\('(\w+)'\)", re.S)
_OPERAND_LINE = re.compile(r"operands\.append\((\w+)\)|operands\.extend\(_get_op_results_or_values\((\w+)\)\)")
_SCHEMAS: dict[str, _Schema] = {}
_BY_NAME: dict[str, str] = {}


def _schemas() -> dict[str, _Schema]:
    """Every ge op's schema (parsed once from ``ge_mlir.dialects.ge``)."""
    if _SCHEMAS:
        return _SCHEMAS
    from ..dialects import ge as ge_dialect

    for cls in vars(ge_dialect).values():
        name = getattr(cls, "OPERATION_NAME", None)
        if not isinstance(cls, type) or not isinstance(name, str) or not name.startswith("ge."):
            continue
        src = inspect.getsource(cls.__init__)
        params = inspect.signature(cls.__init__).parameters
        operands = []
        for m in _OPERAND_LINE.finditer(src):
            if m.group(2):
                operands.append((m.group(2), "variadic"))
            else:
                p = params[m.group(1)]
                operands.append((p.name, "optional" if p.default is None else "one"))
        attrs = {m.group(1): (m.group(3), params[m.group(2)].default is inspect.Parameter.empty)
                 for m in _ATTR_LINE.finditer(src)}
        res = re.search(r"results\.append\((\w+)\)", src)
        _SCHEMAS[name] = _Schema(name, cls, tuple(operands), attrs, res.group(1) if res else None)
    for name in _SCHEMAS:
        mnemonic = name[3:]
        for key in (name, mnemonic, friendly_name(name), friendly_name(name).lower()):
            _BY_NAME.setdefault(key, name)
    return _SCHEMAS


def _schema(op: str, what: str = "cannot create a node") -> _Schema:
    """The schema of ``op`` given as ``"Reshape"``, ``"reshape"`` or ``"ge.reshape"``."""
    schemas = _schemas()
    name = _BY_NAME.get(op) or _BY_NAME.get(op.lower()) if isinstance(op, str) else None
    if name is None:
        import difflib

        close = difflib.get_close_matches(str(op), sorted({friendly_name(n) for n in schemas}), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise _edit_error(f"{what}: unknown ge op {op!r}{hint}")
    return schemas[name]


# --- attributes as Python values ---------------------------------------------------------------

_ARRAY_ATTRS = tuple(getattr(ir, n) for n in (
    "DenseI64ArrayAttr", "DenseI32ArrayAttr", "DenseI16ArrayAttr", "DenseI8ArrayAttr",
    "DenseF32ArrayAttr", "DenseF64ArrayAttr", "DenseBoolArrayAttr") if hasattr(ir, n))


def _elements_value(attr: ir.Attribute) -> Any:
    """Dense elements as numpy (when numpy holds them and they are not huge), else the attribute."""
    from ..irutils.constants import MAX_READ_BYTES

    try:
        dense = attr if isinstance(attr, ir.DenseElementsAttr) else ir.DenseElementsAttr(attr)
    except (TypeError, ValueError):
        return attr  # a dense_resource blob numpy cannot read here
    st = ir.ShapedType(dense.type)
    dtype = numpy_dtype(st.element_type)
    count = int(np.prod(st.shape)) if st.has_static_shape else None
    if dtype is None or count is None or count * dtype.itemsize > MAX_READ_BYTES:
        return attr
    try:
        return np.array(dense).reshape(st.shape)
    except (TypeError, ValueError):  # pragma: no cover - element types numpy cannot hold
        return attr


def attribute_value(attr: ir.Attribute, op: ir.Operation | None = None) -> Any:
    """An attribute as a Python value: bool, int, float, str, list (dense arrays, arrays), the case
    name of a ge enum (``#ge.act<relu>`` -> ``"relu"``), numpy for constants, ``ir.Type`` for type
    attributes; anything else stays an ``ir.Attribute``."""
    if op is not None and op.name == "ge.constant" and len(op.results) == 1:
        from ..irutils.constants import constant_array

        arr = constant_array(op.results[0])  # dense, or a readable f16/f32/f64 resource blob
        if arr is not None:
            return arr
    if isinstance(attr, ir.BoolAttr):
        return bool(attr.value)
    if isinstance(attr, ir.IntegerAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return float(attr.value)
    if isinstance(attr, ir.StringAttr):
        return attr.value
    if _ARRAY_ATTRS and isinstance(attr, _ARRAY_ATTRS):
        return list(attr)
    if isinstance(attr, ir.ArrayAttr):
        return [attribute_value(a) for a in attr]
    if isinstance(attr, ir.TypeAttr):
        return attr.value
    if isinstance(attr, ir.DenseElementsAttr) or (op is not None and op.name == "ge.constant"):
        return _elements_value(attr)
    m = _ENUM_TEXT.fullmatch(str(attr))
    return m.group(1) if m else attr


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


# --- the view ----------------------------------------------------------------------------------


def _edit_error(message: str, node: Node | None = None, diagnostics: Sequence[Diagnostic] = ()) -> GraphEditError:
    """The error refusing an edit of ``node`` (``location``: where a pass reports it)."""
    err = GraphEditError(message, diagnostics=diagnostics, node=node.name if node is not None else None,
                         op=node.ge_op if node is not None else None)
    err.location = node.location if node is not None else None  # type: ignore[attr-defined]
    return err


def _describe(op: ir.Operation, name: str | None = None) -> str:
    """``node 'r1' (Reshape)``, or ``unnamed Reshape node at loc(...)``."""
    name = node_name(op.location) if name is None else name
    if name is not None:
        return f"node '{name}' ({friendly_name(op.name)})"
    return f"unnamed {friendly_name(op.name)} node at {op.location}"


class Value:
    """A tensor of the graph: a function input or a node output.

    ``shape`` (tuple, None for a dynamic dimension), ``dtype`` (the element type's name: ``"f32"``,
    ``"i64"``, ``"bf16"``), ``numpy_dtype``, ``type`` (the MLIR type), ``producer`` (the node
    computing it, None for an input), ``users`` (nodes reading it), ``is_input``/``is_output``,
    ``name`` (the input's ONNX name, or the producer's name) and ``mlir`` (the ``ir.Value``)."""

    __slots__ = ("_mlir", "_producer", "graph")

    def __init__(self, graph: Graph, value: ir.Value) -> None:
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

    def __init__(self, graph: Graph, op: ir.Operation) -> None:
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
        m = _FUSED_META.match(str(self._location))
        return m.group(1) if m else None

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
        """A new node right before this one (see :meth:`Graph.create`)."""
        return self.graph.insert_before(self, op, inputs, attrs, result_types, name)

    def insert_after(self, op: str, inputs: Sequence[Any] | Mapping[str, Any] = (),
                     attrs: Mapping[str, Any] | None = None, result_types: Sequence[Any] | None = None,
                     name: str | None = None) -> Node:
        """A new node right after this one (see :meth:`Graph.create`)."""
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


class Graph:
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
        return f"<Graph @{self.name}: {len(self)} nodes, {len(self.inputs)} inputs, {len(self.outputs)} outputs>"

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

    # -- internals: nodes and values
    def _node(self, op: ir.Operation | ir.OpView) -> Node:
        op = op.operation if isinstance(op, ir.OpView) else op
        node = self._nodes.get(op)
        if node is None or node._op is None:
            node = self._nodes[op] = Node(self, op)
        return node

    def _own(self, node: Any, what: str) -> None:
        if not isinstance(node, Node):
            raise _edit_error(f"{what}: expected a Node of @{self.name}, got {type(node).__name__}")
        if node.graph is not self:
            raise _edit_error(f"{what}: {node} belongs to graph @{node.graph.name}, not to this view of @{self.name}",
                              node=node)
        node._live()

    def _value(self, v: Any, role: str, at: Node | None = None) -> ir.Value:
        """``v`` (Value, one-output Node or ir.Value) as an ir.Value of this function, checked
        (``at``: the node being edited, named by the error)."""
        if isinstance(v, Node):
            self._own(v, role)
            results = v._live().results
            if len(results) != 1:
                raise _edit_error(f"{role}: {v} has {len(results)} outputs; pass one of node.outputs",
                                  node=v)
            return results[0]
        if isinstance(v, Value):
            if v.graph is not self:
                raise _edit_error(f"{role}: {v!r} belongs to graph @{v.graph.name}, not to @{self.name}", node=at)
            if v._producer is not None and v._producer.removed:
                raise _edit_error(f"{role}: the value is an output of {v._producer}, which was removed from the graph",
                                  node=at)
            v = v._mlir
        if not isinstance(v, ir.Value):
            raise _edit_error(f"{role}: expected a Value or Node of @{self.name}, got {type(v).__name__} {v!r}", node=at)
        if v.context != self.context:
            raise _edit_error(f"{role}: the value belongs to another MLIR context", node=at)
        if isinstance(v, ir.BlockArgument):
            if v.owner != self.block:
                raise _edit_error(f"{role}: the value is an argument of another function or block, not of @{self.name}", node=at)
        else:
            owner = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
            if not owner.attached or owner.block != self.block:
                raise _edit_error(f"{role}: the value is computed outside @{self.name} "
                                  f"({_describe(owner)} of another function, or a detached op)")
        if not isinstance(v.type, ir.RankedTensorType):
            raise _edit_error(f"{role}: ge ops take ranked tensors, the value has type {v.type}", node=at)
        return v

    def _replacements(self, node: Node, other: Any) -> list[ir.Value]:
        self._own(node, "replace_all_uses_with")
        n = len(node._live().results)
        if isinstance(other, Node):
            self._own(other, "replace_all_uses_with")
            values = list(other._live().results)
        elif isinstance(other, (Value, ir.Value)):
            values = [other]
        elif isinstance(other, Sequence) and not isinstance(other, str):
            values = list(other)
        else:
            raise _edit_error(f"cannot replace {node}: expected a Node, a Value or a list of Values, "
                              f"got {type(other).__name__}", node=node)
        if len(values) != n:
            raise _edit_error(f"cannot replace {node}: it has {n} output(s), the replacement {len(values)}",
                              node=node)
        return [self._value(v, f"replacing {node}", node) for v in values]

    def _users(self, values: list[ir.Value]) -> list[Node]:
        seen: dict[ir.Operation, None] = {}
        for v in values:
            for use in v.uses:
                owner = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
                if owner != self._terminator:
                    seen.setdefault(owner, None)
        ops = sorted(seen, key=cmp_to_key(lambda a, b: -1 if a.is_before_in_block(b) else (a != b)))
        return [self._node(op) for op in ops]

    @staticmethod
    def _producer(v: ir.Value) -> ir.Operation | None:
        if isinstance(v, ir.BlockArgument):
            return None
        return v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner

    def _dominates(self, v: ir.Value, user: ir.Operation, after: bool = False) -> bool:
        """True when ``v`` is defined before ``user`` (or at/before it, for a point after ``user``)."""
        prod = self._producer(v)
        if prod is None:
            return True
        if prod == user:
            return after
        return prod.is_before_in_block(user)

    # -- internals: budget and counters
    def _count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def _may_rewrite(self) -> bool:
        """False when ge-bisect's rewrite budget is spent (the edit is then skipped)."""
        budget = active_budget()
        if budget is not None and budget.exhausted:
            self._skipped = True
            return False
        return True

    def _rewrote(self, identity: tuple[str, str]) -> None:
        """Counts a rewrite at the op of ``identity`` (``op_identity``) and records it under the budget."""
        budget = active_budget()
        if budget is not None:
            budget.record(self.pattern, *identity)
        self._count("rewrites")

    # -- internals: edits
    def _verify_op(self, op: ir.Operation, undo: Callable[[], None], what: str, node: Node) -> None:
        try:
            op.verify()
        except ir.MLIRError as e:
            diags = [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
            undo()
            raise _edit_error(f"{what}: refused, the op does not verify (undone)", diagnostics=diags,
                              node=node) from None

    def _set_input(self, node: Node, index: int, value: Any) -> None:
        self._own(node, "set_input")
        op = node._live()
        n = len(op.operands)
        if not isinstance(index, int) or isinstance(index, bool) or not -n <= index < n:
            raise _edit_error(f"cannot set input {index!r} of {node}: it has {n} input(s)",
                              node=node)
        index %= n
        v = self._value(value, f"input {index} of {node}", node)
        if not self._dominates(v, op):
            prod = self._producer(v)
            where = "the node itself" if prod == op else f"{self._node(prod)}, which comes after it"
            raise _edit_error(f"cannot set input {index} of {node}: the value is computed by {where}",
                              node=node)
        old = op.operands[index]
        if old == v or not self._may_rewrite():
            return
        op.operands[index] = v

        def undo() -> None:
            op.operands[index] = old

        self._verify_op(op, undo, f"setting input {index} of {node} to a {v.type}", node)
        self._rewrote(op_identity(op))
        self._count("inputs-set")

    def _set_attr(self, node: Node, key: str, value: Any, delete: bool) -> None:
        self._own(node, "attrs")
        op = node._live()
        if not isinstance(key, str) or not key:
            raise _edit_error(f"attribute names are strings, got {key!r} on {node}", node=node)
        if key in _STRUCTURAL:
            raise _edit_error(f"{node}: attribute '{key}' encodes the op's operands and cannot be set",
                              node=node)
        schema = _schemas().get(op.name)
        kind, required = schema.attrs.get(key, (None, False)) if schema is not None else (None, False)
        if schema is not None and kind is None and "." not in key:
            raise _edit_error(f"{node} has no attribute '{key}' (attributes: {', '.join(schema.attrs) or 'none'}); "
                              "attributes of your own need a dotted name such as 'my.tag'",
                              node=node)
        had = key in op.attributes
        old = op.attributes[key] if had else None
        if delete:
            if not had:
                raise KeyError(key)
            if required:
                raise _edit_error(f"cannot delete attribute '{key}' of {node}: the op requires it",
                                  node=node)
        else:
            try:
                attr = _to_attribute(value, kind, self.context)
            except ValueError as e:
                raise _edit_error(f"cannot set attribute '{key}' of {node}: {e}", node=node) from None
            if had and old == attr:
                return
        if not self._may_rewrite():
            return
        if delete:
            del op.attributes[key]
        else:
            op.attributes[key] = attr

        def undo() -> None:
            if had:
                op.attributes[key] = old
            elif key in op.attributes:
                del op.attributes[key]

        self._verify_op(op, undo, f"{'deleting' if delete else 'setting'} attribute '{key}' of {node}", node)
        self._rewrote(op_identity(op))
        self._count("attrs-set")

    def _check_replace(self, olds: list[ir.Value], news: list[ir.Value], owner: Node | None) -> list[ir.Operation | None]:
        """Checks that each new value may take over the uses of each old one; returns per pair the
        op whose uses are kept (the new value's producer, when it reads the old value)."""
        keep = []
        what = f"replacing the uses of {owner}" if owner is not None else "replacing the uses of a graph input"
        for i, (old, new) in enumerate(zip(olds, news)):
            tag = f" (output {i})" if len(olds) > 1 else ""
            if old.type != new.type:
                raise _edit_error(f"{what}{tag}: refused, the replacement has type {new.type} and the uses "
                                  f"expect {old.type}", node=owner)
            prod = self._producer(new)
            kept = None
            for use in old.uses:
                user = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
                if prod is not None and user == prod:
                    kept = prod  # the replacement reads the old value: that use stays
                    continue
                if not self._dominates(new, user):
                    user_text = "the graph output" if user == self._terminator else str(self._node(user))
                    raise _edit_error(f"{what}{tag}: refused, the replacement is computed by "
                                      f"{self._node(prod)}, after {user_text} that reads it",
                                      node=owner)
            keep.append(kept)
        return keep

    def _replace_uses(self, olds: list[ir.Value], news: list[ir.Value], owner_op: ir.Operation | None) -> None:
        owner = self._node(owner_op) if owner_op is not None else None
        if owner is not None:
            self._own(owner, "replace_all_uses_with")
        keep = self._check_replace(olds, news, owner)
        pairs = [(o, n, k) for o, n, k in zip(olds, news, keep) if o != n]
        if not pairs or not any(True for o, _, _ in pairs for _ in o.uses):
            return
        if not self._may_rewrite():
            return
        self._rewrote(op_identity(owner_op if owner_op is not None else self.func))
        for old, new, kept in pairs:
            if kept is not None:
                old.replace_all_uses_except(new, kept)
            else:
                old.replace_all_uses_with(new)
        self._count("uses-replaced")

    def _remove(self, node: Node) -> None:
        self._own(node, "remove")
        op = node._live()
        users = self._users(list(op.results))
        returned = any(Value(self, r).is_output for r in op.results)
        if users or returned:
            if self._skipped:
                return  # the rewrite that would have freed it was skipped under ge-bisect's budget
            what = ", ".join(str(u) for u in users[:5]) + (", ..." if len(users) > 5 else "")
            if returned:
                what = (what + " and " if what else "") + "a graph output"
            raise _edit_error(f"cannot remove {node}: its output is still used by {what}; "
                              "replace those uses first (node.replace_all_uses_with(...))",
                              node=node)
        self._nodes.pop(op, None)
        node._op = None
        if self.rewriter is not None:
            self.rewriter.erase_op(op)
        else:
            op.erase()
        self._count("nodes-removed")

    def _replace_node(self, node: Node, other: Any) -> None:
        values = self._replacements(node, other)
        op = node._live()
        keep = self._check_replace(list(op.results), values, node)
        if any(k is not None for k in keep):
            raise _edit_error(f"cannot replace {node} with a value computed from it; use "
                              "node.replace_all_uses_with(...) and keep the node", node=node)
        if not self._may_rewrite():
            return
        self._rewrote(op_identity(op))
        self._nodes.pop(op, None)
        node._op = None
        if self.rewriter is not None:
            self.rewriter.replace_op(op, values)
        else:
            for old, new in zip(op.results, values):
                old.replace_all_uses_with(new)
            op.erase()
        self._count("uses-replaced")
        self._count("nodes-removed")

    def _default_position(self, inputs: Any) -> tuple[ir.Operation | None, bool]:
        """After the last node among ``inputs`` (checked later), else before the first op."""
        vals = list(inputs.values()) if isinstance(inputs, Mapping) else inputs
        if isinstance(vals, (Value, Node, ir.Value)) or not isinstance(vals, Sequence):
            vals = [vals]
        flat: list[Any] = []
        for v in vals:
            flat.extend(v if isinstance(v, (list, tuple)) else [v])
        last = None
        for v in flat:
            try:
                iv = self._value(v, "input")
            except GraphEditError:
                continue  # reported with its role when the operands are checked
            prod = self._producer(iv)
            if prod is not None and (last is None or last.is_before_in_block(prod)):
                last = prod
        if last is not None:
            return last, True
        ops = list(self.block.operations)
        return (ops[0].operation if ops else None), False

    def _fresh_name(self, base: str | None, op: str) -> str:
        names = {n.name for n in self.nodes if n.name}
        stem = f"{base}/{op}" if base else op
        if stem not in names:
            return stem
        k = 1
        while f"{stem}_{k}" in names:
            k += 1
        return f"{stem}_{k}"

    def _result_types(self, op_text: str, result_types: Sequence[Any]) -> list[ir.Type]:
        out = []
        with self.context:
            for t in result_types:
                if isinstance(t, ir.Type):
                    out.append(t)
                    continue
                if isinstance(t, Value):
                    out.append(t.type)
                    continue
                if isinstance(t, tuple) and len(t) == 2:
                    shape, dtype = t
                    try:
                        elem = ir.Type.parse(str(dtype))
                        if all(_is_int(d) and d >= 0 for d in shape):
                            out.append(ir.RankedTensorType.get([int(d) for d in shape], elem))
                            continue
                    except (ir.MLIRError, TypeError, ValueError):
                        pass
                raise _edit_error(f"cannot create {op_text}: result type {t!r} is neither an ir.Type, a Value, "
                                  "nor a (shape, dtype) pair such as ((2, 3), 'f32')")
        return out

    def _create(self, op: str, inputs: Any, attrs: Mapping[str, Any] | None, result_types: Sequence[Any] | None,
                name: str | None, anchor: ir.Operation | None, after: bool) -> Node:
        try:
            return self._create_checked(op, inputs, attrs, result_types, name, anchor, after)
        except GraphEditError as e:
            if getattr(e, "location", None) is None:  # reported where the node would have been
                e.location = anchor.location if anchor is not None else self.func.location  # type: ignore[attr-defined]
            raise

    def _create_checked(self, op: str, inputs: Any, attrs: Mapping[str, Any] | None,
                        result_types: Sequence[Any] | None, name: str | None, anchor: ir.Operation | None,
                        after: bool) -> Node:
        schema = _schema(op)
        friendly = friendly_name(schema.ge_op)
        op_text = f"a new {friendly} node" + (f" '{name}'" if name else "")
        attrs = dict(attrs or {})
        # operands, by parameter
        params: dict[str, Any] = {}
        if isinstance(inputs, Mapping):
            known = {p for p, _ in schema.operands}
            unknown = set(inputs) - known
            if unknown:
                raise _edit_error(f"cannot create {op_text}: {friendly} has no input(s) {sorted(unknown)} "
                                  f"(inputs: {', '.join(p for p, _ in schema.operands) or 'none'})")
            params = {p: inputs[p] for p, _ in schema.operands if p in inputs}
        else:
            if isinstance(inputs, (Value, Node, ir.Value)):
                inputs = [inputs]
            inputs = list(inputs)
            if len(schema.operands) == 1 and schema.operands[0][1] == "variadic":
                params = {schema.operands[0][0]: inputs}
            else:
                if len(inputs) > len(schema.operands):
                    raise _edit_error(f"cannot create {op_text}: {friendly} takes at most "
                                      f"{len(schema.operands)} input(s) "
                                      f"({', '.join(p for p, _ in schema.operands) or 'none'}), got {len(inputs)}")
                params = dict(zip((p for p, _ in schema.operands), inputs))
        kwargs: dict[str, Any] = {}
        checked: list[ir.Value] = []
        for param, kind in schema.operands:
            v = params.get(param)
            if v is None:
                if kind == "one":
                    raise _edit_error(f"cannot create {op_text}: input '{param}' is missing "
                                      f"({friendly} takes {', '.join(p for p, _ in schema.operands)})")
                continue
            if kind == "variadic":
                if isinstance(v, (Value, Node, ir.Value)) or not isinstance(v, Sequence):
                    v = [v]
                vals = [self._value(x, f"input '{param}' of {op_text}") for x in v]
                if not vals:
                    raise _edit_error(f"cannot create {op_text}: input '{param}' needs at least one value")
                kwargs[param] = vals
                checked += vals
            else:
                iv = self._value(v, f"input '{param}' of {op_text}")
                kwargs[param] = iv
                checked.append(iv)
        if anchor is not None:
            for v in checked:
                if not self._dominates(v, anchor, after):
                    where = f"{'after' if after else 'before'} {self._node(anchor)}"
                    raise _edit_error(f"cannot create {op_text} {where}: its input computed by "
                                      f"{self._node(self._producer(v))} comes later")
        # attributes
        for key, value in attrs.items():
            if key in _STRUCTURAL:
                raise _edit_error(f"cannot create {op_text}: '{key}' is computed from the inputs")
            if key not in schema.attrs:
                raise _edit_error(f"cannot create {op_text}: {friendly} has no attribute '{key}' "
                                  f"(attributes: {', '.join(schema.attrs) or 'none'})")
            kind = schema.attrs[key][0]
            if kind == "ElementsAttr" and isinstance(value, ir.Attribute):
                kwargs[key] = value
                continue
            try:
                kwargs[key] = _to_attribute(value, kind, self.context)
            except ValueError as e:
                raise _edit_error(f"cannot create {op_text}: attribute '{key}': {e}") from None
        missing = [k for k, (_, required) in schema.attrs.items() if required and k not in kwargs]
        if missing:
            raise _edit_error(f"cannot create {op_text}: {friendly} requires attribute(s) "
                              f"{', '.join(repr(m) for m in missing)}")
        # result types
        if schema.result_param is not None:
            if not result_types or len(result_types) != 1:
                raise _edit_error(f"cannot create {op_text}: {friendly} does not infer its result type; "
                                  "pass result_types=[type] (an ir.Type or ((shape...), 'f32'))")
            kwargs[schema.result_param] = self._result_types(op_text, result_types)[0]
        elif result_types is not None:
            kwargs["results"] = self._result_types(op_text, result_types)
        # location and position
        if name is None:
            base = None
            for v in checked:
                base = Value(self, v).name
                if base:
                    break
            name = self._fresh_name(base, friendly)
        elif not isinstance(name, str) or not name:
            raise _edit_error(f"cannot create {op_text}: name must be a non-empty string, got {name!r}")
        with self.context:
            loc = ir.Location.fused([ir.Location.name(name)], ir.StringAttr.get(friendly))
            if anchor is None:
                ip = ir.InsertionPoint.at_block_terminator(self.block) if self._terminator is not None \
                    else ir.InsertionPoint(self.block)
            else:
                ip = ir.InsertionPoint.after(anchor) if after else ir.InsertionPoint(anchor)
            try:
                view = schema.cls(**kwargs, loc=loc, ip=ip)
            except Exception as e:  # noqa: BLE001 - MLIRError (inference, properties), TypeError
                diags = [Diagnostic.from_mlir(d) for d in getattr(e, "error_diagnostics", ())]
                text = "" if diags else ": " + (str(e).strip().splitlines() or [type(e).__name__])[-1]
                raise _edit_error(f"cannot create {op_text}: MLIR refused it{text}", diagnostics=diags) from None
        new_op = view.operation
        node = self._node(new_op)
        self._verify_op(new_op, new_op.erase, f"creating {node}", node)
        self._created.append(node)
        self._count("nodes-created")
        return node

    def _finish(self) -> None:
        """After a graph pass: nodes it created that nothing reads are erased when ge-bisect's budget
        skipped an edit (the skipped rewrite would have used them)."""
        if not self._skipped:
            return
        changed = True
        while changed:
            changed = False
            for node in reversed(self._created):
                if node._op is not None and not any(True for r in node._op.results for _ in r.uses):
                    self._remove(node)
                    changed = True


def graphs(module: ir.Module | ir.Operation) -> list[Graph]:
    """Views of the module's functions with a body (edits apply directly, without a rewriter)."""
    op = module.operation if isinstance(module, (ir.Module, ir.OpView)) else module
    return [Graph(f.operation) for f in op.regions[0].blocks[0].operations
            if f.operation.name == "func.func" and len(f.operation.regions[0].blocks)]


# --- graph passes ------------------------------------------------------------------------------


class GraphPass(Pass):
    """A pass written on the graph view: :meth:`transform` runs once per function.

    Subclasses set the usual :class:`~ge_mlir.passes.Pass` attributes and implement
    ``transform(graph)`` (returning the graph or None); :func:`graph_pass` makes one from a
    function. Statistics: ``rewrites`` (edits that change what the graph computes) and one counter
    per kind of edit (``nodes-created``, ``nodes-removed``, ``uses-replaced``, ``inputs-set``,
    ``attrs-set``)."""

    stage: ClassVar[str] = "after-builtin-fusion"
    #: The name recorded as the "pattern" of each rewrite under ge-bisect's budget.
    pattern_name: ClassVar[str] = ""

    def transform(self, graph: Graph) -> Graph | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, module: ir.Operation) -> None:
        self.statistics.setdefault("rewrites", 0)
        state: dict[str, Any] = {}
        pattern = self.pattern_name or type(self).__name__

        def on_function(func: ir.OpView, rewriter: PatternRewriter) -> bool:
            fn = func.operation
            if not len(fn.regions[0].blocks):
                return True  # a declaration: no graph
            graph = Graph(fn, rewriter=rewriter, pattern=pattern)
            state["graph"] = graph
            result = self.transform(graph)
            if result is not None and result is not graph:
                raise _edit_error(f"graph pass {pattern!r} returned {type(result).__name__}; "
                                  "return the graph it was given (or None)")
            graph._finish()
            graph.verify()
            for key, n in graph.counts.items():
                if key != "rewrites":
                    self.bump(key, n)
            self.statistics["rewrites"] += graph.counts.get("rewrites", 0)
            return not graph.changed  # falsy: "matched and rewritten"

        patterns = RewritePatternSet()
        patterns.add("func.func", on_function, 1)
        try:
            walk_and_apply_patterns(module, patterns.freeze())
        except GraphEditError as e:
            self._report(e, state.get("graph"), module)
        except PassFailure:
            raise
        except Exception as e:  # a bug in the user's function: say whose and where
            self.internal_error = traceback.format_exc()
            graph = state.get("graph")
            where = f" on function @{graph.name}" if graph is not None else ""
            loc = graph.func.location if graph is not None else module.location
            loc.emit_error(f"{self.name}: graph pass {pattern!r} raised {type(e).__name__}{where}: {e}")
            raise PassFailure(str(e), reported=True) from e

    def _report(self, e: GraphEditError, graph: Graph | None, module: ir.Operation) -> None:
        loc = getattr(e, "location", None) or (graph.func.location if graph is not None else module.location)
        text = str(e).replace("\n", "\n  ")
        loc.emit_error(f"{self.name}: graph edit refused: {text}")
        raise PassFailure(e.message, reported=True) from e


def graph_pass(
    fn: Callable[..., Graph | None] | None = None,
    *,
    name: str,
    summary: str = "",
    stage: str = "after-builtin-fusion",
    priority: int = 100,
    targets: Sequence[str] = ("*",),
    precision_sensitive: bool = False,
    options: Sequence[Option] = (),
    description: str = "",
) -> Any:
    """Registers a :class:`GraphPass` running ``fn(graph)`` (or ``fn(graph, pass_)`` to read
    options with ``pass_.opt(name)``) on every function; ``fn`` returns the graph or None.

    Used as ``@graph_pass(name="ge-...", stage=..., priority=..., summary=...)`` it returns the
    function, with the pass class as ``fn.pass_class``. The pass is registered like any other:
    ``ge-opt --list-passes``, pipelines, the config's ``passes``/``passModules``, the pass report
    and ge-bisect see it."""

    def make(f: Callable[..., Graph | None]) -> Callable[..., Graph | None]:
        try:
            takes_pass = len(inspect.signature(f).parameters) >= 2
        except (TypeError, ValueError):  # pragma: no cover - builtins
            takes_pass = False

        def transform(self: GraphPass, graph: Graph) -> Graph | None:
            return f(graph, self) if takes_pass else f(graph)

        doc = (f.__doc__ or "").strip()
        body = {
            "name": name,
            "summary": summary or (doc.split("\n")[0] if doc else f"graph pass {f.__name__}"),
            "description": description or doc,
            "stage": stage,
            "priority": priority,
            "targets": tuple(targets),
            "precision_sensitive": precision_sensitive,
            "options": tuple(options),
            "pattern_name": f.__name__,
            "transform": transform,
            "__module__": f.__module__,
        }
        cls_name = "".join(w.capitalize() for w in name.split("-")) + "Pass"
        f.pass_class = register_pass(type(cls_name, (GraphPass,), body))  # type: ignore[attr-defined]
        return f

    return make(fn) if fn is not None else make
