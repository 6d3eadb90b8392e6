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

from ...api import run_pipeline
from ...errors import ExecutionError, PassFailedError, VerificationError
from ...irutils.functions import pick_function, symbol_name

from ...irutils.types import TensorSpec, check_arrays, element_bytes, tensor_spec
# The passes own the workspace attribute and the memory limit; the runner
# allocates what they planned and checked.
from .ge_check_tensor_sizes import WORKSPACE_LIMIT_ENV, workspace_limit
from ...memory.ge_plan_memory import WORKSPACE_ATTR, read_memory_plan
from .stages import CPU_STAGES

#: Tensors to buffers (BUILD_NOTES, LLVM 22): results become caller-allocated
#: out-parameters, so the JIT never hands out memory it owns.
ONE_SHOT_PIPELINE = (
    "eliminate-empty-tensors, one-shot-bufferize{bufferize-function-boundaries=1 function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops=1}, "
    # Loops over a result's tiles return the buffer they were given: once canonicalized, the
    # function returns the allocation itself, which the next pass turns into the out-parameter
    # (else: computed in a buffer of its own and copied out).
    "canonicalize, buffer-results-to-out-params{hoist-static-allocs=1 modify-public-functions=1}, canonicalize"
)
#: The same for functions with run-time result shapes: their results stay results, memrefs the
#: function allocates (malloc) and hands over; the caller copies and frees them.
ONE_SHOT_RETURNING_PIPELINE = (
    "eliminate-empty-tensors, one-shot-bufferize{bufferize-function-boundaries=1 function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops=1}, "
    "canonicalize"
)
#: Buffers to the LLVM dialect, plus ``convert-math-to-funcs`` (integer powers)
#: and ``convert-math-to-libm`` (tanh, erf, log1p, ... without an LLVM
#: intrinsic) before the func lowering.
_LLVM_CONVERSIONS = (
    "convert-vector-to-scf{full-unroll=1}, convert-linalg-to-loops, lower-affine, "
    "convert-scf-to-cf, canonicalize, convert-vector-to-llvm, expand-strided-metadata, lower-affine, "
    "finalize-memref-to-llvm, convert-math-to-funcs{convert-ctlz=0}, convert-math-to-llvm, convert-math-to-libm, "
    "convert-scf-to-cf, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, "
    "convert-func-to-llvm, convert-ub-to-llvm"
)
LLVM_PIPELINE = _LLVM_CONVERSIONS + ", reconcile-unrealized-casts"
#: The same for code with parallel regions: the ``omp`` ops' own types are converted once
#: everything inside them is LLVM.
LLVM_PIPELINE_THREADED = _LLVM_CONVERSIONS + ", convert-openmp-to-llvm, reconcile-unrealized-casts"


#: What a failing stage could not do (``ExecutionError("cannot ...")``).
_STAGE_ACTIONS = {"linalg": "lower the module to linalg", "bufferized": "bufferize the module",
                  "llvm": "lower the module to LLVM"}


#: Parallel loops on the CPU target's thread team (lib/Runtime/ParallelRuntime.cpp): the
#: bufferized stage ends with ``scf.forall`` -> ``scf.parallel``; the llvm stage turns those into
#: ``omp.parallel`` + ``omp.wsloop`` ({threads} threads, static schedule), which LLVM's OpenMP IR
#: builder outlines into ``__kmpc_fork_call`` microtasks; the JIT resolves the ``__kmpc_*`` calls
#: to the team's entry points (:data:`_RUNTIME_SYMBOLS`).
PARALLEL_BUFFERIZED = "scf-forall-to-parallel"
#: (``canonicalize`` inlines the ``memref.alloca_scope`` the conversion wraps each body in: the
#: scf-to-cf lowering would otherwise give it several blocks, which its verifier rejects.)
PARALLEL_LLVM = "convert-scf-to-openmp{{num-threads={threads}}}, canonicalize"


