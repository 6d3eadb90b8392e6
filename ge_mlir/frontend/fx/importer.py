"""torch.fx GraphModule (core ATen) -> ge dialect module.

The graphs come from dynamo and AOTAutograd (``ge_mlir.frontend.dynamo``) or from a traced training
step (``ge_mlir.training``): functional ATen ops after decomposition, with an example value
(``meta["val"]``, a fake tensor) on every node. Each node becomes ge ops at a location naming the node
and its ATen op (``loc(fused<"aten.convolution.default">["convolution_3"])``), so errors, dumps and
profiles point back at the FX graph. Every converted node's result type is checked against its
example value: a converter that builds the wrong shape or dtype is an import error naming the node,
not a wrong answer later.

Static shapes only: a graph with symbolic sizes is refused (the dynamo backend then specializes it
per concrete shape, as dynamo's guards ask).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from mlir import ir
from mlir.dialects import func

from ...dialects import ge
from ...errors import ImportError_
from . import ops as _ops  # noqa: F401  (registers the converters)
from .registry import FxContext, Refusal, lookup, mlir_type, tensor_type

__all__ = ["FxImportError", "UnsupportedFxOpsError", "import_fx"]

#: Constants with more elements than this become dense_resource blobs (kept out of printed IR).
RESOURCE_THRESHOLD = 64


class _Downstream(Exception):
    """A node's input could not be converted: only the root cause is reported."""


class FxImportError(ImportError_):
    """An FX graph could not be imported."""


class UnsupportedFxOpsError(FxImportError):
    """Nodes whose ATen op ge-mlir cannot convert; ``problems`` lists (op, node, reason)."""

    def __init__(self, problems: Sequence[tuple[str, str, str]]) -> None:
        self.problems = list(problems)
        lines = [f"  {op} at node '{node}': {why}" for op, node, why in self.problems]
        super().__init__(f"{len(self.problems)} FX node(s) cannot be converted to ge:\n" + "\n".join(lines))


def _sanitize(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_.$-]", "_", name)
    return s if s and not s[0].isdigit() else f"_{s}"


def op_name(target: Any) -> str:
    """``aten.add.Tensor`` for an OpOverload, the function name otherwise."""
    return str(target) if hasattr(target, "overloadpacket") else getattr(target, "__name__", str(target))


