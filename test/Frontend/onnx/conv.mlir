// Lit tests of the ONNX importer's convolution converters (Conv, ConvTranspose) (ge_mlir/frontend/onnx/ops/conv.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

//===--------------------------------------------------------------------------===//
// Conv: 2-D directly, auto_pad resolved to explicit pads, 1-D through [N, C, 1, W], 3-D refused
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py conv_bias %t.conv_bias.onnx && ge-import-onnx %t.conv_bias.onnx | FileCheck %s --check-prefix=CONV-BIAS
// CONV-BIAS-LABEL: func.func @conv_bias(
// CONV-BIAS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x8x8xf32> {onnx.name = "x"}) -> (tensor<1x4x4x4xf32> {onnx.name = "y"})
// CONV-BIAS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense_resource<w> : tensor<4x3x3x3xf32>
// CONV-BIAS-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<4xf32>
// CONV-BIAS-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[C0]], %[[C1]] {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
// CONV-BIAS-NEXT: return %[[V0]] : tensor<1x4x4x4xf32>

// RUN: %python %S/Inputs/nn_models.py conv_group_dilation %t.conv_group_dilation.onnx && ge-import-onnx %t.conv_group_dilation.onnx | FileCheck %s --check-prefix=CONV-GROUP-DILATION
// CONV-GROUP-DILATION-LABEL: func.func @conv_group_dilation(
// CONV-GROUP-DILATION-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x4x9x9xf32> {onnx.name = "x"}) -> (tensor<2x6x7x7xf32> {onnx.name = "y"})
// CONV-GROUP-DILATION-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense_resource<w> : tensor<6x2x3x3xf32>
// CONV-GROUP-DILATION-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[C0]] {dilations = array<i64: 2, 2>, groups = 2 : i64, pads = array<i64: 0, 1, 2, 1>} : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x7x7xf32>
// CONV-GROUP-DILATION-NEXT: return %[[V0]] : tensor<2x6x7x7xf32>

// SAME_UPPER: out = ceil(in / stride); the odd padding element goes to the end (H 7: 1+1, W 8: 0+1).
// RUN: %python %S/Inputs/nn_models.py conv_same_upper %t.conv_same_upper.onnx && ge-import-onnx %t.conv_same_upper.onnx | FileCheck %s --check-prefix=CONV-SAME-UPPER
// CONV-SAME-UPPER-LABEL: func.func @conv_same_upper(
// CONV-SAME-UPPER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x7x8xf32> {onnx.name = "x"}) -> (tensor<1x3x4x4xf32> {onnx.name = "y"})
// CONV-SAME-UPPER-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x2x3x3xf32>
// CONV-SAME-UPPER-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[C0]] {pads = array<i64: 1, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x7x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
// CONV-SAME-UPPER-NEXT: return %[[V0]] : tensor<1x3x4x4xf32>

// SAME_LOWER: the odd padding element goes to the beginning (total 3 -> 2 + 1).
// RUN: %python %S/Inputs/nn_models.py conv_same_lower %t.conv_same_lower.onnx && ge-import-onnx %t.conv_same_lower.onnx | FileCheck %s --check-prefix=CONV-SAME-LOWER
// CONV-SAME-LOWER-LABEL: func.func @conv_same_lower(
// CONV-SAME-LOWER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x6x6xf32> {onnx.name = "x"}) -> (tensor<1x2x6x6xf32> {onnx.name = "y"})
// CONV-SAME-LOWER-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2x2x4x4xf32>
// CONV-SAME-LOWER-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[C0]] {pads = array<i64: 2, 2, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x4x4xf32>) -> tensor<1x2x6x6xf32>
// CONV-SAME-LOWER-NEXT: return %[[V0]] : tensor<1x2x6x6xf32>

