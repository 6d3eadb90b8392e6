// Lit tests of the ONNX importer's misc converters (ge_mlir/frontend/onnx/ops/misc.py).
//
// Every RUN line builds one small model with Inputs/misc_models.py (its opset is
// given there, next to the model) and imports it with ge-import-onnx; the
// checks pin the emitted ge ops, their attributes and result types. Models the
// importer must refuse are imported with `not` and their error is checked.
// test/python/frontend/test_onnx_misc.py imports the same models in-process,
// compares the result types with onnxruntime's and replays the ge ops in numpy.

//===--------------------------------------------------------------------------===//
// Constant: the numeric forms are folded by the importer; sparse and string values are refused
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/misc_models.py constant_sparse %t.constant_sparse.onnx && not ge-import-onnx %t.constant_sparse.onnx 2>&1 | FileCheck %s --check-prefix=CONSTANT-SPARSE
// CONSTANT-SPARSE: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// CONSTANT-SPARSE-NEXT: Constant node 'constant0': sparse_value (a sparse tensor constant) is not imported: ge constants are dense; densify the constant in the model

// RUN: %python %S/Inputs/misc_models.py constant_string %t.constant_string.onnx && not ge-import-onnx %t.constant_string.onnx 2>&1 | FileCheck %s --check-prefix=CONSTANT-STRING
// CONSTANT-STRING: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// CONSTANT-STRING-NEXT: Constant node 'constant0': string constants (value_string/value_strings) have no ge element type

//===--------------------------------------------------------------------------===//
// Asinh / Acosh / Atanh: log/sqrt identities
//===--------------------------------------------------------------------------===//

// asinh = sign(x) log(|x| + sqrt(x^2 + 1)); acosh = log(x + sqrt((x - 1)(x + 1))); atanh = 0.5 log((1 + x) / (1 - x)).
// RUN: %python %S/Inputs/misc_models.py inv_hyperbolic %t.inv_hyperbolic.onnx && ge-import-onnx %t.inv_hyperbolic.onnx | FileCheck %s --check-prefix=INV-HYPERBOLIC
// INV-HYPERBOLIC-LABEL: func.func @inv_hyperbolic(
// INV-HYPERBOLIC-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "b"}, %[[ARG2:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "c"}) -> (tensor<2x3xf32> {onnx.name = "ya"}, tensor<2x3xf32> {onnx.name = "yb"}, tensor<2x3xf32> {onnx.name = "yc"})
// INV-HYPERBOLIC-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<f32>
// INV-HYPERBOLIC-NEXT: %[[V0:[^ ,:)]+]] = ge.sign %[[ARG0]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V1:[^ ,:)]+]] = ge.abs %[[ARG0]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V2:[^ ,:)]+]] = ge.mul %[[ARG0]], %[[ARG0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V3:[^ ,:)]+]] = ge.add %[[V2]], %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V4:[^ ,:)]+]] = ge.sqrt %[[V3]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V5:[^ ,:)]+]] = ge.add %[[V1]], %[[V4]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V6:[^ ,:)]+]] = ge.log %[[V5]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V7:[^ ,:)]+]] = ge.mul %[[V0]], %[[V6]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<f32>
// INV-HYPERBOLIC-NEXT: %[[V8:[^ ,:)]+]] = ge.sub %[[ARG1]], %[[C1]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V9:[^ ,:)]+]] = ge.add %[[ARG1]], %[[C1]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V10:[^ ,:)]+]] = ge.mul %[[V8]], %[[V9]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V11:[^ ,:)]+]] = ge.sqrt %[[V10]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V12:[^ ,:)]+]] = ge.add %[[ARG1]], %[[V11]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V13:[^ ,:)]+]] = ge.log %[[V12]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<1.000000e+00> : tensor<f32>
// INV-HYPERBOLIC-NEXT: %[[C3:[^ ,:)]+]] = ge.constant dense<5.000000e-01> : tensor<f32>
// INV-HYPERBOLIC-NEXT: %[[V14:[^ ,:)]+]] = ge.add %[[C2]], %[[ARG2]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V15:[^ ,:)]+]] = ge.sub %[[C2]], %[[ARG2]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V16:[^ ,:)]+]] = ge.div %[[V14]], %[[V15]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V17:[^ ,:)]+]] = ge.log %[[V16]] : tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: %[[V18:[^ ,:)]+]] = ge.mul %[[C3]], %[[V17]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INV-HYPERBOLIC-NEXT: return %[[V7]], %[[V13]], %[[V18]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>

//===--------------------------------------------------------------------------===//
// GlobalLpPool / LpPool: |x|^p, window sums as avg_pool2d(count_include_pad) * kernel area, ^(1/p)
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/misc_models.py global_lp_pool_p3 %t.global_lp_pool_p3.onnx && ge-import-onnx %t.global_lp_pool_p3.onnx | FileCheck %s --check-prefix=GLOBAL-LP-POOL-P3
// GLOBAL-LP-POOL-P3-LABEL: func.func @global_lp_pool_p3(
// GLOBAL-LP-POOL-P3-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x5xf32> {onnx.name = "x"}) -> (tensor<2x3x1x1xf32> {onnx.name = "y"})
// GLOBAL-LP-POOL-P3-NEXT: %[[V0:[^ ,:)]+]] = ge.abs %[[ARG0]] : tensor<2x3x4x5xf32>
// GLOBAL-LP-POOL-P3-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<3.000000e+00> : tensor<f32>
// GLOBAL-LP-POOL-P3-NEXT: %[[V1:[^ ,:)]+]] = ge.pow %[[V0]], %[[C0]] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<2x3x4x5xf32>
// GLOBAL-LP-POOL-P3-NEXT: %[[V2:[^ ,:)]+]] = ge.reduce_sum %[[V1]] {axes = array<i64: 2, 3>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
// GLOBAL-LP-POOL-P3-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<0.333333343> : tensor<f32>
// GLOBAL-LP-POOL-P3-NEXT: %[[V3:[^ ,:)]+]] = ge.pow %[[V2]], %[[C1]] : (tensor<2x3x1x1xf32>, tensor<f32>) -> tensor<2x3x1x1xf32>
// GLOBAL-LP-POOL-P3-NEXT: return %[[V3]] : tensor<2x3x1x1xf32>

