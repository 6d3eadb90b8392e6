// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory{alignment=16})' | FileCheck %s --check-prefix=A16
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-memory)' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-memory{alignment=0})' 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory{strategy=best-fit})' | FileCheck %s --check-prefix=BF
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-memory{strategy=smallest})' 2>&1 | FileCheck %s --check-prefix=STRAT
// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-memory{inplace=false})' | FileCheck %s --check-prefix=NOIP

// %a (128 bytes) is live from its first use (the fill, not the alloc) until the
// copy out of its view; %b overlaps it and goes after it; %c starts after %a's
// last use and reuses its bytes. The
// dynamic allocation is left alone. The arena is a new trailing argument.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>, %[[N:.*]]: index, %[[W:.*]]: memref<192xi8>)
// CHECK-SAME: attributes {ge.memory_plan = {arena = 192 : i64, arenas = {"best-fit" = 192 : i64, exact = 192 : i64, "greedy-by-breadth" = 192 : i64, "greedy-by-size" = 192 : i64},
// CHECK-SAME: buffers = [{end = 5 : i64, name = "{{.*}}:{{[0-9]+}}:8", offset = 0 : i64, size = 128 : i64, start = 2 : i64}, {end = 7 : i64, name = "{{.*}}:{{[0-9]+}}:8", offset = 128 : i64, size = 16 : i64, start = 5 : i64}, {end = 8 : i64, name = "{{.*}}:{{[0-9]+}}:8", offset = 0 : i64, size = 16 : i64, start = 7 : i64}],
// CHECK-SAME: inplace = 0 : i64, lower_bound = 192 : i64, lower_bound_no_inplace = 192 : i64, no_reuse = 256 : i64, op_bound = 192 : i64, strategy = "greedy-by-size"}, ge.workspace = [memref<192xi8>]}
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

// -----

// In-place reuse: %a dies at the negation, which writes %b into %a's bytes; the
// add then writes %c into them too (%b dies there; %x is an argument, never
// reused). One 64-byte buffer instead of three; inplace_of names the buffer
// (by index) each one overwrites.
// CHECK-LABEL: func.func @inplace_chain(
// CHECK-SAME: %[[X:.*]]: memref<16xf32>, %[[Y:.*]]: memref<16xf32>, %[[W:.*]]: memref<64xi8>)
// CHECK-SAME: buffers = [{end = 3 : i64, name = "{{.*}}", offset = 0 : i64, size = 64 : i64, start = 1 : i64}, {end = 5 : i64, inplace_of = 0 : i64, name = "{{.*}}", offset = 0 : i64, size = 64 : i64, start = 3 : i64}, {end = 6 : i64, inplace_of = 1 : i64, name = "{{.*}}", offset = 0 : i64, size = 64 : i64, start = 5 : i64}], inplace = 2 : i64, lower_bound = 64 : i64, lower_bound_no_inplace = 128 : i64, no_reuse = 192 : i64, op_bound = 128 : i64
// CHECK-NEXT: %[[O1:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[W]][%[[O1]]][] : memref<64xi8> to memref<16xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]] : memref<16xf32>) outs(%[[A]] : memref<16xf32>)
// CHECK: %[[O2:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[W]][%[[O2]]][] : memref<64xi8> to memref<16xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : memref<16xf32>) outs(%[[B]] : memref<16xf32>)
// CHECK: %[[O3:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[W]][%[[O3]]][] : memref<64xi8> to memref<16xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[B]], %[[X]] : memref<16xf32>, memref<16xf32>) outs(%[[C]] : memref<16xf32>)
// Switched off: %a and %c share bytes (%a is dead by then), %b gets its own.
// NOIP-LABEL: func.func @inplace_chain(
// NOIP-SAME: memref<128xi8>) attributes {ge.memory_plan = {arena = 128 : i64,
// NOIP-SAME: inplace = 0 : i64, lower_bound = 128 : i64, lower_bound_no_inplace = 128 : i64, no_reuse = 192 : i64, op_bound = 128 : i64
#id = affine_map<(d0) -> (d0)>
func.func @inplace_chain(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = math.absf %i : f32
    linalg.yield %r : f32
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.negf %i : f32
    linalg.yield %r : f32
  }
  %c = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%b, %x : memref<16xf32>, memref<16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %r = arith.addf %i, %j : f32
    linalg.yield %r : f32
  }
  memref.copy %c, %y : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Where it must not apply: %b may not overwrite %a, which is read again later
