// ONNX tensor-op converters (ge_mlir/frontend/onnx/ops/tensor.py): one small
// model per case, built by Inputs/tensor_models.py (the opset is stated there,
// with a comment on what a model exercises when the name does not say it).
// Refused models must fail with the converter's reason.
// test/python/frontend/test_onnx_tensor.py imports the same models in process
// and compares the result types with onnxruntime's.

// ===--- Reshape: constant shape with -1 and 0 (allowzero since opset 14); a run-time shape is refused.

// RUN: %python %S/Inputs/tensor_models.py reshape_neg1 %t.reshape_neg1.onnx && ge-import-onnx %t.reshape_neg1.onnx | FileCheck %s --check-prefix=RESHAPE-NEG1
// RESHAPE-NEG1-LABEL: func.func @reshape_neg1(
// RESHAPE-NEG1-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x12xf32> {onnx.name = "y"}) {
// RESHAPE-NEG1-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<2x12xf32>
// RESHAPE-NEG1-NEXT: return %[[V0]] : tensor<2x12xf32>
// RESHAPE-NEG1-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py reshape_zero %t.reshape_zero.onnx && ge-import-onnx %t.reshape_zero.onnx | FileCheck %s --check-prefix=RESHAPE-ZERO
// RESHAPE-ZERO-LABEL: func.func @reshape_zero(
// RESHAPE-ZERO-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x6x2xf32> {onnx.name = "y"}) {
// RESHAPE-ZERO-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<2x6x2xf32>
// RESHAPE-ZERO-NEXT: return %[[V0]] : tensor<2x6x2xf32>
// RESHAPE-ZERO-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py reshape_allowzero %t.reshape_allowzero.onnx && ge-import-onnx %t.reshape_allowzero.onnx | FileCheck %s --check-prefix=RESHAPE-ALLOWZERO
// RESHAPE-ALLOWZERO-LABEL: func.func @reshape_allowzero(
// RESHAPE-ALLOWZERO-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x0x3xf32> {onnx.name = "x"}) -> (tensor<0x6xf32> {onnx.name = "y"}) {
// RESHAPE-ALLOWZERO-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x0x3xf32> to tensor<0x6xf32>
// RESHAPE-ALLOWZERO-NEXT: return %[[V0]] : tensor<0x6xf32>
// RESHAPE-ALLOWZERO-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py reshape_v11 %t.reshape_v11.onnx && ge-import-onnx %t.reshape_v11.onnx | FileCheck %s --check-prefix=RESHAPE-V11
// RESHAPE-V11-LABEL: func.func @reshape_v11(
// RESHAPE-V11-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<6x4xf32> {onnx.name = "y"}) {
// RESHAPE-V11-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<6x4xf32>
// RESHAPE-V11-NEXT: return %[[V0]] : tensor<6x4xf32>
// RESHAPE-V11-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py reshape_dynamic %t.reshape_dynamic.onnx && ge-import-onnx %t.reshape_dynamic.onnx | FileCheck %s --check-prefix=RESHAPE-DYNAMIC
// RESHAPE-DYNAMIC-LABEL: func.func @reshape_dynamic(
// RESHAPE-DYNAMIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3x4xf32> {{{.*}}onnx.name = "x"}) -> (tensor<?x12xf32> {onnx.name = "y"}) {
// RESHAPE-DYNAMIC-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<?x3x4xf32> to tensor<?x12xf32>
// RESHAPE-DYNAMIC-NEXT: return %[[V0]] : tensor<?x12xf32>
// RESHAPE-DYNAMIC-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py reshape_dynamic_inner %t.reshape_dynamic_inner.onnx && ge-import-onnx %t.reshape_dynamic_inner.onnx | FileCheck %s --check-prefix=RESHAPE-DYNAMIC-INNER
// RESHAPE-DYNAMIC-INNER-LABEL: func.func @reshape_dynamic_inner(
// RESHAPE-DYNAMIC-INNER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x?x4xf32> {{{.*}}onnx.name = "x"}) -> (tensor<2x?x2xf32> {onnx.name = "y"}) {
// RESHAPE-DYNAMIC-INNER-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x?x4xf32> to tensor<2x?x2xf32>
// RESHAPE-DYNAMIC-INNER-NEXT: return %[[V0]] : tensor<2x?x2xf32>
// RESHAPE-DYNAMIC-INNER-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py reshape_shape_subgraph %t.reshape_shape_subgraph.onnx && ge-import-onnx %t.reshape_shape_subgraph.onnx | FileCheck %s --check-prefix=RESHAPE-SHAPE-SUBGRAPH
// RESHAPE-SHAPE-SUBGRAPH-LABEL: func.func @reshape_shape_subgraph(
// RESHAPE-SHAPE-SUBGRAPH-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x12xf32> {onnx.name = "y"}) {
// RESHAPE-SHAPE-SUBGRAPH-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<2x12xf32>
// RESHAPE-SHAPE-SUBGRAPH-NEXT: return %[[V0]] : tensor<2x12xf32>
// RESHAPE-SHAPE-SUBGRAPH-NEXT: }

// A shape given by the caller: read when the op runs.
// RUN: %python %S/Inputs/tensor_models.py reshape_runtime_shape %t.reshape_runtime_shape.onnx && ge-import-onnx %t.reshape_runtime_shape.onnx | FileCheck %s --check-prefix=RESHAPE-RUNTIME-SHAPE
// RESHAPE-RUNTIME-SHAPE-LABEL: func.func @reshape_runtime_shape(
// RESHAPE-RUNTIME-SHAPE-NEXT: %[[R:.*]] = ge.dynamic_reshape %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// RESHAPE-RUNTIME-SHAPE-NEXT: return %[[R]] : tensor<?x?xf32>

// A shape computed at run time from the input's own dims (Shape -> Slice -> Concat): ONNX shape
// inference's symbols make it the static target [0, -1] (docs/dynamic_shapes.md); the shape
// computation is left dead for the optimizer.
// RUN: %python %S/Inputs/tensor_models.py reshape_computed_shape %t.reshape_computed_shape.onnx && ge-import-onnx %t.reshape_computed_shape.onnx 2>&1 | FileCheck %s --check-prefix=RESHAPE-COMPUTED-SHAPE
// RESHAPE-COMPUTED-SHAPE-LABEL: func.func @reshape_computed_shape(
// RESHAPE-COMPUTED-SHAPE: %[[R:.*]] = ge.reshape %arg0 : tensor<?x3x4xf32> to tensor<?x12xf32>
// RESHAPE-COMPUTED-SHAPE-NEXT: return %[[R]] : tensor<?x12xf32>

// ===--- Transpose: the default perm reverses the dimensions.

// RUN: %python %S/Inputs/tensor_models.py transpose_default %t.transpose_default.onnx && ge-import-onnx %t.transpose_default.onnx | FileCheck %s --check-prefix=TRANSPOSE-DEFAULT
// TRANSPOSE-DEFAULT-LABEL: func.func @transpose_default(
// TRANSPOSE-DEFAULT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<4x3x2xf32> {onnx.name = "y"}) {
// TRANSPOSE-DEFAULT-NEXT: %[[V0:[^ ,:)]+]] = ge.transpose %[[ARG0]] {perm = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// TRANSPOSE-DEFAULT-NEXT: return %[[V0]] : tensor<4x3x2xf32>
// TRANSPOSE-DEFAULT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py transpose_perm %t.transpose_perm.onnx && ge-import-onnx %t.transpose_perm.onnx | FileCheck %s --check-prefix=TRANSPOSE-PERM
// TRANSPOSE-PERM-LABEL: func.func @transpose_perm(
// TRANSPOSE-PERM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xi64> {onnx.name = "x"}) -> (tensor<3x2x4xi64> {onnx.name = "y"}) {
// TRANSPOSE-PERM-NEXT: %[[V0:[^ ,:)]+]] = ge.transpose %[[ARG0]] {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xi64>) -> tensor<3x2x4xi64>
// TRANSPOSE-PERM-NEXT: return %[[V0]] : tensor<3x2x4xi64>
// TRANSPOSE-PERM-NEXT: }

// ===--- Concat (initializer operands become ge.constant).

// RUN: %python %S/Inputs/tensor_models.py concat %t.concat.onnx && ge-import-onnx %t.concat.onnx | FileCheck %s --check-prefix=CONCAT
// CONCAT-LABEL: func.func @concat(
// CONCAT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x5xf32> {onnx.name = "b"}) -> (tensor<2x9xf32> {onnx.name = "y"}) {
// CONCAT-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0.125730217], [-0.132104859]]> : tensor<2x1xf32>
// CONCAT-NEXT: %[[V0:[^ ,:)]+]] = ge.concat %[[ARG0]], %[[ARG1]], %[[CST]] {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>
// CONCAT-NEXT: return %[[V0]] : tensor<2x9xf32>
// CONCAT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py concat_v11 %t.concat_v11.onnx && ge-import-onnx %t.concat_v11.onnx | FileCheck %s --check-prefix=CONCAT-V11
// CONCAT-V11-LABEL: func.func @concat_v11(
// CONCAT-V11-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3xi1> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3xi1> {onnx.name = "b"}) -> (tensor<3x3xi1> {onnx.name = "y"}) {
// CONCAT-V11-NEXT: %[[V0:[^ ,:)]+]] = ge.concat %[[ARG0]], %[[ARG1]] {axis = 0 : i64} : (tensor<1x3xi1>, tensor<2x3xi1>) -> tensor<3x3xi1>
// CONCAT-V11-NEXT: return %[[V0]] : tensor<3x3xi1>
// CONCAT-V11-NEXT: }

