"""ge-partition-tensor: tensor (model) parallelism, Megatron style, through shard annotations.

Linear layers are ``ge.matmul``/``ge.gemm`` ops whose weight is a 2-D constant.
Each gets a strategy: ``col`` splits the weight's output features over the
tensor axis of ``@ge_grid`` (each rank computes a slice of the outputs),
``row`` its input features (each rank computes a partial product; one
``shard.all_reduce`` sums them), ``replicated`` keeps it whole. Strategies come
from the rules (``col=``/``row=``/``replicated=`` regular expressions, matched
against the op's ONNX node names and the names of its weights), else, with
``auto``, from the data flow: a linear layer whose input is whole is column
parallel, one whose input is already split is row parallel. A column-parallel
``Q|K|V`` projection split afterwards into its parts is first split into one
matmul per part, so that each part is split by heads (head-parallel attention).

The pass annotates the weights (``shard.shard``), the inputs (replicated) and
the outputs (replicated: a split output is all-gathered), then runs upstream
``sharding-propagation`` and ``shard-partition`` over the ge ops. With
``partition=false`` it only annotates (``ge-partition-data`` then partitions
both splits at once).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np
from mlir import ir

from ..dialects import ge
from ..errors import PassFailure
from ..irutils.constants import constant_array, make_constant
from ..irutils.locations import location_names
from ..passes.registry import Option, Pass, register_pass
from . import sharding as sh
from ..parallel_strategy import ParallelWarning

_RESOURCE = re.compile(r"dense_resource<([^>]+)>")


def op_names(op: ir.Operation) -> list[str]:
    """What a rule's pattern is matched against: the op's node names (its location) and the
    names of its constant operands (weights keep their framework names, e.g. ``fc1.weight``)."""
    names = location_names(op.location)
    for v in op.operands:
        d = v.owner
        if getattr(d, "name", None) == "ge.constant":
            m = _RESOURCE.search(str(d.attributes["value"]))
            if m:
                names.append(m.group(1))
    return names


def weight_operand(op: ir.Operation) -> int | None:
    """Index of the 2-D constant weight of a linear layer (None: not a linear layer)."""
    idx = 1  # matmul's rhs, gemm's B
    if op.name not in ("ge.matmul", "ge.gemm") or len(op.operands) <= idx:
        return None
    v = op.operands[idx]
    d = v.owner
    if getattr(d, "name", None) != "ge.constant":
        return None
    return idx if ir.RankedTensorType(v.type).rank == 2 else None


def _gemm_trans_b(op: ir.Operation) -> bool:
    return op.name == "ge.gemm" and "trans_b" in op.attributes and ir.BoolAttr(op.attributes["trans_b"]).value


def split_qkv(op: ir.Operation) -> bool:
    """A column-parallel matmul whose only user splits its features (a fused Q|K|V projection)
    becomes one matmul per part on slices of the weight and bias; True when rewritten."""
    if op.name != "ge.matmul" or len(list(op.result.uses)) != 1:
        return False
    user = next(iter(op.result.uses)).owner
    if user.name != "ge.split":
        return False
    rank = ir.RankedTensorType(op.result.type).rank
    axis = ir.IntegerAttr(user.attributes["axis"]).value
    if axis not in (rank - 1, -1):
        return False
    w = constant_array(op.operands[1])
    bias = constant_array(op.operands[2]) if len(op.operands) > 2 else None
    if w is None or (len(op.operands) > 2 and (bias is None or bias.ndim != 1)):
        return False
    sizes = list(ir.DenseI64ArrayAttr(user.attributes["split_sizes"]))
    wtype = ir.RankedTensorType(op.operands[1].type)
    with ir.InsertionPoint(op), op.location:
        start = 0
        for i, size in enumerate(sizes):
            part_w = make_constant(np.ascontiguousarray(w[:, start:start + size]), wtype.element_type,
                                   f"{op_names(op)[0] if op_names(op) else 'w'}.part{i}", op.location)
            operands = [op.operands[0], part_w]
            if bias is not None:
                operands.append(make_constant(np.ascontiguousarray(bias[start:start + size]),
                                              wtype.element_type, f"bias.part{i}", op.location))
            rtype = user.results[i].type
            new = ge.MatMulOp(operands[0], operands[1], bias=operands[2] if bias is not None else None,
                              results=[rtype], loc=op.location)
            for a in (op.attributes[i] for i in range(len(op.attributes))):
                new.operation.attributes[a.name] = a.attr  # activation and any tag the op carries
            user.results[i].replace_all_uses_with(new.result)
            start += size
    user.erase()
    op.erase()
    return True


@dataclass(frozen=True)
class _Rule:
    kind: str
    regex: re.Pattern[str]
    axis: int | None


@register_pass
class GePartitionTensorPass(Pass):
    name = "ge-partition-tensor"
    summary = "Split linear layers column/row-parallel over @ge_tensor (Megatron style)"
    description = __doc__ or ""
    stage = "partition"
    targets = ()
    options = (
        Option("degree", int, 2, "devices on the tensor axis"),
        Option("col", str, "", "regex: linear layers split column-parallel (output features)"),
        Option("row", str, "", "regex: linear layers split row-parallel (input features, then all-reduce)"),
        Option("replicated", str, "", "regex: linear layers kept whole on every device"),
        Option("rules", str, "", 'JSON list of {"op_name_pattern", "strategy", "axis"} rules (the strategy\'s '
               '"rules"; checked before col/row/replicated)'),
        Option("auto", bool, True, "pair column/row-parallel layers by data flow where no rule applies"),
        Option("partition", bool, True, "run sharding-propagation and shard-partition after annotating"),
        Option("warn-unmatched", bool, True, "warn about a rule that matches no linear layer"),
    )

    def run(self, module: ir.Operation) -> None:
        degree = self.opt("degree")
        if degree < 1:
            raise PassFailure(f"degree must be >= 1, got {degree}")
        rules = self._rules()
        with module.context, ir.Location.unknown():
            for fn in sh.functions(module):
                for op in sh.body(fn).operations:
                    if op.operation.name in ("shard.send", "shard.recv"):
                        raise PassFailure("the graph is already cut into pipeline stages: run "
                                          "ge-partition-tensor before ge-partition-pipeline", at=op)
            sh.ensure_grid(module, sh.TENSOR_GRID, degree)
            matched: set[int] = set()
            for fn in sh.functions(module):
                self._function(fn, degree, rules, matched)
            for i, r in enumerate(rules):
                if i not in matched and self.opt("warn-unmatched"):
                    warnings.warn(f"ge-partition-tensor: rule {r.kind}={r.regex.pattern!r} matches no linear layer",
                                  ParallelWarning, stacklevel=2)
            if self.opt("partition"):
                sh.partition_module(module)

    def _rules(self) -> list[_Rule]:
        out = []
        if self.opt("rules"):
            import json

            try:
                raw = json.loads(self.opt("rules"))
                for r in raw:
                    out.append(_Rule(r["strategy"], re.compile(r["op_name_pattern"]), r.get("axis")))
            except (ValueError, TypeError, KeyError, re.error) as e:
                raise PassFailure(f"option rules: expected a JSON list of {{op_name_pattern, strategy, axis}}: "
                                  f"{e}") from None
            for r in out:
                if r.kind not in ("col", "row", "replicated"):
                    raise PassFailure(f"option rules: unknown strategy {r.kind!r} (col, row, replicated)")
        for kind in ("col", "row", "replicated"):
            if self.opt(kind):
                try:
                    out.append(_Rule(kind, re.compile(self.opt(kind)), None))
                except re.error as e:
                    raise PassFailure(f"option {kind}: not a regular expression: {e}") from None
        return out

    def strategies(self, fn: ir.Operation, rules: list[_Rule],
                   matched: set[int] | None = None) -> list[tuple[ir.Operation, str]]:
        """Each linear layer of ``fn`` with its strategy, in program order."""
        return [(op, strategy) for op, strategy, _ in self.plan(fn, rules, matched)]

    def plan(self, fn: ir.Operation, rules: list[_Rule],
             matched: set[int] | None = None) -> list[tuple[ir.Operation, str, int | None]]:
        """Each linear layer of ``fn`` with its strategy and the weight axis a rule gave."""
        split: set[ir.Value] = set()
        out = []
        for op in sh.body(fn).operations:
            op = op.operation
            w = weight_operand(op)
            if w is not None:
                names = op_names(op)
                hit = next((i for i, r in enumerate(rules) if any(r.regex.search(n) for n in names)), None)
                strategy, axis = (rules[hit].kind, rules[hit].axis) if hit is not None else (None, None)
                if hit is not None and matched is not None:
                    matched.add(hit)
                if strategy is None and self.opt("auto"):
                    strategy = "row" if op.operands[0] in split else "col"
                if strategy is not None:
                    out.append((op, strategy, axis))
                if strategy == "col" or (strategy in (None, "replicated") and op.operands[0] in split):
                    split.add(op.result)
                continue
            if op.name in ("ge.layer_norm", "ge.rms_norm") or op.name.startswith("ge.reduce"):
                continue
            if any(v in split for v in op.operands):
                for r in op.results:
                    split.add(r)
        return out

    def _function(self, fn: ir.Operation, degree: int, rules: list[_Rule], matched: set[int]) -> None:
        for op, strategy in self.strategies(fn, rules, matched):
            if strategy == "col" and split_qkv(op):
                self.bump("qkv-split")
        if degree == 1:
            return
        plan = [(op, strategy, axis, weight_operand(op)) for op, strategy, axis in self.plan(fn, rules)]
        sh.replicate_constants(fn, sh.TENSOR_GRID)
        for op, strategy, axis, idx in plan:
            self.bump(strategy)  # counted once: plan() runs again after the Q|K|V split
            if strategy == "replicated":
                continue
            w = op.operands[idx]
            wt = ir.RankedTensorType(w.type)
            # Output features are the weight's last dim (first with gemm trans_b); a rule's
            # axis names the weight dimension itself.
            out_dim = 0 if _gemm_trans_b(op) else 1
            dim = out_dim if strategy == "col" else 1 - out_dim
            if axis is not None:
                if axis not in (-2, -1, 0, 1):
                    raise PassFailure(f"rule axis {axis} is not a dimension of the 2-D weight", at=op)
                dim = axis % 2
            size = wt.shape[dim]
            if size % degree:
                raise PassFailure(f"a {strategy} split of weight dimension {dim} (size {size}) over {degree} "
                                  f"devices is not even", at=op)
            split = [[], []]
            split[dim] = [0]
            with ir.InsertionPoint(op), op.location:
                s = sh.make_sharding(sh.TENSOR_GRID, split, op.location)
                sh.annotate(w, s, for_users=True, loc=op.location, uses=[(op, idx)])
            self.bump("rewrites")
        _replicate_boundary(fn)


def _replicate_boundary(fn: ir.Operation) -> None:
    """Inputs and outputs whole on every device (split outputs are all-gathered)."""
    blk = sh.body(fn)
    sh.annotate_arguments(fn, sh.TENSOR_GRID, [[]])
    ret = list(blk.operations)[-1]
    with ir.InsertionPoint(ret), ret.location:
        for i, v in enumerate(list(ret.operands)):
            if ir.RankedTensorType(v.type).rank == 0:
                continue
            s = sh.make_sharding(sh.TENSOR_GRID, [[]], ret.location)
            sh.annotate(v, s, for_users=True, loc=ret.location, uses=[(ret, i)])
