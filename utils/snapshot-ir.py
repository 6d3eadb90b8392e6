#!/usr/bin/env python3
"""Snapshots what the compiler produces, so a refactoring can prove it changed nothing.

    python utils/snapshot-ir.py models --onnx-dir DIR --out SNAP [--export]
    python utils/snapshot-ir.py lit --tests TESTDIR --out SNAP
    python utils/snapshot-ir.py diff SNAP_BEFORE SNAP_AFTER

``models``: every model of bench/models.py's ``speed_models()`` (exported once to ONNX with
``--export``, then read back from DIR so both runs see the same bytes) compiled for ``cpu`` with
the IR after every stage written out (``on_stage``), and for ``ascendc`` to ``source`` with every
file of the emitted project. ``lit``: every RUN line of every ``.mlir`` under TESTDIR run up to its
first ``FileCheck`` (stdout, stderr and exit code kept). Keep a copy of the old test tree and run
the new code on it: tests that move or split then still compare like for like.
``diff`` lists every entry that differs or exists on one side only; exit code 1 if any.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

def _write(out: Path, key: str, text: str | bytes) -> None:
    path = out / key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


def _stages(m) -> list[str]:
    """The stages whose IR the model kept (``stage_times`` also times steps such as the JIT)."""
    from ge_mlir.errors import CompileError

    kept = []
    for stage in m.stage_times:
        try:
            m.ir(stage)
            kept.append(stage)
        except CompileError:
            pass
    return kept


def models(onnx_dir: Path, out: Path, export: bool, only: list[str] | None) -> None:
    import ge_mlir

    onnx_dir.mkdir(parents=True, exist_ok=True)
    if export:
        # The bench of the tree whose ge_mlir is imported (a worktree's, when snapshotting one).
        sys.path.insert(0, str(Path(ge_mlir.__file__).resolve().parents[1] / "bench"))
        from models import speed_models  # noqa: E402

        from ge_mlir.frontend.torch import export_onnx

        for name, module, args, names in speed_models():
            (onnx_dir / f"{name}.onnx").write_bytes(export_onnx(module, args, input_names=names).SerializeToString())
    for path in sorted(onnx_dir.glob("*.onnx")):
        name = path.stem
        if only and name not in only:
            continue
        print(f"[cpu] {name}", flush=True)
        m = ge_mlir.compile(str(path), target="cpu", compile_to="llvm", cache=False)
        for stage in _stages(m):
            _write(out, f"cpu/{name}/{stage}.mlir", m.ir(stage))
        print(f"[ascendc] {name}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            m = ge_mlir.compile(str(path), target="ascendc", compile_to="source", cache=False, output_dir=tmp)
            for stage in _stages(m):
                _write(out, f"ascendc/{name}/{stage}.mlir", m.ir(stage))
            for f in sorted(Path(tmp).rglob("*")):
                if f.is_file():
                    _write(out, f"ascendc/{name}/project/{f.relative_to(tmp)}", f.read_bytes())


def _run_lines(path: Path) -> list[str]:
    lines, current = [], ""
    for line in path.read_text().splitlines():
        m = re.match(r"^\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1)
        if part.rstrip().endswith("\\"):
            current += part.rstrip()[:-1] + " "
            continue
        lines.append(current + part)
        current = ""
    return lines


def lit(tests: Path, out: Path) -> None:
    import importlib.util

    def pkg(mod: str) -> Path:
        return Path(importlib.util.find_spec(mod).origin).resolve().parent

    env = dict(os.environ, GE_MLIR_CACHE="0")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), str(pkg("llvm") / "bin"),
                                   str(pkg("mlir._mlir_libs").parent / "bin"), env["PATH"]])
    plugin = pkg("ge_mlir.dialects._ge_ops_gen").parent / "lib" / "libGeMLIR.so"
    files = sorted(p for p in tests.rglob("*.mlir") if "Output" not in p.parts and "Inputs" not in p.parts)
    for n, path in enumerate(files):
        rel = path.relative_to(tests)
        print(f"[lit {n + 1}/{len(files)}] {rel}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            for i, run in enumerate(_run_lines(path)):
                cmd = re.split(r"\|\s*(?:not\s+)?FileCheck\b", run)[0]
                for a, b in (("%ge_plugin", str(plugin)), ("%python", sys.executable), ("%s", str(path)),
                             ("%S", str(path.parent)), ("%t", f"{tmp}/t"), ("%p", str(path.parent))):
                    cmd = cmd.replace(a, b)
                r = subprocess.run(["bash", "-c", cmd], capture_output=True, env=env, cwd=tmp, timeout=600)
                text = (f"$ {run}\nrc={r.returncode}\n--- stdout\n".encode() + r.stdout.replace(tmp.encode(), b"<tmp>")
                        + b"\n--- stderr\n" + r.stderr.replace(tmp.encode(), b"<tmp>"))
                _write(out, f"lit/{rel}/run{i}.txt", text)


def _normalized(key: str, data: bytes) -> bytes:
    """A lit RUN line's output without what varies from run to run: timings, and the checkout
    the package was imported from (warnings name their source file)."""
    if not key.startswith("lit/"):
        return data
    text = data.decode(errors="replace")
    text = re.sub(r"(/[\w.+-]+)+/(ge_mlir|test)/", r"<root>/\2/", text)
    text = re.sub(r"\d+\.\d+( ?)(s|ms|us|seconds)\b", r"<t>\1\2", text)
    text = re.sub(r"\(\s*\d+\.\d+%\)", "(<p>%)", text)
    # The compile cache's keys hash the package's own sources, so any code change moves them.
    text = re.sub(r"\b[0-9a-f]{40}\b", "<key>", text)
    timed = re.compile(r"compiled .* in <t>|throughput|profiled|stamps|peak RSS|Execution Time|estimated in|\(<p>%\)|│.*%")
    text = "\n".join(re.sub(r"-?\d+(\.\d+)?", "<n>", line) if timed.search(line) else line
                     for line in text.split("\n"))
    text = re.sub(r"<n> (B|KiB|MiB) above", "<n> <u> above", text)
    return text.encode()


def diff(a: Path, b: Path) -> int:
    def listing(root: Path) -> dict[str, str]:
        out = {}
        for p in root.rglob("*"):
            if p.is_file():
                key = str(p.relative_to(root))
                out[key] = hashlib.sha256(_normalized(key, p.read_bytes())).hexdigest()
        return out

    la, lb = listing(a), listing(b)
    bad = 0
    for key in sorted(set(la) | set(lb)):
        if key not in la or key not in lb:
            print(f"only in {'before' if key in la else 'after'}: {key}")
            bad += 1
        elif la[key] != lb[key]:
            print(f"differs: {key}")
            bad += 1
    print(f"{len(set(la) | set(lb))} entries, {bad} differ")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("models")
    m.add_argument("--onnx-dir", type=Path, required=True)
    m.add_argument("--out", type=Path, required=True)
    m.add_argument("--export", action="store_true")
    m.add_argument("--only", default=None)
    t = sub.add_parser("lit")
    t.add_argument("--tests", type=Path, required=True)
    t.add_argument("--out", type=Path, required=True)
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "models":
        models(args.onnx_dir, args.out, args.export, args.only.split(",") if args.only else None)
    elif args.cmd == "lit":
        lit(args.tests, args.out)
    else:
        return diff(args.before, args.after)
    return 0


if __name__ == "__main__":
    sys.exit(main())