def stage_pipeline(stage: str, *, codegen: bool = True, workspace: bool = True, check_bounds: bool = False,
                   memory_strategy: str = "aggressive", profile: bool = False, cpu: str = "host",
                   threads: int = 1, precise_math: bool = False, dynamic_results: bool = False,
                   fuse_elementwise: bool = True, winograd: bool = True) -> str:
    """The pass pipeline of one CPU stage (see :func:`lower_stage`), as ``ge-opt --pass-pipeline`` takes it.
    ``profile`` ends the ``bufferized`` stage with ``ge-instrument-ops`` (the profiler's stamps); ``cpu``
    (the JIT CPU, :data:`JIT_CPUS`) sizes the codegen strategy's kernels; ``threads`` > 1 runs large
    matmuls' column panels on the thread team (:data:`PARALLEL_LLVM`); ``precise_math`` keeps libm's
    exp/tanh/erf instead of ``ge-approximate-math``'s vectorizable polynomials; ``dynamic_results``
    (a result with a run-time shape) returns every result as a function-allocated memref instead
    of writing caller-allocated out-parameters; ``winograd`` False keeps 3x3 convolutions direct."""
    if stage == "linalg":
        checks = "true" if check_bounds else "false"
        passes = ["ge-emit-c-interface", "ge-emulate-narrow-types",
                  f"ge-lower-to-linalg{{fail-on-unlowered=true check-bounds={checks}}}",
                  "ge-widen-bool-tensors", 'ge-check-tensor-sizes{after="lowering to linalg"}']
        if fuse_elementwise:
            passes.insert(-1, "ge-fuse-elementwise-generics")
    elif stage == "bufferized":
        passes = ["ge-mark-readonly-arguments"]
        if codegen:
            # The strategy's im2col matrices are checked before bufferization, which aborts on overflowing sizes.
            wino = "" if winograd else " winograd=false"
            passes += [f"ge-select-codegen-strategy{{cpu={cpu}{wino}}}",
                       f"ge-apply-codegen-strategy{{cpu={cpu} threads={threads}{wino}}}",
                       'ge-check-tensor-sizes{after="the CPU codegen strategy"}']
        passes += ["ge-copy-duplicate-results", ONE_SHOT_RETURNING_PIPELINE if dynamic_results else ONE_SHOT_PIPELINE]
        if not dynamic_results:
            passes += ["ge-forward-result-buffers", "canonicalize", "ge-tie-donated-results"]
        if workspace:
            # Before the deallocation pipeline: planned buffers become views it does not free.
            passes.append("ge-plan-memory" if memory_strategy == "aggressive"
                          else f"ge-plan-memory{{strategy={memory_strategy}}}")
        passes.append("buffer-deallocation-pipeline")
        if dynamic_results:
            passes.append("convert-bufferization-to-memref")  # the clones that hand results over
        if codegen:
            passes += ["ge-mark-noalias-arguments", "ge-hoist-vector-transfers"]
        if profile:
            passes.append("ge-instrument-ops")
        if threads > 1:
            passes.append(PARALLEL_BUFFERIZED)
    elif stage == "llvm":
        passes = ["ge-widen-bool-memrefs", "ge-flatten-constant-globals", "ge-lower-memref-copies", "ge-expand-bf16-truncations",
                  "ge-outline-noalias-kernels"]
        if not precise_math:
            passes.append("ge-approximate-math")
        if threads > 1:
            passes.append(PARALLEL_LLVM.format(threads=threads))
        passes += [LLVM_PIPELINE_THREADED if threads > 1 else LLVM_PIPELINE, "ge-mark-noalias-pointers"]
    else:
        raise ValueError(f"unknown CPU stage {stage!r} (stages: {', '.join(CPU_STAGES)})")
    return f"builtin.module({', '.join(passes)})"


def lower_stage(module: ir.Module, stage: str, *, codegen: bool = True, workspace: bool = True,
                check_bounds: bool = False, memory_strategy: str = "aggressive", profile: bool = False,
                cpu: str = "host", threads: int = 1, precise_math: bool = False,
                dynamic_results: bool = False, fuse_elementwise: bool = True, winograd: bool = True) -> None:
    """Runs one CPU stage on ``module`` in place (see :data:`CPU_STAGES`); its
    passes are :func:`stage_pipeline` (``ge-opt --list-passes``, docs/passes.md).

    * ``linalg``: every ge op to linalg/tensor/arith/math; i1 tensors stored
      as i8; defined functions get ``llvm.emit_c_interface`` (numpy calls them);
    * ``bufferized``: the codegen strategy on tensors (:mod:`.codegen`: im2col,
      tiled and vectorized matmuls; off with ``codegen=False``), then one-shot
      bufferization; with ``workspace`` every statically sized buffer of the
      function body becomes a workspace argument (``ge.workspace`` function
      attribute) that the caller allocates once;
    * ``llvm``: the LLVM dialect, ready for the JIT.

    With ``check_bounds`` (``linalg``) run-time gather/scatter indices are
    counted out of range into extra function results (``ge.bounds_checks``,
    see :mod:`ge_mlir.target.cpu.bounds_checks`) that :class:`CpuExecutable` checks.

    Raises :class:`ExecutionError` (``cannot <action>``) with the failing pass's diagnostics.
    """
    pipeline = stage_pipeline(stage, codegen=codegen, workspace=workspace, check_bounds=check_bounds,
                              memory_strategy=memory_strategy, profile=profile, cpu=cpu, threads=threads,
                              precise_math=precise_math, dynamic_results=dynamic_results,
                              fuse_elementwise=fuse_elementwise, winograd=winograd)
    try:
        run_pipeline(module, pipeline)
    except (PassFailedError, VerificationError) as e:
        raise ExecutionError(f"cannot {_STAGE_ACTIONS[stage]}", diagnostics=e.diagnostics) from None


