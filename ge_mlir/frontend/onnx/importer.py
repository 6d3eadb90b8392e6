"""ONNX ModelProto -> ge dialect module.

One public ``func.func`` per graph; graph inputs/outputs keep their ONNX names
as ``onnx.name`` argument/result attributes; every op carries a location
naming its node and op type (``loc(fused<"Conv">["conv1"])``) so later errors,
dumps and profiles point back at the model.

Shapes come from ONNX shape inference (with the user's ``input_shapes``
applied first) and from the ge ops' own inference. Inputs that must be known
at import time (Reshape's shape, Slice's starts, ...) are folded: initializers,
Constant nodes and every node whose inputs are all known are evaluated with
ONNX's reference implementation, so exported shape subgraphs disappear.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import onnx
from mlir import ir
from mlir.dialects import func

from ...errors import OnnxImportError, UnsupportedOpsError, node_name
from ...irutils.types import is_narrow
from ...dialects import ge  # noqa: F401  (loads the dialect)
from . import registry as reg
from . import validate as _validate_mod
from .registry import Invalid, NodeContext, Refusal

# Nodes never folded at import: their value is not a pure function of inputs.
_NO_FOLD = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"}
#: Constants with more elements than this become dense_resource blobs.
DEFAULT_RESOURCE_THRESHOLD = 64
#: Folding is skipped when inputs or outputs exceed this many elements.
_FOLD_LIMIT = 1 << 20


def _sanitize(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_.$-]", "_", name)
    return s if s and not s[0].isdigit() else f"_{s}"


def load_model(model: str | Path | bytes | onnx.ModelProto) -> tuple[onnx.ModelProto, str]:
    """Loads a model from a path (with external data), bytes, or a proto."""
    if isinstance(model, onnx.ModelProto):
        return model, model.graph.name or "model"
    if isinstance(model, (bytes, bytearray)):
        try:
            return onnx.load_from_string(bytes(model)), "<bytes>"
        except Exception as e:
            raise OnnxImportError(f"cannot parse ONNX bytes: {e}") from None
    path = Path(model)
    if not path.exists():
        raise OnnxImportError(f"ONNX model not found: {path}")
    try:
        return onnx.load(str(path), load_external_data=True), str(path)
    except Exception as e:
        raise OnnxImportError(f"cannot load ONNX model {path}: {e}") from None


def _apply_input_shapes(model: onnx.ModelProto, input_shapes: Mapping[str, Sequence[int]]) -> None:
    inputs = {i.name: i for i in model.graph.input}
    for name, dims in input_shapes.items():
        if name not in inputs:
            raise OnnxImportError(
                f"input_shapes names {name!r}, which is not a graph input (inputs: {', '.join(inputs)})"
            )
        shape = inputs[name].type.tensor_type.shape
        if len(shape.dim) and len(shape.dim) != len(dims):
            raise OnnxImportError(f"input_shapes[{name!r}] has rank {len(dims)}, the model says {len(shape.dim)}")
        del shape.dim[:]
        for d in dims:
            shape.dim.add().dim_value = int(d)


def _freeze_inputs(model: onnx.ModelProto, values: Mapping[str, np.ndarray]) -> None:
    inputs = {i.name: i for i in model.graph.input}
    for name, value in values.items():
        if name not in inputs:
            raise OnnxImportError(
                f"constant_inputs names {name!r}, which is not a graph input (inputs: {', '.join(inputs)})"
            )
        model.graph.input.remove(inputs[name])
        for init in list(model.graph.initializer):
            if init.name == name:
                model.graph.initializer.remove(init)
        model.graph.initializer.append(onnx.numpy_helper.from_array(np.asarray(value), name))


class Importer:
    def __init__(
        self,
        model: onnx.ModelProto,
        source: str,
        *,
        resource_threshold: int = DEFAULT_RESOURCE_THRESHOLD,
        func_name: str | None = None,
        fold_in_f32: bool = False,
    ) -> None:
        self.model = model
        #: Import-time folding of f16/bf16 arithmetic in f32, each folded value rounded once
        #: (GE's constant_folding_fp_mode FP32); ``_f32`` keeps the unrounded values of a chain.
        self.fold_in_f32 = fold_in_f32
        self._f32: dict[str, np.ndarray] = {}
        self.source = source
        self.resource_threshold = resource_threshold
        self.func_name = func_name
        self.opset = next(
            (o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), onnx.defs.onnx_opset_version()
        )
        self.values: dict[str, ir.Value] = {}
        self.consts: dict[str, np.ndarray] = {}
        self.types: dict[str, ir.Type] = {}
        self.unsupported: dict[tuple[str, str, int], list[str]] = {}
        self.refusals: list[tuple[str, str, str]] = []
        #: Problems that make the model invalid ONNX (InvalidModelError).
        self.invalid: list[str] = []
        #: STRING initializers (valid ONNX, but ge has no string tensors).
        self.string_inits: set[str] = set()
        self._invalid_nodes: set[str] = set()
        #: Node name -> op type (problems found on ops name both).
        self._op_types: dict[str, str] = {}
        self.unavailable: set[str] = set()
        self._resource_names: set[str] = set()
        self.used_names: set[str] = set()
        # Graph inputs a converter needed as constants (import_onnx's
        # constant_inputs= can freeze them to values).
        self.needs_constant: set[str] = set()

    # --- values ---------------------------------------------------------
    def constant_value(self, name: str) -> np.ndarray | None:
        return self.consts.get(name)

    def value_type(self, name: str) -> ir.Type:
        """Type of a value without materializing import-time constants."""
        if name in self.values:
            return self.values[name].type
        if name in self.consts:
            arr = self.consts[name]
            elem = self.types.get(name) or reg.mlir_element_of(arr)
            return reg.tensor_type(arr.shape, elem, f"constant {name!r}")
        if name in self.string_inits:
            raise Refusal(f"{name!r} is a STRING initializer: ge has no string tensors")
        raise Refusal(f"value {name!r} is not available")

    def symbolic_dims(self, name: str) -> list[int | str | None] | None:
        """The dims ONNX shape inference (with data propagation) gave ``name``: ints, ``dim_param``
        symbols (the same symbol is the same size), None where nothing is known; None without a shape."""
        t = getattr(self, "_vinfo", {}).get(name)
        if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
            return None
        return [d.dim_value if d.HasField("dim_value") and d.dim_value >= 0
                else d.dim_param if d.HasField("dim_param") and d.dim_param else None
                for d in t.tensor_type.shape.dim]

    def depends_on_input_values(self, name: str) -> bool:
        """Whether ``name``'s value depends on a graph input's values (not only on its shape)."""
        producers = getattr(self, "_producers", None)
        if producers is None:
            producers = self._producers = {o: n for n in self.model.graph.node for o in n.output if o}
        inits = {i.name for i in self.model.graph.initializer}
        inputs = {i.name for i in self.model.graph.input} - inits
        seen: set[str] = set()
        todo = [name]
        while todo:
            v = todo.pop()
            if v in seen or not v:
                continue
            seen.add(v)
            if v in inputs:
                return True
            node = producers.get(v)
            if node is None or node.op_type in ("Shape", "Size"):
                continue
            if any(a.HasField("g") or len(a.graphs) for a in node.attribute):
                return True  # subgraphs: not followed
            todo.extend(node.input)
        return False

    def is_graph_input(self, name: str) -> bool:
        return name in self.values and isinstance(self.values[name].owner, ir.Block)

    def value(self, name: str) -> ir.Value:
        if name in self.values:
            return self.values[name]
        if name in self.consts:
            v = self.make_constant(self.consts[name], self.types.get(name), resource_name=name)
            self.values[name] = v
            return v
        if name in self.string_inits:
            raise Refusal(f"{name!r} is a STRING initializer: ge has no string tensors")
        raise Refusal(f"value {name!r} is not available")

    def make_constant(self, array: np.ndarray, elem: ir.Type | None = None, resource_name: str | None = None) -> ir.Value:
        if isinstance(elem, ir.RankedTensorType):
            elem = elem.element_type
        if elem is None:
            elem = reg.mlir_element_of(array)
        # np.require keeps 0-d arrays 0-d (ascontiguousarray would make them 1-d).
        array = np.require(array.astype(reg.numpy_dtype(elem), copy=False), requirements="C")
        ttype = reg.tensor_type(array.shape, elem, f"constant {resource_name!r}" if resource_name else "a constant")
        # 16-bit float blobs stay dense<>: the C API reads resource blobs back
        # only as f32/f64/integers, and the passes and the Ascend C emitter
        # need the weights' values.
        if array.size > self.resource_threshold and str(elem) not in ("i1", "f16", "bf16") and not is_narrow(elem):
            base = _sanitize(resource_name or "const")
            name, k = base, 0
            while name in self._resource_names:
                k += 1
                name = f"{base}_{k}"
            self._resource_names.add(name)
            attr = ir.DenseResourceElementsAttr.get_from_buffer(array, name, ttype)
        elif str(elem) == "bf16":
            attr = ir.DenseElementsAttr.get(array.view(np.uint16), type=ttype)
        elif is_narrow(elem):
            # ml_dtypes' bytes (the value's bits in the low bits) are MLIR's storage of these types.
            attr = ir.DenseElementsAttr.get(array.view(np.uint8), type=ttype)
        elif str(elem) == "i1":
            # With an explicit i1 type the bindings expect bit-packed data;
            # without one they map numpy bool to i1 themselves.
            attr = ir.DenseElementsAttr.get(array)
        else:
            attr = ir.DenseElementsAttr.get(array, type=ttype)
        return ge.ConstantOp(attr).result

    # --- types ----------------------------------------------------------
    def _type_of(self, tp: onnx.TypeProto, what: str = "a tensor") -> ir.Type | None:
        if not tp.HasField("tensor_type"):
            return None
        tt = tp.tensor_type
        elem = reg.element_type(tt.elem_type)
        if not tt.HasField("shape"):
            return None
        # Negative sizes (from inference on invalid models) count as unknown.
        dims = [d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else -1 for d in tt.shape.dim]
        return reg.tensor_type(dims, elem, what)

    # --- folding --------------------------------------------------------
    def _try_fold(self, node: onnx.NodeProto) -> bool:
        if node.op_type in _NO_FOLD or node.domain not in ("", "ai.onnx"):
            return False
        if node.op_type == "Constant":
            return self._fold_constant_node(node)
        if node.op_type in ("Shape", "Size") and node.input[0] in self.values:
            # Static shapes make shape computations import-time constants.
            t = self.values[node.input[0]].type
            if isinstance(t, ir.RankedTensorType):
                dims = [-1 if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)]
                if node.op_type == "Size":
                    part = dims
                else:
                    start = next((a.i for a in node.attribute if a.name == "start"), 0)
                    end = next((a.i for a in node.attribute if a.name == "end"), None)
                    part = dims[start:end]
                # Only the dims that are read need to be static.
                if all(d >= 0 for d in part):
                    shape = np.array(part, dtype=np.int64)
                    self.consts[node.output[0]] = np.array(shape.prod(), dtype=np.int64) if node.op_type == "Size" else shape
                    return True
        ins = [n for n in node.input if n]
        if not ins and node.op_type not in ("ConstantOfShape", "Range", "EyeLike"):
            return False
        if any(n not in self.consts for n in ins):
            return False
        if any(self.consts[n].size > _FOLD_LIMIT for n in ins):
            return False
        try:
            from onnx.reference import ReferenceEvaluator

            graph = onnx.helper.make_graph(
                [node], "fold",
                [onnx.helper.make_tensor_value_info(n, onnx.TensorProto.UNDEFINED, None) for n in ins],
                [onnx.helper.make_tensor_value_info(n, onnx.TensorProto.UNDEFINED, None) for n in node.output if n],
            )
            m = onnx.helper.make_model(graph, opset_imports=list(self.model.opset_import))
            evaluator = ReferenceEvaluator(m)
            outs = evaluator.run(None, {n: self.consts[n] for n in ins})
            wide = None
            if self.fold_in_f32 and any(_narrow_float(self.consts[n]) for n in ins):
                wide = evaluator.run(None, {n: self._f32.get(n, self.consts[n]).astype(np.float32)
                                            if _narrow_float(self.consts[n]) else self.consts[n] for n in ins})
        except Exception:
            return False
        if any(not isinstance(o, np.ndarray) or o.size > _FOLD_LIMIT for o in outs):
            return False
        for i, (name, arr) in enumerate(zip([n for n in node.output if n], outs)):
            if wide is not None and _narrow_float(arr) and getattr(wide[i], "dtype", None) == np.float32:
                # Computed in f32 from the chain's unrounded values; rounded once, here, for the graph's type.
                self._f32[name] = wide[i]
                arr = wide[i].astype(arr.dtype)
            self.consts[name] = arr
        return True

    def _fold_constant_node(self, node: onnx.NodeProto) -> bool:
        if not node.attribute:
            return False
        a = node.attribute[0]
        value = onnx.helper.get_attribute_value(a)
        if a.name == "value":
            arr = onnx.numpy_helper.to_array(value)
        elif a.name in ("value_float", "value_int"):
            arr = np.array(value, dtype=np.float32 if a.name == "value_float" else np.int64)
        elif a.name in ("value_floats", "value_ints"):
            arr = np.array(value, dtype=np.float32 if a.name == "value_floats" else np.int64)
        else:
            return False
        self.consts[node.output[0]] = arr
        return True

    # --- the graph ------------------------------------------------------
    def import_graph(self) -> ir.Module:
        graph = self.model.graph
        for init in graph.initializer:
            if init.data_type == onnx.TensorProto.STRING:
                _validate_mod.decode_initializer(init)  # still checked: must be valid
                self.string_inits.add(init.name)
                continue
            self.consts[init.name] = _validate_mod.decode_initializer(init)
            try:
                self.types[init.name] = reg.element_type(init.data_type)
            except Refusal:
                pass  # e.g. float8: the node using it reports why, with its name
        vinfo = {vi.name: vi.type for vi in list(graph.value_info) + list(graph.output) + list(graph.input)}
        self._vinfo = vinfo
        inits = {i.name for i in graph.initializer}
        real_inputs = [i for i in graph.input if i.name not in inits]
        arg_types = []
        for i in real_inputs:
            try:
                t = self._type_of(i.type, f"graph input {i.name!r}")
            except Invalid as e:
                _validate_mod.raise_invalid([e.message])
            except Refusal as e:
                raise OnnxImportError(f"graph input {i.name!r}: {e.message}") from None
            if t is None:
                raise OnnxImportError(f"graph input {i.name!r} has no tensor type/shape")
            arg_types.append(t)

        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            fname = self.func_name or _sanitize(graph.name or "main")
            fn = func.FuncOp(fname, (arg_types, []))
            fn.arg_attrs = ir.ArrayAttr.get([ir.DictAttr.get(_arg_attrs(i, t)) for i, t in zip(real_inputs, arg_types)])
            entry = fn.add_entry_block(arg_locs=[ir.Location.name(i.name) for i in real_inputs])
        for i, arg in zip(real_inputs, entry.arguments):
            self.values[i.name] = arg

        self.used_names = {o.name for o in graph.output}
        self._collect_used(graph.node)
        with ir.InsertionPoint(entry):
            self._convert_nodes(graph, vinfo)
            for o in graph.output:
                if o.name in self.string_inits:
                    self.refusals.append((o.name, "graph output", "a STRING initializer: ge has no string tensors"))
            self._check_sizes(entry)
            if self.invalid:
                also = []
                if self.unsupported or self.refusals:
                    also = str(UnsupportedOpsError(self.unsupported, self.refusals)).splitlines()[1:]
                _validate_mod.raise_invalid(self.invalid, [a.strip() for a in also])
            if self.unsupported or self.refusals:
                raise UnsupportedOpsError(self.unsupported, self.refusals, sorted(self.needs_constant))
            results = []
            with ir.Location.name("graph outputs"):
                for o in graph.output:
                    results.append(self.value(o.name))
                func.ReturnOp(results)
        fn.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(arg_types, [r.type for r in results])
        )
        fn.attributes["res_attrs"] = ir.ArrayAttr.get(
            [ir.DictAttr.get({"onnx.name": ir.StringAttr.get(o.name)}) for o in graph.output]
        )
        return module

    def convert_subgraph(self, graph: onnx.GraphProto, inputs: Sequence[ir.Value | np.ndarray],
                         scope: str) -> list[ir.Value]:
        """Converts a control-flow body at the current insertion point: its formal inputs bound to
        ``inputs`` (a value, or an array for an import-time constant), its own initializers and
        nodes converted with ONNX's scoping (outer names stay visible, inner ones shadow them and do
        not leak out), node names prefixed with ``scope``; returns its outputs' values. A node that
        cannot be converted is reported like any other (under its scoped name) and the body then
        raises Refusal."""
        saved = (dict(self.values), dict(self.consts), set(self.unavailable), dict(self._f32))
        problems = (len(self.refusals), sum(map(len, self.unsupported.values())), len(self.invalid))
        try:
            for vi, v in zip(graph.input, inputs):
                self.values.pop(vi.name, None)
                self.consts.pop(vi.name, None)
                self.unavailable.discard(vi.name)
                if isinstance(v, np.ndarray):
                    self.consts[vi.name] = v
                else:
                    self.values[vi.name] = v
            for init in graph.initializer:
                self.values.pop(init.name, None)
                self.consts[init.name] = _validate_mod.decode_initializer(init)
            vinfo = {**self._vinfo,
                     **{vi.name: vi.type for vi in list(graph.value_info) + list(graph.output)}}
            self._convert_nodes(graph, vinfo, f"{scope}/")
            if (len(self.refusals), sum(map(len, self.unsupported.values())), len(self.invalid)) != problems:
                raise Refusal(f"its subgraph {graph.name!r} has nodes that cannot be imported (listed as {scope}/...)")
            missing = [o.name for o in graph.output if o.name in self.unavailable]
            if missing:
                raise Refusal(f"subgraph {graph.name!r} output {missing[0]!r} is not available")
            return [self.value(o.name) for o in graph.output]
        finally:
            # Values made inside the body (also constants materialized there) must not be used outside it.
            self.values, self.consts, self.unavailable, self._f32 = saved

    def _convert_nodes(self, graph: onnx.GraphProto, vinfo: Mapping[str, onnx.TypeProto], prefix: str = "") -> None:
        for idx, node in enumerate(graph.node):
            # Unnamed nodes are called "<OpType>_<index in the graph>"; a body's carry its scope.
            name = prefix + (node.name or f"{node.op_type}_{idx}")
            self._op_types[name] = node.op_type
            self._convert_node(node, name, vinfo)

    def _add_invalid(self, node: onnx.NodeProto, name: str, reason: str) -> None:
        self.invalid.append(f"{node.op_type} node {name!r}: {reason}")
        self._invalid_nodes.add(name)
        self.unavailable.update(n for n in node.output if n)

    def _check_sizes(self, block: ir.Block) -> None:
        """Every tensor type the conversion built (also those the ge ops
        inferred) must have a byte size that fits in int64."""
        for op in block.operations:
            for r in op.results:
                try:
                    reg.check_tensor_type(r.type, "the result")
                except Invalid as e:
                    name = node_name(op.location)
                    if name in self._invalid_nodes:
                        continue
                    where = f"{self._op_types.get(name, '?')} node {name!r}" if name else f"op {op.name}"
                    self.invalid.append(f"{where}: {op.name} {e.message}")
                    return  # one is enough: the rest follows from it

    def _collect_used(self, nodes) -> None:
        """Names read by nodes, including (nested) subgraphs and their outputs."""
        for node in nodes:
            self.used_names.update(n for n in node.input if n)
            for a in node.attribute:
                for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    self.used_names.update(o.name for o in sub.output)
                    self._collect_used(sub.node)

    def _convert_node(self, node: onnx.NodeProto, name: str, vinfo: Mapping[str, onnx.TypeProto]) -> None:
        domain = "" if node.domain in ("", "ai.onnx") else node.domain
        opset = self.opset if not domain else next((o.version for o in self.model.opset_import if o.domain == domain), 1)
        support = reg.lookup(domain, node.op_type, opset)
        if any(n in self.unavailable for n in node.input if n):
            # Downstream of a failure: not converted, but its op type is still
            # checked so that one error lists every unsupported op type.
            if support is None and node.op_type != "Constant":
                self.unsupported.setdefault((domain, node.op_type, opset), []).append(name)
            self.unavailable.update(n for n in node.output if n)
            return
        strings = [n for n in node.input if n in self.string_inits]
        if strings and node.op_type != "Constant":
            self.refusals.append((name, node.op_type, f"input {strings[0]!r} is a STRING initializer: "
                                  "ge has no string tensors"))
            self.unavailable.update(n for n in node.output if n)
            return
        if self._try_fold(node):
            return
        if support is None:
            self.unsupported.setdefault((domain, node.op_type, opset), []).append(name)
            self.unavailable.update(n for n in node.output if n)
            return
        out_types = []
        for o in node.output:
            try:
                out_types.append(self._type_of(vinfo[o], f"output {o!r}") if o in vinfo else None)
            except Refusal:
                out_types.append(None)
        ctx = NodeContext(node, opset, self, out_types, name)
        loc = ir.Location.fused([ir.Location.name(name)], metadata=ir.StringAttr.get(node.op_type))
        try:
            with loc:
                results = reg.values_of(support.converter(ctx))
        except Invalid as e:
            self._add_invalid(node, name, e.message)
            return
        except Refusal as e:
            self.refusals.append((name, node.op_type, e.message))
            self.unavailable.update(n for n in node.output if n)
            return
        except Exception as e:
            # A converter built an op the verifiers reject, or hit a case it
            # does not handle: report it with the node instead of escaping.
            diags = getattr(e, "error_diagnostics", None)
            detail = "; ".join(str(d.message) for d in diags) if diags else f"{type(e).__name__}: {e}"
            self.refusals.append((name, node.op_type, f"conversion failed: {detail}"))
            self.unavailable.update(n for n in node.output if n)
            return
        # Result sizes first: an overflowing shape is the model's fault.
        for r in results:
            try:
                reg.check_tensor_type(getattr(r, "type", None), "the result")
            except Invalid as e:
                self._add_invalid(node, name, e.message)
                return
        # Verify what the converter produced now, so that an invalid op is
        # reported against its node (and all such nodes together).
        for r in results:
            owner = getattr(r, "owner", None)
            if isinstance(owner, (ir.Operation, ir.OpView)):
                try:
                    owner.verify()
                except ir.MLIRError as e:
                    detail = "; ".join(str(d.message) for d in e.error_diagnostics)
                    self.refusals.append((name, node.op_type, f"conversion produced invalid IR: {detail}"))
                    self.unavailable.update(n for n in node.output if n)
                    return
        outs = [o for o in node.output]
        for i, o in enumerate(outs):
            if not o:
                continue
            if i >= len(results) or results[i] is None:
                self.unavailable.add(o)
                continue
            self.values[o] = results[i]


def _narrow_float(a: np.ndarray) -> bool:
    return isinstance(a, np.ndarray) and (a.dtype == np.float16 or a.dtype.name == "bfloat16")


def import_onnx(
    model: str | Path | bytes | onnx.ModelProto,
    *,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    context: ir.Context | None = None,
    resource_threshold: int = DEFAULT_RESOURCE_THRESHOLD,
    func_name: str | None = None,
    verify: bool = True,
    constant_inputs: Mapping[str, np.ndarray] | None = None,
    fold_in_f32: bool = False,
) -> ir.Module:
    """Imports an ONNX model into a ge module.

    Args:
        model: a path (external data files are loaded from beside it), the
            serialized bytes, or an ``onnx.ModelProto``.
        input_shapes: fixes input dimensions, e.g. ``{"x": [1, 3, 224, 224]}``.
        context: the MLIR context (default: the current one).
        resource_threshold: constants with more elements become
            ``dense_resource`` blobs (keeps IR text small).
        func_name: name of the function (default: the graph name).
        verify: run the MLIR verifier on the result.
        constant_inputs: graph inputs frozen to these values (they become
            initializers and leave the function's arguments): a model whose
            shape, axes or pads arrive as inputs is specialized to them.
            ``UnsupportedOpsError.needs_constant`` names the inputs a model
            needs this way.
        fold_in_f32: import-time folding computes f16/bf16 arithmetic in f32
            and rounds each folded value once (GE's ``constant_folding_fp_mode:
            FP32``); by default in the tensors' own type, rounding after each node.

    Raises:
        InvalidModelError: the model is not valid ONNX (onnxruntime refuses
            it too); lists every problem found, with node names.
        UnsupportedOpsError: lists every unsupported op type (with opset and
            node names) and every refused node, not just the first.
        OnnxImportError: malformed model, bad ``input_shapes``.
    """
    proto, source = load_model(model)
    proto_copy = onnx.ModelProto()
    proto_copy.CopyFrom(proto)
    # Invalid models (onnxruntime refuses them too) stop here, every problem listed.
    order = _validate_mod.validate(proto_copy)
    if order != list(range(len(proto_copy.graph.node))):
        # Out of order (onnxruntime sorts too): sorted. Unnamed nodes keep
        # the names of their original position (as problems name them).
        for k, node in enumerate(proto_copy.graph.node):
            if not node.name:
                node.name = f"{node.op_type}_{k}"
        nodes = [proto_copy.graph.node[k] for k in order]
        sorted_nodes = [onnx.NodeProto() for _ in nodes]
        for dst, src in zip(sorted_nodes, nodes):
            dst.CopyFrom(src)
        del proto_copy.graph.node[:]
        proto_copy.graph.node.extend(sorted_nodes)
    if input_shapes:
        _apply_input_shapes(proto_copy, input_shapes)
    if constant_inputs:
        _freeze_inputs(proto_copy, constant_inputs)
    try:
        inferred = onnx.shape_inference.infer_shapes(proto_copy, check_type=False, strict_mode=False, data_prop=True)
    except Exception:
        inferred = proto_copy  # inference is best effort; the ge ops infer too
    ctx = context or ir.Context.current
    with ctx:
        imp = Importer(inferred, source, resource_threshold=resource_threshold, func_name=func_name,
                       fold_in_f32=fold_in_f32)
        with ir.Location.unknown():
            module = imp.import_graph()
        if verify:
            from ...api import verify as _verify

            _verify(module)
    module.operation.attributes["ge.source"] = ir.StringAttr.get(source, context=ctx)
    return module


#: Argument attribute: the ONNX ``dim_param`` of each dim ("" where there is none), on arguments
#: with a ``?`` dim named by one. Same name, same size: the CPU runner checks it on every call.
DIM_PARAMS_ATTR = "onnx.dim_params"


def _arg_attrs(vi: onnx.ValueInfoProto, t: ir.Type) -> dict[str, ir.Attribute]:
    attrs: dict[str, ir.Attribute] = {"onnx.name": ir.StringAttr.get(vi.name)}
    if not isinstance(t, ir.RankedTensorType) or ir.RankedTensorType(t).has_static_shape:
        return attrs
    rt = ir.RankedTensorType(t)
    dims = vi.type.tensor_type.shape.dim
    names = [d.dim_param if rt.is_dynamic_dim(i) and d.HasField("dim_param") else "" for i, d in enumerate(dims)]
    if len(names) == rt.rank and any(names):
        attrs[DIM_PARAMS_ATTR] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])
    return attrs
