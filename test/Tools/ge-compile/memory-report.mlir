// ge-compile --memory-report prints the function's memory plan after compiling
// (docs/memory.md, "Reading the memory report"); =FILE.svg draws it, one rect per buffer.
// RUN: ge-compile %s --no-progress --memory-report | FileCheck %s
// RUN: ge-compile %s --no-progress --memory-report=%t.svg | FileCheck %s --check-prefix=FILE
// RUN: FileCheck %s --input-file=%t.svg --check-prefix=SVG
// RUN: ge-compile %s --no-progress --memory-report=%t.json > /dev/null
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: ge-compile %s --no-progress --compile-to linalg --memory-report | FileCheck %s --check-prefix=EARLY
// RUN: not ge-compile %s --memory-report=plan.txt 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ge-compile %s --no-progress --memory-budget 0.04 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: ge-compile %s --no-progress --memory-budget 0.05 | FileCheck %s --check-prefix=FITS

// A plan over --memory-budget fails naming the peak and the buffers live there; one that fits compiles.
// BUDGET: ge-compile: error: @chain needs 48.0 KiB (49152 bytes) for its intermediate tensors, over the memory budget of 41.0 KiB; the peak is at op #{{[0-9]+}}, where 48.0 KiB are live: {{.*}}memory-report.mlir:{{[0-9]+}}:8 (16.0 KiB)
// FITS: output result0: 64x64 float32

// CHECK: output result0: 64x64 float32
// CHECK-NEXT: memory plan: {{[0-9]+}} buffers, chosen strategy [[S:[a-z-]+]]
// CHECK-NEXT: no-reuse sum {{.*}} B  every buffer its own bytes
// CHECK-NEXT: interval lower bound
// CHECK-NEXT: op bound
// CHECK: strategy [[S]] {{.*}}(chosen)
// CHECK: chosen arena {{ *}}[[A:[0-9.]+ [KM]iB]] {{.*}} [[S]]
// CHECK-NEXT: arena / lower bound {{ *}}{{[0-9]\.[0-9][0-9][0-9]}}x
// CHECK-NEXT: arena / op bound {{ *}}{{[0-9]\.[0-9][0-9][0-9]}}x

// FILE: chosen arena
// FILE: memory report: wrote {{.*}}.svg

// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: <rect class="buffer" {{.*}}><title>{{.*}}: 16.00 KiB (16384 B) at offset {{[0-9]+}}, ops {{[0-9]+}}-{{[0-9]+}}</title></rect>
// SVG: arena:
// SVG: interval lower bound:
// SVG: </svg>

// JSON: "arena":
// JSON: "buffers": [
// JSON: "size": 16384,
// JSON: "lower_bound":

// EARLY: no memory plan at stage 'linalg' (memory is planned in stage 'bufferized')
// BAD: --memory-report FILE must end in .svg or .json
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = ge.relu %x : tensor<64x64xf32>
  %1 = ge.exp %0 : tensor<64x64xf32>
  %2 = ge.matmul %1, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = ge.add %2, %0 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}
