"""Shared helpers of the ge fusion passes (ge-fuse-*).

Constant reading: ``dense<...>`` constants are read with numpy through the
buffer protocol of ``DenseElementsAttr``. The Python bindings do not expose
the data of ``dense_resource`` blobs, but ``libMLIRPythonCAPI.so`` exports
``mlir::DenseResourceElementsAttr::getData()`` (the blob's bytes, empty when
the blob is missing or elided): f32 and f64 blobs up to
:data:`MAX_RESOURCE_ELEMENTS` elements are read that way through ctypes.
Other resource blobs, and blobs with fewer bytes than their type needs, are
"not readable" and the passes fall back to (or refuse) accordingly. (The C
API's per-element ``mlirDense{Float,Double}ResourceElementsAttrGetValue``
aborts the process on such blobs.)

:class:`PatternFusionPass` is the base of the built-in ``ge-fuse-*`` passes.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from mlir import _mlir_libs, ir
from mlir.rewrite import PatternRewriter, RewritePatternSet

from ..ir.attrs import attr_enum
from ..passes.registry import Option, Pass
from ..ir.patterns import apply_without_folding, defining_op, single_use

__all__ = [
    "MAX_RESOURCE_ELEMENTS", "RESOURCE_THRESHOLD", "PatternFusionPass", "activation_of", "constant_array",
    "constant_op", "conv_parts", "fusion_options", "make_constant", "recreate", "recreate_conv", "single_use",
    "tensor_type",
]




def fusion_options(*options: Option) -> tuple[Option, ...]:
    """The options of a ``ge-fuse-*`` pass: ``enable``, ``options``, ``max-iterations``."""
    return (
        Option("enable", bool, True, "run the fusion (false: the pass does nothing)"),
        *options,
        Option("max-iterations", int, 10, "greedy driver iteration limit (-1: until fixpoint)"),
    )


PatternFn = Callable[[ir.OpView, PatternRewriter], Any]


class PatternFusionPass(Pass):
    """Base of the built-in ``ge-fuse-*`` passes.

    Subclasses yield ``(root op name, pattern, benefit)`` from
    :meth:`patterns` and count each rewrite with :meth:`rewritten`. ``run``
    keeps a ``rewrites`` counter (0 when nothing fused), does nothing under
    ``enable=false`` and applies the patterns with the greedy driver without
    folding or constant CSE (the pass does only its rewrites), at most
    ``max-iterations`` times.
    """

    stage: ClassVar[str] = "after-builtin-fusion"
    options: ClassVar[tuple[Option, ...]] = fusion_options()

    def patterns(self, module: ir.Operation) -> Iterable[tuple[str, PatternFn, int]]:
        raise NotImplementedError

    def rewritten(self, counter: str) -> None:
        """Counts one rewrite, under ``counter`` and ``rewrites``."""
        self.bump(counter)
        self.bump("rewrites")

    def run(self, module: ir.Operation) -> None:
        self.statistics.setdefault("rewrites", 0)
        if not self.opt("enable"):
            return
        patterns = RewritePatternSet()
        for root, fn, benefit in self.patterns(module):
            patterns.add(root, fn, benefit=benefit)
        apply_without_folding(self, patterns, module)
