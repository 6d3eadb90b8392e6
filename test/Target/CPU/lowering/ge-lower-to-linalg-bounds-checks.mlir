// ge-lower-to-linalg{check-bounds=true}: run-time gather/scatter indices are
// counted out of [-d, d) into extra function results listed in the
// ge.bounds_checks attribute (the CPU executable raises ExecutionError on a
// nonzero count; issue 11). Constant indices get no check (the verifier
// refuses out-of-range constants); without the option nothing changes.
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-lower-to-linalg{check-bounds=true})' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @gather(
// CHECK-SAME: -> (tensor<3x2xf32>, tensor<i64>)
// CHECK-SAME: ge.bounds_checks = [{axis_size = 3 : i64, loc = "{{.*}}ge-lower-to-linalg-bounds-checks.mlir:{{[0-9]+}}:{{[0-9]+}}", op = "ge.gather"}]
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: %[[BAD:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%arg1 : tensor<3xi32>) outs(%[[ZERO]] : tensor<i64>)
// CHECK: arith.extsi
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK: return %[[Y]], %[[BAD]] : tensor<3x2xf32>, tensor<i64>
// OFF-LABEL: func.func @gather(
// OFF-SAME: -> tensor<3x2xf32> {
// OFF-NOT: ge.bounds_checks
func.func @gather(%a: tensor<3x2xf32>, %i: tensor<3xi32>) -> tensor<3x2xf32> {
  %0 = ge.gather %a, %i : (tensor<3x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @two_ops(
// CHECK-SAME: -> (tensor<2x2xf32>, tensor<3x3xf32>, tensor<i64>, tensor<i64>)
// CHECK-SAME: ge.bounds_checks = [{axis_size = 3 : i64, {{.*}}op = "ge.gather_elements"}, {axis_size = 3 : i64, {{.*}}op = "ge.scatter_elements"}]
func.func @two_ops(%a: tensor<2x3xf32>, %i: tensor<2x2xi64>, %d: tensor<3x3xf32>, %j: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> (tensor<2x2xf32>, tensor<3x3xf32>) {
  %0 = ge.gather_elements %a, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %1 = ge.scatter_elements %d, %j, %u : (tensor<3x3xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<3x3xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<3x3xf32>
}

// CHECK-LABEL: func.func @constant_indices(
// CHECK-SAME: -> tensor<2x2xf32> {
// CHECK-NOT: ge.bounds_checks
func.func @constant_indices(%a: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %i = ge.constant dense<[0, -1]> : tensor<2xi64>
  %0 = ge.gather %a, %i : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
