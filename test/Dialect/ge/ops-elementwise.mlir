// RUN: ge-opt %s | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// CHECK-LABEL: func.func @unary_float(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.abs %[[ARG0]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.neg %[[V0]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.exp %[[V1]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.log %[[V2]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.sqrt %[[V3]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.rsqrt %[[V4]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]+]] = ge.reciprocal %[[V5]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]+]] = ge.tanh %[[V6]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]+]] = ge.sigmoid %[[V7]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]+]] = ge.relu %[[V8]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]+]] = ge.erf %[[V9]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]+]] = ge.sin %[[V10]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]+]] = ge.cos %[[V11]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]+]] = ge.floor %[[V12]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]+]] = ge.ceil %[[V13]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]+]] = ge.round %[[V14]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]+]] = ge.sign %[[V15]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]+]] = ge.softplus %[[V16]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]+]] = ge.hard_swish %[[V17]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]+]] = ge.silu %[[V18]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]+]] = ge.identity %[[V19]] : tensor<2x3xf32>
// CHECK-NEXT: return %[[V20]] : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @unary_float(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ge.abs %x : tensor<2x3xf32>
  %1 = ge.neg %0 : tensor<2x3xf32>
  %2 = ge.exp %1 : tensor<2x3xf32>
  %3 = ge.log %2 : tensor<2x3xf32>
  %4 = ge.sqrt %3 : tensor<2x3xf32>
  %5 = ge.rsqrt %4 : tensor<2x3xf32>
  %6 = ge.reciprocal %5 : tensor<2x3xf32>
  %7 = ge.tanh %6 : tensor<2x3xf32>
  %8 = ge.sigmoid %7 : tensor<2x3xf32>
  %9 = ge.relu %8 : tensor<2x3xf32>
  %10 = ge.erf %9 : tensor<2x3xf32>
  %11 = ge.sin %10 : tensor<2x3xf32>
  %12 = ge.cos %11 : tensor<2x3xf32>
  %13 = ge.floor %12 : tensor<2x3xf32>
  %14 = ge.ceil %13 : tensor<2x3xf32>
  %15 = ge.round %14 : tensor<2x3xf32>
  %16 = ge.sign %15 : tensor<2x3xf32>
  %17 = ge.softplus %16 : tensor<2x3xf32>
  %18 = ge.hard_swish %17 : tensor<2x3xf32>
  %19 = ge.silu %18 : tensor<2x3xf32>
  %20 = ge.identity %19 : tensor<2x3xf32>
  return %20 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @unary_attrs(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4xf16>) -> tensor<4xf16> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.leaky_relu %[[ARG0]] : tensor<4xf16>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.leaky_relu %[[V0]] {alpha = 2.000000e-01 : f32} : tensor<4xf16>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.gelu %[[V1]] : tensor<4xf16>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.gelu %[[V2]] {tanh_approx = true} : tensor<4xf16>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.hard_sigmoid %[[V3]] : tensor<4xf16>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.hard_sigmoid %[[V4]] {alpha = 0.166666672 : f32} : tensor<4xf16>
