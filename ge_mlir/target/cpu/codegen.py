"""CPU codegen strategy on linalg tensors (runs before bufferization).

1. Convolutions (``conv_2d_nchw_fchw`` only) of batch 1 with a constant filter
   become matmuls over the output positions (:func:`conv_to_shifted_rows`):
   register tiles of consecutive positions of one output row by filters, each
   tap's window read from the padded input in place, the filter packed, all
   taps summed in registers and the tile stored transposed through the
   convolution's epilogue as vector code (:func:`_store_tile_transposed`:
   per-filter ops on the tile's rows, one shuffle transpose, per-position ops
   after it). Wide 1x1 stride-1 ones use filters-by-positions tiles over the
   input rows, and other batch-1 ones with few channels im2col one output row
   at a time (:func:`conv_to_row_im2col`; strided rows from the input split
   by column phase). Other stride-1 ones
   of large images become shifted matmuls over the padded width
   (:func:`conv_to_shifted_matmuls`); the rest im2col + matmul: a gather
   ``linalg.generic`` builds the ``[C*kh*kw, Ho*Wo]`` patch matrix (a plain
   reshape for 1x1 stride-1 convolutions) and the filter ``[F, C*kh*kw]``
   multiplies it. Depthwise convolutions and pools become vector code over
   output columns (:func:`window_to_vectors`), else a tap-sum generic
   (:func:`window_to_taps`).
2. A ``linalg.matmul`` with a constant B (two or more rows, any size) reads B
   packed in column panels (:func:`matmul_to_packed_panels`). Every other statically
   shaped ``linalg.matmul`` / ``linalg.batch_matmul`` is register-tiled and
   vectorized with the transform dialect. In both, tiles of
   ``[TM, TN, 1]`` become ``vector.contract`` lowered to outer products
   (FMAs); the accumulator tile is hoisted out of the K loop so it stays in
   registers. TM x TN is sized to the vector registers of the CPU the JIT
   generates code for (:mod:`.cpu_info`: 8x32 f32 with AVX-512, 6x16 with
   AVX2). A column count that TN does not divide is split into a TN-multiple
   part and narrower rests, each with static tile sizes (masked vectors were
   measured 9x slower).

Everything else (elementwise, reductions, data movement) is left to
``convert-linalg-to-loops`` and LLVM's loop vectorizer.

The CPU pipeline runs this as the passes ``ge-apply-codegen-strategy``
(:func:`apply_strategy`, on tensors) and ``ge-hoist-vector-transfers``
(:func:`hoist_vector_transfers`, after bufferization).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from mlir import ir
from mlir.dialects import linalg, tensor

from ...irutils.patterns import clone_mapped
from ...irutils.windows import clamped_max_window_ok

_TAG = "ge.cpu_tile"
#: The ops of one own tile loop nest (a convolution's or a packed-B matmul's) that the transform
#: script vectorizes: tile fills, tile matmuls, tile stores (value: the nest's number).
_TAP_TAG = "ge.cpu_tap"
_PAR_TAG = "ge.cpu_parallel"


def _static(t: ir.Type) -> ir.RankedTensorType | None:
    if isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape:
        return ir.RankedTensorType(t)
    return None


def _ops(module: ir.Module | ir.Operation, names: tuple[str, ...]) -> list[ir.Operation]:
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


def _collapse(v: ir.Value, groups: list[list[int]]) -> ir.Value:
    t = ir.RankedTensorType(v.type)
    shape = [int(np.prod([t.shape[d] for d in g], dtype=np.int64)) for g in groups]
    return tensor.collapse_shape(ir.RankedTensorType.get(shape, t.element_type), v, _assoc(groups))


def _expand(v: ir.Value, shape: list[int], groups: list[list[int]]) -> ir.Value:
    t = ir.RankedTensorType(v.type)
    return tensor.expand_shape(ir.RankedTensorType.get(shape, t.element_type), v, _assoc(groups), [], shape)


def _int_list(op: ir.Operation, name: str) -> list[int]:
    attr = op.attributes[name]
    return [int(x) for x in ir.DenseIntElementsAttr(attr)]


_SHIFTED_MIN_COLUMNS = 1000


def _fill_scalar(v: ir.Value) -> float | None:
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


def _is_zero_fill(v: ir.Value) -> bool:
    return _fill_scalar(v) == 0.0


def _float_conv_operands(op: ir.Operation):
    """(x, w, out and their static types) of an f32/f64 convolution, or None."""
    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = _static(x.type), _static(w.type), _static(out.type)
    if xt is None or wt is None or ot is None:
        return None
    if {str(t.element_type) for t in (xt, wt, ot)} not in ({"f32"}, {"f64"}):
        return None
    if any(0 in t.shape for t in (xt, wt, ot)):  # zero-size: plain loops (nothing to run)
        return None
    return x, w, out, xt, wt, ot


def _array_constant(array: np.ndarray, elem: ir.Type, name: str) -> ir.Value:
    """An ``arith.constant`` holding ``array`` (a weight laid out for the kernels at compile time)."""
    from mlir.dialects import arith

    from ...irutils.constants import elements_attr

    attr = elements_attr(array, elem, name)
    return arith.constant(attr.type, attr)


def _over_panels(acc: ir.Value, dim: int, col0: int, tn: int, panels: int, parallel: bool,
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


def _replace_rewritten(op: ir.Operation, out: ir.Value, result: ir.Value,
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


def _shifted_input(x: ir.Value, extra: int, zero: ir.Value) -> ir.Value:
    """The [N=1, C, Hp, Wp] input of a shifted-matmul convolution as [C, L] rows with at least
    ``extra`` zeros after the image (the last tap's window reads past it).

    A zero-padded input (static ``insert_slice`` ops -- one, or one per concatenated input --
    into ``fill(0)``, how convolutions are padded) is built again, beside the original, on a
    buffer ``ceil(extra / Wp)`` zero rows taller: one padded copy. Ops that compute straight into
    a slot of the padded buffer (an ``extract_slice`` of it: a concatenated input) are moved to the
    taller one. Anything else is copied into a [C, Hp*Wp + extra] buffer (a padded copy and then
    this one cost a ResNet-18 layer-1 convolution 0.13 of 1.43 ms, and both live at once set the
    UNet's memory peak)."""
    xt = ir.RankedTensorType(x.type)
    _, c, hp, wp = xt.shape
    elem = xt.element_type
    rows = -(-extra // wp)

    def owner_of(v: ir.Value):
        o = v.owner
        return o.operation if isinstance(o, ir.OpView) else o

    def only_slots(v: ir.Value, successor: ir.Operation) -> bool:
        """Whether ``v``'s uses are ``successor`` (as its destination) and extract_slices."""
        for use in v.uses:
            user = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
            if user == successor and use.operand_number == 1:
                continue
            if user.name != "tensor.extract_slice":
                return False
        return True

    chain: list[ir.Operation] = []  # the inserts, last first
    v = x
    while True:
        owner = owner_of(v)
        if (not isinstance(owner, ir.Operation) or owner.name != "tensor.insert_slice" or len(owner.operands) != 2
                or any(_static_slice(owner, a) is None for a in ("static_offsets", "static_sizes", "static_strides"))):
            break
        if chain and not only_slots(v, chain[-1]):
            chain = []
            break
        chain.append(owner)
        v = owner.operands[1]
    if chain and len(list(x.uses)) == 1 and _is_zero_fill(v) and only_slots(v, chain[-1]):
        fill = owner_of(v)
        with ir.InsertionPoint(fill):
            from mlir.dialects import arith

            grown = linalg.fill(arith.constant(elem, 0.0),
                                outs=[tensor.EmptyOp([1, c, hp + rows, wp], elem).result])
        old = v
        for ins in reversed(chain):
            for use in list(old.uses):
                user = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
                if user.name == "tensor.extract_slice":
                    user.operands[0] = grown
            with ir.InsertionPoint(ins):
                grown = tensor.insert_slice(ins.operands[0], grown, [], [], [], _static_slice(ins, "static_offsets"),
                                            _static_slice(ins, "static_sizes"), _static_slice(ins, "static_strides"))
            old = ins.results[0]
        return _collapse(grown, [[0, 1], [2, 3]])  # [C, (Hp + rows) * Wp]
    flat = _collapse(x, [[0, 1], [2, 3]])  # [C, Hp*Wp]
    base = linalg.fill(zero, outs=[tensor.EmptyOp([c, hp * wp + extra], elem).result])
    return tensor.insert_slice(flat, base, [], [], [], [0, 0], [c, hp * wp], [1, 1])


def conv_to_shifted_matmuls(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> bool:
    """A stride-1 ``conv_2d_nchw_fchw`` (batch 1) as shifted matmuls summed in register tiles.

    With the output computed over the padded width Wp (the last columns of
    each row are discarded), tap (ky, kx) reads the flattened input at offset
    ``ky*Wp + kx``: a plain [C, Ho*Wp] window, so
    ``out[F, Ho*Wp] = sum over taps of W[:, :, ky, kx] @ window`` needs no im2col copy (9x
    the input for 3x3). The input gets ``kw - 1`` trailing zeros so the last window stays in
    bounds. The taps are summed inside each ``[TM, TN]`` output tile: loops over column panels
    and row tiles hold one small matmul per tap (``[TM, C] x [C, TN]``, tagged ``tag`` for the
    register tiling of :func:`_script`), so the accumulator stays in registers across all taps
    and is written once (summing whole-output matmuls tap by tap passed a 64 x 3248
    accumulator through the caches nine times: a ResNet-18 layer-1 convolution with bias and ReLU
    1.70 -> 1.12 ms on one core of the 2-core EPYC, onnxruntime 0.98).
    Column panels run in an ``scf.forall`` when ``threads`` > 1 and the convolution is large.
    False when it does not apply."""
    operands = _float_conv_operands(op)
    if operands is None:
        return False
    x, w, out, xt, wt, ot = operands
    n, c, hp, wp = xt.shape
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    if n != 1 or strides != [1, 1] or kh * kw == 1 or not _is_zero_fill(out):
        return False
    # Small images: kh*kw passes over short rows lost to one im2col matmul (measured with the
    # earlier form, one whole-output matmul per tap; this form only takes filters that are not
    # constants or too few for conv_to_shifted_rows: 56x56 2.5 vs 3.8 ms, 28x28 2.8 vs 2.6,
    # 7x7 20.8 vs 3.1). At 32x32 (1088
    # columns: the UNet decoder's 64->32 conv) shifted matmuls are as fast and need no 9x
    # patch matrix (UNet 3.87 vs 4.03 ms, arena 2.06 vs 3.28 MiB), hence 1000.
    if ho * wp < _SHIFTED_MIN_COLUMNS:
        return False
    from mlir.dialects import arith, scf

    elem = xt.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    extra = (kw - 1) * dilations[1]
    length = ho * wp
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    with op.location, ir.InsertionPoint(op):
        zero = arith.constant(elem, 0.0)
        flat = _shifted_input(x, extra, zero)
        acc = tensor.EmptyOp([f, length], elem).result  # every element written by one tile

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def tile(acc_in: ir.Value, j0: ir.Value, tn: int) -> ir.Value:
            """Row tiles of the [F, tn] column panel ``acc_in`` (column ``j0`` of the output);
            returns the updated panel."""
            r0 = 0
            for rsplit, tm in _chunks(f, tile_m):
                rows = rsplit if rsplit is not None else f - r0
                loop = scf.ForOp(const(r0), const(r0 + rows), const(tm), [acc_in])
                with ir.InsertionPoint(loop.body):
                    f0 = loop.induction_variable
                    panel = loop.inner_iter_args[0]
                    t = tensor.extract_slice(ir.RankedTensorType.get([tm, tn], elem), panel, [f0], [], [],
                                             [dyn, 0], [tm, tn], [1, 1])
                    # Vectorized with the matmuls: the zero vector forwards into the first tap's
                    # accumulator, the tile is written once, after the last tap.
                    t = linalg.fill(zero, outs=[t])
                    t.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                    for ky in range(kh):
                        for kx in range(kw):
                            off = ky * dilations[0] * wp + kx * dilations[1]
                            start = arith.addi(j0, const(off)) if off else j0
                            window = tensor.extract_slice(ir.RankedTensorType.get([c, tn], elem), flat, [start],
                                                          [], [], [0, dyn], [c, tn], [1, 1])
                            # Not a rank-reducing slice: with tm = 1 which unit dims it drops is ambiguous.
                            wtap = tensor.extract_slice(ir.RankedTensorType.get([tm, c, 1, 1], elem), w, [f0], [],
                                                        [], [dyn, 0, ky, kx], [tm, c, 1, 1], [1, 1, 1, 1])
                            wtap = _collapse(wtap, [[0], [1, 2, 3]])
                            mm = linalg.matmul(wtap, window, outs=[t])
                            mm.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                            t = mm
                    res = tensor.insert_slice(t, panel, [f0], [], [], [dyn, 0], [tm, tn], [1, 1])
                    scf.YieldOp([res])
                acc_in = loop.results[0]
                r0 += rows
            return acc_in

        for col0, tn, panels in _parts(length, tile_n):
            parallel = threads > 1 and panels > 1 and f * panels * tn * c * kh * kw >= PARALLEL_MIN_MACS
            acc = _over_panels(acc, 1, col0, tn, panels, parallel,
                               lambda panel, p, j0, tn=tn: tile(panel, j0, tn))
        full = _expand(acc, [1, f, ho, wp], [[0, 1], [2, 3]])
        y = tensor.extract_slice(ir.RankedTensorType.get([1, f, ho, wo], elem), full, [], [], [],
                                 [0, 0, 0, 0], [1, f, ho, wo], [1, 1, 1, 1])
    _replace_rewritten(op, out, y)
    return True


#: A convolution with a constant filter runs as matmuls over its output positions
#: (:func:`conv_to_shifted_rows`) from this many filters (a register tile's f32 width on SSE)...
_ROWS_MIN_FILTERS = 16
#: ... and this many input channels (K per tap: the stem's 3 channels leave one FMA in 3 to the
#: loop, im2col's one K loop of C*kh*kw runs faster).
_ROWS_MIN_CHANNELS = 8


def _row_chunks(width: int, tile: int) -> list[tuple[int, int, int]]:
    """(start, size, count) runs of near-equal parts of ``width`` of at most ``tile`` each: 7 with
    8 -> one 7, 14 with 8 -> two 7s, 14 with 6 -> two 5s then one 4 (a register tile's rows need
    not be a power of two; halving parts 4 + 2 + 1 would run at a fraction of the kernel's
    speed). At most two runs: each becomes one loop (unrolled, a 128-wide row's 16 tiles of 9
    taps each made the UNet compile 3x longer)."""
    parts = -(-width // tile)
    base, more = divmod(width, parts)
    runs = [(0, base + 1, more), (more * (base + 1), base, parts - more)]
    return [r for r in runs if r[2]]


def _fusable_epilogue(op: ir.Operation) -> ir.Operation | None:
    """The elementwise ``linalg.generic`` that is the only user of a convolution's result and that
    its register tiles can apply before their one store (bias, batch norm, residual, activation:
    ge's convolution epilogue), or None.

    It must read the result with the identity map and write an output of the same shape and type
    with the identity map; its other inputs may be read through any projected permutation (a
    per-channel bias ``(d1)``, a residual with the identity), and its body must not ask for
    indices."""
    result = op.results[0]
    uses = list(result.uses)
    if len(uses) != 1:
        return None
    user = uses[0].owner
    user = user.operation if isinstance(user, ir.OpView) else user
    if user.name != "linalg.generic" or len(user.results) != 1 or user.results[0].type != result.type:
        return None
    n_in = len(user.operands) - 1
    if uses[0].operand_number >= n_in or list(user.operands).count(result) != 1:
        return None
    if any("parallel" not in str(k) for k in ir.ArrayAttr(user.attributes["iterator_types"])):
        return None
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(user.attributes["indexing_maps"])]
    identity = ir.AffineMap.get_identity(4)
    if maps[-1] != identity or maps[uses[0].operand_number] != identity:
        return None
    for m in maps:
        if m.n_dims != 4 or not all(isinstance(e, ir.AffineDimExpr) for e in m.results):
            return None
    if any(o.name == "linalg.index" or len(o.regions) for o in user.regions[0].blocks[0].operations):
        return None
    return user


def _placed(v: ir.Value, before: ir.Operation) -> tuple[ir.Value, list[int]]:
    """``v`` read back from where a ``tensor.insert_slice`` (before ``before``, same block) put
    it whole, with the slot's offsets; else ``v`` itself at offset 0.

    An epilogue input that is also inserted into a zero-padded buffer (a residual that is the
    next convolution's input) would otherwise be read after the insert that writes it in place:
    one-shot bufferization sees a read-after-write conflict and computes it in a buffer of its
    own, then copies it into the slot (ResNet-18: every fused residual block). The same values
    read from the insert's result are no later read of ``v``."""
    rank = ir.RankedTensorType(v.type).rank
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    for use in v.uses:
        ins = use.owner
        ins = ins.operation if isinstance(ins, ir.OpView) else ins
        if ins.name != "tensor.insert_slice" or use.operand_number != 0 or ins.block != before.block \
                or not ins.is_before_in_block(before):
            continue
        offs = list(ir.DenseI64ArrayAttr(ins.attributes["static_offsets"]))
        sizes = list(ir.DenseI64ArrayAttr(ins.attributes["static_sizes"]))
        strides = list(ir.DenseI64ArrayAttr(ins.attributes["static_strides"]))
        dest_rank = ir.RankedTensorType(ins.results[0].type).rank
        if dyn in offs or dest_rank != rank or sizes != list(ir.RankedTensorType(v.type).shape) \
                or any(s != 1 for s in strides):
            continue
        return ins.results[0], offs
    return v, [0] * rank


def _store_tile(t: ir.Value, dest: ir.Value, epilogue: ir.Operation | None, conv_result: ir.Value,
                offsets: list, dest_offsets: list, sizes: list[int], transposed: bool = True) -> ir.Value:
    """An accumulator tile stored as the ``sizes`` ([1, F part, 1, positions]) slice of ``dest`` at
    ``dest_offsets`` through ``epilogue``'s body (its other inputs sliced at ``offsets`` of the
    [N, F, Ho, Wo] loops), or copied when there is none. The tile is [positions, filters]
    (``transposed``: stored transposed, as vector code by :func:`_store_tile_transposed` where
    it applies, else by a generic) or [filters, positions]."""
    from mlir.dialects import arith
    if transposed and _transposed_store_ok(t, epilogue):
        return _store_tile_transposed(t, dest, epilogue, conv_result, offsets, dest_offsets)
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    elem = ir.RankedTensorType(t.type).element_type
    d = ir.AffineDimExpr.get
    # The generic's loops run in the tile's own orientation: (n, oy, ox, f) for a transposed tile,
    # so a per-channel bias is one vector of filters broadcast over the rows (read over
    # (n, f, oy, ox) it became tn vectors of one value each, hoisted out of the position loops:
    # 32 registers, spills) and only the store transposes. Old loop i (of n, f, oy, ox) is new
    # loop moved[i].
    moved = [0, 3, 1, 2] if transposed else [0, 1, 2, 3]

    def remap(m: ir.AffineMap) -> ir.AffineMap:
        return ir.AffineMap.get(4, 0, [d(moved[ir.AffineDimExpr(r).position]) for r in m.results])

    tile_map = ir.AffineMap.get(4, 0, [d(2), d(3)] if transposed else [d(1), d(3)])
    out_type = ir.RankedTensorType.get(sizes, elem)
    out = tensor.extract_slice(out_type, dest, [o for o in dest_offsets if not isinstance(o, int)], [], [],
                               [o if isinstance(o, int) else dyn for o in dest_offsets], sizes, [1, 1, 1, 1])
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    if epilogue is None:
        ins, maps = [t], [tile_map]
    else:
        ins, maps = [], []
        old_maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(epilogue.attributes["indexing_maps"])]
        for v, m in zip(list(epilogue.operands)[:-1], old_maps):
            if v == conv_result:
                ins.append(t)
                maps.append(tile_map)
                continue
            vt = ir.RankedTensorType(v.type)
            source, slot = _placed(v, epilogue)
            static, dyn_offs, part = [], [], []
            for j, r in enumerate(m.results):
                i = ir.AffineDimExpr(r).position
                if vt.shape[j] == 1:  # a broadcast dimension
                    static.append(slot[j])
                    part.append(1)
                    continue
                part.append(sizes[i])
                if isinstance(offsets[i], int):
                    static.append(offsets[i] + slot[j])
                else:
                    static.append(dyn)
                    dyn_offs.append(offsets[i] if slot[j] == 0 else
                                    arith.addi(offsets[i], arith.constant(ir.IndexType.get(), slot[j])))
            ins.append(tensor.extract_slice(ir.RankedTensorType.get(part, vt.element_type), source, dyn_offs, [], [],
                                            static, part, [1] * len(part)))
            maps.append(remap(m))
    g = linalg.GenericOp([out_type], ins, [out], ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in
                                                                   [*maps, remap(ir.AffineMap.get_identity(4))]]),
                         ir.ArrayAttr.get([parallel] * 4))
    block = g.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in [*ins, out]])
    with ir.InsertionPoint(block):
        if epilogue is None:
            linalg.YieldOp([block.arguments[0]])
        else:
            old = epilogue.regions[0].blocks[0]
            mapping = {old.arguments[i]: block.arguments[i] for i in range(len(old.arguments))}
            for o in old.operations:
                if o.name == "linalg.yield":
                    linalg.YieldOp([mapping.get(v, v) for v in o.operands])
                    break
                cheap = _clamp_by_constant(o, [mapping.get(v, v) for v in o.operands])
                if cheap is not None:
                    mapping[o.results[0]] = cheap
                    continue
                clone_mapped(o, mapping)
    return g.results[0]


