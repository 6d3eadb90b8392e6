// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy)' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{tile-m=1 tile-n=4})' | FileCheck %s --check-prefix=ROWS
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{tile-m=-2})' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3})' | FileCheck %s --check-prefix=AVX2
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v4})' | FileCheck %s --check-prefix=AVX512
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=pentium})' 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 threads=2})' | FileCheck %s --check-prefix=THREADS

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

// Mixed precision (f16 in, f32 out) keeps the loop form.
// CHECK-LABEL: func.func @mixed(
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins
// CHECK-NEXT: return %[[R]]
func.func @mixed(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf16>, tensor<3x4xf16>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// A pooling window as one elementwise sum over its strided taps. The output starts as the sum's
// identity (a fill of 0): the generic starts from the first tap and never reads it.
// CHECK-LABEL: func.func @pool(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NOT: linalg.fill
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[T1:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[T2:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[T3:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[T0]], %[[T1]], %[[T2]], %[[T3]] : {{.*}}) outs(%[[E]] : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^bb0(%[[I0:.*]]: f32, %[[I1:.*]]: f32, %[[I2:.*]]: f32, %[[I3:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[I0]], %[[I1]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[I2]] : f32
// CHECK-NEXT: %[[S3:.*]] = arith.addf %[[S2]], %[[I3]] : f32
// CHECK-NEXT: linalg.yield %[[S3]] : f32
// CHECK-NEXT: } -> tensor<1x2x2x2xf32>
// CHECK-NEXT: return %[[G]]
func.func @pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// A stride-1 depthwise 3x3 on a 4-column output runs over the padded width: each tap is a
// contiguous window of the flattened [6 x 6] input (offsets ky*6 + kx, 3*6 + 4 = 22 elements),
// summed into [4 x 6] rows whose first 4 columns are the result.
// CHECK-LABEL: func.func @depthwise(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<8x3x3xf32>)
// CHECK-NOT: linalg.fill
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x6x6xf32> into tensor<1x8x36xf32>
// CHECK-NEXT: tensor.extract_slice %[[F]][0, 0, 0] [1, 8, 22] [1, 1, 1]
// CHECK-NEXT: tensor.extract_slice %[[F]][0, 0, 1] [1, 8, 22] [1, 1, 1]
// CHECK: tensor.extract_slice %[[F]][0, 0, 14] [1, 8, 22] [1, 1, 1]
// CHECK: %[[R:.*]] = tensor.empty() : tensor<1x8x24xf32>
// CHECK-NEXT: %[[D:.*]] = tensor.extract_slice %[[R]][0, 0, 0] [1, 8, 22] [1, 1, 1]
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} outs(%[[D]] : tensor<1x8x22xf32>)
// CHECK: tensor.insert_slice %[[G]] into %[[R]][0, 0, 0] [1, 8, 22] [1, 1, 1]
// CHECK-NEXT: %[[PADDED:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [1, 8, 4, 6]
// CHECK-NEXT: %[[Y:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 1, 1]
// CHECK-NEXT: return %[[Y]]
func.func @depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// A max pool into an output that is not its identity reads it.
// CHECK-LABEL: func.func @max_into(
// CHECK-SAME: %{{.*}}: tensor<1x2x4x4xf32>, %[[O:.*]]: tensor<1x2x3x3xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[O]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT: ^bb0(%[[I0:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: arith.maximumf %[[OUT]], %[[I0]] : f32
func.func @max_into(%x: tensor<1x2x4x4xf32>, %o: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

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
func.func @wide_f64(%a: tensor<2x8xf64>, %b: tensor<8x16xf64>, %c: tensor<2x16xf64>) -> tensor<2x16xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<2x8xf64>, tensor<8x16xf64>) outs(%c : tensor<2x16xf64>) -> tensor<2x16xf64>
  return %r : tensor<2x16xf64>
}

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

// With threads, a large matmul part is cut into one scf.forall iteration per
// thread: the 60 rows of 6-row tiles into 2 blocks of 4 column panels (64
// columns); the register tiling (and K blocking) runs inside each. Parts under
// 2^22 multiply-adds stay sequential: the 4-row rest (512K), @matmul.
// THREADS-LABEL: func.func @matmul(
// THREADS-NOT: scf.forall
// THREADS-LABEL: func.func @big(
// THREADS: scf.forall (%{{.*}}) in (2) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<60x128xf32>)
// THREADS: tensor.extract_slice %{{.*}}[0, %{{.*}}] [1024, 64] [1, 1]
// THREADS: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// THREADS: scf.forall.in_parallel
// THREADS-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[O]][0, %{{.*}}] [60, 64] [1, 1]
// THREADS-NOT: scf.forall
// THREADS: vector.outerproduct {{.*}} : vector<4xf32>, vector<16xf32>
func.func @big(%a: tensor<64x1024xf32>, %b: tensor<1024x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// With threads, a large elementwise or row generic (at least 2^16 loop iterations) is cut into
// one scf.forall block per thread along its outermost parallel loop of at least that many
// iterations (here the 64 channels of a [1, 64, 32, 32] map; the batch of 1 is skipped); the
// reduction loop of a row sum is never cut. A small generic stays sequential.
// THREADS-LABEL: func.func @relu_map(
// THREADS: scf.forall (%[[I:.*]]) in (2) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<1x64x32x32xf32>)
// THREADS: %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [1, 32, 32, 32] [1, 1, 1, 1]
// THREADS: linalg.generic {{.*}} ins(%[[IN]] : tensor<1x32x32x32xf32>)
// THREADS: tensor.parallel_insert_slice %{{.*}} into %[[O]][0, %{{.*}}, 0, 0] [1, 32, 32, 32] [1, 1, 1, 1]
// THREADS-LABEL: func.func @row_sum(
// THREADS: scf.forall (%{{.*}}) in (2)
// THREADS: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<256x256xf32>) outs(%{{.*}} : tensor<256xf32>)
// THREADS-LABEL: func.func @small_map(
// THREADS-NOT: scf.forall
// THREADS: return
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu_map(%x: tensor<1x64x32x32xf32>, %o: tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32> {
  %z = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x64x32x32xf32>) outs(%o : tensor<1x64x32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x64x32x32xf32>
  return %r : tensor<1x64x32x32xf32>
}
func.func @row_sum(%x: tensor<512x256xf32>, %o: tensor<512xf32>) -> tensor<512xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x256xf32>) outs(%o : tensor<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}
func.func @small_map(%x: tensor<64x64xf32>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%o : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// A matmul into linalg.fill(0) accumulates into an empty tensor: each register tile starts from
// a zero vector instead of reading the filled output (one pass over the output, not three). A
// matmul accumulating into another's result reads its tiles.
// (AVX2 tiles: 6 x 16.)
// AVX2-LABEL: func.func @zero_init(
// AVX2-NOT: linalg.fill
// AVX2: %[[E:.*]] = tensor.empty() : tensor<12x40xf32>
// AVX2: tensor.extract_slice %[[E]][0, 0] [12, 32] [1, 1]
// AVX2: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// AVX2-NEXT: scf.for %{{.*}} iter_args(%{{.*}} = %[[Z]]) -> (vector<6x16xf32>)
// AVX2: %[[FIRST:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 32] [12, 8] [1, 1]
// AVX2: tensor.extract_slice %[[FIRST]][0, 0] [12, 32] [1, 1]
// AVX2: %[[T:.*]] = tensor.extract_slice
// AVX2-NEXT: %[[ACC:.*]] = vector.transfer_read %[[T]]
// AVX2-NEXT: scf.for %{{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<6x16xf32>)
func.func @zero_init(%a: tensor<12x64xf32>, %b: tensor<64x40xf32>) -> tensor<12x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<12x40xf32>) -> tensor<12x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<12x64xf32>, tensor<64x40xf32>) outs(%f : tensor<12x40xf32>) -> tensor<12x40xf32>
  %r2 = linalg.matmul ins(%a, %b : tensor<12x64xf32>, tensor<64x40xf32>) outs(%r : tensor<12x40xf32>) -> tensor<12x40xf32>
  return %r2 : tensor<12x40xf32>
}

// ERR: error: ge-apply-codegen-strategy: the matmul register tile must be positive, got -2x
// CPU: error: ge-apply-codegen-strategy: unknown JIT CPU 'pentium'
