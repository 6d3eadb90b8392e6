"""Validity checks of ONNX models, run before import.

An invalid model (one onnxruntime refuses too) is reported as ONE
:class:`~ge_mlir.errors.InvalidModelError` listing every problem found (node
name, op type, reason), apart from :class:`~ge_mlir.errors.UnsupportedOpsError`
(valid ONNX that ge-mlir cannot import).

The checks, in order:

1. the model itself: not empty, ``ir_version`` set and known, an
   ``opset_import``, a default-domain opset that exists;
2. the graph's structure: every node input is produced (by a graph input, an
   initializer or a node), no tensor is written twice (nor a graph input /
   initializer overwritten), no cycle, every graph output produced. A graph
   whose nodes are merely out of order is sorted (onnxruntime sorts too);
3. each node against its op schema (``onnx.checker.check_node``: arity,
   unknown attributes, attribute types) and attribute domains the schemas do
   not state (0/1 flags, non-negative pads, positive strides/dilations/group);
4. every initializer: its data must match its type and dims;
5. ``onnx.checker.check_model`` (the rest: subgraphs, functions, ...) and
   strict ONNX shape/type inference (types that do not match, e.g. a declared
   output dtype that differs from the computed one, attribute values the op's
   inference rejects).

The checker is run on a light copy of the model (large initializers become
typed graph inputs, so models above 2 GiB work too). Two things the checker
demands and onnxruntime does not are not enforced: graph inputs/outputs
without a shape, and a declared shape that differs from the inferred one
(onnxruntime merges them leniently; the imported signature uses the computed
type).
"""

from __future__ import annotations

import heapq
import re
from typing import Iterable

import numpy as np
import onnx
from onnx import TensorProto

from ...errors import InvalidModelError
from .registry import MAX_TENSOR_BYTES, tensor_nbytes

#: Initializers with more elements than this are checked on their own and
#: replaced by typed graph inputs in the copy given to the ONNX checker.
_LIGHT_LIMIT = 4096

#: Integer attributes whose only valid values are 0 and 1.
_FLAGS = frozenset({
    "keepdims", "noop_with_empty_axes", "select_last_index", "transA", "transB", "ceil_mode",
    "count_include_pad", "allowzero", "exclusive", "reverse", "largest", "sorted", "upper", "fmod",
    "detect_negative", "detect_positive", "center_point_box", "align_corners", "exclude_outside",
    "antialias", "periodic", "onesided", "inverse", "saturate", "is_causal", "interleaved", "spatial",
    "training_mode", "new_axis", "layout", "storage_order",
})
#: Ops whose "pads" attribute is a window padding (Pad-2's may be negative).
_WINDOW_OPS = frozenset({
    "Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "DeformConv", "MaxPool", "AveragePool",
    "LpPool", "MaxUnpool", "MaxRoiPool", "Col2Im",
})
#: Integer (list) attributes that must be positive on the window ops.
_POSITIVE = ("strides", "dilations", "kernel_shape", "group")


def node_label(node: onnx.NodeProto, index: int) -> str:
    """How problems name a node: ``Relu node 'r1'`` (unnamed: ``'Relu_3'``)."""
    return f"{node.op_type} node {node.name or f'{node.op_type}_{index}'!r}"


def _type_name(dt: int) -> str:
    try:
        return TensorProto.DataType.Name(dt)
    except ValueError:
        return str(dt)


def _first_line(text: str) -> str:
    lines = [ln.strip() for ln in str(text).strip().splitlines() if ln.strip()]
    return lines[0] if lines else str(text)


def raise_invalid(problems: list[str], also: Iterable[str] = ()) -> None:
    """Raises the one InvalidModelError listing ``problems`` (and, as further
    lines, ``also``: e.g. the unsupported ops found as well)."""
    lines = [f"  {p}" for p in problems]
    also = list(also)
    if also:
        lines.append("  also not supported by ge-mlir:")
        lines += [f"  {a}" for a in also]
    err = InvalidModelError(f"invalid ONNX model: {len(problems)} problem(s)\n" + "\n".join(lines))
    err.problems = list(problems)  # type: ignore[attr-defined]
    raise err


