// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-hoist-vector-transfers)' | FileCheck %s

// The accumulator's read/write pair at loop-invariant indices moves out of the
// loop: the vector is carried in registers (iter_args) instead of memory.
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME: %[[A:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<4xf32>)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[INIT:.*]] = vector.transfer_read %[[C]][%[[C0]]], %[[Z]]
// CHECK-NEXT: %[[R:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4xf32>)
// CHECK-NEXT: %[[X:.*]] = vector.transfer_read %[[A]][%[[K]], %[[C0]]], %[[Z]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : vector<4xf32>
// CHECK-NEXT: scf.yield %[[S]] : vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: vector.transfer_write %[[R]], %[[C]][%[[C0]]]
// CHECK-NEXT: return
func.func @accumulate(%a: memref<3x4xf32>, %c: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c3 step %c1 {
    %acc = vector.transfer_read %c[%c0], %z {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
    %x = vector.transfer_read %a[%k, %c0], %z {in_bounds = [true]} : memref<3x4xf32>, vector<4xf32>
    %s = arith.addf %acc, %x : vector<4xf32>
    vector.transfer_write %s, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  }
  return
}

// Indices that change with the loop stay inside it.
// CHECK-LABEL: func.func @varying(
// CHECK: scf.for %[[K:.*]] =
// CHECK-NEXT: vector.transfer_read %{{.*}}[%[[K]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: vector.transfer_write %{{.*}}, %{{.*}}[%[[K]]] {{.*}} : vector<4xf32>, memref<8xf32>
// CHECK-NEXT: }
func.func @varying(%c: memref<8xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c4 step %c1 {
    %acc = vector.transfer_read %c[%k], %z {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
    %s = arith.addf %acc, %v : vector<4xf32>
    vector.transfer_write %s, %c[%k] {in_bounds = [true]} : vector<4xf32>, memref<8xf32>
  }
  return
}
