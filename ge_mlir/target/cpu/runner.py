"""Lower ge IR to the LLVM dialect and run it on the host CPU with the MLIR JIT.

    exe = CpuExecutable(module)          # compiles a copy; `module` is untouched
    (y,) = exe(np.ones((2, 3), np.float32))

Functions take and return statically shaped ranked tensors. After
``buffer-results-to-out-params`` every result is an out-parameter that the
caller allocates, so the JIT never hands out memory it owns.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from mlir import ir
from mlir.dialects import arith

from ...api import run_pipeline
from ...errors import ExecutionError, GeMlirError, PassFailedError, VerificationError
from ...ir.types import TensorSpec, check_arrays, element_bytes, tensor_bytes, tensor_spec

#: Tensors to buffers (BUILD_NOTES, LLVM 22): results become caller-allocated
#: out-parameters, so the JIT never hands out memory it owns.
ONE_SHOT_PIPELINE = (
    "eliminate-empty-tensors, one-shot-bufferize{bufferize-function-boundaries=1 function-boundary-type-conversion=identity-layout-map}, "
    "buffer-results-to-out-params{hoist-static-allocs=1 modify-public-functions=1}, canonicalize"
)
#: Buffers to the LLVM dialect, plus ``convert-math-to-funcs`` (integer powers)
#: and ``convert-math-to-libm`` (tanh, erf, log1p, ... without an LLVM
#: intrinsic) before the func lowering.
LLVM_PIPELINE = (
    "convert-vector-to-scf{full-unroll=1}, convert-linalg-to-loops, lower-affine, "
    "convert-scf-to-cf, canonicalize, convert-vector-to-llvm, expand-strided-metadata, lower-affine, "
    "finalize-memref-to-llvm, convert-math-to-funcs{convert-ctlz=0}, convert-math-to-llvm, convert-math-to-libm, "
    "convert-scf-to-cf, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, "
    "convert-func-to-llvm, convert-ub-to-llvm, reconcile-unrealized-casts"
)

#: The CPU pipeline's stages after the ge level, in order (``compile_to`` names).
CPU_STAGES = ("linalg", "bufferized", "llvm")


def _run(module: ir.Module, pipeline: str, what: str) -> None:
    try:
        run_pipeline(module, f"builtin.module({pipeline})")
    except (PassFailedError, VerificationError) as e:
        raise ExecutionError(f"cannot {what}", diagnostics=e.diagnostics) from None


def lower_stage(module: ir.Module, stage: str, *, codegen: bool = True, workspace: bool = True,
                check_bounds: bool = False) -> None:
    """Runs one CPU stage on ``module`` in place (see :data:`CPU_STAGES`).

    * ``linalg``: every ge op to linalg/tensor/arith/math; i1 tensors stored
      as i8; public functions get ``llvm.emit_c_interface`` (numpy calls them);
    * ``bufferized``: the codegen strategy on tensors (:mod:`.codegen`: im2col,
      tiled and vectorized matmuls; off with ``codegen=False``), then one-shot
      bufferization; with ``workspace`` every statically sized buffer of the
      function body becomes a workspace argument (``ge.workspace`` function
      attribute) that the caller allocates once;
    * ``llvm``: the LLVM dialect, ready for the JIT.

    With ``check_bounds`` (``linalg``) run-time gather/scatter indices are
    counted out of range into extra function results (``ge.bounds_checks``,
    see :mod:`ge_mlir.target.cpu.bounds_checks`) that :class:`CpuExecutable` checks.
    """
    if stage == "linalg":
        for fn in _functions(module):
            if fn.regions[0].blocks and "llvm.emit_c_interface" not in fn.attributes:
                fn.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get(module.context)
        checks = "true" if check_bounds else "false"
        _run(module, f"ge-lower-to-linalg{{fail-on-unlowered=true check-bounds={checks}}}",
             "lower the module to linalg")
        with module.context, ir.Location.unknown():
            _widen_bool_tensors(module)
        _check_tensor_sizes(module, "lowering to linalg")
    elif stage == "bufferized":
        _read_only_arguments(module)
        if codegen:
            from .codegen import apply_strategy

            try:
                apply_strategy(module)
            except (ValueError, ir.MLIRError) as e:  # the transform interpreter reports failures as exceptions
                raise ExecutionError(f"the CPU codegen strategy failed: {e}") from None
            _check_tensor_sizes(module, "the CPU codegen strategy")
        with module.context, ir.Location.unknown():
            _distinct_results(module)
        _run(module, ONE_SHOT_PIPELINE, "bufferize the module")
        if workspace:
            with module.context, ir.Location.unknown():
                _allocs_to_workspace(module)
        _run(module, "buffer-deallocation-pipeline", "insert buffer deallocations")
        if codegen:
            from .codegen import hoist_vector_transfers

            _noalias_arguments(module)
            try:
                hoist_vector_transfers(module)
            except (ValueError, ir.MLIRError) as e:
                raise ExecutionError(f"the CPU codegen strategy failed: {e}") from None
    elif stage == "llvm":
        with module.context, ir.Location.unknown():
            _copies_to_linalg(module)
            _expand_bf16_truncations(module)
        _run(module, LLVM_PIPELINE, "lower the module to LLVM")
    else:
        raise ValueError(f"unknown CPU stage {stage!r} (stages: {', '.join(CPU_STAGES)})")


WORKSPACE_ATTR = "ge.workspace"


_INT64_MAX = 2**63 - 1
#: Environment variable overriding the largest workspace (bytes) an
#: executable allocates; default: the machine's physical memory.
WORKSPACE_LIMIT_ENV = "GE_MLIR_WORKSPACE_LIMIT"


def workspace_limit() -> int:
    """Largest workspace in bytes an executable allocates (``GE_MLIR_WORKSPACE_LIMIT``,
    else the physical memory or the address-space ulimit, whichever is smaller)."""
    import os

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


#: Ops whose results are materialized whole at compile time: LLVM builds a
#: constant as a global, element by element (a 4 PB splat ended the process
#: with std::bad_alloc inside the JIT).
_MATERIALIZED = ("arith.constant", "ge.constant")


def _check_tensor_sizes(module: ir.Module, what: str) -> None:
    """Refuses any tensor whose byte size overflows int64 (MLIR's layout
    computations abort the process on them during bufferization), and any
    constant larger than the memory limit (LLVM would build it and end the
    process). Outputs and the workspace are allocated by the caller, which
    refuses them with their size. The ge verifier checks the graph's own types, this the
    ones the lowering and the codegen strategy create (a padded convolution
    input, an im2col matrix)."""
    from ...errors import format_location

    limit = workspace_limit()
    bad: list[tuple[ir.Operation, ir.Type, int, bool]] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        materialized = o.name in _MATERIALIZED
        for v in o.results:
            size = tensor_bytes(v.type)
            if size is not None and (size > _INT64_MAX or (materialized and size > limit)):
                bad.append((o, v.type, size, size > _INT64_MAX))
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    if not bad:
        return
    o, t, size, overflow = bad[0]
    where = f"'{o.name}' at {format_location(o.location)}"
    if overflow:
        raise ExecutionError(
            f"{what} creates a tensor too large to compile: {where} produces {t} "
            f"({size} bytes, more than int64 can address)", op=o.name)
    raise ExecutionError(
        f"{what} needs a tensor too large to hold: {where} has {t} ({size} bytes, {size / 2**30:.1f} GiB), more "
        f"than the limit of {limit} bytes (the physical memory or the ulimit unless {WORKSPACE_LIMIT_ENV} is set)",
        op=o.name)


def _distinct_results(module: ir.Module) -> None:
    """Every ``func.return`` operand after the first use of a value becomes a copy.

    ``return %0, %0`` bufferizes to one buffer returned twice;
    ``buffer-results-to-out-params{hoist-static-allocs=1}`` then replaces the
    allocation by the first out-parameter and erases it, leaving the second
    return operand a dangling (freed) value: the pass segfaults (issue 11).
    A ``bufferization.alloc_tensor() copy(%0)`` per duplicate gives each
    result its own buffer, hence its own out-parameter.
    """
    from mlir.dialects import bufferization

    for fn in _functions(module):
        for block in fn.regions[0].blocks:
            ret = list(block.operations)[-1].operation
            if ret.name != "func.return":
                continue
            seen: set = set()
            for i in range(len(ret.operands)):
                v = ret.operands[i]
                if not isinstance(v.type, ir.RankedTensorType):
                    continue
                if v in seen:
                    with ret.location, ir.InsertionPoint(ret):
                        ret.operands[i] = bufferization.alloc_tensor(v.type, [], copy=v)
                else:
                    seen.add(v)


def _allocs_to_workspace(module: ir.Module) -> None:
    """Statically sized ``memref.alloc``s of a function body become views into
    one workspace arena, a trailing argument listed in the function's
    ``ge.workspace`` attribute.

    The executable allocates the arena once and passes it on every call: no
    malloc/free per intermediate tensor and no page faults on freshly mmapped
    memory (40% of a conv chain's run time). Buffers whose live ranges (in
    top-level op order, through views and ops returning memrefs) do not
    overlap share bytes, first-fit from the largest buffer down, so the
    working set stays close to the live peak (cache reuse across layers). An
    executable must not be called from two threads at once.
    """
    from mlir.dialects import arith as _arith
    from mlir.dialects import memref as _memref

    for fn in _functions(module):
        if not fn.regions[0].blocks:
            continue
        entry = fn.regions[0].blocks[0]
        top = [op.operation for op in entry.operations]
        position = {op: i for i, op in enumerate(top)}
        allocs = [
            op for op in top
            if op.name == "memref.alloc" and not len(op.operands)
            and ir.MemRefType(op.results[0].type).has_static_shape
            and _identity_layout(ir.MemRefType(op.results[0].type))
        ]
        if not allocs:
            continue
        plans = []
        for op in allocs:
            start = position[op]
            end = _last_use(op.results[0], position, fn)
            t = ir.MemRefType(op.results[0].type)
            size = _byte_size(t)
            plans.append([op, start, end, (size + 63) // 64 * 64, 0])
        placed: list[list] = []
        for plan in sorted(plans, key=lambda p: -p[3]):
            offset = 0
            for other in sorted((o for o in placed if o[1] <= plan[2] and plan[1] <= o[2]), key=lambda o: o[4]):
                if offset + plan[3] <= other[4]:
                    break
                offset = max(offset, other[4] + other[3])
            plan[4] = offset
            placed.append(plan)
        arena_size = max(p[4] + p[3] for p in plans)
        if arena_size > _INT64_MAX:
            raise ExecutionError(
                f"the workspace of @{ir.StringAttr(fn.attributes['sym_name']).value} would need "
                f"{arena_size} bytes ({arena_size / 2**30:.1f} GiB), more than int64 can address"
            )
        arena_t = ir.MemRefType.get([arena_size], ir.IntegerType.get_signless(8))
        arena = entry.add_argument(arena_t, fn.location)
        for op, _, _, _, offset in plans:
            with op.location, ir.InsertionPoint(op):
                shift = _arith.constant(ir.IndexType.get(), offset)
                view = _memref.ViewOp(op.results[0].type, arena, shift, []).result
            op.results[0].replace_all_uses_with(view)
            op.erase()
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([*ftype.inputs, arena_t], ftype.results))
        if "arg_attrs" in fn.attributes:
            old = list(ir.ArrayAttr(fn.attributes["arg_attrs"]))
            fn.attributes["arg_attrs"] = ir.ArrayAttr.get([*old, ir.DictAttr.get({})])
        fn.attributes[WORKSPACE_ATTR] = ir.ArrayAttr.get([ir.TypeAttr.get(arena_t)])


def _byte_size(t: ir.MemRefType) -> int:
    size = tensor_bytes(t)
    assert size is not None, f"no static byte size for {t}"
    return size


def _last_use(value: ir.Value, position: dict, fn: ir.Operation) -> int:
    """Index of the last top-level op using ``value`` or anything aliasing it
    (results of its users that are memrefs: views, loops carrying it)."""
    last = 0
    work, seen = [value], set()
    while work:
        v = work.pop()
        for use in v.uses:
            owner = use.owner
            owner = owner.operation if isinstance(owner, ir.OpView) else owner
            top = owner
            while top not in position:
                parent = top.parent
                if parent is None or parent == fn:
                    break
                top = parent.operation if isinstance(parent, ir.OpView) else parent
            if top in position:
                last = max(last, position[top])
            for r in owner.results:
                if isinstance(r.type, ir.MemRefType) and r not in seen:
                    seen.add(r)
                    work.append(r)
    return last


def _identity_layout(t: ir.MemRefType) -> bool:
    m = t.layout.value
    return m == ir.AffineMap.get_identity(m.n_dims) if isinstance(m, ir.AffineMap) else False


def _bounds_checks(module: ir.Module, func_name: str) -> list[dict[str, Any]]:
    """The ``ge.bounds_checks`` entries of ``func_name`` (one per extra trailing result)."""
    from .bounds_checks import BOUNDS_CHECKS_ATTR

    for fn in _functions(module):
        if ir.StringAttr(fn.attributes["sym_name"]).value == func_name and BOUNDS_CHECKS_ATTR in fn.attributes:
            checks = []
            for entry in ir.ArrayAttr(fn.attributes[BOUNDS_CHECKS_ATTR]):
                d = ir.DictAttr(entry)
                checks.append({
                    "op": ir.StringAttr(d["op"]).value, "loc": ir.StringAttr(d["loc"]).value,
                    "axis_size": ir.IntegerAttr(d["axis_size"]).value,
                    "node": ir.StringAttr(d["node"]).value if "node" in d else None,
                })
            return checks
    return []


def _workspace_arrays(module: ir.Module, func_name: str) -> list[np.ndarray]:
    """One 64-byte aligned buffer per workspace argument of ``func_name``."""
    for fn in _functions(module):
        if ir.StringAttr(fn.attributes["sym_name"]).value != func_name or WORKSPACE_ATTR not in fn.attributes:
            continue
        arrays = []
        planned = sum(tensor_bytes(ir.TypeAttr(t).value) or 0 for t in ir.ArrayAttr(fn.attributes[WORKSPACE_ATTR]))
        limit = workspace_limit()
        if planned > limit:
            raise ExecutionError(
                f"@{func_name} needs a workspace of {planned} bytes ({planned / 2**30:.1f} GiB) for its "
                f"intermediate tensors, more than the limit of {limit} bytes ({limit / 2**30:.1f} GiB, "
                f"the physical memory or the ulimit unless {WORKSPACE_LIMIT_ENV} is set); it is not allocated"
            )
        for t in ir.ArrayAttr(fn.attributes[WORKSPACE_ATTR]):
            mt = ir.MemRefType(ir.TypeAttr(t).value)
            size, nbytes = element_bytes(mt.element_type), _byte_size(mt)
            try:
                raw = np.empty(nbytes + 64, np.uint8)
            except MemoryError:  # under the limit, but the process cannot map it (ulimit, overcommit)
                raise ExecutionError(
                    f"cannot allocate the workspace of @{func_name}: {nbytes} bytes "
                    f"({nbytes / 2**30:.1f} GiB) for its intermediate tensors"
                ) from None
            offset = (-raw.ctypes.data) % 64
            arrays.append(raw[offset: offset + nbytes].view(_CARRIER[size]).reshape(mt.shape))
        return arrays
    return []


def _annotate_arguments(module: ir.Module, arg_type: type, name: str, value: ir.Attribute) -> None:
    """Sets argument attribute ``name`` on every ``arg_type`` argument of every defined function."""
    for fn in _functions(module):
        if not fn.regions[0].blocks:
            continue
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        old = list(ir.ArrayAttr(fn.attributes["arg_attrs"])) if "arg_attrs" in fn.attributes else []
        new = []
        for i, t in enumerate(ftype.inputs):
            entries = {}
            if i < len(old):
                d = ir.DictAttr(old[i])
                entries = {d[j].name: d[j].attr for j in range(len(d))}
            if isinstance(t, arg_type):
                entries[name] = value
            new.append(ir.DictAttr.get(entries))
        fn.attributes["arg_attrs"] = ir.ArrayAttr.get(new)


def _read_only_arguments(module: ir.Module) -> None:
    """Tensor arguments bufferize as read-only (``bufferization.writable = false``):
    the caller's arrays are passed without a defensive copy."""
    with module.context:
        _annotate_arguments(module, ir.RankedTensorType, "bufferization.writable", ir.BoolAttr.get(False))


