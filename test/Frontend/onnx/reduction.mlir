// ONNX reduction converters (ge_mlir/frontend/onnx/ops/reduction.py): each
// RUN line writes one model of Inputs/reduction_models.py and checks the ge ops
// ge-import-onnx emits for it.
//
// Axes are an attribute up to ReduceSum-11 / opset 17 for the other Reduce*
// ops, then a constant input (with noop_with_empty_axes). The importer
// normalizes axes (non-negative, sorted, distinct); "all axes" is the ge ops'
// empty `axes`.

// ReduceSum-11: axes attribute (negative axes are normalized).
// RUN: %python %S/Inputs/reduction_models.py sum_attr %t.sum_attr.onnx && ge-import-onnx %t.sum_attr.onnx | FileCheck %s --check-prefix=SUM-ATTR
// SUM-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SUM-ATTR-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// SUM-ATTR-NEXT: return %[[V0]] : tensor<2x3xf32>

// ReduceSum-13+: axes input.
// RUN: %python %S/Inputs/reduction_models.py sum_axes %t.sum_axes.onnx && ge-import-onnx %t.sum_axes.onnx | FileCheck %s --check-prefix=SUM-AXES
// SUM-AXES-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x4xf32> {onnx.name = "y"}) {
// SUM-AXES-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// SUM-AXES-NEXT: return %[[V0]] : tensor<2x1x4xf32>

// No axes input: reduce over every axis.
// RUN: %python %S/Inputs/reduction_models.py sum_all %t.sum_all.onnx && ge-import-onnx %t.sum_all.onnx | FileCheck %s --check-prefix=SUM-ALL
// SUM-ALL-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x1x1xf32> {onnx.name = "y"}) {
// SUM-ALL-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// SUM-ALL-NEXT: return %[[V0]] : tensor<1x1x1xf32>

// RUN: %python %S/Inputs/reduction_models.py sum_all_keepdims0 %t.sum_all_keepdims0.onnx && ge-import-onnx %t.sum_all_keepdims0.onnx | FileCheck %s --check-prefix=SUM-ALL-KEEPDIMS0
// SUM-ALL-KEEPDIMS0-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "y"}) {
// SUM-ALL-KEEPDIMS0-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
// SUM-ALL-KEEPDIMS0-NEXT: return %[[V0]] : tensor<f32>

// An explicitly empty axes input also reduces everything ...
// RUN: %python %S/Inputs/reduction_models.py sum_empty_axes %t.sum_empty_axes.onnx && ge-import-onnx %t.sum_empty_axes.onnx | FileCheck %s --check-prefix=SUM-EMPTY-AXES
// SUM-EMPTY-AXES-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x1x1xf32> {onnx.name = "y"}) {
// SUM-EMPTY-AXES-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// SUM-EMPTY-AXES-NEXT: return %[[V0]] : tensor<1x1x1xf32>

// ... unless noop_with_empty_axes is set: then nothing is reduced.
// RUN: %python %S/Inputs/reduction_models.py sum_noop %t.sum_noop.onnx && ge-import-onnx %t.sum_noop.onnx | FileCheck %s --check-prefix=SUM-NOOP
// SUM-NOOP-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"}) {
// SUM-NOOP-NEXT: %[[V0:.*]] = ge.identity %arg0 : tensor<2x3x4xf32>
// SUM-NOOP-NEXT: return %[[V0]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/reduction_models.py sum_int64 %t.sum_int64.onnx && ge-import-onnx %t.sum_int64.onnx | FileCheck %s --check-prefix=SUM-INT64
// SUM-INT64-LABEL: func.func @main(%arg0: tensor<2x3x4xi64> {onnx.name = "x"}) -> (tensor<3xi64> {onnx.name = "y"}) {
// SUM-INT64-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xi64>) -> tensor<3xi64>
// SUM-INT64-NEXT: return %[[V0]] : tensor<3xi64>

// Rank-0 input.
// RUN: %python %S/Inputs/reduction_models.py sum_scalar %t.sum_scalar.onnx && ge-import-onnx %t.sum_scalar.onnx | FileCheck %s --check-prefix=SUM-SCALAR
// SUM-SCALAR-LABEL: func.func @main(%arg0: tensor<f32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "y"}) {
// SUM-SCALAR-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 : (tensor<f32>) -> tensor<f32>
// SUM-SCALAR-NEXT: return %[[V0]] : tensor<f32>

// Dynamic dimensions stay dynamic.
// RUN: %python %S/Inputs/reduction_models.py sum_dynamic_dim %t.sum_dynamic_dim.onnx && ge-import-onnx %t.sum_dynamic_dim.onnx | FileCheck %s --check-prefix=SUM-DYNAMIC-DIM
// SUM-DYNAMIC-DIM-LABEL: func.func @main(%arg0: tensor<?x4xf32> {{{.*}}onnx.name = "x"}) -> (tensor<?x1xf32> {onnx.name = "y"}) {
// SUM-DYNAMIC-DIM-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 1>} : (tensor<?x4xf32>) -> tensor<?x1xf32>
// SUM-DYNAMIC-DIM-NEXT: return %[[V0]] : tensor<?x1xf32>

