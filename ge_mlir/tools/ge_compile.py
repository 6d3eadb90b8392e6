"""ge-compile: compile a model for a target, optionally run it.

    ge-compile model.onnx --target cpu                      # compile, print I/O and times
    ge-compile model.onnx --compile-to linalg -o model.mlir # stop at a stage, write its IR
    ge-compile model.onnx -o model.gem                      # cpu: save the compiled model (docs/artefacts.md)
    ge-compile model.gem --run inputs.npz                   # load a saved model (no compile) and run it
    ge-compile model.onnx --run inputs.npz [--save out.npz] [--compare-onnxruntime]
    ge-compile model.onnx --config ge.json --report          # configured passes, per-pass report
    ge-compile model.onnx --memory-report[=plan.svg|plan.json] # memory plan table (+ picture or JSON)
    ge-compile model.onnx --memory-budget 64            # fail when the plan needs more than 64 MiB
    ge-compile model.onnx --memory-budget 64 --recompute --recompute-checkpoint-ops Conv  # ... or recompute
    ge-compile model.onnx --estimate-memory[=est.json]  # memory estimated on the ge graph, no lowering
    ge-compile model.onnx --profile 100 [--trace trace.json] [--profile-json p.json]  # per-op profile
    ge-compile model.onnx --target ascendc -o project/       # Ascend C project (+ build on the CPU shim)
    ge-compile model.onnx --target ascendc -o project/ --random-inputs --compare-onnxruntime
    ge-compile model.onnx --dump-graph dumps/ [--dump-stages all] [--dump-format dot,svg,json,onnx]

``--run`` takes a .npz whose keys are the input names (or ``arg0``, ...);
missing inputs are filled with seeded random data when ``--random-inputs`` is
given (``--profile`` fills them all). Exit status: 0 success, 1 any ge-mlir error (printed with its
diagnostics), 2 usage errors, 3 ``--compare-onnxruntime`` mismatch.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence

import numpy as np

from ge_mlir import compile  # the public façade: a configured parallel strategy goes through it
from ge_mlir.compiler import estimate_memory
from ge_mlir.runtime.model import CompiledModel, load
from ge_mlir.runtime.stages import TARGET_STAGES, TARGETS
from ge_mlir.memory.report import memory_plan_json, memory_plan_svg, memory_table
from ge_mlir.profiler import profile
from ge_mlir.target.ascendc.target import RUN_ON
from ge_mlir.errors import GeMlirError
from ge_mlir.config import MEMORY_REUSE_STRATEGIES
from ge_mlir.irutils.types import random_arrays
from ge_mlir.tools.ge_import_onnx import parse_shape


def _random_inputs(model: CompiledModel, seed: int) -> dict[str, np.ndarray]:
    return random_arrays(model.inputs, seed)


def _median_ms(fn, runs: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def _memory_report(model: CompiledModel, args: argparse.Namespace, out) -> None:
    """Prints the memory plan's table on ``out`` and writes the picture or JSON ``--memory-report`` names."""
    plan = model.memory_plan
    if plan is None:
        stages = TARGET_STAGES[model.target]
        # The stage whose passes plan memory: ge-plan-memory (cpu), ge-plan-device-memory (ascendc).
        planned_in = {"cpu": "bufferized", "ascendc": "ascendc"}.get(model.target)
        if planned_in not in stages:
            print(f"memory report: no memory plan exists for target {model.target}", file=out)
        elif stages.index(model.compile_to) < stages.index(planned_in):
            print(f"memory report: no memory plan at stage '{model.compile_to}' "
                  f"(memory is planned in stage '{planned_in}')", file=out)
        else:
            print("memory report: no statically sized intermediate buffers, nothing to plan (arena 0 B)", file=out)
        return
    out.write(memory_table(plan))
    if "training" in plan:
        from ge_mlir.memory.training import TrainingMemory

        out.write(TrainingMemory.from_dict(plan["training"]).table() + "\n")
    if "recompute" in plan:
        from ge_mlir.memory.ge_rematerialize import recompute_table

        out.write(recompute_table(plan["recompute"]))
    path = args.memory_report
    if path == "-":
        return
    text = memory_plan_svg(plan, f"memory plan of {args.model} ({model.target})") if path.endswith(".svg") \
        else memory_plan_json(plan)
    with open(path, "w") as f:
        f.write(text)
    print(f"memory report: wrote {path}", file=out)


