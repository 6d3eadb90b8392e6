"""ge-transform-layout: choose a data format per op, insert and cancel ``trans_data``.

Graphs arrive in the framework's layout (NCHW for ONNX). A target may compute
the layout-sensitive ops (convolutions, pools, batch norm) better in another
format; the Ascend target, for instance, prefers channel-last tiles. The pass
assigns a format to every op of each function, then rewrites the function so
that a ``ge.trans_data`` sits exactly on the edges whose producer and
consumer disagree:

1. *Insert*: layout-sensitive ops (option ``ops``) are computed in ``format``
   (their ``data_format`` attribute changes, their 4-D results are permuted).
2. *Propagate*: a layout-agnostic elementwise op whose 4-D operands all come
   from ops computed in ``format`` (constants do not count: they are
   re-laid-out at compile time) is computed in ``format`` too, so a
   conv -> relu -> pool chain needs no conversion between its ops.
3. *Cancel*: conversions are made once per value and edge direction; an
   existing ``trans_data`` whose input is the inverse ``trans_data`` (pairs
   the graph already had, or that pinned formats create) is removed.

Formats can be pinned: ``input-format`` / ``output-format`` (config
``layout.inputFormat`` / ``layout.outputFormat``) declare the layout the
caller uses for the function's 4-D arguments / results, so the signature
changes and the conversions at the boundary disappear when the adjacent ops
compute in that format. ``forbid-trans-data`` (config
``layout.forbidTransData``) lists ``producer:consumer`` op pairs (e.g.
``ge.conv2d:ge.relu``) that must not be separated by a ``trans_data``: the
ops that caused such a conversion are left in the original format, and the
assignment is redone until none remains. A connected region of fewer than
``min-region-ops`` ops also stays in the imported format: converting a lone
convolution costs two conversions and saves nothing.

Statistics: ``ops-converted`` (layout-sensitive ops moved to ``format``),
``ops-propagated`` (agnostic ops computed in ``format``),
``trans-data-inserted`` (conversions created), ``trans-data-avoided`` (the
conversions a per-op insertion would have needed, two per converted op and
operand, minus those inserted), ``trans-data-removed`` (inverse pairs
cancelled) and ``constants-relaid`` (constants re-laid-out with numpy).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np
from mlir import ir
from mlir.rewrite import PatternRewriter, RewritePatternSet

from ..dialects import ge
from ..irutils.attrs import attr_enum
from ..passes.registry import Option, Pass, PassFailure, register_pass
from ..irutils.constants import constant_array, constant_op, make_constant
from ..irutils.patterns import apply_without_folding, defining_op, pattern

#: Ops with a ``data_format`` attribute the pass can move to another format.
SENSITIVE = ("conv2d", "conv_transpose2d", "max_pool2d", "avg_pool2d", "global_avg_pool",
             "global_max_pool", "batch_norm")
#: Elementwise ops whose value does not depend on the layout of their 4-D operands.
AGNOSTIC = frozenset({
    "ge.relu", "ge.leaky_relu", "ge.sigmoid", "ge.tanh", "ge.gelu", "ge.silu", "ge.hard_sigmoid",
    "ge.hard_swish", "ge.clip", "ge.abs", "ge.neg", "ge.exp", "ge.log", "ge.sqrt", "ge.rsqrt",
    "ge.reciprocal", "ge.erf", "ge.floor", "ge.ceil", "ge.round", "ge.sign", "ge.softplus",
    "ge.sin", "ge.cos", "ge.cast", "ge.identity", "ge.add", "ge.sub", "ge.mul", "ge.div",
    "ge.max", "ge.min", "ge.pow",
})
#: Permutation from NCHW to each supported compute format.
PERMS: dict[str, tuple[int, ...]] = {"NCHW": (0, 1, 2, 3), "NHWC": (0, 2, 3, 1)}


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argsort(perm))


def _ranked4(v: ir.Value) -> ir.RankedTensorType | None:
    try:
        t = ir.RankedTensorType(v.type)
    except (ValueError, TypeError):
        return None
    return t if t.rank == 4 else None


def _permuted(t: ir.RankedTensorType, perm: tuple[int, ...]) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([t.shape[p] for p in perm], t.element_type)


def _format_attr(name: str) -> ir.Attribute:
    return ir.Attribute.parse(f"#ge.format<{name}>")


def _format_of(op: ir.Operation) -> str:
    return attr_enum(op, "data_format", "NCHW")


def _trans_formats(op: ir.Operation) -> tuple[str, str] | None:
    if op.name != "ge.trans_data" or "original_shape" in op.attributes:
        return None
    return attr_enum(op, "src_format", ""), attr_enum(op, "dst_format", "")


def make_cancel_pattern(owner: Pass):
    @pattern
    def cancel_inverse_pair(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        """trans_data(B -> A)(trans_data(A -> B)(x)) -> x."""
        outer = op.operation
        inner = defining_op(outer.operands[0])
        fo = _trans_formats(outer)
        fi = _trans_formats(inner) if inner is not None else None
        if fo is None or fi is None or fo != (fi[1], fi[0]) or inner.operands[0].type != outer.results[0].type:
            return False
        rewriter.replace_op(outer, [inner.operands[0]])
        owner.bump("trans-data-removed")
        owner.bump("rewrites")
        return True

    return cancel_inverse_pair


class _Plan:
    """The format assignment of one function: op -> computes in the target format."""

    def __init__(self, block: ir.Block, sensitive: set[str], fmt: str, in_pinned: bool, excluded: set[int]):
        self.fmt = fmt
        self.ops = [op.operation for op in block.operations]
        self.index = {self._key(op): i for i, op in enumerate(self.ops)}
        self.target: set[int] = set()
        self.arg_target = in_pinned
        for i, op in enumerate(self.ops):
            if i in excluded:
                continue
            if op.name in sensitive and _format_of(op) == "NCHW" and _ranked4(op.operands[0]) is not None or op.name in AGNOSTIC and self._propagates(op):
                self.target.add(i)

    @staticmethod
    def _key(op: ir.Operation) -> int:
        return hash(op)

    def producer(self, v: ir.Value) -> int | None:
        """Index of v's producer in the block, -1 for a block argument."""
        op = defining_op(v)
        if op is None:
            return -1
        return self.index.get(self._key(op))

    def in_target(self, v: ir.Value) -> bool:
        p = self.producer(v)
        return self.arg_target if p == -1 else p is not None and p in self.target

    def _propagates(self, op: ir.Operation) -> bool:
        out = _ranked4(op.results[0]) if len(op.results) == 1 else None
        if out is None or not out.has_static_shape:
            return False
        seen = False
        for v in op.operands:
            if constant_op(v) is not None and constant_array(v) is not None:
                continue
            t = _ranked4(v)
            if t is None or list(t.shape) != list(out.shape) or not self.in_target(v):
                return False
            seen = True
        return seen

    def region_of(self, i: int) -> set[int]:
        """The target-format ops connected to op ``i`` through target-format edges."""
        todo, region = [i], set()
        while todo:
            j = todo.pop()
            if j in region or j not in self.target:
                continue
            region.add(j)
            for v in self.ops[j].operands:
                p = self.producer(v)
                if p is not None and p >= 0:
                    todo.append(p)
            for r in self.ops[j].results:
                for use in r.uses:
                    u = self.index.get(self._key(use.owner.operation if isinstance(use.owner, ir.OpView)
                                                  else use.owner))
                    if u is not None:
                        todo.append(u)
        return region