// ===--- Split: sizes from the attribute (< 13), the input (>= 13), num_outputs (>= 18) or equal parts.

// RUN: %python %S/Inputs/tensor_models.py split_v11_attr %t.split_v11_attr.onnx && ge-import-onnx %t.split_v11_attr.onnx | FileCheck %s --check-prefix=SPLIT-V11-ATTR
// SPLIT-V11-ATTR-LABEL: func.func @split_v11_attr(
// SPLIT-V11-ATTR-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x1x4xf32> {onnx.name = "y0"}, tensor<2x2x4xf32> {onnx.name = "y1"}) {
// SPLIT-V11-ATTR-NEXT: %[[V0:[^ ,:)]+]]:2 = ge.split %[[ARG0]] {axis = 1 : i64, split_sizes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x2x4xf32>)
// SPLIT-V11-ATTR-NEXT: return %[[V0]]#0, %[[V0]]#1 : tensor<2x1x4xf32>, tensor<2x2x4xf32>
// SPLIT-V11-ATTR-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py split_v11_equal %t.split_v11_equal.onnx && ge-import-onnx %t.split_v11_equal.onnx | FileCheck %s --check-prefix=SPLIT-V11-EQUAL
// SPLIT-V11-EQUAL-LABEL: func.func @split_v11_equal(
// SPLIT-V11-EQUAL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y0"}, tensor<2x3xf32> {onnx.name = "y1"}) {
// SPLIT-V11-EQUAL-NEXT: %[[V0:[^ ,:)]+]]:2 = ge.split %[[ARG0]] {axis = 0 : i64, split_sizes = array<i64: 2, 2>} : (tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// SPLIT-V11-EQUAL-NEXT: return %[[V0]]#0, %[[V0]]#1 : tensor<2x3xf32>, tensor<2x3xf32>
// SPLIT-V11-EQUAL-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py split_v13_input %t.split_v13_input.onnx && ge-import-onnx %t.split_v13_input.onnx | FileCheck %s --check-prefix=SPLIT-V13-INPUT
// SPLIT-V13-INPUT-LABEL: func.func @split_v13_input(
// SPLIT-V13-INPUT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x5xf32> {onnx.name = "x"}) -> (tensor<2x3x2xf32> {onnx.name = "y0"}, tensor<2x3x2xf32> {onnx.name = "y1"}, tensor<2x3x1xf32> {onnx.name = "y2"}) {
// SPLIT-V13-INPUT-NEXT: %[[V0:[^ ,:)]+]]:3 = ge.split %[[ARG0]] {axis = -1 : i64, split_sizes = array<i64: 2, 2, 1>} : (tensor<2x3x5xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>)
// SPLIT-V13-INPUT-NEXT: return %[[V0]]#0, %[[V0]]#1, %[[V0]]#2 : tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>
// SPLIT-V13-INPUT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py split_v18_num_outputs %t.split_v18_num_outputs.onnx && ge-import-onnx %t.split_v18_num_outputs.onnx | FileCheck %s --check-prefix=SPLIT-V18-NUM-OUTPUTS
// SPLIT-V18-NUM-OUTPUTS-LABEL: func.func @split_v18_num_outputs(
// SPLIT-V18-NUM-OUTPUTS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<7x2xf32> {onnx.name = "x"}) -> (tensor<3x2xf32> {onnx.name = "y0"}, tensor<3x2xf32> {onnx.name = "y1"}, tensor<1x2xf32> {onnx.name = "y2"}) {
// SPLIT-V18-NUM-OUTPUTS-NEXT: %[[V0:[^ ,:)]+]]:3 = ge.split %[[ARG0]] {axis = 0 : i64, split_sizes = array<i64: 3, 3, 1>} : (tensor<7x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<1x2xf32>)
// SPLIT-V18-NUM-OUTPUTS-NEXT: return %[[V0]]#0, %[[V0]]#1, %[[V0]]#2 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<1x2xf32>
// SPLIT-V18-NUM-OUTPUTS-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py split_dynamic %t.split_dynamic.onnx && not ge-import-onnx %t.split_dynamic.onnx 2>&1 | FileCheck %s --check-prefix=SPLIT-DYNAMIC
// SPLIT-DYNAMIC: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// SPLIT-DYNAMIC-NEXT: Split node 'split_dynamic': splitting dynamic dimension 0 into 2 parts needs explicit split sizes

// ===--- Slice: attributes (< 10) or constant inputs (>= 10); clamping and negative steps are ge.slice's.

// RUN: %python %S/Inputs/tensor_models.py slice_v9 %t.slice_v9.onnx && ge-import-onnx %t.slice_v9.onnx | FileCheck %s --check-prefix=SLICE-V9
// SLICE-V9-LABEL: func.func @slice_v9(
// SLICE-V9-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y"}) {
// SLICE-V9-NEXT: %[[V0:[^ ,:)]+]] = ge.slice %[[ARG0]] {ends = array<i64: 3, 1000>, starts = array<i64: 1, -4>} : (tensor<4x6xf32>) -> tensor<2x4xf32>
// SLICE-V9-NEXT: return %[[V0]] : tensor<2x4xf32>
// SLICE-V9-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py slice_v11_default %t.slice_v11_default.onnx && ge-import-onnx %t.slice_v11_default.onnx | FileCheck %s --check-prefix=SLICE-V11-DEFAULT
// SLICE-V11-DEFAULT-LABEL: func.func @slice_v11_default(
// SLICE-V11-DEFAULT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SLICE-V11-DEFAULT-NEXT: %[[V0:[^ ,:)]+]] = ge.slice %[[ARG0]] {ends = array<i64: -1, 5>, starts = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
// SLICE-V11-DEFAULT-NEXT: return %[[V0]] : tensor<2x3xf32>
// SLICE-V11-DEFAULT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py slice_v13_steps %t.slice_v13_steps.onnx && ge-import-onnx %t.slice_v13_steps.onnx | FileCheck %s --check-prefix=SLICE-V13-STEPS
// SLICE-V13-STEPS-LABEL: func.func @slice_v13_steps(
// SLICE-V13-STEPS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<5x6xf32> {onnx.name = "x"}) -> (tensor<3x3xf32> {onnx.name = "y"}) {
// SLICE-V13-STEPS-NEXT: %[[V0:[^ ,:)]+]] = ge.slice %[[ARG0]] {axes = array<i64: -2, 1>, ends = array<i64: 2147483647, -2147483648>, starts = array<i64: 0, -1>, steps = array<i64: 2, -2>} : (tensor<5x6xf32>) -> tensor<3x3xf32>
// SLICE-V13-STEPS-NEXT: return %[[V0]] : tensor<3x3xf32>
// SLICE-V13-STEPS-NEXT: }

// Run-time starts: the ONNX index rule computed in ge ops, a ge.gather of the indices (? dim).
// RUN: %python %S/Inputs/tensor_models.py slice_runtime_starts %t.slice_runtime_starts.onnx && ge-import-onnx %t.slice_runtime_starts.onnx | FileCheck %s --check-prefix=SLICE-RUNTIME-STARTS
// SLICE-RUNTIME-STARTS-LABEL: func.func @slice_runtime_starts(%arg0: tensor<4x6xf32> {onnx.name = "x"}, %arg1: tensor<1xi64> {onnx.name = "s"}) -> (tensor<?x6xf32> {onnx.name = "y"}) {
// SLICE-RUNTIME-STARTS: %[[STEPS:.*]] = ge.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// SLICE-RUNTIME-STARTS-NEXT: %[[OFF:.*]] = ge.mul %[[STEPS]], %{{.*}} : (tensor<?xi64>, tensor<i64>) -> tensor<?xi64>
// SLICE-RUNTIME-STARTS-NEXT: %[[IDX:.*]] = ge.add %{{.*}}, %[[OFF]] : (tensor<i64>, tensor<?xi64>) -> tensor<?xi64>
// SLICE-RUNTIME-STARTS-NEXT: %[[Y:.*]] = ge.gather %arg0, %[[IDX]] : (tensor<4x6xf32>, tensor<?xi64>) -> tensor<?x6xf32>
// SLICE-RUNTIME-STARTS-NEXT: return %[[Y]] : tensor<?x6xf32>

// ===--- Gather, GatherElements, ScatterElements (reduction since 16, max/min since 18), Scatter.