def _noalias_arguments(module: ir.Module) -> None:
    """Every memref argument gets ``llvm.noalias``.

    True by construction: the caller passes private (read-only) inputs, fresh
    output arrays and the executable's own workspace. It lets LLVM keep values
    (the matmul accumulator tile) in registers across loops instead of
    reloading them after every store through another argument.
    """
    with module.context:
        _annotate_arguments(module, ir.MemRefType, "llvm.noalias", ir.UnitAttr.get())


def _copies_to_linalg(module: ir.Module) -> None:
    """memref.copy -> linalg.copy (then loops).

    The LLVM lowering turns a strided memref.copy into a call to the runtime's
    ``memrefCopy``, which the JIT cannot resolve without loading the MLIR
    runner-utils library; loops also let LLVM vectorize the copy.
    """
    from mlir.dialects import linalg

    for fn in _functions(module):
        for op in _pre_order(fn):
            if op.name == "memref.copy":
                with op.location, ir.InsertionPoint(op):
                    linalg.copy(op.operands[0], outs=[op.operands[1]])
                op.erase()


def _expand_bf16_truncations(module: ir.Module) -> None:
    """``arith.truncf`` f32 -> bf16 (scalar or vector) as integer round-to-nearest-even.

    LLVM's own lowering depends on the CPU: AVX512-BF16's VCVTNEPS2BF16 treats
    denormal inputs as zero, scalar code without it flushes them too, vector
    code without it calls ``__truncsfbf2``. Integer rounding gives every CPU
    the same, IEEE (and onnxruntime) result and stays vectorizable.
    """
    from mlir.dialects import arith as _arith

    def is_bf16_trunc(op: ir.Operation) -> bool:
        if op.name != "arith.truncf":
            return False
        src, dst = op.operands[0].type, op.results[0].type
        elem = lambda t: ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else t  # noqa: E731
        return isinstance(elem(dst), ir.BF16Type) and isinstance(elem(src), ir.F32Type)

    def like(t: ir.Type, elem: ir.Type) -> ir.Type:
        return ir.VectorType.get(ir.VectorType(t).shape, elem) if isinstance(t, ir.VectorType) else elem

    def splat(t: ir.Type, value: int) -> ir.Value:
        if isinstance(t, ir.VectorType):
            e = ir.VectorType(t).element_type
            return _arith.constant(t, ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(e, value)))
        return _arith.constant(t, ir.IntegerAttr.get(t, value))

    for op in [o for o in _pre_order(module.operation) if is_bf16_trunc(o)]:
        src, dst_t = op.operands[0], op.results[0].type
        i32 = like(dst_t, ir.IntegerType.get_signless(32))
        i16 = like(dst_t, ir.IntegerType.get_signless(16))
        with op.location, ir.InsertionPoint(op):
            bits = _arith.bitcast(i32, src)
            c16 = splat(i32, 16)
            high = _arith.shrui(bits, c16)
            bias = _arith.addi(_arith.andi(high, splat(i32, 1)), splat(i32, 0x7FFF))
            rounded = _arith.trunci(i16, _arith.shrui(_arith.addi(bits, bias), c16))
            # NaN: keep sign and payload, set the quiet bit (the bias could carry into infinity).
            quiet = _arith.trunci(i16, _arith.ori(high, splat(i32, 0x40)))
            is_nan = _arith.cmpf(_arith.CmpFPredicate.UNO, src, src)
            out = _arith.bitcast(dst_t, _arith.select(is_nan, quiet, rounded))
        op.results[0].replace_all_uses_with(out)
        op.erase()


