// ge-compile --memory-budget with --recompute (docs/memory.md, "Rematerialization"): the plan
// over the budget is rematerialized until it fits, and --memory-report says what was recomputed.
// RUN: ge-compile %s --no-progress --memory-budget 0.04 --recompute --memory-report | FileCheck %s
// RUN: not ge-compile %s --no-progress --memory-budget 0.04 2>&1 | FileCheck %s --check-prefix=NO
// RUN: not ge-compile %s --no-progress --memory-budget 0.02 --recompute 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not ge-compile %s --no-progress --memory-budget 0.04 --recompute --recompute-ratio 0.001 2>&1 | FileCheck %s --check-prefix=CAP

// %a (16 KiB) is read by the first matmul and again by the add: 48 KiB are live at the
// middle matmuls. Recomputing the exp before the add leaves 32 KiB, under 0.04 MiB.
// CHECK: output result0: 64x64 float32
// CHECK: chosen arena {{ *}}32.00 KiB
// CHECK: recompute: arena 48.00 KiB -> 32.00 KiB (0.667x) under the budget of 40.96 KiB, 1 tensor(s) recomputed, 1 lowering attempt(s)
// CHECK-NEXT: extra FLOPs  4.1 kFLOP ({{[0-9.]+}}% of {{.*}}; cap none); checkpoint ops: none
// CHECK-NEXT: exp_a (ge.exp, 16.00 KiB) before add_late: ge.exp exp_a (+4.1 kFLOP)

// Without --recompute the budget fails, naming the peak and suggesting recompute.
// NO: error: @late needs 48.0 KiB (49152 bytes) for its intermediate tensors, over the memory budget of 41.0 KiB; the peak is at op #{{[0-9]+}}, where 48.0 KiB are live: {{.*}} raise memory_budget_mb, or enable recompute

// A budget no recomputation reaches (an op's inputs and result already need 32 KiB).
// FAIL: error: @late needs 48.0 KiB (49152 bytes) {{.*}} rematerialization (recompute) was tried: 1 tensor(s) recomputed for +4.1 kFLOP ({{.*}}), {{[0-9]+}} attempt(s), the smallest plan reached 32.0 KiB (32768 bytes)

// A FLOP cap below the exp's cost.
// CAP: error: @late needs 48.0 KiB {{.*}} rematerialization (recompute) was tried: 0 tensor(s) recomputed {{.*}} (the recompute_ratio cap stopped it)
func.func @late(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = ge.exp %x : tensor<64x64xf32> loc("exp_a")
  %b = ge.matmul %a, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = ge.matmul %b, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = ge.matmul %c, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = ge.add %d, %a : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("add_late")
  return %e : tensor<64x64xf32>
}
