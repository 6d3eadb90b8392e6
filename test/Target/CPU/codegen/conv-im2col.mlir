// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 winograd=false})' | FileCheck %s --check-prefix=AVX2

// Convolutions of codegen/conv_im2col.py: shifted matmuls over the padded width, im2col one output
// row at a time (strided rows from the input split by column phase), 1x1 filters-by-positions tiles.

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

// -----

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

// -----

// A 3-channel convolution (too few channels for a K loop per tap) whose 20 filters are no
// multiple of 8 (else direct tiles, @direct_rows in conv-rows.mlir): im2col one output row at a
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

// -----

// The maps of @row_im2col_phases (affine map aliases come first in its split's output).
// AVX2-DAG: #[[$SPLIT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4 * 2 + d3)>
// AVX2-DAG: #[[$PHASE:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3 mod 2, d4 + d3 floordiv 2)>

// -----

// Stride 2 with room for every tap in both column phases (the ResNet stem's case): the input is
// split once by column phase, [1, C, Hp, 2, Wp / 2] (phase p holds columns p, p + 2, ...), and
// each output row gathers its patches from it: tap kx of position ox is phase kx mod 2, element
// ox + kx floordiv 2, a contiguous run instead of every second element (its two maps are
// checked above its label, where the printer puts them).
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

// -----

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
