"""Mutators: INVALID or edge-case models derived from a valid random graph.

Each mutator takes a valid model (and its feeds) and a ``random.Random`` and
returns the mutated model bytes, a one-line description and whether the case
can only be compiled (its inputs are too large to materialize). A mutator that
does not apply to the base model raises :class:`Reject`; the case is then drawn
with the next mutator or base. Whether the result is really invalid is decided
by onnxruntime at run time (the oracle), not here: some edge models are valid.
"""

from __future__ import annotations

import random
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .generator import Case, Reject, build_graph, case_rng, make_feeds, validate

Mutation = tuple[bytes, str, bool]


def _nodes(m: onnx.ModelProto, pred=lambda n: True) -> list[onnx.NodeProto]:
    return [n for n in m.graph.node if pred(n)]


def m_dangling_input(m, feeds, rng) -> Mutation:
    n = rng.choice(_nodes(m, lambda n: len(n.input) > 0 and n.op_type != "Constant"))
    i = rng.randrange(len(n.input))
    old = n.input[i]
    n.input[i] = "ghost_value"
    return m.SerializeToString(), f"dangling input: {n.op_type} {n.name!r} input {i} {old!r} -> 'ghost_value'", False


def m_duplicate_output(m, feeds, rng) -> Mutation:
    o = rng.choice(list(m.graph.output))
    m.graph.output.append(o)
    return m.SerializeToString(), f"duplicate graph output {o.name!r}", False


def m_duplicate_writer(m, feeds, rng) -> Mutation:
    nodes = _nodes(m, lambda n: n.op_type != "Constant")
    if len(nodes) < 2:
        raise Reject("one node")
    a, b = rng.sample(nodes, 2)
    old = b.output[0]
    b.output[0] = a.output[0]
    for n in m.graph.node:
        for i, x in enumerate(n.input):
            if x == old:
                n.input[i] = a.output[0]
    for o in m.graph.output:
        if o.name == old:
            o.name = a.output[0]
    return m.SerializeToString(), f"two nodes write {a.output[0]!r} ({a.op_type}, {b.op_type})", False


BAD_ATTRS: dict[str, list[tuple[str, object]]] = {
    "ReduceSum": [("keepdims", 2), ("keepdims", -1), ("keepdims", 2**31)],
    "ReduceMean": [("keepdims", 2), ("keepdims", -1), ("keepdims", 2**31), ("axes", [7])],
    "ReduceMax": [("keepdims", 5), ("axes", [-9])],
    "ReduceMin": [("keepdims", 3)],
    "ArgMax": [("axis", 9), ("keepdims", 7), ("select_last_index", 4)],
    "ArgMin": [("axis", -9)],
    "Softmax": [("axis", 5), ("axis", -7)],
    "LogSoftmax": [("axis", 9)],
    "Gemm": [("transA", 5), ("transB", -1)],
    "Concat": [("axis", 9)],
    "Gather": [("axis", 9), ("axis", -9)],
    "Flatten": [("axis", 9)],
    "Transpose": [("perm", [0, 0]), ("perm", [5, 1, 2, 0])],
    "Conv": [("group", 7), ("strides", [0, 0]), ("dilations", [0, 1]), ("pads", [-1, -1, -1, -1]),
             ("kernel_shape", [9, 9]), ("auto_pad", "BOGUS")],
    "MaxPool": [("kernel_shape", [0, 0]), ("strides", [0, 1]), ("pads", [5, 5, 5, 5]), ("storage_order", 3)],
    "AveragePool": [("kernel_shape", [99, 99]), ("count_include_pad", 3), ("ceil_mode", 9)],
    "LayerNormalization": [("axis", 9), ("stash_type", 99)],
    "Cast": [("to", 999), ("to", 0)],
    "Pad": [("mode", "mirror")],
    "Elu": [("alpha", float("nan"))],
    "LeakyRelu": [("alpha", float("inf"))],
}


def m_bad_attribute(m, feeds, rng) -> Mutation:
    nodes = _nodes(m, lambda n: n.op_type in BAD_ATTRS)
    if not nodes or rng.random() < 0.25:
        n = rng.choice(_nodes(m, lambda n: n.op_type != "Constant"))
        n.attribute.append(helper.make_attribute("no_such_attribute", 1))
        return m.SerializeToString(), f"unknown attribute on {n.op_type} {n.name!r}", False
    n = rng.choice(nodes)
    key, val = rng.choice(BAD_ATTRS[n.op_type])
    for i, a in enumerate(n.attribute):
        if a.name == key:
            del n.attribute[i]
            break
    n.attribute.append(helper.make_attribute(key, val))
    return m.SerializeToString(), f"{n.op_type} {n.name!r} {key}={val!r}", False


def m_wrong_arity(m, feeds, rng) -> Mutation:
    n = rng.choice(_nodes(m, lambda n: n.op_type != "Constant" and len(n.input) > 0))
    if rng.random() < 0.5 or len(n.input) == 1:
        extra = [n.input[0]] * rng.choice((1, 2))
        n.input.extend(extra)
        return m.SerializeToString(), f"{n.op_type} {n.name!r} with {len(n.input)} inputs", False
    del n.input[-1]
    return m.SerializeToString(), f"{n.op_type} {n.name!r} missing its last input", False


