"""Tensor creation: full/zeros/ones, scalar_tensor, arange and their *_like forms (all static)."""

from __future__ import annotations

from ..registry import FxContext, converter

import torch

aten = torch.ops.aten


@converter(aten.full, aten.full_like, aten.zeros, aten.ones, aten.zeros_like, aten.ones_like, aten.new_zeros,
           aten.new_ones, aten.new_full, aten.scalar_tensor, aten.empty, aten.empty_like, aten.new_empty,
           aten.empty_strided, aten.new_empty_strided)
def full(cx: FxContext):
    """A splat constant of the node's shape and dtype. ``empty`` promises no values: zeros are one."""
    packet = cx.node.target.overloadpacket
    if packet in (aten.full, aten.new_full, aten.full_like):
        fill = cx.arg(1, "fill_value") if packet in (aten.full, aten.full_like) else cx.arg(2, "fill_value")
    elif packet is aten.scalar_tensor:
        fill = cx.arg(0)
    elif packet in (aten.ones, aten.ones_like, aten.new_ones):
        fill = 1
    else:
        fill = 0
    if cx.is_node(fill):
        cx.refuse("a fill value computed in the graph")
    return cx.importer.splat(fill, cx.shape(), cx.dtype())


@converter(aten.arange)
def arange(cx: FxContext):
    args = [a for a in cx.args]
    if any(cx.is_node(a) for a in args):
        cx.refuse("arange bounds computed in the graph")
    return cx.constant(torch.arange(*args, dtype=cx.dtype()))
