// RUN: ge-opt %s | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// CHECK-LABEL: func.func @reduce(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2xf32>, tensor<1x1x1xf32>, tensor<f32>, tensor<2x3x1xf32>, tensor<3x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_sum %[[ARG0]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.reduce_mean %[[ARG0]] {axes = array<i64: 1, -1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.reduce_max %[[ARG0]] : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.reduce_min %[[ARG0]] {keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.reduce_prod %[[ARG0]] {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.reduce_l2 %[[ARG0]] {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V5]] : tensor<2x1x4xf32>, tensor<2xf32>, tensor<1x1x1xf32>, tensor<f32>, tensor<2x3x1xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
func.func @reduce(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2xf32>, tensor<1x1x1xf32>, tensor<f32>, tensor<2x3x1xf32>, tensor<3x4xf32>) {
  %0 = ge.reduce_sum %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = ge.reduce_mean %x {axes = array<i64: 1, -1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  %2 = ge.reduce_max %x : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  %3 = ge.reduce_min %x {keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %4 = ge.reduce_prod %x {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %5 = ge.reduce_l2 %x {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x1x4xf32>, tensor<2xf32>, tensor<1x1x1xf32>, tensor<f32>, tensor<2x3x1xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @reduce_int_dynamic(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x8xi32>) -> tensor<?x1xi32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_sum %[[ARG0]] {axes = array<i64: 1>} : (tensor<?x8xi32>) -> tensor<?x1xi32>
// CHECK-NEXT: return %[[V0]] : tensor<?x1xi32>
// CHECK-NEXT: }
func.func @reduce_int_dynamic(%x: tensor<?x8xi32>) -> tensor<?x1xi32> {
  %0 = ge.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x8xi32>) -> tensor<?x1xi32>
  return %0 : tensor<?x1xi32>
}

// CHECK-LABEL: func.func @arg(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32>) -> (tensor<2x1x4xi64>, tensor<2x3xi64>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.argmax %[[ARG0]] {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.argmin %[[ARG0]] {axis = -1 : i64, keepdims = false, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<2x3xi64>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<2x1x4xi64>, tensor<2x3xi64>
// CHECK-NEXT: }
func.func @arg(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xi64>, tensor<2x3xi64>) {
  %0 = ge.argmax %x {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  %1 = ge.argmin %x {axis = -1 : i64, keepdims = false, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<2x3xi64>
  return %0, %1 : tensor<2x1x4xi64>, tensor<2x3xi64>
}
