"""ge-schedule-memory: a topological order of each ge function with a lower peak of live tensor bytes.

The memory plan (``ge-plan-memory``) reaches the interval lower bound of the op order it
is given, so the order decides the arena: a branch that materialises a big intermediate
early keeps it live while the other branch runs. On ge tensors (pure SSA, before
lowering) any topological order computes the same values, so this pass picks one.

Cost model (per function entry block, mirroring what the CPU plan will allocate):

* a value costs its static tensor bytes from the op defining it to its last use, both
  inclusive (the plan's live ranges);
* function arguments and constants cost nothing (the caller's buffers and globals), nor
  do values the terminator returns (they become the caller's out-parameters);
* reshape-like results (reshape, flatten, squeeze, unsqueeze, identity) are views: they
  cost nothing themselves and keep the tensor they view live while they are used.

The peak is the largest sum over program points. Orders tried (``strategy``):

* ``greedy``: list scheduling; among the ready ops the one leaving the fewest live bytes
  after it (frees the most, allocates the least), then the one allocating the least, then
  the earliest in the original order;
* ``dfs``: a post-order from the returned values, visiting the operand subtrees that need
  the most memory for the least result first (Sethi-Ullman order, exact on trees);
* ``best`` (default): both, keeping the lower peak.

The new order is applied only when its peak is strictly lower than the original one, so
the pass never increases the peak and leaves a module that cannot gain unchanged.
Zero-operand constants are hoisted first (in their order) when the order changes. Ops
outside the ge dialect that are not constants, and ops with regions, keep their order
relative to each other (ge ops are all Pure, so only data dependences constrain them);
the terminator stays last.

Statistics: ``peak-bytes-before``/``peak-bytes-after`` (the largest peak over the
module's functions), ``rewrites`` (ops moved: the op count minus the longest run of ops
keeping their relative order), ``functions-reordered``, ``functions-skipped`` (over
``max-ops``). Opt-in: not part of any default pipeline yet.
"""

from __future__ import annotations

import bisect

from mlir import ir

from ..errors import PassFailure
from ..passes.registry import Option, Pass, register_pass
from .liveness import BlockTensors, producer

STRATEGIES = ("best", "greedy", "dfs")


@register_pass
class GeScheduleMemoryPass(Pass):
    name = "ge-schedule-memory"
    summary = "Reorder the ops of each ge function to lower the peak of live tensor bytes"
    description = __doc__ or ""
    # Target stage, not an optimization stage: kept out of the default pipelines until measured in.
    stage = "lowering"
    targets = ("cpu",)
    options = (
        Option("strategy", str, "best", "best (the lower peak of greedy and dfs), greedy or dfs"),
        Option("max-ops", int, 20000, "functions with more top-level ops are left as they are"),
    )

    def run(self, module: ir.Operation) -> None:
        strategy, max_ops = self.opt("strategy"), self.opt("max-ops")
        if strategy not in STRATEGIES:
            raise PassFailure(f"unknown strategy {strategy!r} ({', '.join(STRATEGIES)})")
        before = after = moved = reordered = skipped = 0
        for op in module.regions[0].blocks[0].operations:
            fn = op.operation
            if fn.name != "func.func" or not fn.regions[0].blocks:
                continue
            result = schedule_function(fn, strategy, max_ops)
            if result is None:
                skipped += 1
                continue
            b, a, n = result
            before, after = max(before, b), max(after, a)
            moved += n
            reordered += bool(n)
        self.stats.update({"peak-bytes-before": before, "peak-bytes-after": after, "rewrites": moved,
                           "functions-reordered": reordered, "functions-skipped": skipped})