// CHECK-NEXT: return %[[V5]] : tensor<4xf16>
// CHECK-NEXT: }
func.func @unary_attrs(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = ge.leaky_relu %x : tensor<4xf16>
  %1 = ge.leaky_relu %0 {alpha = 2.000000e-01 : f32} : tensor<4xf16>
  %2 = ge.gelu %1 : tensor<4xf16>
  %3 = ge.gelu %2 {tanh_approx = true} : tensor<4xf16>
  %4 = ge.hard_sigmoid %3 : tensor<4xf16>
  %5 = ge.hard_sigmoid %4 {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<4xf16>
  return %5 : tensor<4xf16>
}

// CHECK-LABEL: func.func @unary_int(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<5xi32>, %[[ARG1:[^ ,:)]+]]: tensor<5xi1>) -> (tensor<5xi32>, tensor<5xi1>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.abs %[[ARG0]] : tensor<5xi32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.neg %[[V0]] : tensor<5xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.relu %[[V1]] : tensor<5xi32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.sign %[[V2]] : tensor<5xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.not %[[ARG1]] : tensor<5xi1>
// CHECK-NEXT: return %[[V3]], %[[V4]] : tensor<5xi32>, tensor<5xi1>
// CHECK-NEXT: }
func.func @unary_int(%x: tensor<5xi32>, %b: tensor<5xi1>) -> (tensor<5xi32>, tensor<5xi1>) {
  %0 = ge.abs %x : tensor<5xi32>
  %1 = ge.neg %0 : tensor<5xi32>
  %2 = ge.relu %1 : tensor<5xi32>
  %3 = ge.sign %2 : tensor<5xi32>
  %4 = ge.not %b : tensor<5xi1>
  return %3, %4 : tensor<5xi32>, tensor<5xi1>
}

// CHECK-LABEL: func.func @clip(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x2xf32>) -> tensor<2x2xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.clip %[[ARG0]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x2xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.clip %[[V0]] {min = -1.000000e+00 : f64} : tensor<2x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.clip %[[V1]] : tensor<2x2xf32>
// CHECK-NEXT: return %[[V2]] : tensor<2x2xf32>
// CHECK-NEXT: }
func.func @clip(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = ge.clip %x {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x2xf32>
  %1 = ge.clip %0 {min = -1.000000e+00 : f64} : tensor<2x2xf32>
  %2 = ge.clip %1 : tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @scan_softmax(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8xf32>) -> tensor<2x8xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.cumsum %[[ARG0]] {axis = 1 : i64} : tensor<2x8xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.cumsum %[[V0]] {axis = -1 : i64, exclusive = true, reverse = true} : tensor<2x8xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.softmax %[[V1]] : tensor<2x8xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.softmax %[[V2]] {axis = 0 : i64} : tensor<2x8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.log_softmax %[[V3]] : tensor<2x8xf32>
// CHECK-NEXT: return %[[V4]] : tensor<2x8xf32>
// CHECK-NEXT: }
func.func @scan_softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = ge.cumsum %x {axis = 1 : i64} : tensor<2x8xf32>
  %1 = ge.cumsum %0 {axis = -1 : i64, exclusive = true, reverse = true} : tensor<2x8xf32>
  %2 = ge.softmax %1 : tensor<2x8xf32>
  %3 = ge.softmax %2 {axis = 0 : i64} : tensor<2x8xf32>
  %4 = ge.log_softmax %3 : tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @cast(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x?xf32>) -> tensor<2x?xi64> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.cast %[[ARG0]] : tensor<2x?xf32> to tensor<2x?xf16>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.cast %[[V0]] : tensor<2x?xf16> to tensor<2x?xi64>
// CHECK-NEXT: return %[[V1]] : tensor<2x?xi64>
// CHECK-NEXT: }
func.func @cast(%x: tensor<2x?xf32>) -> tensor<2x?xi64> {
  %0 = ge.cast %x : tensor<2x?xf32> to tensor<2x?xf16>
  %1 = ge.cast %0 : tensor<2x?xf16> to tensor<2x?xi64>
  return %1 : tensor<2x?xi64>
}

// CHECK-LABEL: func.func @bitcast(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x?xf32>, %[[ARG1:[^ ,:)]+]]: tensor<3xi1>) -> (tensor<2x?xi32>, tensor<3xui8>, tensor<4xi8>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.bitcast %[[ARG0]] : tensor<2x?xf32> to tensor<2x?xi32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.bitcast %[[ARG1]] : tensor<3xi1> to tensor<3xui8>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.constant
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.bitcast %[[V2]] : tensor<4xf8E4M3FN> to tensor<4xi8>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V3]] : tensor<2x?xi32>, tensor<3xui8>, tensor<4xi8>
// CHECK-NEXT: }
func.func @bitcast(%x: tensor<2x?xf32>, %b: tensor<3xi1>) -> (tensor<2x?xi32>, tensor<3xui8>, tensor<4xi8>) {
  %0 = ge.bitcast %x : tensor<2x?xf32> to tensor<2x?xi32>
  %1 = ge.bitcast %b : tensor<3xi1> to tensor<3xui8>
  %c = ge.constant dense<1.0> : tensor<4xf8E4M3FN>
  %2 = ge.bitcast %c : tensor<4xf8E4M3FN> to tensor<4xi8>
  return %0, %1, %2 : tensor<2x?xi32>, tensor<3xui8>, tensor<4xi8>
}

// CHECK-LABEL: func.func @inverse_trig_cumprod(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x8xf32>) -> tensor<2x8xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.acos %[[ARG0]] : tensor<2x8xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.asin %[[V0]] : tensor<2x8xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.atan %[[V1]] : tensor<2x8xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.cumprod %[[V2]] {axis = 1 : i64, exclusive = true} : tensor<2x8xf32>
// CHECK-NEXT: return %[[V3]] : tensor<2x8xf32>
// CHECK-NEXT: }
func.func @inverse_trig_cumprod(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = ge.acos %x : tensor<2x8xf32>
  %1 = ge.asin %0 : tensor<2x8xf32>
  %2 = ge.atan %1 : tensor<2x8xf32>
  %3 = ge.cumprod %2 {axis = 1 : i64, exclusive = true} : tensor<2x8xf32>
  return %3 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @bitwise(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4xui8>, %[[ARG1:[^ ,:)]+]]: tensor<3x1xui8>) -> tensor<3x4xui8> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.bitwise_not %[[ARG0]] : tensor<4xui8>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.bitwise_and %[[V0]], %[[ARG1]] : (tensor<4xui8>, tensor<3x1xui8>) -> tensor<3x4xui8>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.bitwise_or %[[V1]], %[[ARG0]] : (tensor<3x4xui8>, tensor<4xui8>) -> tensor<3x4xui8>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.bitwise_xor %[[V2]], %[[V1]] : (tensor<3x4xui8>, tensor<3x4xui8>) -> tensor<3x4xui8>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.bit_shift %[[V3]], %[[ARG1]] {right = true} : (tensor<3x4xui8>, tensor<3x1xui8>) -> tensor<3x4xui8>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.bit_shift %[[V4]], %[[ARG1]] : (tensor<3x4xui8>, tensor<3x1xui8>) -> tensor<3x4xui8>
// CHECK-NEXT: return %[[V5]] : tensor<3x4xui8>
// CHECK-NEXT: }
func.func @bitwise(%a: tensor<4xui8>, %b: tensor<3x1xui8>) -> tensor<3x4xui8> {
  %0 = ge.bitwise_not %a : tensor<4xui8>
  %1 = ge.bitwise_and %0, %b : (tensor<4xui8>, tensor<3x1xui8>) -> tensor<3x4xui8>
  %2 = ge.bitwise_or %1, %a : (tensor<3x4xui8>, tensor<4xui8>) -> tensor<3x4xui8>
  %3 = ge.bitwise_xor %2, %1 : (tensor<3x4xui8>, tensor<3x4xui8>) -> tensor<3x4xui8>
  %4 = ge.bit_shift %3, %b {right = true} : (tensor<3x4xui8>, tensor<3x1xui8>) -> tensor<3x4xui8>
  %5 = ge.bit_shift %4, %b : (tensor<3x4xui8>, tensor<3x1xui8>) -> tensor<3x4xui8>
  return %5 : tensor<3x4xui8>
}
