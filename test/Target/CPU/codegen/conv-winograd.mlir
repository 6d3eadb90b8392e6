// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3}, canonicalize)' | FileCheck %s --check-prefix=WINO

// canonicalize: the pass canonicalizes only when its transform script runs (a split without
// tile loop nests does not need it); the checks read the canonical loops the pipeline goes on with.

// Winograd F(2x2, 3x3) convolutions (codegen/conv_winograd.py).

// Winograd F(2x2, 3x3) (the default; conv-rows.mlir runs with winograd=false): a 3x3
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