def _parse_pairs(items: Iterable[str]) -> set[tuple[str, str]]:
    pairs = set()
    for item in items:
        parts = [p.strip() for p in str(item).split(":")]
        if len(parts) != 2 or not all(p.startswith("ge.") for p in parts):
            raise PassFailure(f"forbid-trans-data entry '{item}' must be 'ge.<producer>:ge.<consumer>'")
        pairs.add((parts[0], parts[1]))
    return pairs


@register_pass
class GeTransformLayoutPass(Pass):
    name = "ge-transform-layout"
    summary = "Compute layout-sensitive ops in a target format; insert, propagate and cancel trans_data"
    description = __doc__
    stage = "before-lowering"
    priority = 10
    options = (
        Option("format", str, "NCHW", "compute format of the layout-sensitive ops (NCHW: keep, NHWC)"),
        Option("ops", list, list(SENSITIVE), "layout-sensitive ops moved to 'format'"),
        Option("input-format", str, "", "layout of the 4-D function arguments (empty: as imported)"),
        Option("output-format", str, "", "layout of the 4-D function results (empty: as imported)"),
        Option("forbid-trans-data", list, [], "producer:consumer op pairs no trans_data may separate"),
        Option("min-region-ops", int, 2,
               "connected regions of fewer ops stay in the imported format (the two conversions around "
               "a lone op cost more than they save)"),
        Option("max-iterations", int, 10, "greedy driver iteration limit for the cancellation"),
    )
    # Channel-last on Ascend: the vector unit then reads a pixel's channels as
    # one contiguous run. The CPU lowering computes convolutions in NCHW (it
    # would transpose NHWC back), so CPU keeps NCHW and only honours pins.
    target_options: ClassVar[dict[str, dict[str, Any]]] = {"ascendc": {"format": "NHWC"}}

    def _check_format(self, option: str, value: str, allow_empty: bool) -> str:
        if allow_empty and value in ("", "ND"):
            return "NCHW"
        if value not in PERMS:
            raise PassFailure(f"option '{option}': format '{value}' is not supported "
                              f"(supported: {', '.join(PERMS)})")
        return value

    def run(self, module: ir.Operation) -> None:
        for key in ("ops-converted", "ops-propagated", "trans-data-inserted", "trans-data-avoided",
                    "trans-data-removed", "constants-relaid", "rewrites"):
            self.statistics.setdefault(key, 0)
        fmt = self._check_format("format", self.opt("format"), False)
        in_fmt = self._check_format("input-format", self.opt("input-format"), True)
        out_fmt = self._check_format("output-format", self.opt("output-format"), True)
        unknown = set(self.opt("ops")) - set(SENSITIVE)
        if unknown:
            raise PassFailure(f"option 'ops': {', '.join(sorted(unknown))} cannot change format "
                              f"(layout-sensitive ops: {', '.join(SENSITIVE)})", at=module)
        sensitive = {"ge." + o for o in self.opt("ops")}
        forbidden = _parse_pairs(self.opt("forbid-trans-data"))
        for fn in module.regions[0].blocks[0].operations:
            if fn.operation.name == "func.func" and len(fn.regions[0].blocks) == 1:
                with fn.operation.location:
                    self._run_function(fn.operation, fmt, in_fmt, out_fmt, sensitive, forbidden)
        patterns = RewritePatternSet()
        patterns.add("ge.trans_data", make_cancel_pattern(self))
        apply_without_folding(self, patterns, module)

    # -- one function ------------------------------------------------------

    def _run_function(self, fn: ir.Operation, fmt: str, in_fmt: str, out_fmt: str,
                      sensitive: set[str], forbidden: set[tuple[str, str]]) -> None:
        block = fn.regions[0].blocks[0]
        if fmt == "NCHW" and in_fmt == "NCHW" and out_fmt == "NCHW":
            return
        excluded: set[int] = set()
        min_ops = self.opt("min-region-ops")
        while True:
            # With format NCHW only pinned boundaries change; nothing is "target".
            plan = _Plan(block, sensitive if fmt != "NCHW" else set(), fmt, in_fmt == fmt and fmt != "NCHW",
                         excluded)
            small = set()
            if not plan.arg_target:
                seen: set[int] = set()
                for i in sorted(plan.target):
                    if i in seen:
                        continue
                    region = plan.region_of(i)
                    seen |= region
                    if len(region) < min_ops:
                        small |= region
            if small:
                excluded |= small
                continue
            bad = self._forbidden_edge(plan, forbidden) if forbidden else None
            if bad is None:
                break
            region = plan.region_of(bad)
            if not region:
                break
            excluded |= region
        self._rewrite(fn, block, plan, fmt, in_fmt, out_fmt)

    def _forbidden_edge(self, plan: _Plan, forbidden: set[tuple[str, str]]) -> int | None:
        """A target-format op on a forbidden edge that needs a conversion, or None."""
        for i, op in enumerate(plan.ops):
            ci = i in plan.target
            for v in op.operands:
                p = plan.producer(v)
                if p is None or p < 0 or _ranked4(v) is None or constant_op(v) is not None:
                    continue
                if (plan.ops[p].name, op.name) in forbidden and (p in plan.target) != ci:
                    return p if p in plan.target else i
        return None

    def _rewrite(self, fn: ir.Operation, block: ir.Block, plan: _Plan, fmt: str, in_fmt: str,
                 out_fmt: str) -> None:
        perm = PERMS[fmt]
        # Value -> its layout now ("NCHW" unless produced in another format).
        layout: dict[ir.Value, str] = {}
        converted: dict[tuple[ir.Value, str], ir.Value] = {}
        counts = {"inserted": 0, "naive": 0, "changed": 0}

        if in_fmt != "NCHW":
            arg_types = []
            for arg in block.arguments:
                t = _ranked4(arg)
                if t is not None:
                    arg.set_type(_permuted(t, PERMS[in_fmt]))
                    layout[arg] = in_fmt
                arg_types.append(arg.type)
            self._set_function_type(fn, inputs=arg_types)

        def layout_of(v: ir.Value) -> str:
            return layout.get(v, "NCHW")

        def get(v: ir.Value, want: str, before: ir.Operation) -> ir.Value:
            have = layout_of(v)
            if have == want or _ranked4(v) is None:
                return v
            key = (v, want)
            if key in converted:
                return converted[key]
            t = ir.RankedTensorType(v.type)
            # Shape in NCHW, then in the wanted layout.
            nchw = _permuted(t, _inverse(PERMS[have]))
            new_t = _permuted(nchw, PERMS[want])
            if have == "NCHW" and constant_op(v) is not None and constant_array(v) is not None:
                out = relaid_constant(v, before, PERMS[want])
            else:
                with ir.InsertionPoint(before), before.location:
                    out = ge.TransDataOp(v, _format_attr(have), _format_attr(want), results=[new_t]).results[0]
                self.bump("trans-data-inserted")
                counts["inserted"] += 1
            layout[out] = want
            converted[key] = out
            return out

        def relaid_constant(v: ir.Value, before: ir.Operation, to: tuple[int, ...]) -> ir.Value:
            """An NCHW constant (broadcast ones right-aligned to rank 4) permuted by ``to``, with numpy."""
            arr = constant_array(v)
            t = ir.RankedTensorType(v.type)
            full = arr.reshape([1] * (4 - arr.ndim) + list(arr.shape))
            with ir.InsertionPoint(before), before.location:
                out = make_constant(np.transpose(full, to), t.element_type, "relaid", before.location)
            self.bump("constants-relaid")
            return out

        for i, op in enumerate(plan.ops):
            if op.name == "func.return":
                want = out_fmt
                for k, v in enumerate(op.operands):
                    op.operands[k] = get(v, want if _ranked4(v) is not None else "NCHW", op)
                continue
            if i in plan.target:
                is_sensitive = op.name not in AGNOSTIC
                for k, v in enumerate(op.operands):
                    if not is_sensitive and constant_op(v) is not None:
                        # Constants of a propagated elementwise op (_Plan made
                        # sure they are readable); scalars need no change.
                        t = ir.RankedTensorType(v.type)
                        if t.rank == 4 or (t.rank > 0 and any(d != 1 for d in t.shape)):
                            op.operands[k] = relaid_constant(v, op, perm)
                        continue
                    if _ranked4(v) is None:
                        continue
                    if is_sensitive and k == 1 and op.name.startswith("ge.conv"):
                        continue  # the filter stays OIHW
                    counts["naive"] += 1 if is_sensitive else 0
                    op.operands[k] = get(v, fmt, op)
                if is_sensitive:
                    op.attributes["data_format"] = _format_attr(fmt)
                    self.bump("ops-converted")
                    counts["naive"] += 1
                else:
                    self.bump("ops-propagated")
                counts["changed"] += 1
                for r in op.results:
                    t = _ranked4(r)
                    if t is not None:
                        r.set_type(_permuted(t, perm))
                        layout[r] = fmt
                continue
            for k, v in enumerate(op.operands):
                if _ranked4(v) is not None and layout_of(v) != "NCHW":
                    op.operands[k] = get(v, "NCHW", op)
        if out_fmt != "NCHW" or in_fmt != "NCHW":
            ret = plan.ops[-1]
            self._set_function_type(fn, results=[v.type for v in ret.operands])
        self.bump("trans-data-avoided", max(0, counts["naive"] - counts["inserted"]))
        self.bump("rewrites", counts["changed"] + counts["inserted"])

    @staticmethod
    def _set_function_type(fn: ir.Operation, inputs: list[ir.Type] | None = None,
                           results: list[ir.Type] | None = None) -> None:
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        new = ir.FunctionType.get(inputs if inputs is not None else list(ftype.inputs),
                                  results if results is not None else list(ftype.results))
        fn.attributes["function_type"] = ir.TypeAttr.get(new)
