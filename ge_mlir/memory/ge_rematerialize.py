"""ge-rematerialize: recompute cheap producers near their late uses to lower the peak of live tensor bytes.

In the spirit of XLA's HloRematerialization, on ge functions (tensor level, after the
graph optimizations, before lowering). A tensor computed early and used again much later
is live, and costs its bytes, at every program point in between. Recomputing it right
before its late use splits that range in two: the original lives up to its last early use,
the copy from the late use on, and every point in the gap gets the bytes back, for the
FLOPs of the copy.

Liveness model (:mod:`ge_mlir.memory.liveness`, the one ``ge-schedule-memory`` uses): a
tensor is live from the op defining it to its last use, both inclusive; arguments,
constants and returned tensors cost nothing; reshape-like results are views keeping their
source live. The program point of an op also holds the op's scratch bytes when the caller
gives a scratch model (the CPU target gives its lowering's padded inputs and im2col
matrices; ``ge-opt`` runs have none).

Algorithm, repeated until every program point is at most ``budget-bytes`` or nothing
helps:

1. Candidates: a tensor whose producer is recomputable and that is live, unused, at some
   program point over the target (a gap between two of its uses, or between its producer
   and its first use); the late uses are all its uses after that gap.
2. The copy: the producer is cloned right before the first late use, with its operands
   taken as they are when they are live there anyway (arguments, constants, tensors used
   at or after that point), else recomputed too when their producer is recomputable (up to
   ``max-chain`` producers deep), else kept live longer (each candidate is also tried with
   the producer alone). The late uses (through views too) are redirected to the copy; ops
   left without uses are erased (the "recompute" of a tensor with no early use is a move).
3. Each candidate is evaluated on the liveness model without touching the IR: kept only
   when no program point gets higher than the current peak and the bytes over the target,
   summed over program points, drop; the best is the one dropping most per unit of cost
   (its extra FLOPs plus the elements it writes), within ``max-extra-flops-ratio``. One
   exception: when the best one would end a tensor that another candidate's copy reads
   because it is live there anyway, that other one goes first. On nested lives (the skip
   connections of an encoder/decoder) the inner copy is then made from the outer tensor,
   and the outer tensor's copy moves up to it, instead of both being recomputed from the
   inputs.

Recomputable ops: elementwise (unary, binary, ``where``, ``clip``), casts, broadcasts
(``expand``, ``tile``), layout changes (``transpose``, ``trans_data``, the reshape-like
views), and the ops named in ``checkpoint-ops``: ONNX op types (``Conv``, ``MatMul``,
``Softmax``, ``LayerNormalization``, ...: mapped to the ge ops they become, see
:data:`ONNX_TO_GE`, and matched on the ONNX op type each op's location records), or ge op
names (``ge.conv2d``). Ops with regions, several results or outside the ge dialect are
never recomputed.

FLOPs of ops and copies: :func:`ge_mlir.irutils.cost.op_flops`.

Each copy carries a unique ``ge.recompute_id`` attribute: CSE (``ge-canonicalize``,
upstream ``cse``) compares attribute dictionaries, so it cannot merge a copy back into
its original or into another copy. What was recomputed is recorded on the function as
``ge.recompute`` (see :func:`read_recompute`) and in the statistics: ``rewrites`` (ops
cloned), ``tensors-recomputed``, ``extra-flops``, ``graph-flops``, ``peak-bytes-before``,
``peak-bytes-after`` (largest over the module's functions).
"""

from __future__ import annotations

import bisect
import fnmatch
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from mlir import ir

from ..errors import PassFailure, format_location, node_name
from ..irutils.attrs import attr_int
from ..irutils.cost import function_flops, op_flops
from ..irutils.ge_ops import ONNX_OP_TO_GE
from ..irutils.locations import onnx_op_type
from ..irutils.types import tensor_bytes
from ..passes.registry import Option, Pass, register_pass
from .liveness import VIEW_OPS, BlockTensors, Key, producer
from .training import RECOMPUTE_SUFFIX

