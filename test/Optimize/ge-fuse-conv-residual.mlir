// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-conv-residual)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-conv-residual, ge-fuse-activation)' | FileCheck %s --check-prefix=ACT
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-conv-residual{enable=false})' | FileCheck %s --check-prefix=OFF

// The ResNet identity block tail: add(conv, skip) -> residual, then the relu fuses.
// CHECK-LABEL: func.func @identity_block(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x6x6xf32>, %[[S:.*]]: tensor<1x4x6x6xf32>)
// CHECK-NEXT: %[[W:.*]] = ge.constant
// CHECK-NEXT: %[[B:.*]] = ge.constant
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[X]], %[[W]], %[[B]] residual(%[[S]]) {pads = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: %[[R:.*]] = ge.relu %[[C]]
// CHECK-NEXT: return %[[R]]
// ACT-LABEL: func.func @identity_block(
// ACT: %[[C:.*]] = ge.conv2d %{{.*}}, %{{.*}}, %{{.*}} residual(%{{.*}}) {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>}
// ACT-NEXT: return %[[C]]
// OFF-LABEL: func.func @identity_block(
// OFF: ge.conv2d
// OFF-NEXT: ge.add
// OFF-NEXT: ge.relu
func.func @identity_block(%x: tensor<1x4x6x6xf32>, %skip: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = ge.constant dense<0.1> : tensor<4x4x3x3xf32>
  %b = ge.constant dense<0.2> : tensor<4xf32>
  %c = ge.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %a = ge.add %skip, %c : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = ge.relu %a : tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

// Downsample block: both add operands are convs; the right-hand one takes the
// left-hand one as residual. NHWC convs fuse too.
// CHECK-LABEL: func.func @two_convs(
// CHECK-NEXT: %[[W:.*]] = ge.constant
// CHECK-NEXT: %[[D:.*]] = ge.conv2d %{{.*}}, %[[W]] {data_format = #ge.format<NHWC>}
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %{{.*}}, %[[W]] residual(%[[D]]) {data_format = #ge.format<NHWC>}
// CHECK-NEXT: return %[[C]]
func.func @two_convs(%x: tensor<1x5x5x2xf32>, %y: tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32> {
  %w = ge.constant dense<0.5> : tensor<2x2x1x1xf32>
  %d = ge.conv2d %x, %w {data_format = #ge.format<NHWC>} : (tensor<1x5x5x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x5x5x2xf32>
  %c = ge.conv2d %y, %w {data_format = #ge.format<NHWC>} : (tensor<1x5x5x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x5x5x2xf32>
  %a = ge.add %d, %c : (tensor<1x5x5x2xf32>, tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  return %a : tensor<1x5x5x2xf32>
}

// -----

// Must not fire: a conv with an activation (relu(conv) + r != relu(conv + r)),
// a conv with a second user, a broadcast operand, a conv that already has a
// residual (only the outer add would be left), and a non-conv producer.
// CHECK-LABEL: func.func @negative(
// CHECK-NEXT: ge.constant
// CHECK-NEXT: %[[A0:.*]] = ge.conv2d %{{.*}} {activation = #ge.act<relu>}
// CHECK-NEXT: %[[S0:.*]] = ge.add %[[A0]], %{{.*}}
// CHECK-NEXT: %[[A1:.*]] = ge.conv2d
// CHECK-NEXT: %[[S1:.*]] = ge.add %[[A1]], %{{.*}}
// CHECK-NEXT: %[[A2:.*]] = ge.conv2d
// CHECK-NEXT: %[[S2:.*]] = ge.add %[[A2]], %{{.*}} : (tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>)
// CHECK-NEXT: %[[A3:.*]] = ge.conv2d %{{.*}}, %{{.*}} residual(
// CHECK-NEXT: %[[S3:.*]] = ge.add %[[A3]], %{{.*}}
// CHECK-NEXT: %[[A4:.*]] = ge.relu
// CHECK-NEXT: %[[S4:.*]] = ge.add %[[A4]], %{{.*}}
// CHECK-NEXT: return %[[S0]], %[[S1]], %[[A1]], %[[S2]], %[[S3]], %[[S4]]
func.func @negative(%x: tensor<1x2x3x3xf32>, %r: tensor<1x2x3x3xf32>, %q: tensor<1x1x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = ge.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c0 = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %s0 = ge.add %c0, %r : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c1 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %s1 = ge.add %c1, %r : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c2 = ge.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %s2 = ge.add %c2, %q : (tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c3 = ge.conv2d %x, %w residual(%r) : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %s3 = ge.add %c3, %r : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c4 = ge.relu %x : tensor<1x2x3x3xf32>
  %s4 = ge.add %c4, %r : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %s0, %s1, %c1, %s2, %s3, %s4 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