// RUN: %python %S/Inputs/nn_models.py conv_valid %t.conv_valid.onnx && ge-import-onnx %t.conv_valid.onnx | FileCheck %s --check-prefix=CONV-VALID
// CONV-VALID-LABEL: func.func @conv_valid(
// CONV-VALID-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x6x5xf32> {onnx.name = "x"}) -> (tensor<1x2x4x4xf32> {onnx.name = "y"})
// CONV-VALID-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2x2x3x2xf32>
// CONV-VALID-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[C0]] : (tensor<1x2x6x5xf32>, tensor<2x2x3x2xf32>) -> tensor<1x2x4x4xf32>
// CONV-VALID-NEXT: return %[[V0]] : tensor<1x2x4x4xf32>

// RUN: %python %S/Inputs/nn_models.py conv_weight_input %t.conv_weight_input.onnx && ge-import-onnx %t.conv_weight_input.onnx | FileCheck %s --check-prefix=CONV-WEIGHT-INPUT
// CONV-WEIGHT-INPUT-LABEL: func.func @conv_weight_input(
// CONV-WEIGHT-INPUT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x5x5xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<3x2x3x3xf32> {onnx.name = "w"}) -> (tensor<1x3x5x5xf32> {onnx.name = "y"})
// CONV-WEIGHT-INPUT-NEXT: %[[V0:[^ ,:)]+]] = ge.conv2d %[[ARG0]], %[[ARG1]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
// CONV-WEIGHT-INPUT-NEXT: return %[[V0]] : tensor<1x3x5x5xf32>

// 1-D: [N, C, W] runs as [N, C, 1, W]; strides/pads/dilations get a leading unit H entry.
// RUN: %python %S/Inputs/nn_models.py conv1d %t.conv1d.onnx && ge-import-onnx %t.conv1d.onnx | FileCheck %s --check-prefix=CONV1D
// CONV1D-LABEL: func.func @conv1d(
// CONV1D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x10xf32> {onnx.name = "x"}) -> (tensor<1x3x5xf32> {onnx.name = "y"})
// CONV1D-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x2x3xf32>
// CONV1D-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// CONV1D-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 2>} : (tensor<1x2x10xf32>) -> tensor<1x2x1x10xf32>
// CONV1D-NEXT: %[[V1:[^ ,:)]+]] = ge.unsqueeze %[[C0]] {axes = array<i64: 2>} : (tensor<3x2x3xf32>) -> tensor<3x2x1x3xf32>
// CONV1D-NEXT: %[[V2:[^ ,:)]+]] = ge.conv2d %[[V0]], %[[V1]], %[[C1]] {pads = array<i64: 0, 1, 0, 0>, strides = array<i64: 1, 2>} : (tensor<1x2x1x10xf32>, tensor<3x2x1x3xf32>, tensor<3xf32>) -> tensor<1x3x1x5xf32>
// CONV1D-NEXT: %[[V3:[^ ,:)]+]] = ge.squeeze %[[V2]] {axes = array<i64: 2>} : (tensor<1x3x1x5xf32>) -> tensor<1x3x5xf32>
// CONV1D-NEXT: return %[[V3]] : tensor<1x3x5xf32>

// RUN: %python %S/Inputs/nn_models.py conv1d_same_upper %t.conv1d_same_upper.onnx && ge-import-onnx %t.conv1d_same_upper.onnx | FileCheck %s --check-prefix=CONV1D-SAME-UPPER
// CONV1D-SAME-UPPER-LABEL: func.func @conv1d_same_upper(
// CONV1D-SAME-UPPER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x9xf32> {onnx.name = "x"}) -> (tensor<1x4x5xf32> {onnx.name = "y"})
// CONV1D-SAME-UPPER-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<4x1x4xf32>
// CONV1D-SAME-UPPER-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x1x9xf32>
// CONV1D-SAME-UPPER-NEXT: %[[V1:[^ ,:)]+]] = ge.unsqueeze %[[C0]] {axes = array<i64: 2>} : (tensor<4x1x4xf32>) -> tensor<4x1x1x4xf32>
// CONV1D-SAME-UPPER-NEXT: %[[V2:[^ ,:)]+]] = ge.conv2d %[[V0]], %[[V1]] {groups = 2 : i64, pads = array<i64: 0, 1, 0, 2>, strides = array<i64: 1, 2>} : (tensor<1x2x1x9xf32>, tensor<4x1x1x4xf32>) -> tensor<1x4x1x5xf32>
// CONV1D-SAME-UPPER-NEXT: %[[V3:[^ ,:)]+]] = ge.squeeze %[[V2]] {axes = array<i64: 2>} : (tensor<1x4x1x5xf32>) -> tensor<1x4x5xf32>
// CONV1D-SAME-UPPER-NEXT: return %[[V3]] : tensor<1x4x5xf32>

