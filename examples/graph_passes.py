"""Two user passes written on the graph view (docs/passes.md, "Writing a pass on the graph view").

They are not part of any default pipeline until this module is loaded:

    GE_MLIR_PASS_MODULES=examples/graph_passes.py ge-opt model.mlir --ge-drop-double-reshape
    GE_MLIR_PASS_MODULES=examples/graph_passes.py ge-compile model.onnx --report
    ge-bisect model.onnx --pass-modules examples/graph_passes.py

or ``"passModules": ["examples/graph_passes.py"]`` in a JSON config. Once loaded they join the
default pipeline in the ``after-import`` stage (priorities 50 and 51: after the built-in
ge-canonicalize, ge-fold-constants and ge-eliminate-redundant, which already catch most of
these; switch those off with ``"passes": {"ge-eliminate-redundant": {"enabled": false}}`` to see
them work on a model).
"""

import numpy as np

from ge_mlir.passes import graph_pass


@graph_pass(name="ge-drop-double-reshape", stage="after-import", priority=50,
            summary="reshape(reshape(x, s), s) -> reshape(x, s): drop the first of two consecutive reshapes")
def drop_double_reshape(graph):
    for node in graph.nodes:
        first = node.inputs[0].producer if node.op == "Reshape" else None
        if first is not None and first.op == "Reshape" and first.output.shape == node.output.shape:
            node.set_input(0, first.inputs[0])  # the second reshape reads x itself
            if first.unused:                    # nothing else reads the first one
                first.remove()
    return graph


#: x <op> c == x when every element of the constant c is this value (and c does not broadcast x).
NEUTRAL_RHS = {"Add": 0.0, "Sub": 0.0, "Mul": 1.0, "Div": 1.0}
#: c <op> x == x for the commutative ones.
NEUTRAL_LHS = {"Add": 0.0, "Mul": 1.0}


def _constant(value):
    """The numpy value of a Constant node's output, else None."""
    node = value.producer
    if node is None or node.op != "Constant" or not isinstance(node.attrs["value"], np.ndarray):
        return None
    return node.attrs["value"]


@graph_pass(name="ge-fold-neutral-arith", stage="after-import", priority=51,
            summary="add(x, 0), sub(x, 0), mul(x, 1), div(x, 1) (and 0 + x, 1 * x) -> x")
def fold_neutral_arith(graph):
    for node in graph.nodes:
        if node.op not in NEUTRAL_RHS:
            continue
        lhs, rhs = node.inputs
        for x, c, neutral in ((lhs, rhs, NEUTRAL_RHS.get(node.op)), (rhs, lhs, NEUTRAL_LHS.get(node.op))):
            value = _constant(c)
            # x must already have the result's type: a constant that broadcasts x changes its shape.
            if neutral is not None and value is not None and np.all(value == neutral) \
                    and x.type == node.output.type:
                node.replace_with(x)  # every reader of node reads x; node is removed
                if c.producer.unused:
                    c.producer.remove()
                break
    return graph
