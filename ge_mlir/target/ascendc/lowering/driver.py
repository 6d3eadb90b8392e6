"""Lowers one function: every op in program order, through the registered lowerings.

Constants get global memory when first used; reshape-like ops and identity casts alias their
input's global memory (no kernel); a transpose read only as a matmul's B gets no kernel either;
elementwise ops fuse into chains (:mod:`.chain`); every other op goes to the lowering its family
module registered. Returned values are written straight into the output arguments.
"""

from __future__ import annotations

from mlir import ir

from ....errors import Unsupported
from ....irutils.patterns import defining_op
from ....passes.registry import PassFailure
from ..kernel_builder import ELEM_TYPES
from ..kernels.elementwise import elementwise_kernel
from ..program import Program
from . import contraction, data_movement, elementwise, rows, window  # noqa: F401  (register the lowerings)
from .chain import fused_into_user, is_elementwise, lower_elementwise_chain
from .common import Buffer, Lowering, elem_of, numel, registered_lowerings, shape_of
from .contraction import only_feeds_bt


#: Ops whose result is their input's global memory.
ALIASES = {"ge.reshape", "ge.flatten", "ge.squeeze", "ge.unsqueeze", "ge.identity"}


def is_alias(op: ir.Operation | None) -> bool:
    """Ops whose result is their input's global memory (no kernel)."""
    if op is None:
        return False
    return op.name in ALIASES or (op.name == "ge.cast" and op.operands[0].type == op.results[0].type)


def lower_function(fn: ir.Operation, gm_bytes: int = 64 << 30) -> Lowering:
    """The kernels and launches of ``fn`` (kernels built in the current context and location)."""
    block = fn.regions[0].blocks[0]
    low = Lowering(fn, gm_bytes=gm_bytes)
    ops = [op.operation for op in block.operations]
    ret = ops[-1]
    args = list(block.arguments)
    for v in args + list(ret.operands):
        try:
            t = ir.RankedTensorType(v.type)
        except (ValueError, TypeError):
            t = None
        if t is None or not t.has_static_shape:
            raise PassFailure(f"the ascendc target needs static shapes; the function has a {v.type} "
                              "argument or result (fix the input shapes at import)", at=fn)
        if str(t.element_type) not in ELEM_TYPES:
            raise PassFailure(f"the ascendc target has no {t.element_type} tensors", at=fn)
    n_in = len(args)
    for i, a in enumerate(args):
        low.buffers[a] = Buffer(elem_of(a), numel(shape_of(a)), "arg", index=i)
    # Returned values are written straight into the output arguments when
    # their producer is a kernel (aliases resolve to their root).
    low.outputs = [Buffer(elem_of(v), numel(shape_of(v)), "arg", index=n_in + j)
                   for j, v in enumerate(ret.operands)]

    def root(v: ir.Value) -> ir.Value:
        while is_alias(defining_op(v)):
            v = defining_op(v).operands[0]
        return v

    written: set[ir.Value] = set()
    copies: list[tuple[ir.Value, Buffer]] = []
    for v, out in zip(ret.operands, low.outputs):
        r = root(v)
        p = defining_op(r)
        if p is None or p.name == "ge.constant" or r in written:
            copies.append((v, out))
            continue
        written.add(r)
        low.buffers[r] = out
    for op in ops[:-1]:
        name = op.name
        try:
            if name == "ge.constant":
                continue
            if is_alias(op):
                low.buffers[op.results[0]] = low.buffer(op.operands[0])
                continue
            if only_feeds_bt(op):
                continue
            # The kernels' ops are located at the ge op they implement.
            with op.location:
                if is_elementwise(op):
                    if not fused_into_user(op):
                        lower_elementwise_chain(low, op)
                    continue
                lower = registered_lowerings().get(name.removeprefix("ge."))
                if lower is None:
                    raise Unsupported("no ascendc lowering for this op")
                lower(low, op)
        except Unsupported as e:
            refused = getattr(e, "op", None)
            if refused is not None and refused != op:
                # A fused chain: name the member that was refused, located at it.
                raise PassFailure(f"cannot lower '{refused.name}' to ascendc: {e} (fused into the elementwise "
                                  f"chain ending at '{name}')", at=refused) from None
            raise PassFailure(f"cannot lower '{name}' to ascendc: {e}", at=op) from None
    for v, out in copies:
        prog = Program(elem_of(v))
        prog.result = prog.input()
        kb = elementwise_kernel(low.name("copy"), prog, shape_of(v), len(shape_of(v)))
        low.launch(kb, [low.buffer(v), out])
    return low
