// Verifier diagnostics are the same under upstream mlir-opt.
// RUN: mlir-opt --load-dialect-plugin=%ge_plugin %s --verify-diagnostics

func.func @bad_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'filter' dimension 1 (3) times 'groups' (1) must equal the input channels (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
