// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-decompose-gradient-ops)' | FileCheck %s

// Stride 2 over a 10-row input: the forward windows never read row 9, so the
// transposed convolution adds it as output_padding (a zero gradient).
// CHECK-LABEL: func.func @backprop_input_floor(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<16x8x3x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<1x16x4x4xf32>) -> tensor<1x8x10x10xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG1]], %[[ARG0]] {output_padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x4x4xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x10x10xf32>
// CHECK-NEXT: return %[[V0]] : tensor<1x8x10x10xf32>
// CHECK-NEXT: }
func.func @backprop_input_floor(%w: tensor<16x8x3x3xf32>, %dy: tensor<1x16x4x4xf32>) -> tensor<1x8x10x10xf32> {
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 10, 10>, strides = array<i64: 2, 2>} : (tensor<16x8x3x3xf32>, tensor<1x16x4x4xf32>) -> tensor<1x8x10x10xf32>
  return %0 : tensor<1x8x10x10xf32>
}

// Asymmetric pads, dilation and groups carry over; the end pads are trimmed to
// what the windows reach (input 9x8, pads [1, 0, 2, 1], dilation 2: OH = 4, OW = 2).
// CHECK-LABEL: func.func @backprop_input_groups(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<6x2x3x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<2x6x4x2xf32>) -> tensor<2x4x9x8xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG1]], %[[ARG0]] {dilations = array<i64: 2, 2>, groups = 2 : i64, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 3>} : (tensor<2x6x4x2xf32>, tensor<6x2x3x3xf32>) -> tensor<2x4x9x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x4x9x8xf32>
// CHECK-NEXT: }
func.func @backprop_input_groups(%w: tensor<6x2x3x3xf32>, %dy: tensor<2x6x4x2xf32>) -> tensor<2x4x9x8xf32> {
  %0 = ge.conv2d_backprop_input %w, %dy {dilations = array<i64: 2, 2>, groups = 2 : i64, input_size = array<i64: 2, 4, 9, 8>, pads = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 3>} : (tensor<6x2x3x3xf32>, tensor<2x6x4x2xf32>) -> tensor<2x4x9x8xf32>
  return %0 : tensor<2x4x9x8xf32>
}

