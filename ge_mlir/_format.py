"""Human-readable quantities for reports and messages (standard library only: saved plans and
profiles are formatted without MLIR)."""

from __future__ import annotations

__all__ = ["BYTE_UNITS", "format_bytes"]

#: Binary units, each 1024 times the one before.
BYTE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


def format_bytes(n: float, *, digits: int = 2, largest: str = "TiB") -> str:
    """``n`` bytes in the largest binary unit up to ``largest`` that keeps the number at least 1,
    with ``digits`` decimals (``1.50 MiB``); whole bytes below 1 KiB (``1023 B``).

    The memory plan's reports use the defaults, the profiler stops at GiB, and budget errors
    write one decimal up to MiB (a budget can be a few KiB in tests)."""
    last = BYTE_UNITS.index(largest)
    n = float(n)
    i = 0
    while abs(n) >= 1024 and i < last:
        n /= 1024
        i += 1
    return f"{int(n)} B" if i == 0 else f"{n:.{digits}f} {BYTE_UNITS[i]}"
