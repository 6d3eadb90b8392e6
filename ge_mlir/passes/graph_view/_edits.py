"""The checks and edits behind the graph view's public API: operands that belong to the graph and
dominate their use, operand counts, attribute values of the right kind, uses replaced by values
of the same type, and MLIR's verifier after each change, undoing the change when it fails;
ge-bisect's rewrite budget and the edit counters.

:class:`_Edits` is the half of :class:`~ge_mlir.passes.graph_view.GraphView` that pass authors do
not call: it reads the state ``GraphView.__init__`` sets up."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cmp_to_key
from typing import Any

from mlir import ir
from mlir.rewrite import PatternRewriter

from ...errors import Diagnostic, GraphEditError
from ...irutils.locations import node_name
from ...irutils.patterns import active_budget, op_identity
from ._errors import _edit_error
from .attributes import _STRUCTURAL, _is_int, _to_attribute
from .nodes import Node, Value
from .schema import _schema, _schemas, friendly_name


def _describe(op: ir.Operation, name: str | None = None) -> str:
    """``node 'r1' (Reshape)``, or ``unnamed Reshape node at loc(...)``."""
    name = node_name(op.location) if name is None else name
    if name is not None:
        return f"node '{name}' ({friendly_name(op.name)})"
    return f"unnamed {friendly_name(op.name)} node at {op.location}"


class _Edits:
    """Internals of :class:`~ge_mlir.passes.graph_view.GraphView`, on the state its ``__init__`` sets up."""

    func: ir.Operation
    name: str
    block: ir.Block
    context: ir.Context
    rewriter: PatternRewriter | None
    pattern: str
    counts: dict[str, int]
    _terminator: ir.Operation | None
    _nodes: dict[ir.Operation, Node]
    _created: list[Node]
    _skipped: bool

    # -- internals: nodes and values
    def _node(self, op: ir.Operation | ir.OpView) -> Node:
        op = op.operation if isinstance(op, ir.OpView) else op
        node = self._nodes.get(op)
        if node is None or node._op is None:
            node = self._nodes[op] = Node(self, op)
        return node

    def _own(self, node: Any, what: str) -> None:
        if not isinstance(node, Node):
            raise _edit_error(f"{what}: expected a Node of @{self.name}, got {type(node).__name__}")
        if node.graph is not self:
            raise _edit_error(f"{what}: {node} belongs to graph @{node.graph.name}, not to this view of @{self.name}",
                              node=node)
        node._live()

    def _value(self, v: Any, role: str, at: Node | None = None) -> ir.Value:
        """``v`` (Value, one-output Node or ir.Value) as an ir.Value of this function, checked
        (``at``: the node being edited, named by the error)."""
        if isinstance(v, Node):
            self._own(v, role)
            results = v._live().results
            if len(results) != 1:
                raise _edit_error(f"{role}: {v} has {len(results)} outputs; pass one of node.outputs",
                                  node=v)
            return results[0]
        if isinstance(v, Value):
            if v.graph is not self:
                raise _edit_error(f"{role}: {v!r} belongs to graph @{v.graph.name}, not to @{self.name}", node=at)
            if v._producer is not None and v._producer.removed:
                raise _edit_error(f"{role}: the value is an output of {v._producer}, which was removed from the graph",
                                  node=at)
            v = v._mlir
        if not isinstance(v, ir.Value):
            raise _edit_error(f"{role}: expected a Value or Node of @{self.name}, got {type(v).__name__} {v!r}", node=at)
        if v.context != self.context:
            raise _edit_error(f"{role}: the value belongs to another MLIR context", node=at)
        if isinstance(v, ir.BlockArgument):
            if v.owner != self.block:
                raise _edit_error(f"{role}: the value is an argument of another function or block, not of @{self.name}", node=at)
        else:
            owner = v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner
            if not owner.attached or owner.block != self.block:
                raise _edit_error(f"{role}: the value is computed outside @{self.name} "
                                  f"({_describe(owner)} of another function, or a detached op)")
        if not isinstance(v.type, ir.RankedTensorType):
            raise _edit_error(f"{role}: ge ops take ranked tensors, the value has type {v.type}", node=at)
        return v

    def _replacements(self, node: Node, other: Any) -> list[ir.Value]:
        self._own(node, "replace_all_uses_with")
        n = len(node._live().results)
        if isinstance(other, Node):
            self._own(other, "replace_all_uses_with")
            values = list(other._live().results)
        elif isinstance(other, (Value, ir.Value)):
            values = [other]
        elif isinstance(other, Sequence) and not isinstance(other, str):
            values = list(other)
        else:
            raise _edit_error(f"cannot replace {node}: expected a Node, a Value or a list of Values, "
                              f"got {type(other).__name__}", node=node)
        if len(values) != n:
            raise _edit_error(f"cannot replace {node}: it has {n} output(s), the replacement {len(values)}",
                              node=node)
        return [self._value(v, f"replacing {node}", node) for v in values]

    def _users(self, values: list[ir.Value]) -> list[Node]:
        seen: dict[ir.Operation, None] = {}
        for v in values:
            for use in v.uses:
                owner = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
                if owner != self._terminator:
                    seen.setdefault(owner, None)
        ops = sorted(seen, key=cmp_to_key(lambda a, b: -1 if a.is_before_in_block(b) else (a != b)))
        return [self._node(op) for op in ops]

    @staticmethod
    def _producer(v: ir.Value) -> ir.Operation | None:
        if isinstance(v, ir.BlockArgument):
            return None
        return v.owner.operation if isinstance(v.owner, ir.OpView) else v.owner

    def _dominates(self, v: ir.Value, user: ir.Operation, after: bool = False) -> bool:
        """True when ``v`` is defined before ``user`` (or at/before it, for a point after ``user``)."""
        prod = self._producer(v)
        if prod is None:
            return True
        if prod == user:
            return after
        return prod.is_before_in_block(user)

    # -- internals: budget and counters
    def _count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def _may_rewrite(self) -> bool:
        """False when ge-bisect's rewrite budget is spent (the edit is then skipped)."""
        budget = active_budget()
        if budget is not None and budget.exhausted:
            self._skipped = True
            return False
        return True

    def _rewrote(self, identity: tuple[str, str]) -> None:
        """Counts a rewrite at the op of ``identity`` (``op_identity``) and records it under the budget."""
        budget = active_budget()
        if budget is not None:
            budget.record(self.pattern, *identity)
        self._count("rewrites")

    # -- internals: edits
    def _verify_op(self, op: ir.Operation, undo: Callable[[], None], what: str, node: Node) -> None:
        try:
            op.verify()
        except ir.MLIRError as e:
            diags = [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
            undo()
            raise _edit_error(f"{what}: refused, the op does not verify (undone)", diagnostics=diags,
                              node=node) from None

    def _set_input(self, node: Node, index: int, value: Any) -> None:
        self._own(node, "set_input")
        op = node._live()
        n = len(op.operands)
        if not isinstance(index, int) or isinstance(index, bool) or not -n <= index < n:
            raise _edit_error(f"cannot set input {index!r} of {node}: it has {n} input(s)",
                              node=node)
        index %= n
        v = self._value(value, f"input {index} of {node}", node)
        if not self._dominates(v, op):
            prod = self._producer(v)
            where = "the node itself" if prod == op else f"{self._node(prod)}, which comes after it"
            raise _edit_error(f"cannot set input {index} of {node}: the value is computed by {where}",
                              node=node)
        old = op.operands[index]
        if old == v or not self._may_rewrite():
            return
        op.operands[index] = v

        def undo() -> None:
            op.operands[index] = old

        self._verify_op(op, undo, f"setting input {index} of {node} to a {v.type}", node)
        self._rewrote(op_identity(op))
        self._count("inputs-set")

    def _set_attr(self, node: Node, key: str, value: Any, delete: bool) -> None:
        self._own(node, "attrs")
        op = node._live()
        if not isinstance(key, str) or not key:
            raise _edit_error(f"attribute names are strings, got {key!r} on {node}", node=node)
        if key in _STRUCTURAL:
            raise _edit_error(f"{node}: attribute '{key}' encodes the op's operands and cannot be set",
                              node=node)
        schema = _schemas().get(op.name)
        kind, required = schema.attrs.get(key, (None, False)) if schema is not None else (None, False)
        if schema is not None and kind is None and "." not in key:
            raise _edit_error(f"{node} has no attribute '{key}' (attributes: {', '.join(schema.attrs) or 'none'}); "
                              "attributes of your own need a dotted name such as 'my.tag'",
                              node=node)
        had = key in op.attributes
        old = op.attributes[key] if had else None
        if delete:
            if not had:
                raise KeyError(key)
            if required:
                raise _edit_error(f"cannot delete attribute '{key}' of {node}: the op requires it",
                                  node=node)
        else:
            try:
                attr = _to_attribute(value, kind, self.context)
            except ValueError as e:
                raise _edit_error(f"cannot set attribute '{key}' of {node}: {e}", node=node) from None
            if had and old == attr:
                return
        if not self._may_rewrite():
            return
        if delete:
            del op.attributes[key]
        else:
            op.attributes[key] = attr

        def undo() -> None:
            if had:
                op.attributes[key] = old
            elif key in op.attributes:
                del op.attributes[key]

        self._verify_op(op, undo, f"{'deleting' if delete else 'setting'} attribute '{key}' of {node}", node)
        self._rewrote(op_identity(op))
        self._count("attrs-set")

    def _check_replace(self, olds: list[ir.Value], news: list[ir.Value], owner: Node | None) -> list[ir.Operation | None]:
        """Checks that each new value may take over the uses of each old one; returns per pair the
        op whose uses are kept (the new value's producer, when it reads the old value)."""
        keep = []
        what = f"replacing the uses of {owner}" if owner is not None else "replacing the uses of a graph input"
        for i, (old, new) in enumerate(zip(olds, news)):
            tag = f" (output {i})" if len(olds) > 1 else ""
            if old.type != new.type:
                raise _edit_error(f"{what}{tag}: refused, the replacement has type {new.type} and the uses "
                                  f"expect {old.type}", node=owner)
            prod = self._producer(new)
            kept = None
            for use in old.uses:
                user = use.owner.operation if isinstance(use.owner, ir.OpView) else use.owner
                if prod is not None and user == prod:
                    kept = prod  # the replacement reads the old value: that use stays
                    continue
                if not self._dominates(new, user):
                    user_text = "the graph output" if user == self._terminator else str(self._node(user))
                    raise _edit_error(f"{what}{tag}: refused, the replacement is computed by "
                                      f"{self._node(prod)}, after {user_text} that reads it",
                                      node=owner)
            keep.append(kept)
        return keep

    def _replace_uses(self, olds: list[ir.Value], news: list[ir.Value], owner_op: ir.Operation | None) -> None:
        owner = self._node(owner_op) if owner_op is not None else None
        if owner is not None:
            self._own(owner, "replace_all_uses_with")
        keep = self._check_replace(olds, news, owner)
        pairs = [(o, n, k) for o, n, k in zip(olds, news, keep) if o != n]
        if not pairs or not any(True for o, _, _ in pairs for _ in o.uses):
            return
        if not self._may_rewrite():
            return
        self._rewrote(op_identity(owner_op if owner_op is not None else self.func))
        for old, new, kept in pairs:
            if kept is not None:
                old.replace_all_uses_except(new, kept)
            else:
                old.replace_all_uses_with(new)
        self._count("uses-replaced")

    def _remove(self, node: Node) -> None:
        self._own(node, "remove")
        op = node._live()
        users = self._users(list(op.results))
        returned = any(Value(self, r).is_output for r in op.results)
        if users or returned:
            if self._skipped:
                return  # the rewrite that would have freed it was skipped under ge-bisect's budget
            what = ", ".join(str(u) for u in users[:5]) + (", ..." if len(users) > 5 else "")
            if returned:
                what = (what + " and " if what else "") + "a graph output"
            raise _edit_error(f"cannot remove {node}: its output is still used by {what}; "
                              "replace those uses first (node.replace_all_uses_with(...))",
                              node=node)
        self._nodes.pop(op, None)
        node._op = None
        if self.rewriter is not None:
            self.rewriter.erase_op(op)
        else:
            op.erase()
        self._count("nodes-removed")

    def _replace_node(self, node: Node, other: Any) -> None:
        values = self._replacements(node, other)
        op = node._live()
        keep = self._check_replace(list(op.results), values, node)
        if any(k is not None for k in keep):
            raise _edit_error(f"cannot replace {node} with a value computed from it; use "
                              "node.replace_all_uses_with(...) and keep the node", node=node)
        if not self._may_rewrite():
            return
        self._rewrote(op_identity(op))
        self._nodes.pop(op, None)
        node._op = None
        if self.rewriter is not None:
            self.rewriter.replace_op(op, values)
        else:
            for old, new in zip(op.results, values):
                old.replace_all_uses_with(new)
            op.erase()
        self._count("uses-replaced")
        self._count("nodes-removed")

    def _default_position(self, inputs: Any) -> tuple[ir.Operation | None, bool]:
        """After the last node among ``inputs`` (checked later), else before the first op."""
        vals = list(inputs.values()) if isinstance(inputs, Mapping) else inputs
        if isinstance(vals, (Value, Node, ir.Value)) or not isinstance(vals, Sequence):
            vals = [vals]
        flat: list[Any] = []
        for v in vals:
            flat.extend(v if isinstance(v, (list, tuple)) else [v])
        last = None
        for v in flat:
            try:
                iv = self._value(v, "input")
            except GraphEditError:
                continue  # reported with its role when the operands are checked
            prod = self._producer(iv)
            if prod is not None and (last is None or last.is_before_in_block(prod)):
                last = prod
        if last is not None:
            return last, True
        ops = list(self.block.operations)
        return (ops[0].operation if ops else None), False

    def _fresh_name(self, base: str | None, op: str) -> str:
        names = {n.name for n in self.nodes if n.name}
        stem = f"{base}/{op}" if base else op
        if stem not in names:
            return stem
        k = 1
        while f"{stem}_{k}" in names:
            k += 1
        return f"{stem}_{k}"

    def _result_types(self, op_text: str, result_types: Sequence[Any]) -> list[ir.Type]:
        out = []
        with self.context:
            for t in result_types:
                if isinstance(t, ir.Type):
                    out.append(t)
                    continue
                if isinstance(t, Value):
                    out.append(t.type)
                    continue
                if isinstance(t, tuple) and len(t) == 2:
                    shape, dtype = t
                    try:
                        elem = ir.Type.parse(str(dtype))
                        if all(_is_int(d) and d >= 0 for d in shape):
                            out.append(ir.RankedTensorType.get([int(d) for d in shape], elem))
                            continue
                    except (ir.MLIRError, TypeError, ValueError):
                        pass
                raise _edit_error(f"cannot create {op_text}: result type {t!r} is neither an ir.Type, a Value, "
                                  "nor a (shape, dtype) pair such as ((2, 3), 'f32')")
        return out

    def _create(self, op: str, inputs: Any, attrs: Mapping[str, Any] | None, result_types: Sequence[Any] | None,
                name: str | None, anchor: ir.Operation | None, after: bool) -> Node:
        try:
            return self._create_checked(op, inputs, attrs, result_types, name, anchor, after)
        except GraphEditError as e:
            if getattr(e, "location", None) is None:  # reported where the node would have been
                e.location = anchor.location if anchor is not None else self.func.location  # type: ignore[attr-defined]
            raise

    def _create_checked(self, op: str, inputs: Any, attrs: Mapping[str, Any] | None,
                        result_types: Sequence[Any] | None, name: str | None, anchor: ir.Operation | None,
                        after: bool) -> Node:
        schema = _schema(op)
        friendly = friendly_name(schema.ge_op)
        op_text = f"a new {friendly} node" + (f" '{name}'" if name else "")
        attrs = dict(attrs or {})
        # operands, by parameter
        params: dict[str, Any] = {}
        if isinstance(inputs, Mapping):
            known = {p for p, _ in schema.operands}
            unknown = set(inputs) - known
            if unknown:
                raise _edit_error(f"cannot create {op_text}: {friendly} has no input(s) {sorted(unknown)} "
                                  f"(inputs: {', '.join(p for p, _ in schema.operands) or 'none'})")
            params = {p: inputs[p] for p, _ in schema.operands if p in inputs}
        else:
            if isinstance(inputs, (Value, Node, ir.Value)):
                inputs = [inputs]
            inputs = list(inputs)
            if len(schema.operands) == 1 and schema.operands[0][1] == "variadic":
                params = {schema.operands[0][0]: inputs}
            else:
                if len(inputs) > len(schema.operands):
                    raise _edit_error(f"cannot create {op_text}: {friendly} takes at most "
                                      f"{len(schema.operands)} input(s) "
                                      f"({', '.join(p for p, _ in schema.operands) or 'none'}), got {len(inputs)}")
                params = dict(zip((p for p, _ in schema.operands), inputs))
        kwargs: dict[str, Any] = {}
        checked: list[ir.Value] = []
        for param, kind in schema.operands:
            v = params.get(param)
            if v is None:
                if kind == "one":
                    raise _edit_error(f"cannot create {op_text}: input '{param}' is missing "
                                      f"({friendly} takes {', '.join(p for p, _ in schema.operands)})")
                continue
            if kind == "variadic":
                if isinstance(v, (Value, Node, ir.Value)) or not isinstance(v, Sequence):
                    v = [v]
                vals = [self._value(x, f"input '{param}' of {op_text}") for x in v]
                if not vals:
                    raise _edit_error(f"cannot create {op_text}: input '{param}' needs at least one value")
                kwargs[param] = vals
                checked += vals
            else:
                iv = self._value(v, f"input '{param}' of {op_text}")
                kwargs[param] = iv
                checked.append(iv)
        if anchor is not None:
            for v in checked:
                if not self._dominates(v, anchor, after):
                    where = f"{'after' if after else 'before'} {self._node(anchor)}"
                    raise _edit_error(f"cannot create {op_text} {where}: its input computed by "
                                      f"{self._node(self._producer(v))} comes later")
        # attributes
        for key, value in attrs.items():
            if key in _STRUCTURAL:
                raise _edit_error(f"cannot create {op_text}: '{key}' is computed from the inputs")
            if key not in schema.attrs:
                raise _edit_error(f"cannot create {op_text}: {friendly} has no attribute '{key}' "
                                  f"(attributes: {', '.join(schema.attrs) or 'none'})")
            kind = schema.attrs[key][0]
            if kind == "ElementsAttr" and isinstance(value, ir.Attribute):
                kwargs[key] = value
                continue
            try:
                kwargs[key] = _to_attribute(value, kind, self.context)
            except ValueError as e:
                raise _edit_error(f"cannot create {op_text}: attribute '{key}': {e}") from None
        missing = [k for k, (_, required) in schema.attrs.items() if required and k not in kwargs]
        if missing:
            raise _edit_error(f"cannot create {op_text}: {friendly} requires attribute(s) "
                              f"{', '.join(repr(m) for m in missing)}")
        # result types
        if schema.result_param is not None:
            if not result_types or len(result_types) != 1:
                raise _edit_error(f"cannot create {op_text}: {friendly} does not infer its result type; "
                                  "pass result_types=[type] (an ir.Type or ((shape...), 'f32'))")
            kwargs[schema.result_param] = self._result_types(op_text, result_types)[0]
        elif result_types is not None:
            kwargs["results"] = self._result_types(op_text, result_types)
        # location and position
        if name is None:
            base = None
            for v in checked:
                base = Value(self, v).name
                if base:
                    break
            name = self._fresh_name(base, friendly)
        elif not isinstance(name, str) or not name:
            raise _edit_error(f"cannot create {op_text}: name must be a non-empty string, got {name!r}")
        with self.context:
            loc = ir.Location.fused([ir.Location.name(name)], ir.StringAttr.get(friendly))
            if anchor is None:
                ip = ir.InsertionPoint.at_block_terminator(self.block) if self._terminator is not None \
                    else ir.InsertionPoint(self.block)
            else:
                ip = ir.InsertionPoint.after(anchor) if after else ir.InsertionPoint(anchor)
            try:
                view = schema.cls(**kwargs, loc=loc, ip=ip)
            except Exception as e:  # noqa: BLE001 - MLIRError (inference, properties), TypeError
                diags = [Diagnostic.from_mlir(d) for d in getattr(e, "error_diagnostics", ())]
                text = "" if diags else ": " + (str(e).strip().splitlines() or [type(e).__name__])[-1]
                raise _edit_error(f"cannot create {op_text}: MLIR refused it{text}", diagnostics=diags) from None
        new_op = view.operation
        node = self._node(new_op)
        self._verify_op(new_op, new_op.erase, f"creating {node}", node)
        self._created.append(node)
        self._count("nodes-created")
        return node

    def _finish(self) -> None:
        """After a graph pass: nodes it created that nothing reads are erased when ge-bisect's budget
        skipped an edit (the skipped rewrite would have used them)."""
        if not self._skipped:
            return
        changed = True
        while changed:
            changed = False
            for node in reversed(self._created):
                if node._op is not None and not any(True for r in node._op.results for _ in r.uses):
                    self._remove(node)
                    changed = True
