"""``torch.compile(model, backend="ge_mlir")``: ge-mlir as a dynamo backend.

Registered through the ``torch_dynamo_backends`` entry point, so the string works after
``pip install``. Dynamo's graph goes through AOTAutograd (:func:`ge_mlir.frontend.fx.decompositions`):
the forward graph (inference) or the forward and backward graphs (training) each become a ge
graph compiled for the CPU target (docs/training.md).
"""

from __future__ import annotations

from .backend import BackendOptions, backend, ge_mlir_backend

__all__ = ["BackendOptions", "backend", "ge_mlir_backend"]
