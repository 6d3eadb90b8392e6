// Lit tests of the ONNX importer's nn converters (ge_mlir/frontend/onnx/ops/nn.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (its opset is
// given there, next to the model) and imports it with ge-import-onnx; the
// checks pin the emitted ge ops, their attributes and result types. Models the
// importer must refuse are imported with `not` and their error is checked.
// test/python/frontend/test_onnx_nn.py imports the same models in-process and
// compares the result types with onnxruntime's.

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

//===--------------------------------------------------------------------------===//
// MaxPool / AveragePool: 2-D and 1-D; ceil_mode drops windows starting in the end padding
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py maxpool_2d %t.maxpool_2d.onnx && ge-import-onnx %t.maxpool_2d.onnx | FileCheck %s --check-prefix=MAXPOOL-2D
// MAXPOOL-2D-LABEL: func.func @maxpool_2d(
// MAXPOOL-2D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x9x9xf32> {onnx.name = "x"}) -> (tensor<1x3x5x5xf32> {onnx.name = "y"})
// MAXPOOL-2D-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
// MAXPOOL-2D-NEXT: return %[[V0]] : tensor<1x3x5x5xf32>

// RUN: %python %S/Inputs/nn_models.py maxpool_ceil_dilation %t.maxpool_ceil_dilation.onnx && ge-import-onnx %t.maxpool_ceil_dilation.onnx | FileCheck %s --check-prefix=MAXPOOL-CEIL-DILATION
// MAXPOOL-CEIL-DILATION-LABEL: func.func @maxpool_ceil_dilation(
// MAXPOOL-CEIL-DILATION-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x10x10xf32> {onnx.name = "x"}) -> (tensor<1x2x4x4xf32> {onnx.name = "y"})
// MAXPOOL-CEIL-DILATION-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {ceil_mode = true, dilations = array<i64: 2, 2>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 3, 3>} : (tensor<1x2x10x10xf32>) -> tensor<1x2x4x4xf32>
// MAXPOOL-CEIL-DILATION-NEXT: return %[[V0]] : tensor<1x2x4x4xf32>

// ceil_mode: the window that would start in the end padding is dropped (2x2; ONNX shape inference says 3x3).
// RUN: %python %S/Inputs/nn_models.py maxpool_ceil_pad_end %t.maxpool_ceil_pad_end.onnx && ge-import-onnx %t.maxpool_ceil_pad_end.onnx | FileCheck %s --check-prefix=MAXPOOL-CEIL-PAD-END
// MAXPOOL-CEIL-PAD-END-LABEL: func.func @maxpool_ceil_pad_end(
// MAXPOOL-CEIL-PAD-END-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x4x4xf32> {onnx.name = "x"}) -> (tensor<1x1x2x2xf32> {onnx.name = "y"})
// MAXPOOL-CEIL-PAD-END-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {ceil_mode = true, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
// MAXPOOL-CEIL-PAD-END-NEXT: return %[[V0]] : tensor<1x1x2x2xf32>

// VALID + ceil_mode: the ONNX spec gives 1x3, onnxruntime 2x4; refused rather than guessed.
// RUN: %python %S/Inputs/nn_models.py maxpool_valid_ceil %t.maxpool_valid_ceil.onnx && not ge-import-onnx %t.maxpool_valid_ceil.onnx 2>&1 | FileCheck %s --check-prefix=MAXPOOL-VALID-CEIL
// MAXPOOL-VALID-CEIL: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// MAXPOOL-VALID-CEIL-NEXT: MaxPool node 'maxpool0': auto_pad=VALID with ceil_mode=1: the ONNX spec (full windows only) and onnxruntime (a partial last window) give different output sizes here; re-export with explicit pads

// RUN: %python %S/Inputs/nn_models.py maxpool_same_upper %t.maxpool_same_upper.onnx && ge-import-onnx %t.maxpool_same_upper.onnx | FileCheck %s --check-prefix=MAXPOOL-SAME-UPPER
// MAXPOOL-SAME-UPPER-LABEL: func.func @maxpool_same_upper(
// MAXPOOL-SAME-UPPER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x7x7xf32> {onnx.name = "x"}) -> (tensor<1x2x4x4xf32> {onnx.name = "y"})
// MAXPOOL-SAME-UPPER-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {kernel_shape = array<i64: 2, 3>, pads = array<i64: 0, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
// MAXPOOL-SAME-UPPER-NEXT: return %[[V0]] : tensor<1x2x4x4xf32>

// RUN: %python %S/Inputs/nn_models.py maxpool_1d %t.maxpool_1d.onnx && ge-import-onnx %t.maxpool_1d.onnx | FileCheck %s --check-prefix=MAXPOOL-1D
// MAXPOOL-1D-LABEL: func.func @maxpool_1d(
// MAXPOOL-1D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x11xf32> {onnx.name = "x"}) -> (tensor<2x3x6xf32> {onnx.name = "y"})
// MAXPOOL-1D-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 2>} : (tensor<2x3x11xf32>) -> tensor<2x3x1x11xf32>
// MAXPOOL-1D-NEXT: %[[V1:[^ ,:)]+]] = ge.max_pool2d %[[V0]] {kernel_shape = array<i64: 1, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 1, 2>} : (tensor<2x3x1x11xf32>) -> tensor<2x3x1x6xf32>
// MAXPOOL-1D-NEXT: %[[V2:[^ ,:)]+]] = ge.squeeze %[[V1]] {axes = array<i64: 2>} : (tensor<2x3x1x6xf32>) -> tensor<2x3x6xf32>
// MAXPOOL-1D-NEXT: return %[[V2]] : tensor<2x3x6xf32>

// RUN: %python %S/Inputs/nn_models.py maxpool_int8 %t.maxpool_int8.onnx && ge-import-onnx %t.maxpool_int8.onnx | FileCheck %s --check-prefix=MAXPOOL-INT8
// MAXPOOL-INT8-LABEL: func.func @maxpool_int8(
// MAXPOOL-INT8-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x6x6xi8> {onnx.name = "x"}) -> (tensor<1x2x3x3xi8> {onnx.name = "y"})
// MAXPOOL-INT8-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x6x6xi8>) -> tensor<1x2x3x3xi8>
// MAXPOOL-INT8-NEXT: return %[[V0]] : tensor<1x2x3x3xi8>

// An Indices output that nothing reads is fine.
// RUN: %python %S/Inputs/nn_models.py maxpool_indices_unused %t.maxpool_indices_unused.onnx && ge-import-onnx %t.maxpool_indices_unused.onnx | FileCheck %s --check-prefix=MAXPOOL-INDICES-UNUSED
// MAXPOOL-INDICES-UNUSED-LABEL: func.func @maxpool_indices_unused(
// MAXPOOL-INDICES-UNUSED-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x4x4xf32> {onnx.name = "x"}) -> (tensor<1x2x3x3xf32> {onnx.name = "y"})
// MAXPOOL-INDICES-UNUSED-NEXT: %[[V0:[^ ,:)]+]] = ge.max_pool2d %[[ARG0]] {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
// MAXPOOL-INDICES-UNUSED-NEXT: return %[[V0]] : tensor<1x2x3x3xf32>

// RUN: %python %S/Inputs/nn_models.py maxpool_indices %t.maxpool_indices.onnx && not ge-import-onnx %t.maxpool_indices.onnx 2>&1 | FileCheck %s --check-prefix=MAXPOOL-INDICES
// MAXPOOL-INDICES: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// MAXPOOL-INDICES-NEXT: MaxPool node 'maxpool0': the Indices output (argmax positions) is used; ge.max_pool2d computes only the values

// RUN: %python %S/Inputs/nn_models.py maxpool_indices_consumed %t.maxpool_indices_consumed.onnx && not ge-import-onnx %t.maxpool_indices_consumed.onnx 2>&1 | FileCheck %s --check-prefix=MAXPOOL-INDICES-CONSUMED
// MAXPOOL-INDICES-CONSUMED: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// MAXPOOL-INDICES-CONSUMED-NEXT: MaxPool node 'maxpool0': the Indices output (argmax positions) is used; ge.max_pool2d computes only the values

// 3-D max pooling: over (H, W) with D folded into the channels, then over D with H*W as one dim.
// RUN: %python %S/Inputs/nn_models.py maxpool3d %t.maxpool3d.onnx && ge-import-onnx %t.maxpool3d.onnx | FileCheck %s --check-prefix=MAXPOOL3D
// MAXPOOL3D-LABEL: func.func @maxpool3d(%arg0: tensor<1x2x4x4x4xf32> {onnx.name = "x"}) -> (tensor<1x2x3x3x3xf32> {onnx.name = "y"}) {
// MAXPOOL3D-NEXT: %[[A:.*]] = ge.reshape %arg0 : tensor<1x2x4x4x4xf32> to tensor<1x8x4x4xf32>
// MAXPOOL3D-NEXT: %[[B:.*]] = ge.max_pool2d %[[A]] {kernel_shape = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>) -> tensor<1x8x3x3xf32>
// MAXPOOL3D-NEXT: %[[C:.*]] = ge.reshape %[[B]] : tensor<1x8x3x3xf32> to tensor<1x2x4x9xf32>
// MAXPOOL3D-NEXT: %[[D:.*]] = ge.max_pool2d %[[C]] {kernel_shape = array<i64: 2, 1>} : (tensor<1x2x4x9xf32>) -> tensor<1x2x3x9xf32>
// MAXPOOL3D-NEXT: %[[Y:.*]] = ge.reshape %[[D]] : tensor<1x2x3x9xf32> to tensor<1x2x3x3x3xf32>
// MAXPOOL3D-NEXT: return %[[Y]] : tensor<1x2x3x3x3xf32>

// RUN: %python %S/Inputs/nn_models.py avgpool_count_include_pad %t.avgpool_count_include_pad.onnx && ge-import-onnx %t.avgpool_count_include_pad.onnx | FileCheck %s --check-prefix=AVGPOOL-COUNT-INCLUDE-PAD
// AVGPOOL-COUNT-INCLUDE-PAD-LABEL: func.func @avgpool_count_include_pad(
// AVGPOOL-COUNT-INCLUDE-PAD-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x8x8xf32> {onnx.name = "x"}) -> (tensor<1x3x4x4xf32> {onnx.name = "y"})
// AVGPOOL-COUNT-INCLUDE-PAD-NEXT: %[[V0:[^ ,:)]+]] = ge.avg_pool2d %[[ARG0]] {count_include_pad = true, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
// AVGPOOL-COUNT-INCLUDE-PAD-NEXT: return %[[V0]] : tensor<1x3x4x4xf32>

