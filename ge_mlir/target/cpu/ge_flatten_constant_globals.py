"""ge-flatten-constant-globals: constant ``memref.global`` weights become rank 1.

The LLVM translation turns a rank-N global into nested LLVM arrays: only the innermost
dimension is one flat ``ConstantDataArray``, every outer element is a constant of its own.
A [64, 64, 3, 3] convolution weight is 12288 arrays of 3 floats, and the JIT translated and
emitted ResNet-18's 11.7M weights that way in about 15 s of its 19 s compile; flat arrays of
the same bytes take a fraction of a second. Each constant global of rank > 1 with a float
``dense_resource`` or dense initializer gets the rank-1 type of its element count, and every
``memref.get_global`` of it is followed by a ``memref.expand_shape`` back to the original
type (a view: no copy at run time). Runs on buffers, before the LLVM lowering.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ...irutils.constants import read_resource
from ...passes.registry import Pass, register_pass

_FLOATS = ("f16", "bf16", "f32", "f64")


def _flat_initial_value(attr: ir.Attribute, mtype: ir.MemRefType) -> ir.Attribute | None:
    """The initializer re-typed as ``tensor<N x elem>``, or None when it is not handled."""
    n = int(np.prod(mtype.shape, dtype=np.int64))
    flat = ir.RankedTensorType.get([n], mtype.element_type)
    try:
        dense = ir.DenseElementsAttr(attr)
    except (ValueError, TypeError):
        dense = None
    if dense is not None:
        if dense.is_splat:
            return ir.DenseElementsAttr.get_splat(flat, dense.get_splat_value())
        if str(mtype.element_type) not in ("f32", "f64"):
            return None  # read through numpy: its f16/bf16 views are not worth the risk here
        return ir.DenseElementsAttr.get(np.ascontiguousarray(np.array(dense).reshape(-1)), type=flat)
    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return None
    arr = read_resource(attr, ir.RankedTensorType.get(list(mtype.shape), mtype.element_type))
    if arr is None:
        return None
    return ir.DenseResourceElementsAttr.get_from_buffer(np.ascontiguousarray(arr.reshape(-1)), "flat_weights", flat)


@register_pass
class GeFlattenConstantGlobalsPass(Pass):
    name = "ge-flatten-constant-globals"
    summary = "Constant memref.global weights of rank > 1 become rank 1 (fast LLVM translation and emission)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 100

    def run(self, module: ir.Operation) -> None:
        from mlir.dialects import memref

        flattened: dict[str, tuple[ir.MemRefType, ir.MemRefType]] = {}
        with module.context, ir.Location.unknown():
            for op in module.regions[0].blocks[0].operations:
                g = op.operation
                if g.name != "memref.global" or "constant" not in g.attributes or "initial_value" not in g.attributes:
                    continue
                mtype = ir.MemRefType(ir.TypeAttr(g.attributes["type"]).value)
                if mtype.rank < 2 or not mtype.has_static_shape or str(mtype.element_type) not in _FLOATS:
                    continue
                layout = mtype.layout
                if isinstance(layout, ir.AffineMapAttr) and (
                        ir.AffineMapAttr(layout).value != ir.AffineMap.get_identity(mtype.rank)):
                    continue
                value = _flat_initial_value(g.attributes["initial_value"], mtype)
                if value is None:
                    continue
                flat = ir.MemRefType.get([int(np.prod(mtype.shape, dtype=np.int64))], mtype.element_type)
                g.attributes["type"] = ir.TypeAttr.get(flat)
                g.attributes["initial_value"] = value
                flattened[ir.StringAttr(g.attributes["sym_name"]).value] = (mtype, flat)
            if not flattened:
                return
            uses: list[ir.Operation] = []

            def collect(o: ir.Operation) -> ir.WalkResult:
                if o.name == "memref.get_global" and ir.FlatSymbolRefAttr(o.attributes["name"]).value in flattened:
                    uses.append(o)
                return ir.WalkResult.ADVANCE

            module.walk(collect)
            for o in uses:
                name = ir.FlatSymbolRefAttr(o.attributes["name"]).value
                mtype, flat = flattened[name]
                with o.location, ir.InsertionPoint(o):
                    get = memref.get_global(flat, name)
                    view = memref.expand_shape(mtype, get, [list(range(mtype.rank))], [], list(mtype.shape))
                o.results[0].replace_all_uses_with(view)
                o.erase()
        self.bump("rewrites", len(flattened))
