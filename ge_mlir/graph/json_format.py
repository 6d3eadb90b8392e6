"""The JSON form of a :class:`~ge_mlir.graph.model.GraphSnapshot` and its JSON Schema.

The document (schema ``ge-mlir-graph/1``, described in docs/graphs.md, whose schema block
:data:`SCHEMA` must equal: a test checks it) holds per function its nodes (ops, constants,
inputs, outputs), tensors (type, shape, element type, producer) and edges (one per use), all
with the stable ids of :mod:`ge_mlir.graph.model`. Keys are written sorted, so a graph's JSON
is byte-for-byte reproducible.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .model import GraphSnapshot

__all__ = ["SCHEMA", "SCHEMA_ID", "graph_dict", "to_json"]

SCHEMA_ID = "ge-mlir-graph/1"

_ID = {"type": "string", "pattern": "^[net][0-9]+$"}
_DIMS = {"type": ["array", "null"], "items": {"type": ["integer", "null"]}}

#: JSON Schema (draft 2020-12) of :func:`to_json`'s documents.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ge-mlir.invalid/schemas/graph-1.json",
    "title": "ge-mlir graph",
    "type": "object",
    "required": ["schema", "stage", "source", "functions"],
    "additionalProperties": False,
    "properties": {
        "schema": {"const": SCHEMA_ID},
        "stage": {"type": ["string", "null"], "description": "compile stage (ge, optimized, linalg, ...)"},
        "source": {"type": ["string", "null"], "description": "the model the module was imported from"},
        "functions": {"type": "array", "items": {"$ref": "#/$defs/function"}},
    },
    "$defs": {
        "function": {
            "type": "object",
            "required": ["name", "op", "inputs", "outputs", "nodes", "tensors", "edges"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "op": {"type": "string", "description": "the function-like op: func.func, llvm.func, ascendc.kernel, ..."},
                "inputs": {"type": "array", "items": _ID, "description": "ids of the input nodes, in order"},
                "outputs": {"type": "array", "items": _ID, "description": "ids of the output nodes, in order"},
                "nodes": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                "tensors": {"type": "array", "items": {"$ref": "#/$defs/tensor"}},
                "edges": {"type": "array", "items": {"$ref": "#/$defs/edge"}},
            },
        },
        "node": {
            "type": "object",
            "required": ["id", "kind", "op", "name", "source_op", "sources", "location", "attributes",
                         "inputs", "operand_names", "outputs", "fused", "region_ops"],
            "additionalProperties": False,
            "properties": {
                "id": _ID,
                "kind": {"enum": ["op", "constant", "input", "output"]},
                "op": {"type": "string", "description": "MLIR op name (ge.conv2d); input/output for I/O"},
                "name": {"type": ["string", "null"], "description": "ONNX node name, or the I/O name"},
                "source_op": {"type": ["string", "null"], "description": "ONNX op type of the node"},
                "sources": {"type": "array", "items": {"type": "string"},
                            "description": "every node name of a fused location"},
                "location": {"type": ["string", "null"]},
                "attributes": {"type": "object", "description": "attribute name -> JSON value"},
                "inputs": {"type": "array", "items": _ID, "description": "operand tensor ids"},
                "operand_names": {"type": "array", "items": {"type": "string"}},
                "outputs": {"type": "array", "items": _ID, "description": "result tensor ids"},
                "fused": {"type": "array", "items": {"type": "string"},
                          "description": "fused epilogue: bias, residual, activation"},
                "region_ops": {"type": "integer", "minimum": 0},
                "value": {"$ref": "#/$defs/value"},
            },
        },
        "value": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "resource": {"type": ["string", "null"], "description": "dense_resource blob name"},
                "splat": {"description": "the value of every element"},
                "values": {"description": "all values (small constants only), nested by dimension"},
            },
        },
        "tensor": {
            "type": "object",
            "required": ["id", "type", "shape", "dtype", "producer", "index"],
            "additionalProperties": False,
            "properties": {
                "id": _ID,
                "type": {"type": "string", "description": "MLIR type"},
                "shape": _DIMS,
                "dtype": {"type": ["string", "null"]},
                "producer": {"anyOf": [_ID, {"type": "null"}]},
                "index": {"type": "integer", "minimum": 0},
            },
        },
        "edge": {
            "type": "object",
            "required": ["id", "source", "source_index", "target", "target_index", "tensor"],
            "additionalProperties": False,
            "properties": {
                "id": _ID,
                "source": _ID,
                "source_index": {"type": "integer", "minimum": 0},
                "target": _ID,
                "target_index": {"type": "integer", "minimum": 0},
                "tensor": _ID,
            },
        },
    },
}


def _clean(value: Any) -> Any:
    """JSON-safe: non-finite floats become the strings ``inf``/``-inf``/``nan``."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    return value


def graph_dict(graph: GraphSnapshot) -> dict[str, Any]:
    """The document :func:`to_json` writes, as a dict."""
    functions = []
    for fg in graph.functions:
        nodes = []
        for n in fg.nodes:
            d = {"id": n.id, "kind": n.kind, "op": n.op, "name": n.name, "source_op": n.source_op,
                 "sources": list(n.sources), "location": n.location, "attributes": _clean(n.attributes),
                 "inputs": list(n.inputs), "operand_names": list(n.operand_names), "outputs": list(n.outputs),
                 "fused": list(n.fused), "region_ops": n.region_ops}
            if n.value is not None:
                d["value"] = _clean(n.value)
            nodes.append(d)
        functions.append({
            "name": fg.name,
            "op": fg.op,
            "inputs": [n.id for n in fg.nodes if n.kind == "input"],
            "outputs": [n.id for n in fg.nodes if n.kind == "output"],
            "nodes": nodes,
            "tensors": [{"id": t.id, "type": t.type, "shape": t.shape, "dtype": t.dtype, "producer": t.producer,
                         "index": t.index} for t in fg.tensors.values()],
            "edges": [{"id": e.id, "source": e.source, "source_index": e.source_index, "target": e.target,
                       "target_index": e.target_index, "tensor": e.tensor} for e in fg.edges],
        })
    return {"schema": SCHEMA_ID, "stage": graph.stage, "source": graph.source, "functions": functions}


def to_json(graph: GraphSnapshot, indent: int | None = 1) -> str:
    """The JSON text of ``graph`` (sorted keys; ``indent=None`` for one line)."""
    return json.dumps(graph_dict(graph), indent=indent, sort_keys=True, allow_nan=False) + "\n"
