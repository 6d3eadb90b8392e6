// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy)' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{tile-m=1 tile-n=4})' | FileCheck %s --check-prefix=ROWS
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{tile-m=-2})' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 winograd=false})' | FileCheck %s --check-prefix=AVX2
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v4})' | FileCheck %s --check-prefix=AVX512
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=pentium})' 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 threads=2})' | FileCheck %s --check-prefix=THREADS
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3})' | FileCheck %s --check-prefix=WINO

// The maps of @row_im2col_phases (affine map aliases come first in the output).
// AVX2-DAG: #[[$SPLIT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4 * 2 + d3)>
// AVX2-DAG: #[[$PHASE:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3 mod 2, d4 + d3 floordiv 2)>

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

// A pooling window as one elementwise sum over its strided taps (f64: the vector code of
// @vector_depthwise is f32 only). The output starts as the sum's
// identity (a fill of 0): the generic starts from the first tap and never reads it.
// CHECK-LABEL: func.func @pool(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf64>)
// CHECK-NOT: linalg.fill
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[T1:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[T2:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[T3:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x2x2xf64>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[T0]], %[[T1]], %[[T2]], %[[T3]] : {{.*}}) outs(%[[E]] : tensor<1x2x2x2xf64>)
// CHECK-NEXT: ^bb0(%[[I0:.*]]: f64, %[[I1:.*]]: f64, %[[I2:.*]]: f64, %[[I3:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[I0]], %[[I1]] : f64
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[I2]] : f64
// CHECK-NEXT: %[[S3:.*]] = arith.addf %[[S2]], %[[I3]] : f64
// CHECK-NEXT: linalg.yield %[[S3]] : f64
// CHECK-NEXT: } -> tensor<1x2x2x2xf64>
// CHECK-NEXT: return %[[G]]
func.func @pool(%x: tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64> {
  %w = tensor.empty() : tensor<2x2xf64>
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x2x2x2xf64>
  %o = linalg.fill ins(%z : f64) outs(%e : tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x4x4xf64>, tensor<2x2xf64>) outs(%o : tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
  return %r : tensor<1x2x2x2xf64>
}

// A stride-1 depthwise 3x3 on a 4-column output runs over the padded width: each tap is a
// contiguous window of the flattened [6 x 6] input (offsets ky*6 + kx, 3*6 + 4 = 22 elements),
// summed into [4 x 6] rows whose first 4 columns are the result.
// CHECK-LABEL: func.func @depthwise(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x6x6xf64>, %[[W:.*]]: tensor<8x3x3xf64>)
// CHECK-NOT: linalg.fill
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x6x6xf64> into tensor<1x8x36xf64>
// CHECK-NEXT: tensor.extract_slice %[[F]][0, 0, 0] [1, 8, 22] [1, 1, 1]
// CHECK-NEXT: tensor.extract_slice %[[F]][0, 0, 1] [1, 8, 22] [1, 1, 1]
// CHECK: tensor.extract_slice %[[F]][0, 0, 14] [1, 8, 22] [1, 1, 1]
// CHECK: %[[R:.*]] = tensor.empty() : tensor<1x8x24xf64>
// CHECK-NEXT: %[[D:.*]] = tensor.extract_slice %[[R]][0, 0, 0] [1, 8, 22] [1, 1, 1]
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} outs(%[[D]] : tensor<1x8x22xf64>)
// CHECK: tensor.insert_slice %[[G]] into %[[R]][0, 0, 0] [1, 8, 22] [1, 1, 1]
// CHECK-NEXT: %[[PADDED:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [1, 8, 4, 6]
// CHECK-NEXT: %[[Y:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 1, 1]
// CHECK-NEXT: return %[[Y]]
func.func @depthwise(%x: tensor<1x8x6x6xf64>, %w: tensor<8x3x3xf64>) -> tensor<1x8x4x4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x8x4x4xf64>
  %o = linalg.fill ins(%z : f64) outs(%e : tensor<1x8x4x4xf64>) -> tensor<1x8x4x4xf64>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x6x6xf64>, tensor<8x3x3xf64>) outs(%o : tensor<1x8x4x4xf64>) -> tensor<1x8x4x4xf64>
  return %r : tensor<1x8x4x4xf64>
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
// 2^19 multiply-adds stay sequential: the 2-row rest (256K), @matmul.
// THREADS-LABEL: func.func @matmul(
// THREADS-NOT: scf.forall
// THREADS-LABEL: func.func @big(
// THREADS: scf.forall (%{{.*}}) in (2) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<60x128xf32>)
// THREADS: tensor.extract_slice %{{.*}}[0, %{{.*}}] [1024, 64] [1, 1]
// THREADS: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// THREADS: scf.forall.in_parallel
// THREADS-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[O]][0, %{{.*}}] [60, 64] [1, 1]
// THREADS-NOT: scf.forall
// THREADS: vector.outerproduct {{.*}} : vector<2xf32>, vector<16xf32>
func.func @big(%a: tensor<62x1024xf32>, %b: tensor<1024x128xf32>, %c: tensor<62x128xf32>) -> tensor<62x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<62x1024xf32>, tensor<1024x128xf32>) outs(%c : tensor<62x128xf32>) -> tensor<62x128xf32>
  return %r : tensor<62x128xf32>
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

