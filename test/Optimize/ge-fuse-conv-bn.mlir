// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-conv-bn)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-conv-bn{fold-weights=false})' | FileCheck %s --check-prefix=OPS
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-conv-bn{enable=false})' | FileCheck %s --check-prefix=OFF

// f = scale / sqrt(var + eps) = [0.5, 2, 0.125]; W' = W * f; b' = (0 - mean) * f + bias.
// CHECK-LABEL: func.func @conv_bn(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NEXT: %[[W:.*]] = ge.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}1.000000e+00]]], {{\[\[\[}}6.000000e+00]], {{\[\[}}8.000000e+00]]], {{\[\[\[}}6.250000e-01]], {{\[\[}}7.500000e-01]]]]> : tensor<3x2x1x1xf32>
// CHECK-NEXT: %[[B:.*]] = ge.constant dense<[-5.000000e-01, 1.000000e+00, -1.250000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[X]], %[[W]], %[[B]] : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT: return %[[C]]
// OPS-LABEL: func.func @conv_bn(
// OPS: %[[F:.*]] = ge.constant dense<[{{\[\[\[}}5.000000e-01]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.250000e-01]]]]> : tensor<3x1x1x1xf32>
// OPS-NEXT: %[[W:.*]] = ge.mul %{{.*}}, %[[F]]
// OPS-NEXT: %[[B:.*]] = ge.constant dense<[-5.000000e-01, 1.000000e+00, -1.250000e+00]>
// OPS-NEXT: ge.conv2d %{{.*}}, %[[W]], %[[B]]
// OPS-NEXT: return
// OFF-LABEL: func.func @conv_bn(
// OFF: ge.conv2d
// OFF-NEXT: ge.batch_norm
func.func @conv_bn(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = ge.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]], [[[5.0]], [[6.0]]]]> : tensor<3x2x1x1xf32>
  %s = ge.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %b = ge.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %m = ge.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %v = ge.constant dense<[3.0, 0.0, 15.0]> : tensor<3xf32>
  %c = ge.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = ge.batch_norm %c, %s, %b, %m, %v {epsilon = 1.0 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// Existing conv bias, dense_resource filter and variance (read through the C API), NHWC.
// b' = ([1, 1, 1] - mean) * f + bias = [0, 3, -1.125]
// CHECK-LABEL: func.func @conv_bias_bn_resource_nhwc(
// CHECK-NEXT: %[[W:.*]] = ge.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}1.000000e+00]]], {{\[\[\[}}6.000000e+00]], {{\[\[}}8.000000e+00]]], {{\[\[\[}}6.250000e-01]], {{\[\[}}7.500000e-01]]]]> : tensor<3x2x1x1xf32>
// CHECK-NEXT: %[[B:.*]] = ge.constant dense<[0.000000e+00, 3.000000e+00, -1.125000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %{{.*}}, %[[W]], %[[B]] {data_format = #ge.format<NHWC>}
// CHECK-NEXT: return %[[C]]
func.func @conv_bias_bn_resource_nhwc(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
  %w = ge.constant dense_resource<conv_w> : tensor<3x2x1x1xf32>
  %cb = ge.constant dense<1.0> : tensor<3xf32>
  %s = ge.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %b = ge.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %m = ge.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %v = ge.constant dense_resource<bn_var> : tensor<3xf32>
  %c = ge.conv2d %x, %w, %cb {data_format = #ge.format<NHWC>} : (tensor<1x4x4x2xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  %y = ge.batch_norm %c, %s, %b, %m, %v {epsilon = 1.0 : f32, data_format = #ge.format<NHWC>} : (tensor<1x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      conv_w: "0x040000000000803F0000004000004040000080400000A0400000C040",
      bn_var: "0x04000000000040400000000000007041"
    }
  }
#-}

// -----

// f64 stays f64.
// CHECK-LABEL: func.func @conv_bn_f64(
// CHECK-NEXT: ge.constant dense<2.000000e+00> : tensor<1x1x1x1xf64>
// CHECK-NEXT: ge.constant dense<-1.000000e+00> : tensor<1xf64>
// CHECK-NEXT: ge.conv2d
// CHECK-NEXT: return
func.func @conv_bn_f64(%x: tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64> {
  %w = ge.constant dense<1.0> : tensor<1x1x1x1xf64>
  %s = ge.constant dense<4.0> : tensor<1xf64>
  %b = ge.constant dense<1.0> : tensor<1xf64>
  %m = ge.constant dense<1.0> : tensor<1xf64>
  %v = ge.constant dense<3.0> : tensor<1xf64>
  %c = ge.conv2d %x, %w : (tensor<1x1x2x2xf64>, tensor<1x1x1x1xf64>) -> tensor<1x1x2x2xf64>
  %y = ge.batch_norm %c, %s, %b, %m, %v {epsilon = 1.0 : f32} : (tensor<1x1x2x2xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<1x1x2x2xf64>
  return %y : tensor<1x1x2x2xf64>
}

// -----

// Negative: statistics that are not constants.
// CHECK-LABEL: func.func @bn_dynamic_stats(
// CHECK: ge.conv2d
// CHECK-NEXT: ge.batch_norm
// CHECK-NEXT: return
func.func @bn_dynamic_stats(%x: tensor<1x2x4x4xf32>, %v: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %s = ge.constant dense<1.0> : tensor<3xf32>
  %b = ge.constant dense<0.0> : tensor<3xf32>
  %m = ge.constant dense<0.0> : tensor<3xf32>
  %c = ge.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = ge.batch_norm %c, %s, %b, %m, %v : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// Negative: the conv result is used elsewhere too.
// CHECK-LABEL: func.func @conv_two_users(
// CHECK: %[[C:.*]] = ge.conv2d
// CHECK-NEXT: %[[Y:.*]] = ge.batch_norm %[[C]]
// CHECK-NEXT: return %[[Y]], %[[C]]
func.func @conv_two_users(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = ge.constant dense<1.0> : tensor<3x2x1x1xf32>
  %s = ge.constant dense<1.0> : tensor<3xf32>
  %b = ge.constant dense<0.0> : tensor<3xf32>
  %m = ge.constant dense<0.0> : tensor<3xf32>
  %v = ge.constant dense<1.0> : tensor<3xf32>
  %c = ge.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = ge.batch_norm %c, %s, %b, %m, %v : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y, %c : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

// Negative: conv NCHW but batch norm NHWC (different channel dims), and a conv
// with a fused activation.
// CHECK-LABEL: func.func @format_mismatch_and_activation(
// CHECK: ge.conv2d
// CHECK-NEXT: ge.batch_norm
// CHECK-NEXT: ge.conv2d
// CHECK-SAME: #ge.act<relu>
// CHECK-NEXT: ge.batch_norm
// CHECK-NEXT: return
func.func @format_mismatch_and_activation(%x: tensor<1x3x4x3xf32>) -> (tensor<1x3x4x3xf32>, tensor<1x3x4x3xf32>) {
  %w = ge.constant dense<1.0> : tensor<3x3x1x1xf32>
  %s = ge.constant dense<1.0> : tensor<3xf32>
  %b = ge.constant dense<0.0> : tensor<3xf32>
  %m = ge.constant dense<0.0> : tensor<3xf32>
  %v = ge.constant dense<1.0> : tensor<3xf32>
  %c = ge.conv2d %x, %w : (tensor<1x3x4x3xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x4x3xf32>
  %y = ge.batch_norm %c, %s, %b, %m, %v {data_format = #ge.format<NHWC>} : (tensor<1x3x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x3xf32>
  %c2 = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x3x4x3xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x4x3xf32>
  %y2 = ge.batch_norm %c2, %s, %b, %m, %v : (tensor<1x3x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x3xf32>
  return %y, %y2 : tensor<1x3x4x3xf32>, tensor<1x3x4x3xf32>
}
