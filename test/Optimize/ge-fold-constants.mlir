// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fold-constants)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fold-constants{aggressive=false size-limit=16 resource-threshold=8})' | FileCheck %s --check-prefix=CHEAP
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fold-constants{fp-mode=f32})' | FileCheck %s --check-prefix=F32
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fold-constants{fp-mode=f64})' 2>&1 | FileCheck %s --check-prefix=BADMODE

// An elementwise chain on constants becomes one constant; the op with a
// non-constant operand stays. Not shape-like: aggressive=false keeps it.
// CHECK-LABEL: func.func @elementwise_chain(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[1.35914087, 3.6945281, 10.0427685, 27.2990742]> : tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = ge.add %[[X]], %[[C]]
// CHECK-NEXT: return %[[R]]
// CHEAP-LABEL: func.func @elementwise_chain(
// CHEAP: ge.exp
// CHEAP-NEXT: ge.mul
// CHEAP-NEXT: ge.add
func.func @elementwise_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = ge.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %h = ge.constant dense<0.5> : tensor<4xf32>
  %0 = ge.exp %c : tensor<4xf32>
  %1 = ge.mul %0, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = ge.add %1, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Shape arithmetic (slice, reduce_prod, concat, cast on i64) folds in both modes.
// CHECK-LABEL: func.func @shape_math(
// CHECK-NEXT: %[[N:.*]] = ge.constant dense<[6, 4]> : tensor<2xi64>
// CHECK-NEXT: %[[S:.*]] = ge.constant dense<[6.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[N]], %[[S]]
// CHEAP-LABEL: func.func @shape_math(
// CHEAP-NEXT: ge.constant dense<[6, 4]> : tensor<2xi64>
// CHEAP-NEXT: ge.constant dense<[6.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHEAP-NEXT: return
func.func @shape_math() -> (tensor<2xi64>, tensor<2xf32>) {
  %s = ge.constant dense<[2, 3, 4]> : tensor<3xi64>
  %a = ge.slice %s {starts = array<i64: 0>, ends = array<i64: 2>} : (tensor<3xi64>) -> tensor<2xi64>
  %p = ge.reduce_prod %a {axes = array<i64: 0>, keepdims = true} : (tensor<2xi64>) -> tensor<1xi64>
  %l = ge.slice %s {starts = array<i64: 2>, ends = array<i64: 3>} : (tensor<3xi64>) -> tensor<1xi64>
  %n = ge.concat %p, %l {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %f = ge.cast %n : tensor<2xi64> to tensor<2xf32>
  return %n, %f : tensor<2xi64>, tensor<2xf32>
}

// -----

// f16 is computed in f32 and rounded back: 1/3 -> 0x3555, 1/7 -> 0x3092.
// CHECK-LABEL: func.func @f16_in_f32(
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[3.332520e-01, 1.428220e-01]> : tensor<2xf16>
// CHECK-NEXT: ge.add %{{.*}}, %[[C]]
func.func @f16_in_f32(%x: tensor<2xf16>) -> tensor<2xf16> {
  %a = ge.constant dense<1.0> : tensor<2xf16>
  %b = ge.constant dense<[3.0, 7.0]> : tensor<2xf16>
  %q = ge.div %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %r = ge.add %q, %x : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  return %r : tensor<2xf16>
}

// -----

// i1 results and splat results.
// CHECK-LABEL: func.func @bool_and_splat(
// CHECK-NEXT: %[[B:.*]] = ge.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-NEXT: %[[S:.*]] = ge.constant dense<1.41421354> : tensor<2x2xf32>
// CHECK-NEXT: return %[[B]], %[[S]]
func.func @bool_and_splat() -> (tensor<3xi1>, tensor<2x2xf32>) {
  %a = ge.constant dense<[1.0, 5.0, 3.0]> : tensor<3xf32>
  %b = ge.constant dense<3.0> : tensor<3xf32>
  %l = ge.less %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %c = ge.constant dense<2.0> : tensor<f32>
  %e = ge.expand %c {shape = array<i64: 2, 2>} : (tensor<f32>) -> tensor<2x2xf32>
  %s = ge.sqrt %e : tensor<2x2xf32>
  return %l, %s : tensor<3xi1>, tensor<2x2xf32>
}

// -----

// dense_resource operands are read by the JIT (Python cannot read them).
// CHECK-LABEL: func.func @resource(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[0.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = ge.mul %[[X]], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @resource(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = ge.constant dense_resource<w> : tensor<4xf32>
  %c = ge.constant dense<1.0> : tensor<4xf32>
  %0 = ge.add %r, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = ge.mul %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000000080BF0000803F0000004000004040"
    }
  }
