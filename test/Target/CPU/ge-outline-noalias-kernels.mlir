// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-outline-noalias-kernels)' | FileCheck %s

// A generic whose buffers are an argument, a row view and a constant global (read) and a
// disjoint view of the workspace (written) moves into a private kernel taking each buffer once;
// the constant its body uses comes along; the aligned data pointers (1, 8, 13, 20 of 26 expanded
// LLVM arguments) are recorded for ge-mark-noalias-pointers. An in-place op passes its one buffer
// once. Overlapping views stay inline. A subview lies within its source, so a subview of one
// buffer and a view of another are apart; two subviews of one written buffer are not (their
// ranges are not tracked). A generic in the body of a top-level scf.parallel (a task of a
// generic split over threads) is outlined with the task's subviews.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<4x8xf32>, %[[WS:.*]]: memref<256xi8>)
// CHECK: %[[M:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<256xi8> to memref<4xf32>
// CHECK-NEXT: %[[T:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK-NEXT: %[[O:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK-NEXT: %[[W:.*]] = memref.get_global @w : memref<4x8xf32>
// CHECK-NEXT: call @__ge_kernel_0(%[[X]], %[[M]], %[[W]], %[[T]]) : (memref<4x8xf32>, memref<4xf32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
// CHECK-NEXT: call @__ge_kernel_1(%[[T]]) : (memref<4x8xf32>) -> ()
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[T]] : memref<4x8xf32>) outs(%[[O]] : memref<4x8xf32>)
// CHECK: %[[S:.*]] = memref.subview
// CHECK-NEXT: %[[H:.*]] = memref.view
// CHECK-NEXT: call @__ge_kernel_2(%[[S]], %[[H]]) : (memref<2x8xf32, strided<[8, 1]>>, memref<2x8xf32>) -> ()
// CHECK-NEXT: call @__ge_kernel_3(%[[T]], %[[Y]]) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
// CHECK-NEXT: %[[T0:.*]] = memref.subview %[[T]][0, 0]
// CHECK-NEXT: %[[T1:.*]] = memref.subview %[[T]][2, 0]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[T0]] : memref<2x8xf32, strided<[8, 1]>>) outs(%[[T1]] : memref<2x8xf32, strided<[8, 1], offset: 16>>)
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK-NEXT: %[[R:.*]] = arith.muli %[[I]]
// CHECK-NEXT: %[[XI:.*]] = memref.subview %[[X]][%[[R]], 0] [2, 8] [1, 1]
// CHECK-NEXT: %[[YI:.*]] = memref.subview %[[Y]][%[[R]], 0] [2, 8] [1, 1]
// CHECK-NEXT: func.call @__ge_kernel_4(%[[XI]], %[[YI]])
// CHECK-NEXT: scf.reduce
// CHECK: return
// A function the runner does not call (no llvm.emit_c_interface) may get aliasing arguments.
// CHECK-LABEL: func.func @not_an_entry(
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func private @__ge_kernel_0(
// CHECK-SAME: %[[A0:.*]]: memref<4x8xf32>, %[[A1:.*]]: memref<4xf32>, %[[A2:.*]]: memref<4x8xf32>, %[[A3:.*]]: memref<4x8xf32>)
// CHECK-SAME: attributes {ge.expanded_args = 26 : i64, ge.noalias_pointers = array<i64: 1, 8, 13, 20>, passthrough = ["noinline"]}
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A0]], %[[A1]], %[[A2]] : memref<4x8xf32>, memref<4xf32>, memref<4x8xf32>) outs(%[[A3]] : memref<4x8xf32>)
// CHECK: arith.addf %{{.*}}, %[[ONE]] : f32
// CHECK: return
// CHECK-LABEL: func.func private @__ge_kernel_1(
// CHECK-SAME: attributes {ge.expanded_args = 7 : i64, ge.noalias_pointers = array<i64: 1>, passthrough = ["noinline"]}
// CHECK-LABEL: func.func private @__ge_kernel_2(
// CHECK-SAME: attributes {ge.expanded_args = 14 : i64, ge.noalias_pointers = array<i64: 1, 8>, passthrough = ["noinline"]}
// CHECK-LABEL: func.func private @__ge_kernel_3(
// CHECK-LABEL: func.func private @__ge_kernel_4(
// CHECK-SAME: %{{.*}}: memref<2x8xf32, strided<[8, 1], offset: ?>>, %{{.*}}: memref<2x8xf32, strided<[8, 1], offset: ?>>)
// CHECK-SAME: attributes {ge.expanded_args = 14 : i64, ge.noalias_pointers = array<i64: 1, 8>, passthrough = ["noinline"]}
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
memref.global "private" constant @w : memref<4x8xf32> = dense<1.0>
func.func @f(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %ws: memref<256xi8>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  %m = memref.view %ws[%c128][] : memref<256xi8> to memref<4xf32>
  %t = memref.view %ws[%c0][] : memref<256xi8> to memref<4x8xf32>
  %o = memref.view %ws[%c64][] : memref<256xi8> to memref<4x8xf32>
  %w = memref.get_global @w : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %w : memref<4x8xf32>, memref<4xf32>, memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %s = arith.subf %a, %b : f32
    %e = arith.addf %s, %one : f32
    %r = arith.mulf %e, %c : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }
  // Bytes [64, 192) overlap [0, 128): stays inline.
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<4x8xf32>) outs(%o : memref<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }
  // A subview of an argument, read, and a view of the workspace, written: apart.
  %s = memref.subview %x[0, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1]>>
  %half = memref.view %ws[%c128][] : memref<256xi8> to memref<2x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<2x8xf32, strided<[8, 1]>>) outs(%half : memref<2x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }
  // Two subviews of the one buffer it writes: stays inline.
  %t0 = memref.subview %t[0, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1]>>
  %t1 = memref.subview %t[2, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t0 : memref<2x8xf32, strided<[8, 1]>>) outs(%t1 : memref<2x8xf32, strided<[8, 1], offset: 16>>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  // Each task of a parallel loop: its block of x and of y.
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %row = arith.muli %i, %c2 : index
    %xi = memref.subview %x[%row, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    %yi = memref.subview %y[%row, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xi : memref<2x8xf32, strided<[8, 1], offset: ?>>) outs(%yi : memref<2x8xf32, strided<[8, 1], offset: ?>>) {
    ^bb0(%a: f32, %out: f32):
      %r = arith.negf %a : f32
      linalg.yield %r : f32
    }
    scf.reduce
  }
  return
}

func.func @not_an_entry(%a: memref<8xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%v: f32, %out: f32):
    linalg.yield %v : f32
  }
  return
}
