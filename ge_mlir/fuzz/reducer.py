"""Delta-debugging of ONNX models: the smallest node set that keeps a failure.

:func:`reduce_model` removes chunks of nodes (halving the chunk size, as in
ddmin's complement step), then graph outputs, then nodes again, keeping every
candidate on which ``predicate`` still holds. Removing a node reconnects its
consumers: a value it produced becomes a new graph input of the same type (as
given by ONNX shape inference on the original model), fed with random data of
that type; graph outputs it produced are dropped; unused inputs and
initializers go. The predicate sees a :class:`Candidate` (model + feeds) and
typically re-runs the case in a child process and compares the failure class
and signature.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np
import onnx
from onnx import helper, shape_inference

from .generator import MAX_ELEMENTS, random_feed


@dataclass
class Candidate:
    model: onnx.ModelProto
    feeds: dict[str, np.ndarray]

    @property
    def node_count(self) -> int:
        return len(self.model.graph.node)


def _type_map(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    types: dict[str, onnx.TypeProto] = {}
    try:
        inferred = shape_inference.infer_shapes(model, strict_mode=False)
    except Exception:
        inferred = model
    g = inferred.graph
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        tt = vi.type.tensor_type
        if tt.elem_type and tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim):
            types.setdefault(vi.name, vi.type)
    for t in g.initializer:
        types.setdefault(t.name, helper.make_tensor_type_proto(t.data_type, list(t.dims)))
    return types


class _Space:
    """The original model and what a candidate needs to be built from it."""

    def __init__(self, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> None:
        self.model = model
        self.feeds = feeds
        self.types = _type_map(model)
        self.nodes = list(model.graph.node)

    def build(self, keep: list[int], outputs: list[int] | None = None) -> Candidate | None:
        g0 = self.model.graph
        kept = [self.nodes[i] for i in keep]
        removed_outs = {o for i, n in enumerate(self.nodes) if i not in set(keep) for o in n.output if o}
        kept_outs = {o for n in kept for o in n.output if o}
        out_vis = [o for j, o in enumerate(g0.output) if outputs is None or j in outputs]
        init_names = {t.name for t in g0.initializer}
        in_names = {i.name for i in g0.input}
        # graph outputs still produced (or still available as inputs/initializers)
        new_outputs = [o for o in out_vis if o.name in kept_outs or
                       (o.name not in removed_outs and (o.name in in_names or o.name in init_names))]
        if not new_outputs:
            # every output was produced by removed nodes: the last kept node's
            # typed results become the outputs (a dead node can then be the repro)
            for n in reversed(kept):
                new_outputs = [helper.make_value_info(o, self.types[o]) for o in n.output if o in self.types]
                if new_outputs:
                    break
            if not new_outputs:
                return None
        used = {x for n in kept for x in n.input if x} | {o.name for o in new_outputs}
        new_inputs = [i for i in g0.input if i.name in used]
        have = {i.name for i in new_inputs}
        feeds = {k: v for k, v in self.feeds.items() if k in have}
        for n in kept:
            for x in n.input:
                if x and x in removed_outs and x not in kept_outs and x not in have:
                    t = self.types.get(x)
                    if t is None:
                        return None
                    vi = helper.make_value_info(x, t)
                    new_inputs.append(vi)
                    have.add(x)
                    tt = t.tensor_type
                    dtype = str(helper.tensor_dtype_to_np_dtype(tt.elem_type))
                    shape = [d.dim_value for d in tt.shape.dim]
                    if int(np.prod(shape, dtype=np.float64)) > MAX_ELEMENTS:
                        return None  # an input we could not feed (a huge-dims mutation's intermediate)
                    rng = np.random.default_rng(zlib.crc32(x.encode()))
                    feeds[x] = random_feed(rng, dtype, shape)
        graph = helper.make_graph(kept, g0.name, new_inputs, new_outputs,
                                  [t for t in g0.initializer if t.name in used])
        m = onnx.ModelProto()
        m.CopyFrom(self.model)
        m.graph.CopyFrom(graph)
        return Candidate(m, feeds)


def reduce_model(model: onnx.ModelProto, feeds: dict[str, np.ndarray], predicate: Callable[[Candidate], bool], *,
                 max_tests: int = 200, time_budget: float | None = None,
                 log: Callable[[str], None] | None = None) -> tuple[Candidate, int]:
    """The smallest candidate found on which ``predicate`` holds, and the number of predicate runs.

    ``predicate`` is assumed to hold on the original model (it is not re-run).
    """
    space = _Space(model, feeds)
    n = len(space.nodes)
    keep = list(range(n))
    outs = list(range(len(model.graph.output)))
    best = space.build(keep, outs) or Candidate(model, feeds)
    tests = 0
    t0 = time.perf_counter()
    seen: set[tuple] = set()

    def budget_left() -> bool:
        if tests >= max_tests:
            return False
        return time_budget is None or time.perf_counter() - t0 < time_budget

    def attempt(k: list[int], o: list[int]) -> bool:
        nonlocal tests, best
        key = (tuple(k), tuple(o))
        if key in seen or not budget_left():
            return False
        seen.add(key)
        cand = space.build(k, o)
        if cand is None:
            return False
        tests += 1
        ok = bool(predicate(cand))
        if log:
            log(f"  reduce: {len(k)} node(s), {len(o)} output(s): {'still fails' if ok else 'passes'}")
        if ok:
            best = cand
        return ok

    def shrink_nodes() -> bool:
        nonlocal keep
        changed = False
        chunk = max(1, len(keep) // 2)
        while chunk >= 1 and budget_left():
            i = 0
            while i < len(keep) and budget_left():
                cand = keep[:i] + keep[i + chunk:]
                if cand and attempt(cand, outs):
                    keep = cand
                    changed = True
                else:
                    i += chunk
            if chunk == 1:
                break
            chunk //= 2
        return changed

    def shrink_outputs() -> bool:
        nonlocal outs
        changed = False
        i = 0
        while len(outs) > 1 and i < len(outs) and budget_left():
            cand = outs[:i] + outs[i + 1:]
            if attempt(keep, cand):
                outs = cand
                changed = True
            else:
                i += 1
        return changed

    for _ in range(4):
        a = shrink_nodes()
        b = shrink_outputs()
        if not (a or b):
            break
    return best, tests
