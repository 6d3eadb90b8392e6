"""Contractions on the cube: ``matmul``/``gemm`` (a cube kernel on ``A`` and ``B^T``, then an
epilogue for bias, alpha/beta and the fused activation) and convolutions (``conv2d`` as im2col
and a cube matmul; depthwise ones go to :mod:`.window`; ``conv_transpose2d`` with kernel ==
stride as a matmul whose rows are scattered into the output blocks).

Constant weights are transposed at compile time; a ``transpose(X)`` B is read as ``X`` (or a row
permutation of it), so such a transpose gets no kernel of its own (:func:`only_feeds_bt`).
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....errors import Unsupported
from ....irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ....irutils.ge_ops import conv_parts
from ....irutils.patterns import defining_op
from ..kernels.cube import im2col_kernel, matmul_kernel
from ..kernels.elementwise import elementwise_kernel
from ..kernels.layout import transpose2d_kernel, transpose_rows_kernel
from ..program import Program
from .common import Buffer, Lowering, constant_data, elem_of, lowering, numel, shape_of, uses_of
from .data_movement import launch_copy
from .elementwise import epilogue
from .window import lower_depthwise_conv2d


def bt_perm(transpose: ir.Operation) -> list[int]:
    """The permutation of a transpose's input that gives the transpose of its result's last two axes."""
    perm = attr_ints(transpose, "perm", [])
    return perm[:-2] + [perm[-1], perm[-2]]


def only_feeds_bt(op: ir.Operation) -> bool:
    """A transpose read by matmuls only as their B, whose B^T is cheap to make
    from the transpose's input (see :func:`_matmul_bt`): no kernel of its own."""
    if op.name != "ge.transpose" or len(attr_ints(op, "perm", [])) < 2:
        return False
    if bt_perm(op)[-1] != len(bt_perm(op)) - 1:
        return False
    users = uses_of(op.results[0])
    return bool(users) and all(u.name == "ge.matmul" and u.operands[1] == op.results[0]
                               and u.operands[0] != op.results[0] for u in users)


def _matmul_bt(low: Lowering, b: ir.Value, k: int, n: int, batch_b: int) -> Buffer:
    """Global memory holding B^T ([..., N, K]) for the cube kernel."""
    arr = constant_data(b)
    elem = elem_of(b)
    if arr is not None:
        return low.const_buffer(np.swapaxes(arr, -1, -2), elem)
    p = defining_op(b)
    if p is not None and p.name == "ge.transpose":
        # B = transpose(X, perm), so B^T = transpose(X, perm with its last two
        # entries swapped): X itself, or a row-copy permutation of X.
        x = p.operands[0]
        perm = bt_perm(p)
        if perm == list(range(len(perm))):
            return low.buffer(x)
        if perm[-1] == len(perm) - 1:
            out = low.temp(elem, batch_b * k * n)
            kb = transpose_rows_kernel(low.name("transpose"), elem, shape_of(x), perm)
            low.launch(kb, [low.buffer(x), out])
            return out
    out = low.temp(elem, batch_b * k * n)
    kb = transpose2d_kernel(low.name("transpose"), elem, batch_b, k, n)
    low.launch(kb, [low.buffer(b), out])
    return out