// RUN: %python %S/Inputs/reduction_models.py sum_latest %t.sum_latest.onnx && ge-import-onnx %t.sum_latest.onnx | FileCheck %s --check-prefix=SUM-LATEST
// SUM-LATEST-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y"}) {
// SUM-LATEST-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// SUM-LATEST-NEXT: return %[[V0]] : tensor<2x4xf32>

// ReduceMean/Max/Min/Prod: attribute form up to opset 17, input form from 18.
// RUN: %python %S/Inputs/reduction_models.py mean_attr %t.mean_attr.onnx && ge-import-onnx %t.mean_attr.onnx | FileCheck %s --check-prefix=MEAN-ATTR
// MEAN-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x1xf32> {onnx.name = "y"}) {
// MEAN-ATTR-NEXT: %[[V0:.*]] = ge.reduce_mean %arg0 {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
// MEAN-ATTR-NEXT: return %[[V0]] : tensor<2x1x1xf32>

// RUN: %python %S/Inputs/reduction_models.py mean_axes %t.mean_axes.onnx && ge-import-onnx %t.mean_axes.onnx | FileCheck %s --check-prefix=MEAN-AXES
// MEAN-AXES-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<3xf32> {onnx.name = "y"}) {
// MEAN-AXES-NEXT: %[[V0:.*]] = ge.reduce_mean %arg0 {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
// MEAN-AXES-NEXT: return %[[V0]] : tensor<3xf32>

// RUN: %python %S/Inputs/reduction_models.py max_attr %t.max_attr.onnx && ge-import-onnx %t.max_attr.onnx | FileCheck %s --check-prefix=MAX-ATTR
// MAX-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<3x4xf32> {onnx.name = "y"}) {
// MAX-ATTR-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
// MAX-ATTR-NEXT: return %[[V0]] : tensor<3x4xf32>

// RUN: %python %S/Inputs/reduction_models.py max_axes %t.max_axes.onnx && ge-import-onnx %t.max_axes.onnx | FileCheck %s --check-prefix=MAX-AXES
// MAX-AXES-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x1xf32> {onnx.name = "y"}) {
// MAX-AXES-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// MAX-AXES-NEXT: return %[[V0]] : tensor<2x3x1xf32>

// ReduceMax/Min on bool (opset 20): through ui8, since ge reductions are numeric.
// RUN: %python %S/Inputs/reduction_models.py max_bool %t.max_bool.onnx && ge-import-onnx %t.max_bool.onnx | FileCheck %s --check-prefix=MAX-BOOL
// MAX-BOOL-LABEL: func.func @main(%arg0: tensor<2x3x4xi1> {onnx.name = "x"}) -> (tensor<2x1x4xi1> {onnx.name = "y"}) {
// MAX-BOOL-NEXT: %[[V0:.*]] = ge.cast %arg0 : tensor<2x3x4xi1> to tensor<2x3x4xui8>
// MAX-BOOL-NEXT: %[[V1:.*]] = ge.reduce_max %[[V0]] {axes = array<i64: 1>} : (tensor<2x3x4xui8>) -> tensor<2x1x4xui8>
// MAX-BOOL-NEXT: %[[V2:.*]] = ge.cast %[[V1]] : tensor<2x1x4xui8> to tensor<2x1x4xi1>
// MAX-BOOL-NEXT: return %[[V2]] : tensor<2x1x4xi1>

// RUN: %python %S/Inputs/reduction_models.py min_bool %t.min_bool.onnx && ge-import-onnx %t.min_bool.onnx | FileCheck %s --check-prefix=MIN-BOOL
// MIN-BOOL-LABEL: func.func @main(%arg0: tensor<2x3x4xi1> {onnx.name = "x"}) -> (tensor<i1> {onnx.name = "y"}) {
// MIN-BOOL-NEXT: %[[V0:.*]] = ge.cast %arg0 : tensor<2x3x4xi1> to tensor<2x3x4xui8>
// MIN-BOOL-NEXT: %[[V1:.*]] = ge.reduce_min %[[V0]] {keepdims = false} : (tensor<2x3x4xui8>) -> tensor<ui8>
// MIN-BOOL-NEXT: %[[V2:.*]] = ge.cast %[[V1]] : tensor<ui8> to tensor<i1>
// MIN-BOOL-NEXT: return %[[V2]] : tensor<i1>

