"""ge-hoist-vector-transfers: redundant vector transfer pairs leave their loops (after bufferization).

The matmul accumulator tile of ``ge-apply-codegen-strategy`` is read before
and written after every K step. On tensors the pair reads and writes the K
loop's own iter_arg, which subset hoisting does not move; on buffers it is a
plain loop-invariant transfer pair, so
``transform.structured.hoist_redundant_vector_transfers`` moves it out and the
tile lives in registers across K.
"""

from __future__ import annotations

from mlir import ir

from ...errors import PassFailure
from ...passes.registry import Pass, register_pass
from .codegen import hoist_vector_transfers


@register_pass
class GeHoistVectorTransfersPass(Pass):
    name = "ge-hoist-vector-transfers"
    summary = "Hoist loop-invariant vector.transfer_read/write pairs on buffers out of their loops"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 90

    def run(self, module: ir.Operation) -> None:
        try:
            hoist_vector_transfers(module)
        except (ValueError, ir.MLIRError) as e:
            raise PassFailure(f"the CPU codegen strategy failed: {e}") from None
