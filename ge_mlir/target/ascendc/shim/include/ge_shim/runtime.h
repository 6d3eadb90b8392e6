// Runtime state of the shim: SoC capacities, GM allocation registry, per-block on-chip arenas,
// the pipe/event model behind the sync checker, and the block scheduler.
#pragma once

#include <algorithm>
#include <array>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ge_shim/base.h"

namespace AscendC {
namespace shim {

constexpr int kHw = static_cast<int>(Hardware::MAX);
constexpr int kPipes = 7;  // PIPE_S .. PIPE_FIX; PIPE_ALL is not a pipe of its own
constexpr uint32_t kGranule = 32;  // sync-check granularity: one DataBlock

// ---------------------------------------------------------------- configuration

enum class Soc : uint8_t { Ascend910B, Ascend310P };

struct Config {
  Soc soc = Soc::Ascend910B;
  std::array<uint32_t, kHw> capacity{};
  bool syncCheck = true;
};

inline void ApplySocPreset(Config& c, Soc soc) {
  c.soc = soc;
  c.capacity.fill(0);
  if (soc == Soc::Ascend910B) {  // ASCENDC_API.md §1.4 (AtlasA2)
    c.capacity[static_cast<int>(Hardware::UB)] = 192 * 1024;
    c.capacity[static_cast<int>(Hardware::L1)] = 512 * 1024;
    c.capacity[static_cast<int>(Hardware::L0A)] = 64 * 1024;
    c.capacity[static_cast<int>(Hardware::L0B)] = 64 * 1024;
    c.capacity[static_cast<int>(Hardware::L0C)] = 128 * 1024;
    c.capacity[static_cast<int>(Hardware::BIAS)] = 1024;
    c.capacity[static_cast<int>(Hardware::FIXBUF)] = 7 * 1024;
  } else {
    // Not in ASCENDC_API.md: 310P-class figures from memory, unverified. Override with SetCapacity().
    c.capacity[static_cast<int>(Hardware::UB)] = 256 * 1024;
    c.capacity[static_cast<int>(Hardware::L1)] = 1024 * 1024;
    c.capacity[static_cast<int>(Hardware::L0A)] = 64 * 1024;
    c.capacity[static_cast<int>(Hardware::L0B)] = 64 * 1024;
    c.capacity[static_cast<int>(Hardware::L0C)] = 256 * 1024;
    c.capacity[static_cast<int>(Hardware::BIAS)] = 1024;
    c.capacity[static_cast<int>(Hardware::FIXBUF)] = 7 * 1024;
  }
}

inline Config& Cfg() {
  static Config cfg = [] {
    Config c;
#if defined(GE_ASCENDC_SHIM_SOC_ASCEND310P)
    Soc soc = Soc::Ascend310P;
#else
    Soc soc = Soc::Ascend910B;
#endif
    if (const char* s = std::getenv("GE_ASCENDC_SHIM_SOC")) {
      if (std::strncmp(s, "Ascend310P", 10) == 0) {
        soc = Soc::Ascend310P;
      } else if (std::strncmp(s, "Ascend910B", 10) == 0) {
        soc = Soc::Ascend910B;
      } else {
        Fail("GE_ASCENDC_SHIM_SOC", "unknown SoC '", s, "' (expected Ascend910B* or Ascend310P*)");
      }
    }
    ApplySocPreset(c, soc);
    if (const char* s = std::getenv("GE_ASCENDC_SHIM_SYNC_CHECK")) {
      c.syncCheck = !(s[0] == '0' && s[1] == '\0');
    }
    return c;
  }();
  return cfg;
}

// Host-side knobs (call before ICPU_RUN_KF).
inline void SetSoc(Soc soc) { ApplySocPreset(Cfg(), soc); }
inline void SetCapacity(Hardware hw, uint32_t bytes) { Cfg().capacity[static_cast<int>(hw)] = bytes; }
inline void SetSyncCheck(bool on) { Cfg().syncCheck = on; }

// Address alignment of each physical buffer (§1.4); InitBuffer rounds every buffer up to it.
inline uint32_t HwAlign(Hardware hw) {
  switch (hw) {
    case Hardware::L0A:
    case Hardware::L0B: return 512;
    case Hardware::L0C:
    case Hardware::BIAS:
    case Hardware::FIXBUF: return 64;
    default: return 32;
  }
}

// len rounded up to hw's alignment: the size InitBuffer gives each buffer (64-bit, so it cannot wrap).
inline uint64_t AlignedLen(Hardware hw, uint32_t len) {
  uint64_t a = HwAlign(hw);
  return (len + a - 1) / a * a;
}

// §1.4 TPosition -> physical mapping (A2/A3). CO2 is GM there, so it has no on-chip arena.
inline Hardware HwOf(TPosition p) {
  switch (p) {
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC: return Hardware::UB;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1: return Hardware::L1;
    case TPosition::A2: return Hardware::L0A;
    case TPosition::B2: return Hardware::L0B;
    case TPosition::CO1: return Hardware::L0C;
    case TPosition::C2: return Hardware::BIAS;
    default: return Hardware::GM;
  }
}

inline bool IsUbPos(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}

// ---------------------------------------------------------------- GM registry (host helpers)

// A tensor the host placed inside a GmAlloc block it carves up (a device arena), live from its
// GmTensorBegin to its GmTensorEnd.
struct GmTensor {
  size_t bytes = 0;
  uintptr_t block = 0;  // the GmAlloc block (arena) it lies in
  std::string name;
};

// Byte ranges [start, end) kept merged: what kernels wrote into a tensor or GmAlloc block.
struct Ranges {
  std::map<uint64_t, uint64_t> r;
  void Add(uint64_t a, uint64_t b) {
    auto it = r.upper_bound(a);
    if (it != r.begin() && std::prev(it)->second >= a) {
      --it;
      a = it->first;
      b = std::max(b, it->second);
      it = r.erase(it);
    }
    while (it != r.end() && it->first <= b) {
      b = std::max(b, it->second);
      it = r.erase(it);
    }
    r[a] = b;
  }
  // The first byte range of [a, b) not covered, or {b, b} when all of it is.
  std::pair<uint64_t, uint64_t> FirstGap(uint64_t a, uint64_t b) const {
    uint64_t at = a;
    for (auto it = r.begin(); it != r.end() && it->first <= at && at < b; ++it) {
      if (it->second > at) at = it->second;
    }
    if (at >= b) return {b, b};
    auto next = r.upper_bound(at);
    return {at, next == r.end() ? b : std::min<uint64_t>(b, next->first)};
  }
};

// One GM write of a launch: which block wrote [start, end).
struct GmWrite {
  uint64_t start, end;
  int64_t block;
};

struct GmRegistry {
  std::mutex mu;
  std::map<uintptr_t, size_t> blocks;
  std::map<uintptr_t, Ranges> blockWrites;   // per GmAlloc block outside arenas, since its GmAlloc
  std::vector<GmWrite> launchWrites;          // the running launch's GM writes, for the disjointness check
  // Blocks that hold tensors (arenas): every access there must lie inside one live tensor.
  std::set<uintptr_t> arenas;
  std::map<uintptr_t, GmTensor> tensors;  // live tensors by start address; never two overlapping
  std::map<uintptr_t, Ranges> tensorWrites;  // per live tensor, since its GmTensorBegin
};
inline GmRegistry& Gm() {
  static GmRegistry r;
  return r;
}

// What GmAlloc really allocates for a request of `bytes`: whole 512-byte units, at least one.
inline size_t GmAllocatedBytes(size_t bytes) { return bytes == 0 ? 512 : (bytes + 511) / 512 * 512; }

// The documented rule for carving one aclrtMalloc block into pieces (ACL API reference, aclrtMalloc):
// each piece takes ALIGN_UP(len, 32) + 32 bytes and starts at a 64-byte aligned address.
constexpr uintptr_t kGmSegmentAlign = 64;
inline uint64_t GmSegmentBytes(uint64_t len) { return (len + 31) / 32 * 32 + 32; }

// The GmAlloc block holding address a (its padding up to the 512-byte unit included); end() if none.
// Caller holds r.mu.
inline std::map<uintptr_t, size_t>::iterator GmBlockOf(GmRegistry& r, uintptr_t a) {
  auto it = r.blocks.upper_bound(a);
  if (it == r.blocks.begin()) return r.blocks.end();
  --it;
  return a < it->first + GmAllocatedBytes(it->second) ? it : r.blocks.end();
}

// Bounds-checks a GM access when the address lies in a GmAlloc block (its padding up to the 512-byte
// unit included, so an access that starts just past the end is caught). Inside an arena the access must
// lie in one live tensor: the per-allocation check, per tensor. Pointers from elsewhere (host malloc,
// stack) cannot be checked and pass.
inline void CheckGm(const char* api, const void* p, uint64_t bytes) {
  if (p == nullptr) Fail(api, "GM address is null");
  if (bytes == 0) return;
  auto a = reinterpret_cast<uintptr_t>(p);
  GmRegistry& r = Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  auto it = GmBlockOf(r, a);
  if (it == r.blocks.end()) return;
  if (r.arenas.count(it->first) != 0) {
    auto t = r.tensors.upper_bound(a);
    if (t == r.tensors.begin() || (--t, a >= t->first + t->second.bytes)) {
      Fail(api, "GM access of ", bytes, " bytes at arena offset ", a - it->first,
           " lies in no tensor live at this launch (outside every tensor's bytes, or in a tensor before its "
           "first or after its last launch)");
    }
    if (a + bytes > t->first + t->second.bytes) {
      Fail(api, "GM access of ", bytes, " bytes at offset ", a - t->first, " runs past the end of tensor '",
           t->second.name, "' (", t->second.bytes, " bytes at arena offset ", t->first - it->first,
           ") into arena bytes it does not own");
    }
    return;
  }
  if (a + bytes > it->first + it->second) {
    Fail(api, "GM access of ", bytes, " bytes at offset ", a - it->first, " runs past the end of its GmAlloc block (",
         it->second, " bytes)");
  }
}

// Records a kernel's write of GM bytes [p, p + bytes) (after CheckGm passed): for the check that the
// blocks of a launch write disjoint bytes (they run concurrently on the device, so two blocks writing one
// byte is a race whatever the shim's block order), and for the coverage checks of GmTensorEnd and
// GmExpectWritten (every byte of a tensor written before it dies or is read back).
inline void GmWrote(const void* p, uint64_t bytes) {
  if (bytes == 0) return;
  auto a = reinterpret_cast<uintptr_t>(p);
  GmRegistry& r = Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  int64_t blk = tlsBlockIdx;
  if (blk >= 0) {
    auto& w = r.launchWrites;
    if (!w.empty() && w.back().block == blk && w.back().end == a) {
      w.back().end = a + bytes;
    } else {
      w.push_back(GmWrite{a, a + bytes, blk});
    }
  }
  auto it = GmBlockOf(r, a);
  if (it == r.blocks.end()) return;
  if (r.arenas.count(it->first) != 0) {
    auto t = r.tensors.upper_bound(a);
    if (t != r.tensors.begin()) {
      --t;
      r.tensorWrites[t->first].Add(a - t->first, a - t->first + bytes);
    }
    return;
  }
  r.blockWrites[it->first].Add(a - it->first, a - it->first + bytes);
}

// A kernel reads GM bytes [p, p + bytes) (after CheckGm passed). Inside a device arena every tensor is
// an intermediate some earlier launch produced, so its bytes must have been written by a kernel since the
// tensor became live: a gap is a producer whose split of the work missed part of its output.
inline void GmRead(const char* api, const void* p, uint64_t bytes) {
  if (bytes == 0) return;
  auto a = reinterpret_cast<uintptr_t>(p);
  GmRegistry& r = Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  auto it = GmBlockOf(r, a);
  if (it == r.blocks.end() || r.arenas.count(it->first) == 0) return;
  auto t = r.tensors.upper_bound(a);
  if (t == r.tensors.begin()) return;
  --t;
  uint64_t off = a - t->first;
  auto gap = r.tensorWrites[t->first].FirstGap(off, off + bytes);
  if (gap.first < off + bytes) {
    Fail(api, "reads bytes [", gap.first, ", ", gap.second, ") of tensor '", t->second.name,
         "' that no kernel wrote since it became live: its producer's split of the work does not cover it");
  }
}

// After a launch: no GM byte written by two blocks.
inline void CheckDisjointWrites(const char* kernel) {
  GmRegistry& r = Gm();
  std::vector<GmWrite> w;
  {
    std::lock_guard<std::mutex> lk(r.mu);
    w.swap(r.launchWrites);
  }
  std::sort(w.begin(), w.end(), [](const GmWrite& x, const GmWrite& y) { return x.start < y.start; });
  uint64_t end = 0;
  const GmWrite* owner = nullptr;
  for (const GmWrite& x : w) {
    if (owner != nullptr && x.start < end && x.block != owner->block) {
      Fail("ICPU_RUN_KF", "kernel ", kernel, ": blocks ", owner->block, " and ", x.block, " both write GM bytes [", x.start - owner->start,
           ", ", std::min(end, x.end) - owner->start, ") past the start of block ", owner->block,
           "'s write; blocks run concurrently on the device, so the split of the work must give each byte to "
           "one block");
    }
    if (owner == nullptr || x.end > end) {
      end = x.end;
      owner = &x;
    }
  }
}

// Host side: `bytes` at p (a kernel output about to be read back) were all written by kernels since the
// GmAlloc (or GmTensorBegin) that made them.
inline void GmExpectWritten(const void* p, uint64_t bytes, const char* name) {
  auto a = reinterpret_cast<uintptr_t>(p);
  GmRegistry& r = Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  auto it = GmBlockOf(r, a);
  if (it == r.blocks.end() || bytes == 0) return;
  std::pair<uint64_t, uint64_t> gap;
  if (r.arenas.count(it->first) != 0) {
    auto t = r.tensors.find(a);
    if (t == r.tensors.end()) return;
    gap = r.tensorWrites[a].FirstGap(0, bytes);
  } else {
    gap = r.blockWrites[it->first].FirstGap(a - it->first, a - it->first + bytes);
    gap = {gap.first - (a - it->first), gap.second - (a - it->first)};
  }
  if (gap.first < bytes) {
    Fail("GmExpectWritten", "no kernel wrote bytes [", gap.first, ", ", gap.second, ") of '", name, "' (",
         bytes, " bytes): the launches' split of the work does not cover it");
  }
}

// Host side of a device arena (ge-mlir's host programs, ge.memory_plan): [p, p+bytes) holds tensor `name`
// from now until GmTensorEnd(p). The block p lies in becomes an arena. Checked: p lies in a GmAlloc block
// with the tensor's documented piece (GmSegmentBytes) inside it, starts 64-byte aligned, and that piece
// shares no byte with the piece of a tensor live now (a wrong memory plan). The bytes are refilled with
// 0xFF, as GmAlloc fills a fresh block, so reading what no kernel wrote still shows up as NaN.
inline void GmTensorBegin(void* p, size_t bytes, const char* name) {
  const char* api = "GmTensorBegin";
  if (p == nullptr) Fail(api, "tensor '", name, "' has a null address");
  if (bytes == 0) return;
  auto a = reinterpret_cast<uintptr_t>(p);
  GmRegistry& r = Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  auto it = GmBlockOf(r, a);
  if (it == r.blocks.end()) Fail(api, "tensor '", name, "' does not lie in a GmAlloc block");
  const uint64_t off = a - it->first, piece = GmSegmentBytes(bytes);
  if (off + piece > it->second) {
    Fail(api, "tensor '", name, "' needs arena bytes [", off, ", ", off + piece, ") (", bytes,
         " bytes rounded up to 32, plus 32), past the end of its ", it->second, "-byte arena");
  }
  if (a % kGmSegmentAlign != 0) {
    Fail(api, "tensor '", name, "' starts at arena offset ", off, ", not ", kGmSegmentAlign, "-byte aligned");
  }
  auto next = r.tensors.lower_bound(a);
  if (next != r.tensors.end() && next->second.block == it->first && next->first < a + piece) {
    Fail(api, "tensor '", name, "' at arena bytes [", off, ", ", off + piece, ") overlaps tensor '",
         next->second.name, "' at [", next->first - it->first, ", ",
         next->first - it->first + GmSegmentBytes(next->second.bytes),
         "), which is live at the same launch: a wrong memory plan");
  }
  if (next != r.tensors.begin()) {
    auto prev = std::prev(next);
    if (prev->second.block == it->first && prev->first + GmSegmentBytes(prev->second.bytes) > a) {
      Fail(api, "tensor '", name, "' at arena bytes [", off, ", ", off + piece, ") overlaps tensor '",
           prev->second.name, "' at [", prev->first - it->first, ", ",
           prev->first - it->first + GmSegmentBytes(prev->second.bytes),
           "), which is live at the same launch: a wrong memory plan");
    }
  }
  r.arenas.insert(it->first);
  r.tensors[a] = GmTensor{bytes, it->first, name};
  r.tensorWrites.erase(a);
  std::memset(p, 0xFF, bytes);
}

// The end of the live range GmTensorBegin(p, ...) started; later accesses to its bytes fail.
inline void GmTensorEnd(void* p) {
  auto a = reinterpret_cast<uintptr_t>(p);
  GmRegistry& r = Gm();
  std::lock_guard<std::mutex> lk(r.mu);
  auto it = r.tensors.find(a);
  if (it == r.tensors.end()) Fail("GmTensorEnd", "no live tensor starts at this address");
  r.tensorWrites.erase(a);
  r.tensors.erase(it);
}

// ---------------------------------------------------------------- per-block state

using Snap = std::array<uint32_t, kPipes>;

enum class BufState : uint8_t { Free, Allocated, Enqueued, Dequeued, Static };

struct BufRec {
  Hardware hw = Hardware::UB;
  TPosition pos = TPosition::VECCALC;
  uint32_t start = 0;
  uint32_t len = 0;
  int que = -1;  // owning queue, -1 for TBuf / raw tensors
  uint32_t gen = 0;
  BufState state = BufState::Static;
  bool hasFreeSnap = false;
  Snap freeSnap{};
  Snap enqSnap{};
};

struct QueRec {
  TPosition src = TPosition::VECIN;
  TPosition dst = TPosition::VECIN;
  pipe_t producer = PIPE_V;
  pipe_t consumer = PIPE_V;
  std::vector<int> bufs;
  std::deque<int> fifo;
  size_t next = 0;
};

struct Granule {
  uint32_t wTs = 0;
  uint8_t wPipe = 0;
  const char* wApi = nullptr;
  std::array<uint32_t, kPipes> rTs{};
  std::array<const char*, kPipes> rApi{};
};

inline uint64_t NextEpoch() {
  static uint64_t e = 0;  // only touched by the thread holding the scheduler baton
  return ++e;
}

// Which pipe produces into / consumes from a queue position; EnQue/DeQue and Free/Alloc stand for
// SetFlag/WaitFlag between them (§1 "Queues hide synchronisation").
inline pipe_t ProducerOf(TPosition p) {
  switch (p) {
    case TPosition::VECIN:
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1: return PIPE_MTE2;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2: return PIPE_MTE1;
    case TPosition::CO1: return PIPE_M;
    case TPosition::CO2: return PIPE_FIX;
    default: return PIPE_V;
  }
}
inline pipe_t ConsumerOf(TPosition p) {
  switch (p) {
    case TPosition::VECOUT:
    case TPosition::CO2: return PIPE_MTE3;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1: return PIPE_MTE1;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2: return PIPE_M;
    case TPosition::CO1: return PIPE_FIX;
    default: return PIPE_V;
  }
}

struct EventPipes {
  pipe_t src, dst;
};
inline EventPipes PipesOf(HardEvent e) {
  switch (e) {
    case HardEvent::MTE2_MTE1: return {PIPE_MTE2, PIPE_MTE1};
    case HardEvent::MTE1_MTE2: return {PIPE_MTE1, PIPE_MTE2};
    case HardEvent::MTE1_M: return {PIPE_MTE1, PIPE_M};
    case HardEvent::M_MTE1: return {PIPE_M, PIPE_MTE1};
    case HardEvent::MTE2_V: return {PIPE_MTE2, PIPE_V};
    case HardEvent::V_MTE2: return {PIPE_V, PIPE_MTE2};
    case HardEvent::MTE3_V: return {PIPE_MTE3, PIPE_V};
    case HardEvent::V_MTE3: return {PIPE_V, PIPE_MTE3};
    case HardEvent::M_V: return {PIPE_M, PIPE_V};
    case HardEvent::V_M: return {PIPE_V, PIPE_M};
    case HardEvent::V_V: return {PIPE_V, PIPE_V};
    case HardEvent::MTE3_MTE1: return {PIPE_MTE3, PIPE_MTE1};
    case HardEvent::MTE1_MTE3: return {PIPE_MTE1, PIPE_MTE3};
    case HardEvent::MTE1_V: return {PIPE_MTE1, PIPE_V};
    case HardEvent::MTE2_M: return {PIPE_MTE2, PIPE_M};
    case HardEvent::M_MTE2: return {PIPE_M, PIPE_MTE2};
    case HardEvent::V_MTE1: return {PIPE_V, PIPE_MTE1};
    case HardEvent::M_FIX: return {PIPE_M, PIPE_FIX};
    case HardEvent::FIX_M: return {PIPE_FIX, PIPE_M};
    case HardEvent::MTE3_MTE2: return {PIPE_MTE3, PIPE_MTE2};
    case HardEvent::MTE2_MTE3: return {PIPE_MTE2, PIPE_MTE3};
    case HardEvent::S_V: return {PIPE_S, PIPE_V};
    case HardEvent::V_S: return {PIPE_V, PIPE_S};
    case HardEvent::S_MTE2: return {PIPE_S, PIPE_MTE2};
    case HardEvent::MTE2_S: return {PIPE_MTE2, PIPE_S};
    case HardEvent::S_MTE3: return {PIPE_S, PIPE_MTE3};
    case HardEvent::MTE3_S: return {PIPE_MTE3, PIPE_S};
    case HardEvent::MTE2_FIX: return {PIPE_MTE2, PIPE_FIX};
    case HardEvent::FIX_MTE2: return {PIPE_FIX, PIPE_MTE2};
    case HardEvent::FIX_S: return {PIPE_FIX, PIPE_S};
    case HardEvent::M_S: return {PIPE_M, PIPE_S};
    case HardEvent::FIX_MTE3: return {PIPE_FIX, PIPE_MTE3};
    case HardEvent::MTE1_FIX: return {PIPE_MTE1, PIPE_FIX};
    case HardEvent::FIX_MTE1: return {PIPE_FIX, PIPE_MTE1};
    case HardEvent::FIX_FIX: return {PIPE_FIX, PIPE_FIX};
    default: Fail("HardEvent", "invalid event value ", static_cast<int>(e));
  }
}

inline std::string EventHint(pipe_t src, pipe_t dst) {
  for (int e = 0; e < static_cast<int>(HardEvent::MAX); ++e) {
    EventPipes p = PipesOf(static_cast<HardEvent>(e));
    if (p.src == src && p.dst == dst) {
      return std::string("SetFlag/WaitFlag<HardEvent::") + Name(static_cast<HardEvent>(e)) + ">";
    }
  }
  return "a PipeBarrier<PIPE_ALL>() (no HardEvent connects these pipes)";
}

class BlockRt {
 public:
  BlockRt(int64_t idx, int64_t num) : idx_(idx), num_(num), epoch_(NextEpoch()), check_(Cfg().syncCheck) {
    for (auto& row : vc_) row.fill(0);
  }