// RUN: %python %S/Inputs/tensor_models.py gather_axis1 %t.gather_axis1.onnx && ge-import-onnx %t.gather_axis1.onnx | FileCheck %s --check-prefix=GATHER-AXIS1
// GATHER-AXIS1-LABEL: func.func @gather_axis1(
// GATHER-AXIS1-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4x5xf32> {onnx.name = "x"}) -> (tensor<3x2x2x5xf32> {onnx.name = "y"}) {
// GATHER-AXIS1-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0, 2], [1, -1]]> : tensor<2x2xi64>
// GATHER-AXIS1-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[ARG0]], %[[CST]] {axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<2x2xi64>) -> tensor<3x2x2x5xf32>
// GATHER-AXIS1-NEXT: return %[[V0]] : tensor<3x2x2x5xf32>
// GATHER-AXIS1-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py gather_scalar_index %t.gather_scalar_index.onnx && ge-import-onnx %t.gather_scalar_index.onnx | FileCheck %s --check-prefix=GATHER-SCALAR-INDEX
// GATHER-SCALAR-INDEX-LABEL: func.func @gather_scalar_index(
// GATHER-SCALAR-INDEX-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x5xf32> {onnx.name = "x"}) -> (tensor<5xf32> {onnx.name = "y"}) {
// GATHER-SCALAR-INDEX-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<1> : tensor<i64>
// GATHER-SCALAR-INDEX-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[ARG0]], %[[CST]] : (tensor<4x5xf32>, tensor<i64>) -> tensor<5xf32>
// GATHER-SCALAR-INDEX-NEXT: return %[[V0]] : tensor<5xf32>
// GATHER-SCALAR-INDEX-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py gather_runtime_indices %t.gather_runtime_indices.onnx && ge-import-onnx %t.gather_runtime_indices.onnx | FileCheck %s --check-prefix=GATHER-RUNTIME-INDICES
// GATHER-RUNTIME-INDICES-LABEL: func.func @gather_runtime_indices(
// GATHER-RUNTIME-INDICES-SAME: %[[ARG0:[^ ,:)]+]]: tensor<5x3xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<2x4xi32> {onnx.name = "i"}) -> (tensor<2x4x3xf32> {onnx.name = "y"}) {
// GATHER-RUNTIME-INDICES-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[ARG0]], %[[ARG1]] : (tensor<5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
// GATHER-RUNTIME-INDICES-NEXT: return %[[V0]] : tensor<2x4x3xf32>
// GATHER-RUNTIME-INDICES-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py gather_elements %t.gather_elements.onnx && ge-import-onnx %t.gather_elements.onnx | FileCheck %s --check-prefix=GATHER-ELEMENTS
// GATHER-ELEMENTS-LABEL: func.func @gather_elements(
// GATHER-ELEMENTS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<3x2xi64> {onnx.name = "i"}) -> (tensor<3x2xf32> {onnx.name = "y"}) {
// GATHER-ELEMENTS-NEXT: %[[V0:[^ ,:)]+]] = ge.gather_elements %[[ARG0]], %[[ARG1]] {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
// GATHER-ELEMENTS-NEXT: return %[[V0]] : tensor<3x2xf32>
// GATHER-ELEMENTS-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py scatter_elements_v11 %t.scatter_elements_v11.onnx && ge-import-onnx %t.scatter_elements_v11.onnx | FileCheck %s --check-prefix=SCATTER-ELEMENTS-V11
// SCATTER-ELEMENTS-V11-LABEL: func.func @scatter_elements_v11(
// SCATTER-ELEMENTS-V11-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x3xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "u"}) -> (tensor<3x3xf32> {onnx.name = "y"}) {
// SCATTER-ELEMENTS-V11-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
// SCATTER-ELEMENTS-V11-NEXT: %[[V0:[^ ,:)]+]] = ge.scatter_elements %[[ARG0]], %[[CST]], %[[ARG1]] : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
// SCATTER-ELEMENTS-V11-NEXT: return %[[V0]] : tensor<3x3xf32>
// SCATTER-ELEMENTS-V11-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py scatter_elements_add %t.scatter_elements_add.onnx && ge-import-onnx %t.scatter_elements_add.onnx | FileCheck %s --check-prefix=SCATTER-ELEMENTS-ADD
// SCATTER-ELEMENTS-ADD-LABEL: func.func @scatter_elements_add(
// SCATTER-ELEMENTS-ADD-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x3xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "u"}) -> (tensor<3x3xf32> {onnx.name = "y"}) {
// SCATTER-ELEMENTS-ADD-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}1, 0, 2], [0, 2, 1]]> : tensor<2x3xi32>
// SCATTER-ELEMENTS-ADD-NEXT: %[[V0:[^ ,:)]+]] = ge.scatter_elements %[[ARG0]], %[[CST]], %[[ARG1]] {reduction = #ge.scatter_reduction<add>} : (tensor<3x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// SCATTER-ELEMENTS-ADD-NEXT: return %[[V0]] : tensor<3x3xf32>
// SCATTER-ELEMENTS-ADD-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py scatter_elements_max %t.scatter_elements_max.onnx && ge-import-onnx %t.scatter_elements_max.onnx | FileCheck %s --check-prefix=SCATTER-ELEMENTS-MAX
// SCATTER-ELEMENTS-MAX-LABEL: func.func @scatter_elements_max(
// SCATTER-ELEMENTS-MAX-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x3xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<3x2xf32> {onnx.name = "u"}) -> (tensor<3x3xf32> {onnx.name = "y"}) {
// SCATTER-ELEMENTS-MAX-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0, 1], [2, 2], [1, -3]]> : tensor<3x2xi64>
// SCATTER-ELEMENTS-MAX-NEXT: %[[V0:[^ ,:)]+]] = ge.scatter_elements %[[ARG0]], %[[CST]], %[[ARG1]] {axis = 1 : i64, reduction = #ge.scatter_reduction<max>} : (tensor<3x3xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x3xf32>
// SCATTER-ELEMENTS-MAX-NEXT: return %[[V0]] : tensor<3x3xf32>
// SCATTER-ELEMENTS-MAX-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py scatter_v10 %t.scatter_v10.onnx && ge-import-onnx %t.scatter_v10.onnx | FileCheck %s --check-prefix=SCATTER-V10
// SCATTER-V10-LABEL: func.func @scatter_v10(
// SCATTER-V10-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x3xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "u"}) -> (tensor<3x3xf32> {onnx.name = "y"}) {
// SCATTER-V10-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
// SCATTER-V10-NEXT: %[[V0:[^ ,:)]+]] = ge.scatter_elements %[[ARG0]], %[[CST]], %[[ARG1]] : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
// SCATTER-V10-NEXT: return %[[V0]] : tensor<3x3xf32>
// SCATTER-V10-NEXT: }

// ===--- Expand and Tile (constant shape / repeats).

// RUN: %python %S/Inputs/tensor_models.py expand %t.expand.onnx && ge-import-onnx %t.expand.onnx | FileCheck %s --check-prefix=EXPAND
// EXPAND-LABEL: func.func @expand(
// EXPAND-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x1xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"}) {
// EXPAND-NEXT: %[[V0:[^ ,:)]+]] = ge.expand %[[ARG0]] {shape = array<i64: 2, 1, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
// EXPAND-NEXT: return %[[V0]] : tensor<2x3x4xf32>
// EXPAND-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py expand_v8 %t.expand_v8.onnx && ge-import-onnx %t.expand_v8.onnx | FileCheck %s --check-prefix=EXPAND-V8
// EXPAND-V8-LABEL: func.func @expand_v8(
// EXPAND-V8-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3xi32> {onnx.name = "x"}) -> (tensor<2x3xi32> {onnx.name = "y"}) {
// EXPAND-V8-NEXT: %[[V0:[^ ,:)]+]] = ge.expand %[[ARG0]] {shape = array<i64: 2, 3>} : (tensor<1x3xi32>) -> tensor<2x3xi32>
// EXPAND-V8-NEXT: return %[[V0]] : tensor<2x3xi32>
// EXPAND-V8-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py tile %t.tile.onnx && ge-import-onnx %t.tile.onnx | FileCheck %s --check-prefix=TILE
// TILE-LABEL: func.func @tile(
// TILE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<4x3xf32> {onnx.name = "y"}) {
// TILE-NEXT: %[[V0:[^ ,:)]+]] = ge.tile %[[ARG0]] {repeats = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
// TILE-NEXT: return %[[V0]] : tensor<4x3xf32>
// TILE-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py tile_v6 %t.tile_v6.onnx && ge-import-onnx %t.tile_v6.onnx | FileCheck %s --check-prefix=TILE-V6
// TILE-V6-LABEL: func.func @tile_v6(
// TILE-V6-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x1xi1> {onnx.name = "x"}) -> (tensor<3x2x2xi1> {onnx.name = "y"}) {
// TILE-V6-NEXT: %[[V0:[^ ,:)]+]] = ge.tile %[[ARG0]] {repeats = array<i64: 3, 1, 2>} : (tensor<1x2x1xi1>) -> tensor<3x2x2xi1>
// TILE-V6-NEXT: return %[[V0]] : tensor<3x2x2xi1>
// TILE-V6-NEXT: }

// ===--- Squeeze/Unsqueeze: axes attribute (< 13) or input (>= 13); Flatten.

