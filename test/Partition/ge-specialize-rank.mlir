// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2},ge-specialize-rank{tensor-index=0})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2},ge-specialize-rank{tensor-index=1})' | FileCheck %s --check-prefix=R1
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-partition-tensor{degree=2},ge-specialize-rank{tensor-index=2})' 2>&1 | FileCheck %s --check-prefix=BAD

// Each rank keeps its half of the column-parallel weight's columns and of its bias,
// and its half of the row-parallel weight's rows; nothing but the all-reduce is left.
// CHECK-LABEL: func.func @mlp(
// CHECK-DAG: ge.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00], [4.000000e+00, 5.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: ge.constant dense<[1.000000e+01, 2.000000e+01]> : tensor<2xf32>
// CHECK-DAG: ge.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: shard.all_slice
// CHECK: shard.all_reduce
// R1-LABEL: func.func @mlp(
// R1-DAG: ge.constant dense<{{\[\[}}2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00]]> : tensor<2x2xf32>
// R1-DAG: ge.constant dense<[3.000000e+01, 4.000000e+01]> : tensor<2xf32>
// R1-DAG: ge.constant dense<{{\[\[}}5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>
// R1-NOT: shard.all_slice
// R1: shard.all_reduce
// BAD: error: ge-specialize-rank: index 2 is outside grid @ge_tensor of 2 devices
func.func @mlp(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w1 = ge.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]> : tensor<2x4xf32>
  %b1 = ge.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %w2 = ge.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %h = ge.matmul %x, %w1, %b1 : (tensor<1x2xf32>, tensor<2x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %y = ge.matmul %h, %w2 : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
