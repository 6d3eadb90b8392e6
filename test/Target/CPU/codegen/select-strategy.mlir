// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-select-codegen-strategy{cpu=x86-64-v3})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-select-codegen-strategy{cpu=x86-64-v3 winograd=false})' | FileCheck %s --check-prefix=DIRECT
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-select-codegen-strategy{cpu=x86-64-v3 tile-m=1 tile-n=4})' | FileCheck %s --check-prefix=NARROW
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-select-codegen-strategy{cpu=x86-64-v3}, ge-apply-codegen-strategy{cpu=x86-64-v3})' | FileCheck %s --check-prefix=APPLIED

// The selection alone (codegen/strategy.py): each convolution, window op and matmul records the
// path ge-apply-codegen-strategy takes as ge.cpu_strategy and is otherwise left as it is. The
// apply pass removes the record (APPLIED).
// APPLIED-NOT: ge.cpu_strategy

// A 3x3 stride-1 convolution padded by 1 with a constant filter, 8 channels and 16 filters:
// Winograd; without it, tiles over the output positions. A tile that the shuffle blocks cannot
// store transposed (4 columns) takes the output-position tiles too.
// CHECK-LABEL: func.func @winograd(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "winograd"
// DIRECT-LABEL: func.func @winograd(
// DIRECT: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "shifted_rows"
// NARROW-LABEL: func.func @winograd(
// NARROW: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "shifted_rows"
func.func @winograd(%x: tensor<1x8x10x10xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// -----

// A constant filter of enough filters and channels, any stride: tiles over the output positions.
// CHECK-LABEL: func.func @shifted_rows(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "shifted_rows"
func.func @shifted_rows(%x: tensor<1x8x9x9xf32>) -> tensor<1x16x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %r : tensor<1x16x4x4xf32>
}

// -----

// A filter that is no constant on a large stride-1 image (32 rows of 34 padded columns: at least
// 1000): shifted matmuls over the padded width. A small image (8 rows of 10) and few filters: im2col.
// CHECK-LABEL: func.func @shifted_matmuls(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "shifted_matmuls"
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "img2col"
func.func @shifted_matmuls(%x: tensor<1x4x34x34xf32>, %w: tensor<8x4x3x3xf32>, %s: tensor<1x4x10x10xf32>)
    -> (tensor<1x8x32x32xf32>, tensor<1x8x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x32x32xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x34x34xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  %se = tensor.empty() : tensor<1x8x8x8xf32>
  %so = linalg.fill ins(%z : f32) outs(%se : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %sr = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%s, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%so : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r, %sr : tensor<1x8x32x32xf32>, tensor<1x8x8x8xf32>
}

// -----

// Few input channels (a stem) with a constant filter of a multiple of 8 filters: direct tiles; a
// tile that cannot be stored transposed: im2col one output row at a time instead.
// CHECK-LABEL: func.func @direct_rows(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "direct_rows"
// NARROW-LABEL: func.func @direct_rows(
// NARROW: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "row_im2col"
func.func @direct_rows(%x: tensor<1x3x17x17xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x3x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x17x17xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// -----

// Few channels and 20 filters (no multiple of 8): im2col one output row at a time. With an
// output that does not start as zeros, whole-image im2col.
// CHECK-LABEL: func.func @row_im2col(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "row_im2col"
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "img2col"
func.func @row_im2col(%x: tensor<1x3x11x11xf32>, %acc: tensor<1x20x5x5xf32>) -> (tensor<1x20x5x5xf32>, tensor<1x20x5x5xf32>) {
  %w = arith.constant dense<0.5> : tensor<20x3x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x5x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x20x5x5xf32>) -> tensor<1x20x5x5xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x11x11xf32>, tensor<20x3x3x3xf32>) outs(%o : tensor<1x20x5x5xf32>) -> tensor<1x20x5x5xf32>
  %r2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x11x11xf32>, tensor<20x3x3x3xf32>) outs(%acc : tensor<1x20x5x5xf32>) -> tensor<1x20x5x5xf32>
  return %r, %r2 : tensor<1x20x5x5xf32>, tensor<1x20x5x5xf32>
}

// -----