// RUN: %python %S/Inputs/tensor_models.py squeeze_v11 %t.squeeze_v11.onnx && ge-import-onnx %t.squeeze_v11.onnx | FileCheck %s --check-prefix=SQUEEZE-V11
// SQUEEZE-V11-LABEL: func.func @squeeze_v11(
// SQUEEZE-V11-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x1x3x1xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SQUEEZE-V11-NEXT: %[[V0:[^ ,:)]+]] = ge.squeeze %[[ARG0]] {axes = array<i64: 1, -1>} : (tensor<2x1x3x1xf32>) -> tensor<2x3xf32>
// SQUEEZE-V11-NEXT: return %[[V0]] : tensor<2x3xf32>
// SQUEEZE-V11-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py squeeze_v13 %t.squeeze_v13.onnx && ge-import-onnx %t.squeeze_v13.onnx | FileCheck %s --check-prefix=SQUEEZE-V13
// SQUEEZE-V13-LABEL: func.func @squeeze_v13(
// SQUEEZE-V13-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x1x3x1xf32> {onnx.name = "x"}) -> (tensor<2x1x3xf32> {onnx.name = "y"}) {
// SQUEEZE-V13-NEXT: %[[V0:[^ ,:)]+]] = ge.squeeze %[[ARG0]] {axes = array<i64: -1>} : (tensor<2x1x3x1xf32>) -> tensor<2x1x3xf32>
// SQUEEZE-V13-NEXT: return %[[V0]] : tensor<2x1x3xf32>
// SQUEEZE-V13-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py squeeze_all %t.squeeze_all.onnx && ge-import-onnx %t.squeeze_all.onnx | FileCheck %s --check-prefix=SQUEEZE-ALL
// SQUEEZE-ALL-LABEL: func.func @squeeze_all(
// SQUEEZE-ALL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x1x3x1xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SQUEEZE-ALL-NEXT: %[[V0:[^ ,:)]+]] = ge.squeeze %[[ARG0]] : (tensor<2x1x3x1xf32>) -> tensor<2x3xf32>
// SQUEEZE-ALL-NEXT: return %[[V0]] : tensor<2x3xf32>
// SQUEEZE-ALL-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py squeeze_dynamic_all %t.squeeze_dynamic_all.onnx && not ge-import-onnx %t.squeeze_dynamic_all.onnx 2>&1 | FileCheck %s --check-prefix=SQUEEZE-DYNAMIC-ALL
// SQUEEZE-DYNAMIC-ALL: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// SQUEEZE-DYNAMIC-ALL-NEXT: Squeeze node 'squeeze_dynamic_all': Squeeze without axes needs a static input shape, got tensor<?x1x3xf32>

// RUN: %python %S/Inputs/tensor_models.py unsqueeze_v11 %t.unsqueeze_v11.onnx && ge-import-onnx %t.unsqueeze_v11.onnx | FileCheck %s --check-prefix=UNSQUEEZE-V11
// UNSQUEEZE-V11-LABEL: func.func @unsqueeze_v11(
// UNSQUEEZE-V11-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<1x2x3x1xf32> {onnx.name = "y"}) {
// UNSQUEEZE-V11-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 0, 3>} : (tensor<2x3xf32>) -> tensor<1x2x3x1xf32>
// UNSQUEEZE-V11-NEXT: return %[[V0]] : tensor<1x2x3x1xf32>
// UNSQUEEZE-V11-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py unsqueeze_v13 %t.unsqueeze_v13.onnx && ge-import-onnx %t.unsqueeze_v13.onnx | FileCheck %s --check-prefix=UNSQUEEZE-V13
// UNSQUEEZE-V13-LABEL: func.func @unsqueeze_v13(
// UNSQUEEZE-V13-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x1x3x1xf32> {onnx.name = "y"}) {
// UNSQUEEZE-V13-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: -1, 1>} : (tensor<2x3xf32>) -> tensor<2x1x3x1xf32>
// UNSQUEEZE-V13-NEXT: return %[[V0]] : tensor<2x1x3x1xf32>
// UNSQUEEZE-V13-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py flatten %t.flatten.onnx && ge-import-onnx %t.flatten.onnx | FileCheck %s --check-prefix=FLATTEN
// FLATTEN-LABEL: func.func @flatten(
// FLATTEN-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x12xf32> {onnx.name = "y"}) {
// FLATTEN-NEXT: %[[V0:[^ ,:)]+]] = ge.flatten %[[ARG0]] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// FLATTEN-NEXT: return %[[V0]] : tensor<2x12xf32>
// FLATTEN-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py flatten_axis0 %t.flatten_axis0.onnx && ge-import-onnx %t.flatten_axis0.onnx | FileCheck %s --check-prefix=FLATTEN-AXIS0
// FLATTEN-AXIS0-LABEL: func.func @flatten_axis0(
// FLATTEN-AXIS0-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x24xf32> {onnx.name = "y"}) {
// FLATTEN-AXIS0-NEXT: %[[V0:[^ ,:)]+]] = ge.flatten %[[ARG0]] {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
// FLATTEN-AXIS0-NEXT: return %[[V0]] : tensor<1x24xf32>
// FLATTEN-AXIS0-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py flatten_neg %t.flatten_neg.onnx && ge-import-onnx %t.flatten_neg.onnx | FileCheck %s --check-prefix=FLATTEN-NEG
// FLATTEN-NEG-LABEL: func.func @flatten_neg(
// FLATTEN-NEG-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<6x4xf32> {onnx.name = "y"}) {
// FLATTEN-NEG-NEXT: %[[V0:[^ ,:)]+]] = ge.flatten %[[ARG0]] {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// FLATTEN-NEG-NEXT: return %[[V0]] : tensor<6x4xf32>
// FLATTEN-NEG-NEXT: }

// ===--- Pad: attributes (< 11), pads/constant_value inputs (>= 11), axes (>= 18), modes.

// RUN: %python %S/Inputs/tensor_models.py pad_v2 %t.pad_v2.onnx && ge-import-onnx %t.pad_v2.onnx | FileCheck %s --check-prefix=PAD-V2
// PAD-V2-LABEL: func.func @pad_v2(
// PAD-V2-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<3x5xf32> {onnx.name = "y"}) {
// PAD-V2-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {pads = array<i64: 1, 0, 0, 2>, value = 5.000000e-01 : f64} : (tensor<2x3xf32>) -> tensor<3x5xf32>
// PAD-V2-NEXT: return %[[V0]] : tensor<3x5xf32>
// PAD-V2-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py pad_v11_constant %t.pad_v11_constant.onnx && ge-import-onnx %t.pad_v11_constant.onnx | FileCheck %s --check-prefix=PAD-V11-CONSTANT
// PAD-V11-CONSTANT-LABEL: func.func @pad_v11_constant(
// PAD-V11-CONSTANT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<3x4xf32> {onnx.name = "y"}) {
// PAD-V11-CONSTANT-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {pads = array<i64: 0, 1, 1, 0>, value = 1.500000e+00 : f64} : (tensor<2x3xf32>) -> tensor<3x4xf32>
// PAD-V11-CONSTANT-NEXT: return %[[V0]] : tensor<3x4xf32>
// PAD-V11-CONSTANT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py pad_reflect %t.pad_reflect.onnx && ge-import-onnx %t.pad_reflect.onnx | FileCheck %s --check-prefix=PAD-REFLECT
// PAD-REFLECT-LABEL: func.func @pad_reflect(
// PAD-REFLECT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x4x4xf32> {onnx.name = "x"}) -> (tensor<1x2x6x8xf32> {onnx.name = "y"}) {
// PAD-REFLECT-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {mode = #ge.pad_mode<reflect>, pads = array<i64: 0, 0, 1, 2, 0, 0, 1, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x8xf32>
// PAD-REFLECT-NEXT: return %[[V0]] : tensor<1x2x6x8xf32>
// PAD-REFLECT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py pad_edge %t.pad_edge.onnx && ge-import-onnx %t.pad_edge.onnx | FileCheck %s --check-prefix=PAD-EDGE
// PAD-EDGE-LABEL: func.func @pad_edge(
// PAD-EDGE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xi32> {onnx.name = "x"}) -> (tensor<4x5xi32> {onnx.name = "y"}) {
// PAD-EDGE-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {mode = #ge.pad_mode<edge>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3xi32>) -> tensor<4x5xi32>
// PAD-EDGE-NEXT: return %[[V0]] : tensor<4x5xi32>
// PAD-EDGE-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py pad_wrap %t.pad_wrap.onnx && ge-import-onnx %t.pad_wrap.onnx | FileCheck %s --check-prefix=PAD-WRAP
// PAD-WRAP-LABEL: func.func @pad_wrap(
// PAD-WRAP-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x2xf32> {onnx.name = "x"}) -> (tensor<6x4xf32> {onnx.name = "y"}) {
// PAD-WRAP-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {mode = #ge.pad_mode<wrap>, pads = array<i64: 2, 1, 1, 1>} : (tensor<3x2xf32>) -> tensor<6x4xf32>
// PAD-WRAP-NEXT: return %[[V0]] : tensor<6x4xf32>
// PAD-WRAP-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py pad_axes %t.pad_axes.onnx && ge-import-onnx %t.pad_axes.onnx | FileCheck %s --check-prefix=PAD-AXES
// PAD-AXES-LABEL: func.func @pad_axes(
// PAD-AXES-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x6xf32> {onnx.name = "y"}) {
// PAD-AXES-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {pads = array<i64: 0, 2, 0, 1>} : (tensor<2x3xf32>) -> tensor<2x6xf32>
// PAD-AXES-NEXT: return %[[V0]] : tensor<2x6xf32>
// PAD-AXES-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py pad_negative %t.pad_negative.onnx && ge-import-onnx %t.pad_negative.onnx | FileCheck %s --check-prefix=PAD-NEGATIVE
// PAD-NEGATIVE-LABEL: func.func @pad_negative(
// PAD-NEGATIVE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x4xf32> {onnx.name = "x"}) -> (tensor<3x1xf32> {onnx.name = "y"}) {
// PAD-NEGATIVE-NEXT: %[[V0:[^ ,:)]+]] = ge.pad %[[ARG0]] {pads = array<i64: 0, -1, 1, -2>} : (tensor<2x4xf32>) -> tensor<3x1xf32>
// PAD-NEGATIVE-NEXT: return %[[V0]] : tensor<3x1xf32>
// PAD-NEGATIVE-NEXT: }

