// Checkpoint ops named as the FX importer locates ops (a training step): by ATen op (with or
// without its overload) and by node-name pattern (node:<fnmatch glob>). A copy is located at
// "<node>/recompute" around the original location (the training memory report tells it from
// the original by that name).
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=aten._softmax})' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=aten._softmax.default})' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=node:_soft*})' | FileCheck %s
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=aten.mm})' | FileCheck %s --check-prefix=OTHER
// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=aten._softmax})' --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: not ge-opt %s --pass-pipeline='builtin.module(ge-rematerialize{budget-bytes=2100 checkpoint-ops=node:})' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @fx_step(
// CHECK-SAME: chain = ["ge.softmax _softmax"]
// CHECK: %[[S:.*]] = ge.softmax
// CHECK-NEXT: ge.neg %[[S]]
// CHECK-NEXT: ge.tanh
// CHECK-NEXT: %[[D:.*]] = ge.sigmoid
// CHECK-NEXT: %[[S2:.*]] = ge.softmax %{{.*}} {axis = 0 : i64, ge.recompute_id = 1 : i64}
// CHECK-NEXT: ge.add %[[D]], %[[S2]]
// The softmax is no checkpoint op there: nothing is recomputed.
// OTHER-LABEL: func.func @fx_step(
// OTHER-NOT: ge.recompute
// OTHER: return
// LOC: ge.softmax %{{.*}} {axis = 0 : i64, ge.recompute_id = 1 : i64} : tensor<256xf32> loc([[COPY:#loc[0-9]+]])
// LOC: [[ORIG:#loc[0-9]+]] = loc(fused<"aten._softmax.default">[{{.*}}])
// LOC: [[COPY]] = loc("_softmax/recompute"([[ORIG]]))
// BAD: unknown checkpoint op 'node:'
func.func @fx_step(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = ge.softmax %x {axis = 0 : i64} : tensor<256xf32> loc(fused<"aten._softmax.default">["_softmax"])
  %b = ge.neg %a : tensor<256xf32>
  %c = ge.tanh %b : tensor<256xf32>
  %d = ge.sigmoid %c : tensor<256xf32>
  %e = ge.add %d, %a : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %e : tensor<256xf32>
}