  int64_t Idx() const { return idx_; }
  int64_t Num() const { return num_; }
  uint64_t Epoch() const { return epoch_; }

  uint8_t* Mem(Hardware hw) {
    auto& m = mem_[static_cast<int>(hw)];
    if (!m) {
      uint32_t cap = Cfg().capacity[static_cast<int>(hw)];
      m.reset(new uint8_t[cap ? cap : 1]);
      // Poison: 0xFF bytes are NaN in fp16/fp32, so reading memory nothing wrote shows up in results.
      std::memset(m.get(), 0xFF, cap);
    }
    return m.get();
  }

  std::vector<BufRec>& Recs() { return recs_; }
  std::vector<QueRec>& Ques() { return ques_; }

  // Event ids handed out by TPipe::AllocEventID / FetchEventID in this block, one bit per id.
  void IssueEventId(HardEvent e, int id) { issued_[static_cast<size_t>(e)] |= static_cast<uint8_t>(1u << id); }
  bool EventIdIssued(HardEvent e, int id) const {
    return id >= 0 && id < 8 && (issued_[static_cast<size_t>(e)] & (1u << id));
  }

  int AddRec(const BufRec& r) {
    recs_.push_back(r);
    return static_cast<int>(recs_.size() - 1);
  }

  // ---- pipe model: vector clocks per pipe; vc_[p][p] counts the ops issued on pipe p.
  uint32_t BeginOp(pipe_t p) { return ++vc_[p][p]; }
  Snap SnapOf(pipe_t p) const { return vc_[p]; }
  void Join(pipe_t p, const Snap& s) {
    for (int q = 0; q < kPipes; ++q) vc_[p][q] = std::max(vc_[p][q], s[q]);
  }
  void BarrierAll() {
    Snap all{};
    for (int p = 0; p < kPipes; ++p)
      for (int q = 0; q < kPipes; ++q) all[q] = std::max(all[q], vc_[p][q]);
    for (int p = 0; p < kPipes; ++p) vc_[p] = all;
  }

