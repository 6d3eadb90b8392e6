"""Graph passes with malformed edits, for test/Passes/graph-view-errors.mlir: each edit must be
refused with a located error naming the node and the reason, never an MLIR abort."""

from ge_mlir.passes import graph_pass


@graph_pass(name="ge-test-graph-remove-used", summary="removes every Reshape, used or not")
def remove_used(graph):
    for node in graph.nodes:
        if node.op == "Reshape":
            node.remove()  # refused: its result is still read


@graph_pass(name="ge-test-graph-replace-wrong-type", summary="replaces every Reshape by its input")
def replace_wrong_type(graph):
    for node in graph.nodes:
        if node.op == "Reshape":
            node.replace_all_uses_with(node.inputs[0])  # refused: another type


@graph_pass(name="ge-test-graph-replace-later", summary="replaces the first Reshape by the last Relu")
def replace_later(graph):
    reshapes, relus = graph.find("Reshape"), graph.find("Relu")
    if reshapes and relus:
        reshapes[0].replace_all_uses_with(relus[-1])  # refused: computed after the uses


@graph_pass(name="ge-test-graph-create-no-perm", summary="creates a Transpose without its perm")
def create_no_perm(graph):
    for node in graph.find("Transpose"):
        node.insert_before("Transpose", [node.inputs[0]])  # refused (MLIR's type inference would crash)


@graph_pass(name="ge-test-graph-bad-attr", summary="sets a perm that is not a permutation")
def bad_attr(graph):
    for node in graph.find("Transpose"):
        node.attrs["perm"] = [0, 0]  # refused by the op's verifier, and undone


@graph_pass(name="ge-test-graph-bad-input", summary="feeds a Transpose a value of another rank")
def bad_input(graph):
    for node in graph.find("Transpose"):
        node.set_input(0, graph.inputs[-1])  # refused by the op's verifier, and undone


@graph_pass(name="ge-test-graph-foreign-value", summary="uses an input of another function")
def foreign_value(graph, pass_):
    if "first" in pass_.statistics:
        graph.find("Relu")[0].set_input(0, pass_.first)  # refused: another function's value
    else:
        pass_.statistics["first"] = 1
        pass_.first = graph.inputs[0]


@graph_pass(name="ge-test-graph-raises", summary="a bug in the user's function")
def raises(graph):
    return graph.nodes[0].inputs[5]


@graph_pass(name="ge-test-graph-returns-other", summary="returns something else than the graph")
def returns_other(graph):
    return 42
