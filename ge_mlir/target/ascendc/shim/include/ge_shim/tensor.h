// GlobalTensor / LocalTensor and the checked access path every on-chip read or write goes through.
#pragma once

#include "ge_shim/runtime.h"

namespace AscendC {

// Position-independent description of a local tensor; the arena pointer is looked up per access, so a
// tensor never holds a pointer into memory that may already be gone.
struct LocalMeta {
  TPosition pos = TPosition::VECCALC;
  Hardware hw = Hardware::UB;
  uint32_t addr = 0;  // byte offset in the physical buffer (what GetPhyAddr returns)
  uint32_t size = 0;  // elements
  int rec = -1;       // BufRec index in the owning block, -1 = default-constructed
  uint32_t gen = 0;
  uint64_t epoch = 0;
};

namespace shim {

// Validates that m's tensor is alive and that [addr, addr+bytes) lies inside its buffer. addr is 64-bit so
// that an offset past 4 GiB is reported instead of wrapping into the buffer; on success it fits uint32_t.
inline void ValidateAt(const char* api, const char* role, const LocalMeta& m, uint64_t addr, uint64_t bytes) {
  BlockRt& rt = Rt(api);
  if (m.rec < 0) Fail(api, role, " is a default-constructed LocalTensor (no buffer)");
  if (m.epoch != rt.Epoch()) Fail(api, role, " is a LocalTensor from another block or launch");
  const BufRec& r = rt.Recs()[static_cast<size_t>(m.rec)];
  if (r.gen != m.gen || r.state == BufState::Free) {
    Fail(api, "use after free: ", role, " (", r.hw, " offset ", addr,
         ") belongs to a TQue buffer that was released by FreeTensor");
  }
  uint64_t end = static_cast<uint64_t>(r.start) + r.len;
  if (addr < r.start || addr + bytes > end) {
    Fail(api, "out of bounds: ", role, " access ", r.hw, "[", addr, ", ", addr + bytes, ") (", bytes,
         " bytes) is outside its buffer ", r.hw, "[", r.start, ", ", end, ")");
  }
}

inline void Validate(const char* api, const char* role, const LocalMeta& m, uint64_t bytes) {
  ValidateAt(api, role, m, m.addr, bytes);
}

inline void RequireAlign(const char* api, const char* role, const LocalMeta& m, uint32_t align) {
  if (m.addr % align != 0) {
    Fail(api, role, " ", m.hw, " address ", m.addr, " is not ", align, "-byte aligned");
  }
}

inline void RequireUb(const char* api, const char* role, const LocalMeta& m) {
  if (!IsUbPos(m.pos)) {
    Fail(api, role, " is in position ", m.pos, " (", m.hw,
         "): vector operands must be in VECIN/VECOUT/VECCALC (UB)");
  }
  RequireAlign(api, role, m, 32);
}

// One hardware instruction: a time stamp on its pipe plus checked operand accesses.
class Op {
 public:
  Op(const char* api, pipe_t p) : api_(api), rt_(Rt(api)), pipe_(p), ts_(rt_.BeginOp(p)) {}

  uint8_t* Read(const char* role, const LocalMeta& m, uint64_t bytes) { return Access(role, m, 0, bytes, false); }
  uint8_t* Write(const char* role, const LocalMeta& m, uint64_t bytes) { return Access(role, m, 0, bytes, true); }
  // Access of [m.addr+off, m.addr+off+bytes): strided copies touch only the blocks they move.
  uint8_t* Access(const char* role, const LocalMeta& m, uint64_t off, uint64_t bytes, bool write) {
    uint64_t addr = m.addr + off;
    ValidateAt(api_, role, m, addr, bytes);
    rt_.Touch(api_, role, m.hw, static_cast<uint32_t>(addr), bytes, write, pipe_, ts_);
    return rt_.Mem(m.hw) + addr;
  }

 private:
  const char* api_;
  BlockRt& rt_;
  pipe_t pipe_;
  uint32_t ts_;
};

// §1.4: address overlap is legal only when it is total (same start).
inline void CheckOverlap(const char* api, const LocalMeta& d, uint64_t dBytes, const char* role, const LocalMeta& s,
                         uint64_t sBytes) {
  if (d.hw != s.hw || d.addr == s.addr) return;
  uint64_t d0 = d.addr, d1 = d0 + dBytes, s0 = s.addr, s1 = s0 + sBytes;
  if (d0 < s1 && s0 < d1) {
    Fail(api, "partial overlap of dst ", d.hw, "[", d0, ", ", d1, ") and ", role, " [", s0, ", ", s1,
         "): only identical addresses may overlap");
  }
}

}  // namespace shim

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;

