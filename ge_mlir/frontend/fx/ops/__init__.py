"""ATen converters of the FX importer, one file per op family (as torch-mlir's conversions)."""

from . import creation, elementwise, linear, nn, reduction, shape  # noqa: F401  (register converters)
