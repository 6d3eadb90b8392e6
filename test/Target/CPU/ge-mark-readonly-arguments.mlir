// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-mark-readonly-arguments)' | FileCheck %s

// Tensor arguments become read-only for one-shot bufferization; other
// arguments get an empty dictionary and existing attributes are kept.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %{{.*}}: tensor<2xf32> {bufferization.writable = false, onnx.name = "x"},
// CHECK-SAME: %{{.*}}: index,
// CHECK-SAME: %{{.*}}: tensor<3xi8> {bufferization.writable = false})
// CHECK-NEXT: return
func.func @f(%x: tensor<2xf32> {onnx.name = "x"}, %i: index, %m: tensor<3xi8>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func.func private @decl(tensor<2xf32>)
// CHECK-NOT: writable
func.func private @decl(tensor<2xf32>)