// RUN: %python %S/Inputs/nn_models.py avgpool_ceil_dilation %t.avgpool_ceil_dilation.onnx && ge-import-onnx %t.avgpool_ceil_dilation.onnx | FileCheck %s --check-prefix=AVGPOOL-CEIL-DILATION
// AVGPOOL-CEIL-DILATION-LABEL: func.func @avgpool_ceil_dilation(
// AVGPOOL-CEIL-DILATION-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x9x10xf32> {onnx.name = "x"}) -> (tensor<1x2x5x4xf32> {onnx.name = "y"})
// AVGPOOL-CEIL-DILATION-NEXT: %[[V0:[^ ,:)]+]] = ge.avg_pool2d %[[ARG0]] {ceil_mode = true, dilations = array<i64: 1, 2>, kernel_shape = array<i64: 2, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x9x10xf32>) -> tensor<1x2x5x4xf32>
// AVGPOOL-CEIL-DILATION-NEXT: return %[[V0]] : tensor<1x2x5x4xf32>

// RUN: %python %S/Inputs/nn_models.py avgpool_same_upper_ceil %t.avgpool_same_upper_ceil.onnx && ge-import-onnx %t.avgpool_same_upper_ceil.onnx | FileCheck %s --check-prefix=AVGPOOL-SAME-UPPER-CEIL
// AVGPOOL-SAME-UPPER-CEIL-LABEL: func.func @avgpool_same_upper_ceil(
// AVGPOOL-SAME-UPPER-CEIL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x5x6xf32> {onnx.name = "x"}) -> (tensor<1x1x3x2xf32> {onnx.name = "y"})
// AVGPOOL-SAME-UPPER-CEIL-NEXT: %[[V0:[^ ,:)]+]] = ge.avg_pool2d %[[ARG0]] {ceil_mode = true, kernel_shape = array<i64: 3, 2>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 3>} : (tensor<1x1x5x6xf32>) -> tensor<1x1x3x2xf32>
// AVGPOOL-SAME-UPPER-CEIL-NEXT: return %[[V0]] : tensor<1x1x3x2xf32>

// RUN: %python %S/Inputs/nn_models.py avgpool_1d_same_lower %t.avgpool_1d_same_lower.onnx && ge-import-onnx %t.avgpool_1d_same_lower.onnx | FileCheck %s --check-prefix=AVGPOOL-1D-SAME-LOWER
// AVGPOOL-1D-SAME-LOWER-LABEL: func.func @avgpool_1d_same_lower(
// AVGPOOL-1D-SAME-LOWER-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x8xf32> {onnx.name = "x"}) -> (tensor<1x2x3xf32> {onnx.name = "y"})
// AVGPOOL-1D-SAME-LOWER-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 2>} : (tensor<1x2x8xf32>) -> tensor<1x2x1x8xf32>
// AVGPOOL-1D-SAME-LOWER-NEXT: %[[V1:[^ ,:)]+]] = ge.avg_pool2d %[[V0]] {kernel_shape = array<i64: 1, 4>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 1, 3>} : (tensor<1x2x1x8xf32>) -> tensor<1x2x1x3xf32>
// AVGPOOL-1D-SAME-LOWER-NEXT: %[[V2:[^ ,:)]+]] = ge.squeeze %[[V1]] {axes = array<i64: 2>} : (tensor<1x2x1x3xf32>) -> tensor<1x2x3xf32>
// AVGPOOL-1D-SAME-LOWER-NEXT: return %[[V2]] : tensor<1x2x3xf32>

// RUN: %python %S/Inputs/nn_models.py avgpool_opset7 %t.avgpool_opset7.onnx && ge-import-onnx %t.avgpool_opset7.onnx | FileCheck %s --check-prefix=AVGPOOL-OPSET7
// AVGPOOL-OPSET7-LABEL: func.func @avgpool_opset7(
// AVGPOOL-OPSET7-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x5x5xf32> {onnx.name = "x"}) -> (tensor<1x1x5x5xf32> {onnx.name = "y"})
// AVGPOOL-OPSET7-NEXT: %[[V0:[^ ,:)]+]] = ge.avg_pool2d %[[ARG0]] {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
// AVGPOOL-OPSET7-NEXT: return %[[V0]] : tensor<1x1x5x5xf32>

//===--------------------------------------------------------------------------===//
// GlobalAveragePool / GlobalMaxPool
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py globalavgpool %t.globalavgpool.onnx && ge-import-onnx %t.globalavgpool.onnx | FileCheck %s --check-prefix=GLOBALAVGPOOL
// GLOBALAVGPOOL-LABEL: func.func @globalavgpool(
// GLOBALAVGPOOL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x5x7xf32> {onnx.name = "x"}) -> (tensor<2x3x1x1xf32> {onnx.name = "y"})
// GLOBALAVGPOOL-NEXT: %[[V0:[^ ,:)]+]] = ge.global_avg_pool %[[ARG0]] : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32>
// GLOBALAVGPOOL-NEXT: return %[[V0]] : tensor<2x3x1x1xf32>

// RUN: %python %S/Inputs/nn_models.py globalmaxpool_1d %t.globalmaxpool_1d.onnx && ge-import-onnx %t.globalmaxpool_1d.onnx | FileCheck %s --check-prefix=GLOBALMAXPOOL-1D
// GLOBALMAXPOOL-1D-LABEL: func.func @globalmaxpool_1d(
// GLOBALMAXPOOL-1D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x5xf32> {onnx.name = "x"}) -> (tensor<2x3x1xf32> {onnx.name = "y"})
// GLOBALMAXPOOL-1D-NEXT: %[[V0:[^ ,:)]+]] = ge.global_max_pool %[[ARG0]] : (tensor<2x3x5xf32>) -> tensor<2x3x1xf32>
// GLOBALMAXPOOL-1D-NEXT: return %[[V0]] : tensor<2x3x1xf32>

//===--------------------------------------------------------------------------===//
// BatchNormalization (inference only), InstanceNormalization
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py bn %t.bn.onnx && ge-import-onnx %t.bn.onnx | FileCheck %s --check-prefix=BN
// BN-LABEL: func.func @bn(
// BN-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4x4xf32> {onnx.name = "y"})
// BN-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-NEXT: %[[C3:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-NEXT: %[[V0:[^ ,:)]+]] = ge.batch_norm %[[ARG0]], %[[C0]], %[[C1]], %[[C2]], %[[C3]] {epsilon = 1.000000e-03 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
// BN-NEXT: return %[[V0]] : tensor<2x3x4x4xf32>

// Opset 15: f32 scale/bias/mean/var of an f16 input are converted at import time.
// RUN: %python %S/Inputs/nn_models.py bn_mixed_types %t.bn_mixed_types.onnx && ge-import-onnx %t.bn_mixed_types.onnx | FileCheck %s --check-prefix=BN-MIXED-TYPES
// BN-MIXED-TYPES-LABEL: func.func @bn_mixed_types(
// BN-MIXED-TYPES-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x3xf16> {onnx.name = "x"}) -> (tensor<1x2x3x3xf16> {onnx.name = "y"})
// BN-MIXED-TYPES-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2xf16>
// BN-MIXED-TYPES-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2xf16>
// BN-MIXED-TYPES-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2xf16>
// BN-MIXED-TYPES-NEXT: %[[C3:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2xf16>
// BN-MIXED-TYPES-NEXT: %[[V0:[^ ,:)]+]] = ge.batch_norm %[[ARG0]], %[[C0]], %[[C1]], %[[C2]], %[[C3]] : (tensor<1x2x3x3xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) -> tensor<1x2x3x3xf16>
// BN-MIXED-TYPES-NEXT: return %[[V0]] : tensor<1x2x3x3xf16>

// RUN: %python %S/Inputs/nn_models.py bn_opset9_2d %t.bn_opset9_2d.onnx && ge-import-onnx %t.bn_opset9_2d.onnx | FileCheck %s --check-prefix=BN-OPSET9-2D
// BN-OPSET9-2D-LABEL: func.func @bn_opset9_2d(
// BN-OPSET9-2D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x3xf32> {onnx.name = "x"}) -> (tensor<4x3xf32> {onnx.name = "y"})
// BN-OPSET9-2D-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-OPSET9-2D-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-OPSET9-2D-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-OPSET9-2D-NEXT: %[[C3:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// BN-OPSET9-2D-NEXT: %[[V0:[^ ,:)]+]] = ge.batch_norm %[[ARG0]], %[[C0]], %[[C1]], %[[C2]], %[[C3]] : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// BN-OPSET9-2D-NEXT: return %[[V0]] : tensor<4x3xf32>

// RUN: %python %S/Inputs/nn_models.py bn_train %t.bn_train.onnx && not ge-import-onnx %t.bn_train.onnx 2>&1 | FileCheck %s --check-prefix=BN-TRAIN
// BN-TRAIN: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// BN-TRAIN-NEXT: BatchNormalization node 'batchnormalization0': training_mode=1 normalizes with the batch's own statistics and updates running ones; ge.batch_norm is the inference form (export the model in eval mode)

// RUN: %python %S/Inputs/nn_models.py bn_stats_used %t.bn_stats_used.onnx && not ge-import-onnx %t.bn_stats_used.onnx 2>&1 | FileCheck %s --check-prefix=BN-STATS-USED
// BN-STATS-USED: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// BN-STATS-USED-NEXT: BatchNormalization node 'batchnormalization0': the statistics outputs ('mean') are used; they exist only in training mode and ge.batch_norm is the inference form

// RUN: %python %S/Inputs/nn_models.py bn_opset7_spatial0 %t.bn_opset7_spatial0.onnx && not ge-import-onnx %t.bn_opset7_spatial0.onnx 2>&1 | FileCheck %s --check-prefix=BN-OPSET7-SPATIAL0
// BN-OPSET7-SPATIAL0: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// BN-OPSET7-SPATIAL0-NEXT: BatchNormalization node 'batchnormalization0': spatial=0 (per-activation statistics) has no ge equivalent; ge.batch_norm is per channel

// RUN: %python %S/Inputs/nn_models.py instnorm %t.instnorm.onnx && ge-import-onnx %t.instnorm.onnx | FileCheck %s --check-prefix=INSTNORM
// INSTNORM-LABEL: func.func @instnorm(
// INSTNORM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x5xf32> {onnx.name = "x"}) -> (tensor<2x3x4x5xf32> {onnx.name = "y"})
// INSTNORM-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// INSTNORM-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// INSTNORM-NEXT: %[[V0:[^ ,:)]+]] = ge.instance_norm %[[ARG0]], %[[C0]], %[[C1]] {epsilon = 9.99999974E-5 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
// INSTNORM-NEXT: return %[[V0]] : tensor<2x3x4x5xf32>

