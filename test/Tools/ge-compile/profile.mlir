// ge-compile --profile N compiles a profiling build (ge-instrument-ops), runs N iterations with
// the stamps off and on in turn and prints the report (docs/profiling.md): latency, throughput,
// per-op total, stamps, memory, the top nodes by self time (ONNX node names from the locations)
// and the time per op type; --trace and --profile-json write the trace and the JSON.
// RUN: ge-compile %s --no-progress --profile 3 --warmup 1 --top 2 --trace %t.trace.json --profile-json %t.json | FileCheck %s
// RUN: FileCheck %s --input-file=%t.trace.json --check-prefix=TRACE
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: not ge-compile %s --trace %t.trace.json 2>&1 | FileCheck %s --check-prefix=NOPROFILE
// RUN: not ge-compile %s --profile 3 --compile-to linalg 2>&1 | FileCheck %s --check-prefix=STAGE

// CHECK-LABEL: ge-mlir profile: profile.mlir (cpu, {{.*}}; 3 iterations after 1 warm-up, stamps off and on alternately)
// CHECK-NEXT:  latency     mean {{[0-9.]+}} ms, median {{[0-9.]+}} ms, min {{[0-9.]+}} ms, p90 {{[0-9.]+}} ms (stamps off)
// CHECK-NEXT:  throughput  {{[0-9.]+}} inferences/s
// CHECK-NEXT:  profiled    median {{.*}} ms (stamps on: overhead {{.*}} %); kernel {{.*}} ms; per-op total {{.*}} ms = {{.*}} % of the latency
// CHECK-NEXT:  stamps      6 per call, {{[0-9]+}} ns each: {{.*}} us per call = {{.*}} % of the latency
// CHECK-NEXT:  memory      planned arena {{.*}}; peak RSS {{.*}}
// CHECK-EMPTY:
// CHECK-NEXT: top 2 of 2 nodes by self time (2 timed regions per iteration):
// CHECK-NEXT: ┌───┬
// CHECK-NEXT: │ # │ node │ op type │ calls │ total ms │ ms/call │ share │ cum. │
// CHECK-NEXT: ├───┼
// CHECK-NEXT: │ 1 │ {{conv_0|exp_0}} │ {{Conv|Exp}} │ 3 │
// CHECK-NEXT: │ 2 │ {{conv_0|exp_0}} │ {{Conv|Exp}} │ 3 │ {{.*}} │ 100.0 % │
// CHECK-NEXT: └───┴
// CHECK-EMPTY:
// CHECK-NEXT: by op type:
// CHECK: profile: wrote the trace to {{.*}}.trace.json (open it in https://ui.perfetto.dev)
// CHECK: profile: wrote {{.*}}.json

// TRACE: "traceEvents"
// TRACE-SAME: "name": "conv_0"
// TRACE-SAME: "cat": "Conv"
// TRACE-SAME: "name": "exp_0"

// JSON: "iterations": 3,
// JSON: "regions_per_iteration": 2,
// JSON: "ops": [

// NOPROFILE: error: --trace, --profile-json, --top and --warmup need --profile N

// STAGE: error: --profile runs the compiled model: it needs --target cpu compiled to llvm

func.func @net(%x: tensor<1x3x32x32xf32> {onnx.name = "x"}) -> (tensor<1x8x32x32xf32> {onnx.name = "y"}) {
  %w = ge.constant dense<0.1> : tensor<8x3x3x3xf32> loc(#conv)
  %c = ge.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32> loc(#conv)
  %e = ge.exp %c : tensor<1x8x32x32xf32> loc(#exp)
  return %e : tensor<1x8x32x32xf32>
}
#conv = loc(fused<"Conv">["conv_0"])
#exp = loc(fused<"Exp">["exp_0"])
