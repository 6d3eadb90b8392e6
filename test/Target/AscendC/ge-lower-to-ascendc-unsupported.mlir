// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-ascendc)' 2>&1 | FileCheck %s

// Ops without an Ascend C lowering fail the pass, naming the op and why.
// CHECK: error: {{.*}}ge-lower-to-ascendc: cannot lower 'ge.cumsum' to ascendc: no ascendc lowering for this op
func.func @cumsum(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = ge.cumsum %x {axis = 1 : i64} : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A run-time condition for Where: comparisons have no lowering yet (Compare needs counts of whole
// 256-byte repeats); Where takes compile-time masks.
// CHECK: error: {{.*}}cannot lower 'ge.greater' to ascendc: no ascendc lowering for this op
func.func @where(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = ge.greater %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %0 = ge.where %c, %x, %y : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Only conversions the vector Cast documents (Atlas A2 table): int8 goes to half only.
// CHECK: error: {{.*}}cannot lower 'ge.cast' to ascendc: cast i8 -> f32 (not a conversion the vector Cast documents)
func.func @cast(%x: tensor<4x8xi8>) -> tensor<4x8xf32> {
  %0 = ge.cast %x : tensor<4x8xi8> to tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Grouped convolutions other than depthwise.
// CHECK: error: {{.*}}cannot lower 'ge.conv2d' to ascendc: grouped conv2d other than depthwise with one filter per channel (groups=2, 8 -> 8 channels)
func.func @grouped(%x: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %w = ge.constant dense<1.0> : tensor<8x4x1x1xf32>
  %0 = ge.conv2d %x, %w {groups = 2 : i64, data_format = #ge.format<NHWC>} : (tensor<1x4x4x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// Pooling combines channel vectors: the channels must fill 32-byte blocks.
// CHECK: error: {{.*}}cannot lower 'ge.max_pool2d' to ascendc: NHWC pooling needs channels in multiples of 8 (2 given)
func.func @pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Broadcasting that is neither along rows nor along columns.
// CHECK: error: {{.*}}cannot lower 'ge.add' to ascendc: broadcast operand of shape [4, 1, 3] against [4, 2, 3]
func.func @bcast(%x: tensor<4x2x3xf32>, %y: tensor<4x1x3xf32>) -> tensor<4x2x3xf32> {
  %0 = ge.add %x, %y : (tensor<4x2x3xf32>, tensor<4x1x3xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// CHECK: error: {{.*}}ge-lower-to-ascendc: the ascendc target needs static shapes; the function has a tensor<?x8xf32> argument or result
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = ge.relu %x : tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
