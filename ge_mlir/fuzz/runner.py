"""Runs one case in a child process with a timeout and classifies the outcome.

Classes: ``ok``, ``refused`` (a GeMlirError where one is acceptable), ``crash``
(the child died by a signal or exited non-zero without a Python exception),
``hang`` (timeout), ``uncaught`` (a Python exception that is not a
GeMlirError), ``mismatch`` (numerics or accept/refuse verdict differ from
onnxruntime). The first two are fine; the rest are failures.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

CLASSES = ("ok", "refused", "crash", "hang", "uncaught", "mismatch")
FAILURES = ("crash", "hang", "uncaught", "mismatch")
DEFAULT_TIMEOUT = 120.0
DEFAULT_MEMORY_MB = 8192


@dataclass
class Result:
    cls: str
    signature: str
    detail: str
    seconds: float
    returncode: int | None = None
    stderr_tail: str = ""
    raw: dict = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.cls in FAILURES


def _signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def run_model(model_bytes: bytes, feeds: dict[str, np.ndarray], *, kind: str = "valid", target: str = "cpu",
              compile_only: bool = False, timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
              hook: str | None = None, keep_dir: Path | None = None) -> Result:
    """Runs ``python -m ge_mlir.fuzz._worker`` on one model and classifies it.

    ``hook`` is for the fuzzer's own tests only ("abort", "segv", "exit",
    "sleep", "raise"): the child then really aborts, segfaults, exits, hangs or
    reports an uncaught exception.
    """
    with tempfile.TemporaryDirectory(prefix="ge-fuzz-") as tmp:
        d = Path(keep_dir) if keep_dir is not None else Path(tmp)
        d.mkdir(parents=True, exist_ok=True)
        (d / "model.onnx").write_bytes(model_bytes)
        np.savez(d / "inputs.npz", **feeds)
        meta = {"kind": kind, "target": target, "compile_only": compile_only, "memory_mb": memory_mb, "hook": hook}
        (d / "meta.json").write_text(json.dumps(meta))
        for stale in ("result.json", "stderr.txt"):
            (d / stale).unlink(missing_ok=True)
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", "1")
        env["PYTHONFAULTHANDLER"] = "1"  # a native crash prints the Python stack to stderr
        t0 = time.perf_counter()
        with open(d / "stderr.txt", "wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "ge_mlir.fuzz._worker", str(d)],
                                    stdout=err, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True, env=env)
            try:
                rc = proc.wait(timeout=timeout)
                hung = False
            except subprocess.TimeoutExpired:
                hung = True
                # the child leads its own process group (g++ for ascendc included)
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                rc = proc.wait()
        seconds = time.perf_counter() - t0
        tail = (d / "stderr.txt").read_bytes()[-4000:].decode("utf-8", "replace")
        res_path = d / "result.json"
        raw = json.loads(res_path.read_text()) if res_path.exists() else {}
        if hung:
            return Result("hang", "hang", f"no result after {timeout:g} s (killed)", seconds, None, tail, raw)
        if rc != 0 and raw:
            why = _signal_name(-rc) if rc < 0 else f"exit status {rc}"
            return Result("crash", f"exit:{why}", f"child died ({why}) after classifying the case as "
                          f"{raw.get('class')}: {raw.get('detail')}", seconds, rc, tail, raw)
        if rc < 0:
            name = _signal_name(-rc)
            return Result("crash", f"signal:{name}", f"child killed by {name}: {_last_lines(tail)}", seconds, rc,
                          tail, raw)
        if rc == 70 and not raw:
            return Result("uncaught", "fuzz-worker", f"the fuzz worker itself failed: {_last_lines(tail)}", seconds,
                          rc, tail, raw)
        if rc != 0 or not raw:
            return Result("crash", f"exit:{rc}", f"child exited with status {rc} without a result: "
                          f"{_last_lines(tail)}", seconds, rc, tail, raw)
        return Result(raw["class"], raw["signature"], raw["detail"], seconds, rc, tail, raw)


def _last_lines(text: str, n: int = 3) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])[-500:] if lines else "(no output)"
