// RUN: ge-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

func.func @reduce_sum_duplicate_axes(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{'ge.reduce_sum' op attribute 'axes' contains axis 1 twice}}
  // expected-error @+1 {{'ge.reduce_sum' op failed to infer returned types}}
  %0 = ge.reduce_sum %x {axes = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_sum_duplicate_axes_negative(%x: tensor<2x3x4xi32>) -> tensor<2x3x1xi32> {
  // expected-error @+2 {{'ge.reduce_sum' op attribute 'axes' contains axis -1 twice}}
  // expected-error @+1 {{'ge.reduce_sum' op failed to infer returned types}}
  %0 = ge.reduce_sum %x {axes = array<i64: 2, -1>} : (tensor<2x3x4xi32>) -> tensor<2x3x1xi32>
  return %0 : tensor<2x3x1xi32>
}

// -----

func.func @reduce_mean_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'ge.reduce_mean' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{'ge.reduce_mean' op failed to infer returned types}}
  %0 = ge.reduce_mean %x {axes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_max_axes_out_of_range(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  // expected-error @+2 {{'ge.reduce_max' op attribute 'axes' value -3 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{'ge.reduce_max' op failed to infer returned types}}
  %0 = ge.reduce_max %x {axes = array<i64: 0, -3>} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

func.func @reduce_max_keepdims_shape(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'ge.reduce_max' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'ge.reduce_max' op failed to infer returned types}}
  %0 = ge.reduce_max %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_min_axes_not_array(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'ge.reduce_min' op attribute 'axes' failed to satisfy constraint: i64 dense array attribute}}
  %0 = ge.reduce_min %x {axes = [1]} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_min_complex(%x: tensor<4xcomplex<f32>>) -> tensor<1xcomplex<f32>> {
  // expected-error @+1 {{'ge.reduce_min' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer or 8/16/32/64-bit unsigned integer or 8/16/32/64-bit signed integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = ge.reduce_min %x : (tensor<4xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  return %0 : tensor<1xcomplex<f32>>
}

// -----

