"""The CPU target's memory model: what the lowering of each ge op (``ge-lower-to-linalg`` and the
codegen strategy) holds besides the ge tensors, for the memory estimate before lowering
(:mod:`ge_mlir.memory.estimate`, reached through :meth:`CpuTarget.memory_model
<ge_mlir.target.cpu.target.CpuTarget.memory_model>`) and for ``ge-rematerialize``'s scratch
(:func:`ge_mlir.target.cpu.target.cpu_scratch_bytes`).

Which path a convolution, depthwise convolution or pool takes is asked of the codegen's own
selection (:mod:`.codegen.strategy`), with the facts the ge op gives and what the lowering makes
of it: an output that starts as zeros, an epilogue of vector code, and a kernel that stands for
every JIT CPU's (:data:`ESTIMATE_KERNEL`). No threshold or condition of the codegen is restated here.
"""

from __future__ import annotations

import dataclasses
import math

from mlir import ir

from ...irutils.attrs import attr_bool, attr_enum, attr_float, attr_int, attr_ints
from ...irutils.types import element_bytes
from ...memory.liveness import BlockTensors
from ...memory.op_model import (
    COMPUTE, EPILOGUE, GATHER, PREP, MemoryModel, OpModel, Scratch, shape_text, static_tensor,
)
from .codegen.strategy import (
    ConvFacts, ConvPath, KernelOptions, WindowFacts, WindowPath, row_im2col_splits_by_phase, select_conv_path,
    select_window_path,
)

__all__ = ["ELEMENTWISE_OPS", "ESTIMATE_KERNEL", "codegen_path", "cpu_memory_model", "fused_elementwise",
           "lowering_model"]

_UNARY = ("abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "relu", "leaky_relu",
          "gelu", "erf", "sin", "cos", "floor", "ceil", "round", "sign", "not", "softplus", "hard_sigmoid",
          "hard_swish", "silu", "clip")
_BINARY = ("add", "sub", "mul", "div", "pow", "max", "min", "mod", "and", "or", "xor", "equal", "less",
           "less_equal", "greater", "greater_equal")
#: ge ops lowered to one elementwise ``linalg.generic`` (in-place candidates).
ELEMENTWISE_OPS = frozenset(f"ge.{n}" for n in (*_UNARY, *_BINARY, "cast", "where", "batch_norm"))

#: The kernel the selection is asked with. Its tile and lane conditions give every JIT CPU's kernel
#: the same path (a register tile of at most 8 rows by two vectors stores transposed; a window op's
#: vector reads fit the input whatever their width: test_codegen_strategy.py checks both), so one
#: stands for all: x86-64-v3's.
ESTIMATE_KERNEL = KernelOptions(tile_m=6, tile_n=16, lanes=8)


def _elem_bytes(t: ir.RankedTensorType) -> int:
    return element_bytes(t.element_type) or 0


