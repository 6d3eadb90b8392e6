"""The cost model that balances pipeline stages and proposes strategies.

An op's time is estimated as its FLOPs (:func:`ge_mlir.irutils.cost.op_flops`)
at ``FLOPS_PER_S`` plus the bytes it reads and writes at ``BYTES_PER_S``: rough
figures of one CPU core (they only need to rank ops, not predict latency).
"""

from __future__ import annotations

from mlir import ir

from ..irutils.cost import op_flops
from ..irutils.types import tensor_bytes

FLOPS_PER_S = 50e9
BYTES_PER_S = 10e9


def value_bytes(v: ir.Value) -> int:
    try:
        return int(tensor_bytes(ir.RankedTensorType(v.type)) or 0)
    except (ValueError, TypeError):
        return 0


def op_cost(op: ir.Operation) -> tuple[float, int, int]:
    """(estimated seconds, FLOPs, bytes moved) of one op."""
    op = op.operation
    flops = op_flops(op)
    moved = sum(value_bytes(v) for v in op.operands) + sum(value_bytes(r) for r in op.results)
    return flops / FLOPS_PER_S + moved / BYTES_PER_S, flops, moved
