// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-canonicalize)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --ge-canonicalize=cse=false | FileCheck %s --check-prefix=NOCSE

// Lossless cast round trips disappear; lossy ones stay.
// CHECK-LABEL: func.func @cast_round_trip(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT: %[[H:.*]] = ge.cast %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: %[[B:.*]] = ge.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: return %[[X]], %[[B]], %[[I]]
func.func @cast_round_trip(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = ge.cast %x : tensor<4xf32> to tensor<4xf64>
  %1 = ge.cast %0 : tensor<4xf64> to tensor<4xf32>
  %2 = ge.cast %x : tensor<4xf32> to tensor<4xf16>
  %3 = ge.cast %2 : tensor<4xf16> to tensor<4xf32>
  %4 = ge.cast %i : tensor<4xi32> to tensor<4xi64>
  %5 = ge.cast %4 : tensor<4xi64> to tensor<4xi32>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// No-op data movement is removed.
// CHECK-LABEL: func.func @noop_movement(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @noop_movement(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = ge.expand %x {shape = array<i64: 1, 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.tile %x {repeats = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ge.pad %x {pads = array<i64: 0, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ge.slice %x {ends = array<i64: 100>, starts = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = ge.concat %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = ge.squeeze %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Negative: ops that do change their input stay, and so does a reversing slice.
// CHECK-LABEL: func.func @keep_real_movement(
// CHECK-NEXT: ge.expand
// CHECK-NEXT: ge.pad
// CHECK-NEXT: ge.slice
// CHECK-NEXT: return
func.func @keep_real_movement(%x: tensor<2x3xf32>) -> (tensor<4x2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) {
  %0 = ge.expand %x {shape = array<i64: 4, 1, 1>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %1 = ge.pad %x {pads = array<i64: 0, 1, 0, 1>} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  %2 = ge.slice %x {ends = array<i64: -100>, starts = array<i64: -1>, steps = array<i64: -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<4x2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>
}

// -----

// Folders plus CSE: identical relus merge, the identity and transpose pair go.
// CHECK-LABEL: func.func @fold_and_cse(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.relu %[[X]]
// CHECK-NEXT: %[[A:.*]] = ge.add %[[R]], %[[R]]
// CHECK-NEXT: return %[[A]]
// NOCSE-LABEL: func.func @fold_and_cse(
// NOCSE-NEXT: ge.relu
// NOCSE-NEXT: ge.relu
// NOCSE-NEXT: ge.add
func.func @fold_and_cse(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %i = ge.identity %x : tensor<2x3xf32>
  %t = ge.transpose %i {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %u = ge.transpose %t {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %0 = ge.relu %u : tensor<2x3xf32>
  %1 = ge.relu %x : tensor<2x3xf32>
  %2 = ge.add %0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// Dead ops are erased; constants feeding nothing too.
// CHECK-LABEL: func.func @dead_code(
// CHECK-NEXT: return %{{.*}} : tensor<2xf32>
func.func @dead_code(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = ge.constant dense<1.0> : tensor<2xf32>
  %0 = ge.exp %x : tensor<2xf32>
  %1 = ge.add %0, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}
