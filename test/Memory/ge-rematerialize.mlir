// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=Softmax})' | FileCheck %s --check-prefix=CKPT
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 max-chain=1})' | FileCheck %s --check-prefix=CHAIN1
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 max-extra-flops-ratio=0.1})' | FileCheck %s --check-prefix=RATIO
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100}, cse, ge-canonicalize)' | FileCheck %s --check-prefix=CSE
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize)' | FileCheck %s --check-prefix=OFF
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100})' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=softmax})' 2>&1 | FileCheck %s --check-prefix=BAD

// Tensors are 1 KiB (tensor<256xf32>); the budget is 2100 bytes (two tensors and a bit).
// %a is used right away and again at the end: it is live, unused, while %b, %c and %d
// are made (3 KiB at the tanh and the sigmoid). Recomputing the exp right before the add
// frees those points (peak 2 KiB); the original stays for the neg.
// CHECK-LABEL: func.func @late(
// CHECK-SAME: %[[X:.*]]: tensor<256xf32>)
// CHECK-SAME: ge.recompute = {extra_flops = 256 : i64, graph_flops = 1280 : i64, peak_bytes_after = 2048 : i64, peak_bytes_before = 3072 : i64, recomputed = [{before = "add_late", bytes = 1024 : i64, chain = ["ge.exp exp_a"], flops = 256 : i64, op = "ge.exp", tensor = "exp_a"}], target_bytes = 2100 : i64}
// CHECK-NEXT: %[[A:.*]] = ge.exp %[[X]] :
// CHECK-NEXT: %[[B:.*]] = ge.neg %[[A]]
// CHECK-NEXT: %[[C:.*]] = ge.tanh %[[B]]
// CHECK-NEXT: %[[D:.*]] = ge.sigmoid %[[C]]
// CHECK-NEXT: %[[A2:.*]] = ge.exp %[[X]] {ge.recompute_id = 1 : i64}
// CHECK-NEXT: %[[E:.*]] = ge.add %[[D]], %[[A2]]
// CHECK-NEXT: return %[[E]]
// The copy carries a unique ge.recompute_id: CSE and ge-canonicalize cannot merge it back.
// CSE-LABEL: func.func @late(
// CSE: ge.exp %{{.*}} :
// CSE: ge.exp %{{.*}} {ge.recompute_id = 1 : i64}
// CSE: ge.add
// Statistics (per split chunk; the first is this one).
// STATS: ge-rematerialize: extra-flops=256, graph-flops=1280, peak-bytes-after=2048, peak-bytes-before=3072, rewrites=1, tensors-recomputed=1
// Without a budget the pass leaves functions alone.
// OFF-LABEL: func.func @late(
// OFF-NOT: ge.recompute
// OFF: return
func.func @late(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = ge.exp %x : tensor<256xf32> loc("exp_a")
  %b = ge.neg %a : tensor<256xf32>
  %c = ge.tanh %b : tensor<256xf32>
  %d = ge.sigmoid %c : tensor<256xf32>
  %e = ge.add %d, %a : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32> loc("add_late")
  return %e : tensor<256xf32>
}

// -----

// Nothing helps: the peak (3 KiB, over the budget) is at the add, which reads all three
// tensors; no tensor is live there without being used. The IR is unchanged.
// CHECK-LABEL: func.func @nothing_helps(
// CHECK-NOT: ge.recompute
// CHECK: %[[A:.*]] = ge.exp
// CHECK-NEXT: %[[B:.*]] = ge.neg
// CHECK-NEXT: %[[S:.*]] = ge.add %[[A]], %[[B]]
// CHECK-NEXT: %[[C:.*]] = ge.tanh
// CHECK-NEXT: %[[R:.*]] = ge.mul %[[S]], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @nothing_helps(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = ge.exp %x : tensor<256xf32>
  %b = ge.neg %x : tensor<256xf32>
  %s = ge.add %a, %b : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %c = ge.tanh %x : tensor<256xf32>
  %r = ge.mul %s, %c : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// The same shape as @late with a softmax producer: not recomputable by default (left
// alone), recomputed when Softmax is a checkpoint op (the ONNX op type maps to ge.softmax).
// CHECK-LABEL: func.func @not_recomputable(
// CHECK-NOT: ge.recompute
// CHECK: ge.softmax
// CHECK-NEXT: ge.neg
// CHECK-NEXT: ge.tanh
// CHECK-NEXT: ge.sigmoid
// CHECK-NEXT: ge.add
// CKPT-LABEL: func.func @not_recomputable(
// CKPT: ge.recompute = {{.*}}chain = ["ge.softmax
// CKPT: ge.sigmoid
// CKPT-NEXT: %[[S2:.*]] = ge.softmax %{{.*}} {axis = 0 : i64, ge.recompute_id = 1 : i64}
// CKPT-NEXT: ge.add %{{.*}}, %[[S2]]
func.func @not_recomputable(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = ge.softmax %x {axis = 0 : i64} : tensor<256xf32>
  %b = ge.neg %a : tensor<256xf32>
  %c = ge.tanh %b : tensor<256xf32>
  %d = ge.sigmoid %c : tensor<256xf32>
  %e = ge.add %d, %a : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %e : tensor<256xf32>
}

// -----

// %b is used by the tanh and again at the end, where %a (its operand) is dead: the copy
// recomputes the chain exp -> neg from the argument (peak 3 KiB -> 2 KiB and a bit).
// With max-chain=1 only the neg could be copied, keeping %a live to the end: no gain,
// nothing changes. Under a FLOP cap of 10% (the chain costs 512 of 1536) neither.
// CHECK-LABEL: func.func @chain_back(
// CHECK-SAME: %[[X:.*]]: tensor<256xf32>)
// CHECK-SAME: extra_flops = 512
// CHECK: %[[R:.*]] = ge.reduce_sum
// CHECK-NEXT: %[[A2:.*]] = ge.exp %[[X]] {ge.recompute_id = 1 : i64}
// CHECK-NEXT: %[[B2:.*]] = ge.neg %[[A2]] {ge.recompute_id = 2 : i64}
// CHECK-NEXT: ge.add %[[B2]], %[[R]]
// CHAIN1-LABEL: func.func @chain_back(
// CHAIN1-NOT: ge.recompute
// CHAIN1: return
// RATIO-LABEL: func.func @chain_back(
// RATIO-NOT: ge.recompute
// RATIO: return
func.func @chain_back(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = ge.exp %x : tensor<256xf32>
  %b = ge.neg %a : tensor<256xf32>
  %c = ge.tanh %b : tensor<256xf32>
  %d = ge.sigmoid %c : tensor<256xf32>
  %r = ge.reduce_sum %d {axes = array<i64: 0>} : (tensor<256xf32>) -> tensor<1xf32>
  %f = ge.add %b, %r : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
  return %f : tensor<256xf32>
}

// BAD: error: ge-rematerialize: unknown checkpoint op 'softmax': expected an ONNX op type
