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

from ..irutils.attrs import attr_enum
from ..irutils.constants import constant_array, constant_op, make_constant, tensor_type
from ..irutils.ge_ops import activation_of, conv_parts, recreate, recreate_conv
from ..passes.fusion import FusionPass, FusionPattern
from ..passes.registry import Option, register_pass

_PRODUCERS = {"ge.conv2d": "conv2d", "ge.matmul": "matmul", "ge.gemm": "gemm"}


def _channel_dim(conv: ir.Operation, rank: int) -> int:
    return rank - 1 if attr_enum(conv, "data_format", "NCHW") == "NHWC" else 1


def _only_dim(shape: list[int], rank: int, dim: int) -> bool:
    """True when ``shape``, right-aligned to ``rank``, is 1 everywhere except maybe ``dim``."""
    if len(shape) > rank:
        return False
    full = [1] * (rank - len(shape)) + list(shape)
    return all(d == 1 for i, d in enumerate(full) if i != dim)


class FuseBiasAdd(FusionPattern):
    """``add(conv2d|matmul|gemm, constant)`` -> the producer with the constant in its bias."""

    root = "ge.add"

    def __init__(self, pass_: GeFuseBiasAddPass) -> None:
        super().__init__(pass_)
        self.enabled_producers = set(pass_.opt("producers"))

    def match(self, op: ir.OpView):
        """(producer, builder of the fused op) for the first eligible operand order."""
        add = op.operation
        for i in (0, 1):
            prod = self.producer(add.operands[i])
            cval = add.operands[1 - i]
            if prod is None or _PRODUCERS.get(prod.name) not in self.enabled_producers or constant_op(cval) is None:
                continue
            if not self.has_one_use(prod.results[0]) or activation_of(prod) != "none":
                continue
            if add.results[0].type != prod.results[0].type:
                continue
            out_t, c_t = tensor_type(prod.results[0]), tensor_type(cval)
            if out_t is None or c_t is None or c_t.element_type != out_t.element_type:
                continue
            rank, shape = out_t.rank, list(c_t.shape)
            if prod.name == "ge.conv2d":
                build = _conv(prod, cval, rank, shape, out_t)
            elif prod.name == "ge.matmul":
                build = _matmul(prod, cval, rank, shape)
            else:
                build = _gemm(prod, cval, rank, shape)
            if build is not None:
                return prod, build
        return None

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> str:
        prod, build = data
        add = op.operation
        with rewriter.ip, add.location:
            new = build()
        rewriter.replace_op(add, new)
        return f"{_PRODUCERS[prod.name]}-bias-fused"


# Each of these checks one producer kind and returns None (refused) or a
# function building the fused op: match() must not create ops.
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

    def build():
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

    return build


def _per_column(rank: int, shape: list[int]) -> bool:
    return _only_dim(shape, rank, rank - 1)


def _matmul(mm: ir.Operation, cval: ir.Value, rank: int, shape: list[int]):
    if not _per_column(rank, shape):
        return None
    total = None
    if len(mm.operands) == 3:
        old, new = constant_array(mm.operands[2]), constant_array(cval)
        if old is None or new is None:
            return None
        total = old + new
        if not _per_column(rank, list(total.shape)):
            return None

    def build():
        bias = cval
        if total is not None:
            bias = make_constant(total, ir.RankedTensorType(cval.type).element_type, "bias_fused", mm.location)
        return recreate(mm, [mm.operands[0], mm.operands[1], bias])

    return build


def _gemm(gemm: ir.Operation, cval: ir.Value, rank: int, shape: list[int]):
    if not _per_column(rank, shape):
        return None
    total = None
    if len(gemm.operands) == 3:
        beta = ir.FloatAttr(gemm.attributes["beta"]).value if "beta" in gemm.attributes else 1.0
        old, new = constant_array(gemm.operands[2]), constant_array(cval)
        if beta != 1.0 or old is None or new is None:
            return None
        total = old + new
        if len(total.shape) > 2:
            return None
    elif len(shape) > 2:
        return None

    def build():
        one = ir.FloatAttr.get(ir.F32Type.get(), 1.0)
        bias = cval
        if total is not None:
            bias = make_constant(total, ir.RankedTensorType(cval.type).element_type, "bias_fused", gemm.location)
        return recreate(gemm, [gemm.operands[0], gemm.operands[1], bias], {"beta": one})

    return build


@register_pass
class GeFuseBiasAddPass(FusionPass):
    name = "ge-fuse-bias-add"
    summary = "Fold add(conv2d|matmul|gemm, per-channel constant) into the producer's bias"
    description = __doc__
    priority = 20
    patterns = (FuseBiasAdd,)
    options = (
        Option("producers", list, ["conv2d", "matmul", "gemm"], "producer ops the bias is folded into"),
    )
