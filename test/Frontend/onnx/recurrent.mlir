// Lit tests of the ONNX importer's recurrent converters (RNN, GRU, LSTM) (ge_mlir/frontend/onnx/ops/recurrent.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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
