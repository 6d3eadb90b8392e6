"""Lowerings of the compute-heavy ge ops to linalg named ops.

matmul/gemm become ``linalg.matmul``/``linalg.batch_matmul`` (batch dimensions
collapsed, broadcast batches materialized), convolutions
``linalg.conv_2d_nchw_fchw`` / ``conv_2d_ngchw_gfchw`` /
``depthwise_conv_2d_nchw_chw`` after a ``tensor.pad``, pools
``linalg.pooling_nchw_max/sum``. Named ops, not generics, so the CPU target's
codegen strategy can match, tile and vectorize them.

Accumulation: f16/bf16 operands accumulate in f32 (the named ops extend their
inputs); integers accumulate in their own type. Bias, activation and the final
rounding are one elementwise ``linalg.generic`` epilogue.

Fused activations (``activation``/``activation_alpha``): relu, relu6 (clip to
[0, 6]), leaky_relu (alpha default 0.01), sigmoid, tanh, gelu (erf form),
silu, hard_sigmoid (alpha default 0.2, beta 0.5), hard_swish.

NHWC convolutions and pools are transposed to NCHW and back (layout choice is
the optimizer's job; this keeps one well-tested path).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from mlir import ir
from mlir.dialects import arith, linalg, tensor
from mlir.dialects import math as mmath

from .common import (DYN, Unsupported, as_type, broadcast_map, collapse_groups, const, dim_sizes, elementwise,
                     empty, expand_groups, fit, kind, lowering, ranked_tensor, reshape, same_size, static_tensor,
                     transpose)
from ....irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ....irutils.constants import constant_array, elements_attr
from .elementwise import _hard_sigmoid_of, _sigmoid

# --------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------


def _tensor(v: ir.Value) -> ir.RankedTensorType:
    t = static_tensor(v.type)
    if t is None:
        raise Unsupported("dynamic shape")
    return t


def _acc_type(elem: ir.Type) -> ir.Type:
    k = kind(elem)
    if k == "f":
        return ir.F32Type.get() if ir.FloatType(elem).width < 32 else elem
    if k == "s" and ir.IntegerType(elem).is_signless:
        return elem
    raise Unsupported(f"element type {elem}")


def _zeros(shape: Sequence[int], elem: ir.Type) -> ir.Value:
    init = tensor.EmptyOp(list(shape), elem).result
    return linalg.fill(const(elem, 0), outs=[init])


def _filled(shape: Sequence[int], elem: ir.Type, value: float) -> ir.Value:
    init = tensor.EmptyOp(list(shape), elem).result
    return linalg.fill(const(elem, value), outs=[init])


def _broadcast_to(v: ir.Value, shape: Sequence[int]) -> ir.Value:
    t = _tensor(v)
    if list(t.shape) == list(shape):
        return v
    return elementwise([v], ir.RankedTensorType.get(list(shape), t.element_type),
                       lambda xs, ts: xs[0], upcast=False)


def _activation(op: ir.OpView) -> Callable[[ir.Value], ir.Value] | None:
    act = attr_enum(op, "activation", "none")
    alpha = attr_float(op, "activation_alpha", None)

    def f(x: ir.Value) -> ir.Value:
        t = x.type
        if kind(t) != "f":
            if act == "relu":
                return arith.maxsi(x, const(t, 0))
            raise Unsupported(f"activation {act} on integers")
        if act == "relu":
            return arith.maximumf(x, const(t, 0.0))
        if act == "relu6":
            return arith.minimumf(arith.maximumf(x, const(t, 0.0)), const(t, 6.0))
        if act == "leaky_relu":
            a = 0.01 if alpha is None else alpha
            pos = arith.cmpf(arith.CmpFPredicate.OGE, x, const(t, 0.0))
            return arith.select(pos, x, arith.mulf(const(t, a), x))
        if act == "sigmoid":
            return _sigmoid(x)
        if act == "tanh":
            return mmath.tanh(x)
        if act == "gelu":
            e = mmath.erf(arith.mulf(x, const(t, 1.0 / math.sqrt(2.0))))
            return arith.mulf(arith.mulf(const(t, 0.5), x), arith.addf(const(t, 1.0), e))
        if act == "silu":
            return arith.mulf(x, _sigmoid(x))
        if act == "hard_sigmoid":
            return _hard_sigmoid_of(x, 0.2 if alpha is None else alpha, 0.5)
        if act == "hard_swish":
            return arith.mulf(x, _hard_sigmoid_of(x, 1.0 / 6.0, 0.5))
        raise Unsupported(f"activation {act}")

    return None if act == "none" else f


def _epilogue(
    acc: ir.Value,
    result_type: ir.RankedTensorType,
    op: ir.OpView,
    bias: ir.Value | None = None,
    bias_map: ir.AffineMap | None = None,
    scale: float | None = None,
    bias_scale: float | None = None,
    residual: ir.Value | None = None,
) -> ir.Value:
    """``act(scale * acc + bias_scale * bias + residual)`` rounded to the result type, one generic."""
    act = _activation(op)
    acc_t = ir.RankedTensorType(acc.type)
    if (bias is None and residual is None and act is None and scale in (None, 1.0)
            and acc_t.element_type == result_type.element_type):
        return acc
    operands = [acc] + [v for v in (bias, residual) if v is not None]
    dynamic = not acc_t.has_static_shape
    if dynamic:
        if bias_map is not None or residual is not None:
            raise Unsupported("run-time shapes with a mapped bias or a residual")
        # The accumulator's sizes are the result's; a bias with ? dims is fitted to them.
        sizes = dim_sizes(acc)
        if bias is not None:
            bt = ir.RankedTensorType(bias.type)
            off = result_type.rank - bt.rank
            bias = fit(bias, [None if bt.shape[i] == 1 else sizes[i + off] for i in range(bt.rank)])
            operands[1] = bias
    maps = [ir.AffineMap.get_identity(result_type.rank)]
    if bias is not None:
        maps.append(bias_map or broadcast_map(ir.RankedTensorType(bias.type), result_type))
    if residual is not None:
        maps.append(ir.AffineMap.get_identity(result_type.rank))
    maps.append(ir.AffineMap.get_identity(result_type.rank))
    if dynamic:
        init = empty(dim_sizes(acc), result_type.element_type)
        result_type = ir.RankedTensorType(init.type)
    else:
        init = tensor.EmptyOp(result_type.shape, result_type.element_type).result
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    generic = linalg.GenericOp(
        [result_type], operands, [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
        ir.ArrayAttr.get([parallel] * result_type.rank),
    )
    in_elems = [ir.RankedTensorType(v.type).element_type for v in operands]
    block = generic.regions[0].blocks.append(*in_elems, result_type.element_type)
    acc_elem = acc_t.element_type
    out_elem = result_type.element_type
    with ir.InsertionPoint(block):
        y = block.arguments[0]
        is_float = kind(acc_elem) == "f"
        if scale not in (None, 1.0):
            y = arith.mulf(y, const(acc_elem, scale)) if is_float else arith.muli(y, const(acc_elem, int(scale)))
        if bias is not None:
            b = block.arguments[1]
            if b.type != acc_elem:
                b = arith.extf(acc_elem, b) if is_float else arith.extsi(acc_elem, b)
            if bias_scale not in (None, 1.0):
                b = arith.mulf(b, const(acc_elem, bias_scale)) if is_float else arith.muli(
                    b, const(acc_elem, int(bias_scale)))
            y = arith.addf(y, b) if is_float else arith.addi(y, b)
        if residual is not None:
            r = block.arguments[len(operands) - 1]
            if r.type != acc_elem:
                r = arith.extf(acc_elem, r) if is_float else arith.extsi(acc_elem, r)
            y = arith.addf(y, r) if is_float else arith.addi(y, r)
        if act is not None:
            y = act(y)
        if y.type != out_elem:
            y = arith.truncf(out_elem, y) if is_float else arith.trunci(out_elem, y)
        linalg.YieldOp([y])
    return generic.result


# --------------------------------------------------------------------------
# matmul / gemm
# --------------------------------------------------------------------------


def _contract(a: ir.Value, b: ir.Value, batch: Sequence[int], acc: ir.Type) -> ir.Value:
    """[*batch, M, K] @ [*batch|-, K, N] -> [*batch, M, N] in ``acc``.

    ``b`` may be 2-D (shared by every batch): the batch then folds into M.
    """
    at, bt = _tensor(a), _tensor(b)
    m, k = at.shape[-2], at.shape[-1]
    n = bt.shape[-1]
    nb = int(np.prod(batch, dtype=np.int64)) if batch else 1
    if bt.rank == 2:
        a2 = reshape(a, [nb * m, k])
        c = linalg.matmul(a2, b, outs=[_zeros([nb * m, n], acc)])
        return reshape(c, [*batch, m, n])
    a3 = reshape(a, [nb, m, k])
    b3 = reshape(b, [nb, k, n])
    c = linalg.batch_matmul(a3, b3, outs=[_zeros([nb, m, n], acc)])
    return reshape(c, [*batch, m, n])


#: Rows per block of a matmul with a run-time row count (batch x sequence), then halving blocks
#: for the rest: every block is a static matmul the codegen strategy tiles and vectorizes. 256: a
#: 512x256x50257 logits matmul took 134 ms with 128-row blocks, 126 with 256, 118 with 512 (77
#: static) on the 2-core Xeon; each block size is one more kernel to compile.
ROW_BLOCK = 256


def _row_blocked_matmul(a: ir.Value, b: ir.Value, c: ir.Value, m: ir.Value) -> ir.Value:
    """``c += a @ b`` for ``a`` [M?, K] (K, N static): full blocks of :data:`ROW_BLOCK` rows in an
    ``scf.for``, then one block each of 64, 32, ..., 1 rows under ``scf.if`` for the rest. A matmul
    with dynamic M would stay a scalar loop nest; this keeps the static register-tiled kernels."""
    from mlir.dialects import scf

    idx = ir.IndexType.get()
    cst = lambda v: arith.constant(idx, v)  # noqa: E731
    kt, ct = ir.RankedTensorType(a.type), ir.RankedTensorType(c.type)
    k, n = kt.shape[1], ct.shape[1]

    def block(acc: ir.Value, at: ir.Value, rows: int) -> ir.Value:
        a_t = ir.RankedTensorType.get([rows, k], kt.element_type)
        c_t = ir.RankedTensorType.get([rows, n], ct.element_type)
        a_blk = tensor.ExtractSliceOp(a_t, a, [at], [], [], [DYN, 0], [rows, k], [1, 1]).result
        c_blk = tensor.ExtractSliceOp(c_t, acc, [at], [], [], [DYN, 0], [rows, n], [1, 1]).result
        r = linalg.matmul(a_blk, b, outs=[c_blk])
        r = r if isinstance(r, ir.Value) else r.results[0] if hasattr(r, "results") else r[0]
        return tensor.InsertSliceOp(r, acc, [at], [], [], [DYN, 0], [rows, n], [1, 1]).result

    full = arith.muli(arith.divui(m, cst(ROW_BLOCK)), cst(ROW_BLOCK))
    loop = scf.ForOp(cst(0), full, cst(ROW_BLOCK), [c])
    with ir.InsertionPoint(loop.body):
        scf.YieldOp([block(loop.inner_iter_args[0], loop.induction_variable, ROW_BLOCK)])
    c, pos = loop.results[0], full
    rows = ROW_BLOCK // 2
    while rows >= 1:
        take = arith.cmpi(arith.CmpIPredicate.uge, arith.subi(m, pos), cst(rows))
        branch = scf.IfOp(take, [ct, idx], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            scf.YieldOp([block(c, pos, rows), arith.addi(pos, cst(rows))])
        with ir.InsertionPoint(branch.else_block):
            scf.YieldOp([c, pos])
        c, pos = branch.results[0], branch.results[1]
        rows //= 2
    return c


def _batch_matmul_kn(a: ir.Value, b: ir.Value, c: ir.Value) -> ir.Value:
    """``c[b, m, n] += a[b, m, k] * b[b, k, n]`` as a generic whose loops run b, m, k, n: the
    innermost loop walks rows of B and C (contiguous), which LLVM vectorizes whatever the run-time
    sizes; batch_matmul's loop nest (k innermost) reads B by columns and stayed scalar (attention
    with a run-time sequence length ran 4x slower than its static compile)."""
    d = ir.AffineDimExpr.get
    maps = [ir.AffineMap.get(4, 0, [d(0), d(1), d(2)]), ir.AffineMap.get(4, 0, [d(0), d(2), d(3)]),
            ir.AffineMap.get(4, 0, [d(0), d(1), d(3)])]
    par, red = (ir.Attribute.parse(f"#linalg.iterator_type<{t}>") for t in ("parallel", "reduction"))
    ct = ir.RankedTensorType(c.type)
    g = linalg.GenericOp([ct], [a, b], [c], ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
                         ir.ArrayAttr.get([par, par, red, par]))
    in_t = ir.RankedTensorType(a.type).element_type
    block = g.regions[0].blocks.append(in_t, ir.RankedTensorType(b.type).element_type, ct.element_type)
    with ir.InsertionPoint(block):
        x, y, acc = block.arguments
        if kind(acc.type) == "f":
            if x.type != acc.type:
                x, y = arith.extf(acc.type, x), arith.extf(acc.type, y)
            linalg.YieldOp([arith.addf(acc, arith.mulf(x, y))])
        else:
            if x.type != acc.type:
                x, y = arith.extsi(acc.type, x), arith.extsi(acc.type, y)
            linalg.YieldOp([arith.addi(acc, arith.muli(x, y))])
    return g.result


def _matmul_dynamic(op: ir.OpView) -> ir.Value:
    """matmul with ``?`` dims: A ``[*batch, M, K]`` times a 2-D B (batch and M fold into the rows),
    or times a B with the same batch dims (``linalg.batch_matmul`` over the collapsed batch).
    K sizes, and batch sizes, must agree at run time (checked); batch broadcasting is refused."""
    a, b = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    at, bt, rt = ranked_tensor(a.type), ranked_tensor(b.type), ranked_tensor(op.results[0].type)
    if at is None or bt is None or rt is None or at.rank < 2 or bt.rank < 2:
        raise Unsupported("run-time shapes with a 1-D or unranked operand")
    if at.element_type != bt.element_type:
        raise Unsupported("mixed element types")
    acc = _acc_type(at.element_type)
    if bias is not None:
        _acc_type(ir.RankedTensorType(bias.type).element_type)
    _activation(op)
    asz, bsz = dim_sizes(a), dim_sizes(b)
    k = same_size([asz[-1], bsz[-2]], "matmul: the K sizes of A and B")
    a = fit(a, [None] * (at.rank - 1) + [k])
    b = fit(b, [None] * (bt.rank - 2) + [k, None])
    asz, bsz = dim_sizes(a), dim_sizes(b)
    n = bsz[-1]
    if bt.rank == 2:
        rows = collapse_groups(a, [list(range(at.rank - 1)), [at.rank - 1]]) if at.rank > 2 else a
        m_rows = dim_sizes(rows)[0]
        c = _zeros([m_rows, n], acc)
        if isinstance(m_rows, int) or not isinstance(k, int) or not isinstance(n, int) or kind(acc) != "f":
            c = linalg.matmul(rows, b, outs=[c])
            c = c if isinstance(c, ir.Value) else c.results[0] if hasattr(c, "results") else c[0]
        else:
            c = _row_blocked_matmul(rows, b, c, m_rows)
        if at.rank > 2:
            c = expand_groups(c, [list(range(at.rank - 1)), [at.rank - 1]], [*asz[:-1], n])
    else:
        if at.rank != bt.rank:
            raise Unsupported("run-time shapes with batch broadcasting")
        batch = []
        for i in range(at.rank - 2):
            if at.shape[i] == 1 and bt.shape[i] != 1 or bt.shape[i] == 1 and at.shape[i] != 1:
                raise Unsupported("run-time shapes with batch broadcasting")
            batch.append(same_size([asz[i], bsz[i]], f"matmul: batch dim {i} of A and B"))
        a = fit(a, [*batch, None, None])
        b = fit(b, [*batch, None, None])
        groups = [list(range(at.rank - 2)), [at.rank - 2], [at.rank - 1]]
        a3 = collapse_groups(a, groups) if at.rank != 3 else a
        b3 = collapse_groups(b, groups) if bt.rank != 3 else b
        m = dim_sizes(a)[-2]
        nb = dim_sizes(a3)[0]
        c = _batch_matmul_kn(a3, b3, _zeros([nb, m, n], acc))
        if at.rank != 3:
            c = expand_groups(c, groups, [*batch, m, n])
    out = _epilogue(c, rt, op, bias)
    if out.type != rt:
        out = tensor.CastOp(rt, out).result
    return out


@lowering("matmul")
def lower_matmul(op: ir.OpView) -> ir.Value:
    if not all(ranked_tensor(v.type) is not None and ranked_tensor(v.type).has_static_shape
               for v in (*op.operands, op.results[0])):
        return _matmul_dynamic(op)
    a, b = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    at, bt, rt = _tensor(a), _tensor(b), _tensor(op.results[0])
    if at.element_type != bt.element_type:
        raise Unsupported("mixed element types")
    acc = _acc_type(at.element_type)
    if bias is not None:
        _acc_type(_tensor(bias).element_type)
    _activation(op)
    if at.rank == 1:
        a = reshape(a, [1, at.shape[0]])
    if bt.rank == 1:
        b = reshape(b, [bt.shape[0], 1])
    at, bt = _tensor(a), _tensor(b)
    ba, bb = list(at.shape[:-2]), list(bt.shape[:-2])
    r = max(len(ba), len(bb))
    ba_full, bb_full = [1] * (r - len(ba)) + ba, [1] * (r - len(bb)) + bb
    batch = [x if y == 1 else y for x, y in zip(ba_full, bb_full)]  # 1 broadcasts, even to 0
    if all(d == 1 for d in bb):
        a = reshape(a, [*ba_full, *at.shape[-2:]])
        c = _contract(a, reshape(b, list(bt.shape[-2:])), ba_full, acc)
        if ba_full != batch:
            c = _broadcast_to(c, [*batch, at.shape[-2], bt.shape[-1]])
    else:
        a = _broadcast_to(reshape(a, [*ba_full, *at.shape[-2:]]), [*batch, *at.shape[-2:]])
        b = _broadcast_to(reshape(b, [*bb_full, *bt.shape[-2:]]), [*batch, *bt.shape[-2:]])
        c = _contract(a, b, batch, acc)
    c = reshape(c, rt.shape)
    return _epilogue(c, rt, op, bias)


@lowering("gemm")
def lower_gemm(op: ir.OpView) -> ir.Value:
    a, b = op.operands[0], op.operands[1]
    c = op.operands[2] if len(op.operands) > 2 else None
    at, bt, rt = ranked_tensor(a.type), ranked_tensor(b.type), ranked_tensor(op.results[0].type)
    if at is None or bt is None or rt is None or c is not None and ranked_tensor(c.type) is None:
        raise Unsupported("unranked gemm operands")
    if at.rank != 2 or bt.rank != 2 or at.element_type != bt.element_type:
        raise Unsupported("gemm operands")
    dynamic = not (at.has_static_shape and bt.has_static_shape and rt.has_static_shape)
    acc = _acc_type(at.element_type)
    if c is not None:
        _acc_type(_tensor(c).element_type)
    _activation(op)
    alpha = attr_float(op, "alpha", 1.0)
    beta = attr_float(op, "beta", 1.0)
    if kind(acc) != "f" and (alpha != int(alpha) or beta != int(beta)):
        raise Unsupported("fractional alpha/beta on integers")
    if attr_bool(op, "trans_a", False):
        a = transpose(a, [1, 0])
    m, n = rt.shape
    if dynamic:
        # Run-time M (a batch), K or N: K of A and B must agree (checked; both fitted to one size).
        tb = attr_bool(op, "trans_b", False)
        asz, bsz = dim_sizes(a), dim_sizes(b)
        k = same_size([asz[1], bsz[1] if tb else bsz[0]], "gemm: the K sizes of A and B")
        a = fit(a, [None, k])
        b = fit(b, [None, k] if tb else [k, None])
        m, n = dim_sizes(a)[0], dim_sizes(b)[0 if tb else 1]
        bt = ir.RankedTensorType(b.type)
    d = ir.AffineDimExpr.get
    weights = (constant_array(b, ("ge.constant", "arith.constant"))
               if attr_bool(op, "trans_b", False) and bt.has_static_shape else None)
    if weights is not None and weights.dtype in (np.float32, np.float64):
        # Constant B (a torch nn.Linear's weight): stored transposed at compile time, so the
        # matmul reads rows of B, which the codegen strategy vectorizes (a [N, K] read by a map
        # is a strided gather per K step: a batch-1 MLP ran 6x slower than onnxruntime).
        attr = elements_attr(weights.T, bt.element_type, "gemm_b_transposed")
        prod = linalg.matmul(a, arith.constant(attr.type, attr), outs=[_zeros([m, n], acc)])
    elif attr_bool(op, "trans_b", False):
        # B stays [N, K]: the transposed read is an indexing map, not a copy.
        maps = [ir.AffineMap.get(3, 0, [d(0), d(2)]), ir.AffineMap.get(3, 0, [d(1), d(2)]),
                ir.AffineMap.get(3, 0, [d(0), d(1)])]
        prod = linalg.matmul(a, b, outs=[_zeros([m, n], acc)],
                             indexing_maps=maps)
    else:
        prod = linalg.matmul(a, b, outs=[_zeros([m, n], acc)])
    prod = prod if isinstance(prod, ir.Value) else prod.results[0] if hasattr(prod, "results") else prod[0]
    out = _epilogue(prod, rt, op, c, scale=alpha, bias_scale=beta)
    return as_type(out, rt)


# --------------------------------------------------------------------------
# Convolutions
# --------------------------------------------------------------------------


def _pad_nchw(x: ir.Value, pads: Sequence[int], value: float, extra_end: Sequence[int] = (0, 0)) -> ir.Value:
    """Pads H and W of an NCHW tensor by [top, left, bottom, right] (+ extra_end)."""
    top, left, bottom, right = pads
    bottom += extra_end[0]
    right += extra_end[1]
    if top == left == bottom == right == 0:
        return x
    t = _tensor(x)
    n, c, h, w = t.shape
    shape = [n, c, h + top + bottom, w + left + right]
    elem = t.element_type
    # Destination-passing form (fill, then insert x) rather than tensor.pad:
    # empty-tensor elimination then lets x's producer write straight into the
    # padded buffer, saving a copy of every padded activation.
    filled = _filled(shape, elem, value)
    pieces = _concat_pieces(x)
    if pieces is not None:
        # A concatenation padded for a window op: its pieces go straight into the padded buffer,
        # so the unpadded concatenation is never materialised (UNet decoders: one activation less).
        out = filled
        for piece, offsets in pieces:
            pt = _tensor(piece)
            at = [offsets[0], offsets[1], offsets[2] + top, offsets[3] + left]
            window = tensor.extract_slice(pt, out, [], [], [], at, list(pt.shape), [1, 1, 1, 1])
            copied = linalg.copy(piece, outs=[window])
            out = tensor.insert_slice(copied, out, [], [], [], at, list(pt.shape), [1, 1, 1, 1])
        return out
    return tensor.insert_slice(x, filled, [], [], [], [0, 0, top, left], [n, c, h, w], [1, 1, 1, 1])


def _concat_pieces(x: ir.Value) -> list[tuple[ir.Value, list[int]]] | None:
    """[(piece, offsets)] when ``x`` is a concatenation as the concat lowering builds it (pieces
    copied into slices of a ``tensor.empty``, which they cover) used only here; else None."""
    if sum(1 for _ in x.uses) != 1:
        return None
    pieces: list[tuple[ir.Value, list[int]]] = []
    v = x
    while True:
        owner = v.owner
        if not isinstance(owner, (ir.Operation, ir.OpView)):
            return None
        owner = owner.operation
        if owner.name == "tensor.empty":
            break
        if owner.name != "tensor.insert_slice" or len(owner.operands) != 2:
            return None  # dynamic offsets/sizes/strides
        strides = list(ir.DenseI64ArrayAttr(owner.attributes["static_strides"]))
        if any(st != 1 for st in strides):
            return None
        src, dest = owner.operands[0], owner.operands[1]
        src_op = src.owner.operation if isinstance(src.owner, (ir.Operation, ir.OpView)) else None
        piece = src_op.operands[0] if src_op is not None and src_op.name == "linalg.copy" else src
        if sum(1 for _ in dest.uses) > 2:  # the insert and the copy's window: nothing else reads it
            return None
        pieces.append((piece, list(ir.DenseI64ArrayAttr(owner.attributes["static_offsets"]))))
        v = dest
    return pieces[::-1] if len(pieces) > 1 else None


def _conv_nchw(x: ir.Value, w: ir.Value, strides: Sequence[int], dilations: Sequence[int], groups: int,
               out_shape: Sequence[int], acc: ir.Type) -> ir.Value:
    """Un-padded NCHW x OIHW convolution in ``acc``."""
    xt, wt = _tensor(x), _tensor(w)
    n, c, _, _ = xt.shape
    f, cg, kh, kw = wt.shape
    ho, wo = out_shape[2], out_shape[3]
    kwargs = {"strides": list(strides), "dilations": list(dilations)}
    if groups == 1:
        return linalg.conv_2d_nchw_fchw(x, w, outs=[_zeros([n, f, ho, wo], acc)], **kwargs)
    if groups == c and f == c and cg == 1:
        wd = reshape(w, [c, kh, kw])
        return linalg.depthwise_conv_2d_nchw_chw(x, wd, outs=[_zeros([n, c, ho, wo], acc)], **kwargs)
    g = groups
    xg = reshape(x, [n, g, c // g, *xt.shape[2:]])
    wg = reshape(w, [g, f // g, cg, kh, kw])
    y = linalg.conv_2d_ngchw_gfchw(xg, wg, outs=[_zeros([n, g, f // g, ho, wo], acc)], **kwargs)
    return reshape(y, [n, f, ho, wo])


def _to_nchw(op: ir.OpView, x: ir.Value) -> tuple[ir.Value, bool]:
    fmt = attr_enum(op, "data_format", "NCHW")
    if fmt == "NCHW":
        return x, False
    if fmt == "NHWC":
        return transpose(x, [0, 3, 1, 2]), True
    raise Unsupported(f"data_format {fmt}")


def _nchw_type(rt: ir.RankedTensorType, nhwc: bool, elem: ir.Type | None = None) -> ir.RankedTensorType:
    shape = [rt.shape[0], rt.shape[3], rt.shape[1], rt.shape[2]] if nhwc else list(rt.shape)
    return ir.RankedTensorType.get(shape, elem or rt.element_type)


def _channel_bias_map(rank: int) -> ir.AffineMap:
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(1)])


@lowering("conv2d")
def lower_conv2d(op: ir.OpView) -> ir.Value:
    conv = op.operation.opview  # the generated Conv2DOp resolves the optional operands
    x, w, bias, residual = conv.input, conv.filter, conv.bias, conv.residual
    xt, wt, rt = _tensor(x), _tensor(w), _tensor(op.results[0])
    if xt.rank != 4 or wt.rank != 4:
        raise Unsupported("conv2d rank")
    acc = _acc_type(xt.element_type)
    _activation(op)
    if attr_enum(op, "data_format", "NCHW") not in ("NCHW", "NHWC"):
        raise Unsupported("data_format")
    strides = attr_ints(op, "strides", [1, 1])
    dilations = attr_ints(op, "dilations", [1, 1])
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    groups = attr_int(op, "groups", 1)
    x, nhwc = _to_nchw(op, x)
    out_t = _nchw_type(rt, nhwc)
    y = _conv_nchw(_pad_nchw(x, pads, 0.0), w, strides, dilations, groups, out_t.shape, acc)
    if residual is not None and nhwc:
        residual = transpose(residual, [0, 3, 1, 2])
    y = _epilogue(y, out_t, op, bias, _channel_bias_map(4) if bias is not None else None, residual=residual)
    return transpose(y, [0, 2, 3, 1]) if nhwc else y


@lowering("conv_transpose2d")
def lower_conv_transpose2d(op: ir.OpView) -> ir.Value:
    """As a stride-1 convolution of the zero-dilated, padded input with the flipped filter."""
    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    xt, wt, rt = _tensor(x), _tensor(w), _tensor(op.results[0])
    if xt.rank != 4 or wt.rank != 4:
        raise Unsupported("conv_transpose2d rank")
    acc = _acc_type(xt.element_type)
    if attr_enum(op, "data_format", "NCHW") not in ("NCHW", "NHWC"):
        raise Unsupported("data_format")
    strides = attr_ints(op, "strides", [1, 1])
    dilations = attr_ints(op, "dilations", [1, 1])
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    out_pad = attr_ints(op, "output_padding", [0, 0])
    groups = attr_int(op, "groups", 1)
    x, nhwc = _to_nchw(op, x)
    out_t = _nchw_type(rt, nhwc)
    n, c, h, wd = _tensor(x).shape
    cin, fg, kh, kw = wt.shape
    g = groups
    elem = xt.element_type
    if (n == 1 and g == 1 and list(strides) == [kh, kw] and list(dilations) == [1, 1] and not any(pads)
            and not any(out_pad) and acc == elem and list(out_t.shape) == [1, fg, h * kh, wd * kw]):
        y = _conv_transpose_as_matmul(x, w, fg, kh, kw, elem)
        y = _epilogue(y, out_t, op, bias, _channel_bias_map(4) if bias is not None else None)
        return transpose(y, [0, 2, 3, 1]) if nhwc else y
    # Zero-dilated input with a full (k - 1) * d border (+ output_padding at the end).
    bh, bw = dilations[0] * (kh - 1), dilations[1] * (kw - 1)
    hd = (h - 1) * strides[0] + 1 + 2 * bh + out_pad[0]
    wdd = (wd - 1) * strides[1] + 1 + 2 * bw + out_pad[1]
    base = _zeros([n, c, hd, wdd], elem)
    dil = tensor.insert_slice(x, base, [], [], [], [0, 0, bh, bw], [n, c, h, wd], [1, 1, strides[0], strides[1]])
    # Filter [C_in, F/g, kh, kw] -> [F, C_in/g, kh, kw], spatially flipped.
    cg = cin // g
    f = fg * g
    flipped_t = ir.RankedTensorType.get([f, cg, kh, kw], wt.element_type)
    dd = ir.AffineDimExpr.get
    # out[o, ci, y, x] = w[grp * cg + ci, o % fg, kh-1-y, kw-1-x], grp = o floordiv fg
    o, ci, yy, xx = dd(0), dd(1), dd(2), dd(3)
    cst = ir.AffineConstantExpr.get
    wmap = ir.AffineMap.get(4, 0, [
        ir.AffineFloorDivExpr.get(o, cst(fg)) * cst(cg) + ci if g > 1 else ci,
        ir.AffineModExpr.get(o, cst(fg)) if g > 1 else o,
        cst(kh - 1) - yy,
        cst(kw - 1) - xx,
    ])
    init = tensor.EmptyOp(flipped_t.shape, wt.element_type).result
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    gen = linalg.GenericOp([flipped_t], [w], [init],
                           ir.ArrayAttr.get([ir.AffineMapAttr.get(wmap),
                                             ir.AffineMapAttr.get(ir.AffineMap.get_identity(4))]),
                           ir.ArrayAttr.get([parallel] * 4))
    blk = gen.regions[0].blocks.append(wt.element_type, wt.element_type)
    with ir.InsertionPoint(blk):
        linalg.YieldOp([blk.arguments[0]])
    full_h = hd - bh
    full_w = wdd - bw
    y = _conv_nchw(dil, gen.result, [1, 1], dilations, g, [n, f, full_h, full_w], acc)
    top, left, bottom, right = pads
    ho, wo = out_t.shape[2], out_t.shape[3]
    if ho != full_h - top - bottom or wo != full_w - left - right or min(pads) < 0:
        raise Unsupported("conv_transpose2d output size")
    if (top, left, bottom, right) != (0, 0, 0, 0):
        y = tensor.extract_slice(ir.RankedTensorType.get([n, f, ho, wo], acc), y, [], [], [],
                                 [0, 0, top, left], [n, f, ho, wo], [1, 1, 1, 1])
    y = _epilogue(y, out_t, op, bias, _channel_bias_map(4) if bias is not None else None)
    return transpose(y, [0, 2, 3, 1]) if nhwc else y


def _conv_transpose_as_matmul(x: ir.Value, w: ir.Value, f: int, kh: int, kw: int, elem: ir.Type) -> ir.Value:
    """A batch-1 transposed convolution whose stride equals its kernel (UNet up-sampling, no
    padding): every output pixel gets exactly one (input pixel, filter tap) product sum,
    ``y[f, h*kh + ky, w*kw + kx] = sum_c W[c, f, ky, kx] x[c, h, w]``, so it is one matmul
    ``[F*kh*kw, C] x [C, H*W]`` and a pixel shuffle: no zero-dilated input (kh*kw times the
    input, mostly zeros multiplied) and kh*kw times fewer multiplications."""
    _, c, h, wd = _tensor(x).shape
    x2 = reshape(x, [c, h * wd])
    w2 = transpose(reshape(w, [c, f * kh * kw]), [1, 0])  # [F*kh*kw, C]
    t = linalg.matmul(w2, x2, outs=[_zeros([f * kh * kw, h * wd], elem)])
    # [F, kh, kw, H, W] -> [F, H, kh, W, kw] -> [1, F, H*kh, W*kw]
    t = transpose(reshape(t, [f, kh, kw, h, wd]), [0, 3, 1, 4, 2])
    return reshape(t, [1, f, h * kh, wd * kw])


# --------------------------------------------------------------------------
# Pooling
# --------------------------------------------------------------------------


def _pool_geometry(op: ir.OpView, in_hw: Sequence[int], out_hw: Sequence[int]):
    k = attr_ints(op, "kernel_shape", None)
    s = attr_ints(op, "strides", [1, 1])
    d = attr_ints(op, "dilations", [1, 1])
    p = attr_ints(op, "pads", [0, 0, 0, 0])
    # ceil_mode: the last window may run past the bottom/right padding.
    extra = []
    for i in range(2):
        need = (out_hw[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1
        have = in_hw[i] + p[i] + p[i + 2]
        extra.append(max(0, need - have))
    return k, s, d, p, extra


@lowering("max_pool2d")
def lower_max_pool2d(op: ir.OpView) -> ir.Value:
    x = op.operands[0]
    xt, rt = _tensor(x), _tensor(op.results[0])
    elem = xt.element_type
    k_ = kind(elem)
    if k_ == "f":
        lowest: float | int = -math.inf
    elif k_ == "s" and ir.IntegerType(elem).is_signless:
        lowest = -(2 ** (ir.IntegerType(elem).width - 1))
    else:
        raise Unsupported(f"element type {elem}")
    if attr_enum(op, "data_format", "NCHW") not in ("NCHW", "NHWC"):
        raise Unsupported("data_format")
    x, nhwc = _to_nchw(op, x)
    out_t = _nchw_type(rt, nhwc)
    in_hw = _tensor(x).shape[2:]
    k, s, d, p, extra = _pool_geometry(op, in_hw, out_t.shape[2:])
    xp = _pad_nchw(x, p, lowest, extra)
    window = tensor.EmptyOp(list(k), elem).result
    y = linalg.pooling_nchw_max(xp, window, outs=[_filled(out_t.shape, elem, lowest)],
                                strides=list(s), dilations=list(d))
    return transpose(y, [0, 2, 3, 1]) if nhwc else y


def _window_counts(n_out: int, n_in: int, k: int, s: int, d: int, pb: int, pe: int, include_pad: bool) -> np.ndarray:
    counts = np.zeros(n_out, np.int64)
    lo, hi = (-pb, n_in + pe) if include_pad else (0, n_in)
    for o in range(n_out):
        taps = [o * s - pb + j * d for j in range(k)]
        counts[o] = sum(1 for t in taps if lo <= t < hi)
    return counts


@lowering("avg_pool2d")
def lower_avg_pool2d(op: ir.OpView) -> ir.Value:
    x = op.operands[0]
    xt, rt = _tensor(x), _tensor(op.results[0])
    elem = xt.element_type
    if kind(elem) != "f":
        raise Unsupported(f"element type {elem}")
    acc = _acc_type(elem)
    if attr_enum(op, "data_format", "NCHW") not in ("NCHW", "NHWC"):
        raise Unsupported("data_format")
    x, nhwc = _to_nchw(op, x)
    out_t = _nchw_type(rt, nhwc)
    in_hw = _tensor(x).shape[2:]
    k, s, d, p, extra = _pool_geometry(op, in_hw, out_t.shape[2:])
    include = attr_bool(op, "count_include_pad", False)
    ch = _window_counts(out_t.shape[2], in_hw[0], k[0], s[0], d[0], p[0], p[2], include)
    cw = _window_counts(out_t.shape[3], in_hw[1], k[1], s[1], d[1], p[1], p[3], include)
    inv = (1.0 / np.maximum(np.outer(ch, cw), 1)).astype(np.float64)
    xp = _pad_nchw(x, p, 0.0, extra)
    window = tensor.EmptyOp(list(k), elem).result
    summed = linalg.pooling_nchw_sum(xp, window, outs=[_zeros(out_t.shape, acc)],
                                     strides=list(s), dilations=list(d))
    acc_np = np.float64 if ir.FloatType(acc).width == 64 else np.float32
    inv_t = ir.RankedTensorType.get(list(inv.shape), acc)
    inv_c = arith.constant(inv_t, ir.DenseElementsAttr.get(inv.astype(acc_np), type=inv_t))
    dd = ir.AffineDimExpr.get
    out_elem_t = out_t
    init = tensor.EmptyOp(out_elem_t.shape, elem).result
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    gen = linalg.GenericOp(
        [out_elem_t], [summed, inv_c], [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(ir.AffineMap.get_identity(4)),
                          ir.AffineMapAttr.get(ir.AffineMap.get(4, 0, [dd(2), dd(3)])),
                          ir.AffineMapAttr.get(ir.AffineMap.get_identity(4))]),
        ir.ArrayAttr.get([parallel] * 4),
    )
    blk = gen.regions[0].blocks.append(acc, acc, elem)
    with ir.InsertionPoint(blk):
        y = arith.mulf(blk.arguments[0], blk.arguments[1])
        if y.type != elem:
            y = arith.truncf(elem, y)
        linalg.YieldOp([y])
    y = gen.result
    return transpose(y, [0, 2, 3, 1]) if nhwc else y