// p = 2 is reduce_l2.
// RUN: %python %S/Inputs/misc_models.py global_lp_pool_p2 %t.global_lp_pool_p2.onnx && ge-import-onnx %t.global_lp_pool_p2.onnx | FileCheck %s --check-prefix=GLOBAL-LP-POOL-P2
// GLOBAL-LP-POOL-P2-LABEL: func.func @global_lp_pool_p2(
// GLOBAL-LP-POOL-P2-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x3x3xf32> {onnx.name = "x"}) -> (tensor<1x2x1x1xf32> {onnx.name = "y"})
// GLOBAL-LP-POOL-P2-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_l2 %[[ARG0]] {axes = array<i64: 2, 3>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32>
// GLOBAL-LP-POOL-P2-NEXT: return %[[V0]] : tensor<1x2x1x1xf32>

// p = 2: x * x, the 3x2 window sum (avg * 6), sqrt.
// RUN: %python %S/Inputs/misc_models.py lp_pool %t.lp_pool.onnx && ge-import-onnx %t.lp_pool.onnx | FileCheck %s --check-prefix=LP-POOL
// LP-POOL-LABEL: func.func @lp_pool(
// LP-POOL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x6x7xf32> {onnx.name = "x"}) -> (tensor<1x2x3x4xf32> {onnx.name = "y"})
// LP-POOL-NEXT: %[[V0:[^ ,:)]+]] = ge.mul %[[ARG0]], %[[ARG0]] : (tensor<1x2x6x7xf32>, tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32>
// LP-POOL-NEXT: %[[V1:[^ ,:)]+]] = ge.avg_pool2d %[[V0]] {count_include_pad = true, kernel_shape = array<i64: 3, 2>, pads = array<i64: 1, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x6x7xf32>) -> tensor<1x2x3x4xf32>
// LP-POOL-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<6.000000e+00> : tensor<f32>
// LP-POOL-NEXT: %[[V2:[^ ,:)]+]] = ge.mul %[[V1]], %[[C0]] : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// LP-POOL-NEXT: %[[V3:[^ ,:)]+]] = ge.sqrt %[[V2]] : tensor<1x2x3x4xf32>
// LP-POOL-NEXT: return %[[V3]] : tensor<1x2x3x4xf32>

// 1-D through [N, C, 1, W]; SAME_UPPER pads resolved (7 -> 4 with stride 2: 1 + 1).
// RUN: %python %S/Inputs/misc_models.py lp_pool_1d_p3 %t.lp_pool_1d_p3.onnx && ge-import-onnx %t.lp_pool_1d_p3.onnx | FileCheck %s --check-prefix=LP-POOL-1D-P3
// LP-POOL-1D-P3-LABEL: func.func @lp_pool_1d_p3(
// LP-POOL-1D-P3-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x7xf32> {onnx.name = "x"}) -> (tensor<2x3x4xf32> {onnx.name = "y"})
// LP-POOL-1D-P3-NEXT: %[[V0:[^ ,:)]+]] = ge.unsqueeze %[[ARG0]] {axes = array<i64: 2>} : (tensor<2x3x7xf32>) -> tensor<2x3x1x7xf32>
// LP-POOL-1D-P3-NEXT: %[[V1:[^ ,:)]+]] = ge.abs %[[V0]] : tensor<2x3x1x7xf32>
// LP-POOL-1D-P3-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<3.000000e+00> : tensor<f32>
// LP-POOL-1D-P3-NEXT: %[[V2:[^ ,:)]+]] = ge.pow %[[V1]], %[[C0]] : (tensor<2x3x1x7xf32>, tensor<f32>) -> tensor<2x3x1x7xf32>
// LP-POOL-1D-P3-NEXT: %[[V3:[^ ,:)]+]] = ge.avg_pool2d %[[V2]] {count_include_pad = true, kernel_shape = array<i64: 1, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 1, 2>} : (tensor<2x3x1x7xf32>) -> tensor<2x3x1x4xf32>
// LP-POOL-1D-P3-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<3.000000e+00> : tensor<f32>
// LP-POOL-1D-P3-NEXT: %[[V4:[^ ,:)]+]] = ge.mul %[[V3]], %[[C1]] : (tensor<2x3x1x4xf32>, tensor<f32>) -> tensor<2x3x1x4xf32>
// LP-POOL-1D-P3-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<0.333333343> : tensor<f32>
// LP-POOL-1D-P3-NEXT: %[[V5:[^ ,:)]+]] = ge.pow %[[V4]], %[[C2]] : (tensor<2x3x1x4xf32>, tensor<f32>) -> tensor<2x3x1x4xf32>
// LP-POOL-1D-P3-NEXT: %[[V6:[^ ,:)]+]] = ge.squeeze %[[V5]] {axes = array<i64: 2>} : (tensor<2x3x1x4xf32>) -> tensor<2x3x4xf32>
// LP-POOL-1D-P3-NEXT: return %[[V6]] : tensor<2x3x4xf32>

// RUN: %python %S/Inputs/misc_models.py lp_pool_dilations %t.lp_pool_dilations.onnx && not ge-import-onnx %t.lp_pool_dilations.onnx 2>&1 | FileCheck %s --check-prefix=LP-POOL-DILATIONS
// LP-POOL-DILATIONS: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// LP-POOL-DILATIONS-NEXT: LpPool node 'lppool0': dilations [2, 2] are not supported: the window sum is built from ge.avg_pool2d (count_include_pad) times the kernel area, defined here for undilated windows only

//===--------------------------------------------------------------------------===//
// QuantizeLinear / DequantizeLinear: constant per-tensor / per-axis parameters
//===--------------------------------------------------------------------------===//

// No zero point: uint8, round half to even, saturate to [0, 255].
// RUN: %python %S/Inputs/misc_models.py quantize_uint8 %t.quantize_uint8.onnx && ge-import-onnx %t.quantize_uint8.onnx | FileCheck %s --check-prefix=QUANTIZE-UINT8
// QUANTIZE-UINT8-LABEL: func.func @quantize_uint8(
// QUANTIZE-UINT8-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xui8> {onnx.name = "y"})
// QUANTIZE-UINT8-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<2.000000e-02> : tensor<f32>
// QUANTIZE-UINT8-NEXT: %[[V0:[^ ,:)]+]] = ge.div %[[ARG0]], %[[C0]] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// QUANTIZE-UINT8-NEXT: %[[V1:[^ ,:)]+]] = ge.round %[[V0]] : tensor<2x3x4xf32>
// QUANTIZE-UINT8-NEXT: %[[V2:[^ ,:)]+]] = ge.clip %[[V1]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<2x3x4xf32>
// QUANTIZE-UINT8-NEXT: %[[V3:[^ ,:)]+]] = ge.cast %[[V2]] : tensor<2x3x4xf32> to tensor<2x3x4xui8>
// QUANTIZE-UINT8-NEXT: return %[[V3]] : tensor<2x3x4xui8>