// A one-row product (GEMV tiles: constant Bs of more rows are packed, below) with a constant B
// whose rows are an even number of cache lines apart (32 f32 = 2 lines): B is stored with 16
// more columns (3 lines: its rows spread over the L1 sets); the matmul reads the [16, 32]
// slice. A B of 40 columns (not whole lines) is left alone.
// AVX2-LABEL: func.func @spread(
// AVX2: %[[W:.*]] = arith.constant dense_resource<matmul_b_spread> : tensor<16x48xf32>
// AVX2: %[[B:.*]] = tensor.extract_slice %[[W]][0, 0] [16, 32] [1, 1] : tensor<16x48xf32> to tensor<16x32xf32>
// AVX2-NOT: tensor<16x56xf32>
// AVX2: return
func.func @spread(%a: tensor<1x16xf32>, %c: tensor<1x32xf32>, %c2: tensor<1x40xf32>) -> (tensor<1x32xf32>, tensor<1x40xf32>) {
  %b = arith.constant dense<"0x000000000000003B0000803B0000C03B0000003C0000203C0000403C0000603C0000803C0000903C0000A03C0000B03C0000C03C0000D03C0000E03C0000F03C0000003D0000083D0000103D0000183D0000203D0000283D0000303D0000383D0000403D0000483D0000503D0000583D0000603D0000683D0000703D0000783D0000803D0000843D0000883D00008C3D0000903D0000943D0000983D00009C3D0000A03D0000A43D0000A83D0000AC3D0000B03D0000B43D0000B83D0000BC3D0000C03D0000C43D0000C83D0000CC3D0000D03D0000D43D0000D83D0000DC3D0000E03D0000E43D0000E83D0000EC3D0000F03D0000F43D0000F83D0000FC3D0000003E0000023E0000043E0000063E0000083E00000A3E00000C3E00000E3E0000103E0000123E0000143E0000163E0000183E00001A3E00001C3E00001E3E0000203E0000223E0000243E0000263E0000283E00002A3E00002C3E00002E3E0000303E0000323E0000343E0000363E0000383E00003A3E00003C3E00003E3E0000403E0000423E0000443E0000463E0000483E00004A3E00004C3E00004E3E0000503E0000523E0000543E0000563E0000583E00005A3E00005C3E00005E3E0000603E0000623E0000643E0000663E0000683E00006A3E00006C3E00006E3E0000703E0000723E0000743E0000763E0000783E00007A3E00007C3E00007E3E0000803E0000813E0000823E0000833E0000843E0000853E0000863E0000873E0000883E0000893E00008A3E00008B3E00008C3E00008D3E00008E3E00008F3E0000903E0000913E0000923E0000933E0000943E0000953E0000963E0000973E0000983E0000993E00009A3E00009B3E00009C3E00009D3E00009E3E00009F3E0000A03E0000A13E0000A23E0000A33E0000A43E0000A53E0000A63E0000A73E0000A83E0000A93E0000AA3E0000AB3E0000AC3E0000AD3E0000AE3E0000AF3E0000B03E0000B13E0000B23E0000B33E0000B43E0000B53E0000B63E0000B73E0000B83E0000B93E0000BA3E0000BB3E0000BC3E0000BD3E0000BE3E0000BF3E0000C03E0000C13E0000C23E0000C33E0000C43E0000C53E0000C63E0000C73E0000C83E0000C93E0000CA3E0000CB3E0000CC3E0000CD3E0000CE3E0000CF3E0000D03E0000D13E0000D23E0000D33E0000D43E0000D53E0000D63E0000D73E0000D83E0000D93E0000DA3E0000DB3E0000DC3E0000DD3E0000DE3E0000DF3E0000E03E0000E13E0000E23E0000E33E0000E43E0000E53E0000E63E0000E73E0000E83E0000E93E0000EA3E0000EB3E0000EC3E0000ED3E0000EE3E0000EF3E0000F03E0000F13E0000F23E0000F33E0000F43E0000F53E0000F63E0000F73E0000F83E0000F93E0000FA3E0000FB3E0000FC3E0000FD3E0000FE3E0000FF3E0000003F0080003F0000013F0080013F0000023F0080023F0000033F0080033F0000043F0080043F0000053F0080053F0000063F0080063F0000073F0080073F0000083F0080083F0000093F0080093F00000A3F00800A3F00000B3F00800B3F00000C3F00800C3F00000D3F00800D3F00000E3F00800E3F00000F3F00800F3F0000103F0080103F0000113F0080113F0000123F0080123F0000133F0080133F0000143F0080143F0000153F0080153F0000163F0080163F0000173F0080173F0000183F0080183F0000193F0080193F00001A3F00801A3F00001B3F00801B3F00001C3F00801C3F00001D3F00801D3F00001E3F00801E3F00001F3F00801F3F0000203F0080203F0000213F0080213F0000223F0080223F0000233F0080233F0000243F0080243F0000253F0080253F0000263F0080263F0000273F0080273F0000283F0080283F0000293F0080293F00002A3F00802A3F00002B3F00802B3F00002C3F00802C3F00002D3F00802D3F00002E3F00802E3F00002F3F00802F3F0000303F0080303F0000313F0080313F0000323F0080323F0000333F0080333F0000343F0080343F0000353F0080353F0000363F0080363F0000373F0080373F0000383F0080383F0000393F0080393F00003A3F00803A3F00003B3F00803B3F00003C3F00803C3F00003D3F00803D3F00003E3F00803E3F00003F3F00803F3F0000403F0080403F0000413F0080413F0000423F0080423F0000433F0080433F0000443F0080443F0000453F0080453F0000463F0080463F0000473F0080473F0000483F0080483F0000493F0080493F00004A3F00804A3F00004B3F00804B3F00004C3F00804C3F00004D3F00804D3F00004E3F00804E3F00004F3F00804F3F0000503F0080503F0000513F0080513F0000523F0080523F0000533F0080533F0000543F0080543F0000553F0080553F0000563F0080563F0000573F0080573F0000583F0080583F0000593F0080593F00005A3F00805A3F00005B3F00805B3F00005C3F00805C3F00005D3F00805D3F00005E3F00805E3F00005F3F00805F3F0000603F0080603F0000613F0080613F0000623F0080623F0000633F0080633F0000643F0080643F0000653F0080653F0000663F0080663F0000673F0080673F0000683F0080683F0000693F0080693F00006A3F00806A3F00006B3F00806B3F00006C3F00806C3F00006D3F00806D3F00006E3F00806E3F00006F3F00806F3F0000703F0080703F0000713F0080713F0000723F0080723F0000733F0080733F0000743F0080743F0000753F0080753F0000763F0080763F0000773F0080773F0000783F0080783F0000793F0080793F00007A3F00807A3F00007B3F00807B3F00007C3F00807C3F00007D3F00807D3F00007E3F00807E3F00007F3F00807F3F"> : tensor<16x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x16xf32>, tensor<16x32xf32>) outs(%c : tensor<1x32xf32>) -> tensor<1x32xf32>
  %b2 = arith.constant dense<0.5> : tensor<16x40xf32>
  %r2 = linalg.matmul ins(%a, %b2 : tensor<1x16xf32>, tensor<16x40xf32>) outs(%c2 : tensor<1x40xf32>) -> tensor<1x40xf32>
  return %r, %r2 : tensor<1x32xf32>, tensor<1x40xf32>
}

// A constant B (more than one row of A) is stored packed in column panels, [N / TN, K, TN]
// (on AVX2, 40 columns = 2 panels of 16, then one of 8), each tile reading its panel's contiguous
// [K, TN] block; column panels outside, row tiles (12 in tiles of 6, then 2) inside, each from
// a zero vector (no fill of the output).
// AVX2-LABEL: func.func @packed(
// AVX2-DAG: %[[P8:.*]] = arith.constant dense_resource<matmul_b_panels{{.*}}> : tensor<1x16x8xf32>
// AVX2-DAG: %[[P16:.*]] = arith.constant dense_resource<matmul_b_panels{{.*}}> : tensor<2x16x16xf32>
// AVX2-NOT: linalg.fill
// AVX2: %[[E:.*]] = tensor.empty() : tensor<14x40xf32>
// AVX2-NEXT: scf.for %[[P:.*]] = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[E]]) -> (tensor<14x40xf32>)
// AVX2: scf.for %[[I:.*]] = %c0 to %c12 step %c6 iter_args(%{{.*}}) -> (tensor<14x16xf32>)
// AVX2: tensor.extract_slice %[[P16]][%[[P]], 0, 0] [1, 16, 16] [1, 1, 1]
// AVX2: scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (vector<6x16xf32>)
// AVX2: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// AVX2: scf.for {{.*}} -> (vector<2x16xf32>)
// AVX2: tensor.collapse_shape %[[P8]]
// AVX2: vector.outerproduct {{.*}} : vector<6xf32>, vector<8xf32>
// AVX2-NOT: linalg.matmul
func.func @packed(%a: tensor<14x16xf32>) -> tensor<14x40xf32> {
  %b = arith.constant dense<0.5> : tensor<16x40xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<14x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<14x40xf32>) -> tensor<14x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<14x16xf32>, tensor<16x40xf32>) outs(%f : tensor<14x40xf32>) -> tensor<14x40xf32>
  return %r : tensor<14x40xf32>
}

// ERR: error: ge-apply-codegen-strategy: the matmul register tile must be positive, got -2x
// CPU: error: ge-apply-codegen-strategy: unknown JIT CPU 'pentium'