__all__ = ["CHEAP_OPS", "ONNX_TO_GE", "RECOMPUTE_ATTR", "RECOMPUTE_ID_ATTR", "GeRematerializePass",
           "RematResult", "Recomputed", "checkpoint_matcher", "live_peak",
           "read_recompute", "recompute_table", "rematerialize_function"]

#: Function attribute recording what was recomputed (:func:`read_recompute`).
RECOMPUTE_ATTR = "ge.recompute"
#: Attribute of every copy: unique per function, so CSE cannot merge copies.
RECOMPUTE_ID_ATTR = "ge.recompute_id"

_UNARY = ("abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "relu", "leaky_relu",
          "gelu", "erf", "sin", "cos", "floor", "ceil", "round", "sign", "not", "softplus", "hard_sigmoid",
          "hard_swish", "silu", "clip")
_BINARY = ("add", "sub", "mul", "div", "pow", "max", "min", "mod", "and", "or", "xor", "equal", "less",
           "less_equal", "greater", "greater_equal")
#: Recomputed without being asked: elementwise ops, casts, broadcasts and layout changes.
CHEAP_OPS = frozenset(
    {f"ge.{n}" for n in (*_UNARY, *_BINARY)}
    | {"ge.where", "ge.cast", "ge.expand", "ge.tile", "ge.transpose", "ge.trans_data"}
    | VIEW_OPS
)

#: ONNX op types -> the ge ops made of them (one table, ``ge_mlir.irutils.ge_ops``; ``checkpoint-ops``).
#: Types not listed still match the ops whose location records them (``fused<"Type">[...]``).
ONNX_TO_GE = ONNX_OP_TO_GE

_ONNX_NAME_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")
_GE_NAME_RE = re.compile(r"^ge\.[a-z0-9_]+$")
_ATEN_NAME_RE = re.compile(r"^aten\.[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)?$")

def checkpoint_matcher(names: Iterable[str]) -> Callable[[ir.Operation], bool]:
    """``op -> bool``: is ``op`` one of the checkpoint ops ``names``?

    Each name is an ONNX op type (``Softmax``, mapped to its ge ops and matched on the op type the
    location records), a ge op name (``ge.softmax``), an ATen op (``aten._softmax`` or
    ``aten._softmax.default``, matched on the op the FX importer's location records), or
    ``node:<glob>``: ops whose node name (location) matches the ``fnmatch`` pattern
    (``node:*softmax*``).

    Raises ValueError naming a name that is none of these."""
    ge_names: set[str] = set()
    onnx_types: set[str] = set()
    aten: set[str] = set()
    globs: list[str] = []
    for name in names:
        if _GE_NAME_RE.match(name):
            ge_names.add(name)
        elif _ONNX_NAME_RE.match(name):
            onnx_types.add(name)
            ge_names.update(ONNX_TO_GE.get(name, ()))
        elif _ATEN_NAME_RE.match(name):
            aten.add(name)
        elif name.startswith("node:") and len(name) > 5:
            globs.append(name[5:])
        else:
            raise ValueError(f"unknown checkpoint op {name!r}: expected an ONNX op type (e.g. Softmax, "
                             "LayerNormalization, MatMul, Conv), a ge op name (e.g. ge.softmax), an ATen op "
                             "(e.g. aten.bmm) or node:<name pattern>")

    def match(op: ir.Operation) -> bool:
        if op.name in ge_names:
            return True
        if onnx_types or aten:
            kind = onnx_op_type(op.location)
            if kind in onnx_types:
                return True
            if kind and aten and (kind in aten or kind.rsplit(".", 1)[0] in aten):
                return True
        if globs:
            node = _name(op)
            return any(fnmatch.fnmatchcase(node, g) for g in globs)
        return False

    return match


@dataclass
class Recomputed:
    """One rematerialization: the tensor, where its copy goes, the ops cloned for it."""

    tensor: str          # the recomputed tensor's producer: ONNX node name or location
    op: str              # its ge op
    bytes: int           # its size
    before: str          # the first late use it is recomputed for (node name or location)
    chain: list[str]     # every op cloned, in order, as "ge.op node-name"
    flops: int           # extra FLOPs (the clones' minus those of ops left without uses and erased)

    def to_dict(self) -> dict:
        return {"tensor": self.tensor, "op": self.op, "bytes": self.bytes, "before": self.before,
                "chain": list(self.chain), "flops": self.flops}


