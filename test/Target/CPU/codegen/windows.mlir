// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3 winograd=false}, canonicalize)' | FileCheck %s --check-prefix=AVX2

// canonicalize: the pass canonicalizes only when its transform script runs (a split without
// tile loop nests does not need it); the checks read the canonical loops the pipeline goes on with.

// Depthwise convolutions and pools (codegen/windows.py): tap-sum generics, and vector code over
// output columns with the epilogue in the vectors.

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

// -----

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

// -----

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

// -----

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

// -----

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

// -----

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
