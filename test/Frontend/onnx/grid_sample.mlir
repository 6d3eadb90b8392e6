// Lit tests of the ONNX importer's GridSample converter (ge_mlir/frontend/onnx/ops/grid_sample.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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
