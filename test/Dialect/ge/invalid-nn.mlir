// RUN: ge-opt %s --split-input-file --verify-diagnostics

func.func @matmul_k_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.matmul' op contraction dimensions differ: 'lhs' [2, 3] has K = 3 but 'rhs' [4, 5] has K = 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<3x2x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<3x2x6xf32> {
  // expected-error @+2 {{'ge.matmul' op batch dimensions of 'lhs' and 'rhs' are not broadcast-compatible: [3] vs [5] (result dimension 0: 3 vs 5)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b : (tensor<3x2x4xf32>, tensor<5x4x6xf32>) -> tensor<3x2x6xf32>
  return %0 : tensor<3x2x6xf32>
}

// -----

func.func @matmul_rank0(%a: tensor<f32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'ge.matmul' op operands 'lhs' and 'rhs' must have rank >= 1 (got 0 and 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_elem(%a: tensor<2x3xf32>, %b: tensor<3x5xf16>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.matmul' op operand 'rhs' element type 'f16' does not match operand 'lhs' element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf16>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_bias(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.matmul' op operand 'bias' of shape [4] does not broadcast to [2, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b, %c : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<4xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_alpha(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.matmul' op attribute 'activation_alpha' is only valid with leaky_relu or hard_sigmoid activations, not relu}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b {activation = #ge.act<relu>, activation_alpha = 0.1 : f32} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'ge.matmul' op inferred type(s) 'tensor<2x5xf32>' are incompatible with return type(s) of operation 'tensor<2x6xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @gemm_3d(%a: tensor<1x2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.gemm' op operands 'a' and 'b' must be 2-D tensors}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gemm %a, %b : (tensor<1x2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_trans_k(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.gemm' op contraction dimensions differ: op(a) is [2, 3], op(b) is [5, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gemm %a, %b {trans_b = true} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_c(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.gemm' op operand 'c' of shape [3, 5] does not broadcast to [2, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_alpha(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'ge.gemm' op attribute 'activation_alpha' is only valid with leaky_relu or hard_sigmoid activations, not tanh}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.gemm %a, %b {activation = #ge.act<tanh>, activation_alpha = 0.5 : f32} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @conv_groups(%x: tensor<1x8x16x16xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'filter' dimension 1 (3) times 'groups' (1) must equal the input channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<1x8x16x16xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_groups2(%x: tensor<1x8x16x16xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'filter' dimension 1 (4) times 'groups' (4) must equal the input channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x16x16xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_cout_groups(%x: tensor<1x8x16x16xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op output channels (6) must be divisible by 'groups' (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x16x16xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x14x14xf32>
  return %0 : tensor<1x6x14x14xf32>
}

// -----

func.func @conv_groups0(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'groups' must be positive, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {groups = 0 : i64} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_strides_size(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x7x7xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'strides' must have 2 elements, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {strides = array<i64: 2, 2, 2>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

func.func @conv_strides_zero(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x7x7xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'strides' must be positive, got [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {strides = array<i64: 0, 2>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

func.func @conv_neg_pads(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'pads' must be non-negative, got [-1, 0, 0, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {pads = array<i64: -1, 0, 0, 0>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_pads_size(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'pads' must have 4 elements, got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {pads = array<i64: 1, 1>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32>
  return %0 : tensor<1x16x16x16xf32>
}

// -----

func.func @conv_dilations(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'dilations' must be positive, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {dilations = array<i64: 1, 0>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_bias(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'bias' must have shape [C_out] = [16], got [8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w, %b : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<8xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_bias_rank(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<1x16xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'bias' must have shape [C_out] = [16], got [1, 16]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w, %b : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<1x16xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_residual_shape(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %r: tensor<1x16x16x16xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'residual' must have the result shape [1, 16, 14, 14], got [1, 16, 16, 16]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w residual(%r) : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_residual_type(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %r: tensor<1x16x14x14xf16>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'residual' element type 'f16' does not match operand 'input' element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w residual(%r) : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<1x16x14x14xf16>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_alpha(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'activation_alpha' is only valid with leaky_relu or hard_sigmoid activations, not relu}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {activation = #ge.act<relu>, activation_alpha = 0.2 : f32} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_nc1hwc0(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op attribute 'data_format' must be NCHW or NHWC, got NC1HWC0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {data_format = #ge.format<NC1HWC0>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_nhwc_channels(%x: tensor<1x16x16x8xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x14x14x16xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'filter' dimension 1 (16) times 'groups' (1) must equal the input channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w {data_format = #ge.format<NHWC>} : (tensor<1x16x16x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x14x14x16xf32>
  return %0 : tensor<1x14x14x16xf32>
}

// -----

func.func @conv_input_rank(%x: tensor<8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'input' must be a 4-D tensor, got 'tensor<8x16x16xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<16x14x14xf32>
  return %0 : tensor<16x14x14xf32>
}

// -----

func.func @conv_filter_rank(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3xf32>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'filter' must be a 4-D [C_out, C_in/groups, kH, kW] tensor, got 'tensor<16x8x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<1x8x16x16xf32>, tensor<16x8x3xf32>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_elem(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf16>) -> tensor<1x16x14x14xf32> {
  // expected-error @+2 {{'ge.conv2d' op operand 'filter' element type 'f16' does not match operand 'input' element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf16>) -> tensor<1x16x14x14xf32>
  return %0 : tensor<1x16x14x14xf32>
}

// -----

func.func @conv_filter_too_big(%x: tensor<1x8x4x4xf32>, %w: tensor<16x8x7x7xf32>) -> tensor<1x16x1x1xf32> {
  // expected-error @+2 {{'ge.conv2d' op filter [16, 8, 7, 7] does not fit the padded input [1, 8, 4, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<1x8x4x4xf32>, tensor<16x8x7x7xf32>) -> tensor<1x16x1x1xf32>
  return %0 : tensor<1x16x1x1xf32>
}

// -----

func.func @conv_result(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32> {
  // expected-error @+2 {{'ge.conv2d' op inferred type(s) 'tensor<1x16x14x14xf32>' are incompatible with return type(s) of operation 'tensor<1x16x16x16xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d %x, %w : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32>
  return %0 : tensor<1x16x16x16xf32>
}

// -----

func.func @convt_cin(%x: tensor<1x8x4x4xf32>, %w: tensor<4x16x3x3xf32>) -> tensor<1x16x6x6xf32> {
  // expected-error @+2 {{'ge.conv_transpose2d' op operand 'filter' dimension 0 (4) must equal the input channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w : (tensor<1x8x4x4xf32>, tensor<4x16x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

func.func @convt_output_padding(%x: tensor<1x8x4x4xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<1x16x6x6xf32> {
  // expected-error @+2 {{'ge.conv_transpose2d' op attribute 'output_padding' must have 2 elements, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w {output_padding = array<i64: 1>} : (tensor<1x8x4x4xf32>, tensor<8x16x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

func.func @convt_nonpositive(%x: tensor<1x8x1x1xf32>, %w: tensor<8x16x1x1xf32>) -> tensor<1x16x1x1xf32> {
  // expected-error @+2 {{'ge.conv_transpose2d' op computed output size 0 along spatial dim 0 is not positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w {pads = array<i64: 1, 0, 0, 0>} : (tensor<1x8x1x1xf32>, tensor<8x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  return %0 : tensor<1x16x1x1xf32>
}

// -----

func.func @convt_bias(%x: tensor<1x8x4x4xf32>, %w: tensor<8x16x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x16x6x6xf32> {
  // expected-error @+2 {{'ge.conv_transpose2d' op operand 'bias' must have shape [C_out] = [16], got [8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w, %b : (tensor<1x8x4x4xf32>, tensor<8x16x3x3xf32>, tensor<8xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

func.func @convt_format(%x: tensor<1x8x4x4xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<1x16x6x6xf32> {
  // expected-error @+2 {{'ge.conv_transpose2d' op attribute 'data_format' must be NCHW or NHWC, got HWCN}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv_transpose2d %x, %w {data_format = #ge.format<HWCN>} : (tensor<1x8x4x4xf32>, tensor<8x16x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

func.func @maxpool_nofit(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32> {
  // expected-error @+2 {{'ge.max_pool2d' op window [3, 3] does not fit the padded input [1, 3, 2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

func.func @maxpool_pads(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+2 {{'ge.max_pool2d' op attribute 'pads' [2, 0, 0, 0] must be smaller than the (dilated) kernel [2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @maxpool_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+2 {{'ge.max_pool2d' op attribute 'kernel_shape' must have 2 elements, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @maxpool_rank(%x: tensor<3x8x8xf32>) -> tensor<3x4x4xf32> {
  // expected-error @+2 {{'ge.max_pool2d' op operand 'input' must be a 4-D tensor, got 'tensor<3x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x4x4xf32>
  return %0 : tensor<3x4x4xf32>
}

// -----

func.func @avgpool_pads(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+2 {{'ge.avg_pool2d' op attribute 'pads' [1, 1, 3, 1] must be smaller than the (dilated) kernel [3, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @avgpool_strides(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'ge.avg_pool2d' op attribute 'strides' must be positive, got [2, -2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, -2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @avgpool_nofit(%x: tensor<1x3x2x8xf32>) -> tensor<1x3x1x4xf32> {
  // expected-error @+2 {{'ge.avg_pool2d' op window [2, 2] does not fit the padded input [1, 3, 2, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 2, 1>} : (tensor<1x3x2x8xf32>) -> tensor<1x3x1x4xf32>
  return %0 : tensor<1x3x1x4xf32>
}

// -----

func.func @avgpool_format(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'ge.avg_pool2d' op attribute 'data_format' must be NCHW or NHWC, got NC1HWC0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, data_format = #ge.format<NC1HWC0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @gap_rank(%x: tensor<3x8xf32>) -> tensor<3x1xf32> {
  // expected-error @+2 {{'ge.global_avg_pool' op operand 'input' must be a tensor of rank >= 3, got 'tensor<3x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.global_avg_pool %x : (tensor<3x8xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// -----

func.func @gap_format(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32> {
  // expected-error @+2 {{'ge.global_avg_pool' op attribute 'data_format' must be channels-first or channels-last, got FRACTAL_NZ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.global_avg_pool %x {data_format = #ge.format<FRACTAL_NZ>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

func.func @gmp_rank(%x: tensor<8xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{'ge.global_max_pool' op operand 'input' must be a tensor of rank >= 3, got 'tensor<8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.global_max_pool %x : (tensor<8xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @gmp_result(%x: tensor<1x8x8x3xf32>) -> tensor<1x3x1x1xf32> {
  // expected-error @+2 {{'ge.global_max_pool' op inferred type(s) 'tensor<1x1x1x3xf32>' are incompatible with return type(s) of operation 'tensor<1x3x1x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.global_max_pool %x {data_format = #ge.format<NHWC>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

func.func @resize_rank(%x: tensor<1x3x8x8xf32>) -> tensor<3x16x16xf32> {
  // expected-error @+1 {{'ge.resize' op result rank 3 differs from operand 'input' rank 4}}
  %0 = ge.resize %x : (tensor<1x3x8x8xf32>) -> tensor<3x16x16xf32>
  return %0 : tensor<3x16x16xf32>
}

// -----

func.func @resize_elem(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf16> {
  // expected-error @+1 {{'ge.resize' op result element type 'f16' differs from operand 'input' element type 'f32'}}
  %0 = ge.resize %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf16>
  return %0 : tensor<1x3x16x16xf16>
}

// -----

func.func @resize_scales_size(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32> {
  // expected-error @+1 {{'ge.resize' op attribute 'scales' must have 4 elements, got 2}}
  %0 = ge.resize %x {scales = array<f32: 2.0, 2.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
  return %0 : tensor<1x3x16x16xf32>
}

// -----

func.func @resize_scales_zero(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32> {
  // expected-error @+1 {{'ge.resize' op attribute 'scales' must be positive}}
  %0 = ge.resize %x {scales = array<f32: 1.0, 1.0, 0.0, 2.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
  return %0 : tensor<1x3x16x16xf32>
}

// -----

// The custom form takes the result type from the attribute; use the generic
// form to declare a different one.
func.func @constant_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{'ge.constant' op result type 'tensor<3xf32>' differs from the type of attribute 'value' 'tensor<2xf32>'}}
  %c = "ge.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

func.func @constant_elem() -> tensor<2xf16> {
  // expected-error @+1 {{'ge.constant' op result type 'tensor<2xf16>' differs from the type of attribute 'value' 'tensor<2xf32>'}}
  %c = "ge.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf16>
  return %c : tensor<2xf16>
}

// -----

func.func @constant_vector() -> tensor<2xf32> {
  // expected-error @+1 {{'ge.constant' op result type 'tensor<2xf32>' differs from the type of attribute 'value' 'vector<2xf32>'}}
  %c = "ge.constant"() <{value = dense<1.0> : vector<2xf32>}> : () -> tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// A dynamic result type is not a refinement a constant may have.
func.func @constant_dynamic() -> tensor<?xf32> {
  // expected-error @+1 {{'ge.constant' op result type 'tensor<?xf32>' differs from the type of attribute 'value' 'tensor<2xf32>'}}
  %c = "ge.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<?xf32>
  return %c : tensor<?xf32>
}
