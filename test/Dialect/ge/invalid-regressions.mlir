// Inputs that once crashed, aborted or were wrongly accepted (found by review
// and fuzzing). Every one must give a located error, never an abort.
// RUN: ge-opt %s --split-input-file --verify-diagnostics

func.func @range_non_scalar(%s: tensor<2xf32>, %l: tensor<f32>, %d: tensor<f32>) -> tensor<10xf32> {
  // expected-error @+1 {{'ge.range' op operand 'start' must be a scalar, got 'tensor<2xf32>'}}
  %0 = ge.range %s, %l, %d : (tensor<2xf32>, tensor<f32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

func.func @range_mixed_types(%s: tensor<f32>, %l: tensor<f32>, %i: tensor<i64>) -> tensor<10xf32> {
  // expected-error @+1 {{'ge.range' op operand 'delta' element type 'i64' differs from the result element type 'f32'}}
  %0 = ge.range %s, %l, %i : (tensor<f32>, tensor<f32>, tensor<i64>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

// A dynamic operand used to trip an assertion in getNumElements.
func.func @range_dynamic_operand(%q: tensor<?xf32>, %l: tensor<f32>, %d: tensor<f32>) -> tensor<?xf32> {
  %0 = ge.range %q, %l, %d : (tensor<?xf32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @trans_data_negative_original(%a: tensor<1x2x8x8x16xf16>) -> tensor<1x20x8x8xf16> {
  // expected-error @+2 {{attribute 'original_shape' [-5, 20, 8, 8] must not contain negative sizes}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {dst_format = #ge.format<NCHW>, original_shape = array<i64: -5, 20, 8, 8>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x16xf16>) -> tensor<1x20x8x8xf16>
  return %0 : tensor<1x20x8x8xf16>
}

// -----

func.func @trans_data_original_contradicts(%a: tensor<1x2x8x8x16xf16>) -> tensor<5x20x3x3xf16> {
  // expected-error @+2 {{attribute 'original_shape' [5, 20, 3, 3] contradicts the input's N, H, W [1, 8, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {dst_format = #ge.format<NCHW>, original_shape = array<i64: 5, 20, 3, 3>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x16xf16>) -> tensor<5x20x3x3xf16>
  return %0 : tensor<5x20x3x3xf16>
}

// -----

func.func @trans_data_nz_too_big(%a: tensor<2x4x16x16xf16>) -> tensor<100x100xf16> {
  // expected-error @+2 {{attribute 'original_shape' [100, 100] does not fit the fractal's [64, 32]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {dst_format = #ge.format<ND>, original_shape = array<i64: 100, 100>, src_format = #ge.format<FRACTAL_NZ>} : (tensor<2x4x16x16xf16>) -> tensor<100x100xf16>
  return %0 : tensor<100x100xf16>
}

// -----

func.func @trans_data_same_format_checked(%a: tensor<1x2x8x8x7xf16>) -> tensor<1x2x8x8x7xf16> {
  // expected-error @+2 {{operand 'input' must be [N, C1, H, W, 16] for format NC1HWC0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.trans_data %a {dst_format = #ge.format<NC1HWC0>, src_format = #ge.format<NC1HWC0>} : (tensor<1x2x8x8x7xf16>) -> tensor<1x2x8x8x7xf16>
  return %0 : tensor<1x2x8x8x7xf16>
}

// -----

func.func @tile_overflow(%a: tensor<3xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{dimension size 3 * 4611686018427387904 overflows int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.tile %a {repeats = array<i64: 4611686018427387904>} : (tensor<3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// i8: the operands' byte size fits in int64, the concatenation's does not.
func.func @concat_overflow(%a: tensor<6917529027641081856xi8>) -> tensor<?xi8> {
  // expected-error @+2 {{dimension size 6917529027641081856 + 6917529027641081856 overflows int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.concat %a, %a {axis = 0 : i64} : (tensor<6917529027641081856xi8>, tensor<6917529027641081856xi8>) -> tensor<?xi8>
  return %0 : tensor<?xi8>
}

// -----

// The element count itself overflows: rejected before MLIR parses it (its
// parser asserts on such types); flatten's own overflow check is the backstop
// for types built through the API.
// expected-error @+1 {{element count of 'tensor<3037000500x3037000500x...' overflows int64}}
func.func @flatten_overflow(%a: tensor<3037000500x3037000500xf32>) -> tensor<?x?xf32> {
  %0 = ge.flatten %a {axis = 0 : i64} : (tensor<3037000500x3037000500xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @pool_kernel_overflow(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+2 {{dimension size 4611686018427387905 * 4 overflows int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.max_pool2d %x {dilations = array<i64: 4, 1>, kernel_shape = array<i64: 4611686018427387905, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @conv_transpose_bias_type(%x: tensor<1x8x4x4xf32>, %w: tensor<8x16x3x3xf32>, %b: tensor<16xf16>) -> tensor<1x16x6x6xf32> {
  // expected-error @+2 {{operand 'bias' element type 'f16' does not match operand 'input' element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w, %b : (tensor<1x8x4x4xf32>, tensor<8x16x3x3xf32>, tensor<16xf16>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

func.func @conv_transpose_groups(%x: tensor<1x6x4x4xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x16x6x6xf32> {
  // expected-error @+2 {{input channels (6) must be divisible by 'groups' (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w {groups = 4 : i64} : (tensor<1x6x4x4xf32>, tensor<6x4x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

func.func @squeeze_repeated(%a: tensor<1x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{attribute 'axes' repeats axis -2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.squeeze %a {axes = array<i64: 0, -2>} : (tensor<1x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @pad_reflect_too_wide(%a: tensor<2x3xf32>) -> tensor<12x3xf32> {
  // expected-error @+2 {{reflect padding of dimension 0 (size 2) must be smaller than the dimension}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.pad %a {mode = #ge.pad_mode<reflect>, pads = array<i64: 5, 0, 5, 0>} : (tensor<2x3xf32>) -> tensor<12x3xf32>
  return %0 : tensor<12x3xf32>
}

// -----

func.func @reshape_not_multiple(%a: tensor<?x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'ge.reshape' op result has 7 elements, not a multiple of the input's static dims [?, 3]}}
  %0 = ge.reshape %a : tensor<?x3xf32> to tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @resize_scales_contradict(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x10x16xf32> {
  // expected-error @+1 {{'ge.resize' op result dimension 2 (10) differs from floor(8 * scale 2}}
  %0 = ge.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x10x16xf32>
  return %0 : tensor<1x3x10x16xf32>
}

// -----

func.func @resize_empty(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x0x0xf32> {
  // expected-error @+1 {{'ge.resize' op result dimension 2 is empty}}
  %0 = ge.resize %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x0x0xf32>
  return %0 : tensor<1x3x0x0xf32>
}

// -----

func.func @layer_norm_negative_epsilon(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.layer_norm' op attribute 'epsilon' must be a non-negative number, got -1.000000e+00}}
  %0 = ge.layer_norm %x, %s {epsilon = -1.0 : f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_nan_epsilon(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ge.batch_norm' op attribute 'epsilon' must be a non-negative number, got nan}}
  %0 = ge.batch_norm %x, %s, %s, %s, %s {epsilon = 0x7FC00000 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @clip_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.clip' op attribute 'min' must not be NaN}}
  %0 = ge.clip %x {max = 1.0 : f64, min = 0x7FF8000000000000 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @batch_norm_dynamic_channels_disagree(%x: tensor<2x?xf32>, %s: tensor<5xf32>, %t: tensor<4xf32>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'ge.batch_norm' op operand 'bias' must have shape [C] = [5], got [4]}}
  %0 = ge.batch_norm %x, %s, %t, %s, %s : (tensor<2x?xf32>, tensor<5xf32>, tensor<4xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

func.func @bool_arithmetic(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'ge.add' op operand #0 must be ranked tensor of floating-point or 8/16/32/64-bit signless integer}}
  %0 = ge.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'ge.softmax' op operand 'input' must have rank >= 1 for attribute 'axis'}}
  %0 = ge.softmax %x {axis = 0 : i64} : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @cast_to_index(%x: tensor<4xf32>) -> tensor<4xindex> {
  // expected-error @+1 {{'ge.cast' op result #0 must be ranked tensor of}}
  %0 = ge.cast %x : tensor<4xf32> to tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

func.func @reduce_scalar_duplicate_axes(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+2 {{attribute 'axes' names more axes than a rank-0 input has}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.reduce_sum %x {axes = array<i64: 0, 0, -1>} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// MLIR's own parser asserts on these; ge-opt rejects them before parsing.
// expected-error @+1 {{element count of 'tensor<4611686018427387904x2x...' overflows int64}}
func.func @huge_splat() -> tensor<4611686018427387904x2xf32> {
  %cst = ge.constant dense<1.0> : tensor<4611686018427387904x2xf32>
  return %cst : tensor<4611686018427387904x2xf32>
}

// -----

func.func @index_dense_array(%x: tensor<3x1x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{dense array element type must be one of i1, i8, i16, i32, i64, f32, f64, got 'index'}}
  %0 = ge.squeeze %x {axes = array<index: -2>} : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