def _bounds_checks(module: ir.Module, func_name: str) -> list[dict[str, Any]]:
    """The ``ge.bounds_checks`` entries of ``func_name`` (one per extra trailing result)."""
    from .bounds_checks import BOUNDS_CHECKS_ATTR

    fn = pick_function(module, func_name)
    if BOUNDS_CHECKS_ATTR not in fn.attributes:
        return []
    checks = []
    for entry in ir.ArrayAttr(fn.attributes[BOUNDS_CHECKS_ATTR]):
        d = ir.DictAttr(entry)
        checks.append({
            "op": ir.StringAttr(d["op"]).value, "loc": ir.StringAttr(d["loc"]).value,
            "axis_size": ir.IntegerAttr(d["axis_size"]).value,
            "node": ir.StringAttr(d["node"]).value if "node" in d else None,
        })
    return checks


def _workspace_arrays(module: ir.Module, func_name: str) -> list[np.ndarray]:
    """One 64-byte aligned buffer per workspace argument of ``func_name``."""
    fn = pick_function(module, func_name)
    if WORKSPACE_ATTR not in fn.attributes:
        return []
    specs = []
    for t in ir.ArrayAttr(fn.attributes[WORKSPACE_ATTR]):
        mt = ir.MemRefType(ir.TypeAttr(t).value)
        specs.append((tuple(mt.shape), element_bytes(mt.element_type)))
    return allocate_workspace(func_name, specs)


def allocate_workspace(func_name: str, specs: Sequence[tuple[tuple[int, ...], int]]) -> list[np.ndarray]:
    """One 64-byte aligned buffer per workspace argument, given as (shape, element bytes): from the
    ``ge.workspace`` attribute, or from a saved artefact's manifest (no IR there)."""
    arrays = []
    planned = sum(int(np.prod(shape, dtype=object)) * size for shape, size in specs)
    limit = workspace_limit()
    if planned > limit:
        raise ExecutionError(
            f"@{func_name} needs a workspace of {planned} bytes ({planned / 2**30:.1f} GiB) for its "
            f"intermediate tensors, more than the limit of {limit} bytes ({limit / 2**30:.1f} GiB, "
            f"the physical memory or the ulimit unless {WORKSPACE_LIMIT_ENV} is set); it is not allocated"
        )
    for shape, size in specs:
        nbytes = int(np.prod(shape, dtype=object)) * size
        try:
            raw = np.empty(nbytes + 64, np.uint8)
        except MemoryError:  # under the limit, but the process cannot map it (ulimit, overcommit)
            raise ExecutionError(
                f"cannot allocate the workspace of @{func_name}: {nbytes} bytes "
                f"({nbytes / 2**30:.1f} GiB) for its intermediate tensors"
            ) from None
        offset = (-raw.ctypes.data) % 64
        arrays.append(raw[offset: offset + nbytes].view(_CARRIER[size]).reshape(shape))
    return arrays


def _profiler(module: ir.Module, func_name: str) -> Any:
    """The :class:`~ge_mlir.target.cpu.profiling.CpuProfiler` of an instrumented function."""
    from .ge_instrument_ops import read_profile_layout
    from .profiling import CpuProfiler

    layout = read_profile_layout(pick_function(module, func_name))
    if layout is None:  # a multi-block function: ge-instrument-ops leaves it alone
        raise ExecutionError(f"@{func_name} cannot be profiled: ge-instrument-ops times single-block functions only")
    return CpuProfiler(layout)


def lower_to_llvm(module: ir.Module) -> ir.Module:
    """Lowers ``module`` in place through every CPU stage to the LLVM dialect.

    Raises :class:`ExecutionError` naming the failing op/pass.
    """
    for stage in CPU_STAGES:
        lower_stage(module, stage)
    return module


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


