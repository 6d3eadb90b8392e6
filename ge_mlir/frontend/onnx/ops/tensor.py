"""Tensor-manipulation ONNX ops: shape changes (Reshape, Transpose, Squeeze,
Unsqueeze, Flatten, Expand, Tile, Pad, Depth/SpaceToDepth), joins and splits
(Concat, Split, Slice), indexing (Gather, GatherElements, ScatterElements,
Scatter, Compress with a constant condition), shape queries (Shape, Size),
generators (Range, OneHot, ConstantOfShape, EyeLike, Trilu) and TopK.

Inputs that the ge ops take as attributes (Reshape's shape, Slice's starts,
Pad's pads, ...) must be known at import time; the importer folds shape
subgraphs, so this holds for exported models once the input shapes are fixed.
Ops whose result shape depends on tensor values (NonZero, Unique, Compress
with a run-time condition) and ops without a ge counterpart (GatherND,
ScatterND) are refused with the reason.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ....dialects import ge
from ....irutils.types import reshape_rule
from ..registry import converter, element_type, mlir_element_of, numpy_dtype
from . import _runtime as rt
from ._runtime import DYN
from ._shapes import _dims, _norm_axis, _tensor
from ._shapes import _reshape as _reshape_to  # no op when the shape is already the target

_AT_IMPORT = "must be known at import time"


# --- helpers -------------------------------------------------------------


def _ints(array, ctx, what: str) -> list[int]:
    """A constant index tensor (or attribute list) as a list of Python ints."""
    a = np.asarray(array)
    if a.dtype.kind not in "iub":
        ctx.refuse(f"{what} must be an integer tensor, got {a.dtype}")
    return [int(v) for v in a.reshape(-1)]


def _scalar_int(array, ctx, what: str) -> int:
    a = np.asarray(array).reshape(-1)
    if a.size != 1:
        ctx.invalid(f"{what} must hold exactly one value, got {a.size}")
    return int(a[0])


def _axes_input(ctx, attr_until: int, idx: int = 1) -> list[int] | None:
    """``axes`` of Squeeze/Unsqueeze: an attribute before opset 13, an input since."""
    if ctx.opset < attr_until:
        axes = ctx.attr("axes")
        return None if axes is None else list(axes)
    if not ctx.has_input(idx):
        return None
    return _ints(ctx.require_const(idx, "axes"), ctx, "axes")


def _reshape(x: ir.Value, dims: list[int]) -> ir.Value:
    """Always a ge.reshape (``_shapes._reshape`` skips a reshape to the same shape)."""
    return ge.reshape(_tensor(dims, x.type.element_type), x)


# --- shape changes -------------------------------------------------------


def _symbolic_target(ctx) -> list[int] | None:
    """A run-time Reshape shape (exporters compute it: Shape -> Gather -> Concat) as a static target
    with ONNX's 0 and -1, from shape inference's symbolic dims: a result dim with the symbol of the
    input dim at its index is a copy (0), an int stays, and at most one other dim is the -1.
    None when that does not describe the result (the shape is then refused as before)."""
    importer = ctx.importer
    if importer.depends_on_input_values(ctx.node.input[1]):
        return None  # a shape given by the caller: its values, not inference, decide the result
    out = importer.symbolic_dims(ctx.node.output[0]) if ctx.node.output else None
    inp = importer.symbolic_dims(ctx.node.input[0])
    if out is None or inp is None or ctx.attr("allowzero", 0):
        return None
    target: list[int] = []
    for i, d in enumerate(out):
        if isinstance(d, int):
            if d == 0:
                return None  # a static 0 would read as "copy"
            target.append(d)
        elif isinstance(d, str) and i < len(inp) and inp[i] == d:
            target.append(0)
        else:
            target.append(-1)
    return target if target.count(-1) <= 1 else None


@converter("Reshape", since=5, notes="0, -1, allowzero; a run-time shape: ge.dynamic_reshape (or a static target from shape inference's symbols)")
def reshape(ctx):
    target = _symbolic_target(ctx) if ctx.const(1) is None else None
    if target is None and ctx.const(1) is None:
        return _dynamic_reshape(ctx, ctx.input(1))
    if target is None:
        target = _ints(ctx.require_const(1, "shape"), ctx, "shape")
    allowzero = bool(ctx.attr("allowzero", 0))
    in_shape = ctx.shape(0)
    if target.count(-1) > 1:
        ctx.invalid(f"shape {target} has more than one -1")
    if allowzero and -1 in target and 0 in target:
        ctx.invalid(f"shape {target} has both 0 and -1 with allowzero=1")
    dims = []
    for i, d in enumerate(target):
        if d == 0 and not allowzero:
            if i >= len(in_shape):
                ctx.invalid(f"shape {target} copies dimension {i} (0) but the input has rank {len(in_shape)}")
            dims.append(in_shape[i])  # may be dynamic (-1)
        elif d < -1:
            ctx.invalid(f"shape {target} has a negative dimension {d}")
        else:
            dims.append(d)  # -1 is resolved below
    if -1 in target:
        at = target.index(-1)
        # Dynamic input dims copied (by 0) to the same position cancel out of the element count:
        # [?, 3, 4] -> [0, -1] is [?, 12].
        copied = {i for i, d in enumerate(target) if d == 0 and not allowzero and in_shape[i] < 0}
        dynamic = {i for i, d in enumerate(in_shape) if d < 0}
        others = [d for i, d in enumerate(dims) if i != at and i not in copied]
        if dynamic == copied and all(d >= 0 for d in others):
            total = int(np.prod([d for i, d in enumerate(in_shape) if i not in copied], dtype=np.int64))
            known = int(np.prod(others, dtype=np.int64))
            if known == 0:  # [0, -1]-like targets: -1 is ambiguous, left dynamic
                if total:
                    ctx.invalid(f"cannot reshape {in_shape} ({total} elements) to {target}")
            elif total % known:
                ctx.invalid(f"cannot reshape {in_shape} ({total} elements) to {target}")
            else:
                dims[at] = total // known
        else:
            dims[at] = -1
    elif all(d >= 0 for d in in_shape) and int(np.prod(in_shape, dtype=np.int64)) != int(np.prod(dims, dtype=np.int64)):
        ctx.invalid(f"cannot reshape {in_shape} to {target}: element counts differ")
    opt = lambda shape: [None if d < 0 else d for d in shape]  # noqa: E731
    if -1 in dims and reshape_rule(opt(in_shape), opt(dims)) is None:
        # The result type alone would not say which ? is which: the shape goes along.
        return _dynamic_reshape(ctx, ctx.constant(np.array(target, np.int64)), dims)
    return _reshape(ctx.input(0), dims)


def _dynamic_reshape(ctx, shape: ir.Value, dims: list[int] | None = None) -> ir.Value:
    """ge.dynamic_reshape: the shape read when it runs (ONNX's 0 and -1 applied then)."""
    st = ir.RankedTensorType(shape.type)
    if st.rank != 1 or st.is_dynamic_dim(0):
        ctx.refuse(f"a run-time shape of type {st}: its length (the result's rank) must be static")
    rank = st.get_dim_size(0)
    if dims is None:
        t = ctx.out_type(0)
        dims = list(t.shape) if t is not None and t.rank == rank else [-1] * rank
        dims = [-1 if d == ir.ShapedType.get_dynamic_size() else d for d in dims]
    kw = {"allowzero": True} if ctx.attr("allowzero", 0) else {}
    return ge.dynamic_reshape(_tensor(dims, ctx.input_type(0).element_type), ctx.input(0), shape, **kw)


@converter("Transpose")
def transpose(ctx):
    perm = ctx.attr("perm")
    if perm is None:
        perm = list(reversed(range(ctx.rank(0))))
    return ge.transpose(ctx.input(0), list(perm))


def _runtime_axes(ctx, attr_until: int, idx: int = 1) -> ir.Value | None:
    """A run-time ``axes`` input of Squeeze/Unsqueeze (opset 13+), else None."""
    if ctx.opset < attr_until or not ctx.has_input(idx) or ctx.const(idx) is not None:
        return None
    return ctx.input(idx)


@converter("Squeeze", notes="axes at import or run time (run time: ? dims); no axes: static shape")
def squeeze(ctx):
    run_axes = _runtime_axes(ctx, 13)
    if run_axes is not None:
        n = rt.static_count(ctx, 1, "axes")
        rank = ctx.rank(0)
        return rt.drop_dims(ctx, ctx.input(0), rt.axis_flags(ctx, run_axes, rank), rank - n)
    axes = _axes_input(ctx, 13)
    if not axes:
        shape = ctx.shape(0)
        if any(d < 0 for d in shape):
            ctx.refuse(f"Squeeze without axes needs a static input shape, got {ctx.input_type(0)}")
        return ge.squeeze(ctx.input(0))
    return ge.squeeze(ctx.input(0), axes=axes)


@converter("Unsqueeze", notes="axes at import or run time (run time: ? dims)")
def unsqueeze(ctx):
    run_axes = _runtime_axes(ctx, 13)
    if run_axes is not None:
        out_rank = ctx.rank(0) + rt.static_count(ctx, 1, "axes")
        return rt.insert_unit_dims(ctx, ctx.input(0), rt.axis_flags(ctx, run_axes, out_rank), out_rank)
    axes = _axes_input(ctx, 13)
    if axes is None:
        ctx.refuse("Unsqueeze needs axes")
    return ge.unsqueeze(ctx.input(0), axes)


@converter("Flatten")
def flatten(ctx):
    return ge.flatten(ctx.input(0), axis=int(ctx.attr("axis", 1)))


@converter("Expand", since=8, notes="shape at import (ge.expand) or at run time (per-axis gathers; ? dims)")
def expand(ctx):
    c = ctx.const(1)
    if c is None:
        rt.static_count(ctx, 1, "shape")
        return rt.expand(ctx, ctx.input(0), ctx.input(1))
    shape = _ints(c, ctx, "shape")
    return ge.expand(ctx.input(0), shape)


@converter("Tile", since=6, notes="repeats at import (ge.tile) or at run time (per-axis gathers; ? dims)")
def tile(ctx):
    c = ctx.const(1)
    if c is None:
        if rt.static_count(ctx, 1, "repeats") != ctx.rank(0):
            ctx.invalid(f"repeats must have one value per input dim ({ctx.rank(0)})")
        return rt.tile(ctx, ctx.input(0), ctx.input(1))
    repeats = _ints(c, ctx, "repeats")
    return ge.tile(ctx.input(0), repeats)


_PAD_MODES = {"constant": ge.PadMode.constant, "reflect": ge.PadMode.reflect, "edge": ge.PadMode.edge,
              "wrap": ge.PadMode.wrap}


@converter("Pad", notes="pads, constant_value, axes at import (ge.pad) or at run time (gathers of "
           "computed indices; ? dims); constant/reflect/edge/wrap")
def pad(ctx):
    mode = ctx.attr("mode", "constant")
    if mode not in _PAD_MODES:
        ctx.refuse(f"unsupported pad mode {mode!r}")
    rank = ctx.rank(0)
    if ctx.opset >= 11 and any(ctx.has_input(i) and ctx.const(i) is None for i in (1, 2, 3)):
        count = rt.static_count(ctx, 1, "pads")
        axes = None
        if ctx.has_input(3):
            c = ctx.const(3)
            axes = ctx.input(3) if c is None else [_norm_axis(ctx, a, rank, "axes entry") for a in _ints(c, ctx, "axes")]
            n_axes = rt.static_count(ctx, 3, "axes") if c is None else len(axes)
        else:
            n_axes = rank
        if count != 2 * n_axes:
            ctx.invalid(f"pads has {count} values, expected 2 * {n_axes}")
        value = ctx.input(2) if ctx.has_input(2) and mode == "constant" else None
        return rt.pad_(ctx, ctx.input(0), _index_value(ctx, 1), value, axes, mode)
    if ctx.opset < 11:
        pads = ctx.attr("pads", ctx.attr("paddings"))  # Pad-1 called it paddings
        value = float(ctx.attr("value", 0.0))
        axes = None
    else:
        pads = _ints(ctx.require_const(1, "pads"), ctx, "pads")
        value = 0.0
        if ctx.has_input(2):
            cv = np.asarray(ctx.require_const(2, "constant_value")).reshape(-1)
            value = float(cv[0]) if cv.size else 0.0
        axes = _ints(ctx.require_const(3, "axes"), ctx, "axes") if ctx.has_input(3) else None
    pads = [int(p) for p in pads or []]
    if axes is not None:
        if len(pads) != 2 * len(axes):
            ctx.invalid(f"pads has {len(pads)} values, expected 2 * {len(axes)} for axes {axes}")
        full = [0] * (2 * rank)
        for i, a in enumerate(axes):
            a = _norm_axis(ctx, a, rank, "axes entry")
            full[a], full[a + rank] = pads[i], pads[i + len(axes)]
        pads = full
    if len(pads) != 2 * rank:
        ctx.invalid(f"pads has {len(pads)} values, expected {2 * rank} for rank {rank}")
    kw = {"mode": _PAD_MODES[mode]}
    if mode == "constant" and value != 0.0:
        kw["value"] = value
    return ge.pad(ctx.input(0), pads, **kw)


def _depth_space_dims(ctx):
    shape = ctx.shape(0)
    if len(shape) != 4:
        ctx.refuse(f"{ctx.op_type} needs a 4-D NCHW input, got rank {len(shape)}")
    n, c, h, w = shape
    if min(c, h, w) < 0:
        ctx.refuse(f"{ctx.op_type} needs static C, H and W, got {ctx.input_type(0)}")
    bs = ctx.attr("blocksize")
    if bs is None or bs <= 0:
        ctx.invalid("blocksize must be a positive integer")
    mode = ctx.attr("mode", "DCR")
    if mode not in ("DCR", "CRD"):
        ctx.refuse(f"unsupported mode {mode!r}")
    return n, c, h, w, int(bs), mode


@converter("DepthToSpace", notes="DCR/CRD as reshape + transpose + reshape; static C, H, W")
def depth_to_space(ctx):
    n, c, h, w, bs, mode = _depth_space_dims(ctx)
    if c % (bs * bs):
        ctx.invalid(f"channels ({c}) are not divisible by blocksize^2 ({bs * bs})")
    cc = c // (bs * bs)
    if mode == "DCR":
        t = _reshape(ctx.input(0), [n, bs, bs, cc, h, w])
        t = ge.transpose(t, [0, 3, 4, 1, 5, 2])
    else:
        t = _reshape(ctx.input(0), [n, cc, bs, bs, h, w])
        t = ge.transpose(t, [0, 1, 4, 2, 5, 3])
    return _reshape(t, [n, cc, h * bs, w * bs])


@converter("SpaceToDepth", notes="DCR/CRD as reshape + transpose + reshape; static C, H, W")
def space_to_depth(ctx):
    n, c, h, w, bs, mode = _depth_space_dims(ctx)
    if h % bs or w % bs:
        ctx.invalid(f"spatial size {h}x{w} is not divisible by blocksize {bs}")
    t = _reshape(ctx.input(0), [n, c, h // bs, bs, w // bs, bs])
    t = ge.transpose(t, [0, 3, 5, 1, 2, 4] if mode == "DCR" else [0, 1, 3, 5, 2, 4])
    return _reshape(t, [n, c * bs * bs, h // bs, w // bs])


# --- joins, splits, slices -------------------------------------------------


@converter("Concat")
def concat(ctx):
    axis = ctx.attr("axis", 1 if ctx.opset < 4 else None)
    if axis is None:
        ctx.invalid("Concat needs an axis")
    values = [v for v in ctx.inputs() if v is not None]
    return ge.concat(values, int(axis))


def _split_runtime(ctx, axis: int) -> list[ir.Value]:
    """Split sizes given at run time: output i is ``x[offset_i : offset_i + split_i]`` along the axis
    (``ge.gather`` of an index range; ? dims). Sizes that do not add up to the dim fail the call: the
    first offset is read through a bounds-checked gather at an index made out of range."""
    n = ctx.num_outputs
    if rt.static_count(ctx, 1, "split") != n:
        ctx.invalid(f"split must have one size per output ({n})")
    x = ctx.input(0)
    sizes = rt.as_i64(ctx.input(1))
    total = ge.reduce_sum(sizes, axes=[0], keepdims=False)
    offsets = ge.sub(ge.cumsum(sizes, 0), sizes)
    outs = []
    for i in range(n):
        start = rt.element(ctx, offsets, i)
        if i == 0:
            start = rt.checked(ctx, start, ge.equal(total, rt.dim(ctx, x, axis)))
        outs.append(rt.take(ctx, x, axis, start, ge.add(start, rt.element(ctx, sizes, i))))
    return outs


@converter("Split", notes="split sizes at import or run time (? dims); equal parts need a static dimension")
def split(ctx):
    axis = int(ctx.attr("axis", 0))
    shape = ctx.shape(0)
    a = _norm_axis(ctx, axis, len(shape))
    n = ctx.num_outputs
    sizes = ctx.attr("split")  # Split-2..11
    if sizes is None and ctx.has_input(1):  # Split-1 and Split-13+
        c = ctx.const(1)
        if c is None:
            return _split_runtime(ctx, a)
        sizes = _ints(c, ctx, "split")
    if sizes is None:
        dim = shape[a]
        num = ctx.attr("num_outputs") if ctx.opset >= 18 else None
        if num is not None:
            n = int(num)
        if dim < 0:
            ctx.refuse(f"splitting dynamic dimension {a} into {n} parts needs explicit split sizes")
        if ctx.opset >= 18 and num is not None:
            chunk = -(-dim // n)  # ceil: the last chunk is smaller when uneven
            sizes = [chunk] * (n - 1) + [dim - chunk * (n - 1)]
            if sizes[-1] < 0:
                ctx.invalid(f"dimension {a} of size {dim} cannot be split into {n} outputs")
        else:
            if dim % n:
                ctx.invalid(f"dimension {a} of size {dim} does not split evenly into {n} outputs")
            sizes = [dim // n] * n
    sizes = [int(s) for s in sizes]
    if len(sizes) != ctx.num_outputs:
        ctx.invalid(f"{len(sizes)} split sizes {sizes} for {ctx.num_outputs} outputs")
    return list(ge.SplitOp(ctx.input(0), axis, sizes).results)


@converter("Slice", notes="starts, ends, axes, steps at import, or at run time (a ge.gather of "
           "computed indices per axis; ? dims)")
def slice_(ctx):
    if ctx.opset < 10:
        starts, ends = ctx.attr("starts"), ctx.attr("ends")
        axes, steps = ctx.attr("axes"), None
        if starts is None or ends is None:
            ctx.refuse("Slice needs starts and ends")
    elif any(ctx.has_input(i) and ctx.const(i) is None for i in (1, 2, 3, 4)):
        n = rt.static_count(ctx, 1, "starts")
        for i, what in ((2, "ends"), (3, "axes"), (4, "steps")):
            if ctx.has_input(i) and rt.static_count(ctx, i, what) != n:
                ctx.invalid(f"{what} must have as many values as starts ({n})")
        axes = None
        if ctx.has_input(3):
            c = ctx.const(3)
            axes = ctx.input(3) if c is None else _ints(c, ctx, "axes")
            if c is not None:
                for a in axes:
                    _norm_axis(ctx, a, ctx.rank(0))
        return rt.slice_(ctx, ctx.input(0), _index_value(ctx, 1), _index_value(ctx, 2), axes,
                         _index_value(ctx, 4) if ctx.has_input(4) else None)
    else:
        starts = _ints(ctx.require_const(1, "starts"), ctx, "starts")
        ends = _ints(ctx.require_const(2, "ends"), ctx, "ends")
        axes = _ints(ctx.require_const(3, "axes"), ctx, "axes") if ctx.has_input(3) else None
        steps = _ints(ctx.require_const(4, "steps"), ctx, "steps") if ctx.has_input(4) else None
    kw = {}
    if axes is not None and list(axes) != list(range(len(starts))):
        kw["axes"] = [int(a) for a in axes]
    if steps is not None and any(s != 1 for s in steps):
        kw["steps"] = [int(s) for s in steps]
    return ge.slice(ctx.input(0), [int(s) for s in starts], [int(e) for e in ends], **kw)


# --- indexing ----------------------------------------------------------------


def _index_value(ctx, i: int) -> ir.Value:
    """Index input ``i`` as i32/i64 (ge index operands); other integer types are cast to i64."""
    c = ctx.const(i)
    if c is not None and c.dtype not in (np.int32, np.int64):
        return ctx.constant(c.astype(np.int64))
    v = ctx.input(i)
    if str(v.type.element_type) not in ("i32", "i64"):
        i64 = ir.IntegerType.get_signless(64)
        v = ge.cast(ir.RankedTensorType.get(v.type.shape, i64), v)
    return v


def _check_constant_indices(ctx, axis: int) -> None:
    """Constant indices must lie in [-dim, dim) of ``axis`` of the data
    (onnxruntime fails at run time with INVALID_ARGUMENT; ge would clamp)."""
    rank = ctx.rank(0)
    if not -rank <= axis < rank:
        ctx.invalid(f"axis {axis} is out of range for a rank-{rank} input")
    c = ctx.const(1)
    dim = ctx.shape(0)[axis]
    if c is None or dim < 0 or c.size == 0:
        return
    idx = np.asarray(c).reshape(-1)
    if not np.issubdtype(idx.dtype, np.integer):
        return
    bad = np.nonzero((idx < -dim) | (idx >= dim))[0]
    if bad.size:
        ctx.invalid(f"constant index {int(idx[bad[0]])} (element {int(bad[0])} of indices "
                    f"{ctx.node.input[1]!r}) is out of range [{-dim}, {dim - 1}] for axis {axis} of size {dim}"
                    + (f"; {bad.size} indices are out of range" if bad.size > 1 else ""))


@converter("Gather")
def gather(ctx):
    axis = int(ctx.attr("axis", 0))
    _check_constant_indices(ctx, axis)
    return ge.gather(ctx.input(0), _index_value(ctx, 1), axis=axis)


@converter("GatherElements", since=11)
def gather_elements(ctx):
    axis = int(ctx.attr("axis", 0))
    _check_constant_indices(ctx, axis)
    return ge.gather_elements(ctx.input(0), _index_value(ctx, 1), axis=axis)


_REDUCTIONS = {"none": ge.ScatterReduction.none, "add": ge.ScatterReduction.add, "mul": ge.ScatterReduction.mul,
               "max": ge.ScatterReduction.max, "min": ge.ScatterReduction.min}


@converter("ScatterElements", since=11)
@converter("Scatter", since=9, notes="deprecated alias of ScatterElements")
def scatter_elements(ctx):
    reduction = ctx.attr("reduction", "none")
    if reduction not in _REDUCTIONS:
        ctx.invalid(f"unsupported reduction {reduction!r}")
    kw = {"axis": int(ctx.attr("axis", 0))}
    if reduction != "none":
        kw["reduction"] = _REDUCTIONS[reduction]
    return ge.scatter_elements(ctx.input(0), _index_value(ctx, 1), ctx.input(2), **kw)


def _true_positions(ctx, flags: ir.Value) -> ir.Value:
    """The positions of the true entries of a rank-1 i1 tensor, in order ([?] i64, computed at run
    time): the k-th is the number of entries whose running count of trues is still below k + 1."""
    running = ge.cumsum(rt.as_i64(flags), 0)
    n = ir.RankedTensorType(flags.type).shape[0]
    count = ge.reduce_sum(rt.as_i64(flags), axes=[0], keepdims=False)
    k = ge.range(_tensor([DYN], rt.i64()), rt.i64_const(ctx, 0), count, rt.i64_const(ctx, 1))
    below = ge.less(ge.reshape(_tensor([1, n], rt.i64()), running),
                    ge.unsqueeze(ge.add(k, rt.i64_const(ctx, 1)), [1]))
    return ge.reduce_sum(rt.as_i64(below), axes=[1], keepdims=False)


@converter("Compress", since=9, notes="condition at import (a ge.gather of constant indices) or at run time "
           "(the true positions computed, a ? result)")
def compress(ctx):
    cond = ctx.const(1)
    axis = ctx.attr("axis")
    x = ctx.input(0)
    shape = ctx.shape(0)
    if axis is None:  # over the flattened input
        size = -1 if any(d < 0 for d in shape) else int(np.prod(shape, dtype=np.int64))
        x, axis, dim = _reshape(x, [size]), 0, size
    else:
        a = _norm_axis(ctx, int(axis), len(shape))
        dim = shape[a]
    if cond is None:
        ct = ctx.input_type(1)
        if ct.rank != 1 or ct.is_dynamic_dim(0):
            ctx.refuse(f"a run-time condition needs a static 1-D shape, got {ct}")
        flags = rt.nonzero_flags(ctx, ctx.input(1))
        # Positions past the compressed dim (a longer condition) fail the call through the gather's
        # bounds check, as onnxruntime fails the run.
        return ge.gather(x, _true_positions(ctx, flags), axis=int(axis))
    idx = np.nonzero(np.asarray(cond).reshape(-1).astype(bool))[0].astype(np.int64)
    if dim >= 0 and idx.size and idx[-1] >= dim:
        ctx.invalid(f"condition selects index {idx[-1]} but the compressed dimension has size {dim}")
    return ge.gather(x, ctx.constant(idx), axis=int(axis))


@converter("NonZero", since=9, notes="static input shape; the coordinates of the nonzero elements computed "
           "at run time ([rank, ?] result)")
def nonzero(ctx):
    shape = ctx.shape(0)
    if any(d < 0 for d in shape):
        ctx.refuse(f"NonZero needs a static input shape, got {ctx.input_type(0)}")
    n = int(np.prod(shape, dtype=np.int64))
    pos = _true_positions(ctx, rt.nonzero_flags(ctx, _reshape(ctx.input(0), [n])))
    if not shape:  # a scalar: [0, nnz]
        return ge.gather(ge.unsqueeze(pos, [0]), rt.i64_const(ctx, np.zeros((0,), np.int64)), axis=0)
    rows = []
    for d in range(len(shape)):
        stride = int(np.prod(shape[d + 1:], dtype=np.int64))
        coord = ge.mod(ge.div(pos, rt.i64_const(ctx, stride)), rt.i64_const(ctx, shape[d]))
        rows.append(ge.unsqueeze(coord, [0]))
    return rows[0] if len(rows) == 1 else ge.concat(rows, 0)


@converter("Unique", since=11, notes="static input shape; sorted or in first-occurrence order, flattened or "
           "along an axis: the unique values/slices, first indices, inverse indices and counts computed at "
           "run time (? results)")
def unique(ctx):
    """As numpy's unique (the reference): the slices along ``axis`` (elements when flattened) are
    sorted lexicographically by stable ascending top_k passes, one per column from the last; a
    sorted position starts a group when it differs from the one before; the groups' first
    positions come from a running count (as NonZero). sorted=0 reorders the groups by their first
    index in the input (one more sort over all positions, non-first ones keyed past the end)."""
    shape = ctx.shape(0)
    if any(d < 0 for d in shape):
        ctx.refuse(f"Unique needs a static input shape, got {ctx.input_type(0)}")
    x, elem = ctx.input(0), ctx.elem(0)
    axis = ctx.attr("axis")
    if axis is None:
        n, rest, a = int(np.prod(shape, dtype=np.int64)), [], None
        rows = _reshape(x, [n, 1])
    else:
        a = _norm_axis(ctx, int(axis), len(shape))
        n, rest = shape[a], [d for i, d in enumerate(shape) if i != a]
        moved = ge.transpose(x, [a, *[i for i in range(len(shape)) if i != a]]) if a else x
        rows = _reshape(moved, [n, int(np.prod(rest, dtype=np.int64))])
    if n == 0:
        ctx.refuse("Unique of an empty input is not supported")
    m = ir.RankedTensorType(rows.type).shape[1]
    # Sort keys in a type top_k orders exactly (f16/bf16 widen to f32 without changing the order).
    keys = rows if str(elem) not in ("f16", "bf16") else ge.cast(_tensor([n, m], ir.F32Type.get()), rows)

    def argsort(v: ir.Value) -> ir.Value:  # stable ascending: ties keep the lower index first
        return ge.TopKOp(v, n, axis=0, largest=False).results[1]

    order = rt.i64_const(ctx, np.arange(n, dtype=np.int64))
    for j in reversed(range(m)):
        col = ge.gather(ge.gather(keys, rt.i64_const(ctx, j), axis=1), order, axis=0)
        order = ge.gather(order, argsort(col), axis=0)
    srt = ge.gather(rows, order, axis=0)
    prev = ge.gather(srt, rt.i64_const(ctx, np.maximum(np.arange(n) - 1, 0)), axis=0)
    differs = ge.reduce_max(rt.as_i64(ge.not_(ge.equal(srt, prev))), axes=[1], keepdims=False)
    starts = ge.or_(ge.greater(differs, rt.i64_const(ctx, 0)), ctx.constant(np.arange(n) == 0))
    starts_i = rt.as_i64(starts)
    group = ge.sub(ge.cumsum(starts_i, 0), rt.i64_const(ctx, 1))  # of each sorted position
    first = _true_positions(ctx, starts)  # [u] sorted position where each group starts
    u = ge.reduce_sum(starts_i, axes=[0], keepdims=False)
    ends = ge.concat([rt.take(ctx, first, 0, rt.i64_const(ctx, 1), u), rt.i64_const(ctx, [n])], 0)
    counts = ge.sub(ends, first)
    inv_perm = argsort(order)  # sorted position of each input slice
    if bool(int(ctx.attr("sorted", 1))):
        picked = first
        inverse = ge.gather(group, inv_perm, axis=0)
    else:
        # Groups by first occurrence: a group's start keyed by its first input index, the rest past n.
        key = ge.where(starts, order, rt.i64_const(ctx, n))
        by_first = argsort(key)
        picked = rt.take(ctx, by_first, 0, rt.i64_const(ctx, 0), u)
        rank = ge.gather(argsort(by_first), ge.gather(first, group, axis=0), axis=0)
        inverse = ge.gather(rank, inv_perm, axis=0)
        counts = ge.gather(counts, ge.gather(group, picked, axis=0), axis=0)
    y = ge.gather(srt, picked, axis=0)  # [u, m]
    if a is None:
        y = _reshape(y, [-1])
    else:
        y = _reshape(y, [-1, *rest])
        if a:
            back = list(range(1, len(shape)))
            back.insert(a, 0)
            y = ge.transpose(y, back)
    return [y, ge.gather(order, picked, axis=0), inverse, counts]


def _linear_index(ctx, idx: ir.Value, dims: list[int], rows: int) -> ir.Value:
    """Index tuples ``idx`` [rows, k] into a row-major block of ``dims`` as linear positions [rows]
    (negative components count from the end). A component outside its dim makes the position
    ``prod(dims) * rows`` -- past every gather/scatter axis, so the run-time bounds check fails the
    call as onnxruntime fails the run."""
    k = len(dims)
    idx = rt.as_i64(idx)
    d = rt.i64_const(ctx, np.array(dims, np.int64).reshape(1, k))
    zero = rt.i64_const(ctx, 0)
    idx = ge.where(ge.less(idx, zero), ge.add(idx, d), idx)
    bad = ge.or_(ge.less(idx, zero), ge.greater_equal(idx, d))
    bad = ge.greater(ge.reduce_sum(rt.as_i64(bad), axes=[1], keepdims=False), zero)
    strides = np.array([int(np.prod(dims[j + 1:], dtype=np.int64)) for j in range(k)], np.int64)
    lin = ge.reduce_sum(ge.mul(idx, rt.i64_const(ctx, strides.reshape(1, k))), axes=[1], keepdims=False)
    past = rt.i64_const(ctx, int(np.prod(dims, dtype=np.int64)) * max(rows, 1))
    return ge.where(bad, past, lin)


@converter("GatherND", since=11, notes="static shapes: index tuples made linear, one ge.gather on the "
           "flattened data (batch_dims supported)")
def gather_nd(ctx):
    ds, is_ = ctx.shape(0), ctx.shape(1)
    if any(d < 0 for d in ds + is_):
        ctx.refuse(f"GatherND needs static shapes, got {ctx.input_type(0)} and {ctx.input_type(1)}")
    b = int(ctx.attr("batch_dims", 0))
    k = is_[-1]
    if not 0 <= b < min(len(ds), len(is_)) or b + k > len(ds) or is_[:b] != ds[:b]:
        ctx.invalid(f"indices {is_} with batch_dims {b} do not index data {ds}")
    nb = int(np.prod(ds[:b], dtype=np.int64))
    block = int(np.prod(ds[b:b + k], dtype=np.int64))
    rest = ds[b + k:]
    n = int(np.prod(is_[b:-1], dtype=np.int64))
    data = _reshape_to(ctx.input(0), [nb * block, *rest])
    idx = _reshape_to(_index_value(ctx, 1), [nb * n, k])
    lin = _linear_index(ctx, idx, ds[b:b + k], nb)
    if b:
        lin = ge.add(lin, rt.i64_const(ctx, np.repeat(np.arange(nb, dtype=np.int64) * block, n)))
    out = ge.gather(data, lin, axis=0)
    return _reshape_to(out, [*ds[:b], *is_[b:-1], *rest])


@converter("ScatterND", since=11, notes="static shapes: index tuples made linear, one ge.scatter_elements "
           "on the flattened data (reductions supported)")
def scatter_nd(ctx):
    ds, is_, us = ctx.shape(0), ctx.shape(1), ctx.shape(2)
    if any(d < 0 for d in ds + is_ + us):
        ctx.refuse("ScatterND needs static shapes")
    k = is_[-1]
    if k > len(ds) or us != is_[:-1] + ds[k:]:
        ctx.invalid(f"updates {us} do not match indices {is_} into data {ds}")
    reduction = ctx.attr("reduction", "none")
    if reduction not in _REDUCTIONS:
        ctx.invalid(f"unsupported reduction {reduction!r}")
    rest = ds[k:]
    n = int(np.prod(is_[:-1], dtype=np.int64))
    block = int(np.prod(ds[:k], dtype=np.int64))
    data = _reshape_to(ctx.input(0), [block, *rest])
    upd = _reshape_to(ctx.input(2), [n, *rest])
    lin = _linear_index(ctx, _reshape_to(_index_value(ctx, 1), [n, k]), ds[:k], 1)
    idx = ge.expand(_reshape_to(lin, [n] + [1] * len(rest)), [n, *rest]) if rest else lin
    kw = {"axis": 0}
    if reduction != "none":
        kw["reduction"] = _REDUCTIONS[reduction]
    return _reshape_to(ge.scatter_elements(data, idx, upd, **kw), ds)


# --- shape queries -------------------------------------------------------------


@converter("Shape", notes="static dims fold to a constant; else ge.shape")
def shape(ctx):
    start, end = int(ctx.attr("start", 0)), ctx.attr("end")
    dims = np.array(_dims(ctx.input_type(0)), dtype=np.int64)[start:end]  # slicing clamps like ONNX
    if (dims >= 0).all():  # static (full shapes are folded by the importer already)
        return ctx.constant(dims)
    kw = {}
    if start:
        kw["start"] = start
    if end is not None:
        kw["end"] = int(end)
    return ge.shape(ctx.input(0), **kw)


@converter("Size", notes="static shapes only (a constant)")
def size(ctx):
    t = ctx.input_type(0)
    if not t.has_static_shape:
        ctx.refuse(
            f"Size of {t} is only known at run time; fix dynamic input dimensions with "
            "input_shapes=... / --input-shape"
        )
    return ctx.constant(np.array(np.prod(t.shape, dtype=np.int64), dtype=np.int64))


# --- generators ---------------------------------------------------------------


@converter("Range", since=11, notes="result type from ONNX shape inference")
def range_(ctx):
    t = ctx.out_type(0)
    if t is None or t.rank != 1:
        ctx.refuse("Range's output length depends on its start/limit/delta inputs and ONNX shape "
                   "inference found no 1-D result type")
    return ge.range(t, ctx.input(0), ctx.input(1), ctx.input(2))


@converter("OneHot", since=9, notes="depth and values at import (ge.one_hot) or at run time "
           "(equal to a class range + ge.where)")
def one_hot(ctx):
    if ctx.const(1) is None or ctx.const(2) is None:
        return _one_hot_runtime(ctx)
    depth = _scalar_int(ctx.const(1), ctx, "depth")
    if depth <= 0:
        ctx.invalid(f"depth must be positive, got {depth}")
    values = np.asarray(ctx.require_const(2, "values")).reshape(-1)
    if values.size != 2:
        ctx.invalid(f"values must be [off_value, on_value], got {values.size} values")
    off, on = values.tolist()
    elem = mlir_element_of(values)
    in_shape = ctx.shape(0)
    out_rank = len(in_shape) + 1
    axis = int(ctx.attr("axis", -1))
    if not -out_rank <= axis < out_rank:
        ctx.invalid(f"axis {axis} is out of range for output rank {out_rank}")
    dims = list(in_shape)
    dims.insert(axis + out_rank if axis < 0 else axis, depth)
    indices = _index_value(ctx, 0)
    # ge.one_hot produces numbers; booleans are one-hot encoded as i8 and cast.
    oh_elem = ir.IntegerType.get_signless(8) if str(elem) == "i1" else elem
    out = ge.one_hot(_tensor(dims, oh_elem), indices, depth, on_value=float(on), off_value=float(off), axis=axis)
    if oh_elem != elem:
        out = ge.cast(_tensor(dims, elem), out)
    return out


def _one_hot_runtime(ctx) -> ir.Value:
    """OneHot with depth or values given at run time: ``where(unsqueeze(indices, axis) ==
    classes, on, off)`` with ``classes = range(depth)`` along the axis (? when depth is run time);
    an index outside [-depth, depth) matches no class (all off, as ONNX says)."""
    for i, what in ((1, "depth"), (2, "values")):
        if rt.static_count(ctx, i, what) != (1 if i == 1 else 2):
            ctx.invalid(f"{what} must hold {'one value' if i == 1 else 'two values [off, on]'}")
    rank = ctx.rank(0)
    axis = _norm_axis(ctx, int(ctx.attr("axis", -1)), rank + 1)
    c = ctx.const(1)
    if c is not None:
        d = _scalar_int(c, ctx, "depth")
        if d <= 0:
            ctx.invalid(f"depth must be positive, got {d}")
        depth = rt.i64_const(ctx, d)
        classes = rt.i64_const(ctx, np.arange(d))
    else:
        depth = rt.scalar(ctx, ctx.input(1))  # a float depth is truncated, as onnxruntime does
        zero, one = rt.i64_const(ctx, 0), rt.i64_const(ctx, 1)
        classes = ge.range(_tensor([DYN], rt.i64()), zero, depth, one)
    idx = rt.as_i64(ctx.input(0))
    idx = ge.where(ge.less(idx, rt.i64_const(ctx, 0)), ge.add(idx, depth), idx)
    others = [d for d in range(rank + 1) if d != axis]
    hit = ge.equal(ge.unsqueeze(idx, [axis]), ge.unsqueeze(classes, others) if others else classes)
    values = ctx.input(2)
    return ge.where(hit, rt.element(ctx, values, 1), rt.element(ctx, values, 0))


def _splat_attr(elem: ir.Type, value) -> ir.Attribute:
    s = str(elem)
    if s == "i1":
        return ir.IntegerAttr.get(elem, int(bool(value)))
    if s.startswith(("i", "ui", "si")):
        v = int(value)
        if s == "ui64" and v >= 1 << 63:  # IntegerAttr.get takes int64; same bits
            v -= 1 << 64
        return ir.IntegerAttr.get(elem, v)
    return ir.FloatAttr.get(elem, float(value))


@converter("ConstantOfShape", since=9, notes="shape " + _AT_IMPORT + " (or a static inferred type); a splat")
def constant_of_shape(ctx):
    value = ctx.attr("value")
    value = np.zeros(1, dtype=np.float32) if value is None else np.asarray(value)
    if value.size != 1:
        ctx.refuse(f"value must hold one element, got {value.size}")
    elem = mlir_element_of(value)
    dims = ctx.const(0)
    if dims is not None:
        dims = _ints(dims, ctx, "shape")
    else:
        t = ctx.out_type(0)
        shape_t = ctx.input_type(0)
        if (t is None or not t.has_static_shape) and shape_t.rank == 1 and not shape_t.is_dynamic_dim(0):
            # A run-time shape (torch.zeros_like of a dynamic input): ge.fill, sizes read at run time.
            rank = shape_t.get_dim_size(0)
            dims = list(t.shape) if t is not None and t.rank == rank else [-1] * rank
            rt = _tensor(dims, elem)
            scalar = ge.ConstantOp(ir.DenseElementsAttr.get_splat(
                ir.RankedTensorType.get([], elem), _splat_attr(elem, value.reshape(-1)[0]))).result
            return ge.fill(rt, scalar, ctx.input(0))
        if t is None or not t.has_static_shape:
            ctx.refuse(
                "the output shape is the run-time value of input #0 (shape); it must be known at import time "
                "(fix dynamic input dimensions with input_shapes=... / --input-shape)"
            )
        dims = list(t.shape)
    if any(d < 0 for d in dims):
        ctx.invalid(f"shape {dims} has negative dimensions")
    ttype = ir.RankedTensorType.get(dims, elem)
    return ge.ConstantOp(ir.DenseElementsAttr.get_splat(ttype, _splat_attr(elem, value.reshape(-1)[0]))).result


@converter("EyeLike", since=9, notes="static shape; a constant")
def eye_like(ctx):
    t = ctx.input_type(0)
    if t.rank != 2:
        ctx.refuse(f"EyeLike needs a 2-D input, got {t}")
    if not t.has_static_shape:
        ctx.refuse(f"EyeLike needs a static input shape, got {t}")
    dtype = ctx.attr("dtype")
    elem = element_type(dtype) if dtype is not None else t.element_type
    n, m = t.shape
    return ctx.constant(np.eye(n, m, k=int(ctx.attr("k", 0)), dtype=numpy_dtype(elem)), elem)


@converter("Trilu", since=14, notes="k at import or run time; a constant mask + ge.where "
           "(run-time sizes or k: the mask from index ranges)")
def trilu(ctx):
    t = ctx.input_type(0)
    if t.rank < 2:
        ctx.refuse(f"Trilu needs an input of rank >= 2, got {t}")
    n, m = t.get_dim_size(t.rank - 2), t.get_dim_size(t.rank - 1)
    k_raw = ctx.const(1) if ctx.has_input(1) else np.array(0)

    def zero_x() -> ir.Value:
        return ctx.constant(np.zeros((), dtype=numpy_dtype(t.element_type)), t.element_type)

    if k_raw is None or t.is_dynamic_dim(t.rank - 2) or t.is_dynamic_dim(t.rank - 1):
        # Run-time sizes (a causal mask of the sequence length) or k: the mask from index ranges,
        # col - row >= k (upper) or <= k (lower), computed at run time.
        if k_raw is None:
            if rt.static_count(ctx, 1, "k") != 1:
                ctx.invalid("k must hold exactly one value")
            kk = rt.scalar(ctx, ctx.input(1))
        else:
            kk = rt.i64_const(ctx, _scalar_int(k_raw, ctx, "k"))
        if t.is_dynamic_dim(t.rank - 2) or t.is_dynamic_dim(t.rank - 1):
            zero, one = rt.i64_const(ctx, 0), rt.i64_const(ctx, 1)
            rows = ge.range(_tensor([DYN], rt.i64()), zero, rt.dim(ctx, ctx.input(0), t.rank - 2), one)
            cols = ge.range(_tensor([DYN], rt.i64()), zero, rt.dim(ctx, ctx.input(0), t.rank - 1), one)
            diff = ge.sub(cols, ge.unsqueeze(rows, [1]))
        else:
            diff = rt.i64_const(ctx, np.arange(m)[None, :] - np.arange(n)[:, None])
        mask = ge.greater_equal(diff, kk) if ctx.attr("upper", 1) else ge.less_equal(diff, kk)
        return ge.where(mask, ctx.input(0), zero_x())
    k = _scalar_int(k_raw, ctx, "k")
    ones = np.ones((n, m), dtype=np.bool_)
    mask = np.triu(ones, k) if ctx.attr("upper", 1) else np.tril(ones, k)
    # where(mask, x, 0) rather than x * mask: works for every element type and keeps NaN/inf out of
    # the zeroed part.
    return ge.where(ctx.constant(mask), ctx.input(0), zero_x())


# --- TopK -------------------------------------------------------------------------


@converter("TopK", notes="k at import, or at run time with a static axis dim (all sorted, the first "
           "k taken: O(n^2) per row)")
def top_k(ctx):
    axis = int(ctx.attr("axis", -1))
    kw = {"axis": axis}
    if not ctx.attr("largest", 1):
        kw["largest"] = False
    if not ctx.attr("sorted", 1):
        kw["sorted"] = False
    if ctx.opset < 10:
        k = ctx.attr("k")
        if k is None:
            ctx.refuse("TopK needs k")
    else:
        c = ctx.const(1)
        if c is None:
            return _top_k_runtime(ctx, kw)
        k = _scalar_int(c, ctx, "K")
    if k < 0:
        ctx.invalid(f"k must be non-negative, got {k}")
    return list(ge.TopKOp(ctx.input(0), int(k), **kw).results)


def _top_k_runtime(ctx, kw: dict) -> list[ir.Value]:
    """k given at run time: the whole axis in order (k = its size), then the first k. A k outside
    [0, size] fails the call (read through a bounds-checked gather)."""
    if rt.static_count(ctx, 1, "K") != 1:
        ctx.invalid("K must hold exactly one value")
    a = _norm_axis(ctx, kw["axis"], ctx.rank(0))
    n = ctx.shape(0)[a]
    if n < 0:
        ctx.refuse(f"TopK with k given at run time needs a static size of axis {a}, got {ctx.input_type(0)}")
    kw = {**kw, "sorted": True}  # the first k of the whole order are the k best
    zero = rt.i64_const(ctx, 0)
    k = rt.scalar(ctx, ctx.input(1))
    k = rt.checked(ctx, k, ge.and_(ge.greater_equal(k, zero), ge.less_equal(k, rt.i64_const(ctx, n))))
    return [rt.take(ctx, r, a, zero, k) for r in ge.TopKOp(ctx.input(0), n, **kw).results]


# --- ReverseSequence --------------------------------------------------------------------


@converter("ReverseSequence", since=10, notes="static shapes; run-time sequence_lens: a ge.gather_elements "
           "along the time axis of the per-batch reversed indices")
def reverse_sequence(ctx):
    shape = ctx.shape(0)
    rank = len(shape)
    if rank < 2 or any(d < 0 for d in shape):
        ctx.refuse(f"ReverseSequence needs a static input of rank >= 2, got {ctx.input_type(0)}")
    t_ax = _norm_axis(ctx, int(ctx.attr("time_axis", 0)), rank, "time_axis")
    b_ax = _norm_axis(ctx, int(ctx.attr("batch_axis", 1)), rank, "batch_axis")
    if {t_ax, b_ax} != {0, 1}:
        ctx.invalid(f"time_axis and batch_axis must be 0 and 1 (in either order), got {t_ax} and {b_ax}")
    if ctx.shape(1) != [shape[b_ax]]:
        ctx.invalid(f"sequence_lens must have shape [{shape[b_ax]}], got {ctx.input_type(1)}")
    at = lambda n, ax: [n if d == ax else 1 for d in range(rank)]  # noqa: E731
    t = rt.i64_const(ctx, np.arange(shape[t_ax], dtype=np.int64).reshape(at(shape[t_ax], t_ax)))
    lens = _reshape_to(rt.as_i64(ctx.input(1)), at(shape[b_ax], b_ax))
    # Position t of batch b reads t' = len[b] - 1 - t inside the sequence, itself after it.
    rev = ge.sub(ge.sub(lens, rt.i64_const(ctx, 1)), t)
    idx = ge.where(ge.less(t, lens), rev, t)
    return ge.gather_elements(ctx.input(0), ge.expand(idx, shape), axis=t_ax)


# --- TensorScatter ---------------------------------------------------------------------------------


@converter("TensorScatter", since=24, notes="static shapes; run-time write_indices: result position j of "
           "batch b takes update[j - w[b]] (mod the length when circular) where that is an update row")
def tensor_scatter(ctx):
    ps, us = ctx.shape(0), ctx.shape(1)
    if any(d < 0 for d in ps + us) or len(ps) != len(us) or len(ps) < 2:
        ctx.refuse(f"TensorScatter needs static shapes of equal rank, got {ctx.input_type(0)}, {ctx.input_type(1)}")
    rank = len(ps)
    axis = _norm_axis(ctx, int(ctx.attr("axis", -2)), rank)
    mode = ctx.attr("mode", "linear")
    if axis == 0 or mode not in ("linear", "circular"):
        ctx.invalid(f"axis {axis} / mode {mode!r} are not valid")
    if any(p != u for i, (p, u) in enumerate(zip(ps, us)) if i != axis) or us[axis] > ps[axis]:
        ctx.invalid(f"update {us} does not fit past_cache {ps} along axis {axis}")
    m, s = ps[axis], us[axis]
    at = lambda n, ax: [n if d == ax else 1 for d in range(rank)]  # noqa: E731
    j = rt.i64_const(ctx, np.arange(m, dtype=np.int64).reshape(at(m, axis)))
    if ctx.has_input(2):
        w = _reshape_to(rt.as_i64(ctx.input(2)), at(ps[0], 0))
    else:
        w = rt.i64_const(ctx, np.zeros(at(ps[0], 0), np.int64))
    src = ge.sub(j, w)  # the update row a result position receives
    if mode == "circular":
        src = ge.mod(src, rt.i64_const(ctx, m))
    zero = rt.i64_const(ctx, 0)
    hit = ge.and_(ge.greater_equal(src, zero), ge.less(src, rt.i64_const(ctx, s)))
    src = rt.clamp(ctx, src, 0, s - 1)
    idx_shape = list(ps)
    rows = ge.gather_elements(ctx.input(1), ge.expand(src, idx_shape), axis=axis)
    return ge.where(ge.expand(hit, idx_shape), rows, ctx.input(0))
