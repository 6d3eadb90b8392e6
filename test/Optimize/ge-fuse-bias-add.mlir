// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-bias-add)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-bias-add{producers=matmul})' | FileCheck %s --check-prefix=MM

// Per-channel constants ([C,1,1], [1,C,1,1]) become the conv bias; an existing
// constant bias is summed.
// CHECK-LABEL: func.func @conv_bias(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK: %[[B:.*]] = ge.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[X]], %{{.*}}, %[[B]] : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
// CHECK: %[[B2:.*]] = ge.constant dense<[1.500000e+00, 2.500000e+00, 3.500000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[C2:.*]] = ge.conv2d %[[X]], %{{.*}}, %[[B2]]
// CHECK-NEXT: return %[[C]], %[[C2]]
// MM-LABEL: func.func @conv_bias(
// MM: ge.conv2d
// MM-NEXT: ge.add
func.func @conv_bias(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %k = ge.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %k4 = ge.constant dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf32>
  %cb = ge.constant dense<0.5> : tensor<3xf32>
  %c = ge.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = ge.add %c, %k : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %c2 = ge.conv2d %x, %w, %cb : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %y2 = ge.add %k4, %c2 : (tensor<1x3x1x1xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y, %y2 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

// NHWC: a [C] constant is per channel.
// CHECK-LABEL: func.func @conv_bias_nhwc(
// CHECK: %[[B:.*]] = ge.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %{{.*}}, %{{.*}}, %[[B]] {data_format = #ge.format<NHWC>}
// CHECK-NEXT: return %[[C]]
func.func @conv_bias_nhwc(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %k = ge.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %c = ge.conv2d %x, %w {data_format = #ge.format<NHWC>} : (tensor<1x4x4x2xf32>, tensor<3x2x1x1xf32>) -> tensor<1x4x4x3xf32>
  %y = ge.add %c, %k : (tensor<1x4x4x3xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

// matmul + [N] and gemm + [1,N] (gemm gets beta = 1).
// CHECK-LABEL: func.func @matmul_gemm_bias(
// CHECK-SAME: %[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<4x3xf32>)
// CHECK-NEXT: %[[K:.*]] = ge.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[K2:.*]] = ge.constant
// CHECK-NEXT: %[[M:.*]] = ge.matmul %[[A]], %[[B]], %[[K]] : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[G:.*]] = ge.gemm %[[A]], %[[B]], %[[K2]] : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[M]], %[[G]]
// MM-LABEL: func.func @matmul_gemm_bias(
// MM: ge.matmul
// MM-NEXT: ge.gemm
// MM-NEXT: ge.add
// MM-NEXT: return
func.func @matmul_gemm_bias(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %k = ge.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %k2 = ge.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %m = ge.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = ge.add %m, %k : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %g = ge.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y2 = ge.add %g, %k2 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %y, %y2 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Negative: NCHW + [W]-shaped constant (broadcasts along W, not channels),
// a constant varying over H, a non-constant addend, a conv with an activation,
// a conv with another user.
// CHECK-LABEL: func.func @not_a_bias(
// CHECK: ge.conv2d
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.conv2d
// CHECK-SAME: #ge.act<relu>
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: ge.add
// CHECK-NEXT: return
func.func @not_a_bias(%x: tensor<1x2x3x3xf32>, %z: tensor<3x1x1xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>) {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %kw = ge.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %kh = ge.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %k = ge.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %c0 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y0 = ge.add %c0, %kw : (tensor<1x3x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
  %c1 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y1 = ge.add %c1, %kh : (tensor<1x3x3x3xf32>, tensor<3x1xf32>) -> tensor<1x3x3x3xf32>
  %c2 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y2 = ge.add %c2, %z : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
  %c3 = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y3 = ge.add %c3, %k : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
  %c4 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %y4 = ge.add %c4, %k : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
  return %y0, %y1, %y2, %y3, %y4, %c4 : tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>
}

// -----

// Negative: matmul + a constant varying along M ([M,1]); gemm with beta != 1 and a C.
// CHECK-LABEL: func.func @matmul_not_a_bias(
// CHECK: ge.matmul
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.gemm
// CHECK-NEXT: ge.add
// CHECK-NEXT: return
func.func @matmul_not_a_bias(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %km = ge.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %k = ge.constant dense<1.0> : tensor<3xf32>
  %m = ge.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = ge.add %m, %km : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %g = ge.gemm %a, %b, %k {beta = 2.0 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y2 = ge.add %g, %k : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y, %y2 : tensor<2x3xf32>, tensor<2x3xf32>
}
