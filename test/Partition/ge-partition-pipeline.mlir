// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-partition-pipeline{stages=2 boundaries=act1})' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-partition-pipeline{stages=2})' | FileCheck %s --check-prefix=AUTO
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-partition-pipeline{stages=2 assign=1:fc1,0:fc2})' 2>&1 | FileCheck %s --check-prefix=NOTCUT
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-partition-pipeline{stages=2 boundaries=no_such_node})' 2>&1 | FileCheck %s --check-prefix=NONODE
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-partition-pipeline{stages=3 boundaries=fc2,act1})' 2>&1 | FileCheck %s --check-prefix=ORDER

// Stage 0 ends after act1: fc1's result (read by the residual add) and act1's result cross
// to stage 1 through send/recv; each stage holds its own copy of the weight it reads.
// CHECK: shard.grid @ge_pipeline(shape = 2)
// CHECK-LABEL: func.func @chain_stage0(
// CHECK-SAME: %[[X:.*]]: tensor<2x8xf32> {onnx.name = "x"}) attributes {ge.stage = 0 : i64}
// CHECK-NEXT: %[[W:.*]] = ge.constant dense<5.000000e-01> : tensor<8x8xf32>
// CHECK-NEXT: %[[A:.*]] = ge.matmul %[[X]], %[[W]] : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[B:.*]] = ge.relu %[[A]] : tensor<2x8xf32>
// CHECK-NEXT: shard.send %[[A]] on @ge_pipeline grid_axes = [0] destination = [1] : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: shard.send %[[B]] on @ge_pipeline grid_axes = [0] destination = [1] : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @chain_stage1() -> tensor<2x8xf32> attributes {ge.stage = 1 : i64}
// CHECK-NEXT: %[[E0:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK-NEXT: %[[RA:.*]] = shard.recv %[[E0]] on @ge_pipeline grid_axes = [0] source = [0] : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK-NEXT: %[[RB:.*]] = shard.recv %[[E1]] on @ge_pipeline grid_axes = [0] source = [0] : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[W1:.*]] = ge.constant dense<5.000000e-01> : tensor<8x8xf32>
// CHECK-NEXT: %[[C:.*]] = ge.matmul %[[RB]], %[[W1]] : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[D:.*]] = ge.add %[[C]], %[[RA]] : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[D]] : tensor<2x8xf32>
// AUTO-LABEL: func.func @chain_stage0(
// AUTO: shard.send
// AUTO-LABEL: func.func @chain_stage1(
// AUTO: shard.recv
// NOTCUT: error: ge-partition-pipeline: not a cut: ge.matmul ['fc2'] in stage 0 reads a result of ge.relu ['act1'] in stage 1
// NONODE: error: ge-partition-pipeline: stage boundary 'no_such_node' names no node of the graph
// ORDER: error: ge-partition-pipeline: stage boundary 'act1' does not come after 'fc2': stages must follow the graph's order
func.func @chain(%x: tensor<2x8xf32> {onnx.name = "x"}) -> tensor<2x8xf32> {
  %w = ge.constant dense<0.5> : tensor<8x8xf32>
  %a = ge.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32> loc(fused<"MatMul">["fc1"])
  %b = ge.relu %a : tensor<2x8xf32> loc(fused<"Relu">["act1"])
  %c = ge.matmul %b, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32> loc(fused<"MatMul">["fc2"])
  %d = ge.add %c, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32> loc(fused<"Add">["residual"])
  return %d : tensor<2x8xf32>
}
