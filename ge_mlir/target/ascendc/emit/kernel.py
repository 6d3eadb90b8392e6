"""Kernel bodies: one ``ascendc.kernel`` -> one ``<kernel>.cpp`` with one Ascend C API call per op."""

from __future__ import annotations

import functools
import re

from mlir import ir

from ....dialects.ascendc import (
    BinaryKindAttr,
    CmpModeAttr,
    EventAttr,
    KernelKindAttr,
    PipeAttr,
    ReduceKindAttr,
    RoundModeAttr,
    ScalarKindAttr,
    SelModeAttr,
    UnaryKindAttr,
)
from .common import (
    SIZEOF,
    Names,
    arg_names,
    attr_i64,
    boolean,
    cxx_elem,
    cxx_type,
    enum_case,
    error,
    float_literal,
    gm_elem,
    i64,
    lines_call,
    local,
    queue,
    render,
    tbuf_position,
    template,
    tiling_fields,
)

# Name stems of queues/buffers by position (the classic samples' inQueue/outQueue style).
_POSITION_STEM = {"vecin": "in", "vecout": "out", "veccalc": "calc"}

_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "max": "Max", "min": "Min",
           "and": "And", "or": "Or"}
_SCALAR = {"adds": "Adds", "muls": "Muls", "maxs": "Maxs", "mins": "Mins", "leaky_relu": "LeakyRelu"}
_UNARY = {"exp": "Exp", "ln": "Ln", "abs": "Abs", "sqrt": "Sqrt", "rsqrt": "Rsqrt", "reciprocal": "Reciprocal",
          "relu": "Relu", "not": "Not"}
_REDUCE = {"sum": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}
_ROUND = {"none": "CAST_NONE", "rint": "CAST_RINT", "floor": "CAST_FLOOR", "ceil": "CAST_CEIL",
          "round": "CAST_ROUND", "trunc": "CAST_TRUNC", "odd": "CAST_ODD"}
_CMP = {"lt": "LT", "gt": "GT", "eq": "EQ", "le": "LE", "ge": "GE", "ne": "NE"}
_SEL = {"cmpmask_spr": "VSEL_CMPMASK_SPR", "tensor_scalar": "VSEL_TENSOR_SCALAR_MODE",
        "tensor_tensor": "VSEL_TENSOR_TENSOR_MODE"}
_KERNEL_TYPE = {"vector": "KERNEL_TYPE_AIV_ONLY", "cube": "KERNEL_TYPE_AIC_ONLY", "mix": "KERNEL_TYPE_MIX_AIC_1_2"}


def _used(v: ir.Value) -> bool:
    return next(iter(v.uses), None) is not None


_ARITH_BINARY = {
    "arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divsi": "/", "arith.remsi": "%",
    "arith.andi": "&", "arith.ori": "|", "arith.xori": "^",
    "arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/",
}
_ARITH_STEM = {
    "arith.addi": "sum", "arith.subi": "diff", "arith.muli": "prod", "arith.divsi": "quot", "arith.divui": "quot",
    "arith.remsi": "rem", "arith.remui": "rem", "arith.ceildivsi": "ceilDiv", "arith.ceildivui": "ceilDiv",
    "arith.floordivsi": "floorDiv", "arith.minsi": "minVal", "arith.minui": "minVal", "arith.maxsi": "maxVal",
    "arith.maxui": "maxVal", "arith.andi": "bits", "arith.ori": "bits", "arith.xori": "bits",
    "arith.addf": "sum", "arith.subf": "diff", "arith.mulf": "prod", "arith.divf": "quot",
    "arith.cmpi": "cond", "arith.select": "sel", "arith.index_cast": "idx",
}
# Not emitted (refused): float min/max (NaN rules a ternary does not follow), index_castui/extui (zero
# extension), shifts, cmpf; add them with exact semantics when a lowering needs them.
# arith.cmpi predicate values (mlir::arith::CmpIPredicate).
_CMPI = {0: ("==", False), 1: ("!=", False), 2: ("<", False), 3: ("<=", False), 4: (">", False), 5: (">=", False),
         6: ("<", True), 7: ("<=", True), 8: (">", True), 9: (">=", True)}

