"""A roofline cost model of the emitted kernels: which kernel would dominate on the device.

**A model, not a measurement.** No NPU or simulator runs here. Each kernel template
records its work (``ascendc.kernel`` attribute ``work``): cube FLOPs, bytes through the
vector unit, element steps on the scalar pipe, and the GM bytes of its arguments (each read
or written once: a lower bound). The estimate is the slowest of the four rates below,
spread over the kernel's blocks (GM bandwidth is shared by the whole chip):

    cycles = max(cube_flops / (cube_flops_per_cycle * min(blocks, cube cores)),
                 vector_bytes / (vector_bytes_per_cycle * min(blocks, vector cores)),
                 scalar_ops * scalar_cycles_per_op / min(blocks, cores),
                 gm_bytes / gm_bytes_per_cycle)

The per-SoC rates are fields of the SoC records (:class:`.socs.SocInfo`), our assumptions,
labelled as such in every report (:mod:`.socs` says which parts are documented).
"""

from __future__ import annotations

from .socs import soc_info


def estimate(work: dict[str, int], blocks: int, soc: str | None = None) -> dict[str, object]:
    """``{"cycles", "us", "bound", "model"}`` for a kernel with ``work`` on ``blocks`` cores of ``soc``."""
    chip = soc_info(soc)
    cube_cores = chip.aic or 1
    vector_cores = chip.aiv or cube_cores
    blocks = max(1, blocks)
    terms = {
        "cube": work.get("cube_flops", 0) / (chip.cube_flops_per_cycle * min(blocks, cube_cores)),
        "vector": work.get("vector_bytes", 0) / (chip.vector_bytes_per_cycle * min(blocks, vector_cores)),
        "scalar": work.get("scalar_ops", 0) * chip.scalar_cycles_per_op / min(blocks, vector_cores),
        "memory": work.get("gm_bytes", 0) / chip.gm_bytes_per_cycle,
    }
    bound = max(terms, key=lambda k: terms[k])
    cycles = terms[bound]
    return {"cycles": int(round(cycles)), "us": cycles / (chip.clock_ghz * 1e3), "bound": bound,
            "model": f"roofline model of {chip.name} (assumed rates, not measured)"}
