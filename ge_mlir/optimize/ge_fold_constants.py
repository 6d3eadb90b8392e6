"""ge-fold-constants: evaluate constant ge subgraphs at compile time.

A ge op is *foldable* when every operand is a ``ge.constant`` (dense or
``dense_resource``) or the result of another foldable op, and every result is
a statically shaped tensor of an element type the CPU runner handles, with at
most ``size-limit`` elements. The foldable ops of a function form constant
subgraphs; the results they hand to the rest of the function are computed by
extracting the subgraphs into one tiny function (constants cloned, no
arguments) and running it with :class:`ge_mlir.target.cpu.CpuExecutable`,
compiled once per function and round. Each such result becomes a new
``ge.constant``; the folded ops and the constants only they used are erased.

Evaluation semantics are those of the CPU backend, so a folded graph computes
exactly what the unfolded one would at run time: f16/bf16 arithmetic is done
in f32 and rounded back to f16/bf16 after each op (the backend lowering's
rule); integers wrap; ONNX cast semantics. With ``fp-mode=f32`` (GE's
``constant_folding_fp_mode: FP32``) a constant subgraph with f16/bf16 tensors is
rebuilt with them widened to f32 (explicit casts to f16/bf16 still round there)
and each folded result is rounded once; when the widened subgraph does not
verify, it folds the usual way (statistic ``f32-fallbacks``).

``dense_resource`` constants: the Python bindings cannot read their bytes
(``DenseResourceElementsAttr`` has no data accessor and no buffer protocol),
but the extracted function is printed with its resource blobs, so the JIT
reads them; they fold like dense constants. Results with more than
``resource-threshold`` elements (not i1, not splat) are stored as new
``dense_resource`` blobs (``folded``, ``folded_1``, ...) to keep the IR text small.

The pass alternates folding with upstream ``canonicalize`` (static
``ge.shape``, reshape/transpose folders on constants, dead code) until nothing
folds or ``max-iterations`` rounds ran.
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import func
from mlir.passmanager import PassManager

from ..dialects import ge
from ..passes.registry import Option, Pass, register_pass
from ..irutils.patterns import count_ops, defining_op

#: Cheap "shape-like" ops: folded even when ``aggressive=false``.
DATA_MOVEMENT_OPS = frozenset(
    "ge." + n
    for n in ["reshape", "transpose", "concat", "split", "slice", "gather", "gather_elements", "squeeze", "unsqueeze", "flatten", "expand", "tile", "pad", "shape", "range", "cast", "identity"]
)
#: Integer/bool arithmetic (shape computations); cheap when no float is involved.
INTEGER_ARITH_OPS = frozenset(
    "ge." + n
    for n in ["add", "sub", "mul", "div", "mod", "max", "min", "neg", "abs", "sign", "equal", "less", "less_equal", "greater", "greater_equal", "where", "not", "and", "or", "xor", "reduce_sum", "reduce_prod", "reduce_max", "reduce_min"]
)

_SUPPORTED_ELEMS = frozenset(
    ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "si8", "si16", "si32", "si64", "ui8", "ui16", "ui32", "ui64"]
)


def _numel(t: ir.RankedTensorType) -> int:
    return int(np.prod(t.shape, dtype=np.int64))


def _static_tensor(t: ir.Type) -> ir.RankedTensorType | None:
    if not isinstance(t, ir.RankedTensorType):
        return None
    rt = ir.RankedTensorType(t)
    if not rt.has_static_shape or str(rt.element_type) not in _SUPPORTED_ELEMS:
        return None
    return rt


def _is_integer_like(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) and isinstance(ir.RankedTensorType(t).element_type, ir.IntegerType)


def _constant_source(op: ir.Operation) -> bool:
    """A ge.constant whose value the JIT can read (dense or dense_resource)."""
    if op.name != "ge.constant" or _static_tensor(op.results[0].type) is None:
        return False
    attr = op.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        return True
    try:  # not always downcast automatically
        ir.DenseResourceElementsAttr(attr)
        return True
    except (ValueError, TypeError):
        return False


def _elements_attr(array: np.ndarray, t: ir.RankedTensorType, resource_threshold: int) -> ir.Attribute:
    """A DenseElementsAttr (splat when possible) or a dense_resource blob for ``array``."""
    elem = t.element_type
    name = str(elem)
    flat = np.ascontiguousarray(array).reshape(-1)
    if flat.size:
        raw = flat.view(np.uint8).reshape(flat.size, -1) if name != "i1" else flat
        if (raw == raw[:1]).all():
            v = flat[0]
            if name == "i1":
                scalar = ir.IntegerAttr.get(elem, int(bool(v)))
            elif isinstance(elem, ir.IntegerType):
                scalar = ir.IntegerAttr.get(elem, int(v))
            else:
                scalar = ir.FloatAttr.get(elem, float(v))
            return ir.DenseElementsAttr.get_splat(t, scalar)
    if name == "i1":
        attr = ir.DenseElementsAttr.get(np.ascontiguousarray(array, dtype=np.bool_))
        if attr.type != t:  # rank-0 / shape corner cases: rebuild from the flat data
            attr = ir.DenseElementsAttr.get(np.ascontiguousarray(array, dtype=np.bool_).reshape(t.shape))
        return attr
    data = np.ascontiguousarray(array).reshape(t.shape)
    if name == "bf16":
        data = data.view(np.uint16)
    if resource_threshold > 0 and data.size > resource_threshold:
        return ir.DenseResourceElementsAttr.get_from_buffer(data, "folded", t)
    return ir.DenseElementsAttr.get(data, type=t)


@register_pass
class GeFoldConstantsPass(Pass):
    name = "ge-fold-constants"
    summary = "Evaluate ge ops whose operands are all constants into new ge.constants"
    description = (
        "Constant subgraphs (ge ops fed only by ge.constant, dense or dense_resource) are extracted "
        "into a function, run once with the CPU JIT (backend semantics: f16/bf16 computed in f32 and "
        "rounded after each op) and replaced by ge.constant ops; alternates with upstream canonicalize "
        "to a fixpoint."
    )
    stage = "after-import"
    priority = 11
    options = (
        Option("size-limit", int, 1 << 20, "maximum number of elements of a folded result"),
        Option("aggressive", bool, True, "fold every op; false: only shape-like ops and integer arithmetic"),
        Option("max-iterations", int, 8, "rounds of folding + canonicalize"),
        Option("canonicalize", bool, True, "run upstream canonicalize after each folding round"),
        Option("resource-threshold", int, 4096,
               "results with more elements become dense_resource blobs (0: always dense)"),
        Option("fp-mode", str, "origin",
               "origin: f16/bf16 rounded after each op (the backend's rule); f32: a constant f16/bf16 "
               "subgraph is computed in f32 and each folded result rounded once (GE's constant_folding_fp_mode)"),
    )

    def run(self, module: ir.Operation) -> None:
        if self.opt("fp-mode") not in ("origin", "f32"):
            from ..errors import PassFailure

            raise PassFailure(f"fp-mode must be origin or f32, got {self.opt('fp-mode')!r}")
        for key in ("ops-folded", "canonicalize-removed", "constants-created", "subgraphs-evaluated", "evaluation-failures",
                    "skipped-size-limit", "skipped-not-cheap"):
            self.statistics.setdefault(key, 0)
        self.bump("ge-ops-before", count_ops(module))
        pm = None
        if self.opt("canonicalize"):
            pm = PassManager.parse("builtin.module(canonicalize)", context=module.context)
        for _ in range(max(1, self.opt("max-iterations"))):
            if pm is not None:
                self._canonicalize(pm, module)
            folded = 0
            for fn in module.regions[0].blocks[0].operations:
                if fn.operation.name == "func.func" and fn.regions[0].blocks:
                    folded += self._fold_function(fn.operation, module.context)
            self.bump("rounds")
            if not folded:
                break
        if pm is not None:
            self._canonicalize(pm, module)
        self.bump("ge-ops-after", count_ops(module))

    def _canonicalize(self, pm: PassManager, module: ir.Operation) -> None:
        """Upstream canonicalize (ge folders, static ge.shape, DCE), counting removed ge ops."""
        before = count_ops(module)
        pm.run(module)
        self.bump("canonicalize-removed", before - count_ops(module))

    # -- analysis -------------------------------------------------------------

    def _foldable_ops(self, fn: ir.Operation) -> tuple[list[ir.Operation], set[ir.Operation]]:
        limit, aggressive = self.opt("size-limit"), self.opt("aggressive")
        sources: set[ir.Operation] = set()
        foldable: list[ir.Operation] = []
        known: set[ir.Operation] = set()
        for view in fn.regions[0].blocks[0].operations:
            op = view.operation
            name = op.name
            if _constant_source(op):
                sources.add(op)
                continue
            if not name.startswith("ge.") or name == "ge.constant" or len(op.regions) or not len(op.operands):
                continue
            producers = [defining_op(v) for v in op.operands]
            if not all(p is not None and (p in sources or p in known) for p in producers):
                continue
            types = [_static_tensor(r.type) for r in op.results]
            if not types or any(t is None for t in types):
                continue
            if not aggressive and name not in DATA_MOVEMENT_OPS and not (
                name in INTEGER_ARITH_OPS
                and all(_is_integer_like(v.type) for v in [*op.operands, *op.results])
            ):
                self.bump("skipped-not-cheap")
                continue
            if any(_numel(t) > limit for t in types):
                self.bump("skipped-size-limit")
                continue
            known.add(op)
            foldable.append(op)
        return foldable, sources

    # -- transformation -------------------------------------------------------

    def _fold_function(self, fn: ir.Operation, context: ir.Context) -> int:
        foldable, _ = self._foldable_ops(fn)
        if not foldable:
            return 0
        members = set(foldable)
        outputs: list[ir.Value] = []
        for op in foldable:
            for r in op.results:
                if any(_owner(u.owner) not in members for u in r.uses):
                    outputs.append(r)
        if not outputs:
            return 0
        values = self._evaluate(foldable, outputs, context)
        if values is None:
            # One bad op (e.g. no CPU lowering) must not block the others: retry per output cone.
            values = []
            for out in outputs:
                cone = _cone(out, members)
                single = self._evaluate([op for op in foldable if op in cone], [out], context)
                values.append(single[0] if single else None)
        threshold = self.opt("resource-threshold")
        created = 0
        for out, array in zip(outputs, values):
            if array is None:
                continue
            producer = _owner(out.owner)
            t = ir.RankedTensorType(out.type)
            with producer.location, ir.InsertionPoint(producer):
                attr = _elements_attr(array, t, threshold)
                new = ge.ConstantOp(attr, results=[t])
            out.replace_all_uses_with(new.results[0])
            created += 1
        self.bump("constants-created", created)
        # Erase what is now dead, users first; then constants left without uses.
        erased = 0
        for op in reversed(foldable):
            if all(not _has_uses(r) for r in op.results):
                op.erase()
                erased += 1
        for view in list(fn.regions[0].blocks[0].operations):
            op = view.operation
            if op.name == "ge.constant" and not _has_uses(op.results[0]):
                op.erase()
        self.bump("ops-folded", erased)
        return erased

    def _evaluate(
        self, ops: list[ir.Operation], outputs: list[ir.Value], context: ir.Context
    ) -> list[np.ndarray] | None:
        if self.opt("fp-mode") == "f32" and any(_narrow_float(r.type) for op in ops for r in op.results):
            values = self._evaluate_in_f32(ops, outputs, context)
            if values is not None:
                return values
            self.bump("f32-fallbacks")  # the widened subgraph did not verify or run: fold as the backend computes
        return self._run_scratch(ops, outputs, context)

    def _run_scratch(
        self, ops: list[ir.Operation], outputs: list[ir.Value], context: ir.Context
    ) -> list[np.ndarray] | None:
        from ..target.cpu.runner import CpuExecutable

        with context, ir.Location.unknown():
            scratch = ir.Module.create()
            with ir.InsertionPoint(scratch.body):
                f = func.FuncOp("ge_fold", ir.FunctionType.get([], [v.type for v in outputs]))
                block = f.add_entry_block()
            mapping: dict[ir.Value, ir.Value] = {}
            with ir.InsertionPoint(block):
                for op in ops:
                    for v in op.operands:
                        if v not in mapping:
                            src = defining_op(v)
                            mapping[v] = src.clone().results[list(src.results).index(v)]
                    clone = op.clone()
                    for i in range(len(clone.operands)):
                        clone.operands[i] = mapping[op.operands[i]]
                    for a, b in zip(op.results, clone.results):
                        mapping[a] = b
                func.ReturnOp([mapping[v] for v in outputs])
            self.bump("subgraphs-evaluated")
            try:
                exe = CpuExecutable(scratch, "ge_fold", opt_level=0, precise_math=True)
                return exe()
            except Exception:  # noqa: BLE001 - any lowering/JIT failure means "do not fold"
                self.bump("evaluation-failures")
                return None


    def _evaluate_in_f32(
        self, ops: list[ir.Operation], outputs: list[ir.Value], context: ir.Context
    ) -> list[np.ndarray] | None:
        """The subgraph rebuilt with every f16/bf16 tensor widened to f32 (constants cast up, explicit
        casts to f16/bf16 kept as a round trip), each output cast back once."""
        from ..target.cpu.runner import CpuExecutable

        with context, ir.Location.unknown():
            scratch = ir.Module.create()
            with ir.InsertionPoint(scratch.body):
                f = func.FuncOp("ge_fold", ir.FunctionType.get([], [v.type for v in outputs]))
                block = f.add_entry_block()
            mapping: dict[ir.Value, ir.Value] = {}

            def cast(v: ir.Value, t: ir.Type) -> ir.Value:
                return ge.CastOp(t, v).results[0]

            try:
                with ir.InsertionPoint(block):
                    for op in ops:
                        for v in op.operands:
                            if v not in mapping:
                                src = defining_op(v)
                                c = src.clone().results[list(src.results).index(v)]
                                mapping[v] = cast(c, _widened(v.type)) if _narrow_float(v.type) else c
                        operands = [mapping[v] for v in op.operands]
                        if op.name == "ge.cast" and _narrow_float(op.results[0].type):
                            # An explicit cast rounds where the model says so, then computing goes on in f32.
                            mapping[op.results[0]] = cast(cast(operands[0], op.results[0].type), _widened(op.results[0].type))
                            continue
                        if op.regions and any(len(r.blocks) for r in op.regions):
                            return None  # ops with bodies are not rebuilt
                        new = ir.Operation.create(
                            op.name, results=[_widened(r.type) for r in op.results], operands=operands,
                            attributes={a.name: a.attr for a in op.attributes},
                        )
                        for a, b in zip(op.results, new.results):
                            mapping[a] = b
                    func.ReturnOp([cast(mapping[v], v.type) if _narrow_float(v.type) else mapping[v] for v in outputs])
                if not scratch.operation.verify():
                    return None
            except (ir.MLIRError, ValueError, TypeError):
                return None
            self.bump("subgraphs-evaluated")
            self.bump("subgraphs-evaluated-in-f32")
            try:
                return CpuExecutable(scratch, "ge_fold", opt_level=0, precise_math=True)()
            except Exception:  # noqa: BLE001 - any lowering/JIT failure: the caller folds the usual way
                return None


def _narrow_float(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) and isinstance(t.element_type, (ir.F16Type, ir.BF16Type))


def _widened(t: ir.Type) -> ir.Type:
    if not _narrow_float(t):
        return t
    rt = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(rt.shape, ir.F32Type.get(), rt.encoding)


def _owner(o: ir.Operation | ir.OpView) -> ir.Operation:
    return o.operation if isinstance(o, ir.OpView) else o


def _has_uses(v: ir.Value) -> bool:
    return any(True for _ in v.uses)


def _cone(value: ir.Value, members: set[ir.Operation]) -> set[ir.Operation]:
    """The foldable ops ``value`` depends on (itself included)."""
    cone: set[ir.Operation] = set()
    work = [defining_op(value)]
    while work:
        op = work.pop()
        if op is None or op in cone or op not in members:
            continue
        cone.add(op)
        work.extend(defining_op(v) for v in op.operands)
    return cone
