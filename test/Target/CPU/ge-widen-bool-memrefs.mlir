// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-widen-bool-memrefs)' | FileCheck %s
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-widen-bool-memrefs)' 2>&1 | FileCheck %s --check-prefix=ERR

// Ownership flags as MLIR's deallocation lowering makes them: the i1 memrefs become i8 at the
// function boundary, in allocations and casts; loads are truncated back, stores extended.
// CHECK-LABEL: func.func private @flags(
// CHECK-SAME: %[[F:.*]]: memref<?xi8>) -> i1
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<2xi8>
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[T]] : i1 to i8
// CHECK-NEXT: memref.store %[[W]], %[[A]][%[[C0]]] : memref<2xi8>
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %[[A]] : memref<2xi8> to memref<?xi8>
// CHECK-NEXT: memref.copy %[[CAST]], %[[F]] : memref<?xi8> to memref<?xi8>
// CHECK-NEXT: %[[L:.*]] = memref.load %[[F]][%[[C0]]] : memref<?xi8>
// CHECK-NEXT: %[[B:.*]] = arith.trunci %[[L]] : i8 to i1
// CHECK-NEXT: memref.dealloc %[[A]] : memref<2xi8>
// CHECK-NEXT: return %[[B]] : i1
func.func private @flags(%f: memref<?xi1>) -> i1 {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  %a = memref.alloc() : memref<2xi1>
  memref.store %t, %a[%c0] : memref<2xi1>
  %c = memref.cast %a : memref<2xi1> to memref<?xi1>
  memref.copy %c, %f : memref<?xi1> to memref<?xi1>
  %l = memref.load %f[%c0] : memref<?xi1>
  memref.dealloc %a : memref<2xi1>
  return %l : i1
}

// -----

// A function without i1 memrefs is left as it is.
// CHECK-LABEL: func.func @bytes(
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[L:.*]] = memref.load %arg0[%[[C0]]] : memref<4xi8>
// CHECK-NEXT: return %[[L]] : i8
func.func @bytes(%m: memref<4xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %l = memref.load %m[%c0] : memref<4xi8>
  return %l : i8
}

// -----

// An op that reads i1 elements otherwise is refused, naming it.
// ERR: ge-widen-bool-memrefs.mlir:[[@LINE+4]]:8: error: ge-widen-bool-memrefs: 'vector.load' on an i1 memref is not supported
func.func @vector(%m: memref<8xi1>) -> vector<8xi1> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'vector.load' on an i1 memref is not supported}}
  %v = vector.load %m[%c0] : memref<8xi1>, vector<8xi1>
  return %v : vector<8xi1>
}