// ===--- Shape and Size: static (parts of) shapes are constants; dynamic ones are ge.shape or refused.

// RUN: %python %S/Inputs/tensor_models.py shape_static %t.shape_static.onnx && ge-import-onnx %t.shape_static.onnx | FileCheck %s --check-prefix=SHAPE-STATIC
// SHAPE-STATIC-LABEL: func.func @shape_static(
// SHAPE-STATIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<3xi64> {onnx.name = "y"}) {
// SHAPE-STATIC-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<[2, 3, 4]> : tensor<3xi64>
// SHAPE-STATIC-NEXT: return %[[CST]] : tensor<3xi64>
// SHAPE-STATIC-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py shape_dynamic %t.shape_dynamic.onnx && ge-import-onnx %t.shape_dynamic.onnx | FileCheck %s --check-prefix=SHAPE-DYNAMIC
// SHAPE-DYNAMIC-LABEL: func.func @shape_dynamic(
// SHAPE-DYNAMIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3xf32> {{{.*}}onnx.name = "x"}) -> (tensor<2xi64> {onnx.name = "y"}) {
// SHAPE-DYNAMIC-NEXT: %[[V0:[^ ,:)]+]] = ge.shape %[[ARG0]] : (tensor<?x3xf32>) -> tensor<2xi64>
// SHAPE-DYNAMIC-NEXT: return %[[V0]] : tensor<2xi64>
// SHAPE-DYNAMIC-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py shape_dynamic_start_end %t.shape_dynamic_start_end.onnx && ge-import-onnx %t.shape_dynamic_start_end.onnx | FileCheck %s --check-prefix=SHAPE-DYNAMIC-START-END
// SHAPE-DYNAMIC-START-END-LABEL: func.func @shape_dynamic_start_end(
// SHAPE-DYNAMIC-START-END-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3x4xf32> {{{.*}}onnx.name = "x"}) -> (tensor<2xi64> {onnx.name = "y"}) {
// SHAPE-DYNAMIC-START-END-NEXT: %[[V0:[^ ,:)]+]] = ge.shape %[[ARG0]] {end = -1 : i64, start = -3 : i64} : (tensor<?x3x4xf32>) -> tensor<2xi64>
// SHAPE-DYNAMIC-START-END-NEXT: return %[[V0]] : tensor<2xi64>
// SHAPE-DYNAMIC-START-END-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py shape_static_part %t.shape_static_part.onnx && ge-import-onnx %t.shape_static_part.onnx | FileCheck %s --check-prefix=SHAPE-STATIC-PART
// SHAPE-STATIC-PART-LABEL: func.func @shape_static_part(
// SHAPE-STATIC-PART-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3x4xf32> {{{.*}}onnx.name = "x"}) -> (tensor<2xi64> {onnx.name = "y"}) {
// SHAPE-STATIC-PART-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<[3, 4]> : tensor<2xi64>
// SHAPE-STATIC-PART-NEXT: return %[[CST]] : tensor<2xi64>
// SHAPE-STATIC-PART-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py size_static %t.size_static.onnx && ge-import-onnx %t.size_static.onnx | FileCheck %s --check-prefix=SIZE-STATIC
// SIZE-STATIC-LABEL: func.func @size_static(
// SIZE-STATIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<i64> {onnx.name = "y"}) {
// SIZE-STATIC-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<24> : tensor<i64>
// SIZE-STATIC-NEXT: return %[[CST]] : tensor<i64>
// SIZE-STATIC-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py size_dynamic %t.size_dynamic.onnx && not ge-import-onnx %t.size_dynamic.onnx 2>&1 | FileCheck %s --check-prefix=SIZE-DYNAMIC
// SIZE-DYNAMIC: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// SIZE-DYNAMIC-NEXT: Size node 'size_dynamic': Size of tensor<?x3xf32> is only known at run time; fix dynamic input dimensions with input_shapes=... / --input-shape

// ===--- Range: the result type comes from ONNX shape inference; constant inputs fold.

// RUN: %python %S/Inputs/tensor_models.py range_dynamic %t.range_dynamic.onnx && ge-import-onnx %t.range_dynamic.onnx | FileCheck %s --check-prefix=RANGE-DYNAMIC
// RANGE-DYNAMIC-LABEL: func.func @range_dynamic(
// RANGE-DYNAMIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<f32> {onnx.name = "start"}, %[[ARG1:[^ ,:)]+]]: tensor<f32> {onnx.name = "limit"}, %[[ARG2:[^ ,:)]+]]: tensor<f32> {onnx.name = "delta"}) -> (tensor<?xf32> {onnx.name = "y"}) {
// RANGE-DYNAMIC-NEXT: %[[V0:[^ ,:)]+]] = ge.range %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
// RANGE-DYNAMIC-NEXT: return %[[V0]] : tensor<?xf32>
// RANGE-DYNAMIC-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py range_v27 %t.range_v27.onnx && ge-import-onnx %t.range_v27.onnx | FileCheck %s --check-prefix=RANGE-V27
// RANGE-V27-LABEL: func.func @range_v27(
// RANGE-V27-SAME: %[[ARG0:[^ ,:)]+]]: tensor<i64> {onnx.name = "start"}, %[[ARG1:[^ ,:)]+]]: tensor<i64> {onnx.name = "limit"}, %[[ARG2:[^ ,:)]+]]: tensor<i64> {onnx.name = "delta"}) -> (tensor<?xi64> {onnx.name = "y"}) {
// RANGE-V27-NEXT: %[[V0:[^ ,:)]+]] = ge.range %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// RANGE-V27-NEXT: return %[[V0]] : tensor<?xi64>
// RANGE-V27-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py range_const %t.range_const.onnx && ge-import-onnx %t.range_const.onnx | FileCheck %s --check-prefix=RANGE-CONST
// RANGE-CONST-LABEL: func.func @range_const(
// RANGE-CONST-SAME: ) -> (tensor<2xi64> {onnx.name = "y"}) {
// RANGE-CONST-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<[3, 6]> : tensor<2xi64>
// RANGE-CONST-NEXT: return %[[CST]] : tensor<2xi64>
// RANGE-CONST-NEXT: }

// ===--- OneHot: depth and values constant; boolean values go through i8.

// RUN: %python %S/Inputs/tensor_models.py one_hot %t.one_hot.onnx && ge-import-onnx %t.one_hot.onnx | FileCheck %s --check-prefix=ONE-HOT
// ONE-HOT-LABEL: func.func @one_hot(
// ONE-HOT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xi64> {onnx.name = "i"}) -> (tensor<2x3x4xf32> {onnx.name = "y"}) {
// ONE-HOT-NEXT: %[[V0:[^ ,:)]+]] = ge.one_hot %[[ARG0]] {depth = 4 : i64} : (tensor<2x3xi64>) -> tensor<2x3x4xf32>
// ONE-HOT-NEXT: return %[[V0]] : tensor<2x3x4xf32>
// ONE-HOT-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py one_hot_axis0 %t.one_hot_axis0.onnx && ge-import-onnx %t.one_hot_axis0.onnx | FileCheck %s --check-prefix=ONE-HOT-AXIS0
// ONE-HOT-AXIS0-LABEL: func.func @one_hot_axis0(
// ONE-HOT-AXIS0-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3xi64> {onnx.name = "i"}) -> (tensor<5x3xi32> {onnx.name = "y"}) {
// ONE-HOT-AXIS0-NEXT: %[[V0:[^ ,:)]+]] = ge.one_hot %[[ARG0]] {axis = 0 : i64, depth = 5 : i64, off_value = -1.000000e+00 : f64, on_value = 7.000000e+00 : f64} : (tensor<3xi64>) -> tensor<5x3xi32>
// ONE-HOT-AXIS0-NEXT: return %[[V0]] : tensor<5x3xi32>
// ONE-HOT-AXIS0-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py one_hot_bool %t.one_hot_bool.onnx && ge-import-onnx %t.one_hot_bool.onnx | FileCheck %s --check-prefix=ONE-HOT-BOOL
// ONE-HOT-BOOL-LABEL: func.func @one_hot_bool(
// ONE-HOT-BOOL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2xi32> {onnx.name = "i"}) -> (tensor<2x3xi1> {onnx.name = "y"}) {
// ONE-HOT-BOOL-NEXT: %[[V0:[^ ,:)]+]] = ge.one_hot %[[ARG0]] {depth = 3 : i64} : (tensor<2xi32>) -> tensor<2x3xi8>
// ONE-HOT-BOOL-NEXT: %[[V1:[^ ,:)]+]] = ge.cast %[[V0]] : tensor<2x3xi8> to tensor<2x3xi1>
// ONE-HOT-BOOL-NEXT: return %[[V1]] : tensor<2x3xi1>
// ONE-HOT-BOOL-NEXT: }