// RUN: %python %S/Inputs/nn_models.py conv3d %t.conv3d.onnx && not ge-import-onnx %t.conv3d.onnx 2>&1 | FileCheck %s --check-prefix=CONV3D
// CONV3D: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// CONV3D-NEXT: Conv node 'conv0': 3-D convolution (5-D input) is not supported: ge has 2-D convolution ops only

// RUN: %python %S/Inputs/nn_models.py conv_same_dynamic %t.conv_same_dynamic.onnx && not ge-import-onnx %t.conv_same_dynamic.onnx 2>&1 | FileCheck %s --check-prefix=CONV-SAME-DYNAMIC
// CONV-SAME-DYNAMIC: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// CONV-SAME-DYNAMIC-NEXT: Conv node 'conv0': auto_pad=SAME_UPPER needs static spatial input dimensions, got [-1, -1] (fix them with input_shapes=... / --input-shape)

//===--------------------------------------------------------------------------===//
// ConvTranspose: output_shape and SAME_* give pads (SAME_UPPER: odd element at the end)
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py convtranspose_pads %t.convtranspose_pads.onnx && ge-import-onnx %t.convtranspose_pads.onnx | FileCheck %s --check-prefix=CONVTRANSPOSE-PADS
// CONVTRANSPOSE-PADS-LABEL: func.func @convtranspose_pads(
// CONVTRANSPOSE-PADS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x5x5xf32> {onnx.name = "x"}) -> (tensor<1x2x10x10xf32> {onnx.name = "y"})
// CONVTRANSPOSE-PADS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x2x3x3xf32>
// CONVTRANSPOSE-PADS-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2xf32>
// CONVTRANSPOSE-PADS-NEXT: %[[V0:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG0]], %[[C0]], %[[C1]] {output_padding = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x10x10xf32>
// CONVTRANSPOSE-PADS-NEXT: return %[[V0]] : tensor<1x2x10x10xf32>

// output_shape [8, 9]: total padding 1 (H) and 2 (W); without SAME_UPPER the odd element goes to the start.
// RUN: %python %S/Inputs/nn_models.py convtranspose_output_shape %t.convtranspose_output_shape.onnx && ge-import-onnx %t.convtranspose_output_shape.onnx | FileCheck %s --check-prefix=CONVTRANSPOSE-OUTPUT-SHAPE
// CONVTRANSPOSE-OUTPUT-SHAPE-LABEL: func.func @convtranspose_output_shape(
// CONVTRANSPOSE-OUTPUT-SHAPE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x4x5xf32> {onnx.name = "x"}) -> (tensor<1x3x8x9xf32> {onnx.name = "y"})
// CONVTRANSPOSE-OUTPUT-SHAPE-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2x3x3x3xf32>
// CONVTRANSPOSE-OUTPUT-SHAPE-NEXT: %[[V0:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG0]], %[[C0]] {pads = array<i64: 1, 1, 0, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x4x5xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x8x9xf32>
// CONVTRANSPOSE-OUTPUT-SHAPE-NEXT: return %[[V0]] : tensor<1x3x8x9xf32>

