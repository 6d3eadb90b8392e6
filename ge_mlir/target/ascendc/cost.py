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

The per-SoC rates (``MODELS``) are our assumptions, labelled as such in every report:
the documented part is that a vector repeat processes 256 bytes (8 DataBlocks of 32 B) and
that the cube multiplies 16x16 fractals; the clock, the cube rate per element type, the
scalar cost of a GetValue/SetValue pair and the GM bandwidth are round figures of the
public product descriptions, not from the API documentation.
"""

from __future__ import annotations

from .targets import DEFAULT_SOC, SOCS

#: Assumed rates per SoC (see the module doc).
MODELS: dict[str, dict[str, float]] = {
    "Ascend910B1": {"clock_ghz": 1.8, "cube_flops_per_cycle": 4096.0,   # f32 on a 16x16x16-fractal cube
                    "vector_bytes_per_cycle": 256.0, "scalar_cycles_per_op": 4.0,
                    "gm_bytes_per_cycle": 880.0},                       # about 1.6 TB/s at 1.8 GHz
    "Ascend310P3": {"clock_ghz": 1.08, "cube_flops_per_cycle": 2048.0,
                    "vector_bytes_per_cycle": 128.0, "scalar_cycles_per_op": 4.0,
                    "gm_bytes_per_cycle": 190.0},                       # about 200 GB/s
}


def estimate(work: dict[str, int], blocks: int, soc: str | None = None) -> dict[str, object]:
    """``{"cycles", "us", "bound", "model"}`` for a kernel with ``work`` on ``blocks`` cores of ``soc``."""
    name = soc if soc in MODELS else DEFAULT_SOC
    m, chip = MODELS[name], SOCS[name]
    cube_cores = int(chip["aic"]) or 1
    vector_cores = int(chip["aiv"]) or cube_cores
    blocks = max(1, blocks)
    terms = {
        "cube": work.get("cube_flops", 0) / (m["cube_flops_per_cycle"] * min(blocks, cube_cores)),
        "vector": work.get("vector_bytes", 0) / (m["vector_bytes_per_cycle"] * min(blocks, vector_cores)),
        "scalar": work.get("scalar_ops", 0) * m["scalar_cycles_per_op"] / min(blocks, vector_cores),
        "memory": work.get("gm_bytes", 0) / m["gm_bytes_per_cycle"],
    }
    bound = max(terms, key=lambda k: terms[k])
    cycles = terms[bound]
    return {"cycles": int(round(cycles)), "us": cycles / (m["clock_ghz"] * 1e3), "bound": bound,
            "model": f"roofline model of {name} (assumed rates, not measured)"}
