// System queries, tiling glue, and the CPU launcher with its GM helpers.
//
// Host code on CPU (ASCENDC_CPU_DEBUG):
//   uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);   // instead of aclrtMalloc + aclrtMemcpy
//   ... fill x on the host ...
//   ICPU_RUN_KF(my_kernel, numBlocks, x, y, z, workspace, tiling);   // instead of my_kernel<<<...>>>
//   AscendC::GmFree(x);
// The launcher runs the blocks one after another in this process (block 0 first), each with fresh
// on-chip arenas; it returns after all blocks finished. Any check failure exits the process with code 86.
#pragma once

#include <thread>
#include <tuple>

#include "ge_shim/runtime.h"

enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
};

namespace AscendC {

inline int64_t GetBlockIdx() { return shim::Rt("GetBlockIdx").Idx(); }
inline int64_t GetBlockNum() { return shim::Rt("GetBlockNum").Num(); }
// Vector-only model: each block is one AIV, so the sub-block index is always 0.
inline int64_t GetSubBlockIdx() {
  shim::Rt("GetSubBlockIdx");
  return 0;
}
inline void InitSocState() {}

// GM memory for host code. Blocks are 512-byte aligned and filled with 0xFF bytes (NaN for fp16/fp32) so
// outputs a kernel forgets to write stand out.
inline void* GmAlloc(size_t bytes) {
  size_t rounded = shim::GmAllocatedBytes(bytes);
  void* p = rounded < bytes ? nullptr : std::aligned_alloc(512, rounded);  // rounded < bytes: size_t wrapped
  if (p == nullptr) shim::Fail("GmAlloc", "out of host memory (", bytes, " bytes)");
  std::memset(p, 0xFF, rounded);
  shim::GmRegistry& r = shim::Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  r.blocks[reinterpret_cast<uintptr_t>(p)] = bytes;
  return p;
}

inline void GmFree(void* p) {
  if (p == nullptr) return;
  shim::GmRegistry& r = shim::Gm();
  {
    std::lock_guard<std::mutex> lk(r.mu);
    auto it = r.blocks.find(reinterpret_cast<uintptr_t>(p));
    if (it == r.blocks.end()) shim::Fail("GmFree", "pointer was not returned by GmAlloc (or was freed twice)");
    // An arena's tensors go with it (a host program that returned early never ended them).
    for (auto t = r.tensors.begin(); t != r.tensors.end();) {
      t = t->second.block == it->first ? r.tensors.erase(t) : std::next(t);
    }
    r.arenas.erase(it->first);
    r.blocks.erase(it);
  }
  std::free(p);
}

// System workspace: one 16 MiB GM block per process, allocated on first use (size is our choice).
inline GM_ADDR GetSysWorkSpacePtr() {
  static GM_ADDR ws = static_cast<GM_ADDR>(GmAlloc(16u << 20));
  return ws;
}

namespace shim {

template <typename P, typename A>
P ConvertArg(A&& a) {
  if constexpr (std::is_pointer_v<P> && std::is_pointer_v<std::decay_t<A>>) {
    // Host code passes GmAlloc's void* (or any object pointer) where the kernel takes GM_ADDR.
    return reinterpret_cast<P>(const_cast<void*>(static_cast<const void*>(a)));
  } else {
    return static_cast<P>(std::forward<A>(a));
  }
}

template <typename... P, typename... A>
void RunKernel(const char* name, void (*fn)(P...), int64_t numBlocks, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "ICPU_RUN_KF: argument count does not match the kernel");
  if (numBlocks < 1 || numBlocks > 65535) Fail("ICPU_RUN_KF", "numBlocks ", numBlocks, " is outside 1..65535");
  if (gBaton != nullptr) Fail("ICPU_RUN_KF", "nested kernel launch");
  std::tuple<std::decay_t<P>...> params(ConvertArg<std::decay_t<P>>(std::forward<A>(args))...);
  gKernelName = name;
  Baton baton(numBlocks);
  gBaton = &baton;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(numBlocks));
  for (int64_t b = 0; b < numBlocks; ++b) {
    threads.emplace_back([&baton, &params, fn, b, numBlocks] {
      baton.Acquire(b);
      tlsBlockIdx = b;
      tlsBlockNum = numBlocks;
      {
        BlockRt rt(b, numBlocks);
        tlsRt = &rt;
        std::apply(fn, params);
        rt.EndChecks();
        tlsRt = nullptr;
      }
      tlsBlockIdx = -1;
      baton.Done(b);
    });
  }
  baton.Start();
  for (auto& t : threads) t.join();
  CheckDisjointWrites(name);
  gBaton = nullptr;
  gKernelName = nullptr;
}

}  // namespace shim
}  // namespace AscendC

// tikicpulib-compatible launcher: ICPU_RUN_KF(kernel, numBlocks, args...).
#define ICPU_RUN_KF(func, blockDim, ...) ::AscendC::shim::RunKernel(#func, func, blockDim, __VA_ARGS__)

// No REGISTER_TILING_DEFAULT / GET_TILING_DATA: the public docs say they are not supported in
// kernel direct-call projects (the custom-operator compiler generates them), so a kernel using
// them must fail to compile here as it would with CANN. Direct-call kernels take their tiling
// struct by value.
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
