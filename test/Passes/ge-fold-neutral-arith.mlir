// The second user pass of examples/graph_passes.py: x + 0, x - 0, x * 1, x / 1, 0 + x, 1 * x -> x.
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fold-neutral-arith)' | FileCheck %s
// RUN: env GE_MLIR_PASS_MODULES=%S/../../examples/graph_passes.py ge-opt %s --split-input-file --ge-fold-neutral-arith --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: ge-fold-neutral-arith: nodes-removed=9, rewrites=6, uses-replaced=6
// STATS: ge-fold-neutral-arith: rewrites=0

// Every neutral operand goes, and so do the constants nothing else reads.
// CHECK-LABEL: func.func @neutral(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT: %[[D:.*]] = ge.div %[[I]], %[[I]]
// CHECK-NEXT: return %[[X]], %[[D]]
func.func @neutral(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  %zero = ge.constant dense<0.0> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<3xf32>
  %ione = ge.constant dense<1> : tensor<4xi32>
  %0 = ge.add %x, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = ge.mul %0, %one : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = ge.sub %1, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = ge.add %zero, %2 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = ge.mul %one, %3 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = ge.div %i, %ione : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = ge.div %5, %5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %4, %6 : tensor<2x3xf32>, tensor<4xi32>
}

// -----

// Not applied: the constant broadcasts x to a larger shape, is not neutral (or not everywhere),
// or is on the left of a sub/div (0 - x is not x).
// CHECK-LABEL: func.func @not_applied(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[ONES:.*]] = ge.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT: %[[MIXED:.*]] = ge.constant dense<[1.000000e+00, 2.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[ZERO:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[A:.*]] = ge.mul %[[X]], %[[ONES]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = ge.mul %[[X]], %[[MIXED]]
// CHECK-NEXT: %[[C:.*]] = ge.sub %[[ZERO]], %[[X]]
// CHECK-NEXT: %[[D:.*]] = ge.add %[[X]], %[[X]]
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @not_applied(%x: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %ones = ge.constant dense<1.0> : tensor<2x3xf32>
  %mixed = ge.constant dense<[1.0, 2.0, 1.0]> : tensor<3xf32>
  %zero = ge.constant dense<0.0> : tensor<f32>
  %0 = ge.mul %x, %ones : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.mul %x, %mixed : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = ge.sub %zero, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = ge.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
