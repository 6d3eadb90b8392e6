"""ge-check-tensor-sizes: fails on tensors too large to compile or to hold.

Refuses any tensor whose byte size overflows int64 (MLIR's layout
computations abort the process on them during bufferization), and any
constant larger than the memory limit (LLVM builds a constant as a global,
element by element: a 4 PB splat ended the process with std::bad_alloc inside
the JIT). Outputs and the workspace are allocated by the caller, which refuses
them with their size. The ge verifier checks the graph's own types; this pass
the ones the lowering and the codegen strategy create (a padded convolution
input, an im2col matrix). It changes nothing.

The memory limit is ``limit`` when set, else ``GE_MLIR_WORKSPACE_LIMIT``, else
the physical memory or the address-space ulimit, whichever is smaller.
"""

from __future__ import annotations

import os

from mlir import ir

from ...errors import ExecutionError, PassFailure, format_location
from ...irutils.types import tensor_bytes
from ...passes.registry import Option, Pass, register_pass

_INT64_MAX = 2**63 - 1
#: Environment variable overriding the largest workspace (bytes) an
#: executable allocates; default: the machine's physical memory.
WORKSPACE_LIMIT_ENV = "GE_MLIR_WORKSPACE_LIMIT"

#: Ops whose results are materialized whole at compile time.
_MATERIALIZED = ("arith.constant", "ge.constant")


def workspace_limit() -> int:
    """Largest workspace in bytes an executable allocates (``GE_MLIR_WORKSPACE_LIMIT``,
    else the physical memory or the address-space ulimit, whichever is smaller)."""
    text = os.environ.get(WORKSPACE_LIMIT_ENV)
    if text:
        try:
            return int(float(text))
        except ValueError:
            raise ExecutionError(f"{WORKSPACE_LIMIT_ENV} must be a byte count, got {text!r}") from None
    try:
        import resource

        physical = int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]  # a ulimit -v the process runs under
        return physical if soft == resource.RLIM_INFINITY else min(physical, int(soft))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return _INT64_MAX


@register_pass
class GeCheckTensorSizesPass(Pass):
    name = "ge-check-tensor-sizes"
    summary = "Fail on tensors whose byte size overflows int64 and on constants larger than memory"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 30
    options = (
        Option("after", str, "lowering to linalg", "the step that created the tensors, named in the error"),
        Option("limit", int, 0, "largest constant in bytes; 0: GE_MLIR_WORKSPACE_LIMIT, else the memory"),
    )

    def run(self, module: ir.Operation) -> None:
        try:
            limit = self.opt("limit") or workspace_limit()
        except ExecutionError as e:  # a malformed GE_MLIR_WORKSPACE_LIMIT
            raise PassFailure(e.message) from None
        check_tensor_sizes(module, self.opt("after"), limit)


def check_tensor_sizes(module: ir.Operation, what: str, limit: int) -> None:
    """Raises :class:`PassFailure` at the first op producing a tensor too large (see the module doc)."""
    bad: list[tuple[ir.Operation, ir.Type, int, bool]] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        materialized = o.name in _MATERIALIZED
        for v in o.results:
            size = tensor_bytes(v.type)
            if size is not None and (size > _INT64_MAX or (materialized and size > limit)):
                bad.append((o, v.type, size, size > _INT64_MAX))
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    if not bad:
        return
    o, t, size, overflow = bad[0]
    where = f"'{o.name}' at {format_location(o.location)}"
    if overflow:
        raise PassFailure(
            f"{what} creates a tensor too large to compile: {where} produces {t} "
            f"({size} bytes, more than int64 can address)", at=o)
    raise PassFailure(
        f"{what} needs a tensor too large to hold: {where} has {t} ({size} bytes, {size / 2**30:.1f} GiB), more "
        f"than the limit of {limit} bytes (the physical memory or the ulimit unless {WORKSPACE_LIMIT_ENV} is set)",
        at=o)
