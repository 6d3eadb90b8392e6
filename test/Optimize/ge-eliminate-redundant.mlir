// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-eliminate-redundant)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-eliminate-redundant{cse=false})' | FileCheck %s --check-prefix=NOCSE

// Reshape-like chains become one reshape, or vanish when they round-trip.
// CHECK-LABEL: func.func @reshape_chains(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[X]] : tensor<2x3xf32> to tensor<6xf32>
// CHECK-NEXT: return %[[R]], %[[X]], %[[X]]
func.func @reshape_chains(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<3x2xf32>
  %1 = ge.reshape %0 : tensor<3x2xf32> to tensor<6xf32>
  %2 = ge.flatten %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<1x6xf32>
  %3 = ge.squeeze %2 : (tensor<1x6xf32>) -> tensor<6xf32>
  %4 = ge.reshape %3 : tensor<6xf32> to tensor<2x3xf32>
  %5 = ge.unsqueeze %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %6 = ge.squeeze %5 {axes = array<i64: 0>} : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
  return %1, %4, %6 : tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Same-type reshape/flatten/squeeze/unsqueeze are no-ops.
// CHECK-LABEL: func.func @noop_reshapes(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @noop_reshapes(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<2x3xf32>
  %1 = ge.squeeze %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Transpose pairs: inverse pairs vanish, others compose; identity transposes go.
// CHECK-LABEL: func.func @transposes(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = ge.transpose %[[X]] {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[X]], %[[T]], %[[X]]
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = ge.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = ge.transpose %0 {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = ge.transpose %0 {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %3 = ge.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2, %3 : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// Lossless round trips and same-type casts go; lossy round trips stay.
// CHECK-LABEL: func.func @casts(
// CHECK-SAME: %[[H:.*]]: tensor<4xf16>, %[[I:.*]]: tensor<4xi32>, %[[F:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[A:.*]] = ge.cast %[[F]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: %[[B:.*]] = ge.cast %[[A]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = ge.cast %[[I]] : tensor<4xi32> to tensor<4xi8>
// CHECK-NEXT: %[[D:.*]] = ge.cast %[[C]] : tensor<4xi8> to tensor<4xi32>
// CHECK-NEXT: return %[[H]], %[[I]], %[[F]], %[[B]], %[[D]]
func.func @casts(%h: tensor<4xf16>, %i: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = ge.cast %h : tensor<4xf16> to tensor<4xf32>
  %1 = ge.cast %0 : tensor<4xf32> to tensor<4xf16>
  %2 = ge.cast %i : tensor<4xi32> to tensor<4xi64>
  %3 = ge.cast %2 : tensor<4xi64> to tensor<4xi32>
  %4 = ge.cast %f : tensor<4xf32> to tensor<4xf32>
  %5 = ge.cast %f : tensor<4xf32> to tensor<4xf16>
  %6 = ge.cast %5 : tensor<4xf16> to tensor<4xf32>
  %7 = ge.cast %i : tensor<4xi32> to tensor<4xi8>
  %8 = ge.cast %7 : tensor<4xi8> to tensor<4xi32>
  return %1, %3, %4, %6, %8 : tensor<4xf16>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// Identity (the dialect's form of inference Dropout) and no-op data movement.
// CHECK-LABEL: func.func @identity_and_noops(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]]
func.func @identity_and_noops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = ge.identity %x : tensor<2x3xf32>
  %1 = ge.pad %0 {pads = array<i64: 0, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ge.concat %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ge.slice %x {ends = array<i64: 100>, starts = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Dead ge ops go; duplicates merge with cse (kept with cse=false).
// CHECK-LABEL: func.func @dead_and_duplicates(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = ge.exp %[[X]]
// CHECK-NEXT: %[[A:.*]] = ge.add %[[E]], %[[E]]
// CHECK-NEXT: return %[[A]]
// NOCSE-LABEL: func.func @dead_and_duplicates(
// NOCSE-NEXT: ge.exp
// NOCSE-NEXT: ge.exp
// NOCSE-NEXT: ge.add
// NOCSE-NEXT: return
func.func @dead_and_duplicates(%x: tensor<4xf32>) -> tensor<4xf32> {
  %d = ge.tanh %x : tensor<4xf32>
  %d2 = ge.sigmoid %d : tensor<4xf32>
  %0 = ge.exp %x : tensor<4xf32>
  %1 = ge.exp %x : tensor<4xf32>
  %2 = ge.add %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Negative: real data movement stays (different types, non-inverse transposes).
// CHECK-LABEL: func.func @keep(
// CHECK-NEXT: ge.reshape
// CHECK-NEXT: ge.transpose
// CHECK-NEXT: ge.relu
// CHECK-NEXT: ge.transpose
// CHECK-NEXT: ge.expand
// CHECK-NEXT: return
func.func @keep(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x2x3xf32>) {
  %0 = ge.reshape %x : tensor<2x3xf32> to tensor<3x2xf32>
  %1 = ge.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = ge.relu %1 : tensor<3x2xf32>
  %3 = ge.transpose %2 {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %4 = ge.expand %x {shape = array<i64: 4, 1, 1>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  return %0, %3, %4 : tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x2x3xf32>
}
