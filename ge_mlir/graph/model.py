"""A module's functions as plain graphs: nodes, tensors, edges (no MLIR objects kept).

A :class:`GraphSnapshot` is read-only data for export, diffs and dumps; to edit a function
through a graph, use the graph view (``ge_mlir.passes.GraphView``), and the staged handle of a
compile is ``ge_mlir.compiler``'s.

:func:`read_graph` walks the functions of any module (ge, linalg, bufferized, ...) and
records, per function, one node per top-level operation, the graph inputs and outputs,
every SSA value as a tensor (shape, element type) and one edge per use. Ops are read
generically through the bindings (their attributes become Python values), so a new ge op,
or an upstream dialect, needs nothing here.

Ids are stable: nodes ``n<k>``, tensors ``t<k>`` and edges ``e<k>`` are numbered in
program order over the module's functions, so the same IR always gives the same ids
(printing and parsing a module keeps op order), and two stages of one compile share the
ids of what precedes the first difference.

The ONNX importer locates every op at ``fused<"OpType">["node name"]``:
:func:`ge_mlir.irutils.locations.location_info` reads that back, so nodes carry the ONNX node
name and op type they came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from ..irutils.attrs import attribute_value, constant_summary
from ..irutils.locations import location_info

__all__ = [
    "CONSTANT_OPS", "Edge", "FunctionGraph", "GraphSnapshot", "SnapshotNode", "Tensor",
    "function_locations", "fused_parts", "op_locations", "operand_names", "read_graph",
]

#: Ops whose result is a value known at compile time (or an empty init tensor): drawn folded
#: into their users' labels.
CONSTANT_OPS = frozenset({"ge.constant", "arith.constant", "llvm.mlir.constant", "llvm.mlir.zero",
                          "tensor.empty", "ub.poison"})
#: Function-like ops whose body is a graph.
FUNCTION_OPS = frozenset({"func.func", "llvm.func"})
#: Attributes that only encode an op's structure (not shown).
_STRUCTURAL = frozenset({"operandSegmentSizes", "resultSegmentSizes"})

#: Operand names of the ge ops with more than one operand (others: ``input``, or ``lhs``/``rhs``).
_OPERANDS: dict[str, tuple[str, ...]] = {
    "ge.conv2d": ("input", "filter", "bias", "residual"),
    "ge.conv_transpose2d": ("input", "filter", "bias"),
    "ge.matmul": ("lhs", "rhs", "bias"),
    "ge.gemm": ("a", "b", "c"),
    "ge.batch_norm": ("input", "scale", "bias", "mean", "variance"),
    "ge.layer_norm": ("input", "scale", "bias"),
    "ge.instance_norm": ("input", "scale", "bias"),
    "ge.rms_norm": ("input", "scale"),
    "ge.where": ("condition", "x", "y"),
    "ge.gather": ("data", "indices"),
    "ge.gather_elements": ("data", "indices"),
    "ge.scatter_elements": ("data", "indices", "updates"),
    "ge.range": ("start", "limit", "delta"),
    "ge.fill": ("value", "shape"),
    "ge.dynamic_reshape": ("input", "shape"),
    "ge.one_hot": ("indices",),
}
_BINARY = frozenset({"add", "sub", "mul", "div", "pow", "max", "min", "mod", "and", "or", "xor", "equal",
                     "less", "less_equal", "greater", "greater_equal"})

@dataclass
class Tensor:
    """An SSA value: its type, and the node (and result index) producing it."""

    id: str
    type: str
    shape: list[int | None] | None  # None: not a shaped type; None entries: dynamic dims
    dtype: str | None  # element type (``f32``, ``i64``, ...)
    producer: str | None
    index: int = 0

    @property
    def label(self) -> str:
        """``1x3x224x224 f32`` (``scalar f32`` for rank 0), or the type itself."""
        if self.shape is None:
            return self.type
        dims = "x".join("?" if d is None else str(d) for d in self.shape) or "scalar"
        return f"{dims} {self.dtype}"


@dataclass
class SnapshotNode:
    """One operation (``kind`` ``op`` or ``constant``) or a graph ``input``/``output`` of a snapshot."""

    id: str
    kind: str
    op: str
    function: str
    name: str | None = None  # ONNX node name (from the location) or the I/O name
    source_op: str | None = None  # ONNX op type from the location
    sources: list[str] = field(default_factory=list)  # every node name in a fused location
    location: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)  # tensor ids, in operand order
    operand_names: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # tensor ids, in result order
    region_ops: int = 0  # ops nested in the op's regions (a linalg.generic body, a kernel)
    fused: list[str] = field(default_factory=list)  # fused epilogue (``bias``, ``residual``, ``relu``)
    value: dict[str, Any] | None = None  # constants: what is known of the value

    @property
    def short_op(self) -> str:
        return self.op[3:] if self.op.startswith("ge.") else self.op


@dataclass
class Edge:
    """A use: tensor ``tensor`` (result ``source_index`` of ``source``) is operand ``target_index`` of ``target``."""

    id: str
    source: str
    source_index: int
    target: str
    target_index: int
    tensor: str


@dataclass
class FunctionGraph:
    name: str
    op: str = "func.func"  # the function-like op (func.func, llvm.func, ascendc.kernel, ...)
    nodes: list[SnapshotNode] = field(default_factory=list)
    tensors: dict[str, Tensor] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def node(self, node_id: str) -> SnapshotNode:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    @property
    def ops(self) -> list[SnapshotNode]:
        return [n for n in self.nodes if n.kind == "op"]

    def users(self) -> dict[str, list[Edge]]:
        """Edges leaving each node."""
        out: dict[str, list[Edge]] = {}
        for e in self.edges:
            out.setdefault(e.source, []).append(e)
        return out


@dataclass
class GraphSnapshot:
    """The functions of one module (one stage of a compile), read once: editing the module
    afterwards does not change it."""

    functions: list[FunctionGraph]
    stage: str | None = None
    source: str | None = None  # the model it came from (the module's ``ge.source``)

    @property
    def nodes(self) -> list[SnapshotNode]:
        return [n for f in self.functions for n in f.nodes]

    @property
    def title(self) -> str:
        names = ", ".join(f.name for f in self.functions) or "empty module"
        return f"{names} ({self.stage})" if self.stage else names


def _shaped(t: ir.Type) -> tuple[list[int | None] | None, str | None]:
    if isinstance(t, ir.ShapedType):
        st = ir.ShapedType(t)
        if not st.has_rank:
            return None, str(st.element_type)
        return [None if st.is_dynamic_dim(i) else st.get_dim_size(i) for i in range(st.rank)], str(st.element_type)
    return None, None


def operand_names(op_name: str, count: int, segments: list[int] | None = None) -> list[str]:
    """Names of an op's operands (ge ops: their ODS names; others ``in<i>``)."""
    names = _OPERANDS.get(op_name)
    if names is not None:
        if segments is not None and len(segments) == len(names):
            out = [n for n, s in zip(names, segments) for _ in range(s)]
            if len(out) == count:
                return out
        if len(names) >= count:
            return list(names[:count])
    if op_name.startswith("ge."):
        short = op_name[3:]
        if short in _BINARY and count == 2:
            return ["lhs", "rhs"]
        if count == 1:
            return ["input"]
        if short == "concat":
            return [f"inputs{i}" for i in range(count)]
    return [f"in{i}" for i in range(count)]


