"""ge-verify-graph: graph-level invariants beyond the op verifiers."""

from __future__ import annotations

from mlir import ir

from ..passes.registry import Option, Pass, PassFailure, register_pass

_SUPPORTED_ELEMENTS = {"f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"}


@register_pass
class GeVerifyGraphPass(Pass):
    name = "ge-verify-graph"
    summary = "Check that a module is a well-formed ge graph (ops, types, shapes, functions)"
    description = (
        "Reports every problem (not just the first) as an error at the op's location: ops "
        "outside the allowed dialects, values that are not ranked tensors of supported element "
        "types, dynamic dimensions when static shapes are required, functions without a body, "
        "and graphs with no outputs."
    )
    stage = "after-import"
    priority = 0
    options = (
        Option("allowed-dialects", list, ["ge", "func"], "dialects whose ops may appear in graph functions"),
        Option("require-static-shapes", bool, False, "reject dynamic dimensions"),
    )

    def run(self, module: ir.Operation) -> None:
        allowed = set(self.opt("allowed-dialects"))
        static = self.opt("require-static-shapes")
        problems: list[tuple[ir.Location, str]] = []

        def check_value(v: ir.Value, what: str, loc: ir.Location) -> None:
            if not isinstance(v.type, ir.RankedTensorType):
                problems.append((loc, f"{what} has type {v.type}, expected a ranked tensor"))
                return
            t = ir.RankedTensorType(v.type)
            if str(t.element_type) not in _SUPPORTED_ELEMENTS:
                problems.append((loc, f"{what} has unsupported element type {t.element_type}"))
            if static and not t.has_static_shape:
                problems.append((loc, f"{what} has dynamic shape {t} (require-static-shapes)"))

        funcs = 0
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name != "func.func":
                problems.append((op.location, f"unexpected top-level op '{op.operation.name}' (expected func.func)"))
                continue
            funcs += 1
            region = op.regions[0]
            if len(region.blocks) == 0:
                problems.append((op.location, f"function @{ir.StringAttr(op.attributes['sym_name']).value} has no body"))
                continue
            if len(region.blocks) != 1:
                problems.append((op.location, "graph functions must have a single block"))
            block = region.blocks[0]
            for i, arg in enumerate(block.arguments):
                check_value(arg, f"argument #{i}", op.location)
            for inner in block.operations:
                name = inner.operation.name
                dialect = name.split(".", 1)[0]
                if dialect not in allowed:
                    problems.append((inner.location, f"op '{name}' is not in the allowed dialects ({', '.join(sorted(allowed))})"))
                if name == "func.return":
                    if len(inner.operands) == 0:
                        problems.append((inner.location, "graph has no outputs"))
                    continue
                for j, res in enumerate(inner.results):
                    check_value(res, f"result #{j} of '{name}'", inner.location)
        if funcs == 0:
            problems.append((module.location, "module contains no graph function"))
        for loc, msg in problems:
            loc.emit_error(f"{self.name}: {msg}")
        self.bump("problems", len(problems))
        if problems:
            raise PassFailure(f"{len(problems)} problem(s) found", at=module, reported=True)
