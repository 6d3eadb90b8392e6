"""Build an emitted Ascend C project against the clean-room CPU shim and run it from Python.

    lib = build_shared_library("out/")            # out/build-shim/libgraph.so (+ the runner executable)
    run = ShimExecutable("out/")
    (z,) = run(x, y)                               # numpy in, numpy out (dtypes/shapes from graph.json)

Process model: the shim reports a broken rule (queue protocol, alignment, sync hazard, ...) by printing
one line and calling ``_Exit(86)``, which would take the Python process down with it. So by default the
graph runs in a child process: the project's generated ``runner.cpp`` (linked against ``libgraph.so``)
reads the inputs from raw files and writes the outputs. A non-zero exit becomes a :class:`ShimRunError`
(:class:`ShimCheckError` for the shim's exit code 86) carrying the shim's message. ``in_process=True``
calls ``ge_graph_run`` through ctypes instead: faster, but a shim check failure ends the process.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ...errors import GeMlirError

__all__ = [
    "SHIM_DIR",
    "SHIM_EXIT_CODE",
    "ShimBuildError",
    "ShimCheckError",
    "ShimExecutable",
    "ShimRunError",
    "build_shared_library",
]

SHIM_DIR = Path(__file__).resolve().parent / "shim"
SHIM_EXIT_CODE = 86
BUILD_DIR = "build-shim"


class ShimBuildError(GeMlirError):
    """The generated project does not compile (or link) against the CPU shim."""


class ShimRunError(GeMlirError):
    """Running the graph on the CPU shim failed; ``stderr`` and ``returncode`` say how."""

    def __init__(self, message: str, *, returncode: int, stderr: str) -> None:
        self.returncode = returncode
        self.stderr = stderr
        super().__init__(message)


class ShimCheckError(ShimRunError):
    """The shim stopped the graph on a broken Ascend C rule (exit code 86); the message is the shim's."""


def _compile(cmd: list[str], what: str) -> None:
    r = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if r.returncode != 0:
        raise ShimBuildError(f"{what} does not compile against the Ascend C shim:\n$ {' '.join(cmd)}\n"
                             f"{r.stdout}{r.stderr}".rstrip())


#: Precompiled shim headers kept (one per compiler, flags and shim version; 62 MB each with g++ 12).
PCH_KEEP = 4


def _precompiled_header(cxx: str, flags: list[str]) -> Path | None:
    """A directory holding ``kernel_operator.h.gch`` for these flags, or None.

    Parsing the shim's headers is most of a kernel's compile time (about 1.1 of 1.7 s with g++ -O1);
    g++ picks up ``kernel_operator.h.gch`` from the first include directory and skips the parse. The
    header is built once per compiler, flags and shim sources (hashed) under the compile cache's
    directory (``$GE_MLIR_CACHE_DIR``, else ``$XDG_CACHE_HOME/ge_mlir``, else ``~/.cache/ge_mlir``;
    subdirectory ``shim-pch/``), written atomically so that parallel builds
    share it; the :data:`PCH_KEEP` most recently used are kept. ``flags`` must not name the
    project's own directory: a header keyed by it was built again for every project (1125 of them,
    67 GB, filled a developer's disk). Other compilers, or a failure to build it, fall back to
    plain compiles (g++ also falls back by itself when a .gch does not match)."""
    import hashlib

    if "g++" not in Path(cxx).name:
        return None
    try:
        version = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return None
    h = hashlib.sha256("\0".join([version, *flags]).encode())
    for f in sorted((SHIM_DIR / "include").rglob("*.h")):
        h.update(f.relative_to(SHIM_DIR).as_posix().encode())
        h.update(f.read_bytes())
    # The compile cache's directory (ge_mlir.cache, a layer above the targets: not imported).
    base = os.environ.get("GE_MLIR_CACHE_DIR") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache",
                                                           "ge_mlir")
    d = Path(base) / "shim-pch" / h.hexdigest()[:20]
    gch = d / "kernel_operator.h.gch"
    if gch.is_file():
        try:
            os.utime(gch)  # most recently used: kept by the trim below
        except OSError:
            pass
        return d
    try:
        d.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=d) as tmp:
            src = Path(tmp) / "pch.h"
            src.write_text('#include "kernel_operator.h"\n')
            out = Path(tmp) / "kernel_operator.h.gch"
            r = subprocess.run([cxx, *flags, "-x", "c++-header", str(src), "-o", str(out)],
                               capture_output=True, text=True, check=False)
            if r.returncode != 0:
                return None
            os.replace(out, gch)
    except OSError:
        return None
    _trim_precompiled_headers(d.parent)
    return d


