// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-tie-donated-results)' | FileCheck %s

// An optimizer update reading p and writing its out-parameter in one elementwise loop: tied
// (out-parameter argument 2 takes input argument 0's buffer).
// CHECK-LABEL: func.func @update(
// CHECK-SAME: ge.tied_results = array<i64: 2, 0>
#id = affine_map<(d0) -> (d0)>
func.func @update(%p: memref<4xf32>, %g: memref<4xf32>, %out: memref<4xf32>)
    attributes {ge.donate = {inputs = 2 : i64, pairs = array<i64: 0, 0>}} {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %g : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The input is read after the out-parameter is first written: not tied.
// CHECK-LABEL: func.func @late_read(
// CHECK-NOT: ge.tied_results
func.func @late_read(%p: memref<4xf32>, %g: memref<4xf32>, %out: memref<4xf32>)
    attributes {ge.donate = {inputs = 2 : i64, pairs = array<i64: 0, 0>}} {
  memref.copy %g, %out : memref<4xf32> to memref<4xf32>
  memref.copy %p, %g : memref<4xf32> to memref<4xf32>
  return
}

// -----

// One loop reads the input reversed while writing the out-parameter: element k would read an
// element already overwritten; not tied.
// CHECK-LABEL: func.func @reversed(
// CHECK-NOT: ge.tied_results
#rev = affine_map<(d0) -> (3 - d0)>
#id2 = affine_map<(d0) -> (d0)>
func.func @reversed(%p: memref<4xf32>, %out: memref<4xf32>)
    attributes {ge.donate = {inputs = 1 : i64, pairs = array<i64: 0, 0>}} {
  linalg.generic {indexing_maps = [#rev, #id2], iterator_types = ["parallel"]}
      ins(%p : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A read through a view of the input in the same loop: not tied either.
// CHECK-LABEL: func.func @view_read(
// CHECK-NOT: ge.tied_results
#id3 = affine_map<(d0) -> (d0)>
func.func @view_read(%p: memref<4xf32>, %out: memref<4xf32>)
    attributes {ge.donate = {inputs = 1 : i64, pairs = array<i64: 0, 0>}} {
  %v = memref.subview %p[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel"]}
      ins(%p, %v : memref<4xf32>, memref<4xf32, strided<[1]>>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