// output_shape larger than the natural output would need negative pads (onnxruntime rejects it too).
// RUN: %python %S/Inputs/nn_models.py convtranspose_output_shape_larger %t.convtranspose_output_shape_larger.onnx && not ge-import-onnx %t.convtranspose_output_shape_larger.onnx 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE-OUTPUT-SHAPE-LARGER
// CONVTRANSPOSE-OUTPUT-SHAPE-LARGER: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// CONVTRANSPOSE-OUTPUT-SHAPE-LARGER-NEXT: ConvTranspose node 'convtranspose0': output_shape [7, 8] is larger than the transposed convolution produces along spatial dim 0 (it would need -1 padding)

// RUN: %python %S/Inputs/nn_models.py convtranspose_same_upper %t.convtranspose_same_upper.onnx && ge-import-onnx %t.convtranspose_same_upper.onnx | FileCheck %s --check-prefix=CONVTRANSPOSE-SAME-UPPER
// CONVTRANSPOSE-SAME-UPPER-LABEL: func.func @convtranspose_same_upper(
// CONVTRANSPOSE-SAME-UPPER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x2x6x8xf32> {onnx.name = "y"})
// CONVTRANSPOSE-SAME-UPPER-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2x2x3x3xf32>
// CONVTRANSPOSE-SAME-UPPER-NEXT: %[[V0:[^ ,:)]+]] = ge.conv_transpose2d %[[ARG0]], %[[C0]] {pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x3x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x8xf32>
// CONVTRANSPOSE-SAME-UPPER-NEXT: return %[[V0]] : tensor<1x2x6x8xf32>

// RUN: %python %S/Inputs/nn_models.py convtranspose1d_group %t.convtranspose1d_group.onnx && ge-import-onnx %t.convtranspose1d_group.onnx | FileCheck %s --check-prefix=CONVTRANSPOSE1D-GROUP
// CONVTRANSPOSE1D-GROUP-LABEL: func.func @convtranspose1d_group(
// CONVTRANSPOSE1D-GROUP-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x4x6xf32> {onnx.name = "x"}) -> (tensor<1x6x17xf32> {onnx.name = "y"})
// CONVTRANSPOSE1D-GROUP-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<4x3x3xf32>
// CONVTRANSPOSE1D-GROUP-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<6xf32>
// CONVTRANSPOSE1D-GROUP-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 2>} : (tensor<1x4x6xf32>) -> tensor<1x4x1x6xf32>
// CONVTRANSPOSE1D-GROUP-NEXT: %[[V1:[^ ,:)]+]] = ge.unsqueeze %[[C0]] {axes = array<i64: 2>} : (tensor<4x3x3xf32>) -> tensor<4x3x1x3xf32>
// CONVTRANSPOSE1D-GROUP-NEXT: %[[V2:[^ ,:)]+]] = ge.conv_transpose2d %[[V0]], %[[V1]], %[[C1]] {dilations = array<i64: 1, 2>, groups = 2 : i64, pads = array<i64: 0, 1, 0, 2>, strides = array<i64: 1, 3>} : (tensor<1x4x1x6xf32>, tensor<4x3x1x3xf32>, tensor<6xf32>) -> tensor<1x6x1x17xf32>
// CONVTRANSPOSE1D-GROUP-NEXT: %[[V3:[^ ,:)]+]] = ge.squeeze %[[V2]] {axes = array<i64: 2>} : (tensor<1x6x1x17xf32>) -> tensor<1x6x17xf32>
// CONVTRANSPOSE1D-GROUP-NEXT: return %[[V3]] : tensor<1x6x17xf32>

// RUN: %python %S/Inputs/nn_models.py convtranspose3d %t.convtranspose3d.onnx && not ge-import-onnx %t.convtranspose3d.onnx 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE3D
// CONVTRANSPOSE3D: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// CONVTRANSPOSE3D-NEXT: ConvTranspose node 'convtranspose0': 3-D transposed convolution (5-D input) is not supported: ge has 2-D transposed convolution ops only