  void SetGlobalBuffer(__gm__ PrimType* buffer, uint64_t bufferSize) {
    ptr_ = buffer;
    size_ = bufferSize;
    sized_ = true;
  }
  void SetGlobalBuffer(__gm__ PrimType* buffer) {
    ptr_ = buffer;
    size_ = 0;
    sized_ = false;
  }
  const __gm__ PrimType* GetPhyAddr() const { return ptr_; }
  __gm__ PrimType* GetPhyAddr(const uint64_t offset) const { return ptr_ + offset; }
  PrimType GetValue(const uint64_t offset) const {
    const T* s = ShimSpan("GlobalTensor::GetValue", "element", offset, 1);
    shim::GmRead("GlobalTensor::GetValue", s, sizeof(T));
    return shim::Load<T>(s);
  }
  void SetValue(const uint64_t offset, PrimType value) {
    T* d = ShimSpan("GlobalTensor::SetValue", "element", offset, 1);
    shim::Store<T>(d, value);
    shim::GmWrote(d, sizeof(T));
  }
  uint64_t GetSize() const { return size_; }
  GlobalTensor operator[](const uint64_t offset) const {
    if (sized_ && offset > size_) {
      shim::Fail("GlobalTensor::operator[]", "offset ", offset, " is past the end of a GlobalTensor of ", size_,
                 " elements");
    }
    GlobalTensor r;
    r.ptr_ = ptr_ == nullptr ? nullptr : ptr_ + offset;  // a view of no buffer still has none (ShimSpan says so)
    r.size_ = sized_ ? size_ - offset : 0;
    r.sized_ = sized_;
    return r;
  }
  template <typename U>
  GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> r;
    if (sized_) {
      r.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(ptr_), size_ * sizeof(T) / sizeof(U));
    } else {
      r.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(ptr_));
    }
    return r;
  }
  void SetL2CacheHint(CacheMode mode) { (void)mode; }

  // Checked pointer to elements [first, first+count) of this view.
  T* ShimSpan(const char* api, const char* role, uint64_t first, uint64_t count) const {
    if (ptr_ == nullptr) shim::Fail(api, role, ": GlobalTensor has no buffer (SetGlobalBuffer not called)");
    if (sized_ && first + count > size_) {
      shim::Fail(api, "out of bounds: ", role, " GM elements [", first, ", ", first + count,
                 ") exceed the GlobalTensor size ", size_);
    }
    if (reinterpret_cast<uintptr_t>(ptr_) % sizeof(T) != 0) {
      shim::Fail(api, role, " GM address is not aligned to sizeof(T)=", sizeof(T));
    }
    shim::CheckGm(api, ptr_ + first, count * sizeof(T));
    return ptr_ + first;
  }

 private:
  __gm__ T* ptr_ = nullptr;
  uint64_t size_ = 0;
  bool sized_ = false;
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  // Wraps a raw address of a physical buffer (as manual-allocation code does). tileSize is in elements.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
    const char* api = "LocalTensor(pos, addr, tileSize)";
    shim::BlockRt& rt = shim::Rt(api);
    Hardware hw = shim::HwOf(pos);
    if (hw == Hardware::GM) shim::Fail(api, "position ", pos, " has no on-chip buffer");
    uint64_t bytes = static_cast<uint64_t>(tileSize) * sizeof(T);
    uint32_t cap = shim::Cfg().capacity[static_cast<int>(hw)];
    if (addr + bytes > cap) {
      shim::Fail(api, hw, " overflow: [", addr, ", ", addr + bytes, ") exceeds capacity ", cap);
    }
    shim::BufRec r;
    r.hw = hw;
    r.pos = pos;
    r.start = addr;
    r.len = static_cast<uint32_t>(bytes);
    m_ = LocalMeta{pos, hw, addr, tileSize, rt.AddRec(r), 0, rt.Epoch()};
    shim::RequireAlign(api, "tensor", m_, shim::HwAlign(hw));
  }

  LocalTensor operator[](const uint32_t offset) const {
    uint64_t addr = m_.addr + static_cast<uint64_t>(offset) * sizeof(T);
    shim::ValidateAt("LocalTensor::operator[]", "the offset view", m_, addr, 0);
    LocalMeta m = m_;
    m.addr = static_cast<uint32_t>(addr);
    m.size = offset < m_.size ? m_.size - offset : 0;
    return ShimMake(m);
  }
  PrimType GetValue(const uint32_t index) const {
    shim::Op op("LocalTensor::GetValue", PIPE_S);
    return shim::Load<T>(op.Access("element", m_, static_cast<uint64_t>(index) * sizeof(T), sizeof(T), false));
  }
  template <typename S>
  void SetValue(const uint32_t index, const S value) const {
    shim::Op op("LocalTensor::SetValue", PIPE_S);
    shim::Store<T>(op.Access("element", m_, static_cast<uint64_t>(index) * sizeof(T), sizeof(T), true),
                   static_cast<T>(value));
  }
  uint32_t GetSize() const { return m_.size; }
  void SetSize(const uint32_t size) {
    LocalMeta m = m_;
    m.size = size;
    shim::Validate("LocalTensor::SetSize", "the resized tensor", m, static_cast<uint64_t>(size) * sizeof(T));
    m_.size = size;
  }
  uint64_t GetPhyAddr() const { return m_.addr; }
  int32_t GetPosition() const { return static_cast<int32_t>(m_.pos); }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalMeta m = m_;
    m.size = static_cast<uint32_t>(static_cast<uint64_t>(m_.size) * sizeof(T) / sizeof(U));
    return LocalTensor<U>::ShimMake(m);
  }

  static LocalTensor ShimMake(const LocalMeta& m) {
    LocalTensor t;
    t.m_ = m;
    return t;
  }
  const LocalMeta& ShimMeta() const { return m_; }

 private:
  LocalMeta m_;
};

}  // namespace AscendC
