"""Window geometry shared by the CPU code generator and the memory estimate.

A max pool pads with the lowest value, which never wins a maximum over a window that holds
at least one input element: an out-of-range tap can then read the nearest in-range element of
the same window instead (clamped indices) and the result is the same, NaNs included. The code
generator uses this to read a max pool's input where it is, with no padded copy; the estimate
must agree on when it does.

The gradient ops' window arithmetic (:func:`end_adjustment`, :func:`window_divisors`) is shared by
their decomposition (``ge-decompose-gradient-ops``) and their ONNX export: both must size and scale
alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def clamped_axis_ok(n_in: int, n_out: int, k: int, s: int, d: int, pad_begin: int) -> bool:
    """Whether clamping tap indices into ``[0, n_in)`` keeps every tap of every window on an
    element of that window: each window overlaps the input, and, where a window reaches past
    an edge, its taps are consecutive (dilation 1) so the edge element is one of them."""
    if n_in < 1 or n_out < 1 or k < 1 or s < 1 or d < 1:
        return False
    for o in range(n_out):
        lo = o * s - pad_begin
        hi = lo + (k - 1) * d
        if hi < 0 or lo >= n_in:
            return False  # a window entirely in the padding: its maximum is the pad value
        if (lo < 0 or hi >= n_in) and d != 1:
            return False
    return True


def clamped_max_window_ok(in_hw: Sequence[int], out_hw: Sequence[int], kernel: Sequence[int],
                          strides: Sequence[int], dilations: Sequence[int], pads_begin: Sequence[int]) -> bool:
    """:func:`clamped_axis_ok` along both spatial axes of an NCHW window op."""
    return all(clamped_axis_ok(in_hw[i], out_hw[i], kernel[i], strides[i], dilations[i], pads_begin[i])
               for i in range(2))


def end_adjustment(size: int, out: int, k: int, s: int, d: int, pad_begin: int) -> tuple[int, int]:
    """(end pad, output padding) of the transposed window op that makes an ``out``-long gradient
    ``size`` long again: cut the positions past ``size`` or add the zero rows no window read."""
    extra = s * (out - 1) + d * (k - 1) + 1 - pad_begin - size
    return (extra, 0) if extra >= 0 else (0, -extra)


def window_divisors(n_out: int, n_in: int, k: int, s: int, pad_begin: int, pad_end: int,
                    include_pad: bool) -> np.ndarray:
    """ge.avg_pool2d's divisor per output position along one dim: the taps of the window inside the
    padded input (``include_pad``) or inside the input; at least 1."""
    lo, hi = (-pad_begin, n_in + pad_end) if include_pad else (0, n_in)
    starts = np.arange(n_out) * s - pad_begin
    counts = np.minimum(starts + k, hi) - np.maximum(starts, lo)
    return np.maximum(counts, 1)