  void SetFlag(HardEvent e, int32_t id) {
    EventPipes ps = PipesOf(e);
    events_[{static_cast<int>(e), id}].push_back(vc_[ps.src]);
  }
  void WaitFlag(HardEvent e, int32_t id) {
    auto it = events_.find({static_cast<int>(e), id});
    if (it == events_.end() || it->second.empty()) {
      Fail("WaitFlag", "WaitFlag<HardEvent::", e, ">(", id,
           ") has no preceding SetFlag with the same event and id: the pipe would wait forever");
    }
    Join(PipesOf(e).dst, it->second.front());
    it->second.pop_front();
  }

  // Records an access of [addr, addr+bytes) of a physical buffer by an op on pipe p with time stamp ts.
  // A cross-pipe access is legal only when the accessing pipe's clock already covers the conflicting one.
  void Touch(const char* api, const char* role, Hardware hw, uint32_t addr, uint64_t bytes, bool write, pipe_t p,
             uint32_t ts) {
    if (!check_ || bytes == 0) return;
    auto& sh = shadow_[static_cast<int>(hw)];
    if (sh.empty()) sh.resize(Cfg().capacity[static_cast<int>(hw)] / kGranule + 1);
    uint64_t first = addr / kGranule, last = (addr + bytes - 1) / kGranule;
    for (uint64_t g = first; g <= last; ++g) {
      Granule& G = sh[g];
      if (G.wTs != 0 && G.wPipe != p && vc_[p][G.wPipe] < G.wTs) {
        auto w = static_cast<pipe_t>(G.wPipe);
        Fail(api, write ? "WAW hazard: write of " : "RAW hazard: read of ", role, " ", hw, "[", addr, ", ",
             addr + bytes, ") on ", p, " races with the earlier write by ", G.wApi, " on ", w, " at ", hw, "[",
             g * kGranule, ", ", (g + 1) * kGranule, "): missing ", EventHint(w, p),
             " (or a TQue EnQue/DeQue, or PipeBarrier<PIPE_ALL>)");
      }
      if (write) {
        for (int q = 0; q < kPipes; ++q) {
          if (q != p && G.rTs[q] > vc_[p][q]) {
            auto r = static_cast<pipe_t>(q);
            Fail(api, "WAR hazard: write of ", role, " ", hw, "[", addr, ", ", addr + bytes, ") on ", p,
                 " races with the earlier read by ", G.rApi[q], " on ", r, " at ", hw, "[", g * kGranule, ", ",
                 (g + 1) * kGranule, "): missing ", EventHint(r, p),
                 " (or a TQue FreeTensor/AllocTensor, or PipeBarrier<PIPE_ALL>)");
          }
        }
        G.wTs = ts;
        G.wPipe = static_cast<uint8_t>(p);
        G.wApi = api;
        G.rTs.fill(0);
      } else {
        G.rTs[p] = ts;
        G.rApi[p] = api;
      }
    }
  }

