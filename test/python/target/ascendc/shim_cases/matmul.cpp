// Cube matmul through the documented low-level path (§2.2): Nd2Nz GM->L1, LoadData L1->L0A/L0B,
// Mmad -> L0C, Fixpipe L0C->GM; M, N, K not multiples of 16.
//   f16: fp16 in, fp32 out, TBuf + explicit flags between the pipes; each block multiplies its own batch
//        entry of A by the shared B. `matmul f16 <outdir>` writes a.bin (B x M x K f16), b.bin (K x N f16),
//        c.bin (B x M x N f32).
//   f32: fp32 in and out, a TQue on every cube position. `matmul f32 <outdir>` writes a.bin (M x K),
//        bt.bin (N x K = B^T), c.bin (M x N).
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

// fp32 x fp32 -> fp32: C0 = 8, so a fractal is 16 x 8. The shim's L0B fractal is 16 n-rows x C0 k (see
// cube.h), which is exactly an L1 Nz fractal of B^T: load B^T (N x K) and copy all fractals in one go.
constexpr uint32_t C0F = 8, KBF = (K + C0F - 1) / C0F, KPADF = KBF * C0F;

extern "C" __global__ __aicore__ void matmul_f32(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  GlobalTensor<float> aGm, btGm, cGm;
  aGm.SetGlobalBuffer((__gm__ float*)a, M * K);
  btGm.SetGlobalBuffer((__gm__ float*)bt, N * K);
  cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
  TPipe pipe;
  TQue<TPosition::A1, 1> qa1;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa1, 1, KPADF * MPAD * sizeof(float));
  pipe.InitBuffer(qb1, 1, KPADF * NPAD * sizeof(float));
  pipe.InitBuffer(qa2, 1, KPADF * MPAD * sizeof(float));
  pipe.InitBuffer(qb2, 1, KPADF * NPAD * sizeof(float));
  pipe.InitBuffer(qc, 1, MPAD * NPAD * sizeof(float));

  // Queue style: EnQue/DeQue carry the MTE2->MTE1, MTE1->M and M->FIX synchronisation.
  LocalTensor<float> a1 = qa1.AllocTensor<float>(), b1 = qb1.AllocTensor<float>();
  DataCopy(a1, aGm, Nd2NzParams{1, M, K, 0, K, MPAD, 1, 0});
  DataCopy(b1, btGm, Nd2NzParams{1, N, K, 0, K, NPAD, 1, 0});
  qa1.EnQue(a1);
  qb1.EnQue(b1);
  a1 = qa1.DeQue<float>();
  b1 = qb1.DeQue<float>();
  LocalTensor<float> a2 = qa2.AllocTensor<float>(), b2 = qb2.AllocTensor<float>();
  for (uint32_t mb = 0; mb < MB; ++mb) {
    LoadData(a2[mb * KBF * 128], a1, LoadData2DParams(mb, KBF, MB, 0, 0, false, 0));
  }
  LoadData(b2, b1, LoadData2DParams(0, KBF * NB, 1, 0, 0, false, 0));
  qa2.EnQue(a2);
  qb2.EnQue(b2);
  qa1.FreeTensor(a1);
  qb1.FreeTensor(b1);
  a2 = qa2.DeQue<float>();
  b2 = qb2.DeQue<float>();
  LocalTensor<float> c1 = qc.AllocTensor<float>();
  Mmad(c1, a2, b2, MmadParams(M, N, K, 0, false, true));
  qc.EnQue(c1);
  qa2.FreeTensor(a2);
  qb2.FreeTensor(b2);
  c1 = qc.DeQue<float>();
  FixpipeParamsV220 fp;
  fp.nSize = N;
  fp.mSize = M;
  fp.srcStride = MPAD;
  fp.dstStride = N;
  Fixpipe(cGm, c1, fp);
  qc.FreeTensor(c1);
}

static void Dump(const std::string& path, const void* p, size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(p, 1, bytes, f);
  std::fclose(f);
}

static int RunF32(const std::string& dir) {
  float* a = static_cast<float*>(GmAlloc(M * K * sizeof(float)));
  float* bt = static_cast<float*>(GmAlloc(N * K * sizeof(float)));
  float* c = static_cast<float*>(GmAlloc(M * N * sizeof(float)));
  for (uint32_t i = 0; i < M * K; ++i) a[i] = static_cast<float>((i * 13) % 29) / 7.0f - 2.0f;
  for (uint32_t i = 0; i < N * K; ++i) bt[i] = static_cast<float>((i * 5) % 17) / 3.0f - 2.5f;
  ICPU_RUN_KF(matmul_f32, 1, a, bt, c);
  Dump(dir + "/a.bin", a, M * K * sizeof(float));
  Dump(dir + "/bt.bin", bt, N * K * sizeof(float));
  Dump(dir + "/c.bin", c, M * N * sizeof(float));
  GmFree(a);
  GmFree(bt);
  GmFree(c);
  std::printf("matmul f32 %ux%ux%u done\n", M, N, K);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::string dir = argv[2];
  if (std::string(argv[1]) == "f32") return RunF32(dir);
  if (std::string(argv[1]) != "f16") return 2;
  half* a = static_cast<half*>(GmAlloc(BATCH * M * K * sizeof(half)));
  half* b = static_cast<half*>(GmAlloc(K * N * sizeof(half)));
  float* c = static_cast<float*>(GmAlloc(BATCH * M * N * sizeof(float)));
  for (uint32_t i = 0; i < BATCH * M * K; ++i) a[i] = half(static_cast<float>((i * 7) % 23) / 8.0f - 1.25f);
  for (uint32_t i = 0; i < K * N; ++i) b[i] = half(static_cast<float>((i * 11) % 19) / 16.0f - 0.5f);
  ICPU_RUN_KF(matmul_f16_f32, BATCH, a, b, c);
  Dump(dir + "/a.bin", a, BATCH * M * K * sizeof(half));
  Dump(dir + "/b.bin", b, K * N * sizeof(half));
  Dump(dir + "/c.bin", c, BATCH * M * N * sizeof(float));
  GmFree(a);
  GmFree(b);
  GmFree(c);
  std::printf("matmul %ux%ux%u x%u done\n", M, N, K, BATCH);
  return 0;
}
