"""ge-decompose-gradient-ops: the training gradients as the forward ops they are adjoint to.

``ge.conv2d_backprop_input``, ``ge.conv2d_backprop_filter`` and ``ge.avg_pool_grad`` have no
lowering of their own: this pass rewrites each into existing ge ops, early (``after-import``), so
that fusion, layout and both targets' lowerings only ever see ops they know. Every rewrite is exact,
i.e. it computes the same sums of the same products (only the summation order may differ):

* **backprop_input** is ``ge.conv_transpose2d(out_backprop, filter)`` with the forward strides,
  dilations and groups. A transposed convolution is by definition the adjoint of the convolution
  with the same filter (ONNX ConvTranspose: ``y[s*o + d*k - pad_begin] += x[o] * W[k]``), and the
  forward filter ``[C_out, C_in/g, kH, kW]`` is read by ``conv_transpose2d`` as its
  ``[C_in, C_out/g, kH, kW]`` with the roles of the channels swapped, as the adjoint needs. Only
  the output size must be made ``input_size``: along each spatial dim the transposed convolution
  covers ``s*(O-1) + d*(k-1) + 1`` padded positions, of which the first ``pad_begin`` are cut; the
  remaining ``extra = s*(O-1) + d*(k-1) + 1 - pad_begin - H`` positions are cut as an end pad when
  ``extra >= 0``, and when ``extra < 0`` (the forward floor division left input rows no window
  reads) ``-extra`` zero rows are added as ``output_padding``: exactly the zero gradient of rows
  the forward op never reads.
* **backprop_filter** is a ``ge.conv2d`` with batch and channels swapped:
  ``dW[co, ci, ky, kx] = sum_{n, oy, ox} dY[n, co, oy, ox] * Xpad[n, ci', oy*s + ky*d]`` is a
  convolution of ``X`` (as ``[C_in/g, g*N, H, W]``: ``X[n, gi*C_in/g + ci]`` at ``[ci, gi*N + n]``)
  with ``dY`` as the filter (``[C_out, N, OH, OW]``), ``groups = g`` (output channel ``co`` of group
  ``gi`` then sums over the ``N`` input channels ``gi*N + n`` only, i.e. over its own group's input
  channels), with the forward stride as the dilation and the forward dilation as the stride, and
  the forward pads (the end pad trimmed to what the taps reach). Its ``[C_in/g, C_out, kH', kW']``
  result is transposed to ``[C_out, C_in/g, ...]`` and sliced to ``kH x kW`` when the forward
  floor division left rows no window reads (``kH' > kH``: taps past the kernel).
* **avg_pool_grad** divides ``out_backprop`` by each window's divisor (a constant computed here,
  with ge.avg_pool2d's rule: the taps inside ``[-pad_begin, H + pad_end)`` with
  ``count_include_pad``, inside ``[0, H)`` without; the ceil-mode tail past the end pad never
  counts), then scatters every quotient to the window's input positions with a
  ``ge.conv_transpose2d`` of a ``1 x 1 x kH x kW`` ones kernel over ``[N*C, 1, OH, OW]`` (the pooling
  is per channel), sized to ``input_size`` as above. Dividing then summing is what torch's
  ``avg_pool2d_backward`` computes; for 16-bit floats both steps run in f32, as torch's do, and
  the result is rounded once.

The ops' results are static (``input_size``/``filter_size``); operands with dynamic dimensions are
refused with an error naming the op rather than rewritten into ops whose shapes the targets
cannot lower, never into different numbers.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import ge
from ..irutils.attrs import attr_bool, attr_int, attr_ints
from ..irutils.constants import make_constant
from ..irutils.windows import end_adjustment, window_divisors
from ..passes.registry import Pass, PassFailure, register_pass

GRADIENT_OPS = ("ge.conv2d_backprop_input", "ge.conv2d_backprop_filter", "ge.avg_pool_grad")


def _reshape(value: ir.Value, shape: list[int]) -> ir.Value:
    t = ir.RankedTensorType(value.type)
    if list(t.shape) == list(shape):
        return value
    return ge.reshape(ir.RankedTensorType.get(shape, t.element_type), value)


def _static(op: ir.Operation, value: ir.Value, what: str) -> list[int]:
    t = ir.RankedTensorType(value.type)
    if not t.has_static_shape:
        raise PassFailure(f"{op.name}: operand '{what}' of type {t} has dynamic dimensions; "
                          "only static shapes decompose exactly into ge ops", at=op)
    return list(t.shape)


def _conv_attrs(op: ir.Operation) -> tuple[list[int], list[int], list[int], int]:
    return (attr_ints(op, "strides", [1, 1]), attr_ints(op, "pads", [0, 0, 0, 0]),
            attr_ints(op, "dilations", [1, 1]), attr_int(op, "groups", 1))


def _backprop_input(op: ir.Operation) -> ir.Value:
    w, dy = op.operands[0], op.operands[1]
    _static(op, w, "filter")
    oh_ow = _static(op, dy, "out_backprop")[2:]
    size = attr_ints(op, "input_size", None)
    s, p, d, g = _conv_attrs(op)
    k = _static(op, w, "filter")[2:]
    ends, out_pad = zip(*(end_adjustment(size[2 + i], oh_ow[i], k[i], s[i], d[i], p[i]) for i in range(2)))
    return ge.conv_transpose2d(dy, w, strides=s, pads=[p[0], p[1], ends[0], ends[1]], dilations=d,
                               output_padding=list(out_pad), groups=g)


def _backprop_filter(op: ir.Operation) -> ir.Value:
    x, dy = op.operands[0], op.operands[1]
    n, cin, h, wd = _static(op, x, "input")
    oh_ow = _static(op, dy, "out_backprop")[2:]
    cout, cig, kh, kw = attr_ints(op, "filter_size", None)
    s, p, d, g = _conv_attrs(op)
    if g == 1:
        xr = ge.transpose(x, [1, 0, 2, 3])
    else:
        # [N, g, C_in/g, H, W] -> [C_in/g, g, N, H, W]: group gi's batch is channels gi*N .. gi*N+N-1.
        t5 = ge.transpose(_reshape(x, [n, g, cig, h, wd]), [2, 1, 0, 3, 4])
        xr = _reshape(t5, [cig, g * n, h, wd])
    dyt = ge.transpose(dy, [1, 0, 2, 3])
    ends = [max(0, end_adjustment((h, wd)[i], oh_ow[i], (kh, kw)[i], s[i], d[i], p[i])[0]) for i in range(2)]
    y = ge.conv2d(xr, dyt, strides=d, dilations=s, pads=[p[0], p[1], ends[0], ends[1]], groups=g)
    y = ge.transpose(y, [1, 0, 2, 3])
    got = list(ir.RankedTensorType(y.type).shape)
    if got[2:] != [kh, kw]:
        y = ge.slice(y, [0, 0], [kh, kw], axes=[2, 3])
    return y


def _avg_pool_grad(op: ir.Operation) -> ir.Value:
    dy = op.operands[0]
    n, c, oh, ow = _static(op, dy, "out_backprop")
    size = attr_ints(op, "input_size", None)
    k = attr_ints(op, "kernel_shape", None)
    s, p = attr_ints(op, "strides", [1, 1]), attr_ints(op, "pads", [0, 0, 0, 0])
    include = attr_bool(op, "count_include_pad", False)
    elem = ir.RankedTensorType(dy.type).element_type
    narrow = ir.FloatType(elem).width < 32
    if narrow:
        # As torch's opmath: divide and sum in f32, round once (divisors past 256 are not even
        # representable in bf16).
        n_elem, elem = elem, ir.F32Type.get()
        dy = ge.cast(ir.RankedTensorType.get([n, c, oh, ow], elem), dy)
    dh = window_divisors(oh, size[2], k[0], s[0], p[0], p[2], include)
    dw = window_divisors(ow, size[3], k[1], s[1], p[1], p[3], include)
    divisor = make_constant(np.outer(dh, dw).reshape(1, 1, oh, ow), elem, "avg_pool_grad_divisor", op.location)
    ones = make_constant(np.ones((1, 1, k[0], k[1])), elem, "avg_pool_grad_window", op.location)
    flat = _reshape(dy, [n * c, 1, oh, ow])
    scaled = ge.div(flat, divisor)
    ends, out_pad = zip(*(end_adjustment(size[2 + i], (oh, ow)[i], k[i], s[i], 1, p[i]) for i in range(2)))
    dx = ge.conv_transpose2d(scaled, ones, strides=s, pads=[p[0], p[1], ends[0], ends[1]],
                             output_padding=list(out_pad))
    dx = _reshape(dx, [n, c, size[2], size[3]])
    return ge.cast(ir.RankedTensorType.get([n, c, size[2], size[3]], n_elem), dx) if narrow else dx


_DECOMPOSE = {
    "ge.conv2d_backprop_input": _backprop_input,
    "ge.conv2d_backprop_filter": _backprop_filter,
    "ge.avg_pool_grad": _avg_pool_grad,
}


@register_pass
class GeDecomposeGradientOpsPass(Pass):
    name = "ge-decompose-gradient-ops"
    summary = "Rewrite conv2d_backprop_input/filter and avg_pool_grad into conv_transpose2d/conv2d exactly"
    description = __doc__
    # First of the graph passes (after the optional verification at 0): folding, fusion and layout
    # passes, and both targets' lowerings, see only the forward ops the gradients become.
    stage = "after-import"
    priority = 5

    def run(self, module: ir.Operation) -> None:
        found: list[ir.Operation] = []

        def collect(op: ir.Operation) -> ir.WalkResult:
            if op.name in _DECOMPOSE:
                found.append(op.operation)
            return ir.WalkResult.ADVANCE

        module.walk(collect)
        for op in found:
            name = op.name
            with ir.InsertionPoint(op), op.location:
                new = _DECOMPOSE[name](op)
            if new.type != op.results[0].type:  # a bug here must never become wrong shapes downstream
                raise PassFailure(f"{name}: decomposition produced {new.type}, expected "
                                  f"{op.results[0].type}", at=op)
            op.results[0].replace_all_uses_with(new)
            op.erase()
            self.bump("rewrites")
            self.bump(name.removeprefix("ge.").replace("_", "-"))
