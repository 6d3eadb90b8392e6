// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Lowerings of reshape-like ops, transpose, concat, split, slice, expand, tile, pad and
// trans_data (ge_mlir/target/cpu/lowering/data_movement.py).

// Collapsing reshape: one collapse_shape.
// CHECK-LABEL: func.func @reshape_collapse(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_collapse(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = ge.reshape %x : tensor<2x3x4xf32> to tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// No reassociation relates 2x3 and 3x2: through 1-D.
// CHECK-LABEL: func.func @reshape_no_reassociation(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi8>)
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x3xi8> into tensor<6xi8>
// CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xi8> into tensor<3x2xi8>
// CHECK-NEXT: return %[[E]]
func.func @reshape_no_reassociation(%x: tensor<2x3xi8>) -> tensor<3x2xi8> {
  %0 = ge.reshape %x : tensor<2x3xi8> to tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// -----

// unsqueeze/squeeze/flatten are reshapes too (ui16 moves as is).
// CHECK-LABEL: func.func @unsqueeze_squeeze(
// CHECK-SAME: %[[X:.*]]: tensor<3x4xui16>)
// CHECK-NEXT: %[[U:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2, 3]] output_shape [1, 3, 4, 1] : tensor<3x4xui16> into tensor<1x3x4x1xui16>
// CHECK-NEXT: %[[S:.*]] = tensor.collapse_shape %[[U]] {{\[}}[0, 1], [2, 3]] : tensor<1x3x4x1xui16> into tensor<3x4xui16>
// CHECK-NEXT: %[[F:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1]] : tensor<3x4xui16> into tensor<12xui16>
// CHECK-NEXT: %[[F2:.*]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [1, 12] : tensor<12xui16> into tensor<1x12xui16>
// CHECK-NEXT: %[[S2:.*]] = tensor.collapse_shape %[[F2]] {{\[}}[0, 1]] : tensor<1x12xui16> into tensor<12xui16>
// CHECK-NEXT: return %[[U]], %[[S2]]
func.func @unsqueeze_squeeze(%x: tensor<3x4xui16>) -> (tensor<1x3x4x1xui16>, tensor<12xui16>) {
  %0 = ge.unsqueeze %x {axes = array<i64: 0, -1>} : (tensor<3x4xui16>) -> tensor<1x3x4x1xui16>
  %1 = ge.squeeze %0 : (tensor<1x3x4x1xui16>) -> tensor<3x4xui16>
  %2 = ge.flatten %1 {axis = 0 : i64} : (tensor<3x4xui16>) -> tensor<1x12xui16>
  %3 = ge.squeeze %2 {axes = array<i64: 0>} : (tensor<1x12xui16>) -> tensor<12xui16>
  return %0, %3 : tensor<1x3x4x1xui16>, tensor<12xui16>
}

// -----

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xbf16>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x2x3xbf16>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xbf16>) outs(%[[E]] : tensor<4x2x3xbf16>) permutation = [2, 0, 1]
// CHECK-NEXT: return %[[T]]
func.func @transpose(%x: tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16> {
  %0 = ge.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
  return %0 : tensor<4x2x3xbf16>
}

// -----

// Each piece is copied into its window of the result (no tensor.concat:
// its strided memref.copy needs a runtime function the JIT does not link).
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK-NEXT: %[[W0:.*]] = tensor.extract_slice %[[E]][0, 0] [2, 3] [1, 1]
// CHECK-NEXT: %[[C0:.*]] = linalg.copy {{.*}} ins(%[[A]] : tensor<2x3xf32>) outs(%[[W0]] : tensor<2x3xf32>)
// CHECK-NEXT: %[[I0:.*]] = tensor.insert_slice %[[C0]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK-NEXT: %[[W1:.*]] = tensor.extract_slice %[[I0]][0, 3] [2, 5] [1, 1]
// CHECK-NEXT: %[[C1:.*]] = linalg.copy {{.*}} ins(%[[B]] : tensor<2x5xf32>) outs(%[[W1]] : tensor<2x5xf32>)
// CHECK-NEXT: %[[I1:.*]] = tensor.insert_slice %[[C1]] into %[[I0]][0, 3] [2, 5] [1, 1]
// CHECK-NEXT: return %[[I1]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = ge.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[S0:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
// CHECK-NEXT: %[[E0:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT: %[[C0:.*]] = linalg.copy {{.*}} ins(%[[S0]] : tensor<2x2xf32>) outs(%[[E0]] : tensor<2x2xf32>)
// CHECK-NEXT: %[[S1:.*]] = tensor.extract_slice %[[X]][0, 2] [2, 6] [1, 1] : tensor<2x8xf32> to tensor<2x6xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<2x6xf32>
// CHECK-NEXT: %[[C1:.*]] = linalg.copy {{.*}} ins(%[[S1]] : tensor<2x6xf32>) outs(%[[E1]] : tensor<2x6xf32>)
// CHECK-NEXT: return %[[C0]], %[[C1]]
func.func @split(%x: tensor<2x8xf32>) -> (tensor<2x2xf32>, tensor<2x6xf32>) {
  %0:2 = ge.split %x {axis = -1 : i64, split_sizes = array<i64: 2, 6>} : (tensor<2x8xf32>) -> (tensor<2x2xf32>, tensor<2x6xf32>)
  return %0#0, %0#1 : tensor<2x2xf32>, tensor<2x6xf32>
}

// -----

// Positive steps: a strided extract_slice (start -10 clamped to 10); negative
// steps: a generic reading x[9 - 2 i].
// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: tensor<10x20xf32>)
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[X]][0, 10] [10, 5] [1, 2] : tensor<10x20xf32> to tensor<10x5xf32>
// CHECK-NEXT: tensor.empty() : tensor<10x5xf32>
// CHECK-NEXT: %[[C:.*]] = linalg.copy {{.*}} ins(%[[S]] : tensor<10x5xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<5x20xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<5x20xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT: %[[C9:.*]] = arith.constant 9 : index
// CHECK-NEXT: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[M2:.*]] = arith.constant -2 : index
// CHECK-NEXT: %[[MUL:.*]] = arith.muli %[[I]], %[[M2]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[C9]], %[[MUL]] : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[X]][%[[ROW]], %[[J]]] : tensor<10x20xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: return %[[C]], %[[R]]
func.func @slice(%x: tensor<10x20xf32>) -> (tensor<10x5xf32>, tensor<5x20xf32>) {
  %0 = ge.slice %x {axes = array<i64: 1>, ends = array<i64: 9223372036854775807>, starts = array<i64: -10>, steps = array<i64: 2>} : (tensor<10x20xf32>) -> tensor<10x5xf32>
  %1 = ge.slice %x {ends = array<i64: -9223372036854775807>, starts = array<i64: -1>, steps = array<i64: -2>} : (tensor<10x20xf32>) -> tensor<5x20xf32>
  return %0, %1 : tensor<10x5xf32>, tensor<5x20xf32>
}

