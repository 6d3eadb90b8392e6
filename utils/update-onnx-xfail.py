#!/usr/bin/env python3
"""Regenerates test/python/onnx_backend/xfail.txt from a real run of the ONNX node suite.

Runs every ONNX backend node case through ge_mlir.onnx_backend (worker
subprocesses, crash-isolated, as the pytest suite does), writes every failing
case with its reason category to xfail.txt, saves the raw results to
build/onnx-node-tests/onnx-<version>/last-run.json and prints the failure
breakdown (top unlowered ops, unsupported import ops, mismatches, crashes).

    utils/update-onnx-xfail.py                    # run all cases, rewrite xfail.txt
    utils/update-onnx-xfail.py --from-results     # reuse the last full pytest/update run
    utils/update-onnx-xfail.py --dry-run          # only print the breakdown
    utils/update-onnx-xfail.py -k relu            # run a subset, print it (never writes)
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "python" / "onnx_backend"))
import onnx_node_suite as suite  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from-results", nargs="?", const=True, default=None, metavar="JSON",
                    help="use saved results (default file: the last full run) instead of running")
    ap.add_argument("--dry-run", action="store_true", help="print the breakdown, do not write xfail.txt")
    ap.add_argument("-k", dest="substring", help="only cases whose name contains this (implies --dry-run)")
    ap.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: CPU count)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per case")
    ap.add_argument("-o", "--output", type=Path, default=suite.XFAIL_PATH, help="xfail file to write")
    ap.add_argument("--top", type=int, default=25, help="rows per breakdown table")
    args = ap.parse_args()

    if args.from_results:
        path = suite.results_path() if args.from_results is True else Path(args.from_results)
        results = suite.load_results(path)
        print(f"results from {path}")
    else:
        node_dir = suite.ensure_data(log=print)
        names = suite.list_cases(node_dir)
        if args.substring:
            names = [n for n in names if args.substring in n]
        done = [0]

        def progress(rec: dict) -> None:
            done[0] += 1
            if done[0] % 100 == 0 or done[0] == len(names):
                print(f"  {done[0]}/{len(names)}", file=sys.stderr, flush=True)

        run = suite.SuiteRun(node_dir, names, jobs=args.jobs, timeout=args.timeout, on_result=progress).start()
        results = run.wait()
        run.close()
        print(f"ran {len(names)} cases with {run.jobs} workers in {run.wall_seconds:.1f} s")
        if not args.substring:
            suite.save_results(results, suite.results_path(), wall_seconds=round(run.wall_seconds, 1),
                               jobs=run.jobs, finished=time.strftime("%Y-%m-%d %H:%M:%S"))
    print(suite.summarize(results, top=args.top))
    if args.dry_run or args.substring:
        return 0
    all_cases = suite.list_cases(suite.data_dir())
    if set(results) != set(all_cases):
        print(f"not writing {args.output}: the results cover {len(results)} of {len(all_cases)} cases", file=sys.stderr)
        return 1
    n = suite.write_xfail(results, args.output)
    print(f"wrote {args.output} ({n} expected failures)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
