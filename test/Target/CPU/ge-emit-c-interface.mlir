// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-emit-c-interface)' | FileCheck %s

// Defined functions (public or not) get the attribute once; declarations stay as they are.
// CHECK-LABEL: func.func @public(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-NEXT: return
func.func @public(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-NEXT: return
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func.func @annotated(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-NEXT: return
func.func @annotated() attributes {llvm.emit_c_interface} {
  return
}

// CHECK-LABEL: func.func private @external(f32) -> f32
// CHECK-NOT: llvm.emit_c_interface
func.func private @external(f32) -> f32