#-}

// -----

// Results above resource-threshold elements become dense_resource blobs.
// CHECK-LABEL: func.func @range(
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]> : tensor<10xi32>
// CHECK-NEXT: return %[[C]]
// CHEAP-LABEL: func.func @range(
// CHEAP-NEXT: %[[C:.*]] = ge.constant dense_resource<folded> : tensor<10xi32>
// CHEAP-NEXT: return %[[C]]
func.func @range() -> tensor<10xi32> {
  %s = ge.constant dense<0> : tensor<i32>
  %l = ge.constant dense<10> : tensor<i32>
  %d = ge.constant dense<1> : tensor<i32>
  %r = ge.range %s, %l, %d : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<10xi32>
  return %r : tensor<10xi32>
}

// -----

// Negative: an operand is not constant, nothing folds.
// CHECK-LABEL: func.func @not_constant(
// CHECK-NEXT: ge.constant
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.exp
// CHECK-NEXT: return
func.func @not_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = ge.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = ge.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = ge.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Negative: a result above size-limit (1<<20 by default) is not folded, and
// neither is what depends on it.
// CHECK-LABEL: func.func @above_size_limit(
// CHECK-NEXT: ge.constant
// CHECK-NEXT: ge.expand
// CHECK-NEXT: ge.reduce_sum
// CHECK-NEXT: return
// CHEAP-LABEL: func.func @above_size_limit(
// CHEAP-NEXT: ge.constant
// CHEAP-NEXT: ge.expand
// CHEAP-NEXT: ge.reduce_sum
// CHEAP-NEXT: return
func.func @above_size_limit() -> tensor<f32> {
  %c = ge.constant dense<1.0> : tensor<f32>
  %e = ge.expand %c {shape = array<i64: 1024, 1025>} : (tensor<f32>) -> tensor<1024x1025xf32>
  %s = ge.reduce_sum %e {keepdims = false} : (tensor<1024x1025xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// With size-limit=16 a 4x8 broadcast stays (CHEAP); by default it folds.
// CHECK-LABEL: func.func @small_size_limit(
// CHECK-NEXT: ge.constant dense<3> : tensor<4x8xi32>
// CHECK-NEXT: return
// CHEAP-LABEL: func.func @small_size_limit(
// CHEAP-NEXT: ge.constant
// CHEAP-NEXT: ge.expand
// CHEAP-NEXT: return
func.func @small_size_limit() -> tensor<4x8xi32> {
  %c = ge.constant dense<3> : tensor<i32>
  %e = ge.expand %c {shape = array<i64: 4, 8>} : (tensor<i32>) -> tensor<4x8xi32>
  return %e : tensor<4x8xi32>
}

// -----

// f16 folding precision. Backend rule (default): each add rounds to f16, and
// 1 + 4e-4 rounds back to 1 (f16 spacing at 1 is 2^-10 = 9.77e-4) three times.
// fp-mode=f32 (GE's constant_folding_fp_mode FP32): the chain is computed in
// f32 (1.0012) and rounded once, to the nearest f16, 1 + 2^-10. The explicit
// cast to f16 in @explicit_cast still rounds where the model put it.
// CHECK-LABEL: func.func @f16_chain(
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<1.000000e+00> : tensor<2xf16>
// CHECK-NEXT: return %[[C]]
// F32-LABEL: func.func @f16_chain(
// F32-NEXT: %[[C:.*]] = ge.constant dense<1.000980e+00> : tensor<2xf16>
// F32-NEXT: return %[[C]]
// BADMODE: fp-mode must be origin or f32, got 'f64'
func.func @f16_chain() -> tensor<2xf16> {
  %a = ge.constant dense<1.0> : tensor<2xf16>
  %b = ge.constant dense<4.0e-4> : tensor<2xf16>
  %0 = ge.add %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %1 = ge.add %0, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %2 = ge.add %1, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  return %2 : tensor<2xf16>
}

// -----

// F32-LABEL: func.func @explicit_cast(
// F32-NEXT: %[[C:.*]] = ge.constant dense<1.000000e+00> : tensor<2xf32>
// F32-NEXT: return %[[C]]
func.func @explicit_cast() -> tensor<2xf32> {
  %a = ge.constant dense<1.0> : tensor<2xf32>
  %b = ge.constant dense<4.0e-4> : tensor<2xf32>
  %0 = ge.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %h = ge.cast %0 : tensor<2xf32> to tensor<2xf16>
  %1 = ge.cast %h : tensor<2xf16> to tensor<2xf32>
  return %1 : tensor<2xf32>
}
