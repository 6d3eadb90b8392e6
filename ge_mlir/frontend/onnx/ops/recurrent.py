"""Recurrent ONNX ops (RNN, GRU, LSTM), unrolled over static sequences."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from . import _runtime as rt
from ..registry import converter
from ._shapes import _is_float, _reshape, _scalar, _shape_of


_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
_DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
_ACTS = {"Sigmoid": ge.sigmoid, "Tanh": ge.tanh, "Relu": ge.relu}


@converter("RNN", "GRU", "LSTM", since=7,
           notes="static shapes, unrolled over the sequence (one matmul per step and direction); forward, "
           "reverse and bidirectional; layout 0/1; initial states, peepholes, clip, linear_before_reset; "
           "sequence_lens for forward only; Sigmoid/Tanh/Relu activations")
def recurrent(ctx):
    kind = ctx.op_type
    g = _GATES[kind]
    xs = ctx.shape(0)
    if len(xs) != 3 or any(d < 0 for d in xs):
        ctx.refuse(f"{kind} needs a static 3-D X, got {ctx.input_type(0)}")
    elem = ctx.elem(0)
    if not _is_float(elem):
        ctx.refuse(f"X must be a float tensor, got {ctx.input_type(0)}")
    layout = int(ctx.attr("layout", 0))
    x = ctx.input(0)
    if layout == 1:
        x = ge.transpose(x, [1, 0, 2])
    t_len, b, i_size = _shape_of(x)
    hidden = int(ctx.attr("hidden_size", 0) or 0)
    direction = ctx.attr("direction", "forward")
    dirs = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}.get(direction)
    if dirs is None or hidden <= 0:
        ctx.invalid(f"direction {direction!r} / hidden_size {hidden} are not valid")
    nd = len(dirs)
    if ctx.shape(1) != [nd, g * hidden, i_size] or ctx.shape(2) != [nd, g * hidden, hidden]:
        ctx.invalid(f"W {ctx.shape(1)} / R {ctx.shape(2)} do not match {nd} direction(s) x {g} gates x {hidden}")
    acts = ctx.attr("activations", None)
    per_dir = len(_DEFAULT_ACTS[kind])
    acts = [a.decode() if isinstance(a, bytes) else a for a in acts] if acts else _DEFAULT_ACTS[kind] * nd
    if len(acts) != per_dir * nd or any(a not in _ACTS for a in acts):
        ctx.refuse(f"activations {acts} are not supported (Sigmoid, Tanh, Relu; {per_dir} per direction)")
    if ctx.attr("activation_alpha", None) or ctx.attr("activation_beta", None):
        ctx.refuse("activation_alpha/activation_beta are not supported")
    if kind == "LSTM" and int(ctx.attr("input_forget", 0)):
        ctx.refuse("input_forget=1 (coupled input and forget gates) is not supported")
    clip = ctx.attr("clip", None)
    lbr = int(ctx.attr("linear_before_reset", 0)) if kind == "GRU" else 0
    lens = ctx.input(4) if ctx.has_input(4) else None
    if lens is not None and any(dirs):
        c = ctx.const(4)
        if c is None or not np.all(np.asarray(c) == t_len):
            ctx.refuse("sequence_lens shorter than the sequence are supported for the forward direction only")
        lens = None

    def state(i: int) -> list[ir.Value | None]:
        if not ctx.has_input(i):
            return [None] * nd
        v = ctx.input(i)
        if layout == 1:
            v = ge.transpose(v, [1, 0, 2])
        return [_reshape(ge.gather(v, rt.i64_const(ctx, d), axis=0), [b, hidden]) for d in range(nd)]

    h0s, c0s = state(5), state(6) if kind == "LSTM" else [None] * nd
    zeros = lambda: _scalar(0.0, elem, ctx)  # noqa: E731
    if lens is not None:
        lens_b = _reshape(rt.as_i64(lens), [b, 1])
    ys, hs, cs = [], [], []
    for d, reverse in enumerate(dirs):
        f, gact = _ACTS[acts[d * per_dir]], _ACTS[acts[d * per_dir + min(1, per_dir - 1)]]
        hact = _ACTS[acts[d * per_dir + 2]] if kind == "LSTM" else None
        pick = lambda i: ge.gather(ctx.input(i), rt.i64_const(ctx, d), axis=0)  # noqa: E731
        w_t = ge.transpose(pick(1), [1, 0])  # [I, g*H]
        r_t = ge.transpose(pick(2), [1, 0])  # [H, g*H]
        xw = ge.matmul(x, w_t)  # [T, B, g*H]
        rb = None
        if ctx.has_input(3):
            bias = pick(3)
            wb = ge.slice(bias, [0], [g * hidden])
            rb = ge.slice(bias, [g * hidden], [2 * g * hidden])
            xw = ge.add(xw, wb)
        peep = None
        if kind == "LSTM" and ctx.has_input(7):
            p = pick(7)
            peep = [ge.slice(p, [k * hidden], [(k + 1) * hidden]) for k in range(3)]  # i, o, f
        zero_state = lambda: ge.constant(ir.DenseElementsAttr.get_splat(  # noqa: E731
            ir.RankedTensorType.get([b, hidden], elem), ir.FloatAttr.get(elem, 0.0)))
        h = h0s[d] if h0s[d] is not None else zero_state()
        cst = c0s[d] if c0s[d] is not None or kind != "LSTM" else zero_state()
        steps = list(range(t_len))[::-1] if reverse else list(range(t_len))
        outs: dict[int, ir.Value] = {}
        for t in steps:
            xt = _reshape(ge.gather(xw, rt.i64_const(ctx, t), axis=0), [b, g * hidden])

            def gate(v: ir.Value, k: int) -> ir.Value:
                return ge.slice(v, [k * hidden], [(k + 1) * hidden], axes=[1])

            def pre(v: ir.Value) -> ir.Value:
                if clip is None:
                    return v
                return ge.clip(v, min=ir.FloatAttr.get(ir.F64Type.get(), -float(clip)),
                               max=ir.FloatAttr.get(ir.F64Type.get(), float(clip)))

            if kind == "GRU":
                rb_z = rb_r = rb_h = None
                if rb is not None:
                    rb_z, rb_r, rb_h = (ge.slice(rb, [k * hidden], [(k + 1) * hidden]) for k in range(3))
                r_z, r_r, r_h = (ge.slice(r_t, [k * hidden], [(k + 1) * hidden], axes=[1]) for k in range(3))
                addb = lambda v, bb: v if bb is None else ge.add(v, bb)  # noqa: E731
                z = f(pre(ge.add(gate(xt, 0), addb(ge.matmul(h, r_z), rb_z))))
                r = f(pre(ge.add(gate(xt, 1), addb(ge.matmul(h, r_r), rb_r))))
                if lbr:
                    hh = gact(pre(ge.add(gate(xt, 2), ge.mul(r, addb(ge.matmul(h, r_h), rb_h)))))
                else:
                    hh = gact(pre(ge.add(gate(xt, 2), addb(ge.matmul(ge.mul(r, h), r_h), rb_h))))
                one = _scalar(1.0, elem, ctx)
                new_h = ge.add(ge.mul(ge.sub(one, z), hh), ge.mul(z, h))
                new_c = None
            else:
                hr = ge.matmul(h, r_t)
                if rb is not None:
                    hr = ge.add(hr, rb)
                a = ge.add(xt, hr)
                if kind == "RNN":
                    new_h, new_c = f(pre(a)), None
                else:
                    ai, ao, af, ac = (gate(a, k) for k in range(4))
                    if peep is not None:
                        ai, af = ge.add(ai, ge.mul(peep[0], cst)), ge.add(af, ge.mul(peep[2], cst))
                    it, ft, ct = f(pre(ai)), f(pre(af)), gact(pre(ac))
                    new_c = ge.add(ge.mul(ft, cst), ge.mul(it, ct))
                    if peep is not None:
                        ao = ge.add(ao, ge.mul(peep[1], new_c))
                    new_h = ge.mul(f(pre(ao)), hact(new_c))
            if lens is not None:
                active = ge.less(rt.i64_const(ctx, t), lens_b)  # [B, 1]: this step is inside the sequence
                new_h = ge.where(active, new_h, h)
                if new_c is not None:
                    new_c = ge.where(active, new_c, cst)
                outs[t] = ge.where(active, new_h, zeros())
            else:
                outs[t] = new_h
            h = new_h
            if new_c is not None:
                cst = new_c
        ys.append(ge.concat([_reshape(outs[t], [1, 1, b, hidden]) for t in range(t_len)], 0))
        hs.append(_reshape(h, [1, b, hidden]))
        if kind == "LSTM":
            cs.append(_reshape(cst, [1, b, hidden]))
    y = ys[0] if nd == 1 else ge.concat(ys, 1)  # [T, nd, B, H]
    y_h = hs[0] if nd == 1 else ge.concat(hs, 0)  # [nd, B, H]
    y_c = (cs[0] if nd == 1 else ge.concat(cs, 0)) if kind == "LSTM" else None
    if layout == 1:
        y = ge.transpose(y, [2, 0, 1, 3])
        y_h = ge.transpose(y_h, [1, 0, 2])
        y_c = ge.transpose(y_c, [1, 0, 2]) if y_c is not None else None
    outs_all = [y if ctx.output_used(0) else None, y_h if ctx.output_used(1) else None]
    if kind == "LSTM":
        outs_all.append(y_c if ctx.output_used(2) else None)
    return outs_all[:max(1, ctx.num_outputs)]
