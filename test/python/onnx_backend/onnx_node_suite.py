"""The ONNX backend node test suite against ge_mlir.onnx_backend (support module).

Used by ``test_onnx_node_suite.py`` (pytest), ``utils/gen-onnx-node-tests.py``
(data generation) and ``utils/update-onnx-xfail.py`` (regenerates xfail.txt).

* Data: the onnx wheel ships the node test *generators*
  (``onnx/backend/test/case/node``) but not their output. :func:`ensure_data`
  materializes every case with ``onnx.backend.test.cmd_tools.generate_data``'s
  writer (``<case>/model.onnx``, ``test_data_set_0/{input,output}_<i>.pb``, plus
  a ``data.json`` with the case's rtol/atol, as ``onnx.backend.test.loader``
  reads it) into ``build/onnx-node-tests/onnx-<version>/node``; reused while
  complete.
* Running: cases run in worker subprocesses (one case at a time each, several
  workers in parallel), so an LLVM abort or a segfault in one case is recorded as
  that case's failure (``crash: SIGABRT``) and the worker is restarted; a case
  running longer than the timeout is killed (``timeout``).
* Checking: outputs are compared with ``onnx.backend.test.runner.Runner.assert_similar_outputs``
  (exact shape and dtype, ``assert_allclose`` with the case's rtol/atol), what
  ``onnx.backend.test.BackendTest`` does.
* Failure reasons are short categories (``import: unsupported op Loop``,
  ``unlowered: ge.matmul``, ``mismatch: values``, ``crash: SIGSEGV``, ...), the
  comments of ``xfail.txt``.

Environment: ``GE_ONNX_NODE_TESTS_DIR`` (cache root), ``GE_ONNX_SUITE_JOBS``
(workers, default: CPU count), ``GE_ONNX_SUITE_TIMEOUT`` (seconds per case, default 120).
"""

from __future__ import annotations

import json
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Callable, Iterable

REPO = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
XFAIL_PATH = HERE / "xfail.txt"
DEFAULT_TIMEOUT = 120.0
#: A worker is replaced after this many cases (bounds leaks of JIT memory).
CASES_PER_WORKER = 300


# --------------------------------------------------------------------------- data
def onnx_version() -> str:
    import onnx

    return onnx.__version__


def default_cache_root() -> Path:
    env = os.environ.get("GE_ONNX_NODE_TESTS_DIR")
    return Path(env) if env else REPO / "build" / "onnx-node-tests"


def data_dir(cache_root: Path | None = None) -> Path:
    """Where the node cases of the installed onnx version live (may not exist yet)."""
    return (cache_root or default_cache_root()) / f"onnx-{onnx_version()}" / "node"


def _complete(node_dir: Path) -> bool:
    marker = node_dir.parent / "COMPLETE"
    if not marker.is_file():
        return False
    try:
        info = json.loads(marker.read_text())
    except ValueError:
        return False
    return info.get("onnx") == onnx_version() and info.get("cases") == len(list_cases(node_dir))


def generate_data(out_root: Path) -> tuple[int, float]:
    """Writes every node case under ``out_root/node``; returns (count, seconds).

    Uses ``cmd_tools.generate_data`` itself (it writes ``<output>/<kind>/<name>``
    for the cases ``model_test.collect_testcases()`` returns; in onnx 1.23 that
    collects only the real/simple model cases, so it is handed the node cases).
    """
    import argparse
    import types
    import warnings

    from onnx.backend.test import cmd_tools
    from onnx.backend.test.loader import load_node_model_tests

    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow warnings of the cast generators
        cases = [c for c in load_node_model_tests() if c.kind == "node"]
    saved = cmd_tools.model_test
    cmd_tools.model_test = types.SimpleNamespace(collect_testcases=lambda: cases)
    try:
        cmd_tools.generate_data(argparse.Namespace(output=str(out_root)))
    finally:
        cmd_tools.model_test = saved
    for c in cases:  # the tolerances, where onnx.backend.test.loader looks for them
        (out_root / c.kind / c.name / "data.json").write_text(json.dumps({"rtol": c.rtol, "atol": c.atol}))
    return len(cases), time.perf_counter() - start


