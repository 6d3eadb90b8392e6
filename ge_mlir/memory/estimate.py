"""Memory estimation on the ge graph, before lowering.

:func:`estimate_module` reads an optimized ge module (the ``optimized`` stage of
``ge_mlir.compile``) and predicts what the CPU target's memory plan
(``ge-plan-memory``, ``CompiledModel.memory_plan``) will need, without lowering:

* **weights**: the bytes of every constant (ONNX initializers become ``ge.constant``);
* **activation peak**: the arena the planner (:func:`ge_mlir.memory.planner.plan`, the
  same strategies, alignment 64) gives the ge tensors over their live ranges
  (:mod:`ge_mlir.memory.liveness`: from the op defining a tensor to its last use;
  arguments and constants cost nothing; reshape-like results are views of their
  source; returned tensors become the caller's out-parameters and cost nothing, also through
  one reshape-like view, unless the lowering returns a view of an internal buffer or the tensor
  is returned only through several views: then it is copied out);
* **workspace**: what the scratch buffers the CPU lowering materialises besides the ge
  tensors add to that arena (they are planned together with the tensors; the
  workspace is the joint arena minus the activation peak). Per op kind, see
  :func:`lowering_model`: padded inputs of convolutions and pools, the im2col patch
  matrix of strided or small-image convolutions, the padded-row copy of stride-1
  convolutions computed as shifted matmuls, matmul/convolution accumulators that a
  bias/activation/residual epilogue reads, transposed inputs (``gemm`` ``trans_a``,
  NHWC layouts), materialised batch broadcasts of matmuls, and the per-row
  statistics of softmax and normalizations;
* the **program point of the peak** (a ge op and the step of its lowering), and the
  largest tensors with the ONNX nodes that produce them.

The lowering of one ge op is modelled as four steps (:data:`STEPS`): ``prep``
(copies of inputs: padding, transposes), ``gather`` (im2col / row copies, the
accumulator of an im2col convolution), ``compute`` (the contraction or reduction) and
``epilogue`` (the elementwise step writing the result). Program points are
``4 * op index + step``, so buffers of one op that the lowering never holds at
once (an input copied into a padded buffer and the result written after it) do not
overlap in the estimate either.

Two effects of bufferization are modelled: a tensor that a convolution or pool pads
is written by its producer straight into the padded buffer (empty-tensor
elimination: its size becomes the padded size, and the consumer copies nothing) when
the producer's result is a fresh buffer and the tensor is the first one padded; and,
with ``in_place`` (default on), the in-place reuse of ``ge-plan-memory``: an
elementwise op (a ge elementwise op, the last step of softmax and the normalizations, or
the epilogue of a matmul/convolution/pooling over its accumulator) whose input of the
same shape and element type dies at that op writes its result into that input's bytes,
when the input is neither an argument nor a constant (nor a view of one) and does not
live in a consumer's padded buffer; reshape views qualify (row-major, as in the pass).

Import and optimization are not part of this module (``ge_mlir.estimate_memory``
does them the way ``ge_mlir.compile`` does, then calls :func:`estimate_module`).
"""

from __future__ import annotations

import contextvars
import dataclasses
import json
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from mlir import ir

from ..errors import CompileError, format_location, node_name
from ..irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ..irutils.functions import pick_function, symbol_name
from ..irutils.types import element_bytes, tensor_bytes
from ..irutils.windows import clamped_max_window_ok
from .buffers import Buffer
from .liveness import BlockTensors, Key, producer
from .planner import AGGRESSIVE, STRATEGIES, lower_bound, plan
from .report import format_bytes
from .strategies import live_sets, round_up

__all__ = ["STEPS", "BufferEstimate", "MemoryEstimate", "OpModel", "Scratch", "estimate_function",
           "estimate_module", "lowering_model"]

#: The steps of one op's lowering, in order (program point = 4 * op index + step).
STEPS: tuple[str, ...] = ("prep", "gather", "compute", "epilogue")
PREP, GATHER, COMPUTE, EPILOGUE = range(4)
_N = len(STEPS)
#: Top-N lists of the estimate.
TOP = 10

_UNARY = ("abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "relu", "leaky_relu",
          "gelu", "erf", "sin", "cos", "floor", "ceil", "round", "sign", "not", "softplus", "hard_sigmoid",
          "hard_swish", "silu", "clip")
_BINARY = ("add", "sub", "mul", "div", "pow", "max", "min", "mod", "and", "or", "xor", "equal", "less",
           "less_equal", "greater", "greater_equal")
#: ge ops lowered to one elementwise ``linalg.generic`` (in-place candidates).
ELEMENTWISE_OPS = frozenset(f"ge.{n}" for n in (*_UNARY, *_BINARY, "cast", "where", "batch_norm"))
#: Below this many output columns (rows x padded width) a stride-1 convolution uses
#: im2col rather than shifted matmuls (``ge_mlir.target.cpu.codegen.strategy.SHIFTED_MIN_COLUMNS``).
SHIFTED_MIN_COLUMNS = 1000
#: A constant filter of this many filters and input channels runs as matmuls over the output
#: positions (``ge_mlir.target.cpu.codegen.strategy.ROWS_MIN_FILTERS``, ``ROWS_MIN_CHANNELS``).
ROWS_MIN_FILTERS = 16
ROWS_MIN_CHANNELS = 8
#: Other batch-1 convolutions of at most this many patch rows (``C*kh*kw``) run im2col one output
#: row at a time (``ge_mlir.target.cpu.codegen.strategy.ROW_IM2COL_MAX_K``).
ROW_IM2COL_MAX_K = 1024
#: 1x1 stride-1 convolutions with at least this many output columns run as filters-by-positions
#: tiles over the input rows (``codegen.strategy.POINTWISE_COLUMNS_MIN_WIDTH``).
POINTWISE_COLUMNS_MIN_WIDTH = 48
#: Most taps of a window op the codegen writes as vector code (``codegen.strategy.MAX_WINDOW_TAPS``).
VECTOR_WINDOW_MAX_TAPS = 64
#: Largest C * F of a Winograd convolution (``ge_mlir.target.cpu.codegen.strategy.WINOGRAD_MAX_CF``).
WINOGRAD_MAX_CF = 128 * 128
#: Filter counts of direct stem tiles and Winograd convolutions are multiples of this (their
#: tiles are stored transposed in blocks of it: ``codegen.strategy.TRANSPOSE_BLOCK``).
TRANSPOSE_BLOCK = 8
#: Whether the estimate models Winograd convolutions (the ``winograd`` compile option), for the
#: op models of the estimate being made.
_WINOGRAD: contextvars.ContextVar[bool] = contextvars.ContextVar("ge_estimate_winograd", default=True)
#: ``strategy`` value: the best of the heuristic strategies, never the exact solver.
HEURISTICS_ONLY = "heuristics"


# --------------------------------------------------------------------------
# The lowering model of one op
# --------------------------------------------------------------------------


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


@dataclass
class OpModel:
    """How the CPU lowering of one ge op uses memory (see :func:`lowering_model`)."""

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
    #: the reshaped out-parameter (ge-forward-result-buffers), with no copy.
    result_reshaped: bool = False
    #: Operands the op's last (elementwise) step reads at the index it writes: with in-place reuse
    #: the result may be written into one of them that dies here (same type, not an argument or constant).
    inplace_operands: list[int] = field(default_factory=list)


