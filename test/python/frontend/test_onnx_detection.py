"""ONNX NonMaxSuppression, RoiAlign and DeformConv (ge_mlir/frontend/onnx/ops/detection.py), compiled
once and run at several thresholds and limits / rois / offsets (run-time inputs): NMS's selected
triples equal to onnxruntime's, RoiAlign and DeformConv close to the reference's or onnxruntime's."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import ge_mlir

ort = pytest.importorskip("onnxruntime")

INPUTS = Path(__file__).resolve().parents[2] / "Frontend" / "onnx" / "Inputs"
sys.path.insert(0, str(INPUTS))
import detection_models as dm  # noqa: E402

SETTINGS = [(0, 5, 0.5, 0.2), (1, 3, 0.3, 0.0), (2, 100, 0.7, 0.6), (3, 0, 0.5, 0.0), (4, -2, 0.5, 0.0),
            (5, 2, 0.0, 0.9), (6, 100, 1.0, -1.0)]


@pytest.mark.parametrize("name", sorted(n for n in dm.MODELS if n.startswith("nms")))
def test_nms_matches_onnxruntime(name):
    model = dm.MODELS[name]()
    compiled = ge_mlir.compile(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    selected = 0
    for seed, max_out, iou, score in SETTINGS:
        feeds = dm.feeds(name, seed, max_out, iou, score)
        want = sess.run(None, feeds)[0]
        got = compiled(**feeds)[0]
        np.testing.assert_array_equal(got, want, err_msg=str((seed, max_out, iou, score)))
        selected += len(want)
    assert selected > 0  # the settings select something


@pytest.mark.parametrize("name", ["roi_align", "roi_align_max"])
def test_roi_align_matches_the_reference(name):
    """RoiAlign at run-time rois (f32: rtol 1e-5, atol 1e-6), against the ONNX reference (whose max
    mode -- the largest weighted corner -- onnxruntime does not follow) and, for avg, onnxruntime."""
    from onnx.reference import ReferenceEvaluator

    model = dm.MODELS[name]()
    compiled = ge_mlir.compile(model)
    ref = ReferenceEvaluator(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for seed in range(4):
        feeds = dm.roi_feeds(seed)
        got = compiled(**feeds)[0]
        np.testing.assert_allclose(got, ref.run(None, feeds)[0], rtol=1e-5, atol=1e-6)
        if name == "roi_align":
            np.testing.assert_allclose(got, sess.run(None, feeds)[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["deform_conv", "deform_conv_no_mask"])
def test_deform_conv_matches_onnxruntime(name):
    """Grouped, offset-grouped, strided, dilated and padded DeformConv with points leaving the map
    (f32: rtol 1e-4, atol 1e-5: a different summation order than onnxruntime's)."""
    model = dm.MODELS[name]()
    compiled = ge_mlir.compile(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for seed in range(3):
        feeds = dm.deform_feeds(seed, mask=name == "deform_conv")
        np.testing.assert_allclose(compiled(**feeds)[0], sess.run(None, feeds)[0], rtol=1e-4, atol=1e-5)
