"""The installed CMake package lets another C++ MLIR tool link the ge dialect."""

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _pkg(module: str) -> Path:
    return Path(importlib.util.find_spec(module).origin).resolve().parent


@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")
def test_find_package_gemlir_and_link(tmp_path):
    mlir_pkg = _pkg("mlir._mlir_libs").parent
    llvm_pkg = _pkg("llvm")
    ge_pkg = _pkg("ge_mlir.dialects._ge_ops_gen").parent
    if not (mlir_pkg / "lib" / "cmake" / "mlir" / "MLIRConfig.cmake").exists():
        pytest.skip("xtc-mlir-dev (MLIR headers/CMake) not installed")
    cmake = shutil.which("cmake")
    assert cmake, "cmake is needed (it is a build requirement of ge-mlir)"
    build = tmp_path / "build"
    env = dict(os.environ)
    subprocess.run(
        [
            cmake, "-S", str(ROOT / "test" / "cmake-consumer"), "-B", str(build), "-G", "Ninja",
            f"-DMLIR_DIR={mlir_pkg / 'lib' / 'cmake' / 'mlir'}",
            f"-DLLVM_DIR={llvm_pkg / 'lib' / 'cmake' / 'llvm'}",
            f"-DGeMLIR_DIR={ge_pkg / 'lib' / 'cmake' / 'GeMLIR'}",
            "-DCMAKE_BUILD_TYPE=Release",
        ],
        check=True, capture_output=True, text=True, env=env,
    )
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True, text=True, env=env)
    out = subprocess.run([str(build / "ge-consumer")], check=True, capture_output=True, text=True).stdout
    assert "inferred: tensor<1x6x6x4xf32>" in out
    assert "activation: relu" in out
    assert "ge.transpose %0 {perm = array<i64: 0, 2, 3, 1>}" in out