// RUN: %python %S/Inputs/nn_models.py instnorm_1d %t.instnorm_1d.onnx && ge-import-onnx %t.instnorm_1d.onnx | FileCheck %s --check-prefix=INSTNORM-1D
// INSTNORM-1D-LABEL: func.func @instnorm_1d(
// INSTNORM-1D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x6xf32> {onnx.name = "x"}) -> (tensor<2x3x6xf32> {onnx.name = "y"})
// INSTNORM-1D-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// INSTNORM-1D-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// INSTNORM-1D-NEXT: %[[V0:[^ ,:)]+]] = ge.instance_norm %[[ARG0]], %[[C0]], %[[C1]] : (tensor<2x3x6xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x6xf32>
// INSTNORM-1D-NEXT: return %[[V0]] : tensor<2x3x6xf32>

//===--------------------------------------------------------------------------===//
// LayerNormalization (stash_type=1 on f16: computed in f32), GroupNormalization (decomposed)
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py layernorm %t.layernorm.onnx && ge-import-onnx %t.layernorm.onnx | FileCheck %s --check-prefix=LAYERNORM
// LAYERNORM-LABEL: func.func @layernorm(
// LAYERNORM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x5x8xf32> {onnx.name = "x"}) -> (tensor<2x5x8xf32> {onnx.name = "y"})
// LAYERNORM-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<8xf32>
// LAYERNORM-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<8xf32>
// LAYERNORM-NEXT: %[[V0:[^ ,:)]+]] = ge.layer_norm %[[ARG0]], %[[C0]], %[[C1]] {epsilon = 9.99999997E-7 : f32} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
// LAYERNORM-NEXT: return %[[V0]] : tensor<2x5x8xf32>

// RUN: %python %S/Inputs/nn_models.py layernorm_axis1_nobias %t.layernorm_axis1_nobias.onnx && ge-import-onnx %t.layernorm_axis1_nobias.onnx | FileCheck %s --check-prefix=LAYERNORM-AXIS1-NOBIAS
// LAYERNORM-AXIS1-NOBIAS-LABEL: func.func @layernorm_axis1_nobias(
// LAYERNORM-AXIS1-NOBIAS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// LAYERNORM-AXIS1-NOBIAS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x4xf32>
// LAYERNORM-AXIS1-NOBIAS-NEXT: %[[V0:[^ ,:)]+]] = ge.layer_norm %[[ARG0]], %[[C0]] {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// LAYERNORM-AXIS1-NOBIAS-NEXT: return %[[V0]] : tensor<2x3x4xf32>

// stash_type=1 (default) on f16: normalized in f32 and cast back.
// RUN: %python %S/Inputs/nn_models.py layernorm_f16 %t.layernorm_f16.onnx && ge-import-onnx %t.layernorm_f16.onnx | FileCheck %s --check-prefix=LAYERNORM-F16
// LAYERNORM-F16-LABEL: func.func @layernorm_f16(
// LAYERNORM-F16-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8xf16> {onnx.name = "x"}) -> (tensor<2x8xf16> {onnx.name = "y"})
// LAYERNORM-F16-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<8xf32>
// LAYERNORM-F16-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<8xf32>
// LAYERNORM-F16-NEXT: %[[V0:[^ ,:)]+]] = ge.cast %[[ARG0]] : tensor<2x8xf16> to tensor<2x8xf32>
// LAYERNORM-F16-NEXT: %[[V1:[^ ,:)]+]] = ge.layer_norm %[[V0]], %[[C0]], %[[C1]] : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// LAYERNORM-F16-NEXT: %[[V2:[^ ,:)]+]] = ge.cast %[[V1]] : tensor<2x8xf32> to tensor<2x8xf16>
// LAYERNORM-F16-NEXT: return %[[V2]] : tensor<2x8xf16>

// With its Mean output used, LayerNormalization is decomposed (statistics kept).
// RUN: %python %S/Inputs/nn_models.py layernorm_mean_used %t.layernorm_mean_used.onnx && ge-import-onnx %t.layernorm_mean_used.onnx | FileCheck %s --check-prefix=LAYERNORM-MEAN-USED
// LAYERNORM-MEAN-USED-LABEL: func.func @
// LAYERNORM-MEAN-USED: %[[MEAN:.*]] = ge.reduce_mean %{{.*}} {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2x1xf32>
// LAYERNORM-MEAN-USED-NEXT: %[[D:.*]] = ge.sub %{{.*}}, %[[MEAN]]
// LAYERNORM-MEAN-USED-NEXT: ge.mul %[[D]], %[[D]]
// LAYERNORM-MEAN-USED-NEXT: ge.reduce_mean
// LAYERNORM-MEAN-USED: ge.rsqrt
// LAYERNORM-MEAN-USED: return %{{.*}}, %[[MEAN]] : tensor<2x8xf32>, tensor<2x1xf32>

// RUN: %python %S/Inputs/nn_models.py layernorm_scale_per_row %t.layernorm_scale_per_row.onnx && not ge-import-onnx %t.layernorm_scale_per_row.onnx 2>&1 | FileCheck %s --check-prefix=LAYERNORM-SCALE-PER-ROW
// LAYERNORM-SCALE-PER-ROW: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// LAYERNORM-SCALE-PER-ROW-NEXT: LayerNormalization node 'layernormalization0': Scale of shape [2, 1, 4] varies over non-normalized dims; ge scales only the normalized (last 1) dims

// Opset 18: scale/bias per group, applied in the grouped [N, G, C/G*H*W] shape.
// RUN: %python %S/Inputs/nn_models.py groupnorm18 %t.groupnorm18.onnx && ge-import-onnx %t.groupnorm18.onnx | FileCheck %s --check-prefix=GROUPNORM18
// GROUPNORM18-LABEL: func.func @groupnorm18(
// GROUPNORM18-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x6x3x3xf32> {onnx.name = "x"}) -> (tensor<2x6x3x3xf32> {onnx.name = "y"})
// GROUPNORM18-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x6x3x3xf32> to tensor<2x3x18xf32>
// GROUPNORM18-NEXT: %[[V1:[^ ,:)]+]] = ge.reduce_mean %[[V0]] {axes = array<i64: 2>} : (tensor<2x3x18xf32>) -> tensor<2x3x1xf32>
// GROUPNORM18-NEXT: %[[V2:[^ ,:)]+]] = ge.sub %[[V0]], %[[V1]] : (tensor<2x3x18xf32>, tensor<2x3x1xf32>) -> tensor<2x3x18xf32>
// GROUPNORM18-NEXT: %[[V3:[^ ,:)]+]] = ge.mul %[[V2]], %[[V2]] : (tensor<2x3x18xf32>, tensor<2x3x18xf32>) -> tensor<2x3x18xf32>
// GROUPNORM18-NEXT: %[[V4:[^ ,:)]+]] = ge.reduce_mean %[[V3]] {axes = array<i64: 2>} : (tensor<2x3x18xf32>) -> tensor<2x3x1xf32>
// GROUPNORM18-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<9.99999974E-6> : tensor<f32>
// GROUPNORM18-NEXT: %[[V5:[^ ,:)]+]] = ge.add %[[V4]], %[[C0]] : (tensor<2x3x1xf32>, tensor<f32>) -> tensor<2x3x1xf32>
// GROUPNORM18-NEXT: %[[V6:[^ ,:)]+]] = ge.rsqrt %[[V5]] : tensor<2x3x1xf32>
// GROUPNORM18-NEXT: %[[V7:[^ ,:)]+]] = ge.mul %[[V2]], %[[V6]] : (tensor<2x3x18xf32>, tensor<2x3x1xf32>) -> tensor<2x3x18xf32>
// GROUPNORM18-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// GROUPNORM18-NEXT: %[[V8:[^ ,:)]+]] = ge.reshape %[[C1]] : tensor<3xf32> to tensor<3x1xf32>
// GROUPNORM18-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3xf32>
// GROUPNORM18-NEXT: %[[V9:[^ ,:)]+]] = ge.reshape %[[C2]] : tensor<3xf32> to tensor<3x1xf32>
// GROUPNORM18-NEXT: %[[V10:[^ ,:)]+]] = ge.mul %[[V7]], %[[V8]] : (tensor<2x3x18xf32>, tensor<3x1xf32>) -> tensor<2x3x18xf32>
// GROUPNORM18-NEXT: %[[V11:[^ ,:)]+]] = ge.add %[[V10]], %[[V9]] : (tensor<2x3x18xf32>, tensor<3x1xf32>) -> tensor<2x3x18xf32>
// GROUPNORM18-NEXT: %[[V12:[^ ,:)]+]] = ge.reshape %[[V11]] : tensor<2x3x18xf32> to tensor<2x6x3x3xf32>
// GROUPNORM18-NEXT: return %[[V12]] : tensor<2x6x3x3xf32>

