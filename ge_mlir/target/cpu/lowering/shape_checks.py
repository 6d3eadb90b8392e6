"""Run-time shape checks of ops lowered with dynamic dimensions.

With ``?`` dims a verifier cannot prove what an op's semantics require (the
two operands of an add have the same batch, a matmul's K sizes agree, a ``?``
dim is not a broadcast 1 at run time). The lowerings then use the smallest of
the sizes that must agree, so no loop reads past any operand, and call
:func:`require_equal`, which records an ``i1`` "mismatch" value.

After the lowering, :func:`attach_shape_checks` folds every recorded check of a
function into one extra trailing ``tensor<i64>`` result: 0 when all held, else
the 1-based number of the first failing check. The function's
``ge.shape_checks`` attribute lists, per check, the op, its location, the ONNX
node name (when the location has one) and what had to agree. The caller
(``CpuExecutable``) raises ``ExecutionError`` naming them; the (wrong) outputs
of such a call are never handed out. Statically shaped ops record nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from mlir import ir
from mlir.dialects import arith, tensor

from .nested_checks import carry_out

#: Function attribute: one dictionary (op, loc, node, what) per check, in the order of the code.
SHAPE_CHECKS_ATTR = "ge.shape_checks"

class _State(threading.local):
    """Per thread (two compiles in two threads lower at once): the checks recorded while
    ge-lower-to-linalg runs, as (function op, i1 mismatch value, op name, location, what), and the
    ops being lowered."""

    def __init__(self) -> None:
        self.pending: list[tuple[Any, ir.Value, str, ir.Location, str]] = []
        self.current: list[ir.Operation] = []


_STATE = _State()


class lowering_op:  # noqa: N801 (a context manager used like a function)
    """Names the ge op whose lowering is being built (what a recorded check reports)."""

    def __init__(self, op: ir.Operation) -> None:
        self.op = op

    def __enter__(self) -> None:
        _STATE.current.append(self.op)
        self.mark = len(_STATE.pending)

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        _STATE.current.pop()
        if exc_type is not None:  # the op stays unlowered: its checks guard nothing
            del _STATE.pending[self.mark:]


def _function_of(op: ir.Operation) -> ir.Operation | None:
    o = op
    while o is not None and o.name != "func.func":
        o = o.parent
    return o


def require_equal(values: Sequence[ir.Value], what: str) -> ir.Value:
    """The smallest of the index ``values``; records the check that they are all equal."""
    smallest = values[0]
    for v in values[1:]:
        smallest = arith.minsi(smallest, v)
    mismatch = None
    for v in values:
        ne = arith.cmpi(arith.CmpIPredicate.ne, v, smallest)
        mismatch = ne if mismatch is None else arith.ori(mismatch, ne)
    op = _STATE.current[-1] if _STATE.current else None
    if op is not None:
        _STATE.pending.append((_function_of(op), mismatch, op.name, op.location, what))
    return smallest


def discard_pending() -> None:
    _STATE.pending.clear()


def attach_shape_checks(module: ir.Operation) -> int:
    """Adds the recorded checks to their functions (see the module doc); returns their count."""
    from ....errors import format_location, node_name

    pending, total = list(_STATE.pending), 0
    _STATE.pending.clear()
    by_fn: dict[Any, list[tuple[ir.Value, str, ir.Location, str]]] = {}
    order: list[Any] = []
    for fn, flag, name, loc, what in pending:
        if fn is None:
            continue
        key = fn.operation if hasattr(fn, "operation") else fn
        if key not in by_fn:
            by_fn[key] = []
            order.append(key)
        by_fn[key].append((flag, name, loc, what))
    for fn in order:
        checks = by_fn[fn]
        block = fn.regions[0].blocks[0]
        ret = list(block.operations)[-1].operation
        i64 = ir.IntegerType.get_signless(64)
        # Checks inside If/Loop bodies are carried out of their regions (failed in any iteration).
        flags = [carry_out(flag, fn, "or") for flag, *_rest in checks]
        with ret.location, ir.InsertionPoint(ret):
            code = arith.constant(i64, 0)
            # Last to first: the first failing check (in op order) is the one reported.
            for k, flag in reversed(list(enumerate(flags))):
                code = arith.select(flag, arith.constant(i64, k + 1), code)
            result = tensor.from_elements(ir.RankedTensorType.get([], i64), [code])
            ir.Operation.create("func.return", operands=[*ret.operands, result])
        ret.erase()
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(ftype.inputs,
                                                                             [*ftype.results, result.type]))
        if "res_attrs" in fn.attributes:
            res = list(ir.ArrayAttr(fn.attributes["res_attrs"]))
            fn.attributes["res_attrs"] = ir.ArrayAttr.get([*res, ir.DictAttr.get({})])
        infos = []
        for _flag, name, loc, what in checks:
            entries = {"op": ir.StringAttr.get(name), "loc": ir.StringAttr.get(format_location(loc)),
                       "what": ir.StringAttr.get(what)}
            node = node_name(loc)
            if node:
                entries["node"] = ir.StringAttr.get(node)
            infos.append(ir.DictAttr.get(entries))
        fn.attributes[SHAPE_CHECKS_ATTR] = ir.ArrayAttr.get(infos)
        total += len(checks)
    return total


def read_shape_checks(fn: ir.Operation) -> list[dict[str, Any]]:
    """The ``ge.shape_checks`` entries of ``fn`` (empty when it has none)."""
    if SHAPE_CHECKS_ATTR not in fn.attributes:
        return []
    out = []
    for entry in ir.ArrayAttr(fn.attributes[SHAPE_CHECKS_ATTR]):
        d = ir.DictAttr(entry)
        out.append({k: ir.StringAttr(d[k]).value for k in ("op", "loc", "what", "node") if k in d})
    return out
