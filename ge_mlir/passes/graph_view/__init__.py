"""A graph view of ge functions for pass authors who do not know MLIR (in the spirit of torch.fx).

A :class:`GraphView` is one function of the module: its :attr:`~GraphView.nodes` in program
order, its :attr:`~GraphView.inputs` and :attr:`~GraphView.outputs`. A :class:`Node` is one op:
``op`` (a friendly name, ``"Reshape"``; ``ge_op`` is ``"ge.reshape"``), ``name`` (the ONNX node
name from the location), ``attrs`` (Python values), ``inputs``/``outputs`` (:class:`Value`:
``shape``, ``dtype``, ``producer``, ``users``) and ``users``. A graph pass is a function of the
graph registered like any other pass::

    from ge_mlir.passes import graph_pass

    @graph_pass(name="ge-drop-double-reshape", stage="after-import", priority=50,
                summary="reshape(reshape(x, s), s) -> reshape(x, s)")
    def drop_double_reshape(graph):
        for node in graph.nodes:
            first = node.inputs[0].producer if node.op == "Reshape" else None
            if first is not None and first.op == "Reshape" and first.output.shape == node.output.shape:
                node.set_input(0, first.inputs[0])  # the second reshape reads x itself
                if first.unused:                    # nothing else reads the first one
                    first.remove()
        return graph

How edits reach MLIR. A graph pass is a module pass (like every ge pass) that runs the function
once per ``func.func`` from a pattern rooted at ``func.func`` applied by MLIR's walk pattern
driver, so the graph edits the IR under that pattern's ``PatternRewriter``: ``remove`` is
``rewriter.erase_op``, ``replace_with`` is ``rewriter.replace_op``, new ops are built by the
generated ge op builders (attributes converted by their attribute builders, result types
inferred by the op's C++ type inference) at an insertion point before or after a node, and
``replace_all_uses_with``/``set_input`` rewire uses (``Value.replace_all_uses_except``, operand
assignment). Outside a pass (``GraphView(func_op)``, :func:`graphs`) the same edits apply directly.

What is checked, and when. MLIR does not check most misuse and some of it ends the process
(erasing an op whose results are still used fails an assertion; building an op without a
required attribute crashes in its type inference; a value of another context is a dangling
pointer; a detached op left holding uses asserts at exit). So every edit is checked in
Python *before* MLIR is called, and refused with :class:`~ge_mlir.errors.GraphEditError` (naming
the node, its op and the reason) when it would leave invalid IR:

* operands: values of this graph (not of another function or module, not of a removed node),
  defined before the point where they are used (dominance), ranked tensors; the op's operand
  count (optional and variadic operands included) and required attributes; attribute values of
  the Python type the attribute needs;
* ``remove``: no result may still be used (the users are named);
* ``replace_all_uses_with``: same number of values, same types, and a replacement defined
  before every use it takes over (uses by the replacement's own producer are kept, so
  ``node.replace_all_uses_with(graph.insert_after(node, "Relu", [node.output]))`` works);
* then MLIR's own verifier runs on the changed or new op (``set_input``, ``attrs[...] = ...``,
  ``create``); if it fails the edit is undone and refused with MLIR's diagnostics;
* at the end of a graph pass the function is verified as a whole (refused with diagnostics).

Rewrites and ge-bisect. The edits that change what the graph computes (``replace_all_uses_with``,
``replace_with``, ``set_input``, attribute writes) are the pass's rewrites: counted in
``stats["rewrites"]`` (``nodes-created`` and ``nodes-removed`` are detail counters) and recorded
under ge-bisect's rewrite budget (:func:`ge_mlir.irutils.patterns.rewrite_budget`) with the node they
change and the graph function's name as the pattern. Once the budget is spent those edits are
skipped, as is the removal of a node they would have freed, and nodes created by the pass that
end up unused are erased, so a budget-limited run is the same pass stopped after ``n`` rewrites.

The modules: ``schema`` (op schemas read from the generated builders, friendly names),
``attributes`` (attributes to Python values and back), ``nodes`` (``Value``, ``Node``),
``graph`` (``GraphView``: reading and the edits pass authors call), ``_edits`` (the checks and
undo behind those edits, the rewrite budget), ``graph_pass`` (``GraphPass``, ``@graph_pass``).
"""

from .attributes import attribute_value
from .graph import GraphView, graphs
from .graph_pass import GraphPass, graph_pass
from .nodes import Node, NodeAttrs, NodeList, Value  # noqa: F401  (NodeAttrs: the type of Node.attrs)
from .schema import friendly_name

__all__ = [
    "GraphPass", "GraphView", "Node", "NodeList", "Value", "attribute_value", "friendly_name", "graph_pass", "graphs",
]
