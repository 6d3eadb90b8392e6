// RUN: ge-opt %s | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8x16xf32>, %[[ARG1:[^ ,:)]+]]: tensor<16x32xf32>, %[[ARG2:[^ ,:)]+]]: tensor<32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] {activation = #ge.act<gelu>} : (tensor<2x8x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<2x8x32xf32>, tensor<2x8x32xf32>
// CHECK-NEXT: }
func.func @matmul(%a: tensor<2x8x16xf32>, %b: tensor<16x32xf32>, %bias: tensor<32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>) {
  %0 = ge.matmul %a, %b : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  %1 = ge.matmul %a, %b, %bias {activation = #ge.act<gelu>} : (tensor<2x8x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  return %0, %1 : tensor<2x8x32xf32>, tensor<2x8x32xf32>
}

// CHECK-LABEL: func.func @matmul_batch_broadcast(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x1x8x16xf16>, %[[ARG1:[^ ,:)]+]]: tensor<3x16x2xf16>) -> tensor<4x3x8x2xf16> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<4x1x8x16xf16>, tensor<3x16x2xf16>) -> tensor<4x3x8x2xf16>
// CHECK-NEXT: return %[[V0]] : tensor<4x3x8x2xf16>
// CHECK-NEXT: }
func.func @matmul_batch_broadcast(%a: tensor<4x1x8x16xf16>, %b: tensor<3x16x2xf16>) -> tensor<4x3x8x2xf16> {
  %0 = ge.matmul %a, %b : (tensor<4x1x8x16xf16>, tensor<3x16x2xf16>) -> tensor<4x3x8x2xf16>
  return %0 : tensor<4x3x8x2xf16>
}

// CHECK-LABEL: func.func @matmul_vectors(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<5x7xf32>, %[[ARG1:[^ ,:)]+]]: tensor<7xf32>, %[[ARG2:[^ ,:)]+]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<7xf32>, tensor<f32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<5x7xf32>, tensor<7xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.matmul %[[ARG2]], %[[ARG0]] : (tensor<5xf32>, tensor<5x7xf32>) -> tensor<7xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[ARG1]], %[[ARG1]] : (tensor<7xf32>, tensor<7xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<5xf32>, tensor<7xf32>, tensor<f32>
// CHECK-NEXT: }
func.func @matmul_vectors(%m: tensor<5x7xf32>, %v: tensor<7xf32>, %u: tensor<5xf32>) -> (tensor<5xf32>, tensor<7xf32>, tensor<f32>) {
  %0 = ge.matmul %m, %v : (tensor<5x7xf32>, tensor<7xf32>) -> tensor<5xf32>
  %1 = ge.matmul %u, %m : (tensor<5xf32>, tensor<5x7xf32>) -> tensor<7xf32>
  %2 = ge.matmul %v, %v : (tensor<7xf32>, tensor<7xf32>) -> tensor<f32>
  return %0, %1, %2 : tensor<5xf32>, tensor<7xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @matmul_leaky(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x16xf32>, %[[ARG1:[^ ,:)]+]]: tensor<16x4xf32>) -> tensor<?x4xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] {activation = #ge.act<leaky_relu>, activation_alpha = 1.000000e-01 : f32} : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x4xf32>
// CHECK-NEXT: }
func.func @matmul_leaky(%a: tensor<?x16xf32>, %b: tensor<16x4xf32>) -> tensor<?x4xf32> {
  %0 = ge.matmul %a, %b {activation = #ge.act<leaky_relu>, activation_alpha = 1.000000e-01 : f32} : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<16x8xf32>, %[[ARG1:[^ ,:)]+]]: tensor<32x16xf32>, %[[ARG2:[^ ,:)]+]]: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[ARG1]], %[[ARG2]] {trans_a = true, trans_b = true} : (tensor<16x8xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[ARG1]] {activation = #ge.act<relu>, alpha = 5.000000e-01 : f32, beta = 0.000000e+00 : f32, trans_a = true, trans_b = true} : (tensor<16x8xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<8x32xf32>, tensor<8x32xf32>
// CHECK-NEXT: }
func.func @gemm(%a: tensor<16x8xf32>, %b: tensor<32x16xf32>, %c: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = ge.gemm %a, %b, %c {trans_a = true, trans_b = true} : (tensor<16x8xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %1 = ge.gemm %a, %b {activation = #ge.act<relu>, alpha = 5.000000e-01 : f32, beta = 0.000000e+00 : f32, trans_a = true, trans_b = true} : (tensor<16x8xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
  return %0, %1 : tensor<8x32xf32>, tensor<8x32xf32>
}

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x224x224xf32>, %[[ARG1:[^ ,:)]+]]: tensor<64x3x7x7xf32>, %[[ARG2:[^ ,:)]+]]: tensor<64xf32>) -> (tensor<1x64x112x112xf32>, tensor<1x64x218x218xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[ARG1]], %[[ARG2]] {activation = #ge.act<relu>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[ARG1]] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x218x218xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x64x112x112xf32>, tensor<1x64x218x218xf32>
// CHECK-NEXT: }
func.func @conv2d(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>) -> (tensor<1x64x112x112xf32>, tensor<1x64x218x218xf32>) {
  %0 = ge.conv2d %x, %w, %b {activation = #ge.act<relu>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %1 = ge.conv2d %x, %w : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x218x218xf32>
  return %0, %1 : tensor<1x64x112x112xf32>, tensor<1x64x218x218xf32>
}

// CHECK-LABEL: func.func @conv2d_depthwise_dilated(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x32x17x17xf32>, %[[ARG1:[^ ,:)]+]]: tensor<32x1x3x3xf32>) -> tensor<2x32x13x13xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[ARG1]] {dilations = array<i64: 2, 2>, groups = 32 : i64} : (tensor<2x32x17x17xf32>, tensor<32x1x3x3xf32>) -> tensor<2x32x13x13xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x32x13x13xf32>
// CHECK-NEXT: }
func.func @conv2d_depthwise_dilated(%x: tensor<2x32x17x17xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<2x32x13x13xf32> {
  %0 = ge.conv2d %x, %w {dilations = array<i64: 2, 2>, groups = 32 : i64} : (tensor<2x32x17x17xf32>, tensor<32x1x3x3xf32>) -> tensor<2x32x13x13xf32>
  return %0 : tensor<2x32x13x13xf32>
}

// CHECK-LABEL: func.func @conv2d_nhwc(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x56x56x16xf16>, %[[ARG1:[^ ,:)]+]]: tensor<32x16x3x3xf16>) -> tensor<1x28x28x32xf16> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[ARG1]] {activation = #ge.act<silu>, data_format = #ge.format<NHWC>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x56x56x16xf16>, tensor<32x16x3x3xf16>) -> tensor<1x28x28x32xf16>
// CHECK-NEXT: return %[[V0]] : tensor<1x28x28x32xf16>
// CHECK-NEXT: }
func.func @conv2d_nhwc(%x: tensor<1x56x56x16xf16>, %w: tensor<32x16x3x3xf16>) -> tensor<1x28x28x32xf16> {
  %0 = ge.conv2d %x, %w {activation = #ge.act<silu>, data_format = #ge.format<NHWC>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x56x56x16xf16>, tensor<32x16x3x3xf16>) -> tensor<1x28x28x32xf16>
  return %0 : tensor<1x28x28x32xf16>
}

// CHECK-LABEL: func.func @conv2d_dynamic_batch(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3x32x32xf32>, %[[ARG1:[^ ,:)]+]]: tensor<8x3x3x3xf32>) -> tensor<?x8x30x30xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[ARG1]] : (tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x30x30xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x8x30x30xf32>
// CHECK-NEXT: }
func.func @conv2d_dynamic_batch(%x: tensor<?x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<?x8x30x30xf32> {
  %0 = ge.conv2d %x, %w : (tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x30x30xf32>
  return %0 : tensor<?x8x30x30xf32>
}

// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x16x8x8xf32>, %[[ARG1:[^ ,:)]+]]: tensor<16x8x4x4xf32>, %[[ARG2:[^ ,:)]+]]: tensor<8xf32>) -> (tensor<1x8x16x16xf32>, tensor<1x8x19x19xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG0]], %[[ARG1]], %[[ARG2]] {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG0]], %[[ARG1]] {output_padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>) -> tensor<1x8x19x19xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x8x16x16xf32>, tensor<1x8x19x19xf32>
// CHECK-NEXT: }
func.func @conv_transpose2d(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>, %b: tensor<8xf32>) -> (tensor<1x8x16x16xf32>, tensor<1x8x19x19xf32>) {
  %0 = ge.conv_transpose2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %1 = ge.conv_transpose2d %x, %w {output_padding = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>) -> tensor<1x8x19x19xf32>
  return %0, %1 : tensor<1x8x16x16xf32>, tensor<1x8x19x19xf32>
}

// CHECK-LABEL: func.func @pools(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x64x112x112xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x1x1xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.avg_pool2d %[[ARG0]] {count_include_pad = true, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.global_avg_pool %[[ARG0]] : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.global_max_pool %[[ARG0]] : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x1x1xf32>
// CHECK-NEXT: }
func.func @pools(%x: tensor<1x64x112x112xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x1x1xf32>) {
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %1 = ge.avg_pool2d %x {count_include_pad = true, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %2 = ge.global_avg_pool %x : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  %3 = ge.global_max_pool %x : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  return %0, %1, %2, %3 : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x1x1xf32>
}

// CHECK-LABEL: func.func @pool_ceil(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x8x7x7xf32>) -> (tensor<1x8x3x3xf32>, tensor<1x8x4x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x3x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {ceil_mode = true, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x8x3x3xf32>, tensor<1x8x4x4xf32>
// CHECK-NEXT: }
func.func @pool_ceil(%x: tensor<1x8x7x7xf32>) -> (tensor<1x8x3x3xf32>, tensor<1x8x4x4xf32>) {
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x3x3xf32>
  %1 = ge.max_pool2d %x {ceil_mode = true, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
  return %0, %1 : tensor<1x8x3x3xf32>, tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @pools_nhwc(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x9x9x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x1x1x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.avg_pool2d %[[ARG0]] {data_format = #ge.format<NHWC>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x9x9x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.global_avg_pool %[[ARG0]] {data_format = #ge.format<NHWC>} : (tensor<2x9x9x4xf32>) -> tensor<2x1x1x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<2x4x4x4xf32>, tensor<2x1x1x4xf32>
// CHECK-NEXT: }
func.func @pools_nhwc(%x: tensor<2x9x9x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x1x1x4xf32>) {
  %0 = ge.avg_pool2d %x {data_format = #ge.format<NHWC>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x9x9x4xf32>) -> tensor<2x4x4x4xf32>
  %1 = ge.global_avg_pool %x {data_format = #ge.format<NHWC>} : (tensor<2x9x9x4xf32>) -> tensor<2x1x1x4xf32>
  return %0, %1 : tensor<2x4x4x4xf32>, tensor<2x1x1x4xf32>
}

// CHECK-LABEL: func.func @resize(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x8x8xf32>) -> (tensor<1x3x16x16xf32>, tensor<1x3x4x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<align_corners>, mode = #ge.resize_mode<linear>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x3x16x16xf32>, tensor<1x3x4x4xf32>
// CHECK-NEXT: }
func.func @resize(%x: tensor<1x3x8x8xf32>) -> (tensor<1x3x16x16xf32>, tensor<1x3x4x4xf32>) {
  %0 = ge.resize %x {scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
  %1 = ge.resize %x {coordinate_transformation_mode = #ge.coord_transform<align_corners>, mode = #ge.resize_mode<linear>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0, %1 : tensor<1x3x16x16xf32>, tensor<1x3x4x4xf32>
}

// CHECK-LABEL: func.func @conv2d_backprop(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<16x4x3x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<?x16x4x4xf32>, %[[ARG2:[^ ,:)]+]]: tensor<?x8x9x10xf32>) -> (tensor<2x8x9x10xf32>, tensor<16x4x3x3xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d_backprop_input %[[ARG0]], %[[ARG1]] {dilations = array<i64: 1, 2>, groups = 2 : i64, input_size = array<i64: 2, 8, 9, 10>, pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>} : (tensor<16x4x3x3xf32>, tensor<?x16x4x4xf32>) -> tensor<2x8x9x10xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.conv2d_backprop_filter %[[ARG2]], %[[ARG1]] {dilations = array<i64: 1, 2>, filter_size = array<i64: 16, 4, 3, 3>, groups = 2 : i64, pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>} : (tensor<?x8x9x10xf32>, tensor<?x16x4x4xf32>) -> tensor<16x4x3x3xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<2x8x9x10xf32>, tensor<16x4x3x3xf32>
// CHECK-NEXT: }
func.func @conv2d_backprop(%w: tensor<16x4x3x3xf32>, %dy: tensor<?x16x4x4xf32>, %x: tensor<?x8x9x10xf32>) -> (tensor<2x8x9x10xf32>, tensor<16x4x3x3xf32>) {
  %0 = ge.conv2d_backprop_input %w, %dy {dilations = array<i64: 1, 2>, groups = 2 : i64, input_size = array<i64: 2, 8, 9, 10>, pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>} : (tensor<16x4x3x3xf32>, tensor<?x16x4x4xf32>) -> tensor<2x8x9x10xf32>
  %1 = ge.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 2>, filter_size = array<i64: 16, 4, 3, 3>, groups = 2 : i64, pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>} : (tensor<?x8x9x10xf32>, tensor<?x16x4x4xf32>) -> tensor<16x4x3x3xf32>
  return %0, %1 : tensor<2x8x9x10xf32>, tensor<16x4x3x3xf32>
}

// CHECK-LABEL: func.func @avg_pool_grad(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x8x4x4xf32>, %[[ARG1:[^ ,:)]+]]: tensor<1x8x3x3xf64>) -> (tensor<1x8x7x7xf32>, tensor<1x8x7x7xf64>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.avg_pool_grad %[[ARG0]] {ceil_mode = true, count_include_pad = true, input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>) -> tensor<1x8x7x7xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.avg_pool_grad %[[ARG1]] {input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x3x3xf64>) -> tensor<1x8x7x7xf64>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x8x7x7xf32>, tensor<1x8x7x7xf64>
// CHECK-NEXT: }
func.func @avg_pool_grad(%dy: tensor<1x8x4x4xf32>, %dy2: tensor<1x8x3x3xf64>) -> (tensor<1x8x7x7xf32>, tensor<1x8x7x7xf64>) {
  %0 = ge.avg_pool_grad %dy {ceil_mode = true, count_include_pad = true, input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>) -> tensor<1x8x7x7xf32>
  %1 = ge.avg_pool_grad %dy2 {input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x3x3xf64>) -> tensor<1x8x7x7xf64>
  return %0, %1 : tensor<1x8x7x7xf32>, tensor<1x8x7x7xf64>
}
