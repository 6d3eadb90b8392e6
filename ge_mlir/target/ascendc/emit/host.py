"""The host program: the ``ascendc.host`` op -> ``host.cpp`` (``ge_graph_run``: allocate global memory,
upload inputs, constants and tiling structs, launch the kernels in order, copy the outputs back) and
``runner.cpp`` (a command-line driver of ``ge_graph_run``). The fixed C++ is in templates/host.cpp.in and
templates/runner.cpp.in."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from mlir import ir

from .common import NUMPY, SIZEOF, Names, arg_names, error, gm_elem, i64, lines_call, render, tiling_fields


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


def emit_host(host: ir.Operation, kernels: dict[str, ir.Operation]) -> Host:
    name = ir.StringAttr(host.attributes["sym_name"]).value
    num_inputs = i64(host.attributes["num_inputs"])
    block = host.regions[0].blocks[0]
    args = _host_args(host, block, num_inputs)
    program = _Program(kernels)
    for arg, a in zip(block.arguments, args):
        program.argument(arg, a)
    for o in block.operations:
        program.emit_op(o.operation)
    inputs, outputs = args[:num_inputs], args[num_inputs:]
    code = render(
        "host.cpp.in", graph=name, launch_includes=[f'#include "aclrtlaunch_{k}.h"' for k in program.launched],
        constant_bytes=str(len(program.blob)), inputs=_describe(inputs), outputs=_describe(outputs),
        allocations=[line for var, size in program.allocations
                     for line in (f"  uint8_t* {var} = buffers.Alloc({size});", f"  GE_CHECK({var} != nullptr);")],
        uploads=[f"  GE_CHECK(ToDevice({program.expr[block.arguments[i]]}, inputs[{i}], {a.nbytes}));"
                 for i, a in enumerate(inputs)] + program.uploads,
        launches=program.launches,
        downloads=[f"  GE_CHECK(ToHost(outputs[{j}], {program.expr[block.arguments[num_inputs + j]]}, {a.nbytes}));"
                   for j, a in enumerate(outputs)])
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


# ----------------------------------------------------------------------------- body


class _Program:
    """The body of ``ge_graph_run``, built op by op: global-memory buffers, what is copied into them
    before the first launch, and the launches."""

    def __init__(self, kernels: dict[str, ir.Operation]) -> None:
        self.kernels = kernels
        self.names = Names(reserved=list(kernels))
        self.expr: dict[ir.Value, str] = {}
        #: (variable, byte-size expression) of every buffer, arguments first.
        self.allocations: list[tuple[str, str]] = []
        #: Constant and tiling uploads (the inputs' come first, from the arguments).
        self.uploads: list[str] = []
        self.launches: list[str] = []
        #: constants.bin: every constant at a 64-byte aligned offset.
        self.blob = bytearray()
        #: Kernels launched, in first-launch order (the legacy flow includes one header per kernel).
        self.launched: list[str] = []
        self._tiling_vars: dict[str, str] = {}

    def argument(self, value: ir.Value, arg: HostArg) -> None:
        var = self.names.fresh(arg.name + "Dev", numbered=False)
        self.expr[value] = var
        self.allocations.append((var, str(arg.nbytes)))

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
        self.allocations.append((var, str(i64(op.attributes["bytes"]))))
        self.expr[op.results[0]] = var

    def gm_constant(self, op: ir.Operation) -> None:
        data = _constant_bytes(op, gm_elem(op.results[0].type))
        var = self.names.fresh("cst")
        self.blob += b"\0" * (-len(self.blob) % 64)
        offset = len(self.blob)
        self.blob += data
        self.allocations.append((var, str(len(data))))
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
        # One launch per build flow: the CPU shim, the legacy flow's aclrtlaunch stubs, the <<<>>> of the ASC flow.
        self.launches.append("#ifdef ASCENDC_CPU_DEBUG")
        self.launches += lines_call("  ", "ICPU_RUN_KF", [kname, blocks] + args)
        self.launches.append("#elif defined(GE_ASCENDC_LEGACY_LAUNCH)")
        self.launches += lines_call("  ", f"ACLRT_LAUNCH_KERNEL({kname})", [blocks, "gStream"] + args)
        self.launches.append("#else")
        self.launches += lines_call("  ", f"{kname}<<<{blocks}, nullptr, gStream>>>", args)
        self.launches.append("#endif")
        if kname not in self.launched:
            self.launched.append(kname)

    def _tiling(self, kname: str, fields: list[tuple[str, int]]) -> str:
        """The device copy of the kernel's tiling struct, uploaded once however often the kernel runs."""
        if kname not in self._tiling_vars:
            dev = self.names.fresh(f"{kname}TilingDev", numbered=False)
            self._tiling_vars[kname] = dev
            self.allocations.append((dev, f"sizeof({kname}_Tiling)"))
            values = ", ".join(str(v) for _, v in fields)
            var = self.names.fresh(f"{kname}Tiling", numbered=False)
            self.uploads.append(f"  const {kname}_Tiling {var}{{{values}}};")
            self.uploads.append(f"  GE_CHECK(ToDevice({dev}, &{var}, sizeof({var})));")
        return self._tiling_vars[kname]


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
    """The data of an f32/f64 ``dense_resource`` constant. Only resource attributes may reach the C API
    reader: it reinterprets any other attribute's storage (and aborts)."""
    from ....ir.constants import read_resource

    try:
        ir.DenseResourceElementsAttr(attr)
        arr = read_resource(attr, ir.RankedTensorType(attr.type))
    except (ValueError, TypeError):
        arr = None
    if arr is None:
        raise error(op, "cannot read the constant's data (only dense<> and f32/f64 dense_resource are readable)")
    return arr