# --- 1. the model ---------------------------------------------------------------------


def _model_problems(model: onnx.ModelProto) -> list[str]:
    if model.ir_version == 0 and not model.HasField("graph") and not model.opset_import:
        return ["the model is empty: no ir_version, no graph, no opset_import (empty or non-ONNX bytes?)"]
    problems = []
    if model.ir_version <= 0:
        problems.append("ir_version is not set")
    elif model.ir_version > onnx.IR_VERSION:
        problems.append(f"ir_version {model.ir_version} is newer than any this onnx {onnx.__version__} knows "
                        f"(newest: {onnx.IR_VERSION})")
    if not model.HasField("graph"):
        problems.append("the model has no graph")
    default = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    newest = onnx.defs.onnx_opset_version()
    if model.ir_version >= 3 and not model.opset_import:
        # (A model importing only other domains, e.g. ai.onnx.ml, is valid.)
        problems.append("there is no opset_import (required since IR version 3)")
    for v in default:
        if v > newest:
            problems.append(f"opset {v} of the default ONNX domain does not exist (the newest is {newest})")
        elif v < 1:
            problems.append(f"opset version {v} of the default ONNX domain is not valid")
    return problems


# --- 2. the graph's structure -----------------------------------------------------------


def _free_names(graph: onnx.GraphProto) -> set[str]:
    """Names a (sub)graph reads from enclosing scopes."""
    defined = {i.name for i in graph.input} | {i.name for i in graph.initializer}
    free: set[str] = set()
    for node in graph.node:
        for n in node.input:
            if n and n not in defined:
                free.add(n)
        for a in node.attribute:
            for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                free |= _free_names(sub) - defined
        defined.update(o for o in node.output if o)
    free |= {o.name for o in graph.output if o.name not in defined}
    return free


def _node_reads(node: onnx.NodeProto) -> list[str]:
    reads = [n for n in node.input if n]
    for a in node.attribute:
        for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
            reads += sorted(_free_names(sub))
    return reads


