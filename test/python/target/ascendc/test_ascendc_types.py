"""Python classes of the ascendc types and attributes (ge_mlir.dialects.ascendc over the C API in
include/ge-mlir-c/AscendC.h): construction, printing, parsing round trips, isinstance, parameter
getters, casts that raise, and type casters on values."""

import pytest
from mlir import ir

import ge_mlir  # noqa: F401
from ge_mlir.dialects import ascendc as A
from ge_mlir.dialects.ascendc import (
    GlobalTensorType,
    LocalTensorType,
    PipeType,
    Position,
    QueueType,
    TargetAttr,
    TBufType,
)


@pytest.fixture
def ctx():
    with ir.Context() as c, ir.Location.unknown():
        yield c


def test_global_tensor(ctx):
    t = GlobalTensorType.get(ir.F16Type.get())
    assert str(t) == "!ascendc.gm<f16>"
    assert t == ir.Type.parse("!ascendc.gm<f16>")
    assert isinstance(t.element_type, ir.F16Type)
    assert GlobalTensorType.isinstance(ir.Type.parse("!ascendc.gm<i8>"))
    assert GlobalTensorType(ir.Type.parse("!ascendc.gm<i8>")).element_type == ir.IntegerType.get_signless(8)


@pytest.mark.parametrize("position", [Position.vecin, 1, "vecin"])
def test_local_tensor(ctx, position):
    t = LocalTensorType.get(ir.F32Type.get(), 256, position)
    assert str(t) == "!ascendc.local<f32, 256, vecin>"
    assert t == ir.Type.parse("!ascendc.local<f32, 256, vecin>")
    assert (t.element_type, t.size, t.position) == (ir.F32Type.get(), 256, Position.vecin)
    assert repr(t) == "LocalTensorType(!ascendc.local<f32, 256, vecin>)"


@pytest.mark.parametrize("pos", [p for p in Position if p not in (Position.gm, Position.co2)])
def test_local_tensor_every_position_round_trips(ctx, pos):
    t = LocalTensorType.get(ir.F16Type.get(), 32, pos)
    back = LocalTensorType(ir.Type.parse(str(t)))
    assert back == t and back.position is pos and str(pos) in str(t)


@pytest.mark.parametrize("args, message", [
    ((0, "vecin"), "local tensor size must be positive, got 0"),
    ((16, "gm"), "position gm is global memory, not a local buffer"),
    ((16, "nowhere"), "unknown Position 'nowhere'"),
    ((16, 99), "99 is not a Position value"),
])
def test_invalid_local_tensor_raises(ctx, args, message):
    with pytest.raises(ValueError, match=message):
        LocalTensorType.get(ir.F32Type.get(), *args)


def test_queue_tbuf_pipe(ctx):
    q = QueueType.get(Position.vecout, 2)
    assert str(q) == "!ascendc.que<vecout, 2>" and (q.position, q.depth) == (Position.vecout, 2)
    b = TBufType.get("a1")
    assert str(b) == "!ascendc.tbuf<a1>" and b.position is Position.a1
    p = PipeType.get()
    assert str(p) == "!ascendc.pipe" and p == ir.Type.parse("!ascendc.pipe")
    for cls, text in ((QueueType, "!ascendc.que<co1, 1>"), (TBufType, "!ascendc.tbuf<veccalc>"),
                      (PipeType, "!ascendc.pipe")):
        t = ir.Type.parse(text)
        assert cls.isinstance(t) and str(cls(t)) == text


def test_isinstance_is_exclusive(ctx):
    types = [GlobalTensorType.get(ir.F32Type.get()), LocalTensorType.get(ir.F32Type.get(), 8, "vecin"),
             QueueType.get("vecin", 1), TBufType.get("vecin"), PipeType.get(), ir.F32Type.get(),
             ir.Type.parse("tensor<4xf32>")]
    classes = [GlobalTensorType, LocalTensorType, QueueType, TBufType, PipeType]
    for i, t in enumerate(types):
        for j, cls in enumerate(classes):
            assert cls.isinstance(t) == (i == j), (t, cls)
    assert not LocalTensorType.isinstance("!ascendc.local<f32, 8, vecin>")  # not a type at all


@pytest.mark.parametrize("cls", [GlobalTensorType, LocalTensorType, QueueType, TBufType, PipeType])
def test_bad_cast_raises(ctx, cls):
    with pytest.raises(ValueError, match=f"Cannot cast type to {cls.__name__}"):
        cls(ir.F32Type.get())
    with pytest.raises(ValueError, match=f"Cannot cast type to {cls.__name__}"):
        cls(ir.Type.parse("!ascendc.tbuf<a2>") if cls is not TBufType else ir.Type.parse("!ascendc.pipe"))


def test_values_come_back_typed(ctx):
    """The classes are type casters: `value.type` is already the ascendc class."""
    module = ir.Module.parse("""
      ascendc.kernel @k kind(<vector>) blocks(1) {
      ^bb0(%x: !ascendc.gm<f32>):
        %p = ascendc.pipe : !ascendc.pipe
        %q = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecin, 2>
        %t = ascendc.alloc_tensor %q : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
      }""")
    body = module.body.operations[0].regions[0].blocks[0]
    assert isinstance(body.arguments[0].type, GlobalTensorType)
    pipe, queue, tensor = (op.results[0].type for op in body.operations)
    assert isinstance(pipe, PipeType) and isinstance(queue, QueueType) and isinstance(tensor, LocalTensorType)
    assert (tensor.size, tensor.position, queue.depth) == (64, Position.vecin, 2)


