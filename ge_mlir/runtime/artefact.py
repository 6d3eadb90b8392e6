"""Offline artefacts: ``CompiledModel.save(path)`` writes a compiled model, ``ge_mlir.load(path)``
runs it again without compiling (GE's offline models; docs/artefacts.md).

An artefact (``.gem`` by convention) is a zip file:

* ``manifest.json``: ``format`` (``"ge-mlir-artefact"``), ``format_version`` (:data:`FORMAT_VERSION`;
  another version is refused), the ge-mlir version that wrote it, ``target``, ``compile_to``, the
  named ``inputs``/``outputs`` (shape, numpy ``dtype`` and MLIR ``element_type``), the
  ``memory_plan``, the original ``stage_times``, ``files`` (size and SHA-256 of each member),
  ``ir`` (the stages whose IR text is included) and the target's own section under its name
  (``cpu``: :mod:`ge_mlir.target.cpu.artefact`: entry point, workspace arena(s), bounds checks,
  machine and CPU features, how the library was linked);
* the target's native files (``cpu``: ``model.so``, stored uncompressed);
* optionally ``ir/<stage>.mlir``, the IR text of stages (``save(..., include_ir=True)``).

Reading (:func:`read`) checks the manifest and lets the target check the host and open its
files: no pass, no lowering, no JIT. Every problem with the file is an
:class:`~ge_mlir.errors.ArtefactError`. This module is the format only: which models may be
saved and the compiled model a read builds are :mod:`ge_mlir.runtime.model`'s
(``CompiledModel.save``, ``load``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import tempfile
import uuid
import zipfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..errors import ArtefactError
from ..irutils.types import NUMPY_DTYPES, TensorSpec, numpy_dtype
from ..target import get_target
from .stages import TARGET_STAGES, TARGETS

__all__ = ["FORMAT", "FORMAT_VERSION", "MANIFEST", "Artefact", "read", "read_manifest", "write"]

#: The manifest's ``format`` value.
FORMAT = "ge-mlir-artefact"
#: The layout this ge-mlir writes and reads; bumped whenever the manifest or the calling
#: convention of the native code (argument order, workspace, bounds flags) changes.
FORMAT_VERSION = 1
#: The manifest's name inside the zip.
MANIFEST = "manifest.json"

#: numpy dtype -> MLIR element type name (the first, signless, name of each dtype).
_ELEMENT_TYPES: dict[np.dtype, str] = {}
for _name, _dtype in NUMPY_DTYPES.items():
    _ELEMENT_TYPES.setdefault(np.dtype(_dtype), _name)


def _io(spec: Any) -> dict[str, Any]:
    return {"name": spec.name, "shape": list(spec.shape), "dtype": str(spec.dtype),
            "element_type": _ELEMENT_TYPES[np.dtype(spec.dtype)]}


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON-serializable")


def write(path: Path, *, target: str, compile_to: str, inputs: Sequence[Any], outputs: Sequence[Any],
          memory_plan: dict[str, Any] | None, stage_times: Mapping[str, float], executable: Any,
          ir: Mapping[str, str]) -> Path:
    """Writes an artefact to ``path`` (see the module doc): the target saves ``executable``'s native
    files, the manifest describes them; ``inputs``/``outputs`` are named specs (``name``, ``shape``,
    ``dtype``), ``ir`` the IR text of the stages to include. :meth:`CompiledModel.save` calls it."""
    native_target = get_target(target)
    with tempfile.TemporaryDirectory(prefix="ge-mlir-save-") as tmp:
        section = native_target.save_artefact(executable, Path(tmp))
        native = sorted(p for p in Path(tmp).iterdir() if p.is_file())
        files = {}
        for p in native:
            digest = hashlib.sha256()
            with open(p, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    digest.update(chunk)
            files[p.name] = {"bytes": p.stat().st_size, "sha256": digest.hexdigest()}
        manifest = {
            "format": FORMAT, "format_version": FORMAT_VERSION, "ge_mlir_version": __version__,
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "target": target, "compile_to": compile_to,
            "inputs": [_io(s) for s in inputs], "outputs": [_io(s) for s in outputs],
            "memory_plan": memory_plan, "stage_times": dict(stage_times),
            "files": files, "ir": {s: f"ir/{s}.mlir" for s in ir},
            target: section,
        }
        text = json.dumps(manifest, indent=1, default=_json_default)
        # Written beside the destination, then renamed: an interrupted save leaves no truncated artefact.
        # (A unique name opened the usual way, so the file gets the umask's permissions.)
        partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.partial")
        try:
            out = open(partial, "xb")
        except OSError as e:
            raise ArtefactError(f"cannot write the artefact {path}: {e.strerror or e}") from None
        try:
            with out, zipfile.ZipFile(out, "w") as zf:
                zf.writestr(MANIFEST, text, compress_type=zipfile.ZIP_DEFLATED)
                for p in native:
                    zf.write(p, p.name, compress_type=zipfile.ZIP_STORED)
                for s, stage_ir in ir.items():
                    zf.writestr(f"ir/{s}.mlir", stage_ir, compress_type=zipfile.ZIP_DEFLATED)
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    return path


def _open(path: Path) -> zipfile.ZipFile:
    if not path.is_file():
        raise ArtefactError(f"no such artefact: {path}")
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as e:
        raise ArtefactError(f"{path} is not a ge-mlir artefact (not a zip file, or truncated: {e})") from None
    except OSError as e:
        raise ArtefactError(f"cannot read the artefact {path}: {e.strerror or e}") from None


def _manifest(zf: zipfile.ZipFile, path: Path) -> dict[str, Any]:
    try:
        raw = zf.read(MANIFEST)
    except KeyError:
        raise ArtefactError(f"{path} is not a ge-mlir artefact (no {MANIFEST})") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as e:
        raise ArtefactError(f"artefact {path} is corrupt: {MANIFEST}: {e}") from None
    try:
        manifest = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ArtefactError(f"artefact {path} is corrupt: {MANIFEST} is not JSON ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArtefactError(f"{path} is not a ge-mlir artefact (its manifest's format is not {FORMAT!r})")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise ArtefactError(
            f"artefact {path} has format version {version!r} (written by ge-mlir "
            f"{manifest.get('ge_mlir_version', '?')}); this ge-mlir ({__version__}) reads version {FORMAT_VERSION}: "
            "save the model again with this version")
    return manifest


def read_manifest(path: str | Path) -> dict[str, Any]:
    """The manifest of the artefact at ``path`` (checked to be one, of this format version)."""
    path = Path(path)
    with _open(path) as zf:
        return _manifest(zf, path)


def _spec(entry: dict[str, Any]) -> tuple[str, TensorSpec]:
    dtype = numpy_dtype(entry["element_type"])
    if dtype is None:
        raise ValueError(f"unknown element type {entry['element_type']!r}")
    return str(entry["name"]), TensorSpec(tuple(None if d is None else int(d) for d in entry["shape"]), dtype)


@dataclass
class Artefact:
    """What :func:`read` found in an artefact: the compiled model's parts, its code ready to run."""

    target: str
    compile_to: str
    inputs: list[tuple[str, TensorSpec]]
    outputs: list[tuple[str, TensorSpec]]
    memory_plan: dict[str, Any] | None
    #: The IR text of the stages saved with it.
    ir: dict[str, str]
    #: Runs the native code on checked arrays (the target's ``TargetResult.run``).
    run: Callable[[list[np.ndarray]], list[np.ndarray]]
    executable: Any