  // Queue protocol at kernel end: every allocated buffer must have been freed, every EnQue matched by a DeQue.
  void EndChecks() {
    for (size_t q = 0; q < ques_.size(); ++q) {
      const QueRec& Q = ques_[q];
      if (!Q.fifo.empty()) {
        Fail("TQue", "unbalanced EnQue/DeQue at kernel end: queue #", q, " (", Q.src, ") still holds ",
             Q.fifo.size(), " enqueued tensor(s) that were never dequeued");
      }
      for (int b : Q.bufs) {
        if (recs_[b].state != BufState::Free) {
          Fail("TQue", "buffer leak at kernel end: queue #", q, " (", Q.src, ") buffer at ", recs_[b].hw, " offset ",
               recs_[b].start, " was allocated by AllocTensor but never released by FreeTensor");
        }
      }
    }
  }

 private:
  int64_t idx_, num_;
  uint64_t epoch_;
  bool check_;
  std::array<std::unique_ptr<uint8_t[]>, kHw> mem_;
  std::array<std::vector<Granule>, kHw> shadow_;
  std::vector<BufRec> recs_;
  std::vector<QueRec> ques_;
  std::array<uint8_t, static_cast<size_t>(HardEvent::MAX)> issued_{};
  std::array<Snap, kPipes> vc_{};
  std::map<std::pair<int, int32_t>, std::deque<Snap>> events_;
};

inline thread_local BlockRt* tlsRt = nullptr;

inline BlockRt& Rt(const char* api) {
  if (tlsRt == nullptr) Fail(api, "called outside a kernel launched with ICPU_RUN_KF");
  return *tlsRt;
}

// ---------------------------------------------------------------- block scheduler
// One thread per block, but only the baton holder runs: execution is sequential and deterministic
// (block 0 first), and SyncAll() can still be honoured by parking a block until every block arrives.

class Baton {
 public:
  explicit Baton(int64_t n) : st_(static_cast<size_t>(n), kRunnable) {}

