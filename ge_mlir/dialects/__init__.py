"""Python op classes of ge-mlir's dialects (generated from TableGen)."""
