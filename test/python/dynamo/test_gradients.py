"""Gradients of every op family through torch.compile(backend=ge_mlir) (strict: nothing runs in
eager) against torch autograd. fp32: gradients within rtol 1e-4 and 1e-5 x the gradient's largest
magnitude (backward sums run in another order than torch's kernels)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from ge_mlir.dynamo import backend  # noqa: E402

STRICT = backend(strict=True)


def _grads(fn, tensors):
    leaves = [t.detach().clone().requires_grad_(t.dtype.is_floating_point) for t in tensors]
    out = fn(*leaves)
    g = torch.Generator().manual_seed(7)
    outs = out if isinstance(out, tuple) else (out,)
    seeds = [torch.randn(o.shape, generator=g) for o in outs]
    sum((o * s).sum() for o, s in zip(outs, seeds)).backward()
    return [o.detach() for o in outs], [t.grad for t in leaves if t.requires_grad]


def _check(fn, *tensors):
    torch._dynamo.reset()
    want_out, want = _grads(fn, tensors)
    got_out, got = _grads(torch.compile(fn, backend=STRICT), tensors)
    for g, w in zip(got_out + got, want_out + want):
        assert g is not None and g.shape == w.shape
        torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-5 * float(w.abs().max().clamp_min(1e-12)))


def _r(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("stride,padding,dilation,groups", [(1, 1, 1, 1), (2, 0, 1, 1), (1, 2, 2, 1), (2, 1, 1, 2),
                                                             (1, 1, 1, 4)])
def test_conv2d(stride, padding, dilation, groups):
    _check(lambda x, w, b: F.conv2d(x, w, b, stride, padding, dilation, groups),
           _r(2, 4, 9, 9), _r(8, 4 // groups, 3, 3, seed=1), _r(8, seed=2))


def test_conv1d():
    _check(lambda x, w: F.conv1d(x, w, stride=2, padding=1), _r(2, 3, 17), _r(5, 3, 4, seed=1))


@pytest.mark.parametrize("kind", ["max", "avg", "avg_ceil_nopad"])
def test_pooling(kind):
    if kind == "max":
        fn = lambda x: F.max_pool2d(x, 3, 2, 1)  # noqa: E731
    elif kind == "avg":
        fn = lambda x: F.avg_pool2d(x, 2)  # noqa: E731
    else:
        fn = lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)  # noqa: E731
    _check(fn, _r(2, 3, 10, 10))


def test_batch_norm_training_and_running_stats():
    bn = torch.nn.BatchNorm2d(4)
    ref = torch.nn.BatchNorm2d(4)
    x = _r(3, 4, 5, 5)
    _check(lambda x, w, b: F.batch_norm(x, torch.zeros(4), torch.ones(4), w, b, training=True),
           x, _r(4, seed=1), _r(4, seed=2))
    torch._dynamo.reset()
    torch.compile(bn, backend=STRICT)(x).sum().backward()
    ref(x).sum().backward()
    torch.testing.assert_close(bn.running_mean, ref.running_mean)
    torch.testing.assert_close(bn.running_var, ref.running_var)
    torch.testing.assert_close(bn.weight.grad, ref.weight.grad, rtol=1e-4, atol=1e-5)


def test_layer_norm_and_rms_norm():
    _check(lambda x, w, b: F.layer_norm(x, (16,), w, b), _r(4, 6, 16), _r(16, seed=1), _r(16, seed=2))
    _check(lambda x, w: F.rms_norm(x, (16,), w, eps=1e-6), _r(4, 6, 16), _r(16, seed=1))


def test_softmax_and_log_softmax():
    _check(lambda x: (torch.softmax(x, -1), torch.log_softmax(x, 1)), _r(3, 5, 7))


def test_embedding_with_repeated_ids():
    ids = torch.tensor([[1, 3, 3], [0, 1, 9]])
    _check(lambda w: F.embedding(ids, w), _r(10, 4))


@pytest.mark.parametrize("act", ["gelu", "gelu_tanh", "silu", "relu", "tanh", "sigmoid"])
def test_activations(act):
    fns = {"gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu,
           "relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid}
    _check(fns[act], _r(4, 33))


def test_linear_and_matmul():
    _check(lambda x, w, b, y: (F.linear(x, w, b), x @ y), _r(2, 5, 8), _r(6, 8, seed=1), _r(6, seed=2),
           _r(8, 3, seed=3))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_and_nll_with_ignore_index(reduction):
    target = torch.tensor([0, 4, 2, 2, 1, 4])
    _check(lambda x: (F.cross_entropy(x, target, ignore_index=2, reduction=reduction),
                      F.nll_loss(torch.log_softmax(x, 1), target, reduction=reduction)), _r(6, 5))


def test_dropout_with_a_given_mask():
    mask = torch.rand(4, 8, generator=torch.Generator().manual_seed(3)) > 0.3
    _check(lambda x: x * mask / 0.7, _r(4, 8))
