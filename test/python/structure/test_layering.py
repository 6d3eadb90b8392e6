"""The package's layers: every import points down (or sideways within a layer), no cycle between
modules or packages, no fixed module loaded by name, and tools that only parse IR and run passes
do not load the rest of the compiler.

Imports are read from the source (``ast``), and three kinds count as dependencies:

* ``import`` statements at module level;
* ``import`` statements inside functions: a lazy import is still a dependency;
* ``importlib.import_module`` (or ``__import__``) of a literal ``ge_mlir`` name, or of an f-string
  that starts with one (``f"ge_mlir.x.{y}"``, ``f"{__name__}.{y}"``): a module loaded by name is
  a dependency the import statements hide, so outside the registries (:data:`BY_NAME_REGISTRIES`)
  it is refused, and counted as an edge wherever it is.

Imports under ``if TYPE_CHECKING:`` never run: they obey the layers but make no cycle.
The registries (the pass registry, the target table, ``ge_mlir``'s lazy attributes, the ONNX op
families) load modules that register themselves: that is how a lower layer names an upper one
without depending on it, so their by-name loads are not edges.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "ge_mlir"

#: Bottom to top. A module may import from its own layer or any layer below.
#: docs/architecture.md's layer table names the same components per layer (checked below).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("_version", "errors", "_log", "_format", "scheduler", "parallel_strategy", "planner_strategies"),
    ("_dialect", "ir", "irutils"),
    ("dialects",),
    ("passes", "api", "config"),
    ("frontend", "memory", "target", "graph"),
    ("optimize", "partition", "runtime"),
    ("compiler",),
    ("fuzz", "tools", "parallel", "onnx_backend", "profiler", "dynamo", "training", "__init__"),
)
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}

#: Modules whose by-name loads are registries (the module loaded registers itself), not dependencies.
BY_NAME_REGISTRIES: dict[str, str] = {
    "ge_mlir": "lazy public attributes (``_LAZY``), so ``import ge_mlir`` stays light",
    "ge_mlir.passes.registry": "built-in pass modules (``BUILTIN_PASS_PACKAGES``), loaded when a pipeline names them",
    "ge_mlir.target": "the target table (``TARGETS``): a target loads when it is compiled for",
    "ge_mlir.frontend.onnx.ops": "ONNX op families, each registering its converters",
}

#: Module cycles being removed elsewhere, each with the change that removes it. A listed cycle
#: that no longer exists fails the test too, so the list only shrinks.
KNOWN_CYCLES: dict[frozenset[str], str] = {}


@dataclass(frozen=True)
class Import:
    """One dependency of a module: the ``ge_mlir`` module (or package) it names, where, and how."""

    target: str
    line: int
    kind: str  # "module", "function" (inside a def), "typing" (under TYPE_CHECKING) or "by-name"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _by_name_argument(call: ast.Call) -> ast.expr | None:
    """The module-name argument of ``importlib.import_module(...)``/``import_module(...)``/``__import__(...)``."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if name not in ("import_module", "__import__") or not call.args:
        return None
    return call.args[0]


