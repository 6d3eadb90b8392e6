"""The misc converters of the ONNX importer (ge_mlir/frontend/onnx/ops/misc.py).

Every model of test/Frontend/onnx/Inputs/misc_models.py is imported in-process
and checked for

(a) result types: the function's result types equal the shapes and element
    types onnxruntime produces when it runs the model on random inputs;
(b) the ge ops emitted (in order, constants left out) and, where the converter
    computes them, attributes;
(c) values: the numerics of the ge IR wait for the CPU backend, but these
    decompositions are cheap to replay, so the emitted function is interpreted
    with numpy (one small numpy kernel per ge op) and compared with
    onnxruntime's outputs;

or, for the models the importer must refuse, for the refusal and its reason.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import onnx
import onnx.reference
import pytest
from mlir import ir

from ge_mlir.errors import InvalidModelError, UnsupportedOpsError
from ge_mlir.frontend.onnx import import_onnx, supported_ops
from ge_mlir.frontend.onnx.registry import lookup, numpy_dtype

ort = pytest.importorskip("onnxruntime")

_PATH = Path(__file__).resolve().parents[2] / "Frontend" / "onnx" / "Inputs" / "misc_models.py"
_spec = importlib.util.spec_from_file_location("misc_models", _PATH)
mm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mm)

_ASINH = ["ge.sign", "ge.abs", "ge.mul", "ge.add", "ge.sqrt", "ge.add", "ge.log", "ge.mul"]
_ACOSH = ["ge.sub", "ge.add", "ge.mul", "ge.sqrt", "ge.add", "ge.log"]
_ATANH = ["ge.add", "ge.sub", "ge.div", "ge.log", "ge.mul"]
_QKV3 = ["ge.reshape", "ge.transpose"] * 3
_SCORES = ["ge.mul", "ge.mul", "ge.transpose", "ge.matmul"]
_ROPE = ["ge.mul", "ge.mul", "ge.sub", "ge.mul", "ge.mul", "ge.add"]

#: model -> the ge ops of its function body, in order (ge.constant left out).
EXPECTED_OPS: dict[str, list[str]] = {
    "inv_hyperbolic": _ASINH + _ACOSH + _ATANH,
    "asinh_f16_opset22": ["ge.cast"] + _ASINH + ["ge.cast"],
    "global_lp_pool_p3": ["ge.abs", "ge.pow", "ge.reduce_sum", "ge.pow"],
    "global_lp_pool_p2": ["ge.reduce_l2"],
    "lp_pool": ["ge.mul", "ge.avg_pool2d", "ge.mul", "ge.sqrt"],
    "lp_pool_1d_p3": ["ge.unsqueeze", "ge.abs", "ge.pow", "ge.avg_pool2d", "ge.mul", "ge.pow", "ge.squeeze"],
    "lp_pool_p1_opset1": ["ge.abs", "ge.avg_pool2d", "ge.mul"],
    "quantize_uint8": ["ge.div", "ge.round", "ge.clip", "ge.cast"],
    "quantize_runtime_scale": ["ge.div", "ge.round", "ge.clip", "ge.cast"],
    "attention_past": ["ge.concat", "ge.concat", "ge.mul", "ge.mul", "ge.transpose", "ge.matmul", "ge.softmax",
                       "ge.matmul"],
    "attention_qk_output_used": ["ge.mul", "ge.mul", "ge.transpose", "ge.matmul", "ge.softmax", "ge.matmul"],
    "quantize_int8_axis": ["ge.div", "ge.round", "ge.add", "ge.clip", "ge.cast"],
    "quantize_int16_output_dtype": ["ge.div", "ge.round", "ge.clip", "ge.cast"],
    "quantize_float8": ["ge.div", "ge.clip", "ge.cast", "ge.cast", "ge.mul"],
    "quantize_block": ["ge.div", "ge.round", "ge.add", "ge.clip", "ge.cast"],
    "dequantize_uint8": ["ge.cast", "ge.sub", "ge.mul"],
    "dequantize_int8_axis": ["ge.cast", "ge.sub", "ge.mul"],
    "dequantize_int32": ["ge.cast", "ge.mul"],
    "hann_window": [],
    "hamming_window_symmetric_f64": [],
    "blackman_window": [],
    "center_crop_pad": ["ge.slice", "ge.pad"],
    "center_crop_pad_axes": ["ge.slice", "ge.pad"],
    "attention_4d_causal": _SCORES + ["ge.add", "ge.softmax", "ge.matmul"],
    "attention_3d_gqa_bool_mask": _QKV3 + ["ge.where", "ge.pad", "ge.gather", "ge.gather"] + _SCORES
    + ["ge.add", "ge.softmax", "ge.reduce_max", "ge.equal", "ge.where", "ge.matmul", "ge.transpose", "ge.reshape"],
    "attention_causal_runtime_mask": ["ge.add"] + _SCORES
    + ["ge.add", "ge.softmax", "ge.reduce_max", "ge.equal", "ge.where", "ge.matmul"],
    "attention_float_mask_softcap": _SCORES + ["ge.div", "ge.tanh", "ge.mul", "ge.add", "ge.softmax", "ge.matmul"],
    "rotary_4d": ["ge.gather", "ge.unsqueeze", "ge.gather", "ge.unsqueeze", "ge.slice", "ge.slice"] + _ROPE
    + ["ge.concat"],
    "rotary_3d_interleaved_partial": ["ge.reshape", "ge.unsqueeze", "ge.unsqueeze", "ge.slice", "ge.slice", "ge.slice"]
    + _ROPE + ["ge.unsqueeze", "ge.unsqueeze", "ge.concat", "ge.reshape", "ge.slice", "ge.concat", "ge.reshape"],
}

#: model -> {op: {attribute: printed value}} for attributes the converter computes.
EXPECTED_ATTRS: dict[str, dict[str, dict[str, str]]] = {
    "lp_pool": {"ge.avg_pool2d": {"count_include_pad": "true", "pads": "array<i64: 1, 0, 1, 1>"}},
    "lp_pool_1d_p3": {"ge.avg_pool2d": {"kernel_shape": "array<i64: 1, 3>", "pads": "array<i64: 0, 1, 0, 1>"}},
    "quantize_int8_axis": {"ge.clip": {"min": "-1.280000e+02 : f64", "max": "1.270000e+02 : f64"}},
    "quantize_int16_output_dtype": {"ge.clip": {"min": "-3.276800e+04 : f64", "max": "3.276700e+04 : f64"}},
    "center_crop_pad": {"ge.slice": {"starts": "array<i64: 1>", "ends": "array<i64: 5>", "axes": "array<i64: 1>"},
                        "ge.pad": {"pads": "array<i64: 0, 0, 1, 0, 0, 2>"}},
    "center_crop_pad_axes": {"ge.slice": {"starts": "array<i64: 1>", "ends": "array<i64: 2>", "axes": "array<i64: 2>"},
                             "ge.pad": {"pads": "array<i64: 1, 0, 0, 2, 0, 0>"}},
    "attention_3d_gqa_bool_mask": {"ge.pad": {"pads": "array<i64: 0, 0, 0, 1>"}},
}

_NP_TO_MLIR = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16", np.dtype(np.float64): "f64",
               np.dtype(np.int8): "i8", np.dtype(np.uint8): "ui8", np.dtype(np.int16): "i16",
               np.dtype(np.uint16): "ui16", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}


def _feeds(name: str, model: onnx.ModelProto) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    feeds = mm.FEEDS[name](rng) if name in mm.FEEDS else {}
    inits = {i.name for i in model.graph.initializer}
    for inp in model.graph.input:
        if inp.name in inits or inp.name in feeds:
            continue
        tt = inp.type.tensor_type
        dtype = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type))
        shape = [d.dim_value for d in tt.shape.dim]
        if dtype == np.bool_:
            feeds[inp.name] = rng.random(shape) > 0.3
        elif dtype.kind == "f":
            feeds[inp.name] = (rng.standard_normal(shape) * 2).astype(dtype)
        else:
            info = np.iinfo(dtype)
            lo, hi = max(info.min, -1000), min(info.max, 1000)
            feeds[inp.name] = rng.integers(lo, hi, shape, endpoint=True).astype(dtype)
    return feeds


#: models onnxruntime cannot run (valid per the spec): their values come from onnx's reference implementation.
REFERENCE_ONLY = {
    # onnxruntime 1.32 requires the mask's last dim to equal the key sequence length;
    # the spec (and the reference) pads a shorter mask with False / -inf.
    "attention_3d_gqa_bool_mask",
    # onnxruntime has no LpPool-1 kernel (the float p attribute); no pads here, where the
    # reference would divide by the unpadded count.
    "lp_pool_p1_opset1",
}


def _expected_outputs(name: str, model: onnx.ModelProto, feeds) -> list[np.ndarray]:
    if name in REFERENCE_ONLY:
        from onnx.reference import ReferenceEvaluator

        return ReferenceEvaluator(model).run(None, feeds)
    return _ort_outputs(model, feeds)


def _ort_outputs(model: onnx.ModelProto, feeds) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _body(module: ir.Module):
    fn = module.body.operations[0]
    return fn, list(fn.regions[0].blocks[0].operations)


# --- numpy replay of the emitted ge ops ------------------------------------------


def _attr(op, name, default=None):
    if name not in op.attributes:
        return default
    a = op.attributes[name]
    if isinstance(a, ir.BoolAttr):
        return a.value
    if isinstance(a, ir.IntegerAttr):
        return a.value
    if isinstance(a, ir.FloatAttr):
        return a.value
    if isinstance(a, ir.DenseI64ArrayAttr):
        return list(a)
    return a


def _constant_value(attr) -> np.ndarray:
    t = ir.RankedTensorType(attr.type)
    dt = numpy_dtype(t.element_type)
    if ir.DenseElementsAttr(attr).is_splat:
        return np.full(t.shape, np.array(ir.DenseElementsAttr(attr).get_splat_value().value), dtype=dt)
    return np.array(attr).reshape(t.shape).astype(dt)


def _avg_pool_sum_incl_pad(x, kernel, strides, pads):
    kh, kw = kernel
    xp = np.pad(x, [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])])
    oh = (xp.shape[2] - kh) // strides[0] + 1
    ow = (xp.shape[3] - kw) // strides[1] + 1
    out = np.zeros(x.shape[:2] + (oh, ow), dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * strides[0]:i * strides[0] + kh, j * strides[1]:j * strides[1] + kw]
            out[:, :, i, j] = win.mean(axis=(2, 3))
    return out


def _softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _replay_op(op, args):
    name = op.operation.name
    rt = op.results[0].type
    out_dt = numpy_dtype(ir.RankedTensorType(rt).element_type)
    binary = {"ge.add": np.add, "ge.sub": np.subtract, "ge.mul": np.multiply, "ge.div": np.divide,
              "ge.pow": np.power, "ge.equal": np.equal}
    unary = {"ge.abs": np.abs, "ge.sign": np.sign, "ge.sqrt": np.sqrt, "ge.log": np.log, "ge.tanh": np.tanh,
             "ge.round": np.rint, "ge.identity": np.asarray}
    if name in binary:
        return binary[name](*args)
    if name in unary:
        return unary[name](args[0])
    if name == "ge.constant":
        return _constant_value(op.attributes["value"])
    if name == "ge.cast":
        return args[0].astype(out_dt)
    if name == "ge.clip":
        return np.clip(args[0], _attr(op, "min"), _attr(op, "max")).astype(args[0].dtype)
    if name == "ge.reshape":
        return args[0].reshape(ir.RankedTensorType(rt).shape)
    if name == "ge.transpose":
        return args[0].transpose(_attr(op, "perm"))
    if name == "ge.unsqueeze":
        return np.expand_dims(args[0], tuple(_attr(op, "axes")))
    if name == "ge.squeeze":
        return np.squeeze(args[0], tuple(_attr(op, "axes")))
    if name == "ge.where":
        return np.where(*args)
    if name == "ge.gather":
        return np.take(args[0], args[1], axis=_attr(op, "axis", 0))
    if name == "ge.matmul":
        return np.matmul(*args)
    if name == "ge.softmax":
        return _softmax(args[0], _attr(op, "axis", -1))
    if name in ("ge.reduce_sum", "ge.reduce_max", "ge.reduce_l2"):
        axes = tuple(_attr(op, "axes"))
        keep = _attr(op, "keepdims", True)
        if name == "ge.reduce_l2":
            return np.sqrt(np.sum(args[0] * args[0], axis=axes, keepdims=keep))
        return (np.sum if name == "ge.reduce_sum" else np.max)(args[0], axis=axes, keepdims=keep)
    if name == "ge.avg_pool2d":
        assert _attr(op, "count_include_pad") and not _attr(op, "ceil_mode", False)
        assert _attr(op, "dilations", [1, 1]) == [1, 1]
        return _avg_pool_sum_incl_pad(args[0], _attr(op, "kernel_shape"), _attr(op, "strides", [1, 1]),
                                      _attr(op, "pads", [0, 0, 0, 0]))
    if name == "ge.slice":
        sl = [slice(None)] * args[0].ndim
        steps = _attr(op, "steps") or [1] * len(_attr(op, "starts"))
        for a, s, e, st in zip(_attr(op, "axes"), _attr(op, "starts"), _attr(op, "ends"), steps):
            sl[a] = slice(s, e, st)
        return args[0][tuple(sl)]
    if name == "ge.pad":
        pads = _attr(op, "pads")
        n = args[0].ndim
        return np.pad(args[0], list(zip(pads[:n], pads[n:])), constant_values=_attr(op, "value", 0.0))
    if name == "ge.concat":
        return np.concatenate(args, axis=_attr(op, "axis"))
    raise AssertionError(f"no numpy replay for {name}")


def _replay(module: ir.Module, feeds: dict[str, np.ndarray], model: onnx.ModelProto) -> list[np.ndarray]:
    fn, ops = _body(module)
    inits = {i.name for i in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in inits]
    env = {arg: feeds[n] for arg, n in zip(fn.regions[0].blocks[0].arguments, names)}
    with np.errstate(all="ignore"):
        for op in ops:
            args = [env[v] for v in op.operands]
            if op.operation.name == "func.return":
                return args
            out = _replay_op(op, args)
            dt = numpy_dtype(ir.RankedTensorType(op.results[0].type).element_type)
            env[op.results[0]] = np.asarray(out).astype(dt, copy=False)
    raise AssertionError("no return")


def _compare(got: np.ndarray, want: np.ndarray, name: str) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if want.dtype.kind == "f":
        tol = 2e-3 if want.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


# --- tests ----------------------------------------------------------------------------


#: Models with run-time sizes (? results): compiled and run at several values against onnxruntime
#: in test/python/target/cpu/test_runtime_parameters.py instead of the replay here.
RUNTIME = {"window_runtime_size"}


def test_models_and_expectations_agree():
    assert set(mm.MODELS) == set(EXPECTED_OPS) | set(mm.REFUSED) | RUNTIME
    assert not set(EXPECTED_OPS) & set(mm.REFUSED)
    assert set(EXPECTED_ATTRS) <= set(EXPECTED_OPS)


@pytest.mark.parametrize("name", sorted(EXPECTED_OPS))
def test_import_matches_onnxruntime(name):
    model = mm.build(name)
    feeds = _feeds(name, model)
    outputs = _expected_outputs(name, model, feeds)
    with ir.Context():
        # A high resource threshold keeps every constant readable for the replay.
        module = import_onnx(model, resource_threshold=1 << 20)
        fn, ops = _body(module)
        got = [op.name for op in ops if op.name not in ("ge.constant", "func.return")]
        assert got == EXPECTED_OPS[name], str(module)
        for op_name, attrs in EXPECTED_ATTRS.get(name, {}).items():
            op = next(op for op in ops if op.name == op_name)
            for key, value in attrs.items():
                assert key in op.attributes, f"{op_name} has no {key}: {op}"
                assert str(op.attributes[key]) == value, f"{op_name} {key}: {op.attributes[key]}"
        result_types = [(list(t.shape), str(t.element_type)) for t in fn.type.results]
        assert result_types == [(list(o.shape), _NP_TO_MLIR[o.dtype]) for o in outputs]
        for got_v, want, out in zip(_replay(module, feeds, model), outputs, model.graph.output):
            _compare(np.asarray(got_v), want, f"{name}:{out.name}")


@pytest.mark.parametrize("name", sorted(mm.REFUSED))
def test_refusal(name):
    model = mm.build(name)
    with ir.Context(), pytest.raises(UnsupportedOpsError) as info:
        import_onnx(model)
    err = info.value
    assert not err.unsupported
    assert len(err.refusals) == 1, err.refusals
    node, op_type, reason = err.refusals[0]
    assert node == f"{model.graph.node[0].op_type.lower()}0" and op_type == model.graph.node[0].op_type
    assert mm.REFUSED[name] in reason, reason


def test_blocked_scale_of_the_wrong_shape_is_invalid():
    """A blocked scale must have ceil(dim / block_size) values along the axis (the reference raises)."""
    model = mm.build("quantize_block")
    scale = next(t for t in model.graph.initializer if t.name == "s")
    scale.CopyFrom(onnx.numpy_helper.from_array(np.full([2, 3], 0.1, np.float32), "s"))
    with ir.Context(), pytest.raises(InvalidModelError, match=r"does not block input shape \[2, 4\] along axis 1"):
        import_onnx(model)


@pytest.mark.parametrize("name", ["hann_window", "hamming_window_symmetric_f64", "blackman_window"])
def test_window_converter_without_folding(name, monkeypatch):
    """The importer folds windows of a constant size itself; the converter (used
    when folding fails) must produce the same values."""
    import ge_mlir.frontend.onnx.importer as importer

    real = importer.Importer._try_fold
    monkeypatch.setattr(importer.Importer, "_try_fold",
                        lambda self, node: False if node.op_type.endswith("Window") else real(self, node))
    model = mm.build(name)
    want = onnx.reference.ReferenceEvaluator(model).run(None, {})[0]
    ort_out = _ort_outputs(model, {})[0]
    with ir.Context():
        module = import_onnx(model, resource_threshold=1 << 20)
        _, ops = _body(module)
        assert [op.name for op in ops] == ["ge.constant", "func.return"]
        value = _constant_value(ops[0].attributes["value"])
    np.testing.assert_array_equal(value, want)
    np.testing.assert_allclose(value, ort_out, rtol=1e-6, atol=1e-6)


def test_quantize_rounds_half_to_even_and_saturates():
    # x / scale lands exactly on .5 ties and beyond the int8 range.
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 300.0, -300.0], np.float32)
    model = mm.build("quantize_uint8")
    model.graph.input[0].type.tensor_type.shape.Clear()
    model.graph.input[0].type.tensor_type.shape.dim.add().dim_value = x.size
    s = next(i for i in model.graph.initializer if i.name == "s")
    s.CopyFrom(onnx.numpy_helper.from_array(np.float32(1.0), "s"))
    z = onnx.numpy_helper.from_array(np.int8(3), "z")
    model.graph.initializer.append(z)
    model.graph.node[0].input.append("z")
    model.graph.output[0].type.tensor_type.elem_type = onnx.TensorProto.INT8
    want = _ort_outputs(model, {"x": x})[0]
    with ir.Context():
        got = _replay(import_onnx(model), {"x": x}, model)[0]
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, np.array([3, 5, 5, 3, 1, 1, 127, -128], np.int8))


_MISC_OPS = {
    # op type: first opset converted (every later opset up to the newest too)
    "Constant": 1, "Asinh": 9, "Acosh": 9, "Atanh": 9, "GlobalLpPool": 1, "LpPool": 1,
    "QuantizeLinear": 10, "DequantizeLinear": 10, "HannWindow": 17, "HammingWindow": 17,
    "BlackmanWindow": 17, "CenterCropPad": 18, "Attention": 23, "RotaryEmbedding": 23,
}


@pytest.mark.parametrize("op", sorted(_MISC_OPS))
def test_registry_ranges(op):
    since = _MISC_OPS[op]
    for opset in range(since, onnx.defs.onnx_opset_version() + 1):
        sup = lookup("", op, opset)
        assert sup is not None, (op, opset)
        assert sup.converter.__module__.endswith("onnx.ops.misc"), sup.converter.__module__
        assert not sup.refused
    if since > 1:
        assert lookup("", op, since - 1) is None
    assert len(supported_ops()[("", op)]) == 1  # nobody else registers it


def test_asin_acos_atan_not_registered_here():
    # No ge op computes them; misc.py must not pretend otherwise.
    for op in ("Asin", "Acos", "Atan"):
        for sup in supported_ops().get(("", op), []):
            assert not sup.converter.__module__.endswith("onnx.ops.misc")
