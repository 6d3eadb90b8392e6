"""Lowerings of the ge dialect to upstream MLIR dialects.

Importing :mod:`ge_mlir.lowering.ge_lower_to_linalg` registers the
``ge-lower-to-linalg`` pass (done by :mod:`ge_mlir.passes` at import time).
"""
