// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory{alignment=16})' | FileCheck %s --check-prefix=A16
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-memory)' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-memory{alignment=0})' 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory{strategy=best-fit})' | FileCheck %s --check-prefix=BF
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-memory{strategy=smallest})' 2>&1 | FileCheck %s --check-prefix=STRAT

// %a (128 bytes) is live until the copy out of its view; %b overlaps it and
// goes after it; %c starts after %a's last use and reuses its bytes. The
// dynamic allocation is left alone. The arena is a new trailing argument.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>, %[[N:.*]]: index, %[[W:.*]]: memref<192xi8>)
// CHECK-SAME: attributes {ge.memory_plan = {arena = 192 : i64, arenas = {"best-fit" = 192 : i64, exact = 192 : i64, "greedy-by-breadth" = 192 : i64, "greedy-by-size" = 192 : i64},
// CHECK-SAME: buffers = [{end = 5 : i64, name = "{{.*}}:{{[0-9]+}}:8", offset = 0 : i64, size = 128 : i64, start = 1 : i64}, {end = 7 : i64, name = "{{.*}}:{{[0-9]+}}:8", offset = 128 : i64, size = 16 : i64, start = 4 : i64}, {end = 8 : i64, name = "{{.*}}:{{[0-9]+}}:8", offset = 0 : i64, size = 16 : i64, start = 6 : i64}],
// CHECK-SAME: lower_bound = 192 : i64, no_reuse = 256 : i64, op_bound = 192 : i64, strategy = "greedy-by-size"}, ge.workspace = [memref<192xi8>]}
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[OA:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[W]][%[[OA]]][] : memref<192xi8> to memref<32xf32>
// CHECK-NEXT: linalg.fill ins(%[[Z]] : f32) outs(%[[A]] : memref<32xf32>)
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[A]][0] [4] [1]
// CHECK-NEXT: %[[OB:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[W]][%[[OB]]][] : memref<192xi8> to memref<4xf32>
// CHECK-NEXT: memref.copy %[[V]], %[[B]]
// CHECK-NEXT: %[[OC:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[W]][%[[OC]]][] : memref<192xi8> to memref<4xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[C]]
// CHECK-NEXT: memref.copy %[[C]], %[[Y]]
// CHECK-NEXT: %[[D:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: memref.dealloc %[[D]]
// CHECK-NEXT: return
// One strategy by name: only its arena is recorded.
// BF-LABEL: func.func @chain(
// BF-SAME: attributes {ge.memory_plan = {arena = 192 : i64, arenas = {"best-fit" = 192 : i64}, {{.*}}strategy = "best-fit"}
// STRAT: error: ge-plan-memory: unknown strategy 'smallest' (aggressive, greedy-by-size, greedy-by-breadth, best-fit, exact)
// A16-LABEL: func.func @chain(
// A16-SAME: %{{.*}}: memref<144xi8>) attributes {ge.memory_plan = {arena = 144 : i64,{{.*}}ge.workspace = [memref<144xi8>]}
func.func @chain(%x: memref<4xf32>, %y: memref<4xf32>, %n: index) {
  %z = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<32xf32>
  linalg.fill ins(%z : f32) outs(%a : memref<32xf32>)
  %v = memref.subview %a[0] [4] [1] : memref<32xf32> to memref<4xf32, strided<[1]>>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %v, %b : memref<4xf32, strided<[1]>> to memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %b, %c : memref<4xf32> to memref<4xf32>
  memref.copy %c, %y : memref<4xf32> to memref<4xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

// -----

// Nothing to plan: no argument, no attribute.
// CHECK-LABEL: func.func @none(
// CHECK-SAME: %{{.*}}: memref<4xf32>) {
// CHECK-NEXT: return
func.func @none(%x: memref<4xf32>) {
  return
}

// -----

// Several blocks: live ranges are entry-block positions, so uses in ^bb1 would be missed and
// %a and %b would share bytes. The function keeps its allocations.
// CHECK-LABEL: func.func @blocks(
// CHECK-SAME: %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>) {
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy
// CHECK-NEXT: cf.br ^bb1
func.func @blocks(%x: memref<4xf32>, %y: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %y, %b : memref<4xf32> to memref<4xf32>
  cf.br ^bb1
^bb1:
  memref.copy %a, %x : memref<4xf32> to memref<4xf32>
  memref.copy %b, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// ERR: error: ge-plan-memory: the workspace of @huge would need 9223372036854775808 bytes (8589934592.0 GiB), more than int64 can address
// expected-error @+1 {{more than int64 can address}}
func.func @huge(%y: memref<4xf32>) {
  %a = memref.alloc() : memref<2305843009213693952xf32>
  %v = memref.subview %a[0] [4] [1] : memref<2305843009213693952xf32> to memref<4xf32, strided<[1]>>
  memref.copy %v, %y : memref<4xf32, strided<[1]>> to memref<4xf32>
  return
}

// ALIGN: error: ge-plan-memory: alignment must be a positive byte count, got 0
