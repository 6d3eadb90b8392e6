// Lit tests of the ONNX importer's pooling converters (ge_mlir/frontend/onnx/ops/pool.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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
