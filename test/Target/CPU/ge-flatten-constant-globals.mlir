// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-flatten-constant-globals)' | FileCheck %s

// A rank-2 constant weight becomes one flat array; its use reads it through an
// expand_shape view. Rank-1, non-constant and integer globals stay as they are.
// CHECK-LABEL: memref.global "private" constant @w : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @splat : memref<8xf32> = dense<5.000000e-01>
// CHECK-NEXT: memref.global "private" constant @bias : memref<3xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-NEXT: memref.global "private" @state : memref<2x2xf32> = dense<0.000000e+00>
// CHECK-NEXT: memref.global "private" constant @ints : memref<2x2xi32> = dense<{{\[}}[1, 2], [3, 4]]>
// CHECK-LABEL: func.func @f(
// CHECK-NEXT: %[[W:.*]] = memref.get_global @w : memref<6xf32>
// CHECK-NEXT: %[[V:.*]] = memref.expand_shape %[[W]] {{\[}}[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK-NEXT: %[[S:.*]] = memref.get_global @splat : memref<8xf32>
// CHECK-NEXT: %[[SV:.*]] = memref.expand_shape %[[S]] {{\[}}[0, 1, 2]] output_shape [2, 2, 2] : memref<8xf32> into memref<2x2x2xf32>
// CHECK-NEXT: %[[B:.*]] = memref.get_global @bias : memref<3xf32>
// CHECK-NEXT: %[[ST:.*]] = memref.get_global @state : memref<2x2xf32>
// CHECK-NEXT: %[[I:.*]] = memref.get_global @ints : memref<2x2xi32>
// CHECK-NEXT: return %[[V]], %[[SV]], %[[B]], %[[ST]], %[[I]]
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> {alignment = 64 : i64}
memref.global "private" constant @splat : memref<2x2x2xf32> = dense<0.5>
memref.global "private" constant @bias : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
memref.global "private" @state : memref<2x2xf32> = dense<0.0>
memref.global "private" constant @ints : memref<2x2xi32> = dense<[[1, 2], [3, 4]]>
func.func @f() -> (memref<2x3xf32>, memref<2x2x2xf32>, memref<3xf32>, memref<2x2xf32>, memref<2x2xi32>) {
  %w = memref.get_global @w : memref<2x3xf32>
  %s = memref.get_global @splat : memref<2x2x2xf32>
  %b = memref.get_global @bias : memref<3xf32>
  %st = memref.get_global @state : memref<2x2xf32>
  %i = memref.get_global @ints : memref<2x2xi32>
  return %w, %s, %b, %st, %i : memref<2x3xf32>, memref<2x2x2xf32>, memref<3xf32>, memref<2x2xf32>, memref<2x2xi32>
}