// A stride-1 convolution of a large image: shifted matmuls summed inside each register tile.
// Per [6, 16] tile of the [F, Ho*Wp] accumulator (AVX2 tile; F = 8 rows: 6, then 2), one K loop
// per filter tap, the first from zeros, each next from the one before (the tile stays in
// registers across the taps); one write per tile. The input gets kw - 1 trailing zeros.
// AVX2-LABEL: func.func @shifted(
// AVX2: %[[FLAT:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [4, 1156] [1, 1] : tensor<4x1156xf32> into tensor<4x1158xf32>
// AVX2: %[[ACC:.*]] = tensor.empty() : tensor<8x1088xf32>
// AVX2-NEXT: %[[OUT:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (tensor<8x1088xf32>)
// AVX2: %[[T0:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (vector<6x16xf32>)
// AVX2: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// AVX2: %[[T1:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[T0]]) -> (vector<6x16xf32>)
// AVX2: tensor.extract_slice %[[FLAT]][0, %{{.*}}] [4, 16] [1, 1] : tensor<4x1158xf32> to tensor<4x16xf32>
// AVX2: tensor.extract_slice %{{.*}}[0, 0, 2, 2] [6, 4, 1, 1] [1, 1, 1, 1] : tensor<8x4x3x3xf32> to tensor<6x4x1x1xf32>
// AVX2-NEXT: tensor.collapse_shape
// AVX2-NEXT: %[[T8:.*]] = scf.for {{.*}} -> (vector<6x16xf32>)
// AVX2: vector.transfer_write %[[T8]], {{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// AVX2: scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (vector<2x16xf32>)
// AVX2: vector.transfer_write {{.*}} : vector<2x16xf32>, tensor<2x16xf32>
// AVX2: tensor.expand_shape %[[OUT]] {{\[}}[0, 1], [2, 3]] output_shape [1, 8, 32, 34]
// AVX2-NOT: linalg.matmul
func.func @shifted(%x: tensor<1x4x34x34xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x32x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x32x32xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x34x34xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return %r : tensor<1x8x32x32xf32>
}

