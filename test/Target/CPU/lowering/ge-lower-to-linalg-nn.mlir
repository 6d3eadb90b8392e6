// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Lowerings of matmul/gemm/convolutions/pools (ge_mlir/lowering/nn.py): linalg
// named ops over a zero-filled accumulator, one elementwise epilogue generic
// for bias/scale/activation/rounding.

// 2-D matmul: linalg.matmul into a zero-filled init, no epilogue.
// CHECK-LABEL: func.func @matmul_2d(
// CHECK-SAME: %[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<3x4xf32>, tensor<4x5xf32>) outs(%[[I]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: return %[[M]] : tensor<3x5xf32>
func.func @matmul_2d(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = ge.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Batched 3-D x shared 2-D: the batch folds into M (collapse, 2-D matmul,
// expand); bias (trailing-dim map) and leaky_relu with its alpha in one epilogue.
// CHECK: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #[[LAST:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @matmul_batched_bias_leaky_relu(
// CHECK-SAME: %[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<4x5xf32>, %[[C:.*]]: tensor<5xf32>)
// CHECK-NEXT: %[[A2:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<6x5xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<6x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%[[A2]], %[[B]] : tensor<6x4xf32>, tensor<4x5xf32>) outs(%[[I]] : tensor<6x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[M3:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2]] output_shape [2, 3, 5] : tensor<6x5xf32> into tensor<2x3x5xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x3x5xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[LAST]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[M3]], %[[C]] : tensor<2x3x5xf32>, tensor<5xf32>) outs(%[[E2]] : tensor<2x3x5xf32>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[BV]] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[GE:.*]] = arith.cmpf oge, %[[S]], %[[Z2]] : f32
// CHECK-NEXT: %[[AL:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.mulf %[[AL]], %[[S]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[GE]], %[[S]], %[[NEG]] : f32
// CHECK-NEXT: linalg.yield %[[SEL]] : f32
// CHECK-NEXT: } -> tensor<2x3x5xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x3x5xf32>
func.func @matmul_batched_bias_leaky_relu(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf32>) -> tensor<2x3x5xf32> {
  %0 = ge.matmul %a, %b, %c {activation = #ge.act<leaky_relu>, activation_alpha = 0.25 : f32}
      : (tensor<2x3x4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Batched 3-D x 3-D: linalg.batch_matmul.
// CHECK-LABEL: func.func @matmul_batched(
// CHECK-SAME: %[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x4x5xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3x5xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%[[I]] : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: return %[[M]] : tensor<2x3x5xf32>
func.func @matmul_batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = ge.matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// 2-D with bias + relu.
// CHECK: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @matmul_bias_relu(
// CHECK-SAME: %[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>, %[[C:.*]]: tensor<5xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<3x4xf32>, tensor<4x5xf32>) outs(%{{.*}} : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[M]], %[[C]] : tensor<3x5xf32>, tensor<5xf32>) outs(%[[E2]] : tensor<3x5xf32>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[BV]] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[S]], %[[Z2]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
// CHECK-NEXT: } -> tensor<3x5xf32>
// CHECK-NEXT: return %[[R]] : tensor<3x5xf32>
func.func @matmul_bias_relu(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = ge.matmul %a, %b, %c {activation = #ge.act<relu>} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// f16 operands accumulate in f32; the epilogue only rounds back to f16.
// CHECK-LABEL: func.func @matmul_f16(
// CHECK-SAME: %[[A:.*]]: tensor<3x4xf16>, %[[B:.*]]: tensor<4x5xf16>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<3x4xf16>, tensor<4x5xf16>) outs(%[[I]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<3x5xf16>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<3x5xf32>) outs(%[[E2]] : tensor<3x5xf16>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK-NEXT: } -> tensor<3x5xf16>
// CHECK-NEXT: return %[[R]] : tensor<3x5xf16>
func.func @matmul_f16(%a: tensor<3x4xf16>, %b: tensor<4x5xf16>) -> tensor<3x5xf16> {
  %0 = ge.matmul %a, %b : (tensor<3x4xf16>, tensor<4x5xf16>) -> tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}

// -----

// gemm trans_b: B stays [N, K], read through the matmul's indexing maps (no
// transpose copy); alpha scales the product, beta the bias.
// CHECK: #[[MA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #[[MB:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK: #[[MC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gemm_trans_b(
// CHECK-SAME: %[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<5x4xf32>, %[[C:.*]]: tensor<5xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul indexing_maps = [#[[MA]], #[[MB]], #[[MC]]] ins(%[[A]], %[[B]] : tensor<3x4xf32>, tensor<5x4xf32>) outs(%[[I]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[M]], %[[C]] : tensor<3x5xf32>, tensor<5xf32>) outs(%[[E2]] : tensor<3x5xf32>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[AL:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[SV:.*]] = arith.mulf %[[V]], %[[AL]] : f32
// CHECK-NEXT: %[[BE:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[SB:.*]] = arith.mulf %[[BV]], %[[BE]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[SV]], %[[SB]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<3x5xf32>
// CHECK-NEXT: return %[[R]] : tensor<3x5xf32>
func.func @gemm_trans_b(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = ge.gemm %a, %b, %c {trans_b = true, alpha = 0.5 : f32, beta = 2.0 : f32}
      : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// conv2d, groups = 1, pads and strides: the input inserted into a zero-filled
// tensor (destination-passing, so its producer can write in place), then
// linalg.conv_2d_nchw_fchw on the padded input.
// CHECK-LABEL: func.func @conv2d_pads(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>)
// CHECK-NEXT: %[[PE:.*]] = tensor.empty() : tensor<1x3x10x10xf32>
// CHECK-NEXT: %[[PV:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[PF:.*]] = linalg.fill ins(%[[PV]] : f32) outs(%[[PE]] : tensor<1x3x10x10xf32>) -> tensor<1x3x10x10xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %[[X]] into %[[PF]][0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> into tensor<1x3x10x10xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %[[W]] : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[I]] : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return %[[Y]] : tensor<1x4x4x4xf32>
func.func @conv2d_pads(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %0 = ge.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// conv2d with bias, residual and relu: one epilogue generic adds the
// per-channel bias, then the residual (identity map), then applies the relu.
// CHECK-LABEL: func.func @conv2d_bias_residual(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x3x3xf32>, %[[W:.*]]: tensor<2x2x1x1xf32>, %[[B:.*]]: tensor<2xf32>, %[[R:.*]]: tensor<1x2x3x3xf32>)
// CHECK: %[[Y:.*]] = linalg.conv_2d_nchw_fchw
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[Y]], %[[B]], %[[R]] : tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<1x2x3x3xf32>) outs(%[[E]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[BB:.*]]: f32, %[[RR:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[A]], %[[BB]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[RR]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[S2]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: return %[[G]]
func.func @conv2d_bias_residual(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>, %b: tensor<2xf32>, %r: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %0 = ge.conv2d %x, %w, %b residual(%r) {activation = #ge.act<relu>}
      : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Depthwise (groups = C, one filter per channel): the [C, 1, kh, kw] filter
// collapses to [C, kh, kw] for linalg.depthwise_conv_2d_nchw_chw.
// CHECK-LABEL: func.func @conv2d_depthwise(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<8x1x3x3xf32>)
// CHECK-NEXT: %[[W3:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1, 2], [3]] : tensor<8x1x3x3xf32> into tensor<8x3x3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x8x4x4xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W3]] : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>) outs(%[[I]] : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT: return %[[Y]] : tensor<1x8x4x4xf32>
func.func @conv2d_depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = ge.conv2d %x, %w {groups = 8 : i64} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// Grouped (groups = 2): input [N, G, C/G, H, W], filter [G, F/G, C/G, kh, kw],
// linalg.conv_2d_ngchw_gfchw, the result collapsed back to [N, F, H, W].
// CHECK-LABEL: func.func @conv2d_grouped(
// CHECK-SAME: %[[X:.*]]: tensor<1x6x5x5xf32>, %[[W:.*]]: tensor<4x3x1x1xf32>)
// CHECK-NEXT: %[[XG:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 3, 5, 5] : tensor<1x6x5x5xf32> into tensor<1x2x3x5x5xf32>
// CHECK-NEXT: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 3, 1, 1] : tensor<4x3x1x1xf32> into tensor<2x2x3x1x1xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x2x5x5xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x2x2x5x5xf32>) -> tensor<1x2x2x5x5xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[XG]], %[[WG]] : tensor<1x2x3x5x5xf32>, tensor<2x2x3x1x1xf32>) outs(%[[I]] : tensor<1x2x2x5x5xf32>) -> tensor<1x2x2x5x5xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x2x5x5xf32> into tensor<1x4x5x5xf32>
// CHECK-NEXT: return %[[R]] : tensor<1x4x5x5xf32>
func.func @conv2d_grouped(%x: tensor<1x6x5x5xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x5x5xf32> {
  %0 = ge.conv2d %x, %w {groups = 2 : i64} : (tensor<1x6x5x5xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x5x5xf32>
  return %0 : tensor<1x4x5x5xf32>
}

// -----

// Bias (read along the channel dim) and relu in one epilogue after the conv.
// CHECK: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv2d_bias_relu(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x6x6xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%[[I]] : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID4]], #[[CH]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[Y]], %[[B]] : tensor<1x4x4x4xf32>, tensor<4xf32>) outs(%[[E2]] : tensor<1x4x4x4xf32>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[BV]] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[S]], %[[Z2]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
// CHECK-NEXT: } -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return %[[R]] : tensor<1x4x4x4xf32>
func.func @conv2d_bias_relu(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = ge.conv2d %x, %w, %b {activation = #ge.act<relu>}
      : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// NHWC: transposed to NCHW, convolved, transposed back.
// CHECK-LABEL: func.func @conv2d_nhwc(
// CHECK-SAME: %[[X:.*]]: tensor<1x6x6x3xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3x6x6xf32>
// CHECK-NEXT: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<1x6x6x3xf32>) outs(%[[E]] : tensor<1x3x6x6xf32>) permutation = [0, 3, 1, 2]
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E2]] : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[XT]], %[[W]] : tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%[[I]] : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[E3:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[YT:.*]] = linalg.transpose ins(%[[Y]] : tensor<1x4x4x4xf32>) outs(%[[E3]] : tensor<1x4x4x4xf32>) permutation = [0, 2, 3, 1]
// CHECK-NEXT: return %[[YT]] : tensor<1x4x4x4xf32>
func.func @conv2d_nhwc(%x: tensor<1x6x6x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %0 = ge.conv2d %x, %w {data_format = #ge.format<NHWC>} : (tensor<1x6x6x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// conv_transpose2d (stride 2, pads 1, output_padding 1): the input inserted
// with stride 2 into a zero tensor with a (k - 1) border (+ output_padding),
// the filter [C_in, F, kh, kw] permuted to [F, C_in, kh, kw] and flipped, a
// stride-1 convolution, then the pads cut off by an extract_slice.
// CHECK: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, -d2 + 2, -d3 + 2)>
// CHECK: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x4x4xf32>, %[[W:.*]]: tensor<3x2x3x3xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3x12x12xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[BASE:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x3x12x12xf32>) -> tensor<1x3x12x12xf32>
// CHECK-NEXT: %[[D:.*]] = tensor.insert_slice %[[X]] into %[[BASE]][0, 0, 2, 2] [1, 3, 4, 4] [1, 1, 2, 2] : tensor<1x3x4x4xf32> into tensor<1x3x12x12xf32>
// CHECK-NEXT: %[[EW:.*]] = tensor.empty() : tensor<2x3x3x3xf32>
// CHECK-NEXT: %[[WF:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[W]] : tensor<3x2x3x3xf32>) outs(%[[EW]] : tensor<2x3x3x3xf32>) {
// CHECK-NEXT: ^bb0(%[[WV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[WV]] : f32
// CHECK-NEXT: } -> tensor<2x3x3x3xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x2x10x10xf32>
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z2]] : f32) outs(%[[E2]] : tensor<1x2x10x10xf32>) -> tensor<1x2x10x10xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[D]], %[[WF]] : tensor<1x3x12x12xf32>, tensor<2x3x3x3xf32>) outs(%[[I]] : tensor<1x2x10x10xf32>) -> tensor<1x2x10x10xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.extract_slice %[[Y]][0, 0, 1, 1] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x10x10xf32> to tensor<1x2x8x8xf32>
// CHECK-NEXT: return %[[R]] : tensor<1x2x8x8xf32>
func.func @conv_transpose2d(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32> {
  %0 = ge.conv_transpose2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>}
      : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// -----

// Grouped conv_transpose2d with bias: the filter map picks group (o floordiv
// F/g) * C_in/g + ci (F/g = 1 here), the stride-1 convolution is grouped.
// CHECK: #[[GFLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d1, 0, -d2 + 1, -d3 + 1)>
// CHECK-LABEL: func.func @conv_transpose2d_grouped(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x3x3xf32>, %[[W:.*]]: tensor<4x1x2x2xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK: %[[D:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 0, 1, 1] [1, 4, 3, 3] [1, 1, 1, 1] : tensor<1x4x3x3xf32> into tensor<1x4x5x5xf32>
// CHECK: %[[WF:.*]] = linalg.generic {indexing_maps = [#[[GFLIP]], #{{.*}}], {{.*}} ins(%[[W]] : tensor<4x1x2x2xf32>) outs(%{{.*}} : tensor<2x2x2x2xf32>)
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[D]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 5, 5]
// CHECK-NEXT: %[[WG:.*]] = tensor.expand_shape %[[WF]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 1, 2, 2, 2]
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[XG]], %[[WG]] : tensor<1x2x2x5x5xf32>, tensor<2x1x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x1x4x4xf32>)
// CHECK-NEXT: %[[Y:.*]] = tensor.collapse_shape {{.*}} : tensor<1x2x1x4x4xf32> into tensor<1x2x4x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[Y]], %[[B]] : tensor<1x2x4x4xf32>, tensor<2xf32>)
// CHECK: arith.addf
// CHECK: return %[[R]] : tensor<1x2x4x4xf32>
func.func @conv_transpose2d_grouped(%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x2x2xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %0 = ge.conv_transpose2d %x, %w, %b {groups = 2 : i64}
      : (tensor<1x4x3x3xf32>, tensor<4x1x2x2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// max_pool2d with ceil_mode: the last window runs one past the input, so the
// bottom/right get one extra row/column of -inf padding; the init is -inf too.
// CHECK-LABEL: func.func @max_pool2d_ceil(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK-NEXT: %[[PE:.*]] = tensor.empty() : tensor<1x3x9x9xf32>
// CHECK-NEXT: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[PF:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[PE]] : tensor<1x3x9x9xf32>) -> tensor<1x3x9x9xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %[[X]] into %[[PF]][0, 0, 0, 0] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> into tensor<1x3x9x9xf32>
// CHECK-NEXT: %[[K:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3x4x4xf32>
// CHECK-NEXT: %[[NINF2:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[NINF2]] : f32) outs(%[[E]] : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %[[K]] : tensor<1x3x9x9xf32>, tensor<3x3xf32>) outs(%[[I]] : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT: return %[[Y]] : tensor<1x3x4x4xf32>
func.func @max_pool2d_ceil(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true}
      : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// avg_pool2d (pads, count_include_pad = false): a zero-padded sum pool, then
// a multiply by the per-position reciprocal window counts (corner 1/4, edges
// 1/6, inside 1/9), broadcast over N and C.
// CHECK: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #[[HW:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @avg_pool2d(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x6x6xf32>)
// CHECK-NEXT: %[[PE:.*]] = tensor.empty() : tensor<1x3x8x8xf32>
// CHECK-NEXT: %[[PV:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[PF:.*]] = linalg.fill ins(%[[PV]] : f32) outs(%[[PE]] : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %[[X]] into %[[PF]][0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : tensor<1x3x6x6xf32> into tensor<1x3x8x8xf32>
// CHECK-NEXT: %[[K:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3x3x3xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT: %[[S:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %[[K]] : tensor<1x3x8x8xf32>, tensor<3x3xf32>) outs(%[[I]] : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT: %[[INV:.*]] = arith.constant dense<{{\[\[}}2.500000e-01, 0.166666672, 0.166666672], [0.166666672, 0.111111112, 0.111111112], [0.166666672, 0.111111112, 0.111111112]]> : tensor<3x3xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x3x3x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID4]], #[[HW]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[S]], %[[INV]] : tensor<1x3x3x3xf32>, tensor<3x3xf32>) outs(%[[E2]] : tensor<1x3x3x3xf32>) {
// CHECK-NEXT: ^bb0(%[[SV:.*]]: f32, %[[IV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[SV]], %[[IV]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK-NEXT: } -> tensor<1x3x3x3xf32>
// CHECK-NEXT: return %[[R]] : tensor<1x3x3x3xf32>
func.func @avg_pool2d(%x: tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32> {
  %0 = ge.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}