def _trim_precompiled_headers(root: Path) -> None:
    """Removes all but the :data:`PCH_KEEP` most recently used precompiled headers under ``root``."""
    found = []
    for gch in root.glob("*/kernel_operator.h.gch"):
        try:
            found.append((gch.stat().st_mtime, gch.parent))
        except OSError:
            continue
    for _, stale in sorted(found, reverse=True)[PCH_KEEP:]:
        shutil.rmtree(stale, ignore_errors=True)


def build_shared_library(project_dir: str | Path, *, cxx: str = "g++", opt: str = "-O1",
                         jobs: int = 2) -> Path:
    """Compiles the project's kernels and host code into ``<project>/build-shim/libgraph.so``.

    Also links ``build-shim/runner`` when the project has a host program. Kernels compile in parallel
    (at most ``jobs`` at a time). Raises :class:`ShimBuildError` with the compiler output on failure.
    """
    project = Path(project_dir).resolve()
    if shutil.which(cxx) is None:
        raise ShimBuildError(f"C++ compiler '{cxx}' not found")
    manifest = json.loads((project / "graph.json").read_text())
    kernels = [project / f"{k['name']}.cpp" for k in manifest["kernels"]]
    sources = kernels + ([project / "host.cpp"] if (project / "host.cpp").exists() else [])
    build = project / BUILD_DIR
    build.mkdir(exist_ok=True)
    common = ["-std=c++17", "-Wall", "-Werror", opt, "-fPIC", "-pthread", "-DASCENDC_CPU_DEBUG",
              f"-I{SHIM_DIR / 'include'}"]
    flags = [*common, f"-I{project}"]
    objects = [build / (src.stem + ".o") for src in sources]
    # The header only includes the shim's own headers: keyed without the project's directory.
    pch = _precompiled_header(cxx, common)
    kflags = ([f"-I{pch}"] if pch is not None else []) + flags
    with ThreadPoolExecutor(max_workers=max(1, min(jobs, 2))) as pool:
        futures = [pool.submit(_compile, [cxx, *kflags, "-c", str(src), "-o", str(obj)], src.name)
                   for src, obj in zip(sources, objects)]
        for f in futures:
            f.result()
    lib = build / "libgraph.so"
    _compile([cxx, "-shared", "-pthread", *map(str, objects), "-o", str(lib)], "libgraph.so")
    if (project / "runner.cpp").exists():
        _compile([cxx, *flags, str(project / "runner.cpp"), "-L", str(build), "-lgraph",
                  "-Wl,-rpath,$ORIGIN", "-o", str(build / "runner")], "runner.cpp")
    return lib


