"""ONNX NonMaxSuppression, RoiAlign and DeformConv models (ge_mlir/frontend/onnx/ops/detection.py).

    python detection_models.py NAME OUT.onnx     # writes model NAME
    python detection_models.py --list            # prints the model names

Thresholds and the per-class limit are graph inputs (run-time values); FEEDS gives the inputs of
the numeric checks in test/python/frontend/test_onnx_detection.py.
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper as h


def nms(n_batch: int = 2, n_class: int = 3, n_box: int = 40, center: int = 0, with_score: bool = True):
    inputs = [h.make_tensor_value_info("boxes", TP.FLOAT, [n_batch, n_box, 4]),
              h.make_tensor_value_info("scores", TP.FLOAT, [n_batch, n_class, n_box]),
              h.make_tensor_value_info("max_out", TP.INT64, [1]),
              h.make_tensor_value_info("iou", TP.FLOAT, [1])]
    names = ["boxes", "scores", "max_out", "iou"]
    if with_score:
        inputs.append(h.make_tensor_value_info("score_thr", TP.FLOAT, [1]))
        names.append("score_thr")
    node = h.make_node("NonMaxSuppression", names, ["selected"], center_point_box=center)
    g = h.make_graph([node], "nms", inputs, [h.make_tensor_value_info("selected", TP.INT64, None)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 11)], ir_version=8)


def roi_align(mode: str = "avg", transform: str = "half_pixel", scale: float = 0.5, sampling: int = 2):
    node = h.make_node("RoiAlign", ["x", "rois", "batch"], ["y"], mode=mode, output_height=3, output_width=4,
                       sampling_ratio=sampling, spatial_scale=scale, coordinate_transformation_mode=transform)
    g = h.make_graph([node], "roi_align", [h.make_tensor_value_info("x", TP.FLOAT, [2, 3, 8, 10]),
                                           h.make_tensor_value_info("rois", TP.FLOAT, [5, 4]),
                                           h.make_tensor_value_info("batch", TP.INT64, [5])],
                     [h.make_tensor_value_info("y", TP.FLOAT, None)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 16)], ir_version=8)


def deform_conv(mask: bool = True):
    """2 batches, 4 input channels in 2 groups and 2 offset groups, stride 2, dilation 2, padding."""
    names = ["x", "w", "offset", "b"] + (["mask"] if mask else [])
    node = h.make_node("DeformConv", names, ["y"], group=2, offset_group=2, strides=[2, 1], dilations=[1, 2],
                       pads=[1, 0, 1, 2], kernel_shape=[3, 2])
    inputs = [h.make_tensor_value_info("x", TP.FLOAT, [2, 4, 7, 6]),
              h.make_tensor_value_info("w", TP.FLOAT, [6, 2, 3, 2]),
              h.make_tensor_value_info("offset", TP.FLOAT, [2, 2 * 2 * 3 * 2, 4, 6]),
              h.make_tensor_value_info("b", TP.FLOAT, [6])]
    if mask:
        inputs.append(h.make_tensor_value_info("mask", TP.FLOAT, [2, 2 * 3 * 2, 4, 6]))
    g = h.make_graph([node], "deform_conv", inputs, [h.make_tensor_value_info("y", TP.FLOAT, None)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 19)], ir_version=9)


def deform_feeds(seed: int, mask: bool = True) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {"x": rng.standard_normal((2, 4, 7, 6)).astype(np.float32),
           "w": rng.standard_normal((6, 2, 3, 2)).astype(np.float32),
           "offset": (rng.standard_normal((2, 24, 4, 6)) * 2).astype(np.float32),  # some points leave the map
           "b": rng.standard_normal(6).astype(np.float32)}
    if mask:
        out["mask"] = rng.random((2, 12, 4, 6)).astype(np.float32)
    return out


MODELS = {"nms": lambda: nms(), "nms_center": lambda: nms(center=1, with_score=False),
          "nms_small": lambda: nms(1, 1, 4), "roi_align": lambda: roi_align(),
          "roi_align_max": lambda: roi_align("max", "output_half_pixel", 1.0, 3),
          "deform_conv": lambda: deform_conv(), "deform_conv_no_mask": lambda: deform_conv(False)}


def roi_feeds(seed: int) -> dict[str, np.ndarray]:
    """Rois inside, across and outside the map (scaled by spatial_scale), some malformed (x2 < x1)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-4, 22, (5, 2)).astype(np.float32)
    b = a + rng.uniform(-2, 12, (5, 2)).astype(np.float32)
    return {"x": rng.standard_normal((2, 3, 8, 10)).astype(np.float32),
            "rois": np.concatenate([a, b], axis=1), "batch": rng.integers(0, 2, 5).astype(np.int64)}


def feeds(name: str, seed: int, max_out: int, iou: float, score: float) -> dict[str, np.ndarray]:
    model = MODELS[name]()
    shapes = {i.name: [d.dim_value for d in i.type.tensor_type.shape.dim] for i in model.graph.input}
    rng = np.random.default_rng(seed)
    b, n = shapes["boxes"][0], shapes["boxes"][1]
    corner = rng.uniform(0, 10, (b, n, 2)).astype(np.float32)
    size = rng.uniform(0.5, 4, (b, n, 2)).astype(np.float32)
    if name == "nms_center":
        boxes = np.concatenate([corner, size], axis=2)
    else:  # [y1, x1, y2, x2], some boxes given with their corners swapped
        boxes = np.concatenate([corner, corner + size], axis=2)
        flip = rng.random((b, n)) < 0.3
        boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
    scores = rng.random(shapes["scores"]).astype(np.float32)
    scores[..., ::7] = 0.5  # ties: the lower index first
    out = {"boxes": boxes, "scores": scores, "max_out": np.array([max_out], np.int64),
           "iou": np.array([iou], np.float32)}
    if "score_thr" in shapes:
        out["score_thr"] = np.array([score], np.float32)
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(MODELS))
    else:
        onnx.save(MODELS[sys.argv[1]](), sys.argv[2])