#: Rows and columns of the blocks :func:`_transpose_rows` transposes with shuffles.
_TRANSPOSE_BLOCK = 8


def _transposed_store_ok(t: ir.Value, epilogue: ir.Operation | None) -> bool:
    """Whether :func:`_store_tile_transposed` applies: an f32 tile of at most 8 positions by a
    multiple of 8 filters, and an epilogue it can rebuild on vectors (or none)."""
    tt = ir.RankedTensorType(t.type)
    tm, tn = tt.shape
    if str(tt.element_type) != "f32" or tm > _TRANSPOSE_BLOCK or tn % _TRANSPOSE_BLOCK:
        return False
    return epilogue is None or _vector_epilogue_ok(epilogue)


def _transpose_rows(rows: list[ir.Value], tn: int) -> list[ir.Value]:
    """The columns of the matrix whose rows are ``rows`` (at most 8 ``vector<tn x f32>``, tn a
    multiple of 8): tn ``vector<len(rows) x f32>``.

    Each 8 x 8 block is the unpack / in-lane shuffle / half-swap sequence x86 runs as 24 single
    shuffle instructions (vunpck[lh]ps, vshufps, vperm2f128); rows past ``len(rows)`` repeat row 0
    and their lanes are dropped. ``vector.transpose`` of the whole tile, lowered element by element
    (MLIR's default) or as one wide shuffle, became several hundred instructions and stack traffic
    per tile in LLVM's x86 backend (a 64-channel 3x3 convolution's 8 x 32 tile: 640 instructions
    after the K loops, against 9 x 504 in them)."""
    from mlir.dialects import vector

    tm = len(rows)
    block = _TRANSPOSE_BLOCK
    f32 = ir.F32Type.get()
    vblock = ir.VectorType.get([block], f32)

    shuffle = vector.shuffle
    cols: list[ir.Value] = []
    for b0 in range(0, tn, block):
        r = [rows[i] if tn == block else vector.extract_strided_slice(vblock, rows[i], [b0], [block], [1])
             for i in range(tm)]
        r += [r[0]] * (block - tm)
        lo, hi = [0, 8, 1, 9, 4, 12, 5, 13], [2, 10, 3, 11, 6, 14, 7, 15]
        t = [shuffle(r[i], r[i + 1], m) for i in range(0, block, 2) for m in (lo, hi)]
        # t: lo01 hi01 lo23 hi23 lo45 hi45 lo67 hi67
        first, second = [0, 1, 8, 9, 4, 5, 12, 13], [2, 3, 10, 11, 6, 7, 14, 15]
        s = [shuffle(t[0], t[2], first), shuffle(t[0], t[2], second), shuffle(t[1], t[3], first),
             shuffle(t[1], t[3], second), shuffle(t[4], t[6], first), shuffle(t[4], t[6], second),
             shuffle(t[5], t[7], first), shuffle(t[5], t[7], second)]
        low, high = [0, 1, 2, 3, 8, 9, 10, 11], [4, 5, 6, 7, 12, 13, 14, 15]
        out = [shuffle(s[k], s[k + 4], low) for k in range(4)] + [shuffle(s[k], s[k + 4], high) for k in range(4)]
        if tm < block:
            out = [vector.extract_strided_slice(ir.VectorType.get([tm], f32), v, [0], [tm], [1]) for v in out]
        cols += out
    return cols


def _store_tile_transposed(t: ir.Value, dest: ir.Value, epilogue: ir.Operation | None, conv_result: ir.Value,
                           offsets: list, dest_offsets: list) -> ir.Value:
    """:func:`_store_tile` of a ``[positions, filters]`` tile as vector code with one transpose.

    The epilogue's ops that read only the accumulator and per-filter inputs (bias, scale,
    activations of those) run on the tile's rows (one vector of filters each); what they give the
    rest is transposed once (:func:`_transpose_rows`); the ops that read per-position inputs (a
    residual) run on the filters' rows of positions, each such input read as contiguous rows,
    and each filter's row is stored. A generic over the tile would read a residual transposed
    and transpose the tile again for the store."""
    from mlir.dialects import vector

    tt = ir.RankedTensorType(t.type)
    tm, tn = tt.shape
    elem = tt.element_type
    whole = vector.transfer_read(ir.VectorType.get([tm, tn], elem), t, [_index_plus(0, 0)] * 2,
                                 ir.AffineMap.get_identity(2), _zero_of(elem), [True, True])
    rows = [vector.extract(whole, [], [i]) for i in range(tm)]
    return _store_rows_transposed(rows, tn, dest, epilogue, conv_result, offsets, dest_offsets)


def _store_rows_transposed(rows: list[ir.Value], tn: int, dest: ir.Value, epilogue: ir.Operation | None,
                           conv_result: ir.Value, offsets: list, dest_offsets: list) -> ir.Value:
    """:func:`_store_tile_transposed` of a tile held as its rows (``vector<tn x f32>`` each, one
    per position): a tile computed in registers goes to memory only as the result."""
    from mlir.dialects import vector

    tm = len(rows)
    elem = ir.VectorType(rows[0].type).element_type
    d = ir.AffineDimExpr.get
    inputs: dict = {}  # block argument -> (value, map) of the epilogue's other inputs
    per_position: set = set()
    body = None
    if epilogue is not None:
        body = epilogue.regions[0].blocks[0]
        maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(epilogue.attributes["indexing_maps"])]
        for arg, v, m in zip(body.arguments, list(epilogue.operands)[:-1], maps):
            if v == conv_result:
                continue
            vt = ir.RankedTensorType(v.type)
            dims = [ir.AffineDimExpr(r).position for r in m.results]
            inputs[arg] = (v, dims)
            if any(i in (2, 3) and vt.shape[j] != 1 for j, i in enumerate(dims)):
                per_position.add(arg)

    def read(arg: ir.Value, f_extra: int | None) -> ir.Value:
        """Input ``arg`` as the tile needs it: a vector of the tile's filters (``f_extra`` None), or
        filter ``f0 + f_extra``'s row of positions (a per-position input) or one element broadcast."""
        v, dims = inputs[arg]
        vt = ir.RankedTensorType(v.type)
        source, slot = _placed(v, epilogue)
        at = []
        for j, i in enumerate(dims):
            if vt.shape[j] == 1:
                at.append(_index_plus(0, slot[j]))
            elif i == 1 and f_extra is not None:
                at.append(_index_plus(offsets[1], slot[j] + f_extra))
            else:
                at.append(_index_plus(offsets[i], slot[j]))
        rank = len(dims)
        along = 1 if f_extra is None else 3
        vtype = ir.VectorType.get([tn if f_extra is None else tm], vt.element_type)
        if along in dims and vt.shape[dims.index(along)] != 1:
            minor = ir.AffineMap.get(rank, 0, [d(dims.index(along))])
            return vector.transfer_read(vtype, source, at, minor, _zero_of(vt.element_type), [True])
        return vector.broadcast(vtype, tensor.extract(source, at))

    # Per row of positions (pre-transpose): the accumulator and ops of per-filter values only.
    pre: dict = {}  # epilogue value -> list (per tile row) of vector<tn>
    post_ops: list[ir.Operation] = []
    result = None
    if body is None:
        result = conv_result
    else:
        acc_arg = next(a for a, v in zip(body.arguments, epilogue.operands) if v == conv_result)
        pre[acc_arg] = rows
        for arg in inputs:
            if arg not in per_position:
                value = read(arg, None)
                pre[arg] = [value] * tm
        for o in body.operations:
            if o.name == "linalg.yield":
                result = o.operands[0]
                break
            if post_ops or any(v in body.arguments and v not in pre for v in o.operands) or \
                    any(v not in pre and _defined_in(v, body) for v in o.operands):
                post_ops.append(o)
                continue
            per_row = []
            for i in range(tm):
                operands = [pre[v][i] if v in pre else vector.broadcast(ir.VectorType.get([tn], v.type), v)
                            for v in o.operands]
                per_row.append(_vector_op(o, operands, tn))
            for k, r in enumerate(o.results):
                pre[r] = [row[k] for row in per_row]
    # What the per-position part reads of the row part, transposed once each.
    wanted = {v for o in post_ops for v in o.operands if v in pre and v not in inputs}
    if body is None:
        pre[conv_result] = rows
    if not post_ops and result not in inputs:
        wanted = {result}
    transposed = {v: _transpose_rows(pre[v], tn) for v in wanted}
    out_type = ir.RankedTensorType.get([1, tn, 1, tm], elem)
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    out = tensor.extract_slice(out_type, dest, [o for o in dest_offsets if not isinstance(o, int)], [], [],
                               [o if isinstance(o, int) else dyn for o in dest_offsets], [1, tn, 1, tm], [1, 1, 1, 1])
    store_map = ir.AffineMap.get(4, 0, [d(3)])
    for j in range(tn):
        values = {v: cols[j] for v, cols in transposed.items()}

        def value(v: ir.Value) -> ir.Value:
            if v not in values:
                # An input (filter j's row of positions, or its one element), else a scalar
                # defined outside the body.
                values[v] = read(v, j) if v in inputs else vector.broadcast(ir.VectorType.get([tm], v.type), v)
            return values[v]

        for o in post_ops:
            for r_old, r_new in zip(o.results, _vector_op(o, [value(v) for v in o.operands], tm)):
                values[r_old] = r_new
        out = vector.transfer_write(out_type, value(result), out,
                                    [_index_plus(0, 0), _index_plus(0, j), _index_plus(0, 0), _index_plus(0, 0)],
                                    store_map, [True])
    return out


def _vector_op(o: ir.Operation, operands: list, lanes: int) -> list[ir.Value]:
    """Scalar epilogue op ``o`` (arith/math) rebuilt on ``lanes``-wide vectors of ``operands``:
    a constant becomes a splat; a max/min against a constant the one-instruction clamp
    (:func:`_clamp_by_constant`)."""
    cheap = _clamp_by_constant(o, operands)
    if cheap is not None:
        return [cheap]
    attrs = {name: o.attributes[name] for name in o.attributes}
    if o.name == "arith.constant":
        attrs["value"] = ir.DenseElementsAttr.get_splat(ir.VectorType.get([lanes], o.results[0].type), attrs["value"])
    new = ir.Operation.create(o.name, results=[ir.VectorType.get([lanes], r.type) for r in o.results],
                              operands=operands, attributes=attrs)
    return list(new.results)


def _defined_in(v: ir.Value, body: ir.Block) -> bool:
    """Whether ``v`` is a result of an op of ``body``."""
    owner = v.owner
    return not isinstance(owner, ir.Block) and owner.operation.block == body


