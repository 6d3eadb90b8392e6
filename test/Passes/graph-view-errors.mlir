// Malformed edits through the graph view are refused with a located error that names the node
// and the reason; ge-opt exits 1 (`not`, not `not --crash`: no MLIR abort). The passes are in
// Inputs/graph_view_bad_passes.py.
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-remove-used 2>&1 | FileCheck %s --check-prefix=REMOVE
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-replace-wrong-type 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-replace-later 2>&1 | FileCheck %s --check-prefix=LATER
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-create-no-perm 2>&1 | FileCheck %s --check-prefix=CREATE
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-bad-attr 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-bad-input 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-foreign-value 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-raises 2>&1 | FileCheck %s --check-prefix=RAISES
// RUN: not env GE_MLIR_PASS_MODULES=%S/Inputs/graph_view_bad_passes.py ge-opt %s --ge-test-graph-returns-other 2>&1 | FileCheck %s --check-prefix=RETURNS

// REMOVE: error: ge-test-graph-remove-used: graph edit refused: cannot remove node 'r1' (Reshape): its output is still used by node 'relu1' (Relu); replace those uses first
// TYPE: error: ge-test-graph-replace-wrong-type: graph edit refused: replacing the uses of node 'r1' (Reshape): refused, the replacement has type tensor<2x3xf32> and the uses expect tensor<6xf32>
// LATER: error: ge-test-graph-replace-later: graph edit refused: replacing the uses of node 'r1' (Reshape): refused, the replacement is computed by node 'relu2' (Relu), after node 'relu1' (Relu) that reads it
// CREATE: graph-view-errors.mlir:[[@LINE+25]]:{{[0-9]+}}: error: ge-test-graph-create-no-perm: graph edit refused: cannot create a new Transpose node: Transpose requires attribute(s) 'perm'
// ATTR: graph-view-errors.mlir:[[@LINE+24]]:{{[0-9]+}}: error: ge-test-graph-bad-attr: graph edit refused: setting attribute 'perm' of unnamed Transpose node at {{.*}}: refused, the op does not verify (undone)
// ATTR-NEXT: error: 'ge.transpose' op attribute 'perm' [0, 0] is not a permutation of [0, 2)
// INPUT: graph-view-errors.mlir:[[@LINE+22]]:{{[0-9]+}}: error: ge-test-graph-bad-input: graph edit refused: setting input 0 of unnamed Transpose node at {{.*}} to a tensor<6xf32>: refused, the op does not verify (undone)
// INPUT-NEXT: error: 'ge.transpose' op attribute 'perm' has 2 entries but the input has rank 1
// FOREIGN: error: ge-test-graph-foreign-value: graph edit refused: input 0 of node 'relu_g' (Relu): <Value 'arg0' tensor<2x3xf32> (input 0)> belongs to graph @f, not to @g
// RAISES: error: ge-test-graph-raises: graph pass 'raises' raised IndexError on function @f: list index out of range
// RETURNS: error: ge-test-graph-returns-other: graph edit refused: graph pass 'returns_other' returned int; return the graph it was given (or None)

// No output IR on any failure.
// REMOVE-NOT: func.func
// TYPE-NOT: func.func
// LATER-NOT: func.func
// CREATE-NOT: func.func
// ATTR-NOT: func.func
// INPUT-NOT: func.func
// FOREIGN-NOT: func.func
// RAISES-NOT: func.func
// RETURNS-NOT: func.func

func.func @f(%x: tensor<2x3xf32>, %y: tensor<6xf32>) -> tensor<3x2xf32> {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<6xf32> loc(fused<"Reshape">["r1"])
  %1 = ge.relu %0 : tensor<6xf32> loc("relu1")
  %2 = ge.relu %1 : tensor<6xf32> loc("relu2")
  %3 = ge.reshape %2 : tensor<6xf32> to tensor<2x3xf32>
  %4 = ge.transpose %3 {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %4 : tensor<3x2xf32>
}

func.func @g(%x: tensor<6xf32>) -> tensor<6xf32> {
  %1 = ge.relu %x : tensor<6xf32> loc("relu_g")
  return %1 : tensor<6xf32>
}
