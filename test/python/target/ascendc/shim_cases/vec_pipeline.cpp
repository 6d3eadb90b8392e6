// Double-buffered TQue vector kernel: z = Exp(x * 2 + y), several blocks, ragged tails via DataCopyPad.
// Usage: vec_pipeline <float|half> <outdir>; writes x.bin, y.bin, z.bin for the Python reference.
#include <cstdio>
#include <string>
#include <vector>

#include "kernel_operator.h"

using namespace AscendC;

struct VecTiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;
};

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelExpAxpy {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const VecTiling& t) {
    uint32_t start = static_cast<uint32_t>(GetBlockIdx()) * t.blockLength;
    len_ = start >= t.totalLength ? 0 : std::min(t.blockLength, t.totalLength - start);
    tile_ = t.tileLength;
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
    zGm_.SetGlobalBuffer((__gm__ T*)z + start, len_);
    pipe_.InitBuffer(inX_, BUFFER_NUM, tile_ * sizeof(T));
    pipe_.InitBuffer(inY_, BUFFER_NUM, tile_ * sizeof(T));
    pipe_.InitBuffer(outZ_, BUFFER_NUM, tile_ * sizeof(T));
  }

  __aicore__ void Process() {
    uint32_t tiles = (len_ + tile_ - 1) / tile_;
    if (tiles == 0) return;
    CopyIn(0);
    for (uint32_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(i + 1);  // software pipelining: two tiles in flight in the input queues
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  uint32_t Count(uint32_t i) const { return std::min(tile_, len_ - i * tile_); }

  void CopyIn(uint32_t i) {
    LocalTensor<T> x = inX_.AllocTensor<T>();
    LocalTensor<T> y = inY_.AllocTensor<T>();
    uint32_t n = Count(i);
    if (n == tile_) {
      DataCopy(x, xGm_[i * tile_], n);
      DataCopy(y, yGm_[i * tile_], n);
    } else {
      DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      DataCopyPadExtParams<T> pad{true, 0, 0, T(0)};
      DataCopyPad(x, xGm_[i * tile_], p, pad);
      DataCopyPad(y, yGm_[i * tile_], p, pad);
    }
    inX_.EnQue(x);
    inY_.EnQue(y);
  }

  void Compute(uint32_t i) {
    LocalTensor<T> x = inX_.DeQue<T>();
    LocalTensor<T> y = inY_.DeQue<T>();
    LocalTensor<T> z = outZ_.AllocTensor<T>();
    constexpr uint32_t perBlock = 32 / sizeof(T);
    int32_t n = static_cast<int32_t>((Count(i) + perBlock - 1) / perBlock * perBlock);
    Muls(z, x, T(2), n);
    Add(z, z, y, n);
    Exp(z, z, n);
    outZ_.EnQue(z);
    inX_.FreeTensor(x);
    inY_.FreeTensor(y);
  }

  void CopyOut(uint32_t i) {
    LocalTensor<T> z = outZ_.DeQue<T>();
    uint32_t n = Count(i);
    if (n == tile_) {
      DataCopy(zGm_[i * tile_], z, n);
    } else {
      DataCopyPad(zGm_[i * tile_], z, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    }
    outZ_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inX_, inY_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outZ_;
  GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t len_ = 0;
  uint32_t tile_ = 0;
};

// Kernel direct-call code takes its tiling struct by value (no GET_TILING_DATA outside
// custom-operator projects).
extern "C" __global__ __aicore__ void exp_axpy_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                      VecTiling t) {
  (void)workspace;
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelExpAxpy<float> op;
  op.Init(x, y, z, t);
  op.Process();
}

extern "C" __global__ __aicore__ void exp_axpy_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                     VecTiling t) {
  (void)workspace;
  KernelExpAxpy<half> op;
  op.Init(x, y, z, t);
  op.Process();
}

template <typename T>
static int Run(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, VecTiling), const std::string& dir) {
  const uint32_t total = 5003, blocks = 4;
  const uint32_t blockLength = (total + blocks - 1) / blocks;
  VecTiling tiling{total, blockLength, 256};
  size_t bytes = total * sizeof(T);
  T* x = static_cast<T*>(GmAlloc(bytes));
  T* y = static_cast<T*>(GmAlloc(bytes));
  T* z = static_cast<T*>(GmAlloc(bytes));
  for (uint32_t i = 0; i < total; ++i) {
    x[i] = T(static_cast<float>((i * 37) % 101) / 100.0f - 0.5f);
    y[i] = T(static_cast<float>((i * 53) % 89) / 88.0f - 0.5f);
  }
  ICPU_RUN_KF(kernel, blocks, x, y, z, nullptr, tiling);
  for (const char* name : {"x", "y", "z"}) {
    const T* p = name[0] == 'x' ? x : name[0] == 'y' ? y : z;
    FILE* f = std::fopen((dir + "/" + name + ".bin").c_str(), "wb");
    std::fwrite(p, sizeof(T), total, f);
    std::fclose(f);
  }
  GmFree(x);
  GmFree(y);
  GmFree(z);
  std::printf("ran %u elements on %u blocks\n", total, blocks);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::string type = argv[1];
  if (type == "float") return Run<float>(exp_axpy_float, argv[2]);
  if (type == "half") return Run<half>(exp_axpy_half, argv[2]);
  return 2;
}
