// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Lowerings of gather, gather_elements, scatter_elements and one_hot
// (ge_mlir/target/cpu/lowering/indexing.py).

// Negative indices wrap, then the index is clamped (never out of bounds).
// CHECK-DAG: #[[IM:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[X:.*]]: tensor<5x4xf32>, %[[IDX:.*]]: tensor<3xi32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<5x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[IM]], #{{.*}}], {{.*}} ins(%[[IDX]] : tensor<3xi32>) outs(%[[E]] : tensor<5x3xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %[[C0]] : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[ADD:.*]] = arith.addi %[[I]], %[[C4]] : index
// CHECK-NEXT: %[[W:.*]] = arith.select %[[NEG]], %[[ADD]], %[[I]] : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[W]], %[[C0]] : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[K:.*]] = arith.minsi %[[LO]], %[[C3]] : index
// CHECK-NEXT: %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[X]][%[[ROW]], %[[K]]] : tensor<5x4xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK-NEXT: } -> tensor<5x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @gather(%x: tensor<5x4xf32>, %i: tensor<3xi32>) -> tensor<5x3xf32> {
  %0 = ge.gather %x, %i {axis = 1 : i64} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements(
// CHECK-SAME: %[[X:.*]]: tensor<5x4xf32>, %[[IDX:.*]]: tensor<5x2xi64>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<5x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[IDX]] : tensor<5x2xi64>) outs(%[[E]] : tensor<5x2xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[K:.*]] = arith.minsi
// CHECK-NEXT: %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[X]][%[[ROW]], %[[K]]] : tensor<5x4xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: return %[[R]]
func.func @gather_elements(%x: tensor<5x4xf32>, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  %0 = ge.gather_elements %x, %i {axis = 1 : i64} : (tensor<5x4xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

// Sequential updates (later ones win); out-of-range ones keep the old value.
// CHECK-LABEL: func.func @scatter_elements(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[IDX:.*]]: tensor<2xi64>, %[[U:.*]]: tensor<2xf32>)
// CHECK: %[[R:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[X]]) -> (tensor<4xf32>) {
// CHECK-NEXT: %[[UV:.*]] = tensor.extract %[[U]][%[[IV]]] : tensor<2xf32>
// CHECK-NEXT: tensor.extract %[[IDX]][%[[IV]]] : tensor<2xi64>
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[K:.*]] = arith.minsi
// CHECK-NEXT: %[[OLD:.*]] = tensor.extract %[[ACC]][%[[K]]] : tensor<4xf32>
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[OLD]], %[[UV]] : f32
// CHECK-NEXT: %[[NEW:.*]] = arith.select %[[OK]], %[[MAX]], %[[OLD]] : f32
// CHECK-NEXT: %[[INS:.*]] = tensor.insert %[[NEW]] into %[[ACC]][%[[K]]] : tensor<4xf32>
// CHECK-NEXT: scf.yield %[[INS]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @scatter_elements(%x: tensor<4xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %0 = ge.scatter_elements %x, %i, %u {reduction = #ge.scatter_reduction<max>} : (tensor<4xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @one_hot(
// CHECK-SAME: %[[IDX:.*]]: tensor<4xi64>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x10xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[IDX]] : tensor<4xi64>) outs(%[[E]] : tensor<4x10xf32>) {
// CHECK: %[[W:.*]] = arith.select
// CHECK-NEXT: %[[K:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpi eq, %[[W]], %[[K]] : index
// CHECK-NEXT: %[[ON:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[OFF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[HIT]], %[[ON]], %[[OFF]] : f32
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: return %[[R]]
func.func @one_hot(%i: tensor<4xi64>) -> tensor<4x10xf32> {
  %0 = ge.one_hot %i {depth = 10 : i64} : (tensor<4xi64>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}
