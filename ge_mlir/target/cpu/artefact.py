"""The CPU target's offline artefact: the JIT's object code, linked into a shared library.

Saving (:func:`save_native`, from ``CompiledModel.save``): the ExecutionEngine of a compiled
model keeps the object file it generated (position-independent: the runner creates every engine
with ``enable_pic``). It is dumped as it is (the code the in-memory model runs, weights in
``.rodata``) and linked by the system C compiler into ``model.so``:

* ``-lm`` and libc resolve what the code calls (``memset``, ``tanhf``, ``erff``, ...);
* the float-conversion helpers LLVM calls on CPUs without an instruction (``__truncsfbf2``, ...;
  ``runner._RUNTIME_SYMBOLS``) are renamed (``objcopy --redefine-sym``) to the dialect library's
  ``ge_rt_*`` implementations, and the library is then linked against ``libGeMLIRPython.so`` by
  its SONAME, which ``import ge_mlir`` has already loaded when an artefact is loaded; only then;
* ``-Wl,--no-undefined``: any other symbol fails the save, named, instead of the load.

Loading (:func:`load_native`, from ``ge_mlir.load``) needs no compiler, no MLIR pass and no JIT:
the host is checked first (architecture; every CPU feature the code may use, from LLVM's host
feature string: a missing one is an :class:`~ge_mlir.errors.ArtefactError` naming it, never a
SIGILL later), then the library is written to a memfd and ``dlopen``'ed from
``/proc/self/fd/N`` (a private temporary file where memfds cannot be mapped executable), and
its packed entry point is wrapped by :meth:`CpuExecutable.from_native` with the workspace
allocated from the manifest.

The CPU features an artefact needs: with the JIT CPU ``host`` (the default) every feature LLVM
detected on the saving machine (``+avx512f``, ...), so it loads on that CPU model or a superset;
with ``GE_MLIR_JIT_CPU=x86-64-v3`` (``-v2``, ``-v4``, ``x86-64``) only that level's features, so
it loads on any CPU of the level.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...errors import ArtefactError, ExecutionError
from ...irutils.types import TensorSpec

__all__ = ["LEVEL_FEATURES", "host_cpu", "load_native", "missing_features", "save_native"]

#: The library's name inside the artefact.
LIBRARY = "model.so"

#: LLVM features of the x86-64 micro-architecture levels (each includes the ones before),
#: the JIT CPUs ``runner.JIT_CPUS`` other than ``host``.
_V1 = ("64bit", "cmov", "cx8", "fxsr", "mmx", "sse", "sse2")
_V2 = _V1 + ("cx16", "crc32", "popcnt", "sahf", "sse3", "ssse3", "sse4.1", "sse4.2")
_V3 = _V2 + ("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave")
_V4 = _V3 + ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")
LEVEL_FEATURES: dict[str, tuple[str, ...]] = {"x86-64": _V1, "x86-64-v2": _V2, "x86-64-v3": _V3, "x86-64-v4": _V4}


def _llvm() -> ctypes.CDLL:
    """The process's libLLVM (loaded by the MLIR bindings; opened without loading a second copy)."""
    import mlir.ir  # noqa: F401  (loads libLLVM.so)

    try:
        return ctypes.CDLL("libLLVM.so", mode=os.RTLD_NOLOAD)
    except OSError:
        import importlib.util

        spec = importlib.util.find_spec("llvm")
        for root in (spec.submodule_search_locations or []) if spec else []:
            path = Path(root) / "lib" / "libLLVM.so"
            if path.exists():
                return ctypes.CDLL(str(path))
    raise ArtefactError("cannot open the process's libLLVM.so to read the host CPU's features")


def _llvm_string(fn_name: str) -> str:
    llvm = _llvm()
    fn = getattr(llvm, fn_name)
    fn.restype = ctypes.c_void_p
    ptr = fn()
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        llvm.LLVMDisposeMessage(ctypes.c_void_p(ptr))


def host_cpu() -> dict[str, Any]:
    """This host as LLVM sees it: ``machine``, ``system``, ``triple``, ``cpu`` (LLVM's name, e.g.
    ``znver4``) and ``features`` (every feature LLVM detected, sorted, without the ``+``)."""
    features = _llvm_string("LLVMGetHostCPUFeatures")
    return {
        "machine": platform.machine(), "system": platform.system(),
        "triple": _llvm_string("LLVMGetDefaultTargetTriple"), "cpu": _llvm_string("LLVMGetHostCPUName"),
        "features": sorted(f[1:] for f in features.split(",") if f.startswith("+")),
    }


