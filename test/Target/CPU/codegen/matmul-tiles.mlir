// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{tile-m=1 tile-n=4})' | FileCheck %s --check-prefix=ROWS
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 winograd=false})' | FileCheck %s --check-prefix=AVX2
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v4})' | FileCheck %s --check-prefix=AVX512

// Matmuls register-tiled and vectorized by the transform script (codegen/transform_script.py):
// tiles sized to the JIT CPU's vector registers, one-row products as wide GEMV tiles.

// A static f32 matmul: one [2, 4] accumulator tile (the whole output) in
// registers across the K loop, one outer product per K step.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[C:.*]]: tensor<2x4xf32>)
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[ACC:.*]] = vector.transfer_read %[[C]][%[[C0]], %[[C0]]], %[[Z]] {{.*}} : tensor<2x4xf32>, vector<2x4xf32>
// CHECK-NEXT: %[[R:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[T:.*]] = %[[ACC]]) -> (vector<2x4xf32>)
// CHECK-NEXT: tensor.extract_slice %[[A]][0, %[[K]]] [2, 1] [1, 1]
// CHECK-NEXT: tensor.extract_slice %[[B]][%[[K]], 0] [1, 4] [1, 1]
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: vector.transpose
// CHECK-NEXT: %[[L:.*]] = vector.extract
// CHECK-NEXT: %[[RT:.*]] = vector.extract
// CHECK-NEXT: %[[O:.*]] = vector.outerproduct %[[L]], %[[RT]], %[[T]] {kind = #vector.kind<add>} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT: scf.yield %[[O]] : vector<2x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[W:.*]] = vector.transfer_write %[[R]], %[[C]][%[[C0]], %[[C0]]] {{.*}} : vector<2x4xf32>, tensor<2x4xf32>
// CHECK-NEXT: return %[[W]]
// A 1x4 register tile: a loop over rows around the K loop.
// ROWS-LABEL: func.func @matmul(
// ROWS: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x4xf32>)
// ROWS: vector.transfer_read {{.*}} : tensor<1x4xf32>, vector<1x4xf32>
// ROWS-NEXT: scf.for
// ROWS: vector.outerproduct {{.*}} : vector<1xf32>, vector<4xf32>
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Mixed precision (f16 in, f32 out) keeps the loop form.
// CHECK-LABEL: func.func @mixed(
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins
// CHECK-NEXT: return %[[R]]
func.func @mixed(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf16>, tensor<3x4xf16>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// The register tile fits the vector registers of the CPU the code is for:
// AVX2 (16 registers of 8 f32) 6 rows x 2 vectors = 12 accumulators, the
// 12 rows need no remainder; AVX-512 (32 registers of 16 f32) 8 x 32,
// then a 4-row remainder. f64 tiles keep the registers: half the columns.
// AVX2-LABEL: func.func @wide(
// AVX2: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// AVX2-NOT: vector.outerproduct {{.*}}xf32>
// AVX2-LABEL: func.func @wide_f64(
// AVX2: vector.outerproduct {{.*}} : vector<2xf64>, vector<8xf64>
// AVX512-LABEL: func.func @wide(
// AVX512: vector.outerproduct {{.*}} : vector<8xf32>, vector<32xf32>
// AVX512: vector.outerproduct {{.*}} : vector<4xf32>, vector<32xf32>
// AVX512-NOT: vector.outerproduct {{.*}}xf32>
// AVX512-LABEL: func.func @wide_f64(
// AVX512: vector.outerproduct {{.*}} : vector<2xf64>, vector<16xf64>
func.func @wide(%a: tensor<12x8xf32>, %b: tensor<8x32xf32>, %c: tensor<12x32xf32>) -> tensor<12x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<12x8xf32>, tensor<8x32xf32>) outs(%c : tensor<12x32xf32>) -> tensor<12x32xf32>
  return %r : tensor<12x32xf32>
}

// -----

func.func @wide_f64(%a: tensor<2x8xf64>, %b: tensor<8x16xf64>, %c: tensor<2x16xf64>) -> tensor<2x16xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<2x8xf64>, tensor<8x16xf64>) outs(%c : tensor<2x16xf64>) -> tensor<2x16xf64>
  return %r : tensor<2x16xf64>
}

// -----

// One row (a matrix-vector product): half the registers accumulate, 8 ymm
// (64 f32) with AVX2, 16 zmm (256 f32) with AVX-512.
// AVX2-LABEL: func.func @gemv(
// AVX2: vector.outerproduct {{.*}} : vector<1xf32>, vector<64xf32>
// AVX512-LABEL: func.func @gemv(
// AVX512: vector.outerproduct {{.*}} : vector<1xf32>, vector<256xf32>
func.func @gemv(%a: tensor<1x8xf32>, %b: tensor<8x256xf32>, %c: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x8xf32>, tensor<8x256xf32>) outs(%c : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %r : tensor<1x256xf32>
}
