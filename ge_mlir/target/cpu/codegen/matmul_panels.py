"""Matmuls with a constant B over B packed in column panels (:func:`matmul_to_packed_panels`), a
constant B spread over the L1 sets (:func:`spread_constant_rows`), and zero-initialized matmuls
whose register tiles start from zero vectors instead of reading a filled output
(:func:`defer_zero_fill`, then :func:`zero_accumulators` once the tiles exist)."""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import linalg, tensor

from .common import (
    TAP_TAG, array_constant, collapse, is_zero_fill, ops_named, over_panels, static_slice, static_type, tile_runs,
    tile_splits,
)
from .strategy import CACHE_LINE_BYTES, PARALLEL_MIN_MACS, SPREAD_MIN_ROWS

__all__ = ["defer_zero_fill", "matmul_to_packed_panels", "spread_constant_rows", "zero_accumulators"]


def matmul_to_packed_panels(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> None:
    """A ``linalg.matmul`` with a constant B as register tiles over B packed in column panels.

    B ``[K, N]`` is stored at compile time as ``[N / TN, K, TN]`` (mmt4d's layout for the right
    operand): each panel one contiguous block that the hardware prefetcher streams in order,
    instead of K rows N elements apart (GPT-2's 256 x 50257 logits weight: a new 4 KiB page for
    every row of every panel). Loops: column panels (an ``scf.forall`` with threads), row tiles,
    then the tile's K loop (``[TM, K] x [K, TN]`` per tile, tagged ``tag`` for :func:`tiling_script`).
    An output that starts as zeros starts each tile from a zero vector. Column remainders get
    narrower packed panels, row remainders smaller tiles (:func:`tile_splits`). The path
    :data:`~.strategy.MatmulPath.PACKED_PANELS` (f32/f64, plain maps, a constant B the compile
    can read, at least ``PACKED_MIN_ROWS`` rows)."""
    from mlir.dialects import arith, scf

    from ....irutils.constants import constant_array, constant_op, read_resource_array

    a, b, out = op.operands
    at, bt, ot = (ir.RankedTensorType(v.type) for v in (a, b, out))
    m, k = at.shape
    n = bt.shape[1]
    barr = constant_array(b, ("arith.constant",))
    if barr is None:
        # Past what the constant folders read (MAX_RESOURCE_ELEMENTS): the largest weights are the
        # ones that gain most (GPT-2's 256 x 50257 logits weight, unpacked, read a new page in
        # every K step), and this reads the blob once to write its packed copy.
        cop = constant_op(b, ("arith.constant",))
        flat = read_resource_array(cop.attributes["value"]) if cop is not None else None
        if flat is None or flat.size != k * n:
            raise ValueError("packed panels need a constant B the compile can read")
        barr = flat.reshape(k, n)
    elem = ot.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    zero_init = is_zero_fill(out)
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    with op.location, ir.InsertionPoint(op):
        zero = arith.constant(elem, 0.0)
        acc = out
        if zero_init:  # every element is written by one tile: the fill goes
            acc = tensor.EmptyOp([m, n], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def panel_tiles(panel: ir.Value, p: ir.Value, bconst: ir.Value, tn: int) -> ir.Value:
            r0 = 0
            for rsplit, tm in tile_splits(m, tile_m):
                rows = rsplit if rsplit is not None else m - r0
                loop = scf.ForOp(const(r0), const(r0 + rows), const(tm), [panel])
                with ir.InsertionPoint(loop.body):
                    i0 = loop.induction_variable
                    whole = loop.inner_iter_args[0]
                    t = tensor.extract_slice(ir.RankedTensorType.get([tm, tn], elem), whole, [i0], [], [],
                                             [dyn, 0], [tm, tn], [1, 1])
                    if zero_init:
                        t = linalg.fill(zero, outs=[t])
                        t.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                    arows = tensor.extract_slice(ir.RankedTensorType.get([tm, k], elem), a, [i0], [], [],
                                                 [dyn, 0], [tm, k], [1, 1])
                    bp = tensor.extract_slice(ir.RankedTensorType.get([1, k, tn], elem), bconst, [p], [], [],
                                              [dyn, 0, 0], [1, k, tn], [1, 1, 1])
                    mm = linalg.matmul(arows, collapse(bp, [[0, 1], [2]]), outs=[t])
                    mm.owner.attributes[TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                    scf.YieldOp([tensor.insert_slice(mm, whole, [i0], [], [], [dyn, 0], [tm, tn], [1, 1])])
                panel = loop.results[0]
                r0 += rows
            return panel

        for col0, tn, panels in tile_runs(n, tile_n):
            part = barr[:, col0:col0 + panels * tn].reshape(k, panels, tn).transpose(1, 0, 2)
            bconst = array_constant(part, elem, "matmul_b_panels")
            parallel = threads > 1 and panels > 1 and m * panels * tn * k >= PARALLEL_MIN_MACS
            acc = over_panels(acc, 1, col0, tn, panels, parallel,
                               lambda panel, p, j0, b=bconst, tn=tn: panel_tiles(panel, p, b, tn))
    fill = out.owner.operation if isinstance(out.owner, ir.OpView) else out.owner
    op.results[0].replace_all_uses_with(acc)
    op.erase()
    if zero_init and not list(fill.results[0].uses):
        fill.erase()


def spread_constant_rows(op: ir.Operation) -> bool:
    """A constant B whose rows are an even number of 64-byte lines apart gets one line of padding.

    The register tile reads a ``[K, TN]`` panel of B: K rows ``N * 4`` bytes apart. When
    ``N / 16`` (the stride in lines) shares a large power of two with the L1's set count (a power
    of two: 64 on x86-64's 32 and 48 KiB L1Ds), every row falls in the same few sets and the panel
    evicts itself (N = 1024: all 256 rows in one set of 8 ways; N = 768: four sets). An odd stride
    in lines is coprime with any power-of-two set count: B stored as ``[K, N + 16]`` spreads the
    rows over all sets; the matmul reads the ``[K, N]`` slice (a 128 x 256 x 8192 product: 143 ->
    179 GFLOP/s, 128 x 256 x 2048: 194 -> 240). Constants only: their layout is ours to choose."""
    from ....irutils.constants import constant_array

    b = op.operands[1]
    bt = static_type(b.type)
    if bt is None or bt.rank != 2 or str(bt.element_type) not in ("f32", "f64"):
        return False
    k, n = bt.shape
    width = 4 if str(bt.element_type) == "f32" else 8
    line = CACHE_LINE_BYTES // width
    if k < SPREAD_MIN_ROWS or n % line or (n // line) % 2:
        return False
    arr = constant_array(b, ("arith.constant",))
    if arr is None:
        return False
    padded = np.zeros((k, n + line), dtype=arr.dtype)
    padded[:, :n] = arr
    with op.location, ir.InsertionPoint(op):
        wide = array_constant(padded, bt.element_type, "matmul_b_spread")
        op.operands[1] = tensor.extract_slice(bt, wide, [], [], [], [0, 0], [k, n], [1, 1])
    return True


#: Attribute of the ``tensor.empty`` a zero-initialized matmul accumulates into while the strategy
#: runs (see :func:`defer_zero_fill`).
_ZERO_TAG = "ge.zero_init"


def defer_zero_fill(op: ir.Operation, tag: int) -> None:
    """A matmul whose output starts as ``linalg.fill(0)`` accumulates into a tagged
    ``tensor.empty`` instead: once its register tiles exist, each tile's first read of the
    accumulator becomes a zero vector (:func:`zero_accumulators`), so the output is written once
    (the fill's pass and the accumulator's read pass go away: 77 MB instead of 128 MB of memory
    traffic for GPT-2's 128 x 256 x 50257 logits). Only without K blocking: a K block after the
    first reads what the one before wrote."""
    init = op.operands[2]
    if not is_zero_fill(init):
        return
    fill = init.owner.operation if isinstance(init.owner, ir.OpView) else init.owner
    with op.location, ir.InsertionPoint(op):
        empty = tensor.EmptyOp(list(ir.RankedTensorType(init.type).shape),
                               ir.RankedTensorType(init.type).element_type)
    empty.operation.attributes[_ZERO_TAG] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), tag)
    op.operands[2] = empty.result
    if not list(fill.results[0].uses):
        fill.erase()


def _depends_on(v: ir.Value, iv: ir.Value) -> bool:
    """Whether ``v`` is ``iv`` or computed from it by one affine/arith op (a tile offset)."""
    if v == iv:
        return True
    if isinstance(v, ir.BlockArgument):
        return False
    op = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
    return any(o == iv for o in op.operands)


def _traced_empty(v: ir.Value) -> ir.Operation | None:
    """The tagged ``tensor.empty`` whose untouched contents a read of ``v`` sees, or None.

    Followed backwards with the read's bounding box (None: all of the value): a slice's source
    (the box moved by the slice's static offsets), an insert's destination when the box misses
    the inserted region (static offsets; else the read may see the insert), and a loop's
    iter_arg's init when the slice read from it moves with the loop's induction variable (a
    tiling loop: each iteration reads a tile no earlier iteration wrote; a K loop rereads its
    tile and stops the trace)."""
    box: list[tuple[int, int]] | None = None
    last_slice: ir.Operation | None = None
    for _ in range(64):
        if isinstance(v, ir.BlockArgument):
            owner = v.owner.owner
            owner = owner.operation if isinstance(owner, ir.OpView) else owner
            block_args = list(owner.regions[0].blocks[0].arguments) if owner.regions else []
            if owner.name == "scf.for" and v.arg_number >= 1:
                ivs = [block_args[0]]
                init = owner.operands[2 + v.arg_number]  # lb, ub, step, then the inits
            elif owner.name == "scf.forall" and len(owner.results):
                outs = list(owner.operands)[-len(owner.results):]
                rank = len(block_args) - len(outs)
                if v.arg_number < rank:
                    return None
                ivs = block_args[:rank]
                init = outs[v.arg_number - rank]
            else:
                return None
            if last_slice is None or not any(_depends_on(o, iv) for o in list(last_slice.operands)[1:] for iv in ivs):
                return None
            v, box = init, None
            continue
        op = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
        if op.name == "tensor.extract_slice":
            offsets, strides = static_slice(op, "static_offsets"), static_slice(op, "static_strides")
            sizes = list(ir.RankedTensorType(op.results[0].type).shape)
            if offsets is None or strides is None or any(s != 1 for s in strides) or len(offsets) != len(sizes):
                box = None
            else:
                inner = box or [(0, z) for z in sizes]
                box = [(o + lo, o + hi) for o, (lo, hi) in zip(offsets, inner)]
            last_slice = op
            v = op.operands[0]
        elif op.name == "tensor.insert_slice":
            offsets = static_slice(op, "static_offsets")
            sizes = static_slice(op, "static_sizes")
            if box is None or offsets is None or sizes is None:
                return None
            if all(lo < o + z and o < hi for (lo, hi), o, z in zip(box, offsets, sizes)):
                return None  # the read may see the inserted data
            v = op.operands[1]
        elif op.name == "tensor.empty" and _ZERO_TAG in op.attributes:
            return op
        else:
            return None
    return None


#: Ops whose tensor operands only carry the register tiling's structure (slices, inserts, loop
#: values, tile writes): they never read the accumulator's elements themselves.
_TILING_STRUCTURE = frozenset({"tensor.extract_slice", "tensor.insert_slice", "tensor.parallel_insert_slice",
                               "scf.for", "scf.forall", "scf.yield", "vector.transfer_write"})


def zero_accumulators(module: ir.Module | ir.Operation) -> None:
    """Replaces each register tile's accumulator read of a tagged empty tensor by zeros; restores
    the fill where anything else would read the empty tensor (a part left untiled)."""
    from mlir.dialects import arith, linalg as lg

    def tag(empty: ir.Operation) -> int:
        return int(ir.IntegerAttr(empty.attributes[_ZERO_TAG]).value)

    reads: list[tuple[ir.Operation, int]] = []
    unsafe: set[int] = set()
    found: list[ir.Operation] = []
    module.operation.walk(lambda o: found.append(o) or ir.WalkResult.ADVANCE)
    for op in found:
        if op.name in _TILING_STRUCTURE:
            continue
        for v in op.operands:
            empty = _traced_empty(v) if isinstance(v.type, ir.RankedTensorType) else None
            if empty is None:
                continue
            if op.name == "vector.transfer_read":
                reads.append((op, tag(empty)))
            else:
                unsafe.add(tag(empty))
    for op, t in reads:
        if t in unsafe:
            continue
        vt = ir.VectorType(op.results[0].type)
        with op.location, ir.InsertionPoint(op):
            zero = arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, ir.FloatAttr.get(vt.element_type, 0.0)))
        op.results[0].replace_all_uses_with(zero)
        op.erase()
    for empty in ops_named(module, ("tensor.empty",)):
        if _ZERO_TAG not in empty.attributes:
            continue
        if tag(empty) in unsafe:
            t = ir.RankedTensorType(empty.results[0].type)
            with empty.location, ir.InsertionPoint.after(empty):
                zero = arith.constant(t.element_type, 0.0)
                filled = lg.fill(zero, outs=[empty.results[0]])
            for use in list(empty.results[0].uses):
                if use.owner != filled.owner:
                    use.owner.operands[use.operand_number] = filled
        del empty.attributes[_ZERO_TAG]