// Opset 21: scale/bias per channel, applied after reshaping back.
// RUN: %python %S/Inputs/nn_models.py groupnorm21 %t.groupnorm21.onnx && ge-import-onnx %t.groupnorm21.onnx | FileCheck %s --check-prefix=GROUPNORM21
// GROUPNORM21-LABEL: func.func @groupnorm21(
// GROUPNORM21-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x6x4xf32> {onnx.name = "x"}) -> (tensor<2x6x4xf32> {onnx.name = "y"})
// GROUPNORM21-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x6x4xf32> to tensor<2x2x12xf32>
// GROUPNORM21-NEXT: %[[V1:[^ ,:)]+]] = ge.reduce_mean %[[V0]] {axes = array<i64: 2>} : (tensor<2x2x12xf32>) -> tensor<2x2x1xf32>
// GROUPNORM21-NEXT: %[[V2:[^ ,:)]+]] = ge.sub %[[V0]], %[[V1]] : (tensor<2x2x12xf32>, tensor<2x2x1xf32>) -> tensor<2x2x12xf32>
// GROUPNORM21-NEXT: %[[V3:[^ ,:)]+]] = ge.mul %[[V2]], %[[V2]] : (tensor<2x2x12xf32>, tensor<2x2x12xf32>) -> tensor<2x2x12xf32>
// GROUPNORM21-NEXT: %[[V4:[^ ,:)]+]] = ge.reduce_mean %[[V3]] {axes = array<i64: 2>} : (tensor<2x2x12xf32>) -> tensor<2x2x1xf32>
// GROUPNORM21-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<1.000000e-03> : tensor<f32>
// GROUPNORM21-NEXT: %[[V5:[^ ,:)]+]] = ge.add %[[V4]], %[[C0]] : (tensor<2x2x1xf32>, tensor<f32>) -> tensor<2x2x1xf32>
// GROUPNORM21-NEXT: %[[V6:[^ ,:)]+]] = ge.rsqrt %[[V5]] : tensor<2x2x1xf32>
// GROUPNORM21-NEXT: %[[V7:[^ ,:)]+]] = ge.mul %[[V2]], %[[V6]] : (tensor<2x2x12xf32>, tensor<2x2x1xf32>) -> tensor<2x2x12xf32>
// GROUPNORM21-NEXT: %[[V8:[^ ,:)]+]] = ge.reshape %[[V7]] : tensor<2x2x12xf32> to tensor<2x6x4xf32>
// GROUPNORM21-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<6xf32>
// GROUPNORM21-NEXT: %[[V9:[^ ,:)]+]] = ge.reshape %[[C1]] : tensor<6xf32> to tensor<6x1xf32>
// GROUPNORM21-NEXT: %[[V10:[^ ,:)]+]] = ge.mul %[[V8]], %[[V9]] : (tensor<2x6x4xf32>, tensor<6x1xf32>) -> tensor<2x6x4xf32>
// GROUPNORM21-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<6xf32>
// GROUPNORM21-NEXT: %[[V11:[^ ,:)]+]] = ge.reshape %[[C2]] : tensor<6xf32> to tensor<6x1xf32>
// GROUPNORM21-NEXT: %[[V12:[^ ,:)]+]] = ge.add %[[V10]], %[[V11]] : (tensor<2x6x4xf32>, tensor<6x1xf32>) -> tensor<2x6x4xf32>
// GROUPNORM21-NEXT: return %[[V12]] : tensor<2x6x4xf32>

// RUN: %python %S/Inputs/nn_models.py groupnorm_dynamic_channels %t.groupnorm_dynamic_channels.onnx && not ge-import-onnx %t.groupnorm_dynamic_channels.onnx 2>&1 | FileCheck %s --check-prefix=GROUPNORM-DYNAMIC-CHANNELS
// GROUPNORM-DYNAMIC-CHANNELS: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// GROUPNORM-DYNAMIC-CHANNELS-NEXT: GroupNormalization node 'groupnormalization0': the channel and spatial dims must be static, got [2, -1, 4]

//===--------------------------------------------------------------------------===//
// LpNormalization, MeanVarianceNormalization, RMSNormalization
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py lpnorm_l2 %t.lpnorm_l2.onnx && ge-import-onnx %t.lpnorm_l2.onnx | FileCheck %s --check-prefix=LPNORM-L2
// LPNORM-L2-LABEL: func.func @lpnorm_l2(
// LPNORM-L2-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// LPNORM-L2-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_l2 %[[ARG0]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// A zero norm divides by one (the ONNX reference gives 0, not NaN).
// LPNORM-L2-NEXT: %[[ZERO:[^ ,:)]+]] = ge.constant dense<0.000000e+00> : tensor<f32>
// LPNORM-L2-NEXT: %[[ONE:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<f32>
// LPNORM-L2-NEXT: %[[EQ:[^ ,:)]+]] = ge.equal %[[V0]], %[[ZERO]]
// LPNORM-L2-NEXT: %[[SAFE:[^ ,:)]+]] = ge.where %[[EQ]], %[[ONE]], %[[V0]]
// LPNORM-L2-NEXT: %[[V1:[^ ,:)]+]] = ge.div %[[ARG0]], %[[SAFE]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// LPNORM-L2-NEXT: return %[[V1]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py lpnorm_l1 %t.lpnorm_l1.onnx && ge-import-onnx %t.lpnorm_l1.onnx | FileCheck %s --check-prefix=LPNORM-L1
// LPNORM-L1-LABEL: func.func @lpnorm_l1(
// LPNORM-L1-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x5xf32> {onnx.name = "x"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// LPNORM-L1-NEXT: %[[V0:[^ ,:)]+]] = ge.abs %[[ARG0]] : tensor<3x5xf32>
// LPNORM-L1-NEXT: %[[V1:[^ ,:)]+]] = ge.reduce_sum %[[V0]] {axes = array<i64: 1>} : (tensor<3x5xf32>) -> tensor<3x1xf32>
// LPNORM-L1: %[[SAFE:[^ ,:)]+]] = ge.where
// LPNORM-L1-NEXT: %[[V2:[^ ,:)]+]] = ge.div %[[ARG0]], %[[SAFE]] : (tensor<3x5xf32>, tensor<3x1xf32>) -> tensor<3x5xf32>
// LPNORM-L1-NEXT: return %[[V2]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py lpnorm_p3 %t.lpnorm_p3.onnx && not ge-import-onnx %t.lpnorm_p3.onnx 2>&1 | FileCheck %s --check-prefix=LPNORM-P3
// LPNORM-P3: ge-import-onnx: error: invalid ONNX model: 1 problem(s)
// LPNORM-P3-NEXT: LpNormalization node 'lpnormalization0': p=3 is not supported (ONNX allows only 1 and 2)

// RUN: %python %S/Inputs/nn_models.py mvn %t.mvn.onnx && ge-import-onnx %t.mvn.onnx | FileCheck %s --check-prefix=MVN
// MVN-LABEL: func.func @mvn(
// MVN-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4x4xf32> {onnx.name = "y"})
// MVN-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_mean %[[ARG0]] {axes = array<i64: 0, 2, 3>} : (tensor<2x3x4x4xf32>) -> tensor<1x3x1x1xf32>
// MVN-NEXT: %[[V1:[^ ,:)]+]] = ge.mul %[[ARG0]], %[[ARG0]] : (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
// MVN-NEXT: %[[V2:[^ ,:)]+]] = ge.reduce_mean %[[V1]] {axes = array<i64: 0, 2, 3>} : (tensor<2x3x4x4xf32>) -> tensor<1x3x1x1xf32>
// MVN-NEXT: %[[V3:[^ ,:)]+]] = ge.mul %[[V0]], %[[V0]] : (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// MVN-NEXT: %[[V4:[^ ,:)]+]] = ge.sub %[[V2]], %[[V3]] : (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// MVN-NEXT: %[[V5:[^ ,:)]+]] = ge.sqrt %[[V4]] : tensor<1x3x1x1xf32>
// MVN-NEXT: %[[V6:[^ ,:)]+]] = ge.sub %[[ARG0]], %[[V0]] : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x4xf32>
// MVN-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<9.99999971E-10> : tensor<f32>
// MVN-NEXT: %[[V7:[^ ,:)]+]] = ge.add %[[V5]], %[[C0]] : (tensor<1x3x1x1xf32>, tensor<f32>) -> tensor<1x3x1x1xf32>
// MVN-NEXT: %[[V8:[^ ,:)]+]] = ge.div %[[V6]], %[[V7]] : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x4xf32>
// MVN-NEXT: return %[[V8]] : tensor<2x3x4x4xf32>

// RUN: %python %S/Inputs/nn_models.py mvn_axes %t.mvn_axes.onnx && ge-import-onnx %t.mvn_axes.onnx | FileCheck %s --check-prefix=MVN-AXES
// MVN-AXES-LABEL: func.func @mvn_axes(
// MVN-AXES-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// MVN-AXES-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_mean %[[ARG0]] {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
// MVN-AXES-NEXT: %[[V1:[^ ,:)]+]] = ge.mul %[[ARG0]], %[[ARG0]] : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// MVN-AXES-NEXT: %[[V2:[^ ,:)]+]] = ge.reduce_mean %[[V1]] {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
// MVN-AXES-NEXT: %[[V3:[^ ,:)]+]] = ge.mul %[[V0]], %[[V0]] : (tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// MVN-AXES-NEXT: %[[V4:[^ ,:)]+]] = ge.sub %[[V2]], %[[V3]] : (tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// MVN-AXES-NEXT: %[[V5:[^ ,:)]+]] = ge.sqrt %[[V4]] : tensor<2x1x1xf32>
// MVN-AXES-NEXT: %[[V6:[^ ,:)]+]] = ge.sub %[[ARG0]], %[[V0]] : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
// MVN-AXES-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<9.99999971E-10> : tensor<f32>
// MVN-AXES-NEXT: %[[V7:[^ ,:)]+]] = ge.add %[[V5]], %[[C0]] : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
// MVN-AXES-NEXT: %[[V8:[^ ,:)]+]] = ge.div %[[V6]], %[[V7]] : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
// MVN-AXES-NEXT: return %[[V8]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py rmsnorm %t.rmsnorm.onnx && ge-import-onnx %t.rmsnorm.onnx | FileCheck %s --check-prefix=RMSNORM
// RMSNORM-LABEL: func.func @rmsnorm(
// RMSNORM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x4x8xf32> {onnx.name = "x"}) -> (tensor<2x4x8xf32> {onnx.name = "y"})
// RMSNORM-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<8xf32>
// RMSNORM-NEXT: %[[V0:[^ ,:)]+]] = ge.rms_norm %[[ARG0]], %[[C0]] : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
// RMSNORM-NEXT: return %[[V0]] : tensor<2x4x8xf32>

// RUN: %python %S/Inputs/nn_models.py rmsnorm_axis1 %t.rmsnorm_axis1.onnx && ge-import-onnx %t.rmsnorm_axis1.onnx | FileCheck %s --check-prefix=RMSNORM-AXIS1
// RMSNORM-AXIS1-LABEL: func.func @rmsnorm_axis1(
// RMSNORM-AXIS1-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// RMSNORM-AXIS1-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x4xf32>
// RMSNORM-AXIS1-NEXT: %[[V0:[^ ,:)]+]] = ge.rms_norm %[[ARG0]], %[[C0]] {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// RMSNORM-AXIS1-NEXT: return %[[V0]] : tensor<2x3x4xf32>