@lowering("matmul", "gemm")
def lower_matmul(low: Lowering, op: ir.Operation) -> None:
    a, b = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    out = op.results[0]
    a_shape, b_shape, o_shape = shape_of(a), shape_of(b), shape_of(out)
    elem = elem_of(out)
    alpha, beta = 1.0, 1.0
    if op.name == "ge.gemm":
        if attr_bool(op, "trans_a", False):
            raise Unsupported("gemm with trans_a")
        alpha = attr_float(op, "alpha", 1.0)
        beta = attr_float(op, "beta", 1.0)
        trans_b = attr_bool(op, "trans_b", False)
        m, k = a_shape
        n = b_shape[0] if trans_b else b_shape[1]
        batch, a_batched, b_batched = 1, False, False
        if trans_b:
            arr = constant_data(b)
            bt = low.const_buffer(arr, elem) if arr is not None else low.buffer(b)
        else:
            bt = _matmul_bt(low, b, k, n, 1)
    else:
        if len(a_shape) < 2 or len(b_shape) < 2:
            raise Unsupported("matmul of vectors")
        m, k = a_shape[-2:]
        n = b_shape[-1]
        a_batch, b_batch = a_shape[:-2], b_shape[:-2]
        out_batch = o_shape[:-2]
        batch = numel(out_batch)
        a_batched = numel(a_batch) > 1
        b_batched = numel(b_batch) > 1
        if (a_batched and list(a_batch) != list(out_batch[len(out_batch) - len(a_batch):])) or \
                (b_batched and [1] * (len(out_batch) - len(b_batch)) + list(b_batch) != list(out_batch)):
            raise Unsupported("matmul batch broadcasting other than a shared B")
        if a_batched and numel(a_batch) != batch:
            raise Unsupported("matmul batch broadcasting of A")
        if not a_batched and batch > 1:
            raise Unsupported("matmul with a shared A and a batched B")
        if not b_batched and a_batched:
            # A shared B: fold the batch into M (one bigger matmul).
            m, batch, a_batched = m * batch, 1, False
        bt = _matmul_bt(low, b, k, n, numel(b_batch) if b_batched else 1)
    if elem not in ("f32", "f16"):
        raise Unsupported(f"{op.name} on {elem} (the cube kernel takes f32 or f16)")
    act = attr_enum(op, "activation", "none")
    needs_epilogue = bias is not None or act != "none" or alpha != 1.0
    acc = low.temp(elem, batch * m * n) if needs_epilogue else low.result_buffer(out)
    kb = matmul_kernel(low.name("matmul"), elem, batch, m, n, k, a_batched, b_batched)
    low.launch(kb, [low.buffer(a), bt, acc])
    if needs_epilogue:
        bias_op, residual = None, None
        if bias is not None:
            bshape = shape_of(bias)
            rank = len(o_shape)
            full = [1] * (rank - len(bshape)) + bshape
            # A bias over the last axis first: at M = 1 it also has the output's shape.
            if all(d == 1 for d in full[:-1]) and full[-1] == o_shape[-1]:
                bias_op = (low.buffer(bias), "row", 0)
            elif full == o_shape:
                residual = low.buffer(bias)     # a full C operand: added like a residual
            else:
                raise Unsupported(f"bias of shape {bshape}")
        epilogue(low, acc, out, o_shape, len(o_shape) - 1, bias_op, residual, act,
                 attr_float(op, "activation_alpha", None), scale=alpha, bias_scale=beta)


@lowering("conv2d")
def lower_conv2d(low: Lowering, op: ir.Operation) -> None:
    x, w, bias, residual = conv_parts(op)
    if attr_int(op, "groups", 1) != 1:
        lower_depthwise_conv2d(low, op)
        return
    warr = constant_data(w)
    if warr is None:
        raise Unsupported("conv2d with a non-constant filter")
    fmt = attr_enum(op, "data_format", "NCHW")
    if fmt not in ("NCHW", "NHWC"):
        raise Unsupported(f"conv2d in {fmt}")
    nchw = fmt == "NCHW"
    elem = elem_of(op.results[0])
    xs, os_ = shape_of(x), shape_of(op.results[0])
    if nchw:
        n, c, h, wd = xs
        _, f, oh, ow = os_
    else:
        n, h, wd, c = xs
        _, oh, ow, f = os_
    _, _, kh, kw = warr.shape
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    strides = attr_ints(op, "strides", [1, 1])
    dil = attr_ints(op, "dilations", [1, 1])
    ckk = c * kh * kw
    col = low.temp(elem, n * oh * ow * ckk)
    kb = im2col_kernel(low.name("im2col"), elem, nchw, n, c, h, wd, kh, kw, oh, ow, strides, pads[:2], dil)
    low.launch(kb, [low.buffer(x), col])
    act = attr_enum(op, "activation", "none")
    needs_epilogue = bias is not None or residual is not None or act != "none"
    acc = low.temp(elem, numel(os_)) if needs_epilogue else low.result_buffer(op.results[0])
    if elem not in ("f32", "f16"):
        raise Unsupported(f"conv2d on {elem} (the cube kernel takes f32 or f16)")
    if nchw:
        # out[b] (F x P) = W (F x CKK) x col[b]^T, col[b] being P x CKK = B^T.
        wbuf = low.const_buffer(warr.reshape(f, ckk), elem)
        kb = matmul_kernel(low.name("matmul"), elem, n, f, oh * ow, ckk, False, True)
        low.launch(kb, [wbuf, col, acc])
    else:
        # out (N*P x F) = col (N*P x CKK, (kh, kw, c) order) x W'^T, W' = F x (kh, kw, c).
        wbuf = low.const_buffer(warr.transpose(0, 2, 3, 1).reshape(f, ckk), elem)
        kb = matmul_kernel(low.name("matmul"), elem, 1, n * oh * ow, f, ckk, False, False)
        low.launch(kb, [col, wbuf, acc])
    if needs_epilogue:
        bias_op = None
        if bias is not None:
            bias_op = (low.buffer(bias), "col", f) if nchw else (low.buffer(bias), "row", 0)
        res = low.buffer(residual) if residual is not None else None
        split = 2 if nchw else 3
        epilogue(low, acc, op.results[0], os_, split, bias_op, res, act, attr_float(op, "activation_alpha", None))


