"""FX/ATen importer: every op family against torch (fp32: rtol 1e-5, atol 1e-6 x the output scale;
integer and boolean outputs exactly), result types checked, unconvertible nodes listed."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

import ge_mlir  # noqa: E402
from ge_mlir.api import Context  # noqa: E402
from ge_mlir.frontend.fx import UnsupportedFxOpsError, decompositions, import_fx  # noqa: E402

F = torch.nn.functional
aten = torch.ops.aten


def _run(fn, *inputs):
    gm = make_fx(fn, decomposition_table=decompositions())(*inputs)
    with Context():
        module, fixed = import_fx(gm)
        compiled = ge_mlir.compile(module, progress=False)
    outs = compiled(*[i.numpy() for i in inputs])
    return outs, fixed, gm


def _check(fn, *inputs):
    import torch.utils._pytree as pytree

    expected = pytree.tree_leaves(fn(*inputs))
    got, _, _ = _run(lambda *a: tuple(pytree.tree_leaves(fn(*a))), *inputs)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        e = e.detach().numpy()
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, e.shape, g.dtype, e.dtype)
        if e.dtype.kind == "f":
            scale = max(float(np.abs(e).max()), 1e-30) if e.size else 1.0
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6 * scale)
        else:
            np.testing.assert_array_equal(g, e)


X = torch.randn(2, 3, 8, 8)
M = torch.randn(4, 6)
I = torch.randint(-5, 6, (4, 6))

CASES = {
    "arith": (lambda a, b: (a + 2 * b, a - b, a * 3, a / (b.abs() + 1), torch.maximum(a, b), a ** 2), M, M.flip(0)),
    "int_div": (lambda a: (torch.div(a, 3, rounding_mode="floor"), torch.div(a, 3, rounding_mode="trunc"),
                           a % 4, a // 2), I),
    "compare": (lambda a, b: (a > b, a <= 0.5, a == b, a != b, torch.where(a > b, a, b),
                              torch.logical_and(a > 0, b > 0), ~(a > 0)), M, M.flip(1)),
    "unary": (lambda a: (torch.exp(a), torch.tanh(a), torch.sigmoid(a), torch.relu(a), F.gelu(a),
                         F.gelu(a, approximate="tanh"), F.silu(a), torch.rsqrt(a.abs() + 1),
                         torch.clamp(a, -0.5, 0.5), torch.log1p(a.abs())), M),
    "cast": (lambda a: (a.to(torch.int64), (a > 0).to(torch.float32), a.double()), M),
    "views": (lambda a: (a.view(6, 4), a.t(), a.permute(1, 0), a.unsqueeze(0).expand(3, 4, 6),
                         a[1:3, ::2], a[:, 2], torch.cat([a, a], 1), a.split([2, 4], 1)[1],
                         F.pad(a, (1, 2, 0, 1), value=3.0), a.repeat(2, 1)), M),
    "index": (lambda a, i: (a[i], a[:, i], torch.gather(a, 1, i.unsqueeze(0).expand(4, 3)),
                            torch.zeros(5, 6).index_put([i], a[:3], accumulate=True),
                            torch.zeros(4, 6).scatter_add(1, i.unsqueeze(0).expand(4, 3), a[:, :3])),
              M, torch.tensor([2, 0, 2])),
    "reduce": (lambda a: (a.sum(), a.sum(1), a.mean(0, keepdim=True), a.amax(1), a.max(1), a.argmax(1),
                          torch.var_mean(a, 1), a.var(0)), M),
    "matmul": (lambda a, b, c: (a @ b, torch.addmm(c, a, b), torch.bmm(a.expand(2, 4, 6), b.expand(2, 6, 5))),
               M, torch.randn(6, 5), torch.randn(5)),
    "conv": (lambda x, w: (F.conv2d(x, w, padding=1), F.conv2d(x, w[:, :1].repeat(1, 1, 1, 1).expand(3, 1, 3, 3),
                                                              stride=2, groups=3),
                           F.conv_transpose2d(x, w.transpose(0, 1), stride=2, padding=1)),
             X, torch.randn(3, 3, 3, 3)),
    "pool": (lambda x: (F.max_pool2d(x, 2), F.max_pool2d(x, 3, 2, 1), F.avg_pool2d(x, 2),
                        F.adaptive_avg_pool2d(x, 1), x.mean((2, 3))), X),
    "pool_indices": (lambda x: F.max_pool2d(x, 3, 2, 1, return_indices=True), X),
    "norm": (lambda x, w, b, mean, var: (F.layer_norm(x, (8,), w, b), torch.softmax(x, -1),
                                         torch.log_softmax(x, 1), F.batch_norm(x, mean, var, training=False)),
             X, torch.randn(8), torch.randn(8), torch.randn(3), torch.rand(3) + 0.5),
    "embedding": (lambda w, i: F.embedding(i, w), torch.randn(10, 4), torch.tensor([[1, 9], [0, 3]])),
    "creation": (lambda a: (a + torch.ones(4, 6), torch.arange(6) * 2, torch.full((2, 3), 7.0),
                            torch.zeros_like(a)), M),
    "loss": (lambda a, t: (F.cross_entropy(a, t), F.cross_entropy(a, t, reduction="sum", ignore_index=1),
                           F.nll_loss(torch.log_softmax(a, 1), t, reduction="none")), M, torch.tensor([0, 1, 5, 2])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_family_matches_torch(name):
    fn, *inputs = CASES[name]
    torch.manual_seed(0)
    _check(fn, *inputs)


def test_locations_name_node_and_op():
    gm = make_fx(lambda a: torch.relu(a) + 1, decomposition_table=decompositions())(M)
    with Context():
        module, _ = import_fx(gm)
        text = module.operation.get_asm(enable_debug_info=True)
    assert '"aten.relu.default"' in text and '"relu"' in text


def test_unconvertible_nodes_are_all_listed():
    def f(a):
        return torch.linalg.cholesky(a @ a.t() + torch.eye(4)), torch.special.bessel_j0(a)

    gm = make_fx(f)(M)
    with Context(), pytest.raises(UnsupportedFxOpsError) as e:
        import_fx(gm)
    ops = {op for op, _, _ in e.value.problems}
    assert any("cholesky" in op for op in ops) and any("bessel_j0" in op for op in ops), ops
    assert "at node" in str(e.value)


def test_none_and_number_outputs_are_passed_through():
    gm = make_fx(lambda a: (a * 2, None))(M)
    with Context():
        _, fixed = import_fx(gm)
    assert fixed == {1: None}