def _clamp_by_constant(o: ir.Operation, operands: list) -> ir.Value | None:
    """``arith.maximumf``/``minimumf`` of a value and a non-NaN constant (ReLU, ReLU6, clip) as a
    compare and a select, or None for anything else.

    x86 has no NaN-propagating vector maximum: ``maximumf`` becomes ``vmaxps`` with NaN and
    signed-zero fix-ups around it, while ``select(c > x, c, x)`` is one ``vmaxps(c, x)``, whose
    result is ``x`` when ``x`` is NaN. Same values, except ReLU of -0.0 stays -0.0. ``operands``
    are ``o``'s operands as rebuilt (scalars, or vectors with the constant broadcast)."""
    from mlir.dialects import arith

    if o.name not in ("arith.maximumf", "arith.minimumf"):
        return None
    for ci, xi in ((0, 1), (1, 0)):
        c = o.operands[ci].owner
        c = c.operation if isinstance(c, ir.OpView) else c
        if not isinstance(c, ir.Operation) or c.name != "arith.constant" or not isinstance(o.operands[ci].type,
                                                                                            ir.FloatType):
            continue
        value = ir.FloatAttr(c.attributes["value"]).value
        if math.isnan(value):
            return None
        const, x = operands[ci], operands[xi]
        pred = arith.CmpFPredicate.OGT if o.name == "arith.maximumf" else arith.CmpFPredicate.OLT
        return arith.select(arith.cmpf(pred, const, x), const, x)
    return None


def conv_to_shifted_rows(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> bool:
    """A ``conv_2d_nchw_fchw`` (batch 1, constant filter, any kernel and stride) as matmuls over
    the output positions, summed in register tiles and stored through its epilogue.

    ``out^T[Ho*Wo, F] = sum over taps of window^T @ W[:, :, ky, kx]^T``: a register tile's rows
    are consecutive positions of one output row (``TM`` at most; a 7-wide row is one 7-row tile,
    a 14-wide one two), its columns ``TN`` filters. Per K step (one input channel) a tile reads its
    positions' input elements (consecutive for stride 1, every s-th for stride s: each element is
    broadcast on its own anyway) and one contiguous row of the filter, stored at compile time as
    ``[panel, tap, C, TN]``. No patch matrix (im2col copied the input 9 times), no padded-width
    waste (:func:`conv_to_shifted_matmuls` computes a 7 x 7 map as 7 x 9), no copy of the input:
    windows read the padded input in place. Small images give few, short columns the other way
    round (a 49-wide row splits into 32 + 16 + 1 columns). Each tile is stored transposed into the
    ``[1, F, Ho, Wo]`` result through the convolution's epilogue (:func:`_fusable_epilogue`,
    :func:`_store_tile`): no accumulator, no transpose or epilogue pass. Measured on one core of the 2-core EPYC against
    im2col, with bias and ReLU: 512 -> 512 channels at 7 x 7 1.7 -> 1.18 ms (onnxruntime 1.25),
    256 -> 512 at 14 x 14 stride 2 0.95 -> 0.51 ms; 1x1 ones too (MobileNetV2's 96 -> 576 at
    14 x 14 with ReLU6 0.169 -> 0.107 ms: no [C, HW] row stride, the epilogue in the tile). False
    when it does not apply (also when the filter is not a constant, has fewer than
    ``_ROWS_MIN_FILTERS`` rows or fewer than ``_ROWS_MIN_CHANNELS`` input channels)."""
    from ...irutils.constants import constant_array

    operands = _float_conv_operands(op)
    if operands is None:
        return False
    x, w, out, xt, wt, ot = operands
    n, c = xt.shape[:2]
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    if n != 1 or f < _ROWS_MIN_FILTERS or c < _ROWS_MIN_CHANNELS or not _is_zero_fill(out):
        return False
    warr = constant_array(w, ("arith.constant",))
    if warr is None:
        return False
    from mlir.dialects import arith, scf

    elem = xt.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    length = ho * wo
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    d = ir.AffineDimExpr.get
    # (m, n, k): A is the [C, TM] window read transposed, B the [C, TN] filter rows.
    maps = [ir.AffineMap.get(3, 0, exprs) for exprs in
            ([d(2), d(0)], [d(2), d(1)], [d(0), d(1)])]
    wrows = warr.transpose(2, 3, 1, 0).reshape(kh * kw, c, f)  # [tap, C, F]
    taps = [(ky, kx) for ky in range(kh) for kx in range(kw)]

    def packed(col0: int, panels: int, tn: int) -> ir.Value:
        """The filter columns [col0, col0 + panels*tn) as [panel, tap, C, tn]: each tile's
        [C, tn] rows contiguous (rows of the [tap, C, F] layout are F apart: at F = 512, 2 KiB,
        every row of a panel falls in the same L1 sets and the panel evicts itself)."""
        part = wrows[:, :, col0:col0 + panels * tn].reshape(kh * kw, c, panels, tn)
        return _array_constant(part.transpose(2, 0, 1, 3), elem, "conv_filter_panels")

    epilogue = _fusable_epilogue(op)
    anchor = epilogue if epilogue is not None else op
    # An input that is also the next padded buffer's content is read from that buffer, as the
    # epilogue's inputs are (:func:`_placed`): a read of it after the insert would make
    # bufferization compute it out of place and copy it in (ResNet-18's downsampling 1x1s).
    source, slot = _placed(x, op)
    if slot[0] != 0:
        source, slot = x, [0] * 4
    row = ir.RankedTensorType(source.type).shape[3]  # the row stride of the buffer read
    origin, chan0 = slot[2] * row + slot[3], slot[1]
    with op.location, ir.InsertionPoint(anchor):
        flat = _collapse(source, [[0, 1], [2, 3]])  # [C, Hp*Wp]: the windows read it in place
        zero = arith.constant(elem, 0.0)
        # The [1, F, Ho, Wo] result: the epilogue's own output (its tiles write it), or a new one.
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def tile(acc_in: ir.Value, oy: ir.Value, pos: ir.Value, x0: ir.Value, tm: int, p: ir.Value,
                 f0: ir.Value, wconst: ir.Value, tn: int) -> ir.Value:
            """One [tm, tn] register tile: positions x0.. of output row oy (first input element
            ``pos``) by filters f0..; all taps summed in registers, then stored transposed into the
            [1, tn, Ho, Wo] panel ``acc_in`` through the epilogue."""
            base = arith.addi(pos, arith.muli(x0, const(strides[1])) if strides[1] != 1 else x0)
            t = linalg.fill(zero, outs=[tensor.EmptyOp([tm, tn], elem).result])
            t.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
            for ky, kx in taps:
                off = origin + ky * dilations[0] * row + kx * dilations[1]
                start = arith.addi(base, const(off)) if off else base
                window = tensor.extract_slice(ir.RankedTensorType.get([c, tm], elem), flat, [start],
                                              [], [], [chan0, dyn], [c, tm], [1, strides[1]])
                rows_t = tensor.extract_slice(ir.RankedTensorType.get([1, 1, c, tn], elem), wconst,
                                              [p], [], [], [dyn, ky * kw + kx, 0, 0], [1, 1, c, tn],
                                              [1, 1, 1, 1])
                rows_t = _collapse(rows_t, [[0, 1, 2], [3]])
                mm = linalg.matmul(window, rows_t, outs=[t], indexing_maps=maps)
                mm.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                t = mm
            stored = _store_tile(t, acc_in, epilogue, op.results[0], [0, f0, oy, x0], [0, 0, oy, x0], [1, tn, 1, tm])
            if stored.owner.name == "linalg.generic":
                stored.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
            return tensor.insert_slice(stored, acc_in, [oy, x0], [], [], [0, 0, dyn, dyn], [1, tn, 1, tm],
                                       [1, 1, 1, 1])

        def panel_rows(panel: ir.Value, p: ir.Value, f0: ir.Value, wconst: ir.Value, tn: int) -> ir.Value:
            """The register tiles of one [1, tn, Ho, Wo] filter panel, output row by output row."""
            loop = scf.ForOp(const(0), const(ho), const(1), [panel])
            with ir.InsertionPoint(loop.body):
                oy = loop.induction_variable
                whole = loop.inner_iter_args[0]
                pos = arith.muli(oy, const(strides[0] * row))  # the row's first input element
                for first, tm, count in _row_chunks(wo, tile_m):
                    run = scf.ForOp(const(first), const(first + tm * count), const(tm), [whole])
                    with ir.InsertionPoint(run.body):
                        scf.YieldOp([tile(run.inner_iter_args[0], oy, pos, run.induction_variable, tm, p, f0,
                                          wconst, tn)])
                    whole = run.results[0]
                scf.YieldOp([whole])
            return loop.results[0]

        for col0, tn, panels in _parts(f, tile_n):
            wconst = packed(col0, panels, tn)
            parallel = threads > 1 and panels > 1 and panels * tn * length * c * kh * kw >= PARALLEL_MIN_MACS
            acc = _over_panels(acc, 1, col0, tn, panels, parallel,
                               lambda panel, p, f0, w=wconst, tn=tn: panel_rows(panel, p, f0, w, tn))
    _replace_rewritten(op, out, acc, epilogue)
    return True


def _over_row_blocks(acc: ir.Value, threads: int, units: int, unit_rows: int, scratch: list[list[int]],
                     body: Callable[[ir.Value, ir.Value, list[ir.Value]], tuple[ir.Value, list[ir.Value]]]) -> ir.Value:
    """``body(block, first, scratch_slices) -> (block, scratch_slices)`` for each of ``threads``
    blocks of ``units / threads`` units (``unit_rows`` output rows each: dimension 2 of the
    ``[N, F, H, W]`` ``acc``; ``first``: the block's first unit), the iterations of one
    ``scf.forall``. Each ``scratch`` shape is one thread's slice of a ``[threads, *shape]`` buffer
    (disjoint: written in place, nothing allocated in the parallel loop). Returns the new ``acc``;
    every output element is computed by one iteration in the one-thread order (same bits)."""
    from mlir.dialects import arith, scf

    at = ir.RankedTensorType(acc.type)
    elem = at.element_type
    index = ir.IndexType.get()
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    per = units // threads
    block = [at.shape[0], at.shape[1], per * unit_rows, at.shape[3]]
    buffers = [tensor.EmptyOp([threads, *shape], elem).result for shape in scratch]
    par = scf.ForallOp([0], [threads], [1], [acc, *buffers])
    with ir.InsertionPoint(par.body):
        b = par.induction_variables[0]
        shared = list(par.inner_iter_args)
        first = arith.muli(b, arith.constant(index, per))
        row0 = arith.muli(first, arith.constant(index, unit_rows)) if unit_rows != 1 else first
        mine = tensor.extract_slice(ir.RankedTensorType.get(block, elem), shared[0], [row0], [], [],
                                    [0, 0, dyn, 0], block, [1, 1, 1, 1])
        slices = [tensor.extract_slice(ir.RankedTensorType.get(shape, elem), buf, [b], [], [],
                                       [dyn] + [0] * len(shape), [1, *shape], [1] * (len(shape) + 1))
                  for shape, buf in zip(scratch, shared[1:])]
        done, done_scratch = body(mine, first, slices)
        with ir.InsertionPoint(par.terminator().region.blocks[0]):
            tensor.parallel_insert_slice(done, shared[0], [row0], [], [], [0, 0, dyn, 0], block, [1, 1, 1, 1])
            for shape, d, buf in zip(scratch, done_scratch, shared[1:]):
                tensor.parallel_insert_slice(d, buf, [b], [], [], [dyn] + [0] * len(shape), [1, *shape],
                                             [1] * (len(shape) + 1))
    return par.results[0]


def _transposed_tile_conv(op: ir.Operation, tile_m: int, tile_n: int):
    """(padded input, output, filter array, epilogue or None) of a convolution whose register
    tiles :func:`_store_rows_transposed` can store: f32, batch 1, a constant filter of a multiple
    of 8 filters, tiles of at most 8 rows by a multiple of 8 columns (every JIT CPU's tile; the
    estimate assumes it), an output that starts as zeros and an epilogue of vector code; else None."""
    from ...irutils.constants import constant_array

    operands = _float_conv_operands(op)
    if operands is None:
        return None
    x, w, out, xt, wt, _ = operands
    if xt.shape[0] != 1 or str(xt.element_type) != "f32" or wt.shape[0] % _TRANSPOSE_BLOCK \
            or tile_m > _TRANSPOSE_BLOCK or tile_n % _TRANSPOSE_BLOCK or not _is_zero_fill(out):
        return None
    epilogue = _fusable_epilogue(op)
    if epilogue is not None and not _vector_epilogue_ok(epilogue):
        return None
    warr = constant_array(w, ("arith.constant",))
    if warr is None:
        return None
    return x, out, warr, epilogue


#: Largest C * F of a Winograd convolution (:func:`conv_to_winograd`): its transformed filter,
#: 16 * C * F floats, is read once per two output rows and should stay in the L2 (1 MiB at 128 x 128).
_WINOGRAD_MAX_CF = 128 * 128
#: Winograd F(2x2, 3x3): input transform B^T (rows), filter transform G, output transform A^T.
_WINOGRAD_G = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]])


