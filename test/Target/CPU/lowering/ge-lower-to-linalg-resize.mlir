// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Lowering of resize (ge_mlir/target/cpu/lowering/resize.py).

// Nearest: per-axis source index tables (computed at compile time), one gather.
// CHECK-LABEL: func.func @resize_nearest(
// CHECK-SAME: %[[X:.*]]: tensor<1x1x2x2xf32>)
// CHECK-NEXT: %[[TH:.*]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// CHECK-NEXT: %[[TW:.*]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[TH]], %[[TW]] : tensor<4xi64>, tensor<4xi64>) outs(%[[E]] : tensor<1x1x4x4xf32>) {
// CHECK-NEXT: ^bb0(%[[H:.*]]: i64, %[[W:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[N:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[C:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[HI:.*]] = arith.index_cast %[[H]] : i64 to index
// CHECK-NEXT: %[[WI:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[X]][%[[N]], %[[C]], %[[HI]], %[[WI]]] : tensor<1x1x2x2xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK-NEXT: } -> tensor<1x1x4x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @resize_nearest(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %0 = ge.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Linear, align_corners, W 2 -> 4: neighbour and weight tables, weighted sum.
// CHECK-LABEL: func.func @resize_linear(
// CHECK-SAME: %[[X:.*]]: tensor<1x1x2x2xf32>)
// CHECK-NEXT: %[[I0:.*]] = arith.constant dense<0> : tensor<4xi64>
// CHECK-NEXT: %[[I1:.*]] = arith.constant dense<[0, 1, 1, 1]> : tensor<4xi64>
// CHECK-NEXT: %[[W0:.*]] = arith.constant dense<[0.000000e+00, 0.666666686, 0.333333343, 0.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[W1:.*]] = arith.constant dense<[1.000000e+00, 0.333333343, 0.666666686, 1.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x1x2x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[I0]], %[[I1]], %[[W0]], %[[W1]] : {{.*}}) outs(%[[E]] : tensor<1x1x2x4xf32>) {
// CHECK: %[[A:.*]] = arith.mulf
// CHECK: %[[B:.*]] = arith.mulf
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<1x1x2x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @resize_linear(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x4xf32> {
  %0 = ge.resize %x {coordinate_transformation_mode = #ge.coord_transform<align_corners>, mode = #ge.resize_mode<linear>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x4xf32>
  return %0 : tensor<1x1x2x4xf32>
}