// (by the add); the add may not overwrite %a either, which it reads transposed
// (element (i, j) of the result reads (j, i)). It overwrites %b, read at the
// same index, which dies there. The argument %x is never a candidate.
// CHECK-LABEL: func.func @inplace_refused(
// CHECK-SAME: %[[X:.*]]: memref<4x4xf32>, %[[Y:.*]]: memref<4x4xf32>, %[[W:.*]]: memref<128xi8>)
// CHECK-SAME: buffers = [{end = 5 : i64, name = "{{.*}}", offset = 0 : i64, size = 64 : i64, start = 1 : i64}, {end = 5 : i64, name = "{{.*}}", offset = 64 : i64, size = 64 : i64, start = 3 : i64}, {end = 6 : i64, inplace_of = 1 : i64, name = "{{.*}}", offset = 64 : i64, size = 64 : i64, start = 5 : i64}], inplace = 1 : i64
// CHECK: %[[A:.*]] = memref.view %[[W]]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]] : memref<4x4xf32>) outs(%[[A]] : memref<4x4xf32>)
// CHECK: %[[O2:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[W]][%[[O2]]][] : memref<128xi8> to memref<4x4xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : memref<4x4xf32>) outs(%[[B]] : memref<4x4xf32>)
// CHECK: %[[O3:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[T:.*]] = memref.view %[[W]][%[[O3]]][] : memref<128xi8> to memref<4x4xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]], %[[B]] : memref<4x4xf32>, memref<4x4xf32>) outs(%[[T]] : memref<4x4xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @inplace_refused(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x4xf32>) outs(%a : memref<4x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = math.absf %i : f32
    linalg.yield %r : f32
  }
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.negf %i : f32
    linalg.yield %r : f32
  }
  %t = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#tr, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%t : memref<4x4xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %r = arith.addf %i, %j : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %y : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Not in place: the negation reads a strided window of %a (a view with another
// layout: element i is at 2i), and the accumulation reads its output's old value
// (the fill's ones), so neither output may take its input's bytes.
// CHECK-LABEL: func.func @inplace_view_and_accumulator(
// CHECK-SAME: inplace = 0 : i64
// CHECK: %[[S:.*]] = memref.subview
// CHECK: %[[O2:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %{{.*}}[%[[O2]]][] : memref<128xi8> to memref<4xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : memref<4xf32, strided<[2]>>) outs(%[[B]] : memref<4xf32>)
// CHECK: %[[O3:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %{{.*}}[%[[O3]]][] : memref<128xi8> to memref<4xf32>
// CHECK-NEXT: arith.constant 1.0
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<4xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[B]] : memref<4xf32>) outs(%[[C]] : memref<4xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @inplace_view_and_accumulator(%x: memref<8xf32>, %y: memref<4xf32>) {
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  %w = memref.subview %a[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  %b = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%w : memref<4xf32, strided<[2]>>) outs(%b : memref<4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.negf %i : f32
    linalg.yield %r : f32
  }
  %c = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<4xf32>) outs(%c : memref<4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %o : f32
    linalg.yield %r : f32
  }
  memref.copy %c, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// In place through a row-major reshape: %a (2x8) collapsed to 16 elements has
// the output's type and map, so element i of both is the same byte offset.
// CHECK-LABEL: func.func @inplace_through_reshape(
// CHECK-SAME: %[[W:[^:]*]]: memref<64xi8>) attributes {ge.memory_plan = {arena = 64 : i64,
// CHECK-SAME: inplace_of = 0 : i64
// CHECK: %[[A:.*]] = memref.view %[[W]][%{{.*}}][] : memref<64xi8> to memref<2x8xf32>
// CHECK-NEXT: memref.copy
// CHECK-NEXT: %[[F:.*]] = memref.collapse_shape %[[A]]
// CHECK-NEXT: %[[O:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[W]][%[[O]]][] : memref<64xi8> to memref<16xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[F]] : memref<16xf32>) outs(%[[B]] : memref<16xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @inplace_through_reshape(%x: memref<2x8xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<2x8xf32>
  memref.copy %x, %a : memref<2x8xf32> to memref<2x8xf32>
  %f = memref.collapse_shape %a [[0, 1]] : memref<2x8xf32> into memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%f : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.negf %i : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %y : memref<16xf32> to memref<16xf32>
  return
}
