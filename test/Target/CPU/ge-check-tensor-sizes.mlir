// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-check-tensor-sizes{limit=1000})' | FileCheck %s
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-check-tensor-sizes{limit=1000 after="the CPU codegen strategy"})' 2>&1 | FileCheck %s --check-prefix=ERR

// Sizes within the limits: the IR is unchanged.
// CHECK-LABEL: func.func @fits(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<250xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1000000x1000xf32>
// CHECK-NEXT: return %[[C]], %[[E]]
func.func @fits() -> (tensor<250xf32>, tensor<1000000x1000xf32>) {
  %c = arith.constant dense<1.0> : tensor<250xf32>
  %e = tensor.empty() : tensor<1000000x1000xf32>
  return %c, %e : tensor<250xf32>, tensor<1000000x1000xf32>
}

// -----

// A constant is built whole at compile time: one above the limit is refused.
// ERR: ge-check-tensor-sizes.mlir:[[@LINE+3]]:8: error: ge-check-tensor-sizes: the CPU codegen strategy needs a tensor too large to hold: 'arith.constant' at {{.*}}:8 has tensor<251xf32> (1004 bytes, 0.0 GiB), more than the limit of 1000 bytes
func.func @big_constant() -> tensor<251xf32> {
  // expected-error @+1 {{needs a tensor too large to hold}}
  %c = arith.constant dense<1.0> : tensor<251xf32>
  return %c : tensor<251xf32>
}

// -----

// Any tensor whose byte size (not only element count) overflows int64 is refused (bufferization would abort on it).
// ERR: ge-check-tensor-sizes.mlir:[[@LINE+3]]:8: error: ge-check-tensor-sizes: the CPU codegen strategy creates a tensor too large to compile: 'tensor.empty' at {{.*}} produces tensor<2305843009213693952xf64> (18446744073709551616 bytes, more than int64 can address)
func.func @overflow() -> tensor<2305843009213693952xf64> {
  // expected-error @+1 {{creates a tensor too large to compile}}
  %e = tensor.empty() : tensor<2305843009213693952xf64>
  return %e : tensor<2305843009213693952xf64>
}
