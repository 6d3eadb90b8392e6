"""GE option files (``../shared/GE_WORKFLOW.md`` keys) load as they are and change what they say."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.config import CompileOptions, ConfigError, ConfigWarning, load_config, resolve_options
from ge_mlir.config.ge_keys import GE_FUSIONS, GE_KEYS
from ge_mlir.optimize.default_pipeline import default_pipeline

DOCS = Path(__file__).resolve().parents[3] / "docs" / "config.md"


def _load(data: dict, tmp_path: Path):
    """Through a file, as a GE user hands one over."""
    path = tmp_path / "ge_options.json"
    path.write_text(json.dumps(data))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConfigWarning)
        return load_config(str(path))


def _conv_bn_relu() -> bytes:
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "w"),
             numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b")]
    for n in ("scale", "bias", "mean"):
        inits.append(numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), n))
    inits.append(numpy_helper.from_array(rng.random(8).astype(np.float32) + 0.5, "var"))
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
             helper.make_node("BatchNormalization", ["c", "scale", "bias", "mean", "var"], ["n"], name="bn"),
             helper.make_node("Relu", ["n"], ["y"], name="relu")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def _ops(text: str) -> list[str]:
    return re.findall(r"= (ge\.[a-z_0-9]+)", text)


# --- every key is documented and loads --------------------------------------

def test_every_ge_key_is_documented():
    text = DOCS.read_text()
    missing = [k for k in GE_KEYS if f"| `{k}` |" not in text]
    assert not missing, f"GE keys missing from docs/config.md: {missing}"


def test_dotted_and_nested_forms_are_the_same(tmp_path):
    dotted = _load({"ge.graphOptions.layoutOptimization.enable": False}, tmp_path)
    nested = _load({"ge.graphOptions": {"layoutOptimization": {"enable": False}}}, tmp_path)
    assert dotted.passes["ge-transform-layout"].enabled is False
    assert dotted.to_dict() == nested.to_dict()
    with pytest.raises(ConfigError, match="given twice"):
        load_config({"ge.graphOptions.layoutOptimization.enable": False,
                     "ge.graphOptions": {"layoutOptimization": {"enable": True}}})


@pytest.mark.parametrize("data, key", [
    ({"ge.graphOptions": {"layoutOptimisation": {}}}, "ge.graphOptions.layoutOptimisation"),
    ({"ge.exec.memry": {}}, "ge.exec.memry"),
    ({"ge.graphOptions": {"graphFusion": {"fusion_configs": [{"name": "Conv-Bn"}]}}},
     "ge.graphOptions.graphFusion.fusion_configs[0].name"),
    ({"ge.graphOptions.inputFormats": {"a": "NCHW", "b": "NHWC"}}, "ge.graphOptions.inputFormats"),
    ({"ge.graphOptions.transOpType": "Cast"}, "ge.graphOptions.transOpType"),
    ({"ge.graphOptions.disableTransNodes": [{"from_op": "Convv", "to_op": "Relu"}]},
     "ge.graphOptions.disableTransNodes[0].from_op"),
    ({"ge.execGraphOptimization": {"passes": ["ConstFolding"]}}, "ge.execGraphOptimization.passes[0]"),
    ({"ge.exec.precision": {"constant_folding_fp_mode": "FP64"}}, "ge.exec.precision.constant_folding_fp_mode"),
    ({"ge.exec.atc": {"precision_mode": "fp32"}}, "ge.exec.atc.precision_mode"),
    ({"ge.exec.graphPartitioner": {"activation_memory_factor": 1.5}},
     "ge.exec.graphPartitioner.activation_memory_factor"),
    ({"pipeline_parallelism": {"schedule": "zigzag"}}, "pipeline_parallelism.schedule"),
    ({"sharding": [{"op_name_pattern": "q_proj(", "strategy": "col"}]}, "sharding[0].op_name_pattern"),
])
def test_bad_ge_keys_name_the_key(data, key):
    with pytest.raises(ConfigError) as info:
        load_config(data)
    assert info.value.key == key


# --- layout ------------------------------------------------------------------

def test_layout_family(tmp_path):
    cfg = _load({"ge.graphOptions.layoutOptimization": {"enable": True, "insert_trans_scope": ["Conv", "Pooling"]},
                 "ge.graphOptions.inputFormats": {"x": "NHWC"}, "ge.graphOptions.outputFormats": {"y": "NHWC"},
                 "ge.graphOptions.transOpType": "TransData",
                 "ge.graphOptions.disableTransNodes": [{"from_op": "Conv", "to_op": "Relu"}]}, tmp_path)
    layout = next(p for p in default_pipeline("cpu", cfg).passes if p.name == "ge-transform-layout")
    assert layout.options["ops"][:2] == ["conv2d", "conv_transpose2d"] and "max_pool2d" in layout.options["ops"]
    assert layout.options["input-format"] == "NHWC" and layout.options["forbid-trans-data"] == ["ge.conv2d:ge.relu"]
    # The compiled signature takes and gives NHWC.
    m = ge_mlir.compile(_conv_bn_relu(), options={"config": cfg})
    assert m.inputs[0].shape == (1, 8, 8, 3) and m.outputs[0].shape == (1, 8, 8, 8)


def test_matmul_trans_scope_warns():
    with pytest.warns(ConfigWarning, match=r"insert_trans_scope\[0\]: MatMul has no effect"):
        load_config({"ge.graphOptions.layoutOptimization": {"insert_trans_scope": ["MatMul"]}})


# --- graph optimization, nested form ----------------------------------------

def test_fusion_configs_switch_passes_and_the_graph(tmp_path):
    on = ge_mlir.compile(_conv_bn_relu(), compile_to="ge")  # not optimized: the imported ops
    assert "ge.batch_norm" in _ops(on.ir("ge"))
    fused = ge_mlir.compile(_conv_bn_relu(), compile_to="optimized")
    assert "ge.batch_norm" not in _ops(fused.ir("optimized"))
    cfg = _load({"ge.graphOptions": {"graphFusion": {"enable": True, "fusion_configs": [
        {"name": "Conv-BatchNorm", "enable": False}, {"name": "MatMul-Add", "enable": False}]}}}, tmp_path)
    assert cfg.passes["ge-fuse-conv-bn"].enabled is False
    assert cfg.passes["ge-fuse-bias-add"].options["producers"] == ["conv2d"]
    kept = ge_mlir.compile(_conv_bn_relu(), compile_to="optimized", options={"config": cfg})
    assert "ge.batch_norm" in _ops(kept.ir("optimized"))
    off = _load({"ge.graphOptions": {"graphFusion": {"enable": False}}}, tmp_path)
    assert "ge-fuse-activation" in default_pipeline("cpu", off).disabled


def test_every_ge_fusion_name_maps_to_registered_passes():
    from ge_mlir.passes.registry import list_passes

    names = {cls.name for cls in list_passes()}
    for fusion, targets in GE_FUSIONS.items():
        assert all(p in names for p, _ in targets), fusion


def test_buffer_and_data_optimize(tmp_path):
    cfg = _load({"ge.graphOptions": {"bufferOptimize": {"enable": True, "strategy": "memory_reuse"},
                                     "dataOptimize": {"enable": True, "constantFolding": False,
                                                      "layoutTransformation": False}}}, tmp_path)
    pipe = default_pipeline("cpu", cfg)
    assert "ge-fold-constants" in pipe.disabled and "ge-transform-layout" in pipe.disabled
    assert cfg.memory.reuse_strategy == "aggressive"
    with pytest.warns(ConfigWarning, match="bufferOptimize.enable: false has no effect"):
        load_config({"ge.graphOptions": {"bufferOptimize": {"enable": False}}})


def test_exec_graph_optimization_passes(tmp_path):
    cfg = _load({"ge.execGraphOptimization": {"enable": True, "passes": ["ConstantFolding", "CastOptimize"],
                                              "pass_order": "sequential"}}, tmp_path)
    pipe = default_pipeline("cpu", cfg)
    assert "ge-fold-constants" in pipe.names and "ge-eliminate-redundant" in pipe.names
    assert "ge-fuse-conv-bn" in pipe.disabled  # AutoFusion not listed
    off = default_pipeline("cpu", _load({"ge.execGraphOptimization": {"enable": False}}, tmp_path))
    assert {"ge-fold-constants", "ge-eliminate-redundant", "ge-fuse-conv-bn"} <= set(off.disabled)


# --- precision-safe compilation ---------------------------------------------

def test_precision_sensitive_fusion_and_modes(tmp_path):
    cfg = _load({"ge.exec.graphFusion": {"enable": True, "precision_sensitive_fusion": ["Conv-BN", "Conv-Add"],
                                         "mixed_precision": False, "precision_mode": "FP32"},
                 "ge.exec.precision": {"disable_aggressive_folding": True}}, tmp_path)
    assert cfg.passes["ge-fuse-conv-bn"].enabled is False and cfg.passes["ge-fuse-conv-residual"].enabled is False
    assert cfg.passes["ge-fuse-bias-add"].options["producers"] == ["matmul", "gemm"]
    assert cfg.precision_mode == "FP32" and cfg.constant_folding.aggressive is False
    kept = ge_mlir.compile(_conv_bn_relu(), compile_to="optimized", options={"config": cfg})
    assert "ge.batch_norm" in _ops(kept.ir("optimized"))
    assert _load({"ge.exec.atc": {"precision_mode": "allow_mixed_precision"}}, tmp_path).precision_mode == \
        "allow_mix_precision"
    with pytest.warns(ConfigWarning, match="mixed_precision: true has no effect"):
        load_config({"ge.exec.graphFusion": {"mixed_precision": True}})


def _f16_chain() -> bytes:
    """y = x * 0 + (((1 + 4e-4) + 4e-4) + 4e-4), all f16: the constant chain folds."""
    one = numpy_helper.from_array(np.ones(2, np.float16), "one")
    eps = numpy_helper.from_array(np.full(2, 4e-4, np.float16), "eps")
    nodes = [helper.make_node("Add", ["one", "eps"], ["a"]), helper.make_node("Add", ["a", "eps"], ["b"]),
             helper.make_node("Add", ["b", "eps"], ["c"]), helper.make_node("Add", ["x", "c"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2])], [one, eps])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_constant_folding_fp_mode_fp32(tmp_path):
    x = np.zeros(2, np.float16)
    (per_op,) = ge_mlir.compile(_f16_chain())(x)
    cfg = _load({"ge.exec.precision": {"constant_folding_fp_mode": "FP32"}}, tmp_path)
    (once,) = ge_mlir.compile(_f16_chain(), options={"config": cfg})(x)
    # f16 rounding after each add leaves 1; f32 then one rounding gives the f16 nearest 1.0012.
    assert per_op.tolist() == [1.0, 1.0]
    assert once.tolist() == [float(np.float16(1.0012))] * 2 == [1.0 + 2**-10] * 2


# --- memory and recompute ----------------------------------------------------

def test_memory_family_fills_compile_options(tmp_path):
    cfg = _load({"ge.exec.memory": {"enable_memory_estimation": True, "memory_budget_mb": 110,
                                    "memory_reuse_strategy": "best-fit"},
                 "ge.exec.recompute": {"enable": True, "checkpoint_ops": ["Softmax"], "recompute_ratio": 0.5},
                 "ge.exec.graphPartitioner": {"activation_memory_factor": 0.5, "reserved_memory_mb": 10}},
                tmp_path)
    got = resolve_options(CompileOptions(config=cfg))
    assert got.memory_budget_mb == 50  # (110 - 10) * 0.5: the activation share of the device budget
    assert (got.memory_reuse_strategy, got.recompute, tuple(got.recompute_checkpoint_ops), got.recompute_ratio,
            got.memory_estimation) == ("best-fit", True, ("Softmax",), 0.5, True)
    with pytest.raises(ConfigError, match="leaves no memory for activations"):
        resolve_options({"config": {"ge.exec.memory": {"memory_budget_mb": 8},
                                    "ge.exec.graphPartitioner": {"reserved_memory_mb": 8}}})
    with pytest.warns(ConfigWarning, match="weight_memory_factor: no effect yet"):
        load_config({"ge.exec.graphPartitioner": {"weight_memory_factor": 0.3}})


# --- parallel strategies: GE keys set the strategy; the ones ge-mlir cannot honour warn ----

@pytest.mark.parametrize("data, named", [
    ({"model_parallelism": {"enable": True, "device_mesh": [0, 1], "strategy": "column_parallel_linear",
                            "split_dims": {"fc1": 2}}}, "model_parallelism"),
    ({"communication": {"allreduce_mode": "hierarchical", "bucket_size_mb": 25}}, "communication"),
    ({"pipeline_parallelism": {"stage_assignment": {"stage_0": ["l0"], "stage_1": ["l1"]}}},
     "pipeline_parallelism.stage_assignment"),
])
def test_parallel_keys_without_effect_warn_naming_the_key(data, named):
    with pytest.warns(ConfigWarning, match=re.escape(named) + ".*no effect"):
        cfg = load_config(data)
    assert any(k.startswith(named) for k in cfg.inert_keys)


def test_ge_parallel_keys_set_the_strategy():
    from ge_mlir.partition import parse_strategy

    cfg = load_config({"parallelism_type": "hybrid", "model_parallel_degree": 2, "pipeline_parallel_degree": 2,
                       "data_parallel_degree": 1,
                       "sharding": [{"op_name_pattern": "q_proj|k_proj|v_proj", "strategy": "col", "axis": 1}],
                       "pipeline_parallelism": {"enable": True, "num_microbatches": 4, "schedule": "1f1b"}})
    s = parse_strategy(cfg.parallel)
    assert (s.tensor_parallel, s.pipeline_parallel, s.data_parallel, s.num_microbatches) == (2, 2, 1, 4)
    assert s.schedule == "1f1b" and s.rules[0].strategy == "col" and s.rules[0].axis == 1
    assert load_config(cfg.to_dict()).parallel == cfg.parallel
    assert parse_strategy(load_config({"ge.exec.parallel": {"data_parallel": 2}}).parallel).data_parallel == 2


def test_parallel_switches_override_the_degrees_beside_them():
    from ge_mlir.partition import parse_strategy

    off = load_config({"pipeline_parallelism": {"enable": False, "num_stages": 2, "num_microbatches": 4}})
    assert parse_strategy(off.parallel).pipeline_parallel == 1
    none = load_config({"parallelism_type": "none", "tensor_parallel_degree": 2})
    assert not parse_strategy(none.parallel).is_parallel


@pytest.mark.parametrize("data, key, why", [
    ({"ge.exec.parallel": {"tensor_parallel": 0}}, "ge.exec.parallel", "tensor_parallel"),
    ({"ge.exec.parallel": {"schedule": "zigzag"}}, "ge.exec.parallel", "unknown schedule"),
    ({"sharding": [{"op_name_pattern": "(", "strategy": "col"}]}, "sharding", "regular expression"),
    ({"pipeline_parallelism": {"schedule": "zigzag"}}, "pipeline_parallelism.schedule", "zigzag"),
])
def test_bad_parallel_keys_are_refused_with_the_key(data, key, why):
    with pytest.raises(ConfigError, match=why) as e:
        load_config(data)
    assert e.value.key.startswith(key)
