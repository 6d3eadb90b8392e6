// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// Explicit synchronization: flags by HardEvent and id, pipe barriers, cross-core SyncAll.
ascendc.kernel @sync_0 kind(<vector>) blocks(8) {
^bb0(%x: !ascendc.gm<f32>):
  ascendc.set_flag <mte2_v>, 0
  ascendc.wait_flag <mte2_v>, 0
  ascendc.set_flag <v_mte3>, 3
  ascendc.wait_flag <v_mte3>, 3
  ascendc.set_flag <mte3_mte2>, 7
  ascendc.wait_flag <mte3_mte2>, 7
  ascendc.set_flag <m_fix>, 1
  ascendc.wait_flag <m_fix>, 1
  ascendc.pipe_barrier <all>
  ascendc.pipe_barrier <v>
  ascendc.pipe_barrier <mte3>
  ascendc.sync_all
}

// CHECK-LABEL: // ----- file: sync_0.cpp
// CHECK:        a0Gm.SetGlobalBuffer((__gm__ float*)a0);
// CHECK-NEXT:   AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
// CHECK-NEXT:   AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
// CHECK-NEXT:   AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(3);
// CHECK-NEXT:   AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(3);
// CHECK-NEXT:   AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(7);
// CHECK-NEXT:   AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(7);
// CHECK-NEXT:   AscendC::SetFlag<AscendC::HardEvent::M_FIX>(1);
// CHECK-NEXT:   AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(1);
// CHECK-NEXT:   AscendC::PipeBarrier<PIPE_ALL>();
// CHECK-NEXT:   AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:   AscendC::PipeBarrier<PIPE_MTE3>();
// CHECK-NEXT:   AscendC::SyncAll();
// CHECK-NEXT: }
