"""ONNX Resize as per-axis tables: for each output index of a resized axis, the source indices
and weights of its taps (1 effective tap for nearest, 2 for linear, 4 for cubic), following the
ONNX reference implementation. Shared by the targets that lower ``ge.resize`` (the CPU lowering
and the Ascend C one), so both read the same coordinates."""

from __future__ import annotations

import math

import numpy as np

from ..errors import Unsupported


def _coeffs(mode: str, ratio: float, nearest: str, a: float) -> list[float]:
    if mode == "nearest":
        if float(ratio).is_integer():
            return [0.0, 1.0]
        return {
            "round_prefer_floor": [float(ratio <= 0.5), float(ratio > 0.5)],
            "round_prefer_ceil": [float(ratio < 0.5), float(ratio >= 0.5)],
            "floor": [1.0, 0.0],
            "ceil": [0.0, 1.0],
        }[nearest]
    if mode == "linear":
        return [1 - ratio, ratio]
    r = ratio
    return [
        ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
        ((a + 2) * r - (a + 3)) * r * r + 1,
        ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
        ((a * ((1 - r) + 1) - 5 * a) * ((1 - r) + 1) + 8 * a) * ((1 - r) + 1) - 4 * a,
    ]


def resize_tables(
    in_w: int, out_w: int, scale: float, mode: str, coord: str, nearest: str, a: float
) -> tuple[np.ndarray, np.ndarray]:
    """Source indices and weights ``[out_w, n]`` of one axis (onnx reference)."""
    out_f = scale * in_w
    y = np.arange(out_w, dtype=np.float64)
    if coord == "align_corners":
        x = np.zeros(out_w) if out_f == 1 else y * (in_w - 1) / (out_f - 1)
    elif coord == "asymmetric":
        x = y / scale
    elif coord == "pytorch_half_pixel":
        x = np.full(out_w, -0.5) if out_f == 1 else (y + 0.5) / scale - 0.5
    elif coord == "half_pixel":
        x = (y + 0.5) / scale - 0.5
    elif coord == "half_pixel_symmetric":
        offset = in_w / 2 * (1 - out_w / out_f)
        x = offset + (y + 0.5) / scale - 0.5
    else:
        raise Unsupported(f"coordinate_transformation_mode {coord}")
    x_int = np.floor(x)
    ratios = np.where(x == x_int, 1.0, x - x_int)
    coeffs = np.array([_coeffs(mode, float(r), nearest, a) for r in ratios], dtype=np.float64)
    n = coeffs.shape[1]
    pad = math.ceil(n / 2)
    xp = x + pad
    p = np.floor(xp).astype(np.int64)
    frac = xp - p
    if n % 2 == 0:
        off = np.where(frac == 0, -(n // 2), -(n // 2) + 1)
    else:
        base = -((n - 1) // 2)
        off = np.where(frac <= 0.5, base, base + 1)
    idx = (p + off)[:, None] + np.arange(n)[None, :] - pad
    return np.clip(idx, 0, in_w - 1), coeffs
