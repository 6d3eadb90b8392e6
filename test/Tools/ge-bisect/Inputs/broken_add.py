"""A deliberately wrong user fusion pass for the ge-bisect lit tests:
add(x, c) -> add(c, x) everywhere (harmless) except at loc("add_b"),
where it writes sub(x, c)."""

from mlir import ir

from ge_mlir.passes import FusionPattern, fusion_pass


@fusion_pass(name="ge-fuse-lit-broken-add", summary="commute add(x, c); broken at add_b", priority=10)
class LitCommuteAddConst(FusionPattern):
    root = "ge.add"

    def match(self, op):
        c = self.producer(op.operands[1])
        return c if c is not None and c.name == "ge.constant" else None

    def apply(self, op, rewriter, c):
        broken = '"add_b"' in str(op.location)
        operands = [op.operands[0], op.operands[1]] if broken else [op.operands[1], op.operands[0]]
        with rewriter.ip:
            new = ir.Operation.create("ge.sub" if broken else "ge.add", results=[op.results[0].type],
                                      operands=operands, loc=op.location)
        rewriter.replace_op(op, new)
