#!/usr/bin/env python3
"""Annotate a .mlir round-trip test with FileCheck lines from ge-opt's output.

Like upstream mlir/utils/generate-test-checks.py: the author writes the input,
checks that ge-opt's output is right, and this script turns that output into
CHECK-LABEL / CHECK-NEXT lines with captured SSA names. Review the result.

    utils/generate-test-checks.py input.mlir --run "ge-opt %s" > test.mlir
"""

import argparse
import re
import subprocess
import sys

SSA = re.compile(r"%([A-Za-z_0-9]+)")
CAPTURE = "[^ ,:)]+"


def var_name(ssa: str) -> str:
    name = ssa.upper()
    return name if not name[0].isdigit() else "V" + name


def check_line(line: str, defined: set[str]) -> str:
    out, pos = [], 0
    for m in SSA.finditer(line):
        out.append(line[pos : m.start()].replace("[[", "{{\\[\\[}}"))
        name = var_name(m.group(1))
        if name in defined:
            out.append(f"%[[{name}]]")
        else:
            defined.add(name)
            out.append(f"%[[{name}:{CAPTURE}]]")
        pos = m.end()
    out.append(line[pos:])
    return "".join(out).rstrip()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("--run", default="ge-opt %s", help="command whose stdout is checked")
    ap.add_argument("--run-lines", nargs="*", default=None, help="RUN lines (default: the --run command)")
    args = ap.parse_args()
    src = open(args.input).read()
    out = subprocess.run(args.run.replace("%s", args.input), shell=True, check=True, capture_output=True, text=True).stdout
    # Printed functions by name.
    printed: dict[str, list[str]] = {}
    cur = None
    tail: list[str] = []
    for line in out.splitlines():
        s = line.strip()
        m = re.match(r"func\.func (?:private )?@([\w.$]+)", s)
        if m:
            cur = m.group(1)
            printed[cur] = [s]
        elif cur and s == "}" and line.startswith("  }"):
            printed[cur].append(s)
            cur = None
        elif cur:
            printed[cur].append(s)
        elif s.startswith("{-#") or tail:
            tail.append(s)
    runs = args.run_lines or ["ge-opt %s | FileCheck %s"]
    result = [f"// RUN: {r}" for r in runs] + [""]
    body_lines = src.splitlines()
    i = 0
    while i < len(body_lines):
        line = body_lines[i]
        m = re.match(r"func\.func (?:private )?@([\w.$]+)", line.strip())
        if m and m.group(1) in printed:
            defined: set[str] = set()
            lines = printed[m.group(1)]
            # CHECK-LABEL may not define variables: label on the name, captures in CHECK-SAME.
            head, _, rest = lines[0].partition("(")
            result.append(f"// CHECK-LABEL: {head}(")
            result.append(f"// CHECK-SAME: {check_line(rest, defined)}")
            for pl in lines[1:-1]:
                result.append(f"// CHECK-NEXT: {check_line(pl, defined)}")
            result.append("// CHECK-NEXT: }")
        elif line.strip().startswith("{-#") and tail:
            for t in tail:
                result.append(f"// CHECK{'-NEXT' if t != tail[0] else ''}: {t}" if t else "")
        result.append(line)
        i += 1
    sys.stdout.write("\n".join(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