def fused_parts(node: SnapshotNode) -> list[str]:
    """The epilogue fused into a conv2d/matmul/gemm node: ``bias``, ``residual``, the activation."""
    if node.op not in ("ge.conv2d", "ge.matmul", "ge.gemm"):
        return []
    parts = []
    if node.op != "ge.gemm" and "bias" in node.operand_names:
        parts.append("bias")
    if "residual" in node.operand_names:
        parts.append("residual")
    act = node.attributes.get("activation", "none")
    if act != "none":
        parts.append(act)
    return parts


def _functions(module: ir.Operation) -> list[ir.Operation]:
    """The function-like ops of a module: ``func.func``/``llvm.func`` with a body, and any other
    symbol with a body (a target's kernels and host program)."""
    out = []
    for op in module.regions[0].blocks[0].operations:
        o = op.operation
        if len(o.regions) and len(o.regions[0].blocks) and (o.name in FUNCTION_OPS or "sym_name" in o.attributes):
            out.append(o)
    return out


def op_locations(module: ir.Module | ir.Operation) -> list[str]:
    """The printed location of every top-level op of every function, in the order
    :func:`read_graph` numbers nodes: kept by ``compile`` for stages whose text it stores
    without locations, so the graph of the re-parsed text still names ONNX nodes."""
    op = module.operation if isinstance(module, ir.Module) else module
    return [str(o.operation.location) for fn in _functions(op) for block in fn.regions[0].blocks
            for o in block.operations]


def function_locations(module: ir.Module | ir.Operation, locations: list[str] | None) -> dict[str, list[str]]:
    """:func:`op_locations`'s flat list split per function (by symbol name)."""
    if locations is None:
        return {}
    op = module.operation if isinstance(module, ir.Module) else module
    out, k = {}, 0
    for fn in _functions(op):
        n = sum(len(list(block.operations)) for block in fn.regions[0].blocks)
        out[_sym_name(fn)] = locations[k:k + n]
        k += n
    return out


def _count_nested(op: ir.Operation) -> int:
    n = 0
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                n += 1 + _count_nested(inner.operation)
    return n


