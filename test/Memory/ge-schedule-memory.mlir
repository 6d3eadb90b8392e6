// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-schedule-memory)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-schedule-memory{strategy=greedy})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-schedule-memory{strategy=dfs})' | FileCheck %s
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-schedule-memory{max-ops=3})' | FileCheck %s --check-prefix=SKIP
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-schedule-memory)' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-schedule-memory{strategy=random})' 2>&1 | FileCheck %s --check-prefix=STRAT

// Two branches each materialise a 1 KiB tensor and reduce it to 4 bytes. In the
// import order both big tensors are live at once (2052 B); finishing one branch
// before starting the other needs 1032 B. The constant stays first.
// CHECK-LABEL: func.func @branches(
// CHECK-SAME: %[[X:.*]]: tensor<256xf32>)
// CHECK-NEXT: %[[C:.*]] = ge.constant
// CHECK-NEXT: %[[A:.*]] = ge.exp %[[X]]
// CHECK-NEXT: %[[A2:.*]] = ge.reduce_sum %[[A]]
// CHECK-NEXT: %[[B:.*]] = ge.neg %[[X]]
// CHECK-NEXT: %[[B2:.*]] = ge.reduce_sum %[[B]]
// CHECK-NEXT: %[[R:.*]] = ge.add %[[A2]], %[[B2]]
// CHECK-NEXT: %[[S:.*]] = ge.add %[[R]], %[[C]]
// CHECK-NEXT: return %[[S]]
// Over max-ops the function is left as it is.
// SKIP-LABEL: func.func @branches(
// SKIP-NEXT: ge.constant
// SKIP-NEXT: ge.exp
// SKIP-NEXT: ge.neg
// SKIP-NEXT: ge.reduce_sum
// Statistics (per split chunk; the first is this one): the peak before and after,
// and one op moved (the neg, after the first reduce_sum).
// STATS: ge-schedule-memory: functions-reordered=1, functions-skipped=0, peak-bytes-after=1032, peak-bytes-before=2052, rewrites=1
// STRAT: error: ge-schedule-memory: unknown strategy 'random' (best, greedy, dfs)
func.func @branches(%x: tensor<256xf32>) -> tensor<1xf32> {
  %c = ge.constant dense<1.0> : tensor<1xf32>
  %a = ge.exp %x : tensor<256xf32>
  %b = ge.neg %x : tensor<256xf32>
  %a2 = ge.reduce_sum %a {axes = array<i64: 0>} : (tensor<256xf32>) -> tensor<1xf32>
  %b2 = ge.reduce_sum %b {axes = array<i64: 0>} : (tensor<256xf32>) -> tensor<1xf32>
  %r = ge.add %a2, %b2 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %s = ge.add %r, %c : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}

// -----

// A diamond whose branches meet at the add: every order holds both 1 KiB
// tensors at once (the reshapes are views and keep their sources live), so no
// order is better and the import order stays.
// CHECK-LABEL: func.func @diamond_tie(
// CHECK-SAME: %[[X:.*]]: tensor<16x16xf32>)
// CHECK-NEXT: %[[E:.*]] = ge.exp %[[X]]
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[E]]
// CHECK-NEXT: %[[N:.*]] = ge.neg %[[X]]
// CHECK-NEXT: %[[M:.*]] = ge.reshape %[[N]]
// CHECK-NEXT: %[[A:.*]] = ge.add %[[R]], %[[M]]
// CHECK-NEXT: return %[[A]]
func.func @diamond_tie(%x: tensor<16x16xf32>) -> tensor<256xf32> {
  %e = ge.exp %x : tensor<16x16xf32>
  %r = ge.reshape %e : tensor<16x16xf32> to tensor<256xf32>
  %n = ge.neg %x : tensor<16x16xf32>
  %m = ge.reshape %n : tensor<16x16xf32> to tensor<256xf32>
  %a = ge.add %r, %m : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %a : tensor<256xf32>
}

// -----

// A chain has one topological order: nothing moves.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: ge.exp
// CHECK-NEXT: ge.relu
// CHECK-NEXT: ge.neg
// CHECK-NEXT: return
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = ge.exp %x : tensor<8xf32>
  %1 = ge.relu %0 : tensor<8xf32>
  %2 = ge.neg %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Every ge op is Pure and none has a region; ops outside the dialect that are
// not constants (here calls) may have side effects and keep their order
// relative to each other, with the ge ops reordered around them. The big
// tensor %b waits until the call that needs it, and the small branch is done
// first, but @second still runs after @first.
// CHECK-LABEL: func.func @calls(
// CHECK-SAME: %[[X:.*]]: tensor<256xf32>)
// CHECK-NEXT: %[[A:.*]] = ge.exp %[[X]]
// CHECK-NEXT: %[[S:.*]] = ge.reduce_sum %[[A]]
// CHECK-NEXT: %[[F:.*]] = call @first(%[[S]])
// CHECK-NEXT: %[[B:.*]] = ge.neg %[[X]]
// CHECK-NEXT: %[[T:.*]] = ge.reduce_sum %[[B]]
// CHECK-NEXT: %[[G:.*]] = call @second(%[[T]])
// CHECK-NEXT: %[[R:.*]] = ge.add %[[F]], %[[G]]
// CHECK-NEXT: return %[[R]]
func.func private @first(tensor<1xf32>) -> tensor<1xf32>
func.func private @second(tensor<1xf32>) -> tensor<1xf32>
func.func @calls(%x: tensor<256xf32>) -> tensor<1xf32> {
  %a = ge.exp %x : tensor<256xf32>
  %b = ge.neg %x : tensor<256xf32>
  %s = ge.reduce_sum %a {axes = array<i64: 0>} : (tensor<256xf32>) -> tensor<1xf32>
  %f = call @first(%s) : (tensor<1xf32>) -> tensor<1xf32>
  %t = ge.reduce_sum %b {axes = array<i64: 0>} : (tensor<256xf32>) -> tensor<1xf32>
  %g = call @second(%t) : (tensor<1xf32>) -> tensor<1xf32>
  %r = ge.add %f, %g : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %r : tensor<1xf32>
}