def lower_to_llvm(module: ir.Module) -> ir.Module:
    """Lowers ``module`` in place through every CPU stage to the LLVM dialect.

    Raises :class:`ExecutionError` naming the failing op/pass.
    """
    for stage in CPU_STAGES:
        lower_stage(module, stage)
    return module


def _widen_bool_tensors(module: ir.Module) -> None:
    """Stores i1 tensors as i8 (one byte per element, numpy's bool layout).

    LLVM 22's finalize-memref-to-llvm asserts (aborting the process) on loads
    and stores of sub-byte memref elements, so no memref<..xi1> may reach it.
    Every i1 tensor value (results, tensor block arguments, function
    boundaries) becomes i8; scalars stay i1 and are converted where they meet
    a widened tensor: linalg region arguments (``arith.trunci``), values
    yielded into widened results, stored by ``tensor.insert/from_elements/
    splat`` or ``linalg.fill`` (``arith.extui``), and ``tensor.extract``.
    """
    i1 = ir.IntegerType.get_signless(1, module.context)
    i8 = ir.IntegerType.get_signless(8, module.context)

    def wide(t: ir.Type) -> ir.Type:
        if _elem_is(t, "i1"):
            rt = ir.RankedTensorType(t)
            return ir.RankedTensorType.get(rt.shape, i8, rt.encoding)
        return t

    for fn in _functions(module):
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        fn.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get([wide(t) for t in ftype.inputs], [wide(t) for t in ftype.results])
        )
        if not fn.regions[0].blocks:
            continue
        for block in fn.regions[0].blocks:
            for arg in block.arguments:
                arg.set_type(wide(arg.type))
        # Pre-order: producers (and a region's parent) are widened before users.
        for op in _pre_order(fn)[1:]:
            _widen_op(op, wide, i1, i8)


