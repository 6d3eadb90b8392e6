"""The Ascend SoCs the ascendc target knows: one :class:`SocInfo` record each, read by the
lowering (``#ascendc.target``: on-chip sizes and core counts), the device-memory plan
(``gm_align``) and the cost model (:mod:`.cost`: the rates).

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

The cost-model rates are our assumptions, labelled as such in every report: the documented part
is that a vector repeat processes 256 bytes (8 DataBlocks of 32 B) and that the cube multiplies
16x16 fractals; the clock, the cube rate per element type, the scalar cost of a
GetValue/SetValue pair and the GM bandwidth are round figures of the public product
descriptions, not from the API documentation.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir


@dataclass(frozen=True)
class SocInfo:
    """One SoC: what ``#ascendc.target`` carries, its device memory, and the cost model's rates."""

    name: str
    arch: str
    #: On-chip bytes: unified buffer, L1, L0A, L0B, L0C.
    ub: int
    l1: int
    l0a: int
    l0b: int
    l0c: int
    #: AI cube / vector core counts (no vector cores: the AI cores run vector kernels too).
    aic: int
    aiv: int
    #: Alignment of each tensor in the device arena (the module doc).
    gm_align: int
    #: The device memory of the product line (public product specifications: 64 GB HBM on Atlas
    #: A2 training cards, 24 GB on Atlas 300I Pro); no tensor of a compiled graph may exceed it.
    gm_bytes: int
    #: The cost model's rates, assumed (the module doc): clock, cube FLOPs, vector bytes and GM
    #: bytes per cycle, cycles per scalar-pipe element step.
    clock_ghz: float
    cube_flops_per_cycle: float
    vector_bytes_per_cycle: float
    scalar_cycles_per_op: float
    gm_bytes_per_cycle: float

    def target_attr(self) -> ir.Attribute:
        """``#ascendc.target<...>`` of this SoC."""
        from ...dialects.ascendc import TargetAttr

        return TargetAttr.get(self.name, self.arch, self.ub, self.l1, self.l0a, self.l0b, self.l0c, self.aic,
                              self.aiv)


#: SoC name -> record.
SOCS: dict[str, SocInfo] = {soc.name: soc for soc in (
    SocInfo("Ascend910B1", "dav-2201", ub=196608, l1=524288, l0a=65536, l0b=65536, l0c=131072, aic=24, aiv=48,
            gm_align=64, gm_bytes=64 << 30,
            clock_ghz=1.8, cube_flops_per_cycle=4096.0,     # f32 on a 16x16x16-fractal cube
            vector_bytes_per_cycle=256.0, scalar_cycles_per_op=4.0,
            gm_bytes_per_cycle=880.0),                      # about 1.6 TB/s at 1.8 GHz
    SocInfo("Ascend310P3", "dav-2002", ub=262144, l1=1048576, l0a=65536, l0b=65536, l0c=262144, aic=8, aiv=0,
            gm_align=64, gm_bytes=24 << 30,
            clock_ghz=1.08, cube_flops_per_cycle=2048.0,
            vector_bytes_per_cycle=128.0, scalar_cycles_per_op=4.0,
            gm_bytes_per_cycle=190.0),                      # about 200 GB/s
)}
DEFAULT_SOC = "Ascend910B1"
#: Unified-buffer bytes the kernel templates leave free (reduction scratch, alignment).
UB_HEADROOM = 32 * 1024
#: The documented size of one piece of a carved-up aclrtMalloc block: its bytes rounded up to
#: ``GM_SEGMENT_GRANULE``, plus ``GM_SEGMENT_TAIL`` (see the module doc).
GM_SEGMENT_GRANULE = 32
GM_SEGMENT_TAIL = 32


def soc_info(soc: str | None) -> SocInfo:
    """The record of ``soc``; the default SoC's for an unknown or missing one."""
    return SOCS.get(soc or DEFAULT_SOC, SOCS[DEFAULT_SOC])


def gm_segment_bytes(nbytes: int) -> int:
    """Bytes a tensor of ``nbytes`` reserves in a device arena: ``ALIGN_UP(nbytes, 32) + 32``."""
    return -(-nbytes // GM_SEGMENT_GRANULE) * GM_SEGMENT_GRANULE + GM_SEGMENT_TAIL


def gm_align(soc: str | None) -> int:
    """The device-arena alignment of ``soc`` (the default SoC's for an unknown or missing one)."""
    return soc_info(soc).gm_align
