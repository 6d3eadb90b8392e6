"""ge op schemas, read from the generated op builders (``ge_mlir.dialects.ge``): how each op takes
its operands, attributes and result type, and the friendly op names of the view (``Reshape``)."""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

from ._errors import _edit_error

#: Friendly names that are not the CamelCase of the mnemonic (ONNX/GE spellings).
_SPECIAL_NAMES = {"matmul": "MatMul", "argmax": "ArgMax", "argmin": "ArgMin"}


def friendly_name(op_name: str) -> str:
    """``ge.reshape`` -> ``Reshape``, ``ge.batch_norm`` -> ``BatchNorm``, ``ge.conv2d`` -> ``Conv2D``,
    ``ge.matmul`` -> ``MatMul``; ops of other dialects keep their full name."""
    dialect, _, mnemonic = op_name.partition(".")
    if dialect != "ge" or not mnemonic:
        return op_name
    if mnemonic in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[mnemonic]
    camel = "".join(p[:1].upper() + p[1:] for p in mnemonic.split("_"))
    return re.sub(r"(\d)d$", r"\1D", camel)


@dataclass(frozen=True)
class _Schema:
    """How the generated builder of one ge op takes its operands, attributes and result types."""

    ge_op: str
    cls: type
    #: (parameter, kind): kind is "one", "optional" or "variadic", in operand order.
    operands: tuple[tuple[str, str], ...]
    #: attribute name -> (attribute builder kind such as "I64Attr", required)
    attrs: dict[str, tuple[str, bool]]
    #: the parameter taking the result type, for ops without type inference (reshape, cast, ...)
    result_param: str | None


_ATTR_LINE = re.compile(
    r'attributes\["(\w+)"\] = \((\w+) if \(\s*isinstance\(\2, _ods_ir\.Attribute\) or\s*'
    r"not _ods_ir\.AttrBuilder\.contains\('(\w+)'\)", re.S)
_OPERAND_LINE = re.compile(r"operands\.append\((\w+)\)|operands\.extend\(_get_op_results_or_values\((\w+)\)\)")
_SCHEMAS: dict[str, _Schema] = {}
_BY_NAME: dict[str, str] = {}


def _schemas() -> dict[str, _Schema]:
    """Every ge op's schema (parsed once from ``ge_mlir.dialects.ge``)."""
    if _SCHEMAS:
        return _SCHEMAS
    from ...dialects import ge as ge_dialect

    for cls in vars(ge_dialect).values():
        name = getattr(cls, "OPERATION_NAME", None)
        if not isinstance(cls, type) or not isinstance(name, str) or not name.startswith("ge."):
            continue
        src = inspect.getsource(cls.__init__)
        params = inspect.signature(cls.__init__).parameters
        operands = []
        for m in _OPERAND_LINE.finditer(src):
            if m.group(2):
                operands.append((m.group(2), "variadic"))
            else:
                p = params[m.group(1)]
                operands.append((p.name, "optional" if p.default is None else "one"))
        attrs = {m.group(1): (m.group(3), params[m.group(2)].default is inspect.Parameter.empty)
                 for m in _ATTR_LINE.finditer(src)}
        res = re.search(r"results\.append\((\w+)\)", src)
        _SCHEMAS[name] = _Schema(name, cls, tuple(operands), attrs, res.group(1) if res else None)
    for name in _SCHEMAS:
        mnemonic = name[3:]
        for key in (name, mnemonic, friendly_name(name), friendly_name(name).lower()):
            _BY_NAME.setdefault(key, name)
    return _SCHEMAS


def _schema(op: str, what: str = "cannot create a node") -> _Schema:
    """The schema of ``op`` given as ``"Reshape"``, ``"reshape"`` or ``"ge.reshape"``."""
    schemas = _schemas()
    name = _BY_NAME.get(op) or _BY_NAME.get(op.lower()) if isinstance(op, str) else None
    if name is None:
        import difflib

        close = difflib.get_close_matches(str(op), sorted({friendly_name(n) for n in schemas}), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise _edit_error(f"{what}: unknown ge op {op!r}{hint}")
    return schemas[name]