// -----

// Bidirectional broadcast: size-1 dims read index 0.
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @expand(
// CHECK-SAME: %[[X:.*]]: tensor<3x1xi1>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3x4xi1>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[BC]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<3x1xi1>) outs(%[[E]] : tensor<2x3x4xi1>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: linalg.yield %[[IN]] : i1
// CHECK-NEXT: } -> tensor<2x3x4xi1>
// CHECK-NEXT: return %[[R]]
func.func @expand(%x: tensor<3x1xi1>) -> tensor<2x3x4xi1> {
  %0 = ge.expand %x {shape = array<i64: 2, 1, 4>} : (tensor<3x1xi1>) -> tensor<2x3x4xi1>
  return %0 : tensor<2x3x4xi1>
}

// -----

// Tile broadcasts to [r0, d0, r1, d1] and collapses the pairs.
// CHECK-DAG: #[[TM:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @tile(
// CHECK-SAME: %[[X:.*]]: tensor<3x4xf16>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3x1x4xf16>
// CHECK-NEXT: %[[B:.*]] = linalg.generic {indexing_maps = [#[[TM]], #{{.*}}], {{.*}} ins(%[[X]] : tensor<3x4xf16>) outs(%[[E]] : tensor<2x3x1x4xf16>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK-NEXT: } -> tensor<2x3x1x4xf16>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2, 3]] : tensor<2x3x1x4xf16> into tensor<6x4xf16>
// CHECK-NEXT: return %[[C]]
func.func @tile(%x: tensor<3x4xf16>) -> tensor<6x4xf16> {
  %0 = ge.tile %x {repeats = array<i64: 2, 1>} : (tensor<3x4xf16>) -> tensor<6x4xf16>
  return %0 : tensor<6x4xf16>
}

// -----

// CHECK-LABEL: func.func @pad_constant(
// CHECK-SAME: %[[X:.*]]: tensor<3x4xf32>)
// CHECK-NEXT: %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x6xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<4x6xf32>)
// CHECK-NEXT: %[[W:.*]] = tensor.extract_slice %[[F]][1, 2] [3, 4] [1, 1]
// CHECK-NEXT: %[[C:.*]] = linalg.copy {{.*}} ins(%[[X]] : tensor<3x4xf32>) outs(%[[W]] : tensor<3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.insert_slice %[[C]] into %[[F]][1, 2] [3, 4] [1, 1]
// CHECK-NEXT: return %[[R]]
func.func @pad_constant(%x: tensor<3x4xf32>) -> tensor<4x6xf32> {
  %0 = ge.pad %x {pads = array<i64: 1, 2, 0, 0>, value = 1.5 : f64} : (tensor<3x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// Edge padding clamps the source index.
// CHECK-LABEL: func.func @pad_edge(
// CHECK-SAME: %[[X:.*]]: tensor<3x4xi32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x7xi32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<3x7xi32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK-NEXT: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[S:.*]] = arith.subi %[[J]], %[[C2]] : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[S]], %[[C0]] : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[K:.*]] = arith.minsi %[[LO]], %[[C3]] : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[X]][%[[I]], %[[K]]] : tensor<3x4xi32>
// CHECK-NEXT: linalg.yield %[[V]] : i32
// CHECK: return %[[R]]
func.func @pad_edge(%x: tensor<3x4xi32>) -> tensor<3x7xi32> {
  %0 = ge.pad %x {mode = #ge.pad_mode<edge>, pads = array<i64: 0, 2, 0, 1>} : (tensor<3x4xi32>) -> tensor<3x7xi32>
  return %0 : tensor<3x7xi32>
}

// -----

// NCHW -> NC1HWC0: zero-pad C to 32, split it into 2x16, move C0 last.
// CHECK-LABEL: func.func @trans_data(
// CHECK-SAME: %[[X:.*]]: tensor<1x20x8x8xf16>)
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x32x8x8xf16>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f16) outs(%[[E]] : tensor<1x32x8x8xf16>)
// CHECK-NEXT: %[[W:.*]] = tensor.extract_slice %[[F]][0, 0, 0, 0] [1, 20, 8, 8] [1, 1, 1, 1]
// CHECK-NEXT: %[[C:.*]] = linalg.copy {{.*}} ins(%[[X]] : tensor<1x20x8x8xf16>) outs(%[[W]] : tensor<1x20x8x8xf16>)
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %[[C]] into %[[F]][0, 0, 0, 0] [1, 20, 8, 8] [1, 1, 1, 1]
// CHECK-NEXT: %[[S:.*]] = tensor.expand_shape %[[P]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 8, 8] : tensor<1x32x8x8xf16> into tensor<1x2x16x8x8xf16>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x2x8x8x16xf16>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[S]] : tensor<1x2x16x8x8xf16>) outs(%[[E2]] : tensor<1x2x8x8x16xf16>) permutation = [0, 1, 3, 4, 2]
// CHECK-NEXT: return %[[T]]
func.func @trans_data(%x: tensor<1x20x8x8xf16>) -> tensor<1x2x8x8x16xf16> {
  %0 = ge.trans_data %x {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NCHW>} : (tensor<1x20x8x8xf16>) -> tensor<1x2x8x8x16xf16>
  return %0 : tensor<1x2x8x8x16xf16>
}

// -----

// A dynamic dim: the init's size comes from the input (tensor.dim).
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %{{.*}}, %[[C0]] : tensor<?x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<4x?xf32>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<?x4xf32>) outs(%[[E]] : tensor<4x?xf32>) permutation = [1, 0]
// CHECK-NEXT: return %[[T]]
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %0 = ge.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