def missing_features(required: list[str], host: dict[str, Any] | None = None) -> list[str]:
    """The features of ``required`` this host (``host_cpu()``) lacks, in order."""
    have = set((host or host_cpu())["features"])
    return [f for f in required if f not in have]


def _undefined_symbols(obj: bytes) -> set[str]:
    """Names of the undefined symbols of an ELF64 little-endian relocatable object."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        raise ArtefactError("the JIT's object file is not ELF64 little-endian; cannot save an artefact on this host")
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    names = set()
    for _name, sh_type, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if sh_type != 2:  # SHT_SYMTAB
            continue
        str_off = sections[link][4]
        for pos in range(offset, offset + size, entsize or 24):
            st_name, _st_info, _st_other, st_shndx = struct.unpack_from("<IBBH", obj, pos)
            if st_shndx == 0 and st_name:
                end = obj.index(b"\0", str_off + st_name)
                names.add(obj[str_off + st_name:end].decode())
    return names


def _tool(names: tuple[str, ...], env: str | None = None) -> str | None:
    if env and os.environ.get(env):
        return os.environ[env]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        detail = (proc.stderr or proc.stdout).strip()
        raise ArtefactError(f"cannot save the artefact: {what} failed ({' '.join(cmd)}):\n  "
                            + detail.replace("\n", "\n  "))


def save_native(exe: Any, directory: Path) -> dict[str, Any]:
    """Writes ``model.so`` of a JIT-compiled :class:`CpuExecutable` into ``directory``; returns the
    target's manifest section (entry point, workspace, bounds checks, CPU, how it was linked)."""
    from ..._dialect import library_path
    from .runner import _RUNTIME_SYMBOLS

    if getattr(exe, "_engine", None) is None or getattr(exe, "_module", None) is None:
        raise ArtefactError("only a model compiled by this process (ge_mlir.compile to stage 'llvm') can be saved")
    if exe.profiler is not None:
        raise ArtefactError("a profiling build (CompileOptions.profile) cannot be saved: compile without profile")
    cc = _tool(("cc", "gcc", "clang"), "CC")
    if cc is None:
        raise ArtefactError("cannot save the artefact: linking the object code into a shared library needs a C "
                            "compiler (cc, gcc or clang on PATH, or CC=...); none found. Loading needs none.")
    obj = directory / "model.o"
    try:
        exe._engine.dump_to_object_file(str(obj))
    except Exception as e:  # the engine keeps no object (created without object dump)
        raise ArtefactError(f"the JIT has no object code of @{exe.func_name} to save: {e}") from None
    if not obj.exists() or obj.stat().st_size == 0:
        raise ArtefactError(f"the JIT has no object code of @{exe.func_name} to save")
    helpers = sorted(_undefined_symbols(obj.read_bytes()) & set(_RUNTIME_SYMBOLS))
    link = []
    if helpers:
        objcopy = _tool(("objcopy", "llvm-objcopy"), "OBJCOPY")
        if objcopy is None:
            raise ArtefactError(f"cannot save the artefact: the code calls {', '.join(helpers)}, renamed with objcopy, "
                                "which is not on PATH (binutils)")
        _run([objcopy, *[f"--redefine-sym={h}=ge_rt{h[1:]}" for h in helpers], str(obj)], "objcopy")
        link = [str(library_path()), "-Wl,--allow-shlib-undefined"]
    threads = getattr(exe, "num_threads", 1)
    lib = directory / LIBRARY
    _run([cc, "-shared", "-o", str(lib), str(obj), *link, "-lm", "-Wl,--no-undefined", "-Wl,-z,noexecstack"],
         "linking the shared library")
    obj.unlink()
    jit_cpu = getattr(exe, "jit_cpu", "host")
    host = host_cpu()
    features = sorted(host["features"]) if jit_cpu == "host" else list(LEVEL_FEATURES[jit_cpu])
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()
    return {
        "function": exe.func_name,
        "entry": "_mlir__mlir_ciface_" + exe.func_name,
        "library": LIBRARY,
        "machine": host["machine"], "system": host["system"], "triple": host["triple"],
        "jit_cpu": jit_cpu, "cpu": host["cpu"] if jit_cpu == "host" else jit_cpu,
        "features": features,
        "workspace": [{"shape": list(a.shape), "element_bytes": a.dtype.itemsize} for a in exe._workspace],
        "bounds_checks": list(exe._bounds_checks),
        # Run-time shapes: the shape-check result and the dim_param names the caller checks.
        "shape_checks": list(exe._shape_checks),
        "dim_params": [list(p) for p in exe._dim_params],
        "runtime_helpers": helpers,
        "num_threads": threads,
        "linker": {"cc": os.path.basename(cc), "version": version[0] if version else "",
                   "libraries": ["libm", "libc"] + (["libGeMLIRPython.so"] if helpers else [])},
    }


