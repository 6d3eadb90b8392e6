// RUN: ge-opt %s --split-input-file --verify-diagnostics
// Issue 11: tensor types whose byte size overflows int64 are refused by the
// verifier (MLIR's strided-layout code aborts the process on them), and
// constant gather/scatter indices outside [-d, d) are refused (onnxruntime
// refuses them; the CPU code would clamp them).

func.func @conv_huge_result(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2000000002x2000000002xf32> {
  %w = ge.constant dense<1.000000e+00> : tensor<1x1x1x1xf32>
  // expected-error @+1 {{'ge.conv2d' op result #0 of type 'tensor<1x1x2000000002x2000000002xf32>' is too large: its size in bytes overflows int64}}
  %0 = ge.conv2d %x, %w {pads = array<i64: 1000000000, 1000000000, 1000000000, 1000000000>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2000000002x2000000002xf32>
  return %0 : tensor<1x1x2000000002x2000000002xf32>
}

// -----

// A huge function argument is caught at its first ge user (element count
// 2^61 fits in int64, its 2^63 bytes do not).
func.func @huge_input(%x: tensor<1099511627776x2097152xf32>) -> tensor<1099511627776x2097152xf32> {
  // expected-error @+1 {{'ge.relu' op operand #0 of type 'tensor<1099511627776x2097152xf32>' is too large}}
  %0 = ge.relu %x : tensor<1099511627776x2097152xf32>
  return %0 : tensor<1099511627776x2097152xf32>
}

// -----

// Just below the limit: 2^60 f32 elements (2^62 bytes) verify.
func.func @large_ok(%x: tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32> {
  %0 = ge.relu %x : tensor<1152921504606846976xf32>
  return %0 : tensor<1152921504606846976xf32>
}

// -----

func.func @gather_const_out_of_range(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %i = ge.constant dense<[0, 5, -9]> : tensor<3xi64>
  // expected-error @+1 {{'ge.gather' op constant index 5 (element 1 of 'indices') is out of range [-3, 3) of axis 0 of 'data' 'tensor<3x2xf32>'}}
  %0 = ge.gather %a, %i : (tensor<3x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @gather_const_negative_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %i = ge.constant dense<[-4]> : tensor<1xi32>
  // expected-error @+1 {{'ge.gather' op constant index -4 (element 0 of 'indices') is out of range [-3, 3) of axis 1}}
  %0 = ge.gather %a, %i {axis = -1 : i64} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// In-range constants (negative ones count from the end) verify.
func.func @gather_const_ok(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %i = ge.constant dense<[0, 2, -3]> : tensor<3xi64>
  %0 = ge.gather %a, %i : (tensor<3x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @gather_elements_const_out_of_range(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %i = ge.constant dense<7> : tensor<2x2xi64>
  // expected-error @+1 {{'ge.gather_elements' op constant index 7 (element 0 of 'indices') is out of range [-2, 2) of axis 0}}
  %0 = ge.gather_elements %a, %i : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @scatter_elements_const_out_of_range(%a: tensor<2x3xf32>, %u: tensor<1x2xf32>) -> tensor<2x3xf32> {
  %i = ge.constant dense<[[0, 3]]> : tensor<1x2xi64>
  // expected-error @+1 {{'ge.scatter_elements' op constant index 3 (element 1 of 'indices') is out of range [-3, 3) of axis 1}}
  %0 = ge.scatter_elements %a, %i, %u {axis = 1 : i64} : (tensor<2x3xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
