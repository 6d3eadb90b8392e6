"""The CPU memory model (ge_mlir.target.cpu.memory_model) asks the codegen's own selection: the path
it assumes for a ge convolution or pool is the one ge-select-codegen-strategy records on the op's
lowering, on the shapes of the benchmark CNNs' layers. And the estimate reaches it through the
CPU target (Target.memory_model), the target-neutral model otherwise."""

from __future__ import annotations

import pytest
from mlir import ir

import ge_mlir
from ge_mlir.memory.estimate import estimate_module
from ge_mlir.memory.op_model import NEUTRAL
from ge_mlir.target import get_target
from ge_mlir.target.base import Target
from ge_mlir.target.cpu.codegen.selection import CONV_OPS, STRATEGY_ATTR
from ge_mlir.target.cpu.codegen.common import WINDOW_OPS
from ge_mlir.target.cpu.memory_model import codegen_path

#: (name, C, H, W, F, kernel, stride, pad, groups, constant filter): layers of ResNet-18, MobileNetV2
#: and the UNet of bench/models.py, and the edges between their paths.
CONVS = [
    ("resnet stem", 3, 224, 224, 64, 7, 2, 3, 1, True),
    ("resnet layer1", 64, 56, 56, 64, 3, 1, 1, 1, True),
    ("resnet layer2 down", 64, 56, 56, 128, 3, 2, 1, 1, True),
    ("resnet downsample", 64, 56, 56, 128, 1, 2, 0, 1, True),
    ("resnet layer4", 512, 7, 7, 512, 3, 1, 1, 1, True),
    ("mobilenet stem", 3, 224, 224, 32, 3, 2, 1, 1, True),
    ("mobilenet expand 112", 16, 112, 112, 96, 1, 1, 0, 1, True),
    ("mobilenet project 14", 96, 14, 14, 576, 1, 1, 0, 1, True),
    ("mobilenet depthwise s2", 96, 112, 112, 96, 3, 2, 1, 96, True),
    ("mobilenet depthwise s1", 144, 56, 56, 144, 3, 1, 1, 144, True),
    ("unet decoder", 64, 32, 32, 32, 3, 1, 1, 1, True),
    ("unet first", 3, 64, 64, 8, 3, 1, 1, 1, True),
    ("filter argument large", 16, 40, 40, 16, 3, 1, 1, 1, False),
    ("filter argument small", 16, 8, 8, 16, 3, 1, 1, 1, False),
    ("many channels few filters", 120, 8, 8, 8, 3, 1, 1, 1, False),
    ("few filters", 120, 8, 8, 8, 3, 1, 1, 1, True),
    ("grouped", 8, 16, 16, 8, 3, 1, 1, 2, True),
]
#: (name, op, C, H, W, kernel, stride, pad)
POOLS = [
    ("resnet max pool", "max_pool2d", 64, 112, 112, 3, 2, 1),
    ("unpadded max pool", "max_pool2d", 16, 32, 32, 2, 2, 0),
    ("average pool", "avg_pool2d", 16, 14, 14, 3, 1, 1),
    ("one-column max pool", "max_pool2d", 4, 8, 2, 2, 1, 0),
]


def _out(size: int, k: int, s: int, p: int) -> int:
    return (size + 2 * p - k) // s + 1


def _conv_module(c, h, w, f, k, s, p, groups, constant) -> str:
    ho, wo = _out(h, k, s, p), _out(w, k, s, p)
    wt = f"tensor<{f}x{c // groups}x{k}x{k}xf32>"
    args, weight = (f"%x: tensor<1x{c}x{h}x{w}xf32>", f"  %w = ge.constant dense<0.5> : {wt}\n") if constant \
        else (f"%x: tensor<1x{c}x{h}x{w}xf32>, %w: {wt}", "")
    return (f"func.func @f({args}) -> tensor<1x{f}x{ho}x{wo}xf32> {{\n{weight}"
            f"  %0 = ge.conv2d %x, %w {{activation = #ge.act<relu>, groups = {groups} : i64, "
            f"pads = array<i64: {p}, {p}, {p}, {p}>, strides = array<i64: {s}, {s}>}} : "
            f"(tensor<1x{c}x{h}x{w}xf32>, {wt}) -> tensor<1x{f}x{ho}x{wo}xf32>\n"
            f"  return %0 : tensor<1x{f}x{ho}x{wo}xf32>\n}}\n")


