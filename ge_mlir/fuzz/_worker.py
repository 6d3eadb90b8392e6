"""The per-case child process: ``python -m ge_mlir.fuzz._worker CASE_DIR``.

``CASE_DIR`` holds ``model.onnx``, ``inputs.npz`` and ``meta.json`` (kind,
target, compile_only, memory limit, test hook). The worker runs onnxruntime
(the oracle) first, then ``ge_mlir.compile`` and the compiled model, compares,
and writes ``result.json`` with the class (ok, refused, uncaught, mismatch) and
the details. A child that dies (signal, abort, exit without a result) or runs
past the parent's timeout is classified by the parent (crash, hang).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import traceback
from pathlib import Path

import numpy as np

#: tolerances: |got - want| <= atol * max(1, max|want|) + rtol * |want|
TOLERANCES = {
    "float32": (1e-4, 1e-5),
    "float16": (1e-2, 1e-2),
    "float64": (1e-7, 1e-9),
}


def compare(got: np.ndarray, want: np.ndarray, tolerance_of: str | None = None) -> str | None:
    """None when ``got`` matches ``want``; else a one-line description.

    ``tolerance_of`` names the dtype whose tolerance applies to float outputs
    (default: the output's own); see :func:`computes_in_float16`."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape} != onnxruntime {want.shape}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} != onnxruntime {want.dtype}"
    if want.size == 0:
        return None
    if want.dtype.kind != "f":
        bad = got != want
        if bad.any():
            i = tuple(np.argwhere(bad)[0])
            return f"{int(bad.sum())} of {want.size} elements differ (at {i}: {got[i]!r} != {want[i]!r})"
        return None
    rtol, atol = TOLERANCES[tolerance_of or str(want.dtype)]
    g, w = got.astype(np.float64), want.astype(np.float64)
    gn, wn = np.isnan(g), np.isnan(w)
    if (gn != wn).any():
        i = tuple(np.argwhere(gn != wn)[0])
        return f"NaN positions differ (at {i}: {g[i]} vs onnxruntime {w[i]})"
    gi, wi = np.isinf(g), np.isinf(w)
    if (gi != wi).any() or (g[wi] != w[wi]).any():
        i = tuple(np.argwhere((gi != wi) | (wi & (g != w)))[0])
        return f"infinities differ (at {i}: {g[i]} vs onnxruntime {w[i]})"
    fin = ~(wn | wi)
    scale = max(1.0, float(np.abs(w[fin]).max())) if fin.any() else 1.0
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.where(fin, np.abs(g - w), 0.0)
        bad = err > atol * scale + rtol * np.where(fin, np.abs(w), 0.0)
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        return (f"{int(bad.sum())} of {want.size} elements differ beyond rtol={rtol} atol={atol}*{scale:.3g} "
                f"(max abs err {err.max():.3g}; at {i}: {g[i]!r} vs onnxruntime {w[i]!r})")
    return None


def computes_in_float16(model_bytes: bytes) -> bool:
    """Whether any value of the model is float16.

    onnxruntime's CPU provider has no float16 kernels for most ops: it casts
    to float32 around them and then drops an f16->f32 Cast pair it inserted,
    so a float32 output computed from float16 values can lack the float16
    rounding ONNX prescribes (ge-mlir keeps it). Such outputs are compared
    at float16 tolerance."""
    import onnx

    m = onnx.load_from_string(model_bytes)
    g, f16 = m.graph, onnx.TensorProto.FLOAT16
    if any(v.type.tensor_type.elem_type == f16 for v in (*g.input, *g.output, *g.value_info)):
        return True
    if any(t.data_type == f16 for t in g.initializer):
        return True
    for n in g.node:
        for a in n.attribute:
            if (a.name == "to" and a.i == f16) or (a.name == "value" and a.t.data_type == f16):
                return True
    return False


def _short(e: BaseException, limit: int = 600) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= limit else text[:limit] + " ..."


def run_onnxruntime(model_bytes: bytes, feeds: dict, compile_only: bool) -> dict:
    from .generator import ort_session

    try:
        sess = ort_session(model_bytes)
    except Exception as e:
        return {"status": "load_error", "error": _short(e)}
    if compile_only:
        return {"status": "loaded"}
    try:
        names = [o.name for o in sess.get_outputs()]
        outs = sess.run(None, {i.name: feeds[i.name] for i in sess.get_inputs() if i.name in feeds})
    except Exception as e:
        return {"status": "run_error", "error": _short(e)}
    return {"status": "ok", "names": names, "outputs": outs}


def run_ge(model_bytes: bytes, feeds: dict, meta: dict, case_dir: Path) -> dict:
    """ge-mlir's verdict; 'uncaught' for any exception that is not a GeMlirError."""
    phase = "import"
    try:
        import ge_mlir
        from ge_mlir.errors import GeMlirError, UnsupportedOpsError
    except BaseException as e:  # the package itself is broken: not the model's fault
        return {"status": "uncaught", "phase": phase, "error": _short(e), "traceback": traceback.format_exc()}
    try:
        phase = "compile"
        kw = {}
        if meta["target"] == "ascendc":
            kw = {"run_on": "cpu-shim", "output_dir": str(case_dir / "ascendc-project")}
        model = ge_mlir.compile(model_bytes, target=meta["target"], progress=False, **kw)
        if meta.get("compile_only"):
            return {"status": "ok", "phase": phase}
        phase = "run"
        names = model.input_names
        args = {n: feeds[n] for n in names if n in feeds}
        outs = model(**args)
        return {"status": "ok", "phase": phase, "names": list(model.output_names), "outputs": list(outs)}
    except GeMlirError as e:
        return {"status": "refused", "phase": phase, "error_type": type(e).__name__,
                "unsupported": isinstance(e, UnsupportedOpsError), "error": _short(e, 1500)}
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno} in {tb[-1].name}" if tb else "?"
        return {"status": "uncaught", "phase": phase, "error_type": type(e).__name__, "where": where,
                "error": _short(e), "traceback": traceback.format_exc()}


