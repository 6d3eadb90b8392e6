"""What README.md and docs/ promise: the generated dialect doc is current, links resolve, the two
command blocks CI runs are extractable, the quick start comes first, no tracker history in the
user-facing docs, a LICENSE, and a layout table that names every folder."""

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
#: The user-facing documents: README, the guides and their index, the changelog.
LINKED_DOCS = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


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


def _relative_links(text: str) -> list[str]:
    """Targets of Markdown links and images that point into the repository (no URL, no bare anchor)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


@pytest.mark.parametrize("doc", LINKED_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve_to_existing_files(doc):
    broken = [t for t in _relative_links(doc.read_text()) if not (doc.parent / t.split("#")[0]).exists()]
    assert not broken, f"{doc.relative_to(ROOT)} links to files that do not exist: {broken}"


def test_readme_links_the_guides_license_and_changelog():
    links = {t.split("#")[0] for t in _relative_links(README.read_text())}
    assert {"docs/index.md", "LICENSE", "CHANGELOG.md", "docs/architecture.md"} <= links


def test_every_guide_is_in_the_index():
    index = (ROOT / "docs" / "index.md").read_text()
    listed = {t.split("#")[0] for t in _relative_links(index)}
    guides = {p.name for p in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert not guides - listed, f"docs/index.md does not list: {sorted(guides - listed)}"


def _ci_extract(marker: str) -> str:
    """The block .ci/run would run for ``marker``, extracted with .ci/run's own awk program."""
    ci = (ROOT / ".ci" / "run").read_text()
    program = re.search(r"""awk -v m="<!-- \$1 -->" '([^']+)' README\.md""", ci)
    assert program, ".ci/run no longer extracts the README commands with the awk this test mirrors"
    return subprocess.run(["awk", "-v", f"m=<!-- {marker} -->", program.group(1), str(README)],
                          check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("marker, needed", [
    ("main-command", ["pip install -q -r requirements-dev.txt", "-e .", "python examples/make_resnet_block.py",
                      "ge-compile examples/resnet_block.onnx", "--compare-onnxruntime"]),
    ("test-command", ["graphviz", "pip install -q -r requirements-dev.txt", "-e .", "lit -sv test",
                      "python -m pytest", "ge-fuzz"]),
])
def test_ci_command_blocks_are_extractable_and_well_formed(marker, needed):
    block = _ci_extract(marker)
    assert block.strip(), f"README has no ```sh block after <!-- {marker} -->"
    syntax = subprocess.run(["bash", "-n"], input=block, capture_output=True, text=True)
    assert syntax.returncode == 0, f"the {marker} block is not valid bash: {syntax.stderr}"
    missing = [n for n in needed if n not in block]
    assert not missing, f"the {marker} block no longer does {missing}"


def test_ci_stops_a_block_at_its_first_failing_line():
    # The blocks hold one command per line: without -e a failing install would go unnoticed.
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'bash -eo pipefail -c "$main_cmd"' in ci and 'bash -eo pipefail -c "$test_cmd"' in ci


def test_quick_start_comes_first():
    lines = README.read_text().splitlines()[:60]
    assert "## Quick start" in lines, "README's quick start must begin within its first 60 lines"
    assert "<!-- main-command -->" in lines, "the install block must begin within the first 60 lines"
    after_install = lines[lines.index("<!-- main-command -->") + 2:]
    assert "```" in after_install, "the install block must end within the first 60 lines"
    rest = after_install[after_install.index("```") + 1:]
    assert any("ge_mlir.compile(" in line for line in rest), "the Python example must follow within 60 lines"
    assert any(line.startswith("ge-compile ") for line in rest), "the ge-compile example must follow within 60 lines"


def test_no_issue_numbers_in_user_facing_docs():
    hits = [
        f"{doc.relative_to(ROOT)}:{n}: {line.strip()}"
        for doc in [README, *sorted((ROOT / "docs").glob("*.md"))]
        for n, line in enumerate(doc.read_text().splitlines(), 1)
        if re.search(r"\bissues?\s*(#|\d)", line, re.I)
    ]
    assert not hits, "history belongs in CHANGELOG.md, not in README/docs:\n" + "\n".join(hits)


def test_license_is_apache_2_with_llvm_exceptions():
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("Apache License") and "Version 2.0, January 2004" in text
    assert "---- LLVM Exceptions to the Apache 2.0 License ----" in text
    assert "LLVM Release License" not in text  # LLVM's legacy license is not ours


def _checked_folders() -> set[str]:
    """Folders the layout table must name: top level, and one or two levels into the
    package, the C++ sources and the tests (deeper folders belong to their parent's row)."""
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


def _layout_section() -> str | None:
    """The folder-by-folder table: docs/architecture.md's `Layout` section."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = re.search(r"^## Layout\b.*$", text, re.M)
    if not start:
        return None
    end = text.find("\n## ", start.end())
    return text[start.start():] if end < 0 else text[start.start():end]


def test_layout_names_every_folder_and_only_existing_ones():
    section = _layout_section()
    if section is None:
        pytest.skip("docs/architecture.md has no '## Layout' section yet")
    named = set(re.findall(r"`([\w./-]+/)`", section))
    missing = sorted(_checked_folders() - named)
    assert not missing, f"folders missing from docs/architecture.md's layout table: {missing}"
    stale = sorted(p for p in named if not (ROOT / p).is_dir())
    assert not stale, f"docs/architecture.md's layout table names folders that do not exist: {stale}"
