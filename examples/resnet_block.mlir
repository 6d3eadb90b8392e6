// A ResNet basic block as an importer would emit it: conv + batch_norm + relu
// twice, a residual add, and the leftovers of framework export (identity,
// a transpose round trip, an f32 -> f64 -> f32 cast pair, a dead branch).
// The demo pipeline verifies the graph and canonicalizes it:
//   ge-opt examples/resnet_block.mlir \
//     --pass-pipeline='builtin.module(ge-verify-graph, ge-canonicalize)' --mlir-pass-statistics
func.func @resnet_block(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %w1 = ge.constant dense<0.01> : tensor<64x64x3x3xf32>
  %w2 = ge.constant dense<0.02> : tensor<64x64x3x3xf32>
  %g = ge.constant dense<1.0> : tensor<64xf32>
  %b = ge.constant dense<0.0> : tensor<64xf32>
  %in = ge.identity %x : tensor<1x64x56x56xf32>
  %c1 = ge.conv2d %in, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  %n1 = ge.batch_norm %c1, %g, %b, %b, %g : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r1 = ge.relu %n1 : tensor<1x64x56x56xf32>
  %t1 = ge.transpose %r1 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x64x56x56xf32>) -> tensor<1x56x56x64xf32>
  %t2 = ge.transpose %t1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x56x56x64xf32>) -> tensor<1x64x56x56xf32>
  %c2 = ge.conv2d %t2, %w2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  %n2 = ge.batch_norm %c2, %g, %b, %b, %g : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %wide = ge.cast %n2 : tensor<1x64x56x56xf32> to tensor<1x64x56x56xf64>
  %back = ge.cast %wide : tensor<1x64x56x56xf64> to tensor<1x64x56x56xf32>
  %sum = ge.add %back, %x : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %out = ge.relu %sum : tensor<1x64x56x56xf32>
  %dead = ge.sigmoid %out : tensor<1x64x56x56xf32>
  return %out : tensor<1x64x56x56xf32>
}