def ensure_data(cache_root: Path | None = None, *, force: bool = False, log: Callable[[str], None] | None = None) -> Path:
    """The node case directory, generated first if missing or incomplete."""
    node_dir = data_dir(cache_root)
    if not force and _complete(node_dir):
        return node_dir
    version_dir = node_dir.parent
    version_dir.parent.mkdir(parents=True, exist_ok=True)
    # Generate beside the target and rename: concurrent runs never see half a tree.
    tmp = Path(tempfile.mkdtemp(prefix=f".{version_dir.name}-", dir=version_dir.parent))
    try:
        count, seconds = generate_data(tmp)
        (tmp / "COMPLETE").write_text(json.dumps({"onnx": onnx_version(), "cases": count, "seconds": round(seconds, 1)}))
        if version_dir.exists():
            shutil.rmtree(version_dir, ignore_errors=True)
        try:
            os.rename(tmp, version_dir)
        except OSError:
            if not _complete(node_dir):  # lost a race to a concurrent, complete generation?
                raise
        if log:
            log(f"generated {count} ONNX node test cases in {seconds:.1f} s into {version_dir}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return node_dir


def list_cases(node_dir: Path) -> list[str]:
    if not node_dir.is_dir():
        return []
    return sorted(p.name for p in node_dir.iterdir() if (p / "model.onnx").is_file())


def load_case(case_dir: Path):
    """(model, [input data sets], [output data sets], rtol, atol), as the ONNX runner loads them."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(case_dir / "model.onnx"))
    tol = {"rtol": 1e-3, "atol": 1e-7}
    if (case_dir / "data.json").is_file():
        tol.update(json.loads((case_dir / "data.json").read_text()))

    def load(path: Path, tp):
        data = path.read_bytes()
        if tp.HasField("sequence_type"):
            seq = onnx.SequenceProto()
            seq.ParseFromString(data)
            return numpy_helper.to_list(seq)
        if tp.HasField("optional_type"):
            opt = onnx.OptionalProto()
            opt.ParseFromString(data)
            return numpy_helper.to_optional(opt)
        if tp.HasField("map_type"):
            mp = onnx.MapProto()
            mp.ParseFromString(data)
            return numpy_helper.to_dict(mp)
        t = onnx.TensorProto()
        t.ParseFromString(data)
        return numpy_helper.to_array(t)

    sets = []
    for ds in sorted(case_dir.glob("test_data_set_*")):
        n_in = len(list(ds.glob("input_*.pb")))
        n_out = len(list(ds.glob("output_*.pb")))
        ins = [load(ds / f"input_{i}.pb", model.graph.input[i].type) for i in range(n_in)]
        outs = [load(ds / f"output_{i}.pb", model.graph.output[i].type) for i in range(n_out)]
        sets.append((ins, outs))
    return model, sets, tol["rtol"], tol["atol"]


# ---------------------------------------------------------------- classification
_UNLOWERED = re.compile(r"op '([\w.]+)' was not lowered")


def _first_line(text: str, limit: int = 90) -> str:
    line = next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")
    line = re.sub(r"\s+", " ", line)
    line = re.sub(r"@[\w.$-]+", "@fn", line)  # function names repeat the case name
    return line if len(line) <= limit else line[: limit - 3] + "..."


def classify(exc: BaseException, stage: str) -> str:
    """A short reason category for a failure (``stage``: prepare, run or check)."""
    from ge_mlir.errors import GeMlirError, OnnxImportError, UnsupportedOpsError
    from ge_mlir.errors import ExecutionError

    if isinstance(exc, UnsupportedOpsError):
        if exc.unsupported:
            ops = sorted({(f"{d}::" if d else "") + op for (d, op, _) in exc.unsupported})
            return "import: unsupported op " + ", ".join(ops)
        node, op_type, why = exc.refusals[0]
        return f"import: refused {op_type}: {_first_line(why, 70)}"
    if isinstance(exc, OnnxImportError):
        return f"import: {_first_line(exc.message)}"
    if isinstance(exc, ExecutionError):
        m = _UNLOWERED.search(str(exc))
        if m:
            return f"unlowered: {m.group(1)}"
        diag = exc.diagnostics[0].message if exc.diagnostics else exc.message
        return f"{'compile' if stage == 'prepare' else 'run'}: {_first_line(diag)}"
    if isinstance(exc, GeMlirError):
        diag = exc.diagnostics[0].message if exc.diagnostics else exc.message
        return f"{'compile' if stage == 'prepare' else stage}: {type(exc).__name__}: {_first_line(diag)}"
    if isinstance(exc, AssertionError) and stage == "check":
        text = str(exc)
        if "incorrect shape" in text:
            return "mismatch: shape"
        if "Not equal to tolerance" in text:
            return "mismatch: values"
        if "Items are not equal" in text or "dtype" in text:
            return "mismatch: dtype"
        return f"mismatch: {_first_line(text, 60)}"
    return f"error: {type(exc).__name__} in {stage}: {_first_line(str(exc), 70)}"


#: Each case is compiled once and run with its inputs as run-time values, as ge_mlir.compile users
#: do. GE_NODE_SUITE_SPECIALIZE=1 lets ge_mlir.onnx_backend compile a graph input in as its value
#: when an op needs it at import (one compile per value set) -- a survey, not what CI counts.
SPECIALIZE = os.environ.get("GE_NODE_SUITE_SPECIALIZE", "0") == "1"


def run_case(case_dir: Path) -> dict:
    """Runs one case in this process; returns its result record."""
    import numpy as np
    from onnx.backend.test.runner import Runner

    from ge_mlir.onnx_backend import GeMlirBackend

    start = time.perf_counter()
    stage = "load"
    rec: dict = {"name": case_dir.name}
    rep = None
    try:
        model, sets, rtol, atol = load_case(case_dir)
        stage = "prepare"
        rep = GeMlirBackend.prepare(model, "CPU", specialize_inputs=SPECIALIZE)
        for inputs, expected in sets:
            stage = "run"
            got = list(rep.run(inputs))
            stage = "check"
            Runner.assert_similar_outputs(expected, [np.asarray(g) for g in got], rtol=rtol, atol=atol)
        rec.update(status="pass")
    except Exception as e:  # noqa: BLE001 - every failure is a result
        rec.update(
            status="fail",
            reason=classify(e, stage),
            detail="".join(traceback.format_exception_only(type(e), e))[-3000:],
        )
    if rep is not None and getattr(rep, "specialized_inputs", None):
        rec["specialized"] = list(rep.specialized_inputs)  # graph inputs compiled in as their values
    rec["seconds"] = round(time.perf_counter() - start, 3)
    return rec


# ------------------------------------------------------------------------ worker
def worker_main() -> None:
    """Reads case directories from stdin; writes one JSON line per case to the
    original stdout (C-level stdout is redirected to stderr so that anything
    MLIR/LLVM prints cannot corrupt the protocol)."""
    import faulthandler
    import warnings

    warnings.simplefilter("ignore")
    faulthandler.enable()
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import ge_mlir  # noqa: F401  (load once, before the first case)
    import ge_mlir.onnx_backend  # noqa: F401

    proto.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        case = line.strip()
        if not case:
            continue
        print(f"=== {Path(case).name}", file=sys.stderr, flush=True)
        rec = run_case(Path(case))
        proto.write(json.dumps(rec) + "\n")


WORKER_COMMAND = [sys.executable, str(Path(__file__).resolve()), "worker"]


class _Worker:
    def __init__(self, log_path: Path, command: list[str] = WORKER_COMMAND) -> None:
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            cwd=str(REPO),
        )
        self.done = 0
        ready = self._read(120.0)
        if ready is None or not ready.get("ready"):
            self.kill()
            raise RuntimeError(f"ONNX suite worker did not start; see {log_path}:\n{self._tail(0)}")

    def _read(self, timeout: float) -> dict | None:
        r, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not r:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else {}

    def _tail(self, offset: int) -> str:
        self.log.flush()
        try:
            with open(self.log_path, "rb") as f:
                f.seek(offset)
                text = f.read().decode(errors="replace")
        except OSError:
            return ""
        return text[-3000:]

    def run(self, case_dir: Path, timeout: float) -> dict:
        offset = os.path.getsize(self.log_path)
        self.proc.stdin.write((str(case_dir) + "\n").encode())
        self.proc.stdin.flush()
        start = time.perf_counter()
        rec = self._read(timeout)
        elapsed = round(time.perf_counter() - start, 3)
        if rec:
            self.done += 1
            return rec
        if rec is None:  # timed out
            self.kill()
            return {"name": case_dir.name, "status": "fail", "reason": f"timeout: >{timeout:g} s",
                    "detail": self._tail(offset), "seconds": elapsed}
        code = self.proc.wait()
        try:
            sig = f"crash: {signal.Signals(-code).name}" if code < 0 else f"crash: exit {code}"
        except ValueError:
            sig = f"crash: signal {-code}"
        return {"name": case_dir.name, "status": "fail", "reason": sig, "detail": self._tail(offset), "seconds": elapsed}

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        if self.alive():
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except Exception:  # noqa: BLE001
                self.kill()
        self.log.close()

    def kill(self) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait()


class SuiteRun:
    """Runs cases in ``jobs`` worker subprocesses; results arrive as they finish.

        run = SuiteRun(node_dir, names).start()
        rec = run.result("test_relu")     # blocks until that case has run
        results = run.wait()              # every submitted case
        run.close()

    ``result`` of a name not given up front submits it (used under pytest-xdist,
    where each xdist process runs only its own share of the cases).
    """

    def __init__(self, node_dir: Path, names: Iterable[str], *, jobs: int | None = None,
                 timeout: float | None = None, on_result: Callable[[dict], None] | None = None,
                 worker_command: list[str] | None = None) -> None:
        self.worker_command = worker_command or WORKER_COMMAND
        self.node_dir = node_dir
        self.names = list(dict.fromkeys(names))
        self.jobs = max(1, jobs or int(os.environ.get("GE_ONNX_SUITE_JOBS", 0)) or os.cpu_count() or 1)
        self.jobs = min(self.jobs, max(1, len(self.names)))
        self.timeout = timeout or float(os.environ.get("GE_ONNX_SUITE_TIMEOUT", DEFAULT_TIMEOUT))
        self.on_result = on_result
        self.results: dict[str, dict] = {}
        self._events: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._logdir = Path(tempfile.mkdtemp(prefix="ge-onnx-suite-"))
        self._start_failures = 0  # consecutive worker start failures (all threads)
        self._start_error = ""
        self.started = self.finished = 0.0

    def start(self) -> "SuiteRun":
        self.started = time.perf_counter()
        for n in self.names:
            self.submit(n)
        for i in range(self.jobs):
            t = threading.Thread(target=self._loop, args=(i,), daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def submit(self, name: str) -> None:
        with self._lock:
            if name in self._events:
                return
            self._events[name] = threading.Event()
        self._queue.put(name)

    def _deliver(self, rec: dict) -> None:
        self.results[rec["name"]] = rec
        if self.on_result:
            self.on_result(rec)
        self._events[rec["name"]].set()

    def _loop(self, index: int) -> None:
        worker: _Worker | None = None
        try:
            while True:
                name = self._queue.get()
                if name is None:
                    break
                try:
                    if worker is None or not worker.alive() or worker.done >= CASES_PER_WORKER:
                        if worker is not None:
                            worker.close()
                            worker = None
                        if self._start_failures >= 3:  # broken environment: fail fast, same reason
                            raise RuntimeError(self._start_error)
                        try:
                            worker = _Worker(self._logdir / f"worker{index}.log", self.worker_command)
                        except RuntimeError as e:
                            self._start_failures += 1
                            self._start_error = str(e)
                            raise
                        self._start_failures = 0
                    rec = worker.run(self.node_dir / name, self.timeout)
                except Exception as e:  # noqa: BLE001 - the harness itself failed
                    rec = {"name": name, "status": "fail", "reason": f"harness: {type(e).__name__}",
                           "detail": str(e)[-3000:], "seconds": 0.0}
                self._deliver(rec)
        finally:
            if worker is not None:
                worker.close()

    def result(self, name: str) -> dict:
        self.submit(name)
        self._events[name].wait()
        return self.results[name]

    def cancel(self) -> None:
        """Drops the cases not started yet (their ``result`` would block forever)."""
        while True:
            try:
                name = self._queue.get_nowait()
            except queue.Empty:
                return
            if name is not None:
                self._deliver({"name": name, "status": "fail", "reason": "harness: cancelled", "seconds": 0.0})

    def wait(self) -> dict[str, dict]:
        """Waits for every submitted case; no more can be submitted afterwards."""
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            t.join()
        self._threads.clear()
        self.finished = time.perf_counter()
        return self.results

    def close(self) -> None:
        self.wait()
        shutil.rmtree(self._logdir, ignore_errors=True)

    @property
    def wall_seconds(self) -> float:
        return (self.finished or time.perf_counter()) - self.started


# ------------------------------------------------------------------------- xfail
def read_xfail(path: Path = XFAIL_PATH) -> dict[str, str]:
    """``{case: reason}`` from xfail.txt (``name  # reason`` lines; blank/comment lines ignored)."""
    entries: dict[str, str] = {}
    if not path.is_file():
        return entries
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition("#")
        name = name.strip()
        if name in entries:
            raise ValueError(f"{path}: {name} is listed twice")
        entries[name] = reason.strip()
    return entries


XFAIL_HEADER = """\
# ONNX backend node tests (onnx {version}) that ge-mlir is expected to fail.
# One case per line: `name  # reason category`. Generated by utils/update-onnx-xfail.py
# from a real run; test/python/onnx_backend/test_onnx_node_suite.py fails when a
# listed case passes (remove it) or an unlisted case fails, so this list only shrinks.
# Categories: `import: unsupported op X` / `import: refused X: why` / `import: ...`
# (the importer), `unlowered: ge.x` (first op ge-lower-to-linalg leaves), `compile: ...`,
# `run: ...`, `mismatch: values|shape|dtype` (wrong result), `crash: SIGNAL`,
# `timeout: ...`, `error: ...` (an unexpected Python exception).
"""


def write_xfail(results: dict[str, dict], path: Path = XFAIL_PATH) -> int:
    failing = sorted((n, r) for n, r in results.items() if r["status"] != "pass")
    lines = [XFAIL_HEADER.format(version=onnx_version())]
    lines += [f"{n}  # {r['reason']}" for n, r in failing]
    path.write_text("\n".join(lines) + "\n")
    return len(failing)


def summarize(results: dict[str, dict], top: int = 25) -> str:
    """Counts and a failure breakdown by category (what to fix next)."""
    from collections import Counter

    fails = {n: r for n, r in results.items() if r["status"] != "pass"}
    out = [f"{len(results)} cases: {len(results) - len(fails)} pass, {len(fails)} fail"]
    spec = sum(1 for r in results.values() if r["status"] == "pass" and r.get("specialized"))
    out.append(f"passing with value-specialized inputs (shape/axes/pads... given as graph inputs): {spec}")
    kinds = Counter(r["reason"].split(":", 1)[0] for r in fails.values())
    out.append("by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    unlowered = Counter(r["reason"].split(": ", 1)[1] for r in fails.values() if r["reason"].startswith("unlowered:"))
    out.append(f"unlowered ops (first unlowered op per case; {sum(unlowered.values())} cases):")
    out += [f"  {v:4d}  {k}" for k, v in unlowered.most_common(top)]
    unsup = Counter()
    for r in fails.values():
        if r["reason"].startswith("import: unsupported op "):
            for op in r["reason"][len("import: unsupported op "):].split(", "):
                unsup[op] += 1
    out.append(f"unsupported ONNX ops at import ({sum(unsup.values())} case-ops):")
    out += [f"  {v:4d}  {k}" for k, v in unsup.most_common(top)]
    other_import = Counter(r["reason"] for r in fails.values()
                           if r["reason"].startswith("import:") and not r["reason"].startswith("import: unsupported op"))
    out.append(f"other import failures ({sum(other_import.values())} cases):")
    out += [f"  {v:4d}  {k}" for k, v in other_import.most_common(top)]
    for kind in ("mismatch", "crash", "timeout", "compile", "run", "error", "harness"):
        names = sorted(n for n, r in fails.items() if r["reason"].startswith(kind + ":"))
        if names:
            out.append(f"{kind} ({len(names)}):")
            out += [f"  {n}  # {fails[n]['reason']}" for n in names]
    return "\n".join(out)


def save_results(results: dict[str, dict], path: Path, **meta) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"onnx": onnx_version(), **meta, "results": results}, indent=1, sort_keys=True))


def load_results(path: Path) -> dict[str, dict]:
    return json.loads(path.read_text())["results"]


def results_path(cache_root: Path | None = None) -> Path:
    return data_dir(cache_root).parent / "last-run.json"


if __name__ == "__main__" and sys.argv[1:] == ["worker"]:
    worker_main()
