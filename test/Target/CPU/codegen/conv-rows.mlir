// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 winograd=false}, canonicalize)' | FileCheck %s --check-prefix=AVX2

// canonicalize: the pass canonicalizes only when its transform script runs (a split without
// tile loop nests does not need it); the checks read the canonical loops the pipeline goes on with.

// Convolutions of codegen/conv_rows.py: register tiles over the output positions stored transposed
// through the epilogue, and direct tiles for the few-channel stems (Winograd off: conv-winograd.mlir).

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

// -----

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

// -----

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

// -----

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

// -----

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

// -----

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
