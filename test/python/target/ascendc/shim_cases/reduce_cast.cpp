// Reductions, Cast round modes on tie values, Compares + Select. One block, TBuf scratch, queue sync.
// Usage: reduce_cast <outdir>; writes x.bin (the reduced input) and prints one result line per check.
#include <cstdio>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t RN = 1000;  // reduced elements (not a multiple of a 256-byte repeat)
constexpr uint32_t CASTN = 8;  // values per cast row
constexpr RoundMode kModes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                                RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_NONE,
                                RoundMode::CAST_ODD};
constexpr uint32_t NMODES = sizeof(kModes) / sizeof(kModes[0]);

// GM layout of `out` (floats unless noted):
//   [0] sum, [8] max, [9] max index (uint32 bits), [16] min, [17] min index
//   [32 + 8*m .. ) int32 casts of ties for mode m (modes 0..4)
//   [96 + 8*m .. ) half casts (as 16-element rows of half = 8 floats) for mode m (modes 0..6)
//   [160 .. 168) Select(x > 0.5 ? x : -1) on the first 8 inputs
extern "C" __global__ __aicore__ void reduce_cast(GM_ADDR x, GM_ADDR ties, GM_ADDR hties, GM_ADDR out) {
  GlobalTensor<float> xGm, tGm, hGm, oGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, RN);
  tGm.SetGlobalBuffer((__gm__ float*)ties, CASTN);
  hGm.SetGlobalBuffer((__gm__ float*)hties, CASTN);
  oGm.SetGlobalBuffer((__gm__ float*)out, 168);

  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  TQue<TPosition::VECOUT, 1> outQ;
  TBuf<TPosition::VECCALC> tmpBuf, maskBuf, minusBuf;
  pipe.InitBuffer(inQ, 1, (RN + 2 * CASTN) * sizeof(float));
  pipe.InitBuffer(outQ, 1, 168 * sizeof(float));
  pipe.InitBuffer(tmpBuf, 64 * sizeof(float));
  pipe.InitBuffer(maskBuf, 32);
  pipe.InitBuffer(minusBuf, 32);

  LocalTensor<float> in = inQ.AllocTensor<float>();
  DataCopy(in, xGm, RN);
  DataCopy(in[RN], tGm, CASTN);
  DataCopy(in[RN + CASTN], hGm, CASTN);
  inQ.EnQue(in);
  in = inQ.DeQue<float>();

  LocalTensor<float> o = outQ.AllocTensor<float>();
  LocalTensor<float> tmp = tmpBuf.Get<float>();
  Duplicate(o, 0.0f, 168);
  ReduceSum(o, in, tmp, RN);
  ReduceMax(o[8], in, tmp, RN, true);
  ReduceMin(o[16], in, tmp, RN, true);
  for (uint32_t m = 0; m + 2 < NMODES; ++m) {  // float -> int32_t has no CAST_NONE or CAST_ODD
    Cast(o[32 + 8 * m].ReinterpretCast<int32_t>(), in[RN], kModes[m], CASTN);
  }
  for (uint32_t m = 0; m < NMODES; ++m) {
    Cast(o[96 + 8 * m].ReinterpretCast<half>(), in[RN + CASTN], kModes[m], CASTN);
  }
  LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
  LocalTensor<float> minus = minusBuf.Get<float>();
  Compares(mask, in, 0.5f, CMPMODE::GT, 8);
  Duplicate(minus, -1.0f, 8);
  Select(o[160], mask, in, minus, SELMODE::VSEL_TENSOR_TENSOR_MODE, 8);
  outQ.EnQue(o);
  inQ.FreeTensor(in);

  o = outQ.DeQue<float>();
  DataCopy(oGm, o, 168);
  outQ.FreeTensor(o);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  float* x = static_cast<float*>(GmAlloc(RN * sizeof(float)));
  float* ties = static_cast<float*>(GmAlloc(CASTN * sizeof(float)));
  float* hties = static_cast<float*>(GmAlloc(CASTN * sizeof(float)));
  float* out = static_cast<float*>(GmAlloc(168 * sizeof(float)));
  for (int32_t i = 0; i < RN; ++i) x[i] = static_cast<float>((i * 7919) % 1009) / 64.0f - 7.0f;
  const float t[CASTN] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 1.25f, -1.75f};
  // Halfway (and off-halfway) between neighbouring fp16 values around 1.0 (ulp 2^-10).
  const float a = 1.0f + 0x1p-11f, b = 1.0f + 3 * 0x1p-11f;
  const float h[CASTN] = {a, b, -a, -b, 65520.0f, -65520.0f, 0x1p-25f, 3.0f};
  std::memcpy(ties, t, sizeof(t));
  std::memcpy(hties, h, sizeof(h));
  ICPU_RUN_KF(reduce_cast, 1, x, ties, hties, out);

  FILE* f = std::fopen((std::string(argv[1]) + "/x.bin").c_str(), "wb");
  std::fwrite(x, sizeof(float), RN, f);
  std::fclose(f);
  uint32_t maxIdx, minIdx;
  std::memcpy(&maxIdx, &out[9], 4);
  std::memcpy(&minIdx, &out[17], 4);
  std::printf("reduce %.17g %.17g %u %.17g %u\n", out[0], out[8], maxIdx, out[16], minIdx);
  static const char* const names[] = {"RINT", "FLOOR", "CEIL", "ROUND", "TRUNC", "NONE", "ODD"};
  for (uint32_t m = 0; m + 2 < NMODES; ++m) {
    std::printf("i32 %s", names[m]);
    for (uint32_t i = 0; i < CASTN; ++i) {
      int32_t v;
      std::memcpy(&v, &out[32 + 8 * m + i], 4);
      std::printf(" %d", v);
    }
    std::printf("\n");
  }
  for (uint32_t m = 0; m < NMODES; ++m) {
    std::printf("f16 %s", names[m]);
    const half* row = reinterpret_cast<const half*>(&out[96 + 8 * m]);
    for (uint32_t i = 0; i < CASTN; ++i) std::printf(" %.17g", static_cast<double>(static_cast<float>(row[i])));
    std::printf("\n");
  }
  std::printf("select");
  for (uint32_t i = 0; i < 8; ++i) std::printf(" %.17g", out[160 + i]);
  std::printf("\n");
  GmFree(x);
  GmFree(ties);
  GmFree(hties);
  GmFree(out);
  return 0;
}
