"""The codegen path of each op read from the IR and recorded on it.

The facts :mod:`.strategy` decides on are read off the linalg ops here (:func:`conv_facts`,
:func:`window_facts`, :func:`matmul_facts`); :func:`select_strategy` (the pass
``ge-select-codegen-strategy``) records each op's path as :data:`STRATEGY_ATTR`, as IREE records a
``lowering_config``, and ``ge-apply-codegen-strategy`` takes it back off with :func:`take_path`
(selecting there for an op that carries none) before the op's recipe runs, so no stage's IR
keeps it.
"""

from __future__ import annotations

import math

from mlir import ir

from ....irutils.constants import constant_op, constant_readable, resource_array_readable
from .common import WINDOW_OPS, fill_scalar, int_list, is_zero_fill, lowest_padded, ops_named, static_type
from .epilogue import fusable_epilogue, vector_epilogue_ok
from .strategy import (
    ConvFacts, ConvPath, KernelOptions, MatmulFacts, MatmulPath, WindowFacts, WindowPath, select_conv_path,
    select_matmul_path, select_window_path,
)

__all__ = ["CONV_OPS", "MATMUL_OPS", "STRATEGY_ATTR", "conv_facts", "matmul_facts", "select_op", "select_strategy",
           "take_path", "window_facts"]

#: The discardable attribute holding an op's path (a :class:`~.strategy.ConvPath`,
#: :class:`~.strategy.WindowPath` or :class:`~.strategy.MatmulPath` value).
STRATEGY_ATTR = "ge.cpu_strategy"
CONV_OPS = ("linalg.conv_2d_nchw_fchw",)
MATMUL_OPS = ("linalg.matmul", "linalg.batch_matmul")
#: The plain maps of ``linalg.matmul`` as printed (an op may carry them explicitly).
_DEFAULT_MATMUL_MAPS = ("[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
                        "affine_map<(d0, d1, d2) -> (d0, d1)>]")


def _pair(op: ir.Operation, name: str) -> tuple[int, int]:
    a, b = int_list(op, name)
    return a, b


def _element(types: list[ir.RankedTensorType]) -> str:
    """The one element type of ``types``, or ``""`` when they differ."""
    names = {str(t.element_type) for t in types}
    return names.pop() if len(names) == 1 else ""


def conv_facts(op: ir.Operation) -> ConvFacts | None:
    """The facts of a ``linalg.conv_2d_nchw_fchw`` (None when a shape is dynamic)."""
    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = static_type(x.type), static_type(w.type), static_type(out.type)
    if xt is None or wt is None or ot is None:
        return None
    n, c, hp, wp = xt.shape
    f, _, kh, kw = wt.shape
    _, _, ho, wo = ot.shape
    epilogue = fusable_epilogue(op)
    return ConvFacts(
        element=_element([xt, wt, ot]), batch=n, channels=c, in_hw=(hp, wp), filters=f, kernel=(kh, kw),
        out_hw=(ho, wo), strides=_pair(op, "strides"), dilations=_pair(op, "dilations"),
        constant_filter=constant_readable(w, ("arith.constant",)), zero_init=is_zero_fill(out),
        vector_epilogue=epilogue is None or vector_epilogue_ok(epilogue))


def window_facts(op: ir.Operation) -> WindowFacts | None:
    """The facts of a depthwise convolution or NCHW pool (None when a shape is dynamic)."""
    x, w, out = op.operands[0], op.operands[1], op.operands[2]
    xt, wt, ot = static_type(x.type), static_type(w.type), static_type(out.type)
    if xt is None or wt is None or ot is None:
        return None
    kind = "depthwise" if op.name.startswith("linalg.depthwise") else "max" if op.name.endswith("_max") else "sum"
    init = fill_scalar(out)
    unpadded = None
    padded = lowest_padded(x) if kind == "max" else None
    if padded is not None:
        src, top, left = padded
        h, w_in = ir.RankedTensorType(src.type).shape[2:]
        unpadded = (h, w_in, top, left)
    return WindowFacts(
        kind=kind, elements=(str(xt.element_type), str(wt.element_type), str(ot.element_type)),
        float_input=isinstance(xt.element_type, ir.FloatType), rank=xt.rank, in_hw=tuple(xt.shape[-2:]),
        kernel=(wt.shape[-2], wt.shape[-1]), out_hw=tuple(ot.shape[-2:]), strides=_pair(op, "strides"),
        dilations=_pair(op, "dilations"), empty=any(0 in t.shape for t in (xt, wt, ot)),
        fresh=init is not None and (init == -math.inf if kind == "max" else init == 0.0), unpadded=unpadded)


