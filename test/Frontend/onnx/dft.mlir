// Lit tests of the ONNX importer's DFT converter (ge_mlir/frontend/onnx/ops/dft.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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