// RUN: %python %S/Inputs/reduction_models.py min_int %t.min_int.onnx && ge-import-onnx %t.min_int.onnx | FileCheck %s --check-prefix=MIN-INT
// MIN-INT-LABEL: func.func @main(%arg0: tensor<2x3x4xi32> {onnx.name = "x"}) -> (tensor<2x4xi32> {onnx.name = "y"}) {
// MIN-INT-NEXT: %[[V0:.*]] = ge.reduce_min %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xi32>) -> tensor<2x4xi32>
// MIN-INT-NEXT: return %[[V0]] : tensor<2x4xi32>

// RUN: %python %S/Inputs/reduction_models.py min_u8 %t.min_u8.onnx && ge-import-onnx %t.min_u8.onnx | FileCheck %s --check-prefix=MIN-U8
// MIN-U8-LABEL: func.func @main(%arg0: tensor<2x3x4xui8> {onnx.name = "x"}) -> (tensor<1x3x4xui8> {onnx.name = "y"}) {
// MIN-U8-NEXT: %[[V0:.*]] = ge.reduce_min %arg0 {axes = array<i64: 0>} : (tensor<2x3x4xui8>) -> tensor<1x3x4xui8>
// MIN-U8-NEXT: return %[[V0]] : tensor<1x3x4xui8>

// A repeated axis is reduced once, as onnxruntime does.
// RUN: %python %S/Inputs/reduction_models.py max_duplicate_axes %t.max_duplicate_axes.onnx && ge-import-onnx %t.max_duplicate_axes.onnx | FileCheck %s --check-prefix=MAX-DUPLICATE-AXES
// MAX-DUPLICATE-AXES-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x1xf32> {onnx.name = "y"}) {
// MAX-DUPLICATE-AXES-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// MAX-DUPLICATE-AXES-NEXT: return %[[V0]] : tensor<2x1xf32>

// RUN: %python %S/Inputs/reduction_models.py prod_attr %t.prod_attr.onnx && ge-import-onnx %t.prod_attr.onnx | FileCheck %s --check-prefix=PROD-ATTR
// PROD-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x4xf32> {onnx.name = "y"}) {
// PROD-ATTR-NEXT: %[[V0:.*]] = ge.reduce_prod %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// PROD-ATTR-NEXT: return %[[V0]] : tensor<2x1x4xf32>

// RUN: %python %S/Inputs/reduction_models.py prod_axes %t.prod_axes.onnx && ge-import-onnx %t.prod_axes.onnx | FileCheck %s --check-prefix=PROD-AXES
// PROD-AXES-LABEL: func.func @main(%arg0: tensor<2x3x4xi64> {onnx.name = "x"}) -> (tensor<4xi64> {onnx.name = "y"}) {
// PROD-AXES-NEXT: %[[V0:.*]] = ge.reduce_prod %arg0 {axes = array<i64: 0, 1>, keepdims = false} : (tensor<2x3x4xi64>) -> tensor<4xi64>
// PROD-AXES-NEXT: return %[[V0]] : tensor<4xi64>

// Composites: L1 = reduce_sum(abs), L2 (integer input through f64), SumSquare = reduce_sum(x*x), LogSum = log(reduce_sum).
// RUN: %python %S/Inputs/reduction_models.py l1 %t.l1.onnx && ge-import-onnx %t.l1.onnx | FileCheck %s --check-prefix=L1
// L1-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x4xf32> {onnx.name = "y"}) {
// L1-NEXT: %[[V0:.*]] = ge.abs %arg0 : tensor<2x3x4xf32>
// L1-NEXT: %[[V1:.*]] = ge.reduce_sum %[[V0]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// L1-NEXT: return %[[V1]] : tensor<2x1x4xf32>

// RUN: %python %S/Inputs/reduction_models.py l1_attr %t.l1_attr.onnx && ge-import-onnx %t.l1_attr.onnx | FileCheck %s --check-prefix=L1-ATTR
// L1-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<3x4xf32> {onnx.name = "y"}) {
// L1-ATTR-NEXT: %[[V0:.*]] = ge.abs %arg0 : tensor<2x3x4xf32>
// L1-ATTR-NEXT: %[[V1:.*]] = ge.reduce_sum %[[V0]] {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
// L1-ATTR-NEXT: return %[[V1]] : tensor<3x4xf32>

// RUN: %python %S/Inputs/reduction_models.py l2 %t.l2.onnx && ge-import-onnx %t.l2.onnx | FileCheck %s --check-prefix=L2
// L2-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// L2-NEXT: %[[V0:.*]] = ge.reduce_l2 %arg0 {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// L2-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/reduction_models.py l2_int %t.l2_int.onnx && ge-import-onnx %t.l2_int.onnx | FileCheck %s --check-prefix=L2-INT
// L2-INT-LABEL: func.func @main(%arg0: tensor<2x3x4xi32> {onnx.name = "x"}) -> (tensor<2x1x4xi32> {onnx.name = "y"}) {
// L2-INT-NEXT: %[[V0:.*]] = ge.cast %arg0 : tensor<2x3x4xi32> to tensor<2x3x4xf64>
// L2-INT-NEXT: %[[V1:.*]] = ge.reduce_l2 %[[V0]] {axes = array<i64: 1>} : (tensor<2x3x4xf64>) -> tensor<2x1x4xf64>
// L2-INT-NEXT: %[[V2:.*]] = ge.cast %[[V1]] : tensor<2x1x4xf64> to tensor<2x1x4xi32>
// L2-INT-NEXT: return %[[V2]] : tensor<2x1x4xi32>

