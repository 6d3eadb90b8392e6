"""docs/GeDialect.md is generated from the TableGen sources and kept in sync."""

import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


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


def _layout_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## Layout\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def _checked_folders() -> set[str]:
    """Folders README's layout table must name: top level, and one or two levels into the
    package, the C++ sources and the tests (deeper folders belong to their parent's row)."""
    import subprocess

    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    folders = set()
    for f in files:
        parts = f.split("/")[:-1]
        if not parts or not (ROOT / f).exists():
            continue
        depth = {"ge_mlir": 2, "lib": 2, "include": 2, "test": 2}.get(parts[0], 1)
        if parts[:2] == ["ge_mlir", "target"]:
            depth = 4
        for d in range(1, min(depth, len(parts)) + 1):
            folders.add("/".join(parts[:d]) + "/")
    # Parents named through their children's rows.
    return folders - {"include/", "lib/", "test/"}


def test_readme_layout_names_every_folder_and_only_existing_ones():
    import re

    named = set(re.findall(r"`([\w./-]+/)`", _layout_section()))
    missing = sorted(_checked_folders() - named)
    assert not missing, f"folders missing from README's layout table: {missing}"
    stale = sorted(p for p in named if not (ROOT / p).is_dir())
    assert not stale, f"README's layout table names folders that do not exist: {stale}"
