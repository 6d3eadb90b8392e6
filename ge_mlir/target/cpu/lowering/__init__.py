"""ge -> linalg/tensor/arith/math lowerings, one module per op family (used by ``ge-lower-to-linalg``)."""