// Its input already zero-padded (an insert into a filled buffer): that buffer is built one row
// taller (35 rows of 34: the last tap's window reads 2 elements past the image) and read as
// the rows, instead of copied again into a [4, 34*34 + 2] buffer.
// AVX2-LABEL: func.func @shifted_padded(
// AVX2: %[[E:.*]] = tensor.empty() : tensor<1x4x35x34xf32>
// AVX2-NEXT: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x4x35x34xf32>)
// AVX2-NEXT: %[[P:.*]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 0, 1, 1] [1, 4, 32, 32] [1, 1, 1, 1]
// AVX2-NEXT: %[[FLAT:.*]] = tensor.collapse_shape %[[P]] {{\[}}[0, 1], [2, 3]] : tensor<1x4x35x34xf32> into tensor<4x1190xf32>
// AVX2-NOT: tensor<4x1158xf32>
// AVX2: tensor.extract_slice %[[FLAT]][0, %{{.*}}] [4, 16] [1, 1] : tensor<4x1190xf32> to tensor<4x16xf32>
// AVX2-NOT: tensor<1x4x34x34xf32>
// AVX2: return
func.func @shifted_padded(%x: tensor<1x4x32x32xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x32x32xf32> {
  %z = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<1x4x34x34xf32>
  %pf = linalg.fill ins(%z : f32) outs(%pe : tensor<1x4x34x34xf32>) -> tensor<1x4x34x34xf32>
  %p = tensor.insert_slice %x into %pf[0, 0, 1, 1] [1, 4, 32, 32] [1, 1, 1, 1] : tensor<1x4x32x32xf32> into tensor<1x4x34x34xf32>
  %e = tensor.empty() : tensor<1x8x32x32xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<1x4x34x34xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return %r : tensor<1x8x32x32xf32>
}

// With threads, a large one runs its column panels as the iterations of one scf.forall.
// THREADS-LABEL: func.func @shifted_threads(
// THREADS: scf.forall (%[[P:.*]]) in (68) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<16x1088xf32>)
// THREADS: scf.for {{.*}} step %c6{{.*}} -> (tensor<16x16xf32>)
// THREADS: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}] [16, 16] [1, 1] : tensor<16x16xf32> into tensor<16x1088xf32>
func.func @shifted_threads(%x: tensor<1x8x34x34xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x32x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x32x32xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x34x34xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  return %r : tensor<1x16x32x32xf32>
}

// A constant filter: matmuls over the output positions, a register tile's rows being
// consecutive positions of one output row (AVX2 tile 6 x 16: an 8-wide row as a loop over 2
// tiles of 4, no padded-width waste) and its columns filters; the filter packed as [panel, tap,
// C, TN] rows; each tap's window of the padded input read in place (no copy); each tile stored
// transposed straight into the [1, F, Ho, Wo] result (no accumulator, no transpose pass): rows
// of filters become rows of positions by shuffles, each filter's row one store.
// AVX2-LABEL: func.func @shifted_rows(
// AVX2: %[[W:.*]] = arith.constant dense_resource<conv_filter_panels> : tensor<1x9x8x16xf32>
// AVX2: %[[P:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x8x10x10xf32>
// AVX2-NEXT: %[[FLAT:.*]] = tensor.collapse_shape %[[P]] {{\[}}[0, 1], [2, 3]] : tensor<1x8x10x10xf32> into tensor<8x100xf32>
// AVX2-NEXT: %[[OUT:.*]] = tensor.empty() : tensor<1x16x8x8xf32>
// AVX2-NEXT: %[[RES:.*]] = scf.for %[[OY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[OUT]]) -> (tensor<1x16x8x8xf32>)
// AVX2-NEXT: %[[POS:.*]] = arith.muli %[[OY]], %c10
// AVX2-NEXT: scf.for %[[X0:.*]] = %c0 to %c8 step %c4 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x16x8x8xf32>)
// AVX2-NEXT: %[[IN:.*]] = arith.addi %[[POS]], %[[X0]]
// AVX2-NEXT: tensor.extract_slice %[[FLAT]][0, %[[IN]]] [8, 4] [1, 1] : tensor<8x100xf32> to tensor<8x4xf32>
// AVX2-NEXT: tensor.extract_slice %[[W]][0, 0, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// AVX2: %[[T0:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (vector<4x16xf32>)
// AVX2: vector.transfer_read {{.*}} : tensor<1x4xf32>, vector<1x4xf32>
// AVX2: vector.outerproduct {{.*}} : vector<4xf32>, vector<16xf32>
// AVX2: scf.for {{.*}} iter_args(%{{.*}} = %[[T0]]) -> (vector<4x16xf32>)
// AVX2: tensor.extract_slice %[[W]][0, 8, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// AVX2: %[[T8:.*]] = scf.for {{.*}} -> (vector<4x16xf32>)
// The tile's 4 rows of 16 filters become 16 rows of 4 positions: per 8 x 8 block, 8 unpacks,
// 8 in-lane shuffles and 8 half swaps (the missing rows repeat row 0), then one store per filter.
// AVX2: %[[R0:.*]] = vector.extract %[[T8]][0] : vector<16xf32> from vector<4x16xf32>
// AVX2-NEXT: %[[R1:.*]] = vector.extract %[[T8]][1] : vector<16xf32> from vector<4x16xf32>
// AVX2: %[[B0:.*]] = vector.extract_strided_slice %[[R0]] {offsets = [0], sizes = [8], strides = [1]}
// AVX2-NEXT: %[[B1:.*]] = vector.extract_strided_slice %[[R1]] {offsets = [0], sizes = [8], strides = [1]}
// AVX2: vector.shuffle %[[B0]], %[[B1]] [0, 8, 1, 9, 4, 12, 5, 13] : vector<8xf32>, vector<8xf32>
// AVX2-NEXT: vector.shuffle %[[B0]], %[[B1]] [2, 10, 3, 11, 6, 14, 7, 15] : vector<8xf32>, vector<8xf32>
// AVX2: %[[C0:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xf32>, vector<8xf32>
// AVX2: %[[F0:.*]] = vector.extract_strided_slice %[[C0]] {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
// AVX2: %[[SLOT:.*]] = tensor.extract_slice %[[ACC]][0, 0, %[[OY]], %[[X0]]] [1, 16, 1, 4] [1, 1, 1, 1]
// AVX2-NEXT: %[[ST0:.*]] = vector.transfer_write %[[F0]], %[[SLOT]][%c0, %c0, %c0, %c0] {in_bounds = [true]} : vector<4xf32>, tensor<1x16x1x4xf32>
// AVX2-NEXT: vector.transfer_write %{{.*}}, %[[ST0]][%c0, %c1, %c0, %c0] {in_bounds = [true]} : vector<4xf32>, tensor<1x16x1x4xf32>
// AVX2-COUNT-14: vector.transfer_write
// AVX2-NEXT: tensor.insert_slice %{{.*}} into %[[ACC]][0, 0, %[[OY]], %[[X0]]] [1, 16, 1, 4] [1, 1, 1, 1]
// AVX2: return %[[RES]] : tensor<1x16x8x8xf32>
// AVX2-NOT: linalg.
func.func @shifted_rows(%x: tensor<1x8x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<1x8x10x10xf32>
  %pf = linalg.fill ins(%z : f32) outs(%pe : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %p = tensor.insert_slice %x into %pf[0, 0, 1, 1] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x8x10x10xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// Stride 2: a tile's positions read every second input element of a row (the row's one tile
// needs no loop).
// AVX2-LABEL: func.func @shifted_rows_stride2(
// AVX2: scf.for %[[OY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x16x4x4xf32>)
// AVX2: %[[POS:.*]] = arith.muli %[[OY]], %c18
// AVX2: tensor.extract_slice %{{.*}}[0, %[[POS]]] [8, 4] [1, 2] : tensor<8x81xf32> to tensor<8x4xf32>
// AVX2: vector.outerproduct {{.*}} : vector<4xf32>, vector<16xf32>
// AVX2-NOT: linalg.matmul
func.func @shifted_rows_stride2(%x: tensor<1x8x9x9xf32>) -> tensor<1x16x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %r : tensor<1x16x4x4xf32>
}

// The convolution's only user, an elementwise epilogue (bias by channel, ReLU), is applied in
// the register tile before its one store: on the tile's rows (each one vector of filters), so
// the bias is one vector read; then the rows are transposed and stored; the epilogue writes its
// own output, nothing else remains of it.
// AVX2-LABEL: func.func @shifted_rows_epilogue(
// AVX2-SAME: %{{.*}}: tensor<1x8x9x9xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// AVX2: %[[OUT:.*]] = tensor.empty() : tensor<1x16x7x7xf32>
// AVX2: scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]]) -> (tensor<1x16x7x7xf32>)
// AVX2: vector.outerproduct {{.*}} : vector<4xf32>, vector<16xf32>
// AVX2: %[[R0:.*]] = vector.extract %{{.*}}[0] : vector<16xf32> from vector<4x16xf32>
// AVX2-COUNT-3: vector.extract
// AVX2-NEXT: %[[B:.*]] = vector.transfer_read %[[BIAS]][%c0], %{{.*}} {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
// AVX2-NEXT: %[[S0:.*]] = arith.addf %[[R0]], %[[B]] : vector<16xf32>
// AVX2-COUNT-3: arith.addf {{.*}} : vector<16xf32>
// AVX2-NEXT: %[[NEG:.*]] = arith.cmpf ogt, %{{.*}}, %[[S0]] : vector<16xf32>
// AVX2-NEXT: arith.select %[[NEG]], %{{.*}}, %[[S0]] : vector<16xi1>, vector<16xf32>
// AVX2-COUNT-24: vector.shuffle
// AVX2: vector.transfer_write {{.*}} : vector<4xf32>, tensor<1x16x1x4xf32>
// AVX2: vector.transfer_write {{.*}} : vector<3xf32>, tensor<1x16x1x3xf32>
// AVX2-NOT: linalg.
func.func @shifted_rows_epilogue(%x: tensor<1x8x9x9xf32>, %b: tensor<16xf32>) -> tensor<1x16x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x7x7xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %e2 = tensor.empty() : tensor<1x16x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<1x16x7x7xf32>, tensor<16xf32>) outs(%e2 : tensor<1x16x7x7xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x16x7x7xf32>
  return %y : tensor<1x16x7x7xf32>
}

// Bias, residual and ReLU: the bias is added on the tile's rows of filters, the rows are
// transposed once, the residual is read as each filter's row of positions (not transposed to
// the tile) and added there, then ReLU and the filter's store.
// AVX2-LABEL: func.func @shifted_rows_residual(
// AVX2-SAME: %{{.*}}: tensor<1x8x9x9xf32>, %[[BIAS:.*]]: tensor<16xf32>, %[[RES:.*]]: tensor<1x16x7x7xf32>)
// AVX2: vector.outerproduct {{.*}} : vector<4xf32>, vector<16xf32>
// AVX2: vector.transfer_read %[[BIAS]][%c0], %{{.*}} {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
// AVX2-COUNT-4: arith.addf {{.*}} : vector<16xf32>
// AVX2-NOT: arith.cmpf
// AVX2-COUNT-24: vector.shuffle
// AVX2: %[[R:.*]] = vector.transfer_read %[[RES]][%c0, %c0, %{{.*}}, %c0], %{{.*}} {in_bounds = [true]} : tensor<1x16x7x7xf32>, vector<4xf32>
// AVX2-NEXT: %[[SUM:.*]] = arith.addf %{{.*}}, %[[R]] : vector<4xf32>
// AVX2-NEXT: %[[NEG:.*]] = arith.cmpf ogt, %{{.*}}, %[[SUM]] : vector<4xf32>
// AVX2-NEXT: %[[Y:.*]] = arith.select %[[NEG]], %{{.*}}, %[[SUM]] : vector<4xi1>, vector<4xf32>
// AVX2-NEXT: vector.transfer_write %[[Y]], %{{.*}}[%c0, %c0, %c0, %c0] {in_bounds = [true]} : vector<4xf32>, tensor<1x16x1x4xf32>
// AVX2-NOT: linalg.
// AVX2: return
func.func @shifted_rows_residual(%x: tensor<1x8x9x9xf32>, %b: tensor<16xf32>, %r: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x7x7xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %e2 = tensor.empty() : tensor<1x16x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b, %r : tensor<1x16x7x7xf32>, tensor<16xf32>, tensor<1x16x7x7xf32>) outs(%e2 : tensor<1x16x7x7xf32>) {
  ^bb0(%in: f32, %bias: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %a = arith.addf %s, %res : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x16x7x7xf32>
  return %y : tensor<1x16x7x7xf32>
}

// A value that is also the next padded buffer's content is read back from that buffer, by the
// residual epilogue and by a 1x1 convolution: a read of it after the insert would make one-shot
// bufferization compute it out of place and copy it into the slot.
// AVX2-LABEL: func.func @placed(
// AVX2-SAME: %[[X:.*]]: tensor<1x16x7x7xf32>)
// AVX2: %[[P:.*]] = tensor.insert_slice %[[X]] into
// AVX2-NOT: %[[X]]
// AVX2: vector.transfer_read %[[P]][%c0, %c0, %{{.*}}, %c1], %{{.*}} {in_bounds = [true]} : tensor<1x16x9x9xf32>, vector<4xf32>
// AVX2-NEXT: arith.addf %{{.*}} : vector<4xf32>
// AVX2: vector.transfer_read %[[P]][%c0, %c0, %{{.*}}, %c5], %{{.*}} {in_bounds = [true]} : tensor<1x16x9x9xf32>, vector<3xf32>
// AVX2: %[[C:.*]] = tensor.collapse_shape %[[P]] {{\[}}[0, 1], [2, 3]] : tensor<1x16x9x9xf32> into tensor<16x81xf32>
// AVX2: %[[ROW:.*]] = arith.muli %{{.*}}, %c9 : index
// AVX2-NEXT: %[[START:.*]] = arith.addi %[[ROW]], %c10 : index
// AVX2-NEXT: tensor.extract_slice %[[C]][0, %[[START]]] [16, 4] [1, 1]
// AVX2-NOT: %[[X]]
// AVX2: return
func.func @placed(%x: tensor<1x16x7x7xf32>) -> (tensor<1x16x7x7xf32>, tensor<1x16x7x7xf32>) {
  %w = arith.constant dense<0.5> : tensor<16x16x3x3xf32>
  %w1 = arith.constant dense<0.25> : tensor<16x16x1x1xf32>
  %z = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<1x16x9x9xf32>
  %pf = linalg.fill ins(%z : f32) outs(%pe : tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %p = tensor.insert_slice %x into %pf[0, 0, 1, 1] [1, 16, 7, 7] [1, 1, 1, 1] : tensor<1x16x7x7xf32> into tensor<1x16x9x9xf32>
  %e = tensor.empty() : tensor<1x16x7x7xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<1x16x9x9xf32>, tensor<16x16x3x3xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %e2 = tensor.empty() : tensor<1x16x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %x : tensor<1x16x7x7xf32>, tensor<1x16x7x7xf32>) outs(%e2 : tensor<1x16x7x7xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<1x16x7x7xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w1 : tensor<1x16x7x7xf32>, tensor<16x16x1x1xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return %y, %d : tensor<1x16x7x7xf32>, tensor<1x16x7x7xf32>
}

// A 3-channel convolution (too few channels for a K loop per tap) whose 20 filters are no
// multiple of 8 (else direct tiles, @direct_rows): im2col one output row at a
// time into a [1, C, kh, kw, Wo] buffer reused row after row, the tiles ([filters, positions])
// storing through the epilogue. No whole-image [27, 25] patch matrix.
// AVX2-LABEL: func.func @row_im2col(
// AVX2-SAME: %[[X:.*]]: tensor<1x3x11x11xf32>, %[[B:.*]]: tensor<20xf32>)
// AVX2: %[[OUT:.*]] = tensor.empty() : tensor<1x20x5x5xf32>
// AVX2-NEXT: %[[PATCH:.*]] = tensor.empty() : tensor<1x3x3x3x5xf32>
// AVX2-NEXT: scf.for %[[OY:.*]] = %c0 to %c5 step %c1 iter_args(%{{.*}} = %[[OUT]], %[[P:.*]] = %[[PATCH]])
// AVX2-NEXT: %[[Y0:.*]] = arith.muli %[[OY]], %c2 : index
// AVX2-NEXT: %[[BLOCK:.*]] = tensor.extract_slice %[[X]][0, 0, %[[Y0]], 0] [1, 3, 3, 11] [1, 1, 1, 1]
// AVX2-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[BLOCK]] : tensor<1x3x3x11xf32>) outs(%[[P]] : tensor<1x3x3x3x5xf32>)
// AVX2: tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2, 3], [4]] : tensor<1x3x3x3x5xf32> into tensor<27x5xf32>
// AVX2: arith.addf {{.*}} : vector<1x6x1x4xf32>
// AVX2-NEXT: arith.cmpf ogt, {{.*}} : vector<1x6x1x4xf32>
// AVX2-NEXT: arith.select {{.*}} : vector<1x6x1x4xi1>, vector<1x6x1x4xf32>
// AVX2-NEXT: vector.transfer_write {{.*}} : vector<1x6x1x4xf32>, tensor<1x6x1x4xf32>
// AVX2-NOT: tensor<27x25xf32>
// AVX2: return
func.func @row_im2col(%x: tensor<1x3x11x11xf32>, %b: tensor<20xf32>) -> tensor<1x20x5x5xf32> {
  %w = arith.constant dense<0.5> : tensor<20x3x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x5x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x20x5x5xf32>) -> tensor<1x20x5x5xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x11x11xf32>, tensor<20x3x3x3xf32>) outs(%o : tensor<1x20x5x5xf32>) -> tensor<1x20x5x5xf32>
  %e2 = tensor.empty() : tensor<1x20x5x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<1x20x5x5xf32>, tensor<20xf32>) outs(%e2 : tensor<1x20x5x5xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x20x5x5xf32>
  return %y : tensor<1x20x5x5xf32>
}

// Stride 2 with room for every tap in both column phases (the ResNet stem's case): the input is
// split once by column phase, [1, C, Hp, 2, Wp / 2] (phase p holds columns p, p + 2, ...), and
// each output row gathers its patches from it: tap kx of position ox is phase kx mod 2, element
// ox + kx floordiv 2, a contiguous run instead of every second element (its two maps are
// checked at the top of this file, where the printer puts them).
// AVX2-LABEL: func.func @row_im2col_phases(
// AVX2-SAME: %[[X:.*]]: tensor<1x3x22x22xf32>)
// AVX2: %[[E:.*]] = tensor.empty() : tensor<1x3x22x2x11xf32>
// AVX2-NEXT: %[[S:.*]] = linalg.generic {indexing_maps = [#[[$SPLIT]], #{{.*}}]{{.*}} ins(%[[X]] : tensor<1x3x22x22xf32>) outs(%[[E]] : tensor<1x3x22x2x11xf32>)
// AVX2: scf.for %[[OY:.*]] = %c0 to %c8 step %c1
// AVX2-NEXT: %[[Y0:.*]] = arith.muli %[[OY]], %c2 : index
// AVX2-NEXT: %[[BLOCK:.*]] = tensor.extract_slice %[[S]][0, 0, %[[Y0]], 0, 0] [1, 3, 7, 2, 11] [1, 1, 1, 1, 1]
// AVX2-NEXT: linalg.generic {indexing_maps = [#[[$PHASE]], #{{.*}}]{{.*}} ins(%[[BLOCK]] : tensor<1x3x7x2x11xf32>) outs(%{{.*}} : tensor<1x3x7x7x8xf32>)
// AVX2: return
func.func @row_im2col_phases(%x: tensor<1x3x22x22xf32>) -> tensor<1x20x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<20x3x7x7xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x20x8x8xf32>) -> tensor<1x20x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x22x22xf32>, tensor<20x3x7x7xf32>) outs(%o : tensor<1x20x8x8xf32>) -> tensor<1x20x8x8xf32>
  return %r : tensor<1x20x8x8xf32>
}

