"""Parallel execution: partitioned models compiled per rank and run on MPI.

:mod:`ge_mlir.partition` (below) turns a graph into per-rank parts; this layer compiles
each rank's part with the CPU target and runs it (:mod:`.runtime`), drives
``ge_mlir.compile(model, parallel=...)`` (:mod:`.driver`) and proposes strategies
(:mod:`.propose`); ``python -m ge_mlir.parallel`` (:mod:`.__main__`) is the program every
rank runs, which ``ge-run`` starts. docs/parallel.md.
"""
