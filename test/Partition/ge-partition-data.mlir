// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-data{degree=2})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-data{degree=2 gather-outputs=false})' | FileCheck %s --check-prefix=LOCAL
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-data{degree=3})' 2>&1 | FileCheck %s --check-prefix=BAD

// The batch of 4 splits over 2 devices: each convolves 2 images with the whole weights,
// and the outputs are all-gathered.
// CHECK-LABEL: func.func @cnn(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x8x8xf32> {onnx.name = "image"}) -> tensor<4x10xf32>
// CHECK: %[[C:.*]] = ge.conv2d %[[X]], %{{.*}} {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x8x8xf32>
// CHECK-NEXT: %[[P:.*]] = ge.global_avg_pool %[[C]] : (tensor<2x8x8x8xf32>) -> tensor<2x8x1x1xf32>
// CHECK-NEXT: %[[F:.*]] = ge.flatten %[[P]] : (tensor<2x8x1x1xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = ge.matmul %[[F]], %{{.*}} : (tensor<2x8xf32>, tensor<8x10xf32>) -> tensor<2x10xf32>
// CHECK-NEXT: %[[G:.*]] = shard.all_gather %[[Y]] on @ge_data grid_axes = [0] gather_axis = 0 : tensor<2x10xf32> -> tensor<4x10xf32>
// CHECK-NEXT: return %[[G]] : tensor<4x10xf32>
// LOCAL-LABEL: func.func @cnn(
// LOCAL-SAME: tensor<2x3x8x8xf32> {onnx.name = "image"}) -> tensor<2x10xf32>
// LOCAL-NOT: shard.all_gather
// BAD: error: ge-partition-data: input 'image' has batch 4, which 3 devices cannot split evenly
func.func @cnn(%x: tensor<4x3x8x8xf32> {onnx.name = "image"}) -> tensor<4x10xf32> {
  %w = ge.constant dense<0.1> : tensor<8x3x3x3xf32>
  %fc = ge.constant dense<0.2> : tensor<8x10xf32>
  %c = ge.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, activation = #ge.act<relu>} : (tensor<4x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<4x8x8x8xf32>
  %p = ge.global_avg_pool %c : (tensor<4x8x8x8xf32>) -> tensor<4x8x1x1xf32>
  %f = ge.flatten %p : (tensor<4x8x1x1xf32>) -> tensor<4x8xf32>
  %y = ge.matmul %f, %fc : (tensor<4x8xf32>, tensor<8x10xf32>) -> tensor<4x10xf32>
  return %y : tensor<4x10xf32>
}
