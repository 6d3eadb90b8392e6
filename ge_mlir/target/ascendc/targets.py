"""Ascend SoC descriptions the ascendc target knows (``#ascendc.target``).

Ascend910B1 (Atlas A2, dav-2201) uses the documented A2 buffer sizes. The
Ascend310P3 (dav-2002) figures are the shim's (not in the API notes we work
from; unverified), so that kernels planned for it also pass the shim's
capacity checks.
"""

from __future__ import annotations

from mlir import ir

#: SoC name -> architecture, on-chip bytes, AI cube / vector core counts.
SOCS: dict[str, dict[str, object]] = {
    "Ascend910B1": {"arch": "dav-2201", "ub": 196608, "l1": 524288, "l0a": 65536, "l0b": 65536,
                    "l0c": 131072, "aic": 24, "aiv": 48},
    "Ascend310P3": {"arch": "dav-2002", "ub": 262144, "l1": 1048576, "l0a": 65536, "l0b": 65536,
                    "l0c": 262144, "aic": 8, "aiv": 0},
}
DEFAULT_SOC = "Ascend910B1"
#: Unified-buffer bytes the kernel templates leave free (reduction scratch, alignment).
UB_HEADROOM = 32 * 1024


def target_attr(soc: str) -> ir.Attribute:
    """``#ascendc.target<...>`` of a known SoC (KeyError for others)."""
    from ...dialects.ascendc import TargetAttr

    d = SOCS[soc]
    return TargetAttr.get(soc, d["arch"], *(d[k] for k in ("ub", "l1", "l0a", "l0b", "l0c", "aic", "aiv")))
