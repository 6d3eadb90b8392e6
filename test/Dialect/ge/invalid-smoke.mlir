// RUN: ge-opt %s --split-input-file --verify-diagnostics

func.func @transpose_not_perm(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'ge.transpose' op attribute 'perm' [0, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{'ge.transpose' op failed to infer returned types}}
  %0 = ge.transpose %a {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @add_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{operands 'lhs' and 'rhs' are not broadcast-compatible: [2, 3] vs [4] (result dimension 1: 3 vs 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