class ShimExecutable:
    """The graph of an emitted project, run on the CPU shim: ``outputs = exe(*inputs)``."""

    def __init__(self, project_dir: str | Path, *, build: bool | None = None, in_process: bool = False,
                 cxx: str = "g++", opt: str = "-O1", timeout: float = 120.0) -> None:
        self.project = Path(project_dir).resolve()
        self.manifest = json.loads((self.project / "graph.json").read_text())
        if "inputs" not in self.manifest:
            raise ShimRunError(f"{self.project} has no host program (no ascendc.host op)", returncode=-1,
                               stderr="")
        self.inputs = self.manifest["inputs"]
        self.outputs = self.manifest["outputs"]
        self.constants = self.project / self.manifest["constants"]
        self.timeout = timeout
        self.in_process = in_process
        lib = self.project / BUILD_DIR / "libgraph.so"
        if build or (build is None and not lib.exists()):
            lib = build_shared_library(self.project, cxx=cxx, opt=opt)
        self.library = lib
        self.runner = self.project / BUILD_DIR / "runner"
        self._dll: ctypes.CDLL | None = None

    def _check_inputs(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        if len(inputs) != len(self.inputs):
            raise ValueError(f"graph takes {len(self.inputs)} inputs, got {len(inputs)}")
        arrays = []
        for spec, x in zip(self.inputs, inputs):
            a = np.ascontiguousarray(np.asarray(x, dtype=spec["dtype"]))
            if a.nbytes != spec["bytes"] or list(a.shape) not in (spec["shape"], [int(np.prod(spec["shape"]))]):
                raise ValueError(f"input {spec['name']}: expected {spec['dtype']}{spec['shape']}, got "
                                 f"{a.dtype}{list(a.shape)}")
            arrays.append(a)
        return arrays

    def _empty_outputs(self) -> list[np.ndarray]:
        return [np.empty(spec["shape"], dtype=spec["dtype"]) for spec in self.outputs]

    def __call__(self, *inputs: np.ndarray) -> list[np.ndarray]:
        return self.run(self._check_inputs(inputs))

    def run(self, arrays: list[np.ndarray]) -> list[np.ndarray]:
        """Runs on arrays already checked against the graph's inputs (C-contiguous, exact dtype and shape)."""
        return self._run_in_process(arrays) if self.in_process else self._run_child(arrays)

    def _run_child(self, arrays: list[np.ndarray]) -> list[np.ndarray]:
        with tempfile.TemporaryDirectory(prefix="ge_shim_run_") as tmp:
            in_files = [Path(tmp) / f"in{i}.bin" for i in range(len(arrays))]
            for a, path in zip(arrays, in_files):
                a.tofile(path)
            out_files = [Path(tmp) / f"out{j}.bin" for j in range(len(self.outputs))]
            env = {k: v for k, v in os.environ.items() if not k.startswith("GE_ASCENDC_SHIM_")}
            # The shim checks capacities of the SoC the kernels were planned for.
            if str(self.manifest.get("soc", "")).startswith("Ascend310P"):
                env["GE_ASCENDC_SHIM_SOC"] = "Ascend310P"
            cmd = [str(self.runner), str(self.constants), *map(str, in_files), *map(str, out_files)]
            try:
                r = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=self.timeout, env=env)
            except subprocess.TimeoutExpired as e:
                # e.stderr is bytes even with text=True.
                stderr = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else e.stderr or ""
                raise ShimRunError(f"graph run timed out after {self.timeout} s", returncode=-1,
                                   stderr=stderr) from None
            if r.returncode == SHIM_EXIT_CODE:
                lines = [ln for ln in r.stderr.splitlines() if ln.startswith("ascendc-shim:")]
                raise ShimCheckError(lines[-1] if lines else r.stderr.strip(), returncode=r.returncode,
                                     stderr=r.stderr)
            if r.returncode != 0:
                raise ShimRunError(f"graph run failed with exit code {r.returncode}: {r.stderr.strip()}",
                                   returncode=r.returncode, stderr=r.stderr)
            outs = []
            for spec, path in zip(self.outputs, out_files):
                outs.append(np.fromfile(path, dtype=spec["dtype"]).reshape(spec["shape"]))
            return outs

    def _run_in_process(self, arrays: list[np.ndarray]) -> list[np.ndarray]:
        if self._dll is None:
            dll = ctypes.CDLL(str(self.library))
            dll.ge_graph_run.restype = ctypes.c_int
            dll.ge_graph_run.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
            dll.ge_graph_set_constants_path.argtypes = [ctypes.c_char_p]
            self._dll = dll
        self._dll.ge_graph_set_constants_path(str(self.constants).encode())
        outs = self._empty_outputs()
        ins = (ctypes.c_void_p * max(1, len(arrays)))(*[a.ctypes.data for a in arrays])
        ous = (ctypes.c_void_p * max(1, len(outs)))(*[o.ctypes.data for o in outs])
        rc = self._dll.ge_graph_run(ins, ous)
        if rc != 0:
            raise ShimRunError(f"ge_graph_run returned {rc}", returncode=rc, stderr="")
        return outs
