// ge-compile stops at a stage and prints its IR, like iree-compile --compile-to.
// RUN: ge-compile %s --compile-to linalg -o - --no-progress 2>/dev/null | FileCheck %s --check-prefix=LINALG
// RUN: ge-compile %s --compile-to bufferized -o - --no-progress 2>/dev/null | FileCheck %s --check-prefix=BUF
// RUN: ge-compile %s --compile-to llvm -o - --no-progress 2>/dev/null | FileCheck %s --check-prefix=LLVM
// RUN: ge-compile %s --random-inputs --no-progress | FileCheck %s --check-prefix=EXEC
// RUN: not ge-compile %s --compile-to nowhere 2>&1 | FileCheck %s --check-prefix=BAD

// LINALG-LABEL: func.func @mlp(
// LINALG-SAME: %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x16xf32>) -> tensor<4x16xf32> attributes {llvm.emit_c_interface}
// LINALG: linalg.fill
// LINALG-NEXT: linalg.matmul
// LINALG: linalg.generic
// LINALG: arith.maximumf
// LINALG-NOT: ge.

// BUF-LABEL: func.func @mlp(
// BUF-SAME: memref<4x8xf32>
// BUF: vector.outerproduct
// BUF-NOT: tensor<

// LLVM: llvm.func @mlp(
// LLVM: llvm.func @_mlir_ciface_mlp(

// EXEC: compiled {{.*}}compile-to.mlir for cpu to 'llvm'
// EXEC-NEXT: input  arg0: 4x8 float32
// EXEC-NEXT: input  arg1: 8x16 float32
// EXEC-NEXT: output result0: 4x16 float32
// EXEC-NEXT: result0: shape (4, 16) float32 mean

// BAD: invalid choice: 'nowhere'
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = ge.matmul %x, %w {activation = #ge.act<relu>} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
