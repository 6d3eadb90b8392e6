"""The memory of a training step by category: saved activations, gradients, optimizer states, workspace.

A training step compiled as one graph (``ge_mlir.training.compile_train_step``) runs a forward
pass, a backward pass and an optimizer update. Each op of the traced step has a *phase*
(``forward``, ``backward``, ``update``; the FX importer records them on the function as
:data:`PHASES_ATTR`, node name -> phase, and every op is located at its FX node). This module
splits a memory plan (``CompiledModel.memory_plan``: buffers with names and live ranges) or an
estimate's buffers into:

* **saved activations**: buffers of forward ops whose live range reaches into the backward pass
  (a backward buffer, or a recomputed copy, starts while they are live): what the forward pass
  keeps for the backward pass;
* **gradients**: buffers of backward ops live while the optimizer update runs (an update buffer
  starts while they are live): what the backward pass hands to the update;
* **workspace**: every other byte of the arena (temporaries of each phase, recomputed copies,
  fragmentation);
* and, outside the arena (the caller's arguments and results, from the step's layout):
  parameters, optimizer states, buffers (batch norm's running statistics), the batch, and the
  step's outputs (the loss, the new parameters, states and buffers).

Saved activations and gradients are given twice: at the program point where the arena's live
bytes peak (so that ``saved + gradients + workspace == arena``), and as their own peaks over the
program (``saved_peak``: what recompute lowers). The split itself is pure Python on plain dicts;
:func:`read_phases` and :func:`argument_bytes` read the step's function.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .._format import format_bytes

__all__ = ["ARG_KINDS_ATTR", "PHASES_ATTR", "RECOMPUTE_SUFFIX", "TrainingMemory", "argument_bytes", "phase_of",
           "read_phases", "training_memory"]

#: Function attribute of an imported training step: ``{phase: [FX node names]}``.
PHASES_ATTR = "ge.step_phases"
#: Function attribute of an imported training step: the kind of each argument (``param``,
#: ``state``, ``buffer``, ``batch``: ``TracedStep.inputs``).
ARG_KINDS_ATTR = "ge.step_arg_kinds"
#: Location name suffix of a recomputed copy (``ge-rematerialize``): ``"<node>/recompute"``.
RECOMPUTE_SUFFIX = "/recompute"

_ARG_KINDS = ("parameters", "optimizer_states", "buffers", "batch", "outputs")


def phase_of(name: str, phases: Mapping[str, str]) -> str | None:
    """The phase of the buffer or op named ``name``: ``recompute`` for a recomputed copy."""
    if RECOMPUTE_SUFFIX in name:
        return "recompute"
    return phases.get(name)


@dataclasses.dataclass
class TrainingMemory:
    """Bytes of a training step by category (module doc)."""

    arena: int
    saved_activations: int       # at the arena's peak point
    gradients: int               # at the arena's peak point
    workspace: int               # arena - saved_activations - gradients
    saved_peak: int              # most saved-activation bytes live at one point
    gradient_peak: int           # most gradient bytes live at one point
    peak_point: int
    saved_buffers: int           # how many buffers are saved activations
    parameters: int = 0
    optimizer_states: int = 0
    buffers: int = 0
    batch: int = 0
    outputs: int = 0
    #: ``memory_plan["recompute"]`` when recompute ran: extra FLOPs, what was recomputed.
    recompute: dict | None = None
    #: The saved-activation peak of the same step without recompute, when known.
    saved_peak_without_recompute: int | None = None

    @property
    def total(self) -> int:
        return self.arena + sum(getattr(self, k) for k in _ARG_KINDS)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "TrainingMemory":
        """The inverse of :meth:`to_dict` (``memory_plan["training"]``)."""
        return cls(**{k: v for k, v in d.items() if k != "total"})

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "total": self.total}

    def table(self) -> str:
        def row(label: str, n: int, note: str = "") -> str:
            return f"  {label:<26}{format_bytes(n):>12}  {n:>11} B  {note}".rstrip()

        lines = ["training step memory (arena split at its peak, program point "
                 f"{self.peak_point})",
                 row("saved activations", self.saved_activations,
                     f"peak over the step {format_bytes(self.saved_peak)} in {self.saved_buffers} buffers"),
                 row("gradients", self.gradients, f"peak over the step {format_bytes(self.gradient_peak)}"),
                 row("workspace", self.workspace, "temporaries, recomputed copies, fragmentation"),
                 row("arena", self.arena, "planned intermediates (the three above)"),
                 row("parameters", self.parameters, "arguments"),
                 row("optimizer states", self.optimizer_states, "arguments"),
                 row("buffers", self.buffers, "arguments (batch norm statistics)"),
                 row("batch", self.batch, "arguments"),
                 row("outputs", self.outputs, "results not updated in place (the loss, ...)"),
                 row("total", self.total)]
        if self.recompute:
            rc = self.recompute
            lines.append(f"  recompute: {len(rc.get('recomputed', []))} tensor(s), +{rc.get('extra_flops', 0) / 1e6:.1f} "
                         f"MFLOP ({100 * rc.get('extra_flops_ratio', 0.0):.1f}% of "
                         f"{rc.get('graph_flops', 0) / 1e6:.1f} MFLOP)")
        if self.saved_peak_without_recompute is not None:
            before = self.saved_peak_without_recompute
            saved = before - self.saved_peak
            pct = 100 * saved / before if before else 0.0
            lines.append(f"  saved-activation peak {format_bytes(before)} -> {format_bytes(self.saved_peak)} "
                         f"({format_bytes(saved)}, {pct:.1f}% saved by recompute)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


_KIND_NAMES = {"param": "parameters", "state": "optimizer_states", "buffer": "buffers", "batch": "batch"}


def read_phases(fn: Any) -> dict[str, str]:
    """``{node name: phase}`` from a function's :data:`PHASES_ATTR` (empty when it has none)."""
    from mlir import ir

    if PHASES_ATTR not in fn.attributes:
        return {}
    attr = ir.DictAttr(fn.attributes[PHASES_ATTR])
    out = {}
    for i in range(len(attr)):
        named = attr[i]
        for name in ir.ArrayAttr(named.attr):
            out[ir.StringAttr(name).value] = named.name
    return out