def m_huge_dims(m, feeds, rng) -> Mutation:
    inp = rng.choice(list(m.graph.input))
    dims = inp.type.tensor_type.shape.dim
    if not dims:
        raise Reject("scalar")
    big = rng.choice((10**9, 2**40, 2**31, 2**62))
    dims[rng.randrange(len(dims))].dim_value = big
    return m.SerializeToString(), f"input {inp.name!r} with a dimension of {big}", True


def m_huge_pads(m, feeds, rng) -> Mutation:
    nodes = _nodes(m, lambda n: n.op_type in ("Conv", "MaxPool", "AveragePool"))
    if not nodes:
        raise Reject("no conv")
    n = rng.choice(nodes)
    rank = None
    for a in n.attribute:
        if a.name in ("kernel_shape", "strides", "dilations"):
            rank = len(a.ints)
    if rank is None:
        if n.op_type != "Conv":
            raise Reject("no rank")
        rank = len(next(t for t in m.graph.initializer if t.name == n.input[1]).dims) - 2 \
            if any(t.name == n.input[1] for t in m.graph.initializer) else 2
    big = rng.choice((10**9, 2**31, 10**6))
    for i, a in enumerate(n.attribute):
        if a.name in ("pads", "auto_pad"):
            del n.attribute[i]
            break
    n.attribute.append(helper.make_attribute("pads", [big] * (2 * rank)))
    return m.SerializeToString(), f"{n.op_type} {n.name!r} pads {big}", False


def m_gather_oob(m, feeds, rng) -> Mutation:
    inits = {t.name: t for t in m.graph.initializer}
    nodes = _nodes(m, lambda n: n.op_type == "Gather" and n.input[1] in inits)
    if not nodes:
        # plant one: Gather on a graph input with a constant out-of-range index
        inp = next((i for i in m.graph.input if len(i.type.tensor_type.shape.dim) >= 1), None)
        if inp is None:
            raise Reject("no input")
        d = inp.type.tensor_type.shape.dim[0].dim_value
        idx = numpy_helper.from_array(np.array([0, d + rng.choice((0, 4)), -d - 1][: rng.randint(1, 3)] if d else [1],
                                               np.int64), "oob_idx")
        m.graph.initializer.append(idx)
        m.graph.node.append(helper.make_node("Gather", [inp.name, "oob_idx"], ["oob_out"], name="oob_gather", axis=0))
        m.graph.output.append(helper.make_value_info("oob_out", onnx.TypeProto()))
        m.graph.output[-1].type.tensor_type.elem_type = inp.type.tensor_type.elem_type
        return m.SerializeToString(), f"planted Gather of {inp.name!r} at out-of-range constant indices", False
    n = rng.choice(nodes)
    t = inits[n.input[1]]
    arr = numpy_helper.to_array(t).copy()
    if arr.size == 0:
        raise Reject("empty indices")
    flat = arr.reshape(-1)
    flat[rng.randrange(flat.size)] = rng.choice((7, 1000, -1000, 2**31 - 1))
    t.CopyFrom(numpy_helper.from_array(flat.reshape(arr.shape), t.name))
    return m.SerializeToString(), f"Gather {n.name!r} constant indices {flat.tolist()} out of range", False


def m_raw_data(m, feeds, rng) -> Mutation:
    inits = [t for t in m.graph.initializer if t.data_type != TensorProto.STRING]
    if not inits:
        raise Reject("no initializer")
    t = rng.choice(inits)
    what = rng.choice(("short", "long", "missing", "string"))
    raw = numpy_helper.to_array(t).tobytes()
    if what == "string":
        t.CopyFrom(helper.make_tensor(t.name, TensorProto.STRING, list(t.dims), [b"x"] * int(np.prod(t.dims))))
        return m.SerializeToString(), f"initializer {t.name!r} of type STRING", False
    dims, dtype, name = list(t.dims), t.data_type, t.name
    t.Clear()
    t.name = name
    t.dims.extend(dims)
    t.data_type = dtype
    if what == "short":
        t.raw_data = raw[: max(0, len(raw) - rng.choice((1, 2, 4)))]
    elif what == "long":
        t.raw_data = raw + b"\0" * rng.choice((1, 4, 8))
    return m.SerializeToString(), f"initializer with {what} raw_data ({len(t.raw_data)} bytes for dims {dims})", False


def m_bad_version(m, feeds, rng) -> Mutation:
    what = rng.choice(("opset30", "no_opset", "ir99", "ir0", "domain"))
    if what == "opset30":
        m.opset_import[0].version = 30
    elif what == "no_opset":
        del m.opset_import[:]
    elif what == "ir99":
        m.ir_version = 99
    elif what == "ir0":
        m.ir_version = 0
    else:
        n = rng.choice(_nodes(m, lambda n: n.op_type != "Constant"))
        n.domain = "com.example.nope"
        m.opset_import.append(helper.make_opsetid("com.example.nope", 1))
    return m.SerializeToString(), f"model version: {what}", False


