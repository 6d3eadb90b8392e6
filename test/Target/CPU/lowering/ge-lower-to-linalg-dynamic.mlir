// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Two ? dims that must agree: the smaller size is used (no loop reads past either operand) and a
// mismatch becomes the function's extra i64 result, listed in ge.shape_checks.
// CHECK-LABEL: func.func @add_checked(
// CHECK-SAME: -> (tensor<?x4xf32>, tensor<i64>) attributes {ge.shape_checks = [{{{.*}}op = "ge.add", what = "elementwise operands: operand sizes of result dim 0"}]}
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[DA:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?x4xf32>
// CHECK-NEXT: %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[DB:.*]] = tensor.dim %arg1, %[[C0B]] : tensor<?x4xf32>
// CHECK-NEXT: %[[N:.*]] = arith.minsi %[[DA]], %[[DB]] : index
// CHECK-NEXT: %[[NEA:.*]] = arith.cmpi ne, %[[DA]], %[[N]] : index
// CHECK-NEXT: %[[NEB:.*]] = arith.cmpi ne, %[[DB]], %[[N]] : index
// CHECK-NEXT: %[[BAD:.*]] = arith.ori %[[NEA]], %[[NEB]] : i1
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?x4xf32>, tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: %[[OK:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[CODE:.*]] = arith.select %[[BAD]], %[[ONE]], %[[OK]] : i64
// CHECK-NEXT: %[[T:.*]] = tensor.from_elements %[[CODE]] : tensor<i64>
// CHECK-NEXT: return %[[R]], %[[T]] : tensor<?x4xf32>, tensor<i64>
func.func @add_checked(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = ge.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A static 1 broadcasts over a ? dim (constant index in its map); nothing to check.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @broadcast_one(
// CHECK-SAME: -> tensor<?x4xf32> {
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
func.func @broadcast_one(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %0 = ge.mul %a, %b : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// [batch, seq, K] x [K, N]: batch and seq fold into the rows, which run in static blocks (256 rows in
// an scf.for, then one block each of 128, 64, ..., 1 rows under scf.if) that the codegen strategy
// tiles and vectorizes; the result expands back (two run-time sizes in one group: tensor.reshape,
// which memref.expand_shape cannot express).
// CHECK-LABEL: func.func @matmul_rows(
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<?x?x16xf32> into tensor<?x16xf32>
// CHECK: %[[FULL:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C:.*]] = %{{.*}}) -> (tensor<?x8xf32>) {
// CHECK-NEXT: %[[A:.*]] = tensor.extract_slice %[[ROWS]][%[[I]], 0] [256, 16] [1, 1] : tensor<?x16xf32> to tensor<256x16xf32>
// CHECK-NEXT: %[[CB:.*]] = tensor.extract_slice %[[C]][%[[I]], 0] [256, 8] [1, 1] : tensor<?x8xf32> to tensor<256x8xf32>
// CHECK-NEXT: %[[MM:.*]] = linalg.matmul ins(%[[A]], %arg1 : tensor<256x16xf32>, tensor<16x8xf32>) outs(%[[CB]] : tensor<256x8xf32>)
// CHECK-NEXT: %[[INS:.*]] = tensor.insert_slice %[[MM]] into %[[C]][%[[I]], 0] [256, 8] [1, 1]
// CHECK-NEXT: scf.yield %[[INS]] : tensor<?x8xf32>
// CHECK: scf.if %{{.*}} -> (tensor<?x8xf32>, index) {
// CHECK: linalg.matmul ins(%{{.*}}, %arg1 : tensor<128x16xf32>, tensor<16x8xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %arg1 : tensor<1x16xf32>, tensor<16x8xf32>)
// CHECK: %[[SHAPE:.*]] = tensor.from_elements {{.*}} : tensor<3xi64>
// CHECK-NEXT: %[[OUT:.*]] = tensor.reshape %{{.*}}(%[[SHAPE]]) : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x?x8xf32>
// CHECK-NEXT: return %[[OUT]] : tensor<?x?x8xf32>
func.func @matmul_rows(%x: tensor<?x?x16xf32>, %w: tensor<16x8xf32>) -> tensor<?x?x8xf32> {
  %0 = ge.matmul %x, %w : (tensor<?x?x16xf32>, tensor<16x8xf32>) -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// -----

// [b, s, 32] -> [b, s, 4, 8]: the ? dims carry over, the static group expands.
// CHECK-LABEL: func.func @reshape_heads(
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x32xf32>
// CHECK: %[[D1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x32xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [%[[D0]], %[[D1]], 4, 8] : tensor<?x?x32xf32> into tensor<?x?x4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_heads(%x: tensor<?x?x32xf32>) -> tensor<?x?x4x8xf32> {
  %0 = ge.reshape %x : tensor<?x?x32xf32> to tensor<?x?x4x8xf32>
  return %0 : tensor<?x?x4x8xf32>
}

// -----

// ge.fill: sizes read from the shape operand when it runs; a negative size is clamped to 0 and
// fails a check, and so does a size that differs from a static result dim.
// CHECK-LABEL: func.func @fill(
// CHECK-SAME: -> (tensor<?x4xf32>, tensor<i64>) attributes {ge.shape_checks = [{{.*}}what = "fill: size 0 of the shape operand (negative)"}, {{.*}}what = "fill: size 1 of the shape operand (negative)"}, {{.*}}what = "fill: size 1 against the static result dim"}]}
// CHECK: %[[N:.*]] = tensor.extract %arg0[%{{.*}}] : tensor<2xi64>
// CHECK-NEXT: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SAFE:.*]] = arith.maxsi %[[NI]], %[[Z]] : index
// CHECK: %[[E:.*]] = tensor.empty(%[[SAFE]]) : tensor<?x4xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: return %[[F]], %{{.*}} : tensor<?x4xf32>, tensor<i64>
func.func @fill(%s: tensor<2xi64>) -> tensor<?x4xf32> {
  %v = ge.constant dense<2.5> : tensor<f32>
  %0 = ge.fill %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// ge.dynamic_reshape: the shape's values are read when it runs (0 copies, -1 is the remainder); a
// shape whose element count differs from the input's gets 0 sizes (the view reads nothing) and
// fails its check. The result is a view: collapse, then tensor.reshape to the run-time sizes.
// CHECK-LABEL: func.func @dynamic_reshape(
// CHECK-SAME: -> (tensor<?x?xf32>, tensor<i64>) attributes {ge.shape_checks = [{{.*}}what = "dynamic_reshape: more than one -1 in the shape"}, {{.*}}what = "dynamic_reshape: the element counts of the input and the shape"}]}
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x8xf32> into tensor<?xf32>
// CHECK-NEXT: %[[I0:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[I1:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[SHAPE:.*]] = tensor.from_elements %[[I0]], %[[I1]] : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = tensor.reshape %[[FLAT]](%[[SHAPE]]) : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: return %[[R]], %{{.*}} : tensor<?x?xf32>, tensor<i64>
func.func @dynamic_reshape(%x: tensor<?x8xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = ge.dynamic_reshape %x, %s : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Batched matmuls with run-time sizes (attention): a generic whose loops run b, m, k, n, so the
// innermost loop walks rows of B and C (LLVM vectorizes it); the batch sizes must agree (checked).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @attention_scores(
// CHECK-SAME: -> (tensor<?x?x?xf32>, tensor<i64>) attributes {ge.shape_checks = [{{.*}}what = "matmul: batch dim 0 of A and B"}]}
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<?x?x64xf32>, tensor<?x64x?xf32>) outs(%{{.*}} : tensor<?x?x?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @attention_scores(%q: tensor<?x?x64xf32>, %k: tensor<?x64x?xf32>) -> tensor<?x?x?xf32> {
  %0 = ge.matmul %q, %k : (tensor<?x?x64xf32>, tensor<?x64x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
