// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-verify-graph)'
// RUN: not ge-opt %s --ge-verify-graph=require-static-shapes=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATIC

// A well-formed graph passes.
func.func @ok(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = ge.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Every problem is reported, not only the first.
func.func @foreign_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{ge-verify-graph: op 'arith.addf' is not in the allowed dialects (func, ge)}}
  %0 = arith.addf %x, %x : tensor<4xf32>
  // expected-error @+1 {{ge-verify-graph: op 'math.exp' is not in the allowed dialects (func, ge)}}
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// expected-error @+1 {{ge-verify-graph: argument #0 has type memref<4xf32>, expected a ranked tensor}}
func.func @memref_arg(%m: memref<4xf32>) -> tensor<4xf32> {
  %c = ge.constant dense<0.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @no_outputs(%x: tensor<4xf32>) {
  // expected-error @+1 {{ge-verify-graph: graph has no outputs}}
  return
}

// -----

// expected-error @+1 {{ge-verify-graph: argument #0 has unsupported element type complex<f32>}}
func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %x : tensor<4xcomplex<f32>>
}

// -----

// STATIC: error: ge-verify-graph: argument #0 has dynamic shape tensor<?x4xf32> (require-static-shapes)
// STATIC: error: ge-verify-graph: result #0 of 'ge.relu' has dynamic shape tensor<?x4xf32> (require-static-shapes)
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = ge.relu %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