// 1x1 stride 1: filters-by-positions tiles on rows of at least 48 columns, output-position tiles
// on shorter ones.
// CHECK-LABEL: func.func @pointwise(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "pointwise"
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "shifted_rows"
func.func @pointwise(%x: tensor<1x8x2x48xf32>, %s: tensor<1x8x2x47xf32>) -> (tensor<1x16x2x48xf32>, tensor<1x16x2x47xf32>) {
  %w = arith.constant dense<0.5> : tensor<16x8x1x1xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x2x48xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x2x48xf32>) -> tensor<1x16x2x48xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x2x48xf32>, tensor<16x8x1x1xf32>) outs(%o : tensor<1x16x2x48xf32>) -> tensor<1x16x2x48xf32>
  %se = tensor.empty() : tensor<1x16x2x47xf32>
  %so = linalg.fill ins(%z : f32) outs(%se : tensor<1x16x2x47xf32>) -> tensor<1x16x2x47xf32>
  %sr = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%s, %w : tensor<1x8x2x47xf32>, tensor<16x8x1x1xf32>) outs(%so : tensor<1x16x2x47xf32>) -> tensor<1x16x2x47xf32>
  return %r, %sr : tensor<1x16x2x48xf32>, tensor<1x16x2x47xf32>
}

// -----

// Declined: f16 and dynamic convolutions stay linalg ops (convert-linalg-to-loops).
// CHECK-LABEL: func.func @declined_convs(
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "none"
// CHECK: linalg.conv_2d_nchw_fchw {{{.*}}ge.cpu_strategy = "none"
func.func @declined_convs(%x: tensor<1x8x10x10xf16>, %w: tensor<16x8x3x3xf16>, %o: tensor<1x16x8x8xf16>,
                          %dx: tensor<?x8x10x10xf32>, %dw: tensor<16x8x3x3xf32>, %do: tensor<?x16x8x8xf32>)
    -> (tensor<1x16x8x8xf16>, tensor<?x16x8x8xf32>) {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf16>, tensor<16x8x3x3xf16>) outs(%o : tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%dx, %dw : tensor<?x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%do : tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xf32>
  return %r, %d : tensor<1x16x8x8xf16>, tensor<?x16x8x8xf32>
}

// -----

// Window ops: f32 with a fresh output as vector code; a max pool of an input padded with -inf
// reading the input in place; a one-column output, an f64 pool and an output that does not start
// as the identity as tap sums; an integer pool declined.
// CHECK-LABEL: func.func @windows(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{{.*}}ge.cpu_strategy = "vectors"
// CHECK: linalg.pooling_nchw_max {{{.*}}ge.cpu_strategy = "clamped_vectors"
// CHECK: linalg.pooling_nchw_sum {{{.*}}ge.cpu_strategy = "taps"
// CHECK: linalg.pooling_nchw_sum {{{.*}}ge.cpu_strategy = "taps"
// CHECK: linalg.pooling_nchw_max {{{.*}}ge.cpu_strategy = "taps"
// CHECK: linalg.pooling_nchw_max {{{.*}}ge.cpu_strategy = "none"
func.func @windows(%x: tensor<1x4x10x10xf32>, %dw: tensor<4x3x3xf32>, %p: tensor<1x1x4x20xf32>, %c: tensor<1x2x4x3xf32>,
                   %d: tensor<1x2x4x4xf64>, %m4: tensor<1x2x4x4xf32>, %acc: tensor<1x2x3x3xf32>, %i: tensor<1x2x4x4xi32>)
    -> (tensor<1x4x8x8xf32>, tensor<1x1x4x20xf32>, tensor<1x2x3x1xf32>, tensor<1x2x2x2xf64>, tensor<1x2x3x3xf32>,
        tensor<1x2x3x3xi32>) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %v = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %dw : tensor<1x4x10x10xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %pe = tensor.empty() : tensor<1x1x6x22xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x1x6x22xf32>) -> tensor<1x1x6x22xf32>
  %pp = tensor.insert_slice %p into %pf[0, 0, 1, 1] [1, 1, 4, 20] [1, 1, 1, 1] : tensor<1x1x4x20xf32> into tensor<1x1x6x22xf32>
  %w3 = tensor.empty() : tensor<3x3xf32>
  %me = tensor.empty() : tensor<1x1x4x20xf32>
  %mo = linalg.fill ins(%ninf : f32) outs(%me : tensor<1x1x4x20xf32>) -> tensor<1x1x4x20xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pp, %w3 : tensor<1x1x6x22xf32>, tensor<3x3xf32>) outs(%mo : tensor<1x1x4x20xf32>) -> tensor<1x1x4x20xf32>
  %w2 = tensor.empty() : tensor<2x3xf32>
  %ce = tensor.empty() : tensor<1x2x3x1xf32>
  %co = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x3x1xf32>) -> tensor<1x2x3x1xf32>
  %one = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%c, %w2 : tensor<1x2x4x3xf32>, tensor<2x3xf32>) outs(%co : tensor<1x2x3x1xf32>) -> tensor<1x2x3x1xf32>
  %dz = arith.constant 0.0 : f64
  %wd = tensor.empty() : tensor<2x2xf64>
  %de = tensor.empty() : tensor<1x2x2x2xf64>
  %do = linalg.fill ins(%dz : f64) outs(%de : tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
  %f64 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%d, %wd : tensor<1x2x4x4xf64>, tensor<2x2xf64>) outs(%do : tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
  %w22 = tensor.empty() : tensor<2x2xf32>
  %into = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%m4, %w22 : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %wi = tensor.empty() : tensor<2x2xi32>
  %ie = tensor.empty() : tensor<1x2x3x3xi32>
  %int = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%i, %wi : tensor<1x2x4x4xi32>, tensor<2x2xi32>) outs(%ie : tensor<1x2x3x3xi32>) -> tensor<1x2x3x3xi32>
  return %v, %m, %one, %f64, %into, %int : tensor<1x4x8x8xf32>, tensor<1x1x4x20xf32>, tensor<1x2x3x1xf32>,
      tensor<1x2x2x2xf64>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xi32>
}

