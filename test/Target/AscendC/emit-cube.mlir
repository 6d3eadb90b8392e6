// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// Cube path: Nd2Nz GM->L1, LoadData L1->L0A/L0B, Mmad, Fixpipe; parameter structs filled by name, tile
// extents from index operands (constants inline, SSA values by name).
ascendc.kernel @mm_0 kind(<cube>) blocks(1) tiling({m = 32 : i64}) attributes {arg_names = ["a", "b", "c"]} {
^bb0(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %c: !ascendc.gm<f16>):
  %m = ascendc.tiling_get "m" : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %init = arith.cmpi eq, %m, %c32 : index
  %p = ascendc.pipe : !ascendc.pipe
  %qa1 = ascendc.queue %p num(1) bytes(2048) : !ascendc.que<a1, 1>
  %qa2 = ascendc.queue %p num(1) bytes(2048) : !ascendc.que<a2, 1>
  %b2buf = ascendc.tbuf %p bytes(2048) : !ascendc.tbuf<b2>
  %qc = ascendc.queue %p num(1) bytes(4096) : !ascendc.que<co1, 1>
  %a1 = ascendc.alloc_tensor %qa1 : !ascendc.que<a1, 1> -> !ascendc.local<f16, 1024, a1>
  ascendc.copy_nd2nz %a1, %a[%c0] rows(%m) cols(%c32) {src_d_value = 32, dst_nz_c0_stride = 32} : !ascendc.local<f16, 1024, a1>, !ascendc.gm<f16>
  ascendc.copy_nd2nz %a1, %b[%c32] rows(%c32) cols(%c32) {nd_num = 2, src_nd_matrix_stride = 64, src_d_value = 32, dst_nz_c0_stride = 32, dst_nz_n_stride = 2, dst_nz_matrix_stride = 128} : !ascendc.local<f16, 1024, a1>, !ascendc.gm<f16>
  %a2 = ascendc.alloc_tensor %qa2 : !ascendc.que<a2, 1> -> !ascendc.local<f16, 1024, a2>
  %b2 = ascendc.tbuf_get %b2buf : !ascendc.tbuf<b2> -> !ascendc.local<f16, 1024, b2>
  ascendc.load_data_2d %a2, %a1 start(%c0) repeat(%c2) stride(%c2) : !ascendc.local<f16, 1024, a2>, !ascendc.local<f16, 1024, a1>
  ascendc.load_data_2d %b2, %a1 start(%c0) repeat(%c2) stride(%c2) {dst_gap = 1, if_transpose = true} : !ascendc.local<f16, 1024, b2>, !ascendc.local<f16, 1024, a1>
  %cl = ascendc.alloc_tensor %qc : !ascendc.que<co1, 1> -> !ascendc.local<f32, 1024, co1>
  ascendc.mmad %cl, %a2, %b2, %init m(%m) n(%c32) k(%c32) : !ascendc.local<f32, 1024, co1>, !ascendc.local<f16, 1024, a2>, !ascendc.local<f16, 1024, b2>
  ascendc.fixpipe %c[%c32], %cl rows(%m) cols(%c32) src_stride(%c32) {dst_stride = 64, relu = true} : !ascendc.gm<f16>, !ascendc.local<f32, 1024, co1>
  ascendc.free_tensor %qc, %cl : !ascendc.que<co1, 1>, !ascendc.local<f32, 1024, co1>
  ascendc.free_tensor %qa2, %a2 : !ascendc.que<a2, 1>, !ascendc.local<f16, 1024, a2>
  ascendc.free_tensor %qa1, %a1 : !ascendc.que<a1, 1>, !ascendc.local<f16, 1024, a1>
}

