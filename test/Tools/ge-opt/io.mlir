// Input from a file, from stdin, output to a file, split input.
// RUN: ge-opt %S/Inputs/graph.mlir | FileCheck %s
// RUN: ge-opt < %S/Inputs/graph.mlir | FileCheck %s
// RUN: ge-opt - < %S/Inputs/graph.mlir | FileCheck %s
// RUN: ge-opt %S/Inputs/graph.mlir -o %t.mlir && FileCheck %s --input-file=%t.mlir
// RUN: ge-opt %s --split-input-file | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @graph(
// CHECK-NEXT: ge.add
// CHECK-NEXT: ge.identity
// CHECK-NEXT: ge.relu
// CHECK-NEXT: return

// SPLIT: func.func @first
// SPLIT: // -----
// SPLIT: func.func @second
func.func @first() {
  return
}

// -----

func.func @second() {
  return
}
