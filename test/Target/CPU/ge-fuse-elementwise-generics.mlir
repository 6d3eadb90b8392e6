// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-fuse-elementwise-generics)' | FileCheck %s

// LLaMA's SiLU gate, x * sigmoid(x) * up: three generics become one reading x once and up once,
// the sigmoid's body first, then the products; no intermediate tensor is left.
// CHECK-LABEL: func.func @silu_gate(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[UP:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.generic {{.*}} ins(%[[UP]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[U:.*]]: f32, %[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[A]] : f32
// CHECK-NEXT: %[[EX:.*]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[ONE]], %[[EX]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: %[[G:.*]] = arith.mulf %[[A]], %[[S]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[G]], %[[U]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
// CHECK-NEXT: } -> tensor<4x8xf32>
// CHECK-NEXT: return %[[F]] : tensor<4x8xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @silu_gate(%x: tensor<4x8xf32>, %up: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %up : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Not fused: a producer with a second reader (its value is needed anyway), a broadcast read
// (not the identity map: the producer would be recomputed per row), a reduction consumer, and a
// producer that reads its own output's old value.
// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-7: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>
func.func @kept(%x: tensor<4x8xf32>, %v: tensor<4xf32>, %acc: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %twice = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %used = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%twice : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %ev = tensor.empty() : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %zero = linalg.fill ins(%z : f32) outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%twice : tensor<4x8xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %accum = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %after = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%accum : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %ev2 = tensor.empty() : tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%v : tensor<4xf32>) outs(%ev2 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %bcast = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %neg : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %used, %twice, %sum, %after, %bcast : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
