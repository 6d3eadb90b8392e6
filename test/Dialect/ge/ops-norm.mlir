// RUN: ge-opt %s | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8x16xf32>, %[[ARG1:[^ ,:)]+]]: tensor<16xf32>, %[[ARG2:[^ ,:)]+]]: tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.layer_norm %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.layer_norm %[[ARG0]], %[[ARG1]] {axis = 2 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<2x8x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<2x8x16xf32>, tensor<2x8x16xf32>
// CHECK-NEXT: }
func.func @layer_norm(%x: tensor<2x8x16xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  %0 = ge.layer_norm %x, %s, %b : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  %1 = ge.layer_norm %x, %s {axis = 2 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<2x8x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  return %0, %1 : tensor<2x8x16xf32>, tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @layer_norm_2d(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8x16xf32>, %[[ARG1:[^ ,:)]+]]: tensor<8x16xf32>) -> tensor<2x8x16xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.layer_norm %[[ARG0]], %[[ARG1]] {axis = 1 : i64} : (tensor<2x8x16xf32>, tensor<8x16xf32>) -> tensor<2x8x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x8x16xf32>
// CHECK-NEXT: }
func.func @layer_norm_2d(%x: tensor<2x8x16xf32>, %s: tensor<8x16xf32>) -> tensor<2x8x16xf32> {
  %0 = ge.layer_norm %x, %s {axis = 1 : i64} : (tensor<2x8x16xf32>, tensor<8x16xf32>) -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x64xf16>, %[[ARG1:[^ ,:)]+]]: tensor<64xf16>) -> tensor<4x64xf16> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.rms_norm %[[ARG0]], %[[ARG1]] : (tensor<4x64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
// CHECK-NEXT: return %[[V0]] : tensor<4x64xf16>
// CHECK-NEXT: }
func.func @rms_norm(%x: tensor<4x64xf16>, %s: tensor<64xf16>) -> tensor<4x64xf16> {
  %0 = ge.rms_norm %x, %s : (tensor<4x64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// CHECK-LABEL: func.func @batch_norm(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x16x8x8xf32>, %[[ARG1:[^ ,:)]+]]: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.batch_norm %[[ARG0]], %[[ARG1]], %[[ARG1]], %[[ARG1]], %[[ARG1]] {epsilon = 1.000000e-03 : f32} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<1x16x8x8xf32>
// CHECK-NEXT: }
func.func @batch_norm(%x: tensor<1x16x8x8xf32>, %p: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %0 = ge.batch_norm %x, %p, %p, %p, %p {epsilon = 1.000000e-03 : f32} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// CHECK-LABEL: func.func @batch_norm_nhwc(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x8x8x16xf32>, %[[ARG1:[^ ,:)]+]]: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.batch_norm %[[ARG0]], %[[ARG1]], %[[ARG1]], %[[ARG1]], %[[ARG1]] {data_format = #ge.format<NHWC>} : (tensor<1x8x8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<1x8x8x16xf32>
// CHECK-NEXT: }
func.func @batch_norm_nhwc(%x: tensor<1x8x8x16xf32>, %p: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = ge.batch_norm %x, %p, %p, %p, %p {data_format = #ge.format<NHWC>} : (tensor<1x8x8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// CHECK-LABEL: func.func @instance_norm(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x4x8x8xf32>, %[[ARG1:[^ ,:)]+]]: tensor<4xf32>) -> tensor<2x4x8x8xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.instance_norm %[[ARG0]], %[[ARG1]], %[[ARG1]] : (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x4x8x8xf32>
// CHECK-NEXT: }
func.func @instance_norm(%x: tensor<2x4x8x8xf32>, %s: tensor<4xf32>) -> tensor<2x4x8x8xf32> {
  %0 = ge.instance_norm %x, %s, %s : (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
  return %0 : tensor<2x4x8x8xf32>
}