// ===--- TopK: k attribute (< 10) or constant input.

// RUN: %python %S/Inputs/tensor_models.py topk %t.topk.onnx && ge-import-onnx %t.topk.onnx | FileCheck %s --check-prefix=TOPK
// TOPK-LABEL: func.func @topk(
// TOPK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x5xf32> {onnx.name = "x"}) -> (tensor<3x2xf32> {onnx.name = "v"}, tensor<3x2xi64> {onnx.name = "i"}) {
// TOPK-NEXT: %[[VALUES:[^ ,:)]+]], %[[INDICES:[^ ,:)]+]] = ge.top_k %[[ARG0]] {k = 2 : i64} : (tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
// TOPK-NEXT: return %[[VALUES]], %[[INDICES]] : tensor<3x2xf32>, tensor<3x2xi64>
// TOPK-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py topk_smallest %t.topk_smallest.onnx && ge-import-onnx %t.topk_smallest.onnx | FileCheck %s --check-prefix=TOPK-SMALLEST
// TOPK-SMALLEST-LABEL: func.func @topk_smallest(
// TOPK-SMALLEST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x3xf32> {onnx.name = "x"}) -> (tensor<3x3xf32> {onnx.name = "v"}, tensor<3x3xi64> {onnx.name = "i"}) {
// TOPK-SMALLEST-NEXT: %[[VALUES:[^ ,:)]+]], %[[INDICES:[^ ,:)]+]] = ge.top_k %[[ARG0]] {axis = 0 : i64, k = 3 : i64, largest = false} : (tensor<4x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
// TOPK-SMALLEST-NEXT: return %[[VALUES]], %[[INDICES]] : tensor<3x3xf32>, tensor<3x3xi64>
// TOPK-SMALLEST-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py topk_v9 %t.topk_v9.onnx && ge-import-onnx %t.topk_v9.onnx | FileCheck %s --check-prefix=TOPK-V9
// TOPK-V9-LABEL: func.func @topk_v9(
// TOPK-V9-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x5xf32> {onnx.name = "x"}) -> (tensor<3x1xf32> {onnx.name = "v"}, tensor<3x1xi64> {onnx.name = "i"}) {
// TOPK-V9-NEXT: %[[VALUES:[^ ,:)]+]], %[[INDICES:[^ ,:)]+]] = ge.top_k %[[ARG0]] {axis = 1 : i64, k = 1 : i64} : (tensor<3x5xf32>) -> (tensor<3x1xf32>, tensor<3x1xi64>)
// TOPK-V9-NEXT: return %[[VALUES]], %[[INDICES]] : tensor<3x1xf32>, tensor<3x1xi64>
// TOPK-V9-NEXT: }

// Run-time k: the whole axis in order, then the first k (k bounds checked by a gather).
// RUN: %python %S/Inputs/tensor_models.py topk_runtime_k %t.topk_runtime_k.onnx && ge-import-onnx %t.topk_runtime_k.onnx | FileCheck %s --check-prefix=TOPK-RUNTIME-K
// TOPK-RUNTIME-K-LABEL: func.func @topk_runtime_k(%arg0: tensor<3x5xf32> {onnx.name = "x"}, %arg1: tensor<1xi64> {onnx.name = "k"}) -> (tensor<3x?xf32> {onnx.name = "v"}, tensor<3x?xi64> {onnx.name = "i"}) {
// TOPK-RUNTIME-K: %[[INRANGE:.*]] = ge.and %{{.*}}, %{{.*}} : (tensor<i1>, tensor<i1>) -> tensor<i1>
// TOPK-RUNTIME-K: %[[K:.*]] = ge.gather %{{.*}}, %{{.*}} : (tensor<1xi64>, tensor<i64>) -> tensor<i64>
// TOPK-RUNTIME-K-NEXT: %[[V:.*]], %[[I:.*]] = ge.top_k %arg0 {k = 5 : i64} : (tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xi64>)
// TOPK-RUNTIME-K: %[[VK:.*]] = ge.gather %[[V]], %{{.*}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<?xi64>) -> tensor<3x?xf32>
// TOPK-RUNTIME-K: %[[IK:.*]] = ge.gather %[[I]], %{{.*}} {axis = 1 : i64} : (tensor<3x5xi64>, tensor<?xi64>) -> tensor<3x?xi64>
// TOPK-RUNTIME-K-NEXT: return %[[VK]], %[[IK]] : tensor<3x?xf32>, tensor<3x?xi64>

// ===--- ConstantOfShape: a splat constant (the large one is not folded at import).

// RUN: %python %S/Inputs/tensor_models.py constant_of_shape_large %t.constant_of_shape_large.onnx && ge-import-onnx %t.constant_of_shape_large.onnx | FileCheck %s --check-prefix=CONSTANT-OF-SHAPE-LARGE
// CONSTANT-OF-SHAPE-LARGE-LABEL: func.func @constant_of_shape_large(
// CONSTANT-OF-SHAPE-LARGE-SAME: ) -> (tensor<1024x1025xi32> {onnx.name = "y"}) {
// CONSTANT-OF-SHAPE-LARGE-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<7> : tensor<1024x1025xi32>
// CONSTANT-OF-SHAPE-LARGE-NEXT: return %[[CST]] : tensor<1024x1025xi32>
// CONSTANT-OF-SHAPE-LARGE-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py constant_of_shape_partial %t.constant_of_shape_partial.onnx && ge-import-onnx %t.constant_of_shape_partial.onnx | FileCheck %s --check-prefix=CONSTANT-OF-SHAPE-PARTIAL
// CONSTANT-OF-SHAPE-PARTIAL-LABEL: func.func @constant_of_shape_partial(
// CONSTANT-OF-SHAPE-PARTIAL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3x4xf32> {{{.*}}onnx.name = "x"}) -> (tensor<3x4xf32> {onnx.name = "y"}) {
// CONSTANT-OF-SHAPE-PARTIAL-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<1.500000e+00> : tensor<3x4xf32>
// CONSTANT-OF-SHAPE-PARTIAL-NEXT: return %[[CST]] : tensor<3x4xf32>
// CONSTANT-OF-SHAPE-PARTIAL-NEXT: }

// A run-time shape: ge.fill reads the sizes when it runs.
// RUN: %python %S/Inputs/tensor_models.py constant_of_shape_dynamic %t.constant_of_shape_dynamic.onnx && ge-import-onnx %t.constant_of_shape_dynamic.onnx | FileCheck %s --check-prefix=CONSTANT-OF-SHAPE-DYNAMIC
// CONSTANT-OF-SHAPE-DYNAMIC-LABEL: func.func @constant_of_shape_dynamic(
// CONSTANT-OF-SHAPE-DYNAMIC-NEXT: %[[S:.*]] = ge.shape %arg0 : (tensor<?x3xf32>) -> tensor<2xi64>
// CONSTANT-OF-SHAPE-DYNAMIC-NEXT: %[[V:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// CONSTANT-OF-SHAPE-DYNAMIC-NEXT: %[[F:.*]] = ge.fill %[[V]], %[[S]] : (tensor<f32>, tensor<2xi64>) -> tensor<?x3xf32>
// CONSTANT-OF-SHAPE-DYNAMIC-NEXT: return %[[F]] : tensor<?x3xf32>

// ===--- DepthToSpace / SpaceToDepth as reshape + transpose + reshape (DCR and CRD).