def _estimate(args: argparse.Namespace, options: dict) -> int:
    """``--estimate-memory``: the estimate's table (and JSON file), no lowering."""
    est = estimate_memory(args.model, options=options)
    sys.stdout.write(est.table())
    print(f"estimated in {est.seconds * 1e3:.0f} ms after {est.import_seconds:.2f} s of import and optimization")
    if args.memory_budget is not None and est.arena > args.memory_budget * 2**20:
        print(f"the estimated arena ({est.arena / 2**20:.2f} MiB) is over the memory budget of "
              f"{args.memory_budget:g} MiB")
    if args.estimate_memory != "-":
        with open(args.estimate_memory, "w") as f:
            f.write(est.to_json())
        print(f"memory estimate: wrote {args.estimate_memory}")
    return 0


def _graph_dumper(p: argparse.ArgumentParser, args: argparse.Namespace):
    """The GraphDumper ``--dump-graph``/``--dump-stages``/``--dump-format`` ask for (None without
    ``--dump-graph``: then ``GE_MLIR_DUMP_GRAPH`` decides); bad values are usage errors."""
    if args.dump_graph is None:
        return None
    from ge_mlir.graph.dump import GraphDumper, parse_formats, parse_stages

    try:
        formats, stages = parse_formats(args.dump_format), parse_stages(args.dump_stages)
    except GeMlirError as e:
        p.error(e.message)
    known = TARGET_STAGES[args.target]
    if stages is None:
        return GraphDumper(args.dump_graph, None, formats, passes=True)
    bad = [s for s in stages if s not in known and s != "passes"]
    if bad:
        p.error(f"--dump-stages: unknown stage(s) {', '.join(bad)} for target {args.target} "
                f"(stages: {', '.join(known)}, passes, all)")
    return GraphDumper(args.dump_graph, [s for s in stages if s != "passes"], formats, passes="passes" in stages)


#: The file suffix that selects an offline artefact: written by ``-o``, loaded when it is the model.
ARTEFACT_SUFFIX = ".gem"


