"""ge-bisect: find the pass, and the rewrite, that changes a model's numerics.

    ge-bisect model.onnx                         # seeded random inputs, default cpu pipeline
    ge-bisect model.onnx --config ge.json --inputs feeds.npz --rtol 1e-3 --atol 1e-4
    ge-bisect model.mlir --pass-modules ./my_passes.py

The reference is the model compiled without graph optimizations. The
optimized model is the reference IR after the target's default optimization
pipeline (``ge_mlir.optimize.default_pipeline.default_pipeline`` under the config),
compiled without further optimization. When their outputs differ (``allclose``
per output, tolerances per dtype), ge-bisect binary-searches the pipeline
prefixes for the first pass that makes them differ, then binary-searches the
number of rewrites that pass may apply (``ge_mlir.irutils.patterns.rewrite_budget``)
for the first rewrite that breaks the numerics, and names its op and location
(the ONNX node). The report shows what that pass did to the graph (the ops it
removed, added or changed: ``ge_mlir.graph.diff_graphs``). Exit status: 0 no
divergence, 3 divergence found, 1 errors, 2 usage errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: Default (rtol, atol) per floating dtype; integers and booleans compare exactly.
DEFAULT_TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-2, 1e-3),
    "bfloat16": (1e-2, 1e-2),
    "float32": (1e-4, 1e-5),
    "float64": (1e-7, 1e-9),
}


@dataclass
class Comparison:
    """Outputs of one candidate against the reference."""

    ok: bool
    max_abs_error: float = 0.0
    worst_output: str | None = None
    error: str | None = None  # the candidate failed to optimize/compile/run

    def describe(self) -> str:
        if self.error is not None:
            return f"error: {self.error}"
        where = f" (output '{self.worst_output}')" if self.worst_output else ""
        return f"{'ok' if self.ok else 'MISMATCH'}, max abs error {self.max_abs_error:.3g}{where}"


@dataclass
class Step:
    """One compile of the bisection: ``passes`` pipeline passes, the last one
    limited to ``budget`` rewrites (None: unlimited)."""

    passes: int
    budget: int | None
    result: Comparison

    def describe(self, names: Sequence[str]) -> str:
        what = f"{self.passes} pass(es)"
        if self.passes:
            what += f" (.. {names[self.passes - 1]}"
            what += f", {self.budget} rewrite(s))" if self.budget is not None else ")"
        return f"{what}: {self.result.describe()}"


@dataclass
class BisectResult:
    """What :func:`bisect` found."""

    target: str
    pipeline: list[str]
    rtol: float | None
    atol: float | None
    full: Comparison
    first_bad_pass: str | None = None
    #: 1-based position of :attr:`first_bad_pass` in :attr:`pipeline`.
    first_bad_pass_index: int | None = None
    #: Budget-aware rewrites the bad pass applied (None: not bisected).
    rewrites_total: int | None = None
    #: The first rewrite of the bad pass after which the outputs differ.
    first_bad_rewrite: Any = None  # ge_mlir.irutils.patterns.RewriteRecord
    #: Every rewrite the bad pass applied (unlimited run), in order.
    rewrites: list[Any] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: What the first bad pass changed in the graph (a ``ge_mlir.graph.GraphDiff``), None when not found.
    pass_diff: Any = None
    inputs: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def diverged(self) -> bool:
        return not self.full.ok

    @property
    def num_passes(self) -> int:
        return len(self.pipeline)

    @property
    def compiles(self) -> int:
        """Compiles of candidates (the reference not counted)."""
        return len(self.steps)

    def format(self, verbose: bool = False) -> str:
        tol = ("per-dtype default tolerances" if self.rtol is None and self.atol is None
               else f"rtol {self.rtol if self.rtol is not None else 'default'}, "
                    f"atol {self.atol if self.atol is not None else 'default'}")
        lines = [f"pipeline ({self.target}, {self.num_passes} passes): {', '.join(self.pipeline) or '(empty)'}",
                 f"reference (no optimization) vs optimized: {self.full.describe()} [{tol}]"]
        if not self.diverged:
            lines.append("no divergence")
        else:
            if self.first_bad_pass is not None:
                lines.append(f"first bad pass: {self.first_bad_pass} ({self.first_bad_pass_index} of {self.num_passes})")
            if self.first_bad_rewrite is not None:
                r = self.first_bad_rewrite
                node = f" '{r.node_name}'" if r.node_name is not None else ""
                lines.append(f"first bad rewrite: #{r.index} at {r.location}{node} (op {r.op_name}) "
                             f"[pattern {r.pattern}; {self.rewrites_total} rewrite(s) in the pass]")
            if self.pass_diff is not None:
                lines.append(f"what {self.first_bad_pass} changed in the graph:")
                text = self.pass_diff.format(limit=None if verbose else 30)
                lines.extend("  " + line for line in text.rstrip("\n").splitlines())
        lines.extend(f"note: {n}" for n in self.notes)
        if verbose:
            lines.append(f"steps ({self.compiles} compiles):")
            lines.extend(f"  {s.describe(self.pipeline)}" for s in self.steps)
        return "\n".join(lines) + "\n"

    __str__ = format


# --- inputs and comparison ----------------------------------------------------


def random_inputs(specs: Sequence[Any], seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded random arrays for the model inputs (``IOSpec``s; integers in [0, 4))."""
    from ge_mlir.irutils.types import random_arrays

    return random_arrays(specs, seed, int_high=4)


