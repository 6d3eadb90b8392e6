// RUN: ge-opt %s | ge-opt | FileCheck %s
// RUN: ge-opt %s --mlir-print-op-generic | ge-opt | FileCheck %s

// Round trip of a vector kernel (queues, copies, vector ops, sync) and a host program.
// CHECK-LABEL: ascendc.kernel @add_0 kind(<vector>) blocks(2) tiling({total = 64 : i64}) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: !ascendc.gm<f32>, %[[Y:.*]]: !ascendc.gm<f32>, %[[Z:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: ascendc.tiling_get "total" : index
// CHECK: %[[P:.*]] = ascendc.pipe : !ascendc.pipe
// CHECK-NEXT: %[[QX:.*]] = ascendc.queue %[[P]] num(2) bytes(256) : <vecin, 2>
// CHECK-NEXT: %[[QZ:.*]] = ascendc.queue %[[P]] num(2) bytes(256) : <vecout, 2>
// CHECK-NEXT: %[[TX:.*]] = ascendc.alloc_tensor %[[QX]] : <vecin, 2> -> <f32, 64, vecin>
// CHECK-NEXT: ascendc.copy_gm_to_local %[[TX]], %[[X]][%{{.*}}], %{{.*}} : <f32, 64, vecin>, <f32>
// CHECK-NEXT: ascendc.enque %[[QX]], %[[TX]]
// CHECK-NEXT: %[[UX:.*]] = ascendc.deque %[[QX]]
// CHECK-NEXT: %[[TZ:.*]] = ascendc.alloc_tensor %[[QZ]]
// CHECK-NEXT: ascendc.vbinary <add> %[[TZ]], %[[UX]], %[[UX]], %{{.*}} : <f32, 64, vecout>, <f32, 64, vecin>, <f32, 64, vecin>
// CHECK: ascendc.vscalar <muls> %[[TZ]], %[[TZ]], %{{.*}}, %{{.*}} : <f32, 64, vecout>, <f32, 64, vecout>, f32
// CHECK-NEXT: ascendc.free_tensor %[[QX]], %[[UX]]
// CHECK: ascendc.copy_local_to_gm %[[Z]][%{{.*}}], %{{.*}}, %{{.*}} : <f32>, <f32, 64, vecout>
// CHECK: ascendc.set_flag <mte2_v>, 0
// CHECK-NEXT: ascendc.pipe_barrier <all>
// CHECK-LABEL: ascendc.host @graph inputs(2) bytes([256, 256, 256]) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !ascendc.gm<f32>, %[[B:.*]]: !ascendc.gm<f32>, %[[C:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: %[[T:.*]] = ascendc.gm_alloc bytes(256) : <f32>
// CHECK-NEXT: %[[W:.*]] = ascendc.gm_constant dense<1.000000e+00> : tensor<64xf32> : <f32>
// CHECK-NEXT: ascendc.launch @add_0(%[[A]], %[[W]], %[[T]])
// CHECK-NEXT: ascendc.launch @add_0(%[[T]], %[[B]], %[[C]])
module attributes {ascendc.target = #ascendc.target<soc = "Ascend910B1", arch = "dav-2201", ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, aic = 24, aiv = 48>} {
  ascendc.kernel @add_0 kind(<vector>) blocks(2) tiling({total = 64 : i64}) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
    %n = ascendc.tiling_get "total" : index
    %c64 = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    %p = ascendc.pipe : !ascendc.pipe
    %qx = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecin, 2>
    %qz = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecout, 2>
    %tx = ascendc.alloc_tensor %qx : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
    ascendc.copy_gm_to_local %tx, %x[%c0], %c64 : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
    ascendc.enque %qx, %tx : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
    %ux = ascendc.deque %qx : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
    %tz = ascendc.alloc_tensor %qz : !ascendc.que<vecout, 2> -> !ascendc.local<f32, 64, vecout>
    ascendc.vbinary <add> %tz, %ux, %ux, %c64 : !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, vecin>, !ascendc.local<f32, 64, vecin>
    %one = arith.constant 1.0 : f32
    ascendc.vscalar <muls> %tz, %tz, %one, %c64 : !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, vecout>, f32
    ascendc.free_tensor %qx, %ux : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
    ascendc.enque %qz, %tz : !ascendc.que<vecout, 2>, !ascendc.local<f32, 64, vecout>
    %uz = ascendc.deque %qz : !ascendc.que<vecout, 2> -> !ascendc.local<f32, 64, vecout>
    ascendc.copy_local_to_gm %z[%c0], %uz, %c64 : !ascendc.gm<f32>, !ascendc.local<f32, 64, vecout>
    ascendc.free_tensor %qz, %uz : !ascendc.que<vecout, 2>, !ascendc.local<f32, 64, vecout>
    ascendc.set_flag <mte2_v>, 0
    ascendc.pipe_barrier <all>
  }
  ascendc.host @graph inputs(2) bytes([256, 256, 256]) {
  ^bb0(%a: !ascendc.gm<f32>, %b: !ascendc.gm<f32>, %c: !ascendc.gm<f32>):
    %t = ascendc.gm_alloc bytes(256) : !ascendc.gm<f32>
    %w = ascendc.gm_constant dense<1.0> : tensor<64xf32> : !ascendc.gm<f32>
    ascendc.launch @add_0(%a, %w, %t) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @add_0(%t, %b, %c) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}