// CHECK-LABEL: // ----- file: mm_0.cpp
// CHECK:        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
// CHECK:        AscendC::TQue<AscendC::TPosition::A1, 1> a1Queue0;
// CHECK-NEXT:   pipe.InitBuffer(a1Queue0, 1, 2048);
// CHECK-NEXT:   AscendC::TQue<AscendC::TPosition::A2, 1> a2Queue0;
// CHECK-NEXT:   pipe.InitBuffer(a2Queue0, 1, 2048);
// CHECK-NEXT:   AscendC::TBuf<AscendC::TPosition::B2> b2Buf0;
// CHECK-NEXT:   pipe.InitBuffer(b2Buf0, 2048);
// CHECK-NEXT:   AscendC::TQue<AscendC::TPosition::CO1, 1> co1Queue0;
// CHECK-NEXT:   pipe.InitBuffer(co1Queue0, 1, 4096);
// CHECK-NEXT:   AscendC::LocalTensor<half> a1Local0 = a1Queue0.AllocTensor<half>();
// CHECK-NEXT:   AscendC::Nd2NzParams nd2nzParams0;
// CHECK-NEXT:   nd2nzParams0.ndNum = 1;
// CHECK-NEXT:   nd2nzParams0.nValue = m;
// CHECK-NEXT:   nd2nzParams0.dValue = 32;
// CHECK-NEXT:   nd2nzParams0.srcNdMatrixStride = 0;
// CHECK-NEXT:   nd2nzParams0.srcDValue = 32;
// CHECK-NEXT:   nd2nzParams0.dstNzC0Stride = 32;
// CHECK-NEXT:   nd2nzParams0.dstNzNStride = 1;
// CHECK-NEXT:   nd2nzParams0.dstNzMatrixStride = 0;
// CHECK-NEXT:   AscendC::DataCopy(a1Local0, aGm, nd2nzParams0);
// CHECK-NEXT:   AscendC::Nd2NzParams nd2nzParams1;
// CHECK-NEXT:   nd2nzParams1.ndNum = 2;
// CHECK-NEXT:   nd2nzParams1.nValue = 32;
// CHECK-NEXT:   nd2nzParams1.dValue = 32;
// CHECK-NEXT:   nd2nzParams1.srcNdMatrixStride = 64;
// CHECK-NEXT:   nd2nzParams1.srcDValue = 32;
// CHECK-NEXT:   nd2nzParams1.dstNzC0Stride = 32;
// CHECK-NEXT:   nd2nzParams1.dstNzNStride = 2;
// CHECK-NEXT:   nd2nzParams1.dstNzMatrixStride = 128;
// CHECK-NEXT:   AscendC::DataCopy(a1Local0, bGm[32], nd2nzParams1);
// CHECK-NEXT:   AscendC::LocalTensor<half> a2Local0 = a2Queue0.AllocTensor<half>();
// CHECK-NEXT:   AscendC::LocalTensor<half> b2Local0 = b2Buf0.Get<half>();
// CHECK-NEXT:   AscendC::LoadData2DParams loadParams0;
// CHECK-NEXT:   loadParams0.startIndex = 0;
// CHECK-NEXT:   loadParams0.repeatTimes = 2;
// CHECK-NEXT:   loadParams0.srcStride = 2;
// CHECK-NEXT:   loadParams0.dstGap = 0;
// CHECK-NEXT:   loadParams0.ifTranspose = false;
// CHECK-NEXT:   AscendC::LoadData(a2Local0, a1Local0, loadParams0);
// CHECK-NEXT:   AscendC::LoadData2DParams loadParams1;
// CHECK-NEXT:   loadParams1.startIndex = 0;
// CHECK-NEXT:   loadParams1.repeatTimes = 2;
// CHECK-NEXT:   loadParams1.srcStride = 2;
// CHECK-NEXT:   loadParams1.dstGap = 1;
// CHECK-NEXT:   loadParams1.ifTranspose = true;
// CHECK-NEXT:   AscendC::LoadData(b2Local0, a1Local0, loadParams1);
// CHECK-NEXT:   AscendC::LocalTensor<float> co1Local0 = co1Queue0.AllocTensor<float>();
// CHECK-NEXT:   AscendC::MmadParams mmadParams0;
// CHECK-NEXT:   mmadParams0.m = m;
// CHECK-NEXT:   mmadParams0.n = 32;
// CHECK-NEXT:   mmadParams0.k = 32;
// CHECK-NEXT:   mmadParams0.cmatrixInitVal = cond0;
// CHECK-NEXT:   AscendC::Mmad(co1Local0, a2Local0, b2Local0, mmadParams0);
// CHECK-NEXT:   AscendC::FixpipeParamsV220 fixpipeParams0;
// CHECK-NEXT:   fixpipeParams0.nSize = 32;
// CHECK-NEXT:   fixpipeParams0.mSize = m;
// CHECK-NEXT:   fixpipeParams0.srcStride = 32;
// CHECK-NEXT:   fixpipeParams0.dstStride = 64;
// CHECK-NEXT:   fixpipeParams0.quantPre = QuantMode_t::F322F16;
// CHECK-NEXT:   fixpipeParams0.reluEn = true;
// CHECK-NEXT:   AscendC::Fixpipe(cGm[32], co1Local0, fixpipeParams0);
// CHECK-NEXT:   co1Queue0.FreeTensor(co1Local0);
