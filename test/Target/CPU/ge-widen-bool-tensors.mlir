// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-widen-bool-tensors)' | FileCheck %s
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-widen-bool-tensors)' 2>&1 | FileCheck %s --check-prefix=ERR

// i1 tensors become i8 at the boundary and in the body; the comparison stays
// i1 and is widened (extui) where it is yielded into the widened result, and
// narrowed (trunci) where a widened input enters a region.
// CHECK-LABEL: func.func @compare(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[M:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xi8>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[M]] : tensor<4xf32>, tensor<4xi8>) outs(%[[E]] : tensor<4xi8>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[B1:.*]] = arith.trunci %[[B]] : i8 to i1
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[C:.*]] = arith.cmpf olt, %[[A]], %[[Z]] : f32
// CHECK-NEXT: %[[AND:.*]] = arith.andi %[[C]], %[[B1]] : i1
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[AND]] : i1 to i8
// CHECK-NEXT: linalg.yield %[[W]] : i8
// CHECK-NEXT: } -> tensor<4xi8>
// CHECK-NEXT: return %[[R]] : tensor<4xi8>
#id = affine_map<(d0) -> (d0)>
func.func @compare(%x: tensor<4xf32>, %m: tensor<4xi1>) -> tensor<4xi1> {
  %e = tensor.empty() : tensor<4xi1>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %m : tensor<4xf32>, tensor<4xi1>) outs(%e : tensor<4xi1>) {
  ^bb0(%a: f32, %b: i1, %o: i1):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf olt, %a, %z : f32
    %and = arith.andi %c, %b : i1
    linalg.yield %and : i1
  } -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

// Constants become 0/1 bytes; scalars stored into or read from a widened tensor are converted.
// CHECK-LABEL: func.func @constants(
// CHECK-SAME: %[[S:.*]]: i1, %[[I:.*]]: index) -> (i1, tensor<3xi8>, tensor<2xi8>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1, 0, 1]> : tensor<3xi8>
// CHECK-NEXT: %[[T:.*]] = arith.constant dense<1> : tensor<2xi8>
// CHECK-NEXT: %[[X:.*]] = tensor.extract %[[C]][%[[I]]] : tensor<3xi8>
// CHECK-NEXT: %[[X1:.*]] = arith.trunci %[[X]] : i8 to i1
// CHECK-NEXT: %[[S8:.*]] = arith.extui %[[S]] : i1 to i8
// CHECK-NEXT: %[[N:.*]] = tensor.insert %[[S8]] into %[[C]][%[[I]]] : tensor<3xi8>
// CHECK-NEXT: return %[[X1]], %[[N]], %[[T]] : i1, tensor<3xi8>, tensor<2xi8>
func.func @constants(%s: i1, %i: index) -> (i1, tensor<3xi1>, tensor<2xi1>) {
  %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %t = arith.constant dense<true> : tensor<2xi1>
  %x = tensor.extract %c[%i] : tensor<3xi1>
  %n = tensor.insert %s into %c[%i] : tensor<3xi1>
  return %x, %n, %t : i1, tensor<3xi1>, tensor<2xi1>
}

// -----

// A constant that is not dense (a resource blob) is refused before anything changes.
// ERR: ge-widen-bool-tensors.mlir:[[@LINE+3]]:8: error: ge-widen-bool-tensors: unsupported i1 constant dense_resource<bits> : tensor<4xi1>
func.func @blob() -> tensor<4xi1> {
  // expected-error @+1 {{ge-widen-bool-tensors: unsupported i1 constant}}
  %c = arith.constant dense_resource<bits> : tensor<4xi1>
  return %c : tensor<4xi1>
}

{-#
  dialect_resources: {
    builtin: {
      bits: "0x0100000001000101"
    }
  }
#-}
