// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-lower-to-ascendc)' 2>&1 | FileCheck %s

// Issue 11: a fused Pow -> Tanh -> Relu chain whose pow has a tensor
// exponent is refused; the error names (and points at) the pow, not the
// relu that ends the chain.
// CHECK: ge-lower-to-ascendc-fused-chain-error.mlir:[[# @LINE + 3]]:8: error: ge-lower-to-ascendc: cannot lower 'ge.pow' to ascendc: pow with an exponent other than 0.5, 1 or 2 (fused into the elementwise chain ending at 'ge.relu')
// CHECK-NOT: cannot lower 'ge.relu'
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = ge.pow %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = ge.tanh %0 : tensor<4x8xf32>
  %2 = ge.relu %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
