"""Numerics of the training gradient ops (ge.conv2d_backprop_input, ge.conv2d_backprop_filter,
ge.avg_pool_grad) through ge-decompose-gradient-ops on the CPU target, against torch.

Each case is ge IR text compiled with ``ge_mlir.compile`` (the default pipeline decomposes the
ops) and run on seeded random data; the references are torch autograd through ``F.conv2d`` (with
``F.pad`` for asymmetric pads, whose gradient is exact) and ``aten.avg_pool2d_backward``. Several
cases share one compiled function (compiles dominate the time); a failure names its case.
fp32 tolerance: rtol 1e-5, atol 1e-5 * max|expected|.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

import ge_mlir
from ge_mlir.errors import GeMlirError, PassFailedError, VerificationError

torch = pytest.importorskip("torch")
F = torch.nn.functional

RTOL = 1e-5


class Conv(NamedTuple):
    n: int
    cin: int
    hw: tuple[int, int]
    cout: int
    k: tuple[int, int]
    s: tuple[int, int] = (1, 1)
    p: tuple[int, int, int, int] = (0, 0, 0, 0)  # top, left, bottom, right
    d: tuple[int, int] = (1, 1)
    g: int = 1

    def out_hw(self) -> tuple[int, int]:
        return tuple((self.hw[i] + self.p[i] + self.p[i + 2] - self.d[i] * (self.k[i] - 1) - 1) // self.s[i] + 1
                     for i in range(2))

    def __str__(self) -> str:
        return (f"n{self.n}c{self.cin}x{self.hw[0]}x{self.hw[1]}-o{self.cout}-k{self.k[0]}{self.k[1]}"
                f"-s{self.s[0]}{self.s[1]}-p{''.join(map(str, self.p))}-d{self.d[0]}{self.d[1]}-g{self.g}")


# Kernels 1/3/5, strides 1/2, symmetric and asymmetric pads, dilations 1/2, groups 1/2/depthwise
# (multiplier 1 and 2), and sizes the forward output formula floor-divides (rows no window reads).
CONV_CASES = [
    Conv(2, 3, (5, 6), 4, (1, 1)),
    Conv(1, 4, (7, 7), 5, (3, 3), p=(1, 1, 1, 1)),
    Conv(2, 3, (8, 9), 4, (3, 3), s=(2, 2), p=(1, 1, 1, 1)),
    Conv(1, 2, (10, 10), 3, (3, 3), s=(2, 2)),
    Conv(2, 3, (11, 10), 2, (3, 3), s=(2, 2), p=(0, 1, 1, 0), d=(2, 2)),
    Conv(1, 4, (12, 9), 6, (5, 5), s=(2, 2), p=(2, 2, 2, 2), g=2),
    Conv(2, 6, (9, 8), 4, (3, 3), p=(1, 0, 2, 1), d=(2, 2), g=2),
    Conv(2, 4, (9, 10), 4, (3, 3), s=(2, 2), p=(1, 1, 1, 1), g=4),
    Conv(1, 3, (13, 11), 6, (5, 5), p=(2, 2, 1, 0), d=(2, 2), g=3),
    Conv(2, 3, (9, 8), 5, (3, 5), s=(2, 1), p=(1, 2, 0, 1), d=(1, 2)),
    Conv(3, 4, (7, 8), 4, (1, 1), s=(2, 2), g=2),
    Conv(1, 2, (5, 5), 3, (3, 3), s=(2, 2), p=(2, 2, 2, 2)),
    Conv(2, 2, (15, 14), 2, (5, 5), s=(2, 2), d=(2, 2)),
    Conv(1, 8, (6, 7), 8, (3, 3), s=(1, 2), p=(1, 1, 1, 1), d=(2, 1), g=8),
]


class Pool(NamedTuple):
    n: int
    c: int
    hw: tuple[int, int]
    k: tuple[int, int]
    s: tuple[int, int]
    p: tuple[int, int]  # symmetric per dim, as torch has it
    ceil: bool
    include_pad: bool

    def out_hw(self) -> tuple[int, int]:
        out = []
        for i in range(2):
            span = self.hw[i] + 2 * self.p[i] - self.k[i]
            o = (-(-span // self.s[i]) if self.ceil else span // self.s[i]) + 1
            if self.ceil and (o - 1) * self.s[i] >= self.hw[i] + self.p[i]:
                o -= 1
            out.append(o)
        return tuple(out)

    def __str__(self) -> str:
        return (f"n{self.n}c{self.c}x{self.hw[0]}x{self.hw[1]}-k{self.k[0]}{self.k[1]}-s{self.s[0]}{self.s[1]}"
                f"-p{self.p[0]}{self.p[1]}-{'ceil' if self.ceil else 'floor'}-{'incl' if self.include_pad else 'excl'}")


_POOL_GEOMETRIES = [
    ((7, 8), (2, 2), (2, 2), (0, 0)),
    ((7, 7), (3, 3), (2, 2), (1, 1)),
    ((6, 5), (3, 3), (1, 1), (1, 1)),
    ((8, 10), (3, 3), (3, 3), (1, 1)),
    ((5, 6), (2, 2), (1, 1), (1, 1)),
    ((9, 7), (3, 2), (2, 1), (1, 0)),
]
POOL_CASES = [Pool(2, 3, hw, k, s, p, ceil, incl)
              for hw, k, s, p in _POOL_GEOMETRIES for ceil in (False, True) for incl in (False, True)]


def _t(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _arr(values) -> str:
    return "array<i64: " + ", ".join(map(str, values)) + ">"


def _conv_shapes(c: Conv):
    oh, ow = c.out_hw()
    return [c.cout, c.cin // c.g, *c.k], [c.n, c.cout, oh, ow], [c.n, c.cin, *c.hw]


def _conv_ir(cases: list[Conv]) -> str:
    """One function: per case, args (filter, out_backprop, input), results (dX, dW)."""
    args, results, body, rets = [], [], [], []
    for i, c in enumerate(cases):
        w, dy, x = _conv_shapes(c)
        args += [f"%w{i}: {_t(w)}", f"%dy{i}: {_t(dy)}", f"%x{i}: {_t(x)}"]
        attrs = f"strides = {_arr(c.s)}, pads = {_arr(c.p)}, dilations = {_arr(c.d)}, groups = {c.g} : i64"
        body.append(f"  %dx{i} = ge.conv2d_backprop_input %w{i}, %dy{i} {{input_size = {_arr(x)}, {attrs}}}"
                    f" : ({_t(w)}, {_t(dy)}) -> {_t(x)}")
        body.append(f"  %dw{i} = ge.conv2d_backprop_filter %x{i}, %dy{i} {{filter_size = {_arr(w)}, {attrs}}}"
                    f" : ({_t(x)}, {_t(dy)}) -> {_t(w)}")
        results += [_t(x), _t(w)]
        rets += [f"%dx{i}", f"%dw{i}"]
    return (f"func.func @grads({', '.join(args)}) -> ({', '.join(results)}) {{\n" + "\n".join(body)
            + f"\n  return {', '.join(rets)} : {', '.join(results)}\n}}\n")


def _pool_ir(cases: list[Pool]) -> str:
    args, results, body, rets = [], [], [], []
    for i, c in enumerate(cases):
        dy, x = [c.n, c.c, *c.out_hw()], [c.n, c.c, *c.hw]
        args.append(f"%dy{i}: {_t(dy)}")
        attrs = (f"input_size = {_arr(x)}, kernel_shape = {_arr(c.k)}, strides = {_arr(c.s)}, "
                 f"pads = {_arr([*c.p, *c.p])}, ceil_mode = {str(c.ceil).lower()}, "
                 f"count_include_pad = {str(c.include_pad).lower()}")
        body.append(f"  %dx{i} = ge.avg_pool_grad %dy{i} {{{attrs}}} : ({_t(dy)}) -> {_t(x)}")
        results.append(_t(x))
        rets.append(f"%dx{i}")
    return (f"func.func @grads({', '.join(args)}) -> ({', '.join(results)}) {{\n" + "\n".join(body)
            + f"\n  return {', '.join(rets)} : {', '.join(results)}\n}}\n")


def _torch_conv_grads(c: Conv, w: np.ndarray, dy: np.ndarray, x: np.ndarray):
    xt = torch.from_numpy(x).requires_grad_()
    wt = torch.from_numpy(w).requires_grad_()
    top, left, bottom, right = c.p
    y = F.conv2d(F.pad(xt, (left, right, top, bottom)), wt, stride=c.s, dilation=c.d, groups=c.g)
    assert tuple(y.shape) == dy.shape, (str(c), y.shape, dy.shape)
    y.backward(torch.from_numpy(dy))
    return xt.grad.numpy(), wt.grad.numpy()


def _close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.shape == want.shape, what
    atol = 1e-5 * float(np.abs(want).max(initial=0.0))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=atol, err_msg=what)


def _batches(cases: list, size: int) -> list:
    """Cases ``i..j`` in one compiled function (the assertion messages name the case)."""
    return [pytest.param(cases[i:i + size], id=f"cases{i}-{min(i + size, len(cases)) - 1}")
            for i in range(0, len(cases), size)]


@pytest.mark.parametrize("cases", _batches(CONV_CASES, 5))
def test_conv2d_gradients_match_torch(cases):
    model = ge_mlir.compile(_conv_ir(cases))
    optimized = model.ir("optimized")
    assert "backprop" not in optimized and "ge.conv_transpose2d" in optimized
    rng = np.random.default_rng(len(cases))
    feeds, wants = [], []
    for c in cases:
        arrays = [rng.standard_normal(s, dtype=np.float32) for s in _conv_shapes(c)]
        feeds += arrays
        wants.append(_torch_conv_grads(c, *arrays))
    outs = model(*feeds)
    for i, c in enumerate(cases):
        _close(outs[2 * i], wants[i][0], f"conv2d_backprop_input {c}")
        _close(outs[2 * i + 1], wants[i][1], f"conv2d_backprop_filter {c}")


@pytest.mark.parametrize("cases", _batches(POOL_CASES, 8))
def test_avg_pool_grad_matches_torch(cases):
    model = ge_mlir.compile(_pool_ir(cases))
    assert "avg_pool_grad" not in model.ir("optimized")
    rng = np.random.default_rng(len(cases))
    feeds = [rng.standard_normal((c.n, c.c, *c.out_hw()), dtype=np.float32) for c in cases]
    outs = model(*feeds)
    for c, dy, got in zip(cases, feeds, outs):
        x = torch.zeros(c.n, c.c, *c.hw)
        want = torch.ops.aten.avg_pool2d_backward(torch.from_numpy(dy), x, list(c.k), list(c.s), list(c.p),
                                                  c.ceil, c.include_pad, None).numpy()
        _close(got, want, f"avg_pool_grad {c}")


@pytest.mark.parametrize("ceil, include_pad", [(False, False), (True, False), (True, True)])
def test_avg_pool_grad_is_the_adjoint_of_avg_pool2d_with_asymmetric_pads(ceil, include_pad):
    """Asymmetric pads (no torch counterpart): <avg_pool2d(x), dy> == <x, avg_pool_grad(dy)>, both
    ops compiled by ge-mlir, so the gradient agrees with the forward op's own divisor rule."""
    x_t, k, s, p = [2, 3, 9, 8], [3, 2], [2, 2], [1, 0, 2, 1]
    attrs = (f"kernel_shape = {_arr(k)}, strides = {_arr(s)}, pads = {_arr(p)}, "
             f"ceil_mode = {str(ceil).lower()}, count_include_pad = {str(include_pad).lower()}")
    y_t = _pool_out(x_t, k, s, p, ceil)
    forward = ge_mlir.compile(f"func.func @f(%x: {_t(x_t)}) -> {_t(y_t)} {{\n"
                              f"  %y = ge.avg_pool2d %x {{{attrs}}} : ({_t(x_t)}) -> {_t(y_t)}\n"
                              f"  return %y : {_t(y_t)}\n}}\n")
    backward = ge_mlir.compile(f"func.func @g(%dy: {_t(y_t)}) -> {_t(x_t)} {{\n"
                               f"  %dx = ge.avg_pool_grad %dy {{input_size = {_arr(x_t)}, {attrs}}}"
                               f" : ({_t(y_t)}) -> {_t(x_t)}\n  return %dx : {_t(x_t)}\n}}\n")
    rng = np.random.default_rng(3)
    x = rng.standard_normal(x_t, dtype=np.float32)
    dy = rng.standard_normal(y_t, dtype=np.float32)
    (y,), (dx,) = forward(x), backward(dy)
    lhs, rhs = float(np.vdot(y.astype(np.float64), dy)), float(np.vdot(x.astype(np.float64), dx))
    assert abs(lhs - rhs) <= 1e-5 * max(1.0, abs(lhs)), (lhs, rhs)


