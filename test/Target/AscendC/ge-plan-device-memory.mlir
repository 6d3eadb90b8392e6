// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-device-memory)' | FileCheck %s
// RUN: ge-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(ge-plan-device-memory{alignment=128 strategy=best-fit})' | FileCheck %s --check-prefix=A128
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-device-memory{alignment=32})' 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-plan-device-memory{strategy=smallest})' 2>&1 | FileCheck %s --check-prefix=STRAT

// A chain x -> t0 -> t1 -> t2 -> out in launch order: t0 is live at launches 0-1, t1 at 1-3, t2 at 2-3,
// so t2 reuses t0's bytes. Each tensor reserves ALIGN_UP(bytes, 32) + 32 at a 64-byte aligned offset
// (4096 B -> 4160 B). The unused gm_alloc is still placed (live at the launch after it); the arguments
// (inputs, outputs) and the gm_constant are never planned. Names: kernel.argument of the first launch
// (with the launch when a kernel runs twice).
// CHECK-LABEL: ascendc.host @graph inputs(1) bytes([4096, 4096])
// CHECK-SAME: attributes {ge.memory_plan = {arena = 8320 : i64, arenas = {"best-fit" = 8320 : i64, exact = 8320 : i64, "greedy-by-breadth" = 8320 : i64, "greedy-by-size" = 8320 : i64},
// CHECK-SAME: buffers = [{end = 1 : i64, name = "unary_0.y", offset = 0 : i64, size = 4096 : i64, start = 0 : i64},
// CHECK-SAME: {end = 3 : i64, name = "unary_0.y (launch 1)", offset = 4160 : i64, size = 4096 : i64, start = 1 : i64},
// CHECK-SAME: {end = 3 : i64, name = "binary_1.a2", offset = 0 : i64, size = 1000 : i64, start = 2 : i64},
// CHECK-SAME: {end = 0 : i64, name = "unused gm_alloc", offset = 4160 : i64, size = 64 : i64, start = 0 : i64}],
// CHECK-SAME: lower_bound = 8320 : i64, no_reuse = 9536 : i64, op_bound = 8320 : i64, strategy = "greedy-by-size"}} {
// CHECK-NEXT: ^bb0(%[[X:.*]]: !ascendc.gm<f32>, %[[OUT:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: %[[T0:.*]] = ascendc.gm_alloc bytes(4096) {offset = 0 : i64} : <f32>
// CHECK-NEXT: %[[T1:.*]] = ascendc.gm_alloc bytes(4096) {offset = 4160 : i64} : <f32>
// CHECK-NEXT: %[[T2:.*]] = ascendc.gm_alloc bytes(1000) {offset = 0 : i64} : <f32>
// CHECK-NEXT: ascendc.gm_alloc bytes(64) {offset = 4160 : i64} : <f32>
// CHECK-NEXT: %[[W:.*]] = ascendc.gm_constant dense<2.000000e+00> : tensor<16xf32> : <f32>
// CHECK-NEXT: ascendc.launch @unary_0(%[[X]], %[[T0]])
// CHECK-NEXT: ascendc.launch @unary_0(%[[T0]], %[[T1]])
// CHECK-NEXT: ascendc.launch @binary_1(%[[T1]], %[[W]], %[[T2]])
// CHECK-NEXT: ascendc.launch @binary_1(%[[T2]], %[[T1]], %[[OUT]])
// One strategy by name (best-fit places the longer-lived t1 first), offsets on 128 bytes: 4160 -> 4224.
// A128-LABEL: ascendc.host @graph
// A128-SAME: ge.memory_plan = {arena = 8448 : i64, arenas = {"best-fit" = 8448 : i64}
// A128-SAME: strategy = "best-fit"
// A128: ascendc.gm_alloc bytes(4096) {offset = 4224 : i64}
// A128-NEXT: ascendc.gm_alloc bytes(4096) {offset = 0 : i64}
// A128-NEXT: ascendc.gm_alloc bytes(1000) {offset = 4224 : i64}
// ALIGN: error: ge-plan-device-memory: alignment must be a positive multiple of 64 (the SoC's device-memory alignment), got 32
// STRAT: error: ge-plan-device-memory: unknown strategy 'smallest' (aggressive, greedy-by-size, greedy-by-breadth, best-fit, exact)
module {
  ascendc.kernel @unary_0 kind(<vector>) blocks(1) attributes {arg_names = ["x", "y"]} {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>):
  }
  ascendc.kernel @binary_1 kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
  }
  ascendc.host @graph inputs(1) bytes([4096, 4096]) {
  ^bb0(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>):
    %t0 = ascendc.gm_alloc bytes(4096) : !ascendc.gm<f32>
    %t1 = ascendc.gm_alloc bytes(4096) : !ascendc.gm<f32>
    %t2 = ascendc.gm_alloc bytes(1000) : !ascendc.gm<f32>
    %u = ascendc.gm_alloc bytes(64) : !ascendc.gm<f32>
    %w = ascendc.gm_constant dense<2.0> : tensor<16xf32> : !ascendc.gm<f32>
    ascendc.launch @unary_0(%x, %t0) : !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @unary_0(%t0, %t1) : !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @binary_1(%t1, %w, %t2) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @binary_1(%t2, %t1, %out) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}

// -----

// Nothing intermediate: the plan is recorded with an empty arena (the report says so).
// CHECK-LABEL: ascendc.host @copy inputs(1) bytes([64, 64])
// CHECK-SAME: attributes {ge.memory_plan = {arena = 0 : i64, arenas = {}, buffers = [], lower_bound = 0 : i64, no_reuse = 0 : i64, op_bound = 0 : i64, strategy = "greedy-by-size"}} {
// CHECK-NEXT: ^bb0(%[[X:.*]]: !ascendc.gm<f32>, %[[Y:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: ascendc.launch @copy_0(%[[X]], %[[Y]])
module {
  ascendc.kernel @copy_0 kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>):
  }
  ascendc.host @copy inputs(1) bytes([64, 64]) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>):
    ascendc.launch @copy_0(%x, %y) : !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}

// -----

// Two tensors of 6e18 bytes live at the same launch: no int64 arena holds them.
module {
  ascendc.kernel @binary_1 kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
  }
  // expected-error @+1 {{ge-plan-device-memory: the device arena of @huge would need 120000000000000}}
  ascendc.host @huge inputs(1) bytes([64, 64]) {
  ^bb0(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>):
    %a = ascendc.gm_alloc bytes(6000000000000000000) : !ascendc.gm<f32>
    %b = ascendc.gm_alloc bytes(6000000000000000000) : !ascendc.gm<f32>
    ascendc.launch @binary_1(%x, %a, %b) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @binary_1(%a, %b, %out) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}
