// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-instrument-ops)' | FileCheck %s
// A second run leaves instrumented functions alone (same output).
// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-instrument-ops, ge-instrument-ops)' | FileCheck %s

// Regions: consecutive work ops of one ONNX node (views, constants and scalar arithmetic
// neither start nor end one); an unlocated work op is a region of its own. The profile buffer
// is a new trailing argument: row 0 switches the stamps on, row 1 and the last row time the
// function, region k writes rows 2+2k (entry) and 3+2k (exit) with clock_gettime.
// CHECK-LABEL: func.func private @clock_gettime(i32, !llvm.ptr) -> i32
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:.*]]: memref<4xf32> {onnx.name = "x"}, %[[Y:.*]]: memref<4xf32>, %[[WS:.*]]: memref<16xi8>,
// CHECK-SAME: %[[BUF:.*]]: memref<9x2xi64> {ge.profile_buffer})
// CHECK-SAME: ge.profile = {regions = [
// CHECK-SAME: {kinds = ["linalg.fill", "linalg.generic"], node = "exp1", op_type = "Exp", ops = 2 : i64},
// CHECK-SAME: {kinds = ["linalg.generic"], node = "add1", op_type = "Add", ops = 1 : i64},
// CHECK-SAME: {kinds = ["memref.copy"], node = "<memref.copy>", op_type = "", ops = 1 : i64}], rows = 9 : i64}
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[FLAG:.*]] = memref.load %[[BUF]][%[[C0]], %[[C0]]] : memref<9x2xi64>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[ON:.*]] = arith.cmpi ne, %[[FLAG]], %[[ZERO]] : i64
// CHECK-NEXT: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]] : memref<9x2xi64> -> index
// CHECK-NEXT: %[[ADDR64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK-NEXT: %[[BASE:.*]] = llvm.inttoptr %[[ADDR64]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[CLOCK:.*]] = arith.constant 1 : i32
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   %[[P:.*]] = llvm.getelementptr %[[BASE]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x i64>
// CHECK-NEXT:   func.call @clock_gettime(%[[CLOCK]], %[[P]]) : (i32, !llvm.ptr) -> i32
// CHECK-NEXT: }
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[V:.*]] = memref.view %[[WS]]
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][2]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.generic
// CHECK:      math.exp
// CHECK:      }
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][3]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][4]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: linalg.generic
// CHECK:      arith.addf
// CHECK:      }
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][5]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][6]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: memref.copy %[[Y]], %[[X]]
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][7]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[ON]] {
// CHECK-NEXT:   llvm.getelementptr %[[BASE]][8]
// CHECK-NEXT:   func.call @clock_gettime
// CHECK-NEXT: }
// CHECK-NEXT: return
#map = affine_map<(d0) -> (d0)>
func.func @f(%x: memref<4xf32> {onnx.name = "x"}, %y: memref<4xf32>, %ws: memref<16xi8>) {
  %c0 = arith.constant 0 : index loc(unknown)
  %v = memref.view %ws[%c0][] : memref<16xi8> to memref<4xf32> loc(#exp)
  %zero = arith.constant 0.0 : f32 loc(#exp)
  linalg.fill ins(%zero : f32) outs(%v : memref<4xf32>) loc(#exp)
  %s = memref.subview %v[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>> loc(#add)
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } loc(#exp)
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%v : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %in : f32
    linalg.yield %a : f32
  } loc(#add)
  memref.copy %y, %x : memref<4xf32> to memref<4xf32> loc(unknown)
  return
}
#exp = loc(fused<"Exp">["exp1"])
#add = loc(fused<"Add">["add1"])

// -----

// A node whose ops are interleaved with another node's owns one region per run of its ops;
// private functions and an existing clock_gettime declaration are kept as they are.
// CHECK-LABEL: func.func private @clock_gettime(i32, !llvm.ptr) -> i32
// CHECK-NOT:   func.func private @clock_gettime
// CHECK-LABEL: func.func private @helper(%{{.*}}: memref<4xf32>) {
// CHECK-NEXT:  arith.constant
// CHECK-NEXT:  linalg.fill
// CHECK-NEXT:  return
// CHECK-LABEL: func.func @g(
// CHECK-SAME:  %{{.*}}: memref<9x2xi64> {ge.profile_buffer})
// CHECK-SAME:  node = "conv1", op_type = "Conv"
// CHECK-SAME:  node = "relu1", op_type = "Relu"
// CHECK-SAME:  node = "conv1", op_type = "Conv"
// CHECK-SAME:  rows = 9 : i64
func.func private @clock_gettime(i32, !llvm.ptr) -> i32
func.func private @helper(%a: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<4xf32>)
  return
}
func.func @g(%a: memref<4xf32>, %b: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<4xf32>) loc(#conv)
  linalg.fill ins(%zero : f32) outs(%b : memref<4xf32>) loc(#relu)
  memref.copy %b, %a : memref<4xf32> to memref<4xf32> loc(#conv)
  return
}
#conv = loc(fused<"Conv">["conv1"])
#relu = loc(fused<"Relu">["relu1"])

// -----

// Multi-block functions are left alone (regions are top-level ops of one block).
// CHECK-LABEL: func.func @h(%{{.*}}: i1, %{{.*}}: memref<4xf32>) {
// CHECK-NOT:   clock_gettime
func.func @h(%c: i1, %a: memref<4xf32>) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<4xf32>)
  cf.br ^bb2
^bb2:
  return
}
