"""ge-tie-donated-results: a result computed into the buffer of an input the caller donated, when
nothing reads that input after the result's first write.

A training step returns each updated parameter and optimizer state as a new value; computed into a
fresh out-parameter, every step would allocate and write a second copy of the model. The caller
(``compile_train_step``) donates those inputs: the entry function's ``ge.donate`` attribute
(``{inputs = N, pairs = [result, input, ...]}``) says result ``r`` may reuse input ``i``'s buffer,
as XLA's input-output aliases and IREE's tied operands do. After bufferization every result is an
out-parameter (argument ``N + r``); in the entry block, in program order, the pair is tied when the
last top-level op touching the input (through any view of it) comes before the first top-level op
touching the out-parameter: the runner then passes the input's array as that out-parameter and the
step updates it in place. A pair that is not safe stays untied (a fresh buffer, as before), so the
result is always what the graph computes. Tied pairs are recorded as ``ge.tied_results`` (out-parameter
argument, input argument, ...); ``ge-mark-noalias-arguments`` leaves both arguments of a pair
without ``llvm.noalias``.

Runs after ``buffer-results-to-out-params`` and ``ge-forward-result-buffers``, before the memory
plan adds the workspace argument.
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass

DONATE_ATTR = "ge.donate"
TIED_ATTR = "ge.tied_results"
_VIEWS = {"memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.view",
          "memref.reinterpret_cast", "memref.cast", "memref.transpose"}


def _top_level_positions(block: ir.Block) -> dict[ir.Operation, int]:
    return {op.operation: i for i, op in enumerate(block.operations)}


def _top(op: ir.Operation, block_ops: dict[ir.Operation, int]) -> int | None:
    """The entry-block position of the top-level op containing ``op``."""
    while op is not None:
        pos = block_ops.get(op)
        if pos is not None:
            return pos
        parent = op.parent
        op = parent.operation if parent is not None else None
    return None


def _uses(value: ir.Value, block_ops: dict[ir.Operation, int]) -> list[int]:
    """Top-level positions of every op using ``value`` or a view of it."""
    out: list[int] = []
    todo = [value]
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner.operation if hasattr(use.owner, "operation") else use.owner
            pos = _top(user, block_ops)
            if pos is not None:
                out.append(pos)
            if user.name in _VIEWS:
                todo.extend(user.results)
    return out


def _views(value: ir.Value) -> set[ir.Value]:
    """Every view derived from ``value`` (not ``value`` itself)."""
    out: set[ir.Value] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner.operation if hasattr(use.owner, "operation") else use.owner
            if user.name in _VIEWS:
                for r in user.results:
                    if r not in out:
                        out.add(r)
                        todo.append(r)
    return out


def _elementwise_in_place(block: ir.Block, pos: int, src: ir.Value, dst: ir.Value) -> bool:
    """Whether the top-level op at ``pos`` is an elementwise ``linalg.generic`` reading ``src`` and
    writing ``dst`` directly, both with identity indexing maps: element k of ``dst`` is written
    after element k of ``src`` is read and no other element of ``src`` is read (the optimizer
    update ``p - lr * ...`` fused into one loop); one-shot bufferization's in-place rule."""
    op = list(block.operations)[pos].operation
    if op.name != "linalg.generic":
        return False
    if any(str(a) != "#linalg.iterator_type<parallel>" for a in ir.ArrayAttr(op.attributes["iterator_types"])):
        return False
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
    n_inputs = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[0]
    operands = list(op.operands)
    src_at = [k for k, v in enumerate(operands) if v == src]
    dst_at = [k for k, v in enumerate(operands) if v == dst]
    if len(src_at) != 1 or len(dst_at) != 1 or src_at[0] >= n_inputs or dst_at[0] < n_inputs:
        return False
    views = _views(src) | _views(dst)
    if any(v in views for v in operands):  # the same buffer read or written at other indices
        return False
    return all(maps[k].is_permutation and maps[k] == ir.AffineMap.get_identity(maps[k].n_dims)
               for k in (src_at[0], dst_at[0]))


def tie_donated_results(fn: ir.Operation) -> list[int]:
    """Ties the safe donated pairs of ``fn``; returns ``[out_arg, in_arg, ...]``."""
    if DONATE_ATTR not in fn.attributes or not fn.regions[0].blocks:
        return []
    donate = ir.DictAttr(fn.attributes[DONATE_ATTR])
    n_in = ir.IntegerAttr(donate["inputs"]).value
    pairs = list(ir.DenseI64ArrayAttr(donate["pairs"]))
    block = fn.regions[0].blocks[0]
    args = list(block.arguments)
    positions = _top_level_positions(block)
    tied: list[int] = []
    for r, i in zip(pairs[::2], pairs[1::2]):
        out_index = n_in + r
        if out_index >= len(args) or i >= n_in or args[out_index].type != args[i].type:
            continue
        reads, writes = _uses(args[i], positions), _uses(args[out_index], positions)
        if not writes:
            continue
        if not reads or max(reads) < min(writes) or (
                max(reads) == min(writes) and _elementwise_in_place(block, max(reads), args[i], args[out_index])):
            tied += [out_index, i]
    if tied:
        fn.attributes[TIED_ATTR] = ir.DenseI64ArrayAttr.get(tied)
    return tied


def tied_arguments(fn: ir.Operation) -> set[int]:
    """Every argument of a tied pair of ``fn``."""
    return set(ir.DenseI64ArrayAttr(fn.attributes[TIED_ATTR])) if TIED_ATTR in fn.attributes else set()


@register_pass
class GeTieDonatedResultsPass(Pass):
    name = "ge-tie-donated-results"
    summary = "Compute results into donated input buffers when no later op reads the input"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 66

    def run(self, module: ir.Operation) -> None:
        with module.context:
            for op in module.regions[0].blocks[0].operations:
                if op.operation.name == "func.func":
                    self.bump("rewrites", len(tie_donated_results(op.operation)) // 2)
