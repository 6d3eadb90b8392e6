// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-approximate-math)' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-approximate-math{ops=erf})' | FileCheck %s --check-prefix=ERF
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-approximate-math{ops=exp,sin})' 2>&1 | FileCheck %s --check-prefix=BAD

// erf: x clamped to [-4, 4], x (P(x^2) / Q(x^2)), NaN passed through.
// CHECK-LABEL: func.func @erf(
// CHECK-SAME: %[[X:.*]]: f32) -> f32
// CHECK-NEXT: %[[LO:.*]] = arith.constant -4.000000e+00 : f32
// CHECK-NEXT: %[[A:.*]] = arith.maxnumf %[[X]], %[[LO]] : f32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: %[[XC:.*]] = arith.minnumf %[[A]], %[[HI]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.mulf %[[XC]], %[[XC]] : f32
// CHECK-NEXT: arith.constant -2.72614237E-10 : f32
// CHECK-NOT: math.erf
// CHECK: arith.constant -0.0142647391 : f32
// CHECK-NEXT: %[[Q:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[PQ:.*]] = arith.divf %{{.*}}, %[[Q]] : f32
// CHECK-NEXT: %[[V:.*]] = arith.mulf %[[XC]], %[[PQ]] : f32
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[V]] : f32
// CHECK-NEXT: return %[[R]] : f32
// ERF-LABEL: func.func @erf(
// ERF-NOT: math.erf
func.func @erf(%x: f32) -> f32 {
  %r = math.erf %x : f32
  return %r : f32
}

// exp: clamp, round x log2e to nearest even with the 1.5 * 2^23 shifter, Cody-Waite reduction,
// the polynomial, then 2^n as two exponent-field scalings.
// CHECK-LABEL: func.func @exp_vector(
// CHECK-SAME: %[[X:.*]]: vector<8xf32>) -> vector<8xf32>
// CHECK-NEXT: arith.constant dense<-8.700000e+01> : vector<8xf32>
// CHECK-NEXT: arith.maxnumf
// CHECK-NEXT: arith.constant dense<8.880000e+01> : vector<8xf32>
// CHECK-NEXT: %[[XC:.*]] = arith.minnumf
// CHECK-NEXT: %[[SHIFT:.*]] = arith.constant dense<0x4B400000> : vector<8xf32>
// CHECK-NEXT: %[[L2E:.*]] = arith.constant dense<1.44269502> : vector<8xf32>
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[XC]], %[[L2E]] : vector<8xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[T]], %[[SHIFT]] : vector<8xf32>
// CHECK-NEXT: %[[N:.*]] = arith.subf %[[S]], %[[SHIFT]] : vector<8xf32>
// CHECK: %[[NI:.*]] = arith.fptosi %[[N]] : vector<8xf32> to vector<8xi32>
// CHECK: arith.shli %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NEXT: arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: arith.cmpf uno, %[[X]], %[[X]] : vector<8xf32>
// CHECK-NEXT: %[[R:.*]] = arith.select
// CHECK-NEXT: return %[[R]] : vector<8xf32>
// ERF-LABEL: func.func @exp_vector(
// ERF-NEXT: math.exp
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %r = math.exp %x : vector<8xf32>
  return %r : vector<8xf32>
}

// tanh: the odd polynomial below 0.625, 1 - 2 / (e^{2|x|} + 1) with x's sign above.
// CHECK-LABEL: func.func @tanh(
// CHECK-SAME: %[[X:.*]]: f32) -> f32
// CHECK-NEXT: %[[AX:.*]] = math.absf %[[X]] : f32
// CHECK-NOT: math.tanh
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[LARGE:.*]] = arith.subf %{{.*}}, %[[Q]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 6.250000e-01 : f32
// CHECK-NEXT: %[[SMALL:.*]] = arith.cmpf olt, %[[AX]], %[[C]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[SMALL]], %{{.*}}, %[[LARGE]] : f32
// CHECK-NEXT: %[[R:.*]] = math.copysign %[[SEL]], %[[X]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @tanh(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}

// f64 (and every other math op) keeps its libm call.
// CHECK-LABEL: func.func @f64_untouched(
// CHECK-NEXT: %[[E:.*]] = math.exp %{{.*}} : f64
// CHECK-NEXT: %[[L:.*]] = math.log %{{.*}} : f32
// CHECK-NEXT: return %[[E]], %[[L]]
func.func @f64_untouched(%x: f64, %y: f32) -> (f64, f32) {
  %e = math.exp %x : f64
  %l = math.log %y : f32
  return %e, %l : f64, f32
}

// BAD: ge-approximate-math: ops: unknown sin (known: exp, tanh, erf)