// Per-axis (axis 1): scale and zero point reshaped to [1, 3, 1].
// RUN: %python %S/Inputs/misc_models.py quantize_int8_axis %t.quantize_int8_axis.onnx && ge-import-onnx %t.quantize_int8_axis.onnx | FileCheck %s --check-prefix=QUANTIZE-INT8-AXIS
// QUANTIZE-INT8-AXIS-LABEL: func.func @quantize_int8_axis(
// QUANTIZE-INT8-AXIS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "x"}) -> (tensor<2x3x4xi8> {onnx.name = "y"})
// QUANTIZE-INT8-AXIS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<1x3x1xf32>
// QUANTIZE-INT8-AXIS-NEXT: %[[V0:[^ ,:)]+]] = ge.div %[[ARG0]], %[[C0]] : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// QUANTIZE-INT8-AXIS-NEXT: %[[V1:[^ ,:)]+]] = ge.round %[[V0]] : tensor<2x3x4xf32>
// QUANTIZE-INT8-AXIS-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<1x3x1xf32>
// QUANTIZE-INT8-AXIS-NEXT: %[[V2:[^ ,:)]+]] = ge.add %[[V1]], %[[C1]] : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// QUANTIZE-INT8-AXIS-NEXT: %[[V3:[^ ,:)]+]] = ge.clip %[[V2]] {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<2x3x4xf32>
// QUANTIZE-INT8-AXIS-NEXT: %[[V4:[^ ,:)]+]] = ge.cast %[[V3]] : tensor<2x3x4xf32> to tensor<2x3x4xi8>
// QUANTIZE-INT8-AXIS-NEXT: return %[[V4]] : tensor<2x3x4xi8>

// output_dtype without a zero point (opset 21).
// RUN: %python %S/Inputs/misc_models.py quantize_int16_output_dtype %t.quantize_int16_output_dtype.onnx && ge-import-onnx %t.quantize_int16_output_dtype.onnx | FileCheck %s --check-prefix=QUANTIZE-INT16-OUTPUT-DTYPE
// QUANTIZE-INT16-OUTPUT-DTYPE-LABEL: func.func @quantize_int16_output_dtype(
// QUANTIZE-INT16-OUTPUT-DTYPE-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x4xi16> {onnx.name = "y"})
// QUANTIZE-INT16-OUTPUT-DTYPE-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<9.99999974E-5> : tensor<f32>
// QUANTIZE-INT16-OUTPUT-DTYPE-NEXT: %[[V0:[^ ,:)]+]] = ge.div %[[ARG0]], %[[C0]] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
// QUANTIZE-INT16-OUTPUT-DTYPE-NEXT: %[[V1:[^ ,:)]+]] = ge.round %[[V0]] : tensor<3x4xf32>
// QUANTIZE-INT16-OUTPUT-DTYPE-NEXT: %[[V2:[^ ,:)]+]] = ge.clip %[[V1]] {max = 3.276700e+04 : f64, min = -3.276800e+04 : f64} : tensor<3x4xf32>
// QUANTIZE-INT16-OUTPUT-DTYPE-NEXT: %[[V3:[^ ,:)]+]] = ge.cast %[[V2]] : tensor<3x4xf32> to tensor<3x4xi16>
// QUANTIZE-INT16-OUTPUT-DTYPE-NEXT: return %[[V3]] : tensor<3x4xi16>

// Blocked scales and zero points (block_size=2 along axis 1) are repeated to the input's shape.
// RUN: %python %S/Inputs/misc_models.py quantize_block %t.quantize_block.onnx && ge-import-onnx %t.quantize_block.onnx | FileCheck %s --check-prefix=QUANTIZE-BLOCK
// QUANTIZE-BLOCK-LABEL: func.func @quantize_block(%arg0: tensor<2x4xf32> {onnx.name = "x"}) -> (tensor<2x4xi8> {onnx.name = "y"}) {
// QUANTIZE-BLOCK-NEXT: %[[S:.*]] = ge.constant dense<{{\[}}[1.000000e-01, 1.000000e-01, 2.000000e-01, 2.000000e-01], [3.000000e-01, 3.000000e-01, 4.000000e-01, 4.000000e-01]]> : tensor<2x4xf32>
// QUANTIZE-BLOCK-NEXT: %[[D:.*]] = ge.div %arg0, %[[S]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// QUANTIZE-BLOCK-NEXT: %[[R:.*]] = ge.round %[[D]] : tensor<2x4xf32>
// QUANTIZE-BLOCK-NEXT: %[[Z:.*]] = ge.constant dense<{{\[}}[0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00, 3.000000e+00, 3.000000e+00]]> : tensor<2x4xf32>
// QUANTIZE-BLOCK-NEXT: %[[A:.*]] = ge.add %[[R]], %[[Z]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// QUANTIZE-BLOCK-NEXT: %[[C:.*]] = ge.clip %[[A]] {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<2x4xf32>
// QUANTIZE-BLOCK-NEXT: %[[Q:.*]] = ge.cast %[[C]] : tensor<2x4xf32> to tensor<2x4xi8>
// QUANTIZE-BLOCK-NEXT: return %[[Q]] : tensor<2x4xi8>

// float8: x / scale saturated to the type's range (no zero point), then rounded; and back.
// RUN: %python %S/Inputs/misc_models.py quantize_float8 %t.quantize_float8.onnx && ge-import-onnx %t.quantize_float8.onnx | FileCheck %s --check-prefix=QUANTIZE-FLOAT8
// QUANTIZE-FLOAT8-LABEL: func.func @quantize_float8(%arg0: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "y"}) {
// QUANTIZE-FLOAT8-NEXT: %[[S:.*]] = ge.constant dense<5.000000e-01> : tensor<f32>
// QUANTIZE-FLOAT8-NEXT: %[[D:.*]] = ge.div %arg0, %[[S]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// QUANTIZE-FLOAT8-NEXT: %[[C:.*]] = ge.clip %[[D]] {max = 4.480000e+02 : f64, min = -4.480000e+02 : f64} : tensor<4xf32>
// QUANTIZE-FLOAT8-NEXT: %[[Q:.*]] = ge.cast %[[C]] : tensor<4xf32> to tensor<4xf8E4M3FN>
// QUANTIZE-FLOAT8-NEXT: %[[F:.*]] = ge.cast %[[Q]] : tensor<4xf8E4M3FN> to tensor<4xf32>
// QUANTIZE-FLOAT8-NEXT: %[[S2:.*]] = ge.constant dense<5.000000e-01> : tensor<f32>
// QUANTIZE-FLOAT8-NEXT: %[[Y:.*]] = ge.mul %[[F]], %[[S2]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// QUANTIZE-FLOAT8-NEXT: return %[[Y]] : tensor<4xf32>

