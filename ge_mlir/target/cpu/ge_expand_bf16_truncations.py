"""ge-expand-bf16-truncations: ``arith.truncf`` f32 -> bf16 (scalar or vector) as integer round-to-nearest-even.

LLVM's own lowering depends on the CPU: AVX512-BF16's VCVTNEPS2BF16 treats
denormal inputs as zero, scalar code without it flushes them too, vector
code without it calls ``__truncsfbf2``. Integer rounding gives every CPU the
same, IEEE (and onnxruntime) result and stays vectorizable: the f32 bits plus
``0x7FFF + lsb`` of the kept half, shifted right by 16; a NaN keeps its sign
and payload with the quiet bit set (the rounding bias could carry it into
infinity).
"""

from __future__ import annotations

from mlir import ir

from ...passes.registry import Pass, register_pass


@register_pass
class GeExpandBf16TruncationsPass(Pass):
    name = "ge-expand-bf16-truncations"
    summary = "Expand arith.truncf f32->bf16 to integer round-to-nearest-even (same bits on every CPU)"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 110

    def run(self, module: ir.Operation) -> None:
        with module.context, ir.Location.unknown():
            self.bump("rewrites", expand_bf16_truncations(module))


def expand_bf16_truncations(module: ir.Operation) -> int:
    """Rewrites every f32 -> bf16 ``arith.truncf`` under ``module``; returns how many."""
    from mlir.dialects import arith as _arith

    def is_bf16_trunc(op: ir.Operation) -> bool:
        if op.name != "arith.truncf":
            return False
        src, dst = op.operands[0].type, op.results[0].type
        elem = lambda t: ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else t  # noqa: E731
        return isinstance(elem(dst), ir.BF16Type) and isinstance(elem(src), ir.F32Type)

    def like(t: ir.Type, elem: ir.Type) -> ir.Type:
        return ir.VectorType.get(ir.VectorType(t).shape, elem) if isinstance(t, ir.VectorType) else elem

    def splat(t: ir.Type, value: int) -> ir.Value:
        if isinstance(t, ir.VectorType):
            e = ir.VectorType(t).element_type
            return _arith.constant(t, ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(e, value)))
        return _arith.constant(t, ir.IntegerAttr.get(t, value))

    truncs: list[ir.Operation] = []

    def collect(o: ir.Operation) -> ir.WalkResult:
        if is_bf16_trunc(o):
            truncs.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(collect, ir.WalkOrder.PRE_ORDER)
    for op in truncs:
        src, dst_t = op.operands[0], op.results[0].type
        i32 = like(dst_t, ir.IntegerType.get_signless(32))
        i16 = like(dst_t, ir.IntegerType.get_signless(16))
        with op.location, ir.InsertionPoint(op):
            bits = _arith.bitcast(i32, src)
            c16 = splat(i32, 16)
            high = _arith.shrui(bits, c16)
            bias = _arith.addi(_arith.andi(high, splat(i32, 1)), splat(i32, 0x7FFF))
            rounded = _arith.trunci(i16, _arith.shrui(_arith.addi(bits, bias), c16))
            # NaN: keep sign and payload, set the quiet bit (the bias could carry into infinity).
            quiet = _arith.trunci(i16, _arith.ori(high, splat(i32, 0x40)))
            is_nan = _arith.cmpf(_arith.CmpFPredicate.UNO, src, src)
            out = _arith.bitcast(dst_t, _arith.select(is_nan, quiet, rounded))
        op.results[0].replace_all_uses_with(out)
        op.erase()
    return len(truncs)
