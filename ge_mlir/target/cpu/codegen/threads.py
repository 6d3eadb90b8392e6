"""Spreading work over threads without changing a result bit: large top-level generics split
along their outermost parallel loop (:func:`parallelize_generics`), and the per-thread task shape
of a tiled matmul part (:func:`task_shape`)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from .common import PARALLEL_TAG, ops_named, static_type
from .strategy import PARALLEL_MIN_ITERATIONS

__all__ = ["parallelize_generics", "task_shape"]


def _loop_ranges(op: ir.Operation) -> list[int] | None:
    """Static range of each loop of a ``linalg.generic`` (from the operand shapes), or None."""
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    ranges: list[int | None] = [None] * maps[0].n_dims
    for v, m in zip(op.operands, maps):
        t = static_type(v.type)
        if t is None:
            return None
        for size, expr in zip(t.shape, m.results):
            if isinstance(expr, ir.AffineDimExpr):
                ranges[expr.position] = size
    return None if any(r is None for r in ranges) else ranges  # type: ignore[return-value]


def _generic_split(op: ir.Operation, threads: int) -> list[int] | None:
    """forall tile sizes splitting a generic's outermost parallel loop into ``threads`` blocks
    (never a reduction loop: each result is still computed by one thread, in the one-thread
    order), or None when the op is too small, dynamic or has no such loop."""
    if op.parent is None or op.parent.name != "func.func" or len(op.results) != 1:
        return None
    ranges = _loop_ranges(op)
    if ranges is None or int(np.prod(ranges)) < PARALLEL_MIN_ITERATIONS:
        return None
    kinds = [str(k) for k in ir.ArrayAttr(op.attributes["iterator_types"])]
    for d, (size, kind) in enumerate(zip(ranges, kinds)):
        if "parallel" in kind and size >= threads:
            tiles = [0] * len(ranges)
            tiles[d] = -(-size // threads)
            return tiles
    return None


def parallelize_generics(module: ir.Module | ir.Operation, threads: int) -> int:
    """Puts every large top-level ``linalg.generic`` (elementwise ops, epilogues, im2col
    gathers, depthwise and pooling tap sums, row reductions) in an ``scf.forall`` of ``threads``
    blocks of its outermost parallel loop; returns how many."""
    from mlir.dialects.transform import interpreter

    i64 = ir.IntegerType.get_signless(64)
    lines, count = [], 0
    any_op = "!transform.any_op"
    for op in ops_named(module, ("linalg.generic",)):
        tiles = _generic_split(op, threads)
        if tiles is None:
            continue
        op.attributes[PARALLEL_TAG] = ir.IntegerAttr.get(i64, count)
        lines.append(f"%g{count} = transform.structured.match attributes {{{PARALLEL_TAG} = {count} : i64}} in %root "
                     f": ({any_op}) -> {any_op}")
        lines.append(f"%gt{count}, %gf{count} = transform.structured.tile_using_forall %g{count} "
                     f"tile_sizes [{', '.join(map(str, tiles))}] : ({any_op}) -> ({any_op}, {any_op})")
        count += 1
    if not count:
        return 0
    body = "\n    ".join(lines)
    script = ir.Module.parse(f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {any_op} {{transform.readonly}}) {{
    {body}
    transform.yield
  }}
}}""")
    interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)
    for op in ops_named(module, ("linalg.generic",)):
        if PARALLEL_TAG in op.attributes:
            del op.attributes[PARALLEL_TAG]
    return count


def _group(count: int, pieces: int) -> int:
    """The largest divisor of ``count`` that still cuts it into at least ``pieces`` (1 when none
    does): equal static task shapes, as few as give every thread one."""
    return max((g for g in range(1, count + 1) if count % g == 0 and count // g >= pieces), default=1)


def task_shape(batch: int, row_tiles: int, panels: int, threads: int) -> tuple[int, int, int]:
    """(batches, row tiles, column panels) per parallel task: one task per thread, cut from the
    batch first, then the column panels, then the row tiles (late CNN stages: 512 rows, 49
    columns). Few large tasks: one static share per thread, no load balancing needed."""
    need = threads
    gb = _group(batch, need)
    need = -(-need // (batch // gb))
    gp = _group(panels, need)
    need = -(-need // (panels // gp))
    gr = _group(row_tiles, need)
    return gb, gr, gp
