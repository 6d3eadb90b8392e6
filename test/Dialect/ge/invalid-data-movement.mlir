// RUN: ge-opt %s --split-input-file --verify-diagnostics

func.func @reshape_count(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'ge.reshape' op operand 'input' [2, 3] has 6 elements but the result [7] has 7}}
  %0 = ge.reshape %a : tensor<2x3xf32> to tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @reshape_elem(%a: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'ge.reshape' op result element type 'i32' differs from operand 'input' element type 'f32'}}
  %0 = ge.reshape %a : tensor<2x3xf32> to tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @transpose_dup(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'ge.transpose' op attribute 'perm' [0, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.transpose %a {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_oob(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'ge.transpose' op attribute 'perm' [2, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.transpose %a {perm = array<i64: 2, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_size(%a: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @+2 {{'ge.transpose' op attribute 'perm' has 2 entries but the input has rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @transpose_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'ge.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'ge.concat' op operand #1 has rank 1, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @concat_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'ge.concat' op operand #1 shape [2, 4] differs from operand #0 shape [2, 3] in non-concat dimension 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_elem(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'ge.concat' op operand #1 element type 'f16' differs from operand #0 element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'ge.concat' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.concat %a, %b {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_empty() -> tensor<4x3xf32> {
  // expected-error @+2 {{'ge.concat' op requires at least one operand}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.concat {axis = 0 : i64} : () -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @split_sum(%a: tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<3x4xf32>) {
  // expected-error @+2 {{'ge.split' op attribute 'split_sizes' [2, 3] sums to 5 but dimension 0 has size 6}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.split %a {axis = 0 : i64, split_sizes = array<i64: 2, 3>} : (tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<3x4xf32>)
  return %0#0, %0#1 : tensor<2x4xf32>, tensor<3x4xf32>
}

// -----

func.func @split_neg(%a: tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<2x4xf32>) {
  // expected-error @+2 {{'ge.split' op attribute 'split_sizes' must be non-negative, got [8, -2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.split %a {axis = 0 : i64, split_sizes = array<i64: 8, -2>} : (tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<2x4xf32>)
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<2x4xf32>
}

// -----

func.func @split_axis(%a: tensor<6x4xf32>) -> (tensor<6x2xf32>, tensor<6x2xf32>) {
  // expected-error @+2 {{'ge.split' op attribute 'axis' value -3 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.split %a {axis = -3 : i64, split_sizes = array<i64: 2, 2>} : (tensor<6x4xf32>) -> (tensor<6x2xf32>, tensor<6x2xf32>)
  return %0#0, %0#1 : tensor<6x2xf32>, tensor<6x2xf32>
}

// -----

func.func @split_count(%a: tensor<6x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  // expected-error @+2 {{'ge.split' op inferred type(s) 'tensor<2x4xf32>', 'tensor<2x4xf32>', 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>', 'tensor<3x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.split %a {axis = 0 : i64, split_sizes = array<i64: 2, 2, 2>} : (tensor<6x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return %0#0, %0#1 : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

func.func @slice_step0(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'ge.slice' op attribute 'steps' must not contain 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.slice %a {starts = array<i64: 0>, ends = array<i64: 4>, steps = array<i64: 0>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_ends(%a: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'ge.slice' op attributes 'starts' (2) and 'ends' (1) must have the same number of elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.slice %a {starts = array<i64: 0, 0>, ends = array<i64: 4>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_axes_repeat(%a: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'ge.slice' op attribute 'axes' repeats axis -2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.slice %a {starts = array<i64: 0, 0>, ends = array<i64: 4, 4>, axes = array<i64: 0, -2>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_axes_oob(%a: tensor<8x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+2 {{'ge.slice' op attribute 'axes' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.slice %a {starts = array<i64: 0>, ends = array<i64: 4>, axes = array<i64: 2>} : (tensor<8x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @slice_steps_count(%a: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'ge.slice' op attributes 'axes' and 'steps' must have as many elements as 'starts' (1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.slice %a {starts = array<i64: 0>, ends = array<i64: 4>, steps = array<i64: 1, 1>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @gather_axis(%a: tensor<4x5xf32>, %i: tensor<3xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'ge.gather' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gather %a, %i {axis = 2 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gather_rank0(%a: tensor<f32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+2 {{'ge.gather' op operand 'data' must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gather %a, %i : (tensor<f32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_elements_rank(%a: tensor<4x5xf32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+2 {{'ge.gather_elements' op operands 'data' (rank 2) and 'indices' (rank 1) must have the same rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gather_elements %a, %i : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_elements_axis(%a: tensor<4x5xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  // expected-error @+2 {{'ge.gather_elements' op attribute 'axis' value -3 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gather_elements %a, %i {axis = -3 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @scatter_shape(%a: tensor<4x5xf32>, %i: tensor<2x2xi64>, %u: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'ge.scatter_elements' op operands 'indices' [2, 2] and 'updates' [2, 3] must have the same shape}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.scatter_elements %a, %i, %u : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_elem(%a: tensor<4x5xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf16>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'ge.scatter_elements' op operand 'updates' element type 'f16' does not match operand 'data' element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.scatter_elements %a, %i, %u : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<2x2xf16>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_rank(%a: tensor<4x5xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'ge.scatter_elements' op operands 'data' and 'indices' must have the same rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.scatter_elements %a, %i, %u : (tensor<4x5xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_axis(%a: tensor<4x5xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'ge.scatter_elements' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.scatter_elements %a, %i, %u {axis = 2 : i64} : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @expand_bcast(%a: tensor<3x4xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'ge.expand' op operand 'input' and attribute 'shape' are not broadcast-compatible: [3, 4] vs [3, 5] (result dimension 1: 4 vs 5)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.expand %a {shape = array<i64: 3, 5>} : (tensor<3x4xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @expand_neg(%a: tensor<3x1xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'ge.expand' op attribute 'shape' must be non-negative, got [-1, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.expand %a {shape = array<i64: -1, 4>} : (tensor<3x1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @squeeze_non1(%a: tensor<1x3xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{'ge.squeeze' op cannot squeeze dimension 1 of size 3 (only size-1 dimensions)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.squeeze %a {axes = array<i64: 1>} : (tensor<1x3xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @squeeze_axis(%a: tensor<1x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'ge.squeeze' op attribute 'axes' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.squeeze %a {axes = array<i64: 2>} : (tensor<1x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @squeeze_dyn(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+2 {{'ge.squeeze' op cannot squeeze dynamic dimension 0 without explicit 'axes'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.squeeze %a : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @unsqueeze_repeat(%a: tensor<3xf32>) -> tensor<1x1x3xf32> {
  // expected-error @+2 {{'ge.unsqueeze' op attribute 'axes' repeats axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.unsqueeze %a {axes = array<i64: 0, 0>} : (tensor<3xf32>) -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// -----

func.func @unsqueeze_repeat_neg(%a: tensor<3xf32>) -> tensor<3x1x1xf32> {
  // expected-error @+2 {{'ge.unsqueeze' op attribute 'axes' repeats axis -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.unsqueeze %a {axes = array<i64: 2, -1>} : (tensor<3xf32>) -> tensor<3x1x1xf32>
  return %0 : tensor<3x1x1xf32>
}

// -----

func.func @unsqueeze_axis(%a: tensor<3xf32>) -> tensor<3x1xf32> {
  // expected-error @+2 {{'ge.unsqueeze' op attribute 'axes' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.unsqueeze %a {axes = array<i64: 2>} : (tensor<3xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// -----

func.func @flatten_axis(%a: tensor<2x3x4xf32>) -> tensor<24x1xf32> {
  // expected-error @+2 {{'ge.flatten' op attribute 'axis' value 4 is out of range for rank 3 (expected [-3, 3])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.flatten %a {axis = 4 : i64} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  return %0 : tensor<24x1xf32>
}

// -----

func.func @flatten_result(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+2 {{'ge.flatten' op inferred type(s) 'tensor<2x12xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.flatten %a : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @pad_count(%a: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'ge.pad' op attribute 'pads' must have 4 elements, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.pad %a {pads = array<i64: 1, 1, 1>} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_negative(%a: tensor<2x3xf32>) -> tensor<0x3xf32> {
  // expected-error @+2 {{'ge.pad' op attribute 'pads' [-2, 0, -1, 0] removes more than dimension 0 holds}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.pad %a {pads = array<i64: -2, 0, -1, 0>} : (tensor<2x3xf32>) -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

func.func @tile_neg(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'ge.tile' op attribute 'repeats' must be non-negative, got [1, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.tile %a {repeats = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @tile_count(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'ge.tile' op attribute 'repeats' must have 2 elements, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.tile %a {repeats = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @shape_result(%a: tensor<2x3x4xf32>) -> tensor<3xi64> {
  // expected-error @+2 {{'ge.shape' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.shape %a {start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @shape_elem(%a: tensor<2x3x4xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{'ge.shape' op result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<3xi32>'}}
  %0 = ge.shape %a : (tensor<2x3x4xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @dynamic_reshape_rank(%x: tensor<6xf32>, %shape: tensor<3xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'ge.dynamic_reshape' op operand 'shape' has 3 sizes for a result of rank 2}}
  %0 = ge.dynamic_reshape %x, %shape : (tensor<6xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @dynamic_reshape_type(%x: tensor<6xf32>, %shape: tensor<2xi64>) -> tensor<?x?xf16> {
  // expected-error @+1 {{'ge.dynamic_reshape' op result element type 'f16' differs from operand 'input' element type 'f32'}}
  %0 = ge.dynamic_reshape %x, %shape : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}

// -----

func.func @fill_rank(%v: tensor<f32>, %shape: tensor<3xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'ge.fill' op operand 'shape' has 3 sizes for a result of rank 2}}
  %0 = ge.fill %v, %shape : (tensor<f32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @fill_value(%v: tensor<2xf32>, %shape: tensor<1xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'ge.fill' op operand 'value' must have one element, got 'tensor<2xf32>'}}
  %0 = ge.fill %v, %shape : (tensor<2xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @range_rank(%s: tensor<f32>, %l: tensor<f32>, %d: tensor<f32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'ge.range' op result must be 1-D, got 'tensor<2x5xf32>'}}
  %0 = ge.range %s, %l, %d : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @one_hot_depth(%i: tensor<4xi64>) -> tensor<4x10xf32> {
  // expected-error @+1 {{'ge.one_hot' op result shape [4, 10] differs from the expected [4, 8]}}
  %0 = ge.one_hot %i {depth = 8 : i64} : (tensor<4xi64>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @one_hot_depth0(%i: tensor<4xi64>) -> tensor<4x0xf32> {
  // expected-error @+1 {{'ge.one_hot' op attribute 'depth' must be positive, got 0}}
  %0 = ge.one_hot %i {depth = 0 : i64} : (tensor<4xi64>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

func.func @one_hot_rank(%i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.one_hot' op result rank 1 must be the indices rank plus one (2)}}
  %0 = ge.one_hot %i {depth = 4 : i64} : (tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @one_hot_axis(%i: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'ge.one_hot' op attribute 'axis' value 2 is out of range for result rank 2}}
  %0 = ge.one_hot %i {depth = 8 : i64, axis = 2 : i64} : (tensor<4xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @top_k_big(%a: tensor<3x4xf32>) -> (tensor<3x5xf32>, tensor<3x5xi64>) {
  // expected-error @+2 {{'ge.top_k' op attribute 'k' (5) must be in [0, 4] (the size of dimension 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.top_k %a {k = 5 : i64} : (tensor<3x4xf32>) -> (tensor<3x5xf32>, tensor<3x5xi64>)
  return %0#0, %0#1 : tensor<3x5xf32>, tensor<3x5xi64>
}

// -----

func.func @top_k_neg(%a: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  // expected-error @+2 {{'ge.top_k' op attribute 'k' (-1) must be in [0, 4] (the size of dimension 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.top_k %a {k = -1 : i64} : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xi64>)
  return %0#0, %0#1 : tensor<3x4xf32>, tensor<3x4xi64>
}

// -----

func.func @top_k_axis(%a: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  // expected-error @+2 {{'ge.top_k' op attribute 'axis' value 2 is out of range for rank 2 (expected [-2, 2))}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.top_k %a {k = 2 : i64, axis = 2 : i64} : (tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// -----

func.func @top_k_scalar(%a: tensor<f32>) -> (tensor<f32>, tensor<i64>) {
  // expected-error @+2 {{'ge.top_k' op operand 'input' must be a tensor of rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = ge.top_k %a {k = 1 : i64} : (tensor<f32>) -> (tensor<f32>, tensor<i64>)
  return %0#0, %0#1 : tensor<f32>, tensor<i64>
}

// -----

func.func @trans_data_unsupported(%a: tensor<1x32x8x8xf16>) -> tensor<1x8x2x1x16x16xf16> {
  // expected-error @+2 {{'ge.trans_data' op conversion from NCHW to FRACTAL_NZ is not supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<NCHW>, dst_format = #ge.format<FRACTAL_NZ>} : (tensor<1x32x8x8xf16>) -> tensor<1x8x2x1x16x16xf16>
  return %0 : tensor<1x8x2x1x16x16xf16>
}

// -----

func.func @trans_data_c0(%a: tensor<1x2x8x8x8xf16>) -> tensor<1x16x8x8xf16> {
  // expected-error @+2 {{'ge.trans_data' op operand 'input' C0 dimension is 8, expected 16 (32 bytes of 'f16')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<NC1HWC0>, dst_format = #ge.format<NCHW>} : (tensor<1x2x8x8x8xf16>) -> tensor<1x16x8x8xf16>
  return %0 : tensor<1x16x8x8xf16>
}

// -----

func.func @trans_data_rank(%a: tensor<32x8x8xf16>) -> tensor<8x8x32xf16> {
  // expected-error @+2 {{'ge.trans_data' op operand 'input' must be 4-D for format NCHW, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<NCHW>, dst_format = #ge.format<NHWC>} : (tensor<32x8x8xf16>) -> tensor<8x8x32xf16>
  return %0 : tensor<8x8x32xf16>
}

// -----

func.func @trans_data_5d(%a: tensor<1x2x8x8xf16>) -> tensor<1x32x8x8xf16> {
  // expected-error @+2 {{'ge.trans_data' op operand 'input' must be 5-D [N, C1, H, W, C0] for format NC1HWC0, got rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<NC1HWC0>, dst_format = #ge.format<NCHW>} : (tensor<1x2x8x8xf16>) -> tensor<1x32x8x8xf16>
  return %0 : tensor<1x32x8x8xf16>
}

// -----

func.func @trans_data_orig(%a: tensor<1x2x8x8x16xf16>) -> tensor<1x8x8x8xf16> {
  // expected-error @+2 {{'ge.trans_data' op attribute 'original_shape' has 8 channels, which do not fit C1 = 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<NC1HWC0>, dst_format = #ge.format<NCHW>, original_shape = array<i64: 1, 8, 8, 8>} : (tensor<1x2x8x8x16xf16>) -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}

// -----

func.func @trans_data_fractal(%a: tensor<2x4x16x8xf16>) -> tensor<64x32xf16> {
  // expected-error @+2 {{'ge.trans_data' op operand 'input' fractal must be [16, 16], got [16, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<FRACTAL_NZ>, dst_format = #ge.format<ND>} : (tensor<2x4x16x8xf16>) -> tensor<64x32xf16>
  return %0 : tensor<64x32xf16>
}

// -----

func.func @trans_data_nd_rank(%a: tensor<16xf16>) -> tensor<1x1x16x16xf16> {
  // expected-error @+2 {{'ge.trans_data' op operand 'input' must have rank >= 2 for FRACTAL_NZ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {src_format = #ge.format<ND>, dst_format = #ge.format<FRACTAL_NZ>} : (tensor<16xf16>) -> tensor<1x1x16x16xf16>
  return %0 : tensor<1x1x16x16xf16>
}
