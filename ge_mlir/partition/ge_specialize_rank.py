"""ge-specialize-rank: one rank's part of a partitioned graph: its stage, its weight slices.

After ``ge-partition-*`` the module holds every stage (``ge.stage``) and the
weights whole, sliced on the fly by ``shard.all_slice``: the form that shows
the partition. A rank only needs its own stage function, and its own slice of
each weight: this pass erases the other stages and replaces each
``shard.all_slice`` of a constant by the constant slice this rank's position
on the grid selects (``tensor-index`` on ``@ge_tensor``, ``data-index`` on
``@ge_data``), so the rank's program holds ``1/T`` of the split weights.
Collectives on computed tensors stay: the runtime executes them.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..errors import PassFailure
from ..irutils.constants import constant_array, make_constant
from ..passes.registry import Option, Pass, register_pass
from . import sharding as sh


def _grid_of(op: ir.Operation) -> str:
    return ir.FlatSymbolRefAttr(op.attributes["grid"]).value


@register_pass
class GeSpecializeRankPass(Pass):
    name = "ge-specialize-rank"
    summary = "Keep one rank's stage function and fold shard.all_slice of constants into its weight slices"
    description = __doc__ or ""
    stage = "partition"
    targets = ()
    options = (
        Option("stage", int, -1, "the pipeline stage to keep (-1: the module is not cut into stages)"),
        Option("tensor-index", int, 0, "this rank's index on @ge_tensor"),
        Option("data-index", int, 0, "this rank's index on @ge_data"),
    )

    def run(self, module: ir.Operation) -> None:
        stage = self.opt("stage")
        index = {sh.TENSOR_GRID: self.opt("tensor-index"), sh.DATA_GRID: self.opt("data-index")}
        with module.context, ir.Location.unknown():
            fns = sh.functions(module)
            staged = [f for f in fns if "ge.stage" in f.attributes]
            if stage >= 0:
                keep = [f for f in staged if ir.IntegerAttr(f.attributes["ge.stage"]).value == stage]
                if not keep:
                    raise PassFailure(f"no function of stage {stage} (stages: "
                                      f"{sorted(ir.IntegerAttr(f.attributes['ge.stage']).value for f in staged)})")
                for f in staged:
                    if f not in keep:
                        f.erase()
            elif staged:
                raise PassFailure("the module is cut into pipeline stages: give the stage to keep")
            for grid, i in index.items():
                shape = sh.find_grid(module, grid)
                if shape is not None and not 0 <= i < shape[0]:
                    raise PassFailure(f"index {i} is outside grid @{grid} of {shape[0]} devices")
            for fn in sh.functions(module):
                for op in list(sh.body(fn).operations):
                    op = op.operation
                    if op.name != "shard.all_slice":
                        continue
                    src = op.operands[0]
                    full = constant_array(src)
                    if full is None:
                        continue
                    grid = _grid_of(op)
                    if grid not in index:  # a grid of the user's: which slice this rank holds is unknown
                        raise PassFailure(f"shard.all_slice on grid @{grid}: only @{sh.TENSOR_GRID} and "
                                          f"@{sh.DATA_GRID} have a rank index here", at=op)
                    n = sh.find_grid(module, grid)[0]
                    axis = ir.IntegerAttr(op.attributes["slice_axis"]).value
                    part = np.split(full, n, axis=axis)[index[grid]]
                    elem = ir.RankedTensorType(src.type).element_type
                    with ir.InsertionPoint(op), op.location:
                        new = make_constant(np.ascontiguousarray(part), elem, f"rank_slice_{grid}", op.location)
                    op.result.replace_all_uses_with(new)
                    owner = src.owner
                    op.erase()
                    if not list(src.uses):
                        owner.operation.erase()
                    self.bump("rewrites")
