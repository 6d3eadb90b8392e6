"""docs/GeDialect.md is generated from the TableGen sources and kept in sync."""

import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_dialect_doc_is_up_to_date():
    mlir_pkg = Path(importlib.util.find_spec("mlir._mlir_libs").origin).parent.parent
    out = subprocess.run(
        [
            str(mlir_pkg / "bin" / "mlir-tblgen"),
            "-gen-dialect-doc",
            "-dialect=ge",
            "-I", str(ROOT / "dialects"),
            "-I", str(mlir_pkg / "include"),
            str(ROOT / "dialects" / "GeOps.td"),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    committed = (ROOT / "docs" / "GeDialect.md").read_text()
    assert out == committed, (
        "docs/GeDialect.md is stale: run `cmake --build build/<tag> --target ge-mlir-docs` "
        "(or `pip install -e .` then copy build/*/docs/GeDialect.md)"
    )
    assert "### `ge.conv2d`" in committed and "### `ge.trans_data`" in committed