def _pool_module(op, c, h, w, k, s, p) -> str:
    ho, wo = _out(h, k, s, p), _out(w, k, s, p)
    return (f"func.func @f(%x: tensor<1x{c}x{h}x{w}xf32>) -> tensor<1x{c}x{ho}x{wo}xf32> {{\n"
            f"  %0 = ge.{op} %x {{kernel_shape = array<i64: {k}, {k}>, pads = array<i64: {p}, {p}, {p}, {p}>, "
            f"strides = array<i64: {s}, {s}>}} : (tensor<1x{c}x{h}x{w}xf32>) -> tensor<1x{c}x{ho}x{wo}xf32>\n"
            f"  return %0 : tensor<1x{c}x{ho}x{wo}xf32>\n}}\n")


def _recorded(text: str) -> tuple[str | None, list[str]]:
    """(the memory model's path of the module's one ge conv or pool, the paths
    ge-select-codegen-strategy records on its lowering, at x86-64-v3's kernel as the model's)."""
    from ge_mlir.target.cpu.runner import lower_stage

    with ir.Context(), ir.Location.unknown():
        m = ge_mlir.parse_module(text)
        op = next(o.operation for o in m.body.operations[0].regions[0].blocks[0].operations
                  if o.operation.name.startswith("ge.") and o.operation.name != "ge.constant")
        assumed = codegen_path(op)
        lower_stage(m, "linalg")
        ge_mlir.run_pipeline(m, "builtin.module(ge-select-codegen-strategy{cpu=x86-64-v3})")
        found: list[str] = []

        def visit(o: ir.Operation) -> ir.WalkResult:
            if o.name in (*CONV_OPS, *WINDOW_OPS):
                found.append(ir.StringAttr(o.attributes[STRATEGY_ATTR]).value)
            return ir.WalkResult.ADVANCE

        m.operation.walk(visit)
        return (assumed.value if assumed is not None else None), found


@pytest.mark.parametrize("name, c, h, w, f, k, s, p, groups, constant", CONVS, ids=[c[0] for c in CONVS])
def test_estimate_and_codegen_take_one_conv_path(name, c, h, w, f, k, s, p, groups, constant):
    assumed, recorded = _recorded(_conv_module(c, h, w, f, k, s, p, groups, constant))
    if groups == 1 or groups == c == f:
        assert recorded == [assumed], name
    else:  # other grouped convolutions lower to generics the codegen leaves alone
        assert assumed == "none" and recorded == [], (name, recorded)


@pytest.mark.parametrize("name, op, c, h, w, k, s, p", POOLS, ids=[p[0] for p in POOLS])
def test_estimate_and_codegen_take_one_pool_path(name, op, c, h, w, k, s, p):
    assumed, recorded = _recorded(_pool_module(op, c, h, w, k, s, p))
    assert recorded == [assumed], name


def test_the_paths_cover_the_codegen():
    """The shapes above reach every convolution and window path."""
    seen = {_recorded(_conv_module(*case[1:]))[0] for case in CONVS}
    seen |= {_recorded(_pool_module(*case[1:]))[0] for case in POOLS}
    assert seen == {"winograd", "shifted_rows", "pointwise", "direct_rows", "shifted_matmuls", "row_im2col", "img2col",
                    "vectors", "clamped_vectors", "taps", "none"}


def test_the_estimate_reaches_the_cpu_model_through_the_target():
    text = _conv_module(64, 56, 56, 64, 3, 1, 1, 1, True)
    with ir.Context(), ir.Location.unknown():
        m = ge_mlir.parse_module(text)
        cpu = estimate_module(m)
        assert estimate_module(m, target="cpu").to_dict() | {"seconds": 0} == cpu.to_dict() | {"seconds": 0}
        assert {b.kind for b in cpu.top_workspace} >= {"winograd input", "winograd products"}
        off = estimate_module(m, winograd=False)
        assert not {"winograd input", "winograd products"} & {b.kind for b in off.top_workspace}
        # A target without a memory model: the target-neutral one (no scratch at all).
        neutral = estimate_module(m, target=Target())
        assert neutral.workspace == 0 and neutral.scratch_buffers == 0
    assert Target().memory_model({}) is None and get_target("cpu").memory_model({}).op is not NEUTRAL.op