def _dim_params(fn: ir.Operation) -> list[tuple[int, int, str, str]]:
    """(argument, dim, dim_param, argument name) of every named ``?`` dim of ``fn``'s arguments."""
    if "arg_attrs" not in fn.attributes:
        return []
    out = []
    for i, attrs in enumerate(ir.ArrayAttr(fn.attributes["arg_attrs"])):
        d = ir.DictAttr(attrs)
        if "onnx.dim_params" not in d:
            continue
        name = ir.StringAttr(d["onnx.name"]).value if "onnx.name" in d else f"#{i}"
        for j, p in enumerate(ir.ArrayAttr(d["onnx.dim_params"])):
            if ir.StringAttr(p).value:
                out.append((i, j, ir.StringAttr(p).value, name))
    return out


def _check_dim_params(params: list[tuple[int, int, str, str]], arrays: Sequence[np.ndarray], fn: str) -> None:
    """Same ONNX dim_param, same size (the model says so; the compiled code relies on it)."""
    seen: dict[str, tuple[int, str, int]] = {}
    for i, j, p, name in params:
        size = arrays[i].shape[j]
        if p in seen and seen[p][0] != size:
            n0, d0 = seen[p][1], seen[p][2]
            raise ExecutionError(f"@{fn}: dimension {p!r} is {seen[p][0]} in input {n0!r} (dim {d0}) but "
                                 f"{size} in input {name!r} (dim {j})")
        seen.setdefault(p, (size, name, j))


_RESULT_CLASSES: dict[tuple[int, ...], type] = {}


def _results_class(ranks: tuple[int, ...]) -> type:
    """The C-interface result struct of a function returning memrefs of these ranks, in order."""
    cls = _RESULT_CLASSES.get(ranks)
    if cls is None:
        fields = [(f"r{i}", _descriptor_class(r)) for i, r in enumerate(ranks)]
        cls = _RESULT_CLASSES[ranks] = type(f"Results{len(ranks)}", (ctypes.Structure,), {"_fields_": fields})
    return cls


def _copy_out(d: Any, dtype: np.dtype) -> np.ndarray:
    """A numpy copy of a returned memref (any strides and offset)."""
    rank = len(d.shape) if hasattr(d, "shape") else 0
    shape = tuple(d.shape[:rank]) if rank else ()
    if 0 in shape:
        return np.empty(shape, dtype)
    strides = tuple(s * dtype.itemsize for s in d.strides[:rank]) if rank else ()
    base = d.aligned + d.offset * dtype.itemsize
    extent = 1 + sum((n - 1) * s for n, s in zip(shape, d.strides[:rank] if rank else ()))
    buf = (ctypes.c_char * (extent * dtype.itemsize)).from_address(base)
    view = np.ndarray(shape, dtype, buffer=buf, strides=strides)
    return view.copy()


class _MallocOwner:
    """Owns a malloc'ed buffer returned by compiled code; numpy arrays over it keep it alive."""

    def __init__(self, d: Any, dtype: np.dtype) -> None:
        rank = len(d.shape) if hasattr(d, "shape") else 0
        self.ptr = d.allocated
        self.__array_interface__ = {
            "shape": tuple(d.shape[:rank]) if rank else (),
            "typestr": dtype.str,
            "data": (d.aligned + d.offset * dtype.itemsize, False),
            "strides": tuple(s * dtype.itemsize for s in d.strides[:rank]) if rank else None,
            "version": 3,
        }

    def __del__(self) -> None:
        if self.ptr:
            _libc().free(self.ptr)
            self.ptr = None


def _adopt(d: Any, dtype: np.dtype) -> np.ndarray:
    """A numpy array over a returned memref's buffer, which it frees when collected."""
    a = np.asarray(_MallocOwner(d, dtype))
    # The array interface cannot name extension dtypes (ml_dtypes' bfloat16 or float8 give "<V2"):
    # reinterpret the bytes, the view keeps the buffer's owner alive.
    return a if a.dtype == dtype else a.view(dtype)


def _data_pointer_reader() -> Callable[[np.ndarray], int]:
    """The fastest correct way to read an array's data pointer on this interpreter.

    ``a.ctypes.data`` builds a ctypes helper object on every call: 0.8 us an array, 1.6 of the 5
    us a batch-1 MLP call spent outside its kernel. NumPy's array object keeps the pointer right
    after the object header (``PyArrayObject_fields.data``, part of its ABI); the offset is found
    and checked here on arrays with and without an offset into their buffer, else (another
    interpreter layout) the ctypes attribute is used."""
    probes = [np.empty(3, np.float32), np.empty((2, 5), np.float64)[1:], np.empty(0, np.int8)]
    read = ctypes.c_void_p.from_address
    for offset in (16, 24, 32, 40):  # the object header's size on 64-bit CPythons
        try:
            if all(read(id(p) + offset).value == p.ctypes.data for p in probes):
                return lambda a: read(id(a) + offset).value
        except (ValueError, OSError):
            break
    return lambda a: a.ctypes.data