  void Start() {
    std::unique_lock<std::mutex> lk(mu_);
    PassLocked();
  }
  void Acquire(int64_t b) {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait(lk, [&] { return cur_ == b; });
  }
  void Done(int64_t b) {
    std::unique_lock<std::mutex> lk(mu_);
    st_[static_cast<size_t>(b)] = kDone;
    PassLocked();
  }
  void Barrier(int64_t b) {
    std::unique_lock<std::mutex> lk(mu_);
    st_[static_cast<size_t>(b)] = kAtBarrier;
    PassLocked();
    cv_.wait(lk, [&] { return cur_ == b; });
  }

 private:
  enum : uint8_t { kRunnable, kAtBarrier, kDone };

  void PassLocked() {
    for (size_t i = 0; i < st_.size(); ++i) {
      if (st_[i] == kRunnable) {
        cur_ = static_cast<int64_t>(i);
        cv_.notify_all();
        return;
      }
    }
    bool anyBarrier = false;
    int64_t doneBlock = -1;
    for (size_t i = 0; i < st_.size(); ++i) {
      if (st_[i] == kAtBarrier) anyBarrier = true;
      if (st_[i] == kDone && doneBlock < 0) doneBlock = static_cast<int64_t>(i);
    }
    if (!anyBarrier) {
      cur_ = -2;  // all blocks finished
      cv_.notify_all();
      return;
    }
    if (doneBlock >= 0) {
      Fail("SyncAll", "block ", doneBlock,
           " returned without reaching SyncAll() while other blocks wait in it: the barrier would never release");
    }
    for (auto& s : st_) s = kRunnable;
    cur_ = 0;
    cv_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  int64_t cur_ = -1;
  std::vector<uint8_t> st_;
};

inline Baton* gBaton = nullptr;

}  // namespace shim
}  // namespace AscendC
