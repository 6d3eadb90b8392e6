"""The memory estimate's result (:class:`MemoryEstimate`): the figures, the buffers that make
them (:class:`BufferEstimate`), and their table and JSON forms."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from .report import format_bytes

__all__ = ["TOP", "BufferEstimate", "MemoryEstimate"]

#: Top-N lists of the estimate.
TOP = 10


@dataclass(frozen=True)
class BufferEstimate:
    """One buffer of the estimate: a ge tensor (``kind == "activation"``) or lowering scratch."""

    #: The ONNX node the op comes from (else its location).
    name: str
    #: The ge op (``ge.conv2d``).
    op: str
    #: ``activation``, or what the scratch holds (``im2col``, ``accumulator``, ``padded input`` ...).
    kind: str
    size: int
    #: Shape and element type (``1x64x112x112xf32``).
    type: str
    #: Index of the ge op (in the function's entry block) where it becomes live, and of its last use.
    start: int
    end: int
    #: With in-place reuse, whose bytes it takes over: the node name of a dying input tensor, or the
    #: kind of its own op's scratch (``accumulator``); else empty.
    reuses: str = ""
    #: A tensor its producer writes straight into a consumer's padded buffer: that buffer's type.
    padded: str = ""


@dataclass
class MemoryEstimate:
    """What the compiled model will need in memory, estimated on the ge graph before lowering.

    Sizes are bytes. ``activation_peak + workspace`` (:attr:`arena`) estimates the arena of
    the CPU memory plan (``CompiledModel.memory_plan["arena"]``); :attr:`total` adds the
    weights and the caller's input and output buffers.
    """

    #: The function estimated.
    function: str
    #: Bytes of the constants (weights, initializers).
    weights: int
    #: Bytes of the function's arguments and results (the caller's buffers).
    inputs: int
    outputs: int
    #: The arena the planner gives the ge tensors alone (their live ranges; alignment below).
    activation_peak: int
    #: What the lowering's scratch buffers add to that arena when planned with the tensors.
    workspace: int
    #: Most bytes live at once (tensors and scratch, each rounded to the alignment): no plan is smaller.
    lower_bound: int
    #: The largest single scratch buffer.
    largest_scratch: int
    #: Where the most bytes are live: ge op index, the op (``ge.conv2d``), its node name, and the step of its lowering.
    peak_index: int
    peak_op: str
    peak_name: str
    peak_step: str
    #: The buffers live there, largest first.
    peak_buffers: list[BufferEstimate]
    #: The largest ge tensors (at most 10), largest first, and the largest scratch buffers.
    top_activations: list[BufferEstimate]
    top_workspace: list[BufferEstimate]
    #: Counts: ge ops of the function (without the terminator), tensors planned, scratch buffers.
    ops: int
    tensors: int
    scratch_buffers: int
    #: Options the estimate was made with, and the strategy whose placement gave the arena.
    in_place: bool = True
    alignment: int = 64
    strategy: str = ""
    #: Seconds the estimate took (the graph already imported and optimized), and the import and
    #: optimization before it (``ge_mlir.estimate_memory``; 0 when given a module).
    seconds: float = 0.0
    import_seconds: float = 0.0
    #: A training step's estimate split into saved activations, gradients, workspace, parameters,
    #: optimizer states... (:class:`ge_mlir.memory.training.TrainingMemory`); None for other graphs.
    training: Any = None

    @property
    def arena(self) -> int:
        """Estimated arena of the CPU plan: activation peak + workspace."""
        return self.activation_peak + self.workspace

    @property
    def total(self) -> int:
        """Weights + inputs + outputs + arena: the bytes one call of the compiled model touches."""
        return self.weights + self.inputs + self.outputs + self.arena

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["arena"], d["total"] = self.arena, self.total
        return d

    def to_json(self, indent: int | None = 2) -> str:
        """The estimate as JSON (every field, plus ``arena`` and ``total``), keys in a stable order."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True) + "\n"

    def table(self) -> str:
        """A plain-text table: each size in a human unit and in bytes, then the largest tensors."""
        rows = [
            ("weights", self.weights, "constants (initializers)"),
            ("inputs", self.inputs, "the caller's input buffers"),
            ("outputs", self.outputs, "the caller's output buffers"),
            ("activation peak", self.activation_peak, f"planned arena of {self.tensors} ge tensors"),
            ("workspace", self.workspace, f"{self.scratch_buffers} lowering scratch buffers add this "
                                          f"(largest {format_bytes(self.largest_scratch)})"),
            ("arena", self.arena, "activation peak + workspace (estimates the CPU plan's arena)"),
            ("total", self.total, "weights + inputs + outputs + arena"),
        ]
        label_w = max(len(r[0]) for r in rows)
        human_w = max(len(format_bytes(r[1])) for r in rows)
        bytes_w = max(len(str(r[1])) for r in rows)
        out = [f"memory estimate of @{self.function}: {self.ops} ge ops, "
               f"{'in-place reuse' if self.in_place else 'no in-place reuse'}, alignment {self.alignment}"]
        out += [f"  {label:<{label_w}}  {format_bytes(n):>{human_w}}  {n:>{bytes_w}} B  {note}"
                for label, n, note in rows]
        out.append(f"  peak at op #{self.peak_index} {self.peak_op} {self.peak_name} ({self.peak_step}): "
                   f"{format_bytes(self.lower_bound)} live")
        for b in self.peak_buffers[:TOP]:
            out.append(f"    {format_bytes(b.size):>10}  {b.kind:<16} {b.type:<22} {b.op} {b.name}")
        out.append("  largest activations:")
        for i, b in enumerate(self.top_activations, 1):
            note = (f" (in place of {b.reuses})" if b.reuses else "") + \
                (f" (written into the padded {b.padded})" if b.padded else "")
            out.append(f"  {i:>3}. {format_bytes(b.size):>10}  {b.type:<22} ops {b.start}-{b.end}  "
                       f"{b.op} {b.name}{note}")
        if self.top_workspace:
            out.append("  largest scratch buffers:")
            for i, b in enumerate(self.top_workspace, 1):
                out.append(f"  {i:>3}. {format_bytes(b.size):>10}  {b.kind:<16} {b.type:<22} op {b.start}  "
                           f"{b.op} {b.name}")
        if self.training is not None:
            out += ["  " + line for line in str(self.training).rstrip("\n").splitlines()]
        return "\n".join(out) + "\n"

    __str__ = table
