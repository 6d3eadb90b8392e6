// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2 auto=false col=lm_head})' | FileCheck %s --check-prefix=RULE
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2 partition=false})' | FileCheck %s --check-prefix=ANNOT
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=3})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2 row=no_such_layer})' 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=3 auto=false row=fc2})' 2>&1 | FileCheck %s --check-prefix=ROW

// Megatron MLP: the first linear layer is column-parallel (its input is whole), the
// second row-parallel (its input is split): one all-reduce, then the bias once.
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[X:.*]]: tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[W1:.*]] = shard.all_slice %{{.*}} on @ge_tensor grid_axes = [0] slice_axis = 1 : tensor<16x32xf32> -> tensor<16x16xf32>
// CHECK-NEXT: %[[B1:.*]] = shard.all_slice %{{.*}} on @ge_tensor grid_axes = [0] slice_axis = 0 : tensor<32xf32> -> tensor<16xf32>
// CHECK-NEXT: %[[H:.*]] = ge.matmul %[[X]], %[[W1]], %[[B1]] {activation = #ge.act<gelu>} : (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[W2:.*]] = shard.all_slice %{{.*}} on @ge_tensor grid_axes = [0] slice_axis = 0 : tensor<32x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT: %[[P:.*]] = ge.matmul %[[H]], %[[W2]] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[S:.*]] = shard.all_reduce %[[P]] on @ge_tensor grid_axes = [0] : tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT: %[[Y:.*]] = ge.add %[[S]], %{{.*}} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[Y]] : tensor<4x16xf32>
// ANNOT-LABEL: func.func @mlp(
// ANNOT: shard.sharding @ge_tensor split_axes = {{\[\[}}], [0]]
// ANNOT: shard.sharding @ge_tensor split_axes = {{\[\[}}0]]
// ANNOT-NOT: shard.all_reduce
// BAD: error: ge-partition-tensor: a col split of weight dimension 1 (size 32) over 3 devices is not even
// WARN: ParallelWarning: ge-partition-tensor: rule row='no_such_layer' matches no linear layer
// ROW: error: ge-partition-tensor: a row split of weight dimension 0 (size 32) over 3 devices is not even
func.func @mlp(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %w1 = ge.constant dense<0.5> : tensor<16x32xf32>
  %b1 = ge.constant dense<0.25> : tensor<32xf32>
  %w2 = ge.constant dense<2.0> : tensor<32x16xf32>
  %b2 = ge.constant dense<1.0> : tensor<16xf32>
  %h = ge.matmul %x, %w1, %b1 {activation = #ge.act<gelu>} : (tensor<4x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<4x32xf32> loc(fused<"MatMul">["fc1"])
  %y = ge.matmul %h, %w2, %b2 : (tensor<4x32xf32>, tensor<32x16xf32>, tensor<16xf32>) -> tensor<4x16xf32> loc(fused<"MatMul">["fc2"])
  return %y : tensor<4x16xf32>
}

// -----

// Head-parallel attention: the fused Q|K|V projection is split into its parts first, so
// each part is column-parallel by heads (2 heads of 8, one per device), the attention runs
// on each device's heads, the output projection is row-parallel.
// CHECK-LABEL: func.func @attention(
// CHECK-COUNT-3: ge.matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x8x16xf32>, tensor<16x8xf32>, tensor<8xf32>) -> tensor<1x8x8xf32>
// CHECK: ge.reshape %{{.*}} : tensor<1x8x8xf32> to tensor<1x8x1x8xf32>
// CHECK: ge.matmul %{{.*}}, %{{.*}} : (tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
// CHECK-NEXT: ge.softmax %{{.*}} : tensor<1x1x8x8xf32>
// CHECK: ge.reshape %{{.*}} : tensor<1x8x1x8xf32> to tensor<1x8x8xf32>
// CHECK: ge.matmul %{{.*}}, %{{.*}} : (tensor<1x8x8xf32>, tensor<8x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT: shard.all_reduce %{{.*}} on @ge_tensor grid_axes = [0] : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
// CHECK-NOT: shard.
// CHECK: return
func.func @attention(%x: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %wqkv = ge.constant dense<0.1> : tensor<16x48xf32>
  %bqkv = ge.constant dense<0.0> : tensor<48xf32>
  %wo = ge.constant dense<0.2> : tensor<16x16xf32>
  %qkv = ge.matmul %x, %wqkv, %bqkv : (tensor<1x8x16xf32>, tensor<16x48xf32>, tensor<48xf32>) -> tensor<1x8x48xf32>
  %q, %k, %v = ge.split %qkv {axis = 2 : i64, split_sizes = array<i64: 16, 16, 16>} : (tensor<1x8x48xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>)
  %q4 = ge.reshape %q : tensor<1x8x16xf32> to tensor<1x8x2x8xf32>
  %k4 = ge.reshape %k : tensor<1x8x16xf32> to tensor<1x8x2x8xf32>
  %v4 = ge.reshape %v : tensor<1x8x16xf32> to tensor<1x8x2x8xf32>
  %qt = ge.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x8xf32>) -> tensor<1x2x8x8xf32>
  %kt = ge.transpose %k4 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x2x8xf32>) -> tensor<1x2x8x8xf32>
  %vt = ge.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x8xf32>) -> tensor<1x2x8x8xf32>
  %s = ge.matmul %qt, %kt : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p = ge.softmax %s : tensor<1x2x8x8xf32>
  %o = ge.matmul %p, %vt : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %ot = ge.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x8x8xf32>) -> tensor<1x8x2x8xf32>
  %o3 = ge.reshape %ot : tensor<1x8x2x8xf32> to tensor<1x8x16xf32>
  %y = ge.matmul %o3, %wo : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

// Column-parallel with all-gather: a lone column-parallel layer (an LM head) leaves its
// output split; the output is whole on every device, so it is all-gathered.
// RULE-LABEL: func.func @lm_head(
// RULE: %[[W:.*]] = shard.all_slice %{{.*}} on @ge_tensor grid_axes = [0] slice_axis = 1 : tensor<16x64xf32> -> tensor<16x32xf32>
// RULE-NEXT: %[[L:.*]] = ge.matmul %{{.*}}, %[[W]] : (tensor<2x16xf32>, tensor<16x32xf32>) -> tensor<2x32xf32>
// RULE-NEXT: %[[G:.*]] = shard.all_gather %[[L]] on @ge_tensor grid_axes = [0] gather_axis = 1 : tensor<2x32xf32> -> tensor<2x64xf32>
// RULE-NEXT: return %[[G]] : tensor<2x64xf32>
func.func @lm_head(%x: tensor<2x16xf32>) -> tensor<2x64xf32> {
  %w = ge.constant dense<0.5> : tensor<16x64xf32> loc("lm_head.weight")
  %y = ge.matmul %x, %w : (tensor<2x16xf32>, tensor<16x64xf32>) -> tensor<2x64xf32> loc(fused<"MatMul">["lm_head"])
  return %y : tensor<2x64xf32>
}