// With threads: one block of output rows per thread, each with its own patch buffer (a slice
// of one [threads, C, kh, kw, Wo] buffer: nothing allocated in the parallel loop).
// THREADS-LABEL: func.func @row_im2col_threads(
// THREADS: %[[PATCHES:.*]] = tensor.empty() : tensor<2x3x3x3x32xf32>
// THREADS-NEXT: scf.forall (%[[T:.*]]) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x36x32x32xf32>)
// THREADS: tensor.extract_slice %[[PATCHES]][%[[T]], 0, 0, 0, 0] [1, 3, 3, 3, 32] [1, 1, 1, 1, 1]
// THREADS-NEXT: scf.for %{{.*}} = %c0 to %c16 step %c1
// THREADS: scf.forall.in_parallel
func.func @row_im2col_threads(%x: tensor<1x3x65x65xf32>, %b: tensor<36xf32>) -> tensor<1x36x32x32xf32> {
  %w = arith.constant dense<0.5> : tensor<36x3x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x36x32x32xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x36x32x32xf32>) -> tensor<1x36x32x32xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x65x65xf32>, tensor<36x3x3x3xf32>) outs(%o : tensor<1x36x32x32xf32>) -> tensor<1x36x32x32xf32>
  %e2 = tensor.empty() : tensor<1x36x32x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<1x36x32x32xf32>, tensor<36xf32>) outs(%e2 : tensor<1x36x32x32xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x36x32x32xf32>
  return %y : tensor<1x36x32x32xf32>
}

