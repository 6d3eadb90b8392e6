"""IR helpers the codegen recipes share: operand types, reshapes, fills, constants, the panel
loop, tile splits of a size, and the attributes that tag the ops the transform script handles."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from mlir import ir
from mlir.dialects import tensor

__all__ = [
    "PARALLEL_TAG", "TAP_TAG", "TILE_TAG", "WINDOW_OPS", "array_constant", "collapse", "constant_weights",
    "conv_operands", "expand", "fill_scalar",
    "float_conv_operands", "index_plus", "int_list", "is_zero_fill", "lowest_padded", "near_equal_runs",
    "ops_named", "over_panels", "replace_rewritten", "static_slice", "static_type", "tile_runs", "tile_splits",
    "zero_of",
]

#: The ``linalg.matmul``/``batch_matmul`` ops the transform script register-tiles (value: the op's number).
TILE_TAG = "ge.cpu_tile"
#: The ops of one own tile loop nest (a convolution's or a packed-B matmul's) that the transform
#: script vectorizes: tile fills, tile matmuls, tile stores (value: the nest's number).
TAP_TAG = "ge.cpu_tap"
#: A large ``linalg.generic`` split over threads (value: its number in the split script).
PARALLEL_TAG = "ge.cpu_parallel"
#: Sliding-window ops rewritten as a sum (max) over shifted input slices or as vector code.
WINDOW_OPS = ("linalg.depthwise_conv_2d_nchw_chw", "linalg.pooling_nchw_max", "linalg.pooling_nchw_sum")


def static_type(t: ir.Type) -> ir.RankedTensorType | None:
    if isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape:
        return ir.RankedTensorType(t)
    return None


def ops_named(module: ir.Module | ir.Operation, names: tuple[str, ...]) -> list[ir.Operation]:
    found: list[ir.Operation] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        if o.name in names:
            found.append(o)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _assoc(groups: list[list[int]]) -> ir.ArrayAttr:
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in g]) for g in groups])


def collapse(v: ir.Value, groups: list[list[int]]) -> ir.Value:
    t = ir.RankedTensorType(v.type)
    shape = [int(np.prod([t.shape[d] for d in g], dtype=np.int64)) for g in groups]
    return tensor.collapse_shape(ir.RankedTensorType.get(shape, t.element_type), v, _assoc(groups))


def expand(v: ir.Value, shape: list[int], groups: list[list[int]]) -> ir.Value:
    t = ir.RankedTensorType(v.type)
    return tensor.expand_shape(ir.RankedTensorType.get(shape, t.element_type), v, _assoc(groups), [], shape)


def int_list(op: ir.Operation, name: str) -> list[int]:
    attr = op.attributes[name]
    return [int(x) for x in ir.DenseIntElementsAttr(attr)]


def static_slice(op: ir.Operation, name: str) -> list[int] | None:
    """The static offsets, sizes or strides ``name`` of a slice op, or None when one is dynamic."""
    values = list(ir.DenseI64ArrayAttr(op.attributes[name]))
    return None if ir.ShapedType.get_dynamic_size() in values else values


def fill_scalar(v: ir.Value) -> float | None:
    """The float constant ``v`` is filled with (``linalg.fill`` of an ``arith.constant``), or None."""
    owner = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
    if not isinstance(owner, ir.Operation) or owner.name != "linalg.fill":
        return None
    scalar = owner.operands[0].owner
    scalar = scalar.operation if isinstance(scalar, ir.OpView) else scalar
    if not isinstance(scalar, ir.Operation) or scalar.name != "arith.constant":
        return None
    attr = scalar.attributes["value"]
    return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else None


def is_zero_fill(v: ir.Value) -> bool:
    return fill_scalar(v) == 0.0


def float_conv_operands(op: ir.Operation):
    """(x, w, out and their static types) of an f32/f64 convolution, or None."""
    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = static_type(x.type), static_type(w.type), static_type(out.type)
    if xt is None or wt is None or ot is None:
        return None
    if {str(t.element_type) for t in (xt, wt, ot)} not in ({"f32"}, {"f64"}):
        return None
    if any(0 in t.shape for t in (xt, wt, ot)):  # zero-size: plain loops (nothing to run)
        return None
    return x, w, out, xt, wt, ot


def conv_operands(op: ir.Operation):
    """:func:`float_conv_operands` of a convolution the selection gave a rewrite path (its
    operands are static f32/f64 tensors of one type); ValueError when they are not."""
    operands = float_conv_operands(op)
    if operands is None:
        raise ValueError(f"{op.name} has no static f32/f64 operands of one type: it has no rewrite path")
    return operands


def constant_weights(v: ir.Value, what: str) -> np.ndarray:
    """The array of the constant ``v`` a recipe lays out at compile time; ValueError when ``v`` is
    not a constant the compile can read (the selection only chooses such recipes for constants)."""
    from ....irutils.constants import constant_array

    array = constant_array(v, ("arith.constant",))
    if array is None:
        raise ValueError(f"{what} is not a constant the compile can read")
    return array


def array_constant(array: np.ndarray, elem: ir.Type, name: str) -> ir.Value:
    """An ``arith.constant`` holding ``array`` (a weight laid out for the kernels at compile time)."""
    from mlir.dialects import arith

    from ....irutils.constants import elements_attr

    attr = elements_attr(array, elem, name)
    return arith.constant(attr.type, attr)


def index_plus(v, k: int) -> ir.Value:
    """The index ``v + k`` (``v`` a value or a static int): no op when ``k`` is 0."""
    from mlir.dialects import arith

    index = ir.IndexType.get()
    if isinstance(v, int):
        return arith.constant(index, v + k)
    return arith.addi(v, arith.constant(index, k)) if k else v


def zero_of(t: ir.Type) -> ir.Value:
    """A scalar zero of type ``t`` (the padding value of in-bounds vector transfers)."""
    from mlir.dialects import arith

    return arith.constant(t, 0.0 if isinstance(t, ir.FloatType) else 0)


def lowest_padded(x: ir.Value) -> tuple[ir.Value, int, int] | None:
    """(input, top, left) when ``x`` is only that NCHW input inserted whole (static offsets, unit
    strides) into a ``linalg.fill`` of -inf read by nothing else -- how max pools are padded;
    else None."""
    ins = x.owner.operation if isinstance(x.owner, ir.OpView) else x.owner
    if not isinstance(ins, ir.Operation) or ins.name != "tensor.insert_slice" or len(list(x.uses)) != 1:
        return None
    src, dest = ins.operands[0], ins.operands[1]
    st, dt = static_type(src.type), static_type(dest.type)
    if st is None or dt is None or st.rank != 4 or dt.rank != 4 or fill_scalar(dest) != -math.inf:
        return None
    offs, sizes, strides = (static_slice(ins, a) for a in ("static_offsets", "static_sizes", "static_strides"))
    if len(ins.operands) != 2 or offs is None or sizes is None or strides is None or offs[:2] != [0, 0] \
            or sizes != list(st.shape) or sizes[:2] != list(dt.shape[:2]) or any(s != 1 for s in strides):
        return None
    return src, offs[2], offs[3]


def over_panels(acc: ir.Value, dim: int, col0: int, tn: int, panels: int, parallel: bool,
                 body: Callable[[ir.Value, ir.Value, ir.Value], ir.Value]) -> ir.Value:
    """``body(panel, p, start)`` for each of ``panels`` slices of ``acc`` ``tn`` wide along ``dim``
    (panel ``p`` starts at ``col0 + p * tn``); returns the updated ``acc``.

    With ``parallel``, the panels are the iterations of one ``scf.forall``: the thread team's
    static schedule gives each thread a contiguous run of panels, and every output element is
    computed by one iteration in the one-thread order (same bits). Else an ``scf.for``."""
    from mlir.dialects import arith, scf

    at = ir.RankedTensorType(acc.type)
    sizes = list(at.shape)
    sizes[dim] = tn
    ptype = ir.RankedTensorType.get(sizes, at.element_type)
    static = [0] * len(sizes)
    static[dim] = ir.ShapedType.get_dynamic_stride_or_offset()
    ones = [1] * len(sizes)
    index = ir.IndexType.get()

    def start_of(p: ir.Value) -> ir.Value:
        return arith.addi(arith.muli(p, arith.constant(index, tn)), arith.constant(index, col0))

    if parallel:
        par = scf.ForallOp([0], [panels], [1], [acc])
        with ir.InsertionPoint(par.body):
            p = par.induction_variables[0]
            start = start_of(p)
            shared = par.inner_iter_args[0]
            done = body(tensor.extract_slice(ptype, shared, [start], [], [], static, sizes, ones), p, start)
            with ir.InsertionPoint(par.terminator().region.blocks[0]):
                tensor.parallel_insert_slice(done, shared, [start], [], [], static, sizes, ones)
        return par.results[0]
    loop = scf.ForOp(arith.constant(index, 0), arith.constant(index, panels), arith.constant(index, 1), [acc])
    with ir.InsertionPoint(loop.body):
        p = loop.induction_variable
        start = start_of(p)
        whole = loop.inner_iter_args[0]
        done = body(tensor.extract_slice(ptype, whole, [start], [], [], static, sizes, ones), p, start)
        scf.YieldOp([tensor.insert_slice(done, whole, [start], [], [], static, sizes, ones)])
    return loop.results[0]


def replace_rewritten(op: ir.Operation, out: ir.Value, result: ir.Value,
                       epilogue: ir.Operation | None = None) -> None:
    """Replaces a rewritten convolution or window op ``op`` -- with the ``epilogue`` its loop nest
    applies, when there is one -- by ``result``; erases the fill of its output ``out`` when
    nothing reads it any more (the loop nests start from their own zero tiles)."""
    fill = out.owner.operation if isinstance(out.owner, ir.OpView) else out.owner
    (epilogue if epilogue is not None else op).results[0].replace_all_uses_with(result)
    if epilogue is not None:
        epilogue.erase()
    op.erase()
    if not list(fill.results[0].uses):
        fill.erase()


def tile_splits(size: int, tile: int) -> list[tuple[int | None, int]]:
    """[(split point or None for the last part, tile)]: parts of ``size`` divisible by
    ``tile`` then decreasing powers of two, e.g. 49 with 32 -> [(32, 32), (16, 16), (None, 1)],
    14 with 6 -> [(12, 6), (None, 2)]."""
    if size <= 0:
        raise ValueError(f"tile_splits needs a positive size, got {size}")
    out: list[tuple[int | None, int]] = []
    while size:
        if size >= tile:
            part = size - size % tile
            out.append((part, tile))
            size -= part
        tile = tile // 2 if tile & (tile - 1) == 0 else 1 << (tile.bit_length() - 1)
    out[-1] = (None, out[-1][1])
    return out


def tile_runs(size: int, tile: int) -> list[tuple[int, int, int]]:
    """(first, tile, count) of the parts of :func:`tile_splits`: ``count`` tiles of ``tile`` from
    ``first`` (a column panel loop each)."""
    out, first = [], 0
    for split, t in tile_splits(size, tile):
        cols = split if split is not None else size - first
        out.append((first, t, cols // t))
        first += cols
    return out


def near_equal_runs(width: int, tile: int) -> list[tuple[int, int, int]]:
    """(start, size, count) runs of near-equal parts of ``width`` of at most ``tile`` each: 7 with
    8 -> one 7, 14 with 8 -> two 7s, 14 with 6 -> two 5s then one 4 (a register tile's rows need
    not be a power of two; halving parts 4 + 2 + 1 would run at a fraction of the kernel's
    speed). At most two runs: each becomes one loop (unrolled, a 128-wide row's 16 tiles of 9
    taps each made the UNet compile 3x longer)."""
    parts = -(-width // tile)
    base, more = divmod(width, parts)
    runs = [(0, base + 1, more), (more * (base + 1), base, parts - more)]
    return [r for r in runs if r[2]]
