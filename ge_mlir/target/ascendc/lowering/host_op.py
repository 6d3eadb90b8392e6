"""The ``ascendc.host`` op of a lowered function (the launches in order, with the global memory
they use), and the sharing of kernels that differ only in their name. (:mod:`..emit.host` turns
this op into ``host.cpp``.)"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ascendc
from ....irutils.functions import io_names
from ..kernel_builder import elem_bytes, elem_type, gm_t
from .common import Lowering, shape_of


def build_host(low: Lowering, module_block: ir.Block, name: str, loc: ir.Location) -> None:
    """Appends the ``ascendc.host`` ``name`` of ``low`` to ``module_block``: its arguments are the
    function's inputs then outputs; intermediate tensors become ``ascendc.gm_alloc``, constants
    ``ascendc.gm_constant`` (at their first launch), then one ``ascendc.launch`` per launch."""
    fn = low.fn
    block = fn.regions[0].blocks[0]
    args = list(block.arguments)
    outputs = low.outputs
    arg_bufs = [low.buffers[a] for a in args] + outputs
    nbytes = [b.numel * elem_bytes(b.elem) for b in arg_bufs]
    ret = block.operations[len(block.operations) - 1].operation
    values = list(args) + list(ret.operands)
    ins, outs = io_names(fn, identifiers=True)
    names = ins + outs
    with ir.InsertionPoint(module_block), loc:
        host = ascendc.HostOp(name, len(args), nbytes)
        body = host.body.blocks.append(*[gm_t(b.elem) for b in arg_bufs])
        # Names and shapes for the emitted graph manifest (graph.json) and host code.
        host.operation.attributes["arg_names"] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])
        host.operation.attributes["arg_shapes"] = ir.ArrayAttr.get(
            [ir.DenseI64ArrayAttr.get(shape_of(v)) for v in values])
    for i, b in enumerate(arg_bufs):
        b.ssa = body.arguments[i]
    with ir.InsertionPoint(body), loc:
        for launch in low.launches:
            values = []
            for b in launch.args:
                if b.ssa is None:
                    if b.kind == "temp":
                        b.ssa = ascendc.GmAllocOp(gm_t(b.elem), b.numel * elem_bytes(b.elem)).result
                    else:
                        value = b.value
                        if isinstance(value, np.ndarray):
                            value = ir.DenseElementsAttr.get(value.reshape(-1), type=ir.RankedTensorType.get(
                                [value.size], elem_type(b.elem)))
                        b.ssa = ascendc.GmConstantOp(gm_t(b.elem), value).result
                values.append(b.ssa)
            ascendc.LaunchOp(ir.FlatSymbolRefAttr.get(launch.kernel), values)


def share_identical_kernels(low: Lowering) -> tuple[list[ir.Operation], int]:
    """The kernels to keep, and how many were dropped: a kernel identical to an earlier one but for
    its name (same template, shapes, tiling: a transformer's repeated layers, a CNN's repeated
    blocks) is not emitted again; its launches use the earlier one, with the same tiling struct.
    Each kept kernel is one source file and one compile fewer for the project."""
    first: dict[str, str] = {}
    rename: dict[str, str] = {}
    keep = []
    for kop in low.kernels:
        name = ir.StringAttr(kop.attributes["sym_name"]).value
        key = str(kop).replace(f"@{name} ", "@_ ", 1)
        if key in first:
            rename[name] = first[key]
            kop.erase()
        else:
            first[key] = name
            keep.append(kop)
    for launch in low.launches:
        launch.kernel = rename.get(launch.kernel, launch.kernel)
    low.kernels = keep
    return keep, len(rename)
