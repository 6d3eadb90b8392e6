// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// Host program: GM for every argument, intermediate and constant; inputs in, constants from the blob,
// one tiling struct per kernel with a tiling attribute (built on the host, passed by value: kernel
// direct-call projects have no GET_TILING_DATA), launches in order on three paths (CPU shim, legacy
// aclrtlaunch stubs, <<<numBlocks, 0, stream>>>), outputs back.
module attributes {ascendc.target = #ascendc.target<soc = "Ascend910B2", arch = "dav-2201", ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, aic = 24, aiv = 48>} {
  ascendc.kernel @scale_0 kind(<vector>) blocks(2) tiling({total = 64 : i64, tile = 32 : i64}) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>):
    %n = ascendc.tiling_get "total" : index
    %t = ascendc.tiling_get "tile" : index
    %c0 = arith.constant 0 : index
    scf.for %i = %c0 to %n step %t {
      %b = ascendc.block_num : index
      %q = arith.divui %n, %b : index
      %r = arith.cmpi ult, %i, %q : index
      scf.if %r {
        ascendc.sync_all
      }
    }
  }
  ascendc.kernel @add_1 kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
  }
  ascendc.host @graph inputs(1) bytes([256, 256]) attributes {arg_names = ["x", "out"], arg_shapes = [[8, 8], [64]]} {
  ^bb0(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>):
    %t = ascendc.gm_alloc bytes(256) : !ascendc.gm<f32>
    %w = ascendc.gm_constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi32> : !ascendc.gm<i32>
    %v = ascendc.gm_constant dense<2.0> : tensor<64xf32> : !ascendc.gm<f32>
    ascendc.launch @scale_0(%x, %t) : !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @add_1(%t, %v, %out) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @scale_0(%out, %t) : !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}

// CHECK-LABEL: // ----- file: scale_0.cpp
// CHECK:      extern "C" __global__ __aicore__ void scale_0(GM_ADDR a0, GM_ADDR a1, scale_0_Tiling tilingData) {
// CHECK-NEXT:   KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
// CHECK-NOT:    TILING
// CHECK:        const int64_t total = tilingData.total;
// CHECK-NEXT:   const int64_t tile = tilingData.tile;

// A kernel without tiling takes no tiling parameter.
// CHECK-LABEL: // ----- file: add_1.cpp
// CHECK:      extern "C" __global__ __aicore__ void add_1(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2) {
// CHECK-NEXT:   KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
// CHECK-NEXT:   AscendC::GlobalTensor<float> a0Gm;

// CHECK-LABEL: // ----- file: tiling.h
// CHECK:      #ifndef GE_GRAPH_TILING_H
// CHECK-NEXT: #define GE_GRAPH_TILING_H
// CHECK-EMPTY:
// CHECK-NEXT: #include <cstdint>
// CHECK-EMPTY:
// Fields in the order of the tiling dictionary (MLIR keeps it sorted by name).
// CHECK-NEXT: struct scale_0_Tiling {
// CHECK-NEXT:   int64_t tile;
// CHECK-NEXT:   int64_t total;
// CHECK-NEXT: };
// CHECK-EMPTY:
// CHECK-NEXT: #endif  // GE_GRAPH_TILING_H

// CHECK-LABEL: // ----- file: kernels.h
// CHECK:      #include "tiling.h"
// CHECK:      extern "C" __global__ __aicore__ void scale_0(GM_ADDR a0, GM_ADDR a1, scale_0_Tiling tilingData);
// CHECK-NEXT: extern "C" __global__ __aicore__ void add_1(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2);

