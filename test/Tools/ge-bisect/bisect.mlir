// ge-bisect: no divergence (exit 0) with the default pipeline; with a broken
// user pass it names the pass and the rewrite site (exit 3).
// RUN: ge-bisect %s | FileCheck %s --check-prefix=CLEAN
// RUN: not ge-bisect %s --pass-modules %S/Inputs/broken_add.py 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: ge-bisect %s --pass-modules %S/Inputs/broken_add.py --atol 100 | FileCheck %s --check-prefix=LOOSE
// RUN: not ge-bisect %s --config %S/Inputs/missing.json 2>&1 | FileCheck %s --check-prefix=ERR

// CLEAN: reference (no optimization) vs optimized: ok, max abs error 0
// CLEAN-NEXT: no divergence

// BROKEN: pipeline (cpu, {{[0-9]+}} passes): {{.*}}ge-fuse-lit-broken-add
// BROKEN-NEXT: reference (no optimization) vs optimized: MISMATCH, max abs error {{.*}} (output 'result0')
// BROKEN-NEXT: first bad pass: ge-fuse-lit-broken-add ({{[0-9]+}} of {{[0-9]+}})
// BROKEN-NEXT: first bad rewrite: #{{[0-9]}} at loc("add_b") 'add_b' (op ge.add) [pattern LitCommuteAddConst; 3 rewrite(s) in the pass]

// LOOSE: no divergence

// ERR: ge-bisect: error:

func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c0 = ge.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("c0")
  %c1 = ge.constant dense<[0.5, 1.5, 2.5, 3.5]> : tensor<4xf32> loc("c1")
  %c2 = ge.constant dense<[4.0, 3.0, 2.0, 1.0]> : tensor<4xf32> loc("c2")
  %0 = ge.add %x, %c0 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32> loc("add_a")
  %1 = ge.relu %0 : tensor<2x4xf32> loc("relu_a")
  %2 = ge.add %1, %c1 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32> loc("add_b")
  %3 = ge.tanh %2 : tensor<2x4xf32> loc("tanh_b")
  %4 = ge.add %3, %c2 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32> loc("add_c")
  return %4 : tensor<2x4xf32>
}
