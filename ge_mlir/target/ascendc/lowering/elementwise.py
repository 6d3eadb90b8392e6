"""Single ops lowered to one vector kernel: ``batch_norm`` with constant statistics (a per-channel
affine kernel), ``cast`` (the conversions the vector ``Cast`` documents), ``where`` with a
compile-time condition (``Select``), and :func:`epilogue`, the vector kernel the contractions end
with. Fused elementwise chains are in :mod:`.chain`."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....errors import Unsupported
from ....irutils.attrs import attr_enum, attr_float
from ....irutils.constants import constant_op
from ..kernel_builder import elem_bytes
from ..kernels.cast import cast_kernel
from ..kernels.copy import where_kernel
from ..kernels.elementwise import elementwise_kernel
from ..program import Program
from .common import Buffer, Lowering, constant_data, elem_of, lowering, numel, scalar_constant, shape_of


def epilogue(low: Lowering, acc: Buffer, out_value: ir.Value, shape: list[int], split: int,
             bias: tuple[Buffer, str, int] | None, residual: Buffer | None, act: str, alpha: float | None,
             scale: float = 1.0, bias_scale: float = 1.0) -> None:
    """``out = act(scale * acc + bias_scale * bias + residual)`` as one vector kernel."""
    elem = elem_of(out_value)
    prog = Program(elem)
    x = prog.input()
    args = [acc]
    if scale != 1.0:
        x = prog.scalar("muls", x, scale)
    if bias is not None:
        buf, kind, period = bias
        if bias_scale != 1.0:
            raise Unsupported("gemm beta other than 1 with a bias")
        b = prog.input(kind, period)
        args.append(buf)
        x = prog.binary("add", x, b)
    if residual is not None:
        r = prog.input()
        args.append(residual)
        if bias is None and bias_scale != 1.0:      # a gemm's full-shape C, times beta
            r = prog.scalar("muls", r, bias_scale)
        x = prog.binary("add", x, r)
    prog.result = prog.activation(act, x, alpha)
    kb = elementwise_kernel(low.name("epilogue"), prog, shape, split if bias is not None else len(shape))
    low.launch(kb, [*args, low.result_buffer(out_value)])


@lowering("batch_norm")
def lower_batch_norm(low: Lowering, op: ir.Operation) -> None:
    stats = [constant_data(op.operands[i]) for i in range(1, 5)]
    if any(s is None for s in stats):
        raise Unsupported("batch_norm with non-constant statistics")
    scale, beta, mean, var = (s.reshape(-1).astype(np.float64) for s in stats)
    eps = attr_float(op, "epsilon", 1e-5)
    a = scale / np.sqrt(var + eps)
    b = beta - mean * a
    shape = shape_of(op.results[0])
    elem = elem_of(op.results[0])
    nchw = attr_enum(op, "data_format", "NCHW") == "NCHW"
    prog = Program(elem)
    x = prog.input()
    kind, split = ("col", 2) if nchw else ("row", len(shape) - 1)
    ar = prog.input(kind, len(a) if nchw else 0)
    br = prog.input(kind, len(b) if nchw else 0)
    prog.result = prog.binary("add", prog.binary("mul", x, ar), br)
    kb = elementwise_kernel(low.name("batch_norm"), prog, shape, split)
    low.launch(kb, [low.buffer(op.operands[0]), low.const_buffer(a, elem), low.const_buffer(b, elem),
                    low.result_buffer(op.results[0])])


#: Round mode per conversion the vector Cast documents for Atlas A2 (docs/ascendc.md), chosen for
#: ONNX Cast semantics: nearest-even into floats, toward zero into integers.
_CASTS = {("f32", "f16"): "rint", ("f16", "f32"): "none", ("i64", "f32"): "rint", ("i32", "f32"): "none",
          ("i64", "i32"): "none", ("i32", "i64"): "none", ("f32", "i32"): "trunc", ("f32", "i64"): "trunc",
          ("f32", "bf16"): "rint", ("bf16", "f32"): "none", ("ui8", "f16"): "none", ("i8", "f16"): "none",
          ("f16", "ui8"): "trunc", ("f16", "i8"): "trunc"}


@lowering("cast")
def lower_cast(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    src, dst = elem_of(x), elem_of(op.results[0])
    n = numel(shape_of(x))
    mode = _CASTS.get((src, dst))
    if mode is None and (src, "f32") in _CASTS and ("f32", dst) in _CASTS and src in ("i64", "i32"):
        # Through f32 (e.g. int64 ids to f16): integers up to 2^24 are exact in f32, so only the
        # second cast rounds, and anything larger overflows f16 either way.
        mid = low.temp("f32", n)
        low.launch(cast_kernel(low.name("cast"), src, "f32", n, _CASTS[(src, "f32")]), [low.buffer(x), mid])
        low.launch(cast_kernel(low.name("cast"), "f32", dst, n, _CASTS[("f32", dst)]),
                   [mid, low.result_buffer(op.results[0])])
        return
    if mode is None:
        raise Unsupported(f"cast {src} -> {dst} (not a conversion the vector Cast documents)")
    kb = cast_kernel(low.name("cast"), src, dst, n, mode)
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


@lowering("where")
def lower_where(low: Lowering, op: ir.Operation) -> None:
    cond, x, y = op.operands
    out_shape = shape_of(op.results[0])
    elem = elem_of(op.results[0])
    carr = None
    if constant_op(cond) is not None:
        try:   # i1 dense constants: numpy unpacks them to bool (constant_array reads numeric types)
            carr = np.array(ir.DenseElementsAttr(constant_op(cond).attributes["value"]))
            carr = np.broadcast_to(carr.reshape(-1)[:1], shape_of(cond)) if carr.size == 1 else carr.reshape(
                shape_of(cond))
        except (ValueError, TypeError):
            carr = None
    if carr is None:
        raise Unsupported("where with a run-time condition (only a compile-time mask, e.g. a causal mask)")
    scalars = []
    for v in (x, y):
        s = scalar_constant(v)
        if s is None and shape_of(v) != out_shape:
            raise Unsupported(f"where with a broadcast operand of shape {shape_of(v)}")
        scalars.append(s)
    if numel(out_shape) * elem_bytes(elem) > low.gm_bytes:  # before packing a mask that large
        raise Unsupported(f"an output of {numel(out_shape) * elem_bytes(elem)} bytes is larger than the "
                          f"device memory ({low.gm_bytes} bytes)")
    # The condition broadcast to the output, one bit per element, LSB first (Select's mask layout).
    bits = np.packbits(np.broadcast_to(carr.astype(bool), out_shape).reshape(-1), bitorder="little")
    mask = Buffer("ui8", int(bits.size), "const", value=bits)
    kb = where_kernel(low.name("where"), elem, numel(out_shape), scalars[0], scalars[1])
    args = [mask] + [low.buffer(v) for v, s in zip((x, y), scalars) if s is None]
    low.launch(kb, [*args, low.result_buffer(op.results[0])])
