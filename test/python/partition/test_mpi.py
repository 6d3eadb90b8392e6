"""Partitioned models run on MPI ranks (ge-run) and match the one-device run.

Tolerance (fp32): tensor parallelism sums partial products in another order (an all-reduce
of T partial sums), so outputs may differ from the one-device run by a few ulps of the
largest partial sum: |parallel - single| <= 1e-5 * (1 + max |single|). Data and pipeline
parallelism compute the same ops on parts of the batch: the same bound holds (they are
usually exact). Against onnxruntime the usual 1e-4 relative bound of the differential tests.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from .conftest import run_job

CASES = [
    ("bert", {"tensor_parallel": 2}, 2),
    ("bert", {"pipeline_parallel": 2, "num_microbatches": 4}, 2),
    ("bert", {"data_parallel": 2}, 2),
    ("bert", {"tensor_parallel": 2, "pipeline_parallel": 2, "num_microbatches": 2}, 4),
    ("gpt2", {"tensor_parallel": 2}, 2),
    ("gpt2", {"pipeline_parallel": 2, "num_microbatches": 4, "schedule": "1f1b"}, 2),
    ("gpt2", {"data_parallel": 2}, 2),
    ("gpt2", {"tensor_parallel": 2, "pipeline_parallel": 2, "num_microbatches": 2}, 4),
    ("gpt2", {"pipeline_parallel": 2, "virtual_stages": 2, "num_microbatches": 4, "schedule": "interleaved"}, 2),
    ("gpt2", {"data_parallel": 2, "tensor_parallel": 2}, 4),
    ("cnn", {"data_parallel": 2}, 2),
]


def _ids(case):
    name, cfg, n = case
    return f"{name}-" + "-".join(f"{k}{v}" for k, v in cfg.items())


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_parallel_run_matches_one_device(models, tmp_path, case):
    name, cfg, n = case
    m = models[name]
    out = tmp_path / "out.npz"
    svg = tmp_path / "timeline.svg"
    # The CNN case uses the single-key flags (ge-run --dp 2), the others the JSON strategy.
    strategy = ["--dp", "2"] if name == "cnn" else ["--parallel", json.dumps(cfg)]
    r = run_job(n, [str(m.path), *strategy, "--inputs", str(m.inputs), "--output", str(out),
                    "--timeline", str(svg), "--repeat", "2"])
    assert r.returncode == 0, r.stderr[-3000:]
    with np.load(out) as z:
        got = [z[k] for k in z.files]
    assert len(got) == len(m.single)
    for g, s, o in zip(got, m.single, m.ort):
        assert g.shape == s.shape and g.dtype == s.dtype
        assert np.max(np.abs(g - s)) <= 1e-5 * (1 + np.max(np.abs(s))), (name, cfg)
        assert np.allclose(g, o, rtol=1e-4, atol=1e-4 * (1 + np.max(np.abs(o))))
    # The plan report and the measured bubble are printed; the timeline is an SVG per rank.
    assert "execution plan:" in r.stdout and "measured bubble" in r.stdout
    text = svg.read_text()
    assert text.startswith("<svg") and text.count("rank ") >= n


def test_tensor_parallel_holds_a_share_of_the_weights(models):
    from ge_mlir.parallel.driver import plan_parallel

    plan, _ = plan_parallel(str(models["gpt2"].path), {"tensor_parallel": 2, "pipeline_parallel": 2})
    one = plan.single_device_weight_bytes
    for rank, mem in plan.memory.items():
        assert mem["weights"] < 0.6 * one, (rank, mem, one)
    assert {r.kind for r in plan.comm} >= {"all_reduce", "send"}
    assert plan.comm_bytes_per_step() > 0


def test_a_bad_input_ends_every_rank_with_a_clear_error(models, tmp_path):
    m = models["bert"]
    bad = tmp_path / "bad.npz"
    np.savez(bad, input_ids=np.zeros((4, 15), np.int64), attention_mask=np.ones((4, 15), np.int64))
    r = run_job(2, [str(m.path), "--parallel", '{"tensor_parallel": 2}', "--inputs", str(bad)], timeout=180)
    assert r.returncode != 0
    assert "ge-mlir rank" in r.stderr and "ExecutionError" in r.stderr


def test_a_crashing_rank_ends_the_job(models, tmp_path):
    """Rank 1 dies (SIGSEGV) after compiling while rank 0 waits in a collective: the job ends."""
    script = tmp_path / "crash.py"
    script.write_text(
        "import os, signal, sys\n"
        "import numpy as np\n"
        "import ge_mlir\n"
        "from mpi4py import MPI\n"
        f"m = ge_mlir.compile({str(models['bert'].path)!r}, parallel={{'tensor_parallel': 2}}, cache=False)\n"
        "if MPI.COMM_WORLD.Get_rank() == 1:\n"
        "    os.kill(os.getpid(), signal.SIGSEGV)\n"
        "z = np.load(sys.argv[1])\n"
        "m(z['input_ids'], z['attention_mask'])\n")
    from ge_mlir.tools.ge_run import mpi_command

    import subprocess

    cmd, env = mpi_command(2, [])
    cmd = cmd[: cmd.index("-m")] + [str(script), str(models["bert"].inputs)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180, start_new_session=True)
    assert r.returncode != 0


def test_a_user_scheduler_runs_the_pipeline(models, tmp_path):
    """The documented affinity scheduler (docs/parallel.md): two stages per rank, placed in
    contiguous blocks so that most boundary tensors stay inside a rank."""
    plugin = tmp_path / "affinity.py"
    plugin.write_text(
        "import ge_mlir.scheduler as scheduler\n"
        "class Affinity(scheduler.Scheduler):\n"
        "    name = 'affinity'\n"
        "    def assign(self, num_stages, num_ranks, edges):\n"
        "        per = num_stages // num_ranks\n"
        "        return [s // per for s in range(num_stages)]\n"
        "scheduler.register('affinity', Affinity)\n")
    m = models["gpt2"]
    out = tmp_path / "out.npz"
    cfg = {"pipeline_parallel": 2, "virtual_stages": 2, "num_microbatches": 2, "scheduler": "affinity"}
    r = run_job(2, ["--import", str(plugin), str(m.path), "--parallel", json.dumps(cfg), "--inputs",
                    str(m.inputs), "--output", str(out)])
    assert r.returncode == 0, r.stderr[-3000:]
    with np.load(out) as z:
        got = z[z.files[0]]
    assert np.max(np.abs(got - m.single[0])) <= 1e-5 * (1 + np.max(np.abs(m.single[0])))
