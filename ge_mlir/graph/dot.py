"""Graphviz DOT (and SVG through Graphviz's ``dot``) of a :class:`~ge_mlir.graph.model.GraphSnapshot`.

One box per op: the op, the ONNX node it came from (name and op type, from its location)
and its key attributes (strides, pads, groups, data format, fused activation, axes, ...).
Edges carry the tensor's shape and element type. Constants are not drawn: each user lists
its constant operands (name, shape, dtype, the value when small, the weight's blob name).
A conv2d/matmul/gemm with a fused epilogue is drawn as a cluster (dashed box, labelled
``fused: conv2d + bias + residual + relu``): the core op, then one small node per fused
step, the residual edge entering where it is added. A module with several functions
(partitioned subgraphs, kernels) draws each function as a cluster.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

from ..errors import GraphExportError
from .model import FunctionGraph, GraphSnapshot, SnapshotNode, Tensor

__all__ = ["GRAPHVIZ_HINT", "dot_available", "render_svg", "to_dot"]

#: How to get Graphviz when ``dot`` is missing.
GRAPHVIZ_HINT = ("Graphviz's `dot` program is needed to render SVG: install it with "
                 "`apt-get install graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or "
                 "`conda install graphviz`, or render the .dot file elsewhere "
                 "(`dot -Tsvg graph.dot -o graph.svg`)")

# Fill colours by op family (ge ops by their short name).
_COMPUTE = {"conv2d", "conv_transpose2d", "matmul", "gemm"}
_NORM = {"batch_norm", "layer_norm", "rms_norm", "instance_norm", "softmax", "log_softmax"}
_POOL = {"max_pool2d", "avg_pool2d", "global_avg_pool", "global_max_pool", "resize"}
_MOVE = {"reshape", "transpose", "flatten", "squeeze", "unsqueeze", "concat", "split", "slice", "gather",
         "gather_elements", "scatter_elements", "expand", "tile", "pad", "identity", "cast", "shape"}
_COLORS = {"compute": "#cfe2ff", "norm": "#e2d9f3", "pool": "#d1e7dd", "move": "#e9ecef",
           "layout": "#ffe5b4", "elementwise": "#fff3cd", "other": "#f8f9fa"}
#: Attributes worth a place in a node's label (others are in the JSON export).
_KEY_ATTRS = ("kernel_shape", "strides", "pads", "dilations", "groups", "data_format", "activation",
              "activation_alpha", "axis", "axes", "perm", "keepdims", "epsilon", "alpha", "beta", "trans_a",
              "trans_b", "src_format", "dst_format", "mode", "split_sizes", "starts", "ends", "steps", "shape",
              "repeats", "k", "min", "max", "tanh_approx", "ceil_mode", "fmod", "depth", "reduction")
#: Attribute values that are the op's default, left out of labels.
_DEFAULTS = {"strides": [1, 1], "pads": [0, 0, 0, 0], "dilations": [1, 1], "groups": 1, "data_format": "NCHW",
             "activation": "none", "ceil_mode": False, "keepdims": True, "trans_a": False, "trans_b": False,
             "tanh_approx": False, "fmod": False, "reduction": "none"}
#: Per-op defaults (attributes whose default differs between ops).
_OP_DEFAULTS = {"ge.gemm": {"alpha": 1.0, "beta": 1.0}, "ge.leaky_relu": {"alpha": 0.01},
                "ge.hard_sigmoid": {"alpha": 0.2, "beta": 0.5}, "ge.flatten": {"axis": 1},
                "ge.softmax": {"axis": -1}, "ge.log_softmax": {"axis": -1}}
_MAX_LABEL_VALUE = 40


def _family(node: SnapshotNode) -> str:
    if not node.op.startswith("ge."):
        return "other"
    op = node.short_op
    if op in _COMPUTE:
        return "compute"
    if op in _NORM:
        return "norm"
    if op in _POOL:
        return "pool"
    if op == "trans_data":
        return "layout"
    if op in _MOVE:
        return "move"
    return "elementwise"


def _quote(text: str) -> str:
    """A DOT double-quoted string (``\\n`` line breaks kept as DOT escapes)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        text = ",".join(_fmt(v) for v in value)
    elif isinstance(value, dict):
        text = ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    else:
        text = str(value)
    return text if len(text) <= _MAX_LABEL_VALUE else text[: _MAX_LABEL_VALUE - 3] + "..."