def _check_artefact_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``-o FILE.gem`` saves a runnable cpu model; a ``.gem`` model is loaded, so compile options do not apply."""
    if args.output and args.output.endswith(ARTEFACT_SUFFIX):
        if args.target != "cpu":
            p.error(f"-o FILE{ARTEFACT_SUFFIX} saves a cpu model; --target {args.target} writes its project "
                    "directory with -o DIR")
        if args.compile_to not in (None, "llvm"):
            p.error(f"-o FILE{ARTEFACT_SUFFIX} saves the runnable model (stage llvm): drop --compile-to")
    if not args.model.endswith(ARTEFACT_SUFFIX):
        return
    compile_only = {
        "--target": args.target != "cpu", "--compile-to": args.compile_to is not None, "-o": bool(args.output),
        "--input-shape": bool(args.input_shape), "--no-optimize": args.no_optimize, "--config": bool(args.config),
        "--report": args.report, "--memory-budget": args.memory_budget is not None,
        "--memory-strategy": args.memory_strategy is not None, "--estimate-memory": args.estimate_memory is not None,
        "--recompute": bool(args.recompute), "--recompute-checkpoint-ops": args.recompute_checkpoint_ops is not None,
        "--recompute-ratio": args.recompute_ratio is not None, "--opt-level": args.opt_level != 3,
        "--threads (fixed when the model was compiled)": args.threads != 1,
        "--run-on": args.run_on is not None, "--dump-graph": args.dump_graph is not None,
        "--compare-onnxruntime": args.compare_onnxruntime,
        "--profile (a saved model is not a profiling build)": args.profile is not None,
    }
    given = [flag for flag, on in compile_only.items() if on]
    if given:
        p.error(f"{args.model} is a saved artefact, loaded without compiling: {', '.join(given)} "
                "only apply when compiling a model (compare with onnxruntime on the .onnx file)")


def _check_profile_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.profile is None:
        given = [flag for flag, value in (("--trace", args.trace), ("--profile-json", args.profile_json),
                                          ("--top", args.top), ("--warmup", args.warmup)) if value is not None]
        if given:
            p.error("--trace, --profile-json, --top and --warmup need --profile N")
        return
    if args.profile < 1 or (args.warmup or 0) < 0 or (args.top is not None and args.top < 1):
        p.error("--profile N and --top K must be at least 1, --warmup at least 0")
    if args.target != "cpu" or args.compile_to not in (None, "llvm"):
        p.error("--profile runs the compiled model: it needs --target cpu compiled to llvm")
    for flag, path in (("--trace", args.trace), ("--profile-json", args.profile_json)):
        if path is not None and not path.endswith(".json"):
            p.error(f"{flag} FILE must end in .json, got {path!r}")


def _profile(model: CompiledModel, args: argparse.Namespace, out) -> None:
    """``--profile N``: the report's table on ``out``; the trace and JSON files."""
    feeds = _random_inputs(model, args.seed)
    if args.run:
        with np.load(args.run) as data:
            feeds.update({k: data[k] for k in data.files})
    report = profile(model, feeds, iterations=args.profile, warmup=10 if args.warmup is None else args.warmup,
                     progress=False if args.no_progress else None, name=os.path.basename(args.model))
    out.write(report.table(top=10 if args.top is None else args.top))
    if args.trace:
        report.save_trace(args.trace)
        print(f"profile: wrote the trace to {args.trace} (open it in https://ui.perfetto.dev)", file=out)
    if args.profile_json:
        report.save_json(args.profile_json)
        print(f"profile: wrote {args.profile_json}", file=out)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ge-compile", description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="model.onnx, a ge .mlir file, or a .gem artefact (loaded, not compiled)")
    p.add_argument("--target", default="cpu", choices=TARGETS)
    all_stages = sorted({s for st in TARGET_STAGES.values() for s in st})
    p.add_argument("--compile-to", default=None, choices=all_stages,
                   help="stop after this stage (default: the target's last: llvm for cpu, source for ascendc)")
    p.add_argument("-o", dest="output", help="write the IR of the last stage here ('-' for stdout); "
                   "a FILE.gem (cpu): save the compiled model as an offline artefact that "
                   "`ge-compile FILE.gem` and ge_mlir.load run without compiling; "
                   "for --target ascendc at stage 'source': the project directory")
    p.add_argument("--run-on", default=None, choices=RUN_ON,
                   help="ascendc: build the project for the CPU shim (default), not at all, or with CANN")
    p.add_argument("--input-shape", action="append", type=parse_shape, default=[],
                   metavar="NAME:D0,D1,...", help="fix an ONNX input's shape (repeatable)")
    p.add_argument("--no-optimize", action="store_true", help="skip the ge graph optimizations")
    p.add_argument("--config", metavar="FILE.json", default=None,
                   help="ge-mlir JSON config shaping the optimization pipeline (docs/config.md)")
    p.add_argument("--report", action="store_true",
                   help="print the pass report: per pass time, op counts before/after, rewrites")
    p.add_argument("--memory-report", nargs="?", const="-", default=None, metavar="FILE.svg|FILE.json",
                   help="print the memory plan (no-reuse sum, bounds, each strategy's arena, the chosen one); "
                        "with =FILE.svg also draw it, with =FILE.json also save it")
    p.add_argument("--memory-budget", type=float, metavar="MIB", default=None,
                   help="fail when the planned intermediate tensors need more than MIB MiB (MemoryBudgetError)")
    p.add_argument("--memory-strategy", default=None, choices=MEMORY_REUSE_STRATEGIES,
                   help="how buffers are placed in the arena (default: the config's "
                        "ge.exec.memory.memory_reuse_strategy, else aggressive = the smallest of all)")
    p.add_argument("--estimate-memory", nargs="?", const="-", default=None, metavar="FILE.json",
                   help="print the memory estimated on the optimized ge graph (weights, activation peak, "
                        "workspace, the largest tensors) and stop before lowering; with =FILE.json also save it")
    p.add_argument("--recompute", action="store_true", default=None,
                   help="with --memory-budget: recompute cheap producers until the plan fits instead of failing")
    p.add_argument("--recompute-checkpoint-ops", metavar="OP,OP,...", default=None,
                   type=lambda text: [s.strip() for s in text.split(",") if s.strip()],
                   help="ONNX op types --recompute may recompute besides the cheap ones (e.g. Conv,MaxPool)")
    p.add_argument("--recompute-ratio", type=float, metavar="R", default=None,
                   help="the most FLOPs --recompute may add, as a share of the graph's (0 to 1)")
    p.add_argument("--opt-level", type=int, default=3, choices=range(4), help="LLVM optimization level")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="cpu: threads the compiled code runs on (CompileOptions.num_threads; default 1)")
    p.add_argument("--run", metavar="INPUTS.npz", help="run the model on these inputs")
    p.add_argument("--random-inputs", action="store_true", help="run on seeded random inputs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", metavar="OUT.npz", help="save the outputs (keys: output names)")
    p.add_argument("--compare-onnxruntime", action="store_true",
                   help="also run the ONNX model with onnxruntime and report the max abs difference")
    p.add_argument("--atol", type=float, default=1e-4, help="tolerance of --compare-onnxruntime")
    p.add_argument("--benchmark", type=int, metavar="RUNS", default=0,
                   help="also print the median latency over RUNS runs (and onnxruntime's, 1 thread, "
                        "with --compare-onnxruntime)")
    p.add_argument("--profile", type=int, metavar="N", default=None,
                   help="cpu: compile a profiling build and print latency, throughput, the top ONNX nodes by self "
                        "time (measured in the compiled code) and peak memory over N iterations (docs/profiling.md)")
    p.add_argument("--warmup", type=int, metavar="N", default=None, help="--profile: warm-up iterations (10)")
    p.add_argument("--top", type=int, metavar="K", default=None, help="--profile: nodes in the table (10)")
    p.add_argument("--trace", metavar="FILE.json", default=None,
                   help="--profile: write a Chrome / Perfetto trace (open it in https://ui.perfetto.dev)")
    p.add_argument("--profile-json", metavar="FILE.json", default=None, help="--profile: write the report as JSON")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--no-cache", action="store_true",
                   help="compile even when the compile cache has this model (ge_mlir.runtime.cache; GE_MLIR_CACHE=0 "
                        "turns the cache off everywhere)")
    p.add_argument("--dump-graph", metavar="DIR", default=None,
                   help="write the graph of the dumped stages into DIR/<function>-<n>/ (docs/graphs.md)")
    p.add_argument("--dump-stages", metavar="all|STAGE,...", default="ge,optimized",
                   help="stages --dump-graph writes (default ge,optimized; 'passes': after every "
                        "optimization pass; 'all': every MLIR stage and every pass)")
    p.add_argument("--dump-format", metavar="dot,svg,json,onnx", default="dot,json",
                   help="formats --dump-graph writes (default dot,json; svg needs Graphviz; onnx: ge stages)")
    return p