// -----

// Matmuls: a constant B with two or more rows of A packed in column panels; a one-row product with
// a constant B, a B that is no constant and a batched matmul register-tiled; mixed precision
// declined.
// CHECK-LABEL: func.func @matmuls(
// CHECK: linalg.matmul {ge.cpu_strategy = "packed_panels"}
// CHECK: linalg.matmul {ge.cpu_strategy = "tiled"}
// CHECK: linalg.matmul {ge.cpu_strategy = "tiled"}
// CHECK: linalg.batch_matmul {ge.cpu_strategy = "tiled"}
// CHECK: linalg.matmul {ge.cpu_strategy = "none"}
func.func @matmuls(%a: tensor<14x16xf32>, %row: tensor<1x16xf32>, %b: tensor<16x40xf32>, %ba: tensor<2x3x16xf32>,
                   %bb: tensor<2x16x8xf32>, %h: tensor<2x3xf16>, %hb: tensor<3x4xf16>)
    -> (tensor<14x40xf32>, tensor<1x40xf32>, tensor<14x40xf32>, tensor<2x3x8xf32>, tensor<2x4xf32>) {
  %cb = arith.constant dense<0.5> : tensor<16x40xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<14x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<14x40xf32>) -> tensor<14x40xf32>
  %packed = linalg.matmul ins(%a, %cb : tensor<14x16xf32>, tensor<16x40xf32>) outs(%f : tensor<14x40xf32>) -> tensor<14x40xf32>
  %e1 = tensor.empty() : tensor<1x40xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x40xf32>) -> tensor<1x40xf32>
  %gemv = linalg.matmul ins(%row, %cb : tensor<1x16xf32>, tensor<16x40xf32>) outs(%f1 : tensor<1x40xf32>) -> tensor<1x40xf32>
  %plain = linalg.matmul ins(%a, %b : tensor<14x16xf32>, tensor<16x40xf32>) outs(%f : tensor<14x40xf32>) -> tensor<14x40xf32>
  %eb = tensor.empty() : tensor<2x3x8xf32>
  %fb = linalg.fill ins(%z : f32) outs(%eb : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %batch = linalg.batch_matmul ins(%ba, %bb : tensor<2x3x16xf32>, tensor<2x16x8xf32>) outs(%fb : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %eh = tensor.empty() : tensor<2x4xf32>
  %fh = linalg.fill ins(%z : f32) outs(%eh : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mixed = linalg.matmul ins(%h, %hb : tensor<2x3xf16>, tensor<3x4xf16>) outs(%fh : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %packed, %gemv, %plain, %batch, %mixed : tensor<14x40xf32>, tensor<1x40xf32>, tensor<14x40xf32>,
      tensor<2x3x8xf32>, tensor<2x4xf32>
}
