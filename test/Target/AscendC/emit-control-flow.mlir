// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// scf.for (with iter_args), scf.if (with results), and the index/scalar arith of tiled loops; unsigned
// and rounding divisions go through small helpers with MLIR's semantics.
ascendc.kernel @loop_0 kind(<vector>) blocks(4) tiling({total = 1000 : i64}) {
^bb0(%x: !ascendc.gm<f32>):
  %total = ascendc.tiling_get "total" : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bid = ascendc.block_idx : index
  %bnum = ascendc.block_num : index
  %per = arith.ceildivui %total, %bnum : index
  %start = arith.muli %bid, %per : index
  %end0 = arith.addi %start, %per : index
  %end = arith.minui %end0, %total : index
  %len = arith.subi %end, %start : index
  %tiles = arith.ceildivsi %len, %c64 : index
  %tail = arith.remui %len, %c64 : index
  %half = arith.divsi %len, %c1 : index
  %mx = arith.maxsi %half, %tail : index
  %bits = arith.andi %mx, %c64 : index
  %or = arith.ori %bits, %c1 : index
  %i32 = arith.index_cast %or : index to i32
  %f1 = arith.constant 1.5 : f32
  %p = ascendc.pipe : !ascendc.pipe
  %b = ascendc.tbuf %p bytes(256) : !ascendc.tbuf<veccalc>
  %t = ascendc.tbuf_get %b : !ascendc.tbuf<veccalc> -> !ascendc.local<f32, 64, veccalc>
  %sum:2 = scf.for %i = %c0 to %tiles step %c1 iter_args(%acc = %f1, %cnt = %c0) -> (f32, index) {
    %last = arith.cmpi eq, %i, %tiles : index
    %n = arith.select %last, %tail, %c64 : index
    %v = ascendc.get_value %t[%n] : !ascendc.local<f32, 64, veccalc> -> f32
    %a = arith.addf %acc, %v : f32
    %m = arith.mulf %a, %f1 : f32
    %s = arith.subf %m, %v : f32
    %d = arith.divf %s, %f1 : f32
    %c = arith.addi %cnt, %n : index
    scf.yield %d, %c : f32, index
  }
  %big = arith.cmpi sgt, %sum#1, %c64 : index
  %r = scf.if %big -> (f32) {
    scf.yield %sum#0 : f32
  } else {
    scf.yield %f1 : f32
  }
  %i32_idx = arith.index_cast %i32 : i32 to index
  %swap:2 = scf.for %j = %c0 to %i32_idx step %c1 iter_args(%u = %c0, %w = %c1) -> (index, index) {
    scf.yield %w, %u : index, index
  }
  ascendc.set_value %t[%swap#1], %r : !ascendc.local<f32, 64, veccalc>, f32
}

// CHECK-LABEL: // ----- file: loop_0.cpp
// CHECK:      __aicore__ inline int64_t CeilDivS(int64_t a, int64_t b) {
// CHECK:      __aicore__ inline int64_t CeilDivU(int64_t a, int64_t b) {
// CHECK:      __aicore__ inline int64_t MinU(int64_t a, int64_t b) {
// CHECK:      __aicore__ inline int64_t RemU(int64_t a, int64_t b) {
// CHECK-NEXT:   return static_cast<int64_t>(static_cast<uint64_t>(a) % static_cast<uint64_t>(b));
// CHECK:        const int64_t total = tilingData.total;
// CHECK-NEXT:   const int64_t blockIdx = AscendC::GetBlockIdx();
// CHECK-NEXT:   const int64_t blockNum = AscendC::GetBlockNum();
// CHECK-NEXT:   const int64_t ceilDiv0 = CeilDivU(total, blockNum);
// CHECK-NEXT:   const int64_t prod0 = blockIdx * ceilDiv0;
// CHECK-NEXT:   const int64_t sum0 = prod0 + ceilDiv0;
// CHECK-NEXT:   const int64_t minVal0 = MinU(sum0, total);
// CHECK-NEXT:   const int64_t diff0 = minVal0 - prod0;
// CHECK-NEXT:   const int64_t ceilDiv1 = CeilDivS(diff0, 64);
// CHECK-NEXT:   const int64_t rem0 = RemU(diff0, 64);
// CHECK-NEXT:   const int64_t quot0 = diff0 / 1;
// CHECK-NEXT:   const int64_t maxVal0 = quot0 > rem0 ? quot0 : rem0;
// CHECK-NEXT:   const int64_t bits0 = maxVal0 & 64;
// CHECK-NEXT:   const int64_t bits1 = bits0 | 1;
// CHECK-NEXT:   const int32_t idx0 = static_cast<int32_t>(bits1);
// CHECK-NEXT:   const float cst0 = 1.5f;
// CHECK-NEXT:   AscendC::TPipe pipe;
// CHECK-NEXT:   AscendC::TBuf<AscendC::TPosition::VECCALC> calcBuf0;
// CHECK-NEXT:   pipe.InitBuffer(calcBuf0, 256);
// CHECK-NEXT:   AscendC::LocalTensor<float> calcLocal0 = calcBuf0.Get<float>();
// CHECK-NEXT:   float acc0 = cst0;
// CHECK-NEXT:   int64_t acc1 = 0;
// CHECK-NEXT:   for (int64_t i = 0; i < ceilDiv1; ++i) {
// CHECK-NEXT:     const bool cond0 = i == ceilDiv1;
// CHECK-NEXT:     const int64_t sel0 = cond0 ? rem0 : 64;
// CHECK-NEXT:     const float val0 = calcLocal0.GetValue(sel0);
// CHECK-NEXT:     const float sum1 = acc0 + val0;
// CHECK-NEXT:     const float prod1 = sum1 * cst0;
// CHECK-NEXT:     const float diff1 = prod1 - val0;
// CHECK-NEXT:     const float quot1 = diff1 / cst0;
// CHECK-NEXT:     const int64_t sum2 = acc1 + sel0;
// CHECK-NEXT:     acc0 = quot1;
// CHECK-NEXT:     acc1 = sum2;
// CHECK-NEXT:   }
// CHECK-NEXT:   const bool cond1 = acc1 > 64;
// CHECK-NEXT:   float res0{};
// CHECK-NEXT:   if (cond1) {
// CHECK-NEXT:     res0 = acc0;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     res0 = cst0;
// CHECK-NEXT:   }
// CHECK-NEXT:   const int64_t idx1 = static_cast<int64_t>(idx0);
// CHECK-NEXT:   int64_t acc2 = 0;
// CHECK-NEXT:   int64_t acc3 = 1;
// CHECK-NEXT:   for (int64_t j = 0; j < idx1; ++j) {
// CHECK-NEXT:     const auto acc2Next = acc3;
// CHECK-NEXT:     const auto acc3Next = acc2;
// CHECK-NEXT:     acc2 = acc2Next;
// CHECK-NEXT:     acc3 = acc3Next;
// CHECK-NEXT:   }
// CHECK-NEXT:   calcLocal0.SetValue(acc3, res0);
// CHECK-NEXT: }
