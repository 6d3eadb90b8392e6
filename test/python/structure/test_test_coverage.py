"""Every ge op has a lit round-trip test and a --verify-diagnostics test."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "test" / "Dialect" / "ge"


def _mnemonics() -> set[str]:
    text = (ROOT / "dialects" / "GeOps.td").read_text()
    return set(re.findall(r'^def GE_\w+ : GE_\w+<"(\w+)"', text, re.M))


def _ops_used(paths) -> set[str]:
    used = set()
    for p in paths:
        for line in p.read_text().splitlines():
            if line.lstrip().startswith("//"):
                continue
            used |= set(re.findall(r'"?ge\.(\w+)"?[ (]', line))
    return used


def test_every_op_round_trips():
    missing = _mnemonics() - _ops_used(LIT.glob("ops-*.mlir"))
    assert not missing, f"ops without a round-trip test: {sorted(missing)}"


def _ops_with_expected_errors() -> set[str]:
    """Ops on the lines that `expected-error @+N` annotations point at."""
    ops = set()
    for path in LIT.glob("invalid-*.mlir"):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"expected-error\s*@\+(\d+)", line)
            if m:
                target = lines[i + int(m.group(1))]
                ops |= set(re.findall(r'"?ge\.(\w+)"?[ (]', target))
    return ops


def test_every_op_has_an_invalid_case():
    missing = _mnemonics() - _ops_with_expected_errors()
    assert not missing, f"ops without an invalid-form test: {sorted(missing)}"
    assert len(_mnemonics()) == 103


#: Passes whose lit tests are split by what they rewrite into one folder (one file per strategy,
#: named after the strategy): those files stand for test/**/<pass-name>*.mlir.
SPLIT_PASS_TESTS = {
    "ge-select-codegen-strategy": "Target/CPU/codegen",
    "ge-apply-codegen-strategy": "Target/CPU/codegen",
}


def _runs(text: str, name: str) -> bool:
    """Whether a RUN line of ``text`` runs pass ``name``."""
    return any(name in line for line in text.splitlines() if line.lstrip().startswith("// RUN:"))


def test_every_pass_has_a_lit_test():
    """One pass, one lit test: test/**/<pass-name>*.mlir runs it and asserts
    (FileCheck lines or --verify-diagnostics expectations); a pass of SPLIT_PASS_TESTS has its
    tests in that folder instead, every file of which runs it."""
    from ge_mlir.passes import list_passes

    tests = list((ROOT / "test").rglob("*.mlir"))
    missing = []
    for cls in list_passes():
        if cls.name.startswith("ge-test-"):
            continue
        files = [p for p in tests if p.name.startswith(cls.name)]
        if cls.name in SPLIT_PASS_TESTS:
            folder = ROOT / "test" / SPLIT_PASS_TESTS[cls.name]
            files = [p for p in folder.glob("*.mlir") if _runs(p.read_text(), cls.name)]
        texts = [p.read_text() for p in files]
        if not any(cls.name in t and ("CHECK" in t or "expected-" in t) for t in texts):
            missing.append(cls.name)
    assert not missing, f"passes without a lit test named after them: {missing}"


def test_split_pass_tests_run_their_pass():
    """Every file of a split pass test folder runs one of the passes it stands for."""
    for folder in set(SPLIT_PASS_TESTS.values()):
        names = [n for n, f in SPLIT_PASS_TESTS.items() if f == folder]
        files = sorted((ROOT / "test" / folder).glob("*.mlir"))
        assert files, folder
        for p in files:
            assert any(_runs(p.read_text(), n) for n in names), p