def _acc_bytes(t: ir.RankedTensorType) -> int:
    """Bytes of the accumulator element (f16/bf16 accumulate in f32)."""
    e = t.element_type
    if isinstance(e, ir.FloatType):
        return max(4, ir.FloatType(e).width // 8)
    return _elem_bytes(t)


def _elem_name(t: ir.RankedTensorType, acc: bool = False) -> str:
    if acc and isinstance(t.element_type, ir.FloatType) and ir.FloatType(t.element_type).width < 32:
        return "f32"
    return str(t.element_type)


def lowering_model(op: ir.Operation, kernel: KernelOptions = ESTIMATE_KERNEL) -> OpModel:
    """The memory model of ``op``'s CPU lowering (``ge-lower-to-linalg`` + the codegen strategy;
    ``kernel.winograd``: the ``winograd`` compile option). The paths below are the codegen's
    selection's (:mod:`.codegen.strategy`); the conditions quoted are its, for reading.

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
    m = builder(op, kernel) if builder is not None else OpModel()
    if name in ELEMENTWISE_OPS:
        m.inplace_operands = list(range(len(op.operands)))
    return m


def _conv_path(xt: ir.RankedTensorType, wt: ir.RankedTensorType, out_t: ir.RankedTensorType, padded: list[int],
               w_shape: list[int], out_nchw: list[int], strides: list[int], dilations: list[int], groups: int,
               constant_filter: bool, kernel: KernelOptions) -> ConvPath | WindowPath:
    """The codegen's path for the convolution: of ``linalg.conv_2d_nchw_fchw`` (one group), of a
    depthwise convolution (:class:`WindowPath`), else :data:`ConvPath.NONE` (other groups). The
    lowering starts the output from zeros; the codegen fuses an elementwise epilogue it can apply
    as vector code (the ge op's bias, residual and activation are)."""
    n, c, hp, wp = padded
    f, cg, kh, kw = w_shape
    _, _, ho, wo = out_nchw
    if groups == 1:
        return select_conv_path(ConvFacts(
            element=str(xt.element_type), batch=n, channels=c, in_hw=(hp, wp), filters=f, kernel=(kh, kw),
            out_hw=(ho, wo), strides=tuple(strides), dilations=tuple(dilations), constant_filter=constant_filter),
            kernel)
    if groups == c == f and cg == 1:
        return select_window_path(WindowFacts(
            kind="depthwise", elements=(str(xt.element_type), str(wt.element_type), str(out_t.element_type)),
            float_input=isinstance(xt.element_type, ir.FloatType), rank=4, in_hw=(hp, wp), kernel=(kh, kw),
            out_hw=(ho, wo), strides=tuple(strides), dilations=tuple(dilations), empty=0 in (*padded, *out_nchw),
            fresh=True), kernel)
    return ConvPath.NONE


def _conv_core(m: OpModel, path: ConvPath | WindowPath, x_pos: int, xt: ir.RankedTensorType, padded: list[int],
               pad_first_copy: bool, w_shape: list[int], out_nchw: list[int], strides: list[int],
               dilations: list[int], epilogue: bool, out_t: ir.RankedTensorType,
               own_buffer: bool = False) -> tuple[int, list[int]]:
    """Fills ``m`` for the convolution of the (padded) NCHW input ``padded`` by an OIHW filter;
    returns the step that reads the (padded) input and the shape of the padded buffer.

    ``path``: the codegen's (:func:`_conv_path`). ``own_buffer``: the padded input is the
    convolution's own zero-filled buffer (a padded or dilated copy); shifted matmuls then pad it
    with zero rows below instead of copying it again."""
    n, c, hp, wp = padded
    f, cg, kh, kw = w_shape
    _, _, ho, wo = out_nchw
    eb, ab = _elem_bytes(xt), _acc_bytes(xt)
    elem, acc_elem = _elem_name(xt), _elem_name(xt, acc=True)
    acc_shape = [n, f, ho, wo]
    if path is ConvPath.WINOGRAD:
        # The per-row-pair scratch of transformed inputs [16, C, Wo/2] and products [16, Wo/2, F]
        # (one thread's figure, as row patches).
        read_input, acc_step = COMPUTE, COMPUTE
        m.scratch.append(Scratch.of("winograd input", [16, c, wo // 2], eb, elem, COMPUTE, COMPUTE))
        m.scratch.append(Scratch.of("winograd products", [16, wo // 2, f], eb, elem, COMPUTE, COMPUTE))
        if epilogue and ab == _elem_bytes(out_t):
            epilogue = False  # applied in the tiles: no accumulator
    elif path is ConvPath.ROW_IM2COL:
        # One output row's [C, kh, kw, Wo] patches at a time, reused row after row; the tiles
        # store through the epilogue (one thread's figure: N threads hold N such buffers).
        read_input, acc_step = COMPUTE, COMPUTE
        m.scratch.append(Scratch.of("row patches", [1, c, kh, kw, wo], eb, elem, COMPUTE, COMPUTE))
        s1 = strides[1]
        if row_im2col_splits_by_phase(kw, wo, wp, s1, dilations[1]):
            # Strided rows gather from the input split by column phase ([1, C, Hp, s, Wp / s]),
            # the input's last reader.
            read_input = GATHER
            m.scratch.append(Scratch.of("phase-split input", [1, c, hp, s1, wp // s1], eb, elem, GATHER, COMPUTE))
        if epilogue and ab == _elem_bytes(out_t):
            epilogue = False
    elif path in (ConvPath.SHIFTED_ROWS, ConvPath.POINTWISE, ConvPath.DIRECT_ROWS):
        # The windows (the input rows of 1x1 filters-by-positions tiles) read the padded input in
        # place; each register tile is stored (transposed) into the [N, F, Ho, Wo] result through
        # the epilogue (compute).
        read_input, acc_step = COMPUTE, COMPUTE
        if epilogue and ab == _elem_bytes(out_t):
            epilogue = False  # applied in the tiles: no accumulator
    elif path is ConvPath.SHIFTED_MATMULS:
        extra = (kw - 1) * dilations[1]
        if own_buffer:
            padded = [n, c, hp - (-extra // wp), wp]  # padded again with zero rows below
            read_input = COMPUTE
        else:
            read_input = GATHER
            m.scratch.append(Scratch.of("row copy", [c, hp * wp + extra], eb, elem, GATHER, COMPUTE))
        acc_step = COMPUTE
        acc_shape = [f, ho * wp]
        m.result_view = True  # the result is a slice of the [F, Ho*Wp] accumulator
    elif path is ConvPath.IMG2COL:
        if kh == kw == 1 and strides == [1, 1]:
            read_input, acc_step = COMPUTE, COMPUTE
        else:
            m.scratch.append(Scratch.of("im2col", [n, c * kh * kw, ho * wo], eb, elem, GATHER, COMPUTE))
            read_input, acc_step = GATHER, COMPUTE
        if n > 1:
            m.scratch.append(Scratch.of("filter broadcast", [n, f, c * kh * kw], eb, elem, GATHER, COMPUTE))
    else:
        read_input, acc_step = COMPUTE, COMPUTE
        if path in (WindowPath.VECTORS, WindowPath.CLAMPED_VECTORS):
            epilogue = False  # applied to the vectors before their store: no accumulator
    if pad_first_copy:
        # The padded copy is read until the step that reads the input.
        m.pads[x_pos] = (math.prod(padded) * eb, shape_text(padded, elem), read_input)
    else:
        m.read[x_pos] = read_input
    if epilogue:
        # The epilogue reads a shifted-matmul accumulator through a slice: never in place.
        m.scratch.append(Scratch.of("accumulator", acc_shape, ab, acc_elem, acc_step, EPILOGUE,
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
    m.scratch.append(Scratch.of("padded input" if padded != x else "NCHW input", padded, eb, elem, PREP, read))
    m.read[0] = PREP


def _nchw(shape: list[int], nhwc: bool) -> list[int]:
    return [shape[0], shape[3], shape[1], shape[2]] if nhwc else list(shape)


@dataclasses.dataclass(frozen=True)
class _Conv2d:
    """A ``ge.conv2d`` as its lowering sees it (NCHW shapes; an NHWC one is transposed first)."""

    xt: ir.RankedTensorType
    wt: ir.RankedTensorType
    rt: ir.RankedTensorType
    nhwc: bool
    #: The input, the output and the padded input, NCHW.
    x: list[int]
    out: list[int]
    padded: list[int]
    pads: list[int]
    strides: list[int]
    dilations: list[int]
    groups: int
    constant_filter: bool

    @classmethod
    def of(cls, op: ir.Operation) -> _Conv2d | None:
        xt, wt, rt = (static_tensor(op.operands[0].type), static_tensor(op.operands[1].type),
                      static_tensor(op.results[0].type))
        if xt is None or wt is None or rt is None or xt.rank != 4 or wt.rank != 4:
            return None
        pads = attr_ints(op, "pads", [0, 0, 0, 0]) or [0, 0, 0, 0]
        nhwc = attr_enum(op, "data_format", "NCHW") == "NHWC"
        x = _nchw(list(xt.shape), nhwc)
        # (A filter that is a block argument is no constant: its owner is the block.)
        w_owner = op.operands[1].owner
        w_owner = w_owner.operation if isinstance(w_owner, ir.OpView) else w_owner
        return cls(xt, wt, rt, nhwc, x, _nchw(list(rt.shape), nhwc),
                   [x[0], x[1], x[2] + pads[0] + pads[2], x[3] + pads[1] + pads[3]], pads,
                   attr_ints(op, "strides", [1, 1]) or [1, 1], attr_ints(op, "dilations", [1, 1]) or [1, 1],
                   attr_int(op, "groups", 1) or 1, isinstance(w_owner, ir.Operation) and w_owner.name == "ge.constant")

    def path(self, kernel: KernelOptions) -> ConvPath | WindowPath:
        return _conv_path(self.xt, self.wt, self.rt, self.padded, list(self.wt.shape), self.out, self.strides,
                          self.dilations, self.groups, self.constant_filter, kernel)


def _conv2d(op: ir.Operation, kernel: KernelOptions) -> OpModel:
    m = OpModel()
    g = _Conv2d.of(op)
    if g is None:
        return m
    xt, rt, nhwc, x, out = g.xt, g.rt, g.nhwc, g.x, g.out
    segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])) \
        if "operandSegmentSizes" in op.attributes else [1, 1, 0, 0]
    has_bias = len(segments) > 2 and segments[2] > 0
    has_residual = len(segments) > 3 and segments[3] > 0
    act = attr_enum(op, "activation", "none")
    epilogue = has_bias or has_residual or act != "none" or _acc_bytes(xt) != _elem_bytes(rt)
    read, padded = _conv_core(m, g.path(kernel), 0, xt, g.padded, any(g.pads) and not nhwc, list(g.wt.shape), out,
                              g.strides, g.dilations, epilogue, rt, own_buffer=any(g.pads))
    if has_residual and not nhwc:
        m.inplace_operands = [len(op.operands) - 1]
    if nhwc:
        _nchw_copies(m, xt, x, padded, read)
        if has_residual:
            m.scratch.append(Scratch.of("NCHW residual", out, _elem_bytes(rt), _elem_name(rt), PREP, EPILOGUE))
        m.scratch.append(Scratch.of("NCHW result", out, _elem_bytes(rt), _elem_name(rt), EPILOGUE, EPILOGUE))
        m.result_view = False
    return m


def _conv_transpose2d(op: ir.Operation, kernel: KernelOptions) -> OpModel:
    m = OpModel()
    xt, wt, rt = (static_tensor(op.operands[0].type), static_tensor(op.operands[1].type),
                  static_tensor(op.results[0].type))
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
        m.scratch.append(Scratch.of("transposed filter", [f * kh * kw, c], _elem_bytes(wt), _elem_name(wt),
                                    PREP, COMPUTE))
        m.scratch.append(Scratch.of("tap products", [f * kh * kw, h * w], eb, _elem_name(xt), COMPUTE, EPILOGUE))
        m.read[0] = COMPUTE
        m.out = EPILOGUE
        if nhwc:
            m.scratch.append(Scratch.of("NCHW input", [n, c, h, w], eb, _elem_name(xt), PREP, COMPUTE))
            m.read[0] = PREP
            m.scratch.append(Scratch.of("NCHW result", _nchw(list(rt.shape), True), _elem_bytes(rt), _elem_name(rt),
                                        EPILOGUE, EPILOGUE))
        return m
    # The dilated input's slot keeps its place in the list; its final shape and last step come from
    # the path _conv_core chooses (one row taller, read until compute, for shifted matmuls).
    dilated_slot = len(m.scratch)
    m.scratch.append(Scratch.of("dilated input", [n, c, hd, wd], eb, _elem_name(xt), PREP, GATHER))
    m.scratch.append(Scratch.of("flipped filter", [f, cin // groups, kh, kw], _elem_bytes(wt), _elem_name(wt),
                                PREP, COMPUTE))
    full = [n, f, hd - bh, wd - bw]
    epilogue = len(op.operands) > 2 or attr_enum(op, "activation", "none") != "none" or any(pads) or \
        _acc_bytes(xt) != _elem_bytes(rt)
    # The filter is flipped at run time (not a constant to pack); the dilated input is its own buffer.
    dilated, w_shape = [n, c, hd, wd], [f, cin // groups, kh, kw]
    path = _conv_path(xt, wt, rt, dilated, w_shape, full, [1, 1], dilations, groups, False, kernel)
    read, dilated = _conv_core(m, path, 0, xt, dilated, False, w_shape, full, [1, 1], dilations, epilogue, rt,
                               own_buffer=True)
    m.scratch[dilated_slot] = Scratch.of("dilated input", dilated, eb, _elem_name(xt), PREP, read)
    m.read[0] = PREP
    if nhwc:
        m.scratch.append(Scratch.of("NCHW result", _nchw(list(rt.shape), True), _elem_bytes(rt), _elem_name(rt),
                                    EPILOGUE, EPILOGUE))
        m.result_view = False
    return m


def _matmul(op: ir.Operation, kernel: KernelOptions) -> OpModel:
    m = OpModel()
    at, bt, rt = (static_tensor(op.operands[0].type), static_tensor(op.operands[1].type),
                  static_tensor(op.results[0].type))
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
            m.scratch.append(Scratch.of("broadcast A", [*batch, mm, k], eb, elem, PREP, COMPUTE))
            m.read[0] = PREP
        if bb_full != batch:
            m.scratch.append(Scratch.of("broadcast B", [*batch, k, nn], eb, elem, PREP, COMPUTE))
            m.read[1] = PREP
        acc_shape = [nb, mm, nn]
    has_bias = len(op.operands) > 2
    epilogue = has_bias or attr_enum(op, "activation", "none") != "none" or ab != _elem_bytes(rt)
    _contraction_result(m, acc_shape, ab, acc_elem, epilogue, rt)
    return m


def _contraction_result(m: OpModel, acc_shape: list[int], ab: int, acc_elem: str, epilogue: bool,
                        rt: ir.RankedTensorType) -> None:
    if epilogue:
        m.scratch.append(Scratch.of("accumulator", acc_shape, ab, acc_elem, COMPUTE, EPILOGUE,
                                    epilogue_acc=ab == _elem_bytes(rt) and math.prod(acc_shape) == math.prod(rt.shape)))
        m.out = EPILOGUE
    else:
        m.out = COMPUTE
        m.result_view = m.result_reshaped = list(acc_shape) != list(rt.shape)


def _gemm(op: ir.Operation, kernel: KernelOptions) -> OpModel:
    m = OpModel()
    at, rt = static_tensor(op.operands[0].type), static_tensor(op.results[0].type)
    if at is None or rt is None or at.rank != 2 or rt.rank != 2:
        return m
    m.read = {0: COMPUTE, 1: COMPUTE}
    if attr_bool(op, "trans_a", False):
        m.scratch.append(Scratch.of("transposed A", [at.shape[1], at.shape[0]], _elem_bytes(at), _elem_name(at),
                                    PREP, COMPUTE))
        m.read[0] = PREP
    epilogue = (len(op.operands) > 2 or attr_enum(op, "activation", "none") != "none"
                or attr_float(op, "alpha", 1.0) != 1.0 or _acc_bytes(at) != _elem_bytes(rt))
    _contraction_result(m, list(rt.shape), _acc_bytes(at), _elem_name(at, acc=True), epilogue, rt)
    if len(op.operands) > 2:
        m.inplace_operands = [2]  # C, when it has the result's type
    return m


def _pool_geometry(op: ir.Operation):
    """(input type, result type, NHWC, input, output, padded input (NCHW), kernel, strides,
    dilations, pads) of a ge pool, or None (dynamic, not 2-D)."""
    xt, rt = static_tensor(op.operands[0].type), static_tensor(op.results[0].type)
    if xt is None or rt is None or xt.rank != 4:
        return None
    nhwc = attr_enum(op, "data_format", "NCHW") == "NHWC"
    x, out = _nchw(list(xt.shape), nhwc), _nchw(list(rt.shape), nhwc)
    k = attr_ints(op, "kernel_shape", [1, 1]) or [1, 1]
    s = attr_ints(op, "strides", [1, 1]) or [1, 1]
    d = attr_ints(op, "dilations", [1, 1]) or [1, 1]
    p = attr_ints(op, "pads", [0, 0, 0, 0]) or [0, 0, 0, 0]
    extra = [max(0, (out[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - (x[2 + i] + p[i] + p[i + 2])) for i in range(2)]
    padded = [x[0], x[1], x[2] + p[0] + p[2] + extra[0], x[3] + p[1] + p[3] + extra[1]]
    return xt, rt, nhwc, x, out, padded, k, s, d, p


def _pool_path(op: ir.Operation, geometry: tuple, kernel: KernelOptions) -> WindowPath:
    """The codegen's path for a pool: the lowering pads a max pool's input with its lowest value
    (an unpadded one is read as it is) and starts the output from the identity."""
    xt, rt, _, x, out, padded, k, s, d, p = geometry
    kind = "max" if op.name == "ge.max_pool2d" else "sum"
    return select_window_path(WindowFacts(
        kind=kind, elements=(str(xt.element_type), str(xt.element_type), str(rt.element_type)),
        float_input=isinstance(xt.element_type, ir.FloatType), rank=4, in_hw=(padded[2], padded[3]), kernel=tuple(k),
        out_hw=(out[2], out[3]), strides=tuple(s), dilations=tuple(d), empty=0 in (*padded, *out), fresh=True,
        unpadded=(x[2], x[3], p[0], p[1]) if kind == "max" and padded != x else None), kernel)


def _pool(op: ir.Operation, kernel: KernelOptions) -> OpModel:
    m = OpModel()
    geometry = _pool_geometry(op)
    if geometry is None:
        return m
    xt, rt, nhwc, x, out, padded, *_ = geometry
    path = _pool_path(op, geometry, kernel)
    if path is WindowPath.CLAMPED_VECTORS:
        padded = list(x)  # vector code reads the input in place, taps clamped into it
    eb = _elem_bytes(xt)
    if nhwc:
        _nchw_copies(m, xt, x, padded, COMPUTE)
    elif padded != x:
        m.pads[0] = (math.prod(padded) * eb, shape_text(padded, _elem_name(xt)), COMPUTE)
    else:
        m.read[0] = COMPUTE
    if op.name == "ge.avg_pool2d" and not (not nhwc and path is WindowPath.VECTORS):
        m.scratch.append(Scratch.of("accumulator", out, _acc_bytes(xt), _elem_name(xt, acc=True), COMPUTE, EPILOGUE,
                                    epilogue_acc=_acc_bytes(xt) == _elem_bytes(rt)))
        m.out = EPILOGUE
    else:
        m.out = COMPUTE
    if nhwc:
        m.scratch.append(Scratch.of("NCHW result", out, _elem_bytes(rt), _elem_name(rt), EPILOGUE, EPILOGUE))
        m.out = EPILOGUE
    return m


def _reduce(op: ir.Operation, kernel: KernelOptions) -> OpModel:
    m = OpModel()
    xt, rt = static_tensor(op.operands[0].type), static_tensor(op.results[0].type)
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
    def build(op: ir.Operation, kernel: KernelOptions) -> OpModel:
        m = OpModel()
        xt = static_tensor(op.operands[0].type)
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



def fused_elementwise(bt: BlockTensors) -> dict[int, int]:
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


def cpu_memory_model(*, winograd: bool = True, fuse_elementwise: bool = True) -> MemoryModel:
    """The CPU lowering's memory model under the compile options ``winograd`` (Winograd
    convolutions) and ``fuse_elementwise`` (ge-fuse-elementwise-generics)."""
    kernel = dataclasses.replace(ESTIMATE_KERNEL, winograd=winograd)
    return MemoryModel(op=lambda op: lowering_model(op, kernel), fused=fused_elementwise if fuse_elementwise else None)


def codegen_path(op: ir.Operation, kernel: KernelOptions = ESTIMATE_KERNEL) -> ConvPath | WindowPath | None:
    """The codegen path this model assumes for a ge ``conv2d`` or pool: the one
    ``ge-select-codegen-strategy`` records on its lowering (None for other ops and dynamic shapes)."""
    if op.name == "ge.conv2d":
        g = _Conv2d.of(op)
        return g.path(kernel) if g is not None else None
    if op.name in ("ge.max_pool2d", "ge.avg_pool2d"):
        geometry = _pool_geometry(op)
        return _pool_path(op, geometry, kernel) if geometry is not None else None
    return None