def check_host(section: dict[str, Any], what: str) -> None:
    """Refuses an artefact this host cannot run: another architecture or OS, or missing CPU features."""
    host = host_cpu()
    if section["machine"] != host["machine"] or section["system"] != host["system"]:
        raise ArtefactError(f"{what} was built for {section['system']} {section['machine']} ({section['triple']}); "
                            f"this host is {host['system']} {host['machine']}")
    missing = missing_features(section["features"], host)
    if missing:
        raise ArtefactError(
            f"{what} was compiled for CPU {section['cpu']!r} and uses CPU features this host ({host['cpu']}) lacks: "
            f"{', '.join(missing)}; recompile it here, or save it with GE_MLIR_JIT_CPU=x86-64-v3 "
            "(or another level this host has) for a portable artefact", missing=missing)


#: memfds of loaded libraries, never closed: a closed number could be reused by the next load,
#: whose /proc/self/fd/N path dlopen would then match to the earlier library.
_MEMFDS: list[int] = []


def _dlopen(data: bytes, label: str) -> ctypes.CDLL:
    errors = []
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create(f"ge-mlir-{label}")
        try:
            with os.fdopen(fd, "wb", closefd=False) as f:
                f.write(data)
            lib = ctypes.CDLL(f"/proc/self/fd/{fd}")
            _MEMFDS.append(fd)
            return lib
        except OSError as e:
            os.close(fd)
            errors.append(str(e))
    tmp = tempfile.mkdtemp(prefix="ge-mlir-artefact-")
    path = Path(tmp) / LIBRARY
    try:
        path.write_bytes(data)
        return ctypes.CDLL(str(path))  # stays mapped after the file is gone
    except OSError as e:
        errors.append(str(e))
        raise ArtefactError(f"cannot load the native code of {label}: " + "; ".join(dict.fromkeys(errors))) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def load_native(section: dict[str, Any], read: Callable[[str], bytes], inputs: list[TensorSpec],
                outputs: list[TensorSpec], *, what: str, sha256: str | None = None,
                memory_plan: dict[str, Any] | None = None) -> Any:
    """The :class:`CpuExecutable` of a saved artefact's CPU section (``read(name)``: a file of the
    artefact, ``what``: how errors name it). Raises :class:`ArtefactError`."""
    from .runner import CpuExecutable, allocate_workspace

    check_host(section, what)
    data = read(section["library"])
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise ArtefactError(f"{what} is corrupt: {section['library']} does not match its checksum")
    workspace_specs = [(tuple(int(d) for d in w["shape"]), int(w["element_bytes"])) for w in section["workspace"]]
    bounds = [dict(b) for b in section["bounds_checks"]]
    threads = int(section.get("num_threads", 1))
    # Threaded artefacts saved before the thread team (lib/Runtime/ParallelRuntime.cpp) call the
    # MLIR async runtime; the library names it.
    if "libmlir_async_runtime.so" in section.get("linker", {}).get("libraries", []):
        from .runner import _load_async_runtime

        try:
            _load_async_runtime()
        except (OSError, ExecutionError) as e:
            raise ArtefactError(f"{what} runs on {threads} threads and needs the MLIR async runtime: {e}") from None
    lib = _dlopen(data, Path(what).name)
    try:
        lib[section["entry"]]
    except AttributeError:
        raise ArtefactError(f"{what} is corrupt: its library has no entry point {section['entry']}") from None
    workspace = allocate_workspace(section["function"], workspace_specs)
    exe = CpuExecutable.from_native(lib, section["entry"], section["function"], inputs, outputs, workspace, bounds,
                                    jit_cpu=section["jit_cpu"], memory_plan=memory_plan)
    exe.num_threads = threads
    exe._shape_checks = [dict(c) for c in section.get("shape_checks", [])]
    exe._dim_params = [tuple(p) for p in section.get("dim_params", [])]
    return exe
