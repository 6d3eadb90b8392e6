"""The memory report (ge_mlir.memory.report) and ge-compile --memory-report."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import onnx
import pytest
from onnx import TensorProto, helper

from ge_mlir.memory.report import format_bytes, memory_plan_json, memory_plan_svg, memory_table
from ge_mlir.tools import ge_compile

SVG = "{http://www.w3.org/2000/svg}"

# A hand-written plan in the documented shape (no compile needed for the formatting tests).
PLAN = {
    "arena": 3 * 2**20, "strategy": "best-fit",
    "arenas": {"greedy-by-size": 3 * 2**20 + 4096, "best-fit": 3 * 2**20},
    "no_reuse": 3 * 2**20 + 128, "lower_bound": 3 * 2**20, "op_bound": 2 * 2**20 + 64,
    "buffers": [
        {"name": '/enc/<conv> & "x"', "size": 2**20, "offset": 0, "start": 0, "end": 3},
        {"name": "/enc/relu", "size": 2 * 2**20, "offset": 2**20, "start": 1, "end": 5},
        {"name": "/dec/add", "size": 128, "offset": 0, "start": 4, "end": 8},
    ],
}


def _table_bytes(table: str) -> dict[str, int]:
    """Row label -> the exact byte count the table prints."""
    return {m[1].strip(): int(m[2]) for m in re.finditer(r"^  (\S.*?)\s{2,}\S+ \S+\s+(\d+) B", table, re.M)}


def test_format_bytes():
    assert format_bytes(0) == "0 B"
    assert format_bytes(1023) == "1023 B"
    assert format_bytes(1536) == "1.50 KiB"
    assert format_bytes(3 * 2**20) == "3.00 MiB"


def test_table_numbers_equal_the_plan():
    table = memory_table(PLAN)
    rows = _table_bytes(table)
    assert rows["no-reuse sum"] == PLAN["no_reuse"]
    assert rows["interval lower bound"] == PLAN["lower_bound"]
    assert rows["op bound"] == PLAN["op_bound"]
    assert rows["chosen arena"] == PLAN["arena"]
    for name, size in PLAN["arenas"].items():
        assert rows[f"strategy {name}"] == size
    assert "3.00 MiB" in table and "chosen strategy best-fit" in table
    assert re.search(r"arena / lower bound\s+1\.000x", table)
    assert re.search(rf"arena / op bound\s+{PLAN['arena'] / PLAN['op_bound']:.3f}x", table)
    assert re.search(r"strategy best-fit .*\(chosen\)", table)


def test_table_of_an_empty_plan_has_no_ratios():
    empty = {"arena": 0, "strategy": "greedy-by-size", "arenas": {"greedy-by-size": 0}, "no_reuse": 0,
             "lower_bound": 0, "op_bound": 0, "buffers": []}
    assert "n/a" in memory_table(empty)
    root = ET.fromstring(memory_plan_svg(empty))
    assert not root.findall(f".//{SVG}rect")


def test_json_round_trips_and_is_stable():
    text = memory_plan_json(PLAN)
    assert json.loads(text) == PLAN
    shuffled = dict(reversed(list(PLAN.items())))
    assert memory_plan_json(shuffled) == text


def test_svg_one_rect_per_buffer_with_tooltips():
    root = ET.fromstring(memory_plan_svg(PLAN, "plan <of> test"))
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) <= 1000 and float(root.get("height")) <= 600
    rects = root.findall(f".//{SVG}rect")
    assert len(rects) == len(PLAN["buffers"])
    tips = sorted(r.find(f"{SVG}title").text for r in rects)
    assert any(t.startswith('/enc/<conv> & "x": 1.00 MiB') and "offset 0, ops 0-3" in t for t in tips)
    # Every rectangle stays inside the picture; the larger buffer is the taller one.
    for r in rects:
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        assert 0 <= x and x + w <= 1000 and 0 <= y and y + h <= 600
    # Buffers that touch in time or address (the plan has both) share an edge but do not overlap.
    boxes = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for r in rects]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3])
    heights = {r.find(f"{SVG}title").text.split(":")[0]: float(r.get("height")) for r in rects}
    assert heights["/enc/relu"] == pytest.approx(2 * heights['/enc/<conv> & "x"'], abs=0.02)
    # The arena and both bounds are marked (as lines with their own tooltip).
    marks = " ".join(t.text for t in root.iter(f"{SVG}title"))
    assert "arena: 3.00 MiB" in marks and "interval lower bound: 3.00 MiB" in marks and "op bound" in marks


def _model() -> onnx.ModelProto:
    # r and e are intermediates; r lives until the last op, so three buffers are planned.
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu1"), helper.make_node("Exp", ["r"], ["e"], name="exp1"),
             helper.make_node("MatMul", ["e", "x"], ["m"], name="mm"),
             helper.make_node("Add", ["m", "r"], ["y"], name="add")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, 64])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64, 64])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("memory-report") / "m.onnx"
    onnx.save(_model(), path)
    return path


def test_cli_prints_the_table(model_path, capsys):
    assert ge_compile.main([str(model_path), "--no-progress", "--memory-report"]) == 0
    out = capsys.readouterr().out
    assert "memory plan:" in out and "interval lower bound" in out and "arena / op bound" in out


def test_cli_writes_json_and_svg(model_path, tmp_path, capsys):
    import ge_mlir

    plan = ge_mlir.compile(str(model_path), progress=False).memory_plan
    assert plan and plan["buffers"]
    js = tmp_path / "plan.json"
    assert ge_compile.main([str(model_path), "--no-progress", f"--memory-report={js}"]) == 0
    out = capsys.readouterr().out
    assert json.loads(js.read_text()) == plan
    rows = _table_bytes(out)
    assert rows["chosen arena"] == plan["arena"] and rows["no-reuse sum"] == plan["no_reuse"]
    assert rows["op bound"] == plan["op_bound"] and rows["interval lower bound"] == plan["lower_bound"]
    assert {b["name"] for b in plan["buffers"]} <= {"relu1", "exp1", "mm", "add"}
    svg = tmp_path / "plan.svg"
    assert ge_compile.main([str(model_path), "--no-progress", f"--memory-report={svg}"]) == 0
    assert len(ET.parse(svg).getroot().findall(f".//{SVG}rect")) == len(plan["buffers"])


def test_cli_says_when_there_is_no_plan(model_path, capsys):
    assert ge_compile.main([str(model_path), "--no-progress", "--compile-to", "linalg", "--memory-report"]) == 0
    assert "no memory plan at stage 'linalg'" in capsys.readouterr().out
    # The ascendc target plans its host program's device arena in its first stage.
    assert ge_compile.main([str(model_path), "--no-progress", "--target", "ascendc", "--compile-to", "ascendc",
                            "--memory-report"]) == 0
    assert "memory plan: " in capsys.readouterr().out
    assert ge_compile.main([str(model_path), "--no-progress", "--target", "ascendc", "--compile-to", "optimized",
                            "--memory-report"]) == 0
    assert "no memory plan at stage 'optimized' (memory is planned in stage 'ascendc')" in capsys.readouterr().out


def test_cli_rejects_a_report_file_of_another_kind(model_path, capsys):
    with pytest.raises(SystemExit) as e:
        ge_compile.main([str(model_path), "--memory-report=plan.txt"])
    assert e.value.code == 2
    assert "must end in .svg or .json" in capsys.readouterr().err
