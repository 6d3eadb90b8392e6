"""The host program: the ``ascendc.host`` op -> ``host.cpp`` (``ge_graph_run``: allocate global memory,
upload inputs, constants and tiling structs, launch the kernels in order, copy the outputs back) and
``runner.cpp`` (a command-line driver of ``ge_graph_run``). The fixed C++ is in templates/host.cpp.in and
templates/runner.cpp.in.

Intermediate tensors (``gm_alloc``): when the host carries a ``ge.memory_plan``
(``ge-plan-device-memory``), one allocation holds all of them and each is ``arena + offset``; the plan is
checked again here (the independent checker, at the SoC's documented alignment), so hand-edited or stale
offsets are an :class:`EmitError`, not corrupted tensors. Around each launch, ``TensorLive``/``TensorDead``
mark where each tensor's live range starts and ends: no-ops on the ACL path, on the CPU shim the registration
that keeps GM accesses checked per tensor inside the arena. Without a plan, each tensor is its own
allocation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from mlir import ir

from ....errors import PlanError
from .common import NUMPY, SIZEOF, Names, arg_names, error, gm_elem, i64, lines_call, render, tiling_fields

if TYPE_CHECKING:
    from ..ge_plan_device_memory import DeviceTensor


@dataclass
class HostArg:
    name: str
    elem: str
    nbytes: int
    shape: list[int]


@dataclass
class Host:
    name: str
    inputs: list[HostArg]
    outputs: list[HostArg]
    code: str
    constants: bytes


def emit_host(host: ir.Operation, kernels: dict[str, ir.Operation], soc: str | None = None) -> Host:
    """``soc``: the module's SoC (its device-memory alignment checks the plan; None: the default SoC's)."""
    name = ir.StringAttr(host.attributes["sym_name"]).value
    num_inputs = i64(host.attributes["num_inputs"])
    block = host.regions[0].blocks[0]
    args = _host_args(host, block, num_inputs)
    program = _Program(kernels, _arena(host, kernels, soc))
    for arg, a in zip(block.arguments, args):
        program.argument(arg, a)
    for o in block.operations:
        program.emit_op(o.operation)
    inputs, outputs = args[:num_inputs], args[num_inputs:]
    code = render(
        "host.cpp.in", graph=name, launch_includes=[f'#include "aclrtlaunch_{k}.h"' for k in program.launched],
        constant_bytes=str(len(program.blob)), inputs=_describe(inputs), outputs=_describe(outputs),
        allocations=program.allocations,
        uploads=[f"  GE_CHECK(ToDevice({program.expr[block.arguments[i]]}, inputs[{i}], {a.nbytes}));"
                 for i, a in enumerate(inputs)] + program.uploads,
        launches=program.launches,
        downloads=[line for j, a in enumerate(outputs) for line in (
            f"  OutputWritten({program.expr[block.arguments[num_inputs + j]]}, {a.nbytes}, {_c_string(a.name)});",
            f"  GE_CHECK(ToHost(outputs[{j}], {program.expr[block.arguments[num_inputs + j]]}, {a.nbytes}));")])
    return Host(name, inputs, outputs, code, bytes(program.blob))


def runner(host: Host) -> str:
    return render("runner.cpp.in", graph=host.name, num_inputs=str(len(host.inputs)),
                  num_outputs=str(len(host.outputs)),
                  input_bytes=", ".join(str(a.nbytes) for a in host.inputs) or "0",
                  output_bytes=", ".join(str(a.nbytes) for a in host.outputs) or "0")


def _describe(args: list[HostArg]) -> str:
    return ", ".join(f"{a.name} ({a.elem}, {a.nbytes} B)" for a in args) or "none"


# ----------------------------------------------------------------------------- arguments


def _host_args(host: ir.Operation, block: ir.Block, num_inputs: int) -> list[HostArg]:
    """Names, element types, byte sizes and shapes of the graph's inputs and outputs (the host's arguments)."""
    arg_bytes = list(ir.DenseI64ArrayAttr(host.attributes["arg_bytes"]))
    nargs = len(block.arguments)
    names = arg_names(host, nargs, [f"input{i}" if i < num_inputs else f"output{i - num_inputs}"
                                    for i in range(nargs)])
    shapes = _arg_shapes(host, nargs)
    args = []
    for i, arg in enumerate(block.arguments):
        elem = gm_elem(arg.type)
        if elem not in NUMPY:  # graph.json names a numpy dtype (none for bf16)
            raise error(host, f"host argument {i} has unsupported type {arg.type}")
        shape = shapes[i] if shapes[i] is not None else [arg_bytes[i] // SIZEOF[elem]]
        if int(np.prod(shape)) * SIZEOF[elem] != arg_bytes[i]:
            raise error(host, f"arg_shapes[{i}] = {shape} does not match {arg_bytes[i]} bytes of {elem}")
        args.append(HostArg(names[i], elem, arg_bytes[i], shape))
    return args


def _arg_shapes(host: ir.Operation, nargs: int) -> list[list[int] | None]:
    """The optional ``arg_shapes`` attribute: per argument a DenseI64ArrayAttr or an array of integers."""
    shapes: list[list[int] | None] = [None] * nargs
    if "arg_shapes" not in host.attributes:
        return shapes
    try:
        arr = ir.ArrayAttr(host.attributes["arg_shapes"])
    except (ValueError, TypeError):
        raise error(host, "arg_shapes must be an array of shapes") from None
    if len(arr) != nargs:
        raise error(host, f"arg_shapes has {len(arr)} entries for {nargs} arguments")
    for i, s in enumerate(arr):
        try:
            shapes[i] = list(ir.DenseI64ArrayAttr(s))
        except (ValueError, TypeError):
            try:
                shapes[i] = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(s)]
            except (ValueError, TypeError):
                raise error(host, f"arg_shapes[{i}] = {s} is not a list of integers") from None
    return shapes


# ----------------------------------------------------------------------------- the device arena


@dataclass
class _Arena:
    """The checked plan of a host's intermediates: arena bytes and, per ``gm_alloc``, offset and tensor."""

    size: int
    no_reuse: int
    strategy: str
    offsets: dict[ir.Operation, int]
    tensors: dict[ir.Operation, DeviceTensor]
    #: Launch index -> the ``gm_alloc`` ops whose live range starts / ends there (empty tensors left out).
    starts: dict[int, list[ir.Operation]]
    ends: dict[int, list[ir.Operation]]


