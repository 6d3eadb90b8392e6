"""Data movement: ``transpose`` (row copies when the last axis stays, a through-UB kernel when
only the last two axes swap), ``trans_data`` NCHW <-> NHWC, and split, concat, slice, expand,
tile, gather, resize and pad as strided row copies, gathers and fills (:mod:`..kernels.copy`)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....errors import Unsupported
from ....irutils.attrs import attr_enum, attr_float, attr_int, attr_ints
from ....irutils.resize import resize_tables
from ..kernels.copy import coalesce, contiguous_strides, copy_rows_kernel, fill_kernel, gather_kernel
from ..kernels.elementwise import elementwise_kernel
from ..kernels.layout import transpose2d_kernel, transpose_rows_kernel
from ..program import Program
from .common import ELEMS, Buffer, Lowering, elem_of, lowering, numel, shape_of


@lowering("transpose")
def lower_transpose(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = shape_of(x)
    perm = attr_ints(op, "perm", list(range(len(shape)))[::-1])
    rank = len(shape)
    elem = elem_of(x)
    if perm[-1] == rank - 1:
        kb = transpose_rows_kernel(low.name("transpose"), elem, shape, perm)
    elif perm == list(range(rank - 2)) + [rank - 1, rank - 2]:
        kb = transpose2d_kernel(low.name("transpose"), elem, numel(shape[:-2]), shape[-2], shape[-1])
    else:
        raise Unsupported(f"transpose with perm {perm}")
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


@lowering("trans_data")
def lower_trans_data(low: Lowering, op: ir.Operation) -> None:
    src, dst = attr_enum(op, "src_format", "?"), attr_enum(op, "dst_format", "?")
    x = op.operands[0]
    shape = shape_of(x)
    if (src, dst) == ("NCHW", "NHWC"):
        n, c, h, w = shape
        batch, rows, cols = n, c, h * w
    elif (src, dst) == ("NHWC", "NCHW"):
        n, h, w, c = shape
        batch, rows, cols = n, h * w, c
    else:
        raise Unsupported(f"trans_data {src} -> {dst}")
    kb = transpose2d_kernel(low.name("trans_data"), elem_of(x), batch, rows, cols)
    low.launch(kb, [low.buffer(x), low.result_buffer(op.results[0])])


def launch_copy(low: Lowering, family: str, elem: str, shape: list[int], src: Buffer, src_strides: list[int],
                 src_offset: int, dst: Buffer, dst_strides: list[int], dst_offset: int) -> None:
    dims, cols, ss, ds = coalesce(shape, src_strides, dst_strides)
    kb = copy_rows_kernel(low.name(family), elem, dims, cols, ss, src_offset, ds, dst_offset)
    low.launch(kb, [src, dst])


@lowering("split")
def lower_split(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = shape_of(x)
    axis = attr_int(op, "axis", 0) % len(shape)
    strides = contiguous_strides(shape)
    start = 0
    for r in op.results:
        out_shape = shape_of(r)
        if numel(out_shape):
            launch_copy(low, "split", elem_of(x), out_shape, low.buffer(x), strides, start * strides[axis],
                         low.result_buffer(r), contiguous_strides(out_shape), 0)
        start += out_shape[axis]


@lowering("concat")
def lower_concat(low: Lowering, op: ir.Operation) -> None:
    out = op.results[0]
    out_shape = shape_of(out)
    axis = attr_int(op, "axis", 0) % len(out_shape)
    strides = contiguous_strides(out_shape)
    dst = low.result_buffer(out)
    start = 0
    for x in op.operands:
        shape = shape_of(x)
        if numel(shape):
            # Each input writes its own slab of the output (one launch each).
            launch_copy(low, "concat", elem_of(out), shape, low.buffer(x), contiguous_strides(shape), 0,
                         dst, strides, start * strides[axis])
        start += shape[axis]


@lowering("slice")
def lower_slice(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape, out_shape = shape_of(x), shape_of(op.results[0])
    rank = len(shape)
    starts, ends = attr_ints(op, "starts", []), attr_ints(op, "ends", [])
    axes = [a % rank for a in attr_ints(op, "axes", [])] or list(range(len(starts)))
    steps = attr_ints(op, "steps", []) or [1] * len(axes)
    first, step = [0] * rank, [1] * rank
    for a, st, en, sp in zip(axes, starts, ends, steps):
        d = shape[a]
        # ONNX Slice clamping: the first index taken, per axis.
        st = st + d if st < 0 else st
        st = min(max(st, 0), d - 1) if sp < 0 else min(max(st, 0), d)
        first[a], step[a] = st, sp
    strides = contiguous_strides(shape)
    if not numel(out_shape):
        return
    offset = sum(f * s for f, s in zip(first, strides))
    launch_copy(low, "slice", elem_of(x), out_shape, low.buffer(x), [s * p for s, p in zip(strides, step)], offset,
                 low.result_buffer(op.results[0]), contiguous_strides(out_shape), 0)


@lowering("expand")
def lower_expand(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    out_shape = shape_of(op.results[0])
    shape = [1] * (len(out_shape) - len(shape_of(x))) + shape_of(x)
    strides = [0 if d == 1 and o != 1 else s for d, o, s in zip(shape, out_shape, contiguous_strides(shape))]
    launch_copy(low, "expand", elem_of(x), out_shape, low.buffer(x), strides, 0, low.result_buffer(op.results[0]),
                 contiguous_strides(out_shape), 0)


@lowering("tile")
def lower_tile(low: Lowering, op: ir.Operation) -> None:
    x = op.operands[0]
    shape = shape_of(x)
    reps = attr_ints(op, "repeats", [1] * len(shape))
    # out[r_0, i_0, r_1, i_1, ...] = x[i_0, i_1, ...]: a copy over the interleaved axes.
    ishape, istrides, ostrides = [], [], []
    out_strides = contiguous_strides(shape_of(op.results[0]))
    for d, r, s, o in zip(shape, reps, contiguous_strides(shape), out_strides):
        ishape += [r, d]
        istrides += [0, s]
        ostrides += [o * d, o]
    launch_copy(low, "tile", elem_of(x), ishape, low.buffer(x), istrides, 0, low.result_buffer(op.results[0]),
                 ostrides, 0)


@lowering("gather")
def lower_gather(low: Lowering, op: ir.Operation) -> None:
    data, indices = op.operands[0], op.operands[1]
    shape, ishape = shape_of(data), shape_of(indices)
    axis = attr_int(op, "axis", 0) % len(shape)
    idx_elem = elem_of(indices)
    outer, inner, nidx = numel(shape[:axis]), numel(shape[axis + 1 :]), numel(ishape)
    if not numel(shape_of(op.results[0])):
        return
    kb = gather_kernel(low.name("gather"), elem_of(data), idx_elem, outer, shape[axis], nidx, inner)
    low.launch(kb, [low.buffer(data), low.buffer(indices), low.result_buffer(op.results[0])])


@lowering("resize")
def lower_resize(low: Lowering, op: ir.Operation) -> None:
    """Separable: per resized axis, one gather per tap (compile-time source indices from the ONNX
    coordinate transform) and, for linear and cubic taps, one vector kernel summing the gathered
    tensors times their weights (a per-index weight: a "col" operand, or a "row" one on the last axis)."""
    x = op.operands[0]
    in_shape, out_shape = shape_of(x), shape_of(op.results[0])
    elem = elem_of(x)
    if elem not in ELEMS:
        raise Unsupported(f"resize of {elem}")
    mode = attr_enum(op, "mode", "nearest")
    coord = attr_enum(op, "coordinate_transformation_mode", "half_pixel")
    if coord == "tf_crop_and_resize":
        raise Unsupported("tf_crop_and_resize (needs roi)")
    if "scales" in op.attributes:
        scales = [float(v) for v in ir.DenseF32ArrayAttr(op.attributes["scales"])]
    else:
        scales = [o / i for o, i in zip(out_shape, in_shape)]
    axes = [d for d in range(len(in_shape)) if out_shape[d] != in_shape[d] or not np.isclose(scales[d], 1.0)]
    cur, shape = low.buffer(x), list(in_shape)
    for n_axis, d in enumerate(axes):
        idx, w = resize_tables(in_shape[d], out_shape[d], scales[d], mode, coord,
                               attr_enum(op, "nearest_mode", "round_prefer_floor"),
                               attr_float(op, "cubic_coeff_a", -0.75))
        new_shape = shape[:d] + [out_shape[d]] + shape[d + 1 :]
        last = n_axis == len(axes) - 1
        out = low.result_buffer(op.results[0]) if last else low.temp(elem, numel(new_shape))
        outer, inner = numel(shape[:d]), numel(shape[d + 1 :])
        taps = [j for j in range(w.shape[1]) if np.any(w[:, j] != 0)]
        if mode == "nearest" or (len(taps) == 1 and np.all(w[:, taps[0]] == 1)):
            # One tap with weight 1 per output index: a pure gather.
            pick = idx[np.arange(len(idx)), np.argmax(w, axis=1)]
            kb = gather_kernel(low.name("resize"), elem, "i32", outer, shape[d], out_shape[d], inner)
            low.launch(kb, [cur, Buffer("i32", len(pick), "const", value=pick.astype(np.int32)), out])
        else:
            gathered = []
            for j in taps:
                g = low.temp(elem, numel(new_shape))
                kb = gather_kernel(low.name("resize"), elem, "i32", outer, shape[d], out_shape[d], inner)
                low.launch(kb, [cur, Buffer("i32", len(idx), "const", value=idx[:, j].astype(np.int32)), g])
                gathered.append(g)
            prog = Program(elem)
            on_last = d == len(new_shape) - 1
            acc = None
            for _ in taps:
                t = prog.binary("mul", prog.input(), prog.input("row" if on_last else "col",
                                                               0 if on_last else out_shape[d]))
                acc = t if acc is None else prog.binary("add", acc, t)
            prog.result = acc
            args = [b for g, j in zip(gathered, taps)
                    for b in (g, low.const_buffer(w[:, j].astype(np.float64), elem))]
            kb = elementwise_kernel(low.name("resize"), prog, new_shape, len(new_shape) - 1 if on_last else d + 1)
            low.launch(kb, [*args, out])
        cur, shape = out, new_shape
    if not axes:
        launch_copy(low, "resize", elem, in_shape, cur, contiguous_strides(in_shape), 0,
                     low.result_buffer(op.results[0]), contiguous_strides(in_shape), 0)


@lowering("pad")
def lower_pad(low: Lowering, op: ir.Operation) -> None:
    """Constant padding: the output filled with the value, then the input copied into its interior
    (negative pads crop)."""
    if attr_enum(op, "mode", "constant") != "constant":
        raise Unsupported(f"pad mode {attr_enum(op, 'mode', 'constant')} (constant padding is lowered)")
    x = op.operands[0]
    shape, out_shape = shape_of(x), shape_of(op.results[0])
    elem = elem_of(x)
    if elem not in ELEMS:
        raise Unsupported(f"pad of {elem}")
    rank = len(shape)
    pads = attr_ints(op, "pads", [0] * (2 * rank))
    begin, end = pads[:rank], pads[rank:]
    out = low.result_buffer(op.results[0])
    low.launch(fill_kernel(low.name("pad"), elem, numel(out_shape), attr_float(op, "value", 0.0)), [out])
    copy = [d + min(b, 0) + min(e, 0) for d, b, e in zip(shape, begin, end)]
    if numel(copy) <= 0 or any(c <= 0 for c in copy):
        return
    in_strides, out_strides = contiguous_strides(shape), contiguous_strides(out_shape)
    src = sum(max(-b, 0) * s for b, s in zip(begin, in_strides))
    dst = sum(max(b, 0) * s for b, s in zip(begin, out_strides))
    launch_copy(low, "pad", elem, copy, low.buffer(x), in_strides, src, out, out_strides, dst)