// A scale given at run time is an operand (compiled once).
// RUN: %python %S/Inputs/misc_models.py quantize_runtime_scale %t.quantize_runtime_scale.onnx && ge-import-onnx %t.quantize_runtime_scale.onnx | FileCheck %s --check-prefix=QUANTIZE-RUNTIME-SCALE
// QUANTIZE-RUNTIME-SCALE-LABEL: func.func @quantize_runtime_scale(%arg0: tensor<4xf32> {onnx.name = "x"}, %arg1: tensor<f32> {onnx.name = "s"}) -> (tensor<4xui8> {onnx.name = "y"}) {
// QUANTIZE-RUNTIME-SCALE-NEXT: %[[Q:.*]] = ge.div %arg0, %arg1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// QUANTIZE-RUNTIME-SCALE-NEXT: %[[R:.*]] = ge.round %[[Q]] : tensor<4xf32>
// QUANTIZE-RUNTIME-SCALE-NEXT: %[[C:.*]] = ge.clip %[[R]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<4xf32>
// QUANTIZE-RUNTIME-SCALE-NEXT: %[[Y:.*]] = ge.cast %[[C]] : tensor<4xf32> to tensor<4xui8>
// QUANTIZE-RUNTIME-SCALE-NEXT: return %[[Y]] : tensor<4xui8>

// (f32(x) - zero_point) * scale.
// RUN: %python %S/Inputs/misc_models.py dequantize_uint8 %t.dequantize_uint8.onnx && ge-import-onnx %t.dequantize_uint8.onnx | FileCheck %s --check-prefix=DEQUANTIZE-UINT8
// DEQUANTIZE-UINT8-LABEL: func.func @dequantize_uint8(
// DEQUANTIZE-UINT8-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x5xui8> {onnx.name = "x"}) -> (tensor<2x5xf32> {onnx.name = "y"})
// DEQUANTIZE-UINT8-NEXT: %[[V0:[^ ,:)]+]] = ge.cast %[[ARG0]] : tensor<2x5xui8> to tensor<2x5xf32>
// DEQUANTIZE-UINT8-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<1.280000e+02> : tensor<f32>
// DEQUANTIZE-UINT8-NEXT: %[[V1:[^ ,:)]+]] = ge.sub %[[V0]], %[[C0]] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x5xf32>
// DEQUANTIZE-UINT8-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<1.000000e-01> : tensor<f32>
// DEQUANTIZE-UINT8-NEXT: %[[V2:[^ ,:)]+]] = ge.mul %[[V1]], %[[C1]] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x5xf32>
// DEQUANTIZE-UINT8-NEXT: return %[[V2]] : tensor<2x5xf32>

// axis = -2 on a rank-3 input.
// RUN: %python %S/Inputs/misc_models.py dequantize_int8_axis %t.dequantize_int8_axis.onnx && ge-import-onnx %t.dequantize_int8_axis.onnx | FileCheck %s --check-prefix=DEQUANTIZE-INT8-AXIS
// DEQUANTIZE-INT8-AXIS-LABEL: func.func @dequantize_int8_axis(
// DEQUANTIZE-INT8-AXIS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x2xi8> {onnx.name = "x"}) -> (tensor<2x3x2xf32> {onnx.name = "y"})
// DEQUANTIZE-INT8-AXIS-NEXT: %[[V0:[^ ,:)]+]] = ge.cast %[[ARG0]] : tensor<2x3x2xi8> to tensor<2x3x2xf32>
// DEQUANTIZE-INT8-AXIS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<1x3x1xf32>
// DEQUANTIZE-INT8-AXIS-NEXT: %[[V1:[^ ,:)]+]] = ge.sub %[[V0]], %[[C0]] : (tensor<2x3x2xf32>, tensor<1x3x1xf32>) -> tensor<2x3x2xf32>
// DEQUANTIZE-INT8-AXIS-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<1x3x1xf32>
// DEQUANTIZE-INT8-AXIS-NEXT: %[[V2:[^ ,:)]+]] = ge.mul %[[V1]], %[[C1]] : (tensor<2x3x2xf32>, tensor<1x3x1xf32>) -> tensor<2x3x2xf32>
// DEQUANTIZE-INT8-AXIS-NEXT: return %[[V2]] : tensor<2x3x2xf32>

// RUN: %python %S/Inputs/misc_models.py dequantize_int32 %t.dequantize_int32.onnx && ge-import-onnx %t.dequantize_int32.onnx | FileCheck %s --check-prefix=DEQUANTIZE-INT32
// DEQUANTIZE-INT32-LABEL: func.func @dequantize_int32(
// DEQUANTIZE-INT32-SAME: %[[ARG0:[^ ,:)]+]]: tensor<6xi32> {onnx.name = "x"}) -> (tensor<6xf32> {onnx.name = "y"})
// DEQUANTIZE-INT32-NEXT: %[[V0:[^ ,:)]+]] = ge.cast %[[ARG0]] : tensor<6xi32> to tensor<6xf32>
// DEQUANTIZE-INT32-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<1.250000e-01> : tensor<f32>
// DEQUANTIZE-INT32-NEXT: %[[V1:[^ ,:)]+]] = ge.mul %[[V0]], %[[C0]] : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
// DEQUANTIZE-INT32-NEXT: return %[[V1]] : tensor<6xf32>

//===--------------------------------------------------------------------------===//
// HannWindow / HammingWindow / BlackmanWindow: a constant size makes a constant
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/misc_models.py hann_window %t.hann_window.onnx && ge-import-onnx %t.hann_window.onnx | FileCheck %s --check-prefix=HANN-WINDOW
// HANN-WINDOW-LABEL: func.func @hann_window(
// HANN-WINDOW-SAME: ) -> (tensor<8xf32> {onnx.name = "y"})
// HANN-WINDOW-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<[0.000000e+00, 0.146446615, 5.000000e-01, 0.853553414, 1.000000e+00, 0.853553354, 5.000000e-01, 0.146446496]> : tensor<8xf32>
// HANN-WINDOW-NEXT: return %[[C0]] : tensor<8xf32>