// An f32 depthwise convolution as vector code: per channel and output row, a vector of output
// columns summed over the taps (one unaligned load each, times the channel's broadcast weight),
// the epilogue (bias, ReLU) applied to it before its one store: no tap-sum generic, no
// epilogue pass. ReLU is a compare and a select (one vmaxps; arith.maximumf is a longer
// sequence on x86).
// AVX2-LABEL: func.func @vector_depthwise(
// AVX2-SAME: %[[X:.*]]: tensor<1x4x10x10xf32>, %[[W:.*]]: tensor<4x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
// AVX2: %[[OUT:.*]] = tensor.empty() : tensor<1x4x8x8xf32>
// AVX2: scf.for %{{.*}} = %{{.*}} to %c4 step %{{.*}} iter_args(%{{.*}} = %[[OUT]]) -> (tensor<1x4x8x8xf32>)
// AVX2: tensor.extract %[[W]][%[[CH:.*]], %{{.*}}, %{{.*}}] : tensor<4x3x3xf32>
// AVX2: %[[R0:.*]] = vector.transfer_read %[[X]][%{{.*}}, %[[CH]], %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1x4x10x10xf32>, vector<8xf32>
// AVX2-NEXT: arith.mulf %[[R0]], %{{.*}} : vector<8xf32>
// AVX2-COUNT-8: vector.fma {{.*}} : vector<8xf32>
// AVX2: %[[BIAS:.*]] = tensor.extract %[[B]][%[[CH]]] : tensor<4xf32>
// AVX2-NEXT: %[[BV:.*]] = vector.broadcast %[[BIAS]] : f32 to vector<8xf32>
// AVX2-NEXT: %[[SUM:.*]] = arith.addf %{{.*}}, %[[BV]] : vector<8xf32>
// AVX2-NEXT: %[[GT:.*]] = arith.cmpf ogt, %{{.*}}, %[[SUM]] : vector<8xf32>
// AVX2-NEXT: %[[RELU:.*]] = arith.select %[[GT]], %{{.*}}, %[[SUM]] : vector<8xi1>, vector<8xf32>
// AVX2: vector.transfer_write %[[RELU]], %{{.*}} {in_bounds = [true]} : vector<8xf32>, tensor<1x1x8x8xf32>
// AVX2-NOT: linalg.
// AVX2: return
func.func @vector_depthwise(%x: tensor<1x4x10x10xf32>, %w: tensor<4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x10x10xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e2 = tensor.empty() : tensor<1x4x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<1x4x8x8xf32>, tensor<4xf32>) outs(%e2 : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// Stride 2 along the rows: two vectors' worth of consecutive input elements per load, the even
// or odd ones kept by a shuffle (the taps at 0 and 1 share one load; the tap at 2 is the odd half
// of the load at 1, whose own load would pass the row's end). A 5-column output: vectors of 4,
// the second overlapping the first (columns 1..4), no scalar remainder.
// AVX2-LABEL: func.func @vector_pool_s2(
// AVX2-SAME: %[[X:.*]]: tensor<1x2x11x11xf32>)
// The maximum is a compare and a select (arith.maximumf is a longer sequence on x86), NaN taps
// remembered in a mask and put back at the end (as torch's and numpy's max).
// AVX2: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : vector<4xf32>
// AVX2: %[[L0:.*]] = vector.transfer_read %[[X]]{{.*}} : tensor<1x2x11x11xf32>, vector<8xf32>
// AVX2-NEXT: %[[T0:.*]] = vector.shuffle %[[L0]], %[[L0]] [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// AVX2-NEXT: %[[N0:.*]] = arith.cmpf uno, %[[T0]], %[[T0]] : vector<4xf32>
// AVX2-NEXT: %[[T1:.*]] = vector.shuffle %[[L0]], %[[L0]] [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// AVX2-NEXT: %[[N1:.*]] = arith.cmpf uno, %[[T1]], %[[T1]] : vector<4xf32>
// AVX2-NEXT: %[[N01:.*]] = arith.ori %[[N0]], %[[N1]] : vector<4xi1>
// AVX2-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[T1]], %[[T0]] : vector<4xf32>
// AVX2-NEXT: %[[M1:.*]] = arith.select %[[GT]], %[[T1]], %[[T0]] : vector<4xi1>, vector<4xf32>
// AVX2-NEXT: %[[L1:.*]] = vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %c1]{{.*}} : tensor<1x2x11x11xf32>, vector<8xf32>
// AVX2-NEXT: %[[T2:.*]] = vector.shuffle %[[L1]], %[[L1]] [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// AVX2: %[[OUT:.*]] = arith.select %{{.*}}, %[[NAN]], %{{.*}} : vector<4xi1>, vector<4xf32>
// AVX2-NEXT: vector.transfer_write %[[OUT]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %c0] {in_bounds = [true]} : vector<4xf32>, tensor<1x1x5x5xf32>
// AVX2-NEXT: vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %c2]
// AVX2: vector.transfer_write %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %c1] {in_bounds = [true]} : vector<4xf32>, tensor<1x1x5x5xf32>
// AVX2-NOT: linalg.
// AVX2: return
func.func @vector_pool_s2(%x: tensor<1x2x11x11xf32>) -> tensor<1x2x5x5xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %o = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x11x11xf32>, tensor<3x3xf32>) outs(%o : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %r : tensor<1x2x5x5xf32>
}