class Package:
    """The ``ge_mlir`` sources as a set of modules, their imports and the checks on them.

    Built from the tree (:meth:`from_tree`) or from any mapping module name -> (source, is a
    package), which lets a test plant an import without touching the tree."""

    def __init__(self, sources: dict[str, tuple[str, bool]]) -> None:
        self.sources = sources
        self.imports = {name: self._parse(name, text, is_pkg) for name, (text, is_pkg) in sources.items()}

    @classmethod
    def from_tree(cls, root: Path = PACKAGE) -> Package:
        sources = {}
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(root.parent).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts.pop()
            sources[".".join(parts)] = (path.read_text(), is_pkg)
        return cls(sources)

    def path(self, module: str) -> str:
        rel = module.replace(".", "/")
        return f"{rel}/__init__.py" if self.sources[module][1] else f"{rel}.py"

    # -- reading imports -------------------------------------------------------------
    def _resolve(self, module: str) -> str:
        """``module``, or its longest prefix that is a module (``pkg.func`` -> ``pkg``)."""
        parts = module.split(".")
        while len(parts) > 1 and ".".join(parts) not in self.sources:
            parts.pop()
        return ".".join(parts)

    def _parse(self, name: str, text: str, is_pkg: bool) -> list[Import]:
        package = name if is_pkg else name.rsplit(".", 1)[0]
        out: list[Import] = []

        def absolute(module: str | None, level: int) -> str:
            if not level:
                return module or ""
            base = package.split(".")
            base = base[: len(base) - level + 1]
            return ".".join(base + ([module] if module else []))

        def visit(node: ast.AST, kind: str) -> None:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                kind = "function" if kind == "module" else kind
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.body:
                    visit(child, "typing")
                for child in node.orelse:
                    visit(child, kind)
                return
            if isinstance(node, ast.Import):
                out.extend(Import(self._resolve(a.name), node.lineno, kind)
                           for a in node.names if a.name.split(".")[0] == "ge_mlir")
            elif isinstance(node, ast.ImportFrom):
                target = absolute(node.module, node.level)
                if target.split(".")[0] == "ge_mlir":
                    # `from pkg import mod` imports the submodule when mod is one.
                    for alias in node.names:
                        sub = f"{target}.{alias.name}"
                        out.append(Import(sub if sub in self.sources else self._resolve(target), node.lineno, kind))
            elif isinstance(node, ast.Call):
                arg = _by_name_argument(node)
                target = self._by_name_target(arg, package) if arg is not None else None
                if target is not None:
                    out.append(Import(self._resolve(target), node.lineno, "by-name"))
            for child in ast.iter_child_nodes(node):
                visit(child, kind)

        visit(ast.parse(text, self.path(name)), "module")
        return list(dict.fromkeys(out))  # `from m import a, b` once

    @staticmethod
    def _by_name_target(arg: ast.expr, package: str) -> str | None:
        """The ``ge_mlir`` module a by-name load names literally (an f-string: its literal head), else None."""
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            head = arg.value
        elif isinstance(arg, ast.JoinedStr) and arg.values:
            first = arg.values[0]
            if isinstance(first, ast.Constant):
                head = str(first.value)
            elif isinstance(first, ast.FormattedValue) and isinstance(first.value, ast.Name) and \
                    first.value.id in ("__name__", "__package__"):
                head = package
            else:
                return None
            head = head.split("{")[0].rstrip(".")
        else:
            return None
        if head.startswith("."):
            base = package.split(".")
            level = len(head) - len(head.lstrip("."))
            head = ".".join(base[: len(base) - level + 1] + [head.lstrip(".")]).rstrip(".")
        return head if head.split(".")[0] == "ge_mlir" else None

    # -- the graph -------------------------------------------------------------------
    def edges(self) -> dict[str, set[str]]:
        """Module -> modules it depends on when it runs (module-level, function-level and by-name
        imports; registries' by-name loads and TYPE_CHECKING imports left out)."""
        graph: dict[str, set[str]] = {m: set() for m in self.sources}
        for src, imports in self.imports.items():
            for imp in imports:
                if imp.kind == "typing" or (imp.kind == "by-name" and src in BY_NAME_REGISTRIES):
                    continue
                if imp.target != src and imp.target in self.sources:
                    graph[src].add(imp.target)
        return graph

    def upward_imports(self) -> list[str]:
        out = []
        for src, imports in self.imports.items():
            if src in BY_NAME_REGISTRIES:
                imports = [i for i in imports if i.kind != "by-name"]
            for imp in imports:
                a, b = component(src), component(imp.target)
                if LAYER_OF.get(b, -1) > LAYER_OF.get(a, len(LAYERS)):
                    out.append(f"{self.path(src)}:{imp.line}: {a} (layer {LAYER_OF[a]}) imports {imp.target} "
                               f"({b}, layer {LAYER_OF[b]}, {imp.kind})")
        return out

    def by_name_imports(self) -> list[str]:
        """Literal by-name loads of ``ge_mlir`` modules outside the registries."""
        return [f"{self.path(src)}:{imp.line}: loads {imp.target} by name"
                for src, imports in self.imports.items() if src not in BY_NAME_REGISTRIES
                for imp in imports if imp.kind == "by-name"]

    def module_cycles(self) -> list[frozenset[str]]:
        """Strongly connected components of more than one module (Tarjan)."""
        graph = self.edges()
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        out: list[frozenset[str]] = []
        counter = 0
        for root in sorted(graph):
            if root in index:
                continue
            # Iterative Tarjan: (node, iterator over its successors).
            work = [(root, iter(sorted(graph[root])))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                node, succ = work[-1]
                advanced = False
                for nxt in succ:
                    if nxt not in index:
                        index[nxt] = low[nxt] = counter
                        counter += 1
                        stack.append(nxt)
                        on_stack.add(nxt)
                        work.append((nxt, iter(sorted(graph[nxt]))))
                        advanced = True
                        break
                    if nxt in on_stack:
                        low[node] = min(low[node], index[nxt])
                if advanced:
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    scc = set()
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        scc.add(m)
                        if m == node:
                            break
                    if len(scc) > 1:
                        out.append(frozenset(scc))
        return out

    def package_cycles(self) -> list[str]:
        units: dict[str, set[str]] = {}
        for a, targets in self.edges().items():
            for b in targets:
                ua, ub = self._unit(a), self._unit(b)
                if ua != ub and ub != "__init__":
                    units.setdefault(ua, set()).add(ub)
        cycles = []
        for start in units:
            seen, stack = set(), [(start, [start])]
            while stack:
                node, trail = stack.pop()
                for nxt in units.get(node, ()):
                    if nxt == start:
                        cycles.append(" -> ".join(trail + [start]))
                    elif nxt not in seen:
                        seen.add(nxt)
                        stack.append((nxt, trail + [nxt]))
        return sorted(set(cycles))

    def _unit(self, module: str) -> str:
        """The package a module belongs to for the package cycle check (targets count one by one)."""
        parts = module.split(".")[1:] or ["__init__"]
        if parts[0] == "target" and len(parts) > 1 and self.sources.get(f"ge_mlir.target.{parts[1]}", ("", False))[1]:
            return f"target.{parts[1]}"
        return parts[0]


def component(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


@pytest.fixture(scope="module")
def tree() -> Package:
    return Package.from_tree()


def test_every_component_has_a_layer(tree):
    assert {component(m) for m in tree.sources} - set(LAYER_OF) == set()


def test_no_upward_import(tree):
    upward = tree.upward_imports()
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_no_module_loaded_by_name_outside_the_registries(tree):
    by_name = tree.by_name_imports()
    assert not by_name, ("import these modules instead (a by-name load hides the dependency; registries: "
                         f"{', '.join(BY_NAME_REGISTRIES)}):\n" + "\n".join(by_name))


def test_no_module_cycle(tree):
    cycles = tree.module_cycles()
    new = [", ".join(sorted(c)) for c in cycles if c not in KNOWN_CYCLES]
    assert not new, "module cycles (module-level, function-level and by-name imports):\n" + "\n".join(new)
    gone = [", ".join(sorted(c)) for c in KNOWN_CYCLES if c not in cycles]
    assert not gone, "no longer cycles: remove from KNOWN_CYCLES:\n" + "\n".join(gone)


def test_no_package_cycle(tree):
    cycles = tree.package_cycles()
    assert not cycles, "package cycles:\n" + "\n".join(cycles)


# -- the checker itself, on planted sources ----------------------------------------------


def _planted(tree: Package, changes: dict[str, str]) -> Package:
    """The package with modules added or replaced (module name -> source), nothing written to disk."""
    sources = dict(tree.sources)
    for name, text in changes.items():
        sources[name] = (text, sources.get(name, ("", False))[1])
    return Package(sources)


def test_checker_catches_an_upward_import(tree):
    planted = _planted(tree, {"ge_mlir.optimize._probe": "def f():\n    from ..compiler import GraphEngine\n"})
    assert any("optimize/_probe.py:2: optimize (layer 5) imports ge_mlir.compiler" in u
               for u in planted.upward_imports()), planted.upward_imports()


def test_checker_catches_a_by_name_import(tree):
    for call in ('importlib.import_module("ge_mlir.compiler.driver")', 'import_module("ge_mlir.compiler")',
                 'importlib.import_module(f"ge_mlir.compiler.{x}")', 'importlib.import_module(".model", __package__)'):
        planted = _planted(tree, {"ge_mlir.runtime._probe": f"import importlib\ndef f(x):\n    return {call}\n"})
        assert [u for u in planted.by_name_imports() if u.startswith("ge_mlir/runtime/_probe.py:3")], call
        # ... and it counts as a dependency: runtime (layer 5) -> compiler (6) is upward.
        if "compiler" in call:
            assert any("runtime/_probe.py:3" in u and "by-name" in u for u in planted.upward_imports()), call
    # Names computed at run time (user modules, the registries' tables) are not literal.
    planted = _planted(tree, {"ge_mlir.runtime._probe": "import importlib\ndef f(x):\n    return importlib.import_module(x)\n"})
    assert not [u for u in planted.by_name_imports() if "_probe" in u]


def test_checker_catches_module_cycles(tree):
    errors = tree.sources["ge_mlir.errors"][0]
    # A function-level import back into a module that imports this one at module level.
    cycle = _planted(tree, {"ge_mlir.errors": errors + "\n\ndef _probe():\n    from .parallel_strategy import parse_strategy\n"})
    assert frozenset({"ge_mlir.errors", "ge_mlir.parallel_strategy"}) in cycle.module_cycles()
    # A cycle through a by-name load within one package (no package cycle to see it by).
    artefact = tree.sources["ge_mlir.runtime.artefact"][0]
    by_name = _planted(tree, {"ge_mlir.runtime.artefact": artefact + '\n\ndef _probe():\n    import importlib\n'
                              '    return importlib.import_module("ge_mlir.runtime.model")\n'})
    assert frozenset({"ge_mlir.runtime.artefact", "ge_mlir.runtime.model"}) in by_name.module_cycles()
    assert not by_name.package_cycles()
    # TYPE_CHECKING imports never run: no cycle.
    typing = _planted(tree, {"ge_mlir.errors": errors + "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                "    from .parallel_strategy import parse_strategy\n"})
    assert not any("ge_mlir.errors" in c for c in typing.module_cycles())


def test_checker_catches_a_package_cycle(tree):
    planted = _planted(tree, {"ge_mlir.runtime._probe": "from ..compiler import driver\n",
                              "ge_mlir.compiler._probe": "from ..runtime import model\n"})
    assert any(c.startswith(("compiler -> runtime -> compiler", "runtime -> compiler -> runtime"))
               for c in planted.package_cycles()), planted.package_cycles()


# -- docs/architecture.md ------------------------------------------------------------------


def _doc_layers() -> dict[int, set[str]]:
    """The layer table of docs/architecture.md: layer -> the components its second column names."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", text, re.M)
    return {int(layer): {n.strip("/") for n in re.findall(r"`([\w/]+)`", names)} for layer, names in rows}


def test_architecture_doc_lists_the_layers():
    expected = {i: set(names) for i, names in enumerate(LAYERS)}
    documented = _doc_layers()
    wrong = [f"| {i} | {', '.join(f'`{n}`' for n in sorted(expected[i]))} | (documented: "
             f"{', '.join(sorted(documented.get(i, ()))) or 'nothing'})"
             for i in sorted(expected.keys() | documented.keys()) if documented.get(i) != expected.get(i)]
    assert not wrong, "docs/architecture.md's layer table must name LAYERS:\n" + "\n".join(wrong)


# -- what tools load -----------------------------------------------------------------------


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout
    return {m for m in out.split() if m.startswith("ge_mlir.")}


def test_ge_opt_version_loads_no_pass_or_target():
    loaded = _loaded_after("import sys; sys.argv = ['ge-opt', '--version']\n"
                           "from ge_mlir.tools import ge_opt\ntry:\n    ge_opt.main(['--version'])\nexcept SystemExit:\n    pass")
    heavy = {m for m in loaded if m.split(".")[1] in ("optimize", "target", "frontend", "compiler", "runtime", "fuzz")}
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
    assert not {m for m in loaded if m.split(".")[1] in ("frontend", "compiler", "runtime", "fuzz")}


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
