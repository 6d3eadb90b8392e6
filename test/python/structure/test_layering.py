"""The package's layers: every import points down (or sideways within a layer), no package cycle,
and tools that only parse IR and run passes do not load the rest of the compiler.

Imports are read from the source (``ast``), function-level imports included: a lazy import is
still a dependency. Loading by name (``importlib.import_module("...")``: the pass registry, the
target registry, ``ge_mlir.__getattr__``) is how a lower layer names an upper one without
depending on it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "ge_mlir"

#: Bottom to top. A module may import from its own layer or any layer below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("_version", "errors", "options", "_log", "_format"),
    ("_dialect", "ir", "irutils"),
    ("dialects",),
    ("passes", "api", "config_base", "config_ge", "config"),
    ("frontend", "memory", "target", "graph"),
    ("optimize", "partition"),
    ("compiler", "artefact", "cache", "onnx_backend", "profiler", "scheduler"),
    ("fuzz", "tools", "parallel", "run", "__init__"),
)
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[str, int]]:
    """(absolute ge_mlir module imported, line) for every import statement of ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "ge_mlir"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "ge_mlir":
                continue
            # `from pkg import mod` imports the submodule when mod is one.
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                is_mod = (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists() or \
                    (PACKAGE.parent / Path(*sub.split("."))).is_dir()
                out.append((sub if is_mod else target, node.lineno))
    return out


def _component(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _unit(module: str) -> str:
    """The package a module belongs to for the cycle check (targets count one by one)."""
    parts = module.split(".")[1:] or ["__init__"]
    if parts[0] == "target" and len(parts) > 1 and (PACKAGE / "target" / parts[1]).is_dir():
        return f"target.{parts[1]}"
    return parts[0]


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_component_has_a_layer():
    components = {_component(_module_name(p)) for p in SOURCES}
    assert components - set(LAYER_OF) == set()


def test_no_upward_import():
    upward = []
    for path in SOURCES:
        src = _module_name(path)
        for target, line in _imports(path):
            a, b = _component(src), _component(target)
            if LAYER_OF[b] > LAYER_OF[a]:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {a} (layer {LAYER_OF[a]}) imports "
                              f"{target} ({b}, layer {LAYER_OF[b]})")
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_no_package_cycle():
    graph: dict[str, set[str]] = {}
    for path in SOURCES:
        a = _unit(_module_name(path))
        for target, _ in _imports(path):
            b = _unit(target)
            if a != b and b != "__init__":
                graph.setdefault(a, set()).add(b)
    # Tarjan-free: a cycle exists iff some node reaches itself.
    cycles = []
    for start in graph:
        seen, stack = set(), [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    cycles.append(" -> ".join(trail + [start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    assert not cycles, "package cycles:\n" + "\n".join(sorted(set(cycles)))


def test_a_lower_layer_importing_an_upper_one_is_caught(tmp_path):
    # The checker itself: an optimize -> compiler import must show up as upward.
    fake = PACKAGE / "optimize" / "_layering_probe.py"
    assert not fake.exists()
    try:
        fake.write_text("from ..compiler import compile\n")
        assert any(t == "ge_mlir.compiler" for t, _ in _imports(fake))
        assert LAYER_OF[_component("ge_mlir.compiler")] > LAYER_OF[_component(_module_name(fake))]
    finally:
        fake.unlink()


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout
    return {m for m in out.split() if m.startswith("ge_mlir.")}


def test_ge_opt_version_loads_no_pass_or_target():
    loaded = _loaded_after("import sys; sys.argv = ['ge-opt', '--version']\n"
                           "from ge_mlir.tools import ge_opt\ntry:\n    ge_opt.main(['--version'])\nexcept SystemExit:\n    pass")
    heavy = {m for m in loaded if m.split(".")[1] in ("optimize", "target", "frontend", "compiler", "fuzz")}
    assert not heavy, sorted(heavy)


def test_one_pass_run_loads_only_that_pass(tmp_path):
    src = tmp_path / "a.mlir"
    src.write_text('func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n'
                   '  %0 = "ge.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n')
    loaded = _loaded_after("from ge_mlir.tools import ge_opt\ntry:\n"
                           f"    ge_opt.main([{str(src)!r}, '--pass-pipeline=builtin.module(ge-verify-graph)', '-o', '/dev/null'])\n"
                           "except SystemExit:\n    pass")
    passes = {m for m in loaded if m.startswith(("ge_mlir.optimize.ge_", "ge_mlir.target."))}
    assert passes == {"ge_mlir.optimize.ge_verify_graph"}, sorted(passes)
    assert not {m for m in loaded if m.split(".")[1] in ("frontend", "compiler", "fuzz")}


def test_ge_opt_version_starts_quickly():
    # ge-opt --version must cost little more than importing the MLIR bindings themselves
    # (about 0.7 s on the reference machine): it loads no pass, target or front end.
    def best(code: str) -> float:
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
            runs.append(time.perf_counter() - t0)
        return min(runs)

    baseline = best("import mlir.ir, numpy")
    ge_opt = best("from ge_mlir.tools import ge_opt\ntry:\n    ge_opt.main(['--version'])\nexcept SystemExit:\n    pass")
    assert ge_opt - baseline < 0.5, f"ge-opt --version: {ge_opt:.2f} s, mlir.ir + numpy alone: {baseline:.2f} s"
