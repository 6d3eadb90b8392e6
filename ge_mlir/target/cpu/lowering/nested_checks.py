"""Run-time check values computed inside control-flow regions (scf.if/scf.while bodies), carried
out to the function's entry block, where the checks become function results.

A value defined in a region cannot be returned by the function (it does not dominate the
return). Each such check gets a stack slot (``memref.alloca`` at the function's entry, set to
its neutral value); after the value is computed in the region it is merged into the slot
(``or`` for a mismatch flag, ``+`` for a count), so a check that fails in any iteration stays
failed; the return reads the slot.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref


def _entry_block(fn: ir.Operation) -> ir.Block:
    return fn.regions[0].blocks[0]


def is_top_level(value: ir.Value, fn: ir.Operation) -> bool:
    """``value`` is defined in ``fn``'s entry block (a function argument or a top-level op)."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return owner == _entry_block(fn)
    return owner.operation.block == _entry_block(fn)


def carry_out(value: ir.Value, fn: ir.Operation, combine: str) -> ir.Value:
    """A value at the top of ``fn``'s entry block holding ``value`` merged over every execution
    of its region: ``combine`` is ``"or"`` (an i1) or ``"add"`` (an integer). Returned as is when
    already top level. The read is placed right before ``fn``'s terminator (the caller's return)."""
    if is_top_level(value, fn):
        return value
    t = value.type
    # An i1 flag is kept in a byte: LLVM cannot load or store i1 memref elements.
    flag = str(t) == "i1"
    st = ir.IntegerType.get_signless(8) if flag else t
    entry = _entry_block(fn)
    first = list(entry.operations)[0]
    with ir.Location.unknown(), ir.InsertionPoint(first):
        slot = memref.alloca(ir.MemRefType.get([], st), [], [])
        memref.store(arith.constant(st, 0), slot, [])
    owner = value.owner.operation
    with owner.location, ir.InsertionPoint.after(owner):
        old = memref.load(slot, [])
        v = arith.extui(st, value) if flag else value
        merged = arith.ori(old, v) if combine == "or" else arith.addi(old, v)
        memref.store(merged, slot, [])
    ret = list(entry.operations)[-1]
    with ret.location, ir.InsertionPoint(ret):
        out = memref.load(slot, [])
        return arith.trunci(t, out) if flag else out
