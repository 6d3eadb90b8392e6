"""ONNX node names and op types read from op locations: the one reader of the importer's convention.

The ONNX importer locates every op it makes at ``fused<"OpType">["node name"]`` (a fused
location whose metadata is the ONNX op type, around a name location), the graph view locates
the nodes it creates the same way, and parsed ``.mlir`` keeps whatever locations the text had
(``loc("name")``, file locations ``loc("model.mlir":3:7)``, ``loc(unknown)``). Fusions keep the
root op's location, and MLIR's folder fuses the locations of merged constants
(``fused[fused<"Constant">["a"], fused<"Constant">["b"]]``).

Each reader takes an ``ir.Location`` or its printed text: records kept after the op is gone
(ge-bisect's rewrite log) and stage IR re-parsed without locations (graph export) hold only the
text. The node name of an ``ir.Location`` comes from the Location API
(:func:`ge_mlir.errors.node_name`, the walker error messages use, which lives in the bottom
layer); the op type is read from the printed text, because the bindings do not expose a fused
location's metadata.
"""

from __future__ import annotations

import re
from typing import Union

from mlir import ir

from ..errors import node_name as _located_node_name

__all__ = ["location_info", "location_names", "node_name", "node_names", "onnx_op_type"]

Loc = Union[ir.Location, str]

#: A string as MLIR prints it (escapes kept).
_STRING = r'"((?:[^"\\]|\\.)*)"'
#: The metadata of a fused location: the op type.
_OP_TYPE = re.compile(r"fused<\s*" + _STRING + r"\s*>")
#: A string opening a fused location's list (group 1) or the whole location (group 2).
_LEADING = re.compile(r"\[\s*" + _STRING + r"|loc\(\s*" + _STRING)
_QUOTED = re.compile(_STRING)
#: ``"file":line:col`` (and its ranges): names no node.
_FILE_LOC = re.compile(_STRING + r"\s*:\s*\d+\s*:\s*\d+(?:\s*to\s*(?:\d+\s*:)?\s*\d+)?")


def _text(loc: Loc) -> str:
    return loc if isinstance(loc, str) else str(loc)


def onnx_op_type(loc: Loc, *, outermost: bool = False) -> str | None:
    """The ONNX op type recorded in ``loc``: the metadata of its first fused location in printed
    order (``loc(fused<"Conv">["conv1"])`` -> ``"Conv"``), None when there is none.

    ``outermost``: only the metadata of ``loc`` itself, not of a location fused into it (a merged
    constant's ``fused[fused<"Constant">[...], ...]`` then has none)."""
    text = _text(loc)
    if outermost:
        m = _OP_TYPE.match(text, 4) if text.startswith("loc(") else None
    else:
        m = _OP_TYPE.search(text)
    return m.group(1) if m else None


def node_names(loc: Loc) -> list[str]:
    """Every node name in ``loc``, in printed order: the strings after the first op type (or all of
    them without one), file locations left out, escapes resolved.

    ``loc(fused<"Conv">["/layer1/conv1/Conv"])`` -> ``["/layer1/conv1/Conv"]``; ``loc("x")`` ->
    ``["x"]``; ``loc("m.mlir":3:7)`` and ``loc(unknown)`` -> ``[]``."""
    text = _text(loc)
    meta = _OP_TYPE.search(text)
    body = _FILE_LOC.sub("", text[meta.end():] if meta else text)
    names = [bytes(m, "utf-8").decode("unicode_escape") if "\\" in m else m for m in _QUOTED.findall(body)]
    return [n for n in names if n]


def node_name(loc: Loc) -> str | None:
    """The node an op came from: the first name in ``loc`` (``ge_mlir.errors.node_name`` for an
    ``ir.Location``; the first of :func:`node_names` for printed text), None when it names none."""
    if isinstance(loc, str):
        names = node_names(loc)
        return names[0] if names else None
    return _located_node_name(loc)


def location_info(loc: Loc) -> tuple[str | None, str | None, list[str]]:
    """(first node name, ONNX op type, every node name) of ``loc`` (:func:`node_names`,
    :func:`onnx_op_type`), as the graph export records them.

    ``loc(fused<"Conv">["/layer1/conv1/Conv"])`` -> ``("/layer1/conv1/Conv", "Conv", [...])``;
    ``loc("x")`` -> ``("x", None, ["x"])``; ``loc(unknown)`` -> ``(None, None, [])``."""
    text = _text(loc)
    names = node_names(text)
    return (names[0] if names else None), onnx_op_type(text), names


def location_names(loc: Loc) -> list[str]:
    """The strings that open ``loc`` or one of its fused lists, as printed (escapes kept), in order:
    what the printed location calls the op. ``loc(fused<"MatMul">["fc1"])`` -> ``["fc1"]``,
    ``loc("lm_head")`` -> ``["lm_head"]``.

    Unlike :func:`node_names`, a file location counts by its file name (``loc("-":3:7)`` ->
    ``["-"]``): ge-partition-tensor's rules match these and name the parts of a split weight after
    the first one, and ge-bisect shows the first as the rewritten op's name."""
    return [a or b for a, b in _LEADING.findall(_text(loc))]
