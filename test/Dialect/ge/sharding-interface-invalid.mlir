// Splits the ge ops' sharding models refuse, and uneven splits, fail with located errors
// (upstream would assert on an uneven split: ge-opt checks first).
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(sharding-propagation),func.func(shard-partition),canonicalize)' 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// ERR: error: 'ge.softmax' op cannot be split along its softmax axis
shard.grid @g(shape = 2)
func.func @softmax_split_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4x8xf32>
  %p = ge.softmax %xs : tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// ERR: error: 'ge.conv2d' op cannot be split along a dimension other than its batch
shard.grid @g(shape = 2)
func.func @conv_channels(%x: tensor<4x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<4x8x8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %ws = shard.shard %w to %s annotate_for_users : tensor<8x3x3x3xf32>
  %c = ge.conv2d %x, %ws {pads = array<i64: 1, 1, 1, 1>} : (tensor<4x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<4x8x8x8xf32>
  return %c : tensor<4x8x8x8xf32>
}

// -----

// ERR: error: dimension 0 of size 3 is split over 2 devices, which do not divide it evenly
shard.grid @g(shape = 2)
func.func @uneven(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<3x8xf32>
  %p = ge.relu %xs : tensor<3x8xf32>
  return %p : tensor<3x8xf32>
}
