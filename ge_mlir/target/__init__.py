"""Code generation targets of ge-mlir (``ge_mlir.target.cpu``: LLVM JIT on the host CPU)."""
