"""ONNX front end: ``import_onnx(model, input_shapes=...) -> ir.Module``."""

from ...errors import InvalidModelError, OnnxImportError, UnsupportedOpsError
from . import ops  # noqa: F401  (registers the converters)
from .importer import import_onnx, load_model
from .registry import converter, supported_ops

__all__ = ["InvalidModelError", "OnnxImportError", "UnsupportedOpsError", "converter", "import_onnx", "load_model", "supported_ops"]
