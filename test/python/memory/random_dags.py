"""Random ge DAGs for the memory-ordering and rematerialization tests (one generator for both)."""

from __future__ import annotations

import random

from mlir import ir

SMALL, BIG = 8, 64
_VIEWS = {"ge.reshape"}


def random_dag(seed: int, n_ops: int = 24) -> str:
    """A function of 1-D f32 tensors of two sizes: unary and binary elementwise ops,
    tiles (small to big) and reshape + reduce_sum + reshape (big to small), on operands
    drawn from every earlier value, so lives are long and branches many."""
    rng = random.Random(seed)
    values = [("%x", SMALL), ("%y", BIG)]
    lines = []

    def t(n: int) -> str:
        return f"tensor<{n}xf32>"

    for k in range(n_ops):
        name, size = rng.choice(values)
        kind = rng.random()
        out = f"%v{k}"
        if kind < 0.3:
            op = rng.choice(["ge.neg", "ge.relu", "ge.abs", "ge.tanh"])
            lines.append(f"{out} = {op} {name} : {t(size)}")
        elif kind < 0.65:
            other = rng.choice([v for v, s in values if s == size])
            op = rng.choice(["ge.add", "ge.mul", "ge.sub", "ge.max"])
            lines.append(f"{out} = {op} {name}, {other} : ({t(size)}, {t(size)}) -> {t(size)}")
        elif size == SMALL:
            lines.append(f"{out} = ge.tile {name} {{repeats = array<i64: {BIG // SMALL}>}} : ({t(SMALL)}) -> {t(BIG)}")
            size = BIG
        else:
            lines.append(f"{out}a = ge.reshape {name} : {t(BIG)} to tensor<{SMALL}x{BIG // SMALL}xf32>")
            lines.append(f"{out}b = ge.reduce_sum {out}a {{axes = array<i64: 1>}} : "
                         f"(tensor<{SMALL}x{BIG // SMALL}xf32>) -> tensor<{SMALL}x1xf32>")
            lines.append(f"{out} = ge.reshape {out}b : tensor<{SMALL}x1xf32> to {t(SMALL)}")
            size = SMALL
        values.append((out, size))
    # The last value and a few random ones are returned (so some tensors live to the end).
    rets = [values[-1]] + rng.sample(values[2:-1], 2)
    body = "\n  ".join(lines)
    ret_names = ", ".join(v for v, _ in rets)
    ret_types = ", ".join(t(s) for _, s in rets)
    return (f"func.func @main(%x: {t(SMALL)}, %y: {t(BIG)}) -> ({ret_types}) {{\n  {body}\n"
            f"  return {ret_names} : {ret_types}\n}}\n")


def peak_bytes(fn: ir.Operation) -> int:
    """Independent of the pass: the most bytes of op results live at once in block order
    (definition to last use inclusive; arguments and returned tensors are the caller's;
    a reshape is a view that keeps its source live)."""
    ops = [op.operation for op in fn.regions[0].blocks[0].operations]
    pos = {op: i for i, op in enumerate(ops)}
    root, end, size = {}, {}, {}
    for i, op in enumerate(ops[:-1]):
        for r in op.results:
            src = op.operands[0] if op.name in _VIEWS else None
            if src is not None and not isinstance(src.owner, ir.Block):
                root[r] = root[src]
            elif src is not None:
                root[r] = None
            else:
                root[r] = r
                n = 4
                for d in ir.RankedTensorType(r.type).shape:
                    n *= d
                size[r], end[r] = n, i
    for op in ops:
        for v in op.operands:
            if not isinstance(v.owner, ir.Block) and root.get(v) is not None:
                if op == ops[-1]:
                    size[root[v]] = 0
                else:
                    end[root[v]] = max(end[root[v]], pos[op])
    live = [0] * len(ops)
    for r, s in size.items():
        start = pos[r.owner.operation if isinstance(r.owner, ir.OpView) else r.owner]
        for i in range(start, end[r] + 1):
            live[i] += s
    return max(live)