def compare(reference: Sequence[np.ndarray], got: Sequence[np.ndarray], names: Sequence[str],
            rtol: float | None = None, atol: float | None = None) -> Comparison:
    """``allclose`` per output (NaNs equal); ``rtol``/``atol`` override the per-dtype defaults."""
    if len(got) != len(reference):
        return Comparison(False, float("inf"), error=f"{len(got)} outputs, expected {len(reference)}")
    worst, worst_name, ok = 0.0, None, True
    for name, want, have in zip(names, reference, got):
        want, have = np.asarray(want), np.asarray(have)
        if want.shape != have.shape:
            return Comparison(False, float("inf"), name, f"output '{name}' has shape {have.shape}, expected {want.shape}")
        if want.size == 0:
            continue
        if want.dtype.kind in "fc":
            r, a = DEFAULT_TOLERANCES.get(want.dtype.name, DEFAULT_TOLERANCES["float32"])
            r = r if rtol is None else rtol
            a = a if atol is None else atol
            w, h = want.astype(np.float64), have.astype(np.float64)
            close = np.allclose(h, w, rtol=r, atol=a, equal_nan=True)
            both_nan = np.isnan(w) & np.isnan(h)
            diff = np.where(both_nan, 0.0, np.abs(h - w))
            err = float(np.nanmax(np.where(np.isnan(diff), np.inf, diff)))
        else:
            close = bool(np.array_equal(want, have))
            err = float(np.max(np.abs(want.astype(np.float64) - have.astype(np.float64))))
        if err > worst or (not close and worst_name is None):
            worst, worst_name = max(err, worst), name
        ok = ok and close
    return Comparison(ok, worst, worst_name)


# --- the bisection ------------------------------------------------------------


def _pass_diff(before: str, after: str, pass_name: str) -> Any:
    """The graph diff of one pass (IR texts printed by MLIR, with locations)."""
    from mlir import ir

    from ge_mlir.graph import diff_graphs, read_graph

    with ir.Context():
        a = read_graph(ir.Module.parse(before), f"before {pass_name}")
        b = read_graph(ir.Module.parse(after), f"after {pass_name}")
    return diff_graphs(a, b)


def _load_ge_text(model: Any, input_shapes: Mapping[str, Sequence[int]] | None) -> str:
    """The model as ge IR text with locations (ONNX node names)."""
    from mlir import ir

    from ge_mlir.api import verify
    from ge_mlir.compiler import load_graph
    from ge_mlir.config import CompileOptions

    with ir.Context(), ir.Location.unknown():
        module = load_graph(model, CompileOptions(input_shapes=input_shapes), None)
        verify(module)
        return module.operation.get_asm(enable_debug_info=True)