def _pool_out(x_t, k, s, p, ceil):
    out = list(x_t[:2])
    for i in range(2):
        span = x_t[2 + i] + p[i] + p[i + 2] - k[i]
        o = (-(-span // s[i]) if ceil else span // s[i]) + 1
        if ceil and (o - 1) * s[i] >= x_t[2 + i] + p[i]:
            o -= 1
        out.append(o)
    return out


def test_decomposition_runs_early_in_both_default_pipelines():
    from ge_mlir.optimize.default_pipeline import default_pipeline

    for target in ("cpu", "ascendc"):
        names = [el.split("{")[0].strip() for el in
                 default_pipeline(target).text.removeprefix("builtin.module(").removesuffix(")").split(", ")]
        assert names[0] == "ge-decompose-gradient-ops", (target, names)


_BAD = [
    # out_backprop of the stride-1 forward conv given a stride-2 op.
    ("ge.conv2d_backprop_input %a, %b {input_size = array<i64: 1, 8, 9, 9>, strides = array<i64: 2, 2>}"
     " : (tensor<16x8x3x3xf32>, tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32>",
     "tensor<16x8x3x3xf32>, tensor<1x16x7x7xf32>", "tensor<1x8x9x9xf32>",
     "must have the forward conv2d's result shape [N, C_out, OH, OW] = [1, 16, 4, 4]"),
    ("ge.conv2d_backprop_filter %a, %b {filter_size = array<i64: 16, 4, 3, 3>, groups = 3 : i64}"
     " : (tensor<1x8x9x9xf32>, tensor<1x16x7x7xf32>) -> tensor<16x4x3x3xf32>",
     "tensor<1x8x9x9xf32>, tensor<1x16x7x7xf32>", "tensor<16x4x3x3xf32>",
     "filter dimension 1 (4) times 'groups' (3) must equal the input channels (8)"),
    ("ge.conv2d_backprop_filter %a, %b {filter_size = array<i64: 16, 8, 3, 3>, dilations = array<i64: 0, 1>}"
     " : (tensor<1x8x9x9xf32>, tensor<1x16x7x7xf32>) -> tensor<16x8x3x3xf32>",
     "tensor<1x8x9x9xf32>, tensor<1x16x7x7xf32>", "tensor<16x8x3x3xf32>",
     "attribute 'dilations' must be positive"),
]


@pytest.mark.parametrize("op, args, result, message", _BAD, ids=["out-shape", "groups", "dilation"])
def test_inconsistent_gradients_raise_a_verification_error(op, args, result, message):
    a, b = args.split(", ")
    text = f"func.func @f(%a: {a}, %b: {b}) -> {result} {{\n  %0 = {op}\n  return %0 : {result}\n}}\n"
    with pytest.raises(VerificationError) as info:
        ge_mlir.compile(text)
    assert message in str(info.value)


def test_avg_pool_grad_with_the_wrong_out_backprop_raises():
    text = ("func.func @f(%a: tensor<1x8x3x3xf32>) -> tensor<1x8x7x7xf32> {\n"
            "  %0 = ge.avg_pool_grad %a {ceil_mode = true, input_size = array<i64: 1, 8, 7, 7>, "
            "kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x3x3xf32>) -> tensor<1x8x7x7xf32>\n"
            "  return %0 : tensor<1x8x7x7xf32>\n}\n")
    with pytest.raises(GeMlirError, match=r"avg_pool2d's result shape \[N, C, OH, OW\] = \[1, 8, 4, 4\]"):
        ge_mlir.compile(text)


def test_dynamic_shapes_are_refused_with_the_op_named():
    text = ("func.func @f(%w: tensor<16x8x3x3xf32>, %dy: tensor<?x16x4x4xf32>) -> tensor<1x8x9x9xf32> {\n"
            "  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>, strides = array<i64: 2, 2>}"
            " : (tensor<16x8x3x3xf32>, tensor<?x16x4x4xf32>) -> tensor<1x8x9x9xf32>\n"
            "  return %0 : tensor<1x8x9x9xf32>\n}\n")
    with pytest.raises(PassFailedError, match="ge.conv2d_backprop_input: operand 'out_backprop'.*dynamic"):
        ge_mlir.compile(text)


def test_divisors_follow_avg_pool2d():
    from ge_mlir.optimize.ge_decompose_gradient_ops import end_adjustment, window_divisors

    # 5 inputs, kernel 2, stride 2, ceil mode: windows [0,2), [2,4), [4,6) -> the last reads one input.
    assert window_divisors(3, 5, 2, 2, 0, 0, include_pad=True).tolist() == [2, 2, 1]
    # pads 1: include_pad counts the pad taps, not the ceil-mode tail.
    assert window_divisors(4, 4, 3, 1, 1, 1, include_pad=True).tolist() == [3, 3, 3, 3]
    assert window_divisors(4, 4, 3, 1, 1, 1, include_pad=False).tolist() == [2, 3, 3, 2]
    # 10 rows, k3 s2: O = 4 covers rows 0..8; row 9 comes back as output_padding.
    assert end_adjustment(10, 4, 3, 2, 1, 0) == (0, 1)
    assert end_adjustment(9, 4, 3, 2, 1, 0) == (0, 0)
    # Pads 1 and 1: O = 5 reaches padded row 10, the end pad, which the transposed op cuts.
    assert end_adjustment(9, 5, 3, 2, 1, 1) == (1, 0)
    # Pad 1 at the beginning only: O = 4 leaves row 8 unread.
    assert end_adjustment(9, 4, 3, 2, 1, 1) == (0, 1)


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_avg_pool_grad_in_16_bit_floats_divides_in_f32(dtype):
    """A 17 x 17 window divides by 289, which bf16 cannot hold: the quotients are computed in f32
    (torch's opmath) and the result rounded once, so it is torch's f32 gradient rounded."""
    import ml_dtypes

    np_t = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}[dtype]
    text = (f"func.func @f(%dy: tensor<1x2x2x2x{dtype}>) -> tensor<1x2x20x20x{dtype}> {{\n"
            f"  %0 = ge.avg_pool_grad %dy {{input_size = {_arr([1, 2, 20, 20])}, kernel_shape = {_arr([17, 17])}, "
            f"strides = {_arr([3, 3])}}} : (tensor<1x2x2x2x{dtype}>) -> tensor<1x2x20x20x{dtype}>\n"
            f"  return %0 : tensor<1x2x20x20x{dtype}>\n}}\n")
    model = ge_mlir.compile(text)
    assert "ge.cast" in model.ir("optimized")
    dy = np.random.default_rng(5).standard_normal((1, 2, 2, 2)).astype(np_t)
    (got,) = model(dy)
    want = torch.ops.aten.avg_pool2d_backward(torch.from_numpy(dy.astype(np.float32)), torch.zeros(1, 2, 20, 20),
                                              [17, 17], [3, 3], [0, 0], False, True, None).numpy()
    assert got.dtype == np_t
    np.testing.assert_array_equal(got, want.astype(np_t))