// periodic = 0 (divides by N - 1), f64 output.
// RUN: %python %S/Inputs/misc_models.py hamming_window_symmetric_f64 %t.hamming_window_symmetric_f64.onnx && ge-import-onnx %t.hamming_window_symmetric_f64.onnx | FileCheck %s --check-prefix=HAMMING-WINDOW-SYMMETRIC-F64
// HAMMING-WINDOW-SYMMETRIC-F64-LABEL: func.func @hamming_window_symmetric_f64(
// HAMMING-WINDOW-SYMMETRIC-F64-SAME: ) -> (tensor<6xf64> {onnx.name = "y"})
// HAMMING-WINDOW-SYMMETRIC-F64-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<[0.08695652173913{{[0-9]*}}, 0.402405285176654{{[0-9]*}}, 0.912812106127693{{[0-9]*}}, 0.912812106127693{{[0-9]*}}, 0.402405285176654{{[0-9]*}}, 0.08695652173913{{[0-9]*}}]> : tensor<6xf64>
// HAMMING-WINDOW-SYMMETRIC-F64-NEXT: return %[[C0]] : tensor<6xf64>

// RUN: %python %S/Inputs/misc_models.py blackman_window %t.blackman_window.onnx && ge-import-onnx %t.blackman_window.onnx | FileCheck %s --check-prefix=BLACKMAN-WINDOW
// BLACKMAN-WINDOW-LABEL: func.func @blackman_window(
// BLACKMAN-WINDOW-SAME: ) -> (tensor<5xf32> {onnx.name = "y"})
// BLACKMAN-WINDOW-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<[0.000000e+00, 0.20077014, 0.849229872, 0.849229872, 0.20077014]> : tensor<5xf32>
// BLACKMAN-WINDOW-NEXT: return %[[C0]] : tensor<5xf32>

// A run-time size: the formula in ge ops over a ge.range (? dim).
// RUN: %python %S/Inputs/misc_models.py window_runtime_size %t.window_runtime_size.onnx && ge-import-onnx %t.window_runtime_size.onnx | FileCheck %s --check-prefix=WINDOW-RUNTIME-SIZE
// WINDOW-RUNTIME-SIZE-LABEL: func.func @window_runtime_size(%arg0: tensor<i64> {onnx.name = "n"}) -> (tensor<?xf32> {onnx.name = "y"}) {
// WINDOW-RUNTIME-SIZE-NEXT: %[[N:.*]] = ge.cast %arg0 : tensor<i64> to tensor<f32>
// WINDOW-RUNTIME-SIZE: %[[R:.*]] = ge.range %{{.*}}, %arg0, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// WINDOW-RUNTIME-SIZE-NEXT: %[[I:.*]] = ge.cast %[[R]] : tensor<?xi64> to tensor<?xf32>
// WINDOW-RUNTIME-SIZE-NEXT: %[[PI:.*]] = ge.constant dense<3.14159274> : tensor<f32>
// WINDOW-RUNTIME-SIZE-NEXT: %[[A:.*]] = ge.mul %[[I]], %[[PI]] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
// WINDOW-RUNTIME-SIZE-NEXT: %[[B:.*]] = ge.div %[[A]], %[[N]] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
// WINDOW-RUNTIME-SIZE-NEXT: %[[S:.*]] = ge.sin %[[B]] : tensor<?xf32>
// WINDOW-RUNTIME-SIZE-NEXT: %[[Y:.*]] = ge.mul %[[S]], %[[S]] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// WINDOW-RUNTIME-SIZE-NEXT: return %[[Y]] : tensor<?xf32>

//===--------------------------------------------------------------------------===//
// CenterCropPad: centered slice and/or zero pad per axis
//===--------------------------------------------------------------------------===//

// Axis 1 cropped 7 -> 4 (start 1), axis 2 padded 3 -> 6 (1 before, 2 after).
// RUN: %python %S/Inputs/misc_models.py center_crop_pad %t.center_crop_pad.onnx && ge-import-onnx %t.center_crop_pad.onnx | FileCheck %s --check-prefix=CENTER-CROP-PAD
// CENTER-CROP-PAD-LABEL: func.func @center_crop_pad(
// CENTER-CROP-PAD-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x7x3xf32> {onnx.name = "x"}) -> (tensor<2x4x6xf32> {onnx.name = "y"})
// CENTER-CROP-PAD-NEXT: %[[V0:[^ ,:)]+]] = ge.slice %[[ARG0]] {axes = array<i64: 1>, ends = array<i64: 5>, starts = array<i64: 1>} : (tensor<2x7x3xf32>) -> tensor<2x4x3xf32>
// CENTER-CROP-PAD-NEXT: %[[V1:[^ ,:)]+]] = ge.pad %[[V0]] {pads = array<i64: 0, 0, 1, 0, 0, 2>} : (tensor<2x4x3xf32>) -> tensor<2x4x6xf32>
// CENTER-CROP-PAD-NEXT: return %[[V1]] : tensor<2x4x6xf32>

// axes = [-1, 0]: axis 2 cropped 4 -> 1 (start 1), axis 0 padded 3 -> 6 (1 + 2).
// RUN: %python %S/Inputs/misc_models.py center_crop_pad_axes %t.center_crop_pad_axes.onnx && ge-import-onnx %t.center_crop_pad_axes.onnx | FileCheck %s --check-prefix=CENTER-CROP-PAD-AXES
// CENTER-CROP-PAD-AXES-LABEL: func.func @center_crop_pad_axes(
// CENTER-CROP-PAD-AXES-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x5x4xi32> {onnx.name = "x"}) -> (tensor<6x5x1xi32> {onnx.name = "y"})
// CENTER-CROP-PAD-AXES-NEXT: %[[V0:[^ ,:)]+]] = ge.slice %[[ARG0]] {axes = array<i64: 2>, ends = array<i64: 2>, starts = array<i64: 1>} : (tensor<3x5x4xi32>) -> tensor<3x5x1xi32>
// CENTER-CROP-PAD-AXES-NEXT: %[[V1:[^ ,:)]+]] = ge.pad %[[V0]] {pads = array<i64: 1, 0, 0, 2, 0, 0>} : (tensor<3x5x1xi32>) -> tensor<6x5x1xi32>
// CENTER-CROP-PAD-AXES-NEXT: return %[[V1]] : tensor<6x5x1xi32>

