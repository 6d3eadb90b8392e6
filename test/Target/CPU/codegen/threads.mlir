// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 threads=2})' | FileCheck %s --check-prefix=THREADS

// With threads (codegen/threads.py and the thread splits of the recipes): large matmul parts,
// generics, shifted matmuls and row im2col split over scf.forall iterations.

// A small matmul stays sequential.
// THREADS-LABEL: func.func @matmul(
// THREADS-NOT: scf.forall
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// With threads, a large matmul part is cut into one scf.forall iteration per
// thread: the 60 rows of 6-row tiles into 2 blocks of 4 column panels (64
// columns); the register tiling (and K blocking) runs inside each. Parts under
// 2^19 multiply-adds stay sequential: the 2-row rest (256K), @matmul above.
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

// -----

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

// -----

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

// -----

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

// -----

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

// -----

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