def classify(meta: dict, ort: dict, ge: dict, float16_inside: bool = False) -> tuple[str, str, str]:
    """(class, signature, detail) from the two verdicts.

    The signature is what the reducer must preserve besides the class (e.g.
    the exception type for 'uncaught', the kind of disagreement for 'mismatch').
    """
    st = ge["status"]
    if st == "uncaught":
        return "uncaught", f"{ge['error_type']}@{ge.get('where', '?')}", f"{ge['phase']}: {ge['error']}"
    ort_ok = ort["status"] in ("ok", "loaded")
    internal = re.search(r"internal error: (\w+)", ge.get("error", "")) if st == "refused" else None
    if internal:  # a Python exception a pass wrapped into its GeMlirError: still a bug
        return "uncaught", f"internal:{internal.group(1)}", f"{ge['phase']}: {ge['error']}"
    if st == "refused":
        text = f"{ge['phase']}: {ge['error']}"
        if not ort_ok:
            return "refused", "refused", text
        if ge["unsupported"] or meta["kind"] != "valid" or meta["target"] == "ascendc":
            return "refused", "refused", text
        return "mismatch", f"refused-valid:{ge['error_type']}", \
            f"ge-mlir refused a valid model onnxruntime runs ({ge['error_type']}): {text}"
    # ge-mlir accepted the model
    if not ort_ok:
        return "mismatch", f"accepted-invalid:{ort['status']}", \
            f"ge-mlir {'compiled' if ge['phase'] == 'compile' else 'compiled and ran'} a model onnxruntime refuses " \
            f"({ort['status']}: {ort['error']})"
    if ort["status"] == "loaded" or "outputs" not in ge:
        return "ok", "ok", "compiled"
    if len(ge["outputs"]) != len(ort["outputs"]):
        return "mismatch", "output-count", f"{len(ge['outputs'])} outputs, onnxruntime {len(ort['outputs'])}"
    problems = []
    for name, got, want in zip(ort["names"], ge["outputs"], ort["outputs"]):
        why = compare(got, want, "float16" if float16_inside and np.asarray(want).dtype.kind == "f" else None)
        if why:
            problems.append(f"output {name!r}: {why}")
    if ge.get("names") and list(ge["names"]) != list(ort["names"]):
        problems.append(f"output names {ge['names']} != onnxruntime {ort['names']}")
    if problems:
        sig = "numeric" if all("elements differ" in p or "NaN" in p or "infin" in p for p in problems) else "shape"
        return "mismatch", sig, "; ".join(problems)
    return "ok", "ok", "outputs match onnxruntime"


def _limit_memory(mb: int) -> None:
    if mb > 0:
        try:
            import resource

            lim = mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
        except (ImportError, ValueError, OSError):  # pragma: no cover - not Linux
            pass


def main(argv: list[str]) -> int:
    case_dir = Path(argv[0])
    meta = json.loads((case_dir / "meta.json").read_text())
    _limit_memory(int(meta.get("memory_mb", 0)))
    hook = meta.get("hook")
    # Test-only hooks (set by the tests through run_case(hook=...), never by the CLI):
    # a real child that dies or hangs, to check the parent's classification.
    if hook == "abort":
        os.abort()
    elif hook == "sleep":
        time.sleep(3600)
    elif hook == "segv":
        import ctypes

        ctypes.string_at(0)
    elif hook == "exit":
        os._exit(3)
    t0 = time.perf_counter()
    model_bytes = (case_dir / "model.onnx").read_bytes()
    with np.load(case_dir / "inputs.npz", allow_pickle=False) as z:
        feeds = {k: z[k] for k in z.files}
    ort = run_onnxruntime(model_bytes, feeds, bool(meta.get("compile_only")))
    t1 = time.perf_counter()
    if hook == "raise":
        ge = {"status": "uncaught", "phase": "hook", "error_type": "RuntimeError", "where": "_worker",
              "error": "RuntimeError: test hook"}
    else:
        ge = run_ge(model_bytes, feeds, meta, case_dir)
    t2 = time.perf_counter()
    try:
        half = computes_in_float16(model_bytes)
    except Exception:  # a mutated model that does not parse has no outputs to compare
        half = False
    cls, sig, detail = classify(meta, ort, ge, half)
    result = {
        "class": cls, "signature": sig, "detail": detail,
        "ort": {k: v for k, v in ort.items() if k not in ("outputs",)},
        "ge": {k: v for k, v in ge.items() if k not in ("outputs",)},
        "times": {"onnxruntime": round(t1 - t0, 3), "ge": round(t2 - t1, 3)},
    }
    tmp = case_dir / "result.json.tmp"
    tmp.write_text(json.dumps(result, indent=1, default=str))
    os.replace(tmp, case_dir / "result.json")
    # A normal exit: a crash in teardown (static destructors) is still a crash;
    # the parent reports it even though a result was written.
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except SystemExit:
        raise
    except BaseException:  # a fuzzer bug, not a ge-mlir one: say so plainly
        traceback.print_exc()
        sys.exit(70)
