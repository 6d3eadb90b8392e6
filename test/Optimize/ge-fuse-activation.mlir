// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-activation)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-activation{activations=relu,sigmoid})' | FileCheck %s --check-prefix=ONLY

// Every activation with an exact #ge.act counterpart fuses into conv2d.
// CHECK-LABEL: func.func @conv_acts(
// CHECK-NEXT: %[[W:.*]] = ge.constant
// CHECK-NEXT: %[[R0:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<relu>}
// CHECK-NEXT: %[[R1:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<relu6>}
// CHECK-NEXT: %[[R2:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<leaky_relu>, activation_alpha = 2.000000e-01 : f32}
// CHECK-NEXT: %[[R3:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<sigmoid>}
// CHECK-NEXT: %[[R4:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<tanh>}
// CHECK-NEXT: %[[R5:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<gelu>}
// CHECK-NEXT: %[[R6:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<silu>}
// CHECK-NEXT: %[[R7:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<hard_sigmoid>, activation_alpha = 2.500000e-01 : f32}
// CHECK-NEXT: %[[R8:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<hard_swish>}
// CHECK-NEXT: %[[R9:.*]] = ge.conv2d %{{.*}}, %[[W]] {activation = #ge.act<relu>}
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]], %[[R8]], %[[R9]]
// ONLY-LABEL: func.func @conv_acts(
// ONLY: ge.conv2d %{{.*}} {activation = #ge.act<relu>}
// ONLY-NEXT: ge.conv2d
// ONLY-NEXT: ge.clip
// ONLY-NEXT: ge.conv2d
// ONLY-NEXT: ge.leaky_relu
// ONLY-NEXT: ge.conv2d %{{.*}} {activation = #ge.act<sigmoid>}
// ONLY-NEXT: ge.conv2d
// ONLY-NEXT: ge.tanh
func.func @conv_acts(%x: tensor<1x2x3x3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>) {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %c0 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y0 = ge.relu %c0 : tensor<1x3x3x3xf32>
  %c1 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y1 = ge.clip %c1 {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x3x3x3xf32>
  %c2 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y2 = ge.leaky_relu %c2 {alpha = 0.2 : f32} : tensor<1x3x3x3xf32>
  %c3 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y3 = ge.sigmoid %c3 : tensor<1x3x3x3xf32>
  %c4 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y4 = ge.tanh %c4 : tensor<1x3x3x3xf32>
  %c5 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y5 = ge.gelu %c5 : tensor<1x3x3x3xf32>
  %c6 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y6 = ge.silu %c6 : tensor<1x3x3x3xf32>
  %c7 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y7 = ge.hard_sigmoid %c7 {alpha = 0.25 : f32} : tensor<1x3x3x3xf32>
  %c8 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y8 = ge.hard_swish %c8 : tensor<1x3x3x3xf32>
  %c9 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y9 = ge.clip %c9 {min = 0.0 : f64} : tensor<1x3x3x3xf32>
  return %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9 : tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>
}

// -----

// matmul and gemm (keeping their other attributes and bias).
// CHECK-LABEL: func.func @matmul_gemm(
// CHECK-NEXT: %[[M:.*]] = ge.matmul %{{.*}}, %{{.*}}, %{{.*}} {activation = #ge.act<relu>}
// CHECK-NEXT: %[[G:.*]] = ge.gemm %{{.*}}, %{{.*}} {activation = #ge.act<gelu>, alpha = 2.000000e+00 : f32, trans_b = true}
// CHECK-NEXT: return %[[M]], %[[G]]
func.func @matmul_gemm(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %bias: tensor<3xf32>, %bt: tensor<3x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %m = ge.matmul %a, %b, %bias : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = ge.relu %m : tensor<2x3xf32>
  %g = ge.gemm %a, %bt {alpha = 2.0 : f32, trans_b = true} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %y2 = ge.gelu %g : tensor<2x3xf32>
  return %y, %y2 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Negative: tanh-approximate gelu, hard_sigmoid with beta != 0.5, clip other
// than [0, 6] / [0, inf), a producer with an activation already, a producer
// with two users, an activation on a non-producer.
// CHECK-LABEL: func.func @no_fusion(
// CHECK-NEXT: %[[W:.*]] = ge.constant
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: ge.gelu %{{.*}} {tanh_approx = true}
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: ge.hard_sigmoid
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: ge.clip
// CHECK-NEXT: ge.conv2d %{{.*}} {activation = #ge.act<relu>}
// CHECK-NEXT: ge.sigmoid
// CHECK-NEXT: %[[C:.*]] = ge.conv2d
// CHECK-NEXT: ge.relu %[[C]]
// CHECK-NEXT: ge.relu %arg0
// CHECK-NEXT: return
func.func @no_fusion(%x: tensor<1x2x3x3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %c0 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y0 = ge.gelu %c0 {tanh_approx = true} : tensor<1x3x3x3xf32>
  %c1 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y1 = ge.hard_sigmoid %c1 {alpha = 0.2 : f32, beta = 0.6 : f32} : tensor<1x3x3x3xf32>
  %c2 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y2 = ge.clip %c2 {min = -1.0 : f64, max = 6.0 : f64} : tensor<1x3x3x3xf32>
  %c3 = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y3 = ge.sigmoid %c3 : tensor<1x3x3x3xf32>
  %c4 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y4 = ge.relu %c4 : tensor<1x3x3x3xf32>
  %y5 = ge.relu %x : tensor<1x2x3x3xf32>
  return %y0, %y1, %y2, %y3, %y4, %c4, %y5 : tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

// Integer matmul: relu fuses, relu6 (clip) does not (the fused relu6 is float only).
// CHECK-LABEL: func.func @int_matmul(
// CHECK-NEXT: ge.matmul %{{.*}} {activation = #ge.act<relu>}
// CHECK-NEXT: ge.matmul
// CHECK-NEXT: ge.clip
// CHECK-NEXT: return
func.func @int_matmul(%a: tensor<2x4xi32>, %b: tensor<4x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %m = ge.matmul %a, %b : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi32>
  %y = ge.relu %m : tensor<2x3xi32>
  %m2 = ge.matmul %a, %b : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi32>
  %y2 = ge.clip %m2 {min = 0.0 : f64, max = 6.0 : f64} : tensor<2x3xi32>
  return %y, %y2 : tensor<2x3xi32>, tensor<2x3xi32>
}
