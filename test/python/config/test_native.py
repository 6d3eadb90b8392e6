"""ge-mlir config, default pipelines, user passes (FusionPattern, pass modules), pass report."""

import json
import textwrap

import numpy as np
import pytest
from mlir import ir

import ge_mlir
from ge_mlir.config import (
    PASS_MODULES_ENV,
    Config,
    ConfigError,
    load_config,
    load_pass_modules,
)
from ge_mlir.errors import GeMlirError
from ge_mlir.optimize.default_pipeline import default_pipeline
from ge_mlir.passes.pipeline import run_elements
from ge_mlir.passes import (
    FusionPattern,
    Pass,
    PassReport,
    fusion_pass,
    get_pass,
    list_passes,
    register_pass,
    registry,
)
from ge_mlir.passes.report import instrument
from ge_mlir.tools import ge_compile, ge_opt

NEG_NEG = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = ge.neg %x : tensor<4xf32>
  %b = ge.neg %a : tensor<4xf32>
  %c = ge.relu %b : tensor<4xf32>
  return %c : tensor<4xf32>
}
"""


# --- user passes used by several tests ---------------------------------------
# Registered per test into a copy of the registry (restored afterwards), so
# they never join the default pipelines of other test modules.


class DoubleNeg(FusionPattern):
    root = "ge.neg"

    def match(self, op):
        inner = self.producer(op.operands[0])
        return inner if inner is not None and inner.name == "ge.neg" else None

    def apply(self, op, rewriter, inner):
        rewriter.replace_op(op, [inner.operands[0]])


class _PrecisionSensitive(Pass):
    name = "ge-approximate-test-cfg"
    summary = "a precision-sensitive pass that does nothing"
    stage = "before-lowering"
    precision_sensitive = True

    def run(self, module):
        pass


class _AscendOnly(Pass):
    name = "ge-tile-test-cfg-ascend"
    summary = "an ascendc-only pass"
    stage = "before-lowering"
    targets = ("ascendc",)

    def run(self, module):
        pass


@pytest.fixture(autouse=True)
def user_passes(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.delenv(PASS_MODULES_ENV, raising=False)
    fusion_pass(name="ge-fuse-test-cfg-double-neg", summary="neg(neg(x)) -> x", priority=5)(DoubleNeg)
    register_pass(_PrecisionSensitive)
    register_pass(_AscendOnly)
    yield


# --- valid configs ------------------------------------------------------------


FULL = {
    "graphOptions": {"graphFusion": True},
    "fusionSwitch": {"ge-fuse-test-cfg-double-neg": "on", "ALL": "on"},
    "passes": {"ge-canonicalize": {"enabled": True, "options": {"cse": False, "max_iterations": 3}}},
    "constantFolding": {"enabled": True, "sizeLimit": 1024, "aggressive": False},
    "layout": {"inputFormat": "NCHW", "outputFormat": "NHWC", "forbidTransData": [["ge.conv2d", "ge.relu"]]},
    "precisionMode": "allow_mix_precision",
    "passModules": [],
    "verifyGraph": False,
}


def test_defaults():
    cfg = load_config(None)
    assert cfg.graph_fusion and cfg.precision_mode == "allow_fp16" and not cfg.precision_safe
    assert load_config({}) == Config()


def test_full_config_from_dict_and_file(tmp_path):
    cfg = load_config(FULL)
    assert cfg.fusion_switch == {"ge-fuse-test-cfg-double-neg": True, "ALL": True}
    assert cfg.passes["ge-canonicalize"].options == {"cse": False, "max-iterations": 3}
    assert cfg.constant_folding.size_limit == 1024 and cfg.constant_folding.aggressive is False
    assert cfg.layout.input_format == "NCHW" and cfg.layout.forbid_trans_data == [("ge.conv2d", "ge.relu")]
    path = tmp_path / "ge.json"
    path.write_text(json.dumps(FULL))
    from_file = load_config(path)
    assert from_file.source == str(path)
    assert load_config(from_file.to_dict()).to_dict() == from_file.to_dict()


@pytest.mark.parametrize(
    "data, key, expected",
    [
        ({"graphFusion": True}, "graphFusion", ["graphOptions", "fusionSwitch", "passes", "precisionMode"]),
        ({"graphOptions": {"graphFussion": True}}, "graphOptions.graphFussion", ["graphFusion", "did you mean"]),
        ({"graphOptions": {"graphFusion": "yes"}}, "graphOptions.graphFusion", ["true or false", '"yes"']),
        ({"graphOptions": []}, "graphOptions", ["graphFusion"]),
        ({"fusionSwitch": {"ge-canonicalize": "disabled"}}, "fusionSwitch.ge-canonicalize", ['"on"', '"off"']),
        ({"fusionSwitch": ["ge-canonicalize"]}, "fusionSwitch", ['"on" | "off"']),
        ({"passes": {"ge-canonicalize": {"enable": False}}}, "passes.ge-canonicalize.enable", ["enabled", "options"]),
        ({"passes": {"ge-canonicalize": {"enabled": 0}}}, "passes.ge-canonicalize.enabled", ["true or false"]),
        ({"passes": {"ge-canonicalize": {"options": [1]}}}, "passes.ge-canonicalize.options", ["object"]),
        ({"constantFolding": {"size": 3}}, "constantFolding.size", ["enabled", "sizeLimit", "aggressive"]),
        ({"constantFolding": {"sizeLimit": -1}}, "constantFolding.sizeLimit", ["non-negative integer"]),
        ({"constantFolding": {"sizeLimit": 1.5}}, "constantFolding.sizeLimit", ["non-negative integer"]),
        ({"layout": {"inputFormat": "NCWH"}}, "layout.inputFormat", ["NCHW", "NHWC", "NC1HWC0", "FRACTAL_NZ"]),
        ({"layout": {"format": "NCHW"}}, "layout.format", ["inputFormat", "outputFormat", "forbidTransData"]),
        ({"layout": {"forbidTransData": [["ge.conv2d"]]}}, "layout.forbidTransData[0]", ["pair of ge op names"]),
        ({"layout": {"forbidTransData": [["ge.conv2d", "ge.rellu"]]}}, "layout.forbidTransData[0][1]",
         ["unknown ge op 'ge.rellu'", "ge.relu"]),
        ({"precisionMode": "fp32"}, "precisionMode", ["FP32", "allow_fp16", "did you mean 'FP32'"]),
        ({"precisionMode": 32}, "precisionMode", ["FP32", "must_keep_origin_dtype", "force_fp16"]),
        ({"passModules": "my.passes"}, "passModules", ["list of module names or .py paths"]),
        ({"verifyGraph": "on"}, "verifyGraph", ["true or false"]),
    ],
)
def test_invalid_configs_name_key_and_expected(data, key, expected):
    with pytest.raises(ConfigError) as info:
        load_config(data)
    err = info.value
    assert isinstance(err, GeMlirError)
    assert err.key == key
    text = str(err)
    assert key.rsplit(".", 1)[-1].split("[")[0] in text
    for e in expected:
        assert e in text, (e, text)


def test_top_level_unknown_key_lists_all_valid_keys():
    with pytest.raises(ConfigError) as info:
        load_config({"precision": "FP32"})
    for k in ("graphOptions", "fusionSwitch", "passes", "constantFolding", "layout", "precisionMode",
              "passModules", "verifyGraph"):
        assert k in str(info.value)


def test_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"precisionMode": "FP32",}')
    with pytest.raises(ConfigError, match=r"bad\.json: invalid JSON at line 1"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_config(tmp_path / "missing.json")
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"layout": {"inputFormat": "XYZ"}}')
    with pytest.raises(ConfigError, match=r"config .*wrong\.json: layout\.inputFormat: expected one of ND, NCHW"):
        load_config(wrong)


@pytest.mark.parametrize(
    "data, key, expected",
    [
        ({"fusionSwitch": {"ge-fuse-conv-bm": "off"}}, "fusionSwitch.ge-fuse-conv-bm",
         ["unknown pass", "registered passes", "ge-canonicalize"]),
        ({"passes": {"ge-canonicalise": {}}}, "passes.ge-canonicalise", ["did you mean 'ge-canonicalize'"]),
        ({"passes": {"ge-canonicalize": {"options": {"cs": True}}}}, "passes.ge-canonicalize.options.cs",
         ["valid options: max-iterations, cse, upstream"]),
        ({"passes": {"ge-canonicalize": {"options": {"cse": "no"}}}}, "passes.ge-canonicalize.options.cse",
         ["true or false"]),
        ({"passes": {"ge-canonicalize": {"options": {"max-iterations": 2.5}}}},
         "passes.ge-canonicalize.options.max-iterations", ["an integer"]),
    ],
)
def test_pass_names_and_options_checked_against_registry(data, key, expected):
    with pytest.raises(ConfigError) as info:
        default_pipeline("cpu", data)
    assert info.value.key == key
    for e in expected:
        assert e in str(info.value)


# --- default pipelines --------------------------------------------------------


def test_default_pipeline_from_registry():
    p = default_pipeline("cpu")
    names = p.names
    assert "ge-canonicalize" in names
    assert "ge-lower-to-linalg" not in names and "ge-verify-graph" not in names
    assert not any(n.startswith("ge-test-") for n in names)
    assert "ge-fuse-test-cfg-double-neg" in names and "ge-approximate-test-cfg" in names
    assert "ge-tile-test-cfg-ascend" not in names
    assert "ge-tile-test-cfg-ascend" in default_pipeline("ascendc").names
    # Stage order, then priority.
    from ge_mlir.passes import STAGES

    classes = [get_pass(n) for n in names]
    keys = [(STAGES.index(c.stage), c.priority, c.name) for c in classes]
    assert keys == sorted(keys)
    # Every registered optimization pass for cpu is there.
    expected = {c.name for c in list_passes() if c.stage != "lowering" and not c.name.startswith(("ge-test-", "ge-verify-"))
                and ("*" in c.targets or "cpu" in c.targets)}
    assert set(names) == expected
    assert p.text.startswith("builtin.module(") and p.parse()


def test_verify_graph_runs_first_when_configured():
    p = default_pipeline("cpu", {"verifyGraph": True})
    assert p.names[0] == "ge-verify-graph"
    assert default_pipeline("cpu", {"passes": {"ge-verify-graph": {"enabled": True}}}).names[0] == "ge-verify-graph"


def test_unknown_target():
    with pytest.raises(GeMlirError, match="unknown target 'gpu'"):
        default_pipeline("gpu")


def test_precision_mode_fp32_disables_precision_sensitive_passes():
    assert "ge-approximate-test-cfg" in default_pipeline("cpu", {"precisionMode": "allow_fp16"}).names
    p = default_pipeline("cpu", {"precisionMode": "FP32"})
    assert "ge-approximate-test-cfg" not in p.names
    assert "precision-sensitive" in p.disabled["ge-approximate-test-cfg"]
    assert "ge-canonicalize" in p.names
    # An explicit per-pass switch wins.
    q = default_pipeline("cpu", {"precisionMode": "FP32", "passes": {"ge-approximate-test-cfg": {"enabled": True}}})
    assert "ge-approximate-test-cfg" in q.names


def test_fusion_switch_and_graph_fusion():
    p = default_pipeline("cpu", {"fusionSwitch": {"ge-fuse-test-cfg-double-neg": "off"}})
    assert "ge-fuse-test-cfg-double-neg" not in p.names
    assert p.disabled["ge-fuse-test-cfg-double-neg"] == "fusionSwitch.ge-fuse-test-cfg-double-neg is off"
    all_off = default_pipeline("cpu", {"fusionSwitch": {"ALL": "off", "ge-fuse-test-cfg-double-neg": "on"}})
    assert not [n for n in all_off.names if n.startswith("ge-fuse-") and n != "ge-fuse-test-cfg-double-neg"]
    assert "ge-fuse-test-cfg-double-neg" in all_off.names
    no_fusion = default_pipeline("cpu", {"graphOptions": {"graphFusion": False}})
    assert not [n for n in no_fusion.names if n.startswith("ge-fuse-")]
    assert "ge-canonicalize" in no_fusion.names
    off = default_pipeline("cpu", {"passes": {"ge-canonicalize": {"enabled": False}}})
    assert "ge-canonicalize" not in off.names


def test_pass_options_and_constant_folding_in_pipeline_text():
    p = default_pipeline("cpu", {"passes": {"ge-canonicalize": {"options": {"cse": False, "max-iterations": 3}}}})
    assert "ge-canonicalize{cse=false max-iterations=3}" in p.elements
    els = p.parse()
    canon = next(e for e in els if e.name == "ge-canonicalize")
    assert canon.ge_pass.opt("cse") is False and canon.ge_pass.opt("max-iterations") == 3
    try:
        fold = get_pass("ge-fold-constants")
    except GeMlirError:
        pytest.skip("ge-fold-constants not registered")
    q = default_pipeline("cpu", {"constantFolding": {"sizeLimit": 64, "aggressive": False}})
    if {"size-limit", "aggressive"} <= {o.name for o in fold.options}:
        assert "ge-fold-constants{size-limit=64 aggressive=false}" in q.elements
    assert "ge-fold-constants" not in default_pipeline("cpu", {"constantFolding": {"enabled": False}}).names


# --- FusionPattern / fusion_pass ---------------------------------------------


def test_fusion_pattern_rewrites_ir(ctx):
    module = ge_mlir.parse_module(NEG_NEG)
    ge_mlir.run_pipeline(module, "builtin.module(ge-fuse-test-cfg-double-neg)")
    text = str(module)
    assert "ge.neg" not in text
    assert "ge.relu %arg0" in text
    cls = get_pass("ge-fuse-test-cfg-double-neg")
    assert DoubleNeg.pass_class is cls and cls.stage == "after-builtin-fusion" and cls.priority == 5
    p = cls()
    module2 = ge_mlir.parse_module(NEG_NEG)
    p.run(module2.operation)
    assert p.stats == {"rewrites": 1, "double-neg": 1}


def test_fusion_pass_with_several_patterns(ctx):
    class ReluRelu(FusionPattern):
        root = ("ge.relu",)
        counter = "relu-relu"

        def match(self, op):
            inner = self.producer(op.operands[0])
            return inner is not None and inner.name == "ge.relu" and inner

        def apply(self, op, rewriter, inner):
            rewriter.replace_op(op, [inner.results[0]])

    cls = fusion_pass(DoubleNeg, ReluRelu, name="ge-fuse-test-cfg-two-patterns", summary="two patterns")
    assert issubclass(cls, Pass) and cls.patterns == (DoubleNeg, ReluRelu)
    module = ge_mlir.parse_module(NEG_NEG.replace("%c = ge.relu %b", "%r = ge.relu %b : tensor<4xf32>\n  %c = ge.relu %r"))
    p = cls()
    p.run(module.operation)
    assert p.stats["rewrites"] == 2 and p.stats["relu-relu"] == 1
    assert str(module).count("ge.relu") == 1 and "ge.neg" not in str(module)


def test_fusion_pass_rejects_bad_patterns():
    class NoRoot(FusionPattern):
        def match(self, op):
            return None

    with pytest.raises(GeMlirError, match="must define 'root'"):
        fusion_pass(NoRoot, name="ge-fuse-test-cfg-noroot")
    with pytest.raises(GeMlirError, match="not a FusionPattern"):
        fusion_pass(int, name="ge-fuse-test-cfg-int")


# --- user pass modules --------------------------------------------------------


def _write_pass_module(path, pass_name, pattern_root="ge.abs"):
    path.write_text(textwrap.dedent(f"""
        from ge_mlir.passes import FusionPattern, fusion_pass

        @fusion_pass(name="{pass_name}", summary="abs(abs(x)) -> abs(x)")
        class AbsAbs(FusionPattern):
            root = "{pattern_root}"

            def match(self, op):
                inner = self.producer(op.operands[0])
                return inner if inner is not None and inner.name == "{pattern_root}" else None

            def apply(self, op, rewriter, inner):
                rewriter.replace_op(op, [inner.results[0]])
    """))


def test_pass_module_from_env_var_path_and_module_name(tmp_path, monkeypatch):
    _write_pass_module(tmp_path / "env_passes_by_path.py", "ge-fuse-test-cfg-env-path")
    pkg = tmp_path / "cfg_user_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _write_pass_module(pkg / "passes.py", "ge-fuse-test-cfg-env-module")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(PASS_MODULES_ENV, f"{tmp_path / 'env_passes_by_path.py'}, cfg_user_pkg.passes")
    names = default_pipeline("cpu").names
    assert "ge-fuse-test-cfg-env-path" in names and "ge-fuse-test-cfg-env-module" in names
    # Loading twice does not re-register (no "already registered" error).
    load_pass_modules(None)


def test_pass_module_from_config_relative_to_config_file(tmp_path, monkeypatch):
    monkeypatch.delenv(PASS_MODULES_ENV, raising=False)
    (tmp_path / "sub").mkdir()
    _write_pass_module(tmp_path / "sub" / "cfg_passes.py", "ge-fuse-test-cfg-from-config")
    cfg_path = tmp_path / "ge.json"
    cfg_path.write_text(json.dumps({"passModules": ["sub/cfg_passes.py"],
                                    "fusionSwitch": {"ge-fuse-test-cfg-from-config": "on"}}))
    # The fusionSwitch names the user pass: validated after the module is imported.
    assert "ge-fuse-test-cfg-from-config" in default_pipeline("cpu", cfg_path).names


def test_pass_module_errors(tmp_path, monkeypatch):
    monkeypatch.delenv(PASS_MODULES_ENV, raising=False)
    with pytest.raises(ConfigError, match=r"passModules\[0\]: cannot import pass module 'no_such_pkg_xyz.passes'"):
        default_pipeline("cpu", {"passModules": ["no_such_pkg_xyz.passes"]})
    with pytest.raises(ConfigError, match="no such pass module file"):
        default_pipeline("cpu", {"passModules": [str(tmp_path / "missing.py")]})
    broken = tmp_path / "broken_passes.py"
    broken.write_text("raise RuntimeError('boom')\n")
    monkeypatch.setenv(PASS_MODULES_ENV, str(broken))
    with pytest.raises(ConfigError, match=f"{PASS_MODULES_ENV}: cannot import .*RuntimeError: boom"):
        default_pipeline("cpu")


# --- report -------------------------------------------------------------------


def test_report_lists_passes_with_counts(ctx):
    module = ge_mlir.parse_module(NEG_NEG)
    report = PassReport()
    els = instrument(
        ge_mlir.passes.parse_pipeline("builtin.module(ge-canonicalize, ge-fuse-test-cfg-double-neg, canonicalize)"),
        report,
    )
    run_elements(module, els)
    assert [e.name for e in report.entries] == ["ge-canonicalize", "ge-fuse-test-cfg-double-neg", "canonicalize"]
    fuse = report["ge-fuse-test-cfg-double-neg"]
    assert (fuse.ops_before, fuse.ops_after, fuse.rewrites) == (4, 2, 1)
    assert report["canonicalize"].ops_before == 2 and report["canonicalize"].rewrites is None
    text = report.format()
    assert "Ops before" in text and "Rewrites" in text and "Total Execution Time" in text
    line = next(ln for ln in text.splitlines() if "ge-fuse-test-cfg-double-neg" in ln)
    assert line.split()[3:7] == ["4", "2", "1", "ge-fuse-test-cfg-double-neg"]
    assert line.rstrip().endswith("(double-neg=1)")


def test_compile_with_config_and_pass_report(tmp_path):
    m = ge_mlir.compile(NEG_NEG, options={"config": {"verifyGraph": True}})
    rep = m.pass_report
    assert rep.entries[0].name == "ge-verify-graph"
    assert "ge-canonicalize" in rep and rep["ge-fuse-test-cfg-double-neg"].rewrites == 1
    assert "ge.neg" not in m.ir("optimized")
    x = np.array([-1, 2, -3, 4], np.float32)
    np.testing.assert_array_equal(m(x)[0], np.maximum(x, 0))

    cfg = tmp_path / "ge.json"
    cfg.write_text(json.dumps({"fusionSwitch": {"ge-fuse-test-cfg-double-neg": "off"}}))
    m2 = ge_mlir.compile(NEG_NEG, options={"config": str(cfg)}, compile_to="optimized")
    assert "ge-fuse-test-cfg-double-neg" not in m2.pass_report
    assert m2.ir("optimized").count("ge.neg") == 2 or "ge.neg" not in m2.ir("optimized")
    assert ge_mlir.compile(NEG_NEG, options={"optimize": False}, compile_to="optimized").pass_report.entries == []
    with pytest.raises(ConfigError, match="precisionMode"):
        ge_mlir.compile(NEG_NEG, options={"config": {"precisionMode": "half"}})


def test_cli_config_and_report(tmp_path, capsys):
    src = tmp_path / "g.mlir"
    src.write_text(NEG_NEG)
    cfg = tmp_path / "ge.json"
    cfg.write_text(json.dumps({"graphOptions": {"graphFusion": False}}))
    assert ge_opt.main(["--print-default-pipeline", "--config", str(cfg)]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("builtin.module(") and "ge-fuse-" not in printed
    assert ge_opt.main([str(src), "--pass-pipeline", "builtin.module(ge-fuse-test-cfg-double-neg)",
                        "--ge-pass-report"]) == 0
    out = capsys.readouterr()
    assert "ge pass report" in out.err and "ge-fuse-test-cfg-double-neg" in out.err
    assert ge_compile.main([str(src), "--compile-to", "optimized", "--config", str(cfg), "--report",
                            "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ge pass report" in out and "ge-canonicalize" in out
    cfg.write_text('{"graphOptions": {"graphFusion": 1}}')
    assert ge_compile.main([str(src), "--config", str(cfg), "--no-progress"]) == 1
    assert "graphOptions.graphFusion: expected true or false" in capsys.readouterr().err


def test_ir_unchanged_by_default_pipeline_semantics(ctx):
    """The configured pipeline text round-trips through run_pipeline."""
    module = ge_mlir.parse_module(NEG_NEG)
    ge_mlir.run_pipeline(module, default_pipeline("cpu").text)
    assert isinstance(module, ir.Module) and "ge.relu" in str(module)


def test_printed_default_pipeline_is_accepted_by_ge_opt(tmp_path, capsys):
    src = tmp_path / "g.mlir"
    src.write_text(NEG_NEG)
    assert ge_opt.main(["--print-default-pipeline=cpu"]) == 0
    text = capsys.readouterr().out.strip()
    assert ge_opt.main([str(src), "--pass-pipeline", text]) == 0
    assert "ge.neg" not in capsys.readouterr().out