def _check_report_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The ``--memory-report`` and ``--estimate-memory`` files and target."""
    # Checked before compiling: `--memory-report model.onnx` would otherwise take the model as FILE.
    if args.memory_report not in (None, "-") and not args.memory_report.endswith((".svg", ".json")):
        p.error(f"--memory-report FILE must end in .svg or .json, got {args.memory_report!r} "
                "(write --memory-report=FILE, or put the flag after the model)")
    if args.estimate_memory not in (None, "-") and not args.estimate_memory.endswith(".json"):
        p.error(f"--estimate-memory FILE must end in .json, got {args.estimate_memory!r} "
                "(write --estimate-memory=FILE, or put the flag after the model)")
    if args.estimate_memory is not None and args.target != "cpu":
        p.error("--estimate-memory models the cpu target's lowering: use it with --target cpu")


def _compile_options(args: argparse.Namespace) -> dict:
    """The CompileOptions fields the flags set."""
    return {"optimize": not args.no_optimize, "opt_level": args.opt_level,
            "input_shapes": dict(args.input_shape) or None, "config": args.config,
            "memory_budget_mb": args.memory_budget, "memory_reuse_strategy": args.memory_strategy,
            "recompute": args.recompute, "recompute_checkpoint_ops": args.recompute_checkpoint_ops,
            "recompute_ratio": args.recompute_ratio, "profile": args.profile is not None,
            "num_threads": args.threads}


def _target_options(args: argparse.Namespace) -> dict:
    """``compile``'s ascendc-only arguments (the project directory, where it is built)."""
    extra = {}
    if args.target == "ascendc":
        stages = TARGET_STAGES["ascendc"]
        writes_project = (args.compile_to or stages[-1]) == "source"
        extra = {"output_dir": args.output if writes_project and args.output not in (None, "-") else None,
                 "run_on": args.run_on or ("cpu-shim" if (args.run or args.random_inputs) else "none")}
    elif args.run_on:
        raise GeMlirError("--run-on applies to --target ascendc only")
    return extra


