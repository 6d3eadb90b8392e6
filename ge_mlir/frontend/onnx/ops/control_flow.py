"""ONNX control flow: If, Loop and Scan, their bodies converted in place with ONNX's scoping
(a body sees the outer graph's values; its own names shadow them).

* ``If`` with a condition known at import time is the taken branch, inlined. With a run-time
  condition it is an ``scf.if`` whose regions hold the branches' ge ops (the optimizer's passes
  and the CPU lowering work inside them); branch results of different static shapes join to a
  ``?`` dim through ``tensor.cast`` (a ``?`` value pinned to a static type is a ``ge.reshape``, checked
  at run time).
* ``Loop`` is an ``scf.while`` carrying the iteration number, the condition, the loop-carried
  values (their type may not change across iterations) and one accumulator per scan output
  (``tensor<? x slice>``, a concat per iteration), so the trip count and the condition are
  run-time values and the scan outputs' length is a run-time size.
* ``Scan`` is unrolled over its (static) sequence length: the body is converted once per step,
  with its scan inputs sliced along their axes and directions and its scan outputs stacked.
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import scf, tensor

from ....dialects import ge
from ..registry import Refusal, converter
from . import _runtime as rt
from ._shapes import _norm_axis


def _scalar(v: ir.Value) -> ir.Value:
    """A one-element tensor as a rank-0 tensor."""
    t = ir.RankedTensorType(v.type)
    if t.rank == 0:
        return v
    if not t.has_static_shape or int(np.prod(t.shape)) != 1:
        raise Refusal(f"expected a one-element tensor, got {t}")
    return ge.reshape(ir.RankedTensorType.get([], t.element_type), v)


def _extract_bool(v: ir.Value) -> ir.Value:
    """The i1 scalar of a one-element bool tensor."""
    return tensor.extract(_scalar(v), [])


def _join(a: ir.Type, b: ir.Type) -> ir.Type | None:
    """The most specific type both tensor types cast to (dims that differ become ?), or None."""
    ta, tb = ir.RankedTensorType(a), ir.RankedTensorType(b)
    if ta.element_type != tb.element_type or ta.rank != tb.rank:
        return None
    dyn = ir.ShapedType.get_dynamic_size()
    dims = [ta.shape[i] if ta.shape[i] == tb.shape[i] else dyn for i in range(ta.rank)]
    return ir.RankedTensorType.get(dims, ta.element_type)


def _reshapable(a: ir.Type, b: ir.Type) -> bool:
    """Both static, the same element type and element count."""
    ta, tb = ir.RankedTensorType(a), ir.RankedTensorType(b)
    return (ta.has_static_shape and tb.has_static_shape and ta.element_type == tb.element_type
            and int(np.prod(ta.shape)) == int(np.prod(tb.shape)))


def _fit(v: ir.Value, t: ir.Type, what: str) -> ir.Value:
    """``v`` as type ``t`` (same rank and element type). A ``?`` dim becoming static goes through
    ``ge.reshape``, whose lowering checks the element count at run time (a value of another size
    fails the call instead of being read out of bounds); static to ``?`` is a ``tensor.cast``."""
    if v.type == t:
        return v
    if _join(v.type, t) is None:
        raise Refusal(f"{what} has type {v.type}, not compatible with {t}")
    vt, tt = ir.RankedTensorType(v.type), ir.RankedTensorType(t)
    if any(vt.is_dynamic_dim(i) and not tt.is_dynamic_dim(i) for i in range(vt.rank)):
        pinned = ir.RankedTensorType.get([tt.shape[i] if not tt.is_dynamic_dim(i) else vt.shape[i]
                                          for i in range(vt.rank)], vt.element_type)
        v = ge.reshape(pinned, v)
        if v.type == t:
            return v
    return tensor.cast(t, v)


def _body(ctx, attr: str):
    g = ctx.attr(attr)
    if g is None:
        ctx.invalid(f"attribute {attr!r} (a graph) is missing")
    return g


@converter("If", notes="a constant condition inlines the taken branch; a run-time one is an scf.if "
                       "(branch results of different static shapes join to ? dims)")
def if_(ctx):
    then_g, else_g = _body(ctx, "then_branch"), _body(ctx, "else_branch")
    if len(then_g.output) != len(else_g.output) or len(then_g.output) != ctx.num_outputs:
        ctx.invalid(f"the branches have {len(then_g.output)} and {len(else_g.output)} outputs, the node "
                    f"{ctx.num_outputs}")
    imp = ctx.importer
    c = ctx.const(0)
    if c is not None:
        if np.asarray(c).size != 1:
            ctx.invalid(f"cond has {np.asarray(c).size} elements, not 1")
        taken = then_g if bool(np.asarray(c).reshape(-1)[0]) else else_g
        return imp.convert_subgraph(taken, [], f"{ctx.name}/{taken.name or 'branch'}")
    cond = _extract_bool(ctx.input(0))
    # The branches are converted first (into a result-less scf.if) to learn their result types;
    # the real scf.if takes the node's inferred types where known, else the branches' joined types,
    # and their ops move into it.
    draft = scf.IfOp(cond, [], has_else=True)
    outs = []
    for block, g in ((draft.then_block, then_g), (draft.else_block, else_g)):
        with ir.InsertionPoint(block):
            outs.append(imp.convert_subgraph(g, [], f"{ctx.name}/{g.name or 'branch'}"))
    types = []
    for i, (a, b) in enumerate(zip(*outs)):
        t, known = _join(a.type, b.type), ctx.out_type(i)
        if t is None:
            # Branches of different ranks (ONNX allows it): both reshaped to the inferred type when
            # they have its (static) element count.
            if known is None or not all(_reshapable(v.type, known) for v in (a, b)):
                ctx.refuse(f"output {i}: the branches give {a.type} and {b.type} (different ranks or element "
                           "types)")
            t = known
        types.append(known if known is not None and _join(known, t) == known else t)
    op = scf.IfOp(cond, types, has_else=True)
    for src, dst, vals in ((draft.then_block, op.then_block, outs[0]), (draft.else_block, op.else_block, outs[1])):
        for o in list(src.operations):
            dst.append(o)
        with ir.InsertionPoint(dst):
            vals = [ge.reshape(t, v) if ir.RankedTensorType(v.type).rank != ir.RankedTensorType(t).rank else v
                    for v, t in zip(vals, types)]
            scf.YieldOp([_fit(v, t, f"output {i}") for i, (v, t) in enumerate(zip(vals, types))])
    draft.operation.erase()
    return list(op.results)


@converter("Loop", notes="an scf.while: run-time trip count and condition, loop-carried values of a fixed "
                         "type, scan outputs accumulated along a run-time length")
def loop(ctx):
    body = _body(ctx, "body")
    imp = ctx.importer
    n_carried = len(ctx.node.input) - 2
    n_scan = len(body.output) - 1 - n_carried
    if len(body.input) != 2 + n_carried or n_scan < 0:
        ctx.invalid(f"the body has {len(body.input)} inputs and {len(body.output)} outputs for "
                    f"{n_carried} loop-carried values")
    i64, i1 = ir.IntegerType.get_signless(64), ir.IntegerType.get_signless(1)
    t_i64, t_i1 = ir.RankedTensorType.get([], i64), ir.RankedTensorType.get([], i1)
    trip = _scalar(ctx.input(0)) if ctx.has_input(0) else None
    cond0 = _scalar(ctx.input(1)) if ctx.has_input(1) else ctx.constant(np.array(True))
    carried = [ctx.input(2 + k) for k in range(n_carried)]
    inits = [ctx.constant(np.array(0, np.int64)), cond0, *carried]
    types = [t_i64, t_i1, *[v.type for v in carried]]
    # The body is converted first into a draft loop (without the scan accumulators) to learn the
    # scan outputs' slice types; its ops then move into the real loop.
    draft = scf.WhileOp(types, inits)
    draft_body = draft.after.blocks.append(*types)
    with ir.InsertionPoint(draft_body):
        outs = imp.convert_subgraph(body, list(draft_body.arguments), f"{ctx.name}/{body.name or 'body'}")
    slices = []
    for k, v in enumerate(outs[1 + n_carried:]):
        # The body's declared output type where it is static (a run-time slice of a known size),
        # else the converted value's type.
        t = imp._type_of(body.output[1 + n_carried + k].type, f"scan output {k}")
        if t is None or not t.has_static_shape or _join(t, v.type) is None:
            t = ir.RankedTensorType(v.type)
        if not t.has_static_shape:
            ctx.refuse(f"scan output {k} has the run-time shape {t} in the body: its slices must be static")
        slices.append(t)
    dyn = ir.ShapedType.get_dynamic_size()
    acc_types = [ir.RankedTensorType.get([dyn, *t.shape], t.element_type) for t in slices]
    accs = [tensor.cast(at, rt.const(ctx, np.zeros([0, *t.shape]), t.element_type))
            for at, t in zip(acc_types, slices)]
    op = scf.WhileOp([*types, *acc_types], [*inits, *accs])
    before = op.before.blocks.append(*types, *acc_types)
    with ir.InsertionPoint(before):
        keep = before.arguments[1]
        if trip is not None:
            keep = ge.and_(ge.less(before.arguments[0], trip), keep)
        scf.ConditionOp(_extract_bool(keep), list(before.arguments))
    after = op.after.blocks.append(*types, *acc_types)
    for old_arg, new_arg in zip(draft_body.arguments, after.arguments):
        old_arg.replace_all_uses_with(new_arg)
    # A body output that is one of its inputs is the real loop's block argument.
    outs = [after.arguments[ir.BlockArgument(v).arg_number] if isinstance(v.owner, ir.Block) and v.owner == draft_body
            else v for v in outs]
    for o in list(draft_body.operations):
        after.append(o)
    draft.operation.erase()
    with ir.InsertionPoint(after):
        args = list(after.arguments)
        step = ge.add(args[0], ctx.constant(np.array(1, np.int64)))
        new = [step, _fit(_scalar(outs[0]), t_i1, "the body's condition")]
        new += [_fit(v, t, f"loop-carried value {k}") for k, (v, t) in enumerate(zip(outs[1:1 + n_carried], types[2:]))]
        for k, (acc, s) in enumerate(zip(args[len(types):], outs[1 + n_carried:])):
            s = _fit(s, slices[k], f"scan output {k}")
            new.append(_fit(ge.concat([acc, ge.unsqueeze(s, [0])], 0), acc_types[k], f"scan output {k}"))
        scf.YieldOp(new)
    return list(op.results)[2:]


@converter("Scan", since=8, notes="unrolled over the static sequence length (opset 8: also over the batch); "
                                  "directions and axes of scan inputs and outputs")
def scan(ctx):
    body = _body(ctx, "body")
    imp = ctx.importer
    m = int(ctx.attr("num_scan_inputs"))
    if ctx.opset < 9:
        if ctx.has_input(0):
            ctx.refuse("sequence_lens is not supported (every sequence must have the full length)")
        first = 1
    else:
        first = 0
    ins = [ctx.input(i) for i in range(first, len(ctx.node.input))]
    n_state = len(ins) - m
    k_out = len(body.output) - n_state
    if n_state < 0 or k_out < 0 or len(body.input) != n_state + m:
        ctx.invalid(f"the body has {len(body.input)} inputs and {len(body.output)} outputs for {n_state} "
                    f"states and {m} scan inputs")
    in_axes = list(ctx.attr("scan_input_axes", [0] * m)) if ctx.opset >= 9 else [0] * m
    in_dirs = list(ctx.attr("scan_input_directions" if ctx.opset >= 9 else "directions", [0] * m))
    out_axes = list(ctx.attr("scan_output_axes", [0] * k_out)) if ctx.opset >= 9 else [0] * k_out
    out_dirs = list(ctx.attr("scan_output_directions", [0] * k_out)) if ctx.opset >= 9 else [0] * k_out
    states, scans = ins[:n_state], ins[n_state:]
    if ctx.opset < 9:
        # Opset 8: a leading batch axis on every input and output; each batch runs on its own.
        batch = ir.RankedTensorType(scans[0].type).shape[0] if scans else ir.RankedTensorType(states[0].type).shape[0]
        if batch < 0:
            ctx.refuse("a dynamic batch size is not supported")
        per_batch = [_run_scan(ctx, imp, body, [_take(s, b, 0) for s in states], [_take(x, b, 0) for x in scans],
                               [0] * m, in_dirs, [0] * k_out, out_dirs, n_state, f"{ctx.name}/b{b}")
                     for b in range(batch)]
        return [_stack([outs[j] for outs in per_batch], 0) for j in range(n_state + k_out)]
    return _run_scan(ctx, imp, body, states, scans, in_axes, in_dirs, out_axes, out_dirs, n_state, ctx.name)


def _take(x: ir.Value, index: int, axis: int) -> ir.Value:
    """``x[..., index, ...]`` along ``axis`` (the axis removed)."""
    return ge.gather(x, ge.constant(ir.DenseElementsAttr.get(np.array(index, np.int64))), axis=axis)


def _stack(values: list[ir.Value], axis: int) -> ir.Value:
    parts = [ge.unsqueeze(v, [axis]) for v in values]
    return parts[0] if len(parts) == 1 else ge.concat(parts, axis)


def _run_scan(ctx, imp, body, states, scans, in_axes, in_dirs, out_axes, out_dirs, n_state, scope):
    axes = [_norm_axis(ctx, int(a), ir.RankedTensorType(x.type).rank, "scan_input_axes")
            for a, x in zip(in_axes, scans)]
    lengths = {ir.RankedTensorType(x.type).shape[a] for x, a in zip(scans, axes)}
    if len(lengths) != 1 or min(lengths) < 0:
        ctx.refuse(f"the scan inputs need one static sequence length, got {sorted(lengths)}")
    steps = lengths.pop()
    if steps == 0:
        ctx.refuse("an empty sequence (length 0) is not supported")
    collected: list[list[ir.Value]] = []
    for t in range(steps):
        slices = [_take(x, steps - 1 - t if d else t, a) for x, a, d in zip(scans, axes, in_dirs)]
        outs = imp.convert_subgraph(body, [*states, *slices], f"{scope}/t{t}")
        states = outs[:n_state]
        collected.append(outs[n_state:])
    results = list(states)
    for j, (axis, d) in enumerate(zip(out_axes, out_dirs)):
        seq = [c[j] for c in collected]
        if d:
            seq = seq[::-1]
        rank = ir.RankedTensorType(seq[0].type).rank + 1
        results.append(_stack(seq, _norm_axis(ctx, int(axis), rank, "scan_output_axes")))
    return results