@lowering("conv_transpose2d")
def lower_conv_transpose2d(low: Lowering, op: ir.Operation) -> None:
    """Kernel == stride, no padding: every input pixel writes its own KH x KW output block, so the
    transposed convolution is a matmul ``X (N*H*W x C) x W (C x KH*KW*F)`` whose rows are then
    scattered into the output blocks (a strided row copy), bias and activation on the way."""
    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) > 2 else None
    warr = constant_data(w)
    if warr is None:
        raise Unsupported("conv_transpose2d with a non-constant filter")
    if attr_enum(op, "data_format", "NCHW") != "NHWC":
        raise Unsupported("conv_transpose2d outside NHWC (the ascendc pipeline computes convolutions in NHWC)")
    cin, f, kh, kw = warr.shape
    strides = attr_ints(op, "strides", [1, 1])
    if attr_int(op, "groups", 1) != 1 or list(strides) != [kh, kw] or any(attr_ints(op, "pads", [0] * 4)) or \
            attr_ints(op, "dilations", [1, 1]) != [1, 1] or any(attr_ints(op, "output_padding", [0, 0])):
        raise Unsupported("conv_transpose2d other than kernel == stride without padding, dilation or groups "
                          "(non-overlapping output blocks)")
    n, h, wd, c = shape_of(x)
    out_shape = shape_of(op.results[0])
    elem = elem_of(op.results[0])
    cols = kh * kw * f
    # Bt (KH*KW*F x C): row (ky, kx, f) holds W[:, f, ky, kx].
    bt = low.const_buffer(warr.transpose(2, 3, 1, 0).reshape(cols, cin).copy(), elem)
    acc = low.temp(elem, n * h * wd * cols)
    low.launch(matmul_kernel(low.name("matmul"), elem, 1, n * h * wd, cols, cin, False, False),
               [low.buffer(x), bt, acc])
    act = attr_enum(op, "activation", "none") if "activation" in op.attributes else "none"
    if bias is not None or act != "none":
        barr = constant_data(bias)
        if bias is not None and barr is None:
            raise Unsupported("conv_transpose2d with a non-constant bias")
        biased = low.temp(elem, n * h * wd * cols)
        bias_op = (low.const_buffer(np.tile(barr.reshape(-1), kh * kw), elem), "row", 0) if barr is not None else None
        prog = Program(elem)
        v = prog.input()
        if bias_op is not None:
            v = prog.binary("add", v, prog.input("row"))
        prog.result = prog.activation(act, v)
        kb = elementwise_kernel(low.name("epilogue"), prog, [n * h * wd, cols], 1 if bias_op else 2)
        low.launch(kb, [acc] + ([bias_op[0]] if bias_op else []) + [biased])
        acc = biased
    # out[b, y*KH + ky, x*KW + kx, :] = acc[(b, y, x), (ky, kx, :)]: rows over (b, y, ky, x, kx).
    _, oh, ow, _ = out_shape
    dims = [n, h, kh, wd, kw]
    src = [h * wd * cols, wd * cols, kw * f, cols, f]
    dst = [oh * ow * f, kh * ow * f, ow * f, kw * f, f]
    launch_copy(low, "conv_transpose", elem, dims + [f], acc, src + [1], 0, low.result_buffer(op.results[0]),
                 dst + [1], 0)
