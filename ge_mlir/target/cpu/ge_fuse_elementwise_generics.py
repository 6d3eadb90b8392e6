"""ge-fuse-elementwise-generics: an elementwise generic read only by another is computed inside it.

The ge-to-linalg lowering emits one ``linalg.generic`` per ge op, so a chain of elementwise ops
(LLaMA's SiLU gate ``x * sigmoid(x) * up``, rotary embeddings, GELU pieces) passes each
intermediate through memory: three passes over a 128 x 688 activation where one would do.
This pass merges a producer into its consumer when both are elementwise over the same
iteration space:

* both generics have only parallel loops, one result, static shapes, and bodies without
  ``linalg.index`` or nested regions;
* the producer's result has exactly one use, an input of the consumer read through the
  identity map, and the producer's output map is the identity and its body does not read its
  output (the value it computes depends on its inputs only);

The merged generic reads the consumer's other inputs and the producer's inputs (one block
argument per distinct value and map), runs the producer's body, then the consumer's with the
producer's yielded value in place of the fused argument, and writes the consumer's output.
Chains fuse whole (each merged generic is tried again). MLIR's ``linalg-fuse-elementwise-ops`` also folds reshapes
into generics and broadcasts into their consumers; it reshaped the generics the codegen strategy
expects and made every transformer 100x slower (docs/performance.md), so only this one fusion
is done here.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import linalg

from ...errors import PassFailure
from ...irutils.patterns import clone_mapped, defining_op
from ...passes.registry import Pass, register_pass


def _maps(op: ir.Operation) -> list[ir.AffineMap]:
    return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


def _elementwise(op: ir.Operation) -> bool:
    """A one-result generic with only parallel loops, static shapes and a flat body."""
    if op.name != "linalg.generic" or len(op.results) != 1 or len(op.regions[0].blocks) != 1:
        return False
    if any("parallel" not in str(k) for k in ir.ArrayAttr(op.attributes["iterator_types"])):
        return False
    if not all(isinstance(v.type, ir.RankedTensorType) and ir.RankedTensorType(v.type).has_static_shape
               for v in op.operands):
        return False
    return all(o.name != "linalg.index" and not len(o.regions) for o in op.regions[0].blocks[0].operations)


def _fusable_pair(consumer: ir.Operation) -> tuple[ir.Operation, int] | None:
    """(producer, index of the consumer input it feeds) for the first input that can be fused."""
    maps = _maps(consumer)
    n_in = len(consumer.operands) - 1
    ident = ir.AffineMap.get_identity(maps[-1].n_dims)
    for i, v in enumerate(list(consumer.operands)[:n_in]):
        producer = defining_op(v)
        if producer is None or not _elementwise(producer) or maps[i] != ident:
            continue
        if len(list(v.uses)) != 1 or list(consumer.operands).count(v) != 1:
            continue
        pmaps = _maps(producer)
        if pmaps[-1] != ident:
            continue
        if ir.RankedTensorType(producer.results[0].type).shape != ir.RankedTensorType(consumer.results[0].type).shape:
            continue
        pbody = producer.regions[0].blocks[0]
        if len(list(pbody.arguments[-1].uses)):  # reads its output's old value
            continue
        if producer.parent != consumer.parent:
            continue
        return producer, i
    return None


def _fuse(producer: ir.Operation, consumer: ir.Operation, index: int) -> ir.Operation:
    """The merged generic, replacing ``consumer`` (``producer`` is erased)."""
    cmaps, pmaps = _maps(consumer), _maps(producer)
    n_cin, n_pin = len(consumer.operands) - 1, len(producer.operands) - 1
    ins: list[ir.Value] = []
    maps: list[ir.AffineMap] = []
    slot_of: dict[tuple, int] = {}

    def slot(v: ir.Value, m: ir.AffineMap) -> int:
        key = (v, str(m))
        if key not in slot_of:
            slot_of[key] = len(ins)
            ins.append(v)
            maps.append(m)
        return slot_of[key]

    cslots = {i: slot(consumer.operands[i], cmaps[i]) for i in range(n_cin) if i != index}
    pslots = {i: slot(producer.operands[i], pmaps[i]) for i in range(n_pin)}
    out = consumer.operands[n_cin]
    with consumer.location, ir.InsertionPoint(consumer):
        fused = linalg.GenericOp([consumer.results[0].type], ins, [out],
                                 ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in [*maps, cmaps[-1]]]),
                                 consumer.attributes["iterator_types"])
        cbody, pbody = consumer.regions[0].blocks[0], producer.regions[0].blocks[0]
        block = fused.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in ins],
                                               cbody.arguments[-1].type)
        # One mapping for both bodies (their values are distinct): the producer's ops, then the
        # consumer's reading the producer's yielded value for the fused argument.
        mapping: dict = {pbody.arguments[i]: block.arguments[s] for i, s in pslots.items()}
        mapping.update({cbody.arguments[i]: block.arguments[s] for i, s in cslots.items()})
        mapping[cbody.arguments[-1]] = block.arguments[-1]
        with ir.InsertionPoint(block):
            for o in pbody.operations:
                if o.name == "linalg.yield":
                    mapping[cbody.arguments[index]] = mapping.get(o.operands[0], o.operands[0])
                    break
                clone_mapped(o, mapping)
            for o in cbody.operations:
                clone_mapped(o, mapping)
    consumer.results[0].replace_all_uses_with(fused.results[0])
    consumer.erase()
    producer.erase()
    return fused.operation


def fuse_elementwise_generics(module: ir.Operation) -> int:
    """Fuses every fusable pair; returns how many were fused.

    Consumers are taken in program order and each is fused with its producers until none is
    left: a producer always comes before its consumer, so it has been taken (and is no longer
    needed in the list) when it is erased."""
    consumers: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if _elementwise(op):
            consumers.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    count = 0
    for consumer in consumers:
        found = _fusable_pair(consumer)
        while found is not None:
            consumer = _fuse(found[0], consumer, found[1])
            count += 1
            found = _fusable_pair(consumer)
    return count


@register_pass
class GeFuseElementwiseGenericsPass(Pass):
    name = "ge-fuse-elementwise-generics"
    summary = "Compute an elementwise linalg.generic read by one other elementwise generic inside it"
    description = __doc__ or ""
    stage = "lowering"
    targets = ("cpu",)
    priority = 25

    def run(self, module: ir.Operation) -> None:
        try:
            with module.context, ir.Location.unknown():
                self.bump("rewrites", fuse_elementwise_generics(module))
        except (ValueError, ir.MLIRError) as e:
            raise PassFailure(f"ge-fuse-elementwise-generics failed: {e}") from None
