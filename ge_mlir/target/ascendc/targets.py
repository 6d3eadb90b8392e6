"""Ascend SoC descriptions the ascendc target knows (``#ascendc.target``).

Ascend910B1 (Atlas A2, dav-2201) uses the documented A2 buffer sizes. The
Ascend310P3 (dav-2002) figures are the shim's (not in the API notes we work
from; unverified), so that kernels planned for it also pass the shim's
capacity checks.

``gm_align`` is the alignment of every intermediate tensor in the host
program's device arena (``ge-plan-device-memory``). Documented (ACL API
reference, ``aclrtMalloc``, CANN 8.0/8.1; the same text for A2/A3): the
returned address is 64-byte aligned, and a program that carves one large
allocation into pieces must give each piece ``ALIGN_UP(len, 32) + 32`` bytes
and start it at a 64-byte aligned address. Kernel-side, GM needs only
``sizeof(T)`` alignment for DataCopy (ASCENDC_API.md section 1.4). Nothing
else is chosen: 64 and the segment rule below are the documented values.
"""

from __future__ import annotations

from mlir import ir

#: SoC name -> architecture, on-chip bytes, AI cube / vector core counts.
SOCS: dict[str, dict[str, object]] = {
    "Ascend910B1": {"arch": "dav-2201", "ub": 196608, "l1": 524288, "l0a": 65536, "l0b": 65536,
                    "l0c": 131072, "aic": 24, "aiv": 48, "gm_align": 64, "gm_bytes": 64 << 30},
    "Ascend310P3": {"arch": "dav-2002", "ub": 262144, "l1": 1048576, "l0a": 65536, "l0b": 65536,
                    "l0c": 262144, "aic": 8, "aiv": 0, "gm_align": 64, "gm_bytes": 24 << 30},
}
#: ``gm_bytes``: the device memory of the product line (public product specifications: 64 GB HBM
#: on Atlas A2 training cards, 24 GB on Atlas 300I Pro); no tensor of a compiled graph may exceed it.
DEFAULT_SOC = "Ascend910B1"
#: Unified-buffer bytes the kernel templates leave free (reduction scratch, alignment).
UB_HEADROOM = 32 * 1024
#: The documented size of one piece of a carved-up aclrtMalloc block: its bytes rounded up to
#: ``GM_SEGMENT_GRANULE``, plus ``GM_SEGMENT_TAIL`` (see the module doc).
GM_SEGMENT_GRANULE = 32
GM_SEGMENT_TAIL = 32


def gm_segment_bytes(nbytes: int) -> int:
    """Bytes a tensor of ``nbytes`` reserves in a device arena: ``ALIGN_UP(nbytes, 32) + 32``."""
    return -(-nbytes // GM_SEGMENT_GRANULE) * GM_SEGMENT_GRANULE + GM_SEGMENT_TAIL


def gm_align(soc: str | None) -> int:
    """The device-arena alignment of ``soc`` (the default SoC's for an unknown or missing one)."""
    return int(SOCS.get(soc or DEFAULT_SOC, SOCS[DEFAULT_SOC])["gm_align"])


def target_attr(soc: str) -> ir.Attribute:
    """``#ascendc.target<...>`` of a known SoC (KeyError for others)."""
    from ...dialects.ascendc import TargetAttr

    d = SOCS[soc]
    return TargetAttr.get(soc, d["arch"], *(d[k] for k in ("ub", "l1", "l0a", "l0b", "l0c", "aic", "aiv")))
