// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-transform-layout{format=NHWC})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-transform-layout{format=NHWC input-format=NHWC output-format=NHWC})' | FileCheck %s --check-prefix=PIN
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-transform-layout{format=NHWC forbid-trans-data=ge.global_avg_pool:ge.flatten})' | FileCheck %s --check-prefix=FORBID
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-transform-layout)' | FileCheck %s --check-prefix=NCHW
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-transform-layout{format=NC1HWC0})' 2>&1 | FileCheck %s --check-prefix=ERR

// conv -> relu -> mul by a per-channel constant -> max pool -> global pool:
// one conversion at the input, one before the layout-dependent flatten; the
// relu and mul are propagated (the [C,1,1] constant re-laid-out to [1,1,1,C]).
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x8x8xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %[[W:.*]] = ge.constant dense<1.000000e-01> : tensor<4x4x3x3xf32>
// CHECK-NEXT: %[[T0:.*]] = ge.trans_data %[[X]] {dst_format = #ge.format<NHWC>, src_format = #ge.format<NCHW>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[T0]], %[[W]] {data_format = #ge.format<NHWC>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[R:.*]] = ge.relu %[[C]] : tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[K:.*]] = ge.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]]]> : tensor<1x1x1x4xf32>
// CHECK-NEXT: %[[M:.*]] = ge.mul %[[R]], %[[K]] : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[P:.*]] = ge.max_pool2d %[[M]] {data_format = #ge.format<NHWC>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[G:.*]] = ge.global_avg_pool %[[P]] {data_format = #ge.format<NHWC>} : (tensor<1x4x4x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT: %[[T1:.*]] = ge.trans_data %[[G]] {dst_format = #ge.format<NCHW>, src_format = #ge.format<NHWC>} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT: %[[F:.*]] = ge.flatten %[[T1]] : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: return %[[F]]
// Pinned NHWC input: the signature changes and the input conversion is gone.
// PIN-LABEL: func.func @chain(
// PIN-SAME: %[[X:.*]]: tensor<1x8x8x4xf32>) -> tensor<1x4xf32>
// PIN-NEXT: %[[W:.*]] = ge.constant
// PIN-NEXT: ge.conv2d %[[X]], %[[W]] {data_format = #ge.format<NHWC>
// Forbidding a conversion between global_avg_pool and flatten keeps the
// whole connected NHWC region in NCHW.
// FORBID-LABEL: func.func @chain(
// FORBID-NOT: trans_data
// FORBID-NOT: NHWC
// FORBID: return
// NCHW-LABEL: func.func @chain(
// NCHW-NOT: trans_data
// NCHW: return
// ERR: error: {{.*}}ge-transform-layout: option 'format': format 'NC1HWC0' is not supported (supported: NCHW, NHWC)
func.func @chain(%x: tensor<1x4x8x8xf32>) -> tensor<1x4xf32> {
  %w = ge.constant dense<0.1> : tensor<4x4x3x3xf32>
  %k = ge.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %c = ge.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = ge.relu %c : tensor<1x4x8x8xf32>
  %m = ge.mul %r, %k : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %p = ge.max_pool2d %m {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %g = ge.global_avg_pool %p : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %f = ge.flatten %g : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  return %f : tensor<1x4xf32>
}

// -----

// A residual conv takes its residual in NHWC too; an add with an NCHW function
// argument is not propagated (it would need a conversion of the argument), so
// the conversion back sits before it. Pinned NHWC output: the result stays NHWC.
// CHECK-LABEL: func.func @residual(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NEXT: %[[W:.*]] = ge.constant
// CHECK-NEXT: %[[T0:.*]] = ge.trans_data %[[X]] {dst_format = #ge.format<NHWC>, src_format = #ge.format<NCHW>}
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[T0]], %[[W]] {activation = #ge.act<relu>, data_format = #ge.format<NHWC>}
// CHECK-NEXT: %[[D:.*]] = ge.conv2d %[[C]], %[[W]] residual(%[[C]]) {activation = #ge.act<relu>, data_format = #ge.format<NHWC>} : (tensor<1x4x4x2xf32>, tensor<2x2x1x1xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT: %[[T1:.*]] = ge.trans_data %[[D]] {dst_format = #ge.format<NCHW>, src_format = #ge.format<NHWC>}
// CHECK-NEXT: %[[A:.*]] = ge.add %[[T1]], %[[X]] : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: return %[[A]] : tensor<1x2x4x4xf32>
// PIN-LABEL: func.func @residual(
// PIN-SAME: %[[X:.*]]: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// PIN-NEXT: %[[W:.*]] = ge.constant
// PIN-NEXT: %[[C:.*]] = ge.conv2d %[[X]], %[[W]]
// PIN-NEXT: %[[D:.*]] = ge.conv2d %[[C]], %[[W]] residual(%[[C]])
// PIN-NEXT: %[[A:.*]] = ge.add %[[D]], %[[X]] : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// PIN-NEXT: return %[[A]] : tensor<1x4x4x2xf32>
func.func @residual(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ge.constant dense<0.1> : tensor<2x2x1x1xf32>
  %c = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %d = ge.conv2d %c, %w residual(%c) {activation = #ge.act<relu>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = ge.add %d, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %a : tensor<1x2x4x4xf32>
}

// -----

// Inverse pairs the graph already has cancel, whatever the compute format.
// CHECK-LABEL: func.func @pairs(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x3x4xf32>)
// CHECK-NEXT: return %[[X]]
// NCHW-LABEL: func.func @pairs(
// NCHW-SAME: %[[X:.*]]: tensor<1x2x3x4xf32>)
// NCHW-NEXT: return %[[X]]
func.func @pairs(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %0 = ge.trans_data %x {src_format = #ge.format<NCHW>, dst_format = #ge.format<NHWC>} : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = ge.trans_data %0 {src_format = #ge.format<NHWC>, dst_format = #ge.format<NCHW>} : (tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
  return %1 : tensor<1x2x3x4xf32>
}

// -----

// Not layout-sensitive, not propagated: matmul on 4-D operands, and the ops
// after it.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT: ge.matmul
// CHECK-NEXT: ge.relu
// CHECK-NEXT: return
// NCHW-LABEL: func.func @untouched(
// NCHW-NEXT: ge.matmul
func.func @untouched(%a: tensor<1x2x3x4xf32>, %b: tensor<1x2x4x3xf32>) -> tensor<1x2x3x3xf32> {
  %0 = ge.matmul %a, %b : (tensor<1x2x3x4xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x3x3xf32>
  %1 = ge.relu %0 : tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}

// -----

// A lone convolution keeps the imported format (two conversions around one op save nothing,
// min-region-ops, default 2).
// CHECK-LABEL: func.func @lone_conv(
// CHECK-NEXT: ge.constant
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %{{.*}}, %{{.*}} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: return %[[C]]
// NCHW-LABEL: func.func @lone_conv(
// NCHW-NOT: trans_data
func.func @lone_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ge.constant dense<0.1> : tensor<2x2x1x1xf32>
  %c = ge.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}
