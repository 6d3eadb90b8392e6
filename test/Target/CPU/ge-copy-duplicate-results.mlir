// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-copy-duplicate-results)' | FileCheck %s

// The second and third uses of %r get their own copies (hence their own
// out-parameters after bufferization); distinct values and scalars are left alone.
// CHECK-LABEL: func.func @dup(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[S:.*]]: f32)
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[X]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT: %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[R]]) : tensor<4xf32>
// CHECK-NEXT: %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[R]]) : tensor<4xf32>
// CHECK-NEXT: return %[[R]], %[[X]], %[[C1]], %[[S]], %[[S]], %[[C2]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, f32, f32, tensor<4xf32>
func.func @dup(%x: tensor<4xf32>, %y: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, f32, f32, tensor<4xf32>) {
  %r = arith.addf %x, %y : tensor<4xf32>
  return %r, %x, %r, %s, %s, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, f32, f32, tensor<4xf32>
}

// CHECK-LABEL: func.func @distinct(
// CHECK-NEXT: return %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
func.func @distinct(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}
