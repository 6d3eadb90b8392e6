"""FX/ATen front end: torch.fx graphs of core ATen ops -> the ge dialect.

The route of ``torch.compile(backend="ge_mlir")`` and of training steps (docs/training.md says why
an ATen importer and not an ONNX export per graph): dynamo's graph, lowered by AOTAutograd with
:func:`decompositions`, is converted node by node (``ops/``, one file per op family, as
torch-mlir's conversions).
"""

from __future__ import annotations

from typing import Any

from .importer import FxImportError, UnsupportedFxOpsError, import_fx
from .registry import registered

__all__ = ["FxImportError", "UnsupportedFxOpsError", "decompositions", "import_fx", "registered"]


def decompositions() -> dict[Any, Any]:
    """The decomposition table ge-mlir traces with: torch's core-ATen decompositions (which also
    turn most backward ops into forward ones: threshold/gelu/tanh/softmax/layer-norm/batch-norm
    backward, embedding backward, NLL loss) plus training-mode batch norm and max-pool backward,
    minus the ops that have a ge op of their own and are converted whole."""
    import torch
    from torch._decomp import core_aten_decompositions, get_decompositions

    aten = torch.ops.aten
    table = dict(core_aten_decompositions())
    table.update(get_decompositions([
        aten._native_batch_norm_legit_functional, aten._native_batch_norm_legit,
        aten.max_pool2d_with_indices_backward, aten.native_batch_norm,
    ]))
    for op in (aten.gelu, aten.silu, aten.native_layer_norm, aten._softmax, aten._log_softmax,
               aten.addmm, aten.max_pool2d_with_indices, aten.avg_pool2d, aten.embedding,
               aten._native_batch_norm_legit_no_training):
        for overload in list(table):
            if getattr(overload, "overloadpacket", None) is op:
                del table[overload]
    return table