// Batch and channels swap roles, stride and dilation too; the taps past the
// kernel (row 9 of the input is never read) are sliced off.
// CHECK-LABEL: func.func @backprop_filter_floor(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8x10x10xf32>, %[[ARG1:[^ ,:)]+]]: tensor<2x16x4x4xf32>) -> tensor<16x8x3x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.transpose %[[ARG0]] {perm = array<i64: 1, 0, 2, 3>} : (tensor<2x8x10x10xf32>) -> tensor<8x2x10x10xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[ARG1]] {perm = array<i64: 1, 0, 2, 3>} : (tensor<2x16x4x4xf32>) -> tensor<16x2x4x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.conv2d %[[V0]], %[[V1]] {dilations = array<i64: 2, 2>} : (tensor<8x2x10x10xf32>, tensor<16x2x4x4xf32>) -> tensor<8x16x4x4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.transpose %[[V2]] {perm = array<i64: 1, 0, 2, 3>} : (tensor<8x16x4x4xf32>) -> tensor<16x8x4x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.slice %[[V3]] {axes = array<i64: 2, 3>, ends = array<i64: 3, 3>, starts = array<i64: 0, 0>} : (tensor<16x8x4x4xf32>) -> tensor<16x8x3x3xf32>
// CHECK-NEXT: return %[[V4]] : tensor<16x8x3x3xf32>
// CHECK-NEXT: }
func.func @backprop_filter_floor(%x: tensor<2x8x10x10xf32>, %dy: tensor<2x16x4x4xf32>) -> tensor<16x8x3x3xf32> {
  %0 = ge.conv2d_backprop_filter %x, %dy {filter_size = array<i64: 16, 8, 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x8x10x10xf32>, tensor<2x16x4x4xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// Groups: each group's input channels become the batch of its own group of
// input channels, [C_in/g, g*N, H, W], and the conv2d keeps groups = 2.
// CHECK-LABEL: func.func @backprop_filter_groups(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4x7x7xf32>, %[[ARG1:[^ ,:)]+]]: tensor<3x6x7x7xf32>) -> tensor<6x2x3x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<3x4x7x7xf32> to tensor<3x2x2x7x7xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 2, 1, 0, 3, 4>} : (tensor<3x2x2x7x7xf32>) -> tensor<2x2x3x7x7xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<2x2x3x7x7xf32> to tensor<2x6x7x7xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.transpose %[[ARG1]] {perm = array<i64: 1, 0, 2, 3>} : (tensor<3x6x7x7xf32>) -> tensor<6x3x7x7xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.conv2d %[[V2]], %[[V3]] {groups = 2 : i64, pads = array<i64: 1, 2, 1, 2>, strides = array<i64: 1, 2>} : (tensor<2x6x7x7xf32>, tensor<6x3x7x7xf32>) -> tensor<2x6x3x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.transpose %[[V4]] {perm = array<i64: 1, 0, 2, 3>} : (tensor<2x6x3x3xf32>) -> tensor<6x2x3x3xf32>
// CHECK-NEXT: return %[[V5]] : tensor<6x2x3x3xf32>
// CHECK-NEXT: }
func.func @backprop_filter_groups(%x: tensor<3x4x7x7xf32>, %dy: tensor<3x6x7x7xf32>) -> tensor<6x2x3x3xf32> {
  %0 = ge.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 2>, filter_size = array<i64: 6, 2, 3, 3>, groups = 2 : i64, pads = array<i64: 1, 2, 1, 2>} : (tensor<3x4x7x7xf32>, tensor<3x6x7x7xf32>) -> tensor<6x2x3x3xf32>
  return %0 : tensor<6x2x3x3xf32>
}

// ceil_mode: the last window (rows 4..5) runs past the 5-row input; with
// count_include_pad and no pads it still counts only row 4, so its divisor is 2 (corner 1).
// CHECK-LABEL: func.func @avg_pool_grad_ceil(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
// CHECK-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[\[\[}}4.000000e+00, 4.000000e+00, 2.000000e+00], [4.000000e+00, 4.000000e+00, 2.000000e+00], [2.000000e+00, 2.000000e+00, 1.000000e+00]]]]> : tensor<1x1x3x3xf32>
// CHECK-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<1x2x3x3xf32> to tensor<2x1x3x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.div %[[V0]], %[[CST]] : (tensor<2x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<2x1x3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.conv_transpose2d %[[V1]], %[[CST_0]] {pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<2x1x5x5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.reshape %[[V2]] : tensor<2x1x5x5xf32> to tensor<1x2x5x5xf32>
// CHECK-NEXT: return %[[V3]] : tensor<1x2x5x5xf32>
// CHECK-NEXT: }
func.func @avg_pool_grad_ceil(%dy: tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %0 = ge.avg_pool_grad %dy {ceil_mode = true, count_include_pad = true, input_size = array<i64: 1, 2, 5, 5>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// Without count_include_pad the border windows divide by the input taps only.
// CHECK-LABEL: func.func @avg_pool_grad_pads(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
// CHECK-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[\[\[}}4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 9.000000e+00, 6.000000e+00], [6.000000e+00, 9.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00]]]]> : tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<1x1x3x3xf32>
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.div %[[ARG0]], %[[CST]] : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.conv_transpose2d %[[V0]], %[[CST_0]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<1x1x4x4xf32>
// CHECK-NEXT: }
func.func @avg_pool_grad_pads(%dy: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %0 = ge.avg_pool_grad %dy {input_size = array<i64: 1, 1, 4, 4>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}


// 16-bit floats: divided and summed in f32 (as torch's opmath), rounded once.
// CHECK-LABEL: func.func @avg_pool_grad_f16(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x2x2xf16>) -> tensor<1x1x4x4xf16> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.cast %[[ARG0]] : tensor<1x1x2x2xf16> to tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<4.000000e+00> : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.div %[[V0]], %[[CST]] : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.conv_transpose2d %[[V1]], %[[CST_0]] {strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.cast %[[V2]] : tensor<1x1x4x4xf32> to tensor<1x1x4x4xf16>
// CHECK-NEXT: return %[[V3]] : tensor<1x1x4x4xf16>
// CHECK-NEXT: }
func.func @avg_pool_grad_f16(%dy: tensor<1x1x2x2xf16>) -> tensor<1x1x4x4xf16> {
  %0 = ge.avg_pool_grad %dy {input_size = array<i64: 1, 1, 4, 4>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf16>) -> tensor<1x1x4x4xf16>
  return %0 : tensor<1x1x4x4xf16>
}