def test_builders_take_the_classes(ctx):
    """Ops built with the generated builders and these types verify and print as the text form."""
    module = ir.Module.create()
    f32 = ir.F32Type.get()
    with ir.InsertionPoint(module.body):
        kernel = A.KernelOp("k", A.KernelKindAttr.get("vector"), 1)
        block = kernel.body.blocks.append(GlobalTensorType.get(f32))
    with ir.InsertionPoint(block):
        pipe = A.PipeOp(PipeType.get()).result
        buf = A.TBufOp(TBufType.get("veccalc"), pipe, 64).result
        A.TBufGetOp(LocalTensorType.get(f32, 16, "veccalc"), buf)
    assert module.operation.verify()
    assert "ascendc.tbuf_get %1 : <veccalc> -> <f32, 16, veccalc>" in str(module)


def test_target_attr(ctx):
    t = TargetAttr.get("Ascend910B1", "dav-2201", 196608, 524288, 65536, 65536, 131072, 24, 48)
    text = ('#ascendc.target<soc = "Ascend910B1", arch = "dav-2201", ub = 196608, l1 = 524288, '
            "l0a = 65536, l0b = 65536, l0c = 131072, aic = 24, aiv = 48>")
    assert str(t) == text and t == ir.Attribute.parse(text)
    parsed = TargetAttr(ir.Attribute.parse(text.replace("ub = 196608", "ub = 262144")))
    assert (parsed.soc, parsed.arch, parsed.ub, parsed.l0c, parsed.aic, parsed.aiv) == \
        ("Ascend910B1", "dav-2201", 262144, 131072, 24, 48)
    assert list(t.fields()) == ["soc", "arch", "ub", "l1", "l0a", "l0b", "l0c", "aic", "aiv"]
    assert TargetAttr.isinstance(t) and not TargetAttr.isinstance(ir.StringAttr.get("x"))
    with pytest.raises(ValueError, match="Cannot cast attribute to TargetAttr"):
        TargetAttr(ir.StringAttr.get("Ascend910B1"))


@pytest.mark.parametrize("cls, enum, text", [
    (A.PositionAttr, A.Position, "#ascendc.pos<{}>"), (A.EventAttr, A.Event, "#ascendc.event<{}>"),
    (A.PipeAttr, A.Pipe, "#ascendc.pipe<{}>"), (A.RoundModeAttr, A.RoundMode, "#ascendc.round<{}>"),
    (A.CmpModeAttr, A.CmpMode, "#ascendc.cmp<{}>"), (A.SelModeAttr, A.SelMode, "#ascendc.sel<{}>"),
    (A.KernelKindAttr, A.KernelKind, "#ascendc.kernel_kind<{}>"),
    (A.BinaryKindAttr, A.BinaryKind, "#ascendc.binary<{}>"), (A.ScalarKindAttr, A.ScalarKind, "#ascendc.scalar<{}>"),
    (A.UnaryKindAttr, A.UnaryKind, "#ascendc.unary<{}>"), (A.ReduceKindAttr, A.ReduceKind, "#ascendc.reduce<{}>"),
])
def test_enum_attrs(ctx, cls, enum, text):
    for case in enum:
        a = cls.get(case)
        assert str(a) == text.format(case) and a == ir.Attribute.parse(text.format(case))
        assert cls(ir.Attribute.parse(str(a))).value is case
        assert cls.get(str(case)) == a
    assert not cls.isinstance(ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 0))
    with pytest.raises(ValueError):
        cls(ir.StringAttr.get(str(next(iter(enum)))))
    with pytest.raises(ValueError):
        cls.get(len(enum) + 100)


def test_position_memory(ctx):
    assert [A.position_memory(p) for p in ("vecin", "veccalc", "a1", "a2", "b2", "co1", "c2", "gm")] == \
        ["UB", "UB", "L1", "L0A", "L0B", "L0C", "BT", "GM"]


def test_get_without_a_context_raises():
    with pytest.raises(ValueError, match="no current ir.Context"):
        PipeType.get()


def test_local_tensor_refuses_a_location_of_another_context(ctx):
    # Built in the location's context around an element type owned by another one, the type
    # outlived that context: a use-after-free (segfault, reproduced).
    other = ir.Context()
    with pytest.raises(ValueError, match="different MLIR contexts"):
        LocalTensorType.get(ir.F32Type.get(), 16, "vecin", loc=ir.Location.unknown(other))


@pytest.mark.parametrize("size", [2**64 + 16, 2**63, 16.9, "16"])
def test_sizes_outside_int64_or_not_integers_are_refused(ctx, size):
    # ctypes would silently wrap 2**64 + 16 to 16 and truncate 16.9 to 16.
    with pytest.raises(ValueError, match="int64|integer"):
        LocalTensorType.get(ir.F32Type.get(), size, "vecin")
    with pytest.raises(ValueError, match="int64|integer"):
        QueueType.get("vecin", size)