def _load_or_compile(args: argparse.Namespace, options: dict, extra: dict, dumper) -> CompiledModel:
    """The saved artefact ``args.model`` names, or the model compiled as the flags ask."""
    if args.model.endswith(ARTEFACT_SUFFIX):
        return load(args.model)
    saving = bool(args.output) and args.output.endswith(ARTEFACT_SUFFIX)
    # A cache hit has no stage IR and no pass report: printing either needs a real compile.
    prints_ir = bool(args.output) and not saving and args.target == "cpu"
    cache = False if (args.no_cache or prints_ir or args.report) else None
    return compile(args.model, target=args.target, options=options, compile_to=args.compile_to,
                   progress=False if args.no_progress else None, dump_graph=dumper, cache=cache, **extra)


def _write_output(model: CompiledModel, args: argparse.Namespace, extra: dict) -> None:
    """``-o``: the saved artefact or the last stage's IR (an Ascend C project is written by compile)."""
    saving = bool(args.output) and args.output.endswith(ARTEFACT_SUFFIX)
    if saving:
        model.save(args.output)
    elif args.output and not (args.target == "ascendc" and extra.get("output_dir")):
        text = model.ir()
        if args.output == "-":
            sys.stdout.write(text)
        else:
            with open(args.output, "w") as f:
                f.write(text)


def _print_summary(model: CompiledModel, args: argparse.Namespace, dumper, info) -> None:
    """What was loaded or compiled, what was written, the kernels and the model's inputs and outputs."""
    loading = args.model.endswith(ARTEFACT_SUFFIX)
    saving = bool(args.output) and args.output.endswith(ARTEFACT_SUFFIX)
    if loading:
        print(f"loaded {args.model} ({model.target}, compiled earlier; nothing recompiled) "
              f"in {model.load_time:.3f} s", file=info)
    elif model.from_cache:
        print(f"loaded {args.model} for {args.target} from the compile cache ({model.loaded_from}; "
              f"--no-cache compiles it again) in {model.load_time:.3f} s", file=info)
    else:
        print(f"compiled {args.model} for {args.target} to '{model.compile_to}' in {model.compile_time:.2f} s "
              f"({', '.join(f'{k} {v:.2f}' for k, v in model.stage_times.items())})", file=info)
    if saving:
        print(f"  saved {args.output} ({os.path.getsize(args.output) / 2**20:.1f} MiB; "
              f"`ge-compile {args.output} --run INPUTS.npz` or ge_mlir.load runs it)", file=info)
    if dumper is not None:
        print(f"  {dumper.summary()}", file=info)
    if model.project_dir is not None:
        print(f"  Ascend C project: {model.project_dir}", file=info)
    _print_kernels(model, info)
    for spec in model.inputs:
        print(f"  input  {spec}", file=info)
    for spec in model.outputs:
        print(f"  output {spec}", file=info)