@dataclass
class RematResult:
    """What :func:`rematerialize_function` did to one function."""

    target: int
    peak_before: int
    peak_after: int
    graph_flops: int
    extra_flops: int = 0
    recomputed: list[Recomputed] = field(default_factory=list)
    #: Why it stopped: ``fits`` (every point at most the target), ``nothing helps``, ``flops cap``, ``limit``.
    stopped: str = "fits"

    @property
    def ops_cloned(self) -> int:
        return sum(len(r.chain) for r in self.recomputed)


def _name(op: ir.Operation) -> str:
    return node_name(op.location) or format_location(op.location)


class _Live:
    """The liveness model of one entry block (rebuilt after each change)."""

    def __init__(self, block: ir.Block, scratch: Callable[[ir.Operation], int] | None,
                 recomputable: Callable[[ir.Operation], bool]) -> None:
        t = BlockTensors(block)
        self.t = t
        n = t.n
        self.size = {r: 0 if r in t.returned else b for r, b in t.nbytes.items()}
        self.uses = {r: sorted(us) for r, us in t.users.items()}
        self.last = {r: (us[-1] if us else r[0]) for r, us in self.uses.items()}
        self.scratch = [(scratch(op) or 0) if scratch is not None and op.name.startswith("ge.") else 0
                        for op in t.ops]
        self.recomputable = [op.name.startswith("ge.") and not len(op.regions) and len(op.results) == 1
                             and recomputable(op) for op in t.ops]
        self._flops: dict[int, int] = {}
        diff = [0] * (n + 1)
        cross = [0] * (n + 1)  # cross[u]: bytes live across the gap between ops u - 1 and u
        for r, s in self.size.items():
            if s:
                diff[r[0]] += s
                diff[self.last[r] + 1] -= s
                if self.last[r] > r[0]:
                    cross[r[0] + 1] += s
                    cross[self.last[r] + 1] -= s
        self.live = [0] * n
        run = run2 = 0
        self.cross = [0] * (n + 1)
        for i in range(n):
            run += diff[i]
            run2 += cross[i]
            self.live[i] = run + self.scratch[i]
            self.cross[i] = run2
        self.peak = max(self.live, default=0)

    def flops(self, i: int) -> int:
        if i not in self._flops:
            self._flops[i] = op_flops(self.t.ops[i])
        return self._flops[i]

    def excess(self, target: int) -> int:
        return sum(x - target for x in self.live if x > target)


@dataclass
class _Candidate:
    root: Key
    u: int
    clones: list[tuple[int, list]]        # (op index, operand sources) in order
    redirects: list[tuple[int, int, object]]  # (user index, operand number, source)
    dead: list[int]                       # op indices left without uses (erased)
    extra_flops: int
    cost: int
    #: Tensors the copies read where they are because they are live there anyway.
    relies_on: set = field(default_factory=set)
    gain: int = 0
    peak: int = 0


_ORIG = "orig"