// Winograd F(2x2, 3x3) (the default; the AVX2 checks above run with winograd=false): a 3x3
// stride-1 convolution with a constant filter, 8 channels, 16 filters, an 8 x 8 output. The
// filter is transformed at compile time ([panel, 16, C, TN]); per pair of output rows, the
// input transform of each channel's 4 tiles (two loads of each of the 4 input rows, even and odd
// elements by shuffles: the tiles' columns 0-3) into V[16, C, tiles], then 16 register-tile
// matmuls over the channels into M[16, tiles, TN], then the output transform of each tile and
// the two output rows stored transposed (8 positions: 4 tiles).
// WINO-LABEL: func.func @winograd(
// WINO-SAME: %[[X:.*]]: tensor<1x8x10x10xf32>)
// WINO: %[[U:.*]] = arith.constant dense_resource<winograd_filter_panels{{.*}}> : tensor<1x16x8x16xf32>
// WINO: %[[V0:.*]] = tensor.empty() : tensor<16x8x4xf32>
// WINO-NEXT: %[[M0:.*]] = tensor.empty() : tensor<16x4x16xf32>
// WINO-NEXT: scf.for %[[TY:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[V0]], %{{.*}} = %[[M0]]) -> (tensor<1x16x8x8xf32>, tensor<16x8x4xf32>, tensor<16x4x16xf32>)
// WINO-NEXT: %[[V:.*]] = scf.for %[[CH:.*]] = %c0 to %c8 step %c1 iter_args(%[[VA:.*]] = %{{.*}}) -> (tensor<16x8x4xf32>)
// WINO-NEXT: %[[TOP:.*]] = arith.muli %[[TY]], %c2 : index
// WINO: %[[L0:.*]] = vector.transfer_read %[[X]][%c0, %[[CH]], %[[TOP]], %c0], %{{.*}} {in_bounds = [true]} : tensor<1x8x10x10xf32>, vector<8xf32>
// WINO-NEXT: %[[L1:.*]] = vector.transfer_read %[[X]][%c0, %[[CH]], %[[TOP]], %c2], %{{.*}} {in_bounds = [true]} : tensor<1x8x10x10xf32>, vector<8xf32>
// WINO-NEXT: %[[D00:.*]] = vector.shuffle %[[L0]], %[[L0]] [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// WINO-NEXT: %[[D01:.*]] = vector.shuffle %[[L0]], %[[L0]] [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// WINO-NEXT: %[[D02:.*]] = vector.shuffle %[[L1]], %[[L1]] [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// WINO-NEXT: vector.shuffle %[[L1]], %[[L1]] [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// WINO: %[[T00:.*]] = arith.subf %[[D00]], %{{.*}} : vector<4xf32>
// WINO-NEXT: arith.subf %[[D01]], %{{.*}} : vector<4xf32>
// WINO-NEXT: %[[T02:.*]] = arith.subf %[[D02]], %{{.*}} : vector<4xf32>
// WINO: %[[V00:.*]] = arith.subf %[[T00]], %[[T02]] : vector<4xf32>
// WINO: vector.transfer_write %[[V00]], %[[VA]][%c0, %[[CH]], %c0] {in_bounds = [true]} : vector<4xf32>, tensor<16x8x4xf32>
// WINO-COUNT-15: vector.transfer_write {{.*}} : vector<4xf32>, tensor<16x8x4xf32>
// (One panel, one tile of 4 rows: those loops fold away.)
// WINO: scf.for %[[XI:.*]] = %c0 to %c16 step %c1
// WINO-NEXT: scf.for %[[K:.*]] = %c0 to %c8 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// WINO-NEXT: %[[B:.*]] = vector.transfer_read %[[U]][%c0, %[[XI]], %[[K]], %c0], %{{.*}} {in_bounds = [true]} : tensor<1x16x8x16xf32>, vector<16xf32>
// WINO-NEXT: %[[A0:.*]] = tensor.extract %[[V]][%[[XI]], %[[K]], %c0] : tensor<16x8x4xf32>
// WINO-NEXT: %[[A0V:.*]] = vector.broadcast %[[A0]] : f32 to vector<16xf32>
// WINO-NEXT: vector.fma %[[A0V]], %[[B]], %{{.*}} : vector<16xf32>
// WINO: vector.transfer_write %{{.*}}[%[[XI]], %c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<16x4x16xf32>
// WINO-COUNT-16: vector.transfer_read {{.*}} : tensor<16x4x16xf32>, vector<16xf32>
// WINO: vector.shuffle
// WINO: vector.transfer_write {{.*}} : vector<8xf32>, tensor<1x16x1x8xf32>
// WINO-NOT: linalg.
// WINO: return
func.func @winograd(%x: tensor<1x8x10x10xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// A 3-channel convolution (a stem) with a constant filter and a multiple of 8 filters: direct
// register tiles of positions by filters. The filter is stored as [panel, C, kh, kw, TN]; one loop
// over input channels and one over kernel rows carry the tile's rows (4 positions here: a row of 8
// at AVX2's 6-row tiles: 8 = 4 + 4) as vectors of 16 filters; per kernel column, one filter vector and each
// position's input element (stride 2: columns 0, 2, 4, 6, then 1, 3, 5, 7, ...) broadcast; no
// patch matrix. The rows are then transposed with shuffles and stored per filter.
// AVX2-LABEL: func.func @direct_rows(
// AVX2-SAME: %[[X:.*]]: tensor<1x3x17x17xf32>)
// AVX2: %[[W:.*]] = arith.constant dense_resource<conv_filter_panels{{.*}}> : tensor<1x3x3x3x16xf32>
// AVX2: scf.for %[[OY:.*]] = %c0 to %c8 step %c1
// AVX2-NEXT: scf.for %[[X0:.*]] = %c0 to %c8 step %c4
// AVX2-NEXT: %[[TOP:.*]] = arith.muli %[[OY]], %c2 : index
// AVX2-NEXT: %[[LEFT:.*]] = arith.muli %[[X0]], %c2 : index
// AVX2-NEXT: %[[COL1:.*]] = arith.addi %[[LEFT]], %c2 : index
// AVX2: %[[TILE:.*]]:4 = scf.for %[[CH:.*]] = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// AVX2-NEXT: %{{.*}}:4 = scf.for %[[KY:.*]] = %c0 to %c3 step %c1 iter_args(%[[R0:.*]] = %{{.*}}, %[[R1:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// AVX2-NEXT: %[[Y:.*]] = arith.addi %[[TOP]], %[[KY]] : index
// AVX2-NEXT: %[[B0:.*]] = vector.transfer_read %[[W]][%c0, %[[CH]], %[[KY]], %c0, %c0], %{{.*}} {in_bounds = [true]} : tensor<1x3x3x3x16xf32>, vector<16xf32>
// AVX2-NEXT: %[[E0:.*]] = tensor.extract %[[X]][%c0, %[[CH]], %[[Y]], %[[LEFT]]] : tensor<1x3x17x17xf32>
// AVX2-NEXT: %[[A0:.*]] = vector.broadcast %[[E0]] : f32 to vector<16xf32>
// AVX2-NEXT: vector.fma %[[A0]], %[[B0]], %[[R0]] : vector<16xf32>
// AVX2-NEXT: %[[E1:.*]] = tensor.extract %[[X]][%c0, %[[CH]], %[[Y]], %[[COL1]]] : tensor<1x3x17x17xf32>
// AVX2-NEXT: %[[A1:.*]] = vector.broadcast %[[E1]] : f32 to vector<16xf32>
// AVX2-NEXT: vector.fma %[[A1]], %[[B0]], %[[R1]] : vector<16xf32>
// AVX2-COUNT-10: vector.fma
// AVX2: scf.yield
// AVX2: vector.shuffle
// AVX2: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<4xf32>, tensor<1x16x1x4xf32>
// AVX2-NOT: linalg.
// AVX2: return
func.func @direct_rows(%x: tensor<1x3x17x17xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x3x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x17x17xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// A max pool of an input padded with -inf reads the input where it is (no fill, no padded copy):
// the taps of rows and columns past its edges read the nearest edge element, which is in the
// same window (a maximum over the window is unchanged). Rows: clamped indices. Columns: a vector
// whose taps all lie inside reads as usual (columns 7, 8, 9 for the vector at 8); a border vector
// reads the 9 columns its clamped taps span once and shuffles each tap out of it (column 0 twice
// for the first vector's left tap, column 19 twice for the last vector's right tap).
// AVX2-LABEL: func.func @vector_pool_clamped(
// AVX2-SAME: %[[X:.*]]: tensor<1x1x4x20xf32>)
// AVX2-NOT: linalg.fill
// AVX2: scf.for %[[OY:.*]] = %c0{{.*}} to %c4 step
// AVX2: %[[UP:.*]] = arith.addi %{{.*}}, %c-1 : index
// AVX2-NEXT: %[[TOP:.*]] = arith.maxsi %[[UP]], %c0{{.*}} : index
// AVX2: %[[DOWN:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// AVX2: %[[BOTTOM:.*]] = arith.minsi %[[DOWN]], %c3 : index
// AVX2: %[[B0:.*]] = vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %[[TOP]], %c0{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1x1x4x20xf32>, vector<9xf32>
// AVX2-NEXT: vector.shuffle %[[B0]], %[[B0]] [0, 0, 1, 2, 3, 4, 5, 6] : vector<9xf32>, vector<9xf32>
// AVX2: vector.shuffle %[[B0]], %[[B0]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<9xf32>, vector<9xf32>
// AVX2: vector.shuffle %[[B0]], %[[B0]] [1, 2, 3, 4, 5, 6, 7, 8] : vector<9xf32>, vector<9xf32>
// AVX2: vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %[[BOTTOM]], %c0{{.*}}]{{.*}} vector<9xf32>
// AVX2: vector.transfer_write %{{.*}}[%{{.*}}, %{{.*}}, %[[OY]], %c0{{.*}}] {in_bounds = [true]} : vector<8xf32>, tensor<1x1x4x20xf32>
// AVX2: vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %[[TOP]], %c7]{{.*}} vector<8xf32>
// AVX2: vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %[[TOP]], %c8]{{.*}} vector<8xf32>
// AVX2: vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %[[TOP]], %c9]{{.*}} vector<8xf32>
// AVX2: vector.transfer_write %{{.*}}[%{{.*}}, %{{.*}}, %[[OY]], %c8{{.*}}] {in_bounds = [true]} : vector<8xf32>, tensor<1x1x4x20xf32>
// AVX2: %[[B2:.*]] = vector.transfer_read %[[X]][%{{.*}}, %{{.*}}, %[[TOP]], %c11]{{.*}} vector<9xf32>
// AVX2-NEXT: vector.shuffle %[[B2]], %[[B2]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<9xf32>, vector<9xf32>
// AVX2: vector.shuffle %[[B2]], %[[B2]] [1, 2, 3, 4, 5, 6, 7, 8] : vector<9xf32>, vector<9xf32>
// AVX2: vector.shuffle %[[B2]], %[[B2]] [2, 3, 4, 5, 6, 7, 8, 8] : vector<9xf32>, vector<9xf32>
// AVX2: vector.transfer_write %{{.*}}[%{{.*}}, %{{.*}}, %[[OY]], %c12] {in_bounds = [true]} : vector<8xf32>, tensor<1x1x4x20xf32>
// AVX2-NOT: linalg.
// AVX2: return
func.func @vector_pool_clamped(%x: tensor<1x1x4x20xf32>) -> tensor<1x1x4x20xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x1x6x22xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x1x6x22xf32>) -> tensor<1x1x6x22xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 1, 1] [1, 1, 4, 20] [1, 1, 1, 1] : tensor<1x1x4x20xf32> into tensor<1x1x6x22xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %oe = tensor.empty() : tensor<1x1x4x20xf32>
  %o = linalg.fill ins(%ninf : f32) outs(%oe : tensor<1x1x4x20xf32>) -> tensor<1x1x4x20xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<1x1x6x22xf32>, tensor<3x3xf32>) outs(%o : tensor<1x1x4x20xf32>) -> tensor<1x1x4x20xf32>
  return %r : tensor<1x1x4x20xf32>
}

