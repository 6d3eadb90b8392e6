// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// Pipe, queues on every vector position, TBuf (whole and partial Get), AllocTensor/EnQue/DeQue/FreeTensor,
// local slices, and the kernel entry with named GM arguments.
ascendc.kernel @mem_0 kind(<vector>) blocks(4) attributes {arg_names = ["x", "y"]} {
^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f16>):
  %c32 = arith.constant 32 : index
  %p = ascendc.pipe : !ascendc.pipe
  %qi = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecin, 2>
  %qo = ascendc.queue %p num(1) bytes(512) : !ascendc.que<vecout, 1>
  %qc = ascendc.queue %p num(1) bytes(256) : !ascendc.que<veccalc, 1>
  %b = ascendc.tbuf %p bytes(1024) : !ascendc.tbuf<veccalc>
  %t = ascendc.alloc_tensor %qi : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
  ascendc.enque %qi, %t : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
  %u = ascendc.deque %qi : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
  %w = ascendc.tbuf_get %b : !ascendc.tbuf<veccalc> -> !ascendc.local<f32, 256, veccalc>
  %h = ascendc.tbuf_get %b : !ascendc.tbuf<veccalc> -> !ascendc.local<f32, 128, veccalc>
  %s = ascendc.local_slice %u[%c32] : !ascendc.local<f32, 64, vecin> -> !ascendc.local<f32, 32, vecin>
  ascendc.copy_local %w, %s, %c32 : !ascendc.local<f32, 256, veccalc>, !ascendc.local<f32, 32, vecin>
  ascendc.copy_local %h, %w, %c32 : !ascendc.local<f32, 128, veccalc>, !ascendc.local<f32, 256, veccalc>
  ascendc.free_tensor %qi, %u : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
  %o = ascendc.alloc_tensor %qo : !ascendc.que<vecout, 1> -> !ascendc.local<f16, 256, vecout>
  ascendc.free_tensor %qo, %o : !ascendc.que<vecout, 1>, !ascendc.local<f16, 256, vecout>
}

// CHECK-LABEL: // ----- file: mem_0.cpp
// CHECK: #include "kernel_operator.h"
// CHECK-NEXT: #include "tiling.h"
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ __aicore__ void mem_0(GM_ADDR x, GM_ADDR y) {
// CHECK-NEXT:   KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
// CHECK-NEXT:   AscendC::GlobalTensor<float> xGm;
// CHECK-NEXT:   xGm.SetGlobalBuffer((__gm__ float*)x);
// CHECK-NEXT:   AscendC::GlobalTensor<half> yGm;
// CHECK-NEXT:   yGm.SetGlobalBuffer((__gm__ half*)y);
// CHECK-NEXT:   AscendC::TPipe pipe;
// CHECK-NEXT:   AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue0;
// CHECK-NEXT:   pipe.InitBuffer(inQueue0, 2, 256);
// CHECK-NEXT:   AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue0;
// CHECK-NEXT:   pipe.InitBuffer(outQueue0, 1, 512);
// CHECK-NEXT:   AscendC::TQue<AscendC::TPosition::VECCALC, 1> calcQueue0;
// CHECK-NEXT:   pipe.InitBuffer(calcQueue0, 1, 256);
// CHECK-NEXT:   AscendC::TBuf<AscendC::TPosition::VECCALC> calcBuf0;
// CHECK-NEXT:   pipe.InitBuffer(calcBuf0, 1024);
// CHECK-NEXT:   AscendC::LocalTensor<float> inLocal0 = inQueue0.AllocTensor<float>();
// CHECK-NEXT:   inQueue0.EnQue(inLocal0);
// CHECK-NEXT:   AscendC::LocalTensor<float> inLocal1 = inQueue0.DeQue<float>();
// CHECK-NEXT:   AscendC::LocalTensor<float> calcLocal0 = calcBuf0.Get<float>();
// CHECK-NEXT:   AscendC::LocalTensor<float> calcLocal1 = calcBuf0.Get<float>(128);
// CHECK-NEXT:   AscendC::DataCopy(calcLocal0, inLocal1[32], 32);
// CHECK-NEXT:   AscendC::DataCopy(calcLocal1, calcLocal0, 32);
// CHECK-NEXT:   inQueue0.FreeTensor(inLocal1);
// CHECK-NEXT:   AscendC::LocalTensor<half> outLocal0 = outQueue0.AllocTensor<half>();
// CHECK-NEXT:   outQueue0.FreeTensor(outLocal0);
// CHECK-NEXT: }

// CHECK-LABEL: // ----- file: tiling.h