class _Graph:
    """The entry block as indices (:class:`~ge_mlir.memory.liveness.BlockTensors`), plus what
    scheduling needs: dependences (side-effecting ops chained), bytes each op defines and touches."""

    def __init__(self, block: ir.Block) -> None:
        t = BlockTensors(block)
        self.term, self.ops, self.n = t.term, t.ops, t.n
        n = self.n
        self.deps = t.deps
        self.constant = t.constant
        self.users = t.users
        # Returned tensors become the caller's out-parameters: they cost nothing here.
        self.size = {r: 0 if r in t.returned else b for r, b in t.nbytes.items()}
        last_barrier = None
        for i, op in enumerate(self.ops):
            if not (op.name.startswith("ge.") and not len(op.regions)) and not self.constant[i]:
                # Not known pure: keep it after the previous such op.
                if last_barrier is not None:
                    self.deps[i].add(last_barrier)
                last_barrier = i
        self.last_barrier = last_barrier
        self.defines: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.touches: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for r, us in self.users.items():
            if self.size[r]:
                self.defines[r[0]].append(r)
                for u in us:
                    self.touches[u].append(r)
        self.alloc = [sum(self.size[r] for r in d) for d in self.defines]
        self.dependents: list[list[int]] = [[] for _ in range(n)]
        for i, d in enumerate(self.deps):
            for j in d:
                self.dependents[j].append(i)

    def peak(self, order: list[int]) -> int:
        remaining = {r: len(us) for r, us in self.users.items() if self.size[r]}
        live = peak = 0
        for i in order:
            live += self.alloc[i]
            peak = max(peak, live)
            for r in self.touches[i]:
                remaining[r] -= 1
                if not remaining[r]:
                    live -= self.size[r]
            for r in self.defines[i]:
                if not self.users[r]:
                    live -= self.size[r]
        return peak

    def greedy(self) -> list[int]:
        remaining = {r: len(us) for r, us in self.users.items() if self.size[r]}
        indeg = [len(d) for d in self.deps]
        ready = {i for i in range(self.n) if not indeg[i] and not self.constant[i]}
        order = [i for i in range(self.n) if self.constant[i]]
        for i in order:
            for j in self.dependents[i]:
                indeg[j] -= 1
                if not indeg[j]:
                    ready.add(j)

        def key(i: int) -> tuple[int, int, int]:
            freed = sum(self.size[r] for r in self.touches[i] if remaining[r] == 1)
            freed += sum(self.size[r] for r in self.defines[i] if not self.users[r])
            return (self.alloc[i] - freed, self.alloc[i], i)

        while ready:
            i = min(ready, key=key)
            ready.remove(i)
            order.append(i)
            for r in self.touches[i]:
                remaining[r] -= 1
            for j in self.dependents[i]:
                indeg[j] -= 1
                if not indeg[j]:
                    ready.add(j)
        return order

    def dfs(self) -> list[int]:
        # Sethi-Ullman weights in the original (topological) order: need[i] is the peak of
        # computing i's operand subtrees in the best order and then i, shared subtrees counted once per user.
        need = [0] * self.n
        out = self.alloc
        for i in range(self.n):
            kids = sorted(self.deps[i], key=lambda j: (out[j] - need[j], j))
            held = best = 0
            for j in kids:
                best = max(best, held + need[j])
                held += out[j]
            need[i] = max(best, held + out[i])
        order: list[int] = [i for i in range(self.n) if self.constant[i]]
        seen = [False] * self.n
        for i in order:
            seen[i] = True

        def visit(start: int) -> None:
            if seen[start]:
                return
            seen[start] = True
            stack = [(start, iter(sorted(self.deps[start], key=lambda j: (out[j] - need[j], j))))]
            while stack:
                node, it = stack[-1]
                for j in it:
                    if not seen[j]:
                        seen[j] = True
                        stack.append((j, iter(sorted(self.deps[j], key=lambda k: (out[k] - need[k], k)))))
                        break
                else:
                    stack.pop()
                    order.append(node)

        index = {op: i for i, op in enumerate(self.ops)}
        roots = [s[0] for v in self.term.operands if (s := producer(v, index)) is not None]
        # The last side-effecting op carries the chain of all of them.
        if self.last_barrier is not None:
            roots.append(self.last_barrier)
        for i in sorted(set(roots), key=lambda j: (out[j] - need[j], j)):
            visit(i)
        for i in range(self.n):  # results nothing returns: after the rest, in their order
            visit(i)
        return order


def schedule_function(fn: ir.Operation, strategy: str = "best", max_ops: int = 20000) -> tuple[int, int, int] | None:
    """Reorders ``fn``'s entry block in place; returns (peak before, peak after, ops moved),
    or None when the function has more than ``max_ops`` ops."""
    block = fn.regions[0].blocks[0]
    g = _Graph(block)
    if g.n > max_ops:
        return None
    original = list(range(g.n))
    before = g.peak(original)
    best, best_peak = original, before
    candidates = []
    if strategy in ("best", "greedy"):
        candidates.append(g.greedy())
    if strategy in ("best", "dfs"):
        candidates.append(g.dfs())
    for order in candidates:
        assert sorted(order) == original, "scheduler lost or duplicated ops"
        p = g.peak(order)
        if p < best_peak:
            best, best_peak = order, p
    if best is original:
        return before, before, 0
    for i in best:
        g.ops[i].move_before(g.term)
    return before, best_peak, g.n - _longest_increasing(best)


def _longest_increasing(seq: list[int]) -> int:
    tails: list[int] = []
    for x in seq:
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)


__all__ = ["GeScheduleMemoryPass", "STRATEGIES", "schedule_function"]