def _ttype(t: ir.Type) -> ir.RankedTensorType | None:
    if isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape:
        return ir.RankedTensorType(t)
    return None


def _elem_bytes(t: ir.RankedTensorType) -> int:
    return element_bytes(t.element_type) or 0


def _acc_bytes(t: ir.RankedTensorType) -> int:
    """Bytes of the accumulator element (f16/bf16 accumulate in f32)."""
    e = t.element_type
    if isinstance(e, ir.FloatType):
        return max(4, ir.FloatType(e).width // 8)
    return _elem_bytes(t)


def _shape_text(shape: list[int], elem: str) -> str:
    return "x".join(map(str, shape)) + ("x" if shape else "") + elem


def _scratch(label: str, shape: list[int], elem_bytes: int, elem: str, first: int, last: int,
             epilogue_acc: bool = False) -> Scratch:
    return Scratch(label, math.prod(shape) * elem_bytes, first, last, _shape_text(shape, elem), epilogue_acc)


def _elem_name(t: ir.RankedTensorType, acc: bool = False) -> str:
    if acc and isinstance(t.element_type, ir.FloatType) and ir.FloatType(t.element_type).width < 32:
        return "f32"
    return str(t.element_type)


def lowering_model(op: ir.Operation) -> OpModel:
    """The memory model of ``op``'s CPU lowering (``ge-lower-to-linalg`` + the codegen strategy).

    Per op kind (all other ops: inputs read and result written at ``epilogue``, no scratch):

    ``conv2d`` (NCHW; NHWC adds a transposed copy of the input at ``prep`` and of the result):
      a padded copy of the input when ``pads`` is non-zero; then, for float ``groups=1``:
      *Winograd F(2x2, 3x3)* (f32, batch 1, a constant 3x3 stride-1 filter, pads 1, an even
      output, at least 8 channels, C * F at most 128 * 128, a multiple of 8 filters; unless the
      ``winograd`` option is off): scratch ``[16, C, Wo/2]`` and ``[16, Wo/2, F]`` at
      ``compute``, the tiles storing through the epilogue; otherwise
      *matmuls over the output positions* (batch 1, a constant filter of at least 16 filters and
      8 channels, 1x1 included; also any 1x1 stride-1 one of at least 16 filters and 48 output
      columns, as filters-by-positions tiles over the input rows): register tiles reading the
      padded input in place, stored through the epilogue into the result (``compute``, no
      accumulator); *shifted matmuls*
      (otherwise, for stride 1 and at least 1000 output columns over the padded width): the
      padded copy one row taller (or, unpadded, a ``[C, Hp*Wp + kw-1]`` row copy at ``gather``)
      and a ``[F, Ho*Wp]`` accumulator (``compute``); otherwise *direct tiles* (batch 1, f32,
      a constant filter of at least 16 filters, a multiple of 8, and fewer than 8 channels: the
      stems), the same memory as matmuls over the output positions; otherwise, batch 1, at
      least 16 filters and at most 1024 patch rows: *im2col one output row at a time* (a ``[1, C, kh, kw, Wo]`` patch buffer,
      the tiles storing through the epilogue); otherwise *im2col*:
      the ``[C*kh*kw, Ho*Wo]`` patch matrix (``gather``, none for 1x1 stride 1) and an
      ``[F, Ho*Wo]`` accumulator from ``gather``. Depthwise and grouped convolutions read
      the padded input directly; f32 depthwise ones written as vector code (at least two
      output columns, row stride 1 or 2) apply their epilogue in the vectors. With a bias, residual, activation or a narrower result
      type the accumulator is scratch and the result is written at ``epilogue``; without,
      the accumulator is the result.
    ``conv_transpose2d``: batch 1, one group, stride = kernel, no padding, f32/f64 (UNet
      up-sampling): the transposed filter (``prep``) and the ``[F*kh*kw, H*W]`` tap products
      (``compute``) shuffled into the result (``epilogue``); otherwise the zero-dilated input
      (``prep``), the flipped filter, then a stride-1 convolution as above.
    ``matmul``/``gemm``: an accumulator ``[batch*M, N]`` (``compute``), batch broadcasts
      of an operand materialised at ``prep``, ``trans_a`` transposed at ``prep``; the
      epilogue as for convolutions.
    ``max_pool2d``/``avg_pool2d``: the padded input (with the ceil-mode tail), none for an
      f32 NCHW max pool written as vector code whose windows all overlap the input (taps
      clamped into it, ``ir.windows``); average
      pooling sums into an accumulator and divides at ``epilogue`` (in the vectors, no
      accumulator, when f32 NCHW as for depthwise convolutions).
    ``reduce_*``/global pools: mean and L2 (and narrow floats) finish with an elementwise
      step from an accumulator of the kept shape.
    ``layer_norm``/``instance_norm`` (3 per-row statistics), ``rms_norm`` (1),
      ``softmax``/``log_softmax`` (2): the statistics are scratch from ``compute``.
    """
    name = op.name
    builder = _MODELS.get(name)
    m = builder(op) if builder is not None else OpModel()
    if name in ELEMENTWISE_OPS:
        m.inplace_operands = list(range(len(op.operands)))
    return m


def _conv_core(m: OpModel, x_pos: int, xt: ir.RankedTensorType, padded: list[int], pad_first_copy: bool,
               w_shape: list[int], out_nchw: list[int], strides: list[int], dilations: list[int], groups: int,
               epilogue: bool, out_t: ir.RankedTensorType, own_buffer: bool = False,
               constant_filter: bool = False) -> tuple[int, list[int]]:
    """Fills ``m`` for the convolution of the (padded) NCHW input ``padded`` by an OIHW filter;
    returns the step that reads the (padded) input and the shape of the padded buffer.

    ``own_buffer``: the padded input is the convolution's own zero-filled buffer (a padded or
    dilated copy); shifted matmuls then pad it with zero rows below instead of copying it again.
    ``constant_filter``: the filter is a constant (matmuls over the output positions store it
    packed)."""
    n, c, hp, wp = padded
    f, cg, kh, kw = w_shape
    _, _, ho, wo = out_nchw
    eb, ab = _elem_bytes(xt), _acc_bytes(xt)
    elem, acc_elem = _elem_name(xt), _elem_name(xt, acc=True)
    is_float = isinstance(xt.element_type, ir.FloatType) and ir.FloatType(xt.element_type).width in (32, 64)
    acc_shape = [n, f, ho, wo]
    # The codegen's choice (ge_mlir.target.cpu.codegen.driver.apply_strategy): matmuls over the output
    # positions for a constant filter (any stride) or a wide 1x1 stride-1 one, else shifted
    # matmuls over the padded width (stride 1, large images), else direct tiles (few channels,
    # f32, a constant filter), else im2col one output row at a time, else im2col.
    single = groups == 1 and is_float and n == 1
    # Winograd F(2x2, 3x3) (codegen.conv_winograd.conv_to_winograd): the per-row-pair scratch of transformed
    # inputs [16, C, Wo/2] and products [16, Wo/2, F] (one thread's figure, as row patches).
    winograd = (_WINOGRAD.get() and single and constant_filter and str(xt.element_type) == "f32"
                and (kh, kw) == (3, 3) and strides == [1, 1] and dilations == [1, 1] and ho % 2 == 0
                and wo % 2 == 0 and (hp, wp) == (ho + 2, wo + 2) and c >= ROWS_MIN_CHANNELS
                and c * f <= WINOGRAD_MAX_CF and f % TRANSPOSE_BLOCK == 0)
    pointwise = (single and kh == kw == 1 and strides == [1, 1] and wo >= POINTWISE_COLUMNS_MIN_WIDTH
                 and f >= ROWS_MIN_FILTERS and c <= ROW_IM2COL_MAX_K)
    # (The pointwise tiles read the input rows in place and store through the epilogue: the
    # same memory as the output-position path.)
    rows = single and (pointwise or constant_filter and f >= ROWS_MIN_FILTERS and c >= ROWS_MIN_CHANNELS)
    columns = single and not rows and kh * kw > 1 and strides == [1, 1] and ho * wp >= SHIFTED_MIN_COLUMNS
    # Few channels, f32, a constant filter: direct register tiles (codegen.conv_rows.conv_to_direct_rows),
    # the same memory as the output-position path.
    rows = rows or (single and not columns and constant_filter and str(xt.element_type) == "f32"
                    and c < ROWS_MIN_CHANNELS and f >= ROWS_MIN_FILTERS and f % TRANSPOSE_BLOCK == 0)
    row_im2col = (single and not rows and not columns and kh * kw > 1 and c * kh * kw <= ROW_IM2COL_MAX_K
                  and f >= ROWS_MIN_FILTERS)
    if winograd:
        read_input, acc_step = COMPUTE, COMPUTE
        m.scratch.append(_scratch("winograd input", [16, c, wo // 2], eb, elem, COMPUTE, COMPUTE))
        m.scratch.append(_scratch("winograd products", [16, wo // 2, f], eb, elem, COMPUTE, COMPUTE))
        if epilogue and ab == _elem_bytes(out_t):
            epilogue = False  # applied in the tiles: no accumulator
    elif row_im2col:
        # One output row's [C, kh, kw, Wo] patches at a time, reused row after row; the tiles
        # store through the epilogue (one thread's figure: N threads hold N such buffers).
        read_input, acc_step = COMPUTE, COMPUTE
        m.scratch.append(_scratch("row patches", [1, c, kh, kw, wo], eb, elem, COMPUTE, COMPUTE))
        s1 = strides[1]
        if s1 > 1 and dilations[1] == 1 and (wo - 1) + (kw - 1) // s1 < wp // s1:
            # Strided rows gather from the input split by column phase ([1, C, Hp, s, Wp / s]),
            # the input's last reader.
            read_input = GATHER
            m.scratch.append(_scratch("phase-split input", [1, c, hp, s1, wp // s1], eb, elem, GATHER, COMPUTE))
        if epilogue and ab == _elem_bytes(out_t):
            epilogue = False
    elif rows:
        # The windows read the padded input in place; each register tile is stored (transposed)
        # into the [N, F, Ho, Wo] result through the epilogue (compute).
        read_input, acc_step = COMPUTE, COMPUTE
        if epilogue and ab == _elem_bytes(out_t):
            epilogue = False  # applied in the tiles: no accumulator
    elif columns:
        extra = (kw - 1) * dilations[1]
        if own_buffer:
            padded = [n, c, hp - (-extra // wp), wp]  # padded again with zero rows below
            read_input = COMPUTE
        else:
            read_input = GATHER
            m.scratch.append(_scratch("row copy", [c, hp * wp + extra], eb, elem, GATHER, COMPUTE))
        acc_step = COMPUTE
        acc_shape = [f, ho * wp]
        m.result_view = True  # the result is a slice of the [F, Ho*Wp] accumulator
    elif groups == 1 and is_float:
        if kh == kw == 1 and strides == [1, 1]:
            read_input, acc_step = COMPUTE, COMPUTE
        else:
            m.scratch.append(_scratch("im2col", [n, c * kh * kw, ho * wo], eb, elem, GATHER, COMPUTE))
            read_input, acc_step = GATHER, COMPUTE
        if n > 1:
            m.scratch.append(_scratch("filter broadcast", [n, f, c * kh * kw], eb, elem, GATHER, COMPUTE))
    else:
        read_input, acc_step = COMPUTE, COMPUTE
        if groups == c == f and cg == 1 and epilogue and _vector_window(xt, out_t, wo, strides, dilations, kh * kw):
            epilogue = False  # applied to the vectors before their store: no accumulator
    if pad_first_copy:
        # The padded copy is read until the step that reads the input.
        m.pads[x_pos] = (math.prod(padded) * eb, _shape_text(padded, elem), read_input)
    else:
        m.read[x_pos] = read_input
    if epilogue:
        # The epilogue reads a shifted-matmul accumulator through a slice: never in place.
        m.scratch.append(_scratch("accumulator", acc_shape, ab, acc_elem, acc_step, EPILOGUE,
                                  epilogue_acc=not m.result_view and ab == _elem_bytes(out_t)
                                  and math.prod(acc_shape) == math.prod(out_t.shape)))
        m.out = EPILOGUE
        m.result_view = False
    else:
        m.out = acc_step
    return read_input, padded


def _nchw_copies(m: OpModel, xt: ir.RankedTensorType, x: list[int], padded: list[int], read: int) -> None:
    """NHWC: the input transposed to NCHW at ``prep``, straight into the padded buffer when it is padded."""
    eb, elem = _elem_bytes(xt), _elem_name(xt)
    m.scratch.append(_scratch("padded input" if padded != x else "NCHW input", padded, eb, elem, PREP, read))
    m.read[0] = PREP


def _nchw(shape: list[int], nhwc: bool) -> list[int]:
    return [shape[0], shape[3], shape[1], shape[2]] if nhwc else list(shape)


def _conv2d(op: ir.Operation) -> OpModel:
    m = OpModel()
    xt, wt, rt = (_ttype(op.operands[0].type), _ttype(op.operands[1].type), _ttype(op.results[0].type))
    if xt is None or wt is None or rt is None or xt.rank != 4 or wt.rank != 4:
        return m
    segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])) \
        if "operandSegmentSizes" in op.attributes else [1, 1, 0, 0]
    has_bias = len(segments) > 2 and segments[2] > 0
    has_residual = len(segments) > 3 and segments[3] > 0
    act = attr_enum(op, "activation", "none")
    pads = attr_ints(op, "pads", [0, 0, 0, 0]) or [0, 0, 0, 0]
    strides = attr_ints(op, "strides", [1, 1]) or [1, 1]
    dilations = attr_ints(op, "dilations", [1, 1]) or [1, 1]
    groups = attr_int(op, "groups", 1) or 1
    nhwc = attr_enum(op, "data_format", "NCHW") == "NHWC"
    x = _nchw(list(xt.shape), nhwc)
    out = _nchw(list(rt.shape), nhwc)
    padded = [x[0], x[1], x[2] + pads[0] + pads[2], x[3] + pads[1] + pads[3]]
    epilogue = has_bias or has_residual or act != "none" or _acc_bytes(xt) != _elem_bytes(rt)
    w_owner = op.operands[1].owner
    constant_filter = (w_owner.operation if isinstance(w_owner, ir.OpView) else w_owner).name == "ge.constant"
    read, padded = _conv_core(m, 0, xt, padded, any(pads) and not nhwc, list(wt.shape), out, strides, dilations,
                              groups, epilogue, rt, own_buffer=any(pads), constant_filter=constant_filter)
    if has_residual and not nhwc:
        m.inplace_operands = [len(op.operands) - 1]
    if nhwc:
        _nchw_copies(m, xt, x, padded, read)
        if has_residual:
            m.scratch.append(_scratch("NCHW residual", out, _elem_bytes(rt), _elem_name(rt), PREP, EPILOGUE))
        m.scratch.append(_scratch("NCHW result", out, _elem_bytes(rt), _elem_name(rt), EPILOGUE, EPILOGUE))
        m.result_view = False
    return m


def _conv_transpose2d(op: ir.Operation) -> OpModel:
    m = OpModel()
    xt, wt, rt = (_ttype(op.operands[0].type), _ttype(op.operands[1].type), _ttype(op.results[0].type))
    if xt is None or wt is None or rt is None or xt.rank != 4 or wt.rank != 4:
        return m
    strides = attr_ints(op, "strides", [1, 1]) or [1, 1]
    dilations = attr_ints(op, "dilations", [1, 1]) or [1, 1]
    pads = attr_ints(op, "pads", [0, 0, 0, 0]) or [0, 0, 0, 0]
    out_pad = attr_ints(op, "output_padding", [0, 0]) or [0, 0]
    groups = attr_int(op, "groups", 1) or 1
    nhwc = attr_enum(op, "data_format", "NCHW") == "NHWC"
    n, c, h, w = _nchw(list(xt.shape), nhwc)
    cin, fg, kh, kw = wt.shape
    bh, bw = dilations[0] * (kh - 1), dilations[1] * (kw - 1)
    hd = (h - 1) * strides[0] + 1 + 2 * bh + out_pad[0]
    wd = (w - 1) * strides[1] + 1 + 2 * bw + out_pad[1]
    eb = _elem_bytes(xt)
    f = fg * groups
    is_wide = isinstance(xt.element_type, ir.FloatType) and ir.FloatType(xt.element_type).width in (32, 64)
    if (n == 1 and groups == 1 and strides == [kh, kw] and dilations == [1, 1] and not any(pads)
            and not any(out_pad) and is_wide):
        # The lowering's matmul path (target/cpu/lowering/nn.py, _conv_transpose_as_matmul).
        m.scratch.append(_scratch("transposed filter", [f * kh * kw, c], _elem_bytes(wt), _elem_name(wt),
                                  PREP, COMPUTE))
        m.scratch.append(_scratch("tap products", [f * kh * kw, h * w], eb, _elem_name(xt), COMPUTE, EPILOGUE))
        m.read[0] = COMPUTE
        m.out = EPILOGUE
        if nhwc:
            m.scratch.append(_scratch("NCHW input", [n, c, h, w], eb, _elem_name(xt), PREP, COMPUTE))
            m.read[0] = PREP
            m.scratch.append(_scratch("NCHW result", _nchw(list(rt.shape), True), _elem_bytes(rt), _elem_name(rt),
                                      EPILOGUE, EPILOGUE))
        return m
    # The dilated input's slot keeps its place in the list; its final shape and last step come from
    # the path _conv_core chooses (one row taller, read until compute, for shifted matmuls).
    dilated_slot = len(m.scratch)
    m.scratch.append(_scratch("dilated input", [n, c, hd, wd], eb, _elem_name(xt), PREP, GATHER))
    m.scratch.append(_scratch("flipped filter", [f, cin // groups, kh, kw], _elem_bytes(wt), _elem_name(wt),
                              PREP, COMPUTE))
    full = [n, f, hd - bh, wd - bw]
    epilogue = len(op.operands) > 2 or attr_enum(op, "activation", "none") != "none" or any(pads) or \
        _acc_bytes(xt) != _elem_bytes(rt)
    # The filter is flipped at run time (not a constant to pack); the dilated input is its own buffer.
    read, dilated = _conv_core(m, 0, xt, [n, c, hd, wd], False, [f, cin // groups, kh, kw], full, [1, 1], dilations,
                               groups, epilogue, rt, own_buffer=True)
    m.scratch[dilated_slot] = _scratch("dilated input", dilated, eb, _elem_name(xt), PREP, read)
    m.read[0] = PREP
    if nhwc:
        m.scratch.append(_scratch("NCHW result", _nchw(list(rt.shape), True), _elem_bytes(rt), _elem_name(rt),
                                  EPILOGUE, EPILOGUE))
        m.result_view = False
    return m


def _matmul(op: ir.Operation) -> OpModel:
    m = OpModel()
    at, bt, rt = (_ttype(op.operands[0].type), _ttype(op.operands[1].type), _ttype(op.results[0].type))
    if at is None or bt is None or rt is None:
        return m
    a_shape = [1, at.shape[0]] if at.rank == 1 else list(at.shape)
    b_shape = [bt.shape[0], 1] if bt.rank == 1 else list(bt.shape)
    ba, bb = a_shape[:-2], b_shape[:-2]
    r = max(len(ba), len(bb))
    ba_full, bb_full = [1] * (r - len(ba)) + ba, [1] * (r - len(bb)) + bb
    batch = [x if y == 1 else y for x, y in zip(ba_full, bb_full)]
    mm, k, nn = a_shape[-2], a_shape[-1], b_shape[-1]
    nb = math.prod(batch)
    eb, ab = _elem_bytes(at), _acc_bytes(at)
    elem, acc_elem = _elem_name(at), _elem_name(at, acc=True)
    m.read = {0: COMPUTE, 1: COMPUTE}
    if all(d == 1 for d in bb):
        acc_shape = [math.prod(ba_full) * mm, nn]
    else:
        if ba_full != batch:
            m.scratch.append(_scratch("broadcast A", [*batch, mm, k], eb, elem, PREP, COMPUTE))
            m.read[0] = PREP
        if bb_full != batch:
            m.scratch.append(_scratch("broadcast B", [*batch, k, nn], eb, elem, PREP, COMPUTE))
            m.read[1] = PREP
        acc_shape = [nb, mm, nn]
    has_bias = len(op.operands) > 2
    epilogue = has_bias or attr_enum(op, "activation", "none") != "none" or ab != _elem_bytes(rt)
    _contraction_result(m, acc_shape, ab, acc_elem, epilogue, rt)
    return m


def _contraction_result(m: OpModel, acc_shape: list[int], ab: int, acc_elem: str, epilogue: bool,
                        rt: ir.RankedTensorType) -> None:
    if epilogue:
        m.scratch.append(_scratch("accumulator", acc_shape, ab, acc_elem, COMPUTE, EPILOGUE,
                                  epilogue_acc=ab == _elem_bytes(rt) and math.prod(acc_shape) == math.prod(rt.shape)))
        m.out = EPILOGUE
    else:
        m.out = COMPUTE
        m.result_view = m.result_reshaped = list(acc_shape) != list(rt.shape)


def _gemm(op: ir.Operation) -> OpModel:
    m = OpModel()
    at, rt = _ttype(op.operands[0].type), _ttype(op.results[0].type)
    if at is None or rt is None or at.rank != 2 or rt.rank != 2:
        return m
    m.read = {0: COMPUTE, 1: COMPUTE}
    if attr_bool(op, "trans_a", False):
        m.scratch.append(_scratch("transposed A", [at.shape[1], at.shape[0]], _elem_bytes(at), _elem_name(at),
                                  PREP, COMPUTE))
        m.read[0] = PREP
    epilogue = (len(op.operands) > 2 or attr_enum(op, "activation", "none") != "none"
                or attr_float(op, "alpha", 1.0) != 1.0 or _acc_bytes(at) != _elem_bytes(rt))
    _contraction_result(m, list(rt.shape), _acc_bytes(at), _elem_name(at, acc=True), epilogue, rt)
    if len(op.operands) > 2:
        m.inplace_operands = [2]  # C, when it has the result's type
    return m


def _vector_window(xt: ir.RankedTensorType, out_t: ir.RankedTensorType, wo: int, strides: list[int],
                   dilations: list[int], taps: int) -> bool:
    """Whether the codegen writes a depthwise convolution or pool as vector code with its
    epilogue in the vectors (``codegen.windows.window_to_vectors``): f32 in and out, at least two output
    columns, row stride 1 or 2 (2 without dilation), at most 64 taps."""
    return (str(xt.element_type) == "f32" and str(out_t.element_type) == "f32" and wo >= 2
            and strides[1] in (1, 2) and not (strides[1] == 2 and dilations[1] != 1)
            and taps <= VECTOR_WINDOW_MAX_TAPS)


def _pool(op: ir.Operation) -> OpModel:
    m = OpModel()
    xt, rt = _ttype(op.operands[0].type), _ttype(op.results[0].type)
    if xt is None or rt is None or xt.rank != 4:
        return m
    nhwc = attr_enum(op, "data_format", "NCHW") == "NHWC"
    x, out = _nchw(list(xt.shape), nhwc), _nchw(list(rt.shape), nhwc)
    k = attr_ints(op, "kernel_shape", [1, 1]) or [1, 1]
    s = attr_ints(op, "strides", [1, 1]) or [1, 1]
    d = attr_ints(op, "dilations", [1, 1]) or [1, 1]
    p = attr_ints(op, "pads", [0, 0, 0, 0]) or [0, 0, 0, 0]
    extra = [max(0, (out[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - (x[2 + i] + p[i] + p[i + 2])) for i in range(2)]
    padded = [x[0], x[1], x[2] + p[0] + p[2] + extra[0], x[3] + p[1] + p[3] + extra[1]]
    if op.name == "ge.max_pool2d" and _vector_window(xt, rt, out[3], s, d, k[0] * k[1]) \
            and clamped_max_window_ok(x[2:], out[2:], k, s, d, p[:2]):
        padded = list(x)  # vector code reads the input in place, taps clamped into it
    eb = _elem_bytes(xt)
    if nhwc:
        _nchw_copies(m, xt, x, padded, COMPUTE)
    elif padded != x:
        m.pads[0] = (math.prod(padded) * eb, _shape_text(padded, _elem_name(xt)), COMPUTE)
    else:
        m.read[0] = COMPUTE
    if op.name == "ge.avg_pool2d" and not (not nhwc and _vector_window(xt, rt, out[3], s, d, k[0] * k[1])):
        m.scratch.append(_scratch("accumulator", out, _acc_bytes(xt), _elem_name(xt, acc=True), COMPUTE, EPILOGUE,
                                  epilogue_acc=_acc_bytes(xt) == _elem_bytes(rt)))
        m.out = EPILOGUE
    else:
        m.out = COMPUTE
    if nhwc:
        m.scratch.append(_scratch("NCHW result", out, _elem_bytes(rt), _elem_name(rt), EPILOGUE, EPILOGUE))
        m.out = EPILOGUE
    return m


def _reduce(op: ir.Operation) -> OpModel:
    m = OpModel()
    xt, rt = _ttype(op.operands[0].type), _ttype(op.results[0].type)
    if xt is None or rt is None:
        return m
    what = op.name.removeprefix("ge.reduce_")
    if op.name == "ge.global_avg_pool":
        what = "mean"
    elif op.name == "ge.global_max_pool":
        what = "max"
    is_float = isinstance(xt.element_type, ir.FloatType)
    ab = _acc_bytes(xt) if is_float else (8 if what == "mean" else _elem_bytes(xt))
    kept = math.prod(rt.shape)
    m.read[0] = COMPUTE
    if (what in ("mean", "l2") and is_float) or (what == "mean" and not is_float) or ab != _elem_bytes(rt):
        # keepdims: the finishing step reads the accumulator through a broadcast map (never in place).
        m.scratch.append(Scratch("accumulator", kept * ab, COMPUTE, EPILOGUE, f"{kept}x{'f32' if is_float else 'i64'}",
                                 epilogue_acc=ab == _elem_bytes(rt) and rt.rank < xt.rank))
        m.out = EPILOGUE
    else:
        m.out = COMPUTE
        m.result_view = m.result_reshaped = rt.rank != xt.rank - len(attr_ints(op, "axes", []) or []) or any(
            d == 1 for d in rt.shape)
    return m


def _row_stats(count: int, axis_of: str):
    def build(op: ir.Operation) -> OpModel:
        m = OpModel()
        xt = _ttype(op.operands[0].type)
        if xt is None or not xt.rank:
            return m
        rank = xt.rank
        if axis_of == "norm":  # layer_norm/rms_norm: rows are the dims before axis
            axis = attr_int(op, "axis", -1)
            axis = axis + rank if axis < 0 else axis
            rows = math.prod(xt.shape[:axis])
        elif axis_of == "instance":  # instance_norm: N x C
            rows = xt.shape[0] * (xt.shape[1] if rank > 1 else 1)
        else:  # softmax: every dim but the axis
            axis = attr_int(op, "axis", -1)
            axis = axis + rank if axis < 0 else axis
            rows = math.prod(xt.shape) // max(1, xt.shape[axis])
        ab = _acc_bytes(xt)
        for i in range(count):
            m.scratch.append(Scratch("row statistics", rows * ab, COMPUTE, EPILOGUE, f"{rows}x{_elem_name(xt, acc=True)}"))
        m.inplace_operands = [0]  # the last step reads x at the index it writes
        return m
    return build


_MODELS = {
    "ge.conv2d": _conv2d,
    "ge.conv_transpose2d": _conv_transpose2d,
    "ge.matmul": _matmul,
    "ge.gemm": _gemm,
    "ge.max_pool2d": _pool,
    "ge.avg_pool2d": _pool,
    "ge.global_avg_pool": _reduce,
    "ge.global_max_pool": _reduce,
    **{f"ge.reduce_{w}": _reduce for w in ("sum", "mean", "max", "min", "prod", "l2")},
    "ge.layer_norm": _row_stats(3, "norm"),
    "ge.rms_norm": _row_stats(1, "norm"),
    "ge.instance_norm": _row_stats(3, "instance"),
    "ge.softmax": _row_stats(2, "softmax"),
    "ge.log_softmax": _row_stats(2, "softmax"),
}


# --------------------------------------------------------------------------
# The estimate
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class BufferEstimate:
    """One buffer of the estimate: a ge tensor (``kind == "activation"``) or lowering scratch."""

    #: The ONNX node the op comes from (else its location).
    name: str
    #: The ge op (``ge.conv2d``).
    op: str
    #: ``activation``, or what the scratch holds (``im2col``, ``accumulator``, ``padded input`` ...).
    kind: str
    size: int
    #: Shape and element type (``1x64x112x112xf32``).
    type: str
    #: Index of the ge op (in the function's entry block) where it becomes live, and of its last use.
    start: int
    end: int
    #: With in-place reuse, whose bytes it takes over: the node name of a dying input tensor, or the
    #: kind of its own op's scratch (``accumulator``); else empty.
    reuses: str = ""
    #: A tensor its producer writes straight into a consumer's padded buffer: that buffer's type.
    padded: str = ""


@dataclass
class MemoryEstimate:
    """What the compiled model will need in memory, estimated on the ge graph before lowering.

    Sizes are bytes. ``activation_peak + workspace`` (:attr:`arena`) estimates the arena of
    the CPU memory plan (``CompiledModel.memory_plan["arena"]``); :attr:`total` adds the
    weights and the caller's input and output buffers.
    """

    #: The function estimated.
    function: str
    #: Bytes of the constants (weights, initializers).
    weights: int
    #: Bytes of the function's arguments and results (the caller's buffers).
    inputs: int
    outputs: int
    #: The arena the planner gives the ge tensors alone (their live ranges; alignment below).
    activation_peak: int
    #: What the lowering's scratch buffers add to that arena when planned with the tensors.
    workspace: int
    #: Most bytes live at once (tensors and scratch, each rounded to the alignment): no plan is smaller.
    lower_bound: int
    #: The largest single scratch buffer.
    largest_scratch: int
    #: Where the most bytes are live: ge op index, the op (``ge.conv2d``), its node name, and the step of its lowering.
    peak_index: int
    peak_op: str
    peak_name: str
    peak_step: str
    #: The buffers live there, largest first.
    peak_buffers: list[BufferEstimate]
    #: The largest ge tensors (at most 10), largest first, and the largest scratch buffers.
    top_activations: list[BufferEstimate]
    top_workspace: list[BufferEstimate]
    #: Counts: ge ops of the function (without the terminator), tensors planned, scratch buffers.
    ops: int
    tensors: int
    scratch_buffers: int
    #: Options the estimate was made with, and the strategy whose placement gave the arena.
    in_place: bool = True
    alignment: int = 64
    strategy: str = ""
    #: Seconds the estimate took (the graph already imported and optimized), and the import and
    #: optimization before it (``ge_mlir.estimate_memory``; 0 when given a module).
    seconds: float = 0.0
    import_seconds: float = 0.0

    @property
    def arena(self) -> int:
        """Estimated arena of the CPU plan: activation peak + workspace."""
        return self.activation_peak + self.workspace

    @property
    def total(self) -> int:
        """Weights + inputs + outputs + arena: the bytes one call of the compiled model touches."""
        return self.weights + self.inputs + self.outputs + self.arena

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["arena"], d["total"] = self.arena, self.total
        return d

    def to_json(self, indent: int | None = 2) -> str:
        """The estimate as JSON (every field, plus ``arena`` and ``total``), keys in a stable order."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True) + "\n"

    def table(self) -> str:
        """A plain-text table: each size in a human unit and in bytes, then the largest tensors."""
        rows = [
            ("weights", self.weights, "constants (initializers)"),
            ("inputs", self.inputs, "the caller's input buffers"),
            ("outputs", self.outputs, "the caller's output buffers"),
            ("activation peak", self.activation_peak, f"planned arena of {self.tensors} ge tensors"),
            ("workspace", self.workspace, f"{self.scratch_buffers} lowering scratch buffers add this "
                                          f"(largest {format_bytes(self.largest_scratch)})"),
            ("arena", self.arena, "activation peak + workspace (estimates the CPU plan's arena)"),
            ("total", self.total, "weights + inputs + outputs + arena"),
        ]
        label_w = max(len(r[0]) for r in rows)
        human_w = max(len(format_bytes(r[1])) for r in rows)
        bytes_w = max(len(str(r[1])) for r in rows)
        out = [f"memory estimate of @{self.function}: {self.ops} ge ops, "
               f"{'in-place reuse' if self.in_place else 'no in-place reuse'}, alignment {self.alignment}"]
        out += [f"  {label:<{label_w}}  {format_bytes(n):>{human_w}}  {n:>{bytes_w}} B  {note}"
                for label, n, note in rows]
        out.append(f"  peak at op #{self.peak_index} {self.peak_op} {self.peak_name} ({self.peak_step}): "
                   f"{format_bytes(self.lower_bound)} live")
        for b in self.peak_buffers[:TOP]:
            out.append(f"    {format_bytes(b.size):>10}  {b.kind:<16} {b.type:<22} {b.op} {b.name}")
        out.append("  largest activations:")
        for i, b in enumerate(self.top_activations, 1):
            note = (f" (in place of {b.reuses})" if b.reuses else "") + \
                (f" (written into the padded {b.padded})" if b.padded else "")
            out.append(f"  {i:>3}. {format_bytes(b.size):>10}  {b.type:<22} ops {b.start}-{b.end}  "
                       f"{b.op} {b.name}{note}")
        if self.top_workspace:
            out.append("  largest scratch buffers:")
            for i, b in enumerate(self.top_workspace, 1):
                out.append(f"  {i:>3}. {format_bytes(b.size):>10}  {b.kind:<16} {b.type:<22} op {b.start}  "
                           f"{b.op} {b.name}")
        return "\n".join(out) + "\n"

    __str__ = table


def estimate_module(module: ir.Module | ir.Operation, *, func_name: str | None = None, in_place: bool = True,
                    alignment: int = 64, strategy: str = AGGRESSIVE, work_limit: float = 0.1,
                    fuse_elementwise: bool = True, winograd: bool = True) -> MemoryEstimate:
    """Estimates the memory of ``module``'s function (``func_name``, else the only public one).

    ``module`` is an optimized ge module (it is read, not changed). ``in_place`` models the
    in-place reuse of dying elementwise inputs (as ``ge-plan-memory`` does); ``alignment``,
    ``strategy`` and ``work_limit`` are the planner's, defaulting to ``ge-plan-memory``'s (64 on
    the CPU; ``aggressive``: every strategy, the exact CP-SAT solve, in a child process, only when
    no heuristic meets the interval bound; ``"heuristics"`` skips it); ``fuse_elementwise`` models
    the CPU pipeline's elementwise fusion (the ``fuse_elementwise`` compile option), ``winograd``
    its Winograd convolutions (the ``winograd`` compile option). Raises
    :class:`~ge_mlir.errors.CompileError` when there is no such function or an option is wrong.
    """
    op = module.operation if isinstance(module, ir.Module) else module
    if not isinstance(alignment, int) or isinstance(alignment, bool) or alignment < 1:
        raise CompileError(f"alignment must be a positive byte count, got {alignment!r}")
    if strategy not in (AGGRESSIVE, HEURISTICS_ONLY, *STRATEGIES):
        raise CompileError(f"unknown planning strategy {strategy!r} "
                           f"(strategies: {', '.join((AGGRESSIVE, HEURISTICS_ONLY, *STRATEGIES))})")
    with op.context:
        try:
            fn = pick_function(module, func_name) if isinstance(module, ir.Module) else _pick_in_op(op, func_name)
        except LookupError as e:
            raise CompileError(str(e)) from None
        return estimate_function(fn, in_place=in_place, alignment=alignment, strategy=strategy,
                                 work_limit=work_limit, fuse_elementwise=fuse_elementwise, winograd=winograd)


def _pick_in_op(op: ir.Operation, func_name: str | None) -> ir.Operation:
    fns = [o.operation for o in op.regions[0].blocks[0].operations
           if o.operation.name == "func.func" and o.operation.regions[0].blocks]
    if func_name is not None:
        fns = [f for f in fns if symbol_name(f) == func_name]
    if len(fns) != 1:
        raise LookupError(f"expected one function{f' named @{func_name}' if func_name else ''}, found {len(fns)}")
    return fns[0]


def _name(op: ir.Operation) -> str:
    return node_name(op.location) or format_location(op.location)


class _Slots:
    """Union-find over buffers that share bytes (in-place reuse)."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, a: int) -> int:
        while self.parent.get(a, a) != a:
            a = self.parent[a]
        return a

    def union(self, keep: int, other: int) -> None:
        self.parent[self.find(other)] = self.find(keep)


def _fused_elementwise(bt: BlockTensors) -> dict[int, int]:
    """Op index -> the op it is computed inside, as the CPU pipeline's
    ge-fuse-elementwise-generics does: an elementwise op whose one result, not returned, is read
    (once per reader, with the same static shape: not broadcast) only by elementwise ops that all
    end in one generic; that generic reads it once, so it fuses too (``relu -> exp -> add(exp,
    relu)`` is one generic). The fused result takes no buffer; what its producer reads lives until
    the final consumer."""
    into: dict[int, int] = {}

    def final(u: int) -> int:
        while u in into:
            u = into[u]
        return u

    def shape(op: ir.Operation) -> list[int] | None:
        t = op.results[0].type
        if not isinstance(t, ir.RankedTensorType) or not ir.RankedTensorType(t).has_static_shape:
            return None
        return list(ir.RankedTensorType(t).shape)

    changed = True
    while changed:
        changed = False
        for i, op in enumerate(bt.ops):
            if i in into or op.name not in ELEMENTWISE_OPS or len(op.results) != 1 or shape(op) is None:
                continue
            r = (i, 0)
            users = bt.users.get(r, set())
            if r in bt.returned or not users:
                continue
            ok = all(bt.ops[u].name in ELEMENTWISE_OPS and len(bt.ops[u].results) == 1
                     and shape(bt.ops[u]) == shape(op) and sum(1 for _, rr in bt.reads[u] if rr == r) == 1
                     for u in users)
            finals = {final(u) for u in users}
            if ok and len(finals) == 1:
                into[i] = finals.pop()
                changed = True
    return {i: final(i) for i in into}


def estimate_function(fn: ir.Operation, *, in_place: bool = True, alignment: int = 64, strategy: str = AGGRESSIVE,
                      work_limit: float = 0.1, fuse_elementwise: bool = True, winograd: bool = True) -> MemoryEstimate:
    """The estimate of one ge ``func.func`` (see the module doc). ``fuse_elementwise`` models
    the CPU pipeline's ge-fuse-elementwise-generics (:func:`_fused_elementwise`), ``winograd``
    its Winograd convolutions."""
    t0 = time.perf_counter()
    if len(fn.regions[0].blocks) != 1:
        raise CompileError(f"cannot estimate @{symbol_name(fn)}: it has {len(fn.regions[0].blocks)} blocks "
                           "(the estimate follows one entry block, as the memory plan does)")
    block = fn.regions[0].blocks[0]
    bt = BlockTensors(block)
    n = bt.n
    token = _WINOGRAD.set(winograd)
    try:
        models = [lowering_model(op) for op in bt.ops]
    finally:
        _WINOGRAD.reset(token)
    end_point = _N * n  # the terminator

    weights = sum(tensor_bytes(op.results[0].type) or 0 for i, op in enumerate(bt.ops)
                  if bt.constant[i] and len(op.results))
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    inputs = sum(tensor_bytes(t) or 0 for t in ftype.inputs)
    outputs = sum(tensor_bytes(t) or 0 for t in ftype.results)

    # Which tensors are copied out to their out-parameter (and so take workspace): those whose
    # lowered result is a view of an internal buffer, and those returned through two or more
    # reshape-like views and never directly. A tensor returned directly, or through one such view
    # (ge-forward-result-buffers), is computed in its out-parameter.
    copied_out: set[Key] = set()
    returned_as: dict[Key, set] = {}
    for v in bt.term.operands:
        src = producer(v, bt.index)
        r = bt.root.get(src) if src is not None else None
        if r is not None:
            returned_as.setdefault(r, set()).add(src)
    for r, srcs in returned_as.items():
        m = models[r[0]]
        if (m.result_view and not m.result_reshaped) or (len(srcs) > 1 and r not in srcs):
            copied_out.add(r)

    fused = _fused_elementwise(bt) if fuse_elementwise else {}
    # Empty-tensor elimination: a padded operand whose producer writes a fresh buffer becomes that buffer.
    size: dict[Key, int] = {r: (0 if r[0] in fused else b) for r, b in bt.nbytes.items()}
    tensor_type: dict[Key, str] = {r: _type_text(bt.ops[r[0]].results[r[1]].type) for r in bt.nbytes}
    absorbed: dict[Key, int] = {}
    padded_type: dict[Key, str] = {}
    read_step: dict[tuple[int, int], int] = {}  # (op, operand) -> step
    scratch: list[tuple[int, Scratch]] = []  # (op index, scratch)
    for i, (op, m) in enumerate(zip(bt.ops, models)):
        for pos, (padded, ptype, last) in m.pads.items():
            r = bt.root_of(op.operands[pos])
            src = producer(op.operands[pos], bt.index)
            if (r is not None and src == r and r not in absorbed and r not in bt.returned
                    and not models[r[0]].result_view and size.get(r, 0)):
                absorbed[r] = i
                size[r] = max(size[r], padded)
                padded_type[r] = ptype
                read_step[(i, pos)] = last
            else:
                scratch.append((i, Scratch("padded input", padded, PREP, last, ptype)))
                read_step[(i, pos)] = PREP
        for s in m.scratch:
            scratch.append((i, s))

    # Live ranges of the tensors.
    live: dict[Key, list[int]] = {}
    for r, b in size.items():
        if not b or (r in bt.returned and r not in copied_out):
            continue
        i = r[0]
        start = _N * i + models[i].out
        end = start
        for u in bt.users[r]:
            for pos, rr in bt.reads[u]:
                if rr == r:
                    step = read_step.get((u, pos), models[u].read.get(pos, EPILOGUE) if pos >= 0 else EPILOGUE)
                    end = max(end, _N * fused.get(u, u) + (EPILOGUE if u in fused else step))
        if r in copied_out:
            end = end_point
        live[r] = [start, end]

    # Buffers: tensors first (ids 0..), then scratch.
    tensor_keys = sorted(live)
    buf_of: dict[Key, int] = {r: k for k, r in enumerate(tensor_keys)}
    infos: list[BufferEstimate] = []
    for r in tensor_keys:
        op = bt.ops[r[0]]
        infos.append(BufferEstimate(_name(op), op.name, "activation", size[r], tensor_type[r],
                                    live[r][0] // _N, live[r][1] // _N, padded=padded_type.get(r, "")))
    ranges = [tuple(live[r]) for r in tensor_keys]
    sizes = [size[r] for r in tensor_keys]
    scratch_ids: list[int] = []
    acc_of_op: dict[int, int] = {}
    for i, s in scratch:
        if not s.size:
            continue
        k = len(infos)
        scratch_ids.append(k)
        op = bt.ops[i]
        infos.append(BufferEstimate(_name(op), op.name, s.label, s.size, s.type, i, i))
        ranges.append((_N * i + s.first, _N * i + s.last))
        sizes.append(s.size)
        if s.epilogue_acc:
            acc_of_op[i] = k

    # In-place reuse: a result written at its op's epilogue takes over the bytes of an input that dies there.
    slots = _Slots()
    reuses: dict[int, int] = {}
    if in_place:
        taken: set[int] = set()
        for r in tensor_keys:
            i = r[0]
            op, m = bt.ops[i], models[i]
            if r in absorbed or m.out != EPILOGUE or len(op.results) != 1:
                continue
            out_b = buf_of[r]
            candidates: list[int] = []
            if i in acc_of_op:  # the epilogue reads the accumulator, which dies there
                candidates.append(acc_of_op[i])
            rt = op.results[0].type
            # A fused chain's generic reads what its fused producers read: those may die here too.
            operands = [op.operands[pos] for pos in m.inplace_operands]
            k = 0
            while k < len(operands):
                src = producer(operands[k], bt.index)
                if src is not None and fused.get(src[0]) == i:
                    operands += list(bt.ops[src[0]].operands)
                k += 1
            for v in operands:
                rr = bt.root_of(v)
                # Not an argument or a constant (or a view of one), of the result's type (a reshape
                # view keeps the row-major order), not living in a consumer's padded buffer, dying here.
                if rr is None or rr not in buf_of or rr in absorbed or v.type != rt:
                    continue
                if live[rr][1] != _N * i + EPILOGUE:
                    continue
                candidates.append(buf_of[rr])
            for c in candidates:
                # Each buffer hands its bytes on once (chains of in-place ops share one slot).
                if c in taken or ranges[c][1] != _N * i + EPILOGUE or sizes[c] < sizes[out_b]:
                    continue
                taken.add(c)
                slots.union(c, out_b)
                reuses[out_b] = c
                break

    # Merge the shared buffers into one record each and plan.
    groups: dict[int, list[int]] = {}
    for k in range(len(infos)):
        groups.setdefault(slots.find(k), []).append(k)
    merged: list[Buffer] = []
    tensor_only: list[Buffer] = []
    for gid, (root, members) in enumerate(sorted(groups.items())):
        b = Buffer(gid, max(sizes[k] for k in members), min(ranges[k][0] for k in members),
                   max(ranges[k][1] for k in members), infos[root].name)
        merged.append(b)
        if all(k < len(tensor_keys) for k in members):
            tensor_only.append(b)
        elif any(k < len(tensor_keys) for k in members):
            # An accumulator taken over by its result: the tensor part counts as activation.
            ts = [k for k in members if k < len(tensor_keys)]
            tensor_only.append(Buffer(gid, max(sizes[k] for k in ts), min(ranges[k][0] for k in ts),
                                      max(ranges[k][1] for k in ts), infos[ts[0]].name))
    # The joint plan (tensors and scratch) is the arena estimate. The activation peak is the smaller of
    # the heuristics' plan of the tensors alone and the joint plan's placement of them (a valid plan of
    # the tensors too): the exact solver, a child process, then runs at most once.
    joint, chosen, offsets = 0, "", {}
    if merged:
        if strategy == HEURISTICS_ONLY:
            p = plan(merged, alignment=alignment, max_exact_buffers=0)
        else:
            p = plan(merged, alignment=alignment, strategy=strategy, work_limit=work_limit)
        joint, chosen, offsets = p.arena, p.strategy, p.offsets
    act = 0
    if tensor_only:
        alone = plan(tensor_only, alignment=alignment, max_exact_buffers=0).arena
        within = max(offsets[b.id] + round_up(b.size, alignment) for b in tensor_only)
        act = min(alone, within)
    bound = lower_bound(merged, alignment)

    peak_point, peak_live = 0, []
    best = -1
    for point, total, bufs in live_sets(merged, alignment):
        if total > best:
            best, peak_point, peak_live = total, point, bufs
    members_of = {gid: groups[root] for gid, root in enumerate(sorted(groups))}
    peak_buffers = sorted((infos[k] for b in peak_live for k in members_of[b.id]
                           if ranges[k][0] <= peak_point <= ranges[k][1]), key=lambda b: (-b.size, b.start))
    # Name what a tensor reuses: its own op's scratch by kind ("accumulator"), another tensor by its node.
    infos = [_with_reuse(b, "" if k not in reuses else infos[reuses[k]].kind if reuses[k] >= len(tensor_keys)
                         else infos[reuses[k]].name) for k, b in enumerate(infos)]
    activations = sorted(infos[: len(tensor_keys)], key=lambda b: (-b.size, b.start))
    scratches = sorted((infos[k] for k in scratch_ids), key=lambda b: (-b.size, b.start))
    peak_index = min(peak_point // _N, max(n - 1, 0))
    peak_op = bt.ops[peak_index] if n else None
    return MemoryEstimate(
        function=symbol_name(fn), weights=weights, inputs=inputs, outputs=outputs,
        activation_peak=act, workspace=max(0, joint - act), lower_bound=bound,
        largest_scratch=max((b.size for b in scratches), default=0),
        peak_index=peak_index, peak_op=peak_op.name if peak_op is not None else "",
        peak_name=_name(peak_op) if peak_op is not None else "", peak_step=STEPS[peak_point % _N],
        peak_buffers=peak_buffers, top_activations=activations[:TOP], top_workspace=scratches[:5],
        ops=n, tensors=len(tensor_keys), scratch_buffers=len(scratch_ids), in_place=in_place,
        alignment=alignment, strategy=chosen, seconds=time.perf_counter() - t0,
    )


def _with_reuse(b: BufferEstimate, reuses: str) -> BufferEstimate:
    return dataclasses.replace(b, reuses=reuses) if reuses else b


def _type_text(t: ir.Type) -> str:
    tt = _ttype(t)
    if tt is None:
        return str(t)
    return _shape_text(list(tt.shape), str(tt.element_type))
