"""Shard annotations on ge graphs and the upstream propagation/partition run on them.

The partition passes write ``shard.shard`` annotations (on weights, inputs and
outputs) and then run upstream ``sharding-propagation`` and ``shard-partition``
over the ge ops, which implement ``shard::ShardingInterface`` in C++
(lib/Ge/GeSharding.cpp). Upstream asserts (aborting the process) where an op
without the interface receives a split value, so :func:`partition_module`
checks that first and fails the pass with the op's name instead.

Grids are one-dimensional (upstream reshards on 1-D grids only):
``@ge_tensor(shape = T)`` splits weights (tensor parallel), ``@ge_data(shape = D)``
the batch (data parallel), ``@ge_pipeline(shape = P)`` orders pipeline stages.
A hybrid runs the tensor-parallel program on each data-parallel group: the
batch split is then a shape change whose scatter and gather the runtime does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from mlir import ir
from mlir.passmanager import PassManager

from ..errors import Diagnostic, PassFailure

TENSOR_GRID = "ge_tensor"
DATA_GRID = "ge_data"
PIPELINE_GRID = "ge_pipeline"

#: ge ops with a ShardingInterface model (lib/Ge/GeSharding.cpp: keep in step).
SHARDABLE: frozenset[str] = frozenset(f"ge.{n}" for n in (
    "abs neg exp log sqrt rsqrt reciprocal tanh sigmoid relu leaky_relu gelu erf sin cos acos asin atan floor "
    "ceil round sign not bitwise_not softplus hard_sigmoid hard_swish silu identity clip cumsum cumprod softmax "
    "log_softmax cast add sub mul div pow max min mod and or xor bitwise_and bitwise_or bitwise_xor bit_shift "
    "equal less less_equal greater greater_equal where layer_norm rms_norm "
    "concat split slice pad transpose reshape squeeze unsqueeze flatten matmul gemm gather "
    "conv2d conv_transpose2d max_pool2d avg_pool2d global_avg_pool global_max_pool resize batch_norm "
    "instance_norm reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_l2 argmax argmin").split())


def functions(module: ir.Operation) -> list[ir.Operation]:
    """The module's defined functions (declarations skipped)."""
    out = []
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "func.func" and len(op.regions[0].blocks) > 0:
            out.append(op.operation)
    return out


def body(fn: ir.Operation) -> ir.Block:
    return fn.regions[0].blocks[0]


def find_grid(module: ir.Operation, name: str) -> list[int] | None:
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "shard.grid" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return list(ir.DenseI64ArrayAttr(op.attributes["shape"]))
    return None


def ensure_grid(module: ir.Operation, name: str, devices: int) -> None:
    """Creates the 1-D grid ``name`` of ``devices`` devices, or checks the existing one."""
    have = find_grid(module, name)
    if have is None:
        with ir.InsertionPoint.at_block_begin(module.regions[0].blocks[0]), ir.Location.unknown():
            ir.Operation.create("shard.grid", attributes={
                "sym_name": ir.StringAttr.get(name), "shape": ir.DenseI64ArrayAttr.get([devices])})
    elif have != [devices]:
        raise PassFailure(f"grid @{name} has shape {have}, the strategy asks for [{devices}]")


def remove_grid(module: ir.Operation, name: str) -> None:
    for op in list(module.regions[0].blocks[0].operations):
        if op.operation.name == "shard.grid" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            op.operation.erase()


def _split_axes_attr(split: Sequence[Sequence[int]]) -> ir.Attribute:
    inner = ", ".join("[" + ", ".join(str(a) for a in axes) + "]" for axes in split)
    return ir.Attribute.parse(f"#shard<axisarray[{inner}]>")


def make_sharding(grid: str, split: Sequence[Sequence[int]], loc: ir.Location) -> ir.Value:
    """A ``shard.sharding`` value at the current insertion point (trailing empty lists dropped)."""
    split = [list(a) for a in split]
    while split and not split[-1]:
        split.pop()
    return ir.Operation.create(
        "shard.sharding", results=[ir.Type.parse("!shard.sharding")],
        attributes={"grid": ir.FlatSymbolRefAttr.get(grid), "split_axes": _split_axes_attr(split or [[]]),
                    "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0]),
                    "static_halo_sizes": ir.DenseI64ArrayAttr.get([]),
                    "static_sharded_dims_offsets": ir.DenseI64ArrayAttr.get([])},
        loc=loc).result


def annotate(value: ir.Value, sharding: ir.Value, *, for_users: bool, loc: ir.Location,
             uses: Iterable[tuple[ir.Operation, int]] | None = None) -> ir.Value:
    """``shard.shard value to sharding`` at the current insertion point; the given uses
    (default: all uses existing before the call) now read the annotated value."""
    if uses is None:
        uses = [(u.owner, u.operand_number) for u in value.uses]
    uses = list(uses)
    attrs = {"annotate_for_users": ir.UnitAttr.get()} if for_users else {}
    out = ir.Operation.create("shard.shard", results=[value.type], operands=[value, sharding],
                              attributes=attrs, loc=loc).result
    for owner, idx in uses:
        owner = owner.operation if hasattr(owner, "operation") else owner
        owner.operands[idx] = out
    return out


def split_of(sharding_op: ir.Operation) -> list[list[int]]:
    """The split axes of a ``shard.sharding`` op, as lists of grid axes."""
    text = str(sharding_op.attributes["split_axes"])
    inner = text[text.index("[") + 1:text.rindex("]")]
    return [[int(x) for x in re.findall(r"-?\d+", g)] for g in re.findall(r"\[([^\[\]]*)\]", inner)]