def key_attributes(node: SnapshotNode) -> list[str]:
    """``name=value`` of the attributes a label shows (non-default key attributes of ge ops,
    every short attribute of other ops)."""
    out = []
    if node.op.startswith("ge."):
        for k in _KEY_ATTRS:
            default = _OP_DEFAULTS.get(node.op, {}).get(k, _DEFAULTS.get(k, object()))
            if k in node.attributes and default != node.attributes[k]:
                if k in ("activation", "activation_alpha") and node.fused:
                    continue  # shown by the fused cluster
                out.append(f"{k}={_fmt(node.attributes[k])}")
    else:
        for k, v in node.attributes.items():
            text = _fmt(v)
            if len(text) < _MAX_LABEL_VALUE:
                out.append(f"{k}={text}")
    return out


def _constant_text(const: SnapshotNode, tensor: Tensor) -> str:
    v = const.value or {}
    if "splat" in v:
        return f"{tensor.label} = {_fmt(v['splat'])}" if tensor.shape else f"{_fmt(v['splat'])} ({tensor.dtype})"
    if "values" in v and isinstance(v["values"], list) and len(_fmt(v["values"])) < 24:
        return f"{tensor.label} = [{_fmt(v['values'])}]"
    if "values" in v and not isinstance(v["values"], list):
        return f"{_fmt(v['values'])} ({tensor.dtype})"
    if v.get("resource"):
        return f"{tensor.label} ({v['resource']})"
    if const.op == "tensor.empty":
        return f"{tensor.label} (empty)"
    return tensor.label


