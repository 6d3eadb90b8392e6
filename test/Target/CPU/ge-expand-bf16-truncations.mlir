// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-expand-bf16-truncations)' | FileCheck %s

// f32 -> bf16: round to nearest even on the bits, NaNs quieted; no truncf left.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME: %[[X:.*]]: f32) -> bf16
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[HIGH:.*]] = arith.shrui %[[BITS]], %[[C16]] : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[LSB:.*]] = arith.andi %[[HIGH]], %[[C1]] : i32
// CHECK-NEXT: %[[C7FFF:.*]] = arith.constant 32767 : i32
// CHECK-NEXT: %[[BIAS:.*]] = arith.addi %[[LSB]], %[[C7FFF]] : i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[BITS]], %[[BIAS]] : i32
// CHECK-NEXT: %[[SH:.*]] = arith.shrui %[[SUM]], %[[C16]] : i32
// CHECK-NEXT: %[[ROUNDED:.*]] = arith.trunci %[[SH]] : i32 to i16
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[Q:.*]] = arith.ori %[[HIGH]], %[[C64]] : i32
// CHECK-NEXT: %[[QUIET:.*]] = arith.trunci %[[Q]] : i32 to i16
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[NAN]], %[[QUIET]], %[[ROUNDED]] : i16
// CHECK-NEXT: %[[R:.*]] = arith.bitcast %[[SEL]] : i16 to bf16
// CHECK-NEXT: return %[[R]] : bf16
func.func @scalar(%x: f32) -> bf16 {
  %r = arith.truncf %x : f32 to bf16
  return %r : bf16
}

// Vectors the same way, with splat constants.
// CHECK-LABEL: func.func @vector(
// CHECK-NEXT: arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK-NEXT: arith.constant dense<16> : vector<8xi32>
// CHECK-NOT: arith.truncf
// CHECK: arith.cmpf uno, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi16>
// CHECK-NEXT: %[[R:.*]] = arith.bitcast %{{.*}} : vector<8xi16> to vector<8xbf16>
// CHECK-NEXT: return %[[R]]
func.func @vector(%x: vector<8xf32>) -> vector<8xbf16> {
  %r = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %r : vector<8xbf16>
}

// Other truncations are left to LLVM.
// CHECK-LABEL: func.func @others(
// CHECK-NEXT: %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: %[[B:.*]] = arith.truncf %{{.*}} : f64 to bf16
// CHECK-NEXT: return %[[H]], %[[B]]
func.func @others(%x: f32, %y: f64) -> (f16, bf16) {
  %h = arith.truncf %x : f32 to f16
  %b = arith.truncf %y : f64 to bf16
  return %h, %b : f16, bf16
}
