// Lit tests of the ONNX importer's Resize/Upsample converters (ge_mlir/frontend/onnx/ops/resize.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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

