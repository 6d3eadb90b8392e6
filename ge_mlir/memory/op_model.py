"""What a target tells the memory estimate about its lowering of one ge op (no IR of the lowering).

The estimate (:mod:`.estimate`) plans the ge tensors and what each op's lowering holds besides
them; the target supplies the latter as a :class:`MemoryModel` through
:meth:`ge_mlir.target.base.Target.memory_model` (the CPU's: :mod:`ge_mlir.target.cpu.memory_model`).
The lowering of one ge op is modelled as four steps (:data:`STEPS`): ``prep`` (copies of inputs:
padding, transposes), ``gather`` (im2col / row copies), ``compute`` (the contraction or
reduction) and ``epilogue`` (the elementwise step writing the result).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from mlir import ir

from .liveness import BlockTensors

__all__ = ["COMPUTE", "EPILOGUE", "GATHER", "NEUTRAL", "PREP", "STEPS", "MemoryModel", "OpModel", "Scratch",
           "shape_text", "static_tensor"]

#: The steps of one op's lowering, in order (program point = 4 * op index + step).
STEPS: tuple[str, ...] = ("prep", "gather", "compute", "epilogue")
PREP, GATHER, COMPUTE, EPILOGUE = range(4)


@dataclass(frozen=True)
class Scratch:
    """A buffer the lowering of one op materialises that is no ge tensor, live over steps [first, last]."""

    label: str
    size: int
    first: int
    last: int
    #: Shape and element type, for reports (``1x3x230x230xf32``).
    type: str = ""
    #: An accumulator read only by an elementwise epilogue of its own element type and size:
    #: with in-place reuse the result is written into it.
    epilogue_acc: bool = False

    @classmethod
    def of(cls, label: str, shape: list[int], elem_bytes: int, elem: str, first: int, last: int,
           epilogue_acc: bool = False) -> Scratch:
        """The scratch of one ``shape`` buffer of ``elem`` (``elem_bytes`` each)."""
        return cls(label, math.prod(shape) * elem_bytes, first, last, shape_text(shape, elem), epilogue_acc)


@dataclass
class OpModel:
    """How the lowering of one ge op uses memory (by default: operands read and results written
    at ``epilogue``, no scratch)."""

    #: Operand number -> the last step the operand is read (unlisted operands: ``epilogue``).
    read: dict[int, int] = field(default_factory=dict)
    #: The step the op's results are written.
    out: int = EPILOGUE
    scratch: list[Scratch] = field(default_factory=list)
    #: Operand number -> (bytes of its padded copy, shape text, last step that copy is read). The copy
    #: is scratch made at ``prep``, or the operand's own buffer when its producer can write into it.
    pads: dict[int, tuple[int, str, int]] = field(default_factory=dict)
    #: The lowered result is a view (reshape/slice) of an internal buffer, not a fresh buffer: it cannot
    #: be written into a consumer's padded buffer, nor become the caller's out-parameter without a copy.
    result_view: bool = False
    #: That view is an expand/collapse_shape of a fresh buffer (not a slice): returned, the buffer is
    #: the reshaped out-parameter, with no copy.
    result_reshaped: bool = False
    #: Operands the op's last (elementwise) step reads at the index it writes: with in-place reuse
    #: the result may be written into one of them that dies here (same type, not an argument or constant).
    inplace_operands: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class MemoryModel:
    """A target's lowering as the estimate sees it: each ge op's :class:`OpModel`, and which ops the
    target computes inside another (op index -> the index of the op whose lowering computes it;
    such an op's result takes no buffer, what it reads lives until that op)."""

    op: Callable[[ir.Operation], OpModel]
    fused: Callable[[BlockTensors], dict[int, int]] | None = None


#: The target-neutral model: every op reads its operands and writes its results, nothing more.
NEUTRAL = MemoryModel(op=lambda op: OpModel())


def static_tensor(t: ir.Type) -> ir.RankedTensorType | None:
    """``t`` as a statically shaped ranked tensor type, else None."""
    if isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape:
        return ir.RankedTensorType(t)
    return None


def shape_text(shape: list[int], elem: str) -> str:
    """``1x3x230x230xf32``."""
    return "x".join(map(str, shape)) + ("x" if shape else "") + elem