// CHECK-LABEL: // ----- file: host.cpp
// CHECK:      #ifdef GE_ASCENDC_LEGACY_LAUNCH
// CHECK-NEXT: #include "aclrtlaunch_scale_0.h"
// CHECK-NEXT: #include "aclrtlaunch_add_1.h"
// CHECK-NEXT: #else
// CHECK:      constexpr size_t kConstantBytes = 320;
// CHECK:      aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST)
// CHECK:      aclrtMemcpy(dst, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE)
// CHECK:      extern "C" void ge_graph_set_constants_path(const char* path) { gConstantsPath = path; }
// CHECK:      // Inputs: x (f32, 256 B).
// CHECK-NEXT: // Outputs: out (f32, 256 B).
// CHECK:      extern "C" int ge_graph_run(const void* const* inputs, void* const* outputs) {
// CHECK-NEXT:   GE_CHECK(DeviceInit());
// CHECK-NEXT:   std::vector<uint8_t> constants;
// CHECK-NEXT:   GE_CHECK(LoadConstants(constants));
// CHECK-NEXT:   DeviceBuffers buffers;
// CHECK-NEXT:   uint8_t* xDev = buffers.Alloc(256);
// CHECK-NEXT:   GE_CHECK(xDev != nullptr);
// CHECK-NEXT:   uint8_t* outDev = buffers.Alloc(256);
// CHECK-NEXT:   GE_CHECK(outDev != nullptr);
// CHECK-NEXT:   uint8_t* buf0 = buffers.Alloc(256);
// CHECK-NEXT:   GE_CHECK(buf0 != nullptr);
// CHECK-NEXT:   uint8_t* cst0 = buffers.Alloc(64);
// CHECK-NEXT:   GE_CHECK(cst0 != nullptr);
// CHECK-NEXT:   uint8_t* cst1 = buffers.Alloc(256);
// CHECK-NEXT:   GE_CHECK(cst1 != nullptr);
// CHECK-NEXT:   GE_CHECK(ToDevice(xDev, inputs[0], 256));
// CHECK-NEXT:   GE_CHECK(ToDevice(cst0, constants.data() + 0, 64));
// CHECK-NEXT:   GE_CHECK(ToDevice(cst1, constants.data() + 64, 256));
// CHECK-NEXT:   const scale_0_Tiling scale_0Tiling{32, 64};
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(scale_0, 2, xDev, buf0, scale_0Tiling);
// CHECK-NEXT: #elif defined(GE_ASCENDC_LEGACY_LAUNCH)
// CHECK-NEXT:   ACLRT_LAUNCH_KERNEL(scale_0)(2, gStream, xDev, buf0, scale_0Tiling);
// CHECK-NEXT: #else
// CHECK-NEXT:   scale_0<<<2, 0, gStream>>>(xDev, buf0, scale_0Tiling);
// CHECK-NEXT: #endif
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(add_1, 1, buf0, cst1, outDev);
// CHECK-NEXT: #elif defined(GE_ASCENDC_LEGACY_LAUNCH)
// CHECK-NEXT:   ACLRT_LAUNCH_KERNEL(add_1)(1, gStream, buf0, cst1, outDev);
// CHECK-NEXT: #else
// CHECK-NEXT:   add_1<<<1, 0, gStream>>>(buf0, cst1, outDev);
// CHECK-NEXT: #endif
// CHECK-NEXT: #ifdef ASCENDC_CPU_DEBUG
// CHECK-NEXT:   ICPU_RUN_KF(scale_0, 2, outDev, buf0, scale_0Tiling);
// CHECK:        GE_CHECK(Synchronize());
// CHECK-NEXT:   OutputWritten(outDev, 256, "out");
// CHECK-NEXT:   GE_CHECK(ToHost(outputs[0], outDev, 256));
// CHECK-NEXT:   return 0;
// CHECK-NEXT: }

// CHECK-LABEL: // ----- file: constants.bin (320 bytes, binary)
// CHECK-LABEL: // ----- file: graph.json
// CHECK:      "soc": "Ascend910B2",
// CHECK:      "graph": "graph",
// CHECK:      "name": "x",
// CHECK-NEXT: "dtype": "float32",

// CHECK-LABEL: // ----- file: CMakeLists.txt
// CHECK:      set(GE_ASCENDC_MODE "cpu-shim" CACHE STRING "build flow: cpu-shim, asc or legacy")
// CHECK:      set(GE_KERNEL_SOURCES scale_0.cpp add_1.cpp)
// CHECK:      add_library(graph SHARED ${GE_KERNEL_SOURCES} ${GE_HOST_SOURCES})
// CHECK:      set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture: dav-2201, dav-3510")
// CHECK-NEXT: find_package(ASC REQUIRED)
// CHECK:      set_target_properties(graph PROPERTIES LINKER_LANGUAGE ASC POSITION_INDEPENDENT_CODE ON)
// CHECK:      target_compile_options(graph PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=${CMAKE_ASC_ARCHITECTURES} -dc -fPIC>)
// CHECK:      set(SOC_VERSION "Ascend910B2" CACHE STRING "SoC, e.g. Ascend910B1, Ascend310P3")
// CHECK:      ascendc_library(ge_kernels SHARED ${GE_KERNEL_SOURCES})