//===--------------------------------------------------------------------------===//
// Attention (opset 23+): scores = (Q * sqrt(scale)) @ (K * sqrt(scale))^T, + bias, softmax, @ V
//===--------------------------------------------------------------------------===//

// is_causal: a constant 0 / -inf bias (key j <= query i); scale 1/sqrt(4) applied as sqrt to Q and K.
// RUN: %python %S/Inputs/misc_models.py attention_4d_causal %t.attention_4d_causal.onnx && ge-import-onnx %t.attention_4d_causal.onnx | FileCheck %s --check-prefix=ATTENTION-4D-CAUSAL
// ATTENTION-4D-CAUSAL-LABEL: func.func @attention_4d_causal(
// ATTENTION-4D-CAUSAL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x2x3x4xf32> {onnx.name = "q"}, %[[ARG1:[^ ,:)]+]]: tensor<2x2x5x4xf32> {onnx.name = "k"}, %[[ARG2:[^ ,:)]+]]: tensor<2x2x5x6xf32> {onnx.name = "v"}) -> (tensor<2x2x3x6xf32> {onnx.name = "y"})
// ATTENTION-4D-CAUSAL-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{\[\[}}0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000{{\]\]}}> : tensor<3x5xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<0.707106769> : tensor<f32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V0:[^ ,:)]+]] = ge.mul %[[ARG0]], %[[C1]] : (tensor<2x2x3x4xf32>, tensor<f32>) -> tensor<2x2x3x4xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V1:[^ ,:)]+]] = ge.mul %[[ARG1]], %[[C1]] : (tensor<2x2x5x4xf32>, tensor<f32>) -> tensor<2x2x5x4xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V2:[^ ,:)]+]] = ge.transpose %[[V1]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x2x5x4xf32>) -> tensor<2x2x4x5xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V3:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V2]] : (tensor<2x2x3x4xf32>, tensor<2x2x4x5xf32>) -> tensor<2x2x3x5xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V4:[^ ,:)]+]] = ge.add %[[V3]], %[[C0]] : (tensor<2x2x3x5xf32>, tensor<3x5xf32>) -> tensor<2x2x3x5xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V5:[^ ,:)]+]] = ge.softmax %[[V4]] : tensor<2x2x3x5xf32>
// ATTENTION-4D-CAUSAL-NEXT: %[[V6:[^ ,:)]+]] = ge.matmul %[[V5]], %[[ARG2]] : (tensor<2x2x3x5xf32>, tensor<2x2x5x6xf32>) -> tensor<2x2x3x6xf32>
// ATTENTION-4D-CAUSAL-NEXT: return %[[V6]] : tensor<2x2x3x6xf32>

// 3-D inputs split into heads; KV heads gathered for 4 query heads; the bool mask becomes 0 / -inf,
// padded with -inf to 4 keys; rows masked everywhere are zeroed.
// RUN: %python %S/Inputs/misc_models.py attention_3d_gqa_bool_mask %t.attention_3d_gqa_bool_mask.onnx && ge-import-onnx %t.attention_3d_gqa_bool_mask.onnx | FileCheck %s --check-prefix=ATTENTION-3D-GQA-BOOL-MASK
// ATTENTION-3D-GQA-BOOL-MASK-LABEL: func.func @attention_3d_gqa_bool_mask(
// ATTENTION-3D-GQA-BOOL-MASK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x16xf32> {onnx.name = "q"}, %[[ARG1:[^ ,:)]+]]: tensor<1x4x8xf32> {onnx.name = "k"}, %[[ARG2:[^ ,:)]+]]: tensor<1x4x6xf32> {onnx.name = "v"}, %[[ARG3:[^ ,:)]+]]: tensor<3x3xi1> {onnx.name = "m"}) -> (tensor<1x3x12xf32> {onnx.name = "y"})
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<1x3x16xf32> to tensor<1x3x4x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x3x4x4xf32>) -> tensor<1x4x3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V2:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<1x4x8xf32> to tensor<1x4x2x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V3:[^ ,:)]+]] = ge.transpose %[[V2]] {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V4:[^ ,:)]+]] = ge.reshape %[[ARG2]] : tensor<1x4x6xf32> to tensor<1x4x2x3xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V5:[^ ,:)]+]] = ge.transpose %[[V4]] {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x2x3xf32>) -> tensor<1x2x4x3xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<0.000000e+00> : tensor<f32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<0xFF800000> : tensor<f32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V6:[^ ,:)]+]] = ge.where %[[ARG3]], %[[C0]], %[[C1]] : (tensor<3x3xi1>, tensor<f32>, tensor<f32>) -> tensor<3x3xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V7:[^ ,:)]+]] = ge.pad %[[V6]] {pads = array<i64: 0, 0, 0, 1>, value = 0xFFF0000000000000 : f64} : (tensor<3x3xf32>) -> tensor<3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<0.547722578> : tensor<f32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[C3:[^ ,:)]+]] = ge.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V8:[^ ,:)]+]] = ge.gather %[[V3]], %[[C3]] {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<4xi64>) -> tensor<1x4x4x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V9:[^ ,:)]+]] = ge.gather %[[V5]], %[[C3]] {axis = 1 : i64} : (tensor<1x2x4x3xf32>, tensor<4xi64>) -> tensor<1x4x4x3xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V10:[^ ,:)]+]] = ge.mul %[[V1]], %[[C2]] : (tensor<1x4x3x4xf32>, tensor<f32>) -> tensor<1x4x3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V11:[^ ,:)]+]] = ge.mul %[[V8]], %[[C2]] : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V12:[^ ,:)]+]] = ge.transpose %[[V11]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V13:[^ ,:)]+]] = ge.matmul %[[V10]], %[[V12]] : (tensor<1x4x3x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V14:[^ ,:)]+]] = ge.add %[[V13]], %[[V7]] : (tensor<1x4x3x4xf32>, tensor<3x4xf32>) -> tensor<1x4x3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V15:[^ ,:)]+]] = ge.softmax %[[V14]] : tensor<1x4x3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V16:[^ ,:)]+]] = ge.reduce_max %[[V7]] {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[C4:[^ ,:)]+]] = ge.constant dense<0xFF800000> : tensor<f32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V17:[^ ,:)]+]] = ge.equal %[[V16]], %[[C4]] : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xi1>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[C5:[^ ,:)]+]] = ge.constant dense<0.000000e+00> : tensor<f32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V18:[^ ,:)]+]] = ge.where %[[V17]], %[[C5]], %[[V15]] : (tensor<3x1xi1>, tensor<f32>, tensor<1x4x3x4xf32>) -> tensor<1x4x3x4xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V19:[^ ,:)]+]] = ge.matmul %[[V18]], %[[V9]] : (tensor<1x4x3x4xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x3x3xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V20:[^ ,:)]+]] = ge.transpose %[[V19]] {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x3x3xf32>) -> tensor<1x3x4x3xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: %[[V21:[^ ,:)]+]] = ge.reshape %[[V20]] : tensor<1x3x4x3xf32> to tensor<1x3x12xf32>
// ATTENTION-3D-GQA-BOOL-MASK-NEXT: return %[[V21]] : tensor<1x3x12xf32>

