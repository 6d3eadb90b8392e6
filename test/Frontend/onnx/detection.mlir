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

// RoiAlign: per roi the bins' sample points (y: [R, PH, 1, S, 1], x: [R, 1, PW, 1, S]), clamped as the
// reference does, four gathered corners of the roi's image rows, the weighted sum averaged over the
// S x S points, then [R, C, PH, PW].
// RUN: %python %S/Inputs/detection_models.py roi_align %t.roi.onnx && ge-import-onnx %t.roi.onnx | FileCheck %s --check-prefix=ROI
// ROI-LABEL: func.func @roi_align(%arg0: tensor<2x3x8x10xf32> {onnx.name = "x"}, %arg1: tensor<5x4xf32> {onnx.name = "rois"}, %arg2: tensor<5xi64> {onnx.name = "batch"}) -> (tensor<5x3x3x4xf32> {onnx.name = "y"}) {
// ROI: ge.floor %{{.*}} : tensor<5x3x1x2x1xf32>
// ROI: ge.floor %{{.*}} : tensor<5x1x4x1x2xf32>
// ROI: ge.transpose %{{.*}} {perm = array<i64: 0, 2, 1>} : (tensor<5x3x80xf32>) -> tensor<5x80x3xf32>
// ROI: %[[SUM:.*]] = ge.reduce_sum %{{.*}} {axes = array<i64: 3, 4>, keepdims = false} : (tensor<5x3x4x2x2x3xf32>) -> tensor<5x3x4x3xf32>
// ROI-NEXT: %[[N:.*]] = ge.constant dense<4.000000e+00> : tensor<f32>
// ROI-NEXT: %[[AVG:.*]] = ge.div %[[SUM]], %[[N]] : (tensor<5x3x4x3xf32>, tensor<f32>) -> tensor<5x3x4x3xf32>
// ROI-NEXT: %[[Y:.*]] = ge.transpose %[[AVG]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<5x3x4x3xf32>) -> tensor<5x3x3x4xf32>
// ROI-NEXT: return %[[Y]] : tensor<5x3x3x4xf32>

// DeformConv: each input channel's tap points (its offset group's offsets on the strided, dilated,
// padded grid), read bilinearly with zeros outside, times the mask; one grouped matmul, plus bias.
// RUN: %python %S/Inputs/detection_models.py deform_conv %t.dc.onnx && ge-import-onnx %t.dc.onnx | FileCheck %s --check-prefix=DEFORM
// DEFORM-LABEL: func.func @deform_conv(%arg0: tensor<2x4x7x6xf32> {onnx.name = "x"}, %arg1: tensor<6x2x3x2xf32> {onnx.name = "w"}, %arg2: tensor<2x24x4x6xf32> {onnx.name = "offset"}, %arg3: tensor<6xf32> {onnx.name = "b"}, %arg4: tensor<2x12x4x6xf32> {onnx.name = "mask"}) -> (tensor<2x6x4x6xf32> {onnx.name = "y"}) {
// DEFORM: ge.floor %{{.*}} : tensor<2x4x3x2x4x6xf32>
// DEFORM: %[[MM:.*]] = ge.matmul %{{.*}}, %{{.*}} : (tensor<1x2x3x12xf32>, tensor<2x2x12x24xf32>) -> tensor<2x2x3x24xf32>
// DEFORM-NEXT: %[[Y:.*]] = ge.reshape %[[MM]] : tensor<2x2x3x24xf32> to tensor<2x6x4x6xf32>
// DEFORM-NEXT: %[[B:.*]] = ge.reshape %arg3 : tensor<6xf32> to tensor<1x6x1x1xf32>
// DEFORM-NEXT: %[[OUT:.*]] = ge.add %[[Y]], %[[B]] : (tensor<2x6x4x6xf32>, tensor<1x6x1x1xf32>) -> tensor<2x6x4x6xf32>
// DEFORM-NEXT: return %[[OUT]] : tensor<2x6x4x6xf32>
