// RUN: ge-opt %s --split-input-file --verify-diagnostics

// The training gradients: out_backprop must have the shape the forward op gives for
// input_size / filter_size; channel, group, stride and rank mistakes are named.
func.func @bpi_out_shape(%w: tensor<16x8x3x3xf32>, %dy: tensor<1x16x4x5xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op operand 'out_backprop' must have the forward conv2d's result shape [N, C_out, OH, OW] = [1, 16, 4, 4], got [1, 16, 4, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>, strides = array<i64: 2, 2>} : (tensor<16x8x3x3xf32>, tensor<1x16x4x5xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpi_out_channels(%w: tensor<16x8x3x3xf32>, %dy: tensor<1x8x7x7xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op operand 'out_backprop' must have the forward conv2d's result shape [N, C_out, OH, OW] = [1, 16, 7, 7], got [1, 8, 7, 7]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>} : (tensor<16x8x3x3xf32>, tensor<1x8x7x7xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpi_groups(%w: tensor<16x4x3x3xf32>, %dy: tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op filter dimension 1 (4) times 'groups' (1) must equal the input channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>} : (tensor<16x4x3x3xf32>, tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpi_cout_groups(%w: tensor<6x2x3x3xf32>, %dy: tensor<1x6x7x7xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op output channels (6) must be divisible by 'groups' (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {groups = 4 : i64, input_size = array<i64: 1, 8, 9, 9>} : (tensor<6x2x3x3xf32>, tensor<1x6x7x7xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpi_stride0(%w: tensor<16x8x3x3xf32>, %dy: tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op attribute 'strides' must be positive, got [0, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>, strides = array<i64: 0, 1>} : (tensor<16x8x3x3xf32>, tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpi_input_size(%w: tensor<16x8x3x3xf32>, %dy: tensor<1x16x7x7xf32>) -> tensor<8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op attribute 'input_size' must have 4 elements, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 8, 9, 9>} : (tensor<16x8x3x3xf32>, tensor<1x16x7x7xf32>) -> tensor<8x9x9xf32>
  return %0 : tensor<8x9x9xf32>
}

// -----

func.func @bpi_rank(%w: tensor<16x8x3xf32>, %dy: tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op operand 'filter' must be a 4-D [C_out, C_in/groups, kH, kW] tensor, got 'tensor<16x8x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>} : (tensor<16x8x3xf32>, tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpi_elem(%w: tensor<16x8x3x3xf16>, %dy: tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_input' op operand 'out_backprop' element type 'f32' does not match operand 'filter' element type 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>} : (tensor<16x8x3x3xf16>, tensor<1x16x7x7xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @bpf_out_shape(%x: tensor<2x8x9x9xf32>, %dy: tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_filter' op operand 'out_backprop' must have the forward conv2d's result shape [N, C_out, OH, OW] = [2, 16, 5, 5], got [2, 16, 7, 7]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_filter %x, %dy {dilations = array<i64: 2, 2>, filter_size = array<i64: 16, 8, 3, 3>} : (tensor<2x8x9x9xf32>, tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// -----

func.func @bpf_dilation0(%x: tensor<2x8x9x9xf32>, %dy: tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_filter' op attribute 'dilations' must be positive, got [1, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, -1>, filter_size = array<i64: 16, 8, 3, 3>} : (tensor<2x8x9x9xf32>, tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// -----

func.func @bpf_groups(%x: tensor<2x8x9x9xf32>, %dy: tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_filter' op filter dimension 1 (8) times 'groups' (2) must equal the input channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_filter %x, %dy {filter_size = array<i64: 16, 8, 3, 3>, groups = 2 : i64} : (tensor<2x8x9x9xf32>, tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// -----

func.func @bpf_nofit(%x: tensor<2x8x2x2xf32>, %dy: tensor<2x16x1x1xf32>) -> tensor<16x8x3x3xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_filter' op filter [16, 8, 3, 3] does not fit the padded input [2, 8, 2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_filter %x, %dy {filter_size = array<i64: 16, 8, 3, 3>} : (tensor<2x8x2x2xf32>, tensor<2x16x1x1xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// -----

func.func @bpf_filter_size(%x: tensor<2x8x9x9xf32>, %dy: tensor<2x16x7x7xf32>) -> tensor<16x8x0x3xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_filter' op attribute 'filter_size' must be positive, got [16, 8, 0, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_filter %x, %dy {filter_size = array<i64: 16, 8, 0, 3>} : (tensor<2x8x9x9xf32>, tensor<2x16x7x7xf32>) -> tensor<16x8x0x3xf32>
  return %0 : tensor<16x8x0x3xf32>
}

// -----

func.func @bpf_rank(%x: tensor<8x9x9xf32>, %dy: tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32> {
  // expected-error @+2 {{'ge.conv2d_backprop_filter' op operand 'input' must be a 4-D [N, C_in, H, W] tensor, got 'tensor<8x9x9xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.conv2d_backprop_filter %x, %dy {filter_size = array<i64: 16, 8, 3, 3>} : (tensor<8x9x9xf32>, tensor<2x16x7x7xf32>) -> tensor<16x8x3x3xf32>
  return %0 : tensor<16x8x3x3xf32>
}

// -----

func.func @apg_out_shape(%dy: tensor<1x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  // expected-error @+2 {{'ge.avg_pool_grad' op operand 'out_backprop' must have the forward avg_pool2d's result shape [N, C, OH, OW] = [1, 8, 4, 4], got [1, 8, 3, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool_grad %dy {ceil_mode = true, input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  return %0 : tensor<1x8x7x7xf32>
}

// -----

func.func @apg_pads(%dy: tensor<1x8x4x4xf32>) -> tensor<1x8x7x7xf32> {
  // expected-error @+2 {{'ge.avg_pool_grad' op attribute 'pads' [2, 0, 0, 0] must be smaller than the (dilated) kernel [2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool_grad %dy {input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>) -> tensor<1x8x7x7xf32>
  return %0 : tensor<1x8x7x7xf32>
}

// -----

func.func @apg_strides(%dy: tensor<1x8x4x4xf32>) -> tensor<1x8x7x7xf32> {
  // expected-error @+2 {{'ge.avg_pool_grad' op attribute 'strides' must be positive, got [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool_grad %dy {input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 0, 2>} : (tensor<1x8x4x4xf32>) -> tensor<1x8x7x7xf32>
  return %0 : tensor<1x8x7x7xf32>
}

// -----

func.func @apg_rank(%dy: tensor<8x4x4xf32>) -> tensor<1x8x7x7xf32> {
  // expected-error @+2 {{'ge.avg_pool_grad' op operand 'out_backprop' must be a 4-D [N, C, OH, OW] tensor, got 'tensor<8x4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ge.avg_pool_grad %dy {input_size = array<i64: 1, 8, 7, 7>, kernel_shape = array<i64: 2, 2>} : (tensor<8x4x4xf32>) -> tensor<1x8x7x7xf32>
  return %0 : tensor<1x8x7x7xf32>
}