def _arena(host: ir.Operation, kernels: dict[str, ir.Operation], soc: str | None) -> _Arena | None:
    """The host's device-memory plan, checked; None when it has none (each tensor then gets its own
    allocation)."""
    from ....memory.ge_plan_memory import MEMORY_PLAN_ATTR, read_memory_plan
    from ..ge_plan_device_memory import OFFSET_ATTR, check_device_plan, device_tensors
    from ..socs import gm_align

    allocs = [o.operation for o in host.regions[0].blocks[0].operations if o.operation.name == "ascendc.gm_alloc"]
    if MEMORY_PLAN_ATTR not in host.attributes:
        for op in allocs:
            if OFFSET_ATTR in op.attributes:
                raise error(op, f"gm_alloc has an arena '{OFFSET_ATTR}' but the host program has no "
                                f"{MEMORY_PLAN_ATTR} (run ge-plan-device-memory)")
        return None
    try:
        plan = read_memory_plan(host)
        assert plan is not None
    except (KeyError, ValueError, TypeError):
        raise error(host, f"malformed {MEMORY_PLAN_ATTR} (expected the dictionary ge-plan-device-memory "
                          "writes)") from None
    try:
        tensors = device_tensors(host, kernels)
    except ValueError as e:
        raise error(host, str(e)) from None
    offsets = []
    for t in tensors:
        if OFFSET_ATTR not in t.op.attributes or not isinstance(t.op.attributes[OFFSET_ATTR], ir.IntegerAttr):
            raise error(t.op, f"gm_alloc has no integer arena '{OFFSET_ATTR}' although the host program is "
                              "planned (a stale plan: run ge-plan-device-memory again)")
        offsets.append(i64(t.op.attributes[OFFSET_ATTR]))
    try:
        check_device_plan(tensors, offsets, plan["arena"], gm_align(soc))
    except PlanError as e:
        raise error(host, f"the device memory plan ({MEMORY_PLAN_ATTR}) is wrong: {e}") from None
    arena = _Arena(plan["arena"], plan["no_reuse"], plan["strategy"],
                   {t.op: off for t, off in zip(tensors, offsets)}, {t.op: t for t in tensors}, {}, {})
    for t in tensors:
        if t.launches and t.nbytes:
            arena.starts.setdefault(t.start, []).append(t.op)
            arena.ends.setdefault(t.end, []).append(t.op)
    return arena


