"""ge-partition-data: data parallelism: the batch split over @ge_data.

Every input is split along its first dimension (the batch) over
``@ge_data``; weights stay whole on every device; the outputs are all-gathered
(``gather-outputs=true``) or stay split (``false``: the caller concatenates
them, as the pipeline does with microbatches). Upstream ``sharding-propagation``
carries the split through the graph and ``shard-partition`` rewrites each op
for one device's part of the batch. An op that mixes images of a batch (a
reshape merging the batch into another dimension, a reduction over the batch)
is refused, naming the op.
"""

from __future__ import annotations

from mlir import ir

from ..errors import PassFailure
from ..irutils.functions import io_names
from ..passes.registry import Option, Pass, register_pass
from . import sharding as sh


def split_batch(module: ir.Operation, fn: ir.Operation, grid: str, degree: int,
                gather_outputs: bool) -> None:
    """Annotates ``fn``'s inputs (and outputs unless ``gather_outputs``) split on dim 0 over
    ``grid``; constants replicated."""
    blk = sh.body(fn)
    split = [[0]]
    names = io_names(fn)[0]
    with ir.InsertionPoint.at_block_begin(blk), fn.location:
        for i, arg in enumerate(blk.arguments):
            t = ir.RankedTensorType(arg.type)
            if t.rank == 0:
                continue
            if t.shape[0] % degree:
                raise PassFailure(f"input {names[i]!r} has batch {t.shape[0]}, which {degree} devices cannot "
                                  f"split evenly", at=fn)
            s = sh.make_sharding(grid, split, fn.location)
            sh.annotate(arg, s, for_users=True, loc=fn.location)
    sh.annotate_arguments(fn, grid, [[]])  # rank-0 inputs: whole
    sh.replicate_constants(fn, grid)
    ret = list(blk.operations)[-1]
    with ir.InsertionPoint(ret), ret.location:
        for i, v in enumerate(list(ret.operands)):
            t = ir.RankedTensorType(v.type)
            if t.rank == 0:
                continue
            if not gather_outputs and t.shape[0] % degree:
                raise PassFailure(f"output #{i} has batch {t.shape[0]}, which {degree} devices cannot split "
                                  f"evenly", at=ret)
            s = sh.make_sharding(grid, [[]] if gather_outputs else split, ret.location)
            sh.annotate(v, s, for_users=True, loc=ret.location, uses=[(ret, i)])


@register_pass
class GePartitionDataPass(Pass):
    name = "ge-partition-data"
    summary = "Split the batch over @ge_data (inputs split, weights replicated, outputs gathered)"
    description = __doc__ or ""
    stage = "partition"
    targets = ()
    options = (
        Option("degree", int, 2, "devices on the data axis"),
        Option("gather-outputs", bool, True, "all-gather the outputs (false: each device keeps its part)"),
        Option("partition", bool, True, "run sharding-propagation and shard-partition after annotating"),
    )

    def run(self, module: ir.Operation) -> None:
        degree = self.opt("degree")
        if degree < 1:
            raise PassFailure(f"degree must be >= 1, got {degree}")
        with module.context, ir.Location.unknown():
            sh.ensure_grid(module, sh.DATA_GRID, degree)
            for fn in sh.functions(module):
                split_batch(module, fn, sh.DATA_GRID, degree, self.opt("gather-outputs"))
                self.bump("rewrites")
            if self.opt("partition"):
                sh.partition_module(module)
