"""The functions of a module as a compiled model sees them: which one to compile, its I/O names."""

from __future__ import annotations

import re

from mlir import ir

__all__ = ["defined_functions", "io_names", "pick_function", "symbol_name"]


def symbol_name(fn: ir.Operation) -> str:
    return ir.StringAttr(fn.attributes["sym_name"]).value


def defined_functions(module: ir.Module) -> list[ir.Operation]:
    """``func.func`` ops with a body, in module order."""
    return [op.operation for op in module.body.operations
            if op.operation.name == "func.func" and op.operation.regions[0].blocks]


def pick_function(module: ir.Module, name: str | None) -> ir.Operation:
    """The function named ``name``, else the only public one; LookupError (saying which
    functions there are) when there is no such function."""
    defined = defined_functions(module)
    names = [symbol_name(f) for f in defined]
    if name is not None:
        for f in defined:
            if symbol_name(f) == name:
                return f
        raise LookupError(f"no function @{name} in the module (functions: {', '.join(names) or 'none'})")
    public = [f for f in defined if "sym_visibility" not in f.attributes
              or ir.StringAttr(f.attributes["sym_visibility"]).value == "public"]
    if len(public) != 1:
        shown = ", ".join(symbol_name(f) for f in public) or "none"
        raise LookupError(f"the module has {len(public)} public functions ({shown}); name the one to compile")
    return public[0]


def io_names(fn: ir.Operation, *, identifiers: bool = False) -> tuple[list[str], list[str]]:
    """Names of ``fn``'s inputs and outputs: the ONNX names (``onnx.name`` argument/result
    attributes) when known, else ``arg<i>``/``result<i>``. With ``identifiers`` the names are
    unique C identifiers (``input<i>``/``output<i>`` by default)."""
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    groups = []
    for key, count, prefix in (("arg_attrs", len(ftype.inputs), "input" if identifiers else "arg"),
                               ("res_attrs", len(ftype.results), "output" if identifiers else "result")):
        names = [f"{prefix}{i}" for i in range(count)]
        if key in fn.attributes:
            for i, d in enumerate(ir.ArrayAttr(fn.attributes[key])):
                d = ir.DictAttr(d)
                if "onnx.name" in d and i < count:
                    name = ir.StringAttr(d["onnx.name"]).value
                    if identifiers:
                        name = re.sub(r"\W", "_", name)
                        if not name or name[0].isdigit():
                            continue
                    names[i] = name
        groups.append(names)
    if identifiers:
        seen: set[str] = set()
        for names in groups:
            for i, n in enumerate(names):
                while n in seen:
                    n += "_"
                names[i] = n
                seen.add(n)
    return groups[0], groups[1]
