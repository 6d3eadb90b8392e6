// RUN: ge-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

func.func @abs_unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'ge.abs' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer or 8/16/32/64-bit unsigned integer or 8/16/32/64-bit signed integer values, but got 'tensor<*xf32>'}}
  %0 = "ge.abs"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @neg_result_shape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'ge.neg' op requires the same type for all operands and results}}
  %0 = "ge.neg"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @exp_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.exp' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.exp %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @log_int(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  // expected-error @+1 {{'ge.log' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi64>'}}
  %0 = ge.log %x : tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

func.func @sqrt_result_elem(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'ge.sqrt' op requires the same type for all operands and results}}
  %0 = "ge.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @rsqrt_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'ge.rsqrt' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi1>'}}
  %0 = ge.rsqrt %x : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @reciprocal_int(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{'ge.reciprocal' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xui8>'}}
  %0 = ge.reciprocal %x : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @tanh_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.tanh' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.tanh %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @sigmoid_rank(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'ge.sigmoid' op requires the same type for all operands and results}}
  %0 = "ge.sigmoid"(%x) : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @relu_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'ge.relu' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer or 8/16/32/64-bit unsigned integer or 8/16/32/64-bit signed integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = ge.relu %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @leaky_relu_alpha_f64(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.leaky_relu' op attribute 'alpha' failed to satisfy constraint: 32-bit float attribute}}
  %0 = ge.leaky_relu %x {alpha = 0.1 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @leaky_relu_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.leaky_relu' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.leaky_relu %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @gelu_approx_not_bool(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.gelu' op attribute 'tanh_approx' failed to satisfy constraint: bool attribute}}
  %0 = ge.gelu %x {tanh_approx = 1 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @erf_int(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'ge.erf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi8>'}}
  %0 = ge.erf %x : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @sin_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.sin' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.sin %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @cos_unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'ge.cos' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<*xf32>'}}
  %0 = "ge.cos"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @floor_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.floor' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.floor %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @ceil_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.ceil' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.ceil %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @round_to_int(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.round' op result #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = "ge.round"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @sign_index(%x: tensor<4xindex>) -> tensor<4xindex> {
  // expected-error @+1 {{'ge.sign' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer or 8/16/32/64-bit unsigned integer or 8/16/32/64-bit signed integer values, but got 'tensor<4xindex>'}}
  %0 = ge.sign %x : tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

func.func @not_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.not' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = ge.not %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'ge.not' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = ge.not %x : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @softplus_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.softplus' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.softplus %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @hard_sigmoid_alpha_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.hard_sigmoid' op attribute 'alpha' failed to satisfy constraint: 32-bit float attribute}}
  %0 = ge.hard_sigmoid %x {alpha = "0.2"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @hard_sigmoid_beta_int(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.hard_sigmoid' op attribute 'beta' failed to satisfy constraint: 32-bit float attribute}}
  %0 = ge.hard_sigmoid %x {beta = 1 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @hard_swish_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.hard_swish' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.hard_swish %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @silu_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.silu' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.silu %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @identity_result_type(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.identity' op requires the same type for all operands and results}}
  %0 = "ge.identity"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @identity_unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'ge.identity' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = "ge.identity"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @clip_min_gt_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.clip' op attribute 'min' (3.000000e+00) must not exceed attribute 'max' (1.000000e+00)}}
  %0 = ge.clip %x {min = 3.0 : f64, max = 1.0 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clip_min_gt_max_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.clip' op attribute 'min' (0.000000e+00) must not exceed attribute 'max' (-1.000000e+00)}}
  %0 = ge.clip %x {min = 0.0 : f64, max = -1.0 : f64} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @clip_min_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.clip' op attribute 'min' failed to satisfy constraint: 64-bit float attribute}}
  %0 = ge.clip %x {min = 0.0 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cumsum_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.cumsum' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ge.cumsum %x {axis = 2 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cumsum_negative_axis_out_of_range(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ge.cumsum' op attribute 'axis' value -3 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ge.cumsum %x {axis = -3 : i64} : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @cumsum_missing_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.cumsum' op requires attribute 'axis'}}
  %0 = ge.cumsum %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.softmax' op attribute 'axis' value 5 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ge.softmax %x {axis = 5 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_int(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ge.softmax' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = ge.softmax %x : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @log_softmax_axis_out_of_range(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'ge.log_softmax' op attribute 'axis' value -4 is out of range for rank 3 (expected [-3, 3))}}
  %0 = ge.log_softmax %x {axis = -4 : i64} : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @cast_changes_shape(%x: tensor<2x3xf32>) -> tensor<3x2xf16> {
  // expected-error @+1 {{'ge.cast' op result shape [3, 2] differs from operand 'input' shape [2, 3] (cast changes only the element type)}}
  %0 = ge.cast %x : tensor<2x3xf32> to tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// -----

func.func @bitcast_changes_width(%x: tensor<4xf32>) -> tensor<4xi16> {
  // expected-error @+1 {{'ge.bitcast' op element types 'f32' (32 bits) and 'i16' (16 bits) differ in width}}
  %0 = ge.bitcast %x : tensor<4xf32> to tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

func.func @bitcast_changes_shape(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'ge.bitcast' op result shape [6] differs from operand 'input' shape [2, 3] (bitcast changes only the element type)}}
  %0 = ge.bitcast %x : tensor<2x3xf32> to tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @cast_changes_rank(%x: tensor<6xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.cast' op result shape [2, 3] differs from operand 'input' shape [6] (cast changes only the element type)}}
  %0 = ge.cast %x : tensor<6xi32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise binary ops (numpy broadcasting, inferred result types)
//===----------------------------------------------------------------------===//

func.func @add_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'ge.add' op operands 'lhs' and 'rhs' are not broadcast-compatible: [2, 3] vs [4] (result dimension 1: 3 vs 4)}}
  // expected-error @+1 {{'ge.add' op failed to infer returned types}}
  %0 = ge.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @sub_element_type_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'ge.sub' op operand 'rhs' element type 'f16' does not match operand 'lhs' element type 'f32'}}
  // expected-error @+1 {{'ge.sub' op failed to infer returned types}}
  %0 = ge.sub %a, %b : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @mul_wrong_result_shape(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{'ge.mul' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'ge.mul' op failed to infer returned types}}
  %0 = ge.mul %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @div_int_float(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'ge.div' op operand 'rhs' element type 'f32' does not match operand 'lhs' element type 'i32'}}
  // expected-error @+1 {{'ge.div' op failed to infer returned types}}
  %0 = ge.div %a, %b : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pow_unranked(%a: tensor<*xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.pow' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer or 8/16/32/64-bit unsigned integer or 8/16/32/64-bit signed integer values, but got 'tensor<*xf32>'}}
  %0 = ge.pow %a, %b : (tensor<*xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @max_not_broadcastable(%a: tensor<2x3x4xf32>, %b: tensor<3x5xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{'ge.max' op operands 'lhs' and 'rhs' are not broadcast-compatible: [2, 3, 4] vs [3, 5] (result dimension 2: 4 vs 5)}}
  // expected-error @+1 {{'ge.max' op failed to infer returned types}}
  %0 = ge.max %a, %b : (tensor<2x3x4xf32>, tensor<3x5xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @min_wrong_result_elem(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi64> {
  // expected-error @+2 {{'ge.min' op inferred type(s) 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4xi64>'}}
  // expected-error @+1 {{'ge.min' op failed to infer returned types}}
  %0 = ge.min %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @mod_fmod_not_bool(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.mod' op attribute 'fmod' failed to satisfy constraint: bool attribute}}
  %0 = ge.mod %a, %b {fmod = 1 : i32} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @mod_not_broadcastable(%a: tensor<4xi32>, %b: tensor<3xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'ge.mod' op operands 'lhs' and 'rhs' are not broadcast-compatible: [4] vs [3]}}
  // expected-error @+1 {{'ge.mod' op failed to infer returned types}}
  %0 = ge.mod %a, %b : (tensor<4xi32>, tensor<3xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @and_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.and' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = ge.and %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @or_int_rhs(%a: tensor<4xi1>, %b: tensor<4xi8>) -> tensor<4xi1> {
  // expected-error @+1 {{'ge.or' op operand #1 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = ge.or %a, %b : (tensor<4xi1>, tensor<4xi8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @xor_not_broadcastable(%a: tensor<2x4xi1>, %b: tensor<3x1xi1>) -> tensor<2x4xi1> {
  // expected-error @+2 {{'ge.xor' op operands 'lhs' and 'rhs' are not broadcast-compatible: [2, 4] vs [3, 1] (result dimension 0: 2 vs 3)}}
  // expected-error @+1 {{'ge.xor' op failed to infer returned types}}
  %0 = ge.xor %a, %b : (tensor<2x4xi1>, tensor<3x1xi1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

func.func @equal_non_bool_result(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.equal' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = ge.equal %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @equal_element_type_mismatch(%a: tensor<4xi32>, %b: tensor<4xi64>) -> tensor<4xi1> {
  // expected-error @+2 {{'ge.equal' op operand 'rhs' element type 'i64' does not match operand 'lhs' element type 'i32'}}
  // expected-error @+1 {{'ge.equal' op failed to infer returned types}}
  %0 = ge.equal %a, %b : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @less_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xi1> {
  // expected-error @+2 {{'ge.less' op operands 'lhs' and 'rhs' are not broadcast-compatible: [2, 3] vs [2] (result dimension 1: 3 vs 2)}}
  // expected-error @+1 {{'ge.less' op failed to infer returned types}}
  %0 = ge.less %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @less_equal_wrong_result_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+2 {{'ge.less_equal' op inferred type(s) 'tensor<2x3xi1>' are incompatible with return type(s) of operation 'tensor<3xi1>'}}
  // expected-error @+1 {{'ge.less_equal' op failed to infer returned types}}
  %0 = ge.less_equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @greater_non_bool_result(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.greater' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = ge.greater %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @greater_equal_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xi1> {
  // expected-error @+2 {{'ge.greater_equal' op operand 'rhs' element type 'f64' does not match operand 'lhs' element type 'f32'}}
  // expected-error @+1 {{'ge.greater_equal' op failed to infer returned types}}
  %0 = ge.greater_equal %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @greater_equal_complex(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+1 {{'ge.greater_equal' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer or 8/16/32/64-bit unsigned integer or 8/16/32/64-bit signed integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = ge.greater_equal %a, %b : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

//===----------------------------------------------------------------------===//
// where
//===----------------------------------------------------------------------===//

func.func @where_float_condition(%c: tensor<4xf32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.where' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = ge.where %c, %x, %y : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @where_element_type_mismatch(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+2 {{'ge.where' op operand 'y' element type 'i32' does not match operand 'x' element type 'f32'}}
  // expected-error @+1 {{'ge.where' op failed to infer returned types}}
  %0 = ge.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @where_condition_not_broadcastable(%c: tensor<3xi1>, %x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'ge.where' op operands 'condition' and 'x' are not broadcast-compatible: [3] vs [2, 4] (result dimension 1: 3 vs 4)}}
  // expected-error @+1 {{'ge.where' op failed to infer returned types}}
  %0 = ge.where %c, %x, %y : (tensor<3xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @where_y_not_broadcastable(%c: tensor<2x1xi1>, %x: tensor<1x4xf32>, %y: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'ge.where' op operands 'condition', 'x' and 'y' are not broadcast-compatible: [2, 4] vs [3, 4] (result dimension 0: 2 vs 3)}}
  // expected-error @+1 {{'ge.where' op failed to infer returned types}}
  %0 = ge.where %c, %x, %y : (tensor<2x1xi1>, tensor<1x4xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @where_wrong_result_shape(%c: tensor<2x1xi1>, %x: tensor<1x4xf32>, %y: tensor<4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{'ge.where' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4xf32>'}}
  // expected-error @+1 {{'ge.where' op failed to infer returned types}}
  %0 = ge.where %c, %x, %y : (tensor<2x1xi1>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @acos_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.acos' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.acos %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @asin_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.asin' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.asin %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @atan_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'ge.atan' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = ge.atan %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @bitwise_not_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.bitwise_not' op operand #0 must be ranked tensor of}}
  %0 = ge.bitwise_not %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitwise_and_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'ge.bitwise_and' op operand #0 must be ranked tensor of}}
  %0 = ge.bitwise_and %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @bitwise_or_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.bitwise_or' op operand #0 must be ranked tensor of}}
  %0 = ge.bitwise_or %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitwise_xor_float(%x: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @+1 {{'ge.bitwise_xor' op operand #0 must be ranked tensor of}}
  %0 = ge.bitwise_xor %x, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @bit_shift_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.bit_shift' op operand #0 must be ranked tensor of}}
  %0 = ge.bit_shift %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cumprod_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.cumprod' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ge.cumprod %x {axis = 2 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