// A 1x1 stride-1 convolution on rows of at least 48 columns: filters-by-positions tiles whose
// right operand is the input row itself (no gather, no patch buffer), stored without a
// transpose through the epilogue.
// AVX2-LABEL: func.func @pointwise_rows(
// AVX2-SAME: %[[X:.*]]: tensor<1x8x2x48xf32>, %{{.*}}: tensor<16xf32>)
// AVX2-NOT: linalg.generic
// AVX2: scf.for %[[OY:.*]] = %c0 to %c2 step %c1
// AVX2-NEXT: %[[INROW:.*]] = tensor.extract_slice %[[X]][0, 0, %[[OY]], 0] [1, 8, 1, 48] [1, 1, 1, 1]
// AVX2-NEXT: %[[RM:.*]] = tensor.collapse_shape %[[INROW]] {{\[}}[0, 1, 2], [3]] : tensor<1x8x1x48xf32> into tensor<8x48xf32>
// AVX2-NEXT: scf.for %[[J:.*]] = %c0 to %c48 step %c16
// AVX2-NEXT: tensor.extract_slice %[[RM]][0, %[[J]]] [8, 16] [1, 1]
// AVX2: vector.outerproduct {{.*}} : vector<6xf32>, vector<16xf32>
// AVX2: arith.addf {{.*}} : vector<1x6x1x16xf32>
// AVX2-NEXT: arith.cmpf ogt, {{.*}} : vector<1x6x1x16xf32>
// AVX2-NEXT: arith.select {{.*}} : vector<1x6x1x16xi1>, vector<1x6x1x16xf32>
// AVX2-NEXT: vector.transfer_write {{.*}} : vector<1x6x1x16xf32>, tensor<1x6x1x16xf32>
// AVX2-NOT: linalg.
// AVX2: return
func.func @pointwise_rows(%x: tensor<1x8x2x48xf32>, %b: tensor<16xf32>) -> tensor<1x16x2x48xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x1x1xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x2x48xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x2x48xf32>) -> tensor<1x16x2x48xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x2x48xf32>, tensor<16x8x1x1xf32>) outs(%o : tensor<1x16x2x48xf32>) -> tensor<1x16x2x48xf32>
  %e2 = tensor.empty() : tensor<1x16x2x48xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<1x16x2x48xf32>, tensor<16xf32>) outs(%e2 : tensor<1x16x2x48xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x16x2x48xf32>
  return %y : tensor<1x16x2x48xf32>
}