class FxImporter:
    def __init__(self, gm: Any, *, func_name: str = "main", input_names: Sequence[str] | None = None,
                 output_names: Sequence[str] | None = None) -> None:
        self.gm = gm
        self.func_name = func_name
        self.input_names = list(input_names) if input_names is not None else None
        self.output_names = list(output_names) if output_names is not None else None
        self.values: dict[Any, Any] = {}
        self.problems: list[tuple[str, str, str]] = []
        self._resource_names: set[str] = set()
        #: FX outputs that are not tensors, by position: None (AOTAutograd's backward returns None
        #: for inputs that need no gradient) or a Python number (a size a specialized forward graph
        #: saves for the backward). They are not function results; callers put them back.
        self.fixed_outputs: dict[int, Any] = {}

    # --- values -----------------------------------------------------------
    def value_of(self, node: Any) -> ir.Value:
        v = self.values.get(node)
        if v is None:
            raise _Downstream()
        if isinstance(v, (tuple, list)):
            raise Refusal(f"its input '{node.name}' is a tuple; use getitem")
        return v

    def constant(self, tensor: Any, name: str | None) -> ir.Value:
        import torch

        t = tensor.detach().cpu().contiguous()
        elem = mlir_type(t.dtype)
        ttype = ir.RankedTensorType.get(list(t.shape), elem)
        if t.dtype == torch.bfloat16:
            attr = ir.DenseElementsAttr.get(t.view(torch.int16).numpy().view(np.uint16), type=ttype)
        elif t.dtype == torch.bool:
            # With an explicit i1 type the bindings expect bit-packed data; without one they map
            # numpy bool to i1 themselves.
            attr = ir.DenseElementsAttr.get(np.require(t.numpy(), requirements="C"))
        else:
            array = np.require(t.numpy(), requirements="C")
            if array.size > RESOURCE_THRESHOLD and t.dtype != torch.float16:
                base = _sanitize(name or "const")
                rname, k = base, 0
                while rname in self._resource_names:
                    k += 1
                    rname = f"{base}_{k}"
                self._resource_names.add(rname)
                attr = ir.DenseResourceElementsAttr.get_from_buffer(array.copy(), rname, ttype)
            else:
                attr = ir.DenseElementsAttr.get(array, type=ttype)
        return ge.ConstantOp(attr).result

    def splat(self, fill: Any, shape: Sequence[int], dtype: Any) -> ir.Value:
        """A constant of ``shape`` holding ``fill`` everywhere (a splat: one element in the IR)."""
        import torch

        if dtype in (torch.bool, torch.bfloat16):
            return self.constant(torch.full(list(shape), fill, dtype=dtype), "splat")
        elem = mlir_type(dtype)
        ttype = ir.RankedTensorType.get([int(d) for d in shape], elem)
        value = torch.tensor(fill, dtype=dtype).item()  # rounded/wrapped as torch stores it
        attr = ir.FloatAttr.get(elem, float(value)) if dtype.is_floating_point else ir.IntegerAttr.get(elem, int(value))
        return ge.ConstantOp(ir.DenseElementsAttr.get_splat(ttype, attr)).result

    # --- the graph --------------------------------------------------------
    def import_graph(self) -> ir.Module:
        graph = self.gm.graph
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        arg_types = []
        for n in placeholders:
            val = n.meta.get("val")
            if val is None or not hasattr(val, "shape"):
                raise FxImportError(f"graph input '{n.name}' is not a tensor ({type(val).__name__}); "
                                    "only tensor inputs are converted")
            dims = [d for d in val.shape]
            if any(not isinstance(d, int) for d in dims):
                raise FxImportError(f"graph input '{n.name}' has symbolic sizes {list(val.shape)}; "
                                    "the FX importer converts static shapes")
            try:
                arg_types.append(tensor_type(dims, val.dtype))
            except Refusal as e:
                raise FxImportError(f"graph input '{n.name}': {e}") from None
        names = self.input_names or [n.name for n in placeholders]
        if len(names) != len(placeholders):
            raise FxImportError(f"{len(names)} input names for {len(placeholders)} graph inputs")
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp(_sanitize(self.func_name), (arg_types, []))
            fn.arg_attrs = ir.ArrayAttr.get(
                [ir.DictAttr.get({"onnx.name": ir.StringAttr.get(nm)}) for nm in names])
            entry = fn.add_entry_block(arg_locs=[ir.Location.name(nm) for nm in names])
        for n, arg in zip(placeholders, entry.arguments):
            self.values[n] = arg
        output_node = None
        with ir.InsertionPoint(entry):
            for node in graph.nodes:
                if node.op == "placeholder":
                    continue
                if node.op == "output":
                    output_node = node
                    break
                self._convert(node)
            if self.problems:
                raise UnsupportedFxOpsError(self.problems)
            results = self._results(output_node)
        fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(arg_types, [r.type for r in results]))
        out_names = self.output_names or [f"output_{i}" for i in range(len(results))]
        fn.attributes["res_attrs"] = ir.ArrayAttr.get(
            [ir.DictAttr.get({"onnx.name": ir.StringAttr.get(nm)}) for nm in out_names])
        return module

    def _results(self, output_node: Any) -> list[ir.Value]:
        import torch.utils._pytree as pytree

        flat = pytree.tree_leaves(output_node.args[0], is_leaf=lambda x: x is None) if output_node else []
        results = []
        with ir.Location.name("graph outputs"):
            for i, x in enumerate(flat):
                if x is None or isinstance(x, (int, float, bool)):
                    self.fixed_outputs[i] = x
                    continue
                if not hasattr(x, "op"):
                    raise FxImportError(f"graph output #{i} is a {type(x).__name__}, not a tensor")
                results.append(self.value_of(x))
            func.ReturnOp(results)
        return results

    def _convert(self, node: Any) -> None:
        name = op_name(node.target) if node.op in ("call_function", "call_method") else node.op
        loc = ir.Location.fused([ir.Location.name(node.name)], metadata=ir.StringAttr.get(name))
        try:
            with loc:
                if node.op == "get_attr":
                    self.values[node] = self.constant(_fetch_attr(self.gm, node.target), node.target)
                    return
                if node.op != "call_function":
                    raise Refusal(f"FX op kind {node.op!r} is not converted")
                if _is_getitem(node.target):
                    src, idx = node.args
                    parent = self.values.get(src)
                    if parent is None:
                        raise _Downstream()
                    self.values[node] = parent[idx]
                    return
                fn = lookup(node.target)
                if fn is None:
                    self.problems.append((name, node.name, "no converter for this ATen op"))
                    return
                out = fn(FxContext(self, node))
                self.values[node] = self._checked(node, out)
        except Refusal as e:
            self.problems.append((name, node.name, str(e)))
        except _Downstream:
            pass

    def _checked(self, node: Any, out: Any) -> Any:
        """The converter's result, checked against the node's example value."""
        val = node.meta.get("val")
        if isinstance(out, ir.OpView):
            out = out.results[0] if len(out.results) == 1 else tuple(out.results)
        if isinstance(out, (tuple, list)):
            vals = val if isinstance(val, (tuple, list)) else [None] * len(out)
            return tuple(self._check_one(node, o, v) for o, v in zip(out, vals))
        return self._check_one(node, out, val)

    def _check_one(self, node: Any, value: Any, val: Any) -> Any:
        if value is None or val is None or not hasattr(val, "shape"):
            return value
        expected = tensor_type([int(d) for d in val.shape], val.dtype)
        if value.type != expected:
            raise Refusal(f"the converter built {value.type}, the graph says {expected} (a converter bug)")
        return value


def _is_getitem(target: Any) -> bool:
    import operator

    return target is operator.getitem


def _fetch_attr(gm: Any, target: str) -> Any:
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def import_fx(gm: Any, *, func_name: str = "main", input_names: Sequence[str] | None = None,
              output_names: Sequence[str] | None = None, context: ir.Context | None = None,
              verify: bool = True) -> tuple[ir.Module, dict[int, Any]]:
    """Imports an FX GraphModule of core ATen ops (with ``meta["val"]`` on its nodes) into a ge module.

    Returns the module and the graph's non-tensor outputs by position (None or numbers; not
    function results).

    Raises:
        UnsupportedFxOpsError: lists every node that cannot be converted (op, node, reason).
        FxImportError: non-tensor or symbolic inputs.
    """
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    ctx = context or ir.Context.current
    # Compilers run inside the tracer's fake mode; the constants built here must be real tensors.
    with ctx, unset_fake_temporarily():
        imp = FxImporter(gm, func_name=func_name, input_names=input_names, output_names=output_names)
        with ir.Location.unknown():
            module = imp.import_graph()
        if verify:
            from ...api import verify as _verify

            _verify(module)
    module.operation.attributes["ge.source"] = ir.StringAttr.get("torch.fx", context=ctx)
    return module, imp.fixed_outputs
