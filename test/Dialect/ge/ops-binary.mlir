// RUN: ge-opt %s | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// CHECK-LABEL: func.func @arith(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.add %[[ARG0]], %[[ARG1]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.sub %[[V0]], %[[ARG1]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.mul %[[V1]], %[[ARG0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.div %[[V2]], %[[ARG1]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.pow %[[V3]], %[[ARG1]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]+]] = ge.max %[[V4]], %[[ARG1]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]+]] = ge.min %[[V5]], %[[ARG1]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]+]] = ge.mod %[[V6]], %[[ARG1]] {fmod = true} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V7]] : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @arith(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = ge.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = ge.sub %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = ge.mul %1, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ge.div %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = ge.pow %3, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = ge.max %4, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = ge.min %5, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %7 = ge.mod %6, %b {fmod = true} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %7 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_both(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x1x5xi32>, %[[ARG1:[^ ,:)]+]]: tensor<3x1xi32>) -> tensor<4x3x5xi32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.mod %[[ARG0]], %[[ARG1]] : (tensor<4x1x5xi32>, tensor<3x1xi32>) -> tensor<4x3x5xi32>
// CHECK-NEXT: return %[[V0]] : tensor<4x3x5xi32>
// CHECK-NEXT: }
func.func @broadcast_both(%a: tensor<4x1x5xi32>, %b: tensor<3x1xi32>) -> tensor<4x3x5xi32> {
  %0 = ge.mod %a, %b : (tensor<4x1x5xi32>, tensor<3x1xi32>) -> tensor<4x3x5xi32>
  return %0 : tensor<4x3x5xi32>
}

// CHECK-LABEL: func.func @broadcast_dynamic(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<1x3xf32>) -> tensor<?x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.add %[[ARG0]], %[[ARG1]] : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x3xf32>
// CHECK-NEXT: }
func.func @broadcast_dynamic(%a: tensor<?x3xf32>, %b: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %0 = ge.add %a, %b : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @refine_dynamic(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<?x3xf32>, %[[ARG1:[^ ,:)]+]]: tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.add %[[ARG0]], %[[ARG1]] : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @refine_dynamic(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ge.add %a, %b : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @logic(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4xi1>, %[[ARG1:[^ ,:)]+]]: tensor<4xi1>) -> tensor<4xi1> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.and %[[ARG0]], %[[ARG1]] : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.or %[[V0]], %[[ARG1]] : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.xor %[[V1]], %[[ARG0]] : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: return %[[V2]] : tensor<4xi1>
// CHECK-NEXT: }
func.func @logic(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = ge.and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = ge.or %0, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = ge.xor %1, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %2 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x4xf32>, %[[ARG1:[^ ,:)]+]]: tensor<4xf32>) -> (tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>) {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.equal %[[ARG0]], %[[ARG1]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT: %[[V1:[^ ,:)]+]] = ge.less %[[ARG0]], %[[ARG1]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT: %[[V2:[^ ,:)]+]] = ge.less_equal %[[ARG0]], %[[ARG1]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT: %[[V3:[^ ,:)]+]] = ge.greater %[[ARG0]], %[[ARG1]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT: %[[V4:[^ ,:)]+]] = ge.greater_equal %[[ARG0]], %[[ARG1]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]] : tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>
// CHECK-NEXT: }
func.func @compare(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> (tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>) {
  %0 = ge.equal %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  %1 = ge.less %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  %2 = ge.less_equal %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  %3 = ge.greater %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  %4 = ge.greater_equal %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  return %0, %1, %2, %3, %4 : tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>
}

// CHECK-LABEL: func.func @where(
// CHECK-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x1xi1>, %[[ARG1:[^ ,:)]+]]: tensor<3xf32>, %[[ARG2:[^ ,:)]+]]: tensor<f32>) -> tensor<2x3xf32> {
// CHECK-NEXT: %[[V0:[^ ,:)]+]] = ge.where %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @where(%c: tensor<2x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>) -> tensor<2x3xf32> {
  %0 = ge.where %c, %x, %y : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
