"""Graph dumps while compiling: ``ge-compile --dump-graph DIR`` and ``GE_MLIR_DUMP_GRAPH``.

For runs you do not control (a framework calling ``ge_mlir.compile``), the environment
decides, mirroring GE's ``DUMP_GE_GRAPH`` levels:

=====================  =====================================================================
``GE_MLIR_DUMP_GRAPH``  ``1``: stages ``ge`` and ``optimized``; ``2``: also every target stage
                        up to ``bufferized`` (``linalg``, ``bufferized``; ``ascendc``);
                        ``3``: also the graph after every pass of the optimization pipeline
``GE_MLIR_DUMP_DIR``    where (default ``ge_mlir_dump`` in the working directory)
``GE_MLIR_DUMP_FORMAT`` comma-separated formats (default ``dot,json``; ``svg`` needs
                        Graphviz, ``onnx`` applies to the ge stages)
=====================  =====================================================================

Each compile writes into its own folder ``DIR/<function>-<n>/`` (``n`` counts the compiles
of the process that dump there), one file per stage and format, numbered in pipeline order:
``01_ge.dot``, ``02_optimized.json``, ``02_optimized.03_ge-fuse-conv-bn.dot`` (level 3), ...
A format a stage cannot have (ONNX of a lowered stage, SVG without Graphviz) is skipped with
a note in ``DIR/<function>-<n>/skipped.txt``, never an error: a dump must not break a compile.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from mlir import ir

from ..errors import GeMlirError, GraphExportError
from ..passes.pipeline import PipelineElement
from ..passes.registry import Pass
from .export import FORMATS, GE_STAGES, render
from .model import read_graph

__all__ = ["DUMP_DIR_ENV", "DUMP_FORMAT_ENV", "DUMP_LEVEL_ENV", "DumpProbe", "GraphDumper", "LEVEL_STAGES",
           "parse_formats", "parse_stages"]

DUMP_LEVEL_ENV = "GE_MLIR_DUMP_GRAPH"
DUMP_DIR_ENV = "GE_MLIR_DUMP_DIR"
DUMP_FORMAT_ENV = "GE_MLIR_DUMP_FORMAT"
DEFAULT_DIR = "ge_mlir_dump"
DEFAULT_FORMATS = ("dot", "json")
#: The stages each dump level writes (every level adds to the one before; 3 adds passes).
LEVEL_STAGES: dict[int, tuple[str, ...]] = {
    1: ("ge", "optimized"),
    2: ("ge", "optimized", "linalg", "bufferized", "ascendc"),
    3: ("ge", "optimized", "linalg", "bufferized", "ascendc"),
}
_COUNTER = itertools.count(1)


def parse_formats(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"dot,svg"`` -> ``("dot", "svg")``; GraphExportError for an unknown one."""
    items = [s.strip() for s in (text.split(",") if isinstance(text, str) else text) if s.strip()]
    unknown = [s for s in items if s not in FORMATS]
    if unknown or not items:
        raise GraphExportError(f"unknown dump format(s) {', '.join(unknown) or '(none given)'} "
                               f"(formats: {', '.join(FORMATS)})")
    return tuple(dict.fromkeys(items))


def parse_stages(text: str | Sequence[str]) -> tuple[str, ...] | None:
    """``"ge,optimized"`` -> the stages; ``"all"`` -> None (every stage that is MLIR)."""
    items = [s.strip() for s in (text.split(",") if isinstance(text, str) else text) if s.strip()]
    if not items:
        raise GraphExportError("no stage to dump given")
    return None if "all" in items else tuple(dict.fromkeys(items))


class DumpProbe(Pass):
    """Dumps the graph after the pass before it (level 3)."""

    name = "ge-dump-graph"  # type: ignore[assignment]
    summary = "writes the graph after the preceding pass (graph dumps, level 3)"  # type: ignore[assignment]

    def __init__(self, dumper: GraphDumper, index: int, pass_name: str) -> None:
        super().__init__()
        self.dumper, self.index, self.pass_name = dumper, index, pass_name

    def run(self, module: ir.Operation) -> None:
        self.dumper.write(f"optimized.{self.index:02d}_{self.pass_name}", module, graph_stage=True)