def _sym_name(fn: ir.Operation) -> str:
    return ir.StringAttr(fn.attributes["sym_name"]).value


def _io_name(fn: ir.Operation, key: str, i: int) -> str | None:
    if key == "arg_attrs" and "arg_attrs" not in fn.attributes and "arg_names" in fn.attributes:
        names = attribute_value(fn.attributes["arg_names"], summary=True)
        return names[i] if isinstance(names, list) and i < len(names) and isinstance(names[i], str) else None
    if key not in fn.attributes:
        return None
    arr = ir.ArrayAttr(fn.attributes[key])
    if i >= len(arr):
        return None
    d = ir.DictAttr(arr[i])
    return ir.StringAttr(d["onnx.name"]).value if "onnx.name" in d else None


def read_graph(module: ir.Module | ir.Operation, stage: str | None = None,
               locations: list[str] | None = None) -> GraphSnapshot:
    """The graph of every function of ``module`` (``locations``: :func:`op_locations` of the
    module this one was printed from, when its own ops have lost them)."""
    top = module.operation if isinstance(module, ir.Module) else module
    source = None
    if "ge.source" in top.attributes:
        source = attribute_value(top.attributes["ge.source"], summary=True)
    counters = {"n": 0, "t": 0, "e": 0, "loc": 0}

    def next_id(kind: str) -> str:
        k = counters[kind]
        counters[kind] += 1
        return f"{kind}{k}"

    functions = []
    for fn in _functions(top):
        g = FunctionGraph(_sym_name(fn), fn.name)
        value_ids: dict[Any, str] = {}

        def tensor_for(value: ir.Value, producer: str | None, index: int) -> str:
            tid = next_id("t")
            shape, dtype = _shaped(value.type)
            g.tensors[tid] = Tensor(tid, str(value.type), shape, dtype, producer, index)
            value_ids[value] = tid
            return tid

        blocks = list(fn.regions[0].blocks)
        entry = blocks[0]
        for i, arg in enumerate(entry.arguments):
            nid = next_id("n")
            name = _io_name(fn, "arg_attrs", i) or f"arg{i}"
            node = SnapshotNode(nid, "input", "input", g.name, name=name)
            node.outputs.append(tensor_for(arg, nid, 0))
            g.nodes.append(node)
        returns: list[ir.Operation] = []
        for bi, block in enumerate(blocks):
            if bi:
                for arg in block.arguments:
                    tensor_for(arg, None, 0)
            for o in block.operations:
                op = o.operation
                loc = locations[counters["loc"]] if locations is not None and counters["loc"] < len(locations) \
                    else str(op.location)
                counters["loc"] += 1
                if op.name in ("func.return", "llvm.return") and bi == len(blocks) - 1 and fn.name in FUNCTION_OPS:
                    returns.append(op)
                    continue
                nid = next_id("n")
                name, source_op, names = location_info(loc)
                attrs = {}
                for j in range(len(op.attributes)):
                    na = op.attributes[j]
                    if na.name not in _STRUCTURAL:
                        attrs[na.name] = attribute_value(na.attr, summary=True)
                segments = None
                if "operandSegmentSizes" in op.attributes:
                    segments = [int(x) for x in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
                kind = "constant" if op.name in CONSTANT_OPS else "op"
                node = SnapshotNode(nid, kind, op.name, g.name, name=name, source_op=source_op, sources=names,
                            location=loc, attributes=attrs,
                            operand_names=operand_names(op.name, len(op.operands), segments))
                if kind == "constant":
                    value_attr = op.attributes["value"] if "value" in op.attributes else None
                    node.value = constant_summary(value_attr) if value_attr is not None else {}
                    node.attributes.pop("value", None)
                node.region_ops = _count_nested(op)
                for j, operand in enumerate(op.operands):
                    node.inputs.append(value_ids.get(operand) or tensor_for(operand, None, 0))
                for j, res in enumerate(op.results):
                    node.outputs.append(tensor_for(res, nid, j))
                node.fused = fused_parts(node)
                g.nodes.append(node)
        for ret in returns:
            for i, operand in enumerate(ret.operands):
                nid = next_id("n")
                name = _io_name(fn, "res_attrs", i) or f"result{i}"
                node = SnapshotNode(nid, "output", "output", g.name, name=name,
                            inputs=[value_ids.get(operand) or tensor_for(operand, None, 0)], operand_names=["value"])
                g.nodes.append(node)
        for node in g.nodes:
            for j, tid in enumerate(node.inputs):
                t = g.tensors[tid]
                if t.producer is not None:
                    g.edges.append(Edge(next_id("e"), t.producer, t.index, node.id, j, tid))
        functions.append(g)
    return GraphSnapshot(functions, stage=stage, source=source if isinstance(source, str) else None)