def sort_graph(graph: onnx.GraphProto) -> tuple[list[int], list[str]]:
    """(node order, problems): a stable topological order of the top-level
    nodes, and the structural problems (dangling inputs, tensors written
    twice, cycles, graph outputs no one produces)."""
    problems: list[str] = []
    nodes = list(graph.node)
    inputs = {i.name for i in graph.input}
    inits: set[str] = set()
    for t in graph.initializer:
        if t.name in inits:
            problems.append(f"initializer {t.name!r} is defined twice")
        inits.add(t.name)
    seen_inputs: set[str] = set()
    for i in graph.input:
        if i.name in seen_inputs:
            problems.append(f"graph input {i.name!r} is listed twice")
        seen_inputs.add(i.name)
    producer: dict[str, int] = {}
    for k, node in enumerate(nodes):
        for o in node.output:
            if not o:
                continue
            if o in producer:
                problems.append(f"{node_label(node, k)}: output {o!r} is already written by "
                                f"{node_label(nodes[producer[o]], producer[o])}")
            elif o in inputs:
                problems.append(f"{node_label(node, k)}: output {o!r} overwrites the graph input {o!r}")
            elif o in inits:
                problems.append(f"{node_label(node, k)}: output {o!r} overwrites the initializer {o!r}")
            else:
                producer[o] = k
    deps: list[set[int]] = []
    for k, node in enumerate(nodes):
        d = set()
        for n in _node_reads(node):
            if n in inputs or n in inits:
                continue
            if n in producer:
                if producer[n] != k:
                    d.add(producer[n])
                else:
                    problems.append(f"{node_label(node, k)}: input {n!r} is its own output")
            elif n in node.input:
                problems.append(f"{node_label(node, k)}: input {n!r} is not produced by any node and is not a "
                                "graph input or initializer (dangling)")
            # Free names of subgraphs that nothing defines: the checker reports them.
        deps.append(d)
    for o in graph.output:
        if o.name not in producer and o.name not in inputs and o.name not in inits:
            problems.append(f"graph output {o.name!r} is not produced by any node and is not a graph input or initializer")
    # Kahn's algorithm, smallest original index first (keeps a sorted graph as is).
    users: list[list[int]] = [[] for _ in nodes]
    missing = [len(d) for d in deps]
    for k, d in enumerate(deps):
        for j in d:
            users[j].append(k)
    ready = [k for k, m in enumerate(missing) if m == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        k = heapq.heappop(ready)
        order.append(k)
        for u in users[k]:
            missing[u] -= 1
            if missing[u] == 0:
                heapq.heappush(ready, u)
    if len(order) < len(nodes):
        stuck = [k for k in range(len(nodes)) if missing[k]]
        shown = ", ".join(node_label(nodes[k], k) for k in stuck[:6]) + (", ..." if len(stuck) > 6 else "")
        problems.append(f"the graph has a cycle: {len(stuck)} node(s) depend on each other's outputs: {shown}")
    return order, problems


# --- 3. nodes ------------------------------------------------------------------------


def _schema(node: onnx.NodeProto, opsets: dict[str, int]):
    domain = "" if node.domain in ("", "ai.onnx") else node.domain
    version = opsets.get(domain)
    if version is None:
        return None
    try:
        return onnx.defs.get_schema(node.op_type, version, domain)
    except Exception:  # no such op (reported as unsupported), or no such version
        return None


def _attribute_problems(node: onnx.NodeProto, schema) -> list[str]:
    """Attribute values outside their domain (that the schemas do not state)."""
    out = []
    declared = schema.attributes if schema is not None else {}
    for a in node.attribute:
        if a.name not in declared:
            continue
        if a.name in _FLAGS and a.type == onnx.AttributeProto.INT and a.i not in (0, 1):
            out.append(f"attribute {a.name}={a.i} is not 0 or 1")
        if node.op_type in _WINDOW_OPS:
            if a.name == "pads" and any(p < 0 for p in a.ints):
                out.append(f"attribute pads={list(a.ints)} has negative values")
            if a.name in _POSITIVE:
                vals = list(a.ints) if a.type == onnx.AttributeProto.INTS else [a.i]
                if any(v <= 0 for v in vals):
                    out.append(f"attribute {a.name}={vals if a.type == onnx.AttributeProto.INTS else a.i} "
                               "must be positive")
        if a.name == "blocksize" and a.type == onnx.AttributeProto.INT and a.i <= 0:
            out.append(f"attribute blocksize={a.i} must be positive")
        if a.name == "num_groups" and a.type == onnx.AttributeProto.INT and a.i <= 0:
            out.append(f"attribute num_groups={a.i} must be positive")
    return out


def _node_problems(model: onnx.ModelProto, order: list[int]) -> list[str]:
    graph = model.graph
    opsets = {("" if o.domain == "ai.onnx" else o.domain): o.version for o in model.opset_import}
    ctx = onnx.checker.C.CheckerContext()
    ctx.ir_version = model.ir_version
    ctx.opset_imports = opsets
    problems = []
    for k in order:
        node = graph.node[k]
        schema = _schema(node, opsets)
        if schema is None:
            continue  # an unknown op: reported as unsupported
        has_subgraph = any(a.HasField("g") or len(a.graphs) for a in node.attribute)
        if not has_subgraph:  # subgraphs need their lexical scope: check_model checks them
            try:
                onnx.checker.check_node(node, ctx)
            except onnx.checker.ValidationError as e:
                if not _tolerated(str(e)):
                    problems.append(f"{node_label(node, k)}: {_first_line(e)}")
                    continue
        problems += [f"{node_label(node, k)}: {p}" for p in _attribute_problems(node, schema)]
    return problems


# --- 4. initializers ------------------------------------------------------------------


def _nbytes(t: TensorProto, itemsize: int) -> int:
    """Byte size of an initializer; a negative dim (invalid, reported) counts as 0."""
    return tensor_nbytes([max(int(d), 0) for d in t.dims], itemsize)


def decode_initializer(t: TensorProto) -> np.ndarray:
    """The initializer's value; InvalidModelError (naming it) when its data does
    not match its type and dims. STRING tensors are returned as object arrays."""
    what = f"initializer {t.name!r}"
    if t.data_type == TensorProto.UNDEFINED or _type_name(t.data_type) == str(t.data_type):
        raise_invalid([f"{what}: data type {t.data_type} is not an ONNX data type"])
    if any(d < 0 for d in t.dims):
        raise_invalid([f"{what}: dims {list(t.dims)} are negative"])
    if t.data_location == TensorProto.EXTERNAL:
        loc = {e.key: e.value for e in t.external_data}.get("location", "?")
        raise_invalid([f"{what}: its data is in the external file {loc!r}, which was not loaded "
                       "(import the model from its path, with the data file beside it)"])
    if t.data_type == TensorProto.STRING and t.HasField("raw_data"):
        raise_invalid([f"{what}: STRING data must not be stored in raw_data"])
    count = _nbytes(t, 1)
    try:
        itemsize = onnx.helper.tensor_dtype_to_np_dtype(t.data_type).itemsize
    except Exception:
        itemsize = 1
    if t.data_type != TensorProto.STRING and _nbytes(t, itemsize) > MAX_TENSOR_BYTES:
        raise_invalid([f"{what}: dims {list(t.dims)} make {_nbytes(t, itemsize)} bytes, "
                       "more than int64 can address"])
    try:
        onnx.checker.check_tensor(t)
    except onnx.checker.ValidationError as e:
        raise_invalid([f"{what}: {_first_line(e)}"])
    if t.HasField("raw_data") and t.data_type not in (TensorProto.STRING,):
        packed = t.data_type in (TensorProto.INT4, TensorProto.UINT4) or _type_name(t.data_type) in (
            "FLOAT4E2M1", "INT2", "UINT2")
        expected = _nbytes(t, itemsize)
        if not packed and len(t.raw_data) != expected:
            raise_invalid([f"{what}: raw_data has {len(t.raw_data)} bytes, dims {list(t.dims)} of "
                           f"{_type_name(t.data_type)} need {expected}"])
    elif count and not t.HasField("raw_data"):
        fields = [f for f, _ in t.ListFields() if f.name.endswith("_data") and f.name != "raw_data"]
        if not fields:
            raise_invalid([f"{what}: no data (neither raw_data nor a typed data field) for dims {list(t.dims)}"])
    try:
        arr = onnx.numpy_helper.to_array(t)
    except Exception as e:
        raise_invalid([f"{what}: its data does not match its type {_type_name(t.data_type)} and dims "
                       f"{list(t.dims)}: {_first_line(e)}"])
    if list(arr.shape) != list(t.dims):
        raise_invalid([f"{what}: its data has shape {list(arr.shape)}, its dims say {list(t.dims)}"])
    return arr


# --- 5. the ONNX checker and strict inference -------------------------------------------


def _copy_fields(src, dst, skip: str) -> None:
    for field, value in src.ListFields():
        if field.name == skip:
            continue
        target = getattr(dst, field.name)
        if hasattr(target, "extend"):  # a repeated field
            target.extend(value)
        elif field.message_type is not None:
            target.CopyFrom(value)
        else:
            setattr(dst, field.name, value)


def _light_copy(model: onnx.ModelProto, order: list[int]) -> onnx.ModelProto:
    """A copy of the model without large initializer data (those become typed
    graph inputs), its nodes in ``order``."""
    light = onnx.ModelProto()
    _copy_fields(model, light, "graph")
    g = light.graph
    _copy_fields(model.graph, g, "initializer")
    if list(order) != list(range(len(g.node))):
        del g.node[:]
        g.node.extend(model.graph.node[k] for k in order)
    # Unnamed nodes get the importer's names, so inference errors name them.
    for node, k in zip(g.node, order):
        if not node.name:
            node.name = f"{node.op_type}_{k}"
    input_names = {i.name for i in g.input}
    for t in model.graph.initializer:
        if _nbytes(t, 1) > _LIGHT_LIMIT or t.data_location == TensorProto.EXTERNAL:
            if t.name not in input_names:
                g.input.append(onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
                input_names.add(t.name)
        else:
            g.initializer.append(t)
    return light


def _with_shapes(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy whose top-level tensor value infos all have a shape field (the
    checker demands one; onnxruntime does not) and no typeless output. Only for
    the structural check: the added shapes are rank 0."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for vi in list(m.graph.input) + list(m.graph.output) + list(m.graph.value_info):
        if vi.type.HasField("tensor_type") and not vi.type.tensor_type.HasField("shape"):
            vi.type.tensor_type.shape.SetInParent()
    # Outputs / value infos without a type (onnxruntime infers it; that an
    # output is produced was checked already).
    for field in (m.graph.output, m.graph.value_info):
        keep = [vi for vi in field if vi.HasField("type")]
        if len(keep) != len(field):
            kept = [onnx.ValueInfoProto() for _ in keep]
            for dst, src in zip(kept, keep):
                dst.CopyFrom(src)
            del field[:]
            field.extend(kept)
    return m


#: Checker complaints onnxruntime does not share: unknown ops (reported as
#: unsupported), ops deprecated in the model's opset (onnxruntime still runs
#: them), IR < 4 initializers that are not also graph inputs.
_CHECKER_TOLERATED = re.compile(
    r"No (Op|opset import) registered for|is deprecated in domain_version|in initializer but not in graph input")
#: Inference complaints onnxruntime does not share: a declared shape that
#: differs from the inferred one (merged leniently).
_TOLERATED = ("Inferred shape and existing shape differ",)


_INFER_NODE = re.compile(r"\(op_type:([^,)]+), node name: ([^)]*)\): ")
_ELEM_DIFF = re.compile(r"\((\d+)\) vs \((\d+)\)")


def _tolerated(text: str) -> bool:
    return bool(_CHECKER_TOLERATED.search(text))


def _checker_problems(light: onnx.ModelProto) -> list[str]:
    try:
        onnx.checker.check_model(_with_shapes(light), full_check=False)
    except onnx.checker.ValidationError as e:
        text = str(e)
        if not _tolerated(text):
            ctx = re.search(r"==> Context: (.*)", text)
            return [_first_line(text) + (f" ({ctx.group(1).strip()})" if ctx else "")]
    except Exception:
        pass  # the checker itself failed (e.g. too large): our own checks stand
    try:
        onnx.shape_inference.infer_shapes(light, check_type=True, strict_mode=True, data_prop=False)
    except onnx.shape_inference.InferenceError as e:
        text = str(e)
        if any(t in text for t in _TOLERATED):
            return []
        if text.count("Inference error(s)") >= 2:
            # An error inside the body of a function op (e.g. MVN's expansion):
            # ONNX's inference of that body, not the model.
            return []
        text = _first_line(text)
        if "elem type differs" in text:
            text = _ELEM_DIFF.sub(lambda m: f"({_type_name(int(m.group(1)))}) vs ({_type_name(int(m.group(2)))})",
                                  text)
            text += " (a declared type (graph output or value_info) differs from the computed one)"
        where = _INFER_NODE.search(text)
        if where:
            return [f"{where.group(1)} node {where.group(2)!r}: {text[where.end():]} (ONNX type/shape inference)"]
        return [f"ONNX type/shape inference: {text}"]
    except Exception:
        pass  # inference failed for a reason that is not the model's (e.g. an unknown custom domain)
    return []


def validate(model: onnx.ModelProto) -> list[int]:
    """Checks ``model``; raises InvalidModelError listing every problem.
    Returns the topological order of the graph's nodes."""
    problems = _model_problems(model)
    if problems and not model.HasField("graph"):
        raise_invalid(problems)
    order, structure = sort_graph(model.graph)
    problems += structure
    if not structure:
        problems += _node_problems(model, order)
    if problems:
        raise_invalid(problems)
    for t in model.graph.initializer:
        if _nbytes(t, 1) > _LIGHT_LIMIT or t.data_location == TensorProto.EXTERNAL:
            continue  # checked when decoded
        decode_initializer(t)
    problems = _checker_problems(_light_copy(model, order))
    if problems:
        raise_invalid(problems)
    return order
