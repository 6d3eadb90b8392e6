// Cube matmul through the documented low-level path (§2.2): Nd2Nz GM->L1, LoadData L1->L0A/L0B,
// Mmad -> L0C, Fixpipe L0C->GM, with explicit flags between the pipes. fp16 in, fp32 out, M, N, K not
// multiples of 16. Each block multiplies its own batch entry of A by the shared B. Usage: matmul <outdir>; writes a.bin (B x M x K f16), b.bin (K x N f16), c.bin (B x M x N f32).
#include <cstdio>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t M = 30, N = 20, K = 40, BATCH = 2;
constexpr uint32_t C0 = 16;  // 32 bytes of half
constexpr uint32_t MB = (M + 15) / 16, NB = (N + 15) / 16, KB = (K + C0 - 1) / C0;
constexpr uint32_t MPAD = MB * 16, NPAD = NB * 16, KPAD = KB * C0;

extern "C" __global__ __aicore__ void matmul_f16_f32(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  int64_t blk = GetBlockIdx();
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer((__gm__ half*)a + blk * M * K, M * K);
  bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
  cGm.SetGlobalBuffer((__gm__ float*)c + blk * M * N, M * N);

  TPipe pipe;
  TBuf<TPosition::A1> a1Buf;
  TBuf<TPosition::B1> b1Buf;
  TBuf<TPosition::A2> a2Buf;
  TBuf<TPosition::B2> b2Buf;
  TBuf<TPosition::CO1> c1Buf;
  pipe.InitBuffer(a1Buf, KPAD * MPAD * sizeof(half));
  pipe.InitBuffer(b1Buf, KPAD * NPAD * sizeof(half));
  pipe.InitBuffer(a2Buf, KPAD * MPAD * sizeof(half));
  pipe.InitBuffer(b2Buf, KPAD * NPAD * sizeof(half));
  pipe.InitBuffer(c1Buf, MPAD * NPAD * sizeof(float));
  LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>();
  LocalTensor<half> a2 = a2Buf.Get<half>(), b2 = b2Buf.Get<half>();
  LocalTensor<float> c1 = c1Buf.Get<float>();

  // A (M x K) and B (K x N) into L1 as Nz: column blocks of C0, each MPAD (resp. KPAD) rows tall.
  DataCopy(a1, aGm, Nd2NzParams{1, M, K, 0, K, MPAD, 1, 0});
  DataCopy(b1, bGm, Nd2NzParams{1, K, N, 0, N, KPAD, 1, 0});
  SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

  // L1 fractal (mb, kb) of A sits at index kb * MB + mb; L0A wants mb * KB + kb: one LoadData per row block.
  for (uint32_t mb = 0; mb < MB; ++mb) {
    LoadData(a2[mb * KB * 256], a1, LoadData2DParams(mb, KB, MB, 0, 0, false, 0));
  }
  // L1 fractal (kb, nb) of B sits at index nb * KB + kb; L0B wants kb * NB + nb, transposed.
  for (uint32_t kb = 0; kb < KB; ++kb) {
    LoadData(b2[kb * NB * 256], b1, LoadData2DParams(kb, NB, KB, 0, 0, true, 0));
  }
  SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);

  Mmad(c1, a2, b2, MmadParams(M, N, K, 0, false, true));
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);

  FixpipeParamsV220 fp;
  fp.nSize = N;
  fp.mSize = M;
  fp.srcStride = MPAD;
  fp.dstStride = N;
  Fixpipe(cGm, c1, fp);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  std::string dir = argv[1];
  half* a = static_cast<half*>(GmAlloc(BATCH * M * K * sizeof(half)));
  half* b = static_cast<half*>(GmAlloc(K * N * sizeof(half)));
  float* c = static_cast<float*>(GmAlloc(BATCH * M * N * sizeof(float)));
  for (uint32_t i = 0; i < BATCH * M * K; ++i) a[i] = half(static_cast<float>((i * 7) % 23) / 8.0f - 1.25f);
  for (uint32_t i = 0; i < K * N; ++i) b[i] = half(static_cast<float>((i * 11) % 19) / 16.0f - 0.5f);
  ICPU_RUN_KF(matmul_f16_f32, BATCH, a, b, c);
  auto dump = [&](const char* name, const void* p, size_t bytes) {
    FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
    std::fwrite(p, 1, bytes, f);
    std::fclose(f);
  };
  dump("a.bin", a, BATCH * M * K * sizeof(half));
  dump("b.bin", b, K * N * sizeof(half));
  dump("c.bin", c, BATCH * M * N * sizeof(float));
  GmFree(a);
  GmFree(b);
  GmFree(c);
  std::printf("matmul %ux%ux%u x%u done\n", M, N, K, BATCH);
  return 0;
}
