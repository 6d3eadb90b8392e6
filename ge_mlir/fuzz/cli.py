"""ge-fuzz: differential fuzzing of ge-mlir against onnxruntime.

    ge-fuzz --seed 1 --cases 20                   # 20 cases of run 1 (30 % mutated/invalid)
    ge-fuzz --seed 7 --time-limit 1800 --jobs 2   # as many cases as fit in 30 minutes
    ge-fuzz --seed 1 --case 13                    # case 13 of run 1 again (reproducible)
    ge-fuzz --seed 1 --cases 20 --target ascendc  # valid cases on the Ascend C CPU shim
    ge-fuzz --replay out/repro-mismatch-1-13.onnx # re-run a saved reproducer

Each case runs in a child process (``python -m ge_mlir.fuzz._worker``) with a
timeout. Every crash, hang, uncaught exception or mismatch is delta-reduced to
a minimal model saved as ``repro-<class>-<seed>-<i>.onnx`` (+ ``.npz`` inputs,
``.txt`` command and failure text) in ``--out``. Exit status: 0 when no case
failed, 1 when any did, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import threading
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

import numpy as np

from .runner import CLASSES, DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, FAILURES, Result, run_model


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ge-fuzz", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--seed", type=int, default=0, help="run seed (cases are reproducible from seed and index)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--cases", type=int, help="number of cases to run (indices 0..K-1, from --start)")
    g.add_argument("--time-limit", type=float, metavar="SECONDS", help="run cases until this much time passed")
    g.add_argument("--case", type=int, action="append", metavar="I", help="run only case I (repeatable)")
    g.add_argument("--replay", metavar="MODEL.onnx", help="run one saved model (e.g. a reproducer)")
    p.add_argument("--start", type=int, default=0, help="first case index (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="cases run in parallel (default 1)")
    p.add_argument("--target", choices=("cpu", "ascendc"), default="cpu")
    p.add_argument("--out", default="ge-fuzz-out", help="where reproducers and summary.json go")
    p.add_argument("--invalid-ratio", type=float, default=0.3, help="share of mutated (invalid/edge) cases")
    p.add_argument("--max-nodes", type=int, default=8, help="nodes per random graph, at most")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per case (default 120)")
    p.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB,
                   help="address-space limit of each child in MiB (0: none; default 8192)")
    p.add_argument("--no-reduce", action="store_true", help="save failing cases without reducing them")
    p.add_argument("--reduce-budget", type=float, default=600.0, metavar="SECONDS",
                   help="time spent reducing one failure, at most (default 600)")
    p.add_argument("--inputs", metavar="INPUTS.npz", help="--replay: the inputs (default: MODEL.npz if present)")
    p.add_argument("--kind", choices=("valid", "invalid"),
                   help="--replay: how to judge refusals (default: valid if the ONNX checker passes)")
    p.add_argument("--verbose", "-v", action="store_true", help="print reduction steps and full failure text")
    return p


class _Printer:
    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __call__(self, text: str) -> None:
        with self.lock:
            print(text, flush=True)


def _fmt_case(done: int, total: int | None, case, res: Result, width: int = 70) -> str:
    count = f"[{done}/{total}]" if total else f"[{done}]"
    desc = case.description if len(case.description) <= width else case.description[: width - 3] + "..."
    line = f"{count} case {case.index:>4} {case.kind:7} {res.cls:8} {res.seconds:6.1f}s  {desc}"
    if res.failed:
        line += f"\n      -> {res.detail[:300]}"
    return line


def _save_repro(args, case, res: Result, cand, tests: int, reduced: bool) -> Path:
    import onnx

    out, target = Path(args.out), args.target
    out.mkdir(parents=True, exist_ok=True)
    stem = f"repro-{res.cls}-{case.seed}-{case.index}"
    onnx_path = out / f"{stem}.onnx"
    if cand is not None:
        onnx.save(cand.model, onnx_path)
        feeds = cand.feeds
    else:  # not parseable (truncated bytes ...): the bytes themselves
        onnx_path.write_bytes(case.model_bytes)
        feeds = case.feeds
    np.savez(out / f"{stem}.npz", **feeds)
    (out / f"{stem}.orig.onnx").write_bytes(case.model_bytes)
    ops = [n.op_type for n in cand.model.graph.node] if cand is not None else []
    kind_flag = f" --kind {case.kind}"
    text = [
        f"class: {res.cls}",
        f"signature: {res.signature}",
        f"case: seed {case.seed} index {case.index} ({case.kind}): {case.description}",
        f"reduced: {len(ops)} node(s) {' '.join(ops)}" if reduced else "reduced: no (saved as generated)",
        f"reduction tests: {tests}",
        "",
        "reproduce the reduced model:",
        f"  ge-fuzz --replay {onnx_path} --inputs {out / (stem + '.npz')} --target {target}{kind_flag}",
        "regenerate the original case:",
        f"  ge-fuzz --seed {case.seed} --case {case.index} --target {target} --invalid-ratio {args.invalid_ratio}",
        "",
        "failure:",
        res.detail,
    ]
    if res.raw.get("ge", {}).get("traceback"):
        text += ["", "traceback:", res.raw["ge"]["traceback"]]
    if res.stderr_tail.strip():
        text += ["", "child stderr (tail):", res.stderr_tail]
    (out / f"{stem}.txt").write_text("\n".join(text) + "\n")
    return onnx_path


def _reduce_and_save(case, res: Result, args, say) -> Path:
    import onnx

    from .reducer import reduce_model

    try:
        model = onnx.load_from_string(case.model_bytes)
        if not model.graph.node:
            raise ValueError("no nodes")
    except Exception:
        return _save_repro(args, case, res, None, 0, False)
    from .reducer import Candidate

    if args.no_reduce:
        return _save_repro(args, case, res, Candidate(model, case.feeds), 0, False)

    def still_fails(c) -> bool:
        r = run_model(c.model.SerializeToString(), c.feeds, kind=case.kind, target=args.target,
                      compile_only=case.compile_only, timeout=args.timeout, memory_mb=args.memory_mb)
        return r.cls == res.cls and r.signature == res.signature

    try:
        best, tests = reduce_model(model, case.feeds, still_fails, time_budget=args.reduce_budget,
                                   log=say if args.verbose else None)
    except Exception as e:  # a reducer bug must not end the run or lose the failure
        say(f"      reduction failed ({type(e).__name__}: {e}); saving the case as generated")
        return _save_repro(args, case, res, Candidate(model, case.feeds), 0, False)
    return _save_repro(args, case, res, best, tests, True)


def _summary(counts: Counter, elapsed: float, seed: int, failures: list[tuple]) -> str:
    total = sum(counts.values())
    lines = [f"ge-fuzz seed {seed}: {total} case(s) in {elapsed:.1f} s", "",
             f"  {'class':<10}{'count':>7}"]
    lines.append("  " + "-" * 17)
    for c in CLASSES:
        mark = "  <- failure" if c in FAILURES and counts[c] else ""
        lines.append(f"  {c:<10}{counts[c]:>7}{mark}")
    if failures:
        lines += ["", "reproducers:"]
        for idx, cls, path, detail in failures:
            lines.append(f"  case {idx}: {cls}: {path}")
    return "\n".join(lines)


def _replay(args) -> int:
    import onnx

    from .generator import random_feed

    path = Path(args.replay)
    data = path.read_bytes()
    feeds: dict[str, np.ndarray] = {}
    inputs = Path(args.inputs) if args.inputs else path.with_suffix(".npz")
    kind, compile_only = args.kind, False
    try:
        model = onnx.load_from_string(data)
    except Exception:
        model = None
    if inputs.exists():
        with np.load(inputs) as z:
            feeds = {k: z[k] for k in z.files}
    elif model is not None:
        rng = np.random.default_rng(0)
        for vi in model.graph.input:
            tt = vi.type.tensor_type
            shape = [d.dim_value for d in tt.shape.dim]
            if int(np.prod(shape)) > 10**8:
                compile_only = True
                continue
            try:
                feeds[vi.name] = random_feed(rng, str(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)), shape)
            except Exception:
                pass
    if kind is None:
        try:
            onnx.checker.check_model(model, full_check=True)
            kind = "valid"
        except Exception:
            kind = "invalid"
    res = run_model(data, feeds, kind=kind, target=args.target, compile_only=compile_only,
                    timeout=args.timeout, memory_mb=args.memory_mb)
    print(f"{path}: {res.cls} ({kind}, {res.seconds:.1f} s)")
    print(f"  {res.detail}")
    if args.verbose and res.stderr_tail.strip():
        print(res.stderr_tail)
    return 1 if res.failed else 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.jobs < 1 or not 0.0 <= args.invalid_ratio <= 1.0 or args.max_nodes < 1:
        print("ge-fuzz: --jobs >= 1, --max-nodes >= 1 and 0 <= --invalid-ratio <= 1 are required", file=sys.stderr)
        return 2
    if args.replay:
        return _replay(args)
    from .mutators import generate_case

    if args.case:
        indices = iter(args.case)
        total: int | None = len(args.case)
    elif args.cases is not None:
        indices = iter(range(args.start, args.start + args.cases))
        total = args.cases
    elif args.time_limit is not None:
        indices = itertools.count(args.start)
        total = None
    else:
        print("ge-fuzz: give --cases K, --time-limit SECONDS, --case I or --replay MODEL", file=sys.stderr)
        return 2
    say = _Printer()
    out = Path(args.out)
    t0 = time.perf_counter()
    deadline = t0 + args.time_limit if args.time_limit is not None else None
    counts: Counter = Counter()
    failures: list[tuple] = []
    records: list[dict] = []
    done = 0
    say(f"ge-fuzz: seed {args.seed}, target {args.target}, {args.jobs} job(s), "
        f"invalid ratio {args.invalid_ratio:g}, timeout {args.timeout:g} s, out {out}")

    def one(i: int):
        case = generate_case(args.seed, i, args.invalid_ratio, args.max_nodes, profile=args.target)
        res = run_model(case.model_bytes, case.feeds, kind=case.kind, target=args.target,
                        compile_only=case.compile_only, timeout=args.timeout, memory_mb=args.memory_mb)
        repro = None
        if res.failed:
            repro = _reduce_and_save(case, res, args, say)
        return case, res, repro

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = set()

        def submit_more() -> None:
            while len(running) < args.jobs:
                if deadline is not None and time.perf_counter() >= deadline:
                    return
                i = next(indices, None)
                if i is None:
                    return
                running.add(pool.submit(one, i))

        submit_more()
        try:
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    running.discard(fut)
                    case, res, repro = fut.result()
                    done += 1
                    counts[res.cls] += 1
                    say(_fmt_case(done, total, case, res))
                    if repro is not None:
                        failures.append((case.index, res.cls, repro, res.detail))
                        say(f"      reproducer: {repro}")
                    records.append({"index": case.index, "kind": case.kind, "class": res.cls,
                                    "signature": res.signature, "seconds": round(res.seconds, 2),
                                    "description": case.description, "detail": res.detail,
                                    "repro": str(repro) if repro else None})
                submit_more()
        except KeyboardInterrupt:
            say("ge-fuzz: interrupted; waiting for running cases")
            for fut in running:
                fut.cancel()
    elapsed = time.perf_counter() - t0
    summary = _summary(counts, elapsed, args.seed, failures)
    print("\n" + summary, flush=True)
    if failures or args.out != "ge-fuzz-out" or out.exists():
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(
            {"seed": args.seed, "target": args.target, "invalid_ratio": args.invalid_ratio,
             "seconds": round(elapsed, 1), "counts": {c: counts[c] for c in CLASSES},
             "cases": sorted(records, key=lambda r: r["index"])}, indent=1))
    return 1 if any(counts[c] for c in FAILURES) else 0


def entry() -> None:
    sys.exit(main())