def m_truncated(m, feeds, rng) -> Mutation:
    data = m.SerializeToString()
    what = rng.choice(("cut", "cut", "empty", "garbage", "flip"))
    if what == "empty":
        return b"", "empty model bytes", False
    if what == "garbage":
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 64))), "random bytes", False
    if what == "flip":
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b), "bit flips in the serialized model", False
    cut = rng.randrange(1, len(data))
    return data[:cut], f"model truncated to {cut} of {len(data)} bytes", False


def _redeclare(values, choices, rng) -> tuple[onnx.ValueInfoProto, int, int]:
    """Gives one of ``values`` another element type from ``choices``: (value, old, new)."""
    v = rng.choice(list(values))
    old = v.type.tensor_type.elem_type
    new = rng.choice([t for t in choices if t != old])
    v.type.tensor_type.elem_type = new
    return v, old, new


def m_output_dtype(m, feeds, rng) -> Mutation:
    o, old, new = _redeclare(m.graph.output, (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64,
                                              TensorProto.BOOL, TensorProto.DOUBLE), rng)
    return m.SerializeToString(), f"output {o.name!r} declared {TensorProto.DataType.Name(new)} " \
                                  f"(computed {TensorProto.DataType.Name(old)})", False


def m_output_shape(m, feeds, rng) -> Mutation:
    o = rng.choice(list(m.graph.output))
    dims = o.type.tensor_type.shape.dim
    if not dims:
        o.type.tensor_type.shape.dim.add().dim_value = 3
    else:
        d = dims[rng.randrange(len(dims))]
        d.dim_value = d.dim_value + rng.choice((1, 2, 5))
    return m.SerializeToString(), f"output {o.name!r} declared with a wrong shape", False


def m_cycle(m, feeds, rng) -> Mutation:
    nodes = _nodes(m, lambda n: n.op_type != "Constant" and len(n.input) > 0)
    if len(nodes) < 2:
        n = nodes[0] if nodes else None
        if n is None:
            raise Reject("no node")
        n.input[0] = n.output[0]
        return m.SerializeToString(), f"{n.op_type} {n.name!r} consumes its own output", False
    i, j = sorted(rng.sample(range(len(nodes)), 2))
    nodes[i].input[0] = nodes[j].output[0]
    return m.SerializeToString(), f"{nodes[i].op_type} consumes the later {nodes[j].op_type}'s output", False


def m_unsupported_type(m, feeds, rng) -> Mutation:
    inp, _, new = _redeclare(m.graph.input, (TensorProto.DOUBLE, TensorProto.UINT8, TensorProto.INT8,
                                             TensorProto.STRING, TensorProto.COMPLEX64), rng)
    return m.SerializeToString(), f"input {inp.name!r} declared {TensorProto.DataType.Name(new)}", False


MUTATORS: list[tuple[Callable, float]] = [
    (m_dangling_input, 1), (m_duplicate_output, 1), (m_duplicate_writer, 1), (m_bad_attribute, 2),
    (m_wrong_arity, 1), (m_huge_dims, 0.7), (m_huge_pads, 0.7), (m_gather_oob, 1), (m_raw_data, 1),
    (m_bad_version, 1), (m_truncated, 1), (m_output_dtype, 1), (m_output_shape, 0.5), (m_cycle, 0.7),
    (m_unsupported_type, 0.5),
]


def generate_invalid(seed: int, index: int, max_nodes: int = 6, max_attempts: int = 100) -> Case:
    """The mutated case ``(seed, index)``: a valid base graph, then one mutator."""
    funcs, weights = zip(*MUTATORS)
    last = ""
    for attempt in range(max_attempts):
        rng = case_rng(seed, index, attempt, salt=":invalid")
        try:
            model, specs = build_graph(rng, max_nodes)
        except Reject as e:
            last = str(e)
            continue
        feeds = make_feeds(specs, rng)
        if validate(model, feeds) is not None:
            continue
        mut = rng.choices(funcs, weights)[0]
        try:
            data, desc, compile_only = mut(model, feeds, rng)
        except (Reject, IndexError, StopIteration) as e:
            last = f"{mut.__name__}: {e}"
            continue
        ops = [n.op_type for n in model.graph.node]
        return Case(seed, index, "invalid", data, {} if compile_only else feeds,
                    f"{mut.__name__[2:]}: {desc}", compile_only=compile_only, ops=ops)
    raise RuntimeError(f"no mutated model for seed {seed} case {index} ({last})")


def generate_case(seed: int, index: int, invalid_ratio: float = 0.3, max_nodes: int = 8,
                  profile: str = "cpu") -> Case:
    """Case ``index`` of run ``seed``: valid or mutated, decided by the seed too.

    ``profile`` ("cpu" or "ascendc") selects the valid-graph families; mutated
    cases are the same for both."""
    from .generator import generate_valid

    pick = random.Random(f"ge-fuzz-kind:{seed}:{index}").random()
    if pick < invalid_ratio:
        return generate_invalid(seed, index, max_nodes=min(max_nodes, 6))
    return generate_valid(seed, index, max_nodes=max_nodes, profile=profile)
