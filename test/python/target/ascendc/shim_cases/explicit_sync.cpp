// Manual buffers (TBuf) with explicit SetFlag/WaitFlag between MTE2, V, MTE3 and S, reused across tiles
// (so the reverse WAR flags are needed too), then a cross-block SyncAll: each block stores the sum of
// its squared output in the workspace, block 0 adds them up after the barrier.
// Usage: explicit_sync; prints the kernel's total and the host reference.
#include <cstdio>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 64, TILES = 3, BLOCKS = 3, PER_BLOCK = TILE * TILES;

extern "C" __global__ __aicore__ void square_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace) {
  int64_t blk = GetBlockIdx();
  GlobalTensor<float> xGm, yGm, wsGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + blk * PER_BLOCK, PER_BLOCK);
  yGm.SetGlobalBuffer((__gm__ float*)y + blk * PER_BLOCK, PER_BLOCK);
  wsGm.SetGlobalBuffer((__gm__ float*)workspace, 8 + BLOCKS);

  TPipe pipe;
  TBuf<TPosition::VECCALC> xBuf, yBuf, accBuf, tmpBuf;
  pipe.InitBuffer(xBuf, TILE * sizeof(float));
  pipe.InitBuffer(yBuf, TILE * sizeof(float));
  pipe.InitBuffer(accBuf, 8 * sizeof(float));
  pipe.InitBuffer(tmpBuf, 8 * sizeof(float));
  LocalTensor<float> xl = xBuf.Get<float>(), yl = yBuf.Get<float>();
  LocalTensor<float> acc = accBuf.Get<float>(), tmp = tmpBuf.Get<float>();

  float total = 0.0f;
  for (uint32_t t = 0; t < TILES; ++t) {
    if (t > 0) {
      WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);  // V finished reading xl of the previous tile
      WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);  // MTE3 finished reading yl of the previous tile
    }
    DataCopy(xl, xGm[t * TILE], TILE);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Mul(yl, xl, xl, TILE);
    if (t > 0) WaitFlag<HardEvent::S_V>(EVENT_ID0);  // the scalar read of acc precedes its next write
    ReduceSum(acc, yl, tmp, TILE);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm[t * TILE], yl, TILE);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    total += acc.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::S_V>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
  PipeBarrier<PIPE_ALL>();

  wsGm.SetValue(8 + blk, total);
  SyncAll();
  if (blk == 0) {
    float sum = 0.0f;
    for (uint32_t b = 0; b < BLOCKS; ++b) sum += wsGm.GetValue(8 + b);
    wsGm.SetValue(0, sum);
  }
}

int main() {
  float* x = static_cast<float*>(GmAlloc(BLOCKS * PER_BLOCK * sizeof(float)));
  float* y = static_cast<float*>(GmAlloc(BLOCKS * PER_BLOCK * sizeof(float)));
  float* ws = static_cast<float*>(GmAlloc((8 + BLOCKS) * sizeof(float)));
  double ref = 0.0;
  bool squaresOk = true;
  for (uint32_t i = 0; i < BLOCKS * PER_BLOCK; ++i) {
    x[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
    ref += static_cast<double>(x[i]) * x[i];
  }
  ICPU_RUN_KF(square_sum, BLOCKS, x, y, ws);
  for (uint32_t i = 0; i < BLOCKS * PER_BLOCK; ++i) squaresOk = squaresOk && y[i] == x[i] * x[i];
  std::printf("total %.9g ref %.9g squares %s\n", ws[0], ref, squaresOk ? "ok" : "WRONG");
  GmFree(x);
  GmFree(y);
  GmFree(ws);
  return 0;
}
