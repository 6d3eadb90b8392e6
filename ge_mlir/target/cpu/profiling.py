"""The run-time side of ``ge-instrument-ops``: the profile buffer of an instrumented CPU executable.

A profiling build (``CompileOptions(profile=True)``, ``CpuExecutable(profile=True)``) has one more
trailing argument, the profile buffer ``memref<Nx2xi64>`` (layout in
:mod:`ge_mlir.target.cpu.ge_instrument_ops`). :class:`CpuProfiler` owns that buffer, passes it on
every call and switches the stamps on and off through its control row: off (the default) the
compiled code only tests one flag per region, so a profiling build runs at full speed until
:func:`ge_mlir.profile` turns the stamps on. Nothing is called back into Python while the model
runs; after a call, :meth:`CpuProfiler.stamps` reads the ``CLOCK_MONOTONIC`` nanoseconds each stamp wrote.

One buffer per executable: like the workspace, it must not be shared by concurrent calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class CpuProfiler:
    """The profile buffer of one instrumented function and the regions its rows time.

    Attributes:
        regions: per region in program order, ``node`` (ONNX node name), ``op_type``, ``ops``
            (work ops wrapped) and ``kinds`` (their op names).
        rows: the buffer's row count (``3 + 2 * len(regions)``).
        buffer: the ``(rows, 2)`` int64 array passed as the last argument.
    """

    def __init__(self, layout: dict[str, Any]) -> None:
        self.regions: list[dict[str, Any]] = list(layout["regions"])
        self.rows: int = int(layout["rows"])
        if self.rows != 3 + 2 * len(self.regions):
            raise ValueError(f"profile layout of {len(self.regions)} regions has {self.rows} rows")
        # 64-byte aligned, like the workspace.
        raw = np.zeros(self.rows * 16 + 64, np.uint8)
        offset = (-raw.ctypes.data) % 64
        self.buffer: np.ndarray = raw[offset: offset + self.rows * 16].view(np.int64).reshape(self.rows, 2)

    @property
    def enabled(self) -> bool:
        """Whether the compiled code writes its stamps (the control row)."""
        return bool(self.buffer[0, 0])

    @enabled.setter
    def enabled(self, on: bool) -> None:
        self.buffer[0, 0] = 1 if on else 0

    def clear(self) -> None:
        """Zeroes every stamp (the control row is kept)."""
        self.buffer[1:] = 0

    def stamps(self) -> np.ndarray:
        """The ``CLOCK_MONOTONIC`` time of every row in nanoseconds (int64; row 0 is 0):
        row 1 the function's start, ``2 + 2k``/``3 + 2k`` region ``k``'s entry/exit, the last
        row the function's end."""
        ns = self.buffer[:, 0] * 1_000_000_000 + self.buffer[:, 1]
        ns[0] = 0
        return ns

    def durations(self, stamps: np.ndarray | None = None) -> np.ndarray:
        """Each region's nanoseconds in the last call (or in ``stamps``)."""
        ns = self.stamps() if stamps is None else stamps
        return ns[3:-1:2] - ns[2:-1:2]
