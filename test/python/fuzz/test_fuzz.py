"""ge-fuzz (ge_mlir.fuzz): generators, mutators, the child-process classifier, the reducer, the CLI."""

from __future__ import annotations

import json
import time

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from ge_mlir.fuzz import generate_case, generate_invalid, generate_valid, reduce_model, run_model
from ge_mlir.fuzz._worker import classify, compare
from ge_mlir.fuzz.generator import ort_session
from ge_mlir.fuzz.mutators import MUTATORS


def _relu_model() -> bytes:
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8).SerializeToString()


# -- generators ----------------------------------------------------------------

def test_generator_is_deterministic_for_a_seed():
    for i in range(12):
        a, b = generate_case(3, i), generate_case(3, i)
        assert a.model_bytes == b.model_bytes and a.kind == b.kind and a.description == b.description
        assert a.feeds.keys() == b.feeds.keys()
        for k in a.feeds:
            np.testing.assert_array_equal(a.feeds[k], b.feeds[k])
    assert [generate_valid(3, i).model_bytes for i in range(5)] != [generate_valid(4, i).model_bytes
                                                                   for i in range(5)]


def test_generated_valid_models_pass_the_checker_and_onnxruntime():
    ops, dtypes, zero_dims = set(), set(), False
    for i in range(40):
        case = generate_valid(11, i)
        model = case.model()
        onnx.checker.check_model(model, full_check=True)
        sess = ort_session(case.model_bytes)
        outs = sess.run(None, case.feeds)
        assert len(outs) == len(model.graph.output) >= 1
        ops |= set(case.ops)
        dtypes |= {str(v.dtype) for v in case.feeds.values()}
        zero_dims |= any(0 in v.shape for v in case.feeds.values())
    # the generator covers the op families and dtypes it claims
    assert {"Conv", "MatMul", "Gemm", "Gather", "Slice", "Concat", "Reshape"} & ops
    assert len(ops) >= 30, sorted(ops)
    assert "float32" in dtypes and len(dtypes) >= 3, dtypes


def test_mutators_all_apply_and_produce_models_onnxruntime_or_the_checker_refuses():
    names = set()
    refused = 0
    for i in range(60):
        case = generate_invalid(5, i)
        names.add(case.description.split(":")[0])
        try:
            m = onnx.load_from_string(case.model_bytes)
            onnx.checker.check_model(m, full_check=True)
            if not case.compile_only:
                ort_session(case.model_bytes).run(None, case.feeds)
        except Exception:
            refused += 1
    assert len(names) >= len(MUTATORS) - 3, names
    assert refused >= 50  # a few edge mutations are valid; most are not


def test_generate_case_mixes_valid_and_invalid():
    kinds = [generate_case(9, i, invalid_ratio=0.5).kind for i in range(30)]
    assert 5 < kinds.count("invalid") < 25
    assert {generate_case(9, i, invalid_ratio=0.0).kind for i in range(10)} == {"valid"}


# -- comparison and classification ---------------------------------------------

def test_compare_tolerances_nan_and_exact_ints():
    w = np.array([1.0, np.nan, -np.inf, 100.0], np.float32)
    assert compare(w.copy(), w) is None
    assert compare(w + np.float32(5e-5), w) is None  # scaled atol / rtol
    assert "NaN" in compare(np.array([1.0, 0.0, -np.inf, 100.0], np.float32), w)
    assert "differ" in compare(np.array([1.1, np.nan, -np.inf, 100.0], np.float32), w)
    h = np.array([1.0, 2.0], np.float16)
    assert compare(h + np.float16(0.005), h) is None
    assert compare(np.array([1, 2], np.int64), np.array([1, 3], np.int64)) is not None
    assert "dtype" in compare(np.array([1, 2], np.int32), np.array([1, 2], np.int64))
    assert "shape" in compare(np.zeros((2, 1), np.float32), np.zeros((2,), np.float32))


