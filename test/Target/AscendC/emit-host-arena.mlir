// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-plan-device-memory)' | ge-translate --ascendc-to-cpp - | FileCheck %s
// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s --check-prefix=NOPLAN

// The host program of a planned graph: one allocation (one aclrtMalloc on the device) for every
// intermediate tensor, each at its planned offset; TensorLive before a tensor's first launch and
// TensorDead after its last (the CPU shim's per-tensor bounds; no-ops on the device). Arguments and
// constants keep their own allocations. t0 (launches 0-1) and t2 (launches 2-3) share offset 0.
module attributes {ascendc.target = #ascendc.target<soc = "Ascend910B1", arch = "dav-2201", ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, aic = 24, aiv = 48>} {
  ascendc.kernel @unary_0 kind(<vector>) blocks(1) attributes {arg_names = ["x", "y"]} {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>):
  }
  ascendc.kernel @binary_1 kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
  }
  ascendc.host @graph inputs(1) bytes([4096, 4096]) attributes {arg_names = ["x", "out"]} {
  ^bb0(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>):
    %t0 = ascendc.gm_alloc bytes(4096) : !ascendc.gm<f32>
    %w = ascendc.gm_constant dense<2.0> : tensor<16xf32> : !ascendc.gm<f32>
    ascendc.launch @unary_0(%x, %t0) : !ascendc.gm<f32>, !ascendc.gm<f32>
    %t1 = ascendc.gm_alloc bytes(4096) : !ascendc.gm<f32>
    ascendc.launch @unary_0(%t0, %t1) : !ascendc.gm<f32>, !ascendc.gm<f32>
    %t2 = ascendc.gm_alloc bytes(1000) : !ascendc.gm<f32>
    ascendc.launch @binary_1(%t1, %w, %t2) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @binary_1(%t2, %t1, %out) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}

// CHECK-LABEL: // ----- file: host.cpp
// CHECK:      inline void TensorLive(uint8_t* p, size_t bytes, const char* name) { AscendC::shim::GmTensorBegin(p, bytes, name); }
// CHECK:      extern "C" int ge_graph_run(const void* const* inputs, void* const* outputs) {
// CHECK:        DeviceBuffers buffers;
// CHECK-NEXT:   uint8_t* xDev = buffers.Alloc(4096);
// CHECK-NEXT:   GE_CHECK(xDev != nullptr);
// CHECK-NEXT:   uint8_t* outDev = buffers.Alloc(4096);
// CHECK-NEXT:   GE_CHECK(outDev != nullptr);
// CHECK-NEXT:   // One device allocation for the 3 intermediate tensors (greedy-by-size: 8320 B; 9408 B without reuse).
// CHECK-NEXT:   uint8_t* arena = buffers.Alloc(8320);
// CHECK-NEXT:   GE_CHECK(arena != nullptr);
// CHECK-NEXT:   uint8_t* buf0 = arena + 0;
// CHECK-NEXT:   uint8_t* cst0 = buffers.Alloc(64);
// CHECK-NEXT:   GE_CHECK(cst0 != nullptr);
// CHECK-NEXT:   uint8_t* buf1 = arena + 4160;
// CHECK-NEXT:   uint8_t* buf2 = arena + 0;
// CHECK-NEXT:   GE_CHECK(ToDevice(xDev, inputs[0], 4096));
// CHECK-NEXT:   GE_CHECK(ToDevice(cst0, constants.data() + 0, 64));
// CHECK-NEXT:   TensorLive(buf0, 4096, "unary_0.y");
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(unary_0, 1, xDev, buf0);
// CHECK:      #endif
// CHECK-NEXT:   TensorLive(buf1, 4096, "unary_0.y (launch 1)");
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(unary_0, 1, buf0, buf1);
// CHECK:      #endif
// CHECK-NEXT:   TensorDead(buf0);
// CHECK-NEXT:   TensorLive(buf2, 1000, "binary_1.a2");
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(binary_1, 1, buf1, cst0, buf2);
// CHECK:      #endif
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(binary_1, 1, buf2, buf1, outDev);
// CHECK-NEXT: #elif defined(GE_ASCENDC_LEGACY_LAUNCH)
// CHECK-NEXT:   ACLRT_LAUNCH_KERNEL(binary_1)(1, gStream, buf2, buf1, outDev);
// CHECK-NEXT: #else
// CHECK-NEXT:   binary_1<<<1, 0, gStream>>>(buf2, buf1, outDev);
// CHECK-NEXT: #endif
// CHECK-NEXT:   TensorDead(buf1);
// CHECK-NEXT:   TensorDead(buf2);
// CHECK-NEXT:   GE_CHECK(Synchronize());
// CHECK-NEXT:   OutputWritten(outDev, 4096, "out");
// CHECK-NEXT:   GE_CHECK(ToHost(outputs[0], outDev, 4096));
// CHECK-NEXT:   return 0;
// CHECK-NEXT: }

// Without the plan, each intermediate is its own allocation and nothing marks live ranges.
// NOPLAN-LABEL: // ----- file: host.cpp
// NOPLAN:      DeviceBuffers buffers;
// NOPLAN-NEXT:   uint8_t* xDev = buffers.Alloc(4096);
// NOPLAN-NEXT:   GE_CHECK(xDev != nullptr);
// NOPLAN-NEXT:   uint8_t* outDev = buffers.Alloc(4096);
// NOPLAN-NEXT:   GE_CHECK(outDev != nullptr);
// NOPLAN-NEXT:   uint8_t* buf0 = buffers.Alloc(4096);
// NOPLAN-NEXT:   GE_CHECK(buf0 != nullptr);
// NOPLAN-NEXT:   uint8_t* cst0 = buffers.Alloc(64);
// NOPLAN-NEXT:   GE_CHECK(cst0 != nullptr);
// NOPLAN-NEXT:   uint8_t* buf1 = buffers.Alloc(4096);
// NOPLAN-NEXT:   GE_CHECK(buf1 != nullptr);
// NOPLAN-NEXT:   uint8_t* buf2 = buffers.Alloc(1000);
// NOPLAN-NEXT:   GE_CHECK(buf2 != nullptr);
// NOPLAN-NOT:  TensorLive(buf
// NOPLAN-NOT:  TensorDead(buf
// NOPLAN:      return 0;
