// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-decompose-gradient-ops)'

// The rewrites need static operand shapes: a dynamic batch is refused, naming
// the op, rather than rewritten into ops the targets cannot size.
func.func @dynamic_batch(%w: tensor<16x8x3x3xf32>, %dy: tensor<?x16x4x4xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+1 {{ge-decompose-gradient-ops: ge.conv2d_backprop_input: operand 'out_backprop' of type tensor<?x16x4x4xf32> has dynamic dimensions; only static shapes decompose exactly into ge ops}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>, strides = array<i64: 2, 2>} : (tensor<16x8x3x3xf32>, tensor<?x16x4x4xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @dynamic_input(%x: tensor<2x8x?x9xf32>, %dy: tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32> {
  // expected-error @+1 {{ge-decompose-gradient-ops: ge.conv2d_backprop_filter: operand 'input' of type tensor<2x8x?x9xf32> has dynamic dimensions}}
  %0 = ge.conv2d_backprop_filter %x, %dy {filter_size = array<i64: 16, 8, 3, 3>} : (tensor<2x8x?x9xf32>, tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// -----

func.func @dynamic_pool(%dy: tensor<?x8x4x4xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+1 {{ge-decompose-gradient-ops: ge.avg_pool_grad: operand 'out_backprop' of type tensor<?x8x4x4xf32> has dynamic dimensions}}
  %0 = ge.avg_pool_grad %dy {input_size = array<i64: 1, 8, 9, 9>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x8x4x4xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}
