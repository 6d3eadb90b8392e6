"""Tensor liveness of a ge function's entry block, shared by ge-schedule-memory and the estimator.

The model (the one the CPU memory plan follows after bufferization):

* a value is a tensor from the op defining it to its last use (ops are numbered by
  their position in the entry block, the terminator excluded);
* function arguments and constants are not tensors of the function (the caller's buffers
  and globals): they cost nothing;
* reshape-like results (:data:`VIEW_OPS`: reshape, flatten, squeeze, unsqueeze, identity)
  are views: they are no tensor themselves; a use of a view is a use of the tensor it
  views (its *root*), and a view of an argument or a constant costs nothing either;
* values the terminator returns are marked (:attr:`BlockTensors.returned`): callers
  decide what they cost (ge-schedule-memory counts nothing, they become the caller's
  out-parameters).

Uses inside an op's regions count as uses by the op itself.
"""

from __future__ import annotations

from mlir import ir

from ..irutils.ge_ops import VIEW_OPS
from ..irutils.types import tensor_bytes

__all__ = ["CONSTANT_OPS", "VIEW_OPS", "BlockTensors", "Key", "operands_from_outside", "producer"]

CONSTANT_OPS = frozenset({"ge.constant", "arith.constant"})

#: A result as (op index, result number).
Key = tuple[int, int]


class BlockTensors:
    """The entry block as indices: ops, the tensors their results are, and who uses them.

    Attributes:
        ops: the block's ops without the terminator; ``term`` is the terminator.
        index: op -> its position in ``ops``.
        constant: per op, whether it is a constant (no operands, no regions).
        deps: per op, the positions of the ops defining its operands (nested uses included).
        root: per result, the tensor it is (a view's source's root), None for constants,
            views of arguments and views of constants.
        nbytes: per tensor (root key), its static byte size (0 when not statically sized).
        users: per tensor, the ops using it directly or through views.
        reads: per op, ``(operand number, tensor)`` for every operand that is a tensor of
            the block (operand number -1 for values used inside the op's regions).
        returned: the tensors the terminator returns (directly or through views).
    """

    def __init__(self, block: ir.Block) -> None:
        ops = [op.operation for op in block.operations]
        self.term = ops[-1]
        self.ops = ops[:-1]
        self.index = {op: i for i, op in enumerate(self.ops)}
        n = len(self.ops)
        self.n = n
        self.deps: list[set[int]] = [set() for _ in range(n)]
        self.constant = [op.name in CONSTANT_OPS and not len(op.operands) and not len(op.regions)
                         for op in self.ops]
        self.root: dict[Key, Key | None] = {}
        self.nbytes: dict[Key, int] = {}
        self.users: dict[Key, set[int]] = {}
        self.reads: list[list[tuple[int, Key]]] = [[] for _ in range(n)]
        for i, op in enumerate(self.ops):
            direct = len(op.operands)
            for pos, v in enumerate(operands_from_outside(op)):
                src = producer(v, self.index)
                if src is None:
                    continue
                self.deps[i].add(src[0])
                r = self.root.get(src)
                if r is not None:
                    self.users[r].add(i)
                    self.reads[i].append((pos if pos < direct else -1, r))
            for k, res in enumerate(op.results):
                if op.name in VIEW_OPS and len(op.operands):
                    # A view of an argument or a constant costs nothing either.
                    src = producer(op.operands[0], self.index)
                    self.root[(i, k)] = None if src is None else self.root[src]
                elif self.constant[i]:
                    self.root[(i, k)] = None
                else:
                    self.root[(i, k)] = (i, k)
                    self.nbytes[(i, k)] = tensor_bytes(res.type) or 0
                    self.users[(i, k)] = set()
        self.returned: set[Key] = set()
        for v in self.term.operands:
            src = producer(v, self.index)
            if src is not None and self.root.get(src) is not None:
                self.returned.add(self.root[src])

    def root_of(self, v: ir.Value) -> Key | None:
        """The tensor ``v`` is (None for arguments, constants and views of them)."""
        src = producer(v, self.index)
        return None if src is None else self.root.get(src)


def producer(v: ir.Value, index: dict) -> Key | None:
    """(op index, result number) of the entry-block op defining ``v``, None for arguments and outer values."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    owner = owner.operation if isinstance(owner, ir.OpView) else owner
    i = index.get(owner)
    return None if i is None else (i, ir.OpResult(v).result_number)


def operands_from_outside(op: ir.Operation) -> list[ir.Value]:
    """Operands of ``op`` and of ops nested in its regions (values captured from the block count too)."""
    values = list(op.operands)
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                values.extend(operands_from_outside(inner.operation))
    return values