class GraphDumper:
    """Writes the graph of the stages it wants, in its formats, into one folder per compile."""

    def __init__(self, directory: str | Path, stages: Sequence[str] | None = ("ge", "optimized"),
                 formats: Sequence[str] = DEFAULT_FORMATS, passes: bool = False) -> None:
        self.root = Path(directory)
        self.stages = None if stages is None else tuple(stages)
        self.formats = parse_formats(formats)
        self.passes = passes
        self.folder: Path | None = None
        self.step = 0
        self.written: list[Path] = []
        self.skipped: list[str] = []

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> GraphDumper | None:
        """The dumper ``GE_MLIR_DUMP_GRAPH``/``_DIR``/``_FORMAT`` ask for, None when off (unset or 0).
        A bad value is an error (GraphExportError), so a typo does not silently dump nothing."""
        env = os.environ if environ is None else environ
        level_text = env.get(DUMP_LEVEL_ENV, "").strip()
        if level_text in ("", "0"):
            return None
        if level_text not in ("1", "2", "3"):
            raise GraphExportError(f"{DUMP_LEVEL_ENV}={level_text!r}: use 1 (ge and optimized), 2 (+ target "
                                   "stages up to bufferized) or 3 (+ after every pass), or 0/unset for none")
        level = int(level_text)
        formats = env.get(DUMP_FORMAT_ENV, "") or ",".join(DEFAULT_FORMATS)
        return cls(env.get(DUMP_DIR_ENV, "") or DEFAULT_DIR, LEVEL_STAGES[level], parse_formats(formats),
                   passes=level >= 3)

    def wants(self, stage: str) -> bool:
        return self.stages is None or stage in self.stages

    def _folder(self, module: ir.Operation | ir.Module) -> Path:
        if self.folder is None:
            top = module.operation if isinstance(module, ir.Module) else module
            name = "graph"
            for op in top.regions[0].blocks[0].operations:
                if op.operation.name in ("func.func", "llvm.func") and "sym_name" in op.operation.attributes:
                    name = ir.StringAttr(op.operation.attributes["sym_name"]).value
                    break
            name = re.sub(r"[^\w.-]", "_", name)[:80] or "graph"
            while True:
                folder = self.root / f"{name}-{next(_COUNTER)}"
                if not folder.exists():
                    break
            folder.mkdir(parents=True)
            self.folder = folder
        return self.folder

    def stage(self, stage: str, module: ir.Module | str) -> None:
        """Called by ``compile`` after each stage (text stages are skipped)."""
        if isinstance(module, str) or not self.wants(stage):
            return
        self.step += 1
        self.write(stage, module, graph_stage=stage in GE_STAGES, number=self.step)

    def write(self, stage: str, module: ir.Module | ir.Operation, graph_stage: bool,
              number: int | None = None) -> None:
        folder = self._folder(module)
        # Pass dumps run inside the optimized stage, before compile reports it: number them as it.
        label = f"{number:02d}_{stage}" if number is not None else f"{self.step + 1:02d}_{stage}"
        stage_name = stage.split(".")[0]
        graph = None
        for fmt in self.formats:
            if fmt == "onnx" and not graph_stage:
                self._skip(f"{label}: onnx (stage {stage_name} is not a ge graph)")
                continue
            path = folder / f"{label}{FORMATS[fmt]}"
            try:
                if fmt in ("dot", "json", "svg"):
                    if graph is None:
                        graph = read_graph(module, stage_name)
                    if fmt == "json":
                        from .json_format import to_json

                        content: str | bytes = to_json(graph)
                    else:
                        from .dot import render_svg, to_dot

                        content = to_dot(graph)
                        if fmt == "svg":
                            content = render_svg(content)
                else:
                    content = render(module, fmt, stage_name if graph_stage else None)
            except GeMlirError as e:
                self._skip(f"{label}: {fmt} ({e.message})")
                continue
            except Exception as e:  # noqa: BLE001 - a dump never breaks the compile it watches
                self._skip(f"{label}: {fmt} (internal error {type(e).__name__}: {e})")
                continue
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content)
            self.written.append(path)

    def _skip(self, why: str) -> None:
        self.skipped.append(why)
        if self.folder is not None:
            with open(self.folder / "skipped.txt", "a") as f:
                f.write(why + "\n")

    def instrument(self, elements: list[PipelineElement]) -> list[PipelineElement]:
        """``elements`` (a report-instrumented pipeline) with a dump after each pass, when
        this dumper dumps passes (level 3, ``--dump-stages passes``); else unchanged."""
        if not self.passes:
            return elements
        out: list[PipelineElement] = []
        index = 0
        for el in elements:
            out.append(el)
            probe = el.ge_pass
            # The report's probes bracket upstream elements: dump after the closing one only.
            if probe is None or (probe.name == "ge-report-probe" and getattr(probe, "start", False)):
                continue
            index += 1
            name = getattr(getattr(probe, "entry", None), "name", None) or probe.name
            name = re.sub(r"[^\w.-]", "_", name)[:60]
            out.append(PipelineElement(DumpProbe.name, DumpProbe(self, index, name)))
        return out

    def summary(self) -> str:
        where = self.folder if self.folder is not None else self.root
        text = f"graph dump: {len(self.written)} file(s) in {where}"
        return text + (f" ({len(self.skipped)} skipped: see skipped.txt)" if self.skipped else "")
