// The libMLIR.so flavour of the dialect loads into upstream mlir-opt.
// RUN: mlir-opt --load-dialect-plugin=%ge_plugin %s | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%ge_plugin %s --mlir-print-op-generic | ge-opt | FileCheck %s
// RUN: ge-opt %s | mlir-opt --load-dialect-plugin=%ge_plugin --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @block(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[X]], %[[W]], %[[B]] {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[T:.*]] = ge.transpose %[[C]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[U:.*]] = ge.transpose %[[T]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: return %[[U]]

// The transpose pair folds away through the dialect's folders in mlir-opt too.
// CANON-LABEL: func.func @block(
// CANON-NEXT: %[[C:.*]] = ge.conv2d
// CANON-NEXT: return %[[C]] : tensor<1x4x8x8xf32>
func.func @block(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = ge.conv2d %x, %w, %b {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = ge.transpose %0 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %2 = ge.transpose %1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  return %2 : tensor<1x4x8x8xf32>
}
