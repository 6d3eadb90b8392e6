"""``python -m ge_mlir.parallel``: the program every MPI rank runs (``ge-run`` starts it).

    mpiexec -n 4 python -m ge_mlir.parallel model.onnx --parallel cfg.json --inputs in.npz --output out.npz
    mpiexec -n 4 python -m ge_mlir.parallel model.onnx --tp 2 --pp 2 --microbatches 4 --schedule 1f1b ...

Each rank compiles its part of the model (the strategy's ``world_size`` ranks),
all run the inputs (rank 0 reads them; missing ones are seeded random data with
``--random-inputs``), and rank 0 writes the full outputs, the plan report, the
measured bubble and, with ``--timeline``, an SVG Gantt chart. ``--repeat N``
runs N times and reports the median wall time. A rank that fails prints its
error and aborts the job (exit status 1 on every rank).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence

import numpy as np


def build_parser(prog: str = "python -m ge_mlir.parallel") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="ONNX model (or ge IR)")
    p.add_argument("--parallel", default=None, help="strategy: a JSON file or JSON text (docs/parallel.md)")
    p.add_argument("--tp", type=int, default=None, help="tensor_parallel (overrides --parallel's)")
    p.add_argument("--dp", type=int, default=None, help="data_parallel")
    p.add_argument("--pp", type=int, default=None, help="pipeline_parallel")
    p.add_argument("--microbatches", type=int, default=None, help="num_microbatches")
    p.add_argument("--schedule", default=None, help="gpipe, 1f1b, interleaved, sequential or a registered one")
    p.add_argument("--virtual-stages", type=int, default=None, help="virtual_stages (interleaved)")
    p.add_argument("--boundaries", default=None, help="stage boundaries: comma-separated node names")
    p.add_argument("--config", default=None, help="a config file (ge options)")
    p.add_argument("--inputs", default=None, help=".npz of inputs by name")
    p.add_argument("--random-inputs", action="store_true", help="fill missing inputs with seeded random data")
    p.add_argument("--output", default=None, help="write the outputs (rank 0) to this .npz")
    p.add_argument("--repeat", type=int, default=1, help="runs; the median wall time is reported")
    p.add_argument("--timeline", default=None, help="write an SVG Gantt chart of the last run")
    p.add_argument("--trace", default=None, help="write a Chrome/Perfetto trace (JSON) of the last run")
    p.add_argument("--plan-json", default=None, help="write the execution plan as JSON")
    p.add_argument("--import", dest="imports", action="append", default=[],
                   help="a Python file or module to import first (e.g. one registering a scheduler)")
    p.add_argument("--quiet", action="store_true")
    return p


def _import(spec: str) -> None:
    import importlib
    import importlib.util
    from pathlib import Path

    if spec.endswith(".py"):
        path = Path(spec)
        mod_spec = importlib.util.spec_from_file_location(path.stem, path)
        if mod_spec is None or mod_spec.loader is None:
            raise ImportError(f"cannot import {spec}")
        module = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(module)
    else:
        importlib.import_module(spec)


def strategy_from_args(args: argparse.Namespace) -> dict:
    """The strategy of ``--parallel`` with the single-key flags applied on top (validated)."""
    from ge_mlir.partition import parse_strategy

    base = parse_strategy(args.parallel).to_dict() if args.parallel else {}
    flags = {"tensor_parallel": args.tp, "data_parallel": args.dp, "pipeline_parallel": args.pp,
             "num_microbatches": args.microbatches, "schedule": args.schedule,
             "virtual_stages": args.virtual_stages,
             "stage_boundaries": args.boundaries.split(",") if args.boundaries else None}
    base.update({k: v for k, v in flags.items() if v is not None})
    if "schedule" in base and args.schedule is not None:
        base.pop("scheduler", None)
    parse_strategy(base)
    return base


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from mpi4py import MPI

    import ge_mlir
    from ge_mlir.errors import GeMlirError
    from ge_mlir.parallel.runtime import abort_world

    comm = MPI.COMM_WORLD
    rank = comm.Get_rank()
    try:
        for spec in args.imports:
            _import(spec)
        options = {"config": args.config} if args.config else None
        model = ge_mlir.compile(args.model, options=options, parallel=strategy_from_args(args), cache=False)
        from ge_mlir.parallel.runtime import ParallelCompiledModel

        if not isinstance(model, ParallelCompiledModel):
            raise GeMlirError("the strategy runs on one device: use ge-compile --run")
        inputs: dict[str, np.ndarray] = {}
        if rank == 0:
            if args.inputs:
                with np.load(args.inputs) as z:
                    inputs = {k: z[k] for k in z.files}
            missing = [n for n in model.input_names if n not in inputs]
            if missing and not args.random_inputs:
                raise GeMlirError(f"missing input(s) {', '.join(missing)} (give --inputs or --random-inputs)")
            if missing:
                from ge_mlir.irutils.types import random_arrays

                inputs.update(random_arrays([s for s in model.plan.inputs if s.name in missing], 0))
        walls = []
        outs = None
        for _ in range(max(1, args.repeat)):
            outs = model(**inputs) if rank == 0 else model()
            walls.append(model.last_wall)
        memory = model.memory_by_rank()
        if rank == 0:
            stats = model.stats()
            if not args.quiet:
                print(model.plan.report())
                print(f"wall time: median {statistics.median(walls) * 1e3:.3f} ms over {len(walls)} run(s); "
                      f"measured bubble {stats.get('measured_bubble', 0.0):.3f} "
                      f"(theoretical {model.plan.theoretical_bubble():.3f})")
                for r, m in sorted(memory.items()):
                    print(f"rank {r} compiled: weights {m['weights']} B, arena {m['arena']} B (memory plan), "
                          f"communication buffers {m['comm_buffers']} B")
                for name, o in zip(model.output_names, outs):
                    print(f"output {name}: shape {list(o.shape)} {o.dtype}")
            if args.output:
                np.savez(args.output, **dict(zip(model.output_names, outs)))
            if args.timeline:
                model.write_timeline(args.timeline)
            if args.trace:
                from ge_mlir.partition.timeline import write_trace

                write_trace(model.timeline, args.trace)
            if args.plan_json:
                with open(args.plan_json, "w", encoding="utf-8") as f:
                    f.write(model.plan.json())
        comm.Barrier()
        return 0
    except Exception as e:  # every rank must leave, never wait for a dead one
        abort_world(comm, e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