// RUN: %python %S/Inputs/reduction_models.py sum_square %t.sum_square.onnx && ge-import-onnx %t.sum_square.onnx | FileCheck %s --check-prefix=SUM-SQUARE
// SUM-SQUARE-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x4xf32> {onnx.name = "y"}) {
// SUM-SQUARE-NEXT: %[[V0:.*]] = ge.mul %arg0, %arg0 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// SUM-SQUARE-NEXT: %[[V1:.*]] = ge.reduce_sum %[[V0]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// SUM-SQUARE-NEXT: return %[[V1]] : tensor<2x1x4xf32>

// RUN: %python %S/Inputs/reduction_models.py sum_square_attr %t.sum_square_attr.onnx && ge-import-onnx %t.sum_square_attr.onnx | FileCheck %s --check-prefix=SUM-SQUARE-ATTR
// SUM-SQUARE-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "y"}) {
// SUM-SQUARE-ATTR-NEXT: %[[V0:.*]] = ge.mul %arg0, %arg0 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// SUM-SQUARE-ATTR-NEXT: %[[V1:.*]] = ge.reduce_sum %[[V0]] {keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
// SUM-SQUARE-ATTR-NEXT: return %[[V1]] : tensor<f32>

// RUN: %python %S/Inputs/reduction_models.py log_sum %t.log_sum.onnx && ge-import-onnx %t.log_sum.onnx | FileCheck %s --check-prefix=LOG-SUM
// LOG-SUM-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y"}) {
// LOG-SUM-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// LOG-SUM-NEXT: %[[V1:.*]] = ge.log %[[V0]] : tensor<2x4xf32>
// LOG-SUM-NEXT: return %[[V1]] : tensor<2x4xf32>

// RUN: %python %S/Inputs/reduction_models.py log_sum_attr %t.log_sum_attr.onnx && ge-import-onnx %t.log_sum_attr.onnx | FileCheck %s --check-prefix=LOG-SUM-ATTR
// LOG-SUM-ATTR-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x1xf32> {onnx.name = "y"}) {
// LOG-SUM-ATTR-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// LOG-SUM-ATTR-NEXT: %[[V1:.*]] = ge.log %[[V0]] : tensor<2x3x1xf32>
// LOG-SUM-ATTR-NEXT: return %[[V1]] : tensor<2x3x1xf32>

// LogSumExp: m + log(reduce_sum(exp(x - m))), m = reduce_max(x) with +-inf replaced by 0.
// RUN: %python %S/Inputs/reduction_models.py log_sum_exp %t.log_sum_exp.onnx && ge-import-onnx %t.log_sum_exp.onnx | FileCheck %s --check-prefix=LOG-SUM-EXP
// LOG-SUM-EXP-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x4xf32> {onnx.name = "y"}) {
// LOG-SUM-EXP-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// LOG-SUM-EXP-NEXT: %[[V1:.*]] = ge.abs %[[V0]] : tensor<2x1x4xf32>
// LOG-SUM-EXP-NEXT: %[[C:.*]] = ge.constant dense<0x7F800000> : tensor<f32>
// LOG-SUM-EXP-NEXT: %[[V2:.*]] = ge.equal %[[V1]], %[[C]] : (tensor<2x1x4xf32>, tensor<f32>) -> tensor<2x1x4xi1>
// LOG-SUM-EXP-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// LOG-SUM-EXP-NEXT: %[[V3:.*]] = ge.where %[[V2]], %[[C0]], %[[V0]] : (tensor<2x1x4xi1>, tensor<f32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// LOG-SUM-EXP-NEXT: %[[V4:.*]] = ge.sub %arg0, %[[V3]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// LOG-SUM-EXP-NEXT: %[[V5:.*]] = ge.exp %[[V4]] : tensor<2x3x4xf32>
// LOG-SUM-EXP-NEXT: %[[V6:.*]] = ge.reduce_sum %[[V5]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// LOG-SUM-EXP-NEXT: %[[V7:.*]] = ge.log %[[V6]] : tensor<2x1x4xf32>
// LOG-SUM-EXP-NEXT: %[[V8:.*]] = ge.add %[[V3]], %[[V7]] : (tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// LOG-SUM-EXP-NEXT: return %[[V8]] : tensor<2x1x4xf32>

