// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-layer-norm)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-layer-norm{gelu=false})' | FileCheck %s --check-prefix=NOGELU
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-layer-norm{rms-norm=false})' | FileCheck %s --check-prefix=NORMS

// The full decomposition (mul self, div by sqrt, scale, bias).
// CHECK-LABEL: func.func @layer_norm_div(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[LN:.*]] = ge.layer_norm %[[X]], %[[S]], %[[B]] : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[LN]]
func.func @layer_norm_div(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %eps = ge.constant dense<1.0e-5> : tensor<f32>
  %m = ge.reduce_mean %x {axes = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %d = ge.sub %x, %m : (tensor<2x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %sq = ge.mul %d, %d : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %ve = ge.add %v, %eps : (tensor<2x3x1xf32>, tensor<f32>) -> tensor<2x3x1xf32>
  %sd = ge.sqrt %ve : tensor<2x3x1xf32>
  %n = ge.div %d, %sd : (tensor<2x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %y = ge.mul %n, %s : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %z = ge.add %y, %b : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %z : tensor<2x3x4xf32>
}

// -----

// pow 2, rsqrt * d, over the last two axes, scale [1,3,4] (reshaped to [3,4]), no bias.
// CHECK-LABEL: func.func @layer_norm_rsqrt_pow(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<1x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[S]] : tensor<1x3x4xf32> to tensor<3x4xf32>
// CHECK-NEXT: %[[LN:.*]] = ge.layer_norm %[[X]], %[[R]] {axis = -2 : i64, epsilon = 1.000000e-03 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[LN]]
func.func @layer_norm_rsqrt_pow(%x: tensor<2x3x4xf32>, %s: tensor<1x3x4xf32>) -> tensor<2x3x4xf32> {
  %eps = ge.constant dense<1.0e-3> : tensor<1xf32>
  %two = ge.constant dense<2.0> : tensor<f32>
  %m = ge.reduce_mean %x {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %d = ge.sub %x, %m : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  %sq = ge.pow %d, %two : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: -2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %ve = ge.add %eps, %v : (tensor<1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %r = ge.rsqrt %ve : tensor<2x1x1xf32>
  %n = ge.mul %r, %d : (tensor<2x1x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %y = ge.mul %s, %n : (tensor<1x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// The bare normalization gets a ones scale.
// CHECK-LABEL: func.func @layer_norm_bare(
// CHECK-NEXT: %[[ONE:.*]] = ge.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[LN:.*]] = ge.layer_norm %{{.*}}, %[[ONE]] :
// CHECK-NEXT: return %[[LN]]
func.func @layer_norm_bare(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %eps = ge.constant dense<1.0e-5> : tensor<f32>
  %m = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = ge.sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %sq = ge.mul %d, %d : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %ve = ge.add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %sd = ge.sqrt %ve : tensor<3x1xf32>
  %n = ge.div %d, %sd : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %n : tensor<3x4xf32>
}

// -----

// Negative: reduction over a non-trailing axis; centred value used elsewhere;
// mean of x and variance of another tensor; a non-constant epsilon.
// CHECK-LABEL: func.func @not_layer_norm(
// CHECK-NOT: ge.layer_norm
// CHECK: return
func.func @not_layer_norm(%x: tensor<3x4xf32>, %o: tensor<3x4xf32>, %e: tensor<f32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %eps = ge.constant dense<1.0e-5> : tensor<f32>
  %m0 = ge.reduce_mean %x {axes = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  %d0 = ge.sub %x, %m0 : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %q0 = ge.mul %d0, %d0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v0 = ge.reduce_mean %q0 {axes = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  %e0 = ge.add %v0, %eps : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  %s0 = ge.sqrt %e0 : tensor<1x4xf32>
  %n0 = ge.div %d0, %s0 : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>

  %m1 = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d1 = ge.sub %x, %m1 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %q1 = ge.mul %d1, %d1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v1 = ge.reduce_mean %q1 {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %e1 = ge.add %v1, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s1 = ge.sqrt %e1 : tensor<3x1xf32>
  %n1 = ge.div %d1, %s1 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>

  %m2 = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d2 = ge.sub %x, %m2 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %do = ge.sub %o, %m2 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %q2 = ge.mul %do, %do : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v2 = ge.reduce_mean %q2 {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %e2 = ge.add %v2, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s2 = ge.sqrt %e2 : tensor<3x1xf32>
  %n2 = ge.div %d2, %s2 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>

  %m3 = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d3 = ge.sub %x, %m3 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %q3 = ge.mul %d3, %d3 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v3 = ge.reduce_mean %q3 {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %e3 = ge.add %v3, %e : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s3 = ge.sqrt %e3 : tensor<3x1xf32>
  %n3 = ge.div %d3, %s3 : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %y1 = ge.add %n1, %d1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %n0, %y1, %n2, %n3 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// Negative: a scale varying over a non-normalized axis stays a mul.
// CHECK-LABEL: func.func @scale_not_per_feature(
// CHECK: %[[LN:.*]] = ge.layer_norm
// CHECK-NEXT: ge.mul %[[LN]]
// CHECK-NEXT: return
func.func @scale_not_per_feature(%x: tensor<3x4xf32>, %s: tensor<3x1xf32>) -> tensor<3x4xf32> {
  %eps = ge.constant dense<1.0e-5> : tensor<f32>
  %m = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = ge.sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %sq = ge.mul %d, %d : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %ve = ge.add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %sd = ge.sqrt %ve : tensor<3x1xf32>
  %n = ge.div %d, %sd : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %y = ge.mul %n, %s : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// GELU, erf form, in two associations.
// CHECK-LABEL: func.func @gelu(
// CHECK-SAME: %[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[G0:.*]] = ge.gelu %[[X]] : tensor<8xf32>
// CHECK-NEXT: %[[G1:.*]] = ge.gelu %[[X]] : tensor<8xf32>
// CHECK-NEXT: return %[[G0]], %[[G1]]
// NOGELU-LABEL: func.func @gelu(
// NOGELU-NOT: ge.gelu
// NOGELU: return
func.func @gelu(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %sqrt2 = ge.constant dense<1.41421354> : tensor<f32>
  %isqrt2 = ge.constant dense<0.707106769> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  %t = ge.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = ge.erf %t : tensor<8xf32>
  %p = ge.add %e, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %xp = ge.mul %x, %p : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g0 = ge.mul %xp, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t1 = ge.mul %isqrt2, %x : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %e1 = ge.erf %t1 : tensor<8xf32>
  %p1 = ge.add %one, %e1 : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %hx = ge.mul %half, %x : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %g1 = ge.mul %hx, %p1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %g0, %g1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Negative: wrong constant (0.4 instead of 0.5), erf of another value, tanh instead of erf.
// CHECK-LABEL: func.func @not_gelu(
// CHECK-NOT: ge.gelu
// CHECK: return
func.func @not_gelu(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %sqrt2 = ge.constant dense<1.41421354> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  %bad = ge.constant dense<0.4> : tensor<f32>
  %t = ge.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = ge.erf %t : tensor<8xf32>
  %p = ge.add %e, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %xp = ge.mul %x, %p : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g0 = ge.mul %xp, %bad : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t1 = ge.div %y, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e1 = ge.erf %t1 : tensor<8xf32>
  %p1 = ge.add %e1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %xp1 = ge.mul %x, %p1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g1 = ge.mul %xp1, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t2 = ge.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e2 = ge.tanh %t2 : tensor<8xf32>
  %p2 = ge.add %e2, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %xp2 = ge.mul %x, %p2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g2 = ge.mul %xp2, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g0, %g1, %g2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// RMS norm as torch exports LLaMA's: pow 2, mean, add eps, sqrt, reciprocal,
// mul by x, mul by the weight.
// CHECK-LABEL: func.func @rms_norm_reciprocal(
// CHECK-SAME: %[[X:.*]]: tensor<1x5x8xf32>, %[[W:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.rms_norm %[[X]], %[[W]] : (tensor<1x5x8xf32>, tensor<8xf32>) -> tensor<1x5x8xf32>
// CHECK-NEXT: return %[[R]]
// NORMS-LABEL: func.func @rms_norm_reciprocal(
// NORMS-NOT: ge.rms_norm
// NORMS: ge.reciprocal
func.func @rms_norm_reciprocal(%x: tensor<1x5x8xf32>, %w: tensor<8xf32>) -> tensor<1x5x8xf32> {
  %two = ge.constant dense<2.0> : tensor<f32>
  %eps = ge.constant dense<1.0e-6> : tensor<f32>
  %sq = ge.pow %x, %two : (tensor<1x5x8xf32>, tensor<f32>) -> tensor<1x5x8xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: 2>} : (tensor<1x5x8xf32>) -> tensor<1x5x1xf32>
  %ve = ge.add %v, %eps : (tensor<1x5x1xf32>, tensor<f32>) -> tensor<1x5x1xf32>
  %s = ge.sqrt %ve : tensor<1x5x1xf32>
  %r = ge.reciprocal %s : tensor<1x5x1xf32>
  %n = ge.mul %x, %r : (tensor<1x5x8xf32>, tensor<1x5x1xf32>) -> tensor<1x5x8xf32>
  %y = ge.mul %n, %w : (tensor<1x5x8xf32>, tensor<8xf32>) -> tensor<1x5x8xf32>
  return %y : tensor<1x5x8xf32>
}

// -----

// x * x, rsqrt, no weight: the scale is ones; x / sqrt(...) likewise.
// CHECK-LABEL: func.func @rms_norm_rsqrt_and_div(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[ONES:.*]] = ge.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK: ge.rms_norm %[[X]], %[[ONES]] {epsilon = 9.99999974E-6 : f32} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: ge.rms_norm %[[X]], %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: ge.sqrt
// CHECK-NOT: ge.rsqrt
func.func @rms_norm_rsqrt_and_div(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %eps = ge.constant dense<1.0e-5> : tensor<f32>
  %sq = ge.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: -1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = ge.add %eps, %v : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %r = ge.rsqrt %ve : tensor<4x1xf32>
  %n = ge.mul %r, %x : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq2 = ge.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %v2 = ge.reduce_mean %sq2 {axes = array<i64: -1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve2 = ge.add %v2, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s2 = ge.sqrt %ve2 : tensor<4x1xf32>
  %n2 = ge.div %x, %s2 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %n, %n2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Not an RMS norm: the mean is over a leading axis; the squared value is not
// the normalized one; the statistics are used elsewhere too.
// CHECK-LABEL: func.func @not_rms_norm(
// CHECK-NOT: ge.rms_norm
// CHECK: return
func.func @not_rms_norm(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) {
  %eps = ge.constant dense<1.0e-5> : tensor<f32>
  %sq = ge.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %sq {axes = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %ve = ge.add %v, %eps : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>
  %r = ge.rsqrt %ve : tensor<1x8xf32>
  %n = ge.mul %x, %r : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %sqy = ge.mul %y, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %vy = ge.reduce_mean %sqy {axes = array<i64: -1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %vye = ge.add %vy, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %ry = ge.rsqrt %vye : tensor<4x1xf32>
  %n2 = ge.mul %x, %ry : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %sq3 = ge.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %v3 = ge.reduce_mean %sq3 {axes = array<i64: -1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %v3e = ge.add %v3, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %r3 = ge.rsqrt %v3e : tensor<4x1xf32>
  %n3 = ge.mul %x, %r3 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %n, %n2, %n3, %v3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>
}