def matmul_facts(op: ir.Operation) -> MatmulFacts | None:
    """The facts of a ``linalg.matmul`` or ``linalg.batch_matmul`` (None when a shape is dynamic)."""
    types = [static_type(v.type) for v in op.operands]
    if len(types) != 3 or len(op.results) != 1 or any(t is None for t in types):
        return None
    b = op.operands[1]
    constant_b = constant_readable(b, ("arith.constant",))
    blob_bytes = None
    if not constant_b:
        # Past what the constant folders read (irutils.constants.MAX_RESOURCE_ELEMENTS): packing
        # reads the blob itself (the largest weights gain most: GPT-2's 256 x 50257 logits weight).
        cop = constant_op(b, ("arith.constant",))
        bt = types[1]
        if cop is not None and isinstance(bt.element_type, ir.FloatType) and resource_array_readable(
                cop.attributes["value"]):
            blob_bytes = math.prod(bt.shape) * (ir.FloatType(bt.element_type).width // 8)
    maps = op.attributes["indexing_maps"] if "indexing_maps" in op.attributes else None
    return MatmulFacts(
        batched=op.name == "linalg.batch_matmul", element=_element(types), shapes=tuple(tuple(t.shape) for t in types),
        default_maps=maps is None or str(maps) == _DEFAULT_MATMUL_MAPS, constant_b=constant_b, b_blob_bytes=blob_bytes)


def select_op(op: ir.Operation, options: KernelOptions) -> ConvPath | WindowPath | MatmulPath:
    """The path of one convolution, window op or matmul."""
    if op.name in CONV_OPS:
        return select_conv_path(conv_facts(op), options)
    if op.name in WINDOW_OPS:
        return select_window_path(window_facts(op), options)
    if op.name in MATMUL_OPS:
        return select_matmul_path(matmul_facts(op), options)
    raise ValueError(f"no codegen path for {op.name}")


def _path_kind(op: ir.Operation) -> type:
    return ConvPath if op.name in CONV_OPS else WindowPath if op.name in WINDOW_OPS else MatmulPath


def take_path(op: ir.Operation, options: KernelOptions, *, keep: bool = False):
    """The path recorded on ``op`` (removed from it unless ``keep``), else the one selected now.

    A recorded path is followed as it is (the recipes assume what the selection checked); a value
    that names no path of the op's kind raises ValueError."""
    if STRATEGY_ATTR not in op.attributes:
        return select_op(op, options)
    text = ir.StringAttr(op.attributes[STRATEGY_ATTR]).value
    kind = _path_kind(op)
    try:
        path = kind(text)
    except ValueError:
        raise ValueError(f"{op.name} records {STRATEGY_ATTR} = {text!r}, which is no path of it "
                         f"({', '.join(p.value for p in kind)})") from None
    if not keep:
        del op.attributes[STRATEGY_ATTR]
    return path


def select_strategy(module: ir.Module | ir.Operation, options: KernelOptions) -> dict[str, int]:
    """Records the path of every convolution, window op and matmul of ``module`` on it; returns how
    many ops took each path."""
    counts: dict[str, int] = {}
    with module.context:
        for op in ops_named(module, (*CONV_OPS, *WINDOW_OPS, *MATMUL_OPS)):
            path = select_op(op, options)
            op.attributes[STRATEGY_ATTR] = ir.StringAttr.get(path.value)
            counts[path.value] = counts.get(path.value, 0) + 1
    return counts
