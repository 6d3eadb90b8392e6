// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Lowerings of shape and range (ge_mlir/target/cpu/lowering/shape_ops.py).

// CHECK-LABEL: func.func @shape(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[3, 4]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape(%x: tensor<2x3x4xf32>) -> tensor<2xi64> {
  %0 = ge.shape %x {start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @range(
// CHECK-SAME: %[[S:.*]]: tensor<i32>, %{{.*}}: tensor<i32>, %[[D:.*]]: tensor<i32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4xi32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK-NEXT: %[[SV:.*]] = tensor.extract %[[S]][] : tensor<i32>
// CHECK-NEXT: %[[DV:.*]] = tensor.extract %[[D]][] : tensor<i32>
// CHECK-NEXT: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[II]], %[[DV]] : i32
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[SV]], %[[M]] : i32
// CHECK-NEXT: linalg.yield %[[A]] : i32
// CHECK-NEXT: } -> tensor<4xi32>
// CHECK-NEXT: return %[[R]]
func.func @range(%s: tensor<i32>, %l: tensor<i32>, %d: tensor<i32>) -> tensor<4xi32> {
  %0 = ge.range %s, %l, %d : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
