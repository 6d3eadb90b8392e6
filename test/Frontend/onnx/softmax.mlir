// Lit tests of the ONNX importer's softmax-family converters (ge_mlir/frontend/onnx/ops/softmax.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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
