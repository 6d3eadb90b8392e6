// A user pass written on the graph view (examples/graph_passes.py), loaded like any user pass module.
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-drop-double-reshape)' | FileCheck %s
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt %s --split-input-file --ge-drop-double-reshape --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt --print-default-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt %s --split-input-file --ge-drop-double-reshape --ge-pass-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// LIST: stage after-import:
// LIST: --ge-drop-double-reshape - reshape(reshape(x, s), s) -> reshape(x, s): drop the first of two consecutive reshapes [stage: after-import, priority: 50]
// PIPE: ge-eliminate-redundant{{.*}}, ge-drop-double-reshape, ge-fold-neutral-arith,
// REPORT: Rewrites --- Name ---
// REPORT: 1 ge-drop-double-reshape (inputs-set=1, nodes-removed=1)

// Two consecutive reshapes to the same shape: the first one goes, the second reads x.
// CHECK-LABEL: func.func @same_shape(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[X]] : tensor<2x3xf32> to tensor<6xf32>
// CHECK-NEXT: %[[A:.*]] = ge.relu %[[R]]
// CHECK-NEXT: return %[[A]]
// The second reshape keeps its name; the first one's is gone.
// LOC-LABEL: func.func @same_shape(
// LOC: ge.reshape {{.*}} loc(#[[L:loc[0-9]*]])
// LOC: #[[NAME:loc[0-9]*]] = loc("second")
// LOC: #[[L]] = loc(fused<"Reshape">[#[[NAME]]])
// LOC-NOT: loc("first")
func.func @same_shape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<6xf32> loc(fused<"Reshape">["first"])
  %1 = ge.reshape %0 : tensor<6xf32> to tensor<6xf32> loc(fused<"Reshape">["second"])
  %2 = ge.relu %1 : tensor<6xf32> loc(fused<"Relu">["relu"])
  return %2 : tensor<6xf32>
}

// -----

// A chain of three: each reshape after the first reads x; only the last one remains.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[X]] : tensor<4xf32> to tensor<2x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @chain(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %0 = ge.reshape %x : tensor<4xf32> to tensor<2x2xf32>
  %1 = ge.reshape %0 : tensor<2x2xf32> to tensor<2x2xf32>
  %2 = ge.reshape %1 : tensor<2x2xf32> to tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}

// -----

// The first reshape has another reader (and is a graph output): the second one still reads x,
// the first one stays.
// CHECK-LABEL: func.func @first_used_elsewhere(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[R1:.*]] = ge.reshape %[[X]] : tensor<2x3xf32> to tensor<6xf32>
// CHECK-NEXT: %[[R2:.*]] = ge.reshape %[[X]] : tensor<2x3xf32> to tensor<6xf32>
// CHECK-NEXT: %[[N:.*]] = ge.neg %[[R1]]
// CHECK-NEXT: return %[[R2]], %[[N]], %[[R1]]
func.func @first_used_elsewhere(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<6xf32>
  %1 = ge.reshape %0 : tensor<6xf32> to tensor<6xf32>
  %2 = ge.neg %0 : tensor<6xf32>
  return %1, %2, %0 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

// Not applied: the reshapes go to different shapes, or are not consecutive.
// CHECK-LABEL: func.func @not_applied(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[A:.*]] = ge.reshape %[[X]] : tensor<2x3xf32> to tensor<6xf32>
// CHECK-NEXT: %[[B:.*]] = ge.reshape %[[A]] : tensor<6xf32> to tensor<3x2xf32>
// CHECK-NEXT: %[[C:.*]] = ge.relu %[[B]]
// CHECK-NEXT: %[[D:.*]] = ge.reshape %[[C]] : tensor<3x2xf32> to tensor<3x2xf32>
// CHECK-NEXT: return %[[D]]
func.func @not_applied(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<6xf32>
  %1 = ge.reshape %0 : tensor<6xf32> to tensor<3x2xf32>
  %2 = ge.relu %1 : tensor<3x2xf32>
  %3 = ge.reshape %2 : tensor<3x2xf32> to tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
}
