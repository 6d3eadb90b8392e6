// Kernels that break one documented rule each; the shim must stop them with exit code 86 and a message.
// Usage: negative <case>; `negative list` prints the case names.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"

using namespace AscendC;

// The cases' GM tensors: 64 floats (the host allocates 1024 bytes per argument).
static GlobalTensor<float> Gm64(GM_ADDR p) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)p, 64);
  return g;
}

// DataCopy of 12 floats = 48 bytes: the hardware would silently move 32.
extern "C" __global__ __aicore__ void misaligned(GM_ADDR x, GM_ADDR) {
  GlobalTensor<float> g = Gm64(x);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, g, 12);
  q.EnQue(t);
  t = q.DeQue<float>();
  q.FreeTensor(t);
}

// 2 x 98 KiB + nothing else = 200704 bytes > 192 KiB of UB on Ascend910B (fits the 310P preset).
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 98 * 1024);
}

extern "C" __global__ __aicore__ void double_free(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  q.FreeTensor(t);
  q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void alloc_beyond_depth(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 256);
  for (int i = 0; i < 3; ++i) q.AllocTensor<float>();  // the third finds both buffers in use
}

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  q.DeQue<float>();
}

extern "C" __global__ __aicore__ void unbalanced(GM_ADDR x, GM_ADDR) {
  GlobalTensor<float> g = Gm64(x);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, g, 64);
  q.EnQue(t);  // never dequeued
}

extern "C" __global__ __aicore__ void use_after_free(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECCALC, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  q.FreeTensor(t);
  Duplicate(t, 1.0f, 64);
}

// GM -> UB on MTE2 then Add on V with neither a flag nor a queue in between.
extern "C" __global__ __aicore__ void missing_sync(GM_ADDR x, GM_ADDR y) {
  GlobalTensor<float> gx = Gm64(x), gy = Gm64(y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, gx, 64);
  Add(t, t, t, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, t, 64);
}

// UB -> GM on MTE3 reads z; V overwrites z without waiting for MTE3.
extern "C" __global__ __aicore__ void war_hazard(GM_ADDR, GM_ADDR y) {
  GlobalTensor<float> gy = Gm64(y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> z = buf.Get<float>();
  Duplicate(z, 1.0f, 64);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(gy, z, 64);
  Duplicate(z, 2.0f, 64);
}

extern "C" __global__ __aicore__ void vector_on_l1(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::A1> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  Add(t, t, t, 64);
}

extern "C" __global__ __aicore__ void out_of_bounds(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 0.0f, 128);
}

extern "C" __global__ __aicore__ void wait_without_set(GM_ADDR, GM_ADDR) {
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID3);
}

// Block 1 returns early while block 0 waits in SyncAll.
extern "C" __global__ __aicore__ void syncall_mismatch(GM_ADDR, GM_ADDR) {
  if (GetBlockIdx() == 1) return;
  SyncAll();
}

// Device-arena cases (a host program with one allocation for its intermediates, ge.memory_plan): the
// kernel's GM tensor is a piece of the arena. Kernels take unsized GlobalTensors, as generated kernels do,
// so only the shim's per-tensor registry can see an access leave the tensor.

// Writes 128 floats (512 bytes) into a 256-byte tensor: the last 256 bytes land in its neighbour's piece.
extern "C" __global__ __aicore__ void arena_past_tensor(GM_ADDR x, GM_ADDR) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 512);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 1.0f, 128);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(g, t, 128);
}

// Reads tensor 'a', which no kernel has written since it became live (its producer missed it).
extern "C" __global__ __aicore__ void arena_unwritten_read(GM_ADDR x, GM_ADDR) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  DataCopy(buf.Get<float>(), g, 64);
}

// Both blocks write the same 64 floats of y: concurrent blocks racing on one output.
extern "C" __global__ __aicore__ void blocks_overlap(GM_ADDR, GM_ADDR y) {
  GlobalTensor<float> g = Gm64(y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 1.0f, 64);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(g, t, 64);
}

// Two blocks split 64 floats of y but block 1 writes nothing: the host's read-back finds the gap.
extern "C" __global__ __aicore__ void output_not_covered(GM_ADDR, GM_ADDR y) {
  GlobalTensor<float> g = Gm64(y);
  if (GetBlockIdx() == 1) return;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 128);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 1.0f, 32);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(g, t, 32);
}

// Reads its first argument: the host ended that tensor's live range before the launch.
extern "C" __global__ __aicore__ void arena_dead_tensor(GM_ADDR x, GM_ADDR) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, g, 64);
  q.EnQue(t);
  t = q.DeQue<float>();
  q.FreeTensor(t);
}

