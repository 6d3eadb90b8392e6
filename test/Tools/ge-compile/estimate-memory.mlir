// ge-compile --estimate-memory prints the memory estimated on the optimized ge graph and stops
// before lowering (docs/memory.md, "Estimation before compile"). On this padded convolution of an
// argument the estimate's arena is the one the compiled plan then has.
// RUN: ge-compile %s --estimate-memory > %t.est
// RUN: ge-compile %s --no-progress --memory-report > %t.plan
// RUN: cat %t.est %t.plan | FileCheck %s
// RUN: ge-compile %s --estimate-memory | FileCheck %s --check-prefix=ONLY
// RUN: ge-compile %s --estimate-memory=%t.json | FileCheck %s --check-prefix=FILE
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: ge-compile %s --estimate-memory --memory-budget 0.005 | FileCheck %s --check-prefix=BUDGET
// RUN: not ge-compile %s --estimate-memory=est.txt 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ge-compile %s --estimate-memory --target ascendc 2>&1 | FileCheck %s --check-prefix=TARGET

// Weights 4x3x3x3 f32; the padded input 1x3x10x10 (1200 B, 1216 aligned) and the [27, 64] im2col are
// live together, then im2col and the accumulator, which the relu epilogue overwrites in place.
// CHECK-LABEL: memory estimate of @conv: 3 ge ops, in-place reuse, alignment 64
// CHECK-NEXT: weights 432 B 432 B constants (initializers)
// CHECK-NEXT: inputs 768 B 768 B the caller's input buffers
// CHECK-NEXT: outputs 1.00 KiB 1024 B the caller's output buffers
// CHECK-NEXT: activation peak 1.00 KiB 1024 B planned arena of 1 ge tensors
// CHECK-NEXT: workspace 6.94 KiB 7104 B 3 lowering scratch buffers add this (largest 6.75 KiB)
// CHECK-NEXT: arena 7.94 KiB [[ARENA:8128]] B activation peak + workspace
// CHECK-NEXT: total 10.11 KiB 10352 B weights + inputs + outputs + arena
// CHECK-NEXT: peak at op #1 ge.conv2d {{.*}}estimate-memory.mlir:{{[0-9]+}}:8 (gather): 7.94 KiB live
// CHECK-NEXT: 6.75 KiB im2col 1x27x64xf32 ge.conv2d
// CHECK-NEXT: 1.17 KiB padded input 1x3x10x10xf32 ge.conv2d
// CHECK-NEXT: largest activations:
// CHECK-NEXT: 1. 1.00 KiB 1x4x8x8xf32 ops 1-2 ge.conv2d {{.*}} (in place of accumulator)
// CHECK-NEXT: largest scratch buffers:
// CHECK-NEXT: 1. 6.75 KiB im2col
// CHECK-NEXT: 2. 1.17 KiB padded input
// CHECK-NEXT: 3. 1.00 KiB accumulator
// CHECK-NEXT: estimated in {{[0-9]+}} ms after {{[0-9.]+}} s of import and optimization
// CHECK: compiled {{.*}} for cpu to 'llvm'
// CHECK: chosen arena 7.94 KiB [[ARENA]] B

// Nothing is lowered or compiled.
// ONLY: arena
// ONLY-NOT: compiled

// FILE: memory estimate of @conv
// FILE: memory estimate: wrote {{.*}}.json
// JSON: "activation_peak": 1024,
// JSON: "arena": 8128,
// JSON: "weights": 432,
// JSON: "workspace": 7104

// BUDGET: the estimated arena (0.01 MiB) is over the memory budget of 0.005 MiB
// BAD: --estimate-memory FILE must end in .json
// TARGET: --estimate-memory models the cpu target's lowering
func.func @conv(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = ge.constant dense<0.5> : tensor<4x3x3x3xf32>
  %0 = ge.conv2d %x, %w {activation = #ge.act<relu>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = ge.neg %0 : tensor<1x4x8x8xf32>
  return %1 : tensor<1x4x8x8xf32>
}