// RUN: %python %S/Inputs/reduction_models.py log_sum_exp_keepdims0 %t.log_sum_exp_keepdims0.onnx && ge-import-onnx %t.log_sum_exp_keepdims0.onnx | FileCheck %s --check-prefix=LOG-SUM-EXP-KEEPDIMS0
// LOG-SUM-EXP-KEEPDIMS0-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<3xf32> {onnx.name = "y"}) {
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 {axes = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V1:.*]] = ge.abs %[[V0]] : tensor<1x3x1xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[C:.*]] = ge.constant dense<0x7F800000> : tensor<f32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V2:.*]] = ge.equal %[[V1]], %[[C]] : (tensor<1x3x1xf32>, tensor<f32>) -> tensor<1x3x1xi1>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V3:.*]] = ge.where %[[V2]], %[[C0]], %[[V0]] : (tensor<1x3x1xi1>, tensor<f32>, tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V4:.*]] = ge.sub %arg0, %[[V3]] : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V5:.*]] = ge.exp %[[V4]] : tensor<2x3x4xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V6:.*]] = ge.reduce_sum %[[V5]] {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V7:.*]] = ge.squeeze %[[V3]] {axes = array<i64: 0, 2>} : (tensor<1x3x1xf32>) -> tensor<3xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V8:.*]] = ge.log %[[V6]] : tensor<3xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: %[[V9:.*]] = ge.add %[[V7]], %[[V8]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// LOG-SUM-EXP-KEEPDIMS0-NEXT: return %[[V9]] : tensor<3xf32>

// RUN: %python %S/Inputs/reduction_models.py log_sum_exp_all %t.log_sum_exp_all.onnx && ge-import-onnx %t.log_sum_exp_all.onnx | FileCheck %s --check-prefix=LOG-SUM-EXP-ALL
// LOG-SUM-EXP-ALL-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "y"}) {
// LOG-SUM-EXP-ALL-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// LOG-SUM-EXP-ALL-NEXT: %[[V1:.*]] = ge.abs %[[V0]] : tensor<1x1x1xf32>
// LOG-SUM-EXP-ALL-NEXT: %[[C:.*]] = ge.constant dense<0x7F800000> : tensor<f32>
// LOG-SUM-EXP-ALL-NEXT: %[[V2:.*]] = ge.equal %[[V1]], %[[C]] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<1x1x1xi1>
// LOG-SUM-EXP-ALL-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// LOG-SUM-EXP-ALL-NEXT: %[[V3:.*]] = ge.where %[[V2]], %[[C0]], %[[V0]] : (tensor<1x1x1xi1>, tensor<f32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
// LOG-SUM-EXP-ALL-NEXT: %[[V4:.*]] = ge.sub %arg0, %[[V3]] : (tensor<2x3x4xf32>, tensor<1x1x1xf32>) -> tensor<2x3x4xf32>
// LOG-SUM-EXP-ALL-NEXT: %[[V5:.*]] = ge.exp %[[V4]] : tensor<2x3x4xf32>
// LOG-SUM-EXP-ALL-NEXT: %[[V6:.*]] = ge.reduce_sum %[[V5]] {keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
// LOG-SUM-EXP-ALL-NEXT: %[[V7:.*]] = ge.squeeze %[[V3]] {axes = array<i64: 0, 1, 2>} : (tensor<1x1x1xf32>) -> tensor<f32>
// LOG-SUM-EXP-ALL-NEXT: %[[V8:.*]] = ge.log %[[V6]] : tensor<f32>
// LOG-SUM-EXP-ALL-NEXT: %[[V9:.*]] = ge.add %[[V7]], %[[V8]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// LOG-SUM-EXP-ALL-NEXT: return %[[V9]] : tensor<f32>

// RUN: %python %S/Inputs/reduction_models.py log_sum_exp_f16 %t.log_sum_exp_f16.onnx && ge-import-onnx %t.log_sum_exp_f16.onnx | FileCheck %s --check-prefix=LOG-SUM-EXP-F16
// LOG-SUM-EXP-F16-LABEL: func.func @main(%arg0: tensor<3x2xf16> {onnx.name = "x"}) -> (tensor<1x2xf16> {onnx.name = "y"}) {
// LOG-SUM-EXP-F16-NEXT: %[[V0:.*]] = ge.reduce_max %arg0 {axes = array<i64: 0>} : (tensor<3x2xf16>) -> tensor<1x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[V1:.*]] = ge.abs %[[V0]] : tensor<1x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[C:.*]] = ge.constant dense<0x7C00> : tensor<f16>
// LOG-SUM-EXP-F16-NEXT: %[[V2:.*]] = ge.equal %[[V1]], %[[C]] : (tensor<1x2xf16>, tensor<f16>) -> tensor<1x2xi1>
// LOG-SUM-EXP-F16-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f16>
// LOG-SUM-EXP-F16-NEXT: %[[V3:.*]] = ge.where %[[V2]], %[[C0]], %[[V0]] : (tensor<1x2xi1>, tensor<f16>, tensor<1x2xf16>) -> tensor<1x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[V4:.*]] = ge.sub %arg0, %[[V3]] : (tensor<3x2xf16>, tensor<1x2xf16>) -> tensor<3x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[V5:.*]] = ge.exp %[[V4]] : tensor<3x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[V6:.*]] = ge.reduce_sum %[[V5]] {axes = array<i64: 0>} : (tensor<3x2xf16>) -> tensor<1x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[V7:.*]] = ge.log %[[V6]] : tensor<1x2xf16>
// LOG-SUM-EXP-F16-NEXT: %[[V8:.*]] = ge.add %[[V3]], %[[V7]] : (tensor<1x2xf16>, tensor<1x2xf16>) -> tensor<1x2xf16>
// LOG-SUM-EXP-F16-NEXT: return %[[V8]] : tensor<1x2xf16>

// noop_with_empty_axes: the composites keep their elementwise steps (ONNX spec).
// RUN: %python %S/Inputs/reduction_models.py noop_composites %t.noop_composites.onnx && ge-import-onnx %t.noop_composites.onnx | FileCheck %s --check-prefix=NOOP-COMPOSITES
// NOOP-COMPOSITES-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y_mean"}, tensor<2x3xf32> {onnx.name = "y_max"}, tensor<2x3xf32> {onnx.name = "y_min"}, tensor<2x3xf32> {onnx.name = "y_prod"}, tensor<2x3xf32> {onnx.name = "y_l1"}, tensor<2x3xf32> {onnx.name = "y_l2"}, tensor<2x3xf32> {onnx.name = "y_sumsquare"}, tensor<2x3xf32> {onnx.name = "y_logsum"}, tensor<2x3xf32> {onnx.name = "y_logsumexp"}) {
// NOOP-COMPOSITES-NEXT: %[[V0:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V1:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V2:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V3:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V4:.*]] = ge.abs %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V5:.*]] = ge.abs %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V6:.*]] = ge.mul %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V7:.*]] = ge.log %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: %[[V8:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// NOOP-COMPOSITES-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V5]], %[[V6]], %[[V7]], %[[V8]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>

// Every Reduce* op at opset 28.
// RUN: %python %S/Inputs/reduction_models.py all_reduce_latest %t.all_reduce_latest.onnx && ge-import-onnx %t.all_reduce_latest.onnx | FileCheck %s --check-prefix=ALL-REDUCE-LATEST
// ALL-REDUCE-LATEST-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y_sum"}, tensor<2x4xf32> {onnx.name = "y_mean"}, tensor<2x4xf32> {onnx.name = "y_max"}, tensor<2x4xf32> {onnx.name = "y_min"}, tensor<2x4xf32> {onnx.name = "y_prod"}, tensor<2x4xf32> {onnx.name = "y_l1"}, tensor<2x4xf32> {onnx.name = "y_l2"}, tensor<2x4xf32> {onnx.name = "y_sumsquare"}, tensor<2x4xf32> {onnx.name = "y_logsum"}, tensor<2x4xf32> {onnx.name = "y_logsumexp"}) {
// ALL-REDUCE-LATEST-NEXT: %[[V0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V1:.*]] = ge.reduce_mean %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V2:.*]] = ge.reduce_max %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V3:.*]] = ge.reduce_min %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V4:.*]] = ge.reduce_prod %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V5:.*]] = ge.abs %arg0 : tensor<2x3x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V6:.*]] = ge.reduce_sum %[[V5]] {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V7:.*]] = ge.reduce_l2 %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V8:.*]] = ge.mul %arg0, %arg0 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V9:.*]] = ge.reduce_sum %[[V8]] {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V10:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V11:.*]] = ge.log %[[V10]] : tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V12:.*]] = ge.reduce_max %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V13:.*]] = ge.abs %[[V12]] : tensor<2x1x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[C:.*]] = ge.constant dense<0x7F800000> : tensor<f32>
// ALL-REDUCE-LATEST-NEXT: %[[V14:.*]] = ge.equal %[[V13]], %[[C]] : (tensor<2x1x4xf32>, tensor<f32>) -> tensor<2x1x4xi1>
// ALL-REDUCE-LATEST-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// ALL-REDUCE-LATEST-NEXT: %[[V15:.*]] = ge.where %[[V14]], %[[C0]], %[[V12]] : (tensor<2x1x4xi1>, tensor<f32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V16:.*]] = ge.sub %arg0, %[[V15]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V17:.*]] = ge.exp %[[V16]] : tensor<2x3x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V18:.*]] = ge.reduce_sum %[[V17]] {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V19:.*]] = ge.squeeze %[[V15]] {axes = array<i64: 1>} : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V20:.*]] = ge.log %[[V18]] : tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: %[[V21:.*]] = ge.add %[[V19]], %[[V20]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// ALL-REDUCE-LATEST-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V6]], %[[V7]], %[[V9]], %[[V11]], %[[V21]] : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>

// ArgMax/ArgMin: i64 result; select_last_index since opset 12.
// RUN: %python %S/Inputs/reduction_models.py argmax %t.argmax.onnx && ge-import-onnx %t.argmax.onnx | FileCheck %s --check-prefix=ARGMAX
// ARGMAX-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x4xi64> {onnx.name = "y"}) {
// ARGMAX-NEXT: %[[V0:.*]] = ge.argmax %arg0 {axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
// ARGMAX-NEXT: return %[[V0]] : tensor<2x4xi64>

// RUN: %python %S/Inputs/reduction_models.py argmin %t.argmin.onnx && ge-import-onnx %t.argmin.onnx | FileCheck %s --check-prefix=ARGMIN
// ARGMIN-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x3x4xi64> {onnx.name = "y"}) {
// ARGMIN-NEXT: %[[V0:.*]] = ge.argmin %arg0 {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x3x4xi64>
// ARGMIN-NEXT: return %[[V0]] : tensor<1x3x4xi64>

// RUN: %python %S/Inputs/reduction_models.py argmax_neg_axis %t.argmax_neg_axis.onnx && ge-import-onnx %t.argmax_neg_axis.onnx | FileCheck %s --check-prefix=ARGMAX-NEG-AXIS
// ARGMAX-NEG-AXIS-LABEL: func.func @main(%arg0: tensor<3x5xi32> {onnx.name = "x"}) -> (tensor<3x1xi64> {onnx.name = "y"}) {
// ARGMAX-NEG-AXIS-NEXT: %[[V0:.*]] = ge.argmax %arg0 {axis = 1 : i64} : (tensor<3x5xi32>) -> tensor<3x1xi64>
// ARGMAX-NEG-AXIS-NEXT: return %[[V0]] : tensor<3x1xi64>

// RUN: %python %S/Inputs/reduction_models.py argmin_f16 %t.argmin_f16.onnx && ge-import-onnx %t.argmin_f16.onnx | FileCheck %s --check-prefix=ARGMIN-F16
// ARGMIN-F16-LABEL: func.func @main(%arg0: tensor<4x2xf16> {onnx.name = "x"}) -> (tensor<2xi64> {onnx.name = "y"}) {
// ARGMIN-F16-NEXT: %[[V0:.*]] = ge.argmin %arg0 {axis = 0 : i64, keepdims = false, select_last_index = true} : (tensor<4x2xf16>) -> tensor<2xi64>
// ARGMIN-F16-NEXT: return %[[V0]] : tensor<2xi64>

// CumSum: the axis input (int32 or int64) must be constant.
// RUN: %python %S/Inputs/reduction_models.py cumsum %t.cumsum.onnx && ge-import-onnx %t.cumsum.onnx | FileCheck %s --check-prefix=CUMSUM
// CUMSUM-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// CUMSUM-NEXT: %[[V0:.*]] = ge.cumsum %arg0 {axis = 1 : i64} : tensor<2x3xf32>
// CUMSUM-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/reduction_models.py cumsum_exclusive_reverse %t.cumsum_exclusive_reverse.onnx && ge-import-onnx %t.cumsum_exclusive_reverse.onnx | FileCheck %s --check-prefix=CUMSUM-EXCLUSIVE-REVERSE
// CUMSUM-EXCLUSIVE-REVERSE-LABEL: func.func @main(%arg0: tensor<2x3x4xi64> {onnx.name = "x"}) -> (tensor<2x3x4xi64> {onnx.name = "y"}) {
// CUMSUM-EXCLUSIVE-REVERSE-NEXT: %[[V0:.*]] = ge.cumsum %arg0 {axis = 2 : i64, exclusive = true, reverse = true} : tensor<2x3x4xi64>
// CUMSUM-EXCLUSIVE-REVERSE-NEXT: return %[[V0]] : tensor<2x3x4xi64>

// Run-time axes: per axis, the reduced tensor and the input are concatenated and the run-time
// flag of the axis picks a part (ge.range + ge.gather).
// RUN: %python %S/Inputs/reduction_models.py runtime_axes %t.runtime_axes.onnx && ge-import-onnx %t.runtime_axes.onnx | FileCheck %s --check-prefix=RUNTIME-AXES
// RUNTIME-AXES-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}, %arg1: tensor<1xi64> {onnx.name = "axes"}) -> (tensor<?x?xf32> {onnx.name = "y"}) {
// RUNTIME-AXES: %[[FLAGS:.*]] = ge.greater %{{.*}}, %{{.*}} : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// RUNTIME-AXES-NEXT: %{{.*}} = ge.constant dense<0> : tensor<i64>
// RUNTIME-AXES-NEXT: %[[F0:.*]] = ge.gather %[[FLAGS]], %{{.*}} : (tensor<2xi1>, tensor<i64>) -> tensor<i1>
// RUNTIME-AXES-NEXT: %[[R0:.*]] = ge.reduce_sum %arg0 {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// RUNTIME-AXES-NEXT: %{{.*}} = ge.concat %[[R0]], %arg0 {axis = 0 : i64} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// RUNTIME-AXES: ge.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// RUNTIME-AXES: ge.reduce_sum %{{.*}} {axes = array<i64: 1>} : (tensor<?x3xf32>) -> tensor<?x1xf32>
// RUNTIME-AXES: %[[Y:.*]] = ge.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x?xf32>
// RUNTIME-AXES-NEXT: return %[[Y]] : tensor<?x?xf32>

// Refusals.
// RUN: %python %S/Inputs/reduction_models.py refuse_runtime_axes_of_unknown_count %t.refuse_count.onnx && not ge-import-onnx %t.refuse_count.onnx 2>&1 | FileCheck %s --check-prefix=REFUSE-AXES-COUNT
// REFUSE-AXES-COUNT: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// REFUSE-AXES-COUNT-NEXT: ReduceSum node 'ReduceSum_0': axes given at run time needs a static number of values (a rank-1 tensor of known length), got tensor<?xi64>

// RUN: %python %S/Inputs/reduction_models.py refuse_axis_out_of_range %t.refuse_axis_out_of_range.onnx && not ge-import-onnx %t.refuse_axis_out_of_range.onnx 2>&1 | FileCheck %s --check-prefix=REFUSE-AXIS-OUT-OF-RANGE
// Invalid ONNX (onnxruntime refuses it too): InvalidModelError, not "unsupported".
// REFUSE-AXIS-OUT-OF-RANGE: ge-import-onnx: error: invalid ONNX model: 1 problem(s)
// REFUSE-AXIS-OUT-OF-RANGE-NEXT: ReduceMean node 'ReduceMean_0': [ShapeInferenceError] axis must be in [-rank, rank-1]. Input rank was 2

// RUN: %python %S/Inputs/reduction_models.py refuse_log_sum_int %t.refuse_log_sum_int.onnx && not ge-import-onnx %t.refuse_log_sum_int.onnx 2>&1 | FileCheck %s --check-prefix=REFUSE-LOG-SUM-INT
// REFUSE-LOG-SUM-INT: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// REFUSE-LOG-SUM-INT-NEXT: ReduceLogSumExp node 'ReduceLogSumExp_0': ReduceLogSumExp of i32 input is not supported (integer types were removed from the schema in opset 28); cast the input to a float type

// CumSum's axis at run time: both axes scanned, ge.where picks (the axis is bounds checked by a gather).
// RUN: %python %S/Inputs/reduction_models.py cumsum_runtime_axis %t.cumsum_runtime_axis.onnx && ge-import-onnx %t.cumsum_runtime_axis.onnx | FileCheck %s --check-prefix=CUMSUM-RUNTIME-AXIS
// CUMSUM-RUNTIME-AXIS-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}, %arg1: tensor<i64> {onnx.name = "axis"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// CUMSUM-RUNTIME-AXIS: %[[AXIS:.*]] = ge.gather %{{.*}}, %{{.*}} : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
// CUMSUM-RUNTIME-AXIS-NEXT: %[[C1:.*]] = ge.cumsum %arg0 {axis = 1 : i64} : tensor<2x3xf32>
// CUMSUM-RUNTIME-AXIS-NEXT: %[[ZERO:.*]] = ge.constant dense<0> : tensor<i64>
// CUMSUM-RUNTIME-AXIS-NEXT: %[[IS0:.*]] = ge.equal %[[AXIS]], %[[ZERO]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CUMSUM-RUNTIME-AXIS-NEXT: %[[C0:.*]] = ge.cumsum %arg0 {axis = 0 : i64} : tensor<2x3xf32>
// CUMSUM-RUNTIME-AXIS-NEXT: %[[Y:.*]] = ge.where %[[IS0]], %[[C0]], %[[C1]] : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CUMSUM-RUNTIME-AXIS-NEXT: return %[[Y]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/reduction_models.py refuse_argmax_axis %t.refuse_argmax_axis.onnx && not ge-import-onnx %t.refuse_argmax_axis.onnx 2>&1 | FileCheck %s --check-prefix=REFUSE-ARGMAX-AXIS
// REFUSE-ARGMAX-AXIS: ge-import-onnx: error: invalid ONNX model: 1 problem(s)
// REFUSE-ARGMAX-AXIS-NEXT: ArgMax node 'ArgMax_0': [ShapeInferenceError] 'axis' must be in [-rank(indices), rank(indices)-1]