func.func @reduce_prod_keepdims_not_bool(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'ge.reduce_prod' op attribute 'keepdims' failed to satisfy constraint: bool attribute}}
  %0 = ge.reduce_prod %x {axes = array<i64: 1>, keepdims = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_prod_no_keepdims_shape(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  // expected-error @+2 {{'ge.reduce_prod' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x1x4xf32>'}}
  // expected-error @+1 {{'ge.reduce_prod' op failed to infer returned types}}
  %0 = ge.reduce_prod %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

func.func @reduce_l2_int(%x: tensor<2x3xi32>) -> tensor<1x1xi32> {
  // expected-error @+1 {{'ge.reduce_l2' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = ge.reduce_l2 %x : (tensor<2x3xi32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// -----

func.func @reduce_l2_duplicate_axes(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  // expected-error @+2 {{'ge.reduce_l2' op attribute 'axes' contains axis -2 twice}}
  // expected-error @+1 {{'ge.reduce_l2' op failed to infer returned types}}
  %0 = ge.reduce_l2 %x {axes = array<i64: 0, 1, -2>} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

func.func @argmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  // expected-error @+2 {{'ge.argmax' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{'ge.argmax' op failed to infer returned types}}
  %0 = ge.argmax %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

func.func @argmax_missing_axis(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  // expected-error @+1 {{'ge.argmax' op requires attribute 'axis'}}
  %0 = ge.argmax %x : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

func.func @argmin_result_not_i64(%x: tensor<2x3xf32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{'ge.argmin' op result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<2x1xi32>'}}
  %0 = ge.argmin %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// -----

func.func @argmin_negative_axis_out_of_range(%x: tensor<2x3x4xi32>) -> tensor<2x3x1xi64> {
  // expected-error @+2 {{'ge.argmin' op attribute 'axis' value -4 is out of range for rank 3 (expected [-3, 3))}}
  // expected-error @+1 {{'ge.argmin' op failed to infer returned types}}
  %0 = ge.argmin %x {axis = -4 : i64} : (tensor<2x3x4xi32>) -> tensor<2x3x1xi64>
  return %0 : tensor<2x3x1xi64>
}

// -----

func.func @argmin_keepdims_false_shape(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  // expected-error @+2 {{'ge.argmin' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<2x1xi64>'}}
  // expected-error @+1 {{'ge.argmin' op failed to infer returned types}}
  %0 = ge.argmin %x {axis = 1 : i64, keepdims = false} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

//===----------------------------------------------------------------------===//
// layer_norm / rms_norm
//===----------------------------------------------------------------------===//

func.func @layer_norm_scale_shape(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'ge.layer_norm' op operand 'scale' of shape [3] does not broadcast to [4]}}
  %0 = ge.layer_norm %x, %s : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @layer_norm_bias_rank(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'ge.layer_norm' op operand 'bias' of shape [2, 3, 4] has higher rank than the result [3, 4]}}
  %0 = ge.layer_norm %x, %s, %b {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @layer_norm_axis_out_of_range(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.layer_norm' op attribute 'axis' value 2 is out of range for rank 2}}
  %0 = ge.layer_norm %x, %s {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_scale_element_type(%x: tensor<2x3xf32>, %s: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.layer_norm' op operand 'scale' element type 'f16' does not match operand 'input' element type 'f32'}}
  %0 = ge.layer_norm %x, %s : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_result_type(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'ge.layer_norm' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'ge.layer_norm' op failed to infer returned types}}
  %0 = ge.layer_norm %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @layer_norm_int(%x: tensor<2x3xi32>, %s: tensor<3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ge.layer_norm' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = ge.layer_norm %x, %s : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @rms_norm_scale_shape(%x: tensor<2x8xf32>, %s: tensor<4xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'ge.rms_norm' op operand 'scale' of shape [4] does not broadcast to [8]}}
  %0 = ge.rms_norm %x, %s : (tensor<2x8xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_axis_out_of_range(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'ge.rms_norm' op attribute 'axis' value -3 is out of range for rank 2}}
  %0 = ge.rms_norm %x, %s {axis = -3 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_epsilon_f64(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'ge.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %0 = ge.rms_norm %x, %s {epsilon = 1.0e-6 : f64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// batch_norm / instance_norm
//===----------------------------------------------------------------------===//

func.func @batch_norm_mean_size(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<4xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'ge.batch_norm' op operand 'mean' must have shape [C] = [3], got [4]}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_nhwc_scale_size(%x: tensor<2x4x4x3xf32>, %s: tensor<4xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x4x4x3xf32> {
  // expected-error @+1 {{'ge.batch_norm' op operand 'scale' must have shape [C] = [3], got [4]}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v {data_format = #ge.format<NHWC>} : (tensor<2x4x4x3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x4x4x3xf32>
  return %0 : tensor<2x4x4x3xf32>
}

// -----

func.func @batch_norm_variance_rank(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<1x3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'ge.batch_norm' op operand 'variance' must have shape [C] = [3], got [1, 3]}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_bias_element_type(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf16>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.batch_norm' op operand 'bias' element type 'f16' does not match operand 'input' element type 'f32'}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_rank1(%x: tensor<3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ge.batch_norm' op operand 'input' must have rank >= 2, got 1}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @batch_norm_negative_epsilon(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.batch_norm' op attribute 'epsilon' must be a non-negative number, got -1.000000e-05}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v {epsilon = -1.0e-5 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_bad_data_format(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'ge.batch_norm' op attribute 'data_format' must be channels-first or channels-last, got FRACTAL_NZ}}
  %0 = ge.batch_norm %x, %s, %b, %m, %v {data_format = #ge.format<FRACTAL_NZ>} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @instance_norm_rank2(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.instance_norm' op operand 'input' must have rank >= 3, got 2}}
  %0 = ge.instance_norm %x, %s, %b : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @instance_norm_scale_size(%x: tensor<2x3x8xf32>, %s: tensor<8xf32>, %b: tensor<3xf32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'ge.instance_norm' op operand 'scale' must have shape [C] = [3], got [8]}}
  %0 = ge.instance_norm %x, %s, %b : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<3xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

func.func @instance_norm_missing_bias(%x: tensor<2x3x8xf32>, %s: tensor<3xf32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'ge.instance_norm' op expected 3 operands, but found 2}}
  %0 = ge.instance_norm %x, %s : (tensor<2x3x8xf32>, tensor<3xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