//===--------------------------------------------------------------------------===//
// MatMul, Gemm, MatMulInteger
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py matmul_2d %t.matmul_2d.onnx && ge-import-onnx %t.matmul_2d.onnx | FileCheck %s --check-prefix=MATMUL-2D
// MATMUL-2D-LABEL: func.func @matmul_2d(
// MATMUL-2D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// MATMUL-2D-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<4x5xf32>
// MATMUL-2D-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[C0]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// MATMUL-2D-NEXT: return %[[V0]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py matmul_broadcast %t.matmul_broadcast.onnx && ge-import-onnx %t.matmul_broadcast.onnx | FileCheck %s --check-prefix=MATMUL-BROADCAST
// MATMUL-BROADCAST-LABEL: func.func @matmul_broadcast(
// MATMUL-BROADCAST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x1x3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<5x4x6xf32> {onnx.name = "b"}) -> (tensor<2x5x3x6xf32> {onnx.name = "y"})
// MATMUL-BROADCAST-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
// MATMUL-BROADCAST-NEXT: return %[[V0]] : tensor<2x5x3x6xf32>

// RUN: %python %S/Inputs/nn_models.py matmul_vector %t.matmul_vector.onnx && ge-import-onnx %t.matmul_vector.onnx | FileCheck %s --check-prefix=MATMUL-VECTOR
// MATMUL-VECTOR-LABEL: func.func @matmul_vector(
// MATMUL-VECTOR-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x4x3xf32> {onnx.name = "b"}) -> (tensor<2x3xf32> {onnx.name = "y"})
// MATMUL-VECTOR-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<4xf32>, tensor<2x4x3xf32>) -> tensor<2x3xf32>
// MATMUL-VECTOR-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/nn_models.py matmul_int32 %t.matmul_int32.onnx && ge-import-onnx %t.matmul_int32.onnx | FileCheck %s --check-prefix=MATMUL-INT32
// MATMUL-INT32-LABEL: func.func @matmul_int32(
// MATMUL-INT32-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xi32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<3x2xi32> {onnx.name = "b"}) -> (tensor<2x2xi32> {onnx.name = "y"})
// MATMUL-INT32-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
// MATMUL-INT32-NEXT: return %[[V0]] : tensor<2x2xi32>

// RUN: %python %S/Inputs/nn_models.py gemm_bias %t.gemm_bias.onnx && ge-import-onnx %t.gemm_bias.onnx | FileCheck %s --check-prefix=GEMM-BIAS
// GEMM-BIAS-LABEL: func.func @gemm_bias(
// GEMM-BIAS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// GEMM-BIAS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<5x4xf32>
// GEMM-BIAS-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<5xf32>
// GEMM-BIAS-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[C0]], %[[C1]] {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, trans_b = true} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
// GEMM-BIAS-NEXT: return %[[V0]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py gemm_no_c %t.gemm_no_c.onnx && ge-import-onnx %t.gemm_no_c.onnx | FileCheck %s --check-prefix=GEMM-NO-C
// GEMM-NO-C-LABEL: func.func @gemm_no_c(
// GEMM-NO-C-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x3xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4x2xf32> {onnx.name = "b"}) -> (tensor<3x2xf32> {onnx.name = "y"})
// GEMM-NO-C-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[ARG1]] {trans_a = true} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// GEMM-NO-C-NEXT: return %[[V0]] : tensor<3x2xf32>

// RUN: %python %S/Inputs/nn_models.py gemm_opset9 %t.gemm_opset9.onnx && ge-import-onnx %t.gemm_opset9.onnx | FileCheck %s --check-prefix=GEMM-OPSET9
// GEMM-OPSET9-LABEL: func.func @gemm_opset9(
// GEMM-OPSET9-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y"})
// GEMM-OPSET9-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x4xf32>
// GEMM-OPSET9-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2x4xf32>
// GEMM-OPSET9-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[C0]], %[[C1]] : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// GEMM-OPSET9-NEXT: return %[[V0]] : tensor<2x4xf32>

// MatMulInteger: the u8 operands widened to i32 (no zero points here), one i32 ge.matmul.
// RUN: %python %S/Inputs/nn_models.py matmulinteger %t.matmulinteger.onnx && ge-import-onnx %t.matmulinteger.onnx | FileCheck %s --check-prefix=MATMULINTEGER
// MATMULINTEGER-LABEL: func.func @matmulinteger(%arg0: tensor<2x3xui8> {onnx.name = "a"}, %arg1: tensor<3x2xui8> {onnx.name = "b"}) -> (tensor<2x2xi32> {onnx.name = "y"}) {
// MATMULINTEGER-NEXT: %[[A:.*]] = ge.cast %arg0 : tensor<2x3xui8> to tensor<2x3xi32>
// MATMULINTEGER-NEXT: %[[B:.*]] = ge.cast %arg1 : tensor<3x2xui8> to tensor<3x2xi32>
// MATMULINTEGER-NEXT: %[[Y:.*]] = ge.matmul %[[A]], %[[B]] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
// MATMULINTEGER-NEXT: return %[[Y]] : tensor<2x2xi32>

