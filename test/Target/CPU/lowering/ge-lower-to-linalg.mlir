// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s
// RUN: not ge-opt %s --split-input-file --ge-lower-to-linalg=fail-on-unlowered=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAIL

// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>

// Broadcasting: a trailing-dim operand and a size-1 dimension read index 0.
// CHECK-LABEL: func.func @broadcast_add(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi32>, %[[Y:.*]]: tensor<3xi32>, %[[Z:.*]]: tensor<2x1xi32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT: %[[A:.*]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]] : tensor<2x3xi32>, tensor<3xi32>) outs(%[[E]] : tensor<2x3xi32>) {
// CHECK-NEXT: ^bb0(%[[L:.*]]: i32, %[[R:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[L]], %[[R]] : i32
// CHECK-NEXT: linalg.yield %[[S]] : i32
// CHECK-NEXT: } -> tensor<2x3xi32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[ID2]], #[[COL]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[Z]] : tensor<2x3xi32>, tensor<2x1xi32>) outs(%[[E2]] : tensor<2x3xi32>) {
// CHECK: arith.subi
func.func @broadcast_add(%x: tensor<2x3xi32>, %y: tensor<3xi32>, %z: tensor<2x1xi32>) -> tensor<2x3xi32> {
  %0 = ge.add %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = ge.sub %0, %z : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  return %1 : tensor<2x3xi32>
}

// -----

// Unary: one parallel generic over a tensor.empty init.
// CHECK-LABEL: func.func @unary(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[M:[a-z0-9]+]], #[[M]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[IN]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
// CHECK-NEXT: } -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ge.relu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Compare (ordered for floats) feeding where; a constant becomes arith.constant.
// CHECK-LABEL: func.func @compare_where(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xi1>
// CHECK-NEXT: %[[M:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[C]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xi1>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[LT:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[LT]] : i1
// CHECK-NEXT: } -> tensor<4xi1>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[W:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[X]], %[[Y]] : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%[[E2]] : tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%[[P:.*]]: i1, %[[T:.*]]: f32, %[[F:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[P]], %[[T]], %[[F]] : f32
// CHECK-NEXT: linalg.yield %[[SEL]] : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %[[W]]
func.func @compare_where(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c = ge.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = ge.less %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = ge.where %0, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Casts: signed for signless ints, unsigned for ui*; f16 math runs in f32.
// CHECK-LABEL: func.func @casts(
// CHECK: ^bb0(%[[A:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT: %[[I:.*]] = arith.fptosi %[[A]] : f32 to i8
// CHECK-NEXT: linalg.yield %[[I]] : i8
// CHECK: ^bb0(%[[U:.*]]: ui16, %{{.*}}: f16):
// CHECK-NEXT: %[[S:.*]] = builtin.unrealized_conversion_cast %[[U]] : ui16 to i16
// CHECK-NEXT: %[[H:.*]] = arith.uitofp %[[S]] : i16 to f16
// CHECK-NEXT: linalg.yield %[[H]] : f16
// CHECK: ^bb0(%[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[W]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[N]] : f16
func.func @casts(%x: tensor<4xf32>, %u: tensor<4xui16>) -> (tensor<4xi8>, tensor<4xf16>) {
  %0 = ge.cast %x : tensor<4xf32> to tensor<4xi8>
  %1 = ge.cast %u : tensor<4xui16> to tensor<4xf16>
  %2 = ge.exp %1 : tensor<4xf16>
  return %0, %2 : tensor<4xi8>, tensor<4xf16>
}

// -----

// dense_resource constants lower too; identity forwards its operand.
// CHECK-LABEL: func.func @resource(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense_resource<w> : tensor<2xi32>
// CHECK-NEXT: return %[[C]]
func.func @resource() -> tensor<2xi32> {
  %c = ge.constant dense_resource<w> : tensor<2xi32>
  %0 = ge.identity %c : tensor<2xi32>
  return %0 : tensor<2xi32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000100000002000000"
    }
  }
#-}

// -----

// Negative: an op without a lowering stays (its elementwise user is lowered),
// and so does an elementwise op on a dynamically shaped tensor.
// A dynamically shaped op stays; its static neighbours are lowered.
// CHECK-LABEL: func.func @unsupported(
// CHECK-NEXT: %[[C:.*]] = ge.conv2d %{{.*}} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32>
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x4xf32>)
// CHECK: math.tanh
// FAIL: ge-lower-to-linalg.mlir:[[# @LINE + 3]]:8: error: ge-lower-to-linalg: op 'ge.conv2d' was not lowered to linalg (dynamic shape or unsupported element type)
// FAIL-NOT: error
func.func @unsupported(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %s: tensor<2x4xf32>) -> (tensor<?x4x6x6xf32>, tensor<2x4xf32>) {
  %0 = ge.conv2d %x, %w : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32>
  %1 = ge.tanh %s : tensor<2x4xf32>
  return %0, %1 : tensor<?x4x6x6xf32>, tensor<2x4xf32>
}

// -----

// Dynamic dims lower (ge-lower-to-linalg-dynamic.mlir has the details).
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %{{.*}}, %[[C0]] : tensor<?x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: return %[[R]] : tensor<?x4xf32>
func.func @dynamic(%d: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = ge.relu %d : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
