"""Graph export: any module (or stage of a compiled model) as DOT, SVG, JSON or ONNX.

* :func:`export_graph` (also ``ge_mlir.export_graph``): one module or stage to a file;
* :func:`read_graph` / :func:`graph_of`: the plain graph (nodes, tensors, edges, stable ids)
  every format is written from (:mod:`.model`);
* :func:`to_dot`, :func:`render_svg` (Graphviz), :func:`to_json` (+ :data:`SCHEMA`),
  :func:`to_onnx` (ge ops back to standard ONNX ops, fused ones expanded or kept in the
  ``ge`` domain);
* :func:`diff_graphs`: which ops a pass (or a stage) removed, added or changed;
* :class:`GraphDumper`: the dumps of ``ge-compile --dump-graph`` and ``GE_MLIR_DUMP_GRAPH``.

Layer 4 (docs/architecture.md): it reads IR through ``ge_mlir.irutils`` and parses text through
``ge_mlir.api``; ``compile`` (layer 6) and the tools (layer 7) call it. Formats and the JSON
schema: docs/graphs.md.
"""

from .diff import GraphDiff, NodeChange, diff_graphs
from .dot import GRAPHVIZ_HINT, dot_available, render_svg, to_dot
from .dump import GraphDumper
from .export import FORMATS, export_graph, graph_of
from .json_format import SCHEMA, to_json
from .model import Edge, FunctionGraph, GraphSnapshot, SnapshotNode, Tensor, op_locations, read_graph
from .onnx_export import to_onnx

__all__ = [
    "FORMATS", "GRAPHVIZ_HINT", "SCHEMA", "Edge", "FunctionGraph", "GraphDiff", "GraphDumper", "GraphSnapshot",
    "NodeChange", "SnapshotNode", "Tensor", "diff_graphs", "dot_available", "export_graph", "graph_of",
    "op_locations", "read_graph", "render_svg", "to_dot", "to_json", "to_onnx",
]
