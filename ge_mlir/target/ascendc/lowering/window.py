"""Window ops on channel vectors of NHWC images: max/avg pooling (NCHW between two transposes)
and depthwise convolution (reached through ``conv2d``, :mod:`.contraction`)."""

from __future__ import annotations

from mlir import ir

from ....errors import Unsupported
from ....irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ....irutils.ge_ops import conv_parts
from ..kernels.layout import transpose2d_kernel
from ..kernels.window import depthwise_nhwc_kernel, pool_nhwc_kernel
from ..program import Program
from .common import Lowering, constant_data, elem_of, lowering, shape_of


@lowering("max_pool2d", "avg_pool2d")
def lower_pool(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    nchw = attr_enum(op, "data_format", "NCHW") != "NHWC"
    if attr_ints(op, "dilations", [1, 1]) != [1, 1]:
        raise Unsupported("dilated pooling")
    if attr_bool(op, "ceil_mode", False):
        raise Unsupported("ceil_mode pooling")
    elem = elem_of(x)
    if nchw:
        # The window kernel combines channel vectors: pool an NCHW tensor in
        # NHWC between two through-UB transposes.
        n, c, h, w = shape_of(x)
        _, _, oh, ow = shape_of(op.results[0])
    else:
        n, h, w, c = shape_of(x)
        _, oh, ow, _ = shape_of(op.results[0])
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    kind = "max" if op.name == "ge.max_pool2d" else "avg"
    cip = attr_bool(op, "count_include_pad", False)
    kb = pool_nhwc_kernel(low.name("pool"), elem, kind, n, h, w, c, oh, ow,
                            attr_ints(op, "kernel_shape", [1, 1]), attr_ints(op, "strides", [1, 1]), pads[:2], cip)
    if not nchw:
        low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])
        return
    x_nhwc = low.temp(elem, n * h * w * c)
    y_nhwc = low.temp(elem, n * oh * ow * c)
    low.launch(transpose2d_kernel(low.name("trans_data"), elem, n, c, h * w), [low.buffer(x), x_nhwc])
    low.launch(kb, [x_nhwc, y_nhwc])
    low.launch(transpose2d_kernel(low.name("trans_data"), elem, n, oh * ow, c),
               [y_nhwc, low.result_buffer(op.results[0])])


def lower_depthwise_conv2d(low: Lowering, op: ir.Operation) -> None:
    """A grouped ``conv2d`` (:func:`.contraction.lower_conv2d`): depthwise in NHWC (groups = C = F)
    with a constant filter, as one vector kernel with bias and the fused activation."""
    x, w, bias, residual = conv_parts(op)
    groups = attr_int(op, "groups", 1)
    warr = constant_data(w)
    if attr_enum(op, "data_format", "NCHW") != "NHWC":
        raise Unsupported("grouped conv2d outside NHWC (the ascendc pipeline computes convolutions in NHWC)")
    n, h, wd, c = shape_of(x)
    _, oh, ow, f = shape_of(op.results[0])
    if groups != c or f != c:
        raise Unsupported(f"grouped conv2d other than depthwise with one filter per channel (groups={groups}, "
                          f"{c} -> {f} channels)")
    if warr is None:
        raise Unsupported("depthwise conv2d with a non-constant filter")
    if residual is not None:
        raise Unsupported("depthwise conv2d with a fused residual")
    elem = elem_of(op.results[0])
    _, _, kh, kw = warr.shape
    act = attr_enum(op, "activation", "none")
    prog = None
    if act != "none":
        prog = Program(elem)
        prog.result = prog.activation(act, prog.input(), attr_float(op, "activation_alpha", None))
    pads = attr_ints(op, "pads", [0, 0, 0, 0])
    kb = depthwise_nhwc_kernel(low.name("depthwise"), elem, n, h, wd, c, oh, ow, kh, kw,
                                 attr_ints(op, "strides", [1, 1]), pads[:2], attr_ints(op, "dilations", [1, 1]),
                                 bias is not None, prog)
    # Filter [C, 1, KH, KW] -> [KH, KW, C]: one channel vector per window position.
    wbuf = low.const_buffer(warr.reshape(c, kh * kw).T.copy(), elem)
    args = [low.buffer(x), wbuf] + ([low.buffer(bias)] if bias is not None else [])
    low.launch(kb, [*args, low.result_buffer(op.results[0])])
