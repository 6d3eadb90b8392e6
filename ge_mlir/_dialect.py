"""Loading the native ge dialect library into the Python MLIR bindings.

The library (``libGeMLIRPython.so``) links the bindings' own
``libMLIRPythonCAPI.so`` so that one MLIR instance serves the process. It is
registered through the upstream C API (``mlirDialectHandleInsertDialect``) with
plain ctypes, which needs no C++ extension module and no RTTI.
"""

from __future__ import annotations

import ctypes
import importlib.util
from pathlib import Path

from mlir import _mlir_libs
from mlir import ir

from .errors import DialectLoadError

_LIB_NAME = "libGeMLIRPython.so"
#: Dialects the native library provides (ge, and the ascendc code-generation dialect).
_DIALECTS = ("ge", "ascendc")


class _Handle(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


_capsule_ptr = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_ptr.restype = ctypes.c_void_p
_capsule_ptr.argtypes = [ctypes.py_object, ctypes.c_char_p]

_state: dict[str, object] = {}


def library_path() -> Path:
    """Path of the native dialect library used by this process."""
    # The generated op module is installed next to the library (also in
    # editable installs, where ge_mlir itself maps to the source tree).
    spec = importlib.util.find_spec("ge_mlir.dialects._ge_ops_gen")
    if spec is None or spec.origin is None:
        raise DialectLoadError(
            "ge_mlir's native part is not built: run `pip install -e .` "
            "(see README.md)"
        )
    path = Path(spec.origin).resolve().parent.parent / "_mlir_libs" / _LIB_NAME
    if not path.exists():
        raise DialectLoadError(f"native ge dialect library not found at {path}")
    return path


def _load() -> tuple[ctypes.CDLL, ctypes.CDLL]:
    if "lib" not in _state:
        try:
            lib = ctypes.CDLL(str(library_path()))
            capi = ctypes.CDLL(str(Path(_mlir_libs.__file__).parent / "libMLIRPythonCAPI.so"))
        except OSError as e:  # missing libLLVM.so, ABI mismatch, ...
            raise DialectLoadError(f"cannot load the ge dialect library: {e}") from e
        for name in _DIALECTS:
            getter = getattr(lib, f"mlirGetDialectHandle__{name}__")
            getter.restype = _Handle
            getter.argtypes = []
        lib.geMlirVersion.restype = ctypes.c_char_p
        lib.geMlirContextSetPrintOpOnDiagnostic.argtypes = [_Handle, ctypes.c_bool]
        lib.geMlirContextSetPrintOpOnDiagnostic.restype = None
        capi.mlirDialectHandleInsertDialect.argtypes = [_Handle, _Handle]
        capi.mlirDialectHandleInsertDialect.restype = None
        capi.mlirDialectHandleLoadDialect.argtypes = [_Handle, _Handle]
        capi.mlirDialectHandleLoadDialect.restype = _Handle
        _state["lib"], _state["capi"] = lib, capi
    return _state["lib"], _state["capi"]  # type: ignore[return-value]


def register_dialect(registry: ir.DialectRegistry) -> None:
    """Insert the ge and ascendc dialects into an ``mlir.ir.DialectRegistry``."""
    lib, capi = _load()
    ptr = _capsule_ptr(registry._CAPIPtr, b"mlir.ir.DialectRegistry._CAPIPtr")
    for name in _DIALECTS:
        capi.mlirDialectHandleInsertDialect(getattr(lib, f"mlirGetDialectHandle__{name}__")(), _Handle(ptr))


def load_dialect(context: ir.Context) -> None:
    """Load the ge dialect into a context created before ``import ge_mlir``."""
    lib, capi = _load()
    ptr = _capsule_ptr(context._CAPIPtr, b"mlir.ir.Context._CAPIPtr")
    for name in _DIALECTS:
        capi.mlirDialectHandleLoadDialect(getattr(lib, f"mlirGetDialectHandle__{name}__")(), _Handle(ptr))


def set_print_op_on_diagnostic(context: ir.Context, enable: bool) -> None:
    """Whether diagnostics attach a 'see current operation' note (MLIR default: on)."""
    lib, _ = _load()
    ptr = _capsule_ptr(context._CAPIPtr, b"mlir.ir.Context._CAPIPtr")
    lib.geMlirContextSetPrintOpOnDiagnostic(_Handle(ptr), enable)


def native_version() -> str:
    """Version string of the loaded native library, e.g. ``0.1.0 (LLVM 22.1.8)``."""
    lib, _ = _load()
    return lib.geMlirVersion().decode()


def _install() -> None:
    """Once per process: global registry + load-on-create + Python op classes."""
    if _state.get("installed"):
        return
    register_dialect(_mlir_libs.get_dialect_registry())
    for name in _DIALECTS:
        _mlir_libs.append_load_on_create_dialect(name)
    _mlir_libs._mlir.globals.append_dialect_search_prefix("ge_mlir.dialects")
    _state["installed"] = True


_install()
