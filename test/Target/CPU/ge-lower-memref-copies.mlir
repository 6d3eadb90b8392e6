// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-lower-memref-copies)' | FileCheck %s

// Every memref.copy, strided or nested in a loop, becomes a linalg.copy.
// CHECK-LABEL: func.func @copies(
// CHECK-SAME: %[[X:.*]]: memref<4x4xf32>, %[[Y:.*]]: memref<2x4xf32>, %[[N:.*]]: index)
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[X]][0, 0] [2, 4] [2, 1]
// CHECK-NEXT: linalg.copy {{.*}}ins(%[[V]] : memref<2x4xf32, strided<[8, 1]>>) outs(%[[Y]] : memref<2x4xf32>)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: linalg.copy {{.*}}ins(%[[Y]] : memref<2x4xf32>) outs(%[[V]] : memref<2x4xf32, strided<[8, 1]>>)
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @copies(%x: memref<4x4xf32>, %y: memref<2x4xf32>, %n: index) {
  %v = memref.subview %x[0, 0] [2, 4] [2, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %v, %y : memref<2x4xf32, strided<[8, 1]>> to memref<2x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %y, %v : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  }
  return
}