class _Writer:
    def __init__(self, graph: GraphSnapshot, rankdir: str) -> None:
        self.graph, self.rankdir = graph, rankdir
        self.lines: list[str] = []

    def emit(self) -> str:
        g = self.graph
        title = g.title + (f" - {g.source}" if g.source else "")
        self.lines += [f"digraph {_quote(g.title)} {{",
                       f'  graph [rankdir={self.rankdir}, fontname="Helvetica", fontsize=12, labelloc=t, '
                       f'label={_quote(title)}, nodesep=0.25, ranksep=0.35];',
                       '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
                       'fillcolor="#f8f9fa", color="#6c757d", margin="0.12,0.05"];',
                       '  edge [fontname="Helvetica", fontsize=9, color="#495057", fontcolor="#343a40"];']
        several = len(g.functions) > 1
        for i, fg in enumerate(g.functions):
            indent = "  "
            if several:
                self.lines.append(f"  subgraph {_quote(f'cluster_fn_{i}')} {{")
                self.lines.append(f'    label={_quote(f"{fg.op} @{fg.name}")}; style="rounded"; color="#adb5bd";')
                indent = "    "
            self._function(fg, indent)
            if several:
                self.lines.append("  }")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def _function(self, fg: FunctionGraph, ind: str) -> None:
        nodes = {n.id: n for n in fg.nodes}
        users: dict[str, int] = {}
        for e in fg.edges:
            users[e.source] = users.get(e.source, 0) + (0 if nodes[e.target].kind == "output" else 1)
        # A constant is folded when every use is an op's operand (not an output, not unused).
        folded = {n.id for n in fg.nodes if n.kind == "constant" and users.get(n.id, 0) > 0
                  and all(nodes[e.target].kind == "op" for e in fg.edges if e.source == n.id)}
        exits: dict[str, str] = {}  # node id -> DOT node the outgoing edges leave from
        entries: dict[tuple[str, int], str] = {}  # (node id, operand) -> DOT node the edge enters
        for n in fg.nodes:
            if n.id in folded:
                continue
            if n.kind in ("input", "output"):
                t = fg.tensors[n.outputs[0] if n.kind == "input" else n.inputs[0]]
                label = f"{n.name}\n{t.label}"
                fill = "#d1e7dd" if n.kind == "input" else "#f8d7da"
                self.lines.append(f'{ind}{n.id} [label={_quote(label)}, shape=ellipse, style=filled, '
                                  f'fillcolor="{fill}"];')
                continue
            label = self._label(n, fg, folded, nodes)
            fill = _COLORS[_family(n)] if n.kind == "op" else "#ffffff"
            shape = ", shape=note" if n.kind == "constant" else ""
            if not n.fused:
                self.lines.append(f'{ind}{n.id} [label={_quote(label)}, fillcolor="{fill}"{shape}];')
                continue
            parts = " + ".join([n.short_op] + n.fused)
            self.lines.append(f"{ind}subgraph {_quote('cluster_' + n.id)} {{")
            self.lines.append(f'{ind}  label={_quote("fused: " + parts)}; style="dashed,rounded"; '
                              f'color="#0d6efd"; fontcolor="#0d6efd"; fontsize=10;')
            self.lines.append(f'{ind}  {n.id} [label={_quote(label)}, fillcolor="{fill}"];')
            prev = n.id
            for part in n.fused:
                pid = f"{n.id}_{part}"
                text = "+ " + part
                if part in ("bias", "residual") and part in n.operand_names:
                    j = n.operand_names.index(part)
                    src = nodes.get(fg.tensors[n.inputs[j]].producer or "")
                    if src is not None and src.id in folded:
                        text += f"\n{_constant_text(src, fg.tensors[n.inputs[j]])}"
                    entries[(n.id, j)] = pid
                elif part not in ("bias", "residual"):
                    text = part
                    if part in ("leaky_relu", "hard_sigmoid") and "activation_alpha" in n.attributes:
                        text += f"\nalpha={_fmt(n.attributes['activation_alpha'])}"
                self.lines.append(f'{ind}  {pid} [label={_quote(text)}, fillcolor="#fff3cd", fontsize=9, '
                                  f'margin="0.08,0.03"];')
                self.lines.append(f"{ind}  {prev} -> {pid} [style=dashed];")
                prev = pid
            exits[n.id] = prev
            self.lines.append(f"{ind}}}")
        for e in fg.edges:
            if e.source in folded:
                continue
            t = fg.tensors[e.tensor]
            src = exits.get(e.source, e.source)
            dst = entries.get((e.target, e.target_index), e.target)
            attrs = [f"label={_quote(t.label)}"]
            src_node = nodes[e.source]
            if len(src_node.outputs) > 1:
                attrs.append(f"taillabel={_quote(str(e.source_index))}")
            self.lines.append(f"{ind}{src} -> {dst} [{', '.join(attrs)}];")

    def _label(self, n: SnapshotNode, fg: FunctionGraph, folded: set[str], nodes: dict[str, SnapshotNode]) -> str:
        lines = [n.short_op if n.kind == "op" or n.short_op == "constant" else f"constant ({n.short_op})"]
        if n.name:
            lines.append(n.name + (f" [{n.source_op}]" if n.source_op else ""))
        elif n.source_op:
            lines.append(f"[{n.source_op}]")
        attrs = key_attributes(n)
        row: list[str] = []
        for a in attrs:  # two or three attributes per line
            if row and len(", ".join(row + [a])) > 44:
                lines.append(", ".join(row))
                row = []
            row.append(a)
        if row:
            lines.append(", ".join(row))
        if n.region_ops:
            lines.append(f"({n.region_ops} ops in region)")
        if n.kind == "constant":
            lines.append(_constant_text(n, fg.tensors[n.outputs[0]]))
        for j, tid in enumerate(n.inputs):
            t = fg.tensors[tid]
            if t.producer in folded and not (n.operand_names[j] in ("bias", "residual")
                                             and n.operand_names[j] in n.fused):
                lines.append(f"{n.operand_names[j]}: {_constant_text(nodes[t.producer], t)}")
        return "\n".join(lines)


def to_dot(graph: GraphSnapshot, rankdir: str = "TB") -> str:
    """The DOT text of ``graph`` (``rankdir``: ``TB`` top to bottom, ``LR`` left to right)."""
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise GraphExportError(f"rankdir must be TB, LR, BT or RL, got {rankdir!r}")
    return _Writer(graph, rankdir).emit()


def dot_available() -> bool:
    """Whether Graphviz's ``dot`` is on PATH."""
    return shutil.which("dot") is not None


def render_svg(dot_text: str, timeout: float = 120.0) -> str:
    """SVG of ``dot_text`` rendered by Graphviz's ``dot`` (GraphExportError saying how to
    install it when it is missing)."""
    exe = shutil.which("dot")
    if exe is None:
        raise GraphExportError(f"cannot render SVG: {GRAPHVIZ_HINT}")
    try:
        done = subprocess.run([exe, "-Tsvg"], input=dot_text, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise GraphExportError(f"Graphviz dot took more than {timeout:g} s to lay the graph out; "
                               "export DOT and render a smaller part") from None
    if done.returncode != 0:
        raise GraphExportError(f"Graphviz dot failed (exit {done.returncode}): {done.stderr.strip()[:500]}")
    return done.stdout
