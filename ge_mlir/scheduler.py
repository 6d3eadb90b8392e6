"""``ge_mlir.scheduler``: register pipeline schedulers (the implementation is
:mod:`ge_mlir.partition.scheduler`; docs/parallel.md has an example)."""

from .partition.scheduler import Scheduler, get, register, registered, theoretical_bubble

__all__ = ["Scheduler", "get", "register", "registered", "theoretical_bubble"]
