// Lit tests of the ONNX importer's normalization converters (ge_mlir/frontend/onnx/ops/normalization.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

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
