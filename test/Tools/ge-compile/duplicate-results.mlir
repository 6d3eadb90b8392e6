// Issue 11: a function returning the same value twice segfaulted in the CPU
// `bufferized` stage (buffer-results-to-out-params hoisted the buffer into the
// first out-parameter and left the second return operand dangling). Each
// duplicate now gets its own buffer: a copy into the second out-parameter.
// RUN: ge-compile %s --no-optimize --compile-to bufferized -o - --no-progress 2>/dev/null | FileCheck %s --check-prefix=BUF
// RUN: ge-compile %s --no-optimize --random-inputs --no-progress | FileCheck %s --check-prefix=EXEC

// BUF-LABEL: func.func @twice(
// BUF-SAME: %[[X:[a-z0-9]+]]: memref<4xf32> {{.*}}, %[[R0:[a-z0-9]+]]: memref<4xf32> {{.*}}, %[[R1:[a-z0-9]+]]: memref<4xf32>
// BUF: linalg.generic {{.*}} ins(%[[X]] : memref<4xf32>) outs(%[[R0]] : memref<4xf32>)
// BUF: memref.copy %[[R0]], %[[R1]]
// BUF-NEXT: return

// EXEC: output result0: 4 float32
// EXEC-NEXT: output result1: 4 float32
// EXEC-NEXT: result0: shape (4,) float32 mean [[MEAN:.*]]
// EXEC-NEXT: result1: shape (4,) float32 mean [[MEAN]]
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = ge.relu %x : tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}
