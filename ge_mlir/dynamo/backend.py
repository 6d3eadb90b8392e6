"""The dynamo backend: AOTAutograd around the FX importer and the CPU target.

Each graph AOTAutograd hands over (forward, backward, or inference) is imported
(:func:`ge_mlir.frontend.fx.import_fx`) and compiled with :func:`ge_mlir.compile` (so it is
cached like any compile). A graph with an op ge-mlir cannot convert runs in eager, with one warning
naming each op and node; ``strict`` (``GE_MLIR_STRICT=1``, or ``options={"strict": True}``) makes
that an error. Graphs with symbolic sizes (dynamo's automatic dynamic shapes after a recompile) are
compiled per concrete input shape when first called with it, as static graphs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import CompileError
from .runner import compile_graph

__all__ = ["BackendOptions", "backend", "ge_mlir_backend"]


@dataclass(frozen=True)
class BackendOptions:
    """Options of the ``ge_mlir`` dynamo backend.

    Attributes:
        strict: an unconvertible op is an error instead of an eager fallback (default: the
            ``GE_MLIR_STRICT`` environment variable).
        compile_options: :class:`ge_mlir.CompileOptions` fields for every graph (e.g.
            ``{"num_threads": 2}``).
        cache: use the compile cache (``ge_mlir.compile``'s ``cache``).
    """

    strict: bool = False
    compile_options: Mapping[str, Any] = field(default_factory=dict)
    cache: bool | None = None

    @staticmethod
    def from_mapping(options: Mapping[str, Any] | None) -> "BackendOptions":
        options = dict(options or {})
        unknown = sorted(set(options) - {"strict", "compile_options", "cache"})
        if unknown:
            raise CompileError(f"unknown ge_mlir backend option(s): {', '.join(unknown)} "
                               "(known: strict, compile_options, cache)")
        strict = options.get("strict")
        if strict is None:
            strict = os.environ.get("GE_MLIR_STRICT", "0") not in ("", "0", "false", "False")
        return BackendOptions(strict=bool(strict), compile_options=dict(options.get("compile_options") or {}),
                              cache=options.get("cache"))


def ge_mlir_backend(gm: Any, example_inputs: Sequence[Any], *, options: Mapping[str, Any] | None = None,
                    **_: Any) -> Callable[..., Any]:
    """The dynamo backend function (``torch.compile(model, backend="ge_mlir", options={...})``)."""
    opts = BackendOptions.from_mapping(options)
    from torch._dynamo.backends.common import aot_autograd

    from ..frontend.fx import decompositions

    def forward(graph: Any, inputs: Sequence[Any]) -> Callable[..., Any]:
        return compile_graph(graph, inputs, opts, "forward")

    def backward(graph: Any, inputs: Sequence[Any]) -> Callable[..., Any]:
        return compile_graph(graph, inputs, opts, "backward")

    def inference(graph: Any, inputs: Sequence[Any]) -> Callable[..., Any]:
        return compile_graph(graph, inputs, opts, "inference")

    return aot_autograd(fw_compiler=forward, bw_compiler=backward, inference_compiler=inference,
                        decompositions=decompositions())(gm, example_inputs)


def backend(**options: Any) -> Callable[..., Any]:
    """``ge_mlir_backend`` with options bound: ``torch.compile(m, backend=ge_mlir.dynamo.backend(strict=True))``."""
    BackendOptions.from_mapping(options)  # unknown options fail here, not at the first call

    def configured(gm: Any, example_inputs: Sequence[Any], **kw: Any) -> Callable[..., Any]:
        merged = {**options, **dict(kw.pop("options", None) or {})}
        return ge_mlir_backend(gm, example_inputs, options=merged)

    return configured

