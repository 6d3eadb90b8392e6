// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{tile-m=-2})' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=pentium})' 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3})' 2>&1 | FileCheck %s --check-prefix=RECORD

// The pass's options: a register tile that is not positive and an unknown CPU are refused; so is a
// recorded path that is no path of its op (RECORD).

// ERR: error: ge-apply-codegen-strategy: the matmul register tile must be positive, got -2x
// CPU: error: ge-apply-codegen-strategy: unknown JIT CPU 'pentium'
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// A record that names no path of the op is refused.
// RECORD: error: ge-apply-codegen-strategy: the CPU codegen strategy failed: linalg.matmul records ge.cpu_strategy = 'winograd', which is no path of it (packed_panels, tiled, none)
func.func @bogus(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul {ge.cpu_strategy = "winograd"} ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