// A constant float mask and softcap = 5 (applied before the mask).
// RUN: %python %S/Inputs/misc_models.py attention_float_mask_softcap %t.attention_float_mask_softcap.onnx && ge-import-onnx %t.attention_float_mask_softcap.onnx | FileCheck %s --check-prefix=ATTENTION-FLOAT-MASK-SOFTCAP
// ATTENTION-FLOAT-MASK-SOFTCAP-LABEL: func.func @attention_float_mask_softcap(
// ATTENTION-FLOAT-MASK-SOFTCAP-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x2x2x4xf32> {onnx.name = "q"}, %[[ARG1:[^ ,:)]+]]: tensor<1x2x3x4xf32> {onnx.name = "k"}, %[[ARG2:[^ ,:)]+]]: tensor<1x2x3x4xf32> {onnx.name = "v"}) -> (tensor<1x2x2x4xf32> {onnx.name = "y"})
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<1x1x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<0.707106769> : tensor<f32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V0:[^ ,:)]+]] = ge.mul %[[ARG0]], %[[C1]] : (tensor<1x2x2x4xf32>, tensor<f32>) -> tensor<1x2x2x4xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V1:[^ ,:)]+]] = ge.mul %[[ARG1]], %[[C1]] : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V2:[^ ,:)]+]] = ge.transpose %[[V1]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V3:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V2]] : (tensor<1x2x2x4xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[C2:[^ ,:)]+]] = ge.constant dense<5.000000e+00> : tensor<f32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V4:[^ ,:)]+]] = ge.div %[[V3]], %[[C2]] : (tensor<1x2x2x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V5:[^ ,:)]+]] = ge.tanh %[[V4]] : tensor<1x2x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V6:[^ ,:)]+]] = ge.mul %[[V5]], %[[C2]] : (tensor<1x2x2x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V7:[^ ,:)]+]] = ge.add %[[V6]], %[[C0]] : (tensor<1x2x2x3xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V8:[^ ,:)]+]] = ge.softmax %[[V7]] : tensor<1x2x2x3xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: %[[V9:[^ ,:)]+]] = ge.matmul %[[V8]], %[[ARG2]] : (tensor<1x2x2x3xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x2x4xf32>
// ATTENTION-FLOAT-MASK-SOFTCAP-NEXT: return %[[V9]] : tensor<1x2x2x4xf32>

// A KV cache: present = concat(past, new) along the sequence; attention over the whole cache.
// RUN: %python %S/Inputs/misc_models.py attention_past %t.attention_past.onnx && ge-import-onnx %t.attention_past.onnx | FileCheck %s --check-prefix=ATTENTION-PAST
// ATTENTION-PAST-LABEL: func.func @attention_past(
// ATTENTION-PAST-NEXT: %[[K:.*]] = ge.concat %arg3, %arg1 {axis = 2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
// ATTENTION-PAST-NEXT: %[[V:.*]] = ge.concat %arg4, %arg2 {axis = 2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
// ATTENTION-PAST-NEXT: %[[S:.*]] = ge.constant dense<0.707106769> : tensor<f32>
// ATTENTION-PAST-NEXT: %[[QS:.*]] = ge.mul %arg0, %[[S]] : (tensor<1x2x1x4xf32>, tensor<f32>) -> tensor<1x2x1x4xf32>
// ATTENTION-PAST-NEXT: %[[KS:.*]] = ge.mul %[[K]], %[[S]] : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
// ATTENTION-PAST-NEXT: %[[KT:.*]] = ge.transpose %[[KS]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// ATTENTION-PAST-NEXT: %[[QK:.*]] = ge.matmul %[[QS]], %[[KT]] : (tensor<1x2x1x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x1x4xf32>
// ATTENTION-PAST-NEXT: %[[P:.*]] = ge.softmax %[[QK]] : tensor<1x2x1x4xf32>
// ATTENTION-PAST-NEXT: %[[Y:.*]] = ge.matmul %[[P]], %[[V]] : (tensor<1x2x1x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x1x4xf32>
// ATTENTION-PAST-NEXT: return %[[Y]], %[[K]], %[[V]] : tensor<1x2x1x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>

// qk_matmul_output (mode 0): the scaled Q K^T product.
// RUN: %python %S/Inputs/misc_models.py attention_qk_output_used %t.attention_qk_output_used.onnx && ge-import-onnx %t.attention_qk_output_used.onnx | FileCheck %s --check-prefix=ATTENTION-QK-OUTPUT-USED
// ATTENTION-QK-OUTPUT-USED-LABEL: func.func @attention_qk_output_used(
// ATTENTION-QK-OUTPUT-USED: %[[QK:.*]] = ge.matmul %{{.*}}, %{{.*}} : (tensor<1x1x2x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x2x2xf32>
// ATTENTION-QK-OUTPUT-USED-NEXT: %[[P:.*]] = ge.softmax %[[QK]] : tensor<1x1x2x2xf32>
// ATTENTION-QK-OUTPUT-USED-NEXT: %[[Y:.*]] = ge.matmul %[[P]], %arg2 : (tensor<1x1x2x2xf32>, tensor<1x1x2x4xf32>) -> tensor<1x1x2x4xf32>
// ATTENTION-QK-OUTPUT-USED-NEXT: return %[[Y]], %[[QK]] : tensor<1x1x2x4xf32>, tensor<1x1x2x2xf32>

//===--------------------------------------------------------------------------===//
// RotaryEmbedding (opset 23+): halves or interleaved pairs rotated by the cos/sin caches
//===--------------------------------------------------------------------------===//

// position_ids gather the caches; 4-D X [B, heads, S, H] needs no transpose (caches unsqueezed at 1).
// RUN: %python %S/Inputs/misc_models.py rotary_4d %t.rotary_4d.onnx && ge-import-onnx %t.rotary_4d.onnx | FileCheck %s --check-prefix=ROTARY-4D
// ROTARY-4D-LABEL: func.func @rotary_4d(
// ROTARY-4D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x2x3x8xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3xi64> {onnx.name = "pos"}) -> (tensor<2x2x3x8xf32> {onnx.name = "y"})
// ROTARY-4D-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<10x4xf32>
// ROTARY-4D-NEXT: %[[V0:[^ ,:)]+]] = ge.gather %[[C0]], %[[ARG1]] : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
// ROTARY-4D-NEXT: %[[V1:[^ ,:)]+]] = ge.unsqueeze %[[V0]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
// ROTARY-4D-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<10x4xf32>
// ROTARY-4D-NEXT: %[[V2:[^ ,:)]+]] = ge.gather %[[C1]], %[[ARG1]] : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
// ROTARY-4D-NEXT: %[[V3:[^ ,:)]+]] = ge.unsqueeze %[[V2]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
// ROTARY-4D-NEXT: %[[V4:[^ ,:)]+]] = ge.slice %[[ARG0]] {axes = array<i64: 3>, ends = array<i64: 4>, starts = array<i64: 0>} : (tensor<2x2x3x8xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V5:[^ ,:)]+]] = ge.slice %[[ARG0]] {axes = array<i64: 3>, ends = array<i64: 8>, starts = array<i64: 4>} : (tensor<2x2x3x8xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V6:[^ ,:)]+]] = ge.mul %[[V1]], %[[V4]] : (tensor<2x1x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V7:[^ ,:)]+]] = ge.mul %[[V3]], %[[V5]] : (tensor<2x1x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V8:[^ ,:)]+]] = ge.sub %[[V6]], %[[V7]] : (tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V9:[^ ,:)]+]] = ge.mul %[[V3]], %[[V4]] : (tensor<2x1x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V10:[^ ,:)]+]] = ge.mul %[[V1]], %[[V5]] : (tensor<2x1x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V11:[^ ,:)]+]] = ge.add %[[V9]], %[[V10]] : (tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// ROTARY-4D-NEXT: %[[V12:[^ ,:)]+]] = ge.concat %[[V8]], %[[V11]] {axis = 3 : i64} : (tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x8xf32>
// ROTARY-4D-NEXT: return %[[V12]] : tensor<2x2x3x8xf32>

// 3-D X as [B, S, heads, H]; interleaved pairs (step-2 slices); 4 of 6 dims rotate.
// RUN: %python %S/Inputs/misc_models.py rotary_3d_interleaved_partial %t.rotary_3d_interleaved_partial.onnx && ge-import-onnx %t.rotary_3d_interleaved_partial.onnx | FileCheck %s --check-prefix=ROTARY-3D-INTERLEAVED-PARTIAL
// ROTARY-3D-INTERLEAVED-PARTIAL-LABEL: func.func @rotary_3d_interleaved_partial(
// ROTARY-3D-INTERLEAVED-PARTIAL-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x12xf32> {onnx.name = "x"}, %[[ARG1:[^ ,:)]+]]: tensor<1x3x2xf32> {onnx.name = "cos"}, %[[ARG2:[^ ,:)]+]]: tensor<1x3x2xf32> {onnx.name = "sin"}) -> (tensor<1x3x12xf32> {onnx.name = "y"})
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<1x3x12xf32> to tensor<1x3x2x6xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V1:[^ ,:)]+]] = ge.unsqueeze %[[ARG1]] {axes = array<i64: 2>} : (tensor<1x3x2xf32>) -> tensor<1x3x1x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V2:[^ ,:)]+]] = ge.unsqueeze %[[ARG2]] {axes = array<i64: 2>} : (tensor<1x3x2xf32>) -> tensor<1x3x1x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V3:[^ ,:)]+]] = ge.slice %[[V0]] {axes = array<i64: 3>, ends = array<i64: 4>, starts = array<i64: 0>} : (tensor<1x3x2x6xf32>) -> tensor<1x3x2x4xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V4:[^ ,:)]+]] = ge.slice %[[V3]] {axes = array<i64: 3>, ends = array<i64: 4>, starts = array<i64: 0>, steps = array<i64: 2>} : (tensor<1x3x2x4xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V5:[^ ,:)]+]] = ge.slice %[[V3]] {axes = array<i64: 3>, ends = array<i64: 4>, starts = array<i64: 1>, steps = array<i64: 2>} : (tensor<1x3x2x4xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V6:[^ ,:)]+]] = ge.mul %[[V1]], %[[V4]] : (tensor<1x3x1x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V7:[^ ,:)]+]] = ge.mul %[[V2]], %[[V5]] : (tensor<1x3x1x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V8:[^ ,:)]+]] = ge.sub %[[V6]], %[[V7]] : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V9:[^ ,:)]+]] = ge.mul %[[V2]], %[[V4]] : (tensor<1x3x1x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V10:[^ ,:)]+]] = ge.mul %[[V1]], %[[V5]] : (tensor<1x3x1x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V11:[^ ,:)]+]] = ge.add %[[V9]], %[[V10]] : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V12:[^ ,:)]+]] = ge.unsqueeze %[[V8]] {axes = array<i64: 4>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2x1xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V13:[^ ,:)]+]] = ge.unsqueeze %[[V11]] {axes = array<i64: 4>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2x1xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V14:[^ ,:)]+]] = ge.concat %[[V12]], %[[V13]] {axis = 4 : i64} : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V15:[^ ,:)]+]] = ge.reshape %[[V14]] : tensor<1x3x2x2x2xf32> to tensor<1x3x2x4xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V16:[^ ,:)]+]] = ge.slice %[[V0]] {axes = array<i64: 3>, ends = array<i64: 6>, starts = array<i64: 4>} : (tensor<1x3x2x6xf32>) -> tensor<1x3x2x2xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V17:[^ ,:)]+]] = ge.concat %[[V15]], %[[V16]] {axis = 3 : i64} : (tensor<1x3x2x4xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x6xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: %[[V18:[^ ,:)]+]] = ge.reshape %[[V17]] : tensor<1x3x2x6xf32> to tensor<1x3x12xf32>
// ROTARY-3D-INTERLEAVED-PARTIAL-NEXT: return %[[V18]] : tensor<1x3x12xf32>