class _Runner:
    """Optimizes the reference IR with a pipeline prefix (+ a rewrite budget),
    compiles it without optimization, runs it and compares."""

    def __init__(self, text: str, elements: list[str], feeds: dict[str, np.ndarray], reference: list[np.ndarray],
                 names: list[str], target: str, func_name: str | None, rtol: float | None, atol: float | None,
                 steps: list[Step]) -> None:
        self.text, self.elements, self.feeds = text, elements, feeds
        self.reference, self.names, self.target, self.func_name = reference, names, target, func_name
        self.rtol, self.atol, self.steps = rtol, atol, steps
        self.cache: dict[tuple[int, int | None], Comparison] = {}
        self.prefix_text: dict[int, str] = {0: text}
        self.records: dict[tuple[int, int | None], list[Any]] = {}
        self.log: Callable[[Step], None] | None = None

    def _run_passes(self, text: str, elements: list[str], budget: int | None = None,
                    limited: bool = False) -> tuple[str, list[Any]]:
        from mlir import ir

        from ge_mlir.api import parse_module, run_pipeline
        from ge_mlir.irutils.patterns import rewrite_budget

        with ir.Context(), ir.Location.unknown():
            module = parse_module(text)
            records: list[Any] = []
            if elements:
                pipeline = f"builtin.module({', '.join(elements)})"
                if limited:
                    with rewrite_budget(budget) as b:
                        run_pipeline(module, pipeline)
                    records = list(b.records)
                else:
                    run_pipeline(module, pipeline)
            return module.operation.get_asm(enable_debug_info=True), records

    def prefix(self, k: int) -> str:
        """IR after the first ``k`` passes (unlimited), cached."""
        if k not in self.prefix_text:
            base = max(j for j in self.prefix_text if j <= k)
            self.prefix_text[k], _ = self._run_passes(self.prefix_text[base], self.elements[base:k])
        return self.prefix_text[k]

    def bad(self, k: int, budget: int | None = None) -> bool:
        """True when the first ``k`` passes (pass ``k`` limited to ``budget``
        rewrites) change the outputs. The rewrites of pass ``k`` are recorded."""
        key = (k, budget)
        if key in self.cache:
            return not self.cache[key].ok
        import ge_mlir

        try:
            if k == 0:
                text, records = self.text, []
            else:
                text, records = self._run_passes(self.prefix(k - 1), self.elements[k - 1:k], budget, limited=True)
            self.records[key] = records
            compiled = ge_mlir.compile(text, self.target, {"optimize": False, "func_name": self.func_name})
            got = compiled(**self.feeds)
            result = compare(self.reference, got, self.names, self.rtol, self.atol)
        except Exception as e:  # noqa: BLE001 - a failing candidate counts as "bad"
            first = str(e).strip().splitlines()[0] if str(e).strip() else ""
            result = Comparison(False, float("inf"), error=f"{type(e).__name__}: {first}")
        self.cache[key] = result
        self.steps.append(Step(k, budget, result))
        if self.log is not None:
            self.log(self.steps[-1])
        return not result.ok


def bisect(
    model: Any,
    config: Any = None,
    inputs: Mapping[str, np.ndarray] | str | Path | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    *,
    target: str = "cpu",
    seed: int = 0,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    func_name: str | None = None,
    pass_modules: Sequence[str] = (),
    log: Callable[[str], None] | None = None,
) -> BisectResult:
    """Finds the first pass, and its first rewrite, that changes the outputs of ``model``.

    Args:
        model: an ONNX model (path, bytes, ``onnx.ModelProto``) or ge IR (text,
            ``.mlir`` path, ``mlir.ir.Module``).
        config: the ge-mlir config (JSON path, dict, ``Config``) shaping the
            default pipeline of ``target``.
        inputs: a dict of arrays or a ``.npz`` path (keys: input names); missing
            inputs get seeded random data (``seed``).
        rtol, atol: tolerances of every floating output (default: per dtype,
            :data:`DEFAULT_TOLERANCES`; f32: 1e-4, 1e-5). Integer and boolean
            outputs compare exactly.
        pass_modules: user pass modules to import (as ``GE_MLIR_PASS_MODULES``,
            which is honored too).
        log: called with a line per candidate compile (progress).

    Raises:
        GeMlirError: the model cannot be imported, or the reference cannot be
            compiled or run; the config is invalid.
    """
    import ge_mlir
    from ge_mlir.config import PASS_MODULES_ENV, load_config, load_pass_modules
    from ge_mlir.errors import GeMlirError
    from ge_mlir.optimize.default_pipeline import default_pipeline

    cfg = load_config(config)
    if pass_modules:
        load_pass_modules(None, environ={PASS_MODULES_ENV: ",".join(str(m) for m in pass_modules)})
    pipeline = default_pipeline(target, cfg)
    elements = pipeline.elements

    text = _load_ge_text(model, input_shapes)
    reference_model = ge_mlir.compile(text, target, {"optimize": False, "func_name": func_name})
    feeds = random_inputs(reference_model.inputs, seed)
    if inputs is not None:
        if isinstance(inputs, (str, Path)):
            loaded = np.load(inputs)
            if not isinstance(loaded, np.lib.npyio.NpzFile):
                raise GeMlirError(f"inputs {inputs}: expected a .npz archive of arrays named by input, "
                                  f"got a single {type(loaded).__name__}")
            with loaded as data:
                given = {k: data[k] for k in data.files}
        else:
            given = dict(inputs)
        by_position = {f"arg{i}": s.name for i, s in enumerate(reference_model.inputs)}
        for key, value in given.items():
            feeds[by_position.get(key, key)] = np.asarray(value)
    reference = reference_model(**feeds)

    steps: list[Step] = []
    names = pipeline.names
    runner = _Runner(text, elements, feeds, reference, reference_model.output_names, target, func_name,
                     rtol, atol, steps)
    if log is not None:
        runner.log = lambda step: log(step.describe(names))
    n = len(elements)
    result = BisectResult(target, names, rtol, atol, Comparison(True), steps=steps, inputs=feeds)
    if n == 0:
        result.notes.append("the default pipeline is empty")
        return result
    runner.bad(n)
    result.full = runner.cache[(n, None)]
    if result.full.ok:
        return result

    # 1. The first pass: bad(0) is the reference itself (good), bad(n) holds.
    lo, hi = 0, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if runner.bad(mid):
            hi = mid
        else:
            lo = mid
    k = hi
    # Verification: k-1 passes OK, k passes bad (both compiled by the search
    # unless k is 1 or n; k-1 = 0 is the reference).
    assert runner.bad(k) and (k == 1 or not runner.bad(k - 1))
    result.first_bad_pass, result.first_bad_pass_index = names[k - 1], k
    try:
        result.pass_diff = _pass_diff(runner.prefix(k - 1), runner.prefix(k), names[k - 1])
    except Exception as e:  # noqa: BLE001 - the diff only illustrates the report
        result.notes.append(f"no graph diff of {names[k - 1]}: {type(e).__name__}: {e}")

    # 2. The first rewrite of pass k: budget 0 must be good, the unlimited run bad.
    runner.bad(k, None)
    records = runner.records.get((k, None), [])
    result.rewrites, result.rewrites_total = records, len(records)
    if runner.cache[(k, None)].error is not None and not records:
        result.notes.append(f"{names[k - 1]} fails: {runner.cache[(k, None)].error}")
    if not records:
        result.notes.append(f"{names[k - 1]} applied no budget-aware rewrites (Python @pattern / FusionPattern); "
                            "its rewrites cannot be bisected")
        return result
    if runner.bad(k, 0):
        result.notes.append(f"{names[k - 1]} changes the outputs even with a rewrite budget of 0: the divergence "
                            "comes from rewrites outside its Python patterns (C++ folders, upstream passes, "
                            "direct IR edits)")
        return result
    total = len(records)
    if not runner.bad(k, total):
        result.notes.append(f"{names[k - 1]} is bad unlimited but not with a budget of all {total} recorded "
                            "rewrites (non-deterministic pattern application?)")
        return result
    lo, hi = 0, total
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if runner.bad(k, mid):
            hi = mid
        else:
            lo = mid
    # The hi-th rewrite of a budgeted run is the hi-th of the unlimited run.
    budget_records = runner.records.get((k, hi)) or records
    result.first_bad_rewrite = budget_records[hi - 1]
    if budget_records[hi - 1] != records[hi - 1]:
        result.notes.append(f"rewrite #{hi} differs between the budgeted and the unlimited run")
    return result


