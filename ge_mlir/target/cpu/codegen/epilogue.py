"""A convolution's elementwise epilogue (bias, batch norm, residual, activation) applied inside the
register tiles before their one store: which epilogue fuses, tile stores through it (a generic,
or vector code with one shuffle transpose of a [positions, filters] tile), and the same body
rebuilt on vectors of output columns for the window ops."""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import linalg, tensor

from ....irutils.patterns import clone_mapped
from .common import index_plus, zero_of
from .strategy import TRANSPOSE_BLOCK

__all__ = ["fusable_epilogue", "placed", "store_rows_transposed", "store_tile", "vector_epilogue",
           "vector_epilogue_ok"]


def fusable_epilogue(op: ir.Operation) -> ir.Operation | None:
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


def placed(v: ir.Value, before: ir.Operation) -> tuple[ir.Value, list[int]]:
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


def vector_epilogue_ok(epilogue: ir.Operation) -> bool:
    """Whether :func:`vector_epilogue` can apply ``epilogue`` to vectors of output columns: a body
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


def store_tile(t: ir.Value, dest: ir.Value, epilogue: ir.Operation | None, conv_result: ir.Value,
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
            source, slot = placed(v, epilogue)
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


def _transposed_store_ok(t: ir.Value, epilogue: ir.Operation | None) -> bool:
    """Whether :func:`_store_tile_transposed` applies: an f32 tile of at most 8 positions by a
    multiple of 8 filters, and an epilogue it can rebuild on vectors (or none)."""
    tt = ir.RankedTensorType(t.type)
    tm, tn = tt.shape
    if str(tt.element_type) != "f32" or tm > TRANSPOSE_BLOCK or tn % TRANSPOSE_BLOCK:
        return False
    return epilogue is None or vector_epilogue_ok(epilogue)


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
    block = TRANSPOSE_BLOCK
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
    """:func:`store_tile` of a ``[positions, filters]`` tile as vector code with one transpose.

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
    whole = vector.transfer_read(ir.VectorType.get([tm, tn], elem), t, [index_plus(0, 0)] * 2,
                                 ir.AffineMap.get_identity(2), zero_of(elem), [True, True])
    rows = [vector.extract(whole, [], [i]) for i in range(tm)]
    return store_rows_transposed(rows, tn, dest, epilogue, conv_result, offsets, dest_offsets)


def store_rows_transposed(rows: list[ir.Value], tn: int, dest: ir.Value, epilogue: ir.Operation | None,
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
        source, slot = placed(v, epilogue)
        at = []
        for j, i in enumerate(dims):
            if vt.shape[j] == 1:
                at.append(index_plus(0, slot[j]))
            elif i == 1 and f_extra is not None:
                at.append(index_plus(offsets[1], slot[j] + f_extra))
            else:
                at.append(index_plus(offsets[i], slot[j]))
        rank = len(dims)
        along = 1 if f_extra is None else 3
        vtype = ir.VectorType.get([tn if f_extra is None else tm], vt.element_type)
        if along in dims and vt.shape[dims.index(along)] != 1:
            minor = ir.AffineMap.get(rank, 0, [d(dims.index(along))])
            return vector.transfer_read(vtype, source, at, minor, zero_of(vt.element_type), [True])
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
                                    [index_plus(0, 0), index_plus(0, j), index_plus(0, 0), index_plus(0, 0)],
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


def vector_epilogue(epilogue: ir.Operation, conv_result: ir.Value, acc: ir.Value, index: list[ir.Value],
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
        source, slot = placed(v, epilogue)
        dims = [ir.AffineDimExpr(r).position for r in m.results]
        at = []
        for j, i in enumerate(dims):
            at.append(index_plus(index[i], slot[j]) if vt.shape[j] != 1 else index_plus(0, slot[j]))
        if 3 in dims and vt.shape[-1] != 1:
            rank = len(dims)
            minor = ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(rank - 1)])
            mapping[arg] = vector.transfer_read(vtype(vt.element_type), source, at, minor,
                                                zero_of(vt.element_type), [True])
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
