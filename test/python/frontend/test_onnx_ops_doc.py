"""docs/onnx_ops.md is generated from the ONNX importer's registry and kept in sync."""

import importlib.util
import re
from pathlib import Path

import onnx
import pytest

import ge_mlir.frontend.onnx as onnx_frontend
from ge_mlir.frontend.onnx.registry import OpSupport

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "onnx_ops.md"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_onnx_ops_doc", ROOT / "utils" / "gen-onnx-ops-doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_onnx_ops_doc_is_up_to_date():
    expected = _generator().render()
    committed = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    assert committed == expected, (
        "docs/onnx_ops.md is stale (converters or the onnx version changed): "
        "run `python utils/gen-onnx-ops-doc.py` and commit the result"
    )


def test_one_row_per_default_domain_op_and_counts():
    text = _generator().render()
    names = {s.name for s in onnx.defs.get_all_schemas_with_history() if s.domain == ""}
    table = text.split("| --- | --- | --- | --- |\n", 1)[1].split("\n\n", 1)[0].splitlines()
    ops = [row.split("|")[1].strip() for row in table]
    assert sorted(ops) == sorted(names) and len(ops) == len(set(ops))
    supported = sum(" | supported |" in row for row in table)
    m = re.search(r"converts \*\*(\d+) of the (\d+)\*\* op types .* onnx (\S+) \(opsets up to (\d+)\)", text)
    assert m and (int(m[1]), int(m[2])) == (supported, len(names))
    assert (m[3], int(m[4])) == (onnx.__version__, onnx.defs.onnx_opset_version())
    for op in ("ReduceSum", "ReduceLogSumExp", "ArgMax", "CumSum", "Relu", "Clip"):
        assert any(row.startswith(f"| {op} | ") and "| supported |" in row for row in table), op


def _conv(ctx):  # pragma: no cover - never called
    return None


@pytest.fixture
def fake_registry(monkeypatch):
    def install(entries):
        reg = {}
        for domain, op, since, until, notes in entries:
            reg.setdefault((domain, op), []).append(OpSupport(op, _conv, since, until, domain, notes))
        monkeypatch.setattr(onnx_frontend, "supported_ops", lambda: reg)

    return install


def _rows(text):
    return {row.split("|")[1].strip(): row for row in text.splitlines() if row.startswith("| ")}


def test_opset_ranges_are_merged_and_clipped(fake_registry):
    newest = onnx.defs.onnx_opset_version()
    fake_registry([
        ("", "Celu", 1, None, ""),                 # Celu exists since 12
        ("", "Upsample", 1, None, "old"),          # deprecated at opset 10
        ("", "Relu", 11, 13, "a | b"),             # bounded; '|' escaped
        ("", "Softmax", 11, 12, "x"), ("", "Softmax", 13, None, "y"),  # adjacent: merged
        ("", "Gather", 11, 12, ""), ("", "Gather", 18, None, ""),      # a gap
        ("", "Abs", 30, None, ""),                 # beyond the newest opset: not supported
        ("com.example", "Frob", 1, None, "custom"),
        ("", "NotAnOnnxOp", 1, None, ""),
    ])
    text = _generator().render()
    rows = _rows(text)
    assert rows["Celu"] == "| Celu | 12+ | supported | |"
    assert rows["Upsample"] == "| Upsample | 1-9 | supported | old |"
    assert rows["Relu"] == "| Relu | 11-13 | supported | a \\| b |"
    assert rows["Softmax"] == "| Softmax | 11+ | supported | x; y |"
    assert rows["Gather"] == "| Gather | 11-12, 18+ | supported | |"
    assert rows["Abs"].endswith("| not supported | |") and newest < 30
    assert rows["Conv"] == "| Conv | none (op: 1+) | not supported | |"
    assert "| com.example | Frob | 1+ | custom |" in text
    assert "\n* NotAnOnnxOp\n" in text
    assert "converts **5 of the" in text
