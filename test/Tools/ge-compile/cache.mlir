// ge-compile looks a compile up in the compile cache: the second compile of the
// same model with the same options is a load, --no-cache compiles again, and
// printing the IR always compiles (a cache entry keeps no stage IR).
// RUN: rm -rf %t.cache
// RUN: env GE_MLIR_CACHE=1 GE_MLIR_CACHE_DIR=%t.cache ge-compile %s --random-inputs --no-progress | FileCheck %s --check-prefix=FIRST
// RUN: env GE_MLIR_CACHE=1 GE_MLIR_CACHE_DIR=%t.cache ge-compile %s --random-inputs --no-progress | FileCheck %s --check-prefix=HIT
// RUN: env GE_MLIR_CACHE=1 GE_MLIR_CACHE_DIR=%t.cache ge-compile %s --no-cache --no-progress | FileCheck %s --check-prefix=FIRST
// RUN: env GE_MLIR_CACHE=1 GE_MLIR_CACHE_DIR=%t.cache ge-compile %s --opt-level 1 --no-progress | FileCheck %s --check-prefix=FIRST
// RUN: env GE_MLIR_CACHE=1 GE_MLIR_CACHE_DIR=%t.cache ge-compile %s -o - --no-progress 2>/dev/null | FileCheck %s --check-prefix=IR
// RUN: env GE_MLIR_CACHE=1 GE_MLIR_CACHE_DIR=%t.cache ge-compile %s --random-inputs --no-progress | FileCheck %s --check-prefix=HIT

// FIRST: compiled {{.*}}cache.mlir for cpu to 'llvm' in
// HIT: loaded {{.*}}cache.mlir for cpu from the compile cache ({{.*}}.cache/{{[0-9a-f]+}}.gem; --no-cache compiles it again) in
// HIT-NEXT: input  arg0: 4x8 float32
// HIT: result0: shape (4, 16) float32 mean
// IR: llvm.func @mlp(
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = ge.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = ge.relu %0 : tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
