// Upstream sharding-propagation and shard-partition on ge ops (lib/Ge/GeSharding.cpp).
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(sharding-propagation),func.func(shard-partition),canonicalize)' | FileCheck %s

// A split batch flows through a broadcast add and an activation; the bias stays whole.
// CHECK-LABEL: func.func @broadcast_bias(
// CHECK-SAME: %[[X:.*]]: tensor<2x8xf32>, %[[B:.*]]: tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = ge.add %[[X]], %[[B]] : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[Z:.*]] = ge.relu %[[Y]] : tensor<2x8xf32>
// CHECK-NEXT: return %[[Z]] : tensor<2x8xf32>
shard.grid @g(shape = 2)
func.func @broadcast_bias(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4x8xf32>
  %y = ge.add %xs, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %z = ge.relu %y : tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}

// -----

// A feature split becomes a split of heads through reshape and transpose; the softmax
// axis stays whole.
// CHECK-LABEL: func.func @heads(
// CHECK-SAME: %[[X:.*]]: tensor<2x8x8xf32>) -> tensor<2x1x8x8xf32>
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[X]] : tensor<2x8x8xf32> to tensor<2x8x1x8xf32>
// CHECK-NEXT: %[[T:.*]] = ge.transpose %[[R]] {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x1x8xf32>) -> tensor<2x1x8x8xf32>
// CHECK-NEXT: %[[P:.*]] = ge.softmax %[[T]] : tensor<2x1x8x8xf32>
// CHECK-NEXT: return %[[P]]
shard.grid @g(shape = 2)
func.func @heads(%x: tensor<2x8x16xf32>) -> tensor<2x2x8x8xf32> {
  %s = shard.sharding @g split_axes = [[], [], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x8x16xf32>
  %r = ge.reshape %xs : tensor<2x8x16xf32> to tensor<2x8x2x8xf32>
  %t = ge.transpose %r {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %p = ge.softmax %t : tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

// A contraction split along K: local product, all-reduce, then the bias once.
// CHECK-LABEL: func.func @contraction(
// CHECK-SAME: %[[A:.*]]: tensor<4x4xf32>, %[[W:.*]]: tensor<4x6xf32>, %[[B:.*]]: tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[P:.*]] = ge.matmul %[[A]], %[[W]] : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[S:.*]] = shard.all_reduce %[[P]] on @g grid_axes = [0] : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[Y:.*]] = ge.add %[[S]], %[[B]] : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[Y]]
shard.grid @g(shape = 2)
func.func @contraction(%a: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %as = shard.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %y = ge.matmul %as, %w, %b : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// Convolutions and pools are independent along the batch only.
// CHECK-LABEL: func.func @conv_batch(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x8x8xf32>, %[[W:.*]]: tensor<8x3x3x3xf32>) -> tensor<2x8x1x1xf32>
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %[[X]], %[[W]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x8x8xf32>
// CHECK-NEXT: %[[M:.*]] = ge.reduce_mean %[[C]] {axes = array<i64: 2, 3>} : (tensor<2x8x8x8xf32>) -> tensor<2x8x1x1xf32>
// CHECK-NEXT: return %[[M]]
shard.grid @g(shape = 2)
func.func @conv_batch(%x: tensor<4x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<4x8x1x1xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4x3x8x8xf32>
  %c = ge.conv2d %xs, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<4x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<4x8x8x8xf32>
  %m = ge.reduce_mean %c {axes = array<i64: 2, 3>} : (tensor<4x8x8x8xf32>) -> tensor<4x8x1x1xf32>
  return %m : tensor<4x8x1x1xf32>
}

