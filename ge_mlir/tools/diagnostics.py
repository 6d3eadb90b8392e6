"""`--verify-diagnostics`: the `// expected-error {{...}}` convention of mlir-opt.

Supported forms (as upstream): ``expected-error``, ``expected-warning``,
``expected-note``, ``expected-remark``, each optionally ``-re`` (``{{regex}}``
segments inside the text), with ``@+N``, ``@-N``, ``@above``, ``@below`` or
``@unknown`` designators. Every expected diagnostic must be produced and every
produced diagnostic must be expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_EXPECT_RE = re.compile(
    r"expected-(error|warning|note|remark)(-re)?\s*(@([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}\s*$"
)


@dataclass
class Expected:
    kind: str
    line: int | None  # None: unknown location
    text: str
    regex: bool
    src_line: int
    matched: bool = False

    def matches(self, message: str) -> bool:
        if not self.regex:
            return self.text in message
        # `{{re}}` segments are regexes; the rest is literal text.
        pattern = ""
        for i, part in enumerate(re.split(r"\{\{|\}\}", self.text)):
            pattern += part if i % 2 else re.escape(part)
        return re.search(pattern, message) is not None


@dataclass
class Produced:
    kind: str
    line: int | None
    message: str
    col: int | None = None


def parse_expectations(text: str) -> tuple[list[Expected], list[str]]:
    expectations: list[Expected] = []
    errors: list[str] = []
    lines = text.splitlines()
    pending_below: list[Expected] = []
    for idx, line in enumerate(lines, start=1):
        code = line.split("//", 1)[0].strip()
        if pending_below and code:
            for e in pending_below:
                e.line = idx
            pending_below = []
        m = _EXPECT_RE.search(line)
        if not m:
            if "expected-" in line and "//" in line and re.search(r"expected-(error|warning|note|remark)", line):
                errors.append(f"{idx}: malformed expected-* directive: {line.strip()}")
            continue
        kind, is_re, _, designator, body = m.groups()
        target: int | None = idx
        exp = Expected(kind, target, body, bool(is_re), idx)
        if designator == "unknown":
            exp.line = None
        elif designator == "above":
            j = idx - 1
            while j > 0 and not lines[j - 1].split("//", 1)[0].strip():
                j -= 1
            exp.line = j
        elif designator == "below":
            pending_below.append(exp)
        elif designator:
            exp.line = idx + int(designator)
        expectations.append(exp)
    return expectations, errors


def check(expectations: list[Expected], produced: list[Produced], line_offset: int, filename: str) -> list[str]:
    """Matches produced diagnostics against expectations; returns failures."""
    failures: list[str] = []
    for diag in produced:
        for e in expectations:
            if not e.matched and e.kind == diag.kind and e.line == diag.line and e.matches(diag.message):
                e.matched = True
                break
        else:
            where = f"{filename}:{diag.line + line_offset}" if diag.line else f"{filename}:<unknown>"
            failures.append(f"{where}: unexpected {diag.kind}: {diag.message}")
    for e in expectations:
        if not e.matched:
            failures.append(
                f"{filename}:{e.src_line + line_offset}: expected {e.kind} \"{e.text}\" was not produced"
            )
    return failures
