// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-apply-codegen-strategy{cpu=x86-64-v3})' | FileCheck %s

// ge-apply-codegen-strategy follows the path recorded on an op (ge.cpu_strategy, as
// ge-select-codegen-strategy records it) and removes the record: this convolution, which the
// selection gives tiles over the output positions, is written as im2col + one matmul as recorded.
// CHECK-LABEL: func.func @recorded(
// CHECK-NOT: ge.cpu_strategy
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x8x9x9xf32>) outs(%{{.*}} : tensor<1x8x3x3x4x4xf32>)
// CHECK-NOT: ge.cpu_strategy
// CHECK: vector.outerproduct
// CHECK-NOT: ge.cpu_strategy
// CHECK: return
func.func @recorded(%x: tensor<1x8x9x9xf32>) -> tensor<1x16x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, ge.cpu_strategy = "img2col",
                                 strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %r : tensor<1x16x4x4xf32>
}

