// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-mark-noalias-arguments)' | FileCheck %s

// Memref arguments (inputs, out-parameters, the workspace) do not alias.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:.*]]: memref<4xf32> {llvm.noalias, onnx.name = "x"},
// CHECK-SAME: %[[Y:.*]]: memref<4xf32> {llvm.noalias},
// CHECK-SAME: %{{.*}}: f32)
// CHECK-NEXT: memref.copy %[[X]], %[[Y]]
// CHECK-NEXT: return
func.func @f(%x: memref<4xf32> {onnx.name = "x"}, %y: memref<4xf32>, %s: f32) {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}
