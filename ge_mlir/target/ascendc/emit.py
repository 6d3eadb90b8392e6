"""Emit a module in the ``ascendc`` dialect as an Ascend C project.

    files = emit_project(module)          # {"add_0.cpp": "...", "tiling.h": "...", "constants.bin": b"..."}
    write_project(module, "out/")         # the same, written to a directory

Project layout:

* ``<kernel>.cpp``  one per ``ascendc.kernel``: ``extern "C" __global__ __aicore__ void <kernel>(GM_ADDR ...)``;
  one Ascend C API call per op.
* ``tiling.h``      one ``struct <kernel>_Tiling { int64_t field; ... };`` per kernel with a tiling attribute
  (fields in attribute order); kernels read it with ``GET_TILING_DATA``, the host fills it.
* ``kernels.h``     the kernels' ``extern "C"`` prototypes, for the host code.
* ``host.cpp``      ``extern "C" int ge_graph_run(const void* const* inputs, void* const* outputs)`` from the
  ``ascendc.host`` op; a CPU-shim path (``ASCENDC_CPU_DEBUG``) and an ACL runtime path.
* ``constants.bin`` the ``gm_constant`` values, each at a 64-byte aligned offset; the host reads it from
  the path given to ``ge_graph_set_constants_path`` (default: ``GE_GRAPH_CONSTANTS_PATH``, set by CMake).
  A file rather than an embedded array so that large weights do not go through the C++ compiler.
* ``runner.cpp``    a command-line driver of ``ge_graph_run`` (inputs and outputs as raw files), used by
  ``shim_runner`` to run the graph in a child process.
* ``graph.json``    names, dtypes, shapes and byte sizes of the graph's inputs and outputs.
* ``CMakeLists.txt``, ``README.md``.

Optional attributes read by the emitter (discardable, in the ops' attribute dictionaries):

* ``arg_names = ["x", "y", "z"]`` on ``ascendc.kernel`` and ``ascendc.host``: C++ names of the arguments
  (default ``a0, a1, ...``) and, on the host, the input/output names in ``graph.json``.
* ``arg_shapes = [[2, 32], [64], ...]`` on ``ascendc.host``: the shapes in ``graph.json`` (default:
  1-D, ``bytes / sizeof(T)`` elements).

Anything the emitter does not know raises :class:`EmitError` naming the op and its location.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from mlir import ir

from ...errors import GeMlirError, format_location
from .targets import DEFAULT_SOC, SOCS

__all__ = ["EmitError", "emit_project", "write_project"]


class EmitError(GeMlirError):
    """The ``ascendc`` module contains something the Ascend C emitter cannot translate."""


# ----------------------------------------------------------------------------- types

_CXX_SCALAR = {
    "f32": "float",
    "f16": "half",
    "bf16": "bfloat16_t",
    "i1": "bool",
    "i8": "int8_t",
    "ui8": "uint8_t",
    "i16": "int16_t",
    "ui16": "uint16_t",
    "i32": "int32_t",
    "ui32": "uint32_t",
    "i64": "int64_t",
    "ui64": "uint64_t",
    "index": "int64_t",
}
_SIZEOF = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "ui8": 1, "i16": 2, "ui16": 2, "i32": 4, "ui32": 4,
           "i64": 8, "ui64": 8, "i1": 1}
_NUMPY = {"f32": "float32", "f16": "float16", "i8": "int8", "ui8": "uint8", "i16": "int16",
          "ui16": "uint16", "i32": "int32", "ui32": "uint32", "i64": "int64", "ui64": "uint64", "i1": "bool"}

_GM_RE = re.compile(r"^!ascendc\.gm<(\w+)>$")
_LOCAL_RE = re.compile(r"^!ascendc\.local<(\w+), (\d+), (\w+)>$")
_QUE_RE = re.compile(r"^!ascendc\.que<(\w+), (\d+)>$")
_TBUF_RE = re.compile(r"^!ascendc\.tbuf<(\w+)>$")
_ENUM_RE = re.compile(r"^#ascendc\.\w+<(\w+)>$")

_POSITION = {"gm": "GM", "vecin": "VECIN", "vecout": "VECOUT", "veccalc": "VECCALC", "a1": "A1", "a2": "A2",
             "b1": "B1", "b2": "B2", "c1": "C1", "c2": "C2", "co1": "CO1", "co2": "CO2"}
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

_CXX_KEYWORDS = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
    "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export",
    "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
    "namespace", "new", "not", "operator", "or", "private", "protected", "public", "register", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try",
    "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while",
    "xor", "half", "main", "tiling", "tilingData", "AscendC", "int8_t", "int16_t", "int32_t", "int64_t",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "bfloat16_t", "inputs", "outputs", "stream",
}


def _enum(attr: ir.Attribute) -> str:
    m = _ENUM_RE.match(str(attr))
    if not m:
        raise ValueError(f"not an ascendc enum attribute: {attr}")
    return m.group(1)


def _i64(attr: ir.Attribute) -> int:
    return ir.IntegerAttr(attr).value


def _attr_i64(op: ir.Operation, name: str, default: int | None = None) -> int:
    """An integer attribute; DefaultValuedAttr ones may be absent (then ``default``)."""
    if name in op.attributes:
        return ir.IntegerAttr(op.attributes[name]).value
    if default is None:
        raise _error(op, f"missing attribute '{name}'")
    return default


def _bool(attr: ir.Attribute) -> bool:
    return ir.BoolAttr(attr).value


@dataclass(frozen=True)
class _Local:
    elem: str
    size: int
    position: str


def _used(v: ir.Value) -> bool:
    return next(iter(v.uses), None) is not None


def _error(op: ir.Operation, message: str) -> EmitError:
    return EmitError(f"{format_location(op.location)}: {message}", op=op.name)


def _gm_elem(t: ir.Type) -> str | None:
    m = _GM_RE.match(str(t))
    return m.group(1) if m else None


def _local(t: ir.Type) -> _Local | None:
    m = _LOCAL_RE.match(str(t))
    return _Local(m.group(1), int(m.group(2)), m.group(3)) if m else None


def _cxx_type(t: ir.Type, op: ir.Operation) -> str:
    s = str(t)
    if s in _CXX_SCALAR:
        return _CXX_SCALAR[s]
    loc = _local(t)
    if loc is not None:
        return f"AscendC::LocalTensor<{_cxx_elem(loc.elem, op)}>"
    raise _error(op, f"no C++ type for '{s}'")


def _cxx_elem(elem: str, op: ir.Operation) -> str:
    if elem not in _CXX_SCALAR or elem in ("index", "i1"):
        raise _error(op, f"element type '{elem}' has no Ascend C equivalent")
    return _CXX_SCALAR[elem]


def _float_literal(value: float, elem: str) -> str:
    """A C++ literal that reads back as exactly ``value`` rounded to ``elem``."""
    if math.isnan(value):
        text = "__builtin_nanf(\"\")"
    elif value in (float("inf"), float("-inf")):
        text = "__builtin_inff()" if value > 0 else "-__builtin_inff()"
    else:
        f32 = float(np.float32(value))
        text = f"{f32:.9g}"
        if not any(c in text for c in ".en"):
            text += ".0"
        text += "f"
    if elem == "f32":
        return text
    return f"{_CXX_SCALAR[elem]}({text})"


def _ident(text: str) -> str:
    s = re.sub(r"\W", "_", text)
    if not s or s[0].isdigit():
        s = "v" + s
    return s


def _macro_lines(lines: list[str]) -> list[str]:
    """A multi-line macro body with the continuation backslashes aligned."""
    width = max(len(x) for x in lines) + 1
    return [x.ljust(width) + "\\" for x in lines[:-1]] + [lines[-1]]


def _lines_call(indent: str, head: str, args: list[str], tail: str = ";", width: int = 120) -> list[str]:
    """``head(args...)tail``, wrapped at argument boundaries with the continuation under the first argument."""
    one = f"{indent}{head}({', '.join(args)}){tail}"
    if len(one) <= width or len(args) < 2:
        return [one]
    pad = " " * (len(indent) + len(head) + 1)
    lines = [f"{indent}{head}({args[0]}"]
    for i, a in enumerate(args[1:], 1):
        piece = a + (")" + tail if i + 1 == len(args) else "")
        if len(lines[-1]) + 2 + len(piece) + (0 if i + 1 == len(args) else 1) <= width:
            lines[-1] += ", " + piece
        else:
            lines[-1] += ","
            lines.append(pad + piece)
    return lines


# ----------------------------------------------------------------------------- naming


class _Names:
    """Unique, readable C++ identifiers for SSA values of one function."""

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self.used: set[str] = set(_CXX_KEYWORDS) | set(reserved)
        self.counters: dict[str, int] = {}

    def fresh(self, stem: str, numbered: bool = True) -> str:
        stem = _ident(stem)
        if not numbered and stem not in self.used:
            self.used.add(stem)
            return stem
        while True:
            n = self.counters.get(stem, 0)
            self.counters[stem] = n + 1
            name = f"{stem}{n}"
            if name not in self.used:
                self.used.add(name)
                return name


# ----------------------------------------------------------------------------- kernels


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

# Index helpers with MLIR's exact semantics, emitted into a kernel only when it uses them.
_HELPERS = {
    "DivU": "__aicore__ inline int64_t DivU(int64_t a, int64_t b) {\n"
            "  return static_cast<int64_t>(static_cast<uint64_t>(a) / static_cast<uint64_t>(b));\n}",
    "RemU": "__aicore__ inline int64_t RemU(int64_t a, int64_t b) {\n"
            "  return static_cast<int64_t>(static_cast<uint64_t>(a) % static_cast<uint64_t>(b));\n}",
    "CeilDivU": "__aicore__ inline int64_t CeilDivU(int64_t a, int64_t b) {\n"
                "  return a == 0 ? 0 : static_cast<int64_t>((static_cast<uint64_t>(a) - 1) / static_cast<uint64_t>(b) + 1);\n}",
    "CeilDivS": "__aicore__ inline int64_t CeilDivS(int64_t a, int64_t b) {\n"
                "  const int64_t q = a / b;\n"
                "  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;\n}",
    "FloorDivS": "__aicore__ inline int64_t FloorDivS(int64_t a, int64_t b) {\n"
                 "  const int64_t q = a / b;\n"
                 "  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}",
    "MinU": "__aicore__ inline int64_t MinU(int64_t a, int64_t b) {\n"
            "  return static_cast<uint64_t>(a) < static_cast<uint64_t>(b) ? a : b;\n}",
    "MaxU": "__aicore__ inline int64_t MaxU(int64_t a, int64_t b) {\n"
            "  return static_cast<uint64_t>(a) > static_cast<uint64_t>(b) ? a : b;\n}",
}
_HELPER_OF = {"arith.divui": "DivU", "arith.remui": "RemU", "arith.ceildivui": "CeilDivU",
              "arith.ceildivsi": "CeilDivS", "arith.floordivsi": "FloorDivS", "arith.minui": "MinU",
              "arith.maxui": "MaxU"}


class _KernelEmitter:
    def __init__(self, kernel: ir.Operation) -> None:
        self.op = kernel
        self.name = ir.StringAttr(kernel.attributes["sym_name"]).value
        self.kind = _enum(kernel.attributes["kind"])
        self.blocks = _i64(kernel.attributes["block_dim"])
        self.tiling = _tiling_fields(kernel)
        self.names = _Names(reserved=[self.name])
        self.expr: dict[ir.Value, str] = {}
        self.tbuf_bytes: dict[ir.Value, int] = {}
        self.helpers: set[str] = set()
        self.reads_tiling = False
        self.body: list[str] = []
        #: The kernel's ``extern "C"`` declaration (set by :meth:`emit`), for kernels.h.
        self.prototype = ""

    # -- values

    def value(self, v: ir.Value) -> str:
        try:
            return self.expr[v]
        except KeyError:
            raise _error(self.op, f"value {v.get_name()} used before it is emitted") from None

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
        ctype = _cxx_type(result.type, op)
        prefix = "const " if const and not ctype.startswith("AscendC::") else ""
        self.body.append(f"{ind}{prefix}{ctype} {name} = {init};")
        self.expr[result] = name
        return name

    # -- top level

    def emit(self) -> str:
        block = self.op.regions[0].blocks[0]
        arg_names = _arg_names(self.op, len(block.arguments))
        params = []
        ind = "  "
        for arg, base in zip(block.arguments, arg_names):
            elem = _gm_elem(arg.type)
            if elem is None:
                raise _error(self.op, f"kernel argument of type {arg.type} is not a !ascendc.gm<T>")
            base = self.names.fresh(base, numbered=False)
            params.append(f"GM_ADDR {base}")
            gm = self.names.fresh(f"{base}Gm", numbered=False)
            cxx = _cxx_elem(elem, self.op)
            self.body.append(f"{ind}AscendC::GlobalTensor<{cxx}> {gm};")
            self.body.append(f"{ind}{gm}.SetGlobalBuffer((__gm__ {cxx}*){base});")
            self.expr[arg] = gm
        if self.tiling is not None:
            params.append("GM_ADDR tiling")
        self.emit_block(block, ind)
        prologue = [f"{ind}KERNEL_TASK_TYPE_DEFAULT({_KERNEL_TYPE[self.kind]});"]
        if self.reads_tiling:
            # Only when a field is read: an unused tilingData would fail -Wall -Werror.
            prologue.append(f"{ind}REGISTER_TILING_DEFAULT({self.name}_Tiling);")
            prologue.append(f"{ind}GET_TILING_DATA(tilingData, tiling);")
        self.body = prologue + self.body
        lines = [
            f"// Kernel {self.name}: {self.kind}, launched on {self.blocks} block(s).",
            "// Generated by ge-mlir (ge_mlir.target.ascendc.emit) from the ascendc dialect.",
            '#include "kernel_operator.h"',
            '#include "tiling.h"',
            "",
        ]
        if self.helpers:
            lines.append("// Index arithmetic with MLIR's unsigned/rounding semantics.")
            for h in sorted(self.helpers):
                lines += _HELPERS[h].split("\n")
                lines.append("")
        head = f'extern "C" __global__ __aicore__ void {self.name}('
        decl = head + ", ".join(params) + ")"
        if len(decl) > 108:
            decl = head + (",\n" + " " * len(head)).join(params) + ")"
        self.prototype = decl + ";"
        lines.append(decl + " {")
        lines += self.body
        lines.append("}")
        return "\n".join(lines) + "\n"

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
            raise _error(op, f"the Ascend C emitter does not support '{name}'")

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
            lit = _float_literal(ir.FloatAttr(attr).value, t)
            self.declare(ind, op, op.results[0], "cst", lit)
        else:
            raise _error(op, f"constant of type {t} is not supported")

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
        sym, unsigned = _CMPI[_i64(op.attributes["predicate"])]
        if unsigned:
            a, b = f"static_cast<uint64_t>({a})", f"static_cast<uint64_t>({b})"
        self.declare(ind, op, op.results[0], "cond", f"{a} {sym} {b}")

    def op_arith_select(self, op: ir.Operation, ind: str) -> None:
        c, a, b = self._operands(op)
        self.declare(ind, op, op.results[0], "sel", f"{c} ? {a} : {b}")

    def op_arith_index_cast(self, op: ir.Operation, ind: str) -> None:
        (a,) = self._operands(op)
        ctype = _cxx_type(op.results[0].type, op)
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
            self.body.append(f"{ind}{_cxx_type(res.type, op)} {var} = {init};")
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
            raise _error(term, "scf.yield operand count does not match the enclosing op's results")
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
            self.body.append(f"{ind}{_cxx_type(res.type, op)} {var}{{}};")
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
        raise _error(op, "scf.yield outside scf.for/scf.if")

    # system, tiling

    def op_ascendc_block_idx(self, op: ir.Operation, ind: str) -> None:
        self.declare(ind, op, op.results[0], "blockIdx", "AscendC::GetBlockIdx()", numbered=False)

    def op_ascendc_block_num(self, op: ir.Operation, ind: str) -> None:
        self.declare(ind, op, op.results[0], "blockNum", "AscendC::GetBlockNum()", numbered=False)

    def op_ascendc_tiling_get(self, op: ir.Operation, ind: str) -> None:
        field_name = ir.StringAttr(op.attributes["field"]).value
        if self.tiling is None or field_name not in dict(self.tiling):
            raise _error(op, f"tiling field '{field_name}' is not in the kernel's tiling attribute")
        if self.declare(ind, op, op.results[0], field_name, f"tilingData.{field_name}", numbered=False):
            self.reads_tiling = True

    # pipe, queues, buffers

    def op_ascendc_pipe(self, op: ir.Operation, ind: str) -> None:
        name = self.names.fresh("pipe", numbered=False)
        self.body.append(f"{ind}AscendC::TPipe {name};")
        self.expr[op.results[0]] = name

    def op_ascendc_queue(self, op: ir.Operation, ind: str) -> None:
        m = _QUE_RE.match(str(op.results[0].type))
        pos, depth = m.group(1), int(m.group(2))
        name = self.names.fresh(_POSITION_STEM.get(pos, pos) + "Queue")
        pipe = self.value(op.operands[0])
        num, nbytes = _i64(op.attributes["num"]), _i64(op.attributes["bytes"])
        self.body.append(f"{ind}AscendC::TQue<AscendC::TPosition::{_POSITION[pos]}, {depth}> {name};")
        self.body.append(f"{ind}{pipe}.InitBuffer({name}, {num}, {nbytes});")
        self.expr[op.results[0]] = name

    def op_ascendc_tbuf(self, op: ir.Operation, ind: str) -> None:
        pos = _TBUF_RE.match(str(op.results[0].type)).group(1)
        name = self.names.fresh(_POSITION_STEM.get(pos, pos) + "Buf")
        pipe = self.value(op.operands[0])
        nbytes = _i64(op.attributes["bytes"])
        self.body.append(f"{ind}AscendC::TBuf<AscendC::TPosition::{_POSITION[pos]}> {name};")
        self.body.append(f"{ind}{pipe}.InitBuffer({name}, {nbytes});")
        self.expr[op.results[0]] = name
        self.tbuf_bytes[op.results[0]] = nbytes

    def _local_stem(self, holder: str) -> str:
        stem = re.sub(r"(Queue|Buf)\d*$", "", holder)
        return f"{stem}Local"

    def op_ascendc_alloc_tensor(self, op: ir.Operation, ind: str) -> None:
        q = self.value(op.operands[0])
        elem = _cxx_elem(_local(op.results[0].type).elem, op)
        self.declare(ind, op, op.results[0], self._local_stem(q), f"{q}.AllocTensor<{elem}>()", pure=False)

    def op_ascendc_deque(self, op: ir.Operation, ind: str) -> None:
        q = self.value(op.operands[0])
        elem = _cxx_elem(_local(op.results[0].type).elem, op)
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
        loc = _local(op.results[0].type)
        elem = _cxx_elem(loc.elem, op)
        nbytes = self.tbuf_bytes.get(buf)
        if nbytes is not None and loc.size * _SIZEOF[loc.elem] < nbytes:
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
        self.body += _lines_call(ind, "AscendC::DataCopy", [self.value(dst), self.gm_at(src, off), self.value(count)])

    def op_ascendc_copy_local_to_gm(self, op: ir.Operation, ind: str) -> None:
        dst, off, src, count = op.operands
        self.body += _lines_call(ind, "AscendC::DataCopy", [self.gm_at(dst, off), self.value(src), self.value(count)])

    def op_ascendc_copy_local(self, op: ir.Operation, ind: str) -> None:
        self.body += _lines_call(ind, "AscendC::DataCopy", self._operands(op))

    def _ext_params(self, count: ir.Value, elem: str) -> str:
        return f"AscendC::DataCopyExtParams{{1, static_cast<uint32_t>({self.value(count)} * sizeof({elem})), 0, 0, 0}}"

    def op_ascendc_copy_pad_gm_to_local(self, op: ir.Operation, ind: str) -> None:
        dst, src, off, count = op.operands
        elem = _cxx_elem(_local(dst.type).elem, op)
        self.body += _lines_call(ind, "AscendC::DataCopyPad", [
            self.value(dst), self.gm_at(src, off), self._ext_params(count, elem),
            f"AscendC::DataCopyPadExtParams<{elem}>{{false, 0, 0, 0}}"])

    def op_ascendc_copy_pad_local_to_gm(self, op: ir.Operation, ind: str) -> None:
        dst, off, src, count = op.operands
        elem = _cxx_elem(_local(src.type).elem, op)
        self.body += _lines_call(ind, "AscendC::DataCopyPad", [
            self.gm_at(dst, off), self.value(src), self._ext_params(count, elem)])

    # vector unit

    def op_ascendc_vbinary(self, op: ir.Operation, ind: str) -> None:
        fn = _BINARY[_enum(op.attributes["kind"])]
        self.body += _lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_vscalar(self, op: ir.Operation, ind: str) -> None:
        fn = _SCALAR[_enum(op.attributes["kind"])]
        self.body += _lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_vunary(self, op: ir.Operation, ind: str) -> None:
        fn = _UNARY[_enum(op.attributes["kind"])]
        self.body += _lines_call(ind, f"AscendC::{fn}", self._operands(op))

    def op_ascendc_duplicate(self, op: ir.Operation, ind: str) -> None:
        self.body += _lines_call(ind, "AscendC::Duplicate", self._operands(op))

    def op_ascendc_axpy(self, op: ir.Operation, ind: str) -> None:
        self.body += _lines_call(ind, "AscendC::Axpy", self._operands(op))

    def op_ascendc_cast(self, op: ir.Operation, ind: str) -> None:
        dst, src, count = self._operands(op)
        mode = _ROUND[_enum(op.attributes["round"])]
        self.body += _lines_call(ind, "AscendC::Cast", [dst, src, f"AscendC::RoundMode::{mode}", count])

    def op_ascendc_compare(self, op: ir.Operation, ind: str) -> None:
        dst, a, b, count = self._operands(op)
        mode = _CMP[_enum(op.attributes["cmp"])]
        self.body += _lines_call(ind, "AscendC::Compare", [dst, a, b, f"AscendC::CMPMODE::{mode}", count])

    def op_ascendc_select(self, op: ir.Operation, ind: str) -> None:
        dst, mask, a, b, count = self._operands(op)
        mode = _SEL[_enum(op.attributes["sel"])]
        self.body += _lines_call(ind, "AscendC::Select", [dst, mask, a, b, f"AscendC::SELMODE::{mode}", count])

    def op_ascendc_reduce(self, op: ir.Operation, ind: str) -> None:
        fn = _REDUCE[_enum(op.attributes["kind"])]
        self.body += _lines_call(ind, f"AscendC::{fn}", self._operands(op))

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
            ("ndNum", str(_attr_i64(op, "nd_num", 1))), ("nValue", self.value(n_value)),
            ("dValue", self.value(d_value)), ("srcNdMatrixStride", str(_attr_i64(op, "src_nd_matrix_stride", 0))),
            ("srcDValue", str(_attr_i64(op, "src_d_value"))), ("dstNzC0Stride", str(_attr_i64(op, "dst_nz_c0_stride"))),
            ("dstNzNStride", str(_attr_i64(op, "dst_nz_n_stride", 1))),
            ("dstNzMatrixStride", str(_attr_i64(op, "dst_nz_matrix_stride", 0)))])
        self.body.append(f"{ind}AscendC::DataCopy({self.value(dst)}, {self.gm_at(src, off)}, {p});")

    def op_ascendc_load_data_2d(self, op: ir.Operation, ind: str) -> None:
        dst, src, start, repeat, stride = self._operands(op)
        transpose = "if_transpose" in op.attributes and _bool(op.attributes["if_transpose"])
        p = self._params(ind, "LoadData2DParams", "loadParams", [
            ("startIndex", start), ("repeatTimes", repeat), ("srcStride", stride),
            ("dstGap", str(_attr_i64(op, "dst_gap", 0))), ("ifTranspose", "true" if transpose else "false")])
        self.body.append(f"{ind}AscendC::LoadData({dst}, {src}, {p});")

    def op_ascendc_mmad(self, op: ir.Operation, ind: str) -> None:
        c, a, b, init, m, n, k = self._operands(op)
        p = self._params(ind, "MmadParams", "mmadParams",
                         [("m", m), ("n", n), ("k", k), ("cmatrixInitVal", init)])
        self.body.append(f"{ind}AscendC::Mmad({c}, {a}, {b}, {p});")

    def op_ascendc_fixpipe(self, op: ir.Operation, ind: str) -> None:
        dst, off, src, m_size, n_size, src_stride = op.operands
        fields = [("nSize", self.value(n_size)), ("mSize", self.value(m_size)),
                  ("srcStride", self.value(src_stride)), ("dstStride", str(_attr_i64(op, "dst_stride")))]
        src_elem, dst_elem = _local(src.type).elem, _gm_elem(dst.type)
        if src_elem != dst_elem:
            quant = {("f32", "f16"): "F322F16", ("f32", "bf16"): "F322BF16"}.get((src_elem, dst_elem))
            if quant is None:
                raise _error(op, f"Fixpipe from {src_elem} to {dst_elem} needs a quantization mode the emitter "
                                 "does not know")
            fields.append(("quantPre", f"AscendC::QuantMode_t::{quant}"))
        if "relu" in op.attributes and _bool(op.attributes["relu"]):
            fields.append(("reluEn", "true"))
        p = self._params(ind, "FixpipeParamsV220", "fixpipeParams", fields)
        self.body.append(f"{ind}AscendC::Fixpipe({self.gm_at(dst, off)}, {self.value(src)}, {p});")

    # sync

    def op_ascendc_set_flag(self, op: ir.Operation, ind: str) -> None:
        ev = _enum(op.attributes["event"]).upper()
        self.body.append(f"{ind}AscendC::SetFlag<AscendC::HardEvent::{ev}>({_i64(op.attributes['id'])});")

    def op_ascendc_wait_flag(self, op: ir.Operation, ind: str) -> None:
        ev = _enum(op.attributes["event"]).upper()
        self.body.append(f"{ind}AscendC::WaitFlag<AscendC::HardEvent::{ev}>({_i64(op.attributes['id'])});")

    def op_ascendc_pipe_barrier(self, op: ir.Operation, ind: str) -> None:
        pipe = _enum(op.attributes["pipe"]).upper()
        self.body.append(f"{ind}AscendC::PipeBarrier<PIPE_{pipe}>();")

    def op_ascendc_sync_all(self, op: ir.Operation, ind: str) -> None:
        self.body.append(f"{ind}AscendC::SyncAll();")


def _loop_var(names: _Names) -> str:
    for c in "ijklmn":
        if c not in names.used:
            return c
    return "iv"


def _tiling_fields(kernel: ir.Operation) -> list[tuple[str, int]] | None:
    if "tiling" not in kernel.attributes:
        return None
    d = ir.DictAttr(kernel.attributes["tiling"])
    fields = []
    for i in range(len(d)):
        na = d[i]
        if not isinstance(na.attr, ir.IntegerAttr):
            raise _error(kernel, f"tiling field '{na.name}' is not an integer")
        if _ident(na.name) != na.name or na.name in _CXX_KEYWORDS:
            raise _error(kernel, f"tiling field '{na.name}' is not a valid C++ identifier")
        fields.append((na.name, ir.IntegerAttr(na.attr).value))
    return fields


def _arg_names(op: ir.Operation, n: int, default: list[str] | None = None) -> list[str]:
    if "arg_names" not in op.attributes:
        return default or [f"a{i}" for i in range(n)]
    try:
        names = [ir.StringAttr(a).value for a in ir.ArrayAttr(op.attributes["arg_names"])]
    except (ValueError, TypeError):
        raise _error(op, "arg_names must be an array of strings") from None
    if len(names) != n:
        raise _error(op, f"arg_names has {len(names)} entries for {n} arguments")
    return [_ident(x) for x in names]


# ----------------------------------------------------------------------------- host program


@dataclass
class _HostArg:
    name: str
    elem: str
    nbytes: int
    shape: list[int]


@dataclass
class _Host:
    name: str
    inputs: list[_HostArg]
    outputs: list[_HostArg]
    code: str
    constants: bytes


def _constant_bytes(op: ir.Operation, elem: str) -> bytes:
    attr = op.attributes["value"]
    if elem not in _NUMPY:
        raise _error(op, f"constants of element type {elem} are not supported")
    try:
        arr = np.array(ir.DenseElementsAttr(attr))  # i1 included: numpy unpacks it to bool
    except (ValueError, TypeError):
        arr = _resource_array(op, attr)
    return np.ascontiguousarray(arr.astype(_NUMPY[elem])).tobytes()


def _resource_array(op: ir.Operation, attr: ir.Attribute) -> np.ndarray:
    """The data of an f32/f64 ``dense_resource`` constant. Only resource attributes may reach the C API
    reader: it reinterprets any other attribute's storage (and aborts)."""
    from ...ir.constants import read_resource

    try:
        ir.DenseResourceElementsAttr(attr)
        arr = read_resource(attr, ir.RankedTensorType(attr.type))
    except (ValueError, TypeError):
        arr = None
    if arr is None:
        raise _error(op, "cannot read the constant's data (only dense<> and f32/f64 dense_resource are readable)")
    return arr


