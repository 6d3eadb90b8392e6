"""PyTorch front end: ``import_module(module, example_args)`` through the ONNX exporter.

PyTorch is an optional dependency (``pip install torch==2.13.0``). The
torch.export-based exporter (``exporter="dynamo"``, needs ``onnxscript``) is
the default when available; ``exporter="torchscript"`` uses the legacy
TorchScript exporter. Either way the exported ModelProto goes through
:func:`ge_mlir.frontend.onnx.import_onnx`, so node names in locations are the
exporter's (which name the torch module path, e.g. ``/layer1/conv1/Conv``).
"""

from __future__ import annotations

import io
import warnings
from typing import Any, Mapping, Sequence

from mlir import ir

from ..errors import ImportError_
from .onnx import import_onnx


class TorchImportError(ImportError_):
    """The torch module could not be exported to ONNX."""


def _exporters() -> list[str]:
    try:
        import onnxscript  # noqa: F401

        return ["dynamo", "torchscript"]
    except ImportError:
        return ["torchscript"]


def export_onnx(
    module: Any,
    example_args: Sequence[Any],
    *,
    input_names: Sequence[str] | None = None,
    output_names: Sequence[str] | None = None,
    opset: int | None = None,
    exporter: str = "auto",
    dynamic_batch: bool = False,
    dynamic_axes: Mapping[str, Mapping[int, str]] | None = None,
):
    """Exports ``module`` to an ``onnx.ModelProto`` (eval mode, no grad).

    ``dynamic_batch`` names dim 0 of every input ``batch``; ``dynamic_axes`` (input name -> {dim:
    name}, as ``torch.onnx.export`` takes it) names any dims. Named dims stay ``?`` dims in ge-mlir
    (``docs/dynamic_shapes.md``)."""
    try:
        import torch
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise TorchImportError("PyTorch is not installed: pip install torch==2.13.0") from e
    if exporter == "auto":
        exporter = _exporters()[0]
    if exporter not in ("dynamo", "torchscript"):
        raise TorchImportError(f"unknown exporter {exporter!r} (use 'dynamo' or 'torchscript')")
    module = module.eval()
    args = tuple(example_args)
    names = list(input_names) if input_names else [f"input_{i}" for i in range(len(args))]
    dyn = {n: {0: "batch"} for n in names} if dynamic_batch else None
    if dynamic_axes:
        dyn = {**(dyn or {}), **{k: dict(v) for k, v in dynamic_axes.items()}}
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if exporter == "dynamo":
                program = torch.onnx.export(
                    module, args, dynamo=True, input_names=names, output_names=output_names,
                    opset_version=opset, dynamic_axes=dyn, verbose=False,
                )
                return program.model_proto
            import onnx

            buf = io.BytesIO()
            torch.onnx.export(
                module, args, buf, dynamo=False, input_names=names, output_names=output_names,
                opset_version=opset or 17, dynamic_axes=dyn,
            )
            return onnx.load_from_string(buf.getvalue())
    except TorchImportError:
        raise
    except Exception as e:
        raise TorchImportError(f"torch.onnx.export ({exporter}) failed: {type(e).__name__}: {e}") from e


def import_module(
    module: Any,
    example_args: Sequence[Any],
    *,
    input_names: Sequence[str] | None = None,
    output_names: Sequence[str] | None = None,
    opset: int | None = None,
    exporter: str = "auto",
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    context: ir.Context | None = None,
) -> ir.Module:
    """Imports a ``torch.nn.Module`` called on ``example_args`` into a ge module."""
    proto = export_onnx(
        module, example_args, input_names=input_names, output_names=output_names, opset=opset, exporter=exporter
    )
    return import_onnx(proto, input_shapes=input_shapes, context=context)