_data_pointer = _data_pointer_reader()


def _libc() -> Any:
    if not _LIBC:
        libc = ctypes.CDLL(None)
        libc.free.argtypes = [ctypes.c_void_p]
        _LIBC.append(libc)
    return _LIBC[0]


_LIBC: list[Any] = []


def _free_results(descs: Sequence[Any]) -> None:
    """Frees the buffers of returned memrefs (malloc'ed by the compiled code), each once."""
    for ptr in {d.allocated for d in descs if d.allocated}:
        _libc().free(ptr)


#: CPUs the JIT can be told to compile for instead of the host (the x86-64
#: micro-architecture levels): code that runs at a level runs on every CPU
#: that has it, so tests pin the level CI and users' machines share.
JIT_CPUS = ("host", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
#: Environment variable that sets the JIT CPU when ``jit_cpu`` is not given.
JIT_CPU_ENV = "GE_MLIR_JIT_CPU"


def _jit_cpu_name(jit_cpu: str | None) -> str:
    """``jit_cpu``, else ``GE_MLIR_JIT_CPU``, else ``host``; ExecutionError when unknown."""
    import os

    cpu = jit_cpu if jit_cpu is not None else (os.environ.get(JIT_CPU_ENV) or "host")
    if cpu not in JIT_CPUS:
        raise ExecutionError(f"unknown JIT CPU {cpu!r} (choose from {', '.join(JIT_CPUS)}; env {JIT_CPU_ENV})")
    return cpu


def _target_cpu(module: ir.Module, jit_cpu: str | None) -> str:
    """Stamps ``target_cpu``/``target_features`` on every LLVM function when a
    level other than ``host`` is asked for; returns the CPU used.

    LLVM picks each function's subtarget from these attributes, replacing the
    host CPU and feature string the ExecutionEngine was set up with, so an
    AVX-512 machine generates exactly the code (and the runtime calls) an
    AVX2-only one would.
    """
    import platform

    cpu = _jit_cpu_name(jit_cpu)
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


def async_runtime_library() -> str:
    """Path of the MLIR async runtime (``mlirAsyncRuntime*``) shipped with the MLIR Python package:
    threaded artefacts saved before the thread team (lib/Runtime/ParallelRuntime.cpp) call it."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("mlir")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = Path(root) / "lib" / "libmlir_async_runtime.so"
        if path.exists():
            return str(path)
    raise ExecutionError("this threaded artefact predates ge-mlir's thread team and needs the MLIR async runtime "
                         "(mlir/lib/libmlir_async_runtime.so), which this MLIR package does not ship; recompile the model")


_ASYNC_RUNTIME: list[Any] = []


def _load_async_runtime() -> None:
    """Loads the async runtime into the process once, for good (the JIT finds its symbols there).

    Not an engine's ``shared_libs``: the engine then calls the library's destroy hook when it is
    freed, which resets the one process-wide runtime under every other engine still running
    tasks on it (a garbage-collected threaded model crashed the next one)."""
    import os

    if not _ASYNC_RUNTIME:
        _ASYNC_RUNTIME.append(ctypes.CDLL(async_runtime_library(), mode=os.RTLD_GLOBAL))


#: compiler-rt names LLVM calls for float conversions a CPU has no instruction
#: for -> our implementations in the native library (lib/Runtime/CpuRuntime.cpp).
_RUNTIME_SYMBOLS = (
    "__truncsfbf2", "__truncdfbf2", "__truncsfhf2", "__truncdfhf2",
    "__extendhfsf2", "__extendhfdf2", "__extendbfsf2",
    # The OpenMP runtime ABI subset parallel regions call (lib/Runtime/ParallelRuntime.cpp).
    "__kmpc_fork_call", "__kmpc_push_num_threads", "__kmpc_global_thread_num", "__kmpc_barrier",
    "__kmpc_for_static_init_4", "__kmpc_for_static_init_4u", "__kmpc_for_static_init_8",
    "__kmpc_for_static_init_8u", "__kmpc_for_static_fini",
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
        profile: a profiling build: ``ge-instrument-ops`` times each ONNX node's
            ops in the compiled code; :attr:`profiler` (a
            :class:`~ge_mlir.target.cpu.profiling.CpuProfiler`, stamps off until
            switched on) owns the profile buffer passed on every call.
        num_threads: threads the compiled code runs on. Above 1, the column panels of
            large matmuls and convolutions run on the thread team of
            ``lib/Runtime/ParallelRuntime.cpp`` (the caller and one worker per further hardware
            thread); results are bitwise those of one thread (same reduction order).
        precise_math: f32 exp, tanh and erf call libm (correctly rounded or nearly) instead of
            ``ge-approximate-math``'s polynomials (at most 1, 2 and 8 ulp, vectorized).
        fuse_elementwise: ``ge-fuse-elementwise-generics`` in the linalg stage (elementwise
            chains as one generic); False keeps one generic per op.
        winograd: 3x3 stride-1 convolutions as Winograd F(2x2, 3x3) where the codegen strategy
            takes them; False keeps them direct.
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
        memory_strategy: str = "aggressive",
        profile: bool = False,
        num_threads: int = 1,
        precise_math: bool = False,
        fuse_elementwise: bool = True,
        winograd: bool = True,
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
            try:
                fn = pick_function(self._module, func_name)
            except LookupError as e:
                raise ExecutionError(str(e)) from None
            self.func_name = symbol_name(fn)
            ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
            self.inputs = [_spec(t, f"argument #{i}", self.func_name) for i, t in enumerate(ftype.inputs)]
            self.outputs = [_spec(t, f"result #{i}", self.func_name) for i, t in enumerate(ftype.results)]
            #: Run-time shapes: some input has a ``?`` dim (descriptors are built per call), some result
            #: has one (results come back as memrefs the function allocated).
            self.dynamic_inputs = any(spec.dynamic for spec in self.inputs)
            self.dynamic_results = any(spec.dynamic for spec in self.outputs)
            self._shape_checks: list[dict[str, Any]] = []
            self._dim_params = _dim_params(fn)
            if compile_to not in CPU_STAGES:
                raise ExecutionError(f"compile_to must be one of {', '.join(CPU_STAGES)}, got {compile_to!r}")
            self._engine = None
            #: Output index -> input index: results computed in place into a donated input's array.
            self._tied: dict[int, int] = {}
            self._workspace: list[np.ndarray] = []
            self._bounds_checks: list[dict[str, Any]] = []
            #: The memory plan of the function (``ge-plan-memory``), once the ``bufferized`` stage ran.
            self.memory_plan: dict[str, Any] | None = None
            #: The profile buffer and regions of a profiling build (``profile=True``), else None.
            self.profiler: Any = None
            self._profile_arg: tuple[Any, ...] | None = None
            # The JIT CPU is known before lowering: the codegen strategy sizes its kernels for it.
            cpu = _jit_cpu_name(jit_cpu)
            if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
                raise ExecutionError(f"num_threads must be a positive integer, got {num_threads!r}")
            self.num_threads = num_threads
            for stage in CPU_STAGES:
                lower_stage(self._module, stage, check_bounds=check_bounds, memory_strategy=memory_strategy,
                            profile=profile, cpu=cpu, threads=num_threads, precise_math=precise_math,
                            dynamic_results=self.dynamic_results, fuse_elementwise=fuse_elementwise,
                            winograd=winograd)
                if stage == "linalg":
                    from .lowering.shape_checks import read_shape_checks

                    self._bounds_checks = _bounds_checks(self._module, self.func_name)
                    self._shape_checks = read_shape_checks(pick_function(self._module, self.func_name))
                if stage == "bufferized":
                    self._tied = _tied_outputs(pick_function(self._module, self.func_name), len(self.inputs))
                    self._workspace = _workspace_arrays(self._module, self.func_name)
                    self.memory_plan = read_memory_plan(pick_function(self._module, self.func_name))
                    if profile:
                        self.profiler = _profiler(self._module, self.func_name)
                        desc = _descriptor(self.profiler.buffer)
                        holder = ctypes.pointer(desc)
                        self._profile_arg = (desc, holder, ctypes.cast(ctypes.pointer(holder), ctypes.c_void_p).value)
                if on_stage is not None:
                    on_stage(stage, self._module)
                if stage == compile_to:
                    break
            if compile_to != "llvm":
                return
            self.jit_cpu = _target_cpu(self._module, jit_cpu)
            try:
                # Position-independent code (same speed here): the object the engine keeps can be
                # linked into a shared library as it is (CompiledModel.save, target/cpu/artefact.py).
                self._engine = ExecutionEngine(self._module, opt_level=opt_level, enable_pic=True)
                _register_runtime(self._engine)
                # The packed entry point (void **args), looked up once: the
                # engine's invoke() looks it up and builds ctypes per call.
                with _CapturedStderr() as err:
                    addr = self._engine.raw_lookup("_mlir_ciface_" + self.func_name)
            except Exception as e:  # JIT/translation failures
                raise ExecutionError(f"cannot JIT-compile @{self.func_name}: {e}") from None
            jit_errors = err.read()  # also closes the capture file (an fd per compile otherwise, until GC)
            if not addr:
                raise ExecutionError(
                    f"cannot JIT-compile @{self.func_name} for CPU {self.jit_cpu!r}: entry point not found"
                    + _jit_errors(jit_errors)
                )
            self._packed_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(addr)

    @property
    def tied_outputs(self) -> dict[int, int]:
        """Output index -> input index of the results computed in place into a donated input's
        array (``ge-tie-donated-results``): calling overwrites that input."""
        return dict(self._tied)

    @classmethod
    def from_native(cls, library: Any, entry: str, func_name: str, inputs: list[TensorSpec],
                    outputs: list[TensorSpec], workspace: list[np.ndarray], bounds_checks: list[dict[str, Any]],
                    *, jit_cpu: str, memory_plan: dict[str, Any] | None = None) -> "CpuExecutable":
        """An executable around code compiled earlier: ``library`` (a ``ctypes.CDLL`` kept alive with
        the executable) exports the packed entry point ``entry``. No module, no pass, no JIT: a
        loaded artefact (:mod:`.artefact`). ``run`` behaves as for a JIT-compiled executable."""
        self = cls.__new__(cls)
        self._context = self._module = None
        self._engine = library
        self._packed_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(ctypes.cast(library[entry], ctypes.c_void_p).value)
        self.func_name, self.inputs, self.outputs = func_name, list(inputs), list(outputs)
        self._workspace, self._bounds_checks = list(workspace), list(bounds_checks)
        self.memory_plan, self.jit_cpu = memory_plan, jit_cpu
        self.profiler = self._profile_arg = None
        self.dynamic_inputs = any(spec.dynamic for spec in self.inputs)
        self.dynamic_results = any(spec.dynamic for spec in self.outputs)
        self._shape_checks = []
        self._dim_params = []
        self.num_threads = 1
        self._tied = {}
        return self

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
        if self.dynamic_inputs or self.dynamic_results:
            return self._run_dynamic(arrays)
        try:
            tied = self._tied
            outs = [arrays[tied[k]] if k in tied else np.empty(spec.shape, spec.dtype)
                    for k, spec in enumerate(self.outputs)]
        except MemoryError:
            total = sum(int(np.prod(s.shape, dtype=object)) * s.dtype.itemsize for s in self.outputs)
            raise ExecutionError(
                f"cannot allocate the outputs of @{self.func_name}: {total} bytes ({total / 2**30:.1f} GiB)"
            ) from None
        call = getattr(self, "_call", None)
        if call is None:
            import threading

            call = self._call = (*self._call_frame(arrays, outs), threading.Lock())
        descs, packed, flags, lock = call
        # One call at a time: the workspace and the reused descriptors are the executable's (the
        # native call releases the GIL, so two Python threads would otherwise share them).
        with lock:
            # Shapes are static: only the data pointers of this call's arrays change (the
            # workspace's, the flags' and the profile buffer's are set once): 15 -> 6 us a call.
            for d, a in zip(descs, (*arrays, *outs)):
                d.allocated = d.aligned = _data_pointer(a)
            for flag in flags:
                flag[()] = 0
            self._packed_fn(packed)
            counts = [int(flag) for flag in flags]
        if any(counts):  # formatted only for the error (0.5 us of a 9 us call otherwise)
            self._last_shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
            self._raise_on_checks(counts)
        return outs

    def _raise_on_checks(self, counts: list[int]) -> None:
        """ExecutionError for the first failed bounds check, or the failed shape check (the last count)."""
        if self._shape_checks and counts and counts[-1]:
            check = self._shape_checks[counts[-1] - 1]
            raise ExecutionError(
                f"{check['op']} at {check['loc']}: the run-time shapes do not fit ({check['what']} differ); "
                f"inputs: {self._last_shapes}", op=check["op"], node=check.get("node"))
        for count, check in zip(counts, self._bounds_checks):
            if count:
                raise ExecutionError(
                    f"{check['op']} at {check['loc']}: {count} run-time index value(s) out of range "
                    f"[-{check['axis_size']}, {check['axis_size']}) (disable with CompileOptions.check_bounds=False)",
                    op=check["op"], node=check.get("node"),
                )

    def _run_dynamic(self, arrays: list[np.ndarray]) -> list[np.ndarray]:
        """A call with run-time shapes: descriptors built for this call's arrays; results either
        caller-allocated (static result shapes) or returned by the function, copied and freed."""
        n_flags = len(self._bounds_checks) + (1 if self._shape_checks else 0)
        if self._dim_params:
            _check_dim_params(self._dim_params, arrays, self.func_name)
        self._last_shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
        lock = getattr(self, "_dyn_lock", None)
        if lock is None:
            import threading

            lock = self._dyn_lock = threading.Lock()
        in_descs = [_descriptor(a) for a in arrays]
        ws_descs = [_descriptor(a) for a in self._workspace]
        extra = [self._profile_arg[-1]] if self._profile_arg is not None else []
        if not self.dynamic_results:
            outs = [np.empty(spec.shape, spec.dtype) for spec in self.outputs]
            flags = [np.zeros((), np.int64) for _ in range(n_flags)]
            descs = [*in_descs, *(_descriptor(a) for a in (*outs, *flags)), *ws_descs]
            holders = [ctypes.pointer(d) for d in descs]
            packed = (ctypes.c_void_p * (len(holders) + len(extra)))(
                *[ctypes.cast(ctypes.pointer(h), ctypes.c_void_p) for h in holders], *extra)
            with lock:
                self._packed_fn(packed)
            self._raise_on_checks([int(f) for f in flags])
            return outs
        ranks = [len(spec.shape) for spec in self.outputs] + [0] * n_flags
        result_cls = _results_class(tuple(ranks))
        result = result_cls()
        res_ptr = ctypes.pointer(result)
        descs = [*in_descs, *ws_descs]
        holders = [ctypes.pointer(d) for d in descs]
        packed = (ctypes.c_void_p * (1 + len(holders) + len(extra)))(
            ctypes.cast(ctypes.pointer(res_ptr), ctypes.c_void_p),
            *[ctypes.cast(ctypes.pointer(h), ctypes.c_void_p) for h in holders], *extra)
        with lock:
            self._packed_fn(packed)
        returned = [getattr(result, f"r{i}") for i in range(len(ranks))]
        dtypes = [spec.dtype for spec in self.outputs] + [np.dtype(np.int64)] * n_flags
        # A buffer returned once becomes its numpy array's memory (freed with it: no copy of a
        # 100 MB logits tensor); one shared by several results, or a failed call's, is copied and freed.
        owners = [d.allocated for d in returned]
        try:
            counts = [int(_copy_out(d, dt)) for d, dt in zip(returned[len(self.outputs):], dtypes[len(self.outputs):])]
            self._raise_on_checks(counts)
        except BaseException:
            _free_results(returned)
            raise
        values, shared = [], [d for d in returned[len(self.outputs):]]
        for d, dt in zip(returned[: len(self.outputs)], dtypes):
            if d.allocated and owners.count(d.allocated) == 1:
                values.append(_adopt(d, dt))
            else:
                values.append(_copy_out(d, dt))
                shared.append(d)
        _free_results(shared)
        return values

    def _call_frame(self, arrays: list[np.ndarray], outs: list[np.ndarray]) -> tuple[list[Any], Any, list[np.ndarray]]:
        """(descriptors of the inputs and outputs, the packed argument array, the bounds-check flags),
        built on the first call and reused (the descriptors and flags are kept alive with it)."""
        flags = [np.zeros((), np.int64) for _ in range(len(self._bounds_checks) + bool(self._shape_checks))]
        all_arrays = [*arrays, *outs, *flags, *self._workspace]
        descs = [_descriptor(a) for a in all_arrays]
        profile_arg = self._profile_arg
        packed = (ctypes.c_void_p * (len(descs) + (profile_arg is not None)))()
        holders = [ctypes.pointer(d) for d in descs]
        for i, h in enumerate(holders):
            packed[i] = ctypes.cast(ctypes.pointer(h), ctypes.c_void_p)
        if profile_arg is not None:  # the profile buffer's descriptor, built once
            packed[len(descs)] = profile_arg[-1]
        packed._keep = (descs, holders)  # the packed pointers point into these
        return descs[: len(arrays) + len(outs)], packed, flags

    def __repr__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.outputs))
        return f"<CpuExecutable @{self.func_name}({ins}) -> ({outs})>"


def _tied_outputs(fn: Any, n_inputs: int) -> dict[int, int]:
    from .ge_tie_donated_results import TIED_ATTR

    if TIED_ATTR not in fn.attributes:
        return {}
    pairs = list(ir.DenseI64ArrayAttr(fn.attributes[TIED_ATTR]))
    return {out - n_inputs: inp for out, inp in zip(pairs[::2], pairs[1::2])}