// RUN: %python %S/Inputs/tensor_models.py depth_to_space_dcr %t.depth_to_space_dcr.onnx && ge-import-onnx %t.depth_to_space_dcr.onnx | FileCheck %s --check-prefix=DEPTH-TO-SPACE-DCR
// DEPTH-TO-SPACE-DCR-LABEL: func.func @depth_to_space_dcr(
// DEPTH-TO-SPACE-DCR-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x8x2x3xf32> {onnx.name = "x"}) -> (tensor<1x2x4x6xf32> {onnx.name = "y"}) {
// DEPTH-TO-SPACE-DCR-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<1x8x2x3xf32> to tensor<1x2x2x2x2x3xf32>
// DEPTH-TO-SPACE-DCR-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 0, 3, 4, 1, 5, 2>} : (tensor<1x2x2x2x2x3xf32>) -> tensor<1x2x2x2x3x2xf32>
// DEPTH-TO-SPACE-DCR-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<1x2x2x2x3x2xf32> to tensor<1x2x4x6xf32>
// DEPTH-TO-SPACE-DCR-NEXT: return %[[V2]] : tensor<1x2x4x6xf32>
// DEPTH-TO-SPACE-DCR-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py depth_to_space_crd %t.depth_to_space_crd.onnx && ge-import-onnx %t.depth_to_space_crd.onnx | FileCheck %s --check-prefix=DEPTH-TO-SPACE-CRD
// DEPTH-TO-SPACE-CRD-LABEL: func.func @depth_to_space_crd(
// DEPTH-TO-SPACE-CRD-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8x2x3xf32> {onnx.name = "x"}) -> (tensor<2x2x4x6xf32> {onnx.name = "y"}) {
// DEPTH-TO-SPACE-CRD-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x8x2x3xf32> to tensor<2x2x2x2x2x3xf32>
// DEPTH-TO-SPACE-CRD-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 0, 1, 4, 2, 5, 3>} : (tensor<2x2x2x2x2x3xf32>) -> tensor<2x2x2x2x3x2xf32>
// DEPTH-TO-SPACE-CRD-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<2x2x2x2x3x2xf32> to tensor<2x2x4x6xf32>
// DEPTH-TO-SPACE-CRD-NEXT: return %[[V2]] : tensor<2x2x4x6xf32>
// DEPTH-TO-SPACE-CRD-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py depth_to_space_dynamic_batch %t.depth_to_space_dynamic_batch.onnx && ge-import-onnx %t.depth_to_space_dynamic_batch.onnx | FileCheck %s --check-prefix=DEPTH-TO-SPACE-DYNAMIC-BATCH
// DEPTH-TO-SPACE-DYNAMIC-BATCH-LABEL: func.func @depth_to_space_dynamic_batch(
// DEPTH-TO-SPACE-DYNAMIC-BATCH-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x9x2x2xf32> {{{.*}}onnx.name = "x"}) -> (tensor<?x1x6x6xf32> {onnx.name = "y"}) {
// DEPTH-TO-SPACE-DYNAMIC-BATCH-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<?x9x2x2xf32> to tensor<?x3x3x1x2x2xf32>
// DEPTH-TO-SPACE-DYNAMIC-BATCH-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 0, 3, 4, 1, 5, 2>} : (tensor<?x3x3x1x2x2xf32>) -> tensor<?x1x2x3x2x3xf32>
// DEPTH-TO-SPACE-DYNAMIC-BATCH-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<?x1x2x3x2x3xf32> to tensor<?x1x6x6xf32>
// DEPTH-TO-SPACE-DYNAMIC-BATCH-NEXT: return %[[V2]] : tensor<?x1x6x6xf32>
// DEPTH-TO-SPACE-DYNAMIC-BATCH-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py space_to_depth %t.space_to_depth.onnx && ge-import-onnx %t.space_to_depth.onnx | FileCheck %s --check-prefix=SPACE-TO-DEPTH
// SPACE-TO-DEPTH-LABEL: func.func @space_to_depth(
// SPACE-TO-DEPTH-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x4x6xf32> {onnx.name = "x"}) -> (tensor<1x8x2x3xf32> {onnx.name = "y"}) {
// SPACE-TO-DEPTH-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<1x2x4x6xf32> to tensor<1x2x2x2x3x2xf32>
// SPACE-TO-DEPTH-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 0, 3, 5, 1, 2, 4>} : (tensor<1x2x2x2x3x2xf32>) -> tensor<1x2x2x2x2x3xf32>
// SPACE-TO-DEPTH-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<1x2x2x2x2x3xf32> to tensor<1x8x2x3xf32>
// SPACE-TO-DEPTH-NEXT: return %[[V2]] : tensor<1x8x2x3xf32>
// SPACE-TO-DEPTH-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py space_to_depth_crd %t.space_to_depth_crd.onnx && ge-import-onnx %t.space_to_depth_crd.onnx | FileCheck %s --check-prefix=SPACE-TO-DEPTH-CRD
// SPACE-TO-DEPTH-CRD-LABEL: func.func @space_to_depth_crd(
// SPACE-TO-DEPTH-CRD-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x4x6xf32> {onnx.name = "x"}) -> (tensor<1x8x2x3xf32> {onnx.name = "y"}) {
// SPACE-TO-DEPTH-CRD-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<1x2x4x6xf32> to tensor<1x2x2x2x3x2xf32>
// SPACE-TO-DEPTH-CRD-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 0, 1, 3, 5, 2, 4>} : (tensor<1x2x2x2x3x2xf32>) -> tensor<1x2x2x2x2x3xf32>
// SPACE-TO-DEPTH-CRD-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<1x2x2x2x2x3xf32> to tensor<1x8x2x3xf32>
// SPACE-TO-DEPTH-CRD-NEXT: return %[[V2]] : tensor<1x8x2x3xf32>
// SPACE-TO-DEPTH-CRD-NEXT: }

// ===--- Trilu (constant mask + ge.where) and EyeLike (a constant).

// RUN: %python %S/Inputs/tensor_models.py trilu_upper %t.trilu_upper.onnx && ge-import-onnx %t.trilu_upper.onnx | FileCheck %s --check-prefix=TRILU-UPPER
// TRILU-UPPER-LABEL: func.func @trilu_upper(
// TRILU-UPPER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"}) {
// TRILU-UPPER-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}true, true, true, true], [false, true, true, true], [false, false, true, true]]> : tensor<3x4xi1>
// TRILU-UPPER-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<0.000000e+00> : tensor<f32>
// TRILU-UPPER-NEXT: %[[V0:[^ ,:)]+]] = ge.where %[[CST]], %[[ARG0]], %[[CST_0]] : (tensor<3x4xi1>, tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// TRILU-UPPER-NEXT: return %[[V0]] : tensor<2x3x4xf32>
// TRILU-UPPER-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py trilu_lower_k %t.trilu_lower_k.onnx && ge-import-onnx %t.trilu_lower_k.onnx | FileCheck %s --check-prefix=TRILU-LOWER-K
// TRILU-LOWER-K-LABEL: func.func @trilu_lower_k(
// TRILU-LOWER-K-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x3xi32> {onnx.name = "x"}) -> (tensor<4x3xi32> {onnx.name = "y"}) {
// TRILU-LOWER-K-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false], [true, true, true]]> : tensor<4x3xi1>
// TRILU-LOWER-K-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<0> : tensor<i32>
// TRILU-LOWER-K-NEXT: %[[V0:[^ ,:)]+]] = ge.where %[[CST]], %[[ARG0]], %[[CST_0]] : (tensor<4x3xi1>, tensor<4x3xi32>, tensor<i32>) -> tensor<4x3xi32>
// TRILU-LOWER-K-NEXT: return %[[V0]] : tensor<4x3xi32>
// TRILU-LOWER-K-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py trilu_bool %t.trilu_bool.onnx && ge-import-onnx %t.trilu_bool.onnx | FileCheck %s --check-prefix=TRILU-BOOL
// TRILU-BOOL-LABEL: func.func @trilu_bool(
// TRILU-BOOL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x3xi1> {onnx.name = "x"}) -> (tensor<3x3xi1> {onnx.name = "y"}) {
// TRILU-BOOL-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}true, true, true], [false, true, true], [false, false, true]]> : tensor<3x3xi1>
// TRILU-BOOL-NEXT: %[[CST_0:[^ ,:)]+]] = ge.constant dense<false> : tensor<i1>
// TRILU-BOOL-NEXT: %[[V0:[^ ,:)]+]] = ge.where %[[CST]], %[[ARG0]], %[[CST_0]] : (tensor<3x3xi1>, tensor<3x3xi1>, tensor<i1>) -> tensor<3x3xi1>
// TRILU-BOOL-NEXT: return %[[V0]] : tensor<3x3xi1>
// TRILU-BOOL-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py eye_like %t.eye_like.onnx && ge-import-onnx %t.eye_like.onnx | FileCheck %s --check-prefix=EYE-LIKE
// EYE-LIKE-LABEL: func.func @eye_like(
// EYE-LIKE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x4xf32> {onnx.name = "y"}) {
// EYE-LIKE-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<3x4xf32>
// EYE-LIKE-NEXT: return %[[CST]] : tensor<3x4xf32>
// EYE-LIKE-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py eye_like_dtype %t.eye_like_dtype.onnx && ge-import-onnx %t.eye_like_dtype.onnx | FileCheck %s --check-prefix=EYE-LIKE-DTYPE
// EYE-LIKE-DTYPE-LABEL: func.func @eye_like_dtype(
// EYE-LIKE-DTYPE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x4xf32> {onnx.name = "x"}) -> (tensor<4x4xi32> {onnx.name = "y"}) {
// EYE-LIKE-DTYPE-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]> : tensor<4x4xi32>
// EYE-LIKE-DTYPE-NEXT: return %[[CST]] : tensor<4x4xi32>
// EYE-LIKE-DTYPE-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py eye_like_dynamic %t.eye_like_dynamic.onnx && not ge-import-onnx %t.eye_like_dynamic.onnx 2>&1 | FileCheck %s --check-prefix=EYE-LIKE-DYNAMIC
// EYE-LIKE-DYNAMIC: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EYE-LIKE-DYNAMIC-NEXT: EyeLike node 'eye_like_dynamic': EyeLike needs a static input shape, got tensor<?x4xf32>

