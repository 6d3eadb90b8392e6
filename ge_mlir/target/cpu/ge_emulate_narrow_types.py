"""ge-emulate-narrow-types: float8, float4, int4 and int2 tensors stored one element per byte.

LLVM has no float8/float4 types and its memref lowering cannot address sub-byte
elements, so these element types live in ``i8`` on the CPU target, holding the
bytes numpy holds them in (ml_dtypes: the value's bits in the low bits of the
byte, the rest zero). The host passes and receives its arrays unchanged.

* Every value of a narrow tensor type (function arguments and results, block
  arguments, op results) becomes the same-shaped ``i8`` tensor; narrow
  ``ge.constant``\\ s become ``i8`` constants of the same bytes.
* ``ge.cast`` from or to a narrow type becomes a ``linalg.generic`` that decodes
  the stored byte (floats to f32, integers sign- or zero-extended) and encodes
  the result in i32/f64 arithmetic, bit-exact with ml_dtypes (the ONNX
  reference): round to nearest even; overflow to inf (E5M2) or NaN (E4M3FN and
  the FNUZ types, which have no inf) or the largest value (float4, which has
  neither); NaN to the type's NaN (float4: ml_dtypes' zero of the opposite
  sign); floats to int4/int2 truncate towards zero and keep the low bits
  (NaN, inf and values past int64 give 0), integers keep the low bits.
* ``ge.bitcast`` between a narrow type and a byte type (or two narrow types of a width) is the
  stored byte itself.
* Only ge.cast, ge.bitcast, ops that move elements without reading them (reshape,
  transpose, slice, concat, gather, where's branches, ...) and If/Loop regions
  (scf.if/while and their terminators) may take narrow tensors; any other op fails the pass naming it (ONNX defines no arithmetic on
  these types: models cast or dequantize first).

``ge.cast`` to ``f8E8M0FNU`` is refused: its rounding needs a mode, so the ONNX
importer builds that cast from ``ge.bitcast`` and integer ops (the byte then
reaches this pass as a bitcast); casts from it decode ``2^(e - 127)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from mlir import ir
from mlir.dialects import arith
from mlir.dialects import math as mmath

from ...dialects import ge
from ...errors import PassFailure
from ...irutils.types import NARROW_DTYPES, is_narrow, narrow_float_max
from ...passes.registry import Pass, register_pass
from .lowering.common import const, elementwise, kind, signless
from .lowering.elementwise import cast_body

#: ge ops that move elements without reading their values (narrow tensors pass through as bytes).
MOVE_OPS = frozenset({
    "ge.identity", "ge.reshape", "ge.dynamic_reshape", "ge.transpose", "ge.concat", "ge.split", "ge.slice",
    "ge.gather", "ge.gather_elements", "ge.expand", "ge.squeeze", "ge.unsqueeze", "ge.flatten", "ge.tile",
    "ge.where", "ge.shape",
})

#: Non-ge ops that only pass values along (function boundaries, If/Loop regions, type casts).
PASS_THROUGH = frozenset({"func.return", "func.call", "scf.if", "scf.while", "scf.yield", "scf.condition",
                          "tensor.cast"})


@dataclass(frozen=True)
class FloatFormat:
    """A narrow float: ``bits`` wide, ``ebits`` exponent bits, ``mbits`` mantissa bits, IEEE-style
    ``bias``; ``inf``: has infinities (E5M2); ``fnuz``: 0x80 is the only NaN and there is no -0;
    ``nan_code``: the magnitude bits of the NaN it encodes (None: no NaN)."""

    bits: int
    ebits: int
    mbits: int
    bias: int
    inf: bool
    fnuz: bool
    nan_code: int | None

    @property
    def emin(self) -> int:
        return 1 - self.bias


FLOAT_FORMATS = {
    "f8E4M3FN": FloatFormat(8, 4, 3, 7, inf=False, fnuz=False, nan_code=0x7F),
    "f8E4M3FNUZ": FloatFormat(8, 4, 3, 8, inf=False, fnuz=True, nan_code=0x80),
    "f8E5M2": FloatFormat(8, 5, 2, 15, inf=True, fnuz=False, nan_code=0x7E),
    "f8E5M2FNUZ": FloatFormat(8, 5, 2, 16, inf=False, fnuz=True, nan_code=0x80),
    "f4E2M1FN": FloatFormat(4, 2, 1, 1, inf=False, fnuz=False, nan_code=None),
}
#: Largest finite value of each format.
_MAX = {f: narrow_float_max(n) for n, f in FLOAT_FORMATS.items()}
#: Integer widths and signedness.
INT_FORMATS = {"i4": (4, True), "ui4": (4, False), "i2": (2, True), "ui2": (2, False)}


@register_pass
class GeEmulateNarrowTypesPass(Pass):
    name = "ge-emulate-narrow-types"
    summary = "Store float8/float4/int4/int2 tensors as i8 bytes; lower their ge.casts to i32/f64 arithmetic"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 8

    def run(self, module: ir.Operation) -> None:
        with module.context, ir.Location.unknown():
            self.bump("casts", emulate_narrow_types(module))


def _narrow_tensor(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) and is_narrow(ir.RankedTensorType(t).element_type)


def _storage(t: ir.Type) -> ir.Type:
    if not _narrow_tensor(t):
        return t
    rt = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(rt.shape, ir.IntegerType.get_signless(8), rt.encoding)


def emulate_narrow_types(module: ir.Operation) -> int:
    """Rewrites ``module`` in place (see the module docstring); returns the number of casts lowered.
    Raises PassFailure before changing anything when an op cannot take its narrow operands."""
    ops: list[ir.Operation] = []
    module.walk(lambda o: (ops.append(o), ir.WalkResult.ADVANCE)[1], ir.WalkOrder.PRE_ORDER)
    casts, constants, bitcasts = [], [], []
    for op in ops:
        types = [v.type for v in op.operands] + [r.type for r in op.results]
        if not any(_narrow_tensor(t) for t in types):
            continue
        name = op.name
        if name == "ge.cast":
            src = ir.RankedTensorType(op.operands[0].type).element_type
            dst = ir.RankedTensorType(op.results[0].type).element_type
            if str(dst) == "f8E8M0FNU" and str(src) != str(dst):
                raise PassFailure("ge.cast to f8E8M0FNU is not supported (its rounding needs a mode: build it "
                                  "from ge.bitcast as the ONNX importer does)", at=op)
            if str(src) != str(dst):
                casts.append((op, src, dst))
        elif name == "ge.constant":
            constants.append(op)
        elif name == "ge.bitcast":
            bitcasts.append(op)
        elif name not in MOVE_OPS and name not in PASS_THROUGH:
            shown = ", ".join(sorted({str(ir.RankedTensorType(t).element_type) for t in types if _narrow_tensor(t)}))
            raise PassFailure(f"'{name}' on {shown} tensors is not supported: narrow element types are only "
                              "stored, moved and cast (cast to f32 or dequantize first)", at=op)
    storage_constants = [(op, _constant_bytes(op)) for op in constants]

    for fn in [o.operation for o in module.regions[0].blocks[0].operations if o.operation.name == "func.func"]:
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        fn.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get([_storage(t) for t in ftype.inputs], [_storage(t) for t in ftype.results]))
    for op in ops:
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    arg.set_type(_storage(arg.type))
        for r in op.results:
            r.set_type(_storage(r.type))
    for op, data in storage_constants:
        rt = ir.RankedTensorType(op.results[0].type)
        with op.location, ir.InsertionPoint(op):
            new = ge.constant(ir.DenseElementsAttr.get(data.reshape(rt.shape).view(np.int8), type=rt))
        op.results[0].replace_all_uses_with(new)
        op.erase()
    for op in bitcasts:
        # The stored bytes are the bits: a bitcast between two stored types is the value itself.
        if op.operands[0].type == op.results[0].type:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
    for op, src, dst in casts:
        with op.location, ir.InsertionPoint(op):
            new = elementwise([op.operands[0]], op.results[0].type, _narrow_cast_body(src, dst), upcast=False)
        op.results[0].replace_all_uses_with(new)
        op.erase()
    return len(casts)


def _constant_bytes(op: ir.Operation) -> np.ndarray:
    """The stored bytes of a narrow ``ge.constant`` (uint8, flat). The bindings give no raw data or
    values of these types, so the printed literal is read back and checked to rebuild the same
    attribute (a literal that does not round-trip fails the pass)."""
    attr = op.attributes["value"]
    rt = ir.RankedTensorType(op.results[0].type)
    elem = str(rt.element_type)
    dtype = NARROW_DTYPES[elem]
    if not isinstance(attr, ir.DenseElementsAttr):
        raise PassFailure(f"unsupported {elem} constant {attr} (only dense<> literals)", at=op)
    text = str(attr)
    body = text.rsplit(" : ", 1)[0][len("dense<"):-1]
    if body.startswith('"0x'):
        data = np.frombuffer(bytes.fromhex(body[3:-1]), np.uint8)
        if data.size == 1:
            data = np.full(int(np.prod(rt.shape)), data[0], np.uint8)
    else:
        # Floats print as decimals (nan/inf for the specials), integers as integers, row-major.
        tokens = re.findall(r"[-+]?(?:nan|inf|[0-9][0-9.]*(?:e[-+]?[0-9]+)?)", body)
        values = np.array([float(t) for t in tokens], np.float64)
        if elem.startswith("i") or elem.startswith("ui"):
            values = values.astype(np.int64)
        data = np.broadcast_to(values, (int(np.prod(rt.shape)),) if values.size == 1 else values.shape)
        data = data.astype(dtype).view(np.uint8)
    rebuilt = ir.DenseElementsAttr.get(np.ascontiguousarray(data).reshape(rt.shape), type=rt)
    if str(rebuilt) != text:
        raise PassFailure(f"cannot read back the {elem} constant {text[:80]}", at=op)
    return np.ascontiguousarray(data)


# --------------------------------------------------------------------------
# Scalar decoding and encoding (built inside the linalg.generic body)
# --------------------------------------------------------------------------

def _i32(v: int) -> ir.Value:
    return const(ir.IntegerType.get_signless(32), v)


def _i64(v: int) -> ir.Value:
    return const(ir.IntegerType.get_signless(64), v)


def _cmp(pred: str, a: ir.Value, b: ir.Value) -> ir.Value:
    return arith.cmpi(getattr(arith.CmpIPredicate, pred), a, b)


def _decode_float(b: ir.Value, elem: str) -> ir.Value:
    """The f32 value of the stored byte ``b`` (i8) of a narrow float (exact: every such value is an f32)."""
    i32, f32 = ir.IntegerType.get_signless(32), ir.F32Type.get()
    u = arith.extui(i32, b)
    nan = const(f32, float("nan"))
    if elem == "f8E8M0FNU":
        # 2^(u - 127); u = 0 is the f32 subnormal 2^-127, u = 255 NaN.
        bits = arith.select(_cmp("eq", u, _i32(0)), _i32(0x400000), arith.shli(u, _i32(23)))
        return arith.select(_cmp("eq", u, _i32(255)), nan, arith.bitcast(f32, bits))
    f = FLOAT_FORMATS[elem]
    e = arith.andi(arith.shrui(u, _i32(f.mbits)), _i32((1 << f.ebits) - 1))
    m = arith.andi(u, _i32((1 << f.mbits) - 1))
    sub = _cmp("eq", e, _i32(0))
    # Normal: (2^mbits + m) * 2^(e - bias - mbits); subnormal: m * 2^(1 - bias - mbits).
    mant = arith.uitofp(f32, arith.select(sub, m, arith.ori(m, _i32(1 << f.mbits))))
    scale_exp = arith.subi(arith.select(sub, _i32(1), e), _i32(f.bias + f.mbits))
    pow2 = arith.bitcast(f32, arith.shli(arith.addi(scale_exp, _i32(127)), _i32(23)))
    mag = arith.mulf(mant, pow2)
    neg = _cmp("ne", arith.andi(u, _i32(1 << (f.bits - 1))), _i32(0))
    value = arith.select(neg, arith.negf(mag), mag)
    if f.fnuz:
        return arith.select(_cmp("eq", u, _i32(0x80)), nan, value)
    all_e = _cmp("eq", e, _i32((1 << f.ebits) - 1))
    if f.inf:  # E5M2: all-ones exponent is inf (m = 0) or NaN
        inf = arith.select(neg, const(f32, float("-inf")), const(f32, float("inf")))
        return arith.select(all_e, arith.select(_cmp("eq", m, _i32(0)), inf, nan), value)
    if f.nan_code is not None:  # E4M3FN: S.1111.111
        return arith.select(_cmp("eq", arith.andi(u, _i32(0x7F)), _i32(f.nan_code)), nan, value)
    return value  # float4: every code is a number


def _encode_float(x: ir.Value, elem: str) -> ir.Value:
    """The stored byte (i8) of the f64 ``x`` rounded to a narrow float (see the module docstring)."""
    f = FLOAT_FORMATS[elem]
    i64, f64 = ir.IntegerType.get_signless(64), ir.F64Type.get()
    bits = arith.bitcast(i64, x)
    neg = _cmp("slt", bits, _i64(0))
    a = mmath.absf(x)
    is_nan = arith.cmpf(arith.CmpFPredicate.UNO, a, a)
    # The quantum of a's binade (at least the subnormal one): 2^(max(E, emin) - mbits), exact.
    exp = arith.subi(arith.andi(arith.shrui(bits, _i64(52)), _i64(0x7FF)), _i64(1023))
    exp = arith.maxsi(exp, _i64(f.emin))
    quantum = arith.bitcast(f64, arith.shli(arith.addi(exp, _i64(1023 - f.mbits)), _i64(52)))
    r = arith.mulf(mmath.roundeven(arith.divf(a, quantum)), quantum)
    overflow = arith.cmpf(arith.CmpFPredicate.OGT, r, const(f64, _MAX[f]))  # inf too
    # Encode r (a value of the format, possibly the next binade after rounding up).
    rbits = arith.bitcast(i64, r)
    r_exp = arith.subi(arith.shrui(rbits, _i64(52)), _i64(1023))
    normal = arith.cmpf(arith.CmpFPredicate.OGE, r, const(f64, 2.0 ** f.emin))
    norm_code = arith.ori(
        arith.shli(arith.addi(r_exp, _i64(f.bias)), _i64(f.mbits)),
        arith.andi(arith.shrui(rbits, _i64(52 - f.mbits)), _i64((1 << f.mbits) - 1)))
    sub_code = arith.fptosi(i64, arith.mulf(r, const(f64, 2.0 ** (f.mbits - f.emin))))
    code = arith.select(normal, norm_code, sub_code)
    sign = arith.select(neg, _i64(1 << (f.bits - 1)), _i64(0))
    if f.fnuz:  # no -0
        sign = arith.select(_cmp("eq", code, _i64(0)), _i64(0), sign)
    code = arith.ori(code, sign)
    if f.inf:
        over_code = arith.ori(_i64(((1 << f.ebits) - 1) << f.mbits), sign)  # signed inf
    elif f.fnuz:
        over_code = _i64(0x80)  # the one NaN
    elif f.nan_code is not None:
        over_code = arith.ori(_i64(f.nan_code), sign)  # signed NaN
    else:
        over_code = arith.ori(_i64((1 << (f.bits - 1)) - 1), sign)  # float4 saturates
    code = arith.select(overflow, over_code, code)
    if f.nan_code is None:
        # ml_dtypes' float4 has no NaN: it gives the zero of the other sign (0x8 for +NaN, 0 for -NaN).
        nan_code = arith.select(neg, _i64(0), _i64(1 << (f.bits - 1)))
    elif f.fnuz:
        nan_code = _i64(0x80)
    else:
        nan_code = arith.ori(_i64(f.nan_code), arith.select(neg, _i64(0x80), _i64(0)))
    code = arith.select(is_nan, nan_code, code)
    return arith.trunci(ir.IntegerType.get_signless(8), code)


def _decode_int(b: ir.Value, elem: str) -> ir.Value:
    """The value (i8) of the stored byte of an int4/int2 (sign-extended) or uint4/uint2."""
    i8 = ir.IntegerType.get_signless(8)
    width, signed = INT_FORMATS[elem]
    if signed:
        return arith.shrsi(arith.shli(b, const(i8, 8 - width)), const(i8, 8 - width))
    return arith.andi(b, const(i8, (1 << width) - 1))


def _encode_int(x: ir.Value, xt: ir.Type, elem: str) -> ir.Value:
    """The stored byte of ``x`` (of type ``xt``) cast to an int4/int2: floats truncate towards zero
    (NaN, inf and magnitudes from 2^63 give 0), then the low bits are kept."""
    i8, i64, f64 = ir.IntegerType.get_signless(8), ir.IntegerType.get_signless(64), ir.F64Type.get()
    width, _ = INT_FORMATS[elem]
    k = kind(xt)
    if k == "f":
        x64 = x if str(xt) == "f64" else arith.extf(f64, x)
        fits = arith.cmpf(arith.CmpFPredicate.OLT, mmath.absf(x64), const(f64, 2.0 ** 63))
        v = arith.select(fits, arith.fptosi(i64, x64), _i64(0))
        v = arith.trunci(i8, v)
    elif k == "b":
        v = arith.extui(i8, x)
    else:
        w = ir.IntegerType(signless(xt)).width
        v = x if w == 8 else (arith.trunci(i8, x) if w > 8 else arith.extsi(i8, x))
    return arith.andi(v, const(i8, (1 << width) - 1))


def _to_f64(x: ir.Value, xt: ir.Type) -> ir.Value:
    f64 = ir.F64Type.get()
    k = kind(xt)
    if k == "f":
        return x if str(xt) == "f64" else arith.extf(f64, x)
    if k == "b":
        return arith.uitofp(f64, x)
    return (arith.uitofp if k == "u" else arith.sitofp)(f64, x)


def _narrow_cast_body(src: ir.Type, dst: ir.Type):
    """ge.cast's body with a narrow source (decoded first) or destination (encoded last); the rest
    is the plain cast's."""
    src_name, dst_name = str(src), str(dst)

    def body(xs: list[ir.Value], ts: list[ir.Type]) -> ir.Value:
        x, xt = xs[0], ts[0]
        if src_name in INT_FORMATS:
            x = _decode_int(x, src_name)
            xt = ir.Type.parse("i8" if INT_FORMATS[src_name][1] else "ui8")
        elif is_narrow(src_name):
            x, xt = _decode_float(x, src_name), ir.F32Type.get()
        if dst_name in INT_FORMATS:
            return _encode_int(x, xt, dst_name)
        if dst_name in FLOAT_FORMATS:
            return _encode_float(_to_f64(x, xt), dst_name)
        return cast_body(dst)([x], [xt])

    return body
