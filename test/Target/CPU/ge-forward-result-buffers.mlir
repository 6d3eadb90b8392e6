// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-forward-result-buffers)' | FileCheck %s

// A result reaching its out-parameter through an expand_shape: the alloc becomes the collapsed
// out-parameter, the copy goes away.
// CHECK-LABEL: func.func @expanded(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<1x4x8xf32>)
// CHECK-NEXT: %[[B:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1], [2]] : memref<1x4x8xf32> into memref<4x8xf32>
// CHECK-NEXT: linalg.copy ins(%[[X]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT: %{{.*}} = memref.expand_shape %[[B]]
// CHECK-NEXT: return
func.func @expanded(%x: memref<4x8xf32>, %out: memref<1x4x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  linalg.copy ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 8] : memref<4x8xf32> into memref<1x4x8xf32>
  memref.copy %e, %out : memref<1x4x8xf32> to memref<1x4x8xf32>
  return
}

// Through a collapse_shape: the alloc is the expanded out-parameter.
// CHECK-LABEL: func.func @collapsed(
// CHECK-SAME: %[[X:.*]]: memref<2x16xf32>, %[[OUT:.*]]: memref<32xf32>)
// CHECK-NEXT: %[[B:.*]] = memref.expand_shape %[[OUT]] {{\[}}[0, 1]] output_shape [2, 16] : memref<32xf32> into memref<2x16xf32>
// CHECK-NEXT: linalg.copy ins(%[[X]] : memref<2x16xf32>) outs(%[[B]] : memref<2x16xf32>)
// CHECK-NEXT: memref.collapse_shape
// CHECK-NEXT: return
func.func @collapsed(%x: memref<2x16xf32>, %out: memref<32xf32>) {
  %a = memref.alloc() : memref<2x16xf32>
  linalg.copy ins(%x : memref<2x16xf32>) outs(%a : memref<2x16xf32>)
  %c = memref.collapse_shape %a [[0, 1]] : memref<2x16xf32> into memref<32xf32>
  memref.copy %c, %out : memref<32xf32> to memref<32xf32>
  return
}

// One alloc copied to two out-parameters, and a copy followed by a write to its buffer: both
// stay (one buffer cannot be two results; the write must not reach the result).
// CHECK-LABEL: func.func @kept(
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: memref.expand_shape
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: return
// CHECK-LABEL: func.func @written_after(
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: memref.expand_shape
// CHECK-NEXT: memref.copy
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: return
func.func @kept(%x: memref<4x8xf32>, %o1: memref<1x4x8xf32>, %o2: memref<1x4x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  linalg.copy ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 8] : memref<4x8xf32> into memref<1x4x8xf32>
  memref.copy %e, %o1 : memref<1x4x8xf32> to memref<1x4x8xf32>
  memref.copy %e, %o2 : memref<1x4x8xf32> to memref<1x4x8xf32>
  return
}
func.func @written_after(%x: memref<4x8xf32>, %out: memref<1x4x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 8] : memref<4x8xf32> into memref<1x4x8xf32>
  memref.copy %e, %out : memref<1x4x8xf32> to memref<1x4x8xf32>
  linalg.copy ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  return
}

// Two results, each through its own reshape: both forwarded.
// CHECK-LABEL: func.func @two(
// CHECK-SAME: %[[O1:[a-z0-9]+]]: memref<1x4x8xf32>, %[[O2:[a-z0-9]+]]: memref<32xf32>)
// CHECK-NEXT: %[[B1:.*]] = memref.collapse_shape %[[O1]]
// CHECK-NEXT: %[[B2:.*]] = memref.expand_shape %[[O2]] {{\[}}[0, 1]] output_shape [4, 8]
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<4x8xf32>) outs(%[[B1]] : memref<4x8xf32>)
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<4x8xf32>) outs(%[[B2]] : memref<4x8xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @two(%x: memref<4x8xf32>, %o1: memref<1x4x8xf32>, %o2: memref<32xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<4x8xf32>
  linalg.copy ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  linalg.copy ins(%x : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 8] : memref<4x8xf32> into memref<1x4x8xf32>
  %c = memref.collapse_shape %b [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  memref.copy %e, %o1 : memref<1x4x8xf32> to memref<1x4x8xf32>
  memref.copy %c, %o2 : memref<32xf32> to memref<32xf32>
  return
}
