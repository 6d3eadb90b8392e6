"""ge-fuse-activation: fuse an elementwise activation into conv2d/matmul/gemm.

``act(producer(...))`` -> ``producer(...) {activation = #ge.act<act>}`` when
the producer has no activation yet and the activation op is its only user.
The fused semantics are those the CPU lowering gives each ``#ge.act``
(``ge_mlir/lowering/nn.py::_activation``); only exact matches fuse:

=====================  ====================================================
``ge.relu``            relu (also on integers)
``ge.clip`` [0, 6]     relu6 (floats); ``ge.clip`` [0, +inf) -> relu
``ge.leaky_relu``      leaky_relu, ``activation_alpha = alpha``
``ge.sigmoid``         sigmoid
``ge.tanh``            tanh
``ge.gelu``            gelu, erf form only (``tanh_approx`` is refused: the
                       fused gelu is the erf form)
``ge.silu``            silu
``ge.hard_sigmoid``    hard_sigmoid, ``activation_alpha = alpha``, only with
                       ``beta == 0.5`` (the fused form fixes beta)
``ge.hard_swish``      hard_swish
=====================  ====================================================
"""

from __future__ import annotations

from mlir import ir
from mlir.rewrite import PatternRewriter

from ..irutils.attrs import attr_float
from ..irutils.ge_ops import activation_of, recreate
from ..passes.fusion import FusionPass, FusionPattern
from ..passes.registry import Option, PassFailure, register_pass

ACTIVATIONS = ("relu", "relu6", "leaky_relu", "sigmoid", "tanh", "gelu", "silu", "hard_sigmoid", "hard_swish")
_PRODUCERS = ("ge.conv2d", "ge.matmul", "ge.gemm")
_ROOTS = ("ge.relu", "ge.clip", "ge.leaky_relu", "ge.sigmoid", "ge.tanh", "ge.gelu", "ge.silu",
          "ge.hard_sigmoid", "ge.hard_swish")


def _is_float(v: ir.Value) -> bool:
    return str(ir.RankedTensorType(v.type).element_type) in ("f16", "bf16", "f32", "f64")


def classify(op: ir.Operation) -> tuple[str, float | None] | None:
    """The (#ge.act name, activation_alpha) that ``op`` computes exactly, or None."""
    kind = op.name[len("ge."):]
    floating = _is_float(op.results[0])
    if kind in ("sigmoid", "tanh", "silu", "hard_swish"):
        return (kind, None) if floating else None
    if kind == "relu":
        return ("relu", None)
    if kind == "leaky_relu":
        return ("leaky_relu", attr_float(op, "alpha", 0.01))
    if kind == "gelu":
        tanh_approx = "tanh_approx" in op.attributes and ir.BoolAttr(op.attributes["tanh_approx"]).value
        return None if tanh_approx else ("gelu", None)
    if kind == "hard_sigmoid":
        if attr_float(op, "beta", 0.5) != 0.5:
            return None
        return ("hard_sigmoid", attr_float(op, "alpha", 0.2))
    if kind == "clip":
        lo, hi = attr_float(op, "min", None), attr_float(op, "max", None)
        if lo == 0.0 and hi == 6.0 and floating:
            return ("relu6", None)
        if lo == 0.0 and hi is None:
            return ("relu", None)
    return None


class FuseActivation(FusionPattern):
    """``act(producer(...))`` -> ``producer(...) {activation = #ge.act<act>}``."""

    root = _ROOTS

    def __init__(self, pass_: GeFuseActivationPass) -> None:
        super().__init__(pass_)
        self.allowed = set(pass_.opt("activations"))
        self.producers = {"ge." + p for p in pass_.opt("producers")}

    def match(self, op: ir.OpView):
        act_op = op.operation
        prod = self.producer(act_op.operands[0])
        if prod is None or prod.name not in self.producers:
            return self.reject(f"the input is not produced by {' or '.join(sorted(self.producers))}"
                               + (f" (it comes from {prod.name})" if prod is not None else " (an argument)"))
        if not self.has_one_use(prod.results[0]):
            return self.reject(f"the {prod.name} result has other uses")
        if activation_of(prod) != "none":
            return self.reject(f"the {prod.name} already has activation {activation_of(prod)}")
        if act_op.results[0].type != prod.results[0].type:
            return self.reject("the activation changes the type")
        got = classify(act_op)
        if got is None:
            return self.reject("no #ge.act computes this op exactly (attributes or element type)")
        if got[0] not in self.allowed:
            return self.reject(f"activation {got[0]} is not in the pass's 'activations' option")
        return prod, got

    def apply(self, op: ir.OpView, rewriter: PatternRewriter, data) -> str:
        act_op = op.operation
        prod, (act, alpha) = data
        with rewriter.ip, act_op.location:
            attrs = {"activation": ir.Attribute.parse(f"#ge.act<{act}>")}
            if alpha is not None:
                attrs["activation_alpha"] = ir.FloatAttr.get(ir.F32Type.get(), alpha)
            fused = recreate(prod, list(prod.operands), attrs, drop=("activation_alpha",))
        rewriter.replace_op(act_op, fused)
        return f"{act}-fused"


@register_pass
class GeFuseActivationPass(FusionPass):
    name = "ge-fuse-activation"
    summary = "Fuse relu/relu6/leaky_relu/sigmoid/tanh/gelu/silu/hard_sigmoid/hard_swish into conv2d/matmul/gemm"
    description = __doc__
    priority = 40
    patterns = (FuseActivation,)
    options = (
        Option("activations", list, list(ACTIVATIONS), "activations that may be fused"),
        Option("producers", list, ["conv2d", "matmul", "gemm"], "ops the activation is fused into"),
    )

    def prepare(self, module: ir.Operation) -> None:
        unknown = set(self.opt("activations")) - set(ACTIVATIONS)
        if unknown:
            raise PassFailure(f"unknown activation(s) {', '.join(sorted(unknown))} "
                              f"(known: {', '.join(ACTIVATIONS)})", at=module)