def argument_bytes(fn: Any, in_place: Any = ()) -> dict[str, int]:
    """Bytes of a training step's arguments by kind (:data:`ARG_KINDS_ATTR`) and of its results
    (``outputs``) except those computed in place into an input (``in_place``: result indices,
    ``ge-tie-donated-results``), from the function type (static shapes; others count 0)."""
    from mlir import ir

    from ..irutils.types import tensor_bytes

    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    kinds = ([ir.StringAttr(k).value for k in ir.ArrayAttr(fn.attributes[ARG_KINDS_ATTR])]
             if ARG_KINDS_ATTR in fn.attributes else [])
    out = {k: 0 for k in _ARG_KINDS}
    for i, t in enumerate(ftype.inputs):
        kind = _KIND_NAMES.get(kinds[i] if i < len(kinds) else "", "batch")
        out[kind] += tensor_bytes(t) or 0
    out["outputs"] = sum(tensor_bytes(t) or 0 for k, t in enumerate(ftype.results) if k not in set(in_place))
    return out


def _categories(buffers: Sequence[Mapping[str, Any]], phases: Mapping[str, str]) -> list[str]:
    """``saved``, ``gradient`` or ``workspace`` per buffer."""
    starts: dict[str, list[int]] = {"backward": [], "update": []}
    for b in buffers:
        ph = phase_of(str(b["name"]), phases)
        if ph in ("backward", "recompute"):
            starts["backward"].append(int(b["start"]))
        elif ph == "update":
            starts["update"].append(int(b["start"]))
    for v in starts.values():
        v.sort()

    def reaches(b: Mapping[str, Any], into: str) -> bool:
        import bisect

        s = starts[into]
        i = bisect.bisect_right(s, int(b["start"]))
        return i < len(s) and s[i] <= int(b["end"])

    out = []
    for b in buffers:
        ph = phase_of(str(b["name"]), phases)
        if ph == "forward" and reaches(b, "backward"):
            out.append("saved")
        elif ph == "backward" and reaches(b, "update"):
            out.append("gradient")
        else:
            out.append("workspace")
    return out


def training_memory(plan: Mapping[str, Any], phases: Mapping[str, str],
                    arg_bytes: Mapping[str, int] | None = None) -> TrainingMemory:
    """The plan (``CompiledModel.memory_plan``: ``arena``, ``buffers`` with ``name``, ``size``,
    ``start``, ``end`` and ``inplace_of``) of a training step split by category, with ``phases``
    (FX node name -> phase) and the argument bytes by kind (:data:`_ARG_KINDS`)."""
    buffers = list(plan.get("buffers", []))
    cats = _categories(buffers, phases)
    # A buffer written in place of a dying one takes over its bytes at its first point.
    handed = {(int(b["inplace_of"]), int(b["start"])) for b in buffers if "inplace_of" in b}
    points = sorted({int(b["start"]) for b in buffers} | {int(b["end"]) for b in buffers})
    best = (-1, 0, {"saved": 0, "gradient": 0, "workspace": 0})
    saved_peak = gradient_peak = 0
    for p in points:
        live = {"saved": 0, "gradient": 0, "workspace": 0}
        for i, (b, c) in enumerate(zip(buffers, cats)):
            if int(b["start"]) <= p <= int(b["end"]) and (i, p) not in handed:
                live[c] += int(b["size"])
        total = sum(live.values())
        if total > best[0]:
            best = (total, p, live)
        saved_peak = max(saved_peak, live["saved"])
        gradient_peak = max(gradient_peak, live["gradient"])
    arena = int(plan.get("arena", 0))
    live = best[2]
    args = {k: int((arg_bytes or {}).get(k, 0)) for k in _ARG_KINDS}
    rc = plan.get("recompute") or {}
    return TrainingMemory(arena=arena, saved_activations=live["saved"], gradients=live["gradient"],
                          workspace=arena - live["saved"] - live["gradient"], saved_peak=saved_peak,
                          gradient_peak=gradient_peak, peak_point=best[1],
                          saved_buffers=cats.count("saved"), recompute=plan.get("recompute"),
                          saved_peak_without_recompute=(rc.get("saved_activations") or {}).get("before"), **args)