def _print_kernels(model: CompiledModel, info) -> None:
    """The Ascend C kernels: memory use per kernel and the cost model's device time."""
    for k in model.kernels:
        usage = ", ".join(f"{mem} {b}" for mem, b in k["bytes"].items())
        est = k.get("estimate")
        times = f" x{k['launches']}" if k.get("launches", 1) != 1 else ""
        cost = f", est. {est['us']:.1f} us{times} ({est['bound']}-bound)" if est else ""
        print(f"  kernel {k['name']:<16} {k['kind']:<6} {k['blocks']} block(s), bytes: {usage}{cost}", file=info)
    estimates = [k for k in model.kernels if k.get("estimate")]
    if estimates:
        # A shared kernel costs once per launch.
        spent = {k["name"]: k["estimate"]["us"] * k.get("launches", 1) for k in estimates}
        total = sum(spent.values())
        top = sorted(spent, key=lambda n: -spent[n])[:3]
        print(f"  device time est. {total:.1f} us, {estimates[0]['estimate']['model']}; largest: "
              + ", ".join(f"{n} {100 * spent[n] / max(total, 1e-12):.0f}%" for n in top), file=info)


def _print_reports(model: CompiledModel, args: argparse.Namespace, info) -> None:
    """``--report``, ``--memory-report`` and ``--profile``."""
    if args.report:
        info.write(model.pass_report.format())
    if args.memory_report is not None:
        _memory_report(model, args, info)
    if args.profile is not None:
        _profile(model, args, info)


def _run(model: CompiledModel, args: argparse.Namespace) -> int:
    """``--run``/``--random-inputs``: the outputs (``--save``), latency (``--benchmark``) and the comparison
    with onnxruntime; exit status 3 on a mismatch."""
    feeds = _random_inputs(model, args.seed) if args.random_inputs else {}
    if args.run:
        with np.load(args.run) as data:
            feeds.update({k: data[k] for k in data.files})
    outputs = model(**feeds)
    for spec, out in zip(model.outputs, outputs):
        print(f"{spec.name}: shape {out.shape} {out.dtype} mean {float(np.mean(out)):.6g}")
    if args.save:
        np.savez(args.save, **dict(zip(model.output_names, outputs)))
    if args.benchmark:
        print(f"ge-mlir latency: {_median_ms(lambda: model(**feeds), args.benchmark):.3f} ms "
              f"(median of {args.benchmark})")
    if args.compare_onnxruntime:
        return _compare_onnxruntime(model, args, feeds, outputs)
    return 0


def _compare_onnxruntime(model: CompiledModel, args: argparse.Namespace, feeds: dict, outputs) -> int:
    """``--compare-onnxruntime``: the max abs error per output (and onnxruntime's latency); 3 on a mismatch."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(args.model, so, providers=["CPUExecutionProvider"])
    expected = sess.run(None, feeds)
    if args.benchmark:
        print(f"onnxruntime latency: {_median_ms(lambda: sess.run(None, feeds), args.benchmark):.3f} ms "
              "(median, 1 thread)")
    worst = 0.0
    for spec, got, want in zip(model.outputs, outputs, expected):
        err = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))) if got.size else 0.0
        worst = max(worst, err)
        print(f"{spec.name}: max abs error vs onnxruntime {err:.3g} "
              f"({'ok' if err <= args.atol else 'MISMATCH'}, atol {args.atol:g})")
    if not worst <= args.atol:
        print(f"ge-compile: mismatch against onnxruntime ({worst:.3g} > {args.atol})", file=sys.stderr)
        return 3
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    dumper = _graph_dumper(p, args)
    _check_report_args(p, args)
    _check_artefact_args(p, args)
    _check_profile_args(p, args)
    try:
        options = _compile_options(args)
        if args.estimate_memory is not None:
            return _estimate(args, options)
        extra = _target_options(args)
        model = _load_or_compile(args, options, extra, dumper)
        _write_output(model, args, extra)
        # With the IR on stdout the summary goes to stderr.
        info = sys.stderr if args.output == "-" else sys.stdout
        _print_summary(model, args, dumper, info)
        _print_reports(model, args, info)
        if not (args.run or args.random_inputs):
            return 0
        return _run(model, args)
    except GeMlirError as e:
        print(f"ge-compile: error: {e}", file=sys.stderr)
        return 1
    except (OSError, KeyError, ValueError) as e:
        print(f"ge-compile: error: {e}", file=sys.stderr)
        return 1


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
