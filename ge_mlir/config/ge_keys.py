"""The GE-style dotted keys of a ge-mlir config: one mapping table (:data:`GE_KEYS`).

Engineers who know CANN's Graph Engine write option files with dotted ``ge.*`` keys; ge-mlir
accepts such keys next to its own (:func:`ge_mlir.config.load_config`). Both spellings load the
same way: a top-level ``"ge.graphOptions.layoutOptimization": {...}`` and the nested
``"ge.graphOptions": {"layoutOptimization": {...}}`` reach the same table entry.

Where the keys come from, kept apart below:

* :data:`WALKTHROUGH_KEYS`: the nested JSON keys of the project's design source, a GE walkthrough
  (``ge.graphOptions``, ``ge.execGraphOptimization``, ``ge.exec.graphFusion``, ``ge.exec.memory``,
  ``ge.exec.recompute``, ``ge.exec.graphPartitioner``, the hybrid and pipeline parallelism keys...).
  They do not occur in CANN GE itself.
* :data:`GE_MLIR_KEYS`: ge-mlir's own key in that dotted style (``ge.exec.parallel``).

CANN GE's real option keys (flat string keys such as ``ge.exec.precision_mode``,
``ge.fusionSwitchFile``, ``ge.exec.disableReuseMemory``) are not in the table: a config naming
one fails as an unknown GE key, with a did-you-mean.

Every entry says what the key does in ge-mlir (``effect``, also the documentation in
``docs/config.md``) and applies it to the :class:`~ge_mlir.config.schema.Config` being built.
Keys whose capability does not exist yet are accepted, validated and listed in
``Config.inert_keys``; loading warns (``ConfigWarning``) naming each. These keys are applied
after ge-mlir's own keys, in table order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .schema import (
    DATA_FORMATS,
    MEMORY_REUSE_STRATEGIES,
    PRECISION_MODES,
    Checker,
    Config,
    ConfigError,
    PassConfig,
    did_you_mean,
    ge_op_names,
    kind_of,
    shown,
)

__all__ = ["GE_FUSIONS", "GE_KEYS", "GE_MLIR_KEYS", "GE_ROOTS", "WALKTHROUGH_KEYS", "GeKey", "apply_ge_keys",
           "is_ge_key", "unknown_ge_key"]

#: GE fusion names -> (ge-mlir pass, producer op it concerns or None for the whole pass).
GE_FUSIONS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "Conv-BatchNorm": (("ge-fuse-conv-bn", None),),
    "Conv-BN": (("ge-fuse-conv-bn", None),),
    # An add after a conv: a per-channel constant (bias) or a same-shape tensor (residual).
    "Conv-Add": (("ge-fuse-bias-add", "conv2d"), ("ge-fuse-conv-residual", None)),
    "MatMul-Add": (("ge-fuse-bias-add", "matmul"), ("ge-fuse-bias-add", "gemm")),
}
_BIAS_PRODUCERS = ("conv2d", "matmul", "gemm")

#: GE op kinds of ``insert_trans_scope`` -> the layout-sensitive ge ops ``ge-transform-layout`` moves.
_TRANS_SCOPES: dict[str, tuple[str, ...]] = {
    "Conv": ("conv2d", "conv_transpose2d"),
    "Pooling": ("max_pool2d", "avg_pool2d", "global_avg_pool", "global_max_pool"),
    "BatchNorm": ("batch_norm",),
    "MatMul": (),  # row-major (ND) in every ge-mlir target: nothing to move
}
#: GE ``ge.exec.atc.precision_mode`` spellings -> ge-mlir ``precisionMode``.
_ATC_PRECISION = {"allow_mixed_precision": "allow_mix_precision", "allow_mix_precision": "allow_mix_precision",
                  "force_fp16": "force_fp16", "must_keep_origin_dtype": "must_keep_origin_dtype",
                  "allow_fp32_to_fp16": "allow_fp16", "allow_fp16": "allow_fp16", "force_fp32": "FP32",
                  "FP32": "FP32"}
#: ``ge.execGraphOptimization.passes`` names -> ge-mlir passes (AutoFusion: every fusion pass).
_EXEC_PASSES: dict[str, tuple[str, ...]] = {
    "ConstantFolding": ("ge-fold-constants",),
    # Cast chains are one of the redundancies ge-eliminate-redundant removes.
    "CastOptimize": ("ge-eliminate-redundant",),
    "RedundantOpsElimination": ("ge-eliminate-redundant",),
    "AutoFusion": ("*fusion",),
}

_USE_DEGREES = "no effect: give tensor_parallel_degree and sharding rules (docs/parallel.md)"
_USE_BOUNDARIES = "no effect: give ge.exec.parallel.stage_boundaries (node names; docs/parallel.md)"


@dataclass(frozen=True)
class GeKey:
    """One GE key: its JSON type (for messages and docs), what it does, and how it applies."""

    key: str
    kind: str
    effect: str
    apply: Callable[[Config, Any, Checker, str], None]


def _inert(reason: str) -> Callable[[Config, Any, Checker, str], None]:
    def apply(cfg: Config, value: Any, ck: Checker, key: str) -> None:
        cfg.inert_keys.append(f"{key}: {reason}")
    return apply


# --- value checks ------------------------------------------------------------

def _bool(ck: Checker, key: str, v: Any) -> bool:
    return ck.boolean(key, v)


def _number(ck: Checker, key: str, v: Any, lo: float | None = None, hi: float | None = None,
            strict_lo: bool = False) -> float:
    ok = not isinstance(v, bool) and isinstance(v, (int, float))
    if ok and lo is not None:
        ok = v > lo if strict_lo else v >= lo
    if ok and hi is not None:
        ok = v <= hi
    if not ok:
        rng = "" if lo is None else (f" > {lo:g}" if strict_lo else f" >= {lo:g}") + ("" if hi is None else f" and <= {hi:g}")
        raise ck.fail(key, f"expected a number{rng}, got {shown(v)}")
    return v


def _str_list(ck: Checker, key: str, v: Any, example: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise ck.fail(key, f"expected a list of names such as {example}, got {shown(v)}")
    return list(v)


def _obj(ck: Checker, key: str, v: Any, example: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise ck.fail(key, f"expected an object such as {example}, got {kind_of(v)}")
    return v


def _ge_op(ck: Checker, key: str, name: Any) -> str:
    """An op kind (ge op name, ONNX or GE op type) as a ge op name."""
    ops = ge_op_names()
    if not isinstance(name, str) or not name:
        raise ck.fail(key, f"expected an op name such as \"Conv\" or \"ge.conv2d\", got {shown(name)}")
    if name in ops:
        return name
    from ..irutils.ge_ops import ONNX_OP_TO_GE

    known = ONNX_OP_TO_GE.get(name)
    if known:
        return known[0]
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
    if f"ge.{snake}" in ops:
        return f"ge.{snake}"
    raise ck.fail(key, f"unknown op '{name}'{did_you_mean(name, ops)}; expected a ge op name (ge.conv2d) or an "
                       f"ONNX/GE op type (Conv, Relu, MaxPool)")


# --- effects -------------------------------------------------------------------

def _pass(cfg: Config, name: str):
    return cfg.passes.setdefault(name, PassConfig())


def _set_fusion(cfg: Config, ck: Checker, key: str, name: Any, enable: bool) -> None:
    if isinstance(name, str) and name.startswith("ge-fuse-"):
        _pass(cfg, name).enabled = enable  # our own pass names work too (checked against the registry later)
        return
    if name not in GE_FUSIONS:
        valid = list(GE_FUSIONS)
        hint = did_you_mean(name, valid) if isinstance(name, str) else ""
        raise ck.fail(key, f"unknown fusion {shown(name)}{hint}; GE fusion names: {', '.join(valid)} "
                           f"(or a ge-mlir pass name ge-fuse-*)")
    for pass_name, producer in GE_FUSIONS[name]:
        pc = _pass(cfg, pass_name)
        if producer is None:
            pc.enabled = enable
            continue
        current = list(pc.options.get("producers", _BIAS_PRODUCERS))
        if enable and producer not in current:
            current.append(producer)
        elif not enable and producer in current:
            current.remove(producer)
        if current:
            pc.options["producers"] = current
            if enable:
                pc.enabled = True
        else:
            pc.options.pop("producers", None)
            pc.enabled = False


def _fusion_configs(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not isinstance(v, list):
        raise ck.fail(key, f'expected a list such as [{{"name": "Conv-BatchNorm", "enable": false}}], got {shown(v)}')
    for i, item in enumerate(v):
        item = ck.obj(f"{key}[{i}]", item, ("name", "enable"))
        if "name" not in item:
            raise ck.fail(f"{key}[{i}]", "missing 'name' (a GE fusion name such as \"Conv-BatchNorm\")")
        _set_fusion(cfg, ck, f"{key}[{i}].name", item["name"], _bool(ck, f"{key}[{i}].enable", item.get("enable", True)))


def _precision_sensitive(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    for i, name in enumerate(_str_list(ck, key, v, '["Conv-BN", "Conv-Add"]')):
        _set_fusion(cfg, ck, f"{key}[{i}]", name, False)


def _layout_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not _bool(ck, key, v):
        _pass(cfg, "ge-transform-layout").enabled = False


def _trans_scope(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    ops: list[str] = []
    for i, kind in enumerate(_str_list(ck, key, v, '["Conv", "Pooling"]')):
        if kind not in _TRANS_SCOPES:
            raise ck.fail(f"{key}[{i}]", f"unknown op kind '{kind}'{did_you_mean(kind, list(_TRANS_SCOPES))}; "
                                         f"valid: {', '.join(_TRANS_SCOPES)}")
        if not _TRANS_SCOPES[kind]:
            cfg.inert_keys.append(f"{key}[{i}]: {kind} has no effect (matmuls are row-major on every target)")
        ops += [o for o in _TRANS_SCOPES[kind] if o not in ops]
    _pass(cfg, "ge-transform-layout").options["ops"] = ops


def _formats(which: str) -> Callable[[Config, Any, Checker, str], None]:
    def apply(cfg: Config, v: Any, ck: Checker, key: str) -> None:
        m = _obj(ck, key, v, '{"input": "NCHW"}')
        fmts = {name: ck.choice(f"{key}.{name}", f, DATA_FORMATS) for name, f in m.items()}
        if len(set(fmts.values())) > 1:
            raise ck.fail(key, f"ge-mlir gives every 4-D {which} of a graph one layout; got {fmts} "
                               f"(write one format for all of them)")
        if fmts:
            setattr(cfg.layout, f"{which}_format", next(iter(fmts.values())))
    return apply


def _trans_op_type(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    ck.choice(key, v, ("TransData",))  # ge.trans_data is the one layout-change op


def _disable_trans_nodes(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not isinstance(v, list):
        raise ck.fail(key, f'expected a list such as [{{"from_op": "Conv", "to_op": "Relu"}}], got {shown(v)}')
    for i, item in enumerate(v):
        item = ck.obj(f"{key}[{i}]", item, ("from_op", "to_op"))
        if set(item) != {"from_op", "to_op"}:
            raise ck.fail(f"{key}[{i}]", "expected both 'from_op' and 'to_op'")
        pair = (_ge_op(ck, f"{key}[{i}].from_op", item["from_op"]), _ge_op(ck, f"{key}[{i}].to_op", item["to_op"]))
        if pair not in cfg.layout.forbid_trans_data:
            cfg.layout.forbid_trans_data.append(pair)


def _graph_fusion_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.graph_fusion = _bool(ck, key, v)


def _buffer_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not _bool(ck, key, v):
        cfg.inert_keys.append(f"{key}: false has no effect (ge-mlir always plans intermediate buffers into one arena)")


def _buffer_strategy(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    ck.choice(key, v, ("memory_reuse",))
    cfg.memory.reuse_strategy = cfg.memory.reuse_strategy or "aggressive"


def _data_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not _bool(ck, key, v):
        cfg.constant_folding.enabled = False
        _pass(cfg, "ge-transform-layout").enabled = False


def _data_folding(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.constant_folding.enabled = _bool(ck, key, v)


def _data_layout(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    _pass(cfg, "ge-transform-layout").enabled = _bool(ck, key, v)


def _exec_opt_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not _bool(ck, key, v):
        cfg.constant_folding.enabled = False
        _pass(cfg, "ge-eliminate-redundant").enabled = False
        cfg.graph_fusion = False


def _exec_opt_passes(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    names = _str_list(ck, key, v, '["ConstantFolding", "AutoFusion"]')
    for i, n in enumerate(names):
        if n not in _EXEC_PASSES:
            raise ck.fail(f"{key}[{i}]", f"unknown pass '{n}'{did_you_mean(n, list(_EXEC_PASSES))}; "
                                         f"valid: {', '.join(_EXEC_PASSES)}")
    chosen = {p for n in names for p in _EXEC_PASSES[n]}
    cfg.constant_folding.enabled = cfg.constant_folding.enabled and "ge-fold-constants" in chosen
    if "ge-eliminate-redundant" not in chosen:
        _pass(cfg, "ge-eliminate-redundant").enabled = False
    if "*fusion" not in chosen:
        cfg.graph_fusion = False


def _pass_order(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    ck.choice(key, v, ("sequential",))  # passes run one after another by stage and priority


def _precision_mode(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.precision_mode = ck.choice(key, v, PRECISION_MODES)


def _atc_precision(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.precision_mode = _ATC_PRECISION[ck.choice(key, v, tuple(_ATC_PRECISION))]


def _mixed_precision(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if _bool(ck, key, v):
        cfg.inert_keys.append(f"{key}: true has no effect (ge-mlir's fusions never change element types)")


def _fold_fp_mode(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.constant_folding.fp_mode = ck.choice(key, v, ("FP32", "origin"))


def _no_aggressive_folding(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if _bool(ck, key, v):
        cfg.constant_folding.aggressive = False


def _mem_estimation(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.memory.enable_memory_estimation = _bool(ck, key, v)


def _mem_budget(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.memory.budget_mb = None if v is None else _number(ck, key, v, 0, strict_lo=True)


def _mem_strategy(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.memory.reuse_strategy = ck.choice(key, v, MEMORY_REUSE_STRATEGIES)


def _recompute_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.recompute.enable = _bool(ck, key, v)


def _recompute_ops(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.recompute.checkpoint_ops = _str_list(ck, key, v, '["LayerNorm", "Softmax"]')


def _recompute_ratio(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.recompute.ratio = float(_number(ck, key, v, 0, 1))


def _partitioner_factor(field: str) -> Callable[[Config, Any, Checker, str], None]:
    def apply(cfg: Config, v: Any, ck: Checker, key: str) -> None:
        setattr(cfg.memory, field, float(_number(ck, key, v, 0, 1, strict_lo=True)))
    return apply


def _reserved(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    cfg.memory.reserved_mb = float(_number(ck, key, v, 0))


def _weight_factor(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    _number(ck, key, v, 0, 1, strict_lo=True)
    cfg.inert_keys.append(f"{key}: no effect yet (weights are not budgeted; the activation arena is)")


def _checked_inert(check: Callable[[Checker, str, Any], Any], reason: str) -> Callable[[Config, Any, Checker, str], None]:
    def apply(cfg: Config, v: Any, ck: Checker, key: str) -> None:
        check(ck, key, v)
        cfg.inert_keys.append(f"{key}: {reason}")
    return apply


def _any(ck: Checker, key: str, v: Any) -> Any:
    return v


def _int_degree(ck: Checker, key: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ck.fail(key, f"expected a positive integer, got {shown(v)}")
    return v


def _parallel_type(ck: Checker, key: str, v: Any) -> str:
    return ck.choice(key, v, ("hybrid", "data", "none"))


def _schedule(ck: Checker, key: str, v: Any) -> str:
    return ck.choice(key, v, ("gpipe", "1f1b", "interleaved"))


def _sharding(ck: Checker, key: str, v: Any) -> Any:
    if not isinstance(v, list):
        raise ck.fail(key, f'expected a list of {{"op_name_pattern", "strategy", "axis"}} rules, got {shown(v)}')
    for i, rule in enumerate(v):
        rule = ck.obj(f"{key}[{i}]", rule, ("op_name_pattern", "strategy", "axis"))
        if "op_name_pattern" in rule:
            try:
                re.compile(rule["op_name_pattern"])
            except (re.error, TypeError) as e:
                raise ck.fail(f"{key}[{i}].op_name_pattern", f"not a regular expression: {e}") from None
        if "strategy" in rule:
            ck.choice(f"{key}[{i}].strategy", rule["strategy"], ("replicated", "col", "row"))
    return v


def _parallel_field(field: str, check: Callable[[Checker, str, Any], Any]) -> Callable[[Config, Any, Checker, str], None]:
    def apply(cfg: Config, v: Any, ck: Checker, key: str) -> None:
        cfg.parallel[field] = check(ck, key, v)
        _validate_parallel(cfg, ck, key)
    return apply


def _pipeline_enable(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if not ck.boolean(key, v):
        cfg.parallel["pipeline_parallel"] = 1
        cfg.parallel.pop("num_microbatches", None)


def _parallelism_type(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    if _parallel_type(ck, key, v) == "none":
        cfg.parallel.clear()
        cfg.parallel["tensor_parallel"] = cfg.parallel["data_parallel"] = cfg.parallel["pipeline_parallel"] = 1


def _parallel_strategy(cfg: Config, v: Any, ck: Checker, key: str) -> None:
    _obj(ck, key, v, '{"tensor_parallel": 2}')
    cfg.parallel.update(v)
    _validate_parallel(cfg, ck, key)


def _validate_parallel(cfg: Config, ck: Checker, key: str) -> None:
    from .. import parallel_strategy as strategy

    try:
        strategy.parse_strategy(cfg.parallel)
    except strategy.StrategyError as e:
        raise ck.fail(key, e.message) from None


# --- the table -------------------------------------------------------------------

#: The walkthrough's graph, precision and memory keys (layout, fusion, folding, memory budget,
#: recompute, the partitioner's memory shares).
_WALKTHROUGH_GRAPH_KEYS: tuple[GeKey, ...] = (
    GeKey("ge.graphOptions.layoutOptimization.enable", "bool",
          "`false` leaves `ge-transform-layout` out (no format change, no TransData).", _layout_enable),
    GeKey("ge.graphOptions.layoutOptimization.insert_trans_scope", "list of op kinds",
          "The op kinds computed in the target's format (`ge-transform-layout` option `ops`): `Conv` (conv2d, "
          "conv_transpose2d), `Pooling` (max/avg/global pools), `BatchNorm`; `MatMul` is accepted and warned about "
          "(matmuls are row-major on every target).", _trans_scope),
    GeKey("ge.graphOptions.inputFormats", "object {input: format}",
          "The layout of the graph's 4-D inputs (`layout.inputFormat`); every input must name the same format.",
          _formats("input")),
    GeKey("ge.graphOptions.outputFormats", "object {output: format}",
          "The layout of the graph's 4-D outputs (`layout.outputFormat`); every output must name the same format.",
          _formats("output")),
    GeKey("ge.graphOptions.transOpType", '"TransData"',
          "Accepted as `TransData` (ge-mlir's one layout-change op is `ge.trans_data`); anything else is refused.",
          _trans_op_type),
    GeKey("ge.graphOptions.disableTransNodes", "list of {from_op, to_op}",
          "Op pairs no TransData may separate (`layout.forbidTransData`); ops by ONNX/GE type (`Conv`) or ge name.",
          _disable_trans_nodes),
    GeKey("ge.graphOptions.graphFusion.enable", "bool", "`false` switches every fusion pass off (`graphOptions.graphFusion`).",
          _graph_fusion_enable),
    GeKey("ge.graphOptions.graphFusion.fusion_configs", "list of {name, enable}",
          "Per-fusion switches by GE name: `Conv-BatchNorm`/`Conv-BN` (ge-fuse-conv-bn), `Conv-Add` (conv bias "
          "in ge-fuse-bias-add and ge-fuse-conv-residual), `MatMul-Add` (matmul/gemm bias in ge-fuse-bias-add); "
          "`ge-fuse-*` pass names work too.", _fusion_configs),
    GeKey("ge.graphOptions.bufferOptimize.enable", "bool",
          "`true` is what ge-mlir always does (one planned arena); `false` is accepted and warned about.", _buffer_enable),
    GeKey("ge.graphOptions.bufferOptimize.strategy", '"memory_reuse"',
          "Memory reuse by the planner (`aggressive` unless `ge.exec.memory.memory_reuse_strategy` says otherwise).",
          _buffer_strategy),
    GeKey("ge.graphOptions.dataOptimize.enable", "bool",
          "`false` switches constant folding and the layout transformation off.", _data_enable),
    GeKey("ge.graphOptions.dataOptimize.constantFolding", "bool", "`constantFolding.enabled`.", _data_folding),
    GeKey("ge.graphOptions.dataOptimize.layoutTransformation", "bool", "Runs `ge-transform-layout` or not.", _data_layout),
    GeKey("ge.execGraphOptimization.enable", "bool",
          "`false` switches constant folding, redundant-op elimination and every fusion off.", _exec_opt_enable),
    GeKey("ge.execGraphOptimization.passes", "list of pass kinds",
          "The graph optimizations that run; the others are off: `ConstantFolding` (ge-fold-constants), "
          "`CastOptimize` and `RedundantOpsElimination` (ge-eliminate-redundant, which removes cast chains too), "
          "`AutoFusion` (every fusion pass).", _exec_opt_passes),
    GeKey("ge.execGraphOptimization.pass_order", '"sequential"',
          "Accepted as `sequential` (passes run one after another, by stage and priority).", _pass_order),
    GeKey("ge.exec.graphFusion.enable", "bool", "As `ge.graphOptions.graphFusion.enable`.", _graph_fusion_enable),
    GeKey("ge.exec.graphFusion.precision_sensitive_fusion", "list of fusion names",
          "Fusions switched off for precision (GE names as in `fusion_configs`).", _precision_sensitive),
    GeKey("ge.exec.graphFusion.mixed_precision", "bool",
          "`false` is what ge-mlir does (fusions keep element types); `true` is accepted and warned about.",
          _mixed_precision),
    GeKey("ge.exec.graphFusion.precision_mode", "string", "`precisionMode` (e.g. `FP32`: precision-safe).",
          _precision_mode),
    GeKey("ge.exec.precision.constant_folding_fp_mode", '"FP32" | "origin"',
          "`FP32`: `ge-fold-constants` computes f16/bf16 subgraphs in f32 and rounds each result once "
          "(option `fp-mode=f32`); `origin`: in the tensors' own type.", _fold_fp_mode),
    GeKey("ge.exec.precision.disable_aggressive_folding", "bool",
          "`true`: fold only shape-like ops and integer arithmetic (`constantFolding.aggressive: false`).",
          _no_aggressive_folding),
    GeKey("ge.exec.atc.precision_mode", "string",
          "ATC's precision mode mapped onto `precisionMode` (`allow_mixed_precision` -> `allow_mix_precision`, "
          "`force_fp32` -> `FP32`, `allow_fp32_to_fp16` -> `allow_fp16`, the others as spelled).", _atc_precision),
    GeKey("ge.exec.memory.enable_memory_estimation", "bool",
          "Estimate memory on the optimized ge graph before lowering (compile option `memory_estimation`).",
          _mem_estimation),
    GeKey("ge.exec.memory.memory_budget_mb", "number > 0 or null",
          "Budget of the planned intermediates in MiB (compile option `memory_budget_mb`): a larger plan fails "
          "with `MemoryBudgetError`, or is rematerialized with `ge.exec.recompute.enable`.", _mem_budget),
    GeKey("ge.exec.memory.memory_reuse_strategy", "string",
          "How `ge-plan-memory` places buffers: `aggressive` (best of all), `greedy-by-size`, `greedy-by-breadth`, "
          "`best-fit`, `exact` (compile option `memory_reuse_strategy`).", _mem_strategy),
    GeKey("ge.exec.recompute.enable", "bool",
          "Under a budget, recompute cheap producers until the plan fits (compile option `recompute`).",
          _recompute_enable),
    GeKey("ge.exec.recompute.checkpoint_ops", "list of ONNX op types",
          "Op types rematerialization may recompute besides the cheap ones (compile option "
          "`recompute_checkpoint_ops`).", _recompute_ops),
    GeKey("ge.exec.recompute.recompute_ratio", "number 0..1",
          "The most FLOPs rematerialization may add, as a share of the graph's (compile option `recompute_ratio`).",
          _recompute_ratio),
    GeKey("ge.exec.recompute.priority", "any",
          "Accepted and warned about: its values are not documented where we could read them.",
          _inert("no effect (its values are not documented where we could read them)")),
    GeKey("ge.exec.graphPartitioner.activation_memory_factor", "number in (0, 1]",
          "Share of the device budget (`memory_budget_mb` minus `reserved_memory_mb`) the activation arena may "
          "use: the budget the plan is checked against.", _partitioner_factor("activation_factor")),
    GeKey("ge.exec.graphPartitioner.weight_memory_factor", "number in (0, 1]",
          "Accepted and warned about: weights are not budgeted yet.", _weight_factor),
    GeKey("ge.exec.graphPartitioner.reserved_memory_mb", "number >= 0",
          "MiB of the device budget kept aside before the activation share is taken.", _reserved),
)

#: ge-mlir's own dotted key: the whole parallel strategy in its own JSON form. Applied before the
#: walkthrough's parallel keys, which refine or switch off what it sets.
GE_MLIR_KEYS: tuple[GeKey, ...] = (
    GeKey("ge.exec.parallel", "object",
          "The parallel strategy (docs/parallel.md): degrees, sharding rules, pipeline stages and schedule; "
          "`ge_mlir.compile` partitions the model over MPI ranks.", _parallel_strategy),
)

#: The walkthrough's parallelism keys (hybrid degrees, sharding rules, pipeline settings).
_WALKTHROUGH_PARALLEL_KEYS: tuple[GeKey, ...] = (
    GeKey("model_parallelism", "object", "Validated as an object; `enable` and `split_dims` have no effect: "
          "give `tensor_parallel_degree` and `sharding` rules instead.",
          _checked_inert(lambda ck, k, v: _obj(ck, k, v, '{"enable": true}'), _USE_DEGREES)),
    GeKey("communication", "object", "Validated as an object; no effect: collectives run through MPI as the "
          "library chooses (`allreduce_mode`, `bucket_size_mb` are not used).",
          _checked_inert(lambda ck, k, v: _obj(ck, k, v, '{"allreduce_mode": "flat"}'),
                         "no effect: MPI chooses its collective algorithms")),
    GeKey("pipeline_parallelism.schedule", '"gpipe" | "1f1b" | "interleaved"', "The pipeline schedule.",
          _parallel_field("schedule", _schedule)),
    GeKey("pipeline_parallelism.num_stages", "integer >= 1", "Pipeline stages (= pipeline ranks).",
          _parallel_field("pipeline_parallel", _int_degree)),
    GeKey("pipeline_parallelism.num_microbatches", "integer >= 1", "Microbatches the batch is split into.",
          _parallel_field("num_microbatches", _int_degree)),
    GeKey("pipeline_parallelism.stage_assignment", "object",
          "Validated as an object; no effect: give `stage_boundaries` in `ge.exec.parallel` (node names).",
          _checked_inert(lambda ck, k, v: _obj(ck, k, v, '{"stage_0": ["layer1"]}'), _USE_BOUNDARIES)),
    GeKey("pipeline_parallelism.comm_buffer_mb", "number >= 0",
          "Validated; no effect: boundary buffers are sized by the tensors (the plan reports them).",
          _checked_inert(lambda ck, k, v: _number(ck, k, v, 0), "no effect: buffers are sized by the tensors")),
    GeKey("model_parallel_degree", "integer >= 1", "Tensor-parallel degree (as `tensor_parallel_degree`).",
          _parallel_field("tensor_parallel", _int_degree)),
    GeKey("tensor_parallel_degree", "integer >= 1", "Tensor-parallel degree.",
          _parallel_field("tensor_parallel", _int_degree)),
    GeKey("pipeline_parallel_degree", "integer >= 1", "Pipeline-parallel degree.",
          _parallel_field("pipeline_parallel", _int_degree)),
    GeKey("data_parallel_degree", "integer >= 1", "Data-parallel degree.",
          _parallel_field("data_parallel", _int_degree)),
    GeKey("sharding", "list of {op_name_pattern, strategy, axis}", "Tensor-parallel rules (`rules` of the "
          "strategy): regex on node and weight names, `col` | `row` | `replicated`.",
          _parallel_field("rules", _sharding)),
    # Switches last: applied in table order, they override the degrees given beside them.
    GeKey("pipeline_parallelism.enable", "bool", "`false` runs no pipeline (one stage).", _pipeline_enable),
    GeKey("parallelism_type", '"hybrid" | "data" | "none"', "`none` switches parallelism off; `data`/`hybrid` "
          "take the degrees given.", _parallelism_type),
)

#: The walkthrough's keys (never CANN GE's own; see the module doc).
WALKTHROUGH_KEYS: tuple[GeKey, ...] = _WALKTHROUGH_GRAPH_KEYS + _WALKTHROUGH_PARALLEL_KEYS
#: Dotted key -> entry: the one mapping table, in application order.
GE_KEYS: dict[str, GeKey] = {k.key: k for k in (*_WALKTHROUGH_GRAPH_KEYS, *GE_MLIR_KEYS, *_WALKTHROUGH_PARALLEL_KEYS)}
#: Every key prefix that is an object level of the table (``ge.graphOptions``, ``ge.exec``, ...).
_PREFIXES: frozenset[str] = frozenset(
    ".".join(k.split(".")[:i]) for k in GE_KEYS for i in range(1, len(k.split(".")))
)
#: The top-level names a GE key may start with (for messages).
GE_ROOTS: tuple[str, ...] = tuple(sorted({k.split(".")[0] if not k.startswith("ge.") else "ge." + k.split(".")[1]
                                          for k in GE_KEYS}))


def is_ge_key(key: str) -> bool:
    """Whether a top-level config key is a GE key (a table key, or a prefix of one)."""
    return key in GE_KEYS or key in _PREFIXES


def unknown_ge_key(key: str, source: str | None) -> ConfigError:
    """The error of a top-level ``ge.*`` key that is not in the table, listing the table's keys."""
    valid = sorted({*GE_KEYS, *_PREFIXES})
    return ConfigError(f"unknown GE key '{key}'{did_you_mean(key, valid)}; GE keys: {', '.join(valid)}",
                       key=key, source=source)


