"""Kernel parameters from the CPU the JIT generates code for.

The matmul register tile must fit the vector register file of the CPU the code
runs on: an ``[TM, TN]`` f32 accumulator tile takes ``TM * TN / lanes``
registers, the current row of B ``TN / lanes`` more and the broadcast element
of A one. A tile sized for AVX-512 (32 registers of 16 lanes) spills on an
AVX2-only CPU (16 registers of 8 lanes), so the tile is chosen here from the
JIT CPU (``runner.JIT_CPUS``: the host, or an x86-64 level), never fixed.

The rule (the BLIS/MLAS micro-kernel shape): two vectors of columns, and as
many rows as the remaining registers allow, capped at 8 rows (on AVX-512 the
8x32 tile was measured as fast as larger ones; more rows only lengthen the
row remainders of small matrices).
"""

from __future__ import annotations

import functools
import platform
from dataclasses import dataclass

__all__ = ["KernelParams", "kernel_params"]

#: Rows of the register tile at most (see the module doc).
MAX_TILE_ROWS = 8


@dataclass(frozen=True)
class KernelParams:
    """What the CPU codegen strategy sizes its kernels by.

    Attributes:
        cpu: the JIT CPU (``host`` resolved to LLVM's name for it, e.g. ``znver4``) or x86-64 level.
        vector_bits: width of the widest vector register the code may use.
        vector_registers: architectural vector registers of that width.
        tile_m: rows of the f32 matmul register tile.
        tile_n: columns of the f32 matmul register tile (two vectors).
        gemv_n: columns of a one-row f32 tile (matrix-vector products): half the registers as
            accumulators, so that many independent FMA chains hide the FMA latency.
    """

    cpu: str
    vector_bits: int
    vector_registers: int
    tile_m: int
    tile_n: int
    gemv_n: int


def _vector_file(features: set[str], machine: str) -> tuple[int, int]:
    """(vector bits, registers) of a feature set."""
    if machine in ("x86_64", "amd64"):
        if "avx512f" in features:
            return 512, 32
        if "avx" in features:
            return 256, 16
        return 128, 16
    if machine in ("aarch64", "arm64"):
        return 128, 32  # NEON (SVE's length is a run-time property; not used by the JIT here)
    return 128, 16


@functools.lru_cache(maxsize=None)
def kernel_params(cpu: str = "host") -> KernelParams:
    """The kernel parameters for code the JIT generates for ``cpu`` (``runner.JIT_CPUS``).

    ``host`` reads the host's features as LLVM detects them (the JIT compiles for
    exactly those); an x86-64 level uses that level's features, so an AVX-512
    machine asked for ``x86-64-v3`` gets the AVX2 tile an AVX2-only machine gets.
    """
    from .artefact import LEVEL_FEATURES, host_cpu

    if cpu == "host":
        host = host_cpu()
        name, features, machine = host["cpu"], set(host["features"]), platform.machine().lower()
    elif cpu in LEVEL_FEATURES:
        name, features, machine = cpu, set(LEVEL_FEATURES[cpu]), "x86_64"
    else:
        raise ValueError(f"unknown JIT CPU {cpu!r} (host or one of {', '.join(LEVEL_FEATURES)})")
    bits, registers = _vector_file(features, machine)
    vectors = 2  # columns of the tile, in vectors
    rows = min(MAX_TILE_ROWS, (registers - vectors - 1) // vectors)
    return KernelParams(cpu=name, vector_bits=bits, vector_registers=registers, tile_m=rows,
                        tile_n=vectors * (bits // 32), gemv_n=(registers // 2) * (bits // 32))
