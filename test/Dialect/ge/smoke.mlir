// RUN: ge-opt %s | FileCheck %s

// CHECK-LABEL: func.func @smoke
func.func @smoke(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %[[R:.*]] = ge.relu %{{.*}} : tensor<2x3xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = ge.relu %a : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
