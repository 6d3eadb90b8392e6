"""The compile's progress bar (also :func:`ge_mlir.profile`'s)."""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar"]


class ProgressBar:
    """A one-line progress bar on stderr, shown once the work passes 1 s: a compile's stages,
    a profile's iterations (``what``)."""

    def __init__(self, total: int, enabled: bool | None, what: str = "compile") -> None:
        self.total, self.done, self.what = total, 0, what
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.shown = False

    def step(self, stage: str) -> None:
        self.done += 1
        self._draw(stage, "\n" if self.done == self.total else "")

    def working(self, label: str) -> None:
        """Shows what runs now (e.g. ``optimize: ge-fuse-conv-bn``) without counting a step done."""
        self._draw(label, "")

    def _draw(self, label: str, end: str) -> None:
        elapsed = time.perf_counter() - self.start
        if not self.enabled or (elapsed < 1.0 and not self.shown):
            return
        self.shown = True
        width = 20
        filled = width * self.done // self.total
        bar = "#" * filled + "-" * (width - filled)
        # One width for every label, so a shorter one overwrites a longer one completely.
        sys.stderr.write(f"\rge-mlir {self.what} [{bar}] {self.done}/{self.total} {label[:36]:<36} {elapsed:6.1f} s{end}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown and self.done < self.total:
            sys.stderr.write("\n")
            sys.stderr.flush()
