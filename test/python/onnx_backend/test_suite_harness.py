"""The ONNX node suite's worker pool: a crashing or hanging case fails alone
(``crash: SIGSEGV``, ``timeout``), the worker is replaced and the other cases
still run. Uses a stand-in worker speaking the same protocol (no MLIR)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import onnx_node_suite as suite  # noqa: E402

FAKE_WORKER = textwrap.dedent(
    """
    import json, os, signal, sys, time
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name = os.path.basename(line.strip())
        if "segv" in name:
            print("about to crash", file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGSEGV)
        if "abort" in name:
            os.abort()
        if "hang" in name:
            time.sleep(60)
        if "exit" in name:
            sys.exit(3)
        status = "pass" if "ok" in name else "fail"
        rec = {"name": name, "status": status, "seconds": 0.0}
        if status == "fail":
            rec["reason"] = "mismatch: values"
        print(json.dumps(rec), flush=True)
    """
)


def test_crashes_and_hangs_fail_only_their_case(tmp_path):
    script = tmp_path / "fake_worker.py"
    script.write_text(FAKE_WORKER)
    names = ["a_ok", "b_segv", "c_ok", "d_abort", "e_hang", "f_bad", "g_exit", "h_ok"]
    run = suite.SuiteRun(tmp_path, names, jobs=2, timeout=3, worker_command=[sys.executable, str(script)]).start()
    results = run.wait()
    run.close()
    reasons = {n: (r["status"], r.get("reason")) for n, r in results.items()}
    assert reasons == {
        "a_ok": ("pass", None),
        "b_segv": ("fail", "crash: SIGSEGV"),
        "c_ok": ("pass", None),
        "d_abort": ("fail", "crash: SIGABRT"),
        "e_hang": ("fail", "timeout: >3 s"),
        "f_bad": ("fail", "mismatch: values"),
        "g_exit": ("fail", "crash: exit 3"),
        "h_ok": ("pass", None),
    }
    assert "about to crash" in results["b_segv"]["detail"]


def test_xfail_file_round_trip(tmp_path):
    results = {
        "test_b": {"name": "test_b", "status": "fail", "reason": "unlowered: ge.matmul"},
        "test_a": {"name": "test_a", "status": "pass"},
        "test_c": {"name": "test_c", "status": "fail", "reason": "crash: SIGABRT"},
    }
    path = tmp_path / "xfail.txt"
    assert suite.write_xfail(results, path) == 2
    assert suite.read_xfail(path) == {"test_b": "unlowered: ge.matmul", "test_c": "crash: SIGABRT"}


def test_cases_submitted_on_demand(tmp_path):
    script = tmp_path / "fake_worker.py"
    script.write_text(FAKE_WORKER)
    run = suite.SuiteRun(tmp_path, [], worker_command=[sys.executable, str(script)]).start()
    assert run.result("x_ok")["status"] == "pass"
    assert run.result("y_segv")["reason"] == "crash: SIGSEGV"
    assert run.result("z_ok")["status"] == "pass"
    run.close()
    assert set(run.results) == {"x_ok", "y_segv", "z_ok"}


def test_broken_worker_fails_fast(tmp_path):
    script = tmp_path / "broken_worker.py"
    script.write_text("raise SystemExit('cannot import the backend')\n")
    names = [f"case{i}" for i in range(20)]
    run = suite.SuiteRun(tmp_path, names, jobs=2, worker_command=[sys.executable, str(script)]).start()
    results = run.wait()
    run.close()
    assert {r["reason"] for r in results.values()} == {"harness: RuntimeError"}
    assert "cannot import the backend" in results["case19"]["detail"]