def conv_to_winograd(op: ir.Operation, tile_m: int, tile_n: int, threads: int) -> bool:
    """A batch-1 f32 3x3 stride-1 ``conv_2d_nchw_fchw`` with a constant filter as Winograd
    F(2x2, 3x3): 16 products per 2 x 2 output tile and channel instead of 36.

    The filter is transformed at compile time (``U = G g G^T``, stored ``[panel, 16, C, TN]``).
    Per pair of output rows (the iterations of an ``scf.forall`` with threads, each with its own
    scratch): the input transform ``V = B^T d B`` of every 4 x 4 input tile, as vector code over
    tiles (two loads of a padded input row give a vector of tiles' columns 0-3 by even/odd
    shuffles), into ``V[16, C, tiles]``; then, per filter panel, 16 register-tile matmuls
    ``M[xi] = V[xi]^T U[xi]`` (tiles by filters, K = C) into its columns of ``M[16, tiles, F]``; then the output
    transform ``A^T M A`` per tile, its two output rows stored transposed through the epilogue
    (:func:`_store_rows_transposed`). The scratch of a row pair (16 x (C + F) x Wo/2 floats:
    229 KB for ResNet-18's 64-channel layers) stays in the L2. False when it does not apply (not f32, batch 1, 3x3, stride and
    dilation 1, an even output, a constant filter, at least ``_ROWS_MIN_CHANNELS`` channels, C * F
    at most ``_WINOGRAD_MAX_CF``, a multiple of 8 filters, a vector epilogue)."""
    from mlir.dialects import arith, scf, vector

    operands = _float_conv_operands(op)
    if operands is None:
        return False
    _, _, _, xt, wt, ot = operands
    _, c, hp, wp = xt.shape
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    if (kh, kw) != (3, 3) or _int_list(op, "strides") != [1, 1] or _int_list(op, "dilations") != [1, 1] \
            or ho % 2 or wo % 2 or (hp, wp) != (ho + 2, wo + 2) or c < _ROWS_MIN_CHANNELS or c * f > _WINOGRAD_MAX_CF:
        return False
    tiled = _transposed_tile_conv(op, tile_m, tile_n)
    if tiled is None:
        return False
    x, out, warr, epilogue = tiled
    elem = xt.element_type
    index = ir.IndexType.get()
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    th, tw = ho // 2, wo // 2
    u = np.einsum("ai,fcij,bj->abcf", _WINOGRAD_G, warr.astype(np.float64), _WINOGRAD_G).reshape(16, c, f)
    vl = min(max(1, tile_n // 2), 1 << (tw.bit_length() - 1))
    starts = list(range(0, tw - vl + 1, vl))
    if starts[-1] != tw - vl:
        starts.append(tw - vl)  # overlaps the vector before
    minor3 = ir.AffineMap.get(3, 0, [ir.AffineDimExpr.get(2)])
    minor4 = ir.AffineMap.get(4, 0, [ir.AffineDimExpr.get(3)])
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        zero = arith.constant(elem, 0.0)
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def vzero(lanes: int) -> ir.Value:
            vt = ir.VectorType.get([lanes], elem)
            return arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, ir.FloatAttr.get(elem, 0.0)))

        # (first filter, tn, panels, U of those filters as [panel, 16, C, tn]) per column part.
        chunks = [(col0, tn, panels, _array_constant(np.ascontiguousarray(
            u[:, :, col0:col0 + panels * tn].reshape(16, c, panels, tn).transpose(2, 0, 1, 3).astype(np.float32)),
            elem, "winograd_filter_panels")) for col0, tn, panels in _parts(f, tile_n)]

        def input_transform(vbuf: ir.Value, ty: ir.Value) -> ir.Value:
            """V[16, C, tiles] of the row pair ``ty``."""
            loop = scf.ForOp(const(0), const(c), const(1), [vbuf])
            with ir.InsertionPoint(loop.body):
                ch = loop.induction_variable
                cur = loop.inner_iter_args[0]
                top = arith.muli(ty, const(2))
                rows = [top] + [arith.addi(top, const(i)) for i in (1, 2, 3)]
                wide = ir.VectorType.get([2 * vl], elem)
                even, odd = list(range(0, 2 * vl, 2)), list(range(1, 2 * vl, 2))
                for tx0 in starts:
                    d = []
                    for r in rows:
                        lo = vector.transfer_read(wide, x, [const(0), ch, r, const(2 * tx0)], minor4, zero, [True])
                        hi = vector.transfer_read(wide, x, [const(0), ch, r, const(2 * tx0 + 2)], minor4, zero, [True])
                        d.append([vector.shuffle(lo, lo, even), vector.shuffle(lo, lo, odd),
                                  vector.shuffle(hi, hi, even), vector.shuffle(hi, hi, odd)])
                    t = [[arith.subf(d[0][j], d[2][j]) for j in range(4)], [arith.addf(d[1][j], d[2][j]) for j in range(4)],
                         [arith.subf(d[2][j], d[1][j]) for j in range(4)], [arith.subf(d[1][j], d[3][j]) for j in range(4)]]
                    for a in range(4):
                        v = [arith.subf(t[a][0], t[a][2]), arith.addf(t[a][1], t[a][2]),
                             arith.subf(t[a][2], t[a][1]), arith.subf(t[a][1], t[a][3])]
                        for b in range(4):
                            cur = vector.transfer_write(cur.type, v[b], cur, [const(4 * a + b), ch, const(tx0)], minor3,
                                                        [True])
                scf.YieldOp([cur])
            return loop.results[0]

        def products(mbuf: ir.Value, vbuf: ir.Value, p: ir.Value, f0: ir.Value, uconst: ir.Value, tn: int) -> ir.Value:
            """M[16, tiles, f0:f0 + tn] = V[xi]^T U[xi] for filter panel ``p`` (filters f0..)."""
            xis = scf.ForOp(const(0), const(16), const(1), [mbuf])
            with ir.InsertionPoint(xis.body):
                xi = xis.induction_variable
                cur = xis.inner_iter_args[0]
                for first, tm, count in _row_chunks(tw, tile_m):
                    run = scf.ForOp(const(first), const(first + tm * count), const(tm), [cur])
                    with ir.InsertionPoint(run.body):
                        t0 = run.induction_variable
                        k = scf.ForOp(const(0), const(c), const(1), [vzero(tn)] * tm)
                        with ir.InsertionPoint(k.body):
                            ch = k.induction_variable
                            vt = ir.VectorType.get([tn], elem)
                            b = vector.transfer_read(vt, uconst, [p, xi, ch, const(0)], minor4, zero, [True])
                            rows = [vector.fma(vector.broadcast(vt, tensor.extract(vbuf, [xi, ch, _index_plus(t0, i)])),
                                               b, r) for i, r in enumerate(k.inner_iter_args)]
                            scf.YieldOp(rows)
                        m = run.inner_iter_args[0]
                        for i, r in enumerate(k.results):
                            m = vector.transfer_write(m.type, r, m, [xi, _index_plus(t0, i), f0], minor3, [True])
                        scf.YieldOp([m])
                    cur = run.results[0]
                scf.YieldOp([cur])
            return xis.results[0]

        def output_transform(whole: ir.Value, mbuf: ir.Value, f0: ir.Value, ty: ir.Value, local: ir.Value,
                             tn: int) -> ir.Value:
            """The two output rows of row pair ``ty`` of filters f0.. from M, through the epilogue,
            stored at row pair ``local`` of ``whole``."""
            vt = ir.VectorType.get([tn], elem)
            for first, q, count in _row_chunks(tw, 4):
                run = scf.ForOp(const(first), const(first + q * count), const(q), [whole])
                with ir.InsertionPoint(run.body):
                    t0 = run.induction_variable
                    cur = run.inner_iter_args[0]
                    out_rows: list[list[ir.Value]] = [[], []]
                    for k in range(q):
                        mm = [vector.transfer_read(vt, mbuf, [const(xi), _index_plus(t0, k), f0], minor3, zero,
                                                   [True]) for xi in range(16)]
                        s0 = [arith.addf(arith.addf(mm[b], mm[4 + b]), mm[8 + b]) for b in range(4)]
                        s1 = [arith.subf(arith.subf(mm[4 + b], mm[8 + b]), mm[12 + b]) for b in range(4)]
                        for i, s_ in enumerate((s0, s1)):
                            out_rows[i].append(arith.addf(arith.addf(s_[0], s_[1]), s_[2]))
                            out_rows[i].append(arith.subf(arith.subf(s_[1], s_[2]), s_[3]))
                    x0 = arith.muli(t0, const(2))
                    for i in range(2):
                        oy = _index_plus(arith.muli(ty, const(2)), i)
                        dy = _index_plus(arith.muli(local, const(2)), i)
                        stored = _store_rows_transposed(out_rows[i], tn, cur, epilogue, op.results[0],
                                                        [0, f0, oy, x0], [0, f0, dy, x0])
                        cur = tensor.insert_slice(stored, cur, [f0, dy, x0], [], [], [0, dyn, dyn, dyn],
                                                  [1, tn, 1, 2 * q], [1, 1, 1, 1])
                    scf.YieldOp([cur])
                whole = run.results[0]
            return whole

        def row_pairs(whole: ir.Value, vbuf: ir.Value, mbuf: ir.Value, first: ir.Value | None,
                      pairs: int) -> list[ir.Value]:
            loop = scf.ForOp(const(0), const(pairs), const(1), [whole, vbuf, mbuf])
            with ir.InsertionPoint(loop.body):
                r = loop.induction_variable
                ty = r if first is None else arith.addi(first, r)
                cur, v, m = loop.inner_iter_args
                v = input_transform(v, ty)
                for first_f, tn, panels, uconst in chunks:
                    pl = scf.ForOp(const(0), const(panels), const(1), [cur, m])
                    with ir.InsertionPoint(pl.body):
                        p = pl.induction_variable
                        pc, pm = pl.inner_iter_args
                        f0 = arith.addi(arith.muli(p, const(tn)), const(first_f))
                        pm = products(pm, v, p, f0, uconst, tn)
                        scf.YieldOp([output_transform(pc, pm, f0, ty, r, tn), pm])
                    cur, m = pl.results
                scf.YieldOp([cur, v, m])
            return list(loop.results)

        # Scratch of one row pair (one per thread): V[16, C, tiles] and M[16, tiles, F], the
        # filter panels writing their columns of M.
        vshape, mshape = [16, c, tw], [16, tw, f]
        if threads > 1 and th % threads == 0 and f * ho * wo * c * 9 >= PARALLEL_MIN_MACS:
            per = th // threads

            def block(mine: ir.Value, first: ir.Value, scratch: list[ir.Value]) -> tuple[ir.Value, list[ir.Value]]:
                done = row_pairs(mine, scratch[0], scratch[1], first, per)
                return done[0], done[1:]

            acc = _over_row_blocks(acc, threads, th, 2, [vshape, mshape], block)
        else:
            acc = row_pairs(acc, tensor.EmptyOp(vshape, elem).result, tensor.EmptyOp(mshape, elem).result, None, th)[0]
    _replace_rewritten(op, out, acc, epilogue)
    return True


def conv_to_direct_rows(op: ir.Operation, tile_m: int, tile_n: int, threads: int) -> bool:
    """A batch-1 f32 ``conv_2d_nchw_fchw`` with a constant filter and few input channels (the
    3-channel stems) as direct register tiles of output positions by filters, written as vector
    code: no patch matrix, no phase split.

    Per tile (``TM`` consecutive positions of one output row by ``TN`` filters): one loop over
    (input channel, kernel row) carries the tile's rows in registers; in its body, for each
    kernel column, one vector of the filter (stored at compile time as ``[panel, C, kh, kw, TN]``)
    and each position's input element broadcast (any stride: every element is broadcast on its
    own). The tile is then stored transposed through the epilogue (:func:`_store_tile`). With
    K = C*kh*kw = 147 and few channels, :func:`conv_to_shifted_rows` (one K loop per tap) ran
    49 loops of 3 steps, unrolled by LLVM into straight-line code with spills (ResNet-18's stem
    1.40 ms); im2col one output row at a time (:func:`conv_to_row_im2col`) gathers a
    ``[147, Wo]`` patch row, and its ``[147, TN]`` panel with the 37.6 KiB filter overflows the
    L1 (ResNet-18's stem 1.03 ms against 0.94 for this scheme, written first in C). False when it
    does not apply (not f32, a filter that is not a constant, fewer than ``_ROWS_MIN_FILTERS``
    filters, a filter count not a multiple of 8, a tile of more than 8 rows or columns not a
    multiple of 8, an epilogue that is not vector code)."""
    from mlir.dialects import arith, scf, vector

    operands = _float_conv_operands(op)
    if operands is None:
        return False
    _, _, _, xt, wt, ot = operands
    c = xt.shape[1]
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    if f < _ROWS_MIN_FILTERS:
        return False
    tiled = _transposed_tile_conv(op, tile_m, tile_n)
    if tiled is None:
        return False
    x, out, warr, epilogue = tiled
    elem = xt.element_type
    index = ir.IndexType.get()
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    minor = ir.AffineMap.get(5, 0, [ir.AffineDimExpr.get(4)])
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def tile(acc_in: ir.Value, oy: ir.Value, dest_oy: ir.Value, x0: ir.Value, tm: int, p: ir.Value,
                 f0: ir.Value, wconst: ir.Value, tn: int) -> ir.Value:
            """Positions x0.. of output row ``oy`` by filters f0..: stored at row ``dest_oy`` of the
            [1, tn, rows, Wo] panel ``acc_in``."""
            vtype = ir.VectorType.get([tn], elem)
            zero = arith.constant(vtype, ir.DenseElementsAttr.get_splat(vtype, ir.FloatAttr.get(elem, 0.0)))
            top = arith.muli(oy, const(strides[0]))
            left = arith.muli(x0, const(strides[1]))
            cols = [arith.addi(left, const(i * strides[1] + kx * dilations[1]))
                    for kx in range(kw) for i in range(tm)]
            chans = scf.ForOp(const(0), const(c), const(1), [zero] * tm)
            with ir.InsertionPoint(chans.body):
                ch = chans.induction_variable
                krows = scf.ForOp(const(0), const(kh), const(1), list(chans.inner_iter_args))
                with ir.InsertionPoint(krows.body):
                    ky = krows.induction_variable
                    y = arith.addi(top, arith.muli(ky, const(dilations[0])) if dilations[0] != 1 else ky)
                    rows = list(krows.inner_iter_args)
                    for kx in range(kw):
                        b = vector.transfer_read(vtype, wconst, [p, ch, ky, const(kx), const(0)], minor,
                                                 arith.constant(elem, 0.0), [True])
                        for i in range(tm):
                            a = vector.broadcast(vtype, tensor.extract(x, [const(0), ch, y, cols[kx * tm + i]]))
                            rows[i] = vector.fma(a, b, rows[i])
                    scf.YieldOp(rows)
                scf.YieldOp(list(krows.results))
            stored = _store_rows_transposed(list(chans.results), tn, acc_in, epilogue, op.results[0],
                                            [0, f0, oy, x0], [0, 0, dest_oy, x0])
            return tensor.insert_slice(stored, acc_in, [dest_oy, x0], [], [], [0, 0, dyn, dyn], [1, tn, 1, tm],
                                       [1, 1, 1, 1])

        def panel_rows(panel: ir.Value, p: ir.Value, f0: ir.Value, wconst: ir.Value, tn: int,
                       row0: ir.Value | None, rows: int) -> ir.Value:
            """The tiles of output rows row0.. (``rows`` of them) of one [1, tn, rows, Wo] panel."""
            loop = scf.ForOp(const(0), const(rows), const(1), [panel])
            with ir.InsertionPoint(loop.body):
                r = loop.induction_variable
                oy = r if row0 is None else arith.addi(row0, r)
                whole = loop.inner_iter_args[0]
                for first, tm, count in _row_chunks(wo, tile_m):
                    run = scf.ForOp(const(first), const(first + tm * count), const(tm), [whole])
                    with ir.InsertionPoint(run.body):
                        scf.YieldOp([tile(run.inner_iter_args[0], oy, r, run.induction_variable, tm, p, f0,
                                          wconst, tn)])
                    whole = run.results[0]
                scf.YieldOp([whole])
            return loop.results[0]

        # (first filter, tn, panels, the filter as [panel, C, kh, kw, tn]: a tile's filter vectors
        # in the order its loops read them) per column part.
        chunks = [(col0, tn, panels, _array_constant(np.ascontiguousarray(
            warr[col0:col0 + panels * tn].reshape(panels, tn, c, kh, kw).transpose(0, 2, 3, 4, 1)),
            elem, "conv_filter_panels")) for col0, tn, panels in _parts(f, tile_n)]
        parallel = threads > 1 and f * ho * wo * c * kh * kw >= PARALLEL_MIN_MACS

        def all_panels(whole: ir.Value, row0: ir.Value | None, rows: int, by_panels: bool) -> ir.Value:
            for first, tn, panels, wconst in chunks:
                whole = _over_panels(whole, 1, first, tn, panels, by_panels and panels > 1,
                                     lambda panel, p, f0, w=wconst, tn=tn: panel_rows(panel, p, f0, w, tn, row0, rows))
            return whole

        if parallel and chunks[0][2] < threads and ho % threads == 0:
            # Fewer filter panels than threads (MobileNetV2's 32-filter stem: one): a block of
            # Ho / threads output rows per thread instead.
            per = ho // threads
            acc = _over_row_blocks(acc, threads, ho, 1, [],
                                   lambda block, first, _: (all_panels(block, first, per, False), []))
        else:
            acc = all_panels(acc, None, ho, parallel)
    _replace_rewritten(op, out, acc, epilogue)
    return True


_DEFAULT_MATMUL_MAPS = ("[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
                        "affine_map<(d0, d1, d2) -> (d0, d1)>]")
#: Fewest rows of a matmul with a constant B for :func:`matmul_to_packed_panels` (one-row products
#: keep the GEMV tiles of the plain path).
_PACKED_MIN_ROWS = 2
#: Largest constant B packed (the compile holds it three times: the blob, its copy, the packed
#: one); larger ones keep the plain tiles.
_PACK_MAX_BYTES = 1 << 28