def _emit_host(host: ir.Operation, kernels: dict[str, ir.Operation]) -> _Host:
    name = ir.StringAttr(host.attributes["sym_name"]).value
    num_inputs = _i64(host.attributes["num_inputs"])
    arg_bytes = list(ir.DenseI64ArrayAttr(host.attributes["arg_bytes"]))
    block = host.regions[0].blocks[0]
    nargs = len(block.arguments)
    arg_names = _arg_names(host, nargs, [f"input{i}" if i < num_inputs else f"output{i - num_inputs}"
                                         for i in range(nargs)])
    shapes: list[list[int] | None] = [None] * nargs
    if "arg_shapes" in host.attributes:
        try:
            arr = ir.ArrayAttr(host.attributes["arg_shapes"])
        except (ValueError, TypeError):
            raise _error(host, "arg_shapes must be an array of shapes") from None
        if len(arr) != nargs:
            raise _error(host, f"arg_shapes has {len(arr)} entries for {nargs} arguments")
        for i, s in enumerate(arr):
            try:
                shapes[i] = list(ir.DenseI64ArrayAttr(s))
            except (ValueError, TypeError):
                try:
                    shapes[i] = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(s)]
                except (ValueError, TypeError):
                    raise _error(host, f"arg_shapes[{i}] = {s} is not a list of integers") from None

    names = _Names(reserved=list(kernels))
    expr: dict[ir.Value, str] = {}
    args: list[_HostArg] = []
    for i, arg in enumerate(block.arguments):
        elem = _gm_elem(arg.type)
        if elem not in _NUMPY:  # graph.json names a numpy dtype (none for bf16)
            raise _error(host, f"host argument {i} has unsupported type {arg.type}")
        var = names.fresh(arg_names[i] + "Dev", numbered=False)
        expr[arg] = var
        shape = shapes[i] if shapes[i] is not None else [arg_bytes[i] // _SIZEOF[elem]]
        if int(np.prod(shape)) * _SIZEOF[elem] != arg_bytes[i]:
            raise _error(host, f"arg_shapes[{i}] = {shape} does not match {arg_bytes[i]} bytes of {elem}")
        args.append(_HostArg(arg_names[i], elem, arg_bytes[i], shape))

    allocs: list[tuple[str, str]] = [(expr[a], str(args[i].nbytes)) for i, a in enumerate(block.arguments)]
    uploads: list[str] = []
    blob = bytearray()
    steps: list[str] = []
    tiling_vars: dict[str, str] = {}
    launched: list[str] = []
    for o in block.operations:
        op = o.operation
        if op.name == "ascendc.gm_alloc":
            var = names.fresh("buf")
            allocs.append((var, str(_i64(op.attributes["bytes"]))))
            expr[op.results[0]] = var
        elif op.name == "ascendc.gm_constant":
            elem = _gm_elem(op.results[0].type)
            data = _constant_bytes(op, elem)
            var = names.fresh("cst")
            blob += b"\0" * (-len(blob) % 64)
            offset = len(blob)
            blob += data
            allocs.append((var, str(len(data))))
            uploads.append(f"  GE_CHECK(ToDevice({var}, constants.data() + {offset}, {len(data)}));")
            expr[op.results[0]] = var
        elif op.name == "ascendc.launch":
            kname = ir.FlatSymbolRefAttr(op.attributes["kernel"]).value
            kernel = kernels.get(kname)
            if kernel is None:
                raise _error(op, f"launch of unknown kernel @{kname}")
            launch_args = [expr[v] for v in op.operands]
            tiling = _tiling_fields(kernel)
            if tiling is not None:
                if kname not in tiling_vars:
                    tv = names.fresh(f"{kname}TilingDev", numbered=False)
                    tiling_vars[kname] = tv
                    allocs.append((tv, f"sizeof({kname}_Tiling)"))
                    fields = ", ".join(str(v) for _, v in tiling)
                    host_var = names.fresh(f"{kname}Tiling", numbered=False)
                    uploads.append(f"  const {kname}_Tiling {host_var}{{{fields}}};")
                    uploads.append(f"  GE_CHECK(ToDevice({tv}, &{host_var}, sizeof({host_var})));")
                launch_args.append(tiling_vars[kname])
            blocks = _i64(kernel.attributes["block_dim"])
            steps.append("#ifdef ASCENDC_CPU_DEBUG")
            steps += _lines_call("  ", "ICPU_RUN_KF", [kname, str(blocks)] + launch_args)
            steps.append("#elif defined(GE_ASCENDC_LEGACY_LAUNCH)")
            steps += _lines_call("  ", f"ACLRT_LAUNCH_KERNEL({kname})", [str(blocks), "gStream"] + launch_args)
            steps.append("#else")
            steps += _lines_call("  ", f"{kname}<<<{blocks}, nullptr, gStream>>>", launch_args)
            steps.append("#endif")
            if kname not in launched:
                launched.append(kname)
        else:
            raise _error(op, f"the Ascend C emitter does not support '{op.name}' in a host program")

    inputs, outputs = args[:num_inputs], args[num_inputs:]
    L: list[str] = []
    L += [
        f"// Host program of graph `{name}`: allocates global memory, uploads inputs, constants and tiling",
        "// structs, launches the kernels in order and copies the outputs back.",
        "//",
        "// ASCENDC_CPU_DEBUG: ge-mlir's CPU shim (or tikicpulib): GmAlloc + ICPU_RUN_KF.",
        "// Otherwise the ACL runtime; GE_ASCENDC_LEGACY_LAUNCH selects the aclrtlaunch_<kernel> stubs of the",
        "// legacy ascendc_library flow instead of <<<>>>. The NPU paths follow the documented host sequence",
        "// but have not been compiled here (no CANN available).",
        "#include <cstddef>",
        "#include <cstdint>",
        "#include <cstdio>",
        "#include <cstring>",
        "#include <string>",
        "#include <vector>",
        "",
        '#include "tiling.h"',
        "#ifdef ASCENDC_CPU_DEBUG",
        '#include "tikicpulib.h"',
        '#include "kernels.h"',
        "#else",
        '#include "acl/acl.h"',
        "#ifdef GE_ASCENDC_LEGACY_LAUNCH",
    ]
    for k in launched:
        L.append(f'#include "aclrtlaunch_{k}.h"')
    L += [
        "#else",
        '#include "kernels.h"',
        "#endif",
        "#endif",
        "",
        "#ifndef GE_GRAPH_CONSTANTS_PATH",
        '#define GE_GRAPH_CONSTANTS_PATH "constants.bin"',
        "#endif",
        "",
        *_macro_lines([
            "#define GE_CHECK(expr)",
            "  do {",
            "    if (!(expr)) {",
            '      std::fprintf(stderr, "ge_graph_run: %s failed\\n", #expr);',
            "      return 1;",
            "    }",
            "  } while (0)"]),
        "",
        "namespace {",
        "",
        f"constexpr size_t kConstantBytes = {len(blob)};",
        "std::string gConstantsPath = GE_GRAPH_CONSTANTS_PATH;",
        "",
        "bool LoadConstants(std::vector<uint8_t>& data) {",
        "  data.assign(kConstantBytes, 0);",
        "  if (kConstantBytes == 0) return true;",
        '  FILE* f = std::fopen(gConstantsPath.c_str(), "rb");',
        "  if (f == nullptr) {",
        '    std::fprintf(stderr, "ge_graph_run: cannot open %s\\n", gConstantsPath.c_str());',
        "    return false;",
        "  }",
        "  const size_t n = std::fread(data.data(), 1, kConstantBytes, f);",
        "  const bool atEnd = std::fgetc(f) == EOF;",
        "  std::fclose(f);",
        "  if (n != kConstantBytes || !atEnd) {",
        '    std::fprintf(stderr, "ge_graph_run: %s is not the %zu-byte constant blob of this graph\\n",',
        "                 gConstantsPath.c_str(), kConstantBytes);",
        "    return false;",
        "  }",
        "  return true;",
        "}",
        "",
        "#ifdef ASCENDC_CPU_DEBUG",
        "bool DeviceInit() { return true; }",
        "void* DeviceAlloc(size_t bytes) { return AscendC::GmAlloc(bytes); }",
        "void DeviceFree(void* p) { AscendC::GmFree(p); }",
        "bool ToDevice(void* dst, const void* src, size_t bytes) {",
        "  std::memcpy(dst, src, bytes);",
        "  return true;",
        "}",
        "bool ToHost(void* dst, const void* src, size_t bytes) {",
        "  std::memcpy(dst, src, bytes);",
        "  return true;",
        "}",
        "bool Synchronize() { return true; }",
        "#else",
        "aclrtStream gStream = nullptr;",
        "",
        "// One ACL context per process: aclInit may only be called once.",
        "bool DeviceInit() {",
        "  static bool ok = [] {",
        "    if (aclInit(nullptr) != ACL_SUCCESS) return false;",
        "    if (aclrtSetDevice(0) != ACL_SUCCESS) return false;",
        "    return aclrtCreateStream(&gStream) == ACL_SUCCESS;",
        "  }();",
        "  return ok;",
        "}",
        "void* DeviceAlloc(size_t bytes) {",
        "  void* p = nullptr;",
        "  return aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? p : nullptr;",
        "}",
        "void DeviceFree(void* p) { aclrtFree(p); }",
        "bool ToDevice(void* dst, const void* src, size_t bytes) {",
        "  return aclrtMemcpy(dst, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;",
        "}",
        "bool ToHost(void* dst, const void* src, size_t bytes) {",
        "  return aclrtMemcpy(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS;",
        "}",
        "bool Synchronize() { return aclrtSynchronizeStream(gStream) == ACL_SUCCESS; }",
        "#endif",
        "",
        "// Frees every buffer on every return path.",
        "struct DeviceBuffers {",
        "  std::vector<void*> all;",
        "  uint8_t* Alloc(size_t bytes) {",
        "    void* p = DeviceAlloc(bytes);",
        "    if (p != nullptr) all.push_back(p);",
        "    return static_cast<uint8_t*>(p);",
        "  }",
        "  ~DeviceBuffers() {",
        "    for (void* p : all) DeviceFree(p);",
        "  }",
        "};",
        "",
        "}  // namespace",
        "",
        'extern "C" void ge_graph_set_constants_path(const char* path) { gConstantsPath = path; }',
        "",
        f"// Inputs: {', '.join(f'{a.name} ({a.elem}, {a.nbytes} B)' for a in inputs) or 'none'}.",
        f"// Outputs: {', '.join(f'{a.name} ({a.elem}, {a.nbytes} B)' for a in outputs) or 'none'}.",
        "// Returns 0 on success, 1 on a runtime error (reported on stderr).",
        'extern "C" int ge_graph_run(const void* const* inputs, void* const* outputs) {',
        "  GE_CHECK(DeviceInit());",
        "  std::vector<uint8_t> constants;",
        "  GE_CHECK(LoadConstants(constants));",
        "  DeviceBuffers buffers;",
    ]
    for var, size in allocs:
        L.append(f"  uint8_t* {var} = buffers.Alloc({size});")
        L.append(f"  GE_CHECK({var} != nullptr);")
    for i, a in enumerate(inputs):
        L.append(f"  GE_CHECK(ToDevice({expr[block.arguments[i]]}, inputs[{i}], {a.nbytes}));")
    L += uploads
    L += steps
    L.append("  GE_CHECK(Synchronize());")
    for j, a in enumerate(outputs):
        L.append(f"  GE_CHECK(ToHost(outputs[{j}], {expr[block.arguments[num_inputs + j]]}, {a.nbytes}));")
    L += ["  return 0;", "}"]
    return _Host(name, inputs, outputs, "\n".join(L) + "\n", bytes(blob))


# ----------------------------------------------------------------------------- project files


def _tiling_header(kernels: list[tuple[str, list[tuple[str, int]] | None]]) -> str:
    L = [
        "// Tiling structs of the kernels: the host fills them (values computed at compile time), the kernels",
        "// read them with GET_TILING_DATA. Plain int64_t fields so host and device agree on the layout.",
        "#ifndef GE_GRAPH_TILING_H",
        "#define GE_GRAPH_TILING_H",
        "",
        "#include <cstdint>",
    ]
    for name, fields in kernels:
        if fields is None:
            continue
        L.append("")
        L.append(f"struct {name}_Tiling {{")
        for f, _ in fields:
            L.append(f"  int64_t {f};")
        L.append("};")
    L += ["", "#endif  // GE_GRAPH_TILING_H"]
    return "\n".join(L) + "\n"


def _kernels_header(protos: list[str]) -> str:
    L = [
        "// Prototypes of the generated kernels, for the host code.",
        "#ifndef GE_GRAPH_KERNELS_H",
        "#define GE_GRAPH_KERNELS_H",
        "",
        '#include "kernel_operator.h"',
        "",
    ]
    L += protos
    L += ["", "#endif  // GE_GRAPH_KERNELS_H"]
    return "\n".join(L) + "\n"


def _runner(host: _Host) -> str:
    n_in, n_out = len(host.inputs), len(host.outputs)
    sizes_in = ", ".join(str(a.nbytes) for a in host.inputs) or "0"
    sizes_out = ", ".join(str(a.nbytes) for a in host.outputs) or "0"
    return "\n".join([
        f"// Command-line driver of graph `{host.name}`:",
        "//   runner CONSTANTS.bin IN_0.bin ... OUT_0.bin ...",
        "// Inputs and outputs are raw little-endian arrays of exactly the graph's byte sizes.",
        "#include <cstdint>",
        "#include <cstdio>",
        "#include <vector>",
        "",
        'extern "C" void ge_graph_set_constants_path(const char* path);',
        'extern "C" int ge_graph_run(const void* const* inputs, void* const* outputs);',
        "",
        f"constexpr int kInputs = {n_in};",
        f"constexpr int kOutputs = {n_out};",
        f"const size_t kInputBytes[] = {{{sizes_in}}};",
        f"const size_t kOutputBytes[] = {{{sizes_out}}};",
        "",
        "int main(int argc, char** argv) {",
        "  if (argc != 2 + kInputs + kOutputs) {",
        '    std::fprintf(stderr, "usage: %s CONSTANTS.bin %d inputs %d outputs\\n", argv[0], kInputs, kOutputs);',
        "    return 2;",
        "  }",
        "  ge_graph_set_constants_path(argv[1]);",
        "  std::vector<std::vector<uint8_t>> in(kInputs), out(kOutputs);",
        "  std::vector<const void*> inPtrs(kInputs + 1, nullptr);",
        "  std::vector<void*> outPtrs(kOutputs + 1, nullptr);",
        "  for (int i = 0; i < kInputs; ++i) {",
        "    in[i].resize(kInputBytes[i]);",
        '    FILE* f = std::fopen(argv[2 + i], "rb");',
        "    const bool ok = f != nullptr && std::fread(in[i].data(), 1, kInputBytes[i], f) == kInputBytes[i];",
        "    if (f != nullptr) std::fclose(f);",
        "    if (!ok) {",
        '      std::fprintf(stderr, "runner: cannot read %zu bytes from %s\\n", kInputBytes[i], argv[2 + i]);',
        "      return 2;",
        "    }",
        "    inPtrs[i] = in[i].data();",
        "  }",
        "  for (int i = 0; i < kOutputs; ++i) {",
        "    out[i].resize(kOutputBytes[i]);",
        "    outPtrs[i] = out[i].data();",
        "  }",
        "  const int rc = ge_graph_run(inPtrs.data(), outPtrs.data());",
        "  if (rc != 0) return rc;",
        "  for (int i = 0; i < kOutputs; ++i) {",
        '    FILE* f = std::fopen(argv[2 + kInputs + i], "wb");',
        "    const bool ok = f != nullptr && std::fwrite(out[i].data(), 1, kOutputBytes[i], f) == kOutputBytes[i];",
        "    if (f != nullptr) std::fclose(f);",
        "    if (!ok) {",
        '      std::fprintf(stderr, "runner: cannot write %s\\n", argv[2 + kInputs + i]);',
        "      return 2;",
        "    }",
        "  }",
        "  return 0;",
        "}",
    ]) + "\n"


def _cmake(kernel_files: list[str], has_host: bool, soc: str, arch: str) -> str:
    kernels = " ".join(kernel_files)
    host = "host.cpp" if has_host else ""
    runner = "\n  add_executable(runner runner.cpp)\n  target_link_libraries(runner PRIVATE graph)" if has_host else ""
    return f"""# Generated by ge-mlir. Three build flows, selected with -DGE_ASCENDC_MODE=...:
#   cpu-shim  host C++ compiler against ge-mlir's clean-room shim (GE_ASCENDC_SHIM_DIR) -> libgraph.so
#   asc       CANN 9.x "ASC language" flow: find_package(ASC), --npu-arch=${{CMAKE_ASC_ARCHITECTURES}}
#   legacy    CANN 8.x kernel direct-call flow: ascendc_library, SOC_VERSION
# The two CANN flows follow the documented templates but have not been run here.
cmake_minimum_required(VERSION 3.16)

set(GE_ASCENDC_MODE "cpu-shim" CACHE STRING "build flow: cpu-shim, asc or legacy")
set_property(CACHE GE_ASCENDC_MODE PROPERTY STRINGS cpu-shim asc legacy)

set(GE_KERNEL_SOURCES {kernels})
set(GE_HOST_SOURCES {host})

if(GE_ASCENDC_MODE STREQUAL "cpu-shim")
  project(ge_graph LANGUAGES CXX)
  set(CMAKE_CXX_STANDARD 17)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(GE_ASCENDC_SHIM_DIR "" CACHE PATH "ge-mlir's Ascend C CPU shim (ge_mlir/target/ascendc/shim)")
  if(NOT EXISTS "${{GE_ASCENDC_SHIM_DIR}}/include/kernel_operator.h")
    message(FATAL_ERROR "set GE_ASCENDC_SHIM_DIR to ge_mlir/target/ascendc/shim")
  endif()
  find_package(Threads REQUIRED)
  add_library(graph SHARED ${{GE_KERNEL_SOURCES}} ${{GE_HOST_SOURCES}})
  target_include_directories(graph PRIVATE "${{GE_ASCENDC_SHIM_DIR}}/include" "${{CMAKE_CURRENT_SOURCE_DIR}}")
  target_compile_definitions(graph PRIVATE ASCENDC_CPU_DEBUG
    GE_GRAPH_CONSTANTS_PATH="${{CMAKE_CURRENT_SOURCE_DIR}}/constants.bin")
  target_compile_options(graph PRIVATE -Wall -Werror)
  target_link_libraries(graph PRIVATE Threads::Threads){runner}

elseif(GE_ASCENDC_MODE STREQUAL "asc")
  set(CMAKE_ASC_ARCHITECTURES "{arch}" CACHE STRING "NPU architecture: dav-2201, dav-3510")
  find_package(ASC REQUIRED)
  project(ge_graph LANGUAGES ASC CXX)
  # Kernels and the <<<>>> launches in host.cpp are ASC language sources.
  set_source_files_properties(${{GE_KERNEL_SOURCES}} ${{GE_HOST_SOURCES}} PROPERTIES LANGUAGE ASC)
  add_library(graph SHARED ${{GE_KERNEL_SOURCES}} ${{GE_HOST_SOURCES}})
  target_include_directories(graph PRIVATE "${{CMAKE_CURRENT_SOURCE_DIR}}")
  target_compile_definitions(graph PRIVATE GE_GRAPH_CONSTANTS_PATH="${{CMAKE_CURRENT_SOURCE_DIR}}/constants.bin")
  target_compile_options(graph PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=${{CMAKE_ASC_ARCHITECTURES}}>)

elseif(GE_ASCENDC_MODE STREQUAL "legacy")
  project(ge_graph LANGUAGES CXX)
  set(SOC_VERSION "{soc}" CACHE STRING "SoC, e.g. Ascend910B1, Ascend310P3")
  set(RUN_MODE "npu" CACHE STRING "cpu, sim or npu")
  set(ASCEND_CANN_PACKAGE_PATH "$ENV{{ASCEND_HOME_PATH}}" CACHE PATH "CANN installation")
  if(EXISTS "${{ASCEND_CANN_PACKAGE_PATH}}/compiler/tikcpp/ascendc_kernel_cmake")
    set(ASCENDC_CMAKE_DIR "${{ASCEND_CANN_PACKAGE_PATH}}/compiler/tikcpp/ascendc_kernel_cmake")
  elseif(EXISTS "${{ASCEND_CANN_PACKAGE_PATH}}/tools/tikcpp/ascendc_kernel_cmake")
    set(ASCENDC_CMAKE_DIR "${{ASCEND_CANN_PACKAGE_PATH}}/tools/tikcpp/ascendc_kernel_cmake")
  else()
    message(FATAL_ERROR "ascendc_kernel_cmake not found under ${{ASCEND_CANN_PACKAGE_PATH}}")
  endif()
  include("${{ASCENDC_CMAKE_DIR}}/ascendc.cmake")
  ascendc_library(ge_kernels SHARED ${{GE_KERNEL_SOURCES}})
  ascendc_include_directories(ge_kernels PRIVATE "${{CMAKE_CURRENT_SOURCE_DIR}}")
  ascendc_compile_definitions(ge_kernels PRIVATE HAVE_TILING)
  add_library(graph SHARED ${{GE_HOST_SOURCES}})
  target_include_directories(graph PRIVATE "${{CMAKE_CURRENT_SOURCE_DIR}}"
    "${{ASCEND_CANN_PACKAGE_PATH}}/include")
  target_compile_definitions(graph PRIVATE GE_ASCENDC_LEGACY_LAUNCH
    GE_GRAPH_CONSTANTS_PATH="${{CMAKE_CURRENT_SOURCE_DIR}}/constants.bin")
  target_link_directories(graph PRIVATE "${{ASCEND_CANN_PACKAGE_PATH}}/lib64")
  target_link_libraries(graph PRIVATE ge_kernels ascendcl)

else()
  message(FATAL_ERROR "GE_ASCENDC_MODE must be cpu-shim, asc or legacy, not '${{GE_ASCENDC_MODE}}'")
endif()
"""


def _readme(graph: str | None, kernel_files: list[str], soc: str, arch: str) -> str:
    return f"""# Ascend C project generated by ge-mlir

Kernels: {", ".join(kernel_files) or "none"}. Host program: {"`host.cpp` (graph `" + graph + "`)" if graph else "none"}.

| File | Contents |
|---|---|
| `<kernel>.cpp` | one `extern "C" __global__ __aicore__` kernel each |
| `tiling.h` | the tiling struct of each kernel (`<kernel>_Tiling`) |
| `kernels.h` | kernel prototypes for the host code |
| `host.cpp` | `ge_graph_run(inputs, outputs)` and `ge_graph_set_constants_path(path)` |
| `constants.bin` | the graph's constants, read by `ge_graph_run` |
| `runner.cpp` | `runner CONSTANTS.bin IN... OUT...`: runs the graph on raw files |
| `graph.json` | names, dtypes, shapes and byte sizes of inputs and outputs |

## CPU, against ge-mlir's shim (no CANN needed)

    cmake -S . -B build -DGE_ASCENDC_MODE=cpu-shim -DGE_ASCENDC_SHIM_DIR=<ge-mlir>/ge_mlir/target/ascendc/shim
    cmake --build build

or from Python: `ge_mlir.target.ascendc.shim_runner.ShimExecutable(<this directory>)`.

## NPU, CANN 9.x ASC language flow

    cmake -S . -B build -DGE_ASCENDC_MODE=asc -DCMAKE_ASC_ARCHITECTURES={arch}
    cmake --build build

## NPU, legacy `ascendc_library` flow (CANN 8.x)

    cmake -S . -B build -DGE_ASCENDC_MODE=legacy -DSOC_VERSION={soc} -DASCEND_CANN_PACKAGE_PATH=$ASCEND_HOME_PATH
    cmake --build build

The NPU flows follow the documented CMake templates and host sequence; they have not been built here.
"""


def emit_project(module: ir.Module) -> dict[str, str | bytes]:
    """The files of the Ascend C project for ``module`` (file name -> text or bytes)."""
    body = module.body
    kernels: dict[str, ir.Operation] = {}
    hosts: list[ir.Operation] = []
    for o in body.operations:
        op = o.operation
        if op.name == "ascendc.kernel":
            kernels[ir.StringAttr(op.attributes["sym_name"]).value] = op
        elif op.name == "ascendc.host":
            hosts.append(op)
        else:
            raise _error(op, f"the Ascend C emitter does not support '{op.name}' at module level")
    if len(hosts) > 1:
        raise _error(hosts[1], "more than one ascendc.host program in the module")

    soc, arch = DEFAULT_SOC, str(SOCS[DEFAULT_SOC]["arch"])
    if "ascendc.target" in module.operation.attributes:
        t = str(module.operation.attributes["ascendc.target"])
        m = re.search(r'soc = "([^"]+)", arch = "([^"]+)"', t)
        if m:
            soc, arch = m.group(1), m.group(2)

    files: dict[str, str | bytes] = {}
    protos = []
    for name, kop in kernels.items():
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise _error(kop, f"kernel name '{name}' is not a C++ identifier")
        if name in ("host", "runner", "ge_graph_run"):
            raise _error(kop, f"kernel name '{name}' clashes with a generated file or function")
        em = _KernelEmitter(kop)
        files[f"{name}.cpp"] = em.emit()
        protos.append(em.prototype)
    files["tiling.h"] = _tiling_header([(n, _tiling_fields(k)) for n, k in kernels.items()])
    files["kernels.h"] = _kernels_header(protos)
    manifest: dict = {"kernels": [{"name": n, "blocks": _i64(k.attributes["block_dim"]),
                                   "kind": _enum(k.attributes["kind"])} for n, k in kernels.items()],
                      "soc": soc, "arch": arch}
    graph_name = None
    if hosts:
        host = _emit_host(hosts[0], kernels)
        graph_name = host.name
        files["host.cpp"] = host.code
        files["runner.cpp"] = _runner(host)
        files["constants.bin"] = host.constants
        manifest.update({
            "graph": host.name,
            "inputs": [{"name": a.name, "dtype": _NUMPY[a.elem], "shape": a.shape, "bytes": a.nbytes}
                       for a in host.inputs],
            "outputs": [{"name": a.name, "dtype": _NUMPY[a.elem], "shape": a.shape, "bytes": a.nbytes}
                        for a in host.outputs],
            "constants": "constants.bin",
        })
    kernel_files = [f"{n}.cpp" for n in kernels]
    files["graph.json"] = json.dumps(manifest, indent=2) + "\n"
    files["CMakeLists.txt"] = _cmake(kernel_files, bool(hosts), soc, arch)
    files["README.md"] = _readme(graph_name, kernel_files, soc, arch)
    return files


def write_project(module: ir.Module, output_dir: str | Path) -> Path:
    """Writes the project of ``module`` into ``output_dir`` (created if needed); returns the directory."""
    out = Path(output_dir)
    files = emit_project(module)
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = out / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return out
