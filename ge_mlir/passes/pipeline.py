"""Pass pipeline strings mixing ge Python passes and upstream MLIR passes.

Python passes cannot appear in MLIR's textual pipeline parser, so the
pipeline is split here at top-level commas: each element that names a ge pass
becomes a Python pass instance, every other element is handed to
``PassManager.add`` as upstream text. Everything lands in one PassManager, so
IR printing and timing cover the whole pipeline in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mlir import ir
from mlir.passmanager import PassManager

from ..errors import Diagnostic, PassFailedError, PassOptionError, PassPipelineError, UnknownPassError
from .registry import Pass, get_pass


@dataclass
class PipelineElement:
    """One top-level pipeline element: a ge pass or an upstream text element."""

    text: str
    ge_pass: Pass | None = None
    options: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.ge_pass.name if self.ge_pass else self.text


def _split_top_level(text: str, sep: str = ",") -> list[str]:
    parts, depth, cur, quote = [], 0, [], None
    for i, ch in enumerate(text):
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0:
                raise PassPipelineError(f"unbalanced '{ch}' at column {i + 1} of pipeline {text!r}")
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if quote or depth != 0:
        raise PassPipelineError(f"unbalanced brackets or quotes in pipeline {text!r}")
    parts.append("".join(cur).strip())
    return parts


def _parse_options(pass_name: str, body: str) -> dict[str, str]:
    """`a=1 b=x,y c="q r"` -> {"a": "1", "b": "x,y", "c": "q r"}."""
    opts: dict[str, str] = {}
    for item in _split_top_level(body.strip(), sep=" "):
        if not item:
            continue
        if "=" not in item:
            # Bare flag, as in mlir: `{cse}` means cse=true.
            key, value = item, "true"
        else:
            key, value = item.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if value.startswith("{") and value.endswith("}"):
            value = value[1:-1]
        key = key.strip()
        if not key:
            raise PassOptionError(f"malformed option {item!r} for pass '{pass_name}'")
        opts[key] = value
    return opts


def _unwrap_anchor(text: str) -> str:
    text = text.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        return text[len("builtin.module(") : -1]
    return text


def parse_pipeline(text: str) -> list[PipelineElement]:
    """Parses ``[builtin.module(]elem, elem{opts}, anchor(...)[)]``."""
    body = _unwrap_anchor(text)
    elements: list[PipelineElement] = []
    if not body.strip():
        return elements
    for raw in _split_top_level(body):
        if not raw:
            raise PassPipelineError(f"empty element in pipeline {text!r}")
        name, opts_text = raw, None
        if "{" in raw and raw.endswith("}") and "(" not in raw.split("{", 1)[0]:
            name, opts_text = raw.split("{", 1)
            name, opts_text = name.strip(), opts_text[:-1]
        if name.startswith("ge-"):
            cls = get_pass(name)
            options = _parse_options(name, opts_text) if opts_text is not None else {}
            elements.append(PipelineElement(raw, cls(**options), options))
        else:
            if "ge-" in raw and "(" in raw:
                inner = [p for p in raw.replace("(", ",").replace(")", ",").split(",") if p.strip().startswith("ge-")]
                if inner:
                    raise PassPipelineError(
                        f"ge pass '{inner[0].strip()}' is nested in {name.split('(')[0]!r}: ge passes are "
                        "module passes and must appear at the top level of the pipeline"
                    )
            elements.append(PipelineElement(raw))
    return elements


def build_pass_manager(
    pipeline: str | list[PipelineElement],
    context: ir.Context | None = None,
    *,
    print_ir_before_all: bool = False,
    print_ir_after_all: bool = False,
    print_ir_tree_dir: str | None = None,
    print_generic: bool = False,
    print_debuginfo: bool = False,
    timing: bool = False,
    verify_each: bool = True,
) -> tuple[PassManager, list[PipelineElement]]:
    """Builds one module-anchored PassManager for the whole pipeline."""
    elements = parse_pipeline(pipeline) if isinstance(pipeline, str) else pipeline
    ctx = context or ir.Context.current
    pm = PassManager("builtin.module", context=ctx)
    for el in elements:
        if el.ge_pass is not None:
            pm.add(
                el.ge_pass.as_callback(),
                name=type(el.ge_pass).__name__,
                argument=el.ge_pass.name,
                description=el.ge_pass.summary,
            )
            continue
        try:
            pm.add(el.text)
        except ValueError as e:
            msg = str(e).strip()
            cls = UnknownPassError if "does not refer to a registered pass" in msg else PassPipelineError
            if "Pass-Options-Parser" in msg or "failed to add" in msg:
                cls = PassOptionError
            raise cls(f"invalid pipeline element {el.text!r}: {msg.splitlines()[0]}", diagnostics=()) from None
    pm.enable_verifier(verify_each)
    if print_ir_before_all or print_ir_after_all or print_ir_tree_dir:
        # IR printing requires single-threaded execution (MLIR aborts otherwise).
        ctx.enable_multithreading(False)
        pm.enable_ir_printing(
            print_before_all=print_ir_before_all,
            print_after_all=print_ir_after_all or bool(print_ir_tree_dir),
            print_module_scope=True,
            enable_debug_info=print_debuginfo,
            print_generic_op_form=print_generic,
            tree_printing_dir_path=print_ir_tree_dir,
        )
    if timing:
        pm.enable_timing()
    return pm, elements


def describe_elements(elements: list[PipelineElement]) -> list[dict[str, Any]]:
    return [{"name": e.name, "ge": e.ge_pass is not None, "options": e.options} for e in elements]


def run_elements(module: ir.Module, pipeline: str | list[PipelineElement], description: str | None = None,
                 **options: Any) -> None:
    """Runs a pipeline (text or parsed elements) on ``module`` in place, with one PassManager.

    Keyword options are those of :func:`build_pass_manager` (IR printing, timing).

    Raises:
        PassFailedError: a pass failed; the diagnostics say where and why.
    """
    pm, _ = build_pass_manager(pipeline, module.context, **options)
    if description is None:
        description = f"pipeline {pipeline!r}" if isinstance(pipeline, str) else "pipeline"
    try:
        pm.run(module.operation)
    except ir.MLIRError as e:
        diags = [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
        raise PassFailedError(f"{description} failed", diagnostics=diags) from None
    finally:
        del pm
