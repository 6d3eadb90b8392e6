"""ge-plan-device-memory: the intermediate global-memory tensors of the ``ascendc.host`` program
share one device arena, with offsets from the memory planner.

Every ``ascendc.gm_alloc`` (an intermediate tensor; the host's arguments are the graph's
inputs and outputs, ``gm_constant`` holds weights, and neither is ever planned) is live from
the first to the last ``ascendc.launch`` that uses it, counted in launch order. Tensors whose
launch ranges do not intersect may share bytes: the launches run one after another on one
stream, so a kernel that writes a tensor starts after every kernel that read the tensor
before it in those bytes has finished. The offsets come from
:func:`ge_mlir.memory.planner.plan` (``strategy=aggressive``: the smallest arena of every
strategy), the same planner and checker as the CPU target's ``ge-plan-memory``.

Each tensor reserves the documented piece of a carved-up ``aclrtMalloc`` block,
``ALIGN_UP(bytes, 32) + 32`` bytes, at an offset that is a multiple of the SoC preset's
``gm_align`` (64 B; ``ge_mlir.target.ascendc.socs``). Every plan is verified by the
independent checker (:func:`ge_mlir.memory.checker.check_plan`) before anything is written.

Results: an ``offset`` (i64, bytes into the arena) on each ``gm_alloc`` and the plan on the
``ascendc.host`` as ``ge.memory_plan`` (the CPU target's keys: ``arena``, ``strategy``,
``arenas``, ``no_reuse``, ``lower_bound``, ``op_bound`` and per tensor ``name``, ``size`` (its
exact bytes), ``offset``, ``start``, ``end`` (launch indices); the bounds count the reserved
bytes). The emitter then allocates the arena once and points every intermediate into it
(``host.cpp``); without the plan it allocates each tensor on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir

from ...errors import PassFailure, PlanError
from ...passes.registry import Option, Pass, register_pass
from ...memory.buffers import Buffer, Plan
from ...memory.checker import check_plan
from ...memory.ge_plan_memory import MEMORY_PLAN_ATTR
from ...memory.planner import STRATEGIES, lower_bound, no_reuse, plan
from .socs import gm_align, gm_segment_bytes

__all__ = ["OFFSET_ATTR", "DeviceTensor", "check_device_plan", "device_tensors"]

#: ``gm_alloc`` attribute: the tensor's byte offset in the host program's device arena.
OFFSET_ATTR = "offset"
_INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class DeviceTensor:
    """One intermediate tensor of a host program: its ``gm_alloc``, exact bytes, launch range
    (inclusive launch indices) and a name for reports (``<kernel>.<argument>`` of its first launch,
    with `` (launch k)`` when an earlier tensor already has that name)."""

    op: ir.Operation
    nbytes: int
    start: int
    end: int
    name: str
    #: The launches that use it (none for a ``gm_alloc`` nothing uses: it is still placed, live at
    #: the launch after it).
    launches: frozenset[int]

    def buffer(self, i: int) -> Buffer:
        """The planner's view of this tensor: the documented arena piece it reserves."""
        return Buffer(i, gm_segment_bytes(self.nbytes), self.start, self.end, self.name)


def device_tensors(host: ir.Operation, kernels: dict[str, ir.Operation]) -> list[DeviceTensor]:
    """The ``gm_alloc`` tensors of ``host`` in op order, with live ranges in launch order.

    Raises ValueError naming the op when a ``gm_alloc`` result is used by anything but a launch."""
    launch_index: dict[ir.Operation, int] = {}
    allocs: list[tuple[ir.Operation, int]] = []
    for o in host.regions[0].blocks[0].operations:
        op = o.operation
        if op.name == "ascendc.launch":
            launch_index[op] = len(launch_index)
        elif op.name == "ascendc.gm_alloc":
            allocs.append((op, len(launch_index)))
    tensors: list[DeviceTensor] = []
    seen: set[str] = set()
    for op, next_launch in allocs:
        first: tuple[int, ir.Operation, int] | None = None
        points = []
        for use in op.results[0].uses:
            owner = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
            if owner not in launch_index:
                raise ValueError(f"a gm_alloc result is used by '{owner.name}', not by a launch")
            k = launch_index[owner]
            points.append(k)
            if first is None or k < first[0]:
                first = (k, owner, use.operand_number)
        nbytes = ir.IntegerAttr(op.attributes["bytes"]).value
        if first is None:
            tensors.append(DeviceTensor(op, nbytes, next_launch, next_launch, "unused gm_alloc", frozenset()))
            continue
        name = _tensor_name(first[1], first[2], kernels)
        if name in seen:  # a kernel launched more than once: say which launch wrote it first
            name = f"{name} (launch {first[0]})"
        seen.add(name)
        tensors.append(DeviceTensor(op, nbytes, min(points), max(points), name, frozenset(points)))
    return tensors


def _tensor_name(launch: ir.Operation, position: int, kernels: dict[str, ir.Operation]) -> str:
    kname = ir.FlatSymbolRefAttr(launch.attributes["kernel"]).value
    kernel = kernels.get(kname)
    names = None
    if kernel is not None and "arg_names" in kernel.attributes:
        try:
            names = [ir.StringAttr(a).value for a in ir.ArrayAttr(kernel.attributes["arg_names"])]
        except (ValueError, TypeError):
            names = None
    arg = names[position] if names is not None and position < len(names) else f"a{position}"
    return f"{kname}.{arg}"


