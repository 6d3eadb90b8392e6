"""The neural-network converters of the ONNX importer (ge_mlir/frontend/onnx/ops/{conv,pool,
normalization,linear_algebra,softmax,resize,grid_sample,recurrent,dft}.py).

Every model of test/Frontend/onnx/Inputs/nn_models.py is imported in-process
and checked for

(a) result types: the function's result types equal the shapes and element
    types onnxruntime produces when it runs the model on random inputs;
(b) the ge ops emitted (in order, constants left out) and, for the
    conversions that compute attributes (auto_pad, output_shape, legacy
    Resize, ...), those attributes;

or, for the models the importer must refuse, for the refusal and its reason.

Numerics are not compared: there is no CPU backend to run the ge IR yet.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

from ge_mlir.errors import InvalidModelError, UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx, supported_ops
from ge_mlir.frontend.onnx.registry import lookup

ort = pytest.importorskip("onnxruntime")

_PATH = Path(__file__).resolve().parents[2] / "Frontend" / "onnx" / "Inputs" / "nn_models.py"
_spec = importlib.util.spec_from_file_location("nn_models", _PATH)
nn_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nn_models)

_CONV1D = ["ge.unsqueeze", "ge.unsqueeze", "ge.conv2d", "ge.squeeze"]
_GN_HEAD = ["ge.reshape", "ge.reduce_mean", "ge.sub", "ge.mul", "ge.reduce_mean", "ge.add", "ge.rsqrt", "ge.mul"]
_MVN = ["ge.reduce_mean", "ge.mul", "ge.reduce_mean", "ge.mul", "ge.sub", "ge.sqrt", "ge.sub", "ge.add", "ge.div"]

#: model -> the ge ops of its function body, in order (ge.constant left out).
_GRID_DIM = ["ge.gather", "ge.add", "ge.mul", "ge.sub", "ge.div", "ge.round", "ge.cast", "ge.greater_equal",
             "ge.less", "ge.and", "ge.where", "ge.max", "ge.min"]
EXPECTED_OPS: dict[str, list[str]] = {
    "det_2x2": ["ge.gather"] * 6 + ["ge.mul", "ge.mul", "ge.sub"],
    "maxpool3d": ["ge.reshape", "ge.max_pool2d", "ge.reshape", "ge.max_pool2d", "ge.reshape"],
    "matmulinteger": ["ge.cast", "ge.cast", "ge.matmul"],
    "dft_rfft": ["ge.gather", "ge.cast", "ge.matmul", "ge.matmul", "ge.neg", "ge.cast", "ge.unsqueeze", "ge.cast",
                 "ge.unsqueeze", "ge.concat"],
    "rnn_two_steps": ["ge.gather", "ge.transpose", "ge.gather", "ge.transpose", "ge.matmul",
                      "ge.gather", "ge.matmul", "ge.add", "ge.tanh", "ge.gather", "ge.matmul", "ge.add", "ge.tanh",
                      "ge.reshape", "ge.reshape", "ge.concat", "ge.reshape"],
    # per spatial dim: coordinate, rounding, zeros-padding weight, clamped index; then one gather
    "grid_sample_nearest": ["ge.reshape", *_GRID_DIM, *_GRID_DIM, "ge.reshape", "ge.mul", "ge.add", "ge.mul",
                            "ge.reshape", "ge.expand", "ge.gather_elements", "ge.reshape", "ge.mul", "ge.reshape"],
    "conv_bias": ["ge.conv2d"],
    "conv_group_dilation": ["ge.conv2d"],
    "conv_same_upper": ["ge.conv2d"],
    "conv_same_lower": ["ge.conv2d"],
    "conv_valid": ["ge.conv2d"],
    "conv_weight_input": ["ge.conv2d"],
    "conv1d": _CONV1D,
    "conv1d_same_upper": _CONV1D,
    "convtranspose_pads": ["ge.conv_transpose2d"],
    "convtranspose_output_shape": ["ge.conv_transpose2d"],
    "convtranspose_same_upper": ["ge.conv_transpose2d"],
    "convtranspose1d_group": ["ge.unsqueeze", "ge.unsqueeze", "ge.conv_transpose2d", "ge.squeeze"],
    "maxpool_2d": ["ge.max_pool2d"],
    "maxpool_ceil_dilation": ["ge.max_pool2d"],
    "maxpool_ceil_pad_end": ["ge.max_pool2d"],
    "maxpool_same_upper": ["ge.max_pool2d"],
    "maxpool_1d": ["ge.unsqueeze", "ge.max_pool2d", "ge.squeeze"],
    "maxpool_int8": ["ge.max_pool2d"],
    "maxpool_indices_unused": ["ge.max_pool2d"],
    "avgpool_count_include_pad": ["ge.avg_pool2d"],
    "avgpool_ceil_dilation": ["ge.avg_pool2d"],
    "avgpool_same_upper_ceil": ["ge.avg_pool2d"],
    "avgpool_1d_same_lower": ["ge.unsqueeze", "ge.avg_pool2d", "ge.squeeze"],
    "avgpool_opset7": ["ge.avg_pool2d"],
    "globalavgpool": ["ge.global_avg_pool"],
    "globalmaxpool_1d": ["ge.global_max_pool"],
    "bn": ["ge.batch_norm"],
    "bn_mixed_types": ["ge.batch_norm"],
    "bn_opset9_2d": ["ge.batch_norm"],
    "instnorm": ["ge.instance_norm"],
    "instnorm_1d": ["ge.instance_norm"],
    "layernorm": ["ge.layer_norm"],
    "layernorm_axis1_nobias": ["ge.layer_norm"],
    "layernorm_f16": ["ge.cast", "ge.layer_norm", "ge.cast"],
    "nll_loss_weight_ignore": ["ge.equal", "ge.where", "ge.where", "ge.unsqueeze", "ge.gather_elements",
                               "ge.squeeze", "ge.gather", "ge.mul", "ge.mul", "ge.neg", "ge.reduce_sum",
                               "ge.reduce_sum", "ge.div"],
    "softmax_cross_entropy_log_prob": ["ge.log_softmax", "ge.unsqueeze", "ge.gather_elements", "ge.squeeze",
                                       "ge.neg", "ge.reduce_sum"],
    "layernorm_mean_used": ["ge.reduce_mean", "ge.sub", "ge.mul", "ge.reduce_mean", "ge.add", "ge.rsqrt", "ge.mul", "ge.mul"],
    "groupnorm18": _GN_HEAD + ["ge.reshape", "ge.reshape", "ge.mul", "ge.add", "ge.reshape"],
    "groupnorm21": _GN_HEAD + ["ge.reshape", "ge.reshape", "ge.mul", "ge.reshape", "ge.add"],
    "lpnorm_l2": ["ge.reduce_l2", "ge.equal", "ge.where", "ge.div"],
    "lpnorm_l1": ["ge.abs", "ge.reduce_sum", "ge.equal", "ge.where", "ge.div"],
    "mvn": _MVN,
    "mvn_axes": _MVN,
    "rmsnorm": ["ge.rms_norm"],
    "rmsnorm_axis1": ["ge.rms_norm"],
    "matmul_2d": ["ge.matmul"],
    "matmul_broadcast": ["ge.matmul"],
    "matmul_vector": ["ge.matmul"],
    "matmul_int32": ["ge.matmul"],
    "gemm_bias": ["ge.gemm"],
    "gemm_no_c": ["ge.gemm"],
    "gemm_opset9": ["ge.gemm"],
    "einsum_bmm": ["ge.matmul"],
    "einsum_attention": ["ge.transpose", "ge.matmul"],
    "einsum_mm": ["ge.matmul"],
    "einsum_dot": ["ge.reshape", "ge.reshape", "ge.matmul", "ge.reshape"],
    "einsum_outer_transposed": ["ge.reshape", "ge.reshape", "ge.matmul", "ge.transpose"],
    "einsum_ellipsis": ["ge.matmul"],
    "einsum_implicit": ["ge.matmul", "ge.transpose"],
    "einsum_transpose_sum": ["ge.reduce_sum", "ge.transpose"],
    "einsum_multi_contract": ["ge.reshape", "ge.reshape", "ge.matmul"],
    "einsum_batch_broadcast": ["ge.matmul"],
    "softmax_opset11_axis1": ["ge.flatten", "ge.softmax", "ge.reshape"],
    "softmax_opset13_axis1": ["ge.softmax"],
    "softmax_opset11_default": ["ge.softmax"],
    "logsoftmax_opset11_last": ["ge.log_softmax"],
    "logsoftmax_opset13": ["ge.log_softmax"],
    "hardmax_opset11": ["ge.flatten", "ge.argmax", "ge.one_hot", "ge.reshape"],
    "hardmax_opset13": ["ge.argmax", "ge.one_hot"],
    "resize10_nearest": ["ge.resize"],
    "resize10_linear_down": ["ge.resize"],
    "resize10_nearest_down": ["ge.resize"],
    "resize11_sizes_align_corners": ["ge.resize"],
    "resize13_cubic": ["ge.resize"],
    "resize13_nearest_ceil": ["ge.resize"],
    "resize13_uint8_pytorch": ["ge.resize"],
    "resize18_axes_aspect": ["ge.resize"],
    "resize18_antialias_up": ["ge.resize"],
    "resize19_half_pixel_symmetric": ["ge.resize"],
    "upsample7_nearest": ["ge.resize"],
    "upsample9_linear": ["ge.resize"],
}

#: model -> {op: {attribute: printed value}} for attributes the converter computes.
EXPECTED_ATTRS: dict[str, dict[str, dict[str, str]]] = {
    "conv_same_upper": {"ge.conv2d": {"pads": "array<i64: 1, 0, 1, 1>", "strides": "array<i64: 2, 2>"}},
    "conv_same_lower": {"ge.conv2d": {"pads": "array<i64: 2, 2, 1, 1>"}},
    "conv_valid": {"ge.conv2d": {"pads": "array<i64: 0, 0, 0, 0>"}},
    "conv_group_dilation": {"ge.conv2d": {"groups": "2 : i64", "dilations": "array<i64: 2, 2>",
                                          "pads": "array<i64: 0, 1, 2, 1>"}},
    "conv1d": {"ge.conv2d": {"pads": "array<i64: 0, 1, 0, 0>", "strides": "array<i64: 1, 2>"}},
    "conv1d_same_upper": {"ge.conv2d": {"pads": "array<i64: 0, 1, 0, 2>", "groups": "2 : i64"}},
    "convtranspose_output_shape": {"ge.conv_transpose2d": {"pads": "array<i64: 1, 1, 0, 1>"}},
    "convtranspose_same_upper": {"ge.conv_transpose2d": {"pads": "array<i64: 0, 0, 1, 1>"}},
    "convtranspose_pads": {"ge.conv_transpose2d": {"output_padding": "array<i64: 1, 1>"}},
    "convtranspose1d_group": {"ge.conv_transpose2d": {"pads": "array<i64: 0, 1, 0, 2>", "strides": "array<i64: 1, 3>",
                                                      "dilations": "array<i64: 1, 2>", "groups": "2 : i64"}},
    "maxpool_same_upper": {"ge.max_pool2d": {"pads": "array<i64: 0, 1, 1, 1>"}},
    "maxpool_ceil_dilation": {"ge.max_pool2d": {"ceil_mode": "true", "dilations": "array<i64: 2, 2>"}},
    "maxpool_1d": {"ge.max_pool2d": {"kernel_shape": "array<i64: 1, 3>", "pads": "array<i64: 0, 1, 0, 1>"}},
    "avgpool_count_include_pad": {"ge.avg_pool2d": {"count_include_pad": "true"}},
    "avgpool_1d_same_lower": {"ge.avg_pool2d": {"pads": "array<i64: 0, 1, 0, 1>", "strides": "array<i64: 1, 3>"}},
    "bn": {"ge.batch_norm": {"epsilon": "1.000000e-03 : f32"}},
    "layernorm_axis1_nobias": {"ge.layer_norm": {"axis": "1 : i64"}},
    "rmsnorm": {"ge.rms_norm": {"epsilon": "9.99999997E-7 : f32"}},
    "gemm_bias": {"ge.gemm": {"trans_b": "true", "alpha": "5.000000e-01 : f32", "beta": "2.000000e+00 : f32"}},
    "gemm_no_c": {"ge.gemm": {"trans_a": "true"}},
    "einsum_attention": {"ge.transpose": {"perm": "array<i64: 0, 1, 3, 2>"}},
    "softmax_opset13_axis1": {"ge.softmax": {"axis": "1 : i64"}},
    "softmax_opset11_axis1": {"ge.flatten": {"axis": "1 : i64"}, "ge.softmax": {"axis": "-1 : i64"}},
    "hardmax_opset13": {"ge.one_hot": {"depth": "3 : i64", "axis": "1 : i64"}},
    "resize10_nearest": {"ge.resize": {"coordinate_transformation_mode": "#ge.coord_transform<asymmetric>",
                                       "nearest_mode": "#ge.nearest_mode<floor>"}},
    "resize10_nearest_down": {"ge.resize": {"nearest_mode": "#ge.nearest_mode<ceil>"}},
    "resize11_sizes_align_corners": {"ge.resize": {"mode": "#ge.resize_mode<linear>",
                                                   "coordinate_transformation_mode": "#ge.coord_transform<align_corners>"}},
    "resize13_cubic": {"ge.resize": {"mode": "#ge.resize_mode<cubic>", "cubic_coeff_a": "-5.000000e-01 : f32",
                                     "scales": "array<f32: 1.000000e+00, 1.000000e+00, 1.500000e+00, 2.000000e+00>"}},
    "resize18_axes_aspect": {"ge.resize": {"scales": "array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>"}},
    "upsample9_linear": {"ge.resize": {"mode": "#ge.resize_mode<linear>",
                                       "coordinate_transformation_mode": "#ge.coord_transform<asymmetric>"}},
}

#: model -> a phrase of the refusal reason.
REFUSED: dict[str, str] = {
    "conv3d": "3-D convolution (5-D input) is not supported",
    "conv_same_dynamic": "auto_pad=SAME_UPPER needs static spatial input dimensions",
    "convtranspose_output_shape_larger": "is larger than the transposed convolution produces",
    "convtranspose3d": "3-D transposed convolution (5-D input) is not supported",
    "maxpool_valid_ceil": "auto_pad=VALID with ceil_mode=1",
    "maxpool_indices": "the Indices output (argmax positions) is used",
    "maxpool_indices_consumed": "the Indices output (argmax positions) is used",
    "bn_train": "training_mode=1",
    "bn_stats_used": "the statistics outputs ('mean') are used",
    "bn_opset7_spatial0": "spatial=0 (per-activation statistics) has no ge equivalent",
    "layernorm_scale_per_row": "varies over non-normalized dims",
    "groupnorm_dynamic_channels": "the channel and spatial dims must be static",
    "lpnorm_p3": "p=3 is not supported",
    "einsum_contract_broadcast": "label 'j' has sizes 1 and 3",
    "einsum_diagonal": "equation 'ii->i' takes a diagonal",
    "einsum_three_operands": "equation 'ij,jk,kl->il' has 3 operands",
    "hardmax_dynamic_axis": "the reduced dimension 1 must be static",
    "resize10_nearest_mixed": "upsamples some axes and downsamples others",
    "resize11_tf_half_pixel_for_nn": "coordinate_transformation_mode 'tf_half_pixel_for_nn' has no ge equivalent",
    "resize_tf_crop": "tf_crop_and_resize needs the roi input",
    "resize_cubic_exclude_outside": "exclude_outside=1",
    "resize_antialias_down": "antialias=1 when downsampling",
    "resize18_aspect_nonintegral": "keep_aspect_ratio_policy=not_larger with a non-integral scaled size",
}

_NP_TO_MLIR = {
    np.dtype(np.float32): "f32", np.dtype(np.float16): "f16", np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
}
_ORT_TO_NP = {
    "tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(int8)": np.int8,
    "tensor(uint8)": np.uint8, "tensor(int32)": np.int32, "tensor(int64)": np.int64,
}


def _ort_outputs(model) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(1)
    feeds = {}
    for i in sess.get_inputs():
        dtype = _ORT_TO_NP[i.type]
        values = rng.standard_normal(i.shape) * 4
        feeds[i.name] = values.astype(dtype) if np.issubdtype(dtype, np.floating) else np.abs(values).astype(dtype)
    return sess.run(None, feeds)


def _body(module: ir.Module):
    fn = module.body.operations[0]
    return fn, [op.operation for op in fn.regions[0].blocks[0].operations]


def test_every_model_has_an_expectation():
    models = set(nn_models.MODELS)
    assert not set(EXPECTED_OPS) & set(REFUSED)
    assert set(EXPECTED_OPS) | set(REFUSED) | RUNTIME == models
    assert set(EXPECTED_ATTRS) <= set(EXPECTED_OPS)


#: Models with run-time scales/sizes (? results): compiled and run at several values against
#: onnxruntime in test/python/target/cpu/test_runtime_parameters.py.
RUNTIME = {"resize_dynamic_scales"}


@pytest.mark.parametrize("name", sorted(EXPECTED_OPS))
def test_import(name):
    model = nn_models.build(name)
    with ir.Context():
        module = import_onnx(model)
        fn, ops = _body(module)
        got = [op.name for op in ops if op.name not in ("ge.constant", "func.return")]
        assert got == EXPECTED_OPS[name]
        for op_name, attrs in EXPECTED_ATTRS.get(name, {}).items():
            op = next(op for op in ops if op.name == op_name)
            for key, value in attrs.items():
                assert key in op.attributes, f"{op_name} has no {key}: {op}"
                assert str(op.attributes[key]) == value, f"{op_name} {key}"
        result_types = [(list(t.shape), str(t.element_type)) for t in fn.type.results]
    expected = [(list(o.shape), _NP_TO_MLIR[o.dtype]) for o in _ort_outputs(model)]
    assert result_types == expected


#: Refused models that are invalid ONNX (onnxruntime refuses them too):
#: InvalidModelError naming the node, with the same reason.
INVALID = {"lpnorm_p3"}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid(name):
    model = nn_models.build(name)
    with ir.Context(), pytest.raises(InvalidModelError) as info:
        import_onnx(model)
    node = model.graph.node[0]
    assert f"{node.op_type} node '{node.op_type.lower()}0': {REFUSED[name]}" in str(info.value)
    with pytest.raises(Exception):
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name", sorted(set(REFUSED) - INVALID))
def test_refusal(name):
    model = nn_models.build(name)
    with ir.Context(), pytest.raises(UnsupportedOpsError) as info:
        import_onnx(model)
    err = info.value
    assert not err.unsupported
    assert len(err.refusals) == 1, err.refusals
    node, op_type, reason = err.refusals[0]
    assert node == f"{model.graph.node[0].op_type.lower()}0"
    assert REFUSED[name] in reason, reason


_NN_OPS = {
    # op type: (first opset converted, last opset converted or None = newest)
    "Conv": (1, None), "ConvTranspose": (1, None), "MaxPool": (1, None), "AveragePool": (1, None),
    "GlobalAveragePool": (1, None), "GlobalMaxPool": (1, None), "BatchNormalization": (7, None),
    "InstanceNormalization": (6, None), "LayerNormalization": (17, None), "GroupNormalization": (18, None),
    "LpNormalization": (1, None), "MeanVarianceNormalization": (9, None), "RMSNormalization": (23, None),
    "MatMul": (1, None), "Gemm": (7, None), "MatMulInteger": (10, None), "Einsum": (12, None),
    "Softmax": (1, None), "LogSoftmax": (1, None), "Hardmax": (1, None), "Resize": (10, None), "Upsample": (7, 9),
}


def test_registry_ranges():
    import onnx

    newest = onnx.defs.onnx_opset_version()
    registered = {op for (domain, op) in supported_ops() if domain == ""}
    assert set(_NN_OPS) <= registered
    for op, (since, until) in _NN_OPS.items():
        last = until or newest
        assert lookup("", op, since) is not None, op
        assert lookup("", op, last) is not None, op
        if since > 1:
            assert lookup("", op, since - 1) is None, op
        if until is not None:
            assert lookup("", op, until + 1) is None, op
        # Every opset from 11 (or the op's first) up to the newest is covered.
        for v in range(max(11, since), last + 1):
            assert lookup("", op, v) is not None, (op, v)
