"""ge-fuse-bias-add: fold ``add(conv2d|matmul|gemm, constant)`` into the op's bias.

* conv2d: the constant must be a pure per-output-channel bias once
  broadcast against the result (numpy rules: NCHW ``[C,1,1]``, ``[1,C,1,1]``;
  NHWC ``[C]``, ``[1,1,1,C]``; a scalar). A NCHW ``[C]`` constant is NOT a
  per-channel bias (it broadcasts along W) and is refused. The new bias is
  ``[C]``, summed with an existing constant bias in numpy (or with a
  ``ge.add`` when the existing bias is not a constant).
* matmul: the constant must broadcast along the last dim only (``[N]``,
  ``[1,N]``, a scalar...); it becomes the bias (summed with an existing
  constant bias in numpy).
* gemm: same, into ``C`` (``beta`` set to 1 when there was no C; with an
  existing C only when ``beta == 1`` and C is a constant).

Refused: producers with a fused activation or other users, adds whose
result type differs from the producer's (the add broadcasts the result).
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.rewrite import PatternRewriter

from ..ir.attrs import attr_enum
from ..passes.registry import Option, register_pass
from .fusion_common import PatternFusionPass, fusion_options
from ..ir.ge_ops import activation_of, conv_parts, recreate, recreate_conv
from ..ir.constants import constant_array, constant_op, make_constant, tensor_type
from ..ir.patterns import defining_op, pattern, single_use

_PRODUCERS = {"ge.conv2d": "conv2d", "ge.matmul": "matmul", "ge.gemm": "gemm"}


def _channel_dim(conv: ir.Operation, rank: int) -> int:
    return rank - 1 if attr_enum(conv, "data_format", "NCHW") == "NHWC" else 1


def _only_dim(shape: list[int], rank: int, dim: int) -> bool:
    """True when ``shape``, right-aligned to ``rank``, is 1 everywhere except maybe ``dim``."""
    if len(shape) > rank:
        return False
    full = [1] * (rank - len(shape)) + list(shape)
    return all(d == 1 for i, d in enumerate(full) if i != dim)


def make_bias_add_pattern(owner: GeFuseBiasAddPass):
    enabled = set(owner.opt("producers"))

    @pattern
    def fuse_bias_add(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        add = op.operation
        for i in (0, 1):
            prod = defining_op(add.operands[i])
            cval = add.operands[1 - i]
            if prod is None or _PRODUCERS.get(prod.name) not in enabled or constant_op(cval) is None:
                continue
            if not single_use(prod.results[0]) or activation_of(prod) != "none":
                continue
            if add.results[0].type != prod.results[0].type:
                continue
            out_t, c_t = tensor_type(prod.results[0]), tensor_type(cval)
            if out_t is None or c_t is None or c_t.element_type != out_t.element_type:
                continue
            rank, shape = out_t.rank, list(c_t.shape)
            with rewriter.ip, add.location:
                if prod.name == "ge.conv2d":
                    new = _conv(prod, cval, rank, shape, out_t)
                elif prod.name == "ge.matmul":
                    new = _matmul(prod, cval, rank, shape)
                else:
                    new = _gemm(prod, cval, rank, shape)
            if new is None:
                continue
            rewriter.replace_op(add, new)
            owner.rewritten(f"{_PRODUCERS[prod.name]}-bias-fused")
            return True
        return False

    return fuse_bias_add


def _conv(conv: ir.Operation, cval: ir.Value, rank: int, shape: list[int], out_t: ir.RankedTensorType):
    cdim = _channel_dim(conv, rank)
    if not _only_dim(shape, rank, cdim):
        return None
    c = out_t.shape[cdim]
    arr = constant_array(cval)
    if arr is None:
        return None
    new_b = np.broadcast_to(arr.reshape(-1), (c,)) if arr.size in (1, c) else None
    if new_b is None:
        return None
    elem = out_t.element_type
    x, w, old_bias, residual = conv_parts(conv)
    if old_bias is not None:
        old = constant_array(old_bias)
        if old is not None:
            bias = make_constant(old.reshape(c) + new_b, elem, "bias_fused", conv.location)
        else:
            from ..dialects import ge

            bias = ge.AddOp(old_bias, make_constant(new_b, elem, "bias_add", conv.location)).result
    else:
        bias = make_constant(new_b, elem, "bias_add", conv.location)
    return recreate_conv(conv, x, w, bias, residual)


def _per_column(rank: int, shape: list[int]) -> bool:
    return _only_dim(shape, rank, rank - 1)


def _matmul(mm: ir.Operation, cval: ir.Value, rank: int, shape: list[int]):
    if not _per_column(rank, shape):
        return None
    if len(mm.operands) == 3:
        old, new = constant_array(mm.operands[2]), constant_array(cval)
        if old is None or new is None:
            return None
        total = old + new
        if not _per_column(rank, list(total.shape)):
            return None
        bias = make_constant(total, ir.RankedTensorType(cval.type).element_type, "bias_fused", mm.location)
    else:
        bias = cval
    return recreate(mm, [mm.operands[0], mm.operands[1], bias])


def _gemm(gemm: ir.Operation, cval: ir.Value, rank: int, shape: list[int]):
    if not _per_column(rank, shape):
        return None
    one = ir.FloatAttr.get(ir.F32Type.get(), 1.0)
    if len(gemm.operands) == 3:
        beta = ir.FloatAttr(gemm.attributes["beta"]).value if "beta" in gemm.attributes else 1.0
        old, new = constant_array(gemm.operands[2]), constant_array(cval)
        if beta != 1.0 or old is None or new is None:
            return None
        total = old + new
        if len(total.shape) > 2:
            return None
        bias = make_constant(total, ir.RankedTensorType(cval.type).element_type, "bias_fused", gemm.location)
    else:
        if len(shape) > 2:
            return None
        bias = cval
    return recreate(gemm, [gemm.operands[0], gemm.operands[1], bias], {"beta": one})


@register_pass
class GeFuseBiasAddPass(PatternFusionPass):
    name = "ge-fuse-bias-add"
    summary = "Fold add(conv2d|matmul|gemm, per-channel constant) into the producer's bias"
    description = __doc__
    priority = 20
    options = fusion_options(
        Option("producers", list, ["conv2d", "matmul", "gemm"], "producer ops the bias is folded into"),
    )

    def patterns(self, module: ir.Operation):
        return [("ge.add", make_bias_add_pattern(self), 1)]