def _plan(m: _Live, r: Key, u: int, max_chain: int) -> _Candidate | None:
    """The copy of tensor ``r`` before op ``u`` (its first late use), or None when it cannot be made."""
    t = m.t
    ops = t.ops
    # Late reads: operands of ops at or after u whose value is r or a view of r defined before u
    # (a view made at or after u is itself a late use, redirected through its operand).
    redirects: list[tuple[int, int, ir.Value]] = []
    for q in m.uses[r]:
        if q < u:
            continue
        for pos, root in t.reads[q]:
            if root != r:
                continue
            if pos < 0:
                return None  # used inside a region: not redirected
            w = ops[q].operands[pos]
            src = producer(w, t.index)
            if src is not None and src[0] < u:
                redirects.append((q, pos, w))
    if not redirects:
        return None
    memo: dict[Key, object] = {}
    clones: list[tuple[int, list]] = []
    relies_on: set[Key] = set()

    def need(w: ir.Value, depth: int) -> object:
        src = producer(w, t.index)
        if src is None:
            return (_ORIG, w)
        root = t.root.get(src)
        if root is None:
            return (_ORIG, w)  # a constant, or a view of an argument or a constant
        if src in memo:
            return memo[src]
        i = src[0]
        op = ops[i]
        view = op.name in VIEW_OPS
        if root != r and m.last[root] >= u:
            relies_on.add(root)
            return (_ORIG, w)  # live there anyway
        if not view and root != r and not (m.recomputable[i] and depth < max_chain):
            return (_ORIG, w)  # kept live until the copy
        if view and not len(op.regions) and len(op.results) == 1:
            srcs = [need(o, depth) for o in op.operands]
        elif view:
            return (_ORIG, w)
        else:
            srcs = [need(o, depth + 1) for o in op.operands]
        clones.append((i, srcs))
        memo[src] = ("clone", len(clones) - 1)
        return memo[src]

    sources = [need(w, 0) for _, _, w in redirects]
    if not clones:
        return None
    redirect_list = [(q, pos, s) for (q, pos, _), s in zip(redirects, sources)]
    # Ops left without uses are erased: r's producer and early views of r when every use moved to the
    # copy, then (transitively) producers whose only uses were theirs.
    redirected = {(q, pos) for q, pos, _ in redirects}
    # Values the copies read as they are keep their producers (the copies are not in the IR yet).
    read_by_copies = {producer(src[1], t.index) for _, srcs in clones for src in srcs if src[0] == _ORIG}
    todo = {r[0]} | {j for j in m.uses[r] if j < u and ops[j].name in VIEW_OPS and t.root.get((j, 0)) == r}
    dead: set[int] = set()
    while todo:
        j = max(todo)
        todo.discard(j)
        op = ops[j]
        if j in dead or not op.name.startswith("ge.") or len(op.regions) or t.constant[j]:
            continue
        if any((j, k) in read_by_copies for k in range(len(op.results))):
            continue
        if all(_dropped(use, t.index, dead, redirected) for res in op.results for use in res.uses):
            dead.add(j)
            todo.update(src[0] for v in op.operands if (src := producer(v, t.index)) is not None)
    extra = sum(m.flops(i) for i, _ in clones) - sum(m.flops(j) for j in dead)
    written = sum(tensor_bytes(ops[i].results[0].type) or 0 for i, _ in clones if ops[i].name not in VIEW_OPS)
    return _Candidate(r, u, clones, redirect_list, sorted(dead), extra, max(1, extra + written // 4), relies_on)


def _dropped(use: ir.OpOperand, index: dict, dead: set[int], redirected: set[tuple[int, int]]) -> bool:
    """The use goes away: its owner is erased, or it is redirected to a copy."""
    owner = use.owner
    owner = owner.operation if isinstance(owner, ir.OpView) else owner
    k = index.get(owner)
    return k is not None and (k in dead or (k, use.operand_number) in redirected)


def _evaluate(m: _Live, c: _Candidate, target: int) -> tuple[int, int]:
    """(peak, bytes over ``target`` summed over program points) after candidate ``c``, on the model."""
    t = m.t
    n = t.n
    u = c.u
    k = len(c.clones)
    pos = [u - 1 + (j + 1) / (k + 1) for j in range(k)]
    dead = set(c.dead)
    # New intervals of the tensors the change touches: old (start, end) -> new (start, end) or None.
    old: dict[object, tuple[float, float] | None] = {}
    new: dict[object, tuple[float, float] | None] = {}
    size: dict[object, int] = {}

    def touch(root: Key) -> None:
        if root not in old and m.size.get(root):
            old[root] = (root[0], m.last[root])
            size[root] = m.size[root]
            # Uses left: not by erased ops; for the recomputed tensor, only those before the copy.
            keep = [q for q in m.uses[root] if q not in dead and (root != c.root or q < u)]
            new[root] = None if root[0] in dead else (root[0], max(keep, default=root[0]))

    def extend(root: Key, x: float) -> None:
        touch(root)
        if new.get(root) is not None:
            a, b = new[root]
            new[root] = (a, max(b, x))

    touch(c.root)
    for j in dead:
        for _p, root in t.reads[j]:
            touch(root)
    clone_root: list[object] = []
    for j, (i, srcs) in enumerate(c.clones):
        if t.ops[i].name in VIEW_OPS:
            s = srcs[0]
            clone_root.append(clone_root[s[1]] if s[0] == "clone" else _orig_root(t, s[1]))
        else:
            key = ("clone", j)
            clone_root.append(key)
            size[key] = tensor_bytes(t.ops[i].results[0].type) or 0
            old[key] = None
            new[key] = (pos[j], pos[j])

    def read(src: object, x: float) -> None:
        root = clone_root[src[1]] if src[0] == "clone" else _orig_root(t, src[1])
        if root is None:
            return
        if root[0] == "clone":
            a, b = new[root]
            new[root] = (a, max(b, x))
        else:
            extend(root, x)

    for j, (_i, srcs) in enumerate(c.clones):
        for s in srcs:
            read(s, pos[j])
    for q, _pos, s in c.redirects:
        read(s, q)
    # Every late use of the tensor, also through views made after the copy, now reads the copy.
    late = [q for q in m.uses[c.root] if q >= u]
    copy = next(j for j, (i, _srcs) in enumerate(c.clones) if i == c.root[0])
    if late:
        read(("clone", copy), max(late))
    # Live bytes per point: the model's, corrected by the touched intervals.
    diff = [0] * (n + 2)
    for key, s in size.items():
        if not s:
            continue
        o, w = old.get(key), new.get(key)
        if o is not None:
            diff[int(o[0])] -= s
            diff[int(o[1]) + 1] += s
        if w is not None:
            a, b = math.ceil(w[0]), math.floor(w[1])
            if a <= b:
                diff[a] += s
                diff[b + 1] -= s
    peak = excess = run = 0
    for i in range(n):
        run += diff[i]
        if i in dead:
            continue
        x = m.live[i] + run
        peak = max(peak, x)
        if x > target:
            excess += x - target
    for j, (i, _srcs) in enumerate(c.clones):
        x = m.cross[u] + m.scratch[i]
        for key, s in size.items():
            o, w = old.get(key), new.get(key)
            if o is not None and o[0] < pos[j] < o[1]:
                x -= s
            if w is not None and w[0] <= pos[j] <= w[1]:
                x += s
        peak = max(peak, x)
        if x > target:
            excess += x - target
    return peak, excess


def _orig_root(t: BlockTensors, w: ir.Value) -> Key | None:
    src = producer(w, t.index)
    return None if src is None else t.root.get(src)


def _candidates(m: _Live, target: int, max_chain: int) -> list[_Candidate]:
    over = [i for i, x in enumerate(m.live) if x > target]
    if not over:
        return []
    found = []
    for r, s in m.size.items():
        if not s or not m.recomputable[r[0]]:
            continue
        stops = [r[0], *[q for q in m.uses[r] if q > r[0]]]
        for a, b in zip(stops, stops[1:]):
            if b - a < 2:
                continue
            # A program point strictly inside the gap over the target?
            lo = bisect.bisect_right(over, a)
            if lo < len(over) and over[lo] < b:
                for chain in sorted({1, max_chain}):
                    c = _plan(m, r, b, chain)
                    if c is not None:
                        found.append(c)
    return found


def live_peak(fn: ir.Operation, scratch: Callable[[ir.Operation], int] | None = None) -> int:
    """The most live tensor bytes (plus scratch, when a model is given) at one program point of ``fn``."""
    return _Live(fn.regions[0].blocks[0], scratch, lambda op: False).peak


def rematerialize_function(fn: ir.Operation, target_bytes: int, *, checkpoint_ops: Sequence[str] = (),
                           max_extra_flops_ratio: float | None = None, max_chain: int = 8,
                           scratch: Callable[[ir.Operation], int] | None = None,
                           max_remats: int = 256, record: bool = True) -> RematResult:
    """Recomputes tensors of ``fn``'s entry block near their late uses until no program point holds more
    than ``target_bytes`` live bytes or nothing helps (module doc). Changes ``fn`` in place and, with
    ``record``, records ``ge.recompute`` on it when something was recomputed. Functions of several
    blocks are left alone.

    ``scratch(op)``: extra bytes op holds while it runs (a lowering's temporaries), or None.
    Raises ValueError for an unknown checkpoint op name."""
    is_checkpoint = checkpoint_matcher(checkpoint_ops)

    def recomputable(op: ir.Operation) -> bool:
        return op.name in CHEAP_OPS or is_checkpoint(op)

    block = fn.regions[0].blocks[0]
    graph = function_flops(fn)
    if len(fn.regions[0].blocks) != 1:
        # Liveness is positions in the entry block: uses in other blocks would be missed.
        peak = live_peak(fn, scratch)
        return RematResult(target_bytes, peak, peak, graph, stopped="nothing helps")
    cap = None if max_extra_flops_ratio is None or max_extra_flops_ratio < 0 else max_extra_flops_ratio * graph
    m = _Live(block, scratch, recomputable)
    result = RematResult(target_bytes, m.peak, m.peak, graph)
    next_id = _next_recompute_id(block)
    with fn.context, fn.location:
        while True:
            excess = m.excess(target_bytes)
            if not excess:
                result.stopped = "fits"
                break
            if len(result.recomputed) >= max_remats:
                result.stopped = "limit"
                break
            good, capped = [], False
            for c in _candidates(m, target_bytes, max_chain):
                if cap is not None and result.extra_flops + c.extra_flops > cap:
                    capped = True
                    continue
                c.peak, after = _evaluate(m, c, target_bytes)
                c.gain = excess - after
                if c.peak <= m.peak and c.gain > 0:
                    good.append(c)
            best = _choose(m, good)
            if best is None:
                result.stopped = "flops cap" if capped else "nothing helps"
                break
            result.recomputed.append(_apply(m, best, next_id))
            next_id += len(best.clones)
            result.extra_flops += best.extra_flops
            m = _Live(block, scratch, recomputable)
    result.peak_after = m.peak
    if record and result.recomputed:
        _record(fn, result)
    return result


def _better(a: _Candidate, b: _Candidate | None) -> bool:
    """``a`` drops more bytes over the target per unit of cost than ``b`` (ties: the larger drop)."""
    if b is None:
        return True
    return a.gain * b.cost > b.gain * a.cost or (a.gain * b.cost == b.gain * a.cost and a.gain > b.gain)


def _choose(m: _Live, good: list[_Candidate]) -> _Candidate | None:
    """The best candidate, unless copying it would end a tensor that another candidate's copy reads
    because it is live there anyway: that one goes first (its copy stays cheap, and the tensor's own
    late use then moves up to it). On nested lives (encoder/decoder skips) this recomputes the inner
    one from the outer one, instead of both from the inputs."""
    best = None
    for c in good:
        if _better(c, best):
            best = c
    seen = set()
    while best is not None and id(best) not in seen:
        seen.add(id(best))
        kept = [q for q in m.uses[best.root] if q < best.u]
        end = max(kept, default=best.root[0])
        blocked = [c for c in good if c is not best and best.root in c.relies_on and c.u > end]
        first = None
        for c in blocked:
            if _better(c, first):
                first = c
        if first is None:
            break
        best = first
    return best


def _next_recompute_id(block: ir.Block) -> int:
    ids = [attr_int(op, RECOMPUTE_ID_ATTR, 0) for op in block.operations if RECOMPUTE_ID_ATTR in op.attributes]
    return max(ids, default=0) + 1


def _apply(m: _Live, c: _Candidate, first_id: int) -> Recomputed:
    ops = m.t.ops
    made: list[ir.Value] = []

    def value(s: object) -> ir.Value:
        return made[s[1]] if s[0] == "clone" else s[1]

    ip = ir.InsertionPoint(ops[c.u])
    i64 = ir.IntegerType.get_signless(64)
    chain = []
    for j, (i, srcs) in enumerate(c.clones):
        new = ops[i].clone(ip=ip)
        for k, s in enumerate(srcs):
            v = value(s)
            if new.operands[k] != v:
                new.operands[k] = v
        new.attributes[RECOMPUTE_ID_ATTR] = ir.IntegerAttr.get(i64, first_id + j)
        new.location = _copy_location(ops[i])
        made.append(new.results[0])
        chain.append(f"{ops[i].name} {_name(ops[i])}")
    for q, k, s in c.redirects:
        ops[q].operands[k] = value(s)
    producer_op = ops[c.root[0]]
    late = ops[c.u]
    before = _name(late) + (" (a copy)" if RECOMPUTE_ID_ATTR in late.attributes else "")
    entry = Recomputed(tensor=_name(producer_op), op=producer_op.name, bytes=m.size[c.root],
                       before=before, chain=chain, flops=c.extra_flops)
    for j in sorted(c.dead, reverse=True):
        ops[j].erase()
    return entry


def _copy_location(op: ir.Operation) -> ir.Location:
    """``loc("<node>/recompute"(<op's location>))``: a copy's buffers are told from the original's
    (the training memory report counts them as backward work, not saved activations); the op type
    in the original location is kept."""
    name = _name(op)
    if not name.endswith(RECOMPUTE_SUFFIX):
        name += RECOMPUTE_SUFFIX
    return ir.Location.name(name, childLoc=op.location)


def _record(fn: ir.Operation, result: RematResult) -> None:
    previous = read_recompute(fn)
    i64 = ir.IntegerType.get_signless(64)

    def num(v: int) -> ir.Attribute:
        return ir.IntegerAttr.get(i64, int(v))

    def s(v: str) -> ir.Attribute:
        return ir.StringAttr.get(v)

    entries = [*(previous["recomputed"] if previous else []), *(r.to_dict() for r in result.recomputed)]
    fn.attributes[RECOMPUTE_ATTR] = ir.DictAttr.get({
        "target_bytes": num(result.target),
        "peak_bytes_before": num(previous["peak_bytes_before"] if previous else result.peak_before),
        "peak_bytes_after": num(result.peak_after),
        "graph_flops": num(previous["graph_flops"] if previous else result.graph_flops),
        "extra_flops": num((previous["extra_flops"] if previous else 0) + result.extra_flops),
        "recomputed": ir.ArrayAttr.get([
            ir.DictAttr.get({"tensor": s(e["tensor"]), "op": s(e["op"]), "bytes": num(e["bytes"]),
                             "before": s(e["before"]), "chain": ir.ArrayAttr.get([s(x) for x in e["chain"]]),
                             "flops": num(e["flops"])})
            for e in entries
        ]),
    })


def read_recompute(fn: ir.Operation) -> dict | None:
    """The ``ge.recompute`` record of ``fn`` as Python values (None when nothing was recomputed):
    ``target_bytes``, ``peak_bytes_before``/``after`` (the liveness model's), ``graph_flops``,
    ``extra_flops`` and ``recomputed``: per tensor ``tensor``, ``op``, ``bytes``, ``before`` (the late
    use), ``chain`` (the ops cloned) and ``flops``."""
    if RECOMPUTE_ATTR not in fn.attributes:
        return None
    d = ir.DictAttr(fn.attributes[RECOMPUTE_ATTR])

    def num(a: ir.Attribute) -> int:
        return ir.IntegerAttr(a).value

    def text(a: ir.Attribute) -> str:
        return ir.StringAttr(a).value

    out = {k: num(d[k]) for k in ("target_bytes", "peak_bytes_before", "peak_bytes_after", "graph_flops",
                                   "extra_flops")}
    out["recomputed"] = [
        {"tensor": text(e["tensor"]), "op": text(e["op"]), "bytes": num(e["bytes"]), "before": text(e["before"]),
         "chain": [text(x) for x in ir.ArrayAttr(e["chain"])], "flops": num(e["flops"])}
        for e in map(ir.DictAttr, ir.ArrayAttr(d["recomputed"]))
    ]
    return out


def _flops_text(n: float) -> str:
    for unit, scale in (("GFLOP", 1e9), ("MFLOP", 1e6), ("kFLOP", 1e3)):
        if abs(n) >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{int(n)} FLOP"


def recompute_table(report: dict) -> str:
    """Plain text of a compile's rematerialization report (``CompiledModel.memory_plan["recompute"]``),
    as ``ge-compile --memory-report`` prints it."""
    from .report import format_bytes

    nat, arena, budget = report["natural_arena"], report["arena"], report["budget"]
    cap = report.get("max_extra_flops_ratio")
    ops = ", ".join(report.get("checkpoint_ops") or []) or "none"
    lines = [
        f"recompute: arena {format_bytes(nat)} -> {format_bytes(arena)} ({arena / nat:.3f}x) under the budget of "
        f"{format_bytes(budget)}, {len(report['recomputed'])} tensor(s) recomputed, "
        f"{len(report['attempts'])} lowering attempt(s)",
        f"  extra FLOPs  {_flops_text(report['extra_flops'])} ({report['extra_flops_ratio'] * 100:.1f}% of "
        f"{_flops_text(report['graph_flops'])}; cap {'none' if cap is None else f'{cap * 100:.1f}%'}); "
        f"checkpoint ops: {ops}",
    ]
    for e in report["recomputed"]:
        lines.append(f"  {e['tensor']} ({e['op']}, {format_bytes(e['bytes'])}) before {e['before']}: "
                     f"{', '.join(e['chain'])} (+{_flops_text(e['flops'])})")
    return "\n".join(lines) + "\n"


@register_pass
class GeRematerializePass(Pass):
    name = "ge-rematerialize"
    summary = "Recompute cheap producers near their late uses until the peak of live tensor bytes fits a budget"
    description = __doc__ or ""
    # Target stage: the CPU target runs it under a memory budget with recompute on; not an optimization.
    stage = "lowering"
    options = (
        Option("budget-bytes", int, 0, "target peak of live ge tensor bytes per function (0: leave them alone)"),
        Option("checkpoint-ops", list, [],
               "op types recomputed besides the cheap ones: ONNX op types (Conv, MatMul, Softmax, "
               "LayerNormalization, ...), ge op names, ATen ops (aten.bmm) or node:<name glob>"),
        Option("max-extra-flops-ratio", float, -1.0,
               "the most FLOPs recomputation may add, as a share of the function's (negative: no limit)"),
        Option("max-chain", int, 8, "how many producers deep the copy of one tensor may recompute"),
    )

    def run(self, module: ir.Operation) -> None:
        budget, chain = self.opt("budget-bytes"), self.opt("max-chain")
        if budget < 0:
            raise PassFailure(f"budget-bytes must be 0 or a positive byte count, got {budget}")
        if chain < 1:
            raise PassFailure(f"max-chain must be at least 1, got {chain}")
        try:
            checkpoint_matcher(self.opt("checkpoint-ops"))
        except ValueError as e:
            raise PassFailure(str(e)) from None
        ratio = self.opt("max-extra-flops-ratio")
        stats = {"rewrites": 0, "tensors-recomputed": 0, "extra-flops": 0, "graph-flops": 0,
                 "peak-bytes-before": 0, "peak-bytes-after": 0}
        for op in module.regions[0].blocks[0].operations:
            fn = op.operation
            if fn.name != "func.func" or len(fn.regions[0].blocks) != 1:
                continue
            if not budget:
                peak = live_peak(fn)
                stats["peak-bytes-before"] = max(stats["peak-bytes-before"], peak)
                stats["peak-bytes-after"] = max(stats["peak-bytes-after"], peak)
                continue
            r = rematerialize_function(fn, budget, checkpoint_ops=self.opt("checkpoint-ops"),
                                       max_extra_flops_ratio=None if ratio < 0 else ratio, max_chain=chain)
            stats["rewrites"] += r.ops_cloned
            stats["tensors-recomputed"] += len(r.recomputed)
            stats["extra-flops"] += r.extra_flops
            stats["graph-flops"] += r.graph_flops
            stats["peak-bytes-before"] = max(stats["peak-bytes-before"], r.peak_before)
            stats["peak-bytes-after"] = max(stats["peak-bytes-after"], r.peak_after)
        self.stats.update(stats)
