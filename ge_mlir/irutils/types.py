"""Element types as the host sees them: numpy dtypes, byte sizes, run-time tensor specs (one table)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
from mlir import ir

from ..errors import ExecutionError

__all__ = ["NARROW_DTYPES", "NUMPY_DTYPES", "is_narrow", "narrow_float_max", "TensorSpec", "check_arrays", "element_bytes", "numpy_dtype", "tensor_bytes", "tensor_spec"]

#: MLIR element type name -> numpy dtype of the host arrays holding it.
NUMPY_DTYPES: dict[str, type] = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "si8": np.int8, "si16": np.int16, "si32": np.int32, "si64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "bf16": ml_dtypes.bfloat16,
}
#: Narrow types: one byte per element on the host (ml_dtypes' layout: the value's bits in the low
#: bits of the byte), the same bytes the CPU target stores (ge-emulate-narrow-types).
NARROW_DTYPES: dict[str, type] = {
    "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "f8E5M2": ml_dtypes.float8_e5m2, "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "f8E8M0FNU": ml_dtypes.float8_e8m0fnu, "f4E2M1FN": ml_dtypes.float4_e2m1fn,
    "i4": ml_dtypes.int4, "ui4": ml_dtypes.uint4, "i2": ml_dtypes.int2, "ui2": ml_dtypes.uint2,
}
NUMPY_DTYPES.update(NARROW_DTYPES)


def narrow_float_max(elem: ir.Type | str) -> float:
    """The largest finite value of a narrow float type (float8/float4: ml_dtypes' finfo, the ONNX
    reference's own definition of these types)."""
    return float(ml_dtypes.finfo(NARROW_DTYPES[str(elem)]).max)


def is_narrow(elem: ir.Type | str) -> bool:
    """``elem`` is a float8/float4/int4/int2 type (stored one per byte, computed in f32/i32)."""
    return str(elem) in NARROW_DTYPES


def numpy_dtype(elem: ir.Type | str) -> np.dtype | None:
    """The numpy dtype of an element type, or None (no host representation)."""
    dtype = NUMPY_DTYPES.get(str(elem))
    return None if dtype is None else np.dtype(dtype)


def element_bytes(elem: ir.Type) -> int | None:
    """Bytes per element as buffers store it (i1 is widened to a byte)."""
    if isinstance(elem, ir.IndexType):
        return 8
    if isinstance(elem, (ir.FloatType, ir.IntegerType)):
        return max(1, (elem.width + 7) // 8)
    return None


def tensor_bytes(t: ir.Type) -> int | None:
    """Byte size of a statically shaped ranked tensor/memref type (Python ints: no overflow)."""
    if not isinstance(t, (ir.RankedTensorType, ir.MemRefType)):
        return None
    st = ir.ShapedType(t)
    size = element_bytes(st.element_type) if st.has_static_shape else None
    if size is None:
        return None
    for d in st.shape:
        size *= d
    return size


@dataclass(frozen=True)
class TensorSpec:
    """Shape and dtype of a host array passed to or returned by a compiled function."""

    shape: tuple[int | None, ...]  # None: a dynamic dimension (any size at run time)
    dtype: np.dtype

    @property
    def dynamic(self) -> bool:
        return None in self.shape

    def __str__(self) -> str:
        return f"{'x'.join('?' if d is None else str(d) for d in self.shape) or 'scalar'} {self.dtype}"


def tensor_spec(t: ir.Type) -> TensorSpec | str:
    """The host spec of a function argument/result type, or why it has none (a message)."""
    if not isinstance(t, ir.RankedTensorType):
        return f"has type {t}; only ranked tensors can be run"
    rt = ir.RankedTensorType(t)
    dtype = numpy_dtype(rt.element_type)
    if dtype is None:
        return f"has unsupported element type {rt.element_type}"
    return TensorSpec(tuple(None if rt.is_dynamic_dim(i) else rt.shape[i] for i in range(rt.rank)), dtype)


def shape_matches(shape: tuple[int, ...], spec_shape: tuple[int | None, ...]) -> bool:
    """``shape`` fits ``spec_shape`` (same rank; static dims equal, dynamic ones anything)."""
    return len(shape) == len(spec_shape) and all(s is None or s == d for d, s in zip(shape, spec_shape))


def check_arrays(args: Sequence[Any], specs: Sequence[TensorSpec], labels: Sequence[str]) -> list[np.ndarray]:
    """``args`` as C-contiguous numpy arrays matching ``specs`` exactly (dtype and shape), else an
    :class:`~ge_mlir.errors.ExecutionError` naming the argument by its label (one check for every
    runner: the compiled model labels inputs by name, an executable by position)."""
    arrays = []
    for a, spec, label in zip(args, specs, labels):
        if type(a) is np.ndarray and a.dtype == spec.dtype and a.shape == spec.shape and a.flags.c_contiguous:
            arrays.append(a)  # the common case, checked in one step (per-call overhead)
            continue
        if not isinstance(a, (np.ndarray, np.generic)):
            raise ExecutionError(f"{label} must be a numpy array, got {type(a).__name__}")
        a = np.asarray(a)
        if a.dtype != spec.dtype:
            raise ExecutionError(f"{label} has dtype {a.dtype}, expected {spec.dtype}")
        if not shape_matches(tuple(a.shape), spec.shape):
            want = "(" + ", ".join("?" if d is None else str(d) for d in spec.shape) + ("," if len(spec.shape) == 1 else "") + ")"
            raise ExecutionError(f"{label} has shape {tuple(a.shape)}, expected {want}")
        # Arguments are bufferized read-only, so a contiguous array is passed as is.
        arrays.append(np.ascontiguousarray(a))
    return arrays


def random_arrays(specs: Sequence[Any], seed: int = 0, int_high: int = 10,
                  dynamic_size: int = 2) -> dict[str, np.ndarray]:
    """Seeded random arrays for named specs (``IOSpec``-like: ``name``, ``shape``, ``dtype``):
    booleans, integers in ``[0, int_high)``, standard normal floats; a ``?`` dim (None) gets
    ``dynamic_size`` elements."""
    rng = np.random.default_rng(seed)
    feeds = {}
    for spec in specs:
        if None in tuple(spec.shape):
            spec = type("Spec", (), {"name": spec.name, "dtype": spec.dtype,
                                     "shape": tuple(dynamic_size if d is None else d for d in spec.shape)})
        if spec.dtype == np.bool_:
            feeds[spec.name] = rng.integers(0, 2, spec.shape).astype(np.bool_)
        elif spec.dtype.kind in "iu":
            feeds[spec.name] = rng.integers(0, int_high, spec.shape).astype(spec.dtype)
        else:
            feeds[spec.name] = rng.standard_normal(spec.shape).astype(spec.dtype)
    return feeds


def reshape_rule(src: Sequence[int | None], dst: Sequence[int | None]) -> str | None:
    """How the run-time sizes of a ``ge.reshape`` result are read (None: a dynamic dim), or None
    when its type does not say (the importer then builds ``ge.dynamic_reshape``):

    * ``"static"``: no dynamic result dim;
    * ``"groups"``: both shapes split into the same sequence of ``?`` dims and static runs of equal
      products (``[b, s, 256] -> [b, s, 4, 64]``): each ``?`` is the ``?`` it pairs with;
    * ``"remainder"``: one ``?`` in the result: the element count over the static sizes;
    * ``"copies"``: a ``?`` at the index of an input ``?`` is that dim (ONNX's 0), and one other
      ``?`` is the remainder absorbing the input's other ``?`` dims (ONNX's -1).
    """
    src, dst = list(src), list(dst)
    if None not in dst:
        return "static"
    if _canon(src)[1] == _canon(dst)[1]:
        return "groups"
    if dst.count(None) == 1:
        return "remainder"
    copies = [i for i, d in enumerate(dst) if d is None and i < len(src) and src[i] is None]
    rest = [i for i, d in enumerate(dst) if d is None and i not in copies]
    if len(rest) == 1:
        return "copies"
    return None


def _canon(shape: Sequence[int | None]) -> tuple[list[list[int]], list[object]]:
    """Groups of ``shape``'s dims: each ``?`` (with the static 1s before it) alone, each run of
    static dims together (a run of product 1 joins the group before it); and the groups' keys."""
    groups: list[list[int]] = []
    keys: list[object] = []
    run: list[int] = []

    def prod(ix: list[int]) -> int:
        p = 1
        for j in ix:
            p *= shape[j]  # type: ignore[operator]
        return p

    for i, d in enumerate(shape):
        if d is None:
            if run and prod(run) != 1:
                groups.append(run)
                keys.append(prod(run))
                run = []
            groups.append([*run, i])
            keys.append("?")
            run = []
        else:
            run.append(i)
    if run:
        if prod(run) == 1 and groups:
            groups[-1].extend(run)
        else:
            groups.append(run)
            keys.append(prod(run))
    return groups, keys


def reshape_groups(shape: Sequence[int | None]) -> list[list[int]]:
    """The dim groups :func:`reshape_rule` pairs for ``"groups"``."""
    return _canon(shape)[0]
