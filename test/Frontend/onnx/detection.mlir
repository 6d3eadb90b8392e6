// NonMaxSuppression: boxes in descending score order (a stable top_k), the greedy choice as a
// fixpoint in an scf.while over the [B, C, N] keep mask, the per-class limit as a running count,
// and the [batch, class, box] triples of the kept boxes ([?, 3]).
// RUN: %python %S/Inputs/detection_models.py nms_small %t.nms.onnx && ge-import-onnx %t.nms.onnx | FileCheck %s
// CHECK-LABEL: func.func @nms(%arg0: tensor<1x4x4xf32> {onnx.name = "boxes"}, %arg1: tensor<1x1x4xf32> {onnx.name = "scores"}, %arg2: tensor<1xi64> {onnx.name = "max_out"}, %arg3: tensor<1xf32> {onnx.name = "iou"}, %arg4: tensor<1xf32> {onnx.name = "score_thr"}) -> (tensor<?x3xi64> {onnx.name = "selected"}) {
// CHECK: %{{.*}}, %[[ORDER:.*]] = ge.top_k %arg1 {axis = 2 : i64, k = 4 : i64} : (tensor<1x1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xi64>)
// CHECK: %[[W:.*]]:3 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<i64>, tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> (tensor<i64>, tensor<1x1x4xi1>, tensor<1x1x4xi1>) {
// CHECK: ge.xor
// CHECK: scf.condition
// CHECK: } do {
// CHECK: ge.reduce_max %{{.*}} {axes = array<i64: 3>, keepdims = false} : (tensor<1x1x4x4xi64>) -> tensor<1x1x4xi64>
// CHECK: scf.yield
// CHECK: %[[CNT:.*]] = ge.cumsum %{{.*}} {axis = 2 : i64} : tensor<1x1x4xi64>
// CHECK-NEXT: %[[LIM:.*]] = ge.less_equal %[[CNT]], %{{.*}} : (tensor<1x1x4xi64>, tensor<i64>) -> tensor<1x1x4xi1>
// CHECK: %[[OUT:.*]] = ge.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<?x1xi64>, tensor<?x1xi64>, tensor<?x1xi64>) -> tensor<?x3xi64>
// CHECK-NEXT: return %[[OUT]] : tensor<?x3xi64>
