"""What the kernel, host and project emitters share: the error, C++ names, types and literals, the
reading of ascendc types and attributes, and the templates of the fixed C++/CMake text."""

from __future__ import annotations

import functools
import math
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

import numpy as np
from mlir import ir

from ....dialects.ascendc import GlobalTensorType, LocalTensorType, QueueType, TargetAttr, TBufType
from ....errors import GeMlirError, format_location
from ....irutils.types import NUMPY_DTYPES


class EmitError(GeMlirError):
    """The ``ascendc`` module contains something the Ascend C emitter cannot translate."""


def error(op: ir.Operation, message: str) -> EmitError:
    return EmitError(f"{format_location(op.location)}: {message}", op=op.name)


# ----------------------------------------------------------------------------- types

CXX_SCALAR = {
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
_HOST_ELEMS = ("f32", "f16", "bf16", "i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64", "i1")
#: Bytes per element of the types global memory holds (sizes from the one table, ``ir.types``).
SIZEOF = {name: np.dtype(NUMPY_DTYPES[name]).itemsize for name in _HOST_ELEMS}
#: numpy dtype names graph.json gives the host buffers (none for bf16: numpy has no such dtype).
NUMPY = {name: np.dtype(NUMPY_DTYPES[name]).name for name in _HOST_ELEMS if name != "bf16"}

CXX_KEYWORDS = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
    "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export",
    "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
    "namespace", "new", "not", "operator", "or", "private", "protected", "public", "register", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try",
    "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while",
    "xor", "half", "main", "tiling", "tilingData", "AscendC", "int8_t", "int16_t", "int32_t", "int64_t",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "bfloat16_t", "inputs", "outputs", "stream",
}


def enum_case(attr: ir.Attribute, cls: type) -> str:
    """The case name (as in the IR: "vecin", "mte2_v", ...) of an ascendc enum attribute of class ``cls``
    (``KernelKindAttr``, ``EventAttr``, ...)."""
    return str(cls(attr).value)


def i64(attr: ir.Attribute) -> int:
    return ir.IntegerAttr(attr).value


def attr_i64(op: ir.Operation, name: str, default: int | None = None) -> int:
    """An integer attribute; DefaultValuedAttr ones may be absent (then ``default``)."""
    if name in op.attributes:
        return ir.IntegerAttr(op.attributes[name]).value
    if default is None:
        raise error(op, f"missing attribute '{name}'")
    return default


def boolean(attr: ir.Attribute) -> bool:
    return ir.BoolAttr(attr).value


@dataclass(frozen=True)
class Local:
    """A ``!ascendc.local``. Element types and positions here are their IR names ("f32", "vecin"), the
    keys of the C++ tables."""

    elem: str
    size: int
    position: str


def gm_elem(t: ir.Type) -> str | None:
    """The element type of a ``!ascendc.gm<T>``, None for any other type."""
    return str(GlobalTensorType(t).element_type) if GlobalTensorType.isinstance(t) else None


def local(t: ir.Type) -> Local | None:
    if not LocalTensorType.isinstance(t):
        return None
    lt = LocalTensorType(t)
    return Local(str(lt.element_type), lt.size, str(lt.position))


def queue(t: ir.Type) -> tuple[str, int]:
    """Position and depth of a ``!ascendc.que``."""
    q = QueueType(t)
    return str(q.position), q.depth


def tbuf_position(t: ir.Type) -> str:
    return str(TBufType(t).position)


def target_soc_arch(module: ir.Module) -> tuple[str, str] | None:
    """SoC and architecture of the module's ``#ascendc.target``, if it has one."""
    attrs = module.operation.attributes
    if "ascendc.target" not in attrs or not TargetAttr.isinstance(attrs["ascendc.target"]):
        return None
    target = TargetAttr(attrs["ascendc.target"])
    return target.soc, target.arch


