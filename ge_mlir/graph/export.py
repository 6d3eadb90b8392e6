"""``ge_mlir.export_graph``: a module (or a stage of a compiled model) to DOT, SVG, JSON or ONNX."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from mlir import ir

from ..errors import GraphExportError
from .model import GraphSnapshot, read_graph

__all__ = ["FORMATS", "export_graph", "graph_of", "module_of", "render"]

#: Export formats and their file suffixes.
FORMATS: dict[str, str] = {"dot": ".dot", "svg": ".svg", "json": ".json", "onnx": ".onnx"}
#: Stages whose IR is a ge graph (the only ones ONNX export reads).
GE_STAGES = ("ge", "optimized")


def _is_compiled(obj: Any) -> bool:
    return hasattr(obj, "_ir") and callable(getattr(obj, "ir", None)) and hasattr(obj, "compile_to")


@contextmanager
def module_of(obj: Any, stage: str | None = None) -> Iterator[tuple[ir.Module | ir.Operation, str | None,
                                                                     list[str] | None]]:
    """``(module, stage, locations)`` for anything :func:`export_graph` takes, inside a context
    that lives as long as the ``with`` block when the module had to be parsed."""
    from ..api import parse_file, parse_module

    if _is_compiled(obj):
        if stage is None:
            stage = "optimized" if "optimized" in obj.stages else obj.compile_to
        try:
            text = obj.ir(stage)
        except Exception as e:  # CompileError: unknown or unreached stage
            raise GraphExportError(str(e)) from None
        locations = getattr(obj, "_locations", {}).get(stage)
        with ir.Context(), ir.Location.unknown():
            try:
                # Printed by MLIR itself: parsed without parse_module's shape-literal scan (seconds on
                # the hex of large weights).
                module = ir.Module.parse(text)
            except ir.MLIRError as e:
                first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                raise GraphExportError(f"stage {stage!r} of this compile is not MLIR the graph export can read "
                                       f"({first}); export an earlier stage") from None
            yield module, stage, locations
        return
    if isinstance(obj, (ir.Module, ir.Operation)):
        yield obj, stage, None
        return
    if isinstance(obj, (str, Path)) and str(obj).endswith(".onnx") and "\n" not in str(obj):
        raise GraphExportError(f"{obj} is an ONNX model: compile it first (ge_mlir.compile({str(obj)!r}, "
                               "compile_to='optimized')) and export the compiled model or one of its stages")
    if isinstance(obj, Path) or (isinstance(obj, str) and obj.endswith(".mlir") and "\n" not in obj):
        path = Path(obj)
        if not path.is_file():
            raise GraphExportError(f"no such file: {path}")
        with ir.Context(), ir.Location.unknown():
            yield parse_file(path), stage, None
        return
    if isinstance(obj, str):
        with ir.Context(), ir.Location.unknown():
            yield parse_module(obj), stage, None
        return
    raise GraphExportError(f"cannot export a {type(obj).__name__}: expected a CompiledModel, an mlir.ir.Module, "
                           "IR text or a .mlir path")


def graph_of(obj: Any, stage: str | None = None) -> GraphSnapshot:
    """The :class:`~ge_mlir.graph.model.GraphSnapshot` of anything :func:`export_graph` takes."""
    with module_of(obj, stage) as (module, stage, locations):
        return read_graph(module, stage, locations)


def render(module: ir.Module | ir.Operation, fmt: str, stage: str | None = None,
           locations: list[str] | None = None, *, fused: str = "expand", func_name: str | None = None,
           rankdir: str = "TB") -> str | bytes:
    """``module`` in format ``fmt`` (text for dot/svg/json, serialized bytes for onnx)."""
    if fmt not in FORMATS:
        raise GraphExportError(f"unknown graph format {fmt!r} (formats: {', '.join(FORMATS)})")
    if fmt == "onnx":
        from .onnx_export import to_onnx

        if stage is not None and stage not in GE_STAGES:
            raise GraphExportError(f"ONNX export reads ge graphs (stages {', '.join(GE_STAGES)}), not stage {stage!r}")
        model = to_onnx(module, fused=fused, func_name=func_name, locations=locations,
                        doc=f"ge-mlir {stage} graph" if stage else "ge-mlir graph")
        return model.SerializeToString()
    graph = read_graph(module, stage, locations)
    if fmt == "json":
        from .json_format import to_json

        return to_json(graph)
    from .dot import render_svg, to_dot

    text = to_dot(graph, rankdir)
    return render_svg(text) if fmt == "svg" else text


def export_graph(module_or_compiled: Any, path: str | Path | None = None, format: str | None = None, *,
                 stage: str | None = None, fused: str = "expand", func_name: str | None = None,
                 rankdir: str = "TB") -> str | bytes:
    """Exports the graph of a module, or of one stage of a compiled model.

    Args:
        module_or_compiled: a :class:`~ge_mlir.CompiledModel` (its stage ``stage``, default
            ``optimized``), an ``mlir.ir.Module``, IR text or a ``.mlir`` path.
        path: the file to write (``None``: only return the content).
        format: ``dot``, ``svg`` (Graphviz ``dot`` renders the DOT), ``json`` (schema in
            docs/graphs.md) or ``onnx`` (ge stages only); default: from ``path``'s suffix,
            else ``dot``.
        stage: the stage of a compiled model (for a module: only recorded in the output).
        fused: ONNX: ``expand`` fused ops into standard ops, or keep them ``custom`` (domain ``ge``).
        func_name: ONNX: the function to export when the module has several public ones.
        rankdir: DOT/SVG layout direction (``TB`` or ``LR``).

    Returns the exported text (bytes for ONNX). Raises :class:`~ge_mlir.GraphExportError`.
    """
    if format is None:
        suffix = Path(path).suffix.lower() if path is not None else ""
        format = next((f for f, s in FORMATS.items() if s == suffix), None)
        if format is None:
            if path is not None:
                raise GraphExportError(f"cannot tell the format of {path} (suffixes: "
                                       f"{', '.join(FORMATS.values())}); pass format=")
            format = "dot"
    if format not in FORMATS:
        raise GraphExportError(f"unknown graph format {format!r} (formats: {', '.join(FORMATS)})")
    with module_of(module_or_compiled, stage) as (module, stage, locations):
        content = render(module, format, stage, locations, fused=fused, func_name=func_name, rankdir=rankdir)
    if path is not None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return content