// Never runs: the host's second tensor overlaps the first while both are live (a wrong plan).
extern "C" __global__ __aicore__ void arena_overlap(GM_ADDR, GM_ADDR) {}

struct Case {
  const char* name;
  void (*fn)(GM_ADDR, GM_ADDR);
  int64_t blocks;
};

// One 1024-byte arena; tensor a: 256 bytes at offset 0 (its documented piece: 256 + 32 -> 320 at 64-byte
// alignment), tensor b: 256 bytes at offset 320. Case arena_overlap puts b at offset 128 instead; case
// arena_dead_tensor ends a's live range before launching on it.
static void RunArenaCase(const Case& c) {
  uint8_t* arena = static_cast<uint8_t*>(GmAlloc(1024));
  const bool overlap = std::strcmp(c.name, "arena_overlap") == 0;
  uint8_t* a = arena;
  uint8_t* b = arena + (overlap ? 128 : 320);
  shim::GmTensorBegin(a, 256, "a");
  shim::GmTensorBegin(b, 256, "b");
  if (std::strcmp(c.name, "arena_dead_tensor") == 0) shim::GmTensorEnd(a);
  ICPU_RUN_KF(c.fn, c.blocks, a, b);
  GmFree(arena);
}

// float -> int32_t with CAST_NONE: the Atlas A2 Cast table lists only RINT/FLOOR/CEIL/ROUND/TRUNC for it.
extern "C" __global__ __aicore__ void cast_not_in_table(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(b, 256);
  LocalTensor<float> src = a.Get<float>();
  Duplicate(src, 1.5f, 64);
  PipeBarrier<PIPE_V>();
  Cast(b.Get<int32_t>(), src, RoundMode::CAST_NONE, 64);
}

// Select in tensor-tensor mode with the whole unified buffer allocated: the API needs 8 KB of it free.
extern "C" __global__ __aicore__ void select_without_reserve(GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> big, mask, a;
  pipe.InitBuffer(mask, 32);
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(big, 192 * 1024 - 288);
  LocalTensor<float> x = a.Get<float>();
  LocalTensor<uint8_t> m = mask.Get<uint8_t>();
  Duplicate(x, 1.0f, 64);
  Duplicate(m.ReinterpretCast<int16_t>(), int16_t(-1), 16);
  PipeBarrier<PIPE_V>();
  Select(x, m, x, x, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
}

static const Case kCases[] = {
    {"arena_unwritten_read", arena_unwritten_read, 1}, {"blocks_overlap", blocks_overlap, 2},
    {"output_not_covered", output_not_covered, 2},
    {"cast_not_in_table", cast_not_in_table, 1}, {"select_without_reserve", select_without_reserve, 1},
    {"misaligned", misaligned, 1},         {"ub_overflow", ub_overflow, 1},
    {"double_free", double_free, 1},       {"alloc_beyond_depth", alloc_beyond_depth, 1},
    {"deque_empty", deque_empty, 1},       {"unbalanced", unbalanced, 1},
    {"use_after_free", use_after_free, 1}, {"missing_sync", missing_sync, 1},
    {"war_hazard", war_hazard, 1},         {"vector_on_l1", vector_on_l1, 1},
    {"out_of_bounds", out_of_bounds, 1},   {"wait_without_set", wait_without_set, 1},
    {"syncall_mismatch", syncall_mismatch, 2}, {"arena_past_tensor", arena_past_tensor, 1},
    {"arena_dead_tensor", arena_dead_tensor, 1}, {"arena_overlap", arena_overlap, 1},
};

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  if (std::strcmp(argv[1], "list") == 0) {
    for (const Case& c : kCases) std::printf("%s\n", c.name);
    return 0;
  }
  for (const Case& c : kCases) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    if (std::strncmp(c.name, "arena_", 6) == 0) {
      RunArenaCase(c);
      std::printf("completed %s\n", c.name);
      return 0;
    }
    uint8_t* x = static_cast<uint8_t*>(GmAlloc(1024));
    uint8_t* y = static_cast<uint8_t*>(GmAlloc(1024));
    std::memset(x, 0, 1024);
    ICPU_RUN_KF(c.fn, c.blocks, x, y);
    if (std::strcmp(c.name, "output_not_covered") == 0) shim::GmExpectWritten(y, 256, "y");
    GmFree(x);
    GmFree(y);
    std::printf("completed %s\n", c.name);
    return 0;
  }
  return 2;
}