def cxx_type(t: ir.Type, op: ir.Operation) -> str:
    s = str(t)
    if s in CXX_SCALAR:
        return CXX_SCALAR[s]
    loc = local(t)
    if loc is not None:
        return f"AscendC::LocalTensor<{cxx_elem(loc.elem, op)}>"
    raise error(op, f"no C++ type for '{s}'")


def cxx_elem(elem: str, op: ir.Operation) -> str:
    if elem not in CXX_SCALAR or elem in ("index", "i1"):
        raise error(op, f"element type '{elem}' has no Ascend C equivalent")
    return CXX_SCALAR[elem]


def float_literal(value: float, elem: str) -> str:
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
    return f"{CXX_SCALAR[elem]}({text})"


# ----------------------------------------------------------------------------- names and lines


def ident(text: str) -> str:
    s = re.sub(r"\W", "_", text)
    if not s or s[0].isdigit():
        s = "v" + s
    return s


class Names:
    """Unique, readable C++ identifiers for SSA values of one function."""

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self.used: set[str] = set(CXX_KEYWORDS) | set(reserved)
        self.counters: dict[str, int] = {}

    def fresh(self, stem: str, numbered: bool = True) -> str:
        stem = ident(stem)
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


def lines_call(indent: str, head: str, args: list[str], tail: str = ";", width: int = 120) -> list[str]:
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


# ----------------------------------------------------------------------------- kernel and host attributes


def tiling_fields(kernel: ir.Operation) -> list[tuple[str, int]] | None:
    if "tiling" not in kernel.attributes:
        return None
    d = ir.DictAttr(kernel.attributes["tiling"])
    fields = []
    for i in range(len(d)):
        na = d[i]
        if not isinstance(na.attr, ir.IntegerAttr):
            raise error(kernel, f"tiling field '{na.name}' is not an integer")
        if ident(na.name) != na.name or na.name in CXX_KEYWORDS:
            raise error(kernel, f"tiling field '{na.name}' is not a valid C++ identifier")
        fields.append((na.name, ir.IntegerAttr(na.attr).value))
    return fields


def arg_names(op: ir.Operation, n: int, default: list[str] | None = None) -> list[str]:
    if "arg_names" not in op.attributes:
        return default or [f"a{i}" for i in range(n)]
    try:
        names = [ir.StringAttr(a).value for a in ir.ArrayAttr(op.attributes["arg_names"])]
    except (ValueError, TypeError):
        raise error(op, "arg_names must be an array of strings") from None
    if len(names) != n:
        raise error(op, f"arg_names has {len(names)} entries for {n} arguments")
    return [ident(x) for x in names]


# ----------------------------------------------------------------------------- templates


class _Template(string.Template):
    """``@name@`` placeholders, as in CMake's configure_file: C++ and CMake text both use ``$`` and braces."""

    delimiter = "@"
    pattern = r"""
    @(?:
      (?P<escaped>@) |
      (?P<named>[_a-z][_a-z0-9]*)@ |
      (?P<braced>(?!)) |
      (?P<invalid>)
    )
    """


@functools.cache
def template(name: str) -> str:
    """The text of ``templates/<name>``: package data next to this package."""
    return (resources.files(__package__.rpartition(".")[0]) / "templates" / name).read_text(encoding="utf-8")


_LINE_PLACEHOLDER = re.compile(r"@([_a-z][_a-z0-9]*)@")


def render(template_name: str, /, **values: str | list[str]) -> str:
    """``templates/<template_name>`` with its placeholders replaced. A string value replaces ``@key@``
    anywhere; a list value replaces a line that is just ``@key@`` with its lines (none: the line
    disappears), so that optional and repeated blocks need no blank-line bookkeeping in Python."""
    scalars = {k: v for k, v in values.items() if isinstance(v, str)}
    out: list[str] = []
    for line in template(template_name).split("\n"):
        m = _LINE_PLACEHOLDER.fullmatch(line)
        if m and isinstance(values.get(m.group(1)), list):
            out += values[m.group(1)]
        else:
            out.append(_Template(line).substitute(scalars))
    return "\n".join(out)
