// RUN: ge-opt %s | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// CHECK-LABEL: func.func @reshape_transpose(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x2x3xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<6x4xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[ARG0]] {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<6x4xf32>, tensor<4x2x3xf32>
// CHECK-NEXT: }
func.func @reshape_transpose(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x2x3xf32>) {
  %0 = ge.reshape %x : tensor<2x3x4xf32> to tensor<6x4xf32>
  %1 = ge.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0, %1 : tensor<6x4xf32>, tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<?x3x4xf32> to tensor<?x12xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x12xf32>
// CHECK-NEXT: }
func.func @reshape_dynamic(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %0 = ge.reshape %x : tensor<?x3x4xf32> to tensor<?x12xf32>
  return %0 : tensor<?x12xf32>
}

// CHECK-LABEL: func.func @concat_split(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<2x5xf32>) -> (tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x6xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.concat %[[ARG0]], %[[ARG1]] {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]]:2 = ge.split %[[V0]] {axis = -1 : i64, split_sizes = array<i64: 2, 6>} : (tensor<2x8xf32>) -> (tensor<2x2xf32>, tensor<2x6xf32>)
// CHECK-NEXT: return %[[V0]], %[[V1]]#0, %[[V1]]#1 : tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x6xf32>
// CHECK-NEXT: }
func.func @concat_split(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x6xf32>) {
  %0 = ge.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1:2 = ge.split %0 {axis = -1 : i64, split_sizes = array<i64: 2, 6>} : (tensor<2x8xf32>) -> (tensor<2x2xf32>, tensor<2x6xf32>)
  return %0, %1#0, %1#1 : tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x6xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<10x20xf32>) -> (tensor<3x20xf32>, tensor<10x5xf32>, tensor<5x20xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.slice %[[ARG0]] {ends = array<i64: 5>, starts = array<i64: 2>} : (tensor<10x20xf32>) -> tensor<3x20xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.slice %[[ARG0]] {axes = array<i64: 1>, ends = array<i64: 9223372036854775807>, starts = array<i64: -10>, steps = array<i64: 2>} : (tensor<10x20xf32>) -> tensor<10x5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.slice %[[ARG0]] {ends = array<i64: -9223372036854775807>, starts = array<i64: -1>, steps = array<i64: -2>} : (tensor<10x20xf32>) -> tensor<5x20xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<3x20xf32>, tensor<10x5xf32>, tensor<5x20xf32>
// CHECK-NEXT: }
func.func @slice(%x: tensor<10x20xf32>) -> (tensor<3x20xf32>, tensor<10x5xf32>, tensor<5x20xf32>) {
  %0 = ge.slice %x {ends = array<i64: 5>, starts = array<i64: 2>} : (tensor<10x20xf32>) -> tensor<3x20xf32>
  %1 = ge.slice %x {axes = array<i64: 1>, ends = array<i64: 9223372036854775807>, starts = array<i64: -10>, steps = array<i64: 2>} : (tensor<10x20xf32>) -> tensor<10x5xf32>
  %2 = ge.slice %x {ends = array<i64: -9223372036854775807>, starts = array<i64: -1>, steps = array<i64: -2>} : (tensor<10x20xf32>) -> tensor<5x20xf32>
  return %0, %1, %2 : tensor<3x20xf32>, tensor<10x5xf32>, tensor<5x20xf32>
}

// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<5x4x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<2x6xi64>, %[[ARG2:[^ ,:)]+]]: tensor<5x4x2xi32>, %[[ARG3:[^ ,:)]+]]: tensor<5x4x2xf32>) -> (tensor<5x2x6x3xf32>, tensor<5x4x2xf32>, tensor<5x4x3xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[ARG0]], %[[ARG1]] {axis = 1 : i64} : (tensor<5x4x3xf32>, tensor<2x6xi64>) -> tensor<5x2x6x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.gather_elements %[[ARG0]], %[[ARG2]] {axis = 2 : i64} : (tensor<5x4x3xf32>, tensor<5x4x2xi32>) -> tensor<5x4x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.scatter_elements %[[ARG0]], %[[ARG2]], %[[ARG3]] {axis = 2 : i64, reduction = #ge.scatter_reduction<add>} : (tensor<5x4x3xf32>, tensor<5x4x2xi32>, tensor<5x4x2xf32>) -> tensor<5x4x3xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<5x2x6x3xf32>, tensor<5x4x2xf32>, tensor<5x4x3xf32>
// CHECK-NEXT: }
func.func @gather(%data: tensor<5x4x3xf32>, %i: tensor<2x6xi64>, %ie: tensor<5x4x2xi32>, %u: tensor<5x4x2xf32>) -> (tensor<5x2x6x3xf32>, tensor<5x4x2xf32>, tensor<5x4x3xf32>) {
  %0 = ge.gather %data, %i {axis = 1 : i64} : (tensor<5x4x3xf32>, tensor<2x6xi64>) -> tensor<5x2x6x3xf32>
  %1 = ge.gather_elements %data, %ie {axis = 2 : i64} : (tensor<5x4x3xf32>, tensor<5x4x2xi32>) -> tensor<5x4x2xf32>
  %2 = ge.scatter_elements %data, %ie, %u {axis = 2 : i64, reduction = #ge.scatter_reduction<add>} : (tensor<5x4x3xf32>, tensor<5x4x2xi32>, tensor<5x4x2xf32>) -> tensor<5x4x3xf32>
  return %0, %1, %2 : tensor<5x2x6x3xf32>, tensor<5x4x2xf32>, tensor<5x4x3xf32>
}

// CHECK-LABEL: func.func @gather_scalar_index(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<5x4xf32>, %[[ARG1:[^ ,:)]+]]: tensor<i64>) -> tensor<4xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[ARG0]], %[[ARG1]] : (tensor<5x4xf32>, tensor<i64>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
func.func @gather_scalar_index(%data: tensor<5x4xf32>, %i: tensor<i64>) -> tensor<4xf32> {
  %0 = ge.gather %data, %i : (tensor<5x4xf32>, tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @shape_ops(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x1x4xf32>) -> (tensor<2x3x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x3x1x4x1xf32>, tensor<3x4xf32>, tensor<6x1x8xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.expand %[[ARG0]] {shape = array<i64: 2, 1, 3, 1>} : (tensor<3x1x4xf32>) -> tensor<2x3x3x4xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.squeeze %[[ARG0]] : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.squeeze %[[ARG0]] {axes = array<i64: -2>} : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 0, -1>} : (tensor<3x1x4xf32>) -> tensor<1x3x1x4x1xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.flatten %[[ARG0]] : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.tile %[[ARG0]] {repeats = array<i64: 2, 1, 2>} : (tensor<3x1x4xf32>) -> tensor<6x1x8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V5]] : tensor<2x3x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x3x1x4x1xf32>, tensor<3x4xf32>, tensor<6x1x8xf32>
// CHECK-NEXT: }
func.func @shape_ops(%x: tensor<3x1x4xf32>) -> (tensor<2x3x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x3x1x4x1xf32>, tensor<3x4xf32>, tensor<6x1x8xf32>) {
  %0 = ge.expand %x {shape = array<i64: 2, 1, 3, 1>} : (tensor<3x1x4xf32>) -> tensor<2x3x3x4xf32>
  %1 = ge.squeeze %x : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  %2 = ge.squeeze %x {axes = array<i64: -2>} : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  %3 = ge.unsqueeze %x {axes = array<i64: 0, -1>} : (tensor<3x1x4xf32>) -> tensor<1x3x1x4x1xf32>
  %4 = ge.flatten %x : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  %5 = ge.tile %x {repeats = array<i64: 2, 1, 2>} : (tensor<3x1x4xf32>) -> tensor<6x1x8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x3x1x4x1xf32>, tensor<3x4xf32>, tensor<6x1x8xf32>
}

// CHECK-LABEL: func.func @flatten_axes(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32>) -> (tensor<1x24xf32>, tensor<24x1xf32>, tensor<6x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.flatten %[[ARG0]] {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.flatten %[[ARG0]] {axis = 3 : i64} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.flatten %[[ARG0]] {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<1x24xf32>, tensor<24x1xf32>, tensor<6x4xf32>
// CHECK-NEXT: }
func.func @flatten_axes(%x: tensor<2x3x4xf32>) -> (tensor<1x24xf32>, tensor<24x1xf32>, tensor<6x4xf32>) {
  %0 = ge.flatten %x {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
  %1 = ge.flatten %x {axis = 3 : i64} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  %2 = ge.flatten %x {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0, %1, %2 : tensor<1x24xf32>, tensor<24x1xf32>, tensor<6x4xf32>
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x4x4xf32>) -> (tensor<1x3x6x8xf32>, tensor<1x3x2x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {pads = array<i64: 0, 0, 1, 2, 0, 0, 1, 2>, value = 1.500000e+00 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x8xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.pad %[[ARG0]] {mode = #ge.pad_mode<reflect>, pads = array<i64: 0, 0, -1, 0, 0, 0, -1, 0>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x3x6x8xf32>, tensor<1x3x2x4xf32>
// CHECK-NEXT: }
func.func @pad(%x: tensor<1x3x4x4xf32>) -> (tensor<1x3x6x8xf32>, tensor<1x3x2x4xf32>) {
  %0 = ge.pad %x {pads = array<i64: 0, 0, 1, 2, 0, 0, 1, 2>, value = 1.500000e+00 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x8xf32>
  %1 = ge.pad %x {mode = #ge.pad_mode<reflect>, pads = array<i64: 0, 0, -1, 0, 0, 0, -1, 0>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x4xf32>
  return %0, %1 : tensor<1x3x6x8xf32>, tensor<1x3x2x4xf32>
}

// CHECK-LABEL: func.func @shape(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x?x4xf32>) -> (tensor<3xi64>, tensor<1xi64>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.shape %[[ARG0]] : (tensor<2x?x4xf32>) -> tensor<3xi64>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.shape %[[ARG0]] {end = -1 : i64, start = 1 : i64} : (tensor<2x?x4xf32>) -> tensor<1xi64>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<3xi64>, tensor<1xi64>
// CHECK-NEXT: }
func.func @shape(%x: tensor<2x?x4xf32>) -> (tensor<3xi64>, tensor<1xi64>) {
  %0 = ge.shape %x : (tensor<2x?x4xf32>) -> tensor<3xi64>
  %1 = ge.shape %x {end = -1 : i64, start = 1 : i64} : (tensor<2x?x4xf32>) -> tensor<1xi64>
  return %0, %1 : tensor<3xi64>, tensor<1xi64>
}

// CHECK-LABEL: func.func @range_one_hot(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<i64>, %[[ARG1:[^ ,:)]+]]: tensor<i64>, %[[ARG2:[^ ,:)]+]]: tensor<i64>, %[[ARG3:[^ ,:)]+]]: tensor<4xi64>) -> (tensor<?xi64>, tensor<4x10xf32>, tensor<10x4xf32>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.range %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.one_hot %[[ARG3]] {depth = 10 : i64} : (tensor<4xi64>) -> tensor<4x10xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.one_hot %[[ARG3]] {axis = 0 : i64, depth = 10 : i64, off_value = -1.000000e+00 : f64, on_value = 3.000000e+00 : f64} : (tensor<4xi64>) -> tensor<10x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<?xi64>, tensor<4x10xf32>, tensor<10x4xf32>
// CHECK-NEXT: }
func.func @range_one_hot(%s: tensor<i64>, %l: tensor<i64>, %d: tensor<i64>, %i: tensor<4xi64>) -> (tensor<?xi64>, tensor<4x10xf32>, tensor<10x4xf32>) {
  %0 = ge.range %s, %l, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %1 = ge.one_hot %i {depth = 10 : i64} : (tensor<4xi64>) -> tensor<4x10xf32>
  %2 = ge.one_hot %i {axis = 0 : i64, depth = 10 : i64, off_value = -1.000000e+00 : f64, on_value = 3.000000e+00 : f64} : (tensor<4xi64>) -> tensor<10x4xf32>
  return %0, %1, %2 : tensor<?xi64>, tensor<4x10xf32>, tensor<10x4xf32>
}

// CHECK-LABEL: func.func @dynamic_reshape(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x8xf32>, %[[ARG1:[^ ,:)]+]]: tensor<3xi64>) -> tensor<?x2x?xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.dynamic_reshape %[[ARG0]], %[[ARG1]] {allowzero = true} : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x2x?xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x2x?xf32>
// CHECK-NEXT: }
func.func @dynamic_reshape(%x: tensor<?x8xf32>, %shape: tensor<3xi64>) -> tensor<?x2x?xf32> {
  %0 = ge.dynamic_reshape %x, %shape {allowzero = true} : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x2x?xf32>
  return %0 : tensor<?x2x?xf32>
}

// CHECK-LABEL: func.func @fill(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2xi64>) -> tensor<?x?xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.constant dense<1.500000e+00> : tensor<f32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.fill %[[V0]], %[[ARG0]] : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: return %[[V1]] : tensor<?x?xf32>
// CHECK-NEXT: }
func.func @fill(%shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %v = ge.constant dense<1.5> : tensor<f32>
  %0 = ge.fill %v, %shape : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @top_k(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x50xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
// CHECK-NEXT: %[[VALUES:[^ ,:)]+]], %[[INDICES:[^ ,:)]+]] = ge.top_k %[[ARG0]] {k = 5 : i64} : (tensor<2x50xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>)
// CHECK-NEXT: return %[[VALUES]], %[[INDICES]] : tensor<2x5xf32>, tensor<2x5xi64>
// CHECK-NEXT: }
func.func @top_k(%x: tensor<2x50xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
  %values, %indices = ge.top_k %x {k = 5 : i64} : (tensor<2x50xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>)
  return %values, %indices : tensor<2x5xf32>, tensor<2x5xi64>
}

// CHECK-LABEL: func.func @trans_data(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x20x8x8xf16>, %[[ARG1:[^ ,:)]+]]: tensor<4x33x20xf32>) -> (tensor<1x8x8x20xf16>, tensor<1x20x8x8xf16>, tensor<4x3x3x16x8xf32>, tensor<4x33x20xf32>, tensor<8x8x20x1xf16>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.trans_data %[[ARG0]] {dst_format = #ge.format<NHWC>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<1x8x8x20xf16>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.trans_data %[[ARG0]] {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<1x2x8x8x16xf16>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.trans_data %[[V1]] {dst_format = #ge.format<NCHW>, original_shape = array<i64: 1, 20, 8, 8>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x16xf16>) -> tensor<1x20x8x8xf16>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.trans_data %[[ARG1]] {dst_format = #ge.format<FRACTAL_NZ>, src_format = #ge.format<ND>} : (tensor<4x33x20xf32>) -> tensor<4x3x3x16x8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.trans_data %[[V3]] {dst_format = #ge.format<ND>, original_shape = array<i64: 4, 33, 20>, src_format = #ge.format<FRACTAL_NZ>} : (tensor<4x3x3x16x8xf32>) -> tensor<4x33x20xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.trans_data %[[ARG0]] {dst_format = #ge.format<HWCN>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<8x8x20x1xf16>
// CHECK-NEXT: return %[[V0]], %[[V2]], %[[V3]], %[[V4]], %[[V5]] : tensor<1x8x8x20xf16>, tensor<1x20x8x8xf16>, tensor<4x3x3x16x8xf32>, tensor<4x33x20xf32>, tensor<8x8x20x1xf16>
// CHECK-NEXT: }
func.func @trans_data(%x: tensor<1x20x8x8xf16>, %m: tensor<4x33x20xf32>) -> (tensor<1x8x8x20xf16>, tensor<1x20x8x8xf16>, tensor<4x3x3x16x8xf32>, tensor<4x33x20xf32>, tensor<8x8x20x1xf16>) {
  %0 = ge.trans_data %x {dst_format = #ge.format<NHWC>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<1x8x8x20xf16>
  %1 = ge.trans_data %x {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<1x2x8x8x16xf16>
  %2 = ge.trans_data %1 {dst_format = #ge.format<NCHW>, original_shape = array<i64: 1, 20, 8, 8>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x16xf16>) -> tensor<1x20x8x8xf16>
  %3 = ge.trans_data %m {dst_format = #ge.format<FRACTAL_NZ>, src_format = #ge.format<ND>} : (tensor<4x33x20xf32>) -> tensor<4x3x3x16x8xf32>
  %4 = ge.trans_data %3 {dst_format = #ge.format<ND>, original_shape = array<i64: 4, 33, 20>, src_format = #ge.format<FRACTAL_NZ>} : (tensor<4x3x3x16x8xf32>) -> tensor<4x33x20xf32>
  %5 = ge.trans_data %x {dst_format = #ge.format<HWCN>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<8x8x20x1xf16>
  return %0, %2, %3, %4, %5 : tensor<1x8x8x20xf16>, tensor<1x20x8x8xf16>, tensor<4x3x3x16x8xf32>, tensor<4x33x20xf32>, tensor<8x8x20x1xf16>
}

// CHECK-LABEL: func.func @constants(
// CHECK-SAME: ) -> (tensor<2x2xf32>, tensor<3xi64>, tensor<4xf16>) {
// CHECK-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<[1, -2, 3]> : tensor<3xi64>
// CHECK-NEXT: %[[CST_1:[^ ,:)]+]] = ge.constant dense_resource<blob_w> : tensor<4xf16>
// CHECK-NEXT: return %[[CST]], %[[CST_0]], %[[CST_1]] : tensor<2x2xf32>, tensor<3xi64>, tensor<4xf16>
// CHECK-NEXT: }
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<4xf16>) {
  %cst = ge.constant dense<1.000000e+00> : tensor<2x2xf32>
  %cst_0 = ge.constant dense<[1, -2, 3]> : tensor<3xi64>
  %cst_1 = ge.constant dense_resource<blob_w> : tensor<4xf16>
  return %cst, %cst_0, %cst_1 : tensor<2x2xf32>, tensor<3xi64>, tensor<4xf16>
}

// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: blob_w: "0x04000000003C004000420044"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: #-}
{-#
  dialect_resources: {
    builtin: {
      blob_w: "0x04000000003C004000420044"
    }
  }
#-}