def check_device_plan(tensors: list[DeviceTensor], offsets: list[int], arena: int, alignment: int) -> None:
    """Raises :class:`~ge_mlir.errors.PlanError` when ``offsets`` (one per tensor) are not a valid
    arena layout: the independent checker on the reserved pieces."""
    buffers = [t.buffer(i) for i, t in enumerate(tensors)]
    check_plan(buffers, Plan({i: off for i, off in enumerate(offsets)}, arena, alignment, "given"))


@register_pass
class GePlanDeviceMemoryPass(Pass):
    name = "ge-plan-device-memory"
    summary = "Intermediate global-memory tensors of the ascendc host program to offsets in one device arena"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("ascendc",)
    options = (
        Option("alignment", int, 0, "byte alignment of every tensor in the arena; 0: the SoC preset's gm_align "
               "(64, aclrtMalloc's documented rule); else a multiple of it"),
        Option("strategy", str, "aggressive",
               "aggressive (the smallest arena of every strategy) or one of: " + ", ".join(STRATEGIES)),
        Option("work-limit", float, 0.1, "how long the exact strategy may search per host program (CP-SAT work)"),
    )

    def run(self, module: ir.Operation) -> None:
        from ...dialects.ascendc import TargetAttr

        target = module.attributes["ascendc.target"] if "ascendc.target" in module.attributes else None
        soc = TargetAttr(target).soc if target is not None and TargetAttr.isinstance(target) else None
        base = gm_align(soc)
        alignment = self.opt("alignment") or base
        if alignment < 1 or alignment % base:
            raise PassFailure(f"alignment must be a positive multiple of {base} (the SoC's device-memory "
                              f"alignment), got {alignment}")
        strategy = self.opt("strategy")
        if strategy != "aggressive" and strategy not in STRATEGIES:
            raise PassFailure(f"unknown strategy {strategy!r} (aggressive, {', '.join(STRATEGIES)})")
        block = module.regions[0].blocks[0]
        kernels = {ir.StringAttr(o.operation.attributes["sym_name"]).value: o.operation
                   for o in block.operations if o.operation.name == "ascendc.kernel"}
        with module.context, ir.Location.unknown():
            for o in block.operations:
                if o.operation.name == "ascendc.host":
                    self.bump("rewrites", self._plan_host(o.operation, kernels, alignment, strategy))

    def _plan_host(self, host: ir.Operation, kernels: dict[str, ir.Operation], alignment: int,
                   strategy: str) -> int:
        try:
            tensors = device_tensors(host, kernels)
        except ValueError as e:
            raise PassFailure(str(e), at=host) from None
        buffers = [t.buffer(i) for i, t in enumerate(tensors)]
        if no_reuse(buffers, alignment) > _INT64_MAX:
            strategy = "greedy-by-size"  # beyond int64 only the pure-Python first fit can place them
        result = plan(buffers, alignment=alignment, strategy=strategy, work_limit=self.opt("work-limit"))
        # A planner bug fails the compile here instead of corrupting tensors on the device.
        try:
            check_plan(buffers, result)
        except PlanError as e:
            raise PassFailure(f"internal error: the device memory plan of @{_symbol(host)} is wrong: {e}",
                              at=host) from None
        if result.arena > _INT64_MAX:
            raise PassFailure(f"the device arena of @{_symbol(host)} would need {result.arena} bytes "
                              f"({result.arena / 2**30:.1f} GiB), more than int64 can address", at=host)
        i64 = ir.IntegerType.get_signless(64)
        for i, t in enumerate(tensors):
            t.op.attributes[OFFSET_ATTR] = ir.IntegerAttr.get(i64, result.offsets[i])
        # Each launch needs every planned tensor it touches at once, in any launch order.
        touched: dict[int, int] = {}
        for t, b in zip(tensors, buffers):
            for k in t.launches:
                touched[k] = touched.get(k, 0) + -(-b.size // alignment) * alignment
        host.attributes[MEMORY_PLAN_ATTR] = _to_attr({
            "arena": result.arena, "strategy": result.strategy, "arenas": dict(result.arenas),
            "no_reuse": no_reuse(buffers, alignment), "lower_bound": lower_bound(buffers, alignment),
            "op_bound": max(touched.values(), default=0),
            "buffers": [{"name": t.name, "size": t.nbytes, "offset": result.offsets[i], "start": t.start,
                         "end": t.end} for i, t in enumerate(tensors)],
        })
        self.bump("arena-bytes", result.arena)
        return len(tensors)


def _symbol(op: ir.Operation) -> str:
    return ir.StringAttr(op.attributes["sym_name"]).value


def _to_attr(value: Any) -> ir.Attribute:
    """Python ints, strings, dicts and lists as builtin attributes (ints as i64)."""
    if isinstance(value, bool):
        raise TypeError("booleans are not part of a memory plan")
    if isinstance(value, int):
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
    if isinstance(value, str):
        return ir.StringAttr.get(value)
    if isinstance(value, dict):
        return ir.DictAttr.get({k: _to_attr(v) for k, v in value.items()})
    return ir.ArrayAttr.get([_to_attr(v) for v in value])