def _flatten(key: str, value: Any, ck: Checker, out: dict[str, Any]) -> None:
    if key in GE_KEYS:
        if key in out:
            raise ck.fail(key, "given twice (once dotted, once nested)")
        out[key] = value
        return
    if not isinstance(value, Mapping):
        raise ck.fail(key, f"expected an object, got {kind_of(value)}")
    for child, v in value.items():
        full = f"{key}.{child}"
        if not (full in GE_KEYS or full in _PREFIXES):
            valid = sorted({k[len(key) + 1:].split(".")[0] for k in (*GE_KEYS, *_PREFIXES) if k.startswith(key + ".")})
            raise ConfigError(f"unknown key '{child}' in '{key}'{did_you_mean(str(child), valid)}; "
                              f"valid keys: {', '.join(valid)}", key=full, source=ck.source)
        _flatten(full, v, ck, out)


def apply_ge_keys(cfg: Config, top: Mapping[str, Any], ck: Checker) -> None:
    """Applies every GE key of the top-level object ``top`` to ``cfg`` (table order)."""
    flat: dict[str, Any] = {}
    for key, value in top.items():
        if is_ge_key(key):
            _flatten(key, value, ck, flat)
    for entry in GE_KEYS.values():
        if entry.key in flat:
            entry.apply(cfg, flat[entry.key], ck, entry.key)