def test_classify_verdicts():
    ok_ort = {"status": "ok", "names": ["y"], "outputs": [np.ones(2, np.float32)]}
    bad_ort = {"status": "load_error", "error": "bad"}
    refused = {"status": "refused", "phase": "compile", "error_type": "InvalidModelError", "unsupported": False,
               "error": "x"}
    unsupported = dict(refused, error_type="UnsupportedOpsError", unsupported=True)
    ran = {"status": "ok", "phase": "run", "names": ["y"], "outputs": [np.ones(2, np.float32)]}
    valid = {"kind": "valid", "target": "cpu"}
    invalid = {"kind": "invalid", "target": "cpu"}
    assert classify(valid, ok_ort, ran)[0] == "ok"
    assert classify(invalid, bad_ort, refused)[0] == "refused"
    assert classify(valid, ok_ort, unsupported)[0] == "refused"
    assert classify(valid, ok_ort, refused)[:2] == ("mismatch", "refused-valid:InvalidModelError")
    assert classify(invalid, bad_ort, ran)[0] == "mismatch"  # accepted what onnxruntime refuses
    wrapped = dict(refused, error="pass failed\n  error: ge-lower-to-ascendc: internal error: ValueError: x")
    assert classify(invalid, bad_ort, wrapped)[:2] == ("uncaught", "internal:ValueError")
    wrong = dict(ran, outputs=[np.zeros(2, np.float32)])
    assert classify(valid, ok_ort, wrong)[:2] == ("mismatch", "numeric")


# -- the child-process runner: real children that die, hang, raise -------------

def test_runner_classifies_an_aborting_child_as_crash():
    res = run_model(_relu_model(), {"x": np.ones((2, 3), np.float32)}, hook="abort", timeout=60)
    assert res.cls == "crash" and res.signature == "signal:SIGABRT", res
    res = run_model(_relu_model(), {"x": np.ones((2, 3), np.float32)}, hook="segv", timeout=60)
    assert res.cls == "crash" and res.signature == "signal:SIGSEGV", res
    res = run_model(_relu_model(), {"x": np.ones((2, 3), np.float32)}, hook="exit", timeout=60)
    assert res.cls == "crash" and res.signature == "exit:3", res


def test_runner_classifies_a_sleeping_child_as_hang():
    t0 = time.perf_counter()
    res = run_model(_relu_model(), {"x": np.ones((2, 3), np.float32)}, hook="sleep", timeout=3)
    assert res.cls == "hang", res
    assert time.perf_counter() - t0 < 30


def test_runner_classifies_an_uncaught_exception():
    res = run_model(_relu_model(), {"x": np.ones((2, 3), np.float32)}, hook="raise", timeout=60)
    assert res.cls == "uncaught" and "RuntimeError" in res.signature


def test_runner_real_compile_ok_and_refused(tmp_path):
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    res = run_model(_relu_model(), {"x": x}, timeout=120, keep_dir=tmp_path / "ok")
    assert res.cls == "ok", res
    assert json.loads((tmp_path / "ok" / "result.json").read_text())["ort"]["status"] == "ok"
    res = run_model(b"\x08\x07\x12garbage", {}, kind="invalid", timeout=120)
    assert res.cls == "refused", res


# -- the reducer ----------------------------------------------------------------

