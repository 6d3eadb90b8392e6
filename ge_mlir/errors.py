"""The ge_mlir exception hierarchy.

Every failure reachable from the Python API or the command-line tools is one of
these, carrying the MLIR diagnostics (severity, location, message, notes) that
explain it. Nothing in ge_mlir lets bad input reach an MLIR abort: inputs are
parsed and verified before any pass runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence


def file_line_col(loc: Any) -> tuple[str, int, int] | None:
    """(file, line, col) of the first file location inside ``loc``, if any."""
    for _ in range(16):
        if loc.is_a_file():
            return str(loc.filename), int(loc.start_line), int(loc.start_col)
        if loc.is_a_name():
            loc = loc.child_loc
        elif loc.is_a_callsite():
            loc = loc.callee
        elif loc.is_a_fused() and len(loc.locations):
            loc = loc.locations[0]
        else:
            return None
    return None


def node_name(loc: Any) -> str | None:
    """The first name inside ``loc``: the graph node an op came from (the ONNX
    importer locates ops at ``fused<"OpType">["node name"]``), if any."""
    for _ in range(16):
        if loc.is_a_name():
            return str(loc.name_str)
        if loc.is_a_fused() and len(loc.locations):
            loc = loc.locations[0]
        elif loc.is_a_callsite():
            loc = loc.callee
        else:
            return None
    return None


def format_location(loc: Any) -> str:
    """`file:line:col` (with the node name for named locations) or MLIR's form."""
    try:
        flc = file_line_col(loc)
        name = str(loc.name_str) if loc.is_a_name() else None
    except Exception:  # pragma: no cover - exotic locations
        return str(loc)
    if flc is None:
        return name if name else str(loc)
    text = f"{flc[0]}:{flc[1]}:{flc[2]}"
    return f"{text} ({name})" if name else text


@dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic, detached from its (possibly dead) context."""

    severity: str
    location: str
    message: str
    notes: tuple["Diagnostic", ...] = field(default_factory=tuple)

    @staticmethod
    def from_mlir(diag: Any) -> "Diagnostic":
        sev = str(diag.severity).rsplit(".", 1)[-1].lower()
        return Diagnostic(
            severity=sev,
            location=format_location(diag.location),
            message=str(diag.message),
            notes=tuple(Diagnostic.from_mlir(n) for n in diag.notes),
        )

    def format(self, indent: str = "") -> str:
        text = f"{indent}{self.location}: {self.severity}: {self.message}"
        for note in self.notes:
            text += "\n" + note.format(indent + "  ")
        return text


class GeMlirError(Exception):
    """Base class of all ge_mlir errors.

    Attributes:
        message: what went wrong, in one sentence.
        diagnostics: the MLIR diagnostics behind it (may be empty).
        op: the operation name involved, when known (e.g. ``"ge.conv2d"``).
        node: the graph node (ONNX node name) involved, when known.
    """

    def __init__(
        self,
        message: str,
        *,
        diagnostics: Iterable[Diagnostic] = (),
        op: str | None = None,
        node: str | None = None,
    ) -> None:
        self.message = message
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        self.op = op
        self.node = node
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.message]
        if self.op or self.node:
            where = ", ".join(
                x for x in (f"op {self.op}" if self.op else "", f"node {self.node!r}" if self.node else "") if x
            )
            parts[0] += f" ({where})"
        parts += [d.format("  ") for d in self.diagnostics]
        return "\n".join(parts)

    @classmethod
    def from_mlir_error(cls, message: str, err: BaseException, **kw: Any) -> "GeMlirError":
        diags: Sequence[Any] = getattr(err, "error_diagnostics", None) or ()
        converted = [Diagnostic.from_mlir(d) for d in diags]
        if not converted:
            text = getattr(err, "message", None) or str(err)
            converted = [Diagnostic("error", "unknown", text.strip())]
        return cls(message, diagnostics=converted, **kw)


class DialectLoadError(GeMlirError):
    """The native ge dialect library is missing or cannot be loaded."""


class ParseError(GeMlirError):
    """IR text could not be parsed (syntax, unknown op, bad type)."""


class VerificationError(GeMlirError):
    """IR parsed (or was built) but fails the op verifiers."""


class PassPipelineError(GeMlirError):
    """A pass pipeline string is malformed."""


class UnknownPassError(PassPipelineError):
    """A pipeline names a pass that is neither a ge pass nor an upstream pass."""


class PassOptionError(PassPipelineError):
    """A pass option is unknown or its value does not parse."""


class PassFailedError(GeMlirError):
    """A pass ran and signalled failure (see the diagnostics for why)."""


class PassFailure(GeMlirError):
    """Raised inside :meth:`ge_mlir.passes.Pass.run` to fail the pass with a located error."""

    def __init__(self, message: str, *, at: Any = None, reported: bool = False) -> None:
        #: The ``ir.Operation``/``OpView`` the failure is reported at (None: the pass's root).
        self.at = at
        # True when the pass already emitted located errors for each problem.
        self.reported = reported
        super().__init__(message)


class Unsupported(Exception):
    """A lowering does not handle this op instance (internal: the op stays in place, or the
    lowering pass reports the reason at the op). Not a :class:`GeMlirError`: it never leaves a pass.

    ``op`` is the op actually refused when it differs from the one being lowered
    (a member of a fused elementwise chain)."""

    op: Any = None


class CompileError(GeMlirError):
    """The model cannot be compiled (bad input, target, stage or option)."""


class MemoryBudgetError(CompileError):
    """The memory plan of a compiled function exceeds ``CompileOptions.memory_budget_mb``.

    ``arena`` and ``budget`` are bytes; ``point`` is the op position where the most bytes are
    live at once and ``live`` the buffers live there, largest first, as ``(name, bytes)``."""

    def __init__(self, message: str, *, arena: int, budget: int, point: int, live: list) -> None:
        self.arena, self.budget, self.point, self.live = arena, budget, point, live
        super().__init__(message)


class ExecutionError(GeMlirError):
    """A compiled model cannot be built for, or run on, its target (bad inputs included)."""


class ArtefactError(ExecutionError):
    """A saved artefact (``CompiledModel.save``, ``ge_mlir.load``) cannot be written or loaded: not
    an artefact, truncated or corrupt, another format version, another architecture, or code built
    for CPU features this host lacks (``missing``: their names)."""

    def __init__(self, message: str, *, missing: Iterable[str] = (), **kw: Any) -> None:
        self.missing: tuple[str, ...] = tuple(missing)
        super().__init__(message, **kw)


class PlanError(GeMlirError):
    """A memory plan is wrong: two buffers live at once share bytes, a buffer lies outside
    the arena or has no (or a misaligned) offset. Raised by the independent plan checker."""


class GraphExportError(GeMlirError):
    """A graph cannot be exported in the asked format (``ge_mlir.export_graph``, graph dumps):
    an unknown format, a stage the format cannot represent, or Graphviz missing for SVG."""


class GraphEditError(GeMlirError):
    """An edit through the graph view (``ge_mlir.passes.graph_view``) is refused because it
    would leave invalid IR: removing a node whose results are still used, replacing a value by
    one of another type or one defined later, creating an op with wrong operands or
    attributes, an attribute value the op's verifier rejects, or a function that no longer
    verifies at the end of a graph pass. ``node`` names the node (its ONNX name when known),
    ``op`` its ge op; ``diagnostics`` are MLIR's, when MLIR was asked. The message itself
    names the node and says why, so they are not repeated after it."""

    def __str__(self) -> str:
        return "\n".join([self.message] + [d.format("  ") for d in self.diagnostics])


class ImportError_(GeMlirError):
    """A framework model could not be imported (base of front-end errors)."""


class OnnxImportError(ImportError_):
    """An ONNX model is malformed or a node cannot be converted."""


class InvalidModelError(OnnxImportError):
    """The model is not valid ONNX (onnxruntime would refuse it too): the ONNX
    checker fails, an attribute is outside its domain, an initializer's data
    does not match its declared type/shape, a value is dangling or written
    twice, a declared output type differs from the computed one, a size
    overflows. Distinct from :class:`UnsupportedOpsError` (valid ONNX that
    ge-mlir cannot import yet)."""


class UnsupportedOpsError(OnnxImportError):
    """The model uses op types (or opset versions) the importer does not support.

    ``unsupported`` maps ``(domain, op_type, opset)`` to the node names using it;
    the message lists every one of them, not only the first.
    """

    def __init__(self, unsupported: dict, refusals: list | None = None,
                 needs_constant: list | None = None) -> None:
        self.unsupported = unsupported
        self.refusals = refusals or []
        #: Graph inputs that would import if frozen (``constant_inputs=``).
        self.needs_constant = needs_constant or []
        lines = []
        for (domain, op_type, opset), nodes in sorted(unsupported.items()):
            dom = f"{domain}::" if domain else ""
            shown = ", ".join(repr(n) for n in nodes[:5]) + (", ..." if len(nodes) > 5 else "")
            lines.append(f"  {dom}{op_type} (opset {opset}): {len(nodes)} node(s): {shown}")
        for node, op_type, reason in self.refusals:
            lines.append(f"  {op_type} node {node!r}: {reason}")
        count = len(unsupported) + len(self.refusals)
        super().__init__(f"model cannot be imported: {count} unsupported op type(s)/node(s)\n" + "\n".join(lines))


class TrainingError(GeMlirError):
    """A training step cannot be traced or compiled as asked (``ge_mlir.training``): an optimizer
    other than SGD or AdamW, an option of it that is not reproduced (``capturable``,
    ``differentiable``, ``fused``, ``maximize``, an lr scheduler), a buffer the forward pass mutates
    other than batch norm's running statistics, a batch that does not split into the asked
    microbatches, or optimizer state that does not fit the traced step. The message names the
    option, parameter or buffer."""
