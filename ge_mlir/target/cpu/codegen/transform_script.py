"""The transform-dialect script that register-tiles and vectorizes the matmuls: per contraction a
tile plan (:func:`contraction_tiling`: rows and columns split into tile multiples and powers of
two), and the script (:func:`tiling_script`) that splits, spreads over threads, blocks K and tiles
each part, vectorizes the tiles to outer products and hoists their accumulators; the own tile
loop nests of the convolution and packed-panel recipes are vectorized by the same script."""

from __future__ import annotations

from mlir import ir

from .common import TAP_TAG, TILE_TAG, tile_splits
from .strategy import PARALLEL_MIN_MACS
from .threads import task_shape

__all__ = ["TilePlan", "contraction_tiling", "tiling_script"]


TilePlan = list[tuple[int | None, list[tuple[int | None, list[int]]]]]


def contraction_tiling(op: ir.Operation, tile_m: int, tile_n: int, gemv_n: int = 0) -> TilePlan:
    """[(row split, [(column split, tile sizes)])] for one contraction of the path
    :data:`~.strategy.MatmulPath.TILED` (static, f32/f64, not empty).

    ``tile_n`` counts f32 columns; f64 tiles take the same registers, so half the columns.
    One-row tiles (a batch-1 linear layer, a decode step: matrix-vector products) are
    ``gemv_n`` columns wide (default ``4 * tile_n``): with one row, two vectors of columns are
    only two FMA chains per K step, bound by the FMA latency; more chains keep the FMA units
    busy and stream B at memory speed."""
    ts = [ir.RankedTensorType(v.type) for v in op.operands]
    gemv_n = gemv_n or 4 * tile_n
    if str(ts[2].element_type) == "f64":
        tile_n, gemv_n = max(1, tile_n // 2), max(1, gemv_n // 2)
    out = ts[2]
    if op.name == "linalg.matmul":
        m, n = out.shape
        lead: list[int] = []
    else:
        _, m, n = out.shape
        lead = [1]
    # Rows and columns in chunks of the tile then powers of two (6 then 4, 2,
    # 1 rows; 32 then 16, 8, ... columns): odd vector widths (a 17-wide remainder)
    # are scalarized and were measured 15x slower than 16 + 1 columns, and a
    # prime row count (197 tokens) would otherwise get 1-row tiles.
    return [(ms, [(ns, [*lead, tm, tn, 1]) for ns, tn in tile_splits(n, tile_n if tm > 1 else gemv_n)])
            for ms, tm in tile_splits(m, tile_m)]


def _emit_splits(lines: list[str], handle: str, splits: list[int | None], dim: int, name: str,
                 any_op: str) -> list[str]:
    """Emits transform.structured.split ops cutting ``handle`` at ``splits``; returns the part handles."""
    parts, rest = [], handle
    for c, split in enumerate(splits):
        if split is None:
            parts.append(rest)
            break
        lines.append(f"%s{name}_{c} = transform.structured.split {rest} after {split} {{dimension = {dim}}} : {any_op}")
        lines.append(f"%p{name}_{c}:2 = transform.split_handle %s{name}_{c} : ({any_op}) -> ({any_op}, {any_op})")
        parts.append(f"%p{name}_{c}#0")
        rest = f"%p{name}_{c}#1"
    return parts


def _split_extents(splits: list[int | None], size: int) -> list[int]:
    """Sizes of the parts that ``_emit_splits`` cuts ``size`` into at ``splits``."""
    out = []
    for split in splits:
        out.append(size if split is None else split)
        size -= 0 if split is None else split
    return out


def tiling_script(plans: list[tuple[int, TilePlan]], nd_of: dict[int, int],
            kblocks: dict[int, int], kdims: dict[int, int], dims: dict[int, tuple[int, int, int, int]] | None = None,
            threads: int = 1, taps: list[tuple[int, int]] = ()) -> str:
    lines = []
    hoists = []
    any_op = "!transform.any_op"
    for tag, k in taps:
        # An own tile loop nest: its tile fills and stores vectorized, its tile matmuls (one per
        # filter tap for convolutions) tiled K innermost with the accumulator hoisted out of each
        # K loop (and forwarded from tap to tap).
        lines.append(f'%tapz{tag} = transform.structured.match ops{{["linalg.fill"]}} attributes '
                     f"{{{TAP_TAG} = {tag} : i64}} in %root : ({any_op}) -> {any_op}")
        lines.append(f"transform.structured.vectorize %tapz{tag} : {any_op}")
        lines.append(f'%tapg{tag} = transform.structured.match ops{{["linalg.generic"]}} attributes '
                     f"{{{TAP_TAG} = {tag} : i64}} in %root : ({any_op}) -> {any_op}")
        lines.append(f"transform.structured.vectorize %tapg{tag} : {any_op}")
        lines.append(f'%tap{tag} = transform.structured.match ops{{["linalg.matmul"]}} attributes '
                     f"{{{TAP_TAG} = {tag} : i64}} in %root : ({any_op}) -> {any_op}")
        lines.append(f"%tapt{tag}, %tapl{tag} = transform.structured.tile_using_for %tap{tag} tile_sizes [0, 0, 1] "
                     f": ({any_op}) -> ({any_op}, {any_op})")
        lines.append(f"transform.structured.vectorize %tapt{tag} {{create_named_contraction}} : {any_op}")
        if k > 1:
            hoists.append(f"transform.loop.hoist_loop_invariant_subsets %tapl{tag} : {any_op}")
    for tag, plan in plans:
        h = f"%op{tag}"
        nd = nd_of[tag]
        lines.append(f'{h} = transform.structured.match attributes {{{TILE_TAG} = {tag} : i64}} in %root '
                     f": ({any_op}) -> {any_op}")
        # Split rows, then each row part's columns, into the plan's chunks
        # (each split is relative to the part that is left).
        parts: list[str] = []
        tiling: list[list[int]] = []
        sizes: list[tuple[int, int]] = []
        batch, m, n, k = dims[tag] if dims else (1, 0, 0, 0)
        row_parts = _emit_splits(lines, h, [ms for ms, _ in plan], nd - 3, f"{tag}r", any_op)
        for r, (row_part, (_, cols), pm) in enumerate(zip(row_parts, plan, _split_extents([ms for ms, _ in plan], m))):
            parts += _emit_splits(lines, row_part, [ns for ns, _ in cols], nd - 2, f"{tag}c{r}", any_op)
            tiling += [t for _, t in cols]
            sizes += [(pm, pn) for pn in _split_extents([ns for ns, _ in cols], n)]
        for i, (part, tiles, (pm, pn)) in enumerate(zip(parts, tiling, sizes)):
            kblock = kblocks[tag]
            tm, tn = tiles[nd - 3], tiles[nd - 2]
            gb, gr, gp = task_shape(batch, pm // tm, pn // tn, threads)
            tasks = (batch // gb) * (pm // tm // gr) * (pn // tn // gp)
            if threads > 1 and tasks > 1 and batch * pm * pn * k >= PARALLEL_MIN_MACS:
                # Threads: the part's batches, column panels and row tiles in one block per thread
                # (scf.forall iterations); the register tiling below runs inside each. Never K:
                # every task owns whole output elements, summed in the single-thread order
                # (bitwise identical results).
                par = [0] * nd
                par[nd - 2] = gp * tn if gp * tn < pn else 0
                par[nd - 3] = gr * tm if gr * tm < pm else 0
                if nd == 4:
                    par[0] = gb
                lines.append(f"%pt{tag}_{i}, %pf{tag}_{i} = transform.structured.tile_using_forall {part} "
                             f"tile_sizes [{', '.join(map(str, par))}] : ({any_op}) -> ({any_op}, {any_op})")
                part = f"%pt{tag}_{i}"
            inner = part
            if kblock:
                # Cache level: [KB, TN] panels of B (32 KiB at KB=256) stay in
                # L1 while every row tile of A passes over them.
                outer = [0] * nd
                outer[nd - 2], outer[nd - 1] = tiles[nd - 2], kblock
                lines.append(f"%o{tag}_{i}, %on{tag}_{i}, %ok{tag}_{i} = transform.structured.tile_using_for {part} "
                             f"tile_sizes [{', '.join(map(str, outer))}] "
                             f": ({any_op}) -> ({any_op}, {any_op}, {any_op})")
                inner = f"%o{tag}_{i}"
                tiles = [*tiles[: nd - 2], 0, 1]
            # Register level: a [TM, TN] accumulator tile, K innermost;
            # without K blocking column tiles go outermost (panel reuse).
            nonzero = sum(1 for t in tiles if t)
            loops = [f"%l{tag}_{i}_{j}" for j in range(nonzero)]
            res = ", ".join([any_op] * (nonzero + 1))
            order = ""
            if not kblock:
                order = " interchange = [1, 0, 2]" if nd == 3 else " interchange = [0, 2, 1, 3]"
            lines.append(f"%t{tag}_{i}, {', '.join(loops)} = transform.structured.tile_using_for {inner} "
                         f"tile_sizes [{', '.join(map(str, tiles))}]{order} "
                         f": ({any_op}) -> ({res})")
            lines.append(f"transform.structured.vectorize %t{tag}_{i} {{create_named_contraction}} : {any_op}")
            # After canonicalization (below): the accumulator's transfer pair
            # then reads/writes the K loop's iter_arg and moves out of the loop.
            # K == 1: the K loop has one iteration and canonicalization
            # removes it (its handle would dangle); there is nothing to hoist.
            if kdims[tag] > 1:
                hoists.append(f"transform.loop.hoist_loop_invariant_subsets {loops[-1]} : {any_op}")
    body = "\n    ".join(lines)
    after = "\n    ".join(hoists)
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {any_op} {{transform.readonly}}) {{
    {body}
    %f = transform.structured.match ops{{["func.func"]}} in %root : ({any_op}) -> {any_op}
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.canonicalization
    }} : {any_op}
    {after}
    transform.apply_patterns to %f {{
      transform.apply_patterns.canonicalization
    }} : {any_op}
    transform.yield
  }}
}}"""