def read(path: Path) -> Artefact:
    """The artefact at ``path``, its native code loaded by its target (:func:`ge_mlir.load` builds
    the compiled model from it).

    Raises :class:`~ge_mlir.errors.ArtefactError` (an ``ExecutionError``) when the file is not an
    artefact, is truncated or corrupt, has another format version, or was built for another
    architecture or for CPU features this host lacks (``.missing`` names them)."""
    what = f"artefact {path}"
    with _open(path) as zf:
        manifest = _manifest(zf, path)

        def member(name: str) -> bytes:
            try:
                return zf.read(name)
            except KeyError:
                raise ArtefactError(f"{what} is incomplete: it has no {name}") from None
            except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as e:
                raise ArtefactError(f"{what} is corrupt: {name}: {e}") from None

        try:
            target = manifest["target"]
            if target not in TARGETS:
                raise ArtefactError(f"{what} is for target {target!r}, which this ge-mlir does not know "
                                    f"(targets: {', '.join(TARGETS)})")
            compile_to = manifest["compile_to"]
            if compile_to not in TARGET_STAGES[target]:
                raise ValueError(f"unknown stage {compile_to!r}")
            inputs = [_spec(e) for e in manifest["inputs"]]
            outputs = [_spec(e) for e in manifest["outputs"]]
            section, files = manifest[target], manifest["files"]
            ir_files = dict(manifest.get("ir") or {})
            memory_plan = manifest.get("memory_plan")
            result = get_target(target).load_artefact(
                section, member, [s for _, s in inputs], [s for _, s in outputs], what=what, files=files,
                memory_plan=memory_plan)
            texts = {stage: member(name).decode() for stage, name in ir_files.items()}
        except ArtefactError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, UnicodeDecodeError) as e:
            raise ArtefactError(f"{what} is corrupt: its manifest is inconsistent ({type(e).__name__}: {e})") from None
    return Artefact(target=target, compile_to=compile_to, inputs=inputs, outputs=outputs, memory_plan=memory_plan,
                    ir=texts, run=result.run, executable=result.executable)
