"""ONNX conformance: every case of the ONNX backend node test suite (onnx.backend.test,
1884 cases for onnx 1.23) through ge_mlir.onnx_backend.GeMlirBackend on the CPU.

Cases listed in ``xfail.txt`` must fail (they xfail); a listed case that passes
is an error, so the list only shrinks (remove the line, or rerun
``utils/update-onnx-xfail.py``). Any other case must pass.

Cases run in parallel worker subprocesses (``onnx_node_suite.SuiteRun``): a
crash (LLVM abort, segfault) fails only its case. Data is generated on first use
into ``build/onnx-node-tests`` (about 6 s). Subsets: ``-k relu``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import onnx_node_suite as suite  # noqa: E402

NODE_DIR = suite.ensure_data()
CASES = suite.list_cases(NODE_DIR)
XFAIL = suite.read_xfail()


def _selected(session) -> list[str]:
    return [
        item.callspec.params["case"]
        for item in session.items
        if getattr(item, "originalname", None) == "test_onnx_node" and hasattr(item, "callspec")
    ]


@pytest.fixture(scope="session")
def node_suite(request):
    if hasattr(request.config, "workerinput"):
        # pytest-xdist: this process runs only its share; cases are submitted as reached.
        names, jobs = [], 1
    else:
        names, jobs = _selected(request.session), None
    run = suite.SuiteRun(NODE_DIR, names, jobs=jobs).start()
    yield run
    if request.session.shouldstop or request.session.shouldfail:  # -x, --maxfail, Ctrl-C
        run.cancel()
    run.wait()
    if names and set(names) == set(CASES):  # a full run: keep it for utils/update-onnx-xfail.py --from-results
        suite.save_results(run.results, suite.results_path(), wall_seconds=round(run.wall_seconds, 1),
                           jobs=run.jobs, finished=time.strftime("%Y-%m-%d %H:%M:%S"))
    run.close()


@pytest.mark.parametrize("case", CASES)
def test_onnx_node(case, node_suite):
    rec = node_suite.result(case)
    if case in XFAIL:
        if rec["status"] == "pass":
            pytest.fail(f"{case} unexpectedly passed: remove it from {suite.XFAIL_PATH.name} "
                        f"(listed as: {XFAIL[case]})")
        pytest.xfail(rec["reason"])
    if rec["status"] != "pass":
        pytest.fail(f"{case}: {rec['reason']}\n{rec.get('detail', '')}", pytrace=False)


def test_generated_all_cases():
    assert len(CASES) > 1000, f"only {len(CASES)} node cases under {NODE_DIR}"


def test_xfail_list_names_real_cases():
    unknown = sorted(set(XFAIL) - set(CASES))
    assert not unknown, f"{suite.XFAIL_PATH.name} names cases that do not exist: {unknown[:20]}"
    missing_reason = sorted(n for n, r in XFAIL.items() if not r)
    assert not missing_reason, f"{suite.XFAIL_PATH.name} entries without a reason: {missing_reason[:20]}"
