// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-emulate-narrow-types)' | FileCheck %s
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-emulate-narrow-types)' 2>&1 | FileCheck %s --check-prefix=ERR

// int4 is stored in i8 (the low four bits, as numpy's ml_dtypes holds it): the
// boundary becomes i8, moves stay, and the cast sign-extends the low nibble.
// CHECK-LABEL: func.func @int4_to_f32(
// CHECK-SAME: %[[A:.*]]: tensor<2x2xi8>) -> tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[A]] : tensor<2x2xi8> to tensor<4xi8>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<4xi8>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i8, %{{.*}}: f32):
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i8
// CHECK-NEXT: %[[SH:.*]] = arith.shli %[[IN]], %[[C4]] : i8
// CHECK-NEXT: %[[C4B:.*]] = arith.constant 4 : i8
// CHECK-NEXT: %[[SX:.*]] = arith.shrsi %[[SH]], %[[C4B]] : i8
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[SX]] : i8 to f32
// CHECK-NEXT: linalg.yield %[[F]] : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %[[G]] : tensor<4xf32>
func.func @int4_to_f32(%a: tensor<2x2xi4>) -> tensor<4xf32> {
  %0 = ge.reshape %a : tensor<2x2xi4> to tensor<4xi4>
  %1 = ge.cast %0 : tensor<4xi4> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// f32 -> float8 E4M3FN rounds in f64 (exact for every f32): the binade's quantum,
// roundeven, overflow to the signed NaN, and NaN kept.
// CHECK-LABEL: func.func @f32_to_e4m3fn(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>) -> tensor<3xi8>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3xi8>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<3xf32>) outs(%[[E]] : tensor<3xi8>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT: %[[D:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK: math.roundeven %{{.*}} : f64
// CHECK: arith.constant 4.480000e+02 : f64
// CHECK: arith.cmpf ogt
// CHECK: %[[T:.*]] = arith.trunci %{{.*}} : i64 to i8
// CHECK-NEXT: linalg.yield %[[T]] : i8
// CHECK-NEXT: } -> tensor<3xi8>
// CHECK-NEXT: return %[[G]] : tensor<3xi8>
func.func @f32_to_e4m3fn(%x: tensor<3xf32>) -> tensor<3xf8E4M3FN> {
  %0 = ge.cast %x : tensor<3xf32> to tensor<3xf8E4M3FN>
  return %0 : tensor<3xf8E4M3FN>
}

// -----

// A narrow constant keeps its bytes: uint4 7 and 9, float4 E2M1 1.5 (code 3).
// CHECK-LABEL: func.func @constants(
// CHECK-NEXT: %[[U:.*]] = ge.constant dense<[7, 9]> : tensor<2xi8>
// CHECK-NEXT: %[[F:.*]] = ge.constant dense<3> : tensor<2xi8>
// CHECK-NEXT: return %[[U]], %[[F]] : tensor<2xi8>, tensor<2xi8>
func.func @constants() -> (tensor<2xui4>, tensor<2xf4E2M1FN>) {
  %0 = ge.constant dense<[7, 9]> : tensor<2xui4>
  %1 = ge.constant dense<1.5> : tensor<2xf4E2M1FN>
  return %0, %1 : tensor<2xui4>, tensor<2xf4E2M1FN>
}

// -----

// Narrow values crossing an If's regions keep their bytes: the scf.if is retyped, not refused.
// CHECK-LABEL: func.func @branch(
// CHECK-SAME: %[[C:.*]]: i1, %[[A:.*]]: tensor<4xi8>, %[[B:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %[[R:.*]] = scf.if %[[C]] -> (tensor<4xi8>) {
// CHECK-NEXT: scf.yield %[[A]] : tensor<4xi8>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[B]] : tensor<4xi8>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : tensor<4xi8>
func.func @branch(%c: i1, %a: tensor<4xf8E5M2>, %b: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  %0 = scf.if %c -> (tensor<4xf8E5M2>) {
    scf.yield %a : tensor<4xf8E5M2>
  } else {
    scf.yield %b : tensor<4xf8E5M2>
  }
  return %0 : tensor<4xf8E5M2>
}

// -----

// Ops that read values refuse narrow tensors (ONNX has no arithmetic on them).
// ERR: ge-emulate-narrow-types.mlir:[[@LINE+3]]:8: error: ge-emulate-narrow-types: 'ge.pad' on f8E5M2 tensors is not supported: narrow element types are only stored, moved and cast
func.func @pad(%x: tensor<3xf8E5M2>) -> tensor<5xf8E5M2> {
  // expected-error @+1 {{'ge.pad' on f8E5M2 tensors is not supported}}
  %0 = ge.pad %x {pads = array<i64: 1, 1>} : (tensor<3xf8E5M2>) -> tensor<5xf8E5M2>
  return %0 : tensor<5xf8E5M2>
}

// -----

// ERR: ge-emulate-narrow-types.mlir:[[@LINE+3]]:8: error: ge-emulate-narrow-types: ge.cast to f8E8M0FNU is not supported
func.func @to_e8m0(%x: tensor<3xf32>) -> tensor<3xf8E8M0FNU> {
  // expected-error @+1 {{ge.cast to f8E8M0FNU is not supported}}
  %0 = ge.cast %x : tensor<3xf32> to tensor<3xf8E8M0FNU>
  return %0 : tensor<3xf8E8M0FNU>
}