// ===--- Compress with a constant condition is a gather; data-dependent shapes and ops without a ge op are refused.

// RUN: %python %S/Inputs/tensor_models.py compress_const %t.compress_const.onnx && ge-import-onnx %t.compress_const.onnx | FileCheck %s --check-prefix=COMPRESS-CONST
// COMPRESS-CONST-LABEL: func.func @compress_const(
// COMPRESS-CONST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x3xf32> {onnx.name = "y"}) {
// COMPRESS-CONST-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<[0, 2, 3]> : tensor<3xi64>
// COMPRESS-CONST-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[ARG0]], %[[CST]] {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x3xf32>
// COMPRESS-CONST-NEXT: return %[[V0]] : tensor<3x3xf32>
// COMPRESS-CONST-NEXT: }

// RUN: %python %S/Inputs/tensor_models.py compress_flat %t.compress_flat.onnx && ge-import-onnx %t.compress_flat.onnx | FileCheck %s --check-prefix=COMPRESS-FLAT
// COMPRESS-FLAT-LABEL: func.func @compress_flat(
// COMPRESS-FLAT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
// COMPRESS-FLAT-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3xf32> to tensor<6xf32>
// COMPRESS-FLAT-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<[1, 4]> : tensor<2xi64>
// COMPRESS-FLAT-NEXT: %[[V1:[^ ,:)]+]] = ge.gather %[[V0]], %[[CST]] : (tensor<6xf32>, tensor<2xi64>) -> tensor<2xf32>
// COMPRESS-FLAT-NEXT: return %[[V1]] : tensor<2xf32>
// COMPRESS-FLAT-NEXT: }

// A run-time condition: the positions of its true entries computed at run time (? rows).
// RUN: %python %S/Inputs/tensor_models.py compress_runtime %t.compress_runtime.onnx && ge-import-onnx %t.compress_runtime.onnx | FileCheck %s --check-prefix=COMPRESS-RUNTIME
// COMPRESS-RUNTIME-LABEL: func.func @compress_runtime(%arg0: tensor<3x4xf32> {onnx.name = "x"}, %arg1: tensor<3xi1> {onnx.name = "c"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
// COMPRESS-RUNTIME: ge.cumsum %{{.*}} {axis = 0 : i64} : tensor<3xi64>
// COMPRESS-RUNTIME: ge.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// COMPRESS-RUNTIME: %[[POS:.*]] = ge.reduce_sum %{{.*}} {axes = array<i64: 1>, keepdims = false} : (tensor<?x3xi64>) -> tensor<?xi64>
// COMPRESS-RUNTIME-NEXT: %[[Y:.*]] = ge.gather %arg0, %[[POS]] : (tensor<3x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
// COMPRESS-RUNTIME-NEXT: return %[[Y]] : tensor<?x4xf32>

// NonZero: the flat true positions, then one coordinate row per dim (pos / stride mod size).
// RUN: %python %S/Inputs/tensor_models.py nonzero %t.nonzero.onnx && ge-import-onnx %t.nonzero.onnx | FileCheck %s --check-prefix=NONZERO
// NONZERO-LABEL: func.func @nonzero(%arg0: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<2x?xi64> {onnx.name = "y"}) {
// NONZERO: ge.mod %{{.*}}, %{{.*}} : (tensor<?xi64>, tensor<i64>) -> tensor<?xi64>
// NONZERO: %[[Y:.*]] = ge.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<1x?xi64>, tensor<1x?xi64>) -> tensor<2x?xi64>
// NONZERO-NEXT: return %[[Y]] : tensor<2x?xi64>

// RUN: %python %S/Inputs/tensor_models.py nonzero_const %t.nonzero_const.onnx && ge-import-onnx %t.nonzero_const.onnx | FileCheck %s --check-prefix=NONZERO-CONST
// NONZERO-CONST-LABEL: func.func @nonzero_const(
// NONZERO-CONST-SAME: ) -> (tensor<2x3xi64> {onnx.name = "y"}) {
// NONZERO-CONST-NEXT: %[[CST:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0, 0, 1], [0, 2, 1]]> : tensor<2x3xi64>
// NONZERO-CONST-NEXT: return %[[CST]] : tensor<2x3xi64>
// NONZERO-CONST-NEXT: }

// Unique: a stable ascending sort (top_k), group starts where a sorted value differs from the one
// before, their positions from a running count; the sizes are run-time values.
// RUN: %python %S/Inputs/tensor_models.py unique %t.unique.onnx && ge-import-onnx %t.unique.onnx | FileCheck %s --check-prefix=UNIQUE
// UNIQUE-LABEL: func.func @unique(%arg0: tensor<6xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}, tensor<?xi64> {onnx.name = "idx"}, tensor<6xi64> {onnx.name = "inv"}, tensor<?xi64> {onnx.name = "cnt"}) {
// UNIQUE: %{{.*}}, %[[ORDER:.*]] = ge.top_k %{{.*}} {axis = 0 : i64, k = 6 : i64, largest = false} : (tensor<6xf32>) -> (tensor<6xf32>, tensor<6xi64>)
// UNIQUE: %[[NE:.*]] = ge.not %{{.*}} : tensor<6x1xi1>
// UNIQUE: ge.cumsum %{{.*}} {axis = 0 : i64} : tensor<6xi64>
// UNIQUE: %[[FIRST:.*]] = ge.reduce_sum %{{.*}} {axes = array<i64: 1>, keepdims = false} : (tensor<?x6xi64>) -> tensor<?xi64>
// UNIQUE: %[[Y:.*]] = ge.gather %{{.*}}, %[[FIRST]] : (tensor<6x1xf32>, tensor<?xi64>) -> tensor<?x1xf32>
// UNIQUE-NEXT: %[[YF:.*]] = ge.reshape %[[Y]] : tensor<?x1xf32> to tensor<?xf32>
// UNIQUE-NEXT: %[[IDX:.*]] = ge.gather %{{.*}}, %[[FIRST]] : (tensor<6xi64>, tensor<?xi64>) -> tensor<?xi64>
// UNIQUE-NEXT: return %[[YF]], %[[IDX]], %{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>

// GatherND: the index tuples made linear (a component out of range pushes the position past the
// axis: the gather's bounds check fails the call), then one ge.gather on the flattened data.
// RUN: %python %S/Inputs/tensor_models.py gather_nd %t.gather_nd.onnx && ge-import-onnx %t.gather_nd.onnx | FileCheck %s --check-prefix=GATHER-ND
// GATHER-ND-LABEL: func.func @gather_nd(%arg0: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
// GATHER-ND-NEXT: %[[FLAT:.*]] = ge.reshape %arg0 : tensor<3x4xf32> to tensor<12xf32>
// GATHER-ND: %[[STRIDES:.*]] = ge.constant dense<{{\[\[}}4, 1]]> : tensor<1x2xi64>
// GATHER-ND: %[[LIN:.*]] = ge.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2xi1>, tensor<i64>, tensor<2xi64>) -> tensor<2xi64>
// GATHER-ND-NEXT: %[[Y:.*]] = ge.gather %[[FLAT]], %[[LIN]] : (tensor<12xf32>, tensor<2xi64>) -> tensor<2xf32>
// GATHER-ND-NEXT: return %[[Y]] : tensor<2xf32>

// ScatterND: the same linear positions, one ge.scatter_elements on the flattened data.
// RUN: %python %S/Inputs/tensor_models.py scatter_nd %t.scatter_nd.onnx && ge-import-onnx %t.scatter_nd.onnx | FileCheck %s --check-prefix=SCATTER-ND
// SCATTER-ND-LABEL: func.func @scatter_nd(%arg0: tensor<3x4xf32> {onnx.name = "x"}, %arg1: tensor<2xf32> {onnx.name = "u"}) -> (tensor<3x4xf32> {onnx.name = "y"}) {
// SCATTER-ND-NEXT: %[[FLAT:.*]] = ge.reshape %arg0 : tensor<3x4xf32> to tensor<12xf32>
// SCATTER-ND: %[[LIN:.*]] = ge.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2xi1>, tensor<i64>, tensor<2xi64>) -> tensor<2xi64>
// SCATTER-ND-NEXT: %[[S:.*]] = ge.scatter_elements %[[FLAT]], %[[LIN]], %arg1 : (tensor<12xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<12xf32>
// SCATTER-ND-NEXT: %[[Y:.*]] = ge.reshape %[[S]] : tensor<12xf32> to tensor<3x4xf32>
// SCATTER-ND-NEXT: return %[[Y]] : tensor<3x4xf32>
