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

_HOIST_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}"""


def hoist_vector_transfers(module: ir.Module | ir.Operation) -> None:
    """After bufferization: the matmul accumulator tile's read/write leave the K loop (see the module doc)."""
    from mlir.dialects.transform import interpreter

    with module.context, ir.Location.unknown():
        script = ir.Module.parse(_HOIST_SCRIPT)
        interpreter.apply_named_sequence(module.operation, script.body.operations[0], script)


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