# Index helpers with MLIR's exact semantics (templates/index_helpers.h), emitted into a kernel only when it
# uses them.
_HELPER_OF = {"arith.divui": "DivU", "arith.remui": "RemU", "arith.ceildivui": "CeilDivU",
              "arith.ceildivsi": "CeilDivS", "arith.floordivsi": "FloorDivS", "arith.minui": "MinU",
              "arith.maxui": "MaxU"}


class _KernelEmitter:
    def __init__(self, kernel: ir.Operation) -> None:
        self.op = kernel
        self.name = ir.StringAttr(kernel.attributes["sym_name"]).value
        self.kind = enum_case(kernel.attributes["kind"], KernelKindAttr)
        self.blocks = i64(kernel.attributes["block_dim"])
        self.tiling = tiling_fields(kernel)
        self.names = Names(reserved=[self.name])
        self.expr: dict[ir.Value, str] = {}
        self.tbuf_bytes: dict[ir.Value, int] = {}
        self.helpers: set[str] = set()
        self.reads_tiling = False
        #: A TQue was declared: hand-written flags then take event ids from the pipe.
        self.queues = False
        self.pipe_name = "pipe"
        #: (event, id attribute) of a SetFlag -> the variable holding its fetched id, for the WaitFlag.
        self.event_ids: dict[tuple[str, str], str] = {}
        self.body: list[str] = []
        #: The kernel's ``extern "C"`` declaration (set by :meth:`emit`), for kernels.h.
        self.prototype = ""

    # -- values

    def value(self, v: ir.Value) -> str:
        try:
            return self.expr[v]
        except KeyError:
            raise error(self.op, f"value {v.get_name()} used before it is emitted") from None

    def gm_at(self, gm: ir.Value, offset: ir.Value) -> str:
        off = self.value(offset)
        return self.value(gm) if off == "0" else f"{self.value(gm)}[{off}]"

    def declare(self, ind: str, op: ir.Operation, result: ir.Value, stem: str, init: str,
                const: bool = True, numbered: bool = True, pure: bool = True) -> str:
        if not _used(result):
            # An unused C++ local fails -Wall -Werror: drop pure ones, keep the call of the others.
            if not pure:
                self.body.append(f"{ind}{init};")
            return ""
        name = self.names.fresh(stem, numbered)
        ctype = cxx_type(result.type, op)
        prefix = "const " if const and not ctype.startswith("AscendC::") else ""
        self.body.append(f"{ind}{prefix}{ctype} {name} = {init};")
        self.expr[result] = name
        return name

    # -- top level

    def emit(self) -> str:
        block = self.op.regions[0].blocks[0]
        names = arg_names(self.op, len(block.arguments))
        params = []
        ind = "  "
        for arg, base in zip(block.arguments, names):
            elem = gm_elem(arg.type)
            if elem is None:
                raise error(self.op, f"kernel argument of type {arg.type} is not a !ascendc.gm<T>")
            base = self.names.fresh(base, numbered=False)
            params.append(f"GM_ADDR {base}")
            gm = self.names.fresh(f"{base}Gm", numbered=False)
            cxx = cxx_elem(elem, self.op)
            self.body.append(f"{ind}AscendC::GlobalTensor<{cxx}> {gm};")
            self.body.append(f"{ind}{gm}.SetGlobalBuffer((__gm__ {cxx}*){base});")
            self.expr[arg] = gm
        if self.tiling is not None:
            # By value: GET_TILING_DATA / REGISTER_TILING_DEFAULT are not supported in kernel
            # direct-call projects (ASCENDC_API.md, Corrections 1).
            params.append(f"{self.name}_Tiling tilingData")
        self.emit_block(block, ind)
        prologue = [f"{ind}KERNEL_TASK_TYPE_DEFAULT({_KERNEL_TYPE[self.kind]});"]
        self.body = prologue + self.body
        helpers: list[str] = []
        if self.helpers:
            comment, functions = _index_helpers()
            helpers.append(comment)
            for h in sorted(self.helpers):
                helpers += functions[h].split("\n")
                helpers.append("")
        head = f'extern "C" __global__ __aicore__ void {self.name}('
        decl = head + ", ".join(params) + ")"
        if len(decl) > 108:
            decl = head + (",\n" + " " * len(head)).join(params) + ")"
        self.prototype = decl + ";"
        return render("kernel.cpp.in", name=self.name, kind=self.kind, blocks=str(self.blocks), helpers=helpers,
                      signature=decl, body=self.body)

    def emit_block(self, block: ir.Block, ind: str) -> None:
        for op in block.operations:
            self.emit_op(op.operation, ind)

    # -- ops

    def emit_op(self, op: ir.Operation, ind: str) -> None:
        name = op.name
        handler = getattr(self, "op_" + name.replace(".", "_"), None)
        if handler is not None:
            handler(op, ind)
        elif name in _ARITH_BINARY or name in _HELPER_OF or name in ("arith.minsi", "arith.maxsi"):
            self.arith_binary(op, ind)
        else:
            raise error(op, f"the Ascend C emitter does not support '{name}'")

    def _operands(self, op: ir.Operation) -> list[str]:
        return [self.value(v) for v in op.operands]

    # arith / scf

    def op_arith_constant(self, op: ir.Operation, ind: str) -> None:
        attr = op.attributes["value"]
        t = str(op.results[0].type)
        if t in ("index", "i64", "i32", "i16", "i8", "ui8", "ui16", "ui32", "ui64"):
            self.expr[op.results[0]] = str(ir.IntegerAttr(attr).value)
        elif t == "i1":
            self.expr[op.results[0]] = "true" if ir.IntegerAttr(attr).value else "false"
        elif t in ("f32", "f16", "bf16"):
            lit = float_literal(ir.FloatAttr(attr).value, t)
            self.declare(ind, op, op.results[0], "cst", lit)
        else:
            raise error(op, f"constant of type {t} is not supported")

    def arith_binary(self, op: ir.Operation, ind: str) -> None:
        a, b = self._operands(op)
        name = op.name
        if name in _HELPER_OF:
            self.helpers.add(_HELPER_OF[name])
            init = f"{_HELPER_OF[name]}({a}, {b})"
        elif name == "arith.minsi":
            init = f"{a} < {b} ? {a} : {b}"
        elif name == "arith.maxsi":
            init = f"{a} > {b} ? {a} : {b}"
        else:
            init = f"{a} {_ARITH_BINARY[name]} {b}"
        self.declare(ind, op, op.results[0], _ARITH_STEM.get(name, "v"), init)

    def op_arith_cmpi(self, op: ir.Operation, ind: str) -> None:
        a, b = self._operands(op)
        sym, unsigned = _CMPI[i64(op.attributes["predicate"])]
        if unsigned:
            a, b = f"static_cast<uint64_t>({a})", f"static_cast<uint64_t>({b})"
        self.declare(ind, op, op.results[0], "cond", f"{a} {sym} {b}")

    def op_arith_select(self, op: ir.Operation, ind: str) -> None:
        c, a, b = self._operands(op)
        self.declare(ind, op, op.results[0], "sel", f"{c} ? {a} : {b}")

    def op_arith_index_cast(self, op: ir.Operation, ind: str) -> None:
        (a,) = self._operands(op)
        ctype = cxx_type(op.results[0].type, op)
        self.declare(ind, op, op.results[0], "idx", f"static_cast<{ctype}>({a})")

    op_arith_extsi = op_arith_index_cast
    op_arith_trunci = op_arith_index_cast

    def op_scf_for(self, op: ir.Operation, ind: str) -> None:
        lb, ub, step, *inits = self._operands(op)
        body = op.regions[0].blocks[0]
        iv = body.arguments[0]
        carried = list(body.arguments)[1:]
        vars_ = []
        for arg, res, init in zip(carried, op.results, inits):
            var = self.names.fresh("acc")
            self.body.append(f"{ind}{cxx_type(res.type, op)} {var} = {init};")
            self.expr[arg] = var
            self.expr[res] = var
            vars_.append(var)
        ivname = self.names.fresh(_loop_var(self.names), numbered=False)
        self.expr[iv] = ivname
        inc = f"++{ivname}" if step == "1" else f"{ivname} += {step}"
        self.body.append(f"{ind}for (int64_t {ivname} = {lb}; {ivname} < {ub}; {inc}) {{")
        self.emit_region_block(body, ind + "  ", vars_)
        self.body.append(f"{ind}}}")

    def emit_region_block(self, block: ir.Block, ind: str, targets: list[str]) -> None:
        ops = [o.operation for o in block.operations]
        for o in ops[:-1]:
            self.emit_op(o, ind)
        term = ops[-1] if ops else None
        if term is None or term.name != "scf.yield":
            if term is not None:
                self.emit_op(term, ind)
            return
        values = self._operands(term)
        if len(targets) != len(values):
            raise error(term, "scf.yield operand count does not match the enclosing op's results")
        pending = [(t, v) for t, v in zip(targets, values) if t != v]
        if len(pending) > 1 and any(v in targets for _, v in pending):
            # Parallel assignment: stage the new values first so no target is read after it is overwritten.
            staged = []
            for t, v in pending:
                tmp = self.names.fresh(f"{t}Next", numbered=False)
                self.body.append(f"{ind}const auto {tmp} = {v};")
                staged.append((t, tmp))
            pending = staged
        for t, v in pending:
            self.body.append(f"{ind}{t} = {v};")

    def op_scf_if(self, op: ir.Operation, ind: str) -> None:
        (cond,) = self._operands(op)
        targets = []
        for res in op.results:
            var = self.names.fresh("res")
            self.body.append(f"{ind}{cxx_type(res.type, op)} {var}{{}};")
            self.expr[res] = var
            targets.append(var)
        self.body.append(f"{ind}if ({cond}) {{")
        self.emit_region_block(op.regions[0].blocks[0], ind + "  ", targets)
        if len(op.regions) > 1 and len(op.regions[1].blocks) > 0:
            else_block = op.regions[1].blocks[0]
            if len(else_block.operations) > 1 or targets:
                self.body.append(f"{ind}}} else {{")
                self.emit_region_block(else_block, ind + "  ", targets)
        self.body.append(f"{ind}}}")

    def op_scf_yield(self, op: ir.Operation, ind: str) -> None:
        raise error(op, "scf.yield outside scf.for/scf.if")

    # system, tiling

    def op_ascendc_block_idx(self, op: ir.Operation, ind: str) -> None:
        self.declare(ind, op, op.results[0], "blockIdx", "AscendC::GetBlockIdx()", numbered=False)

    def op_ascendc_block_num(self, op: ir.Operation, ind: str) -> None:
        self.declare(ind, op, op.results[0], "blockNum", "AscendC::GetBlockNum()", numbered=False)

    def op_ascendc_tiling_get(self, op: ir.Operation, ind: str) -> None:
        field_name = ir.StringAttr(op.attributes["field"]).value
        if self.tiling is None or field_name not in dict(self.tiling):
            raise error(op, f"tiling field '{field_name}' is not in the kernel's tiling attribute")
        if self.declare(ind, op, op.results[0], field_name, f"tilingData.{field_name}", numbered=False):
            self.reads_tiling = True

    # pipe, queues, buffers

    def op_ascendc_pipe(self, op: ir.Operation, ind: str) -> None:
        name = self.names.fresh("pipe", numbered=False)
        self.pipe_name = name
        self.body.append(f"{ind}AscendC::TPipe {name};")
        self.expr[op.results[0]] = name

    def op_ascendc_queue(self, op: ir.Operation, ind: str) -> None:
        pos, depth = queue(op.results[0].type)
        name = self.names.fresh(_POSITION_STEM.get(pos, pos) + "Queue")
        pipe = self.value(op.operands[0])
        num, nbytes = i64(op.attributes["num"]), i64(op.attributes["bytes"])
        self.body.append(f"{ind}AscendC::TQue<AscendC::TPosition::{pos.upper()}, {depth}> {name};")
        self.queues = True
        self.body.append(f"{ind}{pipe}.InitBuffer({name}, {num}, {nbytes});")
        self.expr[op.results[0]] = name

    def op_ascendc_tbuf(self, op: ir.Operation, ind: str) -> None:
        pos = tbuf_position(op.results[0].type)
        name = self.names.fresh(_POSITION_STEM.get(pos, pos) + "Buf")
        pipe = self.value(op.operands[0])
        nbytes = i64(op.attributes["bytes"])
        self.body.append(f"{ind}AscendC::TBuf<AscendC::TPosition::{pos.upper()}> {name};")
        self.body.append(f"{ind}{pipe}.InitBuffer({name}, {nbytes});")
        self.expr[op.results[0]] = name
        self.tbuf_bytes[op.results[0]] = nbytes

    def _local_stem(self, holder: str) -> str:
        stem = re.sub(r"(Queue|Buf)\d*$", "", holder)
        return f"{stem}Local"

    def op_ascendc_alloc_tensor(self, op: ir.Operation, ind: str) -> None:
        q = self.value(op.operands[0])
        elem = cxx_elem(local(op.results[0].type).elem, op)
        self.declare(ind, op, op.results[0], self._local_stem(q), f"{q}.AllocTensor<{elem}>()", pure=False)

    def op_ascendc_deque(self, op: ir.Operation, ind: str) -> None:
        q = self.value(op.operands[0])
        elem = cxx_elem(local(op.results[0].type).elem, op)
        self.declare(ind, op, op.results[0], self._local_stem(q), f"{q}.DeQue<{elem}>()", pure=False)

    def op_ascendc_enque(self, op: ir.Operation, ind: str) -> None:
        q, t = self._operands(op)
        self.body.append(f"{ind}{q}.EnQue({t});")

    def op_ascendc_free_tensor(self, op: ir.Operation, ind: str) -> None:
        q, t = self._operands(op)
        self.body.append(f"{ind}{q}.FreeTensor({t});")

    def op_ascendc_tbuf_get(self, op: ir.Operation, ind: str) -> None:
        buf = op.operands[0]
        b = self.value(buf)
        loc = local(op.results[0].type)
        elem = cxx_elem(loc.elem, op)
        nbytes = self.tbuf_bytes.get(buf)
        if nbytes is not None and loc.size * SIZEOF[loc.elem] < nbytes:
            init = f"{b}.Get<{elem}>({loc.size})"
        else:
            init = f"{b}.Get<{elem}>()"
        self.declare(ind, op, op.results[0], self._local_stem(b), init)

    def op_ascendc_local_slice(self, op: ir.Operation, ind: str) -> None:
        src, off = self._operands(op)
        self.expr[op.results[0]] = src if off == "0" else f"{src}[{off}]"

    # data movement

    def op_ascendc_copy_gm_to_local(self, op: ir.Operation, ind: str) -> None:
        dst, src, off, count = op.operands
        self.body += lines_call(ind, "AscendC::DataCopy", [self.value(dst), self.gm_at(src, off), self.value(count)])

    def op_ascendc_copy_local_to_gm(self, op: ir.Operation, ind: str) -> None:
        dst, off, src, count = op.operands
        self.body += lines_call(ind, "AscendC::DataCopy", [self.gm_at(dst, off), self.value(src), self.value(count)])

    def op_ascendc_copy_local(self, op: ir.Operation, ind: str) -> None:
        self.body += lines_call(ind, "AscendC::DataCopy", self._operands(op))

    def _ext_params(self, count: ir.Value, elem: str) -> str:
        return f"AscendC::DataCopyExtParams{{1, static_cast<uint32_t>({self.value(count)} * sizeof({elem})), 0, 0, 0}}"

    def op_ascendc_copy_pad_gm_to_local(self, op: ir.Operation, ind: str) -> None:
        dst, src, off, count = op.operands
        elem = cxx_elem(local(dst.type).elem, op)
        self.body += lines_call(ind, "AscendC::DataCopyPad", [
            self.value(dst), self.gm_at(src, off), self._ext_params(count, elem),
            f"AscendC::DataCopyPadExtParams<{elem}>{{false, 0, 0, 0}}"])

    def op_ascendc_copy_pad_local_to_gm(self, op: ir.Operation, ind: str) -> None:
        dst, off, src, count = op.operands
        elem = cxx_elem(local(src.type).elem, op)
        self.body += lines_call(ind, "AscendC::DataCopyPad", [
            self.gm_at(dst, off), self.value(src), self._ext_params(count, elem)])

    # vector unit

    def op_ascendc_vbinary(self, op: ir.Operation, ind: str) -> None:
        fn = _BINARY[enum_case(op.attributes["kind"], BinaryKindAttr)]
        self.body += lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_vscalar(self, op: ir.Operation, ind: str) -> None:
        fn = _SCALAR[enum_case(op.attributes["kind"], ScalarKindAttr)]
        self.body += lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_vunary(self, op: ir.Operation, ind: str) -> None:
        fn = _UNARY[enum_case(op.attributes["kind"], UnaryKindAttr)]
        self.body += lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_duplicate(self, op: ir.Operation, ind: str) -> None:
        self.body += lines_call(ind, "AscendC::Duplicate", self._operands(op))

    def op_ascendc_axpy(self, op: ir.Operation, ind: str) -> None:
        self.body += lines_call(ind, "AscendC::Axpy", self._operands(op))

    def op_ascendc_cast(self, op: ir.Operation, ind: str) -> None:
        dst, src, count = self._operands(op)
        mode = _ROUND[enum_case(op.attributes["round"], RoundModeAttr)]
        self.body += lines_call(ind, "AscendC::Cast", [dst, src, f"AscendC::RoundMode::{mode}", count])

    def op_ascendc_compare(self, op: ir.Operation, ind: str) -> None:
        dst, a, b, count = self._operands(op)
        mode = _CMP[enum_case(op.attributes["cmp"], CmpModeAttr)]
        self.body += lines_call(ind, "AscendC::Compare", [dst, a, b, f"AscendC::CMPMODE::{mode}", count])

    def op_ascendc_select(self, op: ir.Operation, ind: str) -> None:
        dst, mask, a, b, count = self._operands(op)
        mode = _SEL[enum_case(op.attributes["sel"], SelModeAttr)]
        self.body += lines_call(ind, "AscendC::Select", [dst, mask, a, b, f"AscendC::SELMODE::{mode}", count])

    def op_ascendc_reduce(self, op: ir.Operation, ind: str) -> None:
        fn = _REDUCE[enum_case(op.attributes["kind"], ReduceKindAttr)]
        self.body += lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_get_value(self, op: ir.Operation, ind: str) -> None:
        t, i = self._operands(op)
        self.declare(ind, op, op.results[0], "val", f"{t}.GetValue({i})", pure=False)

    def op_ascendc_set_value(self, op: ir.Operation, ind: str) -> None:
        t, i, v = self._operands(op)
        self.body.append(f"{ind}{t}.SetValue({i}, {v});")

    # cube unit: parameter structs are filled by name, which does not depend on field or constructor order.

    def _params(self, ind: str, ctype: str, stem: str, fields: list[tuple[str, str]]) -> str:
        name = self.names.fresh(stem)
        self.body.append(f"{ind}AscendC::{ctype} {name};")
        for f, v in fields:
            self.body.append(f"{ind}{name}.{f} = {v};")
        return name

    def op_ascendc_copy_nd2nz(self, op: ir.Operation, ind: str) -> None:
        dst, src, off, n_value, d_value = op.operands
        p = self._params(ind, "Nd2NzParams", "nd2nzParams", [
            ("ndNum", str(attr_i64(op, "nd_num", 1))), ("nValue", self.value(n_value)),
            ("dValue", self.value(d_value)), ("srcNdMatrixStride", str(attr_i64(op, "src_nd_matrix_stride", 0))),
            ("srcDValue", str(attr_i64(op, "src_d_value"))), ("dstNzC0Stride", str(attr_i64(op, "dst_nz_c0_stride"))),
            ("dstNzNStride", str(attr_i64(op, "dst_nz_n_stride", 1))),
            ("dstNzMatrixStride", str(attr_i64(op, "dst_nz_matrix_stride", 0)))])
        self.body.append(f"{ind}AscendC::DataCopy({self.value(dst)}, {self.gm_at(src, off)}, {p});")

    def op_ascendc_load_data_2d(self, op: ir.Operation, ind: str) -> None:
        dst, src, start, repeat, stride = self._operands(op)
        transpose = "if_transpose" in op.attributes and boolean(op.attributes["if_transpose"])
        p = self._params(ind, "LoadData2DParams", "loadParams", [
            ("startIndex", start), ("repeatTimes", repeat), ("srcStride", stride),
            ("dstGap", str(attr_i64(op, "dst_gap", 0))), ("ifTranspose", "true" if transpose else "false")])
        self.body.append(f"{ind}AscendC::LoadData({dst}, {src}, {p});")

    def op_ascendc_mmad(self, op: ir.Operation, ind: str) -> None:
        c, a, b, init, m, n, k = self._operands(op)
        p = self._params(ind, "MmadParams", "mmadParams",
                         [("m", m), ("n", n), ("k", k), ("cmatrixInitVal", init)])
        self.body.append(f"{ind}AscendC::Mmad({c}, {a}, {b}, {p});")

    def op_ascendc_fixpipe(self, op: ir.Operation, ind: str) -> None:
        dst, off, src, m_size, n_size, src_stride = op.operands
        fields = [("nSize", self.value(n_size)), ("mSize", self.value(m_size)),
                  ("srcStride", self.value(src_stride)), ("dstStride", str(attr_i64(op, "dst_stride")))]
        src_elem, dst_elem = local(src.type).elem, gm_elem(dst.type)
        if src_elem != dst_elem:
            quant = {("f32", "f16"): "F322F16", ("f32", "bf16"): "F322BF16"}.get((src_elem, dst_elem))
            if quant is None:
                raise error(op, f"Fixpipe from {src_elem} to {dst_elem} needs a quantization mode the emitter "
                                 "does not know")
            # QuantMode_t lives outside namespace AscendC in the public headers (Corrections 2).
            fields.append(("quantPre", f"QuantMode_t::{quant}"))
        if "relu" in op.attributes and boolean(op.attributes["relu"]):
            fields.append(("reluEn", "true"))
        p = self._params(ind, "FixpipeParamsV220", "fixpipeParams", fields)
        self.body.append(f"{ind}AscendC::Fixpipe({self.gm_at(dst, off)}, {self.value(src)}, {p});")

    # sync

    def op_ascendc_set_flag(self, op: ir.Operation, ind: str) -> None:
        ev = enum_case(op.attributes["event"], EventAttr).upper()
        eid = str(i64(op.attributes["id"]))
        if self.queues:
            # With TQue queues in use the pipe hands out event ids (their own synchronization takes
            # some): a hand-written flag fetches one instead of a literal (Corrections 5).
            var = self.names.fresh("eventId")
            self.body.append(f"{ind}const AscendC::TEventID {var} = "
                             f"{self.pipe_name}.FetchEventID<AscendC::HardEvent::{ev}>();")
            self.event_ids[(ev, eid)] = var
            eid = var
        self.body.append(f"{ind}AscendC::SetFlag<AscendC::HardEvent::{ev}>({eid});")

    def op_ascendc_wait_flag(self, op: ir.Operation, ind: str) -> None:
        ev = enum_case(op.attributes["event"], EventAttr).upper()
        eid = str(i64(op.attributes["id"]))
        if self.queues:
            var = self.event_ids.get((ev, eid))
            if var is None:
                raise error(op, f"WaitFlag<{ev}>({eid}) has no SetFlag before it in the kernel: with queues in "
                                f"use its event id must come from the SetFlag's FetchEventID")
            eid = var
        self.body.append(f"{ind}AscendC::WaitFlag<AscendC::HardEvent::{ev}>({eid});")

    def op_ascendc_pipe_barrier(self, op: ir.Operation, ind: str) -> None:
        pipe = enum_case(op.attributes["pipe"], PipeAttr).upper()
        self.body.append(f"{ind}AscendC::PipeBarrier<PIPE_{pipe}>();")

    def op_ascendc_sync_all(self, op: ir.Operation, ind: str) -> None:
        self.body.append(f"{ind}AscendC::SyncAll();")


def _loop_var(names: Names) -> str:
    for c in "ijklmn":
        if c not in names.used:
            return c
    return "iv"



@functools.cache
def _index_helpers() -> tuple[str, dict[str, str]]:
    """The heading comment and the functions (by name) of templates/index_helpers.h, which separates them
    with blank lines."""
    comment, *functions = template("index_helpers.h").rstrip("\n").split("\n\n")
    return comment, {re.search(r"int64_t (\w+)\(", f).group(1): f for f in functions}
