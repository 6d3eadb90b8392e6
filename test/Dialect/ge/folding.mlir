// Folders of the ge dialect, applied by upstream canonicalize.
// RUN: ge-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @identity(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ge.identity %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @cast_same_type(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = ge.cast %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: return %[[X]], %[[C]]
func.func @cast_same_type(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf16>) {
  %0 = ge.cast %x : tensor<4xf32> to tensor<4xf32>
  %1 = ge.cast %x : tensor<4xf32> to tensor<4xf16>
  return %0, %1 : tensor<4xf32>, tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @bitcast_same_type(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[B:.*]] = ge.bitcast %[[X]] : tensor<4xf32> to tensor<4xi32>
// CHECK-NEXT: return %[[X]], %[[B]]
func.func @bitcast_same_type(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = ge.bitcast %x : tensor<4xf32> to tensor<4xf32>
  %1 = ge.bitcast %x : tensor<4xf32> to tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_chain(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[X]] : tensor<2x3x4xf32> to tensor<24xf32>
// CHECK-NEXT: return %[[X]], %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<24xf32>) {
  %0 = ge.reshape %x : tensor<2x3x4xf32> to tensor<6x4xf32>
  %1 = ge.reshape %0 : tensor<6x4xf32> to tensor<2x3x4xf32>
  %2 = ge.reshape %0 : tensor<6x4xf32> to tensor<24xf32>
  return %1, %2 : tensor<2x3x4xf32>, tensor<24xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_constant(
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_constant() -> tensor<4xf32> {
  %c = ge.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = ge.reshape %c : tensor<2x2xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_pairs(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = ge.transpose %[[X]] {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: return %[[X]], %[[T]], %[[X]]
func.func @transpose_pairs(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>) {
  // Inverse pair: folds to %x.
  %0 = ge.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = ge.transpose %0 {perm = array<i64: 1, 2, 0>} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  // Two transposes compose into one: perm [1,2,0] of [1,0,2]... result dim i = x[inner[outer[i]]].
  %2 = ge.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %3 = ge.transpose %2 {perm = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x4x2xf32>
  // Identity permutation.
  %4 = ge.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %3, %4 : tensor<2x3x4xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @trans_data_pair(
// CHECK-SAME: %[[X:.*]]: tensor<1x32x8x8xf16>)
// CHECK-NEXT: %[[A:.*]] = ge.trans_data %[[X]] {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>}
// CHECK-NEXT: return %[[X]], %[[A]]
func.func @trans_data_pair(%x: tensor<1x32x8x8xf16>) -> (tensor<1x32x8x8xf16>, tensor<1x2x8x8x16xf16>) {
  %0 = ge.trans_data %x {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>} : (tensor<1x32x8x8xf16>) -> tensor<1x2x8x8x16xf16>
  %1 = ge.trans_data %0 {dst_format = #ge.format<NCHW>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x16xf16>) -> tensor<1x32x8x8xf16>
  return %1, %0 : tensor<1x32x8x8xf16>, tensor<1x2x8x8x16xf16>
}

// -----

// Padded channels (20 -> 2x16) still round-trip because the types match.
// CHECK-LABEL: func.func @trans_data_padded(
// CHECK-SAME: %[[X:.*]]: tensor<1x20x8x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @trans_data_padded(%x: tensor<1x20x8x8xf16>) -> tensor<1x20x8x8xf16> {
  %0 = ge.trans_data %x {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<1x2x8x8x16xf16>
  %1 = ge.trans_data %0 {dst_format = #ge.format<NCHW>, original_shape = array<i64: 1, 20, 8, 8>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x16xf16>) -> tensor<1x20x8x8xf16>
  return %1 : tensor<1x20x8x8xf16>
}

// -----

// CHECK-LABEL: func.func @static_shape(
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[3, 4]> : tensor<2xi64>
// CHECK-NEXT: %[[S:.*]] = ge.shape %{{.*}} {start = 1 : i64} : (tensor<2x?x4xf32>) -> tensor<2xi64>
// CHECK-NEXT: return %[[C]], %[[S]]
func.func @static_shape(%x: tensor<2x3x4xf32>, %y: tensor<2x?x4xf32>) -> (tensor<2xi64>, tensor<2xi64>) {
  %0 = ge.shape %x {start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2xi64>
  %1 = ge.shape %y {start = 1 : i64} : (tensor<2x?x4xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<2xi64>, tensor<2xi64>
}

// -----

// Negative: a cast that changes the type and non-inverse trans_data stay.
// CHECK-LABEL: func.func @no_fold(
// CHECK-NEXT: ge.cast
// CHECK-NEXT: ge.trans_data
// CHECK-NEXT: ge.trans_data
// CHECK-NEXT: return
func.func @no_fold(%x: tensor<1x8x4x4xf32>) -> (tensor<1x8x4x4xf16>, tensor<4x4x8x1xf32>) {
  %0 = ge.cast %x : tensor<1x8x4x4xf32> to tensor<1x8x4x4xf16>
  %1 = ge.trans_data %x {dst_format = #ge.format<NHWC>, src_format = #ge.format<NCHW>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %2 = ge.trans_data %1 {dst_format = #ge.format<HWCN>, src_format = #ge.format<NHWC>} : (tensor<1x4x4x8xf32>) -> tensor<4x4x8x1xf32>
  return %0, %2 : tensor<1x8x4x4xf16>, tensor<4x4x8x1xf32>
}

// -----

// Transposes and reshapes of constants fold at compile time; resource
// constants stay resources (reshape shares the blob, transpose writes a new one).
// CHECK-LABEL: func.func @constant_transpose(
// CHECK-NEXT: %[[A:.*]] = ge.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-NEXT: %[[B:.*]] = ge.constant dense_resource<transposed> : tensor<2x3xf32>
// CHECK-NEXT: %[[C:.*]] = ge.constant dense_resource<blob1> : tensor<6xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
// CHECK: transposed: "0x400000000000803F000040400000A04000000040000080400000C040"
func.func @constant_transpose() -> (tensor<3x2xi32>, tensor<2x3xf32>, tensor<6xf32>) {
  %c = ge.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = ge.transpose %c {perm = array<i64: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %r = ge.constant dense_resource<blob1> : tensor<3x2xf32>
  %rt = ge.transpose %r {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %rr = ge.reshape %r : tensor<3x2xf32> to tensor<6xf32>
  return %t, %rt, %rr : tensor<3x2xi32>, tensor<2x3xf32>, tensor<6xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