def matmul_to_packed_panels(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int) -> bool:
    """A ``linalg.matmul`` with a constant B as register tiles over B packed in column panels.

    B ``[K, N]`` is stored at compile time as ``[N / TN, K, TN]`` (mmt4d's layout for the right
    operand): each panel one contiguous block that the hardware prefetcher streams in order,
    instead of K rows N elements apart (GPT-2's 256 x 50257 logits weight: a new 4 KiB page for
    every row of every panel). Loops: column panels (an ``scf.forall`` with threads), row tiles,
    then the tile's K loop (``[TM, K] x [K, TN]`` per tile, tagged ``tag`` for :func:`_script`).
    An output that starts as zeros starts each tile from a zero vector. Column remainders get
    narrower packed panels, row remainders smaller tiles (:func:`_chunks`). False when it does not
    apply (B not a constant, fewer than ``_PACKED_MIN_ROWS`` rows, mixed or other element types)."""
    from mlir.dialects import arith, scf

    from ...irutils.constants import constant_array, constant_op, read_resource_array

    if op.name != "linalg.matmul" or len(op.operands) != 3 or len(op.results) != 1:
        return False
    a, b, out = op.operands
    at, bt, ot = _static(a.type), _static(b.type), _static(out.type)
    if at is None or bt is None or ot is None or at.rank != 2 or bt.rank != 2:
        return False
    if {str(t.element_type) for t in (at, bt, ot)} not in ({"f32"}, {"f64"}) or any(0 in t.shape for t in (at, bt)):
        return False
    if "indexing_maps" in op.attributes and str(op.attributes["indexing_maps"]) != _DEFAULT_MATMUL_MAPS:
        return False
    m, k = at.shape
    n = bt.shape[1]
    if m < _PACKED_MIN_ROWS:
        return False
    barr = constant_array(b, ("arith.constant",))
    if barr is None:
        # Past what the constant folders read (MAX_RESOURCE_ELEMENTS): the largest weights are the
        # ones that gain most (GPT-2's 256 x 50257 logits weight, unpacked, read a new page in
        # every K step), and this reads the blob once to write its packed copy.
        cop = constant_op(b, ("arith.constant",))
        nbytes = k * n * (ir.FloatType(bt.element_type).width // 8)
        flat = read_resource_array(cop.attributes["value"]) if cop is not None and nbytes <= _PACK_MAX_BYTES else None
        if flat is None or flat.size != k * n:
            return False
        barr = flat.reshape(k, n)
    elem = ot.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    zero_init = _is_zero_fill(out)
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
            for rsplit, tm in _chunks(m, tile_m):
                rows = rsplit if rsplit is not None else m - r0
                loop = scf.ForOp(const(r0), const(r0 + rows), const(tm), [panel])
                with ir.InsertionPoint(loop.body):
                    i0 = loop.induction_variable
                    whole = loop.inner_iter_args[0]
                    t = tensor.extract_slice(ir.RankedTensorType.get([tm, tn], elem), whole, [i0], [], [],
                                             [dyn, 0], [tm, tn], [1, 1])
                    if zero_init:
                        t = linalg.fill(zero, outs=[t])
                        t.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                    arows = tensor.extract_slice(ir.RankedTensorType.get([tm, k], elem), a, [i0], [], [],
                                                 [dyn, 0], [tm, k], [1, 1])
                    bp = tensor.extract_slice(ir.RankedTensorType.get([1, k, tn], elem), bconst, [p], [], [],
                                              [dyn, 0, 0], [1, k, tn], [1, 1, 1])
                    mm = linalg.matmul(arows, _collapse(bp, [[0, 1], [2]]), outs=[t])
                    mm.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                    scf.YieldOp([tensor.insert_slice(mm, whole, [i0], [], [], [dyn, 0], [tm, tn], [1, 1])])
                panel = loop.results[0]
                r0 += rows
            return panel

        for col0, tn, panels in _parts(n, tile_n):
            part = barr[:, col0:col0 + panels * tn].reshape(k, panels, tn).transpose(1, 0, 2)
            bconst = _array_constant(part, elem, "matmul_b_panels")
            parallel = threads > 1 and panels > 1 and m * panels * tn * k >= PARALLEL_MIN_MACS
            acc = _over_panels(acc, 1, col0, tn, panels, parallel,
                               lambda panel, p, j0, b=bconst, tn=tn: panel_tiles(panel, p, b, tn))
    fill = out.owner.operation if isinstance(out.owner, ir.OpView) else out.owner
    op.results[0].replace_all_uses_with(acc)
    op.erase()
    if zero_init and not list(fill.results[0].uses):
        fill.erase()
    return True


#: Most patch-matrix rows (``C*kh*kw``) of :func:`conv_to_row_im2col` (a row's patches stay in the L2).
_ROW_IM2COL_MAX_K = 1024


#: Fewest output columns for which a 1x1 stride-1 convolution's tiles are filters by positions
#: (:func:`_positions_as_columns`).
_POINTWISE_COLUMNS_MIN_WIDTH = 48


def _positions_as_columns(op: ir.Operation) -> bool:
    """Whether a 1x1 stride-1 convolution's register tiles are better filters by output
    positions (the row's input read as the matmul's right operand, tiles stored without a
    transpose: :func:`conv_to_row_im2col`) than positions by filters
    (:func:`conv_to_shifted_rows`): for rows of at least 48 columns. Measured on one core of the
    2-core EPYC with bias and ReLU6, ms, AVX-512 code (TN = 32) / AVX2 code (TN = 16):
    MobileNetV2's 16 -> 96 at 112 x 112 0.397 -> 0.214 / 0.555 -> 0.381, 24 -> 144 at 56 x 56
    0.172 -> 0.128 / 0.261 -> 0.210, 144 -> 24 0.205 -> 0.148 / 0.263 -> 0.224; but at 28 x 28
    32 -> 192 0.083 -> 0.096 / 0.113 -> 0.120 and 192 -> 32 0.106 -> 0.138 (AVX2), at 14 x 14
    96 -> 576 0.118 -> 0.344 (short rows split into narrow column tiles)."""
    ot = _static(op.results[0].type)
    wt = _static(op.operands[1].type)
    if ot is None or wt is None or ot.rank != 4 or wt.rank != 4 or wt.shape[2:] != [1, 1] \
            or _int_list(op, "strides") != [1, 1]:
        return False
    return ot.shape[3] >= _POINTWISE_COLUMNS_MIN_WIDTH


def conv_to_row_im2col(op: ir.Operation, tile_m: int, tile_n: int, threads: int, tag: int,
                       pointwise: bool = False) -> bool:
    """A batch-1 convolution as im2col one output row at a time, its matmul tiles storing through
    the epilogue.

    For each output row: the row's ``[C*kh*kw, Wo]`` patches (a gather from the padded input,
    kept in the cache), then ``[TM, TN]`` register tiles of filters by positions (position
    chunks outside, filter tiles inside: a patch panel is read from the L1 by every filter tile),
    each stored through the convolution's epilogue into the ``[1, F, Ho, Wo]`` result. For few
    input channels (ResNet's and MobileNetV2's 3-channel stems), where a K loop per tap is too
    short for :func:`conv_to_shifted_rows`: im2col for the whole image wrote and read back a
    7.4 MB patch matrix and ran the epilogue as its own pass. Output rows are the iterations of
    an ``scf.forall`` with threads. False when it does not apply (also for fewer than
    ``_ROWS_MIN_FILTERS`` filters: narrower than a register tile)."""
    from mlir.dialects import arith, scf

    operands = _float_conv_operands(op)
    if operands is None:
        return False
    x, w, out, xt, wt, ot = operands
    n, c, hp, wp = xt.shape
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    k = c * kh * kw
    if n != 1 or k > _ROW_IM2COL_MAX_K or f < _ROWS_MIN_FILTERS or not _is_zero_fill(out):
        return False
    # A 1x1 stride-1 convolution's patches of an output row are the input row itself: no gather.
    direct = kh == kw == 1 and strides == [1, 1]
    if (kh * kw == 1) != pointwise or (pointwise and not direct):
        return False
    elem = xt.element_type
    if str(elem) == "f64":
        tile_n = max(1, tile_n // 2)
    rows_in = (kh - 1) * dilations[0] + 1
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    d = ir.AffineDimExpr.get
    cst = ir.AffineConstantExpr.get
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    # (0, c, ky, kx, ox) -> the row block's x[0, c, ky*d0, ox*s1 + kx*d1]
    gather_map = ir.AffineMap.get(5, 0, [d(0), d(1), d(2) * cst(dilations[0]),
                                         d(4) * cst(strides[1]) + d(3) * cst(dilations[1])])
    # A strided row (the stems' stride 2) is gathered from the input split by column phase once,
    # [1, C, Hp, s, Wp / s] with phase p holding columns p, p + s, ...: tap kx of position ox is
    # phase kx mod s, element ox + kx floordiv s, so each gathered row is a contiguous run (the
    # strided gather read every element on its own, 147 x 112 of them per ResNet stem row).
    s1 = strides[1]
    phases = s1 > 1 and dilations[1] == 1 and not direct and (wo - 1) + (kw - 1) // s1 < wp // s1
    if phases:
        gather_map = ir.AffineMap.get(5, 0, [d(0), d(1), d(2) * cst(dilations[0]), d(3) % cst(s1),
                                             d(4) + ir.AffineFloorDivExpr.get(d(3), cst(s1))])
    epilogue = _fusable_epilogue(op)
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        zero = arith.constant(elem, 0.0)
        if phases:
            split_shape = [1, c, hp, s1, wp // s1]
            split = linalg.GenericOp(
                [ir.RankedTensorType.get(split_shape, elem)], [x], [tensor.EmptyOp(split_shape, elem).result],
                ir.ArrayAttr.get([ir.AffineMapAttr.get(ir.AffineMap.get(5, 0, [d(0), d(1), d(2),
                                                                              d(4) * cst(s1) + d(3)])),
                                  ir.AffineMapAttr.get(ir.AffineMap.get_identity(5))]),
                ir.ArrayAttr.get([parallel] * 5))
            sbody = split.regions[0].blocks.append(elem, elem)
            with ir.InsertionPoint(sbody):
                linalg.YieldOp([sbody.arguments[0]])
            source = split.result
        wmat = _collapse(w, [[0], [1, 2, 3]])  # [F, C*kh*kw]
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def row(whole: ir.Value, pbuf: ir.Value | None, oy: ir.Value,
                dest_oy: ir.Value) -> tuple[ir.Value, ir.Value | None]:
            """Output row ``oy``'s patches gathered into ``pbuf`` ([1, C, kh, kw, Wo], reused row after
            row: one planned buffer, not an allocation per row; None for a pointwise convolution,
            which reads the input row) and its tiles stored at row ``dest_oy`` of ``whole``;
            returns both updated."""
            if pbuf is None:
                line = tensor.extract_slice(ir.RankedTensorType.get([1, c, 1, wo], elem), x, [oy], [], [],
                                            [0, 0, dyn, 0], [1, c, 1, wo], [1, 1, 1, 1])
                return tiles(whole, _collapse(line, [[0, 1, 2], [3]]), oy, dest_oy), None
            if phases:
                block = tensor.extract_slice(ir.RankedTensorType.get([1, c, rows_in, s1, wp // s1], elem), source,
                                             [arith.muli(oy, const(strides[0]))], [], [], [0, 0, dyn, 0, 0],
                                             [1, c, rows_in, s1, wp // s1], [1] * 5)
            else:
                block = tensor.extract_slice(ir.RankedTensorType.get([1, c, rows_in, wp], elem), x,
                                             [arith.muli(oy, const(strides[0]))], [], [], [0, 0, dyn, 0],
                                             [1, c, rows_in, wp], [1, 1, 1, 1])
            gather = linalg.GenericOp([pbuf.type], [block], [pbuf],
                                      ir.ArrayAttr.get([ir.AffineMapAttr.get(gather_map),
                                                        ir.AffineMapAttr.get(ir.AffineMap.get_identity(5))]),
                                      ir.ArrayAttr.get([parallel] * 5))
            body = gather.regions[0].blocks.append(elem, elem)
            with ir.InsertionPoint(body):
                linalg.YieldOp([body.arguments[0]])
            return tiles(whole, _collapse(gather.result, [[0, 1, 2, 3], [4]]), oy, dest_oy), gather.result

        def tiles(whole: ir.Value, patches: ir.Value, oy: ir.Value, dest_oy: ir.Value) -> ir.Value:
            """The [TM, TN] tiles of filters by positions of one output row's [C*kh*kw, Wo] patches."""
            x0 = 0
            for csplit, tn in _chunks(wo, tile_n):
                cols = csplit if csplit is not None else wo - x0
                loop = scf.ForOp(const(x0), const(x0 + cols), const(tn), [whole])
                with ir.InsertionPoint(loop.body):
                    j0 = loop.induction_variable
                    inner = loop.inner_iter_args[0]
                    panel = tensor.extract_slice(ir.RankedTensorType.get([k, tn], elem), patches, [j0], [], [],
                                                 [0, dyn], [k, tn], [1, 1])
                    f0 = 0
                    for rsplit, tm in _chunks(f, tile_m):
                        rows = rsplit if rsplit is not None else f - f0
                        floop = scf.ForOp(const(f0), const(f0 + rows), const(tm), [inner])
                        with ir.InsertionPoint(floop.body):
                            i0 = floop.induction_variable
                            t = linalg.fill(zero, outs=[tensor.EmptyOp([tm, tn], elem).result])
                            t.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                            a = tensor.extract_slice(ir.RankedTensorType.get([tm, k], elem), wmat, [i0], [], [],
                                                     [dyn, 0], [tm, k], [1, 1])
                            mm = linalg.matmul(a, panel, outs=[t])
                            mm.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                            cur = floop.inner_iter_args[0]
                            stored = _store_tile(mm, cur, epilogue, op.results[0], [0, i0, oy, j0],
                                                 [0, i0, dest_oy, j0], [1, tm, 1, tn], transposed=False)
                            stored.owner.attributes[_TAP_TAG] = ir.IntegerAttr.get(i64, tag)
                            scf.YieldOp([tensor.insert_slice(stored, cur, [i0, dest_oy, j0], [], [], [0, dyn, dyn, dyn],
                                                             [1, tm, 1, tn], [1, 1, 1, 1])])
                        inner = floop.results[0]
                        f0 += rows
                    scf.YieldOp([inner])
                whole = loop.results[0]
                x0 += cols
            return whole

        shape = [1, c, kh, kw, wo]
        if threads > 1 and ho % threads == 0 and f * ho * wo * k >= PARALLEL_MIN_MACS:
            # One block of Ho / threads output rows per thread, each with its own patch buffer
            # (a slice of a [threads, C, kh, kw, Wo] buffer: disjoint, so written in place).
            per = ho // threads
            shared_in = [acc] if direct else [acc, tensor.EmptyOp([threads, *shape[1:]], elem).result]
            par = scf.ForallOp([0], [threads], [1], shared_in)
            with ir.InsertionPoint(par.body):
                b = par.induction_variables[0]
                shared = par.inner_iter_args[0]
                first = arith.muli(b, const(per))
                rtype = ir.RankedTensorType.get([1, f, per, wo], elem)
                carried = [tensor.extract_slice(rtype, shared, [first], [], [], [0, 0, dyn, 0], [1, f, per, wo],
                                                [1, 1, 1, 1])]
                if not direct:
                    carried.append(tensor.extract_slice(ir.RankedTensorType.get(shape, elem), par.inner_iter_args[1],
                                                        [b], [], [], [dyn, 0, 0, 0, 0], shape, [1] * 5))
                loop = scf.ForOp(const(0), const(per), const(1), carried)
                with ir.InsertionPoint(loop.body):
                    r = loop.induction_variable
                    args = list(loop.inner_iter_args)
                    done, pdone = row(args[0], None if direct else args[1], arith.addi(first, r), r)
                    scf.YieldOp([done] if direct else [done, pdone])
                with ir.InsertionPoint(par.terminator().region.blocks[0]):
                    tensor.parallel_insert_slice(loop.results[0], shared, [first], [], [], [0, 0, dyn, 0],
                                                 [1, f, per, wo], [1, 1, 1, 1])
                    if not direct:
                        tensor.parallel_insert_slice(loop.results[1], par.inner_iter_args[1], [b], [], [],
                                                     [dyn, 0, 0, 0, 0], shape, [1] * 5)
            acc = par.results[0]
        else:
            loop = scf.ForOp(const(0), const(ho), const(1), [acc] if direct else [acc, tensor.EmptyOp(shape, elem).result])
            with ir.InsertionPoint(loop.body):
                oy = loop.induction_variable
                args = list(loop.inner_iter_args)
                done, pdone = row(args[0], None if direct else args[1], oy, oy)
                scf.YieldOp([done] if direct else [done, pdone])
            acc = loop.results[0]
    _replace_rewritten(op, out, acc, epilogue)
    return True


def conv_to_img2col(op: ir.Operation) -> bool:
    """Rewrites one ``linalg.conv_2d_nchw_fchw``; False when it does not apply."""
    operands = _float_conv_operands(op)
    if operands is None:
        return False
    x, w, out, xt, wt, ot = operands
    n, c, _, _ = xt.shape
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    elem = xt.element_type
    with op.location, ir.InsertionPoint(op):
        if kh == kw == 1 and strides == [1, 1]:
            cols = _collapse(x, [[0], [1], [2, 3]])  # [N, C, H*W]: already the patch matrix
        else:
            d = ir.AffineDimExpr.get
            cst = ir.AffineConstantExpr.get
            # iteration (n, c, ky, kx, oy, ox) -> x[n, c, oy*s0 + ky*d0, ox*s1 + kx*d1]
            xmap = ir.AffineMap.get(6, 0, [
                d(0), d(1),
                d(4) * cst(strides[0]) + d(2) * cst(dilations[0]),
                d(5) * cst(strides[1]) + d(3) * cst(dilations[1]),
            ])
            shape = [n, c, kh, kw, ho, wo]
            init = tensor.EmptyOp(shape, elem).result
            parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
            gather = linalg.GenericOp(
                [ir.RankedTensorType.get(shape, elem)], [x], [init],
                ir.ArrayAttr.get([ir.AffineMapAttr.get(xmap), ir.AffineMapAttr.get(ir.AffineMap.get_identity(6))]),
                ir.ArrayAttr.get([parallel] * 6),
            )
            block = gather.regions[0].blocks.append(elem, elem)
            with ir.InsertionPoint(block):
                linalg.YieldOp([block.arguments[0]])
            cols = _collapse(gather.result, [[0], [1, 2, 3], [4, 5]])  # [N, C*kh*kw, Ho*Wo]
        w2 = _collapse(w, [[0], [1, 2, 3]])  # [F, C*kh*kw]
        acc = _collapse(out, [[0], [1], [2, 3]])  # [N, F, Ho*Wo]
        if n == 1:
            y = linalg.matmul(w2, _collapse(cols, [[0, 1], [2]]), outs=[_collapse(acc, [[0, 1], [2]])])
            y = _expand(y, [1, f, ho * wo], [[0, 1], [2]])
        else:
            wt2 = ir.RankedTensorType(w2.type)
            d = ir.AffineDimExpr.get
            wb_init = tensor.EmptyOp([n, *wt2.shape], wt2.element_type).result
            wb = linalg.broadcast(w2, outs=[wb_init], dimensions=[0])
            y = linalg.batch_matmul(wb, cols, outs=[acc])
        y = _expand(y, [n, f, ho, wo], [[0], [1], [2, 3]])
    op.results[0].replace_all_uses_with(y)
    op.erase()
    return True


#: Sliding-window ops rewritten as a sum (max) over shifted input slices.
_WINDOW_OPS = ("linalg.depthwise_conv_2d_nchw_chw", "linalg.pooling_nchw_max", "linalg.pooling_nchw_sum")
_MAX_TAPS = 64


#: Below this many output columns a stride-1 window op runs over the padded width (see
#: :func:`window_to_taps`): a 14- or 7-column row leaves most of a 16-lane vector loop to the
#: scalar remainder (MobileNetV2's 14x14 depthwise layers ran 3x slower than onnxruntime's).
_FLAT_WINDOW_MAX_COLUMNS = 32


def window_to_taps(op: ir.Operation) -> bool:
    """Depthwise convolution / pooling as one elementwise generic over its taps.

    ``out[n,c,y,x] = out + sum_t w[c,t] * x[n,c,y*s+ky*d,x*s+kx*d]`` (max for
    max pooling): each tap is a strided ``extract_slice`` of the input, so the
    generic's maps are plain identities and its innermost loop runs over
    output columns, which LLVM vectorizes. The named ops put the 3x3 window
    innermost: a scalar 9-term reduction per output (measured 3-5x slower
    than onnxruntime on MobileNetV2's depthwise layers).

    When ``out`` is the operation's identity (a fill of 0 for sums, -inf for max) the generic
    starts from the first tap and does not read it: no fill pass, no read pass. With stride 1
    and fewer than :data:`_FLAT_WINDOW_MAX_COLUMNS` output columns, it also runs over the
    padded width: tap (ky, kx) is the contiguous window at ``ky*d*Wp + kx*d`` of the flattened
    input (as the shifted-matmul convolution), the result ``[Ho, Wp]`` rows of which the
    ``[Ho, Wo]`` view is taken: one long vector loop instead of ``Ho`` short ones.
    """
    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = _static(x.type), _static(w.type), _static(out.type)
    if xt is None or wt is None or ot is None or not isinstance(xt.element_type, ir.FloatType):
        return False
    if xt.element_type != ot.element_type or any(0 in t.shape for t in (xt, wt, ot)):
        return False
    kh, kw = wt.shape[-2], wt.shape[-1]
    if kh * kw > _MAX_TAPS:
        return False
    n, c, hp, wp = xt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    depthwise = op.name.startswith("linalg.depthwise")
    kind = "max" if op.name.endswith("_max") else "sum"
    elem = xt.element_type
    init = _fill_scalar(out)
    fresh = init is not None and (init == -math.inf if kind == "max" else init == 0.0)
    flat = fresh and strides == [1, 1] and wo < _FLAT_WINDOW_MAX_COLUMNS and ho > 1
    with op.location, ir.InsertionPoint(op):
        taps, weights = [], []
        if flat:
            length = (ho - 1) * wp + wo  # the last row's padding columns are never needed
            shape = [n, c, length]
            xf = _collapse(x, [[0], [1], [2, 3]])
            for ky in range(kh):
                for kx in range(kw):
                    off = ky * dilations[0] * wp + kx * dilations[1]
                    taps.append(tensor.extract_slice(ir.RankedTensorType.get(shape, elem), xf, [], [], [],
                                                     [0, 0, off], shape, [1, 1, 1]))
        else:
            shape = [n, c, ho, wo]
            for ky in range(kh):
                for kx in range(kw):
                    taps.append(tensor.extract_slice(
                        ir.RankedTensorType.get(shape, elem), x, [], [], [], [0, 0, ky * dilations[0], kx * dilations[1]],
                        shape, [1, 1, strides[0], strides[1]]))
        if depthwise:
            for ky in range(kh):
                for kx in range(kw):
                    wtap = tensor.extract_slice(ir.RankedTensorType.get([c, 1, 1], wt.element_type), w, [], [], [],
                                                [0, ky, kx], [c, 1, 1], [1, 1, 1])
                    weights.append(_collapse(wtap, [[0, 1, 2]]))
        rank = len(shape)
        if flat:
            full = tensor.EmptyOp([n, c, ho * wp], elem).result
            dest = tensor.extract_slice(ir.RankedTensorType.get(shape, elem), full, [], [], [],
                                        [0, 0, 0], shape, [1, 1, 1])
        else:
            dest = tensor.EmptyOp(shape, elem).result if fresh else out
        ident = ir.AffineMap.get_identity(rank)
        chan = ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(1)])
        maps = [ident] * len(taps) + [chan] * len(weights) + [ident]
        parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
        gen = linalg.GenericOp(
            [dest.type], [*taps, *weights], [dest],
            ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
            ir.ArrayAttr.get([parallel] * rank),
        )
        block = gen.regions[0].blocks.append(*([elem] * len(taps)), *([wt.element_type] * len(weights)), elem)
        args = list(block.arguments)
        with ir.InsertionPoint(block):
            from mlir.dialects import arith

            acc = None if fresh else args[-1]
            for t in range(len(taps)):
                if depthwise:
                    wv = args[len(taps) + t]
                    if wv.type != elem:
                        wv = arith.extf(elem, wv)
                    term = arith.mulf(args[t], wv)
                    acc = term if acc is None else arith.addf(acc, term)
                elif kind == "max":
                    acc = args[t] if acc is None else arith.maximumf(acc, args[t])
                else:
                    acc = args[t] if acc is None else arith.addf(acc, args[t])
            linalg.YieldOp([acc])
        y = gen.result
        if flat:
            y = tensor.insert_slice(y, full, [], [], [], [0, 0, 0], shape, [1, 1, 1])
            y = _expand(y, [n, c, ho, wp], [[0], [1], [2, 3]])
            y = tensor.extract_slice(ir.RankedTensorType.get([n, c, ho, wo], elem), y, [], [], [],
                                     [0, 0, 0, 0], [n, c, ho, wo], [1, 1, 1, 1])
    op.results[0].replace_all_uses_with(y)
    op.erase()
    if fresh:  # the fill nothing reads any more
        fill = out.owner.operation if isinstance(out.owner, ir.OpView) else out.owner
        if not list(fill.results[0].uses):
            fill.erase()
    return True


def _vector_epilogue_ok(epilogue: ir.Operation) -> bool:
    """Whether :func:`_vector_epilogue` can apply ``epilogue`` to vectors of output columns: a body
    of scalar ``arith``/``math`` ops only, and every other input read either without the column
    dimension (a per-channel bias: one scalar, broadcast) or with it last (a residual row)."""
    body = epilogue.regions[0].blocks[0]
    if list(body.arguments[-1].uses):  # reads its output's old value
        return False
    for o in body.operations:
        if o.name == "linalg.yield":
            continue
        if not (o.name.startswith("arith.") or o.name.startswith("math.")) or len(o.regions):
            return False
        if any(isinstance(v.type, (ir.ShapedType, ir.IndexType)) for v in [*o.operands, *o.results]):
            return False
    for m in [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(epilogue.attributes["indexing_maps"])][:-1]:
        dims = [ir.AffineDimExpr(r).position for r in m.results]
        if 3 in dims and dims[-1] != 3:
            return False
    return True


def _vector_epilogue(epilogue: ir.Operation, conv_result: ir.Value, acc: ir.Value, index: list[ir.Value],
                     lanes: int) -> ir.Value:
    """``epilogue``'s body applied to ``acc`` (the vector of output columns ``index[3]``..
    of output row ``index[2]``, channel ``index[1]``, image ``index[0]``): its other inputs read
    at the same place (a vector along the columns, else one broadcast element), its ops rebuilt
    on vectors."""
    from mlir.dialects import vector

    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(epilogue.attributes["indexing_maps"])]
    old = epilogue.regions[0].blocks[0]
    mapping: dict = {}

    def vtype(t: ir.Type) -> ir.VectorType:
        return ir.VectorType.get([lanes], t)

    for arg, v, m in zip(old.arguments, list(epilogue.operands)[:-1], maps):
        if v == conv_result:
            mapping[arg] = acc
            continue
        vt = ir.RankedTensorType(v.type)
        source, slot = _placed(v, epilogue)
        dims = [ir.AffineDimExpr(r).position for r in m.results]
        at = []
        for j, i in enumerate(dims):
            at.append(_index_plus(index[i], slot[j]) if vt.shape[j] != 1 else _index_plus(0, slot[j]))
        if 3 in dims and vt.shape[-1] != 1:
            rank = len(dims)
            minor = ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(rank - 1)])
            mapping[arg] = vector.transfer_read(vtype(vt.element_type), source, at, minor,
                                                _zero_of(vt.element_type), [True])
        else:
            mapping[arg] = vector.broadcast(vtype(vt.element_type), tensor.extract(source, at))
    for o in old.operations:
        if o.name == "linalg.yield":
            return mapping[o.operands[0]]
        operands = []
        for v in o.operands:
            if v not in mapping:  # a scalar defined outside the body
                mapping[v] = vector.broadcast(vtype(v.type), v)
            operands.append(mapping[v])
        for r_old, r_new in zip(o.results, _vector_op(o, operands, lanes)):
            mapping[r_old] = r_new
    raise ValueError("an epilogue without linalg.yield")


def _index_plus(v, k: int) -> ir.Value:
    from mlir.dialects import arith

    index = ir.IndexType.get()
    if isinstance(v, int):
        return arith.constant(index, v + k)
    return arith.addi(v, arith.constant(index, k)) if k else v


def _zero_of(t: ir.Type) -> ir.Value:
    from mlir.dialects import arith

    return arith.constant(t, 0.0 if isinstance(t, ir.FloatType) else 0)


def window_to_vectors(op: ir.Operation, lanes: int, threads: int) -> bool:
    """A depthwise convolution or pooling (f32, NCHW) as vector code over output columns, its
    epilogue applied before the one store.

    Per channel (the iterations of an ``scf.forall`` with threads), image and output row: vectors
    of ``lanes`` consecutive output columns (a narrower power of two for rows shorter than that;
    the last vector of a row overlaps the one before instead of a scalar remainder), each the
    sum (max) over the taps of one unaligned load of the padded input times the channel's
    broadcast weight. Stride 2 along the rows loads two vectors' worth of consecutive input
    elements and keeps the even or odd ones (one shuffle; a strided vector read was element by
    element). The convolution's elementwise epilogue (bias, activation, residual) runs on the
    vector before it is stored: no accumulator pass. :func:`window_to_taps` left all of it to
    LLVM's loop vectorizer, over columns (short rows: a scalar remainder), strided loads element by
    element and the epilogue as its own pass: MobileNetV2's depthwise layers ran 2-4.6x slower than
    onnxruntime's (1.46 of 4.9 ms). A max pool of an input padded with -inf whose windows all
    overlap the input reads the input in place, taps past its edges clamped onto the edge
    (:mod:`ge_mlir.irutils.windows`): border vectors read the columns their taps span once and shuffle
    the taps out; the padded buffer and its fill go. False when it does not apply (not f32, not a
    fresh output, a one-column output, a row stride other than 1 or 2, stride 2 with dilation)."""
    from mlir.dialects import arith, scf, vector

    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = _static(x.type), _static(w.type), _static(out.type)
    if xt is None or wt is None or ot is None or xt.rank != 4 or {str(xt.element_type), str(ot.element_type),
                                                                   str(wt.element_type)} != {"f32"}:
        return False
    if any(0 in t.shape for t in (xt, wt, ot)):
        return False
    kh, kw = wt.shape[-2], wt.shape[-1]
    n, c, hp, wp = xt.shape
    _, _, ho, wo = ot.shape
    strides, dilations = _int_list(op, "strides"), _int_list(op, "dilations")
    depthwise = op.name.startswith("linalg.depthwise")
    kind = "max" if op.name.endswith("_max") else "sum"
    init = _fill_scalar(out)
    fresh = init is not None and (init == -math.inf if kind == "max" else init == 0.0)
    sx = strides[1]
    if not fresh or wo < 2 or kh * kw > _MAX_TAPS or sx not in (1, 2) or (sx == 2 and dilations[1] != 1):
        return False
    vl = min(lanes, 1 << (wo.bit_length() - 1))
    starts = list(range(0, wo - vl + 1, vl))
    if starts[-1] != wo - vl:
        starts.append(wo - vl)  # overlaps the vector before: recomputes a few columns, no remainder

    def taps_at(at: int, bound: int) -> list[tuple[int, int | None]]:
        """Where each tap's vector comes from: (input offset from the first column read, part):
        stride 1 reads vl elements (part None); stride 2 reads 2*vl and keeps the even (part 0)
        or the odd (1) ones: an odd tap is the odd half of the even tap's read before it, an
        even tap the odd half of the read one earlier when its own read from ``at`` would pass
        ``bound``."""
        taps = []
        for kx in range(kw):
            off = kx * dilations[1]
            if sx == 1:
                taps.append((off, None))
            elif kx % 2 == 0 and at + off + 2 * vl <= bound:
                taps.append((off, 0))
            else:
                taps.append((off - 1, 1))
        return taps

    def fits(at: int, taps: list, low: int, bound: int) -> bool:
        return all(at + o >= low and at + o + (vl if p is None else 2 * vl) <= bound for o, p in taps)

    # A max pool of a lowest-value-padded input reads the input where it is, taps clamped into
    # it (ir.windows): the padded copy and its fill go (ResNet-18's stem output, 3.3 MB, was
    # filled and written padded only for the pool to read it back).
    unpadded = _lowest_padded(x) if kind == "max" and not depthwise else None
    if unpadded is not None:
        src, top, left = unpadded
        h, w_in = ir.RankedTensorType(src.type).shape[2:]
        if not clamped_max_window_ok((h, w_in), (ho, wo), (kh, kw), strides, dilations, (top, left)):
            unpadded = None
    if unpadded is None:
        src, top, left, h, w_in = x, 0, 0, hp, wp
        last = sx * starts[-1]
        taps = taps_at(last, wp)
        if any(o < 0 for o, _ in taps) or not fits(last, taps, 0, wp):
            return False
        plans = {x0: taps for x0 in starts}
    else:
        # Per vector: the interior scheme when its reads stay inside the input's columns, else
        # None (a border vector: one read of the columns its clamped taps span, then shuffles).
        plans = {}
        for x0 in starts:
            tx = taps_at(sx * x0, left + w_in)
            plans[x0] = tx if fits(sx * x0, tx, left, left + w_in) else None
    epilogue = _fusable_epilogue(op)
    if epilogue is not None and not _vector_epilogue_ok(epilogue):
        epilogue = None
    elem = xt.element_type
    index = ir.IndexType.get()
    vtype = ir.VectorType.get([vl], elem)
    minor = ir.AffineMap.get(4, 0, [ir.AffineDimExpr.get(3)])
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        zero = arith.constant(elem, 0.0)
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([n, c, ho, wo], elem).result

        def const(v: int) -> ir.Value:
            return arith.constant(index, v)

        def input_row(oy: ir.Value, ky: int) -> ir.Value:
            """The input row of tap row ``ky`` for output row ``oy``, clamped into the input."""
            first = ky * dilations[0] - top
            r = arith.muli(oy, const(strides[0]))
            r = arith.addi(r, const(first)) if first else r
            if first < 0:
                r = arith.maxsi(r, const(0))
            if (ho - 1) * strides[0] + first > h - 1:
                r = arith.minsi(r, const(h - 1))
            return r

        def row_vectors(panel: ir.Value, ch: ir.Value, img: ir.Value, oy: ir.Value, wv: list) -> ir.Value:
            """The output row ``oy`` of channel ``ch``, image ``img``, into the [N, 1, Ho, Wo] ``panel``."""
            rows = [input_row(oy, ky) for ky in range(kh)]
            for x0 in starts:
                loads: dict = {}
                total = nans = None
                taps = plans[x0]
                if taps is None:
                    # Each tap's columns, clamped; one read spans them all.
                    cols = [[min(max(sx * (x0 + j) + kx * dilations[1] - left, 0), w_in - 1) for j in range(vl)]
                            for kx in range(kw)]
                    lo = min(min(c) for c in cols)
                    span = max(max(c) for c in cols) - lo + 1
                for ky in range(kh):
                    for kx in range(kw):
                        if taps is None:
                            if ky not in loads:
                                loads[ky] = vector.transfer_read(ir.VectorType.get([span], elem), src,
                                                                 [img, ch, rows[ky], const(lo)], minor, zero, [True])
                            v = loads[ky]
                            mask = [c - lo for c in cols[kx]]
                            if mask != list(range(span)):
                                v = vector.shuffle(v, v, mask)
                        else:
                            off, part = taps[kx]
                            key = (ky, off)
                            if key not in loads:
                                width = vl if part is None else 2 * vl
                                loads[key] = vector.transfer_read(ir.VectorType.get([width], elem), src,
                                                                  [img, ch, rows[ky], const(sx * x0 + off - left)],
                                                                  minor, zero, [True])
                            v = loads[key]
                            if part is not None:
                                v = vector.shuffle(v, v, list(range(part, 2 * vl, 2)))
                        if depthwise:
                            total = arith.mulf(v, wv[ky * kw + kx]) if total is None else \
                                vector.fma(v, wv[ky * kw + kx], total)
                        elif kind == "max":
                            # NaN-propagating maximum without arith.maximumf, which x86 expands to
                            # a sign and NaN fix-up sequence around vmaxps (a 3x3 max pool ran
                            # 2.7x onnxruntime's time): the larger by one compare and blend, any
                            # NaN tap remembered in a mask and put back once at the end.
                            uno = arith.cmpf(arith.CmpFPredicate.UNO, v, v)
                            nans = uno if nans is None else arith.ori(nans, uno)
                            total = v if total is None else \
                                arith.select(arith.cmpf(arith.CmpFPredicate.OGT, v, total), v, total)
                        else:
                            total = v if total is None else arith.addf(total, v)
                if nans is not None:
                    total = arith.select(nans, arith.constant(vtype, ir.DenseElementsAttr.get_splat(
                        vtype, ir.FloatAttr.get(elem, math.nan))), total)
                if epilogue is not None:
                    total = _vector_epilogue(epilogue, op.results[0], total, [img, ch, oy, const(x0)], vl)
                panel = vector.transfer_write(panel.type, total, panel, [img, const(0), oy, const(x0)], minor, [True])
            return panel

        def channel(panel: ir.Value, p: ir.Value, ch: ir.Value) -> ir.Value:
            wv = []
            if depthwise:
                wv = [vector.broadcast(vtype, tensor.extract(w, [ch, const(ky), const(kx)]))
                      for ky in range(kh) for kx in range(kw)]
            images = scf.ForOp(const(0), const(n), const(1), [panel])
            with ir.InsertionPoint(images.body):
                img = images.induction_variable
                rows = scf.ForOp(const(0), const(ho), const(1), [images.inner_iter_args[0]])
                with ir.InsertionPoint(rows.body):
                    scf.YieldOp([row_vectors(rows.inner_iter_args[0], ch, img, rows.induction_variable, wv)])
                scf.YieldOp([rows.results[0]])
            return images.results[0]

        parallel = threads > 1 and c > 1 and n * c * ho * wo * kh * kw >= PARALLEL_MIN_ITERATIONS
        acc = _over_panels(acc, 1, 0, 1, c, parallel, channel)
    _replace_rewritten(op, out, acc, epilogue)
    if unpadded is not None:
        _erase_if_unused(x)
    return True


def _lowest_padded(x: ir.Value) -> tuple[ir.Value, int, int] | None:
    """(input, top, left) when ``x`` is only that NCHW input inserted whole (static offsets, unit
    strides) into a ``linalg.fill`` of -inf read by nothing else -- how max pools are padded;
    else None."""
    ins = x.owner.operation if isinstance(x.owner, ir.OpView) else x.owner
    if not isinstance(ins, ir.Operation) or ins.name != "tensor.insert_slice" or len(list(x.uses)) != 1:
        return None
    src, dest = ins.operands[0], ins.operands[1]
    st, dt = _static(src.type), _static(dest.type)
    if st is None or dt is None or st.rank != 4 or dt.rank != 4 or _fill_scalar(dest) != -math.inf:
        return None
    offs, sizes, strides = (_static_slice(ins, a) for a in ("static_offsets", "static_sizes", "static_strides"))
    if len(ins.operands) != 2 or offs is None or sizes is None or strides is None or offs[:2] != [0, 0] \
            or sizes != list(st.shape) or sizes[:2] != list(dt.shape[:2]) or any(s != 1 for s in strides):
        return None
    return src, offs[2], offs[3]


def _erase_if_unused(v: ir.Value) -> None:
    """Erases the insert, fill, empty tensor or constant defining ``v`` when nothing reads it,
    then so on for its operands."""
    op = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
    if not isinstance(op, ir.Operation) or any(list(r.uses) for r in op.results) or op.name not in (
            "tensor.insert_slice", "linalg.fill", "tensor.empty", "arith.constant"):
        return
    operands = list(op.operands)
    op.erase()
    for o in operands:
        if isinstance(o.owner, (ir.Operation, ir.OpView)):
            _erase_if_unused(o)


Plan = list[tuple[int | None, list[tuple[int | None, list[int]]]]]


def _plan(op: ir.Operation, tile_m: int, tile_n: int, gemv_n: int = 0) -> Plan | None:
    """[(row split, [(column split, tile sizes)])] for one contraction, or None.

    ``tile_n`` counts f32 columns; f64 tiles take the same registers, so half the columns.
    One-row tiles (a batch-1 linear layer, a decode step: matrix-vector products) are
    ``gemv_n`` columns wide (default ``4 * tile_n``): with one row, two vectors of columns are
    only two FMA chains per K step, bound by the FMA latency; more chains keep the FMA units
    busy and stream B at memory speed."""
    ts = [_static(v.type) for v in op.operands]
    if any(t is None for t in ts):
        return None
    # Mixed-precision contractions (f16 in, f32 accumulate) leave 2-D vector
    # casts the LLVM lowering cannot translate; they keep the loop form.
    if {str(t.element_type) for t in ts} not in ({"f32"}, {"f64"}):
        return None
    # Zero-size operands (an empty batch, K = 0) keep the loop form: there is
    # nothing to tile, _chunks(0) has no part, and tiling a K = 0 contraction
    # trips an assertion in linalg's slice computation (process abort).
    if any(0 in t.shape for t in ts):
        return None
    gemv_n = gemv_n or 4 * tile_n
    if str(ts[2].element_type) == "f64":
        tile_n, gemv_n = max(1, tile_n // 2), max(1, gemv_n // 2)
    out = ts[2]
    if op.name == "linalg.matmul":
        m, n = out.shape
        lead: list[int] = []
    else:
        _, m, n = out.shape
        lead = [1]
    # Rows and columns in chunks of the tile then powers of two (6 then 4, 2,
    # 1 rows; 32 then 16, 8, ... columns): odd vector widths (a 17-wide remainder)
    # are scalarized and were measured 15x slower than 16 + 1 columns, and a
    # prime row count (197 tokens) would otherwise get 1-row tiles.
    return [(ms, [(ns, [*lead, tm, tn, 1]) for ns, tn in _chunks(n, tile_n if tm > 1 else gemv_n)])
            for ms, tm in _chunks(m, tile_m)]


def _chunks(size: int, tile: int) -> list[tuple[int | None, int]]:
    """[(split point or None for the last part, tile)]: parts of ``size`` divisible by
    ``tile`` then decreasing powers of two, e.g. 49 with 32 -> [(32, 32), (16, 16), (None, 1)],
    14 with 6 -> [(12, 6), (None, 2)]."""
    if size <= 0:
        raise ValueError(f"_chunks needs a positive size, got {size}")
    out: list[tuple[int | None, int]] = []
    while size:
        if size >= tile:
            part = size - size % tile
            out.append((part, tile))
            size -= part
        tile = tile // 2 if tile & (tile - 1) == 0 else 1 << (tile.bit_length() - 1)
    out[-1] = (None, out[-1][1])
    return out


def _parts(size: int, tile: int) -> list[tuple[int, int, int]]:
    """(first, tile, count) of the parts of :func:`_chunks`: ``count`` tiles of ``tile`` from
    ``first`` (a column panel loop each)."""
    out, first = [], 0
    for split, t in _chunks(size, tile):
        cols = split if split is not None else size - first
        out.append((first, t, cols // t))
        first += cols
    return out


def _k_block(k: int) -> int:
    """K block of the cache level: a divisor of K in [64, 256], or 0 (no blocking)."""
    if k <= 256:
        return 0
    return next((d for d in range(256, 63, -1) if k % d == 0), 0)




def _split_lines(lines: list[str], handle: str, splits: list[int | None], dim: int, name: str,
                 any_op: str) -> list[str]:
    """Emits transform.structured.split ops cutting ``handle`` at ``splits``; returns the part handles."""
    parts, rest = [], handle
    for c, split in enumerate(splits):
        if split is None:
            parts.append(rest)
            break
        lines.append(f"%s{name}_{c} = transform.structured.split {rest} after {split} {{dimension = {dim}}} : {any_op}")
        lines.append(f"%p{name}_{c}:2 = transform.split_handle %s{name}_{c} : ({any_op}) -> ({any_op}, {any_op})")
        parts.append(f"%p{name}_{c}#0")
        rest = f"%p{name}_{c}#1"
    return parts


def _extents(splits: list[int | None], size: int) -> list[int]:
    """Sizes of the parts that ``_split_lines`` cuts ``size`` into at ``splits``."""
    out = []
    for split in splits:
        out.append(size if split is None else split)
        size -= 0 if split is None else split
    return out


#: Fewest multiply-adds in one matmul part before it is spread over threads: a parallel region
#: costs a fork and a barrier on the thread team (a few microseconds with its workers spinning,
#: tens when they must be woken); 512K multiply-adds take about 5 us on one core. Measured on the
#: 2-core EPYC against 2^22: the small UNet's 8- and 16-channel convolutions (1M multiply-adds per
#: tap) got their first parallel regions (2 threads 1.09 -> 0.86 of onnxruntime), ResNet-18 1.53 -> 1.40.
PARALLEL_MIN_MACS = 1 << 19


#: Fewest loop iterations (all loops of the op) before an elementwise or window ``linalg.generic``
#: is spread over threads: a fork and barrier on the hot team take a few microseconds, 64K
#: iterations of a depthwise tap sum or an epilogue several times that.
PARALLEL_MIN_ITERATIONS = 1 << 16


def _loop_ranges(op: ir.Operation) -> list[int] | None:
    """Static range of each loop of a ``linalg.generic`` (from the operand shapes), or None."""
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    ranges: list[int | None] = [None] * maps[0].n_dims
    for v, m in zip(op.operands, maps):
        t = _static(v.type)
        if t is None:
            return None
        for size, expr in zip(t.shape, m.results):
            if isinstance(expr, ir.AffineDimExpr):
                ranges[expr.position] = size
    return None if any(r is None for r in ranges) else ranges  # type: ignore[return-value]


def _generic_split(op: ir.Operation, threads: int) -> list[int] | None:
    """forall tile sizes splitting a generic's outermost parallel loop into ``threads`` blocks
    (never a reduction loop: each result is still computed by one thread, in the one-thread
    order), or None when the op is too small, dynamic or has no such loop."""
    if op.parent is None or op.parent.name != "func.func" or len(op.results) != 1:
        return None
    ranges = _loop_ranges(op)
    if ranges is None or int(np.prod(ranges)) < PARALLEL_MIN_ITERATIONS:
        return None
    kinds = [str(k) for k in ir.ArrayAttr(op.attributes["iterator_types"])]
    for d, (size, kind) in enumerate(zip(ranges, kinds)):
        if "parallel" in kind and size >= threads:
            tiles = [0] * len(ranges)
            tiles[d] = -(-size // threads)
            return tiles
    return None


def parallelize_generics(module: ir.Module | ir.Operation, threads: int) -> int:
    """Puts every large top-level ``linalg.generic`` (elementwise ops, epilogues, im2col
    gathers, depthwise and pooling tap sums, row reductions) in an ``scf.forall`` of ``threads``
    blocks of its outermost parallel loop; returns how many."""
    from mlir.dialects.transform import interpreter

    i64 = ir.IntegerType.get_signless(64)
    lines, count = [], 0
    any_op = "!transform.any_op"
    for op in _ops(module, ("linalg.generic",)):
        tiles = _generic_split(op, threads)
        if tiles is None:
            continue
        op.attributes[_PAR_TAG] = ir.IntegerAttr.get(i64, count)
        lines.append(f"%g{count} = transform.structured.match attributes {{{_PAR_TAG} = {count} : i64}} in %root "
                     f": ({any_op}) -> {any_op}")
        lines.append(f"%gt{count}, %gf{count} = transform.structured.tile_using_forall %g{count} "
                     f"tile_sizes [{', '.join(map(str, tiles))}] : ({any_op}) -> ({any_op}, {any_op})")
        count += 1
    if not count:
        return 0
    body = "\n    ".join(lines)
    script = ir.Module.parse(f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {any_op} {{transform.readonly}}) {{
    {body}
    transform.yield
  }}
}}""")
    interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)
    for op in _ops(module, ("linalg.generic",)):
        if _PAR_TAG in op.attributes:
            del op.attributes[_PAR_TAG]
    return count


def _group(count: int, pieces: int) -> int:
    """The largest divisor of ``count`` that still cuts it into at least ``pieces`` (1 when none
    does): equal static task shapes, as few as give every thread one."""
    return max((g for g in range(1, count + 1) if count % g == 0 and count // g >= pieces), default=1)


def _task_shape(batch: int, row_tiles: int, panels: int, threads: int) -> tuple[int, int, int]:
    """(batches, row tiles, column panels) per parallel task: one task per thread, cut from the
    batch first, then the column panels, then the row tiles (late CNN stages: 512 rows, 49
    columns). Few large tasks: one static share per thread, no load balancing needed."""
    need = threads
    gb = _group(batch, need)
    need = -(-need // (batch // gb))
    gp = _group(panels, need)
    need = -(-need // (panels // gp))
    gr = _group(row_tiles, need)
    return gb, gr, gp


def _script(plans: list[tuple[int, Plan]], nd_of: dict[int, int],
            kblocks: dict[int, int], kdims: dict[int, int], dims: dict[int, tuple[int, int, int, int]] | None = None,
            threads: int = 1, taps: list[tuple[int, int]] = ()) -> str:
    lines = []
    hoists = []
    any_op = "!transform.any_op"
    for tag, k in taps:
        # An own tile loop nest: its tile fills and stores vectorized, its tile matmuls (one per
        # filter tap for convolutions) tiled K innermost with the accumulator hoisted out of each
        # K loop (and forwarded from tap to tap).
        lines.append(f'%tapz{tag} = transform.structured.match ops{{["linalg.fill"]}} attributes '
                     f"{{{_TAP_TAG} = {tag} : i64}} in %root : ({any_op}) -> {any_op}")
        lines.append(f"transform.structured.vectorize %tapz{tag} : {any_op}")
        lines.append(f'%tapg{tag} = transform.structured.match ops{{["linalg.generic"]}} attributes '
                     f"{{{_TAP_TAG} = {tag} : i64}} in %root : ({any_op}) -> {any_op}")
        lines.append(f"transform.structured.vectorize %tapg{tag} : {any_op}")
        lines.append(f'%tap{tag} = transform.structured.match ops{{["linalg.matmul"]}} attributes '
                     f"{{{_TAP_TAG} = {tag} : i64}} in %root : ({any_op}) -> {any_op}")
        lines.append(f"%tapt{tag}, %tapl{tag} = transform.structured.tile_using_for %tap{tag} tile_sizes [0, 0, 1] "
                     f": ({any_op}) -> ({any_op}, {any_op})")
        lines.append(f"transform.structured.vectorize %tapt{tag} {{create_named_contraction}} : {any_op}")
        if k > 1:
            hoists.append(f"transform.loop.hoist_loop_invariant_subsets %tapl{tag} : {any_op}")
    for tag, plan in plans:
        h = f"%op{tag}"
        nd = nd_of[tag]
        lines.append(f'{h} = transform.structured.match attributes {{{_TAG} = {tag} : i64}} in %root '
                     f": ({any_op}) -> {any_op}")
        # Split rows, then each row part's columns, into the plan's chunks
        # (each split is relative to the part that is left).
        parts: list[str] = []
        tiling: list[list[int]] = []
        sizes: list[tuple[int, int]] = []
        batch, m, n, k = dims[tag] if dims else (1, 0, 0, 0)
        row_parts = _split_lines(lines, h, [ms for ms, _ in plan], nd - 3, f"{tag}r", any_op)
        for r, (row_part, (_, cols), pm) in enumerate(zip(row_parts, plan, _extents([ms for ms, _ in plan], m))):
            parts += _split_lines(lines, row_part, [ns for ns, _ in cols], nd - 2, f"{tag}c{r}", any_op)
            tiling += [t for _, t in cols]
            sizes += [(pm, pn) for pn in _extents([ns for ns, _ in cols], n)]
        for i, (part, tiles, (pm, pn)) in enumerate(zip(parts, tiling, sizes)):
            kblock = kblocks[tag]
            tm, tn = tiles[nd - 3], tiles[nd - 2]
            gb, gr, gp = _task_shape(batch, pm // tm, pn // tn, threads)
            tasks = (batch // gb) * (pm // tm // gr) * (pn // tn // gp)
            if threads > 1 and tasks > 1 and batch * pm * pn * k >= PARALLEL_MIN_MACS:
                # Threads: the part's batches, column panels and row tiles in one block per thread
                # (scf.forall iterations); the register tiling below runs inside each. Never K:
                # every task owns whole output elements, summed in the single-thread order
                # (bitwise identical results).
                par = [0] * nd
                par[nd - 2] = gp * tn if gp * tn < pn else 0
                par[nd - 3] = gr * tm if gr * tm < pm else 0
                if nd == 4:
                    par[0] = gb
                lines.append(f"%pt{tag}_{i}, %pf{tag}_{i} = transform.structured.tile_using_forall {part} "
                             f"tile_sizes [{', '.join(map(str, par))}] : ({any_op}) -> ({any_op}, {any_op})")
                part = f"%pt{tag}_{i}"
            inner = part
            if kblock:
                # Cache level: [KB, TN] panels of B (32 KiB at KB=256) stay in
                # L1 while every row tile of A passes over them.
                outer = [0] * nd
                outer[nd - 2], outer[nd - 1] = tiles[nd - 2], kblock
                lines.append(f"%o{tag}_{i}, %on{tag}_{i}, %ok{tag}_{i} = transform.structured.tile_using_for {part} "
                             f"tile_sizes [{', '.join(map(str, outer))}] "
                             f": ({any_op}) -> ({any_op}, {any_op}, {any_op})")
                inner = f"%o{tag}_{i}"
                tiles = [*tiles[: nd - 2], 0, 1]
            # Register level: a [TM, TN] accumulator tile, K innermost;
            # without K blocking column tiles go outermost (panel reuse).
            nonzero = sum(1 for t in tiles if t)
            loops = [f"%l{tag}_{i}_{j}" for j in range(nonzero)]
            res = ", ".join([any_op] * (nonzero + 1))
            order = ""
            if not kblock:
                order = " interchange = [1, 0, 2]" if nd == 3 else " interchange = [0, 2, 1, 3]"
            lines.append(f"%t{tag}_{i}, {', '.join(loops)} = transform.structured.tile_using_for {inner} "
                         f"tile_sizes [{', '.join(map(str, tiles))}]{order} "
                         f": ({any_op}) -> ({res})")
            lines.append(f"transform.structured.vectorize %t{tag}_{i} {{create_named_contraction}} : {any_op}")
            # After canonicalization (below): the accumulator's transfer pair
            # then reads/writes the K loop's iter_arg and moves out of the loop.
            # K == 1: the K loop has one iteration and canonicalization
            # removes it (its handle would dangle); there is nothing to hoist.
            if kdims[tag] > 1:
                hoists.append(f"transform.loop.hoist_loop_invariant_subsets {loops[-1]} : {any_op}")
    body = "\n    ".join(lines)
    after = "\n    ".join(hoists)
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {any_op} {{transform.readonly}}) {{
    {body}
    %f = transform.structured.match ops{{["func.func"]}} in %root : ({any_op}) -> {any_op}
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.canonicalization
    }} : {any_op}
    {after}
    transform.apply_patterns to %f {{
      transform.apply_patterns.canonicalization
    }} : {any_op}
    transform.yield
  }}
}}"""


_HOIST_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}"""


def hoist_vector_transfers(module: ir.Module | ir.Operation) -> None:
    """After bufferization: the matmul accumulator tile's read/write leave the K loop.

    On tensors the pair reads and writes the loop's own iter_arg, which
    subset hoisting does not move; on buffers it is a plain redundant
    transfer pair, so the tile lives in registers across K.
    """
    from mlir.dialects.transform import interpreter

    with module.context, ir.Location.unknown():
        script = ir.Module.parse(_HOIST_SCRIPT)
        interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)


def _spread_constant_rows(op: ir.Operation) -> bool:
    """A constant B whose rows are an even number of 64-byte lines apart gets one line of padding.

    The register tile reads a ``[K, TN]`` panel of B: K rows ``N * 4`` bytes apart. When
    ``N / 16`` (the stride in lines) shares a large power of two with the L1's set count (a power
    of two: 64 on x86-64's 32 and 48 KiB L1Ds), every row falls in the same few sets and the panel
    evicts itself (N = 1024: all 256 rows in one set of 8 ways; N = 768: four sets). An odd stride
    in lines is coprime with any power-of-two set count: B stored as ``[K, N + 16]`` spreads the
    rows over all sets; the matmul reads the ``[K, N]`` slice (a 128 x 256 x 8192 product: 143 ->
    179 GFLOP/s, 128 x 256 x 2048: 194 -> 240). Constants only: their layout is ours to choose."""
    from ...irutils.constants import constant_array

    b = op.operands[1]
    bt = _static(b.type)
    if bt is None or bt.rank != 2 or str(bt.element_type) not in ("f32", "f64"):
        return False
    k, n = bt.shape
    width = 4 if str(bt.element_type) == "f32" else 8
    line = 64 // width
    if k < 16 or n % line or (n // line) % 2:
        return False
    arr = constant_array(b, ("arith.constant",))
    if arr is None:
        return False
    padded = np.zeros((k, n + line), dtype=arr.dtype)
    padded[:, :n] = arr
    with op.location, ir.InsertionPoint(op):
        wide = _array_constant(padded, bt.element_type, "matmul_b_spread")
        op.operands[1] = tensor.extract_slice(bt, wide, [], [], [], [0, 0], [k, n], [1, 1])
    return True


#: Attribute of the ``tensor.empty`` a zero-initialized matmul accumulates into while the strategy
#: runs (see :func:`_defer_zero_fill`).
_ZERO_TAG = "ge.zero_init"


def _defer_zero_fill(op: ir.Operation, tag: int) -> None:
    """A matmul whose output starts as ``linalg.fill(0)`` accumulates into a tagged
    ``tensor.empty`` instead: once its register tiles exist, each tile's first read of the
    accumulator becomes a zero vector (:func:`_zero_accumulators`), so the output is written once
    (the fill's pass and the accumulator's read pass go away: 77 MB instead of 128 MB of memory
    traffic for GPT-2's 128 x 256 x 50257 logits). Only without K blocking: a K block after the
    first reads what the one before wrote."""
    init = op.operands[2]
    if not _is_zero_fill(init):
        return
    fill = init.owner.operation if isinstance(init.owner, ir.OpView) else init.owner
    with op.location, ir.InsertionPoint(op):
        empty = tensor.EmptyOp(list(ir.RankedTensorType(init.type).shape),
                               ir.RankedTensorType(init.type).element_type)
    empty.operation.attributes[_ZERO_TAG] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), tag)
    op.operands[2] = empty.result
    if not list(fill.results[0].uses):
        fill.erase()


def _static_slice(op: ir.Operation, name: str) -> list[int] | None:
    values = list(ir.DenseI64ArrayAttr(op.attributes[name]))
    return None if ir.ShapedType.get_dynamic_size() in values else values


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
            offsets, strides = _static_slice(op, "static_offsets"), _static_slice(op, "static_strides")
            sizes = list(ir.RankedTensorType(op.results[0].type).shape)
            if offsets is None or strides is None or any(s != 1 for s in strides) or len(offsets) != len(sizes):
                box = None
            else:
                inner = box or [(0, z) for z in sizes]
                box = [(o + lo, o + hi) for o, (lo, hi) in zip(offsets, inner)]
            last_slice = op
            v = op.operands[0]
        elif op.name == "tensor.insert_slice":
            offsets = _static_slice(op, "static_offsets")
            sizes = _static_slice(op, "static_sizes")
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


def _zero_accumulators(module: ir.Module | ir.Operation) -> None:
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
    for empty in _ops(module, ("tensor.empty",)):
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


def apply_strategy(module: ir.Module | ir.Operation, *, tile_m: int, tile_n: int, threads: int = 1,
                   gemv_n: int = 0, lanes: int = 0, winograd: bool = True) -> dict[str, int]:
    """Applies the strategy in place; returns counts (convolutions, contractions tiled).

    ``tile_m`` x ``tile_n`` is the largest f32 matmul register tile (remainders get halved tiles;
    :func:`.cpu_info.kernel_params` gives the JIT CPU's); one-row tiles are ``gemv_n`` columns wide
    (default ``4 * tile_n``); window ops use vectors of ``lanes`` f32 (default ``tile_n / 2``, the
    tile being two vectors wide). ``threads`` > 1 puts the column panels
    of each large matmul part in an ``scf.forall`` (OpenMP regions on the thread team).
    ``winograd`` False keeps 3x3 stride-1 convolutions direct (:func:`conv_to_winograd`)."""
    from mlir.dialects.transform import interpreter

    stats = {"img2col": 0, "shifted": 0, "shifted_rows": 0, "direct_rows": 0, "winograd": 0, "row_im2col": 0, "packed": 0, "tiled": 0, "windows": 0, "vector_windows": 0, "parallel_generics": 0, "spread": 0}
    with module.context, ir.Location.unknown():
        taps: list[tuple[int, int]] = []  # (tag, K of its tile matmuls) of each own tile loop nest
        for conv in _ops(module, ("linalg.conv_2d_nchw_fchw",)):
            tag = len(taps)
            xt, wt = _static(conv.operands[0].type), _static(conv.operands[1].type)
            channels = xt.shape[1] if xt is not None and xt.rank == 4 else 0
            patch = channels * wt.shape[2] * wt.shape[3] if wt is not None and wt.rank == 4 else 0
            # Rows first: no padded-width waste, no input copy (a 56 x 56 layer-1 convolution 1.07
            # ms over columns, 1.01 over rows); columns when the filter is not a constant or too narrow.
            if _positions_as_columns(conv) and conv_to_row_im2col(conv, tile_m, tile_n, threads, tag,
                                                                  pointwise=True):
                stats["row_im2col"] += 1
                taps.append((tag, patch))
            elif winograd and conv_to_winograd(conv, tile_m, tile_n, threads):
                stats["winograd"] += 1
            elif conv_to_shifted_rows(conv, tile_m, tile_n, threads, tag):
                stats["shifted_rows"] += 1
                taps.append((tag, channels))
            elif conv_to_shifted_matmuls(conv, tile_m, tile_n, threads, tag):
                stats["shifted"] += 1
                taps.append((tag, channels))
            elif channels < _ROWS_MIN_CHANNELS and conv_to_direct_rows(conv, tile_m, tile_n, threads):
                stats["direct_rows"] += 1
            elif conv_to_row_im2col(conv, tile_m, tile_n, threads, tag):
                stats["row_im2col"] += 1
                taps.append((tag, patch))
            else:
                stats["img2col"] += conv_to_img2col(conv)
        for op in _ops(module, _WINDOW_OPS):
            if window_to_vectors(op, lanes or max(1, tile_n // 2), threads):
                stats["vector_windows"] += 1
            else:
                stats["windows"] += window_to_taps(op)
        if threads > 1:
            stats["parallel_generics"] = parallelize_generics(module, threads)
        plans = []
        nd_of: dict[int, int] = {}
        kblocks: dict[int, int] = {}
        kdims: dict[int, int] = {}
        dims: dict[int, tuple[int, int, int, int]] = {}
        i64 = ir.IntegerType.get_signless(64)
        for op in _ops(module, ("linalg.matmul",)):
            tag = len(taps)
            at = _static(op.operands[0].type)
            k = at.shape[-1] if at is not None else 0
            if _TAP_TAG not in op.attributes and matmul_to_packed_panels(op, tile_m, tile_n, threads, tag):
                stats["packed"] += 1
                taps.append((tag, k))
        for tag, op in enumerate(_ops(module, ("linalg.matmul", "linalg.batch_matmul"))):
            if _TAP_TAG in op.attributes:
                continue
            plan = _plan(op, tile_m, tile_n, gemv_n)
            if plan is None:
                continue
            if op.name == "linalg.matmul":
                stats["spread"] += _spread_constant_rows(op)
            op.attributes[_TAG] = ir.IntegerAttr.get(i64, tag)
            plans.append((tag, plan))
            nd_of[tag] = 3 if op.name == "linalg.matmul" else 4
            kdims[tag] = _static(op.operands[0].type).shape[-1]
            kblocks[tag] = _k_block(kdims[tag])
            if not kblocks[tag] and kdims[tag] > 1:
                _defer_zero_fill(op, tag)
            out_shape = _static(op.operands[2].type).shape
            dims[tag] = (1 if len(out_shape) == 2 else out_shape[0], out_shape[-2], out_shape[-1], kdims[tag])
        if not plans and not taps:
            return stats
        script = ir.Module.parse(_script(plans, nd_of, kblocks, kdims, dims, threads, taps))
        interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)
        _zero_accumulators(module)
        stats["tiled"] = len(plans)
        for op in _ops(module, ("linalg.matmul", "linalg.batch_matmul")):  # untiled leftovers
            for name in (_TAG, _TAP_TAG):
                if name in op.attributes:
                    del op.attributes[name]
    return stats