//===--------------------------------------------------------------------------===//
// Einsum: transpose + matmul + reshape forms
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py einsum_bmm %t.einsum_bmm.onnx && ge-import-onnx %t.einsum_bmm.onnx | FileCheck %s --check-prefix=EINSUM-BMM
// EINSUM-BMM-LABEL: func.func @einsum_bmm(
// EINSUM-BMM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x4x5xf32> {onnx.name = "b"}) -> (tensor<2x3x5xf32> {onnx.name = "y"})
// EINSUM-BMM-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// EINSUM-BMM-NEXT: return %[[V0]] : tensor<2x3x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_attention %t.einsum_attention.onnx && ge-import-onnx %t.einsum_attention.onnx | FileCheck %s --check-prefix=EINSUM-ATTENTION
// EINSUM-ATTENTION-LABEL: func.func @einsum_attention(
// EINSUM-ATTENTION-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x8xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3x5x8xf32> {onnx.name = "b"}) -> (tensor<2x3x4x5xf32> {onnx.name = "y"})
// EINSUM-ATTENTION-NEXT: %[[V0:[^ ,:)]+]] = ge.transpose %[[ARG1]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x5x8xf32>) -> tensor<2x3x8x5xf32>
// EINSUM-ATTENTION-NEXT: %[[V1:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[V0]] : (tensor<2x3x4x8xf32>, tensor<2x3x8x5xf32>) -> tensor<2x3x4x5xf32>
// EINSUM-ATTENTION-NEXT: return %[[V1]] : tensor<2x3x4x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_mm %t.einsum_mm.onnx && ge-import-onnx %t.einsum_mm.onnx | FileCheck %s --check-prefix=EINSUM-MM
// EINSUM-MM-LABEL: func.func @einsum_mm(
// EINSUM-MM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4x5xf32> {onnx.name = "b"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// EINSUM-MM-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// EINSUM-MM-NEXT: return %[[V0]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_dot %t.einsum_dot.onnx && ge-import-onnx %t.einsum_dot.onnx | FileCheck %s --check-prefix=EINSUM-DOT
// EINSUM-DOT-LABEL: func.func @einsum_dot(
// EINSUM-DOT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "b"}) -> (tensor<3xf32> {onnx.name = "y"})
// EINSUM-DOT-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<3x4xf32> to tensor<3x1x4xf32>
// EINSUM-DOT-NEXT: %[[V1:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<3x4xf32> to tensor<3x4x1xf32>
// EINSUM-DOT-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V1]] : (tensor<3x1x4xf32>, tensor<3x4x1xf32>) -> tensor<3x1x1xf32>
// EINSUM-DOT-NEXT: %[[V3:[^ ,:)]+]] = ge.reshape %[[V2]] : tensor<3x1x1xf32> to tensor<3xf32>
// EINSUM-DOT-NEXT: return %[[V3]] : tensor<3xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_outer_transposed %t.einsum_outer_transposed.onnx && ge-import-onnx %t.einsum_outer_transposed.onnx | FileCheck %s --check-prefix=EINSUM-OUTER-TRANSPOSED
// EINSUM-OUTER-TRANSPOSED-LABEL: func.func @einsum_outer_transposed(
// EINSUM-OUTER-TRANSPOSED-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4xf32> {onnx.name = "b"}) -> (tensor<4x3xf32> {onnx.name = "y"})
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<3xf32> to tensor<3x1xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V1:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<4xf32> to tensor<1x4xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V1]] : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V3:[^ ,:)]+]] = ge.transpose %[[V2]] {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: return %[[V3]] : tensor<4x3xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_ellipsis %t.einsum_ellipsis.onnx && ge-import-onnx %t.einsum_ellipsis.onnx | FileCheck %s --check-prefix=EINSUM-ELLIPSIS
// EINSUM-ELLIPSIS-LABEL: func.func @einsum_ellipsis(
// EINSUM-ELLIPSIS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x5xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3x5x6xf32> {onnx.name = "b"}) -> (tensor<2x3x4x6xf32> {onnx.name = "y"})
// EINSUM-ELLIPSIS-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32>
// EINSUM-ELLIPSIS-NEXT: return %[[V0]] : tensor<2x3x4x6xf32>

// Implicit output: labels seen once, sorted ('kj,ji' -> 'ik').
// RUN: %python %S/Inputs/nn_models.py einsum_implicit %t.einsum_implicit.onnx && ge-import-onnx %t.einsum_implicit.onnx | FileCheck %s --check-prefix=EINSUM-IMPLICIT
// EINSUM-IMPLICIT-LABEL: func.func @einsum_implicit(
// EINSUM-IMPLICIT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4x5xf32> {onnx.name = "b"}) -> (tensor<5x3xf32> {onnx.name = "y"})
// EINSUM-IMPLICIT-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// EINSUM-IMPLICIT-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
// EINSUM-IMPLICIT-NEXT: return %[[V1]] : tensor<5x3xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_transpose_sum %t.einsum_transpose_sum.onnx && ge-import-onnx %t.einsum_transpose_sum.onnx | FileCheck %s --check-prefix=EINSUM-TRANSPOSE-SUM
// EINSUM-TRANSPOSE-SUM-LABEL: func.func @einsum_transpose_sum(
// EINSUM-TRANSPOSE-SUM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "a"}) -> (tensor<4x2xf32> {onnx.name = "y"})
// EINSUM-TRANSPOSE-SUM-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_sum %[[ARG0]] {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// EINSUM-TRANSPOSE-SUM-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
// EINSUM-TRANSPOSE-SUM-NEXT: return %[[V1]] : tensor<4x2xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_multi_contract %t.einsum_multi_contract.onnx && ge-import-onnx %t.einsum_multi_contract.onnx | FileCheck %s --check-prefix=EINSUM-MULTI-CONTRACT
// EINSUM-MULTI-CONTRACT-LABEL: func.func @einsum_multi_contract(
// EINSUM-MULTI-CONTRACT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<3x4x5xf32> {onnx.name = "b"}) -> (tensor<2x5xf32> {onnx.name = "y"})
// EINSUM-MULTI-CONTRACT-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<2x12xf32>
// EINSUM-MULTI-CONTRACT-NEXT: %[[V1:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<3x4x5xf32> to tensor<12x5xf32>
// EINSUM-MULTI-CONTRACT-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V1]] : (tensor<2x12xf32>, tensor<12x5xf32>) -> tensor<2x5xf32>
// EINSUM-MULTI-CONTRACT-NEXT: return %[[V2]] : tensor<2x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_diagonal %t.einsum_diagonal.onnx && not ge-import-onnx %t.einsum_diagonal.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-DIAGONAL
// EINSUM-DIAGONAL: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EINSUM-DIAGONAL-NEXT: Einsum node 'einsum0': equation 'ii->i' takes a diagonal (a label repeated in one term), which is not supported

// RUN: %python %S/Inputs/nn_models.py einsum_batch_broadcast %t.einsum_batch_broadcast.onnx && ge-import-onnx %t.einsum_batch_broadcast.onnx | FileCheck %s --check-prefix=EINSUM-BATCH-BROADCAST
// EINSUM-BATCH-BROADCAST-LABEL: func.func @einsum_batch_broadcast(
// EINSUM-BATCH-BROADCAST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x2x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x1x4x5xf32> {onnx.name = "b"}) -> (tensor<2x3x2x5xf32> {onnx.name = "y"})
// EINSUM-BATCH-BROADCAST-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<1x3x2x4xf32>, tensor<2x1x4x5xf32>) -> tensor<2x3x2x5xf32>
// EINSUM-BATCH-BROADCAST-NEXT: return %[[V0]] : tensor<2x3x2x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_contract_broadcast %t.einsum_contract_broadcast.onnx && not ge-import-onnx %t.einsum_contract_broadcast.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-CONTRACT-BROADCAST
// EINSUM-CONTRACT-BROADCAST: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EINSUM-CONTRACT-BROADCAST-NEXT: Einsum node 'einsum0': equation 'ij,jk->ik': label 'j' has sizes 1 and 3; only batch labels (kept in the output) may broadcast

// RUN: %python %S/Inputs/nn_models.py einsum_three_operands %t.einsum_three_operands.onnx && not ge-import-onnx %t.einsum_three_operands.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-THREE-OPERANDS
// EINSUM-THREE-OPERANDS: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EINSUM-THREE-OPERANDS-NEXT: Einsum node 'einsum0': equation 'ij,jk,kl->il' has 3 operands; only 1 or 2 are supported

//===--------------------------------------------------------------------------===//
// Softmax / LogSoftmax / Hardmax: opset < 13 flattens to 2-D at axis
//===--------------------------------------------------------------------------===//

// Opset < 13: softmax over the flattened [d0, d1*d2] (axis=1), then reshaped back.
// RUN: %python %S/Inputs/nn_models.py softmax_opset11_axis1 %t.softmax_opset11_axis1.onnx && ge-import-onnx %t.softmax_opset11_axis1.onnx | FileCheck %s --check-prefix=SOFTMAX-OPSET11-AXIS1
// SOFTMAX-OPSET11-AXIS1-LABEL: func.func @softmax_opset11_axis1(
// SOFTMAX-OPSET11-AXIS1-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// SOFTMAX-OPSET11-AXIS1-NEXT: %[[V0:[^ ,:)]+]] = ge.flatten %[[ARG0]] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// SOFTMAX-OPSET11-AXIS1-NEXT: %[[V1:[^ ,:)]+]] = ge.softmax %[[V0]] : tensor<2x12xf32>
// SOFTMAX-OPSET11-AXIS1-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[V1]] : tensor<2x12xf32> to tensor<2x3x4xf32>
// SOFTMAX-OPSET11-AXIS1-NEXT: return %[[V2]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py softmax_opset13_axis1 %t.softmax_opset13_axis1.onnx && ge-import-onnx %t.softmax_opset13_axis1.onnx | FileCheck %s --check-prefix=SOFTMAX-OPSET13-AXIS1
// SOFTMAX-OPSET13-AXIS1-LABEL: func.func @softmax_opset13_axis1(
// SOFTMAX-OPSET13-AXIS1-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// SOFTMAX-OPSET13-AXIS1-NEXT: %[[V0:[^ ,:)]+]] = ge.softmax %[[ARG0]] {axis = 1 : i64} : tensor<2x3x4xf32>
// SOFTMAX-OPSET13-AXIS1-NEXT: return %[[V0]] : tensor<2x3x4xf32>

// Opset < 13 with axis the last dim: a plain softmax.
// RUN: %python %S/Inputs/nn_models.py softmax_opset11_default %t.softmax_opset11_default.onnx && ge-import-onnx %t.softmax_opset11_default.onnx | FileCheck %s --check-prefix=SOFTMAX-OPSET11-DEFAULT
// SOFTMAX-OPSET11-DEFAULT-LABEL: func.func @softmax_opset11_default(
// SOFTMAX-OPSET11-DEFAULT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x5xf32> {onnx.name = "x"}) -> (tensor<2x5xf32> {onnx.name = "y"})
// SOFTMAX-OPSET11-DEFAULT-NEXT: %[[V0:[^ ,:)]+]] = ge.softmax %[[ARG0]] : tensor<2x5xf32>
// SOFTMAX-OPSET11-DEFAULT-NEXT: return %[[V0]] : tensor<2x5xf32>

// RUN: %python %S/Inputs/nn_models.py logsoftmax_opset11_last %t.logsoftmax_opset11_last.onnx && ge-import-onnx %t.logsoftmax_opset11_last.onnx | FileCheck %s --check-prefix=LOGSOFTMAX-OPSET11-LAST
// LOGSOFTMAX-OPSET11-LAST-LABEL: func.func @logsoftmax_opset11_last(
// LOGSOFTMAX-OPSET11-LAST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// LOGSOFTMAX-OPSET11-LAST-NEXT: %[[V0:[^ ,:)]+]] = ge.log_softmax %[[ARG0]] : tensor<2x3x4xf32>
// LOGSOFTMAX-OPSET11-LAST-NEXT: return %[[V0]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py logsoftmax_opset13 %t.logsoftmax_opset13.onnx && ge-import-onnx %t.logsoftmax_opset13.onnx | FileCheck %s --check-prefix=LOGSOFTMAX-OPSET13
// LOGSOFTMAX-OPSET13-LABEL: func.func @logsoftmax_opset13(
// LOGSOFTMAX-OPSET13-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// LOGSOFTMAX-OPSET13-NEXT: %[[V0:[^ ,:)]+]] = ge.log_softmax %[[ARG0]] : tensor<2x3x4xf32>
// LOGSOFTMAX-OPSET13-NEXT: return %[[V0]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py hardmax_opset11 %t.hardmax_opset11.onnx && ge-import-onnx %t.hardmax_opset11.onnx | FileCheck %s --check-prefix=HARDMAX-OPSET11
// HARDMAX-OPSET11-LABEL: func.func @hardmax_opset11(
// HARDMAX-OPSET11-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// HARDMAX-OPSET11-NEXT: %[[V0:[^ ,:)]+]] = ge.flatten %[[ARG0]] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// HARDMAX-OPSET11-NEXT: %[[V1:[^ ,:)]+]] = ge.argmax %[[V0]] {axis = 1 : i64, keepdims = false} : (tensor<2x12xf32>) -> tensor<2xi64>
// HARDMAX-OPSET11-NEXT: %[[V2:[^ ,:)]+]] = ge.one_hot %[[V1]] {axis = 1 : i64, depth = 12 : i64} : (tensor<2xi64>) -> tensor<2x12xf32>
// HARDMAX-OPSET11-NEXT: %[[V3:[^ ,:)]+]] = ge.reshape %[[V2]] : tensor<2x12xf32> to tensor<2x3x4xf32>
// HARDMAX-OPSET11-NEXT: return %[[V3]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py hardmax_opset13 %t.hardmax_opset13.onnx && ge-import-onnx %t.hardmax_opset13.onnx | FileCheck %s --check-prefix=HARDMAX-OPSET13
// HARDMAX-OPSET13-LABEL: func.func @hardmax_opset13(
// HARDMAX-OPSET13-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// HARDMAX-OPSET13-NEXT: %[[V0:[^ ,:)]+]] = ge.argmax %[[ARG0]] {axis = 1 : i64, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
// HARDMAX-OPSET13-NEXT: %[[V1:[^ ,:)]+]] = ge.one_hot %[[V0]] {axis = 1 : i64, depth = 3 : i64} : (tensor<2x4xi64>) -> tensor<2x3x4xf32>
// HARDMAX-OPSET13-NEXT: return %[[V1]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py hardmax_dynamic_axis %t.hardmax_dynamic_axis.onnx && not ge-import-onnx %t.hardmax_dynamic_axis.onnx 2>&1 | FileCheck %s --check-prefix=HARDMAX-DYNAMIC-AXIS
// HARDMAX-DYNAMIC-AXIS: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// HARDMAX-DYNAMIC-AXIS-NEXT: Hardmax node 'hardmax0': the reduced dimension 1 must be static, got [2, -1]

//===--------------------------------------------------------------------------===//
// Resize / Upsample: constant scales/sizes fold into the result type
//===--------------------------------------------------------------------------===//

// Opset 10: asymmetric coordinates; nearest truncates (floor) when upsampling...
// RUN: %python %S/Inputs/nn_models.py resize10_nearest %t.resize10_nearest.onnx && ge-import-onnx %t.resize10_nearest.onnx | FileCheck %s --check-prefix=RESIZE10-NEAREST
// RESIZE10-NEAREST-LABEL: func.func @resize10_nearest(
// RESIZE10-NEAREST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x2x6x12xf32> {onnx.name = "y"})
// RESIZE10-NEAREST-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<asymmetric>, nearest_mode = #ge.nearest_mode<floor>, scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x12xf32>
// RESIZE10-NEAREST-NEXT: return %[[V0]] : tensor<1x2x6x12xf32>

// RUN: %python %S/Inputs/nn_models.py resize10_linear_down %t.resize10_linear_down.onnx && ge-import-onnx %t.resize10_linear_down.onnx | FileCheck %s --check-prefix=RESIZE10-LINEAR-DOWN
// RESIZE10-LINEAR-DOWN-LABEL: func.func @resize10_linear_down(
// RESIZE10-LINEAR-DOWN-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x6x7xf32> {onnx.name = "x"}) -> (tensor<1x2x3x3xf32> {onnx.name = "y"})
// RESIZE10-LINEAR-DOWN-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<asymmetric>, mode = #ge.resize_mode<linear>, scales = array<f32: 1.000000e+00, 1.000000e+00, 5.000000e-01, 5.000000e-01>} : (tensor<1x2x6x7xf32>) -> tensor<1x2x3x3xf32>
// RESIZE10-LINEAR-DOWN-NEXT: return %[[V0]] : tensor<1x2x3x3xf32>

// ... and rounds up (ceil) when downsampling, as onnxruntime does.
// RUN: %python %S/Inputs/nn_models.py resize10_nearest_down %t.resize10_nearest_down.onnx && ge-import-onnx %t.resize10_nearest_down.onnx | FileCheck %s --check-prefix=RESIZE10-NEAREST-DOWN
// RESIZE10-NEAREST-DOWN-LABEL: func.func @resize10_nearest_down(
// RESIZE10-NEAREST-DOWN-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x6x7xf32> {onnx.name = "x"}) -> (tensor<1x2x3x4xf32> {onnx.name = "y"})
// RESIZE10-NEAREST-DOWN-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<asymmetric>, nearest_mode = #ge.nearest_mode<ceil>, scales = array<f32: 1.000000e+00, 1.000000e+00, 5.000000e-01, 6.000000e-01>} : (tensor<1x2x6x7xf32>) -> tensor<1x2x3x4xf32>
// RESIZE10-NEAREST-DOWN-NEXT: return %[[V0]] : tensor<1x2x3x4xf32>

// RUN: %python %S/Inputs/nn_models.py resize10_nearest_mixed %t.resize10_nearest_mixed.onnx && not ge-import-onnx %t.resize10_nearest_mixed.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE10-NEAREST-MIXED
// RESIZE10-NEAREST-MIXED: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// RESIZE10-NEAREST-MIXED-NEXT: Resize node 'resize0': nearest resize that upsamples some axes and downsamples others (opset < 11 rounding differs per axis) has no ge equivalent

// sizes instead of scales: no scales attribute, the result type carries the sizes.
// RUN: %python %S/Inputs/nn_models.py resize11_sizes_align_corners %t.resize11_sizes_align_corners.onnx && ge-import-onnx %t.resize11_sizes_align_corners.onnx | FileCheck %s --check-prefix=RESIZE11-SIZES-ALIGN-CORNERS
// RESIZE11-SIZES-ALIGN-CORNERS-LABEL: func.func @resize11_sizes_align_corners(
// RESIZE11-SIZES-ALIGN-CORNERS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x2x5x9xf32> {onnx.name = "y"})
// RESIZE11-SIZES-ALIGN-CORNERS-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<align_corners>, mode = #ge.resize_mode<linear>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x5x9xf32>
// RESIZE11-SIZES-ALIGN-CORNERS-NEXT: return %[[V0]] : tensor<1x2x5x9xf32>

// RUN: %python %S/Inputs/nn_models.py resize13_cubic %t.resize13_cubic.onnx && ge-import-onnx %t.resize13_cubic.onnx | FileCheck %s --check-prefix=RESIZE13-CUBIC
// RESIZE13-CUBIC-LABEL: func.func @resize13_cubic(
// RESIZE13-CUBIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x4x4xf32> {onnx.name = "x"}) -> (tensor<1x1x6x8xf32> {onnx.name = "y"})
// RESIZE13-CUBIC-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {cubic_coeff_a = -5.000000e-01 : f32, mode = #ge.resize_mode<cubic>, scales = array<f32: 1.000000e+00, 1.000000e+00, 1.500000e+00, 2.000000e+00>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x6x8xf32>
// RESIZE13-CUBIC-NEXT: return %[[V0]] : tensor<1x1x6x8xf32>

// RUN: %python %S/Inputs/nn_models.py resize13_nearest_ceil %t.resize13_nearest_ceil.onnx && ge-import-onnx %t.resize13_nearest_ceil.onnx | FileCheck %s --check-prefix=RESIZE13-NEAREST-CEIL
// RESIZE13-NEAREST-CEIL-LABEL: func.func @resize13_nearest_ceil(
// RESIZE13-NEAREST-CEIL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x2x2xf32> {onnx.name = "x"}) -> (tensor<1x3x4x4xf32> {onnx.name = "y"})
// RESIZE13-NEAREST-CEIL-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<asymmetric>, nearest_mode = #ge.nearest_mode<ceil>, scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x4x4xf32>
// RESIZE13-NEAREST-CEIL-NEXT: return %[[V0]] : tensor<1x3x4x4xf32>

// RUN: %python %S/Inputs/nn_models.py resize13_uint8_pytorch %t.resize13_uint8_pytorch.onnx && ge-import-onnx %t.resize13_uint8_pytorch.onnx | FileCheck %s --check-prefix=RESIZE13-UINT8-PYTORCH
// RESIZE13-UINT8-PYTORCH-LABEL: func.func @resize13_uint8_pytorch(
// RESIZE13-UINT8-PYTORCH-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x2x3xui8> {onnx.name = "x"}) -> (tensor<1x3x4x1xui8> {onnx.name = "y"})
// RESIZE13-UINT8-PYTORCH-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<pytorch_half_pixel>, mode = #ge.resize_mode<linear>} : (tensor<1x3x2x3xui8>) -> tensor<1x3x4x1xui8>
// RESIZE13-UINT8-PYTORCH-NEXT: return %[[V0]] : tensor<1x3x4x1xui8>

// axes [2, 3] + not_larger: common scale min(8/4, 16/6) = 2 -> 8x12.
// RUN: %python %S/Inputs/nn_models.py resize18_axes_aspect %t.resize18_axes_aspect.onnx && ge-import-onnx %t.resize18_axes_aspect.onnx | FileCheck %s --check-prefix=RESIZE18-AXES-ASPECT
// RESIZE18-AXES-ASPECT-LABEL: func.func @resize18_axes_aspect(
// RESIZE18-AXES-ASPECT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x4x6xf32> {onnx.name = "x"}) -> (tensor<1x2x8x12xf32> {onnx.name = "y"})
// RESIZE18-AXES-ASPECT-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x2x4x6xf32>) -> tensor<1x2x8x12xf32>
// RESIZE18-AXES-ASPECT-NEXT: return %[[V0]] : tensor<1x2x8x12xf32>

// RUN: %python %S/Inputs/nn_models.py resize18_antialias_up %t.resize18_antialias_up.onnx && ge-import-onnx %t.resize18_antialias_up.onnx | FileCheck %s --check-prefix=RESIZE18-ANTIALIAS-UP
// RESIZE18-ANTIALIAS-UP-LABEL: func.func @resize18_antialias_up(
// RESIZE18-ANTIALIAS-UP-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x3x3xf32> {onnx.name = "x"}) -> (tensor<1x1x6x6xf32> {onnx.name = "y"})
// RESIZE18-ANTIALIAS-UP-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {mode = #ge.resize_mode<linear>, scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
// RESIZE18-ANTIALIAS-UP-NEXT: return %[[V0]] : tensor<1x1x6x6xf32>

// RUN: %python %S/Inputs/nn_models.py resize19_half_pixel_symmetric %t.resize19_half_pixel_symmetric.onnx && ge-import-onnx %t.resize19_half_pixel_symmetric.onnx | FileCheck %s --check-prefix=RESIZE19-HALF-PIXEL-SYMMETRIC
// RESIZE19-HALF-PIXEL-SYMMETRIC-LABEL: func.func @resize19_half_pixel_symmetric(
// RESIZE19-HALF-PIXEL-SYMMETRIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x1x5x5xf32> {onnx.name = "x"}) -> (tensor<1x1x8x4xf32> {onnx.name = "y"})
// RESIZE19-HALF-PIXEL-SYMMETRIC-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<half_pixel_symmetric>, mode = #ge.resize_mode<linear>, scales = array<f32: 1.000000e+00, 1.000000e+00, 1.700000e+00, 8.000000e-01>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x8x4xf32>
// RESIZE19-HALF-PIXEL-SYMMETRIC-NEXT: return %[[V0]] : tensor<1x1x8x4xf32>

// RUN: %python %S/Inputs/nn_models.py resize11_tf_half_pixel_for_nn %t.resize11_tf_half_pixel_for_nn.onnx && not ge-import-onnx %t.resize11_tf_half_pixel_for_nn.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE11-TF-HALF-PIXEL-FOR-NN
// RESIZE11-TF-HALF-PIXEL-FOR-NN: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// RESIZE11-TF-HALF-PIXEL-FOR-NN-NEXT: Resize node 'resize0': coordinate_transformation_mode 'tf_half_pixel_for_nn' has no ge equivalent

// RUN: %python %S/Inputs/nn_models.py resize_tf_crop %t.resize_tf_crop.onnx && not ge-import-onnx %t.resize_tf_crop.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE-TF-CROP
// RESIZE-TF-CROP: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// RESIZE-TF-CROP-NEXT: Resize node 'resize0': coordinate_transformation_mode=tf_crop_and_resize needs the roi input and extrapolation_value, which ge.resize does not carry

// GridSample (nearest, zeros padding): per spatial dim the denormalized, rounded coordinate, a
// 0/1 weight for taps outside the input, then one gather_elements on the flattened spatial dims.
// RUN: %python %S/Inputs/nn_models.py grid_sample_nearest %t.grid_sample_nearest.onnx && ge-import-onnx %t.grid_sample_nearest.onnx | FileCheck %s --check-prefix=GRID-SAMPLE
// GRID-SAMPLE-LABEL: func.func @grid_sample_nearest(%arg0: tensor<1x1x2x3xf32> {onnx.name = "x"}, %arg1: tensor<1x2x2x2xf32> {onnx.name = "g"}) -> (tensor<1x1x2x2xf32> {onnx.name = "y"}) {
// GRID-SAMPLE: ge.round %{{.*}} : tensor<1x4xf32>
// GRID-SAMPLE: %[[X3:.*]] = ge.reshape %arg0 : tensor<1x1x2x3xf32> to tensor<1x1x6xf32>
// GRID-SAMPLE: %[[IDX:.*]] = ge.expand %{{.*}} {shape = array<i64: 1, 1, 4>} : (tensor<1x1x4xi64>) -> tensor<1x1x4xi64>
// GRID-SAMPLE-NEXT: %[[G:.*]] = ge.gather_elements %[[X3]], %[[IDX]] {axis = 2 : i64} : (tensor<1x1x6xf32>, tensor<1x1x4xi64>) -> tensor<1x1x4xf32>
// GRID-SAMPLE-NEXT: %[[W:.*]] = ge.reshape %{{.*}} : tensor<1x4xf32> to tensor<1x1x4xf32>
// GRID-SAMPLE-NEXT: %[[P:.*]] = ge.mul %[[G]], %[[W]] : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// GRID-SAMPLE-NEXT: %[[Y:.*]] = ge.reshape %[[P]] : tensor<1x1x4xf32> to tensor<1x1x2x2xf32>
// GRID-SAMPLE-NEXT: return %[[Y]] : tensor<1x1x2x2xf32>

// RNN unrolled over its 2 steps: X @ W^T once, then h = tanh(x_t + h @ R^T) per step.
// RUN: %python %S/Inputs/nn_models.py rnn_two_steps %t.rnn_two_steps.onnx && ge-import-onnx %t.rnn_two_steps.onnx | FileCheck %s --check-prefix=RNN
// RNN-LABEL: func.func @rnn_two_steps(
// RNN: %[[XW:.*]] = ge.matmul %arg0, %{{.*}} : (tensor<2x1x4xf32>, tensor<4x3xf32>) -> tensor<2x1x3xf32>
// RNN: %[[X0:.*]] = ge.gather %[[XW]], %{{.*}} : (tensor<2x1x3xf32>, tensor<i64>) -> tensor<1x3xf32>
// RNN-NEXT: %[[HR0:.*]] = ge.matmul %{{.*}}, %[[RT:.*]] : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<1x3xf32>
// RNN-NEXT: %[[A0:.*]] = ge.add %[[X0]], %[[HR0]] : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// RNN-NEXT: %[[H1:.*]] = ge.tanh %[[A0]] : tensor<1x3xf32>
// RNN: %[[HR1:.*]] = ge.matmul %[[H1]], %[[RT]] : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<1x3xf32>
// RNN: %[[H2:.*]] = ge.tanh %{{.*}} : tensor<1x3xf32>
// RNN: %[[Y:.*]] = ge.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<1x1x1x3xf32>, tensor<1x1x1x3xf32>) -> tensor<2x1x1x3xf32>
// RNN-NEXT: %[[YH:.*]] = ge.reshape %[[H2]] : tensor<1x3xf32> to tensor<1x1x3xf32>
// RNN-NEXT: return %[[Y]], %[[YH]] : tensor<2x1x1x3xf32>, tensor<1x1x3xf32>

// DFT (one-sided, real input): cos/sin matrices in f64 (exact zeros), re = x @ C, im = -(x @ S).
// RUN: %python %S/Inputs/nn_models.py dft_rfft %t.dft_rfft.onnx && ge-import-onnx %t.dft_rfft.onnx | FileCheck %s --check-prefix=DFT
// DFT-LABEL: func.func @dft_rfft(%arg0: tensor<1x4x1xf32> {onnx.name = "x"}) -> (tensor<1x3x2xf32> {onnx.name = "y"}) {
// DFT-NEXT: %[[C:.*]] = ge.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00], [1.000000e+00, -1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00]]> : tensor<4x3xf64>
// DFT-NEXT: %[[S:.*]] = ge.constant dense<{{\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, -1.000000e+00, 0.000000e+00]]> : tensor<4x3xf64>
// DFT: %[[X:.*]] = ge.cast %{{.*}} : tensor<1x4xf32> to tensor<1x4xf64>
// DFT-NEXT: %[[RE:.*]] = ge.matmul %[[X]], %[[C]] : (tensor<1x4xf64>, tensor<4x3xf64>) -> tensor<1x3xf64>
// DFT-NEXT: %[[XS:.*]] = ge.matmul %[[X]], %[[S]] : (tensor<1x4xf64>, tensor<4x3xf64>) -> tensor<1x3xf64>
// DFT-NEXT: %[[IM:.*]] = ge.neg %[[XS]] : tensor<1x3xf64>
// DFT: %[[Y:.*]] = ge.concat %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<1x3x1xf32>, tensor<1x3x1xf32>) -> tensor<1x3x2xf32>
// DFT-NEXT: return %[[Y]] : tensor<1x3x2xf32>

// Det: the Leibniz sum over permutations of the gathered entries.
// RUN: %python %S/Inputs/nn_models.py det_2x2 %t.det_2x2.onnx && ge-import-onnx %t.det_2x2.onnx | FileCheck %s --check-prefix=DET
// DET-LABEL: func.func @det_2x2(%arg0: tensor<2x2xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "y"}) {
// DET: %[[A:.*]] = ge.mul %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// DET-NEXT: %[[B:.*]] = ge.mul %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// DET-NEXT: %[[D:.*]] = ge.sub %[[A]], %[[B]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// DET-NEXT: return %[[D]] : tensor<f32>

// Run-time scales: output sizes floor(size * scale) in f64, then per axis the source
// coordinates and a gather of the rounded index (nearest).
// RUN: %python %S/Inputs/nn_models.py resize_dynamic_scales %t.resize_dynamic_scales.onnx && ge-import-onnx %t.resize_dynamic_scales.onnx | FileCheck %s --check-prefix=RESIZE-DYNAMIC-SCALES
// RESIZE-DYNAMIC-SCALES-LABEL: func.func @resize_dynamic_scales(%arg0: tensor<1x1x2x2xf32> {onnx.name = "x"}, %arg1: tensor<4xf32> {onnx.name = "sc"}) -> (tensor<?x?x?x?xf32> {onnx.name = "y"}) {
// RESIZE-DYNAMIC-SCALES: %[[S0:.*]] = ge.gather %arg1, %{{.*}} : (tensor<4xf32>, tensor<i64>) -> tensor<f32>
// RESIZE-DYNAMIC-SCALES-NEXT: %[[N0:.*]] = ge.cast %{{.*}} : tensor<i64> to tensor<f64>
// RESIZE-DYNAMIC-SCALES-NEXT: %[[S0D:.*]] = ge.cast %[[S0]] : tensor<f32> to tensor<f64>
// RESIZE-DYNAMIC-SCALES-NEXT: %[[P0:.*]] = ge.mul %[[N0]], %[[S0D]] : (tensor<f64>, tensor<f64>) -> tensor<f64>
// RESIZE-DYNAMIC-SCALES-NEXT: %[[F0:.*]] = ge.floor %[[P0]] : tensor<f64>
// RESIZE-DYNAMIC-SCALES-NEXT: %{{.*}} = ge.cast %[[F0]] : tensor<f64> to tensor<i64>
// RESIZE-DYNAMIC-SCALES: ge.gather %arg0, %{{.*}} : (tensor<1x1x2x2xf32>, tensor<?xi64>) -> tensor<?x1x2x2xf32>
// RESIZE-DYNAMIC-SCALES: %[[Y:.*]] = ge.gather %{{.*}}, %{{.*}} {axis = 3 : i64} : (tensor<?x?x?x2xf32>, tensor<?xi64>) -> tensor<?x?x?x?xf32>
// RESIZE-DYNAMIC-SCALES-NEXT: return %[[Y]] : tensor<?x?x?x?xf32>

// RUN: %python %S/Inputs/nn_models.py resize_cubic_exclude_outside %t.resize_cubic_exclude_outside.onnx && not ge-import-onnx %t.resize_cubic_exclude_outside.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE-CUBIC-EXCLUDE-OUTSIDE
// RESIZE-CUBIC-EXCLUDE-OUTSIDE: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// RESIZE-CUBIC-EXCLUDE-OUTSIDE-NEXT: Resize node 'resize0': exclude_outside=1 (renormalized cubic weights at the border) has no ge equivalent

// RUN: %python %S/Inputs/nn_models.py resize_antialias_down %t.resize_antialias_down.onnx && not ge-import-onnx %t.resize_antialias_down.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE-ANTIALIAS-DOWN
// RESIZE-ANTIALIAS-DOWN: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// RESIZE-ANTIALIAS-DOWN-NEXT: Resize node 'resize0': antialias=1 when downsampling (a widened filter) has no ge equivalent

// not_larger with scale 0.25 gives round(2.5) = 3 rows, not floor(10 * 0.25): no ge equivalent.
// RUN: %python %S/Inputs/nn_models.py resize18_aspect_nonintegral %t.resize18_aspect_nonintegral.onnx && not ge-import-onnx %t.resize18_aspect_nonintegral.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE18-ASPECT-NONINTEGRAL
// RESIZE18-ASPECT-NONINTEGRAL: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// RESIZE18-ASPECT-NONINTEGRAL-NEXT: Resize node 'resize0': keep_aspect_ratio_policy=not_larger with a non-integral scaled size (scale 0.25) has no ge equivalent

// RUN: %python %S/Inputs/nn_models.py upsample7_nearest %t.upsample7_nearest.onnx && ge-import-onnx %t.upsample7_nearest.onnx | FileCheck %s --check-prefix=UPSAMPLE7-NEAREST
// UPSAMPLE7-NEAREST-LABEL: func.func @upsample7_nearest(
// UPSAMPLE7-NEAREST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x3xf32> {onnx.name = "x"}) -> (tensor<1x2x6x6xf32> {onnx.name = "y"})
// UPSAMPLE7-NEAREST-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<asymmetric>, nearest_mode = #ge.nearest_mode<floor>, scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32>
// UPSAMPLE7-NEAREST-NEXT: return %[[V0]] : tensor<1x2x6x6xf32>

// RUN: %python %S/Inputs/nn_models.py upsample9_linear %t.upsample9_linear.onnx && ge-import-onnx %t.upsample9_linear.onnx | FileCheck %s --check-prefix=UPSAMPLE9-LINEAR
// UPSAMPLE9-LINEAR-LABEL: func.func @upsample9_linear(
// UPSAMPLE9-LINEAR-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x4xf32> {onnx.name = "x"}) -> (tensor<1x2x6x6xf32> {onnx.name = "y"})
// UPSAMPLE9-LINEAR-NEXT: %[[V0:[^ ,:)]+]] = ge.resize %[[ARG0]] {coordinate_transformation_mode = #ge.coord_transform<asymmetric>, mode = #ge.resize_mode<linear>, scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 1.500000e+00>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x6xf32>
// UPSAMPLE9-LINEAR-NEXT: return %[[V0]] : tensor<1x2x6x6xf32>