def _model_with_erf() -> tuple[onnx.ModelProto, dict]:
    case = generate_valid(2, 0, max_nodes=8)
    m = case.model()
    while len([n for n in m.graph.node if n.op_type != "Constant"]) < 4:
        case = generate_valid(2, case.index + 1, max_nodes=8)
        m = case.model()
    # plant an Erf in the middle of the graph: on a node output, feeding a new output
    src = m.graph.node[len(m.graph.node) // 2].output[0]
    inferred = onnx.shape_inference.infer_shapes(m)
    types = {vi.name: vi.type for vi in list(inferred.graph.value_info) + list(inferred.graph.output)}
    m.graph.node.append(helper.make_node("Cast", [src], ["as_f"], to=TensorProto.FLOAT))
    m.graph.node.append(helper.make_node("Erf", ["as_f"], ["planted"]))
    out = helper.make_value_info("planted", onnx.TypeProto())
    out.type.CopyFrom(types[src])
    out.type.tensor_type.elem_type = TensorProto.FLOAT
    m.graph.output.append(out)
    onnx.checker.check_model(m, full_check=True)
    return m, case.feeds


def test_reducer_shrinks_a_planted_failure_to_one_node():
    model, feeds = _model_with_erf()
    assert len(model.graph.node) >= 5
    best, tests = reduce_model(model, feeds, lambda c: any(n.op_type == "Erf" for n in c.model.graph.node))
    assert [n.op_type for n in best.model.graph.node] == ["Erf"]
    assert len(best.model.graph.output) == 1
    # the reduced model is still a runnable, valid model with feeds for its inputs
    onnx.checker.check_model(best.model, full_check=True)
    ort_session(best.model.SerializeToString()).run(None, best.feeds)
    assert tests < 60


def test_reducer_keeps_what_the_predicate_needs():
    model, feeds = _model_with_erf()
    need = {"Erf", "Cast"}
    best, _ = reduce_model(model, feeds, lambda c: need <= {n.op_type for n in c.model.graph.node})
    assert sorted(n.op_type for n in best.model.graph.node) == ["Cast", "Erf"]


# -- the CLI ----------------------------------------------------------------------

def test_cli_short_run_and_replay(tmp_path, capsys):
    from ge_mlir.fuzz.cli import main

    out = tmp_path / "out"
    rc = main(["--seed", "1", "--cases", "2", "--out", str(out), "--invalid-ratio", "0"])
    text = capsys.readouterr().out
    assert "[1/2] case" in text and "[2/2] case" in text and "mismatch" in text
    summary = json.loads((out / "summary.json").read_text())
    assert sum(summary["counts"].values()) == 2 and len(summary["cases"]) == 2
    assert rc == (1 if any(summary["counts"][c] for c in ("crash", "hang", "uncaught", "mismatch")) else 0)
    path = tmp_path / "m.onnx"
    path.write_bytes(_relu_model())
    assert main(["--replay", str(path)]) == 0
    assert ": ok (valid" in capsys.readouterr().out


def test_cli_usage_errors():
    from ge_mlir.fuzz.cli import main

    assert main(["--seed", "1"]) == 2
    assert main(["--cases", "1", "--jobs", "0"]) == 2


def test_float16_models_compare_at_float16_tolerance():
    """onnxruntime drops the float16 rounding of Div(f16)->Cast(float): a
    float32 output computed from float16 values gets the float16 tolerance."""
    from onnx import TensorProto, helper

    from ge_mlir.fuzz._worker import compare, computes_in_float16

    def model(elem):
        g = helper.make_graph([helper.make_node("Div", ["a", "b"], ["d"]),
                               helper.make_node("Cast", ["d"], ["y"], to=TensorProto.FLOAT)], "g",
                              [helper.make_tensor_value_info(n, elem, [2]) for n in "ab"],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
        return helper.make_model(g).SerializeToString()

    assert computes_in_float16(model(TensorProto.FLOAT16))
    assert not computes_in_float16(model(TensorProto.FLOAT))
    got = np.array([0.98974609375, 3.001953125], np.float32)  # float16-rounded, as ONNX says
    want = np.array([0.9899451732635498, 3.0011792182922363], np.float32)  # onnxruntime
    assert compare(got, want) is not None
    assert compare(got, want, "float16") is None


def test_generated_tensors_are_bounded():
    from ge_mlir.fuzz.generator import MAX_ELEMENTS, generate_valid

    for i in range(12):
        m = onnx.load_from_string(generate_valid(5, i).model_bytes)
        inferred = onnx.shape_inference.infer_shapes(m)
        for v in (*inferred.graph.value_info, *inferred.graph.output):
            dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
            assert int(np.prod(dims, dtype=np.float64)) <= MAX_ELEMENTS, (v.name, dims)
