"""Convolution ONNX ops: Conv, ConvInteger and ConvTranspose.

* ONNX ``pads`` are ``[x1_begin, x2_begin, ..., x1_end, x2_end, ...]``, which
  for two spatial dims is exactly ge's ``[top, left, bottom, right]``.
* ``auto_pad`` (SAME_UPPER / SAME_LOWER / VALID) is turned into explicit pads
  from the static input shape; a dynamic spatial dim is refused.
* 1-D convolutions ``[N, C, W]`` run as 2-D ones on ``[N, C, 1, W]``
  (``ge.unsqueeze`` before, ``ge.squeeze`` after); 3-D ones (5-D inputs) are
  refused: ge has 2-D convolutions only.
"""

from __future__ import annotations

from mlir import ir

from ....dialects import ge
from ..registry import converter
from ._shapes import _cast, _kernel, _reshape, _spatial_rank, _to_2d, _window


def _conv_of(ctx, x: ir.Value, w: ir.Value, b: ir.Value | None) -> ir.Value:
    """ONNX Conv's window attributes applied to the values ``x`` and ``w`` (1-D and 2-D)."""
    n = _spatial_rank(ctx, "convolution")
    if ctx.rank(1) != n + 2:
        ctx.invalid(f"weight rank {ctx.rank(1)} does not match the {n}-D convolution")
    kernel = _kernel(ctx, ctx.shape(1), n)
    strides, pads, dilations = _window(ctx, ctx.shape(0)[2:], kernel)
    strides, pads, dilations, _ = _to_2d(n, strides, pads, dilations)
    if n == 1:
        x, w = ge.unsqueeze(x, [2]), ge.unsqueeze(w, [2])
    y = ge.conv2d(x, w, bias=b, strides=strides, pads=pads, dilations=dilations, groups=int(ctx.attr("group", 1)))
    if n == 1:
        y = ge.squeeze(y, axes=[2])
    return y


@converter("Conv", notes="1-D and 2-D; 3-D refused")
def conv(ctx):
    return _conv_of(ctx, ctx.input(0), ctx.input(1), ctx.input(2))


@converter("ConvInteger", since=10, notes="u8/i8 minus zero points (per tensor; per output channel for w), "
           "convolved in f64 (exact: |sums| < 2^53) and converted to i32")
def conv_integer(ctx):
    for k in (0, 1):
        if str(ctx.elem(k)) not in ("i8", "ui8"):
            ctx.refuse(f"input #{k} of type {ctx.input_type(k)} is not int8/uint8")
    f64 = ir.F64Type.get()
    x, w = _cast(ctx.input(0), f64), _cast(ctx.input(1), f64)
    if ctx.has_input(2):
        x = ge.sub(x, _cast(ctx.input(2), f64))  # padding then adds zeros of the shifted input
    if ctx.has_input(3):
        zp = _cast(ctx.input(3), f64)
        zs = ctx.shape(3)
        if len(zs) == 1 and zs[0] > 1:
            zp = _reshape(zp, [zs[0]] + [1] * (ctx.rank(1) - 1))
        w = ge.sub(w, zp)
    return _cast(_conv_of(ctx, x, w, None), ir.IntegerType.get_signless(32))


@converter("ConvTranspose", notes="1-D and 2-D; 3-D refused; output_shape -> pads/output_padding")
def conv_transpose(ctx):
    n = _spatial_rank(ctx, "transposed convolution")
    x, w, b = ctx.input(0), ctx.input(1), ctx.input(2)
    if ctx.rank(1) != n + 2:
        ctx.invalid(f"weight rank {ctx.rank(1)} does not match the {n}-D transposed convolution")
    kernel = _kernel(ctx, ctx.shape(1), n)
    in_sp = ctx.shape(0)[2:]
    strides = list(ctx.attr("strides", None) or [1] * n)
    dilations = list(ctx.attr("dilations", None) or [1] * n)
    out_pad = list(ctx.attr("output_padding", None) or [0] * n)
    if len(strides) != n or len(dilations) != n or len(out_pad) != n:
        ctx.invalid(f"strides/dilations/output_padding must have {n} values")
    auto_pad = ctx.attr("auto_pad", "NOTSET") or "NOTSET"
    output_shape = ctx.attr("output_shape", None)
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        # ONNX: total_padding = stride*(in-1) + output_padding + (k-1)*d + 1 - out;
        # SAME_UPPER puts the odd element at the end, anything else at the start.
        if any(d < 0 for d in in_sp):
            ctx.refuse(f"output_shape/auto_pad needs static spatial input dimensions, got {in_sp}")
        if output_shape is not None:
            output_shape = list(output_shape)[-n:]  # some exporters include N, C
            if len(output_shape) != n:
                ctx.invalid(f"output_shape {list(ctx.attr('output_shape'))} must have {n} spatial values")
        else:
            output_shape = [in_sp[i] * strides[i] for i in range(n)]
        begin, end = [], []
        for i in range(n):
            total = strides[i] * (in_sp[i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1 - output_shape[i]
            if total < 0:
                # ONNX would need negative pads (onnxruntime rejects such models).
                ctx.refuse(
                    f"output_shape {output_shape} is larger than the transposed convolution produces "
                    f"along spatial dim {i} (it would need {total} padding)"
                )
            b_ = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            begin.append(b_)
            end.append(total - b_)
        pads = begin + end
    elif auto_pad == "VALID":
        pads = [0] * (2 * n)
    elif auto_pad == "NOTSET":
        pads = list(ctx.attr("pads", None) or [0] * (2 * n))
        if len(pads) != 2 * n:
            ctx.invalid(f"pads {pads} must have {2 * n} values")
    else:
        ctx.invalid(f"unknown auto_pad {auto_pad!r}")
    strides, pads, dilations, out_pad = _to_2d(n, strides, pads, dilations, out_pad)
    if n == 1:
        x, w = ge.unsqueeze(x, [2]), ge.unsqueeze(w, [2])
    y = ge.conv_transpose2d(
        x, w, bias=b, strides=strides, pads=pads, dilations=dilations, output_padding=out_pad,
        groups=int(ctx.attr("group", 1)),
    )
    if n == 1:
        y = ge.squeeze(y, axes=[2])
    return y