def _pre_order(root: ir.Operation) -> list[ir.Operation]:
    ops: list[ir.Operation] = []

    def collect(o: ir.Operation) -> ir.WalkResult:
        ops.append(o)
        return ir.WalkResult.ADVANCE

    root.walk(collect, ir.WalkOrder.PRE_ORDER)
    return ops


def _is_i1(v: ir.Value) -> bool:
    return str(v.type) == "i1"


def _extui_operand(op: ir.Operation, idx: int, i8: ir.Type) -> None:
    with op.location, ir.InsertionPoint(op):
        op.operands[idx] = arith.extui(i8, op.operands[idx])


def _widen_op(op: ir.Operation, wide: Any, i1: ir.Type, i8: ir.Type) -> None:
    name = op.name
    if name == "arith.constant" and any(_elem_is(r.type, "i1") for r in op.results):
        attr = op.attributes["value"]
        new_type = wide(op.results[0].type)
        if not isinstance(attr, ir.DenseElementsAttr):
            raise ExecutionError(f"unsupported i1 constant {attr} at {op.location}")
        dense = ir.DenseElementsAttr(attr)
        if dense.is_splat:
            bit = ir.IntegerAttr(dense.get_splat_value()).value != 0
            new_attr = ir.DenseElementsAttr.get_splat(new_type, ir.IntegerAttr.get(i8, int(bit)))
        else:
            ints = ir.DenseIntElementsAttr(attr)
            values = np.array([int(ints[i] != 0) for i in range(len(ints))], np.int8)
            new_attr = ir.DenseElementsAttr.get(values.reshape(ir.RankedTensorType(new_type).shape), type=new_type)
        with op.location, ir.InsertionPoint(op):
            new = arith.constant(new_type, new_attr)
        op.results[0].replace_all_uses_with(new)
        op.erase()
        return
    # Scalars stored into widened tensors.
    if name in ("tensor.insert", "tensor.splat") and _is_i1(op.operands[0]):
        _extui_operand(op, 0, i8)
    elif name == "tensor.from_elements":
        for idx in range(len(op.operands)):
            if _is_i1(op.operands[idx]):
                _extui_operand(op, idx, i8)
    elif name == "linalg.fill" and _is_i1(op.operands[0]) and _elem_is(op.operands[1].type, "i8"):
        _extui_operand(op, 0, i8)
    for r in op.results:
        r.set_type(wide(r.type))
    if name == "tensor.extract" and _is_i1(op.results[0]) and _elem_is(op.operands[0].type, "i8"):
        r = op.results[0]
        r.set_type(i8)
        with op.location, ir.InsertionPoint.after(op):
            narrow = arith.trunci(i1, r)
        r.replace_all_uses_except(narrow, narrow.owner.operation)
    for region in op.regions:
        for block in region.blocks:
            for arg in block.arguments:
                arg.set_type(wide(arg.type))
    if name.startswith("linalg.") and op.regions and op.regions[0].blocks:
        # Structured ops: region argument i <-> operand i (ins then outs).
        block = op.regions[0].blocks[0]
        for operand, arg in zip(op.operands, block.arguments):
            if _is_i1(arg) and (_elem_is(operand.type, "i8") or str(operand.type) == "i8"):
                arg.set_type(i8)
                if len(list(arg.uses)):
                    with op.location, ir.InsertionPoint.at_block_begin(block):
                        narrow = arith.trunci(i1, arg)
                    arg.replace_all_uses_except(narrow, narrow.owner.operation)
    if name.startswith("linalg.") or name in ("tensor.pad", "tensor.generate"):
        # The terminator yields one scalar per (widened) result.
        for region in op.regions:
            for block in region.blocks:
                term = list(block.operations)[-1]
                for idx, (v, r) in enumerate(zip(term.operands, op.results)):
                    if _is_i1(v) and _elem_is(r.type, "i8"):
                        _extui_operand(term, idx, i8)