# --- CLI ----------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    from ge_mlir.runtime.stages import TARGETS
    from ge_mlir.errors import GeMlirError
    from ge_mlir.tools.ge_import_onnx import parse_shape

    p = argparse.ArgumentParser(prog="ge-bisect", description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="model.onnx or a ge .mlir file")
    p.add_argument("--target", default="cpu", choices=TARGETS)
    p.add_argument("--config", metavar="FILE.json", default=None,
                   help="ge-mlir JSON config shaping the optimization pipeline (docs/config.md)")
    p.add_argument("--inputs", metavar="INPUTS.npz", default=None,
                   help="inputs (keys: input names or arg0, ...); default: seeded random data")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument("--rtol", type=float, default=None, help="relative tolerance (default per dtype; f32 1e-4)")
    p.add_argument("--atol", type=float, default=None, help="absolute tolerance (default per dtype; f32 1e-5)")
    p.add_argument("--input-shape", action="append", type=parse_shape, default=[],
                   metavar="NAME:D0,D1,...", help="fix an ONNX input's shape (repeatable)")
    p.add_argument("--func-name", default=None, help="the function to compile when a module has several")
    p.add_argument("--pass-modules", action="append", default=[], metavar="MODULES",
                   help="user pass modules to import (comma-separated dotted names or .py paths; "
                        "GE_MLIR_PASS_MODULES is honored too)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every candidate compile (on stderr)")
    args = p.parse_args(argv)
    modules = [m.strip() for item in args.pass_modules for m in item.split(",") if m.strip()]
    try:
        result = bisect(
            args.model, args.config, args.inputs, args.rtol, args.atol, target=args.target, seed=args.seed,
            input_shapes=dict(args.input_shape) or None, func_name=args.func_name, pass_modules=modules,
            log=(lambda line: print(f"  step: {line}", file=sys.stderr)) if args.verbose else None,
        )
    except GeMlirError as e:
        print(f"ge-bisect: error: {e}", file=sys.stderr)
        return 1
    except (OSError, KeyError, ValueError) as e:
        print(f"ge-bisect: error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(result.format())
    return 3 if result.diverged else 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