# ----------------------------------------------------------------------------- body


class _Program:
    """The body of ``ge_graph_run``, built op by op: global-memory buffers, what is copied into them
    before the first launch, and the launches."""

    def __init__(self, kernels: dict[str, ir.Operation], arena: _Arena | None = None) -> None:
        self.kernels = kernels
        self.arena = arena
        self._arena_var: str | None = None
        self._tensor_vars: dict[ir.Operation, str] = {}
        self._launch_index = 0
        self.names = Names(reserved=list(kernels))
        self.expr: dict[ir.Value, str] = {}
        #: The lines that allocate global memory (arguments first) or point into the arena.
        self.allocations: list[str] = []
        #: Constant and tiling uploads (the inputs' come first, from the arguments).
        self.uploads: list[str] = []
        self.launches: list[str] = []
        #: constants.bin: every constant at a 64-byte aligned offset.
        self.blob = bytearray()
        #: Kernels launched, in first-launch order (the legacy flow includes one header per kernel).
        self.launched: list[str] = []
        self._tiling_vars: dict[str, str] = {}

    def _alloc(self, var: str, size: str) -> None:
        self.allocations += [f"  uint8_t* {var} = buffers.Alloc({size});", f"  GE_CHECK({var} != nullptr);"]

    def argument(self, value: ir.Value, arg: HostArg) -> None:
        var = self.names.fresh(arg.name + "Dev", numbered=False)
        self.expr[value] = var
        self._alloc(var, str(arg.nbytes))

    def emit_op(self, op: ir.Operation) -> None:
        if op.name == "ascendc.gm_alloc":
            self.gm_alloc(op)
        elif op.name == "ascendc.gm_constant":
            self.gm_constant(op)
        elif op.name == "ascendc.launch":
            self.launch(op)
        else:
            raise error(op, f"the Ascend C emitter does not support '{op.name}' in a host program")

    def gm_alloc(self, op: ir.Operation) -> None:
        var = self.names.fresh("buf")
        self.expr[op.results[0]] = var
        if self.arena is None:
            self._alloc(var, str(i64(op.attributes["bytes"])))
            return
        if self._arena_var is None:
            # The arena is allocated where the first intermediate is: one aclrtMalloc for all of them.
            self._arena_var = self.names.fresh("arena", numbered=False)
            a = self.arena
            what = f"{len(a.offsets)} intermediate tensor" + ("s" if len(a.offsets) != 1 else "")
            self.allocations.append(f"  // One device allocation for the {what} ({a.strategy}: {a.size} B; "
                                    f"{a.no_reuse} B without reuse).")
            self._alloc(self._arena_var, str(a.size))
        self.allocations.append(f"  uint8_t* {var} = {self._arena_var} + {self.arena.offsets[op]};")
        self._tensor_vars[op] = var

    def gm_constant(self, op: ir.Operation) -> None:
        data = _constant_bytes(op, gm_elem(op.results[0].type))
        var = self.names.fresh("cst")
        self.blob += b"\0" * (-len(self.blob) % 64)
        offset = len(self.blob)
        self.blob += data
        self._alloc(var, str(len(data)))
        self.uploads.append(f"  GE_CHECK(ToDevice({var}, constants.data() + {offset}, {len(data)}));")
        self.expr[op.results[0]] = var

    def launch(self, op: ir.Operation) -> None:
        kname = ir.FlatSymbolRefAttr(op.attributes["kernel"]).value
        kernel = self.kernels.get(kname)
        if kernel is None:
            raise error(op, f"launch of unknown kernel @{kname}")
        args = [self.expr[v] for v in op.operands]
        tiling = tiling_fields(kernel)
        if tiling is not None:
            args.append(self._tiling(kname, tiling))
        blocks = str(i64(kernel.attributes["block_dim"]))
        index = self._launch_index
        self._launch_index += 1
        if self.arena is not None:
            for t in self.arena.starts.get(index, []):
                tensor = self.arena.tensors[t]
                self.launches.append(f"  TensorLive({self._tensor_vars[t]}, {tensor.nbytes}, "
                                     f"{_c_string(tensor.name)});")
        # One launch per build flow: the CPU shim, the legacy flow's aclrtlaunch stubs, the <<<>>> of the ASC flow.
        self.launches.append("#ifdef ASCENDC_CPU_DEBUG")
        self.launches += lines_call("  ", "ICPU_RUN_KF", [kname, blocks] + args)
        self.launches.append("#elif defined(GE_ASCENDC_LEGACY_LAUNCH)")
        self.launches += lines_call("  ", f"ACLRT_LAUNCH_KERNEL({kname})", [blocks, "gStream"] + args)
        self.launches.append("#else")
        # <<<numBlocks, dynUBufSize, stream>>>: the second argument is the dynamic unified-buffer
        # size (0: none); nullptr there is the old l2ctrl form (Corrections 3).
        self.launches += lines_call("  ", f"{kname}<<<{blocks}, 0, gStream>>>", args)
        self.launches.append("#endif")
        if self.arena is not None:
            self.launches += [f"  TensorDead({self._tensor_vars[t]});" for t in self.arena.ends.get(index, [])]
        if kname not in self.launched:
            self.launched.append(kname)

    def _tiling(self, kname: str, fields: list[tuple[str, int]]) -> str:
        """The kernel's tiling struct, built once on the host and passed by value at each launch."""
        if kname not in self._tiling_vars:
            var = self.names.fresh(f"{kname}Tiling", numbered=False)
            self._tiling_vars[kname] = var
            values = ", ".join(str(v) for _, v in fields)
            self.uploads.append(f"  const {kname}_Tiling {var}{{{values}}};")
        return self._tiling_vars[kname]


def _c_string(text: str) -> str:
    """``text`` as a C++ string literal (printable ASCII kept, everything else as octal escapes)."""
    out = []
    for b in text.encode():
        c = chr(b)
        out.append("\\" + c if c in '"\\' else c if 32 <= b < 127 and c != "?" else f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def _constant_bytes(op: ir.Operation, elem: str) -> bytes:
    attr = op.attributes["value"]
    if elem not in NUMPY:
        raise error(op, f"constants of element type {elem} are not supported")
    try:
        arr = np.array(ir.DenseElementsAttr(attr))  # i1 included: numpy unpacks it to bool
    except (ValueError, TypeError):
        arr = _resource_array(op, attr)
    return np.ascontiguousarray(arr.astype(NUMPY[elem])).tobytes()


def _resource_array(op: ir.Operation, attr: ir.Attribute) -> np.ndarray:
    """The data of a ``dense_resource`` constant, any size (an embedding table of millions of
    elements included)."""
    from ....irutils.constants import read_resource_array

    arr = read_resource_array(attr)
    if arr is None:
        raise error(op, "cannot read the constant's data (a dense_resource blob that is missing or short)")
    return arr