def _elem_is(t: ir.Type, name: str) -> bool:
    return isinstance(t, ir.RankedTensorType) and str(ir.RankedTensorType(t).element_type) == name


def _functions(module: ir.Module) -> list[ir.Operation]:
    return [op.operation for op in module.body.operations if op.operation.name == "func.func"]


# Descriptor pointer types only need the element size: any same-size ctype works.
_CARRIER = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _spec(t: ir.Type, what: str, fn: str) -> TensorSpec:
    spec = tensor_spec(t)
    if isinstance(spec, str):
        raise ExecutionError(f"{what} of @{fn} {spec}")
    return spec


_DESCRIPTOR_CLASSES: dict[int, type] = {}


def _descriptor_class(rank: int) -> type:
    cls = _DESCRIPTOR_CLASSES.get(rank)
    if cls is None:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_longlong)]
        if rank:
            fields += [("shape", ctypes.c_longlong * rank), ("strides", ctypes.c_longlong * rank)]
        cls = type(f"MemRefDescriptor{rank}", (ctypes.Structure,), {"_fields_": fields})
        _DESCRIPTOR_CLASSES[rank] = cls
    return cls


def _descriptor(array: np.ndarray) -> Any:
    """The ranked memref descriptor of a C-contiguous array (classes cached per rank;
    mlir.runtime builds a new ctypes class on every call)."""
    d = _descriptor_class(array.ndim)()
    ptr = array.ctypes.data
    d.allocated = ptr
    d.aligned = ptr
    d.offset = 0
    if array.ndim:
        d.shape[:] = array.shape
        d.strides[:] = [s // array.itemsize for s in array.strides] if array.size else [0] * array.ndim
    return d


#: CPUs the JIT can be told to compile for instead of the host (the x86-64
#: micro-architecture levels): code that runs at a level runs on every CPU
#: that has it, so tests pin the level CI and users' machines share.
JIT_CPUS = ("host", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
#: Environment variable that sets the JIT CPU when ``jit_cpu`` is not given.
JIT_CPU_ENV = "GE_MLIR_JIT_CPU"


def _target_cpu(module: ir.Module, jit_cpu: str | None) -> str:
    """Stamps ``target_cpu``/``target_features`` on every LLVM function when a
    level other than ``host`` is asked for; returns the CPU used.

    LLVM picks each function's subtarget from these attributes, replacing the
    host CPU and feature string the ExecutionEngine was set up with, so an
    AVX-512 machine generates exactly the code (and the runtime calls) an
    AVX2-only one would.
    """
    import os
    import platform

    cpu = jit_cpu if jit_cpu is not None else (os.environ.get(JIT_CPU_ENV) or "host")
    if cpu not in JIT_CPUS:
        raise ExecutionError(f"unknown JIT CPU {cpu!r} (choose from {', '.join(JIT_CPUS)}; env {JIT_CPU_ENV})")
    if cpu == "host":
        return cpu
    if platform.machine().lower() not in ("x86_64", "amd64"):
        raise ExecutionError(f"JIT CPU {cpu!r} is an x86-64 level; this host is {platform.machine()}")
    # The feature string replaces the host's; it must not be empty (an empty
    # one is dropped) and must not re-enable what the level lacks.
    features = '#llvm.target_features<["+avx512f"]>' if cpu == "x86-64-v4" else '#llvm.target_features<["-avx512f"]>'
    with module.context:
        cpu_attr = ir.StringAttr.get(cpu)
        features_attr = ir.Attribute.parse(features)
        for op in module.body.operations:
            if op.operation.name == "llvm.func":
                op.operation.attributes["target_cpu"] = cpu_attr
                op.operation.attributes["target_features"] = features_attr
    return cpu


#: compiler-rt names LLVM calls for float conversions a CPU has no instruction
#: for -> our implementations in the native library (lib/Runtime/CpuRuntime.cpp).
_RUNTIME_SYMBOLS = (
    "__truncsfbf2", "__truncdfbf2", "__truncsfhf2", "__truncdfhf2",
    "__extendhfsf2", "__extendhfdf2", "__extendbfsf2",
)


def _register_runtime(engine: Any) -> None:
    """Makes the conversion helpers resolvable by the JIT whatever the host
    CPU or the process's libgcc provide (registered before the first lookup,
    which is when the engine links the module)."""
    from ..._dialect import library_path

    lib = _state_runtime.get("lib")
    if lib is None:
        lib = _state_runtime["lib"] = ctypes.CDLL(str(library_path()))
    for name in _RUNTIME_SYMBOLS:
        engine.raw_register_runtime(name, ctypes.cast(getattr(lib, "ge_rt" + name[1:]), ctypes.c_void_p))


_state_runtime: dict[str, Any] = {}


class _CapturedStderr:
    """Captures what native code writes to file descriptor 2 (the JIT reports
    unresolved symbols there, not through an exception)."""

    def __enter__(self) -> "_CapturedStderr":
        import os
        import sys
        import tempfile

        sys.stderr.flush()
        self._file = tempfile.TemporaryFile()
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        return self

    def __exit__(self, *exc: Any) -> None:
        import os

        os.dup2(self._saved, 2)
        os.close(self._saved)

    def read(self) -> str:
        self._file.seek(0)
        text = self._file.read().decode(errors="replace")
        self._file.close()
        return text


def _jit_errors(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return (":\n  " + "\n  ".join(lines)) if lines else ""


class CpuExecutable:
    """A ge function compiled for the host CPU, callable with numpy arrays.

    Args:
        module: a verified module of ge (and upstream) ops; it is copied, not changed.
        func_name: the function to run; None picks the only public function.
        opt_level: LLVM optimization level of the JIT, 0 to 3.
        jit_cpu: the CPU the JIT generates code for, one of :data:`JIT_CPUS`;
            default: the ``GE_MLIR_JIT_CPU`` environment variable, else
            ``"host"``. ``"x86-64-v3"`` (AVX2) reproduces, on any newer CPU,
            the code an AVX2-only machine runs.
        check_bounds: run-time gather/scatter indices outside ``[-d, d)``
            raise :class:`ExecutionError` naming the op (and ONNX node);
            False leaves them clamped (gather) or skipped (scatter).
    """

    def __init__(
        self,
        module: ir.Module,
        func_name: str | None = None,
        *,
        opt_level: int = 2,
        compile_to: str = "llvm",
        on_stage: Callable[[str, ir.Module], None] | None = None,
        jit_cpu: str | None = None,
        check_bounds: bool = True,
    ) -> None:
        from mlir.execution_engine import ExecutionEngine

        # LLVM aborts the process (an unreachable in CodeGenOpt) on any other level.
        if not isinstance(opt_level, int) or not 0 <= opt_level <= 3:
            raise ExecutionError(f"opt_level must be an integer from 0 to 3, got {opt_level!r}")

        # Compile in a context of our own: lowering rewrites in place, and the
        # JIT keeps the context alive as long as the executable.
        self._context = ir.Context()
        with self._context, ir.Location.unknown():
            try:
                self._module = ir.Module.parse(module.operation.get_asm(enable_debug_info=True))
            except ir.MLIRError as e:
                raise ExecutionError.from_mlir_error("cannot copy the module", e) from None
            self.func_name = self._pick_function(func_name)
            fn = next(f for f in _functions(self._module) if self._sym(f) == self.func_name)
            ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
            self.inputs = [_spec(t, f"argument #{i}", self.func_name) for i, t in enumerate(ftype.inputs)]
            self.outputs = [_spec(t, f"result #{i}", self.func_name) for i, t in enumerate(ftype.results)]
            if compile_to not in CPU_STAGES:
                raise ExecutionError(f"compile_to must be one of {', '.join(CPU_STAGES)}, got {compile_to!r}")
            self._engine = None
            self._workspace: list[np.ndarray] = []
            self._bounds_checks: list[dict[str, Any]] = []
            for stage in CPU_STAGES:
                lower_stage(self._module, stage, check_bounds=check_bounds)
                if stage == "linalg":
                    self._bounds_checks = _bounds_checks(self._module, self.func_name)
                if stage == "bufferized":
                    self._workspace = _workspace_arrays(self._module, self.func_name)
                if on_stage is not None:
                    on_stage(stage, self._module)
                if stage == compile_to:
                    break
            if compile_to != "llvm":
                return
            self.jit_cpu = _target_cpu(self._module, jit_cpu)
            try:
                self._engine = ExecutionEngine(self._module, opt_level=opt_level)
                _register_runtime(self._engine)
                # The packed entry point (void **args), looked up once: the
                # engine's invoke() looks it up and builds ctypes per call.
                with _CapturedStderr() as err:
                    addr = self._engine.raw_lookup("_mlir_ciface_" + self.func_name)
            except Exception as e:  # JIT/translation failures
                raise ExecutionError(f"cannot JIT-compile @{self.func_name}: {e}") from None
            if not addr:
                raise ExecutionError(
                    f"cannot JIT-compile @{self.func_name} for CPU {self.jit_cpu!r}: entry point not found"
                    + _jit_errors(err.read())
                )
            self._packed_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(addr)

    @staticmethod
    def _sym(fn: ir.Operation) -> str:
        return ir.StringAttr(fn.attributes["sym_name"]).value

    def _pick_function(self, func_name: str | None) -> str:
        fns = [f for f in _functions(self._module) if f.regions[0].blocks]
        names = [self._sym(f) for f in fns]
        if func_name is not None:
            if func_name not in names:
                raise ExecutionError(
                    f"no function @{func_name} in the module (functions: {', '.join(names) or 'none'})"
                )
            return func_name
        public = [
            self._sym(f) for f in fns
            if "sym_visibility" not in f.attributes
            or ir.StringAttr(f.attributes["sym_visibility"]).value == "public"
        ]
        if len(public) != 1:
            raise ExecutionError(
                f"module has {len(public)} public functions ({', '.join(public) or 'none'}); pass func_name"
            )
        return public[0]

    def _check(self, args: Sequence[Any]) -> list[np.ndarray]:
        fn = self.func_name
        if len(args) != len(self.inputs):
            raise ExecutionError(f"@{fn} takes {len(self.inputs)} argument(s), got {len(args)}")
        return check_arrays(args, self.inputs, [f"argument #{i} of @{fn}" for i in range(len(args))])

    @property
    def module(self) -> ir.Module:
        """The lowered module (LLVM dialect unless stopped earlier with ``compile_to``)."""
        return self._module

    def __call__(self, *args: Any) -> list[np.ndarray]:
        return self.run(self._check(args))

    def run(self, arrays: list[np.ndarray]) -> list[np.ndarray]:
        """Runs on arrays already checked against :attr:`inputs` (C-contiguous, exact dtype and shape)."""
        if self._engine is None:
            raise ExecutionError(f"@{self.func_name} was compiled only to a partial stage; it cannot run")
        try:
            outs = [np.empty(spec.shape, spec.dtype) for spec in self.outputs]
        except MemoryError:
            total = sum(int(np.prod(s.shape, dtype=object)) * s.dtype.itemsize for s in self.outputs)
            raise ExecutionError(
                f"cannot allocate the outputs of @{self.func_name}: {total} bytes ({total / 2**30:.1f} GiB)"
            ) from None
        flags = [np.zeros((), np.int64) for _ in self._bounds_checks]
        all_arrays = [*arrays, *outs, *flags, *self._workspace]
        descs = [_descriptor(a) for a in all_arrays]
        packed = (ctypes.c_void_p * len(descs))()
        holders = [ctypes.pointer(d) for d in descs]
        for i, h in enumerate(holders):
            packed[i] = ctypes.cast(ctypes.pointer(h), ctypes.c_void_p)
        self._packed_fn(packed)
        del all_arrays, holders
        for flag, check in zip(flags, self._bounds_checks):
            if int(flag):
                raise ExecutionError(
                    f"{check['op']} at {check['loc']}: {int(flag)} run-time index value(s) out of range "
                    f"[-{check['axis_size']}, {check['axis_size']}) (disable with CompileOptions.check_bounds=False)",
                    op=check["op"], node=check.get("node"),
                )
        return outs

    def __repr__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.outputs))
        return f"<CpuExecutable @{self.func_name}({ins}) -> ({outs})>"