def is_split(sharding: ir.Value) -> bool:
    op = sharding.owner
    return op.name == "shard.sharding" and any(split_of(op))


def replicate_constants(fn: ir.Operation, grid: str) -> int:
    """Gives each ge.constant a replicated definition annotation: shard-partition needs the
    sharding of every producer, and constants have no ShardingInterface (they are sliced
    per rank later, by ``ge-specialize-rank``)."""
    n = 0
    for c in [op for op in body(fn).operations if op.operation.name == "ge.constant"]:
        if ir.RankedTensorType(c.result.type).rank == 0 or not list(c.result.uses):
            continue
        with ir.InsertionPoint(_next_op(c.operation)):
            annotate(c.result, make_sharding(grid, [[]], c.location), for_users=False, loc=c.location)
        n += 1
    return n


def annotate_arguments(fn: ir.Operation, grid: str, split: Sequence[Sequence[int]]) -> None:
    """One ``shard.shard ... annotate_for_users`` per ranked argument not annotated yet, all
    its uses reading it: shard-partition needs exactly one use per argument (it asserts)."""
    blk = body(fn)
    with ir.InsertionPoint.at_block_begin(blk), fn.location:
        for arg in blk.arguments:
            t = ir.RankedTensorType(arg.type)
            uses = list(arg.uses)
            if t.rank == 0 or (len(uses) == 1 and uses[0].owner.name == "shard.shard"):
                continue
            annotate(arg, make_sharding(grid, split, fn.location), for_users=True, loc=fn.location)


def _next_op(op: ir.Operation) -> ir.Operation:
    ops = list(op.block.operations)
    for i, o in enumerate(ops):
        if o.operation == op:
            return ops[i + 1].operation
    raise ValueError("op not found in its block")


def check_unsupported(module: ir.Operation) -> None:
    """Refuses a split value reaching an op the partitioner cannot split (upstream would
    assert): names the op, its node and what it received."""
    for fn in functions(module):
        for i, arg in enumerate(body(fn).arguments):
            if ir.RankedTensorType(arg.type).rank > 0 and len(list(arg.uses)) != 1:
                raise PassFailure(f"input #{i} has {len(list(arg.uses))} uses after sharding propagation; "
                                  f"shard-partition needs one annotation per input", at=fn)
        for op in body(fn).operations:
            name = op.operation.name
            if name in SHARDABLE or name.startswith("shard.") or name == "func.return":
                continue
            for i, v in enumerate(op.operands):
                d = v.owner
                if getattr(d, "name", "") == "shard.shard" and is_split(d.operands[1]):
                    raise PassFailure(
                        f"{name} has no sharding rule, but its operand #{i} is split "
                        f"({d.operands[1].owner.attributes['split_axes']}): keep its inputs replicated "
                        f"(a 'replicated' rule) or split elsewhere", at=op)
            for r in op.results:
                for u in r.uses:
                    if u.owner.name == "shard.shard" and is_split(u.owner.operands[1]):
                        raise PassFailure(f"{name} has no sharding rule, but its result is split "
                                          f"({u.owner.operands[1].owner.attributes['split_axes']})", at=op)


def check_even_splits(module: ir.Operation) -> None:
    """Refuses an annotation splitting a dimension the grid does not divide (upstream asserts
    on uneven splits while it computes the partitioned types)."""
    grids: dict[str, list[int]] = {}
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "shard.grid":
            grids[ir.StringAttr(op.attributes["sym_name"]).value] = list(ir.DenseI64ArrayAttr(op.attributes["shape"]))

    bad: list[PassFailure] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        if o.name == "shard.shard" and not bad:
            s_op = o.operands[1].owner
            if getattr(s_op, "name", "") == "shard.sharding":
                grid = grids.get(ir.FlatSymbolRefAttr(s_op.attributes["grid"]).value)
                t = ir.RankedTensorType(o.operands[0].type)
                for d, axes in enumerate(split_of(s_op.operation)):
                    if not axes or grid is None or d >= t.rank:
                        continue
                    n = 1
                    for a in axes:
                        n *= grid[a] if a < len(grid) else 1
                    if t.shape[d] % n:
                        bad.append(PassFailure(f"dimension {d} of size {t.shape[d]} is split over {n} devices, "
                                               f"which do not divide it evenly", at=o))
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    if bad:  # raised here: an exception inside walk() comes out as a RuntimeError
        raise bad[0]


def run_upstream(module: ir.Operation, pipeline: str, what: str) -> None:
    """Runs an upstream pipeline; its diagnostics become a PassFailure."""
    try:
        PassManager.parse(pipeline, context=module.context).run(module)
    except ir.MLIRError as e:
        text = "\n".join(Diagnostic.from_mlir(d).format("  ") for d in e.error_diagnostics)
        raise PassFailure(f"{what} failed:\n{text}") from None


def partition_module(module: ir.Operation) -> None:
    """sharding-propagation, the unsupported-op check, then shard-partition and cleanup."""
    check_even_splits(module)
    # Forward only: shardings flow from the annotated inputs and weights; the outputs' whole-
    # tensor annotations then gather at the end instead of pulling whole tensors upstream.
    run_upstream(module, "builtin.module(func.func(sharding-propagation{traversal=forward}))",
                 "sharding-propagation")
    check_unsupported(module)
    check_even_splits(module)
    run_upstream(module, "builtin.module(func.func(shard-partition),canonicalize)", "shard-partition")
